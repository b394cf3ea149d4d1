"""`handlog report`: win-rates, stud statistics, sessions and flagged hands from the database.

    build(db, out, filters, fmt) -> Report

reads the database (read-only: a report never changes it), computes every table with Polars
(`compute`), draws the charts (`charts`) and writes them in the chosen format (`render`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import polars as pl

from handlog import evidence
from handlog.dataset import Dataset
from handlog.players import Account, Identity, PlayerError, identities, resolve
from handlog.report import charts, compute, render, scaled
from handlog.report.data import Filters, Frames, chosen_sql, load
from handlog.report.render import DAY, INT, MONEY, NUM, PCT, RATE, TEXT, TIME, Section, Table
from handlog.rules.variants import LOW_GAMES
from handlog.snapshot import opened

FORMATS = ("html", "md", "csv", "json")
T = TypeVar("T")


class Progress(Protocol):
    """Told what a report is doing: a few words, and the share done where it is known."""

    def __call__(self, text: str, fraction: float | None = None) -> None: ...


FOCUS_PLAYERS = 3
"""Players shown in the charts when no --player is given: the heroes of the most hands (the
accounts whose down cards the files show), else the players with the most hands."""
CHART_PANELS = 6
"""The most cumulative charts drawn (one per player and unit)."""
EVIDENCE_HANDS = 1000
"""Flagged hands shown line by line in an HTML report (the first in play order)."""


class ReportError(Exception):
    """Something the user can fix: no database, a player or game that is not in it."""


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
    ("ev_net", "EV net", MONEY),
    ("luck", "luck", MONEY),
    ("all_ins", "all-ins", INT),
    ("bb_per_100", "BB/100", NUM),
    ("ci_low", "BB/100 95% CI low", NUM),
    ("ci_high", "BB/100 95% CI high", NUM),
    ("ev_bb_per_100", "EV BB/100", NUM),
    ("ev_ci_low", "EV BB/100 95% CI low", NUM),
    ("ev_ci_high", "EV BB/100 95% CI high", NUM),
    ("sd_bb", "SD BB/hand", NUM),
    ("bi_per_100", "bring-ins/100", NUM),
    ("ev_bi_per_100", "EV bring-ins/100", NUM),
    ("per_100", "net per 100 hands", RATE),
    ("per_hour", "net per hour", RATE),
    ("hours", "hours", NUM),
    ("rake", "rake paid", MONEY),
]

_WHO = [("site", "site", TEXT), ("player", "player", TEXT)]
_UNIT = ("unit", "unit", TEXT)
_LIMIT = ("structure", "limit", TEXT)

DEFINITIONS = {
    "site": "the site (of the player's account; for a person, handlog alias, the sites of "
    "their accounts)",
    "player": "the account's name at its site, or the person's (handlog alias)",
    "unit": "what the row's amounts are counted in: a currency (its minor units shown "
    "with its sign), tournament chips, play money, or chips in hundredths; amounts of two "
    "units are never added",
    "limit": "the betting structure (fixed, spread, pot or no limit): each has its own rows",
    "hands": "hands the player was dealt in (a seat that sat out is not in the hand)",
    "net won": "what the player collected less everything they put in (antes too), after "
    "rake, in the row's unit",
    "EV net": "the all-in EV-adjusted net: in a hand whose betting closed with cards still "
    "to come (every player left but at most one all-in) and whose players' cards are all "
    "shown by the end, what the player could expect from the pots at that moment (their "
    "equity in each pot, main and side, over every way the rest of the deck could be dealt "
    "given every card known then, the folded players' up cards too: exact, or sampled to "
    "within ±0.5 percentage point) less what they put in; in every other hand the net "
    "itself. A hand's EV nets sum to its nets' sum, minus the rake",
    "luck": "net won − EV net: what the cards dealt after the all-ins gave (positive) or "
    "took (negative) beyond what the player could expect when the money went in",
    "all-ins": "hands where the player was in a pot when the betting closed with cards "
    "to come and all the players' cards are known (the hands whose EV net can differ from "
    "their net)",
    "EV BB/100": "BB/100 of the EV nets (100 × the mean of EV net ÷ big bet)",
    "EV BB/100 95% CI low": "the 95% confidence interval of EV BB/100: EV BB/100 ± 1.96 × "
    "100 × its SD ÷ √hands",
    "EV BB/100 95% CI high": "see EV BB/100 95% CI low",
    "EV bring-ins/100": "bring-ins/100 of the EV nets (pot and no limit)",
    "BB/100": "big bets won per 100 hands: 100 × the mean over the hands of net ÷ the "
    "hand's big bet (the 5th-7th street bet; in spread limit the top of the spread), so "
    "that stakes add up; fixed and spread limit only",
    "BB/100 95% CI low": "the 95% confidence interval of BB/100: BB/100 ± 1.96 × 100 × SD ÷ √hands",
    "BB/100 95% CI high": "see BB/100 95% CI low",
    "SD BB/hand": "the sample standard deviation of net ÷ big bet over the hands",
    "bring-ins/100": "bring-ins won per 100 hands (net ÷ the hand's bring-in, or the one "
    "seen at the same stakes): the measure for pot and no limit, where there is no big bet",
    "net per 100 hands": "net won × 100 ÷ hands, in the row's unit (not a rate in big bets)",
    "net per hour": "net won ÷ hours, in the row's unit",
    "hours": "table hours: a hand lasts until the player's next hand in the session, the "
    "last of a session the session's mean interval (a one-hand session: the median of the "
    "player's sessions' mean intervals, else 60 s); two tables at once count twice; worked "
    "out over all of the player's hands, so that a filter never changes them",
    "rake paid": "the player's share of the rake of the pots they won",
    "game": "the stud game: stud, stud8 (hi/lo 8-or-better), razz, stud5, razz27 (2-7), "
    "razz_a6 (London lowball), stud_hilo (hi/lo any low)",
    "stakes": "the small and the big bet (the spread's bottom and top; in pot and no limit "
    "the smallest bets)",
    "day": "the UTC day; unknown: hands whose time the site did not print",
    "table": "the table's name (a session is at one table of one site)",
    "start (UTC)": "the session's first hand",
    "last hand (UTC)": "the session's last hand",
    "file": "the file as the import named it",
    "hands stored": "hands of the file in the database (a hand also in a file imported "
    "before is stored once, with that file)",
    "unparsed": "hands (or stretches of text) that could not be read, each listed with "
    "its reason under 'Hands that could not be read'",
    "skipped": "hands of games that are not stud (hold'em, Omaha ...) left out, by name",
    "flagged": "hands the replay flagged (illegal play or a mis-split pot)",
    "hero": "the account that exported the file: whose down cards its hands show, or the seat "
    "its site marks as the exporter's (Bovada's [ME])",
    "flags": "violations found",
    "code": "the violation's code (README: What the replay checks)",
    "kind": "illegal: an action the rules forbid; mis-split: a pot paid otherwise than the "
    "rules and the cards say",
    "line": "the file's line the flag or error points at",
    "hand": "the hand's number at its site",
    "street": "where in the hand",
    "message": "what is wrong, in a sentence",
    "reason": "why the text could not be read",
    "VPIP 3rd": "hands where the player called, completed or raised on the first betting "
    "street (the forced bring-in alone is not voluntary) ÷ hands",
    "complete/raise 3rd": "hands with a completion or raise on the first street ÷ hands",
    "bring-ins": "hands where the player had the bring-in",
    "bring-in completed": "of those, the share where the player completed instead",
    "steal chances": "chances to complete when only the bring-in and folds came before and "
    "at most two players other than the bring-in are left to act",
    "steal": "completions at those chances ÷ chances",
    "steal success": "steals nobody called or raised ÷ steals",
    "fold to steal": "folds as the first answer to a steal ÷ steals faced",
    "3-bet 3rd": "raising a completion nobody has raised yet ÷ times facing one",
    "saw 4th": "hands where the player was still in when 4th street was dealt ÷ hands",
    "saw 5th": "the same for 5th street",
    "saw 6th": "the same for 6th street",
    "saw 7th": "the same for 7th street",
    "showdowns": "hands where the player was still in at the end with someone else",
    "went to SD (of saw 4th)": "showdowns ÷ hands that saw 4th street",
    "won at SD": "showdowns where the player collected ÷ showdowns",
    "won without SD (of hands)": "hands won with everyone else folded ÷ hands",
    "scoop (of SD)": "showdowns where the player was the only one to collect",
    "won high (of SD)": "showdowns where the player won (part of) the high half",
    "won low (of SD)": "showdowns where the player won (part of) the low half",
    "quartered (of SD)": "showdowns where the player shared the low half with another",
    "SD without a low": "showdowns where no low qualified (count)",
    "8-or-better low (of SD, 7 cards known)": "showdowns with all 7 cards known whose best "
    "low, ranked the game's way, is eight high or better",
}
"""What each column means, shown beside every table that has it."""
for _street in ("3rd", "4th", "5th", "6th", "7th"):
    DEFINITIONS[f"AF {_street}"] = (
        f"aggression factor on {_street} street: (completions + bets + raises) ÷ calls"
    )
    DEFINITIONS[f"AFq {_street}"] = (
        f"aggression frequency on {_street} street: (completions + bets + raises) ÷ all the "
        "player's actions there (bring-ins not counted)"
    )


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
    focus: list[scaled.Identity]
    chart_games: pl.DataFrame
    """Win-rates of the focus players by game (and unit and structure)."""
    files: pl.DataFrame = field(default_factory=pl.DataFrame)
    """Each file's counts (`_files`)."""
    selected: str = "selected"
    """The table of the hands with `chosen` the page's own queries read (`data.load`'s, or
    `scaled.prepare`'s in `scaled.WORK`)."""


def _quiet(text: str, fraction: float | None = None) -> None:
    """No progress shown (`build`'s default)."""


@dataclass(frozen=True)
class _Asked:
    """What the filters come to in the database: the player's identity (and accounts),
    the persons' accounts, the heroes."""

    identity: Identity | None
    people: pl.DataFrame | None
    heroes: list[scaled.Identity]
    file_heroes: pl.DataFrame = field(default_factory=pl.DataFrame)
    """Each file's hero (`players.heroes_sql`: file, site, hero, hands)."""

    @property
    def accounts(self) -> list[tuple[str, str]]:
        if self.identity is None:
            return []
        return [(account.site, account.name) for account in self.identity.accounts]

    @property
    def focus(self) -> scaled.Identity | None:
        if self.identity is None:
            return None
        return (self.identity.site, self.identity.name)


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
    # Even while an import writes it (a copy between two commits); `NoDatabase` when there
    # is none, StoreError (DatabaseBusy among them) when it cannot be read.
    with opened(db) as connection:
        out.mkdir(parents=True, exist_ok=True)
        asked = _check_filters(connection, filters)
        unknown = _unknown_stakes(connection, filters, asked.accounts)

        def page(data: _Tables) -> list[Section]:
            data.files = _files(connection, asked.file_heroes)
            return _page(connection, data, out, fmt, asked.accounts)

        if engine == "frames":
            progress("reading every row")
            data, statistics = _frames_tables(
                load(connection, filters, asked.accounts), filters, asked
            )
            sections = page(data)
        else:
            data, statistics, sections = _scaled_tables(connection, filters, page, progress, asked)
    progress("drawing the cumulative chart")
    _add_statistics(sections, data, statistics, out)
    progress(f"writing the {fmt} report")
    tables = {table.key: table.frame for section in sections for table in section.tables}
    title = "handlog report"
    stored = data.files["hands"].sum() if data.files.height else 0
    intro = (
        f"{data.hands:,} hands ({filters.describe()}) of the {stored:,} stored from "
        f"{data.files.height:,} files in {db}; written {time.strftime('%Y-%m-%d %H:%M')}. "
        "A player is an account at a site (or a person: handlog alias); every amount is in "
        "its row's unit, and two units are never added; days in UTC. Each table says what "
        "its columns mean."
    )
    if unknown:
        intro += (
            f" {unknown:,} {'hand shows' if unknown == 1 else 'hands show'} its stakes nowhere "
            "(a tournament level that no hand of it printed): counted in the nets, hours and "
            f"statistics, not in big bets/100 or bring-ins/100; stakes {compute.UNKNOWN_STAKES!r}."
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


def _unknown_stakes(connection: Any, filters: Filters, accounts: list[tuple[str, str]]) -> int:
    """How many of the selected hands show their stakes nowhere (`Hand.stakes_known`: stored
    with a small and a big bet of 0)."""
    chosen, parameters = chosen_sql(filters, accounts)
    rows = connection.execute(
        f"SELECT count(*) FROM hands WHERE small_bet = 0 AND big_bet = 0 AND {chosen}",
        parameters,
    ).fetchall()
    return int(rows[0][0]) if rows else 0


def _check_filters(connection, filters: Filters) -> _Asked:  # type: ignore[no-untyped-def]
    """The filters' player as an identity (a `ReportError` when there is none, or the name
    is at several sites), the persons and the heroes."""
    identity = None
    if filters.player:
        try:
            identity = resolve(connection, filters.player)
        except PlayerError as error:
            raise ReportError(str(error)) from None
    if filters.game:
        games = [r[0] for r in connection.execute("SELECT DISTINCT game FROM hands").fetchall()]
        if filters.game not in games:
            known = ", ".join(sorted(games)) or "none yet"
            raise ReportError(f"no {filters.game!r} hands in the database (games: {known})")
    found = identities(connection)
    people = pl.DataFrame(found.arrow()) if found.people else None
    from handlog.players import heroes_sql

    file_heroes = connection.sql(heroes_sql(connection)).pl()
    heroes: list[scaled.Identity] = []
    by_hands = file_heroes.group_by("site", "hero").agg(pl.col("hands").sum())
    for site, hero, _ in by_hands.sort(
        ["hands", "site", "hero"], descending=[True, False, False]
    ).iter_rows():
        who = found.of(Account(site, hero))
        if (who.site, who.name) not in heroes:
            heroes.append((who.site, who.name))
    return _Asked(identity, people, heroes, file_heroes)


def _files(connection, heroes: pl.DataFrame) -> pl.DataFrame:  # type: ignore[no-untyped-def]
    """Per file: hands stored from it (and flagged), unparsed, skipped, and its hero
    (`heroes`: the account whose down cards its hands show, `players.heroes_sql`), for every
    file imported (whatever the filters)."""
    files = connection.sql("""
        WITH stored AS (
            SELECT file, count(*) AS hands, count(*) FILTER (WHERE status <> 'ok') AS flagged,
                string_agg(DISTINCT site, ', ' ORDER BY site) AS site
            FROM hands GROUP BY file
        ), unparsed AS (
            SELECT file, count(*) AS unparsed FROM parse_errors GROUP BY file
        ), skipped AS (
            SELECT file, count(*) AS skipped FROM skipped GROUP BY file
        )
        SELECT file, stored.site, coalesce(stored.hands, 0)::BIGINT AS hands,
            coalesce(unparsed, 0)::BIGINT AS unparsed,
            coalesce(skipped, 0)::BIGINT AS skipped, coalesce(flagged, 0)::BIGINT AS flagged
        FROM stored FULL JOIN unparsed USING (file) FULL JOIN skipped USING (file)
        ORDER BY file""").pl()
    named = (
        heroes.select("file", "hero")
        if heroes.height
        else pl.DataFrame(schema={"file": pl.String, "hero": pl.String})
    )
    return files.join(named, on="file", how="left", maintain_order="left")


def _stakes(rows: pl.DataFrame) -> pl.DataFrame:
    combos = rows.select("unit", "small_bet", "big_bet").unique()
    labels = [
        f"{render.money(small, unit)}/{render.money(big, unit)}" if big else compute.UNKNOWN_STAKES
        for unit, small, big in combos.iter_rows()
    ]
    combos = combos.with_columns(stakes=pl.Series(labels, dtype=pl.String))
    return rows.join(combos, on=["unit", "small_bet", "big_bet"], how="left", nulls_equal=True)


def _as_site(frame: pl.DataFrame) -> pl.DataFrame:
    """`player_site` shown as the row's `site` (a session keeps its table's site)."""
    if "site" in frame.columns:
        return frame.drop("player_site")
    return frame.rename({"player_site": "site"}).select(
        "site", *[c for c in frame.columns if c != "player_site"]
    )


def _frames_tables(
    frames: Frames, filters: Filters, asked: _Asked
) -> tuple[_Tables, scaled.Statistics]:
    """Every table from all the rows in Polars (`compute`): the reference computation."""
    rows = compute.player_sessions(frames, asked.people).filter(pl.col("chosen"))
    chosen = frames.hands.filter(pl.col("chosen"))
    # The statistics: the rows of the selected hands, every player's (accounts, for pairing
    # with the actions).
    everyone = compute.with_hand_columns(
        frames.hands, frames.players, ["site", "game", "unit", "chosen"]
    ).filter(pl.col("chosen"))
    per_hand = compute.hand_flags(frames, everyone)
    flags = compute.identify(per_hand, asked.people)
    rows = _stakes(rows)
    stats = compute.stud_stats(frames, per_hand, asked.people)
    wanted = asked.focus
    if wanted is not None:
        rows = rows.filter(scaled._among([wanted]))
        stats = stats.filter(scaled._among([wanted]))
    players = compute.winrates(rows, compute.PLAYER)
    players = players.sort(["hands", *compute.PLAYER], descending=[True, False, False])
    games = compute.winrates(rows, [*compute.PLAYER, "game", "stakes"])
    days = compute.winrates(rows, [*compute.PLAYER, "day"]).sort(*compute.PLAYER, "day")
    sessions = compute.sessions(rows)
    focus = _focus(players, asked)
    chart_rows = rows.filter(scaled._among(focus))
    chart_games = compute.winrates(chart_rows, [*compute.PLAYER, "game"])
    tables = _Tables(
        chosen.height,
        players,
        games,
        days,
        sessions,
        frames.violations,
        frames.parse_errors,
        focus,
        chart_games,
    )
    shown = flags.filter(scaled._among(focus)).select(
        "hk", "player_site", "player", pl.col("showdown").alias("went_to_showdown")
    )
    people_rows = compute.identify(
        everyone.select("hk", "site", "player", "unit", "net", "ev_net"), asked.people
    )
    chart = shown.with_columns(pl.col("player", "player_site").cast(pl.String)).join(
        people_rows.with_columns(pl.col("player", "player_site").cast(pl.String)),
        on=["hk", "player_site", "player"],
        how="left",
    )
    chart = chart.select(*scaled.CHART_SCHEMA).cast(scaled.CHART_SCHEMA)  # type: ignore[arg-type]
    return tables, scaled.Statistics(stats, chart.sort(*compute.PLAYER, "unit", "hk"))


def _scaled_tables(  # type: ignore[no-untyped-def]
    connection,
    filters: Filters,
    meanwhile: Callable[[_Tables], T],
    progress: Progress = _quiet,
    asked: _Asked | None = None,
) -> tuple[_Tables, scaled.Statistics, T]:
    """Every table from parts of the rows at a time (`scaled`). The statistics, the longest
    part, are computed in a thread while `meanwhile` (what the report makes of the other
    tables: charts, evidence, tables written as HTML) runs here, on the tables without
    them: most of their work is in DuckDB and Polars, outside the GIL, beside which this
    Python work fits (a million hands: about a second less)."""
    if asked is None:
        asked = _check_filters(connection, filters)
    progress("selecting the hands; win-rates and sessions")
    data = scaled.prepare(connection, filters, asked.accounts, asked.people)
    try:
        tables = _scaled_winrates(data, asked)
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
        if asked.focus is not None:
            statistics.stats = statistics.stats.filter(scaled._among([asked.focus]))
        return tables, statistics, made
    finally:
        data.close()


def _scaled_winrates(data: scaled.Scaled, asked: _Asked) -> _Tables:
    """The win-rate tables and the flags of `scaled.prepare`'s hands."""
    only = [asked.focus] if asked.focus is not None else None
    players = scaled.winrates(data, "players", only).sort(
        ["hands", *compute.PLAYER], descending=[True, False, False]
    )
    games = scaled.winrates(data, "games", only)
    days = scaled.winrates(data, "days", only).sort(*compute.PLAYER, "day")
    sessions = scaled.sessions(data, only)
    focus = _focus(players, asked)
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
        selected=f"{scaled.WORK}.selected",
    )


def _focus(players: pl.DataFrame, asked: _Asked) -> list[scaled.Identity]:
    """Whom the charts are about: the filter's player, else the heroes with hands in the
    report, else the players with the most hands."""
    if asked.focus is not None:
        return [asked.focus]
    there = players.select(pl.col("player_site").cast(pl.String), pl.col("player").cast(pl.String))
    present = list(dict.fromkeys(there.iter_rows()))
    heroes = [who for who in asked.heroes if who in set(present)]
    return (heroes or present)[:FOCUS_PLAYERS]


def _defined(columns: list[tuple[str, str, str]]) -> dict[str, str]:
    """The definitions of a table's columns (by header)."""
    return {header: DEFINITIONS[header] for _, header, _ in columns if header in DEFINITIONS}


def _table(
    key: str,
    title: str,
    frame: pl.DataFrame,
    columns: list[tuple[str, str, str]],
    limit: int | None = None,
    note: str = "",
) -> Table:
    """A table with the definitions of its columns."""
    return Table(key, title, frame, columns, note=note, limit=limit, definitions=_defined(columns))


def _page(  # type: ignore[no-untyped-def]
    connection, data: _Tables, out: Path, fmt: str, accounts: Sequence[tuple[str, str]] = ()
) -> list[Section]:
    """The report's sections but the statistics (`_add_statistics`): the win-rates (and
    their chart by game), the files, and the flagged hands (with their chart and, in HTML,
    each hand's evidence from `connection`); in HTML, their tables written."""
    players, games, days, sessions = (
        _as_site(data.players),
        _as_site(data.games),
        _as_site(data.days),
        _as_site(data.sessions),
    )
    frames = Frames(
        pl.DataFrame(), pl.DataFrame(), pl.DataFrame(), data.violations, data.parse_errors
    )
    counts = compute.flag_counts(frames)
    illegal = compute.flagged_hands(frames, "illegal")
    mis_split = compute.flagged_hands(frames, "mis-split")
    inconsistent = compute.flagged_hands(frames, "inconsistent")
    by_game = charts.by_game(data.chart_games, out / "bb100_by_game.png")
    by_code = charts.flags(counts["by_code"], out / "flags_by_code.png")

    sections = [
        Section(
            "Win-rates",
            [
                _table("players", "By player", players, [*_WHO, _UNIT, _LIMIT, *_WINRATE]),
                _table(
                    "games",
                    "By player, game and stakes",
                    games,
                    [
                        *_WHO,
                        ("game", "game", TEXT),
                        ("stakes", "stakes", TEXT),
                        _UNIT,
                        _LIMIT,
                        *_WINRATE,
                    ],
                ),
                _table(
                    "days",
                    "By player and day (UTC)",
                    days,
                    [*_WHO, ("day", "day", DAY), _UNIT, _LIMIT, *_WINRATE],
                    limit=5000,
                ),
                _table(
                    "sessions",
                    "Sessions (one table, no gap of 30 minutes or more)",
                    sessions,
                    [
                        *_WHO,
                        ("table_name", "table", TEXT),
                        ("first", "start (UTC)", TIME),
                        ("last", "last hand (UTC)", TIME),
                        _UNIT,
                        _LIMIT,
                        *_WINRATE,
                    ],
                    limit=2000,
                ),
            ],
            text="A row is one player's hands of one unit and one betting structure: amounts "
            "of two units are never added, nor big bets of two structures. A column that "
            "means nothing for a row's structure is left empty (BB/100 in pot and no limit, "
            "bring-ins/100 in fixed and spread limit), and left out where it is empty in "
            "every row.",
            charts=[by_game] if by_game else [],
        ),
        _all_in_section(connection, data, accounts),
        Section(
            "Files",
            [
                _table(
                    "files",
                    "Hands by file",
                    data.files,
                    [
                        ("file", "file", TEXT),
                        ("site", "site", TEXT),
                        ("hands", "hands stored", INT),
                        ("unparsed", "unparsed", INT),
                        ("skipped", "skipped", INT),
                        ("flagged", "flagged", INT),
                        ("hero", "hero", TEXT),
                    ],
                    limit=5000,
                )
            ],
            text="Every file imported, whatever the filters: the same counts as handlog "
            "parse, check and import print for it.",
        ),
        Section(
            "Flagged hands",
            [
                _table(
                    "flags_by_code",
                    "Flags by code",
                    counts["by_code"],
                    _count_columns("kind", "code"),
                ),
                _table("flags_by_site", "Flags by site", counts["by_site"], _count_columns("site")),
                _table(
                    "flags_by_table",
                    "Flags by table",
                    counts["by_table"],
                    _count_columns("site", "table_name"),
                ),
                _table(
                    "flags_by_day", "Flags by day (UTC)", counts["by_day"], _count_columns("day")
                ),
                _table("illegal", "Illegal actions", illegal, _FLAG_COLUMNS, limit=5000),
                _table("mis_split", "Mis-split pots", mis_split, _FLAG_COLUMNS, limit=5000),
                _table(
                    "inconsistent",
                    "Inconsistent histories",
                    inconsistent,
                    _FLAG_COLUMNS,
                    limit=5000,
                ),
                _table(
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


_SUCK_OUT_COLUMNS = [
    ("site", "site", TEXT),
    ("hand_id", "hand", TEXT),
    ("game", "game", TEXT),
    ("start_utc", "time (UTC)", TIME),
    ("street", "all-in on", TEXT),
    ("amount", "pot", MONEY),
    ("big_bets", "pot in big bets", NUM),
    ("winner", "winner", TEXT),
    ("winner_equity", "winner's equity", PCT),
    ("favourite", "favourite", TEXT),
    ("favourite_equity", "favourite's equity", PCT),
]

DEFINITIONS |= {
    "all-in on": "the street whose betting closed the hand with cards still to come (every "
    "player left but at most one all-in): its cards dealt, the next ones to come",
    "pot": "the pot (main or side) as paid out after rake, in the hand's unit",
    "pot in big bets": "the pot ÷ the hand's big bet (fixed and spread limit)",
    "winner": "the player the rules paid at least half of the pot",
    "winner's equity": "the winner's expected share of the pot at the all-in, given every "
    "card known then (the folded players' up cards too): below 25%",
    "favourite": "the other player of the pot with the most equity at the all-in",
    "favourite's equity": "the favourite's expected share of the pot at the all-in",
    "time (UTC)": "when the hand started",
}


def _all_in_section(connection, data: _Tables, accounts: Sequence[tuple[str, str]]) -> Section:  # type: ignore[no-untyped-def]
    """The all-in luck section: the biggest suck-outs, and how many hands' EV is not
    computed yet."""
    from handlog.report.data import ev_missing, suck_outs

    found = suck_outs(connection, data.selected, accounts)
    missing = ev_missing(connection, data.selected)
    text = (
        "A suck-out: a player paid at least half of a pot (main or side) by the rules "
        "although their equity in it at the all-in was below 25% — their opponent's "
        "chances three in four or better, the favourite's bad beat. The biggest first (in "
        "big bets), 200 at most. Equities are computed when the betting closed with cards "
        "still to come and every player's cards are shown by the end (the EV net, luck and "
        "all-ins columns of the win-rates come from the same equities)."
    )
    if missing:
        text += (
            f" {missing:,} of the hands here have no all-in EV yet (stored by an older "
            "handlog): run handlog ev to compute it; until then their EV net is their net."
        )
    return Section(
        "All-in luck",
        [_table("suck_outs", "Biggest suck-outs", found, _SUCK_OUT_COLUMNS, limit=LISTED)],
        text=text,
    )


LISTED = 200
"""Suck-outs shown (`data.LISTED_POTS`)."""


def _add_statistics(
    sections: list[Section], data: _Tables, statistics: scaled.Statistics, out: Path
) -> None:
    """Put the statistics into the sections of `_page`: the cumulative charts first among
    the win-rates' charts, the statistics' section after theirs."""
    cumulative = charts.cumulative(
        statistics.chart_rows, data.focus, out / "cumulative.png", CHART_PANELS
    )
    if cumulative is not None:
        sections[0].charts.insert(0, cumulative)
    sections.insert(1, Section("Stud statistics", _stat_tables(_as_site(statistics.stats))))


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
            '<h3 id="flagged-hands-line-by-line">Flagged hands, line by line</h3>'
            '<p class="note">Each hand as it stands in its file, the flagged lines marked, '
            "with the message and what the replay knew there (the street, whose turn it was, "
            "the bet and what the player owed, the pot, every player's stack, chips in and "
            "showing cards). Click a hand to open it.</p>" + evidence_html(shown, total)
        )


def _count_columns(*keys: str) -> list[tuple[str, str, str]]:
    names = {"table_name": "table"}
    return [
        *((key, names.get(key, key), DAY if key == "day" else TEXT) for key in keys),
        ("flags", "flags", INT),
        ("hands", "hands", INT),
    ]


_FLAG_COLUMNS = [
    ("file", "file", TEXT),
    ("line", "line", INT),
    ("hand_id", "hand", TEXT),
    ("site", "site", TEXT),
    ("code", "code", TEXT),
    ("follows", "follows from", TEXT),
    ("street", "street", TEXT),
    ("player", "player", TEXT),
    ("message", "message", TEXT),
]
FLAG_TABLES = ("illegal", "mis_split", "inconsistent")
"""The tables listing the flags of each kind of verdict."""


def _stat_tables(stats: pl.DataFrame) -> list[Table]:
    key = [*_WHO, ("game", "game", TEXT), ("hands", "hands", INT)]
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
        _table("stats_third", "3rd street", stats, [*key, *third]),
        _table("stats_streets", "Later streets and showdown", stats, [*key, *later]),
        _table(
            "stats_aggression",
            "Aggression: factor (bets+raises)/calls and frequency (bets+raises)/actions",
            stats,
            [*key, *aggression],
        ),
        _table("stats_low", "Hi/lo and razz", low_games, [*key, *lows]),
    ]


_TERMINAL_COLUMNS = [
    *_WHO,
    _UNIT,
    _LIMIT,
    ("hands", "hands", INT),
    ("net", "net won", MONEY),
    ("ev_net", "EV net", MONEY),
    ("bb_per_100", "BB/100", NUM),
    ("ci_low", "95% CI low", NUM),
    ("ci_high", "high", NUM),
    ("ev_bb_per_100", "EV BB/100", NUM),
    ("bi_per_100", "bring-ins/100", NUM),
    ("per_hour", "net per hour", RATE),
]


def _terminal(tables: dict[str, pl.DataFrame], data: _Tables) -> str:
    top = tables["players"].sort("hands", descending=True).head(10)
    table = Table("players", "", top, _TERMINAL_COLUMNS)
    illegal = tables["illegal"]["hand_id"].n_unique()
    mis_split = tables["mis_split"]["hand_id"].n_unique()
    inconsistent = tables["inconsistent"]["hand_id"].n_unique()
    lines = [
        render.terminal(table),
        "",
        "BB/100: big bets won per 100 hands (fixed and spread limit); bring-ins/100: the same "
        "in bring-ins (pot and no limit); net in each row's unit; EV: all-in EV-adjusted "
        "(the report's definitions).",
        f"{data.hands:,} hands; {illegal:,} flagged illegal, {mis_split:,} flagged "
        f"mis-split, {inconsistent:,} inconsistent, {data.parse_errors.height:,} could not "
        "be read",
    ]
    return "\n".join(lines)
