"""Text to records: find each file's format from its content, split it into hands and
parse every hand with its site's module (`handlog.parse.sites`).

Every function here returns values, never raises for bad input: a hand that cannot be read
comes back as a `ParseError`, a hand of another game as `Skipped`."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from dataclasses import replace

from handlog.errors import ParseError
from handlog.model import Hand
from handlog.parse.reader import (
    ByteRange,
    Chunk,
    LineMark,
    _header_starts,
    open_text,
    plain_newlines,
    range_codec,
    range_encoding,
    read_small,
    split_hands,
    split_range,
    split_text,
    text_of,
    text_stream,
)
from handlog.parse.site import Parsed, SiteFormat
from handlog.parse.sites import DETECT_LINES, detect, formats, header_format, recognised

__all__ = [
    "Parsed",
    "SiteFormat",
    "cut_at_other_headers",
    "detect_file",
    "file_context",
    "parse_chunk",
    "parse_chunks",
    "parse_file",
    "parse_text",
    "read_whole",
]

HEAD_CHARACTERS = 1 << 16
"""How much of a file's text is read to find its format."""
MAX_HEAD_CHARACTERS = 1 << 23
"""How far a file's text is read, at most, for the text before its first hand (a format's
file context): to its first hand, which a long preface (a line of 100,000 spaces, say) can
push past `HEAD_CHARACTERS`."""


def detect_file(path: str | os.PathLike[str], text: str | None = None) -> SiteFormat | None:
    """The format of a file, from its first lines (never its name); None when no format
    handlog reads starts a hand there. OSError when the file cannot be read. `text`: the
    file's text, when it has been read already (`read_whole`)."""
    if text is not None:
        return detect(_text_line_starts(text))
    with open_text(path) as stream:
        return detect(_line_starts(stream))


def read_whole(path: str | os.PathLike[str], limit: int) -> tuple[bytes, str] | None:
    """A file's bytes, read in one go (`reader.read_small`), and its text as `open_text`
    reads it (the same decoding, newlines made "\\n"), for a small file that is then
    detected, hashed and parsed without opening or decoding it again (an archive entry:
    without decompressing it again); None when the file holds more than `limit` bytes (read
    it as a stream). OSError when it cannot be read."""
    raw = read_small(str(path), limit)
    if raw is None:
        return None
    return raw, text_of(raw)


LINE_START_CHARACTERS = 4096
"""How much of each line detection looks at (hand headers are short; a line of megabytes of
garbage before the first hand is read through, never held whole)."""


def _line_starts(text: io.TextIOBase) -> Iterator[str]:
    """The start of each line of a text stream, without holding any line whole."""
    at_start = True
    while True:
        piece = text.readline(LINE_START_CHARACTERS)
        if not piece:
            return
        if at_start:
            yield piece
        at_start = piece.endswith("\n")


def _text_line_starts(text: str) -> Iterator[str]:
    """`_line_starts` of a text read already, taken from it with no stream: each line's
    first `LINE_START_CHARACTERS` characters, with its newline when they hold it."""
    at = 0
    size = len(text)
    while at < size:
        end = text.find("\n", at, at + LINE_START_CHARACTERS)
        if end >= 0:
            yield text[at : end + 1]
            at = end + 1
            continue
        yield text[at : at + LINE_START_CHARACTERS]
        end = text.find("\n", at + LINE_START_CHARACTERS)
        if end < 0:
            return
        at = end + 1


def parse_chunk(chunk: Chunk, site: SiteFormat, context: object = None) -> Parsed:
    """One hand's text to its record (an error or a skipped hand names the site); `context`
    is the file's, for a format that reads one (`SiteFormat.file_context`)."""
    if not chunk.is_hand:
        return replace(_not_a_hand(chunk, site.name), site=site.site.value)
    if site.file_context is not None:
        parsed = site.parse_hand(chunk, context)  # type: ignore[call-arg]
    else:
        parsed = site.parse_hand(chunk)
    if type(parsed) is not Hand and parsed.site is None:  # type: ignore[union-attr]
        return replace(parsed, site=site.site.value)  # type: ignore[type-var]
    return parsed


def parse_chunks(chunk: Chunk, site: SiteFormat, context: object = None) -> list[Parsed]:
    """`parse_chunk`, and where the chunk cannot be read because hands of other formats run
    on inside it (files of two sites, or PartyPoker's cash and tournament forms, joined into
    one: the file is split at its own format's headers only), each of those hands read by
    its own format. Only a chunk that fails is looked into, so this costs nothing on the
    hands that read."""
    parsed = parse_chunk(chunk, site, context)
    if type(parsed) is not ParseError or not chunk.is_hand or site.file_context is not None:
        return [parsed]
    pieces = cut_at_other_headers(chunk, site)
    if len(pieces) == 1:
        return [parsed]
    return [parse_chunk(piece, form) for piece, form in pieces]


def cut_at_other_headers(chunk: Chunk, site: SiteFormat) -> list[tuple[Chunk, SiteFormat]]:
    """The hand `chunk` (of `site`'s format) cut at every line that starts a hand of another
    text format, each piece with the format its first line names. A header line among the
    first lines of a hand, before any line of its own (PartyPoker's "Game #N starts." is
    followed by "#Game No : N"), belongs to that hand. The evidence of a flagged hand is cut
    out of its file the same way (`handlog.evidence`)."""
    lines = chunk.text.split("\n")
    cuts: list[tuple[int, SiteFormat]] = [(0, site)]
    body = False  # whether the current piece has a line other than headers and blanks
    for index in range(1, len(lines)):
        line = lines[index].lstrip("\ufeff").rstrip()
        if not line:
            continue
        other = header_format(line, _text_formats())
        if other is None:
            body = True
        elif body:
            cuts.append((index, other))
            body = False
    pieces = []
    for number, (start, form) in enumerate(cuts):
        end = cuts[number + 1][0] if number + 1 < len(cuts) else len(lines)
        text = "\n".join(lines[start:end]).rstrip().lstrip("\ufeff")
        pieces.append((Chunk(chunk.file, chunk.line + start, text), form))
    return pieces


def _text_formats() -> Iterator[SiteFormat]:
    return (candidate for candidate in formats() if candidate.file_context is None)


def parse_file(
    path: str | os.PathLike[str],
    start_line: int = 1,
    site: SiteFormat | None = None,
    seen: list[Chunk] | None = None,
    text: str | None = None,
) -> Iterator[Parsed]:
    """Every hand in the file, in order, from the hand at `start_line` on (earlier text is
    split but not parsed); its format is detected from its content unless `site` is given.
    A file that cannot be read, or holds no hand of a format handlog reads, yields one
    ParseError. `seen`, when given, receives every chunk parsed, as it is (the texts an
    import keeps come from this one read: `handlog.ingest`). `text`: the file's whole text,
    when it has been read already (`read_whole`): the file is not opened again."""
    file = str(path)
    try:
        if site is None:
            site = detect_file(path, text)
            if site is None:
                yield _unknown_format(file)
                return
        context = file_context(path, site, text)
        if isinstance(context, ParseError):
            yield replace(context, site=site.site.value)
            return
        if text is None:
            chunks = split_hands(path, site.is_header, site.header_prefix)
        else:
            chunks = split_text([text], file, site.is_header, site.header_prefix)
        yield from _parse_all(
            _kept(
                (
                    chunk
                    for chunk in chunks
                    if chunk.line >= start_line and (chunk.is_hand or site.file_context is None)
                ),
                seen,
            ),
            site,
            context,
        )
    except OSError as error:  # only reading is guarded: a bug in parsing must surface
        yield ParseError(file, 0, f"cannot read the file: {error.strerror or error}")


def parse_range(
    path: str | os.PathLike[str],
    part: ByteRange,
    site: SiteFormat,
    seen: list[Chunk] | None = None,
) -> Iterator[Parsed]:
    """The hands in one range of whole hands of a file (see `reader.hand_ranges`); `seen`
    as in `parse_file`."""
    context = None
    if site.file_context is not None:
        try:
            context = file_context(path, site, part=part)
        except OSError as error:
            context = ParseError(str(path), 0, f"cannot read the file: {error.strerror or error}")
        if isinstance(context, ParseError):
            if part.start == 0:  # the file's one error, from its first range
                yield replace(context, site=site.site.value)
            return
    chunks = split_range(path, part, site.is_header, site.header_prefix)
    yield from _parse_all(
        _kept((chunk for chunk in chunks if chunk.is_hand or site.file_context is None), seen),
        site,
        context,
    )


def _kept(chunks: Iterator[Chunk], seen: list[Chunk] | None) -> Iterator[Chunk]:
    """`chunks`, each added to `seen` (when given) as it passes."""
    if seen is None:
        return chunks
    return _keeping(chunks, seen)


def _keeping(chunks: Iterator[Chunk], seen: list[Chunk]) -> Iterator[Chunk]:
    for chunk in chunks:
        seen.append(chunk)
        yield chunk


def _parse_all(chunks: Iterator[Chunk], site: SiteFormat, context: object) -> Iterator[Parsed]:
    """Each chunk's hands (see `parse_chunks`), settled by the format when its hands learn
    from each other (`SiteFormat.settle`). Where a format's context begins again after a
    hand (`SiteFormat.context_marker`: two exports joined in one file), the hands from there
    on are read, and settled, with the context read from there; a context that cannot be
    read is one error, and its hands are not read (as a file's whose head cannot be). A
    chunk that holds several hands is read as its pieces (`hand_pieces`)."""
    if _hand_mark(site) is not None:
        chunks = (piece for chunk in chunks for piece in hand_pieces(chunk, site))
    if site.context_marker is None:
        yield from _parse_stretch(chunks, site, context)
        return
    for stretch, found in _stretches(chunks, site, context):
        if isinstance(found, ParseError):
            yield replace(found, site=site.site.value)
            for _ in stretch:  # its hands are not read: the error names their header
                pass
        else:
            yield from _parse_stretch(stretch, site, found)


def _stretches(
    chunks: Iterator[Chunk], site: SiteFormat, context: object
) -> Iterator[tuple[Iterator[Chunk], object]]:
    """The chunks in stretches of one context each, with it (`_parse_all`): a stretch ends
    after the hand whose text a context marker follows (the next context is read from the
    last marker to the end of the chunk), or before a hand whose text holds one before the
    hand itself (its context begins there: `_markers`). Each stretch is to be read through
    before the next is asked for."""
    marker = site.context_marker
    assert marker is not None and site.file_context is not None
    chunks = iter(chunks)
    held: list[Chunk] = []  # a hand whose context begins in its text: the next stretch's
    while True:
        ending: list[tuple[Chunk, int]] = []  # where the next context begins
        yield _stretch(chunks, held, ending, marker, _hand_mark(site)), context
        if not ending:
            return
        chunk, at = ending[0]
        line = chunk.line + chunk.text.count("\n", 0, at)
        context = _context_from(site, chunk.text[at:], line, chunk.file)


def _stretch(
    chunks: Iterator[Chunk],
    held: list[Chunk],
    ending: list[tuple[Chunk, int]],
    marker: str,
    hand_mark: str | None,
) -> Iterator[Chunk]:
    """The next stretch of `_stretches`: from the hand `held` (if any) on, the chunks up to
    where a context marker stands, which goes into `ending` (with the hand, when it stands
    before the hand itself: into `held` too, for the next stretch)."""
    while True:
        resumed = bool(held)
        chunk = held.pop() if held else next(chunks, None)
        if chunk is None:
            return
        first, later = _markers(chunk.text, marker, hand_mark)
        if first >= 0 and not resumed:  # its own context begins before its hand
            held.append(chunk)
            ending.append((chunk, first))
            return
        yield chunk
        if later >= 0:  # a context begins after its hand: the next hands'
            ending.append((chunk, later))
            return


def _markers(text: str, marker: str, hand_mark: str | None) -> tuple[int, int]:
    """Where in a hand's `text` the last context marker before the hand stands (its context
    begins there), and the last one after the hand's start (the next hands'); -1 for none.
    The hand starts at its `hand_mark` (`_hand_mark`), else with its text's second line."""
    start = text.find(hand_mark) if hand_mark is not None else -1
    if start < 0:
        start = text.find("\n")
        if start < 0:
            start = len(text)
    return text.rfind(marker, 0, start), text.rfind(marker, start)


def _hand_mark(site: SiteFormat) -> str | None:
    """What a hand of `site` starts with, anywhere on its line (the XML formats' `LineMark`);
    None for a format whose hands start a line."""
    header = site.is_header
    return header.mark if type(header) is LineMark else None


def hand_pieces(chunk: Chunk, site: SiteFormat) -> list[Chunk]:
    """`chunk` cut into one chunk a hand: where a format's hands start anywhere on their line
    (`_hand_mark`) and the chunk's first line holds several (a file written on one line:
    the reader cuts at lines, and only a first line can hold a mark), at each later one,
    each piece with the line it starts on; else the chunk itself."""
    mark = _hand_mark(site)
    if mark is None or not chunk.is_hand:
        return [chunk]
    text = chunk.text
    line_end = text.find("\n")
    if line_end < 0:
        line_end = len(text)
    first = text.find(mark, 0, line_end)
    later = text.find(mark, first + len(mark), line_end) if first >= 0 else -1
    if later < 0:
        return [chunk]  # the usual case: a hand a line
    cuts = [0]
    while later >= 0:
        cuts.append(later)
        later = text.find(mark, later + len(mark), line_end)
    cuts.append(len(text))
    return [
        Chunk(chunk.file, chunk.line, text[start:end].strip())
        for start, end in zip(cuts, cuts[1:], strict=False)
    ]


def _parse_stretch(chunks: Iterator[Chunk], site: SiteFormat, context: object) -> Iterator[Parsed]:
    """`_parse_all` of chunks of one context."""
    if site.settle is None:
        for chunk in chunks:
            yield from parse_chunks(chunk, site, context)
        return
    pairs = ((chunk, parse_chunk(chunk, site, context)) for chunk in chunks)
    yield from site.settle(pairs, context)


def parse_text(text: str, file: str = "<text>") -> list[Parsed]:
    """Every hand in `text`, its format detected from it (for tests and round trips)."""
    normalized = plain_newlines(text)
    site = detect(normalized.split("\n"))
    if site is None:
        chunk = next(split_text([normalized], file, lambda line: False, "\0"), None)
        return [] if chunk is None else [_not_a_hand(chunk, None)]
    context = None
    if site.file_context is not None:
        context = site.file_context(_head(io.StringIO(normalized), site), file)
        if isinstance(context, ParseError):
            return [replace(context, site=site.site.value)]
    chunks = split_text([normalized], file, site.is_header, site.header_prefix)
    return list(
        _parse_all(
            (chunk for chunk in chunks if chunk.is_hand or site.file_context is None),
            site,
            context,
        )
    )


def file_context(
    path: str | os.PathLike[str],
    site: SiteFormat,
    text: str | None = None,
    part: ByteRange | None = None,
) -> object:
    """The file's context for a format that reads one (`SiteFormat.file_context`), else None;
    `text`: the file's text, when it has been read already. `part`: a range whose hands are
    read with a context that is not the file's first (`ByteRange.context`): that one."""
    if site.file_context is None:
        return None
    if part is not None and part.context:  # its lines numbered as the file's
        return _context_from(site, head_at(path, site, part.context), part.context_line, str(path))
    with text_stream(path, text) as stream:
        head = _head(stream, site)
    return site.file_context(plain_newlines(head), str(path))


def _context_from(site: SiteFormat, text: str, line: int, file: str) -> object:
    """`SiteFormat.file_context` of `text`, which stands at `line` of `file`: the lines before
    it kept as blank lines, so that the context's lines, in its errors, are the file's."""
    assert site.file_context is not None
    return site.file_context("\n" * (line - 1) + text, file)


def head_at(path: str | os.PathLike[str], site: SiteFormat, at: int) -> str:
    """The text of a file from byte `at` (where a context marker stands: `ByteRange.context`)
    to the line of the next hand of `site`, newlines made "\n"."""
    with open(path, "rb") as handle:
        codec = range_codec(range_encoding(handle.read(4)))
        handle.seek(at)
        with io.TextIOWrapper(handle, encoding=codec, errors="handlog-cp1252") as stream:
            head = _head(stream, site)
    return plain_newlines(head)


def context_heads(chunks: list[Chunk], site: SiteFormat, head: str) -> list[str]:
    """For a format whose context can begin again after a hand (`SiteFormat.context_marker`),
    the head each of `chunks` (a file's or range's hands, in order, the first read with
    `head`) is read with, as `_parse_all` reads them: where a marker stands before a hand
    (`_markers`), the text from it; after a hand, the text from it for the hands after."""
    marker = site.context_marker
    if marker is None:
        return [head] * len(chunks)
    heads = []
    hand_mark = _hand_mark(site)
    for chunk in chunks:
        first, later = _markers(chunk.text, marker, hand_mark)
        if first >= 0:
            head = chunk.text[first:]
        heads.append(head)
        if later >= 0:
            head = chunk.text[later:]
    return heads


def _head(text: io.TextIOBase, site: SiteFormat) -> str:
    """The start of a text, up to a line where a hand of `site` starts (read in pieces of
    `HEAD_CHARACTERS`, at most `MAX_HEAD_CHARACTERS`)."""
    head = text.read(HEAD_CHARACTERS)
    looked = 0  # the lines before here hold no hand header
    while len(head) < MAX_HEAD_CHARACTERS and not _holds_header(head, looked, site):
        more = text.read(HEAD_CHARACTERS)
        if not more:
            break
        looked = head.rfind("\n") + 1
        head += more
    return head


def _holds_header(text: str, start: int, site: SiteFormat) -> bool:
    """Whether a line of `text` from `start` (where a line starts) on starts a hand of `site`
    (it starts with the format's prefix and `is_header` takes it), found as the reader finds
    headers (`str.find`), not by splitting the text into lines: the head of a small file is
    the whole file (measured, a ten-hand Merge file of 50 kB: its lines split for the one
    header on its second line cost some 30 us)."""
    mark = _hand_mark(site)
    if mark is not None and not site.header_prefix:  # the XML formats
        return text.find(mark, start) >= 0  # its mark is within a line
    headers = _header_starts(text[start:] + "\n", site.is_header, site.header_prefix)
    return next(headers, None) is not None


def _unknown_format(file: str) -> ParseError:
    """The one error for a file in which no format handlog reads starts a hand."""
    with open_text(file) as text:
        head = text.read(HEAD_CHARACTERS)
    chunk = next(split_text([head], file, lambda line: False, "\0"), None)
    if chunk is None:
        return ParseError(file, 1, "the file is empty: no hand in it")
    return _not_a_hand(chunk, None)


def _not_a_hand(chunk: Chunk, site_name: str | None) -> ParseError:
    first = chunk.text.split("\n", 1)[0]
    other = recognised(first)
    if "\x00" in first or sum(not c.isprintable() for c in first) > len(first) // 4:
        message = "this is not text: binary data where a hand history was expected"
    elif site_name is None and other is not None:
        message = f"this looks like a {other} hand history, a format handlog does not read yet"
    elif site_name is None:
        readable = ", ".join(candidate.name for candidate in formats())
        message = (
            "no hand history of a site handlog reads starts here (no hand header in the first "
            f"{DETECT_LINES:,} lines); handlog reads {readable}"
        )
    else:
        count = chunk.text.count("\n") + 1
        message = (
            f"{count} {'line' if count == 1 else 'lines'} of text that belong to no "
            f"{site_name} hand (no hand header above them)"
        )
    return ParseError(
        chunk.file, chunk.line, message, text=first[:200], hand_line=chunk.line, raw=chunk.text
    )
