"""The simulator in every game and betting structure (issue 16): each simulated set parses
under its PokerStars name into the right `Hand.game` and `Hand.structure`, replays with no
violation and nets summing to minus the rake; every injected fault is flagged with its code
(the size rules of spread, pot and no limit among them), no clean hand is; the bet sizes
cover the legal range; the names round-trip through the printer.

Sized to keep the suite fast: a few hundred hands per game and structure (the thousands per
combination are run by hand, see README "handlog simulate")."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handlog import simulate
from handlog.check import check_file
from handlog.cli import app
from handlog.model import Game, Hand, Structure
from handlog.parse import parse_text
from handlog.parse.sites.pokerstars import GAME_NAMES, GAMES
from handlog.printer import print_hand
from handlog.rules.profiles import CASINO, POKERSTARS, RuleProfile
from handlog.rules.replay import replay
from handlog.simulate import (
    SIMULATED_GAMES,
    SIMULATED_STRUCTURES,
    SimulationOptions,
    StakesError,
    fault_codes,
    faults_path_for,
    parse_stakes,
    simulate_hands,
    write_simulation,
)
from handlog.simulate.deal import Deal

runner = CliRunner()

COMBINATIONS = [(game, structure) for game in SIMULATED_GAMES for structure in SIMULATED_STRUCTURES]
IDS = [f"{game.value}-{structure.value}" for game, structure in COMBINATIONS]
# Two tables a combination: eight players in cash (the community card, side pots) and three in
# a tournament (short stacks, heads-up streets).
TABLES = ((8, False, 200), (3, True, 100))


def _check(
    folder: Path, game: Game, structure: Structure, fault_rate: float
) -> tuple[list, dict[str, str]]:
    checked = []
    faults: dict[str, str] = {}
    for number, (players, tournament, hands) in enumerate(TABLES):
        options = SimulationOptions(
            game,
            hands,
            players,
            seed=200 + number,
            tournament=tournament,
            fault_rate=fault_rate,
            structure=structure,
        )
        path = folder / f"{game.value}-{structure.value}-{number}.txt"
        assert write_simulation(options, path).hands == hands
        checked.extend(check_file(str(path)))
        if fault_rate:
            for line in Path(faults_path_for(path)).read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                faults[entry["hand_id"]] = entry["code"]
    return checked, faults


@pytest.mark.parametrize(("game", "structure"), COMBINATIONS, ids=IDS)
def test_every_game_and_structure_replays_clean(
    tmp_path: Path, game: Game, structure: Structure
) -> None:
    checked, _ = _check(tmp_path, game, structure, 0.0)
    assert len(checked) == sum(hands for _, _, hands in TABLES)
    flagged = [
        f"{c.hand_id}: {v.code}: {v.message}"
        for c in checked
        if c.replay is not None
        for v in c.replay.violations
    ]
    assert Counter(c.status for c in checked) == {"ok": len(checked)}, flagged[:10]
    for c in checked:
        assert c.hand is not None and c.replay is not None
        assert (c.hand.game, c.hand.structure) == (game, structure)
        assert sum(c.replay.net.values()) == -c.hand.rake, c.hand_id


@pytest.mark.parametrize(("game", "structure"), COMBINATIONS, ids=IDS)
def test_every_injected_fault_is_caught(tmp_path: Path, game: Game, structure: Structure) -> None:
    checked, faults = _check(tmp_path, game, structure, 0.4)
    hands = {c.hand_id: c for c in checked}
    missed = []
    for hand_id, code in faults.items():
        result = hands[hand_id].replay
        assert result is not None
        if code not in {v.code for v in result.violations}:
            missed.append((hand_id, code, [v.code for v in result.violations]))
    assert not missed, missed[:10]
    false_flags = [
        (c.hand_id, [v.code for v in c.replay.violations])
        for c in checked
        if c.hand_id not in faults and c.replay is not None and c.replay.violations
    ]
    assert not false_flags, false_flags[:10]
    assert set(faults.values()) <= set(fault_codes(game, structure))
    assert len(set(faults.values())) >= len(fault_codes(game, structure)) - 6  # most of them


def test_fault_codes_by_game_and_structure() -> None:
    for game in SIMULATED_GAMES:
        assert "RAISE_CAP" in fault_codes(game, Structure.FIXED)
        assert "RAISE_CAP" in fault_codes(game, Structure.SPREAD)  # PokerStars: spread_capped
        assert "RAISE_CAP" not in fault_codes(game, Structure.POT_LIMIT)
        assert "RAISE_CAP" not in fault_codes(game, Structure.NO_LIMIT)
        assert "BET_SIZE" in fault_codes(game, Structure.NO_LIMIT)
        assert ("LOW_NOT_QUALIFIED" in fault_codes(game)) == (game is Game.STUD8)
        assert ("COMMUNITY_CARD" in fault_codes(game)) == (game is not Game.STUD5)
    uncapped = dataclasses.replace(POKERSTARS, spread_capped=False)
    assert "RAISE_CAP" not in fault_codes(Game.STUD, Structure.SPREAD, uncapped)
    # The fixed-limit codes of the PokerStars games are as before.
    assert fault_codes(Game.STUD8) == simulate.FAULT_CODES


@pytest.mark.parametrize(
    ("structure", "kinds"),
    [
        (Structure.SPREAD, {"above the top of the spread"}),
        (Structure.POT_LIMIT, {"above the pot", "below the least raise"}),
        (Structure.NO_LIMIT, {"below the least raise"}),
    ],
    ids=["spread", "pot", "no"],
)
def test_size_faults_of_each_structure(structure: Structure, kinds: set[str]) -> None:
    """BET_SIZE in the structures with a range of sizes: a spread bet above its top, a pot-limit
    bet above the pot or a raise below the least, a no-limit raise below the least."""
    seen: set[str] = set()
    for game in (Game.STUD, Game.RAZZ, Game.STUD5):
        options = SimulationOptions(game, 400, 6, seed=3, fault_rate=0.5, structure=structure)
        for simulated in simulate_hands(options):
            if simulated.fault != "BET_SIZE":
                continue
            (hand,) = parse_text(simulated.text)
            assert isinstance(hand, Hand)
            for violation in replay(hand, POKERSTARS).violations:
                if violation.code != "BET_SIZE":
                    continue
                if "exceeds the top of the spread" in violation.message:
                    seen.add("above the top of the spread")
                elif "exceeds the pot maximum" in violation.message:
                    seen.add("above the pot")
                elif "less than the minimum" in violation.message:
                    seen.add("below the least raise")
    assert seen == kinds


@pytest.mark.parametrize(
    "structure", [Structure.SPREAD, Structure.POT_LIMIT, Structure.NO_LIMIT], ids=str
)
def test_bet_sizes_cover_the_legal_range(
    monkeypatch: pytest.MonkeyPatch, structure: Structure
) -> None:
    """Players choose among the legal amounts: the least, the most (the pot, the top of the
    spread), amounts in between, all-in, and all-in for less than the least (side pots)."""
    chosen: Counter[str] = Counter()
    original = Deal.bet_to

    def counting(
        deal: Deal, player: int, target: int, least: int, all_in: bool | None = None
    ) -> None:
        low, most = deal.table.raise_range(deal.names[player])
        assert low == least
        if target == deal.on_street(player) + deal.chips(player):
            chosen["all-in"] += 1
        if target < least:
            chosen["short all-in"] += 1
        elif target == least:
            chosen["least"] += 1
        elif most is not None and target == most:
            chosen["most"] += 1
        else:
            chosen["between"] += 1
        original(deal, player, target, least, all_in)

    monkeypatch.setattr(Deal, "bet_to", counting)
    hands = list(simulate_hands(SimulationOptions(Game.STUD, 600, 6, seed=5, structure=structure)))
    expected = {"least", "between", "all-in", "short all-in"}
    if structure is not Structure.NO_LIMIT:
        expected.add("most")
    assert expected <= {kind for kind, count in chosen.items() if count}, chosen
    assert any("Side pot" in hand.text for hand in hands)
    capped = any("Betting is capped" in hand.text for hand in hands)
    assert capped == (structure is Structure.SPREAD)


# -- names -----------------------------------------------------------------------------------


def test_every_game_and_structure_has_a_pokerstars_name() -> None:
    assert GAME_NAMES[Game.STUD, Structure.FIXED] == "7 Card Stud Limit"
    assert GAME_NAMES[Game.RAZZ, Structure.FIXED] == "Razz Limit"
    assert GAME_NAMES[Game.STUD5, Structure.FIXED] == "5 Card Stud Limit"
    assert GAME_NAMES[Game.STUD8, Structure.POT_LIMIT] == "7 Card Stud Hi/Lo Pot Limit"
    assert GAME_NAMES[Game.STUD, Structure.NO_LIMIT] == "7 Card Stud No Limit"
    assert GAME_NAMES[Game.RAZZ, Structure.SPREAD] == "Razz Spread Limit"
    assert GAME_NAMES[Game.RAZZ27, Structure.FIXED] == "2-7 Razz Limit"
    assert GAME_NAMES[Game.RAZZ_A6, Structure.POT_LIMIT] == "London Lowball Pot Limit"
    assert GAME_NAMES[Game.STUD_HILO, Structure.FIXED] == "7 Card Stud Hi/Lo Any Low Limit"
    assert len(set(GAME_NAMES.values())) == len(GAME_NAMES) == len(Game) * len(Structure)
    assert all(GAMES[name.lower()] is game for (game, _), name in GAME_NAMES.items())


@pytest.mark.parametrize(("game", "structure"), COMBINATIONS, ids=IDS)
def test_simulated_hands_round_trip_through_the_printer(game: Game, structure: Structure) -> None:
    for tournament in (False, True):
        options = SimulationOptions(game, 25, 8, seed=1, tournament=tournament, structure=structure)
        for simulated in simulate_hands(options):
            (hand,) = parse_text(simulated.text)
            assert isinstance(hand, Hand)
            assert (hand.game, hand.structure) == (game, structure)
            text = print_hand(hand)
            assert f" {GAME_NAMES[game, structure]} " in text.splitlines()[0]
            (again,) = parse_text(text)
            assert again == hand
            assert print_hand(again) == text


# -- fixed limit as before ------------------------------------------------------------------

FIXED_DIGESTS = {
    Game.STUD: "76b1f47c39e00a41ea4e415c22d75c966e28bc60b820b02bc499651b583d41ed",
    Game.STUD8: "851764fda3e59002ca4ecac949942047ab9957acd70c07535702d07c9f6b7d7b",
    Game.RAZZ: "faedc095ae0c509d8341382dfd441254d114c5fda6ad1b81fdd065fc880b5f76",
}
"""SHA-256 of 300 hands (six players, seed 3, a fifth faulted) as the simulator wrote them
before it played other games and structures, with the spaces that ended some of its lines
("checks ", "folds ") taken off: since the simulator builds records that the PokerStars
printer writes, that is its text. The PokerStars games in fixed limit are dealt and played
exactly as before. (For a while the rules engine let a player who checked raise a short
all-in bet that opened a street's betting, and the stud and stud/8 digests changed; the
engine now closes the betting to anyone who has acted and faces less than a full bet,
`Table.betting_closed`, as the old simulator did, and these are the old digests again.)"""


@pytest.mark.parametrize("game", list(FIXED_DIGESTS), ids=lambda game: game.value)
def test_fixed_limit_output_is_unchanged(game: Game) -> None:
    text = "".join(
        hand.text + "\n\n\n\n"
        for hand in simulate_hands(SimulationOptions(game, 300, 6, seed=3, fault_rate=0.2))
    )
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == FIXED_DIGESTS[game]


# -- stakes and the command ---------------------------------------------------------------


def test_stakes_by_structure() -> None:
    assert parse_stakes("0.05/0.20", structure=Structure.SPREAD).big_bet == 20
    assert parse_stakes("0.04/0.08", structure=Structure.NO_LIMIT).small_bet == 4
    assert parse_stakes("0.10/0.10", structure=Structure.POT_LIMIT).big_bet == 10
    with pytest.raises(StakesError, match="top must be above its bottom"):
        parse_stakes("0.10/0.10", structure=Structure.SPREAD)
    with pytest.raises(StakesError, match="twice the small bet"):
        parse_stakes("0.05/0.20")
    cash = next(
        iter(simulate_hands(SimulationOptions(Game.STUD, 1, 4, seed=1, structure=Structure.SPREAD)))
    )
    assert "  7 Card Stud Spread Limit ($0.04/$0.16 USD) - " in cash.text.splitlines()[0]


def test_simulate_command_with_a_structure(tmp_path: Path) -> None:
    target = tmp_path / "london.txt"
    result = runner.invoke(
        app,
        ["simulate", "--game", "razz_a6", "--structure", "pot", "--hands", "60"]
        + ["--seed", "2", "--faults", "0.3", "--out", str(target)],
    )
    assert result.exit_code == 0, result.output
    assert "wrote 60 razz_a6 pot limit hands" in result.output
    assert "London Lowball Pot Limit" in target.read_text(encoding="utf-8")
    faults = [json.loads(line) for line in Path(faults_path_for(target)).read_text().splitlines()]
    checked = runner.invoke(app, ["check", "--json", str(target)])
    objects = {o["hand_id"]: o for o in map(json.loads, checked.stdout.splitlines())}
    assert len(objects) == 60
    for entry in faults:
        assert entry["code"] in {v["code"] for v in objects[entry["hand_id"]]["violations"]}
    injected = {entry["hand_id"] for entry in faults}
    assert all(o["status"] == "ok" for hand_id, o in objects.items() if hand_id not in injected)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--game", "stud", "--structure", "limit"], "--structure must be one of fixed, spread"),
        (["--game", "omaha"], "--game must be one of stud, stud8, razz, stud5, razz27"),
        (["--game", "stud", "--structure", "spread", "--stakes", "1/1"], "top must be above"),
    ],
)
def test_simulate_command_rejects_bad_structures(
    tmp_path: Path, arguments: list[str], message: str
) -> None:
    target = tmp_path / "never.txt"
    result = runner.invoke(app, ["simulate", "--hands", "10", "--out", str(target), *arguments])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not target.exists()


@pytest.mark.parametrize(
    ("game", "structure", "profile"),
    [
        (Game.STUD5, Structure.FIXED, CASINO),  # the open pair's double bet on 3rd street
        (Game.STUD5, Structure.SPREAD, CASINO),
        (Game.STUD_HILO, Structure.POT_LIMIT, CASINO),
        (Game.RAZZ, Structure.NO_LIMIT, CASINO),
        (
            Game.STUD,
            Structure.SPREAD,
            dataclasses.replace(POKERSTARS, spread_raise_at_least_last=False, spread_capped=False),
        ),
    ],
    ids=[
        "stud5-fixed-casino",
        "stud5-spread-casino",
        "stud_hilo-pot-casino",
        "razz-no-casino",
        "stud-spread-open",
    ],
)
def test_other_house_rules_in_other_structures(
    game: Game, structure: Structure, profile: RuleProfile
) -> None:
    """The simulator asks the profile in every structure: the casino's (no cap heads-up,
    burns), a spread whose raises need not match the last and whose raises are not capped."""
    options = SimulationOptions(game, 300, 8, seed=9, profile=profile, fault_rate=0.2)
    options = dataclasses.replace(options, structure=structure)
    for simulated in simulate_hands(options):
        (hand,) = parse_text(simulated.text)
        assert isinstance(hand, Hand)
        codes = {v.code for v in replay(hand, profile).violations}
        if simulated.fault is None:
            assert not codes, (simulated.hand_id, codes)
        else:
            assert simulated.fault in codes, (simulated.hand_id, simulated.fault, codes)


def test_a_hand_must_start_on_its_games_first_street() -> None:
    """2nd and 3rd street are both optional in the grammar (5-card stud starts at 2nd): the
    reader still refuses a hand without its game's first street, as before."""
    from handlog.errors import ParseError

    (simulated,) = simulate_hands(SimulationOptions(Game.STUD5, 1, 4, seed=3))
    assert "*** 2nd STREET ***" in simulated.text
    (hand,) = parse_text(simulated.text)
    assert isinstance(hand, Hand) and hand.streets[0].value == 2
    lines = simulated.text.split("\n")
    start = lines.index("*** 2nd STREET ***")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("*** "))
    (broken,) = parse_text("\n".join(lines[:start] + lines[end:]))  # 2nd street left out
    assert isinstance(broken, ParseError)
    assert "out of place here (expected *** 2nd STREET ***)" in str(broken)
