"""Bovada / Bodog: every corpus hand parsed, replayed clean, printed and parsed back; the
lines the corpus does not show (tournaments, all-ins, side pots, timeouts, other games),
written here as hand text. The golden pairs are tests/sites/bovada/ (test_site_fixtures.py)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from handlog.check import check_file
from handlog.errors import ParseError, Skipped
from handlog.model import ActionKind, Dealt, Game, Hand, NoteKind, Site, Street
from handlog.parse import parse_file, parse_text
from handlog.parse.sites import bovada, detect
from handlog.rules.replay import replay

from .conftest import SHARED_CORPUS

CORPUS = sorted((SHARED_CORPUS / "Bovada").glob("*.txt"))
HEADER = re.compile(r"^\ufeff?Bo(?:vada|dog) Hand #", re.MULTILINE)

needs_corpus = pytest.mark.skipif(not CORPUS, reason="../shared/corpus/Bovada is not here")


def _hands(path) -> list[Hand]:
    return [h for h in parse_file(path) if isinstance(h, Hand)]


def _one(text: str) -> Hand:
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand), hand
    return hand


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_parses(path):
    items = list(parse_file(path))
    assert [i for i in items if isinstance(i, ParseError)] == []
    text = path.read_bytes().decode("utf-8-sig")
    assert len(items) == len(HEADER.findall(text)) > 0
    assert all(isinstance(i, Hand) and i.site is Site.BOVADA for i in items)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_replays_clean_and_nets_sum_to_minus_the_rake(path):
    checked = list(check_file(str(path)))
    assert checked
    for item in checked:
        assert item.replay is not None, item
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        assert sum(item.replay.net.values()) == -item.hand.rake


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_parse_print_parse_gives_equal_records(path):
    for hand in _hands(path):
        again = parse_text(bovada.print_hand(hand))
        assert again == [hand]


@needs_corpus
def test_cash_header_stakes_from_the_betting_and_clock():
    (hand,) = _hands(SHARED_CORPUS / "Bovada" / "7-StudHL-USD-0.25-0.50-201209.txt")
    assert (hand.hand_id, hand.game, hand.table, hand.currency) == (
        "2633952287",
        Game.STUD8,
        "2027664",
        "USD",
    )
    # No stakes in the header: the forced player's completion "Bets $0.25" is the small bet.
    assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (25, 50, 5, None)
    first = next(a for a in hand.actions if a.street is Street.THIRD)
    assert (first.kind, first.amount, first.to_amount) == (ActionKind.COMPLETE, 25, 25)
    # 13:11:08 Eastern in September is EDT, UTC-4
    assert hand.start_time == datetime(2012, 9, 19, 17, 11, 8, tzinfo=UTC)
    assert (hand.total_pot, hand.rake, hand.header_variant) == (485, 20, "Bovada")


@needs_corpus
def test_total_pot_without_a_rake_keeps_what_was_not_paid_out():
    (hand,) = _hands(
        SHARED_CORPUS / "Bovada" / "7-StudHL-USD - RING - $5-$10, $1.25 Ante - 201404.txt"
    )
    # "Total Pot($150)" and nothing else; $73.50 to each half: $3 was kept.
    assert (hand.total_pot, hand.rake) == (15000, 300)
    collects = [(a.player, a.amount) for a in hand.actions if a.kind is ActionKind.COLLECT]
    assert collects == [("Seat+2", 7350), ("[ME]", 7350)]
    # "Raises $7.50 to $10" after bringing in $2.50: chips added, then the street total.
    raise_ = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_.player, raise_.amount, raise_.to_amount, raise_.raise_by) == (
        "[ME]",
        750,
        1000,
        None,
    )


@needs_corpus
def test_old_exports_without_street_headers_start_a_street_at_its_cards():
    hands = _hands(SHARED_CORPUS / "Bovada" / "7-Stud-USD-2.00-4.00-201205.txt")
    assert [h.streets[-1] for h in hands] == [
        Street.FIFTH,
        Street.SIXTH,
        Street.SEVENTH,
        Street.FOURTH,
    ]
    hand = hands[2]
    # "Raises $0.10" after "Bets $0.05": a street total, so $0.10 added.
    raise_ = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_.street, raise_.amount, raise_.to_amount) == (Street.FOURTH, 10, 10)
    # Every player's cards are printed; each line carries the cards from earlier streets.
    dealt = [d for d in hand.dealt if d.player == "Seat+5"]
    assert [(d.street, len(d.previous), len(d.new)) for d in dealt] == [
        (Street.THIRD, 0, 3),
        (Street.FOURTH, 3, 1),
        (Street.FIFTH, 4, 1),
        (Street.SIXTH, 5, 1),
        (Street.SEVENTH, 6, 1),
    ]
    # The show holds the player's seven cards in deal order, not the best five printed.
    show = next(a for a in hand.actions if a.kind is ActionKind.SHOW and a.player == "Seat+5")
    assert [str(c) for c in show.cards] == ["9d", "8s", "Jd", "5c", "Td", "Ac", "Js"]
    assert show.description == "One pair"
    # The summary lists six cards for Seat 5 (the Ac of 6th street left out): its seven.
    result = next(r for r in hand.results if r.seat == 5)
    assert result.lost and len(result.showed) == 7


@needs_corpus
def test_double_bet_on_an_open_pair_and_the_uncalled_return():
    hand = _hands(SHARED_CORPUS / "Bovada" / "7-Stud-USD-2.00-4.00-201205.txt")[1]
    bet = next(a for a in hand.actions if a.street is Street.FOURTH and a.kind is ActionKind.BET)
    assert (bet.player, bet.amount) == ("[ME]", 10)  # "D bets $0.10", 3d 3c showing
    assert (hand.small_bet, hand.big_bet) == (5, 10)
    returned = [a for a in hand.actions if a.kind is ActionKind.UNCALLED_BET_RETURNED]
    assert [(a.player, a.amount) for a in returned] == [("Seat+5", 10)]
    assert replay(hand, bovada.BOVADA, bovada.TRAITS).violations == ()


@needs_corpus
def test_the_hero_has_one_name_in_every_hand():
    heroes = {
        seat.number
        for path in CORPUS
        for hand in _hands(path)
        for seat in hand.seats
        if seat.name == "[ME]"
    }
    assert heroes == {2, 3, 5}  # "Seat+2 [ME]", "Seat+3 [ME]", "Seat+5 [ME]": one player


@needs_corpus
def test_sitting_out_hero_is_seated_but_not_dealt_in():
    hand = _hands(SHARED_CORPUS / "Bovada" / "7-Stud-USD-2.00-4.00-201205.txt")[3]
    notes = [(n.kind, n.player) for n in hand.notes]
    assert notes == [
        (NoteKind.SITTING_OUT, "[ME]"),
        (NoteKind.LEAVES, "[ME]"),
        (NoteKind.LEAVES, "[ME]"),
    ]
    assert "[ME]" not in {d.player for d in hand.dealt}


TOURNAMENT = """\
Bovada Hand #2633115879: 7CARD Tournament #1378659 TBL#1, Fixed Limit- Level 1 (0/0) - 2012-09-19 12:00:00
Seat+1: 1500 in chips
Seat+2 [ME]: 75 in chips
Seat+4: 2000 in chips
Seat+1 : Ante chip 10
Seat+2 [ME] : Ante chip 10
Seat+4 : Ante chip 10
*** 3RD STREET ***
Seat+1 : Card dealt to a spot [As Kd 2c]
Seat+2 [ME] : Card dealt to a spot [Qh Qs 9d]
Seat+4 : Card dealt to a spot [3h 4h Jc]
Seat+1 : Bring_in chip(timeout) 25
Seat+2 [ME] : Raises 50 to 50
Seat+4 : Table enter user
Seat+4 : Call 50
Seat+1 : Calls(timeout) 25
*** 4TH STREET ***
Seat+1 : Card dealt to a spot [7d]
Seat+2 [ME] : Card dealt to a spot [Qc]
Seat+4 : Card dealt to a spot [8s]
Seat+2 [ME] : All-in 15
Seat+4 : Calls 15
Seat+1 : Calls 15
*** 5TH STREET ***
Seat+1 : Card dealt to a spot [5h]
Seat+2 [ME] : Card dealt to a spot [3c]
Seat+4 : Card dealt to a spot [9h]
Seat+4 : Bets 100
Seat+1 : Calls 100
*** 6TH STREET ***
Seat+1 : Card dealt to a spot [6h]
Seat+2 [ME] : Card dealt to a spot [3d]
Seat+4 : Card dealt to a spot [Ts]
Seat+4 : Checks (timeout)
Seat+1 : Checks
*** RIVER ***
Seat+1 : Card dealt to a spot [Tc]
Seat+2 [ME] : Card dealt to a spot [4c]
Seat+4 : Card dealt to a spot [2d]
Seat+4 : Checks
Seat+1 : Checks
Seat+2 [ME] : Showdown [Qh Qs Qc 3c 3d] (Full House)
Seat+1 : Showdown [As Kd Tc 7d 6h] (High Card)
Seat+4 : Showdown [Jc Ts 9h 8s 4h] (High Card)
Seat+1 : Hand Result-Side Pot 200
Seat+2 [ME] : Hand result 225
*** SUMMARY ***
Total Pot(425)
Seat+1:  200  with High Card [As Kd 2c 7d 5h 6h Tc-As Kd Tc 7d 6h]
Seat+2:  225  with Full House [Qh Qs 9d Qc 3c 3d 4c-Qh Qs Qc 3c 3d]
Seat+4:   lost with High Card [3h 4h Jc 8s 9h Ts 2d-Jc Ts 9h 8s 4h]
"""


def test_tournament_hand_all_in_side_pot_and_timeouts():
    hand = _one(TOURNAMENT)
    assert (hand.tournament_id, hand.tournament_level, hand.table, hand.currency) == (
        "1378659",
        "1",
        "1",
        None,
    )
    assert (hand.small_bet, hand.big_bet, hand.bring_in, hand.rake) == (50, 100, 25, 0)
    kinds = [(a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in hand.actions]
    assert ("Seat+1", ActionKind.BRING_IN, 25, 25, False) in kinds
    assert ("[ME]", ActionKind.COMPLETE, 50, 50, False) in kinds
    assert ("Seat+1", ActionKind.CALL, 25, 50, False) in kinds
    assert ("[ME]", ActionKind.BET, 15, 15, True) in kinds  # "All-in 15": chips added
    collects = [(a.player, a.amount, a.pot) for a in hand.actions if a.kind is ActionKind.COLLECT]
    assert collects == [("Seat+1", 200, 1), ("[ME]", 225, 0)]
    result = replay(hand, bovada.BOVADA, bovada.TRAITS)
    assert result.violations == ()
    assert result.net == {"Seat+1": 25, "[ME]": 150, "Seat+4": -175}
    assert parse_text(bovada.print_hand(hand)) == [hand]


def test_a_short_all_in_raise_is_a_street_total():
    text = TOURNAMENT.replace("Seat+2 [ME] : Raises 50 to 50", "Seat+2 [ME] : All-in(raise) 50")
    action = next(a for a in _one(text).actions if a.player == "[ME]" and a.to_amount)
    assert (action.kind, action.amount, action.to_amount, action.all_in) == (
        ActionKind.COMPLETE,
        50,
        50,
        True,
    )


def test_wrong_split_is_flagged_with_its_line():
    text = TOURNAMENT.replace("Hand Result-Side Pot 200", "Hand Result-Side Pot 100").replace(
        "Seat+2 [ME] : Hand result 225", "Seat+2 [ME] : Hand result 325"
    )
    hand = _one(text)
    violations = replay(hand, bovada.BOVADA, bovada.TRAITS).violations
    assert [(v.code, v.line, v.expected, v.actual) for v in violations] == [
        ("SPLIT_AMOUNT", 45, "Seat+1 200, [ME] 225", "Seat+1 100, [ME] 325")
    ]


def test_other_games_are_skipped_by_name():
    text = (
        "Bovada Hand #3000000001 TBL#99 HOLDEM No Limit - 2013-01-01 10:00:00\n"
        "Seat 1: Dealer ($10 in chips)\n\n\n" + TOURNAMENT
    )
    items = parse_text(text)
    assert isinstance(items[0], Skipped) and items[0].game == "HOLDEM"
    assert isinstance(items[1], Hand)


def test_an_unknown_line_is_an_error_with_its_line():
    text = TOURNAMENT.replace("Seat+4 : Calls 15", "Seat+4 : Juggles 15")
    (error,) = parse_text(text)
    assert isinstance(error, ParseError)
    assert error.line == 22 and "Juggles" in (error.text or "")
    assert error.hand_id == "2633115879"


def test_a_player_not_in_the_seat_list_is_an_error():
    text = TOURNAMENT.replace("Seat+4 : Calls 15", "Seat+6 : Calls 15")
    (error,) = parse_text(text)
    assert isinstance(error, ParseError) and "seat list" in error.message


def test_is_header_and_detect():
    assert bovada.is_header("Bovada Hand #2633952287 TBL#2027664 7CARD HiLo Fixed Limit - x")
    assert bovada.is_header("Bodog Hand #2604291510 TBL#1178621 7CARD Fixed Limit - x")
    assert not bovada.is_header("Bovada Poker is great")
    assert detect(["\ufeffBodog Hand #1 TBL#2 7CARD Fixed Limit - 2012-05-07 03:40:07"]) is (
        bovada.FORMAT
    )


def test_dealt_lines_show_opponents_down_cards():
    hand = _one(TOURNAMENT)
    first = [d for d in hand.dealt if d.street is Street.THIRD]
    assert all(isinstance(d, Dealt) and len(d.new) == 3 for d in first)


@pytest.mark.parametrize(
    ("line", "spelling"),
    [
        ("Seat+1 : Bring_in chip(timeout) 25", "Seat+1 : Big blind/Bring in 25"),
        ("Seat+1 : Bring_in chip(timeout) 25", "Seat+1 : Bring in (timeout) 25"),
        ("Seat+4 : Bets 100", "Seat+4 : Double bets 100"),
        ("Seat+4 : Bets 100", "Seat+4 : D bets 100"),
        ("Seat+1 : Calls 100", "Seat+1 : Call 100"),
        ("Seat+1 : Checks\n*** RIVER", "Seat+1 : Checks(timeout)\n*** RIVER"),
        # Tournament exports of 2012 write the loser's summary line "lose with".
        ("Seat+4:   lost with High Card", "Seat+4:   lose with High Card"),
    ],
)
def test_other_spellings_give_the_same_records(line, spelling):
    assert line in TOURNAMENT
    assert _one(TOURNAMENT.replace(line, spelling, 1)) == _one(TOURNAMENT)


def test_a_short_ante_all_in():
    text = TOURNAMENT.replace("Seat+2 [ME]: 75 in chips", "Seat+2 [ME]: 5 in chips").replace(
        "Seat+2 [ME] : Ante chip 10", "Seat+2 [ME] : All-in 5"
    )
    hand = _one(text)
    ante = next(a for a in hand.actions if a.player == "[ME]")
    assert (ante.kind, ante.amount, ante.all_in, ante.street) == (
        ActionKind.ANTE,
        5,
        True,
        Street.ANTES,
    )
    assert hand.ante == 10


# A 2012 tournament hand in the form of that year's MTT exports: the loser mucks at the
# showdown ("Mucks [...]", "[Mucked] [... ]" in the summary), busts ("Ranking 3") and leaves
# ("Stand"); another seat sits out and comes back ("Re-join", no "Seat " before the verb).
MUCKED_AND_RANKED = """\
Bovada Hand #2700000001: 7CARD Tournament #1500001 TBL#2, Fixed Limit- Level 3 (0/0) - 2012-06-17 23:00:00
Seat+1: 185 in chips
Seat+2 [ME]: 800 in chips
Seat+3: 600 in chips
Seat+1 : Ante chip 10
Seat+2 [ME] : Ante chip 10
Seat+3 : Ante chip 10
*** HOLE CARDS ***
Seat+1 : Card dealt to a spot [7h 2h 8h]
Seat+2 [ME] : Card dealt to a spot [As Ad Kd]
Seat+3 : Card dealt to a spot [Qs 5c Jd]
Seat+1 : Big blind/Bring in 25
Seat+2 [ME] : Raises 50
Seat+3 : Folds
Seat+3 : Sit out
Seat+1 : Call 25
Seat+1 : Card dealt to a spot [3d]
Seat+2 [ME] : Card dealt to a spot [3c]
Seat+2 [ME] : Bets 50
Seat+1 : Call 50
Seat+1 : Card dealt to a spot [Jc]
Seat+2 [ME] : Card dealt to a spot [9h]
Seat+2 [ME] : Bets 100
Seat+1 : All-in 75
Seat+2 [ME] : Return uncalled portion of bet 25
Seat+1 : Card dealt to a spot [4s]
Seat+2 [ME] : Card dealt to a spot [2s]
Seat+1 : Card dealt to a spot [9c]
Seat+2 [ME] : Card dealt to a spot [8c]
Seat+2 [ME] : Showdown [As Ad Kd 9h 8c] (One pair)
Seat+1 : Mucks [7h 2h 8h 3d Jc 4s 9c] (High Card)
Seat+2 [ME] : Hand Result 380
Seat+1 : Ranking 3
Seat+1 : Stand
Seat+3 : Re-join
*** SUMMARY ***
Total Pot(380)
Seat 1:   [Mucked] [7h 2h 8h 3d Jc 4s 9c ]
Seat 2:  380  with One pair [As Ad Kd 3c 9h 2s 8c-As Ad Kd 9h 8c]
Seat 3:  Folded on the 3rd STREET
"""


def test_a_mucked_loser_his_finishing_place_and_the_short_seat_events():
    hand = _one(MUCKED_AND_RANKED)
    muck = next(a for a in hand.actions if a.kind is ActionKind.MUCK)
    assert (muck.player, muck.street, muck.description) == ("Seat+1", Street.SHOWDOWN, "High Card")
    assert " ".join(map(str, muck.cards)) == "7h 2h 8h 3d Jc 4s 9c"
    result = next(r for r in hand.results if r.seat == 1)
    assert (result.mucked, result.showed, result.won) == (muck.cards, (), None)
    notes = [(n.kind, n.player) for n in hand.notes]
    assert (NoteKind.FINISHED_TOURNAMENT, "Seat+1") in notes
    assert (NoteKind.LEAVES, "Seat+1") in notes
    assert (NoteKind.RETURNED, "Seat+3") in notes
    replayed = replay(hand, bovada.BOVADA, bovada.TRAITS)
    assert replayed.violations == ()
    assert replayed.net == {"Seat+1": -185, "[ME]": 195, "Seat+3": -10}
    assert parse_text(bovada.print_hand(hand)) == [hand]


SHORT_ALL_IN_ON_FOURTH = """\
Bovada Hand #914800029309 TBL#Phocaea-XXXVI 7CARD HiLo Fixed Limit - 2024-01-02 14:23:20
Seat+1: $2.95 in chips
Seat+2: $0.64 in chips
Seat+3: $5.51 in chips
Seat+4 [ME]: $5.34 in chips
Seat+5: $4.33 in chips
Seat+6: $9.99 in chips
Seat+7: $1.78 in chips
Seat+8: $0.06 in chips
Seat+1 : Ante chip $0.01
Seat+2 : Ante chip $0.01
Seat+3 : Ante chip $0.01
Seat+4 [ME] : Ante chip $0.01
Seat+5 : Ante chip $0.01
Seat+6 : Ante chip $0.01
Seat+7 : Ante chip $0.01
Seat+8 : Ante chip $0.01
*** 3RD STREET ***
Seat+1 : Card dealt to a spot [6d]
Seat+2 : Card dealt to a spot [8d]
Seat+3 : Card dealt to a spot [2h]
Seat+4 [ME] : Card dealt to a spot [4c 9c Qd]
Seat+5 : Card dealt to a spot [Jc]
Seat+6 : Card dealt to a spot [3h]
Seat+7 : Card dealt to a spot [As]
Seat+8 : Card dealt to a spot [Qc]
Seat+3 : Bring_in chip $0.02
Seat+4 [ME] : Folds
Seat+5 : Calls $0.02
Seat+6 : Folds
Seat+7 : Calls $0.02
Seat+8 : Calls $0.02
Seat+1 : Calls $0.02
Seat+2 : Calls $0.02
*** 4TH STREET ***
Seat+1 : Card dealt to a spot [Th]
Seat+2 : Card dealt to a spot [6c]
Seat+3 : Card dealt to a spot [Td]
Seat+5 : Card dealt to a spot [Qs]
Seat+7 : Card dealt to a spot [4d]
Seat+8 : Card dealt to a spot [Js]
Seat+7 : Checks
Seat+8 : All-in $0.03
Seat+1 : Calls $0.03
Seat+2 : Raises $0.07 to $0.07
Seat+3 : Folds
Seat+5 : Folds
Seat+7 : Folds
Seat+1 : Calls $0.04
*** 5TH STREET ***
Seat+1 : Card dealt to a spot [5d]
Seat+2 : Card dealt to a spot [2c]
Seat+8 : Card dealt to a spot [Qh]
Seat+1 : Checks
Seat+2 : Checks
*** 6TH STREET ***
Seat+1 : Card dealt to a spot [9d]
Seat+2 : Card dealt to a spot [Jd]
Seat+8 : Card dealt to a spot [4h]
Seat+1 : Checks
Seat+2 : Checks
*** RIVER ***
Seat+1 : Checks
Seat+2 : Checks
Seat+1 : Showdown [Ah 5c 6d Th 5d 9d 7d] (HI: a pair of Fives)
Seat+2 : Showdown [7c 3d 8d 6c 2c Jd 6s] (HI: a pair of Sixes; LO: 8,7,6,3,2)
Seat+8 : Showdown [Ks 8h Qc Js Qh 4h 7s] (HI: a pair of Queens)
Seat+2 : Hand Result-Side Pot $0.08
Seat+2 : Hand result $0.14
Seat+8 : Hand result $0.14
*** SUMMARY ***
Total Pot($0.37) | Rake ($0.01)
Seat+1:   lost with HI: a pair of Fives [Ah 5c 6d Th 5d 9d 7d-6d Th 5d 9d 7d]
Seat+2:  $0.22  with HI: a pair of Sixes; LO: 8,7,6,3,2 [7c 3d 8d 6c 2c Jd 6s-8d 6c 2c Jd 6s]
Seat+3:  Folded on the 4TH STREET
Seat+4:  Folded on the 3rd STREET
Seat+5:  Folded on the 4TH STREET
Seat+6:  Folded on the 3rd STREET
Seat+7:  Folded on the 4TH STREET
Seat+8:  $0.14  with HI: a pair of Queens [Ks 8h Qc Js Qh 4h 7s-Qc Js Qh 4h 7s]
"""
"""A simulated hand (`handlog simulate --site bovada --game stud8 --seed 7`, $0.04/$0.08)."""


def test_stakes_from_a_raise_over_a_short_all_in_on_fourth_street():
    """Nobody completed on 3rd street and the first 4th-street bet is a short all-in: the
    raise over it goes a full (small) bet over it, and shows the stakes ($0.04/$0.08 here,
    where the ante alone would suggest $0.05)."""
    hand = _one(SHORT_ALL_IN_ON_FOURTH)
    assert (hand.small_bet, hand.big_bet) == (4, 8)
    raise_line = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert raise_line.to_amount == 7
    house, traits = bovada.FORMAT.profile, bovada.FORMAT.traits
    assert replay(hand, house, traits).violations == ()
