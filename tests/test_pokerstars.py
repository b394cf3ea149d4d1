"""PokerStars parsing: the real corpus, header variants, names, lines. The golden fixtures
(hand text beside its expected JSON) are tests/sites/pokerstars/, checked by
test_site_fixtures.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from handlog.errors import ParseError, Skipped
from handlog.model import ActionKind, Dealt, Game, Hand, Note, NoteKind, Source, Street
from handlog.parse import parse_file, parse_text
from handlog.parse.sites import pokerstars

from .conftest import SAMPLE_LOGS, SITES, pokerstars_corpus_files

HEADER = re.compile(r"^PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #\d+:", re.MULTILINE)


@pytest.mark.parametrize("path", pokerstars_corpus_files(), ids=lambda p: p.name)
def test_every_corpus_hand_parses(path):
    items = list(parse_file(path))
    errors = [i for i in items if isinstance(i, ParseError)]
    assert errors == []
    text = path.read_bytes().decode("utf-8-sig")
    assert len([i for i in items if isinstance(i, Hand)]) == len(HEADER.findall(text))


def _hand(path, hand_id=None) -> Hand:
    hands = [h for h in parse_file(path) if isinstance(h, Hand)]
    return hands[0] if hand_id is None else next(h for h in hands if h.hand_id == hand_id)


def test_cash_header_fields_and_clock():
    hand = _hand(SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt")
    assert (hand.hand_id, hand.game, hand.currency, hand.small_bet, hand.big_bet) == (
        "35874004239",
        Game.STUD,
        "USD",
        4,
        8,
    )
    assert hand.table == "Atalante II" and hand.max_seats == 8
    # 10:08:43 ET in November is EST, UTC-5
    assert hand.start_time == datetime(2009, 11, 26, 15, 8, 43, tzinfo=UTC)
    assert hand.tournament_id is None and hand.header_variant == "game"


def test_dual_clock_uses_the_et_part():
    hand = _hand(SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt")
    assert hand.clock_text == "2009/07/16 2:36:31 CET [2009/07/15 20:36:31 ET]"
    assert hand.start_time == datetime(2009, 7, 16, 0, 36, 31, tzinfo=UTC)  # EDT, UTC-4
    assert hand.currency == "USD"  # no code printed: from the $ sign


def test_tournament_headers():
    pt2 = _hand(SAMPLE_LOGS / "7-StudHL-USD-10-1-200906.PT2.export.txt")
    assert (pt2.game, pt2.tournament_id, pt2.buy_in, pt2.tournament_level) == (
        Game.STUD8,
        "169962475",
        "$10+$1",
        "LEVEL I",
    )
    assert (pt2.small_bet, pt2.big_bet, pt2.currency, pt2.ante, pt2.bring_in) == (
        25,
        50,
        None,
        5,
        10,
    )
    triple = _hand(SITES / "pokerstars" / "tournament-triple-stud.txt")
    assert (triple.mixed_game, triple.game, triple.buy_in, triple.tournament_level) == (
        "Triple Stud",
        Game.STUD8,
        "$2.00+$0.20 USD",
        "Level XXXI",
    )
    assert triple.header_variant == "hand"
    home = _hand(SITES / "pokerstars" / "home-game.txt")
    assert (home.home_game, home.mixed_game, home.tournament_level, home.buy_in) == (
        "Dazzle's Room",
        "8-Game",
        "Match Round I, Level IV",
        "100+9",
    )


def test_other_games_in_a_mixed_file_are_skipped_by_name():
    items = list(parse_file(SITES / "pokerstars" / "mixed-8-game.txt"))
    assert isinstance(items[0], Skipped) and items[0].game == "Hold'em Limit"
    assert items[0].hand_id == "164954571645" and items[0].line == 1
    assert isinstance(items[1], Hand) and items[1].game is Game.RAZZ
    assert items[1].mixed_game == "8-Game" and (items[1].small_bet, items[1].big_bet) == (
        40000,
        80000,
    )


def test_names_with_spaces_brackets_dots_and_accents_match_the_seat_list():
    hand = _hand(SITES / "pokerstars" / "side-pot.txt")
    assert [s.name for s in hand.seats] == ["Anna K.", "PC [Mittel]", "Ölfläsche"]
    dealt = [e for e in hand.events if type(e) is Dealt and e.player == "PC [Mittel]"]
    assert [str(e.new[-1]) for e in dealt] == ["Ks", "2c", "7s", "3c"]
    players = {e.player for e in hand.actions}
    assert players == {"Anna K.", "PC [Mittel]", "Ölfläsche"}


@pytest.mark.parametrize(
    "path", [*pokerstars_corpus_files()[:6], SITES / "pokerstars" / "side-pot.txt"]
)
def test_records_name_players_with_the_seat_lists_own_strings(path):
    """Every action, deal and summary line names its player with the very string object of
    the seat list (the replay's lookups then match by identity)."""
    for hand in (h for h in parse_file(path) if isinstance(h, Hand)):
        seated = {seat.name: seat.name for seat in hand.seats}
        named = [e.player for e in hand.events if type(e) is not Note and e.player is not None]
        named += [r.player for r in hand.results]
        assert named and all(seated[name] is name for name in named), hand.hand_id


def test_side_pot_hand_records():
    hand = _hand(SITES / "pokerstars" / "side-pot.txt")
    assert (hand.total_pot, hand.main_pot, hand.side_pots, hand.rake) == (161, 106, (47,), 8)
    collects = [(a.player, a.amount, a.pot) for a in hand.actions if a.kind is ActionKind.COLLECT]
    assert collects == [("Anna K.", 47, 1), ("Anna K.", 106, 0)]  # side pot, main pot
    kinds = [
        (a.player, a.kind, a.amount, a.to_amount, a.raise_by)
        for a in hand.actions
        if a.street == Street.THIRD
    ]
    # Site-neutral amounts: the chips each action puts in, the player's street total after
    # it, and PokerStars' printed raise size over the bet faced.
    assert kinds[:4] == [
        ("Ölfläsche", ActionKind.BRING_IN, 5, 5, None),
        ("Anna K.", ActionKind.COMPLETE, 10, 10, 5),  # "raises $0.05 to $0.10" over the bring-in
        ("PC [Mittel]", ActionKind.RAISE, 20, 20, 10),  # "raises $0.10 to $0.20"
        ("Ölfläsche", ActionKind.CALL, 15, 20, None),  # 5 in already: calls $0.15
    ]
    all_in = [a for a in hand.actions if a.all_in]
    assert [(a.player, a.kind, a.amount) for a in all_in] == [("PC [Mittel]", ActionKind.CALL, 15)]
    notes = [(n.kind, n.player) for n in hand.notes]
    assert notes == [(NoteKind.DOUBLE_BET_ALLOWED, None), (NoteKind.CHAT, "Ölfläsche")]


def test_community_card_and_six_card_shows():
    hand = _hand(SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt")
    assert str(hand.community_card) == "6h"
    show = next(a for a in hand.actions if a.kind is ActionKind.SHOW)
    assert len(show.cards) == 6 and show.description == "two pair, Queens and Sevens"


def test_split_pot_has_two_collect_lines():
    hand = _hand(SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt")
    collects = [(a.player, a.amount) for a in hand.actions if a.kind is ActionKind.COLLECT]
    assert collects == [("gashpor", 40), ("Hero", 40)]
    hero = next(r for r in hand.results if r.player == "Hero")
    assert hero.description == "HI: a straight, Three to Seven; LO: 7,6,5,4,3" and hero.won == 40


def test_every_line_has_its_file_line():
    path = SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt"
    lines = path.read_text().splitlines()
    for hand in (h for h in parse_file(path) if isinstance(h, Hand)):
        assert lines[hand.source.line - 1].startswith("PokerStars Game #" + hand.hand_id)
        for event in hand.events:
            assert hand.source_of(event) == Source(str(path), event.line, event.line)
            text = lines[event.line - 1]
            assert event.player is None or event.player in text
        for seat in hand.seats:
            assert lines[seat.line - 1].startswith(f"Seat {seat.number}: {seat.name} (")


def test_is_header():
    assert pokerstars.is_header(
        "PokerStars Hand #1:  Razz Limit ($1/$2 USD) - 2017/01/21 16:58:03 ET"
    )
    assert not pokerstars.is_header("PokerStars said, hello")


@pytest.mark.parametrize(
    "noise",
    [
        "willy32948 has timed out",
        "willy32948 has timed out while disconnected",
        "willy32948 has timed out while being disconnected",
        "willy32948 has 15 seconds left to act",
    ],
)
def test_time_out_lines_are_table_noise(noise):
    hand = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8-sig")
    lines = hand.split("\n\n\n")[0].splitlines()
    at = lines.index("willy32948: calls $0.02")
    [plain] = parse_text("\n".join(lines) + "\n", "noise.txt")
    [parsed] = parse_text("\n".join([*lines[:at], noise, *lines[at:]]) + "\n", "noise.txt")
    assert isinstance(parsed, Hand), parsed
    # the line becomes a time-out note of its player where it stands, and nothing else
    # changes: the same deals, actions and results (record equality leaves out lines)
    before = next(n for n, event in enumerate(plain.events) if event.line > at)
    note = parsed.events[before]
    assert note == Note(Street.THIRD, NoteKind.TIMED_OUT, "willy32948", noise)
    assert note.line == at + 1
    assert [e for e in parsed.events if e is not note] == list(plain.events)
    assert (parsed.seats, parsed.results) == (plain.seats, plain.results)
