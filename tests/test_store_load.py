"""`store.load` tells a batch's new hands from those stored before by reading the stored
hands with the batch as the join's build side (`store._stored_of`), so that DuckDB reads only
the stored hands whose site and ID lie between the batch's least and greatest: every hand of
the batch is still found, at either bound, beside hands of another site, in both of its ways
of loading (Arrow tables, and the Python rows of a few hands), and the row groups of stored
hands outside those bounds are not read."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from handlog import store
from handlog.check import CheckedHand, check_file

from .conftest import SITES


def _hands() -> list[CheckedHand]:
    """Parsed hands of two sites, each site's sorted by hand ID."""
    found = []
    for name in ("pokerstars", "fulltilt"):
        items = [
            item
            for path in sorted((SITES / name).glob("*.txt"))
            for item in check_file(str(path))
            if item.hand is not None
        ]
        unique = {item.hand.hand_id: item for item in items}  # type: ignore[union-attr]
        found.append([unique[key] for key in sorted(unique)])
    assert all(len(items) >= 3 for items in found), [len(items) for items in found]
    return [item for items in found for item in items]


def _batch(items: list[CheckedHand]) -> store.Batch:
    batch = store.Batch()
    for item in items:
        store.add_checked(batch, item)
    return batch


def _keys(items: list[CheckedHand]) -> set[tuple[str, str]]:
    return {(item.hand.site.value, item.hand.hand_id) for item in items}  # type: ignore[union-attr]


def _stored(connection: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    return sorted(connection.execute("SELECT site, hand_id FROM hands").fetchall())


@pytest.mark.parametrize("kind", ["arrow", "rows"])
def test_hands_stored_before_are_found_at_the_batchs_bounds_and_beside_another_site(
    tmp_path: Path, kind: str
) -> None:
    hands = _hands()
    sites = sorted({item.hand.site.value for item in hands})  # type: ignore[union-attr]
    first_site = [item for item in hands if item.hand.site.value == sites[0]]  # type: ignore[union-attr]
    # Stored first: the first site's hands of the least and the greatest ID, and one of the
    # other site (the batch's greatest site).
    other = [item for item in hands if item not in first_site]
    before = [first_site[0], first_site[-1], other[len(other) // 2]]
    connection = store.connect(tmp_path / "hands.duckdb")
    try:
        assert store.load(connection, _batch(before).arrow()) == len(before)
        batch = _batch(hands)
        tables = batch.arrow() if kind == "arrow" else batch.rows()
        assert tables["hands"].num_rows == len(hands)
        new = store.load(connection, tables)
        assert new == len(hands) - len(before)
        assert _stored(connection) == sorted(_keys(hands))
        # The hands' other rows went in once each too.
        players = connection.execute(
            "SELECT count(*), count(DISTINCT (site, hand_id, player)) FROM hand_players"
        ).fetchall()[0]
        assert players[0] == players[1]
        # Loaded again, nothing is new and nothing is added.
        again = _batch(hands)
        assert store.load(connection, again.arrow() if kind == "arrow" else again.rows()) == 0
        assert _stored(connection) == sorted(_keys(hands))
    finally:
        connection.close()


def test_the_stored_hands_outside_a_batchs_bounds_are_not_read(tmp_path: Path) -> None:
    """Three row groups of stored hands, numbered in order (as a player's sessions are): a
    batch of newer hands reads only the last of them."""
    connection = duckdb.connect(str(tmp_path / "groups.duckdb"))
    try:
        connection.execute("CREATE TABLE hands (site VARCHAR, hand_id VARCHAR)")
        connection.execute(
            "INSERT INTO hands SELECT 'pokerstars', lpad(i::VARCHAR, 12, '0') "
            "FROM range(300000) t(i)"
        )
        connection.execute("CHECKPOINT")
        ids = [str(300000 + i).zfill(12) for i in range(100)] + [str(299999).zfill(12)]
        connection.register("batch_hands", pa.table({"site": ["pokerstars"] * 101, "hand_id": ids}))
        query = f"SELECT count(*) FROM ({store._stored_of('batch_hands')})"
        assert connection.execute(query).fetchall() == [(1,)]
        plan = connection.execute("EXPLAIN ANALYZE " + query).fetchall()[0][1]
        scanned = [line for line in plan.splitlines() if "Row Groups Scanned" in line]
        if not scanned:
            pytest.skip("this DuckDB's EXPLAIN ANALYZE does not count the row groups scanned")
        assert "Row Groups Scanned: 1 / 3" in scanned[0], scanned
    finally:
        connection.close()
