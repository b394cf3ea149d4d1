"""Every query `handlog serve` makes of the store, and the filters of its pages.

The pages never compute a figure themselves: win-rates come from the summary tables
(`handlog.summary`) through the report's own functions (`compute.sums_from_moments`,
`compute.winrate_figures`), hands, flags and texts from the store's tables.

A player is an account (site, name) or a person (`handlog alias`: several accounts), as in
the report (`handlog.players`): the win-rate, session and chart rows are labelled by whom
they are about (`site` the account's site or the person's sites, `player` the name: the
report's `compute.identify`, from `players.identities` registered on each cursor as
`serve_people`), and the player filter takes a person, an account (`site:name`) or a name
(every account of that name); `_player_clause` is the one place that says which rows are
a player's.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import polars as pl

from handlog.report import compute
from handlog.report.data import DEALT_IN, UNIT_SQL
from handlog.report.render import money
from handlog.rules import violations

if TYPE_CHECKING:
    from collections.abc import Mapping

    import duckdb

    from handlog.texts import StoredText

PAGE_SIZE = 50
MAX_TABLE_ROWS = 1000
"""Rows of a win-rate table in the JSON (it says how many there are in all)."""
SHOWN_TABLE_ROWS = 300
"""Rows of a win-rate table shown on the page, those with the most hands (a page of a
thousand rows of fifteen columns took a second to write)."""
SHOWN_STATS_ROWS = 100
"""Rows of each statistics table shown on the page (four tables of them: the page of a
million hands was 1.5 MB with 300)."""
CHART_POINTS = 1500
"""Points per line of a chart over hands (every k-th hand, and the last)."""
CHART_FINENESS = 32
"""Time buckets per point of a chart over hands, of each player's own span (a player who
played a few hours beside one who played for years gets a line of their own: with one
span for all, theirs was one point), the running totals then thinned to `CHART_POINTS`
(two lines of 750,000 and 250,000 hands: 0.14 CPU s)."""
FOCUS_PLAYERS = 3
"""Players charted when no player is chosen: those with the most hands (as the report)."""

KINDS = tuple(kind.value for kind in violations.KINDS)
FAULT = "v.cause IS NULL"
"""A flag that is a fault of its own (over `violations` as `v`): one that follows from
another (`cause`: the seq of that fault) is shown under it, never counted apart, as the
report's `compute.flag_counts`."""


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
    accounts: tuple[tuple[str, str], ...] | None = None
    """The player's accounts (site, name), looked up once (`resolved`): not in the URL.
    None: not looked up (the player clause then looks them up in SQL)."""

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Filters:
        values: dict[str, Any] = {name: query.get(name, "").strip()[:200] for name in _PUBLIC}
        return cls(**values)

    def query(self, **changes: Any) -> str:
        """These filters (with `changes`) as a URL query string."""
        from urllib.parse import urlencode

        chosen = replace(self, **changes) if changes else self
        return urlencode({name: getattr(chosen, name) for name in _PUBLIC if getattr(chosen, name)})

    def items(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in _PUBLIC if getattr(self, name)}

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


_PUBLIC = tuple(f.name for f in fields(Filters) if f.name != "accounts")
"""The filters a URL holds."""


def resolved(connection: duckdb.DuckDBPyConnection, filters: Filters) -> Filters:
    """`filters` with the chosen player's accounts looked up (`Filters.accounts`): a
    person's (`aliases`), the account `site:name`, or every account of a name, so that
    the queries filter by plain equalities (a subquery in the filter kept DuckDB from
    skipping the row groups of other players: a player's hands at a million took twice as
    long)."""
    if not filters.player or filters.accounts is not None:
        return filters
    from handlog.players import aliases, parse_account

    text = filters.player
    people = aliases(connection)
    if text in people:
        found = [(account.site, account.name) for account in people[text]]
    else:
        site, name = parse_account(text)
        if site is not None:
            found = [(site.value, name)]
        else:
            found = [
                (row[0], row[1])
                for row in connection.execute(
                    "SELECT DISTINCT site, player FROM serve_sums WHERE player = ? ORDER BY 1",
                    [text],
                ).fetchall()
            ]
    return replace(filters, accounts=tuple(found))


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
    """The rows of the chosen player (`Filters.player`): the accounts `resolved` found (a
    person's, the account `site:name`, or every account of a name; the site filter, added
    with the others, may narrow them to one)."""
    if not filters.player:
        return
    if filters.accounts is None:
        raise ValueError("the player filter's accounts are looked up first: queries.resolved")
    if not filters.accounts:
        where.add("false")
        return
    terms = " OR ".join(f"({alias}site = ? AND {alias}player = ?)" for _ in filters.accounts)
    where.add(f"({terms})", *(value for account in filters.accounts for value in account))


PEOPLE_TABLE = "serve_people"
"""The aliased accounts (site, player, person, person_site: `players.Identities.arrow`),
registered on each cursor (`register_people`)."""


def register_people(
    connection: duckdb.DuckDBPyConnection, made: tuple[Any, Any] | None = None
) -> tuple[Any, Any] | None:
    """Register on `connection` the persons' accounts (`players.identities`, as
    `serve_people`) for the queries to label rows by whom they are about, and each
    player's length of a one-hand session's hand (`ALONE_SECONDS`, as `alone_seconds`);
    `made`: both made before (a server keeps them until new hands are stored). Returns
    them, or None while the summary tables are not made yet (empty ones registered)."""
    import duckdb

    if made is not None:
        connection.register(PEOPLE_TABLE, made[0])
        connection.register("alone_seconds", made[1])
        return made
    from handlog.players import identities

    people = identities(connection).arrow()
    connection.register(PEOPLE_TABLE, people)
    try:
        alone = connection.sql(f"WITH {ALONE_SECONDS} SELECT * FROM alone_seconds")
        made = (people, alone.to_arrow_table())
    except duckdb.CatalogException:  # no summary yet (a server that has just started)
        import pyarrow as pa

        empty = pa.table(
            {
                "who_site": pa.array([], pa.string()),
                "who": pa.array([], pa.string()),
                "alone_seconds": pa.array([], pa.float64()),
            }
        )
        connection.register("alone_seconds", empty)
        return None
    connection.register("alone_seconds", made[1])
    return made


WHO = (
    "coalesce(serve_people.person_site, {t}.site) AS who_site, "
    "coalesce(serve_people.person, {t}.player) AS who, "
    "coalesce(serve_people.person, {t}.site || ':' || {t}.player) AS who_key"
)
"""Whom a row of table `t` is about (its site, name, and how the player filter names
them: a person's name, else `site:name`), `serve_people` left-joined to it."""


def labelled(table: str, where: Where, alias: str = "t") -> str:
    """`table` (as `alias`) with `WHO`'s columns, the rows `where` keeps."""
    return (
        f"SELECT {alias}.*, {WHO.format(t=alias)} FROM {table} {alias} "
        f"LEFT JOIN {PEOPLE_TABLE} ON {PEOPLE_TABLE}.site = {alias}.site "
        f"AND {PEOPLE_TABLE}.player = {alias}.player {where.sql()}"
    )


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
    if filters.player and flagged:
        # The player's summary rows (one per hand dealt in) that are flagged: their
        # equalities skip other players' row groups, where a scan of every player row
        # of a million hands took 0.1 CPU s.
        inner = Where()
        _player_clause(inner, filters, "r.")
        inner.add("r.flagged")
        where.add(
            f"(h.site, h.hand_id) IN (SELECT r.site, r.hand_id FROM serve_rows r {inner.sql()})",
            *inner.parameters,
        )
    elif filters.player:
        inner = Where()
        inner.add(DEALT_IN)
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
        (
            f"{small}-{big}",
            f"{money(small, unit)}/{money(big, unit)} {unit}"
            if big
            else f"{compute.UNKNOWN_STAKES} {unit}",
        )
        for unit, small, big in stakes
    ]
    # Persons and accounts as the player filter names them (`WHO`'s who_key).
    out["players"] = [
        r[0]
        for r in connection.execute(
            f"SELECT who_key FROM ({labelled('serve_sums', Where())}) GROUP BY who_key "
            "ORDER BY sum(hands) DESC, who_key LIMIT 300"
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


ALONE_SECONDS = f"""
    alone_seconds AS (
        SELECT who_site, who,
            coalesce(median(mean_interval), {compute.DEFAULT_HAND_SECONDS!r}) AS alone_seconds
        FROM (
            SELECT any_value(who_site) AS who_site, any_value(who) AS who,
                CASE WHEN sum(alone) = 0 THEN sum(seconds) / sum(hands) END AS mean_interval
            FROM ({labelled("serve_sessions", Where())})
            GROUP BY session
        )
        GROUP BY who_site, who
    )"""
"""How long the hand of a one-hand session lasts, per player (account or person: a `WITH`
table keyed by `WHO`'s who_site and who): the median of their sessions' mean hand
intervals over all their hands, as the report's `compute.player_sessions`. The summary
keeps each group's other hands' seconds and the count of these (`alone`), so that the
median, which moves as hands arrive, is applied when a page reads the sums."""

SECONDS_SQL = "(seconds + alone * alone_seconds)"
"""A group's seconds, the player's `ALONE_SECONDS` joined to it."""

_MOMENTS = (
    *(name for name in compute.MOMENTS if name != "seconds"),  # seconds: `SECONDS_SQL`
    *compute.EV_MOMENTS,
)
"""The sums a session's parts add up (`compute.MOMENTS` and `compute.EV_MOMENTS`)."""
_SUMMED = ", ".join(f"sum({name}) AS {name}" for name in (*_MOMENTS, "sd_hands", "sd_net", "sd_bb"))


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
    chart by game). `site` and `player` are whom a row is about (`WHO`: an account, or a
    person), with `player_key` naming them for the player filter."""
    keys = [*by, *(key for key in ("unit", "structure") if key not in by)]
    where = summary_where(filters, "t.")
    renamed = {"site": "who_site", "player": "who"}
    grouped = [key for key in keys if not (in_big_bets and key == "unit")]
    group = ", ".join(renamed.get(key, key) for key in grouped)
    chosen = ", ".join(f"{renamed[key]} AS {key}" if key in renamed else key for key in grouped)
    if in_big_bets:
        chosen = f"'bb' AS unit, {chosen}"
    if "player" in by:
        chosen += ", any_value(who_key) AS player_key"
    moments = connection.sql(
        f"""
        WITH chosen AS ({labelled("serve_sums", where)})
        SELECT {chosen}, {_SUMMED}, sum({SECONDS_SQL}) AS seconds, min(first) AS first,
            max(last) AS last
        FROM chosen LEFT JOIN alone_seconds USING (who_site, who)
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
            "ev_net",
            "all_ins",
        )
    )
    kept = ["player_key"] if "player" in by else []
    extra = moments.select(*keys, *kept, "sd_hands", "sd_net", "sd_bb")
    figures = compute.winrate_figures(
        compute.sums_from_moments(moments.drop("sd_hands", "sd_net", "sd_bb", *kept)), by
    )
    return figures.join(extra, on=keys, how="left", nulls_equal=True).sort(
        ["hands", *keys], descending=[True, *([False] * len(keys))]
    )


def with_stakes(frame: pl.DataFrame) -> pl.DataFrame:
    """A "stakes" label from the small and big bet in the row's unit (as the report's);
    `compute.UNKNOWN_STAKES` where no line of the hands showed them (`Hand.stakes_known`)."""
    labels = [
        f"{money(small, unit)}/{money(big, unit)}" if big else compute.UNKNOWN_STAKES
        for unit, small, big in frame.select("unit", "small_bet", "big_bet").iter_rows()
    ]
    return frame.with_columns(
        stakes=pl.Series(labels, dtype=pl.String),
        stakes_key=pl.format("{}-{}", "small_bet", "big_bet"),
    )


def _focus(
    connection: duckdb.DuckDBPyConnection, players: list[tuple[str, str]]
) -> tuple[Any, list[str]]:
    """The accounts of the chosen players (`WHO`'s who_site, who: a person's accounts, or
    the account) as an Arrow table (site, player, label) to join rows with, and the
    labels, "name (site)", in the players' order."""
    import pyarrow as pa

    labels = [f"{name} ({site})" for site, name in players]
    people = connection.execute(
        f"SELECT person_site, person, site, player FROM {PEOPLE_TABLE}"
    ).fetchall()
    theirs: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for person_site, person, site, player in people:
        theirs.setdefault((person_site, person), []).append((site, player))
    rows = [
        (site, player, label)
        for (who_site, who), label in zip(players, labels, strict=True)
        for site, player in theirs.get((who_site, who), [(who_site, who)])
    ]
    table = pa.table(
        {
            name: pa.array([row[i] for row in rows], pa.string())
            for i, name in enumerate(("site", "player", "label"))
        }
    )
    return table, labels


def stud_stats(
    connection: duckdb.DuckDBPyConnection, filters: Filters, minimum: int = 0
) -> pl.DataFrame:
    """The report's stud statistics per player (`WHO`) and game of the hands the filters
    keep: the summary's counts (`summary.STAT_COLUMNS`, the aggression counts by street)
    added up, then `compute.stud_ratios`; most hands first."""
    from handlog.summary import AGGRESSION_COLUMNS, STAT_COLUMNS

    where = summary_where(filters, "t.")
    counted = ", ".join(f"sum({name})::BIGINT AS {name}" for name in STAT_COLUMNS)
    counts = connection.sql(
        f"""
        SELECT who_site AS player_site, who AS player, any_value(who_key) AS player_key,
            game, {counted}
        FROM ({labelled("serve_stats", where)})
        GROUP BY who_site, who, game
        HAVING sum(hands) > 0 AND sum(hands) >= ?
        """,
        params=[*where.parameters, minimum],
    ).pl()
    acted = ", ".join(f"sum({name})::BIGINT AS {name}" for name in AGGRESSION_COLUMNS)
    aggression = connection.sql(
        f"""
        SELECT who_site AS player_site, who AS player, game, street, {acted}
        FROM ({labelled("serve_aggression", where)})
        GROUP BY who_site, who, game, street
        """,
        params=where.parameters,
    ).pl()
    keys = ["player_site", "player", "game"]
    stats = compute.stud_ratios(counts.drop("player_key"), aggression)
    return (
        stats.join(counts.select(*keys, "player_key"), on=keys, how="left")
        .rename({"player_site": "site"})
        .sort(["hands", "site", "player", "game"], descending=[True, False, False, False])
    )


def unknown_stakes(connection: duckdb.DuckDBPyConnection, filters: Filters) -> int:
    """How many of the hands the filters keep show no stakes (`Hand.stakes_known`: small
    and big bet 0): in no big bets/100 (`compute.BIG_BETS`), said beside the figures."""
    if filters.player:  # the player's rows: one per hand they were dealt in
        where = summary_where(filters)
        where.add("small_bet = 0 AND big_bet = 0")
        query = f"SELECT count(*) FROM serve_rows {where.sql()}"
    else:
        where = hands_where(filters)
        where.add("h.small_bet = 0 AND h.big_bet = 0")
        query = f"SELECT count(*) FROM hands h {where.sql()}"
    return int(connection.execute(query, where.parameters).fetchall()[0][0])


def by_day(
    connection: duckdb.DuckDBPyConnection, filters: Filters, players: list[tuple[str, str]]
) -> dict[str, Any]:
    """Per chosen player (`WHO`'s who_site, who) and UTC day: net won in big bets, in all
    and at showdown (cumulative, as the report's chart adds them up), hands, and the
    all-in EV-adjusted net in big bets (cumulative); keyed "name (site)"."""
    if not players:
        return {}
    focus, labels = _focus(connection, players)
    series: dict[str, Any] = {label: [] for label in labels}
    where = summary_where(replace(filters, player="", site=filters.site), "s.")
    connection.register("serve_focus", focus)
    try:
        rows = connection.execute(
            f"""
            SELECT f.label, s.day, sum(s.hands) AS hands, sum(s.bb_sum) AS bb,
                sum(s.sd_bb) AS sd_bb, sum(s.ev_bb_sum) AS ev_bb
            FROM serve_sums s JOIN serve_focus f USING (site, player) {where.sql()}
            GROUP BY ALL ORDER BY f.label, s.day
            """,
            where.parameters,
        ).fetchall()
    finally:
        connection.unregister("serve_focus")
    totals: dict[str, tuple[float, float, float]] = {}
    for key, day, hands, bb, sd_bb, ev_bb in rows:
        total, showdown, ev = totals.get(key, (0.0, 0.0, 0.0))
        total += bb or 0.0
        showdown += sd_bb or 0.0
        ev += ev_bb or 0.0
        totals[key] = (total, showdown, ev)
        if day is not None:
            series[key].append(
                [day.isoformat(), round(total, 3), round(showdown, 3), int(hands), round(ev, 3)]
            )
    return series


def over_hands(
    connection: duckdb.DuckDBPyConnection, filters: Filters, players: list[tuple[str, str]]
) -> dict[str, dict[str, Any]]:
    """Each chosen player's cumulative net won in big bets over their hands in play order,
    in all, at showdown and all-in EV-adjusted (the report's cumulative chart: each point
    [hands, net, at showdown, EV-adjusted net]), at about `CHART_POINTS`
    points, keyed "name (site)": the hands are added up in fine time buckets of each
    player's own span (a hash aggregate over one pass of the rows; sorting a million rows
    for a line of 1,500 points took seconds), the running totals kept at every
    `CHART_POINTS`-th of the player's hands, each point exact at its bucket's end (x: the
    hands played so far). Hands of unknown time come last, as in the report."""
    import pyarrow as pa

    if not players:
        return {}
    focus, labels = _focus(connection, players)
    where = summary_where(replace(filters, player=""), "s.")
    connection.register("serve_focus", focus)
    try:
        # Each player's span from the summary's groups (a few thousand rows), not the rows.
        spans = connection.execute(
            f"SELECT f.label, epoch(min(s.first)), epoch(max(s.last)) "
            f"FROM serve_sums s JOIN serve_focus f USING (site, player) {where.sql()} "
            "GROUP BY f.label",
            where.parameters,
        ).fetchall()
        widths = {
            label: max(1.0, ((last or 0) - (first or 0)) / (CHART_POINTS * CHART_FINENESS))
            for label, first, last in spans
        }
        width = pa.array([widths.get(label, 1.0) for label in focus["label"].to_pylist()])
        connection.register("serve_focus", focus.append_column("width", width))
        rows = connection.execute(
            f"""
            WITH buckets AS (
                SELECT f.label, floor(epoch(s.start_utc) / f.width) AS bucket,
                    count(*) AS hands, sum(coalesce(s.bb, 0)) AS total,
                    sum(CASE WHEN s.showdown THEN coalesce(s.bb, 0) ELSE 0 END) AS showdown,
                    sum(coalesce(s.bb_ev, 0)) AS ev
                FROM serve_rows s JOIN serve_focus f USING (site, player) {where.sql()}
                GROUP BY ALL
            ), running AS (
                SELECT label, bucket, sum(hands) OVER w AS hands, sum(total) OVER w AS total,
                    sum(showdown) OVER w AS showdown, sum(ev) OVER w AS ev,
                    sum(hands) OVER (PARTITION BY label) AS n
                FROM buckets
                WINDOW w AS (PARTITION BY label ORDER BY bucket NULLS LAST
                    ROWS UNBOUNDED PRECEDING)
            )
            SELECT label, hands, total, showdown, ev FROM running
            QUALIFY row_number() OVER (
                PARTITION BY label, floor((hands - 1) * {CHART_POINTS} / n)
                ORDER BY bucket DESC NULLS FIRST) = 1
            ORDER BY label, hands
            """,
            where.parameters,
        ).fetchall()
    finally:
        connection.unregister("serve_focus")
    series: dict[str, dict[str, Any]] = {label: {"hands": 0, "points": []} for label in labels}
    for label, hands, total, showdown, ev in rows:
        line = series[label]
        line["points"].append([int(hands), round(total, 3), round(showdown, 3), round(ev, 3)])
        line["hands"] = int(hands)
    return series


def flag_days(connection: duckdb.DuckDBPyConnection, filters: Filters) -> list[list[Any]]:
    """Faults per UTC day and kind, of the hands the filters keep."""
    where = hands_where(filters, flagged=True)
    where.add(FAULT)
    rows = connection.execute(
        f"""
        SELECT (h.start_time AT TIME ZONE 'UTC')::DATE AS day, v.kind, count(*) AS flags
        FROM violations v JOIN hands h USING (site, hand_id)
        {where.sql()}
        GROUP BY ALL ORDER BY day, v.kind
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
        rows = _with_players(connection, rows, filters)
    pages = max(1, -(-int(count) // PAGE_SIZE))
    return {"count": int(count), "page": max(page, 1), "pages": pages, "rows": rows}


_HAND_COLUMNS = f"""h.site, h.hand_id, h.table_name, h.tournament_id,
    (h.start_time AT TIME ZONE 'UTC') AS start_utc, h.game, h.structure,
    {UNIT_SQL.replace("chips_in_hundredths", "h.chips_in_hundredths")} AS unit,
    h.small_bet, h.big_bet, h.players, h.total_pot, h.status, h.illegal, h.mis_split"""


def _with_players(
    connection: duckdb.DuckDBPyConnection, rows: pl.DataFrame, filters: Filters
) -> pl.DataFrame:
    """A page of hands with each one's players (in seat order), its flags' kinds and, with
    a player chosen, their net."""
    connection.register("serve_page", rows.select("site", "hand_id").to_arrow())
    try:
        people = connection.sql(
            f"""
            SELECT p.site, p.hand_id, string_agg(p.player, ', ' ORDER BY p.seat) AS names
            FROM hand_players p SEMI JOIN serve_page k USING (site, hand_id)
            WHERE {DEALT_IN}
            GROUP BY ALL
            """
        ).pl()
        kinds = connection.sql(
            f"""
            SELECT v.site, v.hand_id, string_agg(DISTINCT v.kind, ', ') AS kinds
            FROM violations v SEMI JOIN serve_page k USING (site, hand_id)
            WHERE {FAULT}
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
            h.illegal, h.mis_split, h.file, h.line, h.end_line, h.players, h.ev_all_in
        FROM hands h WHERE h.site = ? AND h.hand_id = ?
        """,
        params=[site, hand_id],
    ).pl()
    return found.row(0, named=True) if found.height else None


def hand_flags(
    connection: duckdb.DuckDBPyConnection, site: str, hand_id: str
) -> list[dict[str, Any]]:
    """A hand's faults in order, each with the flags that follow from it (`consequences`:
    seq, code, line, message) under it."""
    stored = (
        connection.sql(
            """
        SELECT v.seq, v.code, v.kind, v.street, v.player, v.line, v.message, v.cause
        FROM violations v WHERE v.site = ? AND v.hand_id = ? ORDER BY v.seq
        """,
            params=[site, hand_id],
        )
        .to_arrow_table()
        .to_pylist()
    )
    faults = {flag["seq"]: {**flag, "consequences": []} for flag in stored if flag["cause"] is None}
    for flag in stored:
        cause = faults.get(flag["cause"])
        if cause is not None:
            cause["consequences"].append(flag)
        elif flag["cause"] is not None:  # its cause not stored: shown as a fault
            faults[flag["seq"]] = {**flag, "consequences": []}
    return sorted(faults.values(), key=lambda flag: flag["seq"])


def hand_players(
    connection: duckdb.DuckDBPyConnection, site: str, hand_id: str
) -> list[dict[str, Any]]:
    return (
        connection.sql(
            """
        SELECT seat, player, stack, put_in, collected, net, rake_share, cards, showdown, ev_net
        FROM hand_players WHERE site = ? AND hand_id = ? ORDER BY seat
        """,
            params=[site, hand_id],
        )
        .pl()
        .to_dicts()
    )


def hand_equities(
    connection: duckdb.DuckDBPyConnection, site: str, hand_id: str
) -> list[dict[str, Any]]:
    """The hand's stored equities at its all-in (`equities`, rows only for a hand whose
    `ev_all_in` is TRUE): pot by pot, players in seat order."""
    return (
        connection.sql(
            """
        SELECT e.pot, e.player, e.street, e.amount, e.equity, e.method, e.error, e.deals
        FROM equities e
        LEFT JOIN hand_players p
            ON p.site = e.site AND p.hand_id = e.hand_id AND p.player = e.player
        WHERE e.site = ? AND e.hand_id = ? ORDER BY e.pot, p.seat, e.player
        """,
            params=[site, hand_id],
        )
        .to_arrow_table()
        .to_pylist()
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
) -> dict[str, Any]:
    """The faults of the hands the filters keep (of one kind and code, if given): counted
    by kind and code, site, table and day, and a page of them, each with the flags that
    follow from it (`consequences`), which are not counted (`FAULT`)."""
    where = hands_where(filters, flagged=True)
    where.add(FAULT)
    if kind:
        where.add("v.kind = ?", kind)
    if code:
        where.add("v.code = ?", code)
    base = f"FROM violations v JOIN hands h USING (site, hand_id) {where.sql()}"
    parameters = where.parameters
    connection.execute(
        f"""
        CREATE OR REPLACE TEMP TABLE serve_flags AS
        SELECT v.kind, v.code, h.site, h.table_name,
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
    listed = _with_consequences(connection, listed)
    return {
        "counts": counts,
        "count": int(total),
        "page": max(page, 1),
        "pages": max(1, -(-int(total) // PAGE_SIZE)),
        "rows": listed,
    }


def _with_consequences(connection: duckdb.DuckDBPyConnection, faults: pl.DataFrame) -> pl.DataFrame:
    """`faults` (site, hand_id, seq) with the flags that follow from each, in order."""
    empty = pl.List(
        pl.Struct({"code": pl.String, "line": pl.Int64, "player": pl.String, "message": pl.String})
    )
    if faults.is_empty():
        return faults.with_columns(consequences=pl.lit(None, empty))
    connection.register("serve_faults", faults.select("site", "hand_id", "seq").to_arrow())
    try:
        following = connection.sql(
            """
            SELECT v.site, v.hand_id, v.cause AS seq,
                list({'code': v.code, 'line': v.line::BIGINT, 'player': v.player,
                    'message': v.message} ORDER BY v.seq) AS consequences
            FROM violations v JOIN serve_faults f
                ON v.site = f.site AND v.hand_id = f.hand_id AND v.cause = f.seq
            GROUP BY ALL
            """
        ).pl()
    finally:
        connection.unregister("serve_faults")
    if following.is_empty():
        return faults.with_columns(consequences=pl.lit(None, empty))
    following = following.with_columns(pl.col("seq").cast(faults.schema["seq"]))
    return faults.join(following, on=["site", "hand_id", "seq"], how="left", maintain_order="left")


# -- sessions ------------------------------------------------------------------------------

SESSION_SORTS = ("first", "hands", "net", "luck", "hours", "per_hour", "bb_per_100", "player")


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
    _player_clause(where, filters, "t.")
    for name in ("site", "game", "structure", "unit"):
        if getattr(filters, name):
            where.add(f"t.{name} = ?", getattr(filters, name))
    stakes = _stakes(filters.stakes)
    if stakes:
        where.add("t.small_bet = ? AND t.big_bet = ?", *stakes)
    if filters.table:
        where.add("t.table_key = ?", filters.table)
    since, until = _date(filters.since), _date(filters.until)
    if since:
        where.add("t.last >= ?::DATE::TIMESTAMP", since)
    if until:
        where.add("t.first < (?::DATE + 1)::TIMESTAMP", until)
    # A session's parts the filters keep (its game and stakes), added up.
    summed = ", ".join(f"sum({name}) AS {name}" for name in _MOMENTS)
    grouped = f"""
        WITH chosen AS ({labelled("serve_sessions", where)}),
        grouped AS (
            SELECT session, any_value(who) AS player, any_value(who_key) AS player_key,
                any_value(site) AS site, any_value(table_key) AS table_key,
                any_value(table_name) AS table_name, unit, structure, {summed},
                sum({SECONDS_SQL}) AS seconds, min(first) AS first, max(last) AS last
            FROM chosen LEFT JOIN alone_seconds USING (who_site, who)
            GROUP BY session, unit, structure
            HAVING sum(hands) >= ?
        )"""
    parameters = [*where.parameters, filters.minimum]
    column = sort if sort in SESSION_SORTS else "first"
    order = {
        "per_hour": "(net / nullif(seconds, 0))",
        "bb_per_100": "(bb_sum / nullif(bb_n, 0))",
        "luck": "(net - ev_net)",
        "hours": "seconds",
    }.get(column, column)
    direction = "DESC" if descending else "ASC"
    offset = (max(page, 1) - 1) * PAGE_SIZE
    moments = connection.sql(
        f"""
        {grouped}
        SELECT *, count(*) OVER () AS _count FROM grouped
        ORDER BY {order} {direction} NULLS LAST, session
        LIMIT {PAGE_SIZE} OFFSET {offset}
        """,
        params=parameters,
    ).pl()
    if moments.height:
        count = int(moments["_count"][0])
    else:  # a page past the end: counted apart
        found = connection.execute(f"{grouped} SELECT count(*) FROM grouped", parameters)
        count = int(found.fetchall()[0][0])
    moments = moments.drop("_count")
    moments = moments.with_columns(
        pl.col(name).cast(pl.Int64)
        for name in ("hands", "net", "rake", "bb_n", "bi_n", "ev_net", "all_ins")
    )
    keys = ["session", "player", "player_key", "site", "table_key", "table_name"]
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
    stored: StoredText | None = None
    """The store's copy (`handlog.texts`), which `texts.reread` reads again as `handlog
    show` does."""


def hand_text(connection: duckdb.DuckDBPyConnection, row: dict[str, Any]) -> HandText | None:
    """A hand's text as it stood in its file: the store's copy (`texts.load_texts`: every
    hand imported since schema 8), else, for a hand imported before, the flagged hand's
    evidence or its file read again at the stored line, if the file still holds it. The
    one place that says where a hand's text comes from."""
    from handlog.evidence import decompress
    from handlog.texts import load_texts

    key = (row["site"], row["hand_id"])
    stored = load_texts(connection, [key]).get(key)
    if stored is not None:
        return HandText(stored.text, stored.file, stored.line, "store", stored)
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
