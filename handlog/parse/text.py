"""The machinery every text site's parser shares: a grammar of sections and lines, the line
dispatch that checks each line against the terminals its section allows, errors worded for a
player, clocks, and matching names against the seat list.

A text site's grammar (`grammars/<site>.lark`) has two levels, for speed: its `body` rule
fixes the order of a hand's sections, and each section (a street header and the lines up to
the next header) reaches the parser as ONE token; rules named `*_line` say which line
terminals may stand in each section. `SectionGrammar` finds the section tokens without Lark
when it can (Lark decides, and words the error, when it cannot), and checks each line of a
section against exactly the terminals its rule names, compiled from the same file. A site
module supplies the handlers that turn each checked line into records (`TextHandBuilder`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from handlog import records
from handlog.cards import Card, CardError, cards
from handlog.errors import ParseError, Skipped
from handlog.model import (
    Action,
    ActionKind,
    Dealt,
    Game,
    Hand,
    Printed,
    SeatResult,
    Site,
    Source,
    Street,
    Structure,
)
from handlog.money import MAX_SEAT_NUMBER, FigureError, MoneyError, minor_units
from handlog.parse import grammar
from handlog.parse.reader import Chunk
from handlog.rules.variants import VARIANTS

if TYPE_CHECKING:
    from lark import Lark

    from handlog.model import Event, Seat, Site

TIME_ZONES = {
    "ET": "America/New_York",
    "EST": "America/New_York",
    "EDT": "America/New_York",
    "CT": "America/Chicago",
    "MT": "America/Denver",
    "PT": "America/Los_Angeles",
    "AT": "America/Halifax",
    "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires",
    "UTC": "UTC",
    "GMT": "UTC",
    "WET": "Europe/Lisbon",
    "BST": "Europe/London",
    "CET": "Europe/Paris",
    "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "EEST": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata",
    "CCT": "Asia/Shanghai",
    "JST": "Asia/Tokyo",
    "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide",
    "AEST": "Australia/Sydney",
    "NZT": "Pacific/Auckland",
}
"""Time-zone abbreviations the sites print, to IANA zones (a site's clock in summer time
prints the same abbreviation on some sites, so the zone decides the offset)."""

BRACKETS = re.compile(r"\[([^[\]\n]*)\]")
"""A bracketed group; no "[" inside, so that a line of many "[" is read in linear time."""

LineHandler = Callable[[Any, str, int], None]
"""A line handler: (builder, the line's text, its 1-based line number in the file)."""


def starts_at(text: str, prefix: str, at: int) -> bool:
    """`text.startswith(prefix, at)`, for `at` >= 0, by a bounded `str.find`: mypyc calls
    that natively, where `startswith` with a start is a generic method call whose arguments
    are parsed on each call (several times the cost, in the hottest loops)."""
    return text.find(prefix, at, at + len(prefix)) == at


def index_of(text: str, part: str, start: int = 0) -> int:
    """`text.index(part, start)` (a `ValueError` when `part` is not there), by `str.find`,
    which mypyc calls natively (see `starts_at`)."""
    at = text.find(part, start)
    if at < 0:
        raise ValueError(f"{part!r} is not in the line")
    return at


def rindex_of(text: str, part: str) -> int:
    """`text.rindex(part)`, by `str.rfind` (see `index_of`)."""
    at = text.rfind(part)
    if at < 0:
        raise ValueError(f"{part!r} is not in the line")
    return at


def note_handlers(notes: Mapping[str, object]) -> dict[str, LineHandler]:
    """A handler for each table-noise terminal of `notes` (the terminal's name → what the
    site's builder needs to know of it: its `NoteKind`, say), each calling the builder's
    `_note(that, text, line)`."""
    return {terminal: _note_handler(what) for terminal, what in notes.items()}


def _note_handler(what: object) -> LineHandler:
    def handle(builder: Any, text: str, line: int) -> None:
        builder._note(what, text, line)

    return handle


class LineError(Exception):
    """A line of a hand that cannot be read; `line` counts from the hand's first line (1)."""

    def __init__(self, line: int, message: str, text: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.text = text


@cache
def _zone(name: str):  # type: ignore[no-untyped-def]
    from zoneinfo import ZoneInfo

    return ZoneInfo(TIME_ZONES[name])


def hand_source(chunk: Chunk) -> Source:
    """Where a hand read from `chunk` stands in its file: its first and last line. The last
    is the reader's own count (`Chunk.last_line`), made as it cut the file, when the reader
    made the chunk: the hand's text is not counted again."""
    return Source(chunk.file, chunk.line, chunk.last_line or chunk.line + chunk.text.count("\n"))


def utc_time(
    year: int, month: int, day: int, hour: int, minute: int, second: int, zone: str
) -> datetime | None:
    """A site's local clock reading as UTC; None for an unknown zone or an impossible date."""
    # The zone's offset is looked up once per local hour (hands a few seconds apart share
    # it): an hour whose first and last second have one offset has it throughout (the
    # zones change their offsets on the hour; an hour that does not is read second by
    # second). A reading in the hour a clock goes back is its first (fold 0) either way.
    key = (year, month, day, hour, zone)
    offset = _HOUR_OFFSETS.get(key)
    try:
        if offset is None:
            if zone not in TIME_ZONES:
                return None
            tz = _zone(zone)
            local = datetime(year, month, day, hour, minute, second, tzinfo=tz)
            first = datetime(year, month, day, hour, 0, 0, tzinfo=tz).utcoffset()
            if first is None or first != local.replace(minute=59, second=59).utcoffset():
                return local.astimezone(UTC)
            if len(_HOUR_OFFSETS) > 100_000:
                _HOUR_OFFSETS.clear()
            _HOUR_OFFSETS[key] = offset = first
        return datetime(year, month, day, hour, minute, second, tzinfo=UTC) - offset
    except (ValueError, OverflowError):
        return None


_HOUR_OFFSETS: dict[tuple[int, int, int, int, str], timedelta] = {}
"""`utc_time`'s offset of each local hour of a zone read so far (year, month, day, hour,
zone)."""


def clock_time(found: re.Match[str], zone: str) -> datetime | None:
    """`utc_time` of a header's clock matched with the named groups y, mo, d, h, mi and s,
    read in `zone`."""
    return utc_time(
        int(found["y"]),
        int(found["mo"]),
        int(found["d"]),
        int(found["h"]),
        int(found["mi"]),
        int(found["s"]),
        zone,
    )


CLOCK_ZONES_ENV = "HANDLOG_CLOCK_ZONES"
"""The setting that gives the clocks of sites that print no zone theirs (KingsClub's,
Winning's 2016 exports, whose clock is the player's computer's): "kingsclub=America/New_York"
or several, comma-separated (`clock_zones`)."""


def clock_zones(setting: str | None = None) -> dict[Site, str]:
    """The zones a user gives the clocks of sites that print none (`setting`, else the
    environment's `CLOCK_ZONES_ENV`): each site (its value, any case: "kingsclub",
    "winning") with a zone (an IANA name, "Europe/Berlin", or one of `TIME_ZONES`, "ET").
    ValueError saying what is wrong."""
    import os

    text = os.environ.get(CLOCK_ZONES_ENV, "") if setting is None else setting
    found = _CLOCK_ZONES.get(text)
    if found is None:
        found = _read_clock_zones(text)
        _CLOCK_ZONES[text] = found
    return found


_CLOCK_ZONES: dict[str, dict[Site, str]] = {}


def _read_clock_zones(text: str) -> dict[Site, str]:
    from zoneinfo import ZoneInfo

    found: dict[Site, str] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        site_text, equals, zone = (part.strip() for part in item.partition("="))
        site = next((s for s in Site if s.value == site_text.lower()), None)
        if site is None or not equals or not zone:
            known = ", ".join(s.value for s in Site)
            raise ValueError(
                f"{item.strip()!r} is not SITE=ZONE with one of the sites {known} "
                "(e.g. kingsclub=America/New_York)"
            )
        name = TIME_ZONES.get(zone, zone)
        try:
            ZoneInfo(name)
        except (ValueError, OSError, LookupError):  # ZoneInfoNotFoundError is a KeyError
            raise ValueError(f"{zone!r} is not a time zone (e.g. America/New_York, UTC)") from None
        found[site] = name
    return found


def unzoned_clock(site: Site, clock: str, form: str) -> datetime | None:
    """The start time of a hand whose site prints its clock without a zone (`clock`, read
    by `form`, a `strptime` format), in UTC, when the user gives that site's clocks a zone
    (`clock_zones`); else None (unknown), as when the clock cannot be read."""
    zone = clock_zones().get(site)
    if zone is None:
        return None
    from zoneinfo import ZoneInfo

    try:
        local = datetime.strptime(clock.strip(), form)
        return local.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC)
    except (ValueError, OverflowError):
        return None


def local_time(moment: datetime, zone: str) -> datetime:
    """The inverse of `utc_time`, for printers: `moment` (UTC) on a site's clock in `zone` (one
    of `TIME_ZONES`), without its time zone."""
    return moment.astimezone(_zone(zone)).replace(tzinfo=None)


def printed_clock(hand: Hand, site: Site, zone: str, form: str) -> str:
    """A printer's clock: the hand's own, as `site` printed it; for a hand built without
    text (simulated) or read from another site, its start time on the site's clock in
    `zone`, written by `form`, a `str.format` template of `t`, that time (with its zone: `%Z`
    gives "EST" or "EDT"), e.g. "{t:%Y/%m/%d %H:%M:%S} UTC" or, for an hour without its
    leading zero, "{t:%Y/%m/%d} {t.hour}:{t:%M:%S} ET"; the clock text as it is for a hand
    with no start time."""
    if (hand.site is site and hand.clock_text) or hand.start_time is None:
        return hand.clock_text
    return form.format(t=hand.start_time.astimezone(_zone(zone)))


STREET_WORDS: dict[str, Street] = {
    "2nd": Street.SECOND,
    "second": Street.SECOND,
    "3rd": Street.THIRD,
    "third": Street.THIRD,
    "hole cards": Street.THIRD,
    "4th": Street.FOURTH,
    "fourth": Street.FOURTH,
    "5th": Street.FIFTH,
    "fifth": Street.FIFTH,
    "6th": Street.SIXTH,
    "sixth": Street.SIXTH,
    "7th": Street.SEVENTH,
    "seventh": Street.SEVENTH,
    "river": Street.SEVENTH,
}
"""The words the sites name a street by in their summaries (lower case, without "street"):
"3rd Street", "3RD STREET", "3rd St.", "Third", "River", Bovada's "HOLE CARDS" (its one
section for the first street)."""


def street_named(words: str) -> Street:
    """The street that `words` name as a summary prints them, in any case, with or without
    "Street" / "St." after the number ("5th Street", "5TH STREET", "5th St.", "fifth");
    a `ValueError` (the line's error) for words that name none ("5rd Street")."""
    key = words.lower()
    if key.endswith(" street"):
        key = key[:-7]
    elif key.endswith(" st."):
        key = key[:-4]
    street = STREET_WORDS.get(key)
    if street is None:
        raise ValueError(f"{words!r} names no street")
    return street


SECTION_STREETS: dict[str, Street] = {
    "SECOND_STREET": Street.SECOND,
    "FIRST_STREET": Street.THIRD,
    "HOLE_CARDS": Street.THIRD,
    "THIRD_STREET": Street.THIRD,
    "FOURTH_STREET": Street.FOURTH,
    "FIFTH_STREET": Street.FIFTH,
    "SIXTH_STREET": Street.SIXTH,
    "SEVENTH_STREET": Street.SEVENTH,
    "RIVER": Street.SEVENTH,
    "LABEL_3RD": Street.THIRD,
    "LABEL_4TH": Street.FOURTH,
    "LABEL_5TH": Street.FIFTH,
    "LABEL_6TH": Street.SIXTH,
    "LABEL_7TH": Street.SEVENTH,
    "SHOW_DOWN": Street.SHOWDOWN,
    "SUMMARY": Street.SUMMARY,
}
"""The street each section token of the text grammars opens: the grammars name their
sections alike (`grammars/*.lark`), so the name says the street."""

STUD_STREETS = ("THIRD_STREET", "FOURTH_STREET", "FIFTH_STREET", "SIXTH_STREET")
"""The sections most grammars name 3rd to 6th street by; the 7th is "SEVENTH_STREET" or
"RIVER"."""

RULE_PLACES = {
    "seat_line": "among the seats",
    "ante_line": "among the antes",
    "street_line": "during a street",
    "showdown_line": "at showdown",
    "summary_line": "in the summary",
}
"""Where each line rule's lines stand ("this line is not one PokerStars writes during a
street"): the text grammars name their line rules alike."""

_SECTION_RULES = {
    Street.SHOWDOWN: "showdown_line",
    Street.SUMMARY: "summary_line",
}

_COMMON_WORDS = {
    "SEAT_LINES": "the seat lines",
    "ANTE_LINES": "the antes",
    "$END": "the end of the hand",
}


def section_table(
    *names: str, antes: str = "ANTE_LINES", ante_street: Street | None = None
) -> dict[str, tuple[Street | None, str]]:
    """A grammar's sections (`SectionGrammar.sections`): the seat lines, the antes (the
    token `antes`, opening `ante_street`: None, the antes have no header line), then the
    sections `names` in the grammar's order, each opening its street (`SECTION_STREETS`)
    and read by the street's line rule."""
    table: dict[str, tuple[Street | None, str]] = {
        "SEAT_LINES": (None, "seat_line"),
        antes: (ante_street, "ante_line"),
    }
    for name in names:
        street = SECTION_STREETS[name]
        table[name] = (street, _SECTION_RULES.get(street, "street_line"))
    return table


def terminal_words(
    sections: Mapping[str, tuple[Street | None, str]],
    headers: Mapping[Street, str],
    words: Mapping[str, str],
) -> dict[str, str]:
    """Words a player understands for a grammar's terminals (`SectionGrammar.terminal_words`):
    the seat lines, the antes and the end of the hand; each section by the header the site
    prints for its street (`headers`); then `words`, the site's own (which win)."""
    found = dict(_COMMON_WORDS)
    for name, (street, _) in sections.items():
        if street is not None and street in headers:
            found[name] = headers[street]
    found.update(words)
    return found


AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?"
"""An amount in a pattern, as PokerStars-like sites print it: "$1,000.25", "€0.04", "1500"."""


def total_pot_patterns(side_pot: str, end: str = "") -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A summary's "Total pot $X Main pot $M. Side pot $S. | Rake $R" (groups total, main,
    sides, rake; `end` after it) and one side pot in its sides, for `read_total_pot`;
    `side_pot` is the pattern of a side pot's name ("Side pot(?:-\\d+)?")."""
    total = re.compile(
        rf"Total pot (?P<total>{AMOUNT})(?: Main pot (?P<main>{AMOUNT})\."
        rf"(?P<sides>(?: {side_pot} {AMOUNT}\.)+))? \| Rake (?P<rake>{AMOUNT}){end}"
    )
    return total, re.compile(rf" {side_pot} ({AMOUNT})\.")


ALL_IN = (" and is all-in",)
"""What PokerStars-like sites print after an amount that puts a player all in."""


MEMO_SIZE = 1 << 17
"""The most entries each of this module's memos of texts keeps (emptied when full)."""
_CARDS: dict[str, tuple[Card, ...]] = {}
_UNITS: dict[str, int] = {}


def cards_of(text: str) -> tuple[Card, ...]:
    """`cards.cards(text)`, remembered here: a compiled caller reaches this dictionary by a
    native call, where `cards`' own `lru_cache` costs a Python-level call (a dealing line
    reads two card groups, some 25 lines a hand)."""
    return _remembered(_CARDS, text, cards)


def units(text: str) -> int:
    """`money.minor_units(text)`, remembered here (see `cards_of`)."""
    return _remembered(_UNITS, text, minor_units)


_T = TypeVar("_T")


def _remembered(memo: dict[str, _T], text: str, derive: Callable[[str], _T]) -> _T:
    """`derive(text)`, kept in `memo` (emptied when it holds `MEMO_SIZE`); what raises is
    not kept."""
    found = memo.get(text)
    if found is None:
        found = derive(text)
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[text] = found
    return found


@lru_cache(maxsize=1 << 17)
def amount_all_in(text: str, markers: tuple[str, ...] = ALL_IN) -> tuple[int, bool]:
    """An amount as printed, with or without one of the all-in `markers` after it ("$0.04
    and is all-in"): its minor units and whether it was all in. Amounts repeat a great
    deal, so results are remembered."""
    for marker in markers:
        if text.endswith(marker):
            return minor_units(text[: -len(marker)]), True
    return minor_units(text), False


MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
MONTHS = {name: number for number, name in enumerate(MONTH_NAMES, 1)}
"""A month's number by its English name, as headers print it ("January" -> 1)."""
SHORT_MONTHS = {name[:3]: number for name, number in MONTHS.items()}
"""A month's number by its three-letter name ("Jan" -> 1)."""


_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def level_number(level: str | None) -> str | None:
    """A tournament level's number from its words: "Level IV" (PokerStars', and so a
    simulated hand's), "Match Round I, Level IV" or "4" give "4"; None for no level, and a
    level in other words as it stands."""
    if not level:
        return None
    numeral = level.split()[-1]
    if numeral.isdigit():
        return numeral
    if any(letter not in _ROMAN for letter in numeral):
        return level
    total = 0
    for index, letter in enumerate(numeral):
        value = _ROMAN[letter]
        following = _ROMAN[numeral[index + 1]] if index + 1 < len(numeral) else 0
        total += -value if value < following else value
    return str(total)


def card_error(text: str, relative: int) -> LineError | None:
    """The error for the first bracketed token of `text` that is not a card, if any."""
    for bracket in BRACKETS.findall(text):
        for token in bracket.replace(",", " ").split():
            try:
                cards(token)
            except CardError as bad:
                return LineError(relative, f"{bad} in this line", text)
    return None


def in_deal_order(known: Mapping[int, Card], shown: tuple[Card, ...]) -> tuple[Card, ...]:
    """Cards a site shows out of deal order (Full Tilt and Everleaf list the down cards in
    their own order), put back in deal order: each card already seen dealt (`known`: deal
    position → card) at its position, the others in the free positions in the order shown.
    The shown cards as they are when they are not all the known ones and more, or fewer than
    a known card's position (a show of fewer cards than were seen dealt has no deal order),
    or when a card stands twice in them (a damaged line, which the replay flags)."""
    if not known or not set(known.values()) <= set(shown):
        return shown
    slots: list[Card | None] = [None] * len(shown)
    for position, card in known.items():
        if position >= len(slots):
            return shown
        slots[position] = card
    placed = set(known.values())
    rest = [card for card in shown if card not in placed]
    if len(rest) + len(known) != len(shown):
        return shown
    free = iter(rest)
    return tuple(card if card is not None else next(free) for card in slots)


def line_text(chunk: Chunk, relative_line: int) -> str | None:
    lines = chunk.lines
    if 1 <= relative_line <= len(lines):
        return lines[relative_line - 1]
    return None


def parse_error(chunk: Chunk, error: LineError, hand_id: str | None) -> ParseError:
    """The `ParseError` value for a `LineError` raised while reading `chunk`."""
    return ParseError(
        file=chunk.file,
        line=chunk.line + error.line - 1,
        message=error.message,
        hand_id=hand_id,
        text=error.text if error.text is not None else line_text(chunk, error.line),
        hand_line=chunk.line,
        raw=chunk.text,
    )


def read_hand(
    chunk: Chunk,
    syntax: SectionGrammar,
    header_split: re.Pattern[str],
    read: Callable[[re.Match[str], str], Hand | Skipped],
    hand_id_group: str | int = "number",
) -> Hand | ParseError | Skipped:
    """What every text site does with one hand's text: the header (its first line) split by
    the site's `header_split` (a header it does not match is an error worded for a player,
    naming `syntax.site_name`), the hand number from its `hand_id_group`, and `read` given
    the split and the body (the lines after the header, each ending in "\n") to make the
    record or `Skipped`. A `LineError` becomes the hand's `ParseError`; a Lark error
    escaping `read` (from reading the header's game part with the grammar) an error of the
    header."""
    text = chunk.text
    newline = text.find("\n")
    header = text[:newline] if newline >= 0 else text
    hand_id: str | None = None
    try:
        split = header_split.match(header)
        if split is None:
            raise syntax.header_error(header)
        hand_id = split[hand_id_group]
        try:
            return read(split, text[newline + 1 :] + "\n" if newline >= 0 else "")
        except lark_input_error() as lark_error:  # looked up only when something is raised
            raise syntax.header_error(header) from lark_error
        except (CardError, FigureError) as error:
            # Lines are read by their handlers, which say which line is at fault: a figure
            # or card that is none escapes only from the header's own (the stakes, the size
            # of the table).
            raise LineError(1, f"{error} in the hand header", header) from None
    except LineError as line_error:
        return parse_error(chunk, line_error, hand_id)


def lark_input_error() -> type[Exception]:
    """Lark's error for text its grammar does not accept (Lark is imported on first use)."""
    from lark.exceptions import UnexpectedInput

    return UnexpectedInput


_LineRule = tuple[tuple[tuple[str, bool, re.Pattern[str], Any], ...], dict[str, Any]]


def _rivals(literals: list[str], optional: list[bool], index: int) -> list[int]:
    """The terminals after `index` in a body sequence that Lark's contextual lexer also
    allows where terminal `index` matches (every optional one up to and including the next
    required one) and that could match at the same place: those whose leading literal
    (`grammar.leading_literal`) agrees with terminal `index`'s as far as both go. Two that
    differ cannot both match where one of them does."""
    found = []
    mine = literals[index]
    for later in range(index + 1, len(literals)):
        theirs = literals[later]
        if mine.startswith(theirs) or theirs.startswith(mine):
            found.append(later)
        if not optional[later]:
            break
    return found


_LINES_TO_HEADER = re.compile(
    r"(?P<head>.*)\(\?:\(\?:\(\?!(?P<stops>(?:\\[^0-9A-Za-z\n]|[^\\.^$*+?{}\[\]()|\n]|\|)+)\)"
    r"\[\^(?:\n|\\n)\]\*(?:\n|\\n)\)\+\)\?",
    re.DOTALL,
)
"""A body terminal's regular expression that ends in its lines up to the next header, if
any, as the grammars write them (`NL LINES_TO_HEADER?`, `LINES_TO_HEADER: /(?:(?!\\*\\*\\*
)[^\\n]*\\n)+/`): every line that starts with none of the `stops` (plain texts, `|` between
them)."""


class LinesToHeader:
    """A body terminal read as its head (a plain text, or else a regular expression) and
    then its lines up to the next header, found with `str.find` of the headers' first
    character, not by the regular expression engine, which tries the header's look-ahead on
    every line and scans every character: the terminal's match, the same end
    (`lines_to_header` says which terminals have this form)."""

    __slots__ = ("head", "head_text", "stops")

    def __init__(
        self, head: re.Pattern[str] | None, head_text: str, stops: tuple[str, ...]
    ) -> None:
        self.head = head
        """The head's pattern; None when it is the plain text `head_text`."""
        self.head_text = head_text
        self.stops = stops
        """The texts a line that ends the lines starts with."""

    def end(self, text: str, position: int) -> int:
        """Where the terminal's match at `position` of `text` ends; -1 for none (its head
        does not match there)."""
        head = self.head
        if head is None:
            if not starts_at(text, self.head_text, position):
                return -1
            start = position + len(self.head_text)
        else:
            found = head.match(text, position)
            if found is None:
                return -1
            start = found.end()
        # The lines end where one starts with a stop (a line starts at `start`, and after
        # each newline): each stop's first character is found by `memchr`, and where it
        # starts a line, the whole stop is compared.
        limit = len(text)
        for stop in self.stops:
            first = stop[0]
            at = text.find(first, start, limit)
            while at >= 0:
                if (at == start or text[at - 1] == "\n") and starts_at(text, stop, at):
                    limit = at
                    break
                at = text.find(first, at + 1, limit)
        # The lines taken are the whole lines (each ending with a newline) before `limit`.
        return text.rfind("\n", start, limit) + 1 or start


class RepeatedLines(LinesToHeader):
    """A body terminal that is a run of whole lines (`grammar.repeated_lines`: `X (X |
    NOTE)*`, `X+`), each after the first one of the terminals of its section's line rule,
    cut line by line: the first line must match one of `first`, and each line after it is
    looked up in the rule's memo of lines (`SectionGrammar.line_rules`), or classified (and
    remembered) as `TextHandBuilder.lines` does; the run ends at the first line none of the
    rule's terminals matches. The regular expression of such a terminal tries each
    alternative on each line in turn, backtracking over every `[^\\n]+` of them: the same
    match, as every terminal matches one whole line."""

    __slots__ = ("rule", "first", "first_handler", "terminals", "known", "ends", "cut")

    def __init__(
        self,
        rule: str,
        first: tuple[re.Pattern[str], ...],
        first_handler: object,
        terminals: tuple[tuple[str, bool, re.Pattern[str], Any], ...],
        known: dict[str, Any],
    ) -> None:
        super().__init__(None, "", ())
        self.rule = rule
        """The line rule of the terminal's section."""
        self.first = first
        """The patterns of the terminals the first line may be (each one of the rule's)."""
        self.first_handler = first_handler
        """The handler of the one terminal the first line may be, when no other terminal of
        the rule has it (else None): a first line the memo gives it matches that terminal,
        and needs no regular expression."""
        self.terminals = terminals
        """The line rule's terminals, as `SectionGrammar.line_rules` gives them."""
        self.known = known
        """The line rule's memo: each line's handler, for lines its terminals match."""
        self.ends: dict[str, bool] = {}
        """Lines none of the rule's terminals matches, met where a run ends: a run ends at
        the same lines hand after hand (the first ante after the seats, a street's
        header), which are not tried against every terminal again."""
        self.cut: list[str] = []
        """The lines (without their newlines) of the last match `end` found."""

    def end(self, text: str, position: int) -> int:
        newline = text.find("\n", position)
        if newline < 0:
            return -1
        known = self.known
        ends = self.ends
        current = text[position:newline]
        handler = known.get(current)
        if handler is None and current not in ends:
            handler = self.classify(current)
        if handler is None:
            return -1  # none of the rule's terminals matches it, nor any of `first`
        if handler is not self.first_handler:
            for pattern in self.first:
                if pattern.match(text, position) is not None:
                    break
            else:
                return -1
        cut = [current]
        at = newline + 1
        while True:
            newline = text.find("\n", at)
            if newline < 0:
                break
            current = text[at:newline]
            if known.get(current) is None and (current in ends or self.classify(current) is None):
                break
            cut.append(current)
            at = newline + 1
        self.cut = cut
        return at

    def classify(self, line: str) -> Any:
        """`classify` of the rule's terminals, remembering a line none of them matches."""
        handler = classify(self.terminals, self.known, line)
        if handler is None:
            ends = self.ends
            if len(ends) > 10_000:
                ends.clear()
            ends[line] = True
        return handler


def classify(
    terminals: tuple[tuple[str, bool, re.Pattern[str], Any], ...], known: dict[str, Any], line: str
) -> Any:
    """The handler of the first of a line rule's `terminals` that matches `line` (without
    its newline), remembered in the rule's memo `known`; None when none matches. Each is
    tried only on a line that holds its literal."""
    whole = line + "\n"
    for literal, prefix, pattern, found in terminals:
        if (line.startswith(literal) if prefix else literal in line) and (
            pattern.match(whole) is not None
        ):
            if len(known) > 50_000:
                known.clear()
            known[line] = found
            return found
    return None


def lines_to_header(regexp: str) -> LinesToHeader | None:
    """`regexp` (a body terminal's) as its head and its lines up to the next header, when it
    has that form (`_LINES_TO_HEADER`), its head a sequence (no `|` outside a group: the
    lines follow every alternative) and no flag that would change what its stops mean; else
    None (the terminal is matched by its regular expression)."""
    found = _LINES_TO_HEADER.fullmatch(regexp)
    if found is None or not _one_sequence(found["head"]):
        return None
    try:
        if re.compile(regexp).flags != re.UNICODE:
            return None
        head = re.compile(found["head"])
    except re.error:
        return None
    stops = []
    for escaped in re.split(r"(?<!\\)\|", found["stops"]):
        stop = re.sub(r"\\(.)", r"\1", escaped)
        if not stop or re.fullmatch(escaped, stop) is None:
            return None
        stops.append(stop)
    text = grammar.literal_text(found["head"])
    if text is None:
        return LinesToHeader(head, "", tuple(stops))
    return LinesToHeader(None, text, tuple(stops))


def _one_sequence(regexp: str) -> bool:
    """Whether `regexp`'s groups and character sets close and no `|` stands outside them."""
    depth = 0
    at = 0
    end = len(regexp)
    while at < end:
        character = regexp[at]
        if character == "\\":
            at += 2
            continue
        if character == "[":
            at += 1
            if regexp.startswith("^", at):
                at += 1
            if regexp.startswith("]", at):
                at += 1  # a "]" first in a set is one of its characters
            while at < end and regexp[at] != "]":
                at += 2 if regexp[at] == "\\" else 1
            if at >= end:
                return False
        elif character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
            if depth < 0:
                return False
        elif character == "|" and depth == 0:
            return False
        at += 1
    return depth == 0


class SectionGrammar:
    """One text site's grammar, compiled once per process: the `header` and `body` start
    rules, the body's sections, and each line rule's terminals with their handlers."""

    def __init__(
        self,
        name: str,
        site_name: str,
        sections: dict[str, tuple[Street | None, str]],
        handlers: Mapping[str, LineHandler],
        terminal_words: dict[str, str],
        rule_places: dict[str, str] | None = None,
        builder: type | None = None,
    ) -> None:
        self.name = name
        """The grammar file's name in `grammars/`, without ".lark"."""
        self.site_name = site_name
        """The site as a player names it, for messages ("PokerStars")."""
        self.sections = sections
        """Each section token: the street it opens (None: no header line) and its line rule."""
        self.handlers = handlers
        """The handler of each line terminal that `builder` does not read by its name."""
        self.builder = builder
        """The site's hand builder, whose method `_x` reads the lines of terminal `X` (the
        terminal `SEAT_FOLDED` by `_seat_folded`) unless `handlers` names the terminal."""
        self.terminal_words = terminal_words
        """Words a player understands for the grammar's terminals, for error messages."""
        self.rule_places = RULE_PLACES if rule_places is None else rule_places
        """Where each line rule's lines stand ("during a street"), for error messages."""
        self._rules: dict[str, _LineRule] | None = None
        self._sequence: tuple[tuple[str, bool, re.Pattern[str]], ...] | None = None
        self._sequence_known = False
        self._literals: tuple[str, ...] = ()
        """Each terminal of `_sequence`: what all its matches start with ("" if nothing)."""
        self._to_header: tuple[LinesToHeader | None, ...] = ()
        """Each terminal of `_sequence` that ends in its lines up to the next header, read
        that way (`lines_to_header`); None for the others."""
        self._rivals: tuple[tuple[int, ...], ...] = ()
        """Each terminal of `_sequence`: the later ones `body_tokens` tries at the same place
        once it matches (`_rivals`)."""
        self.cuts: dict[str, tuple[str, list[str]]] = {}
        """For each line rule, the last token `body_tokens` cut line by line (`RepeatedLines`)
        and its lines: `TextHandBuilder.lines` reads that token's lines from here, the
        strings already split and hashed, not splitting its text again."""

    def header_error(self, header: str) -> LineError:
        """The error for a hand header (line 1) not in a form the site writes."""
        return LineError(1, f"the hand header is not in a form {self.site_name} writes", header)

    def parser(self) -> Lark:
        return grammar.load(self.name, "header", "body")

    def game_info(self, key: str, derive: Callable[[], GameInfo]) -> GameInfo:
        """What a header's game part (`key`) says: `derive()` (read with the grammar, through
        Lark), remembered between runs in the user's cache (`grammar.remember`), so that a
        process meeting the headers of earlier runs loads no Lark parser (a fifth of a CPU
        second, in every worker)."""
        known = grammar.remembered(self.name, "game-info", key)
        if known is not None:
            try:
                return game_info_of(known)
            except (TypeError, ValueError, KeyError):
                pass  # not what this code writes: derived again
        info = derive()
        grammar.remember(self.name, "game-info", key, game_info_fields(info))
        return info

    def line_rules(self) -> dict[str, _LineRule]:
        """For each line rule: its terminals in the rule's order, each as (a literal every
        line it accepts contains, whether at the start, its pattern, its line handler), see
        `grammar.line_terminals`; and the handler already found for a line's text."""
        rules = self._rules
        if rules is None:
            rules = {}
            for rule in {rule for _, rule in self.sections.values()}:
                terminals = grammar.line_terminals(self.name, ["header", "body"], rule)
                if terminals is None:
                    raise ValueError(f"a line terminal of {rule!r} may match more than one line")
                rules[rule] = (
                    tuple(
                        (t.literal, t.prefix, t.pattern, self.handler(t.name)) for t in terminals
                    ),
                    {},
                )
            self._rules = rules
        return rules

    def handler(self, terminal: str) -> LineHandler:
        """The handler of a line terminal: the one `handlers` names, else the builder's
        method named after it; a `KeyError` (a grammar and a module that do not agree) for a
        terminal nothing reads."""
        found = self.handlers.get(terminal)
        if found is None and self.builder is not None:
            found = getattr(self.builder, "_" + terminal.lower(), None)
        if found is None:
            raise KeyError(f"{self.name}: nothing reads the line terminal {terminal}")
        return found

    def body_sequence(self) -> tuple[tuple[str, bool, re.Pattern[str]], ...] | None:
        """The `body` rule as (terminal, optional, pattern), when it is one sequence of
        terminals; None sends every body through Lark."""
        if not self._sequence_known:
            sequence = grammar.terminal_sequence(self.name, "body")
            if sequence is not None:
                regexps = grammar.terminal_regexps(
                    self.name, ["header", "body"], [name for name, _ in sequence]
                )
                self._sequence = tuple(
                    (name, optional, re.compile(regexps[name])) for name, optional in sequence
                )
                literals = [grammar.leading_literal(regexps[name]) for name, _ in sequence]
                self._literals = tuple(literals)
                self._to_header = tuple(
                    self.repeated_lines(name) or lines_to_header(regexps[name])
                    for name, _ in sequence
                )
                self._rivals = tuple(
                    tuple(_rivals(literals, [optional for _, optional in sequence], index))
                    for index in range(len(sequence))
                )
            self._sequence_known = True
        return self._sequence

    def repeated_lines(self, terminal: str) -> RepeatedLines | None:
        """`terminal` cut line by line (`RepeatedLines`) when the grammar writes it as a run
        of lines (`grammar.repeated_lines`) whose lines after the first are exactly those
        its section's line rule allows; else None."""
        section = self.sections.get(terminal)
        found = grammar.repeated_lines(self.name, terminal)
        if section is None or found is None:
            return None
        first, rest = found
        rule = section[1]
        names = grammar.rule_terminals(self.name, rule)
        if set(rest) != set(names) or not set(first) <= set(rest):
            return None
        terminals, known = self.line_rules()[rule]
        regexps = grammar.terminal_regexps(self.name, ["header", "body"], first)
        handlers = [handler for _, _, _, handler in terminals]
        first_handler = None
        if len(first) == 1:
            handler = handlers[names.index(first[0])]
            if sum(other is handler for other in handlers) == 1:
                first_handler = handler
        return RepeatedLines(
            rule,
            tuple(re.compile(regexps[name]) for name in first),
            first_handler,
            terminals,
            known,
        )

    def body_tokens(self, body: str) -> list[tuple[str, str, int]] | None:
        """The tokens (type, text, line) Lark's lexer makes of `body`, found without Lark: at
        each place the terminals the `body` sequence allows there (every optional one up to
        and including the next required one, as Lark's contextual lexer allows) are tried,
        and exactly one must match. None when that does not hold or the body is not
        accepted; the caller then asks Lark, which decides (and words the error)."""
        sequence = self.body_sequence()
        if sequence is None:
            return None
        # A terminal whose matches all start with a text (its leading literal) is tried only
        # where the body has that text, and two whose texts differ can never both match at
        # one place: `_rivals` are the later ones each must be checked against.
        literals = self._literals
        rivals = self._rivals
        to_header = self._to_header
        tokens: list[tuple[str, str, int]] = []
        position = 0
        line = 1
        index = 0
        count = len(sequence)
        end = len(body)
        while position < end:
            chosen = ""
            found_end = -1
            split: LinesToHeader | None = None
            while index < count:
                name, optional, pattern = sequence[index]
                if starts_at(body, literals[index], position):
                    split = to_header[index]
                    if split is not None:
                        found_end = split.end(body, position)
                    else:
                        found = pattern.match(body, position)
                        found_end = -1 if found is None else found.end()
                index += 1
                if found_end >= 0:
                    # Another allowed terminal matching here too would leave Lark to choose.
                    for later in rivals[index - 1] if optional else ():
                        if starts_at(body, literals[later], position) and (
                            sequence[later][2].match(body, position) is not None
                        ):
                            return None
                    chosen = name
                    break
                if not optional:
                    return None
            if found_end < 0:
                return None
            text = body[position:found_end]
            tokens.append((chosen, text, line))
            if isinstance(split, RepeatedLines):
                self.cuts[split.rule] = (text, split.cut)
                line += len(split.cut)
            else:
                line += text.count("\n")
            position = found_end
        while index < count:
            if not sequence[index][1]:
                return None
            index += 1
        return tokens

    def tokens(self, body: str, chunk: Chunk) -> list[tuple[str, str, int]]:
        """The section tokens of a hand's body (its lines after the header, each ending in
        "\\n"); a `LineError` for a body the grammar does not accept."""
        tokens = self.body_tokens(body)
        if tokens is not None:
            return tokens
        from lark.exceptions import UnexpectedInput

        try:
            tree = self.parser().parse(body, start="body")
        except UnexpectedInput as error:
            raise self.grammar_error(error, chunk) from None
        return [(t.type, str(t), t.line) for t in tree.children]  # type: ignore[union-attr, misc]

    def grammar_error(self, error: Exception, chunk: Chunk) -> LineError:
        """A sentence for a line the grammar does not accept where it stands (the body
        starts at the hand's second line)."""
        from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

        lines = chunk.lines
        body_line = getattr(error, "line", -1)
        relative = body_line + 1 if isinstance(body_line, int) and body_line > 0 else len(lines)
        words = self.terminal_words
        expected = sorted(
            {words[name] for name in (getattr(error, "expected", None) or ()) if name in words}
        )
        wanted = f" (expected {', or '.join(expected)})" if expected else ""
        if isinstance(error, UnexpectedEOF) or (
            isinstance(error, UnexpectedToken) and error.token.type == "$END"
        ):
            last = len(lines)
            return LineError(
                last,
                f"the hand ends early, at line {chunk.line + last - 1}{wanted}; it looks truncated",
                lines[-1],
            )
        text = line_text(chunk, relative) or ""
        bad_card = card_error(text, relative)
        if bad_card is not None:
            return bad_card
        if isinstance(error, UnexpectedCharacters):
            return LineError(
                relative, f"this line is not one {self.site_name} writes here{wanted}", text
            )
        if isinstance(error, UnexpectedToken):
            found = words.get(error.token.type, "this line")
            return LineError(relative, f"{found} is out of place here{wanted}", text)
        return LineError(relative, str(error).splitlines()[0], text)


@dataclass(frozen=True)
class GameInfo:
    """What a text site's hand header says about the game, apart from the hand number and
    the clock: what every hand at a table repeats, so that a site reads it once per header
    text (remembered) and its builder's `hand_of` takes it into the record. A site fills
    the fields its header has; the rest keep their defaults."""

    game_name: str
    """As printed, with the limit where the header has it: "Seven Card Hi/Lo Normal"."""
    game: Game | None
    """None for a game handlog does not replay (its hands are skipped)."""
    small_bet: int = 0
    big_bet: int = 0
    currency: str | None = None
    """ISO code of the stakes' currency; None for tournament or play chips."""
    header_variant: str = ""
    """Which of the site's header forms it was (`Printed.header_variant`)."""
    structure: Structure = Structure.FIXED
    table: str = ""
    """The table's name, for sites that print it in the header ("": a table line gives it)."""
    max_seats: int | None = None
    ante: int | None = None
    """The ante, for sites whose header states it."""
    tournament: bool = False
    """Whether the header is a tournament's (its number may stand elsewhere: a table line)."""
    tournament_id: str | None = None
    tournament_level: str | None = None
    buy_in: str | None = None
    mixed_game: str | None = None
    home_game: str | None = None
    chips_in_hundredths: bool = False
    """Amounts in hundredths of a chip (play money printed in cents)."""

    def __init__(
        self,
        game_name: str,
        game: Game | None,
        small_bet: int = 0,
        big_bet: int = 0,
        currency: str | None = None,
        header_variant: str = "",
        structure: Structure = Structure.FIXED,
        table: str = "",
        max_seats: int | None = None,
        ante: int | None = None,
        tournament: bool = False,
        tournament_id: str | None = None,
        tournament_level: str | None = None,
        buy_in: str | None = None,
        mixed_game: str | None = None,
        home_game: str | None = None,
        chips_in_hundredths: bool = False,
    ) -> None:
        self.game_name = game_name  # type: ignore[misc]  # frozen: written once, here
        self.game = game  # type: ignore[misc]
        self.small_bet = small_bet  # type: ignore[misc]
        self.big_bet = big_bet  # type: ignore[misc]
        self.currency = currency  # type: ignore[misc]
        self.header_variant = header_variant  # type: ignore[misc]
        self.structure = structure  # type: ignore[misc]
        self.table = table  # type: ignore[misc]
        self.max_seats = max_seats  # type: ignore[misc]
        self.ante = ante  # type: ignore[misc]
        self.tournament = tournament  # type: ignore[misc]
        self.tournament_id = tournament_id  # type: ignore[misc]
        self.tournament_level = tournament_level  # type: ignore[misc]
        self.buy_in = buy_in  # type: ignore[misc]
        self.mixed_game = mixed_game  # type: ignore[misc]
        self.home_game = home_game  # type: ignore[misc]
        self.chips_in_hundredths = chips_in_hundredths  # type: ignore[misc]


if __file__.endswith(".py"):  # running as source, not compiled: see GameInfo's note
    records.swap_inits(GameInfo)

NO_GAME = GameInfo("", None)

_GAME_INFO_FIELDS = tuple(field.name for field in fields(GameInfo))


def game_info_fields(info: GameInfo) -> dict[str, Any]:
    """`info` as JSON values (the game and the structure by their values)."""
    found: dict[str, Any] = {name: getattr(info, name) for name in _GAME_INFO_FIELDS}
    found["game"] = info.game.value if info.game is not None else None
    found["structure"] = info.structure.value
    return found


def game_info_of(found: dict[str, Any]) -> GameInfo:
    """The `GameInfo` of `game_info_fields`."""
    game = found["game"]
    return GameInfo(
        **{
            **found,
            "game": Game(game) if game is not None else None,
            "structure": Structure(found["structure"]),
        }
    )


"""The header facts of a builder made without any (a site that reads them as it goes)."""


class TextHandBuilder:
    """What every text site's hand builder shares: the line dispatch of a section, the seat
    list, and naming players exactly as the seat list names them. A site's builder derives
    from it and adds the line handlers its grammar names. One instance per hand.

    Compiled by mypyc, it still admits builders of site modules that run as Python source
    (a new site not yet in `handlog._native.COMPILED`, or an install without a compiler)."""

    def __init__(
        self, chunk: Chunk, syntax: SectionGrammar, hand_id: str = "", info: GameInfo = NO_GAME
    ) -> None:
        self.chunk = chunk
        self.syntax = syntax
        self.hand_id = hand_id
        self.info = info
        """What the hand's header said (`hand_of` takes it into the record)."""
        self.file = chunk.file
        self.offset = chunk.line  # body line 1 is file line chunk.line + 1
        self.seats: list[Seat] = []
        self.seated: dict[str, Seat] = {}
        """Each player's seat by name. Every record of the hand names its player with the
        seat's own `name` string, so that the replay's dictionaries and comparisons find it
        by identity rather than comparing characters."""
        self.names_longest_first: list[str] = []
        self.names_unspaced = False
        """No seated name holds a space: a name followed by a space is then the text up to
        the first space (`player_prefix`)."""
        self.events: list[Event] = []
        self.street = Street.ANTES
        self.street_put: dict[str, int] = {}
        """Each player's chips in on the current street (a site resets it at each street)."""
        self.current_bet = 0
        """The most anyone has in on the current street (reset with `street_put`)."""
        # What every hand's record takes from its lines, filled by the site's handlers and
        # assembled by `hand`.
        self.table = ""
        self.max_seats: int | None = None
        self.streets: list[Street] = []
        """The street headers read, in order."""
        self.results: list[SeatResult] = []
        self.first_street = Street.THIRD if info.game is None else VARIANTS[info.game].first_street
        """The game's first street (2nd in 5-card stud)."""
        self.completed = False
        """Whether the first street's bring-in has been completed."""
        self.ante: int | None = None
        self.bring_in: int | None = None
        self.community_card: Card | None = None
        self.total_pot = 0
        self.rake = 0
        self.main_pot: int | None = None
        self.side_pots: tuple[int, ...] = ()
        # What some headers say besides the game, stakes and clock (a site sets those its
        # header has).
        self.tournament_id: str | None = None
        self.tournament_level: str | None = None
        self.buy_in: str | None = None
        self.mixed_game: str | None = None
        self.home_game: str | None = None
        self.structure = Structure.FIXED
        self.chips_in_hundredths = False

    def deal(
        self,
        player: str,
        previous: tuple[Card, ...],
        new: tuple[Card, ...],
        line: int,
        hidden: int = -1,
    ) -> Dealt:
        """Append a dealing line's record: `previous` the earlier cards it repeats, `new`
        the cards of this street it shows. `hidden`, the cards of this street it does not
        show, is counted when a site does not say (-1): the street deals the first street's
        card count on the first street and one card on each later one."""
        street = self.street
        if hidden < 0:
            # Identity, not ==: an IntEnum comparison is a Python-level call per line.
            hidden = (int(street) if street is self.first_street else 1) - len(new)
            if hidden < 0:
                hidden = 0
        dealt = Dealt(street, player, previous, new, line, hidden)
        self.events.append(dealt)
        return dealt

    def hand(
        self,
        site: Site,
        hand_id: str,
        game: Game,
        small_bet: int,
        big_bet: int,
        currency: str | None,
        start_time: datetime | None,
        printed: Printed,
        events: list[Event] | None = None,
        whole: Chunk | None = None,
    ) -> Hand:
        """The hand's record: what the header gave (the arguments, and the tournament, mixed
        game, structure … the site set on the builder) and what the lines gave (this
        builder's seats, events, streets, results, pots, antes …); `events`
        replaces the builder's own when a site rewrites them at the end, `whole` is the
        hand's whole text when the builder read only a part of it (its `source`)."""
        chunk = self.chunk if whole is None else whole
        return Hand(
            site=site,
            hand_id=hand_id,
            game=game,
            table=self.table,
            max_seats=self.max_seats,
            currency=currency,
            small_bet=small_bet,
            big_bet=big_bet,
            start_time=start_time,
            seats=tuple(self.seats),
            events=tuple(self.events if events is None else events),
            streets=tuple(self.streets),
            results=tuple(self.results),
            total_pot=self.total_pot,
            rake=self.rake,
            main_pot=self.main_pot,
            side_pots=self.side_pots,
            community_card=self.community_card,
            ante=self.ante,
            bring_in=self.bring_in,
            tournament_id=self.tournament_id,
            tournament_level=self.tournament_level,
            buy_in=self.buy_in,
            mixed_game=self.mixed_game,
            home_game=self.home_game,
            structure=self.structure,
            chips_in_hundredths=self.chips_in_hundredths,
            printed=printed,
            source=hand_source(chunk),
        )

    def hand_of(
        self,
        site: Site,
        hand_id: str,
        info: GameInfo,
        start_time: datetime | None,
        printed: Printed,
        events: list[Event] | None = None,
        whole: Chunk | None = None,
    ) -> Hand:
        """`hand` with what the header gave (`info`): the game, stakes and currency, and the
        table, seats, tournament, level, buy-in, mixed game, home game, structure and chips
        where the header has them; what it leaves out (None, "") stays as the hand's lines
        set it (a table line's name and seats, a tournament number in the table's name). A
        hand of a game handlog does not replay is skipped before its builder is made."""
        if info.table:
            self.table = info.table
        if info.max_seats is not None:
            self.max_seats = info.max_seats
        if info.tournament_id is not None:
            self.tournament_id = info.tournament_id
        if info.tournament_level is not None:
            self.tournament_level = info.tournament_level
        if info.buy_in is not None:
            self.buy_in = info.buy_in
        if info.mixed_game is not None:
            self.mixed_game = info.mixed_game
        if info.home_game is not None:
            self.home_game = info.home_game
        if info.chips_in_hundredths:
            self.chips_in_hundredths = True
        self.structure = info.structure
        return self.hand(
            site,
            hand_id,
            info.game,  # type: ignore[arg-type]  # set: the hand was not skipped
            info.small_bet,
            info.big_bet,
            info.currency,
            start_time,
            printed,
            events,
            whole,
        )

    def add_ante(self, player: str, amount: int, all_in: bool, line: int) -> None:
        """An ante's record; the hand's ante is the largest posted (a short stack's all-in
        ante is less)."""
        if self.ante is None or amount > self.ante:
            self.ante = amount
        self.events.append(
            Action(Street.ANTES, player, ActionKind.ANTE, amount, None, all_in, line=line)
        )

    def put_chips(
        self,
        kind: ActionKind,
        player: str,
        line: int,
        chips: int | None,
        total: int | None = None,
        all_in: bool = False,
        raise_by: int | None = None,
    ) -> Action:
        """Append an action that puts chips in, as a site prints it: `chips` added, or the
        street `total` it takes the player to, or both; the record gets both (the meaning
        every site's records share), and the street totals follow."""
        before = self.street_put.get(player, 0)
        if total is None:
            total = before + (chips or 0)
        elif chips is None:
            chips = total - before
        self.street_put[player] = total
        if total > self.current_bet:
            self.current_bet = total
        action = Action(
            self.street, player, kind, chips, total, all_in, raise_by=raise_by, line=line
        )
        self.events.append(action)
        return action

    def completion_or(self, kind: ActionKind) -> ActionKind:
        """`kind` (a bet or raise as printed), or COMPLETE for the first bet or raise over
        the bring-in on the game's first street (3rd; 2nd in 5-card stud, where the
        bring-in and its completion come on the two-card street: RULES.md): the one place
        every text site tells a completion from a bet."""
        if self.street is self.first_street and not self.completed:
            self.completed = True
            return ActionKind.COMPLETE
        return kind

    def all_in_kind(self, total: int) -> ActionKind:
        """What an all-in that brings its player's street total to `total` is: a call when it
        goes no higher than the bet faced, else a bet (none faced) or a raise, a completion
        where it is the first over the bring-in (`completion_or`)."""
        if total <= self.current_bet:
            return ActionKind.CALL
        return self.completion_or(ActionKind.BET if self.current_bet == 0 else ActionKind.RAISE)

    def _shows(self, text: str, line: int) -> None:
        """ "NAME shows [cards] (description)" at the showdown."""
        name = self.player_prefix(text, 0, " shows [", line)
        self.add_show(name, text[len(name) + 8 :], line)

    def add_show(self, player: str, rest: str, line: int) -> None:
        """A show line's record: `rest` is the text after its opening bracket, the cards and
        an optional description ("Kd 7s 7c]" or "Kd 7s 7c] (a pair of Sevens)")."""
        close = index_of(rest, "]")
        description = rest[close + 3 : -1] if len(rest) > close + 1 else None
        self.events.append(
            Action(
                self.street,
                player,
                ActionKind.SHOW,
                cards=cards(rest[:close]),
                description=description,
                line=line,
            )
        )

    def seat_parts(
        self, text: str, sitting_out: str = "", after: int = 1, separator: str = ": "
    ) -> tuple[int, str, str, bool]:
        """A seat line, "Seat N: NAME (STACK)", in parts: the seat's number (before
        `separator`), the name (up to the last " ("), the stack's text (from there to
        `after` characters before the end: 1, the ")") and whether the line ends in
        `sitting_out` (a site's " is sitting out", taken off first)."""
        cut = index_of(text, separator)
        number = int(text[5:cut])
        rest = text[cut + len(separator) :]
        out = bool(sitting_out) and rest.endswith(sitting_out)
        if out:
            rest = rest[: -len(sitting_out)]
        open_paren = rindex_of(rest, " (")
        return number, rest[:open_paren], rest[open_paren + 2 : len(rest) - after], out

    def returned_to(self, text: str, line: int, start: int, marker: str) -> tuple[str, str]:
        """The player a "… returned to NAME" line names (after `marker`) and the text of
        the amount given back (from `start` to `marker`)."""
        at = index_of(text, marker)
        return self.player(text[at + len(marker) :], line, text), text[start:at]

    def add_returned(self, player: str, amount: int, line: int) -> None:
        """A bet (or an ante) given back to `player` uncalled."""
        self.events.append(
            Action(self.street, player, ActionKind.UNCALLED_BET_RETURNED, amount, line=line)
        )

    def _uncalled_bet(self, text: str, line: int) -> None:
        """ "Uncalled bet ($X) returned to NAME", PokerStars' line (and those that copy it)."""
        player, amount = self.returned_to(text, line, 14, ") returned to ")
        self.add_returned(player, minor_units(amount), line)

    def _checks(self, text: str, line: int) -> None:
        """ "NAME checks", as most sites write it (a site that writes it otherwise reads it
        by its own `_checks`)."""
        player = self.player(text[:-7], line, text)
        self.events.append(Action(self.street, player, ActionKind.CHECK, line=line))

    def _folds(self, text: str, line: int) -> None:
        """ "NAME folds", as most sites write it (a site that writes it otherwise reads it
        by its own `_folds`)."""
        player = self.player(text[:-6], line, text)
        self.events.append(Action(self.street, player, ActionKind.FOLD, line=line))

    def add_showed(
        self,
        number: int,
        name: str,
        shown: tuple[Card, ...],
        outcome: str,
        line: int,
        parens: bool = True,
    ) -> None:
        """A summary's seat that showed `shown`, from the words after "and": "won ($X)"
        (with `parens`; else "won $X") or "lost", then " with" the hand's description when
        the site gives one."""
        won: int | None = None
        lost = False
        if parens and outcome.startswith("won ("):
            paren = index_of(outcome, ")")
            won = minor_units(outcome[5:paren])
            outcome = outcome[paren + 1 :]
        elif not parens and outcome.startswith("won "):
            end = outcome.find(" with ")
            won = minor_units(outcome[4:] if end < 0 else outcome[4:end])
            outcome = "" if end < 0 else outcome[end:]
        else:
            lost = True
            outcome = outcome[4:]
        description = outcome[6:] if outcome.startswith(" with ") else None
        self.results.append(
            SeatResult(
                number, name, showed=shown, won=won, lost=lost, description=description, line=line
            )
        )

    def read_board(self, board_text: str) -> None:
        """A summary's board ("Board [Kd]"): the community card, when one card was dealt to
        the table."""
        board = cards(board_text)
        if self.community_card is None and len(board) == 1:
            self.community_card = board[0]

    def read_total_pot(
        self, found: re.Match[str] | None, side_pot: re.Pattern[str], text: str, line: int
    ) -> None:
        """A summary's "Total pot … | Rake …" line, as the site's pattern `found` it (groups
        total, main, sides, rake; None: the line is in no form the site writes); the side
        pots are `side_pot`'s matches in the sides group."""
        if found is None:
            raise LineError(self.relative(line), "the 'Total pot' line cannot be read", text)
        try:
            self.total_pot = minor_units(found["total"])
            self.rake = minor_units(found["rake"])
            if found["main"]:
                self.main_pot = minor_units(found["main"])
                self.side_pots = tuple(minor_units(a) for a in side_pot.findall(found["sides"]))
        except MoneyError as error:
            raise LineError(self.relative(line), str(error), text) from None

    def relative(self, line: int) -> int:
        """The hand-relative line number (1 = the header) of file line `line`."""
        return line - self.offset + 1

    def lines(self, rule: str, text: str, position: int, line: int) -> None:
        """Dispatch every line of `text` from `position` on (each ending in "\\n") to the
        handler of the terminal of `rule` it matches; `line` is the first one's file line."""
        # Each line is tried against the rule's terminals in order, as the grammar's
        # alternation would be, skipping those whose literal the line lacks; the first line
        # that fits none stops the section there. Every terminal matches within one line
        # (`grammar.line_terminals` checks), so a line can be matched on its own, its
        # literal must be in it, and which terminal it is depends on its text alone: lines
        # repeat (actions, antes, summary seats), so the answer is remembered.
        if position >= len(text):
            return
        syntax = self.syntax
        terminals, known = syntax.line_rules()[rule]
        cut = syntax.cuts.get(rule)
        if cut is not None and cut[0] is text and position == 0:
            found = cut[1]  # the token `body_tokens` cut line by line
        else:
            found = text[position:-1].split("\n")
        for current in found:
            handler = known.get(current)
            if handler is None:
                handler = classify(terminals, known, current)
                if handler is None:
                    raise self.unknown_line(rule, current, line)
            try:
                handler(self, current, line)
            except (ValueError, KeyError, IndexError) as error:
                raise self.misread(error, current, line) from None
            line += 1

    def read_sections(self, tokens: list[tuple[str, str, int]]) -> None:
        """Read the hand's sections in order (each token's type, text and body line), each by
        the site's `_section`; what it reads of a section's own header line (a street's
        running pot, the table's size) that cannot be read is an error of that line."""
        for kind, text, line in tokens:
            try:
                self._section(kind, text, line)
            except (ValueError, KeyError, IndexError) as error:
                newline = text.find("\n")
                first = text[:newline] if newline >= 0 else text
                raise self.misread(error, first, self.offset + line) from None

    def _section(self, kind: str, text: str, line: int) -> None:
        """Read one section (a site's builder says how)."""
        raise NotImplementedError

    def read_line(self, handler: LineHandler, text: str, line: int) -> None:
        """One line read by `handler` outside `lines` (a section's own line), its errors
        those of that line."""
        try:
            handler(self, text, line)
        except (ValueError, KeyError, IndexError) as error:
            raise self.misread(error, text, line) from None

    def misread(self, error: Exception, text: str, line: int) -> LineError:
        """The error for a line that its terminal accepts but its handler cannot read: an
        amount or a card that is none (or no stake could reach), a word or a figure where
        the site writes another ("folded on 5rd St.", a bracket that does not close)."""
        if isinstance(error, (CardError, FigureError)):
            return LineError(self.relative(line), str(error), text)
        return LineError(
            self.relative(line), f"this line is not in a form {self.syntax.site_name} writes", text
        )

    def unknown_line(self, rule: str, text: str, line: int) -> LineError:
        relative = self.relative(line)
        bad_card = card_error(text, relative)
        if bad_card is not None:
            return bad_card
        where = self.syntax.rule_places[rule]
        return LineError(
            relative, f"this line is not one {self.syntax.site_name} writes {where}", text
        )

    def add_seat(self, seat: Seat, text: str) -> None:
        """Add a seat of the seat list; two seats for one name or one number is an error."""
        if seat.name in self.seated:
            raise LineError(self.relative(seat.line), f"{seat.name!r} has two seats", text)
        if not 0 <= seat.number <= MAX_SEAT_NUMBER:
            raise LineError(
                self.relative(seat.line), f"seat {seat.number} is not a seat of any table", text
            )
        if any(other.number == seat.number for other in self.seats):
            raise LineError(self.relative(seat.line), f"seat {seat.number} is listed twice", text)
        self.seats.append(seat)
        self.seated[seat.name] = seat

    def seats_done(self) -> None:
        """Call when the seat list is complete."""
        # Longest first, so that "PC [Mittel]" is tried before a player named "PC".
        self.names_longest_first = sorted(self.seated, key=len, reverse=True)
        self.names_unspaced = not any(" " in name for name in self.names_longest_first)

    def dealt_brackets(self, text: str, start: int, line: int) -> tuple[str, list[str]]:
        """A dealing line's player (the name at `text[start:]`, as the seat list names
        it) and the texts of its bracketed card groups, in order: "Dealt to NAME [cards]" or
        "Dealt to NAME [cards] [cards]". The brackets are read from the right first; a name
        that itself ends in brackets ("PC [Mittel]") fails that and is found by matching the
        seat names instead."""
        last = text.rfind(" [")
        head = text[start:last]
        seat = self.seated.get(head)
        if seat is not None:
            return seat.name, [text[last + 2 : -1]]
        opening = head.rfind(" [")
        seat = self.seated.get(head[:opening]) if opening > 0 and head[-1] == "]" else None
        if seat is not None:
            return seat.name, [head[opening + 2 : -1], text[last + 2 : -1]]
        name = self.player_prefix(text, start, " [", line)
        return name, text[start + len(name) + 2 : -1].split("] [")

    def summary_seat(self, text: str, line: int, marker: str) -> tuple[int, str, int]:
        """A summary line "Seat N: NAME<marker>…": the seat number, the player as the seat
        list names them, and where `marker` starts. The name is what stands between
        "Seat N: " and the marker or, for a name with the marker's words in it, the longest
        seated name the marker follows. A name not in the seat list, or a seat that is not
        the player's, is an error."""
        colon = index_of(text, ": ")
        number = int(text[5:colon])
        start = colon + 2
        at = text.find(marker, start)
        seat = self.seated.get(text[start:at]) if at >= 0 else None
        if seat is None:
            for candidate in self.names_longest_first:
                if starts_at(text, candidate + marker, start):
                    seat, at = self.seated[candidate], start + len(candidate)
                    break
        named = text[start:at] if at >= 0 else text[start:]
        return number, self.summary_player(seat, number, named, line, text), at

    def summary_rest(self, text: str, line: int, marker: str) -> tuple[int, str, str]:
        """`summary_seat`'s seat number and player, and the words after `marker`."""
        number, name, at = self.summary_seat(text, line, marker)
        return number, name, text[at + len(marker) :]

    def summary_player(
        self, seat: Seat | None, number: int, named: str, line: int, text: str
    ) -> str:
        """The seat list's name for the player a summary line puts in seat `number`: `seat`,
        found by the name `named`; an error when nobody of that name sits, or sits there."""
        if seat is None:
            raise LineError(
                self.relative(line),
                f"the summary names {named!r}, who is not in the seat list",
                text,
            )
        if seat.number != number:
            raise LineError(
                self.relative(line),
                f"the summary puts {seat.name} in seat {number}, but {seat.name} sits in "
                f"seat {seat.number}",
                text,
            )
        return seat.name

    def player(self, name: str, line: int, text: str) -> str:
        """The seat list's own string for `name`; an error if nobody of that name sits."""
        seat = self.seated.get(name)
        if seat is not None:
            return seat.name
        raise LineError(self.relative(line), f"{name!r} is not in the seat list of this hand", text)

    def player_before(self, text: str, ending: str, line: int) -> str:
        """The seated player whose name starts the line, before `ending` (the first one, else
        the seated name `ending` follows: names may hold its words too)."""
        seat = self.seated.get(text[: text.find(ending)])
        if seat is not None:
            return seat.name
        return self.player_prefix(text, 0, ending, line)

    def named(self, text: str, marker: str, line: int) -> tuple[str, str]:
        """The seated player whose name ends where `marker` starts, and the text after it:
        the last `marker` first (names may hold the marker's words too), else the seated
        name `text` starts with that `marker` follows."""
        at = text.rfind(marker)
        seat = self.seated.get(text[:at])
        if seat is not None:
            return seat.name, text[at + len(marker) :]
        name = self.player_prefix(text, 0, marker, line)
        return name, text[len(name) + len(marker) :]

    def player_prefix(self, text: str, start: int, follow: str, line: int) -> str:
        """The seated player whose name stands at `text[start:]`, followed by `follow`."""
        if self.names_unspaced and follow[:1] == " ":
            # No name holds a space: only the text up to the first space can be one.
            space = text.find(" ", start)
            seat = self.seated.get(text[start:space]) if space >= 0 else None
            if seat is not None and starts_at(text, follow, space):
                return seat.name
        for name in self.names_longest_first:
            if starts_at(text, name, start) and starts_at(text, follow, start + len(name)):
                return name
        raise LineError(
            self.relative(line), "the player named here is not in the seat list of this hand", text
        )
