"""The equity calculator against pokerkit, the test-only reference engine: its hand classes
ranking every deal of small decks (exact agreement), and its own equity calculator
(`pokerkit.analysis.calculate_equities`, a sampler) within its sampling error.

What pokerkit's calculator expresses of a stud spot: each player's cards as "hole cards" dealt
up to the game's count (it deals the missing ones, so unknown down cards too), the community
card as a one-card board, dead cards as a deck without them, a hi/lo game as a high and a low
hand type (with no qualifying low the high scoops, as in stud8). What it does not: pots (one
call per pot, the cards of live players outside it taken out of the deck: their other cards
are unknown, like the deck's), odd chips (its shares are exact fractions: the pots here are
divisible by every split), and ace-to-six lows (no hand type: London lowball is left out).
Set HANDLOG_EQUITY_EXHAUSTIVE=1 for more spots and samples."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction

import pytest

pokerkit = pytest.importorskip("pokerkit")

from handlog.cards import DECK, Card  # noqa: E402
from handlog.equity import Holding, Method, Spot, equities  # noqa: E402
from handlog.model import Game  # noqa: E402
from handlog.rules.tables import Pot  # noqa: E402
from handlog.rules.variants import VARIANTS  # noqa: E402

from .test_equity import EXHAUSTIVE, deals_left, random_spot  # noqa: E402

HAND_TYPES = {
    Game.STUD: (pokerkit.StandardHighHand,),
    Game.STUD5: (pokerkit.StandardHighHand,),
    Game.STUD8: (pokerkit.StandardHighHand, pokerkit.EightOrBetterLowHand),
    Game.STUD_HILO: (pokerkit.StandardHighHand, pokerkit.RegularLowHand),
    Game.RAZZ: (pokerkit.RegularLowHand,),
    Game.RAZZ27: (pokerkit.StandardLowHand,),
}
"""pokerkit's hand types for each game it can rank (none for ace-to-six)."""

WHOLE = 720_720
"""A pot every split here divides exactly (2 to 16 ways, and halves of it 2 to 8 ways)."""


def _pk(cards: Sequence[Card]) -> list[object]:
    return list(pokerkit.Card.parse("".join(map(str, cards))))


def _divisible(spot: Spot) -> Spot:
    """The spot with pots of `WHOLE` chips (same players), so that pokerkit's exact
    fractions and handlog's chips agree without odd chips."""
    pots = tuple(Pot(WHOLE, pot.eligible) for pot in spot.pots)
    return Spot(
        spot.game,
        spot.holdings,
        pots,
        spot.dead,
        spot.community,
        spot.community_card,
        spot.profile,
    )


def _pokerkit_share(
    game: Game, hands: dict[str, list[object]], eligible: Sequence[str]
) -> dict[str, Fraction]:
    """Each eligible player's share of a pot in one deal, pokerkit's hands deciding: each hand
    type that someone qualifies for gets an equal part, split among its best hands."""
    parts: list[dict[str, Fraction]] = []
    for hand_type in HAND_TYPES[game]:
        ranked = {p: hand_type.from_game_or_none(hands[p]) for p in eligible}
        made = {p: hand for p, hand in ranked.items() if hand is not None}
        if not made:
            continue
        best = max(made.values())
        winners = [p for p, hand in made.items() if hand == best]
        parts.append({p: Fraction(1, len(winners)) for p in winners})
    return {
        p: sum((part.get(p, Fraction(0)) for part in parts), Fraction(0)) / len(parts)
        for p in eligible
    }


def _every_deal_by_pokerkit(spot: Spot) -> dict[tuple[int, str], Fraction]:
    variant = VARIANTS[spot.game]
    known = set(spot.known_cards())
    pool = [c for c in DECK if c not in known]
    own = variant.cards - (1 if spot.community else 0)
    fixed = {
        h.player: [c for c in h.cards if c is not None]
        + ([spot.community_card] if spot.community_card else [])
        for h in spot.holdings
    }
    draws = [own - sum(c is not None for c in h.cards) for h in spot.holdings]
    to_come = spot.community and spot.community_card is None
    players = list(spot.players)
    totals: dict[tuple[int, str], Fraction] = {
        (i, p): Fraction(0) for i, pot in enumerate(spot.pots) for p in pot.eligible
    }
    count = 0

    def deal(at: int, left: list[Card], drawn: list[tuple[Card, ...]]) -> None:
        nonlocal count
        if at == len(players):
            for community in left if to_come else [None]:
                count += 1
                extra = [community] if community else []
                hands = {p: _pk(fixed[p] + list(drawn[i]) + extra) for i, p in enumerate(players)}
                for index, pot in enumerate(spot.pots):
                    for p, share in _pokerkit_share(spot.game, hands, pot.eligible).items():
                        totals[(index, p)] += share
            return
        for chosen in itertools.combinations(left, draws[at]):
            deal(at + 1, [c for c in left if c not in chosen], [*drawn, chosen])

    deal(0, pool, [])
    return {key: total / count * WHOLE for key, total in totals.items()}


@pytest.mark.parametrize("game", list(HAND_TYPES))
def test_every_deal_ranked_by_pokerkit_gives_the_same_equities(game: Game) -> None:
    rng = random.Random(f"pokerkit-{game}")
    for _ in range(20 if EXHAUSTIVE else 3):
        spot = _divisible(random_spot(rng, game, 400 if EXHAUSTIVE else 60))
        found = equities(spot)
        assert found.method is Method.EXACT and found.deals == deals_left(spot)
        got = {(s.pot, s.player): s.expected for s in found.shares}
        assert got == _every_deal_by_pokerkit(spot), spot


@pytest.mark.parametrize("game", list(HAND_TYPES))
def test_pokerkits_equity_calculator_agrees_within_its_sampling_error(game: Game) -> None:
    rng = random.Random(f"pokerkit-calculator-{game}")
    samples = 4_000 if EXHAUSTIVE else 300
    own = VARIANTS[game].cards
    deck = list(DECK)
    rng.shuffle(deck)
    # Heads-up on the last street but two (a 7-card game's 5th street), a few dead cards, the
    # second player's first down card unknown.
    dealt = own - 2
    first = tuple(deck.pop() for _ in range(dealt))
    second = (None, *(deck.pop() for _ in range(dealt - 1)))
    dead = tuple(deck.pop() for _ in range(6))
    spot = Spot(
        game,
        (Holding("a", first), Holding("b", second)),
        (Pot(WHOLE, ("a", "b")),),
        dead,
    )
    found = equities(spot)
    random.seed(f"pokerkit-{game}")
    theirs = pokerkit.calculate_equities(
        ([_pk(first)], [_pk([c for c in second if c is not None])]),
        [],
        own,
        0,
        _pk([c for c in DECK if c not in set(dead)]),
        HAND_TYPES[game],
        sample_count=samples,
    )
    for player, estimate in zip("ab", theirs, strict=True):
        truth = found.equity(player)
        spread = (truth * (1 - truth) / samples) ** 0.5
        assert abs(estimate - truth) <= 4.5 * spread + found.error + 1e-9, (player, truth, estimate)
