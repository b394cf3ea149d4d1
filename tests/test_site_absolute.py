"""Absolute Poker: every corpus hand parsed, replayed clean, its summary's `won Total` figures
equal to what the replay pays, printed and parsed back; hand-written hands for the lines the
corpus does not show (raises, all-ins, a side pot, other games, bad lines). The golden pairs
are tests/sites/absolute/."""

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
from handlog.parse.sites import absolute, detect
from handlog.rules.replay import replay

from .conftest import SHARED_CORPUS
from .test_roundtrip import _rename, names

CORPUS = sorted((SHARED_CORPUS / "Absolute").glob("*.txt"))
HEADER = re.compile(r"^Stage #", re.MULTILINE)
WON = re.compile(r"^Seat \d+: (.+?) won Total \(([^)]+)\)", re.MULTILINE)
RIVER_FILE = SHARED_CORPUS / "Absolute" / "7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt"

needs_corpus = pytest.mark.skipif(not CORPUS, reason="../shared/corpus/Absolute is not here")


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
    return replay(hand, absolute.PROFILE, absolute.TRAITS)


def printed_won(text: str) -> dict[str, int]:
    """The site's own per-seat figures ("won Total ($0.19)") of one hand's text."""
    return {name: minor_units(amount) for name, amount in WON.findall(text)}


# ---------------------------------------------------------------------------------------
# The real exports


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_parses(path):
    items = list(parse_file(path))
    assert [i for i in items if not isinstance(i, Hand)] == []
    assert len(items) == len(HEADER.findall(_text(path))) > 0
    assert all(i.site is Site.ABSOLUTE for i in items)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_replays_clean_and_nets_sum_to_minus_the_rake(path):
    checked = list(check_file(str(path)))
    assert checked
    for item in checked:
        assert item.replay is not None, item
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        assert sum(item.replay.net.values()) == -item.hand.rake


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_the_sites_won_totals_equal_the_replays(path):
    # Absolute prints what each seat won ("won Total ($0.19)"): it is the record's
    # SeatResult.won, and must be what the replay pays the seat (its net plus its chips in).
    texts = HEADER.split(_text(path))[1:]
    hands = _hands(path)
    assert len(texts) == len(hands)
    for text, hand in zip(texts, hands, strict=True):
        result = _check(hand)
        paid = {p: result.net[p] + result.put_in[p] for p in result.net}
        assert printed_won(text) == {p: v for p, v in paid.items() if v}, hand.hand_id
        assert {r.player: r.won for r in hand.results if r.won is not None} == printed_won(text)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_parse_print_parse_gives_equal_records(path):
    for hand in _hands(path):
        assert parse_text(absolute.print_hand(hand)) == [hand]


@needs_corpus
def test_header_hidden_cards_tens_and_the_odd_chip_split():
    (hand,) = _hands(RIVER_FILE)
    assert (hand.hand_id, hand.game, hand.currency, hand.small_bet, hand.big_bet) == (
        "1300000000",
        Game.STUD8,
        "USD",
        2,
        4,
    )
    assert (hand.ante, hand.bring_in, hand.total_pot, hand.rake) == (1, 1, 43, 4)
    # 2009-03-18 19:10:00 ET (daylight time: UTC-4)
    assert hand.start_time == datetime(2009, 3, 18, 23, 10, tzinfo=UTC)
    dealt = {(d.street, d.player): d for d in hand.dealt}
    # "PLAYER1 - Pocket [H H Js 10d]": the up cards so far, then the new one
    fourth = dealt[(Street.FOURTH, "PLAYER1")]
    assert ([str(c) for c in fourth.previous], [str(c) for c in fourth.new]) == (["Js"], ["Td"])
    assert [str(c) for c in dealt[(Street.THIRD, "Hero")].new] == ["Tc", "5c", "7s"]
    # Hero folded on 3rd street and keeps getting "Hero - Pocket [10c 5c 7s]": no record;
    # the 7th-street "[… H]" makes none either.
    assert [s for s, p in dealt if p == "Hero"] == [Street.THIRD]
    assert not [s for s, _ in dealt if s is Street.SEVENTH]
    # $0.39 after rake: $0.20 to the high half, $0.19 to the low half (odd chip high).
    collects = [
        (a.player, a.amount, a.pot, a.half) for a in hand.actions if a.kind is ActionKind.COLLECT
    ]
    assert collects == [("PLAYER3", 19, 0, "low"), ("PLAYER6", 20, 0, "high")]
    results = {r.player: r for r in hand.results}
    assert results["PLAYER2"].folded_on is Street.THIRD
    assert results["PLAYER1"].lost and results["PLAYER1"].won is None
    assert [str(c) for c in results["PLAYER6"].showed] == ["Kc", "Th", "9c", "Ks", "Ts", "8h", "2s"]


@needs_corpus
def test_the_odd_chip_to_the_low_half_would_be_flagged():
    text = _text(RIVER_FILE)
    text = text.replace("PLAYER3 Collects $0.19", "PLAYER3 Collects $0.20").replace(
        "PLAYER6 Collects $0.20", "PLAYER6 Collects $0.19"
    )
    (hand,) = [h for h in parse_text(text) if isinstance(h, Hand)]
    assert [v.code for v in _check(hand).violations] == ["ODD_CHIP"]


# ---------------------------------------------------------------------------------------
# Hand-written hands for what the corpus does not show

RAISES = """\
Stage #1300000001: 7 Card Stud  Normal $0.10/$0.20 - 2009-03-18 19:12:00 (ET)
Table: TORONTO AVE (Real Money)
Seat 1 - PC [Mittel] ($5 in chips)
Seat 3 - Mr Short ($0.27 in chips)
Seat 4 - Hero ($4 in chips)
PC [Mittel] - Ante $0.02
Mr Short - Ante $0.02
Hero - Ante $0.02
*** 3rd STREET ***
PC [Mittel] - Pocket [H H 2c]
Mr Short - Pocket [H H Kd]
Hero - Pocket [As Ad 9h]
PC [Mittel] - Bring-In $0.05
Mr Short - Bets $0.10
Hero - Raises $0.10 to $0.20
PC [Mittel] - Calls $0.15
Mr Short - All-In $0.15
Hero - Calls $0.05
PC [Mittel] - Calls $0.05
*** 4TH STREET ***
PC [Mittel] - Pocket [H H 2c 7c]
Mr Short - Pocket [H H Kd Kh]
Hero - Pocket [As Ad 9h 3s]
Hero - Checks
PC [Mittel] - Bets $0.20
Hero - Calls $0.20
*** 5TH STREET ***
PC [Mittel] - Pocket [H H 2c 7c 8c]
Mr Short - Pocket [H H Kd Kh 4d]
Hero - Pocket [As Ad 9h 3s Jd]
Hero - Checks
PC [Mittel] - Checks
*** 6TH STREET ***
PC [Mittel] - Pocket [H H 2c 7c 8c 9c]
Mr Short - Pocket [H H Kd Kh 4d 5h]
Hero - Pocket [As Ad 9h 3s Jd 2h]
Hero - Checks
PC [Mittel] - Checks
*** RIVER ***
PC [Mittel] - Pocket [H H 2c 7c 8c 9c H]
Mr Short - Pocket [H H Kd Kh 4d 5h H]
Hero - Pocket [As Ad 9h 3s Jd 2h 6d]
Hero - Checks
PC [Mittel] - Checks
*** SHOW DOWN ***
PC [Mittel] - Shows [Ac Qc 2c 7c 8c 9c 4h] (Flush, ace high)
Mr Short - Shows [Kc 3d Kd Kh 4d 5h Qh] (Three of a kind, kings)
Hero - Shows [As Ad 9h 3s Jd 2h 6d] (One pair, aces)
PC [Mittel] Collects $0.40 from side pot #1
PC [Mittel] Collects $0.75 from main pot
*** SUMMARY ***
Total Pot($1.21) | Rake ($0.06)
Seat 1: PC [Mittel] won Total ($1.15) HI:($1.15) with Flush, ace high [Ac Qc 2c 7c 8c 9c 4h - P:Ac,P:Qc,B:9c,B:8c,B:7c]
Seat 3: Mr Short HI:lost with Three of a kind, kings [Kc 3d Kd Kh 4d 5h Qh - B:Kd,B:Kh,P:Kc,P:Qh,B:5h]
Seat 4: Hero HI:lost with One pair, aces [As Ad 9h 3s Jd 2h 6d - P:As,P:Ad,P:Jd,B:9h,B:6d]
"""


def test_completion_raise_short_all_in_side_pot_and_names_with_spaces_and_brackets():
    hand = _one(RAISES)
    assert (hand.table, hand.game) == ("TORONTO AVE (Real Money)", Game.STUD)
    assert [s.name for s in hand.seats] == ["PC [Mittel]", "Mr Short", "Hero"]
    third = [
        (a.player, a.kind, a.amount, a.to_amount, a.all_in, a.raise_by)
        for a in hand.actions
        if a.street is Street.THIRD
    ]
    assert third == [
        ("PC [Mittel]", ActionKind.BRING_IN, 5, 5, False, None),
        ("Mr Short", ActionKind.COMPLETE, 10, 10, False, None),  # "Bets $0.10"
        ("Hero", ActionKind.RAISE, 20, 20, False, 10),  # "Raises $0.10 to $0.20"
        ("PC [Mittel]", ActionKind.CALL, 15, 20, False, None),
        ("Mr Short", ActionKind.RAISE, 15, 25, True, None),  # "All-In $0.15": past the bet
        ("Hero", ActionKind.CALL, 5, 25, False, None),
        ("PC [Mittel]", ActionKind.CALL, 5, 25, False, None),
    ]
    shows = {a.player: [str(c) for c in a.cards] for a in hand.actions if a.kind is ActionKind.SHOW}
    assert shows["Mr Short"] == ["Kc", "3d", "Kd", "Kh", "4d", "5h", "Qh"]
    collects = [(a.player, a.amount, a.pot) for a in hand.actions if a.kind is ActionKind.COLLECT]
    assert collects == [("PC [Mittel]", 40, 1), ("PC [Mittel]", 75, 0)]
    result = _check(hand)
    assert result.violations == ()
    assert sum(result.net.values()) == -hand.rake
    paid = {p: result.net[p] + result.put_in[p] for p in result.net}
    assert printed_won(RAISES) == {p: v for p, v in paid.items() if v}
    assert parse_text(absolute.print_hand(hand)) == [hand]


def test_a_raise_whose_size_disagrees_with_its_total_is_flagged():
    text = RAISES.replace("Hero - Raises $0.10 to $0.20", "Hero - Raises $0.05 to $0.20")
    violations = _check(_one(text)).violations
    assert [(v.code, v.street, v.player) for v in violations] == [
        ("BET_SIZE", Street.THIRD, "Hero")
    ]


HOLDEM = """\
Stage #1571362962: Holdem  No Limit $0.02 - 2009-08-05 15:24:06 (ET)
Table: TORONTO AVE (Real Money) Seat #6 is the dealer
Seat 6 - FETS63 ($0.75 in chips)
"""


def test_other_games_are_skipped_by_name():
    items = parse_text(HOLDEM + "\n\n" + RAISES)
    assert isinstance(items[0], Skipped) and items[0].game == "Holdem No Limit"
    assert isinstance(items[1], Hand)


def test_an_unknown_line_is_an_error_at_its_line():
    (error,) = parse_text(RAISES.replace("Hero - Calls $0.20", "Hero - Juggles $0.20"))
    assert isinstance(error, ParseError)
    assert (error.line, error.hand_id) == (26, "1300000001")
    (error,) = parse_text(
        RAISES.replace("Hero - Checks\nPC [Mittel] - Bets", "Nobody - Checks\nPC [Mittel] - Bets")
    )
    assert isinstance(error, ParseError) and error.line == 24


def test_a_truncated_hand_is_one_error():
    (error,) = parse_text(RAISES[: RAISES.index("*** 4TH STREET ***")])
    assert isinstance(error, ParseError) and "ends early" in error.message


def test_is_header_and_detect():
    assert absolute.is_header(
        "Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)"
    )
    assert not absolute.is_header("Stage #1300000000 is a stage")
    assert detect(["Stage #1: Razz  Normal $1/$2 - 2009-03-18 19:10:00 (ET)"]) is absolute.FORMAT


ROUND_TRIP_HANDS = [h for path in CORPUS for h in _hands(path)] + [_one(RAISES)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=st.sampled_from(ROUND_TRIP_HANDS), data=st.data())
def test_round_trip_with_any_player_names(chosen, data):
    players = [seat.name for seat in chosen.seats]
    new_names = data.draw(
        st.lists(names, min_size=len(players), max_size=len(players), unique=True)
    )
    renamed = _rename(chosen, dict(zip(players, new_names, strict=True)))
    text = absolute.print_hand(renamed)
    assert _one(text) == renamed, text
    assert absolute.print_hand(_one(text)) == text


def test_a_show_of_fewer_cards_than_were_seen_dealt_is_kept_as_shown():
    # A's door card (deal position 2) is among two cards shown: there is no deal order to
    # put them in (the parser stopped with StopIteration here).
    text = "\n".join(
        [
            "Stage #1: 7 Card Stud  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)",
            "Seat 1 - A ($1 in chips)",
            "Seat 2 - B ($1 in chips)",
            "A - Ante $0.01",
            "B - Ante $0.01",
            "*** 3rd STREET ***",
            "A - Pocket [H H Qh]",
            "B - Pocket [H H 2c]",
            "B - Bring-In $0.01",
            "A - Calls $0.01",
            "*** SHOW DOWN ***",
            "A - Shows [Qh 5c] (High card)",
            "A Collects $0.04 from main pot",
            "*** SUMMARY ***",
            "Total Pot($0.04) | Rake ($0)",
            "Seat 1: A won Total ($0.04) with High card [Qh 5c]",
            "Seat 2: B Folded on the 3rd STREET",
        ]
    )
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand), hand
    (show,) = [a for a in hand.actions if a.kind is ActionKind.SHOW]
    assert [str(c) for c in show.cards] == ["Qh", "5c"]
    (result,) = [r for r in hand.results if r.player == "A"]
    assert [str(c) for c in result.showed] == ["Qh", "5c"]


def test_a_line_of_a_long_run_of_spaces_is_read_in_linear_time():
    """The fuzzer's mutant: 64,000 spaces inside "Seat 3", where the lexer also tries the
    header's game name, whose pattern looked past the run again from each of its spaces
    (19 CPU s). The hand is still an error at that line; it takes a blink now."""
    import time

    from .conftest import ROOT

    text = (ROOT / "tests" / "sites" / "absolute" / "stud8-odd-chip-to-high.txt").read_text()
    seat = text.index("Seat ", text.index("\n"))
    mutant = text[: seat + 3] + " " * 64_000 + text[seat + 3 :]
    started = time.process_time()
    (item,) = parse_text(mutant)
    assert isinstance(item, ParseError)
    assert time.process_time() - started < 3.0
