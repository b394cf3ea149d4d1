"""`handlog bench --serve DB`: how long each page of `handlog serve` takes over a database.

The pages are asked in this process straight through the ASGI application (what uvicorn
calls; no network), each after one request to warm it, and timed `runs` times: the
median and the slowest, wall clock, and the median CPU time of the process (all its
threads: on a shared machine the steadier figure). Before that, the summary tables are brought up to date
(timed apart: once for a database imported without them, then only the new hands).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

PAGE_TARGET = 1.0
"""Seconds every page should answer within (issue 28), at a million hands."""


def _get(app: Any, path: str) -> tuple[int, int]:
    """GET `path` from the ASGI `app`: its status and the size of its body."""
    url, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": url,
        "raw_path": url.encode(),
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1:8000")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 8000),
        "root_path": "",
    }
    status = 0
    size = 0

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, size
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            size += len(message.get("body", b""))

    asyncio.run(app(scope, receive, send))
    return status, size


def pages(connection: Any) -> dict[str, str]:
    """The pages to time, named, with real values from the database (its busiest player,
    a flagged hand, a hand id to search)."""
    player = connection.execute(
        "SELECT player, site FROM serve_sums GROUP BY ALL ORDER BY sum(hands) DESC LIMIT 1"
    ).fetchall()
    name, site = player[0] if player else ("nobody", "pokerstars")
    flagged = connection.execute(
        "SELECT site, hand_id FROM violations ORDER BY site, hand_id LIMIT 1"
    ).fetchall()
    any_hand = connection.execute("SELECT hand_id FROM hands LIMIT 1").fetchall()
    who = f"player={quote(name)}&site={quote(site)}"
    found = {
        "overview": "/",
        "overview_player": f"/?{who}",
        "overview_filtered": "/?game=stud8&since=2024-01-01&min_hands=100",
        "hands": "/hands",
        "hands_player": f"/hands?{who}",
        "hands_page_100": "/hands?page=100",
        "hands_search": f"/hands?q={quote(any_hand[0][0] if any_hand else '1')}",
        "flags": "/flags",
        "flags_illegal": "/flags?kind=illegal",
        "sessions": "/sessions",
        "sessions_player": f"/sessions?{who}&sort=net",
        "query": "/query?sql=" + quote("SELECT game, count(*) FROM hands GROUP BY game"),
        "overview_json": "/overview.json",
    }
    if flagged:
        hand = f"/hand/{quote(flagged[0][0])}/{quote(flagged[0][1])}"
        found["replayer"] = hand
        found["hand_text"] = hand + "/text"
    return found


def page_figures(database: Path, runs: int = 3, echo: Any = print) -> dict[str, Any]:
    """Figures of the pages of `handlog serve` over `database` (see the module doc)."""
    from handlog import summary
    from handlog.serve import Options, open_server
    from handlog.serve.app import create_app

    server, lock = open_server(Options(database, []), 8000)
    figures: dict[str, Any] = {}
    try:
        started, cpu = time.perf_counter(), time.process_time()
        lock.resume()
        try:
            done = summary.catch_up(server.connection)
        finally:
            lock.pause()
        figures["serve.summarized_hands"] = done
        figures["serve.summary_seconds"] = round(time.perf_counter() - started, 2)
        figures["serve.summary_cpu_seconds"] = round(time.process_time() - cpu, 2)
        with server.connection.cursor() as cursor:
            figures["serve.hands"] = cursor.execute("SELECT count(*) FROM hands").fetchall()[0][0]
            wanted = pages(cursor)
        app = create_app(server)
        slowest = 0.0
        for name, path in wanted.items():
            echo(f"timing {name}: {path}")
            status, size = _get(app, path)  # warm: the first answer loads the templates
            if status != 200:
                figures[f"serve.page.{name}.status"] = status
                continue
            times = []
            cpu_times = []
            for _ in range(runs):
                started, cpu = time.perf_counter(), time.process_time()
                _get(app, path)
                times.append(time.perf_counter() - started)
                cpu_times.append(time.process_time() - cpu)
            figures[f"serve.page.{name}.seconds"] = round(statistics.median(times), 3)
            figures[f"serve.page.{name}.slowest"] = round(max(times), 3)
            # CPU time of every thread of the process (DuckDB's and Polars' included): on a
            # shared machine the steadier figure.
            figures[f"serve.page.{name}.cpu_seconds"] = round(statistics.median(cpu_times), 3)
            figures[f"serve.page.{name}.bytes"] = size
            slowest = max(slowest, max(times))
        figures["serve.slowest_page_seconds"] = round(slowest, 3)
        figures["serve.all_pages_within_target"] = slowest < PAGE_TARGET
    finally:
        server.connection.close()
        lock.close()
    return figures
