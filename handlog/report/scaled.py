"""The report's tables for any number of hands, a part of the rows at a time.

`compute` holds every definition, as Polars expressions over the rows of a report. Over
all the rows at once (the "frames" engine) a million hands need some 8 GB; here the same
`compute` functions run over parts of the rows, read from DuckDB (which does the joins and
filters) only as wide as they need to be, and the parts' results are put together:

* win-rates and sessions (`prepare`): the player rows (read once, four narrow columns) in
  parts by player (the code of the name), `compute.player_sessions` and
  `compute.winrate_sums` on each part: every win-rate table groups by player, so no group
  spans two parts; the median session interval (the last hand of a one-hand session) is
  taken over every part's sessions before `compute.winrate_figures`;
* stud statistics (`statistics`): `compute.hand_flags` over parts of CHUNK_HANDS hands
  (every statistic looks at one hand at a time), their counts
  (`compute.stud_counts`, `compute.aggression_counts`) added up over the parts and the
  ratios taken at the end (`compute.stud_ratios`); each part is read from DuckDB in a
  thread while the one before is computed (`_parts`).

tests/test_report_scaled.py requires every table to equal the frames engine's on the
same hands, with parts small enough that there are many.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from handlog.report import compute
from handlog.report.data import (
    _STREET_NUMBER,
    BETTING_KINDS,
    DEALT_IN,
    Filters,
    Frames,
    accounts_sql,
    chosen_sql,
    selection_sql,
)
from handlog.snapshot import WorkFolder

if TYPE_CHECKING:
    import duckdb

CHUNK_HANDS = 80_000
"""Hands per part of the statistics: about 620,000 player rows and 2.1 million betting
actions of simulated 8-player hands. At a million hands, parts of 200,000 took the peak
to 2.36 GB; parts of 100,000 to 1.8-1.9 GB once the page was made beside the statistics
(`report._scaled_tables`); with these (and MEMORY_LIMIT) the whole report peaks at about
1.6-1.7 GB, two parts in memory at a time (one computed, the next one read)."""

CHUNK_ROWS = 2_000_000
"""Player rows per part of the win-rates (one player's rows are never cut)."""

MEMORY_LIMIT = "400MB"
"""DuckDB's buffer pool while a report runs (it spills to a temporary folder beyond). The
pool keeps what it read until this limit: at 1 GB a report on a million hands peaked at
2.06-2.14 GB; at 400 MB at 1.6-1.8 GB, no slower (its sorts and joins fit)."""

_KINDS = ", ".join(f"'{kind}'" for kind in BETTING_KINDS)

_TABLES = {
    "players": [*compute.PLAYER],
    "games": [*compute.PLAYER, "game", "small_bet", "big_bet"],
    "days": [*compute.PLAYER, "day"],
    "sessions": [*compute.PLAYER, "session", "site", "table_name"],
    "by_game": [*compute.PLAYER, "game"],
}
"""The win-rate tables' groups (`compute.winrate_sums`; each by unit and structure too)."""


@dataclass
class Scaled:
    """A report's data: the stored hands in a table of a working database attached to
    `connection` as `work` (a file in a temporary folder: DuckDB keeps TEMP tables in
    memory, while a file's blocks go to disk when the memory limit is reached), their
    columns in `selected`, and the win-rate tables' sums of `prepare`."""

    connection: duckdb.DuckDBPyConnection
    selected: pl.DataFrame
    """Every stored hand's `compute.HAND_COLUMNS`, by hk (`chosen`: the filters select it;
    the win-rates' sessions are a player's over all their hands)."""
    temp: WorkFolder
    chosen: int = 0
    """How many hands the filters select (numbered 1.. by `part_order`)."""
    people: pl.DataFrame | None = None
    """The accounts of persons (`players.Identities.arrow`), None when there are none."""
    sums: dict[str, pl.DataFrame] = field(default_factory=dict)
    """`compute.winrate_sums` of every table of `_TABLES`, all parts together."""

    @property
    def hands(self) -> int:
        return self.chosen

    def close(self) -> None:
        """Detach the working database and delete its folder (the connection stays open)."""
        self.connection.execute("DETACH DATABASE IF EXISTS work")
        self.temp.cleanup()


def prepare(
    connection: duckdb.DuckDBPyConnection,
    filters: Filters,
    accounts: list[tuple[str, str]] | None = None,
    people: pl.DataFrame | None = None,
) -> Scaled:
    """Select the hands and add up the win-rate tables over parts of the player rows (see
    the module doc); `accounts`: the (site, name) of the filter's player; `people`: the
    persons' accounts (`players.Identities.arrow` as a frame). The caller closes the
    connection (and `Scaled.temp`) when done."""
    temp = WorkFolder()  # deleted when done, or by the next report if this one is killed
    connection.execute(f"SET temp_directory = '{temp.name}'")
    connection.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    connection.execute("SET preserve_insertion_order = false")
    work = str(Path(temp.name) / "work.duckdb").replace("'", "''")
    # The store stays read-only; the working database is written (READ_WRITE: a read-only
    # connection attaches read-only by default).
    connection.execute(f"ATTACH '{work}' AS work (READ_WRITE)")
    chosen, parameters = chosen_sql(filters, accounts or ())
    # Every hand (sessions and hours are a player's over all their hands); the selected
    # ones numbered 1.. in the order of (site, hand id) for the statistics' parts.
    connection.execute(
        f"""
        CREATE OR REPLACE TABLE work.selected AS
        SELECT *, CASE WHEN chosen THEN row_number() OVER (
            PARTITION BY chosen ORDER BY site, hand_id) END::INTEGER AS part_order
        FROM ({selection_sql(chosen)})
        """,
        parameters,
    )
    # The hands' columns the win-rates read (`compute.HAND_COLUMNS`), the text ones as
    # categoricals: each player row joined with them then holds small codes.
    hands = _query(
        connection, f"SELECT {', '.join(compute.HAND_COLUMNS)} FROM work.selected ORDER BY hk"
    ).with_columns(
        pl.col("site", "game", "unit", "structure", "table_key", "table_name").cast(pl.Categorical)
    )
    data = Scaled(connection, hands, temp, int(hands["chosen"].sum()), people)
    try:
        _add_up_winrates(data, accounts or [])
    except BaseException:
        data.close()
        raise
    return data


def _add_up_winrates(data: Scaled, accounts: list[tuple[str, str]]) -> None:
    # The player rows, narrow (hand, player, net, rake), read in one pass: a pass per part
    # would join hand_players with the hands once per part. Every hand's (the filter's
    # player's only, if one is given): sessions and hours are over all of a player's hands.
    only, parameters = accounts_sql(accounts, "p")
    everyone = _query(
        data.connection,
        f"""
        SELECT s.hk, p.player, p.net, p.rake_share
        FROM hand_players p JOIN work.selected s USING (site, hand_id)
        WHERE {DEALT_IN} AND {only}
        """,
        parameters,
    ).with_columns(pl.col("player").cast(pl.Categorical))
    if data.people is not None:
        # Persons' accounts relabelled before the parts are cut: a person's rows in one.
        everyone = compute.identify(
            compute.with_hand_columns(data.selected, everyone, ["site"]), data.people
        ).with_columns(pl.col("player", "player_site").cast(pl.Categorical))
    parts = max(1, math.ceil(everyone.height / CHUNK_ROWS))
    # Cut once into the parts (a filter per part went over all the rows each time), by
    # the players' categorical codes (one code per name: a player's rows stay together).
    bucket = (pl.col("player").to_physical() % parts).alias("_part")
    cut = (
        everyone.with_columns(bucket).partition_by("_part", include_key=False)
        if parts > 1
        else [everyone]
    )
    del everyone
    sums: dict[str, list[pl.DataFrame]] = {name: [] for name in _TABLES}
    empty = pl.DataFrame()
    while cut:
        players = cut.pop()
        if "site" in players.columns:
            players = players.drop("site")
        rows = compute.player_sessions(Frames(data.selected, players, empty, empty, empty))
        rows = rows.filter(pl.col("chosen"))
        for name, by in _TABLES.items():
            sums[name].append(compute.winrate_sums(rows, by))
        del players, rows
    data.sums = {name: pl.concat(frames) for name, frames in sums.items()}


Identity = tuple[str, str]
"""(player_site, player): whom a report row is about (`compute.PLAYER`)."""


def winrates(data: Scaled, name: str, players: list[Identity] | None = None) -> pl.DataFrame:
    """`compute.winrates` of the player rows (only `players`', if given) for the table
    `name` of `_TABLES` ("games": by stakes, labelled as `report._stakes` does)."""
    keys = _TABLES[name]
    frame = data.sums[name]
    if players is not None:
        frame = frame.filter(_among(players))
    frame = compute.winrate_figures(frame, keys)
    # Text columns as text (the parts' categoricals are an inner detail).
    frame = frame.with_columns(pl.col(pl.Categorical).cast(pl.String))
    if name == "games":
        frame = _stakes(frame)
        ordered = [*compute.PLAYER, "game", "stakes", "unit", "structure"]
        frame = frame.select(*ordered, *[c for c in frame.columns if c not in ordered])
    # compute.winrates sorts by the player, then hands (descending); the other keys break
    # its ties here, so that the order is the same from run to run.
    ordered = [c for c in frame.columns if c in (*keys, "stakes", "unit", "structure")]
    rest = [key for key in ordered if key not in (*compute.PLAYER, "small_bet", "big_bet")]
    return frame.sort(
        [*compute.PLAYER, "hands", *rest], descending=[False, False, True, *([False] * len(rest))]
    )


def _among(players: list[Identity]) -> pl.Expr:
    """Rows about one of `players`."""
    wanted = pl.lit(False)
    for site, name in players:
        wanted = wanted | (
            (pl.col("player_site").cast(pl.String) == site)
            & (pl.col("player").cast(pl.String) == name)
        )
    return wanted


def _stakes(frame: pl.DataFrame) -> pl.DataFrame:
    from handlog.report.render import money

    labels = [
        f"{money(small, unit)}/{money(big, unit)}"
        for unit, small, big in frame.select("unit", "small_bet", "big_bet").iter_rows()
    ]
    return frame.with_columns(stakes=pl.Series(labels, dtype=pl.String)).drop(
        "small_bet", "big_bet"
    )


def sessions(data: Scaled, players: list[Identity] | None = None) -> pl.DataFrame:
    """`compute.sessions`: one row per player session."""
    table = winrates(data, "sessions", players)
    return table.sort(*compute.PLAYER, "first").drop("session")


@dataclass
class Statistics:
    stats: pl.DataFrame
    """`compute.stud_stats` of all the selected hands."""
    chart_rows: pl.DataFrame
    """hk, player_site, player, unit, net and went_to_showdown of the chart players'
    hands."""


class Stopped(Exception):
    """`statistics` was asked to stop (its caller is stopping: an error or Ctrl-C)."""


CHART_SCHEMA = {
    "hk": pl.Int32,
    "player_site": pl.String,
    "player": pl.String,
    "unit": pl.String,
    "net": pl.Int64,
    "went_to_showdown": pl.Boolean,
}


def statistics(
    data: Scaled,
    chart_players: list[Identity],
    reader: duckdb.DuckDBPyConnection | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[str, float | None], None] | None = None,
) -> Statistics:
    """The stud statistics of every player and game, part by part (see the module doc),
    and the rows of `chart_players`' hands for the charts. Each part's rows are read from
    DuckDB in a thread while the part before is computed (`_parts`), with `reader` (a
    cursor of `data.connection`; by default one made here). Run in a thread, it stops
    between two parts (`Stopped`) once `stop` is set; `progress` is told the hands done
    after each part."""
    counts: list[pl.DataFrame] = []
    aggression: list[pl.DataFrame] = []
    charts: list[pl.DataFrame] = []
    people = data.people
    as_text = pl.col(*compute.PLAYER, "game").cast(pl.String)
    for done, (rows, actions) in enumerate(_parts(data, reader)):
        if stop is not None and stop.is_set():
            raise Stopped
        if progress is not None:
            share = done * CHUNK_HANDS / data.hands
            progress(f"stud statistics, {done * CHUNK_HANDS:,} of {data.hands:,} hands", share)
        frames = Frames(data.selected, rows, actions, pl.DataFrame(), pl.DataFrame())
        flags = compute.identify(compute.hand_flags(frames, rows), people)
        counts.append(compute.stud_counts(flags).with_columns(as_text))
        aggression.append(compute.aggression_counts(frames, people).with_columns(as_text))
        shown = flags.filter(_among(chart_players)).select(
            "hk", "player", "player_site", pl.col("showdown").alias("went_to_showdown")
        )
        if shown.height:
            identified = compute.identify(
                rows.select("hk", "site", "player", "unit", "net"), people
            )
            charts.append(
                shown.with_columns(pl.col("player", "player_site").cast(pl.String)).join(
                    identified.with_columns(pl.col("player", "player_site").cast(pl.String)),
                    on=["hk", "player_site", "player"],
                    how="left",
                )
            )
        # Freed before the part after next is read.
        del rows, actions, frames, flags, shown
    keys = [*compute.PLAYER, "game"]
    if counts:
        counted = pl.concat(counts).group_by(keys).agg(pl.all().sum())
        aggressive = pl.concat(aggression).group_by([*keys, "street"]).agg(pl.all().sum())
    else:
        counted = pl.DataFrame(
            schema=dict.fromkeys(keys, pl.String) | dict.fromkeys(compute.STAT_COUNTS, pl.Int64)
        )
        aggressive = pl.DataFrame(
            schema=dict.fromkeys(keys, pl.String)
            | {"street": pl.Int8, "aggressive": pl.Int64, "calls": pl.Int64, "actions": pl.Int64}
        )
    chart = pl.DataFrame(schema=CHART_SCHEMA)
    if charts:
        chart = pl.concat(
            [part.select(*CHART_SCHEMA).cast(CHART_SCHEMA) for part in charts]  # type: ignore[arg-type]
        )
    stats = compute.stud_ratios(counted, aggressive)
    return Statistics(stats, chart.sort(*compute.PLAYER, "unit", "hk"))


def _parts(
    data: Scaled, reader: duckdb.DuckDBPyConnection | None
) -> Iterator[tuple[pl.DataFrame, pl.DataFrame]]:
    """The player rows and betting actions of each part of CHUNK_HANDS hands (`_read_part`),
    the next part read in a thread (with a connection of its own to the database: a
    cursor) while the caller computes this one: DuckDB and Polars work outside the GIL, so
    the reads of one part and the Polars work of another share the two cores. One part
    read ahead at most, so that memory stays bounded."""
    firsts = range(1, data.chosen + 1, CHUNK_HANDS)
    if not firsts:
        return
    with (
        data.connection.cursor() if reader is None else nullcontext(reader) as cursor,
        ThreadPoolExecutor(1, "handlog-report-read") as pool,
    ):
        coming = pool.submit(_read_part, cursor, data.selected, firsts[0])
        try:
            for first in firsts[1:]:
                part = coming.result()
                coming = pool.submit(_read_part, cursor, data.selected, first)
                yield part
                del part
            yield coming.result()
        finally:
            # The caller stopped early (an error): the cursor is not closed under a read.
            wait([coming])


def _read_part(
    connection: duckdb.DuckDBPyConnection, hands: pl.DataFrame, first: int
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The player rows and betting actions of the CHUNK_HANDS hands from `first` in the
    order of (site, hand id), as `compute.hand_flags` reads them (actions by hand and
    sequence); the rows with the columns of their hand in `hands` that the statistics
    and charts read (taken from there, not read again from DuckDB: the game as a
    categorical, not as text on every row)."""
    # Parts in the order of (site, hand id), not of play: the store keeps each file's hands
    # and their actions together, hand ids rising, so DuckDB reads only the blocks of
    # actions whose hand ids fall in the part's range (3x less than for a part in play
    # order, whose hands are spread over the whole table).
    span = {"first": first, "last": first + CHUNK_HANDS - 1}
    rows = _query(
        connection,
        f"""
        SELECT s.hk, p.player, p.net, p.collected, p.cards, p.won_high, p.won_low
        FROM hand_players p JOIN work.selected s USING (site, hand_id)
        WHERE {DEALT_IN} AND s.part_order BETWEEN $first AND $last
        """,
        span,
    ).with_columns(pl.col("player").cast(pl.Categorical))
    # By hand, here in the reading thread: `compute.hand_flags` sorts them so, and Polars
    # skips a sort of a column it knows sorted and groups it faster.
    rows = compute.with_hand_columns(
        hands, rows.sort("hk"), ["site", "game", "unit", "structure", "big_bet"]
    )
    actions = (
        _query(
            connection,
            f"""
            SELECT s.hk, a.seq, (CASE a.street {_STREET_NUMBER} END)::TINYINT AS street,
                a.player, a.kind
            FROM actions a JOIN work.selected s USING (site, hand_id)
            WHERE a.kind IN ({_KINDS}) AND s.part_order BETWEEN $first AND $last
            """,
            span,
        )
        .with_columns(pl.col("player").cast(pl.Categorical))
        # By hand and sequence as one integer (hk positive, seq any INTEGER in the low
        # 32 bits' range): a third of the time of sorting by the two columns.
        .sort(pl.col("hk").cast(pl.Int64) * (1 << 32) + pl.col("seq"))
    )
    return rows, actions


def flags(data: Scaled) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The violations of the selected hands and the parse errors, as `data.load` reads
    them (a few rows per flagged hand)."""
    violations = _query(
        data.connection,
        """
        SELECT s.hk, s.site, s.hand_id, s.game, s.table_key, s.table_name, s.start_utc,
            h.file, v.line, v.code, v.street, v.player, v.message, v.mis_split, v.kind,
            v.seq, v.cause
        FROM violations v JOIN work.selected s USING (site, hand_id)
        JOIN hands h USING (site, hand_id)
        WHERE s.chosen
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
