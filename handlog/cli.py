"""The `handlog` command: a thin Typer layer over the library. Each command calls the
library and turns its results into output and an exit code; heavy modules are imported
inside commands so that `handlog --help` starts fast."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:
    from handlog.importer import ImportSummary

EXIT_CODES = """Exit codes (every command):

\b
  0  done: everything given was read (import: and stored)
  1  done, with findings or in part: a hand that could not be read (parse, check),
     a hand flagged, of any kind, an inconsistent history alone included (check),
     a path, file or archive entry not read or not stored
     (import, parse, check; each named on its own line), a report option that
     matches nothing, a hand show does not find
  2  nothing done: a usage error (an unknown option or value), no path that exists,
     no hand-history file there, no database to report on, show or export
  3  the database is busy: another program writes it (report, show and export read
     a copy while an import runs)
  4  the database or an output cannot be used: not a DuckDB file or damaged,
     read-only, its folder missing, the disk full; import --engine dask: the
     dataset cannot be written or the scheduler reached; the line says what to do
  70  handlog failed: a bug (the line names the error; HANDLOG_TRACEBACK=1 shows
     where); please report it
  130  interrupted (Ctrl-C): an import keeps what it had stored
  141  the program reading the output stopped (handlog check | head -1): handlog
     stops quietly, as cat or grep do (128 + SIGPIPE)"""


class _Commands(TyperGroup):
    """Every command's one error path: whatever ends a command early (a database that
    cannot be read, a full disk, an output closed or full, a bug) ends it with one
    `handlog: ` line on standard error and the exit code of `EXIT_CODES` (`_failure`);
    what cannot be written in the output's encoding is written with replacements."""

    def invoke(self, ctx: Any) -> Any:  # a typer Context
        _tolerant_output()
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()  # an output error shows here, not at exit
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise  # an exit code chosen, a usage error
        except KeyboardInterrupt:
            raise _fail("interrupted", EXIT_INTERRUPTED) from None
        except Exception as error:
            if _reader_gone(error):
                raise typer.Exit(EXIT_PIPE) from None  # no line: nobody reads one
            if os.environ.get("HANDLOG_TRACEBACK", "") not in ("", "0"):
                raise
            message, code = _failure(error)
            raise _fail(message, code) from None


def _tolerant_output() -> None:
    """Standard output and error write what their encoding cannot (a name in an ASCII or
    latin-1 terminal) as "?" rather than failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")


def _failure(error: Exception) -> tuple[str, int]:
    """The line and exit code for an error that ended a command."""
    import duckdb

    from handlog.snapshot import NoDatabase
    from handlog.store import DatabaseBusy, OutputError, StoreError, output_error

    if isinstance(error, DatabaseBusy):
        return str(error), EXIT_BUSY
    if isinstance(error, NoDatabase):
        return str(error), EXIT_USAGE
    if isinstance(error, OutputError | StoreError):
        return str(error), EXIT_STORE
    if isinstance(error, OSError):
        if error.filename is None and _output_broken(error):
            return str(output_error(error, "the output")), EXIT_STORE
        where = error.filename if error.filename is not None else "a file"
        return f"cannot read or write {where}: {error.strerror or error}", EXIT_STORE
    if isinstance(error, duckdb.Error):
        first = str(error).strip().split("\n", 1)[0]
        return f"the database cannot be used: {first}", EXIT_STORE
    where = ""  # the innermost line of handlog's own that it passed through
    package = os.path.dirname(os.path.abspath(__file__))
    traceback = error.__traceback__
    while traceback is not None:
        file = traceback.tb_frame.f_code.co_filename
        if file.startswith(package):
            where = f" at {os.path.relpath(file, os.path.dirname(package))}:{traceback.tb_lineno}"
        traceback = traceback.tb_next
    said = str(error).strip().split("\n", 1)[0]
    return (
        f"internal error, a bug in handlog: {type(error).__name__}: {said}{where}; please "
        "report it (HANDLOG_TRACEBACK=1 shows the whole traceback)",
        EXIT_BUG,
    )


OUTPUT_ERRORS = frozenset(
    getattr(errno, name)
    for name in ("ENOSPC", "EDQUOT", "EPIPE", "EIO", "EFBIG", "EBADF")
    if hasattr(errno, name)
)
"""Errors of a write (no file named) that say the output cannot be written: commands name
the files they write themselves, so such an error comes from standard output."""


def _reader_gone(error: BaseException) -> bool:
    """Whether `error` is standard output's reader having gone (a closed pipe: `| head`);
    then what is left of the output is dropped (`_output_broken`)."""
    return (
        isinstance(error, OSError)
        and error.filename is None
        and (isinstance(error, BrokenPipeError) or error.errno == errno.EPIPE)
        and _output_broken(error)
    )


def _output_broken(error: OSError) -> bool:
    """Whether standard output can no longer be written (a full disk, a closed pipe): then
    what is left of it is dropped, so that exiting does not fail on it again."""
    broken = isinstance(error, BrokenPipeError) or error.errno in OUTPUT_ERRORS
    if not broken:
        try:
            sys.stdout.flush()
        except OSError:
            broken = True
    if broken:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass  # not a file of the system (a test's): nothing is written at exit
    return broken


app = typer.Typer(
    name="handlog",
    cls=_Commands,
    help=(
        "Read, check and report stud poker hand histories (7-card stud, stud hi/lo, razz, "
        "5-card stud, 2-7 razz, London lowball; fixed, spread, pot and no limit).\n\n"
        "Example: handlog parse sample_logs/\n\n" + EXIT_CODES
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    """`handlog --version`: handlog's version, the database schema it writes and how many of
    its hot modules run compiled."""
    if not value:
        return
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    from handlog import _native
    from handlog.store import SCHEMA_VERSION

    try:
        number = installed("handlog")
    except PackageNotFoundError:  # run from a checkout that is not installed
        number = "unknown (not installed)"
    modules = _native.status()
    compiled = sum(state == "compiled" for state in modules.values())
    typer.echo(
        f"handlog {number} (database schema {SCHEMA_VERSION}; "
        f"{compiled} of {len(modules)} hot modules compiled)"
    )
    raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version,
            is_eager=True,
            help="Print handlog's version (and its database schema) and exit.",
        ),
    ] = False,
) -> None:
    """Read, check and report stud poker hand histories."""


EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_BUSY = 3
EXIT_STORE = 4
EXIT_BUG = 70
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141
"""Standard output's reader stopped (`handlog check | head -1`): 128 + SIGPIPE, the status a
shell reports for cat, grep or git there. Quietly, as they do; not 0, which would say that
everything was written (with `set -o pipefail` a script tells the two apart)."""

PathsArgument = Annotated[
    list[str],
    typer.Argument(
        help="Hand-history files, folders (searched recursively) or glob patterns.",
        show_default=False,
    ),
]


def _fail(message: str, code: int) -> typer.Exit:
    """Print one line on standard error; the exit to raise."""
    typer.echo(f"handlog: {message}", err=True)
    return typer.Exit(code)


def _files(paths: list[str]) -> tuple[list[str], int]:
    """The files to read, and how many of the paths given (or found in folders and
    archives) are not read, each named on its own line on standard error. Exits with 2 when
    there is nothing to read because of the paths given, with 1 when what there is could
    not be read (a refused archive entry, say)."""
    from handlog.parse.reader import expand_paths

    files, found = expand_paths(paths)
    for problem in found:
        typer.echo(f"handlog: {'note: ' if problem.note else ''}{problem.format()}", err=True)
    problems = [problem for problem in found if not problem.note]
    if not files:
        if problems and not all(problem.missing for problem in problems):
            raise typer.Exit(EXIT_FINDINGS)
        if not problems:
            from handlog.parse.reader import ARCHIVE_SUFFIXES, HAND_FILE_SUFFIXES

            kinds = ", ".join((*HAND_FILE_SUFFIXES, *ARCHIVE_SUFFIXES))
            typer.echo(f"handlog: no hand-history files ({kinds}) found there", err=True)
        raise typer.Exit(EXIT_USAGE)
    return files, len(problems)


def _not_read(count: int) -> str:
    return f"; {count} {'path' if count == 1 else 'paths'} not read (named above)" if count else ""


QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="Only the final summary (no line per file or hand).")
]


@app.command()
def parse(
    paths: PathsArgument,
    json_lines: Annotated[
        bool, typer.Option("--json", help="Write one JSON object per hand to standard output.")
    ] = False,
    quiet: QuietOption = False,
) -> None:
    """Parse hand histories and print what each file holds.

    Prints, per file, the hands read by game, the hands that could not be read and the
    hands of other games skipped, then every hand that could not be read as FILE:LINE:
    hand ID: reason with its offending line (the same counts and lines as check and
    import). Exit code 0 when every hand was read; 1 when a hand, or a path given, could
    not be read (the rest is); 2 when no path given exists (every code: handlog --help).

    Example: handlog parse sample_logs/ ~/PokerStars/HandHistory/*.txt

    Example: handlog parse --json sample_logs/Razz-USD-0.04-0.08-200911.txt > hands.jsonl
    """
    import json

    from handlog.errors import ParseError, Skipped
    from handlog.model import Hand
    from handlog.parse import parse_file
    from handlog.serialize import result_json

    files, problems = _files(paths)
    report = sys.stderr if json_lines else sys.stdout
    ascii_json = _ascii_output()
    totals: Counter[str] = Counter()
    games_total: Counter[str] = Counter()
    skipped_total: Counter[str] = Counter()
    failed = 0
    for file in files:
        games: Counter[str] = Counter()
        skipped: Counter[str] = Counter()
        errors: list[ParseError] = []
        progress = _Progress(file)
        for item in parse_file(file):
            progress.tick()
            if json_lines:
                sys.stdout.write(json.dumps(result_json(item), ensure_ascii=ascii_json) + "\n")
            if isinstance(item, Hand):
                games[item.game.value] += 1
            elif isinstance(item, Skipped):
                skipped[item.game] += 1
            else:
                errors.append(item)
        progress.done()
        if not quiet:
            summary = _counts(sum(games.values()), _by_game(games), len(errors), skipped)
            print(f"{file}: {summary}", file=report)
            _echo_unreadable(
                ((e.file, e.line, e.hand_id, e.message, e.text) for e in errors), report
            )
        totals["files"] += 1
        games_total.update(games)
        skipped_total.update(skipped)
        failed += len(errors)
    if len(files) > 1 or problems or quiet:
        summary = _counts(sum(games_total.values()), _by_game(games_total), failed, skipped_total)
        print(
            f"total, {_files_count(totals['files'])}: {summary}{_not_read(problems)}", file=report
        )
    if failed or problems:
        raise typer.Exit(EXIT_FINDINGS)


def _ascii_output() -> bool:
    """Whether JSON written to standard output escapes what is not ASCII (\\u00e9): when the
    output's encoding is not a Unicode one, which would write it as "?"."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("_", "-")
    return not encoding.startswith(("utf-8", "utf8", "utf-16", "utf-32"))


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _files_count(count: int) -> str:
    return _plural(count, "file")


def _by_game(games: Counter[str]) -> str:
    return ", ".join(f"{game} {count}" for game, count in sorted(games.items()))


def _counts(hands: int, detail: str, unreadable: int, skipped: Counter[str] | int) -> str:
    """What every command says of a file (or of all): the hands read (with `detail`: by
    game, or what became of them), the hands that could not be read, the hands of other
    games skipped (by name, where known). `parse`, `check`, `import` and the report's files
    table count the same hands the same way."""
    text = _plural(hands, "hand") + (f" ({detail})" if detail else "")
    text += f", {unreadable:,} unparsed"
    if isinstance(skipped, int):
        return text + f", {skipped:,} skipped"
    text += f", {sum(skipped.values()):,} skipped"
    if skipped:
        text += " (" + ", ".join(f"{game} {n}" for game, n in sorted(skipped.items())) + ")"
    return text


def _echo_unreadable(
    errors: Iterable[tuple[str, int, str | None, str, str | None]], out: TextIO | None = None
) -> None:
    """Each hand that could not be read: `FILE:LINE: hand ID: reason` and its offending line
    (every command prints them alike)."""
    for file, line, hand_id, message, text in errors:
        hand = f" hand {hand_id}:" if hand_id else ""
        print(f"  {file}:{line}:{hand} {message}", file=out)
        if text:
            print(f"    | {_line_excerpt(text)}", file=out)


def _line_excerpt(text: str, limit: int = 200) -> str:
    """An offending line as printed: a line of megabytes is cut (its length said)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


class _Progress:
    """A one-line "file: N hands, R hands/s" on standard error while a long file is read,
    with a bar and a percentage when the share of the file read is known, when standard
    error is a terminal; erased before the file's summary is printed."""

    def __init__(self, file: str) -> None:
        import time

        self.file = file
        self.clock = time.perf_counter
        self.start = self.last = self.clock()
        self.count = 0
        self.shown = False
        self.live = sys.stderr.isatty()

    def tick(self, hands: int = 1, fraction: float | None = None) -> None:
        """`hands` more hands read; `fraction`, when known: the share of the file read."""
        before = self.count
        self.count += hands
        if self.live and (self.count // 500 > before // 500):
            now = self.clock()
            if now - self.last >= 0.5:
                self.last = now
                rate = self.count / (now - self.start)
                self.show(f"{self.count:,} hands, {rate:,.0f} hands/s", fraction)

    def show(self, text: str, fraction: float | None = None) -> None:
        """`text` in place of the line shown before, after a bar and a percentage when
        `fraction` (the share of the work done) is known."""
        if not self.live:
            return
        bar = ""
        if fraction is not None:
            filled = round(fraction * 20)
            bar = f" [{'#' * filled}{'.' * (20 - filled)}] {fraction:4.0%}"
        sys.stderr.write(f"\r\x1b[K{self.file}:{bar} {text} ")
        sys.stderr.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


@app.command()
def check(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            help="Hand-history files, folders (searched recursively) or glob patterns.",
            show_default=False,
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            help="House rules to check against: a profile name such as pokerstars or casino (default: the site's own)."
        ),
    ] = None,
    json_lines: Annotated[
        bool,
        typer.Option(
            "--json", help="Write one JSON object per hand to standard output, nothing else."
        ),
    ] = False,
    dataset: Annotated[
        str | None,
        typer.Option(
            "--dataset",
            help="Instead of files: the flags and parse errors stored in a Parquet dataset "
            "(handlog import --engine dask).",
            show_default=False,
        ),
    ] = None,
    quiet: QuietOption = False,
) -> None:
    """Parse and replay hand histories under their house rules, without storing them.

    Prints, per file, the hands read, how many were ok, flagged as illegal play, flagged as
    mis-split pots, unparsed (could not be read), skipped (other games), and flagged as
    inconsistent histories (the site's own figures against its lines, the money paid as the
    rules say); then every fault as FILE:LINE: hand ID: CODE (kind): message, with the
    flags that only follow from it indented under it as (consequence), and every hand that
    could not be read as FILE:LINE: hand ID: reason with its offending line. Exit code 0
    when every hand is ok or skipped; 1 otherwise (a fault of any kind, a hand that could
    not be read), or when a path given could not be read (the rest is); 2 when no path
    given exists (every code: handlog --help).

    Example: handlog check sample_logs/

    Example: handlog check --profile casino --json sample_logs/ > flags.jsonl

    With --dataset (no paths): the same counts and flags from the hands a Dask import
    stored, as they were checked then.

    Example: handlog check --dataset audit/
    """
    import json

    from handlog.check import check_file, check_json, count, flag_lines
    from handlog.parse.sites import profile_named

    if dataset is not None:
        if paths or profile or json_lines:
            raise _fail(
                "--dataset reads the stored flags: give no paths, --profile or --json", EXIT_USAGE
            )
        _check_dataset(dataset)
        return
    if not paths:
        raise _fail("give the hand histories to check (or --dataset)", EXIT_USAGE)

    try:
        chosen = profile_named(profile) if profile else None
    except KeyError as error:
        raise _fail(error.args[0], EXIT_USAGE) from None
    files, problems = _files(paths)
    report = sys.stderr if json_lines else sys.stdout
    ascii_json = _ascii_output()
    totals: Counter[str] = Counter()
    for file in files:
        counts: Counter[str] = Counter()
        lines: list[str] = []
        errors = []
        progress = _Progress(file)
        for checked in check_file(file, chosen):
            progress.tick()
            if json_lines:
                sys.stdout.write(json.dumps(check_json(checked), ensure_ascii=ascii_json) + "\n")
            count(counts, checked)
            if checked.error is not None:
                e = checked.error
                errors.append((e.file, e.line, e.hand_id, e.message, e.text))
            else:
                lines.extend(flag_lines(checked))
        progress.done()
        if not quiet:
            print(f"{file}: {_check_summary(counts)}", file=report)
            for line in lines:
                print(line, file=report)
            _echo_unreadable(errors, report)
        totals.update(counts)
    if len(files) > 1 or problems or quiet:
        print(
            f"total, {_files_count(len(files))}: {_check_summary(totals)}{_not_read(problems)}",
            file=report,
        )
    if totals["flagged"] or totals["unparsed"] or problems:
        raise typer.Exit(EXIT_FINDINGS)


def _check_dataset(dataset: str) -> None:
    """`handlog check --dataset`: the flags stored (`handlog.dataset.stored_flags`)."""
    from handlog.dataset import Dataset, stored_flags
    from handlog.snapshot import opened

    with opened(Dataset(dataset)) as connection:  # none there: `NoDatabase`, exit 2
        counts, lines = stored_flags(connection)
    for line in lines:
        print(line)
    print(f"{dataset}: {_check_summary(Counter(counts))}")
    if counts["flagged"] or counts["unparsed"]:
        raise typer.Exit(EXIT_FINDINGS)


def _check_summary(counts: Counter[str]) -> str:
    from handlog.check import summary_text

    return summary_text(counts)


DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", help="Database file (default: $HANDLOG_DB or ./handlog.duckdb).", show_default=False
    ),
]


DatasetOption = Annotated[
    str | None,
    typer.Option(
        "--dataset",
        help="A Parquet dataset written by `handlog import --engine dask` (a folder or an "
        "fsspec URL), read instead of the database file.",
        show_default=False,
    ),
]


def _source(db: str | None, dataset: str | None) -> object:
    """What a reading command reads: the --dataset, else the database file."""
    if dataset is not None:
        if db is not None:
            raise _fail("give --db or --dataset, not both", EXIT_USAGE)
        from handlog.dataset import Dataset

        return Dataset(dataset)
    from handlog.store import database_path

    return database_path(db)


@app.command("import")
def import_(
    paths: PathsArgument,
    db: DbOption = None,
    profile: Annotated[
        str | None,
        typer.Option(
            help="House rules: a profile name such as pokerstars or casino (default: the site's own)."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Worker processes (default: one per core).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the final summary.")] = False,
    engine: Annotated[
        str,
        typer.Option(
            help="duckdb (the database file) or dask (a Parquet --dataset, written by the "
            "workers of a Dask cluster)."
        ),
    ] = "duckdb",
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="--engine dask: the Dask scheduler's address (tcp://host:8786); default: a "
            "local cluster of --workers processes on this machine.",
            show_default=False,
        ),
    ] = None,
    dataset: Annotated[
        str | None,
        typer.Option(
            help="--engine dask: the dataset folder (or fsspec URL every worker can write) "
            "that receives the Parquet files.",
            show_default=False,
        ),
    ] = None,
    timings: Annotated[
        Path | None,
        typer.Option(
            help="Also write where the import's time went to this JSON file: CPU seconds by "
            "stage, of the workers (parse, replay, rows, texts, evidence, arrow) and of this "
            "process (startup, plan, load, commit, summary, and its whole time, parent).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Import hand histories into the database: parse, replay and store every hand once.

    Unchanged files are skipped; a file that grew (a session still being played) is read
    from its last hand on. Hands that cannot be read are kept, with their text, file and
    line, in the parse_errors table. Exit code 0 when every file was stored, even with
    flagged or unreadable hands (they are in the database, and counted); 1 when a path,
    file or archive entry could not be read or stored (each named on its own line, the
    rest imported); 2 when no path exists; 3 when the database is busy; 4 when the
    database cannot be used (the line says why and what to do); 130 when interrupted.

    Example: handlog import sample_logs/

    Example: handlog import --db ~/poker.duckdb ~/PokerStars/HandHistory/

    Example: handlog import --timings times.json ~/PokerStars/HandHistory/

    With --engine dask the ranges of whole hands are tasks on a Dask cluster (a local one,
    or --scheduler's), each written as Parquet files into --dataset, with the same
    guarantees (each hand once, unchanged files skipped, grown files continued, a killed
    worker's range run again, a rerun after a crash finishing the job); report, check,
    show and export read it with --dataset. Exit code 4 when the dataset cannot be written
    or the scheduler reached.

    Example: handlog import --engine dask --dataset audit/ sample_logs/

    Example: handlog import --engine dask --scheduler tcp://10.0.0.5:8786 --dataset /shared/audit /shared/logs/
    """
    from handlog.importer import FilePlan, ImportFailed, Unreadable, import_paths
    from handlog.store import DatabaseBusy, StoreError, database_path

    if engine not in ("duckdb", "dask"):
        raise typer.BadParameter("use duckdb or dask", param_hint="--engine")
    if engine == "dask" or dataset is not None or scheduler is not None:
        if engine != "dask" or dataset is None:
            raise _fail(
                "--dataset and --scheduler go with --engine dask, which needs --dataset", EXIT_USAGE
            )
        if db is not None:
            raise _fail("give --db or --dataset, not both", EXIT_USAGE)
        _import_dataset(paths, dataset, scheduler, workers, profile, quiet)
        return
    files, problems = _files(paths)
    path = database_path(db)

    def on_file(plan: FilePlan, counts: dict[str, int], new: int, errors: list[Unreadable]) -> None:
        if plan.path in progress:
            progress.pop(plan.path).done()
        if not quiet:
            replaced = counts.get("replaced", 0)
            detail = (
                f"{new:,} new, "
                + (f"{replaced:,} replaced, " if replaced else "")
                + f"{counts['illegal']:,} flagged illegal, "
                f"{counts['mis_split']:,} flagged mis-split, "
                f"{counts['inconsistent']:,} inconsistent"
            )
            print(
                f"{plan.path}: "
                f"{_counts(counts['hands'], detail, counts['unparsed'], counts['skipped'])}"
            )
            _echo_unreadable(errors)

    progress: dict[str, _Progress] = {}

    def on_part(plan: FilePlan, hands: int, done: int) -> None:
        if not quiet:
            fraction = min(done / plan.size, 1.0) if plan.size else None
            progress.setdefault(plan.path, _Progress(plan.path)).tick(hands, fraction)

    def finish(summary: ImportSummary, stopped: bool = False) -> None:
        for shown in progress.values():
            shown.done()
        _echo_failed(summary)
        not_imported = len(summary.failed) + problems
        detail = (
            f"{summary.new_hands:,} new, "
            + (f"{summary.replaced:,} replaced, " if summary.replaced else "")
            + f"{summary.duplicates:,} already stored, "
            f"{summary.flagged_illegal:,} flagged illegal, "
            f"{summary.flagged_mis_split:,} flagged mis-split, "
            f"{summary.flagged_inconsistent:,} inconsistent"
        )
        print(
            ("import stopped; before, into " if stopped else "imported into ")
            + f"{path}: {_files_count(summary.files)} ({summary.unchanged:,} unchanged), "
            f"{_counts(summary.hands, detail, summary.unparsed, summary.skipped)}; "
            f"{summary.seconds:.1f} s, {summary.hands_per_second:,.0f} hands/s"
            + (
                f"; {not_imported} {'path' if not_imported == 1 else 'paths'} not imported "
                "(named above)"
                if not_imported
                else ""
            )
        )

    try:
        summary = import_paths(
            files, path, profile, workers, on_file, on_part, _summary_after_import
        )
    except DatabaseBusy as error:
        raise _fail(str(error), EXIT_BUSY) from None
    except ImportFailed as error:
        finish(error.summary, stopped=True)
        raise _fail(str(error), EXIT_STORE) from None
    except StoreError as error:
        raise _fail(str(error), EXIT_STORE) from None
    except KeyboardInterrupt:
        raise _fail(
            "interrupted: what was stored is kept; run the import again to go on from there",
            EXIT_INTERRUPTED,
        ) from None
    finish(summary)
    if timings is not None:
        _write_timings(timings, summary)
    if summary.failed or problems:
        raise typer.Exit(EXIT_FINDINGS)


def _summary_after_import(connection: Any, final: bool = False) -> None:
    """`handlog import`'s hook (`import_paths`' `after_commit`): the server's summary
    tables of a database that has them (`handlog serve` made them) are brought up to date
    once, at the end of the import. Those of a database never served are made by the
    server's first catch-up when it opens it (`handlog.summary`): an import neither pays
    for them nor loads Polars."""
    from handlog.summarized import has_summary

    if final and has_summary(connection):
        from handlog.summary import after_commit

        after_commit(connection, final=True)


@app.command("ev")
def ev(
    db: DbOption = None,
    workers: Annotated[
        int | None, typer.Option(help="Worker processes (default: one per core).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the final summary.")] = False,
) -> None:
    """Compute the all-in EV of the stored hands that do not have it yet.

    An import computes it for the hands it stores; this is for a database imported before
    (by a handlog without all-in EV). Each hand where the betting closed with cards to come
    and the players' cards are known by the end gets its equities per pot and player and
    each player's EV-adjusted net (the report's "EV net"); the others are marked as having
    no all-in. Only the hands not computed yet are read (their stored text, read again), a
    few thousand at a time, each lot committed: interrupted, it goes on from there next
    time. Exit code 0 when done (hands whose text was not stored are counted, left as
    they are); 2 when there is no database; 3 when the database is busy; 4 when it cannot
    be used; 130 when interrupted.

    Example: handlog ev

    Example: handlog ev --db ~/poker.duckdb --workers 1
    """
    from handlog.equity.stored import compute_database
    from handlog.snapshot import existing
    from handlog.store import DatabaseBusy, StoreError, database_path

    path = existing(database_path(db))  # none: exit 2 (`_failure`)
    progress = _Progress(str(path))

    def on_chunk(done: int, total: int) -> None:
        if not quiet and total:
            progress.show(f"{done:,} of {total:,} hands that may have an all-in", done / total)

    try:
        summary = compute_database(path, workers, on_chunk)
    except DatabaseBusy as error:
        raise _fail(str(error), EXIT_BUSY) from None
    except StoreError as error:
        raise _fail(str(error), EXIT_STORE) from None
    except KeyboardInterrupt:
        progress.done()
        raise _fail(
            "interrupted: what was computed is kept; run handlog ev again to go on from there",
            EXIT_INTERRUPTED,
        ) from None
    progress.done()
    left = ""
    if summary.left:
        why = "; ".join(f"{count:,} {reason}" for reason, count in sorted(summary.reasons.items()))
        left = f"; {summary.left:,} left without ({why})"
    print(
        f"all-in EV in {path}: {_plural(summary.hands, 'hand')} computed, "
        f"{summary.all_in:,} with an all-in ({summary.traced:,} traced){left}; "
        f"{summary.seconds:.1f} s"
    )


def _write_timings(target: Path, summary: ImportSummary) -> None:
    """`handlog import --timings`: the summary's CPU seconds by stage, as JSON."""
    import json

    from handlog.store import output_error

    figures = {
        "hands": summary.hands,
        "files": summary.files,
        "seconds": round(summary.seconds, 4),
        "cpu_seconds": {stage: round(value, 6) for stage, value in summary.timings.items()},
    }
    try:
        target.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    except OSError as error:
        raise _fail(str(output_error(error, target)), EXIT_STORE) from None


def _import_dataset(
    paths: list[str],
    dataset: str,
    scheduler: str | None,
    workers: int | None,
    profile: str | None,
    quiet: bool,
) -> None:
    """`handlog import --engine dask`: see `handlog.dataset`."""
    from handlog.dataset import Dataset, DatasetError, import_dataset
    from handlog.parse.sites import profile_named

    if profile:
        try:
            profile_named(profile)
        except KeyError as error:
            raise _fail(error.args[0], EXIT_USAGE) from None
    files, problems = _files(paths)

    progress: dict[str, _Progress] = {}

    def on_part(path: str, hands: int, share: float) -> None:
        if not quiet:
            progress.setdefault(path, _Progress(path)).tick(hands, share)

    def on_file(path: str, counts: dict[str, int], errors: list[tuple]) -> None:  # type: ignore[type-arg]
        if path in progress:
            progress.pop(path).done()
        if not quiet:
            detail = (
                f"{counts['illegal']:,} flagged illegal, {counts['mis_split']:,} flagged "
                f"mis-split, {counts['inconsistent']:,} inconsistent"
            )
            print(
                f"{path}: {_counts(counts['hands'], detail, counts['unparsed'], counts['skipped'])}",
                flush=True,
            )
            _echo_unreadable(errors)

    target = Dataset(dataset)
    try:
        summary = import_dataset(files, target, scheduler, workers, profile, on_file, on_part)
    except DatasetError as error:
        raise _fail(str(error), EXIT_STORE) from None
    except KeyboardInterrupt:
        raise _fail(
            "interrupted: the parts written are kept; run the import again to finish it",
            EXIT_INTERRUPTED,
        ) from None
    finally:
        for shown in progress.values():
            shown.done()
    _echo_failed(summary)
    not_imported = len(summary.failed) + problems
    detail = (
        f"{summary.new_hands:,} new, {summary.duplicates:,} already stored, "
        f"{summary.flagged_illegal:,} flagged illegal, "
        f"{summary.flagged_mis_split:,} flagged mis-split, "
        f"{summary.flagged_inconsistent:,} inconsistent"
    )
    print(
        f"imported into {target} on {summary.workers} Dask "
        f"{'worker' if summary.workers == 1 else 'workers'}: {_files_count(summary.files)} "
        f"({summary.unchanged} unchanged), {summary.parts} parts "
        f"({summary.parts_before} written before), "
        f"{_counts(summary.hands, detail, summary.unparsed, summary.skipped)}; "
        f"{summary.seconds:.1f} s, {summary.hands_per_second:,.0f} hands/s"
        + (
            f"; {not_imported} {'path' if not_imported == 1 else 'paths'} not imported "
            "(named above)"
            if not_imported
            else ""
        )
    )
    if not_imported:
        raise typer.Exit(EXIT_FINDINGS)


def _date(text: str | None, option: str) -> object:
    import datetime as dt

    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(
            f"{text!r} is not a date like 2024-01-31", param_hint=option
        ) from None


@app.command()
def report(
    db: DbOption = None,
    out: Annotated[Path, typer.Option(help="Folder for the report files and charts.")] = Path(
        "reports"
    ),
    player: Annotated[
        str | None,
        typer.Option(
            help="Only this player's figures: SITE:NAME (pokerstars:Hero), a name at one site "
            "only, or a person (handlog alias)."
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            help="Only this game: stud, stud8, razz, stud5, razz27, razz_a6 or stud_hilo."
        ),
    ] = None,
    since: Annotated[
        str | None, typer.Option(help="First day to include, YYYY-MM-DD (UTC).")
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="Last day to include, YYYY-MM-DD (UTC).")
    ] = None,
    format: Annotated[
        str, typer.Option("--format", "-f", help="html (one file, charts inside), md, csv or json.")
    ] = "html",
    dataset: DatasetOption = None,
) -> None:
    """Write win-rates, stud statistics, sessions and flagged hands from the database.

    Reads the database (never changes it) and writes the report and its charts (PNG) into
    --out, then prints a short table. A player is an account (site and name) or a person
    (handlog alias); every row is of one unit (a currency, tournament chips, play money,
    chips in hundredths) and one betting structure; BB/100 uses the 5th-7th street bet;
    days are UTC; each table of the page says what its columns mean. While an import
    writes the database, the report reads a copy taken between two of its commits. Exit
    code 1 when --player or --game matches nothing (or --player names a player at several
    sites: the line lists them); 2 when there is no database; 3 when another program holds
    it; 4 when it cannot be read or the report cannot be written.

    Example: handlog report

    Example: handlog report --player pokerstars:Hero --game razz --since 2024-01-01 --format md

    Example: handlog report --player me   (a person: handlog alias add me ...)

    Example: handlog report --dataset audit/ --format md
    """
    from handlog.report import FORMATS, ReportError, build
    from handlog.report.data import Filters

    if format not in FORMATS:
        raise typer.BadParameter(f"use one of {', '.join(FORMATS)}", param_hint="--format")
    filters = Filters(
        player=player,
        game=game,
        since=_date(since, "--since"),  # type: ignore[arg-type]
        until=_date(until, "--until"),  # type: ignore[arg-type]
    )
    progress = _Progress("report")
    try:
        try:
            result = build(
                _source(db, dataset),  # type: ignore[arg-type]
                out,
                filters,
                format,
                progress=progress.show,
            )
        finally:
            progress.done()  # before any message
    except ReportError as error:  # no database, busy or damaged: `_failure` (2, 3, 4)
        raise _fail(str(error), EXIT_FINDINGS) from None
    except OSError as error:
        from handlog.store import output_error

        raise _fail(str(output_error(error, f"the report into {out}")), EXIT_STORE) from None
    print(result.summary)
    print(
        f"report: {result.paths[0]}"
        + (f" (+{len(result.paths) - 1} files)" if len(result.paths) > 1 else "")
    )
    print(f"{result.hands:,} hands in {result.seconds:.1f} s")


@app.command()
def bench(
    hands: Annotated[
        int, typer.Option(help="Hands in the set (simulated: split evenly over the 3 games).")
    ] = 30_000,
    runs: Annotated[int, typer.Option(help="Runs per figure; the median is reported.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the simulated set.")] = 0,
    source: Annotated[
        str,
        typer.Option(
            help="simulated (a mix of the simulator's games) or corpus (sample_logs/ "
            "replicated with fresh hand numbers)."
        ),
    ] = "simulated",
    with_import: Annotated[
        bool,
        typer.Option("--import/--no-import", help="Also time an end-to-end import and report."),
    ] = True,
    import_hands: Annotated[
        int,
        typer.Option(
            help="Hands of sample_logs/ replicated with fresh hand numbers for the import and "
            "the report (the import's target is measured on at least 200,000 hands); 0: the "
            "set above."
        ),
    ] = 200_000,
    with_pokerkit: Annotated[
        bool,
        typer.Option(
            "--pokerkit/--no-pokerkit", help="Also replay a sample through pokerkit, if installed."
        ),
    ] = True,
    pokerkit_hands: Annotated[
        int, typer.Option(help="Hands in the pokerkit sample (pokerkit is slow).")
    ] = 1_000,
    sites: Annotated[
        Path | None,
        typer.Option(
            help="A folder of exports of any sites (searched recursively): also the parse "
            "speed of each site format found there, its hands replicated to --site-hands."
        ),
    ] = None,
    site_hands: Annotated[int, typer.Option(help="Hands per site for --sites.")] = 20_000,
    import_site_hands: Annotated[
        int,
        typer.Option(
            help="With --sites, also import this many replicated hands of each site, as one "
            "big file, as files of 10 hands and as a zip of those: hands/s, hands per CPU "
            "second and the CPU time per hand of each stage (parse, replay, rows, texts, "
            "evidence, arrow; start-up, planning and hashing, DuckDB load, commits, the "
            "summary hook, process traffic); 0: not measured."
        ),
    ] = 0,
    variant_hands: Annotated[
        int,
        typer.Option(
            help="Also the replay speed of every game in every betting structure (fixed, "
            "spread, pot, no limit), on this many simulated hands of each; 0: not measured."
        ),
    ] = 2_000,
    serve_db: Annotated[
        Path | None,
        typer.Option(
            "--serve",
            help="Only time the pages of `handlog serve` over this database (brought up to "
            "date with the server's summary tables first, which is timed apart).",
            show_default=False,
        ),
    ] = None,
    ev: Annotated[
        bool,
        typer.Option(
            "--ev/--no-ev",
            help="Also the all-in EV (equities at every all-in, EV-adjusted nets) of --ev-hands "
            "simulated tournament hands of every game, parsed, replayed and computed on all "
            "cores.",
        ),
    ] = False,
    ev_hands: Annotated[int, typer.Option(help="Hands in the all-in EV set (--ev).")] = 100_000,
    out: Annotated[Path, typer.Option(help="Where to write the figures as JSON.")] = Path(
        "reports/bench.json"
    ),
) -> None:
    """Measure parse and replay speed (hands/s on one core), the same replay through
    pokerkit as a ratio, `handlog --help` start-up, an end-to-end import (hands/s,
    re-import, database size, peak memory) and the report's time; with --ev, the all-in EV
    of a simulated tournament set (hands/s end to end on all cores, CPU per step, exact and
    sampled spots, the evaluator's rate).

    The set is simulated once into bench_data/ (one file per game, named by game, hands and
    seed) and reused; so is the import's set (--import-hands real hands replicated, 436 MB
    for 200,000). Parse and replay figures are medians of --runs runs, in wall-clock and
    CPU time (the steadier figure on a shared machine). pokerkit replays an even sample of
    the parsed hands; the ratio is handlog's replay rate over the hands pokerkit replayed
    divided by pokerkit's. The import goes into bench_data/bench.duckdb (twice: the second
    finds nothing new; then a tenth as many hands again, numbered after them, into that
    database, as a player's next sessions go) and the report into bench_data/report/. Exit
    code 2 for an option out of range, 4 when a file cannot be written.

    Example: handlog bench

    Example: handlog bench --hands 300000 --runs 1 --no-pokerkit --import-hands 0

    Example: handlog bench --source corpus --hands 20000

    Example: handlog bench --sites ../shared/corpus --no-import --no-pokerkit --hands 3000

    Example: handlog bench --hands 3000 --no-import --no-pokerkit --variant-hands 5000

    Example: handlog bench --sites ../shared/corpus --import-site-hands 20000 --no-import --no-pokerkit --variant-hands 0

    With --serve DB only the pages of `handlog serve` are timed over DB (each page the
    median and the slowest of --runs requests, after one to warm it), the summary tables
    brought up to date first (timed apart).

    Example: handlog bench --serve big.duckdb --runs 5

    Example: handlog bench --ev --hands 3000 --runs 1 --no-import --no-pokerkit --variant-hands 0
    """
    import json

    from handlog.bench import format_table, run_benchmarks

    if serve_db is not None:
        _bench_serve(serve_db, runs, out)
        return

    if source not in ("simulated", "corpus"):
        raise typer.BadParameter("use simulated or corpus", param_hint="--source")
    if hands < 1 or runs < 1:
        raise typer.BadParameter("--hands and --runs must be at least 1")
    if import_hands < 0 or variant_hands < 0 or import_site_hands < 0:
        raise typer.BadParameter(
            "--import-hands, --variant-hands and --import-site-hands must be 0 or more"
        )
    if ev and ev_hands < 1:
        raise typer.BadParameter("--ev-hands must be at least 1", param_hint="--ev-hands")
    if sites is not None and not sites.is_dir():
        raise typer.BadParameter(f"{sites} is not a folder", param_hint="--sites")
    from handlog.store import StoreError

    try:
        figures = run_benchmarks(
            hands=hands,
            runs=runs,
            seed=seed,
            source=source,
            include_import=with_import,
            include_pokerkit=with_pokerkit,
            pokerkit_limit=pokerkit_hands,
            echo=lambda text: typer.echo(text, err=True),
            import_hands=import_hands,
            sites=sites,
            site_hands=site_hands,
            variant_hands=variant_hands,
            ev_hands=ev_hands if ev else 0,
            import_site_hands=import_site_hands,
        )
        typer.echo(format_table(figures))
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    except StoreError as error:
        raise _fail(str(error), EXIT_STORE) from None
    except OSError as error:
        if _reader_gone(error):
            raise typer.Exit(EXIT_PIPE) from None
        where = error.filename or out
        raise _fail(f"cannot write {where}: {error.strerror or error}", EXIT_STORE) from None
    typer.echo(f"written to {out}")


@app.command()
def simulate(
    game: Annotated[
        str,
        typer.Option(
            help="The game: stud, stud8 (hi/lo 8-or-better), razz, stud5 (5-card stud), razz27 "
            "(2-7 razz), razz_a6 (London lowball, ace-to-six) or stud_hilo (hi/lo, any low).",
            show_default=False,
        ),
    ],
    hands: Annotated[int, typer.Option(help="How many hands to write.", show_default=False)],
    out: Annotated[
        Path, typer.Option(help="The hand-history file to write (replaced).", show_default=False)
    ],
    players: Annotated[int, typer.Option(help="Players at the table, 2 to 8.")] = 8,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same file.")] = 0,
    structure: Annotated[
        str,
        typer.Option(
            help="The betting structure: fixed (fixed limit), spread (spread limit), pot (pot "
            "limit) or no (no limit)."
        ),
    ] = "fixed",
    stakes: Annotated[
        str | None,
        typer.Option(
            help="Small/big bet: dollars for cash (default 0.04/0.08; spread limit: the "
            "spread's bottom/top, default 0.04/0.16; pot and no limit: the smallest bet of the "
            "early and the big-bet streets), chips for tournaments (default: levels rising "
            "from 10/20).",
            show_default=False,
        ),
    ] = None,
    tournament: Annotated[
        bool, typer.Option("--tournament", help="Tournament hands (chips, levels, no rake).")
    ] = False,
    faults: Annotated[
        float,
        typer.Option(
            help="Share of hands (0 to 1) given exactly one injected rule violation; they are "
            "listed in OUT.faults.jsonl as {hand_id, code}."
        ),
    ] = 0.0,
    site: Annotated[
        str,
        typer.Option(
            help="Whose hand histories: the site's printer writes them and its house rules are "
            "played (pokerstars deals every game and structure; other sites the forms they deal)."
        ),
    ] = "pokerstars",
) -> None:
    """Write simulated hand histories: legal hands dealt from real decks and played under the
    site's house rules (PokerStars by default), optionally with known injected faults.

    Every stud game in every betting structure: players fold, bring in, complete, raise (to
    the cap in fixed and spread limit; the least raise, the pot, all-in in pot and no limit),
    go all-in for less (side pots), make open-pair double bets, and show down (hi/lo splits,
    ties, the community card with eight players), with chat and table noise now and then. `handlog check` finds the simulated
    hands ok, and every injected fault flagged with its code. Exit code 2 for an option out
    of range, 4 when OUT cannot be written.

    Example: handlog simulate --game razz --hands 10000 --players 6 --seed 7 --out razz.txt

    Example: handlog simulate --game stud8 --hands 2000 --seed 1 --faults 0.1 --tournament --out faulty.txt

    Example: handlog simulate --game razz_a6 --structure pot --hands 2000 --out london.txt

    Example: handlog simulate --game stud8 --site fulltilt --hands 1000 --out fulltilt.txt
    """
    from handlog.model import Game, Site, Structure
    from handlog.parse.sites import format_for
    from handlog.rules.structures import STRUCTURES
    from handlog.simulate import (
        SIMULATED_GAMES,
        SIMULATED_STRUCTURES,
        SimulationOptions,
        StakesError,
        parse_stakes,
        write_simulation,
    )

    names = {g.value: g for g in SIMULATED_GAMES}
    if game not in names:
        raise _fail(f"--game must be one of {', '.join(names)}, not {game!r}", EXIT_USAGE)
    structures = {s.value: s for s in SIMULATED_STRUCTURES}
    if structure not in structures:
        raise _fail(
            f"--structure must be one of {', '.join(structures)}, not {structure!r}", EXIT_USAGE
        )
    chosen_structure = Structure(structure)
    formats = {member: format_for(member) for member in Site}
    sites = {member.value: member for member, found in formats.items() if found and found.deals}
    if site not in sites:
        raise _fail(f"--site must be one of {', '.join(sites)}, not {site!r}", EXIT_USAGE)
    try:
        chosen = parse_stakes(stakes, tournament, chosen_structure) if stakes is not None else None
        options = SimulationOptions(
            Game(game),
            hands,
            players,
            seed,
            chosen,
            tournament,
            fault_rate=faults,
            structure=chosen_structure,
            site=sites[site],
        )
        options.check()
    except (StakesError, ValueError) as error:
        raise _fail(str(error), EXIT_USAGE) from None
    progress = _Progress(str(out))

    def on_progress(count: int) -> None:
        progress.tick(count - progress.count)

    try:
        summary = write_simulation(options, out, on_progress)
    except OSError as error:
        progress.done()
        raise _fail(f"cannot write {out}: {error.strerror or error}", EXIT_STORE) from None
    progress.done()
    size = summary.bytes / 1e6
    label = (
        game
        if chosen_structure is Structure.FIXED
        else f"{game} {STRUCTURES[chosen_structure].title}"
    )
    text = (
        f"wrote {summary.hands:,} {label} hands to {out} ({size:,.1f} MB) in "
        f"{summary.seconds:.1f} s, {summary.hands_per_second:,.0f} hands/s"
    )
    if summary.faults_path is not None:
        count = sum(summary.faults.values())
        text += f"; {count:,} with an injected fault, listed in {summary.faults_path}"
    typer.echo(text)


@app.command()
def show(
    hand_id: Annotated[str, typer.Argument(help="The hand number, as in the report.")],
    db: DbOption = None,
    color: Annotated[
        bool | None,
        typer.Option("--color/--no-color", help="Colour the flags (default: on a terminal)."),
    ] = None,
    text: Annotated[
        bool,
        typer.Option("--text/--no-text", help="Also print the hand as it stands in its file."),
    ] = True,
    dataset: DatasetOption = None,
) -> None:
    """Print any stored hand: its replay street by street, then its text, flags marked.

    The replay is the rules engine's own (every event with the pot after it and whose turn
    it is, the pots as the rules award them, each player's net); each flag is marked under
    the event it was raised at, and on its line of the text, with what the replay knew
    there. A hand number stored at two sites prints both. While an import writes the
    database, a copy taken between two of its commits is read. Exit code 1 when there is no
    such hand; 2 when there is no database; 3 when another program holds it; 4 when it
    cannot be read (every code: handlog --help).

    Example: handlog show 35874039554

    Example: handlog show 35874039554 --db ~/poker.duckdb --no-color | less
    """
    from handlog.show import ShowError, lookup, show_all

    try:
        found = lookup(_source(db, dataset), hand_id)
    except ShowError as error:  # no such hand (no database, busy or damaged: 2, 3 or 4)
        raise _fail(str(error), EXIT_FINDINGS) from None
    use_color = sys.stdout.isatty() if color is None else color
    typer.echo(show_all(found, use_color, text), color=use_color)


@app.command("export")
def export_(
    out: Annotated[Path, typer.Option(help="Folder to write into (its tables are replaced).")],
    db: DbOption = None,
    format: Annotated[
        str, typer.Option("--format", "-f", help="parquet, csv or phh (the stud hands).")
    ] = "parquet",
    dataset: DatasetOption = None,
) -> None:
    """Write every stored table as Parquet or CSV files, or the hands as PHH.

    The per-hand tables (hands, hand_players, actions, pots, awards, violations,
    hand_evidence) go into one folder each, split Hive-style by site and game
    (hands/site=pokerstars/game=razz/...); parse_errors, skipped and imports into one file
    each. Money in integer minor units, as stored. --format phh writes the stud, stud hi/lo
    and razz hands as PHH (variants F7S, F7S/8, FR; .phhs files by site and game), which
    pokerkit reads. The database is only read (while an import writes it, a copy taken
    between two of its commits). Exit code 2 when there is no database; 3 when another
    program holds it; 4 when it cannot be read or --out cannot be written (every code:
    handlog --help).

    Example: handlog export --format parquet --out export/

    Example: handlog export --format phh --out phh/

    Example: handlog export --db ~/poker.duckdb --format csv --out ~/stud-tables
    """
    from handlog.export import ExportError, export

    try:
        written = export(_source(db, dataset), out, format)  # type: ignore[arg-type]
    except ExportError as error:  # an unknown format (no database and the rest: _failure)
        raise _fail(str(error), EXIT_USAGE) from None
    for item in written:
        note = f" ({item.note})" if item.note else ""
        typer.echo(f"{item.table}: {item.rows:,} rows in {item.files} file(s) at {item.path}{note}")


def _bench_serve(database: Path, runs: int, out: Path) -> None:
    """`handlog bench --serve`: the pages' times (handlog.serve.bench)."""
    import json

    from handlog.bench import format_table
    from handlog.serve.bench import page_figures
    from handlog.snapshot import existing
    from handlog.store import DatabaseBusy, StoreError

    existing(database)  # none: exit 2 (`_failure`)
    try:
        figures = page_figures(database, max(runs, 1), lambda text: typer.echo(text, err=True))
    except DatabaseBusy as error:
        raise _fail(str(error), EXIT_BUSY) from None
    except StoreError as error:
        raise _fail(str(error), EXIT_STORE) from None
    typer.echo(format_table(figures))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    typer.echo(f"written to {out}")


@app.command()
def serve(
    db: DbOption = None,
    watch: Annotated[
        list[str] | None,
        typer.Option(
            "--watch",
            help="A folder (or file) whose new and growing hand histories are imported as "
            "they are written; open pages update. Give it again for more.",
            show_default=False,
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            help="The address to serve on: this machine only by default. Another address "
            "serves the network it is on (give the interface's own address)."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port (0: any free one).")] = 8000,
    profile: Annotated[
        str | None,
        typer.Option(help="House rules for the hands imported by --watch (default: the site's)."),
    ] = None,
    dataset: Annotated[
        str | None,
        typer.Option(
            "--dataset",
            help="Not served: a Parquet dataset (handlog import --engine dask) is read by "
            "report, check, show and export; serve a database file.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Explore the database in a browser: win-rates with charts and filters, every hand
    (replayed step by step), flags, sessions and read-only SQL; with --watch, hands are
    imported as they are written and open pages follow.

    Prints its address and serves until Ctrl-C; opens nothing else. Every view is a URL
    (filters in the query string), with JSON beside it (the same path with .json). It
    answers only requests for the address it serves (a page of another site cannot read
    it), and only on this machine unless --host says otherwise. While it runs, other
    imports into the same database are told it is busy (exit 3): import through --watch;
    `handlog report` reads a copy.

    Example: handlog serve

    Example: handlog serve --watch ~/PokerStars/HandHistory/ --port 8080

    Example: handlog serve --db ~/poker.duckdb --watch ~/hh/stars --watch ~/hh/ftp
    """
    from handlog.serve import Options, ServeError
    from handlog.serve import serve as run
    from handlog.store import DatabaseBusy, StoreError, database_path

    if dataset is not None:
        raise _fail(
            f"--dataset {dataset}: serve reads a database file, whose summary tables it "
            "keeps up to date, not a Parquet dataset; import the hand histories into one "
            "(handlog import FILES --db FILE) and serve that, or read the dataset with "
            "handlog report --dataset",
            EXIT_USAGE,
        )
    if not 0 <= port <= 65535:
        raise typer.BadParameter("a port is 0 to 65535", param_hint="--port")
    folders = list(watch or [])
    for folder in folders:
        if not Path(folder).exists():
            raise _fail(f"--watch {folder}: no such folder or file", EXIT_USAGE)
    options = Options(database_path(db), folders, host, port, profile)
    try:
        run(options)
    except ServeError as error:
        raise _fail(str(error), EXIT_USAGE) from None
    except DatabaseBusy as error:
        raise _fail(str(error), EXIT_BUSY) from None
    except StoreError as error:
        raise _fail(str(error), EXIT_STORE) from None
    except KeyboardInterrupt:
        raise typer.Exit(0) from None


alias_app = typer.Typer(
    help=(
        "Say which accounts are one person: reports then show the person's figures, each "
        'unit apart. An account is SITE:NAME (pokerstars:Hero, "Full Tilt:HeroFT"), or a '
        "name alone where it is at one site only. Stored in the database.\n\n"
        'Example: handlog alias add me pokerstars:Hero "Full Tilt:HeroFT"\n\n'
        "Example: handlog alias list\n\n"
        "Example: handlog alias remove me fulltilt:HeroFT"
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)
app.add_typer(alias_app, name="alias")


def _writable(db: str | None):  # type: ignore[no-untyped-def]
    """The database opened for writing (a few rows: aliases), or a one-line exit."""
    from handlog.snapshot import existing
    from handlog.store import DatabaseBusy, StoreError, connect, database_path

    path = existing(database_path(db))  # none: exit 2 (`_failure`)
    try:
        return connect(path)
    except DatabaseBusy as error:
        raise _fail(str(error), EXIT_BUSY) from None
    except StoreError as error:
        raise _fail(str(error), EXIT_STORE) from None


@alias_app.command("add")
def alias_add(
    person: Annotated[str, typer.Argument(help="The person's name (yours: me).")],
    accounts: Annotated[
        list[str], typer.Argument(help="Their accounts: SITE:NAME, or a name at one site only.")
    ],
    db: DbOption = None,
) -> None:
    """Say that ACCOUNTS are one person, PERSON (added to their accounts if they have some).

    Every account must be in the database; an account of another person must be removed
    from there first. Exit code 1 when an account is not there or is ambiguous (the line
    lists the sites), 2 when there is no database, 3 when an import holds it.

    Example: handlog alias add me pokerstars:Hero "Full Tilt:HeroFT"

    Example: handlog alias add --db ~/poker.duckdb me Hero
    """
    from handlog.players import PlayerError, add_alias

    connection = _writable(db)
    try:
        added = add_alias(connection, person, accounts)
    except PlayerError as error:
        raise _fail(str(error), EXIT_FINDINGS) from None
    finally:
        connection.close()
    typer.echo(f"{person}: " + ", ".join(str(account) for account in added))


@alias_app.command("list")
def alias_list(db: DbOption = None) -> None:
    """List every person and their accounts.

    Example: handlog alias list
    """
    from handlog.players import aliases

    connection = _writable(db)
    try:
        people = aliases(connection)
    finally:
        connection.close()
    if not people:
        typer.echo("no persons yet: handlog alias add NAME SITE:ACCOUNT ...")
    for person, accounts in people.items():
        typer.echo(f"{person}: " + ", ".join(str(account) for account in accounts))


@alias_app.command("remove")
def alias_remove(
    person: Annotated[str, typer.Argument(help="The person.")],
    accounts: Annotated[
        list[str] | None,
        typer.Argument(help="The accounts to take from them (default: all: the person goes)."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Take ACCOUNTS (all of them by default) from the person PERSON.

    Exit code 1 when there is no such person or account of theirs.

    Example: handlog alias remove me fulltilt:HeroFT

    Example: handlog alias remove me
    """
    from handlog.players import PlayerError, remove_alias

    connection = _writable(db)
    try:
        removed = remove_alias(connection, person, accounts)
    except PlayerError as error:
        raise _fail(str(error), EXIT_FINDINGS) from None
    finally:
        connection.close()
    typer.echo(f"{person}: {removed} {'account' if removed == 1 else 'accounts'} removed")


def _echo_failed(summary: ImportSummary) -> None:
    """One line for each file an import could not store (either engine's summary)."""
    for failed, reason in summary.failed:
        typer.echo(
            f"handlog: {failed}: {reason} (the rest is imported; import it again once "
            "fixed: nothing is stored twice)",
            err=True,
        )


def main() -> None:
    import gc

    # Parsing builds tens of small records per hand, none of them in reference cycles; the
    # default thresholds run the cycle collector every 700 allocations (about 10% of parse
    # time). Collect far less often.
    gc.set_threshold(50_000, 20, 100)
    # NumPy (which pyarrow imports) starts OpenBLAS's threads, a thread per core, which spin
    # for work some 0.1 s after it is loaded: handlog does no linear algebra, and on two
    # cores an import's parent burnt ~0.15 CPU s in them while its workers parsed (measured,
    # 20,000 PokerStars hands). A user's own setting is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    _check_settings()
    try:
        app()
    except SystemExit as done:
        if done.code == EXIT_INTERRUPTED:
            _leave_interrupted()
        raise
    except KeyboardInterrupt:  # Ctrl-C after the command's own answer to it (a second one)
        _leave_interrupted()


def _check_settings() -> None:
    """A setting of the environment that cannot be used: one line, exit 2 (before any
    command reads it, in a worker or half way through a file)."""
    if os.environ.get("HANDLOG_CLOCK_ZONES"):
        from handlog.parse.text import CLOCK_ZONES_ENV, clock_zones

        try:
            clock_zones()
        except ValueError as error:
            typer.echo(f"handlog: {CLOCK_ZONES_ENV}: {error}", err=True)
            raise SystemExit(EXIT_USAGE) from None


def _leave_interrupted() -> None:
    """Exit with 130 now, past the interpreter's shutdown. The command has answered Ctrl-C
    (its line written, what was stored committed, workers stopped); a Ctrl-C still pending
    or arriving while Python shuts down would otherwise end the process by the signal itself
    (exit -2, seen once in CI) or with a traceback from some shutdown hook."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(EXIT_INTERRUPTED)


if __name__ == "__main__":
    main()
