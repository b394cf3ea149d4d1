"""Corrupted copies of real hands: each gives one ParseError at the right line, with a
sentence that says what is wrong, and every other hand in the file still parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from handlog.errors import ParseError
from handlog.model import Hand
from handlog.parse import parse_file

from .conftest import SAMPLE_LOGS

SOURCE = SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt"
HANDS = 11


def _corrupt(tmp_path: Path, change) -> tuple[list, list[str]]:
    lines = SOURCE.read_text(encoding="utf-8").split("\n")
    lines = change(lines)
    target = tmp_path / "corrupt.txt"
    target.write_text("\n".join(lines), encoding="utf-8")
    return list(parse_file(target)), lines


def _only_error(items) -> ParseError:
    errors = [i for i in items if isinstance(i, ParseError)]
    assert len(errors) == 1, errors
    assert len([i for i in items if isinstance(i, Hand)]) == HANDS - 1
    return errors[0]


def _index(lines: list[str], text: str, start: int = 0) -> int:
    return next(i for i in range(start, len(lines)) if lines[i].startswith(text))


def test_garbage_line_in_the_middle(tmp_path):
    def change(lines):
        at = _index(lines, "*** 5th STREET ***", _index(lines, "PokerStars Game #35874081088"))
        return lines[: at + 2] + ["%%%% this is not poker %%%%"] + lines[at + 2 :]

    items, lines = _corrupt(tmp_path, change)
    error = _only_error(items)
    assert lines[error.line - 1] == "%%%% this is not poker %%%%"
    assert error.hand_id == "35874081088"
    assert "not one PokerStars writes during a street" in error.message
    assert error.text == "%%%% this is not poker %%%%"
    assert error.raw is not None and error.raw.startswith("PokerStars Game #35874081088")


def test_truncated_hand(tmp_path):
    def change(lines):
        start = _index(lines, "PokerStars Game #35874124553")
        river = _index(lines, "*** RIVER ***", start)
        following = _index(lines, "PokerStars Game #", start + 1)
        return lines[: river + 1] + ["", "", ""] + lines[following:]

    items, lines = _corrupt(tmp_path, change)
    error = _only_error(items)
    assert error.hand_id == "35874124553"
    assert "ends early" in error.message and "truncated" in error.message
    assert lines[error.line - 1] == "*** RIVER ***"


def test_unknown_card(tmp_path):
    def change(lines):
        at = _index(lines, "Dealt to Hero [", _index(lines, "PokerStars Game #35874153086") + 12)
        lines[at] = lines[at][: lines[at].rindex("[")] + "[of]"
        return lines

    items, lines = _corrupt(tmp_path, change)
    error = _only_error(items)
    assert lines[error.line - 1].endswith("[of]")
    assert "'of' is not a card" in error.message


def test_missing_seat_line(tmp_path):
    def change(lines):
        start = _index(lines, "PokerStars Game #35874195699")
        seat = _index(lines, "Seat 3: Nikolay Zem", start)
        del lines[seat]
        return lines

    items, lines = _corrupt(tmp_path, change)
    error = _only_error(items)
    assert error.hand_id == "35874195699"
    assert "Nikolay Zem" in error.message and "seat list" in error.message
    assert lines[error.line - 1].startswith("Nikolay Zem: posts the ante")


def test_seat_line_out_of_place(tmp_path):
    def change(lines):
        at = _index(lines, "*** 4th STREET ***", _index(lines, "PokerStars Game #35874220204"))
        return lines[: at + 1] + ["Seat 9: Intruder ($1.00 in chips)"] + lines[at + 1 :]

    items, lines = _corrupt(tmp_path, change)
    error = _only_error(items)
    assert lines[error.line - 1] == "Seat 9: Intruder ($1.00 in chips)"


def test_bad_header(tmp_path):
    def change(lines):
        at = _index(lines, "PokerStars Game #35874259784")
        lines[at] = lines[at].replace("($0.04/$0.08 USD)", "($0.04/ USD)")
        return lines

    items, lines = _corrupt(tmp_path, change)
    error = _only_error(items)
    assert error.hand_id == "35874259784" and "header" in error.message


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x00\x01\x02\xff\xfe binary \x00\x00", "not text"),
        (
            b'<session sessioncode="5"><general><gametype>7 Card Stud L $0.05/$0.10'
            b"</gametype></general></session>\n",
            "iPoker",
        ),
        (b"just some notes\nnot a hand history\n", "no hand history of a site handlog reads"),
    ],
)
def test_files_that_are_not_exports_handlog_reads(tmp_path, content, words):
    target = tmp_path / "other.txt"
    target.write_bytes(content)
    items = list(parse_file(target))
    assert len(items) == 1 and isinstance(items[0], ParseError)
    assert words in items[0].message


def test_unreadable_file_is_an_error_value(tmp_path):
    items = list(parse_file(tmp_path / "missing.txt"))
    assert len(items) == 1 and "cannot read" in items[0].message


def test_hands_after_a_long_preface_are_found_and_the_preface_named(tmp_path):
    """Notes pasted above the hands (here 500 lines) do not hide them: the format is looked
    for in a file's first `DETECT_LINES` lines, and the preface is one error."""
    preface = [f"note {number}: played tight today" for number in range(500)]
    items, _ = _corrupt(tmp_path, lambda lines: preface + [""] + lines)
    hands = [item for item in items if isinstance(item, Hand)]
    errors = [item for item in items if isinstance(item, ParseError)]
    assert len(hands) == HANDS
    assert [(error.line, error.message) for error in errors] == [
        (1, "500 lines of text that belong to no PokerStars hand (no hand header above them)")
    ]


def test_a_file_of_text_with_no_hand_says_how_far_it_was_read(tmp_path):
    from handlog.parse.sites import DETECT_LINES

    target = tmp_path / "notes.txt"
    target.write_text("\n".join(f"line {n}" for n in range(DETECT_LINES + 10)), encoding="utf-8")
    (error,) = parse_file(target)
    assert isinstance(error, ParseError) and error.line == 1
    assert f"no hand header in the first {DETECT_LINES:,} lines" in error.message
