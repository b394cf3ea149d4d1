"""Make a big handlog database for speed measurements by replicating a smaller one in SQL.

    python tools/replicate_db.py SOURCE.duckdb COPIES OUT.duckdb

OUT holds COPIES copies of every hand of SOURCE: copy 0 is the hands as they are; copy k
(k >= 1) has each hand id suffixed "-rK" and its start time k weeks later, so the copies are
new hands that play a week apart (their sessions never run into each other). Every table
keyed by hand (site, hand_id), found in the catalog, so none is forgotten (hands,
hand_players, actions, pots, awards, violations, hand_evidence, ...) is copied that way;
the other tables (meta, parse_errors, skipped, imports) once, as they are. SOURCE is only
read. OUT must not exist.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import duckdb

WEEK_DAYS = 7


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def replicate(source: Path, copies: int, out: Path) -> int:
    """Write OUT (see the module doc); the number of hands in it."""
    if copies < 1:
        raise ValueError("COPIES must be 1 or more")
    if out.exists():
        raise FileExistsError(f"{out} exists: choose a new file")
    connection = duckdb.connect(str(out))
    try:
        path = str(source).replace("'", "''")
        connection.execute(f"ATTACH '{path}' AS src (READ_ONLY)")
        # The same schema (keys, defaults) as the source: copy it table by table.
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT table_name FROM duckdb_tables() WHERE database_name = 'src' "
                "ORDER BY table_name"
            ).fetchall()
        ]
        for table in tables:
            sql = connection.execute(
                "SELECT sql FROM duckdb_tables() WHERE database_name = 'src' AND table_name = ?",
                [table],
            ).fetchone()
            assert sql is not None
            connection.execute(sql[0])
        for table in tables:
            columns = [
                row[0]
                for row in connection.execute(
                    "SELECT column_name FROM duckdb_columns() "
                    "WHERE database_name = 'src' AND table_name = ? ORDER BY column_index",
                    [table],
                ).fetchall()
            ]
            name = _quoted(table)
            per_hand = "site" in columns and "hand_id" in columns
            if not per_hand:
                connection.execute(f"INSERT INTO {name} SELECT * FROM src.{name}")
                continue
            for copy in range(copies):
                started = time.process_time()
                replaced = []
                if copy:
                    replaced.append(f"hand_id || '-r{copy}' AS hand_id")
                    if table == "hands":
                        replaced.append(
                            f"start_time + INTERVAL {copy * WEEK_DAYS} DAY AS start_time"
                        )
                select = "*" + (f" REPLACE ({', '.join(replaced)})" if replaced else "")
                connection.execute(f"INSERT INTO {name} SELECT {select} FROM src.{name}")
                print(
                    f"{table}: copy {copy} ({time.process_time() - started:.1f} s CPU)",
                    file=sys.stderr,
                )
        row = connection.execute("SELECT count(*) FROM hands").fetchone()
        connection.execute("DETACH src")
        connection.execute("CHECKPOINT")
        return int(row[0]) if row else 0
    finally:
        connection.close()


def main() -> int:
    if len(sys.argv) != 4:
        print(
            "usage: python tools/replicate_db.py SOURCE.duckdb COPIES OUT.duckdb", file=sys.stderr
        )
        return 2
    source, copies, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    if not source.exists():
        print(f"no database at {source}", file=sys.stderr)
        return 2
    try:
        hands = replicate(source, int(copies), out)
    except (ValueError, FileExistsError, duckdb.Error) as error:
        print(f"replicate_db: {error}", file=sys.stderr)
        return 1
    print(f"{out}: {hands:,} hands")
    return 0


if __name__ == "__main__":
    sys.exit(main())
