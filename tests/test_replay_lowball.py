"""The new games end to end: heads-up showdowns written as PokerStars razz and stud hi/lo hands,
replayed as 2-7 razz, London lowball (ace-to-six razz) and stud hi/lo with any low, where the
pot goes elsewhere than in the game the text names; the fast path and the full replay agree."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handlog.cards import DECK, cards
from handlog.model import Game, Hand
from handlog.parse import parse_text
from handlog.rules.fast import replay_clean
from handlog.rules.profiles import POKERSTARS, TieBreak
from handlog.rules.replay import _Replayer, replay
from handlog.rules.tables import award, award_reads_cards, describe, divide
from handlog.rules.variants import VARIANTS, Lowball


def heads_up(
    header: str,
    first: tuple[str, str, str],
    second: tuple[str, str, str],
    collects: dict[str, str],
    low_first: bool,
) -> str:
    """A PokerStars hand between the players of seat 1 and seat 2, each given as (name, seven
    cards, description): antes of $0.01, the seat-2 player brings in for $0.02 and the other
    calls, then each street checks round, seat 2 first (`low_first`: the lowest showing hand,
    in razz) or seat 1; both show down. `collects`: name -> amount collected ("0.06")."""
    (name1, cards1, words1), (name2, cards2, words2) = first, second
    up1, up2 = cards1.split()[2:6], cards2.split()[2:6]
    order = (name2, name1) if low_first else (name1, name2)
    lines = [
        f"PokerStars Game #900000001:  {header} ($0.04/$0.08 USD) - 2009/11/26 10:29:02 ET",
        "Table 'Lowball' 8-max",
        f"Seat 1: {name1} ($1 in chips) ",
        f"Seat 2: {name2} ($1 in chips) ",
        f"{name1}: posts the ante $0.01",
        f"{name2}: posts the ante $0.01",
        "*** 3rd STREET ***",
        f"Dealt to {name1} [{up1[0]}]",
        f"Dealt to {name2} [{up2[0]}]",
        f"{name2}: brings in for $0.02",
        f"{name1}: calls $0.02",
    ]
    for street, count in (("4th", 1), ("5th", 2), ("6th", 3)):
        lines += [
            f"*** {street} STREET ***",
            f"Dealt to {name1} [{' '.join(up1[:count])}] [{up1[count]}]",
            f"Dealt to {name2} [{' '.join(up2[:count])}] [{up2[count]}]",
            f"{order[0]}: checks ",
            f"{order[1]}: checks ",
        ]
    lines += [
        "*** RIVER ***",
        f"{order[0]}: checks ",
        f"{order[1]}: checks ",
        "*** SHOW DOWN ***",
        f"{name1}: shows [{cards1}] ({words1})",
        f"{name2}: shows [{cards2}] ({words2})",
    ]
    lines += [f"{name} collected ${amount} from pot" for name, amount in collects.items()]
    lines += ["*** SUMMARY ***", "Total pot $0.06 | Rake $0 "]
    for seat, (name, shown, words) in enumerate((first, second), 1):
        result = f"won (${collects[name]})" if name in collects else "lost"
        lines.append(f"Seat {seat}: {name} showed [{shown}] and {result} with {words}")
    return "\n".join(lines)


def as_game(text: str, game: Game) -> Hand:
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand)
    return replace(hand, game=game)


def codes(hand: Hand) -> set[str]:
    """The violation codes of the replay, which must be the full `_Replayer`'s too; the fast
    path takes these plain hands when they are clean, and must give exactly the same result."""
    result = replay(hand, POKERSTARS)
    assert result == _Replayer(hand, POKERSTARS).run()
    fast = replay_clean(hand, POKERSTARS)
    assert fast == result if fast is not None else result.violations  # plain clean hands: fast
    return {violation.code for violation in result.violations}


# 5-4-3-2-A (with kings) against 7-6-4-3-2: razz gives the wheel the pot, 2-7 razz the seven,
# whose ace plays high there (K-5-4-3-2 is the wheel's best deuce-to-seven low).
WHEEL = ("Wheel", "Ac 2d 3h 4s 5c Kd Kh")
SEVEN = ("Seven", "7c 6d 4h 2s 3c Qd Qh")


def test_deuce_to_seven_razz_pays_seven_six_over_the_wheel():
    text = heads_up(
        "Razz Limit",
        (*WHEEL, "Lo: K,5,4,3,2"),
        (*SEVEN, "Lo: 7,6,4,3,2"),
        {"Seven": "0.06"},
        low_first=True,
    )
    hand = as_game(text, Game.RAZZ27)
    result = replay(hand, POKERSTARS)
    assert codes(hand) == set()
    assert result.expected_collect == {"Seven": 6}
    assert result.won_high == frozenset({"Seven"}) and result.won_low == frozenset()
    # The same hand as razz: the wheel should have won, and the words are not razz's.
    assert codes(as_game(text, Game.RAZZ)) == {"WRONG_WINNER", "HAND_DESCRIPTION"}
    assert replay(as_game(text, Game.RAZZ), POKERSTARS).expected_collect == {"Wheel": 6}


def test_deuce_to_seven_razz_words_a_made_low():
    flush = ("Flush", "2c 3c 4c 5c 7c Kc Qc")  # seven clubs: the lowest flush plays
    text = heads_up(
        "Razz Limit",
        (*flush, "Lo: a flush, Seven high (7,5,4,3,2)"),
        ("Seven", "7d 6d 4h 2s 3h Qd Qh", "Lo: 7,6,4,3,2"),
        {"Seven": "0.06"},
        low_first=True,
    )
    assert codes(as_game(text, Game.RAZZ27)) == set()
    assert describe(cards(flush[1]), Game.RAZZ27) == "Lo: a flush, Seven high (7,5,4,3,2)"
    assert describe(cards(flush[1]), Game.RAZZ) == "Lo: 7,5,4,3,2"  # flushes do not count


# 5-4-3-2-A (with trip fives) against 6-4-3-2-A: in London lowball the five distinct ranks are
# a straight, so the wheel plays its pair of fives, and any no-pair hand beats it.
WHEEL_FIVES = ("Wheel", "Ac 2d 3h 4s 5c 5d 5h")
SIX_FOUR = ("SixFour", "6c Ad 4h 2c 3c Qd Qh")


def test_ace_to_six_razz_the_wheel_is_a_straight():
    text = heads_up(
        "Razz Limit",
        (*WHEEL_FIVES, "Lo: a pair of Fives (5,5,3,2,A)"),
        (*SIX_FOUR, "Lo: 6,4,3,2,A"),
        {"SixFour": "0.06"},
        low_first=True,
    )
    hand = as_game(text, Game.RAZZ_A6)
    assert codes(hand) == set()
    assert replay(hand, POKERSTARS).expected_collect == {"SixFour": 6}
    assert codes(as_game(text, Game.RAZZ)) == {"WRONG_WINNER", "HAND_DESCRIPTION"}


# Kings against jacks with 9-7-5-3-2: no 8-or-better low, but any low counts in stud hi/lo.
KINGS = ("Kings", "Kc Kd 8c Jh Td 4c 6h")
NINE = ("Nine", "2d 3d 5s 7d 9s Js Jd")


def test_stud_hi_lo_any_low_splits_where_stud8_scoops():
    text = heads_up(
        "7 Card Stud Hi/Lo Limit",
        (*KINGS, "HI: a pair of Kings; LO: J,T,8,6,4"),
        (*NINE, "HI: a pair of Jacks; LO: 9,7,5,3,2"),
        {"Kings": "0.03", "Nine": "0.03"},
        low_first=False,
    )
    hand = as_game(text, Game.STUD_HILO)
    result = replay(hand, POKERSTARS)
    assert codes(hand) == set()
    assert result.expected_collect == {"Kings": 3, "Nine": 3}
    assert result.won_high == frozenset({"Kings"}) and result.won_low == frozenset({"Nine"})
    stud8 = as_game(text, Game.STUD8)
    assert replay(stud8, POKERSTARS).expected_collect == {"Kings": 6}
    assert "LOW_NOT_QUALIFIED" in codes(stud8)


def test_the_odd_chip_of_a_deuce_to_seven_low_goes_to_the_lowest_card_ace_high():
    # Both make 7-5-4-3-2. Ace low, Ace's ace of clubs is the lowest card; ace high, the
    # deuces decide and the club is lower than the heart.
    hands = {
        "Ace": cards("7h 5d 4h 3s 2h Ac Kd"),
        "Deuce": cards("7d 5c 4s 3h 2c Kh Qd"),
    }
    profile = replace(POKERSTARS, odd_chip_tie=TieBreak.SUIT)
    winners = ["Ace", "Deuce"]
    assert divide(5, winners, hands, True, profile) == {"Ace": 3, "Deuce": 2}
    assert divide(5, winners, hands, True, profile, None, Lowball.ACE_TO_SIX) == {
        "Ace": 3,
        "Deuce": 2,
    }
    assert divide(5, winners, hands, True, profile, None, Lowball.DEUCE_TO_SEVEN) == {
        "Ace": 2,
        "Deuce": 3,
    }
    # A hi/lo pot halves (`award`, the winners given): the high half to Ace, and in stud
    # hi/lo (ace-to-five) the low half's odd chip goes to Ace's ace, the lowest card.
    assert award(11, ["Ace"], winners, hands, Game.STUD_HILO, profile) == (
        {"Ace": 6},
        {"Ace": 3, "Deuce": 2},
    )
    # In a low game the pot is all low; in a high game, or hi/lo with no low, all high.
    assert award(5, [], winners, hands, Game.RAZZ27, profile) == ({}, {"Ace": 2, "Deuce": 3})
    assert award(5, winners, [], hands, Game.STUD_HILO, profile) == ({"Ace": 3, "Deuce": 2}, {})


def test_the_fast_path_agrees_with_the_full_replay_in_the_new_games():
    """Random legal pokerkit razz and stud8 hands replayed as razz27, razz_a6 and stud_hilo
    (their descriptions taken out: they are the other game's words). Many stay clean (razz27's
    aces high change who brings in and acts first, so fewer of those), and on every hand the
    fast path takes, its result is exactly the full `_Replayer`'s."""
    pytest.importorskip("pokerkit")
    from .pokerkit_hands import generate

    for source, game, seed in (
        ("razz", Game.RAZZ27, 73),
        ("razz", Game.RAZZ_A6, 74),
        ("stud8", Game.STUD_HILO, 75),
    ):
        accepted = 0
        for text in generate(source, 60, seed).texts:
            text = re.sub(r" \((?:Lo|HI): [^)]*\)", "", text)
            for hand in (h for h in parse_text(text) if isinstance(h, Hand)):
                hand = replace(hand, game=game)
                full = _Replayer(hand, POKERSTARS).run()
                fast = replay_clean(hand, POKERSTARS)
                if fast is not None:
                    accepted += 1
                    assert fast == full, (game, hand.hand_id)
        assert accepted >= 20, (game, accepted)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 41),
    st.sampled_from(list(Game)),
    st.booleans(),
    st.sampled_from(list(TieBreak)),
    st.integers(1, 3),
    st.integers(0, 3),
    st.randoms(use_true_random=False),
)
def test_award_pays_the_whole_pot_and_reads_cards_only_when_it_says(
    amount, game, to_high, tie, highs, lows, rng
):
    """`tables.award`: every chip of the pot paid (to the high and low winners the game has);
    and where `award_reads_cards` says the division does not read the winners' cards,
    dealing them other cards changes nothing."""
    profile = replace(POKERSTARS, odd_chip_to_high=to_high, odd_chip_tie=tie)
    players = ["A", "B", "C", "D"]
    variant = VARIANTS[game]
    high = rng.sample(players, highs) if variant.high else []
    low = rng.sample(players, lows if variant.high else max(lows, 1)) if variant.low else []
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {p: tuple(deck[7 * i : 7 * i + 7]) for i, p in enumerate(players)}
    won_high, won_low = award(amount, high, low, hands, game, profile)
    assert sum(won_high.values()) + sum(won_low.values()) == amount
    assert set(won_high) == set(high) and set(won_low) == set(low)
    if not award_reads_cards(amount, len(high), len(low), game, profile):
        rng.shuffle(deck)
        others = {p: tuple(deck[7 * i : 7 * i + 7]) for i, p in enumerate(players)}
        assert award(amount, high, low, others, game, profile) == (won_high, won_low)
