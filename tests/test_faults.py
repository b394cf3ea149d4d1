"""Hostile files, dying processes, broken databases (issue 18): every fault is answered in
one line that names the file and says what to do, with the exit code of the table in
`handlog --help`, and nothing is lost or skipped without a line saying so."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from handlog import importer, ingest, store
from handlog.bench import replicate
from handlog.cli import app
from handlog.errors import ParseError
from handlog.importer import ImportFailed, import_paths
from handlog.model import Hand
from handlog.parse import parse_file
from handlog.snapshot import lock_path

from .conftest import SAMPLE_LOGS

runner = CliRunner()
SAMPLES = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt"))
HANDS_IN_SAMPLES = 29  # 30 hands, one of them in two files
RAZZ = SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt"


def _one_line_error(result, code: int, *words: str) -> str:  # type: ignore[no-untyped-def]
    """The CLI ended with `code` and said why in one line naming what it is about, with no
    traceback."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("handlog: ")]
    assert len(errors) == 1, result.output
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]


def _hands(db: Path) -> int:
    connection = duckdb.connect(str(db), read_only=True)
    try:
        return connection.execute("SELECT count(*) FROM hands").fetchone()[0]  # type: ignore[index]
    finally:
        connection.close()


def _replicated(folder: Path, hands: int, name: str, number: int) -> Path:
    """`hands` real hands with fresh hand numbers (distinct per `number`) in one file."""
    source = replicate(SAMPLE_LOGS, hands, folder / f"replicated{number}")
    target = folder / name
    text = source.read_text(encoding="utf-8").replace("#9000000", f"#9{number:02d}0000")
    target.write_text(text, encoding="utf-8")
    return target


# 1. A file of one 50 MB line; a file that cannot be stored.


def test_a_huge_line_is_stored_as_an_excerpt_that_says_it_was_cut(tmp_path):
    """The raw text of a hand (here holding a 3 MB line) is what `parse_errors` keeps of it;
    a 50 MB line there exhausted DuckDB's memory limit and crashed the import. Stored: the
    first `MAX_RAW_STORED` characters and a line saying how long it was."""
    text = RAZZ.read_text(encoding="utf-8")
    at = text.index("*** 3rd STREET ***")
    log = tmp_path / "long.txt"
    log.write_text(text[:at] + "y" * 3_000_000 + "\n" + text[at:], encoding="utf-8")
    db = tmp_path / "h.duckdb"
    summary = import_paths([str(log)], db, workers=1)
    assert (summary.new_hands, summary.unparsed, summary.failed) == (8, 1, [])
    connection = duckdb.connect(str(db), read_only=True)
    raw, line_text = connection.execute("SELECT raw, text FROM parse_errors").fetchone()
    connection.close()
    assert raw.startswith("PokerStars Game #") and len(raw) < store.MAX_RAW_STORED + 100
    cut = re.search(r"\n\[cut by handlog: ([\d,]+) characters, the first 65,536 kept\]$", raw)
    assert cut is not None and int(cut[1].replace(",", "")) > 3_000_000
    assert line_text.startswith("yyy") and len(line_text) < store.MAX_LINE_STORED + 100


def test_a_file_that_cannot_be_stored_is_reported_and_the_next_files_imported(
    tmp_path, monkeypatch
):
    """DuckDB refusing one file's rows (out of memory, as a 50 MB value was) no longer
    ends the import with a traceback: the file is named with the reason, exit 1, the next
    files are stored, and the failed file's transaction leaves nothing behind."""
    real_load = store.load

    def refusing(connection, tables):  # type: ignore[no-untyped-def]
        hands = tables.get("hands")
        if hands is not None and "Razz" in hands.column("file")[0].as_py():
            raise duckdb.OutOfMemoryException(
                "Out of Memory Error: failed to allocate data of size 64.0 MiB (128.0 MiB/128.0 MiB used)"
            )
        return real_load(connection, tables)

    monkeypatch.setattr(store, "load", refusing)
    db = tmp_path / "h.duckdb"
    ordered = [str(RAZZ), *(s for s in SAMPLES if s != str(RAZZ))]
    result = runner.invoke(app, ["import", "--workers", "1", "--db", str(db), *ordered])
    line = _one_line_error(result, 1, str(RAZZ), "could not be stored", "Out of Memory")
    assert "1 path not imported" in result.output, line
    assert _hands(db) == HANDS_IN_SAMPLES - 9  # all but the 9 razz hands
    connection = duckdb.connect(str(db), read_only=True)
    paths = [row[0] for row in connection.execute("SELECT path FROM imports").fetchall()]
    connection.close()
    assert not any("Razz" in path for path in paths)  # imported again next time
    # The files' texts shared blocks (`ingest.read_files`): each stored once all the same,
    # and every hand stored has its text.
    connection = duckdb.connect(str(db), read_only=True)
    blocks, distinct = connection.execute(
        "SELECT count(*), count(DISTINCT block) FROM text_blocks"
    ).fetchone()
    missing = connection.execute(
        "SELECT count(*) FROM hands h ANTI JOIN (SELECT t.site, t.hand_id FROM hand_texts t "
        "JOIN text_blocks b USING (block)) t USING (site, hand_id)"
    ).fetchone()[0]
    connection.close()
    assert blocks == distinct and missing == 0


def test_a_full_disk_part_way_is_one_line_and_keeps_what_was_committed(tmp_path, monkeypatch):
    """A commit that fails for want of space leaves DuckDB with no transaction: the
    rollback's "no transaction is active" used to be the last line, hiding the cause. The
    summary counts what was committed, the parts of the file under way included (it said
    "0 new hands" of a big file of which 16,932 were stored)."""
    real_load = store.load
    calls = []

    def filling(connection, tables):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 4:
            raise duckdb.TransactionException(
                "TransactionContext Error: Failed to commit: Could not write file "
                '"h.duckdb.wal": No space left on device'
            )
        return real_load(connection, tables)

    monkeypatch.setattr(store, "load", filling)
    monkeypatch.setattr(importer, "RANGE_BYTES", 3000)  # the razz file in 6 parts
    monkeypatch.setattr(importer, "COMMIT_HANDS", 1)  # each committed alone
    db = tmp_path / "h.duckdb"
    with pytest.raises(ImportFailed, match="no space left on the disk; free some space") as failed:
        import_paths([str(RAZZ), *SAMPLES], db, workers=1)
    assert failed.value.summary.new_hands == _hands(db) > 0  # 3 parts of the razz file
    calls.clear()
    other = tmp_path / "other.duckdb"
    result = runner.invoke(app, ["import", "--workers", "1", "--db", str(other), str(RAZZ)])
    _one_line_error(result, 4, "no space left on the disk")
    assert f"import stopped; before, into {other}: 1 file (0 unchanged), " in result.output
    assert f" hands ({_hands(other)} new, " in result.output and _hands(other) > 0
    monkeypatch.setattr(store, "load", real_load)
    result = runner.invoke(app, ["import", "--workers", "1", "--db", str(db), *SAMPLES])
    assert result.exit_code == 0  # room again: the import goes on
    assert _hands(db) == HANDS_IN_SAMPLES


# 3. The database cannot be used: one line, exit 4, for import and report alike.


def _garbage(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.duckdb"
    path.write_bytes(b"this is not a database\n" * 100)
    return path


def _truncated(tmp_path: Path) -> Path:
    whole = tmp_path / "whole.duckdb"
    import_paths(SAMPLES, whole, workers=1)
    path = tmp_path / "truncated.duckdb"
    path.write_bytes(whole.read_bytes()[:20_000])
    return path


def _under_a_file(tmp_path: Path) -> Path:
    (tmp_path / "a-file").write_text("x")
    return tmp_path / "a-file" / "h.duckdb"


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (_garbage, ["garbage.duckdb is not a handlog database", "move this one away"]),
        (_truncated, ["truncated.duckdb is damaged", "restore it from a copy"]),
        (lambda tmp: tmp / "no" / "such" / "h.duckdb", ["the folder", "does not exist"]),
        (lambda tmp: tmp, ["is a folder, not a database file"]),
        (_under_a_file, ["a-file is a file, not a folder"]),
    ],
    ids=["garbage", "truncated", "missing-folder", "a-folder", "under-a-file"],
)
def test_a_database_that_cannot_be_used_is_one_line_exit_4(tmp_path, make, words):
    db = make(tmp_path)
    imported = runner.invoke(app, ["import", "--db", str(db), str(RAZZ)])
    _one_line_error(imported, 4, str(db), *words)
    assert not lock_path(db).exists()  # nothing left beside what could not be opened
    if db.exists():  # a report of a database that is not there says so (exit 2)
        reported = runner.invoke(app, ["report", "--db", str(db), "--out", str(tmp_path / "r")])
        _one_line_error(reported, 4, str(db), *words)


def test_no_space_left_on_the_device_is_one_line_exit_4(tmp_path):
    """The write-ahead log is a link to /dev/full: every write to it fails as on a full
    disk."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES[:1], db, workers=1)
    (tmp_path / "h.duckdb.wal").symlink_to("/dev/full")
    result = runner.invoke(app, ["import", "--db", str(db), *SAMPLES])
    _one_line_error(result, 4, str(db), "no space left on the disk", "free some space")


def _read_only_run(
    folder: Path, command: list[str], files_writable: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run handlog with `folder` read-only (and its files, unless `files_writable`): by
    permissions, or (as root, who writes anywhere) by read-only bind mounts in a mount
    namespace of its own."""
    handlog = [sys.executable, "-m", "handlog.cli", *command]
    if os.geteuid() != 0:
        folder.chmod(0o555)
        for child in folder.iterdir():
            child.chmod(0o644 if files_writable else 0o444)
        try:
            return subprocess.run(handlog, capture_output=True, text=True, timeout=120)
        finally:
            folder.chmod(0o755)
    if shutil.which("unshare") is None:
        pytest.skip("root without unshare: no way to make a folder read-only")
    script = f'mount --bind "{folder}" "{folder}" && mount -o remount,ro,bind "{folder}"'
    if files_writable:
        for child in folder.iterdir():
            script += f' && mount --bind "{child}" "{child}"'
            script += f' && mount -o remount,rw,bind "{child}"'
    script += ' && exec "$@"'

    run = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", *handlog],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if "mount" in run.stderr and "handlog" not in run.stderr:
        pytest.skip(f"cannot mount here: {run.stderr.strip()}")
    return run


def test_a_read_only_database_or_folder_is_one_line_exit_4_and_reports_still_read_it(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "h.duckdb"
    import_paths(SAMPLES[:2], db, workers=1)
    for command, code, files_writable in (
        (["import", "--db", str(db), *SAMPLES], 4, False),
        # The folder only: the write-ahead log cannot be made beside a writable database
        # (the last line was "cannot rollback - no transaction is active").
        (["import", "--db", str(db), *SAMPLES], 4, True),
        (["import", "--db", str(folder / "new.duckdb"), *SAMPLES], 4, False),
        (["report", "--db", str(db), "--out", str(tmp_path / "report")], 0, False),
    ):
        run = _read_only_run(folder, command, files_writable)
        assert run.returncode == code, run.stderr
        assert "Traceback" not in run.stderr and "rollback" not in run.stderr
        if code:
            lines = run.stderr.strip().splitlines()
            assert len(lines) == 1, run.stderr
            assert "(read-only file system)" in lines[0] or "(permission denied)" in lines[0]
            assert "give --db a file in a folder you can write" in lines[0]


# 2. Workers die with the import.


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start(
    db: Path, files: list[Path], range_bytes: int = 200_000, commit_hands: int = 300
) -> subprocess.Popen[bytes]:
    environment = dict(
        os.environ, HANDLOG_RANGE_BYTES=str(range_bytes), HANDLOG_COMMIT_HANDS=str(commit_hands)
    )
    return subprocess.Popen(
        [sys.executable, "-m", "handlog.cli", "import", "-q", "--workers", "2", "--db", str(db)]
        + [str(f) for f in files],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=environment,
    )


def _wait_for_workers(process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)


def _wait_for_commits(process: subprocess.Popen[bytes], db: Path, commits: int) -> None:
    """Until the import's write-ahead log has grown `commits` times (a commit may grow it
    more than once: at least that many writes), or the import ends."""
    wal = db.with_name(db.name + ".wal")
    last, grown = 0, 0
    deadline = time.monotonic() + 60
    while grown < commits and process.poll() is None and time.monotonic() < deadline:
        size = wal.stat().st_size if wal.exists() else 0
        if size > last and last > 0:
            grown += 1
        last = max(size, last)
        time.sleep(0.005)


def _kill_and_check_no_worker_survives(process: subprocess.Popen[bytes]) -> int:
    """`kill -9` the import; its workers must follow within seconds. Returns how many
    workers it had."""
    workers = _children(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "a worker outlived the import"
    return len(workers)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_workers_die_when_the_import_is_killed(tmp_path):
    log = _replicated(tmp_path, 1500, "big.txt", 1)
    process = _start(tmp_path / "h.duckdb", [log])
    _wait_for_workers(process)
    time.sleep(0.1)  # at work
    assert process.poll() is None, "the import ended before it could be killed"
    assert _kill_and_check_no_worker_survives(process) == 2


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_ends_an_import_in_one_line_with_exit_130(tmp_path):
    """Ctrl-C reaches the whole process group: the workers leave it to the import, which
    says in one line what became of the work (no traceback from any process)."""
    log = _replicated(tmp_path, 1500, "big.txt", 4)
    db = tmp_path / "h.duckdb"
    process = subprocess.Popen(
        [sys.executable, "-m", "handlog.cli", "import", "-q", "--db", str(db), str(log)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # Many commits: a second or more.
        env=dict(os.environ, HANDLOG_RANGE_BYTES="40000", HANDLOG_COMMIT_HANDS="200"),
    )
    _wait_for_commits(process, db, 1)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert err.strip() == (
        "handlog: interrupted: what was stored is kept; run the import again to go on from there"
    )
    connection = duckdb.connect(str(db), read_only=True)
    stored, recorded = connection.execute(
        "SELECT (SELECT count(*) FROM hands), (SELECT coalesce(sum(new_hands), 0) FROM imports)"
    ).fetchone()
    connection.close()
    assert stored == recorded < 1500  # whole ranges, each with its imports row


def test_an_answered_ctrl_c_exits_130_whatever_happens_at_shutdown():
    """Once a command has answered Ctrl-C (its line written, exit 130 chosen), the process
    ends with 130 at once: nothing at interpreter shutdown (here an exit hook that would end
    it otherwise; in CI once a second SIGINT that killed it, exit -2) changes that."""
    script = (
        "import atexit, os, sys, typer\n"
        "import handlog.cli as cli\n"
        "atexit.register(lambda: os._exit(3))\n"
        "def interrupted():\n"
        "    print('handlog: interrupted', file=sys.stderr)\n"
        "    raise SystemExit(cli.EXIT_INTERRUPTED)\n"
        "cli.app = interrupted\n"
        "cli.main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (130, "handlog: interrupted\n")


def test_ctrl_c_caught_by_duckdb_while_it_reads_arrow_data_is_still_an_interrupt(
    tmp_path, monkeypatch
):
    """Ctrl-C landing while DuckDB reads a batch's Arrow data reaches us as a DuckDB input
    error naming the KeyboardInterrupt (seen once in CI): that is Ctrl-C, exit 130, not a
    file that could not be stored."""

    def interrupted(connection, tables):  # type: ignore[no-untyped-def]
        raise duckdb.InvalidInputException(
            "Invalid Input Error: arrow_scan: get_next failed(): Invalid: Reading "
            "Python's Arrow data failed: KeyboardInterrupt: "
        )

    monkeypatch.setattr(store, "load", interrupted)
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", "--workers", "1", "--db", str(db), str(RAZZ)])
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.output and "could not be stored" not in result.output


_REAL_READ = ingest._read_into


def _dying_read(batch, path, *rest, **named):  # type: ignore[no-untyped-def]
    """A worker's reading of a file that kills its worker on a file named "killer"."""
    if "killer" in path:
        os.kill(os.getpid(), signal.SIGKILL)
    return _REAL_READ(batch, path, *rest, **named)


def test_a_worker_killed_on_a_file_fails_that_file_only(tmp_path, monkeypatch):
    """A worker that dies (the kernel's out-of-memory killer, say) broke the whole pool and
    ended the import with a traceback. Now the file it died on is named, and every other
    file (those whose jobs were lost with the pool too) is imported."""
    monkeypatch.setattr(ingest, "_read_into", _dying_read)  # the workers are forked after this
    killer = tmp_path / "killer.txt"
    shutil.copy(SAMPLES[1], killer)
    db = tmp_path / "h.duckdb"
    files = [SAMPLES[0], str(killer), *SAMPLES[2:]]
    result = runner.invoke(app, ["import", "--workers", "2", "--db", str(db), *files])
    _one_line_error(result, 1, f"{killer}: a worker process died reading it")
    assert _hands(db) == HANDS_IN_SAMPLES - 11  # all but the 11 hands of SAMPLES[1]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ten_imports_killed_at_random_then_completed_store_each_hand_once(tmp_path):
    """The stress test: `kill -9` at random moments, ten times; then the import completes.
    Every hand once, nets summing to -rake in every hand, no process left behind. Ranges
    of some 18 hands make many commits to fall between or inside; when a run ends before
    its kill (a fast machine), a file of new hands comes in for the next runs."""
    logs = [_replicated(tmp_path, 400, f"big{n}.txt", n) for n in range(2)]
    db = tmp_path / "h.duckdb"
    chance = random.Random(18)
    kills = midway = 0
    for _ in range(40):
        process = _start(db, logs, range_bytes=40_000)
        # A moment at random: in the start-up, or a few writes in, and a little after.
        commits = chance.randint(0, 4)
        if commits == 0:
            time.sleep(chance.uniform(0.0, 1.0))
        else:
            _wait_for_commits(process, db, commits)
        time.sleep(chance.uniform(0.0, 0.05))
        if process.poll() is not None:  # finished first: more hands for the next runs
            logs.append(_replicated(tmp_path, 400, f"big{len(logs)}.txt", len(logs)))
            continue
        _kill_and_check_no_worker_survives(process)
        kills += 1
        if db.exists() and 0 < _hands(db) < 400 * len(logs):
            midway += 1
        if kills == 10:
            break
    assert kills == 10 and midway > 0
    result = runner.invoke(app, ["import", "-q", "--db", str(db), *map(str, logs)])
    assert result.exit_code == 0, result.output
    connection = duckdb.connect(str(db), read_only=True)
    stored, distinct = connection.execute(
        "SELECT count(*), count(DISTINCT (site, hand_id)) FROM hands"
    ).fetchone()
    off = connection.execute("""
        SELECT count(*) FROM (SELECT h.hand_id FROM hands h JOIN hand_players p
        USING (site, hand_id) GROUP BY h.site, h.hand_id, h.rake HAVING sum(p.net) != -h.rake)
        """).fetchone()[0]
    players = connection.execute(
        "SELECT count(*), count(DISTINCT (site, hand_id, seat)) FROM hand_players"
    ).fetchone()
    connection.close()
    assert stored == distinct == 400 * len(logs) and off == 0
    assert players[0] == players[1]  # no hand's players stored twice


# 5. Nothing skipped in silence.


def test_a_nested_zip_a_linked_folder_and_a_missing_path_are_named(tmp_path):
    """The folder of the issue: a 50 MB single-line file, a zip holding a good log and a
    zip inside it (read like any other: issue 25), a link to a folder of good logs, good logs, and a missing path given
    with them. Every good hand is imported; every other item is named on its own line."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "one.txt").write_bytes(b"x" * (50 << 20))
    shutil.copy(SAMPLES[1], folder)
    inner = tmp_path / "inner.zip"
    with zipfile.ZipFile(inner, "w") as opened:
        opened.write(str(RAZZ), RAZZ.name)
    with zipfile.ZipFile(folder / "outer.zip", "w", zipfile.ZIP_DEFLATED) as opened:
        opened.write(SAMPLES[2], Path(SAMPLES[2]).name)
        opened.write(inner, "old/inner.zip")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for sample in SAMPLES[3:5]:  # SAMPLES[5] is the razz file
        shutil.copy(sample, elsewhere)
    (folder / "linked").symlink_to(elsewhere, target_is_directory=True)
    (folder / "loop").symlink_to(folder, target_is_directory=True)  # read once, not forever
    missing = tmp_path / "not-there.txt"
    db = tmp_path / "h.duckdb"
    result = runner.invoke(
        app, ["import", "--workers", "2", "--db", str(db), str(folder), str(missing), SAMPLES[0]]
    )
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("handlog: ")]
    assert errors == [f"handlog: {missing}: no such file, folder or match"]
    assert f"{folder / 'one.txt'}: 0 hands (0 new, 0 flagged illegal" in result.output
    assert "1 unparsed" in result.output and "1 path not imported (named above)" in result.output
    # Every hand of the samples, the 9 razz hands read inside the nested zip.
    assert f"{folder / 'outer.zip'}!/old/inner.zip!/{RAZZ.name}: 9 hands (9 new" in result.output
    assert _hands(db) == HANDS_IN_SAMPLES
    for name in Path(SAMPLES[3]).name, Path(SAMPLES[4]).name:
        assert f"{folder / 'linked' / name}: " in result.output  # read through the link


def test_archives_inside_archives_are_read_with_the_same_limits_down_to_a_depth(tmp_path):
    """A zip in a zip in a zip is read; a bomb inside an inner zip is refused as at the top;
    an archive nested deeper than `MAX_ARCHIVE_DEPTH` is named, not read."""
    from handlog.parse.reader import MAX_ARCHIVE_DEPTH

    assert MAX_ARCHIVE_DEPTH == 3
    level = tmp_path / "level1.zip"
    with zipfile.ZipFile(level, "w", zipfile.ZIP_DEFLATED) as opened:
        opened.write(RAZZ, "razz.txt")
        opened.writestr("bomb.txt", b"\0" * (2 << 20))  # compresses ~1,000 to 1
    for depth in range(2, 5):
        outer = tmp_path / f"level{depth}.zip"
        with zipfile.ZipFile(outer, "w", zipfile.ZIP_DEFLATED) as opened:
            opened.write(level, f"in/level{depth - 1}.zip")
            if depth == 2:
                opened.write(SAMPLES[1], "b.txt")
        level = outer
    three, four = tmp_path / "level3.zip", tmp_path / "level4.zip"
    inner = f"{three}!/in/level2.zip!/in/level1.zip!/"
    result = runner.invoke(app, ["import", "--db", str(tmp_path / "h.duckdb"), str(three)])
    assert result.exit_code == 1, result.output
    assert f"{inner}razz.txt: 9 hands (9 new" in result.output
    assert f"{three}!/in/level2.zip!/b.txt: 11 hands (11 new" in result.output
    assert f"handlog: {inner}bomb.txt: refused: compressed " in result.output
    assert _hands(tmp_path / "h.duckdb") == 20
    result = runner.invoke(app, ["parse", str(four)])
    assert (
        f"handlog: {four}!/in/level3.zip!/in/level2.zip!/in/level1.zip: not read: an archive "
        "inside 3 archives"
    ) in result.output
    assert f"{four}!/in/level3.zip!/in/level2.zip!/b.txt: 11 hands" in result.output


def test_a_damaged_archive_entry_is_named_and_the_next_entry_read(tmp_path):
    """Deflate data overwritten with zeros: reading the entry used to end every command in
    a zlib traceback."""
    whole = tmp_path / "whole.zip"
    with zipfile.ZipFile(whole, "w", zipfile.ZIP_DEFLATED) as opened:
        opened.write(RAZZ, "a.txt")
        opened.write(SAMPLES[1], "b.txt")
    data = bytearray(whole.read_bytes())
    at = data.index(b"a.txt") + 5 + 200  # inside the first entry's compressed data
    data[at : at + 50] = bytes(50)
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes(bytes(data))
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", "--db", str(db), str(damaged)])
    _one_line_error(result, 1, f"{damaged}!/a.txt: cannot read: a damaged archive entry")
    assert _hands(db) == 11  # b.txt's
    for command in ("parse", "check"):
        result = runner.invoke(app, [command, str(damaged)])
        assert result.exit_code == 1, result.output
        assert isinstance(result.exception, SystemExit), result.exception
        assert f"{damaged}!/a.txt:0: cannot read the file: a damaged archive entry" in result.output
        assert f"{damaged}!/b.txt: 11 hands" in result.output


def test_files_of_other_kinds_are_named_in_a_note_that_changes_no_exit_code(tmp_path):
    folder = tmp_path / "logs"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(RAZZ, folder)
    (folder / "notes.md").write_text("x")
    (folder / "sub" / "stats.hp").write_text("x")
    with zipfile.ZipFile(folder / "export.zip", "w") as opened:
        opened.write(SAMPLES[1], "a.txt")
        opened.writestr("readme.pdf", "x")
    result = runner.invoke(app, ["parse", str(folder)])
    assert result.exit_code == 0, result.output
    from handlog.parse.reader import ARCHIVE_SUFFIXES, HAND_FILE_SUFFIXES

    kinds = f"(not {', '.join((*HAND_FILE_SUFFIXES, *ARCHIVE_SUFFIXES))})"
    assert (
        f"handlog: note: {folder / 'export.zip'}: 1 file of other kinds left out {kinds}: "
        "readme.pdf"
    ) in result.output
    assert (
        f"handlog: note: {folder}: 2 files of other kinds left out {kinds}: notes.md, sub/stats.hp"
    ) in result.output
    assert "total, 2 files: 20 hands" in result.output


def test_a_missing_path_with_good_ones_reads_the_good_ones_in_every_command(tmp_path):
    missing = str(tmp_path / "nope.txt")
    for command in ("parse", "check"):
        result = runner.invoke(app, [command, missing, str(RAZZ)])
        assert result.exit_code == 1, result.output
        assert f"handlog: {missing}: no such file, folder or match" in result.output
        assert "1 path not read (named above)" in result.output
        assert "9 hands" in result.output
    if Path("/dev/zero").exists():  # endless: named, not read
        result = runner.invoke(app, ["parse", "/dev/zero", str(RAZZ)])
        assert result.exit_code == 1
        assert "handlog: /dev/zero: not read: a device, not a regular file" in result.output


# 6. A report while an import runs.


def test_a_report_runs_while_an_import_writes_the_database(tmp_path):
    """The import lets the report copy the database between two commits: the report sees
    whole hands only (each with its players, nets summing to -rake), and the import goes
    on to the end."""
    from handlog.snapshot import reading

    # Enough ranges (some 18 hands each, 50 hands to a transaction: 120 commits) that the
    # import is still writing when the first copy is read, even on a quiet machine (600
    # hands ended first under load, and 3,000 once in the full suite).
    HANDS = 6000

    log = _replicated(tmp_path, HANDS, "big.txt", 3)
    db = tmp_path / "h.duckdb"
    process = _start(db, [log], range_bytes=40_000, commit_hands=50)
    try:
        seen = 0
        deadline = time.monotonic() + 120
        while seen == 0 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
            if not db.exists():
                continue
            with reading(db) as connection:
                seen = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
                off = connection.execute("""
                    SELECT count(*) FROM (SELECT hand_id FROM hands JOIN hand_players
                    USING (site, hand_id) GROUP BY site, hand_id, rake
                    HAVING sum(net) != -rake)""").fetchone()[0]
                recorded = connection.execute(
                    "SELECT coalesce(sum(new_hands), 0) FROM imports"
                ).fetchone()[0]
            assert off == 0 and seen == recorded
        assert process.poll() is None, "the import ended before a report could run"
        # On a loaded machine the first read may come after the last commit, while the
        # import is still closing: whole hands all the same.
        assert 0 < seen <= HANDS
        result = runner.invoke(
            app, ["report", "--db", str(db), "--format", "json", "--out", str(tmp_path / "r")]
        )
        assert result.exit_code == 0, result.output
        # export and show read a copy the same way (they said "busy", exit 1).
        result = runner.invoke(app, ["export", "--db", str(db), "--out", str(tmp_path / "e")])
        assert result.exit_code == 0, result.output
        result = runner.invoke(app, ["show", "9030000001", "--db", str(db)])
        assert "busy" not in result.output and result.exit_code in (0, 1), result.output
        assert process.wait(timeout=120) == 0, process.stderr.read() if process.stderr else ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert _hands(db) == HANDS


def test_a_database_held_by_another_program_is_busy_exit_3_for_every_command(tmp_path):
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES[:1], db, workers=1)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('open', flush=True); "
            "sys.stdin.read()",
            str(db),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"open\n"
        for command in (
            ["import", *SAMPLES],
            ["report", "--out", str(tmp_path / "r")],
            ["export", "--out", str(tmp_path / "e")],
            ["show", "35874566077"],
        ):
            result = runner.invoke(app, [*command, "--db", str(db)])
            _one_line_error(result, 3, str(db), "is busy")
    finally:
        holder.kill()
        holder.wait()


# 4. One exit-code table for every command.


def _bomb(tmp_path: Path) -> Path:
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as opened:
        opened.writestr("huge.txt", "A" * 20_000_000)
    return bomb


def _flagged(tmp_path: Path) -> Path:
    text = RAZZ.read_text(encoding="utf-8")
    bad = tmp_path / "flagged.txt"
    bad.write_text(text.replace("Hero: folds", "Hero: checks", 1), encoding="utf-8")
    return bad


def _unreadable_hand(tmp_path: Path) -> Path:
    text = RAZZ.read_text(encoding="utf-8")
    bad = tmp_path / "unreadable.txt"
    bad.write_text(text.replace("Dealt to Hero [Kd Ad 7d]", "Dealt to Hero [Kd Ad 7x]"))
    return bad


def test_exit_codes_of_parse_check_and_import(tmp_path):
    bomb, missing = str(_bomb(tmp_path)), str(tmp_path / "nope")
    flagged, unreadable = str(_flagged(tmp_path)), str(_unreadable_hand(tmp_path))
    good = str(RAZZ)
    cases = {
        "parse": [([good], 0), ([unreadable], 1), ([good, bomb], 1), ([bomb], 1), ([missing], 2)],
        "check": [([good], 0), ([flagged], 1), ([good, bomb], 1), ([bomb], 1), ([missing], 2)],
    }
    for command, runs in cases.items():
        for arguments, code in runs:
            result = runner.invoke(app, [command, *arguments])
            assert result.exit_code == code, (command, arguments, result.output)
    assert runner.invoke(app, ["check", "--profile", "moon", good]).exit_code == 2
    db = str(tmp_path / "h.duckdb")
    for arguments, code in (
        ([good, flagged, unreadable], 0),  # findings are stored: the import did its job
        ([good, bomb], 1),
        ([bomb], 1),
        ([missing], 2),
        ([good, "--db", str(_garbage(tmp_path))], 4),
    ):
        result = runner.invoke(app, ["import", "--db", db, *arguments])
        assert result.exit_code == code, (arguments, result.output)


def test_exit_codes_of_report_simulate_and_bench(tmp_path, monkeypatch):
    db = tmp_path / "h.duckdb"
    import_paths([str(RAZZ)], db, workers=1)
    out = str(tmp_path / "r")
    report = ["report", "--db", str(db), "--out", out, "--format", "json"]
    assert runner.invoke(app, report).exit_code == 0
    assert runner.invoke(app, [*report, "--player", "Nobody"]).exit_code == 1
    assert runner.invoke(app, [*report, "--format", "pdf"]).exit_code == 2
    assert runner.invoke(app, ["report", "--db", str(tmp_path / "none.duckdb")]).exit_code == 2
    assert runner.invoke(app, ["report", "--db", str(_garbage(tmp_path))]).exit_code == 4
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    result = runner.invoke(app, [*report[:-4], "--out", str(a_file / "r")])
    _one_line_error(result, 4, "cannot write the report into")

    simulate = ["simulate", "--game", "razz", "--hands", "5"]
    assert runner.invoke(app, [*simulate, "--out", str(tmp_path / "s.txt")]).exit_code == 0
    too_many = runner.invoke(app, [*simulate, "--out", str(tmp_path / "s.txt"), "--players", "9"])
    assert too_many.exit_code == 2
    holdem = ["simulate", "--game", "holdem", "--hands", "5", "--out", str(tmp_path / "h.txt")]
    assert runner.invoke(app, holdem).exit_code == 2
    result = runner.invoke(app, [*simulate, "--out", str(a_file / "s.txt")])
    _one_line_error(result, 4, "cannot write")

    monkeypatch.chdir(tmp_path)
    # --variant-hands 0: the replay of every game in every structure (2,000 hands each by
    # default) took nearly all of this test's time, and shows no exit code.
    bench = ["bench", "--hands", "6", "--runs", "1", "--no-import", "--no-pokerkit"]
    bench += ["--variant-hands", "0"]
    assert runner.invoke(app, [*bench, "--out", str(tmp_path / "b.json")]).exit_code == 0
    assert runner.invoke(app, [*bench, "--hands", "0"]).exit_code == 2
    result = runner.invoke(app, [*bench, "--out", str(a_file / "b.json")])
    _one_line_error(result, 4, "cannot write")


def test_the_exit_code_table_is_in_the_help_and_the_readme():
    from handlog.cli import EXIT_CODES

    from .conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = runner.invoke(app, ["--help"]).output
    for code in range(5):
        assert f"\n  {code}  " in EXIT_CODES
        assert f"| {code} |" in readme
    assert "Exit codes (every command):" in shown and "the database is busy" in shown


def test_a_long_garbage_line_before_the_hands_loses_no_hand(tmp_path):
    # The format is found from the start of each of the first lines, never a whole line held:
    # megabytes of garbage first are one error, and every hand after them is read.
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8")
    path = tmp_path / "garbage-then-hands.txt"
    path.write_text("x" * (5 << 20) + "\n\n" + source, encoding="utf-8")
    items = list(parse_file(path))
    hands = [item for item in items if isinstance(item, Hand)]
    errors = [item for item in items if isinstance(item, ParseError)]
    assert len(hands) == 9 and len(errors) == 1 and errors[0].line == 1


# 7. Issue 27: what fuzzing the commands found. Every reproducer answers in one line with
# the exit code of the table (the subprocesses' timeouts guard against hangs only).

FLAGGED_HAND = "35874566077"  # the razz hand `_flagged` makes illegal


def _run(*arguments: str, env: dict[str, str] | None = None, **options):  # type: ignore[no-untyped-def]
    """handlog in a process of its own (standard streams, encodings, signals as a user's)."""
    encoding = (env or {}).get("PYTHONIOENCODING", "utf-8")
    return subprocess.run(
        [sys.executable, "-m", "handlog.cli", *arguments],
        capture_output="stdout" not in options,
        encoding=encoding,
        errors="replace",
        timeout=120,
        env=None if env is None else {**os.environ, **env},
        **options,
    )


def _special_files(folder: Path) -> list[Path]:
    """A named pipe nobody writes and a link to /dev/zero, named as hand histories: reading
    either would never end."""
    if not hasattr(os, "mkfifo") or not Path("/dev/zero").exists():
        pytest.skip("no named pipes or /dev/zero here")
    fifo = folder / "pipe.txt"
    os.mkfifo(fifo)
    zero = folder / "zero.txt"
    zero.symlink_to("/dev/zero")
    return [fifo, zero]


def test_a_named_pipe_or_a_device_in_a_folder_is_named_not_read(tmp_path):
    """They hung `parse` and `import` inside a folder (given directly, they were refused)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(RAZZ, folder)
    fifo, zero = _special_files(folder)
    expected = [
        f"handlog: {fifo}: not read: a named pipe (FIFO), not a regular file",
        f"handlog: {zero}: not read: a device, not a regular file",
    ]
    for command in (["parse"], ["import", "--db", str(tmp_path / "h.duckdb")]):  # check: as parse
        run = _run(*command, str(folder))
        assert run.returncode == 1, run.stderr
        assert run.stderr.splitlines() == expected
        assert "2 paths not" in run.stdout and "9 hands" in run.stdout
    # Matched by a pattern, or given directly: the same.
    run = _run("parse", str(folder / "*.txt"), str(fifo))
    assert run.returncode == 1 and run.stderr.splitlines() == [*expected, expected[0]], run.stderr


def test_a_link_entry_in_an_archive_is_named_not_read(tmp_path):
    import stat

    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as opened:
        opened.write(RAZZ, "razz.txt")
        link = zipfile.ZipInfo("zero.txt")
        link.create_system = 3  # Unix, which records the entry's mode
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        opened.writestr(link, "/dev/zero")
    result = runner.invoke(app, ["parse", str(archive)])
    _one_line_error(result, 1, f"{archive}!/zero.txt: not read: a link in the archive")
    assert "9 hands" in result.output


def test_an_archive_s_directory_is_read_once_however_many_entries(tmp_path, monkeypatch):
    """Reading a zip's directory takes time in proportion to its entries, and it was read
    again for every entry opened (four times each): 3,000 one-byte entries took 111 s to
    import, 1,500 took 26 s. Now each archive's directory is read once."""
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as opened:
        for number in range(300):
            opened.writestr(f"e{number:04d}.txt", "x")
        opened.write(RAZZ, "razz.txt")
    reads = []
    real = zipfile.ZipFile._RealGetContents  # type: ignore[attr-defined]

    def counted(self):  # type: ignore[no-untyped-def]
        reads.append(self.filename)
        return real(self)

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", counted)
    result = runner.invoke(app, ["parse", str(archive)])
    assert result.exit_code == 1 and "total, 301 files: 9 hands" in result.output
    assert len(reads) == 1, len(reads)
    small = tmp_path / "small.zip"
    with zipfile.ZipFile(small, "w") as opened:
        for number in range(5):
            opened.writestr(f"e{number}.txt", "x")
        opened.write(RAZZ, "razz.txt")
    reads.clear()
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", "--workers", "1", "--db", str(db), str(small)])
    assert result.exit_code == 0 and _hands(db) == 9, result.output
    assert len(reads) == 1, len(reads)


def test_two_entries_of_one_name_in_an_archive_are_both_read(tmp_path):
    """The second hid the first: its hands were lost, with exit 0."""
    archive = tmp_path / "twice.zip"
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(archive, "w") as opened:
        opened.write(RAZZ, "hands.txt")
        opened.write(SAMPLES[1], "hands.txt")
    db = tmp_path / "h.duckdb"
    result = runner.invoke(app, ["import", "--db", str(db), str(archive)])
    assert result.exit_code == 0, result.output
    assert (
        f"handlog: note: {archive}: 1 entry has the name of an earlier entry, each read under "
        "a name of its own: hands.txt[2]"
    ) in result.output
    assert f"{archive}!/hands.txt: 9 hands (9 new, " in result.output
    assert f"{archive}!/hands.txt[2]: 11 hands (11 new, " in result.output
    assert _hands(db) == 20
    again = runner.invoke(app, ["import", "-q", "--db", str(db), str(archive)])
    assert "2 files (2 unchanged), 0 hands (0 new, " in again.output


def _whole(tmp_path: Path) -> Path:
    """A database of the samples and a flagged hand (`show` reads its evidence)."""
    whole = tmp_path / "whole.duckdb"
    import_paths([str(_flagged(tmp_path)), *SAMPLES], whole, workers=1)
    return whole


def _damaged_blocks(tmp_path: Path) -> Path:
    """Bytes changed inside every block: each block's checksum no longer matches."""
    whole = _whole(tmp_path)
    data = bytearray(whole.read_bytes())
    for block in range(3 * 4096, len(data), 256 * 1024):  # after DuckDB's three headers
        data[block + 1000 : block + 1016] = b"\xff" * 16
    path = tmp_path / "blocks.duckdb"
    path.write_bytes(bytes(data))
    return path


def _cut_in_half(tmp_path: Path) -> Path:
    whole = _whole(tmp_path)
    path = tmp_path / "half.duckdb"
    path.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    return path


def _random_bytes(tmp_path: Path) -> Path:
    path = tmp_path / "random.duckdb"
    path.write_bytes(random.Random(27).randbytes(300_000))
    return path


def _foreign(tmp_path: Path) -> Path:
    path = tmp_path / "foreign.duckdb"
    connection = duckdb.connect(str(path))
    connection.execute("CREATE TABLE hands (x INTEGER); INSERT INTO hands VALUES (1)")
    connection.execute("CREATE TABLE meta (key VARCHAR, value VARCHAR)")
    connection.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    connection.close()
    return path


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (_random_bytes, ["is not a handlog database"]),
        (_cut_in_half, ["is damaged: it is shorter than its own contents say"]),
        (_damaged_blocks, ["is damaged: part of it is not what was written there"]),
        (_foreign, ["is not a handlog database (a DuckDB database with tables of another"]),
    ],
    ids=["random-bytes", "cut-in-half", "bad-checksums", "foreign-schema"],
)
def test_a_damaged_database_is_one_line_exit_4_in_every_command(tmp_path, make, words):
    """export, show and report ended in tracebacks on these (17 of 40 runs); import on a
    DuckDB file of another program added handlog's tables to it."""
    db = make(tmp_path)
    before = db.read_bytes()
    for command in (
        ["export", "--format", "csv", "--out", str(tmp_path / "e")],
        ["export", "--format", "phh", "--out", str(tmp_path / "p")],
        ["show", FLAGGED_HAND],
        ["report", "--format", "json", "--out", str(tmp_path / "r")],
        ["import", str(RAZZ)],
    ):
        result = runner.invoke(app, [*command, "--db", str(db)])
        _one_line_error(result, 4, str(db), *words)
    assert db.read_bytes() == before  # nothing written into it


def test_a_database_that_cannot_be_read_says_so_not_cannot_write(tmp_path, monkeypatch):
    """A report on a database it may not read said "cannot write" it."""
    db = tmp_path / "h.duckdb"
    import_paths([str(RAZZ)], db, workers=1)
    real_connect = duckdb.connect

    def refused(database, read_only=False, **options):  # type: ignore[no-untyped-def]
        if read_only:
            raise duckdb.IOException(f'IO Error: Cannot open file "{database}": Permission denied')
        return real_connect(database, read_only=read_only, **options)

    monkeypatch.setattr(duckdb, "connect", refused)
    for command in (
        ["report", "--out", str(tmp_path / "r")],
        ["export", "--out", str(tmp_path / "e")],
        ["show", FLAGGED_HAND],
    ):
        result = runner.invoke(app, [*command, "--db", str(db)])
        line = _one_line_error(result, 4, f"cannot read {db} (permission denied)")
        assert "write" not in line
    monkeypatch.undo()
    # For real: a file whose mode lets nobody read it (root, who reads anything, run
    # without the capabilities that let it).
    command = ["report", "--db", str(db), "--out", str(tmp_path / "r")]
    prefix = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root without setpriv: no way to be refused a file")
        capabilities = "-dac_override,-dac_read_search"
        prefix = ["setpriv", f"--inh-caps={capabilities}", f"--bounding-set={capabilities}"]
    db.chmod(0)
    try:
        run = subprocess.run(
            [*prefix, sys.executable, "-m", "handlog.cli", *command],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        db.chmod(0o644)
    assert run.returncode == 4, run.stderr
    assert run.stderr.splitlines() == [
        f"handlog: cannot read {db} (permission denied): fix the permissions of the file and "
        "its folder, or give --db another file"
    ]


def test_export_to_a_place_it_cannot_write_is_one_line_exit_4(tmp_path):
    db = tmp_path / "h.duckdb"
    import_paths([str(_flagged(tmp_path))], db, workers=1)
    (tmp_path / "a-file").write_text("x")
    for fmt in ("csv", "parquet", "phh"):
        out = tmp_path / "a-file" / fmt
        result = runner.invoke(app, ["export", "--db", str(db), "-f", fmt, "--out", str(out)])
        _one_line_error(result, 4, "cannot write", "a file stands where a folder should")
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(db, folder / "h.duckdb")
    run = _read_only_run(
        folder, ["export", "--db", str(folder / "h.duckdb"), "--out", str(folder / "e")]
    )
    assert run.returncode == 4, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write" in lines[0], run.stderr
    assert "(read-only file system)" in lines[0] or "(permission denied)" in lines[0]


def test_export_to_a_full_disk_is_one_line_exit_4(tmp_path):
    """A file system of one page (tmpfs, in a mount namespace of its own): full part way."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to mount a small file system")
    db = tmp_path / "h.duckdb"
    import_paths(SAMPLES, db, workers=1)
    small = tmp_path / "small"
    small.mkdir()
    handlog = [sys.executable, "-m", "handlog.cli"]
    for fmt in ("csv", "phh"):
        command = [*handlog, "export", "--db", str(db), "-f", fmt, "--out", f"{small}/{fmt}"]
        run = subprocess.run(
            [
                "unshare",
                "-m",
                "sh",
                "-c",
                f'mount -t tmpfs -o size=4k tmpfs "{small}" && exec "$@"',
                "sh",
                *command,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if "mount" in run.stderr and "handlog" not in run.stderr:
            pytest.skip(f"cannot mount here: {run.stderr.strip()}")
        assert run.returncode == 4, run.stderr
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and "no space left on the disk" in lines[0], run.stderr


def test_an_output_that_cannot_be_written_is_one_line_exit_4(tmp_path):
    """`handlog parse x.txt > /dev/full` ended in a traceback; so did a closed pipe."""
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            run = _run("parse", str(RAZZ), stdout=full, stderr=subprocess.PIPE)
        assert run.returncode == 4
        assert run.stderr.splitlines() == [
            "handlog: cannot write the output: no space left on the disk; free some space"
        ]


@pytest.mark.skipif(shutil.which("head") is None, reason="no head(1) on this machine")
def test_a_reader_that_stops_stops_handlog_quietly(tmp_path):
    """`handlog check DIR | head -1` said "cannot write the output" and exited 4: like cat or
    grep it now stops without a word, with 141 (128 + SIGPIPE) where the output was cut,
    through a real pipe into head. A command whose whole output fits the pipe may end
    before head does: 0 then, never a line on standard error. (`report` ends on the same
    path, `_Commands.invoke`; left out for its time.)"""
    big = replicate(SAMPLE_LOGS, 1_000, tmp_path / "logs")  # more than a pipe holds
    db = tmp_path / "h.duckdb"
    assert _run("import", "--quiet", "--db", str(db), str(RAZZ)).returncode == 0
    with duckdb.connect(str(db), read_only=True) as connection:
        (hand_id,) = connection.execute("SELECT hand_id FROM hands LIMIT 1").fetchone() or ("",)
    commands = {
        ("check", "--json", str(big)): (141,),
        ("parse", "--json", str(big)): (141,),
        ("show", hand_id, "--db", str(db)): (0, 141),
        ("export", "--format", "csv", "--out", str(tmp_path / "x"), "--db", str(db)): (0, 141),
    }
    for arguments, codes in commands.items():
        handlog = subprocess.Popen(
            [sys.executable, "-m", "handlog.cli", *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        head = subprocess.Popen(["head", "-1"], stdin=handlog.stdout, stdout=subprocess.PIPE)
        assert handlog.stdout is not None
        handlog.stdout.close()  # head alone reads the pipe: once it has gone, nobody does
        shown, _ = head.communicate(timeout=120)
        _, errors = handlog.communicate(timeout=120)
        assert handlog.returncode in codes, (arguments, handlog.returncode, errors)
        assert errors.decode() == "", (arguments, errors)
        assert b"Traceback" not in errors and b"handlog:" not in errors, errors
        assert shown.count(b"\n") == 1, (arguments, shown)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_that_cannot_show_a_name_gets_replacements(tmp_path, encoding):
    """PYTHONIOENCODING=ascii handlog check ... ended in a UnicodeEncodeError."""
    text = RAZZ.read_text(encoding="utf-8").replace("SilkZone", "Sîlk€Zone")
    log = tmp_path / "razz-Zoë-€.txt"
    log.write_text(text, encoding="utf-8")
    flagged = _flagged(tmp_path)
    environment = {"PYTHONIOENCODING": encoding}
    run = _run("check", str(log), str(flagged), env=environment)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "razz-Zo" in run.stdout and "1 flagged illegal" in run.stdout
    if encoding == "latin-1":
        return  # the rest as in ASCII
    run = _run("parse", "--json", str(log), env=environment)
    assert run.returncode == 0, run.stderr
    players = {
        seat["name"] for line in run.stdout.splitlines() for seat in json.loads(line)["seats"]
    }
    assert "Sîlk€Zone" in players  # escaped in the JSON (\u20ac), not replaced
    db = tmp_path / "h.duckdb"
    run = _run("import", "--db", str(db), str(log), env=environment)
    assert run.returncode == 0 and "razz-Zo" in run.stdout, run.stderr


def test_a_bug_is_one_line_exit_70_not_a_traceback(monkeypatch):
    import handlog.parse

    def broken(*arguments, **options):  # type: ignore[no-untyped-def]
        raise ValueError("something handlog did not foresee")

    monkeypatch.setattr(handlog.parse, "parse_file", broken)
    result = runner.invoke(app, ["parse", str(RAZZ)])
    line = _one_line_error(result, 70, "internal error, a bug in handlog: ValueError")
    assert "something handlog did not foresee" in line and "please report it" in line


def test_a_file_handlog_fails_on_fails_alone_in_an_import(tmp_path, monkeypatch):
    """An amount above 64 bits stopped the import (an OverflowError making Arrow tables),
    leaving the files after it unimported. Whatever handlog fails on in a file, that file
    is named and the others are stored."""
    real_arrow = store.Batch.arrow

    def overflowing(self):  # type: ignore[no-untyped-def]
        tables = real_arrow(self)
        hands = tables.get("hands")
        if hands is not None and "Razz" in hands.column("file")[0].as_py():
            raise OverflowError("Python int too large to convert to C long")
        return tables

    monkeypatch.setattr(store.Batch, "arrow", overflowing)
    db = tmp_path / "h.duckdb"
    ordered = [str(RAZZ), *(s for s in SAMPLES if s != str(RAZZ))]
    result = runner.invoke(app, ["import", "--workers", "1", "--db", str(db), *ordered])
    _one_line_error(result, 1, str(RAZZ), "handlog failed on it (OverflowError")
    assert _hands(db) == HANDS_IN_SAMPLES - 9


def test_show_and_export_exit_codes(tmp_path):
    db = tmp_path / "h.duckdb"
    import_paths([str(_flagged(tmp_path)), *SAMPLES], db, workers=1)
    none = str(tmp_path / "none.duckdb")
    assert runner.invoke(app, ["show", FLAGGED_HAND, "--db", str(db)]).exit_code == 0
    _one_line_error(runner.invoke(app, ["show", "123", "--db", str(db)]), 1, "no hand '123'")
    _one_line_error(runner.invoke(app, ["show", "123", "--db", none]), 2, "no database at")
    export = ["export", "--out", str(tmp_path / "e")]
    assert runner.invoke(app, [*export, "--db", str(db)]).exit_code == 0
    _one_line_error(runner.invoke(app, [*export, "--db", none]), 2, "no database at")
    # Every command that reads (or adds to) a database opens it one way: none there is 2.
    for command in (["report", "--out", str(tmp_path / "r")], ["ev"], ["alias", "list"]):
        _one_line_error(runner.invoke(app, [*command, "--db", none]), 2, "no database at")
    missing = str(tmp_path / "no-dataset")
    for command in (["show", "123"], ["check"], ["report", "--out", str(tmp_path / "r")]):
        _one_line_error(
            runner.invoke(app, [*command, "--dataset", missing]), 2, "no handlog dataset"
        )
    assert not (tmp_path / "r").exists()  # nothing written for a report of nothing


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_killed_report_s_work_folder_is_deleted_by_the_next(tmp_path, monkeypatch):
    """A report killed (kill -9) left its temporary working database behind; the next one
    deletes it (while one still in use is kept)."""
    import tempfile

    from handlog.snapshot import WORK_PREFIX, WorkFolder, remove_stale_work_folders

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    in_use = WorkFolder()
    child = os.fork()
    if child == 0:  # a report's process, killed while it works
        WorkFolder()
        os.kill(os.getpid(), signal.SIGKILL)
    os.waitpid(child, 0)
    folders = sorted(tmp_path.glob(f"{WORK_PREFIX}*"))
    assert len(folders) == 2
    assert remove_stale_work_folders() == 1
    assert list(tmp_path.glob(f"{WORK_PREFIX}*")) == [in_use.path]
    in_use.cleanup()
    assert not in_use.path.exists()
    # A report deletes its own when done, and what a killed one left.
    db = tmp_path / "h.duckdb"
    import_paths([str(RAZZ)], db, workers=1)
    (tmp_path / f"{WORK_PREFIX}killed").mkdir()
    (tmp_path / f"{WORK_PREFIX}killed" / ".owner.lock").write_text("")
    result = runner.invoke(
        app, ["report", "--db", str(db), "--out", str(tmp_path / "r"), "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    assert list(tmp_path.glob(f"{WORK_PREFIX}*")) == []


def test_a_folder_of_the_worst_reproducers_and_good_logs_imports_every_good_hand(tmp_path):
    """Issue 27's reproducers together with good logs, in one folder: every hand of the good
    logs is stored, every reproducer is named (or stored with its error), nothing hangs."""
    folder = tmp_path / "logs"
    (folder / "good").mkdir(parents=True)
    for sample in SAMPLES:
        shutil.copy(sample, folder / "good")
    _special_files(folder)  # a named pipe and a link to /dev/zero
    with zipfile.ZipFile(folder / "many.zip", "w") as opened:  # 200 one-byte entries
        for number in range(200):
            opened.writestr(f"e{number:03d}.txt", "x")
    # Two entries of one name, each holding hands found nowhere else (the first's were lost).
    first, second = _replicated(tmp_path, 10, "a.txt", 5), _replicated(tmp_path, 10, "b.txt", 6)
    with pytest.warns(UserWarning), zipfile.ZipFile(folder / "twice.zip", "w") as opened:
        opened.write(first, "same.txt")
        opened.write(second, "same.txt")
    razz = RAZZ.read_text(encoding="utf-8")
    huge = "$99999999999999999999999"
    (folder / "overflow.txt").write_text(
        razz.replace("SilkZone collected $0.39 from pot", f"SilkZone collected {huge} from pot")
    )
    (folder / "spaces.txt").write_text(razz.replace("\n", " " * 5000 + "\n", 1))
    (folder / "binary.txt").write_bytes(random.Random(1).randbytes(20_000))
    (folder / "empty.txt").write_bytes(b"")
    db = tmp_path / "h.duckdb"
    run = _run("import", "--db", str(db), str(folder))
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    # The reproducers' hands are the samples' (the same hand numbers): the samples' and the
    # archive's are all there is to store.
    assert _hands(db) == HANDS_IN_SAMPLES + 20
    for name in ("pipe.txt: not read", "zero.txt: not read"):
        assert name in run.stderr
    assert "twice.zip: 1 entry has the name of an earlier entry" in run.stderr
    # The amount above 64 bits: a parse error of its hand (the rest stored), or, where
    # amounts are not bounded where they are read, the file named as not stored.
    assert (
        "overflow.txt: not stored" in run.stderr
        or f"{folder / 'overflow.txt'}: 8 hands (" in run.stdout
    )
    assert f"{folder / 'spaces.txt'}: 9 hands" in run.stdout
