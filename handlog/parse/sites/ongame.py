"""OnGame network stud-family hand histories to `Hand` records, and back to text.

`grammars/ongame.lark` is the specification. What this site prints differently, and how it
becomes the neutral records:

- The game and stakes are on the table line (`LIMIT SEVEN_CARD_STUD_HI_LO $0.25/$0.50, ante:
  $0.05, Real money`); the clock carries its offset (`GMT+0300`) or a zone (`CET`).
- Sections are separated by `---`; opponents' down cards are printed `-` (left out of the
  records), later streets print the new card only: `Dealt.previous` holds the cards the
  player's earlier lines printed (the hero's every card, an opponent's up cards).
- `small bring in` is the bring-in; `big bring in` is the forced player completing (a
  COMPLETE with no bring-in).
- `raises X to Y`: X is the chips this action adds, Y the player's total for the whole hand,
  antes excluded; the record's `to_amount` is Y less what the player put in on earlier
  streets (the replay checks X against it).
- No showdown lines: the summary's seat lines print the cards shown (in deal order) and every
  seat's net; `Main pot: $5.14 won by Hero ($4.89)` gives the pot before rake and what each
  winner took (the collects).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from functools import lru_cache

from handlog import model
from handlog.cards import Card, cards
from handlog.errors import ParseError, Skipped
from handlog.money import (
    CURRENCY_SYMBOLS,
    MoneyError,
    currency_sign,
    minor_units,
    money_writer,
    small_number,
)
from handlog.parse import grammar
from handlog.parse import text as txt
from handlog.parse.printing import action_line
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.sites.community import community_card, river_players, without_river_deals
from handlog.parse.text import amount_all_in, read_hand, utc_time
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits, UncalledBets

SITE = model.Site.ONGAME
HEADER_PREFIX = "***** History for hand "
HEADER_BYTES = re.compile(rb"\n\*\*\*\*\* History for hand ")
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
_HEADER = re.compile(
    r"\*\*\*\*\* History for hand (?P<id>[A-Z0-9][-A-Z0-9]*)"
    r"(?P<tournament> \(TOURNAMENT:(?: \"(?P<name>[^\"]*)\",)? (?P<tid>[-A-Z0-9]+)?"
    r"(?:, buy-in: (?P<buy_in>[^)]*))?\))? \*\*\*\*\*$"
)
_START = re.compile(
    r"Start hand: [A-Z][a-z]{2} (?P<month>[A-Z][a-z]{2}) (?P<day>\d{1,2}) "
    r"(?P<hour>\d{1,2}):(?P<minute>\d{2}):(?P<second>\d{2}) (?P<zone>[A-Z]{2,5})"
    r"(?P<offset>[+-]\d{4})? (?P<year>\d{4})$"
)


def is_header(line: str) -> bool:
    """Whether `line` starts an OnGame hand."""
    return _HEADER.match(line) is not None


PROFILE = RuleProfile(
    name="ongame",
    description=(
        "OnGame: the PokerStars rules (a bet and three raises, open-pair double bet in 7-card "
        "stud only, no burns, odd chip to the high half); its real hands do not tell them apart."
    ),
    # The two corpus hands (R5-292493407-77 heads-up stud, R5-78227816-62 stud/8) never reach
    # a cap, show no open pair on 4th street, split no pot and tie no showing hand: nothing in
    # them departs from the defaults, and nothing confirms a departure, so every field is
    # PokerStars' (the default) until a real hand shows otherwise.
)

TRAITS = SiteTraits(
    # No uncalled-bet line in any OnGame export seen (nor a line shape for one in other
    # readers of the format); no corpus hand has a bet nobody called, so whether the pot
    # keeps it is unverified: the bet is taken to go back silently.
    uncalled_bets=UncalledBets.SILENT,
    # "Main pot: $5.14 won by Hero ($4.89)" / "Rake taken: $0.25" (R5-78227816-62): the pot is
    # printed before the rake (5.14 is every chip put in; 4.89 + 0.25 = 5.14): the default.
    # "(FULL_HOUSE EIGHT, FOUR)": not a wording handlog writes.
    describes_hands=False,
)

GAMES = {
    "SEVEN_CARD_STUD": model.Game.STUD,
    "SEVEN_CARD_STUD_HI_LO": model.Game.STUD8,
    "RAZZ": model.Game.RAZZ,
}
GAME_NAMES = {game: name for name, game in GAMES.items()}

SECTIONS = txt.section_table(*txt.STUD_STREETS, "RIVER", "SUMMARY")
STREET_HEADERS = {
    model.Street.THIRD: "Dealing pocket cards",
    model.Street.FOURTH: "Dealing 4th street",
    model.Street.FIFTH: "Dealing 5th street",
    model.Street.SIXTH: "Dealing 6th street",
    model.Street.SEVENTH: "Dealing river",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS,
    {street: "---/" + header for street, header in STREET_HEADERS.items()},
    {
        "START": "the 'Start hand:' line",
        "TABLE": "the 'Table:' line",
        "USER": "the 'User:' line",
        "BUTTON": "the button",
        "PLAYERS": "the 'Players in round:' line",
        "SUMMARY": "---/Summary:",
        "END": "the '***** End of hand' line",
    },
)

_ALL_IN = (" [all in]", " and is all-in")
_SHARE = re.compile(r"([$€£]?\d[\d,]*(?:\.\d+)?)(?: (High|Low))?\)(?:, |$)")
"""A winner's share after the name and " (": "$4.89)", "$1.37 High), "."""


@lru_cache(maxsize=10_000)
def _game_info(line: str) -> txt.GameInfo:
    """The table line read with the grammar; memoised, since every hand at a table repeats it."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    try:
        tree = grammar.load("ongame", "table_line").parse(line, start="table_line")
    except UnexpectedInput:
        raise txt.LineError(3, "the table line is not in a form OnGame writes", line) from None
    tokens = [t for t in tree.children if isinstance(t, Token)]
    named = {t.type: str(t) for t in tokens}
    amounts = [str(t) for t in tokens if t.type == "AMOUNT"]
    limit, name = named["LIMIT"], named["GAME_NAME"]
    play = named["MONEY"].lower().startswith("play")
    currency = None if play else CURRENCY_SYMBOLS.get(amounts[0][:1])
    try:
        small, big = minor_units(amounts[0]), minor_units(amounts[1])
    except MoneyError as error:
        raise txt.LineError(3, str(error), line) from None
    if play and amounts[0][:1] in CURRENCY_SYMBOLS:
        raise txt.LineError(3, "play money with a currency sign", line)
    info = txt.GameInfo(
        table=named["TABLE_NAME"],
        game_name=f"{limit} {name}",
        game=GAMES.get(name) if limit == "LIMIT" else None,
        small_bet=small,
        big_bet=big,
        currency=currency,
    )
    return info


def _start_time(found: re.Match[str]) -> datetime | None:
    """The clock as UTC: "GMT+0300" gives its offset, a zone name its zone."""
    month = txt.SHORT_MONTHS.get(found["month"])
    if month is None:
        return None
    parts = (int(found["year"]), month, int(found["day"]))
    clock = (int(found["hour"]), int(found["minute"]), int(found["second"]))
    offset = found["offset"]
    if offset is None:
        return utc_time(*parts, *clock, found["zone"])
    if found["zone"] not in ("GMT", "UTC"):
        return None
    minutes = int(offset[1:3]) * 60 + int(offset[3:5])
    try:
        zone = timezone(timedelta(minutes=-minutes if offset[0] == "-" else minutes))
        return datetime(*parts, *clock, tzinfo=zone).astimezone(UTC)
    except (ValueError, OverflowError):  # an offset of a day or more, an impossible date
        return None


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game handlog does not replay."""

    def read(found: re.Match[str], body: str) -> model.Hand | Skipped:
        lines = chunk.text.split("\n", 3)
        if len(lines) < 3:
            raise txt.LineError(len(lines), "the hand ends early; it looks truncated", lines[-1])
        info = _game_info(lines[2])
        if info.game is None:
            return Skipped(chunk.file, chunk.line, found["id"], info.game_name)
        start = _START.match(lines[1])
        if start is None:
            raise txt.LineError(
                2, "the 'Start hand:' line is not in a form OnGame writes", lines[1]
            )
        tokens = GRAMMAR.tokens(body, chunk)
        return _HandBuilder(chunk, found["id"], info, found, start).build(tokens)

    return read_hand(chunk, GRAMMAR, _HEADER, read, "id")


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(
        self,
        chunk: Chunk,
        hand_id: str,
        info: txt.GameInfo,
        header: re.Match[str],
        start: re.Match[str],
    ) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.header = header
        self.start = start
        self.hand_put: dict[str, int] = {}
        """Each player's chips in on the streets before this one, antes excluded (OnGame's
        "raises X to Y" prints Y as the player's total for the hand)."""
        self.printed: dict[str, tuple[Card, ...]] = {}
        """Each player's cards as the dealing lines printed them so far."""
        self.pots: list[int] = []

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        info = self.info
        header = self.header
        start = self.start
        tournament = header["tournament"] is not None
        pots = self.pots
        # Main and side pots as printed (before rake) only when there is a side pot: a lone
        # main pot is the total pot.
        side = len(pots) > 1
        self.total_pot = sum(pots)
        self.main_pot = pots[0] if side else None
        self.side_pots = tuple(pots[1:]) if side else ()
        self.tournament_id = header["tid"] if tournament else None
        self.buy_in = header["buy_in"] if tournament else None
        self.mixed_game = header["name"] if tournament else None
        # A river dealing one card to every player left: the community card.
        self.community_card = community_card(self.events)
        if self.community_card is not None:
            self.events = without_river_deals(self.events)
        return self.hand_of(
            SITE,
            self.hand_id,
            info,
            start_time=_start_time(start),
            printed=model.Printed("tournament" if tournament else "hand", start.string[12:]),
        )

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        # "Players in round: 2 (5)": the bracket is not the table's size (hand R5-292493407-77
        # seats a player in seat 6 under "(5)"), so the record leaves max_seats unknown.
        if kind in ("START", "TABLE", "USER", "BUTTON", "PLAYERS", "END"):
            return
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            for player, put in self.street_put.items():
                self.hand_put[player] = self.hand_put.get(player, 0) + put
            self.street = street
            self.street_put = {}
            if street is not model.Street.SUMMARY:
                self.streets.append(street)
            start = text.index("\n", 4) + 1  # after "---" and the street's header
            line += 2
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    # -- helpers -------------------------------------------------------------------------

    def _put(
        self, kind: model.ActionKind, player: str, line: int, chips: int, all_in: bool, total: int
    ) -> None:
        self.put_chips(kind, player, line, chips, total, all_in)

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack, _ = self.seat_parts(text)
        self.add_seat(model.Seat(number, name, minor_units(stack), False, line), text)

    def _ante(self, text: str, line: int) -> None:
        name, rest = self.named(text, " posts ante ", line)
        amount, all_in = amount_all_in(rest, _ALL_IN)
        self.add_ante(name, amount, all_in, line)

    def _dealt(self, text: str, line: int) -> None:
        # "Dealing to NAME: [c, c, c]": the last ": [" ends the name (a name may hold one).
        at = text.rfind(": [")
        seat = self.seated.get(text[11:at])
        name = seat.name if seat is not None else self.player_prefix(text, 11, ": [", line)
        tokens = text[11 + len(name) + 3 : -1].split(", ")
        new = cards(" ".join(token for token in tokens if token != "-"))
        if not new:
            return  # every card face down to another player: nothing to record
        earlier = self.printed.get(name, ())
        self.printed[name] = earlier + new
        self.deal(name, earlier, new, line)

    def _bring_in(self, text: str, line: int) -> None:
        big = text.rfind(" big bring in ")
        if big >= 0 and self.seated.get(text[:big]) is not None:
            # The forced player completing to the small bet: no bring-in is posted.
            name, rest = self.named(text, " big bring in ", line)
            amount, all_in = amount_all_in(rest, _ALL_IN)
            self._put(
                self.completion_or(model.ActionKind.COMPLETE), name, line, amount, all_in, amount
            )
            return
        name, rest = self.named(text, " small bring in ", line)
        amount, all_in = amount_all_in(rest, _ALL_IN)
        self.bring_in = amount
        self._put(model.ActionKind.BRING_IN, name, line, amount, all_in, amount)

    def _bets(self, text: str, line: int) -> None:
        name, rest = self.named(text, " bets ", line)
        amount, all_in = amount_all_in(rest, _ALL_IN)
        total = self.street_put.get(name, 0) + amount
        self._put(self.completion_or(model.ActionKind.BET), name, line, amount, all_in, total)

    def _raises(self, text: str, line: int) -> None:
        # "raises X to Y": X the chips this action adds, Y the player's total for the hand
        # (antes excluded); the street total is Y less the earlier streets.
        name, rest = self.named(text, " raises ", line)
        added, _, total_text = rest.partition(" to ")
        hand_total, all_in = amount_all_in(total_text, _ALL_IN)
        total = hand_total - self.hand_put.get(name, 0)
        self._put(
            self.completion_or(model.ActionKind.RAISE),
            name,
            line,
            minor_units(added),
            all_in,
            total,
        )

    def _calls(self, text: str, line: int) -> None:
        name, rest = self.named(text, " calls ", line)
        amount, all_in = amount_all_in(rest, _ALL_IN)
        total = self.street_put.get(name, 0) + amount
        self._put(model.ActionKind.CALL, name, line, amount, all_in, total)

    def _sits_out(self, text: str, line: int) -> None:
        seat = self.seated.get(text[:-9])
        player = seat.name if seat is not None else None
        self.events.append(model.Note(self.street, model.NoteKind.SITTING_OUT, player, text, line))

    def _pot_won(self, text: str, line: int) -> None:
        # "Main pot: $5.14 won by Hero ($4.89)", "Side pot 1: $3.26 won by A ($1.55), B ($1.55)";
        # "Main pot: $0.18 won by": the rake took it whole, nobody collects.
        colon = text.index(": ")
        label = text[:colon]
        pot = 0 if label == "Main pot" else small_number(label[9:])
        if pot != len(self.pots):
            raise txt.LineError(self.relative(line), "the pots are not printed in order", text)
        by = text.index(" won by", colon)
        self.pots.append(minor_units(text[colon + 2 : by]))
        winners = text[by + 8 :]  # after " won by " (nothing when nobody collects)
        position = 0
        while position < len(winners):
            found = self._winner(winners, position, line, text)
            name, amount, half, position = found
            self.events.append(
                model.Action(
                    model.Street.SUMMARY,
                    name,
                    model.ActionKind.COLLECT,
                    amount,
                    pot=pot,
                    half=half,
                    line=line,
                )
            )

    def _winner(
        self, winners: str, position: int, line: int, text: str
    ) -> tuple[str, int, str | None, int]:
        """One "NAME ($x)" (or "NAME ($x High)") of a pot's winners from `position`: the
        player, the amount, the half, and where the next one starts."""
        for name in self.names_longest_first:
            if not winners.startswith(name + " (", position):
                continue
            found = _SHARE.match(winners, position + len(name) + 2)
            if found is None:
                continue
            half = found[2].lower() if found[2] else None
            return self.seated[name].name, minor_units(found[1]), half, found.end()
        raise txt.LineError(
            self.relative(line), "a pot's winner is not in the seat list of this hand", text
        )

    def _rake(self, text: str, line: int) -> None:
        self.rake = minor_units(text[12:])

    def _seat_result(self, text: str, line: int) -> None:
        colon = text.index(": ")
        number = int(text[5:colon])
        net_at = text.index("), net: ", colon)
        open_paren = text.rindex(" (", colon, net_at)
        named = text[colon + 2 : open_paren]
        name = self.summary_player(self.seated.get(named), number, named, line, text)
        # The stack after the hand is the site's own figure (the records keep the stack
        # before it); the net is kept for the replay to compare with its own.
        bracket = text.find(", [", net_at)
        figure = text[net_at + 8 : bracket if bracket >= 0 else len(text)]
        sign = -1 if figure.startswith("-") else 1
        try:
            net = sign * minor_units(figure.lstrip("+-"))
        except MoneyError:
            raise txt.LineError(
                self.relative(line), "the seat's net cannot be read", text
            ) from None
        shown: tuple[Card, ...] = ()
        description = None
        if bracket >= 0:
            close = text.index("]", bracket)
            shown = cards(text[bracket + 3 : close].replace(",", ""))
            if close + 1 < len(text):
                description = text[close + 3 : -1]
        self.results.append(
            model.SeatResult(
                number, name, showed=shown, description=description, net=net, line=line
            )
        )


GRAMMAR = txt.SectionGrammar("ongame", "OnGame", SECTIONS, {}, TERMINAL_WORDS, builder=_HandBuilder)


# ---------------------------------------------------------------------------------------
# Printing


def print_hand(hand: model.Hand) -> str:
    """A hand as OnGame text (parse → print → parse gives equal records). The site's own
    figures the records do not keep (each seat's stack after the hand and its net) are
    worked out from the records; the `User:` and `Button:` lines are left out.

    A hand not read from OnGame text (simulated, say) is written in the same form: its clock
    from the start time (UTC, "GMT+0000"), its pots before the rake (the rake taken from the
    main pot), an uncalled bet returned without a line (OnGame prints none), and only the
    notes OnGame has a line for ("sits out")."""
    money = money_writer(currency_sign(hand.currency))

    if hand.site is SITE and hand.header_variant:
        in_tournament = hand.header_variant == "tournament"
    else:  # a hand not read from OnGame text
        in_tournament = hand.tournament_id is not None
    if in_tournament:
        name = f' "{hand.mixed_game}",' if hand.mixed_game is not None else ""
        number = f" {hand.tournament_id}" if hand.tournament_id is not None else ""
        buy_in = f", buy-in: {hand.buy_in}" if hand.buy_in is not None else ""
        tournament = f" (TOURNAMENT:{name}{number}{buy_in})"
    else:
        tournament = ""
    ante = f", ante: {money(hand.ante)}" if hand.ante else ""
    kind = "Real money" if hand.currency else "Play money"
    players = f"Players in round: {len(hand.seats)}"
    lines = [
        f"***** History for hand {hand.hand_id}{tournament} *****",
        f"Start hand: {_clock(hand)}",
        f"Table: {hand.table} [0] (LIMIT {GAME_NAMES[hand.game]} {money(hand.small_bet)}/"
        f"{money(hand.big_bet)}{ante}, {kind})",
        players,
    ]
    lines.extend(f"Seat {seat.number}: {seat.name} ({money(seat.stack)})" for seat in hand.seats)
    put_in = {seat.name: 0 for seat in hand.seats}
    collected = {seat.name: 0 for seat in hand.seats}
    seated = set(put_in)
    hand_put: dict[str, int] = {}
    street_put: dict[str, int] = {}
    current = model.Street.ANTES
    pots: dict[int, list[model.Action]] = {}
    brought_in = False
    for event in hand.events:
        street = event.street
        if street != current and model.Street.THIRD <= street <= model.Street.SEVENTH:
            for player, put in street_put.items():
                hand_put[player] = hand_put.get(player, 0) + put
            street_put = {}
            lines.extend(("---", STREET_HEADERS[street]))
            current = street
            if street is model.Street.SEVENTH and hand.community_card is not None:
                lines.extend(
                    f"Dealing to {player}: [{hand.community_card}]"
                    for player in river_players(hand)
                )
        if type(event) is model.Note:
            if event.kind is model.NoteKind.SITTING_OUT and event.player in seated:
                lines.append(f"{event.player} sits out")
            continue
        if type(event) is model.Dealt:
            if event.new or event.hidden:
                lines.append(_dealt_line(event, hand))
            continue
        assert type(event) is model.Action
        if event.kind is model.ActionKind.COLLECT:
            pots.setdefault(event.pot or 0, []).append(event)
            collected[event.player] = collected.get(event.player, 0) + (event.amount or 0)
            continue
        if event.kind is model.ActionKind.UNCALLED_BET_RETURNED:
            # OnGame prints no line for it: the bet goes back silently (its trait).
            put_in[event.player] = put_in.get(event.player, 0) - (event.amount or 0)
            continue
        if event.kind in (
            model.ActionKind.SHOW,
            model.ActionKind.MUCK,
            model.ActionKind.DOES_NOT_SHOW,
        ):
            continue
        put_in[event.player] = put_in.get(event.player, 0) + (event.amount or 0)
        lines.append(_action_line(event, money, hand_put, brought_in))
        brought_in |= event.kind in (model.ActionKind.BRING_IN, model.ActionKind.COMPLETE)
        if event.to_amount is not None:
            street_put[event.player] = event.to_amount
    # Streets dealt with no line on them (everyone all-in) still have their header.
    printed = {line for line in lines if line in STREET_HEADERS.values()}
    for street in hand.streets:
        if street in STREET_HEADERS and STREET_HEADERS[street] not in printed:
            lines.extend(("---", STREET_HEADERS[street]))
            if street is model.Street.SEVENTH and hand.community_card is not None:
                lines.extend(
                    f"Dealing to {player}: [{hand.community_card}]"
                    for player in river_players(hand)
                )
    lines.extend(("---", "Summary:"))
    for index, amount in enumerate(_pots_before_rake(hand)):
        label = "Main pot" if index == 0 else f"Side pot {index}"
        winners = ", ".join(
            f"{c.player} ({money(c.amount)}{' ' + c.half.capitalize() if c.half else ''})"
            for c in pots.get(index, ())
        )
        lines.append(f"{label}: {money(amount)} won by {winners}".rstrip())
    lines.append(f"Rake taken: {money(hand.rake)}")
    results = {result.player: result for result in hand.results}
    shows = {
        action.player: action
        for action in hand.actions
        if action.kind is model.ActionKind.SHOW and action.cards
    }
    for seat in hand.seats:
        net = collected[seat.name] - put_in[seat.name]
        result = results.get(seat.name)
        shown_net = result.net if result is not None and result.net is not None else net
        sign = "+" if shown_net >= 0 else "-"
        # The stack after the hand (not a record's field; never below nothing, which
        # OnGame cannot print: a seat that put in more than its stack is the replay's to
        # flag, from the seat line).
        line = (
            f"Seat {seat.number}: {seat.name} ({money(max(0, seat.stack + net))}), net: "
            f"{sign}{money(abs(shown_net))}"
        )
        shown, description = _shown(result, shows.get(seat.name))
        if shown:
            line += f", [{', '.join(str(c) for c in shown)}]"
            if description is not None:
                line += f" ({description})"
        lines.append(line)
    lines.append(f"***** End of hand {hand.hand_id} *****")
    return "\n".join(lines)


def _shown(
    result: model.SeatResult | None, show: model.Action | None
) -> tuple[tuple[Card, ...], str | None]:
    """The cards (and words) a seat's summary line shows: the summary's, else (a hand of a
    site that prints no summary) the showdown's."""
    if result is not None and result.showed:
        return result.showed, result.description
    if show is not None:
        return show.cards, show.description
    return (), None


def _clock(hand: model.Hand) -> str:
    """The clock as printed, or (a hand built without its text: simulated, or read from
    another site) its start time in UTC, in OnGame's form: "Sat Aug 28 17:33:38 GMT+0000
    2010"."""
    return txt.printed_clock(hand, SITE, "UTC", "{t:%a %b} {t.day} {t:%H:%M:%S} GMT+0000 {t.year}")


def _pots_before_rake(hand: model.Hand) -> list[int]:
    """The pots as OnGame prints them: before the rake. A hand's main and side pots are
    after the rake when they add up to the total less the rake (PokerStars'): the rake is
    then the main pot's."""
    if hand.main_pot is None:
        return [hand.total_pot]
    pots = [hand.main_pot, *hand.side_pots]
    if sum(pots) != hand.total_pot and sum(pots) + hand.rake == hand.total_pot:
        pots[0] += hand.rake
    return pots


def _dealt_line(event: model.Dealt, hand: model.Hand) -> str:
    # Face-down cards first (an opponent's "-"), as OnGame deals them.
    shown = ["-"] * event.hidden + [str(card) for card in event.new]
    return f"Dealing to {event.player}: [{', '.join(shown)}]"


def _action_line(action: model.Action, money, hand_put: dict[str, int], brought_in: bool) -> str:  # type: ignore[no-untyped-def]
    player = action.player
    kind = action.kind
    all_in = " [all in]" if action.all_in else ""
    if kind is model.ActionKind.COMPLETE and not brought_in:
        # The forced player completing instead of bringing in.
        return f"{player} big bring in {money(action.amount)}{all_in}"
    if kind in (model.ActionKind.RAISE, model.ActionKind.COMPLETE):
        total = (action.to_amount or 0) + hand_put.get(player, 0)
        return f"{player} raises {money(action.amount)} to {money(total)}{all_in}"
    return action_line(action, ACTION_WORDS, money, " [all in]", "OnGame")


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player} posts ante {amount}{all_in}",
    model.ActionKind.BRING_IN: "{player} small bring in {amount}{all_in}",
    model.ActionKind.BET: "{player} bets {amount}{all_in}",
    model.ActionKind.CALL: "{player} calls {amount}{all_in}",
    model.ActionKind.CHECK: "{player} checks",
    model.ActionKind.FOLD: "{player} folds",
}
"""OnGame's action lines (`handlog.parse.printing.ActionWords`); a completion and a raise
are worded by `_action_line`."""


FORMAT = SiteFormat(
    site=SITE,
    name="OnGame",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=PROFILE,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    # Fixed limit ("LIMIT") stud, stud/8 and razz, at cash tables and in tournaments.
    deals=fixed_limit_deals(GAME_NAMES),
)
