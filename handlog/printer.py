"""Writing a `Hand` back as PokerStars text, in the shapes `grammars/pokerstars.lark` reads.

Parsing the printed text gives a hand equal to the original (sources aside), and printing
is deterministic. Spellings the records do not keep (a PokerTracker upper-cased header, a
missing currency code) come out in PokerStars' own current form."""

from __future__ import annotations

from handlog.cards import format_cards
from handlog.model import Action, ActionKind, Dealt, Hand, Note, NoteKind, SeatResult, Site, Street
from handlog.parse.money import CURRENCY_SIGNS, format_amount
from handlog.parse.sites.pokerstars import GAME_NAMES, pot_label
from handlog.parse.text import printed_clock

STREET_HEADERS = {
    Street.SECOND: "*** 2nd STREET ***",
    Street.THIRD: "*** 3rd STREET ***",
    Street.FOURTH: "*** 4th STREET ***",
    Street.FIFTH: "*** 5th STREET ***",
    Street.SIXTH: "*** 6th STREET ***",
    Street.SEVENTH: "*** RIVER ***",
    Street.SHOWDOWN: "*** SHOW DOWN ***",
}
SUMMARY_STREET_NAMES = {
    Street.SECOND: "2nd Street",
    Street.THIRD: "3rd Street",
    Street.FOURTH: "4th Street",
    Street.FIFTH: "5th Street",
    Street.SIXTH: "6th Street",
    Street.SEVENTH: "River",
}
_MONEY: dict[str | None, dict[int, str]] = {}
"""Amounts as printed, by currency sign: hands repeat the same few amounts."""


def print_hands(hands: list[Hand]) -> str:
    """Several hands as one file's text, separated by blank lines as PokerStars does."""
    return "\n\n\n".join(print_hand(hand) for hand in hands) + "\n"


def print_hand(hand: Hand) -> str:
    """One hand as PokerStars text, without a trailing newline."""
    symbol = CURRENCY_SIGNS.get(hand.currency) if hand.currency else None
    known = _MONEY.setdefault(symbol, {})
    if len(known) > 100_000:
        known.clear()

    def money(value: int | None) -> str:
        text = known.get(value or 0)
        if text is None:
            text = known[value or 0] = format_amount(value or 0, symbol)
        return text

    if hand.max_seats is None and hand.site is Site.POKERSTARS:
        table = f"Table '{hand.table}'"  # as PokerStars wrote it before 2006: no size
    else:
        table = f"Table '{hand.table}' {hand.max_seats or 8}-max"
    lines = [_header(hand, money), table]
    for seat in hand.seats:
        tail = " is sitting out" if seat.sitting_out else ""
        lines.append(f"Seat {seat.number}: {seat.name} ({money(seat.stack)} in chips){tail}")
    by_street: dict[Street, list[Action | Dealt | Note]] = {}
    for event in hand.events:
        by_street.setdefault(event.street, []).append(event)
    side_pots = len(hand.side_pots)
    for street in (Street.ANTES, *hand.streets):
        if street is Street.SEVENTH and hand.community_card is not None:
            lines.append(f"*** RIVER *** [{hand.community_card}]")
        elif street in STREET_HEADERS:
            lines.append(STREET_HEADERS[street])
        current_bet = 0  # the bet to match on this street, for raise sizes not recorded
        for event in by_street.get(street, ()):
            lines.append(_event(event, money, current_bet, side_pots))
            if type(event) is Action and event.to_amount is not None:
                current_bet = max(current_bet, event.to_amount)
    lines.append("*** SUMMARY ***")
    lines.append(_total_pot(hand, money))
    if hand.community_card is not None:
        lines.append(f"Board [{hand.community_card}]")
    lines.extend(_result(result, money) for result in hand.results)
    lines.extend(_event(event, money, 0, side_pots) for event in by_street.get(Street.SUMMARY, ()))
    return "\n".join(lines)


def clock(hand: Hand) -> str:
    """The clock as printed, or (for a hand built without text) PokerStars' Eastern-time
    clock from its start time, e.g. "2024/01/01 13:19:27 ET"."""
    return printed_clock(hand, Site.POKERSTARS, "ET", "{t:%Y/%m/%d} {t.hour}:{t:%M:%S} ET")


def _header(hand: Hand, money) -> str:  # type: ignore[no-untyped-def]
    if hand.home_game is not None:
        start = "PokerStars Home Game Hand #"
    elif hand.header_variant == "game":  # the older form; "hand" and none: today's
        start = "PokerStars Game #"
    else:
        start = "PokerStars Hand #"
    name = GAME_NAMES[hand.game, hand.structure]
    club = f"{{{hand.home_game}}} " if hand.home_game is not None else ""
    if hand.tournament_id is not None:
        game = f"{hand.mixed_game} ({name})" if hand.mixed_game else name
        return (
            f"{start}{hand.hand_id}: {club}Tournament #{hand.tournament_id}, {hand.buy_in} {game}"
            f" - {hand.tournament_level} ({hand.small_bet}/{hand.big_bet}) - {clock(hand)}"
        )
    stakes = f"{money(hand.small_bet)}/{money(hand.big_bet)}"
    if hand.currency:
        stakes += f" {hand.currency}"
    game = f"{hand.mixed_game} ({name}, {stakes})" if hand.mixed_game else f"{name} ({stakes})"
    return f"{start}{hand.hand_id}:  {club}{game} - {clock(hand)}"


def _event(event: Action | Dealt | Note, money, current_bet: int, side_pots: int) -> str:  # type: ignore[no-untyped-def]
    if type(event) is Dealt:
        if event.previous:
            return f"Dealt to {event.player} [{format_cards(event.previous)}] [{format_cards(event.new)}]"
        return f"Dealt to {event.player} [{format_cards(event.new)}]"
    if type(event) is Note:
        if event.kind is NoteKind.CHAT:
            return f'{event.player} said, "{event.text}"'
        return event.text
    assert type(event) is Action
    return _action(event, money, current_bet, side_pots)


def _action(action: Action, money, current_bet: int, side_pots: int) -> str:  # type: ignore[no-untyped-def]
    """One action line; `current_bet` is the bet it faced (PokerStars prints a raise as its
    size over that bet, then the street total), `side_pots` how many side pots the hand has."""
    player = action.player
    all_in = " and is all-in" if action.all_in else ""
    kind = action.kind
    if kind is ActionKind.ANTE:
        return f"{player}: posts the ante {money(action.amount)}{all_in}"
    if kind is ActionKind.BRING_IN:
        return f"{player}: brings in for {money(action.amount)}{all_in}"
    raises = kind is ActionKind.RAISE or (
        kind is ActionKind.COMPLETE and (action.raise_by is not None or current_bet > 0)
    )
    if raises and action.to_amount is not None:
        size = action.raise_by if action.raise_by is not None else action.to_amount - current_bet
        return f"{player}: raises {money(size)} to {money(action.to_amount)}{all_in}"
    if kind is ActionKind.BET or kind is ActionKind.COMPLETE:
        return f"{player}: bets {money(action.amount)}{all_in}"
    if kind is ActionKind.CALL:
        return f"{player}: calls {money(action.amount)}{all_in}"
    if kind is ActionKind.CHECK:
        return f"{player}: checks"
    if kind is ActionKind.FOLD:
        shown = f" [{format_cards(action.cards)}]" if action.cards else ""
        return f"{player}: folds{shown}"
    if kind is ActionKind.UNCALLED_BET_RETURNED:
        return f"Uncalled bet ({money(action.amount)}) returned to {player}"
    if kind is ActionKind.SHOW:
        description = f" ({action.description})" if action.description is not None else ""
        return f"{player}: shows [{format_cards(action.cards)}]{description}"
    if kind is ActionKind.MUCK:
        shown = f" [{format_cards(action.cards)}]" if action.cards else ""
        return f"{player}: mucks hand{shown}"
    if kind is ActionKind.DOES_NOT_SHOW:
        return f"{player}: doesn't show hand"
    if kind is ActionKind.COLLECT:
        return f"{player} collected {money(action.amount)} from {pot_label(action.pot, side_pots)}"
    raise ValueError(f"cannot print {kind}")


def _total_pot(hand: Hand, money) -> str:  # type: ignore[no-untyped-def]
    text = f"Total pot {money(hand.total_pot)}"
    if hand.main_pot is not None:
        text += f" Main pot {money(hand.main_pot)}."
        several = len(hand.side_pots) > 1
        for number, side in enumerate(hand.side_pots, 1):
            label = f"Side pot-{number}" if several else "Side pot"
            text += f" {label} {money(side)}."
    return f"{text} | Rake {money(hand.rake)}"


def _result(result: SeatResult, money) -> str:  # type: ignore[no-untyped-def]
    start = f"Seat {result.seat}: {result.player}"
    if result.folded_on is not None:
        tail = " (didn't bet)" if result.did_not_bet else ""
        return f"{start} folded on the {SUMMARY_STREET_NAMES[result.folded_on]}{tail}"
    if result.showed:
        outcome = f"won ({money(result.won)})" if result.won is not None else "lost"
        description = f" with {result.description}" if result.description is not None else ""
        return f"{start} showed [{format_cards(result.showed)}] and {outcome}{description}"
    if result.collected_without_showdown:
        return f"{start} collected ({money(result.won)})"
    if result.mucked:
        return f"{start} mucked [{format_cards(result.mucked)}]"
    return f"{start} mucked"
