"""`handlog report`: win-rates, stud statistics, sessions and flagged hands from the database.

    build(db, out, filters, fmt) -> Report

reads the database (read-only: a report never changes it), computes every table with Polars
(`compute`), draws the charts (`charts`) and writes them in the chosen format (`render`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import polars as pl

from handlog import evidence
from handlog.dataset import Dataset
from handlog.report import charts, compute, render, scaled
from handlog.report.data import Filters, Frames, load
from handlog.report.render import INT, MONEY, NUM, PCT, RATE, TEXT, TIME, Section, Table
from handlog.rules.variants import LOW_GAMES

FORMATS = ("html", "md", "csv", "json")
T = TypeVar("T")


class Progress(Protocol):
    """Told what a report is doing: a few words, and the share done where it is known."""

    def __call__(self, text: str, fraction: float | None = None) -> None: ...


FOCUS_PLAYERS = 3
"""Players shown in the charts when no --player is given: the ones with the most hands."""
EVIDENCE_HANDS = 1000
"""Flagged hands shown line by line in an HTML report (the first in play order)."""


class ReportError(Exception):
    """Something the user can fix: no database, a player or game that is not in it."""


class NoDatabase(ReportError):
    """No database file where the report was asked to read one."""


@dataclass
class Report:
    paths: list[Path]
    summary: str
    hands: int
    seconds: float
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)


_WINRATE = [
    ("hands", "hands", INT),
    ("net", "net won", MONEY),
    ("bb_per_100", "BB/100", NUM),
    ("ci_low", "95% CI low", NUM),
    ("ci_high", "95% CI high", NUM),
    ("per_100", "per 100", RATE),
    ("per_hour", "per hour", RATE),
    ("hours", "hours", NUM),
    ("rake", "rake paid", MONEY),
    ("sd_bb", "SD BB/hand", NUM),
    ("bi_per_100", "bring-ins/100", NUM),
]


ENGINES = ("scaled", "frames")
"""How the tables are computed: "scaled" (the default) aggregates in DuckDB and runs the
statistics over slices of hands (`scaled`), for any number of hands; "frames" loads every
row into Polars (`data.load`, `compute`): the reference the first is tested against."""


@dataclass
class _Tables:
    """What a report shows, however it was computed, but for the statistics
    (`scaled.Statistics`: the stud statistics and the focus players' rows for the
    cumulative chart), which take the longest."""

    hands: int
    players: pl.DataFrame
    games: pl.DataFrame
    days: pl.DataFrame
    sessions: pl.DataFrame
    violations: pl.DataFrame
    parse_errors: pl.DataFrame
    focus: list[str]
    chart_games: pl.DataFrame
    """Win-rates of the focus players by game, in big bets (unit "bb")."""


def _quiet(text: str, fraction: float | None = None) -> None:
    """No progress shown (`build`'s default)."""


def build(
    db: Path | Dataset,
    out: Path,
    filters: Filters,
    fmt: str = "html",
    engine: str = "scaled",
    progress: Progress = _quiet,
) -> Report:
    """The report of the hands of `db` that `filters` select, written into `out` in `fmt`;
    `progress` is told what is being done (and the share done, where known) as it goes."""
    started = time.perf_counter()
    if fmt not in FORMATS:
        raise ReportError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    source = _source(db)
    # Even while an import writes it (`reading` then reads a copy between two commits);
    # StoreError (DatabaseBusy among them) when it cannot be read.
    out.mkdir(parents=True, exist_ok=True)
    with source as connection:
        _check_filters(connection, filters)

        def page(data: _Tables) -> list[Section]:
            return _page(connection, data, out, fmt)

        if engine == "frames":
            progress("reading every row")
            data, statistics = _frames_tables(load(connection, filters), filters)
            sections = page(data)
        else:
            data, statistics, sections = _scaled_tables(connection, filters, page, progress)
    progress("drawing the cumulative chart")
    _add_statistics(sections, data, statistics, out)
    progress(f"writing the {fmt} report")
    tables = {table.key: table.frame for section in sections for table in section.tables}
    title = "handlog report"
    intro = (
        f"{data.hands:,} hands ({filters.describe()}) from {db}; "
        f"written {time.strftime('%Y-%m-%d %H:%M')}. Money in the currency of the table "
        "(chips in tournaments); days in UTC; definitions in handlog's README."
    )
    if fmt == "html":
        paths = [render.html_page(title, intro, sections, out)]
    elif fmt == "md":
        paths = [render.markdown(title, intro, sections, out)]
    elif fmt == "csv":
        paths = render.csv_files(sections, out)
    else:
        meta = {"database": str(db), "filters": filters.describe(), "hands": data.hands}
        paths = [render.json_file(meta, sections, out)]
    paths += [chart for section in sections for chart in section.charts]
    summary = _terminal(tables, data)
    return Report(paths, summary, data.hands, time.perf_counter() - started, tables)


def _source(db: Path | Dataset) -> AbstractContextManager[Any]:
    """The connection a report reads: the database file's (`snapshot.reading`), or a Parquet
    dataset's views (`handlog.dataset`, the same tables)."""
    from handlog.snapshot import reading

    if isinstance(db, Dataset):
        from handlog.dataset import reading as dataset_reading

        if not db.exists():
            raise NoDatabase(
                f"no handlog dataset at {db}: import into it first "
                "(handlog import --engine dask --dataset ...)"
            )
        return dataset_reading(db)
    if not db.exists():
        raise NoDatabase(f"no database at {db}: import hand histories first (handlog import)")
    return reading(db)


def _check_filters(connection, filters: Filters) -> None:  # type: ignore[no-untyped-def]
    if filters.player:
        found = connection.execute(
            "SELECT 1 FROM hand_players WHERE player = ? LIMIT 1", [filters.player]
        ).fetchone()
        if not found:
            similar = connection.execute(
                "SELECT DISTINCT player FROM hand_players WHERE lower(player) LIKE ? LIMIT 5",
                [f"%{filters.player.lower()}%"],
            ).fetchall()
            hint = f" (did you mean {', '.join(repr(r[0]) for r in similar)}?)" if similar else ""
            raise ReportError(f"no player {filters.player!r} in the database{hint}")
    if filters.game:
        games = [r[0] for r in connection.execute("SELECT DISTINCT game FROM hands").fetchall()]
        if filters.game not in games:
            known = ", ".join(sorted(games)) or "none yet"
            raise ReportError(f"no {filters.game!r} hands in the database (games: {known})")


def _stakes(rows: pl.DataFrame) -> pl.DataFrame:
    combos = rows.select("unit", "small_bet", "big_bet").unique()
    labels = [
        f"{render.money(small, unit)}/{render.money(big, unit)}"
        for unit, small, big in combos.iter_rows()
    ]
    combos = combos.with_columns(stakes=pl.Series(labels, dtype=pl.String))
    return rows.join(combos, on=["unit", "small_bet", "big_bet"], how="left", nulls_equal=True)


def _frames_tables(frames: Frames, filters: Filters) -> tuple[_Tables, scaled.Statistics]:
    """Every table from all the rows in Polars (`compute`): the reference computation."""
    rows = compute.player_hands(frames)
    flags = compute.hand_flags(frames, rows)
    rows = rows.join(
        flags.select("hk", "player", pl.col("showdown").alias("went_to_showdown")),
        on=["hk", "player"],
        how="left",
    )
    rows = _stakes(rows)
    stats = compute.stud_stats(frames, flags)
    if filters.player:
        rows = rows.filter(pl.col("player") == filters.player)
        stats = stats.filter(pl.col("player") == filters.player)
    players = compute.winrates(rows, ["player"]).sort(["hands", "player"], descending=[True, False])
    games = compute.winrates(rows, ["player", "game", "stakes"])
    days = compute.winrates(rows, ["player", "day"]).sort("player", "day")
    sessions = compute.sessions(rows)
    focus = _focus(players, filters)
    chart_rows = rows.filter(pl.col("player").is_in(focus))
    # Big bets add up across stakes and currencies: one bar per player and game.
    in_big_bets = chart_rows.with_columns(unit=pl.lit("bb"))
    chart_games = compute.winrates(in_big_bets, ["player", "game"])
    tables = _Tables(
        frames.hands.height,
        players,
        games,
        days,
        sessions,
        frames.violations,
        frames.parse_errors,
        focus,
        chart_games,
    )
    chart = chart_rows.select("hk", pl.col("player").cast(pl.String), "bb", "went_to_showdown")
    return tables, scaled.Statistics(stats, chart)


def _scaled_tables(  # type: ignore[no-untyped-def]
    connection, filters: Filters, meanwhile: Callable[[_Tables], T], progress: Progress = _quiet
) -> tuple[_Tables, scaled.Statistics, T]:
    """Every table from parts of the rows at a time (`scaled`). The statistics, the longest
    part, are computed in a thread while `meanwhile` (what the report makes of the other
    tables: charts, evidence, tables written as HTML) runs here, on the tables without
    them: most of their work is in DuckDB and Polars, outside the GIL, beside which this
    Python work fits (a million hands: about a second less)."""
    progress("selecting the hands; win-rates and sessions")
    data = scaled.prepare(connection, filters)
    try:
        tables = _scaled_winrates(data, filters)
        focus = tables.focus
        # The statistics read with a connection of their own, made here: `meanwhile` may
        # query `connection` at the same time.
        stop = threading.Event()
        with (
            connection.cursor() as reader,
            ThreadPoolExecutor(1, "handlog-report-statistics") as pool,
        ):
            coming = pool.submit(scaled.statistics, data, focus, reader, stop, progress)
            try:
                made = meanwhile(tables)
                statistics = coming.result()
            except BaseException:
                stop.set()  # and wait for the part under way (Ctrl-C: within a second)
                raise
            finally:
                wait([coming])
        if filters.player:
            statistics.stats = statistics.stats.filter(pl.col("player") == filters.player)
        return tables, statistics, made
    finally:
        data.close()


def _scaled_winrates(data: scaled.Scaled, filters: Filters) -> _Tables:
    """The win-rate tables and the flags of `scaled.prepare`'s hands."""
    player = filters.player
    players = scaled.winrates(data, "players", player).sort(
        ["hands", "player"], descending=[True, False]
    )
    games = scaled.winrates(data, "games", player)
    days = scaled.winrates(data, "days", player).sort("player", "day")
    sessions = scaled.sessions(data, player)
    focus = _focus(players, filters)
    chart_games = scaled.winrates(data, "by_game", players=focus)
    violations, parse_errors = scaled.flags(data)
    return _Tables(
        data.hands,
        players,
        games,
        days,
        sessions,
        violations,
        parse_errors,
        focus,
        chart_games,
    )


def _focus(players: pl.DataFrame, filters: Filters) -> list[str]:
    if filters.player:
        return [filters.player]
    by_hands = players["player"].cast(pl.String).unique(maintain_order=True)
    return by_hands.head(FOCUS_PLAYERS).to_list()


def _page(  # type: ignore[no-untyped-def]
    connection, data: _Tables, out: Path, fmt: str
) -> list[Section]:
    """The report's sections but the statistics (`_add_statistics`): the win-rates (and
    their chart by game) and the flagged hands (with their chart and, in HTML, each hand's
    evidence from `connection`); in HTML, their tables written."""
    players, games, days, sessions = data.players, data.games, data.days, data.sessions
    frames = Frames(
        pl.DataFrame(), pl.DataFrame(), pl.DataFrame(), data.violations, data.parse_errors
    )
    counts = compute.flag_counts(frames)
    illegal = compute.flagged_hands(frames, "illegal")
    mis_split = compute.flagged_hands(frames, "mis-split")
    inconsistent = compute.flagged_hands(frames, "inconsistent")
    by_game = charts.by_game(data.chart_games, out / "bb100_by_game.png")
    by_code = charts.flags(counts["by_code"], out / "flags_by_code.png")

    who = [("player", "player", TEXT), ("unit", "unit", TEXT)]
    limit = ("structure", "limit", TEXT)
    sections = [
        Section(
            "Win-rates",
            [
                Table("players", "By player", players, [*who, limit, *_WINRATE]),
                Table(
                    "games",
                    "By player, game and stakes",
                    games,
                    [
                        who[0],
                        ("game", "game", TEXT),
                        ("stakes", "stakes", TEXT),
                        limit,
                        *_WINRATE,
                    ],
                ),
                Table(
                    "days",
                    "By player and day (UTC)",
                    days,
                    [who[0], ("day", "day", TEXT), limit, *_WINRATE],
                    limit=5000,
                ),
                Table(
                    "sessions",
                    "Sessions (one table, no gap of 30 minutes or more)",
                    sessions,
                    [
                        who[0],
                        ("table_name", "table", TEXT),
                        ("first", "start (UTC)", TIME),
                        ("last", "last hand (UTC)", TIME),
                        limit,
                        *_WINRATE,
                    ],
                    limit=2000,
                ),
            ],
            text="BB/100: big bets (the 5th-7th street bet; in spread limit the top of the "
            "spread) won per 100 hands, after rake, for fixed and spread limit; each betting "
            "structure (limit) has its own rows. Bring-ins/100: the same in bring-ins, the "
            "measure for pot and no limit. Per 100 and per hour in the table's money. Hours "
            "are table hours.",
            charts=[by_game] if by_game else [],
        ),
        Section(
            "Flagged hands",
            [
                Table(
                    "flags_by_code",
                    "Flags by code",
                    counts["by_code"],
                    _count_columns("kind", "code"),
                ),
                Table("flags_by_site", "Flags by site", counts["by_site"], _count_columns("site")),
                Table(
                    "flags_by_table",
                    "Flags by table",
                    counts["by_table"],
                    _count_columns("site", "table_name"),
                ),
                Table(
                    "flags_by_day", "Flags by day (UTC)", counts["by_day"], _count_columns("day")
                ),
                Table("illegal", "Illegal actions", illegal, _FLAG_COLUMNS, limit=5000),
                Table("mis_split", "Mis-split pots", mis_split, _FLAG_COLUMNS, limit=5000),
                Table(
                    "inconsistent",
                    "Inconsistent histories",
                    inconsistent,
                    _FLAG_COLUMNS,
                    limit=5000,
                ),
                Table(
                    "parse_errors",
                    "Hands that could not be read",
                    data.parse_errors.select("file", "line", "hand_id", "message"),
                    [
                        ("file", "file", TEXT),
                        ("line", "line", INT),
                        ("hand_id", "hand", TEXT),
                        ("message", "reason", TEXT),
                    ],
                    limit=5000,
                ),
            ],
            charts=[by_code] if by_code else [],
        ),
    ]
    if fmt == "html":
        flagged = data.violations.select("site", "hand_id").unique(maintain_order=True).rows()
        shown = evidence.load(connection, flagged[:EVIDENCE_HANDS])
        _link_evidence(sections, shown, len(flagged))
        for section in sections:
            for table in section.tables:
                table.html()
    return sections


def _add_statistics(
    sections: list[Section], data: _Tables, statistics: scaled.Statistics, out: Path
) -> None:
    """Put the statistics into the sections of `_page`: the cumulative chart first among the
    win-rates' charts, the statistics' section after theirs."""
    cumulative = charts.cumulative(statistics.chart_rows, data.focus, out / "cumulative.png")
    if cumulative is not None:
        sections[0].charts.insert(0, cumulative)
    sections.insert(1, Section("Stud statistics", _stat_tables(statistics.stats)))


def _link_evidence(sections: list[Section], shown: list[evidence.HandEvidence], total: int) -> None:
    """Link the hand of every flag to its evidence, and add the flagged hands line by line
    after the flagged-hands section's tables (HTML only)."""
    from handlog.report.hands import evidence_html

    anchors = [hand.anchor for hand in shown]
    section = next(s for s in sections if s.title == "Flagged hands")
    for table in section.tables:
        if table.key in FLAG_TABLES:
            anchor = pl.lit("hand-") + pl.concat_str(
                "site", pl.lit("-"), "hand_id"
            ).str.replace_all(evidence.ANCHOR_PATTERN, "-")
            table.frame = table.frame.with_columns(
                anchor=pl.when(anchor.is_in(anchors)).then(anchor)
            )
            table.link = "hand_id"
    if shown:
        section.html = (
            "<h3>Flagged hands, line by line</h3>"
            '<p class="note">Each hand as it stands in its file, the flagged lines marked, '
            "with the message and what the replay knew there (the street, whose turn it was, "
            "the bet and what the player owed, the pot, every player's stack, chips in and "
            "showing cards). Click a hand to open it.</p>" + evidence_html(shown, total)
        )


def _count_columns(*keys: str) -> list[tuple[str, str, str]]:
    names = {"table_name": "table"}
    return [
        *((key, names.get(key, key), TEXT) for key in keys),
        ("flags", "flags", INT),
        ("hands", "hands", INT),
    ]


_FLAG_COLUMNS = [
    ("file", "file", TEXT),
    ("line", "line", INT),
    ("hand_id", "hand", TEXT),
    ("code", "code", TEXT),
    ("follows", "follows from", TEXT),
    ("street", "street", TEXT),
    ("player", "player", TEXT),
    ("message", "message", TEXT),
]
FLAG_TABLES = ("illegal", "mis_split", "inconsistent")
"""The tables listing the flags of each kind of verdict."""


def _stat_tables(stats: pl.DataFrame) -> list[Table]:
    key = [("player", "player", TEXT), ("game", "game", TEXT), ("hands", "hands", INT)]
    third = [
        ("vpip", "VPIP 3rd", PCT),
        ("complete_raise", "complete/raise 3rd", PCT),
        ("bring_ins", "bring-ins", INT),
        ("bring_in_completed", "bring-in completed", PCT),
        ("steal_chances", "steal chances", INT),
        ("steal", "steal", PCT),
        ("steal_success", "steal success", PCT),
        ("fold_to_steal", "fold to steal", PCT),
        ("three_bet", "3-bet 3rd", PCT),
    ]
    later = [
        ("saw_4th", "saw 4th", PCT),
        ("saw_5th", "saw 5th", PCT),
        ("saw_6th", "saw 6th", PCT),
        ("saw_7th", "saw 7th", PCT),
        ("showdowns", "showdowns", INT),
        ("went_to_showdown", "went to SD (of saw 4th)", PCT),
        ("won_at_showdown", "won at SD", PCT),
        ("won_without_showdown", "won without SD (of hands)", PCT),
    ]
    aggression = [(f"af_{s}", f"AF {s}th", NUM) for s in range(3, 8)] + [
        (f"afq_{s}", f"AFq {s}th", PCT) for s in range(3, 8)
    ]
    aggression[0] = ("af_3", "AF 3rd", NUM)
    aggression[5] = ("afq_3", "AFq 3rd", PCT)
    lows = [
        ("scoop", "scoop (of SD)", PCT),
        ("won_high", "won high (of SD)", PCT),
        ("won_low", "won low (of SD)", PCT),
        ("quartered", "quartered (of SD)", PCT),
        ("no_low_qualified", "SD without a low", INT),
        ("qualifying_low", "8-or-better low (of SD, 7 cards known)", PCT),
    ]
    low_games = stats.filter(pl.col("game").is_in([game.value for game in LOW_GAMES]))
    return [
        Table("stats_third", "3rd street", stats, [*key, *third]),
        Table("stats_streets", "Later streets and showdown", stats, [*key, *later]),
        Table(
            "stats_aggression",
            "Aggression: factor (bets+raises)/calls and frequency (bets+raises)/actions",
            stats,
            [*key, *aggression],
        ),
        Table("stats_low", "Hi/lo and razz", low_games, [*key, *lows]),
    ]


def _terminal(tables: dict[str, pl.DataFrame], data: _Tables) -> str:
    top = tables["players"].sort("hands", descending=True).head(10)
    table = Table(
        "players",
        "",
        top,
        [
            ("player", "player", TEXT),
            ("hands", "hands", INT),
            ("net", "net won", MONEY),
            ("bb_per_100", "BB/100", NUM),
            ("ci_low", "95% CI low", NUM),
            ("ci_high", "high", NUM),
            ("per_hour", "per hour", RATE),
        ],
    )
    illegal = tables["illegal"]["hand_id"].n_unique()
    mis_split = tables["mis_split"]["hand_id"].n_unique()
    inconsistent = tables["inconsistent"]["hand_id"].n_unique()
    lines = [
        render.terminal(table),
        "",
        f"{data.hands:,} hands; {illegal:,} flagged illegal, {mis_split:,} flagged "
        f"mis-split, {inconsistent:,} inconsistent, {data.parse_errors.height:,} could not "
        "be read",
    ]
    return "\n".join(lines)
