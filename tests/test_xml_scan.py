"""The plain scanner of XML hands (`xmlsafe.scan_plain`) against expat: on every Merge hand
there is (the real exports, the fixtures, the simulated printer's) it builds the tree expat
builds, and on thousands of mutants of them it either declines or builds expat's tree, so
that `read_hand` reads every hand, and says what is wrong with every broken one, as expat
alone does.

Mutants: ten times `HANDLOG_FUZZ_MUTANTS` (the count tests/test_fuzz.py makes of each site;
here 150 when it is not set: 1,500 mutants, about a second), the hands taken in turn, from
`HANDLOG_FUZZ_SEED`'s generator: the same on every machine."""

from __future__ import annotations

import os
import random
from functools import cache
from pathlib import Path

import pytest

from handlog.errors import ParseError
from handlog.model import Game, Site, Structure
from handlog.parse import detect_file, xmlsafe
from handlog.parse.reader import Chunk, split_hands
from handlog.parse.sites import merge
from handlog.parse.xmlsafe import (
    Element,
    XMLError,
    hand_element,
    hand_error,
    parse,
    read_hand,
    scan_plain,
)
from handlog.simulate import SimulationOptions, simulate_hands

from .conftest import SHARED_CORPUS, SITES

MUTANTS = 10 * int(os.environ.get("HANDLOG_FUZZ_MUTANTS", "150"))
SEED = int(os.environ.get("HANDLOG_FUZZ_SEED", "0"))

Dump = tuple[str, tuple[tuple[str, str], ...], int, str, tuple["Dump", ...]]


def dump(element: Element) -> Dump:
    """All of an element: tag, attributes in order, line, text and children, in depth."""
    return (
        element.tag,
        tuple(element.attrib.items()),
        element.line,
        element.text,
        tuple(dump(child) for child in element.children),
    )


def expat_tree(text: str) -> Dump | str:
    """What expat reads from a hand's element: its tree, or its error (line and message)."""
    try:
        roots = parse(text, keep_text=False)
    except XMLError as error:
        return f"{error.line}: {error.message}"
    return dump(roots[0]) if len(roots) == 1 else f"{len(roots)} roots"


def _file_chunks(path: Path) -> list[Chunk]:
    found = detect_file(path)
    if found is None or found.site is not Site.MERGE:
        return []
    return [
        chunk for chunk in split_hands(path, found.is_header, found.header_prefix) if chunk.is_hand
    ]


def _simulated_chunks() -> list[Chunk]:
    chunks = []
    for game, structure, seed in (
        (Game.STUD, Structure.FIXED, 3),
        (Game.RAZZ, Structure.FIXED, 5),
        (Game.STUD8, Structure.FIXED, 7),
    ):
        options = SimulationOptions(game, 12, 8, seed=seed, site=Site.MERGE, structure=structure)
        hands = [simulated.hand for simulated in simulate_hands(options)]
        text = "".join(merge.print_file(hands))
        chunks += [
            Chunk("simulated.xml", 1, "<game id=" + part) for part in text.split("<game id=")[1:]
        ]
    return chunks


@cache
def merge_chunks() -> tuple[Chunk, ...]:
    """Every Merge hand: the corpus's (when it is there), the fixtures', the printer's."""
    files = sorted(SHARED_CORPUS.glob("Merge/*")) + sorted((SITES / "merge").glob("*.xml"))
    chunks = [chunk for path in files if path.is_file() for chunk in _file_chunks(path)]
    return (*chunks, *_simulated_chunks())


def test_there_are_hands_of_every_kind_to_compare() -> None:
    chunks = merge_chunks()
    assert sum(chunk.file == "simulated.xml" for chunk in chunks) == 36
    assert sum("tests/sites/merge" in chunk.file for chunk in chunks) >= 3


def test_every_merge_hand_is_plain_and_scanned_to_expat_s_tree() -> None:
    for chunk in merge_chunks():
        text = hand_element(chunk.text)
        scanned = scan_plain(text)
        assert scanned is not None, (chunk.file, chunk.line)  # Merge writes plain hands
        assert dump(scanned) == expat_tree(text), (chunk.file, chunk.line)


def test_every_merge_hand_is_read_by_the_joints_of_its_double_quotes() -> None:
    """The whole-hand scanner (`_scan_joints`), not the line scanner, reads every Merge hand."""
    for chunk in merge_chunks():
        text = hand_element(chunk.text)
        scanned = xmlsafe._scan_joints(text)
        assert scanned is not None, (chunk.file, chunk.line)
        assert dump(scanned) == expat_tree(text), (chunk.file, chunk.line)


@pytest.mark.parametrize("where", ["before a key", "after a tag", "alone on a line"])
def test_long_white_space_in_a_joint_is_read_in_time_linear_in_it(where: str) -> None:
    """Tabs and spaces between a hand's values, however many, are read (or refused) as expat
    reads them, in time that grows with them, not with their square: a fuzzed export with
    64,000 tabs before a key took 18 s of CPU to refuse (a pattern with white space on both
    sides of an optional tag tried every split of it)."""
    import time

    chunk = next(iter(merge_chunks()))
    text = hand_element(chunk.text)
    white = "\t \t" * 20_000
    at = {
        "before a key": text.index(" ", text.index('="') + 2),
        "after a tag": text.index(">") + 1,
        "alone on a line": text.index("\n") + 1,
    }[where]
    mutant = text[:at] + white + ("\n" if where == "alone on a line" else "") + text[at:]
    started = time.process_time()
    for scanned in (xmlsafe._scan_joints(mutant), scan_plain(mutant)):
        assert scanned is None or dump(scanned) == expat_tree(mutant)
    assert time.process_time() - started < 2.0  # ~18 s each with the quadratic pattern


def test_read_hand_reads_a_plain_merge_hand_without_expat(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    chunk = next(chunk for chunk in merge_chunks() if "tests/sites/merge" in chunk.file)
    expected = expat_tree(hand_element(chunk.text))
    assert scan_plain(hand_element(chunk.text)) is not None

    def no_expat(*args: object, **kwargs: object) -> list[Element]:
        raise AssertionError("expat read a plain hand")

    monkeypatch.setattr(xmlsafe, "parse", no_expat)  # (compiled: calls inside stay direct)
    read = read_hand(chunk, None, keep_text=False)
    assert isinstance(read, Element) and read.inner
    assert dump(read) == expected


@pytest.mark.parametrize(
    "text",
    [
        '<game id="1">\n<game a="2">\n</game>\n</game>',  # ends at the inner `</game>`
        '<game id="1">\n<x a="2">\n<game b="3">\n</game>\n</x>\n</game>',
        '<game id="1">\n</game>\n<x a="2"/>\n</game>',  # after its end
        '<game id="1">\n<x a="2"/>\n</game>',
    ],
)
def test_a_chunk_ending_with_its_end_tag_is_read_up_to_its_first_as_expat_reads_it(
    text: str,
) -> None:
    chunk = Chunk("hand.xml", 3, text)
    assert _outcome(read_hand(chunk, "7", keep_text=False)) == _outcome(_expat_read(chunk))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('<game a="1 &amp; 2">\n</game>', "a reference"),
        ('<game a="1">\n<!-- x -->\n</game>', "a comment"),
        ('<game a="1">\n<![CDATA[x]]>\n</game>', "CDATA"),
        ('<?xml version="1.0"?>\n<game a="1">\n</game>', "a declaration"),
        ('<game a="1">\ntext\n</game>', "text"),
        ('<game a="a\tb">\n</game>', "a tab in a value (expat turns it into a space)"),
        ('<game a="é\tb">\n</game>', "a tab in a value of a hand that is not ASCII"),
        ('<game a="1">\n\x0b<round/>\n</game>', "a control character between tags"),
        ('<game a="é\x01">\n</game>', "a control character in a hand that is not ASCII"),
        ('<game a="a\nb">\n</game>', "a newline in a value"),
        ('<game a="a>b">\n</game>', "> in a value"),
        ('<game a="a\rb">\n</game>', "a carriage return"),
        ('<game a="1" a="2">\n</game>', "an attribute twice"),
        ('<game a="1"b="2">\n</game>', "no space between attributes"),
        ('<game xmlns="urn:x">\n</game>', "a namespace"),
        ('<game x:a="1">\n</game>', "a prefixed name"),
        ('<game a="1">\n<round>\n</game>', "unbalanced tags"),
        ('<game a="1">\n</game>\n<game a="2">\n</game>', "two top-level elements"),
        ('<game a="1">\n</game>\nx', "text after the element"),
        ('<game a="1"\n b="2">\n</game>', "a tag over two lines"),
        ('<game a="1">\n<round/><round/>\n</game>', "two tags on a line"),
        ('<game a="\x01">\n</game>', "a control character"),
        ("<game a='\ufffe'>\n</game>", "a non-character"),
    ],
)
def test_the_scanner_declines_what_is_not_plain(text: str, why: str) -> None:
    assert scan_plain(text) is None, why


def test_the_scanner_reads_quotes_empty_values_and_spaces_as_expat_does() -> None:
    text = "<game a='x\"y' b=\"\" c = 'é'  >\n\t <round id=\"1\" />\n  <round id='2'>\n</round >\n</game>\n"
    scanned = scan_plain(text)
    assert scanned is not None
    assert dump(scanned) == expat_tree(text)
    assert scanned.attrib == {"a": 'x"y', "b": "", "c": "é"}
    assert [child.line for child in scanned.children] == [2, 3]


# -- mutants -------------------------------------------------------------------------------

PIECES = [
    "&amp;", "&lt;", "&#65;", "&x;", "<!--x-->", "<![CDATA[x]]>", "<?pi x?>", "<!DOCTYPE g>",
    '"', "'", "<", ">", "/>", "</", "/", "=", "\t", "\n", "\r", "\r\n", " ", "  ", "x",
    ' a="1"', " a='1'", ' id="2"', ' sequence="9"', "xmlns", ' xmlns="urn:x"', ' x:y="1"',
    "<event/>", "</round>", "<round>", "</game>", "\x00", "\x01", "\x7f", "\x85", "é", "\ufffe",
    "\u2028", "\ud800", "]]>", "-", ".", ":", "0", "\u00a0",
]  # fmt: skip


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of a hand's text: a piece inserted, a character replaced
    or deleted, an attribute duplicated, two lines joined, a line swapped, a truncation."""
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        kind = rng.randrange(7)
        if kind == 0:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif kind == 1:
            text = (
                text[:at]
                + chr(rng.choice([rng.randrange(0x80), rng.randrange(0x10000)]))
                + text[at + 1 :]
            )
        elif kind == 2:
            text = text[:at] + text[at + rng.randint(1, 3) :]
        elif kind == 3:  # an attribute of the line written twice
            start = text.rfind(" ", 0, at) + 1
            end = text.find('"', text.find('"', at) + 1) + 1
            if 0 < start < end:
                text = text[:end] + " " + text[start:end] + text[end:]
        elif kind == 4:
            newline = text.find("\n", at)
            if newline >= 0:
                text = text[:newline] + rng.choice(["", " ", "\t"]) + text[newline + 1 :].lstrip()
        elif kind == 5:
            lines = text.split("\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            text = text[:at]
    return text


def _expat_read(chunk: Chunk) -> Element | ParseError:
    """`read_hand` as it read before the scanner: expat alone."""
    try:
        return parse(hand_element(chunk.text), keep_text=False)[0]
    except XMLError as error:
        return hand_error(chunk, error.line, f"the hand's XML cannot be read: {error.message}", "7")


def _outcome(read: Element | ParseError) -> object:
    if isinstance(read, Element):
        return dump(read)
    return (read.line, read.message, read.text, read.hand_line)


def test_a_mutant_is_declined_or_scanned_to_expat_s_tree_and_read_hand_reads_it_as_expat() -> None:
    rng = random.Random(f"xml-scan-{SEED}")
    chunks = merge_chunks()
    scanned = declined = joints = 0
    for n in range(MUTANTS):
        chunk = chunks[n % len(chunks)]
        mutant = Chunk(chunk.file, chunk.line, mutate(chunk.text, rng))
        text = hand_element(mutant.text)
        tree = scan_plain(text)
        if tree is None:
            declined += 1
        else:
            scanned += 1
            assert dump(tree) == expat_tree(text), (n, text)
        # each of its two scanners on its own: declines, or reads expat's tree
        lines = xmlsafe._scan_lines(text)
        assert lines is None or dump(lines) == expat_tree(text), (n, text)
        joined = xmlsafe._scan_joints(text) if text.isascii() else None
        if joined is not None:
            assert dump(joined) == expat_tree(text), (n, text)
            joints += 1
        try:
            expected = _outcome(_expat_read(mutant))
        except (IndexError, UnicodeError):
            continue  # what expat alone does not read either (no element; a lone surrogate)
        assert _outcome(read_hand(mutant, "7", keep_text=False)) == expected, (n, text)
    assert scanned and declined  # both sides of the scanner tried
    assert joints  # and the whole-hand scanner's
