"""Each player's cards by deal position, gathered from a hand's dealing, show and summary
lines: what is known, what stayed hidden, which cards were dealt face up."""

from __future__ import annotations

from handlog.cards import Card
from handlog.model import Action, ActionKind, Dealt, Game, Hand, PlayerCards, Street

FACE_UP = {
    Game.STUD: (False, False, True, True, True, True, False),
    Game.STUD8: (False, False, True, True, True, True, False),
    Game.RAZZ: (False, False, True, True, True, True, False),
    Game.STUD5: (False, True, True, True, True),
}
"""Which deal positions are face up in each game."""

FIRST_STREET = {
    Game.STUD: Street.THIRD,
    Game.STUD8: Street.THIRD,
    Game.RAZZ: Street.THIRD,
    Game.STUD5: Street.SECOND,
}


_SHOWING = (ActionKind.SHOW, ActionKind.MUCK)


def street_slot(street: Street) -> int:
    """The deal position of the one card dealt on a street after the first (the n-th
    street deals the n-th card, in 7-card and 5-card stud alike)."""
    return int(street) - 1


def player_cards(hand: Hand) -> dict[str, PlayerCards]:
    """Known cards for every seated player, by deal position. A card seen twice in the same
    position keeps its first sighting (the replay reports any disagreement)."""
    layout = FACE_UP[hand.game]
    size = len(layout)
    slots: dict[str, list[Card | None]] = {seat.name: [None] * size for seat in hand.seats}
    first = FIRST_STREET[hand.game]
    door = layout.index(True)

    def put(player: str, position: int, card: Card) -> None:
        row = slots.get(player)
        if row is not None and 0 <= position < size and row[position] is None:
            row[position] = card

    for event in hand.events:
        if type(event) is Dealt:
            if event.street == first:
                if len(event.new) == 1:
                    put(event.player, door, event.new[0])
                else:
                    for position, card in enumerate(event.new):
                        put(event.player, position, card)
            else:
                position = street_slot(event.street)
                own = event.previous + event.new
                # The hero's lines repeat every card; opponents' only the face-up ones.
                if len(own) == position + 1:
                    for index, card in enumerate(own):
                        put(event.player, index, card)
                else:
                    put(event.player, position, event.new[-1])
        elif type(event) is Action and event.kind in _SHOWING and event.cards:
            for position, card in enumerate(event.cards):
                put(event.player, position, card)
    for result in hand.results:
        for position, card in enumerate(result.showed or result.mucked):
            put(result.player, position, card)
    return {name: PlayerCards(name, tuple(row), layout) for name, row in slots.items()}
