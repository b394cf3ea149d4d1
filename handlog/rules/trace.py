"""One replay of a hand, observed event by event: the state of the table after every line.

`trace(hand)` runs the full replay (`handlog.rules.replay`) once with its observers and
records, after each event of the hand, what the rules engine's table (`handlog.rules.engine`)
holds: each seat's stack, chips in the pot and on this street, whether it is still in,
all-in, folded or was never dealt in, the cards dealt to it so far, whose turn it is and what
they owe, the pot, and the violations the event raised; and, for each violation, the table
when it was flagged. The replayer page, `handlog show`, the evidence of a flagged hand and the
all-in equities read this instead of replaying a hand another way: the rules live in the
engine only. The equities of an import's hands read only the step at which betting closed with
cards to come, the final cards and the awards: `trace(..., all_in_only=True)` copies the table
only where that step can be and builds that step alone.

Cards are given as the whole history knows them by its end (the hero's down cards, the cards
shown at showdown or in the summary), at the positions they were dealt: a replayer shows an
opponent's down card as soon as it is dealt if the history ever shows it, and never guesses
one it does not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from handlog import records
from handlog.cards import Card
from handlog.holdings import FACE_UP, FIRST_STREET
from handlog.model import Action, ActionKind, Dealt, Event, Hand, Street
from handlog.rules import tables
from handlog.rules.awards import Awards
from handlog.rules.engine import Table
from handlog.rules.profiles import RuleProfile
from handlog.rules.replay import _Replayer
from handlog.rules.tables import UP_POSITIONS, Pot, Replay
from handlog.rules.traits import SiteTraits
from handlog.rules.violations import Violation

# This module is compiled with mypyc (`handlog._native`). The records a trace builds per event
# and per seat (`CardSlot`, `SeatState`, `Step`) and at each flag (`FlagState`) are, like `handlog.model`'s, frozen
# dataclasses with their `__init__` written out: compiled, it fills the fields in C (a frozen
# dataclass's own `__init__` goes through `object.__setattr__` for every field); run as source
# it is swapped at the end of the module (`handlog.records.swap_inits`), which also checks
# that it takes exactly the fields. Mypy calls those assignments assigning to a frozen field
# (error code "misc").

STATUSES = ("in", "all-in", "folded", "out")
"""A seat's status: still in and able to act, all-in, folded, never dealt in."""

_KIND_WORDS: dict[ActionKind, str] = {
    kind: "uncalled" if kind is ActionKind.UNCALLED_BET_RETURNED else kind.value
    for kind in ActionKind
}
"""A step's `kind` for each action's kind (looked up, not read from the enum's `value`)."""

_STREETS: dict[int, Street] = {int(street): street for street in Street}
"""Each street by its number (a dictionary look-up: `Street(n)` is a Python call)."""


@dataclass(frozen=True)
class CardSlot:
    """One card dealt to a player, at its deal position."""

    card: Card | None
    """The card, or None when the history never shows it (an opponent's down card)."""
    face_up: bool
    street: Street
    """The street it was dealt on."""

    def __init__(self, card: Card | None, face_up: bool, street: Street) -> None:
        self.card = card  # type: ignore[misc]
        self.face_up = face_up  # type: ignore[misc]
        self.street = street  # type: ignore[misc]


@dataclass(frozen=True)
class SeatState:
    """One seat after an event."""

    player: str
    seat: int
    stack: int
    """Chips behind (not in the pot), what the player collected so far included."""
    put_in: int
    """Everything in the pot from this player so far (antes included, returns taken off)."""
    this_street: int
    """Chips put in on the current betting street (antes not counted)."""
    collected: int
    """Chips collected from the pot so far (at the showdown)."""
    status: str
    """One of `STATUSES`."""
    cards: tuple[CardSlot, ...]
    """The cards dealt to this player so far, in deal order."""

    def __init__(
        self,
        player: str,
        seat: int,
        stack: int,
        put_in: int,
        this_street: int,
        collected: int,
        status: str,
        cards: tuple[CardSlot, ...],
    ) -> None:
        self.player = player  # type: ignore[misc]
        self.seat = seat  # type: ignore[misc]
        self.stack = stack  # type: ignore[misc]
        self.put_in = put_in  # type: ignore[misc]
        self.this_street = this_street  # type: ignore[misc]
        self.collected = collected  # type: ignore[misc]
        self.status = status  # type: ignore[misc]
        self.cards = cards  # type: ignore[misc]


@dataclass(frozen=True)
class Step:
    """The table after one event of the hand."""

    index: int
    event: Event | None
    """The hand's record of the event; None for what the replay does after the last line
    (a bet returned or pots paid without a line of their own: `SiteTraits`)."""
    line: int
    street: Street
    kind: str
    """"deal", "note", or the action's kind ("ante", "bring_in", "complete", "bet", "raise",
    "call", "check", "fold", "uncalled", "show", "muck", "does_not_show", "collect"); after
    the last line, "uncalled" for a bet the site returns without a line, "collect" for pots
    paid by the rules where the site does not say who collected."""
    player: str | None
    amount: int | None
    """Chips the event moved: put in, returned (uncalled) or collected."""
    pot: int
    """Chips in the pot after the event (what was collected from it taken off)."""
    to_act: str | None
    """Whose turn it is after the event (None between betting rounds and after the last)."""
    to_call: int
    """What `to_act` owes to stay in."""
    current_bet: int
    """The bet to match on this street."""
    seats: tuple[SeatState, ...]
    """Every seat, in seat order."""
    violations: tuple[Violation, ...]
    """Violations flagged at this event's line."""
    betting_closed_with_cards_to_come: bool
    """After this event no more betting is possible (at most one player left in the hand can
    still act, and owes nothing) although cards are still to be dealt: the all-in moment the
    equities are computed at. True from that event on."""

    def __init__(
        self,
        index: int,
        event: Event | None,
        line: int,
        street: Street,
        kind: str,
        player: str | None,
        amount: int | None,
        pot: int,
        to_act: str | None,
        to_call: int,
        current_bet: int,
        seats: tuple[SeatState, ...],
        violations: tuple[Violation, ...],
        betting_closed_with_cards_to_come: bool,
    ) -> None:
        self.index = index  # type: ignore[misc]
        self.event = event  # type: ignore[misc]
        self.line = line  # type: ignore[misc]
        self.street = street  # type: ignore[misc]
        self.kind = kind  # type: ignore[misc]
        self.player = player  # type: ignore[misc]
        self.amount = amount  # type: ignore[misc]
        self.pot = pot  # type: ignore[misc]
        self.to_act = to_act  # type: ignore[misc]
        self.to_call = to_call  # type: ignore[misc]
        self.current_bet = current_bet  # type: ignore[misc]
        self.seats = seats  # type: ignore[misc]
        self.violations = violations  # type: ignore[misc]
        self.betting_closed_with_cards_to_come = betting_closed_with_cards_to_come  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class PotAward:
    """One pot as the rules award it."""

    pot: Pot
    after_rake: int
    """What is paid out of it."""
    shares: dict[str, int]
    """What each winner should collect from it."""
    reason: str
    """The award in words ("the pot goes to Hero with a flush, Queen high"); empty for an
    uncontested pot."""


@dataclass(frozen=True)
class FlagState:
    """The table when a violation was flagged: for a flag about an action, before the
    action's chips moved (unless the flag is about where they went)."""

    violation: Violation
    street: Street
    """The street the replay was on."""
    betting: bool
    """The street is a betting street (not the antes, the showdown or the summary)."""
    to_act: str | None
    """Whose turn it was in the betting round (None outside one, or once the hand was over)."""
    current_bet: int
    """The bet to match on the street."""
    seats: tuple[SeatState, ...]
    """Every seat, in seat order; each seat's `cards` are the up cards it showed then."""
    owed: int | None
    """What the flagged player had to put in to call (`Table.owed`, never below 0); None off
    a betting street or for a flag about no player at the table."""

    def __init__(
        self,
        violation: Violation,
        street: Street,
        betting: bool,
        to_act: str | None,
        current_bet: int,
        seats: tuple[SeatState, ...],
        owed: int | None,
    ) -> None:
        self.violation = violation  # type: ignore[misc]
        self.street = street  # type: ignore[misc]
        self.betting = betting  # type: ignore[misc]
        self.to_act = to_act  # type: ignore[misc]
        self.current_bet = current_bet  # type: ignore[misc]
        self.seats = seats  # type: ignore[misc]
        self.owed = owed  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class HandTrace:
    """A hand, its replay, and the table after each of its events."""

    hand: Hand
    replay: Replay
    steps: tuple[Step, ...]
    final_cards: dict[str, tuple[CardSlot, ...]]
    """Every card position dealt to each player over the hand, with what the history knows."""
    awards: tuple[PotAward, ...]
    """Each pot as the rules award it, in the order the pots were made (main pot first)."""
    unplaced: tuple[Violation, ...]
    """Violations whose line is no event's (the summary's, the hand's first line)."""
    profile: RuleProfile
    """The house rules the hand was replayed under (its own: `handlog.check.hand_rules`)."""
    traits: SiteTraits
    """What its site prints, as the replay took it."""
    flagged: tuple[FlagState, ...] = ()
    """The table when each violation was flagged, in the order of `violations`."""

    @property
    def violations(self) -> tuple[Violation, ...]:
        return self.replay.violations

    def all_in_step(self) -> Step | None:
        """The first step after which betting is closed with cards to come, if any."""
        for step in self.steps:
            if step.betting_closed_with_cards_to_come:
                return step
        return None


@dataclass
class _Raw:
    """What the observer copies at each event (cheap; turned into records at the end)."""

    event: Event | None
    street: Street
    stack: dict[str, int]
    put_in: dict[str, int]
    street_put: dict[str, int]
    collected: dict[str, int]
    to_act: str | None
    to_call: int
    """What `to_act` owes (`Table.owed`)."""
    status: dict[str, str]
    """Each seated player's `Table.status`: in, all-in, folded or out."""
    current_bet: int
    closed: bool
    kind: str = ""
    player: str | None = None
    amount: int | None = None
    line: int = 0

    def __init__(
        self,
        event: Event | None,
        street: Street,
        stack: dict[str, int],
        put_in: dict[str, int],
        street_put: dict[str, int],
        collected: dict[str, int],
        to_act: str | None,
        to_call: int,
        status: dict[str, str],
        current_bet: int,
        closed: bool,
        kind: str = "",
        player: str | None = None,
        amount: int | None = None,
        line: int = 0,
    ) -> None:
        self.event = event
        self.street = street
        self.stack = stack
        self.put_in = put_in
        self.street_put = street_put
        self.collected = collected
        self.to_act = to_act
        self.to_call = to_call
        self.status = status
        self.current_bet = current_bet
        self.closed = closed
        self.kind = kind
        self.player = player
        self.amount = amount
        self.line = line


def trace(
    hand: Hand, profile: RuleProfile, traits: SiteTraits, all_in_only: bool = False
) -> HandTrace:
    """Replay `hand` once under `profile` and `traits` (a hand's own are its site's:
    `handlog.check.hand_rules`) and record the table after each event, and when each
    violation was flagged. With `all_in_only`, only what a hand's all-in equities read
    (`handlog.equity.hands.hand_ev`): `steps` holds the step after which betting closed
    with cards to come alone (as the whole trace has it, `index` included), or none; no
    `flagged` states; the awards' `reason`s are left empty."""
    if all_in_only:
        return _all_in_trace(hand, profile, traits)
    observe = _Observer(hand)
    replayer = _Replayer(hand, profile, traits)
    replayer.step_observer = observe
    replayer.observer = observe.at_flag
    result = replayer.run()
    raws = observe.raws
    _after_the_last_line(raws, replayer, observe)
    final = _final_cards(hand, replayer)
    steps = _steps(hand, raws, final, result.violations)
    placed = {v for step in steps for v in step.violations}
    unplaced = tuple(v for v in result.violations if v not in placed)
    return HandTrace(
        hand,
        result,
        steps,
        final,
        _awards(hand, profile, replayer, result),
        unplaced,
        profile,
        traits,
        tuple(
            FlagState(violation, street, betting, to_act, current_bet, seats, owed)
            for violation, (street, betting, to_act, current_bet, seats, owed) in zip(
                result.violations, observe.flagged, strict=True
            )
        ),
    )


def _all_in_trace(hand: Hand, profile: RuleProfile, traits: SiteTraits) -> HandTrace:
    """`trace(..., all_in_only=True)`: the table copied only where the trace's first step
    with betting closed could be (on a betting street before the last) and is, and after the
    hand's last line (where the replay may still return a bet or pay pots: steps of their
    own); every other event's record holds the event alone."""
    observe = _AllInObserver(hand)
    replayer = _Replayer(hand, profile, traits)
    replayer.step_observer = observe
    result = replayer.run()
    raws = observe.raws
    if observe.at < 0:
        _after_the_last_line(raws, replayer, observe)
    final = _final_cards(hand, replayer)
    violations = result.violations
    steps = _steps(hand, raws, final, violations, observe.at) if observe.at >= 0 else ()
    unplaced: tuple[Violation, ...] = ()
    if violations:
        lines = {event.line for event in hand.events}
        unplaced = tuple(v for v in violations if v.line not in lines)
    return HandTrace(
        hand,
        result,
        steps,
        final,
        _awards(hand, profile, replayer, result, words=False),
        unplaced,
        profile,
        traits,
    )


class _Observer:
    """`trace`'s observer of the replay: after each event, the table's copies (`_Raw`); at
    each flag, the table then. A class, not functions nested in `trace`: compiled (mypyc), a
    nested function and the environment it shares with its outer function hold each other, a
    reference cycle left at every trace with all its records (the hand's events, a `_Raw` an
    event), which only the cycle collector frees (measured: 85 objects an all-in hand of
    KingsClub's corpus)."""

    def __init__(self, hand: Hand) -> None:
        self.raws: list[_Raw] = []
        self.flagged: list[
            tuple[Street, bool, str | None, int, tuple[SeatState, ...], int | None]
        ] = []
        self.last_street = tables.LAST_STREET[hand.game]
        self.first_street = FIRST_STREET[hand.game]
        # `Table.moves` when the last copies of the seats were made, and the players then
        # still in, able to act, and whether one of those owed chips.
        self.moves = -1
        self.in_hand = 0
        self.able = 0
        self.owes = False

    def __call__(self, r: _Replayer, event: Event | None) -> None:
        table = r.table
        street = table.street
        last_street = self.last_street
        betting = self.first_street <= street <= last_street
        moves = table.moves
        raws = self.raws
        if raws and moves == self.moves:
            # No seat changed since the last event (a card dealt, a check, a note): its
            # copies serve again (never changed once made), and so do its counts.
            before = raws[-1]
            stack, put_in, put_now = before.stack, before.put_in, before.street_put
            collected, status = before.collected, before.status
            in_hand, able, owes = self.in_hand, self.able, self.owes
        else:
            in_hand, able, owes = _counts(table)
            self.moves, self.in_hand, self.able, self.owes = moves, in_hand, able, owes
            stack, put_in, put_now, collected, status = _copies(table)
        closed = (
            self.first_street <= street < last_street and in_hand >= 2 and able <= 1 and not owes
        )
        if raws and raws[-1].closed and street <= last_street:
            closed = True  # from the all-in on, to the end of the dealing
        raws.append(
            _raw(
                table,
                event,
                betting and in_hand > 1,
                (stack, put_in, put_now, collected, status),
                closed,
            )
        )

    def at_flag(self, r: _Replayer, violation: Violation) -> None:
        state = flag_state(r, violation)
        self.flagged.append(
            (state.street, state.betting, state.to_act, state.current_bet, state.seats, state.owed)
        )


class _AllInObserver:
    """`_all_in_trace`'s observer of the replay (a class for `_Observer`'s reason): the
    table copied only where betting can close, and after the hand's last line."""

    def __init__(self, hand: Hand) -> None:
        self.raws: list[_Raw] = []
        self.last_street = tables.LAST_STREET[hand.game]
        self.first_street = FIRST_STREET[hand.game]
        self.last_event = len(hand.events) - 1
        self.at = -1
        """The index of the record at which betting closed, once it has."""
        # As `_Observer`'s: `Table.moves` when the table was last counted, and its counts.
        self.moves = -1
        self.in_hand = 0
        self.able = 0
        self.owes = False
        self.empty: dict[str, int] = {}
        self.nobody: dict[str, str] = {}

    def __call__(self, r: _Replayer, event: Event | None) -> None:
        table = r.table
        street = table.street
        raws = self.raws
        index = len(raws)
        closed = False
        in_hand = 0
        looking = self.at < 0 and self.first_street <= street < self.last_street
        if looking or index >= self.last_event:
            moves = table.moves
            if moves != self.moves:
                self.in_hand, self.able, self.owes = _counts(table)
                self.moves = moves
            in_hand = self.in_hand
            closed = looking and in_hand >= 2 and self.able <= 1 and not self.owes
        if closed or index >= self.last_event:
            betting = self.first_street <= street <= self.last_street
            raws.append(_raw(table, event, betting and in_hand > 1, _copies(table), closed))
            if closed:
                self.at = index
        else:
            empty = self.empty
            raws.append(
                _Raw(event, street, empty, empty, empty, empty, None, 0, self.nobody, 0, False)
            )


def _counts(table: Table) -> tuple[int, int, bool]:
    """The players still in (`Table.in_hand`), those of them who can act, and whether any of
    those owes chips: counted, not listed."""
    folded, can_act = table.folded, table.able
    street_put, current_bet = table.street_put, table.current_bet
    in_hand = able = 0
    owes = False
    for p in table.dealt_in:
        if p in folded:
            continue
        in_hand += 1
        if p in can_act:
            able += 1
            if street_put[p] < current_bet:
                owes = True
    return in_hand, able, owes


def _copies(
    table: Table,
) -> tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int], dict[str, str]]:
    """Copies of the table's stacks, chips put in, put in on this street, collected (those
    above 0), and each seated player's `Table.status`, read from the table's sets."""
    folded, all_in, dealt = table.folded, table.all_in, table.dealt_set
    status = {}
    for p in table.order:
        if p not in dealt:
            status[p] = "out"
        elif p in folded:
            status[p] = "folded"
        elif p in all_in:
            status[p] = "all-in"
        else:
            status[p] = "in"
    collected = {p: v for p, v in table.collected.items() if v}
    return dict(table.stack), dict(table.put_in), dict(table.street_put), collected, status


def _raw(
    table: Table,
    event: Event | None,
    contested: bool,
    copies: tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int], dict[str, str]],
    closed: bool,
) -> _Raw:
    """What the observer records after `event`: the table's copies (`_copies`), whose turn it
    is on a betting street with two players or more in (`contested`), and whether betting is
    closed with cards to come."""
    to_act = table.turn() if event is not None and contested else None
    stack, put_in, put_now, collected, status = copies
    return _Raw(
        event,
        table.street,
        stack,
        put_in,
        put_now,
        collected,
        to_act,
        max(0, table.owed(to_act)) if to_act is not None else 0,
        status,
        table.current_bet,
        closed,
    )


def flag_state(replayer: _Replayer, violation: Violation) -> FlagState:
    """The table when `violation` was flagged, read from the replayer that flagged it (an
    observer of `rules.replay.replay`)."""
    table = replayer.table
    hand = replayer.hand
    street, betting, turn, owed = flag_point(replayer, violation)
    return FlagState(
        violation, street, betting, turn, table.current_bet, _seats_when_flagged(hand, table), owed
    )


def flag_point(
    replayer: _Replayer, violation: Violation
) -> tuple[Street, bool, str | None, int | None]:
    """The street, whether it is a betting street, whose turn it was and what the flagged
    player owed when `violation` was flagged (as `FlagState` has them), without the seats: the
    import's evidence (`handlog.ingest.snapshot`) reads those from the table itself."""
    table = replayer.table
    hand = replayer.hand
    street = table.street
    betting = FIRST_STREET[hand.game] <= street <= tables.LAST_STREET[hand.game]
    turn = None
    if betting and table.round_open and not table.hand_over:
        turn = table.to_act()
    owed = None
    player = violation.player
    if betting and player is not None and player in table.street_put:
        owed = max(0, table.owed(player))
    return street, betting, turn, owed


def table_seats(
    hand: Hand, table: Table
) -> list[tuple[str, int, int, int, int, int, str, list[Card]]]:
    """Every seat at the table as the table has it now (read, never changed): the player,
    the seat number, the chips in front (without what was collected), put in, put in this
    street, collected, the status and the up cards shown. `flag_state`'s seats and the
    import's evidence (`handlog.ingest.snapshot`) are both read from it."""
    put_in, stack, street_put = table.put_in, table.stack, table.street_put
    collected, up_cards, status = table.collected, table.up_cards, table.status
    seats = []
    for seat in hand.seats:
        name = seat.name
        put = put_in.get(name)
        if put is None:  # not at the table
            continue
        seats.append(
            (
                name,
                seat.number,
                stack.get(name, 0),
                put,
                street_put.get(name, 0),
                collected.get(name, 0),
                status(name),
                up_cards.get(name, []),
            )
        )
    return seats


def _seats_when_flagged(hand: Hand, table: Table) -> tuple[SeatState, ...]:
    """Every seat as the table has it, the up cards each player shows as its cards."""
    up_positions = UP_POSITIONS[hand.game]
    first = FIRST_STREET[hand.game]
    return tuple(
        SeatState(
            name,
            number,
            stack + collected,
            put,
            this_street,
            collected,
            status,
            tuple(
                CardSlot(card, True, _street_of(up_positions[index], first))
                for index, card in enumerate(ups)
            ),
        )
        for name, number, stack, put, this_street, collected, status, ups in table_seats(
            hand, table
        )
    )


def _after_the_last_line(
    raws: list[_Raw], r: _Replayer, observe: Callable[[_Replayer, Event | None], None]
) -> None:
    """What the replay did after the hand's last line, as steps of their own: a bet nobody
    called returned without a line (sites that print none), pots paid by the rules (sites
    that do not say who collected)."""
    if not raws:
        return
    before = raws[-1]
    table = r.table
    returned = {p: before.put_in.get(p, 0) - v for p, v in table.put_in.items()}
    for player, amount in returned.items():
        if amount > 0:
            observe(r, None)
            raw = raws[-1]
            raw.kind, raw.player, raw.amount, raw.line = "uncalled", player, amount, before.line
            raw.collected = dict(before.collected)
    paid = {p: v - before.collected.get(p, 0) for p, v in table.collected.items()}
    for player, amount in paid.items():
        if amount > 0:
            latest = raws[-1]
            observe(r, None)
            raw = raws[-1]
            raw.kind, raw.player, raw.amount, raw.line = "collect", player, amount, before.line
            raw.collected = {**latest.collected, player: latest.collected.get(player, 0) + amount}


def _final_cards(hand: Hand, r: _Replayer) -> dict[str, tuple[CardSlot, ...]]:
    """Each player's cards by deal position, with the street each was dealt on, as far as the
    player was dealt (to the street they folded on, or the last; a community card takes the
    place of everyone's last card)."""
    layout = FACE_UP[hand.game]
    first = FIRST_STREET[hand.game]
    last = tables.LAST_STREET[hand.game]
    # The street headers count too: a street whose deal lines show no card (Winamax's `[X]`)
    # leaves no event, yet its cards are dealt (and shown at the showdown).
    headers = [street for street in hand.streets if first <= street <= last]
    reached = max([*r.table.streets_dealt, *headers], default=first)
    out: dict[str, tuple[CardSlot, ...]] = {}
    for seat in hand.seats:
        name = seat.name
        if name not in r.table.dealt_in:
            continue
        until = min(r.folded_early.get(name, reached), reached)
        count = _dealt_by(
            int(until), len(layout), hand.community_card is not None and until == last
        )
        row = r.slots.get(name, [])
        out[name] = tuple(
            CardSlot(row[i] if i < len(row) else None, layout[i], _street_of(i, first))
            for i in range(count)
        )
    return out


def _dealt_by(street: int, size: int, community: bool) -> int:
    """Cards a player still in has been dealt once the street numbered `street` is dealt (the
    n-th street deals the n-th card, in 7-card and 5-card stud alike)."""
    count = street if street < size else size
    if count < 0:
        count = 0
    if community and count == size:
        count -= 1  # the last card is the community card, dealt to nobody's own hand
    return count


def _street_of(position: int, first: Street) -> Street:
    return first if position < int(first) else _STREETS[position + 1]


def _steps(
    hand: Hand,
    raws: list[_Raw],
    final: dict[str, tuple[CardSlot, ...]],
    violations: tuple[Violation, ...],
    only: int = -1,
) -> tuple[Step, ...]:
    """A step for each raw record; with `only` (0 or more), the step of that record alone
    (the records before it read only for their events: who folded when, the lines whose
    violations went to an earlier step)."""
    game = hand.game
    size = len(FACE_UP[game])
    first = int(FIRST_STREET[game])
    last = int(tables.LAST_STREET[game])
    community = hand.community_card is not None
    by_line: dict[int, list[Violation]] = {}
    for violation in violations:
        by_line.setdefault(violation.line, []).append(violation)
    placed: set[int] = set()
    steps: list[Step] = []
    fold_street: dict[str, int] = {}  # the number of the street each player folded on
    seated = [(seat.name, seat.number, final.get(seat.name, ())) for seat in hand.seats]
    # A seat's state is often the same after the next event (another player acted): the same
    # (immutable) record then serves both steps (with the count of cards it was made for).
    previous: dict[str, tuple[int, SeatState]] = {}
    # Nor do the seats change at all from one step to the next when the table's were not
    # copied again for it (`trace`'s observer), on the same street and without a fold: the
    # same tuple of them serves both.
    last_raw: _Raw | None = None
    last_seats: tuple[SeatState, ...] = ()
    for index, raw in enumerate(raws):
        event = raw.event
        if event is None:
            line, kind, player, amount = raw.line, raw.kind, raw.player, raw.amount
            street = raw.street
        else:
            line, street, kind, player, amount = _describe_event(event)
        found: tuple[Violation, ...] = ()
        if event is not None and line in by_line and line not in placed:
            placed.add(line)
            found = tuple(by_line[line])
        dealt = int(raw.street)
        if kind == "fold" and player is not None:
            fold_street.setdefault(player, dealt)
        if only >= 0 and index != only:
            continue
        betting_street = (dealt if dealt > first else first) if dealt <= last else last
        dealing = dealt >= first
        if (
            last_raw is not None
            and kind != "fold"
            and raw.street == last_raw.street
            and raw.put_in is last_raw.put_in
            and raw.stack is last_raw.stack
            and raw.street_put is last_raw.street_put
            and raw.collected is last_raw.collected
            and raw.status is last_raw.status
        ):
            pot = steps[-1].pot
        else:
            last_seats, pot = _seats_of(
                raw, seated, previous, fold_street, dealing, betting_street, size, last, community
            )
        last_raw = raw
        steps.append(
            Step(
                index,
                event,
                line,
                street,
                kind,
                player,
                amount,
                pot,
                raw.to_act,
                raw.to_call,
                raw.current_bet,
                last_seats,
                found,
                raw.closed,
            )
        )
    return tuple(steps)


def _seats_of(
    raw: _Raw,
    seated: list[tuple[str, int, tuple[CardSlot, ...]]],
    previous: dict[str, tuple[int, SeatState]],
    fold_street: dict[str, int],
    dealing: bool,
    betting_street: int,
    size: int,
    last: int,
    community: bool,
) -> tuple[tuple[SeatState, ...], int]:
    """Every seat after the event `raw` recorded, and the pot then: a seat whose fields are
    those of its state in `previous` (its last, with the count of cards it was made for) is
    that state again."""
    put_in, stack, street_put = raw.put_in, raw.stack, raw.street_put
    collected, status_of = raw.collected, raw.status
    seats = []
    for name, number, slots in seated:
        put = put_in.get(name)
        if put is None:
            continue
        status = status_of.get(name, "out")
        count = 0
        if status != "out" and dealing:
            until = fold_street.get(name, betting_street)
            if until > betting_street:
                until = betting_street
            count = _dealt_by(until, size, community and until == last)
        got = collected.get(name, 0)
        chips = stack.get(name, 0) + got
        this_street = street_put.get(name, 0)
        known = previous.get(name)
        if known is not None:
            known_count, state = known
            if (
                known_count == count
                and state.stack == chips
                and state.put_in == put
                and state.this_street == this_street
                and state.collected == got
                and state.status == status
            ):
                seats.append(state)
                continue
        state = SeatState(name, number, chips, put, this_street, got, status, slots[:count])
        previous[name] = (count, state)
        seats.append(state)
    pot = 0
    for chips in put_in.values():
        pot += chips
    for chips in collected.values():
        pot -= chips
    return tuple(seats), pot


def _describe_event(event: Event) -> tuple[int, Street, str, str | None, int | None]:
    """The event's line, street, kind in words, player and chips moved (each record read as
    its own class: compiled, as fields of a known struct)."""
    if type(event) is Action:
        return event.line, event.street, _KIND_WORDS[event.kind], event.player, event.amount
    if type(event) is Dealt:
        return event.line, event.street, "deal", event.player, None
    return event.line, event.street, "note", event.player, None


def _awards(
    hand: Hand, profile: RuleProfile, r: _Replayer, result: Replay, words: bool = True
) -> tuple[PotAward, ...]:
    """Each pot as the rules award it; without `words`, every reason left empty (describing
    the hands costs more than ranking them)."""
    pots = list(result.pots)
    if not pots:
        return ()
    awards = Awards(hand, profile, pots, r.table.seat_index, tables.known_cards(r.shows, hand))
    distributable = awards.distributable()
    if not words:
        awards.expected(distributable)
        return tuple(
            PotAward(pot, amount, shares, "")
            for pot, amount, shares in zip(pots, distributable, awards.shares, strict=True)
        )
    return tuple(
        PotAward(pot, amount, shares, reason)
        for pot, amount, (shares, reason) in zip(
            pots, distributable, awards.by_pot(distributable), strict=True
        )
    )


if __file__.endswith(".py"):  # running as source, not compiled: see the note at the top
    records.swap_inits(CardSlot, SeatState, Step, FlagState)


__all__ = [
    "STATUSES",
    "CardSlot",
    "FlagState",
    "HandTrace",
    "PotAward",
    "SeatState",
    "Step",
    "trace",
]
