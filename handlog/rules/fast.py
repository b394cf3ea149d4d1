"""The fast path of the replay: `replay_clean(hand, profile)` replays a hand that breaks no rule.

Nearly every real hand breaks no rule. `replay_clean` replays such a hand, in every game and
betting structure, in one function whose state lives in local variables (attribute lookups
and method calls are most of what a Python replay costs) and gives up, returning None, at the
first thing it does not expect: anything that `_Replayer` would flag, and the rarer
situations whose bookkeeping it leaves to `_Replayer` (an all-in bring-in or ante; a bet or
raise on a street after a short all-in that did not reopen the betting; a name seated twice;
lines out of their usual place). `replay` then replays the hand again with `_Replayer`, which
explains every fault. On real and simulated hands over 99% take the fast path, which is some
twice as fast as `_Replayer`. At a showdown the fast path ranks each hand once, for every pot
it is in and for its description (`_clean_awards`, side pots included); ties go to `Awards`.

The rules are the engine's (`handlog.rules.engine.Table`), called here as the same functions:
who brings in (`tables.bring_in_index`) and who acts first (`tables.best_showing`), the open
pair (`tables.open_pair_round`), fixed limit's sizes (`tables.fixed_sizes`) and the range of
spread, pot and no limit (`structures.raise_range`), the cap (`tables.cap_allows`), whether a
short all-in reopens (`tables.counts_as_bet`), the uncalled bet (`tables.uncalled_due`), the
pots (`tables.build_pots`), the community card (`tables.deck_runs_short`). What it keeps of
its own is the state, in the compact form below; the turn goes round as the table's
(`tables.next_clockwise`, which `Table.next_after` asks too, on the same bitmask of seats).

Where `_Replayer` keys its state by the players' names, the fast path indexes it by seat
position (0 to n-1 in `Lineup.order`): each line's name is looked up once
(`Lineup.seat_index`); per-player amounts and cards are lists by position, and sets of
players are ints with bit p for position p (in seat order from the lowest bit, as
`_Replayer.dealt_in` is kept). A name not seated gives up, except in a show or muck line,
whose cards `_Replayer` takes as they are. The result is keyed by name again for the pots and
awards (`build_pots`, `_clean_awards`, `Awards`) and for the `Replay` record.

`_Replayer` is the specification: on every hand this function accepts, its result must be
exactly `_Replayer`'s (no violations, the same pots, amounts and awards). A change to a rule
there needs the same change here, or a `return None` for the case; tests/test_replay.py
compares the two on corpus, random pokerkit and mutated hands.

This module is written for mypyc as well as for CPython: `pip install` compiles it to a C
extension when a compiler is at hand (see `setup.py` and `handlog._native`), which runs it some
one and a half times faster; without one, or with HANDLOG_PURE_PYTHON=1, this source runs as it
is. Its annotations are exact (mypyc checks them at run time), and module constants are
`Final` (mypyc reads those as C globals rather than by a dictionary lookup).
"""

from __future__ import annotations

from typing import Final

from handlog.cards import Card
from handlog.holdings import FACE_UP, FIRST_STREET
from handlog.model import BETTING_KINDS, Action, ActionKind, Dealt, Game, Hand, Street
from handlog.rules import evaluate
from handlog.rules.awards import Awards, pots_after_rake
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.structures import STRUCTURES, Ceiling, capped, raise_range, smallest_bet
from handlog.rules.tables import (
    BIG_BET_STREETS,
    BRING_IN_VALUES,
    CARDS_PER_PLAYER,
    DECK_SIZE,
    LAST_STREET,
    UP_CARDS_BEFORE,
    UP_POSITIONS,
    Pot,
    Replay,
    award,
    best_showing,
    bring_in_index,
    build_pots,
    cap_allows,
    counts_as_bet,
    deck_runs_short,
    describe,
    describe_strength,
    fixed_sizes,
    has_pair,
    known_cards,
    lineup,
    next_clockwise,
    open_pair_round,
    showing_keys,
    uncalled_due,
)
from handlog.rules.traits import PRINTS_EVERYTHING, SiteTraits, UncalledBets
from handlog.rules.variants import VARIANTS

_SEVENTH: Final = Street.SEVENTH
_ANTES: Final = Street.ANTES
_FOLD: Final = ActionKind.FOLD
_CHECK: Final = ActionKind.CHECK
_CALL: Final = ActionKind.CALL
_BRING_IN: Final = ActionKind.BRING_IN
_ANTE: Final = ActionKind.ANTE
_UNCALLED: Final = ActionKind.UNCALLED_BET_RETURNED
_COLLECT: Final = ActionKind.COLLECT
_SHOW: Final = ActionKind.SHOW
_COMPLETE: Final = ActionKind.COMPLETE
_BET: Final = ActionKind.BET
_BETTING_KINDS: Final = BETTING_KINDS
_SHOWDOWN_KINDS: Final = frozenset({_SHOW, ActionKind.MUCK})
_OPENING_KINDS: Final = frozenset({_BRING_IN, _COMPLETE})
_NEXT_STREET: Final = {street: Street(street + 1) for street in Street if street + 1 in set(Street)}
_FIRST_STREET_CARDS: Final = {
    game: 3 if len(layout) == 7 else 2 for game, layout in FACE_UP.items()
}
"""Cards in the hero's line on the first street: every card dealt so far."""


def replay_clean(
    hand: Hand, profile: RuleProfile, traits: SiteTraits = PRINTS_EVERYTHING
) -> Replay | None:
    """`_Replayer(hand, profile, traits).run()` for a hand that breaks no rule; None when the
    hand breaks one, or might, or takes a path this function leaves to `_Replayer`. A bet
    nobody called goes as the site's traits say (`UncalledBets`): back with its line, back
    without one (returned here at the street's end, as `_Replayer._check_uncalled_due`
    does), or left in the pot."""
    game = hand.game
    structure = STRUCTURES[hand.structure]
    exact = structure.exact_sizes
    is_capped = capped(structure, profile)
    at_least_last = profile.spread_raise_at_least_last or structure.ceiling is not Ceiling.SPREAD
    seats = hand.seats
    seat_order = lineup(seats)
    order = seat_order.order
    seat_index = seat_order.seat_index
    n = len(order)
    if len(seat_index) != n:
        return None  # a name seated twice
    first_street = FIRST_STREET[game]
    last_street = LAST_STREET[game]
    big_bet_streets = BIG_BET_STREETS[game]
    face_up = FACE_UP[game]
    up_cards_before = UP_CARDS_BEFORE[game]
    up_positions = UP_POSITIONS[game]
    first_up = up_positions[0]
    first_street_cards = _FIRST_STREET_CARDS[game]
    size = CARDS_PER_PLAYER[game]
    community = hand.community_card
    show_limit = size - 1 if community is not None else size
    ante = hand.ante or 0
    small_bet, big_bet = hand.small_bet, hand.big_bet
    fixed_bring_in = profile.bring_in_for(hand.currency, small_bet, big_bet)
    house_raise = profile.house_raise(hand.bring_in, hand.ante)
    bring_in_values = BRING_IN_VALUES[game]
    showing = showing_keys(game, profile)
    showing_primes = showing.primes
    showing_values = showing.values
    showing_memo = showing.memo
    by_seat = profile.first_actor_tie is TieBreak.CLOCKWISE
    uncalled_bets = traits.uncalled_bets
    line_due = uncalled_bets is UncalledBets.LINE
    """A bet nobody called must be returned with a line (else the site returns it without
    one, `UncalledBets.SILENT`, or leaves it in the pot, `UncalledBets.IN_POT`)."""
    silent = uncalled_bets is UncalledBets.SILENT

    # Players are seat positions: per-player state in lists by position, sets of players in
    # bitmasks (bit p: position p).
    stack = [0] * n
    for seat in seats:
        stack[seat_index[seat.name]] = seat.stack
    put_in = [0] * n
    collected = [0] * n
    street_put = [0] * n
    dealt_in = anted = able = folded = all_in = 0
    folded_early: dict[int, Street] = {}
    door_value = [-1] * n
    """Each player's door card as `BRING_IN_VALUES` orders it; -1 before it is dealt."""
    up_cards: list[tuple[Card, ...]] = [()] * n
    """Up cards by deal position; the card checks' up-card count is their number."""
    slots: list[list[Card | None]] = [[None] * size for _ in range(n)]
    seen: set[Card] = {community} if community is not None else set()
    """Every card seen so far, the community card included (no player may be dealt it)."""
    # Each player's up cards as the product of their ranks' primes and the biggest card value
    # (`_Replayer._showing_key`), kept up to date as the cards come.
    up_primes = [1] * n
    up_top = [0] * n
    shows: list[Action] = []
    street = Street.ANTES
    pending = 0
    expected_first = last_actor = -1  # -1: nobody
    current_bet = bets = started_with = last_raise = 0
    matched = 0
    """Players whose chips on this street equal the current bet: with just one, the bet was
    not called (`tables.uncalled_due` would be positive)."""
    round_open = double_bet = big_bet_made = returned = hand_over = False
    short_all_in = False
    """A short all-in on this street did not reopen the betting."""

    on_first = False  # on the first street
    position = 0  # the deal position of this street's card (after the first street)
    position_up = False
    ups_before = ups_by_now = 0
    for event in hand.events:
        event_street = event.street
        if event_street is not street and event_street <= _SEVENTH:
            # `_next_street`: the street before must be complete, with any uncalled bet
            # returned; the streets come one after the other.
            if event_street is not (first_street if street is _ANTES else _NEXT_STREET[street]):
                return None
            if event_street > last_street:
                return None  # more streets than the game has: no deal position for them
            ended = returned or not line_due  # no uncalled bet left to return with a line
            if street >= first_street and not _clean_round_closed(
                dealt_in, folded, able, pending, round_open, street_put, current_bet, ended, matched
            ):
                return None
            if street >= first_street and silent and not returned and any(street_put):
                # `_Replayer._check_uncalled_due`: back without a line (none uncalled: no move)
                top, due = uncalled_due(street_put)
                all_in, able = _give_back(
                    top, due, stack, put_in, street_put, all_in, able, folded, dealt_in
                )
            if hand_over and event_street <= last_street:
                return None
            street = event_street
            street_put = [0] * n
            current_bet = bets = last_raise = 0
            big_bet_made = returned = round_open = double_bet = short_all_in = False
            last_actor = -1
            on_first = street is first_street
            position = street - 1
            position_up = face_up[position]
            ups_before = up_cards_before[position]
            ups_by_now = ups_before + (1 if position_up else 0)
        if isinstance(event, Dealt):  # compiled: a type check, then C field reads
            player = seat_index.get(event.player, -1)
            if player < 0 or event_street is not street:
                return None
            new = event.new
            row = slots[player]
            if on_first:
                bit = 1 << player
                if not dealt_in & bit:
                    if round_open:
                        return None  # dealt in after the betting started
                    dealt_in |= bit  # `_deal_in_order`: bits are in seat order
                    able |= bit
                count = len(new)
                if count == 1:
                    card = new[0]
                    if row[first_up] is not None or card in seen:
                        return None
                    seen.add(card)
                    row[first_up] = card
                elif count == first_street_cards:
                    for index, card in enumerate(new):
                        if row[index] is not None or card in seen:
                            return None
                        seen.add(card)
                        row[index] = card
                else:
                    return None
                door_card = new[-1]
                door_value[player] = bring_in_values[door_card]
                up_cards[player] = (door_card,)
                up_primes[player] = showing_primes[door_card]
                up_top[player] = showing_values[door_card]
            else:
                if len(new) != 1:
                    return None
                previous = event.previous
                ups = up_cards[player]
                count = len(previous)
                if count == position:  # the hero's line: every card so far
                    if tuple(row[:count]) != previous:
                        return None
                elif previous != ups:  # an opponent's: the up cards so far, as seen
                    return None
                card = new[0]
                if row[position] is not None or card in seen:
                    return None
                seen.add(card)
                row[position] = card
                if position_up:
                    if len(ups) != ups_before:
                        return None
                    up_cards[player] = (*ups, card)
                    up_primes[player] *= showing_primes[card]
                    value = showing_values[card]
                    if value > up_top[player]:
                        up_top[player] = value
            continue
        if not isinstance(event, Action):
            continue  # notes change nothing
        kind = event.kind
        player = seat_index.get(event.player, -1)
        if kind in _BETTING_KINDS:
            if event_street is not street or street < first_street or player < 0:
                return None
            bit = 1 << player
            if not able & bit:
                return None
            if not round_open:
                # `Table.open_round`
                round_open = True
                pending = able
                started_with = able.bit_count()
                expected_first = -1
                in_hand = dealt_in & ~folded
                if on_first:  # `Table.bring_in_player`
                    players = [p for p in range(n) if dealt_in >> p & 1]
                    index = bring_in_index([door_value[p] for p in players])
                    if index >= 0:
                        expected_first = players[index]
                else:
                    # `Table.first_actor`: unknown when some player's up cards are not
                    # printed (then the hand says who opens).
                    known = True
                    with_community = street is _SEVENTH and community is not None
                    players = []
                    keys: list[tuple[object, ...]] = []
                    for p in range(n):
                        if not in_hand >> p & 1:
                            continue
                        ups = up_cards[p]
                        if len(ups) < ups_by_now:
                            known = False
                            break
                        if not ups:
                            continue
                        if with_community:
                            assert community is not None
                            code = up_primes[p] * showing_primes[community] * 4 + (
                                max(up_top[p], showing_values[community]) & 3
                            )
                        else:
                            code = up_primes[p] * 4 + (up_top[p] & 3)
                        key = showing_memo.get(code)
                        if key is None:
                            cards = [*ups, community] if with_community else [*ups]
                            key = showing.work_out(code, cards)  # type: ignore[arg-type]
                        players.append(p)
                        keys.append(key)
                    if known:
                        index = best_showing(keys, by_seat)
                        if index >= 0:
                            expected_first = players[index]
                            if all_in >> expected_first & 1:
                                # An all-in player cannot act: the next one clockwise does.
                                candidate = next_clockwise(pending, expected_first)
                                if candidate >= 0:
                                    expected_first = candidate
                    # `Table.double_bet_allowed`
                    double_bet = open_pair_round(street, game, exact, profile) and (
                        not known
                        or any(has_pair(up_cards[p]) for p in range(n) if in_hand >> p & 1)
                    )
            # `Table.to_act`
            to_act = expected_first if last_actor < 0 else last_actor
            if to_act >= 0 and (last_actor >= 0 or not pending >> to_act & 1):
                to_act = next_clockwise(pending, to_act)
            if player != to_act and not (to_act < 0 and last_actor < 0 and pending):
                return None  # out of turn (an opener not known: whoever opens, opens)
            if last_actor < 0 and on_first and kind not in _OPENING_KINDS:
                return None  # 3rd street opens with the bring-in or a completion
            owed = current_bet - street_put[player]
            if kind is _CALL:
                amount = event.amount or 0
                left = stack[player]
                if owed <= 0 or amount != (owed if owed < left else left):
                    return None  # a wrong call
                left -= amount
                if event.all_in and left > 0:
                    return None  # "all-in" with chips left: `_Replayer._chips_left_all_in`
                stack[player] = left
                put_in[player] += amount
                street_put[player] += amount
                if amount == owed:
                    matched += 1
                if left <= 0:  # all-in, maybe for less
                    all_in |= bit
                    able &= ~bit
                pending &= ~bit
            elif kind is _CHECK:
                if owed > 0:
                    return None
                pending &= ~bit
            elif kind is _FOLD:
                if street < last_street:
                    folded_early.setdefault(player, street)
                folded |= bit
                pending &= ~bit
                able &= ~bit
                if (dealt_in & ~folded).bit_count() == 1:
                    hand_over = True
            elif kind is _BRING_IN:
                amount = event.amount or 0
                left = stack[player]
                if bets or current_bet or not 0 < amount < small_bet or amount >= left:
                    return None
                if event.all_in:
                    return None  # "all-in" with chips left
                if fixed_bring_in is not None and amount != fixed_bring_in:
                    return None
                stack[player] = left - amount
                put_in[player] += amount
                street_put[player] += amount
                current_bet = max(current_bet, street_put[player])
                matched = 1
                pending = able & ~bit
            else:  # `_bet_or_raise`: a completion, bet or raise
                before = street_put[player]
                to_amount = event.to_amount
                chips = event.amount
                if to_amount is not None:
                    total = to_amount
                    raise_by = event.raise_by
                    if raise_by is not None and raise_by != total - current_bet:
                        return None
                    if chips is not None and chips != total - before:
                        return None
                else:
                    total = before + (chips or 0)
                put = total - before
                left = stack[player]
                if put >= left and (put > left or total <= current_bet):
                    return None  # over the stack, or an all-in that raises nothing
                if short_all_in:
                    return None  # a bet after a short all-in: whether it may raise
                if kind is _BET and current_bet:
                    return None  # a bet facing a bet
                goes_all_in = put == left
                street_size = big_bet if street in big_bet_streets else small_bet
                least_bet = street_size
                if exact:  # `tables.fixed_sizes`
                    sizes = fixed_sizes(
                        street_size,
                        small_bet,
                        big_bet,
                        double_bet,
                        big_bet_made,
                        profile,
                        house_raise if on_first and bets == 1 else None,
                    )
                    if kind is _COMPLETE:
                        least = most = small_bet
                        if total != small_bet and not (goes_all_in and total < least):
                            return None
                    else:
                        base = current_bet  # 0 for a bet
                        least, most = base + min(sizes), base + max(sizes)
                        if total - base not in sizes and not (goes_all_in and total < most):
                            return None
                else:  # `structures.raise_range`: spread, pot and no limit
                    least_bet = smallest_bet(structure, small_bet, street_size)
                    least, ceiling = raise_range(
                        structure,
                        current_bet=current_bet,
                        last_raise=last_raise,
                        least_bet=least_bet,
                        top=big_bet,
                        pot=sum(put_in),
                        owed=current_bet - before,
                        at_least_last=at_least_last,
                    )
                    if total < least and not goes_all_in:
                        return None
                    if ceiling is not None and total > ceiling:
                        return None
                # A short all-in (less than a full bet or raise) reopens the betting only when
                # the structure and the profile say so (`tables.counts_as_bet`); when it does
                # not, the hand is left to `_Replayer` at the next bet of the street
                # (`short_all_in`), so every bet here reopens the betting for everyone still
                # in, and the raise after a short all-in that `_Replayer` checks cannot happen.
                reopens = counts_as_bet(
                    total, least, goes_all_in, current_bet, street_size, exact, profile
                )
                if reopens:
                    bets += 1
                    if not cap_allows(bets, started_with, profile, is_capped):
                        return None
                    if not exact:
                        last_raise = total - (current_bet if current_bet >= least_bet else 0)
                left -= put
                if event.all_in and left > 0:
                    return None  # "all-in" with chips left
                stack[player] = left
                put_in[player] += put
                street_put[player] = total
                if total - current_bet >= big_bet and double_bet:
                    big_bet_made = True
                current_bet = max(current_bet, total)
                matched = 1
                if left <= 0:  # all-in
                    all_in |= bit
                    able &= ~bit
                if reopens:
                    pending = able & ~bit
                else:
                    short_all_in = True
                    pending = 0
                    for p in range(n):
                        if able >> p & 1 and street_put[p] < current_bet:
                            pending |= 1 << p
                    pending &= ~bit
            last_actor = player
        elif kind is _ANTE:
            if street is not _ANTES or player < 0:
                return None
            bit = 1 << player
            if anted & bit:
                return None
            anted |= bit
            if not dealt_in & bit:
                dealt_in |= bit  # `_deal_in_order`: bits are in seat order
                able |= bit
            amount = event.amount or 0
            left = stack[player]
            if amount != ante or amount >= left:
                return None
            stack[player] = left - amount
            put_in[player] += amount
        elif kind is _UNCALLED:
            if street < first_street or player < 0:
                return None
            top, due = uncalled_due(street_put)
            amount = event.amount or 0
            if top != player or amount != due:
                return None
            returned = True
            all_in, able = _give_back(
                player, amount, stack, put_in, street_put, all_in, able, folded, dealt_in
            )
            matched = 0  # no longer used: returned is set
        elif kind is _COLLECT:
            if player < 0:
                return None  # a collect by a name not seated, which nothing pays
            collected[player] += event.amount or 0
        elif kind in _SHOWDOWN_KINDS:
            shown = event.cards
            if shown:
                row_shown = slots[player] if player >= 0 else None
                if len(shown) > show_limit or not _see_clean(row_shown, shown, seen):
                    return None
                if kind is _SHOW:
                    shows.append(event)

    # `_close_round(last=True)`
    betting = first_street <= street <= _SEVENTH
    ended = returned or not line_due
    if betting and not _clean_round_closed(
        dealt_in, folded, able, pending, round_open, street_put, current_bet, ended, matched
    ):
        return None
    if betting and silent and not returned and any(street_put):
        top, due = uncalled_due(street_put)  # as at the other streets' ends
        all_in, able = _give_back(
            top, due, stack, put_in, street_put, all_in, able, folded, dealt_in
        )
    # `_check_antes`, then the rest of the card checks
    if hand.ante and dealt_in & ~anted:
        return None
    for result in hand.results:
        shown = result.showed or result.mucked
        if shown:
            player = seat_index.get(result.player, -1)
            if player >= 0:
                row = slots[player]
                if (
                    tuple(row[: len(shown)]) != shown  # `_see_clean`'s usual case, inline
                    and not _see_clean(row, shown, seen)
                ):
                    return None
    streets_dealt = [street for street in hand.streets if street <= _SEVENTH]  # headers
    if last_street in streets_dealt:
        burns = len(streets_dealt) if profile.burns else 0
        if community is not None or dealt_in.bit_count() * size + burns > DECK_SIZE:  # else enough
            players = [p for p in range(n) if dealt_in >> p & 1]
            if (community is not None) != deck_runs_short(players, folded_early, size, burns):
                return None
    # `_pots` and `Awards.check`, by name from here on
    put_in_by_name = {order[p]: put_in[p] for p in range(n)}
    total = sum(put_in)
    if all_in:
        pots = build_pots(
            order,
            put_in_by_name,
            {order[p] for p in range(n) if folded >> p & 1},
            {order[p] for p in range(n) if all_in >> p & 1},
        )
    else:  # `build_pots` without all-ins: one pot of everything, for the players still in
        contenders = [p for p in range(n) if not folded >> p & 1 and put_in[p] > 0]
        if contenders:
            level = max(put_in[p] for p in contenders)
            pots = [Pot(total, tuple(order[p] for p in contenders if put_in[p] >= level))]
        else:
            pots = []
    rake = hand.rake
    if traits.prints_total_pot:
        printed_total = hand.total_pot + (rake if traits.total_pot_after_rake else 0)
        if total != printed_total or sum(collected) + rake != total or rake < 0 or rake > total:
            return None
    printed = 1 + len(hand.side_pots) if hand.main_pot is not None else None
    if printed is not None and pots and printed != len(pots):
        return None
    community_cards = (community,) if community else ()
    strengths: dict[tuple[Card, ...], tuple[Game, int | None, int | None]] = {}
    """`describe`'s key of each showdown hand ranked below, for `_check_descriptions`."""
    awarded = (
        _clean_awards(
            pots,
            pots_after_rake(hand, profile, [pot.amount for pot in pots]),
            known_cards(shows, hand),
            community_cards,
            game,
            profile,
            strengths,
        )
        if pots
        else None
    )
    if awarded is not None:
        expected, high_winners, low_winners = awarded
    else:  # ties, a pot nobody can claim, no pot at all: `Awards` decides
        awards = Awards(hand, profile, pots, seat_index, known_cards(shows, hand))
        expected, _ = awards.expected(awards.distributable())
        high_winners, low_winners = set(awards.high_winners), set(awards.low_winners)
    paid = {order[p]: collected[p] for p in range(n) if collected[p]}
    if paid != {p: v for p, v in expected.items() if v}:
        return None
    # `_check_descriptions`
    for show in shows if traits.describes_hands else ():
        if show.description is None:
            continue
        count = len(show.cards) + len(community_cards)
        if count < 5 or count < size:
            continue
        shown = show.cards + community_cards
        key = strengths.get(shown)
        try:
            words = describe_strength(*key) if key is not None else describe(shown, game)
            if words != show.description:
                return None
        except ValueError:
            continue
    net = {order[p]: collected[p] - put_in[p] for p in range(n)}
    for result in hand.results:  # `_Replayer._check_printed_nets`
        if result.net is not None and result.net != net.get(result.player, 0):
            return None
    return Replay(
        hand,
        (),
        tuple(pots),
        put_in_by_name,
        {order[p]: collected[p] for p in range(n)},
        net,
        expected,
        frozenset(high_winners),
        frozenset(low_winners),
    )


def _clean_awards(
    pots: list[Pot],
    amounts: list[int],
    known: dict[str, tuple[Card, ...]],
    community: tuple[Card, ...],
    game: Game,
    profile: RuleProfile,
    strengths: dict[tuple[Card, ...], tuple[Game, int | None, int | None]],
) -> tuple[dict[str, int], set[str], set[str]] | None:
    """`Awards.expected` of the pots (`amounts` after rake) when each pot, or each half of a
    hi/lo pot, has a single winner: what each player should collect, the high and the low
    winners; None otherwise (ties and pots nobody can claim are left to `Awards`). Each
    showdown hand is ranked once, for every pot it is in and for its description:
    `describe`'s key of each goes to `strengths`."""
    variant = VARIANTS[game]
    qualifier = variant.low_qualifier
    lowball = variant.lowball
    high_game = variant.high
    split = high_game and variant.low  # hi/lo (a low game's low is its whole hand)
    hands: dict[str, tuple[Card, ...]] = {}
    """Each eligible player's showdown hand that can be ranked (`Awards._hand`)."""
    highs: dict[str, int] = {}
    lows: dict[str, int | None] = {}
    expected: dict[str, int] = {}
    high_winners: set[str] = set()
    low_winners: set[str] = set()
    for pot, amount in zip(pots, amounts, strict=True):
        eligible = pot.eligible
        if len(eligible) == 1:  # uncontested: no hands to compare (`Awards._contenders`)
            winner = eligible[0]
            expected[winner] = expected.get(winner, 0) + amount
            high_winners.add(winner)
            continue
        best = best_low = -1
        winner = ""
        low_winner: str | None = None
        tied = low_tied = False
        claims = 0
        for p in eligible:
            cards = hands.get(p)
            if cards is None:
                if p in highs:
                    continue  # known not to rank
                cards = known.get(p, ())
                if len(cards) + len(community) <= 7:
                    cards = cards + community
                if not (5 <= len(cards) <= 7 and len(set(cards)) == len(cards)):
                    highs[p] = -1  # `Awards._hand` None: no claim
                    continue
                hands[p] = cards
                # rank once: in a low game the low is the hand (its winners count as high)
                if not high_game:
                    value = evaluate.low_rank(cards, qualifier, lowball)
                    highs[p] = -1 if value is None else value
                    strengths[cards] = (game, value, None)
                else:
                    highs[p] = evaluate.high_rank(cards)
                    low = evaluate.low_rank(cards, qualifier, lowball) if split else None
                    lows[p] = low
                    strengths[cards] = (game, highs[p], low)
            claims += 1
            value = highs[p]
            if value > best:
                winner, best, tied = p, value, False
            elif value == best:
                tied = True
            if split:
                low = lows[p]
                if low is not None:
                    if low > best_low:
                        low_winner, best_low, low_tied = p, low, False
                    elif low == best_low:
                        low_tied = True
        if not claims:
            return None
        if claims == 1:  # the only one in it to show a hand
            expected[winner] = expected.get(winner, 0) + amount
            high_winners.add(winner)
            continue
        if tied or low_tied:
            return None
        high_winners.add(winner)
        if low_winner is None:
            expected[winner] = expected.get(winner, 0) + amount
            continue
        low_winners.add(low_winner)
        for shares in award(amount, [winner], [low_winner], hands, game, profile):
            for player, share in shares.items():
                expected[player] = expected.get(player, 0) + share
    return expected, high_winners, low_winners


def _clean_round_closed(
    dealt_in: int,
    folded: int,
    able: int,
    pending: int,
    round_open: bool,
    street_put: list[int],
    current_bet: int,
    returned: bool,
    matched: int,
) -> bool:
    """`_close_round` for the fast path: the street's betting is complete (everyone still
    able to act has acted and matched the bet, unless one player is left) and a bet nobody
    called has been returned (`returned`: by its line, or the site needs none). False sends
    the hand to the full replay. The sets of players are bitmasks of positions."""
    if (dealt_in & ~folded).bit_count() > 1:
        if round_open:
            if pending:
                return False
        else:
            active = dealt_in & able
            if active.bit_count() >= 2 or (
                active and street_put[active.bit_length() - 1] < current_bet
            ):
                return False
    return returned or not current_bet or matched != 1


def _give_back(
    player: int,
    amount: int,
    stack: list[int],
    put_in: list[int],
    street_put: list[int],
    all_in: int,
    able: int,
    folded: int,
    dealt_in: int,
) -> tuple[int, int]:
    """`Table.give_back` for the fast path: the uncalled `amount` (never more than the
    street's bet of `player`, a position) goes back to them, and a player all-in with it may
    act again (none when it is 0: a player all-in here has no chips left). The sets of
    players `all_in` and `able` as they are then."""
    left = stack[player] + amount
    stack[player] = left
    put_in[player] -= amount
    street_put[player] -= amount
    bit = 1 << player
    if left > 0 and all_in & bit and not folded & bit and dealt_in & bit:
        all_in &= ~bit
        able |= bit
    return all_in, able


def _see_clean(row: list[Card | None] | None, cards: tuple[Card, ...], seen: set[Card]) -> bool:
    """Cards shown from the first deal position on: each one either already seen in that
    place or never seen anywhere (then it is recorded). False for anything else."""
    if row is None or tuple(row[: len(cards)]) == cards:
        return True
    if len(cards) > len(row):  # more cards than a player is dealt: the full replay says so
        return False
    for position, card in enumerate(cards):
        known = row[position]
        if known is card:
            continue
        if known is not None or card in seen:  # `seen` holds the community card
            return False
        seen.add(card)
        row[position] = card
    return True
