"""Every query `handlog serve` makes of the store, and the filters of its pages.

The pages never compute a figure themselves: win-rates come from the summary tables
(`handlog.serve.summary`) through the report's own functions (`compute.sums_from_moments`,
`compute.winrate_figures`), hands, flags and texts from the store's tables. A player is
an account: (site, name); `_player_clause` is the one place that says which rows are a
player's (aliases of one person, once the store keeps them, go there).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import polars as pl

from handlog.report import compute
from handlog.report.data import UNIT_SQL
from handlog.report.render import money
from handlog.rules import violations
from handlog.rules.violations import MIS_SPLIT_CODES

if TYPE_CHECKING:
    from collections.abc import Mapping

    import duckdb

PAGE_SIZE = 50
MAX_TABLE_ROWS = 1000
"""Rows of a win-rate table in the JSON (it says how many there are in all)."""
SHOWN_TABLE_ROWS = 300
"""Rows of a win-rate table shown on the page, those with the most hands (a page of a
thousand rows of fifteen columns took a second to write)."""
CHART_POINTS = 1500
"""Points per line of a chart over hands (every k-th hand, and the last)."""
FOCUS_PLAYERS = 3
"""Players charted when no player is chosen: those with the most hands (as the report)."""

INCONSISTENT_CODES = frozenset({"PLAYER_NET", "HAND_DESCRIPTION", "POT_TOTAL"})
"""Codes that say the site's own printed figures contradict its actions (RULES.md's
"inconsistent history"), until the store keeps each violation's kind."""
KINDS = tuple(kind.value for kind in violations.KINDS)


def kind_sql(has_kind_column: bool) -> str:
    """A violation's kind (one of `KINDS`) in SQL over the `violations` table as `v`: its
    own `kind` column where the store has one, else from its code."""
    if has_kind_column:
        return "v.kind"
    inconsistent = ", ".join(f"'{code}'" for code in sorted(INCONSISTENT_CODES))
    mis_split = ", ".join(f"'{code}'" for code in sorted(MIS_SPLIT_CODES - INCONSISTENT_CODES))
    return (
        f"CASE WHEN v.code IN ({inconsistent}) THEN 'inconsistent' "
        f"WHEN v.code IN ({mis_split}) THEN 'mis-split' ELSE 'illegal' END"
    )


# -- filters -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    """What a page shows, as its URL says (every field a query parameter)."""

    player: str = ""
    """A name (every account of that name, unless `site` says which)."""
    site: str = ""
    game: str = ""
    structure: str = ""
    stakes: str = ""
    """The small and big bet in minor units: "4-8"."""
    unit: str = ""
    since: str = ""
    until: str = ""
    table: str = ""
    """A table's key: site, tournament and table name, as the report's sessions key them."""
    min_hands: str = ""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Filters:
        values = {f.name: query.get(f.name, "").strip()[:200] for f in fields(cls)}
        return cls(**values)

    def query(self, **changes: str) -> str:
        """These filters (with `changes`) as a URL query string."""
        from urllib.parse import urlencode

        chosen = replace(self, **changes) if changes else self
        return urlencode(
            {f.name: getattr(chosen, f.name) for f in fields(chosen) if getattr(chosen, f.name)}
        )

    def items(self) -> dict[str, str]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}

    def errors(self) -> list[str]:
        """What is wrong with the values given (the page says so and ignores them)."""
        wrong = []
        for name in ("since", "until"):
            if getattr(self, name) and _date(getattr(self, name)) is None:
                wrong.append(f"{name}: not a date (YYYY-MM-DD): {getattr(self, name)}")
        if self.stakes and _stakes(self.stakes) is None:
            wrong.append(f"stakes: not small-big in minor units (4-8): {self.stakes}")
        if self.min_hands and not self.min_hands.isdigit():
            wrong.append(f"min_hands: not a number: {self.min_hands}")
        return wrong

    @property
    def minimum(self) -> int:
        return int(self.min_hands) if self.min_hands.isdigit() else 0


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def _stakes(text: str) -> tuple[int, int] | None:
    found = re.fullmatch(r"(\d{1,15})-(\d{1,15})", text)
    return (int(found[1]), int(found[2])) if found else None


class Where:
    """A WHERE clause built a condition at a time, with its parameters."""

    def __init__(self) -> None:
        self.clauses: list[str] = []
        self.parameters: list[Any] = []

    def add(self, clause: str, *parameters: Any) -> None:
        self.clauses.append(clause)
        self.parameters.extend(parameters)

    def sql(self, prefix: str = "WHERE") -> str:
        return f"{prefix} " + " AND ".join(self.clauses) if self.clauses else ""


def _player_clause(where: Where, filters: Filters, alias: str) -> None:
    """The rows of the chosen player: every account of that name, or the one on
    `filters.site` (the site clause itself is added with the others)."""
    if filters.player:
        where.add(f"{alias}player = ?", filters.player)


def summary_where(filters: Filters, alias: str = "") -> Where:
    """The filters over `serve_sums` or `serve_rows` (columns of `summary.SUM_KEYS`)."""
    where = Where()
    _player_clause(where, filters, alias)
    for name in ("site", "game", "structure", "unit"):
        if getattr(filters, name):
            where.add(f"{alias}{name} = ?", getattr(filters, name))
    stakes = _stakes(filters.stakes)
    if stakes:
        where.add(f"{alias}small_bet = ? AND {alias}big_bet = ?", *stakes)
    if filters.table:
        where.add(f"{alias}table_key = ?", filters.table)
    since, until = _date(filters.since), _date(filters.until)
    if since:
        where.add(f"{alias}day >= ?", since)
    if until:
        where.add(f"{alias}day <= ?", until)
    return where


def hands_where(filters: Filters, flagged: bool = False) -> Where:
    """The filters over the `hands` table as `h` (a player's: the hands they were in;
    `flagged`: only flagged hands are wanted, which the summary rows find fast)."""
    where = Where()
    for name in ("site", "game", "structure"):
        if getattr(filters, name):
            where.add(f"h.{name} = ?", getattr(filters, name))
    if filters.unit:
        where.add(
            f"({UNIT_SQL.replace('chips_in_hundredths', 'h.chips_in_hundredths')}) = ?",
            filters.unit,
        )
    stakes = _stakes(filters.stakes)
    if stakes:
        where.add("h.small_bet = ? AND h.big_bet = ?", *stakes)
    if filters.table:
        where.add("concat_ws(' ', h.site, h.tournament_id, h.table_name) = ?", filters.table)
    since, until = _date(filters.since), _date(filters.until)
    if since:
        where.add("h.start_time >= ?::DATE::TIMESTAMP AT TIME ZONE 'UTC'", since)
    if until:
        where.add("h.start_time < (?::DATE + 1)::TIMESTAMP AT TIME ZONE 'UTC'", until)
    if filters.player:
        inner = Where()
        _player_clause(inner, filters, "p.")
        where.add(
            f"(h.site, h.hand_id) IN (SELECT p.site, p.hand_id FROM hand_players p {inner.sql()})",
            *inner.parameters,
        )
    return where


# -- the choices of the filter form --------------------------------------------------------


def choices(connection: duckdb.DuckDBPyConnection) -> dict[str, list[Any]]:
    """The values each filter can take (from the summary: a few thousand rows)."""
    out: dict[str, list[Any]] = {}
    for name in ("site", "game", "structure", "unit"):
        out[name] = [
            r[0]
            for r in connection.execute(
                f"SELECT DISTINCT {name} FROM serve_sums WHERE {name} IS NOT NULL ORDER BY 1"
            ).fetchall()
        ]
    stakes = connection.execute(
        "SELECT DISTINCT unit, small_bet, big_bet FROM serve_sums ORDER BY 1, 2, 3"
    ).fetchall()
    out["stakes"] = [
        (f"{small}-{big}", f"{money(small, unit)}/{money(big, unit)} {unit}")
        for unit, small, big in stakes
    ]
    out["players"] = [
        r[0]
        for r in connection.execute(
            "SELECT player FROM serve_sums GROUP BY player ORDER BY sum(hands) DESC, player "
            "LIMIT 300"
        ).fetchall()
    ]
    out["tables"] = [
        r[0]
        for r in connection.execute(
            "SELECT table_key FROM serve_sums GROUP BY table_key ORDER BY sum(hands) DESC LIMIT 300"
        ).fetchall()
    ]
    return out


# -- win-rates -----------------------------------------------------------------------------


_SUMMED = ", ".join(
    f"sum({name}) AS {name}"
    for name in (
        "hands",
        "net",
        "rake",
        "bb_n",
        "bb_sum",
        "bb_sq",
        "bi_n",
        "bi_sum",
        "seconds",
        "sd_hands",
        "sd_net",
        "sd_bb",
    )
)


def winrates(
    connection: duckdb.DuckDBPyConnection,
    filters: Filters,
    by: list[str],
    minimum: int = 0,
    in_big_bets: bool = False,
) -> pl.DataFrame:
    """The report's win-rate figures for the groups `by` (unit and structure always among
    them) of the rows the filters keep: the summary's sums added up, then
    `compute.sums_from_moments` and `compute.winrate_figures`. `in_big_bets`: every unit
    together, as unit "bb" (big bets add up across stakes and currencies: the report's
    chart by game)."""
    keys = [*by, *(key for key in ("unit", "structure") if key not in by)]
    where = summary_where(filters)
    group = ", ".join(key for key in keys if not (in_big_bets and key == "unit"))
    chosen = f"'bb' AS unit, {group}" if in_big_bets else group
    moments = connection.sql(
        f"""
        SELECT {chosen}, {_SUMMED}, min(first) AS first, max(last) AS last
        FROM serve_sums {where.sql()}
        GROUP BY {group}
        HAVING sum(hands) > 0 AND sum(hands) >= ?
        """,
        params=[*where.parameters, minimum],
    ).pl()
    moments = moments.with_columns(
        pl.col(name).cast(pl.Int64)
        for name in (
            "hands",
            "net",
            "rake",
            "bb_n",
            "bi_n",
            "sd_hands",
            "sd_net",
        )
    )
    extra = moments.select(*keys, "sd_hands", "sd_net", "sd_bb")
    figures = compute.winrate_figures(
        compute.sums_from_moments(moments.drop("sd_hands", "sd_net", "sd_bb")), by
    )
    return figures.join(extra, on=keys, how="left", nulls_equal=True).sort(
        ["hands", *keys], descending=[True, *([False] * len(keys))]
    )


def with_stakes(frame: pl.DataFrame) -> pl.DataFrame:
    """A "stakes" label from the small and big bet in the row's unit (as the report's)."""
    labels = [
        f"{money(small, unit)}/{money(big, unit)}"
        for unit, small, big in frame.select("unit", "small_bet", "big_bet").iter_rows()
    ]
    return frame.with_columns(
        stakes=pl.Series(labels, dtype=pl.String),
        stakes_key=pl.format("{}-{}", "small_bet", "big_bet"),
    )


def by_day(
    connection: duckdb.DuckDBPyConnection, filters: Filters, players: list[tuple[str, str]]
) -> dict[str, Any]:
    """Per chosen account and UTC day: net won in big bets, in all and at showdown
    (cumulative, as the report's chart adds them up), and hands; keyed "name (site)"."""
    series: dict[str, Any] = {f"{name} ({site})": [] for site, name in players}
    if not players:
        return series
    where = summary_where(replace(filters, player="", site=""))
    accounts = " OR ".join("(player = ? AND site = ?)" for _ in players)
    where.add(f"({accounts})", *(value for site, name in players for value in (name, site)))
    rows = connection.execute(
        f"""
        SELECT player, site, day, sum(hands) AS hands, sum(bb_sum) AS bb, sum(sd_bb) AS sd_bb
        FROM serve_sums {where.sql()} GROUP BY ALL ORDER BY player, site, day
        """,
        where.parameters,
    ).fetchall()
    totals: dict[str, tuple[float, float]] = {}
    for name, site, day, hands, bb, sd_bb in rows:
        key = f"{name} ({site})"
        total, showdown = totals.get(key, (0.0, 0.0))
        total += bb or 0.0
        showdown += sd_bb or 0.0
        totals[key] = (total, showdown)
        if day is not None:
            series[key].append([day.isoformat(), round(total, 3), round(showdown, 3), int(hands)])
    return series


def over_hands(
    connection: duckdb.DuckDBPyConnection, filters: Filters, players: list[tuple[str, str]]
) -> dict[str, dict[str, Any]]:
    """Each chosen account's cumulative net won in big bets over its hands in play order,
    in all and at showdown (the report's cumulative chart), at about `CHART_POINTS`
    points, keyed "name (site)": the hands are added up in time buckets (a hash aggregate
    over one pass of the rows for all the accounts; sorting a million rows for a line of
    1,500 points took seconds), each point exact at its bucket's end (x: the hands played
    so far). Hands of unknown time come last, as in the report."""
    if not players:
        return {}
    where = summary_where(replace(filters, player="", site=""))
    accounts = " OR ".join("(player = ? AND site = ?)" for _ in players)
    where.add(f"({accounts})", *(value for site, name in players for value in (name, site)))
    # The span from the summary's groups (a few thousand rows), not from the rows.
    span = connection.execute(
        f"SELECT epoch(min(first)), epoch(max(last)) FROM serve_sums {where.sql()}",
        where.parameters,
    ).fetchall()[0]
    width = max(1.0, ((span[1] or 0) - (span[0] or 0)) / CHART_POINTS)
    rows = connection.execute(
        f"""
        WITH buckets AS (
            SELECT player, site, floor(epoch(start_utc) / {width!r}) AS bucket,
                count(*) AS hands, sum(coalesce(bb, 0)) AS total,
                sum(CASE WHEN showdown THEN coalesce(bb, 0) ELSE 0 END) AS showdown
            FROM serve_rows {where.sql()}
            GROUP BY ALL
        )
        SELECT player, site, sum(hands) OVER w, sum(total) OVER w, sum(showdown) OVER w
        FROM buckets
        WINDOW w AS (PARTITION BY player, site ORDER BY bucket NULLS LAST
            ROWS UNBOUNDED PRECEDING)
        ORDER BY player, site, bucket NULLS LAST
        """,
        where.parameters,
    ).fetchall()
    series: dict[str, dict[str, Any]] = {
        f"{name} ({site})": {"hands": 0, "points": []} for site, name in players
    }
    for name, site, hands, total, showdown in rows:
        line = series[f"{name} ({site})"]
        line["points"].append([int(hands), round(total, 3), round(showdown, 3)])
        line["hands"] = int(hands)
    return series


def flag_days(
    connection: duckdb.DuckDBPyConnection, filters: Filters, has_kind: bool
) -> list[list[Any]]:
    """Flags per UTC day and kind, of the hands the filters keep."""
    where = hands_where(filters, flagged=True)
    rows = connection.execute(
        f"""
        SELECT (h.start_time AT TIME ZONE 'UTC')::DATE AS day, {kind_sql(has_kind)} AS kind,
            count(*) AS flags
        FROM violations v JOIN hands h USING (site, hand_id)
        {where.sql()}
        GROUP BY ALL ORDER BY day
        """,
        where.parameters,
    ).fetchall()
    return [[day.isoformat() if day else None, kind, flags] for day, kind, flags in rows]


# -- hands ---------------------------------------------------------------------------------

HAND_SORTS = {
    "time": "h.start_time",
    "site": "h.site",
    "table": "h.table_name",
    "game": "h.game",
    "pot": "h.total_pot",
    "players": "h.players",
    "id": "h.hand_id",
}


def _search(connection: duckdb.DuckDBPyConnection, where: Where, search: str) -> None:
    """Narrow `where` (over `hands` as `h`) to `search`: a hand id, else the hands of every
    player whose name holds it (names looked up in the summary, a few thousand rows)."""
    if connection.execute("SELECT 1 FROM hands WHERE hand_id = ? LIMIT 1", [search]).fetchall():
        where.add("h.hand_id = ?", search)
        return
    pattern = "%" + re.sub(r"([%_\\])", r"\\\1", search) + "%"
    names = [
        r[0]
        for r in connection.execute(
            "SELECT DISTINCT player FROM serve_sums WHERE player ILIKE ? ESCAPE '\\' LIMIT 200",
            [pattern],
        ).fetchall()
    ]
    if not names:
        where.add("false")
        return
    marks = ", ".join("?" for _ in names)
    where.add(
        f"(h.site, h.hand_id) IN (SELECT site, hand_id FROM serve_rows WHERE player IN ({marks}))",
        *names,
    )


def hands(
    connection: duckdb.DuckDBPyConnection,
    filters: Filters,
    search: str = "",
    page: int = 1,
    sort: str = "time",
    descending: bool = True,
    has_kind: bool = False,
) -> dict[str, Any]:
    """A page of the hands the filters keep (and `search`: a hand id, or part of a
    player's name), with each hand's players, the chosen player's net and its verdict."""
    order = HAND_SORTS.get(sort, "h.start_time")
    direction = "DESC" if descending else "ASC"
    offset = (max(page, 1) - 1) * PAGE_SIZE
    if filters.player and not search and order == "h.start_time":
        # A player's hands in time order: their summary rows carry every filter's column and
        # the time, so the page is cut there and only its hands are read (a join of the
        # player's million rows with the hands took seconds). A name has one row per hand.
        where = summary_where(filters, "r.")
        count = connection.execute(
            f"SELECT count(*) FROM serve_rows r {where.sql()}", where.parameters
        ).fetchall()[0][0]
        keys = connection.sql(
            f"""
            SELECT r.site, r.hand_id, r.start_utc FROM serve_rows r {where.sql()}
            ORDER BY r.start_utc {direction} NULLS LAST, r.site {direction}, r.hand_id {direction}
            LIMIT {PAGE_SIZE} OFFSET {offset}
            """,
            params=where.parameters,
        ).pl()
        connection.register("serve_keys", keys.select("site", "hand_id").to_arrow())
        try:
            rows = connection.sql(
                f"""
                SELECT {_HAND_COLUMNS} FROM hands h SEMI JOIN serve_keys k USING (site, hand_id)
                ORDER BY h.start_time {direction} NULLS LAST, h.site {direction},
                    h.hand_id {direction}
                """
            ).pl()
        finally:
            connection.unregister("serve_keys")
    else:
        where = hands_where(filters)
        if search:
            _search(connection, where, search)
        count = connection.execute(
            f"SELECT count(*) FROM hands h {where.sql()}", where.parameters
        ).fetchall()[0][0]
        rows = connection.sql(
            f"""
            SELECT {_HAND_COLUMNS} FROM hands h {where.sql()}
            ORDER BY {order} {direction} NULLS LAST, h.site {direction}, h.hand_id {direction}
            LIMIT {PAGE_SIZE} OFFSET {offset}
            """,
            params=where.parameters,
        ).pl()
    if rows.height:
        rows = _with_players(connection, rows, filters, has_kind)
    pages = max(1, -(-int(count) // PAGE_SIZE))
    return {"count": int(count), "page": max(page, 1), "pages": pages, "rows": rows}


_HAND_COLUMNS = f"""h.site, h.hand_id, h.table_name, h.tournament_id,
    (h.start_time AT TIME ZONE 'UTC') AS start_utc, h.game, h.structure,
    {UNIT_SQL.replace("chips_in_hundredths", "h.chips_in_hundredths")} AS unit,
    h.small_bet, h.big_bet, h.players, h.total_pot, h.status, h.illegal, h.mis_split"""


def _with_players(
    connection: duckdb.DuckDBPyConnection, rows: pl.DataFrame, filters: Filters, has_kind: bool
) -> pl.DataFrame:
    """A page of hands with each one's players (in seat order), its flags' kinds and, with
    a player chosen, their net."""
    connection.register("serve_page", rows.select("site", "hand_id").to_arrow())
    try:
        people = connection.sql(
            """
            SELECT p.site, p.hand_id, string_agg(p.player, ', ' ORDER BY p.seat) AS names
            FROM hand_players p SEMI JOIN serve_page k USING (site, hand_id)
            GROUP BY ALL
            """
        ).pl()
        kinds = connection.sql(
            f"""
            SELECT v.site, v.hand_id, string_agg(DISTINCT {kind_sql(has_kind)}, ', ') AS kinds
            FROM violations v SEMI JOIN serve_page k USING (site, hand_id)
            GROUP BY ALL
            """
        ).pl()
        rows = rows.join(people, on=["site", "hand_id"], how="left", maintain_order="left")
        rows = rows.join(kinds, on=["site", "hand_id"], how="left", maintain_order="left")
        if filters.player:
            inner = Where()
            _player_clause(inner, filters, "p.")
            if filters.site:
                inner.add("p.site = ?", filters.site)
            nets = connection.sql(
                f"""
                SELECT p.site, p.hand_id, sum(p.net)::BIGINT AS net
                FROM hand_players p SEMI JOIN serve_page k USING (site, hand_id)
                {inner.sql()} GROUP BY ALL
                """,
                params=inner.parameters,
            ).pl()
            rows = rows.join(nets, on=["site", "hand_id"], how="left", maintain_order="left")
    finally:
        connection.unregister("serve_page")
    return rows


# -- one hand ------------------------------------------------------------------------------


def hand_row(
    connection: duckdb.DuckDBPyConnection, site: str, hand_id: str
) -> dict[str, Any] | None:
    found = connection.sql(
        f"""
        SELECT h.site, h.hand_id, h.game, h.structure, h.table_name, h.tournament_id,
            (h.start_time AT TIME ZONE 'UTC') AS start_utc, h.clock_text,
            {UNIT_SQL.replace("chips_in_hundredths", "h.chips_in_hundredths")} AS unit,
            h.small_bet, h.big_bet, h.ante, h.bring_in, h.total_pot, h.rake, h.status,
            h.illegal, h.mis_split, h.file, h.line, h.end_line, h.players
        FROM hands h WHERE h.site = ? AND h.hand_id = ?
        """,
        params=[site, hand_id],
    ).pl()
    return found.row(0, named=True) if found.height else None


def hand_flags(
    connection: duckdb.DuckDBPyConnection, site: str, hand_id: str, has_kind: bool
) -> list[dict[str, Any]]:
    return (
        connection.sql(
            f"""
        SELECT v.seq, v.code, {kind_sql(has_kind)} AS kind, v.street, v.player, v.line,
            v.message
        FROM violations v WHERE v.site = ? AND v.hand_id = ? ORDER BY v.seq
        """,
            params=[site, hand_id],
        )
        .pl()
        .to_dicts()
    )


def hand_players(
    connection: duckdb.DuckDBPyConnection, site: str, hand_id: str
) -> list[dict[str, Any]]:
    return (
        connection.sql(
            """
        SELECT seat, player, stack, put_in, collected, net, rake_share, cards, showdown
        FROM hand_players WHERE site = ? AND hand_id = ? ORDER BY seat
        """,
            params=[site, hand_id],
        )
        .pl()
        .to_dicts()
    )


def neighbours(connection: duckdb.DuckDBPyConnection, row: dict[str, Any]) -> dict[str, Any]:
    """The hands before and after this one at its table (play order)."""
    table = [row["site"], row["tournament_id"], row["table_name"]]
    out: dict[str, Any] = {}
    for name, comparison, direction in (("previous", "<", "DESC"), ("next", ">", "ASC")):
        found = connection.execute(
            f"""
            SELECT site, hand_id FROM hands
            WHERE site = ? AND tournament_id IS NOT DISTINCT FROM ? AND table_name IS NOT DISTINCT FROM ?
              AND (start_time, hand_id) {comparison} (?::TIMESTAMPTZ, ?)
            ORDER BY start_time {direction}, hand_id {direction} LIMIT 1
            """,
            [
                *table,
                row["start_utc"].replace(tzinfo=dt.UTC) if row["start_utc"] else None,
                row["hand_id"],
            ],
        ).fetchall()
        out[name] = found[0] if found else None
    return out


# -- flags ---------------------------------------------------------------------------------


def flags(
    connection: duckdb.DuckDBPyConnection,
    filters: Filters,
    kind: str = "",
    code: str = "",
    page: int = 1,
    has_kind: bool = False,
) -> dict[str, Any]:
    """The flags of the hands the filters keep (of one kind and code, if given): counted by
    kind and code, site, table and day, and a page of them."""
    where = hands_where(filters, flagged=True)
    kind_expression = kind_sql(has_kind)
    if kind:
        where.add(f"{kind_expression} = ?", kind)
    if code:
        where.add("v.code = ?", code)
    base = f"FROM violations v JOIN hands h USING (site, hand_id) {where.sql()}"
    parameters = where.parameters
    connection.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE serve_flags AS
        SELECT {kind_expression} AS kind, v.code, h.site, h.table_name,
            concat_ws(' ', h.site, h.tournament_id, h.table_name) AS table_key,
            (h.start_time AT TIME ZONE 'UTC') AS start_utc, v.hand_id, v.seq, v.line,
            v.street, v.player, v.message, h.game, h.file
        {base}
        """,
        parameters,
    )
    try:
        counts = {
            "by_code": connection.sql(
                "SELECT kind, code, count(*) AS flags, count(DISTINCT (site, hand_id)) AS hands "
                "FROM serve_flags GROUP BY ALL ORDER BY kind, flags DESC, code"
            ).pl(),
            "by_site": connection.sql(
                "SELECT site, count(*) AS flags, count(DISTINCT hand_id) AS hands "
                "FROM serve_flags GROUP BY ALL ORDER BY site"
            ).pl(),
            "by_table": connection.sql(
                "SELECT site, table_name, table_key, count(*) AS flags, "
                "count(DISTINCT hand_id) AS hands FROM serve_flags GROUP BY ALL "
                "ORDER BY flags DESC, site, table_name LIMIT 200"
            ).pl(),
            "by_day": connection.sql(
                "SELECT start_utc::DATE AS day, count(*) AS flags, "
                "count(DISTINCT (site, hand_id)) AS hands FROM serve_flags GROUP BY ALL "
                "ORDER BY day"
            ).pl(),
        }
        total = connection.execute("SELECT count(*) FROM serve_flags").fetchall()[0][0]
        offset = (max(page, 1) - 1) * PAGE_SIZE
        listed = connection.sql(
            f"SELECT * FROM serve_flags ORDER BY start_utc DESC NULLS LAST, site, hand_id, seq "
            f"LIMIT {PAGE_SIZE} OFFSET {offset}"
        ).pl()
    finally:
        connection.execute("DROP TABLE IF EXISTS serve_flags")
    return {
        "counts": counts,
        "count": int(total),
        "page": max(page, 1),
        "pages": max(1, -(-int(total) // PAGE_SIZE)),
        "rows": listed,
    }


# -- sessions ------------------------------------------------------------------------------

SESSION_SORTS = ("first", "hands", "net", "hours", "per_hour", "bb_per_100", "player")


def sessions(
    connection: duckdb.DuckDBPyConnection,
    filters: Filters,
    page: int = 1,
    sort: str = "first",
    descending: bool = True,
) -> dict[str, Any]:
    """A page of the sessions (one table, no gap of 30 minutes) the filters keep, with
    their result and hours (`compute.winrate_figures` of each session's sums)."""
    where = Where()
    _player_clause(where, filters, "")
    for name in ("site", "structure", "unit"):
        if getattr(filters, name):
            where.add(f"{name} = ?", getattr(filters, name))
    if filters.table:
        where.add("table_key = ?", filters.table)
    since, until = _date(filters.since), _date(filters.until)
    if since:
        where.add("last >= ?::DATE::TIMESTAMP", since)
    if until:
        where.add("first < (?::DATE + 1)::TIMESTAMP", until)
    if filters.minimum:
        where.add("hands >= ?", filters.minimum)
    count = connection.execute(
        f"SELECT count(*) FROM serve_sessions {where.sql()}", where.parameters
    ).fetchall()[0][0]
    column = sort if sort in SESSION_SORTS else "first"
    order = {
        "hours": "seconds",
        "per_hour": "(net / nullif(seconds, 0))",
        "bb_per_100": "(bb_sum / nullif(bb_n, 0))",
    }.get(column, column)
    parameters = [*where.parameters]
    direction = "DESC" if descending else "ASC"
    offset = (max(page, 1) - 1) * PAGE_SIZE
    moments = connection.sql(
        f"""
        SELECT * EXCLUDE (mean_interval) FROM serve_sessions {where.sql()}
        ORDER BY {order} {direction} NULLS LAST, session
        LIMIT {PAGE_SIZE} OFFSET {offset}
        """,
        params=parameters,
    ).pl()
    keys = ["session", "player", "site", "table_key", "table_name"]
    figures = compute.winrate_figures(compute.sums_from_moments(moments), keys)
    order_of = moments.select("session").with_row_index("_order")
    figures = figures.join(order_of, on="session").sort("_order")
    return {
        "count": int(count),
        "page": max(page, 1),
        "pages": max(1, -(-int(count) // PAGE_SIZE)),
        "rows": figures,
    }


# -- the hand's text -----------------------------------------------------------------------


@dataclass
class HandText:
    text: str
    file: str | None
    line: int
    source: str
    """Where the text came from: "store" (kept by the import) or "file" (read again)."""


def hand_text(connection: duckdb.DuckDBPyConnection, row: dict[str, Any]) -> HandText | None:
    """A hand's text as it stood in its file: the store's copy where it keeps one (flagged
    hands), else read again from its file at the stored line, if the file still holds it.
    The one place that says where a hand's text comes from."""
    from handlog.evidence import decompress

    kept = connection.execute(
        "SELECT text, file, line FROM hand_evidence WHERE site = ? AND hand_id = ? LIMIT 1",
        [row["site"], row["hand_id"]],
    ).fetchall()
    if kept:
        blob, file, line = kept[0]
        return HandText(decompress(blob), file, int(line), "store")
    file, line, end = row.get("file"), row.get("line"), row.get("end_line")
    if not file or not line:
        return None
    text = _read_lines(file, int(line), int(end) if end else None)
    if text is None or row["hand_id"] not in text:
        return None  # the file is gone or changed: its lines are not this hand any more
    return HandText(text, file, int(line), "file")


def _read_lines(path: str, first: int, last: int | None) -> str | None:
    from handlog.parse.reader import open_text

    try:
        lines: list[str] = []
        with open_text(path) as text:
            for number, line in enumerate(text, start=1):
                if number < first:
                    continue
                if last is not None and number > last:
                    break
                if last is None and number > first and not line.strip():
                    break
                lines.append(line.rstrip("\r\n"))
                if len(lines) > 2000:
                    break
        return "\n".join(lines).rstrip() if lines else None
    except (OSError, UnicodeError):
        return None
