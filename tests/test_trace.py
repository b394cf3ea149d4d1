"""The trace: one replay observed event by event (handlog.rules.trace).

Checked against the replay itself (the same verdicts and nets), against chip conservation at
every step, and on hand-written hands whose table states are worked out here."""

from __future__ import annotations

import gc

import pytest

from handlog.check import hand_rules
from handlog.model import Game, Hand, Structure
from handlog.parse import parse_file, parse_text
from handlog.rules.replay import replay
from handlog.rules.trace import STATUSES, HandTrace, trace
from handlog.simulate import SimulationOptions, simulate_hands
from tests.conftest import SITES


def _trace(hand: Hand) -> HandTrace:
    return trace(hand, *hand_rules(hand))


def _site_hands() -> list[Hand]:
    hands = []
    for path in sorted(SITES.glob("*/*")):
        if path.suffix == ".json":
            continue
        hands += [item for item in parse_file(str(path)) if isinstance(item, Hand)]
    return hands


def _check_invariants(t: HandTrace) -> None:
    hand = t.hand
    result = replay(hand, *hand_rules(hand))
    assert t.replay.violations == result.violations
    assert t.replay.net == result.net
    assert [s.event for s in t.steps if s.event is not None] == list(hand.events)
    assert {v for s in t.steps for v in s.violations} | set(t.unplaced) == set(t.violations)
    start = {seat.name: seat.stack for seat in hand.seats}
    shown: dict[str, int] = {}
    for step in t.steps:
        for seat in step.seats:
            assert seat.status in STATUSES
            # Chips are conserved: behind + in the pot - collected = the starting stack.
            assert seat.stack + seat.put_in - seat.collected == start[seat.player]
            assert len(seat.cards) <= 7
            if seat.status == "out":
                assert seat.cards == () and seat.put_in == 0
            # A step shows the cards dealt to the player by then: the first of their final ones.
            final = t.final_cards.get(seat.player, ())
            assert seat.cards == final[: len(seat.cards)]
            if seat.status != "out":  # and no fewer than the step before showed
                assert len(seat.cards) >= shown.get(seat.player, 0), (step.index, seat.player)
                shown[seat.player] = len(seat.cards)
        assert step.pot == sum(s.put_in - s.collected for s in step.seats)
        if step.to_act is not None:
            states = {s.player: s for s in step.seats}
            assert states[step.to_act].status == "in"
            assert step.to_call == max(0, step.current_bet - states[step.to_act].this_street)
    last = t.steps[-1] if t.steps else None
    if last is not None:
        assert {s.player: s.put_in for s in last.seats if s.put_in} == {
            p: v for p, v in t.replay.put_in.items() if v
        }
    paid = {}
    for award in t.awards:
        assert sum(award.shares.values()) == award.after_rake
        for player, share in award.shares.items():
            paid[player] = paid.get(player, 0) + share
    assert paid == {p: v for p, v in t.replay.expected_collect.items() if v}


def test_every_site_fixture_traces_as_it_replays() -> None:
    hands = _site_hands()
    assert len(hands) > 50
    for hand in hands:
        _check_invariants(_trace(hand))


def _unchanged_moves(hand: Hand) -> int:
    """Replay `hand`, copying the table's seats after every event and flag and after the last
    line; assert that they are the same whenever `Table.moves` is: how many times it was."""
    from handlog.rules.replay import _Replayer

    replayer = _Replayer(hand, *hand_rules(hand))
    table = replayer.table
    last: list[tuple[int, object]] = []

    def look(*_: object) -> None:
        seats = (
            dict(table.stack),
            dict(table.put_in),
            dict(table.street_put),
            dict(table.collected),
            {p: table.status(p) for p in table.order},
            table.current_bet,  # with `able`, what the trace counts from the seats
            frozenset(table.able),
        )
        if last and last[-1][0] == table.moves:
            assert last[-1][1] == seats, (hand.hand_id, table.moves)
        last.append((table.moves, seats))

    replayer.step_observer = look
    replayer.observer = look
    replayer.run()
    look()  # after the last line: returns and pots paid by the rules
    return sum(a[0] == b[0] for a, b in zip(last, last[1:], strict=False))


def test_the_tables_moves_count_every_change_of_a_seat() -> None:
    """The trace copies the seats only when `Table.moves` changed since its last copy: every
    change of a seat's chips (behind, in, on the street, collected), status or ability to act,
    and of the bet to match, must count one. Checked after every event and flag of the site fixtures and of simulated hands with
    faults, in every game (chips moved by flagged lines and by the rules after the last
    line included), against a copy of the seats made every time."""
    hands = _site_hands()
    for game in (Game.STUD, Game.STUD8, Game.RAZZ, Game.STUD5):
        options = SimulationOptions(game, 80, 8, seed=17, fault_rate=0.5)
        hands += [simulated.hand for simulated in simulate_hands(options)]
    assert sum(_unchanged_moves(hand) for hand in hands) > 1000


@pytest.mark.parametrize(
    ("game", "structure"),
    [
        (Game.STUD, Structure.FIXED),
        (Game.STUD8, Structure.NO_LIMIT),
        (Game.RAZZ, Structure.POT_LIMIT),
        (Game.STUD5, Structure.FIXED),
        (Game.RAZZ27, Structure.SPREAD),
    ],
)
def test_simulated_hands_trace_as_they_replay(game: Game, structure: Structure) -> None:
    options = SimulationOptions(game, 150, 8, seed=11, tournament=True, structure=structure)
    all_ins = 0
    for simulated in simulate_hands(options):
        t = _trace(simulated.hand)
        _check_invariants(t)
        step = t.all_in_step()
        if step is not None:
            all_ins += 1
            live = [s for s in step.seats if s.status in ("in", "all-in")]
            assert len(live) >= 2
            assert sum(s.status == "in" for s in live) <= 1
            # From the all-in on, nobody acts: only cards, shows and collects follow.
            after = t.steps[step.index + 1 :]
            assert not any(s.kind in ("bet", "raise", "complete", "bring_in") for s in after), (
                simulated.text
            )
    assert all_ins > 0


HAND = """\
PokerStars Game #100000000001:  7 Card Stud Limit ($0.04/$0.08 USD) - 2009/11/26 10:08:43 ET
Table 'Trace I' 8-max
Seat 1: Hero ($0.50 in chips)
Seat 2: Shorty ($0.07 in chips)
Seat 3: Villain ($2.00 in chips)
Seat 4: Idle ($1.00 in chips) is sitting out
Hero: posts the ante $0.01
Shorty: posts the ante $0.01
Villain: posts the ante $0.01
*** 3rd STREET ***
Dealt to Hero [Ac Kd 2c]
Dealt to Shorty [9s]
Dealt to Villain [Qh]
Hero: brings in for $0.02
Shorty: raises $0.02 to $0.04
Villain: calls $0.04
Hero: raises $0.04 to $0.08
Shorty: calls $0.02 and is all-in
Villain: calls $0.04
*** 4th STREET ***
Dealt to Hero [Ac Kd 2c] [3c]
Dealt to Shorty [9s] [9d]
Dealt to Villain [Qh] [Qc]
Villain: checks
Hero: checks
*** 5th STREET ***
Dealt to Hero [Ac Kd 2c 3c] [4c]
Dealt to Shorty [9s 9d] [Th]
Dealt to Villain [Qh Qc] [Js]
Shorty said, "gl"
Villain: bets $0.08
Hero: raises $0.08 to $0.16
Villain: folds
Uncalled bet ($0.08) returned to Hero
*** 6th STREET ***
Dealt to Hero [Ac Kd 2c 3c 4c] [5c]
Dealt to Shorty [9s 9d Th] [Tc]
*** RIVER ***
Dealt to Hero [Ac Kd 2c 3c 4c 5c] [6h]
*** SHOW DOWN ***
Hero: shows [Ac Kd 2c 3c 4c 5c 6h] (a straight flush, Ace to Five)
Shorty: shows [7s 8s 9s 9d Th Tc 2h] (two pair, Tens and Nines)
Hero collected $0.20 from side pot
Hero collected $0.20 from main pot
*** SUMMARY ***
Total pot $0.41 Main pot $0.20. Side pot $0.20. | Rake $0.01
Seat 1: Hero showed [Ac Kd 2c 3c 4c 5c 6h] and won ($0.40) with a straight flush, Ace to Five
Seat 2: Shorty showed [7s 8s 9s 9d Th Tc 2h] and lost with two pair, Tens and Nines
Seat 3: Villain folded on the 5th Street
"""


def test_a_hand_written_hand_step_by_step() -> None:
    items = list(parse_text(HAND, "trace.txt"))
    hand = items[0]
    assert isinstance(hand, Hand), items
    t = _trace(hand)
    kinds = [(s.kind, s.player) for s in t.steps]
    assert ("bring_in", "Hero") in kinds
    by_line = {s.line: s for s in t.steps}

    bring_in = by_line[14]
    assert bring_in.kind == "bring_in" and bring_in.amount == 2
    assert bring_in.to_act == "Shorty" and bring_in.to_call == 2
    assert bring_in.pot == 3 + 2

    # Shorty's call all-in for less: Villain is still to act; then the betting closes on
    # 3rd street with two players able to act, so it is not the all-in moment yet.
    short_call = by_line[18]
    states = {s.player: s for s in short_call.seats}
    assert states["Shorty"].status == "all-in" and states["Shorty"].stack == 0
    assert short_call.to_act == "Villain" and short_call.to_call == 4
    assert not short_call.betting_closed_with_cards_to_come
    assert states["Idle"].status == "out" and states["Idle"].cards == ()

    # Villain checks first on 4th street: the open pair of queens beats Shorty's nines
    # (all-in, who cannot act anyway).
    assert by_line[23].to_act == "Villain"

    # Villain folds on 5th street: Hero and the all-in Shorty are left: the all-in moment.
    fold = by_line[33]
    assert fold.kind == "fold" and fold.betting_closed_with_cards_to_come
    assert t.all_in_step() is fold
    uncalled = by_line[34]
    assert uncalled.kind == "uncalled" and uncalled.amount == 8
    assert {s.player: s.stack for s in uncalled.seats}["Hero"] == 50 - 1 - 8 - 8

    # Cards: Hero's three on 3rd street; Shorty's down cards are known from the showdown,
    # Villain's never are; each seat holds as many cards as it was dealt by then.
    third = {s.player: s for s in by_line[16].seats}
    assert [str(c.card) for c in third["Hero"].cards] == ["Ac", "Kd", "2c"]
    assert [c.face_up for c in third["Hero"].cards] == [False, False, True]
    assert [str(c.card) for c in third["Shorty"].cards] == ["7s", "8s", "9s"]
    assert [c.card for c in third["Villain"].cards][:2] == [None, None]
    end = {s.player: s for s in t.steps[-1].seats}
    assert len(end["Hero"].cards) == 7 and len(end["Shorty"].cards) == 7
    assert len(end["Villain"].cards) == 5  # folded on 5th street

    # The pots: a main pot of 21 (20 after the rake) that Shorty can win, and Hero's and
    # Villain's side pot of 20; both to Hero with the straight flush.
    assert t.violations == ()
    assert [(a.pot.amount, a.after_rake) for a in t.awards] == [(21, 20), (20, 20)]
    assert [a.pot.eligible for a in t.awards] == [("Hero", "Shorty"), ("Hero",)]
    assert t.awards[0].shares == {"Hero": 20} and t.awards[1].shares == {"Hero": 20}
    assert "straight flush" in t.awards[0].reason
    assert end["Hero"].collected == 40 and t.steps[-1].pot == 1


def _all_in_only_matches(hand: Hand) -> bool:
    """Whether the trace made for a hand's all-in (`all_in_only`) holds what the whole trace
    holds of it: the all-in step alone (the same record, its index and violations included),
    the replay, the final cards, the awards' pots and shares (not their words), the unplaced
    violations; and no flag states. True when the hand has an all-in step."""
    profile, traits = hand_rules(hand)
    whole = trace(hand, profile, traits)
    cut = trace(hand, profile, traits, all_in_only=True)
    step = whole.all_in_step()
    assert cut.steps == ((step,) if step is not None else ())
    assert cut.all_in_step() == step
    assert cut.replay == whole.replay
    assert cut.final_cards == whole.final_cards
    assert [(a.pot, a.after_rake, a.shares) for a in cut.awards] == [
        (a.pot, a.after_rake, a.shares) for a in whole.awards
    ]
    assert all(a.reason == "" for a in cut.awards)
    assert cut.unplaced == whole.unplaced
    assert cut.flagged == ()
    return step is not None


@pytest.mark.parametrize(
    ("game", "structure", "faults"),
    [
        (Game.STUD8, Structure.NO_LIMIT, 0.0),
        (Game.RAZZ, Structure.POT_LIMIT, 0.2),
        (Game.STUD5, Structure.NO_LIMIT, 0.0),
        (Game.STUD, Structure.NO_LIMIT, 0.2),
    ],
)
def test_the_all_in_trace_is_the_whole_traces_all_in(
    game: Game, structure: Structure, faults: float
) -> None:
    options = SimulationOptions(
        game, 120, 8, seed=5, tournament=True, structure=structure, fault_rate=faults
    )
    found = sum(_all_in_only_matches(simulated.hand) for simulated in simulate_hands(options))
    assert found > 5


def test_the_all_in_trace_of_every_site_fixture() -> None:
    assert sum(_all_in_only_matches(hand) for hand in _site_hands()) > 0


def test_a_trace_leaves_nothing_for_the_cycle_collector() -> None:
    # Compiled, an observer written as a function nested in `trace` and the environment it
    # shares with it held each other: every trace's records (a `_Raw` an event, the hand's
    # events) stayed until the cycle collector ran, 85 objects an all-in hand, some 20% of
    # an import's CPU on KingsClub's replicated corpus. Nothing of a trace may need it.
    options = SimulationOptions(
        Game.STUD, 40, 8, seed=5, tournament=True, structure=Structure.NO_LIMIT, fault_rate=0.2
    )
    hands = [simulated.hand for simulated in simulate_hands(options)]
    rules = [hand_rules(hand) for hand in hands]
    gc.collect()
    gc.disable()
    try:
        for hand, (profile, traits) in zip(hands, rules, strict=True):
            trace(hand, profile, traits)
            trace(hand, profile, traits, all_in_only=True)
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0
