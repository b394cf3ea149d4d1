"""KingsClub stud-family hand histories to `Hand` records, and back to text.

`grammars/kingsclub.lark` is the specification of the text. What KingsClub prints
differently, and how it becomes the neutral records:

- Amounts never carry a currency sign, have thousands separators and come in hundredths
  ("12,686.25", "1,060.38"): every amount is read in hundredths, whole figures too ("440" is
  44000), so that money stays exact integers and hands of one table add up. The text names
  no currency (these are club tables), so `currency` is None, as for play money.
- Every bring-in, bet, raise and call figure is the player's STREET TOTAL, antes left out
  (`to_amount`); `amount` is that total less what the player had in on the street. Read so,
  every corpus hand balances to the hundredth: in hand 37581152 (44/88 stud, antes 33.16)
  "Player3 raises to 77.16", "Player4 raises to 121.16", "Player2 calls 121.16" and Player2
  folding on 4th street is the summary's "-154.32" (33.16 + 121.16), the pot won 1,294.60 +
  5 rake. "Raises to 77.16" over a completion to 44 is a raise of 33.16 (the size of the
  bring-in), less than the small bet: the money says that is what was put in, and it is the
  house's rule (`KINGSCLUB.first_raise_by_bring_in`). KingsClub prints no raise size of its
  own (`raise_by` None).
- The first bet or raise on the first street is the completion (the bring-in player who
  completes writes "bets" with no bring-in line).
- The first betting round has no header; "*** 3RD STREET ***" opens 4th street … "*** 6TH
  STREET ***" 7th street. The records hold the true streets.
- When the deck runs short, the 7th-street card is one community card, written on the
  street's label as PokerStars writes it ("*** 6TH STREET *** [5c]"; no "[X]" lines then).
- Opponents' down cards are "X" ("[X X Tc]", 7th street "[X]"): hidden cards make no record.
- All-in players' cards are shown as soon as no more betting can happen, before the last
  cards are dealt: such a show is recorded on the street where it stands; shows after the
  last street's betting are the showdown.
- No uncalled-bet line: a bet nobody called goes back silently, and "wins pot" is paid
  without it (hand 39969356: 99 won + 1 rake is the pot without Hero's uncalled 40).
- The summary gives each seat's stack after the hand and net ("+2,850"), the rake ("Rake 5",
  no line when none) and the pots won ("wins pot (4,100)", never naming a side pot). The
  records hold the collects and the rake; the total pot is what the summary accounts for
  (paid out + rake), so that a pot the betting made but nobody was paid shows as
  POT_TOTAL. The per-seat nets are kept (`SeatResult.net`): the replay compares them with its
  own (PLAYER_NET).
- The clock ("2021-01-02 15:48:40") has no zone: the start time is left unknown (the clock
  text is kept), as for Winning's 2016 exports.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from handlog import model
from handlog.cards import Card, cards, format_cards
from handlog.errors import ParseError, Skipped
from handlog.money import MoneyError, format_hundredths, hundredths
from handlog.parse import text as txt
from handlog.parse.printing import ActionWords, action_line
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.text import in_deal_order, read_hand
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits, UncalledBets

SITE = model.Site.KINGSCLUB
HEADER_PREFIX = "#"
HEADER_BYTES = re.compile(rb"\n#\d+: [A-Za-z0-9]")
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
_HEADER = re.compile(r"#(\d+): ([A-Za-z0-9][^\n]*?) - (\d[\d,]*(?:\.\d+)?)/(\d[\d,]*(?:\.\d+)?)$")


def is_header(line: str) -> bool:
    """Whether `line` starts a KingsClub hand ("#39969356: Limit Razz - 40/80")."""
    return _HEADER.match(line) is not None


GAMES: dict[str, model.Game] = {
    "Limit Seven Card Stud": model.Game.STUD,
    "Limit Seven Card Stud Hi-Lo": model.Game.STUD8,
    "Limit Razz": model.Game.RAZZ,
    "Limit 2-7 Razz": model.Game.RAZZ27,
}
"""The games handlog replays (2-7 razz: deuce-to-seven lowball, aces high); every other
(hold'em, draw) is skipped by name."""
GAME_NAMES = {game: name for name, game in GAMES.items()}

SECTIONS = txt.section_table(
    "FIRST_STREET",
    "LABEL_3RD",
    "LABEL_4TH",
    "LABEL_5TH",
    "LABEL_6TH",
    "LABEL_7TH",
    "SUMMARY",
    ante_street=model.Street.ANTES,
)
"""Each section and the street its label names (a headerless first street shifts the
labelled ones by one)."""
TERMINAL_WORDS = {
    "CLOCK": "the date and time line",
    "TABLE": "the Table line",
    "SEAT_LINES": "the seat lines",
    "ANTE_LINES": "the antes",
    "FIRST_STREET": "the first cards dealt",
    "LABEL_3RD": "*** 3RD STREET ***",
    "LABEL_4TH": "*** 4TH STREET ***",
    "LABEL_5TH": "*** 5TH STREET ***",
    "LABEL_6TH": "*** 6TH STREET ***",
    "LABEL_7TH": "*** 7TH STREET ***",
    "SUMMARY": "*** SUMMARY ***",
    "$END": "the end of the hand",
}
LABELS = {
    model.Street.FOURTH: "*** 3RD STREET ***",
    model.Street.FIFTH: "*** 4TH STREET ***",
    model.Street.SIXTH: "*** 5TH STREET ***",
    model.Street.SEVENTH: "*** 6TH STREET ***",
}
"""The label KingsClub prints over each true street (shifted by one)."""
ALL_IN = ", and is all in"
_TOURNAMENT_TABLE = re.compile(r"T(\d+) \[\d+\]$")


# ---------------------------------------------------------------------------------------
# Rules: what KingsClub's real hands show

KINGSCLUB = RuleProfile(
    name="kingsclub",
    description=(
        "KingsClub: a bet and three raises; open-pair double bet in 7-card stud; no burns; "
        "otherwise the PokerStars choices, which its hands do not tell apart."
    ),
    # Hand 3703449 (2-7 razz, same betting): bet 500, raises to 1,000, 1,500 and 2,000, then
    # only calls: four bets on the street, never a fifth. No heads-up street reaches the cap,
    # so the common online choice (the cap holds heads-up) stands: the default.
    # Hand 37581152 (stud): Player3 shows 7c 7d on 4th street and bets 88, the big bet (the
    # default open-pair double bet in 7-card stud).
    # The first raise of a completion on the first street may be by the bring-in's size:
    # hand 40091899 (22/44, bring-in 16.58) completes to 22 and raises to 38.58; hand
    # 37581152 (44/88, bring-in 33.16) completes to 44, raises to 77.16, then by a full bet
    # to 121.16 (and KingsClub hands at 500/1,000 with a bring-in of 125 raise 500 to 625,
    # issue 25). Hand 3703449 (500/1,000) raises its completion by a full bet, to 1,000, and
    # on to 1,500 and 2,000: the full raise stays allowed, and later raises are full bets.
    first_raise_by_bring_in=True,
    # Hand 3537921 (razz, 500/1,000, antes and bring-in 125): over the bring-in, Player3
    # "bets 225, and is all in", a completion short of 500, and Player4 "raises to 625": the
    # completion and the house's raise of 125 at once. The money says so: Player4's +2,850
    # is the 4,100 pot less 125 + 625 + 500 (the 1,000 bet nobody called came back), and
    # Player1's -1,250 is 125 + 625 + 500.
    raise_over_short_completion=True,
    # No corpus hand raises after a double bet, ties a showing hand, splits an odd chip or
    # runs the deck short: these keep the PokerStars choices (the defaults) until a KingsClub
    # hand shows otherwise.
)

TRAITS = SiteTraits(
    # No uncalled-bet line: hands 39969356 and 40091899 end with a bet nobody called, and
    # "wins pot" plus the rake is every chip put in less that bet.
    uncalled_bets=UncalledBets.SILENT,
    # No total pot line, but the rake is printed ("Rake 5", none when no line): the total pot
    # is what the summary accounts for, paid out plus that rake (so before rake), and
    # POT_TOTAL compares it with every chip the betting left in. That is what catches a pot
    # paid in part (hand 3703449 never pays its side pot). The default.
    # KingsClub prints no hand descriptions.
    describes_hands=False,
)


# ---------------------------------------------------------------------------------------
# Hands


def parse_hand(
    chunk: Chunk, games: Mapping[str, model.Game] = GAMES
) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game not in `games` (by default the games handlog replays)."""

    def read(found: re.Match[str], body: str) -> model.Hand | Skipped:
        game = games.get(found[2])
        if game is None:
            return Skipped(chunk.file, chunk.line, found[1], found[2])
        try:
            small_bet, big_bet = hundredths(found[3]), hundredths(found[4])
        except MoneyError as error:
            raise txt.LineError(1, str(error), found.string) from None
        # Amounts in hundredths of a chip: every amount, whole figures too.
        info = txt.GameInfo(found[2], game, small_bet, big_bet, chips_in_hundredths=True)
        return _HandBuilder(chunk, found[1], info).build(GRAMMAR.tokens(body, chunk))

    return read_hand(chunk, GRAMMAR, _HEADER, read, 1)


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(self, chunk: Chunk, hand_id: str, info: txt.GameInfo) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.clock = ""
        self.headerless_first = False
        self.street_put: dict[str, int] = {}
        self.left: dict[str, int] = {}
        """Each player's chips behind, for all-ins the text does not mark."""
        self.collected = 0
        self.printed: dict[str, tuple[Card, ...]] = {}
        """Each player's cards as the dealing lines printed them so far."""
        self.known: dict[str, dict[int, Card]] = {}
        """Each player's cards seen dealt, by deal position."""
        self.shows_here: list[int] = []
        """Where in `events` the shows of the current street stand."""

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        self.total_pot = self.collected + self.rake
        # The clock has no zone: no start time, unless the user gives it one.
        start = txt.unzoned_clock(SITE, self.clock, "%Y-%m-%d %H:%M:%S")
        return self.hand_of(SITE, self.hand_id, self.info, start, model.Printed("game", self.clock))

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        if kind == "CLOCK":
            self.clock = text[:-1]
            return
        if kind == "TABLE":
            self.table = text[7:-2]
            found = _TOURNAMENT_TABLE.match(self.table)
            self.tournament_id = found[1] if found else None
            return
        street, rule = SECTIONS[kind]
        start = 0
        if kind == "FIRST_STREET":
            self.headerless_first = True
        elif street is not None and street is not model.Street.ANTES:
            start = text.index("\n") + 1
            if street is not model.Street.SUMMARY and self.headerless_first:
                if street is model.Street.SEVENTH:
                    raise txt.LineError(
                        self.relative(line),
                        "a 7TH STREET label after a first street without one: every label "
                        "is shifted by one, so there is no 8th street",
                        text[: start - 1],
                    )
                street = model.Street(street + 1)
            if start > 20:  # "*** 6TH STREET *** [5c]": the community card
                if street is not model.Street.SEVENTH:
                    raise txt.LineError(
                        self.relative(line),
                        f"a community card on {street.label}: it is dealt on 7th street only",
                        text[: start - 1],
                    )
                self.community_card = cards(text[20 : start - 2])[0]
            line += 1
        if street is not None:
            self._new_street(street)
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    def _new_street(self, street: model.Street) -> None:
        if street is model.Street.SUMMARY:
            # Shows after the last street's betting are the showdown.
            for index in self.shows_here:
                show = self.events[index]
                assert type(show) is model.Action
                self.events[index] = model.Action(
                    model.Street.SHOWDOWN, show.player, show.kind, cards=show.cards, line=show.line
                )
        elif street is not model.Street.ANTES:
            self.streets.append(street)
        self.shows_here = []
        self.street = street
        self.street_put = {}

    # -- helpers -------------------------------------------------------------------------

    def _figure(self, text: str, verb: str, line: int) -> tuple[str, int, bool]:
        """The player before `verb`, the figure after it and whether the line says all-in."""
        all_in = text.endswith(ALL_IN)
        if all_in:
            text = text[: -len(ALL_IN)]
        name, _, figure = text.rpartition(verb)
        return self.player(name, line, text), hundredths(figure), all_in

    def _put(self, kind: model.ActionKind, text: str, verb: str, line: int) -> None:
        """An action whose figure is the player's street total."""
        player, total, all_in = self._figure(text, verb, line)
        chips = total - self.street_put.get(player, 0)
        if chips <= 0 and kind is not model.ActionKind.CALL:
            raise txt.LineError(
                self.relative(line),
                f"{player} already has {format_hundredths(total - chips)} in on this street",
                text,
            )
        self.street_put[player] = total
        left = self.left[player] - chips
        self.left[player] = left
        if kind is model.ActionKind.COMPLETE and total < self.info.small_bet:
            # An all-in for less than the completion is not the completion: the next player
            # to put in more completes (RULES: a short all-in reopens nothing).
            self.completed = False
        self.events.append(
            model.Action(self.street, player, kind, chips, total, all_in or left <= 0, line=line)
        )

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        number, name, stack_text, _ = self.seat_parts(text)
        stack = hundredths(stack_text)
        self.add_seat(model.Seat(number, name, stack, False, line), text)
        self.left[name] = stack

    def _ante(self, text: str, line: int) -> None:
        player, chips, all_in = self._figure(text, ": posts ante ", line)
        left = self.left[player] - chips
        self.left[player] = left
        self.add_ante(player, chips, all_in or left <= 0, line)

    def _dealt(self, text: str, line: int) -> None:
        open_at = text.rindex(": [")
        name = self.player(text[9:open_at], line, text)
        tokens = text[open_at + 3 : -1].split()
        new = cards(" ".join(token for token in tokens if token != "X"))
        if not new:
            return  # "[X]": an opponent's 7th-street card, which makes no record
        known = self.known.setdefault(name, {})
        if self.street == model.Street.THIRD:
            positions: tuple[int, ...] = (2,) if len(tokens) == 3 and len(new) == 1 else (0, 1, 2)
        else:
            positions = (int(self.street) - 1,)
        for position, card in zip(positions, new, strict=False):
            known.setdefault(position, card)
        earlier = self.printed.get(name, ())
        self.printed[name] = earlier + new
        # Each record carries the cards printed for the player on earlier streets (the
        # hero's every card, an opponent's up cards), as other sites' dealing lines repeat them.
        self.deal(name, earlier, new, line)

    def _brings_in(self, text: str, line: int) -> None:
        self._put(model.ActionKind.BRING_IN, text, " brings in for ", line)
        self.bring_in = self.events[-1].amount  # type: ignore[union-attr]

    def _bets(self, text: str, line: int) -> None:
        self._put(self.completion_or(model.ActionKind.BET), text, " bets ", line)

    def _raises(self, text: str, line: int) -> None:
        self._put(self.completion_or(model.ActionKind.RAISE), text, " raises to ", line)

    def _calls(self, text: str, line: int) -> None:
        self._put(model.ActionKind.CALL, text, " calls ", line)

    def _shows(self, text: str, line: int) -> None:
        open_at = text.rindex(" shows [")
        player = self.player(text[:open_at], line, text)
        shown = in_deal_order(self.known.get(player, {}), cards(text[open_at + 8 : -1]))
        self.shows_here.append(len(self.events))
        self.events.append(
            model.Action(self.street, player, model.ActionKind.SHOW, cards=shown, line=line)
        )

    def _summary_seat(self, text: str, line: int) -> None:
        # "Seat 5: Player4 (52,376) +2,850": checked against the seat list; the net is kept
        # for the replay to compare (the stack after the hand follows from it).
        colon = text.index(": ")
        number = int(text[5:colon])
        name = text[colon + 2 : text.rindex(" (")]
        player = self.player(name, line, text)
        if self.seated[player].number != number:
            raise txt.LineError(
                self.relative(line),
                f"the summary puts {player} in seat {number}, but {player} sits in seat "
                f"{self.seated[player].number}",
                text,
            )
        figure = text[text.rindex(") ") + 2 :]
        try:
            net = (-1 if figure.startswith("-") else 1) * hundredths(figure.lstrip("+-"))
        except MoneyError:
            raise txt.LineError(
                self.relative(line), "the seat's net cannot be read", text
            ) from None
        self.results.append(model.SeatResult(number, player, net=net, line=line))

    def _rake(self, text: str, line: int) -> None:
        self.rake = hundredths(text[5:])

    def _wins(self, text: str, line: int) -> None:
        open_at = text.rindex(" wins pot (")
        player = self.player(text[:open_at], line, text)
        chips = hundredths(text[open_at + 11 : -1])
        self.collected += chips
        self.events.append(
            model.Action(model.Street.SUMMARY, player, model.ActionKind.COLLECT, chips, line=line)
        )


GRAMMAR = txt.SectionGrammar(
    "kingsclub", "KingsClub", SECTIONS, {}, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing


def seat_nets(hand: model.Hand) -> dict[str, int]:
    """Each player's net as KingsClub's summary prints it: collected less everything put in,
    a bet nobody called given back (it goes back without a line)."""
    net = {seat.name: 0 for seat in hand.seats}
    street_put: dict[str, int] = {}
    current: model.Street | None = None

    def give_back() -> None:
        if street_put:
            totals = sorted(street_put.items(), key=lambda item: item[1], reverse=True)
            second = totals[1][1] if len(totals) > 1 else 0
            net[totals[0][0]] += totals[0][1] - second

    for action in hand.actions:
        if action.street != current:
            give_back()
            street_put = {}
            current = action.street
        if action.kind in model.MONEY_IN_KINDS:
            net[action.player] -= action.amount or 0
            if action.kind is not model.ActionKind.ANTE:
                street_put[action.player] = action.to_amount or 0
        elif action.kind is model.ActionKind.COLLECT:
            net[action.player] += action.amount or 0
    give_back()
    return net


def print_hand(hand: model.Hand) -> str:
    """A hand as KingsClub text, which parses back to an equal record.

    A hand built without KingsClub's text (`printed` is `PRINTED`: a simulated one) is
    written in KingsClub's forms: the clock from its start time in UTC (KingsClub's clock
    names no zone), opponents' down cards as "X", every pot won in the summary ("wins pot",
    after the seats' nets and the rake), and no line for what KingsClub does not print: an
    uncalled bet (it goes back silently), a muck or a "doesn't show", table events and chat.
    Amounts are written in hundredths, as KingsClub's are read (a record's cents or chips
    are its hundredths)."""
    money = format_hundredths
    name = GAME_NAMES[hand.game]
    lines = [
        f"#{hand.hand_id}: {name} - {money(hand.small_bet)}/{money(hand.big_bet)}",
        hand.clock_text or _clock(hand),
        f"Table '{hand.table}'",
    ]
    lines.extend(f"Seat {s.number}: {s.name} ({money(s.stack)})" for s in hand.seats)
    by_street: dict[model.Street, list[model.Event]] = {}
    for event in hand.events:
        by_street.setdefault(event.street, []).append(event)
    folded: set[str] = set()
    dealt_in = {e.player for e in hand.events if type(e) is model.Dealt}
    collects: list[model.Action] = []
    betting = [street for street in hand.streets if street is not model.Street.SHOWDOWN]
    # The showdown has no label; the summary's events are the pots won, written last.
    for street in (model.Street.ANTES, *betting, model.Street.SHOWDOWN, model.Street.SUMMARY):
        if street is model.Street.SEVENTH and hand.community_card is not None:
            lines.append(f"{LABELS[street]} [{hand.community_card}]")
        elif street in LABELS:
            lines.append(LABELS[street])
        events = by_street.get(street, [])
        if street is model.Street.SEVENTH and hand.community_card is None:
            # Opponents' face-down 7th-street cards make no record: "[X]" for each player still
            # in whose own line is not there, in seat order.
            dealt = {e.player: e for e in events if type(e) is model.Dealt}
            for seat in hand.seats:
                if seat.name in dealt:
                    lines.append(_dealt_line(dealt[seat.name]))
                elif seat.name not in folded and seat.name in dealt_in:
                    lines.append(f"Dealt to {seat.name}: [X]")
            events = [e for e in events if type(e) is not model.Dealt]
        completed = False
        for event in events:
            if type(event) is model.Dealt:
                lines.append(_dealt_line(event))
            elif type(event) is model.Action:
                kind = event.kind
                if kind is model.ActionKind.COLLECT:
                    collects.append(event)  # in the summary
                    continue
                if kind in _NOT_PRINTED:
                    continue
                if kind is model.ActionKind.FOLD:
                    folded.add(event.player)
                if kind is model.ActionKind.COMPLETE and completed:
                    # over an all-in completion short of the small bet (hand 3537921)
                    lines.append(_action_line(event, OVER_SHORT_WORDS))
                    continue
                completed = completed or kind is model.ActionKind.COMPLETE
                lines.append(_action_line(event))
    lines.append("*** SUMMARY ***")
    nets = seat_nets(hand)
    printed = {r.player: r.net for r in hand.results if r.net is not None}
    for seat in hand.seats:
        net = printed.get(seat.name, nets[seat.name])
        sign = "+" if net > 0 else "-" if net < 0 else ""
        lines.append(
            f"Seat {seat.number}: {seat.name} ({money(seat.stack + net)}) {sign}{money(abs(net))}"
        )
    if hand.rake:
        lines.append(f"Rake {money(hand.rake)}")
    lines.extend(_action_line(event) for event in collects)
    return "\n".join(lines)


_NOT_PRINTED = frozenset(
    {model.ActionKind.UNCALLED_BET_RETURNED, model.ActionKind.MUCK, model.ActionKind.DOES_NOT_SHOW}
)
"""Actions KingsClub has no line for: an uncalled bet goes back silently, and nobody is
said to muck or not to show."""


def _clock(hand: model.Hand) -> str:
    """KingsClub's clock ("2021-01-02 15:48:40", no zone) of the start time, in UTC."""
    if hand.start_time is None:
        raise ValueError("a KingsClub hand prints its clock: this hand has no start time")
    return txt.printed_clock(hand, SITE, "UTC", "{t:%Y-%m-%d %H:%M:%S}")


def _dealt_line(event: model.Dealt) -> str:
    shown = format_cards(event.new)
    if event.street is model.Street.THIRD and len(event.new) == 1:
        shown = f"X X {shown}"
    return f"Dealt to {event.player}: [{shown}]"


ACTION_WORDS = {
    model.ActionKind.ANTE: "{player}: posts ante {amount}{all_in}",
    model.ActionKind.BRING_IN: "{player} brings in for {to}{all_in}",
    model.ActionKind.COMPLETE: "{player} bets {to}{all_in}",
    model.ActionKind.BET: "{player} bets {to}{all_in}",
    model.ActionKind.RAISE: "{player} raises to {to}{all_in}",
    model.ActionKind.CALL: "{player} calls {to}{all_in}",
    model.ActionKind.CHECK: "{player} checks",
    model.ActionKind.FOLD: "{player} folds",
    model.ActionKind.SHOW: "{player} shows [{cards}]",
    model.ActionKind.COLLECT: "{player} wins pot ({amount})",
}
"""KingsClub's action lines (`handlog.parse.printing.ActionWords`): every bet, call and
raise by the street total it makes."""

OVER_SHORT_WORDS = {**ACTION_WORDS, model.ActionKind.COMPLETE: ACTION_WORDS[model.ActionKind.RAISE]}
"""The action lines with a completion as a raise: KingsClub's line for a completion over an
all-in completion short of the small bet, alone or with a raise at once ("Player3 bets 225,
and is all in", "Player4 raises to 625": hand 3537921)."""


def _action_line(action: model.Action, words: ActionWords = ACTION_WORDS) -> str:
    return action_line(action, words, _hundredths, ALL_IN, "KingsClub")


def _hundredths(value: int | None) -> str:
    return format_hundredths(value or 0)


FORMAT = SiteFormat(
    site=SITE,
    name="KingsClub",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=KINGSCLUB,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    deals=fixed_limit_deals(GAMES.values(), tournaments=False),
)
