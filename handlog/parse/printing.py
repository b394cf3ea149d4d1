"""What the text sites' printers share: a hand's events by street, the lines most sites
write alike in their own words (a seat, a street's header, a deal, an action, the total
pot, a seat's showdown in the summary), each site giving only its words.

A site's words for an action are a template per `ActionKind` (`ActionWords`), filled by
`action_line` with the action's fields as the site writes them: a site decides its own
special cases (a raise printed as its size over the bet faced, an all-in worded apart)
and leaves the rest to its table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from handlog.cards import format_cards
from handlog.model import Action, ActionKind, Dealt, Event, Hand, SeatResult, Street

Money = Callable[[int | None], str]
"""A printer's amounts of one hand (`handlog.money.money_writer`)."""

ActionWords = Mapping[ActionKind, str]
"""A site's line for each kind of action, a `str.format` template of the fields `player`,
`amount` (what the action put in), `to` (the street total it made), `all_in` (the site's
all-in words when the action was all in, else ""), `cards` (the action's cards) and
`shown` (" [cards]" when it has cards, else "") and `description` (the hand it shows,
in the site's words)."""


def events_by_street(hand: Hand) -> dict[Street, list[Event]]:
    """The hand's events on each street, in the hand's order."""
    by_street: dict[Street, list[Event]] = {}
    for event in hand.events:
        by_street.setdefault(event.street, []).append(event)
    return by_street


def seat_lines(hand: Hand, money: Money, form: str, sitting_out: str) -> list[str]:
    """The seat list: each seat by `form`, a template of `number`, `name` and `stack`
    ("Seat {number}: {name} ({stack} in chips)"), followed by `sitting_out` for a seat
    sitting out."""
    return [
        form.format(number=seat.number, name=seat.name, stack=money(seat.stack))
        + (sitting_out if seat.sitting_out else "")
        for seat in hand.seats
    ]


def street_header(hand: Hand, street: Street, headers: Mapping[Street, str]) -> str | None:
    """A street's header line as `headers` give it, the community card after 7th street's
    ("*** RIVER *** [Kd]"); None for a street with no header (the antes)."""
    header = headers.get(street)
    if header is not None and street is Street.SEVENTH and hand.community_card is not None:
        return f"{header} [{hand.community_card}]"
    return header


def dealt_line(event: Dealt) -> str:
    """ "Dealt to NAME [cards]", with the cards it repeats first when it has any:
    "Dealt to NAME [earlier] [new]"."""
    if event.previous:
        return (
            f"Dealt to {event.player} [{format_cards(event.previous)}] [{format_cards(event.new)}]"
        )
    return f"Dealt to {event.player} [{format_cards(event.new)}]"


def action_line(
    action: Action,
    words: ActionWords,
    money: Money,
    all_in: str,
    site: str,
    described: str = " ({})",
) -> str:
    """An action's line in `words` (its kind's template filled; see `ActionWords`), its
    `description` field the action's description by `described` (or "" for none); a
    `ValueError` naming `site` for a kind it has no line for."""
    template = words.get(action.kind)
    if template is None:
        raise ValueError(f"{site} prints no {action.kind.value} line")
    shown = format_cards(action.cards) if action.cards else ""
    return template.format(
        player=action.player,
        amount=money(action.amount),
        to=money(action.to_amount),
        all_in=all_in if action.all_in else "",
        cards=shown,
        shown=f" [{shown}]" if shown else "",
        description="" if action.description is None else described.format(action.description),
    )


def total_pot_line(hand: Hand, money: Money, side_pot: Callable[[int, bool], str]) -> str:
    """ "Total pot $X | Rake $Y", with the main and side pots when the hand has them ("Total
    pot $X Main pot $M. Side pot $S. | Rake $Y"); `side_pot` names a side pot by its number
    and whether there are several ("Side pot-2")."""
    text = f"Total pot {money(hand.total_pot)}"
    if hand.main_pot is not None:
        text += f" Main pot {money(hand.main_pot)}."
        several = len(hand.side_pots) > 1
        for number, side in enumerate(hand.side_pots, 1):
            text += f" {side_pot(number, several)} {money(side)}."
    return f"{text} | Rake {money(hand.rake)}"


def showed_line(start: str, result: SeatResult, won: str) -> str:
    """A summary's seat that showed: `start` (the seat and the player) "showed [cards] and"
    `won` (its words for what the seat won) or "lost", and " with" the hand's description
    when the record has one."""
    outcome = won if result.won is not None else "lost"
    description = f" with {result.description}" if result.description is not None else ""
    return f"{start} showed [{format_cards(result.showed)}] and {outcome}{description}"
