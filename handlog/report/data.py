"""Read what a report needs from the database into Polars frames, filters applied in SQL.

Every stored hand gets a small integer key `hk` (its rank in time order), so the frames
join on one integer column instead of (site, hand id) strings, and the cumulative charts
can use `hk` order as play order; `chosen` says whether the filters select it. Money stays
in integer minor units of the hand's `unit` (`handlog.units`: "USD", "tournament chips",
...).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import polars as pl

from handlog.model import BETTING_KINDS as _BETTING_ACTIONS
from handlog.model import Street
from handlog.units import UNIT_SQL as _UNIT_OF_COLUMNS

if TYPE_CHECKING:
    import duckdb

BETTING_KINDS = tuple(sorted(kind.value for kind in _BETTING_ACTIONS))
"""The actions the statistics look at (antes, shows and collects are in other columns)."""

UNIT_SQL = f"coalesce(unit, {_UNIT_OF_COLUMNS})"
"""A hand's unit of money (`handlog.units`): amounts of two units are never added."""

BRING_IN_SQL = (
    "coalesce(bring_in, max(bring_in) OVER (PARTITION BY site, currency, tournament_id, "
    "small_bet, big_bet, structure))"
)
"""A hand's bring-in as seen, or (when nobody brought in) the one seen at the same stakes
in any stored hand (not only the selected ones: a filter does not change it): the unit of
the pot- and no-limit win-rates (bring-ins/100)."""

_STREET_NUMBER = " ".join(
    f"WHEN '{street.name.lower()}' THEN {street.value}"
    for street in Street
    if Street.SECOND <= street <= Street.SEVENTH
)


@dataclass(frozen=True)
class Filters:
    """What the user asked to see: one player's hands, one game, a date range (inclusive,
    in UTC)."""

    player: str | None = None
    game: str | None = None
    since: dt.date | None = None
    until: dt.date | None = None

    def describe(self) -> str:
        parts = []
        if self.player:
            parts.append(f"player {self.player}")
        if self.game:
            parts.append(f"game {self.game}")
        if self.since:
            parts.append(f"from {self.since.isoformat()}")
        if self.until:
            parts.append(f"until {self.until.isoformat()}")
        return ", ".join(parts) or "all hands"


@dataclass
class Frames:
    """One report's data.

    hands: one row per stored hand (hk, site, hand_id, game, unit, stakes, table, time, pot,
        rake, status, file, line) and whether the filters select it (`chosen`): sessions
        and hours are a player's over all their hands, whatever the filters.
    players: one row per player dealt in per hand.
    actions: betting actions of the selected hands (hk, seq, street number, player, kind).
    violations, parse_errors: as stored (parse errors have no hand to filter by game or
        player, so only the date filter does not apply to them either; all are listed).
    """

    hands: pl.DataFrame
    players: pl.DataFrame
    actions: pl.DataFrame
    violations: pl.DataFrame
    parse_errors: pl.DataFrame


def selection_sql(chosen: str, extra: str = "") -> str:
    """Every stored hand numbered in play order (`hk`), the columns of it a report reads
    and whether the filters select it (`chosen`, an SQL condition over `hands`); `extra`:
    more columns (", total_pot, rake")."""
    return f"""
        SELECT row_number() OVER (ORDER BY start_time NULLS LAST, site, hand_id)::INTEGER AS hk,
            site, hand_id, game,
            {UNIT_SQL} AS unit,
            small_bet, big_bet, structure, {BRING_IN_SQL} AS bring_in,
            concat_ws(' ', site, tournament_id, table_name) AS table_key, table_name,
            (start_time AT TIME ZONE 'UTC') AS start_utc,
            coalesce({chosen}, false) AS chosen{extra}
        FROM hands
        """


def load(
    connection: duckdb.DuckDBPyConnection,
    filters: Filters,
    accounts: Sequence[tuple[str, str]] = (),
) -> Frames:
    """The frames of a report (`accounts`: the (site, name) pairs of the filter's player)."""
    chosen, parameters = chosen_sql(filters, accounts)
    connection.execute(
        f"CREATE OR REPLACE TEMP TABLE selected AS {selection_sql(chosen, _MORE)}", parameters
    )
    hands = connection.sql("SELECT * FROM selected ORDER BY hk").pl()
    players = connection.sql(
        f"""
        SELECT s.hk, p.player, p.seat, p.put_in, p.collected, p.net, p.rake_share, p.cards,
            p.showdown AS showed, p.won_high, p.won_low, {EV_COLUMNS}
        FROM hand_players p JOIN selected s USING (site, hand_id) {EV_JOIN}
        WHERE {DEALT_IN}
        ORDER BY s.hk, p.seat
        """
    ).pl()
    kinds = ", ".join(f"'{kind}'" for kind in BETTING_KINDS)
    actions = connection.sql(
        f"""
        SELECT s.hk, a.seq, (CASE a.street {_STREET_NUMBER} END)::TINYINT AS street,
            a.player, a.kind
        FROM actions a JOIN selected s USING (site, hand_id)
        WHERE a.kind IN ({kinds}) AND s.chosen
        ORDER BY s.hk, a.seq
        """
    ).pl()
    violations = connection.sql(
        """
        SELECT s.hk, s.site, s.hand_id, s.game, s.table_key, s.table_name, s.start_utc,
            s.file, v.line, v.code, v.street, v.player, v.message, v.mis_split, v.kind,
            v.seq, v.cause
        FROM violations v JOIN selected s USING (site, hand_id)
        WHERE s.chosen
        ORDER BY s.hk, v.seq
        """
    ).pl()
    parse_errors = connection.sql(
        "SELECT file, line, hand_id, message, text FROM parse_errors ORDER BY file, line"
    ).pl()
    # Player names as categoricals: every join and group-by on (hand, player) then hashes
    # integer codes instead of strings (1.4 M player rows and 4.8 M actions at 200k hands).
    players = players.with_columns(pl.col("player").cast(pl.Categorical))
    actions = actions.with_columns(pl.col("player").cast(pl.Categorical))
    return Frames(hands, players, actions, violations, parse_errors)


_MORE = ", mixed_game, tournament_id, total_pot, rake, status, illegal, mis_split, file, line"
"""The hands' columns the frames engine keeps beside `selection_sql`'s."""

EV_COLUMNS = "coalesce(p.ev_net, p.net) AS ev_net, e.player IS NOT NULL AS all_in"
"""A player row's all-in EV-adjusted net (`hand_players.ev_net`; the net where the hand's EV
is not computed yet: stored by a handlog before schema 9, `handlog ev` not run) and whether
the player was in a pot at the hand's all-in (a row of `equities`), read with `EV_JOIN`."""

EV_JOIN = """LEFT JOIN (SELECT DISTINCT site, hand_id, player FROM equities) e
    ON e.site = p.site AND e.hand_id = p.hand_id AND e.player = p.player"""
"""The join `EV_COLUMNS` reads (`equities` holds a few rows a hand with an all-in)."""

DEALT_IN = "coalesce(p.dealt_in, true)"
"""A player row of a player dealt in (`hand_players.dealt_in`; `holdings.seat_roles`)."""


def accounts_sql(accounts: Sequence[tuple[str, str]], alias: str) -> tuple[str, list[Any]]:
    """An SQL condition: the player row `alias` is of one of `accounts` (all: "true")."""
    if not accounts:
        return "true", []
    terms = " OR ".join(f"({alias}.site = ? AND {alias}.player = ?)" for _ in accounts)
    return f"({terms})", [value for account in accounts for value in account]


def chosen_sql(filters: Filters, accounts: Sequence[tuple[str, str]] = ()) -> tuple[str, list[Any]]:
    """The filters as an SQL condition over `hands` (and its parameters)."""
    clauses: list[str] = []
    parameters: list[Any] = []
    if filters.game:
        clauses.append("game = ?")
        parameters.append(filters.game)
    if filters.since:
        clauses.append("start_time >= ?::DATE::TIMESTAMP AT TIME ZONE 'UTC'")
        parameters.append(filters.since)
    if filters.until:
        clauses.append("start_time < (?::DATE + 1)::TIMESTAMP AT TIME ZONE 'UTC'")
        parameters.append(filters.until)
    if accounts:
        only, values = accounts_sql(accounts, "p")
        clauses.append(
            "EXISTS (SELECT 1 FROM hand_players p WHERE p.site = hands.site"
            f" AND p.hand_id = hands.hand_id AND {DEALT_IN} AND {only})"
        )
        parameters += values
    return (" AND ".join(clauses) if clauses else "true"), parameters


SUCK_OUT_EQUITY = 0.25
"""A suck-out: a player paid at least half of a pot in which their equity at the all-in
was below this (their opponent's chances were three in four or better)."""

LISTED_POTS = 200
"""The most suck-outs listed (the biggest, in big bets)."""


def suck_outs(
    connection: duckdb.DuckDBPyConnection,
    selected: str,
    accounts: Sequence[tuple[str, str]] = (),
) -> pl.DataFrame:
    """The biggest suck-outs of the hands the filters select (`selected`: the report's
    table of hands with `chosen`; `accounts`: the filter's player, winner or favourite):
    one row per pot a player won (at least half of it, by the rules) from the all-in with
    equity below `SUCK_OUT_EQUITY`, beside the favourite (the other player of the pot with
    the most equity), biggest pots (in big bets, else in the unit) first."""
    only, parameters = accounts_sql(accounts, "w")
    also, more = accounts_sql(accounts, "l")
    who = f"AND ({only} OR {also})" if accounts else ""
    return connection.sql(
        f"""
        WITH pots AS (
            SELECT e.site, e.hand_id, e.pot, e.street, e.amount, e.player, e.equity, e.won,
                s.game, s.unit, s.big_bet, s.start_utc
            FROM equities e JOIN {selected} s USING (site, hand_id)
            WHERE s.chosen
        )
        SELECT w.site, w.hand_id, w.game, w.unit, w.start_utc, w.street,
            w.pot, w.amount, w.amount / nullif(w.big_bet, 0) AS big_bets,
            w.player AS winner, w.equity AS winner_equity, w.won,
            l.player AS favourite, l.equity AS favourite_equity
        FROM pots w JOIN pots l ON l.site = w.site AND l.hand_id = w.hand_id
            AND l.pot = w.pot AND l.player <> w.player
        WHERE w.equity < {SUCK_OUT_EQUITY} AND w.amount > 0 AND 2 * w.won >= w.amount {who}
        QUALIFY row_number() OVER (
            PARTITION BY w.site, w.hand_id, w.pot, w.player ORDER BY l.equity DESC) = 1
        ORDER BY big_bets DESC NULLS LAST, w.amount DESC, w.site, w.hand_id, w.pot
        LIMIT {LISTED_POTS}
        """,
        params=[*parameters, *more] or None,
    ).pl()


def ev_missing(connection: duckdb.DuckDBPyConnection, selected: str) -> int:
    """Selected hands whose all-in EV is not computed yet (stored before schema 9:
    `handlog ev` computes them); their EV nets are their nets meanwhile."""
    # fetchall: a result left unfinished would hold the connection for the next query
    rows = connection.execute(
        f"SELECT count(*) FROM hands h JOIN {selected} s USING (site, hand_id) "
        "WHERE s.chosen AND h.ev_all_in IS NULL"
    ).fetchall()
    return int(rows[0][0]) if rows else 0
