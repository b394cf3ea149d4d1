"""The kind of verdict of a wrong uncalled-bet return (UNCALLED_RETURN, issue 26).

A return is the house's move, not a player's: it is never illegal play. By RULES.md's
verdicts it is a mis-split when the money moved from one player to another by it (the
rules send the uncalled part back to its bettor), and an inconsistent history when every
player still ends as the rules have them (a return printed before its bet, a short return
whose rest is paid back with the pot) or when the lines' chips do not add up and the site
paid the pot as if the bet had gone back in full. `_Replayer._judge_returns` decides it.
"""

from __future__ import annotations

import pytest

from handlog.model import Hand
from handlog.parse import parse_text
from handlog.rules.profiles import POKERSTARS
from handlog.rules.replay import replay
from handlog.rules.violations import Kind

from .conftest import SAMPLE_LOGS

RETURN = "Uncalled bet ($0.08) returned to Nikolay Zem"


def _hand() -> str:
    """PokerStars hand #35874195699: Nikolay Zem's river bet is not called and comes back;
    he collects the $0.44 pot less $0.02 rake."""
    path = SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt"
    text = "\n".join(line.rstrip() for line in path.read_text(encoding="utf-8").split("\n"))
    start = text.rindex("\n", 0, text.index("#35874195699:")) + 1
    return text[start : text.index("\n\n\n", start)]


def _collects(amount: str) -> list[tuple[str, str]]:
    """Nikolay Zem collects `amount` (after the $0.02 rake) and the total says so."""
    total = f"{float(amount) + 0.02:.2f}"
    return [
        ("collected $0.42 from", f"collected ${amount} from"),
        ("Total pot $0.44", f"Total pot ${total}"),
        ("collected ($0.42)", f"collected (${amount})"),
    ]


CASES = {
    # The rest of a short return paid back with the pot: every player ends as the rules say.
    "short, the rest collected": (
        [(RETURN, RETURN.replace("0.08", "0.04")), *_collects("0.46")],
        Kind.INCONSISTENT,
    ),
    # Returned short, the pot paid as if in full: the printed amount contradicts the results.
    "short, the pot paid as if in full": (
        [(RETURN, RETURN.replace("0.08", "0.04"))],
        Kind.INCONSISTENT,
    ),
    # No return line (PokerStars prints one), the pot paid as if it had gone back.
    "missing, the pot paid as if returned": ([(RETURN + "\n", "")], Kind.INCONSISTENT),
    "missing, collected with the pot": (
        [(RETURN + "\n", ""), *_collects("0.50")],
        Kind.INCONSISTENT,
    ),
    # Printed before the bet it returns: the lines still move the chips as the rules do.
    "before its bet": (
        [
            (
                f"Nikolay Zem: bets $0.08\nMasterTrini1: folds\n{RETURN}",
                f"{RETURN}\nNikolay Zem: bets $0.08\nMasterTrini1: folds",
            )
        ],
        Kind.INCONSISTENT,
    ),
    # Nikolay Zem's bet goes to MasterTrini1, who folded: money moved between players.
    "to another player": (
        [(RETURN, RETURN.replace("Nikolay Zem", "MasterTrini1"))],
        Kind.MIS_SPLIT,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_wrong_return_is_a_mis_split_or_an_inconsistent_history(case):
    text = _hand()
    changes, kind = CASES[case]
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand)
    result = replay(hand, POKERSTARS)
    roots = [(v.code, v.kind) for v in result.violations if v.root]
    assert roots == [("UNCALLED_RETURN", kind)]
    assert result.kinds == {kind}
    assert not result.illegal
    # whatever follows from it (the total, the split) takes its kind
    assert {v.kind for v in result.violations} == {kind}


def test_the_uncalled_part_is_the_most_less_the_most_of_the_others() -> None:
    """`tables.uncalled_due` (every replay asks it at every street's end): the first player
    who put in most, and by how much more than anyone else (all of it alone), checked on
    random streets' bets, ties and a lone bettor among them."""
    import random

    from handlog.rules.tables import uncalled_due

    rng = random.Random(3)
    for _ in range(20_000):
        amounts = [rng.choice((0, 0, 2, 4, 8, 10)) for _ in range(rng.randint(1, 8))]
        most = max(amounts)
        index = amounts.index(most)
        others = [amount for place, amount in enumerate(amounts) if place != index]
        assert uncalled_due(amounts) == (index, most - max(others, default=0)), amounts
