"""Who played: a seat that sat out is not in the hand (each site's form), the hero of a
file, accounts (site, name) and persons (handlog alias), and any hand on show.

The sit-out hands are real ones (tests/fixtures/players/): Full Tilt's `Player6 is sitting
out` after the antes (corpus hand 26190500040), Bovada's `Seat sit out` (2604291787),
PartyPoker's seat with no ante and no cards (10399817763), and a PokerStars hand given a
`Sitter: is sitting out` line after the seats.
"""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from handlog.cli import app
from handlog.importer import import_paths
from handlog.model import Hand
from handlog.parse import parse_text
from handlog.players import (
    Account,
    PlayerError,
    add_alias,
    aliases,
    find_account,
    heroes,
    parse_account,
    remove_alias,
    resolve,
    seat_roles,
)
from handlog.report import build
from handlog.report.data import Filters

from .conftest import SAMPLE_LOGS, SHARED_CORPUS

needs_corpus = pytest.mark.skipif(
    not (SHARED_CORPUS / "Bovada").is_dir(), reason="../shared/corpus/Bovada is not here"
)

FIXTURES = Path(__file__).parent / "fixtures" / "players"
runner = CliRunner()

SIT_OUTS = {
    # file: (site, the seat that sat out, the hand's hero, who won without a showdown)
    "fulltilt-sitting-out.txt": ("fulltilt", "Player6", "Hero", "Player8"),
    "bovada-seat-sit-out.txt": ("bovada", "[ME]", None, "Seat+5"),
    "partypoker-no-ante-no-cards.txt": ("partypoker", "Player7", "Hero", "Player8"),
    "pokerstars-sitting-out.txt": ("pokerstars", "Sitter", "Hero", None),
}


def _hand(name: str) -> Hand:
    (parsed,) = parse_text((FIXTURES / name).read_text(encoding="utf-8"), name)
    assert isinstance(parsed, Hand), parsed
    return parsed


@pytest.mark.parametrize("name", sorted(SIT_OUTS))
def test_a_seat_that_sat_out_is_not_dealt_in(name):
    site, sitter, hero, _ = SIT_OUTS[name]
    hand = _hand(name)
    assert hand.site.value == site
    seats = {seat.name for seat in hand.seats}
    dealt, shown_down, found = seat_roles(hand)
    assert sitter in seats and sitter not in dealt
    assert dealt == seats - {sitter}  # everyone else anted, was dealt or acted
    assert found == hero
    if hero is not None:
        assert shown_down == {hero}
    else:  # Bovada shows every player's down cards: the hand has no one hero
        assert len(shown_down) > 1


@pytest.fixture(scope="module")
def sit_out_db(tmp_path_factory):  # type: ignore[no-untyped-def]
    db = tmp_path_factory.mktemp("sitouts") / "h.duckdb"
    import_paths(sorted(str(FIXTURES / name) for name in SIT_OUTS), db, None, 1)
    return db


def test_no_statistic_or_count_takes_the_seat_that_sat_out(sit_out_db, tmp_path):
    """Stored as not dealt in; the hand's count of players leaves it out; the report has no
    row of it; and the winner of a hand everyone else folded won without a showdown (the
    seat that sat out, never folding, made it look like a showdown before)."""
    connection = duckdb.connect(str(sit_out_db), read_only=True)
    try:
        rows = connection.execute(
            "SELECT site, player FROM hand_players WHERE NOT dealt_in ORDER BY ALL"
        ).fetchall()
        counts = dict(
            connection.execute(
                "SELECT h.site, h.players = count(*) FILTER (WHERE p.dealt_in) "
                "AND h.players = count(*) - 1 FROM hands h JOIN hand_players p "
                "USING (site, hand_id) GROUP BY h.site, h.players"
            ).fetchall()
        )
    finally:
        connection.close()
    assert rows == sorted((site, sitter) for site, sitter, _, _ in SIT_OUTS.values())
    assert counts == dict.fromkeys(counts, True) and len(counts) == 4
    build(sit_out_db, tmp_path, Filters(), "json")
    tables = json.loads((tmp_path / "report.json").read_text())["tables"]
    for site, sitter, _, winner in SIT_OUTS.values():
        for key in ("players", "stats_third", "stats_streets", "sessions"):
            assert (site, sitter) not in {(r["site"], r["player"]) for r in tables[key]}, key
        if winner is not None:
            (row,) = [
                r for r in tables["stats_streets"] if (r["site"], r["player"]) == (site, winner)
            ]
            assert row["won_without_showdown"] == 1.0 and row["showdowns"] == 0


def test_the_hero_of_each_file(sit_out_db):
    """A file's hero: the account whose down cards its hands' dealing shows most often; at
    Bovada, which shows everyone's, the seat it marks as the exporter's ("[ME]"), also in a
    hand it sat out (no cards of its shown)."""
    connection = duckdb.connect(str(sit_out_db), read_only=True)
    try:
        found = {Path(file).name: account for file, account, _ in heroes(connection)}
    finally:
        connection.close()
    for name, (site, _, hero, _) in SIT_OUTS.items():
        if hero is not None:
            assert found[name] == Account(site, hero)
    assert found["bovada-seat-sit-out.txt"] == Account("bovada", "[ME]")


@needs_corpus
def test_every_bovada_file_s_hero_is_the_seat_it_marks(tmp_path):
    """Every corpus Bovada file's hero is "[ME]" (the seat its hands mark), not the seat
    shown most (every seat's cards are), in `heroes` and in the report's files table; the
    other sites' files keep the player whose down cards they show."""
    from handlog.parse.reader import expand_paths

    db = tmp_path / "h.duckdb"
    import_paths(expand_paths([str(SHARED_CORPUS)])[0], db, None, 1)
    connection = duckdb.connect(str(db), read_only=True)
    try:
        found = heroes(connection)
    finally:
        connection.close()
    bovada = {file: account for file, account, _ in found if account.site == "bovada"}
    assert len(bovada) == len(list((SHARED_CORPUS / "Bovada").glob("*.txt"))) == 3
    assert set(bovada.values()) == {Account("bovada", "[ME]")}
    assert Account("pokerstars", "Hero") in {account for _, account, _ in found}
    build(db, tmp_path / "report", Filters(), "json")
    files = json.loads((tmp_path / "report" / "report.json").read_text())["tables"]["files"]
    assert {row["hero"] for row in files if "/Bovada/" in row["file"]} == {"[ME]"}


def test_accounts_are_written_site_colon_name():
    from handlog.model import Site

    assert parse_account("pokerstars:Hero") == (Site.POKERSTARS, "Hero")
    assert parse_account("Full Tilt:HeroFT") == (Site.FULL_TILT, "HeroFT")
    assert parse_account("FULLTILT:a:b") == (Site.FULL_TILT, "a:b")
    assert parse_account("ACR:x") == (Site.WINNING, "x")
    assert parse_account("Ace: the Man") == (None, "Ace: the Man")  # no site: a name
    assert parse_account("Hero") == (None, "Hero")


@pytest.fixture
def two_sites(tmp_path):  # type: ignore[no-untyped-def]
    """ "Hero" at PokerStars (the sample logs) and at Full Tilt (a sit-out hand), and a
    KingsClub hand: three accounts, the name at two sites."""
    db = tmp_path / "h.duckdb"
    files = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt"))
    files.append(str(FIXTURES / "fulltilt-sitting-out.txt"))
    import_paths(files, db, None, 1)
    return db


def test_a_name_at_two_sites_is_two_players(two_sites, tmp_path):
    connection = duckdb.connect(str(two_sites))
    try:
        with pytest.raises(
            PlayerError, match=r"'Hero' is a player at 2 sites \(fulltilt, pokerstars\)"
        ):
            find_account(connection, "Hero")
        assert find_account(connection, "PokerStars:Hero") == Account("pokerstars", "Hero")
        assert find_account(connection, "willy32948") == Account("pokerstars", "willy32948")
        with pytest.raises(PlayerError, match="no player 'Nobody'"):
            find_account(connection, "Nobody")
        with pytest.raises(PlayerError, match="no player 'Hero' at bovada; there is fulltilt:Hero"):
            find_account(connection, "bovada:Hero")
    finally:
        connection.close()
    result = runner.invoke(
        app, ["report", "--db", str(two_sites), "--player", "Hero", "--out", str(tmp_path)]
    )
    assert result.exit_code == 1 and "fulltilt, pokerstars" in result.output
    report = build(two_sites, tmp_path / "all", Filters(), "json")
    rows = report.tables["players"].filter(report.tables["players"]["player"] == "Hero")
    assert set(rows["site"].to_list()) == {"fulltilt", "pokerstars"}  # never added up
    assert rows.select("site", "unit").is_unique().all()


def test_a_person_is_their_accounts_added_up_per_unit(two_sites, tmp_path):
    """handlog alias add me pokerstars:Hero "Full Tilt:Hero": the person's rows add up the
    accounts' hands, each unit (and structure) apart; list and remove undo it."""
    db = str(two_sites)
    alone = build(two_sites, tmp_path / "alone", Filters(), "json").tables["players"]
    added = runner.invoke(
        app, ["alias", "add", "--db", db, "me", "pokerstars:Hero", "Full Tilt:Hero"]
    )
    assert added.exit_code == 0, added.output
    assert "me: pokerstars:Hero, fulltilt:Hero" in added.output
    listed = runner.invoke(app, ["alias", "list", "--db", db])
    assert listed.output.strip() == "me: fulltilt:Hero, pokerstars:Hero"
    report = build(two_sites, tmp_path / "me", Filters(player="me"), "json")
    rows = report.tables["players"]
    assert set(rows["player"]) == {"me"} and set(rows["site"]) == {"fulltilt+pokerstars"}
    for unit in rows["unit"].to_list():
        mine = alone.filter((alone["player"] == "Hero") & (alone["unit"] == unit))
        row = rows.filter(rows["unit"] == unit)
        assert row["hands"].item() == mine["hands"].sum() and row["net"].item() == mine["net"].sum()
    # The person is one player everywhere: the statistics too, and the whole report.
    assert set(report.tables["stats_third"]["player"]) == {"me"}
    everyone = build(two_sites, tmp_path / "all", Filters(), "json").tables["players"]
    assert "Hero" not in set(everyone["player"]) and "me" in set(everyone["player"])
    # Taken apart again.
    connection = duckdb.connect(db)
    try:
        with pytest.raises(PlayerError, match="already 'me'"):
            add_alias(connection, "you", ["fulltilt:Hero"])
        assert remove_alias(connection, "me", ["pokerstars:Hero"]) == 1
        assert aliases(connection) == {"me": [Account("fulltilt", "Hero")]}
        assert resolve(connection, "pokerstars:Hero").person is False
    finally:
        connection.close()
    removed = runner.invoke(app, ["alias", "remove", "--db", db, "me"])
    assert removed.exit_code == 0 and "1 account removed" in removed.output
    missing = runner.invoke(app, ["alias", "remove", "--db", db, "me"])
    assert missing.exit_code == 1 and "no person 'me'" in missing.output


def test_show_prints_any_stored_hand_street_by_street(two_sites):
    """Not only flagged hands: any stored hand's replay (the rules engine's: rules.trace)
    and its text."""
    result = runner.invoke(app, ["show", "--db", str(two_sites), "35874566077", "--no-color"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith("hand 35874566077, pokerstars, razz")
    for marker in ("-- antes --", "-- 3rd street --", "-- 5th street --", "-- pots --"):
        assert marker in out
    assert "kobreli brings in for $0.02" in out and "pot $0.07" in out
    assert "Hero is dealt (Td 2s) [9s]" in out  # the hero's down cards, an up card
    assert "-- as it stands in its file --" in out and "PokerStars Game #35874566077" in out
    sat = runner.invoke(app, ["show", "--db", str(two_sites), "26190500040", "--no-text"])
    assert sat.exit_code == 0 and "Player6" not in sat.output  # never dealt in, no event
    assert "as it stands" not in sat.output
    missing = runner.invoke(app, ["show", "--db", str(two_sites), "123"])
    assert missing.exit_code == 1 and "no hand '123'" in missing.output


def test_show_marks_a_flag_under_its_event(tmp_path):
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8-sig")
    log = tmp_path / "flagged.txt"
    log.write_text(source.replace("willy32948: calls $0.02", "willy32948: calls $0.01", 1))
    db = tmp_path / "f.duckdb"
    import_paths([str(log)], db, None, 1)
    result = runner.invoke(app, ["show", "--db", str(db), "35874566077", "--no-color"])
    assert result.exit_code == 0, result.output
    lines = result.output.split("\n")
    flagged = next(i for i, line in enumerate(lines) if line.startswith("> willy32948 calls $0.01"))
    assert lines[flagged + 1].strip().startswith("^ CALL_AMOUNT (illegal):")
    assert any(line.split()[1:2] == [">"] for line in lines if "willy32948: calls $0.01" in line)


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith("handlog ") and "database schema" in result.output
