"""Each player's cards by deal position, gathered from a hand's dealing, show and summary
lines: what is known, what stayed hidden, which cards were dealt face up."""

from __future__ import annotations

from handlog.cards import Card
from handlog.model import Action, ActionKind, Dealt, Hand, PlayerCards, Street
from handlog.rules.variants import VARIANTS

FACE_UP = {game: variant.face_up for game, variant in VARIANTS.items()}
"""Which deal positions are face up in each game (`Variant.face_up`)."""

FIRST_STREET = {game: variant.first_street for game, variant in VARIANTS.items()}


_SHOWING = (ActionKind.SHOW, ActionKind.MUCK)


def street_slot(street: Street) -> int:
    """The deal position of the one card dealt on a street after the first (the n-th
    street deals the n-th card, in 7-card and 5-card stud alike)."""
    return int(street) - 1


def player_cards(hand: Hand) -> dict[str, PlayerCards]:
    """Known cards for every seated player, by deal position. A card seen twice in the same
    position keeps its first sighting (the replay reports any disagreement)."""
    layout = FACE_UP[hand.game]
    return {name: PlayerCards(name, tuple(row), layout) for name, row in card_slots(hand).items()}


def card_slots(hand: Hand) -> dict[str, list[Card | None]]:
    """`player_cards` as plain lists (None for a card never seen), for the import's hot
    path: every hand of an import goes through here, so the loops are written out."""
    layout = FACE_UP[hand.game]
    size = len(layout)
    slots: dict[str, list[Card | None]] = {seat.name: [None] * size for seat in hand.seats}
    first = FIRST_STREET[hand.game]
    door = layout.index(True)

    def put_from_start(row: list[Card | None], cards: tuple[Card, ...]) -> None:
        for position, card in enumerate(cards[:size]):
            if row[position] is None:
                row[position] = card

    for event in hand.events:
        if isinstance(event, Dealt):
            row = slots.get(event.player)
            if row is None:
                continue
            new = event.new
            if event.street == first:
                if len(new) == 1:
                    if row[door] is None:
                        row[door] = new[0]
                else:
                    put_from_start(row, new)
            else:
                position = street_slot(event.street)
                own = event.previous + new
                # The hero's lines repeat every card; opponents' only the face-up ones.
                if len(own) == position + 1:
                    put_from_start(row, own)
                else:
                    card = new[-1]
                    if 0 <= position < size and row[position] is None:
                        row[position] = card
        elif isinstance(event, Action) and event.kind in _SHOWING and event.cards:
            row = slots.get(event.player)
            if row is not None:
                put_from_start(row, event.cards)
    for result in hand.results:
        cards = result.showed or result.mucked
        row = slots.get(result.player)
        if cards and row is not None:
            put_from_start(row, cards)
    return slots
