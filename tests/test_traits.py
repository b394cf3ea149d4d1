"""Site traits: what a site does not print is never flagged, and what it prints differently
is read as it means. Each trait is tried on a real PokerStars hand changed the way that
site would have written it, against the default traits (which must flag the change)."""

from __future__ import annotations

import pytest

from handlog.model import Hand
from handlog.parse import parse_text
from handlog.rules.profiles import POKERSTARS
from handlog.rules.replay import replay
from handlog.rules.traits import PRINTS_EVERYTHING, SiteTraits, UncalledBets

from .conftest import SAMPLE_LOGS

STUD = SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt"
UNCALLED = "Uncalled bet ($0.08) returned to trs2758\n"


def _first_hand_text() -> str:
    text = STUD.read_text(encoding="utf-8").replace("\r\n", "\n")
    return text[: text.index("\n\n\n")] + "\n"


def _hand(text: str) -> Hand:
    items = parse_text(text)
    assert len(items) == 1 and isinstance(items[0], Hand), items
    return items[0]


def _codes(hand: Hand, traits: SiteTraits) -> list[str]:
    return [v.code for v in replay(hand, POKERSTARS, traits).violations]


@pytest.fixture(scope="module")
def original() -> str:
    text = _first_hand_text()
    assert UNCALLED in text
    return text


def test_a_silently_returned_uncalled_bet_is_returned_by_the_replay(original):
    hand = _hand(original.replace(UNCALLED, ""))
    assert "UNCALLED_RETURN" in _codes(hand, PRINTS_EVERYTHING)
    silent = SiteTraits(uncalled_bets=UncalledBets.SILENT)
    result = replay(hand, POKERSTARS, silent)
    assert result.violations == ()
    assert result.net == replay(_hand(original), POKERSTARS).net
    assert sum(result.net.values()) == -hand.rake


def test_an_uncalled_bet_left_in_the_pot_is_collected_with_it(original):
    # Winamax: no return line, the bet stays in the pot, and the winner collects it too.
    changed = original.replace(UNCALLED, "")
    changed = changed.replace(
        "trs2758 collected $0.64 from pot", "trs2758 collected $0.72 from pot"
    )
    changed = changed.replace(
        "Seat 5: trs2758 collected ($0.64)", "Seat 5: trs2758 collected ($0.72)"
    )
    changed = changed.replace("Total pot $0.67 | Rake $0.03", "Total pot $0.75 | Rake $0.03")
    hand = _hand(changed)
    assert "UNCALLED_RETURN" in _codes(hand, PRINTS_EVERYTHING)
    assert _codes(hand, SiteTraits(uncalled_bets=UncalledBets.IN_POT)) == []


def test_a_total_pot_printed_after_rake(original):
    hand = _hand(original.replace("Total pot $0.67 | Rake $0.03", "Total pot $0.64 | Rake $0.03"))
    assert set(_codes(hand, PRINTS_EVERYTHING)) == {"POT_TOTAL", "RAKE"}
    assert _codes(hand, SiteTraits(total_pot_after_rake=True)) == []


def test_a_wording_handlog_does_not_know_is_not_compared():
    text = (SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt").read_text(encoding="utf-8")
    changed = text.replace("(HI: a flush, Queen high)", "(HI: Flush, Queen high)")
    assert changed != text
    hand = _hand(changed)
    assert _codes(hand, PRINTS_EVERYTHING) == ["HAND_DESCRIPTION"]
    assert _codes(hand, SiteTraits(describes_hands=False)) == []


def test_up_cards_not_printed_are_not_judged():
    # Sites that print only the player's own cards (PartyPoker): without the opponents' door
    # and up cards the bring-in, the first actor and the open pair cannot be judged, so they
    # are not; with every card printed, a wrong first actor is still flagged.
    text = _first_hand_text()
    opponents = [
        line
        for line in text.split("\n")
        if line.startswith("Dealt to ") and not line.startswith("Dealt to Hero ")
    ]
    assert opponents
    hidden = "\n".join(line for line in text.split("\n") if line not in opponents)
    assert _codes(_hand(hidden), PRINTS_EVERYTHING) == []
    fourth = text.index("*** 4th STREET ***")
    street = text[fourth:].split("\n")[1:]
    first, second = [line for line in street if not line.startswith("Dealt to ")][:2]
    swapped = text[:fourth] + text[fourth:].replace(f"{first}\n{second}", f"{second}\n{first}", 1)
    assert swapped != text
    assert "OUT_OF_TURN" in _codes(_hand(swapped), PRINTS_EVERYTHING)
