"""`handlog export`: every stored table as Parquet or CSV files that DuckDB, Polars, pandas
or any Arrow reader opens without handlog; or the stud hands as PHH (`handlog.phh`).

The per-hand tables (hands and their details) are large: they are written Hive-style,
one folder per site and game (`hands/site=pokerstars/game=razz/data_0.parquet`), so that a
reader can take one game without reading the others; each detail row carries its hand's
`game` for that. In Parquet the site and game are in the folder names only, as Hive
partitioning has it (pyarrow, and so pandas, refuses them in both places); CSV files also
hold them as columns, since CSV readers (pandas') know nothing of folder names. The other
tables are one file each. Money stays in integer minor units, as stored; a flagged hand's
text (zlib in the store) is written as plain text.
"""

from __future__ import annotations

import shutil
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handlog.dataset import Dataset

FORMATS = ("parquet", "csv", "phh")

HAND_TABLES = ("hands", "hand_players", "actions", "pots", "awards", "violations", "hand_evidence")
"""Tables with a row per hand or per hand detail: partitioned by site and game."""

OTHER_TABLES = ("parse_errors", "skipped", "imports")
"""Small tables (one file each)."""


class ExportError(Exception):
    """Something the user can fix: no database, an unknown format."""


@dataclass
class Exported:
    table: str
    path: Path
    rows: int
    files: int
    note: str = ""


def export(db: Path | Dataset, out: Path, fmt: str) -> list[Exported]:
    """Write every table of the database at `db` into `out` (one folder or file per table,
    replaced if there) in `fmt` ("parquet" or "csv"). The database is only read (while an
    import writes it: a copy taken between two of its commits, as a report reads it).
    `ExportError` when there is no database, `StoreError` when it cannot be read
    (`DatabaseBusy` when another program holds it), `OutputError` when `out` cannot be
    written."""
    from handlog.snapshot import reading

    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if isinstance(db, Dataset):  # a Parquet dataset (handlog.dataset): the same tables
        from handlog.dataset import DatasetError
        from handlog.dataset import connect as connect_dataset

        try:
            connection = connect_dataset(db)
        except DatasetError as error:
            raise ExportError(str(error)) from None
        return _written(connection, out, fmt)
    if not db.exists():
        raise ExportError(f"no database at {db}: import hand histories first (handlog import)")
    with reading(db) as connection:
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
    options = "FORMAT parquet, COMPRESSION zstd" if fmt == "parquet" else "FORMAT csv, HEADER"
    partition_columns = "" if fmt == "parquet" else ", WRITE_PARTITION_COLUMNS true"
    # A flagged hand's text is zlib in the store: plain text in the export. (NULL passes
    # as NULL: "special" null handling hands it to the function.)
    from duckdb.func import SPECIAL

    connection.create_function("handlog_text", _text, ["BLOB"], "VARCHAR", null_handling=SPECIAL)
    results = []
    try:
        for table in HAND_TABLES:
            target = out / table
            _clear(target)
            query = _hand_query(connection, table)
            rows = _count(connection, query)
            if rows:
                connection.execute(
                    f"COPY ({query}) TO '{_quoted(target)}' "
                    f"({options}, PARTITION_BY (site, game){partition_columns})"
                )
            files = sum(1 for _ in target.rglob(f"*.{fmt}")) if target.exists() else 0
            results.append(Exported(table, target, rows, files))
        for table in OTHER_TABLES:
            target = out / f"{table}.{fmt}"
            _clear(target)
            query = f"SELECT * FROM {table} ORDER BY ALL"
            rows = _count(connection, query)
            connection.execute(f"COPY ({query}) TO '{_quoted(target)}' ({options})")
            results.append(Exported(table, target, rows, 1))
    finally:
        connection.close()
    return results


def _phh(connection: Any, out: Path) -> list[Exported]:
    from handlog import phh

    summary = phh.export(connection, out)
    note = "; ".join(
        f"{count:,} not written: {reason}" for reason, count in summary.skipped.items()
    )
    return [Exported("hands (PHH)", out, summary.hands, len(summary.files), note)]


def _hand_query(connection: object, table: str) -> str:
    if table == "hands":
        return "SELECT * FROM hands ORDER BY site, game, start_time, hand_id"
    columns = [
        row[0]
        for row in connection.execute(  # type: ignore[attr-defined]
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
            "ORDER BY ordinal_position",
            [table],
        ).fetchall()
    ]
    select = ", ".join(
        "handlog_text(t.text) AS text" if name == "text" else f"t.{name}" for name in columns
    )
    # No ORDER BY: sorting tens of millions of action rows costs more than the write.
    return f"SELECT {select}, h.game FROM {table} t JOIN hands h USING (site, hand_id)"


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
