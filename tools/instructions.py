"""Instructions per hand of each stage of an import's worker, counted by valgrind (cachegrind).

Timings on this shared VM swing by a third between minutes; instruction counts swing by up
to 3% between runs of the same code (objects land at other addresses, and some are hashed by
address): compare a few runs each, and trust a difference of a few percent only when the runs
do not overlap. Each stage runs once to warm every cache, then once in one process and three
times in another; the difference is two passes of the stage alone.

Usage: python tools/instructions.py [FILE] [STAGE ...]
  FILE    a hand history (default: bench_data/pokerstars-2000.txt, made by `handlog bench
          --source corpus --hands 2000`); a few thousand hands keep it to two minutes a stage
  STAGE   parse, check (parse + replay), rows (+ the stored rows), arrow (+ Arrow tables);
          default all four. Each figure includes the stages before it. Also: trace (parse,
          replay, and the rules' trace of each hand whose replay allows an all-in, as an
          import's EV traces them: `equity.hands.may_have_all_in`).
Needs valgrind. Run it from the repository with the project's Python (.venv/bin/python).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

STAGES = ("parse", "check", "rows", "arrow")
EXTRA_STAGES = ("trace",)

_RUN = """
import gc, sys
gc.set_threshold(50_000, 20, 100)
from handlog import store
from handlog.check import check_items
from handlog.parse import parse_file
path, stage = sys.argv[1], sys.argv[2]
def run(stage):
    if stage == "parse":
        for _ in parse_file(path):
            pass
        return
    if stage == "trace":
        from handlog.check import hand_rules
        from handlog.equity.hands import may_have_all_in
        from handlog.rules.trace import trace
        for checked in check_items(parse_file(path), path, None):
            if checked.replay is not None and may_have_all_in(checked.replay):
                trace(checked.hand, *hand_rules(checked.hand))
        return
    batch = store.Batch()
    for checked in check_items(parse_file(path), path, None):
        if stage != "check":
            store.add_checked(batch, checked)
    if stage == "arrow":
        batch.arrow()
run("arrow")
for _ in range(int(sys.argv[3])):
    run(stage)
"""


def _instructions(path: str, stage: str, passes: int) -> int:
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            _RUN,
            path,
            stage,
            str(passes),
        ],
        env={**os.environ, "PYTHONHASHSEED": "0"},  # the same string hashes every run
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    arguments = sys.argv[1:]
    path = "bench_data/pokerstars-2000.txt"
    if arguments and arguments[0] not in STAGES + EXTRA_STAGES:
        path = arguments.pop(0)
    stages = arguments or list(STAGES)
    if not os.path.exists(path):
        raise SystemExit(f"{path} does not exist (make it with `handlog bench --source corpus`)")
    from handlog.model import Hand
    from handlog.parse import parse_file

    hands = sum(isinstance(item, Hand) for item in parse_file(path))
    for stage in stages:
        per_hand = (_instructions(path, stage, 3) - _instructions(path, stage, 1)) / (2 * hands)
        print(f"{stage:6} {per_hand:12,.0f} instructions a hand ({hands:,} hands)", flush=True)


if __name__ == "__main__":
    main()
