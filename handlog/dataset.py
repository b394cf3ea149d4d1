"""Beyond one machine: `handlog import --engine dask --dataset DIR`, and every reading
command over such a dataset (`report`, `check`, `show`, `export` with `--dataset DIR`).

The engine is Dask distributed: a local cluster on this machine, or the scheduler of a real
cluster (`--scheduler tcp://host:8786`). The work is the DuckDB import's (`handlog.importer`),
cut the same way:

* one *plan* task per file, on a worker: is the file unchanged since it was last imported
  (its manifest, `DIR/_imports/<hash of the path>.json`, holds its size, the SHA-256 of the
  bytes read and the line of its last hand), grown (read on from its last hand), or new? It
  cuts what is to be read into ranges of whole hands (`HANDLOG_RANGE_BYTES`) and hashes the
  file up to each range's end, as the DuckDB import does;
* one *part* task per range: parse, replay and check it (`ingest.read_part`), and write its
  rows as one Parquet file per table, `DIR/<table>/<part>.parquet`, then the part's marker
  `DIR/_parts/<part>.json` (its counts and where it stands in its file). Each file is
  written under a temporary name and renamed: a worker killed half way leaves no part
  without its marker, and the rows of a part without a marker are never read. The part's
  name is made of the file's path hash, the SHA-256 of the file up to the range's end and
  the range's byte offsets: a retried task (its worker killed: Dask runs it again
  elsewhere) writes the same files again, and a rerun after a crash finds the parts done
  before by their markers and skips them;
* the client writes a file's manifest once all its parts are written: a file is "imported"
  only then, and a rerun after a crash plans it again the same way (same ranges, same
  names) and does only the parts that are missing.

Reading (`connect`): an in-memory DuckDB connection with one view per table of the store
(`store.COLUMNS`, same columns and types), so that every report, check, show and export
query runs unchanged. Each hand once by (site, hand id), as in the store: when a hand is in
several parts (the same hand in two files, a grown file's last hand read again), the views
keep the first by (file path, import generation, byte offset, line), which is the one the
DuckDB import keeps when the files are imported in path order (as `handlog import` lists
them), with the rows of its details from the same part. `parse_errors` and `skipped` rows
keep the last by (file, line), as the store's INSERT OR REPLACE does, and a grown file's
parse errors from its last hand on are dropped, as the store deletes them.

The dataset may be a local folder or any fsspec URL the workers and the client share (an
NFS mount, s3://bucket/prefix with s3fs installed); the hand-history paths must be readable
by the workers under the names given (shared storage, absolute paths on a real cluster).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from handlog import store
from handlog.importer import ImportSummary
from handlog.ingest import COUNTS

MARK = "_handlog_dataset.json"
"""The file that makes a folder a handlog dataset (its format version)."""
FORMAT_VERSION = 1
PARTS = "_parts"
IMPORTS = "_imports"


class DatasetError(Exception):
    """The dataset or the cluster cannot be used: one line that says why and what to do."""


@dataclass(frozen=True)
class Dataset:
    """A dataset folder or fsspec URL (`handlog import --dataset`)."""

    url: str

    def __str__(self) -> str:
        return self.url

    def filesystem(self) -> tuple[Any, str]:
        import fsspec

        fs, root = fsspec.core.url_to_fs(self.url)
        return fs, root.rstrip("/")

    def exists(self) -> bool:
        fs, root = self.filesystem()
        return bool(fs.exists(f"{root}/{MARK}"))

    def reading(self) -> AbstractContextManager[Any]:
        """`connect` as a context (what `snapshot.opened` reads of a dataset)."""
        return reading(self)


# -- writing ------------------------------------------------------------------------------


def _write_atomic(fs: Any, target: str, write: Callable[[Any], None]) -> None:
    """Write `target` through a temporary name in the same folder, then rename it."""
    temporary = f"{target}.tmp-{uuid.uuid4().hex}"
    with fs.open(temporary, "wb") as handle:
        write(handle)
    fs.mv(temporary, target)


def _write_json(fs: Any, target: str, value: Any) -> None:
    data = json.dumps(value, sort_keys=True).encode()
    _write_atomic(fs, target, lambda handle: handle.write(data))


def _read_json(fs: Any, target: str) -> Any:
    with fs.open(target, "rb") as handle:
        return json.loads(handle.read())


def _path_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


_DETAIL_KEYS = {
    "hand_players": ("site", "hand_id", "player"),
    "actions": ("site", "hand_id", "seq"),
    "pots": ("site", "hand_id", "pot"),
    "awards": ("site", "hand_id", "player"),
    "violations": ("site", "hand_id", "seq"),
    "hand_evidence": ("site", "hand_id"),
    "hand_texts": ("site", "hand_id"),
    "equities": ("site", "hand_id", "pot", "player"),
}
"""Each detail row's key (as `store.load` keeps one row per key of a repeated hand)."""


def _once_per_part(tables: dict[str, Any]) -> dict[str, Any]:
    """A part's tables with a hand that the part holds twice (the same hand twice in a
    file) kept once, its first copy, and each detail row once by its key, as `store.load`
    does with a batch that repeats a hand."""
    import pyarrow as pa

    hands = tables.get("hands")
    if hands is None:
        return tables
    keys = list(
        zip(hands.column("site").to_pylist(), hands.column("hand_id").to_pylist(), strict=True)
    )
    if len(set(keys)) == len(keys):
        return tables
    result = dict(tables)
    for name, columns in {"hands": ("site", "hand_id"), **_DETAIL_KEYS}.items():
        table = tables.get(name)
        if table is None:
            continue
        seen: set[tuple[Any, ...]] = set()
        keep = []
        rows = zip(*(table.column(c).to_pylist() for c in columns), strict=True)
        for index, row in enumerate(rows):
            if row not in seen:
                seen.add(row)
                keep.append(index)
        result[name] = table.take(pa.array(keep, pa.int64()))
    return result


def part_task(
    url: str,
    name: str,
    path: str,
    part: tuple[int, int, int, int, int] | None,
    start_line: int,
    profile_name: str | None,
    meta: dict[str, Any],
) -> dict[str, Any]:
    """On a worker: one range of one file (`part`: start, end, first line, and where its
    context begins and on which line, `ByteRange.context`; None: the whole file from
    `start_line`), parsed, replayed and written as the part `name` (see the
    module doc). Returns the part's marker: its counts and the tables written. A part
    already written (its marker there) is not done again."""
    import pyarrow as pa

    from handlog.ingest import read_part, unreadable
    from handlog.parse.reader import ByteRange

    fs, root = Dataset(url).filesystem()
    marker = f"{root}/{PARTS}/{name}.json"
    if fs.exists(marker):
        done = _read_json(fs, marker)
        done["before"] = True
        return dict(done)
    byte_range = None
    if part is not None:
        start, end, first_line, context, context_line = part
        byte_range = ByteRange(start, end, first_line, context=context, context_line=context_line)
    result = read_part(path, byte_range, start_line, profile_name)
    if result.error is not None:
        return {"name": name, "error": result.error}
    tables = _once_per_part(result.tables)
    schemas = store.arrow_schemas()
    written = []
    for table_name, table in tables.items():
        schema = schemas[table_name]
        table = table.select(list(store.COLUMNS[table_name])).cast(schema)
        table = table.append_column("_part", pa.array([name] * table.num_rows, pa.string()))
        target = f"{root}/{table_name}/{name}.parquet"
        _write_atomic(fs, target, partial(_write_parquet, table))
        written.append(table_name)
    done = dict(meta) | {
        "name": name,
        "counts": result.counts,
        "unreadable": unreadable(result.tables),
        "line_reached": result.line_reached,
        "tables": sorted(written),
    }
    _write_json(fs, marker, done)
    return done


def _write_parquet(table: Any, handle: Any) -> None:
    import pyarrow.parquet as pq

    pq.write_table(table, handle, compression="zstd")


def plan_task(url: str, path: str) -> dict[str, Any]:
    """On a worker: what to read of one file (see `importer._plan`, with the file's
    manifest in place of the store's `imports` row): {"unchanged": True}, or its parts
    (start, end, first line, context and its line, `part_task`'s, or None for the whole
    file; the SHA-256 up to the end), or an error."""
    from handlog.ingest import FilePlan, file_hash, file_jobs, file_key, file_size

    fs, root = Dataset(url).filesystem()
    key = file_key(path)
    manifest = f"{root}/{IMPORTS}/{_path_hash(key)[:32]}.json"
    try:
        size = file_size(path)
        old = _read_json(fs, manifest) if fs.exists(manifest) else None
        start_line, generation = 1, 0
        if old is not None:
            generation = int(old["generation"]) + 1
            if file_hash(path) == old["sha256"]:
                return {"unchanged": True, "key": key}
            if size > old["size"] and file_hash(path, old["size"]) == old["sha256"]:
                start_line = int(old["line_reached"])
        plan = FilePlan(path, size, start_line)
        jobs = []
        for job in file_jobs(plan):
            part = job.part
            where = None
            if part is not None:
                where = (part.start, part.end, part.first_line, part.context, part.context_line)
            jobs.append((where, job.end, job.sha256))
    except OSError as error:
        return {"error": f"cannot read: {error.strerror or error}", "key": key}
    return {
        "key": key,
        "size": size,
        "start_line": start_line,
        "generation": generation,
        "jobs": jobs,
        "history": (old or {}).get("history", []),
    }


# -- the import ---------------------------------------------------------------------------


@dataclass
class DatasetSummary(ImportSummary):
    """An import's summary (`handlog.importer.ImportSummary`) and the Dask run's own figures."""

    parts: int = 0
    parts_before: int = 0
    workers: int = 0


def _open_for_writing(dataset: Dataset) -> None:
    """Create the dataset's folders and mark (DatasetError when it cannot be written)."""
    try:
        fs, root = dataset.filesystem()
        for folder in (root, f"{root}/{PARTS}", f"{root}/{IMPORTS}") + tuple(
            f"{root}/{name}" for name in store.COLUMNS
        ):
            fs.makedirs(folder, exist_ok=True)
        mark = f"{root}/{MARK}"
        if fs.exists(mark):
            version = _read_json(fs, mark).get("format")
            if version != FORMAT_VERSION:
                raise DatasetError(
                    f"{dataset} is a handlog dataset of format {version}, not "
                    f"{FORMAT_VERSION}: import into another folder"
                )
        else:
            _write_json(fs, mark, {"format": FORMAT_VERSION, "schema": store.SCHEMA_VERSION})
    except (OSError, ValueError, ImportError) as error:
        reason = getattr(error, "strerror", None) or error
        raise DatasetError(
            f"cannot write the dataset {dataset} ({reason}): give --dataset a folder you "
            "can write (or a URL every worker can write)"
        ) from None


@contextmanager
def cluster(scheduler: str | None, workers: int | None) -> Iterator[Any]:
    """A Dask client: of the scheduler at `scheduler`, or of a local cluster of `workers`
    processes (default: one per core) with one thread each."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="5s")
        except (OSError, TimeoutError, ValueError) as error:
            raise DatasetError(
                f"cannot reach the Dask scheduler at {scheduler} ({str(error).splitlines()[0]}):"
                " give --scheduler the address `dask scheduler` prints (tcp://host:8786)"
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    local = LocalCluster(
        n_workers=workers or os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    )
    try:
        with Client(local) as client:
            yield client
    finally:
        local.close()


def import_dataset(
    files: list[str],
    dataset: Dataset,
    scheduler: str | None = None,
    workers: int | None = None,
    profile_name: str | None = None,
    on_file: Callable[[str, dict[str, int], list[tuple[Any, ...]]], None] | None = None,
    on_part: Callable[[str, int, float], None] | None = None,
) -> DatasetSummary:
    """Import `files` into `dataset` on a Dask cluster (see the module doc). A file that
    cannot be read, or whose part fails on every retry, is noted in `failed`; the others
    go on; `on_part(path, hands, share of its parts done)` after each part, `on_file` after
    each file. `DatasetError` when the dataset or the cluster cannot be used."""
    from distributed import as_completed

    started = time.perf_counter()
    summary = DatasetSummary()
    _open_for_writing(dataset)
    before = _distinct_hands(dataset)
    with cluster(scheduler, workers) as client:
        summary.workers = len(client.scheduler_info().get("workers", {}))
        # The workers' own working folder may be another: a local folder by its full path.
        url = dataset.url if "://" in dataset.url else os.path.abspath(dataset.url)
        plans = {
            client.submit(plan_task, url, path, pure=False, key=f"plan-{uuid.uuid4().hex}"): path
            for path in files
        }
        summary.files = len(files)
        files_state: dict[str, _FileState] = {}
        parts: dict[Any, str] = {}
        queue = as_completed(list(plans), with_results=False)
        for future in queue:
            if future in plans:
                path = plans.pop(future)
                try:
                    plan = future.result()
                except Exception as error:  # noqa: BLE001 - the task's own error, reported
                    summary.failed.append((path, f"could not be planned: {error}"))
                    continue
                if plan.get("unchanged"):
                    summary.unchanged += 1
                    continue
                if "error" in plan:
                    summary.failed.append((path, plan["error"]))
                    continue
                state = _FileState(path, plan)
                files_state[path] = state
                for (part, _end, sha), name in zip(plan["jobs"], state.names, strict=True):
                    meta = {
                        "key": plan["key"],
                        "generation": plan["generation"],
                        "pos": part[0] if part else 0,
                        "plan_start_line": plan["start_line"],
                        "sha256": sha,
                    }
                    task = client.submit(
                        part_task,
                        url,
                        name,
                        path,
                        part,
                        plan["start_line"],
                        profile_name,
                        meta,
                        key=f"part-{name}",
                        retries=1,
                    )
                    parts[task] = path
                    queue.add(task)
                if not state.names:
                    state.finish(dataset, summary, on_file)
                continue
            path = parts.pop(future)
            state = files_state[path]
            try:
                done = future.result()
            except Exception as error:  # noqa: BLE001 - KilledWorker after the retries
                state.failure = state.failure or f"a part could not be imported: {error}"
            else:
                state.add(done, summary)
                if on_part is not None and "counts" in done:
                    share = 1 - (state.remaining - 1) / len(state.names)
                    on_part(path, int(done["counts"]["hands"]), share)
            state.remaining -= 1
            if state.remaining == 0:
                state.finish(dataset, summary, on_file)
    after = _distinct_hands(dataset)
    summary.new_hands = after - before
    summary.duplicates = summary.hands - summary.new_hands
    summary.seconds = time.perf_counter() - started
    return summary


class _FileState:
    """One file being imported: its parts' counts as they come back."""

    def __init__(self, path: str, plan: dict[str, Any]) -> None:
        self.path = path
        self.plan = plan
        prefix = _path_hash(plan["key"])[:16]
        self.names = [
            f"{prefix}-{sha[:24]}-{part[0] if part else 0}-{end}" for part, end, sha in plan["jobs"]
        ]
        self.remaining = len(self.names)
        self.totals = dict.fromkeys(COUNTS, 0)
        self.line_reached = int(plan["start_line"])
        self.failure: str | None = None
        self.started = datetime.now(UTC)
        self.unreadable: list[tuple[Any, ...]] = []

    def add(self, done: dict[str, Any], summary: DatasetSummary) -> None:
        if "error" in done:
            self.failure = self.failure or done["error"]
            return
        summary.parts += 1
        summary.parts_before += bool(done.get("before"))
        for name, value in done["counts"].items():
            self.totals[name] += value
        self.line_reached = max(self.line_reached, int(done["line_reached"]))
        self.unreadable += [tuple(row) for row in done.get("unreadable", [])]

    def finish(
        self,
        dataset: Dataset,
        summary: DatasetSummary,
        on_file: Callable[[str, dict[str, int], list[tuple[Any, ...]]], None] | None,
    ) -> None:
        totals = self.totals
        summary.hands += totals["hands"]
        summary.flagged_illegal += totals["illegal"]
        summary.flagged_mis_split += totals["mis_split"]
        summary.flagged_inconsistent += totals["inconsistent"]
        summary.unparsed += totals["unparsed"]
        summary.skipped += totals["skipped"]
        if self.failure is not None:
            summary.failed.append((self.path, self.failure))
            return  # no manifest: the next import does the parts that are missing
        plan = self.plan
        if plan["jobs"]:
            _part, end, sha = plan["jobs"][-1]
        else:
            end, sha = plan["size"], ""
        fs, root = dataset.filesystem()
        manifest = {
            "path": plan["key"],
            "size": end,
            "sha256": sha,
            "line_reached": self.line_reached,
            "hands": totals["hands"],
            "generation": plan["generation"],
            "history": plan["history"] + [[plan["generation"], plan["start_line"]]],
            "started_at": self.started.isoformat(),
            "finished_at": datetime.now(UTC).isoformat(),
        }
        _write_json(fs, f"{root}/{IMPORTS}/{_path_hash(plan['key'])[:32]}.json", manifest)
        if on_file is not None:
            on_file(self.path, totals, sorted(self.unreadable, key=lambda row: row[1]))


def _distinct_hands(dataset: Dataset) -> int:
    connection = connect(dataset)
    try:
        return int(connection.execute("SELECT count(*) FROM hands").fetchone()[0])  # type: ignore[index]
    finally:
        connection.close()


# -- reading ------------------------------------------------------------------------------


def _parts(dataset: Dataset) -> list[dict[str, Any]]:
    return _json_files(dataset, PARTS)


def _manifests(dataset: Dataset) -> list[dict[str, Any]]:
    return _json_files(dataset, IMPORTS)


def _json_files(dataset: Dataset, name: str) -> list[dict[str, Any]]:
    """The JSON files in the dataset's folder `name`, read, in name order."""
    fs, root = dataset.filesystem()
    folder = f"{root}/{name}"
    if not fs.exists(folder):
        return []
    found = [path for path in fs.ls(folder, detail=False) if str(path).endswith(".json")]
    return [_read_json(fs, path) for path in sorted(found)]


def connect(dataset: Dataset) -> Any:
    """An in-memory DuckDB connection with a view per table of the store over the dataset's
    Parquet files, each hand once (see the module doc). `snapshot.NoDatabase` when there
    is no dataset there."""
    import duckdb
    import pyarrow as pa

    from handlog.snapshot import NoDatabase

    if not dataset.exists():
        raise NoDatabase(
            f"no handlog dataset at {dataset}: import into it first "
            "(handlog import --engine dask --dataset ...)"
        )
    fs, root = dataset.filesystem()
    protocol = fs.protocol if isinstance(fs.protocol, str) else fs.protocol[0]
    local = protocol in ("file", "local")
    prefix = "" if local else f"{protocol}://"
    parts = _parts(dataset)
    connection = duckdb.connect()
    if not local:
        connection.register_filesystem(fs)
    # The store's tables, empty, in a schema of their own: the views' shapes.
    connection.execute("CREATE SCHEMA shape")
    connection.execute("USE shape")
    connection.execute(store.SCHEMA)
    connection.execute("USE main")
    connection.execute("CREATE TABLE aliases AS SELECT * FROM shape.aliases")  # no persons
    connection.execute(
        "CREATE TABLE meta AS SELECT 'schema_version' AS key, ? AS value",
        [str(store.SCHEMA_VERSION)],
    )
    part_table = pa.table(
        {
            "_part": pa.array([p["name"] for p in parts], pa.string()),
            "key": pa.array([p["key"] for p in parts], pa.string()),
            "generation": pa.array([p["generation"] for p in parts], pa.int64()),
            "pos": pa.array([p["pos"] for p in parts], pa.int64()),
            "plan_start_line": pa.array([p["plan_start_line"] for p in parts], pa.int64()),
        }
    )
    connection.register("_parts_arrow", part_table)
    connection.execute("CREATE TABLE _parts AS SELECT * FROM _parts_arrow")
    connection.unregister("_parts_arrow")

    def source(table: str) -> str:
        # Every file of the table: those of parts without a marker (a worker killed between
        # its tables and its marker) are left out by the joins with `_parts` below.
        if not any(table in p["tables"] for p in parts):
            return f"(SELECT *, NULL::VARCHAR AS _part FROM shape.{table})"
        pattern = f"{prefix}{root}/{table}/*.parquet".replace("'", "''")
        # By name, with the table's empty shape: a column added since some parts (or all)
        # were written reads as NULL in them (`_LATER`).
        return (
            f"(SELECT * FROM read_parquet('{pattern}', union_by_name = true) "
            f"UNION ALL BY NAME SELECT *, NULL::VARCHAR AS _part FROM shape.{table})"
        )

    def columns(table: str, alias: str) -> str:
        return ", ".join(
            f"{_LATER[table, c].format(alias)} AS {c}" if (table, c) in _LATER else f"{alias}.{c}"
            for c in store.COLUMNS[table]
        )

    # Each hand's first copy: the part it is taken from.
    connection.execute(f"""
        CREATE TABLE _winners AS
        SELECT h.site, h.hand_id, h._part FROM {source("hands")} h JOIN _parts p USING (_part)
        QUALIFY row_number() OVER (
            PARTITION BY h.site, h.hand_id ORDER BY p.key, p.generation, p.pos, h.line) = 1""")
    for table in ("hands", *_DETAIL_KEYS):
        connection.execute(f"""
            CREATE VIEW {table} AS SELECT {columns(table, "t")} FROM {source(table)} t
            SEMI JOIN _winners w ON w.site = t.site AND w.hand_id = t.hand_id
                AND w._part = t._part""")
    # A block of texts is read with the hands that point at it, once (a block is named by
    # a hash of its text: two parts that made the same text made the same block).
    connection.execute(f"""
        CREATE VIEW text_blocks AS SELECT {columns("text_blocks", "t")}
        FROM {source("text_blocks")} t SEMI JOIN hand_texts h ON h.block = t.block
        QUALIFY row_number() OVER (PARTITION BY t.block) = 1""")
    for table in ("parse_errors", "skipped"):
        dropped = ""
        if table == "parse_errors":  # a grown file's parse errors from its last hand on
            dropped = """WHERE NOT EXISTS (
                SELECT 1 FROM _parts q WHERE q.key = p.key AND q.generation > p.generation
                    AND q.plan_start_line > 1 AND q.plan_start_line <= t.line)"""
        connection.execute(f"""
            CREATE VIEW {table} AS SELECT {columns(table, "t")} FROM {source(table)} t
            JOIN _parts p USING (_part) {dropped}
            QUALIFY row_number() OVER (
                PARTITION BY t.file, t.line ORDER BY p.generation DESC, p.pos DESC) = 1""")
    manifests = _manifests(dataset)
    imports = pa.table(
        {
            "path": pa.array([m["path"] for m in manifests], pa.string()),
            "size": pa.array([m["size"] for m in manifests], pa.int64()),
            "sha256": pa.array([m["sha256"] for m in manifests], pa.string()),
            "line_reached": pa.array([m["line_reached"] for m in manifests], pa.int32()),
            "hands": pa.array([m["hands"] for m in manifests], pa.int32()),
            "new_hands": pa.array([None for _ in manifests], pa.int32()),
            "started_at": pa.array(
                [datetime.fromisoformat(m["started_at"]) for m in manifests],
                pa.timestamp("us", tz="UTC"),
            ),
            "finished_at": pa.array(
                [datetime.fromisoformat(m["finished_at"]) for m in manifests],
                pa.timestamp("us", tz="UTC"),
            ),
        }
    )
    connection.register("_imports_arrow", imports)
    connection.execute(
        "CREATE TABLE imports AS SELECT * FROM shape.imports UNION ALL SELECT * FROM _imports_arrow"
    )
    connection.unregister("_imports_arrow")
    return connection


_LATER = {
    ("hands", "inconsistent"): "coalesce({0}.inconsistent, false)",
    ("hand_players", "ev_net"): "coalesce({0}.ev_net, {0}.net)",
    ("violations", "kind"): (
        "coalesce({0}.kind, CASE WHEN {0}.mis_split THEN 'mis-split' ELSE 'illegal' END)"
    ),
}
"""Columns added to the store after a dataset's first parts may have been written, and what
they read as in those parts (as `store.MIGRATIONS` fills them in a database file)."""


@contextmanager
def reading(dataset: Dataset) -> Iterator[Any]:
    """`connect` as a context (`Dataset.reading`)."""
    connection = connect(dataset)
    try:
        yield connection
    finally:
        connection.close()


# -- `handlog check --dataset`: the flags stored ------------------------------------------


def stored_flags(connection: Any) -> tuple[dict[str, int], list[str]]:
    """What `handlog check` prints of files, from the hands stored: the counts (ok,
    flagged, illegal, mis-split, unparsed, skipped, inconsistent) and, in file and line
    order, one line per fault (`CODE (kind)`, the flags that follow from it indented under
    it as `CODE (consequence)`) or parse error."""
    counts = dict(
        connection.execute("""
            SELECT 'ok', count(*) FILTER (WHERE status = 'ok') FROM hands
            UNION ALL SELECT 'flagged', count(*) FILTER (WHERE status <> 'ok') FROM hands
            UNION ALL SELECT 'illegal', count(*) FILTER (WHERE illegal) FROM hands
            UNION ALL SELECT 'mis-split', count(*) FILTER (WHERE mis_split) FROM hands
            UNION ALL SELECT 'inconsistent', count(*) FILTER (WHERE inconsistent) FROM hands
            UNION ALL SELECT 'unparsed', count(*) FROM parse_errors
            UNION ALL SELECT 'skipped', count(*) FROM skipped""").fetchall()
    )
    lines = []
    for file, line, hand_id, code, kind, message, cause in connection.execute("""
            SELECT file, line, hand_id, code, kind, message, cause FROM (
                SELECT h.file, h.line AS hand_line, v.line, v.hand_id, v.code, v.kind,
                    v.message, v.cause, coalesce(v.cause, v.seq) AS root, v.seq
                FROM violations v JOIN hands h USING (site, hand_id)
                UNION ALL
                SELECT file, line, line, coalesce(hand_id, ''), 'parse-error', NULL, message,
                    NULL, 0, 0
                FROM parse_errors)
            ORDER BY file, hand_line, hand_id, root, cause IS NOT NULL, seq""").fetchall():
        if code == "parse-error":
            lines.append(f"  {file}:{line}: hand {hand_id}: {code}: {message}")
        elif cause is None:
            lines.append(f"  {file}:{line}: hand {hand_id}: {code} ({kind}): {message}")
        else:
            lines.append(f"      {file}:{line}: hand {hand_id}: {code} (consequence): {message}")
    return counts, lines
