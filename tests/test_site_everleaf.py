"""Everleaf: every corpus hand parsed, replayed clean, printed and parsed back; the old
format, dollar amounts, names with spaces and brackets, the unmatched bring-in and other
games written here as hand text. The golden pairs are tests/sites/everleaf/."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from handlog.check import check_file
from handlog.errors import ParseError, Skipped
from handlog.model import ActionKind, Game, Hand, NoteKind, Site, Street
from handlog.parse import parse_file, parse_text
from handlog.parse.sites import detect, everleaf
from handlog.rules.replay import replay

from .conftest import SHARED_CORPUS

CORPUS = sorted((SHARED_CORPUS / "Everleaf").glob("*.txt"))
HEADER = re.compile(r"^Everleaf Gaming Game #\d+$", re.MULTILINE)
NEW_FORMAT = SHARED_CORPUS / "Everleaf" / "7-Stud-EUR-0.05-0.10.201108-new-format.txt"

needs_corpus = pytest.mark.skipif(not CORPUS, reason="../shared/corpus/Everleaf is not here")


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
    text = path.read_bytes().decode("cp1252")
    assert len(items) == len(HEADER.findall(text)) > 0
    assert all(isinstance(i, Hand) and i.site is Site.EVERLEAF for i in items)


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
        assert parse_text(everleaf.print_hand(hand)) == [hand]


@needs_corpus
def test_euro_header_stakes_clock_and_cp1252():
    hand = _hands(NEW_FORMAT)[0]
    assert (hand.hand_id, hand.game, hand.table, hand.currency) == (
        "295679510",
        Game.STUD,
        "Harjavalta",
        "EUR",
    )
    assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (5, 10, 1, 2)
    assert hand.start_time == datetime(2011, 8, 12, 13, 9, 6, tzinfo=UTC)
    assert [(s.number, s.name, s.stack) for s in hand.seats] == [
        (5, "MOURINHO_", 250),
        (8, "EricBlade", 250),
    ]


@needs_corpus
def test_silent_uncalled_bet_total_pot_and_rake_from_the_betting():
    first, second = _hands(NEW_FORMAT)[:2]
    # The €0.05 bet on 4th street nobody called goes back without a line: €0.12 won.
    assert (first.total_pot, first.rake) == (12, 0)
    # €0.42 in, €0.40 won: €0.02 raked, never printed.
    assert (second.total_pot, second.rake) == (42, 2)
    result = replay(first, everleaf.EVERLEAF, everleaf.TRAITS)
    assert result.violations == () and result.net == {"MOURINHO_": 6, "EricBlade": -6}


@needs_corpus
def test_forced_player_completing_with_bets_and_raises_as_chips_added():
    hand = _hands(NEW_FORMAT)[1]
    third = [
        (a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street is Street.THIRD
    ]
    assert third == [
        ("MOURINHO_", ActionKind.COMPLETE, 5, 5),  # "MOURINHO_: bets [€ 0.05 EURO]"
        ("EricBlade", ActionKind.RAISE, 10, 10),  # "raises [€ 0.10 EURO]"
        ("MOURINHO_", ActionKind.RAISE, 10, 15),
        ("EricBlade", ActionKind.CALL, 5, 15),
    ]


@needs_corpus
def test_shows_are_in_deal_order():
    hand = _hands(NEW_FORMAT)[4]
    # "EricBlade shows [ Qs, Ts, 6s, 4h, 5c, Jd, Js ]" after "Dealt to EricBlade [ Js, Qs, 6s ]"
    # and a 7th-street Ts: the cards as dealt.
    show = next(a for a in hand.actions if a.kind is ActionKind.SHOW and a.player == "EricBlade")
    assert [str(c) for c in show.cards] == ["Js", "Qs", "6s", "4h", "5c", "Jd", "Ts"]
    assert show.description == "a pair of jacks"


OLD_FORMAT = """\
Everleaf Gaming Game #285997460
***** Hand history for game #285997460 *****
$0.05/$0.10 7 Card Stud - 2011/07/08 - 00:08:53
Table Aalborg
Seat 3 is the button
Seat 1: Player One (  $ 0.54 USD )
Seat 3: PC [Mittel] (  $ 1.20 USD )
Seat 6: Player3 (  $ 2 USD )
Player One: posts ante [$ 0.01 USD]
PC [Mittel]: posts ante [$ 0.01 USD]
Player3: posts ante [$ 0.01 USD]
** Dealing down cards **
Dealt to Player One [ Ac ]
Dealt to PC [Mittel] [ 9h, 9s, 2c ]
Dealt to Player3 [ Kd ]
PC [Mittel] posts bring-in $0.02.
Player3 has left the table
Player3 folds
Player One completes to $0.05.
PC [Mittel] calls [$ 0.03 USD]
**** dealing 4th street ****
Dealt to Player One [ 7c ]
Dealt to PC [Mittel] [ 9d ]
Player One: bets [$ 0.05 USD]
PC [Mittel] raises [$ 0.10 USD]
Player One calls [$ 0.05 USD]
**** dealing 5th street ****
Dealt to Player One [ 7d ]
Dealt to PC [Mittel] [ Qh ]
Player One checks
PC [Mittel]: bets [$ 0.10 USD]
Player One folds
PC [Mittel] does not show cards
PC [Mittel] wins $ 0.33 USD from main pot
"""


def test_old_format_names_with_spaces_and_brackets_and_dollars():
    hand = _one(OLD_FORMAT)
    assert (hand.currency, hand.small_bet, hand.big_bet, hand.table) == ("USD", 5, 10, "Aalborg")
    assert [s.name for s in hand.seats] == ["Player One", "PC [Mittel]", "Player3"]
    assert hand.streets == (Street.THIRD, Street.FOURTH, Street.FIFTH)
    dealt = [d for d in hand.dealt if d.player == "PC [Mittel]"]
    assert [(len(d.previous), len(d.new)) for d in dealt] == [(0, 3), (3, 1), (4, 1)]
    raise_ = next(a for a in hand.actions if a.kind is ActionKind.RAISE)
    assert (raise_.player, raise_.amount, raise_.to_amount) == ("PC [Mittel]", 10, 10)
    assert [(n.kind, n.player) for n in hand.notes] == [(NoteKind.LEAVES, "Player3")]
    # 3 antes + 2 x 0.05 + 2 x 0.10 = 0.33 in; the 0.10 bet nobody called went back.
    assert (hand.total_pot, hand.rake) == (33, 0)
    result = replay(hand, everleaf.EVERLEAF, everleaf.TRAITS)
    assert result.violations == ()
    assert result.net == {"Player One": -16, "PC [Mittel]": 17, "Player3": -1}
    assert parse_text(everleaf.print_hand(hand)) == [hand]


UNMATCHED_BRING_IN = """\
Everleaf Gaming Game #285997461
***** Hand history for game #285997461 *****
$0.05/$0.10 7 Card Stud - 2011/07/08 - 00:09:53
Table Aalborg
Seat 1: Player One (  $ 0.54 USD )
Seat 3: PC [Mittel] (  $ 1.20 USD )
Player One: posts ante [$ 0.01 USD]
PC [Mittel]: posts ante [$ 0.01 USD]
** Dealing down cards **
Dealt to Player One [ Ac ]
Dealt to PC [Mittel] [ 9h, 9s, 2c ]
PC [Mittel] posts bring-in $0.02.
Player One folds
PC [Mittel] does not show cards
PC [Mittel] wins $ 0.02 USD from main pot
"""


def test_an_unmatched_bring_in_goes_back_silently():
    hand = _one(UNMATCHED_BRING_IN)
    assert (hand.total_pot, hand.rake, hand.bring_in) == (2, 0, 2)
    result = replay(hand, everleaf.EVERLEAF, everleaf.TRAITS)
    assert result.violations == ()
    assert result.net == {"Player One": -1, "PC [Mittel]": 1}


def test_a_collect_by_a_player_who_folded_is_flagged():
    text = OLD_FORMAT.replace(
        "PC [Mittel] wins $ 0.33 USD from main pot", "Player One wins $ 0.33 USD from main pot"
    )
    hand = _one(text)
    violations = replay(hand, everleaf.EVERLEAF, everleaf.TRAITS).violations
    assert [(v.code, v.line, v.player) for v in violations] == [("NOT_ELIGIBLE", 34, "Player One")]


def test_other_games_are_skipped_by_name():
    holdem = (
        "Everleaf Gaming Game #75065769\n"
        "***** Hand history for game #75065769 *****\n"
        "Blinds $0.05/$0.10 NL Hold'em - 2009/02/21 - 11:21:57\n"
        "Table 2\n"
        "Seat 1: Hero (  $ 10 USD )\n\n\n"
    )
    items = parse_text(holdem + OLD_FORMAT)
    assert isinstance(items[0], Skipped) and items[0].game == "NL Hold'em"
    assert isinstance(items[1], Hand)


def test_an_unknown_line_is_an_error_with_its_line():
    (error,) = parse_text(OLD_FORMAT.replace("Player One calls [", "Player One juggles ["))
    assert isinstance(error, ParseError)
    assert error.line == 26 and error.hand_id == "285997460"


def test_is_header_and_detect():
    assert everleaf.is_header("Everleaf Gaming Game #285997460")
    assert not everleaf.is_header("Everleaf Gaming is a site")
    assert detect(["Everleaf Gaming Game #1", "***** Hand history for game #1 *****"]) is (
        everleaf.FORMAT
    )


def test_more_paid_out_than_the_pot_held_is_flagged():
    text = OLD_FORMAT.replace("wins $ 0.33 USD", "wins $ 0.40 USD")
    hand = _one(text)
    assert (hand.total_pot, hand.rake) == (33, 0)
    violations = replay(hand, everleaf.EVERLEAF, everleaf.TRAITS).violations
    assert [(v.code, v.expected, v.actual) for v in violations] == [
        ("SPLIT_AMOUNT", "PC [Mittel] $0.33", "PC [Mittel] $0.40")
    ]


def test_a_show_of_fewer_cards_than_were_seen_dealt_is_kept_as_shown():
    # A's door card (deal position 2) is among two cards shown: there is no deal order to
    # put them in (the parser stopped with StopIteration here).
    text = "\n".join(
        [
            "Everleaf Gaming Game #1",
            "***** Hand history for game #1 *****",
            "$0.02/$0.04 7 Card Stud - 2011/08/12 - 13:09:06",
            "Table X",
            "Total number of players: 2",
            "Seat 1: A (  $ 1.00 USD )",
            "Seat 2: B (  $ 1.00 USD )",
            "A: posts ante [$ 0.01 USD]",
            "B: posts ante [$ 0.01 USD]",
            "** Dealing down cards **",
            "Dealt to A [ Qh ].",
            "Dealt to B [ 2c ].",
            "B posts bring-in $0.01.",
            "A calls [$ 0.01 USD]",
            "A shows [ Qh, 5c ] high card",
            "A wins $ 0.04 USD from main pot",
        ]
    )
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand), hand
    (show,) = [a for a in hand.actions if a.kind is ActionKind.SHOW]
    assert [str(c) for c in show.cards] == ["Qh", "5c"]
