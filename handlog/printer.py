"""Writing a `Hand` back as PokerStars text: the printer now stands with its reader, in
`handlog.parse.sites.pokerstars` (one module a site, reader and printer); these names stay
for code written against them."""

from __future__ import annotations

from handlog.parse.sites.pokerstars import (
    STREET_HEADERS,
    SUMMARY_STREET_NAMES,
    clock,
    print_hand,
    print_hands,
)

__all__ = ["STREET_HEADERS", "SUMMARY_STREET_NAMES", "clock", "print_hand", "print_hands"]
