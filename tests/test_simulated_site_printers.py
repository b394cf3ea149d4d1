"""What the printers of Bovada, Everleaf, OnGame and Absolute do with a hand not read from
their own text (the simulator's records): a community card (none of them has a line of its
own for it), Bovada's anonymous seats and its tournament levels. tests/test_simulated_sites.py
checks every form each site deals; these check the rarer cases by name."""

from __future__ import annotations

import pytest

from handlog.cards import cards
from handlog.model import ActionKind, Dealt, Game, Hand, Site, Street
from handlog.parse import parse_text
from handlog.parse.sites import absolute, bovada, format_for
from handlog.parse.sites.community import community_card
from handlog.parse.text import level_number
from handlog.rules.replay import replay
from handlog.simulate import SimulatedHand, SimulationOptions, simulate_hands

SITES = (Site.BOVADA, Site.EVERLEAF, Site.ONGAME, Site.ABSOLUTE)


def _first(site: Site, wanted, hands: int = 800) -> SimulatedHand:  # type: ignore[no-untyped-def]
    """The first simulated 8-handed stud hand of `site` for which `wanted(hand)` holds."""
    options = SimulationOptions(Game.STUD, hands, 8, seed=61, site=site)
    for simulated in simulate_hands(options):
        if wanted(simulated.hand):
            return simulated
    raise AssertionError(f"no such hand in {hands}")


def _read(simulated: SimulatedHand) -> Hand:
    (hand,) = parse_text(simulated.text, f"{simulated.hand_id}.txt")
    assert isinstance(hand, Hand), hand
    return hand


def _nets_by_seat(hand: Hand, site: Site) -> dict[int, int]:
    found = format_for(site)
    assert found is not None
    outcome = replay(hand, found.profile, found.traits)
    assert not outcome.violations, outcome.violations[:2]
    seats = {seat.name: seat.number for seat in hand.seats}
    return {seats[name]: net for name, net in outcome.net.items()}


@pytest.mark.parametrize("site", SITES, ids=[site.value for site in SITES])
def test_a_community_card_is_dealt_on_every_river_line_and_read_back(site: Site) -> None:
    simulated = _first(site, lambda hand: hand.community_card is not None)
    hand = _read(simulated)
    card = simulated.hand.community_card
    assert hand.community_card == card
    assert card is not None
    printed = absolute._card(card) if site is Site.ABSOLUTE else str(card)
    assert simulated.text.count(printed) >= 2  # on each river line
    # No player is dealt it, and no shown hand holds it: it is everyone's.
    assert not [e for e in hand.events if type(e) is Dealt and e.street is Street.SEVENTH]
    for action in hand.actions:
        assert card not in action.cards, action
    for result in hand.results:
        assert card not in result.showed and card not in result.mucked, result
    assert _nets_by_seat(hand, site) == _nets_by_seat(simulated.hand, site)


def test_river_lines_dealing_different_cards_are_no_community_card() -> None:
    def river(player: str, card: str) -> Dealt:
        return Dealt(Street.SEVENTH, player, (), cards(card))

    assert community_card([river("A", "Qs"), river("B", "Qs")]) == cards("Qs")[0]
    assert community_card([river("A", "Qs"), river("B", "2d")]) is None
    assert community_card([river("A", "Qs")]) is None  # one player left: his own card


def test_bovada_names_a_simulated_hand_s_players_by_seat_and_the_hero_me() -> None:
    simulated = _first(Site.BOVADA, lambda hand: True)
    hand = _read(simulated)
    hero_seat = next(seat.number for seat in simulated.hand.seats if seat.name == "Hero")
    assert f"Seat+{hero_seat} [ME]: " in simulated.text
    names = {seat.number: seat.name for seat in hand.seats}
    assert names == {
        seat.number: bovada.HERO if seat.number == hero_seat else f"Seat+{seat.number}"
        for seat in simulated.hand.seats
    }


def test_bovada_writes_a_tournament_level_as_its_number() -> None:
    assert level_number("Level IV") == "4"
    assert level_number("Level XIV") == "14"
    assert level_number("Match Round I, Level IV") == "4"
    assert level_number("3") == "3"
    assert level_number(None) is None
    assert level_number("Level ?") == "Level ?"  # words it does not know, as they stand
    options = SimulationOptions(Game.STUD8, 1, 4, seed=3, tournament=True, site=Site.BOVADA)
    (simulated,) = simulate_hands(options)
    assert simulated.hand.tournament_level == "Level I"
    assert "Fixed Limit- Level 1 (0/0) - " in simulated.text.split("\n")[0]
    assert _read(simulated).tournament_level == "1"


def test_bovada_stakes_are_at_least_what_an_all_in_went_over() -> None:
    text = "\n".join(
        [
            "Bovada Hand #7: 7CARD Tournament #5 TBL#2, Fixed Limit- Level 6 (0/0) - "
            "2024-01-01 12:00:00",
            "Seat+1: 1000 in chips",
            "Seat+2: 143 in chips",
            "Seat+1 : Ante chip 20",
            "Seat+2 : Ante chip 20",
            "*** 3RD STREET ***",
            "Seat+1 : Card dealt to a spot [Kd]",
            "Seat+2 : Card dealt to a spot [2c]",
            "Seat+2 : Bring_in chip 30",
            "Seat+1 : Calls 30",
            "*** 4TH STREET ***",
            "Seat+1 : Card dealt to a spot [Kh]",
            "Seat+2 : Card dealt to a spot [3c]",
            "Seat+1 : Checks",
            "Seat+2 : Checks",
            "*** 5TH STREET ***",
            "Seat+1 : Card dealt to a spot [4h]",
            "Seat+2 : Card dealt to a spot [5c]",
            "Seat+1 : Checks",
            "Seat+2 : All-in 93",
            "Seat+1 : Calls 93",
            "*** SUMMARY ***",
            "Total Pot(286) | Rake (0)",
        ]
    )
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand), hand
    # Only the bring-in (30) and an all-in of 93 on 5th street: the big bet is at least 93.
    assert (hand.small_bet, hand.big_bet) == (47, 94)
    (all_in,) = [a for a in hand.actions if a.all_in]
    assert all_in.kind is ActionKind.BET


FAULTS = ("CARD_COUNT", "OVER_STACK", "WRONG_WINNER", "DUPLICATE_CARD")
"""Faults each of these sites can print: the hand reads back and the replay finds them (two
new cards on a street made Bovada's parser stop; a stack below nothing after the hand made
OnGame's summary line unreadable)."""


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("site", SITES, ids=[site.value for site in SITES])
def test_a_simulated_fault_reads_back_and_is_flagged(site: Site, fault: str) -> None:
    found = format_for(site)
    assert found is not None
    options = SimulationOptions(Game.STUD, 60, 8, seed=5, fault_rate=1.0, site=site)
    faulted = [s for s in simulate_hands(options) if s.fault == fault]
    assert faulted
    for simulated in faulted:
        hand = _read(simulated)
        codes = {v.code for v in replay(hand, found.profile, found.traits).violations}
        assert fault in codes, (codes, simulated.text)


def test_bovada_two_cards_on_a_street_read_and_flagged() -> None:
    # Under street headers the hero gets two cards on 4th street and holds eight on the
    # river: the replay's CARD_COUNT, not a parse error.
    streets = [
        ("*** 3RD STREET ***", "[2h 3h Kd]", "[4c 5c 2c]"),
        ("*** 4TH STREET ***", "[Ks 9d]", "[7c]"),
        ("*** 5TH STREET ***", "[Qd]", "[8c]"),
        ("*** 6TH STREET ***", "[Jd]", "[9c]"),
        ("*** RIVER ***", "[Td]", "[Tc]"),
    ]
    lines = [
        "Bovada Hand #8 TBL#4 7CARD Fixed Limit - 2024-01-01 12:00:00",
        "Seat+1 [ME]: $5 in chips",
        "Seat+2: $5 in chips",
        "Seat+1 [ME] : Ante chip $0.01",
        "Seat+2 : Ante chip $0.01",
    ]
    for header, mine, theirs in streets:
        lines += [
            header,
            f"Seat+1 [ME] : Card dealt to a spot {mine}",
            f"Seat+2 : Card dealt to a spot {theirs}",
        ]
        if header == "*** 3RD STREET ***":
            lines += ["Seat+2 : Bring_in chip $0.02", "Seat+1 [ME] : Calls $0.02"]
        else:
            lines += ["Seat+1 [ME] : Checks", "Seat+2 : Checks"]
    lines += [
        "Seat+1 [ME] : Showdown [Kd Ks Qd Jd Td 9d 2h 3h] (Straight)",
        "Seat+2 : Showdown [2c 4c 5c 7c 8c 9c Tc] (Flush)",
        "Seat+2 : Hand result $0.06",
        "*** SUMMARY ***",
        "Total Pot($0.06) | Rake ($0)",
    ]
    (hand,) = parse_text("\n".join(lines))
    assert isinstance(hand, Hand), hand
    found = format_for(Site.BOVADA)
    assert found is not None
    codes = {v.code for v in replay(hand, found.profile, found.traits).violations}
    assert "CARD_COUNT" in codes
