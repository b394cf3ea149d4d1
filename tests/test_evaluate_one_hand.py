"""One hand at a time without tables: `high_rank` and the ace-to-five `low_rank` number a hand's
class from its ranks, `high_class` and `low_class` turn a number back into its class, and none of
them builds the batches' tables (what a one-hand import would otherwise pay at its first
showdown). That the numbers equal the tables' is checked by tests/test_evaluate.py
(`test_one_hand_at_a_time_equals_the_batch`, every five-card hand against the reference)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from handlog.cards import DECK, Card, cards
from handlog.rules.evaluate import (
    HIGH_CATEGORIES,
    HIGH_RANK_COUNT,
    LOW_RANK_COUNT,
    high_class,
    high_rank,
    low_class,
    low_rank,
)
from handlog.rules.variants import Lowball

_BY_RANK_AND_SUIT = {(item.rank, item.suit): item for item in DECK}


def _hand(ranks: tuple[int, ...], suited: bool) -> list[Card]:
    """Five cards of these ranks (the ace as 1 or 14), of one suit or, when not `suited`, the
    n-th card of a rank in suit n and the first card in another suit than the last."""
    seen: dict[int, int] = {}
    hand = []
    for position, rank in enumerate(14 if rank == 1 else rank for rank in ranks):
        copy = seen.get(rank, 0)
        seen[rank] = copy + 1
        suit = 0 if suited else (copy + (position == 4)) % 4
        hand.append(_BY_RANK_AND_SUIT[(rank, suit)])
    return hand


def test_every_high_class_numbers_back_to_itself_in_the_classes_order():
    classes = [high_class(value) for value in range(HIGH_RANK_COUNT)]
    keys = [(item.category, item.ranks) for item in classes]
    assert keys == sorted(keys) and len(set(keys)) == HIGH_RANK_COUNT
    for value, item in enumerate(classes):
        assert high_rank(_hand(item.ranks, suited=item.category in (5, 8))) == value, item


def test_every_ace_to_five_low_numbers_back_to_itself_in_the_lows_order():
    lows = [low_class(value) for value in range(LOW_RANK_COUNT)]
    keys = [(item.category, item.ranks) for item in lows]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == LOW_RANK_COUNT
    for value, item in enumerate(lows):
        assert low_rank(_hand(item.ranks, suited=False), None) == value, item


@pytest.mark.parametrize("lowball", [Lowball.DEUCE_TO_SEVEN, Lowball.ACE_TO_SIX], ids=str)
def test_every_deuce_to_seven_and_ace_to_six_low_numbers_back_to_itself(lowball):
    # Ordered as high hands, the worst high hand the best low; a straight or a flush (five of
    # one suit) is the hand the numbering says, any other five of one suit none.
    lows = [low_class(value, lowball) for value in range(HIGH_RANK_COUNT)]
    keys = [(item.category, item.ranks) for item in lows]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == HIGH_RANK_COUNT
    for value, item in enumerate(lows):
        assert item.lowball is lowball
        assert low_rank(_hand(item.ranks, suited=item.category in (5, 8)), None, lowball) == value


@pytest.mark.parametrize(
    ("text", "qualifier", "high", "low"),
    [
        ("Ah Kh Qh Jh Th 2c 2d", 8, "straight flush", None),
        ("5h 4d 3c 2s Ah Ad Ac", 8, "straight", (5, 4, 3, 2, 1)),
        ("9c 9d 9h 9s 4c 4d 2h", None, "four of a kind", (9, 9, 4, 4, 2)),
        ("Kc Kd Qh Qs Jc Jd 2h", None, "two pair", (11, 11, 13, 12, 2)),
        ("8c 7d 6h 5s 3c Kd Qh", 8, "high card", (8, 7, 6, 5, 3)),
    ],
)
def test_seven_card_examples(text, qualifier, high, low):
    hand = cards(text)
    assert HIGH_CATEGORIES[high_class(high_rank(hand)).category] == high
    value = low_rank(hand, qualifier)
    assert (None if value is None else low_class(value).ranks) == low


def test_five_cards_of_a_rank_are_refused_as_the_tables_refused_them():
    with pytest.raises(ValueError, match="the same card twice"):
        high_rank([_BY_RANK_AND_SUIT[(14, suit % 4)] for suit in range(5)])
    with pytest.raises(ValueError, match="the same card twice"):
        low_rank([_BY_RANK_AND_SUIT[(14, suit % 4)] for suit in range(5)], None)


# Ranks and describes hands one at a time, as a replay does at a showdown, then says how many of
# the batches' tables the process built.
_PROBE = """
from handlog.cards import cards
from handlog.rules import evaluate
for text in ("Ah Kh Qh Jh Th 2c 2d", "5h 4d 3c 2s Ah Ad Kc", "Kc Kd Qh Qs Jc Jd 2h"):
    hand = cards(text)
    evaluate.describe_high(hand)
    evaluate.describe_low(hand, 8)
    evaluate.describe_low(hand, None)
print(evaluate._base_tables.cache_info().currsize, evaluate._size_tables.cache_info().currsize)
"""


def test_ranking_hands_one_at_a_time_builds_no_table():
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["0", "0"]
