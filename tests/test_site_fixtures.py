"""Every site's fixture pairs: each tests/sites/<site>/NAME.txt, parsed and replayed, must give
exactly its NAME.json (see tests/sites/README.md); `pytest --regen-golden` rewrites them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from handlog.check import check_file, check_json
from handlog.serialize import result_json

from .conftest import SITES

TEXT_SUFFIXES = (".txt", ".xml", ".phh", ".phhs")
"""Hand texts: the text exports, the XML ones (iPoker, Merge) and PHH."""
TEXTS = sorted(p for p in SITES.glob("*/*") if p.suffix in TEXT_SUFFIXES)
REGENERATE = "run `pytest --regen-golden tests/test_site_fixtures.py` and review the diff"


def _name(path: Path) -> str:
    """site/NAME.txt: how the pair is named in test ids and in its own JSON."""
    return path.relative_to(SITES).as_posix()


def fixture_json(text_path: Path) -> str:
    """What NAME.json must hold for NAME.txt: one object per hand of the file, its record
    ("record", as `handlog parse --json` gives it) and the outcome of its replay ("replay",
    as `handlog check --json` gives it, with what each player put in). Parsed from its
    path under tests/sites, so that files are named the same in every checkout."""
    hands: list[dict[str, Any]] = []
    for checked in check_file(_name(text_path)):
        item = checked.hand or checked.error or checked.skipped
        assert item is not None, checked
        replayed = check_json(checked)
        replayed["put_in"] = dict(checked.replay.put_in) if checked.replay else {}
        hands.append({"record": result_json(item), "replay": replayed})
    return json.dumps(hands, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("text_path", TEXTS, ids=_name)
def test_site_fixture(text_path, regen_golden, monkeypatch):
    monkeypatch.chdir(SITES)
    actual = fixture_json(text_path)
    expected_path = text_path.with_suffix(".json")
    if regen_golden:
        expected_path.write_text(actual, encoding="utf-8")
    if not expected_path.exists():
        pytest.fail(f"{_name(expected_path)} is missing: {REGENERATE}", pytrace=False)
    # compared as text: a changed field shows in pytest's diff, and the file is what is
    # reviewed
    assert actual == expected_path.read_text(encoding="utf-8"), REGENERATE


def test_every_json_has_its_hand_text():
    orphans = [
        _name(p)
        for p in sorted(SITES.glob("*/*.json"))
        if not any(p.with_suffix(suffix).exists() for suffix in TEXT_SUFFIXES)
    ]
    assert orphans == []


def test_the_fixtures_are_found():
    assert {p.parent.name for p in TEXTS} >= {"pokerstars"}
    assert len(TEXTS) >= 9
