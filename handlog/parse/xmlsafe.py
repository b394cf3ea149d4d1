"""Safe XML for the XML exports (iPoker, Merge): one hand element at a time, through
`defusedxml`, which refuses DTDs, entity declarations (billion laughs) and external entities
before anything is expanded or fetched. Elements keep the line they start on.

A hand history never needs a DTD or an entity of its own; a file that declares one is
refused whole, with one error naming its file and line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import ParseError as XMLSyntaxError

from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

HOSTILE = (DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden)


@dataclass(slots=True)
class Element:
    """One XML element: its tag, attributes, text, children and the line it starts on
    (counted from the first line of the text given to `parse`)."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    text: str = ""

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


class _Builder:
    def __init__(self) -> None:
        self.parser: DefusedXMLParser | None = None
        self.stack: list[Element] = []
        self.roots: list[Element] = []
        self.parts: list[str] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        line = self.parser.parser.CurrentLineNumber if self.parser is not None else 0  # type: ignore[attr-defined]
        if self.parts:
            self._text()
        element = Element(tag, attrib, line)
        if self.stack:
            self.stack[-1].children.append(element)
        else:
            self.roots.append(element)
        self.stack.append(element)

    def end(self, tag: str) -> None:
        if self.parts:
            self._text()
        self.stack.pop()

    def data(self, data: str) -> None:
        self.parts.append(data)

    def _text(self) -> None:
        if self.parts and self.stack:
            self.stack[-1].text += "".join(self.parts)
        self.parts = []

    def close(self) -> None:
        return None


def parse(text: str, complete: bool = True) -> list[Element]:
    """The top-level elements of `text` (a document or a fragment of several elements); with
    `complete` False, elements still open at the end are kept as read so far (a session's
    header before its first hand). Raises `XMLError` for malformed or refused XML."""
    builder = _Builder()
    parser = DefusedXMLParser(
        target=builder, forbid_dtd=True, forbid_entities=True, forbid_external=True
    )
    builder.parser = parser
    # defusedxml has put its guards (DTD, entity and external-reference handlers) on the
    # expat parser; the element handlers are set straight on it too, past ElementTree's
    # name fixing, which took a quarter of the time of a hand.
    expat = parser.parser  # type: ignore[attr-defined]
    expat.ordered_attributes = False
    expat.StartElementHandler = builder.start
    expat.EndElementHandler = builder.end
    expat.CharacterDataHandler = builder.data
    try:
        parser.feed(text)
        if complete:
            parser.close()
    except HOSTILE as error:
        line = parser.parser.CurrentLineNumber  # type: ignore[attr-defined]
        raise XMLError(line, _refused(error)) from None
    except XMLSyntaxError as malformed:  # its own name: mypyc types each `except … as`
        line, _ = malformed.position
        raise XMLError(line, f"the XML is malformed: {_reason(malformed)}") from None
    return builder.roots


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


def _reason(error: XMLSyntaxError) -> str:
    message = str(error)
    return message.rsplit(":", 1)[0] if ": line " in message else message
