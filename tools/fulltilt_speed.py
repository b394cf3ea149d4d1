"""Measure Full Tilt parsing throughput (hands per CPU second, one core).

Usage: python tools/fulltilt_speed.py [HANDS] [--profile]

Every hand of ../shared/corpus/FullTilt (UTF-8 and UTF-16 files) is copied with a fresh hand
number until there are HANDS of them (default 20,000), written as one UTF-8 file in a
temporary folder, then read with `handlog.parse.parse_file` (split, detect, parse: the whole
path a `handlog parse` takes) seven times. Prints the median and the best run; on a shared
VM the best is the steadier figure. The 5-card stud hand counts as read (it is parsed in
full, then returned as Skipped)."""

import gc
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from handlog.errors import ParseError
from handlog.parse import parse_file
from handlog.parse.reader import split_hands
from handlog.parse.sites import fulltilt

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "FullTilt"
NUMBER = re.compile(r"#\d+:")


def replicate(hands: int, target: Path) -> None:
    originals = [
        chunk.lines
        for path in sorted(CORPUS.glob("*.txt"))
        for chunk in split_hands(path, fulltilt.is_header, fulltilt.HEADER_PREFIX)
        if chunk.is_hand
    ]
    with open(target, "w", encoding="utf-8", newline="\n") as handle:
        for number in range(hands):
            lines = originals[number % len(originals)]
            header = NUMBER.sub(f"#{900_000_000_000 + number}:", lines[0], count=1)
            handle.write("\n".join([header, *lines[1:]]) + "\n\n\n")


def main() -> None:
    count = next((int(a) for a in sys.argv[1:] if a.isdigit()), 20_000)
    gc.set_threshold(50_000, 20, 100)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fulltilt-{count}.txt"
        replicate(count, path)
        items = list(parse_file(path))  # warm-up: grammar, caches
        errors = [i for i in items if isinstance(i, ParseError)]
        assert len(items) == count and not errors, errors[:3]
        runs = []
        for _ in range(7):
            start = time.process_time()
            for _item in parse_file(path):
                pass
            runs.append(time.process_time() - start)
        median, best = statistics.median(runs), min(runs)
        print(
            f"Full Tilt parse: {count / median:,.0f} hands/s median, {count / best:,.0f} best "
            f"({median / count * 1e6:.0f} us/hand median, {count:,} hands, one core)"
        )
        if "--profile" in sys.argv:
            import cProfile
            import pstats

            cProfile.runctx("list(parse_file(path))", globals(), {"path": path}, "/tmp/ft.prof")
            pstats.Stats("/tmp/ft.prof").sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
