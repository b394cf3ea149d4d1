"""A spot: everything the equity calculator needs to know of one moment of a hand — the game,
each live player's cards by deal position, the other cards known out of the deck, whether the
last card will be one community card, the pots with their eligible players, and the house's
odd-chip rule."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass

from handlog.cards import Card
from handlog.model import Game
from handlog.rules.profiles import CASINO, RuleProfile
from handlog.rules.tables import Pot
from handlog.rules.variants import VARIANTS

EXACT_LIMIT = 700_000
"""Deals enumerated at most for an exact answer; more and the spot is sampled. Enough for every
heads-up spot of the 7-card games from 5th street on (671,580 deals on a deck with no dead
card), and three or four players on 6th street; about what sampling to the target error
costs. Kept here, apart from the calculator: what takes it as a default (`hands`) imports the
calculator, and NumPy, only when it computes (most hands have no all-in)."""


class SpotError(ValueError):
    """A spot that cannot be dealt out: a card twice, more cards than the game deals, a pot
    naming a player without cards. The message says which."""


@dataclass(frozen=True, slots=True)
class Holding:
    """One live player's cards at the spot."""

    player: str
    cards: tuple[Card | None, ...]
    """The cards dealt to the player so far, in deal order (the game's `Variant.face_up` says
    which positions are face up): two down cards and the door card on 3rd street, then one a
    street. None for a card the spot does not know (an opponent's down card): it is drawn from
    the deck like the cards still to come."""


@dataclass(frozen=True, slots=True)
class Spot:
    """One moment of a hand, for the equity calculator (`handlog.equity.equities`)."""

    game: Game
    holdings: tuple[Holding, ...]
    """The players still in the hand, in seat order (the order the clockwise odd-chip rule
    reads)."""
    pots: tuple[Pot, ...]
    """Main pot first, then the side pots: each amount as it will be paid out (after rake) and
    the players eligible for it (all of them among `holdings`)."""
    dead: tuple[Card, ...] = ()
    """Every other card known to be out of the deck: the up cards of players who folded (and
    any of their down cards the spot knows), cards shown by anyone no longer in the hand."""
    community: bool = False
    """Whether each player's last card is one card dealt face up to everyone (7-card games,
    when the deck runs short: `handlog.rules.tables.cards_needed`); each holding then holds at
    most six cards of its own."""
    community_card: Card | None = None
    """The community card when it has been dealt already (only with `community`)."""
    profile: RuleProfile = CASINO
    """The house's rules for splitting a pot: the odd chip of a hi/lo halving and among tied
    players (`RuleProfile.odd_chip_to_high`, `odd_chip_tie`)."""

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(holding.player for holding in self.holdings)

    @property
    def own_cards(self) -> int:
        """Cards each player is dealt of their own by the end of the hand."""
        return VARIANTS[self.game].cards - (1 if self.community else 0)

    def known_cards(self) -> list[Card]:
        """Every card the spot knows, each once if the spot is sound."""
        known = [card for holding in self.holdings for card in holding.cards if card is not None]
        known.extend(self.dead)
        if self.community_card is not None:
            known.append(self.community_card)
        return known

    def check(self) -> None:
        """Raise `SpotError` unless the spot can be dealt out."""
        if not self.holdings:
            raise SpotError("a spot needs at least one player with cards")
        players = self.players
        if len(set(players)) != len(players):
            raise SpotError(f"a player holds two places in the spot: {', '.join(players)}")
        if self.community_card is not None and not self.community:
            raise SpotError(f"{self.community_card} is a community card in a spot without one")
        if self.community and VARIANTS[self.game].cards != 7:
            raise SpotError(f"{self.game} deals no community card")
        limit = self.own_cards
        for holding in self.holdings:
            if len(holding.cards) > limit:
                raise SpotError(
                    f"{holding.player} holds {len(holding.cards)} cards of their own; "
                    f"{self.game} deals at most {limit}"
                )
        known = self.known_cards()
        if len(set(known)) != len(known):
            twice = sorted(str(card) for card, seen in Counter(known).items() if seen > 1)
            raise SpotError(f"the same card twice in the spot: {' '.join(twice)}")
        to_deal = sum(
            limit - sum(card is not None for card in holding.cards) for holding in self.holdings
        )
        to_deal += 1 if self.community and self.community_card is None else 0
        if to_deal > 52 - len(known):
            raise SpotError(f"{to_deal} cards to deal and only {52 - len(known)} left")
        for index, pot in enumerate(self.pots):
            strangers = [player for player in pot.eligible if player not in players]
            if strangers or not pot.eligible:
                raise SpotError(
                    f"pot {index} is for {', '.join(strangers) or 'nobody'}, "
                    "not among the players with cards"
                )
            if pot.amount < 0:
                raise SpotError(f"pot {index} holds {pot.amount}")

    def fingerprint(self) -> bytes:
        """A digest of what the spot says, the same in every run: it seeds the sampling, so a
        sampled spot always gives the same figures."""
        text = "|".join(
            [
                self.game.value,
                ";".join(
                    f"{h.player}:{' '.join(str(c) if c else '?' for c in h.cards)}"
                    for h in self.holdings
                ),
                " ".join(map(str, self.dead)),
                f"{self.community}:{self.community_card}",
                ";".join(f"{pot.amount}:{','.join(pot.eligible)}" for pot in self.pots),
                f"{self.profile.odd_chip_tie}:{self.profile.odd_chip_to_high}",
            ]
        )
        return hashlib.blake2b(text.encode(), digest_size=16).digest()
