"""Reading a database while an import writes it.

DuckDB lets one process open a database file for writing and no other process open it at
all meanwhile, not even to read. So a report that finds the database busy reads a copy,
taken while the import is between two commits: then the database file and its write-ahead
log hold exactly the committed hands. The import says when that is with POSIX record locks
on a file beside the database (`<db>.lock`): byte 0 while it runs, byte 1 while it writes.
The kernel drops them with the process, even on `kill -9`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from handlog.store import DatabaseBusy, StoreError, connect

if TYPE_CHECKING:
    import duckdb

RUNNING = 0
"""The lock file's byte an import holds from start to end."""
WRITING = 1
"""The lock file's byte an import holds while it writes (let go between commits)."""

WAIT_SECONDS = float(os.environ.get("HANDLOG_SNAPSHOT_WAIT", 60))
"""How long a report waits for a running import to reach the end of a commit."""


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class ImportLock:
    """An import's side of the lock, taken (writing) before the database is opened:
    `pause`d after each commit and `resume`d before the next write. A no-op where there
    are no POSIX locks (a report then says the database is busy), when the folder cannot
    be written (DuckDB says why), or when another import holds it (DuckDB says busy)."""

    def __init__(self, database: Path) -> None:
        self.handle: int | None = None
        self.path = lock_path(database)
        self.created = False
        try:
            import fcntl
        except ImportError:
            return
        if database.is_dir() or not database.parent.is_dir():
            return  # no database can be there: DuckDB says why
        try:
            handle = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            self.created = True
        except FileExistsError:
            try:
                handle = os.open(self.path, os.O_RDWR)
            except OSError:
                return
        except OSError:
            return
        try:
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, RUNNING)
            fcntl.lockf(handle, fcntl.LOCK_EX, 1, WRITING)
        except OSError:
            os.close(handle)
            return
        self.handle = handle

    def pause(self) -> None:
        """Between commits: a report may copy the database now."""
        if self.handle is not None:
            import fcntl

            fcntl.lockf(self.handle, fcntl.LOCK_UN, 1, WRITING)

    def resume(self) -> None:
        """Before writing again; waits while a report copies the database (a fraction of a
        second for a hundred megabytes)."""
        if self.handle is not None:
            import fcntl

            fcntl.lockf(self.handle, fcntl.LOCK_EX, 1, WRITING)

    def close(self, opened: bool = True) -> None:
        """Let go; `opened` False: the database could not be opened, and a lock file made
        for it goes."""
        if self.handle is not None:
            if not opened and self.created:
                with suppress(OSError):
                    self.path.unlink()
            os.close(self.handle)  # closing the file drops its locks
            self.handle = None


def _copy_between_commits(database: Path, into: Path) -> bool:
    """Copy the database and its write-ahead log into the folder `into` while the import
    that holds it is between commits. False when no import holds the lock (another
    program has the database open: a copy could catch it half way through a write) or the
    import does not reach the end of a commit within `WAIT_SECONDS`."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        handle = os.open(lock_path(database), os.O_RDWR)
    except OSError:
        return False
    import shutil

    try:
        try:
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, RUNNING)
        except OSError:
            pass  # an import runs: wait for the end of its commit
        else:
            return False
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, WRITING)
                break
            except OSError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.02)
        shutil.copyfile(database, into / database.name)
        wal = database.with_name(database.name + ".wal")
        with suppress(FileNotFoundError):
            shutil.copyfile(wal, into / wal.name)
        return True
    finally:
        os.close(handle)  # drops the locks


@contextmanager
def reading(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to the database, even while an import writes it: then to a
    copy taken between two of its commits (every hand in it is whole). `StoreError` if it
    cannot be read, `DatabaseBusy` if another program keeps it open."""
    import shutil
    import tempfile

    folder = None
    try:
        connection = connect(path, read_only=True)
    except DatabaseBusy:
        folder = Path(tempfile.mkdtemp(prefix="handlog-snapshot-"))
    try:
        if folder is not None:
            try:
                copied = _copy_between_commits(path, folder)
            except OSError as error:
                raise StoreError(
                    f"cannot copy {path} to read it while an import runs "
                    f"({error.strerror or error}): wait for the import to finish"
                ) from None
            if not copied:
                raise DatabaseBusy(
                    f"database {path} is busy: another process is writing it (wait for it "
                    "to finish, or use --db for another file)"
                )
            # Opened for writing: DuckDB replays the copied write-ahead log into the copy.
            connection = connect(folder / path.name)
        try:
            yield connection
        finally:
            connection.close()
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
