"""Equities of replayed hands (handlog.equity.hands): the all-in spot read from the trace, the
EV-adjusted nets, each street's equities; on a hand written here and on simulated tournament
hands of every game."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlog.cards import cards
from handlog.check import hand_rules
from handlog.equity import Method
from handlog.equity.hands import (
    Knowledge,
    all_in,
    apportion,
    ev_nets,
    hand_ev,
    may_have_all_in,
    street_equities,
)
from handlog.model import Game, Hand, Street
from handlog.parse import parse_text
from handlog.rules.replay import replay
from handlog.rules.tables import Pot
from handlog.rules.trace import HandTrace, trace
from handlog.simulate import SIMULATED_GAMES, SimulationOptions, simulate_hands

from .test_trace import HAND


def _traced(text: str) -> tuple[Hand, HandTrace]:
    hand = next(item for item in parse_text(text, "hand.txt") if isinstance(item, Hand))
    return hand, trace(hand, *hand_rules(hand))


def test_the_all_in_of_a_hand_written_hand() -> None:
    # Shorty is all-in on 3rd street; Hero and Villain bet on, and Villain's fold on 5th street
    # closes the betting with two cards to come: Hero against Shorty for the main pot, the
    # side pot Hero's alone.
    hand, t = _traced(HAND)
    profile, _ = hand_rules(hand)
    found = all_in(t, profile)
    assert found is not None and found.equities is not None
    assert found.street == Street.FIFTH and found.step.kind == "fold"
    spot = found.spot
    assert [(h.player, h.cards) for h in spot.holdings] == [
        ("Hero", cards("Ac Kd 2c 3c 4c")),
        ("Shorty", cards("7s 8s 9s 9d Th")),
    ]
    assert sorted(map(str, spot.dead)) == ["Js", "Qc", "Qh"]  # Villain's up cards, folded
    assert spot.pots == (Pot(20, ("Hero", "Shorty")), Pot(20, ("Hero",)))  # after the rake
    assert not spot.community
    equities = found.equities
    # 39 unknown cards: two more for Hero, two for Shorty.
    assert equities.method is Method.EXACT and equities.deals == 39 * 38 // 2 * 37 * 36 // 2
    assert sum(s.expected for s in equities.shares if s.pot == 0) == 20
    assert equities.expected("Hero") == 20 + equities.shares[0].expected

    nets = {n.player: n for n in ev_nets(t.replay, found)}
    assert {p: n.net for p, n in nets.items()} == {"Hero": 23, "Shorty": -7, "Villain": -17}
    assert nets["Hero"].ev_net == equities.expected("Hero") - 17
    assert nets["Villain"].ev_net == -17  # folded: no expectation
    assert sum(n.ev_net for n in nets.values()) == -hand.rake == -1
    assert sum(n.ev_net_units for n in nets.values()) == -1
    assert all(abs(n.ev_net_units - n.ev_net) < 1 for n in nets.values())
    assert hand_ev(hand, *hand_rules(hand)).nets == tuple(nets.values())

    # What the table saw: the down cards unknown, dealt like the cards to come.
    seen = all_in(t, profile, Knowledge.TABLE)
    assert seen is not None and seen.equities is not None
    assert [h.cards[:2] for h in seen.spot.holdings] == [(None, None), (None, None)]
    assert seen.equities.method is Method.SAMPLED
    assert sum(s.expected for s in seen.equities.shares if s.pot == 0) == 20

    # Hero and Shorty's cards are all shown, Villain's never: the streets after his fold.
    streets = street_equities(t, profile)
    assert [street for street, _ in streets] == [Street.SIXTH, Street.SEVENTH]
    assert all(e.equity("Hero") == 1.0 for _, e in streets)  # a straight flush from 6th on


def test_a_hand_without_an_all_in_keeps_its_net() -> None:
    text = HAND.replace("Shorty ($0.07 in chips)", "Shorty ($0.70 in chips)").replace(
        "calls $0.02 and is all-in", "calls $0.02"
    )
    hand, t = _traced(text)
    result = replay(hand, *hand_rules(hand))
    assert not may_have_all_in(result) and t.all_in_step() is None
    assert all_in(t, hand_rules(hand)[0]) is None
    found = hand_ev(hand, *hand_rules(hand), result)
    assert found.all_in is None
    assert [(n.player, n.ev_net, n.ev_net_units) for n in found.nets] == [
        (n.player, n.net, n.net) for n in found.nets
    ]


@pytest.mark.parametrize("game", SIMULATED_GAMES)
def test_simulated_tournament_hands(game: Game) -> None:
    options = SimulationOptions(game, 200, 8, seed=29, tournament=True)
    spots = 0
    for simulated in simulate_hands(options):
        hand = simulated.hand
        profile, traits = hand_rules(hand)
        result = replay(hand, profile, traits)
        t = trace(hand, profile, traits)
        # The filter on the replay never passes over an all-in with cards to come.
        assert may_have_all_in(result) or t.all_in_step() is None
        found = all_in(t, profile)
        nets = ev_nets(t.replay, found)
        assert sum(n.ev_net for n in nets) == -hand.rake
        assert sum(n.ev_net_units for n in nets) == -hand.rake
        assert all(abs(n.ev_net_units - n.ev_net) < 1 for n in nets)
        if found is None:
            assert all(n.ev_net == n.net for n in nets)
            continue
        spots += 1
        assert found.equities is not None, found.unknown  # the simulator shows every all-in
        for index, pot in enumerate(found.spot.pots):
            shares = [s for s in found.equities.shares if s.pot == index]
            assert sum(s.expected for s in shares) == pot.amount
        assert sum(pot.amount for pot in found.spot.pots) == sum(result.put_in.values()) - hand.rake
        if hand.community_card is not None:
            assert found.spot.community  # the same count of cards as the replay's check
    assert spots > 0


@given(
    st.lists(
        st.fractions(min_value=-1000, max_value=1000, max_denominator=97), min_size=1, max_size=8
    )
)
def test_apportion_rounds_each_within_a_unit_and_keeps_the_sum(values: list[Fraction]) -> None:
    whole = sum(values, Fraction(0))
    values.append(Fraction(round(whole)) - whole)  # a set of values summing to a whole number
    named = {f"p{index}": value for index, value in enumerate(values)}
    rounded = apportion(named, int(sum(values, Fraction(0))))
    assert sum(rounded.values()) == sum(values)
    assert all(abs(rounded[name] - value) < 1 for name, value in named.items())


# A Winamax hand of the corpus (its own odd "raises -6.10€" is the all-in for less): the 7th
# street's deal lines show no card, yet both players show seven at the showdown.
WINAMAX = """\
Winamax Poker - CashGame - HandId: #9250793-1578-1479092164 - 7-Card Stud fixed limit (5€/25€/50€) - 2016/11/14 02:56:04 UTC
Table: 'Pampelune' 6-max (real money)
Seat 2: Player0 (33.90€)
Seat 3: Player1 (2417.80€)
Seat 5: Hero (802.07€)
*** ANTE/BLINDS ***
Player0 posts ante 5€
Player1 posts ante 5€
Hero posts ante 5€
*** 3rd STREET ***
Dealt to Player0 [X X 8h]
Dealt to Player1 [X X Kc]
Dealt to Hero [Kd 3s 9h]
Player0 brings in 10€
Player1 raises 25€ to 25€
Hero folds
Player0 raises -6.10€ to 18.90€
Player1 calls 3.90€
*** 4th STREET ***
Dealt to Player1 [X X Kc] [6d]
Dealt to Player0 [X X 8h] [5c]
*** 5th STREET ***
Dealt to Player1 [X X Kc 6d] [7d]
Dealt to Player0 [X X 8h 5c] [Js]
*** 6th STREET ***
Dealt to Player1 [X X Kc 6d 7d] [2d]
Dealt to Player0 [X X 8h 5c Js] [Ad]
*** 7th STREET ***
Dealt to Player1 [X X Kc 6d 7d 2d] [X]
Dealt to Player0 [X X 8h 5c Js Ad] [X]
*** SHOW DOWN ***
Player1 shows [Jh 6h Kc 6d 7d 2d 9s] (One pair : 6)
Player0 shows [4d Ac 8h 5c Js Ad Ts] (One pair : Aces)
Player0 collected 70.30€ from pot
*** SUMMARY ***
Total pot 70.30€ | Rake 2.50€
Seat 2: Player0 showed [4d Ac 8h 5c Js Ad Ts] and won 70.30€ with One pair : Aces
Seat 3: Player1 showed [Jh 6h Kc 6d 7d 2d 9s] and lost with One pair : 6
"""


def test_a_third_street_all_in_with_the_heros_folded_cards_dead() -> None:
    hand, t = _traced(WINAMAX)
    profile, _ = hand_rules(hand)
    assert [len(slots) for slots in t.final_cards.values()] == [7, 7, 3]  # the 7th cards shown
    found = all_in(t, profile)
    assert found is not None and found.equities is not None
    assert found.street == Street.THIRD
    assert [(h.player, h.cards) for h in found.spot.holdings] == [
        ("Player0", cards("4d Ac 8h")),
        ("Player1", cards("Jh 6h Kc")),
    ]
    assert found.spot.dead == cards("Kd 3s 9h")  # the hero folded: every card of his known
    assert found.equities.method is Method.SAMPLED and found.equities.error <= 0.005
    # The seeded sample's figures (Player0's equity 0.5199 ± 0.0048; exactly 0.5182).
    assert [n.ev_net_units for n in ev_nets(t.replay, found)] == [265, -15, -500]
    assert sum(n.ev_net for n in ev_nets(t.replay, found)) == -hand.rake == -250
    # Equities on every street, the hero in on 3rd; the last one settled: Player0's aces.
    streets = street_equities(t, profile)
    assert [street for street, _ in streets] == list(map(Street, range(3, 8)))
    assert streets[-1][1].equity("Player0") == 1.0 and streets[-1][1].deals == 1
    assert streets[0][1].equity("Hero") > 0
