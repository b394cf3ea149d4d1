"""Merge / Carbon XML hand histories to `Hand` records, and back to XML.

A file is a run of XML fragments with no single root: a `<description type=… stakes=…/>`
(the game and stakes, the file's context: `SiteFormat.file_context`), then one
`<game id=…>` element per hand, each read on its own through `handlog.parse.xmlsafe`.
What the site writes differently:

- Players are named once, by seat, and referenced by seat number everywhere else.
- Rounds `BLINDS` (antes), `BRING_IN` and `THIRD_STREET` (both 3rd street), `FOURTH_STREET`
  … `SEVENTH_STREET`, `SHOWDOWN`, `END_OF_GAME`/`END_OF_FOLDED_GAME`. Each round lists its
  cards AFTER its betting events, every player's cards so far (`null,null,Kc,Jh`, `null` a
  hidden card; the hero's `HOLE`, shown ones `SHOWN`/`MUCKED`).
- `RAISE` and `COMPLETE` amounts are street totals; `BET`, `CALL`, `BRING_IN` and `ALL_IN`
  the chips the action adds.
- Winners `<winner amount potnumber pottype="n|h|l" uncalled>`: an uncalled bet is sometimes
  listed apart with `uncalled="true"` (read as the uncalled bet returned, as the site says,
  on the street of the player's last bet, before any later street's cards) and sometimes
  counted in the amount won (left in the pot and collected with it).
- A community card (the deck runs short on 7th street) is `<cards type="COMMUNITY">` in the
  SEVENTH_STREET round, the form of Merge's boards (no corpus hand has one).
- Tournament balances (`realmoney="false"`) are printed after the ante: the ante is added
  back for the stack the hand started with.
- `gametype` 39/41 stud, 43/45 stud/8, 47/49 razz; a mixed game (75, 77) names the game of
  each hand in `multigametype`. Other games are skipped by name.
- Stakes: `Limit $0.25/$0.50` is the small and big bet; `No Limit ($0.01/$0.02/$0.10)` (and
  `Pot Limit (…)`, the same syntax) the ante, the bring-in and the smallest bet (3rd
  street's completion), which is also the smallest bet on the later streets: the hand's
  `structure` is no (pot) limit, `small_bet` and `big_bet` that smallest bet. A no- or
  pot-limit stake of another number of figures is skipped by name (what they mean is not
  known).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import lru_cache
from typing import Final
from urllib.parse import quote, unquote

from handlog.cards import Card, card
from handlog.errors import ParseError, Skipped
from handlog.model import (
    BETTING_KINDS,
    Action,
    ActionKind,
    Dealt,
    Game,
    Hand,
    Printed,
    Seat,
    Site,
    Street,
    Structure,
)
from handlog.money import (
    CURRENCY_SYMBOLS,
    MoneyError,
    bounded,
    small_number,
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

SITE = Site.MERGE
MARK = '<game id="'
"""How a hand starts, anywhere on its line (after white space or a `</game>`)."""


GAME_CODES = {
    "39": Game.STUD,
    "41": Game.STUD,
    "43": Game.STUD8,
    "45": Game.STUD8,
    "47": Game.RAZZ,
    "49": Game.RAZZ,
}
MIXED_CODES = {"75", "77"}
CODES = {Game.STUD: "39", Game.STUD8: "43", Game.RAZZ: "47"}
DESCRIPTIONS = {Game.STUD: "7-Stud", Game.STUD8: "7-Stud H/L8", Game.RAZZ: "Razz"}
ROUNDS = {
    "BLINDS": Street.ANTES,
    "BRING_IN": Street.THIRD,
    "THIRD_STREET": Street.THIRD,
    "FOURTH_STREET": Street.FOURTH,
    "FIFTH_STREET": Street.FIFTH,
    "SIXTH_STREET": Street.SIXTH,
    "SEVENTH_STREET": Street.SEVENTH,
    "SHOWDOWN": Street.SHOWDOWN,
    "END_OF_GAME": Street.SHOWDOWN,
    "END_OF_FOLDED_GAME": Street.SHOWDOWN,
}
STREET_ROUNDS = {
    Street.FOURTH: "FOURTH_STREET",
    Street.FIFTH: "FIFTH_STREET",
    Street.SIXTH: "SIXTH_STREET",
    Street.SEVENTH: "SEVENTH_STREET",
}
BETS = frozenset({ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
"""The actions that make a bet others may leave uncalled."""
COMMUNITY = "COMMUNITY"
"""The `<cards type=…>` of a card dealt to all (Merge's board cards)."""
HALVES = {"h": "high", "l": "low", "n": None}
POT_TYPES = {half: code for code, half in HALVES.items()}

MERGE = RuleProfile(
    name="merge",
    description=(
        "Merge / Carbon: a bet and three raises; open-pair double bet in 7-card stud; odd "
        "chip to the high half; no burns."
    ),
    # Razz hand 43618199-14: completion and three raises on 3rd street, three-handed.
    cap_bets=4,
    cap_heads_up=True,
    open_pair_double_bet=frozenset({Game.STUD}),
    small_raise_after_big_bet=False,
    first_actor_tie=TieBreak.SUIT,
    # HORSE hand 78854953-355: $4.59 split $2.30 high, $2.29 low.
    odd_chip_to_high=True,
    burns=False,
)

TRAITS = SiteTraits(
    # Stud/8 hand 40263637-116: the $0.50 bet nobody called is in the $0.64 won; HORSE hand
    # 78854953-356 lists it apart (`uncalled="true"`, read as the bet returned).
    uncalled_bets=UncalledBets.IN_POT,
    prints_total_pot=False,  # only the winners' amounts
    describes_hands=False,  # "Two Pair Kings and Fours": not the wording the replay writes
)


@dataclass(frozen=True, slots=True)
class Description:
    """What a file's `<description>` says for all its hands."""

    game_type: str
    """As printed: "7-Stud H/L8", "HORSE"."""
    stakes: str
    """As printed: "Limit $0.25/$0.50", "No Limit ($0.01/$0.02/$0.10)"."""
    structure: Structure
    readable: bool
    """Whether the stakes' figures are known: a fixed limit's two, a no or pot limit's three
    (else its hands are skipped by name)."""
    small_bet: int
    big_bet: int
    currency: str | None
    version: str | None
    tournament: bool
    """A tournament's file (`type="HORSE Tournament"`): amounts are chips, whatever their
    `$` and `realmoney` say."""
    levels: Levels
    """The stakes the hands of this pass showed, for a fixed-limit hand whose stakes are
    printed nowhere (`stakes="Limit"`) and nobody bets in."""


_STAKES = re.compile(r"(?P<limit>Limit|No Limit|Pot Limit)(?: \(?(?P<amounts>[^)]*)\)?)?$")
TOURNAMENT = " Tournament"
"""How a tournament's `<description type=…>` ends."""
STRUCTURES = {
    "Limit": Structure.FIXED,
    "No Limit": Structure.NO_LIMIT,
    "Pot Limit": Structure.POT_LIMIT,
}
"""The stakes' first words: the betting structure."""
LIMIT_WORDS = {structure: words for words, structure in STRUCTURES.items()}


def read_description(head: str, file: str) -> Description | ParseError:
    """The `<description>` before the first hand of a file, or the file's one error."""
    try:
        roots = parse(preamble(head, MARK), complete=False, keep_text=False)
    except XMLError as error:
        return ParseError(file, error.line, error.message)
    found = next((root for root in roots if root.tag == "description"), None)
    if found is None:
        return ParseError(file, 1, "no <description> of the game and stakes before the first hand")
    stakes = found.get("stakes")
    match = _STAKES.match(stakes)
    if match is None:
        return ParseError(file, found.line, f"stakes {stakes!r} are not in a form Merge writes")
    amounts = match["amounts"].split("/") if match["amounts"] else []
    tournament = found.get("type").endswith(TOURNAMENT)
    currency = CURRENCY_SYMBOLS.get(amounts[-1][:1]) if amounts and not tournament else None
    structure = STRUCTURES[match["limit"]]
    try:
        figures = [_amount(text, currency) for text in amounts]
    except ValueError as problem:  # each `except … as` its own name: mypyc types them
        return ParseError(file, found.line, str(problem))
    if structure is Structure.FIXED and not figures:
        readable = True  # a tournament's: each hand's from its own actions (small_bet 0)
        small = big = 0
    elif structure is Structure.FIXED:
        readable = len(figures) >= 2
        small, big = figures[-2:] if readable else (0, 0)
    else:
        # ante / bring-in / smallest bet: the smallest bet on every street
        readable = len(figures) == 3
        small = big = figures[2] if readable else 0
    return Description(
        found.get("type"),
        stakes,
        structure,
        readable,
        small,
        big,
        currency,
        found.attrib.get("version"),
        tournament,
        Levels(),
    )


def _amount(text: str, currency: str | None) -> int:
    """Minor units of "0.05", "$0.50", "10.00" (cents in real money, else chips)."""
    return _cents(text) if currency else _chips(text)


# Amounts repeat a great deal, so they are cached: one cache per unit, each keyed by the
# text alone (a cache of one argument keys on it as it is, with no tuple to build).


@lru_cache(maxsize=100_000)
def _cents(text: str) -> int:
    return _convert(text, True)


@lru_cache(maxsize=100_000)
def _chips(text: str) -> int:
    return _convert(text, False)


_PLAIN_AMOUNT = re.compile(r"-?[0-9]{0,20}(?:\.[0-9]{0,20})?")
"""How Merge writes an amount after its currency sign ("0.05", "1550.00"): digits and a
point, nothing `Decimal` reads besides (exponents, "Infinity", "NaN", underscores)."""


def _convert(text: str, currency: bool) -> int:
    bare = text.lstrip("$€£")
    if not _PLAIN_AMOUNT.fullmatch(bare) or not any(c.isdigit() for c in bare):
        raise MoneyError(f"{text!r} is not an amount")
    units = Decimal(bare) * 100 if currency else Decimal(bare)
    if units != units.to_integral_value():
        raise MoneyError(f"{text!r} has a fraction of a {'cent' if currency else 'chip'}")
    return bounded(abs(int(units)), text) * (-1 if units < 0 else 1)


_CARDS: Final = Cards(card, ("null", ""))  # "": hidden, in the 2013 files
"""A card as Merge writes it, None for a hidden one ("null")."""


def parse_hand(chunk: Chunk, description: object = None) -> Hand | ParseError | Skipped:
    """One `<game>` element to a `Hand`, a `ParseError`, or `Skipped` for a hand of a game
    handlog does not replay."""
    hand_id = hand_number(chunk.text, MARK)
    if not isinstance(description, Description):
        return hand_error(chunk, 1, "no Merge <description> before this hand", hand_id)
    game = read_hand(chunk, hand_id, keep_text=False)  # Merge says it all in attributes
    if isinstance(game, ParseError):
        return game
    code = game.get("gametype")
    mixed = code in MIXED_CODES
    if mixed:
        code = game.get("multigametype")
    kind = GAME_CODES.get(code)
    if kind is None or not description.readable:
        name = description.game_type if not mixed else f"{description.game_type} game {code}"
        return Skipped(chunk.file, chunk.line, hand_id, f"{name} {description.stakes}")
    try:
        return _Builder(chunk, description, game, kind, mixed).build()
    except (LookupError, ValueError) as problem:
        return unlike(chunk, problem, "Merge", hand_id)


class _Builder:
    def __init__(
        self, chunk: Chunk, description: Description, game: Element, kind: Game, mixed: bool
    ) -> None:
        self.chunk = chunk
        self.before = chunk.line - 1
        """The line before the hand's first: a line of the hand is `before` on in its file."""
        self.description = description
        self.root = game
        self.game = game.attrib
        self.kind = kind
        self.mixed = mixed
        self.events: list[Action | Dealt] = []
        self.names: dict[str, str] = {}
        self.known: dict[str, list[Card | None]] = {}
        self.printed: dict[str, tuple[Card, ...]] = {}
        self.listed: dict[str, tuple[str, list[Card | None]]] = {}
        """Each player's last card list as written and as read: a round lists every card so
        far, so a list that repeats the last one, or adds to it, is read from where it left
        off (the cards before changed nothing they had not changed the first time)."""
        self.totals: dict[str, int] = {}
        """What each player has put in on this street."""
        self.facing = 0
        """The largest of `totals` (0 when empty)."""
        self.completed = False
        """Whether 3rd street's completion has been made (an all-in short of the small bet
        included)."""
        self.street = Street.ANTES
        self.revealed: set[str] = set()
        """Players whose cards a SHOWN or MUCKED list revealed."""
        self.small_bet = description.small_bet
        self.big_bet = description.big_bet
        self.community: Card | None = None
        """The card dealt face up to all on 7th street (`<cards type="COMMUNITY">`)."""

    def at(self, line: int) -> int:
        return self.before + line

    def money(self, element: Element, attribute: str = "amount") -> int:
        """The element's `amount` (a player's `balance`), an error of its line when it is
        not an amount Merge writes."""
        try:
            return _amount(element.get(attribute), self.description.currency)
        except ValueError as error:
            raise Problem(element.line, str(error)) from None

    def player(self, element: Element) -> str:
        seat = element.get("player")
        name = self.names.get(seat)
        if name is None:
            raise Problem(element.line, f"seat {seat} has nobody in it")
        return name

    def build(self) -> Hand:
        game = self.game
        seats: list[Seat] = []
        players = self.root.find("players")
        for player in players.all("player") if players is not None else ():
            name = player.get("nickname")
            sitting_out = player.get("dealtin") == "false"
            seats.append(
                Seat(
                    element_seat(player),
                    name,
                    self.money(player, "balance"),
                    sitting_out,
                    self.at(player.line),
                )
            )
            self.names[player.get("seat")] = name
            self.known[name] = [None] * 7
        if not seats:
            raise Problem(self.root.line, "the hand has no players")
        if not self.small_bet:  # a tournament's: from the hand's own actions
            self.small_bet, self.big_bet = self._stakes()
        streets: list[Street] = []
        shows: list[tuple[str, ActionKind, int]] = []
        winners: list[Element] = []
        folded_game = False
        tally = Tally()
        for round_ in self.root.all("round"):
            name = round_.get("id")
            street = ROUNDS.get(name)
            if street is None:
                raise Problem(round_.line, f"a round {name!r}")
            folded_game = folded_game or name == "END_OF_FOLDED_GAME"
            if Street.THIRD <= street <= Street.SEVENTH:
                if street != self.street:
                    self.totals = {}
                    self.facing = 0
                    streets.append(street)
                self.street = street
            # Each round lists its cards after its betting: the deal is put first, as dealt.
            events: list[Element] = []
            for child in round_.children:
                tag = child.tag
                if tag == "cards":
                    self._cards(street, child)
                elif tag == "event":
                    events.append(child)
                elif tag == "winner":
                    winners.append(child)
            for event in events:
                kind = event.get("type")
                if kind in ("SHOW", "MUCK"):
                    shows.append((self.player(event), ActionKind[kind], self.at(event.line)))
                    continue
                if kind in ("CHAT", "PLAYER_OUT"):
                    continue
                record = self._action(kind, event)
                self.events.append(record)
                tally.add(record)
        tournament = self.description.tournament
        if tournament:
            # A busted player is listed with nothing and dealt in (`balance="$0.00"`), but
            # takes no part.
            involved = {event.player for event in self.events}
            seats = [
                s if s.name in involved else Seat(s.number, s.name, s.stack, True, s.line)
                for s in seats
            ]
        if game.get("realmoney", "") == "false" or tournament:
            # Tournament balances are printed after the ante is taken: the stack the hand
            # started with has the ante back.
            antes = {
                e.player: e.amount or 0
                for e in self.events
                if type(e) is Action and e.kind is ActionKind.ANTE
            }
            seats = [
                Seat(s.number, s.name, s.stack + antes.get(s.name, 0), s.sitting_out, s.line)
                for s in seats
            ]
        returned = collected = 0
        last = self.events[-1].line if self.events else self.at(self.root.line)
        for winner in winners:
            if winner.get("uncalled") == "true":
                chips = self.money(winner)
                returned += chips
                name = self.player(winner)
                street = self._bet_street(name)
                # returned when that street's betting ended, before any later street's deal
                at = len(self.events)
                while at and self.events[at - 1].street > street:
                    at -= 1
                returned_bet = Action(
                    street, name, ActionKind.UNCALLED_BET_RETURNED, chips, line=self.at(winner.line)
                )
                self.events.insert(at, returned_bet)
        if not folded_game:
            for name, kind, line in shows:
                cards = tuple(c for c in self.known[name] if c is not None)
                if kind is ActionKind.MUCK and name not in self.revealed:
                    cards = ()  # mucked face down
                self.events.append(Action(Street.SHOWDOWN, name, kind, cards=cards, line=line))
        pots = {w.get("potnumber") for w in winners if w.get("uncalled") != "true"}
        for winner in winners:
            if winner.get("uncalled") == "true":
                continue
            chips = self.money(winner)
            collected += chips
            pot = None if len(pots) < 2 else small_number(winner.get("potnumber")) - 1
            self.events.append(
                Action(
                    Street.SHOWDOWN,
                    self.player(winner),
                    ActionKind.COLLECT,
                    chips,
                    pot=pot,
                    half=HALVES.get(winner.get("pottype")),
                    line=self.at(winner.line) or last,
                )
            )
        total = tally.put_in - returned
        start = game.get("starttime", "")
        data = game.get("data", "").split("|")
        table = data[1] if len(data) > 1 else ""
        tournament_id = None
        if tournament:
            # date | tournament name, URL-encoded | tournament id | hand id | true
            table = unquote(table)
            tournament_id = data[2] if len(data) > 2 and data[2] else None
        mixed_game = None
        if self.mixed:
            mixed_game = self.description.game_type.removesuffix(TOURNAMENT)
        return Hand(
            site=SITE,
            hand_id=game.get("id", ""),
            game=self.kind,
            table=table,
            max_seats=small_number(game["seats"]) if game.get("seats") else None,
            currency=self.description.currency,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            start_time=_time(start),
            printed=Printed(clock_text=start),
            seats=tuple(seats),
            events=tuple(self.events),
            streets=tuple(streets),
            results=(),
            total_pot=total,
            rake=max(0, total - collected),
            community_card=self.community,
            ante=tally.ante,
            bring_in=tally.bring_in,
            tournament_id=tournament_id,
            mixed_game=mixed_game,
            structure=self.description.structure,
            source=hand_source(self.chunk),
        )

    def _bet_street(self, player: str) -> Street:
        """The street of `player`'s last bet, where a bet nobody called is returned (later
        streets may have been dealt with nobody left to bet: to an all-in player)."""
        for event in reversed(self.events):
            if type(event) is Action and event.player == player and event.kind in BETS:
                return event.street
        return self.street

    def _action(self, kind: str, event: Element) -> Action:
        player = self.player(event)
        line = self.at(event.line)
        street = self.street
        if kind == "ANTE":
            return Action(Street.ANTES, player, ActionKind.ANTE, self.money(event), line=line)
        if kind == "FOLD":
            return Action(street, player, ActionKind.FOLD, line=line)
        if kind == "CHECK":
            return Action(street, player, ActionKind.CHECK, line=line)
        chips = self.money(event)
        totals = self.totals
        before = totals.get(player, 0)
        facing = self.facing
        if kind in ("RAISE", "COMPLETE"):  # street totals
            total = chips
            chips = total - before
        elif kind in ("BET", "CALL", "BRING_IN", "ALL_IN"):  # chips added
            total = before + chips
        else:
            raise Problem(event.line, f"an event of type {kind!r}")
        totals[player] = total
        if total >= facing:
            self.facing = total
        elif before == facing:  # the largest went down (a raise to less than put in)
            self.facing = max(totals.values())
        if kind == "BRING_IN":
            return Action(street, player, ActionKind.BRING_IN, chips, total, line=line)
        if kind == "CALL" or (kind == "ALL_IN" and total <= facing):
            action = ActionKind.CALL
        else:
            first = street == Street.THIRD
            action = bet_kind(first, facing, total, self.small_bet, self.completed)
            self.completed |= action is ActionKind.COMPLETE
        return Action(street, player, action, chips, total, all_in=kind == "ALL_IN", line=line)

    def _stakes(self) -> tuple[int, int]:
        """The small and big bet of a hand whose description prints none, from its events
        (a pass before the hand is built: a completion is told from a raise by them), else
        an earlier hand's at its ante and bring-in (`handlog.parse.stakes`)."""
        shown = Shown()
        ante = bring_in = None
        double = self.kind in MERGE.open_pair_double_bet
        for round_ in self.root.all("round"):
            street = ROUNDS.get(round_.get("id"), Street.SHOWDOWN)
            if street > Street.SEVENTH:
                continue
            kind = FIRST if street <= Street.THIRD else SMALL if street == Street.FOURTH else BIG
            open_pair = False
            if kind == SMALL and double:
                for cards in round_.all("cards"):
                    held = cards.get("cards").split(",")
                    up = [c[:1] for c in held[2:4] if c and c != "null"]
                    open_pair = open_pair or (len(up) == 2 and up[0] == up[1])
            for event in round_.all("event"):
                what = event.get("type")
                if what == "ANTE":
                    ante = max(ante or 0, self.money(event))
                elif what == "BRING_IN":
                    bring_in = self.money(event)
                elif what == "COMPLETE":
                    shown.complete(self.money(event))
                elif what == "BET" and kind != FIRST:
                    shown.bet(kind, self.money(event), open_pair)
        return self.description.levels.stakes(shown, ante, bring_in)

    def _cards(self, street: Street, element: Element) -> None:
        attrib, at = element.attrib, element.line
        kind = attrib.get("type", "")
        if kind == COMMUNITY:
            self._community(street, element)
            return
        name = self.player(element)
        listed = attrib.get("cards", "")
        known = self.listed.get(name)
        if known is not None and known[0] == listed:
            shown = known[1]
        else:
            read: list[Card | None] = []
            tail = listed
            if known is not None:
                last = known[0]
                if listed.startswith(last) and listed[len(last) : len(last) + 1] == ",":
                    read = known[1]
                    tail = listed[len(last) + 1 :]
            try:
                shown = read + [_CARDS.card(text) for text in tail.split(",")]
            except ValueError:
                raise Problem(at, f"{listed!r} are not cards") from None
            self.listed[name] = (listed, shown)
            row = self.known[name]
            for position in range(len(read), min(len(shown), 7)):
                seen = shown[position]
                if seen is not None and row[position] is None:
                    row[position] = seen
        if kind in ("SHOWN", "MUCKED"):
            self.revealed.add(name)
        if kind not in ("HOLE", "DRAW_DRAWN_CARDS") or street > Street.SEVENTH:
            return
        # A street's cards are at the positions before its card count: 3rd street's the first
        # three, a later street's its last one.
        count = int(street)
        if len(shown) > count:
            raise Problem(at, f"{len(shown)} cards on {street.label}")
        if street == Street.THIRD and name in self.printed:
            return  # listed again in the THIRD_STREET round
        first = 0 if street == Street.THIRD else count - 1
        # A player who folded is listed with the cards held when folding (the hero's HOLE).
        new = tuple([seen for seen in shown[first:count] if seen is not None])
        if new:
            earlier = self.printed.get(name, ())
            self.printed[name] = earlier + new
            hidden = count - first - len(new)  # the street's cards listed as null
            self.events.append(Dealt(street, name, earlier, new, self.at(at), hidden))

    def _community(self, street: Street, element: Element) -> None:
        """The card dealt face up to all on 7th street when the deck runs short."""
        attrib, at = element.attrib, element.line
        listed = attrib.get("cards", "")
        if street != Street.SEVENTH:
            raise Problem(at, f"a community card on {street.label}")
        if self.community is not None:
            raise Problem(at, "a second community card")
        try:
            community = _CARDS.card(listed) if "," not in listed else None
        except ValueError:
            community = None
        if community is None:
            raise Problem(at, f"{listed!r} is not one community card")
        self.community = community


_TIME = re.compile(r"(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})")


def _time(text: str) -> datetime | None:
    return utc_clock(_TIME.fullmatch(text))


# ---------------------------------------------------------------------------------------
# Printing: a record back to a Merge <description> and <game> (parse → print → parse equal)


def print_hand(hand: Hand) -> str:
    """A hand as a Merge file of one game, which parses back to an equal record: a hand Merge
    printed, or any site-neutral record (a simulated one), written in Merge's form.

    What a neutral record says that Merge writes otherwise: the clock is `start_time` on
    Merge's (UTC) clock; players are referenced by seat; a raise or a completion is a street
    total, an all-in the chips it adds (a forced bet that puts a player all in stays an ante or
    a bring-in); an uncalled bet is a winner with `uncalled="true"`; a community card is a
    `COMMUNITY` card list of the 7th street round. Notes and "doesn't show" have no form and
    are left out, as are the pot totals (the winners' amounts say them)."""
    description, game = _parts(hand, alone=True)
    return f"{description}\n{game}"


def print_file(hands: Iterable[Hand]) -> Iterator[str]:
    """A file of hands as Merge writes one: the `<description>` of the first hand (a
    tournament's without stakes: each hand's come from its own events or an earlier hand's),
    then every hand's `<game>`; read one hand at a time."""
    return print_session(hands, _file_description, _game_element, "")


def _file_description(hand: Hand) -> str:
    return _parts(hand, alone=False)[0]


def _game_element(hand: Hand) -> str:
    return _parts(hand, alone=False)[1]


def _parts(hand: Hand, alone: bool) -> tuple[str, str]:
    """The `<description>` for `hand` (alone in its file, or the first of many) and its
    `<game>` element."""
    sign = {"USD": "$", "EUR": "€", "GBP": "£"}.get(hand.currency or "", "")

    def money(value: int | None) -> str:
        value = value or 0
        if not hand.currency:
            return str(value)
        whole, cents = divmod(value, 100)
        return f"{whole}.{cents:02d}"

    def stake(value: int) -> str:
        return f"{sign}{money(value)}"

    seat_of = {seat.name: seat.number for seat in hand.seats}
    mixed = hand.mixed_game is not None
    code = CODES[hand.game]
    game_attrs = f'gametype="75" multigametype="{code}"' if mixed else f'gametype="{code}"'
    seats = f' seats="{hand.max_seats}"' if hand.max_seats else ""
    tournament = hand.currency is None and hand.tournament_id is not None
    kind = hand.mixed_game or DESCRIPTIONS[hand.game]
    data = f"|{escape(hand.table)}||{hand.hand_id}|false"
    if tournament:
        kind += TOURNAMENT
        data = (
            f"|{escape(quote(hand.table))}|{escape(hand.tournament_id or '')}|{hand.hand_id}|true"
        )
    if (
        hand.structure is Structure.FIXED
        and tournament
        and (
            not alone
            or not hand.stakes_known
            or shown_stakes(hand) == (hand.small_bet, hand.big_bet)
        )
    ):
        stakes = "Limit"  # as a tournament prints it: its actions show the stakes, or nothing
    elif hand.structure is Structure.FIXED:
        stakes = f"Limit {stake(hand.small_bet)}/{stake(hand.big_bet)}"
    else:
        # ante / bring-in / smallest bet, the forced bets as seen (the records keep no other)
        figures = (hand.ante or 0, hand.bring_in or 0, hand.small_bet)
        stakes = f"{LIMIT_WORDS[hand.structure]} ({'/'.join(stake(f) for f in figures)})"
    clock = printed_clock(hand, SITE, ZONE, CLOCK)
    lines = [
        f'<description type="{escape(kind)}" stakes="{stakes}"/>',
        f'<game id="{hand.hand_id}" starttime="{clock}" numholecards="7" {game_attrs}'
        f'{seats} realmoney="{"true" if hand.currency else "false"}" '
        f'data="{data}">',
        "<players>",
    ]
    antes = {a.player: a.amount or 0 for a in hand.actions if a.kind is ActionKind.ANTE}
    for seat in hand.seats:
        balance = seat.stack - (antes.get(seat.name, 0) if not hand.currency else 0)
        lines.append(
            f'<player seat="{seat.number}" nickname="{escape(seat.name)}" '
            f'balance="{money(balance)}" dealtin="{"false" if seat.sitting_out else "true"}"/>'
        )
    rows: dict[str, list[Card | None]] = {}
    """Each player's cards so far by position, as the deal printed them."""
    lines += ["</players>", '<round id="BLINDS">']
    for action in hand.actions:
        if action.kind is ActionKind.ANTE:
            lines.append(_event("ANTE", seat_of[action.player], money(action.amount)))
    lines.append("</round>")
    for street in hand.streets:
        if street not in ROUND_NAMES:
            continue  # the showdown: its round is END_OF_GAME, below
        lines.append(f'<round id="{ROUND_NAMES[street]}">')
        for played in hand.actions:
            if played.street != street or played.kind not in BETTING_KINDS:
                continue
            number = seat_of[played.player]
            if played.kind in (ActionKind.FOLD, ActionKind.CHECK):
                lines.append(_event(played.kind.name, number))
            elif played.all_in and played.kind is not ActionKind.BRING_IN:
                lines.append(_event("ALL_IN", number, money(played.amount)))
            elif played.kind in (ActionKind.RAISE, ActionKind.COMPLETE):  # street totals
                lines.append(_event(played.kind.name, number, money(played.to_amount)))
            else:
                lines.append(_event(played.kind.name, number, money(played.amount)))
        for event in hand.events:
            if type(event) is Dealt and event.street == street and event.new:
                row = rows.setdefault(event.player, [None] * 7)
                lines.append(_cards_xml(street, event, seat_of, row))
        if street == Street.SEVENTH and hand.community_card is not None:
            lines.append(f'<cards type="{COMMUNITY}" cards="{hand.community_card}"/>')
        lines.append("</round>")
    showdown = [a for a in hand.actions if a.street == Street.SHOWDOWN]
    lines.append('<round id="END_OF_GAME">')
    for action in showdown:
        if action.kind in (ActionKind.SHOW, ActionKind.MUCK):
            lines.append(_event(action.kind.name, seat_of[action.player]))
    for action in showdown:
        at = seat_of[action.player]
        if action.kind in (ActionKind.SHOW, ActionKind.MUCK) and action.cards:
            word = "SHOWN" if action.kind is ActionKind.SHOW else "MUCKED"
            shown = ",".join(str(c) for c in action.cards)
            lines.append(f'<cards type="{word}" cards="{shown}" player="{at}"/>')
    for action in hand.actions:
        at = seat_of[action.player]
        if action.kind is ActionKind.UNCALLED_BET_RETURNED:
            lines.append(
                f'<winner amount="{money(action.amount)}" uncalled="true" potnumber="1" '
                f'player="{at}" pottype="n"/>'
            )
        elif action.kind is ActionKind.COLLECT:
            pot = 1 if action.pot is None else action.pot + 1
            lines.append(
                f'<winner amount="{money(action.amount)}" uncalled="false" potnumber="{pot}" '
                f'player="{at}" pottype="{POT_TYPES[action.half]}"/>'
            )
    lines += ["</round>", "</game>"]
    return lines[0], "\n".join(lines[1:])


ZONE = "UTC"
"""Merge's clock (`starttime`), as `_time` reads it."""
CLOCK = "{t:%Y%m%d%H%M%S}"
ROUND_NAMES = {Street.THIRD: "THIRD_STREET", **STREET_ROUNDS}
"""The round each betting street is written in (a bring-in in THIRD_STREET: both are read as
3rd street)."""
"""The events of a betting round (the antes have their round, shows, mucks and winners the
last one)."""


def _event(kind: str, seat: int, amount: str | None = None) -> str:
    money = f' amount="{amount}"' if amount is not None else ""
    return f'<event type="{kind}" player="{seat}"{money}/>'


def _cards_xml(
    street: Street, event: Dealt, seat_of: dict[str, int], row: list[Card | None]
) -> str:
    """A dealt record as Merge lists it: every card so far (`row`, updated with the street's
    new ones), `null` for the unseen ones (a 4th street pair of up cards is an open pair)."""
    if street == Street.THIRD:
        for index, seen in enumerate(event.new):
            row[3 - len(event.new) + index] = seen
        kind = "HOLE" if len(event.new) == 3 else "DRAW_DRAWN_CARDS"
    else:
        row[int(street) - 1] = event.new[-1]
        kind = "DRAW_DRAWN_CARDS"
    slots = ["null" if seen is None else str(seen) for seen in row[: int(street)]]
    return f'<cards type="{kind}" cards="{",".join(slots)}" player="{seat_of[event.player]}"/>'


FORMAT = xml_format(
    site=SITE,
    name="Merge",
    mark=MARK,
    context=Description,
    file_context=read_description,
    context_marker="<description",
    parse_hand=parse_hand,
    profile=MERGE,
    traits=TRAITS,
    print_hand=print_hand,
    encodings=("utf-8",),
    print_file=print_file,
    # Fixed limit, cash and tournament. Not no or pot limit, which the parser reads: their
    # stakes name one smallest bet for every street, so the smallest bet of the big-bet
    # streets (the simulator's is twice the early one) is lost: read back, a short all-in
    # bet between the two is a full bet (the next raise falls short), and a pot-limit bet
    # of that smallest bet may exceed the pot.
    deals=fixed_limit_deals(CODES),
)
