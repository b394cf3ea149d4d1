"""Measure replay + checks throughput (hands per CPU second, one core) over parsed hands.

Usage: python tools/replay_speed.py [FILE] [--profile]   (FILE defaults to the benchmark's
replicated corpus in bench_data/, made by `handlog bench`). Prints the median of seven runs
and the best one: on a shared VM the best is the steadier figure."""

import gc
import statistics
import sys
import time

from handlog.model import Hand
from handlog.parse import parse_file
from handlog.rules.fast import replay_clean as _replay_clean
from handlog.rules.profiles import POKERSTARS
from handlog.rules.replay import replay

gc.set_threshold(50_000, 20, 100)
path = next((a for a in sys.argv[1:] if not a.startswith("--")), "bench_data/pokerstars-20000.txt")
hands = [h for h in parse_file(path) if isinstance(h, Hand)][:6000]
replay(hands[0], POKERSTARS)
runs = []
for _ in range(7):
    start = time.process_time()
    for hand in hands:
        replay(hand, POKERSTARS)
    runs.append(time.process_time() - start)
median, best = statistics.median(runs), min(runs)
fast = sum(_replay_clean(hand, POKERSTARS) is not None for hand in hands)
print(
    f"replay: {len(hands) / median:,.0f} hands/s median, {len(hands) / best:,.0f} best "
    f"({median / len(hands) * 1e6:.0f} us/hand median, {len(hands)} hands, "
    f"{fast / len(hands):.0%} on the fast path)"
)
if "--profile" in sys.argv:
    import cProfile
    import pstats

    cProfile.run("for h in hands[:3000]: replay(h, POKERSTARS)", "/tmp/replay.prof")
    pstats.Stats("/tmp/replay.prof").sort_stats("tottime").print_stats(25)
