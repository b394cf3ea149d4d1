"""The report for millions of hands (`report.scaled`: DuckDB aggregates, statistics over
slices of hands) gives every table exactly as the all-rows computation (`compute`) does."""

from __future__ import annotations

import math
import time
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from handlog.cli import app
from handlog.importer import import_paths
from handlog.report import build, scaled
from handlog.report.data import Filters

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_LOGS = ROOT / "sample_logs"


@pytest.fixture(scope="module")
def db(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The sample logs, and simulated cash and tournament hands of each game (some faulty)
    with the players of a table changing from game to game."""
    folder = tmp_path_factory.mktemp("scaled")
    runner = CliRunner()
    files = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt"))
    for number, (game, extra) in enumerate(
        [("stud", []), ("stud8", ["--tournament"]), ("razz", ["--players", "5"])]
    ):
        path = folder / f"{game}.txt"
        arguments = ["simulate", "--game", game, "--hands", "260", "--seed", str(number)]
        result = runner.invoke(app, [*arguments, *extra, "--faults", "0.05", "--out", str(path)])
        assert result.exit_code == 0, result.output
        files.append(str(path))
    database = folder / "h.duckdb"
    import_paths(files, database, None, 1)
    return database


def _same(expected: pl.DataFrame, actual: pl.DataFrame, name: str) -> None:
    assert expected.columns == actual.columns, name
    assert expected.height == actual.height, name
    # Rows in one order (the tables' orders leave ties open); every column compared.
    keys = [c for c, t in expected.schema.items() if t in (pl.String, pl.Categorical)]
    keys += [c for c, t in expected.schema.items() if t.is_temporal()]
    keys += [c for c in expected.columns if c not in keys]

    def ordered(frame: pl.DataFrame) -> pl.DataFrame:
        frame = frame.with_columns(pl.col(pl.Categorical).cast(pl.String))
        return frame.sort(keys, nulls_last=True)

    left, right = ordered(expected), ordered(actual)
    for column in expected.columns:
        for a, b in zip(left[column].to_list(), right[column].to_list(), strict=True):
            if isinstance(a, float) and isinstance(b, float):
                assert (math.isnan(a) and math.isnan(b)) or math.isclose(
                    a, b, rel_tol=1e-9, abs_tol=1e-9
                ), (name, column, a, b)
            else:
                assert a == b, (name, column, a, b)


@pytest.mark.parametrize(
    "filters",
    [Filters(), Filters(player="Hero"), Filters(game="stud8")],
    ids=["all", "player", "game"],
)
def test_every_table_equals_the_all_rows_computation(db, tmp_path, monkeypatch, filters):
    # Many parts: hands cut at odd places for the statistics, players spread over parts
    # for the win-rates (sessions and their median interval across parts).
    monkeypatch.setattr(scaled, "CHUNK_HANDS", 97)
    monkeypatch.setattr(scaled, "CHUNK_ROWS", 500)
    reference = build(db, tmp_path / "frames", filters, "json", engine="frames")
    result = build(db, tmp_path / "scaled", filters, "json", engine="scaled")
    assert result.hands == reference.hands > 0
    assert reference.tables.keys() == result.tables.keys()
    assert reference.tables["players"].height > 0 and reference.tables["stats_third"].height > 0
    for name, table in reference.tables.items():
        _same(table, result.tables[name], name)
    assert result.summary == reference.summary


def test_the_charts_are_drawn_from_the_same_rows(db, tmp_path):
    build(db, tmp_path / "frames", Filters(), "html", engine="frames")
    build(db, tmp_path / "scaled", Filters(), "html", engine="scaled")
    # (flags_by_code.png draws the flags_by_code table, compared above; its bars of equal
    # counts come in either order.)
    for chart in ("cumulative.png", "bb100_by_game.png"):
        assert (tmp_path / "frames" / chart).read_bytes() == (
            tmp_path / "scaled" / chart
        ).read_bytes(), chart


def test_statistics_stop_when_the_page_fails(db, monkeypatch):  # type: ignore[no-untyped-def]
    """The statistics run in a thread beside the page (`report._scaled_tables`): when the
    page fails (or Ctrl-C), they stop after the part under way and the error is the
    page's."""
    from handlog import report
    from handlog.snapshot import reading

    monkeypatch.setattr(scaled, "CHUNK_HANDS", 10)
    parts: list[int] = []
    read_part = scaled._read_part

    def counted(*arguments):  # type: ignore[no-untyped-def]
        parts.append(1)
        return read_part(*arguments)

    monkeypatch.setattr(scaled, "_read_part", counted)

    def page(tables):  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + 60
        while not parts and time.monotonic() < deadline:  # the statistics have started
            time.sleep(0.01)
        raise KeyboardInterrupt

    with reading(db) as connection:
        with pytest.raises(KeyboardInterrupt):
            report._scaled_tables(connection, Filters(), page)
        hands = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
    assert len(parts) < hands / 10 / 2  # stopped early: not every part was read


def test_hand_columns_by_position_or_by_join() -> None:
    """`compute.with_hand_columns` takes a row's hand by position when the hands are
    numbered 1..n, and joins them otherwise: the same rows either way."""
    from handlog.report import compute

    hands = pl.DataFrame({"hk": [1, 2, 3], "game": ["stud", "razz", "stud8"]})
    rows = pl.DataFrame({"hk": [3, 1, 3, 2], "player": ["a", "b", "c", "d"]})
    by_position = compute.with_hand_columns(hands, rows, ["game"])
    assert by_position["game"].to_list() == ["stud8", "stud", "stud8", "razz"]
    gapped = hands.with_columns(pl.col("hk") * 10)
    joined = compute.with_hand_columns(gapped, rows.with_columns(pl.col("hk") * 10), ["game"])
    assert joined["game"].to_list() == by_position["game"].to_list()
    assert joined["player"].to_list() == ["a", "b", "c", "d"]


def test_sort_by_integers_packed_or_not() -> None:
    """`compute.sort_by_integers` gives the order of a sort by the columns, whether their
    values fit in one packed Int64 or not (or are empty, negative or null)."""
    from handlog.report import compute

    frame = pl.DataFrame(
        {"a": [3, 1, 3, 0, 1, 3], "b": [2, 9, 0, 5, 9, 2], "c": [7, 4, 1, 1, 2, 0]}
    )
    keys = ["a", "b", "c"]
    assert compute.sort_by_integers(frame, keys).equals(frame.sort(keys))
    wide = frame.with_columns(pl.col("b") * (1 << 40), pl.col("c") * (1 << 20))
    assert compute.sort_by_integers(wide, keys).equals(wide.sort(keys))
    negative = frame.with_columns(pl.col("c") - 5)
    assert compute.sort_by_integers(negative, keys).equals(negative.sort(keys))
    nulls = frame.with_columns(pl.when(pl.col("c") == 1).then(None).otherwise(pl.col("c")))
    assert compute.sort_by_integers(nulls, keys).equals(nulls.sort(keys))
    assert compute.sort_by_integers(frame.head(0), keys).height == 0


def test_progress_is_told_as_the_report_goes(db, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """`build(progress=...)` hears each step and the statistics' share done, part by part
    (`handlog report` shows them on a terminal)."""
    monkeypatch.setattr(scaled, "CHUNK_HANDS", 200)
    heard: list[tuple[str, float | None]] = []
    result = build(db, tmp_path, Filters(), "html", progress=lambda t, f=None: heard.append((t, f)))
    texts = [text for text, _ in heard]
    assert texts[0].startswith("selecting the hands")
    shares = [share for text, share in heard if text.startswith("stud statistics")]
    assert len(shares) == -(-result.hands // 200)  # a message per part
    assert (
        shares == sorted(shares) and shares[0] == 0 and all(s is not None and s < 1 for s in shares)
    )
    assert texts[-2:] == ["drawing the cumulative chart", "writing the html report"]
