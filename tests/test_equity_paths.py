"""The calculator's fast paths against straightforward references: the partial shuffles that
sample deals against a row-by-row Fisher-Yates shuffle fed the same draws, the deals drawn
from pairs of cards against every deal alike (a chi-square on small decks) and their draws
against the mixed radix read in plain Python, the odd-chip grouping against NumPy's row-wise
unique, and sampled equities against the figures the calculator gave before these paths were
made faster (the samples are seeded by the spot, so a change to the stream of draws, or to
what is made of them, changes these figures)."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest

from handlog.cards import DECK
from handlog.equity import Holding, Method, Spot, calculate, equities
from handlog.model import Game
from handlog.rules.profiles import CASINO, POKERSTARS
from handlog.rules.tables import Pot
from handlog.rules.variants import VARIANTS
from tests.test_equity import use_sampler


def _shuffled_by_rows(seed: int, count: int, unknown: int, drawn: int) -> np.ndarray:
    """The first `drawn` places of `count` Fisher-Yates shuffles of range(unknown), one row at
    a time in plain Python, place p swapped with the place drawn for it: the draws read in
    mixed radix from one number per group of places, as `_partial_shuffles` draws them."""
    generator = np.random.default_rng(seed)
    # Each place's draw a digit of a number drawn for a group of places, lowest first.
    choices = [unknown - place for place in range(drawn)]
    draws = [[0] * count for _ in range(drawn)]
    for product, places in calculate._radix_groups(choices):
        for row, number in enumerate(generator.integers(0, product, size=count).tolist()):
            for place in places:
                number, digit = divmod(number, choices[place])
                draws[place][row] = place + digit
            assert number == 0
    result = np.empty((drawn, count), dtype=np.int64)
    for row in range(count):
        cards = list(range(unknown))
        for place in range(drawn):
            other = draws[place][row]
            cards[place], cards[other] = cards[other], cards[place]
            result[place, row] = cards[place]
    return result


@pytest.mark.parametrize(
    ("count", "unknown", "drawn"),
    [(1, 2, 2), (500, 46, 8), (300, 38, 3), (200, 11, 11), (400, 30, 24), (64, 52, 1)],
)
def test_partial_shuffles_deal_as_a_row_by_row_shuffle(
    count: int, unknown: int, drawn: int
) -> None:
    seed = count * 1000 + unknown * 10 + drawn
    found = calculate._partial_shuffles(np.random.default_rng(seed), count, unknown, drawn)
    assert found.shape == (drawn, count)
    assert np.array_equal(found, _shuffled_by_rows(seed, count, unknown, drawn))
    # Each row a draw without replacement.
    assert all(len(set(found[:, row].tolist())) == drawn for row in range(count))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_odd_chip_groups_are_those_of_a_row_wise_unique(players: int) -> None:
    rng = np.random.default_rng(players)
    spot = Spot(Game.RAZZ, tuple(Holding(f"p{p}", ()) for p in range(players)), ())
    deal = calculate._Deal(spot)
    for rows in (1, 7, 400):
        # Few distinct cards, so that rows repeat and the groups are big.
        hands = rng.choice(np.array([0, 12, 13, 50, 51]), size=(rows, players, 7))
        found = deal._by_odd_chip_cards(hands)
        compared = np.concatenate(
            [hands.max(axis=2), hands.min(axis=2), deal.low_codes[hands].min(axis=2)], axis=1
        )
        _, firsts, sizes = np.unique(compared, axis=0, return_index=True, return_counts=True)
        assert found == list(zip(firsts.tolist(), sizes.tolist(), strict=True))
        assert sum(size for _, size in found) == rows


def _spots(seed: str) -> list[Spot]:
    """Spots to sample, of every game: heads-up and three-way, early and late streets, one
    with a community card to come (on a deck cut short by dead cards)."""
    rng = random.Random(seed)
    found = []
    for game in Game:
        variant = VARIANTS[game]
        for players, dealt in ((2, 3 if variant.cards == 7 else 2), (3, variant.cards - 2)):
            deck = list(DECK)
            rng.shuffle(deck)
            holdings = tuple(
                Holding(f"p{seat}", tuple(deck.pop() for _ in range(dealt)))
                for seat in range(players)
            )
            names = tuple(h.player for h in holdings)
            pots = (Pot(rng.randint(3, 999), names), Pot(rng.randint(1, 99), names[:2]))
            dead = tuple(deck.pop() for _ in range(rng.randint(0, 6)))
            profile = rng.choice([CASINO, POKERSTARS])
            found.append(Spot(game, holdings, pots, dead, profile=profile))
    holdings = tuple(Holding(f"p{seat}", tuple(DECK[seat * 6 : seat * 6 + 6])) for seat in range(7))
    dead = tuple(DECK[42:46])
    found.append(
        Spot(Game.STUD, holdings, (Pot(700, tuple(h.player for h in holdings)),), dead, True)
    )
    return found


def _digest(spots: list[Spot]) -> str:
    lines = []
    for spot in spots:
        found = equities(spot, exact_limit=0)
        assert found.method is Method.SAMPLED
        lines.append(repr((found.deals, [(s.expected, s.high, s.error) for s in found.shares])))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("sampler", "expected"),
    [
        ("from ranked draws", "e1b5ead9df83281b"),
        ("from pairs", "9ce5de260bd34593"),
        ("shuffled", "eb8ff101607f1781"),
    ],
)
def test_sampled_equities_are_those_computed_before_the_fast_paths(
    sampler: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_sampler(sampler, monkeypatch)
    assert _digest(_spots("pinned")) == expected


def _small_spot(game: Game, players: int, known: int, pool: int, community: bool = False) -> Spot:
    """A spot whose players hold `known` cards each (the first of the deck) and whose deck is
    cut to `pool` unknown cards: few enough deals for each to come up many times."""
    deck = list(DECK)
    holdings = tuple(
        Holding(f"p{seat}", tuple(deck[seat * known : (seat + 1) * known]))
        for seat in range(players)
    )
    dead = tuple(deck[players * known : len(deck) - pool])
    names = tuple(h.player for h in holdings)
    return Spot(game, holdings, (Pot(100, names),), dead, community)


@pytest.mark.parametrize(
    ("spot", "per_deal"),
    [
        # A pair and a single each (560 deals).
        (_small_spot(Game.STUD5, 2, 2, 8), 40),
        # A single each and the community card (210 deals).
        (_small_spot(Game.STUD, 2, 5, 7, community=True), 60),
        # A pair each, three players (2,520 deals).
        (_small_spot(Game.STUD, 3, 5, 8), 12),
    ],
)
def test_deals_drawn_from_pairs_are_all_alike(spot: Spot, per_deal: int) -> None:
    deal = calculate._Deal(spot)
    count = deal.deals * per_deal
    batch = deal._sample_units(np.random.default_rng(per_deal), count)
    hands = batch.hands(np.arange(count))
    drawn = [
        np.sort(hands[:, player, len(fixed) :], axis=1) for player, fixed in enumerate(deal.fixed)
    ]
    keys = np.concatenate(drawn, axis=1)
    # No card twice in a deal (the community card is each player's), none of them known.
    everything = np.sort(keys, axis=1)
    distinct = 1 + (np.diff(everything, axis=1) != 0).sum(axis=1)
    assert (distinct == sum(deal.draws) + deal.community_draw).all()
    assert not np.isin(keys, [card.index for card in spot.known_cards()]).any()
    _, seen = np.unique(keys, axis=0, return_counts=True)
    assert len(seen) == deal.deals  # every deal comes up
    # Pearson's chi-square against every deal alike, within five standard deviations of its
    # mean (the degrees of freedom): a sampler favouring some deals by a few percent fails.
    chi_square = float(((seen - per_deal) ** 2).sum() / per_deal)
    freedom = deal.deals - 1
    assert abs(chi_square - freedom) < 5 * (2 * freedom) ** 0.5, (chi_square, freedom)


def test_units_are_read_in_mixed_radix_from_one_integer_per_group() -> None:
    spot = _small_spot(Game.STUD, 2, 3, 43)
    units = calculate._Deal(spot)._units()
    assert units.sizes == [2, 2, 2, 2] and len(units.groups) == 1
    found = [pick.copy() for pick in units.draw(np.random.default_rng(7), 500)]
    numbers = np.random.default_rng(7).integers(0, units.groups[0][0], size=500).tolist()
    for row, number in enumerate(numbers):
        for unit, choice in enumerate(len(rows) for rows in units.rows):
            number, digit = divmod(number, choice)
            assert found[unit][row] == digit
        assert number == 0


def test_tries_are_kept_alike_with_or_without_numpys_popcount(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spot = _small_spot(Game.STUD, 3, 5, 12, community=True)
    units = calculate._Deal(spot)._units()
    with_popcount = units.sample(np.random.default_rng(3), 5_000)
    monkeypatch.setattr(calculate, "_POPCOUNT", None)
    without = units.sample(np.random.default_rng(3), 5_000)
    for found, expected in zip(without, with_popcount, strict=True):
        for column, other in zip(found, expected, strict=True):
            assert np.array_equal(column, other)
