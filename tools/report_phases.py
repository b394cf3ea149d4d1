"""Time each phase of `handlog report`'s scaled engine: wall and CPU seconds (this process and
its threads) for prepare, the win-rates and flags, the page (charts, evidence, cells),
statistics, the cumulative chart and render, and the peak memory (resident set) reached by
the end of each.

    python tools/report_phases.py DB [OUT] [--format html|json]

Runs the same steps as `report.build(..., engine="scaled")` (no filters), writing the report
to OUT (default: a temporary folder), and prints one line per phase. The steps run one after
the other here; the report makes the page while the statistics are computed.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl

from handlog import report
from handlog.report import render, scaled
from handlog.report.data import Filters
from handlog.snapshot import reading

_PHASES: list[tuple[str, float, float, int]] = []


@contextmanager
def phase(name: str) -> Iterator[None]:
    wall, cpu = time.perf_counter(), time.process_time()
    yield
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    _PHASES.append((name, time.perf_counter() - wall, time.process_time() - cpu, peak))


def main() -> int:
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    fmt = "json" if "--format=json" in sys.argv or "json" in sys.argv[1:] else "html"
    db = Path(arguments[0])
    out = Path(arguments[1]) if len(arguments) > 1 else Path(tempfile.mkdtemp())
    filters = Filters()
    started = time.perf_counter(), time.process_time()
    out.mkdir(parents=True, exist_ok=True)
    with reading(db) as connection:
        with phase("prepare"):
            asked = report._check_filters(connection, filters)
            data = scaled.prepare(connection, filters, asked.accounts, asked.people)
        try:
            with phase("win-rates and flags"):
                tables = report._scaled_winrates(data, asked)
            # One after the other here, to time each; `handlog report` makes the page
            # while the statistics are computed.
            with phase("page"):
                tables.files = report._files(connection, asked.file_heroes)
                sections = report._page(connection, tables, out, fmt)
            with phase("statistics"):
                statistics = scaled.statistics(data, tables.focus)
        finally:
            data.close()
    with phase("cumulative"):
        report._add_statistics(sections, tables, statistics, out)
    with phase("render"):
        if fmt == "html":
            render.html_page("handlog report", "", sections, out)
        else:
            render.json_file({}, sections, out)
    for name, wall, cpu, peak in _PHASES:
        print(f"{name:20} {wall:7.2f} s wall {cpu:7.2f} s CPU, peak so far {peak:,} MB")
    wall = time.perf_counter() - started[0]
    cpu = time.process_time() - started[1]
    print(
        f"{'total':20} {wall:7.2f} s wall {cpu:7.2f} s CPU ({data.hands:,} hands, {pl.__version__})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
