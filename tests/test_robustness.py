"""Bad input never crashes: real hands corrupted at random still parse to a record or to a
ParseError, and every record replays to a result (with violations, not exceptions)."""

from __future__ import annotations

import re
from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlog.errors import ParseError, Skipped
from handlog.model import Hand
from handlog.parse import parse_text
from handlog.rules.profiles import CASINO, POKERSTARS
from handlog.rules.replay import replay

from .conftest import SITES, pokerstars_corpus_files

HAND_TEXTS = [
    piece.strip()
    for path in [*pokerstars_corpus_files(), SITES / "pokerstars" / "side-pot.txt"]
    for piece in re.split(
        r"\n\s*\n\s*\n",
        "\n".join(line.rstrip() for line in path.read_text(encoding="utf-8-sig").splitlines()),
    )
    if piece.strip().startswith("PokerStars")
]
AMOUNT = re.compile(r"\$\d+\.\d\d|\b\d{2,4}\b")
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")

# An independent reading of a hand's chips from its lines (not handlog's parser or replay),
# to hold the replay's nets against.
_MONEY = r"\$?([\d,]+(?:\.\d\d)?)"
_PUT = re.compile(rf"^(.+?): (?:posts the ante|brings in for|calls|bets) {_MONEY}")
_ANTE = re.compile(r"^(.+?): posts the ante ")
_RAISE_TO = re.compile(rf"^(.+?): raises {_MONEY} to {_MONEY}")
_RETURNED = re.compile(rf"^Uncalled bet \({_MONEY}\) returned to (.+)$")
_COLLECTED = re.compile(rf"^(.+?) collected {_MONEY} from")
_DEALT = re.compile(r"^Dealt to (.+?)(?: \[(?:[2-9TJQKA][cdhs] ?)+\])+$")


def _units(amount: str) -> int:
    """Cents for "$1.25" or "1.25", chips (or cents: the parser reads a bare number in a
    cash game the same way) for "125"."""
    whole, point, cents = amount.replace(",", "").partition(".")
    return int(whole) * 100 + int(cents) if point else int(whole)


def _nets_from_text(text: str) -> tuple[dict[str, int], set[str]]:
    """Each player's collected minus put in (bets, calls, raises to a street total, antes,
    bring-ins, less uncalled bets returned), and the players dealt in (an ante or a 3rd
    street card)."""
    nets: dict[str, int] = defaultdict(int)
    dealt_in: set[str] = set()
    street_total: dict[str, int] = defaultdict(int)
    street = ""
    for line in text.split("\n"):
        if line.startswith("*** SUMMARY"):
            break
        if line.startswith("*** "):
            street, street_total = line, defaultdict(int)  # raise-to amounts are per street
        elif match := _RAISE_TO.match(line):
            # a raise "to" less than the player already has in puts nothing in
            player, to = match[1], _units(match[3])
            nets[player] -= max(0, to - street_total[player])
            street_total[player] = max(to, street_total[player])
        elif match := _PUT.match(line):
            nets[match[1]] -= _units(match[2])
            if _ANTE.match(line):
                dealt_in.add(match[1])
            else:
                street_total[match[1]] += _units(match[2])
        elif match := _RETURNED.match(line):
            nets[match[2]] += _units(match[1])
        elif match := _COLLECTED.match(line):
            nets[match[1]] += _units(match[2])
        elif (match := _DEALT.match(line)) and street.startswith("*** 3rd STREET"):
            dealt_in.add(match[1])
    return dict(nets), dealt_in


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
            if len(items) == 1:  # the text is this hand's alone (the header is never touched)
                _assert_nets_match_the_text(text, item, result)


def _assert_nets_match_the_text(text, hand, result):
    """The replay's nets are the text's chips: for everyone dealt in (and anyone else whose
    chips the text never moves), what the lines say went in and came out. Chips moved for a
    player not dealt in must be flagged for that player: what the replay then books for him
    is not settled (his bets are not booked; an uncalled return or a collect of his are).
    Nets sum to minus the rake unless the replay flags the pot total or the rake (the
    summary's accounting is off)."""
    from_text, dealt_in = _nets_from_text(text)
    for player in sorted(set(from_text) | set(result.net)):
        if player in dealt_in or player not in from_text:
            assert result.net.get(player, 0) == from_text.get(player, 0), (
                player,
                result.net,
                from_text,
            )
        else:
            flagged = [v.code for v in result.violations if v.player == player]
            assert flagged, (player, result.violations)
    codes = {v.code for v in result.violations}
    if not codes & {"POT_TOTAL", "RAKE"}:
        assert sum(result.net.values()) == -hand.rake, (result.net, hand.rake)
