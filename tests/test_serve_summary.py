"""The summary tables of `handlog serve` (handlog/summary.py) against the report's
own computation: the additive win-rate sums give `winrate_sums`' figures, and a summary
built in many small parts (hands arriving out of order, sessions growing and merging
across parts) equals one built at once and the report's sessions."""

from __future__ import annotations

import datetime as dt
import random
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from handlog import summary
from handlog.importer import import_paths
from handlog.report import compute
from handlog.report.data import Filters, load
from handlog.serve import queries

ROOT = Path(__file__).resolve().parent.parent


def test_moments_give_the_win_rate_sums() -> None:
    """Every figure of `winrate_sums`, the all-in EV ones too, from sums of parts."""
    generator = random.Random(5)
    rows = []
    start = dt.datetime(2024, 1, 1)
    for index in range(400):
        structure = generator.choice(["fixed", "pot"])
        net = generator.randint(-300, 300)
        all_in = generator.random() < 0.2
        ev_net = net + generator.randint(-100, 100) if all_in else net
        priced = generator.random() > 0.1
        rows.append(
            {
                "player": generator.choice("ABC"),
                "unit": generator.choice(["USD", "chips"]),
                "structure": structure,
                "net": net,
                "rake_share": generator.randint(0, 3),
                "bb": net / 8 if structure == "fixed" else None,
                "bi": net / 2 if priced else None,
                "ev_net": ev_net,
                "bb_ev": ev_net / 8 if structure == "fixed" else None,
                "bi_ev": ev_net / 2 if priced else None,
                "all_in": all_in,
                "seconds": generator.choice([None, 30.0, 45.5]),
                "start_utc": start + dt.timedelta(minutes=index),
            }
        )
    frame = pl.DataFrame(rows)
    by = ["player"]
    keys = ["player", "unit", "structure"]
    expected = compute.winrate_sums(frame, by).sort(keys)
    # Sums of parts, added up, as the summary adds its groups.
    parts = [compute.winrate_moments(part, by) for part in frame.iter_slices(37)]
    added = (
        pl.concat(parts)
        .group_by(keys)
        .agg(
            pl.col(*compute.MOMENTS, *compute.EV_MOMENTS).sum(),
            pl.col("first").min(),
            pl.col("last").max(),
        )
    )
    found = compute.sums_from_moments(added).select(expected.columns).sort(keys)
    assert {"ev_bb_per_100", "ev_sd_bb", "ev_bi_per_100", "all_ins"} <= set(expected.columns)
    assert_frame_equal(found, expected, check_dtypes=False, rel_tol=1e-9, abs_tol=1e-9)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The sample logs and simulated hands of several tables, imported without a summary."""
    from typer.testing import CliRunner

    from handlog.cli import app

    folder = tmp_path_factory.mktemp("summary")
    files = [str(p) for p in sorted((ROOT / "sample_logs").glob("*.txt"))]
    for game, seed in (("razz", 3), ("stud", 4)):
        path = folder / f"{game}.txt"
        arguments = ["simulate", "--game", game, "--hands", "120", "--seed", str(seed)]
        result = CliRunner().invoke(app, [*arguments, "--players", "5", "--out", str(path)])
        assert result.exit_code == 0, result.output
        files.append(str(path))
    db = folder / "plain.duckdb"
    # In reverse: the store's order (rowid) is then not play order.
    import_paths(list(reversed(files)), db, None, 1)
    return db


def _built(source: Path, target: Path, chunk: int) -> duckdb.DuckDBPyConnection:
    shutil.copy(source, target)
    connection = duckdb.connect(str(target))
    summary.catch_up(connection, chunk_hands=chunk)
    return connection


SESSIONS = (
    "SELECT player, table_key, game, small_bet, hands, net, rake, bb_n, bb_sum, seconds, alone, "
    "first, last FROM serve_sessions ORDER BY player, table_key, first, game, small_bet"
)
SUMS = (
    "SELECT player, site, game, day, sum(hands) AS hands, sum(net) AS net, sum(bb_sum) AS bb, "
    "sum(bb_sq) AS bb_sq, sum(seconds) AS seconds, sum(alone) AS alone, "
    "sum(sd_bb) AS sd_bb, sum(sd_hands) AS sd_hands, min(first) AS first, max(last) AS last "
    "FROM serve_sums GROUP BY ALL ORDER BY ALL"
)

STATS = (
    "SELECT player, site, game, day, "
    + ", ".join(f"sum({name}) AS {name}" for name in summary.STAT_COLUMNS)
    + " FROM serve_stats GROUP BY ALL ORDER BY ALL"
)
AGGRESSION = (
    "SELECT player, site, game, day, street, sum(aggressive) AS a, sum(calls) AS c, "
    "sum(actions) AS n FROM serve_aggression GROUP BY ALL ORDER BY ALL"
)


def test_a_summary_made_in_parts_equals_one_made_at_once(imported, tmp_path):  # type: ignore[no-untyped-def]
    whole = _built(imported, tmp_path / "whole.duckdb", 100_000)
    parts = _built(imported, tmp_path / "parts.duckdb", 23)
    assert_frame_equal(
        parts.sql(SESSIONS).pl(), whole.sql(SESSIONS).pl(), rel_tol=1e-9, abs_tol=1e-6
    )
    assert_frame_equal(parts.sql(SUMS).pl(), whole.sql(SUMS).pl(), rel_tol=1e-9, abs_tol=1e-6)
    # The statistics' counts too (each hand's, whatever part it came in).
    for stats in (STATS, AGGRESSION):
        assert_frame_equal(parts.sql(stats).pl(), whole.sql(stats).pl())
    # Changes piled up by the parts, added up, are the same sums.
    summary.compact(parts)
    assert_frame_equal(parts.sql(SUMS).pl(), whole.sql(SUMS).pl(), rel_tol=1e-9, abs_tol=1e-6)
    for stats in (STATS, AGGRESSION):
        assert_frame_equal(parts.sql(stats).pl(), whole.sql(stats).pl())
    assert (
        parts.sql("SELECT count(*) FROM serve_rows").fetchall()
        == whole.sql("SELECT count(*) FROM serve_rows").fetchall()
    )

    # The report's sessions, and the report's went-to-showdown per player.
    frames = load(whole, Filters())
    rows = compute.player_hands(frames)
    report = compute.sessions(rows).sort("player", "first")
    queries.register_people(whole)
    mine = whole.sql(
        f"WITH {queries.ALONE_SECONDS}, "
        f"labelled AS ({queries.labelled('serve_sessions', queries.Where())}) "
        "SELECT session, any_value(player) AS player, min(first) AS first, "
        f"sum(hands) AS hands, sum(net) AS net, sum({queries.SECONDS_SQL}) AS seconds, "
        "sum(alone) AS alone FROM labelled LEFT JOIN alone_seconds USING (who_site, who) "
        "GROUP BY session ORDER BY player, first"
    ).pl()
    assert mine.height == report.height
    assert mine["hands"].to_list() == report["hands"].cast(pl.Int64).to_list()
    assert mine["net"].to_list() == report["net"].to_list()
    # One-hand sessions there are, and their length is the player's own median.
    alone = mine.filter(pl.col("alone") > 0)
    assert alone.height and alone["seconds"].n_unique() > 1  # not one length for all
    hours = mine["seconds"] / 3600
    assert hours.to_list() == pytest.approx(report["hours"].to_list(), rel=1e-9)
    flags = compute.hand_flags(frames, rows)
    showdowns = (
        flags.filter(pl.col("showdown"))
        .group_by(pl.col("player").cast(pl.String))
        .len()
        .sort("player")
    )
    mine_showdowns = whole.sql(
        "SELECT player, sum(sd_hands)::UINTEGER AS len FROM serve_sums GROUP BY player "
        "HAVING sum(sd_hands) > 0 ORDER BY player"
    ).pl()
    assert_frame_equal(mine_showdowns, showdowns, check_dtypes=False)
    whole.close()
    parts.close()


def test_a_copy_with_rebuilt_tables_is_summarized_again(imported, tmp_path):  # type: ignore[no-untyped-def]
    connection = _built(imported, tmp_path / "copied.duckdb", 100_000)
    hands = connection.sql("SELECT sum(hands) FROM serve_sums").fetchall()
    # As tools/replicate_db.py copies every table keyed by hand: the rows twice.
    connection.execute("INSERT INTO serve_rows SELECT * FROM serve_rows")
    summary.catch_up(connection)
    assert connection.sql("SELECT sum(hands) FROM serve_sums").fetchall() == hands
    assert connection.sql("SELECT count(*) FROM serve_rows").fetchall()[0][0] == hands[0][0]
    # Nothing new: nothing done.
    assert summary.catch_up(connection) == 0
    assert summary.summarized(connection)
    connection.close()


def test_a_summary_of_another_version_is_made_again(imported, tmp_path):  # type: ignore[no-untyped-def]
    connection = _built(imported, tmp_path / "old.duckdb", 100_000)
    rows = connection.sql("SELECT count(*) FROM serve_rows").fetchall()
    # An older shape: a column less, another version.
    connection.execute("ALTER TABLE serve_rows DROP COLUMN flagged")
    connection.execute("UPDATE serve_meta SET value = '0' WHERE key = 'version'")
    assert summary.catch_up(connection) > 0
    assert connection.sql("SELECT count(*) FROM serve_rows").fetchall() == rows
    assert connection.sql("SELECT count(flagged) FROM serve_rows").fetchall() == rows
    # Left in an older shape by an upgrade that stopped half way: made again too.
    connection.execute("ALTER TABLE serve_rows DROP COLUMN flagged")
    assert summary.catch_up(connection) > 0
    assert connection.sql("SELECT count(flagged) FROM serve_rows").fetchall() == rows
    connection.close()


def test_the_library_never_imports_the_web_layer() -> None:
    import subprocess
    import sys

    code = (
        "import sys, handlog.importer, handlog.summary, handlog.report, handlog.show, "
        "handlog.players, handlog.dataset\n"
        "print(sorted(m for m in sys.modules if m.startswith(('handlog.serve', 'starlette'))))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert found.stdout.strip() == "[]"


def test_handlog_import_keeps_the_summary_of_a_served_database_only(tmp_path):  # type: ignore[no-untyped-def]
    """`handlog import` brings the summary tables up to date at its end in a database that
    has them (served before), and makes none in a database never served (the server's
    first catch-up does)."""
    from typer.testing import CliRunner

    from handlog.cli import app

    logs = sorted((ROOT / "sample_logs").glob("*.txt"))
    first, rest = [str(path) for path in logs[:1]], [str(path) for path in logs[1:3]]
    db = tmp_path / "h.duckdb"
    runner = CliRunner()
    assert runner.invoke(app, ["import", "--quiet", "--db", str(db), *first]).exit_code == 0
    with duckdb.connect(str(db)) as connection:
        tables = "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE 'serve_%'"
        assert connection.execute(tables).fetchall() == [(0,)]
        assert summary.catch_up(connection) > 0  # as the server does when it opens it
    assert runner.invoke(app, ["import", "--quiet", "--db", str(db), *rest]).exit_code == 0
    with duckdb.connect(str(db)) as connection:
        assert summary.summarized(connection)
        hands = connection.execute("SELECT count(*) FROM hands").fetchall()[0][0]
        summed = connection.execute("SELECT sum(hands) FROM serve_sums").fetchall()[0][0]
        assert (
            hands > 1
            and summed
            == connection.execute("SELECT count(*) FROM hand_players WHERE dealt_in").fetchall()[0][
                0
            ]
        )


@pytest.fixture(scope="module")
def all_ins(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Simulated tournament hands (short stacks: all-ins with cards to come), imported with
    their all-in EV and summarized."""
    from typer.testing import CliRunner

    from handlog.cli import app

    folder = tmp_path_factory.mktemp("ev")
    path = folder / "stud.txt"
    arguments = ["simulate", "--game", "stud", "--hands", "300", "--seed", "11", "--tournament"]
    result = CliRunner().invoke(app, [*arguments, "--out", str(path)])
    assert result.exit_code == 0, result.output
    db = folder / "ev.duckdb"
    import_paths([str(path)], db, None, 1)
    return db


def _ev_by_player(connection: duckdb.DuckDBPyConnection) -> dict[str, float]:
    """The report's EV-adjusted net in big bets per player, summed over every hand."""
    rows = compute.player_hands(load(connection, Filters()))
    return {
        str(player): float(total)
        for player, total in rows.group_by("player").agg(pl.col("bb_ev").sum()).iter_rows()
    }


def test_the_ev_line_is_the_report_s(all_ins, tmp_path):  # type: ignore[no-untyped-def]
    """The summary's all-in EV-adjusted net in big bets (`ev_bb_sum`, the serve chart's EV
    line) is the report's, player by player, by day and over hands; it differs from the net
    where all-ins were (else the line would only copy the net)."""
    connection = _built(all_ins, tmp_path / "ev.duckdb", 100_000)
    expected = _ev_by_player(connection)
    assert connection.sql("SELECT count(*) FROM equities").fetchall()[0][0] > 0
    summed = dict(
        connection.sql("SELECT player, sum(ev_bb_sum) FROM serve_sums GROUP BY player").fetchall()
    )
    assert summed.keys() == expected.keys()
    for player, total in expected.items():
        assert summed[player] == pytest.approx(total, abs=1e-6)
    net = dict(
        connection.sql("SELECT player, sum(bb_sum) FROM serve_sums GROUP BY player").fetchall()
    )
    assert any(abs(net[player] - summed[player]) > 0.5 for player in summed)
    players = [("pokerstars", player) for player in sorted(expected)[:3]]
    with connection.cursor() as cursor:
        queries.register_people(cursor)
        lines = queries.over_hands(cursor, queries.Filters(), players)
        days = queries.by_day(cursor, queries.Filters(), players)
    for (_, player), (label, line) in zip(players, sorted(lines.items()), strict=True):
        assert label.startswith(player)
        assert line["points"][-1][3] == pytest.approx(expected[player], abs=1e-2)
        assert days[label][-1][4] == pytest.approx(expected[player], abs=1e-2)
    # The win-rate tables' EV figures (EV net, luck, all-ins, EV BB/100 and its interval)
    # are the report's, group by group, and each session's too.
    rows = compute.player_hands(load(connection, Filters()))
    report = compute.winrates(rows, ["site", "player"])
    with connection.cursor() as cursor:
        queries.register_people(cursor)
        mine = queries.winrates(cursor, queries.Filters(), ["site", "player"])
    figures = ["ev_net", "luck", "all_ins", "ev_bb_per_100", "ev_ci_low", "ev_ci_high"]
    keys = ["site", "player", "unit", "structure"]
    assert report.filter(pl.col("all_ins") > 0).height
    assert_frame_equal(
        mine.select(*keys, *figures).sort(keys),
        report.select(*keys, *figures).with_columns(pl.col("player").cast(pl.String)).sort(keys),
        check_dtypes=False,
        rel_tol=1e-9,
        abs_tol=1e-6,
    )
    with connection.cursor() as cursor:
        queries.register_people(cursor)
        page = queries.sessions(cursor, queries.Filters(), sort="luck")["rows"]
    assert page.height and {"ev_net", "luck"} <= set(page.columns)
    report_sessions = compute.sessions(rows)
    by_session = {
        (str(r["player"]), r["first"]): r["ev_net"] for r in report_sessions.iter_rows(named=True)
    }
    for row in page.iter_rows(named=True):
        assert row["ev_net"] == by_session[str(row["player"]), row["first"]]
    lucks = [row["luck"] for row in page.iter_rows(named=True)]
    assert lucks == sorted(lucks, reverse=True)
    connection.close()


def test_handlog_ev_has_the_summary_made_again(all_ins, tmp_path):  # type: ignore[no-untyped-def]
    """EV computed by `handlog ev` after the summary was made (a database imported before
    schema 9, then served): the summary is made again with the new EV nets, not left with
    the nets it held."""
    from handlog.equity.stored import compute_stored

    connection = _built(all_ins, tmp_path / "later.duckdb", 100_000)
    expected = _ev_by_player(connection)
    # As an older handlog stored them: no EV computed (ev_net NULL, the net meanwhile).
    connection.execute("UPDATE hand_players SET ev_net = NULL")
    connection.execute("UPDATE hands SET ev_all_in = NULL")
    connection.execute("DELETE FROM equities")
    connection.execute("UPDATE serve_meta SET value = '0' WHERE key = 'version'")
    assert summary.catch_up(connection) > 0  # summarized with the nets alone
    flat = dict(
        connection.sql("SELECT player, sum(ev_bb_sum) FROM serve_sums GROUP BY player").fetchall()
    )
    assert any(abs(flat[player] - expected[player]) > 0.5 for player in expected)
    assert compute_stored(connection).hands > 0
    assert summary.catch_up(connection) > 0  # made again from the hands
    summed = dict(
        connection.sql("SELECT player, sum(ev_bb_sum) FROM serve_sums GROUP BY player").fetchall()
    )
    for player, total in expected.items():
        assert summed[player] == pytest.approx(total, abs=1e-6)
    assert summary.catch_up(connection) == 0
    connection.close()
