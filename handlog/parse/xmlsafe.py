"""Safe XML for the XML exports (iPoker, Merge): one hand element at a time, through
`defusedxml`, which refuses DTDs, entity declarations (billion laughs) and external entities
before anything is expanded or fetched. Elements keep the line they start on.

A hand history never needs a DTD or an entity of its own; a file that declares one is
refused whole, with one error naming its file and line.

Also what the XML sites share around their own builders: their `SiteFormat` (`xml_format`),
cutting a hand's `<game>` element from its chunk, its number before it is read, the text
before the first hand, and the one error of a hand that cannot be read (its line, the line's
text, the raw hand kept).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import Final, cast
from xml.parsers.expat import ErrorString, ExpatError, ParserCreate, XMLParserType

from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from handlog.cards import Card
from handlog.errors import ParseError
from handlog.model import Action, ActionKind, Game, Hand, Site, Structure
from handlog.money import seat_number
from handlog.parse.reader import Chunk, LineMark
from handlog.parse.site import Parsed, SiteFormat
from handlog.parse.stakes import Context, settler
from handlog.parse.text import utc_time
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits

HOSTILE = (DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden)


class Element:
    """One XML element: its tag, attributes, text, children and the line it starts on
    (counted from the first line of the text given to `parse`)."""

    def __init__(self, tag: str, attrib: dict[str, str], line: int) -> None:
        self.tag = tag
        self.attrib = attrib
        self.line = line
        self.text = ""
        """The character data directly inside the element (all of it, children's left out);
        "" when `parse` was asked not to keep text."""
        self.inner: list[Element] | None = None
        """Its children once it has one: most elements have none, and get no list."""

    @property
    def children(self) -> Sequence[Element]:
        return self.inner if self.inner is not None else ()

    def adopt(self, child: Element) -> None:
        """Adds `child` after the children it has."""
        if self.inner is None:
            self.inner = [child]
        else:
            self.inner.append(child)

    def find(self, tag: str) -> Element | None:
        return next((child for child in self.children if child.tag == tag), None)

    def all(self, tag: str) -> list[Element]:
        return [child for child in self.children if child.tag == tag]

    def get(self, name: str, default: str = "") -> str:
        return self.attrib.get(name, default)


class XMLError(Exception):
    """XML that cannot be read, or is refused: `line` counts from the text's first line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


class _NoTarget:
    """ElementTree's parser's target: nothing, so that it sets no callbacks of its own."""


_NO_TARGET = _NoTarget()


class _Tree:
    """Builds the elements from expat's callbacks: one call per start and end tag, and (when
    text is kept) one per run of text between tags, expat buffering the pieces of a run."""

    def __init__(self, expat: XMLParserType) -> None:
        self.expat = expat  # for the line each element starts on
        self.stack: list[Element] = []
        self.roots: list[Element] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        element = Element(tag, attrib, self.expat.CurrentLineNumber)
        stack = self.stack
        if stack:
            stack[-1].adopt(element)
        else:
            self.roots.append(element)
        stack.append(element)

    def end(self, tag: str) -> None:
        self.stack.pop()

    def data(self, data: str) -> None:
        if self.stack:
            self.stack[-1].text += data


def parse(text: str, complete: bool = True, keep_text: bool = True) -> list[Element]:
    """The top-level elements of `text` (a document or a fragment of several elements); with
    `complete` False, elements still open at the end are kept as read so far (a session's
    header before its first hand). With `keep_text` False the elements' text is not read (a
    format that says everything in attributes: no call per run of text). Raises `XMLError`
    for malformed or refused XML."""
    # A `guarded_expat` parser: defusedxml's guards (DTD, entity and external-reference
    # handlers) on it, the element handlers set straight on it (no ElementTree parser, its
    # name fixing and its tree), the text fed to expat in one call. No default handler
    # (ElementTree's DOCTYPE and entity bookkeeping: a DTD is refused, and expat expands
    # the five predefined entities itself): text nobody reads costs no call.
    expat = guarded_expat()
    tree = _Tree(expat)
    expat.StartElementHandler = tree.start
    expat.EndElementHandler = tree.end
    if keep_text:
        expat.CharacterDataHandler = tree.data  # a run of text in one call (buffer_text)
    try:
        read_guarded(expat, text, complete)
    finally:
        # The parser holds the tree's methods and the tree the parser: the cycle is broken
        # here, and both are freed by their counts (nothing left for the collector).
        expat.StartElementHandler = None
        expat.EndElementHandler = None
        expat.CharacterDataHandler = None
    return tree.roots


_GUARDS = DefusedXMLParser(
    target=_NO_TARGET, forbid_dtd=True, forbid_entities=True, forbid_external=True
)
"""Whose guard handlers (they only raise) every `guarded_expat` parser is given: defusedxml's
own, bound once, with no ElementTree parser set up per hand."""


def guarded_expat() -> XMLParserType:
    """A fresh expat parser set up as `parse` sets up its own (namespaces as ElementTree reads
    them, attributes as a dict, no default handler) with defusedxml's guards on it: a DTD, an
    entity declaration or an external entity raises. The caller sets its own element handlers
    and reads with `read_guarded`: a format whose builder is fed by expat's calls, no tree."""
    # No interning of names (intern None): expat then decodes each name and looks it up in
    # no dict (a shared dict of names measured slower: its lookup per name costs more than
    # hashing the fresh name once as a key of the element's attributes).
    expat = ParserCreate(None, "}", None)
    expat.StartDoctypeDeclHandler = _GUARDS.defused_start_doctype_decl
    expat.EntityDeclHandler = _GUARDS.defused_entity_decl
    expat.UnparsedEntityDeclHandler = _GUARDS.defused_unparsed_entity_decl
    expat.ExternalEntityRefHandler = _GUARDS.defused_external_entity_ref_handler
    expat.buffer_text = True
    expat.ordered_attributes = False
    return expat


def read_guarded(expat: XMLParserType, text: str, complete: bool = True) -> None:
    """Feeds `text` to a `guarded_expat` parser (the whole of a document or fragment, or with
    `complete` False the start of one: what is still open at its end is no error); raises
    `XMLError` for malformed or refused XML."""
    try:
        expat.Parse(text, complete)
    except HOSTILE as refused:
        raise XMLError(expat.CurrentLineNumber, _refused(refused)) from None
    except ExpatError as bad:  # its own name: mypyc types each `except … as`
        raise XMLError(bad.lineno, f"the XML is malformed: {ErrorString(bad.code)}") from None
    except UnicodeEncodeError as unencodable:  # expat reads UTF-8: a lone surrogate has none
        line = text.count("\n", 0, unencodable.start) + 1
        code = ord(text[unencodable.start])
        raise XMLError(
            line, f"the text holds U+{code:04X}, half of a surrogate pair, which is no character"
        ) from None


def _refused(error: Exception) -> str:
    what = {
        DTDForbidden: "a DTD (<!DOCTYPE …>)",
        EntitiesForbidden: "an entity declaration (<!ENTITY …>)",
        ExternalReferenceForbidden: "a reference to an external entity",
    }[type(error)]
    return (
        f"the file declares {what}, which no hand history needs: refused as hostile XML "
        "(entity expansion or external entities), none of its hands are read"
    )


# ---------------------------------------------------------------------------------------
# The hand skeleton the XML sites share


def xml_format(
    *,
    site: Site,
    name: str,
    mark: str,
    context: type[Context],
    file_context: Callable[[str, str], object],
    context_marker: str,
    parse_hand: Callable[[Chunk, object], Parsed],
    profile: RuleProfile,
    traits: SiteTraits,
    print_hand: Callable[[Hand], str],
    print_file: Callable[[Iterable[Hand]], Iterator[str]],
    encodings: tuple[str, ...],
    deals: tuple[tuple[Game, Structure, bool], ...],
) -> SiteFormat:
    """The `SiteFormat` of an XML site: its hands are elements that start with `mark`
    anywhere on a line (a `LineMark`: no prefix; files cut into ranges at `header_bytes`),
    each read with its file's context (`file_context`, of type `context`, beginning with
    `context_marker`), which keeps the stakes the hands of its pass have shown
    (`handlog.parse.stakes.settle`)."""
    return SiteFormat(
        site=site,
        name=name,
        header_prefix="",
        is_header=LineMark(mark),
        parse_hand=cast(Callable[[Chunk], Parsed], parse_hand),  # called with the context
        profile=profile,
        traits=traits,
        print_hand=print_hand,
        header_bytes=header_bytes(mark),
        encodings=encodings,
        file_context=file_context,
        context_marker=context_marker,
        settle=settler(context, parse_hand),
        print_file=print_file,
        deals=deals,
    )


def header_bytes(mark: str) -> re.Pattern[bytes]:
    """A newline and a line that starts a hand (`mark`, after white space or the `</game>` of
    the hand before), for cutting files into ranges of whole hands."""
    return re.compile(rb"\n[ \t]*(?:</game>[ \t]*)?" + re.escape(mark.encode()))


def preamble(head: str, mark: str) -> str:
    """The text of a file before the line of its first hand (`mark` starts a hand), or
    before the hand itself when it starts on the file's first line."""
    at = head.find(mark)
    text = head if at < 0 else head[: head.rfind("\n", 0, at) + 1]
    return head[:at] if at >= 0 and not text.strip() else text


def hand_number(text: str, mark: str) -> str | None:
    """The value of the attribute `mark` ends with (`<game id="`), read before the XML is,
    for the error of a hand that cannot be read; None when it is not there, or not closed."""
    at = text.find(mark)
    if at < 0:
        return None
    start = at + len(mark)
    end = text.find('"', start)
    return text[start:end] if end >= 0 else None


def hand_element(text: str) -> str:
    """The hand's `<game>` element in a chunk's text: from `<game ` to its `</game>`, closed
    if the chunk ends before it (as when the next hand starts on the same line)."""
    start = text.find("<game ")
    end = text.find("</game>", start)
    return text[start:] + "\n</game>" if end < 0 else text[start : end + 7]


_NAME = r"[A-Za-z_][A-Za-z0-9_.\-]*"
"""A name as a plain hand writes it: ASCII, no namespace prefix."""
_HEAD = re.compile(rf"<({_NAME}) +({_NAME}) *= *")
"""A start tag's name and its first attribute's, up to the value's opening quote."""
_KEY = re.compile(rf" +({_NAME}) *= *")
"""An attribute's name, from the quote that closes the value before it."""
_END = re.compile(r" *(/?)>")
"""What ends a start tag, from the quote that closes its last value: `/>` an empty one."""
_TAG = re.compile(rf"""<({_NAME})((?: +{_NAME} *= *(?:"[^"]*"|'[^']*'))*) *(/?)>""")
"""A start tag of any plain form (values in single quotes too, or no attribute)."""
_ATTRIBUTE = re.compile(rf"""({_NAME}) *= *(?:"([^"]*)"|'([^']*)')""")
_CONTROLS = bytes([*range(9), *range(11, 32), 127])
"""The ASCII control characters but tab and newline: bytes a plain ASCII hand does not hold
(its other characters printable, as `str.isprintable` finds them one by one, more slowly)."""
_HEADS: Final[dict[str, tuple[str, str]]] = {}
_KEYS: Final[dict[str, str]] = {}
_ENDS: Final[dict[str, bool]] = {}
"""The pieces of tags between their values read so far, each matched once (a file's hands
repeat a few dozen)."""
_KNOWN = 512
"""How many of each are kept (odd files cannot grow them)."""


def scan_plain(text: str) -> Element | None:
    """The one element of `text`, as `parse(text, keep_text=False)[0]` reads it, when its text
    is plain: a tag a line, white space around it (no text, reference, comment, CDATA,
    declaration or processing instruction), simple names (no namespace), printable attribute
    values in quotes with no tab, `<` or `>` (nothing expat would normalise or refuse), no
    attribute twice, tags balanced, one top-level element. None for anything else: `parse`
    then reads it, and says what is wrong with it.

    An ASCII hand whose values are all in double quotes (as Merge writes them) is read by
    `_scan_joints`; any other, or one it declines, a line at a time by `_scan_lines`."""
    if text.isascii():
        found = _scan_joints(text)
        if found is not None:
            return found
    return _scan_lines(text)


def _scan_lines(text: str) -> Element | None:
    """`scan_plain` a line at a time: a tag is cut at its double quotes, every other piece a
    value; the pieces between them, the same in every hand of a file, are looked up in
    `_HEADS`, `_KEYS` and `_ENDS`."""
    if "&" in text or "\r" in text or "xmlns" in text:
        return None
    ascii = text.isascii()  # (known without a look at the text)
    if ascii and len(text.encode("ascii").translate(None, _CONTROLS)) != len(text):
        return None  # a control character other than tab and newline
    stack: list[Element] = []
    root: Element | None = None
    number = 0
    tags = 0
    for line in text.split("\n"):
        number += 1
        tag = line.strip(" \t")
        if not tag:
            continue
        tags += 1
        last = len(tag) - 1
        if (
            last < 2
            or ("\t" in tag if ascii else not tag.isprintable())
            or (root is not None and not stack)
        ):
            return None  # a tab in a tag (or a control character or odd space); after the top

        if tag[1] == "/":
            if tag[0] != "<" or tag[last] != ">" or not stack:
                return None
            if stack.pop().tag != tag[2:last].rstrip(" "):
                return None
            continue
        read = _start_tag(tag)
        if read is None:
            return None
        element = Element(read[0], read[1], number)
        if stack:
            stack[-1].adopt(element)
        else:
            root = element
        if not read[2]:
            stack.append(element)
    if stack or text.count("<") != tags or text.count(">") != tags:
        return None  # unbalanced; a `<` or `>` in a value (each tag has its own)
    return root


def _start_tag(tag: str) -> tuple[str, dict[str, str], bool] | None:
    """The name, attributes and emptiness (`/>`) of a start tag; None when not plain."""
    parts = tag.split('"')  # values in double quotes: every other piece
    count = len(parts)
    if count == 1 or count % 2 == 0:
        return _any_start_tag(tag)
    head = _HEADS.get(parts[0])
    if head is None:
        found = _HEAD.fullmatch(parts[0])
        if found is None:
            return _any_start_tag(tag)
        head = (found.group(1), found.group(2))
        if len(_HEADS) < _KNOWN:
            _HEADS[parts[0]] = head
    empty = _ENDS.get(parts[count - 1])
    if empty is None:
        ends = _END.fullmatch(parts[count - 1])
        if ends is None:
            return _any_start_tag(tag)
        empty = ends.group(1) == "/"
        if len(_ENDS) < _KNOWN:
            _ENDS[parts[count - 1]] = empty
    attrib = {head[1]: parts[1]}
    for at in range(2, count - 1, 2):
        key = _KEYS.get(parts[at])
        if key is None:
            named = _KEY.fullmatch(parts[at])
            if named is None:
                return _any_start_tag(tag)
            key = named.group(1)
            if len(_KEYS) < _KNOWN:
                _KEYS[parts[at]] = key
        attrib[key] = parts[at + 1]
    if 2 * len(attrib) + 1 != count:
        return None  # an attribute twice: expat's error
    return (head[0], attrib, empty)


def _any_start_tag(tag: str) -> tuple[str, dict[str, str], bool] | None:
    """`_start_tag` of a tag without attributes or with a value in single quotes."""
    found = _TAG.fullmatch(tag)
    if found is None:
        return None
    attrib: dict[str, str] = {}
    for key, double, single in _ATTRIBUTE.findall(found.group(2)):
        if key in attrib:
            return None
        attrib[key] = double or single
    return (found.group(1), attrib, found.group(3) == "/")


OPEN: Final = 0
"""A `Joint`'s line that opens an element without attributes (`<players>`)."""
EMPTY: Final = 1
"""… that is an empty element without attributes (`<round/>`)."""
CLOSE: Final = 2
"""… that closes one (`</round>`)."""


class Joint:
    """What lies between two attribute values of a plain hand (or before the first, or after
    the last), read once: another attribute's name (`key`), or the end of a tag (`ends`), the
    whole lines after it (`lines`: blank, or a tag without attributes) and the start of the
    next tag (`tag` and its first attribute `first`), and the `<`, `>`, tabs and newlines in
    it (all a plain hand may hold of them outside its values)."""

    def __init__(self, text: str) -> None:
        self.key: str | None = None
        self.ends = -1
        """-1 when no tag ends in it, 0 when one does with `>`, 1 with `/>`."""
        self.lines: list[tuple[int, str, int]] = []
        """Each line's tag without attributes: its kind (`OPEN`, `EMPTY`, `CLOSE`), its name
        and its line counted from the joint's first."""
        self.tag: str | None = None
        self.first = ""
        self.newlines = text.count("\n")
        self.marks = text.count("<") + text.count(">") + text.count("\t") + self.newlines
        """The `<`, `>`, tabs and newlines in it."""
        self.after = ""
        self.next: Joint | None = None
        """The text of the joint that came after this one last time, and its `Joint`: mostly
        the next one, told by a comparison (no hash of the fresh piece, no lookup)."""


_KEY_JOINT = re.compile(rf" +({_NAME}) *= *")
_TAG_END = re.compile(r" *(/?)>[ \t]*")
_TAG_LINE = re.compile(rf"[ \t]*(?:<(/?)({_NAME}) *(/?)>[ \t]*)?")
"""A line of a joint: white space, or a tag between white space. (Written `[ \t]*(tag)?[ \t]*`
it took time in the square of a line's white space to refuse it: 64,000 tabs before a key,
some 18 s.)"""
_TAG_HEAD = re.compile(rf"[ \t]*<({_NAME}) +({_NAME}) *= *")
_JOINTS: Final[dict[str, Joint]] = {}
"""The joints read so far (a file's hands repeat a hundred or so)."""


def _joint(text: str) -> Joint | None:
    """The `Joint` of a piece of a hand between two double quotes, None when not plain."""
    found = _JOINTS.get(text)
    if found is not None:
        return found
    joint = Joint(text)
    key = _KEY_JOINT.fullmatch(text)
    if key is not None:
        joint.key = key.group(1)
        if joint.key.startswith("xmlns"):
            return None
    else:
        lines = text.split("\n")
        start = 0
        ends = _TAG_END.fullmatch(lines[0])
        if ends is not None:
            joint.ends = 1 if ends.group(1) == "/" else 0
            start = 1
        last = len(lines) - 1
        for number in range(start, last + 1):
            line = lines[number]
            head = _TAG_HEAD.fullmatch(line) if number == last else None
            if head is not None:
                joint.tag = head.group(1)
                joint.first = head.group(2)
                if joint.tag.startswith("xmlns") or joint.first.startswith("xmlns"):
                    return None
                continue
            tag = _TAG_LINE.fullmatch(line)
            if tag is None or (tag.group(1) and tag.group(3)):
                return None  # not a line of a plain hand, or `</x/>`
            name = tag.group(2)
            if name:
                if name.startswith("xmlns"):
                    return None
                kind = CLOSE if tag.group(1) else EMPTY if tag.group(3) else OPEN
                joint.lines.append((kind, name, number))
    if len(_JOINTS) < 4 * _KNOWN:
        _JOINTS[text] = joint
    return joint


_START: Final = Joint("")
"""Before a hand's first joint (its `next` the first joint of the hand before)."""
_MARKS = bytes(sorted({*range(128)} - {*range(32), 127, ord("<"), ord(">"), ord("&")}))
"""What `_scan_joints` deletes from a hand's bytes to keep the ones a value may not hold: the
ASCII controls, `<`, `>` and `&`."""


def _scan_joints(text: str) -> Element | None:
    """`scan_plain` of an ASCII hand whose values are in double quotes: the text cut at its
    double quotes once, every other piece a value, each piece between two values a `Joint`.
    The joints say where each tag starts and ends and each line; the values hold no `<`,
    `>`, `&`, tab, newline or control character when the hand holds no more of them than
    its joints do. None when the hand is not so plain (`_scan_lines` then tries it), and
    when an element named as the top-level one is closed inside it: so that `read_hand` can
    read a chunk that ends with its hand's end tag whole, without a search for where its
    first such tag is."""
    parts = text.split('"')
    count = len(parts)
    if count % 2 == 0 or count == 1:
        return None  # a quote not closed; no attribute (no joint starts a tag)
    stack: list[Element] = []
    root: Element | None = None
    top = ""
    """The top-level element's tag."""
    element: Element | None = None
    attrib: dict[str, str] = {}
    values = 0
    line = 1
    marks = 0
    before = _START
    for at in range(0, count, 2):
        piece = parts[at]
        joint = before.next
        if joint is None or before.after != piece:
            joint = _joint(piece)
            if joint is None:
                return None
            before.after = piece
            before.next = joint
        before = joint
        marks += joint.marks
        key = joint.key
        if key is not None:
            if element is None or at == count - 1:
                return None
            attrib[key] = parts[at + 1]
            values += 1
            continue
        if element is not None:
            if joint.ends < 0 or len(attrib) != values:
                return None  # a tag not ended; an attribute twice
            if not joint.ends:
                stack.append(element)
            element = None
        elif at or joint.ends >= 0:
            return None
        for kind, name, offset in joint.lines:
            if kind == CLOSE:
                if not stack or stack.pop().tag != name or (stack and name == top):
                    return None  # unbalanced; the top's name closed inside it (`read_hand`)
                continue
            if root is not None and not stack:
                return None  # after the top-level element
            opened = Element(name, {}, line + offset)
            if stack:
                stack[-1].adopt(opened)
            else:
                root = opened
                top = name
            if kind == OPEN:
                stack.append(opened)
        line += joint.newlines
        tag = joint.tag
        if tag is None:
            if at != count - 1:
                return None
            continue
        if at == count - 1 or (root is not None and not stack):
            return None
        attrib = {joint.first: parts[at + 1]}
        values = 1
        element = Element(tag, attrib, line)
        if stack:
            stack[-1].adopt(element)
        else:
            root = element
            top = tag
    if element is not None or stack:
        return None
    if len(text.encode("ascii").translate(None, _MARKS)) != marks:
        return None  # `<`, `>`, `&`, a tab, a newline or a control character in a value
    return root


def read_hand(chunk: Chunk, hand_id: str | None, keep_text: bool = True) -> Element | ParseError:
    """The `<game>` element of a hand's chunk, or the hand's one error. Without its text kept,
    a plain hand (as Merge writes them) is read by `scan_plain`, anything else by expat."""
    text = chunk.text
    if not keep_text:
        tried = text.startswith("<game ") and text.endswith("</game>") and text.isascii()
        if tried:
            # The chunk is its hand's element when the `</game>` it ends with is its first:
            # when `_scan_joints` reads it (it finds no other, and declines a `game` in it).
            whole = _scan_joints(text)
            if whole is not None:
                return whole
        element = hand_element(text)
        # What `_scan_joints` declined whole is not scanned by it again.
        plain = _scan_lines(element) if tried and element == text else scan_plain(element)
        text = element
        if plain is not None:
            return plain
    else:
        text = hand_element(text)
    try:
        return parse(text, keep_text=keep_text)[0]
    except XMLError as error:
        message = f"the hand's XML cannot be read: {error.message}"
        return hand_error(chunk, error.line, message, hand_id)


class Cards:
    """A site's card tokens read to cards, each token once: `read` reads one (raising
    `ValueError` or `KeyError` for one that is not a card), the `hidden` ones are None."""

    def __init__(self, read: Callable[[str], Card], hidden: Iterable[str]) -> None:
        self.read = read
        self.known: dict[str, Card | None] = dict.fromkeys(hidden)

    def card(self, text: str) -> Card | None:
        known = self.known
        if text in known:
            return known[text]
        found = known[text] = self.read(text)
        return found


class Tally:
    """What a hand's actions put in, as its builder reads them: all their chips, the
    largest ante and the bring-in."""

    def __init__(self) -> None:
        self.put_in = 0
        self.ante: int | None = None
        self.bring_in: int | None = None

    def add(self, action: Action) -> None:
        self.put_in += action.amount or 0
        if action.kind is ActionKind.ANTE:
            self.ante = max(self.ante or 0, action.amount or 0)
        elif action.kind is ActionKind.BRING_IN:
            self.bring_in = action.amount


def utc_clock(found: re.Match[str] | None) -> datetime | None:
    """A start time from a match of its six numbers (year, month, day, hour, minute,
    second), read as UTC (the XML sites' clocks); None when the clock did not match."""
    if found is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in found.groups())
    return utc_time(year, month, day, hour, minute, second, "UTC")


class Problem(ValueError):
    """What a site's builder finds that its site does not write, at a line of the hand."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


_SEATS: dict[str, int] = {}
"""Seat numbers as printed, read (`element_seat`): a few texts, each read once."""


def element_seat(element: Element) -> int:
    """The element's `seat` number, a `Problem` of its line when no table has it. A seat
    read before is looked up, not read again by `money.seat_number` (Python, not compiled:
    a call a player a hand)."""
    text = element.get("seat")
    found = _SEATS.get(text)
    if found is None:
        try:
            found = seat_number(text)
        except ValueError as error:
            raise Problem(element.line, str(error)) from None
        if len(_SEATS) < 1000:  # seat numbers only (leading zeros too): a bounded few
            _SEATS[text] = found
    return found


def unlike(chunk: Chunk, problem: Exception, site: str, hand_id: str | None) -> ParseError:
    """The error of a hand whose XML reads but is not as `site` writes it (a `Problem` at its
    line, another `LookupError` or `ValueError` at the hand's first)."""
    line = problem.line if isinstance(problem, Problem) else 1
    return hand_error(chunk, line, f"the hand is not as {site} writes it: {problem}", hand_id)


def hand_error(chunk: Chunk, line: int, message: str, hand_id: str | None) -> ParseError:
    """A hand's one error at `line` of its chunk, with that line's text and the raw hand."""
    lines = chunk.text.split("\n")
    return ParseError(
        chunk.file,
        chunk.line + line - 1,
        message,
        hand_id=hand_id,
        text=lines[line - 1][:200] if 0 < line <= len(lines) else None,
        hand_line=chunk.line,
        raw=chunk.text,
    )


def escape(text: str) -> str:
    """Text for an attribute value or element text."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def print_session(
    hands: Iterable[Hand], head: Callable[[Hand], str], game: Callable[[Hand], str], end: str
) -> Iterator[str]:
    """A file of hands as an XML site writes one: the `head` of the first hand (its session
    header), every hand's `game` element, then `end` (what closes the session, if anything);
    each a piece of its own, to be written one hand at a time."""
    started = False
    for hand in hands:
        if not started:
            yield head(hand) + "\n"
            started = True
        yield game(hand) + "\n"
    if started and end:
        yield end + "\n"
