"""PHH, the Poker Hand History format (https://phh.readthedocs.io/) that pokerkit reads and
writes, read like a site: `.phh` files of one hand and `.phhs` files of many (TOML tables
`[1]`, `[2]`, …), in the stud variants `F7S` (7-card stud), `F7S/8` (stud hi/lo) and `FR`
(razz); hands of other variants are skipped by name.

Each hand is TOML (read with the standard library's `tomllib`): `antes` (per player),
`bring_in`, `small_bet`, `big_bet`, `starting_stacks`, and `actions`, one string each:

- `d dh pN CARDS`: cards dealt to player N, two characters a card, `??` for one nobody saw.
  The first deal of a player is 3rd street (two down cards and the door card, in that
  order); each later one a street (4th-6th face up, 7th down).
- `pN pb`: the bring-in; `pN cbr X`: a completion, bet or raise *to* X, the player's total
  for the street; `pN cc`: a check or a call; `pN f`: a fold; `pN sm CARDS`: shows (`sm`
  alone: mucks; `sm -`, as handlog's export writes it: shows the cards dealt above). Text
  after ` # ` is a comment.

Optional fields read: `players` (names; else `p1`, `p2`, …), `seats`, `seat_count`, `hand`,
`table`, `currency`, `year`/`month`/`day`/`time`, `finishing_stacks`, and handlog's own
`_site`, `_hand_id`, `_rake` (`handlog export --format phh` writes them).

What PHH does not say is a trait of the format, never a flag: no uncalled-bet lines (the
replay returns an uncalled bet itself), no total pot, no hand descriptions, and no pots paid
— the pushing of chips is left to the reader. Where `finishing_stacks` is given, each
player's collection is what their stack gained beyond what they put in (after rake, as the
site paid out), and the replay checks it like any site's; where not, the replay pays the
pots by the rules (`SiteTraits.prints_awards`).

Amounts are integers in the hand's units: chips, or a currency's minor units (cents) as
handlog writes them; a decimal amount (0.25) is read as major units of `currency` and must
be a whole number of cents.
"""

from __future__ import annotations

import re
import tomllib
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import PurePath
from typing import Any

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
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.traits import SiteTraits, UncalledBets

GAMES = {"F7S": Game.STUD, "F7S/8": Game.STUD8, "FR": Game.RAZZ}
"""PHH's stud variants (fixed limit, like every stud variant PHH has)."""

_TABLE_HEADER = re.compile(r"\[[0-9]+\]$")
_VARIANT = re.compile(r"variant\s*=")
_ACTION = re.compile(
    r"(?:d dh p(?P<dealt>\d+) (?P<cards>\S+)|p(?P<player>\d+) (?P<verb>\S+)(?: (?P<rest>.*))?)$"
)
_STREETS = (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
_DEALT_ON = (3, 1, 1, 1, 1)
"""Cards dealt to each player by each deal (3rd street: two down and the door card)."""
_FACE_UP = ((False, False, True), (True,), (True,), (True,), (False,))
_UP_POSITIONS = tuple(up for pattern in _FACE_UP for up in pattern)


class _Error(Exception):
    def __init__(self, line: int, message: str, text: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.text = text


def is_table_header(line: str) -> bool:
    """Whether `line` starts a hand of a `.phhs` file: a TOML table `[1]`, `[2]`, …"""
    return _TABLE_HEADER.match(line) is not None


def is_variant_line(line: str) -> bool:
    """Whether `line` starts a one-hand `.phh` file: its `variant = …` field."""
    return _VARIANT.match(line) is not None


def parse_hand(chunk: Chunk) -> Hand | ParseError | Skipped:
    """One PHH hand (a `.phhs` table or a whole `.phh` file) to a `Hand`, a `ParseError`,
    or `Skipped` for a variant handlog does not replay."""
    text = chunk.text
    body, first = text, 1
    if is_table_header(text.split("\n", 1)[0]):
        body, first = text.partition("\n")[2], 2
    try:
        fields = tomllib.loads(body, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        line = first + int(found[1]) - 1 if found else 1
        return _parse_error(chunk, line, f"the hand is not valid PHH (TOML): {error}")
    hand_id = _hand_id(fields, chunk)
    variant = fields.get("variant")
    if not isinstance(variant, str):
        return _parse_error(chunk, 1, "the hand names no variant", hand_id)
    game = GAMES.get(variant)
    if game is None:
        return Skipped(chunk.file, chunk.line, hand_id, f"PHH variant {variant}", Site.PHH.value)
    try:
        return _Builder(chunk, fields, game, hand_id, body, first).build()
    except _Error as error:
        return _parse_error(chunk, error.line, error.message, hand_id, error.text)


def _hand_id(fields: dict[str, Any], chunk: Chunk) -> str:
    """handlog's own `_site` and `_hand_id` when written by handlog, else the `hand` number,
    else the file's name and the hand's line (which stays the same for the same file)."""
    if isinstance(fields.get("_hand_id"), str):
        site = fields.get("_site")
        return f"{site}-{fields['_hand_id']}" if isinstance(site, str) else fields["_hand_id"]
    if isinstance(fields.get("hand"), int):
        return str(fields["hand"])
    return f"{PurePath(chunk.file).name}:{chunk.line}"


def _parse_error(
    chunk: Chunk, line: int, message: str, hand_id: str | None = None, text: str | None = None
) -> ParseError:
    lines = chunk.text.split("\n")
    return ParseError(
        chunk.file,
        chunk.line + line - 1,
        message,
        hand_id,
        text if text is not None else (lines[line - 1] if 0 < line <= len(lines) else None),
        chunk.line,
        chunk.text,
        Site.PHH.value,
    )


class _Builder:
    """The records of one hand from its PHH fields, with each player's street totals kept
    as the actions go (a `cbr` names a total, a `cc` does not)."""

    def __init__(
        self,
        chunk: Chunk,
        fields: dict[str, Any],
        game: Game,
        hand_id: str,
        body: str,
        first: int,
    ) -> None:
        self.chunk = chunk
        self.fields = fields
        self.game = game
        self.hand_id = hand_id
        self.currency = fields.get("currency") if isinstance(fields.get("currency"), str) else None
        lines = body.split("\n")
        self.action_lines = self._action_lines(lines, first)
        self.field_line = {
            name: first + index
            for index, line in enumerate(lines)
            for name in (line.split("=", 1)[0].strip(),)
            if "=" in line
        }

    # -- fields --------------------------------------------------------------------------

    def _line_of(self, name: str) -> int:
        return self.field_line.get(name, 1)

    def _amount(self, value: object, name: str) -> int:
        if isinstance(value, bool):
            raise _Error(self._line_of(name), f"{name} holds {value!r}, not an amount")
        if isinstance(value, int):
            return value
        if isinstance(value, Decimal):
            units = value * 100 if self.currency else value
            if units != units.to_integral_value():
                what = "a cent" if self.currency else "a chip"
                raise _Error(self._line_of(name), f"{name} holds {value}, a fraction of {what}")
            return int(units)
        raise _Error(self._line_of(name), f"{name} holds {value!r}, not an amount")

    def _amounts(self, name: str, count: int | None = None) -> list[int]:
        values = self.fields.get(name)
        if not isinstance(values, list):
            raise _Error(self._line_of(name), f"the hand has no {name} list")
        if count is not None and len(values) != count:
            raise _Error(
                self._line_of(name), f"{name} has {len(values)} entries for {count} players"
            )
        return [self._amount(value, name) for value in values]

    def _action_lines(self, lines: list[str], first: int) -> list[int]:
        """The line of each action string (TOML arrays list one to a line, as PHH writers
        do; any other layout falls back to the `actions` line)."""
        start = next((i for i, line in enumerate(lines) if line.startswith("actions")), None)
        if start is None:
            return []
        found: list[int] = []
        for index in range(start, len(lines)):
            line = lines[index]
            found.extend(
                [first + index] * len(re.findall(r"'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\"", line))
            )
            if "]" in line and not line.rstrip().endswith(","):
                break
        return found

    # -- the hand ------------------------------------------------------------------------

    def build(self) -> Hand:
        fields = self.fields
        stacks = self._amounts("starting_stacks")
        count = len(stacks)
        if count < 2:
            raise _Error(self._line_of("starting_stacks"), "a hand needs two players or more")
        names = fields.get("players")
        if names is None:
            names = [f"p{n}" for n in range(1, count + 1)]
        if not isinstance(names, list) or len(names) != count or len(set(names)) != count:
            raise _Error(self._line_of("players"), "players does not name each player once")
        self.names = [str(name) for name in names]
        seat_numbers = fields.get("seats", list(range(1, count + 1)))
        if not isinstance(seat_numbers, list) or len(seat_numbers) != count:
            raise _Error(self._line_of("seats"), "seats does not give each player a seat")
        antes = self._amounts("antes", count) if "antes" in fields else [0] * count
        small_bet = self._amount(fields.get("small_bet"), "small_bet")
        big_bet = self._amount(fields.get("big_bet"), "big_bet")
        bring_in = self._amount(fields.get("bring_in"), "bring_in")
        self.bring_in = bring_in
        self.left = list(stacks)
        self.put_in = [0] * count
        self.street_put = [0] * count
        self.current_bet = 0
        self.street_index = -1
        self.completed = False
        self.dealt_count = [0] * count
        self.known: list[list[Card | None]] = [[] for _ in range(count)]
        self.events: list[Event] = []
        self.streets: list[Street] = []
        ante_line = self._line_of("antes")
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
        actions = fields.get("actions")
        if not isinstance(actions, list):
            raise _Error(self._line_of("actions"), "the hand has no actions list")
        default_line = self._line_of("actions")
        for index, entry in enumerate(actions):
            line = self.action_lines[index] if index < len(self.action_lines) else default_line
            if not isinstance(entry, str):
                raise _Error(line, f"an action is {entry!r}, not text")
            self._action(entry.split(" # ", 1)[0].strip(), line)
        rake = self._amount(fields.get("_rake", 0), "_rake")
        total_pot = self._return_uncalled()
        results = self._results(stacks, rake, total_pot)
        seats = tuple(
            Seat(int(number), name, stack)
            for number, name, stack in zip(seat_numbers, self.names, stacks, strict=True)
        )
        largest_ante = max(antes) if any(antes) else None
        posted = [
            e.amount for e in self.events if type(e) is Action and e.kind is ActionKind.BRING_IN
        ]
        start = self._start_time()
        table = fields.get("table")
        return Hand(
            Site.PHH,
            self.hand_id,
            self.game,
            str(table) if table is not None else "",
            int(fields["seat_count"]) if isinstance(fields.get("seat_count"), int) else None,
            self.currency,
            small_bet,
            big_bet,
            start,
            seats,
            tuple(self.events),
            tuple(self.streets),
            results,
            total_pot,
            rake,
            ante=largest_ante,
            bring_in=posted[0] if posted else None,
            printed=Printed(
                clock_text=start.strftime("%Y/%m/%d %H:%M:%S UTC") if start is not None else ""
            ),
            source=Source(
                self.chunk.file, self.chunk.line, self.chunk.line + self.chunk.text.count("\n")
            ),
        )

    def _start_time(self) -> datetime | None:
        fields = self.fields
        year, month, day = fields.get("year"), fields.get("month"), fields.get("day")
        if not all(isinstance(v, int) for v in (year, month, day)):
            return None
        moment = fields.get("time")
        hours = getattr(moment, "hour", 0)
        minutes = getattr(moment, "minute", 0)
        seconds = getattr(moment, "second", 0)
        try:
            return datetime(year, month, day, hours, minutes, seconds, tzinfo=UTC)  # type: ignore[arg-type]
        except ValueError:
            raise _Error(self._line_of("year"), "the hand's date is not a date") from None

    # -- actions -------------------------------------------------------------------------

    def _player(self, number: str, line: int, text: str) -> int:
        index = int(number) - 1
        if not 0 <= index < len(self.names):
            raise _Error(line, f"the action names player p{number}, who is not in the hand", text)
        return index

    def _pay(self, player: int, amount: int) -> None:
        self.left[player] -= amount
        self.put_in[player] += amount
        self.street_put[player] += amount

    def _action(self, text: str, line: int) -> None:
        found = _ACTION.match(text)
        if found is None:
            raise _Error(line, f"the action {text!r} is not one of a stud hand", text)
        if found["dealt"] is not None:
            self._deal(self._player(found["dealt"], line, text), found["cards"], line, text)
            return
        player = self._player(found["player"], line, text)
        name = self.names[player]
        verb, rest = found["verb"], found["rest"]
        street = _STREETS[max(self.street_index, 0)]
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
            try:
                value = int(rest) if rest and rest.isdigit() else Decimal(rest or "")
                total = self._amount(value, "actions")
            except ArithmeticError:
                raise _Error(line, f"the action {text!r} names no amount", text) from None
            added = total - self.street_put[player]
            if added <= 0:
                raise _Error(
                    line, f"{name} bets or raises to {total}, no more than already in", text
                )
            if self.street_index == 0 and not self.completed:
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
        elif verb == "f":
            self.events.append(Action(street, name, ActionKind.FOLD, line=line))
        elif verb == "sm":
            self._showdown(player, rest, line, text)
        else:
            raise _Error(line, f"the action {text!r} is not one of a stud hand", text)

    def _deal(self, player: int, text: str, line: int, whole: str) -> None:
        deal = self.dealt_count[player]
        if deal >= len(_STREETS):
            raise _Error(line, f"{self.names[player]} is dealt more than seven cards", whole)
        if deal > self.street_index:  # the first card of a new street
            self.street_index = deal
            self.streets.append(_STREETS[deal])
            self.street_put = [0] * len(self.names)
            self.current_bet = 0
        if deal != self.street_index:
            raise _Error(line, f"{self.names[player]} is dealt out of turn", whole)
        self.dealt_count[player] += 1
        size = _DEALT_ON[deal]
        if len(text) != 2 * size:
            raise _Error(line, f"{self.names[player]} should be dealt {size} card(s) here", whole)
        try:
            dealt = [
                None if text[i : i + 2] == "??" else card(text[i : i + 2])
                for i in range(0, len(text), 2)
            ]
        except ValueError as error:
            raise _Error(line, f"a card cannot be read: {error}", whole) from None
        known = self.known[player]
        earlier = known[:]
        known.extend(dealt)
        if all(c is not None for c in known):
            # Every card of this player seen: the line shows them all (as a hero's does).
            previous = tuple(earlier)
            new = tuple(dealt)
        else:
            # Only the face-up cards, as an opponent's line shows them.
            ups = _UP_POSITIONS
            previous = tuple(c for i, c in enumerate(earlier) if ups[i] and c is not None)
            new = tuple(c for c, up in zip(dealt, _FACE_UP[deal], strict=True) if up and c)
        if new:
            street = _STREETS[deal]
            hidden = len(dealt) - len(new)  # "????" and the down cards an opponent's line omits
            self.events.append(
                Dealt(street, self.names[player], previous, new, line, hidden)  # type: ignore[arg-type]
            )

    def _showdown(self, player: int, rest: str | None, line: int, text: str) -> None:
        name = self.names[player]
        street = Street.SHOWDOWN
        if rest is None:
            self.events.append(Action(street, name, ActionKind.MUCK, line=line))
            return
        if rest == "-":
            cards = tuple(c for c in self.known[player] if c is not None)
            if len(cards) != len(self.known[player]):
                raise _Error(line, f"{name} shows cards that were never dealt face up", text)
        else:
            try:
                cards = tuple(card(rest[i : i + 2]) for i in range(0, len(rest), 2))
            except ValueError as error:
                raise _Error(line, f"a card cannot be read: {error}", text) from None
        self.events.append(Action(street, name, ActionKind.SHOW, cards=cards, line=line))

    # -- the end -------------------------------------------------------------------------

    def _return_uncalled(self) -> int:
        """The pot: every chip put in, less the bet nobody called (PHH has no line for it;
        the replay returns it too). Returns the total pot."""
        street_put = self.street_put
        top = max(range(len(street_put)), key=street_put.__getitem__)
        others = max((p for i, p in enumerate(street_put) if i != top), default=0)
        self.returned = [0] * len(street_put)
        self.returned[top] = street_put[top] - others
        return sum(self.put_in) - self.returned[top]

    def _results(self, stacks: list[int], rake: int, total_pot: int) -> tuple[SeatResult, ...]:
        """Collections from the finishing stacks, when given: what each stack gained beyond
        what the player has in the pot. Without them the hand says nothing of the pots."""
        finishing = self.fields.get("finishing_stacks")
        if finishing is None:
            return ()
        ends = self._amounts("finishing_stacks", len(stacks))
        line = self._line_of("finishing_stacks")
        collected = [
            end - (start - put + back)
            for end, start, put, back in zip(ends, stacks, self.put_in, self.returned, strict=True)
        ]
        if any(amount < 0 for amount in collected):
            loser = self.names[min(range(len(collected)), key=collected.__getitem__)]
            raise _Error(
                line, f"{loser}'s finishing stack is less than the stack less what was put in"
            )
        if sum(collected) + rake != total_pot:
            raise _Error(
                line,
                f"the finishing stacks pay out {sum(collected)}, but the pot less the rake is "
                f"{total_pot - rake}",
            )
        results = []
        for player, amount in enumerate(collected):
            if amount > 0:
                self.events.append(
                    Action(
                        Street.SHOWDOWN, self.names[player], ActionKind.COLLECT, amount, line=line
                    )
                )
                results.append(SeatResult(player + 1, self.names[player], won=amount, line=line))
        return tuple(results)


POKERKIT = RuleProfile(
    name="pokerkit",
    description=(
        "pokerkit, PHH's reference engine: a bet and three raises, also heads-up; no "
        "open-pair double bet; only a full raise reopens the betting; ties for the first "
        "actor and odd chips go by seat; no burns."
    ),
    cap_bets=4,
    cap_heads_up=True,
    open_pair_double_bet=frozenset(),
    all_in_reopens_at_half_bet=False,
    first_actor_tie=TieBreak.CLOCKWISE,
    odd_chip_tie=TieBreak.CLOCKWISE,
)
"""The rules of the hands pokerkit plays and writes as PHH. A PHH file exported from another
site's hands is best checked with that site's profile (`--profile pokerstars`)."""

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
)
"""A `.phhs` file: hands as TOML tables `[1]`, `[2]`, …"""

SINGLE_FORMAT = SiteFormat(
    site=Site.PHH,
    name="PHH (.phh)",
    header_prefix="variant",
    is_header=is_variant_line,
    parse_hand=parse_hand,
    profile=POKERKIT,
    traits=TRAITS,
    encodings=("utf-8",),
)
"""A `.phh` file: one hand, from its `variant` field."""
