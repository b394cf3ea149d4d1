"""`handlog report` end to end: real hands imported, the report written and read back."""

from __future__ import annotations

import ast
import json
import re
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from handlog.cli import app
from handlog.importer import import_paths
from handlog.report import ReportError, build
from handlog.report.data import Filters

from .conftest import FIXTURES, SAMPLE_LOGS, pokerstars_corpus_files

runner = CliRunner()


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("report") / "corpus.duckdb"
    import_paths([str(p) for p in pokerstars_corpus_files()], db, None, 1)
    return db


# An independent reading of PokerStars text: what each player put in and collected, from
# the lines themselves (not handlog's parser, replay or store).
_AMOUNT = r"\$?([\d,]+(?:\.\d\d)?)"
_PUT = re.compile(rf"^(.+?): (?:posts the ante|brings in for|calls|bets) {_AMOUNT}")
_RAISE_TO = re.compile(rf"^(.+?): raises {_AMOUNT} to {_AMOUNT}")
_RETURNED = re.compile(rf"^Uncalled bet \({_AMOUNT}\) returned to (.+)$")
_COLLECTED = re.compile(rf"^(.+?) collected {_AMOUNT} from")
_HEADER = re.compile(r"^PokerStars (?:Game|Hand) #")


def _units(text: str, money: bool) -> int:
    digits = text.replace(",", "")
    if not money:
        return int(digits)
    whole, _, cents = digits.partition(".")
    return int(whole) * 100 + int((cents + "00")[:2])


def _independent_nets(files: list[Path]) -> dict[tuple[str, str], int]:
    """(player, unit) -> sum of collected - put in over every hand of the files."""
    nets: dict[tuple[str, str], int] = defaultdict(int)
    seen: set[str] = set()
    for path in files:
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
        hands = re.split(r"\n\s*\n(?=\ufeff?PokerStars )", text.replace("\r\n", "\n"))
        for hand in hands:
            lines = [line.strip() for line in hand.strip("\ufeff\n ").splitlines()]
            if not lines or not _HEADER.match(lines[0]) or lines[0].split(":")[0] in seen:
                continue  # not a hand, or a hand already counted (stored once)
            seen.add(lines[0].split(":")[0])
            money = "$" in lines[0] and "tournament" not in lines[0].lower()
            unit = "USD" if money else "tournament chips"
            street: dict[str, int] = defaultdict(int)
            for line in lines:
                if line.startswith("*** SUMMARY"):
                    break
                if line.startswith("*** "):
                    street = defaultdict(int)  # raise-to amounts are per street
                    continue
                if match := _RAISE_TO.match(line):
                    player, to = match[1], _units(match[3], money)
                    nets[player, unit] -= to - street[player]
                    street[player] = to
                elif match := _PUT.match(line):
                    amount = _units(match[2], money)
                    nets[match[1], unit] -= amount
                    if "ante" not in line:
                        street[match[1]] += amount
                elif match := _RETURNED.match(line):
                    nets[match[2], unit] += _units(match[1], money)
                elif match := _COLLECTED.match(line):
                    nets[match[1], unit] += _units(match[2], money)
    return dict(nets)


def test_every_players_net_equals_the_hand_histories(corpus_db, tmp_path):
    report = build(corpus_db, tmp_path, Filters(), "json")
    data = json.loads((tmp_path / "report.json").read_text())
    from_report = {(r["player"], r["unit"]): r["net"] for r in data["tables"]["players"]}
    expected = _independent_nets(pokerstars_corpus_files())
    assert from_report == expected
    assert report.hands == 29  # 30 hands in the files, one of them twice
    # Money is exact: integer minor units in the machine-readable report.
    assert all(isinstance(r["net"], int) for r in data["tables"]["players"])


def _hp_files() -> list[Path]:
    """fpdb's figures beside the corpus files, else the copies in tests/fixtures/fpdb/."""
    found = {}
    for log in pokerstars_corpus_files():
        for hp in (log.with_suffix(log.suffix + ".hp"), FIXTURES / "fpdb" / f"{log.name}.hp"):
            if hp.exists():
                found.setdefault(log.name, hp)
    return [found[name] for name in sorted(found)]


@pytest.mark.skipif(not _hp_files(), reason="no .hp figures in ../shared/corpus")
@pytest.mark.parametrize("hp", _hp_files(), ids=lambda p: p.name)
def test_profit_and_rake_agree_with_another_tools_figures(hp, tmp_path):
    """The .hp files hold another tool's (fpdb's) per-player figures for the first hand of
    a file: profit and rake share in cents. The file holds one hand, so the report's
    per-player table must show the same."""
    figures = ast.literal_eval(hp.read_text())
    db = tmp_path / "one.duckdb"
    source = next(p for p in pokerstars_corpus_files() if p.name == hp.name[: -len(".hp")])
    import_paths([str(source)], db, None, 1)
    build(db, tmp_path, Filters(), "json")
    rows = json.loads((tmp_path / "report.json").read_text())["tables"]["players"]
    ours = {r["player"]: (r["net"], r["rake"]) for r in rows}
    theirs = {name: (f["totalProfit"], f["rake"]) for name, f in figures.items()}
    assert ours == theirs


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.tags.append(tag)
        if tag == "img":
            self.images.append(dict(attrs)["src"])


def test_html_report_is_self_contained_with_real_charts(corpus_db, tmp_path):
    import base64
    import io

    import matplotlib.image

    result = runner.invoke(app, ["report", "--db", str(corpus_db), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "Hero" in result.output and "29 hands" in result.output
    page = _Page()
    page.feed((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert len(page.images) == 3
    for source in page.images:
        assert source.startswith("data:image/png;base64,")
        png = base64.b64decode(source.split(",", 1)[1])
        pixels = matplotlib.image.imread(io.BytesIO(png), format="png")
        assert pixels.shape[0] > 200 and pixels.shape[1] > 400
        assert pixels.std() > 0.05  # not a blank image
    assert "script" not in page.tags
    for name in ("cumulative.png", "bb100_by_game.png", "flags_by_code.png"):
        assert (tmp_path / name).stat().st_size > 5_000


def test_hostile_names_are_escaped(tmp_path):
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8-sig")
    hostile = '<script>alert("x")</script>'
    log = tmp_path / "hostile.txt"
    log.write_text(source.replace("Hero", hostile), encoding="utf-8")
    db = tmp_path / "h.duckdb"
    import_paths([str(log)], db, None, 1)
    report = build(db, tmp_path / "out", Filters(), "html")
    page = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert hostile in report.summary  # the terminal shows the name as it is
    assert "<script>" not in page
    assert html_escaped(hostile) in page
    build(db, tmp_path / "md", Filters(), "md")
    markdown = (tmp_path / "md" / "report.md").read_text(encoding="utf-8")
    # Markdown renders HTML: the name is escaped there too, shown as text, never run.
    assert "<script>" not in markdown
    assert '&lt;script&gt;alert("x")&lt;/script&gt;' in markdown


def html_escaped(text: str) -> str:
    import html

    return html.escape(text)


def test_filters_and_formats(corpus_db, tmp_path):
    everything = build(corpus_db, tmp_path / "all", Filters(), "csv")
    razz = build(corpus_db, tmp_path / "razz", Filters(game="razz"), "csv")
    hero = build(corpus_db, tmp_path / "hero", Filters(player="Hero"), "csv")
    assert everything.hands == 29 and razz.hands == 9
    assert set(razz.tables["games"]["game"]) == {"razz"}
    assert set(hero.tables["players"]["player"]) == {"Hero"}
    assert (tmp_path / "all" / "players.csv").read_text().startswith("site,player,unit,")
    assert (tmp_path / "all" / "parse_errors.csv").exists()
    import datetime as dt

    november = Filters(since=dt.date(2009, 11, 26), until=dt.date(2009, 11, 26))
    assert build(corpus_db, tmp_path / "nov", november, "md").hands == 27
    assert build(corpus_db, tmp_path / "none", Filters(until=dt.date(2009, 1, 1)), "md").hands == 0


def test_clear_errors(corpus_db, tmp_path):
    with pytest.raises(ReportError, match="no player 'hero'.*did you mean pokerstars:Hero"):
        build(corpus_db, tmp_path, Filters(player="hero"), "html")
    with pytest.raises(ReportError, match="no 'holdem' hands"):
        build(corpus_db, tmp_path, Filters(game="holdem"), "html")
    missing = runner.invoke(app, ["report", "--db", str(tmp_path / "nope.duckdb")])
    assert missing.exit_code == 2 and "import hand histories first" in missing.output
    bad_date = runner.invoke(app, ["report", "--db", str(corpus_db), "--since", "26/11/2009"])
    assert bad_date.exit_code == 2 and "2024-01-31" in bad_date.output
    assert not (tmp_path / "nope.duckdb").exists()


def test_flagged_hands_are_listed_with_file_line_and_reason(tmp_path):
    # Two real razz hands altered: in the first a call is short (illegal), in the second the
    # winner collects a cent more than the pot holds after rake (mis-split).
    source = (SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt").read_text(encoding="utf-8-sig")
    lines = source.splitlines()
    short = lines.index("willy32948: calls $0.02")
    lines[short] = "willy32948: calls $0.01"
    greedy = lines.index("Hero collected $0.46 from pot")
    lines[greedy] = "Hero collected $0.47 from pot"
    log = tmp_path / "flagged.txt"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "f.duckdb"
    import_paths([str(log)], db, None, 1)
    report = build(db, tmp_path / "out", Filters(), "json")
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    illegal, mis_split = data["tables"]["illegal"], data["tables"]["mis_split"]
    assert illegal[0]["line"] == short + 1 and illegal[0]["code"] == "CALL_AMOUNT"
    assert illegal[0]["follows"] is None
    assert "willy32948" in illegal[0]["message"] and illegal[0]["file"].endswith("flagged.txt")
    # The short call also leaves the pot a cent short of its total and of what was paid:
    # listed under it, as following from it, not as a mis-split of their own.
    assert {(r["code"], r["follows"]) for r in illegal[1:]} == {
        ("POT_TOTAL", f"CALL_AMOUNT (line {short + 1})"),
        ("SPLIT_AMOUNT", f"CALL_AMOUNT (line {short + 1})"),
    }
    assert {r["hand_id"] for r in illegal} == {"35874566077"}
    assert {r["hand_id"] for r in mis_split} == {"35874590575"}
    assert (greedy + 1, "35874590575") in {(r["line"], r["hand_id"]) for r in mis_split}
    assert "1 flagged illegal, 1 flagged mis-split, 0 inconsistent" in report.summary
    # Counted by code: the faults only, a hand's consequences being part of its fault.
    by_code = {(r["kind"], r["code"]): r["flags"] for r in data["tables"]["flags_by_code"]}
    assert by_code == {("illegal", "CALL_AMOUNT"): 1, ("mis-split", "RAKE"): 1}
