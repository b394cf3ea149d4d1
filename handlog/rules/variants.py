"""Each game as data: its streets, which cards are face up, the bet size of each street, who
brings in, who acts first later, and how hands are compared. The replay, its fast path, the
holdings, the evaluator's callers, the simulator and the reports read a game's `Variant`
instead of asking which game it is; a new game is a new entry here (and its evaluator, if
its hands are ranked some new way).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from handlog.model import Game, Street

_SEVEN_CARDS = (False, False, True, True, True, True, False)
_FIVE_CARDS = (False, True, True, True, True)


class Lowball(StrEnum):
    """How low hands are ranked."""

    ACE_TO_FIVE = "ace-to-five"
    """Ace low; straights and flushes do not count (razz, stud hi/lo): 5-4-3-2-A is best."""
    ACE_TO_SIX = "ace-to-six"
    """Ace low; straights and flushes count against (London lowball): 6-4-3-2-A is best."""
    DEUCE_TO_SEVEN = "deuce-to-seven"
    """Ace high; straights and flushes count against (2-7 razz): 7-5-4-3-2 is best."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Variant:
    game: Game
    title: str
    """The game as a player names it: "7-card stud hi/lo, 8 or better"."""
    face_up: tuple[bool, ...]
    """Each deal position (two down cards, the door card, …): whether it is dealt face up."""
    first_street: Street
    """The street of the first deal and the first betting round (with the bring-in)."""
    last_street: Street
    big_bet_streets: frozenset[Street]
    """The streets bet at the big bet (fixed limit); the others at the small bet."""
    high: bool
    """The best high hand wins the pot (or its high half)."""
    low: bool
    """The best low (ranked the `lowball` way) wins the pot (or its low half)."""
    low_qualifier: int | None = None
    """The highest card a qualifying low may hold (8 in stud hi/lo); None: any low counts."""
    lowball: Lowball = Lowball.ACE_TO_FIVE
    """How low hands are ranked (in a game with a low)."""
    bring_in_highest: bool = False
    """The highest door card brings in (razz); else the lowest."""
    showing_low: bool = False
    """The lowest showing hand acts first on later streets (razz); else the highest."""
    open_pair_street: Street = Street.FOURTH
    """The street whose open pair allows the double bet (where the profile allows it): the
    second betting round."""

    @property
    def ace_low(self) -> bool:
        """Aces are low when door cards and showing hands are compared: in the ace-low
        lowball games (razz, London lowball); high in every other game, 2-7 razz included."""
        return self.showing_low and self.lowball is not Lowball.DEUCE_TO_SEVEN

    @property
    def split(self) -> bool:
        """The pot is split in a high and a low half."""
        return self.high and self.low

    @property
    def cards(self) -> int:
        """Cards dealt to a player who stays to the end."""
        return len(self.face_up)


_SEVEN_CARD_BIG_BETS = frozenset({Street.FIFTH, Street.SIXTH, Street.SEVENTH})


def _seven_card(
    game: Game,
    title: str,
    *,
    high: bool,
    low: bool,
    low_qualifier: int | None = None,
    lowball: Lowball = Lowball.ACE_TO_FIVE,
    bring_in_highest: bool = False,
    showing_low: bool = False,
) -> Variant:
    """A 7-card game: two down cards and the door card on 3rd street, three up cards and a
    down card after it to 7th, the big bet from 5th street."""
    return Variant(
        game,
        title,
        _SEVEN_CARDS,
        Street.THIRD,
        Street.SEVENTH,
        _SEVEN_CARD_BIG_BETS,
        high=high,
        low=low,
        low_qualifier=low_qualifier,
        lowball=lowball,
        bring_in_highest=bring_in_highest,
        showing_low=showing_low,
    )


def _razz(game: Game, title: str, lowball: Lowball) -> Variant:
    """A 7-card lowball game: the low alone wins, ranked the `lowball` way; the highest door
    card brings in and the lowest showing hand acts first."""
    return _seven_card(
        game, title, high=False, low=True, lowball=lowball, bring_in_highest=True, showing_low=True
    )


VARIANTS: dict[Game, Variant] = {
    variant.game: variant
    for variant in (
        _seven_card(Game.STUD, "7-card stud", high=True, low=False),
        _seven_card(
            Game.STUD8, "7-card stud hi/lo, 8 or better", high=True, low=True, low_qualifier=8
        ),
        _razz(Game.RAZZ, "razz", Lowball.ACE_TO_FIVE),
        Variant(
            Game.STUD5,
            "5-card stud",
            _FIVE_CARDS,
            Street.SECOND,
            Street.FIFTH,
            frozenset({Street.FOURTH, Street.FIFTH}),
            high=True,
            low=False,
            open_pair_street=Street.THIRD,
        ),
        _razz(Game.RAZZ27, "2-7 razz", Lowball.DEUCE_TO_SEVEN),
        _razz(Game.RAZZ_A6, "London lowball (ace-to-six razz)", Lowball.ACE_TO_SIX),
        _seven_card(Game.STUD_HILO, "7-card stud hi/lo, any low", high=True, low=True),
    )
}
"""Every game handlog replays."""

LOW_GAMES = tuple(game for game, variant in VARIANTS.items() if variant.low)
"""Games in which a low hand wins (a half of) the pot: the reports' low statistics."""
SPLIT_GAMES = tuple(game for game, variant in VARIANTS.items() if variant.split)
"""Games whose pots are split high and low: scoops, quartered pots."""
