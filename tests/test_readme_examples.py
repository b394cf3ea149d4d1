"""The README's examples work right after `make demo`: sample_logs/ imported into
./handlog.duckdb and the report written, then every command of the "Using it" block run as
written, in a fresh folder (but those that need a player's own files, `~/...`, `handlog
bench`, which takes minutes, and `handlog serve`, which serves until stopped: its own tests
start it as a user does, tests/test_serve_browser.py; simulations are cut to 300 hands).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handlog.cli import app

from .conftest import ROOT, SAMPLE_LOGS

README = ROOT / "README.md"


def _examples() -> list[str]:
    text = README.read_text(encoding="utf-8")
    block = text.split("## Using it", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.strip().splitlines():
        command = re.split(r"\s+# ", line, maxsplit=1)[0].strip()
        if command.startswith("handlog "):
            commands.append(command)
    return commands


def test_the_readme_block_is_read():
    examples = _examples()
    assert len(examples) >= 15
    assert "handlog show 35874039554" in examples and "handlog --version" in examples


def _runnable(command: str) -> bool:
    return "~" not in command and not command.startswith(("handlog bench", "handlog serve"))


def test_every_readme_example_works_after_make_demo(tmp_path, monkeypatch):
    (tmp_path / "sample_logs").symlink_to(SAMPLE_LOGS, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HANDLOG_DB", raising=False)
    runner = CliRunner()
    # make demo
    for demo in ("handlog import sample_logs/", "handlog report"):
        result = runner.invoke(app, shlex.split(demo)[1:])
        assert result.exit_code == 0, (demo, result.output)
    assert Path("handlog.duckdb").exists() and Path("reports/report.html").exists()
    ran = 0
    for command in filter(_runnable, _examples()):
        command = re.sub(r"--hands \d+", "--hands 300", command)
        words, _, target = command.partition(" > ")
        result = runner.invoke(app, shlex.split(words)[1:])
        findings = words.startswith("handlog check")  # flags are findings: exit 1
        assert result.exit_code in ((0, 1) if findings else (0,)), (command, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), command
        assert "Traceback" not in result.output, command
        if target:
            Path(target).write_text(result.stdout, encoding="utf-8")
            assert Path(target).stat().st_size > 0, command
        ran += 1
    assert ran >= 15
    assert Path("reports/report.md").exists() and Path("export/hands").is_dir()
    assert Path("razz.txt").exists() and Path("faulty.txt.faults.jsonl").exists()


@pytest.mark.parametrize("command", [c for c in _examples() if not _runnable(c)])
def test_the_examples_not_run_are_only_a_players_own_files_bench_and_serve(command):
    assert "~" in command or command.startswith(("handlog bench", "handlog serve"))
