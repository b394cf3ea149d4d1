"""`handlog serve` in a real browser: the command started as a user starts it (a process
of its own, watching a folder), headless Chromium (Debian's package) driven by selenium.

One server and one browser for the module: the overview with its charts (hover), filters
and sorting; the hands list and its search; the replayer stepping through a flagged hand
with the keyboard and its buttons, and a hand's all-in equities; the flags and sessions pages; and a live update when
a watched file grows (a notice linking to the new flagged hand, the page's figures
updated without a reload). Hostile player names stay text throughout. Screenshots of
each page go to reports/screenshots/ (not kept in git) to look at.

Without Chromium, chromedriver or selenium the tests say how to install them and skip;
under CI (CI=true) that is a failure.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from handlog import summary
from handlog.importer import import_paths
from tests.test_report_browser import _browser_or_skip
from tests.test_serve import SCRIPT_NAME, hostile_hands

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "reports" / "screenshots"


@pytest.fixture(scope="module")
def site(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The server's address, the watched folder, the browser, and a hand with an all-in."""
    chromium, driver_path = _browser_or_skip()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    folder = tmp_path_factory.mktemp("served")
    logs = folder / "logs"
    shutil.copytree(ROOT / "sample_logs", logs)
    hostile_hands(logs)
    db = folder / "h.duckdb"
    files = sorted(str(p) for p in logs.glob("*.txt"))
    import_paths(files, db, None, 1, after_commit=summary.after_commit)
    with duckdb.connect(str(db), read_only=True) as cursor:  # a hand with an all-in
        all_in = cursor.execute(
            "SELECT site, hand_id FROM hands WHERE ev_all_in ORDER BY hand_id LIMIT 1"
        ).fetchone()
    command = [sys.executable, "-m", "handlog.cli", "serve", "--db", str(db)]
    server = subprocess.Popen(
        [*command, "--watch", str(logs), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=(folder / "server.log").open("w"),
        text=True,
    )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        f"--user-data-dir={folder / 'chromium-profile'}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = None
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert found, line + (folder / "server.log").read_text()
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        driver.set_page_load_timeout(60)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        yield found[1], logs, driver, all_in
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        print((folder / "server.log").read_text()[-3000:])


def _no_errors(driver) -> None:  # type: ignore[no-untyped-def]
    from selenium.common.exceptions import NoAlertPresentException

    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text  # noqa: B018
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


def _wait(condition, seconds: float = 30):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def test_overview_charts_filters_and_sorting(site):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, _, driver, _ = site
    driver.get(base)
    charts = driver.find_elements(By.CSS_SELECTOR, "figure.chart svg")
    assert len(charts) >= 3
    assert driver.find_elements(By.CSS_SELECTOR, "figure.chart path.line")
    # Hovering a line shows its values.
    ActionChains(driver).move_to_element(charts[0]).perform()
    tip = driver.find_element(By.CSS_SELECTOR, "figure.chart .tip")
    assert _wait(lambda: tip.is_displayed()) and "net won:" in tip.text
    # Beside the net, the all-in EV-adjusted net (the trackers' "all-in adjusted" line).
    legends = [
        legend.text for legend in driver.find_elements(By.CSS_SELECTOR, "figure.chart .legend")
    ]
    assert any("all-in EV" in legend and "net won" in legend for legend in legends)
    figure = driver.find_element(By.CSS_SELECTOR, "figure.chart[data-chart=cumulative]")
    figure.find_element(By.CSS_SELECTOR, ".switch button[data-x=time]").click()
    assert _wait(lambda: "all-in EV" in figure.find_element(By.CSS_SELECTOR, ".legend").text)
    assert figure.find_elements(By.CSS_SELECTOR, "path.line")
    # The hostile name is text in the tables and the charts' captions.
    names = {cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#players td.player")}
    assert SCRIPT_NAME in names
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#players th")]
    for name in ("EV net", "luck", "all-ins", "EV BB/100"):  # the all-in EV figures
        assert any(header.startswith(name) for header in headers), (name, headers)
    assert not driver.find_elements(By.CSS_SELECTOR, "main script:not([type])")
    driver.save_screenshot(str(SCREENSHOTS / "overview.png"))
    _no_errors(driver)

    # A filter: the form puts it in the URL, and every table follows.
    Select(driver.find_element(By.NAME, "game")).select_by_value("razz")
    driver.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]").click()
    _wait(lambda: "game=razz" in driver.current_url)
    games = {
        cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#games tbody td:nth-child(3)")
    }
    assert games == {"razz"}

    # Sorting: a column's name sorts its table, and the order is kept in the URL.
    driver.get(base)
    header = next(
        th
        for th in driver.find_elements(By.CSS_SELECTOR, "#players th")
        if th.text.startswith("net won")
    )
    header.click()
    values = [
        float(cell.get_attribute("data-value"))
        for cell in driver.find_elements(By.CSS_SELECTOR, "#players tbody td.money:nth-of-type(6)")
        if cell.get_attribute("data-value")
    ]
    assert values and values == sorted(values, reverse=True)
    assert "sort_table=players" in driver.current_url
    driver.get(driver.current_url)  # bookmarked: the same order
    again = [
        float(cell.get_attribute("data-value"))
        for cell in driver.find_elements(By.CSS_SELECTOR, "#players tbody td.money:nth-of-type(6)")
        if cell.get_attribute("data-value")
    ]
    assert again == values
    _no_errors(driver)


def test_hands_list_and_replayer(site):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    base, _, driver, _ = site
    driver.get(base + "hands")
    rows = driver.find_elements(By.CSS_SELECTOR, "#hands tbody tr")
    assert len(rows) == 50
    box = driver.find_element(By.NAME, "q")
    box.send_keys("script")
    box.submit()
    _wait(lambda: "q=script" in driver.current_url)
    names = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#hands td.names")]
    assert names and all(SCRIPT_NAME in name for name in names)
    driver.save_screenshot(str(SCREENSHOTS / "hands.png"))
    _no_errors(driver)

    # A flagged hand in the replayer: step with the keys and the buttons.
    driver.find_element(By.CSS_SELECTOR, "#hands a.verdict.flagged").click()
    _wait(lambda: "/hand/" in driver.current_url)
    position = driver.find_element(By.ID, "position")
    assert position.text.startswith("step 1 of ")
    total = int(position.text.rsplit(" ", 1)[1])
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_RIGHT)
    assert position.text == f"step 3 of {total}"
    body.send_keys(Keys.ARROW_LEFT)
    assert position.text == f"step 2 of {total}"
    driver.find_element(By.CSS_SELECTOR, "[data-step=next-flag]").click()
    now = driver.find_element(By.ID, "now")
    assert now.find_elements(By.CSS_SELECTOR, ".flagnote")
    current = driver.find_element(By.CSS_SELECTOR, "#steps li.current")
    assert "flagged" in current.get_attribute("class")
    seats = driver.find_elements(By.CSS_SELECTOR, "#seats .seat")
    assert len(seats) >= 2 and all(seat.find_elements(By.CSS_SELECTOR, ".who b") for seat in seats)
    # Down cards the history never shows are hidden, never guessed.
    cards = driver.find_elements(By.CSS_SELECTOR, "#seats .card")
    assert cards and any("unknown" in c.get_attribute("class") for c in cards)
    driver.save_screenshot(str(SCREENSHOTS / "replayer.png"))
    driver.find_element(By.CSS_SELECTOR, "[data-step=last]").click()
    assert position.text == f"step {total} of {total}"
    _no_errors(driver)

    # A hand with an all-in: from it on, each pot's equities on the felt and by each seat.
    all_in = site[3]
    assert all_in, "the simulated hands have no all-in"
    driver.get(f"{base}hand/{all_in[0]}/{all_in[1]}")
    driver.find_element(By.CSS_SELECTOR, "[data-step=last]").click()
    felt = driver.find_element(By.ID, "equity").text
    assert felt.startswith("EQUITY AT THE ALL-IN") or felt.startswith("equity at the all-in")
    assert re.search(r"main pot \S+: .+ \d+\.\d% ?(±\d+\.\d)?", felt), felt
    assert driver.find_elements(By.CSS_SELECTOR, "#seats .seat-equity")
    assert driver.find_elements(By.CSS_SELECTOR, "#results td.ev-net")
    driver.save_screenshot(str(SCREENSHOTS / "replayer-equity.png"))
    _no_errors(driver)

    # The raw text with the flagged line lit.
    driver.find_element(By.CSS_SELECTOR, "[data-step=next-flag]").click()
    driver.find_element(By.ID, "raw-link").click()
    _wait(lambda: "/text" in driver.current_url)
    lit = driver.find_element(By.CSS_SELECTOR, "table.source tr.lit")
    assert lit.is_displayed() and "flagged" in lit.get_attribute("class")
    _no_errors(driver)

    for name in ("flags", "sessions"):
        driver.get(base + name)
        assert driver.find_elements(By.CSS_SELECTOR, "table.data tbody tr")
        driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))
        _no_errors(driver)


def test_live_update_when_a_watched_file_grows(site, tmp_path):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    base, logs, driver, _ = site
    driver.get(base)
    driver.execute_script("window.handlogMarker = 'not reloaded'")

    def hero_hands() -> int:
        # Read in one script: the page's content may be swapped for fresh content between
        # two of selenium's calls.
        return int(
            driver.execute_script(
                """for (const row of document.querySelectorAll("#players tbody tr")) {
                       const cells = row.querySelectorAll("td");
                       if (cells.length > 4 && cells[0].textContent === arguments[0])
                           return Number(cells[4].textContent.replace(/,/g, ""));
                   }
                   return 0;""",
                SCRIPT_NAME,
            )
        )

    before = hero_hands()
    grown = hostile_hands(tmp_path, seed=12, hands=20)
    with (logs / f"faulty-{11}.txt").open("a", encoding="utf-8") as out:
        out.write("\n\n\n" + grown.read_text(encoding="utf-8"))
    notice = _wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#notices .notice a"), 60)
    assert notice, "no notice of the new flagged hand"
    assert notice[0].get_attribute("href").startswith(base + "hand/pokerstars/")
    assert _wait(lambda: hero_hands() == before + 20, 30)
    assert driver.execute_script("return window.handlogMarker") == "not reloaded"
    driver.save_screenshot(str(SCREENSHOTS / "live.png"))
    notice[0].click()
    _wait(lambda: "/hand/" in driver.current_url)
    assert driver.find_element(By.ID, "position").text.startswith("step ")
    _no_errors(driver)
