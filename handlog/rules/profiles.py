"""House rule profiles: every rule on which card rooms differ, as one frozen record.

The replay never hard-codes a house's choice; it asks the profile. A hand's profile comes
from its site (its module in `handlog.parse.sites`) unless the user names one (`--profile`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from handlog.model import Game


class TieBreak(StrEnum):
    """How a tie is broken: by the suits of the cards, or by seat order."""

    SUIT = "suit"
    """Highest card by suit (clubs < diamonds < hearts < spades); for low halves the lowest."""
    CLOCKWISE = "clockwise"
    """The first player clockwise (from seat 1, stud tables having no button)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class RuleProfile:
    name: str
    description: str
    cap_bets: int = 4
    """Bets allowed per street, the bet (or completion) included: 1 bet + 3 raises."""
    cap_heads_up: bool = True
    """Whether the cap still applies when only two players were in at the start of the street."""
    open_pair_double_bet: frozenset[Game] = frozenset({Game.STUD})
    """Games in which an open pair on 4th street allows the big bet."""
    small_raise_after_big_bet: bool = False
    """After a big bet on 4th street (open pair), whether a raise may be of the small bet."""
    all_in_reopens_at_half_bet: bool = True
    """Whether a short all-in raise of at least half a bet reopens the betting (half-bet
    rule); if not, only a full raise does."""
    short_opening_all_in_reopens: bool = False
    """Whether, before any full bet of a street, a short all-in (a bet below the smallest,
    a completion short of one) leaves the betting open to everyone, a player who checked or
    called the bring-in included: pokerkit's rule (PHH hands it plays: a player who checked
    raises a short all-in bet). The rules (TDA Rule 47, Robert's Rules) close it to anyone
    who has acted and faces less than a full bet (`Table.betting_closed`)."""
    first_actor_tie: TieBreak = TieBreak.SUIT
    """Equal showing hands on 4th-7th street: suit of the highest card, or seat order."""
    razz_lower_suit_first: bool = False
    """Razz, equal showing hands: the highest card of the LOWER suit acts first (the seed
    rule: 6c-2s before 6d-2c). PokerStars does the opposite and lets the higher suit act
    first, as in stud (hand #35874817957: As-6s acts before Ac-6h on three streets)."""
    odd_chip_tie: TieBreak = TieBreak.SUIT
    """Odd chip among tied players: by the suit of the high (low) card, or seat order."""
    odd_chip_to_high: bool = True
    """In a hi/lo split, the odd chip goes to the high half."""
    burns: bool = False
    """Whether a card is burned before each street (makes the deck run short sooner)."""
    rake_before_split: bool = True
    """Rake is taken from the pot before it is split."""
    bring_ins: tuple[tuple[str | None, int, int, int], ...] = ()
    """(currency, small bet, big bet, bring-in) for the stakes whose bring-in the house's real
    hands show: the currency's ISO code for cash (amounts in cents), None for tournament and
    play chips (amounts in chips), so that $0.50/$1 and a 50/100 level are told apart. At
    other stakes any bring-in below the small bet is accepted."""

    spread_raise_at_least_last: bool = True
    """Spread limit: a raise must be at least the last bet or raise of the street (most
    houses); if not, any amount from the bottom of the spread."""
    spread_capped: bool = True
    """Spread limit: the cap on raises (`cap_bets`) holds as in fixed limit."""
    first_raise_by_bring_in: bool = False
    """Fixed limit, on the first street: whether the first raise of the completion may be by
    the size of the bring-in (the house's raise) as well as by a full small bet; later raises
    are full bets, and the house's raise counts as a full one (towards the cap, reopening
    the betting). KingsClub's (`house_raise`; the sizes: `tables.fixed_sizes`)."""
    raise_over_short_completion: bool = False
    """Fixed limit, on the first street: whether an all-in completion short of the small bet
    counts as the completion for the player who completes after it, who may then go on at
    once by the house's first raise (`house_raise`) or a full bet (to the small bet, the small
    bet and the house's raise, or two small bets; either of the last two is the completion
    and a raise, two bets towards the cap). KingsClub's (hand 3537921). The table's rule:
    `Table.completes_over_short`, `Table.completion_targets`, `Table.bets_counted`."""

    def bring_in_for(self, currency: str | None, small_bet: int, big_bet: int) -> int | None:
        """The fixed bring-in at these stakes, when the profile knows it."""
        for unit, small, big, bring_in in self.bring_ins:
            if unit == currency and small == small_bet and big == big_bet:
                return bring_in
        return None

    def house_raise(self, bring_in: int | None, ante: int | None) -> int | None:
        """The size of the house's first raise on the first street
        (`first_raise_by_bring_in`): the bring-in as the hand posted it, or, in a hand where
        the bring-in player completed, the ante (which KingsClub posts at the bring-in's
        amount in every hand seen); None without such a rule."""
        if not self.first_raise_by_bring_in:
            return None
        return bring_in or ante or None

    def double_bet_allowed(self, game: Game) -> bool:
        return game in self.open_pair_double_bet


POKERSTARS = RuleProfile(
    name="pokerstars",
    description=(
        "PokerStars: cap of a bet and three raises also heads-up; open-pair double bet in "
        "7-card stud only; no burns; odd chip to the high half, ties by suit."
    ),
    bring_ins=(
        ("USD", 4, 8, 2),  # $0.04/$0.08: "brings in for $0.02" in every such corpus hand
        (None, 25, 50, 10),  # tournament level 25/50 (the PokerTracker re-export in corpus/)
        (None, 50, 100, 15),  # tournament level IV (50/100), FORMATS.md
        ("USD", 40000, 80000, 12000),  # $400/$800 8-Game: "brings in for $120", FORMATS.md
    ),
)

CASINO = RuleProfile(
    name="casino",
    description=(
        "The seed rule pages: cap lifted when only two players start a street; open-pair "
        "double bet in 7-card and 5-card stud; burns before each street; ties by suit."
    ),
    cap_heads_up=False,
    open_pair_double_bet=frozenset({Game.STUD, Game.STUD5}),
    razz_lower_suit_first=True,
    burns=True,
)

PROFILES = {profile.name: profile for profile in (POKERSTARS, CASINO)}


def get_profile(name: str) -> RuleProfile:
    """The profile called `name`, or a `KeyError` naming the ones there are."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(
            f"no rule profile {name!r}; there are: {', '.join(sorted(PROFILES))}"
        ) from None
