"""The query page's SQL: read only, no file or network access, a time and a row limit.

The server holds the database open for writing (its watcher imports), and DuckDB lets a
process open a file only one way, so a query cannot have a read-only connection of its
own to it. Instead each query runs on a cursor of its own inside a READ ONLY transaction
(any write fails, and the transaction is rolled back whatever happens), must be one
SELECT (or EXPLAIN, or a bare table name as DuckDB's FROM-first shorthand) statement by
DuckDB's own parser, and the database has external access disabled for good when the
server starts (`lock_down`: no file read or written, no extension loaded or installed,
no other database attached). A query that runs past `TIME_LIMIT` seconds is interrupted;
at most `ROW_LIMIT` rows are fetched.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

TIME_LIMIT = 10.0
ROW_LIMIT = 1000
MAX_SQL = 20_000
LIMITS = {"seconds": TIME_LIMIT, "rows": ROW_LIMIT}


def lock_down(connection: duckdb.DuckDBPyConnection) -> None:
    """Disable DuckDB's access to anything but the open database, for the whole database
    instance and for good (it cannot be turned on again while the database is open):
    files, URLs, extensions."""
    for setting in (
        "SET autoinstall_known_extensions = false",
        "SET autoload_known_extensions = false",
        "SET allow_community_extensions = false",
        "SET enable_external_access = false",
    ):
        connection.execute(setting)


@dataclass
class Result:
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    truncated: bool = False
    error: str | None = None
    seconds: float = 0.0


def statement_error(text: str) -> str | None:
    """Why `text` is not one read-only statement (None when it is)."""
    import duckdb

    try:
        statements = duckdb.extract_statements(text)
    except duckdb.Error as error:
        return _first_line(error)
    if len(statements) != 1:
        return f"give one statement ({len(statements)} given)"
    kind = statements[0].type
    if kind not in (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN):
        return f"only SELECT (or EXPLAIN) statements are run here, not {kind.name}"
    return None


def run(connection: duckdb.DuckDBPyConnection, text: str) -> Result:
    """Run `text` (see the module doc); an error is a value, never raised."""
    import duckdb

    refused = statement_error(text)
    if refused:
        return Result(error=refused)
    started = time.perf_counter()
    cursor = connection.cursor()
    timer = threading.Timer(TIME_LIMIT, cursor.interrupt)
    try:
        cursor.execute("BEGIN TRANSACTION READ ONLY")
        timer.start()
        try:
            cursor.execute(text)
            columns = [d[0] for d in cursor.description or []]
            fetched = cursor.fetchmany(ROW_LIMIT + 1)
        finally:
            timer.cancel()
            with contextlib.suppress(duckdb.Error):
                cursor.execute("ROLLBACK")
    except duckdb.InterruptException:
        return Result(error=f"stopped after {TIME_LIMIT:g} s (the time limit)")
    except duckdb.Error as error:
        if "interrupt" in str(error).lower():
            return Result(error=f"stopped after {TIME_LIMIT:g} s (the time limit)")
        return Result(error=_first_line(error))
    finally:
        cursor.close()
    rows = [[_cell(value) for value in row] for row in fetched[:ROW_LIMIT]]
    return Result(columns, rows, len(fetched) > ROW_LIMIT, None, time.perf_counter() - started)


def _cell(value: Any) -> Any:
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value):,} bytes>"
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


def _first_line(error: BaseException) -> str:
    return str(error).strip().split("\n", 1)[0][:500]
