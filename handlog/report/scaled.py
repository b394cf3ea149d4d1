"""The report's tables for any number of hands, without loading every row into memory.

`compute` states each figure as Polars expressions over all the rows of a report at once;
at a million hands that is 8 million player rows and 24 million actions, some 8 GB. Here
the same figures come out of DuckDB (which sorts and groups out of core, within a memory
limit) and of `compute` applied to the hands a slice at a time:

* win-rates and sessions: one row per player and hand in a DuckDB table (of a working
  database in a temporary folder, see `Scaled`), its
  session, interval and duration worked out with window functions exactly as
  `compute.player_hands` does, then each table a GROUP BY (`winrates`);
* stud statistics: `compute.hand_flags` over slices of some 50,000 hands (every statistic
  looks at one hand at a time), its counts (`compute.stud_counts`,
  `compute.aggression_counts`) added up over the slices, the ratios taken at the end
  (`compute.stud_ratios`): the very definitions of the small reports.

tests/test_report_scaled.py requires every table to equal `compute`'s on the same hands.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from handlog.report import compute
from handlog.report.data import (
    _STREET_NUMBER,
    BETTING_KINDS,
    BRING_IN_SQL,
    UNIT_SQL,
    Filters,
    Frames,
    _where,
)
from handlog.rules.structures import BIG_BET_STRUCTURES

_BIG_BET_IN = ", ".join(f"'{structure}'" for structure in BIG_BET_STRUCTURES)

if TYPE_CHECKING:
    import duckdb

SLICE_HANDS = 50_000
"""Hands per slice of the statistics: about 400,000 player rows and 1.2 M actions."""

MEMORY_LIMIT = "1GB"
"""DuckDB's buffer pool while a report runs (it spills to a temporary folder beyond)."""


@dataclass
class Scaled:
    """A report's data, held in tables of a working database attached to `connection` as
    `work`: a file in a temporary folder, not TEMP tables, since DuckDB keeps TEMP tables in
    memory (at 3 million hands they outgrew its memory limit) while a file's blocks go to
    disk when the memory limit is reached."""

    connection: duckdb.DuckDBPyConnection
    hands: int
    temp: tempfile.TemporaryDirectory[str]

    def close(self) -> None:
        """Detach the working database and delete its folder (the connection stays open)."""
        self.connection.execute("DETACH DATABASE IF EXISTS work")
        self.temp.cleanup()


def prepare(connection: duckdb.DuckDBPyConnection, filters: Filters) -> Scaled:
    """Select the hands and build the per-player rows with their sessions (see the module
    doc); the caller closes the connection (and `Scaled.temp`) when done."""
    temp = tempfile.TemporaryDirectory(prefix="handlog-report-")
    connection.execute(f"SET temp_directory = '{temp.name}'")
    connection.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    connection.execute("SET preserve_insertion_order = false")
    work = str(Path(temp.name) / "work.duckdb").replace("'", "''")
    # The store stays read-only; the working database is written (READ_WRITE: a read-only
    # connection attaches read-only by default).
    connection.execute(f"ATTACH '{work}' AS work (READ_WRITE)")
    where, parameters = _where(filters)
    connection.execute(
        f"""
        CREATE OR REPLACE TABLE work.selected AS
        SELECT row_number() OVER (ORDER BY start_time NULLS LAST, site, hand_id)::INTEGER AS hk,
            site, hand_id, game,
            {UNIT_SQL} AS unit,
            small_bet, big_bet, structure, {BRING_IN_SQL} AS bring_in,
            concat_ws(' ', site, tournament_id, table_name) AS table_key,
            table_name, (start_time AT TIME ZONE 'UTC') AS start_utc
        FROM hands {where}
        """,
        parameters,
    )
    count = connection.execute("SELECT count(*) FROM work.selected").fetchone()
    hands = int(count[0]) if count else 0
    # One row per player dealt in per hand (as `data.load` selects them), in no order: a
    # sort of these wide rows would cost more than every later pass over them.
    connection.execute(
        f"""
        CREATE OR REPLACE TABLE work.dealt_rows AS
        SELECT s.hk, p.player, s.site, s.game, s.unit, s.small_bet, s.big_bet, s.structure,
            s.table_key, s.table_name, s.start_utc, p.net, p.rake_share, p.collected, p.cards,
            p.won_high, p.won_low,
            CASE WHEN s.structure IN ({_BIG_BET_IN}) THEN p.net::DOUBLE / s.big_bet END AS bb,
            CASE WHEN s.bring_in > 0 THEN p.net::DOUBLE / s.bring_in END AS bi,
            CAST(s.start_utc AS DATE) AS day
        FROM hand_players p JOIN work.selected s USING (site, hand_id)
        WHERE NOT coalesce(p.sitting_out, false) OR p.put_in > 0 OR p.collected > 0
        """
    )
    # Sessions as `compute.player_hands` finds them, on the few columns they need: each
    # player's hands at each table in time order (no time first, then by hand); a new
    # session where the gap to the previous hand is unknown or 30 minutes or more; a
    # hand's interval is the gap to the next hand of its session.
    connection.execute(
        """
        CREATE OR REPLACE TABLE work.timed_rows AS
        WITH gaps AS (
            SELECT rowid AS row_id, player, table_key, start_utc, hk,
                epoch(start_utc - lag(start_utc) OVER play) AS gap,
                epoch(lead(start_utc) OVER play - start_utc) AS next_gap
            FROM work.dealt_rows
            WINDOW play AS (PARTITION BY player, table_key ORDER BY start_utc NULLS FIRST, hk)
        ), numbered AS (
            SELECT row_id, player, table_key,
                CASE WHEN next_gap < $gap THEN next_gap END AS interval,
                sum(CASE WHEN gap IS NULL OR gap >= $gap THEN 1 ELSE 0 END) OVER (
                    PARTITION BY player, table_key ORDER BY start_utc NULLS FIRST, hk
                    ROWS UNBOUNDED PRECEDING) AS session_no
            FROM gaps
        )
        SELECT row_id, player, table_key, session_no, interval,
            avg(interval) OVER (PARTITION BY player, table_key, session_no) AS session_mean
        FROM numbered
        """,
        {"gap": compute.SESSION_GAP_SECONDS},
    )
    median = connection.execute(
        """
        SELECT median(mean) FROM (
            SELECT avg(interval) AS mean FROM work.timed_rows
            GROUP BY player, table_key, session_no)
        """
    ).fetchone()
    fallback = float(median[0]) if median and median[0] is not None else None
    if fallback is None:
        fallback = compute.DEFAULT_HAND_SECONDS
    connection.execute(
        """
        CREATE OR REPLACE TABLE work.player_rows AS
        SELECT d.*, t.session_no, coalesce(t.interval, t.session_mean, ?) AS seconds
        FROM work.dealt_rows d JOIN work.timed_rows t ON t.row_id = d.rowid
        """,
        [fallback],
    )
    connection.execute("DROP TABLE work.timed_rows")
    connection.execute("DROP TABLE work.dealt_rows")
    return Scaled(connection, hands, temp)


_WINRATE_SELECT = """
    count(*) AS hands, sum(net)::BIGINT AS net, sum(rake_share)::BIGINT AS rake,
    avg(bb) * 100 AS bb_per_100, stddev_samp(bb) AS sd_bb, avg(bi) * 100 AS bi_per_100,
    sum(seconds) / 3600 AS hours,
    min(start_utc) AS first, max(start_utc) AS last
"""


def winrates(
    data: Scaled,
    by: list[str],
    player: str | None = None,
    players: list[str] | None = None,
    unit: str | None = None,
) -> pl.DataFrame:
    """`compute.winrates` of the player rows (only `player`'s, or `players`', if given)
    grouped by `by` (and the unit; `unit`: one unit for all, e.g. "bb" when big bets add
    up). "stakes" in `by` groups by the bets and labels them as `report._stakes` does."""
    columns = [c for c in by if c != "stakes"]
    if "stakes" in by:
        columns += ["small_bet", "big_bet"]
    unit_column = f"'{unit}'" if unit is not None else "unit"
    keys = ", ".join([*columns, f"{unit_column} AS unit", "structure"])
    group = ", ".join(
        [*columns, unit_column, "structure"] if unit is None else [*columns, "structure"]
    )
    chosen = [player] if player is not None else players
    where = ""
    if chosen is not None:
        where = "WHERE player IN (SELECT unnest(?::VARCHAR[]))"
    frame = _query(
        data.connection,
        f"SELECT {keys}, {_WINRATE_SELECT} FROM work.player_rows {where} GROUP BY {group}",
        [chosen] if chosen is not None else [],
    )
    if "stakes" in by:
        frame = _stakes(frame)
    frame = frame.with_columns(pl.col("hands").cast(pl.UInt32))
    ordered = [*by, *(key for key in ("unit", "structure") if key not in by)]
    frame = frame.select(*ordered, *[c for c in frame.columns if c not in ordered])
    half = compute.Z95 * 100 * pl.col("sd_bb") / pl.col("hands").cast(pl.Float64).sqrt()
    frame = frame.with_columns(
        per_100=pl.col("net") * 100 / pl.col("hands"),
        per_hour=pl.when(pl.col("hours") > 0).then(pl.col("net") / pl.col("hours")),
        ci_low=pl.col("bb_per_100") - half,
        ci_high=pl.col("bb_per_100") + half,
    )
    # compute.winrates sorts by the first key, then hands (descending); the other keys
    # break its ties here, so that the order is the same from run to run.
    rest = [key for key in ordered[1:]]
    return frame.sort(
        [ordered[0], "hands", *rest], descending=[False, True, *([False] * len(rest))]
    )


def _stakes(frame: pl.DataFrame) -> pl.DataFrame:
    from handlog.report.render import money

    labels = [
        f"{money(small, unit)}/{money(big, unit)}"
        for unit, small, big in frame.select("unit", "small_bet", "big_bet").iter_rows()
    ]
    return frame.with_columns(stakes=pl.Series(labels, dtype=pl.String)).drop(
        "small_bet", "big_bet"
    )


def sessions(data: Scaled, player: str | None = None) -> pl.DataFrame:
    """`compute.sessions`: one row per player session."""
    table = winrates(data, ["player", "table_key", "session_no", "site", "table_name"], player)
    return table.sort("player", "first", "table_key").drop("table_key", "session_no")


@dataclass
class Statistics:
    stats: pl.DataFrame
    """`compute.stud_stats` of all the selected hands."""
    showdowns: pl.DataFrame
    """(hk, player, showdown) of the chart players' hands."""


def statistics(data: Scaled, chart_players: list[str]) -> Statistics:
    """The stud statistics of every player and game, slice by slice (see the module doc),
    and whether each of `chart_players`'s hands went to showdown (for the charts)."""
    counts: list[pl.DataFrame] = []
    aggression: list[pl.DataFrame] = []
    showdowns: list[pl.DataFrame] = []
    for frames, rows in _slices(data):
        flags = compute.hand_flags(frames, rows)
        as_text = pl.col("player").cast(pl.String)
        counts.append(compute.stud_counts(flags).with_columns(as_text))
        aggression.append(compute.aggression_counts(frames, rows).with_columns(as_text))
        showdowns.append(
            flags.filter(pl.col("player").cast(pl.String).is_in(chart_players)).select(
                "hk", pl.col("player").cast(pl.String), "showdown"
            )
        )
    keys = ["player", "game"]
    if counts:
        counted = pl.concat(counts).group_by(keys).agg(pl.all().sum())
        aggressive = pl.concat(aggression).group_by([*keys, "street"]).agg(pl.all().sum())
    else:
        counted = pl.DataFrame(
            schema={"player": pl.String, "game": pl.String}
            | dict.fromkeys(compute.STAT_COUNTS, pl.Int64)
        )
        aggressive = pl.DataFrame(
            schema={
                "player": pl.String,
                "game": pl.String,
                "street": pl.Int8,
                "aggressive": pl.Int64,
                "calls": pl.Int64,
                "actions": pl.Int64,
            }
        )
    stats = compute.stud_ratios(counted, aggressive)
    shown = (
        pl.concat(showdowns)
        if showdowns
        else pl.DataFrame(schema={"hk": pl.Int32, "player": pl.String, "showdown": pl.Boolean})
    )
    return Statistics(stats, shown)


def _slices(data: Scaled) -> Iterator[tuple[Frames, pl.DataFrame]]:
    """The selected hands SLICE_HANDS at a time: the frames and rows `compute.hand_flags`
    reads, for those hands only."""
    connection = data.connection
    kinds = ", ".join(f"'{kind}'" for kind in BETTING_KINDS)
    # The betting actions of the selected hands (unsorted: each slice sorts its own).
    connection.execute(
        f"""
        CREATE OR REPLACE TABLE work.betting AS
        SELECT s.hk, a.seq, (CASE a.street {_STREET_NUMBER} END)::TINYINT AS street,
            a.player, a.kind
        FROM actions a JOIN work.selected s USING (site, hand_id)
        WHERE a.kind IN ({kinds})
        """
    )
    empty = pl.DataFrame()
    for first in range(1, data.hands + 1, SLICE_HANDS):
        last = first + SLICE_HANDS - 1
        rows = _query(
            connection,
            "SELECT hk, player, game, collected, cards, won_high, won_low FROM work.player_rows "
            "WHERE hk BETWEEN ? AND ?",
            [first, last],
        )
        actions = _query(
            connection,
            "SELECT * FROM work.betting WHERE hk BETWEEN ? AND ? ORDER BY hk, seq",
            [first, last],
        )
        rows = rows.with_columns(pl.col("player").cast(pl.Categorical))
        actions = actions.with_columns(pl.col("player").cast(pl.Categorical))
        yield Frames(empty, rows, actions, empty, empty), rows


def chart_rows(data: Scaled, players: list[str], showdowns: pl.DataFrame) -> pl.DataFrame:
    """hk, player, bb and went_to_showdown of `players`' hands, for the charts."""
    rows = _query(
        data.connection,
        "SELECT hk, player, bb FROM work.player_rows WHERE player IN (SELECT unnest(?::VARCHAR[]))",
        [players],
    )
    return rows.join(
        showdowns.rename({"showdown": "went_to_showdown"}), on=["hk", "player"], how="left"
    ).sort("player", "hk")


def flags(data: Scaled) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The violations of the selected hands and the parse errors, as `data.load` reads
    them (a few rows per flagged hand)."""
    violations = _query(
        data.connection,
        """
        SELECT s.hk, s.site, s.hand_id, s.game, s.table_key, s.table_name, s.start_utc,
            h.file, v.line, v.code, v.street, v.player, v.message, v.mis_split
        FROM violations v JOIN work.selected s USING (site, hand_id)
        JOIN hands h USING (site, hand_id)
        ORDER BY s.hk, v.seq
        """,
    )
    parse_errors = _query(
        data.connection,
        "SELECT file, line, hand_id, message, text FROM parse_errors ORDER BY file, line",
    )
    return violations, parse_errors


def _query(
    connection: duckdb.DuckDBPyConnection, query: str, parameters: Any = None
) -> pl.DataFrame:
    """A query's rows as a Polars frame (through Arrow, without a copy)."""
    return connection.sql(query, params=parameters).pl()
