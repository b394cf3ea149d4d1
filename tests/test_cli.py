"""The command line: exit codes, output, --json, and help with examples for every command."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from handlog.cli import app

from .conftest import ROOT, SAMPLE_LOGS, SITES

runner = CliRunner()


def test_parse_sample_logs_prints_per_file_counts():
    result = runner.invoke(app, ["parse", str(SAMPLE_LOGS)])
    assert result.exit_code == 0, result.output
    assert "Razz-USD-0.04-0.08-200911.txt: 9 hands (razz 9), 0 unparsed, 0 skipped" in result.output
    assert (
        "total, 6 files: 30 hands (razz 9, stud 12, stud8 9), 0 unparsed, 0 skipped"
        in result.output
    )


def test_parse_reports_skipped_games():
    result = runner.invoke(app, ["parse", str(SITES / "pokerstars" / "mixed-8-game.txt")])
    assert result.exit_code == 0
    assert "1 hand (razz 1), 0 unparsed, 1 skipped (Hold'em Limit 1)" in result.output


def test_parse_json_writes_one_object_per_hand():
    path = SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.txt"
    result = runner.invoke(app, ["parse", "--json", str(path)])
    assert result.exit_code == 0
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objects) == 7 and {o["status"] for o in objects} == {"parsed"}
    first = objects[0]
    assert first["hand_id"] == "35874487284" and first["game"] == "stud8"
    assert first["player_cards"]["Hero"]["cards"][:3] == ["5d", "Ks", "2h"]


def test_parse_exit_code_1_and_file_line_for_a_bad_hand(tmp_path):
    text = (
        (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt")
        .read_text()
        .replace("Dealt to Hero [Kd Ad 7d]", "Dealt to Hero [Kd Ad 7x]")
    )
    target = tmp_path / "bad.txt"
    target.write_text(text)
    result = runner.invoke(app, ["parse", str(target)])
    assert result.exit_code == 1
    line = text.splitlines().index("Dealt to Hero [Kd Ad 7x]") + 1
    assert f"{target}:{line}: hand 35874756552: '7x' is not a card" in result.output
    assert "8 hands (razz 8), 1 unparsed, 0 skipped" in result.output


def test_missing_path_exit_code_2():
    result = runner.invoke(app, ["parse", "no/such/folder"])
    assert result.exit_code == 2
    assert "no such file" in result.output


def _commands():
    return [command.name or command.callback.__name__ for command in app.registered_commands]


def test_every_command_has_help_with_an_example_and_is_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in _commands():
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0
        assert "Example:" in result.output, name
        assert f"handlog {name}" in readme, name


def test_check_sample_logs_all_ok():
    result = runner.invoke(app, ["check", str(SAMPLE_LOGS)])
    assert result.exit_code == 0, result.output
    assert (
        "total, 6 files: 30 hands: 30 ok, 0 flagged illegal, 0 flagged mis-split, "
        "0 unparsed, 0 skipped, 0 inconsistent"
    ) in result.output


def test_check_json_contract_and_flags(tmp_path):
    text = (SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt").read_text()
    bad = text.replace("Hero collected $0.40 from pot", "Hero collected $0.50 from pot")
    target = tmp_path / "bad.txt"
    target.write_text(text + "\n\n\n" + bad.replace("#35874676388", "#35874676399"))
    result = runner.invoke(app, ["check", "--json", str(target)])
    assert result.exit_code == 1
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["status"] for o in objects] == ["ok", "flagged"]
    keys = {
        "file",
        "line",
        "site",
        "hand_id",
        "game",
        "status",
        "kinds",
        "violations",
        "pot",
        "rake",
        "collected",
        "net",
    }
    assert all(keys <= set(o) for o in objects)
    ok, flagged = objects
    assert ok["net"]["Hero"] == 13 and ok["net"]["gashpor"] == 13  # fpdb's .hp says the same
    assert sum(ok["net"].values()) == -ok["rake"]
    codes = {v["code"] for v in flagged["violations"]}
    assert "RAKE" in codes
    assert set(flagged["violations"][0]) == {
        "code",
        "kind",
        "cause",
        "street",
        "line",
        "player",
        "message",
    }
    # ten cents paid out of nothing: the money went where the rules do not send it
    assert ok["kinds"] == [] and flagged["kinds"] == ["mis-split"]
    assert {(v["code"], v["kind"], v["cause"]) for v in flagged["violations"]} == {
        ("RAKE", "mis-split", None),
        ("SPLIT_AMOUNT", "mis-split", None),
    }


def test_check_plain_prints_file_line_hand_code(tmp_path):
    text = (SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt").read_text()
    target = tmp_path / "bad.txt"
    target.write_text(
        text.replace(
            "MasterTrini1: calls $0.02\nHero: folds", "Hero: folds\nMasterTrini1: calls $0.02", 1
        )
    )
    result = runner.invoke(app, ["check", str(target)])
    assert result.exit_code == 1
    assert (
        "11 hands: 10 ok, 1 flagged illegal, 0 flagged mis-split, 0 unparsed, 0 skipped, "
        "0 inconsistent" in result.output
    )
    assert (
        f"  {target}:91: hand 35874039554: OUT_OF_TURN (illegal): Hero acts (fold) out of turn"
        in result.output
    )


def test_check_prints_consequences_under_their_cause_and_counts_them_not(tmp_path):
    """A seat's stack too small for what its player puts in: the replay has them all-in,
    so their fold later is flagged too, as a consequence, indented under the over-stack;
    and neither changes the counts of hands."""
    text = (SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt").read_text()
    target = tmp_path / "short.txt"
    target.write_text(text.replace("trs2758 ($2.17 in chips)", "trs2758 ($0.03 in chips)", 1))
    result = runner.invoke(app, ["check", str(target)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if "OVER_STACK (illegal)" in line)
    assert lines[at].startswith(f"  {target}:")
    assert lines[at + 1].startswith(f"      {target}:")
    assert (
        "ACTED_AFTER_FOLD (consequence): trs2758 acts (fold) but is already all-in"
        in (lines[at + 1])
    )
    assert "11 hands: 10 ok, 1 flagged illegal, 0 flagged mis-split" in result.output


def test_an_inconsistent_history_alone_is_a_finding(tmp_path):
    """A summary whose total pot and rake are both ten cents too high, while the winner
    collected what the actions and the true rake leave: an inconsistent history, counted
    apart, and exit code 1 like every other finding."""
    text = (SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt").read_text()
    target = tmp_path / "summary.txt"
    target.write_text(
        text.replace("Total pot $0.80 | Rake $0.03", "Total pot $0.90 | Rake $0.13", 1)
    )
    result = runner.invoke(app, ["check", str(target)])
    assert result.exit_code == 1, result.output
    assert (
        "11 hands: 10 ok, 0 flagged illegal, 0 flagged mis-split, 0 unparsed, 0 skipped, "
        "1 inconsistent" in result.output
    )
    assert "POT_TOTAL (inconsistent): the players put in $0.80 in all" in result.output
    assert "SPLIT_AMOUNT (consequence)" in result.output
    objects = [
        json.loads(line)
        for line in runner.invoke(app, ["check", "--json", str(target)]).stdout.splitlines()
    ]
    (summary,) = [o for o in objects if o["status"] == "flagged"]
    assert summary["kinds"] == ["inconsistent"]
    root = next(i for i, v in enumerate(summary["violations"]) if v["code"] == "POT_TOTAL")
    assert [v["cause"] for v in summary["violations"] if v["code"] == "SPLIT_AMOUNT"] == [root]


def test_check_unknown_profile():
    result = runner.invoke(app, ["check", "--profile", "moon", str(SAMPLE_LOGS)])
    assert result.exit_code == 2 and "casino" in result.output


def test_progress_line_shows_a_bar_when_the_share_read_is_known(capsys):
    from handlog.cli import _Progress

    progress = _Progress("big.txt")
    progress.live = True  # as on a terminal
    progress.clock = iter([0.0, 1.0, 2.0]).__next__
    progress.start = progress.last = progress.clock()
    progress.tick(3_000, 0.25)
    line = capsys.readouterr().err
    # Each line erases the one before (a shorter one would leave its end showing).
    assert line == "\r\x1b[Kbig.txt: [#####...............]  25% 3,000 hands, 3,000 hands/s "
    progress.tick(3_000)  # a share not known: the count and rate only
    assert capsys.readouterr().err == "\r\x1b[Kbig.txt: 6,000 hands, 3,000 hands/s "
    progress.done()
    assert capsys.readouterr().err == "\r\x1b[K"


def test_report_help_names_every_game():
    from handlog.model import Game

    result = runner.invoke(app, ["report", "--help"], terminal_width=200)
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for game in Game:
        assert game.value in text, game
