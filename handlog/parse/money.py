"""Amounts as printed ("$1,234.50", "€0.04", "2500") to integer minor units."""

from __future__ import annotations

CURRENCY_SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
CURRENCY_SIGNS = {code: sign for sign, code in CURRENCY_SYMBOLS.items()}
"""The other way round: "USD" -> "$"."""

_CACHE: dict[str, int] = {}


class MoneyError(ValueError):
    pass


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
    if not whole.isdigit() or (dot and not fraction.isdigit()):
        raise MoneyError(f"{text!r} is not an amount")
    if not money:
        if dot and fraction.strip("0"):
            raise MoneyError(f"{text!r} has a fraction of a chip")
        return int(whole)
    if len(fraction) > 2 and fraction[2:].strip("0"):
        raise MoneyError(f"{text!r} has a fraction of a cent")
    return int(whole) * 100 + int((fraction + "00")[:2])


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
        if not whole.isdigit() or (dot and not fraction.isdigit()):
            raise MoneyError(f"{text!r} is not an amount")
        if len(fraction) > 2 and fraction[2:].strip("0"):
            raise MoneyError(f"{text!r} has a fraction of a hundredth")
        value = int(whole) * 100 + int((fraction + "00")[:2])
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
