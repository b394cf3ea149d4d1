"""Importing into DuckDB: once per hand, nothing lost, safe to interrupt."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from handlog.bench import replicate
from handlog.cli import app
from handlog.importer import import_paths
from handlog.store import TABLES, DatabaseBusy, connect, counts
from handlog.texts import load_texts

from .conftest import SAMPLE_LOGS

runner = CliRunner()
SAMPLES = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt"))
HANDS_IN_SAMPLES = 29  # 30 hands, one of them in two files


def _all_counts(db: Path) -> dict[str, int]:
    connection = duckdb.connect(str(db), read_only=True)
    try:
        return counts(connection, (*TABLES, "parse_errors", "skipped", "imports"))
    finally:
        connection.close()


def test_import_twice_changes_nothing(tmp_path):
    db = tmp_path / "h.duckdb"
    first = import_paths(SAMPLES, db, workers=1)
    assert first.new_hands == HANDS_IN_SAMPLES and first.duplicates == 1
    before = _all_counts(db)
    second = import_paths(SAMPLES, db, workers=1)
    assert second.unchanged == len(SAMPLES) and second.new_hands == 0
    assert _all_counts(db) == before
    assert before["hands"] == HANDS_IN_SAMPLES


def test_a_grown_file_imports_only_its_new_hands(tmp_path):
    db = tmp_path / "h.duckdb"
    source = (SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8")
    hands = source.split("\n\n\n")
    log = tmp_path / "live.txt"
    log.write_text("\n\n\n".join(hands[:6]) + "\n\n\n", encoding="utf-8")
    assert import_paths([str(log)], db, workers=1).new_hands == 6
    with log.open("a", encoding="utf-8") as handle:
        handle.write("\n\n\n".join(hands[6:]))
    grown = import_paths([str(log)], db, workers=1)
    assert grown.new_hands == 5
    assert (
        grown.hands == 6
    )  # the last old hand is read again (it may have been half written), then the 5 new
    assert _all_counts(db)["hands"] == 11


def test_a_half_written_last_hand_is_completed_later(tmp_path):
    db = tmp_path / "h.duckdb"
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8")
    cut = source.index("*** SUMMARY ***", source.index("#35874756552"))
    log = tmp_path / "live.txt"
    log.write_text(source[:cut], encoding="utf-8")
    first = import_paths([str(log)], db, workers=1)
    assert first.unparsed == 1
    log.write_text(source, encoding="utf-8")
    import_paths([str(log)], db, workers=1)
    final = _all_counts(db)
    assert final["hands"] == 9 and final["parse_errors"] == 0


def test_a_file_edited_in_place_stores_its_hands_as_they_are_now(tmp_path):
    """A file changed other than by growing was read again, its changes reported (a flag)
    but not stored: the old versions stayed without a word. Now the hands it holds replace
    the versions it stored before; a hand it shares with another file stays that file's,
    a hand it no longer holds stays stored, and its parse errors are those of its text now."""
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8")
    hands = [hand.strip() for hand in source.split("\n\n\n") if hand.strip()]
    assert len(hands) == 9 and hands[0].startswith("PokerStars Game #35874566077")
    other = tmp_path / "other.txt"
    other.write_text(hands[2] + "\n", encoding="utf-8")
    log = tmp_path / "log.txt"
    log.write_text("not a hand\n\n" + source, encoding="utf-8")
    db = tmp_path / "h.duckdb"
    assert import_paths([str(other), str(log)], db, workers=1).new_hands == 9
    assert _all_counts(db)["parse_errors"] == 1
    edited = [hands[0].replace("Hero: folds", "Hero: checks"), *hands[1:8]]  # the 9th gone
    log.write_text("\n\n\n".join(edited) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["import", "--workers", "1", "--db", str(db), str(log)])
    assert result.exit_code == 0, result.output
    assert f"{log}: 8 hands (0 new, 7 replaced, 1 flagged illegal" in result.output
    assert "8 hands (0 new, 7 replaced, 1 already stored, 1 flagged illegal" in result.output
    connection = duckdb.connect(str(db), read_only=True)
    rows = dict(connection.execute("SELECT hand_id, status FROM hands").fetchall())
    files = dict(connection.execute("SELECT hand_id, file FROM hands").fetchall())
    flags = connection.execute("SELECT DISTINCT hand_id FROM violations").fetchall()
    players = connection.execute(
        "SELECT count(*), count(DISTINCT (site, hand_id, seat)) FROM hand_players"
    ).fetchone()
    connection.close()
    assert len(rows) == 9 and rows["35874566077"] == "flagged" and flags == [("35874566077",)]
    assert files[hands[2].split("#", 1)[1].split(":", 1)[0]] == str(other)
    assert players[0] == players[1]  # each hand's players once
    assert _all_counts(db)["parse_errors"] == 0  # "not a hand" is no longer in it
    again = import_paths([str(log)], db, workers=1)
    assert again.unchanged == 1 and again.replaced == 0


def test_a_corrupted_hand_is_kept_with_its_text_and_the_rest_stored(tmp_path):
    db = tmp_path / "h.duckdb"
    text = (SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(
        text.replace("Dealt to Hero [3s Qd 9h]", "Dealt to Hero [3s Qd 9x]"), encoding="utf-8"
    )
    summary = import_paths([str(bad)], db, workers=1)
    assert (summary.new_hands, summary.unparsed) == (10, 1)
    connection = duckdb.connect(str(db), read_only=True)
    row = connection.execute(
        "SELECT file, line, hand_id, message, raw FROM parse_errors"
    ).fetchone()
    connection.close()
    assert row[0] == str(bad) and row[2] == "35874039554" and "'9x' is not a card" in row[3]
    assert (
        row[4].startswith("PokerStars Game #35874039554") and "Dealt to Hero [3s Qd 9x]" in row[4]
    )
    assert text.split("\n")[row[1] - 1].startswith("Dealt to Hero [3s Qd 9h]")


def test_nets_sum_to_minus_rake_and_match_check_json(tmp_path):
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    connection = duckdb.connect(str(db), read_only=True)
    off = connection.execute("""
        SELECT hand_id FROM hand_players JOIN hands USING (site, hand_id)
        GROUP BY site, hand_id, rake HAVING sum(net) != -rake""").fetchall()
    stored = {
        (h, p): n
        for h, p, n in connection.execute(
            "SELECT hand_id, player, net FROM hand_players"
        ).fetchall()
    }
    connection.close()
    assert off == []
    result = runner.invoke(app, ["check", "--json", *SAMPLES])
    from_check = {
        (o["hand_id"], p): n
        for line in result.stdout.splitlines()
        for o in [json.loads(line)]
        for p, n in o["net"].items()
    }
    assert stored == from_check


# Columns that differ between two imports of the same files by nature: the wall-clock
# times each file's import started and finished.
RUN_COLUMNS = {"imports": ("started_at", "finished_at")}


def _all_rows(db: Path) -> dict[str, list[tuple]]:
    """Every table's rows, sorted, without RUN_COLUMNS (times read as UTC text)."""
    connection = duckdb.connect(str(db), read_only=True)
    try:
        connection.execute("SET TimeZone = 'UTC'")
        rows = {}
        for table in (*TABLES, "parse_errors", "skipped", "imports", "meta"):
            columns = [
                f"CAST({name} AS VARCHAR)" if kind.startswith("TIMESTAMP") else name
                for name, kind, *_ in connection.execute(f"DESCRIBE {table}").fetchall()
                if name not in RUN_COLUMNS.get(table, ())
            ]
            fetched = connection.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            rows[table] = sorted(fetched, key=repr)
        return rows
    finally:
        connection.close()


def test_parallel_import_gives_the_same_rows(tmp_path):
    """Two workers store exactly what one stores, row for row and column for column (the
    hand found in two files too: its copy from the file listed first)."""
    serial, parallel = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    import_paths(SAMPLES, serial, workers=1)
    import_paths(SAMPLES, parallel, workers=2)
    rows = _all_rows(serial)
    assert len(rows["hands"]) == HANDS_IN_SAMPLES and len(rows["actions"]) > 900
    assert len(rows["imports"]) == len(SAMPLES)
    assert _all_rows(parallel) == rows


def _big_logs(tmp_path: Path, files: int, hands: int) -> list[str]:
    made = []
    for number in range(files):
        source = replicate(SAMPLE_LOGS, hands, tmp_path / f"data{number}")
        text = source.read_text(encoding="utf-8").replace("#9000000", f"#9{number:02d}0000")
        target = tmp_path / f"big{number}.txt"
        target.write_text(text, encoding="utf-8")
        made.append(str(target))
    return made


def _file_commits(monkeypatch) -> list[tuple[list[str], int]]:  # type: ignore[no-untyped-def]
    """The transactions of big files (`importer._FileLoad.commit`) as the import commits
    them: the paths of the files in each (those carried into it first) and its hands."""
    from handlog import importer

    commits: list[tuple[list[str], int]] = []
    real_commit = importer._FileLoad.commit

    def commit(self, *args):  # type: ignore[no-untyped-def]
        before = getattr(self, "before", [])
        if self.parts or before:
            commits.append(([load.plan.path for load in (*before, self)], self.hands))
        return real_commit(self, *args)

    monkeypatch.setattr(importer._FileLoad, "commit", commit)
    return commits


def _refuse_rows_of(monkeypatch, marker: str):  # type: ignore[no-untyped-def]
    """DuckDB refusing, as out of memory, the rows of the files whose path holds `marker`;
    the real `store.load`, returned."""
    from handlog import store

    real_load = store.load

    def refusing(connection, tables):  # type: ignore[no-untyped-def]
        if marker in tables["hands"].column("file")[0].as_py():
            raise duckdb.OutOfMemoryException("Out of Memory Error: failed to allocate")
        return real_load(connection, tables)

    monkeypatch.setattr(store, "load", refusing)
    return real_load


def _start_import(
    db: Path, files: list[str], range_bytes: int | None = None, commit_hands: int | None = None
) -> subprocess.Popen[bytes]:
    environment = dict(os.environ)
    if range_bytes:
        environment["HANDLOG_RANGE_BYTES"] = str(range_bytes)
    if commit_hands:
        environment["HANDLOG_COMMIT_HANDS"] = str(commit_hands)
    command = [sys.executable, "-m", "handlog.cli", "import", "--quiet", "--workers", "1"]
    return subprocess.Popen(
        [*command, "--db", str(db), *files],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )


def _kill_after_a_commit(process: subprocess.Popen[bytes], wal: Path) -> None:
    """`kill -9` the import once a commit is surely complete, not after a fixed time (a
    fixed delay may come before any commit on a loaded machine, or after the end on a fast
    one): once a report's copy of the database, taken between two commits, holds hands.
    (Watching the write-ahead log grow, stand still and grow again was taken for the end
    of a commit: on a loaded machine a commit's writes may stand still midway.)"""
    from handlog.snapshot import reading

    database = wal.with_name(wal.name.removesuffix(".wal"))
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
        if not wal.exists():
            continue
        try:
            with reading(database) as connection:
                if connection.execute("SELECT count(*) FROM hands").fetchone()[0]:
                    break
        except Exception:  # noqa: BLE001 - not yet readable (being made): look again
            continue
    process.send_signal(signal.SIGKILL)
    assert process.wait() == -signal.SIGKILL, "the import finished before it could be killed"


def test_kill_9_mid_import_leaves_a_consistent_database(tmp_path):
    db = tmp_path / "h.duckdb"
    files = _big_logs(tmp_path, 4, 1500)
    # Whole files are stored several to a transaction (`importer._FilesLoad`): one of
    # 1,500 hands commits with each file.
    process = _start_import(db, files, commit_hands=1500)
    _kill_after_a_commit(process, tmp_path / "h.duckdb.wal")
    connection = connect(db)
    stored = connection.execute(
        "SELECT count(*), count(DISTINCT (site, hand_id)) FROM hands"
    ).fetchone()
    orphans = connection.execute("""
        SELECT count(*) FROM hand_players p ANTI JOIN hands h USING (site, hand_id)""").fetchone()[
        0
    ]
    imported = connection.execute("SELECT coalesce(sum(new_hands), 0) FROM imports").fetchone()[0]
    connection.close()
    assert stored[0] == stored[1] == imported  # whole files only, each hand once
    assert stored[0] < 4 * 1500 and stored[0] % 1500 == 0
    assert orphans == 0
    summary = import_paths(files, db, workers=1)
    assert summary.new_hands + stored[0] == 4 * 1500
    assert _all_counts(db)["hands"] == 4 * 1500


def test_whole_files_bigger_than_small_ones_share_a_transaction(tmp_path, monkeypatch):
    """A whole new file read in one part that is not small (here any: `SMALL_FILE_BYTES` of
    one byte) is stored with the files around it in one transaction, each with its own
    `imports` row and counts, as small files are: no transaction a file (each one's rows
    went through DuckDB's write-ahead log). One that DuckDB refuses fails alone."""
    from handlog import importer

    monkeypatch.setattr(importer, "SMALL_FILE_BYTES", 1)
    files = _big_logs(tmp_path, 3, 120)
    own_commits = _file_commits(monkeypatch)
    reported = []
    db = tmp_path / "h.duckdb"
    summary = import_paths(
        files, db, workers=2, on_file=lambda plan, counts, new, errors: reported.append(new)
    )
    assert summary.new_hands == 360 and not summary.failed
    assert not own_commits  # no file had a transaction of its own
    assert reported == [120, 120, 120]
    connection = duckdb.connect(str(db), read_only=True)
    rows = connection.execute("SELECT hands, new_hands FROM imports ORDER BY path").fetchall()
    connection.close()
    assert rows == [(120, 120)] * 3

    _refuse_rows_of(monkeypatch, "big1")
    monkeypatch.setattr(importer, "LOAD_PARTS", 1)  # each file loaded as it comes
    other = tmp_path / "other.duckdb"
    summary = import_paths(files, other, workers=2)
    assert [path for path, _ in summary.failed] == [files[1]]
    assert summary.new_hands == 240
    connection = duckdb.connect(str(other), read_only=True)
    paths = [row[0] for row in connection.execute("SELECT path FROM imports").fetchall()]
    connection.close()
    assert not any("big1" in path for path in paths)


def test_a_few_big_files_share_a_transaction_and_one_refused_fails_alone(tmp_path, monkeypatch):
    """Big files (each cut into ranges) of fewer than `COMMIT_HANDS` hands together are
    stored in one transaction, as one file of their hands would be, each file with its own
    `imports` row, counted and reported in order. When DuckDB refuses a file's rows, the
    files before it in the transaction are stored again alone and only that file fails;
    the files after it go on."""
    from handlog import importer, store

    monkeypatch.setattr(importer, "SMALL_FILE_BYTES", 1)
    monkeypatch.setattr(importer, "RANGE_BYTES", 40_000)  # some ten ranges a file
    files = _big_logs(tmp_path, 3, 120)
    commits = _file_commits(monkeypatch)
    reported = []

    def on_file(plan, counts, new, errors):  # type: ignore[no-untyped-def]
        reported.append((plan.path, counts["hands"], new))

    db = tmp_path / "h.duckdb"
    summary = import_paths(files, db, workers=2, on_file=on_file)
    assert summary.new_hands == 360 and not summary.failed
    assert [paths for paths, _ in commits] == [files]  # one transaction for the three
    assert reported == [(path, 120, 120) for path in files]
    connection = duckdb.connect(str(db), read_only=True)
    rows = connection.execute(
        "SELECT path, size, hands, new_hands FROM imports ORDER BY path"
    ).fetchall()
    connection.close()
    assert rows == [(path, os.path.getsize(path), 120, 120) for path in files]
    assert import_paths(files, db, workers=2).unchanged == 3

    real_load = _refuse_rows_of(monkeypatch, "big1")
    commits.clear()
    reported.clear()
    other = tmp_path / "other.duckdb"
    summary = import_paths(files, other, workers=2, on_file=on_file)
    assert [path for path, _ in summary.failed] == [files[1]]
    assert summary.new_hands == 240 and summary.hands == 240
    assert reported == [(files[0], 120, 120), (files[2], 120, 120)]
    connection = duckdb.connect(str(other), read_only=True)
    stored = connection.execute("SELECT path, hands FROM imports ORDER BY path").fetchall()
    hands = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
    connection.close()
    assert stored == [(files[0], 120), (files[2], 120)] and hands == 240
    monkeypatch.setattr(store, "load", real_load)
    again = import_paths(files, other, workers=2)
    assert again.new_hands == 120 and again.unchanged == 2


def test_files_carried_on_commit_once_their_hands_reach_commit_hands(tmp_path, monkeypatch):
    """A transaction carried from file to file counts every hand read into it once: with
    400 hands a commit, three files of 120 go on into the fourth, which commits them at its
    first part past 400 and its own rest at its end."""
    from handlog import importer

    monkeypatch.setattr(importer, "SMALL_FILE_BYTES", 1)
    monkeypatch.setattr(importer, "RANGE_BYTES", 40_000)
    monkeypatch.setattr(importer, "COMMIT_HANDS", 400)
    files = _big_logs(tmp_path, 4, 120)
    commits = _file_commits(monkeypatch)
    summary = import_paths(files, tmp_path / "h.duckdb", workers=2)
    assert summary.new_hands == 480
    (first, first_hands), (second, second_hands) = ((len(p), h) for p, h in commits)
    assert first == 4 and 400 <= first_hands < 480 and second == 1
    assert first_hands + second_hands == 480


def test_kill_9_inside_a_carried_transaction_keeps_what_it_committed(tmp_path):
    """Files carried from one to the next commit together: a commit falls inside a file
    (2,000 hands a commit, files of 1,500), and stores the files before it whole and that one
    as far as it got, each with its `imports` row; an import killed then goes on from there,
    every hand once."""
    db = tmp_path / "h.duckdb"
    files = _big_logs(tmp_path, 3, 1500)
    process = _start_import(db, files, range_bytes=1 << 20, commit_hands=2000)
    _kill_after_a_commit(process, tmp_path / "h.duckdb.wal")
    connection = connect(db)
    rows = dict(connection.execute("SELECT path, hands FROM imports").fetchall())
    stored = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
    connection.close()
    counts = [rows.get(path, 0) for path in files]
    partial = [index for index, count in enumerate(counts) if 0 < count < 1500]
    assert counts[0] == 1500 and len(partial) == 1 and stored == sum(counts)
    assert counts[: partial[0]] == [1500] * partial[0]  # whole files, then one part way
    assert not any(counts[partial[0] + 1 :])
    summary = import_paths(files, db, workers=1)
    assert summary.new_hands == 4500 - stored and summary.unchanged == partial[0]
    assert _all_counts(db)["hands"] == 4500


def test_a_file_imported_alone_is_shared_by_the_workers(tmp_path, monkeypatch):
    """A new file of up to one range imported alone is cut in a range for each worker (no
    smaller than a small file), so that they read it together; among other files, or read by
    one worker, it is one range."""
    from handlog import importer
    from handlog.importer import ImportSummary

    files = _big_logs(tmp_path, 2, 1200)  # some 2.6 MB each: one range
    size = os.path.getsize(files[1])
    assert importer._small() < size <= importer.RANGE_BYTES

    def parts(paths, workers):  # type: ignore[no-untyped-def]
        jobs = list(importer._jobs(None, paths, ImportSummary(), workers))
        return [sum(1 for job in jobs if job.plan.path == path) for path in paths]

    assert parts(files[1:], 2) == [2]
    assert parts(files[1:], 1) == [1]
    assert parts(files, 2) == [1, 1]
    monkeypatch.setattr(importer, "SMALL_FILE_BYTES", size // 2 + 1)  # halves too small
    assert parts(files[1:], 2) == [1]
    monkeypatch.undo()
    summary = import_paths(files[1:], tmp_path / "h.duckdb", workers=2)
    assert summary.new_hands == 1200 and not summary.failed
    assert _all_counts(tmp_path / "h.duckdb")["imports"] == 1


def test_kill_9_inside_a_big_file_resumes_where_it_stopped(tmp_path):
    db = tmp_path / "h.duckdb"
    files = _big_logs(tmp_path, 1, 5000)
    # About 450 hands a range, a commit every 900 hands or so.
    process = _start_import(db, files, range_bytes=1 << 20, commit_hands=900)
    _kill_after_a_commit(process, tmp_path / "h.duckdb.wal")
    connection = connect(db)
    stored = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
    recorded = connection.execute("SELECT coalesce(sum(new_hands), 0) FROM imports").fetchone()[0]
    connection.close()
    assert 0 < stored < 5000 and stored == recorded
    summary = import_paths(files, db, workers=1)
    assert summary.new_hands == 5000 - stored  # only what was missing
    assert _all_counts(db)["hands"] == 5000


def test_a_second_import_while_one_runs_says_busy(tmp_path):
    db = tmp_path / "h.duckdb"
    files = _big_logs(tmp_path, 1, 3000)
    process = _start_import(db, files)
    try:
        deadline = time.time() + 10
        while not db.exists() and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        with pytest.raises(DatabaseBusy, match="busy"):
            import_paths(SAMPLES, db, workers=1)
        result = runner.invoke(app, ["import", "--db", str(db), *SAMPLES])
        assert result.exit_code == 3 and "busy" in result.output
    finally:
        process.kill()
        process.wait()


def test_an_unreadable_file_is_reported_and_the_rest_imported(tmp_path):
    db = tmp_path / "h.duckdb"
    locked = tmp_path / "locked.txt"
    locked.write_text("x")
    os.chmod(locked, 0)
    if os.access(locked, os.R_OK):  # root reads everything: use a path that vanishes instead
        locked.unlink()
    summary = import_paths([str(locked), *SAMPLES], db, workers=1)
    assert [path for path, _ in summary.failed] == [str(locked)]
    assert summary.new_hands == HANDS_IN_SAMPLES


def test_a_read_error_part_way_keeps_the_ranges_before_it(tmp_path, monkeypatch):
    """A file that fails to read after some of its ranges were cut: those ranges are
    stored with the file's `imports` row, the file is reported, and the next import goes on
    from where it stopped, storing each hand once."""
    from handlog import importer, ingest

    db = tmp_path / "h.duckdb"
    (log,) = _big_logs(tmp_path, 1, 300)
    monkeypatch.setattr(importer, "RANGE_BYTES", 100_000)
    cut = ingest.hand_ranges

    def failing(*arguments):
        ranges = cut(*arguments)
        yield next(ranges)
        yield next(ranges)
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(ingest, "hand_ranges", failing)
    summary = import_paths([log], db, workers=2)
    assert summary.failed == [(log, "cannot read: Input/output error")]
    stored = _all_counts(db)["hands"]
    assert 0 < stored < 300 and summary.new_hands == stored
    monkeypatch.setattr(ingest, "hand_ranges", cut)
    again = import_paths([log], db, workers=2)
    assert again.failed == []
    assert _all_counts(db)["hands"] == 300
    assert again.new_hands == 300 - stored


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not os.confstr("CS_GNU_LIBC_VERSION"),
    reason="glibc's malloc only",
)
@pytest.mark.parametrize("kept", [False, True])
def test_an_imports_processes_keep_freed_memory_for_their_next_blocks(kept):
    """An import's processes keep big freed blocks in malloc's heap for the next (a range's
    text, a column's list), where glibc would map each from the kernel and unmap it when
    freed: 64 MB allocated and freed stays resident, as it would not otherwise."""
    script = f"""
import os
from handlog import importer
assert importer._keep_freed_memory() if {kept} else True
def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
before = resident()
block = bytearray(64 << 20)
block[::4096] = b"x" * len(block[::4096])
del block
print(resident() - before)
"""
    kept_bytes = int(
        subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        ).stdout
    )
    assert (kept_bytes > 48 << 20) is kept


def test_a_big_files_first_range_is_handed_out_as_soon_as_it_is_cut(tmp_path):
    """A file's parts come out one by one as the reader cuts them, the last marked last: the
    first is not held until the second has been read and hashed (the workers waited for
    it), and a file growing meanwhile ends with the range that ends where it did."""
    from handlog import ingest

    (log,) = _big_logs(tmp_path, 1, 120)
    cut = []
    original = ingest.hand_ranges

    def counted(*arguments):
        for part in original(*arguments):
            cut.append(part)
            yield part

    plan = ingest.FilePlan(log, os.path.getsize(log), 1)
    ingest.hand_ranges = counted
    try:
        jobs = ingest.file_jobs(plan, 20_000)
        first = next(jobs)
        assert len(cut) == 1 and first.part == cut[0] and not first.last
        with open(log, "ab") as grown:  # appended after the cutting began: not this import's
            grown.write(Path(log).read_bytes()[: first.part.end])
        rest = list(jobs)
    finally:
        ingest.hand_ranges = original
    assert len(rest) > 2 and [job.last for job in rest] == [False] * (len(rest) - 1) + [True]
    assert rest[-1].end == plan.size and rest[-1].part.end == plan.size
    assert rest[-1].sha256 == hashlib.sha256(Path(log).read_bytes()[: plan.size]).hexdigest()


def _ranged_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[int]]:
    """A 300-hand file cut into ranges of 60,000 bytes for the import, and each range's
    hands (17 ranges of 3-29 hands: the last ones shrink)."""
    from handlog import importer, ingest

    (log,) = _big_logs(tmp_path, 1, 300)
    monkeypatch.setattr(importer, "RANGE_BYTES", 60_000)
    plan = ingest.FilePlan(log, os.path.getsize(log), 1)
    ranges = [
        ingest.read_part(log, job.part, 1, None).counts["hands"]
        for job in ingest.file_jobs(plan, 60_000)
    ]
    return log, ranges


def test_ranges_commit_together_and_a_part_refused_takes_back_only_its_transaction(
    tmp_path, monkeypatch
):
    """A file's ranges are committed once a transaction holds `COMMIT_HANDS` hands, and
    loaded `LOAD_PARTS` together (and as the transaction commits). When DuckDB refuses the
    rows of a transaction, its ranges go back with it: the file fails, what it counts is
    what was committed (its `imports` row the same), and the next import goes on from
    there, each hand once."""
    import duckdb as duckdb_module

    from handlog import importer
    from handlog import store as store_module

    db = tmp_path / "h.duckdb"
    log, ranges = _ranged_log(tmp_path, monkeypatch)
    assert importer.LOAD_PARTS == 3 and len(ranges) > 8
    # The first transaction: four ranges (loaded three, then one as it commits); the second
    # is refused at the load of its first three.
    committed = sum(ranges[:4])
    assert sum(ranges[4:7]) < committed
    monkeypatch.setattr(importer, "COMMIT_HANDS", committed)
    real_load = store_module.load
    loads = []

    def refusing(connection, tables):  # type: ignore[no-untyped-def]
        loads.append(tables["hands"].num_rows)
        if len(loads) == 3:  # the second transaction's first ranges
            raise duckdb_module.OutOfMemoryException("Out of Memory Error: refused")
        return real_load(connection, tables)

    monkeypatch.setattr(store_module, "load", refusing)
    commits = []
    summary = import_paths([log], db, workers=1, after_commit=lambda *_, **__: commits.append(1))
    assert loads == [sum(ranges[:3]), ranges[3], sum(ranges[4:7])]
    assert len(commits) == 1 + 1  # the first transaction, and the import's end
    ((path, reason),) = summary.failed
    assert path == log and reason.startswith("could not be stored: Out of Memory")
    assert _all_counts(db)["hands"] == committed == summary.new_hands == summary.hands
    connection = duckdb.connect(str(db), read_only=True)
    row = connection.execute("SELECT hands, new_hands FROM imports").fetchall()
    connection.close()
    assert row == [(committed, committed)]
    monkeypatch.setattr(store_module, "load", real_load)
    again = import_paths([log], db, workers=1)
    assert again.failed == [] and _all_counts(db)["hands"] == 300
    assert again.new_hands == 300 - committed


def test_workers_start_before_a_new_database_is_made(tmp_path, monkeypatch):
    """Into a new database (no file imported before) the workers are given their first
    tasks before DuckDB makes the database; into one that exists, once the `imports` rows
    are read. The same hands either way, and the second import finds every file unchanged."""
    from handlog import importer
    from handlog import store as store_module

    log, _ = _ranged_log(tmp_path, monkeypatch)
    events: list[str] = []
    real_start, real_connect = importer._start, store_module.connect

    def start(*args):  # type: ignore[no-untyped-def]
        events.append("task")
        return real_start(*args)

    def connect(*args, **kwargs):  # type: ignore[no-untyped-def]
        events.append("connect")
        return real_connect(*args, **kwargs)

    monkeypatch.setattr(importer, "_start", start)
    monkeypatch.setattr(store_module, "connect", connect)
    db = tmp_path / "h.duckdb"
    first = import_paths([log], db, workers=2)
    assert events[0] == "task" and "connect" in events
    assert first.failed == [] and first.new_hands == 300 == _all_counts(db)["hands"]
    events.clear()
    again = import_paths([log], db, workers=2)
    assert events == ["connect"] and again.unchanged == 1 and again.new_hands == 0


@pytest.mark.parametrize("workers", [1, 2])
def test_the_last_commit_checkpoints_and_leaves_no_log(tmp_path, monkeypatch, workers):
    """The commits of an import's last result checkpoint as they commit (DuckDB writes no
    log of them, and closing has nothing left to do); the commits before are logged, and
    the hooks after the import's end run with the import's usual threshold."""
    from handlog import importer

    log, ranges = _ranged_log(tmp_path, monkeypatch)
    monkeypatch.setattr(importer, "COMMIT_HANDS", 100)
    db = tmp_path / "h.duckdb"
    wal = Path(f"{db}.wal")
    logs: list[int] = []
    thresholds: list[str] = []

    setting = "SELECT current_setting('checkpoint_threshold')"

    def hook(connection, final=False):  # type: ignore[no-untyped-def]
        if final:
            thresholds.append(connection.execute(setting).fetchone()[0])
        else:
            logs.append(wal.stat().st_size if wal.exists() else 0)

    summary = import_paths([log], db, workers=workers, after_commit=hook)
    assert summary.failed == [] and _all_counts(db)["hands"] == 300
    assert len(logs) >= 3
    assert all(size > 0 for size in logs[:-1]) and logs[-1] == 0
    usual = duckdb.connect()
    usual.execute(f"SET checkpoint_threshold = '{importer.CHECKPOINT_BYTES}'")
    assert thresholds == [usual.execute(setting).fetchone()[0]]


def test_a_file_of_fewer_hands_than_a_transaction_holds_is_committed_once(tmp_path, monkeypatch):
    """A file's ranges share one transaction up to `COMMIT_HANDS` hands (DuckDB writes the
    rows of a big one straight to the database file, and a small one's twice): every range
    of a 300-hand file in one commit, loaded three at a time (each as it comes once the last
    one is under way); at 100 hands a transaction, a commit per 100 hands or so."""
    from handlog import importer
    from handlog import store as store_module

    log, ranges = _ranged_log(tmp_path, monkeypatch)
    assert len(ranges) == 17 and max(ranges) < 100
    real_load = store_module.load
    loads = []

    def counted(connection, tables):  # type: ignore[no-untyped-def]
        loads.append(tables["hands"].num_rows)
        return real_load(connection, tables)

    monkeypatch.setattr(store_module, "load", counted)
    commits: list[dict] = []
    for limit, db in ((importer.COMMIT_HANDS, "one.duckdb"), (100, "many.duckdb")):
        monkeypatch.setattr(importer, "COMMIT_HANDS", limit)
        loads.clear()
        commits.clear()
        summary = import_paths(
            [log], tmp_path / db, workers=2, after_commit=lambda *_, **k: commits.append(k)
        )
        assert summary.failed == [] and summary.new_hands == 300 == sum(loads)
        assert _all_counts(tmp_path / db)["hands"] == 300
        partial = [call for call in commits if not call]  # `final=True` is the import's end
        if limit >= 300:  # one transaction: its ranges loaded three at a time...
            assert len(partial) == 1
            assert loads[:5] == [sum(ranges[at : at + 3]) for at in range(0, 15, 3)]
            # ...until the last is under way: then each loaded as it comes
            assert loads[5:] == ranges[15:]
        else:  # a commit once 100 hands are in (the ranges hold 3-29 hands each)
            assert 3 <= len(partial) < len(ranges) / 3 and max(loads) < 100


def test_import_cli_summary(tmp_path):
    result = runner.invoke(app, ["import", "--db", str(tmp_path / "h.duckdb"), str(SAMPLE_LOGS)])
    assert result.exit_code == 0, result.output
    assert "30 hands (29 new, 1 already stored" in result.output


def test_zip_archives_are_read_entry_by_entry_and_bombs_refused(tmp_path):
    import zipfile

    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as opened:
        for path in SAMPLES:
            opened.write(path, f"2009/{Path(path).name}")
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as opened:
        opened.writestr("huge.txt", "A" * 20_000_000)
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", "--db", str(db), str(archive), str(bomb)])
    assert result.exit_code == 1, result.output  # the bomb is not imported: said, and exit 1
    assert "30 hands (29 new, 1 already stored" in result.output
    assert "bomb.zip!/huge.txt: refused: compressed" in result.output
    again = runner.invoke(app, ["import", "--db", str(db), str(archive)])
    assert "6 files (6 unchanged), 0 hands (0 new" in again.output
    connection = duckdb.connect(str(db), read_only=True)
    files = {row[0] for row in connection.execute("SELECT file FROM hands").fetchall()}
    connection.close()
    assert all("logs.zip!/2009/" in name for name in files)


def test_won_high_and_won_low_on_a_stud8_split_pot(tmp_path):
    """Hand 35874676388 (stud8, worked out by hand): at showdown gashpor shows
    4h 3d 5d Qd Jd 9d 6h, a diamond flush to the queen, and no low (only 3, 4, 5 and 6 are
    eight or lower); Hero shows 7c 3s 5h Qc Kc 6d 4d, a straight to the seven for high (beaten
    by the flush) and 7-6-5-4-3 for low. gashpor wins the high half, Hero the low half; the
    other six folded and won nothing."""
    db = tmp_path / "h.duckdb"
    import_paths([str(SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt")], db, workers=1)
    connection = duckdb.connect(str(db), read_only=True)
    rows = connection.execute(
        "SELECT player, won_high, won_low, collected FROM hand_players "
        "WHERE hand_id = '35874676388'"
    ).fetchall()
    connection.close()
    won = {player: (high, low) for player, high, low, _ in rows}
    assert won == {
        "gashpor": (True, False),
        "Hero": (False, True),
        "u.pressure": (False, False),
        "123smoothie": (False, False),
        "denny501": (False, False),
        "TomSludge": (False, False),
        "Soroka69": (False, False),
        "rdiezchang": (False, False),
    }
    assert {player: collected for player, _, _, collected in rows if collected} == {
        "gashpor": 40,
        "Hero": 40,
    }


def test_won_high_is_every_pot_winner_in_stud_and_razz(tmp_path):
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    connection = duckdb.connect(str(db), read_only=True)
    rows = connection.execute("""
        SELECT h.game, p.won_high, p.won_low, coalesce(a.expected, 0) > 0
        FROM hand_players p JOIN hands h USING (site, hand_id)
        LEFT JOIN awards a USING (site, hand_id, player)""").fetchall()
    connection.close()
    assert all(high is not None and low is not None for _, high, low, _ in rows)
    for game, high, low, won in rows:
        if game != "stud8":
            assert (high, low) == (won, False)
        elif not won:
            assert (high, low) == (False, False)
    assert any(high and game == "stud8" for game, high, _, _ in rows)
    assert any(low and game == "stud8" for game, _, low, _ in rows)


def test_a_version_1_database_is_migrated_keeping_its_rows(tmp_path):
    """Version 1 had a primary key on each detail table; version 2 drops them (see
    store.DETAIL_TABLES) and keeps every row."""
    from handlog.store import _V1_DETAIL_TABLES, SCHEMA_VERSION

    db = tmp_path / "old.duckdb"
    import_paths(SAMPLES[:2], db, workers=1)
    connection = duckdb.connect(str(db))
    before = counts(connection, TABLES)
    # Back to version 1's shape (with the columns that migration rebuilds; later ones add
    # theirs, as `dealt_in`).
    for name, columns in _V1_DETAIL_TABLES.items():
        key = {"actions": "seq", "violations": "seq", "pots": "pot"}.get(name, "player")
        connection.execute(
            f"CREATE TABLE {name}__v1 ({columns}, PRIMARY KEY (site, hand_id, {key}))"
        )
        kept = [row[0] for row in connection.execute(f"DESCRIBE {name}__v1").fetchall()]
        connection.execute(f"INSERT INTO {name}__v1 SELECT {', '.join(kept)} FROM {name}")
        connection.execute(f"DROP TABLE {name}")
        connection.execute(f"ALTER TABLE {name}__v1 RENAME TO {name}")
    connection.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    connection.close()
    migrated = connect(db)
    try:
        assert counts(migrated, TABLES) == before
        version = migrated.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert version == (str(SCHEMA_VERSION),)
        keys = migrated.execute("""
            SELECT table_name FROM information_schema.table_constraints
            WHERE constraint_type = 'PRIMARY KEY'""").fetchall()
        assert {name for (name,) in keys} == {
            "meta",
            "hands",
            "parse_errors",
            "skipped",
            "imports",
            "aliases",
        }
    finally:
        migrated.close()
    assert import_paths(SAMPLES, db, workers=1).new_hands == HANDS_IN_SAMPLES - before["hands"]


def test_many_small_files_are_read_and_stored_together_each_counted_as_its_own(
    tmp_path, monkeypatch
):
    """Whole small files go to a worker together and are stored in one transaction, each
    with its own `imports` row and counts; a hand repeated in a later file of the same
    batch is that file's duplicate, as when files are stored one by one."""
    from handlog import store as store_module

    (log,) = _big_logs(tmp_path, 1, 60)
    text = Path(log).read_text(encoding="utf-8")
    hands = [part for part in text.split("\n\n\n") if part.strip()]
    folder = tmp_path / "tables"
    folder.mkdir()
    for number in range(12):
        group = hands[number * 5 : number * 5 + 5]
        (folder / f"t{number:02d}.txt").write_text("\n\n\n".join(group) + "\n", encoding="utf-8")
    (folder / "t99-copy.txt").write_text((folder / "t03.txt").read_text(encoding="utf-8"))
    loads = []
    real_load = store_module.load

    def counting(connection, tables):  # type: ignore[no-untyped-def]
        loads.append(1)
        return real_load(connection, tables)

    monkeypatch.setattr(store_module, "load", counting)
    db = tmp_path / "h.duckdb"
    files = sorted(str(path) for path in folder.iterdir())
    seen = {}
    summary = import_paths(
        files,
        db,
        workers=2,
        on_file=lambda plan, counts, new, errors: seen.update({plan.path: (counts["hands"], new)}),
    )
    assert len(loads) == 1  # one transaction for the 13 files
    assert (summary.files, summary.hands, summary.new_hands, summary.duplicates) == (13, 65, 60, 5)
    assert seen[str(folder / "t99-copy.txt")] == (5, 0)
    assert seen[str(folder / "t03.txt")] == (5, 5)
    connection = duckdb.connect(str(db), read_only=True)
    rows = dict(connection.execute("SELECT path, new_hands FROM imports").fetchall())
    texts = connection.execute("SELECT count(*) FROM hand_texts").fetchone()[0]
    # The texts of the files are in blocks of 64 hands across files, not a block a file.
    blocks = connection.execute("SELECT count(*) FROM text_blocks").fetchone()[0]
    keys = connection.execute("SELECT site, hand_id FROM hands").fetchall()
    stored = load_texts(connection, keys)
    connection.close()
    assert len(rows) == 13 and rows[str((folder / "t99-copy.txt").resolve())] == 0
    assert texts == 60 and blocks == 1
    assert sorted(text.text.strip() for text in stored.values()) == sorted(
        hand.strip() for hand in hands[:60]
    )
    again = import_paths(files, db, workers=2)
    assert (again.unchanged, again.hands) == (13, 0)


def _nine_small_files(tmp_path: Path, repeat: bool = False) -> tuple[list[str], list[str]]:
    """Nine files of five hands each (45 replicated sample hands), in name order, and the
    hands; `repeat`: the sixth file holds the first file's third hand again, last."""
    (log,) = _big_logs(tmp_path, 1, 45)
    hands = [part for part in Path(log).read_text(encoding="utf-8").split("\n\n\n") if part]
    folder = tmp_path / "tables"
    folder.mkdir()
    for number in range(9):
        group = hands[number * 5 : number * 5 + 5]
        if repeat and number == 5:
            group = [*group, hands[2].strip()]
        (folder / f"t{number}.txt").write_text("\n\n\n".join(group) + "\n", encoding="utf-8")
    return sorted(str(path) for path in folder.iterdir()), hands


def test_tasks_of_small_files_share_a_transaction_and_a_refused_one_fails_only_its_file(
    tmp_path, monkeypatch
):
    """Tasks of whole small files are stored `LOAD_PARTS` to a transaction (one commit,
    one summary hook, one load of their rows, for them all). When DuckDB refuses the rows of one file, the
    transaction goes back and each task is stored again alone, the refused one file by
    file: only that file fails (no `imports` row), every other is stored and counted once,
    and the next import stores the failed file alone."""
    import duckdb as duckdb_module

    from handlog import importer
    from handlog import store as store_module

    files, _ = _nine_small_files(tmp_path)
    monkeypatch.setattr(importer, "BATCH_FILES", 3)  # three tasks of three files
    real_load = store_module.load
    bad = files[4]  # in the second task

    def refusing(connection, tables):  # type: ignore[no-untyped-def]
        if bad in tables["hands"].column("file").to_pylist():
            raise duckdb_module.OutOfMemoryException("Out of Memory Error: refused")
        return real_load(connection, tables)

    commits = []
    loads = []

    def counted(connection, tables):  # type: ignore[no-untyped-def]
        loads.append(tables["hands"].num_rows)
        return real_load(connection, tables)

    monkeypatch.setattr(store_module, "load", counted)
    # In one process (with workers, the last tasks' rows are loaded as each comes).
    summary = import_paths(
        files, tmp_path / "all.duckdb", workers=1, after_commit=lambda *_, **__: commits.append(1)
    )
    assert (summary.files, summary.new_hands) == (9, 45)
    assert len(commits) == 1 + 1  # the one transaction's hook, then the final one
    assert loads == [45]  # the three tasks' rows loaded together, at the commit
    db = tmp_path / "h.duckdb"
    monkeypatch.setattr(store_module, "load", refusing)
    summary = import_paths(files, db, workers=2)
    assert summary.failed == [(bad, "could not be stored: Out of Memory Error: refused")]
    assert (summary.files, summary.hands, summary.new_hands) == (9, 40, 40)
    assert _all_counts(db)["hands"] == 40 and _all_counts(db)["imports"] == 8
    monkeypatch.setattr(store_module, "load", real_load)
    again = import_paths(files, db, workers=2)
    assert (again.unchanged, again.new_hands, again.failed) == (8, 5, [])
    assert _all_counts(db)["hands"] == 45


def test_tasks_of_small_files_shrink_toward_the_end(monkeypatch):
    """With workers, the tasks of small files hold `BATCH_BYTES` until the end nears, then a
    quarter of what is left each for two workers, down to an eighth of `BATCH_BYTES`: the
    last tasks, which run as the workers run out of work, are short. The bytes left are
    guessed from the files not planned yet at the mean size so far. One process: every task
    holds `BATCH_BYTES`."""
    from handlog import importer
    from handlog.ingest import HASHED_BY_READER, FilePlan, Job

    monkeypatch.setattr(importer, "BATCH_BYTES", 8_000)
    planned = [0]

    def jobs():  # type: ignore[no-untyped-def]
        for number in range(400):  # 40,000 bytes of 100-byte files
            planned[0] += 1
            plan = FilePlan(f"t{number}.txt", 100, 1)
            yield Job(plan, None, 100, HASHED_BY_READER, last=True)

    def task_bytes(workers: int) -> list[int]:
        planned[0] = 0
        tasks = importer._tasks(jobs(), lambda: 400 - planned[0], workers)
        return [sum(job.end for job in task) for task in tasks]

    shrinking = task_bytes(2)
    assert shrinking[:9] == [8_000, 8_000, 6_000, 4_500, 3_400, 2_600, 1_900, 1_400, 1_100]
    assert shrinking[9:] == [1_000, 1_000, 1_000, 100]
    assert task_bytes(1) == [8_000] * 5


def test_small_files_share_a_transaction_up_to_its_hands_or_bytes(tmp_path, monkeypatch):
    """Tasks of small files are loaded `LOAD_PARTS` together and committed once their
    transaction holds `COMMIT_HANDS` hands or `HELD_BYTES` of rows; a file refused in the
    second load of a transaction fails alone, the tasks loaded before it stored again."""
    import duckdb as duckdb_module

    from handlog import importer
    from handlog import store as store_module

    (log,) = _big_logs(tmp_path, 1, 60)
    hands = [part for part in Path(log).read_text(encoding="utf-8").split("\n\n\n") if part]
    folder = tmp_path / "tables"
    folder.mkdir()
    for number in range(12):
        text = "\n\n\n".join(hands[number * 5 : number * 5 + 5]) + "\n"
        (folder / f"t{number:02d}.txt").write_text(text, encoding="utf-8")
    files = sorted(str(path) for path in folder.iterdir())
    monkeypatch.setattr(importer, "BATCH_FILES", 2)  # six tasks of two five-hand files
    real_load = store_module.load
    loads: list[int] = []
    commits: list[dict] = []
    bad: list[str] = []

    def counted(connection, tables):  # type: ignore[no-untyped-def]
        loads.append(tables["hands"].num_rows)
        if set(bad) & set(tables["hands"].column("file").to_pylist()):
            raise duckdb_module.OutOfMemoryException("Out of Memory Error: refused")
        return real_load(connection, tables)

    monkeypatch.setattr(store_module, "load", counted)
    for name, most_hands, most_bytes, expected_loads, expected_commits in (
        ("one", importer.COMMIT_HANDS, importer.HELD_BYTES, [30, 30], 1),
        ("hands", 25, importer.HELD_BYTES, [30, 30], 2),
        ("bytes", importer.COMMIT_HANDS, 1, [10] * 6, 6),
    ):
        monkeypatch.setattr(importer, "COMMIT_HANDS", most_hands)
        monkeypatch.setattr(importer, "HELD_BYTES", most_bytes)
        loads.clear()
        commits.clear()
        db = tmp_path / f"{name}.duckdb"
        summary = import_paths(files, db, workers=1, after_commit=lambda *_, **k: commits.append(k))
        assert (summary.files, summary.new_hands, summary.failed) == (12, 60, []), name
        assert loads == expected_loads, name
        assert len([call for call in commits if not call]) == expected_commits, name
        assert _all_counts(db)["hands"] == 60 and _all_counts(db)["imports"] == 12
    monkeypatch.setattr(importer, "COMMIT_HANDS", 25_000)
    monkeypatch.setattr(importer, "HELD_BYTES", 96 << 20)
    # With workers, once the last task is under way (the fifth result: one left, fewer than
    # the workers) the results are loaded as they come.
    loads.clear()
    summary = import_paths(files, tmp_path / "workers.duckdb", workers=2)
    assert summary.new_hands == 60 and loads == [30, 20, 10]
    bad.append(files[8])  # the fifth task's: in the transaction's second load
    loads.clear()
    db = tmp_path / "refused.duckdb"
    summary = import_paths(files, db, workers=1)
    # The second load refused: each task held stored again alone, the fifth file by file.
    assert loads[:2] == [30, 30] and loads[2:] == [10, 10, 10, 10, 10, 5, 5, 10]
    assert summary.failed == [(files[8], "could not be stored: Out of Memory Error: refused")]
    assert (summary.files, summary.hands, summary.new_hands) == (12, 55, 55)
    assert _all_counts(db)["hands"] == 55 and _all_counts(db)["imports"] == 11


def test_file_keys_are_file_key_of_each_path(tmp_path, monkeypatch):
    """The planning's keys, each folder resolved once, are `file_key`'s: through linked
    folders and files, `..`, relative paths and archive entries."""
    from handlog.ingest import file_key, file_keys
    from handlog.parse.reader import ZIP_ENTRY

    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (real / "a.txt").write_text("x")
    (real / "sub" / "b.txt").write_text("x")
    (tmp_path / "linked").symlink_to(real)
    (real / "link.txt").symlink_to(real / "sub" / "b.txt")
    (tmp_path / "up").symlink_to(real / "sub")
    monkeypatch.chdir(tmp_path)
    paths = [
        "real/a.txt",
        "linked/a.txt",
        "linked/link.txt",
        str(real / "link.txt"),
        "up/../a.txt",  # `..` after a link: the link's target's parent
        "real/sub/../a.txt",
        "real/missing.txt",
        "a-file-here.txt",
        "real/sub/..",
        f"linked/a.zip{ZIP_ENTRY}hands/1.txt",
    ]
    assert file_keys(paths) == [file_key(path) for path in paths]
    assert file_keys(["up/../a.txt"]) == [str(real / "a.txt")]


def test_file_head_is_the_text_before_the_first_hand_as_the_file_splits():
    """`texts.file_head` reads a few pieces of the file, not the file: the same head as the
    file split whole, for every fixture of a format that reads one (XML sessions)."""
    from handlog.parse import detect_file
    from handlog.parse.reader import split_hands
    from handlog.texts import file_head

    checked = 0
    for path in sorted(Path(__file__).parent.joinpath("sites").rglob("*")):
        if not path.is_file() or path.suffix in (".json", ".md", ".golden"):
            continue
        site = detect_file(path)
        if site is None or site.file_context is None:
            continue
        first = next(iter(split_hands(path, site.is_header, site.header_prefix)))
        assert file_head(str(path), site) == ("" if first.is_hand else first.text), path
        checked += 1
    assert checked >= 3


def test_a_utf16_file_is_read_in_ranges_by_the_workers_and_stores_what_one_range_does(
    tmp_path, monkeypatch
):
    """A big UTF-16 export (Full Tilt's, Winning's) is cut into ranges that both workers
    read, as an 8-bit file is, and stores exactly what it stores read as one range."""
    import codecs

    from handlog import importer, ingest

    # The Cardtest file repeats a hand of another: the first copy is stored, either way.
    text = "\n\n".join(Path(path).read_text(encoding="utf-8") for path in SAMPLES)
    log = tmp_path / "wide.txt"
    log.write_bytes(codecs.BOM_UTF16_LE + text.replace("\n", "\r\n").encode("utf-16-le"))
    cut = ingest.hand_ranges
    ranges = []

    def counted(*arguments):
        for part in cut(*arguments):
            ranges.append(part)
            yield part

    monkeypatch.setattr(ingest, "hand_ranges", counted)
    whole, ranged = tmp_path / "whole.duckdb", tmp_path / "ranged.duckdb"
    import_paths([str(log)], whole, workers=2)
    assert len(ranges) <= 1  # a file this small is one part
    ranges.clear()
    monkeypatch.setattr(importer, "RANGE_BYTES", 40_000)
    summary = import_paths([str(log)], ranged, workers=2)
    assert len(ranges) >= 3 and summary.failed == []
    rows, ranged_rows = _all_rows(whole), _all_rows(ranged)
    assert len(rows["hands"]) == HANDS_IN_SAMPLES and len(rows["actions"]) > 900
    # The texts lie in other blocks (a block a range), and read the same.
    del rows["hand_texts"], ranged_rows["hand_texts"]
    assert ranged_rows == rows
    texts = []
    for db in (whole, ranged):
        connection = duckdb.connect(str(db), read_only=True)
        keys = connection.execute("SELECT site, hand_id FROM hands").fetchall()
        texts.append(load_texts(connection, keys))
        connection.close()
    assert len(texts[0]) == len(rows["hands"]) and texts[1] == texts[0]


def test_a_hand_a_file_repeats_is_stored_whole_as_its_first_copy_reads(tmp_path):
    """A hand twice in one file (an export appended to itself): every row of it, in every
    table, comes from its first copy (the store given both copies in one batch would keep
    either copy's rows table by table), and the repeat counts as a duplicate."""
    hand = (SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt").read_text().strip()
    other = Path(SAMPLES[0]).read_text().strip()
    twice, alone = tmp_path / "twice.txt", tmp_path / "alone.txt"
    twice.write_text(f"{hand}\n\n{other}\n\n{hand}\n")
    alone.write_text(f"{hand}\n")
    from handlog.ingest import read_part

    for here in (False, True):  # as Arrow tables, and as the Python rows of a small part
        tables = read_part(str(twice), None, 1, None, here=here).tables
        assert tables["hands"].num_rows == 2, here  # the repeat's rows are not sent on
    summary = import_paths([str(twice)], tmp_path / "twice.duckdb", workers=1)
    assert summary.failed == [] and summary.duplicates == 1
    import_paths([str(alone)], tmp_path / "alone.duckdb", workers=1)
    key = ["pokerstars", "35874676388"]
    rows = []
    for db in ("twice", "alone"):
        connection = duckdb.connect(str(tmp_path / f"{db}.duckdb"), read_only=True)
        rows.append(
            {
                table: connection.execute(
                    f"SELECT * FROM {table} WHERE site = ? AND hand_id = ? ORDER BY ALL", key
                ).fetchall()
                for table in ("hand_players", "actions", "pots", "awards")
            }
            | {
                "hands": connection.execute(
                    "SELECT line FROM hands WHERE site = ? AND hand_id = ?", key
                ).fetchall(),
                "texts": [
                    (stored.line, stored.text)
                    for stored in load_texts(connection, [tuple(key)]).values()
                ],
            }
        )
        connection.close()
    assert rows[0]["hands"] == [(1,)] and len(rows[0]["actions"]) > 20
    assert rows[0] == rows[1]  # the first copy's rows, each once, as the hand alone stores


def _spy_repeats(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each call of `importer._Waiting.repeats` (a part holding a hand of a waiting
    part?) answers during the test, in order."""
    from handlog import importer

    found: list[bool] = []
    real = importer._Waiting.repeats

    def spied(waiting, ids):  # type: ignore[no-untyped-def]
        found.append(real(waiting, ids))
        return found[-1]

    monkeypatch.setattr(importer._Waiting, "repeats", spied)
    return found


def test_a_hand_repeated_in_a_later_range_of_one_transaction_keeps_its_first_copy(
    tmp_path, monkeypatch
):
    """The ranges of a transaction are loaded together at its commit; a range holding a
    hand of a range waiting to be loaded has the waiting ones loaded first (`_Waiting.repeats`), so
    that the first copy is what is stored, whole, and the repeat counts as a duplicate, as
    when each range was loaded as it came."""
    from handlog import importer, ingest
    from handlog.parse import parse_file

    (log,) = _big_logs(tmp_path, 1, 120)
    text = Path(log).read_text(encoding="utf-8")
    hands = [hand for hand in text.split("\n\n\n") if hand.strip()]
    assert len(hands) == 120
    first = hands[0].strip()
    repeated = tmp_path / "repeated.txt"
    repeated.write_text("\n\n\n".join([*hands[:40], first, *hands[40:]]) + "\n", encoding="utf-8")
    monkeypatch.setattr(importer, "RANGE_BYTES", 60_000)
    plan = ingest.FilePlan(str(repeated), os.path.getsize(repeated), 1)
    starts = [job.part.first_line for job in ingest.file_jobs(plan, 60_000)]
    (copy,) = [
        item.source.line
        for item in parse_file(str(repeated))
        if item.hand_id == hands[0].split("#", 1)[1].split(":", 1)[0]
    ][1:]
    # The copy is in the first transaction, a range after the first copy's.
    assert 1 < sum(start <= copy for start in starts) <= importer.LOAD_PARTS
    found = _spy_repeats(monkeypatch)
    summary = import_paths([str(repeated)], tmp_path / "h.duckdb", workers=1)
    assert True in found
    assert summary.failed == [] and summary.hands == 121 and summary.duplicates == 1
    connection = duckdb.connect(str(tmp_path / "h.duckdb"), read_only=True)
    hand_id = hands[0].split("#", 1)[1].split(":", 1)[0]
    assert connection.execute("SELECT line FROM hands WHERE hand_id = ?", [hand_id]).fetchall() == [
        (1,)
    ]
    assert connection.execute("SELECT count(*), count(DISTINCT hand_id) FROM hands").fetchall() == [
        (120, 120)
    ]
    connection.close()


def test_a_hand_of_a_small_file_repeated_in_a_later_task_is_the_first_files(tmp_path, monkeypatch):
    """Tasks of small files are loaded together at their commit; a task holding a hand of a
    task waiting has the waiting ones loaded first: the hand is the first file's (its rows,
    its count), the repeat a duplicate, as when each task was loaded as it came."""
    from handlog import importer

    # The second task's last file repeats the first file's third hand.
    files, hands = _nine_small_files(tmp_path, repeat=True)
    monkeypatch.setattr(importer, "BATCH_FILES", 3)  # three tasks of three files
    found = _spy_repeats(monkeypatch)
    db = tmp_path / "h.duckdb"
    # In one process: with workers these few tasks are the last, each loaded as it comes.
    summary = import_paths(files, db, workers=1)
    assert True in found
    assert (summary.files, summary.hands, summary.new_hands, summary.duplicates) == (9, 46, 45, 1)
    connection = duckdb.connect(str(db), read_only=True)
    hand_id = hands[2].split("#", 1)[1].split(":", 1)[0]
    assert connection.execute("SELECT file FROM hands WHERE hand_id = ?", [hand_id]).fetchall() == [
        (files[0],)
    ]
    rows = connection.execute("SELECT hands, new_hands FROM imports ORDER BY path").fetchall()
    connection.close()
    assert rows == [(5, 5)] * 5 + [(6, 5)] + [(5, 5)] * 3  # t5: its six hands, five new
