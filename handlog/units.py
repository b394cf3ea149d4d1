"""The unit of every amount: what a hand's money is counted in.

A hand's amounts are integers (`handlog.model`: minor units of a currency, or chips) and mean
nothing without their unit. There are four kinds, and amounts of two units are never added,
drawn on one line or one axis, or shown in one row:

* a currency, by its ISO code ("USD", "EUR"): amounts in its minor units (cents);
* `tournament chips`: whole chips of a tournament;
* `play money`: whole chips of a cash table without a currency;
* `chips in hundredths`: chips counted in hundredths (KingsClub's club chips, Winamax play
  money: "12,686.25").

The store keeps each hand's unit (`hands.unit`, `unit_of`); `UNIT_SQL` derives the same from a
hand's columns (the migration of older databases uses it).
"""

from __future__ import annotations

from handlog.parse.money import CURRENCY_SIGNS

TOURNAMENT_CHIPS = "tournament chips"
PLAY_MONEY = "play money"
HUNDREDTHS = "chips in hundredths"

CHIP_UNITS = (TOURNAMENT_CHIPS, PLAY_MONEY, HUNDREDTHS)
"""The units that are not a currency."""

_OLD_NAMES = {"chips": TOURNAMENT_CHIPS, "chips/100": HUNDREDTHS}
"""Names reports used before (schema 6): read as today's."""


def unit_of(currency: str | None, tournament: bool, chips_in_hundredths: bool) -> str:
    """The unit of a hand's amounts (see the module doc). Chips in hundredths first: their
    scale is what a reader must know, tournament or not."""
    if chips_in_hundredths:
        return HUNDREDTHS
    if tournament:
        return TOURNAMENT_CHIPS
    return currency or PLAY_MONEY


UNIT_SQL = (
    f"CASE WHEN chips_in_hundredths THEN '{HUNDREDTHS}' "
    f"WHEN tournament_id IS NOT NULL THEN '{TOURNAMENT_CHIPS}' "
    f"ELSE coalesce(currency, '{PLAY_MONEY}') END"
)
"""`unit_of` in SQL over a `hands` row (for databases stored before `hands.unit`)."""


def describe(unit: str) -> str:
    """What a unit is, in a few words, for the definitions beside a report's tables."""
    unit = _OLD_NAMES.get(unit, unit)
    if unit == TOURNAMENT_CHIPS:
        return "tournament chips (whole chips)"
    if unit == PLAY_MONEY:
        return "play money (whole chips of a table without a currency)"
    if unit == HUNDREDTHS:
        return "chips counted in hundredths (KingsClub's club chips, Winamax play money)"
    sign = CURRENCY_SIGNS.get(unit)
    return f"{unit} ({sign})" if sign else unit


def money(value: float | int | None, unit: str | None) -> str:
    """An amount in its unit's minor units, for people: "$1.25", "-€0.04", "1,500" (whole
    chips), "12,686.25" (chips in hundredths), "1.25 CHF" (a currency without a sign)."""
    if value is None:
        return ""
    unit = _OLD_NAMES.get(unit, unit) if unit is not None else None
    if unit is None or unit in (TOURNAMENT_CHIPS, PLAY_MONEY):
        return f"{round(value):,}"
    minus = "-" if value < 0 else ""
    amount = f"{abs(value) / 100:,.2f}"
    if unit == HUNDREDTHS:
        return f"{minus}{amount}"
    sign = CURRENCY_SIGNS.get(unit)
    return f"{minus}{sign}{amount}" if sign else f"{minus}{amount} {unit}"


def in_major_units(value: float, unit: str) -> float:
    """An amount as a chart draws it: dollars (not cents), chips, hundredths as chips."""
    unit = _OLD_NAMES.get(unit, unit)
    if unit in (TOURNAMENT_CHIPS, PLAY_MONEY):
        return value
    return value / 100
