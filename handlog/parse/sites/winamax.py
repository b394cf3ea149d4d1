"""Winamax stud-family hand histories to `Hand` records.

`grammars/winamax.lark` is the specification of the text; this module turns the checked
lines into site-neutral records. What Winamax prints differently from PokerStars, and how it
is read:

- Amounts put the currency sign after the figure ("70.30€"). Cash hands, real or play money,
  are read in hundredths (cents; play money has no currency but does have two decimals:
  "0.01/0.05/0.10"); tournament chips are whole chips.
- The stakes in the header are ante/small bet/big bet; `ante` and `bring_in` are still taken
  from what is posted, as for every site.
- "raises X to Y": Y is the raiser's street total LEAVING OUT the raiser's own bring-in, and X
  is Y less the bet faced (the bring-in is no bet for Winamax: the completion over a 10€
  bring-in prints "raises 25€ to 25€"). Read that way every corpus hand balances: in hand
  9250793-1578-1479092164 the bring-in (10€, 18.90€ behind) re-raises all-in over a 25€
  completion and the site prints "raises -6.10€ to 18.90€": 18.90€ is what this action adds,
  28.90€ the street total, and the pot (70.30€ + 2.50€ rake = 3 antes + 2 × 28.90€) balances
  only so. So `to_amount` = Y + the player's bring-in on the street, and `raise_by` = X only
  where X is a raise size over the bet faced (a raise by a player without a bring-in on the
  street), never for a completion or for the bring-in's own raise.
- No uncalled-bet line: an uncalled bet stays in the pot and the bettor collects it with the
  pot (`UncalledBets.IN_POT`); the total pot is printed after rake.
- Hi/lo halves are collected as "from pot(HI)" / "from pot(LO)", even when nobody showed,
  and the summary repeats "won" once per half.
- All-ins are not always marked (" and is all-in" is optional): an action that leaves a
  player without chips is recorded as all-in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from handlog import model
from handlog.cards import Card, cards, format_cards
from handlog.errors import ParseError, Skipped
from handlog.money import MoneyError, bounded, plain_digits, small_number
from handlog.parse import text as txt
from handlog.parse.printing import action_line, events_by_street, seat_lines, street_header
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.text import clock_time, level_number, read_hand, street_named
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits, UncalledBets

if TYPE_CHECKING:
    from lark import Tree

SITE = model.Site.WINAMAX
HEADER_PREFIX = "Winamax Poker - "
HEADER_BYTES = re.compile(
    rb"\nWinamax Poker - (?:CashGame|Go Fast|HOLD-UP|ESCAPE|Tournament)[^\n]* - HandId: #"
)
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
_HEADER_START = re.compile(r"Winamax Poker - [^\n]*? - HandId: #\d")


def is_header(line: str) -> bool:
    """Whether `line` starts a Winamax hand."""
    return line.startswith(HEADER_PREFIX) and _HEADER_START.match(line) is not None


# Game names as printed, lower-cased, with their betting structure. The earlier client
# writes "7stud" / "7stud8", the 2016 one "7-Card Stud" / "7-Card Stud Hi/Lo".
GAMES = {
    "7-card stud fixed limit": model.Game.STUD,
    "7stud fixed limit": model.Game.STUD,
    "7-card stud hi/lo fixed limit": model.Game.STUD8,
    "7stud8 fixed limit": model.Game.STUD8,
    "razz fixed limit": model.Game.RAZZ,
}
LONG_NAMES = {
    model.Game.STUD: "7-Card Stud fixed limit",
    model.Game.STUD8: "7-Card Stud Hi/Lo fixed limit",
    model.Game.RAZZ: "Razz fixed limit",
}
SHORT_NAMES = {
    model.Game.STUD: "7stud fixed limit",
    model.Game.STUD8: "7stud8 fixed limit",
    model.Game.RAZZ: "Razz fixed limit",
}
CURRENCIES = {"€": "EUR", "$": "USD", "£": "GBP"}
SIGNS = {code: sign for sign, code in CURRENCIES.items()}

SECTIONS = txt.section_table(
    *txt.STUD_STREETS,
    "SEVENTH_STREET",
    "SHOW_DOWN",
    "SUMMARY",
    antes="ANTE_BLINDS",
    ante_street=model.Street.ANTES,
)
TERMINAL_WORDS = {
    "TABLE": "the Table line",
    "SEAT_LINES": "the seat lines",
    "ANTE_BLINDS": "*** ANTE/BLINDS ***",
    "THIRD_STREET": "*** 3rd STREET ***",
    "FOURTH_STREET": "*** 4th STREET ***",
    "FIFTH_STREET": "*** 5th STREET ***",
    "SIXTH_STREET": "*** 6th STREET ***",
    "SEVENTH_STREET": "*** 7th STREET ***",
    "SHOW_DOWN": "*** SHOW DOWN ***",
    "SUMMARY": "*** SUMMARY ***",
    "$END": "the end of the hand",
}
HALVES = {"(HI)": "high", "(LO)": "low"}

_HEADER_SPLIT = re.compile(
    r"(?P<start>Winamax Poker - .*? - HandId: #)(?P<number>\d+(?:-\d+)*)(?P<game> - .*) - "
    r"(?P<clock>(?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2}) (?P<h>\d{1,2}):(?P<mi>\d{2}):"
    r"(?P<s>\d{2}) (?P<zone>[A-Z]{2,5}))$"
)
_TOURNAMENT_ID = re.compile(r"\((\d+)\)#")


# ---------------------------------------------------------------------------------------
# Amounts


@lru_cache(maxsize=100_000)
def units(text: str, cents: bool) -> int:
    """An amount as printed ("70.30€", "€5", "0.65", "20000") in minor units: hundredths
    when `cents` (cash, real or play money), whole chips otherwise (tournaments)."""
    bare = text.strip("€$£").replace(",", "")
    whole, dot, fraction = bare.partition(".")
    if not plain_digits(whole) or (dot and not plain_digits(fraction)):
        raise MoneyError(f"{text!r} is not an amount")
    if cents:
        if len(fraction) > 2 and fraction[2:].strip("0"):
            raise MoneyError(f"{text!r} has a fraction of a cent")
        value = bounded(int(whole) * 100 + int((fraction + "00")[:2]), text)
    else:
        if fraction.strip("0"):
            raise MoneyError(f"{text!r} has a fraction of a chip")
        value = bounded(int(whole), text)
    return value


def amount_text(value: int, cents: bool, sign: str) -> str:
    """The inverse of `units`, as Winamax prints it: "70.30€", "458€", "0.65", "20000"."""
    if not cents:
        return f"{value}{sign}"
    minus = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 100)
    figure = f"{whole}.{rest:02d}" if rest else str(whole)
    return f"{minus}{figure}{sign}"


# ---------------------------------------------------------------------------------------
# Header


@lru_cache(maxsize=10_000)
def _game_info(start: str, game_part: str) -> txt.GameInfo:
    """`_read_game_info`, memoised, and remembered between runs (`SectionGrammar.game_info`)."""
    return GRAMMAR.game_info(
        "\0".join((start, game_part)), lambda: _read_game_info(start, game_part)
    )


def _read_game_info(start: str, game_part: str) -> txt.GameInfo:
    """The header's description of the game, read by the grammar; memoised, since every hand
    at a table repeats it (the hand number and clock are replaced by stand-ins)."""
    tree = GRAMMAR.parser().parse(f"{start}0{game_part} - 2000/01/01 00:00:00 UTC", "header")
    info = _game_info_from_tree(tree)
    return info


def _game_info_from_tree(tree: Tree) -> txt.GameInfo:
    game_name = ""
    buy_in = level = None
    tournament = False
    stake_texts: list[str] = []
    for child in tree.children:
        if hasattr(child, "data"):
            if child.data == "tournament":
                tournament = True
                for part in child.children:
                    kind = getattr(part, "type", None)
                    if kind == "BUY_IN":
                        buy_in = str(part)
                    elif kind == "LEVEL":
                        level = str(part)
            elif child.data == "stakes":
                stake_texts = [str(t) for t in child.children]
        elif getattr(child, "type", None) == "GAME_NAME":
            game_name = str(child)
    game = GAMES.get(game_name.lower())
    cents = not tournament
    small = big = 0
    currency = None
    if game is not None:
        if len(stake_texts) != 3:
            raise txt.LineError(1, "a stud header states ante/small bet/big bet", None)
        small, big = units(stake_texts[1], cents), units(stake_texts[2], cents)
    sign = next((c for t in stake_texts for c in (t[0], t[-1]) if c in CURRENCIES), None)
    if sign is not None and not tournament:
        currency = CURRENCIES[sign]
    return txt.GameInfo(
        game_name=game_name,
        game=game,
        header_variant="short" if game_name.lower().startswith("7stud") else "long",
        small_bet=small,
        big_bet=big,
        currency=currency,
        tournament=tournament,
        chips_in_hundredths=cents and currency is None,  # play money
        buy_in=buy_in,
        tournament_level=level,
    )


# ---------------------------------------------------------------------------------------
# Hands


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game handlog does not replay."""

    def read(split: re.Match[str], body: str) -> model.Hand | Skipped:
        try:
            info = _game_info(split["start"], split["game"])
        except MoneyError as error:
            raise GRAMMAR.header_error(split.string) from error
        if info.game is None:
            return Skipped(chunk.file, chunk.line, split["number"], info.game_name)
        start = clock_time(split, split["zone"])
        try:
            tokens = GRAMMAR.tokens(body, chunk)
            return _HandBuilder(chunk, split["number"], info).build(tokens, split["clock"], start)
        except txt.LineError as error:  # an error naming no line's text names the header
            if error.text is None:
                error.text = split.string
            raise

    return read_hand(chunk, GRAMMAR, _HEADER_SPLIT, read)


def pot_index(label: str) -> tuple[int | None, str | None]:
    """Which pot and half a collect names: ("pot", None) → (None, None), "main pot" → 0,
    "side pot 2" → 2; "(HI)"/"(LO)" → the half."""
    half = None
    if label.endswith(")"):
        half = HALVES.get(label[-4:])
        label = label[:-4]
    if label == "pot":
        return None, half
    if label == "main pot":
        return 0, half
    digits = label[8:].strip(" #")
    return (small_number(digits) if digits.isdigit() else 1), half


def pot_label(pot: int | None, half: str | None) -> str:
    label = "pot" if pot is None else "main pot" if pot == 0 else f"side pot {pot}"
    if half is not None:
        label += "(HI)" if half == "high" else "(LO)"
    return label


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(self, chunk: Chunk, hand_id: str, info: txt.GameInfo) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.cents = not info.tournament
        """Whether amounts are in hundredths (cash and play money), not whole chips."""
        self.street_put: dict[str, int] = {}
        """Each player's chips in on the street so far (bring-in included)."""
        self.brought_in: dict[str, int] = {}
        """The bring-in of the street's bring-in player (Winamax's raise figures leave it out)."""
        self.left: dict[str, int] = {}
        """Each player's chips behind, to know who is all-in (not always printed)."""

    def build(self, tokens: list[tuple[str, str, int]], clock: str, start: object) -> model.Hand:
        self.read_sections(tokens)
        info = self.info
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            start_time=start,  # type: ignore[arg-type]
            printed=model.Printed(info.header_variant, clock),
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "TABLE":
            text = text[:-1]
            name_end = text.rindex("' ")
            self.table = text[text.index("'") + 1 : name_end]
            size = text[name_end + 2 :].split("-max", 1)[0]
            self.max_seats = small_number(size) if size.isdigit() else None
            if self.info.tournament:
                found = _TOURNAMENT_ID.search(self.table)
                self.tournament_id = found[1] if found else None
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            self.street = street
            self.street_put = {}
            self.brought_in = {}
            start = text.index("\n") + 1
            if street is model.Street.SUMMARY:
                total_end = text.index("\n", start)
                self.read_line(_HandBuilder._total_pot, text[start:total_end], line + 1)
                start = total_end + 1
                line += 1
            elif street is not model.Street.ANTES and street is not model.Street.SHOWDOWN:
                self.streets.append(street)
                header = text[: start - 1]
                if street is model.Street.SEVENTH and header.endswith("]"):
                    self.community_card = cards(header[-3:-1])[0]
            line += 1
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    # -- helpers -------------------------------------------------------------------------

    def _amount(self, text: str) -> tuple[int, bool]:
        """An amount with an optional " and is all-in" after it."""
        if text.endswith(" and is all-in"):
            return units(text[:-14], self.cents), True
        return units(text, self.cents), False

    def _put(
        self,
        kind: model.ActionKind,
        player: str,
        line: int,
        chips: int,
        all_in: bool,
        raise_by: int | None = None,
    ) -> None:
        """Append an action that puts `chips` in, with the player's street total after it."""
        total = self.street_put.get(player, 0) + chips
        self.street_put[player] = total
        left = self.left[player] - chips
        self.left[player] = left
        self.events.append(
            model.Action(
                self.street,
                player,
                kind,
                chips,
                total,
                all_in or left <= 0,
                raise_by=raise_by,
                line=line,
            )
        )

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack_text, _ = self.seat_parts(text)
        stack = units(stack_text.split(", ", 1)[0], self.cents)
        self.add_seat(model.Seat(number, name, stack, False, line), text)
        self.left[name] = stack

    def _ante(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" posts ante ")
        player = self.player(name, line, text)
        amount, all_in = self._amount(rest)
        left = self.left[player] - amount
        self.left[player] = left
        self.add_ante(player, amount, all_in or left <= 0, line)

    def _dealt(self, text: str, line: int) -> None:
        name, groups = self.dealt_brackets(text, 9, line)
        new = _known(groups[-1])
        if not new:
            # "[X X Kc 6d 7d 2d] [X]": an opponent's down card on 7th street. The line shows
            # no card, so it makes no record (as PokerStars prints no line for it); the
            # replay knows the 7th-street card is dealt face down.
            return
        previous = _known(groups[0]) if len(groups) == 2 else ()
        self.deal(name, previous, new, line)

    def _brings_in(self, text: str, line: int) -> None:
        at = text.rfind(" brings in ")
        size = 11
        if at < 0:
            at, size = text.rfind(" bring-in "), 10
        player = self.player(text[:at], line, text)
        amount, all_in = self._amount(text[at + size :])
        self.bring_in = amount
        self.brought_in[player] = amount
        self._put(model.ActionKind.BRING_IN, player, line, amount, all_in)

    def _bets(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" bets ")
        player = self.player(name, line, text)
        amount, all_in = self._amount(rest)
        self._put(self.completion_or(model.ActionKind.BET), player, line, amount, all_in)

    def _raises(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" raises ")
        player = self.player(name, line, text)
        size_text, _, figure = rest.partition(" to ")
        figure_amount, all_in = self._amount(figure)
        # The figure leaves out the player's own bring-in on this street (module docstring).
        bring_in = self.brought_in.get(player, 0)
        total = figure_amount + bring_in
        chips = total - self.street_put.get(player, 0)
        kind = self.completion_or(model.ActionKind.RAISE)
        raise_by = None
        if kind is model.ActionKind.RAISE and not bring_in and not size_text.startswith("-"):
            # The printed size is over the bet as Winamax counts it (bring-ins left out):
            # a raise size over the bet faced only where that is the same bet.
            put = self.street_put
            faced = max(put.values(), default=0)
            if faced == max((v - self.brought_in.get(p, 0) for p, v in put.items()), default=0):
                raise_by = units(size_text, self.cents)
        self._put(kind, player, line, chips, all_in, raise_by)

    def _calls(self, text: str, line: int) -> None:
        name, _, rest = text.rpartition(" calls ")
        player = self.player(name, line, text)
        amount, all_in = self._amount(rest)
        self._put(model.ActionKind.CALL, player, line, amount, all_in)

    def _collected(self, text: str, line: int) -> None:
        name = self.player_prefix(text, 0, " collected ", line)
        amount_text, _, label = text[len(name) + 11 :].partition(" from ")
        pot, half = pot_index(label)
        self.events.append(
            model.Action(
                self.street,
                name,
                model.ActionKind.COLLECT,
                units(amount_text, self.cents),
                pot=pot,
                half=half,
                line=line,
            )
        )

    def _total_pot(self, text: str, line: int) -> None:
        total, _, rake = text[10:].partition(" | ")
        try:
            self.total_pot = units(total, self.cents)
            self.rake = 0 if rake == "No rake" else units(rake[5:], self.cents)
        except MoneyError as error:
            raise txt.LineError(self.relative(line), str(error), text) from None

    def _seat_showed(self, text: str, line: int) -> None:
        number, name, rest = self.summary_rest(text, line, " showed [")
        close = rest.index("]")
        shown = cards(rest[:close])
        outcome = rest[close + 6 :]
        won: int | None = None
        lost = False
        description = None
        outcome, _, with_text = outcome.partition(" with ")
        if with_text or text.endswith(" with "):
            description = with_text
        if outcome.startswith("won "):
            won = units(outcome[4:], self.cents)
        else:
            lost = True
        self.results.append(
            model.SeatResult(
                number, name, showed=shown, won=won, lost=lost, description=description, line=line
            )
        )

    def _seat_won(self, text: str, line: int) -> None:
        number, name, rest = self.summary_rest(text, line, " won ")
        self.results.append(
            model.SeatResult(
                number,
                name,
                won=units(rest, self.cents),
                collected_without_showdown=True,
                line=line,
            )
        )

    def _seat_folded(self, text: str, line: int) -> None:
        number, name, rest = self.summary_rest(text, line, " folded on the ")
        self.results.append(model.SeatResult(number, name, folded_on=street_named(rest), line=line))


def _known(group: str) -> tuple[Card, ...]:
    """The cards of a bracket, hidden ones ("X") left out."""
    if "X" not in group:
        return cards(group)
    return cards(" ".join(token for token in group.split() if token != "X"))


GRAMMAR = txt.SectionGrammar(
    "winamax", "Winamax", SECTIONS, {}, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing

STREET_HEADERS = {
    "long": {
        model.Street.THIRD: "*** 3rd STREET ***",
        model.Street.FOURTH: "*** 4th STREET ***",
        model.Street.FIFTH: "*** 5th STREET ***",
        model.Street.SIXTH: "*** 6th STREET ***",
        model.Street.SEVENTH: "*** 7th STREET ***",
    },
    "short": {
        model.Street.THIRD: "*** THIRD ***",
        model.Street.FOURTH: "*** FOURTH ***",
        model.Street.FIFTH: "*** FIFTH ***",
        model.Street.SIXTH: "*** SIXTH ***",
        model.Street.SEVENTH: "*** SEVENTH ***",
    },
}
Money = Callable[[int | None], str]
FOLDED_WORDS = {
    model.Street.THIRD: "3rd street",
    model.Street.FOURTH: "4th street",
    model.Street.FIFTH: "5th street",
    model.Street.SIXTH: "6th street",
    model.Street.SEVENTH: "7th street",
}


def print_hand(hand: model.Hand) -> str:
    """A hand back as Winamax text (parse → print → parse gives an equal record). A
    site-neutral hand (the simulator's: no printed text) is first put in Winamax's terms
    (`_in_winamax_terms`)."""
    if hand.printed == model.PRINTED:
        hand = _in_winamax_terms(hand)
    tournament = hand.buy_in is not None or hand.tournament_id is not None
    cents = not tournament
    sign = SIGNS.get(hand.currency or "", "")
    variant = "short" if hand.header_variant == "short" else "long"

    def money(value: int | None) -> str:
        return amount_text(value or 0, cents, sign)

    names = SHORT_NAMES if variant == "short" else LONG_NAMES
    stakes = "/".join(money(v) for v in (hand.ante or 0, hand.small_bet, hand.big_bet))
    if tournament:
        name = hand.table.split("(", 1)[0]
        level = f" level: {hand.tournament_level}" if hand.tournament_level else ""
        kind = f'Tournament "{name}" buyIn: {hand.buy_in or "0"}{level} - '
    else:
        kind = "CashGame - "
    clock = hand.clock_text
    lines = [
        f"Winamax Poker - {kind}HandId: #{hand.hand_id} - {names[hand.game]} ({stakes}) - {clock}",
        f"Table: '{hand.table}' {hand.max_seats or 6}-max "
        f"({'play' if not tournament and hand.currency is None else 'real'} money)",
    ]
    lines += seat_lines(hand, money, "Seat {number}: {name} ({stack})", "")
    by_street = events_by_street(hand)
    lines.append("*** ANTE/BLINDS ***")
    full_hand: set[str] = set()  # players whose first deal shows all three cards
    shown_up: dict[str, tuple[Card, ...]] = {}  # the up cards of those who show no more
    folded: set[str] = set()
    headers = STREET_HEADERS[variant]
    for street in (model.Street.ANTES, *hand.streets, model.Street.SHOWDOWN):
        header = street_header(hand, street, headers)
        if header is not None:
            lines.append(header)
        if street is model.Street.SEVENTH and hand.community_card is None:
            # The opponents' face-down 7th card makes no record ("[X]"): write it back for
            # those still in whose own line is not there (none is dealt with a community
            # card).
            dealt_here = {e.player for e in by_street.get(street, ()) if type(e) is model.Dealt}
            lines.extend(
                f"Dealt to {name} [X X {format_cards(up)}] [X]"
                for name, up in shown_up.items()
                if name not in dealt_here and name not in folded and name not in full_hand
            )
        elif street is model.Street.SHOWDOWN:
            if street not in by_street:
                continue
            lines.append("*** SHOW DOWN ***")
        brought_in: dict[str, int] = {}
        current = 0  # the bet faced, as Winamax counts it (the bring-in is none)
        for event in by_street.get(street, ()):
            if type(event) is model.Dealt:
                lines.append(_dealt_line(event, full_hand))
                shown_up.pop(event.player, None)  # kept in the order of the last deal
                shown_up[event.player] = event.previous + event.new
                continue
            assert type(event) is model.Action
            if event.kind is model.ActionKind.FOLD:
                folded.add(event.player)
            lines.append(_action_line(event, money, variant, brought_in, current))
            if event.kind is model.ActionKind.BRING_IN:
                brought_in[event.player] = event.amount or 0
            elif event.to_amount is not None and event.kind is not model.ActionKind.CALL:
                current = max(current, event.to_amount - brought_in.get(event.player, 0))
    lines.append("*** SUMMARY ***")
    rake = f"Rake {money(hand.rake)}" if hand.rake else "No rake"
    lines.append(f"Total pot {money(hand.total_pot)} | {rake}")
    lines.extend(_result_line(result, money) for result in hand.results)
    return "\n".join(lines)


def _in_winamax_terms(hand: model.Hand) -> model.Hand:
    """A site-neutral record as Winamax would have printed it, for the printer:

    - the clock from the start time (UTC), today's long game names;
    - a tournament's table named "<name>(<tournament number>)#<table>", which is where
      Winamax prints the tournament's number, its buy-in in Winamax's form ("1.10$ +
      0.10$") and its level as a number ("Level IV": 4);
    - no uncalled-bet line: the bet stays in the pot and its bettor collects it (added to
      the bettor's collect and summary line, or a side pot of its own when the bettor won
      nothing else), and the total pot counts it;
    - no line for what Winamax does not print: mucks (and a mucker's summary line), "doesn't
      show", table notes and chat.

    Chips and nets are unchanged: the bettor gets the same chips back, from the pot."""
    returned: dict[str, int] = {}
    events: list[model.Event] = []
    for event in hand.events:
        if type(event) is model.Note:
            continue
        if type(event) is model.Action:
            if event.kind is model.ActionKind.UNCALLED_BET_RETURNED:
                returned[event.player] = returned.get(event.player, 0) + (event.amount or 0)
                continue
            if event.kind in (model.ActionKind.MUCK, model.ActionKind.DOES_NOT_SHOW):
                continue
        events.append(event)
    if returned:
        events = _collect_returned(events, returned, hand)
    results = []
    for result in hand.results:
        back = returned.get(result.player, 0)
        if back:
            result = replace(result, won=(result.won or 0) + back, lost=False)
            if not result.showed and result.folded_on is None:
                result = replace(result, collected_without_showdown=True, mucked=())
        if not result.showed and result.folded_on is None and result.won is None:
            continue  # mucked, or sat out: Winamax prints no summary line for it
        results.append(result)
    table = hand.table
    buy_in = hand.buy_in
    level = hand.tournament_level
    if hand.tournament_id is not None:
        number = table.removeprefix(f"{hand.tournament_id} ")
        table = f"Tournament({hand.tournament_id})#{number.zfill(3)}"
        buy_in = _buy_in(hand.buy_in or "")
        level = level_number(level)
    return replace(
        hand,
        table=table,
        buy_in=buy_in,
        tournament_level=level,
        # A record read from Winamax text lists no SHOW DOWN among its streets (the printer
        # writes the header where the showdown's lines are); a site-neutral one may.
        streets=tuple(street for street in hand.streets if street is not model.Street.SHOWDOWN),
        events=tuple(events),
        results=tuple(results),
        total_pot=hand.total_pot + sum(returned.values()),
        printed=model.Printed("long", clock(hand)),
    )


def _collect_returned(
    events: list[model.Event], returned: dict[str, int], hand: model.Hand
) -> list[model.Event]:
    """`events` with each uncalled bet of `returned` collected from the pot by its bettor:
    added to the bettor's collect from the last pot the bettor won (the one the unmatched
    chips stand in; split between its halves in hi/lo, the odd chip to the high half), or
    for a bettor who collects nothing else a collect of its own, from a side pot of its own,
    after the last collect."""
    collects: dict[str, list[tuple[int, model.Action]]] = {}
    for index, event in enumerate(events):
        if type(event) is model.Action and event.kind is model.ActionKind.COLLECT:
            collects.setdefault(event.player, []).append((index, event))
    pots = [e.pot for e in events if type(e) is model.Action and e.kind is model.ActionKind.COLLECT]
    next_pot = max((pot for pot in pots if pot is not None), default=0) + 1
    at_end: list[model.Event] = []
    for player, amount in returned.items():
        own = collects.get(player)
        if not own:
            street = hand.streets[-1] if hand.streets else model.Street.THIRD
            at_end.append(
                model.Action(street, player, model.ActionKind.COLLECT, amount, pot=next_pot)
            )
            next_pot += 1
            continue
        last_pot = max(collect.pot or 0 for _, collect in own)
        # the high half first: it takes the odd chip
        targets = sorted(
            (pair for pair in own if (pair[1].pot or 0) == last_pot),
            key=lambda pair: pair[1].half != "high",
        )
        shares = [amount - amount // 2, amount // 2] if len(targets) == 2 else [amount]
        for (index, collect), share in zip(targets, shares, strict=False):
            events[index] = replace(collect, amount=(collect.amount or 0) + share)
    if at_end:
        indexes = [index for pairs in collects.values() for index, _ in pairs]
        last = max(indexes, default=len(events) - 1)
        events[last + 1 : last + 1] = at_end
    return events


def clock(hand: model.Hand) -> str:
    """The clock as printed, or (for a hand built without text) Winamax's UTC clock from its
    start time, e.g. "2016/11/12 23:04:10 UTC"."""
    return txt.printed_clock(hand, SITE, "UTC", "{t:%Y/%m/%d %H:%M:%S} UTC")


def _buy_in(buy_in: str) -> str:
    """A buy-in in PokerStars' form ("$1.10+$0.10 USD") as Winamax prints one ("1.10$ +
    0.10$"); another form as it stands."""
    parts = buy_in.rsplit(" ", 1)[0].split("+") if " " in buy_in else buy_in.split("+")
    sign = buy_in[:1]
    if sign not in CURRENCIES:
        return buy_in or "0"
    try:
        amounts = [units(part, True) for part in parts]
    except MoneyError:
        return buy_in
    return " + ".join(amount_text(amount, True, sign) for amount in amounts)


def _dealt_line(event: model.Dealt, full_hand: set[str]) -> str:
    name = event.player
    if event.street is model.Street.THIRD or (not event.previous and name not in full_hand):
        if len(event.new) >= 3:
            full_hand.add(name)
            return f"Dealt to {name} [{format_cards(event.new)}]"
        return f"Dealt to {name} [{' '.join(['X'] * (3 - len(event.new)) + [str(c) for c in event.new])}]"
    hidden = "" if name in full_hand else "X X "
    new = format_cards(event.new) if event.new else "X"
    return f"Dealt to {name} [{hidden}{format_cards(event.previous)}] [{new}]"


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player} posts ante {amount}{all_in}",
    model.ActionKind.BRING_IN: "{player} brings in {amount}{all_in}",
    model.ActionKind.CALL: "{player} calls {amount}{all_in}",
    model.ActionKind.BET: "{player} bets {amount}{all_in}",
    model.ActionKind.CHECK: "{player} checks",
    model.ActionKind.FOLD: "{player} folds",
    model.ActionKind.SHOW: "{player} shows [{cards}]{description}",
}
"""Winamax's action lines (`handlog.parse.printing.ActionWords`); a raise, a collect and
the short variant's bring-in are worded by `_action_line`."""
ALL_IN = " and is all-in"


def _action_line(
    event: model.Action, money: Money, variant: str, brought_in: dict[str, int], current: int
) -> str:
    name = event.player
    kind = event.kind
    tail = ALL_IN if event.all_in else ""
    if kind is model.ActionKind.BRING_IN and variant == "short":
        return f"{name} bring-in {money(event.amount)}{tail}"
    if kind in (model.ActionKind.RAISE, model.ActionKind.COMPLETE):
        figure = (event.to_amount or 0) - brought_in.get(name, 0)
        size = event.raise_by if event.raise_by is not None else figure - current
        return f"{name} raises {money(size)} to {money(figure)}{tail}"
    if kind is model.ActionKind.COLLECT:
        return f"{name} collected {money(event.amount)} from {pot_label(event.pot, event.half)}"
    return action_line(event, ACTION_WORDS, money, ALL_IN, "Winamax")


def _result_line(result: model.SeatResult, money: Money) -> str:
    start = f"Seat {result.seat}: {result.player}"
    if result.showed:
        outcome = "lost" if result.won is None else f"won {money(result.won)}"
        described = f" with {result.description}" if result.description is not None else ""
        return f"{start} showed [{format_cards(result.showed)}] and {outcome}{described}"
    if result.folded_on is not None:
        return f"{start} folded on the {FOLDED_WORDS[result.folded_on]}"
    return f"{start} won {money(result.won)}"


# ---------------------------------------------------------------------------------------
# The format

WINAMAX = RuleProfile(
    name="winamax",
    description=(
        "Winamax: a bet and three raises, also heads-up; open-pair double bet in 7-card stud "
        "only; no burns; short all-ins reopen at half a bet; ties and odd chips by suit."
    ),
    # Every field is the PokerStars choice: Winamax's corpus hands (one each of stud, stud
    # hi/lo, razz and a short all-in re-raise, 2016) replay clean under it and show nothing
    # that tells the two rooms apart. What they do show: the fixed-limit sizes (bring-in
    # below the small bet, completion to the small bet, big bets from 5th street, hand
    # 9250793-470-1478990787's 7th-street raise of one big bet), and a short all-in re-raise
    # of less than half a bet that nobody could answer (9250793-1578-1479092164), which
    # neither reopening rule would flag. No hand reaches the cap, pairs its 4th-street
    # board, ties a showing hand or splits an odd chip, so those fields keep the common
    # online choice (cap 4 bets heads-up too, double bet in stud only, suits break ties,
    # odd chip to the high half) until a Winamax hand shows otherwise.
)

TRAITS = SiteTraits(
    # No "Uncalled bet" line: hand 9250793-444-1478990340 (razz) ends with a 50€ bet nobody
    # called, and the 258€ collected + 2€ rake is every chip put in, that bet included.
    uncalled_bets=UncalledBets.IN_POT,
    # "Total pot 70.30€ | Rake 2.50€": the printed total is what was collected, after rake.
    total_pot_after_rake=True,
    # "(One pair : Aces)", "(Two pairs : Kings and 4)", "(Straight King high)": a wording of
    # Winamax's own, not the one HAND_DESCRIPTION compares with.
    describes_hands=False,
)

FORMAT = SiteFormat(
    site=SITE,
    name="Winamax",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=WINAMAX,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    deals=fixed_limit_deals(LONG_NAMES),
)
