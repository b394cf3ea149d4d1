"""The one ingest stage: one range of one file to its hands' rows, read once.

`read_part` reads a range of whole hands of a file (or a whole file), parses each hand,
replays it once under its house's rules and returns every row the store keeps of it as
Arrow tables (`PartResult`): the hand's records, its verdicts, its text (kept from the
chunks the parser read: the file is not split again) and, for a flagged hand, its evidence
(the replay's state at each flag, observed during that one replay: the hand is not parsed
or replayed again). `read_files` does the same for many small files at once, their rows in
one set of tables. Both the DuckDB import (`handlog.importer`) and the Dask engine
(`handlog.dataset`) call these, in their worker processes; the planning of a file (what to
read of it, cut into ranges, hashed in the same read) is here too (`file_jobs`), for both.

Each part also says where its worker's time went (`PartResult.timings`, CPU seconds by
stage: parse, replay, rows, texts, evidence, arrow), which `handlog import --timings` and
`handlog bench` publish.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from handlog import store
from handlog.cards import format_cards
from handlog.parse.reader import (
    ZIP_ENTRY,
    ByteRange,
    cuttable,
    hand_ranges,
    open_binary,
    path_size,
    real_path,
)

if TYPE_CHECKING:
    from handlog import check as _check
    from handlog import model as _model
    from handlog import parse as _parse
    from handlog.check import CheckedHand
    from handlog.equity import stored as _stored
    from handlog.equity.stored import PendingEv
    from handlog.model import Hand
    from handlog.parse.reader import Chunk
    from handlog.parse.site import SiteFormat
    from handlog.rules import replay as _replaying
    from handlog.rules.profiles import RuleProfile
    from handlog.rules.replay import Replay, _Replayer
    from handlog.rules.violations import Violation

HASH_BLOCK = 1 << 20

RANGE_BYTES = int(os.environ.get("HANDLOG_RANGE_BYTES", 8 << 20))
"""Files are cut into ranges of whole hands of about this size (some 3,500 hands), each
parsed and replayed by a worker: both cores work on one big file, and memory holds only a
few ranges' rows at a time."""

COUNTS = ("hands", "illegal", "mis_split", "unparsed", "skipped", "inconsistent")
"""What a worker counts in a part of a file (`PartResult.counts`): hands, those with a fault
of each kind of verdict (a hand may have several), unparsed and skipped."""

WORKER_STAGES = ("parse", "replay", "ev", "rows", "texts", "evidence", "arrow")
"""The stages of `read_part` whose CPU time a part reports (`PartResult.timings`): reading
and parsing the hands, replaying and judging them, their rows, their texts (compressed
blocks), the evidence of flagged hands, the conversion of the rows to Arrow tables."""


# -- what to read ------------------------------------------------------------------------


@dataclass(frozen=True)
class FilePlan:
    """A file to read, from the hand at `start_line` on."""

    path: str
    size: int
    start_line: int
    replaces: bool = False
    """The file changed since its last import, other than by growing (edited in place,
    rewritten): it is read again whole, the hands it holds now replace the versions of
    them it stored before, and its parse errors and skipped hands are those of its text
    now. (Hands it no longer holds stay: an import never deletes a hand.)"""
    imported_before: bool = False
    """The file has a row in `imports` already (grown, or changed)."""
    key: str = ""
    """Its `file_key`, when the planning has it ("": not known yet)."""


@dataclass(frozen=True)
class Job:
    """One part of a file for a worker, with what its `imports` row records."""

    plan: FilePlan
    part: ByteRange | None
    """A range of whole hands; None: the whole file, streamed (UTF-16, archive entries)."""
    end: int
    """The file's bytes up to the part's end..."""
    sha256: str
    """...and their SHA-256 (`HASHED_BY_READER`: the reader hashes the file it reads whole,
    its `PartResult.digest`)."""
    last: bool
    """The file's last part."""
    error: str | None = None
    """The file could not be read on from here: nothing for a worker to do."""

    @property
    def hashed(self) -> bool:
        """The reader hashes the file, from the one read it parses (a whole new small file:
        read once, where planning and reading read it twice, an archive entry decompressed
        each time)."""
        return self.sha256 == HASHED_BY_READER

    @property
    def whole(self) -> bool:
        """The job is a whole new file, read in one part (as most small files are)."""
        return (
            self.last
            and self.error is None
            and not self.plan.imported_before
            and self.plan.start_line <= 1
            and (self.part is None or self.part.start == 0)
        )


HASHED_BY_READER = "hashed by its reader"
"""`Job.sha256` of a job whose reader hashes the file (`Job.hashed`)."""


def file_hash(path: str, limit: int | None = None) -> str:
    """SHA-256 of the file, or of its first `limit` bytes."""
    return _file_digest(path, limit)[1]


def _file_digest(path: str, limit: int | None = None) -> tuple[int, str]:
    """The bytes of the file (its first `limit` at most) and their SHA-256."""
    digest = hashlib.sha256()
    remaining = limit
    size = 0
    with open_binary(path) as handle:
        while remaining is None or remaining > 0:
            block = handle.read(HASH_BLOCK if remaining is None else min(HASH_BLOCK, remaining))
            if not block:
                break
            digest.update(block)
            size += len(block)
            if remaining is not None:
                remaining -= len(block)
    return size, digest.hexdigest()


def file_key(path: str) -> str:
    """How a file is known in `imports` (and a dataset's manifests): its absolute path (an
    archive entry: the archive's absolute path, then the entry)."""
    archive, mark, entry = path.partition(ZIP_ENTRY)
    return real_path(archive, {}) + mark + entry


def file_keys(paths: list[str]) -> list[str]:
    """The `file_key` of each of `paths`, each folder resolved once: a folder of thousands
    of files costs one walk of its path's links, not one a file (the file itself is
    resolved whole only when it is a link)."""
    folders: dict[str, str] = {}
    archives: dict[str, str] = {}  # an archive's entries: the archive resolved once
    keys = []
    for path in paths:
        archive, mark, entry = path.partition(ZIP_ENTRY)
        if not mark:
            keys.append(real_path(path, folders))
            continue
        real = archives.get(archive)
        if real is None:
            real = archives[archive] = real_path(archive, folders)
        keys.append(real + mark + entry)
    return keys


def file_size(path: str) -> int:
    return path_size(path)


def file_jobs(plan: FilePlan, range_bytes: int | None = None) -> Iterator[Job]:
    """A file's parts: its ranges of whole hands (about `range_bytes` each, default
    `RANGE_BYTES`) as they are cut, each with the SHA-256 of the file up to its end (hashed
    in the same read), or the whole file as one part."""
    from handlog.parse import detect_file

    path = plan.path
    site = detect_file(path) if cuttable(path) else None
    if site is None or site.header_bytes is None or site.header_marker is None:
        yield Job(plan, None, plan.size, file_hash(path), last=True)
        return
    digest = hashlib.sha256()
    # Each range is passed on as it is cut: the reader knows the last one (it ends where the
    # file did), so that no range waits for the next to be cut (the first task of a big
    # file was handed out once two ranges had been read and hashed).
    found = False
    for part in hand_ranges(
        path,
        site.header_bytes,
        site.header_marker,
        range_bytes or RANGE_BYTES,
        plan.start_line,
        digest,
        None if site.context_marker is None else site.context_marker.encode("ascii"),
    ):
        found = True
        yield Job(plan, part, part.end, digest.copy().hexdigest(), last=part.last)
    if not found:  # no hand header from the start line on: the file streamed whole
        yield Job(plan, None, plan.size, digest.hexdigest(), last=True)


# -- reading a part ----------------------------------------------------------------------


@dataclass
class PartResult:
    """What a worker made of one range of a file."""

    path: str
    tables: dict[str, Any]
    counts: dict[str, int]
    line_reached: int
    error: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    """CPU seconds by stage (`WORKER_STAGES`)."""
    digest: tuple[int, str] | None = None
    """For a whole file read with `hashed`: the bytes read and their SHA-256 (what its
    `imports` row records), from the one read that was also parsed."""


Unreadable = tuple[str, int, str | None, str, str | None]
"""A hand (or stretch of text) that could not be read: file, line, hand ID, message and the
offending line, as `handlog parse` and `check` print it."""


def unreadable(tables: dict[str, Any], path: str | None = None) -> list[Unreadable]:
    """The parse errors of a part's rows (`PartResult.tables`), in line order; those of the
    file `path` only, when given (the tables of `read_files` hold many files')."""
    errors = tables.get("parse_errors")
    if errors is None:
        return []
    rows = zip(
        *(
            store.column_values(errors, name)
            for name in ("file", "line", "hand_id", "message", "text")
        ),
        strict=True,
    )
    return sorted((row for row in rows if path is None or row[0] == path), key=lambda row: row[1])


class _Clock:
    """Where a worker's time goes: seconds by stage, read from the one clock a stage
    change reads (`perf_counter`, cheap enough to read twice a hand), scaled at the end to
    the CPU time the process spent (a worker does nothing but this work)."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(WORKER_STAGES, 0.0)
        self.cpu = time.process_time()
        self.last = time.perf_counter()

    def mark(self, stage: str) -> None:
        now = time.perf_counter()
        self.seconds[stage] += now - self.last
        self.last = now

    def cpu_seconds(self) -> dict[str, float]:
        cpu = time.process_time() - self.cpu
        measured = sum(self.seconds.values())
        scale = cpu / measured if measured > 0 else 0.0
        return {stage: seconds * scale for stage, seconds in self.seconds.items()}


def read_part(
    path: str,
    part: ByteRange | None,
    start_line: int,
    profile_name: str | None,
    here: bool = False,
    hashed: bool = False,
) -> PartResult:
    """Parse and replay one range of a file (None: the whole file, from the hand at
    `start_line` on) and return its rows as Arrow tables, or, `here` (the rows are loaded by
    this process, not sent to another) and at most `PYTHON_ROWS` hands, as `store.Rows`. A
    file that cannot be read, or a bug met in it, is the part's `error`: it fails alone,
    named. `hashed`: the whole file's bytes are hashed here too (`PartResult.digest`)."""
    clock = _Clock()
    batch = store.Batch()
    result = _read_into(batch, path, part, start_line, _profile(profile_name), clock, hashed=hashed)
    if result.error is None and here and len(batch.columns["hands"]["site"]) <= PYTHON_ROWS:
        result.tables = batch.rows()
    elif result.error is None:
        arrow_without_pandas()
        try:
            result.tables = batch.arrow()
        except Exception as error:  # noqa: BLE001 - a bug: its file fails alone (_failed)
            result.error = _failed(error)
        clock.mark("arrow")
    result.timings = clock.cpu_seconds()
    return result


PYTHON_ROWS = 20
"""The most hands of a part read by the importing process itself (`read_part`'s `here`)
that it loads from their Python values (`store.Rows`) rather than as Arrow tables: a one-hand
import then imports neither pyarrow nor NumPy (some 0.08 s of its 0.5). Measured (compiled,
pyarrow already imported, CPU of the conversion and `store.load` into a new database): one
hand 13 ms from Rows, 22 as Arrow; ten hands 18 and 26; past a few dozen, DuckDB's conversion
of Python values, a value at a time, costs more than Arrow's."""

_ARROW_ASKED = False


def arrow_without_pandas() -> None:
    """Have pyarrow settle, once in a process, that pandas is not there unless it already
    is (imported before). The first time pyarrow converts Python values (`pa.array`,
    `pa.table` of lists: every part's rows) it asks whether they are pandas objects, by
    importing pandas when it is installed: some 0.15 s of CPU, in the importing process
    and in each worker, for objects handlog never gives it. Asked here with pandas hidden,
    pyarrow takes it as missing (it imports pandas itself, later, when asked for pandas
    output: `to_pandas`). A process that imports pandas first is left as it is."""
    global _ARROW_ASKED
    if _ARROW_ASKED:
        return
    _ARROW_ASKED = True
    import sys

    import pyarrow as pa

    if "pandas" in sys.modules:
        return
    hidden = _NoPandas()
    sys.meta_path.insert(0, hidden)  # import pandas: ModuleNotFoundError, here only
    try:
        pa.array([0])
    finally:
        sys.meta_path.remove(hidden)


def prepare_workers(files: list[str] | None = None, profile_name: str | None = None) -> None:
    """In a process about to fork workers that run `read_part`: load what each of them
    would load for itself (the readers, the rules), once, here, so that the forked workers
    share it; with the `files` to import, read a hand of each format among the first of them
    too (`_warm_up`); then freeze it (`gc.freeze`): a worker's collections neither scan it
    nor touch its pages (which would copy them). The evaluator's tables are not built here:
    the replay ranks one hand at a time without them (`rules.evaluate.high_rank`), and a
    worker whose all-in equities need a batch builds them then (some 0.25 CPU s this
    process spent on every import, for nothing: 7,700 PokerStars and 1,700 Merge hands of
    the corpus replicated, read and their all-in EV computed, built none)."""
    import gc

    from handlog import check, texts  # noqa: F401 - loaded for the workers
    from handlog.equity import stored  # noqa: F401
    from handlog.parse import sites  # noqa: F401
    from handlog.rules import replay, trace  # noqa: F401

    store.arrow_schemas()  # the types of every worker's Arrow tables, read from DuckDB once
    if files:
        _warm_up(files, profile_name)
    gc.freeze()


WARM_UP_FILES = 16
"""How many of the files to import `_warm_up` looks at for their formats."""


def _warm_up(files: list[str], profile_name: str | None) -> None:
    """Read the first hand of the first file of each format among the first
    `WARM_UP_FILES` files, rows and Arrow tables too, and throw them away: what a process
    builds the first time it reads a format (the site's module loaded, the patterns of its
    lines compiled, Lark, time zones) is built here once, before the workers fork, rather
    than in each worker (measured, compiled, a worker's first ten-hand file: PokerStars 39
    ms -> 4, Merge 34 -> 3, Winamax 52 -> 10, against 2-8 for the next file). A file that
    cannot be read, or fails, is left to the import to report."""
    from handlog.parse import detect_file

    seen: set[str] = set()
    profile = _profile(profile_name)
    for path in files[:WARM_UP_FILES]:
        try:
            site = detect_file(path)
        except OSError:
            continue
        if site is None or site.name in seen:
            continue
        seen.add(site.name)
        batch = store.Batch()
        result = _read_into(batch, path, None, 1, profile, _Clock(), [], hands=1)
        if result.error is None:
            # A failure here is the import's to report, file by file.
            with contextlib.suppress(Exception):
                batch.arrow()


class _NoPandas:
    """An import finder that finds no pandas (`arrow_without_pandas`)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def _failed(error: Exception) -> str:
    """Why a file is not stored when handlog fails on it (a bug: the file fails alone,
    named, and the import goes on)."""
    first = str(error).strip().split("\n", 1)[0][:300]
    return f"not stored: handlog failed on it ({type(error).__name__}: {first}); please report it"


def read_files(
    files: list[tuple[str, int, bool]], profile_name: str | None
) -> tuple[list[PartResult], dict[str, Any], dict[str, float]]:
    """`read_part` of many whole files (path, start line, whether it is hashed as it is
    read) at once: a result per file (its counts, its error, its digest; no tables of its
    own), the rows of every file read without error in one set of Arrow tables, and the CPU
    seconds by stage. A folder of thousands of small files costs a task and a set of tables
    per batch of them, not per file: their rows go straight into one `store.Batch`, and
    their texts into shared blocks (`texts.add_texts`: 64 hands a block across files, where
    a block a file held ten)."""
    clock = _Clock()
    arrow_without_pandas()
    profile = _profile(profile_name)
    batch = store.Batch()
    results = []
    seen: set[tuple[str, str]] = set()  # the hands of the files before
    kept: list[_KeptFile] = []
    start = _marks(batch)  # where the next file's rows begin: where the last file's end
    for path, start_line, hashed in files:
        held: list[HeldTexts] = []
        # The all-in EV of every file's hands that may have one is computed once all the
        # files are read (`stored.add_pending_ev`), not file by file between their hands.
        pending: list[PendingEv] = []
        result = _read_into(
            batch, path, None, start_line, profile, clock, held, hashed, pending=pending
        )
        results.append(result)
        if result.error is not None:
            _truncate(batch, start)  # what the file added before it failed goes
            continue
        # A hand of an earlier file is that file's (as when files are stored one by one):
        # its rows here go, and the store counts it a duplicate of this file.
        hands = batch.columns["hands"]
        first = start["hands"]
        keys = list(zip(hands["site"][first:], hands["hand_id"][first:], strict=True))
        if not seen.isdisjoint(keys):
            # Its rows move: its hands' EV first, where `pending` says their rows are.
            if not _pending_ev(batch, result, pending, profile):
                _truncate(batch, start)
                continue
            _drop_hands(batch, seen, start)
            held = [
                (head, [text for text in texts if (text[0], text[1]) not in seen])
                for head, texts in held
            ]
        seen.update(keys)
        end = _marks(batch)
        kept.append((result, start, end, held, pending))
        start = dict(end)
    failed = False
    equities = batch.columns["equities"]["site"]
    for result, start, end, _, pending in kept:
        if pending:  # its equities rows follow every file's: where they are, its own
            first = len(equities)
            failed |= not _pending_ev(batch, result, pending, profile)
            start["equities"], end["equities"] = first, len(equities)
    clock.mark("ev")
    if failed:  # a bug met in a file's EV: that file fails alone, its rows go
        batch, kept = _without_failed(batch, kept)
    try:
        tables = _with_texts(batch, [held for _, _, _, held, _ in kept], clock).arrow()
    except Exception:  # noqa: BLE001 - a bug in one file's rows: that file fails alone
        for result, start, end, _, _ in kept:
            try:
                _rows_between(batch, start, end).arrow()
            except Exception as error:  # noqa: BLE001
                result.error = _failed(error)
        batch, kept = _without_failed(batch, kept)
        tables = _with_texts(batch, [held for _, _, _, held, _ in kept], clock).arrow()
    clock.mark("arrow")
    return results, tables, clock.cpu_seconds()


HeldTexts = tuple[str, list[tuple[str, str, str]]]
"""Hands' texts not yet in blocks: the file's head (`texts.file_head`) and the texts
(site, hand id, text) of its hands, in file order."""

_KeptFile = tuple[PartResult, dict[str, int], dict[str, int], list[HeldTexts], list["PendingEv"]]
"""A file `read_files` read without error: its result, where its rows begin and end in the
batch (`_marks`), its texts and the hands whose all-in EV is still to compute."""


def _pending_ev(
    batch: store.Batch, result: PartResult, pending: list[PendingEv], profile: RuleProfile | None
) -> bool:
    """`stored.add_pending_ev` of one file's hands; False, the file's `error` set, when it
    fails (a bug: that file fails alone)."""
    if not pending:
        return True
    try:
        _stored.add_pending_ev(batch, pending, profile)
    except Exception as error:  # noqa: BLE001 - a bug: its file fails alone, named
        result.error = _failed(error)
        return False
    return True


def _without_failed(
    batch: store.Batch, kept: list[_KeptFile]
) -> tuple[store.Batch, list[_KeptFile]]:
    """The rows of the files of `kept` that did not fail (their EV, or their rows as Arrow
    tables), in a batch of their own, and where each one's now are."""
    good = store.Batch()
    still: list[_KeptFile] = []
    for result, start, end, held, pending in kept:
        if result.error is not None:
            continue
        mark = _marks(good)
        good.extend(_rows_between(batch, start, end))
        still.append((result, mark, _marks(good), held, pending))
    return good, still


def _with_texts(batch: store.Batch, held: list[list[HeldTexts]], clock: _Clock) -> store.Batch:
    """`batch` with the `held` texts of its files added, in blocks shared by files of the
    same head (every file of a format without one)."""
    from handlog.texts import add_texts

    runs: list[HeldTexts] = []
    for texts in held:
        for head, items in texts:
            if runs and runs[-1][0] == head:
                runs[-1][1].extend(items)
            else:
                runs.append((head, list(items)))
    for head, items in runs:
        add_texts(batch, items, head)
    clock.mark("texts")
    return batch


def _marks(batch: store.Batch) -> dict[str, int]:
    """How many rows each table of `batch` holds."""
    return {name: len(columns[store.COLUMNS[name][0]]) for name, columns in batch.columns.items()}


def _truncate(batch: store.Batch, marks: dict[str, int]) -> None:
    """Take the rows added to `batch` since `marks` out of it."""
    for name, columns in batch.columns.items():
        for values in columns.values():
            del values[marks[name] :]


def _rows_between(batch: store.Batch, start: dict[str, int], end: dict[str, int]) -> store.Batch:
    """A batch of the rows of `batch` from `start` to `end` (one file's)."""
    own = store.Batch()
    for name, columns in batch.columns.items():
        mine = own.columns[name]
        for column, values in columns.items():
            mine[column].extend(values[start[name] : end[name]])
    return own


def _drop_hands(batch: store.Batch, keys: set[tuple[str, str]], start: dict[str, int]) -> None:
    """Take the rows of the hands `keys` (site, hand id) added since `start` out of `batch`."""
    for name in store.TABLES:
        columns = batch.columns[name]
        first = start[name]
        keep = [
            (site, hand_id) not in keys
            for site, hand_id in zip(
                columns["site"][first:], columns["hand_id"][first:], strict=True
            )
        ]
        if all(keep):
            continue
        for values in columns.values():
            values[first:] = [
                value for value, kept in zip(values[first:], keep, strict=True) if kept
            ]


def _profile(name: str | None) -> RuleProfile | None:
    from handlog.parse.sites import profile_named

    return profile_named(name) if name else None


def _read_into(
    batch: store.Batch,
    path: str,
    part: ByteRange | None,
    start_line: int,
    profile: RuleProfile | None,
    clock: _Clock,
    held: list[HeldTexts] | None = None,
    hashed: bool = False,
    hands: int | None = None,
    pending: list[PendingEv] | None = None,
) -> PartResult:
    """Read a range of a file (None: the whole file) into `batch`: its hands' rows, texts
    and evidence; its texts into `held` instead, when given (`read_files` puts many files'
    texts in shared blocks). `hashed` (a whole file): its bytes hashed too, from the same
    read (`PartResult.digest`). `hands`: stop after that many hands (`_warm_up`). The all-in
    EV of the hands that may have one is computed once the others are read
    (`stored.add_pending_ev`), here or, with `pending`, by the caller."""
    if not _READING:
        _load_reading()
    # Taken from their modules at each call, as the imports here took them before (a
    # function patched in its module, by a test, is the one called).
    check_items, hand_rules, Hand = _check.check_items, _check.hand_rules, _model.Hand
    detect_file, parse_file, parse_range = _parse.detect_file, _parse.parse_file, _parse.parse_range
    read_whole, replay, add_ev = _parse.read_whole, _replaying.replay, _stored.add_ev
    own_pending = pending is None
    if pending is None:
        pending = []
    counts = dict.fromkeys(COUNTS, 0)
    line_reached = start_line
    # A flagged hand's evidence is added once the range's texts are cut: kept till then, its
    # key, file, line and the states its replay observed, not the hand and its replay (a
    # range's flagged hands' records, kept alive, grew the heap the garbage collector scans).
    flagged: list[Flagged] = []
    # Every hand read, its text kept (handlog.texts): its key and line only, so that its
    # records die with it (kept alive, a range's thousands of hands would grow the heap the
    # garbage collector scans again and again).
    read: list[tuple[str, str, int]] = []
    # A hand the range holds twice is stored as its first copy reads, whole: the rows of a
    # later copy are not added (the store, finding one key twice in a batch, would keep
    # either copy's rows table by table). It is counted, as a repeat in another file is.
    kept: set[tuple[str, str]] = set()
    chunks: list[Chunk] = []  # what the parser read, for the texts
    digest: tuple[int, str] | None = None
    text: str | None = None  # the whole file's, when read in one go
    try:
        if hashed and part is None:
            # A small file is read once: hashed, detected and parsed from the same bytes (it
            # was read three times, an archive's entry decompressed each time: measured,
            # 20,000 PokerStars hands in ten-hand files, the importing process's planning
            # 4-8 us a hand -> 1, the workers' parse 0-5 dearer with the hashing it took on).
            whole = read_whole(path, WHOLE_READ_BYTES)
            if whole is None:  # it has grown past a small file's size: streamed
                digest = _file_digest(path)
            else:
                digest = (len(whole[0]), hashlib.sha256(whole[0]).hexdigest())
                text = whole[1]
        site = detect_file(path, text)
        if site is None:  # no format: parse_file says why, as one error
            items = parse_file(path, start_line, text=text)
        elif part is None:
            items = parse_file(path, start_line, site, seen=chunks, text=text)
        else:
            items = parse_range(path, part, site, seen=chunks)
        states: list[dict[str, Any]] = []

        def observe(replayer: _Replayer, violation: Violation) -> None:
            states.append(snapshot(replayer, violation))

        for item in items:
            clock.mark("parse")
            if type(item) is Hand:
                house, traits = hand_rules(item)
                verdict = replay(item, profile or house, traits, observe)
                checked = _checked(item, verdict, path)
                clock.mark("replay")
            else:
                (checked,) = check_items((item,), path)
            line_reached = max(line_reached, checked.first_line)
            hand = checked.hand
            key = (hand.site.value, hand.hand_id) if hand is not None else None
            if key is None or key not in kept:
                store.add_checked(batch, checked)
            if checked.replay is not None:
                counts["hands"] += 1
                counts["illegal"] += checked.replay.illegal
                counts["mis_split"] += checked.replay.mis_split
                counts["inconsistent"] += checked.replay.inconsistent
                if key is not None and key not in kept:
                    kept.add(key)
                    clock.mark("rows")
                    add_ev(batch, checked, profile, pending)  # possible all-ins: later
                    clock.mark("ev")
                    read.append((key[0], key[1], checked.line))
                    if checked.replay.violations:
                        flagged.append((key[0], key[1], checked.file, checked.line, states))
                        states = []
            elif checked.error is not None:
                counts["unparsed"] += 1
            else:
                counts["skipped"] += 1
            states.clear()
            clock.mark("rows")
            if hands is not None and counts["hands"] >= hands:
                break
        if own_pending and pending:  # the all-in EV of the hands that may have one, together
            _stored.add_pending_ev(batch, pending, profile)
            clock.mark("ev")
        if read and site is not None:
            texts = _add_texts(batch, path, site, chunks, read, held, text, part)
            clock.mark("texts")
            if flagged:
                add_evidence(batch, flagged, texts)
                clock.mark("evidence")
    except OSError as error:
        return PartResult(path, {}, counts, start_line, f"cannot read: {error.strerror or error}")
    except Exception as error:  # noqa: BLE001 - a bug: its file fails alone, named, not the import
        return PartResult(path, {}, counts, start_line, _failed(error))
    return PartResult(path, {}, counts, line_reached, digest=digest)


_READING = False
"""Whether `_load_reading` has run in this process."""


def _load_reading() -> None:
    """Import the modules of what `_read_into` calls, once a process, as names of this
    module (declared for the type checker above): imported in `_read_into` itself, they were
    imported again for every file of a folder of small files (five imports, some 5 us a
    file)."""
    global _READING, _check, _model, _parse, _stored, _replaying
    from handlog import check as _check
    from handlog import model as _model
    from handlog import parse as _parse
    from handlog.equity import stored as _stored
    from handlog.rules import replay as _replaying

    _READING = True


WHOLE_READ_BYTES = 4 << 20
"""The most bytes `_read_into` reads in one go for a whole file it hashes (a small file,
planned as at most `importer.SMALL_FILE_BYTES`, that has grown since is streamed)."""


def _checked(hand: Hand, verdict: Replay, path: str) -> CheckedHand:
    """The `CheckedHand` of a hand replayed here (as `check.check_items` makes it)."""
    from handlog.check import CheckedHand

    source = hand.source
    return CheckedHand(
        source.file if source else path,
        source.line if source else 0,
        verdict.status,
        hand=hand,
        replay=verdict,
    )


def _add_texts(
    batch: store.Batch,
    path: str,
    site: SiteFormat,
    chunks: list[Chunk],
    read: list[tuple[str, str, int]],
    held: list[HeldTexts] | None = None,
    whole: str | None = None,
    part: ByteRange | None = None,
) -> dict[int, str]:
    """Add the texts of the hands `read` (site, hand id, start line) to `batch` (to `held`,
    when given), taken from the `chunks` the parser read; the texts by start line. `whole`:
    the file's text, when it was read in one go; `part`: the range read (None: the file)."""
    from handlog.parse import head_at
    from handlog.texts import add_texts, file_head, texts_in

    texts = texts_in(chunks, (line for _, _, line in read), site)
    kept = [item for item in read if item[2] in texts]
    found = [(site_name, hand_id, texts[line]) for site_name, hand_id, line in kept]
    head = ""
    if site.file_context is not None:
        if part is not None and part.context:  # a range read with a later export's header
            head = head_at(path, site, part.context)
        else:
            head = file_head(path, site, whole)
    for run_head, run in _by_head(found, [line for *_, line in kept], chunks, site, head):
        if held is None:
            add_texts(batch, run, run_head)
        else:
            held.append((run_head, run))
    return texts


def _by_head(
    found: list[tuple[str, str, str]],
    lines: list[int],
    chunks: list[Chunk],
    site: SiteFormat,
    head: str,
) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The texts `found` (of hands starting at `lines`, in order) in runs of the same head:
    one run with `head`, unless the format's context begins again after a hand (two exports joined
    in one file: `SiteFormat.context_marker`), when each hand is stored with its own
    export's head (`parse.context_heads`), to be read again alone as it was read here."""
    if site.context_marker is None or not any(site.context_marker in c.text for c in chunks):
        return [(head, found)]
    from handlog.parse import context_heads

    by_line = dict(zip((c.line for c in chunks), context_heads(chunks, site, head), strict=True))
    runs: list[tuple[str, list[tuple[str, str, str]]]] = []
    for item, line in zip(found, lines, strict=True):
        hand_head = by_line.get(line, head)
        if runs and runs[-1][0] == hand_head:
            runs[-1][1].append(item)
        else:
            runs.append((hand_head, [item]))
    return runs


# -- evidence: what the one replay knew at each flag -------------------------------------


def compress(text: str) -> bytes:
    return zlib.compress(text.encode("utf-8"), 6)


def snapshot(replayer: _Replayer, violation: Violation) -> dict[str, Any]:
    """What the replay knew when it flagged `violation`, as the evidence stores it: whose turn
    it was, the bet, what the flagged player owed, the pot, and each seat's chips, up cards
    and status, read from the engine's table (never changed) as `rules.trace.flag_state`
    reads them, without building its seats' records (the import observes every flag)."""
    from handlog.rules.trace import flag_point, table_seats

    street, betting, turn, owed = flag_point(replayer, violation)
    players = []
    pot = 0
    for name, number, stack, put, this_street, _, status, ups in table_seats(
        replayer.hand, replayer.table
    ):
        pot += put
        players.append(
            {
                "player": name,
                "seat": number,
                "stack": stack,
                "in_pot": put,
                "this_street": this_street,
                "showing": format_cards(ups),
                "status": "not dealt in" if status == "out" else status,
            }
        )
    return {
        "line": violation.line,
        "code": violation.code,
        "street": street.name.lower(),
        "turn": turn,
        "bet": replayer.table.current_bet if betting else None,
        "owed": owed,
        "pot": pot,
        "players": players,
    }


Flagged = tuple[str, str, str, int, list[dict[str, Any]]]
"""A flagged hand as its evidence row reads it: its site and hand ID, its file and start line,
and the states its replay observed at its flags (`snapshot`)."""


def add_evidence(batch: store.Batch, flagged: Iterable[Flagged], texts: dict[int, str]) -> None:
    """Add the evidence rows of `flagged` hands to `batch`; `texts`: the hands' texts by start
    line."""
    table = batch.columns["hand_evidence"]
    for site, hand_id, file, line, states in flagged:
        text = texts.get(line)
        if text is None:
            continue  # no text (a chunk the parser did not keep): no evidence
        row = (
            site,
            hand_id,
            file,
            line,
            line + text.count("\n"),
            compress(text),
            json.dumps(states, separators=(",", ":")),
        )
        for items, value in zip(table.values(), row, strict=True):
            items.append(value)
