"""The exact calculator's paths for small spots against the general ones: heads-up draws
compared pair by pair at once (`calculate._Deal._count_pairs`) against the sorted count
(`_count_apart`), on many random late spots of every game (unknown down cards, dead cards,
side pots, uncontested and empty pots, odd chips under each odd-chip rule), giving identical
`Equities`; the grid of small three-way spots against the joint enumeration; the EV-adjusted
nets summed and rounded as integers against the same in `Fraction`s."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from handlog.cards import DECK, Card
from handlog.check import hand_rules
from handlog.equity import Holding, Method, Spot, calculate, equities, hands
from handlog.model import Game, Structure
from handlog.rules.profiles import CASINO, POKERSTARS, TieBreak
from handlog.rules.tables import Pot
from handlog.rules.variants import VARIANTS
from handlog.simulate import SimulationOptions, simulate_hands

_PROFILES = (
    CASINO,
    POKERSTARS,
    replace(CASINO, odd_chip_tie=TieBreak.CLOCKWISE, odd_chip_to_high=False),
)


def _late_spots(game: Game, players: int, count: int, seed: int) -> list[Spot]:
    """`count` random spots of `game` with one or two cards to come to each of `players`,
    now and then, with one to come, a down card not known (drawn like the cards to come)."""
    rng = random.Random(seed)
    size = VARIANTS[game].cards
    spots = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        dealt = size - rng.choice((1, 1, 2))
        holdings = []
        for seat in range(players):
            cards: list[Card | None] = [deck.pop() for _ in range(dealt)]
            if dealt == size - 1 and rng.random() < 0.15:
                cards[rng.randrange(2 if size == 7 else 1)] = None
            holdings.append(Holding(f"p{seat}", tuple(cards)))
        names = tuple(h.player for h in holdings)
        pots = [Pot(rng.randint(1, 999), names)]
        for _ in range(rng.randint(0, 2)):
            eligible = names[: rng.randint(1, players)]
            pots.append(Pot(rng.choice((0, rng.randint(1, 301))), eligible))
        dead = tuple(deck.pop() for _ in range(rng.randint(0, 8)))
        spots.append(Spot(game, tuple(holdings), tuple(pots), dead, profile=rng.choice(_PROFILES)))
    return spots


@pytest.mark.parametrize("game", list(Game))
def test_paired_heads_up_counts_are_the_sorted_counts(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    spots = _late_spots(game, 2, 30, seed=list(Game).index(game))
    paired = 0
    for spot in spots:
        deal = calculate._Deal(spot)
        assert deal.heads_up_counted()
        found = equities(spot, exact_limit=1_000_000)
        assert found.method is Method.EXACT
        with monkeypatch.context() as patched:
            patched.setattr(calculate, "PAIRED_LIMIT", 0)
            assert equities(spot, exact_limit=1_000_000) == found
        tables = deal._draw_tables()
        paired += len(tables[0][0]) * len(tables[1][0]) <= calculate.PAIRED_LIMIT
    assert paired >= 15  # the spots mostly take the new path


@pytest.mark.parametrize("game", list(Game))
def test_heads_up_counts_are_every_deal_scored(game: Game) -> None:
    """The heads-up count (pairs of draws, or sorted) gives what scoring every deal gives,
    each pot's high and low parts included: a pot one player alone is in is won high (low in
    the low games) whatever part of it a deal is counted for."""
    spots = _enumerable(game, 2, 20, seed=200 + list(Game).index(game))
    for spot, deal in spots:
        counted = calculate._Tally(len(spot.pots), 2)
        deal.count_heads_up(counted)
        scored = calculate._Tally(len(spot.pots), 2)
        deal.score(deal.every_deal(), scored)
        assert counted.result(spot, Method.EXACT, 0) == scored.result(spot, Method.EXACT, 0)
    assert len(spots) >= 10


def _enumerable(
    game: Game, players: int, count: int, seed: int
) -> list[tuple[Spot, calculate._Deal]]:
    """The `_late_spots` whose deals are few enough to score one by one, with their deal."""
    deals = [(spot, calculate._Deal(spot)) for spot in _late_spots(game, players, count, seed)]
    return [(spot, deal) for spot, deal in deals if deal.deals <= 60_000]


def test_apportion_over_a_denominator_is_apportion() -> None:
    rng = random.Random(3)
    for _ in range(2_000):
        denominator = rng.choice((1, 2, 7, 496, 1056, rng.randint(1, 10**6)))
        values = {f"p{k}": rng.randint(-50 * denominator, 90 * denominator) for k in range(4)}
        values = dict(list(values.items())[: rng.randint(1, 4)])
        if rng.random() < 0.3:  # equal remainders: the ties go in the mapping's order
            values = {
                key: denominator * (value // denominator) + 1 for key, value in values.items()
            }
        fractions = {key: Fraction(value, denominator) for key, value in values.items()}
        total = sum(fractions.values(), Fraction(0))
        assert hands._apportion_over(values, denominator) == hands.apportion(fractions, int(total))


@pytest.mark.parametrize("game", [Game.STUD8, Game.RAZZ, Game.STUD_HILO])
def test_ev_nets_are_those_of_the_fractions(game: Game) -> None:
    options = SimulationOptions(game, 400, 6, seed=9, structure=Structure.NO_LIMIT)
    checked = 0
    for simulated in simulate_hands(options):
        hand = simulated.hand
        found = hands.hand_ev(hand, *hand_rules(hand))
        spot = found.all_in
        if spot is None or spot.equities is None:
            continue
        checked += 1
        put_in = {net.player: net.put_in for net in found.nets}
        expected = {p: spot.equities.expected(p) for p in put_in}
        ev = {p: expected[p] - put_in[p] for p in put_in}
        units = hands.apportion(ev, int(sum(ev.values(), Fraction(0))))
        assert [(n.expected, n.ev_net, n.ev_net_units) for n in found.nets] == [
            (expected[p], ev[p], units[p]) for p in put_in
        ]
    assert checked > 10


@pytest.mark.parametrize("game", list(Game))
def test_the_grid_of_small_three_way_spots_is_the_joint_enumeration(game: Game) -> None:
    spots = _enumerable(game, 3, 8, seed=100 + list(Game).index(game))
    for spot, deal in spots:
        grid = calculate._Tally(len(spot.pots), 3)
        deal.score(deal.every_deal(), grid)
        joint = calculate._Tally(len(spot.pots), 3)
        deal.score(deal.every_deal_jointly(), joint)
        assert grid.result(spot, Method.EXACT, 0) == joint.result(spot, Method.EXACT, 0)
        assert grid.count == deal.deals
    assert len(spots) >= 3


def test_the_sorted_count_is_the_count_of_every_pair() -> None:
    rng = np.random.default_rng(4)
    for unknown, draw_a, draw_b in ((12, 2, 2), (14, 3, 2), (10, 1, 3), (9, 3, 3), (8, 0, 2)):
        rows_a, masks_a = calculate._combinations(unknown, draw_a)
        rows_b, masks_b = calculate._combinations(unknown, draw_b)
        picks_a = np.flatnonzero(rng.random(len(rows_a)) < 0.7)
        picks_b = np.flatnonzero(rng.random(len(rows_b)) < 0.7)
        value_a = rng.integers(0, 9, len(picks_a))
        value_b = rng.integers(0, 9, len(picks_b))
        found = calculate._count_apart(rows_a[picks_a], rows_b[picks_b], value_a, value_b, unknown)
        apart = (masks_a[picks_a][:, np.newaxis] & masks_b[picks_b]) == 0
        difference = value_a[:, np.newaxis] - value_b
        assert found == (
            int(np.count_nonzero(apart & (difference > 0))),
            int(np.count_nonzero(apart & (difference == 0))),
            int(np.count_nonzero(apart & (difference < 0))),
        )
        unvalued = calculate._count_apart(rows_a[picks_a], rows_b[picks_b], None, None, unknown)
        assert unvalued == (0, int(np.count_nonzero(apart)), 0)
