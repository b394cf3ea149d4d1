"""All-in EV for the store: each checked hand's equities and EV-adjusted nets as rows
(`add_ev`, called by the import's workers right after `store.add_checked`; the hands that may
have an all-in are computed once their range is read, `add_pending_ev`), and `handlog ev`
for the hands of a database imported before (`compute_stored`: incremental, resumable).

What is stored (schema 9): per hand `hands.ev_all_in` (TRUE: an all-in with cards to come
whose live cards are known by the end, its equities computed; FALSE: none; NULL: not computed
yet), per player `hand_players.ev_net` (never NULL: the net unless the hand had an all-in),
and per hand, pot and player a row of `equities`. Only the hands `may_have_all_in` selects
from their replay are traced (a few percent); for the others nothing is done beyond saying
so.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from handlog.equity.hands import HandEv, hand_ev, may_have_all_in
from handlog.rules.profiles import RuleProfile

if TYPE_CHECKING:
    from pathlib import Path

    import duckdb

    from handlog.check import CheckedHand
    from handlog.model import Hand
    from handlog.rules.tables import Replay
    from handlog.store import Batch

CHUNK = 2_000
"""Hands `compute_stored` reads, computes and commits together: an interrupted run keeps
every chunk committed before, and the next run goes on from there."""


def hand_ev_of(hand: Hand, replay: Replay, profile: RuleProfile | None = None) -> HandEv | None:
    """The hand's all-in EV, replayed under `profile` (default: its own, `check.hand_rules`),
    or None when its replay allows no all-in with cards to come (most hands: not traced)."""
    if not may_have_all_in(replay):
        return None
    from handlog.check import hand_rules

    house, traits = hand_rules(hand)
    return hand_ev(hand, profile or house, traits, replay)


PendingEv = tuple["Hand", "Replay", int, int]
"""A hand whose all-in EV `add_ev` left to `add_pending_ev`: the hand, its replay, the index
of its row in the batch's `hands` and of its first row in `hand_players`."""


def add_ev(
    batch: Batch,
    checked: CheckedHand,
    profile: RuleProfile | None = None,
    pending: list[PendingEv] | None = None,
) -> None:
    """Complete the rows `store.add_checked` has just added to `batch` for `checked` with its
    all-in EV: `hands.ev_all_in`, each player's `ev_net`, its `equities` rows. `profile`: the
    rules the hand was checked under, if not its own. A hand that could not be read adds
    nothing (it has no rows). With `pending`, a hand that may have an all-in is put there
    for `add_pending_ev`, which computes the EV of a range's hands together once it is read
    (measured, a sampled spot's NumPy arrays between two hands pushed the parser's and the
    replay's data out of the caches: 10,000 replicated Winamax hands, one in five a sampled
    all-in, read in 3.3-3.8 CPU s with each EV computed in its turn, 2.7-2.9 together)."""
    hand, replay = checked.hand, checked.replay
    if hand is None or replay is None:
        return
    if pending is None:
        fill_rows(batch, hand, hand_ev_of(hand, replay, profile))
    elif may_have_all_in(replay):
        tables = batch.columns
        first = len(tables["hand_players"]["ev_net"]) - len(hand.seats)
        pending.append((hand, replay, len(tables["hands"]["ev_all_in"]) - 1, first))
    else:
        fill_rows(batch, hand, None)


def add_pending_ev(
    batch: Batch, pending: list[PendingEv], profile: RuleProfile | None = None
) -> None:
    """Compute the EV of the hands `add_ev` left in `pending` (their rows still where they
    were added to `batch`) and complete their rows; `pending` is emptied."""
    for hand, replay, row, first in pending:
        fill_rows(batch, hand, hand_ev_of(hand, replay, profile), row, first)
    pending.clear()


def fill_rows(
    batch: Batch, hand: Hand, found: HandEv | None, row: int = -1, first: int | None = None
) -> None:
    """Set the EV columns of the hand's rows (its row in `hands` at `row`, its first row in
    `hand_players` at `first`; by default the last added to `batch`), and add its
    `equities` rows."""
    tables = batch.columns
    spot = found.all_in if found is not None else None
    computed = found is not None and spot is not None and spot.equities is not None
    tables["hands"]["ev_all_in"][row] = computed
    if not computed:
        return
    assert found is not None and spot is not None and spot.equities is not None
    ev = {net.player: net.ev_net_units for net in found.nets}
    column = tables["hand_players"]["ev_net"]
    names = [seat.name for seat in hand.seats]
    if first is None:
        first = len(column) - len(names)
    for index, name in enumerate(names):
        if name in ev:
            column[first + index] = ev[name]
    add_equities(tables["equities"], hand, found)


def add_equities(rows: dict[str, list[Any]], hand: Hand, found: HandEv) -> None:
    """The hand's `equities` rows (column by column, `store.COLUMNS["equities"]`): one per
    pot and eligible player at the all-in, with what the rules paid them from it."""
    spot = found.all_in
    assert spot is not None and spot.equities is not None
    found_equities = spot.equities
    paid = found.pot_shares
    street = spot.street.name.lower()
    method = found_equities.method.value
    for share in found_equities.shares:
        won = paid[share.pot].get(share.player, 0) if share.pot < len(paid) else 0
        rows["site"].append(hand.site.value)
        rows["hand_id"].append(hand.hand_id)
        rows["pot"].append(share.pot)
        rows["player"].append(share.player)
        rows["street"].append(street)
        rows["amount"].append(share.amount)
        rows["equity"].append(share.equity)
        rows["expected"].append(float(share.expected))
        rows["won"].append(won)
        rows["method"].append(method)
        rows["error"].append(share.error)
        rows["deals"].append(found_equities.deals)


# -- handlog ev: a database imported before ------------------------------------------------


@dataclass
class EvSummary:
    """What `compute_stored` did."""

    hands: int = 0
    """Hands computed (each now has `ev_all_in` TRUE or FALSE)."""
    all_in: int = 0
    """Of them, hands with an all-in whose equities were computed."""
    traced: int = 0
    """Hands traced (their replay allowed an all-in)."""
    left: int = 0
    """Hands left without EV: their text not stored (imported before handlog kept it) or
    not readable again by today's parser; `reasons` counts why."""
    reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


CANDIDATES_SQL = """
    SELECT h.site, h.hand_id FROM hands h
    WHERE h.ev_all_in IS NULL
    AND EXISTS (SELECT 1 FROM pots p WHERE p.site = h.site AND p.hand_id = h.hand_id
                AND len(p.eligible) >= 2)
    AND EXISTS (SELECT 1 FROM hand_players q WHERE q.site = h.site AND q.hand_id = h.hand_id
                AND q.put_in > 0 AND (q.stack IS NULL OR q.put_in >= q.stack))
    ORDER BY h.site, h.hand_id"""
"""Hands not computed yet whose stored rows allow an all-in: two players or more eligible
for a pot, one with everything they had in it (what `may_have_all_in` asks of the replay
first; it is asked again of each hand read back)."""

NONE_SQL = """
    UPDATE hands SET ev_all_in = false WHERE ev_all_in IS NULL
    AND NOT (
        EXISTS (SELECT 1 FROM pots p WHERE p.site = hands.site AND p.hand_id = hands.hand_id
                AND len(p.eligible) >= 2)
        AND EXISTS (SELECT 1 FROM hand_players q WHERE q.site = hands.site
                    AND q.hand_id = hands.hand_id AND q.put_in > 0
                    AND (q.stack IS NULL OR q.put_in >= q.stack)))"""
"""The other hands not computed yet: no all-in, their ev_net already their net."""


def compute_stored(
    connection: duckdb.DuckDBPyConnection,
    workers: int = 1,
    on_chunk: Callable[[int, int], None] | None = None,
    pause: Callable[[], None] | None = None,
    resume: Callable[[], None] | None = None,
    pool: Any = None,
) -> EvSummary:
    """Compute the all-in EV of every stored hand not computed yet (`hands.ev_all_in` NULL),
    reading each candidate's stored text again (`texts.reread`), replaying it under its own
    rules and storing its rows, `CHUNK` hands a transaction. `on_chunk(done, total)` after
    each. `pool`: an executor (processes forked before the database was opened) to compute
    chunks in."""
    import time

    started = time.perf_counter()
    summary = EvSummary()
    candidates = [
        (str(site), str(hand_id)) for site, hand_id in connection.execute(CANDIDATES_SQL).fetchall()
    ]
    connection.execute("BEGIN TRANSACTION")
    try:
        cursor = connection.execute(NONE_SQL)
        summary.hands += int(_changed(cursor))
        connection.execute("COMMIT")
    except BaseException:
        from handlog.store import rollback

        rollback(connection)
        raise
    total = len(candidates)
    chunks = [candidates[i : i + CHUNK] for i in range(0, total, CHUNK)]
    done = 0
    if on_chunk is not None:
        on_chunk(done, total)
    for keys, result in _computed(connection, chunks, pool):
        tables, computed, all_in, traced, reasons = result
        if resume is not None:
            resume()
        try:
            _store_chunk(connection, tables, computed)
        finally:
            if pause is not None:
                pause()
        summary.hands += len(computed)
        summary.all_in += all_in
        summary.traced += traced
        for reason, count in reasons.items():
            summary.reasons[reason] = summary.reasons.get(reason, 0) + count
        summary.left += len(keys) - len(computed)
        done += len(keys)
        if on_chunk is not None:
            on_chunk(done, total)
    if summary.hands:
        from handlog.summarized import remake

        remake(connection)  # the server's summaries hold these hands' EV nets as they were
    summary.seconds = time.perf_counter() - started
    return summary


def _changed(cursor: Any) -> int:
    rows = cursor.fetchall()
    return int(rows[0][0]) if rows and rows[0] else 0


ChunkResult = tuple[dict[str, Any], list[tuple[str, str]], int, int, dict[str, int]]


def _computed(
    connection: duckdb.DuckDBPyConnection, chunks: list[list[tuple[str, str]]], pool: Any
) -> Iterator[tuple[list[tuple[str, str]], ChunkResult]]:
    """Each chunk with its rows, computed here or in `pool` (texts read here, one chunk
    ahead of the workers)."""
    from collections import deque

    from handlog.texts import load_texts

    def texts_of(keys: list[tuple[str, str]]) -> list[tuple[tuple[str, str], Any]]:
        found = load_texts(connection, keys)
        return [(key, found.get(key)) for key in keys]

    if pool is None:
        for keys in chunks:
            yield keys, compute_chunk(texts_of(keys))
        return
    pending: deque[tuple[list[tuple[str, str]], Any]] = deque()
    width = 2 * max(1, getattr(pool, "_max_workers", 1))
    queue = iter(chunks)
    for keys in queue:
        pending.append((keys, pool.submit(compute_chunk, texts_of(keys))))
        if len(pending) >= width:
            break
    while pending:
        keys, future = pending.popleft()
        following = next(queue, None)
        if following is not None:
            pending.append((following, pool.submit(compute_chunk, texts_of(following))))
        yield keys, future.result()


def compute_chunk(texts: list[tuple[tuple[str, str], Any]]) -> ChunkResult:
    """In a worker (or here): the EV rows of stored hands read again from their texts
    (`texts.StoredText`, None when not stored): the `hands` EV column, `hand_players` EV
    nets and `equities` rows as Arrow tables, the keys computed, the all-ins, the hands
    traced and why the others were left."""
    import pyarrow as pa

    from handlog.check import hand_rules
    from handlog.rules.replay import replay
    from handlog.store import COLUMNS
    from handlog.texts import reread

    hands: dict[str, list[Any]] = {"site": [], "hand_id": [], "ev_all_in": []}
    players: dict[str, list[Any]] = {"site": [], "hand_id": [], "player": [], "ev_net": []}
    equities: dict[str, list[Any]] = {name: [] for name in COLUMNS["equities"]}
    computed: list[tuple[str, str]] = []
    reasons: dict[str, int] = {}
    all_in = traced = 0

    for key, stored in texts:
        if stored is None:
            reason = "text not stored (imported before handlog kept every hand's)"
            reasons[reason] = reasons.get(reason, 0) + 1
            continue
        hand, problem = reread(stored)
        if hand is None:
            reason = "text not readable again"
            reasons[reason] = reasons.get(reason, 0) + 1
            continue
        profile, traits = hand_rules(hand)
        result = replay(hand, profile, traits)
        found = hand_ev(hand, profile, traits, result) if may_have_all_in(result) else None
        traced += found is not None
        spot = found.all_in if found is not None else None
        has = found is not None and spot is not None and spot.equities is not None
        computed.append(key)
        hands["site"].append(key[0])
        hands["hand_id"].append(key[1])
        hands["ev_all_in"].append(has)
        if has:
            assert found is not None
            all_in += 1
            for net in found.nets:
                players["site"].append(key[0])
                players["hand_id"].append(key[1])
                players["player"].append(net.player)
                players["ev_net"].append(net.ev_net_units)
            add_equities(equities, hand, found)
    types = {
        "site": pa.string(), "hand_id": pa.string(), "player": pa.string(),
        "ev_all_in": pa.bool_(), "ev_net": pa.int64(), "pot": pa.int32(),
        "street": pa.string(), "amount": pa.int64(), "equity": pa.float64(),
        "expected": pa.float64(), "won": pa.int64(), "method": pa.string(),
        "error": pa.float64(), "deals": pa.int64(),
    }  # fmt: skip
    tables = {
        name: pa.table({k: pa.array(v, types[k]) for k, v in rows.items()})
        for name, rows in (("hands", hands), ("hand_players", players), ("equities", equities))
    }
    return tables, computed, all_in, traced, reasons


def _store_chunk(
    connection: duckdb.DuckDBPyConnection, tables: dict[str, Any], computed: list[tuple[str, str]]
) -> None:
    """One chunk's rows in one transaction: the equities replace any stored before."""
    from handlog.store import rollback

    if not computed:
        return
    connection.execute("BEGIN TRANSACTION")
    try:
        connection.register("ev_hands", tables["hands"])
        connection.register("ev_players", tables["hand_players"])
        connection.register("ev_equities", tables["equities"])
        connection.execute(
            "DELETE FROM equities e USING ev_hands h "
            "WHERE e.site = h.site AND e.hand_id = h.hand_id"
        )
        connection.execute("INSERT INTO equities SELECT * FROM ev_equities")
        connection.execute(
            "UPDATE hand_players SET ev_net = p.ev_net FROM ev_players p "
            "WHERE hand_players.site = p.site AND hand_players.hand_id = p.hand_id "
            "AND hand_players.player = p.player"
        )
        connection.execute(
            "UPDATE hands SET ev_all_in = h.ev_all_in FROM ev_hands h "
            "WHERE hands.site = h.site AND hands.hand_id = h.hand_id"
        )
        connection.execute("COMMIT")
    except BaseException:
        rollback(connection)
        raise
    finally:
        for name in ("ev_hands", "ev_players", "ev_equities"):
            connection.unregister(name)


def compute_database(
    db_path: Path,
    workers: int | None = None,
    on_chunk: Callable[[int, int], None] | None = None,
) -> EvSummary:
    """`compute_stored` on the database at `db_path`, holding it as an import does (a report
    may read a copy between chunks); worker processes (default: one per core) are started
    before the database is opened."""
    from concurrent.futures import ProcessPoolExecutor

    from handlog import store
    from handlog.snapshot import ImportLock

    count = workers or os.cpu_count() or 1
    pool = ProcessPoolExecutor(max_workers=count) if count > 1 else None
    try:
        if pool is not None:
            pool.submit(os.getpid).result()  # forked now, before the database is open
        lock = ImportLock(db_path)
        try:
            connection = store.connect(db_path)
        except BaseException:
            lock.close(opened=False)
            raise
        try:
            lock.pause()
            return compute_stored(connection, count, on_chunk, lock.pause, lock.resume, pool)
        finally:
            lock.resume()
            connection.close()
            lock.close()
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
