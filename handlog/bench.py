"""The project's benchmark: parse throughput on replicated real hands, and CLI start-up."""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from handlog.parse import parse_file, pokerstars
from handlog.parse.reader import split_hands

_NUMBER = re.compile(r"#(\d+):")


def replicate(source: Path, hands: int, out: Path) -> Path:
    """Write `hands` PokerStars hands, copied from the files in `source` with fresh hand
    numbers, to one file in `out` (reused when it already exists)."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"pokerstars-{hands}.txt"
    if target.exists():
        return target
    originals: list[list[str]] = []
    for file in sorted(source.glob("*.txt")):
        for chunk in split_hands(file, pokerstars.is_header, pokerstars.HEADER_PREFIX):
            if chunk.is_hand:
                originals.append(chunk.lines)
    if not originals:
        raise SystemExit(f"no PokerStars hands in {source} to replicate")
    with open(target, "w", encoding="utf-8", newline="\n") as handle:
        for number in range(hands):
            lines = originals[number % len(originals)]
            header = _NUMBER.sub(f"#{900_000_000_000 + number}:", lines[0], count=1)
            handle.write("\n".join([header, *lines[1:]]) + "\n\n\n")
    return target


def _time(function: Any, runs: int) -> tuple[float, float]:
    """Median wall-clock and CPU seconds of `runs` calls. CPU time leaves out what other
    machines sharing the host take (steal), so it is the steadier figure on a VM."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return statistics.median(walls), statistics.median(cpus)


def import_figures(file: Path, data: Path) -> dict[str, Any]:
    """End-to-end `handlog import` of `file` into a new database, then again (unchanged):
    hands/s, seconds, database size, peak memory of the import and its workers."""
    import resource

    database = data / "bench.duckdb"
    for stale in (database, data / "bench.duckdb.wal"):
        stale.unlink(missing_ok=True)
    executable = shutil.which("handlog") or str(Path(sys.executable).with_name("handlog"))
    figures: dict[str, Any] = {}
    for label in ("import", "reimport"):
        start = time.perf_counter()
        done = subprocess.run(
            [executable, "import", "--quiet", "--db", str(database), str(file)],
            capture_output=True,
            text=True,
            check=True,
        )
        seconds = time.perf_counter() - start
        figures[f"{label}.seconds"] = round(seconds, 2)
        if label == "import":
            hands = int(done.stdout.split(" new hands")[0].rsplit(" ", 1)[1])
            figures["import.hands"] = hands
            figures["import.hands_per_second"] = round(hands / seconds)
    figures["import.database_mb"] = round(database.stat().st_size / 1e6, 1)
    # The largest resident size of any process run so far (the imports and their workers).
    usage = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    figures["import.peak_memory_mb"] = round(usage / 1024)
    return figures


def report_figures(data: Path) -> dict[str, Any]:
    """`handlog report` (HTML with charts) over the database the import figures filled."""
    executable = shutil.which("handlog") or str(Path(sys.executable).with_name("handlog"))
    start = time.perf_counter()
    subprocess.run(
        [executable, "report", "--db", str(data / "bench.duckdb"), "--out", str(data / "report")],
        capture_output=True,
        check=True,
    )
    return {"report.seconds": round(time.perf_counter() - start, 2)}


def run_benchmarks(
    hands: int = 20_000,
    runs: int = 3,
    source: Path = Path("sample_logs"),
    data: Path = Path("bench_data"),
    include_import: bool = True,
) -> dict[str, Any]:
    """Median figures over `runs` runs, as a flat dict for printing and JSON."""
    file = replicate(source, hands, data)
    parsed = 0

    def parse_all() -> None:
        nonlocal parsed
        parsed = sum(1 for _ in parse_file(file))

    parse_all()  # warm-up: grammar compilation and caches are not what is measured
    wall, cpu = _time(parse_all, runs)
    figures: dict[str, Any] = {
        "parse.hands": parsed,
        "parse.seconds": round(wall, 3),
        "parse.hands_per_second": round(parsed / wall),
        "parse.hands_per_cpu_second": round(parsed / cpu),
        "python": sys.version.split()[0],
        "cpu_count": os.cpu_count(),
    }
    executable = shutil.which("handlog") or str(Path(sys.executable).with_name("handlog"))
    if Path(executable).exists():
        startup, _ = _time(
            lambda: subprocess.run([executable, "--help"], capture_output=True, check=True), 5
        )
        figures["cli.help_seconds"] = round(startup, 3)
        if include_import:
            figures.update(import_figures(file, data))
            figures.update(report_figures(data))
    return figures
