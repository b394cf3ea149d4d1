"""`handlog serve`: the store in a browser. Starlette routes, each a thin view over
`handlog.serve.queries` rendered by a Jinja2 template (every value escaped) or as JSON
(`?format=json`, or the page's path with `.json`), filters kept in the URL.

    app = create_app(Server(...)); uvicorn runs it (`handlog.serve.run`).

Safe by default: requests whose Host is not the address served are refused (DNS
rebinding); every page carries a Content-Security-Policy that allows only this server's
own script and style; an error shows a generic page, its detail only in the server's log.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import math
import threading
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import polars as pl
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from handlog.report.render import money
from handlog.serve import queries
from handlog.serve.queries import Filters

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, MutableMapping

    import duckdb
    from starlette.types import ASGIApp, Receive, Scope, Send

    from handlog.serve.live import Live

log = logging.getLogger("handlog.serve")
HERE = Path(__file__).parent

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


@dataclass
class Server:
    """What the pages read: the database connection (each request reads through a cursor
    of its own), the hosts it answers to, and the live part (`handlog.serve.live`)."""

    connection: duckdb.DuckDBPyConnection
    database: str
    allowed_hosts: frozenset[str]
    live: Live | None = None
    version: int = 0
    """Goes up whenever new hands are stored and summarized (pages cache by it)."""
    _choices: tuple[int, dict[str, Any]] | None = None
    _people: tuple[int, tuple[Any, Any]] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor of its own for a request, the persons' accounts and the players' lengths
        of a one-hand session registered on it (`queries.register_people`, made again when
        new hands are stored)."""
        cursor = self.connection.cursor()
        cached = self._people
        if cached is None or cached[0] != self.version:
            made = queries.register_people(cursor)
            self._people = None if made is None else (self.version, made)
        else:
            queries.register_people(cursor, cached[1])
        return cursor

    def choices(self, cursor: duckdb.DuckDBPyConnection) -> dict[str, Any]:
        cached = self._choices
        if cached is None or cached[0] != self.version:
            cached = (self.version, queries.choices(cursor))
            self._choices = cached
        return cached[1]


# -- formatting ----------------------------------------------------------------------------


def _number(value: Any, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}f}"


def _percent(value: Any) -> str:
    return "" if value is None or value != value else f"{100 * value:.1f}%"


def _time(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    return str(value)


def _sort_value(value: Any) -> str:
    """A cell's value for the page's sorting script (numbers as numbers, text as text)."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return str(value)


def _environment() -> Environment:
    environment = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters.update(
        money=lambda value, unit: money(value, unit) if value == value else "",
        number=_number,
        percent=_percent,
        time=_time,
        sortvalue=_sort_value,
    )
    return environment


ENVIRONMENT = _environment()


def _static_version() -> str:
    """A short hash of the page's script and style, in their URLs: a browser that kept an
    older copy asks for the new one."""
    import hashlib

    digest = hashlib.sha256()
    for name in ("app.js", "app.css"):
        digest.update((HERE / "static" / name).read_bytes())
    return digest.hexdigest()[:12]


ENVIRONMENT.globals["static_version"] = _static_version()


def _cell(row: dict[str, Any], key: str, kind: str) -> str:
    """A table cell's text as HTML, every value escaped (the templates' `cell`)."""
    value = row.get(key)
    if kind == "money":
        return (
            str(escape(money(value, row["unit"]))) if value == value and value is not None else ""
        )
    if kind in ("num", "int"):
        return _number(value)
    if kind == "pct":
        return _percent(value)
    if kind == "time":
        return str(escape(_time(value)))
    if kind == "hours":
        return _number(value, 1)
    if kind == "player":
        target = quote(str(row.get("player_key") or value or ""), safe="")
        return f'<a href="/?player={target}" title="this player\'s figures">{escape(value)}</a>'
    return "" if value is None else str(escape(value))


def _table_rows(rows: pl.DataFrame, columns: list[tuple[str, str, str]]) -> Any:
    """The `<tr>`s of a sortable table (`_macros.html`'s `table`): written here, every
    value escaped, as a template's macro per cell took a third of a second for the
    overview's fifteen thousand cells."""
    lines = []
    for row in rows.iter_rows(named=True):
        cells = []
        for key, _, kind in columns:
            value = row.get(key)
            negative = (
                kind in ("money", "num")
                and isinstance(value, int | float)
                and value == value
                and value < 0
            )
            sort = escape(_sort_value(value))
            css = f"{kind} neg" if negative else kind
            cells.append(f'<td class="{css}" data-value="{sort}">{_cell(row, key, kind)}</td>')
        lines.append("<tr>" + "".join(cells) + "</tr>")
    return Markup("\n".join(lines))


ENVIRONMENT.globals["table_rows"] = _table_rows
ENVIRONMENT.globals["cell"] = lambda row, key, kind: Markup(_cell(row, key, kind))


def _plain(value: Any) -> Any:
    """A value as JSON can hold it."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, pl.DataFrame):
        return [{k: _plain(v) for k, v in row.items()} for row in value.iter_rows(named=True)]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def json_response(data: Any, status: int = 200) -> Response:
    body = json.dumps(_plain(data), ensure_ascii=False, separators=(",", ":"))
    return Response(body, status, media_type="application/json")


def wants_json(request: Request) -> bool:
    return request.url.path.endswith(".json") or request.query_params.get("format") == "json"


def page(request: Request, template: str, context: dict[str, Any], status: int = 200) -> Response:
    server: Server = request.app.state.server
    live = server.live
    context = {
        "request": request,
        "path": request.url.path,
        "query": request.url.query,
        "database": server.database,
        "watching": live.folders if live else [],
        "summary_progress": live.progress if live else None,
        "version": server.version,
        **context,
    }
    body = ENVIRONMENT.get_template(template).render(context)
    return HTMLResponse(body, status)


def _int(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name, "")
    return int(text) if text.isdigit() and len(text) < 9 else default


# -- pages ---------------------------------------------------------------------------------


async def overview(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_overview, request)


def _overview(request: Request) -> Response:
    server: Server = request.app.state.server
    filters = Filters.from_query(request.query_params)
    with server.cursor() as cursor:
        filters = queries.resolved(cursor, filters)
        players = queries.winrates(cursor, filters, ["site", "player"], filters.minimum)
        games = queries.with_stakes(
            queries.winrates(
                cursor,
                filters,
                ["site", "player", "game", "small_bet", "big_bet"],
                filters.minimum,
            )
        )
        if filters.player:
            focus = [
                (site, name)
                for site, name in players.select("site", "player")
                .unique(maintain_order=True)
                .iter_rows()
            ][: queries.FOCUS_PLAYERS]
        else:
            focus = list(
                players.group_by("site", "player", maintain_order=True)
                .agg(pl.col("hands").sum())
                .sort("hands", descending=True)
                .select("site", "player")
                .head(queries.FOCUS_PLAYERS)
                .iter_rows()
            )
        charts = {
            "over_hands": queries.over_hands(cursor, filters, focus),
            "over_time": queries.by_day(cursor, filters, focus),
            "by_game": _plain(
                queries.winrates(
                    cursor, filters, ["site", "player", "game"], in_big_bets=True
                ).filter(
                    pl.struct("site", "player").is_in([{"site": s, "player": p} for s, p in focus])
                    if focus
                    else pl.lit(False)
                )
            ),
            "flags": queries.flag_days(cursor, filters),
        }
        choices = server.choices(cursor)
        unknown_stakes = queries.unknown_stakes(cursor, filters)
        stats = queries.stud_stats(cursor, filters, filters.minimum)
    data = {
        "filters": filters.items(),
        "players": players.head(queries.MAX_TABLE_ROWS),
        "players_count": players.height,
        "games": games.head(queries.MAX_TABLE_ROWS),
        "games_count": games.height,
        "unknown_stakes": unknown_stakes,
        "stats": stats.head(queries.MAX_TABLE_ROWS),
        "stats_count": stats.height,
        "charts": charts,
    }
    if wants_json(request):
        return json_response(data)
    shown = queries.SHOWN_TABLE_ROWS
    return page(
        request,
        "overview.html",
        {
            **data,
            "players": players.head(shown),
            "games": games.head(shown),
            "stats": stats.head(queries.SHOWN_STATS_ROWS),
            "filters": filters,
            "errors": filters.errors(),
            "choices": choices,
            "chart_data": _plain(charts),
            "active": "overview",
        },
    )


async def hands_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_hands, request)


def _hands(request: Request) -> Response:
    server: Server = request.app.state.server
    filters = Filters.from_query(request.query_params)
    search = request.query_params.get("q", "").strip()[:200]
    sort = request.query_params.get("sort", "time")
    descending = request.query_params.get("order", "desc") != "asc"
    with server.cursor() as cursor:
        filters = queries.resolved(cursor, filters)
        found = queries.hands(cursor, filters, search, _int(request, "page", 1), sort, descending)
        choices = server.choices(cursor)
    if wants_json(request):
        return json_response({"filters": filters.items(), "q": search, **found})
    return page(
        request,
        "hands.html",
        {
            **found,
            "filters": filters,
            "errors": filters.errors(),
            "choices": choices,
            "q": search,
            "sort": sort,
            "descending": descending,
            "active": "hands",
        },
    )


async def hand_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_hand, request)


def _hand(request: Request) -> Response:
    from handlog.serve import replayer

    server: Server = request.app.state.server
    site = request.path_params["site"]
    hand_id = request.path_params["hand_id"]
    as_json = wants_json(request)
    if hand_id.endswith(".json") and request.url.path.endswith(".json"):
        hand_id = hand_id[: -len(".json")]
    with server.cursor() as cursor:
        row = queries.hand_row(cursor, site, hand_id)
        if row is None:
            raise HTTPException(404, f"no hand {hand_id} of {site} in the database")
        flags = queries.hand_flags(cursor, site, hand_id)
        players = queries.hand_players(cursor, site, hand_id)
        text = queries.hand_text(cursor, row)
        around = queries.neighbours(cursor, row)
        stored = queries.hand_equities(cursor, site, hand_id) if row["ev_all_in"] else []
    view = replayer.view(row, text, flags, stored, players)
    data = {
        "hand": row,
        "players": players,
        "flags": flags,
        "replay": view,
        "text_source": text.source if text else None,
        "previous": around["previous"],
        "next": around["next"],
    }
    if as_json:
        return json_response(data)
    return page(
        request,
        "hand.html",
        {
            **data,
            "unit": row["unit"],
            "text": text,
            "replay_data": _plain(view),
            "active": "hands",
            "lit": _int(request, "line", 0),
        },
    )


async def text_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_text, request)


def _text(request: Request) -> Response:
    server: Server = request.app.state.server
    site, hand_id = request.path_params["site"], request.path_params["hand_id"]
    with server.cursor() as cursor:
        row = queries.hand_row(cursor, site, hand_id)
        if row is None:
            raise HTTPException(404, f"no hand {hand_id} of {site} in the database")
        text = queries.hand_text(cursor, row)
        flags = queries.hand_flags(cursor, site, hand_id)
    if text is None:
        raise HTTPException(404, "the hand's text is not stored and its file no longer holds it")
    lines = [(text.line + i, line) for i, line in enumerate(text.text.split("\n"))]
    flagged: dict[int, list[dict[str, Any]]] = {}
    for flag in flags:
        flagged.setdefault(flag["line"], []).append(flag)
        for consequence in flag["consequences"]:
            label = f"follows {flag['code']} (line {flag['line']})"
            flagged.setdefault(consequence["line"], []).append({**consequence, "kind": label})
    if wants_json(request):
        return json_response(
            {"file": text.file, "line": text.line, "source": text.source, "text": text.text}
        )
    return page(
        request,
        "text.html",
        {
            "hand": row,
            "text": text,
            "lines": lines,
            "flagged": flagged,
            "lit": _int(request, "line", 0),
            "active": "hands",
        },
    )


async def flags_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_flags, request)


def _flags(request: Request) -> Response:
    server: Server = request.app.state.server
    filters = Filters.from_query(request.query_params)
    kind = request.query_params.get("kind", "")[:40]
    code = request.query_params.get("code", "")[:40]
    with server.cursor() as cursor:
        filters = queries.resolved(cursor, filters)
        found = queries.flags(cursor, filters, kind, code, _int(request, "page", 1))
        choices = server.choices(cursor)
    if wants_json(request):
        return json_response({"filters": filters.items(), "kind": kind, "code": code, **found})
    return page(
        request,
        "flags.html",
        {
            **found,
            "filters": filters,
            "errors": filters.errors(),
            "choices": choices,
            "kind": kind,
            "code": code,
            "kinds": queries.KINDS,
            "active": "flags",
        },
    )


async def sessions_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_sessions, request)


def _sessions(request: Request) -> Response:
    server: Server = request.app.state.server
    filters = Filters.from_query(request.query_params)
    sort = request.query_params.get("sort", "first")
    descending = request.query_params.get("order", "desc") != "asc"
    with server.cursor() as cursor:
        filters = queries.resolved(cursor, filters)
        found = queries.sessions(cursor, filters, _int(request, "page", 1), sort, descending)
        choices = server.choices(cursor)
    if wants_json(request):
        return json_response({"filters": filters.items(), **found})
    return page(
        request,
        "sessions.html",
        {
            **found,
            "filters": filters,
            "errors": filters.errors(),
            "choices": choices,
            "sort": sort,
            "descending": descending,
            "active": "sessions",
        },
    )


async def query_page(request: Request) -> Response:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(_query, request)


def _query(request: Request) -> Response:
    from handlog.serve import sql

    server: Server = request.app.state.server
    text = request.query_params.get("sql", "")[: sql.MAX_SQL]
    result = sql.run(server.connection, text) if text.strip() else None
    if wants_json(request):
        if result is None:
            return json_response({"error": "give the query as ?sql=SELECT ..."}, 400)
        return json_response(
            {
                "sql": text,
                "columns": result.columns,
                "rows": result.rows,
                "truncated": result.truncated,
                "error": result.error,
                "seconds": result.seconds,
            },
            400 if result.error else 200,
        )
    with server.cursor() as cursor:
        tables = [
            r[0]
            for r in cursor.execute(
                "SELECT table_name FROM duckdb_tables() WHERE NOT internal "
                "AND database_name = current_database() AND NOT temporary ORDER BY 1"
            ).fetchall()
        ]
    return page(
        request,
        "query.html",
        {"sql": text, "result": result, "tables": tables, "limits": sql.LIMITS, "active": "query"},
    )


async def events(request: Request) -> Response:
    """Server-Sent Events: "stored" when new hands are stored and summarized (with the
    newly flagged hands), "summary" while the summary tables are built."""
    server: Server = request.app.state.server
    live = server.live
    if live is None:
        return PlainTextResponse("not watching\n", 204)
    queue = live.subscribe(asyncio.get_running_loop())

    async def stream() -> AsyncIterator[str]:
        try:
            yield f"retry: 2000\nevent: hello\ndata: {json.dumps({'version': server.version})}\n\n"
            while not live.stopping:
                try:
                    event = await asyncio.wait_for(queue.get(), timeout=15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if event is None:
                    return
                name, data = event
                yield f"event: {name}\ndata: {json.dumps(_plain(data), ensure_ascii=False)}\n\n"
        finally:
            live.unsubscribe(queue)

    return StreamingResponse(
        stream(),
        media_type="text/event-stream",
        headers={"cache-control": "no-cache", "x-accel-buffering": "no"},
    )


async def status(request: Request) -> Response:
    server: Server = request.app.state.server
    live = server.live
    progress = live.progress if live else None
    return json_response(
        {
            "version": server.version,
            "watching": live.folders if live else [],
            "summary": {"done": progress.done, "total": progress.total, "running": progress.running}
            if progress
            else None,
            "last_import": live.last if live else None,
        }
    )


# -- errors and the Host check -------------------------------------------------------------


async def not_found(request: Request, error: Exception) -> Response:
    detail = getattr(error, "detail", "not found")
    code = getattr(error, "status_code", 404)
    if wants_json(request):
        return json_response({"error": detail}, code)
    try:
        return page(request, "error.html", {"message": detail, "code": code}, code)
    except Exception:  # the error page itself failed: plain text, never a traceback
        return PlainTextResponse(f"{code}: {detail}\n", code)


async def server_error(request: Request, error: Exception) -> Response:
    log.error("%s %s failed", request.method, request.url.path, exc_info=error)
    message = "Something went wrong on the server; its log says what. Nothing was changed."
    if wants_json(request):
        return json_response({"error": message}, 500)
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>handlog: error</title>"
        f"<h1>Error</h1><p>{message}</p><p><a href=/>Back to the overview</a></p>",
        500,
        headers=SECURITY_HEADERS,
    )


class Guard:
    """Refuses requests whose Host header is not one the server answers to (a page of
    another site whose name resolves to this machine cannot read it: DNS rebinding), and
    adds the security headers to every response."""

    def __init__(self, app: ASGIApp, allowed: Callable[[], frozenset[str]]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = ""
        for name, value in scope.get("headers", []):
            if name == b"host":
                host = value.decode("latin-1").lower()
                break
        if host not in self.allowed():
            log.warning("refused a request for Host %r (not one this server answers to)", host)
            response = PlainTextResponse(
                "This server answers only to the address it was started on.\n", 421
            )
            await response(scope, receive, send)
            return

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def hosts_for(host: str, port: int) -> frozenset[str]:
    """The Host headers a server bound to `host`:`port` answers to: that address (and, on
    the loopback interface, the names of it) with the port."""
    names = {host.lower()}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    if ":" in host and not host.startswith("["):
        names.add(f"[{host}]")
    allowed = {f"{name}:{port}" for name in names}
    if port == 80:
        allowed |= names
    return frozenset(allowed)


def create_app(server: Server) -> ASGIApp:
    """The ASGI application over `server`."""

    def both(path: str, endpoint: Any) -> list[Route]:
        return [Route(path, endpoint), Route(path + ".json", endpoint)]

    routes = [
        Route("/", overview),
        Route("/overview.json", overview),
        *both("/hands", hands_page),
        *both("/hand/{site}/{hand_id}/text", text_page),
        Route("/hand/{site}/{hand_id:path}", hand_page),
        *both("/flags", flags_page),
        *both("/sessions", sessions_page),
        *both("/query", query_page),
        Route("/events", events),
        Route("/status.json", status),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: not_found, Exception: server_error, 500: server_error},
    )
    app.state.server = server
    return Guard(app, lambda: server.allowed_hosts)
