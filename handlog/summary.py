"""Summary tables that keep `handlog serve`'s pages fast over millions of hands, kept up to
date as hands are stored.

    catch_up(connection) -> int

summarizes every hand stored since the last call (all of them the first time), in parts
of `CHUNK_HANDS`, each in one transaction. The import calls it after each commit (its
`after_commit` hook; `handlog import` calls it once, at its end, and only for a database
served before, `handlog.summarized.has_summary`); the server calls it when it starts (a
database imported before, or by another tool) and after each import of its watcher. A
library module below the importer and the app alike (the library never imports the web
layer). Three tables, all derived, never read by anything but `handlog.serve`:

* `serve_rows`: one row per player dealt in per hand, the hand's columns beside (the
  filters' columns) and what the report computes of each: big bets (`bb`), bring-ins
  (`bi`), the all-in EV-adjusted net, its big bets and bring-ins and whether the player was
  in a pot at an all-in (`ev_net`, `bb_ev`, `bi_ev`, `all_in`), the hand's length
  (`seconds`), its session, and whether the player went to showdown
  (`compute.hand_flags`, as the report's cumulative chart reads it);
* `serve_sums`: `compute.winrate_moments` of those rows by player (site and name), game,
  structure, unit, stakes, table and UTC day, with the showdown part of the net: sums,
  which add up over any of those groups, so that a page sums the groups its filters keep
  and `compute.sums_from_moments` and `compute.winrate_figures` give the report's figures.
  It is a log of changes: when a session grows, the rows whose length changed are taken
  out (added with the opposite sign) and put back; `compact` adds it up now and then;
* `serve_sessions`: the same sums per session (a player's continuous play at one table,
  `compute.player_sessions`'s definition) and its game and stakes (`SESSION_KEYS`).

Sessions are the report's: `compute.player_sessions` is run again on the rows of the
sessions a new hand may join or merge (from the start of the last session that began
before it at that table, for that player), never on all the rows.

Which hands are new: the store only appends to `hands` and, with a new hand only, to its
detail tables, so DuckDB's `rowid` of `hands` grows with every new hand; the highest one
summarized is kept in `serve_meta` with the counts that check it (a copy of the database
whose tables were rebuilt, say by tools/replicate_db.py, is summarized again from scratch).

Hours are the report's (`compute.player_sessions`, over all of a player's hands whatever
the filter): a row's `seconds` is known from its session when the session has two hands
or more; the hand of a one-hand session lasts the median of the player's sessions' mean
intervals, which moves as hands arrive, so the sums keep those hands' count (`alone`) and
a page applies the player's median as it reads them (`queries.ALONE_SECONDS`). One
difference from `handlog report` remains: a hand's bring-in where nobody brought in is the
highest seen at its stakes when it was summarized.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import polars as pl

from handlog.report import compute
from handlog.report.data import (
    _STREET_NUMBER,
    BETTING_KINDS,
    EV_COLUMNS,
    EV_JOIN,
    UNIT_SQL,
    Frames,
)
from handlog.report.data import DEALT_IN as DEALT
from handlog.summarized import max_rowid as _max_rowid
from handlog.summarized import meta_int as _meta_int
from handlog.summarized import summarized

if TYPE_CHECKING:
    import duckdb

__all__ = ["after_commit", "catch_up", "compact", "run", "summarized"]

VERSION = "7"
"""Of these tables' shape and meaning: another version is rebuilt from the hands."""

CHUNK_HANDS = 100_000
"""Hands summarized in one transaction (a first summary of a million hands: ten)."""

ROW_COLUMNS = {
    "site": "VARCHAR",
    "hand_id": "VARCHAR",
    "player": "VARCHAR",
    "game": "VARCHAR",
    "structure": "VARCHAR",
    "unit": "VARCHAR",
    "small_bet": "BIGINT",
    "big_bet": "BIGINT",
    "bring_in": "BIGINT",
    "table_key": "VARCHAR",
    "table_name": "VARCHAR",
    "start_utc": "TIMESTAMP",
    "day": "DATE",
    "net": "BIGINT",
    "rake_share": "BIGINT",
    "bb": "DOUBLE",
    "bi": "DOUBLE",
    "ev_net": "BIGINT",
    "bb_ev": "DOUBLE",
    "bi_ev": "DOUBLE",
    "all_in": "BOOLEAN",
    "showdown": "BOOLEAN",
    "session": "BIGINT",
    "session_first": "TIMESTAMP",
    "seconds": "DOUBLE",
    "flagged": "BOOLEAN",
}
"""`serve_rows`: what the report's `compute.player_hands` makes of a row, and more."""

SUM_KEYS = (
    "player",
    "site",
    "game",
    "structure",
    "unit",
    "small_bet",
    "big_bet",
    "table_key",
    "table_name",
    "day",
)
"""The groups of `serve_sums`: every filter of the overview is one of these (a date range
by whole UTC days)."""

SESSION_KEYS = (
    "session",
    "player",
    "site",
    "table_key",
    "table_name",
    "game",
    "small_bet",
    "big_bet",
)
"""The parts of `serve_sessions`: a session's hands by game and stakes (a mixed game's
table changes game, a tournament's stakes rise), so that a page of sessions keeps the
parts its filters keep and adds them up by session."""

CHART_SUMS = ("sd_hands", "sd_net", "sd_bb")
"""Of the hands that went to showdown: how many, their net and their big bets (the
report's cumulative chart splits the net so). The all-in EV-adjusted net is among the
moments (`compute.EV_MOMENTS`: `hand_players.ev_net`, the net itself where a hand's EV is
not computed yet); a database whose EV `handlog ev` computes after it was summarized is
summarized again (`equity.stored.compute_stored` marks it so)."""

_MOMENT_TYPES = {
    "hands": "BIGINT",
    "net": "BIGINT",
    "rake": "BIGINT",
    "bb_n": "BIGINT",
    "bb_sum": "DOUBLE",
    "bb_sq": "DOUBLE",
    "bi_n": "BIGINT",
    "bi_sum": "DOUBLE",
    "seconds": "DOUBLE",
    "alone": "BIGINT",
    "ev_net": "BIGINT",
    "ev_bb_sum": "DOUBLE",
    "ev_bb_sq": "DOUBLE",
    "ev_bi_sum": "DOUBLE",
    "all_ins": "BIGINT",
}
_SIGNED = (*_MOMENT_TYPES, *CHART_SUMS)
"""The columns of a change that take the opposite sign when rows are taken out."""


def _columns(names: dict[str, str]) -> str:
    return ", ".join(f"{name} {kind}" for name, kind in names.items())


STAT_COLUMNS = tuple(compute.STAT_COUNTS)
"""`serve_stats`: the stud statistics' counts (`compute.STAT_COUNTS`) by `SUM_KEYS`."""
AGGRESSION_COLUMNS = ("aggressive", "calls", "actions")
"""`serve_aggression`: `compute.aggression_counts` by `SUM_KEYS` and street."""

_KEY_TYPES = {key: ROW_COLUMNS[key] for key in SUM_KEYS}
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS serve_meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS serve_rows ({_columns(ROW_COLUMNS)});
CREATE TABLE IF NOT EXISTS serve_sums ({_columns(_KEY_TYPES)}, {_columns(_MOMENT_TYPES)},
    first TIMESTAMP, last TIMESTAMP, sd_hands BIGINT, sd_net BIGINT, sd_bb DOUBLE);
CREATE TABLE IF NOT EXISTS serve_sessions (session BIGINT, player VARCHAR, site VARCHAR,
    table_key VARCHAR, table_name VARCHAR, game VARCHAR, small_bet BIGINT, big_bet BIGINT,
    unit VARCHAR, structure VARCHAR, {_columns(_MOMENT_TYPES)}, first TIMESTAMP,
    last TIMESTAMP);
CREATE TABLE IF NOT EXISTS serve_stats ({_columns(_KEY_TYPES)},
    {_columns(dict.fromkeys(STAT_COLUMNS, "BIGINT"))});
CREATE TABLE IF NOT EXISTS serve_aggression ({_columns(_KEY_TYPES)}, street TINYINT,
    {_columns(dict.fromkeys(AGGRESSION_COLUMNS, "BIGINT"))});
"""
TABLES = (
    "serve_meta",
    "serve_rows",
    "serve_sums",
    "serve_sessions",
    "serve_stats",
    "serve_aggression",
)

_lock = threading.Lock()
"""One catch-up at a time in a process (the server's watcher and a request for it)."""


class Progress:
    """How far a catch-up has got, for a page to show while it runs."""

    def __init__(self) -> None:
        self.done = 0
        self.total = 0
        self.running = False


def catch_up(
    connection: duckdb.DuckDBPyConnection,
    progress: Progress | None = None,
    chunk_hands: int = CHUNK_HANDS,
) -> int:
    """Summarize the hands stored since the last call (see the module doc); the number of
    hands summarized. Each part commits on its own: stopped half way, the next call goes
    on from there."""
    with _lock:
        connection.execute("SET enable_progress_bar = false")  # no bars in a command's output
        _ensure(connection)
        marks = _marks(connection)
        ends = {
            table: _max_rowid(connection, table) for table in ("hands", "hand_players", "actions")
        }
        todo = _count(connection, "SELECT count(*) FROM hands WHERE rowid > ?", [marks["hands"]])
        if progress is not None:
            progress.total, progress.done, progress.running = todo, 0, bool(todo)
        done = 0
        try:
            while marks["hands"] < ends["hands"]:
                marks["hands"], added = _summarize(connection, marks, ends, chunk_hands)
                done += added
                if progress is not None:
                    progress.done = done
            if marks["hand_players"] < ends["hand_players"] or marks["actions"] < ends["actions"]:
                _set_meta(
                    connection,
                    {"hand_players": str(ends["hand_players"]), "actions": str(ends["actions"])},
                )
        finally:
            if progress is not None:
                progress.running = False
        if done:
            _compact_if_long(connection)
        return done


IMPORT_BATCH = 20_000
"""Hands an import stores before its hook summarizes them (then once more at its end): a
summary part costs some 0.1-0.5 s whatever its size, and an import commits every 3,500
hands or so."""


def after_commit(connection: duckdb.DuckDBPyConnection, final: bool = False) -> None:
    """The import's hook after each commit (and once at its end, `final`): summarize the
    hands it stored, once `IMPORT_BATCH` of them wait or at the end. A failure here loses
    nothing (the hands are stored; the next catch-up summarizes them): it is raised only
    when the database itself cannot be used, as the import's own errors are."""
    import duckdb

    from handlog.store import is_storage_fault

    try:
        if not final:
            try:
                waiting = connection.execute(
                    "SELECT (SELECT coalesce(max(rowid), -1) FROM hands) - coalesce("
                    "(SELECT value::BIGINT FROM serve_meta WHERE key = 'hands'), -1)"
                ).fetchall()[0][0]
            except duckdb.CatalogException:
                waiting = IMPORT_BATCH  # no summary tables yet: made now
            if waiting < IMPORT_BATCH:
                return
        catch_up(connection)
    except Exception as error:
        # Ctrl-C reaching DuckDB (which turns it into an error of its own) stops the
        # import, as does a database that cannot be used; anything else is left for the
        # next catch-up to meet (and the server's log to show), the import going on.
        text = str(error).lower()
        interrupted = isinstance(error, duckdb.InterruptException) or "interrupt" in text
        if interrupted or (isinstance(error, duckdb.Error) and is_storage_fault(error)):
            raise
        import logging

        logging.getLogger("handlog.summary").warning(
            "the summary tables were not brought up to date: %s", str(error).split("\n", 1)[0]
        )


# -- bookkeeping ---------------------------------------------------------------------------


def _ensure(connection: duckdb.DuckDBPyConnection) -> None:
    """The tables there, of this version, and consistent with the hands (else rebuilt)."""
    connection.execute("BEGIN TRANSACTION")
    try:
        connection.execute(SCHEMA)
        meta = dict(connection.execute("SELECT key, value FROM serve_meta").fetchall())
        if meta and not _consistent(connection, meta):
            # Made again from the hands, in this version's shape.
            for table in TABLES:
                connection.execute(f"DROP TABLE {table}")
            connection.execute(SCHEMA)
            meta = {}
        if not meta:
            connection.execute(
                "INSERT INTO serve_meta VALUES ('version', ?), ('hands', '-1'), "
                "('hand_players', '-1'), ('actions', '-1'), ('hands_done', '0'), "
                "('rows_done', '0'), ('next_session', '1'), ('compacted', '0')",
                [VERSION],
            )
        connection.execute("COMMIT")
    except BaseException:
        _rollback(connection)
        raise


def _consistent(connection: duckdb.DuckDBPyConnection, meta: dict[str, str]) -> bool:
    if meta.get("version") != VERSION or not {"hands", "hands_done", "rows_done"} <= set(meta):
        return False
    columns = connection.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'serve_rows' "
        "AND schema_name = current_schema() AND database_name = current_database() "
        "ORDER BY column_index"
    ).fetchall()
    if [name for (name,) in columns] != list(ROW_COLUMNS):
        return False  # left in another shape (a version's upgrade stopped half way)
    hands = _count(connection, "SELECT count(*) FROM hands WHERE rowid <= ?", [int(meta["hands"])])
    rows = _count(connection, "SELECT count(*) FROM serve_rows")
    return hands == int(meta["hands_done"]) and rows == int(meta["rows_done"])


def _marks(connection: duckdb.DuckDBPyConnection) -> dict[str, int]:
    meta = dict(connection.execute("SELECT key, value FROM serve_meta").fetchall())
    return {table: int(meta[table]) for table in ("hands", "hand_players", "actions")}


def _set_meta(connection: duckdb.DuckDBPyConnection, values: dict[str, str]) -> None:
    for key, value in values.items():
        connection.execute("INSERT OR REPLACE INTO serve_meta VALUES (?, ?)", [key, value])


def _count(connection: duckdb.DuckDBPyConnection, query: str, parameters: Any = None) -> int:
    # fetchall: a result left unfinished would hold the connection (DuckDB 2)
    rows = connection.execute(query, parameters).fetchall()
    return int(rows[0][0]) if rows else 0


def _rollback(connection: duckdb.DuckDBPyConnection) -> None:
    from handlog.store import rollback

    rollback(connection)


# -- one part ------------------------------------------------------------------------------


def _summarize(
    connection: duckdb.DuckDBPyConnection,
    marks: dict[str, int],
    ends: dict[str, int],
    limit: int,
) -> tuple[int, int]:
    """Summarize the next `limit` hands after `marks["hands"]` in one transaction; the
    new mark and the number of hands."""
    connection.execute("BEGIN TRANSACTION")
    try:
        hands = _new_hands(connection, marks["hands"], ends["hands"], limit)
        mark = int(hands["_rowid"].max())  # type: ignore[arg-type]
        hands = hands.drop("_rowid")
        connection.register("serve_new_hands", hands.select("hk", "site", "hand_id").to_arrow())
        try:
            players = _query(
                connection,
                f"""
                SELECT n.hk, p.player, p.net, p.rake_share, p.collected, p.cards, p.won_high,
                    p.won_low, {EV_COLUMNS}
                FROM hand_players p JOIN serve_new_hands n USING (site, hand_id) {EV_JOIN}
                WHERE p.rowid > $mark AND {DEALT}
                """,
                {"mark": marks["hand_players"]},
            )
            kinds = ", ".join(f"'{kind}'" for kind in BETTING_KINDS)
            actions = _query(
                connection,
                f"""
                SELECT n.hk, a.seq, (CASE a.street {_STREET_NUMBER} END)::TINYINT AS street,
                    a.player, a.kind
                FROM actions a JOIN serve_new_hands n USING (site, hand_id)
                WHERE a.rowid > $mark AND a.kind IN ({kinds})
                """,
                {"mark": marks["actions"]},
            )
        finally:
            connection.unregister("serve_new_hands")
        new_rows, stats, aggression = _new_rows(hands, players, actions)
        _store_rows(connection, new_rows)
        _insert(connection, "serve_stats", stats)
        _insert(connection, "serve_aggression", aggression)
        _set_meta(
            connection,
            {
                "hands": str(mark),
                "hands_done": str(_meta_int(connection, "hands_done") + hands.height),
                "rows_done": str(_count(connection, "SELECT count(*) FROM serve_rows")),
            },
        )
        connection.execute("COMMIT")
    except BaseException:
        _rollback(connection)
        raise
    return mark, hands.height


_HAND_SELECT = f"""
    SELECT h.rowid AS _rowid, h.site, h.hand_id, h.game, {UNIT_SQL} AS unit, h.small_bet,
        h.big_bet, h.structure, h.bring_in, h.currency, h.tournament_id,
        concat_ws(' ', h.site, h.tournament_id, h.table_name) AS table_key, h.table_name,
        (h.start_time AT TIME ZONE 'UTC') AS start_utc, h.status = 'flagged' AS flagged
    FROM hands h
    WHERE h.rowid > $mark AND h.rowid <= $end
    ORDER BY h.rowid
    LIMIT $limit
"""


def _new_hands(
    connection: duckdb.DuckDBPyConnection, mark: int, end: int, limit: int
) -> pl.DataFrame:
    """The next hands to summarize with the columns the report reads of a hand
    (`compute.HAND_COLUMNS`), numbered `hk` 1..n in play order (as the report numbers
    them: start time, site, hand id)."""
    hands = _query(connection, _HAND_SELECT, {"mark": mark, "end": end, "limit": limit})
    missing = hands.filter(pl.col("bring_in").is_null())
    if missing.height:
        # Nobody brought in: the bring-in seen at the same stakes (data.BRING_IN_SQL's rule).
        stakes = ["site", "currency", "tournament_id", "small_bet", "big_bet", "structure"]
        connection.register("serve_stakes", missing.select(stakes).unique().to_arrow())
        try:
            seen = _query(
                connection,
                """
                SELECT h.site, h.currency, h.tournament_id, h.small_bet, h.big_bet,
                    h.structure, max(h.bring_in) AS seen_bring_in
                FROM hands h SEMI JOIN serve_stakes s
                    ON h.site = s.site AND h.currency IS NOT DISTINCT FROM s.currency
                    AND h.tournament_id IS NOT DISTINCT FROM s.tournament_id
                    AND h.small_bet IS NOT DISTINCT FROM s.small_bet
                    AND h.big_bet IS NOT DISTINCT FROM s.big_bet
                    AND h.structure IS NOT DISTINCT FROM s.structure
                GROUP BY ALL
                """,
            )
        finally:
            connection.unregister("serve_stakes")
        hands = hands.join(seen, on=stakes, how="left", nulls_equal=True).with_columns(
            bring_in=pl.coalesce("bring_in", "seen_bring_in")
        )
    hands = hands.drop("currency", "tournament_id", "seen_bring_in", strict=False)
    return _numbered(hands)


def _numbered(hands: pl.DataFrame) -> pl.DataFrame:
    """`hands` sorted in play order (start time, unknown last; site; hand id) and numbered
    `hk` 1..n, as `data.load` numbers a report's hands."""
    hands = hands.sort(["start_utc", "site", "hand_id"], nulls_last=True)
    return hands.with_columns(hk=pl.int_range(1, hands.height + 1, dtype=pl.Int32))


def _new_rows(
    hands: pl.DataFrame, players: pl.DataFrame, actions: pl.DataFrame
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The new hands' player rows with their hand's columns and `showdown`
    (`compute.hand_flags`, as the report's statistics and cumulative chart read it); the
    stud statistics' counts (`compute.STAT_COUNTS` of the same flags) and the aggression
    counts (`compute.aggression_counts`) by `SUM_KEYS` (a hand's, which never change)."""
    players = players.with_columns(pl.col("player").cast(pl.Categorical)).sort("hk")
    actions = actions.with_columns(pl.col("player").cast(pl.Categorical)).sort(
        pl.col("hk").cast(pl.Int64) * (1 << 32) + pl.col("seq")
    )
    hands = hands.sort("hk")
    rows = compute.with_hand_columns(hands, players, ["site", "game", "structure", "big_bet"])
    frames = Frames(hands, rows, actions, pl.DataFrame(), pl.DataFrame())
    flagged = compute.hand_flags(frames, rows)
    flags = flagged.select("hk", "player", "showdown")
    players = players.join(flags, on=["hk", "player"], how="left").with_columns(
        pl.col("showdown").fill_null(False), pl.col("player").cast(pl.String)
    )
    columns = [c for c in hands.columns if c not in players.columns]
    new_rows = compute.with_hand_columns(hands, players.sort("hk"), columns).select(
        "site",
        "hand_id",
        "player",
        "net",
        "rake_share",
        "ev_net",
        "all_in",
        "showdown",
        *columns[2:],
    )
    # The statistics by the summary's keys: the hand's columns of them beside each row.
    keys = list(SUM_KEYS)
    by = [key for key in keys if key not in ("player", "site")]
    dated = hands.with_columns(day=pl.col("start_utc").dt.date())
    added = [key for key in by if key not in flagged.columns]
    per_hand = compute.with_hand_columns(dated, flagged.sort("hk"), added)
    stats = (
        per_hand.with_columns(pl.col("player").cast(pl.String))
        .group_by(keys)
        .agg(
            expression.cast(pl.Int64).alias(name)
            for name, expression in compute.STAT_COUNTS.items()
        )
    )
    aggression = (
        compute.aggression_counts(Frames(dated, rows, actions, *_EMPTY), None, by)
        .rename({"player_site": "site"})
        .with_columns(pl.col("player").cast(pl.String), pl.col("street").cast(pl.Int8))
    )
    return new_rows, stats, aggression


def _store_rows(connection: duckdb.DuckDBPyConnection, new_rows: pl.DataFrame) -> None:
    """Add `new_rows` to `serve_rows` with their sessions, taking out and putting back the
    rows of the sessions they may join (see the module doc), and the changes to
    `serve_sums` and `serve_sessions`."""
    timed = new_rows.filter(pl.col("start_utc").is_not_null())
    affected = timed.group_by("player", "table_key").agg(min_start=pl.col("start_utc").min())
    connection.register("serve_affected", affected.to_arrow())
    try:
        old = _query(
            connection,
            f"""
            WITH before AS (
                SELECT r.player, r.table_key, max(r.session_first) AS cutoff
                FROM serve_rows r JOIN serve_affected a USING (player, table_key)
                WHERE r.start_utc < a.min_start
                GROUP BY ALL
            )
            SELECT {", ".join(f"r.{column}" for column in ROW_COLUMNS)}
            FROM serve_rows r JOIN serve_affected a USING (player, table_key)
            LEFT JOIN before b USING (player, table_key)
            WHERE r.start_utc >= coalesce(b.cutoff, a.min_start)
            """,
        )
    finally:
        connection.unregister("serve_affected")
    rows = _with_sessions(
        connection,
        pl.concat([old.drop(*_DERIVED), new_rows], how="diagonal_relaxed"),
    )
    changes = [_sums(rows, 1)]
    if old.height:
        changes.append(_sums(old, -1))
        connection.register("serve_old", old.select("site", "hand_id", "player").to_arrow())
        try:
            connection.execute(
                """
                DELETE FROM serve_rows r USING serve_old o
                WHERE r.site = o.site AND r.hand_id = o.hand_id AND r.player = o.player
                """
            )
        finally:
            connection.unregister("serve_old")
        sessions = pl.DataFrame({"session": old["session"].unique()})
        connection.register("serve_old_sessions", sessions.to_arrow())
        try:
            connection.execute(
                "DELETE FROM serve_sessions WHERE session IN "
                "(SELECT session FROM serve_old_sessions)"
            )
        finally:
            connection.unregister("serve_old_sessions")
    _insert(connection, "serve_rows", rows.select(*ROW_COLUMNS))
    _insert(connection, "serve_sums", pl.concat(changes, how="vertical_relaxed"))
    _insert(connection, "serve_sessions", _session_sums(rows))


_DERIVED = ("day", "bb", "bi", "bb_ev", "bi_ev", "session", "session_first", "seconds")
"""The columns of `serve_rows` computed from the others (again, when a session changes)."""


def _with_sessions(connection: duckdb.DuckDBPyConnection, rows: pl.DataFrame) -> pl.DataFrame:
    """`rows` (the player rows of some hands, with the hands' columns) with the report's
    `bb`, `bi`, `day`, `session` and `seconds` (`compute.player_sessions`), the session
    numbered after every session stored, and its first hand's time."""
    hand_columns = [name for name in compute.HAND_COLUMNS if name not in ("hk", "chosen")]
    hands = _numbered(rows.select("hand_id", *hand_columns).unique(["site", "hand_id"]))
    keyed = rows.join(hands.select("site", "hand_id", "hk"), on=["site", "hand_id"])
    players = keyed.select("hk", "player", "net", "rake_share", "ev_net").with_columns(
        pl.col("player").cast(pl.Categorical)
    )
    frames = Frames(hands.select("hk", *hand_columns), players, pl.DataFrame(), *_EMPTY)
    computed = compute.player_sessions(frames).drop("chosen", "player_site")
    first_session = _meta_int(connection, "next_session")
    computed = computed.with_columns(
        player=pl.col("player").cast(pl.String),
        session=pl.col("session") + (first_session - 1),
    )
    last_session = computed["session"].max()
    if last_session is not None:
        _set_meta(connection, {"next_session": str(int(last_session) + 1)})  # type: ignore[arg-type]
    computed = computed.with_columns(
        session_first=pl.col("start_utc").min().over("session"),
        # A one-hand session's hand lasts the median of the player's sessions' mean
        # intervals, which changes as their hands arrive: left unknown here (`alone`), the
        # median applied when a page reads the sums (`queries.ALONE_SECONDS`).
        seconds=pl.when(pl.len().over("session") > 1).then(pl.col("seconds")),
    )
    extra = keyed.select("hk", "player", "hand_id", "showdown", "flagged", "all_in")
    return computed.join(extra, on=["hk", "player"], how="left").drop("hk")


_EMPTY = (pl.DataFrame(), pl.DataFrame())


def _sums(rows: pl.DataFrame, sign: int) -> pl.DataFrame:
    """`compute.winrate_moments` of `rows` by `SUM_KEYS`, with the showdown part of the
    net (`CHART_SUMS`), times `sign` (-1: rows taken out)."""
    by = list(SUM_KEYS)
    moments = _moments(rows, by)
    showdown = (
        rows.filter(pl.col("showdown"))
        .group_by(by)
        .agg(
            sd_hands=pl.len().cast(pl.Int64),
            sd_net=pl.col("net").sum().cast(pl.Int64),
            sd_bb=pl.col("bb").sum().cast(pl.Float64),
        )
    )
    sums = moments.join(showdown, on=by, how="left", nulls_equal=True).with_columns(
        pl.col("sd_hands", "sd_net").fill_null(0), pl.col("sd_bb").fill_null(0.0)
    )
    if sign < 0:
        sums = sums.with_columns(pl.col(_SIGNED) * -1)
    return sums


def _session_sums(rows: pl.DataFrame) -> pl.DataFrame:
    """`compute.winrate_moments` per session part (`SESSION_KEYS`). A session's mean hand
    interval is its seconds over its hands (each hand lasts until the next, the last the
    mean of those intervals), added up over its parts (`queries.ALONE_SECONDS`)."""
    return _moments(rows, list(SESSION_KEYS))


def _moments(rows: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """`compute.winrate_moments`, its `seconds` those of the hands of sessions of two or
    more, with `alone`: how many hands were a session of their own (their length is
    applied when read)."""
    keys = [*by, *(key for key in compute.WINRATE_KEYS if key not in by)]
    alone = rows.group_by(keys).agg(alone=pl.col("seconds").is_null().sum().cast(pl.Int64))
    return compute.winrate_moments(rows, by).join(alone, on=keys, how="left", nulls_equal=True)


def _insert(connection: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame) -> None:
    if frame.is_empty():
        return
    connection.register("serve_insert", frame.to_arrow())
    try:
        columns = ", ".join(frame.columns)
        connection.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM serve_insert")
    finally:
        connection.unregister("serve_insert")


def _query(
    connection: duckdb.DuckDBPyConnection, query: str, parameters: Any = None
) -> pl.DataFrame:
    return connection.sql(query, params=parameters).pl()


# -- upkeep --------------------------------------------------------------------------------


COMPACT_FACTOR = 2
"""`serve_sums` is added up again when it has grown to this many times its rows after the
last time (changes pile up as sessions grow)."""


def _compact_if_long(connection: duckdb.DuckDBPyConnection) -> None:
    rows = _count(connection, "SELECT count(*) FROM serve_sums")
    if rows > COMPACT_FACTOR * max(_meta_int(connection, "compacted"), 5_000):
        compact(connection)


def compact(connection: duckdb.DuckDBPyConnection) -> None:
    """Add `serve_sums`' changes up, and the parts' statistics: one row per group."""
    connection.execute("BEGIN TRANSACTION")
    try:
        _compact_table(
            connection,
            "serve_sums",
            list(SUM_KEYS),
            [f"sum({name})::{_type(name)} AS {name}" for name in _SIGNED]
            + ["min(first) AS first", "max(last) AS last"],
        )
        _compact_table(
            connection,
            "serve_stats",
            list(SUM_KEYS),
            [f"sum({name})::BIGINT AS {name}" for name in STAT_COLUMNS],
        )
        _compact_table(
            connection,
            "serve_aggression",
            [*SUM_KEYS, "street"],
            [f"sum({name})::BIGINT AS {name}" for name in AGGRESSION_COLUMNS],
        )
        count = _count(connection, "SELECT count(*) FROM serve_sums")
        _set_meta(connection, {"compacted": str(count)})
        connection.execute("COMMIT")
    except BaseException:
        _rollback(connection)
        raise


def _compact_table(
    connection: duckdb.DuckDBPyConnection, table: str, keys: list[str], sums: list[str]
) -> None:
    """`table` grouped by `keys`, `sums` (SQL "sum(x)::T AS x") of the rest (in a
    transaction the caller holds)."""
    connection.execute(
        f"CREATE OR REPLACE TEMP TABLE serve_compacted AS "
        f"SELECT {', '.join(keys)}, {', '.join(sums)} FROM {table} GROUP BY ALL"
    )
    connection.execute(f"DELETE FROM {table}")
    connection.execute(f"INSERT INTO {table} BY NAME SELECT * FROM serve_compacted")
    connection.execute("DROP TABLE serve_compacted")


def _type(name: str) -> str:
    return _MOMENT_TYPES.get(name) or {"sd_hands": "BIGINT", "sd_net": "BIGINT"}.get(name, "DOUBLE")


def run(connection: duckdb.DuckDBPyConnection, job: Callable[[], Any]) -> Any:
    """Run `job` holding this module's lock (no catch-up meanwhile)."""
    with _lock:
        return job()
