"""Schema migrations: a database written by an older handlog opens, migrated, with the rows a
new import writes."""

from __future__ import annotations

import duckdb

from handlog.importer import import_paths
from handlog.store import SCHEMA_VERSION, connect

from .conftest import SAMPLE_LOGS

SAMPLES = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt"))

# What schema version 2 stored in `actions`: a raise's `amount` was PokerStars' raise size over
# the bet it faced, and `to_amount` was kept for raises (and completions written as raises)
# only. Rewritten here from today's neutral rows, the way a version-2 handlog wrote them.
TO_VERSION_2 = """
CREATE TEMP TABLE old_amounts AS
SELECT site, hand_id, seq, kind, amount, to_amount,
    coalesce(max(to_amount) OVER (
        PARTITION BY site, hand_id, street ORDER BY seq
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS bet_faced
FROM actions
WHERE kind IN ('bring_in', 'complete', 'bet', 'raise', 'call') AND street <> 'antes';
UPDATE actions SET
    amount = CASE
        WHEN o.kind = 'raise' OR (o.kind = 'complete' AND o.bet_faced > 0)
        THEN o.to_amount - o.bet_faced ELSE o.amount END,
    to_amount = CASE
        WHEN o.kind = 'raise' OR (o.kind = 'complete' AND o.bet_faced > 0)
        THEN o.to_amount ELSE NULL END
FROM old_amounts o
WHERE actions.site = o.site AND actions.hand_id = o.hand_id AND actions.seq = o.seq;
DROP TABLE old_amounts;
UPDATE meta SET value = '2' WHERE key = 'schema_version';
"""

ACTIONS = "SELECT * FROM actions ORDER BY site, hand_id, seq"


def test_version_2_actions_migrate_to_neutral_amounts(tmp_path):
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    connection = duckdb.connect(str(db))
    fresh = connection.execute(ACTIONS).fetchall()
    connection.execute(TO_VERSION_2)
    old = connection.execute(ACTIONS).fetchall()
    connection.close()
    # the rewrite changed raises' amounts and dropped the street totals of calls
    changed = [(new, was) for new, was in zip(fresh, old, strict=True) if new != was]
    assert {new[5] for new, _ in changed} >= {"raise", "call", "bring_in"}

    migrated = connect(db)
    try:
        version = migrated.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert version == (str(SCHEMA_VERSION),)
        assert migrated.execute(ACTIONS).fetchall() == fresh
    finally:
        migrated.close()


def test_version_4_hands_gain_their_betting_structure(tmp_path):
    """Every hand a version-4 handlog stored was fixed limit: the new column says so."""
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    connection = duckdb.connect(str(db))
    hands = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
    connection.execute("ALTER TABLE hands DROP COLUMN structure")
    connection.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    connection.close()

    migrated = connect(db)
    try:
        assert migrated.execute(
            "SELECT structure, count(*) FROM hands GROUP BY structure"
        ).fetchall() == [("fixed", hands)]
        columns = [row[0] for row in migrated.execute("DESCRIBE hands").fetchall()]
        assert columns[-1] == "structure"  # where a new database has it: rows load by position
    finally:
        migrated.close()
