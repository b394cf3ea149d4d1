"""The DuckDB store: schema, migrations, and bulk loading of checked hands.

Rows are gathered per file into Arrow tables and inserted with one statement per table, in
one transaction with the file's `imports` row, so a killed import leaves the database as it
was before that file. Hands are keyed by (site, hand_id): loading a hand twice stores it once.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from handlog.cards import DECK, Card
from handlog.holdings import holdings
from handlog.model import ActionKind, Game, Site, Street, Structure
from handlog.players import ALIASES_TABLE
from handlog.units import UNIT_SQL, unit_of

if TYPE_CHECKING:
    import duckdb

    from handlog.check import CheckedHand

SCHEMA_VERSION = 9
DEFAULT_DB = "handlog.duckdb"

# The tables of a hand's details. Their rows are stored only with a new hand (`load` inserts
# them for the hands the batch adds), so they need no key of their own: a primary key here
# would double the load's cost and quadruple the file for nothing (version 1 had them).
_PLAYERS_V6 = """
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seat INTEGER, player VARCHAR NOT NULL,
    stack BIGINT, sitting_out BOOLEAN, put_in BIGINT, collected BIGINT, net BIGINT,
    rake_share BIGINT, cards VARCHAR, showdown BOOLEAN,
    -- won_high: by the rules and the cards (the replay's award computation, which the
    -- collects match unless the hand is flagged mis-split), the player wins a share of the
    -- high half of a pot or of a whole pot: in stud and razz every pot winner (razz's
    -- "high" is the pot winner), in stud8 the best high hand of each pot (the whole pot when
    -- no low qualifies); a pot taken uncontested counts too. won_low: a share of a stud8 low
    -- half; FALSE in stud and razz. Both TRUE or FALSE for every player (FALSE for players
    -- who won nothing); NULL only in hands imported before schema version 2.
    won_high BOOLEAN, won_low BOOLEAN"""

DETAIL_TABLES = {
    "hand_players": _PLAYERS_V6
    + """,
    -- dealt_in: the seat anted, was dealt a card or acted (`holdings.seat_roles`); FALSE for
    -- a seat that sat out, which no statistic or count takes as in the hand (schema 8).
    -- hole_shown: the dealing lines show the player's face-down cards (the file's hero's:
    -- `players.heroes`); NULL in hands stored before schema 8.
    dealt_in BOOLEAN, hole_shown BOOLEAN,
    -- ev_net: the all-in EV-adjusted net (`handlog.equity.EvNet.ev_net_units`): the net
    -- for a hand without an all-in with cards to come whose cards are known (hands.ev_all_in
    -- FALSE, or NULL: not computed yet), else the player's expected share of the pots at
    -- the all-in less what they put in, rounded so that a hand's sum is its nets' (minus the
    -- rake). Never NULL (schema 9).
    ev_net BIGINT""",
    "actions": """
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL, street VARCHAR,
    player VARCHAR, kind VARCHAR, amount BIGINT, to_amount BIGINT, all_in BOOLEAN, line INTEGER""",
    "pots": """
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, pot INTEGER NOT NULL, amount BIGINT,
    eligible VARCHAR[]""",
    "awards": """
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, player VARCHAR NOT NULL,
    expected BIGINT, collected BIGINT""",
    "violations": """
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL, code VARCHAR,
    street VARCHAR, player VARCHAR, line INTEGER, message VARCHAR, expected VARCHAR,
    actual VARCHAR, mis_split BOOLEAN,
    -- kind: the verdict, 'illegal', 'mis-split' or 'inconsistent' (`Kind` in
    -- handlog.rules.violations; mis_split is kind = 'mis-split'); cause: for a flag that only
    -- follows from an earlier fault of the hand, that fault's seq (such consequences are not
    -- counted as flags of their own), NULL for a fault of its own (schema version 7)
    kind VARCHAR, cause INTEGER""",
    # Every hand's text as it stood in its file (`handlog.texts`): where it lies in a block
    # of text_blocks (bytes `start` to `start + length` of the block's UTF-8 text).
    "hand_texts": """
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, block BIGINT NOT NULL, start INTEGER,
    length INTEGER""",
}

_VIOLATIONS_V2 = """
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, seq INTEGER NOT NULL, code VARCHAR,
    street VARCHAR, player VARCHAR, line INTEGER, message VARCHAR, expected VARCHAR,
    actual VARCHAR, mis_split BOOLEAN"""
"""`violations` as versions 2 to 6 had it (migration 1 -> 2 rebuilds it so; 6 -> 7 adds the
kind and the cause)."""

_V1_DETAIL_TABLES = {
    name: _PLAYERS_V6
    if name == "hand_players"
    else _VIOLATIONS_V2
    if name == "violations"
    else columns
    for name, columns in DETAIL_TABLES.items()
    if name != "hand_texts"
}
"""The detail tables as migration 1 -> 2 rebuilds them (columns added since, by later
migrations, are left out: those migrations add them)."""

COMPRESSED = "USING COMPRESSION uncompressed"
"""A column of bytes compressed already (zstd, zlib): stored as they are."""

TEXT_BLOCKS_TABLE = f"""CREATE TABLE IF NOT EXISTS text_blocks (
    block BIGINT NOT NULL, size INTEGER, head INTEGER, data BLOB {COMPRESSED}
);
"""
"""Hands' texts, 64 hands a block, zstd-compressed together (`handlog.texts`): 175-320
bytes a hand where each hand alone took 800. `size`: the bytes of the text; `head`: how
many of them, at the start, are the file's text before its first hand (XML formats read
their hands with it; 0 for the others). Stored when one of its hands is new. `data` is
stored as it is (`COMPRESSED`): DuckDB's own compression, tried on every block at a
checkpoint, finds nothing to gain in compressed bytes (measured, the text blocks of 20,000
PokerStars hands, 3.5 MB: 45-91 ms of CPU -> 21 at the import's last commit, the file
0.26 MB bigger). A database made before keeps its column as it was (only slower)."""

# The evidence of a flagged hand (see handlog.evidence): its text as it stood in its file
# (zlib-compressed UTF-8), where it came from, and one replay state per violation (a JSON
# list in the violations' order). Only flagged hands have a row. Stored like the detail
# tables (with a new hand, no key of its own), but not one of them: migration 1 -> 2 rebuilds
# exactly the detail tables version 1 had.
EQUITIES_TABLE = """CREATE TABLE IF NOT EXISTS equities (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, pot INTEGER NOT NULL,
    player VARCHAR NOT NULL, street VARCHAR, amount BIGINT, equity DOUBLE, expected DOUBLE,
    won BIGINT, method VARCHAR, error DOUBLE, deals BIGINT
);
"""
"""Each player's equity in each pot at a hand's all-in (`handlog.equity`, schema 9): the
street the betting closed on, the pot as paid out (after rake), the expected share of it (0
to 1) and in chips, what the rules paid the player from it (`won`), the method ('exact' or
'sampled') with the deals counted, and the 95% error of a sampled equity (0 when exact).
Rows only for hands with `hands.ev_all_in`; stored with a new hand, like `hand_evidence`."""

EVIDENCE_TABLE = f"""CREATE TABLE IF NOT EXISTS hand_evidence (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, file VARCHAR, line INTEGER,
    end_line INTEGER, text BLOB {COMPRESSED}, states VARCHAR
);
"""

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS hands (
    site VARCHAR NOT NULL, hand_id VARCHAR NOT NULL, game VARCHAR NOT NULL,
    mixed_game VARCHAR, currency VARCHAR, small_bet BIGINT, big_bet BIGINT, ante BIGINT,
    bring_in BIGINT, tournament_id VARCHAR, tournament_level VARCHAR, buy_in VARCHAR,
    home_game VARCHAR, table_name VARCHAR, max_seats INTEGER, start_time TIMESTAMPTZ,
    clock_text VARCHAR, players INTEGER, total_pot BIGINT, rake BIGINT, status VARCHAR,
    illegal BOOLEAN, mis_split BOOLEAN, file VARCHAR, line INTEGER, end_line INTEGER,
    structure VARCHAR DEFAULT 'fixed', chips_in_hundredths BOOLEAN DEFAULT false,
    inconsistent BOOLEAN DEFAULT false,
    unit VARCHAR, hero VARCHAR,
    -- ev_all_in: the hand's betting closed with cards to come and every live player's
    -- cards are known by the end: its equities are in `equities` and its players' ev_net
    -- are what they could expect; FALSE: no such all-in (ev_net = net); NULL: not
    -- computed yet (a hand stored before schema 9: `handlog ev` computes it).
    ev_all_in BOOLEAN,
    PRIMARY KEY (site, hand_id)
);
"""
    + "".join(
        f"CREATE TABLE IF NOT EXISTS {name} ({columns}\n);\n"
        for name, columns in DETAIL_TABLES.items()
    )
    + EVIDENCE_TABLE
    + EQUITIES_TABLE
    + TEXT_BLOCKS_TABLE
    + ALIASES_TABLE
    + """
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
)

# Migrations from version N to N+1, applied in order by `connect`.
MIGRATIONS: dict[int, str] = {
    # 1 -> 2: the detail tables lose their primary keys (see DETAIL_TABLES); won_high and
    # won_low stay NULL in the hands already stored.
    1: "".join(
        f"CREATE TABLE {name}__v2 ({columns}\n);\n"
        f"INSERT INTO {name}__v2 SELECT * FROM {name};\n"
        f"DROP TABLE {name};\n"
        f"ALTER TABLE {name}__v2 RENAME TO {name};\n"
        for name, columns in _V1_DETAIL_TABLES.items()
    ),
    # 2 -> 3: actions hold site-neutral amounts: `amount` is the chips an action puts in
    # (a raise's was PokerStars' raise size over the bet) and `to_amount` the player's street
    # total after every bring-in, completion, bet, raise and call (it was kept for raises
    # only). Both are derived again from what was stored: a raise's street total is its
    # `to_amount`; any other action adds its `amount` to the player's total since the last
    # raise (`streak` numbers those runs).
    2: """
CREATE TEMP TABLE neutral_amounts AS
WITH money AS (
    SELECT site, hand_id, seq, street, player, amount, to_amount,
        kind IN ('raise', 'complete') AND to_amount IS NOT NULL AS raise_to,
        count(*) FILTER (WHERE kind IN ('raise', 'complete') AND to_amount IS NOT NULL) OVER (
            PARTITION BY site, hand_id, street, player ORDER BY seq ROWS UNBOUNDED PRECEDING
        ) AS streak
    FROM actions
    WHERE kind IN ('bring_in', 'complete', 'bet', 'raise', 'call') AND street <> 'antes'
), totals AS (
    SELECT *,
        coalesce(max(CASE WHEN raise_to THEN to_amount END) OVER (
            PARTITION BY site, hand_id, street, player, streak), 0)
        + sum(CASE WHEN raise_to THEN 0 ELSE coalesce(amount, 0) END) OVER (
            PARTITION BY site, hand_id, street, player, streak ORDER BY seq
            ROWS UNBOUNDED PRECEDING) AS total
    FROM money
)
SELECT site, hand_id, seq, total,
    total - coalesce(lag(total) OVER (
        PARTITION BY site, hand_id, street, player ORDER BY seq), 0) AS chips
FROM totals;
UPDATE actions SET amount = n.chips, to_amount = n.total
FROM neutral_amounts n
WHERE actions.site = n.site AND actions.hand_id = n.hand_id AND actions.seq = n.seq;
DROP TABLE neutral_amounts;
""",
    # 3 -> 4: hand_evidence is new (`SCHEMA` has already created it, empty, by the time this
    # runs); hands flagged before it have no evidence stored: the report lists their flags
    # without their text.
    3: EVIDENCE_TABLE,
    # 4 -> 5: each hand's betting structure (every hand stored before was fixed limit).
    4: "ALTER TABLE hands ADD COLUMN IF NOT EXISTS structure VARCHAR DEFAULT 'fixed';",
    # 5 -> 6: chips in hundredths (KingsClub, Winamax play money), a unit of their own in the
    # reports. Hands stored before keep `false` (whole chips), as version 5 showed them.
    5: "ALTER TABLE hands ADD COLUMN IF NOT EXISTS chips_in_hundredths BOOLEAN DEFAULT false;",
    # 6 -> 7: three kinds of verdict and root causes. Each violation stored before keeps the
    # kind its code had then (mis-split for the pot codes, illegal for the others) and is a
    # fault of its own; no hand stored before is inconsistent. Import the files into a new
    # database to have them judged again.
    6: """
ALTER TABLE hands ADD COLUMN IF NOT EXISTS inconsistent BOOLEAN DEFAULT false;
ALTER TABLE violations ADD COLUMN IF NOT EXISTS kind VARCHAR;
ALTER TABLE violations ADD COLUMN IF NOT EXISTS cause INTEGER;
UPDATE violations SET kind = CASE WHEN mis_split THEN 'mis-split' ELSE 'illegal' END
WHERE kind IS NULL;
""",
    # 7 -> 8: players and units (issue 30). Each hand's unit (`handlog.units`), its hero
    # and its players' hole_shown (unknown for the hands stored before: NULL); each player
    # row's dealt_in, derived from what was stored (an action, a card seen, chips in or
    # out: a seat that sat out has none), and `players` counts the seats dealt in.
    # hand_texts, text_blocks and aliases are new (`SCHEMA` has made them); the hands
    # stored before have no text.
    7: f"""
ALTER TABLE hands ADD COLUMN IF NOT EXISTS unit VARCHAR;
ALTER TABLE hands ADD COLUMN IF NOT EXISTS hero VARCHAR;
UPDATE hands SET unit = {UNIT_SQL};
ALTER TABLE hand_players ADD COLUMN IF NOT EXISTS dealt_in BOOLEAN;
ALTER TABLE hand_players ADD COLUMN IF NOT EXISTS hole_shown BOOLEAN;
UPDATE hand_players SET dealt_in = cards IS NOT NULL OR put_in > 0 OR collected > 0;
UPDATE hand_players SET dealt_in = true
FROM (SELECT DISTINCT site, hand_id, player FROM actions) a
WHERE a.site = hand_players.site AND a.hand_id = hand_players.hand_id
    AND a.player = hand_players.player AND NOT hand_players.dealt_in;
UPDATE hands SET players = d.dealt
FROM (SELECT site, hand_id, count(*) FILTER (WHERE dealt_in) AS dealt
      FROM hand_players GROUP BY site, hand_id) d
WHERE d.site = hands.site AND d.hand_id = hands.hand_id;
""",
    # 8 -> 9: all-in EV (issue 29). `equities` is new (`SCHEMA` has made it); each player's
    # ev_net starts as their net and each hand's ev_all_in as NULL, not computed:
    # `handlog ev` computes them (an import computes its new hands').
    8: """
ALTER TABLE hands ADD COLUMN IF NOT EXISTS ev_all_in BOOLEAN;
ALTER TABLE hand_players ADD COLUMN IF NOT EXISTS ev_net BIGINT;
UPDATE hand_players SET ev_net = net;
""",
}

TABLES = (
    "hands",
    "hand_players",
    "actions",
    "pots",
    "awards",
    "violations",
    "hand_evidence",
    "hand_texts",
    "equities",
)
"""The tables keyed by hand (site, hand_id): a hand's rows are stored with it, once."""


class StoreError(Exception):
    """The database cannot be used (damaged, not a database, read-only, its folder missing,
    the disk full): the message is one line that names the file and says what to do."""


class DatabaseBusy(StoreError):
    """Another process holds the database (an import still running)."""


def database_path(option: str | None) -> Path:
    """The database file: the --db option, else $HANDLOG_DB, else ./handlog.duckdb."""
    return Path(option or os.environ.get("HANDLOG_DB") or DEFAULT_DB)


_STORAGE_FAULTS = (
    "no space left",
    "read-only file system",
    "permission denied",
    "could not write",
    "could not read",
    "cannot open file",
    "invalidated",
    "disk quota",
    "input/output error",
)
"""Words of DuckDB errors that say the database file itself cannot be used: the import
stops (the next file would fail the same way), unlike an error loading one file's rows."""


def is_storage_fault(error: BaseException) -> bool:
    """Whether a DuckDB error is about the database file (see `_STORAGE_FAULTS`)."""
    import duckdb

    text = str(error).lower()
    return isinstance(error, duckdb.FatalException) or any(w in text for w in _STORAGE_FAULTS)


def store_error(error: BaseException, path: Path, reading: bool = False) -> StoreError:
    """A DuckDB (or operating system) error on the database at `path` as one line that
    says what is wrong in a player's words and what to do about it; `reading`: the
    database was being read (opened read-only), not written."""
    text = str(error)
    lower = text.lower()
    if "lock" in lower and ("conflicting" in lower or "could not set lock" in lower):
        return DatabaseBusy(
            f"database {path} is busy: another process is writing it (wait for it to "
            "finish, or use --db for another file)"
        )
    if path.is_dir() or "is a directory" in lower:
        return StoreError(
            f"{path} is a folder, not a database file: give --db a file name "
            f"(for example {path / DEFAULT_DB})"
        )
    if "not a valid duckdb database" in lower:
        return StoreError(
            f"{path} is not a handlog database (not a DuckDB file, or a damaged one): "
            "give --db another file, or move this one away and import again"
        )
    if "could not read enough bytes" in lower or (
        "attempted to read" in lower and "bytes from location" in lower
    ):
        return StoreError(
            f"{path} is damaged: it is shorter than its own contents say (truncated, or cut "
            "off while copied); restore it from a copy, or move it away and import again"
        )
    if "checksum" in lower or "corrupt" in lower:
        return StoreError(
            f"{path} is damaged: part of it is not what was written there (its checksum "
            "does not match: changed on disk, or a failing disk); restore it from a copy, "
            "or move it away and import again"
        )
    if "no space left" in lower or "disk quota" in lower:
        return StoreError(
            f"cannot write {path}: no space left on the disk; free some space and run the "
            "import again (what was stored is kept, and it goes on from there)"
        )
    if "read-only file system" in lower or "permission denied" in lower:
        reason = "read-only file system" if "read-only" in lower else "permission denied"
        if reading:
            return StoreError(
                f"cannot read {path} ({reason}): fix the permissions of the file and its "
                "folder, or give --db another file"
            )
        return StoreError(
            f"cannot write {path} ({reason}): give --db a file in a folder you can write, "
            "or fix the permissions of the file and its folder"
        )
    if "not a directory" in lower:
        return StoreError(
            f"cannot create {path}: {path.parent} is a file, not a folder (give --db a "
            "file in a folder)"
        )
    if "no such file or directory" in lower or "database does not exist" in lower:
        if not path.parent.is_dir():
            return StoreError(
                f"cannot create {path}: the folder {path.parent} does not exist (create it, "
                "or give --db another place)"
            )
        return StoreError(f"no database at {path}: import hand histories first (handlog import)")
    if "catalog error" in lower and "does not exist" in lower:
        return StoreError(
            f"{path} is not a handlog database (a DuckDB database without handlog's tables, "
            "or one of a newer handlog): give --db another file"
        )
    first = text.strip().split("\n", 1)[0]
    return StoreError(f"database {path}: {first}")


class OutputError(StoreError):
    """An output cannot be written (a report, an export, standard output): the disk full,
    a read-only or missing folder. The message names it and says what to do."""


def output_error(error: BaseException, target: object) -> OutputError:
    """An operating system or DuckDB error writing `target` (a file or folder, or words
    such as "the output") as one line that says what to do."""
    text = str(error)
    lower = text.lower()
    code = error.errno if isinstance(error, OSError) else None
    if code in (errno.ENOSPC, errno.EDQUOT) or "no space left" in lower or "quota" in lower:
        return OutputError(f"cannot write {target}: no space left on the disk; free some space")
    if code == errno.EROFS or "read-only file system" in lower:
        return OutputError(
            f"cannot write {target} (read-only file system): give a place you can write"
        )
    if code in (errno.EACCES, errno.EPERM) or "permission denied" in lower:
        return OutputError(
            f"cannot write {target} (permission denied): give a place you can write, or fix "
            "its permissions"
        )
    if code == errno.ENOTDIR or "not a directory" in lower:
        return OutputError(f"cannot write {target}: a file stands where a folder should")
    if code == errno.EPIPE:
        return OutputError(f"cannot write {target}: the program reading it stopped")
    reason = error.strerror if isinstance(error, OSError) and error.strerror else text
    return OutputError(f"cannot write {target}: {reason.strip().split(chr(10), 1)[0]}")


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open (creating if needed) and migrate the database; `DatabaseBusy` if another
    process has it open for writing, `StoreError` if it cannot be used."""
    import duckdb

    try:
        connection = duckdb.connect(str(path), read_only=read_only)
    except (duckdb.Error, OSError) as error:
        raise store_error(error, path, reading=read_only) from None
    if read_only:
        _check_handlog(connection, path)
    if read_only and _older_schema(connection):
        # Written by an older handlog: upgraded once (a report, `show` or `export` would
        # otherwise ask it for columns it does not have yet), then read as asked.
        connection.close()
        try:
            connect(path).close()
        except DatabaseBusy:
            raise
        except StoreError as error:
            raise StoreError(
                f"{path} was written by an older handlog and must be upgraded before it is "
                f"read, which failed: {error}"
            ) from None
        try:
            connection = duckdb.connect(str(path), read_only=True)
        except (duckdb.Error, OSError) as again:
            raise store_error(again, path, reading=True) from None
    if not read_only:
        _check_handlog(connection, path, empty_ok=True)
        try:
            _migrate(connection)
        except (duckdb.Error, RuntimeError) as error:
            connection.close()
            if isinstance(error, duckdb.InterruptException) or "interrupted" in str(error):
                raise KeyboardInterrupt from None  # Ctrl-C, which DuckDB turns into an error
            raise store_error(error, path) from None
    return connection


def _check_handlog(
    connection: duckdb.DuckDBPyConnection, path: Path, empty_ok: bool = False
) -> None:
    """`StoreError` (the connection closed) unless the database holds handlog's hands
    table (or nothing, when `empty_ok`: a new database): a DuckDB file of another program
    is neither read nor written as one."""
    import duckdb

    try:
        tables: dict[str, set[str]] = {}
        # duckdb_columns(), not information_schema (the same rows, whose views DuckDB binds
        # on first use: some 0.01 s of every command that opens a database)
        for table, column in connection.execute(
            "SELECT table_name, column_name FROM duckdb_columns() "
            "WHERE schema_name = 'main' AND database_name = current_database()"
        ).fetchall():
            tables.setdefault(table, set()).add(column)
    except duckdb.Error as error:
        connection.close()
        raise store_error(error, path, reading=True) from None
    if not {"site", "hand_id", "game"} <= tables.get("hands", set()) and (tables or not empty_ok):
        connection.close()
        names = ", ".join(sorted(tables)[:4]) + (", ..." if len(tables) > 4 else "")
        what = f"tables of another program ({names})" if tables else "no tables"
        raise StoreError(
            f"{path} is not a handlog database (a DuckDB database with {what}): give --db "
            "the file handlog import wrote"
        )


def _older_schema(connection: duckdb.DuckDBPyConnection) -> bool:
    """Whether a handlog database's schema is older than this handlog's."""
    import duckdb

    try:
        # fetchall: a result left unfinished would hold the connection for what comes next
        rows = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    except duckdb.Error:
        return False  # no meta table: not a handlog database (yet), read as it is
    return bool(rows) and int(rows[0][0]) < SCHEMA_VERSION


def rollback(connection: duckdb.DuckDBPyConnection) -> None:
    """Roll back the open transaction, if any is still open: after a failed COMMIT DuckDB
    has none, and its "no transaction is active" must not hide the error that matters."""
    import duckdb

    with suppress(duckdb.Error):
        connection.execute("ROLLBACK")


def _migrate(connection: duckdb.DuckDBPyConnection) -> None:
    connection.execute("BEGIN TRANSACTION")
    try:
        exists = connection.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'meta' "
            "AND database_name = current_database()"
        ).fetchone()
        row = None
        if exists and exists[0]:
            row = connection.execute(
                "SELECT value FROM meta WHERE key = 'schema_version'"
            ).fetchone()
        # Tables that exist keep their old shape until the migrations below change it.
        connection.execute(SCHEMA)
        version = int(row[0]) if row else SCHEMA_VERSION
        while version < SCHEMA_VERSION:
            connection.execute(MIGRATIONS[version])
            version += 1
        connection.execute(
            "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(version)]
        )
        connection.execute("COMMIT")
    except BaseException:
        rollback(connection)
        raise


COLUMNS: dict[str, tuple[str, ...]] = {
    "hands": (
        "site", "hand_id", "game", "mixed_game", "currency", "small_bet", "big_bet", "ante",
        "bring_in", "tournament_id", "tournament_level", "buy_in", "home_game", "table_name",
        "max_seats", "start_time", "clock_text", "players", "total_pot", "rake", "status",
        "illegal", "mis_split", "file", "line", "end_line", "structure", "chips_in_hundredths",
        "inconsistent",
        "unit", "hero", "ev_all_in",
    ),
    "hand_players": (
        "site", "hand_id", "seat", "player", "stack", "sitting_out", "put_in", "collected",
        "net", "rake_share", "cards", "showdown", "won_high", "won_low", "dealt_in",
        "hole_shown", "ev_net",
    ),
    "actions": (
        "site", "hand_id", "seq", "street", "player", "kind", "amount", "to_amount", "all_in",
        "line",
    ),
    "pots": ("site", "hand_id", "pot", "amount", "eligible"),
    "awards": ("site", "hand_id", "player", "expected", "collected"),
    "violations": (
        "site", "hand_id", "seq", "code", "street", "player", "line", "message", "expected",
        "actual", "mis_split", "kind", "cause",
    ),
    "hand_evidence": ("site", "hand_id", "file", "line", "end_line", "text", "states"),
    "hand_texts": ("site", "hand_id", "block", "start", "length"),
    "equities": (
        "site", "hand_id", "pot", "player", "street", "amount", "equity", "expected", "won",
        "method", "error", "deals",
    ),
    "text_blocks": ("block", "size", "head", "data"),
    "parse_errors": ("file", "line", "hand_id", "message", "text", "raw"),
    "skipped": ("file", "line", "hand_id", "game"),
}  # fmt: skip
"""Each table's columns in the schema's order (rows are inserted with `SELECT *`)."""

RECORD_COLUMNS = {name: COLUMNS[name] for name in ("parse_errors", "skipped")}
"""Tables filled straight from a record's fields, in the tables' column order."""


class Batch:
    """Rows of many hands, column by column (a list per column), ready to become Arrow
    tables. Columns grow by whole hands with `extend`: a worker builds some 45 rows per hand,
    and a Python call per row and column would cost more than parsing the hand."""

    def __init__(self) -> None:
        self.columns: dict[str, dict[str, list[Any]]] = {
            name: {column: [] for column in columns} for name, columns in COLUMNS.items()
        }
        # The lists of the tables `add_checked` fills a hand at a time, in column order: read
        # once here, not looked up by name for every hand. The lists are the ones `columns`
        # holds, changed in place only (`extend`, and the import's `ingest._truncate` and
        # `_drop_hands`), never replaced.
        self.hands = tuple(self.columns["hands"].values())
        self.players = tuple(self.columns["hand_players"].values())
        self.actions = tuple(self.columns["actions"].values())
        self.pots = tuple(self.columns["pots"].values())
        self.awards = tuple(self.columns["awards"].values())
        # Each hand row's count of hand_players and actions rows, in the hands' order: from
        # them `arrow` makes those tables' hand_id (and the actions' seq) in Arrow from the
        # hands' own, not converted a row at a time. Only `add_checked` adds to them; rows
        # taken out of the lists (the import's `_truncate`, `_drop_hands`) or added another
        # way leave them not matching the rows, which `_runs` finds (then every value is
        # converted, as before).
        self.seat_counts: list[int] = []
        self.action_counts: list[int] = []

    def extend(self, other: Batch) -> None:
        """Add the rows of `other` (another file's, say) after these."""
        for name, columns in other.columns.items():
            mine = self.columns[name]
            for column, values in columns.items():
                if values:
                    mine[column].extend(values)
        self.seat_counts.extend(other.seat_counts)
        self.action_counts.extend(other.action_counts)

    def arrow(self) -> dict[str, Any]:
        """The rows as Arrow tables (they pickle as flat buffers between processes), of the
        columns' types in the schema (`arrow_schemas`)."""
        import pyarrow as pa

        schemas = arrow_schemas()
        tables: dict[str, Any] = {}
        for name, columns in self.columns.items():
            if not columns[COLUMNS[name][0]]:
                continue
            made: dict[str, Any] = {}
            if name in _RUN_TABLES and "hands" in tables:
                made = self._by_hand(name, tables["hands"].column("hand_id"))
            tables[name] = pa.table(
                {
                    column: made[column] if column in made else _arrow_column(values)
                    for column, values in columns.items()
                },
                schema=schemas[name],
            )
        return tables

    def _by_hand(self, name: str, hand_ids: Any) -> dict[str, Any]:
        """The columns of table `name` (hand_players or actions) that Arrow makes from each
        hand's count of rows (`seat_counts`, `action_counts`) when they match the rows: its
        hand_id, each hand's `hand_ids` (the hands table's column) repeated over its rows, and
        the actions' seq, 0 up in each hand. Converted a value at a time these cost 20-25 ns
        a row (measured, PokerStars: 0.8 and 0.6 us a hand), taken so 2-3. Empty when the
        counts do not match the rows (see `Batch.__init__`)."""
        import numpy as np
        import pyarrow as pa

        columns = self.columns[name]
        actions = name == "actions"
        counts = self.action_counts if actions else self.seat_counts
        if not _runs(counts, self.columns["hands"]["hand_id"], columns, actions):
            return {}
        sizes = np.array(counts, dtype=np.int64)
        made = {"hand_id": _repeated(hand_ids, sizes)}
        if actions:
            starts = np.cumsum(sizes) - sizes
            seq = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(starts, sizes)
            made["seq"] = pa.array(seq.astype(np.int32))
        return made

    def rows(self) -> dict[str, Rows]:
        """The rows as `Rows` of Python values, for `load` in this process: no pyarrow (nor
        NumPy) to import, which costs a small import more than converting its rows."""
        return {
            name: Rows(columns)
            for name, columns in self.columns.items()
            if columns[COLUMNS[name][0]]
        }


_ARROW_SCHEMAS: dict[str, Any] = {}


def arrow_schemas() -> dict[str, Any]:
    """Each table's Arrow schema, from the store's own DDL (`SCHEMA`, read by DuckDB once and
    kept in the user's cache folder, `_kept_schemas`): a `Batch`'s tables and the Dask
    engine's Parquet parts hold the store's types, whatever Python values they happened to
    have (all-NULL columns too), and pyarrow need not look through every value to infer
    them."""
    if not _ARROW_SCHEMAS:
        kept = _kept_schemas()
        if kept is None:
            kept = _derived_schemas()
            _keep_schemas(kept)
        _ARROW_SCHEMAS.update(kept)
    return _ARROW_SCHEMAS


def _derived_schemas() -> dict[str, Any]:
    """Each table's Arrow schema as DuckDB makes it of `SCHEMA` (some 35 ms: a database in
    memory, the DDL, a query a table)."""
    import duckdb

    schemas = {}
    connection = duckdb.connect()
    try:
        connection.execute("SET TimeZone = 'UTC'")
        connection.execute(SCHEMA)
        for name in COLUMNS:
            schemas[name] = connection.sql(f"SELECT * FROM {name} LIMIT 0").to_arrow_table().schema
    finally:
        connection.close()
    return schemas


def _schemas_path() -> Path | None:
    """Where `_keep_schemas` keeps the schemas: a file named by a hash of the DDL and the
    versions of DuckDB and pyarrow, which decide them; None without a cache folder."""
    import hashlib

    import pyarrow as pa

    from handlog.cachedir import cache_folder

    folder = cache_folder()
    if folder is None:
        return None
    key = hashlib.sha256(
        f"{SCHEMA}\n{COLUMNS}\n{_duckdb_version()}\n{pa.__version__}".encode()
    ).hexdigest()[:20]
    return folder / f"arrow-schemas-{key}.bin"


def _duckdb_version() -> str:
    """DuckDB's version (its package's, as `duckdb.__version__` says), read from the installed
    package's metadata when DuckDB is not imported yet: an import with workers forks them
    before it opens the database, and the workers never use DuckDB (importing it there, for
    its version alone, cost some 45 ms before the workers could start)."""
    import sys

    module = sys.modules.get("duckdb")
    if module is not None:
        return str(module.__version__)
    return _installed_version("duckdb")


def _installed_version(name: str) -> str:
    """The version of the installed distribution `name`, from the name of its metadata
    folder (`<name>-<version>.dist-info`, as pip installs it) beside the package: not
    `importlib.metadata`, whose import (email parsing and all) cost each import some 11 ms
    of CPU before the workers could start; it is asked when the folder is not one there."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is not None and spec.origin:
        folder = os.path.dirname(os.path.dirname(spec.origin))
        prefix = f"{name}-"
        with suppress(OSError):
            found = [
                entry[len(prefix) : -len(".dist-info")]
                for entry in os.listdir(folder)
                if entry.startswith(prefix) and entry.endswith(".dist-info")
            ]
            if len(found) == 1:
                return found[0]
    from importlib.metadata import version

    return version(name)


def _kept_schemas() -> dict[str, Any] | None:
    """The schemas a run before kept (`_keep_schemas`): each table's serialized Arrow schema
    after its length (8 bytes), in `COLUMNS` order; None when the file is missing or is not
    that (cut short, spoiled: read by pyarrow's own schema reader, never unpickled), or a
    table's columns are not `COLUMNS`'."""
    import pyarrow as pa

    path = _schemas_path()
    if path is None:
        return None
    try:
        data = path.read_bytes()
        schemas = {}
        at = 0
        for name in COLUMNS:
            size = int.from_bytes(data[at : at + 8], "little")
            schema = pa.ipc.read_schema(pa.py_buffer(data[at + 8 : at + 8 + size]))
            at += 8 + size
            if tuple(schema.names) != COLUMNS[name]:
                return None
            schemas[name] = schema
    except Exception:  # noqa: BLE001 - missing or unreadable (OSError), or not schemas (Arrow)
        return None
    return schemas if at == len(data) else None


def _keep_schemas(schemas: dict[str, Any]) -> None:
    """Keep the schemas for the next process (written to a name of its own, then renamed: a
    reader sees the old file or the new one). A folder that cannot be written only costs
    the next process their derivation."""
    path = _schemas_path()
    if path is None:
        return
    pieces = []
    for name in COLUMNS:
        serialized = schemas[name].serialize().to_pybytes()
        pieces.append(len(serialized).to_bytes(8, "little") + serialized)
    from handlog.cachedir import remove_others, write_whole

    data = b"".join(pieces)
    if write_whole(path, lambda handle: handle.write(data)):
        remove_others(path, "arrow-schemas-*.bin")


_RUN_TABLES = ("hand_players", "actions")
"""The tables `Batch._by_hand` makes columns of."""


def _repeated(strings: Any, sizes: Any) -> Any:
    """The strings of `strings` (a column of strings, none null: the hands' IDs) each
    repeated its count of `sizes` (NumPy integers) times, as one Arrow array, made from the
    column's buffers by NumPy: the strings as the rows of a byte matrix as wide as the
    longest (their bytes one slice of the buffer when they are all as long, the IDs of a
    site's hands mostly are), the rows repeated, and the bytes past each string's length
    dropped. Not `take`, which is `pyarrow.compute`'s: its import cost every import some
    30-40 ms of CPU before the workers could start (the first worker's tables are made before
    they fork), and no process of an import needs it otherwise."""
    import numpy as np
    import pyarrow as pa

    array = strings.chunk(0) if strings.num_chunks == 1 else pa.concat_arrays(strings.chunks)
    wide = pa.types.is_large_string(array.type)
    count = int(sizes.sum())
    if array.null_count or not (wide or pa.types.is_string(array.type)):
        return _taken(strings, sizes)  # never met: the hands' IDs are strings, none null
    kind = np.int64 if wide else np.int32
    _, offsets_buffer, data_buffer = array.buffers()
    offsets = np.frombuffer(offsets_buffer, dtype=kind)[
        array.offset : array.offset + len(array) + 1
    ]
    data = np.frombuffer(data_buffer or b"", dtype=np.uint8)
    lengths = np.diff(offsets).astype(np.int64)
    width = int(lengths.max()) if len(lengths) else 0
    if count * width >= 1 << 31 and not wide:  # too big for one array: Arrow chunks it
        return _taken(strings, sizes)
    if bool((lengths == width).all()):  # one slice of the buffer, its rows repeated
        first = int(offsets[0])
        rows = data[first : first + len(lengths) * width].reshape(len(lengths), width)
        gathered = np.repeat(rows, sizes, axis=0).ravel()
        out_offsets = np.arange(count + 1, dtype=np.int64) * width
    else:
        repeated = np.repeat(lengths, sizes)
        columns = np.arange(width, dtype=np.int64)
        at = np.minimum(offsets[:-1].astype(np.int64)[:, np.newaxis] + columns, len(data) - 1)
        gathered = np.repeat(data[at], sizes, axis=0)[columns < repeated[:, np.newaxis]]
        out_offsets = np.concatenate((np.zeros(1, dtype=np.int64), np.cumsum(repeated)))
    return pa.Array.from_buffers(
        array.type,
        count,
        [None, pa.py_buffer(out_offsets.astype(kind)), pa.py_buffer(gathered)],
    )


def _taken(strings: Any, sizes: Any) -> Any:
    """`_repeated` by `take` (`pyarrow.compute`), for a column it does not build itself."""
    import numpy as np
    import pyarrow as pa

    return strings.take(pa.array(np.repeat(np.arange(len(sizes)), sizes)))


def _runs(
    counts: list[int], hand_ids: list[Any], columns: dict[str, list[Any]], actions: bool
) -> bool:
    """Whether `counts` are the rows of each hand (`hand_ids`, the hands table's) in
    `columns` (a table's): one count a hand, adding up to the rows, and each hand's first
    and last rows (of those it has) that hand's, numbered 0 to its count less one
    (`actions`: its seq)."""
    table_ids = columns["hand_id"]
    if len(counts) != len(hand_ids) or sum(counts) != len(table_ids):
        return False
    seq = columns["seq"] if actions else []
    at = 0
    for index, count in enumerate(counts):
        if count:
            hand_id = hand_ids[index]
            last = at + count - 1
            if table_ids[at] != hand_id or table_ids[last] != hand_id:
                return False
            if actions and (seq[at] != 0 or seq[last] != count - 1):
                return False
            at += count
    return True


def _arrow_column(values: list[Any]) -> Any:
    """A column's values for `pyarrow.table`: as they are, or, when they are one string
    throughout (every row's site, a file's hands' file and game), that string repeated by
    Arrow itself (`pyarrow.repeat`), not converted a row at a time: the actions' site
    column alone cost 1.6 us a hand, a twelfth of the conversion (measured, PokerStars).
    The last value is looked at first: a column of many values (hand IDs, players) is not
    scanned at all."""
    first = values[0] if values else None
    if type(first) is str and values[-1] == first and values.count(first) == len(values):
        import pyarrow as pa

        return pa.repeat(first, len(values))
    return values


class Rows:
    """A table's rows as Python values, a list per column (a `Batch`'s): what `load`,
    `register` and `column_values` take in place of an Arrow table."""

    def __init__(self, columns: dict[str, list[Any]]) -> None:
        self.columns = columns
        self.num_rows = len(next(iter(columns.values()), []))
        self._select = ""

    def unnest(self) -> str:
        """The select list that reads the rows from one list parameter per column
        (`$1`, `$2`, ... in column order), made once: `register` and `load` both use it."""
        if not self._select:
            self._select = ", ".join(
                f"unnest(${number}) AS {name}" for number, name in enumerate(self.columns, 1)
            )
        return self._select

    def select(self, names: list[str]) -> Rows:
        return Rows({name: self.columns[name] for name in names})


def register(connection: duckdb.DuckDBPyConnection, view: str, table: Any) -> None:
    """Make `table` (an Arrow table or `Rows`) readable as `view` until `unregister`. `Rows`
    become a temporary table, made in one statement from one list parameter per column."""
    if isinstance(table, Rows):
        connection.execute(
            f"CREATE OR REPLACE TEMP TABLE {view} AS SELECT {table.unnest()}",
            list(table.columns.values()),
        )
    else:
        connection.register(view, table)


def unregister(connection: duckdb.DuckDBPyConnection, view: str, table: Any) -> None:
    """Forget what `register` made `view`."""
    if isinstance(table, Rows):
        connection.execute(f"DROP TABLE IF EXISTS temp.{view}")
    else:
        connection.unregister(view)


def column_values(table: Any, name: str) -> list[Any]:
    """A column of an Arrow table or of `Rows` as a list of Python values."""
    if isinstance(table, Rows):
        return table.columns[name]
    return table.column(name).to_pylist()  # type: ignore[no-any-return]


# Final: compiled, each is a C global read directly, not looked up in the module's namespace
# (a dict lookup of its name) every time it is used (twice an action).
_STREET_NAMES: Final = {street: street.name.lower() for street in Street}
_KIND_NAMES: Final = {kind: kind.value for kind in ActionKind}
# An enum's `value` is a Python property (some 0.15 us a read); these are dict lookups.
_SITE_NAMES: Final = {site: site.value for site in Site}
_GAME_NAMES: Final = {game: game.value for game in Game}
_STRUCTURE_NAMES: Final = {structure: structure.value for structure in Structure}
_CARD_TEXT: Final[dict[Card | None, str]] = {card: str(card) for card in DECK} | {None: "??"}


def _cards_text(row: list[Card | None] | None) -> str | None:
    """A player's cards in deal order, "??" for a card never seen; None when none was."""
    if row is not None:
        for card in row:
            if card is not None:
                return " ".join([_CARD_TEXT[seen] for seen in row])
    return None


def _append_row(table: dict[str, list[Any]], row: tuple[Any, ...]) -> None:
    """`row` added to a table of `Batch.columns` (a row of a rarer table: an error, a skip,
    a violation)."""
    _append_values(tuple(table.values()), row)


def _append_values(columns: tuple[list[Any], ...], row: tuple[Any, ...]) -> None:
    """`row` added to a table's lists in column order (`Batch.hands`): compiled, an indexed
    loop, with no iterators to step through together."""
    if len(row) != len(columns):
        raise ValueError(f"a row of {len(row)} values for {len(columns)} columns")
    for index in range(len(columns)):
        columns[index].append(row[index])


def add_checked(batch: Batch, checked: CheckedHand) -> None:
    """Add one checked hand's rows (or its parse error, or its skip) to `batch`."""
    if checked.error is not None:
        error = checked.error
        _append_row(
            batch.columns["parse_errors"],
            (
                error.file,
                error.line,
                excerpt(error.hand_id, MAX_LINE_STORED),
                excerpt(error.message, MAX_LINE_STORED),
                excerpt(error.text, MAX_LINE_STORED),
                excerpt(error.raw, MAX_RAW_STORED),
            ),
        )
        return
    if checked.skipped is not None:
        _add_record(batch, "skipped", checked.skipped)
        return
    hand, result = checked.hand, checked.replay
    assert hand is not None and result is not None
    site, hand_id = _SITE_NAMES[hand.site], hand.hand_id
    tables = batch.columns
    source = hand.source
    violations = result.violations
    found = holdings(hand)  # one pass over the events for every table below
    dealt, shown_down, hero = found.dealt, found.shown_down, found.hero
    seats = hand.seats

    # hand_players: one row per seat, appended seat by seat (compiled, a direct append to
    # each column's list: no list made per column and hand, extended and freed)
    put_in, collected, net = result.put_in, result.collected, result.net
    shares = rake_shares(collected, hand.rake)
    slots = found.slots
    showed = found.showed
    won_high, won_low = result.won_high, result.won_low
    (
        p_site, p_hand_id, p_seat, p_player, p_stack, p_sitting_out, p_put_in, p_collected,
        p_net, p_rake_share, p_cards, p_showdown, p_won_high, p_won_low, p_dealt_in,
        p_hole_shown, p_ev_net,
    ) = batch.players  # fmt: skip
    players_in = 0
    for seat in seats:
        name = seat.name
        p_site.append(site)
        p_hand_id.append(hand_id)
        p_seat.append(seat.number)
        p_player.append(name)
        p_stack.append(seat.stack)
        p_sitting_out.append(seat.sitting_out)
        p_put_in.append(put_in.get(name, 0))
        p_collected.append(collected.get(name, 0))
        chips = net.get(name, 0)
        p_net.append(chips)
        p_rake_share.append(shares.get(name, 0))
        p_cards.append(_cards_text(slots.get(name)))
        p_showdown.append(name in showed)
        p_won_high.append(name in won_high)
        p_won_low.append(name in won_low)
        is_in = name in dealt
        players_in += is_in
        p_dealt_in.append(is_in)
        p_hole_shown.append(name in shown_down)
        p_ev_net.append(chips)  # the net until an all-in says otherwise (`add_ev`)
    batch.seat_counts.append(len(seats))

    _append_values(
        batch.hands,
        (
            site,
            hand_id,
            _GAME_NAMES[hand.game],
            hand.mixed_game,
            hand.currency,
            hand.small_bet,
            hand.big_bet,
            hand.ante,
            hand.bring_in,
            hand.tournament_id,
            hand.tournament_level,
            hand.buy_in,
            hand.home_game,
            hand.table,
            hand.max_seats,
            hand.start_time,
            hand.clock_text,
            players_in,
            hand.total_pot,
            hand.rake,
            "flagged" if violations else "ok",
            result.illegal,
            result.mis_split,
            checked.file,
            source.line if source else None,
            source.end_line if source else None,
            _STRUCTURE_NAMES[hand.structure],
            hand.chips_in_hundredths,
            result.inconsistent,
            unit_of(hand.currency, hand.tournament_id is not None, hand.chips_in_hundredths),
            hero,
            None,  # ev_all_in: not computed (`handlog.equity.stored.add_ev` computes it)
        ),
    )

    # actions: every action line, in order, appended action by action
    acts = found.actions
    (
        a_site, a_hand_id, a_seq, a_street, a_player, a_kind, a_amount, a_to_amount, a_all_in,
        a_line,
    ) = batch.actions  # fmt: skip
    for number, act in enumerate(acts):
        a_site.append(site)
        a_hand_id.append(hand_id)
        a_seq.append(number)
        a_street.append(_STREET_NAMES[act.street])
        a_player.append(act.player)
        a_kind.append(_KIND_NAMES[act.kind])
        a_amount.append(act.amount)
        a_to_amount.append(act.to_amount)
        a_all_in.append(act.all_in)
        a_line.append(act.line)
    batch.action_counts.append(len(acts))

    pots = result.pots
    if pots:
        o_site, o_hand_id, o_pot, o_amount, o_eligible = batch.pots
        for number, pot in enumerate(pots):
            o_site.append(site)
            o_hand_id.append(hand_id)
            o_pot.append(number)
            o_amount.append(pot.amount)
            o_eligible.append(list(pot.eligible))
    expected = result.expected_collect
    w_site, w_hand_id, w_player, w_expected, w_collected = batch.awards
    for player in sorted(set(expected) | {p for p, v in collected.items() if v}):
        w_site.append(site)
        w_hand_id.append(hand_id)
        w_player.append(player)
        w_expected.append(expected.get(player, 0))
        w_collected.append(collected.get(player, 0))
    for seq, violation in enumerate(violations):
        _append_row(
            tables["violations"],
            (
                site,
                hand_id,
                seq,
                violation.code,
                _STREET_NAMES[violation.street] if violation.street is not None else None,
                violation.player,
                violation.line,
                violation.message,
                violation.expected,
                violation.actual,
                violation.mis_split,
                violation.kind.value,
                violation.cause,
            ),
        )


MAX_RAW_STORED = 1 << 16
"""The most characters of a hand's (or a stretch of text's) raw text kept in `parse_errors`:
a real hand is some 2,000; a file of one 50 MB line must not become a 50 MB value (it cannot
be loaded within the import's memory limit, and nobody reads it)."""
MAX_LINE_STORED = 1_000
"""The most characters kept of an offending line, a message or a hand ID."""


def excerpt(text: str | None, limit: int) -> str | None:
    """`text`, or its first `limit` characters and a line saying it was cut and how long it
    was (the whole text stays in the file, at the line stored beside it)."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]}\n[cut by handlog: {len(text):,} characters, the first {limit:,} kept]"


def _add_record(batch: Batch, table: str, item: object) -> None:
    _append_row(batch.columns[table], tuple(getattr(item, column) for column in COLUMNS[table]))


def rake_shares(collected: dict[str, int], rake: int) -> dict[str, int]:
    """The rake charged to each winner, in proportion to what they collected; the shares
    add up to the rake exactly (the remainder goes to the biggest winners first)."""
    if rake <= 0:
        return {}
    winners = [(v, p) for p, v in collected.items() if v > 0]
    if len(winners) <= 1:  # most hands: one winner pays it all (or nobody collected)
        return {p: rake for _, p in winners}
    winners.sort(reverse=True)
    total = sum(v for v, _ in winners)
    shares = {p: rake * v // total for v, p in winners}
    for _, player in winners[: rake - sum(shares.values())]:
        shares[player] += 1
    return shares


def _stored_of(batch: str) -> str:
    """The stored hands (site, hand_id) that the relation `batch` (a view, or a CTE) holds.
    Read from the stored side with the batch as the join's build side, DuckDB filters the
    scan of `hands` by the batch's least and greatest site and ID (its join filters) and
    skips the row groups outside them, where an anti-join of the batch against `hands` read
    every stored hand's key for each batch loaded: a new session's hands, numbered after
    every stored one, are looked for in the last row group or two. Measured, 3,500 hands
    against 1,000,000 stored: 24-25 ms -> 2.7 (a new database: 1.3 -> 1.9)."""
    return (
        "SELECT h.site, h.hand_id FROM hands h "
        f"SEMI JOIN {batch} b ON h.site = b.site AND h.hand_id = b.hand_id"
    )


def _new_count(batch: str) -> str:
    """The query of how many of the hands of the relation `batch` are not stored yet (each
    counted once, if the batch repeats one)."""
    return (
        f"SELECT (SELECT count(*) FROM (SELECT DISTINCT site, hand_id FROM {batch})) "
        f"- (SELECT count(*) FROM ({_stored_of(batch)}))"
    )


def load(connection: duckdb.DuckDBPyConnection, tables: dict[str, Any]) -> int:
    """Insert Arrow tables (`Batch.arrow()`, or `Batch.rows()`) inside the caller's
    transaction; hands already stored are left as they are. Returns the number of new hands."""
    hands = tables.get("hands")
    if isinstance(hands, Rows):
        new = _new_rows_loaded(connection, tables, hands)
        if new is not None:
            return new
    new = 0
    if hands is not None:
        register(connection, "batch_hands", hands)
        # How many hands of this batch were not stored before (each once, if a batch repeats
        # one). Usually every one, each there once: then every row goes in as it is, with no
        # join to find the rows of new hands, no pass to drop repeats, and no table of the
        # new hands made (3-4 ms a load, some 1.5 us a hand of an import: measured, 20,000
        # PokerStars hands in ten-hand files).
        new = connection.execute(_new_count("batch_hands")).fetchall()[0][0]
        all_new = new == hands.num_rows
        if not all_new:  # which they are (`importer._new_by_file` reads them too)
            connection.execute(
                "CREATE OR REPLACE TEMP TABLE new_hands AS "
                "SELECT DISTINCT site, hand_id FROM batch_hands "
                f"EXCEPT {_stored_of('batch_hands')}"
            )
        for name in TABLES:
            table = tables.get(name)
            if table is None:
                continue
            view = f"batch_{name}"
            if name != "hands":
                register(connection, view, table)
            if all_new:
                connection.execute(f"INSERT INTO {name} SELECT * FROM {view}")
            else:
                connection.execute(f"""
                    INSERT INTO {name} SELECT b.* FROM {view} b
                    SEMI JOIN new_hands n ON n.site = b.site AND n.hand_id = b.hand_id
                    QUALIFY row_number() OVER (PARTITION BY {_key(name)}) = 1""")
            unregister(connection, view, table)
        blocks = tables.get("text_blocks")
        if blocks is not None:
            # A block of texts goes in with its hands: unless one of them is new, it is not.
            register(connection, "batch_text_blocks", blocks)
            if all_new:
                connection.execute("INSERT INTO text_blocks SELECT * FROM batch_text_blocks")
            elif "hand_texts" in tables:
                register(connection, "batch_block_hands", tables["hand_texts"])
                connection.execute("""
                    INSERT INTO text_blocks SELECT b.* FROM batch_text_blocks b
                    WHERE b.block IN (
                        SELECT t.block FROM batch_block_hands t
                        SEMI JOIN new_hands n ON n.site = t.site AND n.hand_id = t.hand_id)""")
                unregister(connection, "batch_block_hands", tables["hand_texts"])
            unregister(connection, "batch_text_blocks", blocks)
    for name in ("parse_errors", "skipped"):
        table = tables.get(name)
        if table is not None:
            register(connection, "batch_rows", table)
            connection.execute(f"INSERT OR REPLACE INTO {name} SELECT * FROM batch_rows")
            unregister(connection, "batch_rows", table)
    return int(new)


def _new_rows_loaded(
    connection: duckdb.DuckDBPyConnection, tables: dict[str, Any], hands: Rows
) -> int | None:
    """`load` of `Rows` whose hands are all new, each once (as a new file's are): every row
    inserted from its column lists, with no temporary tables; None (nothing done) otherwise."""
    found = connection.execute(
        "WITH batch AS (SELECT unnest($1) AS site, unnest($2) AS hand_id) " + _new_count("batch"),
        [hands.columns["site"], hands.columns["hand_id"]],
    ).fetchall()
    new = int(found[0][0])
    if new != hands.num_rows:
        return None
    for name, table in tables.items():
        if isinstance(table, Rows):
            verb = "INSERT OR REPLACE" if name in RECORD_COLUMNS else "INSERT"
            connection.execute(
                f"{verb} INTO {name} SELECT {table.unnest()}", list(table.columns.values())
            )
    return new


def _key(table: str) -> str:
    return {
        "hands": "b.site, b.hand_id",
        "hand_players": "b.site, b.hand_id, b.player",
        "actions": "b.site, b.hand_id, b.seq",
        "pots": "b.site, b.hand_id, b.pot",
        "awards": "b.site, b.hand_id, b.player",
        "violations": "b.site, b.hand_id, b.seq",
        "hand_evidence": "b.site, b.hand_id",
        "hand_texts": "b.site, b.hand_id",
        "equities": "b.site, b.hand_id, b.pot, b.player",
    }[table]


def counts(connection: duckdb.DuckDBPyConnection, tables: Iterable[str] = TABLES) -> dict[str, int]:
    return {t: connection.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}  # type: ignore[index]
