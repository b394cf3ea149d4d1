"""Winning Poker network stud-family hand histories in the 2016 format (UTF-16 exports:
`Game started at: 2016/8/2 11:13:2`, `Game ID: 693975843 1/2 … (Seven Cards Stud HiLow)`) to
`Hand` records.

`grammars/winning2016.lark` is the specification. What this module normalises: every player
line starts with "Player " and every figure is the chips that action puts in (bring-in, bet,
call, raise, all-in), so street totals are counted here; cards are dealt one line per card
(`received card: [10d]`, rank "10"; `received a card.` for a card face down to an opponent),
merged into one `Dealt` record per player and street whose `previous` repeats the cards seen
before, as other sites print them; the street labels are shifted by one (the first round has
no header, "*** Third street ***" opens 4th street); showdowns and collects exist only in the
summary (`*Player X shows: … [cards] … Bets: 3.55. Collects: 3.53. Loses: 0.02.`), where the
pot is printed after the rake and the jackpot fee (`Pot: 7.05. Rake 0.14. JP fee 0.06`).

The clock has no zone (the player's computer's, presumably), so `start_time` is None and the
clock is kept as printed in `clock_text`. The per-player `Bets`/`Collects`/`Wins|Loses`
figures have no field in the records: collects become COLLECT actions, and the printer
writes `Bets` from the actions.
"""

from __future__ import annotations

import re

from handlog import model
from handlog.cards import Card, cards, format_cards
from handlog.errors import ParseError, Skipped
from handlog.money import FigureError, minor_units, small_number
from handlog.parse import text as txt
from handlog.parse.printing import ActionWords, Money, action_line, events_by_street
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat
from handlog.parse.sites.winning import PROFILE, TRAITS

SITE = model.Site.WINNING
HEADER_PREFIX = "Game started at: "
_HEADER = re.compile(r"Game started at: (\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{1,2}:\d{1,2})$")
HEADER_BYTES = re.compile(
    rb"\nGame started at: \d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{1,2}:\d{1,2}[ \t\r]*\n"
)
"""A newline and a whole hand header line (`is_header`'s), for cutting files into ranges of
whole hands (in the UTF-16 the site writes, matched as text: `reader.hand_ranges`)."""
_GAME_ID = re.compile(
    r"Game ID: (?P<number>\d+) (?P<small>\d[\d,]*(?:\.\d+)?)/(?P<big>\d[\d,]*(?:\.\d+)?) "
    r"(?P<table>.+?) \((?P<game>[^()]+)\)(?: (?P<max>\d+)-max)?$"
)
_TOURNAMENT_TABLE = re.compile(r", Table \d+$")
_RESULT = re.compile(
    r"Bets: (?P<bets>\d[\d,]*(?:\.\d+)?)\. Collects: (?P<collects>\d[\d,]*(?:\.\d+)?)\. "
    r"(?P<result>Wins|Loses): (?P<net>\d[\d,]*(?:\.\d+)?)\.?$"
)
_POT = re.compile(
    r"Pot: (?P<pot>\d[\d,]*(?:\.\d+)?)(?:\. Rake (?P<rake>\d[\d,]*(?:\.\d+)?))?"
    r"(?:\. JP fee (?P<fee>\d[\d,]*(?:\.\d+)?))?\.?$"
)


def is_header(line: str) -> bool:
    """Whether `line` starts a Winning hand of the 2016 format."""
    return line.startswith(HEADER_PREFIX) and _HEADER.match(line) is not None


GAMES = {
    "Seven Cards Stud": model.Game.STUD,
    "Seven Cards Stud HiLow": model.Game.STUD8,
}
GAME_NAMES = {game: name for name, game in GAMES.items()}

SECTIONS = txt.section_table(*txt.STUD_STREETS, "SEVENTH_STREET", "SUMMARY")
STREET_HEADERS = {
    model.Street.FOURTH: "*** Third street ***",
    model.Street.FIFTH: "*** Fourth street ***",
    model.Street.SIXTH: "*** Fifth street ***",
    model.Street.SEVENTH: "*** Sixth street ***",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS,
    STREET_HEADERS,
    {
        "GAME_ID": "the Game ID line",
        "THIRD_STREET": "the first cards dealt",
        "SUMMARY": "------ Summary ------",
    },
)
NOT_WRITTEN = "the hand header is not in a form Winning writes"


def _card_text(token: str) -> str:
    """ "10d" → "Td"."""
    return "T" + token[2:] if token.startswith("10") else token


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines ("Game started at" first) to a `Hand`, a `ParseError`, or `Skipped`
    for a hand of a game handlog does not replay."""
    text = chunk.text
    lines = text.split("\n", 2)
    hand_id = None
    try:
        header = _HEADER.match(lines[0])
        if header is None:
            raise txt.LineError(1, NOT_WRITTEN, lines[0])
        if len(lines) < 2:
            raise txt.LineError(
                1, "the hand ends after its first line; it looks truncated", lines[0]
            )
        game_id = _GAME_ID.match(lines[1])
        if game_id is None:
            raise txt.LineError(2, "the Game ID line is not in a form Winning writes", lines[1])
        hand_id = game_id["number"]
        game = GAMES.get(game_id["game"])
        if game is None:
            return Skipped(chunk.file, chunk.line, hand_id, game_id["game"])
        body = text[len(lines[0]) + 1 :] + "\n"
        tokens = GRAMMAR.tokens(body, chunk)
        try:
            return _HandBuilder(chunk, hand_id, game, game_id, header[1]).build(tokens)
        except FigureError as figure_error:
            # Every other figure is read by its line's handler: this is the stakes'.
            raise txt.LineError(2, f"{figure_error} in the Game ID line", lines[1]) from None
    except txt.LineError as error:
        return txt.parse_error(chunk, error, hand_id)


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(
        self, chunk: Chunk, hand_id: str, game: model.Game, game_id: re.Match[str], clock: str
    ) -> None:
        super().__init__(chunk, GRAMMAR, hand_id)  # its GameInfo once read: `build`
        self.game = game
        self.game_id = game_id
        self.clock = clock
        table = game_id["table"]
        # Tournament tables are named "…, Table 3", play-money ones start "PM ": chips.
        chips = _TOURNAMENT_TABLE.search(table) is not None or table.startswith("PM ")
        self.currency = None if chips else "USD"
        self.sign = "" if chips else "$"
        self.street_put: dict[str, int] = {}
        self.current_bet = 0
        self.dealt_at: dict[str, int] = {}
        """Where in `events` each player's `Dealt` record of the current street is."""
        self.known: dict[str, list[Card]] = {}
        """The cards seen of each player so far, in deal order (for `Dealt.previous`)."""
        self.ended = False
        """Whether the "Game ended at" line was read: every hand ends with it."""

    def money(self, text: str) -> int:
        return minor_units(self.sign + text)

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        chunk = self.chunk
        if not self.ended:
            last = chunk.text.count("\n") + 1
            raise txt.LineError(
                last,
                f"the hand ends at line {chunk.line + last - 1} without its 'Game ended at' "
                "line; it looks truncated",
            )
        game_id = self.game_id
        info = txt.GameInfo(
            game_id["game"],
            self.game,
            small_bet=self.money(game_id["small"]),
            big_bet=self.money(game_id["big"]),
            currency=self.currency,
            table=game_id["table"],
            max_seats=small_number(game_id["max"]) if game_id["max"] else None,
        )
        # The clock has no zone (the player's computer's): no start time, unless the user
        # gives it one.
        start = txt.unzoned_clock(SITE, self.clock, "%Y/%m/%d %H:%M:%S")
        return self.hand_of(SITE, self.hand_id, info, start, model.Printed("game", self.clock))

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "GAME_ID":
            return  # read by parse_hand
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            self.street = street
            self.street_put = {}
            self.current_bet = 0
            self.dealt_at = {}
            if street is not model.Street.THIRD:  # the first round has no header line
                start = text.index("\n") + 1
                line += 1
            if street is model.Street.SUMMARY:
                if start == len(text):
                    raise txt.LineError(
                        self.relative(line - 1),
                        "the hand ends after its summary header; it looks truncated",
                        text[: start - 1],
                    )
                total_end = text.index("\n", start)
                self.read_line(_HandBuilder._pot, text[start:total_end], line)
                start = total_end + 1
                line += 1
            else:
                self.streets.append(street)
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    def _name(self, text: str, marker: str, line: int) -> tuple[str, str]:
        """The seated player named between "Player " and the last `marker`, and the text
        after the marker."""
        at = text.rfind(marker)
        return self.player(text[7:at], line, text), text[at + len(marker) :]

    def _put(
        self, kind: model.ActionKind, player: str, line: int, chips: int, all_in: bool
    ) -> None:
        total = self.street_put.get(player, 0) + chips
        self.street_put[player] = total
        if total > self.current_bet:
            self.current_bet = total
        self.events.append(model.Action(self.street, player, kind, chips, total, all_in, line=line))

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack, _ = self.seat_parts(text, after=2)  # "(STACK)."
        self.add_seat(model.Seat(number, name, self.money(stack), False, line), text)

    def _ante(self, text: str, line: int) -> None:
        marker = " posts ante (" if " posts ante (" in text else " ante ("
        name, rest = self._name(text, marker, line)
        amount = self.money(rest[:-1])
        self.add_ante(name, amount, False, line)

    def _received_hidden(self, text: str, line: int) -> None:
        # A card face down to an opponent: nothing is seen (the replay knows the position).
        self.player(text[7:-17], line, text)

    def _received_card(self, text: str, line: int) -> None:
        name, rest = self._name(text, " received card: [", line)
        card = cards(_card_text(rest[:-1]))[0]
        known = self.known.setdefault(name, [])
        at = self.dealt_at.get(name)
        if at is None:
            self.dealt_at[name] = len(self.events)
            self.deal(name, tuple(known), (card,), line)
        else:
            dealt = self.events[at]
            assert type(dealt) is model.Dealt
            # One more card of the street seen: one fewer hidden.
            self.events[at] = model.Dealt(
                self.street,
                name,
                dealt.previous,
                (*dealt.new, card),
                dealt.line,
                max(0, dealt.hidden - 1),
            )
        known.append(card)

    def _brings_in(self, text: str, line: int) -> None:
        name, rest = self._name(text, " bring in (", line)
        amount = self.money(rest[:-1])
        self.bring_in = amount
        self._put(model.ActionKind.BRING_IN, name, line, amount, False)

    def _bets(self, text: str, line: int) -> None:
        name, rest = self._name(text, " bets (", line)
        self._put(
            self.completion_or(model.ActionKind.BET), name, line, self.money(rest[:-1]), False
        )

    def _calls(self, text: str, line: int) -> None:
        name, rest = self._name(text, " calls (", line)
        self._put(model.ActionKind.CALL, name, line, self.money(rest[:-1]), False)

    def _raises(self, text: str, line: int) -> None:
        # "raises (2)", "caps (2)": the chips this action puts in, the call included.
        open_paren = text.rindex(" (")
        name = self.player(text[7 : text.rindex(" ", 0, open_paren)], line, text)
        chips = self.money(text[open_paren + 2 : -1])
        self._put(self.completion_or(model.ActionKind.RAISE), name, line, chips, False)

    def _all_in(self, text: str, line: int) -> None:
        # "allin (1.35)": the chips this action puts in, which make it a call, a bet or a
        # raise depending on the bet it faced.
        name, rest = self._name(text, " allin (", line)
        chips = self.money(rest[:-1])
        total = self.street_put.get(name, 0) + chips
        kind = self.all_in_kind(total)
        self._put(kind, name, line, chips, True)

    def _checks(self, text: str, line: int) -> None:
        name = self.player(text[7:-7], line, text)
        self.events.append(model.Action(self.street, name, model.ActionKind.CHECK, line=line))

    def _folds(self, text: str, line: int) -> None:
        name = self.player(text[7:-6], line, text)
        self.events.append(model.Action(self.street, name, model.ActionKind.FOLD, line=line))

    def _uncalled_bet(self, text: str, line: int) -> None:
        player, amount = self.returned_to(text, line, 14, ") returned to ")
        self.add_returned(player, self.money(amount), line)

    def _mucks(self, text: str, line: int) -> None:
        name = self.player(text[7:-12], line, text)
        self.events.append(model.Action(self.street, name, model.ActionKind.MUCK, line=line))

    def _timed_out(self, text: str, line: int) -> None:
        self._note(model.NoteKind.TIMED_OUT, text, text[7:-14], line)

    def _sitting_out(self, text: str, line: int) -> None:
        self._note(model.NoteKind.SITTING_OUT, text, text[7:-12], line)

    def _note(self, kind: model.NoteKind, text: str, name: str, line: int) -> None:
        seat = self.seated.get(name)
        self.events.append(model.Note(self.street, kind, seat.name if seat else None, text, line))

    def _pot(self, text: str, line: int) -> None:
        found = _POT.match(text)
        if found is None:
            raise txt.LineError(self.relative(line), "the 'Pot:' line cannot be read", text)
        self.total_pot = self.money(found["pot"])
        # The jackpot fee is kept by the house as the rake is: both are what the pot lost.
        rake = self.money(found["rake"]) if found["rake"] else 0
        self.rake = rake + (self.money(found["fee"]) if found["fee"] else 0)

    def _player_result(self, text: str, line: int) -> None:
        start = 8 if text.startswith("*") else 7
        name = self.player_prefix(text, start, " ", line)
        seat = self.seated[name]
        figures = _RESULT.search(text)
        if figures is None:
            raise txt.LineError(self.relative(line), "the player's result cannot be read", text)
        collects = self.money(figures["collects"])
        net = self.money(figures["net"]) * (1 if figures["result"] == "Wins" else -1)
        rest = text[start + len(name) + 1 : figures.start()]
        shown: tuple[Card, ...] = ()
        description: str | None = None
        if rest.startswith("shows: "):
            open_bracket = rest.rfind(" [")
            close = rest.rfind("]")
            if open_bracket < 0 or close < open_bracket:
                raise txt.LineError(self.relative(line), "the cards shown cannot be read", text)
            tokens = rest[open_bracket + 2 : close].split()
            shown = cards(" ".join(_card_text(token) for token in tokens))
            after = rest[close + 1 :].rstrip(" ").removesuffix(".")
            description = rest[7:open_bracket] + after
            self.events.append(
                model.Action(
                    model.Street.SUMMARY,
                    name,
                    model.ActionKind.SHOW,
                    cards=shown,
                    description=description,
                    line=line,
                )
            )
        if collects:
            self.events.append(
                model.Action(
                    model.Street.SUMMARY, name, model.ActionKind.COLLECT, collects, line=line
                )
            )
        self.results.append(
            model.SeatResult(
                seat.number,
                name,
                showed=shown,
                won=collects or None,
                collected_without_showdown=bool(collects) and not shown,
                lost=bool(shown) and not collects,
                description=description,
                net=net,
                line=line,
            )
        )

    def _game_ended(self, text: str, line: int) -> None:
        self.ended = True


GRAMMAR = txt.SectionGrammar(
    "winning2016", "Winning (2016)", SECTIONS, {}, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing


def print_hand(hand: model.Hand) -> str:
    """A hand as Winning 2016 text (parse → print → parse gives equal records). What the
    records do not keep comes out in one fixed form: an opponent's 7th-street card and the
    "Game ended at" clock are not written (the start clock stands in), the rake and jackpot
    fee are one rake, and `Bets` is counted from the actions."""
    sign = "" if hand.currency is None else "$"

    def money(value: int | None) -> str:
        whole, cents = divmod(value or 0, 100)
        if not sign:
            return str(value or 0)
        return f"{whole}.{cents:02d}" if cents else str(whole)

    def card_text(card: Card) -> str:
        text = format_cards((card,))
        return "10" + text[1:] if text.startswith("T") else text

    maximum = f" {hand.max_seats}-max" if hand.max_seats else ""
    lines = [
        f"Game started at: {hand.clock_text}",
        f"Game ID: {hand.hand_id} {money(hand.small_bet)}/{money(hand.big_bet)} {hand.table} "
        f"({GAME_NAMES[hand.game]}){maximum}",
    ]
    lines.extend(f"Seat {s.number}: {s.name} ({money(s.stack)})." for s in hand.seats)
    put_in: dict[str, int] = {}
    for event in hand.events:
        if type(event) is model.Action and event.kind in model.MONEY_IN_KINDS:
            put_in[event.player] = put_in.get(event.player, 0) + (event.amount or 0)
        if type(event) is model.Action and event.kind is model.ActionKind.UNCALLED_BET_RETURNED:
            put_in[event.player] = put_in.get(event.player, 0) - (event.amount or 0)
    by_street = events_by_street(hand)
    for street in (model.Street.ANTES, *hand.streets):
        if street in STREET_HEADERS:
            lines.append(STREET_HEADERS[street])
        for event in by_street.get(street, ()):
            if type(event) is model.Dealt:
                if street is model.Street.THIRD and len(event.new) == 1:
                    lines.extend([f"Player {event.player} received a card."] * 2)
                lines.extend(
                    f"Player {event.player} received card: [{card_text(c)}]" for c in event.new
                )
            elif type(event) is model.Note:
                lines.append(event.text)
            else:
                assert type(event) is model.Action
                lines.append(_action(event, money))
    lines.append("------ Summary ------")
    lines.append(f"Pot: {money(hand.total_pot)}. Rake {money(hand.rake)}")
    shows = {
        e.player: e
        for e in hand.events
        if type(e) is model.Action
        and e.kind is model.ActionKind.SHOW
        and e.street is model.Street.SUMMARY
    }
    for result in hand.results:
        won = result.won or 0
        net = result.net if result.net is not None else won - put_in.get(result.player, 0)
        figures = (
            f"Bets: {money(put_in.get(result.player, 0))}. Collects: {money(won)}. "
            f"{'Wins' if net > 0 else 'Loses'}: {money(abs(net))}."
        )
        star = "*" if won else ""
        show = shows.get(result.player)
        if show is None:
            lines.append(f"{star}Player {result.player} does not show cards.{figures}")
            continue
        description = show.description or ""
        shown = " ".join(card_text(c) for c in show.cards)
        before, low, after = description.partition(" Low hand (")
        if low:
            lines.append(
                f"{star}Player {result.player} shows: {before} [{shown}]{low}{after}.{figures}"
            )
        else:
            lines.append(f"{star}Player {result.player} shows: {before} [{shown}]. {figures}")
    lines.append(f"Game ended at: {hand.clock_text}")
    return "\n".join(lines)


ACTION_WORDS = {
    model.ActionKind.ANTE: "Player {player} ante ({amount})",
    model.ActionKind.BRING_IN: "Player {player} bring in ({amount})",
    model.ActionKind.BET: "Player {player} bets ({amount})",
    model.ActionKind.RAISE: "Player {player} raises ({amount})",
    model.ActionKind.COMPLETE: "Player {player} raises ({amount})",
    model.ActionKind.CALL: "Player {player} calls ({amount})",
    model.ActionKind.CHECK: "Player {player} checks",
    model.ActionKind.FOLD: "Player {player} folds",
    model.ActionKind.UNCALLED_BET_RETURNED: "Uncalled bet ({amount}) returned to {player}",
    model.ActionKind.MUCK: "Player {player} mucks cards",
}
"""Winning 2016's action lines (`handlog.parse.printing.ActionWords`); an all-in and a
completion that only completes are worded by `_action`."""
_ALL_IN_WORDS = dict.fromkeys(model.MONEY_IN_KINDS, "Player {player} allin ({amount})")
_BET_WORDS = {model.ActionKind.COMPLETE: ACTION_WORDS[model.ActionKind.BET]}


def _action(action: model.Action, money: Money) -> str:
    kind = action.kind
    words: ActionWords = ACTION_WORDS
    if action.all_in and kind in model.MONEY_IN_KINDS and kind is not model.ActionKind.ANTE:
        words = _ALL_IN_WORDS
    elif kind is model.ActionKind.COMPLETE and action.amount == action.to_amount:
        words = _BET_WORDS
    return action_line(action, words, money, "", "Winning 2016")


FORMAT = SiteFormat(
    site=SITE,
    name="Winning Poker (2016)",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    header_bytes=HEADER_BYTES,
    profile=PROFILE,
    traits=TRAITS,
    print_hand=print_hand,
    encodings=("utf-16",),
)
