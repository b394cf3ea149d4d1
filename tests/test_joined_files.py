"""Files joined from two formats (`cat stars.txt party.txt > all.txt`, PartyPoker's cash and
tournament hands in one file): every hand of both is read with its own format.

A file is split at the headers of the format its first hand has; a hand of another format
further down used to run on inside the hand before it, which then could not be read, and
the hands after it were lost with it (one error for them all)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from handlog.errors import ParseError
from handlog.model import Hand
from handlog.parse import detect_file, parse_file, parse_text
from handlog.parse.reader import open_text
from handlog.texts import find_texts
from tests.conftest import SITES


def _text(path: Path) -> str:
    with open_text(path) as handle:
        return handle.read().replace("\r\n", "\n").strip("\ufeff\n ")


def _by_format() -> dict[str, str]:
    """One clean fixture hand of each text format, by format name."""
    found: dict[str, str] = {}
    for path in sorted(SITES.glob("*/*.txt")):
        if path.name.startswith("fault-"):
            continue
        site = detect_file(path)
        if site is None or site.file_context is not None or site.name in found:
            continue
        parsed = parse_text(_text(path))
        if parsed and all(type(item) is Hand for item in parsed):
            found[site.name] = _text(path)
    return found


FORMATS = _by_format()


def _summary(items: list[object]) -> list[object]:
    return [item if type(item) is Hand else (type(item).__name__, item) for item in items]


def test_there_is_a_fixture_of_every_text_format():
    assert len(FORMATS) >= 12, sorted(FORMATS)


PAIRS = list(itertools.permutations(sorted(FORMATS), 2))


@pytest.mark.parametrize(("first", "second"), PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
def test_two_formats_joined_read_as_each_alone(first, second):
    alone = parse_text(FORMATS[first]) + parse_text(FORMATS[second])
    joined = parse_text(FORMATS[first] + "\n\n\n" + FORMATS[second])
    assert all(type(item) is Hand for item in joined), _summary(joined)
    if (first, second) == ("PartyPoker (tournament)", "PartyPoker"):
        # A file that opens with tournament hands is split at "#Game No : N", which cash
        # hands print too, one line under their "Game #N starts.": that line is read as the
        # end of the hand above, so the cash hand comes out as if printed without it.
        assert [hand.hand_id for hand in joined] == [hand.hand_id for hand in alone]
        assert [hand.header_variant for hand in joined] == ["plain", "plain"]
        return
    assert joined == alone  # records compare without their lines


def test_a_partypoker_file_of_cash_then_tournament_hands(tmp_path):
    cash = FORMATS["PartyPoker"]
    tournament = FORMATS["PartyPoker (tournament)"]
    path = tmp_path / "party.txt"
    cash_id = parse_text(cash)[0].hand_id
    again = cash.replace(cash_id, "9" + cash_id)
    path.write_text(cash + "\n\n" + tournament + "\n\n" + again)
    parsed = list(parse_file(path))
    assert [type(item) for item in parsed] == [Hand, Hand, Hand], parsed
    first, second, third = parsed
    assert second.tournament_id is not None and first.tournament_id is None
    assert third.hand_id == "9" + cash_id
    # The evidence of a hand is cut out of the file as the parser cut it.
    line = cash.count("\n") + 3
    texts = find_texts(str(path), None, [line])
    assert texts == {line: "\n".join(text.rstrip() for text in tournament.split("\n"))}


def test_a_hand_that_is_bad_in_itself_stays_one_error():
    """A hand that cannot be read for its own reasons is not cut up into pieces."""
    text = FORMATS["PokerStars"].replace("*** 3rd STREET ***", "*** 3rd STREET ***\nnonsense")
    parsed = parse_text(text)
    assert len(parsed) == 1 and isinstance(parsed[0], ParseError)
