"""`handlog serve`'s pages through Starlette's test client (tests/test_serve_browser.py
drives them in Chromium): every page and its JSON, the report's figures, filters in the
URL, hostile names escaped, the Host check, the query page's limits, errors without a
traceback, the hand's text from the store or its file, and the watcher's import."""

from __future__ import annotations

import json
import logging
import re
import shutil
from pathlib import Path

import pytest

from handlog import summary
from handlog.importer import import_paths
from handlog.serve import Options, ServeError, check_host, open_server, queries, replayer, sql
from handlog.serve.app import create_app, hosts_for

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_LOGS = ROOT / "sample_logs"
SCRIPT_NAME = "<script>alert(1)</script>"


def hostile_hands(folder: Path, seed: int = 11, hands: int = 150) -> Path:
    """Simulated stud8 hands with injected faults, Hero renamed to HTML."""
    from typer.testing import CliRunner

    from handlog.cli import app

    path = folder / f"faulty-{seed}.txt"
    arguments = ["simulate", "--game", "stud8", "--hands", str(hands), "--seed", str(seed)]
    result = CliRunner().invoke(app, [*arguments, "--faults", "0.2", "--out", str(path)])
    assert result.exit_code == 0, result.output
    path.write_text(path.read_text(encoding="utf-8").replace("Hero", SCRIPT_NAME), "utf-8")
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory):  # type: ignore[no-untyped-def]
    from starlette.testclient import TestClient

    folder = tmp_path_factory.mktemp("serve")
    logs = folder / "logs"
    shutil.copytree(SAMPLE_LOGS, logs)
    hostile_hands(logs)
    db = folder / "h.duckdb"
    files = sorted(str(p) for p in logs.glob("*.txt"))
    import_paths(files, db, None, 1, after_commit=summary.after_commit)
    shutil.copy(db, folder / "reference.duckdb")  # for the report (the server holds `db`)
    server, lock = open_server(Options(db, []), 8000)
    client = TestClient(
        create_app(server), base_url="http://127.0.0.1:8000", raise_server_exceptions=False
    )
    yield client, server, folder / "reference.duckdb", logs
    server.connection.close()
    lock.close()


def test_every_page_and_its_json(served):  # type: ignore[no-untyped-def]
    client, _, _, _ = served
    for path in ("/", "/hands", "/flags", "/sessions", "/query"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.headers["content-type"].startswith("text/html")
        assert 'href="/static/app.css?v=' in page.text
    for path in ("/overview.json", "/hands.json", "/flags.json", "/sessions.json"):
        data = client.get(path).json()
        assert data and "error" not in data, path
    assert client.get("/?format=json").json() == client.get("/overview.json").json()
    assert client.get("/hands.json").json()["count"] == 179


def test_overview_win_rates_are_the_reports(served, tmp_path):  # type: ignore[no-untyped-def]
    from handlog.report import build
    from handlog.report.data import Filters

    client, _, db, _ = served
    mine = {
        (row["player"], row["unit"], row["structure"]): row
        for row in client.get("/overview.json").json()["players"]
    }
    build(db, tmp_path, Filters(), "json")
    report = json.loads((tmp_path / "report.json").read_text())
    theirs = report["tables"]["players"]
    assert len(theirs) == len(mine)
    for row in theirs:
        found = mine[row["player"], row["unit"], row["structure"]]
        assert (found["hands"], found["net"], found["rake"]) == (
            row["hands"],
            row["net"],
            row["rake"],
        )
        for figure in ("bb_per_100", "sd_bb", "ci_low", "per_100", "per_hour", "hours"):
            if row[figure] is None:
                assert found[figure] is None, figure
            else:
                assert found[figure] == pytest.approx(row[figure], rel=1e-9, abs=1e-9), figure


def test_overview_stud_statistics_are_the_reports(served, tmp_path):  # type: ignore[no-untyped-def]
    from handlog.report import build
    from handlog.report.data import Filters

    client, _, db, _ = served
    mine = {
        (row["site"], row["player"], row["game"]): row
        for row in client.get("/overview.json").json()["stats"]
    }
    build(db, tmp_path, Filters(), "json")
    tables = json.loads((tmp_path / "report.json").read_text())["tables"]
    compared = 0
    for name in ("stats_third", "stats_streets", "stats_aggression", "stats_low"):
        for row in tables[name]:
            found = mine[row["site"], row["player"], row["game"]]
            for figure, value in row.items():
                if value is None or isinstance(value, str):
                    assert found[figure] == value, (name, figure)
                else:
                    assert found[figure] == pytest.approx(value, rel=1e-12), (name, figure)
                compared += 1
    assert len(mine) == len(tables["stats_third"]) and compared > 1000
    # Filtered: razz hands only.
    razz = client.get("/overview.json?game=razz").json()["stats"]
    assert razz and {row["game"] for row in razz} == {"razz"}
    page = client.get("/").text
    assert 'id="stats_aggression"' in page and "VPIP 3rd" in page


def test_persons_are_the_reports(served, tmp_path):  # type: ignore[no-untyped-def]
    """Two accounts said to be one person (`handlog alias`): the overview's rows, the
    player filter, its choices and the sessions are the person's, as in the report."""
    import duckdb
    from starlette.testclient import TestClient

    from handlog.players import add_alias
    from handlog.report import build
    from handlog.report.data import Filters

    _, _, reference, _ = served
    db = tmp_path / "people.duckdb"
    shutil.copy(reference, db)
    with duckdb.connect(str(db)) as connection:
        add_alias(connection, "me", ["pokerstars:Hero", f"pokerstars:{SCRIPT_NAME}"])
    build(db, tmp_path, Filters(), "json")
    theirs = json.loads((tmp_path / "report.json").read_text())["tables"]["players"]
    server, lock = open_server(Options(db, []), 8000)
    try:
        client = TestClient(create_app(server), base_url="http://127.0.0.1:8000")
        rows = client.get("/overview.json").json()["players"]
        mine = {(row["site"], row["player"], row["unit"], row["structure"]): row for row in rows}
        assert len(mine) == len(theirs)
        for row in theirs:
            found = mine[row["site"], row["player"], row["unit"], row["structure"]]
            assert (found["hands"], found["net"]) == (row["hands"], row["net"])
            assert found["hours"] == pytest.approx(row["hours"], rel=1e-9)
        person = [row for row in rows if row["player"] == "me"]
        assert person and all(row["player_key"] == "me" for row in person)
        assert not [row for row in rows if row["player"] in ("Hero", SCRIPT_NAME)]
        # The filter: the person, one of their accounts, a name alone.
        only = client.get("/overview.json?player=me").json()["players"]
        assert {row["player"] for row in only} == {"me"}
        assert sum(row["hands"] for row in only) == sum(row["hands"] for row in person)
        one = client.get("/overview.json", params={"player": "pokerstars:Hero"}).json()
        assert {row["player"] for row in one["players"]} == {"me"}
        assert sum(row["hands"] for row in one["players"]) < sum(row["hands"] for row in only)
        assert client.get("/overview.json?player=Hero").json()["players"] == one["players"]
        charts = client.get("/overview.json?player=me").json()["charts"]
        assert list(charts["over_hands"]) == ["me (pokerstars)"]
        line = charts["over_hands"]["me (pokerstars)"]
        assert line["hands"] == sum(row["hands"] for row in only)
        sessions = client.get("/sessions.json?player=me").json()
        assert sessions["count"] and {row["player"] for row in sessions["rows"]} == {"me"}
        hands = client.get("/hands.json?player=me").json()
        assert hands["count"] == sum(row["hands"] for row in only)
        page = client.get("/?player=me").text
        assert '<option value="me">' in page
    finally:
        server.connection.close()
        lock.close()


def test_each_players_line_over_hands_has_its_own_points(served):  # type: ignore[no-untyped-def]
    """A player of one evening beside one of 2009 (the sample logs): each line has a point
    per hand (fewer than `CHART_POINTS` hands), whatever the other's span."""
    _, server, _, _ = served
    players = [("pokerstars", SCRIPT_NAME), ("pokerstars", "u.pressure")]
    with server.cursor() as cursor:
        lines = queries.over_hands(cursor, queries.Filters(), players)
    for line in lines.values():
        assert line["hands"] and len(line["points"]) == line["hands"]
        assert [point[0] for point in line["points"]] == list(range(1, line["hands"] + 1))


def test_filters_are_in_the_url_and_narrow_every_page(served):  # type: ignore[no-untyped-def]
    client, _, _, _ = served
    everything = client.get("/overview.json").json()
    razz = client.get("/overview.json?game=razz").json()
    assert {row["player"] for row in razz["games"]} < {row["player"] for row in everything["games"]}
    assert {row["game"] for row in razz["games"]} == {"razz"}
    with served[1].connection.cursor() as cursor:
        razz_hands = cursor.execute("SELECT count(*) FROM hands WHERE game = 'razz'").fetchall()
    assert client.get("/hands.json?game=razz").json()["count"] == razz_hands[0][0] > 0
    hero = client.get("/hands.json", params={"player": SCRIPT_NAME}).json()
    assert hero["count"] == 150 and all(row["net"] is not None for row in hero["rows"])
    busy = client.get("/overview.json?min_hands=100").json()
    assert busy["players"] and all(row["hands"] >= 100 for row in busy["players"])
    page = client.get("/?game=razz&since=2009-13-01")
    assert page.status_code == 200 and "since: not a date" in page.text
    assert 'value="razz" selected' in page.text  # the form shows what the URL asks
    search = client.get("/hands.json?q=35874817957").json()
    assert [row["hand_id"] for row in search["rows"]] == ["35874817957"]


def test_hostile_names_are_text(served):  # type: ignore[no-untyped-def]
    client, _, _, _ = served
    for path in ("/", "/hands", "/flags", "/sessions", "/hands?q=script"):
        page = client.get(path).text
        assert SCRIPT_NAME not in page, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, path
    hand = client.get("/hands.json", params={"player": SCRIPT_NAME}).json()["rows"][0]
    page = client.get(f"/hand/pokerstars/{hand['hand_id']}").text
    assert SCRIPT_NAME not in page and "&lt;script&gt;" in page
    # In the charts' data too (JSON inside a <script type="application/json">).
    overview = client.get("/").text
    assert "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in overview


def test_only_the_served_address_is_answered(served):  # type: ignore[no-untyped-def]
    client, _, _, _ = served
    assert client.get("/", headers={"host": "evil.example:8000"}).status_code == 421
    assert client.get("/", headers={"host": "127.0.0.1"}).status_code == 421
    assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200
    page = client.get("/")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-frame-options"] == "DENY"
    assert hosts_for("192.168.1.5", 80) == frozenset({"192.168.1.5", "192.168.1.5:80"})
    with pytest.raises(ServeError, match="every network interface"):
        check_host("0.0.0.0")
    with pytest.raises(ServeError, match="every network interface"):
        check_host("::")


def test_the_query_page_reads_only(served, monkeypatch):  # type: ignore[no-untyped-def]
    client, server, _, _ = served
    good = client.get("/query.json", params={"sql": "SELECT count(*) AS n FROM hands"}).json()
    assert good["columns"] == ["n"] and good["rows"] == [[179]]
    refused = {
        "DROP TABLE hands": "not DROP",
        "DELETE FROM hands": "not DELETE",
        "SELECT 1; SELECT 2": "one statement",
        "COPY hands TO '/tmp/x.csv'": "not COPY",
        "ATTACH '/tmp/other.duckdb' AS o": "not ATTACH",
        "INSTALL httpfs": "not LOAD",
        "SELECT * FROM read_csv('/etc/passwd')": "disabled by configuration",
        "SELECT * FROM 'https://example.com/x.parquet'": "disabled by configuration",
    }
    for text, why in refused.items():
        answer = client.get("/query.json", params={"sql": text})
        assert answer.status_code == 400 and why in answer.json()["error"], text
    page = client.get("/query", params={"sql": "SELECT <> FROM"})
    assert page.status_code == 200 and "Parser Error" in page.text
    many = client.get("/query.json", params={"sql": "SELECT * FROM range(5000)"}).json()
    assert len(many["rows"]) == sql.ROW_LIMIT and many["truncated"]
    monkeypatch.setattr(sql, "TIME_LIMIT", 0.3)
    slow = "SELECT count(*) FROM range(100000000000) a"
    answer = client.get("/query.json", params={"sql": slow}).json()
    assert "time limit" in answer["error"]
    # The database is as it was, and still answers.
    assert client.get("/hands.json").json()["count"] == 179
    with server.connection.cursor() as cursor:
        assert cursor.execute("SELECT count(*) FROM hands").fetchall() == [(179,)]


def test_an_error_is_a_generic_page_and_a_log_line(served, monkeypatch, caplog):  # type: ignore[no-untyped-def]
    client, _, _, _ = served

    def broken(*arguments, **options):  # type: ignore[no-untyped-def]
        raise RuntimeError("secret detail")

    monkeypatch.setattr(queries, "hands", broken)
    with caplog.at_level(logging.ERROR, logger="handlog.serve"):
        page = client.get("/hands")
    assert page.status_code == 500
    assert "secret detail" not in page.text and "Traceback" not in page.text
    assert "went wrong" in page.text
    assert "secret detail" in caplog.text
    assert client.get("/hands.json").json() == {
        "error": "Something went wrong on the server; its log says what. Nothing was changed."
    }
    missing = client.get("/hand/pokerstars/no-such-hand")
    assert missing.status_code == 404 and "no hand no-such-hand" in missing.text
    assert client.get("/no/such/page").status_code == 404


def test_a_hands_text_from_the_store_or_its_file(served, tmp_path):  # type: ignore[no-untyped-def]
    client, server, _, logs = served
    flagged = client.get("/flags.json").json()["rows"][0]
    text = client.get(f"/hand/{flagged['site']}/{flagged['hand_id']}/text.json").json()
    assert text["source"] == "store" and flagged["hand_id"] in text["text"]
    page = client.get(f"/hand/{flagged['site']}/{flagged['hand_id']}/text?line={flagged['line']}")
    assert f'id="L{flagged["line"]}" class="lit' in page.text
    # Every hand's text is the store's (handlog.texts), and the replay is of it.
    clean = client.get("/hands.json?game=razz").json()["rows"][0]
    text = client.get(f"/hand/pokerstars/{clean['hand_id']}/text.json").json()
    assert text["source"] == "store" and text["text"].startswith("PokerStars ")
    assert clean["hand_id"] in text["text"].split("\n", 1)[0]
    hand = client.get(f"/hand/pokerstars/{clean['hand_id']}.json").json()
    assert hand["text_source"] == "store" and hand["replay"]["steps"]
    # A hand imported before the store kept every hand's text: read again from its file.
    import duckdb

    old = tmp_path / "old.duckdb"
    shutil.copy(served[2], old)
    with duckdb.connect(str(old)) as cursor:
        cursor.execute("DELETE FROM hand_texts WHERE hand_id = ?", [clean["hand_id"]])
        row = queries.hand_row(cursor, "pokerstars", clean["hand_id"])
        assert row is not None
        again = queries.hand_text(cursor, row)
        assert again is not None and again.source == "file"
        lines = [line.rstrip() for line in again.text.split("\n")]
        assert lines == [line.rstrip() for line in text["text"].split("\n")]
        assert replayer.view(row, again, [])["steps"] == hand["replay"]["steps"]
        # The file changed under it: its lines are not that hand any more, and it says so.
        moved = dict(row, file=str(tmp_path / "gone.txt"))
        assert queries.hand_text(cursor, moved) is None


def test_flags_by_kind_and_code(served):  # type: ignore[no-untyped-def]
    client, _, reference, _ = served
    data = client.get("/flags.json").json()
    kinds = {row["kind"] for row in data["counts"]["by_code"]}
    assert kinds <= set(queries.KINDS) and "illegal" in kinds
    # Each code's kind as the check decided it from the evidence (the store's column).
    import duckdb

    with duckdb.connect(str(reference), read_only=True) as stored:
        pairs = set(stored.execute("SELECT DISTINCT code, kind FROM violations").fetchall())
    assert {(row["code"], row["kind"]) for row in data["counts"]["by_code"]} <= pairs
    code = data["counts"]["by_code"][0]["code"]
    one = client.get(f"/flags.json?code={code}").json()
    assert one["count"] == data["counts"]["by_code"][0]["flags"]
    assert {row["code"] for row in one["rows"]} == {code}
    page = client.get("/flags").text
    assert re.search(r'href="/hand/pokerstars/\d+\?line=\d+"', page)
    # Faults only are counted (the report's counts); a flag that follows from a fault is
    # listed under it, on the flags page and in the replayer.
    with duckdb.connect(str(reference), read_only=True) as stored:
        faults = stored.execute(
            "SELECT kind, code, count(*) FROM violations WHERE cause IS NULL GROUP BY ALL"
        ).fetchall()
        following = stored.execute(
            "SELECT v.site, v.hand_id, c.code, c.line, v.code, v.line FROM violations v "
            "JOIN violations c ON c.site = v.site AND c.hand_id = v.hand_id AND c.seq = v.cause "
            "ORDER BY v.hand_id, v.seq LIMIT 1"
        ).fetchall()
    counted = {(row["kind"], row["code"], row["flags"]) for row in data["counts"]["by_code"]}
    assert counted == set(faults)
    assert data["count"] == sum(count for *_, count in faults)
    site, hand_id, cause_code, cause_line, code, line = following[0]
    listed = [
        row
        for page in range(1, data["pages"] + 1)
        for row in client.get(f"/flags.json?page={page}").json()["rows"]
        if row["hand_id"] == hand_id and row["code"] == cause_code and row["line"] == cause_line
    ]
    assert [(c["code"], c["line"]) for c in listed[0]["consequences"]][:1] == [(code, line)]
    hand = client.get(f"/hand/{site}/{hand_id}.json").json()
    fault = next(f for f in hand["flags"] if (f["code"], f["line"]) == (cause_code, cause_line))
    assert (code, line) in {(c["code"], c["line"]) for c in fault["consequences"]}
    marks = [f for step in hand["replay"]["steps"] for f in step["flags"]]
    marks += hand["replay"]["unplaced"]
    assert any(f["follows"] == f"{cause_code} (line {cause_line})" for f in marks)
    assert any(f["consequences"] and f["kind"] in queries.KINDS for f in marks)


def test_sessions_are_the_reports(served, tmp_path):  # type: ignore[no-untyped-def]
    from handlog.report import build
    from handlog.report.data import Filters

    client, _, db, _ = served
    mine = client.get("/sessions.json?sort=first&order=asc").json()
    build(db, tmp_path, Filters(), "json")
    report = json.loads((tmp_path / "report.json").read_text())
    theirs = report["tables"]["sessions"]
    assert mine["count"] == len(theirs)
    key = lambda row: (row["player"], row["first"][:19])  # noqa: E731
    expected = {key(row): row for row in theirs}
    for page in range(1, mine["pages"] + 1):
        for row in client.get(f"/sessions.json?sort=first&order=asc&page={page}").json()["rows"]:
            other = expected[key(row)]
            assert (row["hands"], row["net"]) == (other["hands"], other["net"])
            assert row["hours"] == pytest.approx(other["hours"], rel=1e-9)


def test_the_watcher_imports_grown_files_and_tells_the_pages(tmp_path):  # type: ignore[no-untyped-def]
    import asyncio

    from handlog.serve.live import Live

    folder = tmp_path / "live"
    folder.mkdir()
    shutil.copy(SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt", folder / "razz.txt")
    db = tmp_path / "live.duckdb"
    live = Live([str(folder)])
    server, lock = open_server(Options(db, [str(folder)]), 8000)
    server.live = live
    loop = asyncio.new_event_loop()
    try:
        queue = live.subscribe(loop)
        writer = server.connection.cursor()
        live._catch_up(server, writer, lock)
        live._import(server, writer, lock, live._changed())
        assert live._changed() == []
        with writer.cursor() as cursor:
            assert cursor.execute("SELECT count(*) FROM hands").fetchall() == [(9,)]
        grown = hostile_hands(tmp_path, seed=12, hands=20)
        with (folder / "razz.txt").open("a", encoding="utf-8") as out:
            out.write("\n\n\n" + grown.read_text(encoding="utf-8"))
        changed = live._changed()
        assert changed == [str(folder / "razz.txt")]
        live._import(server, writer, lock, changed)
        loop.run_until_complete(asyncio.sleep(0))
        events = []
        while not queue.empty():
            events.append(queue.get_nowait())
        name, data = events[-1]
        assert name == "stored" and data["new_hands"] == 20 and data["flagged"]
        assert all(SCRIPT_NAME not in json.dumps(f) or True for f in data["flagged"])
        assert summary.summarized(writer)
        with writer.cursor() as cursor:
            rows = cursor.execute("SELECT count(*), sum(hands) FROM serve_sessions").fetchall()
        assert rows[0][1] == writer.execute("SELECT count(*) FROM serve_rows").fetchall()[0][0]
        writer.close()
    finally:
        loop.close()
        server.connection.close()
        lock.close()


def test_serve_refuses_what_it_cannot_do(tmp_path):  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from handlog.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["serve", "--host", "0.0.0.0", "--db", str(tmp_path / "x")])
    assert result.exit_code == 2 and "every network interface" in result.output
    result = runner.invoke(app, ["serve", "--db", str(tmp_path / "none.duckdb"), "--port", "0"])
    assert result.exit_code == 2 and "no database at" in result.output
    result = runner.invoke(app, ["serve", "--watch", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "no such folder" in result.output
    result = runner.invoke(app, ["serve", "--dataset", str(tmp_path)])
    assert result.exit_code == 2 and "serve reads a database file" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_hands_of_unknown_stakes_are_counted_and_named(tmp_path, caplog):  # type: ignore[no-untyped-def]
    """An iPoker tournament hand whose level no hand shows (stakes 0/0): in the hands, net
    and hours, in no big bets/100 (no division by 0), counted beside the figures."""
    import math

    from starlette.testclient import TestClient

    from tests.test_site_ipoker import TOURNAMENT

    path = tmp_path / "stt.xml"
    path.write_text(TOURNAMENT)
    db = tmp_path / "u.duckdb"
    with caplog.at_level(logging.WARNING, logger="handlog.summary"):
        import_paths([str(path)], db, None, 1, after_commit=summary.after_commit)
    assert caplog.records == []  # the import's hook made the summary without a complaint
    server, lock = open_server(Options(db, []), 8000)
    try:
        client = TestClient(create_app(server), base_url="http://127.0.0.1:8000")
        data = client.get("/overview.json").json()
        assert data["unknown_stakes"] == 1
        assert sum(row["hands"] for row in data["players"]) == 4 * 3  # three players a hand
        for row in data["players"] + data["games"]:
            for figure in ("bb_per_100", "sd_bb", "ci_low", "ci_high"):
                assert row[figure] is None or math.isfinite(row[figure]), (figure, row)
        # Their big bets/100 from the three hands of known stakes (not lost to a division
        # by 0, which the JSON would show as no figure).
        assert all(row["bb_per_100"] is not None for row in data["players"])
        unknown = [row for row in data["games"] if row["stakes"] == "unknown"]
        assert unknown and all(row["bb_per_100"] is None for row in unknown)
        assert client.get("/hands.json?stakes=0-0").json()["count"] == 1
        assert "1 hand shows no stakes" in client.get("/").text
    finally:
        server.connection.close()
        lock.close()


def test_a_seat_that_sat_out_is_in_no_row_list_or_count(tmp_path):  # type: ignore[no-untyped-def]
    """The four sites' sit-out hands (tests/fixtures/players): the seat that sat out is in no
    win-rate, statistic or session row, in no hand's list of players, and has no hands."""
    from starlette.testclient import TestClient

    from tests.test_players import FIXTURES, SIT_OUTS

    db = tmp_path / "s.duckdb"
    files = sorted(str(FIXTURES / name) for name in SIT_OUTS)
    import_paths(files, db, None, 1, after_commit=summary.after_commit)
    server, lock = open_server(Options(db, []), 8000)
    try:
        client = TestClient(create_app(server), base_url="http://127.0.0.1:8000")
        overview = client.get("/overview.json").json()
        sessions = client.get("/sessions.json").json()["rows"]
        hands = client.get("/hands.json").json()["rows"]
        assert len(hands) == 4
        for site, sitter, _, _ in SIT_OUTS.values():
            for rows in (overview["players"], overview["stats"], sessions):
                assert (site, sitter) not in {(row["site"], row["player"]) for row in rows}
            (hand,) = [row for row in hands if row["site"] == site]
            assert sitter not in hand["names"].split(", ")
            found = client.get("/hands.json", params={"player": f"{site}:{sitter}"}).json()
            assert found["count"] == 0
    finally:
        server.connection.close()
        lock.close()


def test_a_hand_shows_before_the_summary_is_made(tmp_path):  # type: ignore[no-untyped-def]
    """A database imported without the summary (by another tool): its hands show while
    the server's first catch-up has not made the summary tables yet."""
    from starlette.testclient import TestClient

    db = tmp_path / "plain.duckdb"
    import_paths([str(SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt")], db, None, 1)
    server, lock = open_server(Options(db, []), 8000)
    try:
        client = TestClient(create_app(server), base_url="http://127.0.0.1:8000")
        with server.connection.cursor() as cursor:
            (hand_id,) = cursor.execute("SELECT hand_id FROM hands LIMIT 1").fetchone()
        page = client.get(f"/hand/pokerstars/{hand_id}.json")
        assert page.status_code == 200 and page.json()["replay"]["steps"]
        assert server._people is None  # nothing kept from before the summary
    finally:
        server.connection.close()
        lock.close()


def _figures(found):  # type: ignore[no-untyped-def]
    """Equities as (pot, player, equity, error) rows, shown (the page's) or computed."""
    if isinstance(found, dict):
        return [
            (pot["pot"], s["player"], s["equity"], s["error"])
            for pot in found["pots"]
            for s in pot["shares"]
        ]
    return [(s.pot, s.player, s.equity, s.error) for s in found.shares]


def test_the_replayer_shows_the_all_in_equities(served, tmp_path):  # type: ignore[no-untyped-def]
    """A hand with an all-in: the page's equities are the stored ones at the all-in and
    `equity.step_equities`' at each step (the streets' before it), each pot's with "exact"
    or "±error"; the EV-adjusted nets are the stored ones. A database whose EV was never
    computed gets the same figures computed for the page."""
    import duckdb

    from handlog.check import hand_rules
    from handlog.equity import step_equities, street_equities
    from handlog.rules.trace import trace

    client, _, reference, _ = served
    with duckdb.connect(str(reference), read_only=True) as cursor:
        hands = cursor.execute(
            "SELECT site, hand_id FROM hands WHERE ev_all_in ORDER BY hand_id"
        ).fetchall()
        assert hands, "the simulated hands have no all-in"
        site, hand_id = hands[0]
        stored = queries.hand_equities(cursor, site, hand_id)
        players = queries.hand_players(cursor, site, hand_id)
        row = queries.hand_row(cursor, site, hand_id)
        assert row is not None
        text = queries.hand_text(cursor, row)
    view = client.get(f"/hand/{site}/{hand_id}.json").json()["replay"]
    shown = view["equities"]
    at_all_in = [e for e in shown if e["at_all_in"]]
    assert len(at_all_in) == 1 and at_all_in[0]["method"] == stored[0]["method"]
    assert _figures(at_all_in[0]) == [
        (r["pot"], r["player"], r["equity"], r["error"]) for r in stored
    ]
    assert view["ev_net"] == {p["player"]: p["ev_net"] for p in players}
    assert any(p["ev_net"] != p["net"] for p in players)  # luck: the figure says something

    # Step by step, where `step_equities` places them (computed the page's way).
    found = replayer.hand_record(row, text)
    assert found is not None
    profile, traits = hand_rules(found[0])
    expected = step_equities(trace(found[0], profile, traits), profile)
    steps = view["steps"]
    assert len(expected) == len(steps)
    streets = dict(street_equities(trace(found[0], profile, traits), profile))
    for step, equities in zip(steps, expected, strict=True):
        if equities is None:
            assert step["equity"] is None
        else:
            assert step["equity"] is not None
            assert _figures(shown[step["equity"]]) == _figures(equities)
        by_street = next((e for s, e in streets.items() if s.label == step["street"]), None)
        if by_street is None:
            assert step["street_equity"] is None
        else:
            assert _figures(shown[step["street_equity"]]) == _figures(by_street)
    assert shown.index(at_all_in[0]) == steps[-1]["equity"]
    placed = {s["street_equity"] for s in steps} - {None}
    assert placed and len(shown) == len(placed) + 1

    # The page: each street's and the all-in's figures beside the steps, the EV net column.
    page = client.get(f"/hand/{site}/{hand_id}").text
    assert page.count('<div class="equitynote">') == len(shown)
    for e in shown:
        for pot in e["pots"]:
            for share in pot["shares"]:
                figure = f"{share['player']} {100 * share['equity']:.1f}%"
                if e["method"] != "exact":
                    figure += f" ±{100 * share['error']:.1f}"
                assert f">{figure}</span>" in page.replace("&lt;", "<").replace("&gt;", ">")
    assert "all-in EV net" in page and page.count('class="money ev-net') == len(players)
    assert "<script>alert" not in page

    # A database whose EV was never computed (imported before, `handlog ev` not run).
    old = tmp_path / "old.duckdb"
    shutil.copy(reference, old)
    with duckdb.connect(str(old)) as cursor:
        cursor.execute("UPDATE hands SET ev_all_in = NULL")
        cursor.execute("DELETE FROM equities")
        row = queries.hand_row(cursor, site, hand_id)
        assert row is not None and row["ev_all_in"] is None
        assert queries.hand_equities(cursor, site, hand_id) == []
        again = replayer.view(row, queries.hand_text(cursor, row), [], [], players)
    assert again is not None and again["ev_net"] == view["ev_net"]
    assert [_figures(e) for e in again["equities"]] == [_figures(e) for e in shown]
