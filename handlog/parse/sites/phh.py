"""PHH, the Poker Hand History format (https://phh.readthedocs.io/, the phh-std
specification) that pokerkit reads and writes and the published PHH dataset is in, read like a
site: `.phh` files of one hand and `.phhs` files of many (TOML tables `[1]`, `[2]`, …), in
the stud variants `F7S` (fixed-limit 7-card stud), `F7S/8` (stud hi/lo 8 or better) and `FR`
(razz), the specification's only stud variants; hands of its other variants (hold'em, Omaha,
draw) are skipped by name.

Each hand is TOML, read with the standard library's `tomllib` after a linear pass that bounds
what it may hold (`MAX_HAND_CHARACTERS`, `MAX_NESTING`, `MAX_KEY_PARTS`, `MAX_BARE_VALUE`:
tomllib recurses on nested arrays, is quadratic over dotted keys and fails without a line on
huge integers), and every value handlog uses is checked for its type and range before use: a
bad value is one parse error naming its line and field.

The fields read, as the specification has them:

- `variant`, `antes` (per player), `bring_in`, `small_bet`, `big_bet`, `starting_stacks`
  (`inf` for a stack not known), `actions`;
- `players` (an empty name, as the specification has for an anonymous player, reads as `pN`),
  `seats`, `seat_count`, `hand`, `table`, `level`, `year`/`month`/`day`/`time` with
  `time_zone` (IANA) or `time_zone_abbreviation` (a clock with neither, or with a zone not
  known on this machine, is read as UTC), `venue` (the card room: its house rules judge the
  hand), `currency` or `currency_symbol`, `finishing_stacks` and `winnings`;
- handlog's own, written by `handlog export --format phh`: `_site` (the site the hand was
  played at), `_hand_id`, `_rake`. Every other field (`author`, `event`, `url`, `address`,
  `city`, `time_limit`, `time_banks`, `ante_trimming_status`, any `_`-prefixed one …) is
  ignored, whatever it holds.

The actions, each a string, `[actor action[ arguments]][ # commentary]`:

- `d dh pN CARDS`: cards dealt to player N, two characters a card, `??` for one the
  transcriber did not see. A player's first three cards are 3rd street (two down and the door
  card), then one card a street (4th-6th face up, 7th down). A street's cards may come in one
  action or one card per action, round by round, as the published dataset deals them
  (`d dh p1 5d`, `d dh p2 7h`, …, then every player's second card, then the door cards).
- `pN pb`: the bring-in; `pN cbr X`: a completion, bet or raise *to* X, the player's total for
  the street (a transcriber writes no more than the other players can still put in: such a
  short amount is the full bet, the rest uncalled); `pN cc`: a check or a call; `pN f`: a fold; `pN sm CARDS`: shows (`??` for a
  card not shown), `pN sm -`: shows the cards dealt above, `pN sm` alone: mucks. A show may
  stand before the last cards are dealt (after an all-in), as the specification allows.
- an empty action or a commentary alone is a no-op; a board deal (`d db`) or a draw (`sd`)
  has no place in stud and is an error.

Money: amounts are integers or decimals, in the currency's units when the hand names one
(`currency`, or a `currency_symbol` $, € or £), else in chips. They are kept exact in minor
units, decided from the values as written: with a currency, cents; without one, whole chips,
or hundredths of a chip when any amount is written with a decimal point (2.50). A value that
is not a whole number of those units is an error.

What PHH does not say is a trait of the format, never a flag: no uncalled-bet lines (the
replay returns an uncalled bet itself), no total pot, no hand descriptions, and, unless the
hand gives `winnings` or `finishing_stacks`, no pots paid (the replay pays them by the rules:
`SiteTraits.prints_awards`). `winnings` are each player's collections; without them the
finishing stacks give them (what a stack gained beyond what the player put in). The finishing
stacks are also each player's result as the file prints it, which the replay checks against
the actions. PHH's winnings and finishing stacks are after rake: in a hand with a currency and
no `_rake`, what the pot paid out less than it held is the rake.

The house rules a hand is judged by: those of the site it names (`_site`, else `venue` when it
names a card room handlog reads: `Hand.house`), else `POKERKIT` (PHH's reference engine).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, tzinfo
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from handlog.cards import Card, card
from handlog.errors import ParseError, Skipped
from handlog.model import (
    Action,
    ActionKind,
    Dealt,
    Event,
    Game,
    Hand,
    Printed,
    Seat,
    SeatResult,
    Site,
    Source,
    Street,
)
from handlog.money import CURRENCY_SYMBOLS
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat
from handlog.parse.text import TIME_ZONES
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.traits import SiteTraits, UncalledBets

GAMES = {"F7S": Game.STUD, "F7S/8": Game.STUD8, "FR": Game.RAZZ}
"""PHH's stud variants (all fixed limit)."""

MAX_HAND_CHARACTERS = 1 << 18
"""A hand's TOML text is at most this long (a stud hand dealt one card per action, with every
metadata field, is some 3,000 characters): longer is an error, never read."""
MAX_NESTING = 16
"""Arrays and inline tables nested deeper are an error (PHH's own fields nest one deep;
tomllib recurses on each level and fails near 500)."""
MAX_KEY_PARTS = 16
"""Dotted keys of more parts are an error (tomllib takes quadratic time over them)."""
MAX_BARE_VALUE = 100
"""Longest number, date or word outside quotes (tomllib fails on integers of more than 4,300
digits with an error that names no line)."""
MAX_PLAYERS = 10
"""No stud table seats more (a 7-card stud deck deals 8 at most)."""
MAX_AMOUNT = 10**15
"""The largest amount read, in minor units: ten trillion dollars, or a quadrillion chips;
larger is no stake's and an error (the store keeps 64-bit integers)."""
MAX_SEAT = 1000
"""Seat numbers and seat counts above this are an error."""
MAX_TEXT_FIELD = 1000
"""Longest name, table, hand number, time zone … read (characters)."""
MAX_ACTION_CHARACTERS = 10_000
"""Longest action string read (a commentary may be long; an action is some 20 characters)."""

_SEVEN_STREETS = (Street.THIRD,) * 3 + (Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
"""The street of each card a player is dealt, by its position."""
_FACE_UP = (False, False, True, True, True, True, False)
"""Whether the card at each position is dealt face up."""
_CARD_COUNT = len(_FACE_UP)
_STREET_INDEX = {
    Street.THIRD: 0,
    Street.FOURTH: 1,
    Street.FIFTH: 2,
    Street.SIXTH: 3,
    Street.SEVENTH: 4,
}
_STREET_ENDS = {
    Street.THIRD: 3,
    Street.FOURTH: 4,
    Street.FIFTH: 5,
    Street.SIXTH: 6,
    Street.SEVENTH: 7,
}
"""The number of cards a player holds once each street is dealt."""

VENUES: dict[str, Site] = {
    **{site.value: site for site in Site if site is not Site.PHH},
    "fulltiltpoker": Site.FULL_TILT,
    "winningpoker": Site.WINNING,
    "winningpokernetwork": Site.WINNING,
    "americascardroom": Site.WINNING,
    "acr": Site.WINNING,
    "bodog": Site.BOVADA,
    "everleafgaming": Site.EVERLEAF,
    "ongamenetwork": Site.ONGAME,
    "absolutepoker": Site.ABSOLUTE,
    "kingsclubpoker": Site.KINGSCLUB,
    "ipokernetwork": Site.IPOKER,
    "mergenetwork": Site.MERGE,
    "mergegaming": Site.MERGE,
    "carbonpoker": Site.MERGE,
}
"""Card rooms as PHH's `venue` names them (lower case, letters and digits only: the dataset's
"PokerStars", "Absolute Poker", "iPoker Network" …), to the site whose house rules apply."""

_SINGLE_AMOUNTS = ("bring_in", "small_bet", "big_bet", "_rake")
_IDENTITY_FIELDS = (
    "variant",
    "antes",
    "bring_in",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
    "players",
    "event",
    "venue",
    "table",
    "year",
    "month",
    "day",
    "time",
)
"""The fields whose values make a hand's digest (`_Builder._hand_id`)."""

"""Card strings already read (a hand's cards repeat across hands: "??", "????Kc" …)."""
_TABLE_HEADER = re.compile(r"\[\s*(?:[0-9A-Za-z-][0-9A-Za-z_-]*|\"[^\"\n]*\")\s*\]\s*(?:#.*)?$")
_VARIANT = re.compile(r"(?:variant|\"variant\"|'variant')\s*=")
_COMMENT_OR_BLANK = re.compile(r"\s*(?:#.*)?$")
_PLAYER = re.compile(r"p([1-9][0-9]{0,2})$")
_CARDS = re.compile(r"(?:[2-9TJQKA][cdhs]|\?\?){1,7}$")
_AMOUNT = re.compile(r"[0-9][0-9,]*(?:\.[0-9]*)?(?:[eE][+-]?[0-9]{1,3})?$")
_COMMENTARY = re.compile(r"(?:^|\s)#")
_CURRENCY_CODE = re.compile(r"[A-Za-z]{3}$")
_TOKEN = re.compile(
    r"""
    (?P<newline>\n)
    |(?P<space>[ \t\r]+)
    |(?P<comment>\#[^\n]*)
    |(?P<multibasic>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"\"{0,2})
    |(?P<multiliteral>'''(?:[^']|'(?!''))*'''{0,2})
    |(?P<basic>"(?:[^"\\\n]|\\.)*")
    |(?P<literal>'[^'\n]*')
    |(?P<punctuation>[\[\]{},=.])
    |(?P<bare>[^\s\[\]{},=.\#"']+)
    |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@lru_cache(maxsize=100_000)
def _cards_read(word: str) -> tuple[Card | None, ...] | None:
    """The cards of a PHH cards word ("Kd7s", "????Ah"), None for a card not seen; None for a
    word that is not cards. Remembered: the same words repeat from hand to hand."""
    if not _CARDS.match(word):
        return None
    return tuple(
        None if word[i : i + 2] == "??" else card(word[i : i + 2]) for i in range(0, len(word), 2)
    )


def is_table_header(line: str) -> bool:
    """Whether `line` starts a hand of a `.phhs` file: a TOML table `[1]`, `[2]`, … (any one
    plain name: not a dotted subtable, an array of tables, or a user-defined `_` table)."""
    return _TABLE_HEADER.match(line) is not None and not line.lstrip("[ \t").startswith("_")


def is_variant_line(line: str) -> bool:
    """Whether `line` is a one-hand `.phh` file's `variant = …` field, where its hand is
    found (the fields above it are read with it: `single_file_context`)."""
    return _VARIANT.match(line) is not None


# -- the text before the first hand --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Preamble:
    """What stands in a PHH file before its first hand's header line."""

    text: str
    """Those lines, as read ("" when the header is the first line)."""
    hand_line: int
    """The line of the first hand's header."""


def single_file_context(head: str, file: str) -> Preamble | ParseError:
    """A `.phh` file's fields may come in any order, with comments above them: the lines before
    the `variant` field (where the hand is found) belong to the hand."""
    return _preamble(head, file, is_variant_line, "variant field", comments_only=False)


def bulk_file_context(head: str, file: str) -> Preamble | ParseError:
    """Before a `.phhs` file's first hand table only comments may stand: anything else is no
    hand's (TOML puts it outside every table) and the file is not PHH."""
    return _preamble(head, file, is_table_header, "hand table", comments_only=True)


def _preamble(
    head: str, file: str, is_header: Callable[[str], bool], what: str, *, comments_only: bool
) -> Preamble | ParseError:
    lines = head.lstrip("\ufeff").split("\n")
    for index, line in enumerate(lines[:-1] if len(head) >= MAX_HAND_CHARACTERS else lines):
        if is_header(line.rstrip()):
            before = lines[:index]
            if comments_only:
                for number, text in enumerate(before, start=1):
                    if not _COMMENT_OR_BLANK.match(text):
                        return ParseError(
                            file,
                            number,
                            f"this line stands before the first {what} of a .phhs file, in no "
                            "hand: a .phhs file holds its hands as tables [1], [2], …",
                            text=text[:200],
                            site=Site.PHH.value,
                        )
            return Preamble("\n".join(before), index + 1)
    return ParseError(
        file,
        1,
        f"no {what} in the first {MAX_HAND_CHARACTERS:,} characters: a PHH hand is never that long",
        site=Site.PHH.value,
    )


# -- bounded TOML ---------------------------------------------------------------------------


class _Error(Exception):
    """A value or action that cannot be read, at `line` (of the hand's text, from 1, when
    raised while reading its TOML; of the file, after; 0: the hand's first line)."""

    def __init__(self, line: int, message: str, text: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.text = text


@dataclass(slots=True)
class _Layout:
    """Where a hand's fields stand in its text (lines counted from 1 in that text)."""

    field_lines: dict[str, int]
    """The line of each top-level field."""
    action_lines: list[int]
    """The line of each string of the top-level `actions` array."""


def scan_toml(text: str) -> _Layout:
    """One linear pass over a hand's TOML text: the lines of its fields and actions, and
    `_Error` for what tomllib cannot be given safely (nesting beyond `MAX_NESTING`, a key of
    more than `MAX_KEY_PARTS` dotted parts, a bare value longer than `MAX_BARE_VALUE`). Text
    that is not TOML passes: tomllib says where it is wrong."""
    layout = _Layout({}, [])
    line = 1
    stack: list[str] = []  # the open "[" and "{" of the value being read
    expect_key = True
    key: list[str] = []
    key_line = 0
    top_level = True  # no table header seen yet: keys are the hand's fields
    in_header = False
    in_actions = False
    field = ""  # the top-level field being read
    for found in _TOKEN.finditer(text):
        kind = found.lastgroup
        token = found.group()
        if kind == "newline":
            line += 1
            if not stack:
                expect_key, key, in_header = True, [], False
            continue
        if kind == "space" or kind == "comment":
            continue
        if kind == "multibasic" or kind == "multiliteral":
            if in_actions and stack == ["["]:
                layout.action_lines.append(line)
            line += token.count("\n")
            expect_key = False
            continue
        if in_header:
            continue
        if expect_key:
            if token == "[" and not stack and not key:
                in_header, top_level, in_actions = True, False, False
                continue
            if token == ".":
                continue
            if kind in ("bare", "basic", "literal"):
                if not key:
                    key_line = line
                key.append(token if kind == "bare" else token[1:-1])
                if len(key) > MAX_KEY_PARTS:
                    raise _Error(line, f"a key of more than {MAX_KEY_PARTS} dotted parts")
                continue
            if token == "=":
                if not stack and top_level:
                    field = ".".join(key)
                    layout.field_lines.setdefault(field, key_line)
                    in_actions = field == "actions"
                expect_key, key = False, []
                continue
            expect_key, key = False, []  # not a key: tomllib will say so
        if kind == "punctuation":
            if token == "[" or token == "{":
                stack.append(token)
                if len(stack) > MAX_NESTING:
                    raise _Error(
                        line,
                        f"{field or 'a value'} holds arrays or tables nested more than "
                        f"{MAX_NESTING} deep",
                    )
                expect_key = token == "{"
            elif token == "]" or token == "}":
                if stack:
                    stack.pop()
            elif token == "," and stack and stack[-1] == "{":
                expect_key = True
        elif (kind == "basic" or kind == "literal") and in_actions and stack == ["["]:
            layout.action_lines.append(line)
        elif kind == "bare" and len(token) > MAX_BARE_VALUE:
            raise _Error(line, f"{field or 'a value'} holds a value of {len(token):,} characters")
    return layout


_STRING = r"""'[^'\x00-\x08\n-\x1f\x7f]*'|"[^"\\\x00-\x08\n-\x1f\x7f]*\""""
_WHOLE = r"[+-]?(?:0|[1-9](?:_?[0-9])*)"
_SCALAR = rf"(?:{_STRING}|{_WHOLE}\.[0-9](?:_?[0-9])*|{_WHOLE}|true|false)"
_ITEMS = rf"(?:{_SCALAR}[ \t]*,[ \t]*)*(?:{_SCALAR}[ \t]*(?:,[ \t]*)?)?"
_COMMENT = r"(?:\#[^\x00-\x08\n-\x1f\x7f]*)?\r?"
_END = rf"[ \t]*{_COMMENT}"
"""Every run of spaces stands in one place of a pattern: two side by side would make a
line that does not match cost the square of its length."""
_PLAIN_LINE = re.compile(
    rf"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*({_SCALAR}|\[[ \t]*{_ITEMS}\]|(\[)){_END}"
)
"""A line of the TOML PHH writers use: `key = value`, the value a whole or decimal number, a
text without escapes, true/false, an array of these, or "[" opening an array of such lines."""
_PLAIN_ITEMS = re.compile(rf"[ \t]*({_ITEMS}){_COMMENT}")
_PLAIN_CLOSE = re.compile(rf"[ \t]*\]{_END}")
_PLAIN_BLANK = re.compile(_END)
_PLAIN_ITEM = re.compile(rf"({_STRING})|({_WHOLE}\.[0-9](?:_?[0-9])*)|({_WHOLE})|(true|false)")


def _plain_items(text: str) -> list[Any] | None:
    """The values of an array's items (`_ITEMS`), as tomllib reads them; None for a bare value
    longer than `MAX_BARE_VALUE` (`scan_toml` says why)."""
    values: list[Any] = []
    for found in _PLAIN_ITEM.finditer(text):
        string, decimal, whole, boolean = found.groups()
        if string is not None:
            values.append(string[1:-1])
        elif len(found.group()) > MAX_BARE_VALUE:
            return None
        elif whole is not None:
            values.append(int(whole))
        elif decimal is not None:
            values.append(Decimal(decimal.replace("_", "")))
        else:
            values.append(boolean == "true")
    return values


def plain_toml(text: str) -> tuple[dict[str, Any], _Layout] | None:
    """A hand's fields and layout, read line by line, when its TOML is of the plain form PHH
    writers use (`_PLAIN_LINE`): what tomllib reads from it, decimals as `Decimal`. None for
    anything else (a date, an escape, an inline table, a dotted or repeated key, a nested
    array, a value longer than `MAX_BARE_VALUE`): `scan_toml` and tomllib read those."""
    fields: dict[str, Any] = {}
    layout = _Layout({}, [])
    open_key = ""  # the key of an array still open ("key = [" on an earlier line)
    open_items: list[Any] = []
    comma_due = False  # the open array's last item had no comma after it
    for number, line in enumerate(text.split("\n"), 1):
        if open_key:
            if _PLAIN_CLOSE.fullmatch(line):
                fields[open_key], open_key = open_items, ""
                continue
            found = _PLAIN_ITEMS.fullmatch(line)
            if found is None:
                return None
            items = found.group(1)
            if not items:
                continue
            if comma_due:
                return None
            values = _plain_items(items)
            if values is None:
                return None
            if open_key == "actions":
                layout.action_lines.extend([number] * sum(isinstance(v, str) for v in values))
            open_items.extend(values)
            comma_due = not items.rstrip().endswith(",")
            continue
        found = _PLAIN_LINE.fullmatch(line)
        if found is None:
            if _PLAIN_BLANK.fullmatch(line):
                continue
            return None
        key, value, opening = found.groups()
        if key in fields or key in layout.field_lines:
            return None
        layout.field_lines[key] = number
        if opening:
            open_key, open_items, comma_due = key, [], False
            continue
        values = _plain_items(value)
        if values is None:
            return None
        if value[0] == "[":
            fields[key] = values
            if key == "actions":
                layout.action_lines.extend([number] * sum(isinstance(v, str) for v in values))
        else:
            fields[key] = values[0]
    if open_key:
        return None
    return fields, layout


def _load_toml(text: str) -> dict[str, Any]:
    """tomllib on text `scan_toml` passed, every failure an `_Error` (tomllib raises
    `ValueError`, not its own error, for some values)."""
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        raise _Error(
            int(found[1]) if found else 0, f"the hand is not valid PHH (TOML): {error}"
        ) from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise _Error(0, f"the hand is not valid PHH (TOML): {error}") from None


# -- a hand ------------------------------------------------------------------------------


def parse_hand(chunk: Chunk, context: object = None) -> Hand | ParseError | Skipped:
    """One PHH hand (a `.phhs` table, or a `.phh` file with the lines above its `variant`
    field in `context`) to a `Hand`, a `ParseError` naming the line and field at fault, or
    `Skipped` for a variant handlog does not replay."""
    lines = chunk.text.split("\n")
    if is_table_header(lines[0]):
        body, base = "\n".join(lines[1:]), chunk.line + 1
    elif isinstance(context, Preamble) and context.text and chunk.line == context.hand_line:
        body, base = context.text + "\n" + chunk.text, chunk.line - context.text.count("\n") - 1
    else:
        body, base = chunk.text, chunk.line
    reading = _Reading(chunk, body, base)
    try:
        return reading.hand()
    except _Error as error:
        return reading.error(error)


class _Reading:
    """One hand's text on its way to a record."""

    def __init__(self, chunk: Chunk, body: str, base: int) -> None:
        self.chunk = chunk
        self.body = body
        self.base = base
        """The file's line of the body's first line."""
        self.hand_id: str | None = None
        self.in_file = False
        """Whether errors raised now name lines of the file (else of the body)."""

    def file_line(self, line: int) -> int:
        """A line of the body (from 1) as a line of the file; 0 is the hand's first."""
        return self.base + line - 1 if line > 0 else self.chunk.line

    def error(self, error: _Error) -> ParseError:
        line = error.line if self.in_file and error.line else self.file_line(error.line)
        text = error.text
        if text is None:
            lines = self.body.split("\n")
            index = line - self.base
            text = lines[index][:200] if 0 <= index < len(lines) else None
        return ParseError(
            self.chunk.file,
            line,
            error.message,
            self.hand_id,
            text,
            self.chunk.line,
            self.chunk.text,
            Site.PHH.value,
        )

    def hand(self) -> Hand | Skipped:
        if len(self.body) > MAX_HAND_CHARACTERS:
            raise _Error(
                0,
                f"the hand is {len(self.body):,} characters long: no PHH hand is longer than "
                f"{MAX_HAND_CHARACTERS:,}",
            )
        plain = plain_toml(self.body)
        if plain is None:
            layout = scan_toml(self.body)
            fields = _Fields(_load_toml(self.body), layout, self.file_line)
        else:
            fields = _Fields(plain[0], plain[1], self.file_line)
        self.in_file = True
        self.hand_id = fields.hand_number()
        variant = fields.get("variant")
        if not isinstance(variant, str):
            raise _Error(fields.line("variant"), "the hand names no variant (a text)")
        game = GAMES.get(variant)
        if game is None:
            return Skipped(
                self.chunk.file, self.chunk.line, self.hand_id, f"PHH variant {variant[:40]}"
            )
        hand = _Builder(self.chunk, fields, game).build()
        self.hand_id = hand.hand_id
        return hand


class _Fields:
    """A hand's TOML fields, each read by its type and range (or `_Error` naming its line in
    the file and the field)."""

    def __init__(
        self, fields: dict[str, Any], layout: _Layout, file_line: Callable[[int], int]
    ) -> None:
        self.fields = fields
        self.layout = layout
        self.file_line = file_line

    def line(self, name: str) -> int:
        """The file's line of field `name` (the hand's first line when it is not there)."""
        return self.file_line(self.layout.field_lines.get(name, 0))

    def fail(self, name: str, message: str) -> _Error:
        return _Error(self.line(name), f"{name} {message}")

    def get(self, name: str) -> Any:
        return self.fields.get(name)

    def text(self, name: str) -> str | None:
        """A text field (a number is taken as text: `table = 3`)."""
        value = self.fields.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise self.fail(name, f"holds {_shown(value)}, not a text or a number")
        if isinstance(value, int) and abs(value) >= 10**40:
            raise self.fail(name, "holds a number of more than 40 digits")
        shown = str(value)
        if len(shown) > MAX_TEXT_FIELD or any(c in shown for c in "\x00\n\r"):
            raise self.fail(name, f"holds a text of {len(shown):,} characters or a line break")
        return shown

    def integer(self, name: str, low: int, high: int) -> int | None:
        value = self.fields.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(name, f"holds {_shown(value)}, not a whole number")
        if not low <= value <= high:
            raise self.fail(name, f"holds {_shown(value)}, not a number from {low} to {high}")
        return value

    def array(self, name: str, count: int | None) -> list[Any] | None:
        value = self.fields.get(name)
        if value is None:
            return None
        if not isinstance(value, list):
            raise self.fail(name, f"holds {_shown(value)}, not an array")
        if count is not None and len(value) != count:
            raise self.fail(name, f"has {len(value)} entries for {count} players")
        return value

    def hand_number(self) -> str | None:
        """The hand's number as written, for messages about a hand that is not read."""
        for name in ("_hand_id", "hand"):
            value = self.fields.get(name)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                shown = str(value) if not isinstance(value, int) or abs(value) < 10**40 else ""
                if shown and len(shown) <= MAX_TEXT_FIELD:
                    return shown
        return None


def _shown(value: object) -> str:
    """A value as a message shows it (briefly: a value may be huge)."""
    if isinstance(value, list):
        return f"an array of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, Decimal) and not value.is_finite():
        return "nan" if value.is_nan() else "-inf" if value < 0 else "inf"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- money -----------------------------------------------------------------------------------


class _Money:
    """Amounts of one hand in its minor units, decided from the values as written: cents with
    a currency; else whole chips, or hundredths of a chip when any amount has a decimal point."""

    def __init__(self, currency: str | None, raw: list[object]) -> None:
        self.currency = currency
        self.hundredths = currency is None and any(
            isinstance(value, Decimal) and value.is_finite() and _exponent(value) < 0
            for value in raw
        )
        self.scale = 100 if currency is not None or self.hundredths else 1
        if currency is not None:
            self.unit = "a cent"
        elif self.hundredths:
            self.unit = "a hundredth of a chip"
        else:
            self.unit = "a chip"

    def units(self, value: object, what: str, line: int, *, unknown_allowed: bool = False) -> int:
        """`value` in minor units; -1 for a stack not known (`inf`) where allowed."""
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
            raise _Error(line, f"{what} holds {_shown(value)}, not an amount")
        if isinstance(value, Decimal):
            if value.is_infinite() and value > 0 and unknown_allowed:
                return -1
            if not value.is_finite():
                raise _Error(line, f"{what} holds {_shown(value)}, not an amount")
            sign, digits, exponent = value.as_tuple()
            assert isinstance(exponent, int)  # a finite value's
            if len(digits) > 40 or not -40 <= exponent <= 40:
                raise _Error(line, f"{what} holds {_shown(value)}: no stake is that")
            number = int("".join(map(str, digits)))
            shift = exponent + (2 if self.scale == 100 else 0)
            if shift >= 0:
                amount = number * 10**shift
            else:
                amount, rest = divmod(number, 10**-shift)
                if rest:
                    raise _Error(line, f"{what} holds {value}, a fraction of {self.unit}")
            if sign and amount:
                raise _Error(line, f"{what} holds {value}, an amount below zero")
        else:
            if value < 0:
                raise _Error(line, f"{what} holds {value}, an amount below zero")
            if value > MAX_AMOUNT:
                raise _Error(line, f"{what} holds {_shown(value)}: no stake is that")
            amount = value * self.scale
        if amount > MAX_AMOUNT:
            raise _Error(line, f"{what} holds {_shown(value)}: no stake is that")
        return amount


def _exponent(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return exponent if isinstance(exponent, int) else 0


def _amount_text(text: str) -> int | Decimal | None:
    """The amount of a `cbr` action, as pokerkit reads one ("750000", "47.50", "9,999.99")."""
    if len(text) > 60 or not _AMOUNT.match(text):
        return None
    plain = text.replace(",", "")
    return int(plain) if plain.isdigit() else Decimal(plain)


# -- actions ---------------------------------------------------------------------------------


class _Step(NamedTuple):
    """One action string, read."""

    verb: str
    """"dh" (a deal), "pb", "cbr", "cc", "f", "sm" (shows or mucks), or "" (a no-op)."""
    player: int
    """The player's index (0 for p1)."""
    line: int
    text: str
    cards: tuple[Card | None, ...] = ()
    """Dealt or shown (None: `??`)."""
    amount: int | Decimal | None = None
    """A `cbr`'s amount as written."""
    shows: bool = False
    """`sm` with cards or `-` (else a muck)."""
    shows_dealt: bool = False
    """`sm -`: the cards dealt above."""


class _Builder:
    """The records of one hand from its checked fields, with each player's street totals kept
    as the actions go (a `cbr` names a total, a `cc` does not)."""

    def __init__(self, chunk: Chunk, fields: _Fields, game: Game) -> None:
        self.chunk = chunk
        self.fields = fields
        self.game = game

    # -- the hand ----------------------------------------------------------------------------

    def build(self) -> Hand:
        fields = self.fields
        raw_stacks = fields.array("starting_stacks", None)
        if raw_stacks is None:
            raise _Error(fields.line("variant"), "the hand has no starting_stacks")
        count = self.count = len(raw_stacks)
        if not 2 <= count <= MAX_PLAYERS:
            raise fields.fail(
                "starting_stacks", f"lists {count} players: a stud hand has 2 to {MAX_PLAYERS}"
            )
        raw_antes = fields.array("antes", count) or [0] * count
        raw_money: list[object] = [*raw_stacks, *raw_antes]
        for name in ("finishing_stacks", "winnings"):
            raw_money += fields.array(name, count) or []
        raw_money += [fields.get(name) for name in _SINGLE_AMOUNTS]
        self.names = self._names()
        steps = self._steps()
        raw_money += [step.amount for step in steps if step.amount is not None]
        currency = self._currency()
        money = self.money = _Money(currency, raw_money)
        line = fields.line("starting_stacks")
        stacks = [money.units(v, "starting_stacks", line, unknown_allowed=True) for v in raw_stacks]
        if 0 in stacks:
            raise fields.fail("starting_stacks", "holds a stack of 0: a player without chips")
        antes = [money.units(v, "antes", fields.line("antes")) for v in raw_antes]
        small_bet = self.small_bet = self._single("small_bet", required=True)
        big_bet = self.big_bet = self._single("big_bet", required=True)
        bring_in = self.bring_in = self._single("bring_in", required=True)
        if not 0 < small_bet <= big_bet or bring_in <= 0:
            raise _Error(
                fields.line("small_bet"),
                "the stakes are not a bring-in, a small bet and a big bet above zero, the big "
                "bet at least the small",
            )
        self.seat_numbers = self._seats()
        # An unknown stack (inf) covers whatever the player puts in: it is settled once the
        # hand is read (`_settle_unknown_stacks`).
        self.unknown = [stack < 0 for stack in stacks]
        self.left = [MAX_AMOUNT * 2 if stack < 0 else stack for stack in stacks]
        self.put_in = [0] * count
        self.street_put = [0] * count
        self.returned = [0] * count
        self.current_bet = 0
        self.street_index = -1
        self.betting_started = False
        self.completed = False
        self.folded: set[int] = set()
        self.dealt: list[list[Card | None]] = [[] for _ in range(count)]
        self.pending: list[list[tuple[Card | None, int]]] = [[] for _ in range(count)]
        """Each player's cards of the street being dealt, not yet recorded, with their lines."""
        self.events: list[Event] = []
        self.shows: list[tuple[int, _Step, int]] = []
        """Each show or muck: its event's index, its step, the cards the player held then."""
        self.streets: list[Street] = []
        ante_line = fields.line("antes")
        for player, ante in enumerate(antes):
            if ante > 0:
                paid = min(ante, self.left[player])
                self._pay(player, paid)
                self.events.append(
                    Action(
                        Street.ANTES,
                        self.names[player],
                        ActionKind.ANTE,
                        paid,
                        all_in=self.left[player] == 0,
                        line=ante_line,
                    )
                )
        self.street_put = [0] * count
        for step in steps:
            self._step(step)
        self._flush_deals()
        self._close_street()
        self._finish_shows()
        stacks = self._settle_unknown_stacks(stacks)
        total_pot = sum(self.put_in) - sum(self.returned)
        results, rake = self._results(stacks, total_pot)
        seats = tuple(
            Seat(number, name, stack)
            for number, name, stack in zip(self.seat_numbers, self.names, stacks, strict=True)
        )
        posted = [
            e.amount for e in self.events if type(e) is Action and e.kind is ActionKind.BRING_IN
        ]
        start, clock = self._start_time()
        level = fields.integer("level", 0, 10**6)
        house = self._house()
        chunk = self.chunk
        return Hand(
            Site.PHH,
            self._hand_id(house),
            self.game,
            fields.text("table") or "",
            fields.integer("seat_count", count, MAX_SEAT),
            currency,
            small_bet,
            big_bet,
            start,
            seats,
            tuple(self.events),
            tuple(self.streets),
            results,
            total_pot,
            rake,
            ante=max(antes) if any(antes) else None,
            bring_in=posted[0] if posted else None,
            tournament_level=str(level) if level is not None else None,
            chips_in_hundredths=money.hundredths,
            printed=Printed(clock_text=clock),
            house=house,
            source=Source(chunk.file, chunk.line, chunk.line + chunk.text.count("\n")),
        )

    def _single(self, name: str, *, required: bool = False) -> int:
        value = self.fields.get(name)
        if value is None:
            if required:
                raise _Error(self.fields.line("variant"), f"the hand has no {name}")
            return 0
        return self.money.units(value, name, self.fields.line(name))

    def _currency(self) -> str | None:
        code = self.fields.text("currency")
        if code is not None:
            if not _CURRENCY_CODE.match(code):
                raise self.fields.fail("currency", f"holds {code!r}, not a currency's ISO code")
            return code.upper()
        symbol = self.fields.text("currency_symbol")
        return CURRENCY_SYMBOLS.get(symbol) if symbol is not None else None

    def _names(self) -> list[str]:
        raw = self.fields.array("players", self.count)
        names = [f"p{n}" for n in range(1, self.count + 1)]
        if raw is None:
            return names
        for index, value in enumerate(raw):
            if not isinstance(value, str):
                raise self.fields.fail("players", f"holds {_shown(value)}, not a name")
            name = value.strip()
            if len(name) > MAX_TEXT_FIELD or any(c in name for c in "\x00\n\r"):
                raise self.fields.fail("players", "holds a name too long or with a line break")
            if name:
                names[index] = name
        # Anonymous players (the specification's empty names) and names written twice are
        # told apart by their place: "p3", "Ann (p4)".
        taken: set[str] = set()
        for index, name in enumerate(names):
            if name in taken:
                name = names[index] = f"{name} (p{index + 1})"
                if name in taken:
                    raise self.fields.fail("players", f"names {name!r} twice")
            taken.add(name)
        return names

    def _seats(self) -> list[int]:
        raw = self.fields.array("seats", self.count)
        if raw is None:
            return list(range(1, self.count + 1))
        for value in raw:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEAT:
                raise self.fields.fail(
                    "seats", f"holds {_shown(value)}, not a seat number from 0 to {MAX_SEAT}"
                )
        if len(set(raw)) != len(raw):
            raise self.fields.fail("seats", "gives two players the same seat")
        return list(raw)

    def _house(self) -> Site | None:
        """The site whose house rules the hand was played by: handlog's `_site`, else the
        `venue` when it names a card room handlog reads."""
        site = self.fields.text("_site")
        if site is not None:
            try:
                found = Site(site)
            except ValueError:
                raise self.fields.fail(
                    "_site", f"holds {site!r}, not a site handlog reads"
                ) from None
            return None if found is Site.PHH else found
        venue = self.fields.text("venue")
        if venue is None:
            return None
        return VENUES.get("".join(c for c in venue.lower() if c.isalnum()))

    def _hand_id(self, house: Site | None) -> str:
        """handlog's own `_hand_id` (after its `_site`) when written by handlog; the `hand`
        number after the site the venue names (site hand numbers are unique); else the hand
        number with a digest of the hand's play, the same for the same hand read again
        (hand numbers repeat across events and tables, and files are named by them)."""
        fields = self.fields
        own = fields.text("_hand_id")
        if own is not None:
            site = fields.text("_site")
            return f"{site}-{own}" if site is not None and site != Site.PHH.value else own
        number = fields.text("hand")
        if number is not None and house is not None:
            return f"{house.value}-{number}"
        digest = hashlib.blake2b(digest_size=6)
        for name in _IDENTITY_FIELDS:
            digest.update(repr(fields.get(name)).encode("utf-8", "replace"))
            digest.update(b"\0")
        tag = digest.hexdigest()
        return f"{number}-{tag}" if number is not None else tag

    def _start_time(self) -> tuple[datetime | None, str]:
        fields = self.fields
        year = fields.integer("year", 1, 9999)
        month = fields.integer("month", 1, 12)
        day = fields.integer("day", 1, 31)
        moment = fields.get("time")
        if moment is not None and not isinstance(moment, time):
            raise fields.fail("time", f"holds {_shown(moment)}, not a time of day (12:34:56)")
        if year is None or month is None or day is None:
            return None, ""
        try:
            when = date(year, month, day)
        except ValueError:
            raise fields.fail("day", f"{day} is not a day of {year}-{month:02d}") from None
        clock = moment.replace(tzinfo=None) if moment is not None else time()
        zone, zone_name = self._zone()
        local = datetime.combine(when, clock, tzinfo=zone)
        try:
            start = local.astimezone(UTC)
        except (OverflowError, ValueError):
            start = local.replace(tzinfo=UTC)
        text = f"{when:%Y/%m/%d}" + (f" {clock:%H:%M:%S}" if moment is not None else "")
        return start, text + (f" {zone_name}" if zone_name and moment is not None else "")

    def _zone(self) -> tuple[tzinfo, str]:
        """The clock's time zone: `time_zone` (IANA), else `time_zone_abbreviation`, else
        UTC (a name not known on this machine, too: the time is read as UTC)."""
        name = self.fields.text("time_zone")
        if name is not None:
            return _zone_named(name), name
        abbreviation = self.fields.text("time_zone_abbreviation")
        if abbreviation is not None:
            key = TIME_ZONES.get(abbreviation.upper(), abbreviation)
            return _zone_named(key), abbreviation
        return UTC, ""

    # -- actions -----------------------------------------------------------------------------

    def _steps(self) -> list[_Step]:
        raw = self.fields.array("actions", None)
        if raw is None:
            raise _Error(self.fields.line("variant"), "the hand has no actions array")
        lines = self.fields.layout.action_lines
        fallback = self.fields.line("actions")
        file_line = self.fields.file_line
        steps = []
        for index, entry in enumerate(raw):
            line = file_line(lines[index]) if index < len(lines) else fallback
            if not isinstance(entry, str):
                raise _Error(line, f"an action is {_shown(entry)}, not text")
            if len(entry) > MAX_ACTION_CHARACTERS:
                raise _Error(line, f"an action of {len(entry):,} characters", entry[:200])
            steps.append(self._read_step(entry, line))
        return steps

    def _read_step(self, entry: str, line: int) -> _Step:
        words = (_COMMENTARY.split(entry, 1)[0] if "#" in entry else entry).split()
        shown = entry[:200]
        if not words:
            return _Step("", 0, line, shown)
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh":
                player = self._player(words[2], line, shown)
                return _Step("dh", player, line, shown, self._cards(words[3], line, shown))
            if len(words) >= 2 and words[1] == "db":
                raise _Error(line, "a board card is dealt: stud has no board", shown)
            raise _Error(line, f"the dealing {shown!r} is not one of PHH", shown)
        player = self._player(words[0], line, shown)
        verb = words[1] if len(words) > 1 else ""
        rest = words[2:]
        if verb in ("pb", "cc", "f") and not rest:
            return _Step(verb, player, line, shown)
        if verb == "cbr" and len(rest) == 1:
            amount = _amount_text(rest[0])
            if amount is None:
                raise _Error(line, f"the action {shown!r} names no amount", shown)
            return _Step("cbr", player, line, shown, amount=amount)
        if verb == "sm" and len(rest) <= 1:
            if not rest:
                return _Step("sm", player, line, shown)
            if rest[0] == "-":
                return _Step("sm", player, line, shown, shows=True, shows_dealt=True)
            cards = self._cards(rest[0], line, shown)
            return _Step("sm", player, line, shown, cards, shows=True)
        if verb == "sd":
            raise _Error(line, "a draw (sd) in a stud hand", shown)
        raise _Error(line, f"the action {shown!r} is not one of a stud hand", shown)

    def _player(self, word: str, line: int, text: str) -> int:
        found = _PLAYER.match(word)
        if found is None:
            raise _Error(line, f"{word[:20]!r} is not a player (p1, p2, …)", text)
        index = int(found[1]) - 1
        if index >= self.count:
            raise _Error(line, f"the action names player {word}, who is not in the hand", text)
        return index

    def _cards(self, word: str, line: int, text: str) -> tuple[Card | None, ...]:
        found = _cards_read(word)
        if found is None:
            raise _Error(
                line,
                f"{word[:20]!r} are not cards (two characters a card, such as Kd, or ?? for one "
                "not seen)",
                text,
            )
        return found

    def _pay(self, player: int, amount: int) -> None:
        self.left[player] -= amount
        self.put_in[player] += amount
        self.street_put[player] += amount

    def _step(self, step: _Step) -> None:
        verb = step.verb
        if verb == "":
            return
        if verb == "dh":
            self._deal(step)
            return
        player = step.player
        name = self.names[player]
        line = step.line
        if verb == "sm":  # its cards are settled once every card is known (`_finish_shows`)
            held = len(self.dealt[player]) + len(self.pending[player])
            self.shows.append((len(self.events), step, held))
            self.events.append(Action(Street.SHOWDOWN, name, ActionKind.MUCK, line=line))
            return
        if self.street_index < 0:
            raise _Error(line, "a player acts before any card is dealt", step.text)
        self._flush_deals()
        self.betting_started = True
        street = self.streets[-1]
        if verb == "pb":
            amount = min(self.bring_in, self.left[player])
            self._pay(player, amount)
            self.current_bet = max(self.current_bet, self.street_put[player])
            self.events.append(
                Action(
                    street,
                    name,
                    ActionKind.BRING_IN,
                    amount,
                    to_amount=self.street_put[player],
                    all_in=self.left[player] == 0,
                    line=line,
                )
            )
        elif verb == "cbr":
            total = self._full_if_capped(
                player, street, self.money.units(step.amount, "the amount of a cbr action", line)
            )
            added = total - self.street_put[player]
            if added <= 0:
                raise _Error(
                    line,
                    f"{name} bets or raises to {step.amount}, no more than already in",
                    step.text,
                )
            if street is Street.THIRD and not self.completed:
                kind = ActionKind.COMPLETE
                self.completed = True
            elif self.current_bet == 0:
                kind = ActionKind.BET
            else:
                kind = ActionKind.RAISE
            self._pay(player, added)
            self.current_bet = max(self.current_bet, total)
            self.events.append(
                Action(
                    street,
                    name,
                    kind,
                    added,
                    to_amount=total,
                    all_in=self.left[player] <= 0,
                    line=line,
                )
            )
        elif verb == "cc":
            owed = min(self.current_bet - self.street_put[player], self.left[player])
            if owed <= 0:
                self.events.append(Action(street, name, ActionKind.CHECK, line=line))
            else:
                self._pay(player, owed)
                self.events.append(
                    Action(
                        street,
                        name,
                        ActionKind.CALL,
                        owed,
                        to_amount=self.street_put[player],
                        all_in=self.left[player] == 0,
                        line=line,
                    )
                )
        else:  # "f"
            self.folded.add(player)
            self.events.append(Action(street, name, ActionKind.FOLD, line=line))

    def _full_if_capped(self, player: int, street: Street, total: int) -> int:
        """A transcribed completion, bet or raise stops at what the other players can still
        put in (the dataset writes a raise "to 750,000" where the full raise goes to
        1,200,000 when the one opponent left has 750,000 in all): the rest would come back
        uncalled. Such an amount is the full one (the part nobody could call comes back at
        the street's end, as the replay returns it); any other short amount stays as
        written, for the replay to judge."""
        size = self.small_bet if street in (Street.THIRD, Street.FOURTH) else self.big_bet
        if street is Street.THIRD and not self.completed:
            full = self.small_bet
        else:
            full = self.current_bet + size
        if not self.current_bet < total < full <= self.street_put[player] + self.left[player]:
            return total
        reach = max(
            (
                self.street_put[other] + self.left[other]
                for other in range(self.count)
                if other != player and other not in self.folded
            ),
            default=0,
        )
        return full if total == reach else total

    def _deal(self, step: _Step) -> None:
        player = step.player
        have = len(self.dealt[player]) + len(self.pending[player])
        if have + len(step.cards) > _CARD_COUNT:
            raise _Error(
                step.line, f"{self.names[player]} is dealt more than seven cards", step.text
            )
        streets = {_SEVEN_STREETS[position] for position in range(have, have + len(step.cards))}
        if len(streets) > 1:
            raise _Error(
                step.line,
                "one dealing gives cards of two streets (3 on 3rd street, then 1 a street)",
                step.text,
            )
        (street,) = streets
        index = _STREET_INDEX[street]
        if index > self.street_index:  # the first card of a new street
            if index != self.street_index + 1:
                raise _Error(
                    step.line, f"{street.label} is dealt before the street before it", step.text
                )
            self._flush_deals()
            self._close_street()
            self.street_index = index
            self.streets.append(street)
            self.current_bet = 0
            self.betting_started = False
        elif index < self.street_index or self.betting_started:
            raise _Error(
                step.line,
                f"{self.names[player]} is dealt a card of {street.label} after its betting began",
                step.text,
            )
        self.pending[player].extend((c, step.line) for c in step.cards)
        if have + len(step.cards) == _STREET_ENDS[street]:
            self._deal_out(player)

    def _flush_deals(self) -> None:
        """Deals of the street still partial (a hand cut short): recorded as they are."""
        for player in range(self.count):
            if self.pending[player]:
                self._deal_out(player)

    def _deal_out(self, player: int) -> None:
        """One player's cards of a street, as one `Dealt` record at the line of its last card:
        every card when all of the player's cards are known (as a hero's line shows them),
        else the face-up ones only (as an opponent's does)."""
        dealt = self.dealt[player]
        cards = [c for c, _ in self.pending[player]]
        line = self.pending[player][-1][1]
        first = len(dealt)
        self.pending[player] = []
        earlier = list(dealt)
        dealt.extend(cards)
        if None not in dealt:
            previous = tuple(c for c in earlier if c is not None)
            new = tuple(c for c in cards if c is not None)
        else:
            previous = tuple(c for i, c in enumerate(earlier) if _FACE_UP[i] and c is not None)
            new = tuple(
                c for i, c in enumerate(cards, start=first) if _FACE_UP[i] and c is not None
            )
        if new:
            self.events.append(
                Dealt(
                    _SEVEN_STREETS[first],
                    self.names[player],
                    previous,
                    new,
                    line,
                    len(cards) - len(new),
                )
            )

    def _close_street(self) -> None:
        """At the end of a street, the part of the top bet nobody called goes back to its
        bettor (PHH prints no line for it; the replay returns it too)."""
        put = self.street_put
        top = max(range(len(put)), key=put.__getitem__)
        others = max((p for i, p in enumerate(put) if i != top), default=0)
        self.returned[top] += put[top] - others
        self.street_put = [0] * self.count

    def _finish_shows(self) -> None:
        """Each show as the cards the player held then, by position, known from the show or
        the deal, up to the first card nobody saw; a player's last show (the one a showdown
        reads) holds every card of theirs known by the end (a hand shown after an all-in,
        before the last cards, is dealt those face up in effect); a muck stays a muck."""
        last = {step.player: index for index, step, _ in self.shows if step.shows}
        for index, step, held in self.shows:
            if not step.shows:
                continue
            player = step.player
            dealt = self.dealt[player]
            if step.shows_dealt:
                shown: list[Card | None] = list(dealt[:held])
            else:
                shown = list(step.cards)
                if len(shown) > held > 0:
                    raise _Error(
                        step.line,
                        f"{self.names[player]} shows {len(shown)} cards of {held} dealt",
                        step.text,
                    )
            reach = len(dealt) if last[player] == index else held
            for position in range(reach):
                if position >= len(shown):
                    shown.append(dealt[position])
                elif shown[position] is None:
                    shown[position] = dealt[position]
            cards = []
            for known in shown:
                if known is None:
                    break
                cards.append(known)
            self.events[index] = Action(
                Street.SHOWDOWN,
                self.names[player],
                ActionKind.SHOW,
                cards=tuple(cards),
                line=step.line,
            )

    # -- the end -----------------------------------------------------------------------------

    def _settle_unknown_stacks(self, stacks: list[int]) -> list[int]:
        """A stack not known (`inf`) is taken as what the player put in and the largest stack
        known at the table on top: deep enough that no rule about stacks reads into it."""
        if not any(self.unknown):
            return stacks
        known = [s for s, unknown in zip(stacks, self.unknown, strict=True) if not unknown]
        cover = max(known, default=sum(self.put_in) or 1)
        return [
            put + cover if unknown else stack
            for stack, put, unknown in zip(stacks, self.put_in, self.unknown, strict=True)
        ]

    def _results(self, stacks: list[int], total_pot: int) -> tuple[tuple[SeatResult, ...], int]:
        """Collections from `winnings`, else from the finishing stacks (what each stack gained
        beyond what the player has in the pot), each player's result as the finishing stacks
        print it, and the rake; nothing when the hand gives neither (the replay then pays the
        pots by the rules). The replay checks the collections against the pots and the
        printed results against the actions."""
        money = self.money
        raw_winnings = self.fields.array("winnings", self.count)
        raw_finishing = self.fields.array("finishing_stacks", self.count)
        rake_given = self.fields.get("_rake") is not None
        rake = self._single("_rake")
        nets: list[int] | None = None
        line = 0
        if raw_finishing is not None:
            line = self.fields.line("finishing_stacks")
            finishing = [
                money.units(v, "finishing_stacks", line, unknown_allowed=True)
                for v in raw_finishing
            ]
            if not any(self.unknown) and -1 not in finishing:
                nets = [end - start for end, start in zip(finishing, stacks, strict=True)]
        if raw_winnings is not None:
            line = self.fields.line("winnings")
            collected = [money.units(v, "winnings", line) for v in raw_winnings]
        elif nets is not None:
            collected = [
                max(net + put - back, 0)
                for net, put, back in zip(nets, self.put_in, self.returned, strict=True)
            ]
        else:
            return (), rake
        paid = sum(collected)
        if not rake_given and money.currency is not None and paid < total_pot:
            rake = total_pot - paid  # PHH's results are after rake, which it has no field for
        results = []
        for player, amount in enumerate(collected):
            name = self.names[player]
            if amount > 0:
                self.events.append(
                    Action(Street.SHOWDOWN, name, ActionKind.COLLECT, amount, line=line)
                )
            if amount > 0 or nets is not None:
                results.append(
                    SeatResult(
                        self.seat_numbers[player],
                        name,
                        won=amount if amount > 0 else None,
                        net=nets[player] if nets is not None else None,
                        line=line,
                    )
                )
        return tuple(results), rake


def _zone_named(name: str) -> tzinfo:
    if name.upper() in ("UTC", "ETC/UTC", "GMT", "Z"):
        return UTC
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name)
    except (ValueError, OSError, KeyError):  # unknown here (ZoneInfoNotFoundError is a KeyError)
        return UTC


POKERKIT = RuleProfile(
    name="pokerkit",
    description=(
        "pokerkit, PHH's reference engine: a bet and three raises, also heads-up; no "
        "open-pair double bet; only a full raise reopens the betting, and a short all-in "
        "before any full bet closes nothing; ties for the first "
        "actor and odd chips go by seat; no burns."
    ),
    cap_bets=4,
    cap_heads_up=True,
    open_pair_double_bet=frozenset(),
    all_in_reopens_at_half_bet=False,
    short_opening_all_in_reopens=True,  # tests/test_site_phh.py's pokerkit hands show it
    first_actor_tie=TieBreak.CLOCKWISE,
    odd_chip_tie=TieBreak.CLOCKWISE,
)
"""The rules of the hands pokerkit plays and writes as PHH: the house of a PHH hand that names
no site (`_site` or a `venue` handlog knows)."""

TRAITS = SiteTraits(
    uncalled_bets=UncalledBets.SILENT,
    prints_total_pot=False,
    describes_hands=False,
    prints_awards=False,
)

FORMAT = SiteFormat(
    site=Site.PHH,
    name="PHH (.phhs)",
    header_prefix="[",
    is_header=is_table_header,
    parse_hand=parse_hand,
    profile=POKERKIT,
    traits=TRAITS,
    encodings=("utf-8",),
    file_context=bulk_file_context,
)
"""A `.phhs` file: hands as TOML tables `[1]`, `[2]`, …"""

SINGLE_FORMAT = SiteFormat(
    site=Site.PHH,
    name="PHH (.phh)",
    header_prefix="",
    is_header=is_variant_line,
    parse_hand=parse_hand,
    profile=POKERKIT,
    traits=TRAITS,
    encodings=("utf-8",),
    file_context=single_file_context,
)
"""A `.phh` file: one hand, found at its `variant` field."""
