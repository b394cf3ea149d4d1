"""Text to records: find each file's site, split it into hands and parse every hand.

Every function here returns values, never raises for bad input: a hand that cannot be read
comes back as a `ParseError`, a hand of another game as `Skipped`."""

from __future__ import annotations

import os
from collections.abc import Iterator

from handlog.errors import ParseError, Skipped
from handlog.model import Hand
from handlog.parse import pokerstars
from handlog.parse.reader import ByteRange, Chunk, split_hands, split_range, split_text

Parsed = Hand | ParseError | Skipped

# Header beginnings of exports handlog recognises but cannot read yet, for a clear message.
OTHER_SITES = {
    "Full Tilt Poker": "Full Tilt Poker",
    "FullTiltPoker": "Full Tilt Poker",
    "Hand #": "Winning Poker / ACR",
    "Game started at": "Winning Poker",
    "Everleaf Gaming": "Everleaf",
    "Stage #": "Absolute Poker",
    "Bovada Hand": "Bovada",
    "Bodog Hand": "Bodog",
    "Winamax Poker": "Winamax",
    "***** History for hand": "OnGame",
    "#Game No": "PartyPoker",
    "Game #": "PartyPoker",
    "<session": "iPoker",
    "<?xml": "an XML export (iPoker or Merge)",
    "<description": "Merge / Carbon",
}


def parse_chunk(chunk: Chunk) -> Parsed:
    """One hand's text to its record."""
    if not chunk.is_hand:
        return _not_a_hand(chunk)
    return pokerstars.parse_hand(chunk)


def parse_file(path: str | os.PathLike[str], start_line: int = 1) -> Iterator[Parsed]:
    """Every hand in the file, in order, from the hand at `start_line` on (earlier text is
    split but not parsed). A file that cannot be read yields one ParseError."""
    file = str(path)
    chunks = split_hands(path, pokerstars.is_header, pokerstars.HEADER_PREFIX)
    while True:
        try:
            chunk = next(chunks)
        except StopIteration:
            return
        except OSError as error:  # only reading is guarded: a bug in parsing must surface
            yield ParseError(file, 0, f"cannot read the file: {error.strerror or error}")
            return
        if chunk.line >= start_line:
            yield parse_chunk(chunk)


def parse_range(path: str | os.PathLike[str], part: ByteRange) -> Iterator[Parsed]:
    """The hands in one range of whole hands of a file (see `reader.hand_ranges`)."""
    for chunk in split_range(path, part, pokerstars.is_header, pokerstars.HEADER_PREFIX):
        yield parse_chunk(chunk)


def parse_text(text: str, file: str = "<text>") -> list[Parsed]:
    """Every hand in `text` (for tests and the printer's round trip)."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    chunks = split_text([normalized], file, pokerstars.is_header, pokerstars.HEADER_PREFIX)
    return [parse_chunk(chunk) for chunk in chunks]


def _not_a_hand(chunk: Chunk) -> ParseError:
    first = chunk.text.split("\n", 1)[0]
    site = next(
        (name for prefix, name in OTHER_SITES.items() if first.lstrip().startswith(prefix)), None
    )
    if "\x00" in first or sum(not c.isprintable() for c in first) > len(first) // 4:
        message = "this is not text: binary data where a hand history was expected"
    elif site is not None:
        message = f"this looks like a {site} hand history; handlog reads PokerStars hand histories only so far"
    else:
        count = chunk.text.count("\n") + 1
        message = (
            f"{count} {'line' if count == 1 else 'lines'} of text that belong to no "
            "PokerStars hand (no hand header above them)"
        )
    return ParseError(
        chunk.file, chunk.line, message, text=first[:200], hand_line=chunk.line, raw=chunk.text
    )
