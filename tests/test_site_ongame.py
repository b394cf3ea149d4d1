"""OnGame: every corpus hand parsed, replayed clean, its printed nets equal to the replay's,
printed and parsed back; hand-written hands for the lines the corpus does not show (side
pots, split halves, all-ins, other games, bad lines). The golden pairs are tests/sites/ongame/."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlog.check import check_file
from handlog.errors import ParseError, Skipped
from handlog.model import ActionKind, Game, Hand, Site, Street
from handlog.money import minor_units
from handlog.parse import parse_file, parse_text
from handlog.parse.reader import open_text
from handlog.parse.sites import detect, ongame
from handlog.rules.replay import replay

from .conftest import SHARED_CORPUS, SITES
from .test_roundtrip import _rename, names

CORPUS = sorted((SHARED_CORPUS / "OnGame").glob("*.txt"))
HEADER = re.compile(r"^\*\*\*\*\* History for hand ", re.MULTILINE)
NET = re.compile(r"^Seat \d+: (.+) \([^()]*\), net: ([+-]?)(\S+?)(?:,|$)", re.MULTILINE)
BIG_BRING = SHARED_CORPUS / "OnGame" / "7-Stud-USD-1.00-2.00-201212.big.bring.txt"
HI_LO = SHARED_CORPUS / "OnGame" / "7-StudHL-USD-0.25-0.50-201008.All.streets.txt"

needs_corpus = pytest.mark.skipif(not CORPUS, reason="../shared/corpus/OnGame is not here")


def _text(path) -> str:
    with open_text(path) as text:
        return text.read()


def _hands(path) -> list[Hand]:
    return [h for h in parse_file(path) if isinstance(h, Hand)]


def _one(text: str) -> Hand:
    parsed = parse_text(text)
    assert len(parsed) == 1 and isinstance(parsed[0], Hand), parsed
    return parsed[0]


def _check(hand: Hand):
    return replay(hand, ongame.PROFILE, ongame.TRAITS)


def printed_nets(text: str) -> dict[str, int]:
    """The site's own per-seat figures ("net: +$2.47") of one hand's text."""
    return {
        name: (-1 if sign == "-" else 1) * minor_units(amount)
        for name, sign, amount in NET.findall(text)
    }


# ---------------------------------------------------------------------------------------
# The real exports


@needs_corpus
def test_the_corpus_files_are_all_here():
    assert [p.name for p in CORPUS] == [BIG_BRING.name, HI_LO.name]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_parses(path):
    items = list(parse_file(path))
    assert [i for i in items if not isinstance(i, Hand)] == []
    assert len(items) == len(HEADER.findall(_text(path))) > 0
    assert all(i.site is Site.ONGAME for i in items)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_replays_clean_and_nets_sum_to_minus_the_rake(path):
    checked = list(check_file(str(path)))
    assert checked
    for item in checked:
        assert item.replay is not None, item
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        assert sum(item.replay.net.values()) == -item.hand.rake


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_the_sites_own_nets_equal_the_replays(path):
    # OnGame prints every seat's net ("net: +$2.47"): read here from the text on its own,
    # it equals both the record's `SeatResult.net` and what the replay works out.
    texts = HEADER.split(_text(path))[1:]
    hands = _hands(path)
    assert len(texts) == len(hands)
    for text, hand in zip(texts, hands, strict=True):
        nets = printed_nets(text)
        assert set(nets) == {seat.name for seat in hand.seats}
        assert _check(hand).net == nets, hand.hand_id
        assert {r.player: r.net for r in hand.results} == nets


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_parse_print_parse_gives_equal_records(path):
    for hand in _hands(path):
        text = ongame.print_hand(hand)
        assert parse_text(text) == [hand]
        # the printer's nets are the site's figures too
        assert printed_nets(text) == _check(hand).net


@needs_corpus
def test_big_bring_in_is_a_completion_and_raises_to_a_hand_total():
    (hand,) = _hands(BIG_BRING)
    assert (hand.hand_id, hand.game, hand.table, hand.currency) == (
        "R5-292493407-77",
        Game.STUD,
        "Winnipeg",
        "USD",
    )
    # "Players in round: 2 (5)" with a player in seat 6: the bracket is not the table size.
    assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in, hand.max_seats) == (
        100,
        200,
        10,
        None,
        None,
    )
    # "Start hand: Tue Dec 04 19:48:34 CET 2012"
    assert hand.start_time == datetime(2012, 12, 4, 18, 48, 34, tzinfo=UTC)
    third = [
        (a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street is Street.THIRD
    ]
    assert third == [
        ("Hero", ActionKind.COMPLETE, 100, 100),  # "Hero big bring in $1": no BRING_IN
        ("Player0", ActionKind.RAISE, 200, 200),  # "raises $2 to $2"
        ("Hero", ActionKind.CALL, 100, 200),
    ]
    assert (hand.total_pot, hand.rake) == (1020, 50)
    (collect,) = [a for a in hand.actions if a.kind is ActionKind.COLLECT]
    assert (collect.player, collect.amount, collect.pot, collect.half) == ("Player0", 970, 0, None)
    shown = [(r.player, [str(c) for c in r.showed], r.description) for r in hand.results]
    assert shown == [
        ("Hero", [], None),
        ("Player0", ["6d", "4c", "7d", "6s", "8c", "As", "8d"], "TWO_PAIR EIGHT, SIX"),
    ]


@needs_corpus
def test_hidden_cards_are_left_out_and_the_raise_to_figure_is_for_the_hand():
    (hand,) = _hands(HI_LO)
    # "Start hand: Sat Aug 28 20:33:38 GMT+0300 2010"
    assert hand.start_time == datetime(2010, 8, 28, 17, 33, 38, tzinfo=UTC)
    assert hand.game is Game.STUD8 and hand.max_seats is None
    assert "Lee Clayton" in [s.name for s in hand.seats]
    dealt = {(d.street, d.player): (d.previous, d.new) for d in hand.dealt}
    previous, new = dealt[(Street.THIRD, "boneos56")]  # "[-, -, Kd]"
    assert (previous, [str(c) for c in new]) == ((), ["Kd"])
    previous, new = dealt[(Street.FIFTH, "mylonas77")]  # the up cards so far, then the new one
    assert ([str(c) for c in previous], [str(c) for c in new]) == (["5c", "2h"], ["Kh"])
    previous, new = dealt[(Street.FOURTH, "Hero")]
    assert ([str(c) for c in previous], [str(c) for c in new]) == (["8d", "8s", "4d"], ["3h"])
    # "Hero raises $1 to $1.37": $1 added; 1.37 = 0.12 + 0.25 + 1.00 for the hand, so
    # $1 on 5th street facing $0.50.
    raise_ = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_.street, raise_.amount, raise_.to_amount, raise_.raise_by) == (
        Street.FIFTH,
        100,
        100,
        None,
    )
    bring_in = next(a for a in hand.actions if a.kind is ActionKind.BRING_IN)
    assert (bring_in.player, bring_in.amount, hand.bring_in) == ("Hero", 12, 12)
    assert (hand.total_pot, hand.rake) == (514, 25)


# ---------------------------------------------------------------------------------------
# Hand-written hands for what the corpus does not show

SIDE_POT = """\
***** History for hand R5-1-1 *****
Start hand: Mon Sep 06 21:00:00 GMT+0000 2010
Table: Pusan [1] (LIMIT SEVEN_CARD_STUD_HI_LO $0.25/$0.50, ante: $0.05, Real money)
User: Lee Clayton
Players in round: 3 (8)
Seat 1: Lee Clayton ($5)
Seat 2: sits out guy ($0.20)
Seat 4: PC [Mittel] ($9)
Lee Clayton posts ante $0.05
sits out guy posts ante $0.05
PC [Mittel] posts ante $0.05
---
Dealing pocket cards
Dealing to Lee Clayton: [Ah, 2h, 3c]
Dealing to sits out guy: [-, -, Kd]
Dealing to PC [Mittel]: [-, -, 2c]
PC [Mittel] small bring in $0.12
Lee Clayton raises $0.25 to $0.25
sits out guy calls $0.15 [all in]
PC [Mittel] calls $0.13
---
Dealing 4th street
Dealing to Lee Clayton: [4d]
Dealing to sits out guy: [Kh]
Dealing to PC [Mittel]: [7c]
PC [Mittel] bets $0.25
Lee Clayton raises $0.50 to $0.75
PC [Mittel] calls $0.25
---
Dealing 5th street
Dealing to Lee Clayton: [9s]
Dealing to sits out guy: [Qd]
Dealing to PC [Mittel]: [8c]
PC [Mittel] checks
Lee Clayton checks
---
Dealing 6th street
Dealing to Lee Clayton: [Ts]
Dealing to sits out guy: [Qc]
Dealing to PC [Mittel]: [8d]
PC [Mittel] checks
Lee Clayton checks
---
Dealing river
Dealing to Lee Clayton: [6s]
Dealing to sits out guy: [-]
Dealing to PC [Mittel]: [-]
PC [Mittel] checks
Lee Clayton checks
---
Summary:
Main pot: $0.60 won by sits out guy ($0.26 High), Lee Clayton ($0.26 Low)
Side pot 1: $1.20 won by PC [Mittel] ($0.60 High), Lee Clayton ($0.60 Low)
Rake taken: $0.08
Seat 1: Lee Clayton ($5.06), net: +$0.06, [Ah, 2h, 3c, 4d, 9s, Ts, 6s] (HIGH_CARD ACE)
Seat 2: sits out guy ($0.26), net: +$0.06, [Kc, Ks, Kd, Kh, Qd, Qc, 2d] (FOUR_OF_A_KIND KING)
Seat 4: PC [Mittel] ($8.80), net: -$0.20, [2s, 3s, 2c, 7c, 8c, 8d, Jh] (TWO_PAIR EIGHT, TWO)
***** End of hand R5-1-1 *****
"""


def test_side_pot_split_halves_all_in_and_names_with_spaces_and_brackets():
    hand = _one(SIDE_POT)
    assert [s.name for s in hand.seats] == ["Lee Clayton", "sits out guy", "PC [Mittel]"]
    assert (hand.total_pot, hand.main_pot, hand.side_pots, hand.rake) == (180, 60, (120,), 8)
    all_in = next(a for a in hand.actions if a.all_in)
    assert (all_in.player, all_in.kind, all_in.amount) == ("sits out guy", ActionKind.CALL, 15)
    collects = [
        (a.player, a.amount, a.pot, a.half) for a in hand.actions if a.kind is ActionKind.COLLECT
    ]
    assert collects == [
        ("sits out guy", 26, 0, "high"),
        ("Lee Clayton", 26, 0, "low"),
        ("PC [Mittel]", 60, 1, "high"),
        ("Lee Clayton", 60, 1, "low"),
    ]
    # 3rd street: "Lee Clayton raises $0.25 to $0.25" over the bring-in is the completion.
    complete = next(a for a in hand.actions if a.kind is ActionKind.COMPLETE)
    assert (complete.player, complete.amount, complete.to_amount) == ("Lee Clayton", 25, 25)
    # 4th street: "Lee Clayton raises $0.50 to $0.75" = 0.25 on 3rd + 0.50 on 4th.
    raise_ = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_.amount, raise_.to_amount) == (50, 50)
    # The opponents' 7th-street "[-]" makes no record.
    assert [d.player for d in hand.dealt if d.street is Street.SEVENTH] == ["Lee Clayton"]
    result = _check(hand)
    assert result.violations == ()
    assert result.net == printed_nets(SIDE_POT)
    assert sum(result.net.values()) == -hand.rake
    assert parse_text(ongame.print_hand(hand)) == [hand]


def test_a_main_pot_the_rake_took_whole_is_won_by_nobody():
    """A main pot (a player all in for $0.02) all gone to the rake ($0.18) is printed "Main
    pot: $0.18 won by", as handlog's OnGame printer writes a simulated hand (`handlog simulate
    --site ongame --game stud --hands 4000 --seed 3`): read, replayed clean, printed back
    alike."""
    path = SITES / "ongame" / "stud-main-pot-raked-whole.txt"
    text = _text(path)
    hand = _one(text)
    assert (hand.main_pot, hand.side_pots, hand.rake) == (18, (293, 45, 20), 18)
    collects = [(a.player, a.amount, a.pot) for a in hand.actions if a.kind is ActionKind.COLLECT]
    assert collects == [("Hero", 293, 1), ("Hero", 45, 2), ("Hero", 20, 3)]
    result = _check(hand)
    assert result.violations == ()
    assert result.net == printed_nets(text)
    printed = ongame.print_hand(hand)
    assert "\nMain pot: $0.18 won by\n" in printed
    assert parse_text(printed) == [hand]


def test_a_raise_whose_hand_total_disagrees_with_its_chips_is_flagged():
    text = SIDE_POT.replace("raises $0.50 to $0.75", "raises $0.50 to $0.85")
    result = _check(_one(text))
    assert [(v.code, v.street, v.player) for v in result.violations][:1] == [
        ("BET_SIZE", Street.FOURTH, "Lee Clayton")
    ]


def test_a_wrong_winner_is_flagged():
    """The pot paid to the wrong player; the seats' printed nets, left as they were, now
    disagree with the hand's lines for both players (the site's own figures against it)."""
    text = SIDE_POT.replace("won by PC [Mittel] ($0.60 High)", "won by Lee Clayton ($0.60 High)")
    flagged = [(v.code, v.player) for v in _check(_one(text)).violations]
    assert flagged == [
        ("WRONG_WINNER", None),
        ("PLAYER_NET", "Lee Clayton"),
        ("PLAYER_NET", "PC [Mittel]"),
    ]


def test_a_printed_net_that_disagrees_with_the_hand_is_flagged():
    text = SIDE_POT.replace("Lee Clayton ($5.06), net: +$0.06", "Lee Clayton ($5.06), net: +$0.16")
    (violation,) = _check(_one(text)).violations
    assert (violation.code, violation.player) == ("PLAYER_NET", "Lee Clayton")
    assert "+$0.16" in violation.message and "+$0.06" in violation.message


OTHER_GAME = """\
***** History for hand R5-2-2 *****
Start hand: Mon Sep 06 21:00:00 GMT+0000 2010
Table: Pusan [2] (NO_LIMIT TEXAS_HOLDEM $0.25/$0.50, Real money)
User: Hero
Seat 1: Hero ($5)
"""


def test_other_games_are_skipped_by_name():
    items = parse_text(OTHER_GAME + "\n\n" + SIDE_POT)
    assert isinstance(items[0], Skipped) and items[0].game == "NO_LIMIT TEXAS_HOLDEM"
    assert isinstance(items[1], Hand)


def test_an_unknown_line_is_an_error_at_its_line():
    (error,) = parse_text(SIDE_POT.replace("PC [Mittel] calls $0.13", "PC [Mittel] juggles $0.13"))
    assert isinstance(error, ParseError)
    assert (error.line, error.hand_id) == (20, "R5-1-1")
    (error,) = parse_text(
        SIDE_POT.replace("Dealing to Lee Clayton: [4d]", "Dealing to Nobody: [4d]")
    )
    assert isinstance(error, ParseError) and error.line == 23


def test_a_truncated_hand_is_one_error():
    cut = SIDE_POT[: SIDE_POT.index("---\nSummary:")]
    (error,) = parse_text(cut)
    assert isinstance(error, ParseError) and "ends early" in error.message


def test_is_header_and_detect():
    assert ongame.is_header("***** History for hand R5-78227816-62 *****")
    assert not ongame.is_header("***** End of hand R5-78227816-62 *****")
    assert detect(["***** History for hand R5-1-1 *****"]) is ongame.FORMAT


ROUND_TRIP_HANDS = [h for path in CORPUS for h in _hands(path)] + [_one(SIDE_POT)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=st.sampled_from(ROUND_TRIP_HANDS), data=st.data())
def test_round_trip_with_any_player_names(chosen, data):
    players = [seat.name for seat in chosen.seats]
    new_names = data.draw(
        st.lists(names, min_size=len(players), max_size=len(players), unique=True)
    )
    renamed = _rename(chosen, dict(zip(players, new_names, strict=True)))
    text = ongame.print_hand(renamed)
    assert _one(text) == renamed, text
    assert ongame.print_hand(_one(text)) == text
