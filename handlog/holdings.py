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


_DOWN_POSITIONS = {
    game: frozenset(i for i, up in enumerate(variant.face_up) if not up)
    for game, variant in VARIANTS.items()
}
"""The deal positions of each game's face-down cards."""
_UP_BY = {
    game: tuple(sum(variant.face_up[: position + 1]) for position in range(len(variant.face_up)))
    for game, variant in VARIANTS.items()
}
"""Face-up cards dealt up to and including each deal position."""


def seat_roles(hand: Hand) -> tuple[set[str], set[str], str | None]:
    """Who was in the hand and whose cards it shows, in one pass over the events: the
    players dealt in (anted, dealt a card or acted: any action or dealing line of theirs; a
    seat that sat out has none), those whose dealing lines show a face-down card of theirs,
    and the hand's hero (the one such player; None if none or several are: Bovada's and
    iPoker's exports show every player's at times, and a file's hero is then the player
    whose cards its hands show most often: `handlog.players.heroes`)."""
    dealt: set[str] = set()
    shown_down: set[str] = set()
    first = FIRST_STREET[hand.game]
    down = _DOWN_POSITIONS[hand.game]
    up_by = _UP_BY[hand.game]
    for event in hand.events:
        if isinstance(event, Action):
            dealt.add(event.player)
        elif isinstance(event, Dealt):
            if event.new or event.previous or event.hidden:
                dealt.add(event.player)
            if event.street == first:
                if len(event.new) > 1:  # the door card and more: face-down cards shown
                    shown_down.add(event.player)
            elif event.new:
                position = int(event.street) - 1
                if position in down or (
                    position < len(up_by) and len(event.previous) + len(event.new) > up_by[position]
                ):
                    shown_down.add(event.player)
    hero = next(iter(shown_down)) if len(shown_down) == 1 else None
    return dealt, shown_down, hero
