"""One definition of hours and sessions: a filter that keeps the same hands gives the same
rows (hypothesis draws the filters).

A player's sessions and each hand's length are worked out over all of the player's stored
hands, whatever the filter: a report of one game, one player or some days shows, for the
rows it keeps, what the whole report shows for them (before, the hours of the same 64 hands
read 2.3743 in the whole report and 2.3935 with --player).
"""

from __future__ import annotations

import datetime as dt
import re

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from handlog import report
from handlog.cli import app
from handlog.importer import import_paths
from handlog.report import scaled
from handlog.report.data import Filters
from handlog.snapshot import reading

from .conftest import SAMPLE_LOGS
from .test_report_scaled import _same

TABLES = ("players", "games", "days", "sessions")
GAMES = (None, "stud", "razz", "stud8")


@pytest.fixture(scope="module")
def db(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The sample logs and simulated hands of two games at one table at the same hours
    (a mixed game: Hero's sessions hold hands of both), and a tournament."""
    folder = tmp_path_factory.mktemp("filters")
    runner = CliRunner()
    files = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt"))
    for number, (game, extra) in enumerate(
        [("stud", []), ("razz", []), ("stud8", ["--tournament", "--players", "5"])]
    ):
        path = folder / f"{game}.txt"
        arguments = ["simulate", "--game", game, "--hands", "90", "--seed", str(number + 3)]
        result = runner.invoke(app, [*arguments, *extra, "--out", str(path)])
        assert result.exit_code == 0, result.output
        if not extra:  # one table for both cash games
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(r"Table '[^']*'", "Table 'Mixed'", text), encoding="utf-8")
        files.append(str(path))
    database = folder / "h.duckdb"
    import_paths(files, database, None, 1)
    return database


def _tables(db, filters: Filters) -> tuple[dict[str, pl.DataFrame], tuple[dt.date, dt.date] | None]:  # type: ignore[no-untyped-def]
    """The win-rate tables of `filters` (the hours and sessions) and the first and last
    day of the hands they select."""
    with reading(db) as connection:
        asked = report._check_filters(connection, filters)
        data = scaled.prepare(connection, filters, asked.accounts, asked.people)
        try:
            found = report._scaled_winrates(data, asked)
            days = data.selected.filter(pl.col("chosen"))["start_utc"].dt.date()
        finally:
            data.close()
    bounds = (days.min(), days.max()) if days.len() and days.null_count() == 0 else None
    return {name: report._as_site(getattr(found, name)) for name in TABLES}, bounds


def _rows(frame: pl.DataFrame, **where: str) -> pl.DataFrame:
    for column, value in where.items():
        frame = frame.filter(pl.col(column) == value)
    return frame


ACCOUNTS = ("pokerstars:Hero", "pokerstars:Nikolay Zem", "pokerstars:joker9567")
DAYS = st.sampled_from(
    [None, dt.date(2009, 11, 26), dt.date(2024, 1, 1), dt.date(2024, 1, 2), dt.date(2030, 1, 1)]
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(GAMES),
    player=st.sampled_from((None, *ACCOUNTS)),
    since=DAYS,
    until=DAYS,
)
def test_filters_that_select_the_same_hands_give_equal_rows(db, game, player, since, until):
    filters = Filters(player=player, game=game, since=since, until=until)
    try:
        tables, bounds = _tables(db, filters)
    except report.ReportError:
        return  # a player with no hands of that game, say
    if bounds is None:
        return
    # The same hands, named by their first and last day instead: the same rows.
    exact = Filters(player=player, game=game, since=bounds[0], until=bounds[1])
    again, _ = _tables(db, exact)
    for name in TABLES:
        _same(tables[name], again[name], name)
    # Each row is the same as in a report that keeps more hands, for the hands it has.
    if game is not None:
        wider, _ = _tables(db, Filters(player=player, since=since, until=until))
        _same(tables["games"], _rows(wider["games"], game=game), "games by game")
    if player is not None:
        everyone, _ = _tables(db, Filters(game=game, since=since, until=until))
        site, name = player.split(":", 1)
        for table in TABLES:
            _same(tables[table], _rows(everyone[table], site=site, player=name), table)


def test_hours_of_a_player_are_the_same_with_or_without_the_player_filter(db):
    """The case of the issue, by hand: Hero's hours and rate per hour, with and without
    --player, with and without --game."""
    everyone, _ = _tables(db, Filters())
    alone, _ = _tables(db, Filters(player="pokerstars:Hero"))
    hero = _rows(everyone["players"], site="pokerstars", player="Hero")
    _same(hero, alone["players"], "players")
    razz, _ = _tables(db, Filters(game="razz"))
    assert (
        _rows(razz["games"], site="pokerstars", player="Hero")["hours"].to_list()
        == _rows(everyone["games"], site="pokerstars", player="Hero", game="razz")[
            "hours"
        ].to_list()
    )
