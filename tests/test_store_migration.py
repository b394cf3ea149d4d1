"""Schema migrations: a database written by an older handlog opens, migrated, with the rows a
new import writes."""

from __future__ import annotations

import duckdb
import pytest

from handlog.importer import import_paths
from handlog.store import SCHEMA_VERSION, connect

from .conftest import FIXTURES, SAMPLE_LOGS

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


def _columns(connection) -> list[str]:  # type: ignore[no-untyped-def]
    return [row[0] for row in connection.execute("DESCRIBE hands").fetchall()]


ADDED_SINCE = {
    4: ("structure", "chips_in_hundredths", "inconsistent", "unit", "hero"),
    5: ("chips_in_hundredths", "inconsistent", "unit", "hero"),
    6: ("inconsistent", "unit", "hero"),
    7: ("unit", "hero"),
}
"""Columns of `hands` that a database of each version does not have yet."""


def _back_to(connection, version: int) -> None:  # type: ignore[no-untyped-def]
    """A database as a handlog of `version` wrote it: the later columns and tables dropped."""
    for column in ADDED_SINCE[version]:
        connection.execute(f"ALTER TABLE hands DROP COLUMN {column}")
    if version < 7:
        connection.execute("ALTER TABLE violations DROP COLUMN kind")
        connection.execute("ALTER TABLE violations DROP COLUMN cause")
    if version < 8:
        for column in ("dealt_in", "hole_shown"):
            connection.execute(f"ALTER TABLE hand_players DROP COLUMN {column}")
        for table in ("hand_texts", "text_blocks", "aliases"):
            connection.execute(f"DROP TABLE {table}")
    connection.execute(f"UPDATE meta SET value = '{version}' WHERE key = 'schema_version'")


@pytest.mark.parametrize("version", [4, 5])
def test_older_hands_gain_their_structure_and_chip_unit(tmp_path, version):
    """Every hand a version-4 handlog stored was fixed limit and every one stored before
    version 6 counted chips whole: the new columns say so, in the order a new database has
    them (rows load by position)."""
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    connection = duckdb.connect(str(db))
    hands = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
    fresh = _columns(connection)
    _back_to(connection, version)
    connection.close()

    migrated = connect(db)
    try:
        assert migrated.execute(
            "SELECT structure, chips_in_hundredths, count(*) FROM hands GROUP BY ALL"
        ).fetchall() == [("fixed", False, hands)]
        assert _columns(migrated) == fresh
    finally:
        migrated.close()


def test_version_6_violations_keep_their_kind_and_are_faults_of_their_own(tmp_path):
    """Version 7 adds each violation's kind and cause and each hand's inconsistent verdict:
    a violation stored before keeps the kind its code had (mis-split for the pot codes,
    illegal for the others), is a fault of its own, and no hand is inconsistent; the
    columns stand in a new database's order."""
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    connection = duckdb.connect(str(db))
    connection.execute(
        "INSERT INTO violations VALUES "
        "('pokerstars', '35874039554', 0, 'OUT_OF_TURN', 'fourth', 'Hero', 91, 'm', NULL, NULL, "
        "false, 'illegal', NULL), "
        "('pokerstars', '35874039554', 1, 'RAKE', 'showdown', NULL, 95, 'm', NULL, NULL, true, "
        "'mis-split', NULL)"
    )
    fresh = {
        table: [row[0] for row in connection.execute(f"DESCRIBE {table}").fetchall()]
        for table in ("hands", "violations")
    }
    _back_to(connection, 6)
    connection.close()

    migrated = connect(db)
    try:
        assert migrated.execute(
            "SELECT code, kind, cause FROM violations ORDER BY seq"
        ).fetchall() == [("OUT_OF_TURN", "illegal", None), ("RAKE", "mis-split", None)]
        assert migrated.execute("SELECT count(*) FROM hands WHERE inconsistent").fetchone() == (0,)
        for table, columns in fresh.items():
            assert [r[0] for r in migrated.execute(f"DESCRIBE {table}").fetchall()] == columns
    finally:
        migrated.close()
    # and the next import's rows load into the migrated tables
    target = tmp_path / "more.txt"
    target.write_text(
        (SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt")
        .read_text()
        .replace("#35874", "#95874")
        .replace("Total pot $0.80 | Rake $0.03", "Total pot $0.90 | Rake $0.13", 1)
    )
    import_paths([str(target)], db, workers=1)
    reader = connect(db, read_only=True)
    try:
        assert reader.execute(
            "SELECT h.inconsistent, v.code, v.kind, v.cause IS NULL FROM hands h "
            "JOIN violations v USING (site, hand_id) WHERE h.hand_id = '95874039554' "
            "ORDER BY v.code"
        ).fetchall() == [
            (True, "POT_TOTAL", "inconsistent", True),
            (True, "SPLIT_AMOUNT", "inconsistent", False),
        ]
    finally:
        reader.close()


def test_reading_an_older_database_upgrades_it_first(tmp_path):
    """`report`, `show` and `export` open the database read-only; one written by an older
    handlog is upgraded first instead of failing on a column it does not have yet (a
    DuckDB traceback before)."""
    from typer.testing import CliRunner

    from handlog.cli import app

    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    connection = duckdb.connect(str(db))
    _back_to(connection, 5)
    connection.close()

    result = CliRunner().invoke(
        app, ["report", "--db", str(db), "--format", "md", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    reader = connect(db, read_only=True)
    try:
        version = reader.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert version == (str(SCHEMA_VERSION),)
    finally:
        reader.close()


def test_version_7_gains_units_who_was_dealt_in_and_room_for_texts(tmp_path):
    """Version 8 stores each hand's unit and hero, each player row's dealt_in and
    hole_shown, every hand's text and the persons (aliases). A version-7 database gains the
    unit and dealt_in as a new import would store them (derived from what it stored), the
    hero and hole_shown unknown (NULL), and the new tables empty; the columns in a new
    database's order."""
    db = tmp_path / "h.duckdb"
    files = [*SAMPLES, str(FIXTURES / "players" / "fulltilt-sitting-out.txt")]
    import_paths(files, db, workers=1)
    connection = duckdb.connect(str(db))
    fresh_hands = _columns(connection)
    fresh_players = [row[0] for row in connection.execute("DESCRIBE hand_players").fetchall()]
    units = connection.execute(
        "SELECT site, hand_id, unit, players FROM hands ORDER BY ALL"
    ).fetchall()
    dealt = connection.execute(
        "SELECT site, hand_id, player, dealt_in FROM hand_players ORDER BY ALL"
    ).fetchall()
    assert any(not row[3] for row in dealt)  # the sitting-out seat
    for column in ("unit", "hero"):
        connection.execute(f"ALTER TABLE hands DROP COLUMN {column}")
    for column in ("dealt_in", "hole_shown"):
        connection.execute(f"ALTER TABLE hand_players DROP COLUMN {column}")
    connection.execute("UPDATE hands SET players = players + 1")  # counted every seat before
    for table in ("hand_texts", "text_blocks", "aliases"):
        connection.execute(f"DROP TABLE {table}")
    connection.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    connection.close()

    migrated = connect(db)
    try:
        assert _columns(migrated) == fresh_hands
        described = migrated.execute("DESCRIBE hand_players").fetchall()
        assert [row[0] for row in described] == fresh_players
        assert (
            migrated.execute(
                "SELECT site, hand_id, unit, players FROM hands ORDER BY ALL"
            ).fetchall()
            == units
        )
        assert (
            migrated.execute(
                "SELECT site, hand_id, player, dealt_in FROM hand_players ORDER BY ALL"
            ).fetchall()
            == dealt
        )
        assert migrated.execute(
            "SELECT count(hero) + count(hole_shown) FROM hands JOIN hand_players USING (site, hand_id)"
        ).fetchone() == (0,)
        assert migrated.execute("SELECT count(*) FROM hand_texts").fetchone() == (0,)
    finally:
        migrated.close()
