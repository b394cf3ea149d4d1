"""Winning Poker network / Americas Cardroom (ACR) stud-family hand histories to `Hand`
records: the format written since 2019 (`Hand #85198832 - 7Stud(Fixed Limit) - …`).

`grammars/winning.lark` is the specification. The format is PokerStars-like, with these
differences this module normalises: no colon after a player's name; `raises X to Y` where X is
the chips this action adds and Y the player's street total; a running `Main pot … | Rake …`
line (and `Side pot(n) …`) after every street header; the total pot printed after the rake
and the jackpot fee (`JP Fee`, kept by the house like the rake, so counted in `Hand.rake`);
and a winner who does not show gets no `collected` line, only the summary line
`did not show and won $x`, which is where this module reads that collect from.

The Winning 2016 format (UTF-16, `Game started at:`) is another module,
`handlog.parse.sites.winning2016`, of the same site; both share this module's rule profile and
traits.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from handlog import model
from handlog.cards import format_cards
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
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.text import (
    amount_all_in,
    cards_of,
    index_of,
    level_number,
    read_hand,
    starts_at,
    street_named,
    units,
    utc_time,
)
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits

if TYPE_CHECKING:
    from lark import Tree

SITE = model.Site.WINNING
HEADER_PREFIX = "Hand #"
HEADER_BYTES = re.compile(rb"\nHand #\d+ - ")
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
TOURNAMENT_HEADER_PREFIX = "Game Hand #"
TOURNAMENT_HEADER_BYTES = re.compile(rb"\nGame Hand #\d+ - ")
_CLOCK = r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2}) ([A-Z]{2,5})"
"""A header's clock (its date, time and zone)."""
_HEADER_SPLIT = re.compile(
    r"(?P<start>(?:Game )?Hand #)(?P<number>\d+) - (?P<game>.+?)(?P<separator> ?- )"
    rf"(?P<clock>{_CLOCK})$"
)


_HEADER_SHAPE = re.compile(rf"(?:Game )?Hand #\d+ - .+ ?- {_CLOCK}$")
"""The lines `_HEADER_SPLIT` matches, told apart only: the game's words taken whole, then
given back from the end to the clock (what a split's lazy game tries at every character
from the start: twice the time, for every header the reader meets)."""


def is_header(line: str) -> bool:
    """Whether `line` starts a Winning / ACR hand of the 2019+ format (cash or tournament)."""
    return (line.startswith("Hand #") or line.startswith("Game Hand #")) and (
        _HEADER_SHAPE.match(line) is not None
    )


PROFILE = RuleProfile(
    name="winning",
    description=(
        "Winning Poker / ACR: cap of a bet and three raises; open-pair double bet in 7-card "
        "stud only; no burns; in a hi/lo split the odd chip goes to the LOW half."
    ),
    # cap_bets=4: acr.ts hand #1903647457 caps 3rd street at the completion and three raises
    # ($0.10, $0.20, $0.30, $0.40) and 4th street at a bet and three raises; no real hand
    # shows a cap lifted heads-up, so the default (cap also heads-up) stands.
    # odd_chip_to_high=False: the only odd-chip split in the corpus, 2016 hand #693975843
    # (pot $7.05 after rake and fee), pays the low half $3.53 (ChazDazzle, 7-6-4-2-A) and the
    # high half $3.52 (KickAzzJohnny, two pair). Even splits (#1903647457) say nothing.
    # Everything else is PokerStars' (the default): no burns, open-pair double bet in 7-card
    # stud, ties by suit; no corpus hand contradicts them.
    odd_chip_to_high=False,
)

TRAITS = SiteTraits(
    # "Uncalled bet ($0.04) returned to POPCHOW288" (hands #2672065780, #85198832): the
    # default.
    # "Total pot $0.36 | Rake $0.01" with $0.37 put in (#85198832); "Total pot $8.96 | Rake
    # $0.08 | JP Fee $0.02" with $9.06 put in (#1903647457).
    total_pot_after_rake=True,
    # "(HI - a high card, Queen high [Qh 9h 8s 7s 5s] | LO - [8,7,5,3,2])": not a wording
    # handlog writes, so descriptions are not compared.
    describes_hands=False,
)

# Game names as printed; only fixed-limit games are replayed.
GAMES = {
    "7Stud": model.Game.STUD,
    "7Stud H/L": model.Game.STUD8,
    "Razz": model.Game.RAZZ,
}
GAME_NAMES = {game: name for name, game in GAMES.items()}

SECTIONS = txt.section_table(*txt.STUD_STREETS, "SEVENTH_STREET", "SHOW_DOWN", "SUMMARY")
STREET_HEADERS = {
    model.Street.THIRD: "*** 3rd STREET ***",
    model.Street.FOURTH: "*** 4th STREET ***",
    model.Street.FIFTH: "*** 5th STREET ***",
    model.Street.SIXTH: "*** 6th STREET ***",
    model.Street.SEVENTH: "*** 7th STREET ***",
    model.Street.SHOWDOWN: "*** SHOW DOWN ***",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS,
    STREET_HEADERS,
    {"TABLE": "the table line", "SUMMARY": "*** SUMMARY ***"},
)
SUMMARY_STREET_NAMES = {
    model.Street.THIRD: "3rd Street",
    model.Street.FOURTH: "4th Street",
    model.Street.FIFTH: "5th Street",
    model.Street.SIXTH: "6th Street",
    model.Street.SEVENTH: "7th Street",
}
"""A summary's "folded on the 3rd Street", as the printer writes it (`street_named` reads it)."""

_TOTAL_POT = re.compile(
    rf"Total pot (?P<total>{txt.AMOUNT})(?: \| Rake (?P<rake>{txt.AMOUNT}))?(?: \| JP Fee (?P<fee>{txt.AMOUNT}))?$"
)
_TOURNAMENT_PART = re.compile(r"(?:[^#]+ )?Tournament #\d+ - ")


@lru_cache(maxsize=10_000)
def _game_info(start: str, game_part: str, separator: str) -> txt.GameInfo:
    """`_read_game_info`, memoised, and remembered between runs (`SectionGrammar.game_info`)."""
    return GRAMMAR.game_info(
        "\0".join((start, game_part, separator)),
        lambda: _read_game_info(start, game_part, separator),
    )


def _read_game_info(start: str, game_part: str, separator: str) -> txt.GameInfo:
    """The header's game description read with the grammar; memoised, since every hand at a
    table repeats it (hand number and clock are replaced by fixed stand-ins)."""
    tree = GRAMMAR.parser().parse(
        f"{start}0 - {game_part}{separator}2000/01/01 00:00:00 UTC", start="header"
    )
    # the game as printed, for a skipped hand: up to the limit's ")"
    found = _TOURNAMENT_PART.match(game_part)
    printed = game_part[found.end() :] if found else game_part
    info = _game_info_from_tree(tree, printed[: printed.find(")") + 1])
    return info


def _game_info_from_tree(tree: Tree, game_name: str) -> txt.GameInfo:
    tokens: dict[str, str] = {}
    rules: dict[str, list[str]] = {}
    for child in tree.children:
        data = getattr(child, "data", None)
        if data is None:
            tokens[str(getattr(child, "type", ""))] = str(child)
        else:
            rules[str(data)] = [str(t) for t in child.children]  # type: ignore[union-attr]
    name, limit = tokens["GAME_NAME"], tokens["LIMIT"]
    game = GAMES.get(name) if limit == "Fixed Limit" else None
    tournament = rules.get("tournament", [])
    if "level" in rules:  # a tournament: chips
        level, small_text, big_text = rules["level"]
        return txt.GameInfo(
            game_name=game_name,
            game=game,
            small_bet=units(small_text),
            big_bet=units(big_text),
            currency=None,
            tournament_id=tournament[-1] if tournament else None,
            tournament_level=level,
            buy_in=tournament[0].rstrip() if len(tournament) == 2 else None,
        )
    small_text, big_text = rules["stakes"][:2]
    return txt.GameInfo(
        game_name=game_name,
        game=game,
        small_bet=units(small_text),
        big_bet=units(big_text),
        currency=CURRENCY_SYMBOLS.get(small_text[:1]),
    )


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game handlog does not replay."""

    def read(split: re.Match[str], body: str) -> model.Hand | Skipped:
        info = _game_info(split["start"], split["game"], split["separator"])
        if info.game is None:
            return Skipped(chunk.file, chunk.line, split["number"], info.game_name)
        tokens = GRAMMAR.tokens(body, chunk)
        return _HandBuilder(chunk, split["number"], info, split).build(tokens)

    return read_hand(chunk, GRAMMAR, _HEADER_SPLIT, read)


def pot_index(label: str) -> int | None:
    """Which pot a collect names: None for a plain "pot", 0 the "main pot", n "side pot-n"."""
    if label == "main pot":
        return 0
    if label.startswith("side pot"):
        _, _, number = label.partition("-")
        return small_number(number) if number.isdigit() else 1
    return None


def pot_label(pot: int | None) -> str:
    if pot is None:
        return "pot"
    return "main pot" if pot == 0 else f"side pot-{pot}"


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(
        self, chunk: Chunk, hand_id: str, info: txt.GameInfo, split: re.Match[str]
    ) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.split = split
        self.street_put: dict[str, int] = {}
        """Each player's chips in on the street so far (for the street totals)."""
        self.collectors: set[str] = set()
        """Players with a "collected" line."""
        self.running_main: int | None = None
        self.running_sides: list[int] = []

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        info = self.info
        split = self.split
        year, month, day, hour, minute, second, zone = split.groups()[5:12]
        # Main and side pots as the showdown prints them (after all betting), only when
        # there is a side pot: a lone main pot is the total pot.
        main_pot = self.running_main if self.running_sides else None
        self.main_pot = main_pot
        self.side_pots = tuple(self.running_sides) if main_pot is not None else ()
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            start_time=utc_time(
                int(year), int(month), int(day), int(hour), int(minute), int(second), zone
            ),
            printed=model.Printed("hand", split["clock"]),
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "TABLE":
            text = text[:-1]
            max_at = text.rindex("-max")
            space = text.rindex(" ", 0, max_at)
            name = text[:space]
            self.table = name[7:-1] if name.startswith("Table '") else name
            self.max_seats = small_number(text[space + 1 : max_at])
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            self.street = street
            self.street_put = {}
            start = text.index("\n") + 1
            if street is model.Street.SUMMARY:
                if start == len(text):
                    raise txt.LineError(
                        self.relative(line),
                        "the hand ends after its summary header; it looks truncated",
                        text[:-1],
                    )
                total_end = text.index("\n", start)
                self.read_line(_HandBuilder._total_pot, text[start:total_end], line + 1)
                start = total_end + 1
                line += 1
            elif street is not model.Street.SHOWDOWN:
                self.streets.append(street)
                if street is model.Street.SEVENTH and starts_at(text, " [", 18):
                    self.community_card = cards_of(text[20:22])[0]
            else:
                self.running_main = None
                self.running_sides = []
            line += 1
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    # -- helpers -------------------------------------------------------------------------

    def _add(
        self, kind: model.ActionKind, name: str, line: int, street: model.Street | None = None
    ) -> None:
        self.events.append(
            model.Action(self.street if street is None else street, name, kind, line=line)
        )

    def _put(
        self, kind: model.ActionKind, player: str, line: int, chips: int, all_in: bool, total: int
    ) -> None:
        self.street_put[player] = total
        self.events.append(model.Action(self.street, player, kind, chips, total, all_in, line=line))

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack, sitting_out = self.seat_parts(text, " is sitting out")
        self.add_seat(model.Seat(number, name, units(stack), sitting_out, line), text)

    def _ante(self, text: str, line: int) -> None:
        name, rest = self.named(text, " posts ante ", line)
        amount, all_in = amount_all_in(rest)
        self.add_ante(name, amount, all_in, line)

    def _pot_running(self, text: str, line: int) -> None:
        self.running_main = units(text[9 : text.index(" | ")])

    def _side_pot_running(self, text: str, line: int) -> None:
        self.running_sides.append(units(text[text.index(") ") + 2 : text.index(" | ")]))

    def _dealt(self, text: str, line: int) -> None:
        name, groups = self.dealt_brackets(text, 9, line)
        if len(groups) > 2:
            raise txt.LineError(self.relative(line), "more than two groups of cards", text)
        previous = cards_of(groups[0]) if len(groups) == 2 else ()
        self.deal(name, previous, cards_of(groups[-1]), line)

    def _brings_in(self, text: str, line: int) -> None:
        name, rest = self.named(text, " brings in ", line)
        amount, all_in = amount_all_in(rest)
        self.bring_in = amount
        self._put(model.ActionKind.BRING_IN, name, line, amount, all_in, amount)

    def _bets(self, text: str, line: int) -> None:
        name, rest = self.named(text, " bets ", line)
        amount, all_in = amount_all_in(rest)
        total = self.street_put.get(name, 0) + amount
        self._put(self.completion_or(model.ActionKind.BET), name, line, amount, all_in, total)

    def _raises(self, text: str, line: int) -> None:
        # "raises X to Y": X the chips this action adds, Y the player's street total.
        name, rest = self.named(text, " raises ", line)
        added, _, total_text = rest.partition(" to ")
        total, all_in = amount_all_in(total_text)
        chips = units(added)
        self._put(self.completion_or(model.ActionKind.RAISE), name, line, chips, all_in, total)

    def _calls(self, text: str, line: int) -> None:
        name, rest = self.named(text, " calls ", line)
        amount, all_in = amount_all_in(rest)
        total = self.street_put.get(name, 0) + amount
        self._put(model.ActionKind.CALL, name, line, amount, all_in, total)

    def _collected(self, text: str, line: int) -> None:
        name, rest = self.named(text, " collected ", line)
        amount_text, _, pot = rest.partition(" from ")
        self.collectors.add(name)
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

    def _mucks(self, text: str, line: int) -> None:
        name, rest = self.named(text, " mucks", line)
        rest = rest.removeprefix(" hand")
        shown = cards_of(rest[2:-1]) if rest else ()
        self.events.append(
            model.Action(self.street, name, model.ActionKind.MUCK, cards=shown, line=line)
        )

    def _sits_out(self, text: str, line: int) -> None:
        seat = self.seated.get(text[:-9])
        player = seat.name if seat is not None else None
        self.events.append(model.Note(self.street, model.NoteKind.SITTING_OUT, player, text, line))

    def _does_not_show(self, text: str, line: int) -> None:
        self._add(model.ActionKind.DOES_NOT_SHOW, self.player(text[:-14], line, text), line)

    def _total_pot(self, text: str, line: int) -> None:
        found = _TOTAL_POT.match(text)
        if found is None:
            raise txt.LineError(self.relative(line), "the 'Total pot' line cannot be read", text)
        self.total_pot = units(found["total"])
        # The jackpot fee is kept by the house as the rake is: both are what the pot lost.
        rake = units(found["rake"]) if found["rake"] else 0
        self.rake = rake + (units(found["fee"]) if found["fee"] else 0)

    def _seat_folded(self, text: str, line: int) -> None:
        number, name, rest = self.summary_rest(text, line, " folded on the ")
        did_not_bet = rest.endswith(" and did not bet")
        if did_not_bet:
            rest = rest[:-16]
        self.results.append(
            model.SeatResult(
                number, name, folded_on=street_named(rest), did_not_bet=did_not_bet, line=line
            )
        )

    def _seat_showed(self, text: str, line: int) -> None:
        number, name, rest = self.summary_rest(text, line, " showed [")
        close = index_of(rest, "]")
        shown = cards_of(rest[:close])
        self.add_showed(number, name, shown, rest[close + 6 :], line, parens=False)

    def _seat_mucked(self, text: str, line: int) -> None:
        number, name, rest = self.summary_rest(text, line, " mucked")
        mucked = cards_of(rest[2:-1]) if rest else ()
        self.results.append(model.SeatResult(number, name, mucked=mucked, line=line))

    def _seat_not_shown(self, text: str, line: int) -> None:
        number, name, rest = self.summary_rest(text, line, " did not show and won ")
        won = units(rest)
        self.results.append(
            model.SeatResult(number, name, won=won, collected_without_showdown=True, line=line)
        )
        if name not in self.collectors:
            # The site writes no "collected" line for a winner who does not show: this
            # summary line is where the hand says what that player took from the pot.
            self.events.append(
                model.Action(model.Street.SUMMARY, name, model.ActionKind.COLLECT, won, line=line)
            )


GRAMMAR = txt.SectionGrammar(
    "winning", "Winning / ACR", SECTIONS, {}, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing


def print_hand(hand: model.Hand) -> str:
    """A hand as Winning / ACR 2019+ text (parse → print → parse gives equal records).
    What the records do not keep comes out in one fixed form: the running pot lines are
    left out but at showdown (where they give the main and side pots), and the rake and
    jackpot fee are printed as one rake. A site-neutral hand (the simulator's: no printed
    text) gets the UTC clock from its start time, its tournament level as a number and its
    table by its own number; notes Winning has no line for are left out. The total pot is
    printed as the record holds it, which under Winning's traits is after the rake."""
    money = money_writer(currency_sign(hand.currency))
    neutral = hand.printed == model.PRINTED

    game_name = GAME_NAMES[hand.game]
    table = hand.table
    if neutral and hand.tournament_id is not None:
        # Winning names a tournament's table by its number ("Table '25'"); a site-neutral
        # record may carry it after the tournament's number ("251332389 3").
        table = table.removeprefix(f"{hand.tournament_id} ")
    if hand.tournament_level is not None:
        level = level_number(hand.tournament_level) if neutral else hand.tournament_level
        buy_in = hand.buy_in
        if neutral and buy_in is not None:
            buy_in = buy_in.removesuffix(f" {hand.currency or 'USD'}")
        name = f"{buy_in} " if buy_in else ""
        tournament = f"{name}Tournament #{hand.tournament_id} - " if hand.tournament_id else ""
        header = (
            f"Game Hand #{hand.hand_id} - {tournament}{game_name} (Fixed Limit) - Level "
            f"{level} ({hand.small_bet}/{hand.big_bet}) - {clock(hand)}"
        )
        table = f"Table '{table}'"
    else:
        header = (
            f"Hand #{hand.hand_id} - {game_name}(Fixed Limit) - "
            f"{money(hand.small_bet)}/{money(hand.big_bet)} - {clock(hand)}"
        )
    lines = [header, f"{table} {hand.max_seats or 8}-max"]
    lines += printing.seat_lines(hand, money, "Seat {number}: {name} ({stack})", " is sitting out")
    by_street = printing.events_by_street(hand)
    # A record read from Winning text lists no SHOW DOWN among its streets (the header
    # stands where the showdown's lines or its pots do); a site-neutral one may.
    streets: list[model.Street] = [
        street for street in hand.streets if street is not model.Street.SHOWDOWN
    ]
    if model.Street.SHOWDOWN in by_street or hand.main_pot is not None:
        streets.append(model.Street.SHOWDOWN)
    for street in (model.Street.ANTES, *streets):
        header_line = printing.street_header(hand, street, STREET_HEADERS)
        if header_line is not None:
            lines.append(header_line)
        if street is model.Street.SHOWDOWN and hand.main_pot is not None:
            lines.append(f"Main pot {money(hand.main_pot)} | Rake {money(0)}")
            for number, side in enumerate(hand.side_pots, 1):
                lines.append(f"Side pot({number}) {money(side)} | Rake {money(0)}")
        for event in by_street.get(street, ()):
            line = _neutral_event(event, street) if neutral else _event(event, money)
            if line is not None:
                lines.append(line if line else _event(event, money))
    lines.append("*** SUMMARY ***")
    lines.append(f"Total pot {money(hand.total_pot)} | Rake {money(hand.rake)}")
    lines.extend(_result(result, money) for result in hand.results)
    return "\n".join(lines)


def clock(hand: model.Hand) -> str:
    """The clock as printed, or (for a hand built without text) Winning's UTC clock from its
    start time, e.g. "2019/07/28 16:15:58 UTC"."""
    return txt.printed_clock(hand, SITE, "UTC", "{t:%Y/%m/%d %H:%M:%S} UTC")


def _neutral_event(
    event: model.Action | model.Dealt | model.Note, street: model.Street
) -> str | None:
    """For a site-neutral hand: "" where the event is written as any other, a note's line in
    Winning's words, or None for a note Winning has no line for (only "sits out" exists,
    and not at showdown)."""
    if type(event) is not model.Note:
        return ""
    if (
        event.kind is model.NoteKind.SITTING_OUT
        and event.player
        and street is not model.Street.SHOWDOWN
    ):
        return f"{event.player} sits out"
    return None


def _event(event: model.Event, money: printing.Money) -> str:
    if type(event) is model.Note:
        return event.text
    if type(event) is model.Dealt:
        return printing.dealt_line(event)
    assert type(event) is model.Action
    if event.kind is model.ActionKind.COMPLETE and event.amount != event.to_amount:
        return printing.action_line(event, RAISE_WORDS, money, ALL_IN, "Winning")
    if event.kind is model.ActionKind.COLLECT:
        return f"{event.player} collected {money(event.amount)} from {pot_label(event.pot)}"
    return printing.action_line(event, ACTION_WORDS, money, ALL_IN, "Winning")


ALL_IN = " and is all-in"
ACTION_WORDS = {
    model.ActionKind.ANTE: "{player} posts ante {amount}{all_in}",
    model.ActionKind.BRING_IN: "{player} brings in {amount}{all_in}",
    model.ActionKind.RAISE: "{player} raises {amount} to {to}{all_in}",
    model.ActionKind.BET: "{player} bets {amount}{all_in}",
    model.ActionKind.COMPLETE: "{player} bets {amount}{all_in}",
    model.ActionKind.CALL: "{player} calls {amount}{all_in}",
    model.ActionKind.CHECK: "{player} checks",
    model.ActionKind.FOLD: "{player} folds",
    model.ActionKind.UNCALLED_BET_RETURNED: "Uncalled bet ({amount}) returned to {player}",
    model.ActionKind.SHOW: "{player} shows [{cards}]{description}",
    model.ActionKind.MUCK: "{player} mucks hand{shown}",
    model.ActionKind.DOES_NOT_SHOW: "{player} does not show",
}
"""Winning's action lines (`handlog.parse.printing.ActionWords`); a completion over a
bring-in it does not match is worded as a raise, a collect by `_event`."""
RAISE_WORDS = {model.ActionKind.COMPLETE: ACTION_WORDS[model.ActionKind.RAISE]}


def _result(result: model.SeatResult, money: printing.Money) -> str:
    start = f"Seat {result.seat}: {result.player}"
    if result.folded_on is not None:
        tail = " and did not bet" if result.did_not_bet else ""
        return f"{start} folded on the {SUMMARY_STREET_NAMES[result.folded_on]}{tail}"
    if result.collected_without_showdown:
        return f"{start} did not show and won {money(result.won)}"
    if result.showed:
        return printing.showed_line(start, result, f"won {money(result.won)}")
    mucked = f" [{format_cards(result.mucked)}]" if result.mucked else ""
    return f"{start} mucked{mucked}"


FORMAT = SiteFormat(
    site=SITE,
    name="Winning Poker / ACR",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=PROFILE,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    # Tournaments only for now: the simulator's cash records carry the total pot before the
    # rake (PokerStars' meaning), which Winning's traits read as after it, so the simulator's
    # own records do not replay clean under them. Its cash hands print and read back alike
    # once that total is after the rake (the printer writes the total as the record has it).
    deals=fixed_limit_deals(GAME_NAMES),
)

TOURNAMENT_FORMAT = FORMAT.another_header(
    "Winning Poker / ACR (tournament)", TOURNAMENT_HEADER_PREFIX, TOURNAMENT_HEADER_BYTES
)
"""The same format in tournaments, whose headers start "Game Hand #" (files are split at
their headers' common start, so each start is a format of its own)."""
