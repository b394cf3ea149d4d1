"""Reopening the betting after a short all-in, in every structure (issue 26).

RULES.md: a short all-in raise of less than a full bet does not reopen the betting for players
who already acted (fixed limit: the house's half-bet rule, `all_in_reopens_at_half_bet`); in
pot and no limit an all-in for less than a full raise does not. The TDA rules (Rule 47) and
Robert's Rules of Poker say who that is: a player who has already acted (checked, called,
brought in) and is not facing at least a full bet or raise when the action returns to them
may only call or fold; short all-ins that add up to a full raise reopen it. The engine's
`Table.betting_closed` is that rule; the replay flags a raise it forbids (BET_SIZE), the
simulator never makes one (it asks `Table.may_raise`), and the fast path leaves any bet after
a short all-in to the replay.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from handlog.model import Hand, Structure
from handlog.parse import parse_text
from handlog.rules.engine import Table
from handlog.rules.fast import replay_clean
from handlog.rules.profiles import POKERSTARS
from handlog.rules.replay import _Replayer, replay

NO_HALF_BET = replace(POKERSTARS, name="no-half-bet", all_in_reopens_at_half_bet=False)

# 4th street ($0.04 bets): Ann (the best showing hand) acts first, then Bob, all-in for
# what the 3rd street left him and {bet} more, then Cat: {actions}.
HAND = """\
PokerStars Game #1:  7 Card Stud Limit ($0.04/$0.08 USD) - 2009/11/26 10:10:56 ET
Table 'T' 8-max
Seat 1: Ann ($1 in chips)
Seat 2: Bob (${stack} in chips)
Seat 3: Cat ($1 in chips)
Ann: posts the ante $0.01
Bob: posts the ante $0.01
Cat: posts the ante $0.01
*** 3rd STREET ***
Dealt to Ann [Kc]
Dealt to Bob [Qd]
Dealt to Cat [2s]
Cat: brings in for $0.02
Ann: calls $0.02
Bob: calls $0.02
*** 4th STREET ***
Dealt to Ann [Kc] [7d]
Dealt to Bob [Qd] [8h]
Dealt to Cat [2s] [3h]
{actions}
*** 5th STREET ***
Dealt to Ann [Kc 7d] [5c]
Dealt to Bob [Qd 8h] [9h]
*** 6th STREET ***
Dealt to Ann [Kc 7d 5c] [6d]
Dealt to Bob [Qd 8h 9h] [Td]
*** RIVER ***
*** SHOW DOWN ***
Ann: shows [Ac As Kc 7d 5c 6d 4h] (a pair of Aces)
Bob: shows [Jc Jd Qd 8h 9h Td 3c] (a straight, Eight to Queen)
Bob collected ${pot} from pot
*** SUMMARY ***
Total pot ${pot} | Rake $0
Seat 1: Ann showed [Ac As Kc 7d 5c 6d 4h] and lost with a pair of Aces
Seat 2: Bob showed [Jc Jd Qd 8h 9h Td 3c] and won (${pot}) with a straight, Eight to Queen
Seat 3: Cat folded on the 4th Street"""


def _hand(structure: Structure, bet: int, actions: str, side: int = 0) -> Hand:
    """The hand with Bob all-in on 4th street for `bet` cents by its `actions`, everyone
    having put `bet` in on 4th street, and Ann and Cat `side` cents more between them: Ann
    wins that side pot."""
    text = HAND.format(
        stack=f"{(3 + bet) / 100:.2f}",
        actions=actions,
        pot=f"{(9 + 3 * bet) / 100:.2f}",
    )
    if side:
        won = f"${side / 100:.2f}"
        text = text.replace(" from pot", f" from main pot\nAnn collected {won} from side pot")
        text = text.replace(
            "Total pot $", f"Total pot ${(9 + 3 * bet + side) / 100:.2f} Main pot $"
        )
        text = text.replace(" | Rake", f". Side pot {won}. | Rake", 1)
        text = text.replace("and lost with a pair of Aces", f"and won ({won}) with a pair of Aces")
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand)
    return replace(hand, structure=structure)


def _line(hand: Hand, text: str) -> int:
    """The line of the hand's first action whose line holds `text` (its player and kind)."""
    player, kind = text.split(": ")
    return next(a.line for a in hand.actions if a.player == player and a.kind.value == kind)


def _short_bet(bet: int) -> str:
    """Ann checks, Bob bets all-in for `bet` cents."""
    return f"Ann: checks\nBob: bets ${bet / 100:.2f} and is all-in\n"


def _checker_raises(structure: Structure, bet: int) -> Hand:
    """Cat calls Bob's short bet; Ann, who checked, raises it by the 4 cent bet; Cat folds."""
    return _hand(
        structure,
        bet,
        f"{_short_bet(bet)}Cat: calls ${bet / 100:.2f}\n"
        f"Ann: raises $0.04 to ${(bet + 4) / 100:.2f}\n"
        "Cat: folds\nUncalled bet ($0.04) returned to Ann",
    )


def _flags(hand: Hand, profile=POKERSTARS) -> list[tuple[str, str | None, int]]:  # type: ignore[no-untyped-def]
    return [(v.code, v.player, v.line) for v in replay(hand, profile).violations]


@pytest.mark.parametrize(
    ("structure", "bet", "profile"),
    [
        (Structure.FIXED, 1, POKERSTARS),  # a quarter of the bet: short of the half-bet rule
        (Structure.FIXED, 2, NO_HALF_BET),  # half a bet, in a house without the half-bet rule
        (Structure.SPREAD, 2, POKERSTARS),  # below the spread's bottom
        (Structure.POT_LIMIT, 2, POKERSTARS),  # below the smallest bet
        (Structure.NO_LIMIT, 2, POKERSTARS),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_a_checker_may_not_raise_a_short_all_in_bet(structure, bet, profile):
    """Ann checked (she acted) and faces less than a full bet: she may only call or fold."""
    hand = _checker_raises(structure, bet)
    assert _flags(hand, profile) == [("BET_SIZE", "Ann", _line(hand, "Ann: raise"))]
    (violation,) = replay(hand, profile).violations
    assert "did not reopen the betting" in violation.message
    assert replay_clean(hand, profile) is None


def test_half_a_bet_all_in_reopens_the_betting_under_the_half_bet_rule():
    """PokerStars' half-bet rule: Bob's all-in bet of half a bet counts as a full one, so
    Ann, who checked, may raise it; and the fast path gives the full replay's result."""
    hand = _checker_raises(Structure.FIXED, 2)
    assert _flags(hand) == []
    assert replay_clean(hand, POKERSTARS) == _Replayer(hand, POKERSTARS).run()


@pytest.mark.parametrize("structure", list(Structure), ids=str)
def test_a_player_yet_to_act_may_raise_a_short_all_in_bet(structure):
    """Cat had not acted on 4th street: the short bet leaves her free to raise (to a full bet
    over nothing, or in fixed limit the bet over Bob's), and Ann may then raise again."""
    total = 5 if structure is Structure.FIXED else 4
    hand = _hand(
        structure,
        1,
        f"{_short_bet(1)}Cat: raises ${(total - 1) / 100:.2f} to ${total / 100:.2f}\n"
        f"Ann: raises $0.04 to ${(total + 4) / 100:.2f}\nCat: folds\n"
        "Uncalled bet ($0.04) returned to Ann",
        side=2 * (total - 1),
    )
    assert _flags(hand) == []


@pytest.mark.parametrize("structure", [Structure.NO_LIMIT, Structure.FIXED], ids=str)
def test_a_player_who_acted_may_not_reraise_a_short_all_in(structure):
    """Ann bets, Bob raises all-in by a cent (too little to reopen the betting, in fixed
    limit under the half-bet rule as in no limit), Cat calls; Ann, who had acted on her own
    bet, raises again: she may only call or fold."""
    hand = _hand(
        structure,
        5,
        "Ann: bets $0.04\nBob: raises $0.01 to $0.05 and is all-in\nCat: calls $0.05\n"
        "Ann: raises $0.04 to $0.09\nCat: folds\nUncalled bet ($0.04) returned to Ann",
    )
    assert _flags(hand) == [("BET_SIZE", "Ann", _line(hand, "Ann: raise"))]


def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting():
    """No limit, TDA Rule 47's example: Ann bets 4 cents, Bob goes all-in for 5, Cat calls,
    Dan all-in for 8: Ann faces 4 more, a full raise, and may raise; Cat faces 3 and may not.
    Told by the engine, which the replay and the simulator ask."""
    table = _table(Structure.NO_LIMIT, {"Ann": 100, "Bob": 5, "Cat": 100, "Dan": 8})
    table.bet("Ann", 4, 4, counts_as_bet=True)
    table.bet("Bob", 5, 5, counts_as_bet=table.counts_as_bet(5, 8, True))
    table.call("Cat", 5)
    assert table.betting_closed("Ann") and not table.may_raise("Ann")  # faces 1 cent more
    table.bet("Dan", 8, 8, counts_as_bet=table.counts_as_bet(8, 9, True))
    assert not table.betting_closed("Ann") and table.may_raise("Ann")  # faces 4 more
    assert table.betting_closed("Cat") and not table.may_raise("Cat")  # faces 3 more
    assert table.options("Cat").may_raise is False
    table.bet("Ann", 12, 8, counts_as_bet=True)  # a full raise reopens it for everyone
    assert not table.betting_closed("Cat")


@pytest.mark.parametrize(
    ("structure", "profile", "closed"),
    [
        (Structure.FIXED, POKERSTARS, False),  # 2 of 4 cents over the bring-in: half a bet
        (Structure.FIXED, NO_HALF_BET, True),
        (Structure.SPREAD, POKERSTARS, True),
        (Structure.POT_LIMIT, POKERSTARS, True),
        (Structure.NO_LIMIT, POKERSTARS, True),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_a_player_who_called_the_bring_in_faces_a_short_completion(structure, profile, closed):
    """3rd street: Cat brings in for 1 cent, Ann calls, Bob completes all-in to 3 of the 4
    cents: Ann (she acted) may complete or raise only where that reopens the betting; the
    bring-in, a forced bet that Cat made, is acting too."""
    table = _table(structure, {"Ann": 100, "Bob": 3, "Cat": 100}, profile)
    table.post_bring_in("Cat", 1)
    table.call("Ann", 1)
    table.bet("Bob", 3, 3, counts_as_bet=table.counts_as_bet(3, 4, True))
    assert table.betting_closed("Ann") is closed
    assert table.betting_closed("Cat") is closed


def _table(structure: Structure, stacks: dict[str, int], profile=POKERSTARS) -> Table:  # type: ignore[no-untyped-def]
    """A table on the first betting street of 7-card stud at 4/8 cents, every player dealt in
    with no ante and the round open."""
    from handlog.model import Game, Seat, Street

    seats = tuple(
        Seat(number, name, stack) for number, (name, stack) in enumerate(stacks.items(), 1)
    )
    table = Table(Game.STUD, structure, profile, seats, 4, 8, bring_in=1)
    for name in stacks:
        table.deal_in(name)
    table.next_street(Street.THIRD)
    table.open_round()
    return table


def test_pokerkit_s_house_leaves_a_short_opening_all_in_open():
    """PHH hands that pokerkit plays: before any full bet a short all-in closes nothing
    (`RuleProfile.short_opening_all_in_reopens`), so Ann, who checked, may raise it."""
    from handlog.parse.sites.phh import POKERKIT

    hand = _checker_raises(Structure.FIXED, 1)
    assert _flags(hand, replace(POKERKIT, first_actor_tie=POKERSTARS.first_actor_tie)) == []
    assert _flags(hand, POKERSTARS) != []
