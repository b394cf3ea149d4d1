"""PokerStars stud-family hand histories to `Hand` records, and back to text.

`grammars/pokerstars.lark` is the specification: Lark's LALR parser checks the order of a
hand's sections and the shape of every line; this module turns the checked lines into
records, naming players only as the seat list names them. Its printer (`print_hand`) writes
a record back in the shapes the grammar reads: parsing the printed text gives a hand equal
to the original (sources aside), and printing is deterministic. Spellings the records do
not keep (a PokerTracker upper-cased header, a missing currency code) come out in
PokerStars' own current form.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from handlog import model
from handlog.cards import Card, format_cards
from handlog.errors import ParseError, Skipped
from handlog.money import (
    CURRENCY_SYMBOLS,
    currency_sign,
    money_writer,
    small_number,
)
from handlog.parse import printing
from handlog.parse import text as txt
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat
from handlog.parse.text import (
    amount_all_in,
    cards_of,
    index_of,
    read_hand,
    rindex_of,
    street_named,
    units,
    utc_time,
)
from handlog.rules.profiles import POKERSTARS
from handlog.rules.traits import PRINTS_EVERYTHING

if TYPE_CHECKING:
    from lark import Tree

SITE = model.Site.POKERSTARS
HEADER_PREFIX = "PokerStars "
HEADER_BYTES = re.compile(rb"\nPokerStars (?:Home Game |Zoom )?(?:Game|Hand) #\d+:")
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
_HEADER_START = re.compile(r"PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #")


def is_header(line: str) -> bool:
    """Whether `line` starts a PokerStars hand."""
    return line.startswith("PokerStars ") and _HEADER_START.match(line) is not None


# Game names: "<game> <structure>". PokerStars' own: "7 Card Stud", "7 Card Stud Hi/Lo",
# "Razz", "5 Card Stud" with "Limit" (and its "Pot Limit", "No Limit" as in "Omaha Pot Limit",
# "Hold'em No Limit"); the games PokerStars never dealt carry handlog's names in the same shape
# ("2-7 Razz", "London Lowball", "7 Card Stud Hi/Lo Any Low"), and "Spread Limit" is handlog's.
GAME_WORDS = {
    model.Game.STUD: "7 Card Stud",
    model.Game.STUD8: "7 Card Stud Hi/Lo",
    model.Game.RAZZ: "Razz",
    model.Game.STUD5: "5 Card Stud",
    model.Game.RAZZ27: "2-7 Razz",
    model.Game.RAZZ_A6: "London Lowball",
    model.Game.STUD_HILO: "7 Card Stud Hi/Lo Any Low",
}
STRUCTURE_WORDS = {
    model.Structure.FIXED: "Limit",
    model.Structure.SPREAD: "Spread Limit",
    model.Structure.POT_LIMIT: "Pot Limit",
    model.Structure.NO_LIMIT: "No Limit",
}
GAME_NAMES = {
    (game, structure): f"{game_words} {structure_words}"
    for game, game_words in GAME_WORDS.items()
    for structure, structure_words in STRUCTURE_WORDS.items()
}
"""Each game and structure's name in a header: "Razz Limit", "7 Card Stud Pot Limit"."""
# Game names as printed (lower-cased; PokerTracker re-exports upper-case them).
GAMES = {name.lower(): game for (game, _), name in GAME_NAMES.items()}
GAME_STRUCTURES = {name.lower(): structure for (_, structure), name in GAME_NAMES.items()}

SECTIONS = txt.section_table("SECOND_STREET", *txt.STUD_STREETS, "RIVER", "SHOW_DOWN", "SUMMARY")
NOTE_KINDS = {
    "CHAT": model.NoteKind.CHAT,
    "JOINS": model.NoteKind.JOINS,
    "LEAVES": model.NoteKind.LEAVES,
    "CONNECTED": model.NoteKind.CONNECTED,
    "DISCONNECTED": model.NoteKind.DISCONNECTED,
    "SITTING_OUT": model.NoteKind.SITTING_OUT,
    "RETURNED": model.NoteKind.RETURNED,
    "TIMED_OUT": model.NoteKind.TIMED_OUT,
    "REMOVED": model.NoteKind.REMOVED,
    "FINISHED": model.NoteKind.FINISHED_TOURNAMENT,
    "WINS_TOURNAMENT": model.NoteKind.WINS_TOURNAMENT,
    "DOUBLE_BET_ALLOWED": model.NoteKind.DOUBLE_BET_ALLOWED,
    "BETTING_CAPPED": model.NoteKind.BETTING_CAPPED,
    "NO_LOW": model.NoteKind.NO_LOW_HAND,
    "TOURNAMENT_EVENT": model.NoteKind.TOURNAMENT,
}
# The words after a player's name that end each kind of note (for finding the name).
NOTE_NAME_ENDS = {
    model.NoteKind.CHAT: ' said, "',
    model.NoteKind.JOINS: " joins the table",
    model.NoteKind.LEAVES: " leaves the table",
    model.NoteKind.CONNECTED: " is connected",
    model.NoteKind.DISCONNECTED: " is disconnected",
    model.NoteKind.RETURNED: " has returned",
    model.NoteKind.TIMED_OUT: " has ",
    model.NoteKind.REMOVED: " was removed from",
    model.NoteKind.FINISHED_TOURNAMENT: " finished the tournament",
    model.NoteKind.WINS_TOURNAMENT: " wins the tournament",
}

STREET_HEADERS = {
    model.Street.SECOND: "*** 2nd STREET ***",
    model.Street.THIRD: "*** 3rd STREET ***",
    model.Street.FOURTH: "*** 4th STREET ***",
    model.Street.FIFTH: "*** 5th STREET ***",
    model.Street.SIXTH: "*** 6th STREET ***",
    model.Street.SEVENTH: "*** RIVER ***",
    model.Street.SHOWDOWN: "*** SHOW DOWN ***",
}
SUMMARY_STREET_NAMES = {
    model.Street.SECOND: "2nd Street",
    model.Street.THIRD: "3rd Street",
    model.Street.FOURTH: "4th Street",
    model.Street.FIFTH: "5th Street",
    model.Street.SIXTH: "6th Street",
    model.Street.SEVENTH: "River",
}

TERMINAL_WORDS = txt.terminal_words(
    SECTIONS, STREET_HEADERS, {"TABLE": "the Table line", "SUMMARY": "*** SUMMARY ***"}
)
"""Words a player understands for the grammar's terminals, for error messages."""


_HEADER_SPLIT = re.compile(
    r"(?P<start>PokerStars [^#]*#)(?P<number>\d+)(?P<game>:.*) - "
    r"(?P<clock>\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2} [A-Z]{2,5}"
    r"(?: \[\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2} [A-Z]{2,5}\])?"
    r"|\d{4}/\d{1,2}/\d{1,2} - \d{1,2}:\d{2}:\d{2} \([A-Z]{2,5}\))$"
)
"""The header: its start, the hand number, the game part and the clock, today's
("2009/11/26 10:08:43 ET", with the local clock before it: "… CET [2009/07/15 20:36:31 ET]")
or the one PokerStars wrote until mid-2008 ("2008/02/03 - 21:04:15 (ET)")."""
_CLOCK_PART = re.compile(
    r"(\d{4})/(\d{1,2})/(\d{1,2}) (?:- )?(\d{1,2}):(\d{2}):(\d{2}) \(?([A-Z]{2,5})"
)
_TOTAL_POT, _SIDE_POT = txt.total_pot_patterns(r"Side pot(?:-\d+)?")


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
    tree = GRAMMAR.parser().parse(f"{start}0{game_part} - 2000/01/01 00:00:00 ET", start="header")
    info = _game_info_from_tree(tree)
    return info


def _game_info_from_tree(tree: Tree) -> txt.GameInfo:
    site_hand = str(tree.children[0])
    variant = "hand" if site_hand.endswith("Hand #") else "game"
    home_game: str | None = None
    tournament_id = buy_in = level_text = mixed = None
    small = big = 0
    currency: str | None = None
    game_name = ""
    for child in tree.children[2:]:
        if not hasattr(child, "data"):
            continue
        rule = child.data
        if rule == "club":
            home_game = str(child.children[0])
        elif rule in ("cash_game", "mixed_cash_game"):
            names = [str(t) for t in child.children if getattr(t, "type", None) == "GAME_NAME"]
            if rule == "mixed_cash_game":
                mixed, game_name = names
            else:
                game_name = names[0]
            stakes = child.children[-1]
            small_text, big_text = str(stakes.children[0]), str(stakes.children[1])
            small, big = units(small_text), units(big_text)
            if len(stakes.children) > 2:
                currency = str(stakes.children[2])
            elif small_text[0] in CURRENCY_SYMBOLS:
                currency = CURRENCY_SYMBOLS[small_text[0]]
        elif rule == "tournament_game":
            parts = child.children
            tournament_id = str(parts[0]).split("#", 1)[1].rstrip(", ")
            buy_in = str(parts[1]).strip()
            names = [str(t) for t in parts if getattr(t, "type", None) == "GAME_NAME"]
            if len(names) == 2:
                mixed, game_name = names
            else:
                game_name = names[0]
            level = parts[-1]
            level_tokens = [str(t) for t in level.children]
            small, big = units(level_tokens[-2]), units(level_tokens[-1])
            level_text = ", ".join(level_tokens[:-2])
    return txt.GameInfo(
        game_name=game_name,
        game=GAMES.get(game_name.lower()),
        header_variant=variant,
        small_bet=small,
        big_bet=big,
        currency=currency,
        tournament_id=tournament_id,
        buy_in=buy_in,
        tournament_level=level_text,
        mixed_game=mixed,
        home_game=home_game,
        structure=GAME_STRUCTURES.get(game_name.lower(), model.Structure.FIXED),
    )


def parse_clock(clock: str) -> datetime | None:
    """UTC start time from the printed clock, preferring the ET part when there are two."""
    parts = _CLOCK_PART.findall(clock)
    chosen = next((p for p in parts if p[6] == "ET"), parts[0] if parts else None)
    if chosen is None:
        return None
    year, month, day, hour, minute, second, zone = chosen
    return utc_time(int(year), int(month), int(day), int(hour), int(minute), int(second), zone)


# ---------------------------------------------------------------------------------------
# Hands


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game handlog does not replay."""

    def read(split: re.Match[str], body: str) -> model.Hand | Skipped:
        info = _game_info(split["game"], split["start"])
        if info.game is None:
            return Skipped(chunk.file, chunk.line, split["number"], info.game_name)
        if _CANCELLED in body or body.startswith(_CANCELLED[1:]):  # stopped before the deal
            return Skipped(chunk.file, chunk.line, split["number"], info.game_name + CANCELLED)
        tokens = GRAMMAR.tokens(body, chunk)
        return _HandBuilder(chunk, split["number"], info, split["clock"]).build(tokens)

    return read_hand(chunk, GRAMMAR, _HEADER_SPLIT, read)


_CANCELLED = "\nHand cancelled\n"
CANCELLED = " (hand cancelled)"
"""What a cancelled hand's game name is followed by in its `Skipped`: PokerStars writes
"Hand cancelled" after the blinds or antes of a hand stopped before the deal, and a summary
with no pot."""


def pot_index(label: str) -> int | None:
    """Which pot a collect names: None for a plain "pot" (the hand's only pot), 0 for the
    "main pot", n for "side pot-n" ("side pot" is the first side pot)."""
    if label == "main pot":
        return 0
    if label.startswith("side pot"):
        _, _, number = label.partition("-")
        return small_number(number) if number.isdigit() else 1
    return None


def pot_label(pot: int | None, side_pots: int) -> str:
    """The words PokerStars prints for pot number `pot` of a hand with `side_pots` side pots."""
    if pot is None:
        return "pot"
    if pot == 0:
        return "main pot"
    return "side pot" if side_pots <= 1 else f"side pot-{pot}"


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(self, chunk: Chunk, hand_id: str, info: txt.GameInfo, clock: str) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.clock = clock

    # -- driving -------------------------------------------------------------------------

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        info = self.info
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            parse_clock(self.clock),
            model.Printed(info.header_variant, self.clock),
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "TABLE":
            # "Table 'Atalante II' 8-max", and before 2006 without the table's size:
            # "Table '7817460 1' Seat #3 is the button", "Table 'Lyra'".
            text = text[:-1]
            name_end = text.rindex("'")
            self.table = text[7:name_end]
            size = text[name_end + 2 :].split("-max", 1)[0]
            self.max_seats = small_number(size) if size.isdigit() else None
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None and not self.streets and street is not self.first_street:
            # The grammar lets both first streets be left out (5-card stud starts at 2nd
            # street, the others at 3rd): the game says which one must come first.
            first = STREET_HEADERS[self.first_street]
            raise txt.LineError(
                self.relative(line),
                f"{TERMINAL_WORDS[kind]} is out of place here (expected {first})",
                text.split("\n", 1)[0],
            )
        if street is not None:
            self.street = street
            self.street_put = {}
            start = text.index("\n") + 1
            if street is model.Street.SUMMARY:
                total_end = text.index("\n", start)
                self.read_line(_HandBuilder._total_pot, text[start:total_end], line + 1)
                start = total_end + 1
                line += 1
            else:
                self.streets.append(street)
                if street is model.Street.SEVENTH and text[13:15] == " [":
                    self.community_card = cards_of(text[15:17])[0]
            line += 1
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    # -- helpers -------------------------------------------------------------------------

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        colon = index_of(text, ": ")
        number = int(text[5:colon])
        rest = text[colon + 2 :]
        sitting_out = False
        if rest.endswith(" is sitting out"):
            rest, sitting_out = rest[:-15], True
        elif rest.endswith(" out of hand"):
            rest, sitting_out = rest[:-12], True
        open_paren = rindex_of(rest, " (")
        name = rest[:open_paren]
        stack_text = rest[open_paren + 2 : -1].split(" in chips", 1)[0]
        self.add_seat(model.Seat(number, name, units(stack_text), sitting_out, line), text)

    def _add(
        self,
        kind: model.ActionKind,
        name: str,
        text: str,
        line: int,
        amount: int | None = None,
        to_amount: int | None = None,
        all_in: bool = False,
        shown: tuple[Card, ...] = (),
        street: model.Street | None = None,
    ) -> None:
        """Append one action by a seated player (anyone else is an error for the line)."""
        self.events.append(
            model.Action(
                self.street if street is None else street,
                self.player(name, line, text),
                kind,
                amount,
                to_amount,
                all_in,
                shown,
                line=line,
            )
        )

    def _put(
        self,
        kind: model.ActionKind,
        name: str,
        text: str,
        line: int,
        chips: int,
        all_in: bool,
        total: int | None = None,
        raise_by: int | None = None,
    ) -> None:
        """Append an action that puts chips in: `chips` added, or (for a raise) the street
        `total` the player raises to; both end up in the record, with the street total."""
        player = self.player(name, line, text)
        self.put_chips(
            kind, player, line, None if total is not None else chips, total, all_in, raise_by
        )

    def _ante(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(": posts the ante ")
        amount, all_in = amount_all_in(rest)
        if self.ante is None or amount > self.ante:
            self.ante = amount
        self._add(
            model.ActionKind.ANTE, name, text, line, amount, None, all_in, (), model.Street.ANTES
        )

    def _dealt(self, text: str, line: int) -> None:
        name, groups = self.dealt_brackets(text, 9, line)
        previous = cards_of(groups[0]) if len(groups) == 2 else ()
        self.deal(name, previous, cards_of(groups[-1]), line)

    def _brings_in(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(": brings in for ")
        amount, all_in = amount_all_in(rest)
        self.bring_in = amount
        self._put(model.ActionKind.BRING_IN, name, text, line, amount, all_in)

    def _bets(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(": bets ")
        amount, all_in = amount_all_in(rest)
        self._put(self.completion_or(model.ActionKind.BET), name, text, line, amount, all_in)

    def _raises(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(": raises ")
        increment, _, total = rest.partition(" to ")
        to_amount, all_in = amount_all_in(total)
        self._put(
            self.completion_or(model.ActionKind.RAISE),
            name,
            text,
            line,
            0,
            all_in,
            to_amount,
            units(increment),
        )

    def _calls(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(": calls ")
        amount, all_in = amount_all_in(rest)
        self._put(model.ActionKind.CALL, name, text, line, amount, all_in)

    def _checks(self, text: str, line: int) -> None:
        self._add(model.ActionKind.CHECK, text[:-8], text, line)

    def _folds(self, text: str, line: int) -> None:
        self._with_cards(model.ActionKind.FOLD, ": folds", text, line)

    def _with_cards(self, kind: model.ActionKind, marker: str, text: str, line: int) -> None:
        """A fold or a muck, with the cards it shows when the line ends with them
        ("Alice: folds [Ah 2c]", "Bob: mucks hand [7s 7d]")."""
        name, _, rest = text.rpartition(marker)
        self._add(kind, name, text, line, None, None, False, cards_of(rest[2:-1]) if rest else ())

    def _collected(self, text: str, line: int) -> None:
        name = self.player_prefix(text, 0, " collected ", line)
        amount_text, _, pot = text[len(name) + 11 :].partition(" from ")
        self.events.append(
            model.Action(
                self.street,
                name,
                model.ActionKind.COLLECT,
                units(amount_text),
                pot=pot_index(pot),
                line=line,
            )
        )

    def _shows(self, text: str, line: int) -> None:
        at = text.find(": shows [")
        name = self.player(text[:at], line, text)
        rest = text[at + 9 :]
        self.add_show(name, rest, line)

    def _mucks(self, text: str, line: int) -> None:
        self._with_cards(model.ActionKind.MUCK, ": mucks hand", text, line)

    def _does_not_show(self, text: str, line: int) -> None:
        self._add(model.ActionKind.DOES_NOT_SHOW, text[:-19], text, line)

    def _note(self, kind: model.NoteKind, text: str, line: int) -> None:
        player: str | None = None
        body = text
        if kind is model.NoteKind.CHAT:
            player, _, message = text.partition(' said, "')
            body = message[:-1]
        elif kind is model.NoteKind.SITTING_OUT:
            player = text[:-15] if text.endswith(" is sitting out") else text[:-10]
        elif kind in NOTE_NAME_ENDS:
            player = text[: text.find(NOTE_NAME_ENDS[kind])]
        elif kind is model.NoteKind.LEAVES or kind is model.NoteKind.JOINS:
            player = text
        self.events.append(model.Note(self.street, kind, player, body, line))

    def _board(self, text: str, line: int) -> None:
        self.read_board(text[7:-1])

    def _total_pot(self, text: str, line: int) -> None:
        self.read_total_pot(_TOTAL_POT.match(text), _SIDE_POT, text, line)

    def _summary_seat(self, text: str, line: int, marker: str) -> tuple[int, str, str]:
        """Seat number, player and the words after the name of a summary seat line."""
        number, name, at = self.summary_seat(text, line, marker)
        return number, name, text[at + 1 :]

    def _seat_folded(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " folded on the ")
        street_text = rest[14:]
        did_not_bet = street_text.endswith(" (didn't bet)")
        if did_not_bet:
            street_text = street_text[:-13]
        self.results.append(
            model.SeatResult(
                number,
                name,
                folded_on=street_named(street_text),
                did_not_bet=did_not_bet,
                line=line,
            )
        )

    def _seat_showed(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " showed [")
        close = index_of(rest, "]")
        shown = cards_of(rest[8:close])
        self.add_showed(number, name, shown, rest[close + 6 :], line)

    def _seat_mucked(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " mucked")
        mucked = cards_of(rest[8:-1]) if len(rest) > 6 else ()
        self.results.append(model.SeatResult(number, name, mucked=mucked, line=line))

    def _seat_collected(self, text: str, line: int) -> None:
        number, name, rest = self._summary_seat(text, line, " collected (")
        self.results.append(
            model.SeatResult(
                number,
                name,
                won=units(rest[11:-1]),
                collected_without_showdown=True,
                line=line,
            )
        )


_HANDLERS = txt.note_handlers(NOTE_KINDS)

GRAMMAR = txt.SectionGrammar(
    "pokerstars", "PokerStars", SECTIONS, _HANDLERS, TERMINAL_WORDS, builder=_HandBuilder
)


# -- the printer: a record back to PokerStars text ------------------------------------------


def print_hands(hands: list[model.Hand]) -> str:
    """Several hands as one file's text, separated by blank lines as PokerStars does."""
    return "\n\n\n".join(print_hand(hand) for hand in hands) + "\n"


def print_hand(hand: model.Hand) -> str:
    """One hand as PokerStars text, without a trailing newline."""
    money = money_writer(currency_sign(hand.currency))
    if hand.max_seats is None and hand.site is model.Site.POKERSTARS:
        table = f"Table '{hand.table}'"  # as PokerStars wrote it before 2006: no size
    else:
        table = f"Table '{hand.table}' {hand.max_seats or 8}-max"
    lines = [_print_header(hand, money), table]
    lines += printing.seat_lines(
        hand, money, "Seat {number}: {name} ({stack} in chips)", " is sitting out"
    )
    by_street = printing.events_by_street(hand)
    side_pots = len(hand.side_pots)
    for street in (model.Street.ANTES, *hand.streets):
        header = printing.street_header(hand, street, STREET_HEADERS)
        if header is not None:
            lines.append(header)
        current_bet = 0  # the bet to match on this street, for raise sizes not recorded
        for event in by_street.get(street, ()):
            lines.append(_print_event(event, money, current_bet, side_pots))
            if type(event) is model.Action and event.to_amount is not None:
                current_bet = max(current_bet, event.to_amount)
    lines.append("*** SUMMARY ***")
    lines.append(printing.total_pot_line(hand, money, _side_pot_words))
    if hand.community_card is not None:
        lines.append(f"Board [{hand.community_card}]")
    lines.extend(_print_result(result, money) for result in hand.results)
    lines.extend(
        _print_event(event, money, 0, side_pots)
        for event in by_street.get(model.Street.SUMMARY, ())
    )
    return "\n".join(lines)


def clock(hand: model.Hand) -> str:
    """The clock as printed, or (for a hand built without text) PokerStars' Eastern-time
    clock from its start time, e.g. "2024/01/01 13:19:27 ET"."""
    return txt.printed_clock(
        hand, model.Site.POKERSTARS, "ET", "{t:%Y/%m/%d} {t.hour}:{t:%M:%S} ET"
    )


def _print_header(hand: model.Hand, money: printing.Money) -> str:
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


def _print_event(
    event: model.Event, money: printing.Money, current_bet: int, side_pots: int
) -> str:
    if type(event) is model.Dealt:
        return printing.dealt_line(event)
    if type(event) is model.Note:
        if event.kind is model.NoteKind.CHAT:
            return f'{event.player} said, "{event.text}"'
        return event.text
    assert type(event) is model.Action
    return _print_action(event, money, current_bet, side_pots)


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player}: posts the ante {amount}{all_in}",
    model.ActionKind.BRING_IN: "{player}: brings in for {amount}{all_in}",
    model.ActionKind.BET: "{player}: bets {amount}{all_in}",
    model.ActionKind.COMPLETE: "{player}: bets {amount}{all_in}",
    model.ActionKind.CALL: "{player}: calls {amount}{all_in}",
    model.ActionKind.CHECK: "{player}: checks",
    model.ActionKind.FOLD: "{player}: folds{shown}",
    model.ActionKind.UNCALLED_BET_RETURNED: "Uncalled bet ({amount}) returned to {player}",
    model.ActionKind.SHOW: "{player}: shows [{cards}]{description}",
    model.ActionKind.MUCK: "{player}: mucks hand{shown}",
    model.ActionKind.DOES_NOT_SHOW: "{player}: doesn't show hand",
}
"""PokerStars' action lines (`handlog.parse.printing.ActionWords`); raises and collects
are worded by `_print_action`."""


def _print_action(
    action: model.Action, money: printing.Money, current_bet: int, side_pots: int
) -> str:
    """One action line; `current_bet` is the bet it faced (PokerStars prints a raise as its
    size over that bet, then the street total), `side_pots` how many side pots the hand has."""
    player = action.player
    kind = action.kind
    raises = kind is model.ActionKind.RAISE or (
        kind is model.ActionKind.COMPLETE and (action.raise_by is not None or current_bet > 0)
    )
    if raises and action.to_amount is not None:
        all_in = " and is all-in" if action.all_in else ""
        size = action.raise_by if action.raise_by is not None else action.to_amount - current_bet
        return f"{player}: raises {money(size)} to {money(action.to_amount)}{all_in}"
    if kind is model.ActionKind.COLLECT:
        return f"{player} collected {money(action.amount)} from {pot_label(action.pot, side_pots)}"
    return printing.action_line(action, ACTION_WORDS, money, " and is all-in", "PokerStars")


def _side_pot_words(number: int, several: bool) -> str:
    return f"Side pot-{number}" if several else "Side pot"


def _print_result(result: model.SeatResult, money: printing.Money) -> str:
    start = f"Seat {result.seat}: {result.player}"
    if result.folded_on is not None:
        tail = " (didn't bet)" if result.did_not_bet else ""
        return f"{start} folded on the {SUMMARY_STREET_NAMES[result.folded_on]}{tail}"
    if result.showed:
        return printing.showed_line(start, result, f"won ({money(result.won)})")
    if result.collected_without_showdown:
        return f"{start} collected ({money(result.won)})"
    if result.mucked:
        return f"{start} mucked [{format_cards(result.mucked)}]"
    return f"{start} mucked"


FORMAT = SiteFormat(
    site=SITE,
    name="PokerStars",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=POKERSTARS,
    traits=PRINTS_EVERYTHING,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    deals=tuple(
        (game, structure, tournament)
        for game, structure in GAME_NAMES
        for tournament in (False, True)
    ),
)
