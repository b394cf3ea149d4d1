"""Playing cards: ranks, suits and the 52 interned `Card` values, parsed from text like "Kd 4s"."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"  # also the suit order for bring-in and first-actor tie-breaks: c < d < h < s

RANK_NAMES = {
    2: "Deuce",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
    11: "Jack",
    12: "Queen",
    13: "King",
    14: "Ace",
}


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card. There are exactly 52 instances (`DECK`), so equality and hashing
    are by identity, which is as fast as Python gets; pickling keeps the identity."""

    rank: int
    """2..14, ace high (14). Low-hand code maps the ace to 1 itself."""
    suit: int
    """0 clubs, 1 diamonds, 2 hearts, 3 spades (the tie-break order)."""

    @property
    def index(self) -> int:
        """0..51, ordered by rank then suit: 2c=0, 2d=1, ..., As=51."""
        return (self.rank - 2) * 4 + self.suit

    @property
    def suit_char(self) -> str:
        return SUIT_CHARS[self.suit]

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self.rank - 2]

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return card, (str(self),)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in range(4))
"""All 52 cards, in `Card.index` order."""

_BY_TEXT: dict[str, Card] = {str(card): card for card in DECK}
_TEXT: dict[Card, str] = {card: str(card) for card in DECK}
# Some exports (and people) write tens as "10" and use lower-case ranks; accept both.
for _card in DECK:
    _BY_TEXT[_card.rank_char.lower() + _card.suit_char] = _card
    if _card.rank == 10:
        _BY_TEXT["10" + _card.suit_char] = _card


class CardError(ValueError):
    """Raised for text that is not a card; the message names the bad token."""


def card(text: str) -> Card:
    """The card written as `text` ("Kd", "Td", "10d"), or `CardError`."""
    try:
        return _BY_TEXT[text]
    except KeyError:
        raise CardError(
            f"{text!r} is not a card (a card is a rank 2-9, T, J, Q, K or A and a suit c, d, h or s)"
        ) from None


@lru_cache(maxsize=1 << 17)
def cards(text: str) -> tuple[Card, ...]:
    """The cards in a space-separated string such as "Kd 4s Ac"; empty text gives ().
    Results are cached (the least recently used go first): parsers read the same short
    card strings over and over. Text that is not cards raises `CardError` each time."""
    return tuple([card(token) for token in text.split()])


def format_cards(items: tuple[Card, ...] | list[Card]) -> str:
    """The inverse of `cards`: "Kd 4s Ac"."""
    text = _TEXT
    return " ".join([text[item] for item in items])
