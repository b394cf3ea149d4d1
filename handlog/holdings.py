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
    """`player_cards` as plain lists (None for a card never seen)."""
    return holdings(hand).slots


def _put_from_start(row: list[Card | None], cards: tuple[Card, ...], size: int) -> None:
    """Put `cards` in `row` from its first position on, where no card was seen before."""
    for position, card in enumerate(cards[:size]):
        if row[position] is None:
            row[position] = card


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
    """Who was in the hand and whose cards it shows: the players dealt in (anted, dealt a
    card or acted: any action or dealing line of theirs; a seat that sat out has none),
    those whose dealing lines show a face-down card of theirs, and the hand's hero (the one
    such player; None if none or several are: Bovada's and iPoker's exports show every
    player's at times, and a file's hero is then the player whose cards its hands show most
    often: `handlog.players.heroes`)."""
    found = holdings(hand)
    return found.dealt, found.shown_down, found.hero


class Holdings:
    """What a hand's events say of its players, gathered in one pass (`holdings`): each
    player's cards by deal position (`slots`: None for a card never seen; `card_slots`),
    who was dealt in, whose face-down cards the dealing lines show and the hero
    (`seat_roles`), who showed cards (`showed`: by a show action or in the summary), and
    the hand's actions in order (`actions`). The import builds every hand's rows from it:
    one pass over the events where four took turns (rows 28 -> 22 us a hand, compiled)."""

    def __init__(
        self,
        slots: dict[str, list[Card | None]],
        dealt: set[str],
        shown_down: set[str],
        hero: str | None,
        showed: set[str],
        actions: list[Action],
    ) -> None:
        self.slots = slots
        self.dealt = dealt
        self.shown_down = shown_down
        self.hero = hero
        self.showed = showed
        self.actions = actions


def holdings(hand: Hand) -> Holdings:
    """The hand's `Holdings`, in one pass over its events and results (written out: every
    hand of an import goes through here). A card seen twice in the same position keeps its
    first sighting (the replay reports any disagreement)."""
    game = hand.game
    layout = FACE_UP[game]
    size = len(layout)
    slots: dict[str, list[Card | None]] = {seat.name: [None] * size for seat in hand.seats}
    first = FIRST_STREET[game]
    door = layout.index(True)
    down = _DOWN_POSITIONS[game]
    up_by = _UP_BY[game]
    dealt: set[str] = set()
    shown_down: set[str] = set()
    showed: set[str] = set()
    actions: list[Action] = []
    for event in hand.events:
        if isinstance(event, Action):
            actions.append(event)
            player = event.player
            dealt.add(player)
            if event.cards and event.kind in _SHOWING:
                if event.kind is ActionKind.SHOW:
                    showed.add(player)
                row = slots.get(player)
                if row is not None:
                    _put_from_start(row, event.cards, size)
        elif isinstance(event, Dealt):
            player = event.player
            new = event.new
            previous = event.previous
            if new or previous or event.hidden:
                dealt.add(player)
            row = slots.get(player)
            if event.street == first:
                if len(new) > 1:  # the door card and more: face-down cards shown
                    shown_down.add(player)
                if row is None:
                    continue
                if len(new) == 1:
                    if row[door] is None:
                        row[door] = new[0]
                else:
                    _put_from_start(row, new, size)
            else:
                position = street_slot(event.street)
                if new and (
                    position in down
                    or (position < len(up_by) and len(previous) + len(new) > up_by[position])
                ):
                    shown_down.add(player)
                if row is None:
                    continue
                own = previous + new
                # The hero's lines repeat every card; opponents' only the face-up ones.
                if len(own) == position + 1:
                    _put_from_start(row, own, size)
                else:
                    card = new[-1]
                    if 0 <= position < size and row[position] is None:
                        row[position] = card
    for result in hand.results:
        if result.showed:
            showed.add(result.player)
        cards = result.showed or result.mucked
        row = slots.get(result.player)
        if cards and row is not None:
            _put_from_start(row, cards, size)
    hero = next(iter(shown_down)) if len(shown_down) == 1 else None
    return Holdings(slots, dealt, shown_down, hero, showed, actions)
