"""Two XML exports joined in one file (`cat a.xml b.xml > both.xml`): each export's hands are
read with its own header (iPoker's `<session>`, Merge's `<description>`: game, stakes,
currency, table), not with the first's (`SiteFormat.context_marker`), whole or cut into
ranges (`ByteRange.context`); a header that cannot be read is one error."""

from __future__ import annotations

from pathlib import Path

import pytest

from handlog.errors import ParseError
from handlog.ingest import FilePlan, file_jobs
from handlog.model import Hand
from handlog.parse import detect_file, parse_file, parse_range
from handlog.texts import load_texts, reread

SITES = Path(__file__).parent / "sites"

JOINED = {
    # first export, second export: different games, stakes, currencies or kinds
    "ipoker-usd-stud-then-eur-stud8": ("ipoker/stud-usd.xml", "ipoker/stud8-eur-cp1252.xml"),
    "ipoker-tournament-then-cash": (
        "ipoker/tournament-chips-thousands-all-in-run-out.xml",
        "ipoker/stud-usd.xml",
    ),
    "ipoker-stud5-then-stud": ("ipoker/stud5-showdown.xml", "ipoker/stud-usd.xml"),
    "merge-fixed-then-no-limit": (
        "merge/horse-stud8-uncalled-apart.xml",
        "merge/no-limit-stud8.xml",
    ),
    "merge-no-limit-then-tournament": (
        "merge/no-limit-stud8.xml",
        "merge/horse-tournament-stud-side-pots-uncalled-winner.xml",
    ),
}


def _hands(path: Path) -> list[Hand | ParseError]:
    parsed = list(parse_file(path))
    assert all(type(item) in (Hand, ParseError) for item in parsed), parsed
    return parsed  # type: ignore[return-value]


def _joined(tmp_path: Path, names: tuple[str, ...], copies: int = 1) -> Path:
    path = tmp_path / "joined.xml"
    path.write_bytes(b"".join((SITES / name).read_bytes() for _ in range(copies) for name in names))
    return path


@pytest.mark.parametrize("case", sorted(JOINED))
def test_each_export_is_read_with_its_own_header(case: str, tmp_path: Path) -> None:
    first, second = (SITES / name for name in JOINED[case])
    apart = _hands(first) + _hands(second)
    assert all(type(item) is Hand for item in apart)
    joined = _hands(_joined(tmp_path, JOINED[case]))
    assert joined == apart  # the same records (their sources aside)
    # Not the first export's header for the second's hands (what was read before).
    seconds = _hands(second)
    assert {(h.game, h.currency, h.table, h.structure) for h in seconds} != {  # type: ignore[union-attr]
        (h.game, h.currency, h.table, h.structure)
        for h in _hands(first)  # type: ignore[union-attr]
    } or {h.small_bet for h in seconds} != {h.small_bet for h in _hands(first)}  # type: ignore[union-attr]


@pytest.mark.parametrize("case", sorted(JOINED))
def test_ranges_of_a_joined_file_read_each_export_with_its_own_header(
    case: str, tmp_path: Path
) -> None:
    """Cut into ranges of a few hands (as an import cuts a big file), each range's hands
    read with the header in force where the range starts (`ByteRange.context`), which may
    stand several ranges before it."""
    names = JOINED[case]
    path = _joined(tmp_path, names, copies=3)
    whole = _hands(path)
    site = detect_file(path)
    assert site is not None
    size = path.stat().st_size
    parts = [job.part for job in file_jobs(FilePlan(str(path), size, 1), range_bytes=1_500)]
    assert len(parts) > 6 and all(part is not None for part in parts)
    assert any(part.context for part in parts if part is not None)  # a later header's
    ranged = [item for part in parts if part is not None for item in parse_range(path, part, site)]
    assert ranged == whole
    expected = [item for _ in range(3) for name in names for item in _hands(SITES / name)]
    assert whole == expected
    # Every range's context is the last header before it; its line is the file's.
    text = path.read_bytes()
    marker = site.context_marker
    assert marker is not None
    markers = [at for at in range(len(text)) if text.startswith(marker.encode(), at)]
    for part in parts:
        assert part is not None
        before = [at for at in markers if at < part.start]
        assert part.context == (before[-1] if len(before) > 1 else 0)
        if part.context:
            assert part.context_line == text.count(b"\n", 0, part.context) + 1


def test_a_header_that_cannot_be_read_is_one_error_and_the_rest_is_read(tmp_path: Path) -> None:
    """The second export's header names a game iPoker does not write: one error at its
    line, its hands not read (as a file's whose header cannot be), the next export's read."""
    good = (SITES / "ipoker" / "stud-usd.xml").read_bytes()
    bad = good.replace(b"7 Card Stud L", b"Texas Holdem Deluxe", 1)
    assert bad != good
    path = tmp_path / "joined.xml"
    path.write_bytes(good + bad + good)
    parsed = list(parse_file(path))
    hands = [item for item in parsed if type(item) is Hand]
    errors = [item for item in parsed if type(item) is ParseError]
    alone = _hands(SITES / "ipoker" / "stud-usd.xml")
    assert hands == alone + alone
    (error,) = errors
    assert "Texas Holdem Deluxe" in error.message and error.site == "ipoker"
    assert error.line == good.count(b"\n") + bad[: bad.find(b"<gametype>")].count(b"\n") + 1


@pytest.mark.parametrize("cut", [False, True])
def test_an_import_stores_each_export_s_hands_with_its_own_header(
    cut: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`handlog import` of a joined file, read whole (a small file) or cut into ranges (as
    a big one is): each hand stored with its own export's game, currency, table and stakes."""
    import duckdb

    import handlog.parse
    from handlog import importer

    ranges: list[object] = []
    if cut:
        monkeypatch.setattr(importer, "RANGE_BYTES", 1_500)
        reading = handlog.parse.parse_range

        def counted(path, part, *rest, **named):  # type: ignore[no-untyped-def]
            ranges.append(part)
            return reading(path, part, *rest, **named)

        monkeypatch.setattr(handlog.parse, "parse_range", counted)
    names = JOINED["ipoker-usd-stud-then-eur-stud8"]
    path = _joined(tmp_path, (*names, *JOINED["ipoker-tournament-then-cash"]))
    db = tmp_path / "h.duckdb"
    summary = importer.import_paths([str(path)], db, None, 1)
    assert summary.unparsed == 0
    expected = {
        (h.hand_id, h.game.value, h.currency, h.table, h.small_bet, h.big_bet)  # type: ignore[union-attr]
        for name in (*names, *JOINED["ipoker-tournament-then-cash"])
        for h in _hands(SITES / name)
    }
    with duckdb.connect(str(db), read_only=True) as connection:
        stored = set(
            connection.execute(
                "SELECT hand_id, game, currency, table_name, small_bet, big_bet FROM hands"
            ).fetchall()
        )
        # Each hand's stored text reads again alone (`handlog show`, the app's replayer)
        # with its own export's header.
        keys = connection.execute("SELECT site, hand_id FROM hands").fetchall()
        texts = load_texts(connection, keys)
    assert stored == expected
    assert (len(ranges) > 6) if cut else not ranges
    by_id = {
        h.hand_id: h  # type: ignore[union-attr]
        for name in (*names, *JOINED["ipoker-tournament-then-cash"])
        for h in _hands(SITES / name)
    }
    assert len(texts) == len(by_id)
    for key, text in texts.items():
        hand, reason = reread(text)
        assert reason is None and hand == by_id[key[1]], (key, reason)


XML_FIXTURES = sorted(SITES.glob("ipoker/*.xml")) + sorted(SITES.glob("merge/*.xml"))


@pytest.mark.parametrize("path", XML_FIXTURES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_an_export_written_on_one_line_reads_every_hand(path: Path, tmp_path: Path) -> None:
    """Its newlines gone (XML written without line breaks), every hand is read as from the
    export itself, not the first alone (the reader cut at lines: the others ran on inside
    it, lost without a word); with no newline at its end too."""
    one_line = tmp_path / "one-line.xml"
    one_line.write_bytes(path.read_bytes().replace(b"\r\n", b" ").replace(b"\n", b" ").rstrip())
    expected = _hands(path)
    assert len(expected) >= 1
    assert _hands(one_line) == expected


def test_joined_exports_on_one_line_each_with_its_own_header(tmp_path: Path) -> None:
    names = JOINED["ipoker-usd-stud-then-eur-stud8"]
    path = tmp_path / "one-line.xml"
    path.write_bytes(b" ".join((SITES / name).read_bytes().replace(b"\n", b" ") for name in names))
    assert _hands(path) == _hands(SITES / names[0]) + _hands(SITES / names[1])


def test_a_one_line_file_s_stored_hands_read_again_alone(tmp_path: Path) -> None:
    import duckdb

    from handlog.importer import import_paths

    source = SITES / "ipoker" / "stud8-eur-cp1252.xml"
    path = tmp_path / "one-line.xml"
    path.write_bytes(source.read_bytes().replace(b"\n", b" "))
    db = tmp_path / "h.duckdb"
    import_paths([str(path)], db, None, 1)
    with duckdb.connect(str(db), read_only=True) as connection:
        keys = connection.execute("SELECT site, hand_id FROM hands").fetchall()
        texts = load_texts(connection, keys)
    expected = {hand.hand_id: hand for hand in _hands(source)}  # type: ignore[union-attr]
    assert len(texts) == len(expected) > 1
    for key, text in texts.items():
        hand, reason = reread(text)
        assert reason is None and hand == expected[key[1]], (key, reason)
