"""Encodings, line ends and hand splitting."""

import codecs
import itertools

import pytest

from handlog.model import Hand
from handlog.parse import parse_file
from handlog.parse.reader import Chunk, detect_encoding, expand_paths, split_hands, split_text
from handlog.parse.sites import pokerstars

from .conftest import SAMPLE_LOGS

STUD = SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt"


def _hand_ids(path):
    return [item.hand_id for item in parse_file(path) if isinstance(item, Hand)]


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("utf-8"),
        lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
        lambda text: text.encode("utf-16"),  # with BOM
        lambda text: text.encode("utf-16-le"),  # no BOM
        lambda text: text.replace("\n", "\r\n").encode("cp1252"),
        lambda text: text.replace("\n", "  \r\n").encode("utf-8"),  # trailing spaces, CRLF
    ],
    ids=["utf8", "utf8-bom", "utf16-bom", "utf16le-no-bom", "cp1252-crlf", "trailing-spaces"],
)
def test_the_same_hands_whatever_the_encoding(tmp_path, encode):
    text = STUD.read_text(encoding="utf-8")
    expected = [h for h in parse_file(STUD) if isinstance(h, Hand)]
    target = tmp_path / "hands.txt"
    target.write_bytes(encode(text))
    got = list(parse_file(target))
    assert got == expected  # records compare equal: same hands, same amounts, same cards


def test_cp1252_euro_sign_is_read_as_euro(tmp_path):
    text = STUD.read_text(encoding="utf-8").replace("$", "€").replace(" USD)", " EUR)")
    target = tmp_path / "eur.txt"
    target.write_bytes(text.encode("cp1252"))
    hands = [h for h in parse_file(target) if isinstance(h, Hand)]
    assert len(hands) == 11 and {h.currency for h in hands} == {"EUR"}
    assert hands[0].small_bet == 4


def test_detect_encoding_by_bom_and_zero_bytes():
    assert detect_encoding(codecs.BOM_UTF8 + b"Pk") == "utf-8-sig"
    assert detect_encoding(codecs.BOM_UTF16_LE + b"P\x00") == "utf-16"
    assert detect_encoding("Po".encode("utf-16-le")) == "utf-16-le"
    assert detect_encoding(b"Poke") == "utf-8"


def test_split_is_the_same_for_any_block_size():
    text = STUD.read_text(encoding="utf-8")
    whole = list(split_text([text], "f", pokerstars.is_header, pokerstars.HEADER_PREFIX))
    for size in (1, 7, 100, 4096):
        pieces = [text[i : i + size] for i in range(0, len(text), size)]
        chunks = list(split_text(pieces, "f", pokerstars.is_header, pokerstars.HEADER_PREFIX))
        assert chunks == whole
        assert [c.last_line for c in chunks] == [c.last_line for c in whole]


def _hand_lines(text: str) -> list[tuple[int, int]]:
    """Each PokerStars hand's first and last line in `text` (newlines only), found line by
    line: from its header to the last line before the next header holding anything but
    white space."""
    spans: list[list[int]] = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip("\ufeff").startswith("PokerStars "):
            spans.append([number, number])
        elif spans and line.strip():
            spans[-1][1] = number
    return [(first, last) for first, last in spans]


def _spaced_hands() -> str:
    """The sample file's hands with blank lines, and lines of white space, around them and a
    BOM in front: what the reader strips from a hand's text."""
    hands = STUD.read_text(encoding="utf-8").strip().split("\n\n\n")
    gaps = ["\n\n", "\n \n\t\n\n", "\n\n\n\n", "  \n\n"]
    return "\ufeff\n\n" + "".join(hand + gaps[n % 4] for n, hand in enumerate(hands)) + "\n \n"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_each_hand_source_spans_its_lines_whatever_the_line_ends(tmp_path, newline):
    """A hand's `Source` runs from its header to its last line that is not blank, in a file
    of any line ends, read whole or cut into ranges as an import cuts it; the reader's own
    count of a chunk's lines (`Chunk.last_line`, which the parsers take for the end) is the
    chunk's text's."""
    from handlog.parse.reader import hand_ranges, split_range

    text = _spaced_hands()
    expected = _hand_lines(text)
    assert len(expected) == 11 and expected[0][0] == 3
    target = tmp_path / "hands.txt"
    target.write_bytes(text.replace("\n", newline).encode("utf-8"))
    hands = [item for item in parse_file(target) if isinstance(item, Hand)]
    assert [(h.source.line, h.source.end_line) for h in hands] == expected
    site = pokerstars.FORMAT
    ranged = [
        chunk
        for part in hand_ranges(target, site.header_bytes, site.header_marker, 2000)
        for chunk in split_range(target, part, pokerstars.is_header, pokerstars.HEADER_PREFIX)
    ]
    assert [(c.line, c.last_line) for c in ranged] == expected
    for chunk in list(split_hands(target, pokerstars.is_header, pokerstars.HEADER_PREFIX)):
        assert chunk.last_line == chunk.line + chunk.text.count("\n")


def test_a_chunk_made_elsewhere_has_its_lines_counted():
    """A chunk not made by the reader (a stored hand's text, a part of a hand) has no count
    of its lines: its hand's `Source` counts them."""
    chunk = next(split_hands(STUD, pokerstars.is_header, pokerstars.HEADER_PREFIX))
    hand = pokerstars.parse_hand(Chunk(chunk.file, 40, chunk.text))
    assert isinstance(hand, Hand)
    assert hand.source.line == 40 and hand.source.end_line == 40 + chunk.text.count("\n")
    assert hand.source.end_line - 40 == chunk.last_line - chunk.line > 20


def test_chunks_start_at_the_header_lines():
    numbers = [
        n
        for n, line in enumerate(STUD.read_text().splitlines(), 1)
        if line.startswith("PokerStars ")
    ]
    chunks = list(split_hands(STUD, pokerstars.is_header, pokerstars.HEADER_PREFIX))
    assert [c.line for c in chunks] == numbers
    assert all(c.is_hand and not c.text.endswith("\n") for c in chunks)


def test_text_before_the_first_header_is_reported_not_dropped(tmp_path):
    target = tmp_path / "cut.txt"
    target.write_text(
        "Seat 3: someone folded on the River\n\n\n" + STUD.read_text(), encoding="utf-8"
    )
    items = list(parse_file(target))
    assert items[0].line == 1 and "belong to no PokerStars hand" in items[0].message
    assert len([i for i in items if isinstance(i, Hand)]) == 11


def test_expand_paths_folders_globs_and_missing(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.txt").write_text("x")
    (tmp_path / "two.txt").write_text("x")
    (tmp_path / "notes.md").write_text("x")
    found, missing = expand_paths([str(tmp_path), str(tmp_path / "*.txt"), str(tmp_path / "nope*")])
    assert sorted(p.rsplit("/", 1)[1] for p in found) == ["one.txt", "two.txt"]  # no repeats
    assert [(p.path, p.missing) for p in missing if not p.note] == [(str(tmp_path / "nope*"), True)]


@pytest.mark.parametrize("block", [64, 1 << 18])
@pytest.mark.parametrize("size", [1, 3_000, 40_000, 10**9])
@pytest.mark.parametrize("from_line", [1, 2, 777, 10**9])
def test_hand_ranges_cut_at_headers_and_hash_each_prefix(
    tmp_path, monkeypatch, block, size, from_line
):
    """Ranges follow each other from the hand at `from_line` to the end of the file; each
    starts at a header (with its line number) and ends at the first header at least the
    wanted size on (shrinking at the end of a big file), the last one alone marked so, and
    the digest has seen exactly the bytes up to its end when it comes out. Small blocks put headers across block ends."""
    import hashlib
    import re

    from handlog.parse import reader

    data = b"junk before the first hand\r\n" + b"\n\n".join(
        path.read_bytes().replace(b"\n", b"\r\n" if number % 2 else b"\n")
        for number, path in enumerate(sorted(SAMPLE_LOGS.glob("*.txt")) * 3)
    )
    log = tmp_path / "log.txt"
    log.write_bytes(data)
    headers = {
        found.start() + 1: data.count(b"\n", 0, found.start() + 1) + 1
        for found in re.finditer(pokerstars.HEADER_BYTES, data)
    }
    assert len(headers) > 80
    monkeypatch.setattr(reader, "BLOCK_SIZE", block // 16 or 1)
    digest = hashlib.sha256()
    ranges = []
    for part in reader.hand_ranges(
        log, pokerstars.HEADER_BYTES, pokerstars.FORMAT.header_marker, size, from_line, digest
    ):
        assert digest.hexdigest() == hashlib.sha256(data[: part.end]).hexdigest()
        ranges.append(part)
    later = [at for at, line in headers.items() if line >= from_line]
    if from_line > 1 and not later:
        assert ranges == []  # the caller streams the file whole
        return
    assert ranges[0].start == (0 if from_line <= 1 else min(later))
    assert ranges[-1].end == len(data)
    assert [part.last for part in ranges] == [False] * (len(ranges) - 1) + [True]
    for part, following in itertools.pairwise(ranges):
        assert part.end == following.start
        assert headers[following.start] == following.first_line
        want = reader._range_size(size, len(data), part.start)
        assert following.start - part.start >= want
        assert not [at for at in headers if part.start + want <= at < following.start]
    assert ranges[0].first_line == (1 if from_line <= 1 else headers[ranges[0].start])
    assert digest.hexdigest() == hashlib.sha256(data).hexdigest()


def test_ranges_of_a_utf8_file_with_a_bom_start_at_their_header_lines(tmp_path):
    """A UTF-8 file with a byte-order mark is cut with its lines counted as in any other
    (its newline is not "\\n" encoded by the "utf-8-sig" codec, which puts a BOM first)."""
    from handlog.parse.reader import hand_ranges

    data = codecs.BOM_UTF8 + STUD.read_bytes()
    target = tmp_path / "bom.txt"
    target.write_bytes(data)
    site = pokerstars.FORMAT
    ranges = list(hand_ranges(target, site.header_bytes, site.header_marker, 2000))
    assert len(ranges) > 3
    assert [part.first_line for part in ranges] == [1] + [
        data.count(b"\n", 0, part.start) + 1 for part in ranges[1:]
    ]


def _utf16(text: str, order: str, mark: bool) -> bytes:
    codec = f"utf-16-{order}"
    bom = codecs.BOM_UTF16_LE if order == "le" else codecs.BOM_UTF16_BE
    return (bom if mark else b"") + text.encode(codec)


@pytest.mark.parametrize(
    ("order", "mark", "newline"), [("le", True, "\r\n"), ("be", True, "\n"), ("le", False, "\n")]
)
def test_utf16_files_are_cut_into_ranges_that_read_as_the_whole_file(
    tmp_path, order, mark, newline
):
    """A UTF-16 file (Full Tilt's and Winning's exports) is cut into ranges of whole hands as
    an 8-bit one is: each range starts at a hand header, its line number right, the digest
    has seen the bytes up to its end, and its hands read exactly as the whole file's do
    (records, lines and all), whatever the byte order and line ends."""
    import hashlib

    from handlog.parse import parse_range
    from handlog.parse.reader import cuttable, hand_ranges

    text = "junk before the first hand\n" + "\n\n".join(
        path.read_text(encoding="utf-8") for path in sorted(SAMPLE_LOGS.glob("*.txt")) * 2
    )
    data = _utf16(text.replace("\n", newline), order, mark)
    log = tmp_path / "log.txt"
    log.write_bytes(data)
    assert cuttable(log)
    site = pokerstars.FORMAT
    digest = hashlib.sha256()
    ranges = []
    for part in hand_ranges(log, site.header_bytes, site.header_marker, 20_000, 1, digest):
        assert digest.hexdigest() == hashlib.sha256(data[: part.end]).hexdigest()
        ranges.append(part)
    assert len(ranges) > 5 and ranges[0].start == 0 and ranges[-1].end == len(data)
    codec = f"utf-16-{order}"
    for part, following in itertools.pairwise(ranges):
        assert part.end == following.start
        assert data[following.start :].decode(codec, errors="ignore").startswith("PokerStars")
        before = data[len(codecs.BOM_UTF16_LE) if mark else 0 : following.start]
        assert following.first_line == before.decode(codec).count("\n") + 1
    whole = list(parse_file(log))
    assert [item for part in ranges for item in parse_range(log, part, site)] == whole
    plain = tmp_path / "plain.txt"
    plain.write_text(text, encoding="utf-8")
    hands = [item for item in whole if isinstance(item, Hand)]
    assert len(hands) > 50 and len(hands) == sum(isinstance(i, Hand) for i in parse_file(plain))


@pytest.mark.parametrize("odd", ["\u0a05", "\u0a0a", "odd length"])
def test_utf16_files_whose_newline_bytes_could_stand_across_two_characters_are_read_whole(
    tmp_path, odd
):
    """In UTF-16 a character U+0A00-U+0AFF (Gurmukhi, Gujarati) holds the byte of a newline,
    which a search of the raw bytes could take for one across two characters, and a file of
    an odd number of bytes has no whole last character: such a file is not cut (read whole,
    as before), and still reads."""
    from handlog.parse.reader import cuttable

    text = STUD.read_text(encoding="utf-8")
    if len(odd) == 1:
        text = text.replace("Seat 1: ", f"Seat 1: {odd}")
    log, plain = tmp_path / "log.txt", tmp_path / "plain.txt"
    log.write_bytes(_utf16(text, "le", True) + (b"\n" if len(odd) > 1 else b""))
    plain.write_text(text, encoding="utf-8")
    assert not cuttable(log)
    read = [type(item) for item in parse_file(log)]
    assert len(read) > 10 and read == [type(item) for item in parse_file(plain)]


def test_winning_2016_hand_headers_are_found_in_the_bytes():
    """Winning's 2016 format is cut into ranges at its hand headers, in the UTF-16 it is
    written in: each header line of its fixtures is one match of the format's
    `header_bytes`, and nothing else is."""
    from handlog.parse.sites import winning2016

    for path in sorted((SAMPLE_LOGS.parent / "tests" / "sites" / "winning").glob("*2016*.txt")):
        text = "\n" + path.read_bytes().decode("utf-16")
        headers = [line for line in text.split("\n") if winning2016.is_header(line.rstrip())]
        found = winning2016.HEADER_BYTES.findall(text.replace("\r\n", "\n").encode("utf-8"))
        assert len(found) == len(headers) > 0, path


def test_real_path_is_realpath_with_each_folder_resolved_once(tmp_path):
    """`real_path` (what `expand_paths` and `file_keys` dedupe and key files by) equals
    `os.path.realpath` for plain files, files that are links, files under a linked folder
    and paths with "..", while resolving each folder once."""
    import os

    from handlog.parse.reader import real_path

    real = tmp_path / "real"
    real.mkdir()
    (real / "a.txt").write_text("x")
    (tmp_path / "linked").symlink_to(real)
    (real / "b.txt").symlink_to(real / "a.txt")
    paths = [
        str(real / "a.txt"),
        str(tmp_path / "linked" / "a.txt"),
        str(tmp_path / "linked" / "b.txt"),
        str(real / ".." / "linked" / "a.txt"),
        str(real / ".."),
    ]
    folders: dict[str, str] = {}
    assert [real_path(path, folders) for path in paths] == [os.path.realpath(p) for p in paths]
    found, _ = expand_paths([str(real / "a.txt"), str(tmp_path / "linked" / "a.txt")])
    assert found == [str(real / "a.txt")]  # one file, met twice


def test_a_folders_files_are_named_as_their_paths_name_them(tmp_path, monkeypatch):
    """A folder's files are named `str(Path(root, name))` (its part of the name made once a
    folder), however the folder was written: relative, with "./", a trailing "/", "."."""
    import os
    from pathlib import Path

    (tmp_path / "logs" / "day").mkdir(parents=True)
    for name in ("logs/a.txt", "logs/day/b.txt"):
        (tmp_path / name).write_text("x\n")
    monkeypatch.chdir(tmp_path / "logs")
    for folder in (".", "./", "./day/", "day", "../logs", str(tmp_path / "logs") + "/"):
        found, _ = expand_paths([folder])
        walked = [
            str(Path(root, name))
            for root, _, files in sorted(os.walk(folder))
            for name in sorted(files)
        ]
        assert found == walked, folder
