"""Absolute Poker (Cereus network) stud-family hand histories to `Hand` records, and back to
text.

`grammars/absolute.lark` is the specification. What this site prints differently, and how it
becomes the neutral records:

- `Stage #…: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)`: "Normal" is
  fixed limit; the stakes are the small and big bet.
- Actions follow the name and " - ": `PLAYER7 - Bring-In $0.01`, `- Bets`, `- Calls` (the chips
  added), `- Raises X [to Y]` (X the raise over the bet faced).
- Every street prints every player's cards so far, `H` for a card not seen, tens as `10`:
  `PLAYER1 - Pocket [H H Js 10d]`. A `Dealt` record is made for the cards new on the street
  (`previous` the cards seen before: the hero's every card, an opponent's up cards); a
  player who folded keeps getting the same line, which deals nothing.
- Collects name no half (`PLAYER3 Collects $0.19 from main pot`); the summary does
  (`HI:($0.20)`, `LO:($0.19)`), and a collect takes its half from there when the player won
  only one. The summary's `won Total ($0.19)` is the seat's `SeatResult.won`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from handlog import model
from handlog.cards import Card, card
from handlog.errors import ParseError, Skipped
from handlog.money import (
    CURRENCY_SYMBOLS,
    currency_sign,
    format_amount,
    money_writer,
    small_number,
)
from handlog.parse import grammar
from handlog.parse import text as txt
from handlog.parse.printing import action_line
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.sites.community import community_card, river_players, without_river_deals
from handlog.parse.text import (
    cards_of,
    clock_time,
    in_deal_order,
    index_of,
    read_hand,
    street_named,
    units,
)
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits, UncalledBets

SITE = model.Site.ABSOLUTE
HEADER_PREFIX = "Stage #"
HEADER_BYTES = re.compile(rb"\nStage #C?\d+")
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
_HEADER_SPLIT = re.compile(
    r"(?P<game>Stage #(?P<number>C?\d+):? .*?) +- +"
    r"(?P<clock>(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2}) (?P<h>\d{2}):(?P<mi>\d{2}):(?P<s>\d{2})"
    r"(?:\.\d+)?(?: \((?P<zone>[A-Z]+)\))?)$"
)


def is_header(line: str) -> bool:
    """Whether `line` starts an Absolute Poker hand."""
    return _HEADER_SPLIT.match(line) is not None


PROFILE = RuleProfile(
    name="absolute",
    description=(
        "Absolute Poker: the PokerStars rules (a bet and three raises, open-pair double bet "
        "in 7-card stud only, no burns); odd chip of a hi/lo split to the high half."
    ),
    # The defaults (PokerStars'). Hand #1300000000 splits $0.39 after rake, $0.20 to the
    # high (PLAYER6, two pair) and $0.19 to the low (PLAYER3, 8-6-5-3-A): the odd cent goes
    # high; it takes its $0.04 rake from the $0.43 pot before the halves ($0.20 + $0.19 =
    # $0.39). Nothing else in the corpus hand (no raise, no open pair, no tie) departs from
    # the defaults or confirms a departure.
)

TRAITS = SiteTraits(
    # No uncalled-bet line in the format seen; no corpus hand has a bet nobody called, so
    # this is unverified: the bet is taken to go back silently.
    uncalled_bets=UncalledBets.SILENT,
    # "Total Pot($0.43) | Rake ($0.04)" with $0.43 put in and $0.39 collected: before rake
    # (the default).
    # "(One pair, queens)", "Two Pair, kings and tens": not a wording handlog writes.
    describes_hands=False,
)

GAMES = {
    "Seven Card Hi/Lo": model.Game.STUD8,
    "7 Card Stud": model.Game.STUD,
    "Seven Card Stud": model.Game.STUD,
    "Razz": model.Game.RAZZ,
}
GAME_NAMES = {
    model.Game.STUD8: "Seven Card Hi/Lo",
    model.Game.STUD: "7 Card Stud",
    model.Game.RAZZ: "Razz",
}

SECTIONS = txt.section_table(*txt.STUD_STREETS, "RIVER", "SHOW_DOWN", "SUMMARY")
STREET_HEADERS = {
    model.Street.THIRD: "*** 3rd STREET ***",
    model.Street.FOURTH: "*** 4TH STREET ***",
    model.Street.FIFTH: "*** 5TH STREET ***",
    model.Street.SIXTH: "*** 6TH STREET ***",
    model.Street.SEVENTH: "*** RIVER ***",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS,
    STREET_HEADERS,
    {"TABLE": "the table line", "SHOW_DOWN": "*** SHOW DOWN ***", "SUMMARY": "*** SUMMARY ***"},
)
FOLDED_NAMES = {
    model.Street.THIRD: "3rd STREET",
    model.Street.FOURTH: "4TH STREET",
    model.Street.FIFTH: "5TH STREET",
    model.Street.SIXTH: "6TH STREET",
    model.Street.SEVENTH: "RIVER",
}
"""The street a summary seat folded on, as the printer writes it (`street_named` reads it)."""
_TOTAL_POT = re.compile(r"Total Pot\((?P<total>[^)]+)\)(?: \| Rake \((?P<rake>[^)]+)\))?$")
_WON_TOTAL = re.compile(r"won Total \((?P<won>[^)]+)\) ?")
_HALF = re.compile(r"(HI|LO):\((?P<amount>[^)]+)\)")


def _game_info(part: str) -> txt.GameInfo:
    """The header's game part read with the grammar (the hand number left out: every hand
    at a table repeats the rest)."""
    colon = part.find(":")
    info = _read_game(part[colon:]) if colon >= 0 else None
    if info is None:
        raise txt.LineError(1, "the hand header is not in a form Absolute writes", part)
    return info


@lru_cache(maxsize=10_000)
def _read_game(key: str) -> txt.GameInfo | None:
    """The game part after the hand number (from its colon on), None when the grammar
    refuses it; remembered, since every hand at a table repeats it."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    try:
        tree = grammar.load("absolute", "header", "body").parse("Stage #0" + key, start="header")
    except UnexpectedInput:
        return None
    named = {t.type: str(t) for t in tree.children if isinstance(t, Token)}
    name, limit = named["GAME_NAME"], named["LIMIT"]
    stakes = named["STAKES"].split(", ")[0]
    small_text, _, big_text = stakes.partition("/")
    tourney = named.get("TOURNEY")
    return txt.GameInfo(
        game_name=f"{name} {limit}",
        game=GAMES.get(name) if limit in ("Normal", "NORMAL") and big_text else None,
        small_bet=units(small_text),
        big_bet=units(big_text) if big_text else 0,
        currency=CURRENCY_SYMBOLS.get(small_text[:1]),
        tournament_id=tourney[11:-1] if tourney else None,
    )


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game handlog does not replay."""

    def read(split: re.Match[str], body: str) -> model.Hand | Skipped:
        info = _game_info(split["game"])
        if info.game is None:
            return Skipped(chunk.file, chunk.line, split["number"], info.game_name)
        tokens = GRAMMAR.tokens(body, chunk)
        return _HandBuilder(chunk, split["number"], info, split).build(tokens)

    return read_hand(chunk, GRAMMAR, _HEADER_SPLIT, read)


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(
        self, chunk: Chunk, hand_id: str, info: txt.GameInfo, split: re.Match[str]
    ) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.split = split
        self.pocket: dict[str, int] = {}
        """How many cards each player's last Pocket line showed (hidden ones too)."""
        self.known: dict[str, dict[int, Card]] = {}
        """Each player's cards seen, by deal position (the Pocket lines give positions)."""
        self.halves: dict[str, list[str]] = {}
        """The halves each player won, as the summary prints them."""

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        info = self.info
        split = self.split
        events = self.events
        if any(len(halves) == 1 for halves in self.halves.values()):
            # A collect line names no half; the summary says which one a player won.
            events = [self._with_half(event) for event in events]
        # A river dealing one card to every player left: the community card.
        self.community_card = community_card(events)
        if self.community_card is not None:
            events = without_river_deals(events)
        zone = split["zone"] or "ET"
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            start_time=clock_time(split, zone),
            printed=model.Printed("stage", split["clock"]),
            events=events,
        )

    def _with_half(self, event: model.Event) -> model.Event:
        if type(event) is not model.Action or event.kind is not model.ActionKind.COLLECT:
            return event
        halves = self.halves.get(event.player, [])
        if len(halves) != 1:
            return event
        return model.Action(
            event.street,
            event.player,
            event.kind,
            event.amount,
            pot=event.pot,
            half=halves[0],
            line=event.line,
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "TABLE":
            self.table = text[7:-1]
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            self.street = street
            self.street_put = {}
            self.current_bet = 0
            start = text.index("\n") + 1
            if street is model.Street.SUMMARY:
                if start < len(text):
                    end = text.index("\n", start)
                    self.read_line(_HandBuilder._total_pot, text[start:end], line + 1)
                    start = end + 1
                    line += 1
            elif street is not model.Street.SHOWDOWN:
                self.streets.append(street)
            line += 1
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    # -- helpers -------------------------------------------------------------------------

    def _put(
        self,
        kind: model.ActionKind,
        player: str,
        line: int,
        total: int,
        all_in: bool = False,
        raise_by: int | None = None,
    ) -> None:
        self.put_chips(kind, player, line, None, total, all_in, raise_by)

    def _cards(self, text: str) -> tuple[Card, ...]:
        return cards_of(text)  # "10d" is read as a ten

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack, _ = self.seat_parts(text, after=10, separator=" - ")
        self.add_seat(model.Seat(number, name, units(stack), False, line), text)

    def _ante(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - Ante ", line)
        amount = units(rest)
        self.add_ante(name, amount, False, line)

    def _pocket(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - Pocket [", line)
        row = _pocket_cards(rest[:-1])
        before = self.pocket.get(name, 0)
        if len(row) <= before:
            return  # the same cards again (a player who folded): nothing dealt
        self.pocket[name] = len(row)
        known = self.known.setdefault(name, {})
        for position, seen in enumerate(row):
            if seen is not None and position not in known:
                known[position] = seen
        previous = tuple(card for card in row[:before] if card is not None)
        new = tuple(card for card in row[before:] if card is not None)
        if new:
            self.deal(name, previous, new, line)

    def _in_deal_order(self, player: str, shown: tuple[Card, ...]) -> tuple[Card, ...]:
        """The shown cards in deal order. Absolute prints them so (the Pocket lines and the
        shows agree position by position), which is checked first, as it costs less than
        `text.in_deal_order`; that puts back any that are not."""
        known = self.known.get(player, {})
        size = len(shown)
        if all(position < size and shown[position] is seen for position, seen in known.items()):
            return shown
        return in_deal_order(known, shown)

    def _bring_in(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - Bring-In ", line)
        amount = units(rest.rstrip("."))
        self.bring_in = amount
        self.street_put[name] = amount
        if amount > self.current_bet:  # the bet the next player faces
            self.current_bet = amount
        self.events.append(
            model.Action(self.street, name, model.ActionKind.BRING_IN, amount, amount, line=line)
        )

    def _bets(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - Bets ", line)
        total = self.street_put.get(name, 0) + units(rest)
        self._put(self.completion_or(model.ActionKind.BET), name, line, total)

    def _calls(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - Calls ", line)
        total = self.street_put.get(name, 0) + units(rest)
        self._put(model.ActionKind.CALL, name, line, total)

    def _raise(self, name: str, rest: str, line: int, all_in: bool) -> None:
        # "Raises X" or "Raises X to Y": X the raise over the bet faced, Y the street total.
        by_text, _, total_text = rest.partition(" to ")
        raise_by = units(by_text)
        total = units(total_text) if total_text else self.current_bet + raise_by
        self._put(self.completion_or(model.ActionKind.RAISE), name, line, total, all_in, raise_by)

    def _raises(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - Raises ", line)
        self._raise(name, rest, line, False)

    def _all_in_raise(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - All-In(Raise) ", line)
        self._raise(name, rest, line, True)

    def _all_in_bet(self, text: str, line: int) -> None:
        # "All-In X": X the player's last chips; a bet or raise when they take the player
        # past the bet faced, else a call for less.
        name, rest = self.named(text, " - All-In ", line)
        total = self.street_put.get(name, 0) + units(rest)
        self._put(self.all_in_kind(total), name, line, total, True)

    def _checks(self, text: str, line: int) -> None:
        name, _ = self.named(text, " - Checks", line)
        self.events.append(model.Action(self.street, name, model.ActionKind.CHECK, line=line))

    def _folds(self, text: str, line: int) -> None:
        name, _ = self.named(text, " - Folds", line)
        self.events.append(model.Action(self.street, name, model.ActionKind.FOLD, line=line))

    def _shows(self, text: str, line: int) -> None:
        name, rest = self.named(text, " - Shows [", line)
        close = index_of(rest, "]")
        shown = self._in_deal_order(name, self._cards(rest[:close]))
        description = rest[close + 3 : -1] if len(rest) > close + 1 else None
        self.events.append(
            model.Action(
                model.Street.SHOWDOWN,
                name,
                model.ActionKind.SHOW,
                cards=shown,
                description=description,
                line=line,
            )
        )

    def _collects(self, text: str, line: int) -> None:
        name, rest = self.named(text, " Collects ", line)
        amount_text, _, pot_text = rest.partition(" from ")
        if pot_text == "main pot":
            pot = 0
        else:
            number = pot_text.rpartition(" ")[2].lstrip("#")
            pot = small_number(number) if number.isdigit() else 1
        self.events.append(
            model.Action(
                self.street,
                name,
                model.ActionKind.COLLECT,
                units(amount_text),
                pot=pot,
                line=line,
            )
        )

    def _total_pot(self, text: str, line: int) -> None:
        found = _TOTAL_POT.match(text)
        if found is None:
            raise txt.LineError(self.relative(line), "the 'Total Pot' line cannot be read", text)
        self.total_pot = units(found["total"])
        self.rake = units(found["rake"]) if found["rake"] else 0

    def _seat_result(self, text: str, line: int) -> None:
        colon = index_of(text, ": ")
        number = int(text[5:colon])
        name = self.player_prefix(text, colon + 2, " ", line)
        seat = self.seated[name]
        if seat.number != number:
            raise txt.LineError(
                self.relative(line),
                f"the summary puts {name} in seat {number}, but {name} sits in seat {seat.number}",
                text,
            )
        rest = text[colon + 2 + len(name) + 1 :]
        if rest.startswith("Folded on the "):
            folded_on = street_named(rest[14:])
            self.results.append(model.SeatResult(number, name, folded_on=folded_on, line=line))
            return
        won = None
        # Each pattern is tried only on a line holding its literal (a call of a pattern
        # costs more than the search).
        found = _WON_TOTAL.match(rest) if rest.startswith("won Total (") else None
        if found is not None:
            won = units(found["won"])
            rest = rest[found.end() :]
        # "HI:with One pair, aces [3d 5d … - P:As,…] LO:($0.19) […]": the cards are the first
        # bracket's, before " - " (the best five follow it); the rest is kept as printed.
        shown: tuple[Card, ...] = ()
        bracket = rest.find("[")
        if bracket >= 0:
            close = index_of(rest, "]", bracket)
            inside = rest[bracket + 1 : close].partition(" - ")[0]
            shown = self._in_deal_order(name, self._cards(inside))
        halves = _HALF.findall(rest) if ":(" in rest else []
        self.halves[name] = ["high" if half == "HI" else "low" for half, _ in halves]
        self.results.append(
            model.SeatResult(
                number,
                name,
                showed=shown,
                won=won,
                lost=won is None,
                description=rest or None,
                line=line,
            )
        )


GRAMMAR = txt.SectionGrammar(
    "absolute", "Absolute", SECTIONS, {}, TERMINAL_WORDS, builder=_HandBuilder
)


def _pocket_cards(text: str) -> tuple[Card | None, ...]:
    """The cards of a Pocket bracket by deal position, None for "H"; memoised (the same
    brackets repeat from hand to hand) in a dictionary, which a compiled caller reaches
    without the Python-level call of an `lru_cache`."""
    row = _POCKETS.get(text)
    if row is None:
        row = tuple([None if token == "H" else card(token) for token in text.split(" ")])
        if len(_POCKETS) >= 100_000:
            _POCKETS.clear()
        _POCKETS[text] = row
    return row


_POCKETS: dict[str, tuple[Card | None, ...]] = {}


# ---------------------------------------------------------------------------------------
# Printing


def print_hand(hand: model.Hand) -> str:
    """A hand as Absolute text (parse → print → parse gives equal records). Each street's
    Pocket lines are written from the dealt records: a player's cards so far, `H` for the
    ones not seen, one line per player dealt on that street.

    A hand not read from Absolute text (simulated, say) is written in the same form: its
    clock from the start time on Absolute's Eastern clock, no line for what Absolute does
    not print (an uncalled bet goes back silently, mucks and notes are left out), a raise
    as its size over the bet faced, the summary's seat lines in Absolute's words and a
    community card dealt on each river Pocket line (`sites.community`)."""
    money = money_writer(currency_sign(hand.currency), _amount)

    tourney = f"Tourney ID {hand.tournament_id} " if hand.tournament_id is not None else ""
    lines = [
        f"Stage #{hand.hand_id}: {tourney}{GAME_NAMES[hand.game]}  Normal "
        f"{money(hand.small_bet)}/{money(hand.big_bet)} - {_clock(hand)}"
    ]
    if hand.table:
        lines.append(f"Table: {hand.table}")
    lines.extend(
        f"Seat {seat.number} - {seat.name} ({money(seat.stack)} in chips)" for seat in hand.seats
    )
    slots: dict[str, list[str]] = {}
    current = model.Street.ANTES
    current_bet = 0  # the bet to match on this street, for raise sizes not recorded
    for event in hand.events:
        street = event.street
        if street != current and street in STREET_HEADERS:
            lines.append(STREET_HEADERS[street])
            current = street
            current_bet = 0
            if street is model.Street.SEVENTH and hand.community_card is not None:
                lines.extend(_community_lines(hand, slots))
        elif street != current and street is model.Street.SHOWDOWN:
            lines.append("*** SHOW DOWN ***")
            current = street
        if type(event) is model.Dealt:
            row = slots.setdefault(event.player, [])
            if street is model.Street.THIRD:
                row.extend(["H"] * (3 - len(event.new)))
            else:
                row.extend(["H"] * (int(street) - 1 - len(row)))
            row.extend(_card(card) for card in event.new)
            lines.append(f"{event.player} - Pocket [{' '.join(row)}]")
            continue
        if type(event) is not model.Action or event.kind in SILENT_KINDS:
            continue  # no Absolute line for it
        lines.append(_action_line(event, money, current_bet))
        if event.to_amount is not None and event.kind is not model.ActionKind.CALL:
            current_bet = max(current_bet, event.to_amount)
    if (
        model.Street.SEVENTH in hand.streets
        and hand.community_card is not None
        and STREET_HEADERS[model.Street.SEVENTH] not in lines
    ):
        at = lines.index("*** SHOW DOWN ***") if "*** SHOW DOWN ***" in lines else len(lines)
        lines[at:at] = [STREET_HEADERS[model.Street.SEVENTH], *_community_lines(hand, slots)]
    lines.append("*** SUMMARY ***")
    lines.append(f"Total Pot({money(hand.total_pot)}) | Rake ({money(hand.rake)})")
    own = hand.site is SITE and hand.header_variant == "stage"
    for result in hand.results:
        start = f"Seat {result.seat}: {result.player} "
        if result.folded_on is not None:
            lines.append(f"{start}Folded on the {FOLDED_NAMES[result.folded_on]}")
            continue
        won = f"won Total ({money(result.won)}) " if result.won is not None else ""
        if own:
            lines.append(f"{start}{won}{result.description or ''}".rstrip())
        else:
            lines.append(f"{start}{won}{_outcome(result)}".rstrip())
    return "\n".join(lines)


SILENT_KINDS = frozenset(
    {model.ActionKind.UNCALLED_BET_RETURNED, model.ActionKind.MUCK, model.ActionKind.DOES_NOT_SHOW}
)
"""What Absolute prints no line for: an uncalled bet goes back silently (its trait); a
muck is the summary's."""


def _clock(hand: model.Hand) -> str:
    """The clock as printed, or (a hand built without its text: simulated, or read from
    another site) its start time on Absolute's Eastern clock: "2009-03-18 19:10:00
    (ET)"."""
    return txt.printed_clock(hand, SITE, "ET", "{t:%Y-%m-%d %H:%M:%S} (ET)")


def _community_lines(hand: model.Hand, slots: dict[str, list[str]]) -> list[str]:
    """The community card on the Pocket line of every player left on the river."""
    lines = []
    card = _card(hand.community_card) if hand.community_card is not None else ""
    for player in river_players(hand):
        row = slots.setdefault(player, [])
        row.extend(["H"] * (6 - len(row)))
        row.append(card)
        lines.append(f"{player} - Pocket [{' '.join(row)}]")
    return lines


def _outcome(result: model.SeatResult) -> str:
    """A seat's showdown in Absolute's words, for a hand not read from Absolute text:
    "with Two pair [cards]", "lost with …", "Mucked [cards]"."""
    if result.showed:
        lost = "" if result.won is not None else "lost "
        description = f"{result.description} " if result.description else ""
        return f"{lost}with {description}[{' '.join(_card(card) for card in result.showed)}]"
    if result.mucked:
        return f"Mucked [{' '.join(_card(card) for card in result.mucked)}]"
    return "" if result.won is not None else "Mucked"


def _card(card: Card) -> str:
    text = str(card)
    return "10" + text[1] if text[0] == "T" else text


def _amount(value: int, symbol: str | None) -> str:
    if symbol is None:
        return f"{value:,}"
    return format_amount(value, symbol)


def _action_line(action: model.Action, money, current_bet: int) -> str:  # type: ignore[no-untyped-def]
    """One action line; `current_bet` is the bet it faced (a raise prints its size over
    that bet, then the street total)."""
    name = action.player
    kind = action.kind
    if kind is model.ActionKind.ANTE or kind is model.ActionKind.BRING_IN:
        return action_line(action, ACTION_WORDS, money, "", "Absolute")
    raise_by = action.raise_by
    if (
        raise_by is None
        and kind is model.ActionKind.RAISE
        and action.to_amount is not None
        and not action.all_in
    ):
        raise_by = action.to_amount - current_bet
    if kind in (model.ActionKind.RAISE, model.ActionKind.COMPLETE) and raise_by is not None:
        verb = "All-In(Raise)" if action.all_in else "Raises"
        return f"{name} - {verb} {money(raise_by)} to {money(action.to_amount)}"
    if action.all_in and kind in (
        model.ActionKind.BET,
        model.ActionKind.RAISE,
        model.ActionKind.COMPLETE,
        model.ActionKind.CALL,
    ):
        return f"{name} - All-In {money(action.amount)}"
    if kind is model.ActionKind.SHOW:
        shown = " ".join(_card(card) for card in action.cards)
        tail = f" ({action.description})" if action.description is not None else ""
        return f"{name} - Shows [{shown}]{tail}"
    if kind is model.ActionKind.COLLECT:
        pot = "main pot" if not action.pot else f"side pot #{action.pot}"
        return f"{name} Collects {money(action.amount)} from {pot}"
    return action_line(action, ACTION_WORDS, money, "", "Absolute")


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player} - Ante {amount}",
    model.ActionKind.BRING_IN: "{player} - Bring-In {amount}",
    model.ActionKind.BET: "{player} - Bets {amount}",
    model.ActionKind.COMPLETE: "{player} - Bets {amount}",
    model.ActionKind.CALL: "{player} - Calls {amount}",
    model.ActionKind.CHECK: "{player} - Checks",
    model.ActionKind.FOLD: "{player} - Folds",
}
"""Absolute's action lines (`handlog.parse.printing.ActionWords`); a raise, an all-in, a
show and a collect are worded by `_action_line`."""


FORMAT = SiteFormat(
    site=SITE,
    name="Absolute Poker",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=PROFILE,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    # Fixed limit ("Normal") stud, stud/8 and razz, at cash tables and in tournaments.
    deals=fixed_limit_deals(GAME_NAMES),
)
