"""Each game as data: its streets, which cards are face up, the bet size of each street, who
brings in, who acts first later, and how hands are compared. The replay, its fast path, the
holdings, the evaluator's callers, the simulator and the reports read a game's `Variant`
instead of asking which game it is; a new game is a new entry here (and its evaluator, if
its hands are ranked some new way).
"""

from __future__ import annotations

from dataclasses import dataclass

from handlog.model import Game, Street

_SEVEN_CARDS = (False, False, True, True, True, True, False)
_FIVE_CARDS = (False, True, True, True, True)


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
    """The best ace-to-five low wins the pot (or its low half)."""
    low_qualifier: int | None = None
    """The highest card a qualifying low may hold (8 in stud hi/lo); None: any low counts."""
    bring_in_highest: bool = False
    """The highest door card brings in (razz); else the lowest."""
    showing_low: bool = False
    """The lowest showing hand acts first on later streets (razz); else the highest."""

    @property
    def split(self) -> bool:
        """The pot is split in a high and a low half."""
        return self.high and self.low

    @property
    def cards(self) -> int:
        """Cards dealt to a player who stays to the end."""
        return len(self.face_up)


VARIANTS: dict[Game, Variant] = {
    variant.game: variant
    for variant in (
        Variant(
            Game.STUD,
            "7-card stud",
            _SEVEN_CARDS,
            Street.THIRD,
            Street.SEVENTH,
            frozenset({Street.FIFTH, Street.SIXTH, Street.SEVENTH}),
            high=True,
            low=False,
        ),
        Variant(
            Game.STUD8,
            "7-card stud hi/lo, 8 or better",
            _SEVEN_CARDS,
            Street.THIRD,
            Street.SEVENTH,
            frozenset({Street.FIFTH, Street.SIXTH, Street.SEVENTH}),
            high=True,
            low=True,
            low_qualifier=8,
        ),
        Variant(
            Game.RAZZ,
            "razz",
            _SEVEN_CARDS,
            Street.THIRD,
            Street.SEVENTH,
            frozenset({Street.FIFTH, Street.SIXTH, Street.SEVENTH}),
            high=False,
            low=True,
            bring_in_highest=True,
            showing_low=True,
        ),
        Variant(
            Game.STUD5,
            "5-card stud",
            _FIVE_CARDS,
            Street.SECOND,
            Street.FIFTH,
            frozenset({Street.FOURTH, Street.FIFTH}),
            high=True,
            low=False,
        ),
    )
}
"""Every game handlog replays."""

LOW_GAMES = tuple(game for game, variant in VARIANTS.items() if variant.low)
"""Games in which a low hand wins (a half of) the pot: the reports' low statistics."""
SPLIT_GAMES = tuple(game for game, variant in VARIANTS.items() if variant.split)
"""Games whose pots are split high and low: scoops, quartered pots."""
