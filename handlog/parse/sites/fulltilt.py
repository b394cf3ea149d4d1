"""Full Tilt Poker stud-family hand histories to `Hand` records, and back to text.

`grammars/fulltilt.lark` is the specification: Lark checks the order of a hand's sections and
the shape of every line; this module turns the checked lines into site-neutral records. Full
Tilt prints a raise as the player's new total for the street ("raises to $5") and a call as
the chips it adds ("calls $4.25"); the builder keeps each player's total on the street so
that every record says both what the action put in (`amount`) and the total (`to_amount`).
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from handlog import model
from handlog.cards import Card, cards, format_cards
from handlog.errors import ParseError, Skipped
from handlog.money import (
    CURRENCY_SYMBOLS,
    MoneyError,
    currency_sign,
    minor_units,
    money_writer,
    small_number,
)
from handlog.parse import printing
from handlog.parse import text as txt
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.text import amount_all_in, in_deal_order, read_hand, street_named, utc_time
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits
from handlog.rules.variants import VARIANTS

if TYPE_CHECKING:
    from lark import Tree

SITE = model.Site.FULL_TILT
HEADER_PREFIX = "Full"
"""What both spellings of the header start with: "Full Tilt Poker Game #" and, in 2006,
"FullTiltPoker Game #"."""
HEADER_BYTES = re.compile(rb"\nFull(?: Tilt Poker|TiltPoker) Game #\d+: ")
"""A newline and the start of a hand header, for cutting UTF-8 files into ranges of whole
hands (UTF-16 exports are read whole)."""
_HEADER_START = re.compile(r"Full(?: Tilt Poker|TiltPoker) Game #\d+: ")


def is_header(line: str) -> bool:
    """Whether `line` starts a Full Tilt hand."""
    return line.startswith("Full") and _HEADER_START.match(line) is not None


# Game names as printed, lower-cased. Other games of a mixed table (hold'em, Omaha, draw) are
# skipped by name.
GAMES = {
    "limit stud hi": model.Game.STUD,
    "limit stud": model.Game.STUD,
    "limit 7 card stud": model.Game.STUD,
    "limit 7 card stud hi": model.Game.STUD,
    "limit stud h/l": model.Game.STUD8,
    "limit stud hi/lo": model.Game.STUD8,
    "limit 7 card stud h/l": model.Game.STUD8,
    "limit 7 card stud hi/lo": model.Game.STUD8,
    "limit razz": model.Game.RAZZ,
    "limit 5 card stud": model.Game.STUD5,
}

SECTIONS = txt.section_table(
    "SECOND_STREET", *txt.STUD_STREETS, "SEVENTH_STREET", "SHOW_DOWN", "SUMMARY"
)
STREET_HEADERS = {
    model.Street.SECOND: "*** 2ND STREET ***",
    model.Street.THIRD: "*** 3RD STREET ***",
    model.Street.FOURTH: "*** 4TH STREET ***",
    model.Street.FIFTH: "*** 5TH STREET ***",
    model.Street.SIXTH: "*** 6TH STREET ***",
    model.Street.SEVENTH: "*** 7TH STREET ***",
    model.Street.SHOWDOWN: "*** SHOW DOWN ***",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS, STREET_HEADERS, {"BLANK_LINES": "a blank line", "SUMMARY": "*** SUMMARY ***"}
)
SUMMARY_STREET_NAMES = {
    model.Street.SECOND: "2nd",
    model.Street.THIRD: "3rd",
    model.Street.FOURTH: "4th",
    model.Street.FIFTH: "5th",
    model.Street.SIXTH: "6th",
    model.Street.SEVENTH: "7th",
}
"""A summary's "folded on 3rd St.", as the printer writes it (`street_named` reads it)."""

# Table noise: the kind of note, and the words after the player's name that start it (None:
# the line may have no name: "5 seconds left to act").
NOTES: dict[str, tuple[model.NoteKind, str | None]] = {
    "TIME_LEFT": (model.NoteKind.TIMED_OUT, None),
    "TIMED_OUT": (model.NoteKind.TIMED_OUT, " has timed out"),
    "REQUESTED_TIME": (model.NoteKind.TIMED_OUT, " has requested TIME"),
    "SITTING_OUT": (model.NoteKind.SITTING_OUT, " is sitting out"),
    "RETURNED": (model.NoteKind.RETURNED, " has returned"),
    # A top-up ("adds $11.90") and sitting down both bring a player's chips to the table.
    "ADDS": (model.NoteKind.JOINS, " adds "),
    "SITS_DOWN": (model.NoteKind.JOINS, " sits down"),
    "STANDS_UP": (model.NoteKind.LEAVES, " stands up"),
    "DISCONNECTED": (model.NoteKind.DISCONNECTED, " has been disconnected"),
    "RECONNECTED": (model.NoteKind.CONNECTED, " has reconnected"),
    "FINISHED": (model.NoteKind.FINISHED_TOURNAMENT, " finished the tournament"),
    "WINS_TOURNAMENT": (model.NoteKind.WINS_TOURNAMENT, " wins the tournament"),
    "NO_LOW": (model.NoteKind.NO_LOW_HAND, None),
}


ALL_IN = ", and is all in"
_ALL_IN_MARKS = (ALL_IN,)

_CLOCK = r"\d{1,2}:\d{2}:\d{2} [A-Z]{2,5} - \d{4}/\d{1,2}/\d{1,2}"
_SHORT_CLOCK = r"\d{1,2}:\d{2} [A-Z]{2,5} - [A-Z][a-z]+, [A-Z][a-z]+ \d{1,2}, \d{4}"
_HEADER_SPLIT = re.compile(
    r"(?P<start>Full(?: Tilt Poker|TiltPoker) Game #)(?P<number>\d+): (?P<game>.*) - "
    rf"(?P<clock>{_CLOCK}(?: \[{_CLOCK}\])?|{_SHORT_CLOCK})(?P<partial> \(partial\))?$"
)
_SHORT_CLOCK_PARTS = re.compile(
    r"(\d{1,2}):(\d{2}) ([A-Z]{2,5}) - [A-Z][a-z]+, ([A-Z][a-z]+) (\d{1,2}), (\d{4})"
)
_TOTAL_POT, _SIDE_POT = txt.total_pot_patterns(r"Side pot(?: \d+)?", "$")
_TABLE_SIZE = re.compile(r"(?<!\d)(\d+) max|\b(?:deep|shallow) (\d+)\b")
"""(A number starts where no digit stands before it: searched from inside a long run of digits,
the pattern would cost the square of its length.)"""


# ---------------------------------------------------------------------------------------
# Rules and traits


FULL_TILT_PROFILE = RuleProfile(
    name="fulltilt",
    description=(
        "Full Tilt Poker: cap of a bet and three raises, lifted heads-up; open-pair double "
        "bet in 7-card stud only; no burns; odd chip to the high half, ties by suit."
    ),
    # A bet (or completion) and three raises (the default cap): no corpus street goes beyond
    # a re-raise, and Full Tilt's limit tables capped multiway pots at four bets.
    # Heads-up the cap was lifted at Full Tilt's limit tables. No corpus hand shows a fifth
    # bet heads-up either way; the server enforced its own rule, so when unsure the replay
    # must not flag what may have been legal there.
    cap_heads_up=False,
    # Stud hi: hand 11111111813 (Steal.examples), Player4 pairs his door card on 4th street
    # ([9c] [9d]) and bets $4 at $2/$4. Stud/8 and razz have no such rule; no 5-card stud hand
    # shows an open pair (on its 3rd street), so it is left out until one does (the default).
    # The rest as PokerStars and the seed pages: nothing in the corpus says otherwise (no
    # showing-hand ties in razz, no odd chip in a split pot, no short all-in raise, and no
    # hand with eight players to 7th street whose community card would show burns).
    # Fixed bring-ins at the cash stakes the corpus shows: $3/$6 "brings in for $1", $2/$4
    # "$0.50" (stud and stud/8), $0.10/$0.20 "$0.03" (razz). (The one tournament bring-in
    # seen, 250 at 800/1600, is a 5-card stud MTT's: too little to fix a level's bring-in.)
    bring_ins=(("USD", 300, 600, 100), ("USD", 200, 400, 50), ("USD", 10, 20, 3)),
)

TRAITS = SiteTraits(
    # The defaults: "Uncalled bet of $4 returned to Hero" (an ante's excess too), and a total
    # pot before the rake ("Total pot $75.50 | Rake $3": 72.50 was won).
    # "two pair, Aces and Queens, for high", "J,T,6,5,2", "King Nine high, for high and
    # 8,7,5,3,2, for low": not PokerStars' words for stud/8 and razz, and no wording handlog
    # checks yet.
    describes_hands=False,
)


# ---------------------------------------------------------------------------------------
# Header


@lru_cache(maxsize=10_000)
def _game_info(game_part: str, start: str) -> txt.GameInfo:
    """`_read_game_info`, memoised, and remembered between runs (`SectionGrammar.game_info`)."""
    return GRAMMAR.game_info(
        "\0".join((game_part, start)), lambda: _read_game_info(game_part, start)
    )


def _read_game_info(game_part: str, start: str) -> txt.GameInfo:
    """Parse the header's game description with the grammar; memoised, since every hand at
    a table repeats it. Hand number and clock are replaced by fixed stand-ins."""
    tree = GRAMMAR.parser().parse(
        f"{start}0: {game_part} - 00:00:00 ET - 2000/01/01", start="header"
    )
    info = _game_info_from_tree(tree, start)
    return info


def _game_info_from_tree(tree: Tree, start: str) -> txt.GameInfo:
    tournament_id = tournament_name = None
    table = ""
    max_seats: int | None = None
    small = big = 0
    ante: int | None = None
    currency: str | None = None
    game_name = ""
    children: list[Any] = []
    for child in tree.children:  # the `game` rule's parts stand among the header's
        children.extend(child.children if getattr(child, "data", None) == "game" else [child])  # type: ignore[union-attr]
    for child in children:
        rule = getattr(child, "data", None)
        if rule == "tournament":
            tournament_name, tournament_id = (str(t) for t in child.children)  # type: ignore[union-attr]
        elif rule == "table":
            parts = [str(t) for t in child.children]  # type: ignore[union-attr]
            table = parts[0]
            if len(parts) > 1:
                max_seats = _table_size(parts[1])
        elif rule == "stakes":
            amounts = [str(t) for t in child.children]  # type: ignore[union-attr]
            small, big = minor_units(amounts[0]), minor_units(amounts[1])
            if len(amounts) > 2:
                ante = minor_units(amounts[2])
            currency = CURRENCY_SYMBOLS.get(amounts[0][0])
        elif getattr(child, "type", None) == "GAME_NAME":
            game_name = str(child)
    return txt.GameInfo(
        game_name=game_name,
        game=GAMES.get(game_name.lower()),
        small_bet=small,
        big_bet=big,
        ante=ante,
        currency=currency if tournament_id is None else None,
        table=table,
        max_seats=max_seats,
        tournament_id=tournament_id,
        # Full Tilt prints the buy-in inside the tournament's name ("$2 + $0.10 Heads Up
        # Sit & Go", "Big Game of the Week"); the records have no field for the name.
        buy_in=tournament_name,
        header_variant="game" if start.startswith("Full Tilt") else "2006",
    )


def _table_size(attributes: str) -> int | None:
    """Seats at the table from its attributes: "6 max", "deep 6", "heads up"."""
    if "heads up" in attributes:
        return 2
    found = _TABLE_SIZE.search(attributes)
    if found is None:
        return None
    return small_number(found[1] or found[2])


def parse_clock(clock: str) -> datetime | None:
    """UTC start time from the printed clock: "12:18:37 ET - 2010/06/11", or the ET part of
    "17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07]", or the 2006 form "21:27 ET -
    Wednesday, April 19, 2006"."""
    if clock.endswith("]"):
        clock = clock[clock.rindex("[") + 1 : -1]
    time_zone, _, date = clock.partition(" - ")
    time, _, zone = time_zone.partition(" ")
    parts = time.split(":")
    ymd = date.split("/")
    if len(parts) == 3 and len(ymd) == 3:
        try:
            year, month, day = map(int, ymd)
            hour, minute, second = map(int, parts)
        except ValueError:
            return None
        return utc_time(year, month, day, hour, minute, second, zone)
    short = _SHORT_CLOCK_PARTS.match(clock)  # the 2006 form
    if short is None or short[4] not in txt.MONTHS:
        return None
    hours, minutes, zone, month_name, day_text, year_text = short.groups()
    return utc_time(
        int(year_text), txt.MONTHS[month_name], int(day_text), int(hours), int(minutes), 0, zone
    )


# ---------------------------------------------------------------------------------------
# Hands


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand` (every stud-family game of `GAMES`,
    5-card stud too), a `ParseError`, or `Skipped` for a hand of another game (by the name
    its header prints)."""

    def read(split: re.Match[str], body: str) -> model.Hand | Skipped:
        try:
            info = _game_info(split["game"], split["start"])
        except MoneyError as error:
            raise GRAMMAR.header_error(split.string) from error
        if info.game is None:
            return Skipped(chunk.file, chunk.line, split["number"], info.game_name)
        if split["partial"]:
            raise txt.LineError(
                1,
                "Full Tilt marks this hand (partial): the player joined during it and the "
                "export holds only part of it",
                split.string,
            )
        if f"Hand #{split['number']} has been canceled" in body:
            # stopped before it was played out: nothing to replay
            return Skipped(
                chunk.file, chunk.line, split["number"], info.game_name + " (hand cancelled)"
            )
        tokens = GRAMMAR.tokens(body, chunk)
        return _HandBuilder(chunk, split["number"], info, split["clock"]).build(tokens)

    return read_hand(chunk, GRAMMAR, _HEADER_SPLIT, read)


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(self, chunk: Chunk, hand_id: str, info: txt.GameInfo, clock: str) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.clock = clock
        self.door_position = int(self.first_street) - 1
        """Where the door card stands among a player's cards (after the down cards)."""
        self.known: dict[str, dict[int, Card]] = {}
        """Each player's cards seen dealt, by deal position, for putting shown cards back in
        deal order."""
        self.first_header_line = 0
        self.street_put: dict[str, int] = {}
        """Each player's chips in on the current street (antes apart), for "raises to"."""
        self.ante = info.ante

    # -- driving -------------------------------------------------------------------------

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        if not self.streets:
            raise txt.LineError(
                len(self.chunk.lines), "the hand has no street: no card was dealt", None
            )
        if self.streets[0] is not self.first_street:
            raise txt.LineError(
                self.relative(self.first_header_line),
                f"a {self.info.game_name} hand starts at {STREET_HEADERS[self.first_street]}, "
                f"this one at {STREET_HEADERS[self.streets[0]]}",
                None,
            )
        info = self.info
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            start_time=parse_clock(self.clock),
            printed=model.Printed(info.header_variant, self.clock),
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "BLANK_LINES":
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            self.street = street
            start = text.index("\n") + 1
            if street is model.Street.SUMMARY:
                total_end = text.index("\n", start)
                self.read_line(_HandBuilder._total_pot, text[start:total_end], line + 1)
                start = total_end + 1
                line += 1
            elif street is not model.Street.SHOWDOWN:
                if street in self.streets:
                    raise txt.LineError(self.relative(line), "this street is dealt twice", None)
                if not self.streets:
                    self.first_header_line = line
                self.streets.append(street)
                self.street_put = {}
                if street is model.Street.SEVENTH and text[18:20] == " [":
                    self.community_card = cards(text[20:22])[0]
            else:
                self.streets.append(street)
            line += 1
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    # -- helpers -------------------------------------------------------------------------

    def _seated(self, name: str, text: str, line: int) -> str | None:
        """The seat list's string for `name`; None for a chat line that only looks like an
        action ("Hero: bets are off" reads as "Hero:" betting); an error otherwise."""
        seat = self.seated.get(name)
        if seat is not None:
            return seat.name
        if self._chat(text, line):
            return None
        return self.player(name, line, text)

    def _chat(self, text: str, line: int) -> bool:
        """Record `text` as chat if a seated player's name and ": " start it."""
        for name in self.names_longest_first:
            if text.startswith(name) and text.startswith(": ", len(name)):
                self.events.append(
                    model.Note(self.street, model.NoteKind.CHAT, name, text[len(name) + 2 :], line)
                )
                return True
        return False

    def _bet(
        self, kind: model.ActionKind, name: str, text: str, line: int, added: int, all_in: bool
    ) -> None:
        """A betting action that puts `added` chips in on this street."""
        seat = self.seated.get(name)
        player = seat.name if seat is not None else self._seated(name, text, line)
        if player is None:
            return
        total = self.street_put.get(player, 0) + added
        self.street_put[player] = total
        self.events.append(model.Action(self.street, player, kind, added, total, all_in, line=line))

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack, sitting_out = self.seat_parts(text, ", is sitting out")
        self.add_seat(model.Seat(number, name, minor_units(stack), sitting_out, line), text)

    def _ante(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" antes ")
        amount, all_in = amount_all_in(rest, _ALL_IN_MARKS)
        seat = self.seated.get(name)
        player = seat.name if seat is not None else self._seated(name, text, line)
        if player is None:
            return
        if self.info.ante is None and (self.ante is None or amount > self.ante):
            self.ante = amount  # no ante in the header (2006): the largest posted
        self.events.append(
            model.Action(
                model.Street.ANTES, player, model.ActionKind.ANTE, amount, None, all_in, line=line
            )
        )

    def _dealt(self, text: str, line: int) -> None:
        name, groups = self.dealt_brackets(text, 9, line)
        first = cards(groups[0]) if len(groups) == 2 else ()
        new = cards(groups[-1])
        if self.street is self.first_street:
            # The hero's first line: down cards, then the door card, all dealt now.
            dealt = first + new
            self.deal(name, (), dealt, line)
            known = self.known.setdefault(name, {})
            if len(dealt) > 1:  # the hero's: down cards, then the door card
                for position, card in enumerate(dealt):
                    known.setdefault(position, card)
            else:
                known.setdefault(self.door_position, dealt[0])
        else:
            self.deal(name, first, new, line)
            if len(new) == 1:
                self.known.setdefault(name, {}).setdefault(int(self.street) - 1, new[0])

    def _in_deal_order(self, player: str, shown: tuple[Card, ...]) -> tuple[Card, ...]:
        """Shown cards in deal order: Full Tilt lists the two down cards high card first at
        showdown ("Dealt to Hero [Td Jd] [As]" ... "Hero shows [Jd Td As ...]")."""
        return in_deal_order(self.known.get(player, {}), shown)

    def _bring_in_player(self, text: str, line: int) -> None:
        # "X is low with [3c]": the dealer names who must bring in; the records keep the
        # bring-in itself (the replay works out who it must be from the door cards).
        at = text.rfind(" is low with [")
        if at < 0:
            at = text.rfind(" is high with [")
        self._seated(text[:at], text, line)

    def _brings_in(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" brings in for ")
        amount, all_in = amount_all_in(rest, _ALL_IN_MARKS)
        self.bring_in = amount
        self._bet(model.ActionKind.BRING_IN, name, text, line, amount, all_in)

    def _completes(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" completes it to ")
        total, all_in = amount_all_in(rest, _ALL_IN_MARKS)
        self.completion_or(model.ActionKind.COMPLETE)
        self._to(model.ActionKind.COMPLETE, name, text, line, total, all_in)

    def _to(
        self, kind: model.ActionKind, name: str, text: str, line: int, total: int, all_in: bool
    ) -> None:
        seat = self.seated.get(name)
        player = seat.name if seat is not None else self._seated(name, text, line)
        if player is None:
            return
        added = total - self.street_put.get(player, 0)
        self.street_put[player] = total
        self.events.append(model.Action(self.street, player, kind, added, total, all_in, line=line))

    def _bets(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" bets ")
        amount, all_in = amount_all_in(rest, _ALL_IN_MARKS)
        if name in self.seated:
            self._bet(self.completion_or(model.ActionKind.BET), name, text, line, amount, all_in)
        else:
            self._bet(model.ActionKind.BET, name, text, line, amount, all_in)

    def _raises(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" raises to ")
        total, all_in = amount_all_in(rest, _ALL_IN_MARKS)
        kind = (
            self.completion_or(model.ActionKind.RAISE)
            if name in self.seated
            else model.ActionKind.RAISE
        )
        self._to(kind, name, text, line, total, all_in)

    def _calls(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" calls ")
        amount, all_in = amount_all_in(rest, _ALL_IN_MARKS)
        self._bet(model.ActionKind.CALL, name, text, line, amount, all_in)

    def _checks(self, text: str, line: int) -> None:
        seat = self.seated.get(text[:-7])
        player = seat.name if seat is not None else self._seated(text[:-7], text, line)
        if player is not None:
            self.events.append(model.Action(self.street, player, model.ActionKind.CHECK, line=line))

    def _folds(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" folds")
        seat = self.seated.get(name)
        player = seat.name if seat is not None else self._seated(name, text, line)
        if player is not None:
            shown = cards(rest[2:-1]) if rest else ()
            self.events.append(
                model.Action(self.street, player, model.ActionKind.FOLD, cards=shown, line=line)
            )

    def _uncalled_bet(self, text: str, line: int) -> None:
        player, amount_text = self.returned_to(text, line, 16, " returned to ")
        amount = minor_units(amount_text)
        if self.street_put:
            self.street_put[player] = self.street_put.get(player, 0) - amount
        self.add_returned(player, amount, line)

    def _ante_returned(self, text: str, line: int) -> None:
        # "Ante of $0.40 returned to Hero": an ante back to its player, as an uncalled bet.
        player, amount = self.returned_to(text, line, 8, " returned to ")
        self.add_returned(player, minor_units(amount), line)

    def _shows(self, text: str, line: int) -> None:
        at = text.find(" shows [")
        player = self.seated.get(text[:at])
        if player is None:
            if self._chat(text, line):
                return
            at = len(self.player_prefix(text, 0, " shows [", line))
            player = self.seated[text[:at]]
        rest = text[at + 8 :]
        close = rest.index("]")
        description = rest[close + 2 :] if len(rest) > close + 1 else None
        self.events.append(
            model.Action(
                self.street,
                player.name,
                model.ActionKind.SHOW,
                cards=self._in_deal_order(player.name, cards(rest[:close])),
                description=description,
                line=line,
            )
        )

    def _mucks(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" mucks")
        player = self._seated(name, text, line)
        if player is not None:
            shown = self._in_deal_order(player, cards(rest[2:-1])) if rest else ()
            self.events.append(
                model.Action(self.street, player, model.ActionKind.MUCK, cards=shown, line=line)
            )

    def _wins(self, text: str, line: int) -> None:
        # "NAME wins the high main pot ($41.05) with ...", "NAME ties for the pot ($5) ...",
        # "NAME wins pot 2 ($5)"
        verb = " wins " if " wins " in text else " ties for "
        name = text[: text.find(verb)]
        seat = self.seated.get(name)
        if seat is None:
            if self._chat(text, line):
                return
            name = self.player_prefix(text, 0, verb, line)
            seat = self.seated[name]
        rest = text[len(name) + len(verb) :]
        open_paren = rest.index(" (")
        close = rest.index(")", open_paren)
        words = rest[:open_paren].split(" ")  # "the [high|low] [main|side] pot [#2]", "pot 2"
        if words[0] == "the":
            words = words[1:]
        half = None
        if words[0] in ("high", "low"):
            half = words[0]
            words = words[1:]
        pot: int | None = None  # "the pot": the hand's only pot
        if words[0] == "main":
            pot = 0
        elif words[0] == "side":
            pot = small_number(words[2].lstrip("#")) if len(words) == 3 else 1
        elif len(words) == 2:  # "pot 1" is the main pot
            pot = small_number(words[1]) - 1
        description = rest[close + 7 :] if rest.startswith(" with ", close + 1) else None
        self.events.append(
            model.Action(
                self.street,
                seat.name,
                model.ActionKind.COLLECT,
                minor_units(rest[open_paren + 2 : close]),
                description=description,
                pot=pot,
                half=half,
                line=line,
            )
        )

    def _note(self, terminal: str, text: str, line: int) -> None:
        kind, marker = NOTES[terminal]
        player: str | None = None
        if marker is not None:
            at = text.find(marker)
            player = text[:at]
            if ": " in player and player not in self.seated and self._chat(text, line):
                return
        elif kind is model.NoteKind.TIMED_OUT and " has " in text:
            player = text[: text.rfind(" has ")]
        self.events.append(model.Note(self.street, kind, player, text, line))

    def _feeling(self, text: str, line: int) -> None:
        # An emote is a message to the table: chat, whose text is the emote.
        at = text.rfind(" is feeling ")
        name = text[:at]
        if name not in self.seated and self._chat(text, line):
            return  # "Hero: is feeling fine" is chat, as its emote form is
        self.events.append(model.Note(self.street, model.NoteKind.CHAT, name, text[at + 1 :], line))

    def _chat_line(self, text: str, line: int) -> None:
        if self._chat(text, line):
            return
        # Someone not seated (an observer, a player who has left): the name ends at ": ".
        name, _, message = text.partition(": ")
        self.events.append(model.Note(self.street, model.NoteKind.CHAT, name, message, line))

    def _board(self, text: str, line: int) -> None:
        self.read_board(text[8:-1])

    def _total_pot(self, text: str, line: int) -> None:
        self.read_total_pot(_TOTAL_POT.match(text), _SIDE_POT, text, line)

    def _summary_seat(self, text: str, line: int, marker: str) -> tuple[int, str, str]:
        """Seat number, player and the words from `marker` on of a summary seat line."""
        number, name, at = self.summary_seat(text, line, marker)
        return number, name, text[at:]

    def _seat_folded(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " folded on ")
        street = street_named(rest[11:14])
        self.results.append(
            model.SeatResult(
                number, name, street, False, (), (), None, False, False, None, None, line
            )
        )

    def _seat_showed(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " showed [")
        close = rest.index("]")
        shown = self._in_deal_order(name, cards(rest[9:close]))
        self.add_showed(number, name, shown, rest[close + 6 :], line)

    def _seat_mucked(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " mucked")
        mucked: tuple[Card, ...] = ()
        description = None
        if len(rest) > 7:
            close = rest.index("]")
            mucked = self._in_deal_order(name, cards(rest[9:close]))
            if len(rest) > close + 1:
                description = rest[close + 4 :]
        self.results.append(
            model.SeatResult(number, name, mucked=mucked, description=description, line=line)
        )

    def _seat_collected(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " collected (")
        self.results.append(
            model.SeatResult(
                number,
                name,
                won=minor_units(rest[12 : rest.index(")")]),
                collected_without_showdown=True,
                line=line,
            )
        )

    def _seat_sitting_out(self, text: str, line: int) -> None:
        number, name, _ = self._summary_seat(text, line, " is sitting out")
        self.results.append(model.SeatResult(number, name, line=line))


_HANDLERS: dict[str, txt.LineHandler] = {
    "CHAT": _HandBuilder._chat_line,
    **txt.note_handlers({name: name for name in NOTES}),
}

GRAMMAR = txt.SectionGrammar(
    "fulltilt", "Full Tilt Poker", SECTIONS, _HANDLERS, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing


_GAME_NAMES = {
    model.Game.STUD: "Limit Stud Hi",
    model.Game.STUD8: "Limit Stud H/L",
    model.Game.RAZZ: "Limit Razz",
    model.Game.STUD5: "Limit 5 Card Stud",
}


def print_hand(hand: model.Hand) -> str:
    """A hand as Full Tilt text, in the shapes `grammars/fulltilt.lark` reads, without a
    trailing newline: parsing it gives a hand equal to `hand`. Lines the records do not keep
    (the dealer's "is low with", the pot in street headers) are written from the records or
    left out."""
    money = money_writer(currency_sign(hand.currency), _format_money)
    neutral = hand.printed == model.PRINTED

    lines = [_header(hand, money)]
    lines += printing.seat_lines(hand, money, "Seat {number}: {name} ({stack})", ", is sitting out")
    by_street = printing.events_by_street(hand)
    first_street = VARIANTS[hand.game].first_street
    for street in (model.Street.ANTES, *hand.streets):
        header = printing.street_header(hand, street, STREET_HEADERS)
        if header is not None:
            lines.append(header)
        events = by_street.get(street, [])
        announce = _bring_in_announcement(hand, events) if street is first_street else None
        for event in events:
            if (
                announce is not None
                and type(event) is model.Action
                and event.kind is not model.ActionKind.ANTE
            ):
                lines.append(announce)
                announce = None
            line = _event(event, money, first_street, len(hand.side_pots), neutral)
            if line is not None:
                lines.append(line)
    lines.append("*** SUMMARY ***")
    lines.append(printing.total_pot_line(hand, money, _side_pot_words))
    if hand.community_card is not None:
        lines.append(f"Board: [{hand.community_card}]")
    lines.extend(_result(result, money) for result in hand.results)
    for event in by_street.get(model.Street.SUMMARY, ()):
        line = _event(event, money, first_street, len(hand.side_pots), neutral)
        if line is not None:
            lines.append(line)
    return "\n".join(lines)


def print_hands(hands: list[model.Hand]) -> str:
    """Several hands as one file's text, separated by blank lines as Full Tilt does."""
    return "\n\n\n".join(print_hand(hand) for hand in hands) + "\n"


def _format_money(value: int, symbol: str | None) -> str:
    """Full Tilt's amounts: "$0.50", "$3", "$1,000.25"; chips with thousands separators."""
    if symbol is None:
        return f"{value:,}"
    whole, cents = divmod(value, 100)
    return f"{symbol}{whole:,}.{cents:02d}" if cents else f"{symbol}{whole:,}"


def _header(hand: model.Hand, money) -> str:  # type: ignore[no-untyped-def]
    start = "FullTiltPoker Game #" if hand.header_variant == "2006" else "Full Tilt Poker Game #"
    tournament = ""
    table = hand.table
    if hand.tournament_id is not None:
        tournament = f"{_tournament_name(hand)} ({hand.tournament_id}), "
        if hand.printed == model.PRINTED:
            # Full Tilt names a tournament's table by its number alone ("Table 1"); a
            # site-neutral record may carry it after the tournament's number ("251332389 3").
            table = table.removeprefix(f"{hand.tournament_id} ")
    size = ""
    if hand.max_seats == 2:
        size = " (heads up)"
    elif hand.max_seats is not None:
        size = f" ({hand.max_seats} max)"
    # Chip stakes are printed without thousands separators ("800/1600 Ante 150").
    stake = money if hand.currency is not None else str
    ante = f" Ante {stake(hand.ante)}" if hand.ante is not None else ""
    return (
        f"{start}{hand.hand_id}: {tournament}Table {table}{size} - "
        f"{stake(hand.small_bet)}/{stake(hand.big_bet)}{ante} - {_GAME_NAMES[hand.game]} - "
        f"{clock(hand)}"
    )


def clock(hand: model.Hand) -> str:
    """The clock as printed, or (for a hand built without text) Full Tilt's Eastern-time
    clock from its start time, e.g. "05:46:00 ET - 2011/02/19"."""
    return txt.printed_clock(hand, SITE, "ET", "{t:%H:%M:%S} ET - {t:%Y/%m/%d}")


def _tournament_name(hand: model.Hand) -> str:
    """The tournament's name as the header prints it. Full Tilt's names hold the buy-in
    ("$2 + $0.10 Heads Up Sit & Go"), which a record read from Full Tilt keeps in `buy_in`
    as printed; a site-neutral buy-in in PokerStars' form ("$1.10+$0.10 USD") is written in
    Full Tilt's ("$1.10 + $0.10 Tournament")."""
    buy_in = hand.buy_in or ""
    if hand.printed != model.PRINTED:
        return buy_in
    parts = buy_in.removesuffix(f" {hand.currency or 'USD'}").split("+")
    try:
        amounts = [minor_units(part) for part in parts]
    except MoneyError:
        return f"{buy_in} Tournament" if buy_in else "Tournament"
    symbol = buy_in[:1] if buy_in[:1] in CURRENCY_SYMBOLS else None
    return " + ".join(_format_money(amount, symbol) for amount in amounts) + " Tournament"


def _bring_in_announcement(
    hand: model.Hand, events: list[model.Action | model.Dealt | model.Note]
) -> str | None:
    """The dealer's "X is low with [card]" before the first action on the first street:
    the bring-in (or the forced player's completion) names X, the door card is theirs."""
    first = next(
        (e for e in events if type(e) is model.Action and e.kind is not model.ActionKind.ANTE), None
    )
    if first is None or first.kind not in (model.ActionKind.BRING_IN, model.ActionKind.COMPLETE):
        return None
    door = next(
        (
            e.new[-1]
            for e in events
            if type(e) is model.Dealt and e.player == first.player and e.new
        ),
        None,
    )
    if door is None:
        return None
    word = "high" if hand.game is model.Game.RAZZ else "low"
    return f"{first.player} is {word} with [{door}]"


def _event(  # type: ignore[no-untyped-def]
    event: model.Action | model.Dealt | model.Note,
    money,
    first_street: model.Street,
    side_pots: int,
    neutral: bool,
) -> str | None:
    """One event's line; None for one Full Tilt has no line for (a site-neutral record's
    "doesn't show" and dealer notes Full Tilt does not print)."""
    if type(event) is model.Dealt:
        new = event.new
        if event.street is first_street and len(new) > 1:
            return f"Dealt to {event.player} [{format_cards(new[:-1])}] [{new[-1]}]"
        return printing.dealt_line(event)
    if type(event) is model.Note:
        if event.kind is model.NoteKind.CHAT:
            return f"{event.player}: {event.text}"
        return _note(event) if neutral else event.text
    assert type(event) is model.Action
    if event.kind is model.ActionKind.DOES_NOT_SHOW:
        return None
    return _action(event, money, side_pots)


_NOTE_WORDS = {
    model.NoteKind.JOINS: " sits down",
    model.NoteKind.LEAVES: " stands up",
    model.NoteKind.CONNECTED: " has reconnected",
    model.NoteKind.DISCONNECTED: " has been disconnected",
    model.NoteKind.SITTING_OUT: " is sitting out",
    model.NoteKind.RETURNED: " has returned",
    model.NoteKind.TIMED_OUT: " has timed out",
    model.NoteKind.FINISHED_TOURNAMENT: " finished the tournament",
    model.NoteKind.WINS_TOURNAMENT: " wins the tournament",
}


def _note(note: model.Note) -> str | None:
    """A site-neutral note in Full Tilt's words (its text is another site's line); None for
    the dealer's notes Full Tilt does not print (a double bet allowed, betting capped)."""
    if note.kind is model.NoteKind.NO_LOW_HAND:
        return "No low hand qualified"
    words = _NOTE_WORDS.get(note.kind)
    if words is None or note.player is None:
        return None
    line = f"{note.player}{words}"
    if note.kind is model.NoteKind.FINISHED_TOURNAMENT:
        # "… finished the tournament in 5th place": the place, when the note says it
        place = note.text.rfind(" in ")
        if place >= 0 and note.text.endswith(" place"):
            line += note.text[place:]
    return line


def _pot_words(pot: int | None, side_pots: int) -> str:
    """Full Tilt's words for pot number `pot` of a hand with `side_pots` side pots."""
    if pot is None:
        return "pot"
    if pot == 0:
        return "main pot"
    return "side pot" if pot == 1 and side_pots <= 1 else f"side pot #{pot}"


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player} antes {amount}{all_in}",
    model.ActionKind.BRING_IN: "{player} brings in for {amount}{all_in}",
    model.ActionKind.COMPLETE: "{player} completes it to {to}{all_in}",
    model.ActionKind.RAISE: "{player} raises to {to}{all_in}",
    model.ActionKind.BET: "{player} bets {amount}{all_in}",
    model.ActionKind.CALL: "{player} calls {amount}{all_in}",
    model.ActionKind.CHECK: "{player} checks",
    model.ActionKind.FOLD: "{player} folds{shown}",
    model.ActionKind.UNCALLED_BET_RETURNED: "Uncalled bet of {amount} returned to {player}",
    model.ActionKind.SHOW: "{player} shows [{cards}]{description}",
    model.ActionKind.MUCK: "{player} mucks{shown}",
}
"""Full Tilt's action lines (`handlog.parse.printing.ActionWords`); a win is worded by
`_action`."""


def _action(action: model.Action, money: printing.Money, side_pots: int) -> str:
    if action.kind is model.ActionKind.COLLECT:
        pot = _pot_words(action.pot, side_pots)
        half = f"{action.half} " if action.half is not None else ""
        with_words = f" with {action.description}" if action.description is not None else ""
        return f"{action.player} wins the {half}{pot} ({money(action.amount)}){with_words}"
    return printing.action_line(action, ACTION_WORDS, money, ALL_IN, "Full Tilt", " {}")


def _side_pot_words(number: int, several: bool) -> str:
    return f"Side pot {number}" if several else "Side pot"


def _result(result: model.SeatResult, money: printing.Money) -> str:
    start = f"Seat {result.seat}: {result.player}"
    if result.folded_on is not None:
        return f"{start} folded on {SUMMARY_STREET_NAMES[result.folded_on]} St."
    if result.showed:
        return printing.showed_line(start, result, f"won ({money(result.won)})")
    if result.collected_without_showdown:
        return f"{start} collected ({money(result.won)}), mucked"
    if result.mucked:
        description = f" - {result.description}" if result.description is not None else ""
        return f"{start} mucked [{format_cards(result.mucked)}]{description}"
    return f"{start} is sitting out"


FORMAT = SiteFormat(
    site=SITE,
    name="Full Tilt Poker",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=FULL_TILT_PROFILE,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    deals=fixed_limit_deals(_GAME_NAMES),
    encodings=("utf-8", "utf-16"),
)
