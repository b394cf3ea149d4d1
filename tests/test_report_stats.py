"""Each report statistic on small hand-written hands, the right answer worked out by hand.

Hands are written as the frames `handlog.report.data.load` reads from the database: who
was dealt in with what net, and the betting actions in order. The comments say why each
expected figure is what it is.
"""

from __future__ import annotations

import datetime as dt
import math

import polars as pl
import pytest

from handlog.report import compute
from handlog.report.data import Frames

T0 = dt.datetime(2024, 3, 1, 20, 0, 0)


def _frames(*hands: dict) -> Frames:
    hand_rows, player_rows, action_rows = [], [], []
    for hk, hand in enumerate(hands, start=1):
        hand_rows.append(
            {
                "hk": hk,
                "site": "pokerstars",
                "hand_id": str(1000 + hk),
                "game": hand.get("game", "stud"),
                "unit": hand.get("unit", "USD"),
                "small_bet": hand.get("big_bet", 8) // 2,
                "big_bet": hand.get("big_bet", 8),
                "structure": hand.get("structure", "fixed"),
                "bring_in": hand.get("bring_in", 2),
                "table_key": hand.get("table", "Alpha"),
                "table_name": hand.get("table", "Alpha"),
                "start_utc": hand.get("start", T0 + dt.timedelta(minutes=2 * hk)),
                "status": "ok",
            }
        )
        for seat, (name, figures) in enumerate(hand["players"].items(), start=1):
            net, collected = figures[0], figures[1]
            extra = figures[2] if len(figures) > 2 else {}
            player_rows.append(
                {
                    "hk": hk,
                    "player": name,
                    "seat": seat,
                    "put_in": collected - net,
                    "collected": collected,
                    "net": net,
                    "rake_share": extra.get("rake", 0),
                    "cards": extra.get("cards", "?? ?? 2c ?? ?? ?? ??"),
                    "showed": extra.get("showed", False),
                    "won_high": extra.get("won_high"),
                    "won_low": extra.get("won_low"),
                }
            )
        for seq, action in enumerate(hand["actions"].split(",")):
            street, player, kind = action.split()
            action_rows.append(
                {"hk": hk, "seq": seq, "street": int(street), "player": player, "kind": kind}
            )
    empty_violations = pl.DataFrame(
        schema={"hk": pl.Int32, "mis_split": pl.Boolean, "start_utc": pl.Datetime("us")}
    )
    return Frames(
        hands=pl.DataFrame(hand_rows),
        players=pl.DataFrame(player_rows),
        actions=pl.DataFrame(action_rows).with_columns(pl.col("street").cast(pl.Int8)),
        violations=empty_violations,
        parse_errors=pl.DataFrame(),
    )


def _stats(frames: Frames) -> dict[str, dict]:
    rows = compute.player_hands(frames)
    flags = compute.hand_flags(frames, rows)
    table = compute.stud_stats(frames, flags)
    return {(r["player"], r["game"]): r for r in table.to_dicts()}  # type: ignore[misc]


# A: brings in, B folds, C completes with one player (D) left behind him: a steal; D and A
# fold to it.
STEAL = {
    "players": {"A": (-3, 0), "B": (-1, 0), "C": (5, 9), "D": (-1, 0)},
    "actions": "3 A bring_in,3 B fold,3 C complete,3 D fold,3 A fold",
}
# A brings in, B completes (a steal: two players behind him), C re-raises (a 3-bet), D
# folds, A folds, B calls; B and C check 4th to 7th; C wins at showdown.
THREE_BET = {
    "players": {
        "A": (-3, 0),
        "B": (-17, 0, {"showed": True}),
        "C": (20, 37, {"showed": True}),
        "D": (-1, 0),
    },
    "actions": "3 A bring_in,3 B complete,3 C raise,3 D fold,3 A fold,3 B call,"
    "4 B check,4 C check,5 B check,5 C check,6 B check,6 C check,7 B check,7 C check",
}
# 8 players, A brings in and completes at once (no bring-in posted); everyone folds but H,
# who calls; on 4th A bets, H folds: A wins without showdown, H saw 4th only.
EIGHT = {
    "players": {"A": (9, 18), **{p: (-1, 0) for p in "BCDEFG"}, "H": (-5, 0)},
    "actions": "3 A complete,3 B fold,3 C fold,3 D fold,3 E fold,3 F fold,3 G fold,3 H call,"
    "4 A bet,4 H fold",
}


def test_third_street_statistics():
    stats = _stats(_frames(STEAL, THREE_BET, EIGHT))
    a, b, c, d = (stats[(p, "stud")] for p in "ABCD")
    h = stats[("H", "stud")]
    # Hands: A, B, C, D were in all three hands; H in one.
    assert (a["hands"], h["hands"]) == (3, 1)
    # VPIP: A's bring-ins are forced; A completed in EIGHT → 1/3. B completed in THREE_BET
    # (and folded in STEAL) → 1/3; C completed in STEAL, raised in THREE_BET → 2/3.
    assert a["vpip"] == pytest.approx(1 / 3)
    assert b["vpip"] == pytest.approx(1 / 3)
    assert c["vpip"] == pytest.approx(2 / 3)
    assert h["vpip"] == 1.0
    # Bring-in: A had it in all three hands and completed it once (EIGHT).
    assert a["bring_ins"] == 3
    assert a["bring_in_completed"] == pytest.approx(1 / 3)
    # Steal chances: folded to with at most two players left behind (not counting the
    # bring-in). STEAL: B (C, D behind) and C (D behind) had one; D came after the steal.
    # THREE_BET: B had one (C, D behind); C faced a completion. EIGHT: none (completed by
    # the bring-in).
    assert (b["steal_chances"], c["steal_chances"], d["steal_chances"]) == (2, 1, 0)
    assert b["steal"] == pytest.approx(1 / 2)  # completed in THREE_BET only
    assert c["steal"] == 1.0
    # Steal success: C's steal won the pot (nobody called); B's was re-raised.
    assert c["steal_success"] == 1.0
    assert b["steal_success"] == 0.0
    # Fold to steal: STEAL: D and A folded to C's steal. THREE_BET: C faced B's steal and
    # re-raised; D, A folded after C's re-raise, so they did not face the steal alone.
    assert d["fold_to_steal"] == 1.0
    assert a["fold_to_steal"] == 1.0
    assert c["fold_to_steal"] == 0.0
    # 3-bet: the chance is facing a completion that nobody raised yet: C in THREE_BET
    # (raised) and everyone after A's completion in EIGHT (B-G folded, H called).
    assert c["three_bet"] == pytest.approx(1 / 2)
    assert (b["three_bet"], h["three_bet"]) == (0.0, 0.0)
    # A faced C's lone completion in STEAL (folded); in THREE_BET it was already raised.
    assert a["three_bet"] == 0.0
    # Complete/raise on 3rd: C twice in three hands, A once.
    assert c["complete_raise"] == pytest.approx(2 / 3)
    assert a["complete_raise"] == pytest.approx(1 / 3)


def test_streets_seen_and_showdowns():
    stats = _stats(_frames(STEAL, THREE_BET, EIGHT))
    a, b, c = (stats[(p, "stud")] for p in "ABC")
    h = stats[("H", "stud")]
    # B and C went to 7th and showdown in THREE_BET; A saw 4th in EIGHT (won there).
    assert (b["saw_4th"], b["saw_7th"]) == (pytest.approx(1 / 3), pytest.approx(1 / 3))
    assert a["saw_4th"] == pytest.approx(1 / 3)
    assert a["saw_5th"] == 0.0
    assert h["saw_4th"] == 1.0 and h["saw_5th"] == 0.0
    # Went to showdown, of the hands that saw 4th: B 1/1, C 1/1, A 0/1.
    assert (b["went_to_showdown"], c["went_to_showdown"], a["went_to_showdown"]) == (1, 1, 0)
    # Won at showdown: C yes, B no.
    assert (c["won_at_showdown"], b["won_at_showdown"]) == (1.0, 0.0)
    # Won without showdown, of all hands: C's steal (1/3), A on 4th in EIGHT (1/3).
    assert c["won_without_showdown"] == pytest.approx(1 / 3)
    assert a["won_without_showdown"] == pytest.approx(1 / 3)
    # Hi/lo columns are for stud8 only.
    assert c["scoop"] is None and c["qualifying_low"] is None


def test_aggression_by_street():
    stats = _stats(_frames(STEAL, THREE_BET, EIGHT))
    a, b, c = (stats[(p, "stud")] for p in "ABC")
    # 3rd street, bring-ins not counted. C: complete (STEAL), raise (THREE_BET), fold
    # (EIGHT), no calls: factor undefined (no calls), frequency 2/3.
    assert c["af_3"] is None and c["afq_3"] == pytest.approx(2 / 3)
    # B on 3rd: fold (STEAL), complete + call (THREE_BET), fold (EIGHT): factor 1/1,
    # frequency 1/4.
    assert b["af_3"] == 1.0 and b["afq_3"] == pytest.approx(1 / 4)
    # A on 4th: a bet in EIGHT: factor none (no call), frequency 1/1. A on 3rd: fold,
    # fold, complete → 1/3.
    assert a["afq_4"] == 1.0 and a["afq_3"] == pytest.approx(1 / 3)
    # B on 4th-7th: checks only → frequency 0, factor undefined.
    assert b["afq_5"] == 0.0 and b["af_5"] is None


def test_hi_lo_statistics():
    # Stud8, three players to showdown. Hand 1: X scoops (high and the only low). Hand 2:
    # X wins high, Y and Z tie for low (both quartered). Hand 3: Y wins high, no low
    # qualified. X's 7 cards are known in every hand; 2 of 3 hold five ranks A-8.
    showdown = "3 X bring_in,3 Y call,3 Z call,4 X check,4 Y check,4 Z check"
    low7 = "As 2d 3c 4h 8s Kd Kc"
    no_low = "As 2d 9c 4h 9s Kd Kc"
    hands = [
        {
            "game": "stud8",
            "players": {
                "X": (20, 30, {"showed": True, "won_high": True, "won_low": True, "cards": low7}),
                "Y": (-10, 0, {"showed": True, "won_high": False, "won_low": False}),
                "Z": (-10, 0, {"showed": True, "won_high": False, "won_low": False}),
            },
            "actions": showdown,
        },
        {
            "game": "stud8",
            "players": {
                "X": (5, 15, {"showed": True, "won_high": True, "won_low": False, "cards": low7}),
                "Y": (-3, 7, {"showed": True, "won_high": False, "won_low": True}),
                "Z": (-2, 8, {"showed": True, "won_high": False, "won_low": True}),
            },
            "actions": showdown,
        },
        {
            "game": "stud8",
            "players": {
                "X": (
                    -10,
                    0,
                    {"showed": True, "won_high": False, "won_low": False, "cards": no_low},
                ),
                "Y": (20, 30, {"showed": True, "won_high": True, "won_low": False}),
                "Z": (-10, 0, {"showed": True, "won_high": False, "won_low": False}),
            },
            "actions": showdown,
        },
        # Hand 4: Y and Z fold to X's completion; X wins the pot uncontested (stored as
        # won_high, as the importer does) but that is not a showdown and counts nowhere here.
        {
            "game": "stud8",
            "players": {
                "X": (3, 6, {"won_high": True, "won_low": False}),
                "Y": (-2, 0, {"won_high": False, "won_low": False}),
                "Z": (-1, 0, {"won_high": False, "won_low": False}),
            },
            "actions": "3 Y bring_in,3 X complete,3 Z fold,3 Y fold",
        },
    ]
    stats = _stats(_frames(*hands))
    x, y, z = (stats[(p, "stud8")] for p in "XYZ")
    assert x["showdowns"] == 3
    assert x["scoop"] == pytest.approx(1 / 3)  # hand 1 only: the only player to collect
    assert x["won_high"] == pytest.approx(2 / 3)
    assert x["won_low"] == pytest.approx(1 / 3)
    assert (y["quartered"], z["quartered"], x["quartered"]) == (
        pytest.approx(1 / 3),
        pytest.approx(1 / 3),
        0.0,
    )
    assert y["scoop"] == pytest.approx(1 / 3)  # hand 3
    assert x["no_low_qualified"] == 1  # hand 3
    assert x["qualifying_low"] == pytest.approx(2 / 3)
    # Y's and Z's cards are not known: no share.
    assert y["qualifying_low"] is None


def test_eight_or_better_low_is_ranked_the_way_of_each_game():
    # X's seven cards in each hand; razz counts five ranks ace to eight, 2-7 razz and London
    # lowball need the best low without a pair, straight or flush to be eight high or lower
    # (the ace high in 2-7, low in London lowball).
    showdown = "3 Y bring_in,3 X call,4 Y check,4 X check"
    shown = [
        ("razz", "2c 3c 4c 5c 7c Kd Qh"),  # 7-5-4-3-2
        ("razz", "Ac 2d 3h 4s 5c Kd Kh"),  # 5-4-3-2-A
        ("razz", "9c 9d 4h 3s 2c Kd Kh"),  # no: four ranks to the eight
        ("razz27", "2c 3c 4c 5c 7c Kd Qh"),  # no: a flush, or Q-5-4-3-2
        ("razz27", "8d 6c 4h 3s 2c Kd Kh"),  # 8-6-4-3-2
        ("razz27", "Ac 2d 3h 4s 5c Kd Kh"),  # no: K-5-4-3-2, the ace is high
        ("razz27", "2c 3d 4h 5s 6c Kd Kh"),  # no: a straight, or K-5-4-3-2
        ("razz_a6", "Ac 2d 3h 4s 5c Kd Kh"),  # no: a straight, or K-4-3-2-A
        ("razz_a6", "6c 4d 3h 2s Ac Kd Kh"),  # 6-4-3-2-A
        ("stud_hilo", "As 2d 3c 4h 8s Kd Kc"),  # 8-4-3-2-A: no qualifier, but the figure's
        ("stud_hilo", "As 2d 9c 4h 9s Kd Kc"),  # eight still counts; no
    ]
    hands = [
        {
            "game": game,
            "players": {
                "X": (4, 8, {"showed": True, "won_high": True, "won_low": False, "cards": cards}),
                "Y": (-4, 0, {"showed": True, "won_high": False, "won_low": False}),
            },
            "actions": showdown,
        }
        for game, cards in shown
    ]
    stats = _stats(_frames(*hands))
    assert stats[("X", "razz")]["qualifying_low"] == pytest.approx(2 / 3)
    assert stats[("X", "razz27")]["qualifying_low"] == pytest.approx(1 / 4)
    assert stats[("X", "razz_a6")]["qualifying_low"] == pytest.approx(1 / 2)
    assert stats[("X", "stud_hilo")]["qualifying_low"] == pytest.approx(1 / 2)
    assert stats[("Y", "razz27")]["qualifying_low"] is None  # cards not known


def test_win_rates_sessions_and_hours():
    # Hero plays 4 hands at Alpha 2 minutes apart, then a fifth 40 minutes later (a new
    # session), and one at Beta in between (another table, another session).
    def hand(minutes: int, net: int, table: str = "Alpha") -> dict:
        return {
            "table": table,
            "start": T0 + dt.timedelta(minutes=minutes),
            "players": {"Hero": (net, max(net, 0), {"rake": 1 if net > 0 else 0}), "V": (-net, 0)},
            "actions": "3 V bring_in,3 Hero call",
        }

    frames = _frames(
        hand(0, 16), hand(2, -8), hand(4, 8), hand(6, -4), hand(46, 24), hand(3, 0, "Beta")
    )
    rows = compute.player_hands(frames).filter(pl.col("player") == "Hero")
    table = compute.winrates(rows, ["player"]).to_dicts()[0]
    bb = [2, -1, 1, -0.5, 3, 0]  # net / big bet (8)
    assert table["hands"] == 6
    assert table["net"] == 36
    assert table["rake"] == 3
    assert table["bb_per_100"] == pytest.approx(100 * sum(bb) / 6)
    mean = sum(bb) / 6
    sd = math.sqrt(sum((v - mean) ** 2 for v in bb) / 5)
    assert table["sd_bb"] == pytest.approx(sd)
    half = 1.959964 * 100 * sd / math.sqrt(6)
    assert table["ci_low"] == pytest.approx(100 * mean - half)
    assert table["ci_high"] == pytest.approx(100 * mean + half)
    assert table["per_100"] == pytest.approx(36 * 100 / 6)
    # Sessions: Alpha 0-6 min (4 hands, 2 min apart: 8 minutes of play), Alpha at 46 min
    # (one hand: the median session interval, 2 min), Beta (one hand: 2 min) = 12 minutes.
    sessions = compute.sessions(rows).sort("first")
    assert sessions["hands"].to_list() == [4, 1, 1]
    assert sessions["table_name"].to_list() == ["Alpha", "Beta", "Alpha"]
    assert table["hours"] == pytest.approx(12 / 60)
    assert table["per_hour"] == pytest.approx(36 / 0.2)
    # By day: all on one UTC day.
    days = compute.winrates(rows, ["player", "day"])
    assert days["hands"].to_list() == [6]


def test_amounts_of_different_units_are_never_added():
    frames = _frames(
        {"players": {"Hero": (10, 10), "V": (-10, 0)}, "actions": "3 V bring_in,3 Hero call"},
        {
            "unit": "tournament chips",
            "big_bet": 100,
            "players": {"Hero": (500, 500), "V": (-500, 0)},
            "actions": "3 V bring_in,3 Hero call",
        },
    )
    rows = compute.player_hands(frames).filter(pl.col("player") == "Hero")
    table = {r["unit"]: r for r in compute.winrates(rows, ["player"]).to_dicts()}
    assert table["USD"]["net"] == 10 and table["tournament chips"]["net"] == 500


def test_big_bets_are_never_added_across_structures_and_pot_no_limit_count_bring_ins():
    """A fixed-limit hand and a no-limit hand of the same stakes are two rows: big bets/100
    for the first only, bring-ins/100 for the second only (each means nothing for the other
    structure)."""
    frames = _frames(
        {"players": {"Hero": (16, 16), "V": (-16, 0)}, "actions": "3 V bring_in,3 Hero call"},
        {
            "structure": "no",
            "bring_in": 4,
            "players": {"Hero": (-12, 0), "V": (12, 12)},
            "actions": "3 V bring_in,3 Hero call",
        },
    )
    rows = compute.player_hands(frames).filter(pl.col("player") == "Hero")
    table = {r["structure"]: r for r in compute.winrates(rows, ["player"]).to_dicts()}
    assert set(table) == {"fixed", "no"}
    assert table["fixed"]["bb_per_100"] == pytest.approx(200.0)  # 16 / 8 big bets
    assert table["fixed"]["bi_per_100"] is None
    assert table["no"]["bb_per_100"] is None
    assert table["no"]["bi_per_100"] == pytest.approx(-300.0)  # -12 / 4


def test_chips_counted_in_hundredths_are_a_unit_of_their_own(tmp_path):
    """KingsClub counts chips in hundredths ("12,686.25"): such amounts are shown with their
    decimals and never added to whole chips (tournaments, play money elsewhere)."""
    import duckdb

    from handlog.importer import import_paths
    from handlog.report import render
    from handlog.report.data import UNIT_SQL

    from .conftest import SITES

    assert render.money(1268625, "chips in hundredths") == "12,686.25"
    assert render.money(-1658, "chips in hundredths") == "-16.58"
    assert render.money(1268625, "tournament chips") == "1,268,625"
    assert render.money(1268625, "play money") == "1,268,625"
    db = tmp_path / "h.duckdb"
    files = sorted(str(p) for p in (SITES / "kingsclub").glob("*.txt"))
    files.append(str(SITES / "pokerstars" / "side-pot.txt"))
    import_paths(files, db, workers=1)
    connection = duckdb.connect(str(db), read_only=True)
    units = connection.execute(
        f"SELECT site, {UNIT_SQL} AS unit FROM hands GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    connection.close()
    assert ("kingsclub", "chips in hundredths") in units and ("pokerstars", "USD") in units
    assert {unit for site, unit in units if site == "kingsclub"} == {"chips in hundredths"}
