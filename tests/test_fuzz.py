"""Fuzzing every reader: real exports of every site, mutated as a careless tool or a hostile
user would (byte flips, truncation, swapped and duplicated lines, huge and odd numbers,
unicode, NUL bytes, other encodings, XML tricks, megabyte lines), read as `handlog check`
and `handlog import` read them. For every mutant, each hand is a record that replays, a
parse error naming a line, or a skip: never an exception; every number in a record fits the
store; and no mutant takes longer than a bound proportional to its size.

The seeds are the fixtures of every site (tests/sites/) and sample_logs/, and the real
exports of ../shared/corpus when it is there. Mutant `i` of seed `s` is the same on every
machine (its random generator is seeded with both), so a failure names what to replay.

CI runs `MUTANTS_PER_SITE` mutants of each site's seeds (about a minute in all). A longer
run, on both cores, with counts at the end:

    python -m tests.test_fuzz --mutants 50000 --workers 2 [--seed 1] [--keep DIR]

or the test itself with more mutants: `HANDLOG_FUZZ_MUTANTS=2000 pytest tests/test_fuzz.py`
(per site; `HANDLOG_FUZZ_SEED` picks another set). A failing mutant is written to `--keep`
(or the test's temporary folder) as `mutant-<site>-<seed>-<i><suffix>`, beside its recipe."""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache
from pathlib import Path

import pytest

from handlog import store
from handlog.check import CheckedHand, check_items
from handlog.errors import ParseError, Skipped
from handlog.evidence import add_evidence
from handlog.model import Hand
from handlog.parse import detect_file, parse_file, parse_range
from handlog.parse.money import MAX_AMOUNT
from handlog.parse.reader import cuttable, detect_encoding, hand_ranges
from handlog.parse.sites import FORMATS

from .conftest import SAMPLE_LOGS, SHARED_CORPUS, SITES

MUTANTS_PER_SITE = int(os.environ.get("HANDLOG_FUZZ_MUTANTS", "1000"))
"""Mutants of each site's seeds in a test run."""
SEED = int(os.environ.get("HANDLOG_FUZZ_SEED", "0"))

SECONDS_BASE = 2.0
SECONDS_PER_KB = 0.02
"""The CPU time a mutant may take: 2 s, and 20 ms per KB of it (parsing and replaying runs
at well under 1 ms per KB; a reader that is quadratic in a line's length takes seconds on
one line of 64 KB)."""

SEED_SUFFIXES = (".txt", ".xml", ".phh", ".phhs", ".log", ".hh")

INT64 = (1 << 63) - 1
INT32 = (1 << 31) - 1


# -- seeds ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeedFile:
    path: Path
    data: bytes
    site: str
    """The site value of the format the file is detected as."""
    encoding: str
    text: str


@cache
def seed_files() -> tuple[SeedFile, ...]:
    """Every real export and fixture that reads as some site's format, once per content."""
    candidates = [*SITES.glob("*/*"), *SAMPLE_LOGS.glob("*")]
    if SHARED_CORPUS.is_dir():
        candidates += SHARED_CORPUS.rglob("*")
    found: dict[bytes, SeedFile] = {}
    for path in sorted(candidates):
        if not path.is_file() or path.suffix.lower() not in SEED_SUFFIXES:
            continue
        data = path.read_bytes()
        key = hashlib.sha256(data).digest()
        if key in found:
            continue
        site = detect_file(path)
        if site is None:
            continue
        encoding = detect_encoding(data[:4])
        text = data.decode(encoding, errors="handlog-cp1252")
        found[key] = SeedFile(path, data, site.site.value, encoding, text)
    return tuple(found.values())


def seeds_of(site: str) -> list[SeedFile]:
    return [seed for seed in seed_files() if seed.site == site]


def seed_sites() -> list[str]:
    return sorted({seed.site for seed in seed_files()})


# -- mutations -----------------------------------------------------------------------------

ODD_NUMBERS = [
    "0",
    "00",
    "-1",
    "-0",
    "99999999999999999999999",
    "9223372036854775808",
    "18446744073709551616",
    "2147483648",
    "4294967296",
    "1e309",
    "0.000000001",
    "1,2,3",
    ",",
    "1,,000",
    "1.2.3",
    "1.",
    ".5",
    "10.999",
    "\u0663",  # ARABIC-INDIC DIGIT THREE: str.isdigit() says yes
    "\u00b2",  # SUPERSCRIPT TWO: isdigit() says yes, int() says no
    "\u00bd",
    "\u2163",
    "1_000",
    "0x10",
    "NaN",
    "inf",
    "+5",
    "007",
    "9" * 400,
]
WEIRD_TEXT = [
    "\x00",
    "\x00" * 7,
    "\u2028",
    "\u2029",
    "\x85",
    "\x0b",
    "\x0c",
    "\r",
    "\t",
    "\u200b",
    "\u202e",
    "\ufeff",
    "\udc80",  # a lone surrogate: no encoding writes it but as damage
    "\u0301",
    "\u00e9",
    "\u20ac",
    "\U0001f600",
    "\u0130",
    "\ufb03",
    "[",
    "]",
    "[]",
    "(",
    ")",
    "()",
    ":",
    ": ",
    " - ",
    "-",
    "*** ",
    " ***",
    "Seat 1: ",
    "<",
    ">",
    "&",
    '"',
    "'",
    "\\",
    "%s",
    "{0}",
    "$",
    "\u00a3",
    ",",
    ".",
    "#",
    " ",
    "  ",
    "\n",
    "\n\n\n",
    "Dealt to ",
    " and is all-in",
    ", and is all in",
    " [X]",
    " [Ah Kh Qh Jh Th 9h 8h 7h]",
    "X X",
]
CARD_TOKENS = [
    "As",
    "Ah",
    "Xx",
    "10s",
    "1s",
    "Zz",
    "??",
    "X",
    "null",
    "H",
    "Ah Kh Qh Jh Th 9h 8h 7h",
    "Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h",
    "As As As",
    "",
    "AS",
    "ah",
    "S10",
    "D1",
]
LONG_RUN_CHARACTERS = " [](),.:-*$0<>&\tX"
LONG_RUN_LENGTHS = [100, 1000, 10_000, 64_000]
XML_TRICKS = [
    '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>',
    '<!DOCTYPE x SYSTEM "file:///etc/passwd">',
    "<!-- a comment -->",
    "<![CDATA[ <game> ]]>",
    "<?pi anything?>",
    "&amp;",
    "&#0;",
    "&#x110000;",
    "&unknown;",
    "&#65;",
    "</game>",
    "<game>",
    "<x:game xmlns:x='urn:x'>",
    "<session>",
    "</session>",
    '<?xml version="1.0" encoding="utf-16"?>',
    '<?xml version="1.0" encoding="bogus"?>',
]
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252", "latin-1"]

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[cdhs]\b|\b[SHDC](?:10|[2-9JQKA])\b")
_WORD = re.compile(r"[A-Za-z]+")
_ATTRIBUTE = re.compile(r'="[^"\n]*"')
_TAG = re.compile(r"<[A-Za-z][^<>\n]*>")


@dataclass
class Mutant:
    text: str
    encoding: str
    recipe: list[str] = field(default_factory=list)
    data: bytes = b""


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _line_edit(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    lines = _lines(mutant.text)
    at = rng.randrange(len(lines))
    kind = rng.choice(["delete", "duplicate", "swap", "move", "foreign", "halve", "case"])
    if kind == "delete" and len(lines) > 1:
        del lines[at]
    elif kind == "duplicate":
        lines[at:at] = [lines[at]] * rng.choice([1, 1, 2, 50])
    elif kind == "swap" and at + 1 < len(lines):
        lines[at], lines[at + 1] = lines[at + 1], lines[at]
    elif kind == "move":
        moved = lines.pop(at)
        lines.insert(rng.randrange(len(lines) + 1), moved)
    elif kind == "foreign" and others:
        other = _lines(rng.choice(others).text)
        start = rng.randrange(len(other))
        lines[at:at] = other[start : start + rng.choice([1, 1, 3, 30])]
    elif kind == "halve":
        lines[at] = lines[at][: len(lines[at]) // 2] + "\n"
    elif kind == "case":
        lines[at] = lines[at].upper() if rng.random() < 0.5 else lines[at].lower()
    mutant.text = "".join(lines)
    mutant.recipe.append(f"line {at + 1}: {kind}")


def _replace_token(
    rng: random.Random, mutant: Mutant, pattern: re.Pattern[str], choices: list[str], what: str
) -> None:
    found = list(pattern.finditer(mutant.text))
    if not found:
        return
    match = rng.choice(found)
    value = rng.choice(choices)
    mutant.text = mutant.text[: match.start()] + value + mutant.text[match.end() :]
    mutant.recipe.append(f"{what} {match[0]!r} at {match.start()} -> {value[:20]!r}")


def _number(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    _replace_token(rng, mutant, _NUMBER, ODD_NUMBERS, "number")


def _card(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    _replace_token(rng, mutant, _CARD, CARD_TOKENS, "card")


def _word(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    """A word replaced by another word of the file, or one letter of it changed (how
    "3rd" becomes "5rd", "folds" "folks", a street name another)."""
    words = list(_WORD.finditer(mutant.text))
    if not words:
        return
    match = rng.choice(words)
    if rng.random() < 0.5:
        value = rng.choice(words)[0]
    else:
        word = match[0]
        at = rng.randrange(len(word))
        value = (
            word[:at] + rng.choice("abcdefghijklmnopqrstuvwxyzAEIOUXZ0123456789") + word[at + 1 :]
        )
    mutant.text = mutant.text[: match.start()] + value + mutant.text[match.end() :]
    mutant.recipe.append(f"word {match[0]!r} at {match.start()} -> {value!r}")


def _insert(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    at = rng.randrange(len(mutant.text) + 1)
    value = rng.choice(WEIRD_TEXT)
    mutant.text = mutant.text[:at] + value + mutant.text[at:]
    mutant.recipe.append(f"insert {value!r} at {at}")


def _delete_span(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    at = rng.randrange(len(mutant.text) + 1)
    length = rng.choice([1, 1, 2, 5, 40, 400])
    mutant.text = mutant.text[:at] + mutant.text[at + length :]
    mutant.recipe.append(f"delete {length} characters at {at}")


def _long_run(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    """A long run of one character, in a line or as a line of its own."""
    character = rng.choice(LONG_RUN_CHARACTERS)
    length = rng.choice(LONG_RUN_LENGTHS)
    at = rng.randrange(len(mutant.text) + 1)
    run = character * length
    if rng.random() < 0.5:
        run = "\n" + run + "\n"
    mutant.text = mutant.text[:at] + run + mutant.text[at:]
    mutant.recipe.append(f"{length} x {character!r} at {at}")


def _truncate(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    at = rng.randrange(len(mutant.text) + 1)
    mutant.text = mutant.text[:at]
    mutant.recipe.append(f"truncated at character {at}")


def _repeat_hand(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    """A stretch of the file repeated (the same hand twice, a session's hands again)."""
    lines = _lines(mutant.text)
    start = rng.randrange(len(lines))
    end = min(len(lines), start + rng.choice([5, 20, 80, 400]))
    lines[end:end] = lines[start:end]
    mutant.text = "".join(lines)
    mutant.recipe.append(f"lines {start + 1}-{end} repeated")


def _xml(rng: random.Random, mutant: Mutant, others: list[SeedFile]) -> None:
    text = mutant.text
    choice = rng.random()
    if choice < 0.4:
        attributes = list(_ATTRIBUTE.finditer(text))
        if attributes:
            match = rng.choice(attributes)
            value = rng.choice(ODD_NUMBERS + WEIRD_TEXT + XML_TRICKS[5:10] + ['"', ""])
            value = value.replace('"', "&quot;") if rng.random() < 0.5 else value
            mutant.text = text[: match.start()] + f'="{value}"' + text[match.end() :]
            mutant.recipe.append(f"attribute {match[0]!r} -> {value[:20]!r}")
            return
    if choice < 0.6:
        tags = list(_TAG.finditer(text))
        if tags:
            match = rng.choice(tags)
            tag = match[0]
            edit = rng.choice(["drop", "duplicate attribute", "unclose", "self-close"])
            if edit == "drop":
                new = ""
            elif edit == "duplicate attribute" and " " in tag:
                name = tag[1:].split(" ", 2)[1].split("=")[0] if tag.count(" ") > 0 else "x"
                new = tag[:-1].rstrip("/") + f' {name}="1"' + (" />" if tag.endswith("/>") else ">")
            elif edit == "unclose":
                new = tag[:-1]
            else:
                new = tag[:-1].rstrip("/") + "/>"
            mutant.text = text[: match.start()] + new + text[match.end() :]
            mutant.recipe.append(f"tag {tag[:30]!r}: {edit}")
            return
    trick = rng.choice(XML_TRICKS)
    newline = text.find("\n")
    at = rng.choice([0, newline + 1 if newline >= 0 else 0, rng.randrange(len(text) + 1)])
    mutant.text = text[:at] + trick + text[at:]
    mutant.recipe.append(f"insert {trick[:30]!r} at {at}")


TEXT_MUTATIONS: list[tuple[Callable[[random.Random, Mutant, list[SeedFile]], None], int]] = [
    (_line_edit, 6),
    (_number, 5),
    (_card, 3),
    (_word, 4),
    (_insert, 4),
    (_delete_span, 2),
    (_long_run, 2),
    (_truncate, 1),
    (_repeat_hand, 1),
    (_xml, 3),
]


def _encode(rng: random.Random, mutant: Mutant) -> bytes:
    encoding = mutant.encoding
    if rng.random() < 0.15:
        encoding = rng.choice(ENCODINGS)
        mutant.recipe.append(f"encoded as {encoding}")
    if encoding.startswith("utf"):
        data = mutant.text.encode(encoding, errors="surrogatepass")
    else:
        data = mutant.text.encode(encoding, errors="replace")
    if rng.random() < 0.1:
        data = rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00"]) + data
        mutant.recipe.append(f"starts with {data[:3]!r}")
    return data


def _byte_edits(rng: random.Random, mutant: Mutant, data: bytes) -> bytes:
    buffer = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 5])):
        if not buffer:
            break
        at = rng.randrange(len(buffer))
        kind = rng.choice(["flip", "set", "nul", "insert", "delete", "truncate"])
        if kind == "flip":
            buffer[at] ^= 1 << rng.randrange(8)
        elif kind == "set":
            buffer[at] = rng.randrange(256)
        elif kind == "nul":
            buffer[at:at] = b"\x00" * rng.choice([1, 2, 3, 100])
        elif kind == "insert":
            buffer[at:at] = rng.choice(
                [b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\r", b"\xed\xa0\x80"]
            )
        elif kind == "delete":
            del buffer[at : at + rng.choice([1, 2, 3, 64])]
        else:
            del buffer[at:]
        mutant.recipe.append(f"byte {kind} at {at}")
    return bytes(buffer)


def mutate(seed: SeedFile, index: int, run_seed: int, others: list[SeedFile]) -> Mutant:
    """Mutant `index` of `seed`: one to four changes of its text, sometimes another
    encoding, sometimes damaged bytes."""
    rng = random.Random(f"{run_seed}:{seed.path.name}:{index}")
    mutant = Mutant(seed.text, seed.encoding)
    functions = [function for function, _ in TEXT_MUTATIONS]
    weights = [weight for _, weight in TEXT_MUTATIONS]
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        if not mutant.text:
            break
        rng.choices(functions, weights)[0](rng, mutant, others)
    data = _encode(rng, mutant)
    if rng.random() < 0.25:
        data = _byte_edits(rng, mutant, data)
    mutant.data = data
    return mutant


# -- reading a mutant ----------------------------------------------------------------------


@dataclass
class Counts:
    mutants: int = 0
    hands: int = 0
    errors: int = 0
    skipped: int = 0
    bytes: int = 0
    slowest_ms_per_kb: float = 0.0
    slowest: str = ""
    failures: list[str] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        self.mutants += other.mutants
        self.hands += other.hands
        self.errors += other.errors
        self.skipped += other.skipped
        self.bytes += other.bytes
        if other.slowest_ms_per_kb > self.slowest_ms_per_kb:
            self.slowest_ms_per_kb, self.slowest = other.slowest_ms_per_kb, other.slowest
        self.failures += other.failures

    def summary(self) -> str:
        return (
            f"{self.mutants:,} mutants ({self.bytes / 1e6:,.1f} MB): {self.hands:,} hands read, "
            f"{self.errors:,} parse errors, {self.skipped:,} skipped, "
            f"{len(self.failures):,} exceptions or failures; slowest "
            f"{self.slowest_ms_per_kb:,.2f} ms CPU per KB ({self.slowest})"
        )


def _too_big(value: object, path: str) -> str | None:
    """Where a record holds a number the store cannot hold (or a money field one above
    `MAX_AMOUNT`), if anywhere."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        small = path.endswith((".number", ".seat", ".max_seats", ".pot", ".line", ".end_line"))
        limit = INT32 if small else MAX_AMOUNT
        return None if -limit <= value <= limit else f"{path} = {value}"
    if isinstance(value, tuple):
        for position, item in enumerate(value):
            found = _too_big(item, f"{path}[{position}]")
            if found:
                return found
        return None
    if is_dataclass(value) and not isinstance(value, type):
        for item in fields(value):
            if item.name in ("street", "first_street"):
                continue
            found = _too_big(getattr(value, item.name), f"{path}.{item.name}")
            if found:
                return found
    return None


def _check_outcome(checked: CheckedHand) -> str | None:
    """What is wrong with one hand's outcome, if anything."""
    if checked.hand is not None:
        assert isinstance(checked.hand, Hand)
        if checked.replay is None:
            return "a hand without a replay"
        return _too_big(checked.hand, "hand")
    if checked.error is not None:
        error = checked.error
        assert isinstance(error, ParseError)
        if error.line < 1 or not error.message.strip():
            return f"a parse error without a line or a message: {error}"
        return None
    if checked.skipped is None or not isinstance(checked.skipped, Skipped):
        return "neither a hand, an error nor a skip"
    return None


def _items(path: str, by_ranges: bool) -> Iterator[object]:
    """The file's items as `handlog check` reads them, or as `handlog import` does (in the
    byte ranges of whole hands its workers read apart)."""
    site = detect_file(path) if by_ranges and cuttable(path) else None
    if site is None or site.header_bytes is None or site.header_marker is None:
        yield from parse_file(path)
        return
    parts = list(hand_ranges(path, site.header_bytes, site.header_marker, 4096))
    if not parts:
        yield from parse_file(path)
        return
    for part in parts:
        yield from parse_range(path, part, site)


def read_mutant(path: str, by_ranges: bool) -> tuple[Counter[str], str | None]:
    """Read, replay and store-convert a mutant file; the outcome counts and the first thing
    wrong (an exception as its traceback's last lines)."""
    counts: Counter[str] = Counter()
    try:
        batch = store.Batch()
        flagged = []
        items = _items(path, by_ranges)
        for checked in check_items(items, path):  # type: ignore[arg-type]
            wrong = _check_outcome(checked)
            if wrong:
                return counts, wrong
            counts[checked.status if checked.hand is None else "hands"] += 1
            store.add_checked(batch, checked)
            if checked.replay is not None and checked.replay.violations:
                flagged.append(checked)
        if flagged and not by_ranges:
            add_evidence(batch, path, None, flagged, None)
        batch.arrow()
    except Exception as error:  # noqa: BLE001 - the point: any exception is the finding
        frames = traceback.extract_tb(error.__traceback__)
        where = next(
            (f for f in reversed(frames) if "/handlog/" in f.filename),
            frames[-1] if frames else None,
        )
        at = f" at {Path(where.filename).name}:{where.lineno} ({where.name})" if where else ""
        return counts, f"{type(error).__name__}: {error}{at}\n{traceback.format_exc()}"
    return counts, None


def fuzz_site(
    site: str, mutants: int, run_seed: int, folder: Path, start: int = 0, step: int = 1
) -> Counts:
    """Mutants `start`, `start + step`, … below `mutants` of `site`'s seeds, each read; the
    counts, and a line per failure (its mutant is kept in `folder`)."""
    seeds = seeds_of(site)
    others = [seed for seed in seed_files() if seed.site != site]
    counts = Counts()
    for seed in seeds:  # grammars compiled and caches filled before anything is timed
        read_mutant(str(seed.path), by_ranges=False)
    for index in range(start, mutants, step):
        seed = seeds[index % len(seeds)]
        mutant = mutate(seed, index, run_seed, others)
        path = folder / f"mutant-{site}-{run_seed}-{index}{seed.path.suffix}"
        path.write_bytes(mutant.data)
        cpu = time.process_time()
        outcome, wrong = read_mutant(str(path), by_ranges=index % 2 == 1)
        spent = time.process_time() - cpu
        kilobytes = max(len(mutant.data), 1) / 1024
        bound = SECONDS_BASE + SECONDS_PER_KB * kilobytes
        if wrong is None and spent > bound:
            wrong = f"took {spent:.1f} s CPU for {kilobytes:,.0f} KB (bound {bound:.1f} s)"
        counts.mutants += 1
        counts.bytes += len(mutant.data)
        counts.hands += outcome["hands"]
        counts.errors += outcome["unparsed"]
        counts.skipped += outcome["skipped"]
        rate = spent * 1000 / kilobytes if kilobytes >= 1 else 0.0
        if rate > counts.slowest_ms_per_kb:
            counts.slowest_ms_per_kb, counts.slowest = rate, f"{path.name}, {kilobytes:,.0f} KB"
        if wrong is None:
            path.unlink()
            continue
        recipe = f"{seed.path.name}: " + "; ".join(mutant.recipe)
        path.with_suffix(path.suffix + ".recipe").write_text(recipe + "\n" + wrong + "\n")
        counts.failures.append(f"{path.name} ({recipe}): {wrong.splitlines()[0]}")
    return counts


# -- the tests -----------------------------------------------------------------------------

@pytest.mark.parametrize("site", seed_sites())
def test_no_mutant_of_a_real_export_crashes_stalls_or_overflows(site, tmp_path):
    counts = fuzz_site(site, MUTANTS_PER_SITE, SEED, tmp_path)
    print(f"{site}: {counts.summary()}")
    assert counts.mutants == MUTANTS_PER_SITE
    assert not counts.failures, "\n".join(counts.failures[:10])


def test_every_site_has_seeds_without_the_shared_corpus():
    """The fuzz test runs on a checkout alone: every format's site has fixtures among the
    seeds (the corpus adds more when it is there)."""
    in_checkout = {
        found.site.value
        for path in [*SITES.glob("*/*"), *SAMPLE_LOGS.glob("*")]
        if path.suffix in SEED_SUFFIXES and (found := detect_file(path)) is not None
    }
    assert in_checkout == {site.site.value for site in FORMATS}


# -- a long run ----------------------------------------------------------------------------


def _work(job: tuple[str, int, int, str, int, int]) -> Counts:
    site, mutants, run_seed, folder, start, step = job
    return fuzz_site(site, mutants, run_seed, Path(folder), start, step)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=10_000, help="in all, over every site")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="folder for failing mutants")
    parser.add_argument("--site", action="append", help="only these sites (repeatable)")
    options = parser.parse_args(argv)
    folder = options.keep or Path(tempfile.mkdtemp(prefix="handlog-fuzz-"))
    folder.mkdir(parents=True, exist_ok=True)
    sites = options.site or seed_sites()
    per_site = max(1, options.mutants // len(sites))
    jobs = [
        (site, per_site, options.seed, str(folder), worker, options.workers)
        for site in sites
        for worker in range(options.workers)
    ]
    total = Counts()
    started = time.perf_counter()
    if options.workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(options.workers) as pool:
            results = list(pool.map(_work, jobs))
    else:
        results = [_work(job) for job in jobs]
    by_site: dict[str, Counts] = {}
    for job, counts in zip(jobs, results, strict=True):
        by_site.setdefault(job[0], Counts()).add(counts)
        total.add(counts)
    for site, counts in by_site.items():
        print(f"{site:12} {counts.summary()}")
    print(f"{'all':12} {total.summary()}")
    print(f"{time.perf_counter() - started:,.0f} s; failing mutants kept in {folder}")
    for failure in total.failures[:50]:
        print("  " + failure)
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
