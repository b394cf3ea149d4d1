"""iPoker XML hand histories to `Hand` records, and back to XML.

One `<session>` per file: its `<general>` (game type and stakes, table, currency, the hero's
nickname) is the file's context (`SiteFormat.file_context`); every `<game gamecode=…>`
element is one hand, cut from the file at the line it starts on (a hand may start on the
line where the one before ends, `</game><game …>`). Each hand element is read on its own,
through `handlog.parse.xmlsafe` (no DTD, no entities). What the site writes differently:

- Cards are suit first, with `10` for tens and `X` for a hidden card: `X X H6` is an
  opponent's door card, `S10` the ten of spades. A player who showed down has all cards
  printed in the deal (there is no show line): that is read as a show at the showdown.
- Action types: 0 fold, 3 call, 4 check, 5 bet, 6 raise by, 7 all-in, 15 ante, 16 bring-in,
  23 raise to. `sum` is the chips the action adds, except for 23 where it is the street
  total and 6 where it is the raise size over the bet faced (kept as `raise_by`; no corpus
  hand has one). Actions inside a round are not in file order: they are sorted by `no`.
- No pot, rake, uncalled-bet or winner lines: each player's `win` (collected, a bet nobody
  called included) and `bet` (everything put in) on the player line. The uncalled bet
  stays in the pot and is collected with it; the rake is what was put in less what was won.
- `5 Card Stud L` sessions are 5-card stud: round 2 is its first street ("Second Street",
  one card down and one up), rounds 3 to 5 deal one card up each ("Third Street",
  "Fourth Street", "River"). A 7-card game's rounds 2 to 6 are 3rd to 7th street.
- A community card (the deck runs short on 7th street) is a `<cards>` of the last round with
  no player: the form of iPoker's boards (no corpus hand has one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from handlog.cards import Card, card
from handlog.errors import ParseError, Skipped
from handlog.model import (
    BETTING_KINDS,
    MONEY_IN_KINDS,
    Action,
    ActionKind,
    Dealt,
    Game,
    Hand,
    Printed,
    Seat,
    SeatResult,
    Site,
    Street,
)
from handlog.money import (
    CURRENCY_SIGNS,
    CURRENCY_SYMBOLS,
    MoneyError,
    minor_units,
)
from handlog.parse.reader import Chunk
from handlog.parse.site import bet_kind, fixed_limit_deals
from handlog.parse.stakes import (
    BIG,
    FIRST,
    SMALL,
    Levels,
    Shown,
    shown_stakes,
)
from handlog.parse.text import hand_source, printed_clock
from handlog.parse.xmlsafe import (
    Cards,
    Element,
    Problem,
    Tally,
    XMLError,
    element_seat,
    escape,
    hand_error,
    hand_number,
    parse,
    preamble,
    print_session,
    read_hand,
    unlike,
    utc_clock,
    xml_format,
)
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.traits import SiteTraits, UncalledBets

SITE = Site.IPOKER
MARK = '<game gamecode="'
"""How a hand starts, anywhere on its line (after white space or a `</game>`)."""


GAMES = {
    "7 Card Stud": Game.STUD,
    "7 Card Stud Hi-Lo": Game.STUD8,
    "Razz": Game.RAZZ,
    "5 Card Stud": Game.STUD5,
}
"""Game names of `<gametype>` (before the limit, `L`): fixed limit only."""
GAME_NAMES = {game: name for name, game in GAMES.items()}
STREETS = {2: Street.THIRD, 3: Street.FOURTH, 4: Street.FIFTH, 5: Street.SIXTH, 6: Street.SEVENTH}
"""A 7-card game's betting rounds by number: round 2 is 3rd street."""
STUD5_STREETS = {2: Street.SECOND, 3: Street.THIRD, 4: Street.FOURTH, 5: Street.FIFTH}
"""5-card stud's rounds: round 2 is its first street, 2nd street."""
GAME_STREETS = {Game.STUD5: STUD5_STREETS}
"""Each game's rounds by number (`STREETS` unless named here)."""
STREET_WORDS = {
    Street.THIRD: "Third Street",
    Street.FOURTH: "Fourth Street",
    Street.FIFTH: "Fifth Street",
    Street.SIXTH: "Sixth Street",
    Street.SEVENTH: "River",
}
"""The `<cards type=…>` of each street of a 7-card game."""
STUD5_WORDS = {
    Street.SECOND: "Second Street",
    Street.THIRD: "Third Street",
    Street.FOURTH: "Fourth Street",
    Street.FIFTH: "River",
}
"""5-card stud's (its last street is the river)."""
GAME_WORDS = {Game.STUD5: STUD5_WORDS}
COMMUNITY_GAMES = frozenset({Game.STUD, Game.STUD8, Game.RAZZ})
"""The games whose last card is dealt face down: with too few cards left for every player,
one community card (a `<cards>` of the last round with no player)."""
FIRST_CARDS = {Game.STUD5: 2}
"""Cards dealt on the first street (3 unless named here): one or two down, one up."""
SUITS = {"H": "h", "D": "d", "C": "c", "S": "s"}
RANKS = {"10": "T"}

FOLD, CALL, CHECK, BET, RAISE_BY, ALL_IN, ANTE, BRING_IN, RAISE_TO = 0, 3, 4, 5, 6, 7, 15, 16, 23

# ---------------------------------------------------------------------------------------
# Rules: what iPoker's real hands show (a small corpus: 7 hands of 7-card stud and stud8)

IPOKER = RuleProfile(
    name="ipoker",
    description=(
        "iPoker: a bet and three raises (the corpus never reaches the cap); open-pair double "
        "bet in 7-card stud; odd chip to the high half; no burns."
    ),
    cap_bets=4,
    cap_heads_up=True,  # heads-up stud8 hand 5710056302: bet, raise, re-raise, not capped
    open_pair_double_bet=frozenset({Game.STUD}),
    small_raise_after_big_bet=False,
    first_actor_tie=TieBreak.SUIT,
    odd_chip_to_high=True,
    burns=False,
)

TRAITS = SiteTraits(
    # Hand 5710077134: Player0 brings in €0.02, Hero folds; Player0's `win` is €0.04,
    # both antes and the bring-in nobody called: the uncalled bet is collected with the pot.
    uncalled_bets=UncalledBets.IN_POT,
    prints_total_pot=False,  # only each player's win and bet
    describes_hands=False,  # no hand descriptions at all
)


@dataclass(frozen=True, slots=True)
class Session:
    """What a file's `<session><general>` says for all its hands."""

    game_name: str
    """The game type without the stakes: "7 Card Stud Hi-Lo L"."""
    game: Game | None
    small_bet: int
    big_bet: int
    """The stakes the game type prints; 0 when it prints none (a tournament's stakes change
    by level: each hand's come from its own actions, `handlog.parse.stakes`)."""
    currency: str | None
    """None for tournament chips (whatever `<currency>` says)."""
    table: str
    hero: str
    gametype: str
    """As printed: "7 Card Stud L $0.05/$0.10", "7 Card Stud L" in a tournament."""
    head: str
    """The file's text before the first hand, for the printer."""
    tournament_id: str | None
    """A tournament's number: the first number after the name in `<tablename>` ("$5 Limit 7
    Card Stud, 699476041, 699476041")."""
    buy_in: str | None
    """A tournament's `<buyin>` as printed: "$5+$0.50"."""
    levels: Levels
    """The stakes the hands of this pass showed, for a hand nobody bets in."""


_GAMETYPE = re.compile(r"(?P<name>.*?) (?P<limit>L|NL|PL)(?: (?P<small>\S+)/(?P<big>\S+))?$")
"""The game, its limit and (except in a tournament) its stakes."""


def read_session(head: str, file: str) -> Session | ParseError:
    """The session header before the first hand of a file, or the file's one error."""
    before = preamble(head, MARK)
    try:
        roots = parse(before, complete=False)
    except XMLError as error:
        return ParseError(file, error.line, error.message, text=_line(before, error.line))
    general = _find(roots, "general")
    fields = {child.tag: child.text.strip() for child in general.children} if general else {}
    gametype = fields.get("gametype", "")
    gametype_line = general.line if general else 1  # where an error in it is shown
    for child in general.children if general else ():
        if child.tag == "gametype":
            gametype_line = child.line
    found = _GAMETYPE.match(gametype)
    if found is None:
        return ParseError(
            file,
            gametype_line,
            f"the session's game type {gametype!r} is not in a form iPoker writes",
        )
    name = f"{found['name']} {found['limit']}"
    small = big = 0
    if found["small"] is not None:
        try:
            small, big = minor_units(_money(found["small"])), minor_units(_money(found["big"]))
        except MoneyError as problem:  # each `except … as` its own name: mypyc types them
            return ParseError(file, gametype_line, str(problem))
    table = fields.get("tablename", "")
    tournament = "tournamentname" in fields or "buyin" in fields or found["small"] is None
    currency = None
    if not tournament:
        currency = CURRENCY_SYMBOLS.get(_money(found["small"])[:1])
    numbers = [part.strip() for part in table.split(",")[1:] if part.strip().isdigit()]
    game = GAMES.get(found["name"]) if found["limit"] == "L" else None
    return Session(
        name,
        game,
        small,
        big,
        currency,
        table,
        fields.get("nickname", ""),
        gametype,
        before,
        (numbers[0] if numbers else None) if tournament else None,
        fields.get("buyin") if tournament else None,
        Levels(),
    )


def _find(roots: Sequence[Element], tag: str) -> Element | None:
    for root in roots:
        if root.tag == tag:
            return root
        found = _find(root.children, tag)
        if found is not None:
            return found
    return None


def _line(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1][:200] if 0 < line <= len(lines) else ""


def _money(text: str) -> str:
    return text.replace("ˆ", "€")  # a euro sign read through the wrong code page


def _amount(text: str) -> int:
    return minor_units(_money(text)) if text else 0


def _read_card(text: str) -> Card:
    """A suit-first card ("S10", "HA")."""
    return card(RANKS.get(text[1:], text[1:]) + SUITS[text[0]])


_CARDS: Final = Cards(_read_card, ("X",))
"""A card as iPoker writes it, None for a hidden one ("X")."""


def parse_hand(chunk: Chunk, session: object = None) -> Hand | ParseError | Skipped:
    """One `<game>` element to a `Hand`, a `ParseError`, or `Skipped` for a hand of a game
    handlog does not replay."""
    hand_id = hand_number(chunk.text, MARK)
    if not isinstance(session, Session):
        return hand_error(chunk, 1, "no iPoker session header before this hand", hand_id)
    if session.game is None:
        return Skipped(chunk.file, chunk.line, hand_id, session.game_name)
    game = read_hand(chunk, hand_id)
    if isinstance(game, ParseError):
        return game
    try:
        return _Builder(chunk, session, game).build()
    except (LookupError, ValueError) as problem:
        return unlike(chunk, problem, "iPoker", hand_id)


class _Builder:
    def __init__(self, chunk: Chunk, session: Session, game: Element) -> None:
        self.chunk = chunk
        self.session = session
        self.game = game
        kind = session.game
        self.streets = GAME_STREETS.get(kind, STREETS) if kind else STREETS
        self.first = self.streets[2]
        """The first street: its deal has two or three cards, its completion no bet before."""
        self.first_cards = FIRST_CARDS.get(kind, 3) if kind else 3
        self.small_bet = session.small_bet
        self.big_bet = session.big_bet
        self.events: list[Action | Dealt] = []
        self.known: dict[str, list[Card | None]] = {}
        self.folded: set[str] = set()
        self.printed: dict[str, tuple[Card, ...]] = {}
        """Each player's cards as the deal printed them so far (the earlier ones of a
        `Dealt` record)."""
        self.facing = 0
        """The largest of a round's totals (what each player put in on its street)."""
        self.completed = False
        """Whether the first street's completion has been made (an all-in short of the small
        bet included)."""
        self.last = max(self.streets.values())
        self.community: Card | None = None
        """The card dealt face up to all on the last street (`<cards>` with no player)."""

    def at(self, element: Element) -> int:
        return self.chunk.line + element.line - 1

    def money(self, element: Element, attribute: str) -> int:
        """An amount attribute of the element, an error of its line when it is not an
        amount iPoker writes (or one no stake could reach)."""
        try:
            return _amount(element.get(attribute))
        except ValueError as error:
            raise Problem(element.line, str(error)) from None

    def build(self) -> Hand:
        game, session = self.game, self.session
        general = game.find("general")
        if general is None:
            raise Problem(game.line, "the hand has no <general>")
        players = general.find("players")
        seats: list[Seat] = []
        wins: dict[str, int] = {}
        bets: dict[str, int] = {}
        """Each player's own `win` and `bet`: the collect, and (with it) the net the replay
        compares with its own."""
        for player in players.all("player") if players else []:
            name = player.get("name")
            if not name:
                continue  # an empty seat
            seats.append(
                Seat(
                    element_seat(player),
                    name,
                    self.money(player, "chips"),
                    False,
                    self.at(player),
                )
            )
            wins[name] = self.money(player, "win")
            bets[name] = self.money(player, "bet")
            self.known[name] = [None] * 7  # positions past the game's last card stay None
        if not seats:
            raise Problem(game.line, "the hand has no players")
        if not session.small_bet:  # a tournament's: from the hand's own actions
            self.small_bet, self.big_bet = self._stakes()
        names = {seat.name for seat in seats}
        streets: list[Street] = []
        tally = Tally()
        for round_ in game.all("round"):
            number = int(round_.get("no", "-1"))
            street = Street.ANTES if number == 0 else self.streets.get(number)
            if street is None:
                if round_.children:
                    raise Problem(
                        round_.line, f"a round numbered {number} in a {self.session.game_name} game"
                    )
                continue
            if round_.children and street != Street.ANTES:
                streets.append(street)
            for cards in round_.all("cards"):
                self._dealt(street, cards, names)
            totals: dict[str, int] = {}
            self.facing = 0
            for action in sorted(round_.all("action"), key=_number):
                record = self._action(street, action, totals, names)
                self.events.append(record)
                tally.add(record)
        self._showdown(seats, streets)
        # iPoker lists a seated player who sits the hand out like the others: no ante, no
        # cards, `bet` 0 (ad1028 in hand 2418629537).
        involved = {event.player for event in self.events}
        seats = [
            seat
            if seat.name in involved
            else Seat(seat.number, seat.name, seat.stack, True, seat.line)
            for seat in seats
        ]
        collected = 0
        last = self.events[-1].line if self.events else self.at(game)
        for seat in seats:
            won = wins[seat.name]
            if won:
                collected += won
                self.events.append(
                    Action(Street.SHOWDOWN, seat.name, ActionKind.COLLECT, won, line=last)
                )
        start = general.find("startdate")
        clock = start.text.strip() if start else ""
        return Hand(
            site=SITE,
            hand_id=game.get("gamecode"),
            game=session.game,  # type: ignore[arg-type]  # parse_hand skipped None
            table=session.table,
            max_seats=None,
            currency=session.currency,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            start_time=_time(clock),
            printed=Printed(clock_text=clock),
            seats=tuple(seats),
            events=tuple(self.events),
            streets=tuple(streets),
            results=tuple(
                SeatResult(seat.number, seat.name, net=wins[seat.name] - bets[seat.name])
                for seat in seats
            ),
            total_pot=tally.put_in,
            rake=max(0, tally.put_in - collected),
            community_card=self.community,
            ante=tally.ante,
            bring_in=tally.bring_in,
            tournament_id=session.tournament_id,
            buy_in=session.buy_in,
            source=hand_source(self.chunk),
        )

    def _stakes(self) -> tuple[int, int]:
        """The small and big bet of a hand whose session prints none, from its actions (a
        pass before the hand is built: a completion is told from a raise by them), else an
        earlier hand's at its ante and bring-in (`handlog.parse.stakes`)."""
        shown = Shown()
        ante = bring_in = None
        first = int(self.first)
        double = self.session.game in IPOKER.open_pair_double_bet
        doors: dict[str, str] = {}
        """Each player's first up card's rank, for an open pair on the next street."""
        for round_ in self.game.all("round"):
            number = int(round_.get("no", "-1"))
            street = 0 if number == 0 else int(self.streets.get(number, -1))
            if street < 0:
                continue
            kind = FIRST if street == first else SMALL if street == first + 1 else BIG
            open_pair = False
            for cards in round_.all("cards"):
                tokens = cards.text.split()
                up = tokens[-1][1:] if tokens and tokens[-1] != "X" else ""
                if street == first:
                    doors[cards.get("player")] = up
                elif kind == SMALL and double and up and doors.get(cards.get("player")) == up:
                    open_pair = True
            totals: dict[str, int] = {}
            for action in sorted(round_.all("action"), key=_number):
                code = int(action.get("type"))
                chips = self.money(action, "sum")
                player = action.get("player")
                if code == ANTE:
                    ante = max(ante or 0, chips)
                    continue
                before = totals.get(player, 0)
                facing = max(totals.values(), default=0)
                if code == RAISE_TO:
                    total = chips
                elif code == RAISE_BY:
                    total = facing + chips
                elif code in (BET, CALL, ALL_IN, BRING_IN):
                    total = before + chips
                else:
                    continue
                totals[player] = total
                if code == BRING_IN:
                    bring_in = chips
                elif code == CALL or total <= facing:
                    continue
                elif kind == FIRST and facing <= (bring_in or 0):
                    shown.complete(total, all_in=code == ALL_IN)
                elif kind != FIRST and facing == 0:
                    shown.bet(kind, total, open_pair, all_in=code == ALL_IN)
        return self.session.levels.stakes(shown, ante, bring_in)

    def _dealt(self, street: Street, cards: Element, names: set[str]) -> None:
        player = cards.get("player")
        if not player and street == self.last and self.session.game in COMMUNITY_GAMES:
            # no player: the community card, when the deck runs short on the last street
            if self.community is not None:
                raise Problem(cards.line, "a second community card")
            tokens = cards.text.split()
            try:
                community = _CARDS.card(tokens[0]) if len(tokens) == 1 else None
            except (KeyError, ValueError):
                community = None
            if community is None:
                raise Problem(cards.line, f"{cards.text.strip()!r} is not one community card")
            self.community = community
            return
        if player not in names:
            raise Problem(cards.line, f"cards dealt to {player!r}, who has no seat")
        if street == Street.ANTES:
            raise Problem(cards.line, "cards dealt with the antes")
        try:
            shown = [_CARDS.card(token) for token in cards.text.split()]
        except (KeyError, ValueError):
            raise Problem(
                cards.line, f"{cards.text.strip()!r} are not cards as iPoker writes them"
            ) from None
        first = self.first_cards
        # a street's card is the one at its position (a 7-card game's 4th street card is
        # its 4th card, 5-card stud's 3rd street card its 3rd)
        positions = list(range(first)) if street == self.first else [int(street) - 1]
        if len(shown) != len(positions):
            raise Problem(cards.line, f"{len(shown)} cards on {street.label}")
        row = self.known[player]
        for position, seen in zip(positions, shown, strict=True):
            row[position] = seen
        new = tuple([seen for seen in shown if seen is not None])
        if new:
            earlier = self.printed.get(player, ())
            self.printed[player] = earlier + new
            hidden = len(shown) - len(new)  # the street's cards printed as X
            self.events.append(Dealt(street, player, earlier, new, self.at(cards), hidden))

    def _action(
        self, street: Street, action: Element, totals: dict[str, int], names: set[str]
    ) -> Action:
        player = action.get("player")
        if player not in names:
            raise Problem(action.line, f"an action by {player!r}, who has no seat")
        code = int(action.get("type"))
        chips = self.money(action, "sum")
        line = self.at(action)
        if code == ANTE:
            return Action(Street.ANTES, player, ActionKind.ANTE, chips, line=line)
        if code == FOLD:
            self.folded.add(player)
            return Action(street, player, ActionKind.FOLD, line=line)
        if code == CHECK:
            return Action(street, player, ActionKind.CHECK, line=line)
        before = totals.get(player, 0)
        facing = self.facing
        raise_by = None
        if code == RAISE_TO:
            total = chips
            chips = total - before
        elif code == RAISE_BY:  # the raise size over the bet faced (none in the corpus)
            raise_by = chips
            total = facing + raise_by
            chips = total - before
        else:  # call, bet, all-in and bring-in add `sum`
            total = before + chips
        totals[player] = total
        if total >= facing:
            self.facing = total
        elif before == facing:  # the largest went down (a raise to less than put in)
            self.facing = max(totals.values())
        if code == BRING_IN:
            return Action(street, player, ActionKind.BRING_IN, chips, total, line=line)
        if code == CALL or (code == ALL_IN and total <= facing):
            kind = ActionKind.CALL
        elif code in (BET, RAISE_BY, RAISE_TO, ALL_IN):
            first = street == self.first
            kind = bet_kind(first, facing, total, self.small_bet, self.completed)
            self.completed |= kind is ActionKind.COMPLETE
        else:
            raise Problem(action.line, f"an action of type {code}, which iPoker does not write")
        return Action(
            street, player, kind, chips, total, all_in=code == ALL_IN, raise_by=raise_by, line=line
        )

    def _showdown(self, seats: list[Seat], streets: list[Street]) -> None:
        """Players still in at the end show the cards the deal printed for them (a show
        line iPoker does not write); one whose cards stayed hidden mucked."""
        left = [seat.name for seat in seats if seat.name not in self.folded]
        if len(left) < 2:
            return
        dealt = {event.player for event in self.events if type(event) is Dealt}
        line = self.events[-1].line if self.events else 0
        for name in left:
            if name not in dealt:
                continue
            row = self.known[name]
            cards = tuple(known for known in row if known is not None)
            held = int(max(streets)) - (self.community is not None) if streets else 0
            if streets and len(cards) == held:
                self.events.append(
                    Action(Street.SHOWDOWN, name, ActionKind.SHOW, cards=cards, line=line)
                )
            else:
                self.events.append(Action(Street.SHOWDOWN, name, ActionKind.MUCK, line=line))


def _number(action: Element) -> int:
    """An action's `no`: its place in the hand (a round lists them out of order)."""
    return int(action.get("no"))


_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})")


def _time(clock: str) -> datetime | None:
    """The start time, read as UTC (fpdb's reading of the same hand agrees)."""
    return utc_clock(_TIME.fullmatch(clock))


# ---------------------------------------------------------------------------------------
# Printing: a record back to an iPoker <game> element (parse → print → parse is equal)


def print_hand(hand: Hand) -> str:
    """A hand as an iPoker session of one game, which parses back to an equal record: a hand
    iPoker printed, or any site-neutral record (a simulated one), written in iPoker's form.

    What a neutral record says that iPoker writes otherwise: the clock is `start_time` on
    iPoker's (UTC) clock; a raise is a raise-to (23), an all-in (7) the chips it adds; the
    cards a player shows at the showdown are printed in the deal (iPoker writes no show
    line); an uncalled bet is in the player's `win` and `bet`; a community card is a `<cards>`
    element of the last round with no player. Notes and "doesn't show" have no form and are
    left out, as are the pot lines (each player's `win` and `bet` say it all)."""
    return f"{_session_head(hand, alone=True)}\n{_game_element(hand)}\n</session>"


def print_file(hands: Iterable[Hand]) -> Iterator[str]:
    """A file of hands as iPoker writes one: a single session, its header from the first
    hand (a tournament's without stakes: each hand's come from its own actions or an earlier
    hand's), then every hand's `<game>`; read one hand at a time."""
    return print_session(hands, _file_head, _game_element, "</session>")


def _file_head(hand: Hand) -> str:
    return _session_head(hand, alone=False)


def _money_text(value: int | None, sign: str) -> str:
    value = value or 0
    if not sign:
        return str(value)
    whole, cents = divmod(value, 100)
    return f"{sign}{whole}.{cents:02d}" if cents else f"{sign}{whole}"


def _session_head(hand: Hand, alone: bool) -> str:
    """The session header for `hand`: alone in its file, or the first of many."""
    sign = CURRENCY_SIGNS.get(hand.currency or "", "")
    stakes = f" {_money_text(hand.small_bet, sign)}/{_money_text(hand.big_bet, sign)}"
    tournament: list[str] = []
    table = hand.table
    if hand.currency is None and (hand.tournament_id or hand.buy_in):
        tournament.append("<tournamentname></tournamentname>")
        if hand.buy_in is not None:
            tournament.append(f"<buyin>{escape(_buy_in(hand.buy_in))}</buyin>")
        if (
            not alone
            or not hand.stakes_known
            or shown_stakes(hand) == (hand.small_bet, hand.big_bet)
        ):
            stakes = ""  # as a tournament prints it: its actions show the stakes, or nothing
        if hand.header_variant == "":
            table = _tournament_table(hand)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        "<session>",
        "<general>",
        f"<gametype>{GAME_NAMES[hand.game]} L{stakes}</gametype>",
        f"<tablename>{escape(table)}</tablename>",
        *tournament,
        "</general>",
    ]
    return "\n".join(lines)


def _game_element(hand: Hand) -> str:
    """The hand's `<game>` element."""
    sign = CURRENCY_SIGNS.get(hand.currency or "", "")

    def money(value: int | None) -> str:
        return _money_text(value, sign)

    neutral = hand.header_variant == ""
    put: dict[str, int] = {}
    won: dict[str, int] = {}
    for action in hand.actions:
        if action.kind is ActionKind.COLLECT or action.kind is ActionKind.UNCALLED_BET_RETURNED:
            # iPoker's `win` counts a bet nobody called, and its `bet` the whole of it
            won[action.player] = won.get(action.player, 0) + (action.amount or 0)
        elif action.kind in MONEY_IN_KINDS:
            put[action.player] = put.get(action.player, 0) + (action.amount or 0)
    clock = printed_clock(hand, SITE, ZONE, CLOCK)
    lines = [
        f'<game gamecode="{hand.hand_id}">',
        "<general>",
        f"<startdate>{clock}</startdate>",
        "<players>",
    ]
    nets = {result.player: result.net for result in hand.results if result.net is not None}
    for seat in hand.seats:
        win = won.get(seat.name, 0)
        bet = win - nets[seat.name] if seat.name in nets else put.get(seat.name)
        lines.append(
            f'<player seat="{seat.number}" name="{escape(seat.name)}" chips="{money(seat.stack)}" '
            f'win="{money(win)}" bet="{money(bet)}"/>'
        )
    lines += ["</players>", "</general>", '<round no="0">']
    number = 0
    for action in hand.actions:
        if action.kind is ActionKind.ANTE:
            number += 1
            lines.append(_action_xml(number, action.player, ANTE, money(action.amount)))
    lines.append("</round>")
    words = GAME_WORDS.get(hand.game, STREET_WORDS)
    rounds = GAME_STREETS.get(hand.game, STREETS)
    first_street = rounds[2]
    first_cards = FIRST_CARDS.get(hand.game, 3)
    rows = _card_rows(hand, first_street, first_cards)
    hidden_last = hand.game in COMMUNITY_GAMES
    last_street = max(rounds.values())
    in_hand: list[str] = []
    """The players dealt in, in the order of their first cards."""
    folded: set[str] = set()
    for round_number, street in rounds.items():
        if street not in hand.streets:
            continue
        lines.append(f'<round no="{round_number}">')
        dealt = {e.player for e in hand.events if type(e) is Dealt and e.street == street}
        if street == first_street:
            in_hand = [e.player for e in hand.events if type(e) is Dealt and e.street == street]
        for player in in_hand:
            row = rows.get(player)
            if row is None or player in folded:
                continue
            first = street == first_street
            positions = list(range(first_cards)) if first else [int(street) - 1]
            known = [row[position] for position in positions]
            face_down = street == last_street and hidden_last and hand.community_card is None
            if player in dealt or any(known) or face_down:
                tokens = " ".join("X" if c is None else _card_text(c) for c in known)
                lines.append(
                    f'<cards type="{words[street]}" player="{escape(player)}">{tokens}</cards>'
                )
        if street == last_street and hand.community_card is not None:
            lines.append(f'<cards type="{words[street]}">{_card_text(hand.community_card)}</cards>')
        for event in hand.events:
            if (
                event.street != street
                or type(event) is not Action
                or event.kind not in BETTING_KINDS
            ):
                continue
            if event.kind is ActionKind.FOLD:
                folded.add(event.player)
            number += 1
            code, chips = _code(event, neutral)
            lines.append(_action_xml(number, event.player, code, money(chips)))
        lines.append("</round>")
    lines.append("</game>")
    return "\n".join(lines)


ZONE = "UTC"
"""iPoker's clock (`<startdate>`), as `_time` reads it."""
CLOCK = "{t:%Y-%m-%d %H:%M:%S}"
"""The actions of a betting round that iPoker writes (the antes have their own round; shows,
mucks, collects and returned bets are in the deal and the player lines)."""


def _card_rows(hand: Hand, first_street: Street, first_cards: int) -> dict[str, list[Card | None]]:
    """Each player's cards by position (None: never seen), from the deal and from what the
    player showed (iPoker prints shown cards where they were dealt)."""
    rows: dict[str, list[Card | None]] = {}
    for event in hand.events:
        if type(event) is Dealt:
            row = rows.setdefault(event.player, [None] * 7)
            if event.street == first_street:
                positions = list(range(first_cards))[first_cards - len(event.new) :]
            else:
                positions = [int(event.street) - 1] * len(event.new)
            for position, dealt in zip(positions, event.new, strict=False):
                row[position] = dealt
        elif type(event) is Action and event.kind is ActionKind.SHOW and event.cards:
            row = rows.setdefault(event.player, [None] * 7)
            for position, shown in enumerate(event.cards[:7]):
                row[position] = shown
    return rows


def _buy_in(text: str) -> str:
    """A buy-in as iPoker writes it: "$5+$0.50", without a currency code after it."""
    head, _, code = text.rpartition(" ")
    return head if head and code.isalpha() and code.isupper() else text


def _tournament_table(hand: Hand) -> str:
    """A neutral tournament hand's `<tablename>` as iPoker writes it: the tournament's name,
    its number and the table's ("$5 Limit 7 Card Stud, 699476041, 699476041")."""
    number = hand.tournament_id or ""
    words = hand.table.split()
    table = words[-1] if words and words[-1].isdigit() else number
    prize = _buy_in(hand.buy_in or "").partition("+")[0]
    name = f"{prize} Limit {GAME_NAMES[hand.game]}".strip()
    return f"{name}, {number}, {table}" if number else hand.table


def _code(action: Action, neutral: bool) -> tuple[int, int | None]:
    kind = action.kind
    if kind is ActionKind.BRING_IN:
        return BRING_IN, action.amount
    if action.all_in:
        return ALL_IN, action.amount
    if kind is ActionKind.FOLD:
        return FOLD, 0
    if kind is ActionKind.CHECK:
        return CHECK, 0
    if kind is ActionKind.CALL:
        return CALL, action.amount
    if action.raise_by is not None and not neutral:
        return RAISE_BY, action.raise_by
    if kind is ActionKind.RAISE:
        return RAISE_TO, action.to_amount
    return BET, action.amount  # a bet or a completion


def _card_text(card: Card) -> str:
    text = str(card)
    rank = "10" if text[0] == "T" else text[0]
    return text[1].upper() + rank


def _action_xml(number: int, player: str, code: int, chips: str) -> str:
    return f'<action no="{number}" player="{escape(player)}" type="{code}" sum="{chips}" cards=""/>'


FORMAT = xml_format(
    site=SITE,
    name="iPoker",
    mark=MARK,
    context=Session,
    file_context=read_session,
    context_marker="<session",
    parse_hand=parse_hand,
    profile=IPOKER,
    traits=TRAITS,
    print_hand=print_hand,
    encodings=("utf-8", "cp1252"),
    print_file=print_file,
    deals=fixed_limit_deals(GAMES.values()),
)
