"""The evaluator's batch tables kept in the cache folder between runs (`rules/evaluate.py`):
a later process maps them rather than building them, with the same arrays; a file cut short,
not an array, of another dtype, shape or key, or a folder that cannot be written, only means
the tables are built as before; the arrays are read-only, built or loaded, and equities come
out the same either way."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from handlog.cachedir import CACHE_ENV
from handlog.cards import DECK, Card, card, cards
from handlog.equity import Holding, Spot, equities
from handlog.model import Game
from handlog.rules import evaluate
from handlog.rules.evaluate_bench import random_hands
from handlog.rules.tables import Pot
from handlog.rules.variants import Lowball

_CACHED = (
    evaluate._base_tables,
    evaluate._size_tables,
    evaluate._lowball_tables,
    evaluate._lowball_size_tables,
    evaluate._by_rank_sum,
    evaluate.card_codes,
)


def _forget() -> None:
    """Drop this process's tables, as a new process starts without them."""
    for function in _CACHED:
        function.cache_clear()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder of the test's own, and no tables in memory (nor after the test)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    _forget()
    yield folder
    _forget()


def _all_tables() -> dict[str, Any]:
    """Every table the batches use, by a name of its own."""
    found: dict[str, Any] = {}
    base = evaluate._base_tables()
    for field in ("five_rank_sums", "five_high", "five_low", "flush_suit", "flush_high"):
        found[f"base.{field}"] = getattr(base, field)
    for size in (5, 6, 7):
        tables = evaluate._size_tables(size)
        for field in ("multiset_by_rank_sum", "high_by_multiset", "low_by_multiset"):
            found[f"size{size}.{field}"] = getattr(tables, field)
        for kind in ("high", "low"):
            found[f"size{size}.{kind}_by_rank_sum"] = evaluate._by_rank_sum(size, kind)
    for lowball in (Lowball.DEUCE_TO_SEVEN, Lowball.ACE_TO_SIX):
        five = evaluate._lowball_tables(lowball)
        found[f"{lowball}.five_low"] = five.five_low
        found[f"{lowball}.flush_low"] = five.flush_low
        for size in (5, 7):
            low = evaluate._lowball_size_tables(lowball, size).low_by_multiset
            found[f"{lowball}.size{size}"] = low
    return found


def _mapped(array: Any) -> bool:
    """Whether `array` reads a file mapped into memory (a kept table, not a built one)."""
    return isinstance(array, np.memmap) or isinstance(getattr(array, "base", None), np.memmap)


def _cold_copies() -> dict[str, Any]:
    return {name: np.array(array) for name, array in _all_tables().items()}


def _assert_same(found: dict[str, Any], expected: dict[str, Any]) -> None:
    assert found.keys() == expected.keys()
    for name, array in expected.items():
        assert found[name].dtype == array.dtype, name
        assert np.array_equal(found[name], array), name


def _files(folder: Path, table: str, field: str) -> list[Path]:
    return sorted(folder.glob(f"evaluate-{table}-{field}-*.npy"))


def test_warm_tables_are_mapped_and_equal_to_cold_ones(cache: Path) -> None:
    cold = _all_tables()
    assert not any(_mapped(array) for array in cold.values())
    copies = {name: np.array(array) for name, array in cold.items()}
    assert len(list(cache.glob("evaluate-*.npy"))) == len(cold)
    assert not list(cache.glob("*.tmp"))
    _forget()
    warm = _all_tables()
    assert all(_mapped(array) for array in warm.values())
    assert all(type(array) is np.ndarray for array in warm.values())  # not np.memmap's indexing
    _assert_same(warm, copies)


_SECOND_PROCESS = """
import hashlib
from handlog.rules import evaluate
from handlog.rules.variants import Lowball
base = evaluate._base_tables()
arrays = [base.five_rank_sums, base.five_high, base.five_low, base.flush_suit, base.flush_high]
for size in (5, 6, 7):
    tables = evaluate._size_tables(size)
    arrays += [tables.multiset_by_rank_sum, tables.high_by_multiset, tables.low_by_multiset]
    arrays += [evaluate._by_rank_sum(size, kind) for kind in ("high", "low")]
for lowball in (Lowball.DEUCE_TO_SEVEN, Lowball.ACE_TO_SIX):
    five = evaluate._lowball_tables(lowball)
    arrays += [five.five_low, five.flush_low]
    arrays += [evaluate._lowball_size_tables(lowball, size).low_by_multiset for size in (5, 7)]
import numpy as np
for array in arrays:
    mapped = isinstance(array.base, np.memmap)
    print(array.dtype, array.shape[0], mapped, hashlib.sha256(array.tobytes()).hexdigest())
"""


def _fingerprints(arrays: dict[str, Any], mapped: bool) -> list[str]:
    return [
        f"{array.dtype} {array.shape[0]} {mapped} {hashlib.sha256(array.tobytes()).hexdigest()}"
        for array in arrays.values()
    ]


def test_a_new_process_maps_the_tables_an_earlier_one_built(cache: Path) -> None:
    cold = _cold_copies()
    done = subprocess.run(
        [sys.executable, "-c", _SECOND_PROCESS],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, CACHE_ENV: str(cache)},
    )
    assert done.stdout.splitlines() == _fingerprints(cold, mapped=True)


def test_tables_are_read_only_built_or_loaded(cache: Path) -> None:
    for warm in (False, True):
        if warm:
            _forget()
        tables = _all_tables()
        base = evaluate._base_tables()
        tables.update(card_keys=base.card_keys, card_suits=base.card_suits)
        tables.update(card_rank_bits=base.card_rank_bits)
        for name, array in tables.items():
            assert _mapped(array) is (warm and name[:4] != "card"), name
            with pytest.raises(ValueError, match="read-only"):
                array[0] = 1


def test_batches_on_read_only_tables_match_one_hand_ranks(cache: Path) -> None:
    """The batches write only into arrays of their own (results, sums): on loaded tables, which
    raise if written, they give the one-hand ranks, flushes and unqualified lows included."""
    evaluate.prepare_tables()
    for lowball in (Lowball.DEUCE_TO_SEVEN, Lowball.ACE_TO_SIX):
        evaluate.prepare_lowball_tables(lowball)
    _forget()
    for size in (5, 6, 7):
        hands = random_hands(400, size, seed=size)
        assert _mapped(evaluate._size_tables(size).multiset_by_rank_sum)
        rows = [[DECK[index] for index in row] for row in hands.tolist()]
        assert evaluate.high_rank_batch(hands).tolist() == [evaluate.high_rank(r) for r in rows]
        lows = evaluate.low_rank_batch(hands, 8).tolist()
        one_by_one = [evaluate.low_rank(r, 8) for r in rows]
        assert lows == [evaluate.NO_LOW if low is None else low for low in one_by_one]
        keys_of, bits_of = evaluate.card_codes()
        keys, bits = keys_of[hands].sum(axis=1), bits_of[hands].sum(axis=1)
        assert (
            evaluate.high_rank_summed(keys, bits, size) == evaluate.high_rank_batch(hands)
        ).all()
        for lowball in (Lowball.DEUCE_TO_SEVEN, Lowball.ACE_TO_SIX):
            found = evaluate.low_rank_batch(hands, None, lowball).tolist()
            assert found == [evaluate.low_rank(r, None, lowball) for r in rows]
            summed = evaluate.low_rank_summed(keys, bits, size, None, lowball).tolist()
            assert summed == found


def _write(path: Path, content: bytes) -> None:
    path.write_bytes(content)


def _npy(array: Any, allow_pickle: bool = False) -> bytes:
    from io import BytesIO

    buffer = BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


_SPOILERS: dict[str, Callable[[bytes, Any], bytes]] = {
    "empty": lambda good, array: b"",
    "cut short": lambda good, array: good[: len(good) // 2],
    "header only": lambda good, array: good[:128],
    "cut in the header": lambda good, array: good[:20],
    "header unclosed": lambda good, array: good.replace(b",), }", b",x, }", 1),
    "not an array": lambda good, array: b"PK\x03\x04 not numpy at all " * 40,
    "another dtype": lambda good, array: _npy(array.astype(np.int64)),
    "another byte order": lambda good, array: _npy(array.astype(array.dtype.newbyteorder())),
    "one short": lambda good, array: _npy(array[:-1]),
    "two dimensions": lambda good, array: _npy(array.reshape(1, -1)),
    "pickled objects": lambda good, array: _npy(array.astype(object), allow_pickle=True),
}


@pytest.mark.parametrize("spoiler", sorted(_SPOILERS))
def test_a_spoilt_file_is_built_again_and_replaced(cache: Path, spoiler: str) -> None:
    expected = np.array(evaluate._size_tables(5).high_by_multiset)
    path = _files(cache, "size5", "high_by_multiset")[0]
    _write(path, _SPOILERS[spoiler](path.read_bytes(), expected))
    _forget()
    found = evaluate._size_tables(5).high_by_multiset
    assert not _mapped(found)  # built again
    assert found.dtype == expected.dtype and np.array_equal(found, expected)
    _forget()
    kept = evaluate._size_tables(5).high_by_multiset  # and kept again
    assert _mapped(kept) and np.array_equal(kept, expected)


def test_files_of_another_key_are_not_read_and_go_when_this_key_is_kept(cache: Path) -> None:
    expected = np.array(evaluate._size_tables(6).low_by_multiset)
    (path,) = _files(cache, "size6", "low_by_multiset")
    other = path.with_name(path.name.replace(path.stem.rsplit("-", 1)[1], "0" * 32))
    # Another version's table: the right dtype and shape, other values.
    _write(other, _npy(np.zeros_like(expected)))
    path.unlink()
    _forget()
    found = evaluate._size_tables(6).low_by_multiset
    assert np.array_equal(found, expected)
    assert _files(cache, "size6", "low_by_multiset") == [path]
    assert not other.exists()


def _key_of(package: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", "from handlog.rules import evaluate; print(evaluate._tables_key())"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(package.parent), "HANDLOG_PURE_PYTHON": "1"},
        cwd=package.parent,
    )
    return done.stdout.strip()


def test_the_key_changes_with_the_code_the_tables_derive_from(tmp_path: Path) -> None:
    """A copy of the package's source (no compiled modules) has this key; a change to
    evaluate.py, variants.py or cards.py (a comment will do) gives another."""
    source = Path(evaluate.__file__).resolve().parent.parent
    copy = tmp_path / "handlog"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    key = _key_of(copy)
    assert key == evaluate._tables_key() and len(key) == 32
    keys = {key}
    for name in ("rules/evaluate.py", "rules/variants.py", "cards.py"):
        with open(copy / name, "a", encoding="utf-8") as handle:
            handle.write("# changed\n")
        keys.add(_key_of(copy))
    assert len(keys) == 4


def test_a_cache_folder_that_cannot_be_made_builds_the_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache: Path
) -> None:
    (tmp_path / "a file").write_text("")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "a file" / "cache"))
    expected = _cold_copies()
    _forget()
    found = _all_tables()
    assert not any(_mapped(array) for array in found.values())
    _assert_same(found, expected)


def test_files_that_cannot_be_written_or_read_only_cost_the_build(cache: Path) -> None:
    """Each table's file and its temporary name taken by folders: nothing can be read or
    written there (as in a read-only folder), and the tables are built each time."""
    expected = _cold_copies()
    files = sorted(cache.glob("evaluate-*.npy"))
    for path in files:
        path.unlink()
        path.mkdir()
    for round in range(2):
        _forget()
        found = _all_tables()
        assert not any(_mapped(array) for array in found.values()), round
        _assert_same(found, expected)
    assert sorted(cache.glob("evaluate-*.npy")) == files
    assert all(path.is_dir() for path in files)
    assert not list(cache.glob("*.tmp"))


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_cache_folder_builds_the_tables(cache: Path) -> None:
    expected = _cold_copies()
    for path in cache.glob("evaluate-*.npy"):
        path.unlink()
    cache.chmod(0o500)
    try:
        _forget()
        _assert_same(_cold_copies(), expected)
        assert not list(cache.iterdir())
    finally:
        cache.chmod(0o700)


def _spot(game: Game, held: dict[str, str], pool: str, amounts: tuple[int, ...]) -> Spot:
    holdings = tuple(
        Holding(player, tuple(None if text == "?" else card(text) for text in hand.split()))
        for player, hand in held.items()
    )
    known: set[Card] = {c for h in holdings for c in h.cards if c is not None} | set(cards(pool))
    dead = tuple(c for c in DECK if c not in known)
    names = tuple(held)
    pots = tuple(Pot(amount, names[: len(names) - index]) for index, amount in enumerate(amounts))
    return Spot(game, holdings, pots, dead)


SPOTS = [
    _spot(
        Game.STUD,
        {"a": "Ah Ad 7c Kc 2s", "b": "9h 9c Ts Js Qs", "c": "4d 5d 6d 8h ?"},
        "2h 3h 8s 8d Tc Jd Qd Kd Ks 3s",
        (300, 120),
    ),
    _spot(
        Game.STUD8,
        {"a": "Ah 2d 3c 7s 9h", "b": "Kc Kd 4s 5s 8c", "c": "6h 6c ? ? Jh"},
        "3h 4h 5h Td Jc Qc 2c 8d",
        (500,),
    ),
    _spot(
        Game.RAZZ27,
        {"a": "2h 3d 4c 7s 8h", "b": "2c 5d 6s 7h Ts"},
        "4h 5h 6h 8c 9c 3s Kd Ac",
        (200,),
    ),
    _spot(
        Game.RAZZ_A6,
        {"a": "Ah 2d 3c 4s 6h", "b": "2c 3d 5s 7h Ts"},
        "4h 5h 6c 8c 9c 3s Kd Ac Qs",
        (200,),
    ),
    _spot(
        Game.STUD5,
        {"a": "Ah Kh Qh", "b": "Jd Jc 2s", "c": "Tc 9c ?"},
        "Jh Th 2h 3h 4h 8c 7d",
        (90,),
    ),
]


def test_equities_are_the_same_with_a_cold_and_a_warm_cache(cache: Path) -> None:
    cold = [equities(spot) for spot in SPOTS]
    cold_sampled = [equities(spot, exact_limit=0) for spot in SPOTS]
    assert cache.is_dir() and list(cache.glob("evaluate-size7-*.npy"))
    _forget()
    assert [equities(spot) for spot in SPOTS] == cold
    assert [equities(spot, exact_limit=0) for spot in SPOTS] == cold_sampled
    assert _mapped(evaluate._size_tables(7).multiset_by_rank_sum)
