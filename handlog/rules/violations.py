"""Violations as values: a stable code, its kind of verdict, where it happened, what caused
it, and a sentence in poker words."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum

from handlog.model import Street
from handlog.records import record

# Stable codes: reports, tests and the JSON output rely on these names.
CARD_CODES = ("DUPLICATE_CARD", "CARDS_CHANGED", "CARD_COUNT", "COMMUNITY_CARD")
FORCED_BET_CODES = ("ANTE", "BRING_IN_PLAYER", "BRING_IN_AMOUNT")
BETTING_CODES = (
    "OUT_OF_TURN",
    "CHECK_FACING_BET",
    "BET_SIZE",
    "RAISE_CAP",
    "CALL_AMOUNT",
    "ACTED_AFTER_FOLD",
    "OVER_STACK",
    "ROUND_INCOMPLETE",
    "UNCALLED_RETURN",
)
POT_CODES = (
    "POT_TOTAL",
    "RAKE",
    "WRONG_WINNER",
    "SPLIT_AMOUNT",
    "LOW_NOT_QUALIFIED",
    "ODD_CHIP",
    "NOT_ELIGIBLE",
    "HAND_DESCRIPTION",
    "PLAYER_NET",
)
CODES = CARD_CODES + FORCED_BET_CODES + BETTING_CODES + POT_CODES


class Kind(StrEnum):
    """The three kinds of verdict, never mixed (RULES.md)."""

    ILLEGAL = "illegal"
    """Illegal play: a deal, forced bet or action the rules forbid."""
    MIS_SPLIT = "mis-split"
    """A mis-split pot: money went where the rules do not send it (a pot, half or odd chip
    to the wrong player, a wrong amount, rake taken wrongly)."""
    INCONSISTENT = "inconsistent"
    """An inconsistent history: the site's own printed figures (a player's result, the total
    pot, a hand description, a collect line) contradict the rest of the hand while the
    money, by the site's own account, moved where the rules send it."""

    def __str__(self) -> str:
        return self.value


KINDS = tuple(Kind)

DEFAULT_KIND: dict[str, Kind] = {
    **dict.fromkeys(CARD_CODES + FORCED_BET_CODES + BETTING_CODES, Kind.ILLEGAL),
    **dict.fromkeys(POT_CODES, Kind.MIS_SPLIT),
    "HAND_DESCRIPTION": Kind.INCONSISTENT,
    "PLAYER_NET": Kind.INCONSISTENT,
    "UNCALLED_RETURN": Kind.MIS_SPLIT,
}
"""Each code's kind unless the check that raises it decides otherwise from the evidence:
`POT_TOTAL` is inconsistent when every chip put in was paid out (only the printed total is
off); `PLAYER_NET` is a mis-split when the printed result pays the player neither as the
hand's lines nor as the rules do; the award codes (`WRONG_WINNER`, `SPLIT_AMOUNT`,
`ODD_CHIP`, `LOW_NOT_QUALIFIED`, `NOT_ELIGIBLE`) are inconsistent when the site's own
per-player results pay every player concerned as the rules do (only its collect lines
differ); `UNCALLED_RETURN`, not a player's action but the house's, is a mis-split when the
pots were paid with the chips a wrong return left in them (or took out) and that moved
money between players, inconsistent when the chips came back as the rules return them or
the pots were paid as if they had (the replay's `_judge_returns`). A consequence
(`Violation.cause`) takes its cause's kind."""

MIS_SPLIT_CODES = frozenset(POT_CODES)
"""The codes of the pot checks (mis-split by default; see `DEFAULT_KIND`)."""


@record
class Violation:
    code: str
    """One of `CODES`."""
    street: Street | None
    line: int
    """1-based line in the hand's file where it shows (the hand's first line if no better)."""
    player: str | None
    message: str
    """What was expected and what happened, in poker words."""
    expected: str | None = None
    actual: str | None = None
    extra: tuple[str, ...] = field(default=(), compare=False)
    kind: Kind = Kind.ILLEGAL
    """The kind of verdict (`DEFAULT_KIND` unless the check decided from the evidence)."""
    cause: int | None = None
    """For a flag that only follows from an earlier fault of the same hand (a player the
    replay took all-in by an over-stack acting again, the players who act after a skipped
    turn, a total that is off because a pot was not paid), the index in the hand's
    violations of that fault: always a root (itself without a cause). None for a root.
    Consequences are shown under their cause and not counted as flags of their own."""

    @property
    def mis_split(self) -> bool:
        return self.kind is Kind.MIS_SPLIT

    @property
    def root(self) -> bool:
        """Whether the flag is a fault of its own (not a consequence of another)."""
        return self.cause is None


def root_kinds(violations: tuple[Violation, ...] | list[Violation]) -> frozenset[Kind]:
    """The kinds of the faults of a hand (its consequences left out)."""
    return frozenset(v.kind for v in violations if v.cause is None)
