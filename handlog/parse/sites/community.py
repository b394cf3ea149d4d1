"""The community card, for the formats that have no line of their own for it.

When 7th street would need more cards than the deck holds, one card is dealt face up to
every player left (`Hand.community_card`). PokerStars and Full Tilt print it on the river's
header; Bovada, Everleaf, OnGame and Absolute have no form for it in any export seen, so
their printers deal it to each player left on the river, one dealing line each (the same
card every time), and their parsers read such a river back as the community card. Two
players cannot be dealt one card otherwise, so nothing else reads that way."""

from __future__ import annotations

from handlog import model
from handlog.cards import Card


def river_players(hand: model.Hand) -> list[str]:
    """The players the community card is dealt to: those dealt 6th street who did not fold
    before 7th, in the order of their 6th-street dealing lines."""
    folded = {
        event.player
        for event in hand.events
        if type(event) is model.Action
        and event.kind is model.ActionKind.FOLD
        and event.street < model.Street.SEVENTH
    }
    players: list[str] = []
    for event in hand.events:
        if (
            type(event) is model.Dealt
            and event.street is model.Street.SIXTH
            and event.player not in folded
            and event.player not in players
        ):
            players.append(event.player)
    return players


def community_card(events: list[model.Event]) -> Card | None:
    """The community card, if the river's dealing lines (two or more) all deal one and the
    same card."""
    river = [
        event
        for event in events
        if type(event) is model.Dealt and event.street is model.Street.SEVENTH
    ]
    if len(river) < 2:
        return None
    first = river[0].new
    if len(first) != 1:
        return None
    for dealt in river:
        if dealt.new != first:
            return None
    return first[0]


def without_river_deals(events: list[model.Event]) -> list[model.Event]:
    """The events without the river's dealing lines (those of a community card)."""
    return [
        event
        for event in events
        if not (type(event) is model.Dealt and event.street is model.Street.SEVENTH)
    ]
