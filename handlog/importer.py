"""`handlog import`: parse, replay and load files into the store, each file once.

A file whose bytes are unchanged since its last import is skipped by its SHA-256. A file
that grew (its old bytes hash as before: a session still being played) is read again from
the start of its last hand; hands already stored are not stored twice. Files are cut into
ranges of whole hands that worker processes parse and replay; the parent loads each range
in one transaction with the file's `imports` row, which records how far the file got.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from handlog import store
from handlog.parse.reader import (
    ZIP_ENTRY,
    ByteRange,
    cuttable,
    hand_ranges,
    open_binary,
    path_size,
)
from handlog.snapshot import ImportLock

HASH_BLOCK = 1 << 20


RANGE_BYTES = int(os.environ.get("HANDLOG_RANGE_BYTES", 8 << 20))
"""Files are cut into ranges of whole hands of about this size (some 3,500 hands), each
parsed and replayed by a worker: both cores work on one big file, and memory holds only a
few ranges' rows at a time."""


DUCKDB_MEMORY_LIMIT = os.environ.get("HANDLOG_DUCKDB_MEMORY", "128MB")
"""The most memory DuckDB may take in the importing process (its buffer pool)."""


@dataclass(frozen=True)
class FilePlan:
    """A file to read, from the hand at `start_line` on."""

    path: str
    size: int
    start_line: int
    replaces: bool = False
    """The file changed since its last import, other than by growing (edited in place,
    rewritten): it is read again whole, the hands it holds now replace the versions of
    them it stored before, and its parse errors and skipped hands are those of its text
    now. (Hands it no longer holds stay: an import never deletes a hand.)"""
    imported_before: bool = False
    """The file has a row in `imports` already (grown, or changed)."""


@dataclass(frozen=True)
class Job:
    """One part of a file for a worker, with what its `imports` row records."""

    plan: FilePlan
    part: ByteRange | None
    """A range of whole hands; None: the whole file, streamed (UTF-16, archive entries)."""
    end: int
    """The file's bytes up to the part's end..."""
    sha256: str
    """...and their SHA-256."""
    last: bool
    """The file's last part."""
    error: str | None = None
    """The file could not be read on from here: nothing for a worker to do."""


COUNTS = ("hands", "illegal", "mis_split", "unparsed", "skipped", "inconsistent")
"""What a worker counts in a part of a file (`PartResult.counts`): hands, those with a fault
of each kind of verdict (a hand may have several), unparsed and skipped."""


@dataclass
class PartResult:
    """What a worker made of one range of a file."""

    path: str
    tables: dict[str, Any]
    counts: dict[str, int]
    line_reached: int
    error: str | None = None


Unreadable = tuple[str, int, str | None, str, str | None]
"""A hand (or stretch of text) that could not be read: file, line, hand ID, message and the
offending line, as `handlog parse` and `check` print it."""


def unreadable(tables: dict[str, Any]) -> list[Unreadable]:
    """The parse errors of a part's rows (`PartResult.tables`), in line order."""
    errors = tables.get("parse_errors")
    if errors is None:
        return []
    rows = zip(
        *(
            errors.column(name).to_pylist()
            for name in ("file", "line", "hand_id", "message", "text")
        ),
        strict=True,
    )
    return sorted(rows, key=lambda row: row[1])


@dataclass
class ImportSummary:
    files: int = 0
    unchanged: int = 0
    hands: int = 0
    new_hands: int = 0
    replaced: int = 0
    """Hands stored before by a file that changed since, stored again as it holds them now."""
    duplicates: int = 0
    flagged_illegal: int = 0
    flagged_mis_split: int = 0
    flagged_inconsistent: int = 0
    unparsed: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def file_hash(path: str, limit: int | None = None) -> str:
    """SHA-256 of the file, or of its first `limit` bytes."""
    digest = hashlib.sha256()
    remaining = limit
    with open_binary(path) as handle:
        while remaining is None or remaining > 0:
            block = handle.read(HASH_BLOCK if remaining is None else min(HASH_BLOCK, remaining))
            if not block:
                break
            digest.update(block)
            if remaining is not None:
                remaining -= len(block)
    return digest.hexdigest()


def _work(
    path: str, part: ByteRange | None, start_line: int, profile_name: str | None
) -> PartResult:
    """In a worker: parse and replay one range of a file, return its rows as Arrow tables."""
    import gc

    from handlog.check import check_items
    from handlog.parse import detect_file, parse_file, parse_range
    from handlog.parse.sites import profile_named

    gc.set_threshold(50_000, 20, 100)  # many small acyclic records: see handlog.cli
    profile = profile_named(profile_name) if profile_name else None
    batch = store.Batch()
    counts = dict.fromkeys(COUNTS, 0)
    line_reached = start_line
    flagged = []  # hands whose evidence is kept (handlog.evidence)
    read = []  # every hand read: its text is kept (handlog.texts)
    try:
        site = detect_file(path) if part is not None else None  # a range: cut by its format
        if site is None or part is None:
            items = parse_file(path, start_line)
        else:
            items = parse_range(path, part, site)
        for checked in check_items(items, path, profile):
            line_reached = max(line_reached, checked.first_line)
            store.add_checked(batch, checked)
            if checked.replay is not None:
                read.append(checked)
                counts["hands"] += 1
                counts["illegal"] += checked.replay.illegal
                counts["mis_split"] += checked.replay.mis_split
                counts["inconsistent"] += checked.replay.inconsistent
                if checked.replay.violations:
                    flagged.append(checked)
            elif checked.error is not None:
                counts["unparsed"] += 1
            else:
                counts["skipped"] += 1
        if read:
            from handlog.texts import add_texts, file_head, find_texts

            texts = find_texts(path, part, (checked.line for checked in read))
            add_texts(
                batch,
                (
                    (checked.hand.site.value, checked.hand.hand_id, texts[checked.line])
                    for checked in read
                    if checked.hand is not None and checked.line in texts
                ),
                file_head(path),
            )
        if flagged:
            from handlog.evidence import add_evidence

            add_evidence(batch, path, part, flagged, profile, texts)
        tables = batch.arrow()
    except OSError as error:
        return PartResult(path, {}, counts, start_line, f"cannot read: {error.strerror or error}")
    except Exception as error:  # noqa: BLE001 - a bug: its file fails alone, named, not the import
        first = str(error).strip().split("\n", 1)[0][:300]
        reason = (
            f"not stored: handlog failed on it ({type(error).__name__}: {first}); please report it"
        )
        return PartResult(path, {}, counts, start_line, reason)
    return PartResult(path, tables, counts, line_reached)


def import_paths(
    files: list[str],
    db_path: Path,
    profile_name: str | None = None,
    workers: int | None = None,
    on_file: Callable[[FilePlan, dict[str, int], int, list[Unreadable]], None] | None = None,
    on_part: Callable[[FilePlan, int, int], None] | None = None,
    after_commit: Callable[..., None] | None = None,
    opened: tuple[Any, ImportLock] | None = None,
) -> ImportSummary:
    """Import `files` into the database at `db_path` (see the module doc). A file that
    cannot be read or stored is noted in the summary's `failed`, and the next goes on;
    `ImportFailed` (a `StoreError`, with the summary so far) when the database itself
    cannot be used, `DatabaseBusy` when another process holds it.

    `after_commit(connection)` is called after each part is committed, and
    `after_commit(connection, final=True)` once at the end, while the import still holds
    the database for writing (`handlog.serve.summary.after_commit` keeps the server's
    summary tables up to date). `opened`: a connection to the database and the
    `ImportLock` its owner holds (a server that imports as files grow), used as they are
    and left open, their settings unchanged."""
    import duckdb

    started = time.perf_counter()
    summary = ImportSummary()
    count = workers or os.cpu_count() or 1
    # The workers are forked before the database is opened, so that they hold none of its
    # files (a worker forked later would keep the database and its write-ahead log open).
    pool = _Workers(count) if count > 1 and files and opened is None else None
    try:
        if opened is not None:
            connection, lock = opened
        else:
            lock = ImportLock(db_path)
            try:
                connection = store.connect(db_path)
            except BaseException:
                lock.close(opened=False)
                raise
            lock.pause()
        try:
            if opened is None:
                # DuckDB's buffer pool may otherwise grow to most of the machine's memory as
                # it caches the blocks it writes; an import needs only a batch's rows at a
                # time.
                connection.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
                # One DuckDB thread: the workers keep every core busy parsing, and DuckDB's
                # own threads would only compete with them (and wait for work spinning):
                # measured, a fifth less CPU in this process for the same inserts, and no
                # slower.
                connection.execute("SET threads = 1")
            # Files are planned, and cut into ranges, one range at a time as the workers
            # need them: the workers start on the first range at once.
            loading: _FileLoad | None = None
            jobs = _jobs(connection, files, summary)
            for job, result in _run(jobs, profile_name, pool):
                if loading is None or loading.plan is not job.plan:
                    loading = _FileLoad(job.plan)
                loading.load(connection, lock, job, result, on_part, after_commit)
                if job.last:
                    loading.finish(summary, on_file)
                    loading = None
            if after_commit is not None:
                lock.resume()
                try:
                    after_commit(connection, final=True)
                finally:
                    lock.pause()
        except (duckdb.Error, RuntimeError) as error:
            if _interrupted(error):
                raise KeyboardInterrupt from None
            if not isinstance(error, duckdb.Error):
                raise
            if loading is not None:  # the parts of the file committed before are counted
                loading.finish(summary, None)
            summary.seconds = time.perf_counter() - started
            raise ImportFailed(store.store_error(error, db_path), summary) from None
        finally:
            if opened is None:
                lock.resume()  # closing checkpoints: no report copies the files meanwhile
                connection.close()
                lock.close()
    finally:
        if pool is not None:
            pool.shutdown()
    summary.seconds = time.perf_counter() - started
    return summary


def _interrupted(error: BaseException) -> bool:
    """Whether a DuckDB error is Ctrl-C reaching a query. DuckDB turns it into an error of
    its own: an interrupt, or (when Ctrl-C lands while it reads a batch's Arrow data, in
    Python) an input error that names the KeyboardInterrupt it caught."""
    import duckdb

    text = str(error).lower()
    return (
        isinstance(error, duckdb.InterruptException)
        or (isinstance(error, RuntimeError) and "interrupted" in text)
        or (isinstance(error, duckdb.Error) and "keyboardinterrupt" in text)
    )


class ImportFailed(store.StoreError):
    """The database could not be used part way through an import; `summary` says what was
    stored before (committed: the next import goes on from there)."""

    def __init__(self, error: store.StoreError, summary: ImportSummary) -> None:
        super().__init__(str(error))
        self.summary = summary


class _Workers:
    """The worker processes, started again when one dies (killed for want of memory,
    say): the pool is broken then, and every job under way in it lost."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        import signal
        import threading

        pool = ProcessPoolExecutor(
            max_workers=self.count, initializer=_worker_started, initargs=(os.getpid(),)
        )
        # With the fork start method the first task forks every worker at once, here. They
        # are born ignoring Ctrl-C (the import answers it), even before their initializer.
        here = threading.current_thread() is threading.main_thread()
        before = signal.signal(signal.SIGINT, signal.SIG_IGN) if here else None
        try:
            pool.submit(os.getpid).result()
        finally:
            if here:
                signal.signal(signal.SIGINT, before)
        return pool

    def submit(self, *call: Any) -> Future[PartResult]:
        return self.pool.submit(*call)

    def restart(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = self._start()

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _worker_started(parent: int) -> None:
    """In each worker, first: the worker dies with the import that started it. On Linux
    the kernel sends it SIGKILL when the parent dies (prctl PR_SET_PDEATHSIG), even by
    `kill -9`; elsewhere a thread watches the parent. Ctrl-C is the parent's to handle."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _die_with_parent():
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


def _die_with_parent() -> bool:
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        set_death_signal = 1  # PR_SET_PDEATHSIG, <linux/prctl.h>
        return libc.prctl(set_death_signal, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _jobs(connection: Any, files: list[str], summary: ImportSummary) -> Iterator[Job]:
    """The parts of every file to import, file by file, each file planned and cut when its
    first part is wanted. An unchanged file has none; a file that cannot be read is noted
    in the summary (or, when it fails part way, ends with a part that says why)."""
    for path in files:
        summary.files += 1
        plan = None
        try:
            plan = _plan(connection, path, summary)
            if plan is not None:
                yield from _file_jobs(plan)
        except OSError as error:
            reason = f"cannot read: {error.strerror or error}"
            if plan is None:
                summary.failed.append((path, reason))
            else:
                yield Job(plan, None, 0, "", last=True, error=reason)


def _plan(connection: Any, path: str, summary: ImportSummary) -> FilePlan | None:
    """What to read of a file: None if unchanged since its last import."""
    size = _size(path)
    row = connection.execute(
        "SELECT size, sha256, line_reached FROM imports WHERE path = ?", [_key(path)]
    ).fetchone()
    if row is None:
        return FilePlan(path, size, 1)
    old_size, old_sha, line_reached = row  # imported before: unchanged, grown, or changed?
    if file_hash(path) == old_sha:
        summary.unchanged += 1
        return None
    if size > old_size and file_hash(path, old_size) == old_sha:
        # Grown: from its last hand on.
        return FilePlan(path, size, int(line_reached), imported_before=True)
    return FilePlan(path, size, 1, replaces=True, imported_before=True)


def _file_jobs(plan: FilePlan) -> Iterator[Job]:
    """A file's parts: its ranges of whole hands as they are cut, each with the SHA-256 of
    the file up to its end (hashed in the same read), or the whole file as one part."""
    from handlog.parse import detect_file

    path = plan.path
    site = detect_file(path) if cuttable(path) else None
    if site is None or site.header_bytes is None or site.header_marker is None:
        yield Job(plan, None, plan.size, file_hash(path), last=True)
        return
    digest = hashlib.sha256()
    held = None  # a range is passed on once the next one shows it is not the last
    for part in hand_ranges(
        path, site.header_bytes, site.header_marker, RANGE_BYTES, plan.start_line, digest
    ):
        if held is not None:
            yield held
        held = Job(plan, part, part.end, digest.copy().hexdigest(), last=False)
    if held is None:  # no hand header from the start line on: the file streamed whole
        yield Job(plan, None, plan.size, digest.hexdigest(), last=True)
    else:
        yield replace(held, last=True)


def _key(path: str) -> str:
    """How a file is known in `imports`: its absolute path (an archive entry: the archive's
    absolute path, then the entry)."""
    archive, mark, entry = path.partition(ZIP_ENTRY)
    return str(Path(archive).resolve()) + mark + entry


def _size(path: str) -> int:
    return path_size(path)


def _run(
    jobs: Iterator[Job], profile_name: str | None, pool: _Workers | None
) -> Iterator[tuple[Job, PartResult]]:
    """Every job with its result, in order, parsed and replayed by the worker processes of
    `pool` (None: here); at most two jobs per worker are under way or waiting, to bound
    memory. The next job is taken from `jobs` before a result is passed on, so that the
    workers are busy while it is loaded. When a worker dies, the job first in line is run
    again alone in new workers: if it kills one again, its file fails (and is reported);
    the jobs lost with the old workers are started again."""

    def here(job: Job) -> PartResult:
        if job.error is not None:  # nothing to read
            return PartResult(job.plan.path, {}, dict.fromkeys(COUNTS, 0), 0, job.error)
        return _work(job.plan.path, job.part, job.plan.start_line, profile_name)

    if pool is None:
        for job in jobs:
            yield job, here(job)
        return

    def start(job: Job) -> Future[PartResult]:
        if job.error is None:
            try:
                return pool.submit(
                    _work, job.plan.path, job.part, job.plan.start_line, profile_name
                )
            except BrokenProcessPool as error:  # seen broken before a result says so
                broken: Future[PartResult] = Future()
                broken.set_exception(error)
                return broken
        future: Future[PartResult] = Future()
        future.set_result(here(job))
        return future

    def lost(future: Future[PartResult]) -> bool:
        return not future.done() or future.cancelled() or future.exception() is not None

    pending: deque[tuple[Job, Future[PartResult]]] = deque()
    for job in jobs:
        pending.append((job, start(job)))
        if len(pending) >= 2 * pool.count:
            break
    while pending:
        job, future = pending.popleft()
        try:
            result = future.result()
        except BrokenProcessPool:
            pool.restart()
            try:
                result = start(job).result()
            except BrokenProcessPool:
                pool.restart()
                result = PartResult(
                    job.plan.path,
                    {},
                    dict.fromkeys(COUNTS, 0),
                    0,
                    "a worker process died reading it (killed, perhaps for want of memory)",
                )
            pending = deque(
                (waiting, start(waiting) if lost(future) else future) for waiting, future in pending
            )
        following = next(jobs, None)
        if following is not None:
            pending.append((following, start(following)))
        yield job, result


class _FileLoad:
    """Loading one file, part by part. Each part commits in one transaction with the file's
    `imports` row saying how far it got (bytes, their SHA-256, the last hand's line): an
    import killed between parts leaves a file that looks as if it had grown since, and the
    next import goes on from there. (One transaction for a whole file would hold all its
    rows in memory: 1.3 GB for 100,000 hands.)"""

    def __init__(self, plan: FilePlan) -> None:
        self.plan = plan
        self.key = _key(plan.path)
        self.started = datetime.now(UTC)
        self.totals = dict.fromkeys(COUNTS, 0)
        self.new = 0
        self.replaced = 0
        self.line_reached = plan.start_line
        self.failure: str | None = None
        self.first = True
        self.unreadable: list[Unreadable] = []

    def load(
        self,
        connection: Any,
        lock: ImportLock,
        job: Job,
        result: PartResult,
        on_part: Callable[[FilePlan, int, int], None] | None,
        after_commit: Callable[..., None] | None = None,
    ) -> None:
        """Store one part in one transaction. A part that cannot be stored (its rows too
        big for the memory limit, say) fails its file, which is reported, and the import
        goes on with the next file; an error of the database file itself is raised."""
        import duckdb

        first, self.first = self.first, False
        if self.failure is not None:
            return  # the rest of a failed file is read but not stored
        if result.error is not None:
            self.failure = result.error
            return
        lock.resume()
        try:
            added, replaced, reached = self._commit(connection, job, result, first)
            if after_commit is not None:
                after_commit(connection)
        except duckdb.Error as error:
            if store.is_storage_fault(error) or _interrupted(error):
                raise
            self.failure = "could not be stored: " + str(error).strip().split("\n", 1)[0]
            return
        finally:
            lock.pause()
        self.new += added
        self.replaced += replaced
        self.line_reached = reached
        self.unreadable += unreadable(result.tables)
        if on_part is not None:
            on_part(self.plan, result.counts["hands"], job.end)
        for name, value in result.counts.items():
            self.totals[name] += value

    def _commit(
        self, connection: Any, job: Job, result: PartResult, first: bool
    ) -> tuple[int, int, int]:
        """Store one part; the new hands, the hands replaced (`FilePlan.replaces`) and the
        line reached."""
        plan = self.plan
        connection.execute("BEGIN TRANSACTION")
        try:
            replaced = 0
            if first and plan.start_line > 1:
                # The last hand is read again: a parse error it had while half written goes.
                connection.execute(
                    "DELETE FROM parse_errors WHERE file = ? AND line >= ?",
                    [plan.path, plan.start_line],
                )
            if plan.replaces:
                if first:  # what the file's text was found to hold before goes
                    for table in ("parse_errors", "skipped"):
                        connection.execute(f"DELETE FROM {table} WHERE file = ?", [plan.path])
                replaced = _forget_replaced(connection, result.tables, self.key)
            added = store.load(connection, result.tables) - replaced
            reached = max(self.line_reached, result.line_reached)
            row = [
                job.end,
                job.sha256,
                reached,
                self.totals["hands"] + result.counts["hands"],
                self.new + added,
                self.started,
                datetime.now(UTC),
                self.key,
            ]
            # The file's row is there when it was imported before or a part of it is stored:
            # updated then, else inserted (INSERT OR REPLACE costs DuckDB three times as much,
            # a good share of the time a small file takes).
            if plan.imported_before or not first:
                connection.execute(
                    "UPDATE imports SET size = ?, sha256 = ?, line_reached = ?, hands = ?, "
                    "new_hands = ?, started_at = ?, finished_at = ? WHERE path = ?",
                    row,
                )
            else:
                connection.execute(
                    "INSERT INTO imports (size, sha256, line_reached, hands, new_hands, "
                    "started_at, finished_at, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
            connection.execute("COMMIT")
        except BaseException:
            store.rollback(connection)
            raise
        return added, replaced, reached

    def finish(
        self,
        summary: ImportSummary,
        on_file: Callable[[FilePlan, dict[str, int], int, list[Unreadable]], None] | None,
    ) -> None:
        totals = self.totals
        if self.failure is not None:
            summary.failed.append((self.plan.path, self.failure))
        summary.hands += totals["hands"]
        summary.new_hands += self.new
        summary.replaced += self.replaced
        summary.duplicates += totals["hands"] - self.new - self.replaced
        summary.flagged_illegal += totals["illegal"]
        summary.flagged_mis_split += totals["mis_split"]
        summary.flagged_inconsistent += totals["inconsistent"]
        summary.unparsed += totals["unparsed"]
        summary.skipped += totals["skipped"]
        if on_file is not None and self.failure is None:
            on_file(self.plan, {**totals, "replaced": self.replaced}, self.new, self.unreadable)


def _forget_replaced(connection: Any, tables: dict[str, Any], key: str) -> int:
    """Delete the stored rows of the hands of `tables` that the file known as `key` stored
    before (it changed since: the versions read now go in instead); how many hands."""
    hands = tables.get("hands")
    if hands is None:
        return 0
    connection.register("batch_keys", hands.select(["site", "hand_id"]))
    try:
        files = connection.execute(
            "SELECT DISTINCT h.file FROM hands h "
            "SEMI JOIN batch_keys b ON h.site = b.site AND h.hand_id = b.hand_id"
        ).fetchall()
        # Stored under the path the file was given by (relative, perhaps): the same file?
        ours = [file for (file,) in files if file is not None and _key(file) == key]
        if not ours:
            return 0
        connection.execute(
            "CREATE OR REPLACE TEMP TABLE replaced_hands AS SELECT DISTINCT h.site, h.hand_id "
            "FROM hands h SEMI JOIN batch_keys b ON h.site = b.site AND h.hand_id = b.hand_id "
            "WHERE list_contains(?, h.file)",
            [ours],
        )
        for name in store.TABLES:
            connection.execute(
                f"DELETE FROM {name} t USING replaced_hands r "
                "WHERE t.site = r.site AND t.hand_id = r.hand_id"
            )
        # fetchall: a result left unfinished would hold the connection for the next query
        return int(connection.execute("SELECT count(*) FROM replaced_hands").fetchall()[0][0])
    finally:
        connection.unregister("batch_keys")
