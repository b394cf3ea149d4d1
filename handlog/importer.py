"""`handlog import`: parse, replay and load files into the store, each file once.

A file whose bytes are unchanged since its last import is skipped by its SHA-256. A file
that grew (its old bytes hash as before: a session still being played) is read again from
the start of its last hand; hands already stored are not stored twice. Files are cut into
ranges of whole hands that worker processes parse and replay; the parent loads them in
transactions of up to `COMMIT_HANDS` hands (new files share one: small files gathered in
tasks, a big file's transaction carried on to the next), each with the `imports` row of
each file in it, which records how far the file got.
"""

from __future__ import annotations

import os
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from handlog import handoff, ingest, store
from handlog.handoff import SharedTables
from handlog.ingest import (
    COUNTS,
    HASHED_BY_READER,
    FilePlan,
    Job,
    PartResult,
    Unreadable,
    file_hash,
    file_jobs,
    file_key,
    file_keys,
    file_size,
    read_part,
    unreadable,
)
from handlog.snapshot import ImportLock

if TYPE_CHECKING:  # imported where workers are started: an import read here has none
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = [
    "FilePlan",
    "ImportFailed",
    "ImportSummary",
    "Unreadable",
    "import_paths",
]

RANGE_BYTES = ingest.RANGE_BYTES
"""Files are cut into ranges of whole hands of about this size (`ingest.RANGE_BYTES`)."""


DUCKDB_MEMORY_LIMIT = os.environ.get("HANDLOG_DUCKDB_MEMORY", "128MB")
"""The most memory DuckDB may take in the importing process (its buffer pool)."""


CHECKPOINT_BYTES = "256MB"
"""The write-ahead log an import lets grow before DuckDB checkpoints it into the database file."""


PARENT_STAGES = ("startup", "plan", "load", "commit", "summary")
"""The importing process's stages whose CPU time `ImportSummary.timings` reports besides
the workers' (`ingest.WORKER_STAGES`): start-up (the interpreter and the modules imported
before the import begins, and what the workers share, `ingest.prepare_workers`), planning
the files (their `imports` rows, hashing, cutting into ranges), loading the rows into
DuckDB, each part's `imports` row and commit (and the checkpoint on closing), the
summary hook (`after_commit`). `parent` is the process's whole CPU time: what it spent
beyond these stages is process traffic (results unpickled, tasks sent) and the rest."""


@dataclass
class ImportSummary:
    files: int = 0
    unchanged: int = 0
    hands: int = 0
    new_hands: int = 0
    replaced: int = 0
    """Hands stored before by a file that changed since, stored again as it holds them now."""
    duplicates: int = 0
    flagged_illegal: int = 0
    flagged_mis_split: int = 0
    flagged_inconsistent: int = 0
    unparsed: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)
    """CPU seconds by stage: the workers' (`ingest.WORKER_STAGES`, all parts summed) and
    this process's (`PARENT_STAGES`, and `parent`: its whole CPU time)."""

    def add_timings(self, timings: dict[str, float]) -> None:
        for stage, seconds in timings.items():
            self.timings[stage] = self.timings.get(stage, 0.0) + seconds

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def import_paths(
    files: list[str],
    db_path: Path,
    profile_name: str | None = None,
    workers: int | None = None,
    on_file: Callable[[FilePlan, dict[str, int], int, list[Unreadable]], None] | None = None,
    on_part: Callable[[FilePlan, int, int], None] | None = None,
    after_commit: Callable[..., None] | None = None,
    opened: tuple[Any, ImportLock] | None = None,
) -> ImportSummary:
    """Import `files` into the database at `db_path` (see the module doc). A file that
    cannot be read or stored is noted in the summary's `failed`, and the next goes on;
    `ImportFailed` (a `StoreError`, with the summary so far) when the database itself
    cannot be used, `DatabaseBusy` when another process holds it.

    `after_commit(connection)` is called after each part is committed, and
    `after_commit(connection, final=True)` once at the end, while the import still holds
    the database for writing (`handlog.summary.after_commit` keeps the server's
    summary tables up to date). `opened`: a connection to the database and the
    `ImportLock` its owner holds (a server that imports as files grow), used as they are
    and left open, their settings unchanged."""
    started = time.perf_counter()
    summary = ImportSummary()
    summary.timings["startup"] = time.process_time()  # the interpreter and imports so far
    count = workers or os.cpu_count() or 1
    if workers is None and _one_task(files):
        count = 1  # no worker would run beside another: read here, no processes to start
    # The workers are forked before the database is opened, so that they hold none of its
    # files (a worker forked later would keep the database and its write-ahead log open).
    pool = None
    if opened is None:
        _keep_freed_memory()  # this process's, and the workers' it forks
    if count > 1 and files and opened is None:
        ingest.arrow_without_pandas()  # before the workers fork: theirs is settled too
        ingest.prepare_workers(files, profile_name)
        handoff.remove_stale()  # tables an import killed before reading them left behind
        pool = _Workers(count)
    summary.timings["startup"] = time.process_time()  # and the workers' start
    running = pool.count if pool is not None else 1  # processes reading the files
    results = None
    try:
        if opened is not None:
            connection, lock = opened
        else:
            lock = ImportLock(db_path)
            try:
                if pool is not None and _new_database(db_path, lock):
                    # No file was imported into a database not made yet: the workers start
                    # on the first files now, not once DuckDB is loaded and the database
                    # made (measured, 20,000 PokerStars hands: some 60 ms sooner).
                    results = _run(_planned(None, files, summary, running), profile_name, pool)
                clock = time.process_time()
                connection = store.connect(db_path)  # DuckDB loaded: the workers never use it
                summary.timings["startup"] += time.process_time() - clock
            except BaseException:
                lock.close(opened=False)
                raise
            lock.pause()
        import duckdb  # loaded by now

        loading: _FileLoad | None = None
        files_load = _FilesLoad(summary, on_file, after_commit)
        try:
            if opened is None:
                # DuckDB's buffer pool may otherwise grow to most of the machine's memory as
                # it caches the blocks it writes; an import needs only a batch's rows at a
                # time.
                connection.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
                # One DuckDB thread: the workers keep every core busy parsing, and DuckDB's
                # own threads would only compete with them (and wait for work spinning):
                # measured, a fifth less CPU in this process for the same inserts, and no
                # slower.
                connection.execute("SET threads = 1")
                # Fewer checkpoints: at DuckDB's default (16 MB of write-ahead log) one ran
                # every commit or two, each writing the tables' last row groups again
                # (measured, 20,000 PokerStars hands: commits 47-48 us a hand, 19-20 with one
                # checkpoint at the end, which costs some 15). Committed parts are in the log
                # meanwhile: a killed import loses none of them (DuckDB replays the log).
                connection.execute(f"SET checkpoint_threshold = '{CHECKPOINT_BYTES}'")
            if results is None:
                tasks = _planned(connection, files, summary, running)
                results = _run(tasks, profile_name, pool)
            for task, done, left in results:
                summary.add_timings(done.timings)
                if left == 0 and opened is None:
                    # The commits from here on end the import: each checkpoints as it commits
                    # (DuckDB then writes no log of it), leaving nothing for closing to do.
                    # Measured, 20,000 PokerStars hands in one transaction: commit and close
                    # 0.100 + 0.073 s -> 0.141-0.150 + 0.007, at the import's very end.
                    connection.execute("SET checkpoint_threshold = '0B'")
                # Once the last task is under way (fewer left than workers) the results are
                # loaded as they come, not held for the next (`LOAD_PARTS`): what waits is
                # loaded while the workers read the last, and the import's end loads only it.
                ending = left is not None and left < running
                if len(task) > 1 or _whole_file(task, done):  # a few tasks a transaction
                    if loading is not None:  # a big file's transaction carried on: it ends
                        loading.end(connection, lock, after_commit, summary, on_file)
                        loading = None
                    files_load.add(connection, lock, task, done, ending)
                    continue
                files_load.commit(connection, lock)
                (job,), (result,) = task, done.results
                if loading is None or loading.plan is not job.plan:
                    # The file before, if any, left its transaction under way (`carried`).
                    loading = _FileLoad(job.plan, summary.timings, loading)
                loading.load(connection, lock, job, result, on_part, after_commit, ending)
                if job.last and not loading.carried:
                    loading.finish(summary, on_file)
                    loading = None
            if loading is not None:  # a transaction carried on to no other file
                loading.end(connection, lock, after_commit, summary, on_file)
                loading = None
            files_load.commit(connection, lock)
            if after_commit is not None:
                if opened is None:  # the hook's transactions are logged, as before
                    connection.execute(f"SET checkpoint_threshold = '{CHECKPOINT_BYTES}'")
                lock.resume()
                clock = time.process_time()
                try:
                    after_commit(connection, final=True)
                finally:
                    lock.pause()
                    summary.add_timings({"summary": time.process_time() - clock})
        except (duckdb.Error, RuntimeError) as error:
            if _interrupted(error):
                raise KeyboardInterrupt from None
            if not isinstance(error, duckdb.Error):
                raise
            if loading is not None:  # the parts of the file committed before are counted
                loading.abandon(connection, lock)
                loading.finish(summary, None)
            summary.seconds = time.perf_counter() - started
            raise ImportFailed(store.store_error(error, db_path), summary) from None
        finally:
            if loading is not None:  # a transaction left under way (Ctrl-C) is rolled back
                loading.abandon(connection, lock)
            files_load.abandon(connection, lock)
            if opened is None:
                lock.resume()  # closing checkpoints: no report copies the files meanwhile
                clock = time.process_time()
                connection.close()
                summary.add_timings({"commit": time.process_time() - clock})
                lock.close()
    finally:
        if pool is not None:
            pool.shutdown()
    summary.seconds = time.perf_counter() - started
    summary.timings["parent"] = time.process_time()
    return summary


def _whole_file(task: Task, done: TaskResult) -> bool:
    """Whether a task of one job is a whole new file read in one part, as Arrow tables: it
    is stored with the files before and after it in one transaction (`_FilesLoad`), as small
    files are, not in a transaction of its own. A transaction under `COMMIT_HANDS` hands
    goes through DuckDB's write-ahead log at its commit, and again into the database file at
    the checkpoint, where one that fills row groups has them written straight to the file
    (measured, 20,000 PokerStars hands in ten files of 2,000, 4.4 MB each: the importing
    process's commits 26-28 us a hand, against 6.5-7 for the same hands in one file)."""
    (job,) = task
    return job.whole and not any(isinstance(t, store.Rows) for t in done.tables.values())


def _one_task(files: list[str]) -> bool:
    """Whether `files` are at most one task's work (together no bigger than a small file,
    `_small()`: a few hundred hands), which one worker would do while the others and this
    process wait. Read here instead, the import starts no process (whose start, and its
    own imports of the parser, the rules and Arrow, cost more than such a task)."""
    total = 0
    for path in files:
        try:
            total += file_size(path)
        except OSError:
            continue  # planning names it
        if total > _small():
            return False
    return True


def _timed(items: Iterator[Job], timings: dict[str, float], stage: str) -> Iterator[Job]:
    """`items`, the CPU time spent making each added to `timings[stage]`."""
    timings.setdefault(stage, 0.0)
    while True:
        clock = time.process_time()
        item = next(items, None)
        timings[stage] += time.process_time() - clock
        if item is None:
            return
        yield item


def _spent(timings: dict[str, float], stage: str, since: float) -> float:
    """Add the CPU time since `since` to `timings[stage]`; the time now."""
    now = time.process_time()
    timings[stage] = timings.get(stage, 0.0) + now - since
    return now


def _fatal(error: BaseException) -> bool:
    """Whether a DuckDB error is charged to no file: the database file itself failing
    (`store.is_storage_fault`), or Ctrl-C reaching a query (`_interrupted`); raised."""
    return store.is_storage_fault(error) or _interrupted(error)


def _refusal(error: BaseException) -> str:
    """Why a file's rows could not be stored: the first line of DuckDB's error."""
    return "could not be stored: " + str(error).strip().split("\n", 1)[0]


def _interrupted(error: BaseException) -> bool:
    """Whether a DuckDB error is Ctrl-C reaching a query. DuckDB turns it into an error of
    its own: an interrupt, or (when Ctrl-C lands while it reads a batch's Arrow data, in
    Python) an input error that names the KeyboardInterrupt it caught."""
    import duckdb

    text = str(error).lower()
    return (
        isinstance(error, duckdb.InterruptException)
        or (isinstance(error, RuntimeError) and "interrupted" in text)
        or (isinstance(error, duckdb.Error) and "keyboardinterrupt" in text)
    )


class ImportFailed(store.StoreError):
    """The database could not be used part way through an import; `summary` says what was
    stored before (committed: the next import goes on from there)."""

    def __init__(self, error: store.StoreError, summary: ImportSummary) -> None:
        super().__init__(str(error))
        self.summary = summary


class _Workers:
    """The worker processes, started again when one dies (killed for want of memory,
    say): the pool is broken then, and every job under way in it lost."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        import signal
        import threading
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(
            max_workers=self.count, initializer=_worker_started, initargs=(os.getpid(),)
        )
        # With the fork start method the first task forks every worker at once, here. They
        # are born ignoring Ctrl-C (the import answers it), even before their initializer.
        here = threading.current_thread() is threading.main_thread()
        before = signal.signal(signal.SIGINT, signal.SIG_IGN) if here else None
        try:
            pool.submit(os.getpid).result()
        finally:
            if here:
                signal.signal(signal.SIGINT, before)
        return pool

    def submit(self, *call: Any) -> Future[Any]:
        return self.pool.submit(*call)

    def restart(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        handoff.remove_stale()  # the tables of results the broken pool dropped
        self.pool = self._start()

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def _worker_started(parent: int) -> None:
    """In each worker, first: the worker dies with the import that started it. On Linux
    the kernel sends it SIGKILL when the parent dies (prctl PR_SET_PDEATHSIG), even by
    `kill -9`; elsewhere a thread watches the parent. Ctrl-C is the parent's to handle."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _die_with_parent():
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


def _die_with_parent() -> bool:
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        set_death_signal = 1  # PR_SET_PDEATHSIG, <linux/prctl.h>
        return libc.prctl(set_death_signal, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


HEAP_KEPT_BYTES = 256 << 20
"""The memory an import's processes keep for their next allocations once freed
(`_keep_freed_memory`)."""


def _keep_freed_memory() -> bool:
    """In an import's processes (set before the workers fork: theirs too), have glibc's
    malloc serve blocks of up to `HEAP_KEPT_BYTES` from its heap and keep up to that much
    freed memory there, rather than map each big block (a range's text, a column's list of
    hundreds of thousands of values) from the kernel, fault its pages in, and unmap it when
    freed, range after range (mallopt(3): M_MMAP_THRESHOLD, M_TRIM_THRESHOLD). Measured,
    20,000 PokerStars hands: some 90,000 page faults -> 80,000, 0.39-0.43 s of system time
    -> 0.22-0.33, 1.81-1.85 s wall -> 1.71-1.76. False (nothing done) where the C library
    has no `mallopt` or refuses (not glibc; musl's does nothing)."""
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    trim_threshold, mmap_threshold = -1, -3  # <malloc.h>
    return bool(
        mallopt(mmap_threshold, HEAP_KEPT_BYTES) and mallopt(trim_threshold, HEAP_KEPT_BYTES)
    )


def _planned(
    connection: Any, files: list[str], summary: ImportSummary, workers: int
) -> Iterator[Task]:
    """The tasks of an import: files are planned, and cut into ranges, one range at a time
    as the `workers` need them (`_jobs`), so that they start on the first range at once."""
    jobs = _timed(_jobs(connection, files, summary, workers), summary.timings, "plan")
    return _tasks(jobs, lambda: len(files) - summary.files, workers)


def _new_database(path: Path, lock: ImportLock) -> bool:
    """Whether the import makes the database: none there (nor a write-ahead log of one), and
    no other import running (`ImportLock` held)."""
    return lock.handle is not None and not path.exists() and not Path(f"{path}.wal").exists()


def _jobs(
    connection: Any, files: list[str], summary: ImportSummary, workers: int = 1
) -> Iterator[Job]:
    """The parts of every file to import, file by file, each file planned and cut when its
    first part is wanted. An unchanged file has none; a file that cannot be read is noted
    in the summary (or, when it fails part way, ends with a part that says why).
    `connection` None: a new database, where no file was imported before. A file imported
    alone, new and not small, is cut in a range for each of `workers` (`_lone_range_bytes`)."""
    for start in range(0, len(files), PLAN_FILES):
        some = files[start : start + PLAN_FILES]
        keys = file_keys(some)
        known = {} if connection is None else _imported(connection, keys)
        yield from _some_jobs(some, keys, known, summary, workers if len(files) == 1 else 1)


PLAN_FILES = 5_000
"""Files whose `imports` rows are looked up in one query."""

SMALL_FILE_BYTES = 1 << 20
"""A new file this small (and no bigger than a range, `RANGE_BYTES`) is one part, hashed in
one read (not cut into ranges), and is read with other such files in one task and stored in
one transaction (`BATCH_BYTES`)."""

BATCH_BYTES = 8 << 20
BATCH_FILES = 1_000
"""A task of small files holds up to this many bytes (a range's, `RANGE_BYTES`), and
files: a folder of thousands of ~10-hand files costs a task, a set of Arrow tables and a
transaction per some 1,000-3,500 hands, as a big file's ranges do, not per file. (At 2 MB
a task of ten-hand Merge files held 400 hands: measured, 20,000 of them, the importing
process's CPU a hand 178-193 us, 110-115 at 8 MB: DuckDB's load 69-77 -> 25-27 us, the
commits 54-58 -> 38-40.)"""


def _batch_bytes(left: int, workers: int) -> int:
    """The bytes of a task of small files when about `left` bytes of them are left to read:
    `BATCH_BYTES`, down to an eighth of it as the end nears (a quarter of what is left for
    each of two workers), so that the last tasks, which run while workers run out of work,
    are short (as a big file's last ranges are, `reader.hand_ranges`). Measured, 2,000
    ten-hand PokerStars files, six tasks of 8 MB: one worker ran the last one alone for
    some 0.4 s of the import's 2.5."""
    if workers <= 1:
        return BATCH_BYTES
    return min(BATCH_BYTES, max(BATCH_BYTES // 8, left // (2 * workers)))


def _small() -> int:
    """The size up to which a file is small (`SMALL_FILE_BYTES`), and never more than a range."""
    return min(SMALL_FILE_BYTES, RANGE_BYTES)


def _imported(connection: Any, keys: list[str]) -> dict[str, tuple[int, str, int]]:
    """The `imports` rows (size, SHA-256, line reached) of the files known as `keys`
    (`file_key`) imported before, by key: one query for many files."""
    # The keys as one list parameter (not an Arrow table: pyarrow imports pandas, when
    # installed, the first time it converts Python values).
    rows = connection.execute(
        "SELECT i.path, i.size, i.sha256, i.line_reached FROM imports i "
        "SEMI JOIN (SELECT unnest($keys) AS path) k ON i.path = k.path",
        {"keys": keys},
    ).fetchall()
    return {path: (int(size), sha, int(line)) for path, size, sha, line in rows}


def _some_jobs(
    files: list[str],
    keys: list[str],
    known: dict[str, tuple[int, str, int]],
    summary: ImportSummary,
    workers: int = 1,
) -> Iterator[Job]:
    """`_jobs` of some files; `workers` share a file imported alone (1: none)."""
    for path, key in zip(files, keys, strict=True):
        summary.files += 1
        plan = None
        try:
            plan = _plan(path, key, known.get(key), summary)
            if plan is None:
                continue
            if plan.size <= _small() and not plan.imported_before:
                # Hashed by the reader, from the one read it parses (`Job.hashed`).
                yield Job(plan, None, plan.size, HASHED_BY_READER, last=True)
            elif workers > 1 and not plan.imported_before:
                yield from file_jobs(plan, _lone_range_bytes(plan.size, workers))
            else:
                yield from file_jobs(plan, RANGE_BYTES)
        except OSError as error:
            reason = f"cannot read: {error.strerror or error}"
            if plan is None:
                summary.failed.append((path, reason))
            else:
                yield Job(plan, None, 0, "", last=True, error=reason)


def _lone_range_bytes(size: int, workers: int) -> int:
    """The ranges of a new file imported alone, not small: of a range's size
    (`RANGE_BYTES`), or, for a file of up to one range, a share of it for each of `workers`
    when a share is no smaller than a small file: they read it together where one read it
    all while the others waited (measured, one file of 5,000 Winamax hands, 5.7 MB:
    1.57-1.63 s -> 0.94-1.03). Not so the last of several files: cut, it would be stored in
    a transaction of its own, not with the files before it (`_FilesLoad`), which cost more
    than it saved (ten such files: 1.52-1.63 s -> 1.59-1.69)."""
    share = -(-size // workers)
    if workers <= 1 or size > RANGE_BYTES or share < _small():
        return RANGE_BYTES
    return share


def _plan(
    path: str, key: str, row: tuple[int, str, int] | None, summary: ImportSummary
) -> FilePlan | None:
    """What to read of a file known as `key` (`row`: its `imports` row, if imported
    before): None if unchanged since its last import."""
    size = file_size(path)
    if row is None:
        return FilePlan(path, size, 1, key=key)
    old_size, old_sha, line_reached = row  # imported before: unchanged, grown, or changed?
    if file_hash(path) == old_sha:
        summary.unchanged += 1
        return None
    if size > old_size and file_hash(path, old_size) == old_sha:
        # Grown: from its last hand on.
        return FilePlan(path, size, int(line_reached), imported_before=True, key=key)
    return FilePlan(path, size, 1, replaces=True, imported_before=True, key=key)


Task = tuple[Job, ...]
"""Jobs a worker does at once: one part of a file, or several whole small files."""


@dataclass
class TaskResult:
    """What a worker made of a task: a result per job, the rows of them all (for one job,
    its own `tables`), and the CPU seconds by stage."""

    results: list[PartResult]
    tables: dict[str, Any]
    timings: dict[str, float]


def _tasks(jobs: Iterator[Job], files_left: Callable[[], int], workers: int) -> Iterator[Task]:
    """`jobs` as tasks: whole small files (`Job.whole`) gathered, in order, up to
    `BATCH_BYTES` and `BATCH_FILES`, less toward the end of the import for `workers` (the
    bytes left guessed from `files_left()`, the files not planned yet, at the small files'
    mean size so far: `_batch_bytes`); every other job alone."""
    held: list[Job] = []
    size = 0
    small_files = small_bytes = 0
    for job in jobs:
        if job.whole and job.end <= _small():
            held.append(job)
            size += job.end
            small_files += 1
            small_bytes += job.end
            left = size + files_left() * small_bytes // small_files
            if size >= _batch_bytes(left, workers) or len(held) >= BATCH_FILES:
                yield tuple(held)
                held, size = [], 0
            continue
        if held:
            yield tuple(held)
            held, size = [], 0
        yield (job,)
    if held:
        yield tuple(held)


def _read_task(
    jobs: list[tuple[str, Any, int, bool]], profile_name: str | None, here: bool = False
) -> TaskResult:
    """In a worker (or `here`, in this process): read the jobs of a task ((path, part,
    start line, hashed) each)."""
    if len(jobs) == 1:
        ((path, part, start_line, hashed),) = jobs
        result = read_part(path, part, start_line, profile_name, here, hashed)
        if not here:  # the tables go back through shared memory (one object, pickled once)
            result.tables = SharedTables(result.tables)
        return TaskResult([result], result.tables, result.timings)
    results, tables, timings = ingest.read_files(
        [(path, start_line, hashed) for path, _, start_line, hashed in jobs], profile_name
    )
    return TaskResult(results, tables if here else SharedTables(tables), timings)


def _died(job: Job) -> PartResult:
    return PartResult(
        job.plan.path,
        {},
        dict.fromkeys(COUNTS, 0),
        0,
        "a worker process died reading it (killed, perhaps for want of memory)",
    )


def _run(
    tasks: Iterator[Task], profile_name: str | None, pool: _Workers | None
) -> Iterator[tuple[Task, TaskResult, int | None]]:
    """Every task with its result, in order, and how many tasks are left once `tasks` has
    given its last (None before: 0 for the last), done by the
    worker processes of `pool` (None: here); at most two tasks per worker are under way or
    waiting, to bound memory: the first are handed to the workers now, as this is called
    (the import starts them before it opens a new database). The next task is taken from
    `tasks` before a result is passed on, so that the workers are busy while it is loaded.
    When a worker dies, the task first in line is run again alone in new workers: if it
    kills one again, its file fails (and is reported) — a task of several files is split,
    each file run again alone, so that only the file at fault fails; the tasks lost with
    the old workers are started again."""
    if pool is None:
        return _results_here(tasks, profile_name)
    pending: deque[tuple[Task, Future[TaskResult]]] = deque()
    for task in tasks:
        pending.append((task, _start(task, profile_name, pool)))
        if len(pending) >= 2 * pool.count:
            break
    return _results(pending, tasks, profile_name, pool)


def _results_here(
    tasks: Iterator[Task], profile_name: str | None
) -> Iterator[tuple[Task, TaskResult, int | None]]:
    task = next(tasks, None)
    while task is not None:
        result = _here(task, profile_name)
        following = next(tasks, None)
        yield task, result, 0 if following is None else None
        task = following


def _results(
    pending: deque[tuple[Task, Future[TaskResult]]],
    tasks: Iterator[Task],
    profile_name: str | None,
    pool: _Workers,
) -> Iterator[tuple[Task, TaskResult, int | None]]:
    from concurrent.futures.process import BrokenProcessPool

    def start(task: Task) -> Future[TaskResult]:
        return _start(task, profile_name, pool)

    exhausted = False
    while pending:
        task, future = pending.popleft()
        try:
            result = future.result()
        except BrokenProcessPool:
            pool.restart()
            try:
                result = start(task).result()
            except BrokenProcessPool:
                pool.restart()
                if len(task) > 1:  # which file? each alone, first in line
                    waiting = list(pending)
                    pending = deque(((job,), start((job,))) for job in task)
                    pending.extend(
                        (other, start(other) if _lost(future) else future)
                        for other, future in waiting
                    )
                    continue
                result = TaskResult([_died(task[0])], {}, {})
            pending = deque(
                (waiting, start(waiting) if _lost(future) else future)
                for waiting, future in pending
            )
        following = None if exhausted else next(tasks, None)
        if following is not None:
            pending.append((following, start(following)))
        exhausted = following is None
        yield task, result, len(pending) if exhausted else None


def _here(task: Task, profile_name: str | None) -> TaskResult:
    """A task read in this process."""
    if len(task) == 1 and task[0].error is not None:  # nothing to read
        job = task[0]
        failed = PartResult(job.plan.path, {}, dict.fromkeys(COUNTS, 0), 0, job.error)
        return TaskResult([failed], {}, {})
    return _read_task(_specs(task), profile_name, here=True)


def _start(task: Task, profile_name: str | None, pool: _Workers) -> Future[TaskResult]:
    """A task handed to the workers (one with nothing to read is answered here)."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    if len(task) > 1 or task[0].error is None:
        try:
            return pool.submit(_read_task, _specs(task), profile_name)
        except BrokenProcessPool as error:  # seen broken before a result says so
            broken: Future[TaskResult] = Future()
            broken.set_exception(error)
            return broken
    future: Future[TaskResult] = Future()
    future.set_result(_here(task, profile_name))
    return future


def _lost(future: Future[TaskResult]) -> bool:
    return not future.done() or future.cancelled() or future.exception() is not None


def _specs(task: Task) -> list[tuple[str, Any, int, bool]]:
    return [(job.plan.path, job.part, job.plan.start_line, job.hashed) for job in task]


def _digest(job: Job, result: PartResult) -> tuple[int, str]:
    """What a part's `imports` row records of its file: the bytes up to the part's end and
    their SHA-256, as the reader found them when it hashed the file (`Job.hashed`)."""
    if result.digest is not None:
        return result.digest
    return job.end, job.sha256


def _load_parts(connection: Any, parts: list[dict[str, Any]]) -> int:
    """`store.load` of the rows of several parts (whose hands are each in one part only),
    one statement a table for all of them when they are Arrow tables; the new hands."""
    joined = _joined(parts)
    if joined is None:
        return sum(store.load(connection, tables) for tables in parts)
    return store.load(connection, joined)


def _joined(parts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The rows of several parts (or tasks) as one set of Arrow tables, each table's parts
    end to end (no copy); None when some are Python rows (`store.Rows`), which are loaded
    one part at a time."""
    if len(parts) == 1:
        return parts[0]
    if any(isinstance(table, store.Rows) for tables in parts for table in tables.values()):
        return None
    import pyarrow as pa  # not before: a few hands' Python rows need no pyarrow (`store.Rows`)

    names = dict.fromkeys(name for tables in parts for name in tables)  # a part has no empty table
    return {
        name: pa.concat_tables([tables[name] for tables in parts if name in tables])
        for name in names
    }


def _hand_ids(tables: dict[str, Any]) -> list[str]:
    """The ids of the hands of a part's (or task's) rows."""
    hands = tables.get("hands")
    if hands is None:
        return []
    if isinstance(hands, store.Rows):
        return list(hands.columns["hand_id"])
    return hands.column("hand_id").to_pylist()  # type: ignore[no-any-return]


_Item = TypeVar("_Item")


class _Waiting(Generic[_Item]):
    """The parts (or tasks) of the transaction under way not loaded yet, in order, and the
    ids of their hands (`repeats`)."""

    def __init__(self) -> None:
        self.items: list[_Item] = []
        self.ids: set[str] = set()

    def repeats(self, ids: list[str]) -> bool:
        """Whether a hand of `ids` (a part's) is in a part waiting (load those first), by
        its id: a hand of another site with the same id counts too, which only loads the
        waiting parts sooner. A set of Python strings, not pyarrow's `is_in`: importing
        `pyarrow.compute` costs the importing process some 25-120 ms."""
        return bool(self.ids) and not self.ids.isdisjoint(ids)

    def add(self, item: _Item, ids: list[str]) -> None:
        self.items.append(item)
        self.ids.update(ids)

    def take(self) -> list[_Item]:
        """The parts waiting, none left."""
        items, self.items, self.ids = self.items, [], set()
        return items


class _FilesLoad:
    """Loading tasks of whole new files (`_tasks`: small files gathered, or one read whole in
    one part, `_whole_file`): their rows stored with their `imports` rows, loaded
    `LOAD_PARTS` tasks together (one statement a table), in one transaction up to
    `COMMIT_HANDS` hands or `HELD_BYTES` of rows (the tasks are held until it commits;
    measured, compiled, 2,000 ten-hand files of 20,000 hands, the importing process's CPU a
    hand with a commit every three tasks -> every twelve: PokerStars 52.6 ->
    43.3 us, Merge 55.2-55.5 -> 38.6-40.1; with a commit a task it was 40-41 us more). A
    file the worker could not read fails alone. When DuckDB refuses the rows of a task (too
    big for the memory limit, say), the transaction is rolled back and each task under way
    stored again in one of its own, a task refused again file by file, so that only the file
    at fault fails (none of them has an `imports` row: the next import reads them again). The
    files are counted, and reported (`on_file`), when their transaction is committed; an
    error of the database file itself, or Ctrl-C, is raised (`abandon` rolls back)."""

    def __init__(
        self,
        summary: ImportSummary,
        on_file: Callable[[FilePlan, dict[str, int], int, list[Unreadable]], None] | None,
        after_commit: Callable[..., None] | None,
    ) -> None:
        self.summary = summary
        self.on_file = on_file
        self.after_commit = after_commit
        self.held: list[_FilesTask] = []
        """The tasks since the last commit, in order (with those that stored nothing)."""
        self.parts = 0
        """Tasks stored in the transaction under way (0: none under way)."""
        self.waiting: _Waiting[_FilesTask] = _Waiting()
        """The tasks of the transaction under way not loaded yet (`_flush`)."""
        self.hands = 0
        """Hands read into the transaction under way (`COMMIT_HANDS`)."""
        self.held_bytes = 0
        """The bytes of the rows of the tasks held since the last commit (`HELD_BYTES`)."""

    def add(
        self,
        connection: Any,
        lock: ImportLock,
        task: Task,
        done: TaskResult,
        ending: bool,
    ) -> None:
        """Store a task's files in the transaction under way (begun if none is): loaded
        `LOAD_PARTS` tasks together, or at once when the import is `ending`."""
        import duckdb

        timings = self.summary.timings
        loads = [_FileLoad(job.plan, timings) for job in task]
        stored = [
            (load, job, result)
            for load, job, result in zip(loads, task, done.results, strict=True)
            if result.error is None
        ]
        for load, result in zip(loads, done.results, strict=True):
            load.failure = result.error
        item = _FilesTask(loads, stored, done.tables)
        self.held.append(item)
        if not stored:
            if not self.parts:
                self._finish()
            return
        if not self.parts:
            lock.resume()
            try:
                connection.execute("BEGIN TRANSACTION")
            except BaseException:
                lock.pause()
                raise
        self.parts += 1
        ids = _hand_ids(done.tables)
        try:
            if self.waiting.repeats(ids):
                self._flush(connection)  # a hand of a file waiting: its first copy goes in first
        except duckdb.Error as error:
            if _fatal(error):
                raise
            self._again(connection, lock)
            return
        self.waiting.add(item, ids)
        self.hands += len(ids)
        self.held_bytes += _size(done.tables)
        if self.hands >= COMMIT_HANDS or self.held_bytes >= HELD_BYTES:
            self.commit(connection, lock)
        elif ending or len(self.waiting.items) >= LOAD_PARTS:
            try:
                self._flush(connection)
            except duckdb.Error as error:
                if _fatal(error):
                    raise
                self._again(connection, lock)

    def _flush(self, connection: Any) -> None:
        """Load the tasks waiting, in the transaction under way, with their files' `imports`
        rows: their rows together (one statement a table), as a big file's ranges are."""
        waiting = self.waiting.take()
        if not waiting:
            return
        timings = self.summary.timings
        joined = _joined([item.tables for item in waiting])
        if joined is None:
            for item in waiting:
                item.new = _store_files(connection, item.stored, item.tables, timings)
            return
        stored = [file for item in waiting for file in item.stored]
        new = _store_files(connection, stored, joined, timings)
        for item in waiting:
            item.new = {
                load.plan.path: new[load.plan.path]
                for load, _, _ in item.stored
                if load.plan.path in new
            }

    def commit(self, connection: Any, lock: ImportLock) -> None:
        """Commit the transaction under way, if any (then the summary hook), and count its
        files."""
        import duckdb

        if not self.parts:
            self._finish()
            return
        timings = self.summary.timings
        try:
            self._flush(connection)
            clock = time.process_time()
            connection.execute("COMMIT")
        except duckdb.Error as error:
            if _fatal(error):
                raise
            self._again(connection, lock)
            return
        self._reset()
        _spent(timings, "commit", clock)
        try:
            self._after_commit(connection)
        finally:
            lock.pause()
        self._finish()

    def abandon(self, connection: Any, lock: ImportLock) -> None:
        """Roll the transaction under way back (Ctrl-C, the database failing): its files
        are not counted, and have no `imports` row (the next import reads them)."""
        self.held = []
        self.waiting.take()
        if not self.parts:
            return
        self._reset()
        try:
            store.rollback(connection)
        finally:
            lock.pause()

    def _reset(self) -> None:
        """No transaction under way (committed, or rolled back)."""
        self.parts = self.hands = self.held_bytes = 0

    def _again(self, connection: Any, lock: ImportLock) -> None:
        """The transaction under way was refused: rolled back, and each of its tasks
        stored again in a transaction of its own (a task refused again file by file)."""
        import duckdb

        self._reset()
        self.waiting.take()
        timings = self.summary.timings
        try:
            store.rollback(connection)
            for item in self.held:
                if not item.stored:
                    continue
                try:
                    item.new = _commit_files(connection, item.stored, item.tables, timings)
                except duckdb.Error as error:
                    if _fatal(error):
                        raise
                    item.new = _commit_each(connection, item.stored, item.tables, timings, error)
            self._after_commit(connection)
        finally:
            lock.pause()
        self._finish()

    def _after_commit(self, connection: Any) -> None:
        """The summary hook, after a commit; an error of it (other than of the database
        file) fails the files just committed."""
        import duckdb

        if self.after_commit is None:
            return
        clock = time.process_time()
        try:
            self.after_commit(connection)
        except duckdb.Error as error:
            if _fatal(error):
                raise
            reason = _refusal(error)
            for item in self.held:
                for load, _, _ in item.stored:
                    load.failure = load.failure or reason
        finally:
            self.summary.add_timings({"summary": time.process_time() - clock})

    def _finish(self) -> None:
        """Count, and report, the files of the tasks held (committed, or failed)."""
        held, self.held = self.held, []
        for item in held:
            for load, _, result in item.stored:
                if load.failure is not None:
                    continue
                load.new = item.new.get(load.plan.path, 0)
                load.line_reached = result.line_reached
                load.totals = dict(result.counts)
                load.unreadable = unreadable(item.tables, load.plan.path)
            for load in item.loads:
                load.finish(self.summary, self.on_file)


@dataclass
class _FilesTask:
    """A task of small files in `_FilesLoad`: each file's load, those the worker read
    (with their job and result), the task's rows and the new hands of each file stored."""

    loads: list[_FileLoad]
    stored: list[tuple[_FileLoad, Job, PartResult]]
    tables: dict[str, Any]
    new: dict[str, int] = field(default_factory=dict)


def _commit_each(
    connection: Any,
    stored: list[tuple[_FileLoad, Job, PartResult]],
    tables: dict[str, Any],
    timings: dict[str, float],
    error: Exception,
) -> dict[str, int]:
    """When the rows of a task of files cannot be stored together: each file's alone, in
    a transaction of its own, so that only the file at fault fails (named, with the
    reason); the new hands of each file stored, by path."""
    import duckdb
    import pyarrow as pa
    import pyarrow.compute as pc

    new: dict[str, int] = {}
    blocks_stored: set[int] = set()  # a block of texts is shared by files (`read_files`)
    for item in stored:
        load = item[0]
        own = _tables_of(tables, load.plan.path)
        blocks = own.get("text_blocks")
        if blocks is not None and blocks_stored:
            done = pa.array(sorted(blocks_stored), pa.int64())
            blocks = blocks.filter(pc.invert(pc.is_in(blocks.column("block"), done)))
            own["text_blocks"] = blocks
        try:
            new |= _commit_files(connection, [item], own, timings)
            if blocks is not None:
                blocks_stored.update(blocks.column("block").to_pylist())
        except duckdb.Error as failure:
            if _fatal(failure):
                raise
            load.failure = _refusal(failure)
    return new


def _tables_of(tables: dict[str, Any], path: str) -> dict[str, Any]:
    """The rows of one file among a task's `tables`."""
    import pyarrow.compute as pc

    own: dict[str, Any] = {}
    hands = tables.get("hands")
    for name in ("hands", "parse_errors", "skipped"):
        table = tables.get(name)
        if table is not None:
            own[name] = table.filter(pc.equal(table.column("file"), path))
    if hands is None:
        return own
    sites = pc.unique(own["hands"].column("site"))
    ids = own["hands"].column("hand_id")
    for name in store.TABLES:
        table = tables.get(name)
        if name != "hands" and table is not None:
            mine = pc.and_(
                pc.is_in(table.column("site"), sites), pc.is_in(table.column("hand_id"), ids)
            )
            own[name] = table.filter(mine)
    blocks = tables.get("text_blocks")
    if blocks is not None and "hand_texts" in own:
        used = pc.unique(own["hand_texts"].column("block"))
        own["text_blocks"] = blocks.filter(pc.is_in(blocks.column("block"), used))
    return {name: table for name, table in own.items() if table.num_rows}


def _commit_files(
    connection: Any,
    stored: list[tuple[_FileLoad, Job, PartResult]],
    tables: dict[str, Any],
    timings: dict[str, float],
) -> dict[str, int]:
    """Store the rows of files (`_store_files`) in a transaction of their own; the new
    hands of each file, by path."""
    connection.execute("BEGIN TRANSACTION")
    try:
        new = _store_files(connection, stored, tables, timings)
        clock = time.process_time()
        connection.execute("COMMIT")
    except BaseException:
        store.rollback(connection)
        raise
    _spent(timings, "commit", clock)
    return new


def _store_files(
    connection: Any,
    stored: list[tuple[_FileLoad, Job, PartResult]],
    tables: dict[str, Any],
    timings: dict[str, float],
) -> dict[str, int]:
    """Store the rows of whole new files read in one task, and their `imports` rows, in
    the transaction under way; the new hands of each file, by path."""
    import pyarrow as pa

    clock = time.process_time()
    added = store.load(connection, tables)
    clock = _spent(timings, "load", clock)
    hands = tables.get("hands")
    if hands is None:
        new: dict[str, int] = {}
    elif added == sum(r.counts["hands"] for _, _, r in stored):  # every hand new
        new = {load.plan.path: result.counts["hands"] for load, _, result in stored}
    elif added == hands.num_rows:  # every row new: a hand repeated in the task is its first file's
        new = dict(Counter(hands.column("file").to_pylist()))
    else:
        new = _new_by_file(connection, hands)
    finished = datetime.now(UTC)
    rows = pa.table(
        {
            "path": [load.key for load, _, _ in stored],
            "size": pa.array([_digest(job, result)[0] for _, job, result in stored], pa.int64()),
            "sha256": [_digest(job, result)[1] for _, job, result in stored],
            "line_reached": pa.array(
                [max(load.line_reached, r.line_reached) for load, _, r in stored], pa.int64()
            ),
            "hands": pa.array([r.counts["hands"] for _, _, r in stored], pa.int64()),
            "new_hands": pa.array(
                [new.get(load.plan.path, 0) for load, _, _ in stored], pa.int64()
            ),
            "started_at": pa.array(
                [load.started for load, _, _ in stored], pa.timestamp("us", tz="UTC")
            ),
            "finished_at": pa.array([finished] * len(stored), pa.timestamp("us", tz="UTC")),
        }
    )
    connection.register("batch_imports", rows)
    try:
        connection.execute(
            "INSERT INTO imports (path, size, sha256, line_reached, hands, new_hands, "
            "started_at, finished_at) SELECT path, size, sha256, line_reached, hands, "
            "new_hands, started_at, finished_at FROM batch_imports"
        )
    finally:
        connection.unregister("batch_imports")
    _spent(timings, "commit", clock)
    return new


def _new_by_file(connection: Any, hands: Any) -> dict[str, int]:
    """The new hands of a task of files by file (after `store.load`, whose `new_hands` it
    reads): a hand repeated in the task counts for the first file that holds it."""
    connection.register("batch_file_hands", hands.select(["site", "hand_id", "file"]))
    try:
        rows = connection.execute("""
            SELECT first_file, count(*) FROM (
                SELECT b.site, b.hand_id, arg_min(b.file, b.seq) AS first_file
                FROM (SELECT *, row_number() OVER () AS seq FROM batch_file_hands) b
                SEMI JOIN new_hands n ON n.site = b.site AND n.hand_id = b.hand_id
                GROUP BY b.site, b.hand_id)
            GROUP BY first_file""").fetchall()
    finally:
        connection.unregister("batch_file_hands")
    return {file: int(count) for file, count in rows}


LOAD_PARTS = 3
"""A big file's ranges, and the tasks of small files, loaded together (`_FileLoad._flush`,
`_FilesLoad._flush`: one statement a table for all of them; measured, 20,000 PokerStars
hands in ranges of 8 MB, DuckDB's load 17.2-17.7 us a hand a part at a time, 12.8-13.1
three together)."""

COMMIT_HANDS = int(os.environ.get("HANDLOG_COMMIT_HANDS", 25_000))
"""A big file's ranges are committed once they hold this many hands (and at the file's
end): a file of fewer is one transaction. DuckDB writes the rows of a transaction that fill
a row group (122,880) straight to the database file, and those of a smaller one to its
write-ahead log first and to the file again at the checkpoint; the last ranges of a file are
short (`reader.hand_ranges`), so a transaction every three ranges wrote the file's last
fifth or so twice. Measured, 20,000 replicated hands in ranges of 8 MB, DuckDB's CPU a hand
(load, commits, the checkpoint on closing), a commit every three ranges -> one: PokerStars
29.7-29.9 -> 26.7-27.0 us, Merge (1,677 hands a range) 33.7-35.9 -> 23.9-25.1. (A commit a
range cost 66-69 us.) A bigger transaction holds more of DuckDB's memory: 100,000
PokerStars hands, the importing process's CPU a hand and its peak memory, three ranges a
commit (~11,000 hands) 43.3 us and 354 MB, 12,000 hands 38.0 us and 328 MB, 25,000 36.2 us
and 374 MB, 50,000 33.2 us and 461 MB. An import killed part way keeps what was
committed: the next goes on from there."""

HELD_BYTES = 96 << 20
"""The tasks of small files stored in one transaction hold up to this many bytes of rows
(`_FilesLoad` keeps them until it commits, to store them again one by one if it is refused):
some 23,000 PokerStars hands, 28,000 of Merge's. Measured, 2,000 ten-hand PokerStars files:
the importing process's CPU 48-49 us a hand at 64 MB, 45-46 at 96, its peak memory 271-277
MB either way."""


def _size(tables: dict[str, Any]) -> int:
    """The bytes of a part's Arrow tables (Python rows, `store.Rows`, of a few hands in this
    process: not counted)."""
    return sum(getattr(table, "nbytes", 0) for table in tables.values())


class _FileLoad:
    """Loading one file, part by part. Its parts are stored in transactions of some
    `COMMIT_HANDS` hands (a file of fewer: one), each with the file's `imports` row saying
    how far it got (bytes, their SHA-256, the last hand's line): an import killed between
    commits leaves a file that looks as if it had grown since, and the next import goes on
    from there. The parts are loaded `LOAD_PARTS` together (`_flush`: one statement a table
    for all of them), and as the transaction commits, or earlier when a part holds a hand
    of one waiting (the earlier copy goes in first, as when each part was loaded as it
    came): this process holds no more than that many parts' rows (DuckDB writes a big
    transaction's rows to the database file as they fill its row groups). The counts
    (`totals`, `new`, ...) include the parts of the transaction under way; what was
    committed is kept aside until the next commit (`_saved`), and is what they go back to
    when the transaction cannot be committed.

    A whole new file whose transaction ends with it under `COMMIT_HANDS` hands (its parts'
    rows under `HELD_BYTES`) leaves it under way for the next file (`carried`), whose
    `_FileLoad` takes it on (`before`): a few big files are stored in one transaction, as
    one file of their hands would be. (A transaction that fills no row group goes through
    DuckDB's write-ahead log at its commit, and into the database file again at the
    checkpoint; measured, 20,000 PokerStars hands in four files of 5,000, the importing
    process's commits 28 us a hand, against 6.5-7 for one file of them.) Such a file's parts
    are kept until the transaction commits (`kept`): when DuckDB refuses a later file's rows,
    the transaction is rolled back, and the files before it are stored again, each in a
    transaction of its own (`_store_alone`); only the file at fault fails. The files carried
    are counted, and reported, with the file that commits them (`finish`)."""

    def __init__(
        self, plan: FilePlan, timings: dict[str, float], carried: _FileLoad | None = None
    ) -> None:
        self.plan = plan
        self.timings = timings
        self.before: list[_FileLoad] = []
        """The files before this one whose rows are in the transaction under way, their last
        parts loaded (taken on from `carried`, the file before, which left it under way)."""
        self.settled: list[_FileLoad] = []
        """Files of `before` whose transaction has ended (committed, rolled back), counted and
        reported with this one (`finish`)."""
        if carried is not None:
            self.before = [*carried.before, carried]
            carried.before = []
        self.hands: int = carried.hands if carried is not None else 0
        """Hands read into the transaction under way (`COMMIT_HANDS`), the files' before it
        included."""
        self.carried = False
        """Whether the file's last part is loaded and its transaction left under way for the
        next file."""
        self.kept: list[tuple[Job, PartResult, int]] | None = [] if self._may_carry(plan) else None
        """The parts of the transaction under way, kept to store them again should a later
        file's rows be refused in it; None once they, and those of the files before, hold
        more than `HELD_BYTES` (the file commits at its end, then), or for a file that is not
        whole and new."""
        self.kept_bytes: int = carried.kept_bytes if carried is not None else 0
        """The bytes of the rows of the parts kept (`kept`), the files' before it included."""
        self.key = plan.key or file_key(plan.path)
        self.started = datetime.now(UTC)
        self.totals = dict.fromkeys(COUNTS, 0)
        self.new = 0
        self.replaced = 0
        self.line_reached = plan.start_line
        self.failure: str | None = None
        self.first = True
        self.unreadable: list[Unreadable] = []
        self.parts = 0
        """Parts stored in the transaction under way (0: none under way)."""
        self.waiting: _Waiting[tuple[Job, PartResult, int]] = _Waiting()
        """The parts of the transaction under way not loaded yet, each with the hands it
        replaces (`_flush` loads them)."""
        self.row_stored = plan.imported_before
        """Whether the file has its `imports` row (updated, then; else inserted)."""
        self._saved: tuple[dict[str, int], int, int, int, list[Unreadable], bool] | None = None

    def load(
        self,
        connection: Any,
        lock: ImportLock,
        job: Job,
        result: PartResult,
        on_part: Callable[[FilePlan, int, int], None] | None,
        after_commit: Callable[..., None] | None,
        ending: bool,
    ) -> None:
        """Store one part, committed with the parts before it once the transaction holds
        `COMMIT_HANDS` hands, and at the file's last; loaded `LOAD_PARTS` together, or at
        once when the import is `ending`. A part that cannot be stored (its rows too big for
        the memory limit, say) fails its file (the parts of the transaction under way with
        it), which is reported, and the import goes on with the next file; an error of the
        database file itself is raised."""

        first, self.first = self.first, False
        if self.failure is not None:
            return  # the rest of a failed file is read but not stored
        if result.error is not None:
            self.failure = result.error
            self.commit(connection, lock, after_commit)  # the parts before it are stored
            return
        try:
            if not self.parts:
                self._saved = (
                    dict(self.totals),
                    self.new,
                    self.replaced,
                    self.line_reached,
                    list(self.unreadable),
                    self.row_stored,
                )
                if not self.before:  # else it is under way, the files' before
                    lock.resume()
                    connection.execute("BEGIN TRANSACTION")
            self.parts += 1
            ids = _hand_ids(result.tables)
            if self.waiting.repeats(ids):
                self._flush(connection)
            replaced = self._prepare(connection, result, first)
        except BaseException as error:
            self._refused(connection, lock, error)
            return
        self.waiting.add((job, result, replaced), ids)
        if self.kept is not None:
            self.kept.append((job, result, replaced))
            self.kept_bytes += _size(result.tables)
            if self.kept_bytes > HELD_BYTES:
                self.kept = None
        self.replaced += replaced
        self.line_reached = max(self.line_reached, result.line_reached)
        self.unreadable += unreadable(result.tables)
        for name, value in result.counts.items():
            self.totals[name] += value
        self.hands += result.counts["hands"]
        if job.last and not ending and self.kept is not None and self.hands < COMMIT_HANDS:
            try:
                self._flush(connection)  # the transaction goes on with the next file
            except BaseException as error:
                self._refused(connection, lock, error)
                return
            self.carried = True
        elif job.last or self.hands >= COMMIT_HANDS:
            self.commit(connection, lock, after_commit)
        elif ending or len(self.waiting.items) >= LOAD_PARTS:
            try:
                self._flush(connection)
            except BaseException as error:
                self._refused(connection, lock, error)
                return
        if on_part is not None and self.failure is None:
            on_part(self.plan, result.counts["hands"], job.end)

    def commit(
        self, connection: Any, lock: ImportLock, after_commit: Callable[..., None] | None
    ) -> None:
        """Load the parts waiting and commit the transaction under way, if any (then the
        summary hook)."""
        import duckdb

        if not self.parts and not self.before:
            return
        try:
            self._flush(connection)
            clock = time.process_time()
            connection.execute("COMMIT")
        except BaseException as error:
            self._refused(connection, lock, error)
            return
        self.parts = self.hands = 0
        self.carried = False
        self.settled += self.before
        self.before = []
        for load in self.settled:
            load.kept = None
        if self.kept is not None:
            self.kept = []
        self.kept_bytes = 0
        self._spent("commit", clock)
        try:
            if after_commit is not None:
                clock = time.process_time()
                after_commit(connection)
                self._spent("summary", clock)
        except duckdb.Error as error:
            if _fatal(error):
                raise
            self.failure = _refusal(error)
        finally:
            lock.pause()

    def end(
        self,
        connection: Any,
        lock: ImportLock,
        after_commit: Callable[..., None] | None,
        summary: ImportSummary,
        on_file: Callable[[FilePlan, dict[str, int], int, list[Unreadable]], None] | None,
    ) -> None:
        """End the transaction the file left under way (`carried`) with no other file to go
        on with: committed, and the file counted (`finish`)."""
        self.commit(connection, lock, after_commit)
        self.finish(summary, on_file)

    def _refused(self, connection: Any, lock: ImportLock, error: BaseException) -> None:
        """The transaction under way failed: rolled back, and its file fails when DuckDB
        refused its rows (the files before it in the transaction are stored again, each
        alone); any other error (of the database file itself, Ctrl-C) is raised."""
        import duckdb

        before = self.abandon(connection, lock)
        if not isinstance(error, duckdb.Error) or _fatal(error):
            raise error
        self.failure = _refusal(error)
        for load in before:
            load._store_alone(connection, lock)

    def abandon(self, connection: Any, lock: ImportLock) -> list[_FileLoad]:
        """Roll the transaction under way back; the counts go back to what was committed (the
        files' before it in the transaction too: returned, settled)."""
        self.waiting.take()
        before, self.before = self.before, []
        self.settled += before
        self.carried = False
        if not self.parts and not before:
            return before
        self.parts = self.hands = 0
        try:
            store.rollback(connection)
        finally:
            lock.pause()
        for load in (*before, self):
            load._undo()
        return before

    def _undo(self) -> None:
        """The counts back to what was committed, the transaction under way rolled back."""
        if self._saved is None:
            return
        totals, self.new, self.replaced, self.line_reached, self.unreadable, stored = self._saved
        self.totals = totals
        self.row_stored = stored

    def _store_alone(self, connection: Any, lock: ImportLock) -> None:
        """A file whose last part was loaded in a transaction that a later file's rows made
        DuckDB refuse: its parts (`kept`) stored again in a transaction of their own; it fails
        if they are refused too."""
        import duckdb

        kept, self.kept = self.kept or [], None
        saved = self._saved
        assert saved is not None
        lock.resume()
        try:
            connection.execute("BEGIN TRANSACTION")
            # The counts of the parts kept, as `load` made them (`_undo` took them back).
            for job, result, replaced in kept:
                self.waiting.add((job, result, replaced), [])
                self.line_reached = max(self.line_reached, result.line_reached)
                self.unreadable += unreadable(result.tables)
                for name, value in result.counts.items():
                    self.totals[name] += value
            self._flush(connection)
            clock = time.process_time()
            connection.execute("COMMIT")
            self._spent("commit", clock)
        except BaseException as error:
            self.waiting.take()
            store.rollback(connection)
            self._undo()
            if not isinstance(error, duckdb.Error) or _fatal(error):
                raise
            self.failure = _refusal(error)
        finally:
            lock.pause()

    @staticmethod
    def _may_carry(plan: FilePlan) -> bool:
        """Whether a file's transaction may go on with the next file: a whole new file's (no
        rows of its own to delete first, its `imports` row inserted)."""
        return plan.start_line <= 1 and not plan.imported_before and not plan.replaces

    def _prepare(self, connection: Any, result: PartResult, first: bool) -> int:
        """What goes before a part's rows in the transaction under way: the rows its hands
        replace (`FilePlan.replaces`) deleted; how many hands."""
        plan = self.plan
        clock = time.process_time()
        replaced = 0
        if first and plan.start_line > 1:
            # The last hand is read again: a parse error it had while half written goes.
            connection.execute(
                "DELETE FROM parse_errors WHERE file = ? AND line >= ?",
                [plan.path, plan.start_line],
            )
        if plan.replaces:
            if first:  # what the file's text was found to hold before goes
                for table in ("parse_errors", "skipped"):
                    connection.execute(f"DELETE FROM {table} WHERE file = ?", [plan.path])
            replaced = _forget_replaced(connection, result.tables, self.key)
        self._spent("commit", clock)
        return replaced

    def _flush(self, connection: Any) -> None:
        """Load the parts waiting, in the transaction under way, with the file's `imports`
        row as of the last of them (the counts include them all by then)."""
        waiting = self.waiting.take()
        if not waiting:
            return
        clock = time.process_time()
        parts = [result.tables for _, result, _ in waiting]
        added = _load_parts(connection, parts) - sum(replaced for *_, replaced in waiting)
        clock = self._spent("load", clock)
        job, result, _ = waiting[-1]
        self.new += added
        row = [
            *_digest(job, result),
            self.line_reached,
            self.totals["hands"],
            self.new,
            self.started,
            datetime.now(UTC),
            self.key,
        ]
        # The file's row is there when it was imported before or a part of it is stored:
        # updated then, else inserted (INSERT OR REPLACE costs DuckDB three times as much,
        # a good share of the time a small file takes).
        if self.row_stored:
            connection.execute(
                "UPDATE imports SET size = ?, sha256 = ?, line_reached = ?, hands = ?, "
                "new_hands = ?, started_at = ?, finished_at = ? WHERE path = ?",
                row,
            )
        else:
            connection.execute(
                "INSERT INTO imports (size, sha256, line_reached, hands, new_hands, "
                "started_at, finished_at, path) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            self.row_stored = True
        self._spent("commit", clock)

    def _spent(self, stage: str, since: float) -> float:
        return _spent(self.timings, stage, since)

    def finish(
        self,
        summary: ImportSummary,
        on_file: Callable[[FilePlan, dict[str, int], int, list[Unreadable]], None] | None,
    ) -> None:
        """Count the file in `summary` and report it (`on_file`), after the files carried
        into its transaction."""
        settled, self.settled = self.settled, []
        for load in settled:
            load.finish(summary, on_file)
        totals = self.totals
        if self.failure is not None:
            summary.failed.append((self.plan.path, self.failure))
        summary.hands += totals["hands"]
        summary.new_hands += self.new
        summary.replaced += self.replaced
        summary.duplicates += totals["hands"] - self.new - self.replaced
        summary.flagged_illegal += totals["illegal"]
        summary.flagged_mis_split += totals["mis_split"]
        summary.flagged_inconsistent += totals["inconsistent"]
        summary.unparsed += totals["unparsed"]
        summary.skipped += totals["skipped"]
        if on_file is not None and self.failure is None:
            on_file(self.plan, {**totals, "replaced": self.replaced}, self.new, self.unreadable)


def _forget_replaced(connection: Any, tables: dict[str, Any], key: str) -> int:
    """Delete the stored rows of the hands of `tables` that the file known as `key` stored
    before (it changed since: the versions read now go in instead); how many hands."""
    hands = tables.get("hands")
    if hands is None:
        return 0
    keys = hands.select(["site", "hand_id"])
    store.register(connection, "batch_keys", keys)
    try:
        files = connection.execute(
            "SELECT DISTINCT h.file FROM hands h "
            "SEMI JOIN batch_keys b ON h.site = b.site AND h.hand_id = b.hand_id"
        ).fetchall()
        # Stored under the path the file was given by (relative, perhaps): the same file?
        ours = [file for (file,) in files if file is not None and file_key(file) == key]
        if not ours:
            return 0
        connection.execute(
            "CREATE OR REPLACE TEMP TABLE replaced_hands AS SELECT DISTINCT h.site, h.hand_id "
            "FROM hands h SEMI JOIN batch_keys b ON h.site = b.site AND h.hand_id = b.hand_id "
            "WHERE list_contains(?, h.file)",
            [ours],
        )
        for name in store.TABLES:
            connection.execute(
                f"DELETE FROM {name} t USING replaced_hands r "
                "WHERE t.site = r.site AND t.hand_id = r.hand_id"
            )
        # fetchall: a result left unfinished would hold the connection for the next query
        return int(connection.execute("SELECT count(*) FROM replaced_hands").fetchall()[0][0])
    finally:
        store.unregister(connection, "batch_keys", keys)
