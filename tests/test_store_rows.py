"""A batch's Arrow tables hold, column by column, exactly the rows a plain row-by-row reading
of each checked hand gives (`_reference`, written here from the records alone): whatever
`store.add_checked` and `Batch.arrow` do to be quick (columns appended a seat and an action at
a time, hand IDs and action numbers made by Arrow from each hand's count of rows), DuckDB
must see the same tables. Every site's fixtures, the sample logs and the shared corpus of
real exports (flagged hands, an unreadable one), alone and as the import's workers change
their batches (rows taken out, batches joined)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from handlog import ingest, store
from handlog.check import CheckedHand, check_file
from handlog.holdings import holdings
from handlog.model import Action, ActionKind
from handlog.units import unit_of

from .conftest import SAMPLE_LOGS, SHARED_CORPUS, SITES


def _files() -> list[Path]:
    found = [p for p in sorted(SITES.rglob("*")) if p.suffix in (".txt", ".xml")]
    found += sorted(SAMPLE_LOGS.rglob("*.txt"))[:6]
    if SHARED_CORPUS.is_dir():
        found += [p for p in sorted(SHARED_CORPUS.rglob("*")) if p.suffix in (".txt", ".xml")]
    return found


@pytest.fixture(scope="module")
def checked() -> list[CheckedHand]:
    hands = [item for path in _files() for item in check_file(str(path))]
    assert sum(item.hand is not None for item in hands) > 100
    return hands


def _rake_shares(collected: dict[str, int], rake: int) -> dict[str, int]:
    """The rake in proportion to what each winner collected, the chips left over one each
    to the biggest winners (ties: the greater name first)."""
    winners = sorted(((chips, name) for name, chips in collected.items() if chips > 0))[::-1]
    if rake <= 0 or not winners:
        return {}
    total = sum(chips for chips, _ in winners)
    shares = {name: rake * chips // total for chips, name in winners}
    for _, name in winners[: rake - sum(shares.values())]:
        shares[name] += 1
    return shares


def _reference(item: CheckedHand) -> dict[str, list[tuple[Any, ...]]]:
    """One checked hand's rows, table by table, each row a tuple in `store.COLUMNS` order."""
    rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in store.COLUMNS}
    if item.error is not None:
        error = item.error
        cut = store.excerpt
        rows["parse_errors"].append(
            (
                error.file,
                error.line,
                cut(error.hand_id, store.MAX_LINE_STORED),
                cut(error.message, store.MAX_LINE_STORED),
                cut(error.text, store.MAX_LINE_STORED),
                cut(error.raw, store.MAX_RAW_STORED),
            )
        )
        return rows
    if item.skipped is not None:
        rows["skipped"].append(
            tuple(getattr(item.skipped, column) for column in store.COLUMNS["skipped"])
        )
        return rows
    hand, replay = item.hand, item.replay
    assert hand is not None and replay is not None
    site, hand_id = str(hand.site.value), hand.hand_id
    found = holdings(hand)
    actions = [event for event in hand.events if isinstance(event, Action)]
    showed = {a.player for a in actions if a.kind is ActionKind.SHOW and a.cards}
    showed |= {result.player for result in hand.results if result.showed}
    names = [seat.name for seat in hand.seats]
    rows["hands"].append(
        (
            site,
            hand_id,
            hand.game.value,
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
            len([name for name in names if name in found.dealt]),
            hand.total_pot,
            hand.rake,
            "flagged" if replay.violations else "ok",
            replay.illegal,
            replay.mis_split,
            item.file,
            hand.source.line if hand.source else None,
            hand.source.end_line if hand.source else None,
            hand.structure.value,
            hand.chips_in_hundredths,
            replay.inconsistent,
            unit_of(hand.currency, hand.tournament_id is not None, hand.chips_in_hundredths),
            found.hero,
            None,
        )
    )
    shares = _rake_shares(replay.collected, hand.rake)
    for seat in hand.seats:
        name = seat.name
        slots = found.slots.get(name)
        cards = None
        if slots and any(card is not None for card in slots):
            cards = " ".join("??" if card is None else str(card) for card in slots)
        net = replay.net.get(name, 0)
        rows["hand_players"].append(
            (
                site,
                hand_id,
                seat.number,
                name,
                seat.stack,
                seat.sitting_out,
                replay.put_in.get(name, 0),
                replay.collected.get(name, 0),
                net,
                shares.get(name, 0),
                cards,
                name in showed,
                name in replay.won_high,
                name in replay.won_low,
                name in found.dealt,
                name in found.shown_down,
                net,
            )
        )
    for seq, action in enumerate(actions):
        rows["actions"].append(
            (
                site,
                hand_id,
                seq,
                action.street.name.lower(),
                action.player,
                action.kind.value,
                action.amount,
                action.to_amount,
                action.all_in,
                action.line,
            )
        )
    for number, pot in enumerate(replay.pots):
        rows["pots"].append((site, hand_id, number, pot.amount, list(pot.eligible)))
    expected, collected = replay.expected_collect, replay.collected
    for name in sorted(set(expected) | {p for p, chips in collected.items() if chips}):
        rows["awards"].append((site, hand_id, name, expected.get(name, 0), collected.get(name, 0)))
    for seq, violation in enumerate(replay.violations):
        rows["violations"].append(
            (
                site,
                hand_id,
                seq,
                violation.code,
                violation.street.name.lower() if violation.street is not None else None,
                violation.player,
                violation.line,
                violation.message,
                violation.expected,
                violation.actual,
                violation.mis_split,
                violation.kind.value,
                violation.cause,
            )
        )
    return rows


def _reference_tables(items: list[CheckedHand]) -> dict[str, pa.Table]:
    rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in store.COLUMNS}
    for item in items:
        for name, more in _reference(item).items():
            rows[name].extend(more)
    schemas = store.arrow_schemas()
    return {
        name: pa.table(
            {
                column: pa.array(
                    [row[index] for row in table], type=schemas[name].field(column).type
                )
                for index, column in enumerate(store.COLUMNS[name])
            },
            schema=schemas[name],
        )
        for name, table in rows.items()
        if table
    }


def _assert_same(tables: dict[str, pa.Table], expected: dict[str, pa.Table]) -> None:
    assert sorted(tables) == sorted(expected)
    for name, table in expected.items():
        assert tables[name].schema == table.schema, name
        assert tables[name].num_rows == table.num_rows, name
        for column in table.column_names:
            got, want = tables[name].column(column), table.column(column)
            assert got.equals(want), (name, column, got.to_pylist()[:8], want.to_pylist()[:8])


def _batch(items: list[CheckedHand]) -> store.Batch:
    batch = store.Batch()
    for item in items:
        store.add_checked(batch, item)
    return batch


def test_every_table_and_column_is_the_rows_read_one_by_one(checked):
    batch = _batch(checked)
    tables = batch.arrow()
    assert {"hands", "hand_players", "actions", "pots", "awards", "violations"} <= set(tables)
    assert "parse_errors" in tables or not SHARED_CORPUS.is_dir()
    _assert_same(tables, _reference_tables(checked))
    # The Python rows a small part is loaded from (`Batch.rows`) are the same values.
    for name, rows in batch.rows().items():
        assert pa.table(rows.columns, schema=store.arrow_schemas()[name]).equals(tables[name])


def test_batches_joined_give_the_rows_of_both(checked):
    middle = len(checked) // 2
    first, second = _batch(checked[:middle]), _batch(checked[middle:])
    first.extend(second)
    _assert_same(first.arrow(), _reference_tables(checked))


def test_rows_taken_out_by_the_import_leave_the_right_hand_ids(checked):
    """The import takes a failed file's rows (`ingest._truncate`) or a repeated hand's
    (`ingest._drop_hands`) out of the lists behind the batch's back: every column is still
    the rows that are left, and rows added after them come out right too."""
    hands = [item for item in checked if item.hand is not None]
    head, tail, more = hands[:40], hands[40:60], hands[60:90]
    batch = _batch(head)
    marks = ingest._marks(batch)
    for item in tail:
        store.add_checked(batch, item)
    ingest._truncate(batch, marks)  # the file of `tail` failed
    for item in more:
        store.add_checked(batch, item)
    _assert_same(batch.arrow(), _reference_tables(head + more))

    batch = _batch(head + tail)
    dropped = {(item.hand.site.value, item.hand.hand_id) for item in head[5:9]}  # type: ignore[union-attr]
    ingest._drop_hands(batch, dropped, dict.fromkeys(store.COLUMNS, 0))
    for item in more:
        store.add_checked(batch, item)
    kept = [
        item for item in head + tail if (item.hand.site.value, item.hand.hand_id) not in dropped
    ]  # type: ignore[union-attr]
    _assert_same(batch.arrow(), _reference_tables(kept + more))


def test_rake_shares_add_up_to_the_rake_and_follow_what_each_collected():
    assert store.rake_shares({"a": 100}, 5) == {"a": 5}
    assert store.rake_shares({"a": 100, "b": 0}, 0) == {}
    assert store.rake_shares({}, 3) == {}
    assert store.rake_shares({"a": 50, "b": 50}, 3) == {"b": 2, "a": 1}
    assert store.rake_shares({"a": 30, "b": 60, "c": 10}, 7) == {"b": 5, "a": 2, "c": 0}
    for collected, rake in (({"a": 7, "b": 3, "c": 1}, 4), ({"x": 1, "y": 1, "z": 1}, 2)):
        assert store.rake_shares(collected, rake) == _rake_shares(collected, rake)
        assert sum(store.rake_shares(collected, rake).values()) == rake
