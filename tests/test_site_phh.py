"""PHH read like a site: hands pokerkit plays and writes import clean with pokerkit's nets,
and handlog's own PHH export reads back to the hands it came from."""

from __future__ import annotations

import random
from pathlib import Path

import duckdb
import pytest

from handlog.check import check_file
from handlog.importer import import_paths
from handlog.model import Game, Hand, Site
from handlog.parse import parse_file, parse_text
from handlog.parse.sites import phh
from handlog.rules.replay import replay

from .conftest import SAMPLE_LOGS

pokerkit = pytest.importorskip("pokerkit")

GAMES = {
    "F7S": pokerkit.FixedLimitSevenCardStud,
    "F7S/8": pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "FR": pokerkit.FixedLimitRazz,
}
HANDS_PER_GAME = 120
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_DEALING,
    pokerkit.Automation.BOARD_DEALING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


def _pokerkit_hand(variant: str, rng: random.Random) -> tuple[str, list[int]]:
    """One hand pokerkit deals (its own shuffled deck) and plays with random legal actions,
    as the PHH text pokerkit writes of it, and every player's net."""
    players = rng.randint(2, 6)  # 6 x 7 cards and the burns fit one deck: no community card
    stacks = [
        rng.randint(3, 30) if rng.random() < 0.15 else rng.randint(30, 400) for _ in range(players)
    ]
    game = GAMES[variant](AUTOMATIONS, True, 1, 2, 4, 8)
    state = game(stacks, players)
    while state.status:
        if state.can_post_bring_in():  # the bring-in, or a completion instead
            if rng.random() < 0.7 or not state.can_complete_bet_or_raise_to():
                state.post_bring_in()
            else:
                state.complete_bet_or_raise_to()
        elif state.actor_index is not None:
            roll = rng.random()
            if roll < 0.15 and state.can_fold():
                state.fold()
            elif roll < 0.45 and state.can_complete_bet_or_raise_to():
                state.complete_bet_or_raise_to()
            else:
                state.check_or_call()
        else:  # pragma: no cover - every other step is automated
            raise AssertionError("pokerkit waits for an action this test does not take")
    text = pokerkit.HandHistory.from_game_state(game, state).dumps()
    return text, [end - start for end, start in zip(state.stacks, stacks, strict=True)]


@pytest.mark.parametrize("variant", list(GAMES))
def test_hands_pokerkit_writes_import_clean_with_its_nets(variant, tmp_path):
    random.seed(7)  # pokerkit's own shuffle
    rng = random.Random(variant)
    texts, nets = [], []
    for _ in range(HANDS_PER_GAME):
        text, net = _pokerkit_hand(variant, rng)
        texts.append(text)
        nets.append(net)
    path = tmp_path / "pokerkit.phhs"
    path.write_text("".join(f"[{n}]\n{t}\n" for n, t in enumerate(texts, start=1)))
    checked = list(check_file(path))
    assert len(checked) == HANDS_PER_GAME
    merged = 0
    for item, net in zip(checked, nets, strict=True):
        assert item.hand is not None and item.replay is not None, item.error
        assert item.hand.game is phh.GAMES[variant]
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        if variant == "F7S/8" and len(item.replay.pots) > 1:
            # pokerkit merges the pots whose possible winners are the same before halving
            # them (one odd chip); the rules handlog replays halve each pot (an odd chip
            # each). Only such hands may differ, by those chips.
            merged += 1
            continue
        players = [seat.name for seat in item.hand.seats]
        assert [item.replay.net[p] for p in players] == net, item.hand.hand_id
    assert merged <= HANDS_PER_GAME // 3


def test_handlogs_phh_export_reads_back_to_the_same_hands(tmp_path):
    """Every sample hand PHH can express, exported and imported again: zero violations under
    the profile of the site they came from, the same nets, hand by hand."""
    from handlog.phh import export

    db = tmp_path / "h.duckdb"
    import_paths(sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt")), db, workers=1)
    connection = duckdb.connect(str(db), read_only=True)
    summary = export(connection, tmp_path / "phh")
    nets = {
        (hand_id, player): net
        for hand_id, player, net in connection.execute(
            "SELECT hand_id, player, net FROM hand_players"
        ).fetchall()
    }
    connection.close()
    assert summary.hands >= 25
    back = tmp_path / "back.duckdb"
    exported = sorted(str(p) for p in (tmp_path / "phh").rglob("*.phhs"))
    imported = import_paths(exported, back, "pokerstars", workers=1)
    assert (imported.new_hands, imported.unparsed) == (summary.hands, 0)
    assert imported.flagged_illegal == imported.flagged_mis_split == 0
    connection = duckdb.connect(str(back), read_only=True)
    rows = connection.execute("SELECT site, hand_id, player, net FROM hand_players").fetchall()
    connection.close()
    assert {site for site, *_ in rows} == {"phh"}
    for _, hand_id, player, net in rows:
        assert nets[hand_id.removeprefix("pokerstars-"), player] == net, (hand_id, player)


def test_without_finishing_stacks_the_pots_are_paid_by_the_rules():
    (hand,) = parse_file(Path(__file__).parent / "sites" / "phh" / "pokerkit-stud.phh")
    assert isinstance(hand, Hand) and hand.results == ()
    result = replay(hand, phh.POKERKIT, phh.TRAITS)
    assert result.violations == ()
    assert result.collected == {"p1": 0, "p2": 0, "p3": 153}


FINISHED = """\
variant = 'FR'
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [50, 60]
players = ['Ann', 'Bob']
finishing_stacks = [{ann}, {bob}]
actions = [
  'd dh p1 ????Kc',
  'd dh p2 ????3d',
  'p1 pb',
  'p2 cbr 4',
  'p1 f',
]
"""


def test_finishing_stacks_are_the_collections_the_replay_checks():
    (hand,) = parse_text(FINISHED.format(ann=47, bob=63), "fold.phh")
    assert isinstance(hand, Hand) and hand.site is Site.PHH and hand.game is Game.RAZZ
    # Bob's completion comes back uncalled (PHH prints no return): he collects the antes
    # and the bring-in.
    result = replay(hand, phh.POKERKIT, phh.TRAITS)
    assert result.violations == ()
    assert result.net == {"Ann": -3, "Bob": 3}
    # Stacks that pay out less than the pot (5 of 6 chips) are not a hand.
    (wrong,) = parse_text(FINISHED.format(ann=50, bob=59), "fold.phh")
    assert not isinstance(wrong, Hand)
    assert "the finishing stacks pay out 5, but the pot less the rake is 6" in wrong.message
    # Both paid 3: the stacks add up, and the replay says Ann, who folded, has no part in it.
    (split,) = parse_text(FINISHED.format(ann=50, bob=60), "fold.phh")
    assert isinstance(split, Hand)
    codes = [v.code for v in replay(split, phh.POKERKIT, phh.TRAITS).violations]
    assert codes == ["NOT_ELIGIBLE"]


def test_a_phh_hand_that_is_not_toml_is_one_error_with_its_line():
    (error,) = parse_text(FINISHED.format(ann=47, bob=63).replace("big_bet = 8", "big_bet = "))
    assert not isinstance(error, Hand)
    assert "not valid PHH" in error.message and error.line == 5
