"""The equity calculator against a brute-force enumerator written here (plain Python: every way
to deal the rest of a small deck, each hand ranked as the best of its fives by a textbook
evaluator, each pot split by the odd-chip rules as RULES.md states them), its samples against
its exact figures, and its sums.

Set HANDLOG_EQUITY_EXHAUSTIVE=1 for many more spots (a few minutes)."""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest

from handlog.cards import DECK, Card, card, cards
from handlog.equity import Holding, Method, Spot, SpotError, equities
from handlog.equity.calculate import EXACT_LIMIT as EXACT_DEFAULT
from handlog.model import Game
from handlog.rules import evaluate
from handlog.rules.evaluate_bench import random_hands
from handlog.rules.profiles import CASINO, POKERSTARS, RuleProfile, TieBreak
from handlog.rules.tables import Pot, hi_lo_halves
from handlog.rules.variants import VARIANTS, Lowball

EXHAUSTIVE = os.environ.get("HANDLOG_EQUITY_EXHAUSTIVE", "") not in ("", "0")
SPOTS_PER_GAME = 60 if EXHAUSTIVE else 5
DEALS_AT_MOST = 4_000 if EXHAUSTIVE else 400

# ---------------------------------------------------------------------------------------------
# A textbook evaluator: the best five of the cards, every five tried. Each function returns a
# key that is bigger for the better hand (None: no qualifying low).


def _five_high(five: Sequence[Card], ace: int, wheel: bool) -> tuple[int, ...]:
    """Category and deciding ranks of five cards as a high hand, the ace counted `ace` (14 or
    1); `wheel`: A-2-3-4-5 is a straight to the five."""
    ranks = sorted((ace if c.rank == 14 else c.rank for c in five), reverse=True)
    counts = Counter(ranks)
    ordered = [r for r, n in sorted(counts.items(), key=lambda rn: (rn[1], rn[0]), reverse=True)]
    ordered = [r for r in ordered for _ in range(counts[r])]
    shape = sorted(counts.values(), reverse=True)
    flush = len({c.suit for c in five}) == 1
    top = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            top = ranks[0]
        elif wheel and ranks == [14, 5, 4, 3, 2]:
            top = 5
    if top and flush:
        return (8, top)
    if shape[0] == 4:
        return (7, *ordered)
    if shape == [3, 2]:
        return (6, *ordered)
    if flush:
        return (5, *ranks)
    if top:
        return (4, top)
    if shape[0] == 3:
        return (3, *ordered)
    if shape == [2, 2, 1]:
        return (2, *ordered)
    if shape[0] == 2:
        return (1, *ordered)
    return (0, *ranks)


def naive_high(hand: Sequence[Card]) -> tuple[int, ...]:
    return max(_five_high(five, 14, True) for five in itertools.combinations(hand, 5))


def _ace_to_five(five: Sequence[Card]) -> tuple[int, ...]:
    """An ace-to-five low: pairs and worse by kind, ranks with the ace as 1; smaller is better."""
    ranks = [1 if c.rank == 14 else c.rank for c in five]
    counts = Counter(ranks)
    kind = {
        (1, 1, 1, 1, 1): 0,
        (2, 1, 1, 1): 1,
        (2, 2, 1): 2,
        (3, 1, 1): 3,
        (3, 2): 4,
        (4, 1): 5,
    }[tuple(sorted(counts.values(), reverse=True))]
    ordered = sorted(ranks, key=lambda r: (counts[r], r), reverse=True)
    return (kind, *ordered)


def naive_low(
    hand: Sequence[Card], qualifier: int | None, lowball: Lowball
) -> tuple[int, ...] | None:
    fives = list(itertools.combinations(hand, 5))
    if lowball is Lowball.ACE_TO_FIVE:
        lows = [_ace_to_five(five) for five in fives]
        if qualifier is not None:
            lows = [low for low in lows if low[0] == 0 and low[1] <= qualifier]
        if not lows:
            return None
        best = min(lows)
    elif lowball is Lowball.DEUCE_TO_SEVEN:
        best = min(_five_high(five, 14, False) for five in fives)
    else:
        best = min(_five_high(five, 1, False) for five in fives)
    return tuple(-value for value in best)


# ---------------------------------------------------------------------------------------------
# Pots split as RULES.md says: equal shares, odd chips one each to the tied winners by the highest
# card by suit (the lowest for a low half) or clockwise; a hi/lo pot halved, its odd chip high
# (or low, as the profile says); no qualifying low: the high hand scoops.


def naive_split(
    amount: int,
    winners: list[str],
    hands: dict[str, Sequence[Card]],
    low: bool,
    profile: RuleProfile,
    seats: list[str],
    ace_high_in_low: bool,
) -> dict[str, int]:
    share, odd = divmod(amount, len(winners))
    if profile.odd_chip_tie is TieBreak.CLOCKWISE:
        order = sorted(winners, key=seats.index)
    elif low:

        def lowest(player: str) -> tuple[int, int]:
            return min(
                (c.rank if ace_high_in_low or c.rank != 14 else 1, c.suit) for c in hands[player]
            )

        order = sorted(winners, key=lowest)
    else:
        order = sorted(winners, key=lambda p: max((c.rank, c.suit) for c in hands[p]), reverse=True)
    return {p: share + (1 if order.index(p) < odd else 0) for p in winners}


def brute_force(spot: Spot) -> dict[tuple[int, str], Fraction]:
    """Expected chips of each player from each pot, every deal of the rest counted once."""
    variant = VARIANTS[spot.game]
    known = set(spot.known_cards())
    pool = [c for c in DECK if c not in known]
    own = variant.cards - (1 if spot.community else 0)
    players = list(spot.players)
    fixed = {
        h.player: [c for c in h.cards if c is not None]
        + ([spot.community_card] if spot.community_card else [])
        for h in spot.holdings
    }
    draws = {h.player: own - sum(c is not None for c in h.cards) for h in spot.holdings}
    to_come = spot.community and spot.community_card is None
    totals: Counter[tuple[int, str]] = Counter()
    count = 0
    memo: dict[tuple[str, frozenset[Card]], tuple[object, object]] = {}

    def strength(player: str, hand: list[Card]) -> tuple[object, object]:
        key = (player, frozenset(hand))
        if key not in memo:
            memo[key] = (
                naive_high(hand) if variant.high else None,
                naive_low(hand, variant.low_qualifier, variant.lowball) if variant.low else None,
            )
        return memo[key]

    def settle(drawn: dict[str, tuple[Card, ...]], community: Card | None) -> None:
        nonlocal count
        count += 1
        hands = {p: fixed[p] + list(drawn[p]) + ([community] if community else []) for p in players}
        ranked = {p: strength(p, hands[p]) for p in players}
        ace_high = variant.lowball is Lowball.DEUCE_TO_SEVEN

        def best(eligible: list[str], which: int) -> list[str]:
            values = [ranked[p][which] for p in eligible if ranked[p][which] is not None]
            if not values:
                return []
            top = max(values)  # type: ignore[type-var]
            return [p for p in eligible if ranked[p][which] == top]

        def pay(index: int, amount: int, winners: list[str], low: bool) -> None:
            shares = naive_split(amount, winners, hands, low, spot.profile, players, ace_high)
            for p, chips in shares.items():
                totals[(index, p)] += chips

        for index, pot in enumerate(spot.pots):
            eligible = list(pot.eligible)
            if not variant.high:
                pay(index, pot.amount, best(eligible, 1), True)
            elif not variant.low or not best(eligible, 1):
                pay(index, pot.amount, best(eligible, 0), False)
            else:
                low_half = pot.amount // 2
                high_half = pot.amount - low_half
                if not spot.profile.odd_chip_to_high:
                    high_half, low_half = low_half, high_half
                pay(index, high_half, best(eligible, 0), False)
                pay(index, low_half, best(eligible, 1), True)

    def deal(at: int, left: list[Card], drawn: dict[str, tuple[Card, ...]]) -> None:
        if at == len(players):
            for community in left if to_come else [None]:
                settle(drawn, community)
            return
        player = players[at]
        for chosen in itertools.combinations(left, draws[player]):
            rest = [c for c in left if c not in chosen]
            deal(at + 1, rest, {**drawn, player: chosen})

    deal(0, pool, {})
    return {
        (index, p): Fraction(totals[(index, p)], count)
        for index, pot in enumerate(spot.pots)
        for p in pot.eligible
    }


# ---------------------------------------------------------------------------------------------
# Random spots.

PROFILES = [
    CASINO,
    POKERSTARS,
    RuleProfile("clockwise", "ties clockwise", odd_chip_tie=TieBreak.CLOCKWISE),
    RuleProfile("low-odd", "odd chip of a halving to the low", odd_chip_to_high=False),
]


def deals_left(spot: Spot) -> int:
    """How many ways the rest can be dealt (what the brute force enumerates)."""
    own = VARIANTS[spot.game].cards - (1 if spot.community else 0)
    left = 52 - len(spot.known_cards())
    total = 1
    for holding in spot.holdings:
        draw = own - sum(c is not None for c in holding.cards)
        total *= __import__("math").comb(left, draw)
        left -= draw
    if spot.community and spot.community_card is None:
        total *= left
    return total


def random_spot(rng: random.Random, game: Game, deals_at_most: int) -> Spot:
    """A random spot of `game` whose deck is cut (the rest made dead cards) until at most
    `deals_at_most` deals are left: two to four players, any street, some down cards unknown,
    nested pots of odd sizes, any odd-chip rule; now and then a community card, and a deck of
    few suits or ranks so that flushes and ties come up."""
    variant = VARIANTS[game]
    deck = list(DECK)
    roll = rng.random()
    if roll < 0.25:
        suits = set(rng.sample(range(4), 2))
        deck.sort(key=lambda c: (c.suit not in suits, rng.random()))
    elif roll < 0.45:
        ranks = set(rng.sample(range(2, 15), 6))
        deck.sort(key=lambda c: (c.rank not in ranks, rng.random()))
    else:
        rng.shuffle(deck)
    community = variant.cards == 7 and rng.random() < 0.2
    own = variant.cards - (1 if community else 0)
    players = rng.randint(2, 4)
    dealt = rng.randint(2 if variant.cards == 5 else 3, own)
    layout = variant.face_up
    holdings = []
    for seat in range(players):
        held: list[Card | None] = []
        for position in range(dealt):
            card_ = deck.pop(0)
            hidden = not layout[position] and rng.random() < 0.2
            held.append(None if hidden else card_)
            if hidden:
                deck.append(card_)
        holdings.append(Holding(f"p{seat}", tuple(held)))
    community_card = None
    if community and dealt == own and rng.random() < 0.5:
        community_card = deck.pop(0)
    names = [h.player for h in holdings]
    eligible = names[:]
    pots = []
    for _ in range(rng.randint(1, 3)):
        pots.append(Pot(rng.choice([1, 2, 3, 5, 7, 9, 10, 11, 101, 1000]), tuple(eligible)))
        if len(eligible) > 1:
            eligible.remove(rng.choice(eligible))
    # Known dead cards until few deals are left: cut from the far end of the deck.
    spot = Spot(
        game, tuple(holdings), tuple(pots), (), community, community_card, rng.choice(PROFILES)
    )
    dead: list[Card] = []
    rest = [c for c in deck if c not in set(spot.known_cards())]
    while deals_left(spot) > deals_at_most:
        dead.append(rest.pop())
        cut = Spot(
            game, tuple(holdings), tuple(pots), tuple(dead), community, community_card, spot.profile
        )
        if deals_left(cut) == 0:  # every card left is needed, and still too many deals
            return random_spot(rng, game, deals_at_most)
        spot = cut
    return spot


# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(Game))
def test_exact_equities_agree_with_the_brute_force_on_small_decks(game: Game) -> None:
    rng = random.Random(f"equity-{game}")
    for _ in range(SPOTS_PER_GAME):
        spot = random_spot(rng, game, DEALS_AT_MOST)
        found = equities(spot)
        assert found.method is Method.EXACT and found.error == 0.0
        expected = brute_force(spot)
        assert found.deals == deals_left(spot)
        got = {(share.pot, share.player): share.expected for share in found.shares}
        assert got == expected, spot


def test_summed_codes_rank_as_the_batches_do() -> None:
    keys, bits = evaluate.card_codes()
    for size in (5, 6, 7):
        hands = random_hands(20_000, size, seed=size).astype(np.int64)
        key_sums = keys[hands].sum(axis=1)
        bit_sums = bits[hands].sum(axis=1)
        assert (
            evaluate.high_rank_summed(key_sums, bit_sums, size) == evaluate.high_rank_batch(hands)
        ).all()
        for lowball, qualifier in (
            (Lowball.ACE_TO_FIVE, 8),
            (Lowball.ACE_TO_FIVE, None),
            (Lowball.DEUCE_TO_SEVEN, None),
            (Lowball.ACE_TO_SIX, None),
        ):
            assert (
                evaluate.low_rank_summed(key_sums, bit_sums, size, qualifier, lowball)
                == evaluate.low_rank_batch(hands, qualifier, lowball)
            ).all()


def _spot(
    game: Game, held: dict[str, str], pool: str, amounts: Sequence[int], **kwargs: object
) -> Spot:
    """A spot of `game` whose unknown cards are exactly `pool` (every other card dead)."""
    holdings = tuple(
        Holding(player, tuple(None if text == "?" else card(text) for text in hand.split()))
        for player, hand in held.items()
    )
    known = {c for h in holdings for c in h.cards if c is not None} | set(cards(pool))
    community_card = kwargs.get("community_card")
    if isinstance(community_card, Card):
        known.add(community_card)
    dead = tuple(c for c in DECK if c not in known)
    names = tuple(held)
    pots = tuple(Pot(amount, names[: len(names) - index]) for index, amount in enumerate(amounts))
    return Spot(game, holdings, pots, dead, **kwargs)  # type: ignore[arg-type]


TIE_SPOTS = {
    # The same 5-low is common; the odd chip goes to the lowest card, which the draws change.
    "razz, tied lows": _spot(
        Game.RAZZ, {"a": "2c 3c 4c 5c", "b": "2d 3d 4d 5d"}, "Ah As 6h 6s 7h 7s Kh Ks Qh", [101]
    ),
    # Both make the king-high straight now and then: the odd chip to the higher king.
    "stud, tied straights": _spot(
        Game.STUD, {"a": "9c Tc Jc Qd", "b": "9d Td Jd Qh"}, "Kc Kd Kh Ks 8c 8d 2s 3s 4h", [11]
    ),
    # Three-way hi/lo: quartered lows, and a side pot the third player is out of.
    "stud8, quartered": _spot(
        Game.STUD8,
        {"a": "Ac 2c 3c 4h 9s Ts", "b": "Ad 2d 3d 4s 9c Th", "c": "Kh Kd Ks Qc Qd Qh"},
        "5c 5d 6c 6d 7h 8h Jc",
        [103, 31],
    ),
    "stud_hilo, quartered, odd chip low": _spot(
        Game.STUD_HILO,
        {"a": "Ac 2c 3c 4h 9s Ts", "b": "Ad 2d 3d 4s 9c Th", "c": "Kh Kd Ks Qc Qd Qh"},
        "5c 5d 6c 6d 7h 8h Jc",
        [103, 31],
        profile=RuleProfile("low-odd", "", odd_chip_to_high=False),
    ),
    # Heads-up hi/lo: the same wheel draws quarter the low, and no low at all now and then.
    "stud8, heads-up, quartered": _spot(
        Game.STUD8, {"a": "Ac 2c 3d 4h 9s", "b": "Ad 2d 3h Ks 9c"}, "5c 5h 6c Kh Kd 4s 7d", [101]
    ),
    "stud_hilo, heads-up, odd chip low": _spot(
        Game.STUD_HILO,
        {"a": "Ac 2c 3d 4h 9s", "b": "Ad 2d 3h 4s 9c"},
        "5c 5h 6c Kh Kd Ks 7d",
        [101, 7],
        profile=RuleProfile("low-odd", "", odd_chip_to_high=False),
    ),
    "razz27, tied lows with flushes about": _spot(
        Game.RAZZ27, {"a": "2c 3c 4c 5d", "b": "2h 3h 4h 5s"}, "7c 7h 8c 8h 6d 6s Kc", [7]
    ),
    "razz_a6, tied lows, clockwise": _spot(
        Game.RAZZ_A6,
        {"a": "Ac 2c 3c 4d", "b": "Ah 2h 3h 4s"},
        "6c 6h 7c 7h 5d 5s Kc",
        [7],
        profile=RuleProfile("clockwise", "", odd_chip_tie=TieBreak.CLOCKWISE),
    ),
    # Eight players to 7th street: the community card is everyone's last card.
    "stud, community card": _spot(
        Game.STUD,
        {
            f"p{i}": hand
            for i, hand in enumerate(
                [
                    "2c 2d 9h Th 3s 4s",
                    "Ac Kd 9c Ts 3h 4h",
                    "5c 5d Jh Qh 6s 7s",
                    "8c 8d ? Js 7h 6h",
                    "Kc Kh 2h 2s 5h 5s",
                    "Qc Qd 3c 3d 4c 4d",
                    "Jc Jd 6c 6d 7c 7d",
                    "Tc Td 8h 8s 9d 9s",
                ]
            )
        },
        "As Ad Ah Ks Qs",
        [999, 400],
        community=True,
    ),
}


@pytest.mark.parametrize("name", list(TIE_SPOTS))
def test_ties_and_odd_chips_agree_with_the_brute_force(name: str) -> None:
    spot = TIE_SPOTS[name]
    found = equities(spot)
    assert found.method is Method.EXACT
    got = {(share.pot, share.player): share.expected for share in found.shares}
    assert got == brute_force(spot)


def _full_deck_spot(rng: random.Random, game: Game) -> Spot:
    """A random spot on a whole deck late enough to be enumerated: heads-up from 5th street
    (4th in 5-card stud), three players on the last street but one."""
    variant = VARIANTS[game]
    deck = list(DECK)
    rng.shuffle(deck)
    players = rng.choice([2, 2, 3])
    last = variant.cards - 1
    dealt = last if players == 3 else rng.randint(last - 1, last)
    holdings = tuple(
        Holding(f"p{seat}", tuple(deck.pop() for _ in range(dealt))) for seat in range(players)
    )
    dead = tuple(deck.pop() for _ in range(rng.randint(0, 8)))
    names = tuple(h.player for h in holdings)
    pots = (Pot(rng.randint(2, 500), names),)
    if players == 3:
        pots += (Pot(rng.randint(1, 200), names[1:]),)
    return Spot(game, holdings, pots, dead, profile=rng.choice(PROFILES))


def test_sampled_equities_agree_with_exact_ones_within_their_stated_error() -> None:
    rng = random.Random("sampled")
    outside = within_twice = total = 0
    for index in range(28):
        game = list(Game)[index % len(Game)]
        # Whole decks, and small ones (where the sets of cards drawn overlap often).
        spot = _full_deck_spot(rng, game) if index < 14 else random_spot(rng, game, 3_000)
        exact = equities(spot)
        sampled = equities(spot, exact_limit=0)
        assert exact.method is Method.EXACT and sampled.method is Method.SAMPLED
        assert equities(spot, exact_limit=0) == sampled  # seeded by the spot: the same every run
        for truth, estimate in zip(exact.shares, sampled.shares, strict=True):
            assert 0 < estimate.error <= 0.005
            miss = abs(truth.equity - estimate.equity)
            total += 1
            outside += miss > estimate.error
            within_twice += miss <= 2 * estimate.error
    # A 95% interval misses now and then; twice its width (about four standard errors) never.
    assert within_twice == total
    assert outside <= 0.15 * total, (outside, total)


@pytest.mark.parametrize("game", list(Game))
def test_each_pot_is_shared_out_whole_and_halves_are_halves(game: Game) -> None:
    rng = random.Random(f"sums-{game}")
    variant = VARIANTS[game]
    for limit in (EXACT_DEFAULT, 0):
        spot = _full_deck_spot(rng, game)
        found = equities(spot, exact_limit=limit)
        for index, pot in enumerate(spot.pots):
            shares = [s for s in found.shares if s.pot == index]
            assert [s.player for s in shares] == list(pot.eligible)
            assert sum(s.expected for s in shares) == pot.amount
            assert all(s.high + s.low == s.expected for s in shares)
            high = sum(s.high for s in shares)
            low = sum(s.low for s in shares)
            high_half, low_half = hi_lo_halves(pot.amount, spot.profile)
            if not variant.low:
                assert low == 0
            elif not variant.high:
                assert high == 0
            elif variant.low_qualifier is None:  # any low: always halved
                assert (high, low) == (high_half, low_half)
            else:  # 8 or better: the low half when a low qualifies, else the high scoops
                assert low <= low_half and high >= high_half


def test_an_uncontested_pot_and_a_finished_deal() -> None:
    spot = _spot(Game.STUD8, {"a": "As 2s 3s 4s 5s 9d Kh", "b": "Kc Kd Ks Qc Qd Qh 8c"}, "", [9, 4])
    found = equities(spot)
    assert found.method is Method.EXACT and found.deals == 1
    # Pot 0: a scoops with a wheel straight flush and the nut low; pot 1 is a's alone.
    assert [(s.pot, s.player, s.expected) for s in found.shares] == [
        (0, "a", 9),
        (0, "b", 0),
        (1, "a", 4),
    ]
    assert found.expected("a") == 13 and found.equity("b") == 0.0


@pytest.mark.parametrize(
    ("spot", "message"),
    [
        (
            Spot(Game.STUD, (Holding("a", cards("As Ks")), Holding("b", cards("As Qs"))), ()),
            "the same card twice in the spot: As",
        ),
        (
            Spot(Game.STUD5, (Holding("a", cards("As Ks 2c 3c 4c 5c")),), ()),
            "a holds 6 cards of their own; stud5 deals at most 5",
        ),
        (
            Spot(Game.STUD, (Holding("a", cards("As Ks")),), (Pot(5, ("b",)),)),
            "pot 0 is for b, not among the players with cards",
        ),
        (
            Spot(Game.STUD5, (Holding("a", cards("As Ks")),), (), community=True),
            "stud5 deals no community card",
        ),
    ],
)
def test_a_spot_that_cannot_be_dealt_says_why(spot: Spot, message: str) -> None:
    with pytest.raises(SpotError, match=message):
        equities(spot)
