"""`handlog export`: every stored table as Parquet or CSV files that DuckDB, Polars, pandas
or any Arrow reader opens without handlog; or the stud hands as PHH (`handlog.phh`).

The per-hand tables (hands and their details) are large: they are written Hive-style,
one folder per site and game (`hands/site=pokerstars/game=razz/data_0.parquet`), so that a
reader can take one game without reading the others; each detail row carries its hand's
`game` for that, and each row with amounts its hand's `unit` (`handlog.units`). In Parquet
the site and game are in the folder names only, as Hive partitioning has it (pyarrow, and so
pandas, refuses them in both places); CSV files also hold them as columns, since CSV readers
(pandas') know nothing of folder names. The other tables are one file each. Money stays in
integer minor units, as stored; every hand's text (compressed in the store) is written as
plain text (`hand_texts`), as is a flagged hand's (`hand_evidence`).

CSV carries no types, and readers guess them file by file (a hand id "43618199-14" in one
file, "35874039554" in another): the export writes `schema.json` beside the files (each
table's files and columns with their DuckDB and Polars types: ids as text, amounts as
integers) and `load.sql` (DuckDB views over the files with those types), so that DuckDB and
Polars read every file to the same types (`polars_schema`). A text cell that a spreadsheet
would run as a formula (it starts with =, +, -, @, a tab or a carriage return: a player
named `=HYPERLINK(...)`) is written with a leading `'`, as spreadsheets expect.
"""

from __future__ import annotations

import json
import shutil
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handlog.dataset import Dataset
from handlog.store import TABLES

FORMATS = ("parquet", "csv", "phh")

TEXT_TABLE = "hand_texts"
"""Every hand's text (site, hand_id, text, game), partitioned like the hand tables."""

HAND_TABLES = tuple(table for table in TABLES if table != TEXT_TABLE)
"""Tables with a row per hand or per hand detail (the store's, but for the texts, written
apart): partitioned by site and game."""

OTHER_TABLES = ("parse_errors", "skipped", "imports", "aliases")
"""Small tables (one file each)."""

MONEY_TABLES = ("hand_players", "actions", "pots", "awards", "equities")
"""Detail tables with amounts: each row carries its hand's unit."""

TEXT_BATCH_BLOCKS = 5_000
"""Blocks of texts decompressed and written at a time (some 80,000 hands)."""

POLARS_TYPES = {
    "VARCHAR": "String",
    "BIGINT": "Int64",
    "INTEGER": "Int32",
    "BOOLEAN": "Boolean",
    "DOUBLE": "Float64",
    "TIMESTAMP WITH TIME ZONE": "Datetime(time_unit='us', time_zone='UTC')",
}
"""A column's type in Polars' words, as the export's files hold it (lists as JSON text)."""

FORMULA = "^[=+\\-@\\t\\r]"
"""What a spreadsheet runs as a formula when a text cell starts with it (CSV injection)."""


class ExportError(Exception):
    """Something the user can fix: an unknown format."""


@dataclass
class Exported:
    table: str
    path: Path
    rows: int
    files: int
    note: str = ""


def export(db: Path | Dataset, out: Path, fmt: str) -> list[Exported]:
    """Write every table of the database at `db` into `out` (one folder or file per table,
    replaced if there) in `fmt` ("parquet" or "csv"), with `schema.json` and `load.sql`. The
    database is only read (while an import writes it: a copy taken between two of its
    commits, as a report reads it). `snapshot.NoDatabase` when there is none, `StoreError`
    when it cannot be read (`DatabaseBusy` when another program holds it), `OutputError` when
    `out` cannot be written."""
    from handlog.snapshot import opened

    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    with opened(db) as connection:
        return _written(connection, out, fmt)


def _written(connection: Any, out: Path, fmt: str) -> list[Exported]:
    """`_export`, an error writing into `out` (the disk full, a folder that cannot be
    written) an `OutputError` that names it."""
    import duckdb

    from handlog.store import output_error

    try:
        return _export(connection, out, fmt)
    except OSError as error:
        raise output_error(error, error.filename or out) from None
    except duckdb.Error as error:
        text = str(error).lower()
        if str(out).lower() in text or any(
            words in text for words in ("no space left", "could not write", "read-only", "quota")
        ):
            raise output_error(error, f"the export into {out}") from None
        raise  # reading the database: `reading` says what is wrong with it


def _export(connection: Any, out: Path, fmt: str) -> list[Exported]:
    """The tables of `connection` written into `out` (see `export`); closes `connection`."""
    out.mkdir(parents=True, exist_ok=True)
    if fmt == "phh":
        try:
            return _phh(connection, out)
        finally:
            connection.close()
    csv = fmt == "csv"
    options = "FORMAT csv, HEADER" if csv else "FORMAT parquet, COMPRESSION zstd"
    partition = ", WRITE_PARTITION_COLUMNS true" if csv else ""
    # A flagged hand's text is zlib in the store: plain text in the export. (NULL passes
    # as NULL: "special" null handling hands it to the function.)
    from duckdb.func import SPECIAL

    connection.create_function("handlog_text", _text, ["BLOB"], "VARCHAR", null_handling=SPECIAL)
    connection.execute("SET TimeZone = 'UTC'")
    results = []
    schema: dict[str, Any] = {}
    try:
        for table in HAND_TABLES:
            target = out / table
            _clear(target)
            query = _hand_query(connection, table, csv)
            rows = _count(connection, query)
            if rows:
                connection.execute(
                    f"COPY ({query}) TO '{_quoted(target)}' "
                    f"({options}, PARTITION_BY (site, game){partition})"
                )
            files = sum(1 for _ in target.rglob(f"*.{fmt}")) if target.exists() else 0
            results.append(Exported(table, target, rows, files))
            schema[table] = _schema(connection, query, f"{table}/**/*.{fmt}")
        results.append(_texts(connection, out, fmt, options, partition))
        schema[TEXT_TABLE] = {
            "files": f"{TEXT_TABLE}/**/*.{fmt}",
            "columns": {
                name: {"duckdb": "VARCHAR", "polars": "String"}
                for name in ("site", "hand_id", "text", "game")
            },
        }
        for table in OTHER_TABLES:
            target = out / f"{table}.{fmt}"
            _clear(target)
            query = _neutralised(connection, f"SELECT * FROM {table} ORDER BY ALL", csv)
            rows = _count(connection, query)
            connection.execute(f"COPY ({query}) TO '{_quoted(target)}' ({options})")
            results.append(Exported(table, target, rows, 1))
            schema[table] = _schema(connection, query, f"{table}.{fmt}")
    finally:
        connection.close()
    _write_schema(out, fmt, schema)
    return results


def _phh(connection: Any, out: Path) -> list[Exported]:
    from handlog import phh

    summary = phh.export(connection, out)
    note = "; ".join(
        f"{count:,} not written: {reason}" for reason, count in summary.skipped.items()
    )
    return [Exported("hands (PHH)", out, summary.hands, len(summary.files), note)]


def _columns(connection: Any, table: str) -> list[tuple[str, str]]:
    rows = connection.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_name = ? AND table_schema = 'main' ORDER BY ordinal_position",
        [table],
    ).fetchall()
    return [(name, kind) for name, kind in rows]


def _hand_query(connection: Any, table: str, csv: bool = False) -> str:
    """The rows of a per-hand table with their hand's game (and unit: `MONEY_TABLES`)."""
    if table == "hands":
        query = "SELECT * FROM hands ORDER BY site, game, start_time, hand_id"
        return _neutralised(connection, query, csv)
    select = []
    for name, kind in _columns(connection, table):
        if name == "text":
            select.append("handlog_text(t.text) AS text")
        elif csv and kind.endswith("[]"):
            select.append(f"to_json(t.{name})::VARCHAR AS {name}")  # a list as JSON text
        else:
            select.append(f"t.{name}")
    unit = ", h.unit" if table in MONEY_TABLES else ""
    # No ORDER BY: sorting tens of millions of action rows costs more than the write.
    query = f"SELECT {', '.join(select)}, h.game{unit} FROM {table} t JOIN hands h USING (site, hand_id)"
    return _neutralised(connection, query, csv, keep=("text",))


def _neutralised(connection: Any, query: str, csv: bool, keep: tuple[str, ...] = ()) -> str:
    """`query` with each text cell that would start a formula in a spreadsheet given a
    leading `'` (CSV only; `keep`: columns left as they are: a hand's whole text)."""
    if not csv:
        return query
    select = []
    for name, kind, *_ in connection.execute(f"DESCRIBE ({query})").fetchall():
        column = '"' + name.replace('"', '""') + '"'
        if kind == "VARCHAR" and name not in keep:
            select.append(
                f"CASE WHEN regexp_matches({column}, '{FORMULA}') THEN concat(chr(39), {column}) "
                f"ELSE {column} END AS {column}"
            )
        else:
            select.append(column)
    return f"SELECT {', '.join(select)} FROM ({query})"


def _schema(connection: Any, query: str, files: str) -> dict[str, Any]:
    """A table's files and columns with their DuckDB and Polars types."""
    described = connection.execute(f"DESCRIBE ({query})").fetchall()
    return {
        "files": files,
        "columns": {
            name: {"duckdb": kind, "polars": POLARS_TYPES.get(kind, "String")}
            for name, kind, *_ in described
        },
    }


def _write_schema(out: Path, fmt: str, schema: dict[str, Any]) -> None:
    """`schema.json` (each table's files and column types) and `load.sql` (DuckDB views
    over the files with those types: run `duckdb -init load.sql` in the export folder)."""
    (out / "schema.json").write_text(json.dumps(schema, indent=1) + "\n", encoding="utf-8")
    views = []
    for table, found in schema.items():
        partitioned = "**" in found["files"]
        if fmt == "csv":
            types = ", ".join(
                f"'{name}': '{column['duckdb']}'" for name, column in found["columns"].items()
            )
            source = (
                f"read_csv('{found['files']}', header = true, types = {{{types}}}"
                + (", hive_partitioning = false" if partitioned else "")
                + ")"
            )
        else:
            hive = ", hive_partitioning = true" if partitioned else ""
            source = f"read_parquet('{found['files']}'{hive})"
        views.append(f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM {source};")
    (out / "load.sql").write_text(
        "-- handlog's export as DuckDB views, each column of its type: run in this folder\n"
        "-- (duckdb -init load.sql, or .read load.sql)\n" + "\n".join(views) + "\n",
        encoding="utf-8",
    )


def polars_schema(folder: Path, table: str) -> dict[str, Any]:
    """A table's column types as Polars reads them (`schema.json` of an export in
    `folder`), for `pl.read_csv(..., schema_overrides=...)`."""
    import polars as pl

    found = json.loads((folder / "schema.json").read_text(encoding="utf-8"))[table]
    types = {}
    for name, column in found["columns"].items():
        kind = column["polars"]
        types[name] = (
            pl.Datetime(time_unit="us", time_zone="UTC")
            if kind.startswith("Datetime")
            else getattr(pl, kind)
        )
    return types


def _texts(connection: Any, out: Path, fmt: str, options: str, partition: str) -> Exported:
    """Every hand's text (`hand_texts`, compressed in blocks in the store) as plain text:
    site, hand_id, text, game; a batch of blocks decompressed and written at a time."""
    import pyarrow as pa

    from handlog.texts import decompressor

    target = out / TEXT_TABLE
    _clear(target)
    codec = decompressor()
    rows = 0
    batch = 0
    blocks = [
        block
        for (block,) in connection.execute(
            "SELECT DISTINCT block FROM hand_texts ORDER BY block"
        ).fetchall()
    ]
    for first in range(0, len(blocks), TEXT_BATCH_BLOCKS):
        chosen = pa.table(
            {"block": pa.array(blocks[first : first + TEXT_BATCH_BLOCKS], pa.int64())}
        )
        connection.register("export_blocks", chosen)
        found = connection.execute("""
            SELECT t.site, t.hand_id, t.start, t.length, h.game, b.block, b.size, b.data
            FROM hand_texts t SEMI JOIN export_blocks k USING (block)
            JOIN text_blocks b USING (block) JOIN hands h USING (site, hand_id)
            ORDER BY b.block, t.start""").fetchall()
        connection.unregister("export_blocks")
        sites, ids, texts, games = [], [], [], []
        block_id, raw = None, b""
        for site, hand_id, start, length, game, block, size, data in found:
            if block != block_id:
                block_id = block
                raw = codec.decompress(data, max_output_size=size)
            sites.append(site)
            ids.append(hand_id)
            texts.append(raw[start : start + length].decode("utf-8"))
            games.append(game)
        if not ids:
            continue
        table = pa.table({"site": sites, "hand_id": ids, "text": texts, "game": games})
        connection.register("export_texts", table)
        connection.execute(
            f"COPY export_texts TO '{_quoted(target)}' ({options}, PARTITION_BY (site, game)"
            f"{partition}, FILENAME_PATTERN 'part{batch}_{{i}}', OVERWRITE_OR_IGNORE true)"
        )
        connection.unregister("export_texts")
        rows += len(ids)
        batch += 1
    files = sum(1 for _ in target.rglob(f"*.{fmt}")) if target.exists() else 0
    return Exported(TEXT_TABLE, target, rows, files)


def _text(blob: bytes | None) -> str | None:
    return None if blob is None else zlib.decompress(blob).decode("utf-8")


def _count(connection: object, query: str) -> int:
    return int(connection.execute(f"SELECT count(*) FROM ({query})").fetchone()[0])  # type: ignore[attr-defined]


def _clear(target: Path) -> None:
    if target.is_dir():
        shutil.rmtree(target)
    elif target.exists():
        target.unlink()


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")
