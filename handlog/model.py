# mypy: disable-error-code="misc"
"""Typed, immutable records for one stud-family hand as read from a site's hand history.

Money is always an integer number of minor units: cents for cash games, chips for
tournaments and play money. A hand carries its `Source` (file and lines); every record in it
carries the line it was read from. Sources and lines are left out of equality, so that a hand
printed and parsed again compares equal to the original.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum, StrEnum

from handlog import records
from handlog.cards import Card

# This module is compiled with mypyc (`handlog._native`): its records are native classes, whose
# fields compiled code reads and writes directly. Each record is `@dataclass(frozen=True)` (so
# equality, hashing, `repr`, `dataclasses.fields` and `replace` are as for any dataclass, and
# fields cannot be assigned afterwards) with its `__init__` written out: compiled, that
# `__init__` fills the fields in C; run as source it is replaced at the end of this module
# (`handlog.records.swap_inits`), which also checks that it takes exactly the fields. The
# assignments in those `__init__`s are what mypy calls assigning to a frozen field (error code
# "misc"), hence the directive in the first line.


class _Record:
    """Pickling for the records (a compiled record has no `__dict__` for pickle to fill)."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return type(self), tuple(getattr(self, f.name) for f in dataclasses.fields(self))  # type: ignore[arg-type]


class Site(StrEnum):
    """The card room (or exchange format) a hand history comes from. A site may write more
    than one format over the years (Winning Poker's 2016 and 2019+ exports); each format is a
    module behind the site seam (`handlog.parse.sites`)."""

    POKERSTARS = "pokerstars"
    FULL_TILT = "fulltilt"
    WINNING = "winning"
    """Winning Poker network, Americas Cardroom (ACR)."""
    BOVADA = "bovada"
    """Bovada and Bodog."""
    EVERLEAF = "everleaf"
    WINAMAX = "winamax"
    PARTYPOKER = "partypoker"
    ONGAME = "ongame"
    ABSOLUTE = "absolute"
    KINGSCLUB = "kingsclub"
    IPOKER = "ipoker"
    MERGE = "merge"
    """Merge / Carbon network."""
    PHH = "phh"
    """The open Poker Hand History format (pokerkit): not a card room, read like one."""

    def __str__(self) -> str:
        return self.value


class Game(StrEnum):
    STUD = "stud"
    """7-card stud, high only."""
    STUD8 = "stud8"
    """7-card stud hi/lo, 8 or better."""
    RAZZ = "razz"
    """7-card stud, ace-to-five low only."""
    STUD5 = "stud5"
    """5-card stud, high only."""
    RAZZ27 = "razz27"
    """7-card stud, deuce-to-seven low only (KingsClub's "2-7 Razz")."""
    RAZZ_A6 = "razz_a6"
    """London lowball: 7-card stud, ace-to-six low only."""
    STUD_HILO = "stud_hilo"
    """7-card stud hi/lo, any ace-to-five low (no qualifier)."""

    def __str__(self) -> str:
        return self.value


class Structure(StrEnum):
    """How much a player may bet or raise (`handlog.rules.structures` holds each one's rules)."""

    FIXED = "fixed"
    """Fixed limit: the small bet on the early streets, the big bet on the later ones."""
    SPREAD = "spread"
    """Spread limit: any amount from the small bet (the spread's bottom) to the big bet (its
    top), on every street."""
    POT_LIMIT = "pot"
    """Pot limit: at least the last bet or raise, at most the pot after calling."""
    NO_LIMIT = "no"
    """No limit: at least the last full bet or raise, up to the whole stack."""

    def __str__(self) -> str:
        return self.value


class Street(IntEnum):
    """Where in the hand a line stands. The value of a betting street is its card count."""

    ANTES = 0
    """Before the first street header: antes, and noise before the deal."""
    SECOND = 2
    THIRD = 3
    FOURTH = 4
    FIFTH = 5
    SIXTH = 6
    SEVENTH = 7
    """Called RIVER by PokerStars."""
    SHOWDOWN = 8
    SUMMARY = 9

    @property
    def label(self) -> str:
        return _STREET_LABELS[self]


_STREET_LABELS = {
    Street.ANTES: "antes",
    Street.SECOND: "2nd street",
    Street.THIRD: "3rd street",
    Street.FOURTH: "4th street",
    Street.FIFTH: "5th street",
    Street.SIXTH: "6th street",
    Street.SEVENTH: "7th street",
    Street.SHOWDOWN: "showdown",
    Street.SUMMARY: "summary",
}


class ActionKind(StrEnum):
    ANTE = "ante"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    """The first full small bet on 3rd street (PokerStars writes it as a raise over the bring-in)."""
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"
    UNCALLED_BET_RETURNED = "uncalled_bet_returned"
    SHOW = "show"
    MUCK = "muck"
    """Mucks at showdown, with or without the cards being revealed."""
    DOES_NOT_SHOW = "does_not_show"
    COLLECT = "collect"

    def __str__(self) -> str:
        return self.value


MONEY_IN_KINDS = frozenset(
    {
        ActionKind.ANTE,
        ActionKind.BRING_IN,
        ActionKind.COMPLETE,
        ActionKind.BET,
        ActionKind.RAISE,
        ActionKind.CALL,
    }
)
"""Actions that put chips into the pot."""

BETTING_KINDS = frozenset(
    {
        ActionKind.BRING_IN,
        ActionKind.COMPLETE,
        ActionKind.BET,
        ActionKind.RAISE,
        ActionKind.CALL,
        ActionKind.CHECK,
        ActionKind.FOLD,
    }
)
"""The actions of a betting round (the antes and the showdown apart)."""


class NoteKind(StrEnum):
    """Lines that are not actions: table events, chat and the dealer's announcements."""

    CHAT = "chat"
    JOINS = "joins"
    LEAVES = "leaves"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    SITTING_OUT = "sitting_out"
    RETURNED = "returned"
    TIMED_OUT = "timed_out"
    REMOVED = "removed"
    FINISHED_TOURNAMENT = "finished_tournament"
    WINS_TOURNAMENT = "wins_tournament"
    DOUBLE_BET_ALLOWED = "double_bet_allowed"
    """"Pair on board - a double bet is allowed"."""
    BETTING_CAPPED = "betting_capped"
    NO_LOW_HAND = "no_low_hand"
    """"No low hand qualified"."""
    TOURNAMENT = "tournament"
    """A tournament's re-buy, add-on or bounty told during a hand ("X re-buys and receives
    3000 chips for $10.00", "X wins the $5 bounty for eliminating Y"): chips or prizes that
    are not the hand's."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Source(_Record):
    """Where a record was read from."""

    file: str
    line: int
    """1-based line number of the record's first line in the file."""
    end_line: int
    """1-based line number of its last line (the same as `line` for one-line records)."""

    def __init__(self, file: str, line: int, end_line: int) -> None:
        self.file = file
        self.line = line
        self.end_line = end_line

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Seat(_Record):
    number: int
    name: str
    stack: int
    """Chips in front of the player when the hand started, in minor units."""
    sitting_out: bool = False
    line: int = field(default=0, compare=False, repr=False)
    """1-based line in the hand's file (`Hand.source.file`); 0 for records not read from text."""

    def __init__(
        self, number: int, name: str, stack: int, sitting_out: bool = False, line: int = 0
    ) -> None:
        self.number = number
        self.name = name
        self.stack = stack
        self.sitting_out = sitting_out
        self.line = line


@dataclass(frozen=True)
class Action(_Record):
    """One line of play by one player, in hand order.

    Amounts mean the same whatever the site prints (the site's parser normalises raise
    increments, raise-to totals, hand totals and the like into these)."""

    street: Street
    player: str
    kind: ActionKind
    amount: int | None = None
    """Chips THIS action puts in: the ante, bring-in, completion, bet, raise or call (for a
    raise, everything the player adds with it, not the raise size); for an uncalled bet the
    chips returned; for a collect the chips collected."""
    to_amount: int | None = None
    """For a bring-in, completion, bet, raise or call: the player's total for the street
    after it (antes not counted). None where the site said nothing that gives it."""
    all_in: bool = False
    cards: tuple[Card, ...] = ()
    """Cards shown or mucked face up."""
    description: str | None = None
    """The site's words for a shown hand, e.g. "HI: a flush, Queen high; LO: 7,6,5,4,3"."""
    pot: int | None = None
    """For collects, which pot: 0 the main pot, 1, 2 … the side pots in the order they were
    made; None when the site does not say (a hand with one pot)."""
    half: str | None = None
    """For collects of a hi/lo pot, which half: "high" or "low"; None for a whole pot or
    when the site does not say."""
    raise_by: int | None = None
    """For a raise or completion, the raise size over the bet it faced, when the site prints
    one ("raises 20 to 40": 20); the replay checks it against the totals."""
    line: int = field(default=0, compare=False, repr=False)
    """1-based line in the hand's file (`Hand.source.file`); 0 for records not read from text."""

    def __init__(
        self,
        street: Street,
        player: str,
        kind: ActionKind,
        amount: int | None = None,
        to_amount: int | None = None,
        all_in: bool = False,
        cards: tuple[Card, ...] = (),
        description: str | None = None,
        pot: int | None = None,
        half: str | None = None,
        raise_by: int | None = None,
        line: int = 0,
    ) -> None:
        self.street = street
        self.player = player
        self.kind = kind
        self.amount = amount
        self.to_amount = to_amount
        self.all_in = all_in
        self.cards = cards
        self.description = description
        self.pot = pot
        self.half = half
        self.raise_by = raise_by
        self.line = line


@dataclass(frozen=True)
class Dealt(_Record):
    """A "Dealt to" line: the cards a player holds after a street's deal.

    Opponents' lines show only their face-up cards; the hero's show everything."""

    street: Street
    player: str
    previous: tuple[Card, ...]
    """Cards repeated from earlier streets (the first bracket), empty on the first street."""
    new: tuple[Card, ...]
    """Cards dealt on this street as the line shows them."""
    line: int = field(default=0, compare=False, repr=False)
    """1-based line in the hand's file (`Hand.source.file`); 0 for records not read from text."""
    hidden: int = 0
    """Cards dealt to the player on this street that the line does not show: an opponent's
    face-down cards, whatever the site prints for them (PokerStars leaves them out, KingsClub
    and iPoker print `X`, Merge `null`). `new` plus `hidden` is every card the street dealt
    the player. The replay does not read it (the deal positions say which cards are down).
    After `line`, so that builders passing the line by position are unchanged."""

    def __init__(
        self,
        street: Street,
        player: str,
        previous: tuple[Card, ...],
        new: tuple[Card, ...],
        line: int = 0,
        hidden: int = 0,
    ) -> None:
        self.street = street
        self.player = player
        self.previous = previous
        self.new = new
        self.line = line
        self.hidden = hidden


@dataclass(frozen=True)
class Note(_Record):
    """A line that is neither dealing nor action: chat, table events, dealer announcements."""

    street: Street
    kind: NoteKind
    player: str | None
    text: str
    """For chat the message; otherwise the whole line as printed."""
    line: int = field(default=0, compare=False, repr=False)
    """1-based line in the hand's file (`Hand.source.file`); 0 for records not read from text."""

    def __init__(
        self, street: Street, kind: NoteKind, player: str | None, text: str, line: int = 0
    ) -> None:
        self.street = street
        self.kind = kind
        self.player = player
        self.text = text
        self.line = line


Event = Action | Dealt | Note


@dataclass(frozen=True)
class SeatResult(_Record):
    """What a hand's summary says of one seat: folded (and when), showed or mucked cards,
    won or lost (PokerStars' `Seat N: …` lines, Full Tilt's alike)."""

    seat: int
    player: str
    folded_on: Street | None = None
    did_not_bet: bool = False
    """"(didn't bet)": folded on 3rd street without putting in more than the ante."""
    showed: tuple[Card, ...] = ()
    mucked: tuple[Card, ...] = ()
    won: int | None = None
    """Amount in "won ($0.77)" or "collected ($0.64)"."""
    collected_without_showdown: bool = False
    lost: bool = False
    description: str | None = None
    """The hand description after "with"."""
    net: int | None = None
    """The player's result for the hand as the site prints it (OnGame's `net: +$2.47`,
    KingsClub's `+259.64`, Winning 2016's `Wins`/`Loses`, iPoker's `win` less `bet`); None
    where the site prints none. The replay compares it with the net the hand's own lines give."""
    line: int = field(default=0, compare=False, repr=False)
    """1-based line in the hand's file (`Hand.source.file`); 0 for records not read from text."""

    def __init__(
        self,
        seat: int,
        player: str,
        folded_on: Street | None = None,
        did_not_bet: bool = False,
        showed: tuple[Card, ...] = (),
        mucked: tuple[Card, ...] = (),
        won: int | None = None,
        collected_without_showdown: bool = False,
        lost: bool = False,
        description: str | None = None,
        net: int | None = None,
        line: int = 0,
    ) -> None:
        self.seat = seat
        self.player = player
        self.folded_on = folded_on
        self.did_not_bet = did_not_bet
        self.showed = showed
        self.mucked = mucked
        self.won = won
        self.collected_without_showdown = collected_without_showdown
        self.lost = lost
        self.description = description
        self.net = net
        self.line = line


@dataclass(frozen=True)
class PlayerCards(_Record):
    """Everything known about one player's cards by the end of the hand, in deal order.

    For 7-card games the slots are: two down cards and the door card on 3rd street, one up
    card on each of 4th, 5th and 6th, one down card on 7th. A slot is None when the card
    was never seen (an opponent's down card that was not shown)."""

    player: str
    slots: tuple[Card | None, ...]
    """One entry per card dealt to the player, in deal order."""
    face_up: tuple[bool, ...]
    """Parallel to `slots`: whether the card was dealt face up."""

    def __init__(
        self, player: str, slots: tuple[Card | None, ...], face_up: tuple[bool, ...]
    ) -> None:
        self.player = player
        self.slots = slots
        self.face_up = face_up

    @property
    def door_card(self) -> Card | None:
        return self.slots[self.face_up.index(True)] if True in self.face_up else None

    @property
    def up_cards(self) -> tuple[Card, ...]:
        return tuple(
            c for c, up in zip(self.slots, self.face_up, strict=False) if up and c is not None
        )

    @property
    def known(self) -> tuple[Card, ...]:
        return tuple(c for c in self.slots if c is not None)


@dataclass(frozen=True)
class Printed(_Record):
    """Facts about a hand that only a printer needs, to write it back as the site did: kept
    apart from what the rules read (`Hand.printed`)."""

    header_variant: str = "game"
    """Which header form the export used, in the site's own terms (PokerStars "game" for
    `Game #`, "hand" for `Hand #`; Full Tilt "2006"; Winamax "short" …)."""
    clock_text: str = ""
    """The date and time exactly as printed, e.g. "2009/07/16 2:36:31 CET [2009/07/15 20:36:31 ET]"."""

    def __init__(self, header_variant: str = "game", clock_text: str = "") -> None:
        self.header_variant = header_variant
        self.clock_text = clock_text


if __file__.endswith(".py"):  # as source: before `PRINTED` is made (see the note at the top)
    records.swap_inits(Printed)

PRINTED = Printed("", "")
"""A hand built without a site's text (simulated, say) has no printer-only facts: a printer
writes its site's current header form and the clock from `Hand.start_time`."""


@dataclass(frozen=True)
class Hand(_Record):
    """One hand, exactly as the hand history tells it (nothing here is checked or derived
    from poker rules; the replay does that)."""

    site: Site
    hand_id: str
    game: Game
    table: str
    max_seats: int | None
    currency: str | None
    """ISO code for real money ("USD", "EUR"), None for tournament and play chips."""
    small_bet: int
    big_bet: int
    """The stakes (see `structure`). Both 0 when no hand of the file prints them (an iPoker or
    Merge tournament hand in which nobody completed or bet, at a level no other hand of the
    file shows): unknown, see `stakes_known`."""
    start_time: datetime | None
    """Start time in UTC, from the Eastern (ET) clock when printed, else the first clock (the
    clock as printed is in `printed`)."""
    seats: tuple[Seat, ...]
    events: tuple[Event, ...]
    """Every dealing, action and note line in file order."""
    streets: tuple[Street, ...]
    """The street headers present, in order (a street can be dealt with no action)."""
    results: tuple[SeatResult, ...]
    total_pot: int
    rake: int
    main_pot: int | None = None
    side_pots: tuple[int, ...] = ()
    community_card: Card | None = None
    """The single card dealt face up to everyone on 7th street when the deck runs short."""
    ante: int | None = None
    """As seen: the largest "posts the ante" amount (headers do not state it)."""
    bring_in: int | None = None
    """As seen: the "brings in for" amount, if anyone brought in."""
    tournament_id: str | None = None
    tournament_level: str | None = None
    """As printed, e.g. "IV" or "Match Round I, Level IV"."""
    buy_in: str | None = None
    """As printed, e.g. "$200+$15 USD" or "100+9"."""
    mixed_game: str | None = None
    """The mixed-game wrapper, e.g. "8-Game", "HORSE", "Triple Stud"."""
    home_game: str | None = None
    """The club name of a Home Game ("Dazzle's Room")."""
    structure: Structure = Structure.FIXED
    """The betting structure. Fixed and spread limit: `small_bet` and `big_bet` as printed (a
    spread's bottom and top). Pot and no limit: `small_bet` is the smallest bet (the 3rd
    street completion), `big_bet` the smallest bet on the big-bet streets (most sites print
    one minimum: then the same)."""
    chips_in_hundredths: bool = False
    """A hand without a currency whose amounts are hundredths of a chip (KingsClub's chips,
    Winamax play money: "12,686.25"), not whole chips; money of a currency is always in
    its minor units."""
    printed: Printed = PRINTED
    """What only a printer needs (the header form, the clock as printed); the rules never
    read it."""
    house: Site | None = None
    """The card room whose house rules the hand was played by, when the file it was read from
    is in another's format (a PHH file written from PokerStars hands names PokerStars); None:
    the site's own. It picks the rule profile the hand is checked against by default
    (`handlog.check.hand_rules`); what the file prints stays its format's."""
    source: Source | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        site: Site,
        hand_id: str,
        game: Game,
        table: str,
        max_seats: int | None,
        currency: str | None,
        small_bet: int,
        big_bet: int,
        start_time: datetime | None,
        seats: tuple[Seat, ...],
        events: tuple[Event, ...],
        streets: tuple[Street, ...],
        results: tuple[SeatResult, ...],
        total_pot: int,
        rake: int,
        main_pot: int | None = None,
        side_pots: tuple[int, ...] = (),
        community_card: Card | None = None,
        ante: int | None = None,
        bring_in: int | None = None,
        tournament_id: str | None = None,
        tournament_level: str | None = None,
        buy_in: str | None = None,
        mixed_game: str | None = None,
        home_game: str | None = None,
        structure: Structure = Structure.FIXED,
        chips_in_hundredths: bool = False,
        printed: Printed = PRINTED,
        house: Site | None = None,
        source: Source | None = None,
    ) -> None:
        self.site = site
        self.hand_id = hand_id
        self.game = game
        self.table = table
        self.max_seats = max_seats
        self.currency = currency
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.start_time = start_time
        self.seats = seats
        self.events = events
        self.streets = streets
        self.results = results
        self.total_pot = total_pot
        self.rake = rake
        self.main_pot = main_pot
        self.side_pots = side_pots
        self.community_card = community_card
        self.ante = ante
        self.bring_in = bring_in
        self.tournament_id = tournament_id
        self.tournament_level = tournament_level
        self.buy_in = buy_in
        self.mixed_game = mixed_game
        self.home_game = home_game
        self.structure = structure
        self.chips_in_hundredths = chips_in_hundredths
        self.printed = printed
        self.house = house
        self.source = source

    @property
    def stakes_known(self) -> bool:
        """False for a hand whose stakes are printed nowhere (`small_bet` and `big_bet` 0):
        kept, replayed without the checks that need the stakes (no bet was made whose size
        they would judge), stored with 0 stakes for reports to count and name."""
        return self.small_bet > 0 or self.big_bet > 0

    @property
    def clock_text(self) -> str:
        """The date and time exactly as printed (`printed.clock_text`)."""
        return self.printed.clock_text

    @property
    def header_variant(self) -> str:
        """The header form the export used (`printed.header_variant`)."""
        return self.printed.header_variant

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(e for e in self.events if type(e) is Action)

    @property
    def dealt(self) -> tuple[Dealt, ...]:
        return tuple(e for e in self.events if type(e) is Dealt)

    @property
    def notes(self) -> tuple[Note, ...]:
        return tuple(e for e in self.events if type(e) is Note)

    def source_of(self, item: Action | Dealt | Note | Seat | SeatResult) -> Source:
        """Where a record of this hand was read from."""
        file = self.source.file if self.source else "<unknown>"
        return Source(file, item.line, item.line)


if __file__.endswith(".py"):  # running as source, not compiled: see the note at the top
    records.swap_inits(Source, Seat, Action, Dealt, Note, SeatResult, PlayerCards, Hand)
