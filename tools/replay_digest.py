"""A digest of everything the replay and the trace say of many hands, to tell that a change
to the rules engine (`handlog.rules.engine`, `replay`, `fast`, `trace`, `tables`) left every
verdict and every traced step as it was.

For each hand: `replay` (the fast path where it takes the hand), `_Replayer` itself, and
`trace` (every step, the final cards, the awards, the flag states), written out with `repr`
and hashed. The hands: the corpus and every site's fixtures under their own house rules and
traits, and simulated hands of every game and structure, printed by every site's printer
(their uncalled bets as the site prints them: a line, nothing, left in the pot) and read
back, a third of them with a fault.

Usage: python tools/replay_digest.py [--hands N] [--verbose]
  Prints one digest per group of hands and one for all; run it on the code before and after
  a change (as source and compiled) and compare. --verbose: one digest per hand. It runs
  with PYTHONHASHSEED=0 (a set's repr follows its strings' hashes).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from handlog.check import hand_rules
from handlog.model import Hand, Structure
from handlog.parse import parse_file, parse_text
from handlog.parse.sites import formats
from handlog.rules.replay import _Replayer, replay
from handlog.rules.trace import trace
from handlog.simulate import SIMULATED_GAMES, SimulationOptions, simulate_hands

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path("/work/shared/corpus")


def _file_hands(folder: Path) -> Iterator[Hand]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".txt", ".xml", ".phh", ".phhs"):
            for item in parse_file(str(path)):
                if isinstance(item, Hand):
                    yield item


def _dealt(options: SimulationOptions) -> bool:
    """Whether the site of `options` deals its game and structure (its printer can write it)."""
    try:
        options.check()
    except ValueError:
        return False
    return True


def _simulated(per_game: int) -> Iterator[Hand]:
    sites = sorted({found.site for found in formats()}, key=lambda site: site.value)
    every = [
        SimulationOptions(
            game, per_game, 6, seed=29, fault_rate=0.3, structure=structure, site=site
        )
        for site in sites
        for structure in Structure
        for game in SIMULATED_GAMES
    ]
    for options in filter(_dealt, every):
        for one in simulate_hands(options):
            yield from (item for item in parse_text(one.text) if isinstance(item, Hand))


def _digest_of(hand: Hand) -> str:
    profile, traits = hand_rules(hand)
    parts = [
        repr(replay(hand, profile, traits)),
        repr(_Replayer(hand, profile, traits).run()),
    ]
    t = trace(hand, profile, traits)
    parts += [
        repr(t.replay),
        repr(t.steps),
        repr(sorted(t.final_cards.items())),
        repr(t.awards),
        repr(t.unplaced),
        repr(t.flagged),
    ]
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def main() -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":  # sets of names print in their hash order
        os.execve(
            sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"}
        )
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=12, help="simulated hands a game")
    parser.add_argument("--verbose", action="store_true")
    arguments = parser.parse_args()
    groups = {
        "corpus": _file_hands(CORPUS),
        "fixtures": _file_hands(ROOT / "tests" / "sites"),
        "simulated": _simulated(arguments.hands),
    }
    everything = hashlib.sha256()
    for name, hands in groups.items():
        digest = hashlib.sha256()
        count = 0
        for hand in hands:
            one = _digest_of(hand)
            if arguments.verbose:
                print(name, hand.site.value, hand.hand_id, one)
            digest.update(one.encode())
            count += 1
        everything.update(digest.digest())
        print(f"{name:10} {count:6} hands {digest.hexdigest()}", flush=True)
    print(f"{'all':10} {'':6}       {everything.hexdigest()}")


if __name__ == "__main__":
    sys.exit(main())
