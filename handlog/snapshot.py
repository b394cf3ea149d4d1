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

from handlog.store import DatabaseBusy, StoreError, connect, store_error

if TYPE_CHECKING:
    import duckdb

    from handlog.dataset import Dataset

RUNNING = 0
"""The lock file's byte an import holds from start to end."""
WRITING = 1
"""The lock file's byte an import holds while it writes (let go between commits)."""

WAIT_SECONDS = float(os.environ.get("HANDLOG_SNAPSHOT_WAIT", 60))
"""How long a report waits for a running import to reach the end of a commit."""


class NoDatabase(StoreError):
    """Nothing to read where a reading command was pointed: no database file (or no
    dataset) there. Not a damaged database: the user has not imported yet (exit 2)."""


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


WORK_PREFIX = "handlog-work-"
"""The names of the folders `WorkFolder` makes in the system's temporary folder."""
OLD_PREFIXES = ("handlog-report-", "handlog-snapshot-")
"""The names of the temporary folders of older handlogs (reports killed left them)."""
STALE_SECONDS = 24 * 3600
"""A work folder without an owner's lock file (one an older handlog made) is deleted once
it is this old."""


class WorkFolder:
    """A folder in the system's temporary folder for a command's temporary files (a copy of
    the database, a report's working database), deleted by `cleanup`. While it is in use
    its process holds a lock on a file in it; a folder left behind by a process that was
    killed (`kill -9`, a crash: nothing ran to delete it) holds no lock, and the next
    `WorkFolder` deletes it."""

    def __init__(self) -> None:
        import tempfile

        remove_stale_work_folders()
        self.name = tempfile.mkdtemp(prefix=WORK_PREFIX)
        self.handle: int | None = None
        try:
            import fcntl
        except ImportError:
            return
        try:
            handle = os.open(os.path.join(self.name, OWNER), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(handle)
            return
        self.handle = handle

    @property
    def path(self) -> Path:
        return Path(self.name)

    def cleanup(self) -> None:
        """Delete the folder and what is in it."""
        import shutil

        shutil.rmtree(self.name, ignore_errors=True)
        if self.handle is not None:
            os.close(self.handle)
            self.handle = None


OWNER = ".owner.lock"
"""The file of a `WorkFolder` whose lock (flock: held through its own open file, so that
the process that holds it finds it held too) says that its process still uses it."""


def remove_stale_work_folders() -> int:
    """Delete the work folders (`WorkFolder`) left in the temporary folder by processes that
    ended without deleting them; returns how many. A folder whose lock is held is in use."""
    import shutil
    import tempfile

    try:
        import fcntl
    except ImportError:
        return 0
    removed = 0
    try:
        names = [
            name
            for name in os.listdir(tempfile.gettempdir())
            if name.startswith((WORK_PREFIX, *OLD_PREFIXES))
        ]
    except OSError:
        return 0
    for name in names:
        folder = os.path.join(tempfile.gettempdir(), name)
        try:
            handle = os.open(os.path.join(folder, OWNER), os.O_RDWR)
        except FileNotFoundError:
            # Not made by a WorkFolder yet (being made right now) or not by this handlog:
            # deleted only once it is old.
            with suppress(OSError):
                if time.time() - os.stat(folder).st_mtime > STALE_SECONDS:
                    shutil.rmtree(folder, ignore_errors=True)
                    removed += 1
            continue
        except OSError:
            continue  # another user's, or not a folder
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # in use
        else:
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
        finally:
            os.close(handle)
    return removed


@contextmanager
def reading(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to the database, even while an import writes it: then to a
    copy taken between two of its commits (every hand in it is whole). `StoreError` if it
    cannot be read, or when a query on it fails because it is damaged (every DuckDB error
    raised while it is read, in the caller's block too, becomes one), `DatabaseBusy` if
    another program keeps it open."""
    import duckdb

    folder = None
    try:
        connection = connect(path, read_only=True)
    except DatabaseBusy:
        folder = WorkFolder()
    try:
        if folder is not None:
            try:
                copied = _copy_between_commits(path, folder.path)
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
            connection = connect(folder.path / path.name)
        try:
            yield connection
        except duckdb.Error as error:
            if isinstance(error, duckdb.InterruptException):
                raise KeyboardInterrupt from None  # Ctrl-C, which DuckDB turns into an error
            raise store_error(error, path, reading=True) from None
        finally:
            connection.close()
    finally:
        if folder is not None:
            folder.cleanup()


@contextmanager
def opened(source: Path | Dataset) -> Iterator[duckdb.DuckDBPyConnection]:
    """What every reading command (`report`, `show`, `export`, `check --dataset`) reads,
    opened one way: a database file through `reading` (a copy between two commits while an
    import writes it), or a Parquet dataset (`handlog.dataset`) as views of the same
    tables. `NoDatabase` when there is none there; `StoreError` when it cannot be read
    (`DatabaseBusy` when another program holds it). The connection is closed on leaving."""
    if not isinstance(source, str | os.PathLike):
        with source.reading() as connection:  # a `Dataset`: it says when there is none
            yield connection
        return
    with reading(existing(Path(source))) as connection:
        yield connection


def existing(path: Path) -> Path:
    """`path`, a database file that is there (to read, or to add to: aliases, all-in EV);
    else `NoDatabase`, which says to import first."""
    if not path.exists():
        raise NoDatabase(f"no database at {path}: import hand histories first (handlog import)")
    return path
