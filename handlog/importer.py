"""`handlog import`: parse, replay and load files into the store, each file once.

A file whose bytes are unchanged since its last import is skipped by its SHA-256. A file
that grew (its old bytes hash as before: a session still being played) is read again from
the start of its last hand; hands already stored are not stored twice. Parsing and replay
run in worker processes, one file each; the parent loads each file's rows in one
transaction with its `imports` row.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from handlog import store

HASH_BLOCK = 1 << 20


@dataclass
class FileResult:
    """What a worker made of one file."""

    path: str
    size: int
    sha256: str
    start_line: int
    line_reached: int
    batch: store.Batch
    counts: dict[str, int] = field(default_factory=dict)
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
    with open(path, "rb") as handle:
        while remaining is None or remaining > 0:
            block = handle.read(HASH_BLOCK if remaining is None else min(HASH_BLOCK, remaining))
            if not block:
                break
            digest.update(block)
            if remaining is not None:
                remaining -= len(block)
    return digest.hexdigest()


def _work(
    path: str, size: int, sha256: str, start_line: int, profile_name: str | None
) -> FileResult:
    """In a worker: parse and replay one file from `start_line`, gather its rows."""
    import gc

    from handlog.check import check_file
    from handlog.rules.profiles import get_profile

    gc.set_threshold(50_000, 20, 100)  # many small acyclic records: see handlog.cli
    profile = get_profile(profile_name) if profile_name else None
    batch = store.Batch()
    counts = {"hands": 0, "illegal": 0, "mis_split": 0, "unparsed": 0, "skipped": 0}
    line_reached = start_line
    try:
        for checked in check_file(path, profile, start_line=start_line):
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
        return FileResult(
            path,
            size,
            sha256,
            start_line,
            start_line,
            store.Batch(),
            counts,
            f"cannot read: {error.strerror or error}",
        )
    return FileResult(path, size, sha256, start_line, line_reached, batch, counts)


def import_paths(
    files: list[str],
    db_path: Path,
    profile_name: str | None = None,
    workers: int | None = None,
    on_file: Callable[[FileResult, int], None] | None = None,
) -> ImportSummary:
    """Import `files` into the database at `db_path` (see the module doc)."""
    started = time.perf_counter()
    summary = ImportSummary()
    connection = store.connect(db_path)
    try:
        jobs = []
        for path in files:
            summary.files += 1
            job = _plan(connection, path, summary)
            if job is not None:
                jobs.append(job)
        for result in _run(jobs, profile_name, workers):
            if result.error is not None:
                summary.failed.append((result.path, result.error))
                continue
            new = _commit(connection, result)
            counts = result.counts
            summary.hands += counts["hands"]
            summary.new_hands += new
            summary.duplicates += counts["hands"] - new
            summary.flagged_illegal += counts["illegal"]
            summary.flagged_mis_split += counts["mis_split"]
            summary.unparsed += counts["unparsed"]
            summary.skipped += counts["skipped"]
            if on_file is not None:
                on_file(result, new)
    finally:
        connection.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _plan(connection: Any, path: str, summary: ImportSummary) -> tuple[str, int, str, int] | None:
    """What to read of a file: None if unchanged (or unreadable, noted in the summary)."""
    try:
        size = os.path.getsize(path)
        sha256 = file_hash(path)
    except OSError as error:
        summary.failed.append((path, f"cannot read: {error.strerror or error}"))
        return None
    key = str(Path(path).resolve())
    row = connection.execute(
        "SELECT size, sha256, line_reached FROM imports WHERE path = ?", [key]
    ).fetchone()
    if row is not None:
        old_size, old_sha, line_reached = row
        if old_sha == sha256:
            summary.unchanged += 1
            return None
        if size > old_size and file_hash(path, old_size) == old_sha:
            return path, size, sha256, int(line_reached)  # grown: from its last hand on
    return path, size, sha256, 1


def _run(
    jobs: list[tuple[str, int, str, int]], profile_name: str | None, workers: int | None
) -> Iterator[FileResult]:
    count = min(workers or os.cpu_count() or 1, len(jobs))
    if count <= 1:
        for job in jobs:
            yield _work(*job, profile_name)
        return
    with ProcessPoolExecutor(max_workers=count) as pool:
        futures = [pool.submit(_work, *job, profile_name) for job in jobs]
        for future in futures:
            yield future.result()


def _commit(connection: Any, result: FileResult) -> int:
    """Load one file's rows and its imports row in one transaction."""
    key = str(Path(result.path).resolve())
    now = datetime.now(UTC)
    connection.execute("BEGIN TRANSACTION")
    try:
        if result.start_line > 1:
            # The last hand is read again: a parse error it had while being written goes.
            connection.execute(
                "DELETE FROM parse_errors WHERE file = ? AND line >= ?",
                [result.path, result.start_line],
            )
        new = store.load(connection, result.batch)
        connection.execute(
            "INSERT OR REPLACE INTO imports VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                key,
                result.size,
                result.sha256,
                result.line_reached,
                result.counts["hands"],
                new,
                now,
                datetime.now(UTC),
            ],
        )
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    return new
