"""Deuce-to-seven (2-7 razz) and ace-to-six (London lowball) lows against a slow reference written
here and against the high-hand evaluator turned round: every five-card hand, random six- and
seven-card hands (flush-heavy ones too), single calls against batches, the words, and the bring-in
and first actor of the new games."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlog.cards import DECK, Card, cards
from handlog.model import Game
from handlog.rules.evaluate import (
    HIGH_CATEGORIES,
    LOW_CATEGORIES_BY_LOWBALL,
    LOW_RANK_COUNTS,
    bring_in_key,
    bring_in_player,
    describe_low,
    describe_low_rank,
    first_to_act,
    high_rank_batch,
    low_cards,
    low_class,
    low_floor,
    low_rank,
    low_rank_batch,
    showing_rank,
)
from handlog.rules.evaluate_bench import random_hands
from handlog.rules.variants import Lowball
from tests.test_evaluate import all_hands, as_cards, best_of_subsets

D27 = Lowball.DEUCE_TO_SEVEN
A6 = Lowball.ACE_TO_SIX
NEW_LOWBALLS = (D27, A6)

# Five-card hands by high-style category, the same for both lowballs: deuce-to-seven moves the
# 1,020 unsuited A-5-4-3-2 from the straights to the no-pair hands (and the four suited ones from
# the straight flushes to the flushes); ace-to-six does the same to A-K-Q-J-10.
FIVE_CARD_HANDS_BY_CATEGORY = {
    "high card": 1_302_540 + 1_020,
    "pair": 1_098_240,
    "two pair": 123_552,
    "three of a kind": 54_912,
    "straight": 10_200 - 1_020,
    "flush": 5_108 + 4,
    "full house": 3_744,
    "four of a kind": 624,
    "straight flush": 40 - 4,
}


# ---------------------------------------------------------------------------------------------
# The slow reference: five cards in, a comparable tuple out, bigger the better low.


def reference_lowball(hand: tuple[Card, ...], lowball: Lowball) -> tuple[int, ...]:
    """The high hand the cards make, the ace counting 1 in ace-to-six and 14 in deuce-to-seven,
    five ranks in a row being a straight (nothing wraps round), turned round: a low is the
    better the worse that high hand is."""
    ace = 1 if lowball is A6 else 14
    ranks = sorted((ace if item.rank == 14 else item.rank for item in hand), reverse=True)
    counted = sorted(((ranks.count(rank), rank) for rank in set(ranks)), reverse=True)
    shape = [count for count, _ in counted]
    by_group = [rank for count, rank in counted for _ in range(count)]
    flush = len({item.suit for item in hand}) == 1
    straight = shape == [1] * 5 and ranks[0] - ranks[4] == 4
    if straight and flush:
        high = (8, ranks[0])
    elif shape == [4, 1]:
        high = (7, *by_group)
    elif shape == [3, 2]:
        high = (6, *by_group)
    elif flush:
        high = (5, *ranks)
    elif straight:
        high = (4, ranks[0])
    elif shape == [3, 1, 1]:
        high = (3, *by_group)
    elif shape == [2, 2, 1]:
        high = (2, *by_group)
    elif shape == [2, 1, 1, 1]:
        high = (1, *by_group)
    else:
        high = (0, *ranks)
    return tuple(-part for part in high)


@cache
def five_card_lows() -> tuple[np.ndarray, dict[Lowball, np.ndarray]]:
    hands = all_hands(5)
    return hands, {lowball: low_rank_batch(hands, None, lowball) for lowball in NEW_LOWBALLS}


@cache
def value_by_reference(lowball: Lowball) -> dict[tuple[int, ...], int]:
    """Reference tuple -> low_rank, from one hand of each value."""
    hands, lows = five_card_lows()
    distinct, first = np.unique(lows[lowball], return_index=True)
    return {
        reference_lowball(as_cards(hands[row]), lowball): int(value)
        for value, row in zip(distinct, first, strict=True)
    }


def value(text: str, lowball: Lowball) -> int:
    found = low_rank(cards(text), None, lowball)
    assert found is not None
    return found


# ---------------------------------------------------------------------------------------------
# Every five-card hand.


@pytest.mark.parametrize("lowball", NEW_LOWBALLS)
def test_all_five_card_hands_make_7462_lows_in_the_known_category_counts(lowball):
    hands, lows = five_card_lows()
    values = lows[lowball]
    assert len(hands) == 2_598_960
    assert len(np.unique(values)) == LOW_RANK_COUNTS[lowball] == 7462
    assert values.min() == 0 and values.max() == 7461
    categories = np.array([low_class(v, lowball).category for v in range(7462)])
    counts = np.bincount(categories[values], minlength=len(HIGH_CATEGORIES))
    assert dict(zip(HIGH_CATEGORIES, counts.tolist(), strict=True)) == FIVE_CARD_HANDS_BY_CATEGORY
    assert LOW_CATEGORIES_BY_LOWBALL[lowball] == HIGH_CATEGORIES


@pytest.mark.parametrize("lowball", NEW_LOWBALLS)
def test_low_values_order_the_classes_like_the_reference(lowball):
    by_reference = value_by_reference(lowball)
    assert len(by_reference) == 7462  # no two values share a reference class
    assert [by_reference[key] for key in sorted(by_reference)] == list(range(7462))
    hands, lows = five_card_lows()
    sample = np.random.default_rng(21).choice(len(hands), 30_000, replace=False)
    for row in sample.tolist():
        assert lows[lowball][row] == by_reference[reference_lowball(as_cards(hands[row]), lowball)]


def assert_reversed(high: np.ndarray, low: np.ndarray) -> None:
    """`low` is a strictly decreasing function of `high` over the hands given: equal highs, equal
    lows; a better high, a worse low."""
    pairs = np.unique(high.astype(np.int64) * 10_000 + low)  # sorted by high, then low
    assert len(np.unique(pairs // 10_000)) == len(pairs)
    assert np.all(np.diff(pairs % 10_000) < 0)


def test_deuce_to_seven_is_the_high_order_turned_round_except_the_wheel():
    # Every hand, 2.6 million, against the high evaluator, but for the 1,024 with the ranks of
    # the wheel, which deuce-to-seven takes for ace high, not a straight.
    hands, lows = five_card_lows()
    low = lows[D27]
    masks = (1 << (hands // 4)).sum(axis=1)  # rank bits; 2 is bit 0, the ace bit 12
    wheel = masks == 0b1_0000_0000_1111
    assert int(wheel.sum()) == 1024
    assert_reversed(high_rank_batch(hands[~wheel]), low[~wheel])
    suited = (hands % 4 == (hands[:, :1] % 4)).all(axis=1)
    assert set(low[wheel & ~suited].tolist()) == {value("Ac 5d 4h 3s 2c", D27)}
    assert set(low[wheel & suited].tolist()) == {value("Ac 5c 4c 3c 2c", D27)}
    # Between the other ace-high hands and the king-high ones, with or without a flush.
    assert value("Ac 5d 4h 3s 2c", D27) == value("Ac 6d 4h 3s 2c", D27) + 1
    assert value("Ac 5d 4h 3s 2c", D27) == value("Kc Qd Jh Ts 8c", D27) - 1
    assert value("Ac 5c 4c 3c 2c", D27) == value("Ac 6c 4c 3c 2c", D27) + 1
    assert value("Ac 5c 4c 3c 2c", D27) == value("Kc Qc Jc Tc 8c", D27) - 1


def test_ace_to_six_is_the_high_order_with_the_ace_below_the_deuce_turned_round():
    # Relabel the ranks one up (deuce as three ... king as ace) and the ace as the deuce: the
    # high evaluator then ranks an ace-to-six hand, but for K-4-3-2-A, which it takes for the
    # wheel; those 1,024 hands are checked apart.
    hands, lows = five_card_lows()
    low = lows[A6]
    rank_index, suit = hands // 4, hands % 4
    relabelled = np.where(rank_index == 12, 0, rank_index + 1) * 4 + suit
    masks = (1 << rank_index).sum(axis=1)
    false_wheel = masks == 0b1_1000_0000_0111
    assert int(false_wheel.sum()) == 1024
    assert_reversed(high_rank_batch(relabelled[~false_wheel]), low[~false_wheel])
    suited = (suit == suit[:, :1]).all(axis=1)
    assert set(low[false_wheel & ~suited].tolist()) == {value("Kc 4d 3h 2s Ac", A6)}
    assert set(low[false_wheel & suited].tolist()) == {value("Kc 4c 3c 2c Ac", A6)}
    assert value("Kc 4d 3h 2s Ac", A6) == value("Kc 5d 3h 2s Ac", A6) + 1
    assert value("Kc 4d 3h 2s Ac", A6) == value("Qc Jd Th 9s 7c", A6) - 1
    assert low_class(value("Kc 4d 3h 2s Ac", A6), A6).category == 0
    assert low_class(value("Kc 4c 3c 2c Ac", A6), A6).category == 5


# ---------------------------------------------------------------------------------------------
# Landmarks.


def test_deuce_to_seven_landmarks_best_first():
    assert value("7c 5d 4h 3s 2c", D27) == 7461  # the best: seven-five, not of one suit
    assert value("7c 6d 4h 3s 2c", D27) == 7460
    assert value("7c 6d 5h 3s 2c", D27) == 7459
    assert value("7c 6d 5h 4s 2c", D27) == 7458  # 7-6-5-4-3 is a straight
    assert value("8c 5d 4h 3s 2c", D27) == 7457
    assert value("As Ks Qs Js Ts", D27) == 0  # the worst: a royal flush
    assert low_class(0, D27) == low_class(value("Ah Kh Qh Jh Th", D27), D27)
    # Straights and flushes count against, the ace is high.
    assert low_class(value("6c 5d 4h 3s 2c", D27), D27).category == HIGH_CATEGORIES.index(
        "straight"
    )
    assert low_class(value("7c 5c 4c 3c 2c", D27), D27).category == HIGH_CATEGORIES.index("flush")
    assert value("Kc Qd Jh Ts 8c", D27) > value("Ac 5d 4h 3s 2c", D27)  # ace high is bad
    assert value("As Kd Qh Js 9c", D27) == value("2c 2d 5h 4s 3c", D27) + 1  # no pair > pair
    assert value("Ac Kd Qh Js Tc", D27) < value("Ac Ad Kh Qs Jc", D27)  # a straight
    assert value("2c 2d 3h 3s 4c", D27) > value("2c 2d 2h 3s 4c", D27)
    assert value("Tc Jd Qh Ks Ac", D27) == value("Tc Jd Qh Ks Ad", D27)  # suits do not matter


def test_ace_to_six_landmarks_best_first():
    assert value("6c 4d 3h 2s Ac", A6) == 7461  # the best: six-four, not of one suit
    assert value("6c 5d 3h 2s Ac", A6) == 7460
    wheel = low_class(value("5c 4d 3h 2s Ac", A6), A6)
    assert wheel.category == HIGH_CATEGORIES.index("straight")  # 5-4-3-2-A is a straight
    assert wheel.ranks == (5, 4, 3, 2, 1)
    assert value("5c 4d 3h 2s Ac", A6) < value("Kc Kd Kh Qs Jc", A6)
    assert value("Kc Qd Jh Tc 9s", A6) < value("Kc Qd Jh Ts Ac", A6)  # K-Q-J-10-A: king high
    assert low_class(value("Kc Qd Jh Ts Ac", A6), A6).category == 0
    assert value("Ks Qs Js Ts 9s", A6) == 0  # the worst: the king-high straight flush
    # The best pair is aces, just below the worst no-pair hand, K-Q-J-10-8.
    assert value("Ac Ad 2h 3s 4c", A6) == value("Kc Qd Jh Ts 8c", A6) - 1
    assert value("Ac Ad 2h 3s 4c", A6) > value("2c 2d Ah 3s 4c", A6)
    assert value("Ac Ad 2h 3s 4c", A6) > value("Ac Ad 2h 2s 3c", A6)


def test_the_three_lowballs_disagree():
    razz, deuce, six = Lowball.ACE_TO_FIVE, D27, A6
    wheel, seven_six = "5c 4d 3h 2s Ac", "7c 6d 4h 3s 2c"
    assert value(wheel, razz) > value(seven_six, razz)
    assert value(wheel, deuce) < value(seven_six, deuce)
    assert value(wheel, six) < value(seven_six, six)
    six_four = "6c 4d 3h 2s Ac"
    assert value(six_four, six) > value(seven_six, six)
    assert value(six_four, deuce) < value(seven_six, deuce)


# ---------------------------------------------------------------------------------------------
# Six and seven cards: the best five of them.


def flush_heavy_hands(count: int, size: int, seed: int) -> np.ndarray:
    """Random hands of `size` distinct cards from two suits only: most hold five of one suit."""
    generator = np.random.default_rng(seed)
    two_suits = np.array([index for index in range(52) if index % 4 in (1, 3)])
    return np.array([generator.choice(two_suits, size, replace=False) for _ in range(count)])


@pytest.mark.parametrize("lowball", NEW_LOWBALLS)
@pytest.mark.parametrize("size", [6, 7])
def test_batch_of_many_cards_is_the_best_of_its_five_card_subsets(lowball, size):
    for hands in (random_hands(150_000, size, seed=30 + size), flush_heavy_hands(10_000, size, 7)):
        assert np.array_equal(
            low_rank_batch(hands, None, lowball),
            best_of_subsets(hands, lambda h: low_rank_batch(h, None, lowball)),
        )


@pytest.mark.parametrize("lowball", NEW_LOWBALLS)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_one_hand_at_a_time_equals_the_batch(lowball, size):
    for hands in (random_hands(10_000, size, seed=40 + size), flush_heavy_hands(2_000, size, 8)):
        lows = low_rank_batch(hands, None, lowball).tolist()
        for row, low in zip(hands, lows, strict=True):
            assert low_rank(as_cards(row), None, lowball) == low


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
    st.sampled_from(NEW_LOWBALLS),
)
def test_seven_cards_against_the_reference_over_21_subsets(hand, lowball):
    best = max(reference_lowball(five, lowball) for five in itertools.combinations(hand, 5))
    assert low_rank(hand, None, lowball) == value_by_reference(lowball)[best]


def test_seven_cards_may_have_to_break_a_flush_or_a_straight():
    # Five clubs with 7-5-4-3-2: the best low keeps a club out for the queen.
    assert low_cards(cards("2c 3c 4c 5c 7c Kd Qh"), None, D27) == (12, 5, 4, 3, 2)
    # Seven clubs: every five is a flush; the lowest flush plays.
    assert (
        describe_low(cards("2c 3c 4c 5c 7c 9c Jc"), None, D27) == "a flush, Seven high (7,5,4,3,2)"
    )
    assert (
        describe_low(cards("2c 3c 4c 5c 6c 8c Jc"), None, A6) == "a flush, Eight high (8,5,4,3,2)"
    )
    # Five ranks in a row and pairs: any pair beats the straight.
    assert low_cards(cards("2c 3d 4h 5s 6c 6d 6h"), None, D27) == (6, 6, 4, 3, 2)
    assert low_cards(cards("2c 3d 4h 5s 6c 7d Kh"), None, D27) == (7, 5, 4, 3, 2)
    assert low_cards(cards("Ac 2d 3h 4s 5c Kd Kh"), None, A6) == (13, 4, 3, 2, 1)
    assert low_cards(cards("Ac 2d 3h 4s 5c Kd Kh"), None, D27) == (13, 5, 4, 3, 2)
    assert low_cards(cards("Ac 2d 3h 4s 5c 5d 4h"), None, D27) == (14, 5, 4, 3, 2)
    assert low_cards(cards("Ac 2d 3h 4s 5c 5d 4h"), None, A6) == (4, 4, 3, 2, 1)


# ---------------------------------------------------------------------------------------------
# Words, qualifiers, errors.


@pytest.mark.parametrize(
    ("shown", "lowball", "description"),
    [
        ("7c 5d 4h 3s 2c Kd Kh", D27, "7,5,4,3,2"),
        ("Ac 5d 4h 3s 2c", D27, "A,5,4,3,2"),
        ("6c 4d 3h 2s Ac", A6, "6,4,3,2,A"),
        ("4c 4d 8h 7s 2c", D27, "a pair of Fours (4,4,8,7,2)"),
        ("Ac Ad 8h 7s 2c", A6, "a pair of Aces (A,A,8,7,2)"),
        ("Ac Ad 8h 8s 2c", D27, "two pair, Aces and Eights (A,A,8,8,2)"),
        ("6c 5d 4h 3s 2c", D27, "a straight, Deuce to Six (6,5,4,3,2)"),
        ("5c 4d 3h 2s Ac", A6, "a straight, Ace to Five (5,4,3,2,A)"),
        ("7c 5c 4c 3c 2c", D27, "a flush, Seven high (7,5,4,3,2)"),
        ("Kc Qc Jc Tc Ac", A6, "a flush, King high (K,Q,J,T,A)"),
        ("As Ks Qs Js Ts", D27, "a Royal Flush (A,K,Q,J,T)"),
        ("Ks Qs Js Ts 9s", A6, "a straight flush, Nine to King (K,Q,J,T,9)"),
        ("3c 3d 3h 2s 2c", A6, "a full house, Threes full of Deuces (3,3,3,2,2)"),
    ],
)
def test_low_descriptions(shown, lowball, description):
    assert describe_low(cards(shown), None, lowball) == description
    rank = low_rank(cards(shown), None, lowball)
    assert rank is not None and describe_low_rank(rank, lowball) == description


def test_ace_to_five_words_are_unchanged():
    assert describe_low(cards("3d 3s 5h 4h 4c Kd Ks"), None) == "3,3,K,5,4"
    assert describe_low(cards("5c 4d 3h 2s Ac"), None, Lowball.ACE_TO_FIVE) == "5,4,3,2,A"


@pytest.mark.parametrize("lowball", NEW_LOWBALLS)
def test_no_qualifier_for_the_new_lowballs(lowball):
    hand = cards("7c 5d 4h 3s 2c")
    with pytest.raises(ValueError, match="no qualifier"):
        low_rank(hand, 8, lowball)
    with pytest.raises(ValueError, match="no qualifier"):
        low_rank_batch(np.array([[card.index for card in hand]]), 8, lowball)
    with pytest.raises(ValueError):
        low_class(7462, lowball)
    with pytest.raises(ValueError):
        low_rank(cards("7c 5d 4h 3s"), None, lowball)
    with pytest.raises(ValueError):
        low_rank(cards("7c 5c 4c 3c 2c 7c"), None, lowball)  # a card twice, in a flush


# ---------------------------------------------------------------------------------------------
# Bring-in and first actor.


def up(text: str) -> tuple[Card, ...]:
    return cards(text)


def test_bring_in_in_deuce_to_seven_razz_highest_card_ace_high():
    assert bring_in_player({"ace": cards("Ac")[0], "king": cards("Ks")[0]}, Game.RAZZ27) == "ace"
    assert bring_in_player({"a": cards("Ac")[0], "b": cards("As")[0]}, "razz27") == "b"
    assert bring_in_player({"a": cards("Kd")[0], "b": cards("2s")[0]}, "razz27") == "a"
    for other in DECK:
        if other.rank != 14:
            assert bring_in_player({"ace": cards("Ac")[0], "other": other}, "razz27") == "ace"


def test_bring_in_in_ace_to_six_razz_highest_card_ace_low():
    assert bring_in_player({"ace": cards("As")[0], "king": cards("Kc")[0]}, Game.RAZZ_A6) == "king"
    assert bring_in_player({"a": cards("Kc")[0], "b": cards("Ks")[0]}, "razz_a6") == "b"
    assert bring_in_player({"a": cards("Ac")[0], "b": cards("2c")[0]}, "razz_a6") == "b"
    assert bring_in_key(cards("Ks")[0], "razz_a6") > bring_in_key(cards("Kc")[0], "razz_a6")


def test_bring_in_in_stud_hi_lo_any_low_lowest_card_ace_high():
    game = Game.STUD_HILO
    assert bring_in_player({"a": cards("2d")[0], "b": cards("2c")[0]}, game) == "b"
    assert bring_in_player({"ace": cards("Ac")[0], "king": cards("Kd")[0]}, game) == "king"
    for card in DECK:
        assert bring_in_key(card, game) == bring_in_key(card, Game.STUD8)


def test_showing_hands_in_deuce_to_seven_razz_lowest_first_ace_high():
    game = Game.RAZZ27
    assert first_to_act({"ace deuce": up("Ac 2d"), "deuce trey": up("2h 3s")}, game) == (
        "deuce trey"
    )
    assert first_to_act({"eight deuce": up("8c 2d"), "seven five": up("7h 5s")}, game) == (
        "seven five"
    )
    assert first_to_act({"pair": up("2c 2d"), "ace king": up("Ah Ks")}, game) == "ace king"
    # Four to a straight showing is not a straight: six-high acts before seven-high.
    assert first_to_act({"six": up("6c 5d 4h 3s"), "seven": up("7c 5h 4s 2d")}, game) == "six"
    # Equal ranks: the highest card with the lower suit acts first, as in razz.
    assert first_to_act({"first": up("6d 2c"), "second": up("6c 2s")}, game) == "second"
    assert showing_rank(up("7h 5s"), game) > showing_rank(up("Ah 2s"), game)


def test_showing_hands_in_ace_to_six_razz_lowest_first_ace_low():
    game = Game.RAZZ_A6
    assert first_to_act({"ace deuce": up("Ac 2d"), "deuce trey": up("2h 3s")}, game) == (
        "ace deuce"
    )
    assert first_to_act({"pair": up("Ac Ad"), "king queen": up("Kh Qs")}, game) == "king queen"
    for a, b in itertools.combinations(["Ac 2d", "7h 5s", "Kc Kd 4h", "8c 2d 3s"], 2):
        assert (showing_rank(up(a), game) > showing_rank(up(b), game)) == (
            showing_rank(up(a), Game.RAZZ) > showing_rank(up(b), Game.RAZZ)
        )


def test_showing_hands_in_stud_hi_lo_any_low_highest_first():
    game = Game.STUD_HILO
    assert first_to_act({"threes": up("3c 3d"), "ace king": up("As Ks")}, game) == "threes"
    assert first_to_act({"ace": up("Ah 2d"), "king": up("Kc Qd")}, game) == "ace"
    assert showing_rank(up("9c 9s 4d"), game) == showing_rank(up("9c 9s 4d"), Game.STUD8)


def test_the_new_tables_are_built_only_when_a_batch_of_a_new_lowball_is_ranked():
    import subprocess
    import sys

    # One hand at a time (a replay's showdown, its words) needs no table: a 2-7 razz import
    # whose replay met one showdown paid some 0.25 CPU s a worker for NumPy and these tables.
    script = (
        "from handlog.cards import cards\n"
        "from handlog.rules import evaluate, replay\n"
        "from handlog.rules.variants import Lowball\n"
        "evaluate.prepare_tables()\n"
        "evaluate.low_rank(cards('7c 5d 4h 3s 2c Kd Kh'), None)\n"
        "print(evaluate._lowball_size_tables.cache_info().currsize)\n"
        "for lowball in (Lowball.ACE_TO_SIX, Lowball.DEUCE_TO_SEVEN):\n"
        "    for text in ('7c 5d 4h 3s 2c Kd', '2c 3c 4c 5c 7c 9c', 'Ah Ad 2c 2d'):\n"
        "        evaluate.describe_low(cards(text + ' 9s'), None, lowball)\n"
        "print(evaluate._lowball_size_tables.cache_info().currsize)\n"
        "import numpy\n"
        "row = [[item.index for item in cards('7c 5d 4h 3s 2c')]]\n"
        "evaluate.low_rank_batch(numpy.array(row, dtype=numpy.uint8), None, Lowball.ACE_TO_SIX)\n"
        "print(evaluate._lowball_size_tables.cache_info().currsize)\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    assert output.split() == ["0", "0", "1"]


@pytest.mark.parametrize(
    ("lowball", "reference"),
    [(Lowball.DEUCE_TO_SEVEN, "StandardLowHand"), (Lowball.ACE_TO_FIVE, "RegularLowHand")],
    ids=str,
)
def test_seven_card_lows_order_as_pokerkit_orders_them(lowball, reference):
    """A differential check against pokerkit's own low evaluators: deuce-to-seven
    (`StandardLowHand`) and ace-to-five (`RegularLowHand`); pokerkit has no ace-to-six low.
    Random seven-card hands are compared in pairs: handlog's values order them as pokerkit's
    hands do (bigger is better in both), ties included."""
    pokerkit = pytest.importorskip("pokerkit")
    evaluator = getattr(pokerkit, reference)
    rng = np.random.default_rng(27)
    hands = [[DECK[i] for i in rng.choice(52, 7, replace=False)] for _ in range(600)]
    ours = [low_rank(hand, None, lowball) for hand in hands]
    theirs = [evaluator.from_game("".join(str(card) for card in hand), "") for hand in hands]
    for i in range(0, len(hands), 2):
        a, b = ours[i], ours[i + 1]
        x, y = theirs[i], theirs[i + 1]
        assert (a > b, a == b, a < b) == (x > y, x == y, x < y), (hands[i], hands[i + 1])


def _as_good_as(hand: tuple[Card, ...], top: int, lowball: Lowball) -> bool:
    """The rule stated plainly: some five of the cards make a low `top` high or better — five
    distinct ranks no higher than `top` (the ace low but in deuce-to-seven) that, where
    straights and flushes count (not ace-to-five), are neither."""
    ace = 14 if lowball is D27 else 1
    for five in itertools.combinations(hand, 5):
        ranks = sorted(ace if c.rank == 14 else c.rank for c in five)
        if len(set(ranks)) < 5 or ranks[-1] > top:
            continue
        if lowball is not Lowball.ACE_TO_FIVE and (
            ranks[-1] - ranks[0] == 4 or len({c.suit for c in five}) == 1
        ):
            continue
        return True
    return False


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(list(Lowball)),
    st.integers(6, 13),
    st.lists(st.sampled_from(DECK), min_size=5, max_size=7, unique=True),
)
def test_low_floor_is_the_worst_low_that_high(lowball: Lowball, top: int, hand: list[Card]):
    if lowball is D27 and top < 7:
        top = 14  # deuce-to-seven lows run from seven to ace high
    rank = low_rank(tuple(hand), None, lowball)
    assert rank is not None
    assert (rank >= low_floor(top, lowball)) == _as_good_as(tuple(hand), top, lowball)


def test_low_floor_examples_and_bounds():
    for lowball in Lowball:  # 8-7-6-5-4 is a straight where straights count
        worst = "8c 7d 6h 5s 4c" if lowball is Lowball.ACE_TO_FIVE else "8c 7d 6h 5s 3c"
        assert low_rank(cards(worst), None, lowball) == low_floor(8, lowball)
    for lowball, top in ((D27, 6), (A6, 5), (A6, 14), (Lowball.ACE_TO_FIVE, 4)):
        with pytest.raises(ValueError):
            low_floor(top, lowball)
