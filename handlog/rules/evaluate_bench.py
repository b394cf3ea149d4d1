"""How fast the hand evaluator runs: evaluations per second for batches of seven-card hands and
for one hand at a time, high hands and the lows of each lowball. Run
`python3 -m handlog.rules.evaluate_bench`."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from handlog.cards import DECK, Card
from handlog.rules.evaluate import (
    high_rank,
    high_rank_batch,
    low_rank,
    low_rank_batch,
    prepare_lowball_tables,
    prepare_tables,
)
from handlog.rules.variants import Lowball


def random_hands(count: int, size: int = 7, seed: int = 0) -> np.ndarray:
    """`count` random hands of `size` distinct cards as a (count, size) uint8 array of
    `Card.index` values, every hand equally likely."""
    generator = np.random.default_rng(seed)
    hands = np.empty((count, size), dtype=np.uint8)
    # Draw cards with replacement and redraw the hands that repeat a card: a third of the
    # seven-card draws at first, so a few rounds finish, far cheaper than shuffling 52 per hand.
    pending = np.arange(count)
    while pending.size:
        hands[pending] = generator.integers(0, 52, size=(pending.size, size), dtype=np.uint8)
        ordered = np.sort(hands[pending], axis=1)
        pending = pending[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
    return hands


def _median_rate(count: int, run: Callable[[], object], repeats: int = 3) -> float:
    """Evaluations per second, the median of `repeats` timed runs of `count` evaluations."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - start)
    return count / statistics.median(seconds)


def _low_ranks(hands: list[list[Card]], lowball: Lowball) -> list[int | None]:
    return [low_rank(hand, None, lowball) for hand in hands]


def measure(batch_size: int = 1_000_000, single_count: int = 200_000) -> dict[str, float]:
    """The figures `main` prints: table build seconds and evaluations per second."""
    start = time.perf_counter()
    prepare_tables(7)
    build_seconds = time.perf_counter() - start
    lowball_build_seconds = {}
    for lowball in (Lowball.DEUCE_TO_SEVEN, Lowball.ACE_TO_SIX):
        start = time.perf_counter()
        prepare_lowball_tables(lowball, 7)
        lowball_build_seconds[lowball] = time.perf_counter() - start

    batch = random_hands(batch_size, 7, seed=1)
    batch_wide = batch.astype(np.int64)
    singles = [[DECK[index] for index in row] for row in batch[:single_count].tolist()]
    figures = {
        "table build, seven cards (s)": build_seconds,
        "high_rank_batch, uint8 (hands/s)": _median_rate(
            batch_size, lambda: high_rank_batch(batch)
        ),
        "high_rank_batch, int64 (hands/s)": _median_rate(
            batch_size, lambda: high_rank_batch(batch_wide)
        ),
        "low_rank_batch, qualifier 8 (hands/s)": _median_rate(
            batch_size, lambda: low_rank_batch(batch, 8)
        ),
        "high_rank, one call per hand (hands/s)": _median_rate(
            single_count, lambda: [high_rank(hand) for hand in singles]
        ),
        "low_rank, one call per hand, razz (hands/s)": _median_rate(
            single_count, lambda: [low_rank(hand, None) for hand in singles]
        ),
    }
    for lowball, name in ((Lowball.DEUCE_TO_SEVEN, "2-7"), (Lowball.ACE_TO_SIX, "A-6")):
        figures[f"table build, seven cards, {name} low (s)"] = lowball_build_seconds[lowball]
        figures[f"low_rank_batch, {name} low (hands/s)"] = _median_rate(
            batch_size, partial(low_rank_batch, batch, None, lowball)
        )
        figures[f"low_rank, one call per hand, {name} low (hands/s)"] = _median_rate(
            single_count, partial(_low_ranks, singles, lowball)
        )
    return figures


def main() -> None:
    """Print the figures for 1,000,000 random seven-card hands (single calls: 200,000)."""
    for name, value in measure().items():
        shown = f"{value:.3f}" if name.endswith("(s)") else f"{value:,.0f}"
        print(f"{name:<50} {shown:>14}")


if __name__ == "__main__":
    main()
