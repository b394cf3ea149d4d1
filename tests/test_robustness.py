"""Bad input never crashes: real hands corrupted at random still parse to a record or to a
ParseError, and every record replays to a result (with violations, not exceptions)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlog.errors import ParseError, Skipped
from handlog.model import Hand
from handlog.parse import parse_text
from handlog.rules.profiles import CASINO, POKERSTARS
from handlog.rules.replay import replay

from .conftest import FIXTURES, pokerstars_corpus_files

HAND_TEXTS = [
    piece.strip()
    for path in [*pokerstars_corpus_files(), FIXTURES / "pokerstars" / "side-pot.txt"]
    for piece in re.split(
        r"\n\s*\n\s*\n",
        "\n".join(line.rstrip() for line in path.read_text(encoding="utf-8-sig").splitlines()),
    )
    if piece.strip().startswith("PokerStars")
]
AMOUNT = re.compile(r"\$\d+\.\d\d|\b\d{2,4}\b")
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


@st.composite
def corrupted(draw) -> str:
    lines = draw(st.sampled_from(HAND_TEXTS)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(1, len(lines) - 1))
        change = draw(st.sampled_from(["delete", "duplicate", "swap", "amount", "card"]))
        if change == "delete" and len(lines) > 2:
            del lines[at]
        elif change == "duplicate":
            lines.insert(at, lines[at])
        elif change == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        elif change == "amount" and AMOUNT.search(lines[at]):
            value = draw(st.sampled_from(["$0.01", "$0.13", "$9.99", "0", "7", "450"]))
            lines[at] = AMOUNT.sub(value, lines[at], count=1)
        elif change == "card" and CARD.search(lines[at]):
            lines[at] = CARD.sub(
                draw(st.sampled_from(["As", "2c", "Td", "Kh"])), lines[at], count=1
            )
    return "\n".join(lines)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=corrupted(), casino=st.booleans())
def test_corrupted_hands_never_crash(text, casino):
    items = parse_text(text)
    assert items, "something must come back for every hand"
    for item in items:
        assert isinstance(item, (Hand, ParseError, Skipped))
        if isinstance(item, ParseError):
            assert item.line >= 1 and item.message
        if isinstance(item, Hand):
            result = replay(item, CASINO if casino else POKERSTARS)
            assert sum(result.net.values()) == sum(result.collected.values()) - sum(
                result.put_in.values()
            )
