"""A small new file is read once by an import: hashed, detected and parsed from one read."""

from __future__ import annotations

import builtins
import hashlib
import os
import zipfile
from pathlib import Path

import pytest

from handlog import ingest
from handlog.parse import detect_file, parse_file, read_whole
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
    one (an archive's entries included)."""
    seen: list[str] = []
    real_open, real_os_open, real_entry = builtins.open, os.open, zipfile.ZipFile.open

    def counted(path, *rest, **named):  # type: ignore[no-untyped-def]
        if str(getattr(path, "filename", path)).endswith(name):
            seen.append(str(path))
        return path

    monkeypatch.setattr(builtins, "open", lambda p, *r, **n: real_open(counted(p), *r, **n))
    monkeypatch.setattr(os, "open", lambda p, *r, **n: real_os_open(counted(p), *r, **n))
    monkeypatch.setattr(
        zipfile.ZipFile, "open", lambda s, p, *r, **n: real_entry(s, counted(p), *r, **n)
    )
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
