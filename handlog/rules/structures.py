"""Each betting structure as data: how small and how big a bet or raise may be, whether the
number of raises is capped, and which win-rate unit the reports use. The replay
(`_Replayer._bet_or_raise`) reads a hand's `BettingStructure` instead of asking which
structure it is; the simulator plays by the same table; a house's choices within a structure
(a spread's minimum raise, its cap) are fields of its `RuleProfile`.

What a bet or raise may be, by structure (RULES.md, "Betting structures other than fixed
limit"), with the hand's `small_bet` and `big_bet` (see `Hand.structure`):

- fixed: exactly the street's bet size (small, or big from the big-bet streets; either after
  an open pair where the house allows the double bet).
- spread: any amount from the bottom of the spread (`small_bet`) to its top (`big_bet`), on
  every street; a raise at least the last bet or raise where the profile says so.
- pot: at least the street's minimum bet, and a raise at least the last bet or raise; at most
  the pot after the raiser calls (raise to at most: the bet faced + the pot + what the raiser
  owes).
- no limit: at least as in pot limit, and up to the whole stack.

An all-in for less than the smallest legal amount is allowed (table stakes); in spread, pot
and no limit it never reopens the betting for those who have already acted (fixed limit has
the house's half-bet rule instead).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from handlog.model import Structure
from handlog.rules.profiles import RuleProfile


class Ceiling(StrEnum):
    """What bounds a bet or raise from above."""

    SIZE = "size"
    """The street's fixed bet size (fixed limit)."""
    SPREAD = "spread"
    """The top of the spread (`big_bet`), as the size of the bet or of the raise."""
    POT = "pot"
    """The pot after the raiser calls."""
    STACK = "stack"
    """Nothing but the player's stack."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class BettingStructure:
    structure: Structure
    title: str
    """As a player names it, in messages: "pot limit"."""
    exact_sizes: bool
    """Every bet and raise is exactly a bet size (fixed limit), not any amount in a range."""
    ceiling: Ceiling
    capped: bool
    """The cap on raises applies (`RuleProfile.cap_bets`); for spread limit, where the profile
    also allows it (`RuleProfile.spread_capped`)."""
    big_bets: bool
    """Win-rates in big bets per 100 hands make sense (a fixed big bet, or the top of a
    spread); pot and no limit report money and bring-ins per 100 hands instead."""

    @property
    def limit_word(self) -> str:
        """The structure's title as an adjective: "pot-limit"."""
        return self.title.replace(" ", "-")


STRUCTURES: dict[Structure, BettingStructure] = {
    rules.structure: rules
    for rules in (
        BettingStructure(Structure.FIXED, "fixed limit", True, Ceiling.SIZE, True, True),
        BettingStructure(Structure.SPREAD, "spread limit", False, Ceiling.SPREAD, True, True),
        BettingStructure(Structure.POT_LIMIT, "pot limit", False, Ceiling.POT, False, False),
        BettingStructure(Structure.NO_LIMIT, "no limit", False, Ceiling.STACK, False, False),
    )
}
"""Every betting structure handlog replays."""

BIG_BET_STRUCTURES = tuple(s.value for s, rules in STRUCTURES.items() if rules.big_bets)
"""Structures (values, as stored) whose win-rates the reports give in big bets per 100."""


def capped(structure: BettingStructure, profile: RuleProfile) -> bool:
    """Whether the cap on raises (`RuleProfile.cap_bets`) holds in `structure`: in fixed
    limit, and in spread limit where the profile caps it (`RuleProfile.spread_capped`)."""
    return structure.capped and (structure.ceiling is not Ceiling.SPREAD or profile.spread_capped)


def smallest_bet(structure: BettingStructure, small_bet: int, street_size: int) -> int:
    """The least a bet (the first of a street, or a completion) may be: the spread's bottom in
    spread limit, else the street's bet size."""
    return small_bet if structure.ceiling is Ceiling.SPREAD else street_size


def full_step(current_bet: int, last_raise: int, least_bet: int, *, at_least_last: bool) -> int:
    """What a full bet or raise adds in a structure with a range of sizes: the smallest bet
    `least_bet` before any bet is made (`current_bet` below it: nothing, or a bring-in or a
    short all-in alone), then also at least the street's last full bet or raise
    (`last_raise`) where `at_least_last`. Less, all-in, is a short one (`raise_range`)."""
    if at_least_last or current_bet < least_bet:
        return max(least_bet, last_raise)
    return least_bet


def pot_sized(current_bet: int, pot: int, owed: int) -> int:
    """A bet or raise the size of the pot, as a street total: to the street's bet
    `current_bet`, plus the pot (`pot`, every chip in it) with the player's call (`owed`) in it.
    The most pot limit allows; a pot-sized bet in no limit."""
    return current_bet + pot + owed


def raise_range(
    structure: BettingStructure,
    *,
    current_bet: int,
    last_raise: int,
    least_bet: int,
    top: int,
    pot: int,
    owed: int,
    at_least_last: bool,
) -> tuple[int, int | None]:
    """The least and the most a player may bet or raise to (a street total) in a structure
    with a range of sizes: `current_bet` is the street's bet (a bring-in alone is not a bet:
    below `least_bet` the move is the completion), `last_raise` the size of the last full bet
    or raise of the street (0 before any), `least_bet` the smallest bet (`smallest_bet`), `top`
    the top of a spread, `pot` every chip in the pot (this street's included) and `owed` what
    the player must put in to call. The most is None in no limit (the stack is the limit)."""
    base = current_bet if current_bet >= least_bet else 0
    least = base + full_step(current_bet, last_raise, least_bet, at_least_last=at_least_last)
    ceiling = structure.ceiling
    if ceiling is Ceiling.SPREAD:
        return least, max(least, base + top)
    if ceiling is Ceiling.POT:
        return least, max(least, pot_sized(current_bet, pot, owed))
    return least, None
