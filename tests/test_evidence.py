"""The evidence of flagged hands: their text and the replay's state at each flag, kept by
the import, shown by `handlog show` and linked from report.html."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from handlog import evidence, ingest
from handlog.check import check_file, site_rules
from handlog.cli import app
from handlog.importer import import_paths
from handlog.report import build
from handlog.report.data import Filters
from handlog.rules.replay import replay
from handlog.store import SCHEMA_VERSION, connect

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_LOGS = ROOT / "sample_logs"
runner = CliRunner()


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Simulated stud hands, a quarter with an injected fault, imported."""
    folder = tmp_path_factory.mktemp("evidence")
    path = folder / "faulty.txt"
    arguments = ["simulate", "--game", "stud", "--hands", "200", "--seed", "21", "--faults", "0.25"]
    result = runner.invoke(app, [*arguments, "--out", str(path)])
    assert result.exit_code == 0, result.output
    db = folder / "h.duckdb"
    import_paths([str(path)], db, None, 1)
    return path, db


def test_every_flagged_hand_keeps_its_text_and_a_state_per_flag(faulty):
    path, db = faulty
    lines = path.read_text(encoding="utf-8").split("\n")
    connection = duckdb.connect(str(db), read_only=True)
    flagged = connection.execute(
        "SELECT site, hand_id FROM hands WHERE status = 'flagged' ORDER BY ALL"
    ).fetchall()
    rows = connection.execute(
        "SELECT e.site, e.hand_id, e.file, e.line, e.end_line, e.text, e.states, count(v.seq) "
        "FROM hand_evidence e JOIN violations v USING (site, hand_id) "
        "GROUP BY ALL ORDER BY e.site, e.hand_id"
    ).fetchall()
    connection.close()
    assert len(flagged) > 20
    assert [(site, hand_id) for site, hand_id, *_ in rows] == flagged
    for _, hand_id, file, line, end_line, blob, states, violations in rows:
        text = zlib.decompress(blob).decode("utf-8")
        assert file == str(path)
        # The text is the file's lines from the hand's header to its last line (as the
        # reader reads them: without trailing white space).
        assert text == "\n".join(x.rstrip() for x in lines[line - 1 : end_line])
        assert text.startswith(f"PokerStars Hand #{hand_id}:")
        assert len(json.loads(states)) == violations


def test_the_state_is_what_the_replay_knew_at_the_flag(faulty):
    path, db = faulty
    connection = connect(db, read_only=True)
    keys = connection.execute(
        "SELECT DISTINCT site, hand_id FROM violations WHERE code = 'OUT_OF_TURN' ORDER BY ALL"
    ).fetchall()
    hands = evidence.load(connection, keys)
    connection.close()
    assert len(hands) == len(keys) > 0
    for hand in hands:
        lines = dict(hand.numbered_lines())
        for flag in hand.flags:
            state = flag.state
            assert state is not None and state["line"] == flag.line and state["code"] == flag.code
            if flag.code != "OUT_OF_TURN":
                continue
            # The message names who should have acted; the state's turn is that player, and
            # the flagged line is the other player acting.
            assert state["turn"] is not None and state["turn"] in flag.message
            assert lines[flag.line].startswith(f"{flag.player}: ")
            players = {p["player"]: p for p in state["players"]}
            assert state["pot"] == sum(p["in_pot"] for p in players.values())
            assert players[state["turn"]]["status"] == "in"
            owed = state["bet"] - players[flag.player]["this_street"]
            assert state["owed"] == max(0, owed)


def test_the_observer_changes_nothing(faulty):
    path, _ = faulty
    checked = [c for c in check_file(str(path)) if c.status == "flagged"]
    assert checked
    for item in checked:
        assert item.hand is not None and item.replay is not None
        profile, traits = site_rules(item.hand.site)
        states: list[dict] = []

        def observe(r, v, states=states):
            states.append(ingest.snapshot(r, v))

        observed = replay(item.hand, profile, traits, observe)
        assert observed.violations == item.replay.violations
        assert [s["code"] for s in states] == [v.code for v in item.replay.violations]
        assert [s["line"] for s in states] == [v.line for v in item.replay.violations]
        assert replay(item.hand, profile, traits).violations == item.replay.violations


def test_show_prints_the_hand_with_its_flags_marked(faulty):
    _, db = faulty
    connection = duckdb.connect(str(db), read_only=True)
    hand_id, line, code, message = connection.execute(
        "SELECT hand_id, line, code, message FROM violations ORDER BY hand_id, seq LIMIT 1"
    ).fetchone()  # type: ignore[misc]
    clean = connection.execute("SELECT hand_id FROM hands WHERE status = 'ok' LIMIT 1").fetchone()
    connection.close()
    result = runner.invoke(app, ["show", hand_id, "--db", str(db), "--no-color"])
    assert result.exit_code == 0, result.output
    output = result.output.splitlines()
    assert output[0].startswith(f"hand {hand_id}, pokerstars, stud")
    marked = [number for number, text in enumerate(output) if re.match(rf"{line} > ", text)]
    assert len(marked) == 1
    assert f"^ {code} (illegal): {message}" in output[marked[0] + 1]
    assert "\x1b[" not in result.output
    coloured = runner.invoke(app, ["show", hand_id, "--db", str(db), "--color"], color=True)
    assert "\x1b[" in coloured.output
    assert clean is not None
    # A hand that broke no rule is shown too (its replay and its text), with no flag.
    result = runner.invoke(app, ["show", clean[0], "--db", str(db)])
    assert result.exit_code == 0 and "-- 3rd street --" in result.output
    assert "^ " not in result.output and " flag" not in result.output.splitlines()[0]
    result = runner.invoke(app, ["show", "12345", "--db", str(db)])
    assert result.exit_code == 1 and "no hand '12345'" in result.output


def test_report_links_every_flag_to_its_hand(faulty, tmp_path):
    _, db = faulty
    build(db, tmp_path, Filters(), "html")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    ids = re.findall(r'<table class="hand-text" id="([^"]+)">', page)
    links = re.findall(r'<a href="#([^"]+)">(\d+)</a>', page)
    connection = duckdb.connect(str(db), read_only=True)
    flags, hands = connection.execute(
        "SELECT count(*), count(DISTINCT hand_id) FROM violations"
    ).fetchone()  # type: ignore[misc]
    connection.close()
    assert len(ids) == len(set(ids)) == hands
    assert len(links) == flags
    assert {target for target, _ in links} == set(ids)
    assert all(target == f"hand-pokerstars-{hand_id}" for target, hand_id in links)
    assert page.count('<tr class="flagged">') >= hands


def test_hostile_text_in_a_flagged_hand_is_escaped(tmp_path):
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8-sig")
    hostile = "<img src=x onerror=alert(1)>"
    text = source.replace("Hero", hostile)
    # Fold a player out of turn: the first action after the bring-in moves to another name.
    first = re.search(r"^(\S+): brings in.*\n(\S+): ", text, re.MULTILINE)
    assert first is not None
    text = text.replace(f"\n{first.group(2)}: ", f"\n{hostile}: ", 1)
    log = tmp_path / "hostile.txt"
    log.write_text(text, encoding="utf-8")
    db = tmp_path / "h.duckdb"
    import_paths([str(log)], db, None, 1)
    build(db, tmp_path / "out", Filters(), "html")
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert '<table class="hand-text"' in page
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_a_version_3_database_is_migrated_to_the_current_version(tmp_path):
    db = tmp_path / "old.duckdb"
    import_paths([str(SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt")], db, None, 1)
    connection = duckdb.connect(str(db))
    hands = connection.execute("SELECT count(*) FROM hands").fetchone()
    connection.execute("DROP TABLE hand_evidence")  # back to version 3's shape
    connection.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    connection.close()
    migrated = connect(db)
    try:
        version = migrated.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert version == (str(SCHEMA_VERSION),)
        assert migrated.execute("SELECT count(*) FROM hand_evidence").fetchone() == (0,)
        assert migrated.execute("SELECT count(*) FROM hands").fetchone() == hands
    finally:
        migrated.close()


def test_the_stored_state_is_the_traces_flag_state(faulty):
    # `ingest.snapshot` reads the table itself (the import observes every flag); what it
    # stores is what `trace.flag_state` (the trace's record of the same moment) says.
    from handlog.cards import format_cards
    from handlog.rules.trace import flag_state

    path, _ = faulty
    checked = [c for c in check_file(str(path)) if c.status == "flagged"]
    pairs: list[tuple[dict, dict]] = []

    def observe(r, v):
        state = flag_state(r, v)
        players = [
            {
                "player": seat.player,
                "seat": seat.seat,
                "stack": seat.stack - seat.collected,
                "in_pot": seat.put_in,
                "this_street": seat.this_street,
                "showing": format_cards([s.card for s in seat.cards if s.card is not None]),
                "status": "not dealt in" if seat.status == "out" else seat.status,
            }
            for seat in state.seats
        ]
        expected = {
            "line": v.line,
            "code": v.code,
            "street": state.street.name.lower(),
            "turn": state.to_act,
            "bet": state.current_bet if state.betting else None,
            "owed": state.owed,
            "pot": sum(seat.put_in for seat in state.seats),
            "players": players,
        }
        pairs.append((ingest.snapshot(r, v), expected))

    for item in checked:
        assert item.hand is not None
        profile, traits = site_rules(item.hand.site)
        replay(item.hand, profile, traits, observe)
    assert len(pairs) >= len(checked) > 20
    assert any(state["owed"] for state, _ in pairs) and any(state["turn"] for state, _ in pairs)
    for state, expected in pairs:
        assert state == expected
