"""Equities of replayed hands: the spot where betting closed with cards to come, read from the
replay's own trace (`handlog.rules.trace`), each player's EV-adjusted net, and each street's
equities for a hand whose cards are all shown by the end."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from operator import attrgetter
from typing import TYPE_CHECKING

from handlog.cards import Card
from handlog.equity.spot import EXACT_LIMIT, Holding, Spot, SpotError
from handlog.holdings import FIRST_STREET
from handlog.model import BETTING_KINDS, Action, Hand, Street
from handlog.rules import tables
from handlog.rules.profiles import RuleProfile
from handlog.rules.tables import Pot, Replay
from handlog.rules.traits import SiteTraits

if TYPE_CHECKING:  # the calculator (and NumPy) and the trace: imported when a hand is traced
    from handlog.equity.calculate import Equities
    from handlog.rules.trace import HandTrace, Step

_SEAT_NUMBER = attrgetter("number")
_STREETS = {int(street): street for street in Street}
"""Each street by its number (a look-up, cheaper than calling `Street`)."""


class Knowledge(StrEnum):
    """Which cards a spot read from a hand takes as known."""

    SHOWN = "shown"
    """Every card the whole history knows that had been dealt by then: the live players' down
    cards as they are shown by the end, the hero's, any card a folded player showed. The
    trackers' convention for all-in EV; the EV-adjusted net uses it."""
    TABLE = "table"
    """Only what lay face up at that moment: every down card, the hero's too, is unknown and
    dealt from the deck like the cards to come (the equity a rail bird would see)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class AllIn:
    """Where a hand's betting closed with cards still to come, and what it was worth."""

    step: Step
    """The trace step after which no more betting was possible."""
    street: Street
    """The street the betting closed on (its cards dealt, the next ones to come)."""
    spot: Spot
    equities: Equities | None
    """None when the spot cannot be computed: `unknown` says why."""
    unknown: str = ""
    """Why there are no equities: a live player's cards never shown (`Knowledge.SHOWN`), or a
    spot that cannot be dealt out (a card twice in a flagged hand)."""


@dataclass(frozen=True, slots=True)
class EvNet:
    """One player's net for a hand, as it happened and as the all-in equities make it."""

    player: str
    put_in: int
    """Everything the player put in the pot (antes included, returns taken off), in the
    hand's minor units."""
    net: int
    """What the replay makes of the hand: collected less put in."""
    expected: Fraction
    """What the player collects in expectation from the pots at stake at the all-in (what
    the rules pay them when the hand has no all-in with cards to come)."""
    ev_net: Fraction
    """`expected` less `put_in`: the EV-adjusted net, exact (for a sampled spot, the sample's
    mean)."""
    ev_net_units: int
    """`ev_net` in whole minor units: the hand's EV-adjusted nets rounded together by largest
    remainders, so that each is within one unit of the exact figure and they sum exactly to
    what the nets sum to (minus the rake)."""


def spot_at(
    t: HandTrace,
    step: Step,
    profile: RuleProfile,
    knowledge: Knowledge = Knowledge.SHOWN,
    pots: tuple[Pot, ...] | None = None,
) -> Spot:
    """The spot after `step` of the trace: the players still in with their cards by deal
    position, every other card known then as dead (the folded players' up cards, and under
    `Knowledge.SHOWN` any of their down cards the history shows), whether a community card
    will be needed (by the same count of cards as the replay's check,
    `tables.cards_needed`), and `pots` (default: the hand's pots as the rules pay them,
    after rake). `profile` is the one the trace was made under (its odd-chip rule splits the
    pots; its burns count towards the community card)."""
    hand = t.hand
    table_only = knowledge is not Knowledge.SHOWN
    live: list[Holding] = []
    dead: list[Card] = []
    dealt_in: list[str] = []
    folded_on: dict[str, Street] = {}
    for seat in step.seats:
        status = seat.status
        if status == "out":
            continue
        dealt_in.append(seat.player)
        if status == "folded":
            # A player who folded took as many cards as the street they folded on deals (its
            # number).
            folded_on[seat.player] = _STREETS[max(len(seat.cards), 2)]
            for slot in seat.cards:
                if slot.card is not None and (slot.face_up or not table_only):
                    dead.append(slot.card)
        elif table_only:
            live.append(
                Holding(seat.player, tuple([s.card if s.face_up else None for s in seat.cards]))
            )
        else:
            live.append(Holding(seat.player, tuple([s.card for s in seat.cards])))
    last = tables.LAST_STREET[hand.game]
    # Every street to the last is dealt after an all-in: the burns are one a street.
    burns = len(range(FIRST_STREET[hand.game], last + 1)) if profile.burns else 0
    size = tables.CARDS_PER_PLAYER[hand.game]
    community = size == 7 and tables.cards_needed(dealt_in, folded_on, size, burns) > 52
    community_card = hand.community_card if community and step.street >= last else None
    if pots is None:
        pots = tuple(Pot(award.after_rake, award.pot.eligible) for award in t.awards)
    return Spot(
        hand.game,
        tuple(live),
        pots,
        tuple(dead),
        community,
        community_card,
        profile,
    )


def all_in(
    t: HandTrace,
    profile: RuleProfile,
    knowledge: Knowledge = Knowledge.SHOWN,
    exact_limit: int = EXACT_LIMIT,
) -> AllIn | None:
    """The hand's all-in: the first step after which betting was closed with cards to come,
    its spot and equities; None when the betting never closed before the last card. Under
    `Knowledge.SHOWN` the cards every live player held then must be known by the end of the
    history (else `unknown` says whose were not)."""
    step = t.all_in_step()
    if step is None:
        return None
    spot = spot_at(t, step, profile, knowledge)
    street = step.street
    if knowledge is Knowledge.SHOWN:
        hidden = [
            seat.player
            for seat in step.seats
            if seat.status in ("in", "all-in") and any(slot.card is None for slot in seat.cards)
        ]
        if hidden:
            return AllIn(step, street, spot, None, f"{', '.join(hidden)}: cards never shown")
    from handlog.equity.calculate import equities

    try:
        found = equities(spot, exact_limit=exact_limit)
    except SpotError as error:
        return AllIn(step, street, spot, None, str(error))
    return AllIn(step, street, spot, found)


def ev_nets(replay: Replay, found: AllIn | None) -> tuple[EvNet, ...]:
    """Each player's net and EV-adjusted net for the hand `replay` is of (the players with
    chips in the pot, in seat order). With all-in equities, a player's expectation is their
    expected share of the pots the rules pay (a hand the site paid otherwise keeps the
    difference in its luck); without (`found` None or without equities) it is what they
    collected, and the EV-adjusted net is the net."""
    put_in = replay.put_in
    net = replay.net
    players = [seat.name for seat in sorted(replay.hand.seats, key=_SEAT_NUMBER)]
    players = [p for p in players if put_in.get(p) or net.get(p)]
    if found is None or found.equities is None:  # most hands: nothing to round
        nets = []
        for p in players:
            chips, result = put_in.get(p, 0), net.get(p, 0)
            nets.append(EvNet(p, chips, result, Fraction(chips + result), Fraction(result), result))
        return tuple(nets)
    shares = found.equities.shares
    deals = found.equities.deals
    if deals <= 0 or any(deals % share.expected.denominator for share in shares):
        expected = {p: found.equities.expected(p) for p in players}
        ev = {p: expected[p] - put_in.get(p, 0) for p in players}
        # Every deal pays each pot out whole, so the expectations sum to whole units.
        units = apportion(ev, int(sum(ev.values(), Fraction(0))))
    else:
        # Every expectation is a whole number of chips over the deals (`Equities.deals`):
        # summed and rounded as those numbers, without a `Fraction` until the end.
        whole = dict.fromkeys(players, 0)
        for share in shares:
            if share.player in whole:
                value = share.expected
                whole[share.player] += value.numerator * (deals // value.denominator)
        expected = {p: Fraction(whole[p], deals) for p in players}
        over = {p: whole[p] - put_in.get(p, 0) * deals for p in players}
        ev = {p: Fraction(over[p], deals) for p in players}
        units = _apportion_over(over, deals)
    return tuple(
        EvNet(p, put_in.get(p, 0), net.get(p, 0), expected[p], ev[p], units[p]) for p in players
    )


def may_have_all_in(replay: Replay) -> bool:
    """Whether the hand can have closed its betting with cards to come, from its replay alone:
    that takes two players or more to the end, one of them all-in (everything they had in the
    pot), and at most one player acting on the last street (nobody left to bet against).
    Hands without are not traced (`hand_ev`)."""
    if not any(len(pot.eligible) >= 2 for pot in replay.pots):
        return False
    hand = replay.hand
    stacks = {seat.name: seat.stack for seat in hand.seats}
    if not any(put > 0 and put >= stacks.get(p, 0) for p, put in replay.put_in.items()):
        return False
    last = tables.LAST_STREET[hand.game]
    # After the all-in at most one player can act (a site may print their lone check).
    acting = {
        event.player
        for event in hand.events
        if type(event) is Action and event.kind in BETTING_KINDS and event.street >= last
    }
    return len(acting) <= 1


@dataclass(frozen=True, slots=True)
class HandEv:
    """A hand's all-in and its players' EV-adjusted nets."""

    hand: Hand
    all_in: AllIn | None
    """None when the hand's betting never closed with cards to come."""
    nets: tuple[EvNet, ...]
    pot_shares: tuple[Mapping[str, int], ...] = ()
    """What the rules paid each player from each pot (`trace.PotAward.shares`, pot by pot as
    in the spot), for a traced hand; empty for one not traced."""


def hand_ev(
    hand: Hand,
    profile: RuleProfile,
    traits: SiteTraits,
    replay: Replay | None = None,
    knowledge: Knowledge = Knowledge.SHOWN,
    exact_limit: int = EXACT_LIMIT,
) -> HandEv:
    """The all-in of one hand and every player's EV-adjusted net, replayed under `profile` and
    `traits` (a hand's own: `handlog.check.hand_rules`). `replay`, when the
    caller has it (an import does), spares the hands that cannot have an all-in a second
    replay: only the others are traced."""
    if replay is None or may_have_all_in(replay):
        from handlog.rules.trace import trace

        traced = trace(hand, profile, traits, all_in_only=True)
        found = all_in(traced, profile, knowledge, exact_limit)
        shares = tuple(award.shares for award in traced.awards)
        return HandEv(hand, found, ev_nets(traced.replay, found), shares)
    return HandEv(hand, None, ev_nets(replay, None))


def apportion(values: Mapping[str, Fraction], total: int) -> dict[str, int]:
    """Whole numbers for `values`, each the value rounded down or up, summing to `total` (the
    largest remainders rounded up, ties in the mapping's order). `total` is normally the
    values' own sum; if it is not (a sampled figure's rounding), the difference goes to the
    largest remainders, or comes off the smallest."""
    floors = {key: math.floor(value) for key, value in values.items()}
    order = sorted(values, key=lambda key: values[key] - floors[key], reverse=True)
    return _handed_out(floors, order, total - sum(floors.values()))


def _apportion_over(values: Mapping[str, int], denominator: int) -> dict[str, int]:
    """`apportion` of each of `values` over `denominator` (above 0), to their sum (as
    `ev_nets` rounds it: towards zero): the same whole numbers, from integers."""
    floors = {key: value // denominator for key, value in values.items()}
    order = sorted(values, key=lambda key: values[key] - floors[key] * denominator, reverse=True)
    total = sum(values.values())
    total = total // denominator if total >= 0 else -(-total // denominator)
    return _handed_out(floors, order, total - sum(floors.values()))


def _handed_out(floors: dict[str, int], order: list[str], left: int) -> dict[str, int]:
    """`floors` with `left` units added one each in `order` (or, below 0, taken off from its
    end), round after round."""
    result = dict(floors)
    if left >= 0:
        for index in range(left):
            result[order[index % len(order)]] += 1
    else:
        for index in range(-left):
            result[order[-1 - index % len(order)]] -= 1
    return result


def street_equities(
    t: HandTrace, profile: RuleProfile, exact_limit: int = EXACT_LIMIT
) -> list[tuple[Street, Equities]]:
    """Each street's equities, for the streets the history deals on which every player still
    in has the cards dealt to them by then shown by the end: the players in once the street is
    dealt (before its betting), their cards so far, the folded players' cards as dead, one pot
    of the chips in so far for all of them. Empty for a hand decided before a second player's
    cards are known."""
    from handlog.equity.calculate import equities

    hand = t.hand
    game = hand.game
    first = FIRST_STREET[game]
    last = tables.LAST_STREET[game]
    found: list[tuple[Street, Equities]] = []
    for street in range(first, last + 1):
        before = _before_street(t, Street(street))
        if before is None:
            continue
        players = [s for s in before.seats if s.status in ("in", "all-in")]
        if len(players) < 2:
            break
        final = t.final_cards
        own = street - (1 if street == last and hand.community_card is not None else 0)
        if any(
            len(final.get(s.player, ())) < own
            or any(slot.card is None for slot in final.get(s.player, ())[:own])
            for s in players
        ):
            continue  # a card of someone still in is not known (or not dealt, by the history)
        seats = tuple(
            replace(s, cards=final.get(s.player, ())[:own]) if s.status in ("in", "all-in") else s
            for s in before.seats
        )
        moment = replace(before, seats=seats, street=Street(street))
        pot = (Pot(before.pot, tuple(s.player for s in players)),)
        spot = spot_at(t, moment, profile, Knowledge.SHOWN, pot)
        found.append((Street(street), equities(spot, exact_limit=exact_limit)))
    return found


def _before_street(t: HandTrace, street: Street) -> Step | None:
    """The last step before `street`'s first event (its state: who is in, the pot), or None
    when the street was never reached."""
    previous: Step | None = None
    for step in t.steps:
        if step.street >= street and step.event is not None:
            return previous if previous is not None else step
        previous = step
    return None


def step_equities(
    t: HandTrace, profile: RuleProfile, exact_limit: int = EXACT_LIMIT
) -> list[Equities | None]:
    """For each step of the trace (`t.steps`, index by index), the equities a replayer shows
    beside it: from the hand's all-in step on, the all-in's (`all_in`: every pot, main and
    side, after rake; `Knowledge.SHOWN`); before it, the equities of the street the step is
    on (`street_equities`: the players in when the street was dealt, one pot of the chips in
    by then); None where they are not known (a street on which a live player's cards are
    never shown, the showdown, a hand decided before a second player's cards are known).
    `profile`: the one the trace was made under."""
    by_street = dict(street_equities(t, profile, exact_limit))
    step = t.all_in_step()
    at_all_in = None
    if step is not None:
        found = all_in(t, profile, Knowledge.SHOWN, exact_limit)
        at_all_in = found.equities if found is not None else None
    result: list[Equities | None] = []
    reached = False
    for each in t.steps:
        reached = reached or each is step
        if reached:
            result.append(at_all_in)
        else:
            result.append(by_street.get(each.street))
    return result
