"""The DuckDB store: schema, migrations, and bulk loading of checked hands.

Rows are gathered per file into Arrow tables and inserted with one statement per table, in
one transaction with the file's `imports` row, so a killed import leaves the database as it
was before that file. Hands are keyed by (site, hand_id): loading a hand twice stores it once.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

    from handlog.check import CheckedHand

SCHEMA_VERSION = 1
DEFAULT_DB = "handlog.duckdb"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS hands (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, game VARCHAR NOT NULL,
    mixed_game VARCHAR, currency VARCHAR, small_bet BIGINT, big_bet BIGINT, ante BIGINT,
    bring_in BIGINT, tournament_id VARCHAR, tournament_level VARCHAR, buy_in VARCHAR,
    home_game VARCHAR, table_name VARCHAR, max_seats INTEGER, start_time TIMESTAMPTZ,
    clock_text VARCHAR, players INTEGER, total_pot BIGINT, rake BIGINT, status VARCHAR,
    illegal BOOLEAN, mis_split BOOLEAN, file VARCHAR, line INTEGER, end_line INTEGER,
    PRIMARY KEY (site, hand_id)
);
CREATE TABLE IF NOT EXISTS hand_players (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seat INTEGER, player VARCHAR NOT NULL,
    stack BIGINT, sitting_out BOOLEAN, put_in BIGINT, collected BIGINT, net BIGINT,
    rake_share BIGINT, cards VARCHAR, showdown BOOLEAN, won_high BOOLEAN, won_low BOOLEAN,
    PRIMARY KEY (site, hand_id, player)
);
CREATE TABLE IF NOT EXISTS actions (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL, street VARCHAR,
    player VARCHAR, kind VARCHAR, amount BIGINT, to_amount BIGINT, all_in BOOLEAN, line INTEGER,
    PRIMARY KEY (site, hand_id, seq)
);
CREATE TABLE IF NOT EXISTS pots (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, pot INTEGER NOT NULL, amount BIGINT,
    eligible VARCHAR[], PRIMARY KEY (site, hand_id, pot)
);
CREATE TABLE IF NOT EXISTS awards (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, player VARCHAR NOT NULL,
    expected BIGINT, collected BIGINT, PRIMARY KEY (site, hand_id, player)
);
CREATE TABLE IF NOT EXISTS violations (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL, code VARCHAR,
    street VARCHAR, player VARCHAR, line INTEGER, message VARCHAR, expected VARCHAR,
    actual VARCHAR, mis_split BOOLEAN, PRIMARY KEY (site, hand_id, seq)
);
CREATE TABLE IF NOT EXISTS parse_errors (
    file VARCHAR NOT NULL, line INTEGER NOT NULL, hand_id VARCHAR, message VARCHAR,
    text VARCHAR, raw VARCHAR, PRIMARY KEY (file, line)
);
CREATE TABLE IF NOT EXISTS skipped (
    file VARCHAR NOT NULL, line INTEGER NOT NULL, hand_id VARCHAR, game VARCHAR,
    PRIMARY KEY (file, line)
);
CREATE TABLE IF NOT EXISTS imports (
    path VARCHAR PRIMARY KEY, size BIGINT, sha256 VARCHAR, line_reached INTEGER,
    hands INTEGER, new_hands INTEGER, started_at TIMESTAMPTZ, finished_at TIMESTAMPTZ
);
"""

# Migrations from version N to N+1, applied in order by `connect`.
MIGRATIONS: dict[int, str] = {}

TABLES = ("hands", "hand_players", "actions", "pots", "awards", "violations")


class DatabaseBusy(Exception):
    """Another process holds the database (an import still running)."""


def database_path(option: str | None) -> Path:
    """The database file: the --db option, else $HANDLOG_DB, else ./handlog.duckdb."""
    return Path(option or os.environ.get("HANDLOG_DB") or DEFAULT_DB)


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) and migrate the database; `DatabaseBusy` if another
    process has it open for writing."""
    import duckdb

    try:
        connection = duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as error:
        if "lock" in str(error).lower():
            raise DatabaseBusy(
                f"database {path} is busy: another handlog process is using it "
                "(wait for it to finish, or use --db for another file)"
            ) from None
        raise
    if not read_only:
        _migrate(connection)
    return connection


def _migrate(connection: duckdb.DuckDBPyConnection) -> None:
    connection.execute(SCHEMA)
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    version = int(row[0]) if row else SCHEMA_VERSION
    while version < SCHEMA_VERSION:
        connection.execute(MIGRATIONS[version])
        version += 1
    connection.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(version)])


@dataclass
class Batch:
    """Rows of many hands, column by column, ready to become Arrow tables."""

    columns: dict[str, dict[str, list[Any]]] = field(default_factory=dict)

    def table(self, name: str) -> dict[str, list[Any]]:
        found = self.columns.get(name)
        if found is None:
            found = self.columns[name] = {}
        return found

    def arrow(self) -> dict[str, Any]:
        """The rows as Arrow tables (they pickle as flat buffers between processes)."""
        import pyarrow as pa

        return {name: pa.table(columns) for name, columns in self.columns.items() if columns}

    def add(self, name: str, **values: Any) -> None:
        table = self.table(name)
        if not table:
            for key in values:
                table[key] = []
        for key, value in values.items():
            table[key].append(value)


def add_checked(batch: Batch, checked: CheckedHand) -> None:
    """Add one checked hand's rows (or its parse error, or its skip) to `batch`."""
    from handlog.holdings import player_cards
    from handlog.model import Action

    if checked.error is not None:
        _add_record(batch, "parse_errors", checked.error)
        return
    if checked.skipped is not None:
        _add_record(batch, "skipped", checked.skipped)
        return
    hand, result = checked.hand, checked.replay
    assert hand is not None and result is not None
    site, hand_id = hand.site.value, hand.hand_id
    batch.add(
        "hands",
        site=site,
        hand_id=hand_id,
        game=hand.game.value,
        mixed_game=hand.mixed_game,
        currency=hand.currency,
        small_bet=hand.small_bet,
        big_bet=hand.big_bet,
        ante=hand.ante,
        bring_in=hand.bring_in,
        tournament_id=hand.tournament_id,
        tournament_level=hand.tournament_level,
        buy_in=hand.buy_in,
        home_game=hand.home_game,
        table_name=hand.table,
        max_seats=hand.max_seats,
        start_time=hand.start_time,
        clock_text=hand.clock_text,
        players=len(hand.seats),
        total_pot=hand.total_pot,
        rake=hand.rake,
        status=result.status,
        illegal=result.illegal,
        mis_split=result.mis_split,
        file=checked.file,
        line=hand.source.line if hand.source else None,
        end_line=hand.source.end_line if hand.source else None,
    )
    shares = rake_shares(result.collected, hand.rake)
    holdings = player_cards(hand)
    showed = {
        e.player for e in hand.events if type(e) is Action and e.cards and e.kind.value == "show"
    }
    showed |= {r.player for r in hand.results if r.showed}
    for seat in hand.seats:
        name = seat.name
        holding = holdings.get(name)
        # Deal order, "??" for a card never seen; None when nothing was seen.
        cards = (
            " ".join(str(c) if c else "??" for c in holding.slots)
            if holding and any(holding.slots)
            else None
        )
        batch.add(
            "hand_players",
            site=site,
            hand_id=hand_id,
            seat=seat.number,
            player=name,
            stack=seat.stack,
            sitting_out=seat.sitting_out,
            put_in=result.put_in.get(name, 0),
            collected=result.collected.get(name, 0),
            net=result.net.get(name, 0),
            rake_share=shares.get(name, 0),
            cards=cards,
            showdown=name in showed,
            won_high=None,
            won_low=None,
        )
    for seq, action in enumerate(e for e in hand.events if type(e) is Action):
        batch.add(
            "actions",
            site=site,
            hand_id=hand_id,
            seq=seq,
            street=action.street.name.lower(),
            player=action.player,
            kind=action.kind.value,
            amount=action.amount,
            to_amount=action.to_amount,
            all_in=action.all_in,
            line=action.line,
        )
    for number, pot in enumerate(result.pots):
        batch.add(
            "pots",
            site=site,
            hand_id=hand_id,
            pot=number,
            amount=pot.amount,
            eligible=list(pot.eligible),
        )
    for player in sorted(
        set(result.expected_collect) | {p for p, v in result.collected.items() if v}
    ):
        batch.add(
            "awards",
            site=site,
            hand_id=hand_id,
            player=player,
            expected=result.expected_collect.get(player, 0),
            collected=result.collected.get(player, 0),
        )
    for seq, violation in enumerate(result.violations):
        batch.add(
            "violations",
            site=site,
            hand_id=hand_id,
            seq=seq,
            code=violation.code,
            street=violation.street.name.lower() if violation.street is not None else None,
            player=violation.player,
            line=violation.line,
            message=violation.message,
            expected=violation.expected,
            actual=violation.actual,
            mis_split=violation.mis_split,
        )


RECORD_COLUMNS = {
    "parse_errors": ("file", "line", "hand_id", "message", "text", "raw"),
    "skipped": ("file", "line", "hand_id", "game"),
}
"""Tables filled straight from a record's fields, in the tables' column order."""


def _add_record(batch: Batch, table: str, item: object) -> None:
    batch.add(table, **{column: getattr(item, column) for column in RECORD_COLUMNS[table]})


def rake_shares(collected: dict[str, int], rake: int) -> dict[str, int]:
    """The rake charged to each winner, in proportion to what they collected; the shares
    add up to the rake exactly (the remainder goes to the biggest winners first)."""
    winners = sorted(((v, p) for p, v in collected.items() if v > 0), reverse=True)
    total = sum(v for v, _ in winners)
    if not winners or rake <= 0:
        return {}
    shares = {p: rake * v // total for v, p in winners}
    for _, player in winners[: rake - sum(shares.values())]:
        shares[player] += 1
    return shares


def load(connection: duckdb.DuckDBPyConnection, tables: dict[str, Any]) -> int:
    """Insert Arrow tables (`Batch.arrow()`) inside the caller's transaction; hands already
    stored are left as they are. Returns the number of new hands."""
    new = 0
    hands = tables.get("hands")
    if hands is not None:
        connection.register("batch_hands", hands)
        # The hands in this batch not stored before (and each once, if a batch repeats one).
        connection.execute("""
            CREATE OR REPLACE TEMP TABLE new_hands AS
            SELECT DISTINCT b.site, b.hand_id FROM batch_hands b
            ANTI JOIN hands h ON h.site = b.site AND h.hand_id = b.hand_id""")
        new = connection.execute("SELECT count(*) FROM new_hands").fetchone()[0]  # type: ignore[index]
        for name in TABLES:
            table = tables.get(name)
            if table is None:
                continue
            view = f"batch_{name}"
            if name != "hands":
                connection.register(view, table)
            connection.execute(f"""
                INSERT INTO {name} SELECT b.* FROM {view} b
                SEMI JOIN new_hands n ON n.site = b.site AND n.hand_id = b.hand_id
                QUALIFY row_number() OVER (PARTITION BY {_key(name)}) = 1""")
            connection.unregister(view)
    for name in ("parse_errors", "skipped"):
        table = tables.get(name)
        if table is not None:
            connection.register("batch_rows", table)
            connection.execute(f"INSERT OR REPLACE INTO {name} SELECT * FROM batch_rows")
            connection.unregister("batch_rows")
    return int(new)


def _key(table: str) -> str:
    return {
        "hands": "b.site, b.hand_id",
        "hand_players": "b.site, b.hand_id, b.player",
        "actions": "b.site, b.hand_id, b.seq",
        "pots": "b.site, b.hand_id, b.pot",
        "awards": "b.site, b.hand_id, b.player",
        "violations": "b.site, b.hand_id, b.seq",
    }[table]


def counts(connection: duckdb.DuckDBPyConnection, tables: Iterable[str] = TABLES) -> dict[str, int]:
    return {t: connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}  # type: ignore[index]
