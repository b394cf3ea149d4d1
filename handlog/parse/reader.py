"""Reading hand-history files: encoding detection, line clean-up and splitting into hands.

Files are streamed: one hand's lines are held at a time, so memory does not grow with the
size of the file."""

from __future__ import annotations

import codecs
import glob
import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

HAND_FILE_SUFFIXES = (".txt", ".log", ".hh")


@dataclass(frozen=True, slots=True)
class Chunk:
    """The lines of one hand (or of a stretch of text that is not a hand)."""

    file: str
    line: int
    """1-based line number of the first line."""
    lines: list[str]
    """Lines without line endings or trailing white space; trailing blank lines removed."""
    is_hand: bool = True
    """False for text that stands before the first hand header."""


def detect_encoding(head: bytes) -> str:
    """The codec for a file that starts with `head`: a BOM decides; else UTF-16 is recognised
    by its zero bytes, and 8-bit text is read as UTF-8 with a per-line cp1252 fallback."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith(codecs.BOM_UTF16_LE) or head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16"
    if len(head) >= 4 and head[1] == 0 and head[3] == 0 and head[0] != 0:
        return "utf-16-le"
    if len(head) >= 4 and head[0] == 0 and head[2] == 0 and head[1] != 0:
        return "utf-16-be"
    return "utf-8"


def _decode_8bit(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        # Older exports and some sites write cp1252 (e.g. "€" as 0x80) whatever they claim.
        return raw.decode("cp1252", errors="replace")


def iter_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The file's lines as text, decoded, without line ending or trailing white space."""
    with open(path, "rb") as handle:
        head = handle.read(4)
        encoding = detect_encoding(head)
        handle.seek(0)
        if encoding.startswith("utf-16"):
            text = io.TextIOWrapper(handle, encoding=encoding, newline="")
            for line in text:
                yield line.rstrip()
            return
        first = True
        for raw in handle:
            if first:
                first = False
                if raw.startswith(codecs.BOM_UTF8):
                    raw = raw[3:]
            yield _decode_8bit(raw).rstrip()


def split_hands(
    lines: Iterable[str], file: str, is_header: Callable[[str], bool]
) -> Iterator[Chunk]:
    """Group lines into hands: a hand starts at a header line and runs to the next one.
    Non-blank text before the first header comes out as a chunk with `is_hand=False`."""
    current: list[str] = []
    start = 1
    in_hand = False
    number = 0
    for number, line in enumerate(lines, 1):
        if line and line[0] == "\ufeff":  # a BOM repeated where files were concatenated
            line = line[1:]
        if is_header(line):
            if current:
                yield _chunk(file, start, current, in_hand)
            current = [line]
            start = number
            in_hand = True
        elif current or line:
            if not current:
                start = number
            current.append(line)
    if current:
        yield _chunk(file, start, current, in_hand)


def _chunk(file: str, start: int, lines: list[str], is_hand: bool) -> Chunk:
    while lines and not lines[-1]:
        lines.pop()
    return Chunk(file, start, lines, is_hand)


def expand_paths(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """Files named by `paths` (files, folders searched recursively, glob patterns), in a
    stable order without repeats, and the arguments that matched nothing."""
    found: list[str] = []
    missing: list[str] = []
    seen: set[str] = set()

    def add(candidate: str) -> None:
        key = os.path.realpath(candidate)
        if key not in seen:
            seen.add(key)
            found.append(candidate)

    for argument in paths:
        if os.path.isdir(argument):
            for root, dirs, files in os.walk(argument):
                dirs.sort()
                for name in sorted(files):
                    if name.lower().endswith(HAND_FILE_SUFFIXES):
                        add(str(Path(root, name)))
        elif os.path.isfile(argument):
            add(argument)
        else:
            matches = sorted(glob.glob(argument, recursive=True))
            files = [m for m in matches if os.path.isfile(m)]
            if not files:
                missing.append(argument)
            for match in files:
                add(match)
    return found, missing
