"""`handlog import`: parse, replay and load files into the store, each file once.

A file whose bytes are unchanged since its last import is skipped by its SHA-256. A file
that grew (its old bytes hash as before: a session still being played) is read again from
the start of its last hand; hands already stored are not stored twice. Files are cut into
ranges of whole hands that worker processes parse and replay; the parent loads each range
in one transaction with the file's `imports` row, which records how far the file got.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from handlog import store
from handlog.parse.reader import ZIP_ENTRY, ByteRange, hand_ranges, open_binary

HASH_BLOCK = 1 << 20


RANGE_BYTES = int(os.environ.get("HANDLOG_RANGE_BYTES", 8 << 20))
"""Files are cut into ranges of whole hands of about this size (some 3,500 hands), each
parsed and replayed by a worker: both cores work on one big file, and memory holds only a
few ranges' rows at a time."""


DUCKDB_MEMORY_LIMIT = os.environ.get("HANDLOG_DUCKDB_MEMORY", "128MB")
"""The most memory DuckDB may take in the importing process (its buffer pool)."""


@dataclass(frozen=True)
class FilePlan:
    """What to read of one file."""

    path: str
    size: int
    sha256: str
    start_line: int
    parts: tuple[ByteRange | None, ...]
    """The ranges to read; a single None means the whole file, streamed (UTF-16)."""
    checkpoints: tuple[tuple[int, str], ...]
    """For each part: the file's size and SHA-256 up to the part's end, recorded with it."""


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


def prefix_hashes(path: str, ends: list[int]) -> list[str]:
    """SHA-256 of the first `end` bytes of the file for each of `ends` (ascending), in one
    read."""
    digest = hashlib.sha256()
    found = []
    done = 0
    with open_binary(path) as handle:
        for end in ends:
            while done < end:
                block = handle.read(min(HASH_BLOCK, end - done))
                if not block:
                    break
                digest.update(block)
                done += len(block)
            found.append(digest.copy().hexdigest())
    return found


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
    counts = {"hands": 0, "illegal": 0, "mis_split": 0, "unparsed": 0, "skipped": 0}
    line_reached = start_line
    items = parse_file(path, start_line) if part is None else parse_range(path, part)
    try:
        for checked in check_items(items, path, profile):
            line_reached = max(line_reached, checked.first_line)
            store.add_checked(batch, checked)
            if checked.replay is not None:
                counts["hands"] += 1
                counts["illegal"] += checked.replay.illegal
                counts["mis_split"] += checked.replay.mis_split
            elif checked.error is not None:
                counts["unparsed"] += 1
            else:
                counts["skipped"] += 1
    except OSError as error:
        return PartResult(path, {}, counts, start_line, f"cannot read: {error.strerror or error}")
    return PartResult(path, batch.arrow(), counts, line_reached)


def import_paths(
    files: list[str],
    db_path: Path,
    profile_name: str | None = None,
    workers: int | None = None,
    on_file: Callable[[FilePlan, dict[str, int], int], None] | None = None,
    on_part: Callable[[FilePlan, int], None] | None = None,
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
        plans = []
        for path in files:
            summary.files += 1
            plan = _plan(connection, path, summary)
            if plan is not None:
                plans.append(plan)
        results = _run(plans, profile_name, workers)
        for plan in plans:
            _import_file(connection, plan, results, summary, on_file, on_part)
    finally:
        connection.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _plan(connection: Any, path: str, summary: ImportSummary) -> FilePlan | None:
    """What to read of a file: None if unchanged (or unreadable, noted in the summary)."""
    try:
        return _plan_file(connection, path, summary)
    except OSError as error:
        summary.failed.append((path, f"cannot read: {error.strerror or error}"))
        return None


def _plan_file(connection: Any, path: str, summary: ImportSummary) -> FilePlan | None:
    from handlog.parse.pokerstars import HEADER_BYTES

    size = _size(path)
    row = connection.execute(
        "SELECT size, sha256, line_reached FROM imports WHERE path = ?", [_key(path)]
    ).fetchone()
    start_line = 1
    sha256 = None
    if row is not None:  # imported before: unchanged, grown, or replaced?
        old_size, old_sha, line_reached = row
        sha256 = file_hash(path)
        if old_sha == sha256:
            summary.unchanged += 1
            return None
        if size > old_size and file_hash(path, old_size) == old_sha:
            start_line = int(line_reached)  # grown: from its last hand on
    ranges = hand_ranges(path, HEADER_BYTES, RANGE_BYTES, start_line)
    if not ranges:
        sha256 = sha256 or file_hash(path)
        return FilePlan(path, size, sha256, start_line, (None,), ((size, sha256),))
    ends = [part.end for part in ranges]
    # The last range ends at the end of the file: its prefix hash is the file's hash, so a
    # new file is read once for its ranges and once for its hashes, not three times.
    checkpoints = tuple(zip(ends, prefix_hashes(path, ends), strict=True))
    return FilePlan(path, size, checkpoints[-1][1], start_line, tuple(ranges), checkpoints)


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
    plans: list[FilePlan], profile_name: str | None, workers: int | None
) -> Iterator[PartResult]:
    """Every part of every file, in order, parsed and replayed by worker processes; at most
    two parts per worker are under way or waiting, to bound memory."""
    jobs = [(plan.path, part, plan.start_line) for plan in plans for part in plan.parts]
    count = min(workers or os.cpu_count() or 1, len(jobs))
    if count <= 1:
        for job in jobs:
            yield _work(*job, profile_name)
        return
    with ProcessPoolExecutor(max_workers=count) as pool:
        pending: deque[Future[PartResult]] = deque()
        queued = iter(jobs)
        for job in queued:
            pending.append(pool.submit(_work, *job, profile_name))
            if len(pending) >= 2 * count:
                break
        while pending:
            result = pending.popleft().result()
            following = next(queued, None)
            if following is not None:
                pending.append(pool.submit(_work, *following, profile_name))
            yield result


def _import_file(
    connection: Any,
    plan: FilePlan,
    results: Iterator[PartResult],
    summary: ImportSummary,
    on_file: Callable[[FilePlan, dict[str, int], int], None] | None,
    on_part: Callable[[FilePlan, int], None] | None = None,
) -> None:
    """Load a file range by range. Each range commits in one transaction with the file's
    `imports` row saying how far it got (bytes, their SHA-256, the last hand's line): an
    import killed between ranges leaves a file that looks as if it had grown since, and the
    next import goes on from there. (One transaction for a whole file would hold all its
    rows in memory: 1.3 GB for 100,000 hands.)"""
    key = _key(plan.path)
    started = datetime.now(UTC)
    totals = {"hands": 0, "illegal": 0, "mis_split": 0, "unparsed": 0, "skipped": 0}
    new = 0
    line_reached = plan.start_line
    failure = None
    for index, (size, sha256) in enumerate(plan.checkpoints):
        result = next(results)
        if failure is not None:
            continue  # the rest of a failed file is read but not stored
        if result.error is not None:
            failure = result.error
            continue
        connection.execute("BEGIN TRANSACTION")
        try:
            if index == 0 and plan.start_line > 1:
                # The last hand is read again: a parse error it had while half written goes.
                connection.execute(
                    "DELETE FROM parse_errors WHERE file = ? AND line >= ?",
                    [plan.path, plan.start_line],
                )
            added = store.load(connection, result.tables)
            reached = max(line_reached, result.line_reached)
            connection.execute(
                "INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    key,
                    size,
                    sha256,
                    reached,
                    totals["hands"] + result.counts["hands"],
                    new + added,
                    started,
                    datetime.now(UTC),
                ],
            )
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        new += added
        line_reached = reached
        if on_part is not None:
            on_part(plan, result.counts["hands"])
        for name, value in result.counts.items():
            totals[name] += value
    if failure is not None:
        summary.failed.append((plan.path, failure))
    summary.hands += totals["hands"]
    summary.new_hands += new
    summary.duplicates += totals["hands"] - new
    summary.flagged_illegal += totals["illegal"]
    summary.flagged_mis_split += totals["mis_split"]
    summary.unparsed += totals["unparsed"]
    summary.skipped += totals["skipped"]
    if on_file is not None and failure is None:
        on_file(plan, totals, new)
