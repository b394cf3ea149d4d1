"""What a site prints, as declared facts the replay consults, so that no check fires on
something a site simply does not write.

These are not house rules (those are `RuleProfile` fields): two sites may deal by the same
rules and still print different things. Each site module declares its traits
(`handlog.parse.sites`); the replay never asks which site a hand came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class UncalledBets(StrEnum):
    """What happens, in a site's text, to a bet nobody called."""

    LINE = "line"
    """Returned with a line of its own ("Uncalled bet ($0.08) returned to …"): a missing or
    wrong line is flagged (UNCALLED_RETURN)."""
    SILENT = "silent"
    """Returned without a line (Everleaf, KingsClub): the replay returns it itself."""
    IN_POT = "in_pot"
    """Left in the pot, and collected with it by the bettor (Winamax)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class SiteTraits:
    """What one site's hand histories print. The defaults are a site that prints everything
    the replay can check (`PRINTS_EVERYTHING`, PokerStars): a site declares only what it does
    not print, each trait a check that has nothing to compare there. (Most sites declare
    `describes_hands` False: of the formats handlog reads only PokerStars words its showdown
    hands as `replay.describe` does.)"""

    uncalled_bets: UncalledBets = UncalledBets.LINE
    """What the site does with a bet nobody called; the replay never flags a line a site
    does not print."""
    total_pot_after_rake: bool = False
    """Whether the printed total pot is net of rake (Winamax, Winning), not before it."""
    prints_total_pot: bool = True
    """Whether the hand prints a total pot and rake at all (Everleaf does not): if not, the
    POT_TOTAL and RAKE checks have nothing to compare."""
    describes_hands: bool = True
    """Whether the site's hand descriptions follow the wording `replay.describe` writes
    ("a pair of Tens", "HI: …; LO: 7,6,5,4,3"), so that HAND_DESCRIPTION compares them with
    the cards; False for a wording handlog does not know (never a false flag)."""
    prints_awards: bool = True
    """Whether every hand says what each player collected. PHH leaves the pushing of chips
    to the reader: a hand that says nothing of its pots is paid by the rules (there is no
    split to judge); one that does say (finishing stacks) is checked like any other."""
    hero_name: str | None = None
    """The name the site's hands give the player who exported them, where the site marks
    that player's seat (Bovada: "Seat+3 [ME]", read as "[ME]" in every hand): that player is
    a file's hero (`players.heroes`), whoever else's down cards the dealing lines show
    (Bovada's show every player's). None: the hero is told by the cards alone, the player
    whose down cards the dealing lines show."""


PRINTS_EVERYTHING = SiteTraits()
"""The traits of a site that prints every line the replay can check (PokerStars)."""
