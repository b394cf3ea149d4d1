"""The hand evaluator against slow reference evaluators written here: every five-card hand, random
seven- and six-card hands, and real PokerStars descriptions, showing hands and bring-ins."""

from __future__ import annotations

import hashlib
import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlog.cards import DECK, Card, cards
from handlog.model import Game
from handlog.rules import evaluate
from handlog.rules.evaluate import (
    HIGH_CATEGORIES,
    LOW_RANK_COUNT,
    NO_LOW,
    bring_in_key,
    bring_in_player,
    describe_high,
    describe_low,
    first_to_act,
    high_category,
    high_category_batch,
    high_rank,
    high_rank_batch,
    low_cards,
    low_rank,
    low_rank_batch,
    showing_rank,
)
from handlog.rules.evaluate_bench import random_hands

# SHA-256 of the 7,462 five-card classes from worst to best, one line each: the ranks high to
# low and "s" for suited or "o" for not ("75432o" ... "AKQJTs"), ordered by `reference_high`.
# A change here means the reference itself changed: that needs a reason, not a new hash.
HIGH_ORDER_SHA256 = "a9a80afc3268e4b8a2e6d831a2c711034a36bd57cf0a1dcb86e1673326b54fb2"

FIVE_CARD_HANDS_BY_CATEGORY = {
    "high card": 1_302_540,
    "pair": 1_098_240,
    "two pair": 123_552,
    "three of a kind": 54_912,
    "straight": 10_200,
    "flush": 5_108,
    "full house": 3_744,
    "four of a kind": 624,
    "straight flush": 40,
}


# ---------------------------------------------------------------------------------------------
# Slow, obviously correct references: five cards in, a comparable tuple out.


def reference_high(hand: tuple[Card, ...]) -> tuple[int, ...]:
    """Textbook high-hand order: category first, then the ranks that decide within it."""
    ranks = sorted((item.rank for item in hand), reverse=True)
    counted = sorted(((ranks.count(rank), rank) for rank in set(ranks)), reverse=True)
    shape = [count for count, _ in counted]
    by_group = [rank for _, rank in counted]
    flush = len({item.suit for item in hand}) == 1
    straight_top = None
    if shape == [1, 1, 1, 1, 1]:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        return (8, straight_top)
    if shape == [4, 1]:
        return (7, *by_group)
    if shape == [3, 2]:
        return (6, *by_group)
    if flush:
        return (5, *ranks)
    if straight_top:
        return (4, straight_top)
    if shape == [3, 1, 1]:
        return (3, *by_group)
    if shape == [2, 2, 1]:
        return (2, *by_group)
    if shape == [2, 1, 1, 1]:
        return (1, *by_group)
    return (0, *ranks)


LOW_SHAPES_BEST_FIRST = ([1, 1, 1, 1, 1], [2, 1, 1, 1], [2, 2, 1], [3, 1, 1], [3, 2], [4, 1])


def reference_low(hand: tuple[Card, ...]) -> tuple[int, ...]:
    """Ace-to-five: the ace is 1, straights and flushes are ignored, fewer pairs are better, then
    the lower ranks (compared group by group from the top) are better. Bigger tuple = better."""
    ranks = [1 if item.rank == 14 else item.rank for item in hand]
    counted = sorted(((ranks.count(rank), rank) for rank in set(ranks)), reverse=True)
    shape = [count for count, _ in counted]
    by_group = [rank for count, rank in counted for _ in range(count)]
    return (-LOW_SHAPES_BEST_FIRST.index(shape), *(-rank for rank in by_group))


def reference_qualifies(hand: tuple[Card, ...], qualifier: int) -> bool:
    ranks = {1 if item.rank == 14 else item.rank for item in hand}
    return len(ranks) == 5 and max(ranks) <= qualifier


def all_hands(size: int) -> np.ndarray:
    """Every `size`-card hand from the deck, as rows of increasing Card.index values."""
    hands = np.arange(52, dtype=np.int64)[:, np.newaxis]
    for _ in range(size - 1):
        room = 51 - hands[:, -1]  # cards above the last one
        previous = np.repeat(hands, room, axis=0)
        first_new = np.repeat(hands[:, -1] + 1, room)
        offsets = np.arange(room.sum()) - np.repeat(np.cumsum(room) - room, room)
        hands = np.column_stack([previous, first_new + offsets])
    return hands


def as_cards(row: np.ndarray) -> tuple[Card, ...]:
    return tuple(DECK[index] for index in row.tolist())


@cache
def five_card_results() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    hands = all_hands(5)
    return hands, high_rank_batch(hands), low_rank_batch(hands, None), low_rank_batch(hands, 8)


@cache
def high_value_by_reference() -> dict[tuple[int, ...], int]:
    """Reference tuple -> high_rank, from one hand of each of the 7,462 values."""
    hands, values, _, _ = five_card_results()
    distinct, first = np.unique(values, return_index=True)
    return {
        reference_high(as_cards(hands[row])): int(value)
        for value, row in zip(distinct, first, strict=True)
    }


@cache
def low_value_by_reference() -> dict[tuple[int, ...], int]:
    hands, _, values, _ = five_card_results()
    distinct, first = np.unique(values, return_index=True)
    return {
        reference_low(as_cards(hands[row])): int(value)
        for value, row in zip(distinct, first, strict=True)
    }


# ---------------------------------------------------------------------------------------------
# Every five-card hand.


def test_all_five_card_hands_make_7462_high_values_in_the_known_category_counts():
    hands, values, _, _ = five_card_results()
    assert len(hands) == 2_598_960
    assert len(np.unique(values)) == 7462
    assert values.min() == 0 and values.max() == 7461
    counts = np.bincount(high_category_batch(values), minlength=len(HIGH_CATEGORIES))
    assert dict(zip(HIGH_CATEGORIES, counts.tolist(), strict=True)) == FIVE_CARD_HANDS_BY_CATEGORY
    assert int((values == 7461).sum()) == 4  # the royal flushes
    assert [high_category(value) for value in (0, 1276, 1277, 7451, 7452, 7461)] == [
        "high card",
        "high card",
        "pair",
        "four of a kind",
        "straight flush",
        "straight flush",
    ]


def test_high_values_order_the_classes_like_the_reference_and_match_the_stored_hash():
    by_reference = high_value_by_reference()
    assert len(by_reference) == 7462  # no two values share a reference class
    assert [by_reference[key] for key in sorted(by_reference)] == list(range(7462))

    # The hash comes from the reference order alone, so it also pins the reference.
    hands, values, _, _ = five_card_results()
    _, first = np.unique(values, return_index=True)
    classes = []
    for row in first.tolist():
        hand = as_cards(hands[row])
        ranks = "".join(item.rank_char for item in sorted(hand, key=lambda c: -c.rank))
        classes.append(
            (reference_high(hand), ranks + ("s" if len({item.suit for item in hand}) == 1 else "o"))
        )
    lines = [line for _, line in sorted(classes)]
    assert lines[0] == "75432o" and lines[1] == "76432o" and lines[-1] == "AKQJTs"
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == HIGH_ORDER_SHA256


def test_each_five_card_hand_gets_the_value_of_its_reference_class():
    hands, values, _, _ = five_card_results()
    by_reference = high_value_by_reference()
    sample = np.random.default_rng(5).choice(len(hands), 40_000, replace=False)
    for row in sample.tolist():
        assert values[row] == by_reference[reference_high(as_cards(hands[row]))]


def test_all_five_card_hands_make_56_eight_or_better_lows_and_6175_razz_lows():
    hands, _, razz, eight = five_card_results()
    qualifying = eight[eight != NO_LOW]
    assert len(np.unique(qualifying)) == 56  # C(8, 5) sets of ranks ace to eight
    assert len(qualifying) == 56 * 4**5
    assert len(np.unique(razz)) == LOW_RANK_COUNT == 6175
    # A qualifying low keeps its razz value: one scale for both games.
    assert np.array_equal(eight[eight != NO_LOW], razz[eight != NO_LOW])


def test_razz_values_order_the_lows_like_the_reference():
    by_reference = low_value_by_reference()
    assert len(by_reference) == 6175
    assert [by_reference[key] for key in sorted(by_reference)] == list(range(6175))

    hands, _, razz, eight = five_card_results()
    sample = np.random.default_rng(6).choice(len(hands), 20_000, replace=False)
    for row in sample.tolist():
        hand = as_cards(hands[row])
        assert razz[row] == by_reference[reference_low(hand)]
        assert (eight[row] != NO_LOW) == reference_qualifies(hand, 8)


def test_razz_low_examples_best_first():
    def value(text: str) -> int | None:
        return low_rank(cards(text), None)

    assert value("5c 4d 3h 2s Ac") == 6174  # the wheel: straights do not count against a low
    assert value("6c 4d 3h 2s Ac") == 6173
    assert value("6c 5d 3h 2s Ac") == 6172
    assert value("6c 5d 4h 2s Ac") > value("6c 5d 4h 3s 2c")  # 6-5-4-2-A beats 6-5-4-3-2
    assert value("6c 5d 4h 3s 2c") > value("7c 4d 3h 2s Ac")  # the top card decides first
    assert value("5h 4h 3h 2h Ah") == 6174  # nor do flushes
    # The worst hand without a pair still beats the best pair: pairs are bad.
    assert value("Kc Qd Jh Ts 9c") == value("Ac Ad 2h 3s 4c") + 1
    assert value("Ac Ad 2h 3s 4c") > value("2c 2d Ah 3s 4c")  # pair of aces below deuces
    assert value("Ac Ad 2h 3s Kc") > value("Ac Ad 2h 2s 3c")  # a pair beats two pair
    assert value("Ac Ad 2h 2s 3c") > value("Ac Ad As 2s 3c")  # two pair beat trips
    assert value("Kc Kd Kh Ks Qc") == 0


def test_eight_or_better_qualifier():
    assert low_rank(cards("8c 7d 6h 5s 4c"), 8) is not None
    assert low_rank(cards("9c 4d 3h 2s Ac"), 8) is None
    assert low_rank(cards("Ac Ad 2h 3s 4c"), 8) is None  # four ranks only
    assert low_cards(cards("Ac Ad 2h 3s 4c 5d Kc"), 8) == (5, 4, 3, 2, 1)
    assert low_cards(cards("9c 9d 8h 7s 6c 4d Ks"), 8) is None
    assert low_rank(cards("Ac Ad 2h 3s 4c"), None) is not None
    with pytest.raises(ValueError):
        low_rank(cards("Ac Ad 2h 3s 4c"), 4)


def test_razz_with_fewer_than_five_ranks_plays_the_smallest_pairs():
    # Ranks ace, deuce and three only: two pair (aces and deuces, three kicker) beat any trips.
    assert low_cards(cards("Ac Ad As 2c 2d 2h 3c"), None) == (2, 2, 1, 1, 3)
    assert describe_low(cards("Ac Ad As 2c 2d 2h 3c"), None) == "2,2,A,A,3"
    assert low_cards(cards("3d 3s 5h 4h Kc Kd Ks"), None) == (3, 3, 13, 5, 4)
    # One pair beats two: the threes with K-5-4 rather than two pair with a five.
    assert describe_low(cards("3d 3s 5h 4h 4c Kd Ks"), None) == "3,3,K,5,4"
    # Three ranks: two pair, the higher pair as low as it can be (fours, not kings).
    assert describe_low(cards("3d 3s 4h 4c Kd Ks Kh"), None) == "4,4,3,3,K"


# ---------------------------------------------------------------------------------------------
# Seven and six cards: the best five of them.


def best_of_subsets(hands: np.ndarray, evaluate) -> np.ndarray:
    subsets = list(itertools.combinations(range(hands.shape[1]), 5))
    fives = hands[:, subsets].reshape(-1, 5)
    return evaluate(fives).reshape(len(hands), len(subsets)).max(axis=1)


@pytest.mark.parametrize("size", [6, 7])
def test_batch_of_many_cards_is_the_best_of_its_five_card_subsets(size):
    hands = random_hands(150_000, size, seed=size)
    assert np.array_equal(high_rank_batch(hands), best_of_subsets(hands, high_rank_batch))
    for qualifier in (None, 8):
        assert np.array_equal(
            low_rank_batch(hands, qualifier),
            best_of_subsets(hands, lambda h, q=qualifier: low_rank_batch(h, q)),
        )


@pytest.mark.parametrize("size", [5, 6, 7])
def test_one_hand_at_a_time_equals_the_batch(size):
    hands = random_hands(20_000, size, seed=10 + size)
    highs = high_rank_batch(hands).tolist()
    razz = low_rank_batch(hands, None).tolist()
    eight = low_rank_batch(hands, 8).tolist()
    for row, high, low, low8 in zip(hands, highs, razz, eight, strict=True):
        hand = as_cards(row)
        assert high_rank(hand) == high
        assert low_rank(hand, None) == low
        assert low_rank(hand, 8) == (None if low8 == NO_LOW else low8)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True))
def test_seven_cards_against_the_reference_over_21_subsets(hand):
    subsets = list(itertools.combinations(hand, 5))
    assert high_rank(hand) == high_value_by_reference()[max(map(reference_high, subsets))]
    assert low_rank(hand, None) == low_value_by_reference()[max(map(reference_low, subsets))]
    qualifying = [reference_low(five) for five in subsets if reference_qualifies(five, 8)]
    expected = low_value_by_reference()[max(qualifying)] if qualifying else None
    assert low_rank(hand, 8) == expected


def test_batch_input_is_checked():
    with pytest.raises(ValueError):
        high_rank_batch(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(ValueError):
        high_rank_batch(np.full((1, 7), 52))
    with pytest.raises(ValueError):
        high_rank(cards("Ac Kd"))
    assert high_rank_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


# ---------------------------------------------------------------------------------------------
# Real PokerStars descriptions.


@pytest.mark.parametrize(
    ("shown", "description"),
    [
        ("Ac 4d 7d Td 3d Tc 2h", "a pair of Tens"),
        ("7s Qs 6c 7h 3s Qh", "two pair, Queens and Sevens"),
        ("5h 5c 2s As 5d Ah 4d", "a full house, Fives full of Aces"),
        ("6s 7d 9h 8c 5s 5h 9d", "a straight, Five to Nine"),
        ("Jc 2h Qd Ad 5h Td Ks", "a straight, Ten to Ace"),
        ("Qs 3s Js 6s Ad 4s 2s", "a flush, Queen high"),
        ("As 8s 6h 3s Jh Tc Qs", "high card Ace"),
        ("6h Ah 5d 4d 3h 5s 5c", "three of a kind, Fives"),
        ("7c 3s 5h Qc Kc 6d 4d", "a straight, Three to Seven"),
        ("Ac 2d 3h 4s 5c Kd Kh", "a straight, Ace to Five"),
        ("Kc Kd Kh Ks 2c 3d 9h", "four of a kind, Kings"),
        ("5d 6d 7d 8d 9d Td 2c", "a straight flush, Six to Ten"),
        ("5d 6d 7d 8d 9d Kd 2c", "a straight flush, Five to Nine"),
        ("Ah 2h 3h 4h 5h", "a straight flush, Ace to Five"),
        ("Ts Js Qs Ks As 9s 8s", "a Royal Flush"),
        ("Ts Js Qs Ks 9s 2c", "a straight flush, Nine to King"),
        ("6c 6d 2h 2s 9c 9d Kh", "two pair, Nines and Sixes"),
    ],
)
def test_high_descriptions(shown, description):
    assert describe_high(cards(shown)) == description


@pytest.mark.parametrize(
    ("shown", "qualifier", "description"),
    [
        ("7c 3s 5h Qc Kc 6d 4d", 8, "7,6,5,4,3"),
        ("3s Jc Ah 6h Ks 7h 5c", 8, "7,6,5,3,A"),
        ("Ac Qd 6s 7h 2h 3h 4c", None, "6,4,3,2,A"),
        ("6h 8h 3d Ad Ac Kh 8c", None, "K,8,6,3,A"),
        ("2d 4s 9d 7c Ts 5s Tc", None, "9,7,5,4,2"),
        ("2h 8d Kh 6h 3d 6d 4h", None, "8,6,4,3,2"),
        ("3d 2s As 6s 5c 5d 2d", None, "6,5,3,2,A"),
        ("As 7c Kc Js 4s 7d Tc", None, "J,T,7,4,A"),
        ("6h 8h 3d Ad Ac Kh 8c", 8, None),
    ],
)
def test_low_descriptions(shown, qualifier, description):
    assert describe_low(cards(shown), qualifier) == description


# ---------------------------------------------------------------------------------------------
# Showing hands (first to act on 4th street and later) and the bring-in.


def up(text: str) -> tuple[Card, ...]:
    return cards(text)


def test_showing_high_hands_count_groups_not_straights_or_flushes():
    # The seed's example: 3-3-3 beats 7-7-8, which beats A-K-Q.
    assert first_to_act({"trips": up("3c 3d 3h"), "pair": up("7c 7d 8h")}, "stud") == "trips"
    assert first_to_act({"pair": up("7c 7d 8h"), "ace": up("As Ks Qs")}, "stud") == "pair"
    assert first_to_act({"threes": up("3c 3d"), "ace king": up("As Ks")}, "stud8") == "threes"
    assert (
        first_to_act({"two pair": up("2c 2d 3c 3d"), "trips": up("4c 4d 4h 2h")}, "stud") == "trips"
    )
    assert (
        first_to_act({"two pair": up("2c 2d 3h 3s"), "aces": up("Ac As Kh Qs")}, "stud5")
        == "two pair"
    )
    # Four to a straight flush showing is still only nine high.
    assert first_to_act({"draw": up("6h 7h 8h 9h"), "ten": up("Tc 4d 3s 2c")}, "stud") == "ten"
    assert (
        first_to_act({"kings": up("Kc Kd 7h"), "kings better kicker": up("Kh Ks 8c")}, "stud")
        == "kings better kicker"
    )


def test_showing_high_ties_go_to_the_highest_suit_of_the_highest_card():
    assert first_to_act({"a": up("Kc 7s"), "b": up("Ks 7c")}, "stud") == "b"
    assert first_to_act({"a": up("Ah"), "b": up("Ad"), "c": up("Qs")}, "stud") == "a"
    assert first_to_act({"a": up("9c 9s 4d"), "b": up("9d 9h 4s")}, Game.STUD) == "a"


def test_showing_razz_hands_lowest_first():
    # Compared from the highest card down: 7-5 is lower than 8-2, so 7-5 acts first.
    assert (
        first_to_act({"eight deuce": up("8c 2d"), "seven five": up("7h 5s")}, "razz")
        == "seven five"
    )
    assert (
        first_to_act({"ace deuce": up("Ac 2d"), "deuce trey": up("2h 3s")}, "razz") == "ace deuce"
    )  # the ace is low
    assert (
        first_to_act({"pair": up("2c 2d"), "king queen": up("Kh Qs")}, "razz") == "king queen"
    )  # any pair is worse than no pair
    assert (
        first_to_act({"two pair": up("2c 2d 3c 3d"), "pair": up("Kc Kd Qh Js")}, "razz") == "pair"
    )
    # The seed's tie: 6d-2c and 6c-2s; the six of clubs is lower, so the second acts first.
    assert first_to_act({"first": up("6d 2c"), "second": up("6c 2s")}, Game.RAZZ) == "second"


def test_showing_rank_keys_compare_within_a_game():
    assert showing_rank(up("3c 3d"), "stud") > showing_rank(up("As Ks"), "stud")
    assert showing_rank(up("7h 5s"), "razz") > showing_rank(up("8c 2d"), "razz")
    with pytest.raises(ValueError):
        showing_rank(up("3c 3d"), "holdem")
    with pytest.raises(ValueError):
        showing_rank((), "stud")


def test_bring_in_lowest_door_card_in_stud_clubs_first():
    assert (
        bring_in_player({"a": cards("2d")[0], "b": cards("2c")[0], "c": cards("5s")[0]}, "stud")
        == "b"
    )
    assert bring_in_player({"ace": cards("Ac")[0], "king": cards("Kd")[0]}, "stud8") == "king"
    assert bring_in_player({"a": cards("3s")[0], "b": cards("3h")[0]}, Game.STUD5) == "b"
    assert bring_in_key(cards("2c")[0], "stud") > bring_in_key(cards("2d")[0], "stud")


def test_bring_in_highest_door_card_in_razz_ace_lowest():
    assert bring_in_player({"a": cards("Kc")[0], "b": cards("Ks")[0]}, "razz") == "b"
    assert bring_in_player({"a": cards("Qs")[0], "b": cards("Kc")[0]}, "razz") == "b"
    # The ace is the lowest card in razz: it never brings in while any other card shows.
    for other in DECK:
        if other.rank != 14:
            assert bring_in_player({"ace": cards("As")[0], "other": other}, "razz") == "other"
    assert bring_in_player({"a": cards("Ac")[0], "b": cards("As")[0]}, "razz") == "b"


@pytest.mark.parametrize("size", [5, 6, 7])
def test_the_rank_sum_tables_give_each_multiset_its_strength_in_one_look_up(size):
    """`_by_rank_sum` (the samples' one look-up: `high_rank_keyed`, `low_rank_keyed`) holds,
    at the rank sum of every multiset of `size` ranks, the strength the two look-ups of
    `_SizeTables` give it, high and low."""
    multisets = evaluate._rank_multisets(size)
    sums = np.array(evaluate.RANK_SUM_KEYS, dtype=np.int64)[multisets].sum(axis=1)
    tables = evaluate._size_tables(size)
    rows = tables.multiset_by_rank_sum[sums]
    assert np.array_equal(rows, np.arange(len(multisets)))
    for kind, by_multiset in (("high", tables.high_by_multiset), ("low", tables.low_by_multiset)):
        direct = evaluate._by_rank_sum(size, kind)
        assert direct.dtype == np.int16
        assert np.array_equal(direct[sums], by_multiset[rows])
