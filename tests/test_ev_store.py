"""All-in EV in the store: computed at import by the workers, by `handlog ev` for a database
imported before (the same rows), and what the rows must satisfy (EV-adjusted nets summing to
minus the rake, each pot's equities summing to one, the figures `hand_ev` gives)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from handlog.check import check_file
from handlog.equity import hand_ev
from handlog.equity.stored import compute_database
from handlog.importer import import_paths
from handlog.model import Game
from handlog.simulate import SimulationOptions, write_simulation
from handlog.units import money


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], Path]:
    """Simulated tournament hands (short stacks: all-ins, side pots) of a high and a hi/lo
    game, imported with EV on."""
    folder = tmp_path_factory.mktemp("ev")
    files = []
    for game, seed in ((Game.STUD, 11), (Game.STUD8, 12), (Game.RAZZ, 13)):
        path = folder / f"{game.value}.txt"
        write_simulation(
            SimulationOptions(game, hands=150, players=6, seed=seed, tournament=True), str(path)
        )
        files.append(str(path))
    db = folder / "ev.duckdb"
    import_paths(files, db, workers=2)
    return files, db


def _rows(db: Path, query: str) -> list[tuple[object, ...]]:
    connection = duckdb.connect(str(db), read_only=True)
    try:
        return connection.execute(query).fetchall()
    finally:
        connection.close()


def test_import_computes_every_hand(tournament: tuple[list[str], Path]) -> None:
    _, db = tournament
    counts = dict(_rows(db, "SELECT ev_all_in, count(*) FROM hands GROUP BY ALL"))
    assert None not in counts
    assert counts.get(True, 0) >= 5  # tournaments go all-in
    # Every all-in hand has its equities, and only they.
    assert _rows(
        db,
        "SELECT count(*) FROM hands h WHERE ev_all_in <> EXISTS "
        "(SELECT 1 FROM equities e WHERE e.site = h.site AND e.hand_id = h.hand_id)",
    ) == [(0,)]


def test_ev_nets_sum_to_minus_the_rake_and_equities_to_one(
    tournament: tuple[list[str], Path],
) -> None:
    _, db = tournament
    assert _rows(db, "SELECT count(*) FROM hand_players WHERE ev_net IS NULL") == [(0,)]
    off = _rows(
        db,
        """SELECT h.hand_id, sum(p.ev_net), sum(p.net), any_value(h.rake) FROM hands h
        JOIN hand_players p USING (site, hand_id) GROUP BY h.hand_id
        HAVING sum(p.ev_net) <> sum(p.net)""",
    )
    assert off == []
    # The tournament hands have no rake: the nets (and EV nets) of every hand sum to zero.
    assert _rows(db, "SELECT count(*) FROM hands WHERE rake <> 0") == [(0,)]
    # Without an all-in the EV net is the net; with one some player's differs.
    assert _rows(
        db,
        "SELECT count(*) FROM hands h JOIN hand_players p USING (site, hand_id) "
        "WHERE NOT h.ev_all_in AND p.ev_net <> p.net",
    ) == [(0,)]
    assert (
        _rows(
            db,
            "SELECT count(*) FROM hands h JOIN hand_players p USING (site, hand_id) "
            "WHERE h.ev_all_in AND p.ev_net <> p.net",
        )[0][0]
        > 0
    )
    sums = _rows(
        db,
        "SELECT hand_id, pot, sum(equity), sum(expected), any_value(amount), "
        "any_value(method), max(error) FROM equities GROUP BY ALL",
    )
    for _, _, equity, expected, amount, method, error in sums:
        # hi/lo pots: the halves' shares to one together; sampled: the exact mean of the
        # sample, which pays every pot out whole too.
        assert equity == pytest.approx(1.0, abs=1e-9) or amount == 0
        assert expected == pytest.approx(amount, abs=1e-6)
        assert method in ("exact", "sampled")
        assert (error == 0.0) == (method == "exact")
        assert error <= 0.005 + 1e-12


def test_stored_figures_are_hand_ev(tournament: tuple[list[str], Path]) -> None:
    """Each stored EV net and equity is what `hand_ev` gives the hand read from its file."""
    files, db = tournament
    stored_nets = dict(
        ((hand_id, player), ev_net)
        for hand_id, player, ev_net in _rows(db, "SELECT hand_id, player, ev_net FROM hand_players")
    )
    stored_equities = {
        (hand_id, pot, player): equity
        for hand_id, pot, player, equity in _rows(
            db, "SELECT hand_id, pot, player, equity FROM equities"
        )
    }
    from handlog.check import hand_rules

    all_ins = 0
    for path in files:
        for checked in check_file(path):
            hand, replay = checked.hand, checked.replay
            assert hand is not None and replay is not None
            profile, traits = hand_rules(hand)
            found = hand_ev(hand, profile, traits)
            for net in found.nets:
                assert stored_nets[hand.hand_id, net.player] == net.ev_net_units
            if found.all_in is not None and found.all_in.equities is not None:
                all_ins += 1
                for share in found.all_in.equities.shares:
                    key = (hand.hand_id, share.pot, share.player)
                    assert stored_equities.pop(key) == pytest.approx(share.equity)
    assert stored_equities == {}  # no row of a hand without an all-in
    assert all_ins == _rows(db, "SELECT count(*) FROM hands WHERE ev_all_in")[0][0]


def test_handlog_ev_on_a_database_imported_before_gives_the_same_rows(
    tournament: tuple[list[str], Path], tmp_path: Path
) -> None:
    """A database whose hands have no EV yet (as the migration from version 8 leaves it)
    gets from `handlog ev` the rows an import with EV stores; a second run has nothing to
    do; an interrupted run (some hands computed) finishes the rest."""
    _, db = tournament
    copy = tmp_path / "before.duckdb"
    copy.write_bytes(db.read_bytes())
    connection = duckdb.connect(str(copy))
    some = connection.execute(
        "SELECT hand_id FROM hands WHERE ev_all_in ORDER BY hand_id LIMIT 2"
    ).fetchall()
    # As if stopped after computing some hands: the others not computed yet.
    connection.execute(
        "UPDATE hands SET ev_all_in = NULL WHERE NOT list_contains(?, hand_id)",
        [[hand_id for (hand_id,) in some]],
    )
    connection.execute(
        "DELETE FROM equities WHERE NOT list_contains(?, hand_id)", [[h for (h,) in some]]
    )
    connection.execute(
        "UPDATE hand_players SET ev_net = net WHERE NOT list_contains(?, hand_id)",
        [[h for (h,) in some]],
    )
    connection.close()
    summary = compute_database(copy, workers=1)
    total = _rows(db, "SELECT count(*) FROM hands")[0][0]
    assert summary.hands == total - len(some)
    assert summary.left == 0
    compare = duckdb.connect()
    try:
        compare.execute(f"ATTACH '{db}' AS a (READ_ONLY)")
        compare.execute(f"ATTACH '{copy}' AS b (READ_ONLY)")
        for query in (
            "SELECT site, hand_id, ev_all_in FROM {}.hands",
            "SELECT site, hand_id, player, ev_net FROM {}.hand_players",
            "SELECT * FROM {}.equities",
        ):
            a, b = query.format("a"), query.format("b")
            assert compare.execute(f"SELECT count(*) FROM ({a} EXCEPT ALL {b})").fetchone() == (0,)
            assert compare.execute(f"SELECT count(*) FROM ({b} EXCEPT ALL {a})").fetchone() == (0,)
    finally:
        compare.close()
    assert compute_database(copy, workers=1).hands == 0


def test_handlog_ev_command(tournament: tuple[list[str], Path], tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from handlog.cli import app

    _, db = tournament
    copy = tmp_path / "c.duckdb"
    copy.write_bytes(db.read_bytes())
    connection = duckdb.connect(str(copy))
    connection.execute("UPDATE hands SET ev_all_in = NULL")
    connection.close()
    result = CliRunner().invoke(app, ["ev", "--db", str(copy), "--workers", "1"])
    assert result.exit_code == 0, result.output
    all_in = _rows(db, "SELECT count(*) FROM hands WHERE ev_all_in")[0][0]
    assert f"{all_in:,} with an all-in" in result.output
    missing = CliRunner().invoke(app, ["ev", "--db", str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 2
    assert "no database" in missing.output


@pytest.mark.parametrize("engine", ["scaled", "frames"])
def test_the_report_shows_ev_figures_computed_directly(
    tournament: tuple[list[str], Path], tmp_path: Path, engine: str
) -> None:
    """The report's EV net, luck, all-ins and EV BB/100 per player (and per session, whose
    luck adds up to the player's) are what the stored rows give computed here; every
    suck-out listed is one by its definition, and every one there is is listed."""
    from handlog.report import build
    from handlog.report.data import Filters

    files, db = tournament
    report = build(db, tmp_path / "out", Filters(), fmt="md", engine=engine)
    players = report.tables["players"]
    direct = {
        (player,): (ev_net, net, all_ins, bb)
        for player, ev_net, net, all_ins, bb in _rows(
            db,
            """SELECT p.player, sum(p.ev_net), sum(p.net),
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM equities e WHERE e.site = p.site
                    AND e.hand_id = p.hand_id AND e.player = p.player)),
                100 * avg(p.ev_net / h.big_bet)
            FROM hand_players p JOIN hands h USING (site, hand_id)
            WHERE p.dealt_in GROUP BY p.player""",
        )
    }
    assert players.height == len(direct)
    assert (players["luck"] != 0).any()
    assert players["luck"].sum() == 0  # no rake in tournaments: one's luck is another's
    for row in players.iter_rows(named=True):
        ev_net, net, all_ins, bb = direct[(row["player"],)]
        assert row["ev_net"] == ev_net
        assert row["luck"] == net - ev_net
        assert row["all_ins"] == all_ins
        assert row["ev_bb_per_100"] == pytest.approx(bb)
        assert row["ev_ci_low"] < row["ev_bb_per_100"] < row["ev_ci_high"]
    sessions = report.tables["sessions"]
    by_player = sessions.group_by("player").agg(pl.col("luck").sum())
    for player, luck in by_player.iter_rows():
        assert luck == players.filter(pl.col("player") == player)["luck"].item()

    listed = {
        (row["hand_id"], row["pot"], row["winner"])
        for row in report.tables["suck_outs"].iter_rows(named=True)
    }
    from handlog.check import hand_rules

    expected = set()
    for path in files:
        for checked in check_file(path):
            hand = checked.hand
            assert hand is not None
            profile, traits = hand_rules(hand)
            found = hand_ev(hand, profile, traits)
            if found.all_in is None or found.all_in.equities is None:
                continue
            for share in found.all_in.equities.shares:
                won = found.pot_shares[share.pot].get(share.player, 0)
                if share.amount and share.equity < 0.25 and 2 * won >= share.amount:
                    expected.add((hand.hand_id, share.pot, share.player))
    assert listed == expected
    assert "## All-in luck" in (tmp_path / "out" / "report.md").read_text()


def test_show_prints_the_equities_and_the_ev_nets(
    tournament: tuple[list[str], Path],
) -> None:
    """`handlog show` of a hand with an all-in prints each pot's equities at the all-in
    (summing to 100% in each pot) and the EV nets stored; every street on which the players
    still in have their cards shown gets its equities."""
    from handlog.show import lookup, terminal

    _, db = tournament
    hand_id, site = _rows(
        db, "SELECT hand_id, site FROM hands WHERE ev_all_in ORDER BY hand_id LIMIT 1"
    )[0]
    (shown,) = [s for s in lookup(db, str(hand_id)) if s.site == site]
    text = terminal(shown, text=False)
    at_all_in = [line for line in text.split("\n") if "equity at the all-in" in line]
    assert at_all_in
    for line in at_all_in:
        figures = [
            float(part.split("%")[0].split()[-1])
            for part in line.split(": ", 1)[1].split(", ")
            if "%" in part
        ]
        assert sum(figures) == pytest.approx(100.0, abs=0.11 * len(figures))
    stored = dict(
        _rows(
            db,
            f"SELECT player, ev_net FROM hand_players WHERE hand_id = '{hand_id}' "
            "AND (ev_net <> 0 OR net <> 0)",
        )
    )
    ev_line = next(line for line in text.split("\n") if "all-in EV net:" in line)
    for player, ev_net in stored.items():
        assert f"{player} {'+' if ev_net > 0 else ''}{money(ev_net, shown.unit)}" in ev_line


def test_step_equities_follow_the_streets_then_the_all_in(
    tournament: tuple[list[str], Path],
) -> None:
    """The replayer's equities beside each step: the all-in's from its step on, a street's
    before; one per step."""
    from handlog.check import hand_rules
    from handlog.equity import all_in, step_equities, street_equities
    from handlog.rules.trace import trace

    files, _ = tournament
    seen = 0
    for checked in check_file(files[0]):
        hand = checked.hand
        assert hand is not None and checked.replay is not None
        profile, traits = hand_rules(hand)
        found = hand_ev(hand, profile, traits, checked.replay)
        if found.all_in is None or found.all_in.equities is None:
            continue
        t = trace(hand, profile, traits)
        steps = step_equities(t, profile)
        assert len(steps) == len(t.steps)
        first = t.steps.index(t.all_in_step())
        at_all_in = all_in(t, profile)
        assert at_all_in is not None
        assert all(s == at_all_in.equities for s in steps[first:])
        streets = dict(street_equities(t, profile))
        for step, equities in zip(t.steps[:first], steps[:first], strict=True):
            assert equities == streets.get(step.street)
        seen += 1
        if seen == 3:
            break
    assert seen


def _corpus_all_ins() -> list[str]:
    """The corpus files with a hand whose all-in has equities (found by computing them)."""
    from handlog.check import hand_rules

    corpus = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
    if not corpus.is_dir():
        pytest.skip("no ../shared/corpus here")
    files = []
    for path in sorted(p for p in corpus.rglob("*") if p.is_file() and p.name != "MANIFEST.tsv"):
        for checked in check_file(str(path)):
            if checked.hand is None or checked.replay is None:
                continue
            profile, traits = hand_rules(checked.hand)
            found = hand_ev(checked.hand, profile, traits, checked.replay)
            if found.all_in is not None and found.all_in.equities is not None:
                files.append(str(path))
                break
    return files


def test_the_corpus_all_ins_are_reported_and_shown(tmp_path: Path) -> None:
    """Real exports: every all-in hand of the corpus with its players' cards shown is
    stored with its equities (EV nets summing to minus the rake), reported and shown."""
    from handlog.report import build
    from handlog.report.data import Filters
    from handlog.show import lookup, terminal

    files = _corpus_all_ins()
    assert files
    db = tmp_path / "corpus.duckdb"
    import_paths(files, db, workers=1)
    hands = _rows(db, "SELECT site, hand_id FROM hands WHERE ev_all_in")
    assert len(hands) >= len(files)
    # Summing to minus the rake, even where the history's own collects do not (a hand
    # flagged inconsistent keeps the difference in its luck).
    assert _rows(
        db,
        "SELECT count(*) FROM (SELECT h.hand_id FROM hand_players p JOIN hands h "
        "USING (site, hand_id) WHERE h.ev_all_in GROUP BY h.site, h.hand_id "
        "HAVING sum(p.ev_net) <> -any_value(h.rake))",
    ) == [(0,)]
    for site, hand_id in hands:
        (shown,) = [s for s in lookup(db, hand_id) if s.site == site]
        assert "equity at the all-in" in terminal(shown, text=False)
    report = build(db, tmp_path / "out", Filters(), fmt="md")
    assert report.tables["players"]["all_ins"].sum() >= len(hands) * 2
    assert "EV net" in (tmp_path / "out" / "report.md").read_text()


def test_the_ev_of_a_range_computed_together_fills_the_rows_each_hand_would(
    tournament: tuple[list[str], Path],
) -> None:
    # The import's workers leave the hands that may have an all-in to the end of a range
    # (`add_ev`'s `pending`): their EV must land in their own rows, among hands of other
    # seat counts, as computing each in its turn puts it.
    from handlog.equity.stored import add_ev, add_pending_ev
    from handlog.store import Batch, add_checked

    files, _ = tournament
    checked = [c for path in files for c in check_file(path) if c.replay is not None]
    now, later = Batch(), Batch()
    pending: list = []
    for item in checked:
        add_checked(now, item)
        add_ev(now, item)
        add_checked(later, item)
        add_ev(later, item, pending=pending)
    assert pending
    assert None in later.columns["hands"]["ev_all_in"]  # not computed yet
    add_pending_ev(later, pending)
    assert not pending
    assert now.columns == later.columns
    assert sum(now.columns["hands"]["ev_all_in"]) > 10
    seats = {len(c.hand.seats) for c in checked if c.hand is not None}
    assert len(seats) > 1


def test_a_bug_in_one_small_files_ev_fails_that_file_alone(
    tournament: tuple[list[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small files' hands are read together (`ingest.read_files`) and their all-in EV is
    # computed once all are read: a bug met in one file's EV still fails that file alone,
    # named, and the others' rows (their EV included) are kept whole.
    from handlog import ingest
    from handlog.equity import stored

    files, _ = tournament
    real = stored.hand_ev_of

    def failing(hand, replay, profile=None):  # type: ignore[no-untyped-def]
        if hand.game is Game.RAZZ:
            raise ZeroDivisionError("not foreseen")
        return real(hand, replay, profile)

    monkeypatch.setattr(stored, "hand_ev_of", failing)
    results, tables, _ = ingest.read_files([(path, 1, False) for path in files], None)
    errors = {Path(r.path).stem: r.error for r in results}
    assert errors["stud"] is None and errors["stud8"] is None
    assert "handlog failed on it (ZeroDivisionError: not foreseen)" in (errors["razz"] or "")
    hands = tables["hands"].to_pylist()
    assert {Path(h["file"]).stem for h in hands} == {"stud", "stud8"}
    assert all(h["ev_all_in"] is not None for h in hands)
    assert sum(h["ev_all_in"] for h in hands) > 5
    players = tables["hand_players"].to_pylist()
    assert {(p["site"], p["hand_id"]) for p in players} == {
        (h["site"], h["hand_id"]) for h in hands
    }
    equities = {(e["site"], e["hand_id"]) for e in tables["equities"].to_pylist()}
    assert equities == {(h["site"], h["hand_id"]) for h in hands if h["ev_all_in"]}
    # A range read alone (`read_part`) fails the same way.
    alone = ingest.read_part(files[2], None, 1, None)
    assert "handlog failed on it (ZeroDivisionError" in (alone.error or "")


def test_a_file_whose_rows_fail_leaves_the_others_ev_rows_whole(
    tournament: tuple[list[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # When the Arrow tables of small files read together cannot be made, each file's rows
    # are tried alone (`ingest.read_files`): the equities rows of the files kept (computed
    # after every file was read) go with their own file.
    from handlog import ingest, store

    files, _ = tournament
    real = store.Batch.arrow

    def failing(self):  # type: ignore[no-untyped-def]
        if any("razz" in file for file in self.columns["hands"]["file"]):
            raise OverflowError("Python int too large to convert to C long")
        return real(self)

    monkeypatch.setattr(store.Batch, "arrow", failing)
    results, tables, _ = ingest.read_files([(path, 1, False) for path in files], None)
    assert [r.error is None for r in results] == [True, True, False]
    hands = tables["hands"].to_pylist()
    assert {Path(h["file"]).stem for h in hands} == {"stud", "stud8"}
    equities = {(e["site"], e["hand_id"]) for e in tables["equities"].to_pylist()}
    assert equities == {(h["site"], h["hand_id"]) for h in hands if h["ev_all_in"]}
    assert len(equities) > 5
