"""A worker's tables handed to the importing process through a file in shared memory
(`handlog.handoff`): read back equal, the file gone once read, the pipe used when the folder
is missing or full, and files of killed imports removed by the next."""

from __future__ import annotations

import errno
import os
import pickle
import subprocess
import sys
import types
from multiprocessing.reduction import ForkingPickler
from pathlib import Path

import pytest

from handlog import handoff
from handlog.importer import import_paths
from handlog.ingest import read_part

from .conftest import SAMPLE_LOGS

SAMPLE = SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt"


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    shared = tmp_path / "shm"
    shared.mkdir()
    monkeypatch.setattr(handoff, "FOLDER", str(shared))
    return shared


def _tables() -> dict:
    tables = read_part(str(SAMPLE), None, 1, None).tables
    assert tables["hands"].num_rows >= 1 and tables["actions"].num_rows > 10
    return tables


def test_tables_come_back_equal_through_a_file_that_is_gone_once_read(folder):
    tables = _tables()
    data = ForkingPickler.dumps(handoff.SharedTables(tables))  # as a worker's result goes
    (written,) = list(folder.iterdir())
    assert written.name.startswith(f"{handoff.PREFIX}{os.getppid()}-{os.getpid()}-")
    assert written.stat().st_mode & 0o777 == 0o600
    # The pickle itself holds no rows: they are in the file (the actions' alone are bigger).
    assert len(data) < 1_000 < written.stat().st_size
    back = pickle.loads(data)
    assert type(back) is dict and list(back) == list(tables)
    assert all(back[name].equals(tables[name]) for name in tables)
    assert list(folder.iterdir()) == []
    # The tables read from the mapping stay readable after the file's name is gone.
    del tables
    assert back["hands"].column("hand_id").to_pylist()


def test_without_the_folder_the_tables_go_in_the_pickle(tmp_path, monkeypatch):
    monkeypatch.setattr(handoff, "FOLDER", str(tmp_path / "missing"))
    tables = _tables()
    data = pickle.dumps(handoff.SharedTables(tables))
    assert len(data) > 1_000
    back = pickle.loads(data)
    assert type(back) is dict and all(back[name].equals(tables[name]) for name in tables)


def test_a_full_folder_leaves_nothing_and_the_tables_go_in_the_pickle(folder, monkeypatch):
    written = []

    def full(file, view):
        written.append(file.write(view[:100]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(handoff, "_write_all", full)
    tables = _tables()
    data = pickle.dumps(handoff.SharedTables(tables))
    assert written == [100] and list(folder.iterdir()) == []
    back = pickle.loads(data)
    assert all(back[name].equals(tables[name]) for name in tables)


def test_no_tables_make_no_file(folder):
    assert pickle.loads(pickle.dumps(handoff.SharedTables({}))) == {}
    assert list(folder.iterdir()) == []


def test_files_of_imports_or_workers_no_longer_running_are_removed(folder):
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    dead = int(ended.stdout)
    me, parent = os.getpid(), os.getppid()
    stale = folder / f"{handoff.PREFIX}{dead}-{me}-abcd"  # its import killed
    dropped = folder / f"{handoff.PREFIX}{me}-{dead}-abcd"  # its worker killed
    live = folder / f"{handoff.PREFIX}{parent}-{me}-abcd"
    other = folder / "someone-elses"
    odd = folder / f"{handoff.PREFIX}x-{dead}-abcd"
    for path in (stale, dropped, live, other, odd):
        path.write_bytes(b"x")
    handoff.remove_stale()
    assert sorted(folder.iterdir()) == sorted([live, other, odd])


def test_an_import_with_workers_hands_its_tables_through_the_folder_and_leaves_none(
    folder, tmp_path, monkeypatch
):
    """Two workers: the rows as one process stores them, and the folder empty after."""
    from handlog import importer

    seen = []
    remove = handoff._remove

    def spied(path):
        seen.append(path)
        remove(path)

    # Each file is removed by this process as it reads it (the pool's result thread).
    monkeypatch.setattr(handoff, "_remove", spied)
    logs = sorted(str(path) for path in SAMPLE_LOGS.glob("*.txt"))
    here, there = tmp_path / "here.duckdb", tmp_path / "there.duckdb"
    import_paths(logs, here, workers=1)
    summary = import_paths(logs, there, workers=2)
    assert summary.failed == [] and seen and all(path.startswith(str(folder)) for path in seen)
    assert list(folder.iterdir()) == []
    assert importer.SharedTables is handoff.SharedTables
    assert _rows(there) == _rows(here)


def _rows(db: Path) -> dict[str, list[tuple]]:
    import duckdb

    connection = duckdb.connect(str(db), read_only=True)
    try:
        return {
            name: sorted(connection.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
            for name in ("hands", "hand_players", "actions", "pots", "awards", "equities")
        }
    finally:
        connection.close()


def test_a_result_that_cannot_be_read_back_is_read_again_and_nothing_is_left(
    folder, tmp_path, monkeypatch
):
    """The importing process fails to map a worker's file (out of memory, say): the pool is
    broken, the part read again by new workers, every hand stored, no file left behind."""
    import mmap

    calls = []

    def failing_once(*arguments, **keywords):
        calls.append(arguments)
        if len(calls) == 1:
            raise OSError(errno.ENOMEM, "Cannot allocate memory")
        return mmap.mmap(*arguments, **keywords)

    mapping = types.SimpleNamespace(mmap=failing_once, PROT_READ=mmap.PROT_READ)
    monkeypatch.setattr(handoff, "mmap", mapping)  # this module's mmap only
    logs = sorted(str(path) for path in SAMPLE_LOGS.glob("*.txt"))
    here, there = tmp_path / "here.duckdb", tmp_path / "there.duckdb"
    summary = import_paths(logs, there, workers=2)
    assert len(calls) >= 2 and summary.failed == []
    assert list(folder.iterdir()) == []
    import_paths(logs, here, workers=1)
    assert _rows(there) == _rows(here)
