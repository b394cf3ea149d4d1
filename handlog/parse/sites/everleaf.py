"""Everleaf Gaming stud hand histories to `Hand` records, and back to text.

`grammars/everleaf.lark` is the specification. What this site prints differently, and how it
becomes the neutral records:

- Amounts come as "$ 0.54 USD", "[€ 0.05 EURO]", a bare "€0.02." (bring-in, completion) or
  chips; bets, raises and calls print the chips the action adds, "completes to" the total.
- A forced player who completes writes "bets" and no bring-in line.
- No total pot, rake or uncalled-bet line: an uncalled bet (an unmatched bring-in too) is
  returned silently. The total pot is what the betting leaves in (bets nobody called taken
  back, as the replay does), and the rake what it leaves over the amounts won.
- Show lines print the hero's down cards in another order than they were dealt: the `SHOW`
  record holds the cards in deal order, the dealt ones where they were dealt.
"""

from __future__ import annotations

import re
from functools import lru_cache

from handlog import model
from handlog.cards import Card, cards
from handlog.errors import ParseError, Skipped
from handlog.money import CURRENCY_SIGNS, MoneyError, minor_units, small_number
from handlog.parse import grammar
from handlog.parse import text as txt
from handlog.parse.printing import action_line
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.sites.community import community_card, river_players, without_river_deals
from handlog.parse.text import in_deal_order, read_hand, utc_time
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits, UncalledBets

SITE = model.Site.EVERLEAF
HEADER_PREFIX = "Everleaf Gaming Game #"
HEADER_BYTES = re.compile(rb"\nEverleaf Gaming Game #\d+")
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
_HEADER = re.compile(r"Everleaf Gaming Game #(\d+)$")


def is_header(line: str) -> bool:
    """Whether `line` starts an Everleaf hand."""
    return _HEADER.match(line) is not None


GAMES = {
    "7 Card Stud": model.Game.STUD,
    "7 Card Stud Hi/Lo": model.Game.STUD8,
    "Razz": model.Game.RAZZ,
}
GAME_NAMES = {game: name for name, game in GAMES.items()}

SECTIONS = txt.section_table(*txt.STUD_STREETS, "RIVER")
STREET_HEADERS = {
    model.Street.THIRD: "** Dealing down cards **",
    model.Street.FOURTH: "** Dealing 4th Street **",
    model.Street.FIFTH: "** Dealing 5th Street **",
    model.Street.SIXTH: "** Dealing 6th Street **",
    model.Street.SEVENTH: "** Dealing River **",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS,
    STREET_HEADERS,
    {
        "HISTORY": "the '***** Hand history for game' line",
        "GAME": "the stakes and game line",
        "TABLE": "the Table line",
        "BUTTON": "the button",
        "PLAYER_COUNT": "the number of players",
    },
)
NOTE_ENDS = {
    "SITS_OUT": (model.NoteKind.SITTING_OUT, " is sitting out"),
    "JOINS": (model.NoteKind.JOINS, " has joined the table"),
    "LEAVES": (model.NoteKind.LEAVES, " has left the table"),
}
CURRENCY_WORDS = {"USD": "USD", "EURO": "EUR", "EUR": "EUR", "GBP": "GBP"}
_FIRST_STREET_POSITION = {1: (2,), 3: (0, 1, 2)}
"""Deal positions of the cards a first-street line shows: an opponent's door card, or the
hero's two down cards and door card."""


@lru_cache(maxsize=100_000)
def amount(text: str) -> int:
    """Minor units of an Everleaf amount: "$ 0.54 USD", "€ 0.05 EURO", "€0.02", "1500"."""
    bare = text.replace("ˆ", "€")  # a euro sign read through the wrong code page
    word = bare.rpartition(" ")[2]
    if word in CURRENCY_WORDS or word in ("Chips", "chips"):
        bare = bare[: -len(word) - 1]
    value = minor_units(bare.replace(" ", ""))
    return value


# ---------------------------------------------------------------------------------------
# Rules: what Everleaf's real hands show

EVERLEAF = RuleProfile(
    name="everleaf",
    description=(
        "Everleaf: a bet and three raises also heads-up; open-pair double bet in 7-card stud "
        "with a big raise after a small bet; no burns."
    ),
    # The defaults throughout. Hand #295680332: four bets on 6th and 7th street heads-up,
    # never a fifth (a bet and three raises, also heads-up); 4s 4h showing on 4th street,
    # "bets [€ 0.05]" then "raises [€ 0.15]": a raise of the big bet over a small bet (the
    # open-pair double bet in 7-card stud). No split pot in the corpus: the usual rules.
)

TRAITS = SiteTraits(
    uncalled_bets=UncalledBets.SILENT,  # hand #295679510: the €0.05 bet nobody called
    prints_total_pot=False,  # no total pot or rake line at all
    # "a pair of jacks", "high card ace": not the wording `replay.describe` writes.
    describes_hands=False,
)


# ---------------------------------------------------------------------------------------
# Header and game line


_GAME_LINE = re.compile(
    r"(?P<game>.*) - (?P<date>\d{4}/\d{2}/\d{2}) - (?P<time>\d{2}:\d{2}:\d{2})$"
)


def _game_info(line: str) -> tuple[txt.GameInfo, str, str]:
    """The stakes and game of the third line, and its date and time as printed; the part
    before the clock parsed with the grammar once per table (`_read_game`)."""
    found = _GAME_LINE.match(line)
    if found is None:
        raise txt.LineError(3, "the stakes and game line is not in a form Everleaf writes", line)
    try:
        info = _read_game(found["game"])
    except MoneyError as error:
        raise txt.LineError(3, str(error), line) from None
    if info is None:
        raise txt.LineError(3, "the stakes and game line is not in a form Everleaf writes", line)
    return info, found["date"], found["time"]


@lru_cache(maxsize=10_000)
def _read_game(key: str) -> txt.GameInfo | None:
    """The game line's part before the clock (without date and time), None when the
    grammar refuses it; remembered, since every hand at a table repeats it."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    try:
        tree = grammar.load("everleaf", "game_line").parse(
            f"{key} - 2000/01/01 - 00:00:00", start="game_line"
        )
    except UnexpectedInput:
        return None
    tokens = {t.type: str(t) for t in tree.children if isinstance(t, Token)}
    stakes = [str(t) for t in tree.children if isinstance(t, Token) and t.type == "STAKE"]
    symbol = stakes[0][:1].replace("ˆ", "€")
    currency = {"$": "USD", "€": "EUR", "£": "GBP"}.get(symbol)
    small, big = amount(stakes[0]), amount(stakes[1])
    name = tokens["GAME_NAME"]
    seats = tokens.get("MAX_SEATS")
    return txt.GameInfo(
        name,
        GAMES.get(name),
        small,
        big,
        currency,
        max_seats=small_number(seats[:-4]) if seats else None,
    )


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game handlog does not replay."""

    def read(found: re.Match[str], body: str) -> model.Hand | Skipped:
        lines = chunk.text.split("\n", 3)
        if len(lines) < 3:
            raise txt.LineError(len(lines), "the hand ends early; it looks truncated", lines[-1])
        info, date, time = _game_info(lines[2])
        if info.game is None:
            return Skipped(chunk.file, chunk.line, found[1], info.game_name)
        tokens = GRAMMAR.tokens(body, chunk)
        return _HandBuilder(chunk, found[1], info, date, time).build(tokens)

    return read_hand(chunk, GRAMMAR, _HEADER, read, 1)


# ---------------------------------------------------------------------------------------
# Hands


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(
        self, chunk: Chunk, hand_id: str, info: txt.GameInfo, date: str, time: str
    ) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.date = date
        self.time = time
        self.returned = 0
        """Bets nobody called, returned without a line (for the total pot)."""
        self.put_in = 0
        self.collected = 0
        self.known: dict[str, dict[int, Card]] = {}
        """Each player's cards seen dealt, by deal position."""
        self.printed: dict[str, tuple[Card, ...]] = {}
        """Each player's cards as the dealing lines printed them so far."""

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        self._street_end()
        info = self.info
        total = self.put_in - self.returned
        year, month, day = (int(part) for part in self.date.split("/"))
        hour, minute, second = (int(part) for part in self.time.split(":"))
        clock = f"{self.date} - {self.time}"
        # Not printed: what the betting left in the pot, and what was not paid out of it
        # (never below nothing: more paid out than was in is for the replay to flag).
        self.total_pot = total
        self.rake = max(0, total - self.collected)
        # A river dealing one card to every player left: the community card.
        self.community_card = community_card(self.events)
        if self.community_card is not None:
            self.events = without_river_deals(self.events)
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            # Everleaf's clock is UTC (it prints no zone).
            start_time=utc_time(year, month, day, hour, minute, second, "UTC"),
            printed=model.Printed("game", clock),
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind in ("HISTORY", "GAME", "BUTTON", "PLAYER_COUNT"):
            return
        if kind == "TABLE":
            self.table = text[6:-1]
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            self._street_end()
            self.street = street
            self.streets.append(street)
            self.street_put = {}
            start = text.index("\n") + 1
            line += 1
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    def _street_end(self) -> None:
        """A bet nobody called on the street that ends goes back without a line."""
        if len(self.street_put) == 0:
            return
        amounts = sorted(self.street_put.values(), reverse=True)
        uncalled = amounts[0] - (amounts[1] if len(amounts) > 1 else 0)
        self.returned += uncalled
        self.street_put = {}

    # -- helpers -------------------------------------------------------------------------

    def _put(
        self,
        kind: model.ActionKind,
        player: str,
        line: int,
        chips: int | None,
        total: int | None = None,
    ) -> None:
        if total is not None:
            chips = None  # the total decides
        self.put_in += self.put_chips(kind, player, line, chips, total).amount or 0

    @staticmethod
    def _bracketed(text: str) -> int:
        return amount(text[text.rindex("[") + 1 : -1].strip())

    def _cards_in(self, text: str) -> tuple[Card, ...]:
        open_at = text.index("[ ") + 2
        return cards(text[open_at : text.index(" ]", open_at)].replace(",", ""))

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack, _ = self.seat_parts(text)
        self.add_seat(model.Seat(number, name, amount(stack.strip()), False, line), text)

    def _ante(self, text: str, line: int) -> None:
        player = self.player_before(text, ": posts ante [", line)
        chips = self._bracketed(text)
        self.put_in += chips
        self.add_ante(player, chips, False, line)

    def _dealt(self, text: str, line: int) -> None:
        name = self.player_before(text[9:], " [ ", line)
        new = self._cards_in(text[9 + len(name) :])
        earlier = self.printed.get(name, ())
        known = self.known.setdefault(name, {})
        if self.street == model.Street.THIRD:
            positions = _FIRST_STREET_POSITION.get(len(new), ())
        else:
            positions = (int(self.street) - 1,)
        for position, card in zip(positions, new, strict=False):
            known.setdefault(position, card)
        self.printed[name] = earlier + new
        # Each line carries the cards printed for the player on earlier streets (the hero's
        # every card, an opponent's up cards), as the other sites' dealing lines repeat them.
        self.deal(name, earlier, new, line)

    def _brings_in(self, text: str, line: int) -> None:
        player = self.player_before(text, " posts bring-in ", line)
        chips = amount(text[text.rindex(" ") + 1 :].rstrip("."))
        self.bring_in = chips
        self._put(model.ActionKind.BRING_IN, player, line, chips)

    def _completes(self, text: str, line: int) -> None:
        player = self.player_before(text, " completes to ", line)
        total = amount(text[text.index(" completes to ", len(player)) + 14 :].rstrip("."))
        self._put(self.completion_or(model.ActionKind.COMPLETE), player, line, None, total)

    def _bets(self, text: str, line: int) -> None:
        player = self.player_before(text, ": bets [", line)
        self._put(self.completion_or(model.ActionKind.BET), player, line, self._bracketed(text))

    def _raises(self, text: str, line: int) -> None:
        player = self.player_before(text, " raises [", line)
        self._put(self.completion_or(model.ActionKind.RAISE), player, line, self._bracketed(text))

    def _calls(self, text: str, line: int) -> None:
        player = self.player_before(text, " calls [", line)
        self._put(model.ActionKind.CALL, player, line, self._bracketed(text))

    def _in_deal_order(self, player: str, shown: tuple[Card, ...]) -> tuple[Card, ...]:
        """The shown cards in deal order (the hero's down cards are shown in another order
        than they were dealt): `text.in_deal_order` with the cards seen dealt so far."""
        return in_deal_order(self.known.get(player, {}), shown)

    def _shows(self, text: str, line: int) -> None:
        self._showdown(model.ActionKind.SHOW, " shows [ ", text, line)

    def _mucks(self, text: str, line: int) -> None:
        self._showdown(model.ActionKind.MUCK, " mucks [ ", text, line)

    def _showdown(self, kind: model.ActionKind, verb: str, text: str, line: int) -> None:
        player = self.player_before(text, verb, line)
        rest = text[len(player) :]
        shown = self._cards_in(rest)
        close = rest.index(" ]")
        description = rest[close + 3 :] or None
        self.events.append(
            model.Action(
                model.Street.SHOWDOWN,
                player,
                kind,
                cards=self._in_deal_order(player, shown),
                description=description,
                line=line,
            )
        )

    def _does_not_show(self, text: str, line: int) -> None:
        player = self.player(text[:-20], line, text)
        self.events.append(
            model.Action(model.Street.SHOWDOWN, player, model.ActionKind.DOES_NOT_SHOW, line=line)
        )

    def _wins(self, text: str, line: int) -> None:
        player = self.player_before(text, " wins ", line)
        rest = text[len(player) + 6 :]
        half = None
        for word in ("high ", "low "):
            if rest.startswith(word):
                half, rest = word[:-1], rest[len(word) :]
        money, _, pot_text = rest.partition(" from ")
        chips = amount(money.strip("()"))
        pot_text = pot_text.removeprefix("the ").split(" with ", 1)[0]
        if pot_text.startswith("main"):
            pot = 0
        else:
            number = pot_text.rpartition(" ")[2]
            pot = small_number(number) if number.isdigit() else 1
        self.collected += chips
        self.events.append(
            model.Action(
                model.Street.SHOWDOWN,
                player,
                model.ActionKind.COLLECT,
                chips,
                pot=pot,
                half=half,
                line=line,
            )
        )

    def _note(self, name: str, text: str, line: int) -> None:
        kind, ending = NOTE_ENDS[name]
        player = self.player(text[: -len(ending)], line, text)
        self.events.append(model.Note(self.street, kind, player, text, line))


_HANDLERS = txt.note_handlers({name: name for name in NOTE_ENDS})

GRAMMAR = txt.SectionGrammar(
    "everleaf", "Everleaf", SECTIONS, _HANDLERS, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing


def print_hand(hand: model.Hand) -> str:
    """A hand as Everleaf text (the new format), which parses back to an equal record.

    A hand not read from Everleaf text (simulated, say) is written in the same form: its
    clock from the start time (Everleaf's clock is UTC), no line for what Everleaf does not
    print (an uncalled bet goes back silently; no summary), only the notes Everleaf has a
    line for, and a community card dealt on each river line (`sites.community`)."""
    sign = CURRENCY_SIGNS.get(hand.currency) if hand.currency else None
    word = {"USD": "USD", "EUR": "EURO", "GBP": "GBP"}.get(hand.currency or "", "")

    def bare(value: int | None) -> str:
        return _number(value or 0, sign, "")

    def spaced(value: int | None) -> str:
        return _number(value or 0, f"{sign} " if sign else None, f" {word}" if word else "")

    max_seats = f" - {hand.max_seats} Max" if hand.max_seats else ""
    lines = [
        f"Everleaf Gaming Game #{hand.hand_id}",
        f"***** Hand history for game #{hand.hand_id} *****",
        f"{bare(hand.small_bet)}/{bare(hand.big_bet)} {GAME_NAMES[hand.game]}{max_seats} - "
        f"{_clock(hand)}",
        f"Table {hand.table}",
        f"Total number of players: {len(hand.seats)}",
    ]
    for seat in hand.seats:
        lines.append(f"Seat {seat.number}: {seat.name} (  {spaced(seat.stack)} )")
    seated = {seat.name for seat in hand.seats}
    current = model.Street.ANTES
    for event in hand.events:
        street = event.street
        if street != current and model.Street.THIRD <= street <= model.Street.SEVENTH:
            lines.append(STREET_HEADERS[street])
            current = street
            if street is model.Street.SEVENTH and hand.community_card is not None:
                lines.extend(_community_lines(hand))
        if type(event) is model.Dealt:
            if event.new:
                shown = ", ".join(str(card) for card in event.new)
                lines.append(f"Dealt to {event.player} [ {shown} ].")
        elif type(event) is model.Note:
            ending = NOTE_LINES.get(event.kind)
            if ending is not None and event.player in seated:
                lines.append(f"{event.player}{ending}")
        elif (
            type(event) is model.Action and event.kind is not model.ActionKind.UNCALLED_BET_RETURNED
        ):
            line = _action(event, bare, spaced)
            if line:
                lines.append(line)
    if (
        model.Street.SEVENTH in hand.streets
        and hand.community_card is not None
        and STREET_HEADERS[model.Street.SEVENTH] not in lines
    ):
        lines.append(STREET_HEADERS[model.Street.SEVENTH])
        lines.extend(_community_lines(hand))
    return "\n".join(lines)


NOTE_LINES = {kind: ending for kind, ending in NOTE_ENDS.values()}
"""The notes Everleaf has a line for: the player's name, then these words."""


def _clock(hand: model.Hand) -> str:
    """The clock as printed, or (a hand built without its text: simulated, or read from
    another site) its start time on Everleaf's clock, which is UTC: "2011/08/12 -
    13:09:06"."""
    return txt.printed_clock(hand, SITE, "UTC", "{t:%Y/%m/%d - %H:%M:%S}")


def _community_lines(hand: model.Hand) -> list[str]:
    """The community card on the river line of every player left."""
    return [f"Dealt to {player} [ {hand.community_card} ]." for player in river_players(hand)]


def _number(value: int, symbol: str | None, suffix: str) -> str:
    if symbol is None:
        return f"{value}{suffix}"
    whole, cents = divmod(value, 100)
    return f"{symbol}{whole}.{cents:02d}{suffix}"


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player}: posts ante [{amount}]",
    model.ActionKind.BET: "{player}: bets [{amount}]",
    model.ActionKind.RAISE: "{player} raises [{amount}]",
    model.ActionKind.CALL: "{player} calls [{amount}]",
    model.ActionKind.CHECK: "{player} checks",
    model.ActionKind.FOLD: "{player} folds",
    model.ActionKind.DOES_NOT_SHOW: "{player} does not show cards",
}
"""Everleaf's action lines, their amounts spaced (`handlog.parse.printing.ActionWords`); a
bring-in, a completion, a show or muck and a win are worded by `_action`."""


def _action(action: model.Action, bare, spaced) -> str:  # type: ignore[no-untyped-def]
    kind = action.kind
    name = action.player
    if kind is model.ActionKind.BRING_IN:
        return f"{name} posts bring-in {bare(action.amount)}."
    if kind is model.ActionKind.COMPLETE:
        return f"{name} completes to {bare(action.to_amount)}."
    if kind in ACTION_WORDS:
        return action_line(action, ACTION_WORDS, spaced, "", "Everleaf")
    if kind is model.ActionKind.MUCK and not action.cards:
        return ""  # Everleaf prints a muck with its cards only
    if kind in (model.ActionKind.SHOW, model.ActionKind.MUCK):
        verb = "shows" if kind is model.ActionKind.SHOW else "mucks"
        shown = ", ".join(str(card) for card in action.cards)
        tail = f" {action.description}" if action.description else ""
        return f"{name} {verb} [ {shown} ]{tail}"
    if kind is model.ActionKind.COLLECT:
        half = f"{action.half} " if action.half else ""
        pot = "main pot" if not action.pot else f"side pot {action.pot}"
        return f"{name} wins {half}{spaced(action.amount)} from {pot}"
    raise ValueError(f"Everleaf prints no {kind.value} line")


FORMAT = SiteFormat(
    site=SITE,
    name="Everleaf",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=EVERLEAF,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    # Fixed-limit stud, stud/8 and razz: cash (dollars, euros) and tournament chips.
    deals=fixed_limit_deals(GAME_NAMES),
    encodings=("cp1252", "utf-8"),
)
