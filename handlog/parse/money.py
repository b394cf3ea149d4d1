"""The money module's names where the readers first had them: `handlog.money` is the module
(below both the readers and the rules); this name stays for code written against it."""

from __future__ import annotations

from handlog.money import (
    CURRENCY_SIGNS,
    CURRENCY_SYMBOLS,
    MAX_AMOUNT,
    MAX_SEAT_NUMBER,
    FigureError,
    MoneyError,
    bounded,
    format_amount,
    format_hundredths,
    hundredths,
    minor_units,
    plain_digits,
    seat_number,
    small_number,
)

__all__ = [
    "CURRENCY_SIGNS",
    "CURRENCY_SYMBOLS",
    "MAX_AMOUNT",
    "MAX_SEAT_NUMBER",
    "FigureError",
    "MoneyError",
    "bounded",
    "format_amount",
    "format_hundredths",
    "hundredths",
    "minor_units",
    "plain_digits",
    "seat_number",
    "small_number",
]
