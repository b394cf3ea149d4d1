"""`handlog bench` on a tiny simulated set: every figure is there and positive, and pokerkit
replays nearly every simulated hand. No timing assertions (the machine may be shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handlog import bench, bench_pokerkit
from handlog.cli import app
from handlog.model import Game

from .conftest import SAMPLE_LOGS

HANDS = 300


@pytest.fixture(scope="module")
def figures(tmp_path_factory: pytest.TempPathFactory) -> dict:
    data = tmp_path_factory.mktemp("bench")
    return bench.run_benchmarks(hands=HANDS, runs=1, data=data, include_import=False)


def test_figures_exist_and_are_positive(figures: dict) -> None:
    for key in (
        "parse.hands_per_second",
        "parse.hands_per_cpu_second",
        "replay.hands_per_second",
        "replay.hands_per_cpu_second",
        "cli.help_seconds",
        "cli.import_one_hand_seconds",
        "cli.import_one_hand_cpu_seconds",
    ):
        assert figures[key] > 0, key
    assert figures["parse.hands"] == HANDS
    assert figures["parse.unparsed"] == 0
    assert figures["replay.hands"] == HANDS
    assert figures["replay.flagged"] == 0  # simulated hands are legal
    assert "import.hands" not in figures
    table = bench.format_table(figures)
    assert "replay + checks (1 core)" in table and "hands/s" in table
    json.dumps(figures)  # the report is plain JSON


def test_pokerkit_replays_the_simulated_hands(figures: dict) -> None:
    pytest.importorskip("pokerkit")
    assert figures["pokerkit.sample"] == HANDS
    replayed = figures["pokerkit.replayed"]
    assert replayed >= 0.9 * HANDS, figures["pokerkit.skipped_reasons"]
    assert figures["pokerkit.skipped"] == HANDS - replayed
    # The hands pokerkit replayed end as handlog's replay says (pokerkit plays rake-free).
    assert figures["pokerkit.same_payouts"] >= 0.95 * replayed
    assert figures["pokerkit.hands_per_cpu_second"] > 0
    assert figures["pokerkit.handlog_hands_per_cpu_second"] > 0
    assert figures["pokerkit.ratio"] > 0


def test_simulated_set_is_named_by_game_hands_and_seed_and_reused(tmp_path: Path) -> None:
    files, seconds = bench.simulated_set(7, 3, tmp_path, games=[Game.RAZZ, Game.STUD])
    assert [f.name for f in files] == ["sim-razz-4-seed3.txt", "sim-stud-3-seed3.txt"]
    assert seconds > 0 and all(f.exists() for f in files)
    again, seconds = bench.simulated_set(7, 3, tmp_path, games=[Game.RAZZ, Game.STUD])
    assert again == files and seconds == 0.0
    assert not list(tmp_path.glob("*.partial"))


def test_pokerkit_missing_is_skipped_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_pokerkit, "available", lambda: False)
    said: list[str] = []
    assert bench.pokerkit_figures([], 1, echo=said.append) == {}
    assert said == ["pokerkit not installed: skipped"]


def test_cli_prints_the_table_and_writes_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "--hands",
            "30",
            "--runs",
            "1",
            "--no-import",
            "--no-pokerkit",
            "--variant-hands",
            "20",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "parse (1 core)" in result.output
    assert "razz27 pot limit: replay + checks (1 core, CPU time)" in result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["parse.hands"] == 30
    # every game in every structure: simulated, read and replayed clean
    variants = {k: v for k, v in written.items() if k.startswith("variants.")}
    assert len(variants) == 7 * 4 * 3
    assert all(v == 20 for k, v in variants.items() if k.endswith(".hands"))
    assert all(v == 0 for k, v in variants.items() if k.endswith(".flagged"))
    assert all(v > 0 for k, v in variants.items() if k.endswith("per_cpu_second"))
    assert (tmp_path / "bench_data" / "sim-stud8-10-seed0.txt").exists()


def test_cli_refuses_an_unknown_source() -> None:
    result = CliRunner().invoke(app, ["bench", "--source", "nowhere"])
    assert result.exit_code == 2


def test_the_import_can_have_its_own_replicated_set(tmp_path: Path) -> None:
    figures = bench.run_benchmarks(
        hands=30,
        runs=1,
        data=tmp_path,
        include_pokerkit=False,
        import_hands=120,
        corpus=SAMPLE_LOGS,
    )
    assert figures["parse.hands"] == 30
    assert figures["import.hands"] == 120  # the replicated set, not the simulated one
    assert figures["import.set"] == f"{SAMPLE_LOGS} replicated to 120 hands"
    assert (tmp_path / "pokerstars-120.txt").exists()
    # Then a tenth as many hands again, numbered after them, into the database they filled.
    assert figures["import_more.hands"] == 12
    assert figures["import_more.hands_per_second"] > 0
    assert (tmp_path / f"pokerstars-12-from{bench.FIRST_NUMBER + 120}.txt").exists()


def test_the_all_in_ev_figures(tmp_path: Path) -> None:
    found = bench.ev_figures(700, seed=3, data=tmp_path, evaluator_hands=20_000)
    assert found["ev.hands"] == 700
    assert found["ev.spots"] == found["ev.exact"] + found["ev.sampled"] > 0
    assert found["ev.traced"] >= found["ev.spots"] + found["ev.unknown"]
    for key in ("ev.hands_per_cpu_second", "ev.equity_cpu_seconds", "ev.summed_per_second"):
        assert found[key] > 0, key
    assert len(list(tmp_path.glob("sim-ev-*-tournament-100-seed3.txt"))) == 7  # every game
    table = bench.format_table(found)
    assert "all-in EV: spots enumerated exactly" in table


def test_import_of_each_site_publishes_where_its_time_goes(tmp_path: Path) -> None:
    """The per-site import figures (`handlog bench --import-site-hands`): every hand of
    the small files imported, and the CPU time per hand of the stages that always work."""
    figures = bench.import_site_figures(
        SAMPLE_LOGS, 80, tmp_path, per_file=10, shapes=("few", "zip")
    )
    few = "imports.pokerstars.few"  # a few big files: four of twenty hands here
    assert figures[f"{few}.hands"] == 80 and figures[f"{few}.files"] == bench.FEW_FILES == 4
    key = "imports.pokerstars.zip"
    assert figures[f"{key}.hands"] == 80 and figures[f"{key}.files"] == 8
    assert figures[f"{key}.hands_per_cpu_second"] > 0
    for stage in ("parse", "replay", "ev", "rows", "texts", "arrow", "startup", "load", "commit"):
        assert figures[f"{key}.us.{stage}"] > 0, stage
    assert "pokerstars import, zip: CPU in parse" in bench.format_table(figures)


def test_sites_are_found_through_links_to_their_folders(tmp_path: Path) -> None:
    """`--sites DIR` reads what `handlog import DIR` would: a folder of links to the sites'
    folders is searched through them (a bare `rglob` found nothing there, silently)."""
    from handlog.parse.sites import pokerstars

    (tmp_path / "picked").mkdir()
    (tmp_path / "picked" / "stars").symlink_to(SAMPLE_LOGS.resolve(), target_is_directory=True)
    found = bench._site_hands(tmp_path / "picked", pokerstars.FORMAT)
    assert len(found) == len(bench._site_hands(SAMPLE_LOGS, pokerstars.FORMAT)) > 0
