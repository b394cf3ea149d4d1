"""A small new file is read once by an import: hashed, detected and parsed from one read."""

from __future__ import annotations

import builtins
import hashlib
import os
import zipfile
from pathlib import Path

import pytest

from handlog import ingest
from handlog.parse import detect_file, parse_file, read_whole, reader
from handlog.parse.reader import ZIP_ENTRY
from handlog.texts import file_head

from .conftest import ROOT

CORPUS = ROOT.parent / "shared" / "corpus"
_FILES = sorted(
    path
    for folder in (CORPUS, ROOT / "sample_logs", ROOT / "tests" / "sites")
    if folder.is_dir()
    for path in folder.rglob("*")
    if path.is_file() and path.suffix.lower() in (".txt", ".xml", ".phh")
)


def _hand_rows(items):  # type: ignore[no-untyped-def]
    return [repr(item) for item in items]


@pytest.mark.skipif(not _FILES, reason="no hand histories found")
def test_a_file_read_whole_reads_as_the_file_streamed():
    """Every corpus, sample and fixture file (UTF-16, BOMs, CR LF, cp1252 bytes, XML heads):
    detected, parsed and its head read from the text `read_whole` gives, exactly as from the
    file itself."""
    compared = 0
    for path in _FILES:
        whole = read_whole(path, 64 << 20)
        assert whole is not None
        raw, text = whole
        assert raw == path.read_bytes()
        site = detect_file(path)
        assert detect_file(path, text) is site, path
        assert _hand_rows(parse_file(path, text=text)) == _hand_rows(parse_file(path)), path
        if site is not None:
            assert file_head(str(path), site, text) == file_head(str(path), site), path
        compared += 1
    assert compared >= 50


def test_a_file_bigger_than_the_limit_is_not_read_whole(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"x" * 100)
    assert read_whole(path, 99) is None
    assert read_whole(path, 100) == (b"x" * 100, "x" * 100)


def _opens(monkeypatch, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Every opening of a file whose path ends with `name`, by any of the ways Python opens
    one (an archive's entries included: through `zipfile`, or read at once by the reader)."""
    seen: list[str] = []
    real_open, real_os_open, real_entry = builtins.open, os.open, zipfile.ZipFile.open
    real_inflated = reader._inflated

    def counted(path, *rest, **named):  # type: ignore[no-untyped-def]
        if str(getattr(path, "filename", path)).endswith(name):
            seen.append(str(path))
        return path

    monkeypatch.setattr(builtins, "open", lambda p, *r, **n: real_open(counted(p), *r, **n))
    monkeypatch.setattr(os, "open", lambda p, *r, **n: real_os_open(counted(p), *r, **n))
    monkeypatch.setattr(
        zipfile.ZipFile, "open", lambda s, p, *r, **n: real_entry(s, counted(p), *r, **n)
    )
    monkeypatch.setattr(reader, "_inflated", lambda a, info: real_inflated(a, counted(info)))
    return seen


@pytest.mark.parametrize("archived", [False, True])
def test_a_small_file_is_opened_once_and_its_digest_is_of_what_was_read(
    tmp_path, monkeypatch, archived
):
    sample = ROOT / "sample_logs" / "7-Stud-USD-0.04-0.08-200911.txt"
    data = sample.read_bytes()
    if archived:
        archive = tmp_path / "logs.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as opened:
            opened.writestr("day/one.txt", data)
        path = f"{archive}{ZIP_ENTRY}day/one.txt"
    else:
        path = str(tmp_path / "one.txt")
        Path(path).write_bytes(data)
    ingest.read_part(path, None, 1, None)  # settle every lazy import and cache first
    seen = _opens(monkeypatch, "one.txt")
    result = ingest.read_part(path, None, 1, None, hashed=True)
    assert result.error is None and result.counts["hands"] > 0
    assert len(seen) == 1, seen
    assert result.digest == (len(data), hashlib.sha256(data).hexdigest())
    # Without `hashed` (a part the importing process hashed itself) nothing is hashed.
    assert ingest.read_part(path, None, 1, None).digest is None


def test_a_small_file_grown_past_a_whole_read_is_hashed_as_it_streams(tmp_path, monkeypatch):
    sample = ROOT / "sample_logs" / "7-Stud-USD-0.04-0.08-200911.txt"
    data = sample.read_bytes()
    path = tmp_path / "one.txt"
    path.write_bytes(data)
    monkeypatch.setattr(ingest, "WHOLE_READ_BYTES", len(data) - 1)
    streamed = ingest.read_part(str(path), None, 1, None, hashed=True)
    monkeypatch.setattr(ingest, "WHOLE_READ_BYTES", len(data))
    whole = ingest.read_part(str(path), None, 1, None, hashed=True)
    assert streamed.digest == whole.digest == (len(data), hashlib.sha256(data).hexdigest())
    assert streamed.counts == whole.counts
    assert streamed.tables["hands"].to_pylist() == whole.tables["hands"].to_pylist()


def test_a_file_of_many_read_pieces_is_read_whole_to_the_byte(tmp_path):
    """`read_whole` reads in growing pieces (64 KiB, then 256 KiB...), not the limit at once:
    a file longer than one piece comes back whole, and one byte past the limit is seen."""
    path = tmp_path / "big.txt"
    data = bytes(range(97, 123)) * 20_000  # 520,000 bytes: three pieces
    path.write_bytes(data)
    assert read_whole(path, len(data)) == (data, data.decode())
    assert read_whole(path, len(data) - 1) is None
    assert read_whole(path, 1 << 16) is None


def _stream_read(path: str) -> bytes | str:
    """A file's or archive entry's bytes as `open_binary` streams them (as the reader read
    every small file before `read_small`), or the error it meets."""
    try:
        with reader.open_binary(path) as handle:
            return handle.read()
    except OSError as error:
        return f"cannot read: {error.strerror or error}"


def _small_read(path: str) -> bytes | str | None:
    try:
        return reader.read_small(path, 1 << 20)
    except OSError as error:
        return f"cannot read: {error.strerror or error}"


def _zip_by_hand(
    target: Path,
    name: str,
    data: bytes,
    *,
    method: int = 8,
    flags: int = 0,
    crc: int | None = None,
    local_extra: bytes = b"",
    local_name: bytes | None = None,
    signature: bytes = b"PK\x03\x04",
    cut: int = 0,
    size: int | None = None,
) -> None:
    """A one-entry zip archive written byte by byte, to damage it in ways `zipfile` will not
    write: its CRC-32 in the directory, its local header's name, signature or extra field,
    the flags, the method, its stored bytes cut short by `cut`, the `size` it says it has."""
    import struct
    import zlib

    if method == 8:
        packer = zlib.compressobj(6, zlib.DEFLATED, -15)
        stored = packer.compress(data) + packer.flush()
    else:
        stored = data
    stored = stored[: len(stored) - cut]
    encoded = name.encode("utf-8")
    crc = zlib.crc32(data) if crc is None else crc
    # Flags, method, time, date, CRC-32 and sizes: the same in the local header and the
    # directory (the version fields before them and the lengths after differ).
    common = (flags, method, 0, 0x21, crc, len(stored), len(data) if size is None else size)
    local_name = encoded if local_name is None else local_name
    local = struct.pack(
        "<4s2B4HL2L2H", signature, 20, 0, *common, len(local_name), len(local_extra)
    )
    local += local_name + local_extra + stored
    mode = 0o100644 << 16  # a regular file, made on Unix
    central = struct.pack(
        "<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 3, 20, 0, *common, len(encoded), 0, 0, 0, 0, mode, 0
    )
    central += encoded
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(local), 0)
    target.write_bytes(local + central + end)


_DAMAGE = {
    "deflated": {},
    "stored": {"method": 0},
    "utf-8 name": {"flags": 0x800, "name": "day/été.txt"},
    "long local extra field": {
        "local_extra": b"\xfe\xca" + (300).to_bytes(2, "little") + bytes(300)
    },
    "bad CRC-32": {"crc": 12345},
    "bad local signature": {"signature": b"PK\x07\x08"},
    "other local name": {"local_name": b"two.txt"},
    "encrypted": {"flags": 0x1},
    "patched data": {"flags": 0x20},
    "unsupported method": {"method": 99},
    "cut short": {"cut": 40},
    "stored cut short": {"method": 0, "cut": 40},
    "more than it says": {"size": 100},
    "says it is empty": {"size": 0, "crc": 0},
}


@pytest.mark.parametrize("case", sorted(_DAMAGE))
def test_an_archive_entry_read_at_once_is_what_zipfile_reads_or_fails_as_it_fails(tmp_path, case):
    """`read_small` reads a zip entry with one `pread` and inflates it itself: the same bytes
    as `zipfile` streams, and for an entry it cannot take as it is (encrypted, another
    method, a header that disagrees with the directory, a bad CRC-32, data cut short) the
    same error line as ever."""
    sample = (ROOT / "sample_logs" / "7-Stud-USD-0.04-0.08-200911.txt").read_bytes()
    archive = tmp_path / "logs.zip"
    options = dict(_DAMAGE[case])
    name = str(options.pop("name", "day/one.txt"))
    _zip_by_hand(archive, name, sample, **options)  # type: ignore[arg-type]
    path = f"{archive}{ZIP_ENTRY}{name}"
    expected = _stream_read(path)
    assert _small_read(path) == expected
    sound = case in ("deflated", "stored", "utf-8 name", "long local extra field")
    if sound:
        assert expected == sample
    elif case == "says it is empty":
        assert expected == b""  # zipfile reads what it says, nothing, and its CRC-32 is 0
    else:
        assert isinstance(expected, str), case
    opened = reader._archive(str(archive))
    # Read at once when sound; else left to zipfile (which gives the error above).
    assert (reader._inflated(opened, opened.entries[name]) == sample) is sound


def test_an_archive_entry_past_the_limit_is_not_read(tmp_path):
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as opened:
        opened.writestr("a.txt", b"x" * 100)
    path = f"{archive}{ZIP_ENTRY}a.txt"
    assert reader.read_small(path, 99) is None
    assert reader.read_small(path, 100) == b"x" * 100


def test_a_file_read_at_once_is_read_to_its_end_whatever_its_size_said(tmp_path, monkeypatch):
    """`read_small` reads a file's size, then reads on until a read finds nothing: a file
    that grew after its size was taken is read whole, and one that grew past the limit is
    not read whole."""
    path = tmp_path / "a.txt"
    path.write_bytes(b"y" * 5000)
    real_fstat = os.fstat

    def smaller(descriptor: int) -> os.stat_result:
        found = list(real_fstat(descriptor))
        found[6] = 10  # st_size: the file as it was before it grew
        return os.stat_result(found)

    monkeypatch.setattr(reader.os, "fstat", smaller)
    assert reader.read_small(str(path), 5000) == b"y" * 5000
    assert reader.read_small(str(path), 4999) is None


def test_a_file_that_is_not_a_regular_file_fails_as_it_did(tmp_path):
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    missing = str(tmp_path / "gone.txt")
    paths = [str(folder), missing]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.txt")
        paths.append(str(tmp_path / "pipe.txt"))
    for path in paths:
        assert _small_read(path) == _stream_read(path)
        assert isinstance(_small_read(path), str)


def test_text_of_decodes_as_the_text_stream_does():
    """`text_of` decodes UTF-8 in one call and makes its newlines "\\n" itself: the same text
    as the stream `open_text` reads (its incremental decoder, 8 KiB at a time, the cp1252
    fallback, universal newlines), whatever bytes stand where a piece of the stream ends."""
    import codecs
    import io
    import random

    pieces = [
        b"a", b"\r", b"\n", b"\r\n", b" ", b"\xe2\x82\xac", b"\xe2\x82", b"\x80", b"\xff",
        b"\xed\xa0\x80", b"\xf0\x9f\x98\x80", b"\xf0\x9f", b"\xc3", b"\xa9", codecs.BOM_UTF8,
    ]  # fmt: skip
    rng = random.Random(31)
    compared = 0
    for _ in range(3000):
        raw = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        if rng.random() < 0.3:
            raw = codecs.BOM_UTF8 + raw
        if rng.random() < 0.3:  # across the end of the stream's first piece
            raw = b"x" * (8192 - rng.randint(0, 4)) + raw
        encoding = reader.detect_encoding(raw[:4])
        if encoding.startswith("utf-16"):
            continue
        with reader._decoding(io.BytesIO(raw), encoding) as stream:
            assert reader.text_of(raw) == stream.read(), raw[-40:]
        compared += 1
    assert compared > 2500


def test_a_text_read_already_gives_detection_the_line_starts_its_stream_gives():
    import io
    import random

    from handlog import parse

    width = parse.LINE_START_CHARACTERS
    rng = random.Random(5)
    for _ in range(2000):
        text = "".join(
            "x" * rng.choice([0, 1, 5, width - 2, width - 1, width, width + 1, 2 * width + 1])
            + rng.choice(["\n", "\n\n", "", "y"])
            for _ in range(rng.randint(0, 8))
        )
        got = list(parse._text_line_starts(text))
        assert got == list(parse._line_starts(io.StringIO(text))), text[:50]


def test_a_text_read_already_streams_as_a_string_stream_does():
    """`text_stream` of a text read already gives slices of it, read and read by line as
    `io.StringIO` gives them (which copied it whole first)."""
    import io
    import random

    rng = random.Random(7)
    for _ in range(500):
        text = "".join(rng.choice(["ab", "\n", "xyz\n", "\n\n", "é", ""]) for _ in range(30))
        ours, theirs = reader.text_stream("unused", text), io.StringIO(text)
        with ours, theirs:
            for _ in range(12):
                call, size = rng.choice(["read", "readline"]), rng.choice([None, -1, 0, 1, 3, 50])
                assert getattr(ours, call)(size) == getattr(theirs, call)(size)


def test_a_head_holds_a_header_where_one_of_its_lines_is_one():
    """`_head` stops reading where a line of what it read starts a hand: found by the
    reader's header search, as testing every line of it finds it."""
    import random

    from handlog import parse
    from handlog.parse.sites import formats

    rng = random.Random(11)
    lines = ["", "x", "  <game id=1>", "PokerStars Game #1: x", "<game id=2>", "Game #5 starts."]
    for path in _FILES:  # the first lines of every corpus, sample and fixture file: headers
        lines += path.read_bytes()[:2000].decode("utf-8", "replace").split("\n")[:4]
    found = 0
    for site in formats():
        for _ in range(300):
            text = "\n".join(rng.choice(lines) for _ in range(rng.randint(0, 6)))
            start = rng.choice([0, text.find("\n") + 1])
            expected = any(
                line.startswith(site.header_prefix) and site.is_header(line)
                for line in text[start:].split("\n")
            )
            assert parse._holds_header(text, start, site) is expected, (site.name, text)
            found += expected
    assert found > 100


def test_a_reader_patched_in_its_module_is_the_one_a_worker_calls(tmp_path, monkeypatch):
    """`_read_into` imports its readers' modules once a process, and takes each function from
    its module at every call (as its imports did): one patched there later is called."""
    import handlog.parse

    path = tmp_path / "one.txt"
    path.write_bytes((ROOT / "sample_logs" / "7-Stud-USD-0.04-0.08-200911.txt").read_bytes())
    first = ingest.read_part(str(path), None, 1, None)  # loads the modules
    called: list[str] = []
    reading = handlog.parse.parse_file

    def counted(*args, **named):  # type: ignore[no-untyped-def]
        called.append(str(args[0]))
        return reading(*args, **named)

    monkeypatch.setattr(handlog.parse, "parse_file", counted)
    again = ingest.read_part(str(path), None, 1, None)
    assert called == [str(path)]
    assert again.counts == first.counts and again.counts["hands"] > 0
