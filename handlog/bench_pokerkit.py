"""Replay parsed hands through pokerkit, for the benchmark's speed ratio.

pokerkit (https://github.com/uoftcprg/pokerkit, a test-only dependency, imported lazily) is a
general poker engine. For each parsed `Hand` of 7-card stud, stud hi/lo or razz this module
builds a pokerkit state for the game (`FixedLimitSevenCardStud`,
`FixedLimitSevenCardStudHighLowSplitEightOrBetter`, `FixedLimitRazz`) with the hand's ante,
bring-in, small and big bet and every player's starting stack, deals the recorded cards
explicitly (cards nobody saw, an opponent's folded or mucked down cards, as pokerkit's
unknown card "??"), burns unknown cards (PokerStars does not burn; pokerkit does), applies the
recorded actions (bring-in, completion/bet/raise to, call, check, fold) in order, shows or
mucks at the showdown as the hand history says, and lets pokerkit push and pull the chips
to the end of the hand.

    result = replay_hands(hands, runs=3)  # Replayed: replayed, skipped reasons, seconds
    # which is, step by step:
    plans, skipped = plan_hands(hands)            # untimed: Hand -> pokerkit values
    good, failed, stacks = try_plans(plans)       # untimed: which plans pokerkit plays through
    seconds = time_plans(good, runs=3)            # timed: state creation + every operation

What is timed is pokerkit's own work: creating the state and every dealing, betting, showdown
and chip operation. Reading the `Hand` into a plan (names to player indices, cards to
pokerkit cards) happens before, so the ratio is, if anything, generous to pokerkit.

pokerkit and PokerStars' rules differ in a few places (see tests/pokerkit_hands.py for the
other direction); a hand that runs into one of them is skipped, with a reason:

* "actor": pokerkit expects another player to act than the one the history names. pokerkit
  breaks a tie between equal showing hands (who acts first on 4th-7th street) by seat,
  PokerStars by the suit of the highest card.
* "double bet": pokerkit has no open-pair double bet on 4th street in 7-card stud.
* "short stack": a player has no more than the ante; pokerkit then passes the bring-in on.
* "<kind> rejected": pokerkit refuses a recorded action (e.g. a fold facing no bet, or a
  raise that pokerkit does not reopen: it reopens the betting after a short all-in only on
  a full raise, PokerStars on half a bet).
* "ante": a player posted another ante than the others (pokerkit takes one ante from all).
* "no actions left" / "actions left": pokerkit's betting ends elsewhere than the history's.

pokerkit plays without rake (the rake is PokerStars' one sum; pokerkit's rake function is
asked pot by pot, over and over): its winners end up to the rake richer than the history's.

The community card (eight players on 7th street, too few cards left): pokerkit deals it on
the board when its own deck runs short; unknown cards do not use its deck up, so when it
does not, the card is dealt to every remaining player as their 7th card, which is the same
for every hand's value.
"""

from __future__ import annotations

import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from handlog.holdings import player_cards
from handlog.model import Action, ActionKind, Game, Hand, Note, NoteKind, Street
from handlog.simulate import forced_bets

POKERKIT_GAMES = {
    Game.STUD: "FixedLimitSevenCardStud",
    Game.STUD8: "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
    Game.RAZZ: "FixedLimitRazz",
}
"""The pokerkit game class for each game handlog replays that pokerkit has."""

# Operations of a plan: (player index, operation, amount for completions/bets/raises).
_BRING_IN, _TO, _CALL, _FOLD = 0, 1, 2, 3
_OPERATIONS = {
    ActionKind.BRING_IN: _BRING_IN,
    ActionKind.COMPLETE: _TO,
    ActionKind.BET: _TO,
    ActionKind.RAISE: _TO,
    ActionKind.CALL: _CALL,
    ActionKind.CHECK: _CALL,
    ActionKind.FOLD: _FOLD,
}
_KIND_NAMES = {_BRING_IN: "bring-in", _TO: "bet", _CALL: "call", _FOLD: "fold"}


def available() -> bool:
    """Whether pokerkit can be imported."""
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        return False
    return True


class Skip(Exception):
    """A hand pokerkit cannot replay as recorded; the message is the reason."""


@dataclass(frozen=True, slots=True)
class Plan:
    """One hand as pokerkit values, ready to play."""

    hand_id: str
    game_class: Any
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    stacks: tuple[int, ...]
    cards: tuple[tuple[Any, ...], ...]
    """Each player's pokerkit cards in deal order (unknown ones as "??")."""
    operations: tuple[tuple[int, int, int], ...]
    shows: tuple[bool, ...]
    """Per player: shows at the showdown (else mucks)."""
    community: Any
    """The community card, if one was dealt (pokerkit deals it when its deck runs short)."""
    unknown: Any
    """pokerkit's unknown card ("??")."""


@dataclass(slots=True)
class Replayed:
    """What `replay_hands` found: how many hands pokerkit played through, how many it could
    not (and why), and its speed over the ones it played."""

    planned: int = 0
    replayed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    """Median CPU seconds of one pass over the replayed hands."""
    hand_ids: tuple[str, ...] = ()
    final_stacks: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """pokerkit's stacks at the end of each replayed hand, in `players(hand)` order."""

    @property
    def hands_per_second(self) -> float:
        return self.replayed / self.seconds if self.seconds else 0.0


def players(hand: Hand) -> list[str]:
    """The players dealt in, in seat order (pokerkit's player indices): those who posted
    the ante."""
    posted = {
        event.player
        for event in hand.events
        if type(event) is Action and event.kind is ActionKind.ANTE
    }
    return [seat.name for seat in hand.seats if seat.name in posted]


def _pokerkit() -> Any:
    import pokerkit

    return pokerkit


def plan_hands(hands: Iterable[Hand]) -> tuple[list[Plan], Counter[str]]:
    """Plans for the hands pokerkit has a game for, and the reasons the others were left out."""
    pokerkit = _pokerkit()
    unknown = next(iter(pokerkit.Card.parse("??")))
    cards = {
        text: next(iter(pokerkit.Card.parse(text)))
        for text in (r + s for r in "23456789TJQKA" for s in "cdhs")
    }
    classes = {game: getattr(pokerkit, name) for game, name in POKERKIT_GAMES.items()}
    plans: list[Plan] = []
    skipped: Counter[str] = Counter()
    for hand in hands:
        try:
            plans.append(_plan(hand, classes, cards, unknown))
        except Skip as why:
            skipped[str(why)] += 1
    return plans, skipped


def _plan(hand: Hand, classes: dict[Game, Any], cards: dict[str, Any], unknown: Any) -> Plan:
    game_class = classes.get(hand.game)
    if game_class is None:
        raise Skip(f"game {hand.game.value}")
    antes: dict[str, int] = {}
    operations: list[tuple[str, int, int]] = []
    shown: set[str] = set()
    double_bet = False
    for event in hand.events:
        if type(event) is not Action:
            continue
        kind = event.kind
        if kind is ActionKind.ANTE:
            antes[event.player] = event.amount or 0
        elif kind in _OPERATIONS:
            operation = _OPERATIONS[kind]
            amount = 0
            if operation == _TO:
                amount = event.to_amount if event.to_amount is not None else event.amount or 0
                # An open pair on 4th street in stud allows the big bet (bet or raise).
                double_bet |= event.street is Street.FOURTH and event.amount == hand.big_bet
            operations.append((event.player, operation, amount))
        elif kind is ActionKind.SHOW and event.cards:
            shown.add(event.player)
    shown.update(r.player for r in hand.results if r.showed)
    seats = [seat for seat in hand.seats if seat.name in antes]
    if not seats:
        raise Skip("no antes")
    ante = hand.ante or 0
    if any(amount != ante for amount in antes.values()):
        raise Skip("ante")
    if any(seat.stack <= ante for seat in seats):
        raise Skip("short stack")
    if double_bet and any(
        type(event) is Note and event.kind is NoteKind.DOUBLE_BET_ALLOWED for event in hand.events
    ):
        raise Skip("double bet")
    index = {seat.name: i for i, seat in enumerate(seats)}
    known = player_cards(hand)
    dealt: list[tuple[Any, ...]] = []
    for seat in seats:
        slots = list(known[seat.name].slots)
        if hand.community_card is not None and len(slots) == 7:
            slots[6] = hand.community_card
        dealt.append(tuple(unknown if c is None else cards[str(c)] for c in slots))
    bring_in = hand.bring_in or forced_bets(hand.small_bet, hand.big_bet)[1]
    return Plan(
        hand.hand_id,
        game_class,
        ante,
        bring_in,
        hand.small_bet,
        hand.big_bet,
        tuple(seat.stack for seat in seats),
        tuple(dealt),
        tuple((index[player], operation, amount) for player, operation, amount in operations),
        tuple(seat.name in shown for seat in seats),
        None if hand.community_card is None else cards[str(hand.community_card)],
        unknown,
    )


def _automations() -> tuple[Any, ...]:
    automation = _pokerkit().Automation
    return (
        automation.ANTE_POSTING,
        automation.BET_COLLECTION,
        automation.HAND_KILLING,
        automation.CHIPS_PUSHING,
        automation.CHIPS_PULLING,
    )


def play(plan: Plan, automations: tuple[Any, ...]) -> Any:
    """Play one plan through pokerkit to the end of the hand; the final state. Raises `Skip`
    when pokerkit and the hand history part ways."""
    count = len(plan.stacks)
    state = plan.game_class.create_state(
        automations,
        True,
        plan.ante,
        plan.bring_in,
        plan.small_bet,
        plan.big_bet,
        plan.stacks,
        count,
    )
    cards = plan.cards
    operations = plan.operations
    shows = plan.shows
    dealt = [0] * count
    pending = state.hole_dealing_statuses
    next_operation = 0
    # pokerkit's own cheap state (pending burns, dealings, actor, showdown) decides what comes
    # next: its can_...() checks would evaluate hands just to say yes.
    while state.status:
        if state.card_burning_status:
            state.burn_card(plan.unknown)
        elif any(pending):
            for player in range(count):
                due = len(pending[player])
                if due:
                    start = dealt[player]
                    state.deal_hole(cards[player][start : start + due], player)
                    dealt[player] += due
        elif state.actor_indices:
            if next_operation == len(operations):
                raise Skip("no actions left")
            player, operation, amount = operations[next_operation]
            if player != state.actor_indices[0]:
                raise Skip("actor")
            next_operation += 1
            try:
                if operation == _CALL:
                    state.check_or_call()
                elif operation == _TO:
                    state.complete_bet_or_raise_to(amount)
                elif operation == _FOLD:
                    state.fold()
                else:
                    state.post_bring_in()
            except ValueError as error:
                raise Skip(f"{_KIND_NAMES[operation]} rejected") from error
        elif any(state.board_dealing_counts):
            if plan.community is None:
                raise Skip("board")
            state.deal_board((plan.community,))
        elif (player := state.showdown_index) is not None:
            state.show_or_muck_hole_cards(shows[player], player)
        else:  # pragma: no cover - pokerkit waits for an operation this module does not do
            raise Skip("stuck")
    if next_operation != len(operations):
        raise Skip("actions left")
    return state


def try_plans(plans: list[Plan]) -> tuple[list[Plan], Counter[str], dict[str, tuple[int, ...]]]:
    """The plans pokerkit plays through, why the others failed, and the final stacks of the
    ones played through, by hand id (untimed)."""
    automations = _automations()
    good: list[Plan] = []
    stacks: dict[str, tuple[int, ...]] = {}
    skipped: Counter[str] = Counter()
    with warnings.catch_warnings():
        # pokerkit warns when a dealt card is not the one it would deal (all of ours).
        warnings.simplefilter("ignore")
        for plan in plans:
            try:
                state = play(plan, automations)
            except Skip as why:
                skipped[str(why)] += 1
            except (ValueError, AssertionError) as error:  # a pokerkit disagreement
                skipped[f"pokerkit: {type(error).__name__}"] += 1
            else:
                good.append(plan)
                stacks[plan.hand_id] = tuple(state.stacks)
    return good, skipped, stacks


def time_plans(
    plans: list[Plan], runs: int, clock: Callable[[], float] = time.process_time
) -> float:
    """Median seconds (CPU by default) of playing every plan through pokerkit."""
    automations = _automations()
    times = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(max(1, runs)):
            start = clock()
            for plan in plans:
                play(plan, automations)
            times.append(clock() - start)
    times.sort()
    return times[len(times) // 2]


def replay_hands(hands: list[Hand], runs: int = 3) -> Replayed:
    """Plan, try and time `hands` through pokerkit (see the module docstring)."""
    plans, skipped = plan_hands(hands)
    good, failed, stacks = try_plans(plans)
    skipped.update(failed)
    seconds = time_plans(good, runs) if good else 0.0
    return Replayed(
        planned=len(hands),
        replayed=len(good),
        skipped=skipped,
        seconds=seconds,
        hand_ids=tuple(plan.hand_id for plan in good),
        final_stacks=stacks,
    )
