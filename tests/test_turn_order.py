"""Turn order, written once (`tables.next_clockwise`): the bitmask form the fast path and the
engine's table both ask, against the rule as a person states it (go round the seats from the
one who acted, and take the first who still has to act), and the table's names for it; and
the order of a showdown (`Table.shows_first`, `Table.show_order`), on hands played here and on
PokerStars' real exports."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from handlog.check import hand_rules
from handlog.model import Action, ActionKind, Game, Hand, Seat, Street, Structure
from handlog.parse import parse_file
from handlog.rules.engine import Table
from handlog.rules.profiles import POKERSTARS
from handlog.rules.replay import _Replayer
from handlog.rules.tables import next_clockwise

from .conftest import pokerstars_corpus_files


def _walk(players: set[int], after: int, n: int) -> int:
    """The rule stated plainly: the seats after `after` in order, round to the first, `after`
    itself last; the first of them in `players`."""
    for step in range(1, n + 1):
        position = (after + step) % n
        if position in players:
            return position
    return -1


@given(st.data())
def test_next_clockwise_goes_round_the_seats(data):
    n = data.draw(st.integers(1, 8))
    players = data.draw(st.sets(st.integers(0, n - 1)))
    after = data.draw(st.integers(0, n - 1))
    mask = sum(1 << p for p in players)
    assert next_clockwise(mask, after) == _walk(players, after, n)


def test_next_clockwise_examples():
    assert next_clockwise(0b0000, 2) == -1  # nobody left to act
    assert next_clockwise(0b1001, 0) == 3  # the next seat up
    assert next_clockwise(0b0011, 3) == 0  # round past the last seat to the first
    assert next_clockwise(0b0100, 2) == 2  # only the player themself: they come last


def _table(names: list[str]) -> Table:
    seats = tuple(Seat(number, name, 100) for number, name in enumerate(names, start=1))
    return Table(Game.STUD, Structure.FIXED, POKERSTARS, seats, 2, 4)


def test_table_next_after_by_name():
    table = _table(["Ann", "Bob", "Cy", "Dee"])
    table.pending = {"Ann", "Cy"}
    assert table.next_after("Ann") == "Cy"
    assert table.next_after("Cy") == "Ann"
    assert table.next_after("Dee") == "Ann"
    assert table.next_after("Bob") == "Cy"
    table.pending = set()
    assert table.next_after("Bob") is None


def test_a_name_seated_twice_is_asked_at_each_of_its_seats():
    # Seats 1..4: Ann, Bob, Ann, Cy. The name's place is its last seat (`Lineup.seat_index`),
    # and either of its seats may be the next to act.
    table = _table(["Ann", "Bob", "Ann", "Cy"])
    table.pending = {"Ann", "Cy"}
    assert table.next_after("Bob") == "Ann"  # seat 3
    assert table.next_after("Cy") == "Ann"  # round to seat 1
    assert table.next_after("Ann") == "Cy"  # from seat 3
    table.pending = {"Ann"}
    assert table.next_after("Ann") == "Ann"  # seat 1 comes before seat 3 itself


def _at_last_street(names: list[str], folded: set[str]) -> Table:
    """A table on 7th street with every player dealt in, `folded` out."""
    table = _table(names)
    for name in names:
        table.post_ante(name, 1)
    for street in (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH):
        table.next_street(street)
    for name in folded:
        table.fold(name)
    table.open_round()
    return table


def test_the_last_aggressor_shows_first_then_clockwise():
    table = _at_last_street(["Ann", "Bob", "Cy", "Dee"], {"Bob"})
    table.check("Ann")
    table.bet("Cy", 4, 4, True)
    table.call("Dee", 4)
    table.call("Ann", 4)
    table.next_street(Street.SHOWDOWN)
    assert table.shows_first() == "Cy"
    assert table.show_order() == ["Cy", "Dee", "Ann"]


def test_with_no_bet_on_the_last_street_the_lowest_seat_still_in_shows_first():
    table = _at_last_street(["Ann", "Bob", "Cy", "Dee"], {"Ann"})
    for name in ("Cy", "Dee", "Bob"):
        table.check(name)
    table.next_street(Street.SHOWDOWN)
    assert table.shows_first() == "Bob"
    assert table.show_order() == ["Bob", "Cy", "Dee"]


def test_a_bet_on_an_earlier_street_does_not_decide_the_showing():
    table = _table(["Ann", "Bob", "Cy"])
    for name in ("Ann", "Bob", "Cy"):
        table.post_ante(name, 1)
    table.next_street(Street.SIXTH)
    table.open_round()
    table.bet("Cy", 4, 4, True)
    assert table.shows_first() == "Ann"  # 6th street is not the last
    table.next_street(Street.SEVENTH)
    assert table.shows_first() == "Ann"  # nobody bet on 7th street


def test_pokerstars_showdowns_are_printed_in_the_tables_show_order():
    """PokerStars prints every player at a showdown, show or muck, in the order the rule
    says (`Table.show_order`): the claim `Table.shows_first` cites, on its real exports."""
    showdowns = 0
    for path in pokerstars_corpus_files():
        for hand in parse_file(path):
            if not isinstance(hand, Hand):
                continue
            shown = [
                event.player
                for event in hand.events
                if type(event) is Action
                and event.street == Street.SHOWDOWN
                and event.kind in (ActionKind.SHOW, ActionKind.MUCK)
            ]
            if len(shown) < 2:
                continue
            replayer = _Replayer(hand, *hand_rules(hand))
            replayer.run()
            assert replayer.table.show_order() == shown, (path.name, hand.hand_id)
            showdowns += 1
    assert showdowns >= 20
