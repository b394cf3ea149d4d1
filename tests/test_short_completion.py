"""The readers that tell a completion from a raise by the amounts (iPoker's `raise to`,
Merge's events) over an all-in completion short of the small bet: a bet past the small bet
raises that completion, as the rules read it (`engine.Table.bet_kind`); one to the small bet
still completes. Found by simulated tournaments (`handlog simulate --site ipoker|merge --game
stud8 --tournament --hands 2000 --seed 5`), whose raise to 16 over an all-in for 6 (bring-in
5, small bet 10) was read as a completion to 16 and flagged."""

from __future__ import annotations

import pytest

from handlog.check import check_file
from handlog.model import ActionKind, Hand, Street
from handlog.parse import parse_text

from .conftest import SITES

NAME = "tournament-stud8-raise-over-short-all-in-completion.xml"
CASES = {
    "ipoker": '<action no="15" player="MaverickMaster" type="23" sum="{}" cards=""/>',
    "merge": '<event type="RAISE" player="8" amount="{}"/>',
}


def _bets(text: str) -> list[tuple[str, ActionKind, int | None]]:
    """The first two completions and raises of the text's one hand, on 3rd street."""
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand)
    bets = (ActionKind.COMPLETE, ActionKind.RAISE)
    found = [
        (a.player, a.kind, a.to_amount)
        for a in hand.actions
        if a.street is Street.THIRD and a.kind in bets
    ]
    return found[:2]


@pytest.mark.parametrize("site", sorted(CASES))
def test_over_a_short_all_in_completion_a_bet_past_the_small_bet_is_a_raise(site: str) -> None:
    path = SITES / site / NAME
    text = path.read_text(encoding="utf-8")
    line = CASES[site]
    assert line.format(16) in text
    assert _bets(text) == [
        ("tilt2982", ActionKind.COMPLETE, 6),
        ("MaverickMaster", ActionKind.RAISE, 16),
    ]
    assert [checked.replay.violations for checked in check_file(str(path))] == [()]
    completed = text.replace(line.format(16), line.format(10))
    assert _bets(completed)[1] == ("MaverickMaster", ActionKind.COMPLETE, 10)
