"""PartyPoker stud-family hand histories to `Hand` records.

`grammars/partypoker.lark` is the specification of the text; this module reads a hand's first
lines ("Game #N starts.", "#Game No : N", "***** Hand History for Game N *****"), then hands
the game line to the grammar's `header` rule and the rest to its `body`. What PartyPoker
prints differently, and how it is read:

- Hands start with "Game #N starts." in cash exports but with "#Game No : N" in tournament
  exports, which have no "starts" line; so there are two formats (`FORMAT`, `TOURNAMENT_FORMAT`)
  with one parser, and a file's first hand header decides which splits it. Some exports end
  each hand with a NUL byte, and start the file with one ("\\x00Game #… starts."): the NUL
  is read as the end of a hand (a file whose first byte is NUL is text all the same).
- Bracketed amounts are the chips the action adds ("raises [$17 USD]" after a $3 bring-in
  and a $10 completion takes the raiser to $20); nothing prints a raise size (`raise_by` is
  None). "double bets" is the open-pair big bet on 4th street; "is all-In [x]" is a call, bet
  or raise as the chips it adds make it.
- When the deck runs short, the 7th-street card is one community card, printed on the
  street's header line as Party prints a board card ("** Dealing River ** [ 5c ]").
- "X opens" announces the first actor of a street: it makes no record (the printer writes
  it back before the street's first action).
- Only the player's own cards are dealt in text, and only the new ones ("Dealt to Hero
  [  2c ]"): `Dealt.previous` is filled with the cards the same lines dealt before, as the
  record means.
- No total pot and no rake are printed: `total_pot` is every chip put in and `rake` what was
  put in and not collected (traits: `prints_total_pot=False`). An uncalled bet is not
  returned but collected with the pot ("wins $13.20" includes an uncalled $1 river bet):
  `UncalledBets.IN_POT`.
- Hi-lo: "wins … from the main pot" is the high half when someone "wins Lo (…)" the low
  half, the whole pot otherwise ("There was no qualifying low hand"). A player's low
  ("shows8,5,3,2,A  for low.") joins the description of his show: "high card Ace; LO:
  8,5,3,2,A". "doesn't show [ … ]" shows a losing hand that was not shown down (a muck with
  its cards).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from handlog import model
from handlog.cards import Card, cards
from handlog.errors import ParseError, Skipped
from handlog.money import (
    CURRENCY_SIGNS,
    CURRENCY_SYMBOLS,
    MoneyError,
    minor_units,
    small_number,
)
from handlog.parse import text as txt
from handlog.parse.printing import action_line
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat
from handlog.parse.text import level_number, utc_time
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits, UncalledBets

if TYPE_CHECKING:
    from lark import Tree

SITE = model.Site.PARTYPOKER
_STARTS = re.compile(r"\x00*Game #(\d+) starts\.$")
_GAME_NO = re.compile(r"\x00*#Game No : (\d+)$")
_HISTORY = re.compile(r"\*\*\*\*\* Hand History [Ff]or Game (\d+) \*\*\*\*\*$")


def is_header(line: str) -> bool:
    """Whether `line` starts a PartyPoker cash hand: "Game #N starts." (after NUL bytes)."""
    # Every line of a cash file is asked (its header may follow NUL bytes, so there is no
    # plain prefix to look for): the cheap test first.
    return line.endswith(" starts.") and _STARTS.match(line) is not None


def is_tournament_header(line: str) -> bool:
    """Whether `line` starts a PartyPoker hand with no "starts" line: "#Game No : N"."""
    return _GAME_NO.match(line.rstrip()) is not None


GAMES = {
    "7 card stud": model.Game.STUD,
    "7 card stud hi-lo": model.Game.STUD8,
    "7 card razz": model.Game.RAZZ,
    "razz": model.Game.RAZZ,
}
GAME_NAMES = {
    model.Game.STUD: "7 Card Stud",
    model.Game.STUD8: "7 Card Stud Hi-Lo",
    model.Game.RAZZ: "Razz",
}

SECTIONS = txt.section_table(*txt.STUD_STREETS, "RIVER")
STREET_HEADERS = {
    model.Street.THIRD: "** Dealing **",
    model.Street.FOURTH: "** Dealing Fourth street **",
    model.Street.FIFTH: "** Dealing Fifth street **",
    model.Street.SIXTH: "** Dealing Sixth street **",
    model.Street.SEVENTH: "** Dealing River **",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS,
    STREET_HEADERS,
    {
        "TABLE": "the Table line",
        "BUTTON": "the button line",
        "PLAYER_COUNT": "the number of players",
        "TOURNAMENT_LINES": "the tournament level",
    },
)
NOTE_KINDS = {
    "JOINS": (model.NoteKind.JOINS, " has joined the table"),
    "LEAVES": (model.NoteKind.LEAVES, " has left the table"),
    "DISCONNECTED": (model.NoteKind.DISCONNECTED, " is disconnected"),
    "RECONNECTED": (model.NoteKind.CONNECTED, " is connected"),
    "SITTING_OUT": (model.NoteKind.SITTING_OUT, " is sitting out"),
    "FINISHED": (model.NoteKind.FINISHED_TOURNAMENT, " finished in "),
}
LOW = "; LO: "
"""Joins a show's high description and the low that the next line shows."""


@lru_cache(maxsize=100_000)
def units(text: str) -> int:
    """An amount as Party prints it ("$0.50 USD", "$1 USD", "2,930") in minor units."""
    bare = text
    if text[-4:-3] == " ":
        code, bare = text[-3:], text[:-4]
        if bare[:1] not in CURRENCY_SYMBOLS:
            bare = CURRENCY_SIGNS.get(code, "$") + bare
    value = minor_units(bare)
    return value


def currency_of(text: str) -> str | None:
    if text[-4:-3] == " ":
        return text[-3:]
    return CURRENCY_SYMBOLS.get(text[:1])


# ---------------------------------------------------------------------------------------
# Header


_GAME_SPLIT = re.compile(
    r"(?P<game>.*) - (?P<weekday>[A-Z][a-z]+), (?P<month>[A-Z][a-z]+) (?P<day>\d{1,2}), "
    r"(?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2}) (?P<zone>[A-Z]{2,5}) (?P<year>\d{4})$"
)


@lru_cache(maxsize=10_000)
def _game_info(game_part: str) -> txt.GameInfo:
    """`_read_game_info`, memoised, and remembered between runs (`SectionGrammar.game_info`)."""
    return GRAMMAR.game_info(game_part, lambda: _read_game_info(game_part))


def _read_game_info(game_part: str) -> txt.GameInfo:
    """The game line's description, read by the grammar; memoised (the clock is replaced)."""
    tree = GRAMMAR.parser().parse(
        f"{game_part} - Monday, January 1, 00:00:00 ET 2001", start="header"
    )
    info = _game_info_from_tree(tree.children[0])  # type: ignore[arg-type]
    return info


def _game_info_from_tree(tree: Tree) -> txt.GameInfo:
    parts = {getattr(t, "type", ""): str(t) for t in tree.children}
    tokens = [str(t) for t in tree.children]
    name = parts["GAME_NAME"]
    game = GAMES.get(name.lower())
    printed = parts.get("LIMIT", "") + name  # the limit, if any, as the game line has it
    if tree.data == "cash_game":
        small, big = units(tokens[0]), units(tokens[1])
        return txt.GameInfo(printed, game, small, big, currency_of(tokens[1]))
    chips = [t for t in tree.children if getattr(t, "type", "") == "CHIPS"]
    return txt.GameInfo(
        printed,
        game,
        minor_units(str(chips[0])),
        minor_units(str(chips[1])),
        tournament_id=parts["TOURNAMENT_ID"],
        buy_in=parts["BUY_IN"][: -len(" Buy-in ")],
        tournament_level=parts["LEVEL"],
    )


# ---------------------------------------------------------------------------------------
# Hands


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (from "Game #N starts." or "#Game No : N") to a `Hand`, a
    `ParseError`, or `Skipped` for a hand of a game handlog does not replay."""
    lines = chunk.lines
    hand_id = None
    index = 0
    try:
        starts = _STARTS.match(lines[0])
        variant = "plain"
        if starts is not None:
            hand_id, variant = starts[1], "starts"
            index = 1
            while index < len(lines) and not lines[index]:
                index += 1
        found = _GAME_NO.match(lines[index]) if index < len(lines) else None
        if found is None or (hand_id is not None and found[1] != hand_id):
            raise txt.LineError(index + 1, "expected '#Game No : N' for this hand's number")
        hand_id = found[1]
        index += 1
        history = _HISTORY.match(lines[index]) if index < len(lines) else None
        if history is None or history[1] != hand_id:
            raise txt.LineError(
                index + 1, f"expected '***** Hand History for Game {hand_id} *****' here"
            )
        index += 1
        game_line = lines[index] if index < len(lines) else ""
        split = _GAME_SPLIT.match(game_line)
        if split is None:
            raise txt.LineError(index + 1, "the game line is not in a form PartyPoker writes")
        try:
            info = _game_info(split["game"])
        except (
            txt.lark_input_error(),
            MoneyError,
            KeyError,
        ) as error:  # Lark's: looked up if raised
            raise txt.LineError(
                index + 1, "the game line is not in a form PartyPoker writes"
            ) from error
        if info.game is None:
            return Skipped(chunk.file, chunk.line, hand_id, info.game_name)
        start = _start_time(split)
        # The body is read as the text after the game line, as if that line were the header.
        sub = Chunk(chunk.file, chunk.line + index, "\n".join(lines[index:]))
        body = "\n".join(lines[index + 1 :]) + "\n"
        try:
            tokens = GRAMMAR.tokens(body, sub)
            builder = _HandBuilder(sub, hand_id, info, variant)
            return builder.build(tokens, game_line[split.end("game") + 3 :], start, chunk)
        except txt.LineError as error:  # its line counts from the game line: from the header
            raise txt.LineError(error.line + index, error.message, error.text) from None
    except txt.LineError as error:
        return txt.parse_error(chunk, error, hand_id)


def _start_time(split: re.Match[str]) -> datetime | None:
    month = txt.MONTHS.get(split["month"])
    if month is None:
        return None
    return utc_time(
        int(split["year"]),
        month,
        int(split["day"]),
        int(split["h"]),
        int(split["mi"]),
        int(split["s"]),
        split["zone"],
    )


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(self, chunk: Chunk, hand_id: str, info: txt.GameInfo, variant: str) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.variant = variant
        self.street_put: dict[str, int] = {}
        self.current_bet = 0
        self.left: dict[str, int] = {}
        self.held: dict[str, tuple[Card, ...]] = {}
        """The cards each player's "Dealt to" lines have shown so far."""
        self.put_total = 0
        self.collected_total = 0

    def build(
        self,
        tokens: list[tuple[str, str, int]],
        clock: str,
        start: datetime | None,
        whole: Chunk,
    ) -> model.Hand:
        self.read_sections(tokens)
        info = self.info
        events: list[model.Event] = self.events
        if info.game is model.Game.STUD8 and any(
            type(e) is model.Action and e.kind is model.ActionKind.COLLECT and e.half == "low"
            for e in events
        ):
            events = [
                replace(e, half="high")
                if type(e) is model.Action and e.kind is model.ActionKind.COLLECT and e.half is None
                else e
                for e in events
            ]
        self.total_pot = self.put_total
        self.rake = self.put_total - self.collected_total
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            start_time=start,
            printed=model.Printed(self.variant, clock),
            events=events,
            whole=whole,
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "TABLE":
            self.table = text[6 : text.rindex(" (")]
            return
        if kind == "PLAYER_COUNT":  # "… : 2/8"; older exports: "… : 2", no table size
            _, slash, size = text[:-1].rpartition("/")
            self.max_seats = small_number(size) if slash else None
            return
        if kind in ("BUTTON", "TOURNAMENT_LINES"):
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            self.street = street
            self.street_put = {}
            self.current_bet = 0
            self.streets.append(street)
            start = text.index("\n") + 1
            line += 1
            if kind == "RIVER" and start > 20:  # "** Dealing River ** [ 5c ]"
                self.community_card = cards(text[22 : start - 3])[0]
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    # -- helpers -------------------------------------------------------------------------

    def _put(
        self, kind: model.ActionKind, player: str, line: int, chips: int, all_in: bool
    ) -> None:
        total = self.street_put.get(player, 0) + chips
        self.street_put[player] = total
        if total > self.current_bet:
            self.current_bet = total
        left = self.left[player] - chips
        self.left[player] = left
        self.put_total += chips
        self.events.append(
            model.Action(self.street, player, kind, chips, total, all_in or left <= 0, line=line)
        )

    def _bracketed(self, text: str, verb: str, line: int) -> tuple[str, int]:
        """The player and amount of "NAME <verb> [amount]"."""
        name, _, rest = text.rpartition(verb)
        return self.player(name, line, text), units(rest[:-1])

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        colon = text.index(": ")
        number = int(text[5:colon])
        rest = text[colon + 2 :]
        open_paren = rest.rindex(" ( ")
        name = rest[:open_paren]
        stack = units(rest[open_paren + 3 : -2])
        self.add_seat(model.Seat(number, name, stack, False, line), text)
        self.left[name] = stack

    def _ante(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" posts ante ")
        player = self.player(name, line, text)
        amount = units(rest.removeprefix("of ")[1:-1])
        left = self.left[player] - amount
        self.left[player] = left
        self.put_total += amount
        self.add_ante(player, amount, left <= 0, line)

    def _dealt(self, text: str, line: int) -> None:
        at = text.rfind(" [ ")
        seat = self.seated.get(text[9:at])
        name = seat.name if seat is not None else self.player_prefix(text, 9, " [ ", line)
        new = cards(text[at + 3 : -2])
        previous = self.held.get(name, ())
        self.held[name] = previous + new
        self.deal(name, previous, new, line)

    def _opens(self, text: str, line: int) -> None:
        self.player(text[:-6], line, text)  # announces the first actor: no record

    def _brings_in(self, text: str, line: int) -> None:
        player, amount = self._bracketed(text, " bring-ins [", line)
        self.bring_in = amount
        self._put(model.ActionKind.BRING_IN, player, line, amount, False)

    def _completes(self, text: str, line: int) -> None:
        player, amount = self._bracketed(text, " completes [", line)
        self.completed = True
        self._put(model.ActionKind.COMPLETE, player, line, amount, False)

    def _bets(self, text: str, line: int) -> None:
        player, amount = self._bracketed(text, " bets [", line)
        self._put(self.completion_or(model.ActionKind.BET), player, line, amount, False)

    def _double_bets(self, text: str, line: int) -> None:
        player, amount = self._bracketed(text, " double bets [", line)
        self._put(model.ActionKind.BET, player, line, amount, False)

    def _raises(self, text: str, line: int) -> None:
        player, amount = self._bracketed(text, " raises [", line)
        self._put(self.completion_or(model.ActionKind.RAISE), player, line, amount, False)

    def _calls(self, text: str, line: int) -> None:
        player, amount = self._bracketed(text, " calls [", line)
        self._put(model.ActionKind.CALL, player, line, amount, False)

    def _all_in(self, text: str, line: int) -> None:
        # "is all-In [x]": a call, a bet or a raise, as the chips it adds make it.
        name, _, rest = text.rpartition(" is all-In ")
        player = self.player(name, line, text)
        amount = units(rest.lstrip(" ")[1:-1])
        total = self.street_put.get(player, 0) + amount
        kind = self.all_in_kind(total)
        self._put(kind, player, line, amount, True)

    def _show(self, kind: model.ActionKind, verb: str, text: str, line: int) -> None:
        name = self.player_prefix(text, 0, verb, line)
        rest = text[len(name) + len(verb) :]
        close = rest.index(" ]")
        shown = cards(rest[:close].replace(",", " "))
        description = rest[close + 2 :].removesuffix(".") or None
        self.events.append(
            model.Action(self.street, name, kind, cards=shown, description=description, line=line)
        )

    def _shows(self, text: str, line: int) -> None:
        self._show(model.ActionKind.SHOW, " shows [ ", text, line)

    def _does_not_show_cards(self, text: str, line: int) -> None:
        self._show(model.ActionKind.MUCK, " doesn't show [ ", text, line)

    def _shows_low(self, text: str, line: int) -> None:
        name = self.player_prefix(text, 0, " shows", line)
        low = text[len(name) + 6 :].strip().removesuffix("for low.").strip()
        for index in range(len(self.events) - 1, -1, -1):
            event = self.events[index]
            if (
                type(event) is model.Action
                and event.player == name
                and event.kind is model.ActionKind.SHOW
            ):
                self.events[index] = replace(
                    event, description=f"{event.description or ''}{LOW}{low}"
                )
                return
        raise txt.LineError(self.relative(line), f"{name} shows a low without showing a hand", text)

    def _does_not_show(self, text: str, line: int) -> None:
        player = self.player(text[:-21], line, text)
        self.events.append(
            model.Action(self.street, player, model.ActionKind.DOES_NOT_SHOW, line=line)
        )

    def _collect(self, text: str, line: int, low: bool) -> None:
        verb = " wins Lo (" if low else " wins "
        name = self.player_prefix(text, 0, verb, line)
        rest = text[len(name) + len(verb) :]
        amount_text, _, pot_text = rest.partition(" from the ")
        description = None
        if pot_text:
            pot_text, _, described = pot_text.partition(" with ")
            description = described.removesuffix(".") if described else None
        amount_text = amount_text.removesuffix(")").removesuffix(" chips")
        amount = units(amount_text)
        pot = None
        if pot_text.startswith("main"):
            pot = 0
        elif pot_text.startswith("side"):
            digits = pot_text[9:].strip()
            pot = small_number(digits) if digits.isdigit() else 1
        self.collected_total += amount
        self.events.append(
            model.Action(
                self.street,
                name,
                model.ActionKind.COLLECT,
                amount,
                description=description,
                pot=pot,
                half="low" if low else None,
                line=line,
            )
        )

    def _wins(self, text: str, line: int) -> None:
        self._collect(text, line, False)

    def _wins_low(self, text: str, line: int) -> None:
        self._collect(text, line, True)

    def _no_low(self, text: str, line: int) -> None:
        self.events.append(model.Note(self.street, model.NoteKind.NO_LOW_HAND, None, text, line))

    def _note(self, note: tuple[model.NoteKind, str], text: str, line: int) -> None:
        """Table noise: its kind, and the words after the player's name (none before them:
        the note names nobody)."""
        kind, marker = note
        at = text.find(marker)
        self.events.append(model.Note(self.street, kind, text[:at] if at > 0 else None, text, line))

    def _nothing(self, text: str, line: int) -> None:
        """A line that makes no record: a hand's closing NUL, a blank line, the next hand's
        "Game #N starts."."""


_HANDLERS: dict[str, txt.LineHandler] = {
    "END_OF_HAND": _HandBuilder._nothing,
    "BLANK": _HandBuilder._nothing,
    "NEXT_GAME": _HandBuilder._nothing,
    **txt.note_handlers(NOTE_KINDS),
}

GRAMMAR = txt.SectionGrammar(
    "partypoker", "PartyPoker", SECTIONS, _HANDLERS, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing

Money = Callable[[int | None], str]
"""The actions the "X opens" line announces the first of, on each street."""
NOTE_FORMS = {
    model.NoteKind.JOINS: " has joined the table",
    model.NoteKind.LEAVES: " has left the table",
    model.NoteKind.DISCONNECTED: " is disconnected",
    model.NoteKind.CONNECTED: " is connected",
    model.NoteKind.SITTING_OUT: " is sitting out",
}
"""Party's words for a table event of a hand built without Party's text (its note text is
another site's); chat and the dealer's announcements have no Party line."""
_PLACE = re.compile(r"\b(\d+(?:st|nd|rd|th)) place")
_SPLIT_BUY_IN = re.compile(
    r"(?P<sign>[$€£]?)(?P<fee>\d[\d,]*(?:\.\d+)?)"  # the buy-in "$1.10"
    r"\+[$€£]?(?P<rake>\d[\d,]*(?:\.\d+)?)"  # the fee "+$0.10"
    r"(?P<code> [A-Z]{3})?$"
)
"""Another site's buy-in and fee ("$1.10+$0.10 USD"), which Party prints as one sum."""


def print_hand(hand: model.Hand) -> str:
    """A hand back as PartyPoker text (parse → print → parse gives an equal record).

    A hand built without Party's text (`printed` is `PRINTED`: a simulated one) is written
    in Party's current forms: the 2012 header ("Game #N starts." for cash, "#Game No : N"
    first in tournaments, "FL" before the game), the Eastern clock from its start time,
    the tournament's buy-in as one sum and its level as a number; only the hero's cards
    (the player whose cards are all seen); an uncalled bet collected with the pot
    (`UncalledBets.IN_POT`); table events in Party's words, and no line for what Party
    does not print (chat, the dealer's announcements, a muck without cards but "does not
    show cards.")."""
    tournament = hand.tournament_id is not None
    code = hand.currency
    neutral = not hand.header_variant

    def money(value: int | None) -> str:
        value = value or 0
        if tournament or code is None:
            return f"{value:,}"
        whole, cents = divmod(value, 100)
        figure = f"{whole:,}.{cents:02d}" if cents else f"{whole:,}"
        return f"{CURRENCY_SIGNS.get(code, '')}{figure} {code}"

    clock = hand.clock_text or _clock(hand)
    name = GAME_NAMES[hand.game]
    variant = hand.header_variant or ("plain" if tournament else "starts")
    lines = []
    if variant == "starts":
        lines += [f"Game #{hand.hand_id} starts.", ""]
    lines += [f"#Game No : {hand.hand_id}", f"***** Hand History for Game {hand.hand_id} *****"]
    level = _level(hand.tournament_level)
    if tournament:
        stakes = f"{hand.small_bet:,}/{hand.big_bet:,}-{hand.ante or 0:,}"
        trny = f"Trny:{hand.tournament_id} Level:{level}"
        buy_in = _buy_in(hand.buy_in)
        lines.append(f"FL {name} {buy_in} Buy-in {trny}  Stakes-Antes({stakes}) - {clock}")
    else:
        small, big = money(hand.small_bet), money(hand.big_bet)
        limit = "FL " if neutral else ""
        lines.append(f"{small.removesuffix(f' {code}')}/{big} {limit}{name} - {clock}")
    lines.append(f"Table {hand.table} (Real Money)")
    lines.append("Seat 0 is the button")
    # a Party hand read without the table's size (older exports) is printed without it
    size = f"/{hand.max_seats}" if hand.max_seats else ("" if hand.site is SITE else "/8")
    lines.append(f"Total number of players : {len(hand.seats)}{size}")
    lines.extend(f"Seat {s.number}: {s.name} ( {money(s.stack)} )" for s in hand.seats)
    if tournament:
        lines.append(f"Trny:{hand.tournament_id} Level:{level}")
        lines.append(f"Stakes-Antes({hand.small_bet:,}/{hand.big_bet:,}-{hand.ante or 0:,})")
    # Party prints only the hero's cards: not those of a player with a card dealt unseen.
    unseen = {e.player for e in hand.events if type(e) is model.Dealt and e.hidden > 0}
    # An uncalled bet stays in the pot: the bettor collects it with (or as) a win.
    returned: dict[str, int] = {}
    for event in hand.events:
        if type(event) is model.Action and event.kind is model.ActionKind.UNCALLED_BET_RETURNED:
            returned[event.player] = returned.get(event.player, 0) + (event.amount or 0)
    by_street: dict[model.Street, list[model.Event]] = {}
    for event in hand.events:
        by_street.setdefault(event.street, []).append(event)
    for street in (model.Street.ANTES, *hand.streets):
        if street is model.Street.SEVENTH and hand.community_card is not None:
            lines.append(f"{STREET_HEADERS[street]} [ {hand.community_card} ]")
        elif street in STREET_HEADERS:
            lines.append(STREET_HEADERS[street])
        opened = street is model.Street.ANTES
        for event in by_street.get(street, ()):
            if type(event) is model.Dealt and event.player in unseen:
                continue
            if type(event) is model.Note and neutral:
                text = _note_text(event)
                if text is not None:
                    lines.append(text)
                continue
            if type(event) is model.Action:
                if event.kind is model.ActionKind.UNCALLED_BET_RETURNED:
                    continue
                if event.kind is model.ActionKind.COLLECT and event.player in returned:
                    event = replace(event, amount=(event.amount or 0) + returned.pop(event.player))
                if not opened and event.kind in model.BETTING_KINDS:
                    lines.append(f"{event.player} opens")
                    opened = True
            lines.append(_event_line(event, money, hand))
    several = hand.main_pot is not None
    for player, amount in returned.items():  # a bettor who wins nothing else
        pot = len(hand.side_pots) + 1 if several else None
        collect = model.Action(
            model.Street.SHOWDOWN, player, model.ActionKind.COLLECT, amount, pot=pot
        )
        lines.append(_event_line(collect, money, hand))
    return "\n".join(lines)


def _clock(hand: model.Hand) -> str:
    """Party's Eastern clock of a hand's start time: "Monday, February 27, 09:51:26 EST 2012"."""
    if hand.start_time is None:
        raise ValueError("a PartyPoker hand prints its clock: this hand has no start time")
    return txt.printed_clock(hand, SITE, "ET", "{t:%A, %B} {t.day}, {t:%H:%M:%S %Z %Y}")


def _buy_in(text: str | None) -> str:
    """A buy-in as Party prints it, one sum ("$6 USD"): another site's "$1.10+$0.10 USD" is
    added up; Party's own is kept."""
    found = _SPLIT_BUY_IN.match(text or "")
    if found is None:
        return text or "0"
    sign, code = found["sign"], found["code"] or ""
    total = minor_units(f"{sign}{found['fee']}") + minor_units(f"{sign}{found['rake']}")
    if not sign:  # chips
        return f"{total:,}{code}"
    whole, cents = divmod(total, 100)
    figure = f"{whole:,}.{cents:02d}" if cents else f"{whole:,}"
    return f"{sign}{figure}{code}"


def _level(text: str | None) -> str:
    """A tournament level as Party prints it, a number ("2"): another site's "Level IV" is
    read as one; Party's own is kept."""
    return level_number(text) or "1"


def _note_text(note: model.Note) -> str | None:
    """A note of a hand built without Party's text in Party's words; None where Party
    prints no such line."""
    kind = note.kind
    if kind is model.NoteKind.NO_LOW_HAND:
        return "There was no qualifying low hand"
    if note.player is None:
        return None
    form = NOTE_FORMS.get(kind)
    if form is not None:
        return f"{note.player}{form}"
    if kind is model.NoteKind.FINISHED_TOURNAMENT:
        place = _PLACE.search(note.text)
        return f"{note.player} finished in {place[1]} place" if place else None
    return None


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player} posts ante [{amount}]",
    model.ActionKind.BRING_IN: "{player} bring-ins [{amount}]",
    model.ActionKind.COMPLETE: "{player} completes [{amount}]",
    model.ActionKind.BET: "{player} bets [{amount}]",
    model.ActionKind.RAISE: "{player} raises [{amount}]",
    model.ActionKind.CALL: "{player} calls [{amount}]",
    model.ActionKind.CHECK: "{player} checks",
    model.ActionKind.FOLD: "{player} folds",
}
"""PartyPoker's action lines (`handlog.parse.printing.ActionWords`); an all-in, a double
bet, a show, a muck and a win are worded by `_event_line`."""
_ALL_IN_KINDS = (
    model.ActionKind.CALL,
    model.ActionKind.BET,
    model.ActionKind.RAISE,
    model.ActionKind.COMPLETE,
)


def _event_line(event: model.Event, money: Money, hand: model.Hand) -> str:
    if type(event) is model.Dealt:
        return f"Dealt to {event.player} [  {' '.join(str(c) for c in event.new)} ]"
    if type(event) is model.Note:
        return event.text
    assert type(event) is model.Action
    name = event.player
    kind = event.kind
    if event.all_in and kind in _ALL_IN_KINDS:
        return f"{name} is all-In  [{money(event.amount)}]"
    if (
        kind is model.ActionKind.BET
        and event.street is model.Street.FOURTH
        and event.amount == hand.big_bet
    ):
        return f"{name} double bets [{money(event.amount)}]"
    if kind is model.ActionKind.DOES_NOT_SHOW or (
        kind is model.ActionKind.MUCK and not event.cards
    ):
        return f"{name} does not show cards."
    if kind in ACTION_WORDS:
        return action_line(event, ACTION_WORDS, money, "", "PartyPoker")
    if kind in (model.ActionKind.SHOW, model.ActionKind.MUCK):
        verb = "shows" if kind is model.ActionKind.SHOW else "doesn't show"
        high, _, low = (event.description or "").partition(LOW)
        high = high.removeprefix("HI: ")  # another site's hi/lo wording: Party's is bare
        shown = ", ".join(str(c) for c in event.cards)
        line = f"{name} {verb} [ {shown} ]{high}."
        return line + (f"\n{name} shows{low}  for low." if low else "")
    if kind is model.ActionKind.COLLECT:
        won = money(event.amount)
        if event.half == "low":
            won = f"Lo ({won})"
        elif hand.tournament_id is not None:
            won += " chips"
        if event.pot is None:
            return f"{name} wins {won}"
        pot = "main pot" if event.pot == 0 else f"side pot {event.pot}"
        described = f" with {event.description}." if event.description is not None else ""
        return f"{name} wins {won} from the {pot}{described}"
    raise ValueError(f"PartyPoker prints no {kind.value} line")


# ---------------------------------------------------------------------------------------
# The formats

PARTYPOKER = RuleProfile(
    name="partypoker",
    description=(
        "PartyPoker: a bet and three raises, also heads-up; open-pair double bet in 7-card "
        "stud; no burns; short all-ins reopen at half a bet; ties and odd chips by suit."
    ),
    # Every field is the PokerStars choice, which the corpus hands replay clean under; what
    # they show: the open-pair double bet in 7-card stud (tournament hand 11792805420,
    # "Player4 double bets [120]" on 4th street, then raises of 240 = one big bet each, so
    # no small raise after the big bet), a bet and three raises on 6th street in the same
    # hand (four bets: the cap, reached and not passed), fixed-limit sizes everywhere. No
    # hand ties a showing hand, splits an odd chip or goes all-in, so those fields keep the
    # common online choice until a PartyPoker hand shows otherwise.
)

TRAITS = SiteTraits(
    # No uncalled-bet line: in hand 10399817763 Player8's $1 river bet is not called and
    # "Player8 wins $13.20 USD" takes it back with the pot.
    uncalled_bets=UncalledBets.IN_POT,
    # Neither a total pot nor a rake is printed (the parser derives both).
    prints_total_pot=False,
    # "a flush, Ace high." is the wording handlog writes, but a hi/lo show describes the
    # high hand only ("high card Ace") and the low apart ("shows8,5,3,2,A  for low."), and
    # "doesn't show" hands are described too: not compared.
    describes_hands=False,
)

FORMAT = SiteFormat(
    site=SITE,
    name="PartyPoker",
    header_prefix="",  # "Game #N starts." may follow NUL bytes
    is_header=is_header,
    parse_hand=parse_hand,
    profile=PARTYPOKER,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=re.compile(rb"\n\x00*Game #\d+ starts\."),
    deals=tuple(
        (game, model.Structure.FIXED, tournament)
        for tournament in (False, True)
        for game in (model.Game.STUD, model.Game.STUD8, model.Game.RAZZ)
    ),
    encodings=("utf-8", "cp1252"),
)
"""Cash exports: each hand starts with "Game #N starts."."""

TOURNAMENT_FORMAT = FORMAT.another_header(
    "PartyPoker (tournament)",
    "#Game No : ",
    re.compile(rb"\n\x00*#Game No : \d+"),
    is_tournament_header,
)
"""Tournament exports: no "starts" line, each hand starts with "#Game No : N"."""
