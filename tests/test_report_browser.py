"""report.html in a real browser: headless Chromium (the Debian package) driven by selenium
through the system chromedriver.

On the sample logs plus simulated faulty hands, two players renamed to hostile HTML: the
page logs no console error, every chart image is loaded and visible, following a flag's
link opens its hand with the flagged line highlighted, and the hostile names show as text
(no script runs, no element is made of them). A screenshot of a flagged hand's evidence is
saved as reports/evidence.png to look at.

Without Chromium, chromedriver or selenium the test says how to install them and skips;
under CI (CI=true) that is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from handlog.importer import import_paths
from handlog.report import build
from handlog.report.data import Filters

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_LOGS = ROOT / "sample_logs"
SHARED_CORPUS = ROOT.parent / "shared" / "corpus"
SCRIPT_NAME = "<script>alert(1)</script>"
IMAGE_NAME = "<img src=x onerror=alert(2)>"
BETTING_CODES = {
    "OUT_OF_TURN",
    "CHECK_FACING_BET",
    "BET_SIZE",
    "RAISE_CAP",
    "CALL_AMOUNT",
    "ACTED_AFTER_FOLD",
    "OVER_STACK",
}
INSTALL = (
    "the browser test needs Chromium and chromedriver (Debian: apt-get install -y chromium "
    "chromium-driver) and selenium (pip install -e '.[dev]')"
)


def _browser_or_skip():  # type: ignore[no-untyped-def]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    try:
        from selenium import webdriver  # noqa: F401
    except ImportError:
        chromium = None
    if chromium is None or driver is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no browser under CI: {INSTALL}")
        pytest.skip(INSTALL)
    return chromium, driver


@pytest.fixture
def browser(tmp_path):  # type: ignore[no-untyped-def]
    chromium, driver_path = _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        f"--user-data-dir={tmp_path / 'chromium-profile'}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def _faulty_hands(tmp_path: Path) -> Path:
    """Simulated stud8 hands with injected faults, two of the players renamed to HTML."""
    path = tmp_path / "faulty.txt"
    from typer.testing import CliRunner

    from handlog.cli import app

    arguments = ["simulate", "--game", "stud8", "--hands", "150", "--seed", "11"]
    result = CliRunner().invoke(app, [*arguments, "--faults", "0.2", "--out", str(path)])
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    others = [
        name
        for name in dict.fromkeys(re.findall(r"^Seat \d: (\S+) \(", text, re.MULTILINE))
        if name != "Hero"
    ]
    text = text.replace("Hero", SCRIPT_NAME)
    text = re.sub(rf"\b{re.escape(others[0])}\b", IMAGE_NAME, text)
    path.write_text(text, encoding="utf-8")
    return path


def test_report_in_a_real_browser(tmp_path, browser):  # type: ignore[no-untyped-def]
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    db = tmp_path / "h.duckdb"
    files = sorted(str(p) for p in SAMPLE_LOGS.glob("*.txt")) + [str(_faulty_hands(tmp_path))]
    import_paths(files, db, None, 1)
    out = tmp_path / "report"
    build(db, out, Filters(), "html")
    browser.get((out / "report.html").as_uri())

    # No script ran: no alert is open, and nothing was logged as an error.
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []

    # Every chart is loaded and visible.
    images = browser.find_elements(By.TAG_NAME, "img")
    assert len(images) == 3
    for image in images:
        assert (
            browser.execute_script(
                "return arguments[0].complete && arguments[0].naturalWidth", image
            )
            > 200
        )
        assert image.is_displayed() and image.size["width"] > 200 and image.size["height"] > 100

    # The hostile names are text: cells hold them as written, and no element was made of them.
    cells = {cell.text for cell in browser.find_elements(By.CSS_SELECTOR, "td.text")}
    assert SCRIPT_NAME in cells and IMAGE_NAME in cells
    assert len(browser.find_elements(By.CSS_SELECTOR, 'img[src="x"]')) == 0
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 0

    # Every flag of the tables links to a hand that is there, closed until asked.
    links = browser.find_elements(By.CSS_SELECTOR, "td.text a[href^='#hand-']")
    assert links
    for link in links:
        target = link.get_attribute("href").split("#", 1)[1]
        assert len(browser.find_elements(By.CSS_SELECTOR, f"details.hand #{target}")) == 1
    # Follow the link of a betting flag: its hand opens with the line highlighted.
    rows = [link.find_element(By.XPATH, "./ancestor::tr") for link in links]
    row = next(r for r in rows if set(r.text.split()) & BETTING_CODES)
    code = (set(row.text.split()) & BETTING_CODES).pop()
    link = row.find_element(By.TAG_NAME, "a")
    line = int(row.find_elements(By.TAG_NAME, "td")[1].text.replace(",", ""))
    target = browser.find_element(By.ID, link.get_attribute("href").split("#", 1)[1])
    details = target.find_element(By.XPATH, "./ancestor::details")
    flagged = details.find_elements(By.CSS_SELECTOR, "tr.flagged")
    assert details.get_attribute("open") is None and not flagged[0].is_displayed()
    # (centred in its table's box: the box's header row stays on top of its first rows)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    # Chromium opens a closed <details> holding the target of a link followed.
    assert details.get_attribute("open") is not None
    marked = [r for r in flagged if r.find_element(By.CSS_SELECTOR, "td.ln").text == str(line)]
    assert len(marked) == 1 and marked[0].is_displayed()
    source = marked[0].find_element(By.CSS_SELECTOR, "td.src")
    assert source.value_of_css_property("background-color") == "rgba(255, 224, 224, 1)"
    why = marked[0].find_element(By.CSS_SELECTOR, "td.why").text
    assert code in why and "Replay: on " in why and " pot " in why
    # The replay's state names every player at the table, the hostile ones as text.
    hand_text = details.text
    assert "Replay: on " in hand_text

    reports = ROOT / "reports"
    reports.mkdir(exist_ok=True)
    browser.execute_script("arguments[0].scrollIntoView()", details)
    assert details.screenshot(str(reports / "evidence.png"))
    hostile = next(
        (
            d
            for d in browser.find_elements(By.CSS_SELECTOR, "details.hand")
            if SCRIPT_NAME in d.get_attribute("textContent")
        ),
        None,
    )
    assert hostile is not None
    summary = hostile.find_element(By.TAG_NAME, "summary")
    browser.execute_script("arguments[0].scrollIntoView()", summary)
    if hostile.get_attribute("open") is None:  # (it may be the hand opened above)
        summary.click()
    assert hostile.get_attribute("open") is not None
    assert SCRIPT_NAME in hostile.text
    assert browser.get_log("browser") == [] or all(
        entry["level"] != "SEVERE" for entry in browser.get_log("browser")
    )


_TABLES_JS = """
return Array.from(document.querySelectorAll('table[data-key]')).map(table => ({
    key: table.dataset.key,
    headers: Array.from(table.querySelectorAll('thead th')).map(th => th.textContent),
    rows: Array.from(table.querySelectorAll('tbody tr')).map(
        tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent)),
    scrolls: getComputedStyle(table.parentElement).overflowX,
    fits: table.parentElement.getBoundingClientRect().right <= window.innerWidth,
}));
"""


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="no ../shared/corpus")
def test_the_corpus_report_never_mixes_sites_players_or_units(tmp_path, browser):  # type: ignore[no-untyped-def]
    """Every real export of every site in one database, its report in Chromium: every row
    of a table about players names one account (a site and a name that played there) and,
    where it has amounts, one unit that account played in; the win-rates by player match
    the database's own sums for that account, unit and structure; every table fits the
    window (wide ones scroll inside their box) and says what its columns mean."""
    import duckdb
    from selenium.webdriver.common.by import By

    from handlog.units import money

    db = tmp_path / "corpus.duckdb"
    from handlog.parse.reader import expand_paths

    files, _ = expand_paths([str(SHARED_CORPUS)])
    import_paths(files, db, None, 2)
    out = tmp_path / "report"
    build(db, out, Filters(), "html")
    browser.get((out / "report.html").as_uri())
    tables = browser.execute_script(_TABLES_JS)
    connection = duckdb.connect(str(db), read_only=True)
    try:
        played = {
            (site, player, unit): (hands, net)
            for site, player, unit, hands, net in connection.execute("""
                SELECT p.site, p.player, h.unit, count(*), sum(p.net)
                FROM hand_players p JOIN hands h USING (site, hand_id)
                WHERE p.dealt_in GROUP BY ALL""").fetchall()
        }
        groups = {
            (site, player, unit, structure): (hands, net)
            for site, player, unit, structure, hands, net in connection.execute("""
                SELECT p.site, p.player, h.unit, h.structure, count(*), sum(p.net)
                FROM hand_players p JOIN hands h USING (site, hand_id)
                WHERE p.dealt_in GROUP BY ALL""").fetchall()
        }
    finally:
        connection.close()
    accounts = {(site, player) for site, player, _ in played}
    assert {site for site, _ in accounts} >= {"pokerstars", "fulltilt", "ipoker", "kingsclub"}
    checked = 0
    for table in tables:
        headers = table["headers"]
        assert table["scrolls"] == "auto" and table["fits"], table["key"]
        if "player" not in headers or not table["rows"]:
            continue
        assert "site" in headers, table["key"]  # every player row names its site
        at = {header: headers.index(header) for header in headers}
        amounts = {"net won", "rake paid", "net per hour", "net per 100 hands"} & set(headers)
        if amounts:
            assert "unit" in headers, table["key"]  # every amount with its unit
        for row in table["rows"]:
            site, player = row[at["site"]], row[at["player"]]
            if table["key"] in ("illegal", "mis_split"):
                assert player == "" or (site, player) in accounts, (table["key"], row)
                continue
            assert (site, player) in accounts, (table["key"], row)
            if "unit" in at:
                assert (site, player, row[at["unit"]]) in played, (table["key"], row)
            checked += 1
        if table["key"] == "players":
            shown = {
                (r[at["site"]], r[at["player"]], r[at["unit"]], r[at["limit"]]): r
                for r in table["rows"]
            }
            assert shown.keys() == groups.keys()
            for key, (hands, net) in groups.items():
                row = shown[key]
                assert int(row[at["hands"]].replace(",", "")) == hands, key
                assert row[at["net won"]] == money(net, key[2]), key
    assert checked > 500
    # The definitions beside the tables, and a table of contents that leads to each.
    assert len(browser.find_elements(By.CSS_SELECTOR, "dl.defs")) >= 10
    for link in browser.find_elements(By.CSS_SELECTOR, "nav.toc a"):
        target = link.get_attribute("href").split("#", 1)[1]
        assert browser.find_elements(By.ID, target), target
    reports = ROOT / "reports"
    reports.mkdir(exist_ok=True)
    browser.save_screenshot(str(reports / "corpus-report.png"))
