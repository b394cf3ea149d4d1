"""The project's benchmark behind `handlog bench`.

By default it measures a simulated set: a mix of 7-card stud, stud hi/lo and razz from
`handlog.simulate` (one file per game in bench_data/, named by game, hand count and seed, and
reused when present). With `source="corpus"` it measures the PokerStars hands of
sample_logs/ replicated with fresh hand numbers instead.

Figures (medians of `runs` runs; CPU seconds as well as wall-clock where a figure is one
process, as CPU time leaves out what other machines sharing the host take):

* parse: hands/s of `parse_file` over the whole set, one core;
* replay: hands/s of the replay and every rule check (`handlog.rules.replay.replay` under
  the site's profile, as `handlog check` does) over parsed records (`REPLAY_LIMIT` of them,
  the first of each file), one core;
* pokerkit: the same replay through pokerkit (`handlog.bench_pokerkit`) on an even sample of
  the parsed hands, and handlog's replay rate over exactly the hands pokerkit replayed,
  divided by pokerkit's;
* start-up: `handlog --help`;
* import: end-to-end `handlog import` (both cores) into a new bench_data/bench.duckdb:
  hands/s, CPU seconds, the largest process's peak memory, database size; then the same
  import again (nothing new) and `handlog report` over the database. These run once each
  (an import of the default set takes most of a minute).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from handlog.model import Game, Hand, Structure
from handlog.parse import detect_file, parse_file
from handlog.parse.reader import expand_paths, split_hands
from handlog.parse.site import SiteFormat
from handlog.parse.sites import FORMATS, pokerstars

_NUMBER = re.compile(r"#(?:Game No : )?(\d+)")
"""A hand number in a header line ("Game #35874004239:", "Hand #85198832 -", "#Game No : 95")."""

DEFAULT_HANDS = 30_000
"""Hands in the default simulated set, split evenly over the games."""
SIMULATED_PLAYERS = 8
"""Players per simulated table: PokerStars stud tables are 8-max."""
REPLAY_LIMIT = 12_000
"""The replay figures use this many parsed hands (about 20 kB each in memory): the first
ones of each file, in equal shares."""
POKERKIT_LIMIT = 1_000
"""pokerkit replays some 150-200 hands per CPU second: its figure uses an even sample of
this many of the parsed hands."""

Echo = Callable[[str], None]

FIGURES: dict[str, tuple[str, str]] = {
    "set.source": ("hand set", ""),
    "set.files": ("files", ""),
    "set.simulate_seconds": ("simulating the set (this run)", "s"),
    "parse.hands": ("parse: hands", "hands"),
    "parse.unparsed": ("parse: unparsed or skipped", "hands"),
    "parse.seconds": ("parse: time", "s"),
    "parse.hands_per_second": ("parse (1 core)", "hands/s"),
    "parse.hands_per_cpu_second": ("parse (1 core, CPU time)", "hands/CPU s"),
    "parse.hands_per_cpu_second_best": ("parse (1 core, CPU time, best run)", "hands/CPU s"),
    "replay.hands": ("replay + checks: hands", "hands"),
    "replay.flagged": ("replay + checks: flagged", "hands"),
    "replay.seconds": ("replay + checks: time", "s"),
    "replay.hands_per_second": ("replay + checks (1 core)", "hands/s"),
    "replay.hands_per_cpu_second": ("replay + checks (1 core, CPU time)", "hands/CPU s"),
    "replay.hands_per_cpu_second_best": (
        "replay + checks (1 core, CPU time, best run)",
        "hands/CPU s",
    ),
    "pokerkit.version": ("pokerkit version", ""),
    "pokerkit.sample": ("pokerkit: hands tried", "hands"),
    "pokerkit.replayed": ("pokerkit: hands replayed", "hands"),
    "pokerkit.skipped": ("pokerkit: hands skipped", "hands"),
    "pokerkit.skipped_reasons": ("pokerkit: why skipped", ""),
    "pokerkit.same_payouts": ("pokerkit: same final stacks as handlog", "hands"),
    "pokerkit.hands_per_cpu_second": ("pokerkit replay (1 core, CPU time)", "hands/CPU s"),
    "pokerkit.handlog_hands_per_cpu_second": (
        "handlog replay, same hands (CPU time)",
        "hands/CPU s",
    ),
    "pokerkit.ratio": ("handlog replay / pokerkit replay", "x"),
    "ev.set": ("all-in EV: hand set", ""),
    "ev.hands": ("all-in EV: hands", "hands"),
    "ev.traced": ("all-in EV: hands traced (may_have_all_in)", "hands"),
    "ev.spots": ("all-in EV: hands with equities at the all-in", "hands"),
    "ev.unknown": ("all-in EV: all-ins without equities (cards not shown ...)", "hands"),
    "ev.exact": ("all-in EV: spots enumerated exactly", "spots"),
    "ev.sampled": ("all-in EV: spots sampled", "spots"),
    "ev.exact_share": ("all-in EV: share of spots exact", "%"),
    "ev.seconds": ("all-in EV: parse + replay + EV of the set (all cores)", "s"),
    "ev.hands_per_second": ("all-in EV: parse + replay + EV (all cores)", "hands/s"),
    "ev.parse_cpu_seconds": ("all-in EV: parse, CPU time", "CPU s"),
    "ev.replay_cpu_seconds": ("all-in EV: replay + checks, CPU time", "CPU s"),
    "ev.trace_cpu_seconds": ("all-in EV: tracing the candidates, CPU time", "CPU s"),
    "ev.equity_cpu_seconds": ("all-in EV: equities + EV nets, CPU time", "CPU s"),
    "ev.cpu_seconds": ("all-in EV: parse + replay + EV, CPU time of all processes", "CPU s"),
    "ev.hands_per_cpu_second": ("all-in EV: parse + replay + EV (CPU time)", "hands/CPU s"),
    "ev.added_share": ("all-in EV: CPU added to parse + replay", "%"),
    "ev.exact_ms": ("all-in EV: an exact spot (CPU, mean)", "ms"),
    "ev.sampled_ms": ("all-in EV: a sampled spot (CPU, mean)", "ms"),
    "ev.rankings_per_second": ("all-in EV: hands ranked by the calculator", "hands/CPU s"),
    "ev.summed_per_second": ("evaluator: 7-card high, known cards summed once", "hands/s"),
    "ev.batch_per_second": ("evaluator: 7-card high, whole hands (high_rank_batch)", "hands/s"),
    "cli.help_seconds": ("`handlog --help` start-up", "s"),
    "cli.import_one_hand_seconds": ("`handlog import` of one hand, new database", "s"),
    "cli.import_one_hand_cpu_seconds": ("`handlog import` of one hand: CPU time", "CPU s"),
    "import.set": ("import: hand set", ""),
    "import.hands": ("import: new hands", "hands"),
    "import.flagged": ("import: flagged hands", "hands"),
    "import.seconds": ("import: time (end to end)", "s"),
    "import.hands_per_second": ("import (end to end, all cores)", "hands/s"),
    "import.cpu_seconds": ("import: CPU time, all processes", "CPU s"),
    "import.hands_per_cpu_second": ("import (CPU time, all processes)", "hands/CPU s"),
    "import.peak_memory_mb": ("import: peak memory (largest process)", "MB"),
    "import.database_mb": ("import: database size", "MB"),
    "reimport.seconds": ("re-import, nothing new", "s"),
    "import_more.hands": ("import of more hands into that database: new hands", "hands"),
    "import_more.hands_per_second": ("import of more hands into it (end to end)", "hands/s"),
    "import_more.hands_per_cpu_second": ("import of more hands into it (CPU time)", "hands/CPU s"),
    "report.seconds": ("`handlog report` (HTML, charts)", "s"),
    "runs": ("runs per figure (median)", ""),
    "python": ("Python", ""),
    "native": ("modules compiled by mypyc (handlog._native)", ""),
    "cpu_count": ("CPUs", ""),
}
"""Every figure's label and unit, in the order the table prints them."""


# -- the hand sets -------------------------------------------------------------------------


FIRST_NUMBER = 900_000_000_000
"""The hand number a replicated set's hands are numbered from (one up each)."""


def replicate(
    source: Path,
    hands: int,
    out: Path,
    site: SiteFormat | None = None,
    first: int = FIRST_NUMBER,
) -> Path:
    """Write `hands` hands of one site format (PokerStars unless `site` is given), copied
    from the files under `source` whose content is in that format, with fresh hand numbers
    from `first` on, to one UTF-8 file in `out` (reused when it already exists). For a format
    that reads a file's context (an XML session header), the first file's text before its
    first hand opens the file."""
    site = site or pokerstars.FORMAT
    out.mkdir(parents=True, exist_ok=True)
    suffix = ".xml" if site.file_context is not None else ".txt"
    numbered = "" if first == FIRST_NUMBER else f"-from{first}"
    target = out / f"{_slug(site.name)}-{hands}{numbered}{suffix}"
    if target.exists():
        return target
    head, texts = _replicated(source, hands, site, first)
    with open(target, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(head)
        for text in texts:
            handle.write(text + "\n\n\n")
    return target


def replicate_files(
    source: Path, hands: int, out: Path, site: SiteFormat, per_file: int = 10
) -> Path:
    """`replicate`, written as a folder of files of `per_file` hands each (as PokerStars
    writes a file per table and day), each opening with the file's head for a format that
    reads it; the folder (reused when it is there, complete)."""
    folder = out / f"{_slug(site.name)}-{hands}-by{per_file}"
    done = folder.with_name(folder.name + ".complete")  # beside it: not a file to import
    if done.exists():
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    done.unlink(missing_ok=True)
    suffix = ".xml" if site.file_context is not None else ".txt"
    head, texts = _replicated(source, hands, site)
    group: list[str] = []
    number = 0

    def write() -> None:
        name = folder / f"table-{number:06d}{suffix}"
        name.write_text(head + "".join(text + "\n\n\n" for text in group), encoding="utf-8")
        group.clear()

    for text in texts:
        group.append(text)
        if len(group) == per_file:
            write()
            number += 1
    if group:
        write()
    done.touch()
    return folder


def zipped(folder: Path) -> Path:
    """The files of `folder` in one zip archive beside it (reused when it is there)."""
    import zipfile

    target = folder.with_suffix(".zip")
    if target.exists():
        return target
    partial = target.with_suffix(".zip.partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(folder.iterdir()):
            if not file.name.startswith("."):
                archive.write(file, file.name)
    partial.replace(target)
    return target


def _replicated(
    source: Path, hands: int, site: SiteFormat, first: int = FIRST_NUMBER
) -> tuple[str, Iterable[str]]:
    """The head and the texts of `hands` hands of `site` found under `source`, repeated
    with fresh hand numbers from `first` on."""
    head, originals = _site_hands_with_head(source, site)
    if not originals:
        raise SystemExit(f"no {site.name} hands in {source} to replicate")

    def texts() -> Iterable[str]:
        for number in range(hands):
            text, hand_id = originals[number % len(originals)]
            found = _NUMBER.search(text)  # the first hand number; sites repeat it in the hand
            old = found[1] if found is not None else hand_id
            yield text.replace(old, str(first + number))

    return head, texts()


def _slug(name: str) -> str:
    """A format's name for file names and figure keys: "Full Tilt Poker" -> "full-tilt-poker"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _site_hands(source: Path, site: SiteFormat) -> list[str]:
    """The lines of every hand of format `site` that reads as a hand (not a truncated or
    broken one, nor a skipped game) in the files under `source`."""
    return [text for text, _ in _site_hands_with_head(source, site)[1]]


def _site_hands_with_head(source: Path, site: SiteFormat) -> tuple[str, list[tuple[str, str]]]:
    """`_site_hands` with each hand's number. For a format whose hands depend on the file's
    context (an XML session header: game, stakes, currency) only the hands of the first
    file that has any, and the text before its first hand ("" for other formats)."""
    from handlog.parse import file_context, parse_chunk

    found: list[tuple[str, str]] = []
    # The files `handlog import` would read there: links to folders followed (a folder of
    # links to the sites' folders is a natural way to pick some), archives' entries too.
    files, _ = expand_paths([str(source)])
    for file in files:
        if detect_file(file) is not site:
            continue
        context = file_context(file, site)
        head = ""
        for chunk in split_hands(file, site.is_header, site.header_prefix):
            if not chunk.is_hand:
                head = chunk.text + "\n"
                continue
            parsed = parse_chunk(chunk, site, context)
            if isinstance(parsed, Hand):
                found.append((chunk.text, parsed.hand_id))
        if site.file_context is not None and found:
            return head, found
    return "", found


def site_figures(
    source: Path, hands: int, runs: int, data: Path, echo: Echo | None = None
) -> dict[str, Any]:
    """Parse speed (one core) of each site format found under `source`: its hands there
    replicated to `hands` with fresh hand numbers."""
    figures: dict[str, Any] = {}
    for site in FORMATS:
        if not _site_hands(source, site):
            continue
        if echo:
            echo(f"parse {site.name}: {runs} runs over {hands:,} replicated hands")
        file = replicate(source, hands, data / "sites", site)
        parsed, _ = parse_figures([file], runs, keep=0)
        key = f"sites.{_slug(site.name)}"
        figures[f"{key}.hands"] = parsed["parse.hands"]
        figures[f"{key}.unparsed"] = parsed["parse.unparsed"]
        figures[f"{key}.hands_per_cpu_second"] = parsed["parse.hands_per_cpu_second"]
        figures[f"{key}.hands_per_cpu_second_best"] = parsed["parse.hands_per_cpu_second_best"]
    return figures


def simulated_path(
    data: Path, game: Game, hands: int, seed: int, structure: Structure = Structure.FIXED
) -> Path:
    """Where the simulated set of one game lives: named by game, hands and seed (and the
    betting structure, when not fixed limit)."""
    limit = "" if structure is Structure.FIXED else f"-{structure.value}"
    return data / f"sim-{game.value}{limit}-{hands}-seed{seed}.txt"


def _simulate(game: str, hands: int, seed: int, target: str, structure: str = "fixed") -> float:
    """Simulate one game's file (in a worker process); its CPU seconds."""
    from handlog.simulate import SimulationOptions, write_simulation

    partial = f"{target}.partial"
    options = SimulationOptions(
        Game(game),
        hands=hands,
        players=SIMULATED_PLAYERS,
        seed=seed,
        structure=Structure(structure),
    )
    summary = write_simulation(options, partial)
    os.replace(partial, target)  # only a complete file is ever reused
    return summary.cpu_seconds


def variant_figures(
    hands: int, runs: int, seed: int, data: Path, echo: Echo | None = None
) -> dict[str, Any]:
    """Replay speed (one core, CPU time) of each game in each betting structure the
    simulator plays: `hands` simulated hands of each (simulated once into `data`, in
    parallel processes, and reused), parsed, then replayed `runs` times."""
    from handlog.simulate import SIMULATED_GAMES, SIMULATED_STRUCTURES

    data.mkdir(parents=True, exist_ok=True)
    sets = [
        (game, structure, simulated_path(data, game, hands, seed, structure))
        for game in SIMULATED_GAMES
        for structure in SIMULATED_STRUCTURES
    ]
    missing = [(g, s, p) for g, s, p in sets if not p.exists()]
    if missing:
        if echo:
            echo(f"simulating {len(missing)} sets of {hands:,} hands (a game in a structure)")
        _simulate_all([(g, hands, seed, p, s) for g, s, p in missing])
    figures: dict[str, Any] = {}
    for game, structure, path in sets:
        kept = [hand for hand in parse_file(path) if isinstance(hand, Hand)]
        flagged = _replay_all(kept)
        _, cpu, _ = _time(lambda kept=kept: _replay_all(kept), runs)  # type: ignore[misc]
        key = f"variants.{game.value}.{structure.value}"
        figures[f"{key}.hands"] = len(kept)
        figures[f"{key}.flagged"] = flagged
        figures[f"{key}.hands_per_cpu_second"] = _rate(len(kept), cpu)
    return figures


def simulated_set(
    hands: int,
    seed: int,
    data: Path,
    games: Iterable[Game] | None = None,
    echo: Echo | None = None,
) -> tuple[list[Path], float]:
    """The simulated files of `hands` hands in total, split evenly over `games` (default:
    the games PokerStars deals, in fixed limit, so that the figures stay comparable), simulating those not already in `data` (in parallel
    processes). The files and the wall-clock seconds spent simulating now (0 when reused)."""
    from handlog.simulate import POKERSTARS_GAMES

    chosen = list(games or POKERSTARS_GAMES)
    data.mkdir(parents=True, exist_ok=True)
    shares = [hands // len(chosen) + (index < hands % len(chosen)) for index in range(len(chosen))]
    files = [
        simulated_path(data, game, share, seed) for game, share in zip(chosen, shares, strict=True)
    ]
    missing = [
        (game, share, path)
        for game, share, path in zip(chosen, shares, files, strict=True)
        if not path.exists()
    ]
    if not missing:
        return files, 0.0
    if echo:
        names = ", ".join(f"{share:,} {game.value}" for game, share, _ in missing)
        echo(f"simulating {names} hands into {data}/ (once: later runs reuse them)")
    start = time.perf_counter()
    _simulate_all([(game, share, seed, path, Structure.FIXED) for game, share, path in missing])
    return files, time.perf_counter() - start


def _simulate_all(jobs: list[tuple[Game, int, int, Path, Structure]]) -> None:
    """Simulate each (game, hands, seed, file, structure), in parallel processes where there
    are cores for it."""
    workers = min(len(jobs), os.cpu_count() or 1)
    if workers <= 1:
        for game, hands, seed, path, structure in jobs:
            _simulate(game.value, hands, seed, str(path), structure.value)
        return
    with ProcessPoolExecutor(workers) as pool:
        running = [
            pool.submit(_simulate, game.value, hands, seed, str(path), structure.value)
            for game, hands, seed, path, structure in jobs
        ]
        for job in running:
            job.result()


# -- timing --------------------------------------------------------------------------------


def _time(function: Any, runs: int) -> tuple[float, float, float]:
    """Median wall-clock and CPU seconds of `runs` calls, and the least CPU seconds. CPU time
    leaves out what other machines sharing the host take (steal), so it is the steadier
    figure on a VM; the best run too (a shared VM's neighbours slow runs down, never speed
    them up)."""
    walls, cpus = [], []
    for _ in range(max(1, runs)):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return statistics.median(walls), statistics.median(cpus), min(cpus)


def _rate(count: int, seconds: float) -> int:
    return round(count / seconds) if seconds > 0 else 0


def _executable() -> str:
    return shutil.which("handlog") or str(Path(sys.executable).with_name("handlog"))


def _sample(items: list[Any], limit: int) -> list[Any]:
    """At most `limit` items, evenly spaced over the list."""
    if len(items) <= limit:
        return list(items)
    step = len(items) / limit
    return [items[int(index * step)] for index in range(limit)]


# -- figures -------------------------------------------------------------------------------


def parse_figures(
    files: list[Path], runs: int, keep: int = REPLAY_LIMIT
) -> tuple[dict[str, Any], list[Hand]]:
    """Parse speed over every file, and parsed hands kept for the replay figures: the first
    ones of each file, `keep` in all (parsing them first is also the warm-up: grammar
    compilation and caches are not what is measured)."""
    share = max(1, keep // max(1, len(files)))
    kept: list[Hand] = []
    for file in files if keep else ():
        own = 0
        for item in parse_file(file):
            if isinstance(item, Hand):
                kept.append(item)
                own += 1
                if own == share:
                    break
    counts = [0, 0]

    def parse_all() -> None:
        items = unparsed = 0
        for file in files:
            for item in parse_file(file):
                items += 1
                if not isinstance(item, Hand):
                    unparsed += 1
        counts[:] = [items, unparsed]

    wall, cpu, best = _time(parse_all, runs)
    items, unparsed = counts
    figures = {
        "parse.hands": items,
        "parse.unparsed": unparsed,
        "parse.seconds": round(wall, 3),
        "parse.hands_per_second": _rate(items, wall),
        "parse.hands_per_cpu_second": _rate(items, cpu),
        "parse.hands_per_cpu_second_best": _rate(items, best),
    }
    return figures, kept


def _replay_all(hands: list[Hand]) -> int:
    """Replay every hand under its site's rules as `handlog check` does; how many are flagged."""
    from handlog.check import site_rules
    from handlog.rules.replay import replay

    flagged = 0
    for hand in hands:
        if replay(hand, *site_rules(hand.site)).status != "ok":  # site_rules is cached
            flagged += 1
    return flagged


def replay_figures(hands: list[Hand], runs: int) -> dict[str, Any]:
    """Replay and checks over parsed hands, one core."""
    flagged = _replay_all(hands[:200])  # warm-up: evaluator tables, profile caches
    flagged = _replay_all(hands)
    wall, cpu, best = _time(lambda: _replay_all(hands), runs)
    return {
        "replay.hands": len(hands),
        "replay.flagged": flagged,
        "replay.seconds": round(wall, 3),
        "replay.hands_per_second": _rate(len(hands), wall),
        "replay.hands_per_cpu_second": _rate(len(hands), cpu),
        "replay.hands_per_cpu_second_best": _rate(len(hands), best),
    }


def pokerkit_figures(
    hands: list[Hand], runs: int, limit: int = POKERKIT_LIMIT, echo: Echo | None = None
) -> dict[str, Any]:
    """pokerkit's replay of an even sample of the hands, and handlog's replay of the very
    hands pokerkit replayed: both in CPU time, one core. Empty when pokerkit is missing."""
    from handlog import bench_pokerkit

    if not bench_pokerkit.available():
        if echo:
            echo("pokerkit not installed: skipped")
        return {}
    from importlib.metadata import PackageNotFoundError, version

    try:
        pokerkit_version = version("pokerkit")
    except PackageNotFoundError:  # pragma: no cover - importable but not installed
        pokerkit_version = "?"
    sample = _sample(hands, limit)
    result = bench_pokerkit.replay_hands(sample, runs)
    figures: dict[str, Any] = {
        "pokerkit.version": pokerkit_version,
        "pokerkit.sample": len(sample),
        "pokerkit.replayed": result.replayed,
        "pokerkit.skipped": len(sample) - result.replayed,
        "pokerkit.skipped_reasons": ", ".join(
            f"{reason} {count}" for reason, count in result.skipped.most_common()
        )
        or "-",
    }
    if not result.replayed:
        return figures
    replayed = set(result.hand_ids)
    same = [hand for hand in sample if hand.hand_id in replayed]
    figures["pokerkit.same_payouts"] = _same_payouts(same, result.final_stacks)
    _replay_all(same[:200])
    _, handlog_cpu, _ = _time(lambda: _replay_all(same), runs)
    handlog_rate = len(same) / handlog_cpu if handlog_cpu > 0 else 0.0
    figures["pokerkit.hands_per_cpu_second"] = round(result.hands_per_second, 1)
    figures["pokerkit.handlog_hands_per_cpu_second"] = round(handlog_rate)
    if result.hands_per_second > 0:
        figures["pokerkit.ratio"] = round(handlog_rate / result.hands_per_second, 1)
    return figures


def _same_payouts(hands: list[Hand], stacks: dict[str, tuple[int, ...]]) -> int:
    """How many hands end with every player's stack as handlog's replay has it (pokerkit
    plays without rake: it may pay out up to the rake more, to the winners)."""
    from handlog.bench_pokerkit import players
    from handlog.check import site_rules
    from handlog.rules.replay import replay

    same = 0
    for hand in hands:
        result = replay(hand, *site_rules(hand.site))
        start = {seat.name: seat.stack for seat in hand.seats}
        ours = [start[name] + result.net.get(name, 0) for name in players(hand)]
        extra = [theirs - mine for mine, theirs in zip(ours, stacks[hand.hand_id], strict=True)]
        if min(extra, default=0) >= 0 and sum(extra) == hand.rake:
            same += 1
    return same


EV_HANDS = 100_000
"""Hands in the all-in EV set (`ev_figures`)."""


def ev_set(hands: int, seed: int, data: Path, echo: Echo | None = None) -> list[Path]:
    """Simulated 8-player tournament hands (short stacks, all-ins, side pots) of every game
    the simulator deals, `hands` in all, simulated once into `data` and reused."""
    from handlog.simulate import SIMULATED_GAMES

    data.mkdir(parents=True, exist_ok=True)
    games = list(SIMULATED_GAMES)
    shares = [hands // len(games) + (index < hands % len(games)) for index in range(len(games))]
    files = [
        data / f"sim-ev-{game.value}-tournament-{share}-seed{seed}.txt"
        for game, share in zip(games, shares, strict=True)
    ]
    missing = [
        (game.value, share, seed, str(path))
        for game, share, path in zip(games, shares, files, strict=True)
        if not path.exists()
    ]
    if missing:
        if echo:
            echo(f"simulating {sum(m[1] for m in missing):,} tournament hands into {data}/ (once)")
        with ProcessPoolExecutor(min(len(missing), os.cpu_count() or 1)) as pool:
            for job in [pool.submit(_simulate_tournament, *m) for m in missing]:
                job.result()
    return files


def _simulate_tournament(game: str, hands: int, seed: int, target: str) -> None:
    from handlog.simulate import SimulationOptions, write_simulation

    partial = f"{target}.partial"
    options = SimulationOptions(
        Game(game), hands=hands, players=SIMULATED_PLAYERS, seed=seed, tournament=True
    )
    write_simulation(options, partial)
    os.replace(partial, target)  # only a complete file is ever reused


def _ev_file(path: str) -> dict[str, float]:
    """Parse one file, replay every hand, then the all-in EV of every hand as an import would
    do it (`handlog.equity.hand_ev`'s steps, timed apart): CPU seconds and counts."""
    from handlog.check import hand_rules
    from handlog.equity import Method
    from handlog.equity.hands import all_in, ev_nets, may_have_all_in
    from handlog.rules.replay import replay
    from handlog.rules.trace import trace

    counts: dict[str, float] = dict.fromkeys(
        ("hands", "traced", "spots", "unknown", "exact", "sampled", "rankings"), 0
    )
    for key in ("parse", "replay", "trace", "equity", "exact_cpu", "sampled_cpu"):
        counts[key] = 0.0
    start = time.process_time()
    hands = [hand for hand in parse_file(path) if isinstance(hand, Hand)]
    counts["parse"] = time.process_time() - start
    counts["hands"] = len(hands)
    for hand in hands:
        profile, traits = hand_rules(hand)
        start = time.process_time()
        result = replay(hand, profile, traits)
        after_replay = time.process_time()
        counts["replay"] += after_replay - start
        if not may_have_all_in(result):
            ev_nets(result, None)
            counts["equity"] += time.process_time() - after_replay
            continue
        counts["traced"] += 1
        traced = trace(hand, profile, traits)
        after_trace = time.process_time()
        counts["trace"] += after_trace - after_replay
        found = all_in(traced, profile)
        ev_nets(traced.replay, found)
        spent = time.process_time() - after_trace
        counts["equity"] += spent
        if found is None:
            continue
        if found.equities is None:
            counts["unknown"] += 1
            continue
        counts["spots"] += 1
        counts["rankings"] += found.equities.rankings
        exact = found.equities.method is Method.EXACT
        counts["exact" if exact else "sampled"] += 1
        counts["exact_cpu" if exact else "sampled_cpu"] += spent
    return counts


def ev_figures(
    hands: int = EV_HANDS,
    seed: int = 0,
    data: Path = Path("bench_data"),
    echo: Echo | None = None,
    evaluator_hands: int = 1_000_000,
) -> dict[str, Any]:
    """The all-in EV of a simulated tournament set (`ev_set`): every hand parsed, replayed and,
    where betting closed with cards to come, traced and its equities and EV-adjusted nets
    computed, the files shared out over all cores; wall-clock for the whole, CPU seconds for
    each step summed over the processes; and the evaluator's two representations timed on the
    same hands in the same run (known cards summed once vs whole hands)."""
    files = ev_set(hands, seed, data, echo)
    if echo:
        echo(f"all-in EV: {hands:,} tournament hands, parse + replay + EV on all cores")
    wall = time.perf_counter()
    with ProcessPoolExecutor(min(len(files), os.cpu_count() or 1)) as pool:
        parts = list(pool.map(_ev_file, map(str, files)))
    wall = time.perf_counter() - wall
    total = {key: sum(part[key] for part in parts) for key in parts[0]}
    spots = int(total["spots"])
    base = total["parse"] + total["replay"]
    added = total["trace"] + total["equity"]
    figures: dict[str, Any] = {
        "ev.set": f"simulated tournaments, every game, seed {seed}",
        "ev.hands": int(total["hands"]),
        "ev.traced": int(total["traced"]),
        "ev.spots": spots,
        "ev.unknown": int(total["unknown"]),
        "ev.exact": int(total["exact"]),
        "ev.sampled": int(total["sampled"]),
        "ev.exact_share": round(100 * total["exact"] / spots, 1) if spots else 0,
        "ev.seconds": round(wall, 1),
        "ev.hands_per_second": _rate(int(total["hands"]), wall),
        "ev.parse_cpu_seconds": round(total["parse"], 1),
        "ev.replay_cpu_seconds": round(total["replay"], 1),
        "ev.trace_cpu_seconds": round(total["trace"], 1),
        "ev.equity_cpu_seconds": round(total["equity"], 1),
        "ev.cpu_seconds": round(base + added, 1),
        "ev.hands_per_cpu_second": _rate(int(total["hands"]), base + added),
        "ev.added_share": round(100 * added / base, 1) if base else 0,
        "ev.exact_ms": round(1000 * total["exact_cpu"] / max(total["exact"], 1), 2),
        "ev.sampled_ms": round(1000 * total["sampled_cpu"] / max(total["sampled"], 1), 2),
        "ev.rankings_per_second": _rate(
            int(total["rankings"]), total["exact_cpu"] + total["sampled_cpu"]
        ),
    }
    figures.update(_evaluator_representations(evaluator_hands))
    return figures


def _evaluator_representations(count: int = 1_000_000, runs: int = 5) -> dict[str, Any]:
    """Seven-card high hands ranked two ways, alternated in one run: whole hands
    (`high_rank_batch`), and as the calculator ranks them, four known cards summed once and
    three drawn cards added (`high_rank_summed`)."""
    import numpy as np

    from handlog.rules import evaluate
    from handlog.rules.evaluate_bench import random_hands

    hands = random_hands(count, 7, seed=5).astype(np.int64)
    hands[:, :4] = hands[0, :4]  # the same four known cards in every row ...
    keep = ~np.isin(hands[:, 4:], hands[0, :4]).any(axis=1)  # ... and no card twice
    hands = hands[keep]
    keys, bits = evaluate.card_codes()
    fixed_key, fixed_bits = int(keys[hands[0, :4]].sum()), int(bits[hands[0, :4]].sum())

    def summed() -> None:
        key = np.full(len(hands), fixed_key, dtype=np.int64)
        bit = np.full(len(hands), fixed_bits, dtype=np.int64)
        for column in range(4, 7):
            key += keys[hands[:, column]]
            bit += bits[hands[:, column]]
        evaluate.high_rank_summed(key, bit, 7)

    summed_best = batch_best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        summed()
        summed_best = min(summed_best, time.perf_counter() - start)
        start = time.perf_counter()
        evaluate.high_rank_batch(hands)
        batch_best = min(batch_best, time.perf_counter() - start)
    return {
        "ev.summed_per_second": _rate(len(hands), summed_best),
        "ev.batch_per_second": _rate(len(hands), batch_best),
    }


def startup_figures(
    runs: int = 5, corpus: Path | None = None, data: Path | None = None
) -> dict[str, Any]:
    """`handlog --help`: interpreter start-up and the CLI's imports; and, given a `corpus`
    holding PokerStars hands and a `data` folder, `handlog import` of one of them into a new
    database, wall and CPU seconds (medians of `runs`, after a first run that leaves what
    every later run finds: compiled bytecode where Python writes it, the grammars' facts)."""
    executable = _executable()
    if not Path(executable).exists():
        return {}
    wall, _, _ = _time(
        lambda: subprocess.run([executable, "--help"], capture_output=True, check=True), runs
    )
    figures: dict[str, Any] = {"cli.help_seconds": round(wall, 3)}
    if corpus is None or data is None:
        return figures
    hands = _site_hands(corpus, pokerstars.FORMAT)
    if not hands:
        return figures
    data.mkdir(parents=True, exist_ok=True)
    log = data / "one-hand.txt"
    log.write_text(hands[0] + "\n", encoding="utf-8")
    database = data / "one-hand.duckdb"
    walls, cpus = [], []
    for run in range(max(1, runs) + 1):
        for stale in data.glob("one-hand.duckdb*"):
            stale.unlink()
        seconds, cpu, _, _ = _measured([executable, "import", str(log), "--db", str(database)])
        if run:  # the first run only warms up
            walls.append(seconds)
            cpus.append(cpu)
    figures["cli.import_one_hand_seconds"] = round(statistics.median(walls), 3)
    figures["cli.import_one_hand_cpu_seconds"] = round(statistics.median(cpus), 3)
    return figures


_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stdout.write(f"{seconds} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}\\n")
sys.stdout.write(done.stdout)
sys.stderr.write(done.stderr)
sys.exit(done.returncode)
"""


def _measured(command: list[str]) -> tuple[float, float, int, str]:
    """Run `command` in a process of its own: wall seconds, CPU seconds of it and all its
    workers, the largest peak resident size among them (kB), and its output."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr}")
    first, _, output = done.stdout.partition("\n")
    seconds, cpu, peak = first.split()
    return float(seconds), float(cpu), int(peak), output


def import_figures(
    files: list[Path], data: Path, runs: int = 1, more: list[Path] | None = None
) -> dict[str, Any]:
    """End-to-end `handlog import` of `files` into a new database (`runs` times, the median
    run), then again (unchanged): hands/s, seconds, CPU seconds, the largest process's peak
    memory, the database size; then `more` (hands not stored yet, numbered after them: a
    player's next sessions) into that database, as full as the import left it."""
    database = data / "bench.duckdb"
    command = [_executable(), "import", "--quiet", "--db", str(database), *map(str, files)]
    measured = []
    for _ in range(max(1, runs)):
        for stale in (database, data / "bench.duckdb.wal"):
            stale.unlink(missing_ok=True)
        measured.append(_measured(command))
    seconds, cpu, _, output = sorted(measured)[len(measured) // 2]
    peak = max(run[2] for run in measured)
    # "imported into DB: N files (...), 200,000 hands (200,000 new, 0 already stored, 12
    # flagged illegal, 3 flagged mis-split), ..."
    new = re.search(r"\(([\d,]+) new", output)
    flagged = re.findall(r"([\d,]+) flagged", output)
    hands = int(new.group(1).replace(",", "")) if new else 0
    figures: dict[str, Any] = {
        "import.hands": hands,
        "import.flagged": sum(int(count.replace(",", "")) for count in flagged),
        "import.seconds": round(seconds, 2),
        "import.hands_per_second": _rate(hands, seconds),
        "import.cpu_seconds": round(cpu, 2),
        "import.hands_per_cpu_second": _rate(hands, cpu),
        "import.peak_memory_mb": round(peak / 1024),
        "import.database_mb": round(database.stat().st_size / 1e6, 1),
    }
    again, _, _, _ = _measured(command)
    figures["reimport.seconds"] = round(again, 2)
    if more:
        stored = [_executable(), "import", "--quiet", "--db", str(database), *map(str, more)]
        seconds, cpu, _, output = _measured(stored)
        new = re.search(r"\(([\d,]+) new", output)
        added = int(new.group(1).replace(",", "")) if new else 0
        figures["import_more.hands"] = added
        figures["import_more.hands_per_second"] = _rate(added, seconds)
        figures["import_more.hands_per_cpu_second"] = _rate(added, cpu)
    return figures


MORE_SHARE = 10
"""After the import's set, a tenth as many hands again are imported into the database it
filled (`import_figures`; 20,000 after the default 200,000): what a database's size costs
the next import shows there."""

IMPORT_SHAPES = ("big", "few", "small", "zip")
"""How `import_site_figures` lays each site's hands out: one big file, a few big files (four,
of a quarter of the hands each: `FEW_FILES`), files of ~10 hands (thousands of them), and a
zip of those."""

FEW_FILES = 4
"""The big files of the "few" shape of `import_site_figures`."""

TIMED_STAGES = (
    "parse",
    "replay",
    "ev",
    "rows",
    "texts",
    "evidence",
    "arrow",
    "startup",
    "plan",
    "load",
    "commit",
    "summary",
    "traffic",
)
"""The stages of an import whose CPU time per hand the per-site figures publish (see
`handlog import --timings`); `traffic`: what the importing process spent beyond its own
stages (process traffic: results unpickled, tasks sent; the pool)."""


def import_site_figures(
    source: Path,
    hands: int,
    data: Path,
    echo: Echo | None = None,
    per_file: int = 10,
    shapes: tuple[str, ...] = IMPORT_SHAPES,
) -> dict[str, Any]:
    """End-to-end `handlog import` of `hands` replicated hands of each site format found
    under `source`, into a new database, laid out as each of `shapes`: hands/s (wall),
    hands per CPU second (all processes), and where the CPU time went, per hand
    (`TIMED_STAGES`, in microseconds), so that a regression shows."""
    figures: dict[str, Any] = {}
    for site in FORMATS:
        if not _site_hands(source, site):
            continue
        slug = _slug(site.name)
        for shape in shapes:
            if shape == "big":
                files = [replicate(source, hands, data / "sites", site)]
            elif shape == "few":
                per = max(1, -(-hands // FEW_FILES))
                files = [replicate_files(source, hands, data / "sites", site, per)]
            else:
                folder = replicate_files(source, hands, data / "sites", site, per_file)
                files = [folder if shape == "small" else zipped(folder)]
            if echo:
                echo(f"import {site.name}: {hands:,} hands as {shape} ({files[0].name})")
            measured = _import_once(files, data)
            key = f"imports.{slug}.{shape}"
            for name, value in measured.items():
                figures[f"{key}.{name}"] = value
    return figures


def _import_once(files: list[Path], data: Path) -> dict[str, Any]:
    """One `handlog import --timings` into a new database: its rates and its CPU time per
    hand by stage."""
    import json

    database = data / "bench-sites.duckdb"
    timings = data / "bench-sites-timings.json"
    for stale in (database, data / "bench-sites.duckdb.wal", timings):
        stale.unlink(missing_ok=True)
    command = [_executable(), "import", "--quiet", "--db", str(database)]
    command += ["--timings", str(timings), *map(str, files)]
    seconds, cpu, _, _ = _measured(command)
    found = json.loads(timings.read_text(encoding="utf-8"))
    hands = int(found["hands"])
    stages = dict(found["cpu_seconds"])
    own = sum(stages.get(stage, 0.0) for stage in ("startup", "plan", "load", "commit", "summary"))
    stages["traffic"] = max(0.0, stages.get("parent", 0.0) - own)
    figures: dict[str, Any] = {
        "hands": hands,
        "files": int(found["files"]),
        "hands_per_second": _rate(hands, seconds),
        "hands_per_cpu_second": _rate(hands, cpu),
    }
    for stage in TIMED_STAGES:
        figures[f"us.{stage}"] = round(1e6 * stages.get(stage, 0.0) / max(hands, 1), 1)
    return figures


def report_figures(data: Path) -> dict[str, Any]:
    """`handlog report` (HTML with charts) over the database the import figures filled."""
    command = [
        _executable(),
        "report",
        "--db",
        str(data / "bench.duckdb"),
        "--out",
        str(data / "report"),
    ]
    seconds, _, _, _ = _measured(command)
    return {"report.seconds": round(seconds, 2)}


def run_benchmarks(
    hands: int = DEFAULT_HANDS,
    runs: int = 3,
    seed: int = 0,
    source: str = "simulated",
    corpus: Path = Path("sample_logs"),
    data: Path = Path("bench_data"),
    include_import: bool = True,
    include_pokerkit: bool = True,
    pokerkit_limit: int = POKERKIT_LIMIT,
    echo: Echo | None = None,
    import_hands: int = 0,
    sites: Path | None = None,
    site_hands: int = 20_000,
    variant_hands: int = 0,
    ev_hands: int = 0,
    import_site_hands: int = 0,
) -> dict[str, Any]:
    """Median figures over `runs` runs, as a flat dict for printing and JSON. `source` is
    "simulated" (a mix of the simulator's games, `hands` in all) or "corpus" (the hands of
    `corpus` replicated to `hands`). The import is timed on the same set, or, when
    `import_hands` is given, on that many hands of `corpus` replicated. With `sites`, the
    parse speed of each site format found there, on `site_hands` replicated hands. With
    `variant_hands`, the replay speed of every game in every betting structure, on that many
    simulated hands of each. With `ev_hands`, the all-in EV of that many simulated tournament
    hands (`ev_figures`)."""

    def say(text: str) -> None:
        if echo:
            echo(text)

    figures: dict[str, Any] = {}
    if source == "simulated":
        files, simulating = simulated_set(hands, seed, data, echo=echo)
        figures["set.source"] = f"simulated, stud/stud8/razz, seed {seed}"
        if simulating:
            figures["set.simulate_seconds"] = round(simulating, 1)
    elif source == "corpus":
        files = [replicate(corpus, hands, data)]
        figures["set.source"] = f"{corpus} replicated"
    else:
        raise ValueError(f"source is 'simulated' or 'corpus', not {source!r}")
    figures["set.files"] = " ".join(str(file) for file in files)
    say(f"parse: {runs} runs over {hands:,} hands")
    parsed, kept = parse_figures(files, runs)
    figures.update(parsed)
    say(f"replay: {runs} runs over {len(kept):,} parsed hands")
    figures.update(replay_figures(kept, runs))
    if include_pokerkit:
        say(f"pokerkit: {runs} runs over up to {pokerkit_limit:,} of the parsed hands")
        figures.update(pokerkit_figures(kept, runs, pokerkit_limit, echo))
    del kept
    if sites is not None:
        figures.update(site_figures(sites, site_hands, runs, data, echo))
    if variant_hands:
        say(f"replay by game and structure: {runs} runs over {variant_hands:,} hands each")
        figures.update(variant_figures(variant_hands, runs, seed, data, echo))
    if ev_hands:
        figures.update(ev_figures(ev_hands, seed, data, echo))
    figures.update(startup_figures(corpus=corpus, data=data))
    if sites is not None and import_site_hands:
        say(f"import of each site: {import_site_hands:,} hands, as {', '.join(IMPORT_SHAPES)}")
        figures.update(import_site_figures(sites, import_site_hands, data, echo))
    if include_import:
        import_files = files
        more: list[Path] = []
        more_hands = 0
        figures["import.set"] = "the set above"
        if import_hands and not any(corpus.glob("*.txt")):
            say(f"no hand histories in {corpus}/ to replicate: the import uses the set above")
        elif import_hands:
            import_files = [replicate(corpus, import_hands, data)]
            figures["import.set"] = f"{corpus} replicated to {import_hands:,} hands"
            more_hands = max(1, import_hands // MORE_SHARE)
            more = [replicate(corpus, more_hands, data, first=FIRST_NUMBER + import_hands)]
        then = f", then {more_hands:,} more hands into it" if more else ""
        say(
            f"import: end to end into a new database, then again (nothing new){then}, then the report"
        )
        figures.update(import_figures(import_files, data, more=more))
        figures.update(report_figures(data))
    figures["runs"] = runs
    figures["python"] = sys.version.split()[0]
    figures["native"] = _native_summary()
    figures["cpu_count"] = os.cpu_count()
    return figures


def _native_summary() -> str:
    """ "4 of 4", or how many ran compiled and why the others ran from source."""
    from handlog import _native

    status = _native.status()
    compiled = sum(state == "compiled" for state in status.values())
    reasons = sorted({state for state in status.values() if state != "compiled"})
    return f"{compiled} of {len(status)}" + (f"; {', '.join(reasons)}" if reasons else "")


_SITE_FIGURES = {
    "hands": ("hands", "hands"),
    "unparsed": ("unparsed or skipped", "hands"),
    "hands_per_cpu_second": ("parse (1 core, CPU time)", "hands/CPU s"),
    "hands_per_cpu_second_best": ("parse (1 core, CPU time, best run)", "hands/CPU s"),
}


_VARIANT_FIGURES = {
    "hands": ("hands", "hands"),
    "flagged": ("flagged", "hands"),
    "hands_per_cpu_second": ("replay + checks (1 core, CPU time)", "hands/CPU s"),
}


_IMPORT_FIGURES = {
    "hands": ("hands", "hands"),
    "files": ("files", ""),
    "hands_per_second": ("import (end to end, all cores)", "hands/s"),
    "hands_per_cpu_second": ("import (CPU time, all processes)", "hands/CPU s"),
}


def _site_label(key: str) -> tuple[str, str]:
    """Label and unit of a per-site figure ("sites.full-tilt-poker.hands", an import's
    "imports.pokerstars.small.us.parse") or a per-game and structure one
    ("variants.razz27.pot.hands"), else the key itself."""
    if key.startswith("imports."):
        _, site, shape, figure = (key.split(".", 3) + ["", "", ""])[:4]
        if figure.startswith("us."):
            return f"{site} import, {shape}: CPU in {figure[3:]}", "us/hand"
        if figure in _IMPORT_FIGURES:
            label, unit = _IMPORT_FIGURES[figure]
            return f"{site} import, {shape}: {label}", unit
    if key.startswith("variants."):
        _, game, structure, figure = (key.split(".", 3) + ["", "", ""])[:4]
        if figure in _VARIANT_FIGURES:
            label, unit = _VARIANT_FIGURES[figure]
            return f"{game} {structure} limit: {label}", unit
    _, _, rest = key.partition("sites.")
    site, _, figure = rest.partition(".")
    if key.startswith("sites.") and figure in _SITE_FIGURES:
        label, unit = _SITE_FIGURES[figure]
        return f"{site}: {label}", unit
    return key, ""


def format_table(figures: dict[str, Any]) -> str:
    """The figures as a table: figure, value, unit (known figures first, in order)."""
    order = [key for key in FIGURES if key in figures]
    order += [key for key in figures if key not in FIGURES]
    rows = []
    for key in order:
        label, unit = FIGURES.get(key) or _site_label(key)
        value = figures[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            text = str(value)
        elif isinstance(value, int):
            text = f"{value:,}"
        else:
            text = f"{value:,.3f}".rstrip("0").rstrip(".") if value < 100 else f"{value:,.0f}"
        rows.append((label, text, unit))
    width = max(len(label) for label, _, _ in rows)
    number = max((len(text) for _, text, _ in rows if len(text) <= 20), default=10)
    lines = [f"{'figure':<{width}}  {'value':>{number}}  unit", "-" * (width + number + 10)]
    for label, text, unit in rows:
        value = f"{text:>{number}}" if len(text) <= number else text
        lines.append(f"{label:<{width}}  {value}  {unit}".rstrip())
    return "\n".join(lines)
