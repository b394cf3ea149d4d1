"""Clocks printed without a zone (KingsClub's, Winning's 2016 exports): no start time unless
the user gives the site's clocks one (`HANDLOG_CLOCK_ZONES`), then the clock read in that
zone, in UTC, across clock changes; a setting that cannot be used is one line, exit 2."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from handlog.model import Hand, Site
from handlog.parse import parse_file
from handlog.parse.text import CLOCK_ZONES_ENV, clock_zones

SITES = Path(__file__).parent / "sites"
KINGSCLUB = sorted((SITES / "kingsclub").glob("*.txt"))
WINNING_2016 = sorted((SITES / "winning").glob("2016-*.txt"))


def _hands(paths: list[Path]) -> list[Hand]:
    return [item for path in paths for item in parse_file(path) if type(item) is Hand]


def test_no_zone_given_no_start_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CLOCK_ZONES_ENV, raising=False)
    hands = _hands(KINGSCLUB + WINNING_2016)
    assert {hand.site for hand in hands} == {Site.KINGSCLUB, Site.WINNING}
    assert all(hand.start_time is None and hand.clock_text for hand in hands)


def test_a_zone_given_reads_the_clock_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """New York's clock is 5 hours behind UTC in winter, 4 in summer (a KingsClub hand of
    October 2020 and ones of January 2021); Berlin's 2 hours ahead in August."""
    monkeypatch.setenv(CLOCK_ZONES_ENV, "KingsClub = America/New_York, winning=Europe/Berlin")
    hands = _hands(KINGSCLUB + WINNING_2016)
    assert hands and all(hand.start_time is not None for hand in hands)
    for hand in hands:
        assert hand.start_time is not None and hand.start_time.tzinfo is UTC
        form = "%Y-%m-%d %H:%M:%S" if hand.site is Site.KINGSCLUB else "%Y/%m/%d %H:%M:%S"
        local = datetime.strptime(hand.clock_text, form)
        offset = (local - hand.start_time.replace(tzinfo=None)).total_seconds() / 3600
        if hand.site is Site.WINNING:
            assert offset == (2 if 4 <= local.month <= 9 else 1)
        else:
            assert offset == (-4 if 4 <= local.month <= 10 else -5), hand.clock_text
    # Printed again by its format, the clock is the one read (the hand reads back the same).
    from handlog.parse import detect_file, parse_text

    for path in KINGSCLUB + WINNING_2016:
        site = detect_file(path)
        assert site is not None and site.print_hand is not None
        for hand in _hands([path]):
            (again,) = parse_text(site.print_hand(hand))
            assert again == hand


def test_clock_zones_read_and_refuse() -> None:
    assert clock_zones("") == {}
    assert clock_zones("kingsclub=ET") == {Site.KINGSCLUB: "America/New_York"}
    assert clock_zones("winning=UTC,") == {Site.WINNING: "UTC"}
    for bad, words in (
        ("kingsclub", "SITE=ZONE"),
        ("kings=UTC", "SITE=ZONE"),
        ("kingsclub=", "SITE=ZONE"),
        ("kingsclub=Mars/Olympus", "not a time zone"),
        ("kingsclub=../../etc/passwd", "not a time zone"),
    ):
        with pytest.raises(ValueError, match=words):
            clock_zones(bad)


def test_a_setting_that_cannot_be_used_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import os

    environment = dict(os.environ, **{CLOCK_ZONES_ENV: "kingsclub=Nowhere/Land"})
    done = subprocess.run(
        [sys.executable, "-m", "handlog.cli", "parse", str(KINGSCLUB[0])],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "handlog: HANDLOG_CLOCK_ZONES: 'Nowhere/Land' is not a time zone "
        "(e.g. America/New_York, UTC)"
    ]
    assert done.stdout == ""


def test_an_import_stores_the_start_times(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import duckdb

    from handlog.importer import import_paths

    monkeypatch.setenv(CLOCK_ZONES_ENV, "kingsclub=America/New_York")
    db = tmp_path / "h.duckdb"
    import_paths([str(path) for path in KINGSCLUB], db, None, 1)
    with duckdb.connect(str(db), read_only=True) as connection:
        rows = connection.execute(
            "SELECT count(*), count(start_time) FROM hands WHERE site = 'kingsclub'"
        ).fetchall()
    assert rows[0][0] == rows[0][1] > 0
