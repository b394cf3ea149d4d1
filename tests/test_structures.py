"""Betting structures other than fixed limit (spread, pot, no limit): one real PokerStars
hand replayed under each structure's rules, and changed the way a wrong bet size would look."""

from __future__ import annotations

from dataclasses import replace

import pytest

from handlog.model import Hand, Structure
from handlog.parse import parse_text
from handlog.rules.fast import replay_clean
from handlog.rules.profiles import POKERSTARS
from handlog.rules.replay import replay
from handlog.rules.structures import STRUCTURES, Ceiling, raise_range

from .conftest import SAMPLE_LOGS

STUD = SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt"


def _hand(changes: list[tuple[str, str]] = ()) -> str:  # type: ignore[assignment]
    text = STUD.read_text(encoding="utf-8").replace("\r\n", "\n")
    start = text.index("PokerStars Game #35874081088:")
    text = text[start : text.index("\n\n\n", start)]
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def _replayed(structure: Structure, changes=(), profile=POKERSTARS):  # type: ignore[no-untyped-def]
    (hand,) = parse_text(_hand(list(changes)))
    assert isinstance(hand, Hand)
    return replay(replace(hand, structure=structure), profile)


# Hero raises by half the bet he faces on 5th street: too little where a raise must be at
# least the last bet (the call and the totals follow).
SMALL_RAISE = [
    (
        "Hero: raises $0.08 to $0.16\nMasterTrini1: calls $0.08",
        "Hero: raises $0.04 to $0.12\nMasterTrini1: calls $0.04",
    ),
    ("Total pot $1.09", "Total pot $1.01"),
    ("Hero collected $1.04", "Hero collected $0.96"),
    ("and won ($1.04)", "and won ($0.96)"),
]

# Hero bets $1 into the 93 cent pot on 7th street, and is called.
BIG_BET = [
    (
        "Hero: bets $0.08\nMasterTrini1: calls $0.08\n*** SHOW",
        "Hero: bets $1.00\nMasterTrini1: calls $1.00\n*** SHOW",
    ),
    ("Total pot $1.09", "Total pot $2.93"),
    ("Hero collected $1.04", "Hero collected $2.88"),
    ("and won ($1.04)", "and won ($2.88)"),
]


@pytest.mark.parametrize("structure", list(Structure), ids=str)
def test_a_fixed_limit_hand_is_legal_in_every_structure(structure):
    """Every bet of the hand is at least the street's bet and every raise at least the last
    one, none above the pot or the spread ($0.04-$0.08): legal in every structure."""
    result = _replayed(structure)
    assert result.violations == ()
    assert sum(result.net.values()) == -5


@pytest.mark.parametrize("structure", list(Structure), ids=str)
def test_every_structure_takes_the_fast_path(structure):
    """A clean hand takes the fast path in every structure, with the full replay's result;
    the same bets over the pot (pot limit) or the top of the spread are left to the full
    replay, which flags them."""
    from handlog.rules.replay import _Replayer

    (hand,) = parse_text(_hand())
    hand = replace(hand, structure=structure)
    assert replay_clean(hand, POKERSTARS) == _Replayer(hand, POKERSTARS).run()
    narrow = replace(hand, big_bet=hand.small_bet + 1)  # a spread's top, a big bet of 5 cents
    if structure in (Structure.FIXED, Structure.SPREAD):
        assert replay_clean(narrow, POKERSTARS) is None
        assert "BET_SIZE" in {v.code for v in _Replayer(narrow, POKERSTARS).run().violations}


@pytest.mark.parametrize(
    ("structure", "message"),
    [
        (
            Structure.NO_LIMIT,
            "on 5th street Hero's no-limit raise to $0.12 is less than the minimum $0.16",
        ),
        (
            Structure.POT_LIMIT,
            "on 5th street Hero's pot-limit raise to $0.12 is less than the minimum $0.16",
        ),
        (
            Structure.SPREAD,
            "on 5th street Hero's spread-limit raise to $0.12 is less than the minimum $0.16",
        ),
        (Structure.FIXED, "on 5th street Hero may raise to $0.16, made it $0.12"),
    ],
    ids=str,
)
def test_a_raise_smaller_than_the_last_bet_is_flagged(structure, message):
    (violation,) = _replayed(structure, SMALL_RAISE).violations
    assert (violation.code, violation.message) == ("BET_SIZE", message)


def test_a_spread_house_may_allow_any_raise_within_the_spread():
    lenient = replace(POKERSTARS, spread_raise_at_least_last=False)
    assert _replayed(Structure.SPREAD, SMALL_RAISE, lenient).violations == ()


@pytest.mark.parametrize(
    ("structure", "message"),
    [
        (
            Structure.POT_LIMIT,
            "on 7th street Hero's pot-limit bet $1 exceeds the pot maximum $0.93",
        ),
        (
            Structure.SPREAD,
            "on 7th street Hero's spread-limit bet $1 exceeds the top of the spread, $0.08",
        ),
        (Structure.FIXED, "on 7th street Hero may bet $0.08, made it $1"),
    ],
    ids=str,
)
def test_a_bet_over_the_limit_is_flagged(structure, message):
    (violation,) = _replayed(structure, BIG_BET).violations
    assert (violation.code, violation.message) == ("BET_SIZE", message)


def test_no_limit_allows_any_bet_up_to_the_stack():
    result = _replayed(Structure.NO_LIMIT, BIG_BET)
    assert result.violations == ()
    assert result.net["Hero"] == 288 - 37 - 100


def test_the_pot_limit_maximum_counts_the_call():
    """Facing a bet B with P in the pot (B included), a pot-limit raise goes to at most
    B + (P + B): the raiser calls, then raises the pot."""
    pot_limit = STRUCTURES[Structure.POT_LIMIT]
    least, most = raise_range(
        pot_limit,
        current_bet=10,
        last_raise=10,
        least_bet=10,
        top=0,
        pot=50,
        owed=10,
        at_least_last=True,
    )
    assert (least, most) == (20, 70)
    # the first bet of a street: at least the bet size, at most the pot
    assert raise_range(
        pot_limit,
        current_bet=0,
        last_raise=0,
        least_bet=10,
        top=0,
        pot=50,
        owed=0,
        at_least_last=True,
    ) == (10, 50)


def test_structures_are_data():
    assert {s.ceiling for s in STRUCTURES.values()} == set(Ceiling)
    assert [s for s, rules in STRUCTURES.items() if rules.big_bets] == [
        Structure.FIXED,
        Structure.SPREAD,
    ]
