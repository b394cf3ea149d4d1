"""Violations as values: a stable code, where it happened, and a sentence in poker words."""

from __future__ import annotations

from dataclasses import field

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

MIS_SPLIT_CODES = frozenset(POT_CODES)
"""Codes that say a pot was split wrongly (or its accounting is off); the others say that
play was illegal."""


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

    @property
    def mis_split(self) -> bool:
        return self.code in MIS_SPLIT_CODES
