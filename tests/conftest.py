"""Shared paths and the golden-fixture switch (`pytest --regen-golden` rewrites the JSON)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SITES = ROOT / "tests" / "sites"
"""Per-site fixture pairs, NAME.txt beside NAME.json (see tests/sites/README.md)."""
SAMPLE_LOGS = ROOT / "sample_logs"
SHARED_CORPUS = ROOT.parent / "shared" / "corpus"


def pokerstars_corpus_files() -> list[Path]:
    """The real PokerStars exports: from ../shared/corpus when it is there (as in CI),
    otherwise the byte-identical copies in sample_logs/."""
    folder = SHARED_CORPUS / "PokerStars"
    if not folder.is_dir():
        folder = SAMPLE_LOGS
    return sorted(folder.glob("*.txt"))


def site_fixture_files(site: str) -> list[Path]:
    """The hand texts of one site's fixture pairs (tests/sites/<site>/*.txt) that read and
    replay clean: not the `fault-*.txt` ones, which show a parse error or a violation."""
    return sorted(
        p
        for p in (SITES / site).glob("*")
        if p.suffix in (".txt", ".xml", ".phh", ".phhs") and not p.name.startswith("fault-")
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        help="rewrite the golden JSON fixtures (tests/sites/*/*.json) from the current "
        "parser and replay output",
    )


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--regen-golden"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test parametrized over a site's corpus files, with none here, skips with its
    module's `needs_corpus` reason (which names the folder that is missing), not pytest's
    "got empty parameter set"."""
    for item in items:
        skip = item.get_closest_marker("skip")
        needs = getattr(item.module, "needs_corpus", None) if hasattr(item, "module") else None
        reason = str(skip.kwargs.get("reason", "")) if skip is not None else ""
        if needs is not None and reason.startswith("got empty parameter set"):
            item.add_marker(pytest.mark.skip(reason=needs.kwargs["reason"]), append=False)
