"""`handlog import`: parse, replay and load files into the store, each file once.

A file whose bytes are unchanged since its last import is skipped by its SHA-256. A file
that grew (its old bytes hash as before: a session still being played) is read again from
the start of its last hand; hands already stored are not stored twice. Files are cut into
ranges of whole hands that worker processes parse and replay; the parent loads each range
in one transaction with the file's `imports` row, which records how far the file got.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from handlog import store
from handlog.parse.reader import ZIP_ENTRY, ByteRange, cuttable, hand_ranges, open_binary

HASH_BLOCK = 1 << 20


RANGE_BYTES = int(os.environ.get("HANDLOG_RANGE_BYTES", 8 << 20))
"""Files are cut into ranges of whole hands of about this size (some 3,500 hands), each
parsed and replayed by a worker: both cores work on one big file, and memory holds only a
few ranges' rows at a time."""


DUCKDB_MEMORY_LIMIT = os.environ.get("HANDLOG_DUCKDB_MEMORY", "128MB")
"""The most memory DuckDB may take in the importing process (its buffer pool)."""


@dataclass(frozen=True)
class FilePlan:
    """A file to read, from the hand at `start_line` on."""

    path: str
    size: int
    start_line: int


@dataclass(frozen=True)
class Job:
    """One part of a file for a worker, with what its `imports` row records."""

    plan: FilePlan
    part: ByteRange | None
    """A range of whole hands; None: the whole file, streamed (UTF-16, archive entries)."""
    end: int
    """The file's bytes up to the part's end..."""
    sha256: str
    """...and their SHA-256."""
    last: bool
    """The file's last part."""
    error: str | None = None
    """The file could not be read on from here: nothing for a worker to do."""


COUNTS = ("hands", "illegal", "mis_split", "unparsed", "skipped")
"""What a worker counts in a part of a file (`PartResult.counts`)."""


@dataclass
class PartResult:
    """What a worker made of one range of a file."""

    path: str
    tables: dict[str, Any]
    counts: dict[str, int]
    line_reached: int
    error: str | None = None


@dataclass
class ImportSummary:
    files: int = 0
    unchanged: int = 0
    hands: int = 0
    new_hands: int = 0
    duplicates: int = 0
    flagged_illegal: int = 0
    flagged_mis_split: int = 0
    unparsed: int = 0
    skipped: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def file_hash(path: str, limit: int | None = None) -> str:
    """SHA-256 of the file, or of its first `limit` bytes."""
    digest = hashlib.sha256()
    remaining = limit
    with open_binary(path) as handle:
        while remaining is None or remaining > 0:
            block = handle.read(HASH_BLOCK if remaining is None else min(HASH_BLOCK, remaining))
            if not block:
                break
            digest.update(block)
            if remaining is not None:
                remaining -= len(block)
    return digest.hexdigest()


def _work(
    path: str, part: ByteRange | None, start_line: int, profile_name: str | None
) -> PartResult:
    """In a worker: parse and replay one range of a file, return its rows as Arrow tables."""
    import gc

    from handlog.check import check_items
    from handlog.parse import parse_file, parse_range
    from handlog.rules.profiles import get_profile

    gc.set_threshold(50_000, 20, 100)  # many small acyclic records: see handlog.cli
    profile = get_profile(profile_name) if profile_name else None
    batch = store.Batch()
    counts = dict.fromkeys(COUNTS, 0)
    line_reached = start_line
    flagged = []  # hands whose evidence is kept (handlog.evidence)
    items = parse_file(path, start_line) if part is None else parse_range(path, part)
    try:
        for checked in check_items(items, path, profile):
            line_reached = max(line_reached, checked.first_line)
            store.add_checked(batch, checked)
            if checked.replay is not None:
                counts["hands"] += 1
                counts["illegal"] += checked.replay.illegal
                counts["mis_split"] += checked.replay.mis_split
                if checked.replay.violations:
                    flagged.append(checked)
            elif checked.error is not None:
                counts["unparsed"] += 1
            else:
                counts["skipped"] += 1
        if flagged:
            from handlog.evidence import add_evidence

            add_evidence(batch, path, part, flagged, profile)
    except OSError as error:
        return PartResult(path, {}, counts, start_line, f"cannot read: {error.strerror or error}")
    return PartResult(path, batch.arrow(), counts, line_reached)


def import_paths(
    files: list[str],
    db_path: Path,
    profile_name: str | None = None,
    workers: int | None = None,
    on_file: Callable[[FilePlan, dict[str, int], int], None] | None = None,
    on_part: Callable[[FilePlan, int, int], None] | None = None,
) -> ImportSummary:
    """Import `files` into the database at `db_path` (see the module doc)."""
    started = time.perf_counter()
    summary = ImportSummary()
    connection = store.connect(db_path)
    # DuckDB's buffer pool may otherwise grow to most of the machine's memory as it caches
    # the blocks it writes; an import needs only a batch's rows at a time.
    connection.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT}'")
    # One DuckDB thread: the workers keep every core busy parsing, and DuckDB's own threads
    # would only compete with them (and wait for work spinning): measured, a fifth less CPU
    # in this process for the same inserts, and no slower.
    connection.execute("SET threads = 1")
    try:
        # Files are planned, and cut into ranges, one range at a time as the workers need
        # them: the workers start on the first range at once.
        loading: _FileLoad | None = None
        jobs = _jobs(connection, files, summary)
        for job, result in _run(jobs, profile_name, workers or os.cpu_count() or 1):
            if loading is None or loading.plan is not job.plan:
                loading = _FileLoad(job.plan)
            loading.load(connection, job, result, on_part)
            if job.last:
                loading.finish(summary, on_file)
                loading = None
    finally:
        connection.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _jobs(connection: Any, files: list[str], summary: ImportSummary) -> Iterator[Job]:
    """The parts of every file to import, file by file, each file planned and cut when its
    first part is wanted. An unchanged file has none; a file that cannot be read is noted
    in the summary (or, when it fails part way, ends with a part that says why)."""
    for path in files:
        summary.files += 1
        plan = None
        try:
            plan = _plan(connection, path, summary)
            if plan is not None:
                yield from _file_jobs(plan)
        except OSError as error:
            reason = f"cannot read: {error.strerror or error}"
            if plan is None:
                summary.failed.append((path, reason))
            else:
                yield Job(plan, None, 0, "", last=True, error=reason)


def _plan(connection: Any, path: str, summary: ImportSummary) -> FilePlan | None:
    """What to read of a file: None if unchanged since its last import."""
    size = _size(path)
    row = connection.execute(
        "SELECT size, sha256, line_reached FROM imports WHERE path = ?", [_key(path)]
    ).fetchone()
    start_line = 1
    if row is not None:  # imported before: unchanged, grown, or replaced?
        old_size, old_sha, line_reached = row
        if file_hash(path) == old_sha:
            summary.unchanged += 1
            return None
        if size > old_size and file_hash(path, old_size) == old_sha:
            start_line = int(line_reached)  # grown: from its last hand on
    return FilePlan(path, size, start_line)


def _file_jobs(plan: FilePlan) -> Iterator[Job]:
    """A file's parts: its ranges of whole hands as they are cut, each with the SHA-256 of
    the file up to its end (hashed in the same read), or the whole file as one part."""
    from handlog.parse.pokerstars import HEADER_BYTES, HEADER_MARKER

    path = plan.path
    if not cuttable(path):
        yield Job(plan, None, plan.size, file_hash(path), last=True)
        return
    digest = hashlib.sha256()
    held = None  # a range is passed on once the next one shows it is not the last
    for part in hand_ranges(
        path, HEADER_BYTES, HEADER_MARKER, RANGE_BYTES, plan.start_line, digest
    ):
        if held is not None:
            yield held
        held = Job(plan, part, part.end, digest.copy().hexdigest(), last=False)
    if held is None:  # no hand header from the start line on: the file streamed whole
        yield Job(plan, None, plan.size, digest.hexdigest(), last=True)
    else:
        yield replace(held, last=True)


def _key(path: str) -> str:
    """How a file is known in `imports`: its absolute path (an archive entry: the archive's
    absolute path, then the entry)."""
    archive, mark, entry = path.partition(ZIP_ENTRY)
    return str(Path(archive).resolve()) + mark + entry


def _size(path: str) -> int:
    if ZIP_ENTRY in path:
        import zipfile

        archive, _, entry = path.partition(ZIP_ENTRY)
        with zipfile.ZipFile(archive) as opened:
            return opened.getinfo(entry).file_size
    return os.path.getsize(path)


def _run(
    jobs: Iterator[Job], profile_name: str | None, count: int
) -> Iterator[tuple[Job, PartResult]]:
    """Every job with its result, in order, parsed and replayed by `count` worker processes
    (here, for one), started with the first job; at most two jobs per worker are under way
    or waiting, to bound memory. The next job is taken from `jobs` before a result is
    passed on, so that the workers are busy while it is loaded."""
    first = next(jobs, None)
    if first is None:
        return  # nothing to read: no workers to start
    jobs = itertools.chain([first], jobs)
    pool = ProcessPoolExecutor(max_workers=count) if count > 1 else None

    def here(job: Job) -> PartResult:
        if job.error is not None:  # nothing to read
            return PartResult(job.plan.path, {}, dict.fromkeys(COUNTS, 0), 0, job.error)
        return _work(job.plan.path, job.part, job.plan.start_line, profile_name)

    if pool is None:
        for job in jobs:
            yield job, here(job)
        return

    def start(job: Job) -> Future[PartResult]:
        if job.error is None:
            return pool.submit(_work, job.plan.path, job.part, job.plan.start_line, profile_name)
        future: Future[PartResult] = Future()
        future.set_result(here(job))
        return future

    with pool:
        pending: deque[tuple[Job, Future[PartResult]]] = deque()
        for job in jobs:
            pending.append((job, start(job)))
            if len(pending) >= 2 * count:
                break
        while pending:
            job, future = pending.popleft()
            result = future.result()
            following = next(jobs, None)
            if following is not None:
                pending.append((following, start(following)))
            yield job, result


class _FileLoad:
    """Loading one file, part by part. Each part commits in one transaction with the file's
    `imports` row saying how far it got (bytes, their SHA-256, the last hand's line): an
    import killed between parts leaves a file that looks as if it had grown since, and the
    next import goes on from there. (One transaction for a whole file would hold all its
    rows in memory: 1.3 GB for 100,000 hands.)"""

    def __init__(self, plan: FilePlan) -> None:
        self.plan = plan
        self.key = _key(plan.path)
        self.started = datetime.now(UTC)
        self.totals = dict.fromkeys(COUNTS, 0)
        self.new = 0
        self.line_reached = plan.start_line
        self.failure: str | None = None
        self.first = True

    def load(
        self,
        connection: Any,
        job: Job,
        result: PartResult,
        on_part: Callable[[FilePlan, int, int], None] | None,
    ) -> None:
        plan = self.plan
        first, self.first = self.first, False
        if self.failure is not None:
            return  # the rest of a failed file is read but not stored
        if result.error is not None:
            self.failure = result.error
            return
        connection.execute("BEGIN TRANSACTION")
        try:
            if first and plan.start_line > 1:
                # The last hand is read again: a parse error it had while half written goes.
                connection.execute(
                    "DELETE FROM parse_errors WHERE file = ? AND line >= ?",
                    [plan.path, plan.start_line],
                )
            added = store.load(connection, result.tables)
            reached = max(self.line_reached, result.line_reached)
            connection.execute(
                "INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    self.key,
                    job.end,
                    job.sha256,
                    reached,
                    self.totals["hands"] + result.counts["hands"],
                    self.new + added,
                    self.started,
                    datetime.now(UTC),
                ],
            )
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        self.new += added
        self.line_reached = reached
        if on_part is not None:
            on_part(plan, result.counts["hands"], job.end)
        for name, value in result.counts.items():
            self.totals[name] += value

    def finish(
        self,
        summary: ImportSummary,
        on_file: Callable[[FilePlan, dict[str, int], int], None] | None,
    ) -> None:
        totals = self.totals
        if self.failure is not None:
            summary.failed.append((self.plan.path, self.failure))
        summary.hands += totals["hands"]
        summary.new_hands += self.new
        summary.duplicates += totals["hands"] - self.new
        summary.flagged_illegal += totals["illegal"]
        summary.flagged_mis_split += totals["mis_split"]
        summary.unparsed += totals["unparsed"]
        summary.skipped += totals["skipped"]
        if on_file is not None and self.failure is None:
            on_file(self.plan, totals, self.new)
