"""Turn order, written once (`tables.next_clockwise`): the bitmask form the fast path and the
engine's table both ask, against the rule as a person states it (go round the seats from the
one who acted, and take the first who still has to act), and the table's names for it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from handlog.model import Game, Seat, Structure
from handlog.rules.engine import Table
from handlog.rules.profiles import POKERSTARS
from handlog.rules.tables import next_clockwise


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
