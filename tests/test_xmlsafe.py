"""The safe XML reader and the hand skeleton the XML sites share (`handlog.parse.xmlsafe`):
elements with their lines, text kept or not, hostile and malformed XML as one `XMLError`, and
the pieces of a hand read before its XML is (its number, the text before it, its one error)."""

from __future__ import annotations

import random

import pytest

from handlog.errors import ParseError
from handlog.parse.reader import Chunk, _header_starts
from handlog.parse.xmlsafe import (
    Element,
    Problem,
    XMLError,
    escape,
    hand_element,
    hand_error,
    hand_number,
    parse,
    preamble,
    read_hand,
    unlike,
)

HAND = """<game id="7-1" gametype="47">
\t<players>
\t\t<player seat="0" nickname="A &amp; B"/>
\t</players>
\t<note>two
lines &lt;here&gt;</note>
</game>"""


def test_elements_keep_their_lines_attributes_and_children():
    (game,) = parse(HAND)
    assert (game.tag, game.attrib, game.line) == ("game", {"id": "7-1", "gametype": "47"}, 1)
    players = game.find("players")
    assert players is not None and players.line == 2
    (player,) = players.all("player")
    assert (player.get("nickname"), player.line, player.get("absent", "-")) == ("A & B", 3, "-")
    assert [child.tag for child in game.children] == ["players", "note"]


def test_text_is_kept_whole_or_not_read_at_all():
    (game,) = parse(HAND)
    note = game.find("note")
    assert note is not None and note.text == "two\nlines <here>"
    assert game.text.strip() == ""  # only the layout between its children
    (bare,) = parse(HAND, keep_text=False)
    assert [element.text for element in _walk(bare)] == [""] * 4
    assert [(e.tag, e.line, e.attrib) for e in _walk(bare)] == [
        (e.tag, e.line, e.attrib) for e in _walk(game)
    ]


def _walk(element: Element) -> list[Element]:
    return [element] + [inner for child in element.children for inner in _walk(child)]


@pytest.mark.parametrize("keep_text", [True, False])
@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ('<!DOCTYPE game [ <!ENTITY x "y"> ]>\n<game id="1">&x;</game>', 1, "a DTD"),
        ('\n\n<!DOCTYPE game SYSTEM "http://example.invalid/game.dtd">\n<game/>', 3, "a DTD"),
    ],
)
def test_a_dtd_is_refused_before_anything_is_read_whether_text_is_kept_or_not(
    text, line, what, keep_text
):
    with pytest.raises(XMLError) as raised:
        parse(text, keep_text=keep_text)
    assert raised.value.line == line
    assert what in raised.value.message and "refused as hostile XML" in raised.value.message


@pytest.mark.parametrize("keep_text", [True, False])
def test_an_entity_nobody_declared_is_malformed_xml_at_its_line(keep_text):
    with pytest.raises(XMLError) as raised:
        parse('<game id="1">\n<event player="&secret;"/>\n</game>', keep_text=keep_text)
    assert raised.value.line == 2
    assert raised.value.message == "the XML is malformed: undefined entity"


def test_malformed_xml_is_one_error_at_its_line_without_expat_s_position_suffix():
    with pytest.raises(XMLError) as raised:
        parse('<game id="1">\n<round id="BLINDS" <\n</game>')
    assert raised.value.line == 2
    assert raised.value.message == "the XML is malformed: not well-formed (invalid token)"
    with pytest.raises(XMLError) as unclosed:
        parse('<game id="1">\n<players>\n</game>')
    assert unclosed.value.line == 3 and "mismatched tag" in unclosed.value.message


@pytest.mark.parametrize("keep_text", [True, False])
def test_half_a_surrogate_pair_is_one_error_at_its_line(keep_text):
    # A text decoded with surrogate escapes (undecodable bytes) cannot be given to expat as
    # UTF-8: one clear error at the character's line, not Python's codec error.
    with pytest.raises(XMLError) as raised:
        parse(
            '<game id="1">\n<player nickname="A"/>\n<note>x' + chr(0xDC80) + "</note>\n</game>",
            keep_text=keep_text,
        )
    assert raised.value.line == 3
    assert raised.value.message == (
        "the text holds U+DC80, half of a surrogate pair, which is no character"
    )


def test_an_incomplete_head_keeps_the_elements_read_so_far():
    roots = parse("<session>\n<general>\n<tablename>T</tablename>\n</general>\n", complete=False)
    (session,) = roots
    general = session.find("general")
    assert general is not None and general.find("tablename") is not None
    with pytest.raises(XMLError):
        parse("<session>\n<general>\n", complete=True)


def test_escaped_text_reads_back_as_written():
    name = 'a<b>&"c"'
    (element,) = parse(f'<player nickname="{escape(name)}">{escape(name)}</player>')
    assert element.get("nickname") == name and element.text == name


def test_the_hand_number_is_read_before_the_xml():
    assert hand_number('<game id="42-7" starttime="1">', '<game id="') == "42-7"
    assert hand_number('<game gamecode="5710056302">', '<game gamecode="') == "5710056302"
    assert hand_number('<game id="42-7', '<game id="') is None  # not closed
    assert hand_number("<description/>", '<game id="') is None


def test_the_text_before_the_first_hand_is_its_lines_before_the_hand_s_line():
    mark = '<game id="'
    head = '<description type="Razz"/>\n\n<game id="1">\n</game>\n'
    assert preamble(head, mark) == '<description type="Razz"/>\n\n'
    assert preamble('<description type="Razz"/><game id="1">', mark) == '<description type="Razz"/>'
    assert preamble("<description/>\n", mark) == "<description/>\n"


def test_the_hand_element_is_cut_from_its_chunk_and_closed_when_the_chunk_ends_first():
    assert hand_element('  <game id="1">\n</game>\n<game id="2">') == '<game id="1">\n</game>'
    assert hand_element('<game id="1">\n<round/>') == '<game id="1">\n<round/>\n</game>'


def _chunk(text: str) -> Chunk:
    return Chunk("f.xml", 10, text)


def test_a_hand_that_cannot_be_read_is_one_error_with_its_line_and_raw_text():
    chunk = _chunk('<game id="1">\n<round id="X" <\n</game>')
    error = read_hand(chunk, "1")
    assert isinstance(error, ParseError)
    assert (error.file, error.line, error.hand_line, error.hand_id) == ("f.xml", 11, 10, "1")
    assert error.text == '<round id="X" <' and error.raw == chunk.text
    assert error.message.startswith("the hand's XML cannot be read: the XML is malformed")
    game = read_hand(_chunk('<game id="1">\n<round id="X">text</round>\n</game>'), "1")
    assert isinstance(game, Element) and game.find("round") is not None


def test_a_hand_not_as_its_site_writes_it_is_an_error_at_the_problem_s_line():
    chunk = _chunk('<game id="1">\n<round id="X"/>\n</game>')
    at_line = unlike(chunk, Problem(2, "a round 'X'"), "Merge", "1")
    assert (at_line.line, at_line.text) == (11, '<round id="X"/>')
    assert at_line.message == "the hand is not as Merge writes it: a round 'X'"
    anywhere = unlike(chunk, KeyError("seat"), "iPoker", "1")
    assert (anywhere.line, anywhere.text) == (10, '<game id="1">')
    outside = hand_error(chunk, 9, "far away", None)
    assert (outside.line, outside.text, outside.raw) == (18, None, chunk.text)


@pytest.mark.parametrize("prefix", ["", "<game"])
def test_header_lines_are_found_as_a_line_by_line_test_finds_them(prefix):
    """The reader's one-pass search (empty prefix: every line a candidate) against the plain
    definition: the offsets of the lines that start with `prefix` and that `is_header`
    accepts."""
    pieces = ['<game id="1">', "</game>", '</game><game id="2">', "  <round/>", "", "\t<game x>"]
    generator = random.Random(15)

    def is_header(line: str) -> bool:
        return '<game id="' in line

    for _ in range(200):
        text = "\n".join(generator.choice(pieces) for _ in range(generator.randrange(12))) + "\n"
        expected, at = [], 0
        for line in text.split("\n"):
            if line.startswith(prefix) and is_header(line):
                expected.append(at)
            at += len(line) + 1
        assert list(_header_starts(text, is_header, prefix)) == expected, text


def test_an_elements_seat_is_read_once_and_a_seat_no_table_has_is_its_lines_problem():
    from handlog.parse import xmlsafe

    seat = xmlsafe.Element("player", {"seat": "07"}, 4)
    assert xmlsafe.element_seat(seat) == 7 == xmlsafe.element_seat(seat)
    assert xmlsafe._SEATS["07"] == 7
    for text in ("100", "x", "", "٣"):
        with pytest.raises(xmlsafe.Problem) as problem:
            xmlsafe.element_seat(xmlsafe.Element("player", {"seat": text}, 9))
        assert problem.value.line == 9 and "is not a seat of any table" in str(problem.value)
        assert text not in xmlsafe._SEATS
    with pytest.raises(xmlsafe.Problem):
        xmlsafe.element_seat(xmlsafe.Element("player", {}, 3))  # no seat at all
