"""The bookkeeping of the server's summary tables (`handlog.summary`), without Polars: whether
a database has them (it was served), the figures kept in `serve_meta`, whether every stored
hand is summarized. `handlog.summary` makes and fills the tables (Polars and the report's
computations) and reads these; `handlog import` asks `has_summary` before it loads that
module at all: a one-hand import of a database never served loads neither Polars nor the
report package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb


def has_summary(connection: duckdb.DuckDBPyConnection) -> bool:
    """Whether the database has the summary tables (`handlog serve` made them)."""
    found = connection.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'serve_meta' "
        "AND schema_name = current_schema() AND database_name = current_database()"
    ).fetchall()
    return bool(found[0][0])


def meta_int(connection: duckdb.DuckDBPyConnection, key: str) -> int:
    """A figure kept in `serve_meta` (0 when it is not there)."""
    rows = connection.execute("SELECT value FROM serve_meta WHERE key = ?", [key]).fetchall()
    return int(rows[0][0]) if rows else 0


def max_rowid(connection: duckdb.DuckDBPyConnection, table: str) -> int:
    rows = connection.execute(f"SELECT coalesce(max(rowid), -1) FROM {table}").fetchall()
    return int(rows[0][0])


def summarized(connection: duckdb.DuckDBPyConnection) -> bool:
    """Whether every stored hand is summarized (read only: for a page to say so)."""
    import duckdb

    try:
        mark = meta_int(connection, "hands")
    except duckdb.CatalogException:
        return False
    return max_rowid(connection, "hands") <= mark


def remake(connection: duckdb.DuckDBPyConnection) -> None:
    """Have a served database's summary tables made again from the hands at their next
    catch-up (`handlog.summary`: another version is rebuilt), when stored rows they hold
    figures of have changed (`handlog ev` computing the all-in EV of hands summarized
    before); nothing for a database never served."""
    if has_summary(connection):
        connection.execute("UPDATE serve_meta SET value = 'remake' WHERE key = 'version'")
