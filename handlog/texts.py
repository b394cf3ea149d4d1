"""Every stored hand's text, as it stood in its file: kept at import, read back by `handlog
show`, the report's evidence and the local app.

An import finds each hand's text again in the range of the file it read (`find_texts`:
the file split into hands as the parser split it, which costs little beside parsing) and
stores it (`add_texts`) in blocks of BLOCK_HANDS hands compressed together with zstd
(`text_blocks`): 175-320 bytes a hand where each hand compressed alone took 800 and the
text itself 2,200. `hand_texts` says where each hand's text lies in its block. For formats
whose hands are read with what stands before the first hand (an XML session's header:
stakes, currency), each block begins with that head, so that a hand can be read again from
the store alone (`StoredText.head`).
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

    from handlog.model import Hand
    from handlog.parse.reader import ByteRange, Chunk
    from handlog.parse.site import SiteFormat
    from handlog.store import Batch

BLOCK_HANDS = 64
"""Hands per compressed block. 64 hands compress to 175-320 bytes a hand (real PokerStars
hands replicated, simulated 8-player hands; 16 to 390-350, one alone to 790), and a block
(some 140 KB of text) is still read in a fraction of a millisecond to show one hand."""

ZSTD_LEVEL = 3


def _compressor() -> Any:
    """zstd (`zstandard`, a binding of the reference library: the same frames pyarrow's codec
    wrote, read either way), without pyarrow and NumPy, which a small import need not load."""
    import zstandard

    return zstandard.ZstdCompressor(level=ZSTD_LEVEL)


def decompressor() -> Any:
    """Reads the blocks `add_texts` wrote (`decompress(data, max_output_size=size)`)."""
    import zstandard

    return zstandard.ZstdDecompressor()


def _block_id(raw: bytes) -> int:
    """A block's key: 63 bits of a hash of its text. Blocks are made by workers apart, and
    by the imports of a grown file that read its last hand again, so no counter would stay
    unique; the same text is the same block wherever and however often it is made (an
    import gives the same rows every time)."""
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big") >> 1


def add_texts(batch: Batch, texts: Iterable[tuple[str, str, str]], head: str = "") -> None:
    """Add the texts of hands `texts` ((site, hand id, text), in file order) to `batch`, in
    blocks of BLOCK_HANDS, each block starting with `head` (the file's text before its
    first hand, for a format that reads it; else empty)."""
    codec = _compressor()
    rows = batch.columns["hand_texts"]
    blocks = batch.columns["text_blocks"]
    head_bytes = head.encode("utf-8")
    pending: list[tuple[str, str, bytes]] = []

    def flush() -> None:
        raw = head_bytes + b"".join(text for _, _, text in pending)
        block = _block_id(raw)
        start = len(head_bytes)
        for site, hand_id, text in pending:
            rows["site"].append(site)
            rows["hand_id"].append(hand_id)
            rows["block"].append(block)
            rows["start"].append(start)
            rows["length"].append(len(text))
            start += len(text)
        blocks["block"].append(block)
        blocks["size"].append(len(raw))
        blocks["data"].append(codec.compress(raw))
        blocks["head"].append(len(head_bytes))
        pending.clear()

    for site, hand_id, text in texts:
        pending.append((site, hand_id, text.encode("utf-8")))
        if len(pending) == BLOCK_HANDS:
            flush()
    if pending:
        flush()


def find_texts(path: str, part: ByteRange | None, lines: Iterable[int]) -> dict[int, str]:
    """The text of the hands of `path` (the range `part`, or the whole file) that start at
    `lines`, by start line: the file split into hands again, as the parser split it. (An
    import does not call this: it keeps the chunks it parsed, `texts_in`.)"""
    from handlog.parse import detect_file
    from handlog.parse.reader import split_hands, split_range

    site = detect_file(path)
    if site is None:
        return {}
    if part is None:
        chunks = split_hands(path, site.is_header, site.header_prefix)
    else:
        chunks = split_range(path, part, site.is_header, site.header_prefix)
    return texts_in(chunks, lines, site)


def texts_in(chunks: Iterable[Chunk], lines: Iterable[int], site: SiteFormat) -> dict[int, str]:
    """The text of the hands that start at `lines` among `chunks` (a file's or range's,
    in order, as `site`'s format split it), by start line: a chunk is its hand's text, or,
    where hands of other formats run on inside it, its pieces as the parser cut them."""
    wanted = sorted(set(lines))
    if not wanted:
        return {}
    from handlog.parse.text import hand_source

    found: dict[int, str] = {}
    last = wanted[-1]
    for chunk in chunks:
        if chunk.line > last:
            break
        at = bisect_left(wanted, chunk.line)
        if at == len(wanted):
            continue
        first = wanted[at]
        end = hand_source(chunk).end_line  # the reader's count of its lines, not a new one
        if first > end:
            continue  # no wanted hand starts in this chunk
        if first == chunk.line and (at + 1 == len(wanted) or wanted[at + 1] > end):
            found[first] = chunk.text  # the usual case: the chunk is the hand
            continue
        for piece in _as_parsed(chunk, site):
            found[piece.line] = piece.text
    return {line: found[line] for line in wanted if line in found}


def _as_parsed(chunk: Chunk, site: SiteFormat) -> list[Chunk]:
    """The hands of `chunk` as the parser read them (`handlog.parse.parse_chunks`): the
    chunk itself, or, where it could not be read whole because hands of other formats run
    on inside it, its pieces."""
    from handlog.errors import ParseError
    from handlog.parse import cut_at_other_headers, parse_chunk

    if site.file_context is not None:
        return [chunk]
    pieces = cut_at_other_headers(chunk, site)
    if len(pieces) == 1 or not isinstance(parse_chunk(chunk, site), ParseError):
        return [chunk]
    return [piece for piece, _ in pieces]


def file_head(path: str, site: SiteFormat | None = None, whole: str | None = None) -> str:
    """For a format whose hands are read with the file's text before its first hand (an XML
    session's header), that text; else "". `site`: the file's format, when known; `whole`:
    the file's text, when it has been read already."""
    from handlog.parse import detect_file
    from handlog.parse.reader import split_text, text_stream

    if site is None:
        site = detect_file(path, whole)
    if site is None or site.file_context is None:
        return ""
    with text_stream(path, whole) as text:
        # Read in small pieces: the head is a few lines, and the file may be megabytes.
        pieces = iter(lambda: text.read(HEAD_PIECE), "")
        for chunk in split_text(pieces, path, site.is_header, site.header_prefix):
            return "" if chunk.is_hand else chunk.text
    return ""


HEAD_PIECE = 4096
"""The characters `file_head` reads at a time."""


@dataclass(frozen=True)
class StoredText:
    """A stored hand's text and where it came from."""

    site: str
    hand_id: str
    file: str
    line: int
    text: str
    head: str
    """What stood before the file's first hand, for a format that reads it (else "")."""

    @property
    def end_line(self) -> int:
        return self.line + self.text.count("\n")


def load_texts(
    connection: duckdb.DuckDBPyConnection, keys: list[tuple[str, str]]
) -> dict[tuple[str, str], StoredText]:
    """The stored texts of the hands `keys` (site, hand id) that have one (hands imported
    before schema 7 have none), each block read once."""
    if not keys:
        return {}
    import pyarrow as pa

    wanted = pa.table(
        {"site": [k[0] for k in keys], "hand_id": [k[1] for k in keys]},
        schema=pa.schema([("site", pa.string()), ("hand_id", pa.string())]),
    )
    connection.register("wanted_texts", wanted)
    try:
        rows = connection.execute("""
            SELECT t.site, t.hand_id, h.file, h.line, t.block, t.start, t.length,
                b.size, b.head, b.data
            FROM wanted_texts w
            JOIN hand_texts t USING (site, hand_id)
            JOIN hands h USING (site, hand_id)
            JOIN text_blocks b USING (block)
            ORDER BY t.block, t.start""").fetchall()
    finally:
        connection.unregister("wanted_texts")
    codec = decompressor()
    found: dict[tuple[str, str], StoredText] = {}
    block_id, raw = None, b""
    for site, hand_id, file, line, block, start, length, size, head, data in rows:
        if block != block_id:
            block_id, raw = block, codec.decompress(data, max_output_size=size)
        found[(site, hand_id)] = StoredText(
            site,
            hand_id,
            file,
            line,
            raw[start : start + length].decode("utf-8"),
            raw[:head].decode("utf-8") if head else "",
        )
    return found


def reread(stored: StoredText) -> tuple[Hand | None, str | None]:
    """A stored hand's text read again by today's parser (with its file's head, for a
    format that reads one): its record, or why there is none."""
    from handlog.errors import ParseError
    from handlog.model import Hand
    from handlog.parse import hand_pieces, parse_chunks
    from handlog.parse.reader import Chunk
    from handlog.parse.sites import detect

    lines = (stored.head + "\n" + stored.text if stored.head else stored.text).split("\n")
    site = detect(lines)
    if site is None:
        return None, "its text is of no format handlog reads any more"
    context = None
    if site.file_context is not None:
        context = site.file_context(stored.head, stored.file)
        if isinstance(context, ParseError):
            return None, f"its file's header cannot be read again: {context.message}"
    chunk = Chunk(stored.file, stored.line, stored.text)
    reasons = []
    for piece in hand_pieces(chunk, site):  # a line that holds several hands: each
        for parsed in parse_chunks(piece, site, context):
            if isinstance(parsed, Hand) and parsed.hand_id == stored.hand_id:
                return parsed, None
            if isinstance(parsed, ParseError):
                reasons.append(parsed.message)
    reason = reasons[0] if reasons else "it reads as another hand"
    return None, f"its text cannot be read again alone ({reason})"
