"""Reading hand-history files: encoding detection, line clean-up and splitting into hands.

Files are streamed: one hand's lines are held at a time, so memory does not grow with the
size of the file."""

from __future__ import annotations

import bisect
import codecs
import errno
import glob
import io
import os
import re
import stat
import struct
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import compress, count
from pathlib import Path
from typing import IO, Any

from handlog.records import record

HAND_FILE_SUFFIXES = (".txt", ".log", ".hh", ".xml", ".phh", ".phhs")
ARCHIVE_SUFFIXES = (".zip",)


@record
class Chunk:
    """The text of one hand (or of a stretch of text that is not a hand)."""

    file: str
    line: int
    """1-based line number of the first line."""
    text: str
    """Lines joined by "\\n", without trailing white space or trailing blank lines."""
    is_hand: bool = True
    """False for text that stands before the first hand header."""
    last_line: int = field(default=0, compare=False, repr=False)
    """The line number of the last line, as the reader counted it while cutting the file
    (so that a parser need not count the text's newlines again); 0 for a chunk made
    otherwise (a hand's `Source` then counts them)."""

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


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


def _cp1252_fallback(error: UnicodeError) -> tuple[str, int]:
    """Decode bytes that are not UTF-8 as cp1252: older exports and some sites write
    cp1252 (e.g. "€" as 0x80) whatever their header claims."""
    assert isinstance(error, UnicodeDecodeError)
    bad = error.object[error.start : error.end]
    return bytes(bad).decode("cp1252", errors="replace"), error.end


codecs.register_error("handlog-cp1252", _cp1252_fallback)


BLOCK_SIZE = 1 << 18
"""Characters decoded at a time; with the longest hand, this bounds the memory a file needs."""
MAX_PENDING = 1 << 23
"""Text with no hand header in it is passed on once it grows this long (8 M characters)."""


_LINE_END_JUNK = (" \n", "\t\n", "\ufeff\n", "\r\n")
_LINE_END_CHARACTERS = " \t\ufeff\r"
_REPLACE_ROUNDS = 3


def _strip_line_ends(text: str) -> str:
    """Remove white space (and stray BOMs) before every newline. Exports end many lines with
    one space; `str.replace` does that far faster than a regular expression, but removes one
    character per line a round: after a few rounds, the lines that still end in white space
    (a damaged or hand-edited file's, say a line of 100,000 spaces) are stripped one by one,
    so the time stays linear in the text's length."""
    for _ in range(_REPLACE_ROUNDS):
        replaced = False
        for junk in _LINE_END_JUNK:
            # A character is found by `memchr`, several times faster than a pair: most texts
            # hold no tab, carriage return or BOM at all, and their pair is not looked for.
            # A pair is looked for from the end (`rfind`): CPython's forward search for " \n"
            # stops at every space (measured: 1.4 ns a character, `rfind` 0.4).
            if junk[0] in text and text.rfind(junk) >= 0:
                text = text.replace(junk, "\n")
                replaced = True
        if not replaced:
            return text
    if not any(junk in text for junk in _LINE_END_JUNK):
        return text
    lines = text.split("\n")
    last = lines.pop()  # not followed by a newline: left as it is
    lines = [line.rstrip(_LINE_END_CHARACTERS) for line in lines]
    lines.append(last)
    return "\n".join(lines)


ZIP_ENTRY = "!/"
"""Separates an archive from one of its entries in a path: "logs.zip!/2024/table.txt"."""
MAX_ENTRY_BYTES = 4 << 30
"""Entries larger than this (uncompressed) are refused: no hand history is that big."""
MAX_ENTRY_RATIO = 200
"""Entries that compress better than this are refused (text compresses ~5-15x; a zip bomb
far more)."""


def open_binary(path: str | os.PathLike[str]) -> io.BufferedIOBase:
    """A file, or an entry of a zip archive ("logs.zip!/a.txt"), opened for reading bytes;
    the entry is decompressed as it is read, never extracted to disk. Only a regular file
    is opened: a named pipe or a device (a link to /dev/zero, say) would block or never
    end, and is an OSError that says what it is."""
    text = str(path)
    if ZIP_ENTRY in text:
        import zipfile

        archive_path, _, entry = text.rpartition(ZIP_ENTRY)  # the innermost archive's
        opened = _archive(archive_path)
        info = opened.entries.get(entry)
        if info is None:
            raise FileNotFoundError(f"no entry {entry!r} in {archive_path}")
        try:
            return io.BufferedReader(_ArchiveEntry(opened.archive.open(info)))
        except (zipfile.BadZipFile, NotImplementedError, RuntimeError) as error:
            raise OSError(errno.EIO, f"a damaged or unreadable archive entry ({error})") from None
    # Opened without waiting (a named pipe with no writer would block the open itself),
    # then read as usual once it is known to be a regular file.
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        kind = not_regular(os.fstat(handle).st_mode)
        if kind is not None:
            raise OSError(errno.EINVAL, f"{kind}, not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(handle, True)
        return open(handle, "rb")  # noqa: SIM115 - the caller closes it
    except BaseException:
        os.close(handle)
        raise


def read_small(path: str, limit: int) -> bytes | None:
    """The bytes of a file, or of an archive entry, read whole as `open_binary` reads them
    (the same checks, the same errors), or None when it holds more than `limit` bytes. A
    small file costs one `open`, `fstat`, `read` (of a byte more than its size: its end is
    seen) and `close`, with no file object (measured, a ten-hand PokerStars file of 22 kB: 13 us ->
    5); an entry of an archive is read with one `pread` of its stored bytes and inflated in
    one call (`_entry_bytes`)."""
    if ZIP_ENTRY in path:
        return _entry_bytes(path, limit)
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(handle)
        kind = not_regular(status.st_mode)
        if kind is not None:
            raise OSError(errno.EINVAL, f"{kind}, not a regular file")
        if status.st_size > limit:
            return None
        # A regular file's read is never short but at its end (O_NONBLOCK does nothing to
        # one): a read of one byte more than its size that gives its size has read it whole.
        # Else (it grew since its size was taken, or a file system's short read) it is read
        # on until a read finds nothing.
        data = os.read(handle, status.st_size + 1)
        if len(data) == status.st_size:
            return data
        while data and len(data) <= limit:
            more = os.read(handle, limit + 1 - len(data))
            if not more:
                return data
            data += more
        return data if not data else None
    finally:
        os.close(handle)


_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
"""A zip entry's local file header (as `zipfile` reads it): signature, versions, flags,
method, time, date, CRC, sizes, the lengths of its name and of its extra field."""
_LOCAL_SIGNATURE = b"PK\x03\x04"
_UNUSUAL_FLAGS = 0x1 | 0x20 | 0x40
"""Entry flags `_inflated` leaves to `zipfile`: encrypted, patched data, strong encryption."""
_STORED, _DEFLATED = 0, 8


def _entry_bytes(path: str, limit: int) -> bytes | None:
    """`read_small` of an archive entry. An entry of an archive on disk, stored or deflated
    (as nearly every zip's are), not encrypted, whose local header agrees with the
    directory, is read with one `os.pread` of its stored bytes and inflated in one call,
    its size and CRC-32 checked as `zipfile` checks them (measured, a 22 kB entry: some 45
    us through `zipfile`'s layers -> 30); any other entry, and any entry that fails one of
    these checks, is read through `zipfile` as before (`open_binary`), which refuses it
    with the same error as ever."""
    archive_path, _, entry = path.rpartition(ZIP_ENTRY)
    opened = _archive(archive_path)
    info = opened.entries.get(entry)
    if info is None:
        raise FileNotFoundError(f"no entry {entry!r} in {archive_path}")
    if info.file_size > limit:
        return None
    data = _inflated(opened, info) if ZIP_ENTRY not in archive_path else None
    if data is not None:
        return data
    with open_binary(path) as handle:
        data = handle.read(limit + 1)
    return data if len(data) <= limit else None


def _inflated(opened: _Archive, info: Any) -> bytes | None:
    """The bytes of the archive entry `info`, read and checked (see `_entry_bytes`), or None
    when it is not one this reads, or fails a check."""
    import zlib

    if info.flag_bits & _UNUSUAL_FLAGS or info.compress_type not in (_STORED, _DEFLATED):
        return None
    if info.compress_size > info.file_size + (info.file_size >> 8) + 64:
        return None  # more stored bytes than deflate ever writes for its size: read no more
    name_bytes = len(info.orig_filename.encode("utf-8")) if info.flag_bits & 0x800 else 0
    want = _LOCAL_HEADER.size + max(name_bytes, len(info.orig_filename)) + info.compress_size
    want += len(info.extra) + 64  # the local header's extra field is most often as long
    with _archives_lock:  # not closed meanwhile (`_archive` closes archives under it)
        handle = opened.archive.fp
        if handle is None or handle.closed:
            return None
        descriptor = handle.fileno()
        raw = os.pread(descriptor, want, info.header_offset)
        if len(raw) < _LOCAL_HEADER.size:
            return None
        header = _LOCAL_HEADER.unpack_from(raw)
        start = _LOCAL_HEADER.size + header[10] + header[11]
        end = start + info.compress_size
        if end > len(raw):  # a longer extra field than guessed: read what is missing
            raw += os.pread(descriptor, end - len(raw), info.header_offset + len(raw))
    if header[0] != _LOCAL_SIGNATURE or len(raw) < end:
        return None
    name = raw[_LOCAL_HEADER.size : _LOCAL_HEADER.size + header[10]]
    try:
        decoded = name.decode("utf-8" if header[3] & 0x800 else "cp437")
    except UnicodeDecodeError:
        return None
    if decoded != info.orig_filename:
        return None
    with memoryview(raw) as view:
        stored = view[start:end]
        if info.compress_type == _STORED:
            data = bytes(stored) if info.compress_size == info.file_size else None
        else:
            inflater = zlib.decompressobj(-15)
            try:
                # A byte more than its size (at least one: 0 is no limit at all), so that an
                # entry that inflates to more than it says is seen and inflated no further.
                data = inflater.decompress(stored, info.file_size + 1)
            except zlib.error:
                return None
            if not inflater.eof:
                return None
    if data is None or len(data) != info.file_size or zlib.crc32(data) != info.CRC:
        return None
    return data


def not_regular(mode: int) -> str | None:
    """What a file of this `st_mode` is when it is not a regular file (which handlog reads):
    "a folder", "a named pipe (FIFO)", "a device", "a socket"; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a link"
    return "not a regular file"


def path_size(path: str) -> int:
    """The size of a file, or the uncompressed size of an archive entry, in bytes."""
    if ZIP_ENTRY in path:
        archive_path, _, entry = path.rpartition(ZIP_ENTRY)
        info = _archive(archive_path).entries.get(entry)
        if info is None:
            raise FileNotFoundError(f"no entry {entry!r} in {archive_path}")
        return info.file_size
    return os.path.getsize(path)


@dataclass
class _Archive:
    """A zip archive kept open, with its entries by the unique name each is read as."""

    identity: tuple[int, ...]
    """The process that opened it and the file's device, inode, size and time: a changed
    file is opened again, and a forked worker does not share the parent's file offset."""
    archive: Any
    """The `zipfile.ZipFile`."""
    entries: dict[str, Any]
    """Each entry's `zipfile.ZipInfo` by its unique name (`_unique_names`)."""


ARCHIVES_KEPT_OPEN = 8
"""Archives kept open with their directory read: reading a zip's directory costs time in
proportion to its entries, and was done for every entry read (3,000 entries: 111 s)."""
_archives: dict[str, _Archive] = {}
_archives_lock = threading.Lock()


def _archive(path: str) -> _Archive:
    """The zip archive at `path`, its directory read once while the file is unchanged;
    OSError when it cannot be read or is not a zip archive."""
    import zipfile

    outermost = path.partition(ZIP_ENTRY)[0]  # an archive inside an archive: "a.zip!/b.zip"
    status = os.stat(outermost)
    identity = (os.getpid(), status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)
    with _archives_lock:
        kept = _archives.pop(path, None)
        if kept is not None and kept.identity == identity:
            _archives[path] = kept  # the most recently used last
            return kept
        if kept is not None and kept.identity[0] == identity[0]:
            kept.archive.close()
    kind = not_regular(status.st_mode)
    if kind is not None:
        raise OSError(errno.EINVAL, f"{kind}, not a regular file")
    try:
        if path == outermost:
            archive = zipfile.ZipFile(path)
        else:
            backing = _inner_archive(path)
            try:
                archive = zipfile.ZipFile(backing)
            except BaseException:
                backing.close()
                raise
            # Closed with the archive once no entry of it is being read, as a file zipfile
            # opened itself (it counts the entries that hold it).
            archive._filePassed = 0  # type: ignore[attr-defined]
    except zipfile.BadZipFile as error:
        raise OSError(errno.EIO, f"not a readable zip archive ({error})") from None
    opened = _Archive(identity, archive, _unique_names(archive.infolist()))
    with _archives_lock:
        _archives[path] = opened
        while len(_archives) > ARCHIVES_KEPT_OPEN:
            oldest = next(iter(_archives))
            dropped = _archives.pop(oldest)
            if dropped.identity[0] == identity[0]:
                dropped.archive.close()  # entries still being read keep the file open
    return opened


INNER_ARCHIVE_MEMORY = 64 << 20
"""An archive inside an archive is decompressed once to be read (a zip is read by seeking
in it): in memory up to this size, else into a temporary file deleted when it is closed."""
MAX_ARCHIVE_DEPTH = 3
"""Archives inside archives are read this deep ("a.zip!/b.zip!/c.zip!/hands.txt"); deeper
ones are named and not read (a zip that holds itself, a quine, never ends)."""


def _inner_archive(path: str) -> IO[bytes]:
    """The bytes of the archive entry `path` (itself an archive), decompressed once into a
    seekable file; its entry was checked as any other (`zip_entries`: size and ratio)."""
    import shutil
    import tempfile

    copy = tempfile.SpooledTemporaryFile(max_size=INNER_ARCHIVE_MEMORY)  # noqa: SIM115
    try:
        with open_binary(path) as entry:
            shutil.copyfileobj(entry, copy, 1 << 20)
        copy.seek(0)
    except BaseException:
        copy.close()
        raise
    return copy  # type: ignore[return-value]


def _unique_names(infos: list[Any]) -> dict[str, Any]:
    """The entries of an archive by unique names: a zip may hold several entries of one
    name (appended to, or made by a careless tool), and each is read. The first keeps its
    name; the next are "name[2]", "name[3]"... (skipping any name an entry has)."""
    taken = {info.filename for info in infos}
    names: dict[str, Any] = {}
    for info in infos:
        name = info.filename
        if name in names:
            number = 2
            while f"{name}[{number}]" in taken or f"{name}[{number}]" in names:
                number += 1
            name = f"{name}[{number}]"
        names[name] = info
    return names


class _ArchiveEntry(io.RawIOBase):
    """An archive entry being decompressed, whose damage (bad deflate data, a wrong CRC)
    comes out as an OSError, as a bad disk block would: the file is reported as unreadable
    and the next one is read."""

    def __init__(self, entry: IO[bytes]) -> None:
        self.entry = entry

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        import zipfile
        import zlib

        try:
            data = self.entry.read(len(buffer))
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise OSError(errno.EIO, f"a damaged archive entry ({error})") from None
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self.entry.close()
        super().close()


def zip_entries(archive: str) -> tuple[list[str], list[PathProblem]]:
    """The hand-history entries of a zip archive as paths, and what is said of the others:
    the entries refused (with the reason: absurdly large, compressed too well to be text,
    links and other entries that are not regular files), a note naming the entries of other kinds, and a note naming
    the entries that share a name with another (each is read, under a name of its own:
    see `_unique_names`). An archive inside it is read as any other, its entries named
    "a.zip!/b.zip!/hands.txt", down to `MAX_ARCHIVE_DEPTH`."""
    found: list[str] = []
    problems: list[PathProblem] = []
    other: list[str] = []
    try:
        entries = _archive(archive).entries
    except OSError as error:
        reason = f"not a readable zip archive: {error.strerror or error}"
        return found, [PathProblem(archive, reason)]
    renamed: list[str] = []
    for unique, info in entries.items():
        name = info.filename.lower()
        path = f"{archive}{ZIP_ENTRY}{unique}"
        if info.is_dir():
            continue
        if unique != info.filename:
            renamed.append(unique)
        inner = name.endswith(ARCHIVE_SUFFIXES)
        if not inner and not name.endswith(HAND_FILE_SUFFIXES):
            other.append(unique)
            continue
        # Made on Unix, an entry records its mode; one that says it is a link (or a pipe, a
        # device) is not read. Many tools record no file type at all: read as a file.
        mode = info.external_attr >> 16 if info.create_system == 3 else 0
        kind = not_regular(mode) if stat.S_IFMT(mode) not in (0, stat.S_IFDIR) else None
        ratio = info.file_size / max(info.compress_size, 1)
        if kind is not None:
            reason = f"not read: {kind} in the archive, not a regular file"
        elif info.file_size > MAX_ENTRY_BYTES:
            reason = f"refused: {info.file_size:,} bytes uncompressed"
        elif ratio > MAX_ENTRY_RATIO:
            reason = f"refused: compressed {ratio:,.0f} to 1, not a text export"
        elif inner and path.count(ZIP_ENTRY) >= MAX_ARCHIVE_DEPTH:
            reason = f"not read: an archive inside {MAX_ARCHIVE_DEPTH} archives"
        elif inner:  # read like any other archive, with the same limits
            inner_found, inner_problems = zip_entries(path)
            found += inner_found
            problems += inner_problems
            continue
        else:
            found.append(path)
            continue
        problems.append(PathProblem(path, reason))
    if other:
        problems.append(_left_out(archive, other))
    if renamed:
        shown = ", ".join(renamed[:3]) + (
            f" and {len(renamed) - 3} more" if len(renamed) > 3 else ""
        )
        problems.append(
            PathProblem(
                archive,
                f"{len(renamed)} {'entry has' if len(renamed) == 1 else 'entries have'} the "
                f"name of an earlier entry, each read under a name of its own: {shown}",
                note=True,
            )
        )
    return found, problems


def open_text(path: str | os.PathLike[str]) -> io.TextIOWrapper:
    """The file as text: encoding detected from its first bytes, universal newlines."""
    handle = open_binary(path)
    try:
        buffered = (
            io.BufferedReader(handle) if not isinstance(handle, io.BufferedReader) else handle
        )
        encoding = detect_encoding(buffered.peek(4)[:4])
    except OSError:
        handle.close()
        raise
    return _decoding(buffered, encoding)


def text_of(raw: bytes) -> str:
    """A file's bytes as text, decoded as `open_text` decodes the file. UTF-8 (most files)
    is decoded in one call and its newlines made "\\n" by `str.replace`, which give what the
    text stream's incremental decoder and universal newlines give, without the stream's
    objects (measured, a ten-hand PokerStars file of 22 kB: 7 us -> 1); UTF-16 is read
    through the stream."""
    encoding = detect_encoding(raw[:4])
    if encoding == "utf-8" or encoding == "utf-8-sig":
        return plain_newlines(raw.decode(encoding, errors="handlog-cp1252"))
    with _decoding(io.BytesIO(raw), encoding) as stream:
        return stream.read()


def _decoding(binary: IO[bytes], encoding: str) -> io.TextIOWrapper:
    """Bytes read as handlog reads every file's: in `encoding`, with the cp1252 fallback and
    universal newlines."""
    return io.TextIOWrapper(binary, encoding=encoding, errors="handlog-cp1252", newline=None)


def text_stream(path: str | os.PathLike[str], text: str | None) -> io.TextIOBase:
    """A file's text as a stream: `text`, when it has been read already (`text_of`), else the
    file itself (`open_text`)."""
    return _TextRead(text) if text is not None else open_text(path)


class _TextRead(io.TextIOBase):
    """A text read already, as a stream (`read`, `readline`) of slices of it: `io.StringIO`
    copies the whole text first, four bytes a character, to read its first lines (measured,
    a ten-hand Merge file of 50 kB, whose head and context are read from its text: some 9
    us a stream)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text
        self._at = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        start = self._at
        end = len(self._text) if size is None or size < 0 else start + size
        self._at = min(end, len(self._text))
        return self._text[start : self._at]

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        start = self._at
        stop = len(self._text) if size is None or size < 0 else min(start + size, len(self._text))
        end = self._text.find("\n", start, stop)
        self._at = stop if end < 0 else end + 1
        return self._text[start : self._at]


def split_hands(
    path: str | os.PathLike[str], is_header: Callable[[str], bool], prefix: str
) -> Iterator[Chunk]:
    """The hands of a file, streamed: a hand starts at a header line (a line starting with
    `prefix` that `is_header` accepts) and runs to the next one. Non-blank text before the
    first header comes out as a chunk with `is_hand=False`."""
    with open_text(path) as text:
        yield from split_text(_blocks(text), str(path), is_header, prefix)


def _blocks(text: io.TextIOWrapper) -> Iterator[str]:
    while True:
        block = text.read(BLOCK_SIZE)
        if not block:
            return
        yield block


def split_text(
    blocks: Iterable[str],
    file: str,
    is_header: Callable[[str], bool],
    prefix: str,
    first_line: int = 1,
) -> Iterator[Chunk]:
    """`split_hands` over text that arrives in pieces of any size; `first_line` is the line
    number of the text's first line in its file."""
    pending = ""  # text not yet passed on; it starts at the start of a line
    pending_line = first_line  # the line number of its first line
    in_hand = False  # whether `pending` starts with a hand header
    for block in blocks:
        pending += block
        cut = pending.rfind("\n") + 1
        if cut == 0 and len(pending) < MAX_PENDING:
            continue
        complete, rest = pending[:cut], pending[cut:]
        complete = _strip_line_ends(complete)
        found, position, pending_line, in_hand = _cut_hands(
            complete, file, pending_line, in_hand, is_header, prefix
        )
        yield from found
        if position == 0 and len(complete) > MAX_PENDING and not in_hand:
            newlines = complete.count("\n")
            chunk = _chunk(file, pending_line, complete, False, newlines)
            if chunk is not None:
                yield chunk
            pending_line += newlines
            position = len(complete)
        pending = complete[position:] + rest
    # The last line, which no newline ended (a file written on one line, say), is looked
    # into for headers too.
    complete = _strip_line_ends(pending + "\n")
    found, position, pending_line, in_hand = _cut_hands(
        complete, file, pending_line, in_hand, is_header, prefix
    )
    yield from found
    rest = complete[position:]
    chunk = _chunk(file, pending_line, rest, in_hand, rest.count("\n"))
    if chunk is not None:
        yield chunk


def _cut_hands(
    complete: str,
    file: str,
    line: int,
    in_hand: bool,
    is_header: Callable[[str], bool],
    prefix: str,
) -> tuple[list[Chunk], int, int, bool]:
    """`split_text`'s cutting of `complete` (whole lines, starting at `line`, a hand's if
    `in_hand`) at its hand headers: the chunks before the last header, where the rest
    starts, its line, and whether it is a hand's."""
    found = []
    position = 0
    for start in _header_starts(complete, is_header, prefix):
        if start == 0 and in_hand:
            continue  # the header of the hand carried over from the last block
        piece = complete[position:start]
        newlines = piece.count("\n")
        chunk = _chunk(file, line, piece, in_hand, newlines)
        if chunk is not None:
            found.append(chunk)
        line += newlines
        position = start
        in_hand = True
    return found, position, line, in_hand


@dataclass(frozen=True, slots=True)
class ByteRange:
    """A stretch of a file made of whole hands: from a hand header to just before another
    (or to the end), with the line number it starts at."""

    start: int
    end: int
    first_line: int
    last: bool = field(default=False, compare=False)
    """The file's last range (it ends where the file did when `hand_ranges` began)."""
    context: int = field(default=0, compare=False)
    """Where the file context its hands are read with begins (`SiteFormat.context_marker`),
    when it is not the file's first (two exports joined in one file): the offset of the
    last marker before the range; 0: the file's head."""
    context_line: int = field(default=1, compare=False)
    """The line `context` stands on."""


def cuttable(path: str | os.PathLike[str]) -> bool:
    """Whether `hand_ranges` can cut the file: not an archive entry (streamed whole), and, in
    UTF-16, a whole number of two-byte units none of which is U+0A00–U+0AFF (Gurmukhi,
    Gujarati): then a newline's two bytes, and the header's, are found only where a unit
    starts, so that `bytes.find` and `bytes.count` on the raw bytes find every one and nothing
    else (the file is read once more for this, in blocks: some milliseconds a megabyte)."""
    if ZIP_ENTRY in str(path):
        return False
    with open(path, "rb") as handle:
        encoding = range_encoding(handle.read(4))
        if not encoding.startswith("utf-16"):
            return True
        handle.seek(0)
        high = 1 if encoding == "utf-16-le" else 0  # where each unit's high byte lies
        while block := handle.read(BLOCK_SIZE * 16):  # an even size: units stay whole
            if len(block) % 2 or b"\n" in block[high::2]:
                return False
    return True


def range_encoding(head: bytes) -> str:
    """`detect_encoding` with a UTF-16 byte-order mark's order made explicit: the codec of
    any range of the file, the first (its mark then left out by the reader) or a later one,
    which has no mark to tell."""
    encoding = detect_encoding(head)
    if encoding == "utf-16":
        return "utf-16-be" if head.startswith(codecs.BOM_UTF16_BE) else "utf-16-le"
    return encoding


def range_codec(encoding: str) -> str:
    """The codec that decodes a range of a file in `encoding` (`range_encoding`): UTF-8
    without the BOM codec (a range that starts the file has its mark taken off apart)."""
    return "utf-8" if encoding.startswith("utf-8") else encoding


def plain_newlines(text: str) -> str:
    """`text` with its newlines made "\\n", as universal newlines read them: CR LF and a lone
    CR (looked for only where the text holds a CR, which most do not)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def hand_ranges(
    path: str | os.PathLike[str],
    header: re.Pattern[bytes],
    marker: bytes,
    size: int,
    from_line: int = 1,
    digest: Any = None,
    context_marker: bytes | None = None,
) -> Iterator[ByteRange]:
    """Cut a `cuttable` file into ranges of whole hands, from the hand at line `from_line` on,
    as they are found (reading the bytes once, in blocks, without decoding them). A range
    starts at a hand header and ends at the first header at least `size` bytes on, or at the
    end of the file; toward the end of a file of four `size`s or more the ranges shrink (to
    a quarter of what is left, down to an eighth of `size`), so that the last ones, which
    run while workers run out of work, are short; a file of fewer (but more than one) is cut
    into an even number of equal ranges (`_range_size`). `header` matches a newline and the start
    of a header line; every match starts with `marker`, which `bytes.find` skips to. Only
    the headers where a range may end are matched; newlines are counted for the line
    numbers. `digest` (a hashlib object), when given, has been fed exactly the bytes up to
    each range's end when the range comes out, and the whole file when the last has.
    `context_marker` (`SiteFormat.context_marker`): each range's `context` is where the
    last one before it stands, when that is not the file's first. Nothing comes out when no
    header starts a hand at or after `from_line` (and the file does not start at line 1
    then)."""
    with open(path, "rb") as handle:
        encoding = range_encoding(handle.read(4))
        handle.seek(0)
        # In UTF-16 (a `cuttable` file) the newline, the marker and the header are found as
        # their encoded bytes, a unit of two bytes each character; a header found is decoded
        # to be matched.
        wide = encoding.startswith("utf-16")
        unit = 2 if wide else 1
        # Not "\n".encode(encoding) for UTF-8: the "utf-8-sig" codec of a file with a BOM
        # would give the BOM and a newline, found nowhere after the first line (every range
        # but the first started at line 2).
        newline = "\n".encode(encoding) if wide else b"\n"
        if wide:
            marker = marker.decode("ascii").encode(encoding)
            header_text = _text_pattern(header)
            if context_marker is not None:
                context_marker = context_marker.decode("ascii").encode(encoding)
        contexts: list[tuple[int, int]] = []  # where the context markers stand, and lines
        total = os.fstat(handle.fileno()).st_size
        begin = 0 if from_line <= 1 else -1  # where the range being cut starts; -1: none yet
        begin_line = 1
        want = _range_size(size, total, 0)
        line = 1  # the line number at `offset` + `counted`
        offset = 0  # where `data` starts in the file
        hashed = 0  # the bytes of the file fed to `digest`
        # What is read and not yet passed: a bytearray, so that taking the searched part off
        # its front and adding a block after the rest copies neither (with bytes, every
        # block was copied twice more and every hashed stretch once: measured, a 100 MB
        # Merge file planned in 0.17 CPU s, 0.06 of it copying).
        data = bytearray()
        done = 0  # bytes read
        while True:
            block = handle.read(min(BLOCK_SIZE * 16, total - done))
            done += len(block)
            data += block
            # Search up to the last newline (kept for the next round, since a header match
            # starts with it), so that no header is cut by the end of a block.
            end = len(data) if not block else max(data.rfind(newline), 0)
            if context_marker is not None:  # none holds a newline: all before `end` found
                found = data.find(context_marker, 0, end)
                while found >= 0:
                    if not wide or found % 2 == 0:  # a UTF-16 unit's start: a real one
                        contexts.append((offset + found, line + data.count(newline, 0, found)))
                    found = data.find(context_marker, found + 1, end)
            counted = 0  # newlines in `data` before here are counted in `line`
            at = data.find(marker, _search_from(begin, want, offset, 0, unit))
            while at >= 0 and (at < end or not block):
                if (
                    _wide_header(header_text, data, at, newline, encoding)
                    if wide
                    else header.match(data, at) is not None
                ):
                    start = at + unit  # the header line starts after the newline
                    line += data.count(newline, counted, start)
                    counted = start
                    if begin < 0:
                        if line >= from_line:
                            begin, begin_line = offset + start, line
                    elif offset + start > begin:
                        if digest is not None:
                            with memoryview(data) as view:
                                digest.update(view[hashed - offset : start])
                            hashed = offset + start
                        yield _with_context(ByteRange(begin, offset + start, begin_line), contexts)
                        begin, begin_line = offset + start, line
                        want = _range_size(size, total, begin)
                at = data.find(marker, _search_from(begin, want, offset, at + unit, unit))
            line += data.count(newline, counted, end)
            if digest is not None:
                with memoryview(data) as view:
                    digest.update(view[hashed - offset : end])
                hashed = offset + end
            offset += end
            del data[:end]
            if not block:
                break
    if begin >= 0:
        yield _with_context(ByteRange(begin, total, begin_line, last=True), contexts)


def _with_context(part: ByteRange, contexts: list[tuple[int, int]]) -> ByteRange:
    """`part` with its `context`: the last of the file's `contexts` (marker offsets and
    their lines, in order) before it, unless that is the first (the head's)."""
    before = bisect.bisect_left(contexts, (part.start,))
    if before < 2:
        return part
    at, line = contexts[before - 1]
    return replace(part, context=at, context_line=line)


def _search_from(begin: int, want: int, offset: int, least: int, unit: int) -> int:
    """Where in the block at `offset` the next header marker may stand, from `least` on: a
    range begun at `begin` (-1: none yet) ends only at a header `want` bytes on or more,
    whose marker's newline (of `unit` bytes) stands just before it."""
    return max(begin + want - offset - unit, least) if begin >= 0 else least


def _wide_header(
    header: re.Pattern[str], data: bytes | bytearray, at: int, newline: bytes, encoding: str
) -> bool:
    """Whether the UTF-16 newline at `at` of `data` starts a hand header: the line after it,
    decoded with its own newline, matched by `header` (`_text_pattern`)."""
    end = data.find(newline, at + len(newline))
    line = data[at : end + len(newline) if end >= 0 else len(data) // 2 * 2]
    return header.match(line.decode(encoding, errors="replace")) is not None


_TEXT_PATTERNS: dict[bytes, re.Pattern[str]] = {}


def _text_pattern(header: re.Pattern[bytes]) -> re.Pattern[str]:
    """A header pattern of bytes (ASCII) as one of text, with the same meaning (`re.ASCII`)."""
    found = _TEXT_PATTERNS.get(header.pattern)
    if found is None:
        found = _TEXT_PATTERNS[header.pattern] = re.compile(
            header.pattern.decode("ascii"), header.flags | re.ASCII
        )
    return found


def _range_size(size: int, total: int, begin: int) -> int:
    """The bytes a range of a file of `total` bytes starts at least, from `begin` on."""
    if total <= size:
        return size  # one range: the whole file
    if total < 4 * size:
        # A file of a few ranges: an even number of equal ones, so that two workers finish
        # together (too little work for short ranges at its end to pay). Cut at `size`, a
        # Winamax file of 20,000 hands was 8, 8 and 6.8 MB: one worker read the last alone,
        # 1.4 s of the import's 3.9.
        pairs = -(-total // (2 * size))
        return -(-total // (2 * pairs))
    return min(size, max(size // 8, (total - begin) // 4))


def split_range(
    path: str | os.PathLike[str], part: ByteRange, is_header: Callable[[str], bool], prefix: str
) -> Iterator[Chunk]:
    """The hands of one `ByteRange` of a file (see `hand_ranges`)."""
    with open(path, "rb") as handle:
        encoding = range_encoding(handle.read(4))
        handle.seek(part.start)
        raw = handle.read(part.end - part.start)
    if part.start == 0:
        for mark in (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
            if raw.startswith(mark) and (len(mark) == 3) == encoding.startswith("utf-8"):
                raw = raw[len(mark) :]
                break
    text = plain_newlines(raw.decode(range_codec(encoding), errors="handlog-cp1252"))
    yield from split_text([text], str(path), is_header, prefix, part.first_line)


def _header_starts(text: str, is_header: Callable[[str], bool], prefix: str) -> Iterator[int]:
    """Offsets of the header lines of `text` (which ends with a newline): the lines that
    start with `prefix` and that `is_header` accepts."""
    if type(is_header) is LineMark:
        yield from _marked_lines(text, is_header.mark)
        return
    if not prefix:
        # A hand may start anywhere on its line: every line is a candidate, so they are
        # tested in one pass, and only the offsets of the headers are counted.
        lines = text.split("\n")
        at = previous = 0
        for index in compress(count(), map(is_header, lines)):
            at += sum(map(len, lines[previous:index])) + index - previous
            previous = index
            yield at
        return
    for start in _line_starts(text, prefix):
        if is_header(text[start : text.find("\n", start)]):
            yield start


class LineMark:
    """The header test of a format whose hands start anywhere on their line (the XML
    formats: after white space, or after the end of the hand before): a line that holds
    `mark` starts a hand. Called on a line, it says so; `split_text` finds such lines by
    searching the text for the mark (`str.find`), not by testing each line."""

    __slots__ = ("mark",)

    def __init__(self, mark: str) -> None:
        if not mark or "\n" in mark:
            raise ValueError(f"a hand's mark is text within one line, not {mark!r}")
        self.mark = mark

    def __call__(self, line: str) -> bool:
        return self.mark in line

    def __repr__(self) -> str:
        return f"LineMark({self.mark!r})"


def _marked_lines(text: str, mark: str) -> Iterator[int]:
    """Offsets of the lines of `text` that hold `mark`, each once."""
    at = text.find(mark)
    while at >= 0:
        yield text.rfind("\n", 0, at) + 1
        end = text.find("\n", at + len(mark))
        if end < 0:
            return
        at = text.find(mark, end + 1)


def _line_starts(text: str, prefix: str) -> Iterator[int]:
    """Offsets of the lines of `text` that start with `prefix` (str.find, not a regular
    expression: it skips through megabytes far faster)."""
    if text.startswith(prefix):
        yield 0
    marker = "\n" + prefix
    at = text.find(marker)
    while at >= 0:
        yield at + 1
        at = text.find(marker, at + 1)


def _chunk(file: str, line: int, text: str, is_hand: bool, newlines: int) -> Chunk | None:
    """The chunk of `text` (which starts at line `line` and holds `newlines` newlines, as
    its caller counted them), or None for blank text."""
    # Leading blank lines move the start; trailing ones are dropped, and the newlines among
    # the white space dropped at the end are not the chunk's (its last line is counted
    # from the caller's count, not by counting the whole text again).
    stripped = text.lstrip("\n")
    leading = len(text) - len(stripped)
    kept = stripped.rstrip()
    if not kept:
        return None
    last_line = line + newlines - stripped.count("\n", len(kept))
    if kept[0] == "\ufeff":
        kept = kept[1:]
    return Chunk(file, line + leading, kept, is_hand, last_line)


@dataclass(frozen=True, slots=True)
class PathProblem:
    """A path given (or found in a folder or archive) that is not read, and why."""

    path: str
    reason: str
    missing: bool = False
    """The argument names nothing that exists (a mistyped path: a usage error)."""
    note: bool = False
    """Not a problem, only said: files of other kinds left out of a folder or archive."""

    def format(self) -> str:
        return f"{self.path}: {self.reason}"


def _left_out(where: str, names: list[str]) -> PathProblem:
    """The note for files of other kinds in a folder or archive, named (the first few)."""
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    count = f"{len(names)} {'file' if len(names) == 1 else 'files'}"
    kinds = ", ".join(HAND_FILE_SUFFIXES + ARCHIVE_SUFFIXES)
    return PathProblem(where, f"{count} of other kinds left out (not {kinds}): {shown}", note=True)


def expand_paths(paths: Iterable[str]) -> tuple[list[str], list[PathProblem]]:
    """Files named by `paths` (files, folders searched recursively, following links to
    folders, glob patterns; the hand-history entries of zip archives, as
    "logs.zip!/a.txt"), in a stable order without repeats, and the problems: arguments
    that match nothing, folders that cannot be read, archive entries refused, and notes
    (`PathProblem.note`) naming the files of other kinds (not .txt, .log, .hh, .xml or .zip) left
    out of each folder or archive: nothing is left out without a line saying so."""
    found: list[str] = []
    problems: list[PathProblem] = []
    seen: set[str] = set()
    folders: dict[str, str] = {}

    def add(candidate: str) -> None:
        if candidate.lower().endswith(ARCHIVE_SUFFIXES):
            key = real_path(candidate, folders)
            if key in seen:
                return
            seen.add(key)
            entries, said = zip_entries(candidate)
            for entry in entries:
                add(entry)
            problems.extend(said)
            return
        key = candidate if ZIP_ENTRY in candidate else real_path(candidate, folders)
        if key not in seen:
            seen.add(key)
            found.append(candidate)

    for argument in paths:
        if os.path.isdir(argument):
            _walk(argument, add, problems)
        elif os.path.lexists(argument):
            _take(argument, add, problems)
        else:
            matches = sorted(glob.glob(argument, recursive=True))
            files = [match for match in matches if not os.path.isdir(match)]
            if not files:
                problems.append(
                    PathProblem(argument, "no such file, folder or match", missing=True)
                )
            for match in files:
                _take(match, add, problems)
    return found, problems


def real_path(path: str, folders: dict[str, str]) -> str:
    """`os.path.realpath(path)`, its folder resolved once for every file of it (`folders`:
    each folder's real path, kept by the caller): only a file that is itself a link is
    resolved whole. (A folder of thousands of files cost a walk of every link of its path
    for each file: measured, 2,000 files, 14,000 `lstat` calls and some 50 ms.)"""
    folder, name = os.path.split(path)
    if name in ("", ".", "..") or os.path.islink(path):
        return os.path.realpath(path)
    real = folders.get(folder)
    if real is None:
        real = folders[folder] = os.path.realpath(folder or os.curdir)
    return os.path.join(real, name)


def _take(path: str, add: Callable[[str], None], problems: list[PathProblem]) -> None:
    """A path that is not a folder: `add`ed if it is a regular file (or a link to one), else
    named in `problems` with what it is: a link to nothing, a named pipe or a device (a
    link to /dev/zero, say) would block or never end."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        reason = "a link to nothing" if os.path.islink(path) else "it is gone"
        problems.append(PathProblem(path, f"not read: {reason}"))
        return
    except OSError as error:
        problems.append(PathProblem(path, f"cannot read: {error.strerror or error}"))
        return
    kind = not_regular(mode)
    if kind is None:
        add(path)
    else:
        problems.append(PathProblem(path, f"not read: {kind}, not a regular file"))


def _walk(folder: str, add: Callable[[str], None], problems: list[PathProblem]) -> None:
    """The hand-history files and archives under `folder`, in name order, following links
    to folders (each real folder is read once: a link back up is not followed again); what
    is not a regular file is named in `problems` (`_take`)."""
    visited = {os.path.realpath(folder)}
    other: list[str] = []

    def unreadable(error: OSError) -> None:
        problems.append(
            PathProblem(str(error.filename or folder), f"cannot read: {error.strerror}")
        )

    for root, dirs, files in os.walk(folder, onerror=unreadable, followlinks=True):
        for name in sorted(dirs):
            real = os.path.realpath(os.path.join(root, name))
            if real in visited:
                dirs.remove(name)  # a link to a folder read already (or a loop)
            visited.add(real)
        dirs.sort()
        # Each file named as `str(Path(root, name))` names it, its folder's part made once
        # (a `Path` a file cost some 6 us of a folder's 10 a file).
        base = str(Path(root))
        for name in sorted(files):
            if not name.lower().endswith(HAND_FILE_SUFFIXES + ARCHIVE_SUFFIXES):
                other.append(os.path.relpath(os.path.join(root, name), folder))
                continue
            _take(name if base == os.curdir else os.path.join(base, name), add, problems)
    if other:
        problems.append(_left_out(folder, other))
