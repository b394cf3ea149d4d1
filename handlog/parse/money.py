"""Amounts as printed ("$1,234.50", "€0.04", "2500") to integer minor units, and the bounds
of the figures a hand history holds (amounts, seat numbers): a figure beyond them can only be
damage, and is an error of its line rather than a number the replay or the store chokes on."""

from __future__ import annotations

CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
CURRENCY_SIGNS = {code: sign for sign, code in CURRENCY_SYMBOLS.items()}
"""The other way round: "USD" -> "$"."""

MAX_AMOUNT = 10**15
"""The largest amount read, in minor units: ten trillion dollars in cents, a quadrillion
chips, far above any stake, stack or pot a site deals (the biggest tournament stacks run to
billions of chips), so that an amount above it can only be damage; and far inside a
64-bit integer (9.2 * 10**18, DuckDB's BIGINT), so that the sums of a hand's amounts (a few
hundred of them at most) stay inside it too. Larger figures are a `MoneyError`, which a
reader turns into a parse error naming the line."""

MAX_SEAT_NUMBER = 99
"""The largest seat number read: tables seat ten at most and sites number their seats from 0
or 1; a seat number of three digits or more can only be damage."""

_CACHE: dict[str, int] = {}


class FigureError(ValueError):
    """A figure that is not one a site prints there: not a number, or one no stake, stack or
    table could reach."""


class MoneyError(FigureError):
    """An amount that is none, or one no stake could reach."""


def bounded(value: int, text: str) -> int:
    """`value`, read from `text`, unless it is above `MAX_AMOUNT` (a `MoneyError` then)."""
    if value > MAX_AMOUNT:
        raise MoneyError(f"{text!r} is larger than any amount a site deals")
    return value


def seat_number(text: str) -> int:
    """A seat number as printed ("3"), a `FigureError` for one no table has."""
    if not plain_digits(text) or int(text) > MAX_SEAT_NUMBER:
        raise FigureError(f"seat {text!r} is not a seat of any table")
    return int(text)


def small_number(text: str) -> int:
    """A count or a number of the table (a table's size, a side pot's number) as printed,
    a `FigureError` for one above `MAX_SEAT_NUMBER` (a table has no more seats, a hand no
    more pots than players)."""
    if not plain_digits(text) or int(text) > MAX_SEAT_NUMBER:
        raise FigureError(f"{text!r} is not a number of seats or pots")
    return int(text)


def minor_units(text: str) -> int:
    """Cents for an amount with a currency symbol ("$0.04" → 4, "$400" → 40000), chips for
    one without ("2,500" → 2500). Amounts repeat a great deal, so results are cached."""
    value = _CACHE.get(text)
    if value is None:
        value = _convert(text)
        if len(_CACHE) > 100_000:
            _CACHE.clear()
        _CACHE[text] = value
    return value


def _convert(text: str) -> int:
    digits = text.replace(",", "")
    money = digits[:1] in CURRENCY_SYMBOLS
    if money:
        digits = digits[1:]
    whole, dot, fraction = digits.partition(".")
    if not plain_digits(whole) or (dot and not plain_digits(fraction)):
        raise MoneyError(f"{text!r} is not an amount")
    if not money:
        if dot and fraction.strip("0"):
            raise MoneyError(f"{text!r} has a fraction of a chip")
        return bounded(int(whole), text)
    if len(fraction) > 2 and fraction[2:].strip("0"):
        raise MoneyError(f"{text!r} has a fraction of a cent")
    return bounded(int(whole) * 100 + int((fraction + "00")[:2]), text)


def plain_digits(text: str) -> bool:
    """Whether `text` is ASCII digits only (`str.isdigit` also takes "²" and "٣", which
    `int` refuses or reads as digits no site prints), and few enough of them for `int` to
    read quickly (a figure of thousands of digits is refused by the length alone)."""
    return text.isdigit() and text.isascii() and len(text) <= _MAX_DIGITS


_MAX_DIGITS = 40


def format_amount(value: int, symbol: str | None) -> str:
    """The inverse of `minor_units` for PokerStars text: "$0.04", "$400", "2500"."""
    if symbol is None:
        return str(value)
    sign = "-" if value < 0 else ""
    whole, cents = divmod(abs(value), 100)
    if cents:
        return f"{sign}{symbol}{whole}.{cents:02d}"
    return f"{sign}{symbol}{whole}"


def hundredths(text: str) -> int:
    """An amount printed without a currency sign, in hundredths, for sites whose chips come
    in hundredths ("12,686.25" → 1268625, "440" → 44000); a third decimal is an error."""
    value = _CACHE.get("%" + text)
    if value is None:
        digits = text.replace(",", "")
        whole, dot, fraction = digits.partition(".")
        if not plain_digits(whole) or (dot and not plain_digits(fraction)):
            raise MoneyError(f"{text!r} is not an amount")
        if len(fraction) > 2 and fraction[2:].strip("0"):
            raise MoneyError(f"{text!r} has a fraction of a hundredth")
        value = bounded(int(whole) * 100 + int((fraction + "00")[:2]), text)
        if len(_CACHE) > 100_000:
            _CACHE.clear()
        _CACHE["%" + text] = value
    return value


def format_hundredths(value: int) -> str:
    """The inverse of `hundredths`, with thousands separators: "1,268,625.25", "440",
    "-16.58"."""
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 100)
    return f"{sign}{whole:,}.{rest:02d}" if rest else f"{sign}{whole:,}"
