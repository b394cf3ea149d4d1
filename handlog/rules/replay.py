"""Replaying a parsed hand under the rules of its game and house, and checking every line.

`replay(hand, profile)` walks the hand action by action: who must act, what they owe, what
the limit allows, when a street is complete; then builds the pots from what each player put
in, decides the winners from the cards (cards speak) and compares that with what the hand
history says was collected. Every breach is a `Violation`; one does not hide the others,
since the replay goes on from what the hand history says happened.

A hand that breaks no rule is replayed first by a fast path (`handlog.rules.fast`) that gives
up at anything unusual; the full replay (`_Replayer`) then runs, and it is the specification
the fast path must agree with.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import prod
from operator import attrgetter
from typing import TypeVar

from handlog.cards import DECK, Card, format_cards
from handlog.holdings import FACE_UP, FIRST_STREET
from handlog.model import Action, ActionKind, Dealt, Game, Hand, Seat, Street
from handlog.parse.money import CURRENCY_SIGNS, format_amount
from handlog.records import record
from handlog.rules import evaluate
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.violations import Violation

LAST_STREET = {
    Game.STUD: Street.SEVENTH,
    Game.STUD8: Street.SEVENTH,
    Game.RAZZ: Street.SEVENTH,
    Game.STUD5: Street.FIFTH,
}
BIG_BET_STREETS = {
    Game.STUD: frozenset({Street.FIFTH, Street.SIXTH, Street.SEVENTH}),
    Game.STUD8: frozenset({Street.FIFTH, Street.SIXTH, Street.SEVENTH}),
    Game.RAZZ: frozenset({Street.FIFTH, Street.SIXTH, Street.SEVENTH}),
    Game.STUD5: frozenset({Street.FOURTH, Street.FIFTH}),
}
CARDS_PER_PLAYER = {game: len(layout) for game, layout in FACE_UP.items()}
DECK_SIZE = 52


@record
class Pot:
    """One pot as built from contributions."""

    amount: int
    """Chips in it before rake."""
    eligible: tuple[str, ...]
    """Players who put chips in it and did not fold."""


@record
class Replay:
    """What the replay of one hand found."""

    hand: Hand
    violations: tuple[Violation, ...]
    pots: tuple[Pot, ...]
    put_in: dict[str, int]
    """Everything each player put in (antes included), less uncalled bets returned."""
    collected: dict[str, int]
    net: dict[str, int]
    """collected - put_in, per player; sums to -rake."""
    expected_collect: dict[str, int]
    """What each player should have collected, by the rules and the cards."""
    won_high: frozenset[str] = frozenset()
    """Players who, by the rules and the cards, win (a share of) the high half of a pot, or of
    a whole pot: in stud and razz every pot winner, in stud8 the best high hand of each pot
    (the whole pot when no low qualifies), and whoever takes a pot uncontested."""
    won_low: frozenset[str] = frozenset()
    """Players who win (a share of) the low half of a stud8 pot; nobody in stud and razz."""

    @property
    def total_pot(self) -> int:
        return sum(self.put_in.values())

    @property
    def rake(self) -> int:
        return self.hand.rake

    @property
    def illegal(self) -> bool:
        return any(not v.mis_split for v in self.violations)

    @property
    def mis_split(self) -> bool:
        return any(v.mis_split for v in self.violations)

    @property
    def status(self) -> str:
        return "flagged" if self.violations else "ok"


def replay(hand: Hand, profile: RuleProfile) -> Replay:
    """Replay `hand` under `profile` and report what breaks the rules."""
    clean = _fast.replay_clean(hand, profile)  # the fast path: see handlog.rules.fast
    return clean if clean is not None else _Replayer(hand, profile).run()


_SEVENTH = Street.SEVENTH
_FOLD, _CHECK, _CALL, _BRING_IN = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BRING_IN,
)

_BRING_IN_KEYS = {game: {card: evaluate.bring_in_key(card, game) for card in DECK} for game in Game}
"""`evaluate.bring_in_key` of every card in every game, looked up rather than recomputed."""

_BRING_IN_VALUES = {
    game: {card: value for value, card in enumerate(sorted(DECK, key=keys.__getitem__))}
    for game, keys in _BRING_IN_KEYS.items()
}
"""The order of `_BRING_IN_KEYS` as integers (every card's key differs): faster to compare."""

_UP_CARDS_BEFORE = {
    game: tuple(sum(layout[:position]) for position in range(len(layout)))
    for game, layout in FACE_UP.items()
}
"""For each deal position, how many face-up cards come before it (its index among the up
cards)."""
assert all(
    layout[layout.index(True) : layout.index(True) + sum(layout)] == (True,) * sum(layout)
    for layout in FACE_UP.values()
), "the card checks take the up cards to be dealt one after the other"


_UP_POSITIONS = {
    game: tuple(i for i, up in enumerate(layout) if up) for game, layout in FACE_UP.items()
}
"""The deal positions of the face-up cards."""

_SEAT_NUMBER = attrgetter("number")
_NUMBER_AND_NAME = attrgetter("number", "name")


@dataclass(frozen=True, slots=True)
class _Lineup:
    """The seating of a table, shared by the hands dealt to the same players in the same
    seats (a session's hands mostly are): worked out once, never changed."""

    order: list[str]
    """Names in seat order."""
    seat_index: dict[str, int]
    clockwise_after: dict[str, list[str]]
    """Each player's followers clockwise, ending with the player."""


_LINEUPS: dict[tuple[tuple[int, str], ...], _Lineup] = {}


def _lineup(seats: tuple[Seat, ...]) -> _Lineup:
    key = tuple(map(_NUMBER_AND_NAME, seats))
    found = _LINEUPS.get(key)
    if found is None:
        order = [seat.name for seat in sorted(seats, key=_SEAT_NUMBER)]
        seat_index = {name: index for index, name in enumerate(order)}
        around = order * 2
        clockwise_after = {
            name: around[index + 1 : index + 1 + len(order)] for name, index in seat_index.items()
        }
        if len(_LINEUPS) >= 10_000:  # a bound on memory over a long import
            _LINEUPS.clear()
        found = _LINEUPS[key] = _Lineup(order, seat_index, clockwise_after)
    return found


def _showing_rank_of(card: Card, razz: bool) -> int:
    return 1 if razz and card.rank == 14 else card.rank


_SHOWING_VALUES = {
    razz: {card: _showing_rank_of(card, razz) * 4 + card.suit for card in DECK}
    for razz in (False, True)
}
"""Each card's rank (ace low in razz) times four plus its suit: the biggest value is the best
suit of the top rank."""

_RANK_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43)
_SHOWING_PRIMES = {
    razz: {card: _RANK_PRIMES[_showing_rank_of(card, razz) - 1] for card in DECK}
    for razz in (False, True)
}
"""A prime for each card's rank (ace low in razz): the product of a hand's primes names its
multiset of ranks, whatever the order and the number of cards."""

_SHOWING_KEYS: dict[tuple[bool, int], dict[int, tuple[object, ...]]] = {
    (razz, sign): {} for razz in (False, True) for sign in (1, -1)
}
"""Showing-hand keys (`_Replayer._showing_key`) by the product of the ranks' primes times four
plus the suit of the top card, for razz or not and each sign of the suit."""


class _Replayer:
    """The state of one hand while it is replayed.

    Hands that break a rule (and the few clean ones the fast path leaves alone) come here, so
    the state the betting needs on every action is still kept ready rather than recomputed:
    the players able to act (`able`), the seats after each player in clockwise order, each
    player's showing-hand key until their up cards change. The card checks run in the same
    pass over the events as the betting, and the later checks read what that pass gathered
    (shows, early folds) instead of walking the events again."""

    # -- observer hook (evidence, see handlog.evidence) -------------------------------------
    # Called with the replayer and each violation as it is flagged, so that a caller can
    # record what the replay knew at that moment. None (the default, and always in
    # `replay`): no call, no cost. Not a rule: it must not change the replayer's state.
    observer: Callable[[_Replayer, Violation], None] | None = None

    def __init__(self, hand: Hand, profile: RuleProfile) -> None:
        self.hand = hand
        self.profile = profile
        game = self.game = hand.game
        self.first_street = FIRST_STREET[game]
        self.last_street = LAST_STREET[game]
        self.big_bet_streets = BIG_BET_STREETS[game]
        self.face_up = FACE_UP[game]
        self.up_cards_before = _UP_CARDS_BEFORE[game]
        self.up_positions = _UP_POSITIONS[game]
        self.first_up = self.up_positions[0]  # the up cards are dealt one after the other
        razz = game is Game.RAZZ
        self.showing_values = _SHOWING_VALUES[razz]
        self.showing_primes = _SHOWING_PRIMES[razz]
        # evaluate.showing_rank negates the suit in razz (the lower suit first); by default
        # the replay turns it round again (see RuleProfile.razz_lower_suit_first).
        self.showing_suit_sign = -1 if razz and profile.razz_lower_suit_first else 1
        self.showing_memo = _SHOWING_KEYS[razz, self.showing_suit_sign]
        self.symbol = CURRENCY_SIGNS.get(hand.currency) if hand.currency else None
        self.violations: list[Violation] = []
        seats = hand.seats
        lineup = _lineup(seats)
        order = self.order = lineup.order
        self.seat_index = lineup.seat_index
        self.clockwise_after = lineup.clockwise_after
        """Each player's followers clockwise, ending with the player."""
        self.stack = {seat.name: seat.stack for seat in seats}
        self.put_in = dict.fromkeys(order, 0)
        self.collected = dict.fromkeys(order, 0)
        self.folded: set[str] = set()
        self.all_in: set[str] = set()
        self.dealt_in: list[str] = []
        self.able: set[str] = set()
        """Dealt in, not folded, not all-in: the players who can still act."""
        self.up_cards: dict[str, list[Card]] = {name: [] for name in order}
        self.showing_keys: dict[str, tuple[object, ...]] = {}
        """Showing-hand key of each player's up cards, dropped when they change."""
        self.door: dict[str, Card] = {}
        self.anted: set[str] = set()
        # Card checks run in the same pass as the betting (one walk over the events), but
        # their violations are reported after the betting's and the antes', as one group.
        size = self.card_count = CARDS_PER_PLAYER[game]
        self.slots: dict[str, list[Card | None]] = {name: [None] * size for name in order}
        """Each player's cards by deal position, as first seen."""
        self.owner: dict[Card, tuple[str, int]] = {}
        """Who holds each card seen, at which deal position."""
        self.up_count = dict.fromkeys(order, 0)
        """Up cards dealt to each player so far (as the dealing lines count them)."""
        self.card_street: Street | None = None
        """The street of the card line last checked (None: none yet)."""
        self.card_flags: list[tuple[str, Street | None, int, str | None, str, object, object]] = []
        """Card violations found during the pass, reported after the others (street None: the
        street the replay ended on)."""
        self.shows: list[Action] = []
        """Show lines with cards: the showdown hands and their descriptions."""
        self.folded_early: dict[str, Street] = {}
        """Players who folded before the last street, and the street they folded on."""
        """Players with a fold line before the last street (whether or not the fold counted)."""
        # betting round
        self.street: Street = Street.ANTES
        self.street_put = dict.fromkeys(order, 0)
        self.current_bet = 0
        self.bets = 0
        self.big_bet_made = False
        self.pending: set[str] = set()
        self.last_actor: str | None = None
        self.aggressor: str | None = None
        self.round_open = False
        self.started_with = 0
        self.reopened_for: set[str] = set()
        self.double_bet = False
        self.returned = False
        self.hand_over = False
        self.streets_dealt: list[Street] = []

    # -- reporting -------------------------------------------------------------------------

    def money(self, value: int) -> str:
        return format_amount(value, self.symbol)

    def flag(
        self,
        code: str,
        line: int,
        player: str | None,
        message: str,
        expected: object = None,
        actual: object = None,
    ) -> None:
        self.violations.append(
            Violation(
                code,
                self.street if self.street is not Street.ANTES else None,
                line or self._hand_line(),
                player,
                message,
                None if expected is None else str(expected),
                None if actual is None else str(actual),
            )
        )
        if self.observer is not None:  # the observer hook (see `observer`)
            self.observer(self, self.violations[-1])

    def _hand_line(self) -> int:
        return self.hand.source.line if self.hand.source else 0

    # -- driving -------------------------------------------------------------------------

    def run(self) -> Replay:
        hand = self.hand
        handlers = _ACTION_HANDLERS
        dealt = self._dealt
        current = self.street  # only _next_street changes it during the loop
        for event in hand.events:
            street = event.street
            if street != current and street <= _SEVENTH:
                self._next_street(street, event.line)
                current = street
            if type(event) is Action:
                handlers[event.kind](self, event)
            elif type(event) is Dealt:
                dealt(event)
            # Notes change nothing: the replay decides the double bet from the up cards itself.
        self._close_round(last=True)
        self._check_antes()
        self._finish_card_checks()
        pots = self._pots()
        awards = _Awards(hand, self.profile, pots, self.seat_index, _known_cards(self.shows, hand))
        expected = awards.check(self)
        self._check_descriptions()
        collected = self.collected
        put_in = self.put_in
        net = {name: collected[name] - put_in[name] for name in self.order}
        return Replay(
            hand,
            tuple(self.violations),
            tuple(pots),
            put_in,
            collected,
            net,
            expected,
            frozenset(awards.high_winners),
            frozenset(awards.low_winners),
        )

    # -- streets ---------------------------------------------------------------------------

    def _next_street(self, street: Street, line: int) -> None:
        if self.street >= self.first_street:
            self._close_round(last=False, line=line)
        self.street = street
        if street > _SEVENTH:  # showdown or summary
            return
        self.streets_dealt.append(street)
        self.street_put = dict.fromkeys(self.order, 0)
        self.current_bet = 0
        self.bets = 0
        self.big_bet_made = False
        self.last_actor = None
        self.aggressor = None
        self.returned = False
        self.round_open = False
        self.double_bet = False
        if self.hand_over and street <= self.last_street:
            self.flag(
                "ROUND_INCOMPLETE",
                line,
                None,
                f"{street.label} is dealt although only one player is left in the hand",
            )

    def _active(self) -> list[str]:
        """Players still in the hand and able to act, in seat order."""
        able = self.able
        return [p for p in self.dealt_in if p in able]

    def _in_hand(self) -> list[str]:
        return [p for p in self.dealt_in if p not in self.folded]

    def _deal_in(self, player: str) -> None:
        """A player's first ante or card: they are in the hand (folds and all-ins come later)."""
        dealt_in = self.dealt_in
        index = self.seat_index
        if not dealt_in or index[dealt_in[-1]] < index[player]:
            dealt_in.append(player)  # antes and cards come in seat order: the usual case
        else:
            insort(dealt_in, player, key=index.__getitem__)  # kept in seat order
        self.able.add(player)

    def _open_round(self, line: int) -> None:
        """Set up the betting round at its first betting action, once the street's cards
        are known (the first actor on later streets depends on them)."""
        self.round_open = True
        able = self.able
        self.pending = set(able)
        self.started_with = len(able)
        self.reopened_for = set(able)
        if self.street == self.first_street:
            self.expected_first = self._bring_in_player()
        else:
            self.expected_first = self._first_actor()
            if (
                self.street == Street.FOURTH
                and self.profile.double_bet_allowed(self.game)
                and any(_has_pair(self.up_cards[p]) for p in self._in_hand())
            ):
                self.double_bet = True

    def _bring_in_player(self) -> str | None:
        door = self.door
        keys = _BRING_IN_KEYS[self.game]
        with_door = [p for p in self.dealt_in if p in door]
        if not with_door:
            return None
        return max(with_door, key=lambda p: keys[door[p]])

    def _showing_key(self, cards: list[Card]) -> tuple[object, ...]:
        """`evaluate.showing_rank` of a player's up cards, in razz with the suit turned round
        unless the profile says that the lower suit acts first. Every player needs one on
        every street, so it comes from a memo by the product of the ranks' primes (which
        names the multiset of ranks) and the suit of the card with the biggest value (rank,
        then suit): a few tens of thousands of keys cover every showing hand."""
        code = prod(map(self.showing_primes.__getitem__, cards)) * 4 + (
            max(map(self.showing_values.__getitem__, cards)) & 3
        )
        memo = self.showing_memo
        found = memo.get(code)
        if found is None:
            ranks = evaluate.showing_rank(cards, self.game)[:2]
            found = memo[code] = (*ranks, self.showing_suit_sign * (code & 3))
        return found

    def _first_actor(self) -> str | None:
        community = self.hand.community_card
        with_community = self.street == _SEVENTH and community is not None
        cached = self.showing_keys
        folded = self.folded
        keys: dict[str, tuple[object, ...]] = {}
        for p in self.dealt_in:
            if p in folded:
                continue
            ups = self.up_cards[p]
            if not ups:
                continue
            if with_community:
                keys[p] = self._showing_key([*ups, community])  # type: ignore[list-item]
            else:
                key = cached.get(p)
                if key is None:
                    key = cached[p] = self._showing_key(ups)
                keys[p] = key
        if not keys:
            return None
        # Equal keys: the first in seat order (`max` keeps the first of equals).
        best = max(keys, key=keys.__getitem__)
        if self.profile.first_actor_tie is TieBreak.CLOCKWISE:
            tied = [p for p in keys if keys[p][:2] == keys[best][:2]]
            best = min(tied, key=self.seat_index.__getitem__)
        if best in self.all_in:  # an all-in player cannot act: the next one clockwise does
            best = self._next_after(best) or best
        return best

    def _clockwise_key(self, player: str) -> int:
        return self.seat_index[player]

    def _next_after(self, player: str) -> str | None:
        """The next player clockwise from `player` who still has to act this round."""
        pending = self.pending
        for candidate in self.clockwise_after[player]:
            if candidate in pending:
                return candidate
        return None

    def _expected_actor(self) -> str | None:
        player = self.last_actor
        if player is None:
            player = self.expected_first
            if player is None or player in self.pending:
                return player
        return self._next_after(player)

    def _close_round(self, last: bool, line: int = 0) -> None:
        """At the end of a street: was everyone who had to act heard?"""
        if self.street < self.first_street or self.street > _SEVENTH:
            return
        # Every fold is by a player dealt in, so this counts the players still in the hand.
        if len(self.dealt_in) - len(self.folded) <= 1:
            waiting: list[str] = []
        elif not self.round_open:
            # Nobody acted: fine only when at most one player can still act.
            able = self._active()
            waiting = able if len(able) >= 2 or (able and self._owes(able[0])) else []
        else:
            pending = self.pending
            waiting = [p for p in self.order if p in pending] if pending else []
        if waiting:
            names = ", ".join(waiting)
            self.flag(
                "ROUND_INCOMPLETE",
                line or self._hand_line(),
                waiting[0],
                f"betting on {self.street.label} ended before {names} acted",
            )
        self._check_uncalled_due()

    def _owes(self, player: str) -> bool:
        return self.street_put[player] < self.current_bet

    # -- dealing -------------------------------------------------------------------------

    def _dealt(self, event: Dealt) -> None:
        player = event.player
        new = event.new
        # What the betting needs: who is dealt in, the door cards and the up cards (for the
        # bring-in and the first actor), by the street the replay is on.
        if self.street == self.first_street:
            if player not in self.dealt_in:
                self._deal_in(player)
            if new:
                door = new[-1]
                self.door[player] = door
                self.up_cards[player] = [door]
                self.showing_keys.pop(player, None)
        elif new:
            position = event.street - 1
            if self.face_up[position]:
                # By deal position, so that a repeated "Dealt to" line cannot add a card.
                ups = self.up_cards[player]
                index = self.up_cards_before[position]
                if index < len(ups):
                    ups[index] = new[-1]
                else:
                    ups.append(new[-1])
                self.showing_keys.pop(player, None)
        # The card checks, by the street the line is on. Nearly every line deals one card
        # never seen before, after repeating the player's earlier cards as they were seen: that
        # case is settled here; anything else goes to `_check_dealt_cards`, which flags.
        street = event.street
        row = self.slots.get(player)
        if len(new) == 1 and row is not None:
            card = new[0]
            if street == self.first_street:
                position = self.first_up
                repeats_match = True
            else:
                position = street - 1
                previous = event.previous
                count = len(previous)
                if count == position:  # the hero's line: every card so far
                    repeats_match = tuple(row[:count]) == previous
                elif count == self.up_count[player]:  # an opponent's: the up cards so far
                    shown = previous[: len(self.up_positions)]
                    first_up = self.first_up
                    repeats_match = tuple(row[first_up : first_up + len(shown)]) == shown
                else:
                    repeats_match = False
            if (
                repeats_match
                and position < self.card_count
                and row[position] is None
                and card not in self.owner
                and card is not self.hand.community_card
            ):
                self.card_street = street
                self.owner[card] = (player, position)
                row[position] = card
                if street == self.first_street:
                    self.up_count[player] = 1
                elif self.face_up[position]:
                    self.up_count[player] += 1
                return
        self._check_dealt_cards(event)

    # -- cards -----------------------------------------------------------------------------
    # Duplicates, cards that change, wrong counts, the community card. Checked line by line
    # as the events are walked; the violations wait in `card_flags` until the end.

    def _card_flag(
        self,
        code: str,
        line: int,
        player: str | None,
        message: str,
        expected: object = None,
        actual: object = None,
    ) -> None:
        self.card_flags.append((code, self.card_street, line, player, message, expected, actual))

    def _see(self, player: str, position: int, card: Card, line: int) -> None:
        """A sighting of `card` at deal `position` of `player`'s cards."""
        row = self.slots.get(player)
        if row is None or not 0 <= position < self.card_count:
            return
        known = row[position]
        if known is not None and known != card:
            self._card_flag(
                "CARDS_CHANGED",
                line,
                player,
                f"{player}'s card {position + 1} was {known}, now shows as {card}",
                known,
                card,
            )
            return
        if known is None:
            holder = self.owner.get(card)
            community = self.hand.community_card
            if holder is not None and holder != (player, position):
                other = holder[0]
                where = f"{other}'s hand" if other != player else f"{player}'s hand twice"
                self._card_flag(
                    "DUPLICATE_CARD",
                    line,
                    player,
                    f"{card} dealt to {player} is already in {where}",
                    None,
                    card,
                )
            elif community is not None and card == community:
                self._card_flag(
                    "DUPLICATE_CARD",
                    line,
                    player,
                    f"{card} dealt to {player} is also the community card",
                    None,
                    card,
                )
            self.owner[card] = (player, position)
            row[position] = card

    def _see_run(self, player: str, start: int, cards: tuple[Card, ...], line: int) -> None:
        """`_see` for cards at consecutive positions from `start`. Most are repeats of cards
        already seen in the same places (every "Dealt to" line repeats the earlier ones),
        which need no check."""
        row = self.slots.get(player)
        if row is None or tuple(row[start : start + len(cards)]) == cards:
            return
        size = self.card_count
        for position, card in enumerate(cards, start):
            if position >= size or row[position] is not card:
                self._see(player, position, card, line)

    def _check_dealt_cards(self, event: Dealt) -> None:
        player, street = event.player, event.street
        self.card_street = street
        new = event.new
        size = self.card_count
        if street == self.first_street:
            if len(new) not in (1, 3 if size == 7 else 2):
                self._card_flag(
                    "CARD_COUNT",
                    event.line,
                    player,
                    f"{player} is dealt {len(new)} cards on {street.label}",
                )
                return
            if len(new) == 1:
                self._see(player, self.up_positions[0], new[0], event.line)
            else:
                self._see_run(player, 0, new, event.line)
            self.up_count[player] = 1
            return
        position = int(street) - 1
        if len(new) != 1:
            self._card_flag(
                "CARD_COUNT",
                event.line,
                player,
                f"{player} is dealt {len(new)} cards on {street.label}, not one",
            )
            return
        previous = event.previous
        up_count = self.up_count[player]
        if len(previous) == position:  # the hero's line: every card so far
            self._see_run(player, 0, previous, event.line)
        elif len(previous) == up_count:  # an opponent's: the up cards so far
            self._see_run(player, self.first_up, previous[: len(self.up_positions)], event.line)
        else:
            self._card_flag(
                "CARD_COUNT",
                event.line,
                player,
                f"{player}'s {street.label} line repeats {len(previous)} earlier cards; "
                f"{up_count} up cards (or {position} in all) were dealt before",
            )
        self._see(player, position, new[0], event.line)
        if self.face_up[position]:
            self.up_count[player] += 1

    def _check_shown_cards(self, event: Action) -> None:
        """A show or muck line with cards."""
        cards = event.cards
        limit = self.card_count - 1 if self.hand.community_card is not None else self.card_count
        if len(cards) > limit:
            self._card_flag(
                "CARD_COUNT",
                event.line,
                event.player,
                f"{event.player} shows {len(cards)} cards; a player holds at most {limit}",
            )
            return
        self.card_street = event.street
        self._see_run(event.player, 0, cards, event.line)

    def _finish_card_checks(self) -> None:
        """The summary's cards and the community card; then report the card violations."""
        hand = self.hand
        self.card_street = Street.SUMMARY
        for result in hand.results:
            cards = result.showed or result.mucked
            self._see_run(result.player, 0, cards, result.line)
        self.card_street = Street.SEVENTH
        game = hand.game
        community = hand.community_card
        last = LAST_STREET[game]
        folded_early = self.folded_early
        # The street headers, not the events: a 7th street with no line on it (a community
        # card and nobody able to act) was dealt all the same.
        streets_dealt = [street for street in hand.streets if street <= _SEVENTH]
        players_at_last = len([p for p in self.dealt_in if p not in folded_early])
        burns = len(streets_dealt) if self.profile.burns else 0
        needed = cards_needed(self.dealt_in, folded_early, self.card_count, burns)
        if community is not None and last in streets_dealt and needed <= DECK_SIZE:
            self._card_flag(
                "COMMUNITY_CARD",
                _river_line(hand),
                None,
                f"a community card was dealt on 7th street, but the deck had enough cards for "
                f"the {players_at_last} players left ({needed} of {DECK_SIZE} needed)",
            )
        if community is None and needed > DECK_SIZE and last in streets_dealt:
            self._card_flag(
                "COMMUNITY_CARD",
                _river_line(hand),
                None,
                f"{players_at_last} players reached 7th street: the deck runs short and one "
                "community card should have been dealt",
            )
        # A card line before any other takes the street the replay was on (as the flag of a
        # separate pass over the card lines after the betting would).
        ended_on = self.street
        for code, street, line, player, message, expected, actual in self.card_flags:
            self.street = ended_on if street is None else street
            self.flag(code, line, player, message, expected, actual)
        self.street = Street.SEVENTH

    # -- actions -------------------------------------------------------------------------

    def _collect(self, action: Action) -> None:
        self.collected[action.player] = self.collected.get(action.player, 0) + (action.amount or 0)

    def _showdown_cards(self, action: Action) -> None:
        """A show or muck line: its cards are checked with the dealt ones (and a show's are the
        player's showdown hand)."""
        if action.cards:
            self._check_shown_cards(action)
            if action.kind is ActionKind.SHOW:
                self.shows.append(action)

    def _no_op(self, action: Action) -> None:
        """An action line that changes nothing in the replay ("does not show")."""

    def _pay(self, player: str, amount: int, line: int, what: str) -> None:
        left = self.stack[player]
        if amount > left:
            self.flag(
                "OVER_STACK",
                line,
                player,
                f"{player} {what} {self.money(amount)} but had only {self.money(left)} left",
                self.money(left),
                self.money(amount),
            )
        left -= amount
        self.stack[player] = left
        self.put_in[player] += amount
        self.street_put[player] += amount
        if left <= 0:
            self.all_in.add(player)
            self.able.discard(player)

    def _ante(self, action: Action) -> None:
        player = action.player
        if player in self.anted:
            self.flag("ANTE", action.line, player, f"{player} posts the ante twice")
        self.anted.add(player)
        if player not in self.dealt_in:
            self._deal_in(player)
        expected = self.hand.ante or 0
        amount = action.amount or 0
        short_all_in = amount < expected and amount == self.stack[player]
        if amount != expected and not short_all_in:
            self.flag(
                "ANTE",
                action.line,
                player,
                f"the ante is {self.money(expected)}, {player} posted {self.money(amount)}",
                self.money(expected),
                self.money(amount),
            )
        left = self.stack[player]
        if amount <= left:  # `_pay`, inline (antes are many): nothing to flag
            left -= amount
            self.stack[player] = left
            self.put_in[player] += amount
            if left <= 0:
                self.all_in.add(player)
                self.able.discard(player)
        else:
            self._pay(player, amount, action.line, "posted an ante of")
        self.street_put[player] = 0  # antes are not part of 3rd street's betting

    def _check_antes(self) -> None:
        if not self.hand.ante:
            return
        for player in self.dealt_in:
            if player not in self.anted:
                self.flag(
                    "ANTE",
                    self._hand_line(),
                    player,
                    f"{player} was dealt in without posting the ante",
                )

    def _bet_size(self) -> int:
        return self.hand.big_bet if self.street in self.big_bet_streets else self.hand.small_bet

    def _betting(self, action: Action) -> None:
        player = action.player
        kind = action.kind
        if kind is _FOLD and action.street < self.last_street:
            self.folded_early.setdefault(player, action.street)
        if player not in self.able:
            self._unable_to_act(action)
            return
        if not self.round_open:
            self._open_round(action.line)
        # Who should act (`_expected_actor`, inline: this runs for every betting line).
        pending = self.pending
        first_action = self.last_actor is None
        expected = self.expected_first if first_action else self.last_actor
        if expected is not None and (not first_action or expected not in pending):
            for candidate in self.clockwise_after[expected]:
                if candidate in pending:
                    expected = candidate
                    break
            else:
                expected = None
        in_turn = True
        if first_action and self.street == self.first_street:
            self._first_third_street_action(action, expected)
        elif player != expected:
            in_turn = self._out_of_turn(action, expected, first_action)
        street_put = self.street_put
        owed = self.current_bet - street_put[player]
        if kind is _CALL:
            amount = action.amount or 0
            left = self.stack[player]
            if owed > 0 and amount == (owed if owed < left else left):
                # A call of what is owed (all-in for less when short): nothing to flag, and
                # never more than the stack. The rest is `_pay`, inline.
                left -= amount
                self.stack[player] = left
                self.put_in[player] += amount
                street_put[player] += amount
                if left <= 0:
                    self.all_in.add(player)
                    self.able.discard(player)
                pending.discard(player)
            else:
                self._call(action, owed)
        elif kind is _CHECK:
            if owed > 0:
                self.flag(
                    "CHECK_FACING_BET",
                    action.line,
                    player,
                    f"{player} checks facing a bet of {self.money(self.current_bet)} "
                    f"(owes {self.money(owed)})",
                )
            pending.discard(player)
        elif kind is _FOLD:
            self.folded.add(player)
            pending.discard(player)
            self.reopened_for.discard(player)
            self.able.discard(player)
            if len(self.dealt_in) - len(self.folded) == 1:
                self.hand_over = True
        elif kind is _BRING_IN:
            self._bring_in(action)
        else:
            self._bet_or_raise(action, owed)
        if in_turn:
            self.last_actor = player

    def _unable_to_act(self, action: Action) -> None:
        """A betting action by a player who folded, is all-in or was not dealt in."""
        player = action.player
        line = action.line
        kind = action.kind
        if player in self.folded:
            self.flag(
                "ACTED_AFTER_FOLD",
                line,
                player,
                f"{player} acts ({kind.value}) after having folded",
            )
        elif player in self.all_in:
            put = self._chips_in(action)
            if put > 0:  # chips the player no longer has: _pay reports OVER_STACK
                self._pay(player, put, line, f"{kind.value}s, putting in")
                self.current_bet = max(self.current_bet, self.street_put[player])
            else:
                self.flag(
                    "ACTED_AFTER_FOLD",
                    line,
                    player,
                    f"{player} acts ({kind.value}) but is already all-in",
                )
            self.last_actor = player
        else:
            self.flag("OUT_OF_TURN", line, player, f"{player} acts but was not dealt in")

    def _out_of_turn(self, action: Action, expected: str | None, first_action: bool) -> bool:
        """Flag an action by someone other than the player expected to act (`expected` is
        None when nobody is); whether the turn passes on to the player who acted."""
        player = action.player
        kind = action.kind
        if expected is None:
            if not self.pending:
                self.flag(
                    "OUT_OF_TURN",
                    action.line,
                    player,
                    f"{player} acts ({kind.value}) after the betting on {self.street.label} "
                    "was closed",
                )
            return True
        # The turn stays with the skipped player, so that their own action, when it comes, is
        # not reported as out of turn as well.
        if player not in self.pending:
            what = (
                "the betting was already closed"
                if not self.pending
                else f"it was {expected}'s turn"
            )
        elif first_action and self.street != self.first_street:
            what = f"{expected} has the best showing hand and acts first"
        else:
            what = f"it was {expected}'s turn"
        self.flag(
            "OUT_OF_TURN",
            action.line,
            player,
            f"{player} acts ({kind.value}) out of turn: {what}",
            expected,
            player,
        )
        return False

    def _chips_in(self, action: Action) -> int:
        """Chips an action puts in, as printed."""
        if action.kind in (ActionKind.RAISE, ActionKind.COMPLETE) and action.to_amount is not None:
            return action.to_amount - self.street_put[action.player]
        if action.kind in (ActionKind.CHECK, ActionKind.FOLD):
            return 0
        return action.amount or 0

    def _first_third_street_action(self, action: Action, bring_in_player: str | None) -> None:
        player = action.player
        if bring_in_player is not None and player != bring_in_player:
            door = self.door.get(bring_in_player)
            theirs = self.door.get(player)
            extreme = "highest" if self.game is Game.RAZZ else "lowest"
            self.flag(
                "BRING_IN_PLAYER",
                action.line,
                player,
                f"bring-in should be {bring_in_player} ({door} is the {extreme} door card), "
                f"was {player}" + (f" ({theirs})" if theirs else ""),
                bring_in_player,
                player,
            )
        if action.kind not in (ActionKind.BRING_IN, ActionKind.COMPLETE):
            self.flag(
                "BRING_IN_PLAYER",
                action.line,
                player,
                f"3rd street must open with the bring-in or a completion, not a {action.kind.value}",
            )

    def _bring_in(self, action: Action) -> None:
        player = action.player
        amount = action.amount or 0
        if self.bets or self.current_bet:
            self.flag(
                "OUT_OF_TURN", action.line, player, f"{player} brings in after the betting started"
            )
        elif not 0 < amount < self.hand.small_bet and amount != self.stack[player]:
            self.flag(
                "BRING_IN_AMOUNT",
                action.line,
                player,
                f"a bring-in must be less than the small bet {self.money(self.hand.small_bet)}, "
                f"{player} brought in for {self.money(amount)}",
                f"< {self.money(self.hand.small_bet)}",
                self.money(amount),
            )
        self._pay(player, amount, action.line, "brought in for")
        self.current_bet = max(self.current_bet, self.street_put[player])
        self.pending = self.able - {player}
        self.aggressor = player

    def _call(self, action: Action, owed: int) -> None:
        player = action.player
        amount = action.amount or 0
        expected = min(owed, self.stack[player])
        if owed <= 0:
            self.flag(
                "CALL_AMOUNT",
                action.line,
                player,
                f"{player} calls {self.money(amount)} with nothing to call (should check)",
                self.money(0),
                self.money(amount),
            )
        elif amount != expected:
            self.flag(
                "CALL_AMOUNT",
                action.line,
                player,
                f"{player} owed {self.money(expected)} to call, put in {self.money(amount)}",
                self.money(expected),
                self.money(amount),
            )
        self._pay(player, amount, action.line, "called")
        self.pending.discard(player)

    def _allowed_sizes(self) -> tuple[int, ...]:
        size = self._bet_size()
        if self.double_bet:
            if self.big_bet_made and not self.profile.small_raise_after_big_bet:
                return (self.hand.big_bet,)
            return (self.hand.small_bet, self.hand.big_bet)
        return (size,)

    def _bet_or_raise(self, action: Action, owed: int) -> None:
        player = action.player
        kind = action.kind
        before = self.street_put[player]
        if action.to_amount is not None:
            total = action.to_amount
            if action.amount is not None and action.amount != total - self.current_bet:
                self.flag(
                    "BET_SIZE",
                    action.line,
                    player,
                    f"{player} raises {self.money(action.amount)} to {self.money(total)}, but "
                    f"{self.money(total)} is {self.money(total - self.current_bet)} over the "
                    f"{self.money(self.current_bet)} bet",
                    self.money(total - self.current_bet),
                    self.money(action.amount),
                )
        else:
            total = before + (action.amount or 0)
        put = total - before
        stack_before = self.stack[player]
        goes_all_in = put >= stack_before
        sizes = self._allowed_sizes()
        if kind is ActionKind.COMPLETE:
            targets: tuple[int, ...] = (self.hand.small_bet,)
            what = "complete to"
        elif kind is ActionKind.BET and self.current_bet == 0:
            targets = sizes
            what = "bet"
        else:
            targets = tuple(self.current_bet + size for size in sizes)
            what = "raise to"
            if kind is ActionKind.BET:
                self.flag(
                    "BET_SIZE",
                    action.line,
                    player,
                    f"{player} bets facing a bet of {self.money(self.current_bet)}: only a raise is possible",
                )
        # All-in for less than a size the player may bet (the big one of an open pair's
        # two): table stakes allow it; below the smallest size it is a short all-in.
        if total not in targets and not (goes_all_in and total < max(targets)):
            allowed = " or ".join(self.money(t) for t in targets)
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"on {self.street.label} {player} may {what} {allowed}, made it {self.money(total)}",
                allowed,
                self.money(total),
            )
        raising = kind is ActionKind.RAISE or (kind is ActionKind.BET and self.current_bet)
        if raising and player not in self.reopened_for and self.current_bet > 0:
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"{player} raises although a short all-in did not reopen the betting for them",
            )
        short = goes_all_in and total < min(targets)
        counts_as_bet = not short or self._reopens(total)
        new_bets = self.bets + 1 if counts_as_bet else self.bets
        if (
            counts_as_bet
            and new_bets > self.profile.cap_bets
            and not (not self.profile.cap_heads_up and self.started_with <= 2)
        ):
            self.flag(
                "RAISE_CAP",
                action.line,
                player,
                f"{player} makes the {_ordinal(new_bets)} bet on {self.street.label}; "
                f"the cap is {self.profile.cap_bets} (a bet and {self.profile.cap_bets - 1} raises)",
                self.profile.cap_bets,
                new_bets,
            )
        self._pay(
            player, put, action.line, "bet" if kind is ActionKind.BET else "raised, putting in"
        )
        if total - self.current_bet >= self.hand.big_bet and self.double_bet:
            self.big_bet_made = True
        reopen = counts_as_bet
        self.current_bet = max(self.current_bet, total)
        self.bets = new_bets
        self.aggressor = player
        if reopen:
            self.pending = self.able - {player}
            self.reopened_for = set(self.able)
        else:
            # A short all-in raise: the others must still call it, but those who had
            # already acted may not raise again.
            self.pending = {p for p in self._active() if self.street_put[p] < self.current_bet} - {
                player
            }
        self.pending.discard(player)

    def _reopens(self, total: int) -> bool:
        increment = total - self.current_bet
        size = self._bet_size()
        if self.profile.all_in_reopens_at_half_bet:
            return increment * 2 >= size
        return increment >= size

    # -- uncalled bets -------------------------------------------------------------------

    def _uncalled_amount(self) -> tuple[str | None, int]:
        """The player who put in most on this street (the first such in seat order), and how
        much more than anyone else."""
        if not self.street_put:
            return None, 0
        order = self.order
        amounts = list(map(self.street_put.__getitem__, order))
        most = max(amounts)
        index = amounts.index(most)
        top = order[index]
        if len(self.seat_index) == len(order):
            del amounts[index]
            return top, most - max(amounts, default=0)
        # A name seated twice: none of its seats counts as another player.
        return top, most - max((self.street_put[p] for p in order if p != top), default=0)

    def _uncalled(self, action: Action) -> None:
        player, due = self._uncalled_amount()
        amount = action.amount or 0
        if player != action.player or amount != due:
            if due == 0:
                message = f"no bet was left uncalled, yet {self.money(amount)} was returned to {action.player}"
            else:
                message = (
                    f"{self.money(due)} of {player}'s bet was uncalled, but "
                    f"{self.money(amount)} was returned to {action.player}"
                )
            self.flag(
                "UNCALLED_RETURN",
                action.line,
                action.player,
                message,
                f"{self.money(due)} to {player}",
                f"{self.money(amount)} to {action.player}",
            )
        self.returned = True
        self.stack[action.player] = self.stack.get(action.player, 0) + amount
        self.put_in[action.player] = self.put_in.get(action.player, 0) - amount
        self.street_put[action.player] = self.street_put.get(action.player, 0) - amount

    def _check_uncalled_due(self) -> None:
        if self.returned or not any(self.street_put.values()):  # nothing was bet
            return
        player, due = self._uncalled_amount()
        if due > 0 and player is not None:
            self.flag(
                "UNCALLED_RETURN",
                self._hand_line(),
                player,
                f"{self.money(due)} of {player}'s bet on {self.street.label} was never called "
                "and should have been returned",
                self.money(due),
                self.money(0),
            )
            self.returned = True

    # -- pots ------------------------------------------------------------------------------

    def _pots(self) -> list[Pot]:
        hand = self.hand
        pots = build_pots(self.order, self.put_in, self.folded, self.all_in)
        total = sum(self.put_in.values())
        if total != hand.total_pot:
            self.flag(
                "POT_TOTAL",
                self._summary_line(),
                None,
                f"the players put in {self.money(total)} in all, the summary says the total "
                f"pot was {self.money(hand.total_pot)}",
                self.money(total),
                self.money(hand.total_pot),
            )
        collected = sum(self.collected.values())
        if collected + hand.rake != hand.total_pot:
            self.flag(
                "RAKE",
                self._summary_line(),
                None,
                f"{self.money(collected)} collected plus {self.money(hand.rake)} rake is "
                f"{self.money(collected + hand.rake)}, not the total pot of {self.money(hand.total_pot)}",
                self.money(hand.total_pot - hand.rake),
                self.money(collected),
            )
        if hand.rake < 0 or hand.rake > hand.total_pot:
            self.flag(
                "RAKE",
                self._summary_line(),
                None,
                f"a rake of {self.money(hand.rake)} is impossible",
            )
        return pots

    def _summary_line(self) -> int:
        for event in reversed(self.hand.events):
            if event.street == Street.SUMMARY:
                return event.line
        results = self.hand.results
        return results[0].line - 1 if results else self._hand_line()

    # -- descriptions --------------------------------------------------------------------

    def _check_descriptions(self) -> None:
        community = (self.hand.community_card,) if self.hand.community_card else ()
        for event in self.shows:
            if event.description is None or len(event.cards) + len(community) < 5:
                continue
            if len(event.cards) + len(community) < CARDS_PER_PLAYER[self.game]:
                continue  # shown early (before 7th street): PokerStars describes partial hands
            cards = event.cards + community
            try:
                expected = describe(cards, self.game)
            except ValueError:
                continue  # duplicate cards: reported by the card checks
            if expected != event.description:
                self.street = event.street
                self.flag(
                    "HAND_DESCRIPTION",
                    event.line,
                    event.player,
                    f"{event.player} shows [{format_cards(event.cards)}]: the cards make "
                    f'"{expected}", the site says "{event.description}"',
                    expected,
                    event.description,
                )


_ACTION_HANDLERS: dict[ActionKind, Callable[[_Replayer, Action], None]] = {
    **dict.fromkeys(ActionKind, _Replayer._no_op),  # any kind not named below changes nothing
    ActionKind.ANTE: _Replayer._ante,
    ActionKind.BRING_IN: _Replayer._betting,
    ActionKind.COMPLETE: _Replayer._betting,
    ActionKind.BET: _Replayer._betting,
    ActionKind.RAISE: _Replayer._betting,
    ActionKind.CALL: _Replayer._betting,
    ActionKind.CHECK: _Replayer._betting,
    ActionKind.FOLD: _Replayer._betting,
    ActionKind.UNCALLED_BET_RETURNED: _Replayer._uncalled,
    ActionKind.COLLECT: _Replayer._collect,
    ActionKind.SHOW: _Replayer._showdown_cards,
    ActionKind.MUCK: _Replayer._showdown_cards,
}
"""What each kind of action line does to the replay."""


def build_pots(
    order: list[str], put_in: dict[str, int], folded: set[str], all_in: set[str]
) -> list[Pot]:
    """Main and side pots from what each player put in: a side pot at each all-in player's
    level; folded players' chips count, but they are eligible for nothing."""
    contenders = [p for p in order if p not in folded and put_in[p] > 0]
    levels = sorted(
        {put_in[p] for p in contenders if p in all_in}
        | {max((put_in[p] for p in contenders), default=0)}
    )
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(put, level) - min(put, previous) for put in put_in.values())
        eligible = tuple(p for p in contenders if put_in[p] >= level)
        if amount > 0:
            if pots and eligible == pots[-1].eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(max(0, put - previous) for put in put_in.values())
    if leftover and pots:
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots


def describe(cards: tuple[Card, ...], game: Game) -> str:
    """PokerStars' description of a showdown hand in `game`."""
    # Words depend on the hand's strength only: ranking is cheap, wording is not, so the words
    # are kept by strength (at most some tens of thousands of them).
    key: tuple[Game, int | None, int | None]
    if game is Game.RAZZ:
        key = (game, evaluate.low_rank(cards, None), None)
    else:
        high = evaluate.high_rank(cards)
        key = (game, high, evaluate.low_rank(cards, 8) if game is Game.STUD8 else None)
    found = _DESCRIPTIONS.get(key)
    if found is None:
        if len(_DESCRIPTIONS) >= 100_000:
            _DESCRIPTIONS.clear()
        found = _DESCRIPTIONS[key] = _describe_strength(*key)
    return found


_DESCRIPTIONS: dict[tuple[Game, int | None, int | None], str] = {}


def _describe_strength(game: Game, first: int | None, low: int | None) -> str:
    """`describe` from the `evaluate.high_rank` (in razz: `low_rank`) and the stud8 low."""
    if game is Game.RAZZ:
        return f"Lo: {evaluate.describe_low_rank(first)}"  # type: ignore[arg-type]
    high = evaluate.describe_high_rank(first)  # type: ignore[arg-type]
    if game is Game.STUD8:
        return (
            f"HI: {high}; LO: {evaluate.describe_low_rank(low)}"
            if low is not None
            else f"HI: {high}"
        )
    return high


def _has_pair(cards: list[Card] | tuple[Card, ...]) -> bool:
    ranks = [c.rank for c in cards]
    return len(ranks) != len(set(ranks))


def _ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


# -- cards -------------------------------------------------------------------------------


_Player = TypeVar("_Player", str, int)
"""A player: a name, or a seat position (in the fast path and the simulator)."""


def cards_needed(
    players: Iterable[_Player], folded_on: Mapping[_Player, Street], size: int, burns: int
) -> int:
    """Cards the deck must hold to give everyone still in a last card: every card dealt so
    far counts, the dead cards of players who folded included (the n-th street deals the
    n-th card, so a player who folded on 5th street took five), plus the burns."""
    return sum(min(int(folded_on.get(p, size)), size) for p in players) + burns


def _river_line(hand: Hand) -> int:
    for event in hand.events:
        if event.street == Street.SEVENTH:
            return event.line - 1
    return hand.source.line if hand.source else 0


# -- awards ------------------------------------------------------------------------------


class _Awards:
    """Who should have won each pot, by the cards, and how that compares with the collects."""

    def __init__(
        self,
        hand: Hand,
        profile: RuleProfile,
        pots: list[Pot],
        seat_index: dict[str, int],
        cards: dict[str, tuple[Card, ...]],
    ) -> None:
        self.hand = hand
        self.profile = profile
        self.pots = pots
        self.game = hand.game
        self.seat_index = seat_index
        self.community = (self.hand.community_card,) if self.hand.community_card else ()
        self.cards = cards
        """Each player's cards as shown at showdown (`_known_cards`)."""
        self.hands: dict[str, tuple[Card, ...] | None] = {}
        self.high_winners: set[str] = set()
        """Players awarded (a share of) a pot's high half, or of a whole pot (`Replay.won_high`)."""
        self.low_winners: set[str] = set()
        """Players awarded (a share of) a stud8 low half (`Replay.won_low`)."""

    def expected(self, distributable: list[int]) -> tuple[dict[str, int], list[Callable[[], str]]]:
        """What each player should collect from the pots after rake (`distributable`), and
        for each pot a function giving the reason in words."""
        expected: dict[str, int] = {}
        notes: list[Callable[[], str]] = []
        for pot, amount in zip(self.pots, distributable, strict=True):
            shares, words = self._split(pot, amount)
            notes.append(words)
            for player, share in shares.items():
                expected[player] = expected.get(player, 0) + share
        return expected, notes

    def check(self, state: _Replayer) -> dict[str, int]:
        """Compare the expected awards with the collects, flagging on `state`."""
        self.state = state
        hand = self.hand
        state.street = Street.SHOWDOWN
        expected, notes = self.expected(self._distributable())
        actual = {p: v for p, v in state.collected.items() if v}
        if actual == {p: v for p, v in expected.items() if v}:
            return expected
        line = next(
            (e.line for e in hand.events if type(e) is Action and e.kind is ActionKind.COLLECT),
            state._summary_line(),
        )
        if self._ineligible_collects():
            return expected
        should = {p for p, v in expected.items() if v}
        got = set(actual)
        story = "; ".join(text for text in (note() for note in notes) if text)
        if should != got:
            low_case = self._low_not_qualified(got, should)
            if low_case:
                state.flag(
                    "LOW_NOT_QUALIFIED",
                    line,
                    low_case,
                    f"{low_case} was paid a low half, but no hand qualified for low "
                    f"(8 or better): {story}",
                    None,
                    low_case,
                )
            else:
                state.flag(
                    "WRONG_WINNER",
                    line,
                    ", ".join(sorted(got - should)) or None,
                    f"{story}; the hand history pays {_pay_list(actual, state)}",
                    _pay_list(expected, state),
                    _pay_list(actual, state),
                )
            return expected
        differences = [abs(actual.get(p, 0) - expected.get(p, 0)) for p in should | got]
        code = "ODD_CHIP" if max(differences) == 1 and sum(differences) == 2 else "SPLIT_AMOUNT"
        state.flag(
            code,
            line,
            None,
            f"{story}: should pay {_pay_list(expected, state)}, the hand history pays "
            f"{_pay_list(actual, state)}",
            _pay_list(expected, state),
            _pay_list(actual, state),
        )
        return expected

    def _ineligible_collects(self) -> bool:
        """Flag collects by players with no claim on the pot named ("main pot", "side
        pot-2") or, for plain "pot", on any pot."""
        state = self.state
        found = False
        for event in self.hand.events:
            if type(event) is not Action or event.kind is not ActionKind.COLLECT:
                continue
            player, label = event.player, event.pot or "pot"
            index = _pot_index(label)
            pots = [self.pots[index]] if index is not None and index < len(self.pots) else self.pots
            if any(player in pot.eligible for pot in pots):
                continue
            if player in state.folded:
                why = f"{player} folded"
            elif index:
                why = f"{player} was all-in for less and has no part in it"
            else:
                why = f"{player} put nothing into it"
            state.flag(
                "NOT_ELIGIBLE",
                event.line,
                player,
                f"{player} collected {state.money(event.amount or 0)} from the {label}, but {why}",
                None,
                state.money(event.amount or 0),
            )
            found = True
        return found

    def _distributable(self) -> list[int]:
        """Each pot after rake (see `distributable`), flagging a printed count of pots that
        differs from the pots built."""
        hand = self.hand
        printed = [hand.main_pot, *hand.side_pots] if hand.main_pot is not None else None
        if printed is not None and self.pots and len(printed) != len(self.pots):
            self.state.flag(
                "POT_TOTAL",
                self.state._summary_line(),
                None,
                f"the summary prints {len(printed)} pots, but the contributions make {len(self.pots)}",
                len(self.pots),
                len(printed),
            )
        return self.distributable()

    def distributable(self) -> list[int]:
        """Each pot after rake. PokerStars prints main and side pots after rake; use those
        when their number matches the pots built, else take the rake from the main pot."""
        hand = self.hand
        amounts = [pot.amount for pot in self.pots]
        if not amounts:
            return []
        printed = [hand.main_pot, *hand.side_pots] if hand.main_pot is not None else None
        if (
            printed is not None
            and len(printed) == len(amounts)
            and sum(printed) + hand.rake == sum(amounts)
        ):
            return [int(p) for p in printed]
        rake = hand.rake if self.profile.rake_before_split else 0
        amounts[0] = max(0, amounts[0] - rake)
        return amounts

    def _hand(self, player: str) -> tuple[Card, ...] | None:
        """The cards a player's showdown hand is made of, or None when they cannot be
        evaluated (fewer than five known, too many, or a card twice: the card checks report
        those)."""
        if player in self.hands:  # asked for again by each pot and each check
            return self.hands[player]
        cards = self.cards.get(player, ())
        if len(cards) + len(self.community) <= 7:
            cards = cards + self.community
        if not 5 <= len(cards) <= 7 or len(set(cards)) != len(cards):
            self.hands[player] = None
            return None
        self.hands[player] = cards
        return cards

    def _contenders(self, pot: Pot) -> list[str]:
        """Eligible players still claiming the pot: with one left, that one; otherwise those
        whose cards are known (a player who mucks at showdown gives the pot up)."""
        if len(pot.eligible) == 1:
            return list(pot.eligible)
        return [p for p in pot.eligible if self._hand(p) is not None]

    def _split(self, pot: Pot, amount: int) -> tuple[dict[str, int], Callable[[], str]]:
        """Expected shares of one pot, and a function giving the reason in words (only
        called when a flag needs it: describing hands costs more than ranking them)."""
        players = self._contenders(pot)
        if not players:
            return {}, lambda: "nobody shows a hand that can be read"
        if len(players) == 1:
            self.high_winners.add(players[0])
            return {players[0]: amount}, lambda: ""
        hands: dict[str, tuple[Card, ...]] = {p: self._hand(p) for p in players}  # type: ignore[misc]
        game = self.game

        def high_words(winners: list[str]) -> str:
            return _words(winners, lambda p: evaluate.describe_high(hands[p]))

        def low_words(winners: list[str], qualifier: int | None) -> str:
            prefix = "Lo: " if qualifier is None else ""
            return _words(
                winners, lambda p: prefix + str(evaluate.describe_low(hands[p], qualifier))
            )

        if game is Game.RAZZ:
            lows = {p: evaluate.low_rank(hands[p], None) for p in players}
            best = max(lows.values())  # type: ignore[type-var]
            winners = [p for p in players if lows[p] == best]
            self.high_winners.update(winners)  # razz: the pot's winners count as "high"
            return (
                self._divide(amount, winners, hands, low=True),
                lambda: f"the pot goes to {low_words(winners, None)}",
            )
        highs = {p: evaluate.high_rank(hands[p]) for p in players}
        top = max(highs.values())
        high_winners = [p for p in players if highs[p] == top]
        self.high_winners.update(high_winners)
        if game is not Game.STUD8:
            return (
                self._divide(amount, high_winners, hands, low=False),
                lambda: f"the pot goes to {high_words(high_winners)}",
            )
        lows8 = {p: evaluate.low_rank(hands[p], 8) for p in players}
        qualified = {p: v for p, v in lows8.items() if v is not None}
        if not qualified:
            return (
                self._divide(amount, high_winners, hands, low=False),
                lambda: f"no low qualifies, the whole pot goes high to {high_words(high_winners)}",
            )
        best_low = max(qualified.values())
        low_winners = [p for p in players if lows8[p] == best_low]
        self.low_winners.update(low_winners)
        shares = hi_lo_shares(
            amount, high_winners, low_winners, hands, self.profile, self.seat_index.__getitem__
        )
        return (
            shares,
            lambda: (
                f"high half to {high_words(high_winners)}, low half to {low_words(low_winners, 8)}"
            ),
        )

    def _divide(
        self, amount: int, winners: list[str], hands: dict[str, tuple[Card, ...]], low: bool
    ) -> dict[str, int]:
        return divide(amount, winners, hands, low, self.profile, self.seat_index.__getitem__)

    def _low_not_qualified(self, got: set[str], should: set[str]) -> str | None:
        if self.game is not Game.STUD8:
            return None
        extra = got - should
        if len(extra) != 1:
            return None
        player = next(iter(extra))
        cards = self._hand(player)
        if cards is not None and evaluate.low_rank(cards, 8) is None:
            return player
        return None


def _pot_index(label: str) -> int | None:
    """Which pot a collect names: 0 for the main pot, n for "side pot-n" ("side pot" is the
    first side pot), None for a plain "pot"."""
    if label == "main pot":
        return 0
    if label.startswith("side pot"):
        _, _, number = label.partition("-")
        return int(number) if number.isdigit() else 1
    return None


def _low_rank(card: Card) -> int:
    return 1 if card.rank == 14 else card.rank


def divide(
    amount: int,
    winners: list[_Player],
    hands: Mapping[_Player, Sequence[Card]],
    low: bool,
    profile: RuleProfile,
    seat_order: Callable[[_Player], int] | None = None,
) -> dict[_Player, int]:
    """`amount` shared by tied `winners` (of a pot, or of its high or low half): equal shares,
    the odd chips one each in the profile's order — clockwise (`seat_order`; None: the
    winners' own order), or by the best card, the highest by suit for a high hand (`low`
    False), the lowest by suit for a low one."""
    if len(winners) == 1:
        return {winners[0]: amount}
    share, odd = divmod(amount, len(winners))
    if profile.odd_chip_tie is TieBreak.CLOCKWISE:
        ordered = sorted(winners, key=seat_order)
    elif low:
        ordered = sorted(winners, key=lambda w: min((_low_rank(c), c.suit) for c in hands[w]))
    else:
        ordered = sorted(
            winners, key=lambda w: max((c.rank, c.suit) for c in hands[w]), reverse=True
        )
    return {w: share + (1 if index < odd else 0) for index, w in enumerate(ordered)}


def hi_lo_shares(
    amount: int,
    high_winners: list[_Player],
    low_winners: list[_Player],
    hands: Mapping[_Player, Sequence[Card]],
    profile: RuleProfile,
    seat_order: Callable[[_Player], int] | None = None,
) -> dict[_Player, int]:
    """A stud8 pot of `amount` whose low qualifies: half to the high winners, half to the low
    winners (one player may take both), the odd chip of the halving to the high half unless
    the profile says low; each half shared by `divide`."""
    low_half = amount // 2
    high_half = amount - low_half
    if not profile.odd_chip_to_high:
        high_half, low_half = low_half, high_half
    shares = divide(high_half, high_winners, hands, False, profile, seat_order)
    for winner, share in divide(low_half, low_winners, hands, True, profile, seat_order).items():
        shares[winner] = shares.get(winner, 0) + share
    return shares


def _words(players: Iterable[str], describe_one: Callable[[str], str]) -> str:
    return " and ".join(f"{p} ({describe_one(p)})" for p in players)


def _pay_list(amounts: dict[str, int], state: _Replayer) -> str:
    paid = [(p, v) for p, v in amounts.items() if v]
    return ", ".join(f"{p} {state.money(v)}" for p, v in sorted(paid)) or "nobody"


def _known_cards(shows: list[Action], hand: Hand) -> dict[str, tuple[Card, ...]]:
    """Each player's cards as shown at showdown (show lines, then summary lines)."""
    cards = {event.player: event.cards for event in shows}
    for result in hand.results:
        if result.showed and result.player not in cards:
            cards[result.player] = result.showed
    return cards


__all__ = ["Pot", "Replay", "Violation", "describe", "replay"]


# Imported last: the fast path imports its helpers from this module.
from handlog.rules import fast as _fast  # noqa: E402
