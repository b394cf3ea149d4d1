"""What a site prints, as declared facts the replay consults, so that no check fires on
something a site simply does not write.

These are not house rules (those are `RuleProfile` fields): two sites may deal by the same
rules and still print different things. Each site module declares its traits
(`handlog.parse.sites`); the replay never asks which site a hand came from.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SiteTraits:
    prints_uncalled_returns: bool = True
    """Whether an uncalled bet comes back with a line of its own. Where it does not (Winamax,
    Everleaf, KingsClub), the replay returns it itself and never flags the missing line."""
    total_pot_after_rake: bool = False
    """Whether the printed total pot is net of rake (Winamax, Winning), not before it."""
    prints_total_pot: bool = True
    """Whether the hand prints a total pot and rake at all (Everleaf does not)."""
    describes_hands: str | None = "pokerstars"
    """Whose wording the site's hand descriptions follow, for HAND_DESCRIPTION; None: the
    descriptions are not compared with the cards (a wording handlog does not know)."""
    shows_opponents_seventh_card: bool = False
    """Whether opponents' 7th-street down cards are printed when dealt (Bovada prints every
    card of every player)."""

    def fields(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}  # type: ignore[attr-defined]


PRINTS_EVERYTHING = SiteTraits()
"""The traits of a site that prints every line the replay can check (PokerStars)."""
