"""One count: `parse`, `check`, `import` and the report say the same of every file (its hands
read, its unreadable hands, its skipped hands), and each command prints every hand that
could not be read with its reason.

Over sample_logs/ and tests/sites/ always, and the whole of ../shared/corpus when it is
there. The report counts the hands stored from a file: those the import found new in it (a
hand also in a file imported before is stored once, with that one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handlog.cli import app

from .conftest import SAMPLE_LOGS, SHARED_CORPUS, SITES

runner = CliRunner()

_LINE = re.compile(
    r"^(?P<file>.+?): (?P<hands>[\d,]+) hands?"
    r"(?:(?: \((?P<detail>[^)]*)\))?, |: (?P<verdicts>.*?), )"
    r"(?P<unreadable>[\d,]+) unparsed, (?P<skipped>[\d,]+) skipped"
)
_FLAG = re.compile(r"[A-Z_]+(?: \([a-z -]+\))?: ")
"""A flag's line (`CODE (kind): message`), not a reason a hand could not be read."""
_UNREADABLE = re.compile(r"^  (?P<file>.+?):(?P<line>\d+):(?: hand [^:]+:)? (?P<reason>.+)$")


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _per_file(output: str) -> tuple[dict[str, tuple[int, int, int, str]], dict[str, list[int]]]:
    """Each file's line (hands, unreadable, skipped, detail) and the lines of its
    unreadable hands."""
    counts: dict[str, tuple[int, int, int, str]] = {}
    reasons: dict[str, list[int]] = {}
    for line in output.splitlines():
        found = _LINE.match(line)
        if found and not line.startswith(("total,", "imported into")):
            counts[found["file"]] = (
                _number(found["hands"]),
                _number(found["unreadable"]),
                _number(found["skipped"]),
                found["detail"] or "",
            )
            continue
        reason = _UNREADABLE.match(line)
        if reason and not _FLAG.match(reason["reason"]):  # not a flag's CODE (kind):
            reasons.setdefault(reason["file"], []).append(int(reason["line"]))
    return counts, reasons


def _folders() -> list[Path]:
    folders = [SAMPLE_LOGS, SITES]
    if SHARED_CORPUS.is_dir():
        folders.append(SHARED_CORPUS)
    return folders


@pytest.mark.parametrize("folder", _folders(), ids=lambda p: p.name)
def test_every_command_counts_each_file_alike(folder, tmp_path):
    parse = runner.invoke(app, ["parse", str(folder)])
    check = runner.invoke(app, ["check", str(folder)])
    db = tmp_path / "h.duckdb"
    imported = runner.invoke(app, ["import", "--db", str(db), "--workers", "2", str(folder)])
    assert imported.exit_code == 0, imported.output
    report = runner.invoke(
        app, ["report", "--db", str(db), "--format", "json", "--out", str(tmp_path / "r")]
    )
    assert report.exit_code == 0, report.output
    parsed, parse_reasons = _per_file(parse.output)
    checked, check_reasons = _per_file(check.output)
    stored, import_reasons = _per_file(imported.output)
    assert parsed and parsed.keys() == checked.keys() == stored.keys()
    files = json.loads((tmp_path / "r" / "report.json").read_text())["tables"]["files"]
    reported = {row["file"]: row for row in files}
    unreadable = 0
    for file, (hands, errors, skipped, _) in parsed.items():
        assert checked[file][:3] == (hands, errors, skipped), file
        assert stored[file][:3] == (hands, errors, skipped), file
        # Every unreadable hand printed with its reason by each command, at the same line.
        assert parse_reasons.get(file, []) == check_reasons.get(file, []), file
        assert parse_reasons.get(file, []) == import_reasons.get(file, []), file
        assert len(parse_reasons.get(file, [])) == errors, file
        unreadable += errors
        new = _number(stored[file][3].split(" new")[0])
        row = reported.get(file, {"hands": 0, "unparsed": 0, "skipped": 0})
        assert (row["hands"], row["unparsed"], row["skipped"]) == (new, errors, skipped), file
    if folder == SITES:
        assert unreadable > 0  # the fault-* fixtures: there is something to print
    # The totals say the same.
    assert (
        parse.output.splitlines()[-1]
        .split(": ", 1)[1]
        .startswith(f"{sum(c[0] for c in parsed.values()):,} hand")
    )


def test_quiet_prints_the_summary_only(tmp_path):
    parse = runner.invoke(app, ["parse", "-q", str(SITES)])
    lines = [line for line in parse.output.splitlines() if not line.startswith("handlog: ")]
    assert len(lines) == 1 and lines[0].startswith("total, ") and "unparsed" in lines[0]
    check = runner.invoke(app, ["check", "--quiet", str(SITES)])
    lines = [line for line in check.output.splitlines() if not line.startswith("handlog: ")]
    assert len(lines) == 1 and lines[0].startswith("total, ")
