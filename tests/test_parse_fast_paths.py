"""The parser's fast paths give exactly what the grammar gives.

`SectionGrammar.body_tokens` cuts a hand body into section tokens without Lark, and `TextHandBuilder.lines`
tries each line against its rule's terminals one by one (after a literal check) instead of
one alternation. Both are derived from `grammars/pokerstars.lark`; here they are compared
with Lark's lexer and with the grammar's alternation on every line of the real exports, the
fixtures and simulated hands, and on garbled copies of those lines."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from handlog.model import Game
from handlog.parse import grammar
from handlog.parse.reader import split_text
from handlog.parse.sites import pokerstars
from handlog.simulate import SimulationOptions, simulate_hands

from .conftest import (
    SAMPLE_LOGS,
    SHARED_CORPUS,
    SITES,
    pokerstars_corpus_files,
    site_fixture_files,
)

START = ["header", "body"]
RULES = sorted({rule for _, rule in pokerstars.SECTIONS.values()})
GARBLE = "abXZ09 :[]()$.,#'\"-*€"


def _texts() -> list[str]:
    files = [
        *pokerstars_corpus_files(),
        *sorted(SAMPLE_LOGS.glob("*.txt")),
        *site_fixture_files("pokerstars"),
    ]
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    for game, seed, tournament in [
        (Game.STUD, 1, False),
        (Game.STUD8, 2, True),
        (Game.RAZZ, 3, False),
    ]:
        options = SimulationOptions(
            game=game, hands=150, seed=seed, tournament=tournament, fault_rate=0.2
        )
        texts.append("\n\n".join(hand.text for hand in simulate_hands(options)))
    return texts


def _bodies(texts: list[str]) -> Iterator[str]:
    for text in texts:
        normalized = text.replace("\r\n", "\n").replace("\r", "\n")
        chunks = split_text([normalized], "<test>", pokerstars.is_header, pokerstars.HEADER_PREFIX)
        for chunk in chunks:
            newline = chunk.text.find("\n")
            if chunk.is_hand and newline > 0:
                yield chunk.text[newline + 1 :] + "\n"


def _garbled(line: str, rng: random.Random) -> str:
    at = rng.randrange(len(line) + 1)
    choice = rng.randrange(5)
    if choice == 0:
        return line[:at] + line[at + 1 :]
    if choice == 1:
        return line[:at] + rng.choice(GARBLE) + line[at:]
    if choice == 2:
        return line[:at] + rng.choice(GARBLE) + line[at + 1 :]
    if choice == 3:
        return line[:at]
    return line + rng.choice([" ", " and is all-in", "]", " [Ac]", ")", ":", "x"])


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts()


@pytest.fixture(scope="module")
def lines(texts: list[str]) -> list[str]:
    rng = random.Random(7)
    found = {line for text in texts for line in text.replace("\r", "").split("\n")}
    garbled = {_garbled(line, rng) for line in sorted(found) for _ in range(3)}
    return sorted((found | garbled) - {""})


@pytest.mark.parametrize("rule", RULES)
def test_line_terminals_agree_with_the_alternation(rule: str, lines: list[str]) -> None:
    alternation = grammar.line_classifier("pokerstars", START, rule)
    terminals = grammar.line_terminals("pokerstars", START, rule)
    assert terminals is not None
    accepted = 0
    for line in lines:
        whole = line + "\n"
        expected = alternation.match(whole)
        fast = next(
            (
                t.name
                for t in terminals
                if (line.startswith(t.literal) if t.prefix else t.literal in line)
                and t.pattern.match(whole) is not None
            ),
            None,
        )
        assert fast == (expected.lastgroup if expected else None), line
        # Matched alone or inside a longer text, a line terminal ends at the line's end.
        if expected is not None:
            accepted += 1
            assert expected.end() == len(whole)
            inside = alternation.match("x\n" + whole + "y\n", 2)
            assert inside is not None and inside.lastgroup == expected.lastgroup
    assert accepted > 50


def test_body_tokens_are_larks_tokens(texts: list[str]) -> None:
    from lark.exceptions import UnexpectedInput

    parser = pokerstars.GRAMMAR.parser()
    rng = random.Random(11)
    bodies = list(_bodies(texts))
    garbled = []
    for body in bodies:
        body_lines = body.split("\n")
        at = rng.randrange(len(body_lines))
        if rng.random() < 0.5:
            del body_lines[at]
        else:
            body_lines[at] = _garbled(body_lines[at], rng)
        garbled.append("\n".join(body_lines))
    fast_count = 0
    for index, body in enumerate(bodies + garbled):
        fast = pokerstars.GRAMMAR.body_tokens(body)
        try:
            tree = parser.parse(body, start="body")
        except UnexpectedInput:
            assert fast is None, f"the fast path accepts a body Lark refuses:\n{body}"
            continue
        if index < len(bodies):
            assert fast is not None, body  # every hand Lark reads takes the fast path
        if fast is not None:
            fast_count += 1
            assert fast == [(t.type, str(t), t.line) for t in tree.children], body
    assert fast_count > len(bodies)


def test_fast_path_needs_single_line_terminals() -> None:
    assert grammar._line_literal(r"[^\n]+: calls \d+\n") == (": calls ", False)
    assert grammar._line_literal(r"Dealt to [^\n]+\n") == ("Dealt to ", True)
    assert grammar._line_literal(r"[^x]+: calls\n") is None  # [^x] takes "\n" too
    assert grammar._line_literal(r".+\n") is None
    assert grammar._line_literal(r"(?=a)[^\n]+\n") is None
    assert grammar._line_literal(r"[^\n]+") is None  # not ended by "\n"
    assert grammar._line_literal(r"(?i)[^\n]+: calls\n") is None  # "CALLS" would match too


def test_leading_literal_is_what_every_match_starts_with() -> None:
    assert grammar.leading_literal(r"\*\*\* 3rd STREET \*\*\*\n(?:[^\n]*\n)?") == (
        "*** 3rd STREET ***\n"
    )
    assert grammar.leading_literal(r"Seat \d+: ") == "Seat "
    assert grammar.leading_literal(r"[^\n]+: posts the ante ") == ""
    assert grammar.leading_literal(r"ab?c") == "a"  # b is optional: not every match has it
    assert grammar.leading_literal(r"(?i)Seat \d+") == ""  # "SEAT 1" matches too
    assert grammar.leading_literal(r"Seat(?i: \d+)") == "Seat"


TEXT_SITES = [
    "absolute",
    "bovada",
    "everleaf",
    "fulltilt",
    "kingsclub",
    "ongame",
    "partypoker",
    "pokerstars",
    "winamax",
    "winning",
    "winning2016",
]


def _all_site_texts() -> list[str]:
    """Every text export the tests have (each site's fixtures, the shared corpus, the sample
    logs), newlines made "\\n" as the reader makes them."""
    files = sorted(SITES.glob("*/*.txt")) + sorted(SAMPLE_LOGS.glob("*.txt"))
    if SHARED_CORPUS.is_dir():
        files += sorted(SHARED_CORPUS.glob("*/*.txt"))
    texts = []
    for path in files:
        raw = path.read_bytes()
        encoding = "utf-16" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else "utf-8"
        text = raw.decode(encoding, errors="replace")
        texts.append(text.replace("\r\n", "\n").replace("\r", "\n"))
    return texts


def _line_starts(text: str) -> Iterator[int]:
    at = 0
    while at >= 0:
        yield at
        at = text.find("\n", at) + 1 or -1


def _cutters(site: str) -> list[tuple[Any, Any]]:
    """A site's body terminals that `body_tokens` cuts without their regular expressions
    (`LinesToHeader`, `RepeatedLines`), each with its regular expression."""
    import importlib

    syntax = importlib.import_module(f"handlog.parse.sites.{site}").GRAMMAR
    sequence = syntax.body_sequence()
    if sequence is None:
        pytest.skip(f"{site} has no body sequence")
    return [
        (pattern, cut)
        for (_, _, pattern), cut in zip(sequence, syntax._to_header, strict=True)
        if cut is not None
    ]


def _damage_line(body_lines: list[str], at: int, choice: int, rng: random.Random) -> None:
    """Damage an export's line `at` as a reader may meet it: a carriage return left in
    (`choice` 1), the next line joined to it (2), or its text garbled."""
    if choice == 1:
        body_lines[at] = body_lines[at] + "\r"
    elif choice == 2 and at + 1 < len(body_lines):
        body_lines[at : at + 2] = [body_lines[at] + body_lines[at + 1]]
    else:
        body_lines[at] = _garbled(body_lines[at], rng)


def _damaged(
    texts: list[str], rounds: int, rng: random.Random, damage: Callable[[list[str], int], None]
) -> list[str]:
    """Copies of some of `texts`, each `damage`d at `rounds` lines, with and without their
    last newline."""
    damaged = []
    for text in texts[:: max(1, len(texts) // 40)]:
        body_lines = text.split("\n")
        for _ in range(rounds):
            damage(body_lines, rng.randrange(len(body_lines)))
        damaged.append("\n".join(body_lines))
        damaged.append("\n".join(body_lines).rstrip("\n"))
    return damaged


def _ends_agree(texts: list[str], pairs: list[tuple[Any, Any]]) -> int:
    """Check at every line of `texts` that each pair's cutter (`.end`) ends where its
    regular expression's match does (-1 for none); how many matched."""
    matched = 0
    for text in texts:
        for position in _line_starts(text):
            for pattern, cut in pairs:
                found = pattern.match(text, position)
                assert cut.end(text, position) == (-1 if found is None else found.end())
                matched += found is not None
    return matched


@pytest.mark.parametrize("site", TEXT_SITES)
def test_lines_to_header_end_where_the_terminals_match(site: str) -> None:
    """A body terminal read as its head and its lines up to the next header
    (`LinesToHeader`) ends where its regular expression's match ends, or finds no match
    where it finds none: at every line of every export of every site, as they are and
    garbled (a header's words in a line, a line's newline dropped, a carriage return left
    in, a text that ends without a newline)."""
    from handlog.parse import text as txt

    split = _cutters(site)
    if site != "ongame":
        assert len(split) >= 5  # every street's lines, at least
    rng = random.Random(5)

    def damage(body_lines: list[str], at: int) -> None:
        choice = rng.randrange(5)
        stop = rng.choice(["*** ", "** ", "------ Summary ------", "**", "*", "-"])
        if choice == 0:
            body_lines[at] = stop
        elif choice == 4:
            body_lines[at] = body_lines[at][:3] + stop + body_lines[at][3:]
        else:
            _damage_line(body_lines, at, choice, rng)

    texts = _all_site_texts()
    matched = _ends_agree(texts + _damaged(texts, 20, rng, damage), split)
    if site != "ongame":
        assert matched > 20
    # What is not in that form is matched by its regular expression.
    assert txt.lines_to_header(r"a|b(?:(?:(?!\*\*\* )[^\n]*\n)+)?") is None
    assert txt.lines_to_header(r"(?i)a(?:(?:(?!\*\*\* )[^\n]*\n)+)?") is None
    assert txt.lines_to_header(r"a(?:(?:(?!\*\*\* )[^\n]*\n)+)") is None  # lines required
    assert txt.lines_to_header(r"a(?:(?:(?!\d )[^\n]*\n)+)?") is None  # not a plain text
    assert txt.lines_to_header(r"a(?:(?:(?!\*\*\* )[^\n]*\n)+)?b") is None
    both = txt.lines_to_header(r"(?:a|b)(?:(?:(?!\*\*\* |-- x --)[^\n]*\n)+)?")
    assert both is not None and both.stops == ("*** ", "-- x --") and both.head is not None
    assert both.end("b\nx\n-- x --\n", 0) == 4 and both.end("a\n*** \n", 0) == 2
    assert both.end("ab\ny", 0) == 3 and both.end("c\n", 0) == -1
    assert both.end("a*** \n", 0) == 1  # the lines start where the head ends
    assert both.end("ax*** \n x -- x --\n-- x\n*** \n", 0) == 23
    plain = txt.lines_to_header(r"\*\* A\ b\n(?:(?:(?!\*\*)[^\n]*\n)+)?")
    assert plain is not None and plain.head is None and plain.head_text == "** A b\n"
    assert plain.end("** A b\nx*\n**\n", 0) == 10 and plain.end("** A c\n", 0) == -1


@pytest.mark.parametrize("site", TEXT_SITES)
def test_repeated_lines_end_where_the_terminals_match(site: str) -> None:
    """A body terminal written as a run of lines (`X (X | NOTE)*`, `X+`) and cut line by
    line with its line rule's memo (`RepeatedLines`) ends where its regular expression's
    match ends, or finds none where it finds none: at every line of every export of every
    site, as they are and garbled (lines swapped with other lines of the export, so that
    notes, antes and seats stand among each other; a line's text garbled; a carriage return
    left in; lines joined; a text that ends without a newline)."""
    from handlog.parse import text as txt

    runs = [(pattern, cut) for pattern, cut in _cutters(site) if isinstance(cut, txt.RepeatedLines)]
    assert runs  # the seat lines, at least
    rng = random.Random(7)

    def damage(body_lines: list[str], at: int) -> None:
        choice = rng.randrange(5)
        if choice < 3:
            _damage_line(body_lines, at, choice, rng)
            return
        other = rng.randrange(len(body_lines))  # a line of the export moved or copied here
        if choice == 3:
            body_lines[at], body_lines[other] = body_lines[other], body_lines[at]
        else:
            body_lines.insert(at, body_lines[other])

    texts = _all_site_texts()
    matched = _ends_agree(texts + _damaged(texts, 30, rng, damage), runs)
    for text in texts:
        for position in _line_starts(text):
            for pattern, cut in runs:
                if pattern.match(text, position) is not None:
                    end = cut.end(text, position)
                    assert cut.cut == text[position : end - 1].split("\n")
    assert matched > 20


def test_repeated_lines_are_read_from_the_grammar() -> None:
    """Which body terminals are runs of lines, and of which terminals, is read from the
    grammar's text: the names of an alternation (`NOTE: CHAT | JOINS …`) stand for theirs,
    and a terminal of any other form is none."""
    first, rest = grammar.repeated_lines("pokerstars", "SEAT_LINES") or ([], [])
    assert first == ["SEAT"]
    assert rest[:3] == ["SEAT", "CHAT", "JOINS"] and "TOURNAMENT_EVENT" in rest
    assert grammar.repeated_lines("absolute", "ANTE_LINES") == (["ANTE"], ["ANTE"])
    first, rest = grammar.repeated_lines("bovada", "ANTE_LINES") or ([], [])
    assert first == ["ANTE", "ALL_IN"] and "SITS_OUT" in rest
    assert grammar.repeated_lines("fulltilt", "ANTE_LINES") is None  # NOTE* ANTE (...)*
    assert grammar.repeated_lines("pokerstars", "THIRD_STREET") is None
    assert grammar.repeated_lines("pokerstars", "NO_SUCH_TERMINAL") is None


def test_string_helpers_are_the_string_methods() -> None:
    """`starts_at`, `index_of` and `rindex_of` (str.find, which mypyc calls natively) give
    what `startswith` with a start, `index` and `rindex` give, errors included."""
    from handlog.parse import text as txt

    texts = ["", "a", "ab", "Seat 1: ab (10)", "a: b: c", "[x] [y]"]
    parts = ["", "a", "b", ": ", " (", "]", "zz", "Seat 1: ab (10) and more"]
    for text in texts:
        for part in parts:
            for at in range(len(text) + 3):
                assert txt.starts_at(text, part, at) == text.startswith(part, at)
                try:
                    expected: int | None = text.index(part, at)
                except ValueError:
                    expected = None
                if expected is None:
                    with pytest.raises(ValueError):
                        txt.index_of(text, part, at)
                else:
                    assert txt.index_of(text, part, at) == expected
            if part in text:
                assert txt.rindex_of(text, part) == text.rindex(part)
            else:
                with pytest.raises(ValueError):
                    txt.rindex_of(text, part)


def test_utc_time_by_the_hour_is_the_zones_own() -> None:
    """`utc_time`, which looks a zone's offset up once per local hour, gives what the zone
    gives for every reading: every zone the sites print, every quarter hour and a few odd
    seconds of the days its clocks change (spring and autumn, both hemispheres), and days
    that are none."""
    from datetime import UTC, datetime, timedelta
    from zoneinfo import ZoneInfo

    from handlog.parse import text as txt

    days = [(2009, 3, 8), (2009, 11, 1), (2021, 3, 28), (2021, 10, 31), (2021, 4, 4), (2021, 9, 26)]
    days += [(2019, 10, 6), (2024, 2, 29)]
    for zone, name in txt.TIME_ZONES.items():
        for year, month, day in days:
            start = datetime(year, month, day)
            for step in range(0, 4 * 48):
                local = start + timedelta(minutes=15 * step - 12 * 60)
                for second in (0, 59):
                    local = local.replace(second=second)
                    expected = local.replace(tzinfo=ZoneInfo(name)).astimezone(UTC)
                    found = txt.utc_time(*local.timetuple()[:6], zone)
                    assert found == expected and found is not None
                    assert found.tzinfo is UTC and found.fold == 0
    assert txt.utc_time(2023, 2, 29, 10, 0, 0, "ET") is None
    assert txt.utc_time(2023, 2, 28, 10, 0, 0, "XYZ") is None
    assert txt.utc_time(9999, 12, 31, 23, 0, 0, "ET") is None  # past the last UTC moment
