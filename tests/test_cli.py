"""The command line: exit codes, output, --json, and help with examples for every command."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from handlog.cli import app

from .conftest import FIXTURES, ROOT, SAMPLE_LOGS

runner = CliRunner()


def test_parse_sample_logs_prints_per_file_counts():
    result = runner.invoke(app, ["parse", str(SAMPLE_LOGS)])
    assert result.exit_code == 0, result.output
    assert "Razz-USD-0.04-0.08-200911.txt: 9 hands (razz 9), 0 errors" in result.output
    assert "total, 6 files: 30 hands (razz 9, stud 12, stud8 9), 0 errors" in result.output


def test_parse_reports_skipped_games():
    result = runner.invoke(app, ["parse", str(FIXTURES / "pokerstars" / "mixed-8-game.txt")])
    assert result.exit_code == 0
    assert "1 hands (razz 1), 1 skipped (Hold'em Limit 1), 0 errors" in result.output


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
    assert "8 hands (razz 8), 1 error" in result.output


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
