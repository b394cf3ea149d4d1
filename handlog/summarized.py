"""The bookkeeping of the server's summary tables (`handlog.summary`), without Polars: whether
a database has them (it was served), how many stored hands they have not summarized yet, and
the import's hooks that bring them up to date. `handlog.summary` makes and fills the tables
(Polars and the report's computations); this module is what an import needs of it, and it
imports that module only when there is something to summarize: a one-hand import of a
database never served loads neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb

IMPORT_BATCH = 20_000
"""Hands an import stores before its hook summarizes them (then once more at its end): a
summary part costs some 0.1-0.5 s whatever its size, and an import commits every 3,500
hands or so."""


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


def after_commit(connection: duckdb.DuckDBPyConnection, final: bool = False) -> None:
    """The import's hook after each commit (and once at its end, `final`), as the server
    imports: summarize the hands it stored (`summary.catch_up`), once `IMPORT_BATCH` of them
    wait or at the end. A failure here loses nothing (the hands are stored; the next
    catch-up summarizes them): it is raised only when the database itself cannot be used,
    as the import's own errors are."""
    import duckdb

    from handlog.store import is_storage_fault

    try:
        if not final:
            try:
                waiting = connection.execute(
                    "SELECT (SELECT coalesce(max(rowid), -1) FROM hands) - coalesce("
                    "(SELECT value::BIGINT FROM serve_meta WHERE key = 'hands'), -1)"
                ).fetchall()[0][0]
            except duckdb.CatalogException:
                waiting = IMPORT_BATCH  # no summary tables yet: made now
            if waiting < IMPORT_BATCH:
                return
        from handlog.summary import catch_up

        catch_up(connection)
    except Exception as error:
        # Ctrl-C reaching DuckDB (which turns it into an error of its own) stops the
        # import, as does a database that cannot be used; anything else is left for the
        # next catch-up to meet (and the server's log to show), the import going on.
        text = str(error).lower()
        interrupted = isinstance(error, duckdb.InterruptException) or "interrupt" in text
        if interrupted or (isinstance(error, duckdb.Error) and is_storage_fault(error)):
            raise
        import logging

        logging.getLogger("handlog.summary").warning(
            "the summary tables were not brought up to date: %s", str(error).split("\n", 1)[0]
        )


def after_import(connection: duckdb.DuckDBPyConnection, final: bool = False) -> None:
    """`handlog import`'s hook (`import_paths`' `after_commit`): the summary tables of a
    database that has them (`handlog serve` made them) are brought up to date once, at the
    end of the import. Those of a database never served are made by the server's first
    catch-up when it opens it: an import neither pays for them nor loads Polars."""
    if final and has_summary(connection):
        after_commit(connection, final=True)
