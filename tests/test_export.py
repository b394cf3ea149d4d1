"""`handlog export`: every table as Parquet or CSV, read back without handlog (DuckDB,
Polars, pandas) with the same rows and the same sums as the store."""

from __future__ import annotations

import glob
import zlib
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest
from typer.testing import CliRunner

from handlog.cli import app
from handlog.export import HAND_TABLES, OTHER_TABLES, export
from handlog.importer import import_paths
from handlog.snapshot import NoDatabase

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_LOGS = ROOT / "sample_logs"
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory):  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("export")
    faulty = folder / "faulty.txt"
    arguments = ["simulate", "--game", "razz", "--hands", "120", "--seed", "5", "--faults", "0.2"]
    result = runner.invoke(app, [*arguments, "--out", str(faulty)])
    assert result.exit_code == 0, result.output
    path = folder / "h.duckdb"
    files = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt")) + [str(faulty)]
    import_paths(files, path, None, 1)
    return path


def _stored(path: Path) -> dict[str, tuple[int, dict[str, int]]]:
    """Rows and the sum of every integer column, per table, as stored."""
    connection = duckdb.connect(str(path), read_only=True)
    try:
        figures = {}
        for table in (*HAND_TABLES, *OTHER_TABLES):
            columns = [
                name
                for name, kind in connection.execute(
                    "SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_name = ?",
                    [table],
                ).fetchall()
                if kind in ("BIGINT", "INTEGER")
            ]
            sums = ", ".join(f"coalesce(sum({c}), 0)::BIGINT" for c in columns) or "0"
            row = connection.execute(f"SELECT count(*), {sums} FROM {table}").fetchone()
            assert row is not None
            figures[table] = (row[0], dict(zip(columns, row[1:], strict=False)))
        return figures
    finally:
        connection.close()


def _sums(frame: pd.DataFrame, columns: dict[str, int]) -> dict[str, int]:
    return {name: int(frame[name].fillna(0).astype("int64").sum()) for name in columns}


def test_parquet_reads_back_with_pandas_polars_and_duckdb(db, tmp_path):
    out = tmp_path / "parquet"
    written = {item.table: item for item in export(db, out, "parquet")}
    stored = _stored(db)
    assert stored["hands"][0] == 29 + 120 and stored["violations"][0] > 0
    assert stored["hand_evidence"][0] > 0
    for table, (rows, sums) in stored.items():
        assert written[table].rows == rows, table
        path = out / table if table in HAND_TABLES else out / f"{table}.parquet"
        frame = pd.read_parquet(path)  # pyarrow, Hive partitions as columns
        assert len(frame) == rows, table
        assert _sums(frame, sums) == sums, table
        pattern = str(path / "**" / "*.parquet") if table in HAND_TABLES else str(path)
        polars = pl.read_parquet(pattern, hive_partitioning=table in HAND_TABLES)
        assert polars.height == rows, table
        for name, total in sums.items():
            assert int(polars[name].fill_null(0).sum()) == total, (table, name)
        if table in HAND_TABLES:
            assert {"site", "game"} <= set(frame.columns) and {"site", "game"} <= set(
                polars.columns
            )
            # One folder per site and game the table holds.
            games = {str(g) for g in frame["game"].unique()}
            assert {p.name for p in path.glob("site=*/game=*")} == {f"game={g}" for g in games}
    counted = duckdb.execute(
        f"SELECT count(*), sum(net) FROM read_parquet('{out}/hand_players/**/*.parquet', "
        "hive_partitioning = true)"
    ).fetchone()
    assert counted == (stored["hand_players"][0], stored["hand_players"][1]["net"])


def test_csv_reads_back_and_keeps_the_hand_text(db, tmp_path):
    out = tmp_path / "csv"
    export(db, out, "csv")
    stored = _stored(db)
    for table, (rows, sums) in stored.items():
        if table in HAND_TABLES:
            files = glob.glob(str(out / table / "**" / "*.csv"), recursive=True)
            frame = pd.concat([pd.read_csv(f) for f in files]) if files else pd.DataFrame()
        else:
            frame = pd.read_csv(out / f"{table}.csv")
        assert len(frame) == rows, table
        if rows:
            assert _sums(frame, sums) == sums, table
    # A flagged hand's text is plain text in the export, as it stood in its file.
    connection = duckdb.connect(str(db), read_only=True)
    site, hand_id, blob = connection.execute(
        "SELECT site, hand_id, text FROM hand_evidence ORDER BY hand_id LIMIT 1"
    ).fetchone()  # type: ignore[misc]
    connection.close()
    evidence = pl.read_csv(str(out / "hand_evidence" / "**" / "*.csv"))
    text = evidence.filter(pl.col("hand_id").cast(pl.String) == hand_id)["text"][0]
    assert text == zlib.decompress(blob).decode("utf-8")
    assert text.startswith(f"PokerStars Hand #{hand_id}") and site == "pokerstars"


def test_export_command_and_its_errors(db, tmp_path):
    result = runner.invoke(
        app, ["export", "--db", str(db), "--format", "parquet", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 0, result.output
    assert "hand_players:" in result.output and "rows in" in result.output
    result = runner.invoke(
        app, ["export", "--db", str(db), "--format", "xml", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code == 2 and "unknown format" in result.output  # a usage error
    with pytest.raises(NoDatabase, match="no database"):
        export(tmp_path / "none.duckdb", tmp_path / "y", "csv")


@pytest.fixture(scope="module")
def mixed_db(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Hands whose ids look like numbers (PokerStars) and like text (a Merge id
    "70969727-130" and the like), of three units (dollars, KingsClub's hundredths, a Merge
    tournament's chips), and a player named as a spreadsheet formula."""
    from .conftest import SITES

    folder = tmp_path_factory.mktemp("typed")
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8-sig")
    hostile = folder / "formula.txt"
    hostile.write_text(
        source.replace("SilkZone", '=HYPERLINK("http://x.example","y")').replace(
            "meg100", "@SUM(A1)"
        ),
        encoding="utf-8",
    )
    files = [str(hostile), *sorted(str(p) for p in (SITES / "merge").glob("*.xml"))]
    files += sorted(str(p) for p in (SITES / "kingsclub").glob("*.txt"))
    path = folder / "h.duckdb"
    import_paths(files, path, None, 1)
    return path


def test_csv_reads_back_to_the_stores_types_in_polars_and_duckdb(mixed_db, tmp_path):
    """Every CSV file of a table reads back to the same types, whatever its values look
    like (ids as text, amounts as integers with their unit), in Polars (schema.json) and
    in DuckDB (load.sql)."""
    import json
    import os

    from handlog.export import POLARS_TYPES, polars_schema

    out = tmp_path / "csv"
    export(mixed_db, out, "csv")
    schema = json.loads((out / "schema.json").read_text())
    store = duckdb.connect(str(mixed_db), read_only=True)
    try:
        ids = {hand_id for (hand_id,) in store.execute("SELECT hand_id FROM hands").fetchall()}
        assert any("-" in hand_id for hand_id in ids) and any(i.isdigit() for i in ids)
        for table in ("hands", "hand_players", "actions", "pots"):
            stored = dict(
                store.execute(
                    "SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_name = ?",
                    [table],
                ).fetchall()
            )
            columns = schema[table]["columns"]
            for name, kind in stored.items():  # the store's types, lists as JSON text
                assert columns[name]["duckdb"] == ("VARCHAR" if kind.endswith("[]") else kind)
            if table != "hands":
                assert columns["unit"]["duckdb"] == "VARCHAR" and "game" in columns
            frame = pl.read_csv(
                str(out / table / "**" / "*.csv"), schema_overrides=polars_schema(out, table)
            )
            expected = {n: c["polars"] for n, c in columns.items()}
            assert {n: str(t) for n, t in frame.schema.items()} == {
                n: str(polars_schema(out, table)[n]) for n in expected
            }
            assert frame["hand_id"].dtype == pl.String
            assert set(frame["hand_id"].to_list()) <= ids
        assert POLARS_TYPES["BIGINT"] == "Int64"
        hands = pl.read_csv(
            str(out / "hands" / "**" / "*.csv"), schema_overrides=polars_schema(out, "hands")
        )
        assert set(hands["hand_id"].to_list()) == ids
        assert hands["net" if "net" in hands.columns else "total_pot"].dtype == pl.Int64
        assert set(hands["unit"].to_list()) == {"USD", "chips in hundredths", "tournament chips"}
    finally:
        store.close()
    here = os.getcwd()
    os.chdir(out)
    try:
        reader = duckdb.connect()
        reader.execute((out / "load.sql").read_text())
        assert reader.execute(
            "SELECT DISTINCT typeof(hand_id), typeof(net), typeof(unit) FROM hand_players"
        ).fetchall() == [("VARCHAR", "BIGINT", "VARCHAR")]
        assert reader.execute("SELECT count(*) FROM hands").fetchone() == (len(ids),)
        texts = reader.execute("SELECT count(*) FROM hand_texts").fetchone()
        assert texts == (len(ids),)
        reader.close()
    finally:
        os.chdir(here)


def test_csv_cells_that_would_run_as_formulas_get_a_leading_quote(mixed_db, tmp_path):
    """A player named =HYPERLINK(...) or @SUM(...) is text in a spreadsheet: the export's
    and the report's CSV files write it with a leading ' (numbers, negative amounts among
    them, stay numbers)."""
    from handlog.report import build
    from handlog.report.data import Filters

    out = tmp_path / "csv"
    export(mixed_db, out, "csv")
    players = pl.read_csv(str(out / "hand_players" / "**" / "*.csv"), infer_schema=False)
    names = set(players["player"].to_list())
    assert '\'=HYPERLINK("http://x.example","y")' in names and "'@SUM(A1)" in names
    assert not any(name[:1] in "=+-@\t\r" for name in names)
    assert (players["net"].cast(pl.Int64) < 0).any()  # negative amounts stay numbers
    build(mixed_db, tmp_path / "report", Filters(), "csv")
    report = (tmp_path / "report" / "players.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK" in report and "'@SUM(A1)" in report
    assert ",=HYPERLINK" not in report and "\n=HYPERLINK" not in report
