"""Hand strength for the stud games: best five-card high hands, lows ranked the three lowball
ways (ace-to-five for 8-or-better, razz and any-low hi/lo; deuce-to-seven for 2-7 razz; ace-to-six
for London lowball), showing hands for the first actor and door cards for the bring-in, one hand
at a time (numbered from its ranks, no table needed) or in NumPy batches (read from lookup tables
built on their first use and kept in the user's cache folder for later runs), in the same
numbering."""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from handlog.cachedir import cache_folder, remove_others, write_whole
from handlog.cards import DECK, RANK_CHARS, RANK_NAMES, Card
from handlog.model import Game
from handlog.rules.variants import VARIANTS, Lowball, Variant

if TYPE_CHECKING:  # imported by the functions that use it: one hand at a time needs no NumPy
    import numpy as np

GAMES = tuple(game.value for game in VARIANTS)
"""The game names the functions here accept (a `handlog.model.Game` works too)."""

HIGH_CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
"""High-hand categories from worst to best; a royal flush is the best straight flush."""

HIGH_CATEGORY_SIZES = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
"""How many distinct five-card hands (ties apart) each category holds: 7,462 in all."""

HIGH_CATEGORY_STARTS = tuple(itertools.accumulate((0,) + HIGH_CATEGORY_SIZES[:-1]))
"""The weakest `high_rank` of each category: values are numbered 0..7461 from 7-5-4-3-2 up to
the royal flush, so a category is a range of values."""

HIGH_RANK_COUNT = sum(HIGH_CATEGORY_SIZES)
"""7,462: `high_rank` values run from 0 to 7,461."""

LOW_RANK_COUNT = 6175
"""Distinct ace-to-five lows (every five ranks with at most four alike): `low_rank` values run
from 0 (K-K-K-K-Q) to 6,174 (5-4-3-2-A)."""

LOW_CATEGORIES = ("no pair", "pair", "two pair", "three of a kind", "full house", "four of a kind")
"""Ace-to-five lows from best to worst kind: straights and flushes do not count, pairs hurt."""

LOW_RANK_COUNTS = {
    Lowball.ACE_TO_FIVE: LOW_RANK_COUNT,
    Lowball.DEUCE_TO_SEVEN: 7462,
    Lowball.ACE_TO_SIX: 7462,
}
"""Distinct lows of each lowball: `low_rank` values run from 0 to the count less one. The two
lowballs where straights and flushes count have as many classes as high hands: deuce-to-seven
moves A-5-4-3-2 from the straights to the no-pair hands (and suited, from the straight flushes to
the flushes); ace-to-six plays the ace below the deuce, which turns A-K-Q-J-10 from a straight
into a king-high hand and A-5-4-3-2 into the lowest straight: 1,278 no-pair hands, 9 straights,
1,278 flushes and 9 straight flushes either way."""

LOW_CATEGORIES_BY_LOWBALL = {
    Lowball.ACE_TO_FIVE: LOW_CATEGORIES,
    Lowball.DEUCE_TO_SEVEN: HIGH_CATEGORIES,
    Lowball.ACE_TO_SIX: HIGH_CATEGORIES,
}
"""What `LowClass.category` indexes for each lowball. Deuce-to-seven and ace-to-six lows are high
hands turned round: their categories are the high ones ("high card" is a no-pair low), the
worse the high hand the better the low."""

PLURAL_RANK_NAMES = {
    2: "Deuces",
    3: "Threes",
    4: "Fours",
    5: "Fives",
    6: "Sixes",
    7: "Sevens",
    8: "Eights",
    9: "Nines",
    10: "Tens",
    11: "Jacks",
    12: "Queens",
    13: "Kings",
    14: "Aces",
}

# Rank keys whose sums differ for every multiset of 5, 6 or 7 ranks (at most four of a rank),
# found by a greedy search (the SKPokerEval keys). They make "sum the card keys" a perfect hash
# of a hand's ranks whose largest value, 7,825,759, indexes a small table, where base-5 rank
# counts would need 5**13 entries. `_size_tables` checks the claim each time it builds a table.
RANK_SUM_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
"""Key of rank 2..14 (index rank - 2) in the rank sum."""

# A card's key is its rank key shifted above 12 bits of suit counts: 3 bits per suit, enough for
# seven cards of one suit, so one integer sum gives both the rank multiset and the flush suit.
SUIT_COUNT_BITS = 12
SUIT_COUNT_MASK = (1 << SUIT_COUNT_BITS) - 1

NO_LOW = -1
"""What `low_rank_batch` gives a hand without a qualifying low (`low_rank` gives None)."""


def _card_key(rank: int, suit: int) -> int:
    return (RANK_SUM_KEYS[rank - 2] << SUIT_COUNT_BITS) + (1 << (3 * suit))


_CARD_KEYS = [
    [0] * 4 if rank < 2 else [_card_key(rank, suit) for suit in range(4)] for rank in range(15)
]
"""`_CARD_KEYS[card.rank][card.suit]`: the single-hand path reads attributes, not `Card.index`,
because a property call costs more than two list lookups."""

_RANK_BITS = [0, 0] + [1 << (rank - 2) for rank in range(2, 15)]


@dataclass(frozen=True, slots=True)
class HighClass:
    """One of the 7,462 distinct five-card high hands."""

    category: int
    """Index into `HIGH_CATEGORIES`."""
    ranks: tuple[int, ...]
    """The five ranks in the order they are compared: bigger groups first, then higher ranks
    (Q-Q-7-7-5, 5-5-5-A-A). In the wheel (straight to the five) the ace counts 1: 5-4-3-2-1."""


@dataclass(frozen=True, slots=True)
class LowClass:
    """One of the distinct lows of a lowball (`LOW_RANK_COUNTS`): 6,175 ace-to-five lows, 7,462
    deuce-to-seven or ace-to-six lows."""

    category: int
    """Index into `LOW_CATEGORIES_BY_LOWBALL[lowball]`: for ace-to-five into `LOW_CATEGORIES`
    (0 no pair ... 5 four of a kind); for the other two into `HIGH_CATEGORIES` (0 high card,
    the no-pair lows, ... 8 straight flush)."""
    ranks: tuple[int, ...]
    """The five ranks as compared and as PokerStars prints them: pairs first, then the rest from
    the highest (7-6-5-4-3, 6-4-3-2-1, 3-3-5-4-1). The ace is 1 in ace-to-five and ace-to-six,
    14 in deuce-to-seven (14-5-4-3-2: ace high, not a straight)."""
    lowball: Lowball = Lowball.ACE_TO_FIVE
    """The lowball whose low this is."""


# ---------------------------------------------------------------------------------------------
# Classifying five ranks: the slow, readable definitions the tables are built from.


def _grouped(ranks: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(group sizes, ranks in compare order): bigger groups first, higher ranks first."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(((count, rank) for rank, count in counts.items()), reverse=True)
    pattern = tuple(count for count, _ in groups)
    ordered = tuple(rank for count, rank in groups for _ in range(count))
    return pattern, ordered


def _pattern_category(pattern: tuple[int, ...]) -> int:
    """0 no pair, 1 pair, 2 two pair, 3 trips, 4 full house, 5 quads, from group sizes."""
    second = pattern[1] if len(pattern) > 1 else 0
    if pattern[0] >= 4:
        return 5
    if pattern[0] == 3:
        return 4 if second >= 2 else 3
    if pattern[0] == 2:
        return 2 if second == 2 else 1
    return 0


_HIGH_CATEGORY_BY_PATTERN = {0: 0, 1: 1, 2: 2, 3: 3, 4: 6, 5: 7}


def _high_class(ranks: Sequence[int], suited: bool) -> HighClass:
    """The class of five cards of these ranks (2..14), all of one suit or not."""
    pattern, ordered = _grouped(ranks)
    if len(pattern) == 5:
        if ordered == (14, 5, 4, 3, 2):
            ordered = (5, 4, 3, 2, 1)  # the wheel: the ace plays low and the five is the top card
        if ordered[0] - ordered[4] == 4:
            return HighClass(8 if suited else 4, ordered)
        return HighClass(5 if suited else 0, ordered)
    return HighClass(_HIGH_CATEGORY_BY_PATTERN[_pattern_category(pattern)], ordered)


def _low_class(ranks: Sequence[int]) -> LowClass:
    """The ace-to-five low made by five ranks (2..14; the ace plays as 1)."""
    pattern, ordered = _grouped(1 if rank == 14 else rank for rank in ranks)
    return LowClass(_pattern_category(pattern), ordered)


def _lowball_class(ranks: Sequence[int], suited: bool, lowball: Lowball) -> LowClass:
    """The deuce-to-seven or ace-to-six low made by five cards of these ranks (2..14), all of one
    suit or not: the high-hand class of the cards with the ace where that lowball plays it (14 or
    1), five ranks in a row being a straight (so no straight wraps round the ace: 5-4-3-2-A is
    ace high in deuce-to-seven, K-Q-J-10-A king high in ace-to-six)."""
    ace = 1 if lowball is Lowball.ACE_TO_SIX else 14
    pattern, ordered = _grouped(ace if rank == 14 else rank for rank in ranks)
    if len(pattern) == 5:
        if ordered[0] - ordered[4] == 4:
            return LowClass(8 if suited else 4, ordered, lowball)
        return LowClass(5 if suited else 0, ordered, lowball)
    return LowClass(_HIGH_CATEGORY_BY_PATTERN[_pattern_category(pattern)], ordered, lowball)


# ---------------------------------------------------------------------------------------------
# Tables, built on first use.


@dataclass(frozen=True, slots=True)
class _BaseTables:
    """The tables every hand size shares. The tables' fields are NumPy arrays, annotated Any:
    a compiled dataclass looks its annotations up when the module loads, before any NumPy."""

    five_rank_sums: Any  # np.ndarray
    """Sorted rank sums of the 6,175 five-rank multisets."""
    five_high: Any  # np.ndarray
    """`high_rank` of five unsuited cards with those ranks (aligned with `five_rank_sums`)."""
    five_low: Any  # np.ndarray
    """`low_rank` of those ranks."""
    flush_suit: Any  # np.ndarray
    """Packed suit counts -> the suit with five or more cards, or -1."""
    flush_suit_list: list[int]
    flush_suit_small: Any  # np.ndarray
    """`flush_suit` as int8: a batch's look-up of it makes an eighth of the bytes."""
    flush_high: Any  # np.ndarray
    """13-bit mask of the ranks held in the flush suit -> best `high_rank`; -1 unless the mask
    has 5 to 7 bits."""
    card_keys: Any  # np.ndarray
    """By `Card.index`: the rank-and-suit key summed into a hand's key."""
    card_rank_bits: Any  # np.ndarray
    """By `Card.index`: 1 << (rank - 2)."""
    card_suits: Any  # np.ndarray
    """By `Card.index`: the suit."""


@dataclass(frozen=True, slots=True)
class _SizeTables:
    """Rank-sum tables for hands of one size (5, 6 or 7 cards): sums of different sizes collide,
    so each size has its own."""

    multiset_by_rank_sum: Any  # np.ndarray
    """Rank sum -> row of the rank multiset (uint16; 49,205 rows for seven cards)."""
    high_by_multiset: Any  # np.ndarray
    """Best `high_rank` of the multiset's ranks ignoring flushes."""
    low_by_multiset: Any  # np.ndarray
    """Best `low_rank` of the multiset's ranks, qualifier aside."""


def _rank_multisets(size: int) -> np.ndarray:
    """Every multiset of `size` ranks (0..12 for deuce..ace, at most four alike), one sorted row
    each."""
    import numpy as np

    rows = np.array(list(itertools.combinations_with_replacement(range(13), size)), dtype=np.int64)
    five_alike = np.zeros(len(rows), dtype=bool)
    for start in range(size - 4):
        five_alike |= rows[:, start] == rows[:, start + 4]  # sorted rows: equal ends mean 5 alike
    return rows[~five_alike]


# The tables are kept between runs in the user's cache folder (`handlog.cachedir`), one `.npy`
# file per array, named by the table and a key: a SHA-256 of everything they derive from (this
# file's text, which holds the numbering and the rank keys, `variants.py` and `cards.py`,
# NumPy's and Python's versions, `_TABLES_VERSION`). A later process maps the files read-only
# (`numpy.lib.format.open_memmap(mode="r")`: no build, and the pages are shared with forked
# workers and the OS's page cache) when their dtype and shape are the ones expected; anything
# else (no file, a file cut short or not an array, a folder that cannot be read or written)
# builds the tables as before and tries to keep them. Built or loaded, the arrays are
# read-only: nothing here writes into a table, and anything that tried would raise. A file of
# another key is removed when this key's file is written (two versions run in turn only build
# again, as they did before).

_TABLES_VERSION = 1
"""Bump when how the tables are kept changes (what they hold changes with this file's text,
which their key hashes)."""

_TABLES_SOURCES = ("rules/evaluate.py", "rules/variants.py", "cards.py")
"""The package's modules the tables derive from (relative to the package), hashed into the key."""

FIVE_RANK_MULTISETS = 6175
"""Multisets of five ranks with at most four alike: the rows of `_BaseTables.five_rank_sums`."""


@cache
def _tables_key() -> str | None:
    """The key of the tables this code builds with this NumPy and Python; None when the
    package's source cannot be read (the tables are then built in each process)."""
    import numpy as np

    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256(
        f"{_TABLES_VERSION} {np.__version__} {sys.version} {sys.byteorder}".encode()
    )
    try:
        for name in _TABLES_SOURCES:
            digest.update(b"\0" + name.encode() + b"\0" + (package / name).read_bytes())
    except OSError:
        return None
    return digest.hexdigest()[:32]


def _table_path(folder: Path, name: str, field: str, key: str) -> Path:
    return folder / f"evaluate-{name}-{field}-{key}.npy"


def _kept_arrays(name: str, expected: dict[str, tuple[str, int]]) -> dict[str, Any] | None:
    """The arrays of table `name` a run before kept, mapped read-only, when every field of
    `expected` (field -> dtype and length) is there with that dtype and length; else None."""
    import numpy as np

    folder = cache_folder()
    key = _tables_key()
    if folder is None or key is None:
        return None
    found: dict[str, Any] = {}
    for field, (dtype, length) in expected.items():
        try:
            # `.npy` only (`np.load` would also take a zip or a pickle), never objects.
            array = np.lib.format.open_memmap(_table_path(folder, name, field, key), mode="r")
        except Exception:  # missing, unreadable, cut short, not an array: NumPy
            return None  # raises OSError, ValueError, EOFError, TypeError, tokenize's TokenError
        if array.dtype != np.dtype(dtype) or array.shape != (length,):
            return None
        found[field] = np.asarray(array)  # a plain read-only view: `np.memmap` indexes slower
    return found


def _keep_arrays(name: str, arrays: dict[str, Any]) -> None:
    """Keep table `name` in the cache folder, each array written to a name of its own then
    renamed (a reader sees the old file or the new one); the same table of other keys goes. A
    folder that cannot be written only costs the build in the next process."""
    import numpy as np

    folder = cache_folder()
    key = _tables_key()
    if folder is None or key is None:
        return
    for field, array in arrays.items():
        path = _table_path(folder, name, field, key)
        if not write_whole(path, functools.partial(np.save, arr=array, allow_pickle=False)):
            return
        remove_others(path, f"evaluate-{name}-{field}-*.npy")


def _kept_or_built(
    name: str, expected: dict[str, tuple[str, int]], build: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """Table `name`'s arrays: read from the cache folder, or built (and kept there), read-only
    either way."""
    kept = _kept_arrays(name, expected)
    if kept is not None:
        return kept
    built = build()
    for array in built.values():
        array.flags.writeable = False
    _keep_arrays(name, built)
    return built


def _multiset_count(size: int) -> int:
    """How many multisets of `size` ranks hold at most four of a rank (`_rank_multisets`)."""
    ways = [1] + [0] * size
    for _rank in range(13):
        ways = [
            sum(ways[total - alike] for alike in range(min(4, total) + 1))
            for total in range(size + 1)
        ]
    return ways[size]


def _largest_rank_sum(size: int) -> int:
    """The largest rank sum of `size` ranks (the highest ranks, four of each at most)."""
    total = 0
    left = size
    for key in reversed(RANK_SUM_KEYS):
        taken = min(4, left)
        total += taken * key
        left -= taken
    return total


def _base_arrays() -> dict[str, Any]:
    import numpy as np

    rank_keys = np.array(RANK_SUM_KEYS, dtype=np.int64)
    fives = _rank_multisets(5)
    five_rank_lists = (fives + 2).tolist()

    unsuited = [_high_class(ranks, suited=False) for ranks in five_rank_lists]
    # Five suited cards have distinct ranks: a straight becomes a straight flush, no pair a flush.
    suited = {
        hand: HighClass(8 if hand.category == 4 else 5, hand.ranks)
        for hand in unsuited
        if hand.category in (0, 4)
    }
    high_classes = sorted(
        set(unsuited) | set(suited.values()), key=lambda hand: (hand.category, hand.ranks)
    )
    assert len(high_classes) == HIGH_RANK_COUNT
    high_by_class = {hand: value for value, hand in enumerate(high_classes)}
    lows = [_low_class(ranks) for ranks in five_rank_lists]
    # Worst low first: the bigger the (category, ranks) the worse the low.
    low_classes = sorted(set(lows), key=lambda low: (low.category, low.ranks), reverse=True)
    assert len(low_classes) == LOW_RANK_COUNT
    low_by_class = {low: value for value, low in enumerate(low_classes)}

    sums = rank_keys[fives].sum(axis=1)
    order = np.argsort(sums)
    five_high = np.array([high_by_class[hand] for hand in unsuited], dtype=np.int64)
    five_low = np.array([low_by_class[low] for low in lows], dtype=np.int64)

    packed = np.arange(1 << SUIT_COUNT_BITS)
    flush_suit = np.full(1 << SUIT_COUNT_BITS, -1, dtype=np.int64)
    for suit in range(4):
        flush_suit[(packed >> (3 * suit)) & 7 >= 5] = suit

    # Flush table by rank mask: five ranks from the classes above, more ranks as the best of the
    # masks one rank smaller (smaller masks come first in order of bit count).
    flush_high = np.full(1 << 13, -1, dtype=np.int64)
    flush_high_list = flush_high.tolist()
    for ranks, hand in zip(five_rank_lists, unsuited, strict=True):
        if hand in suited:
            flush_high_list[sum(1 << (rank - 2) for rank in ranks)] = high_by_class[suited[hand]]
    for mask in sorted(range(1 << 13), key=int.bit_count):
        if 6 <= mask.bit_count() <= 7:
            flush_high_list[mask] = max(
                flush_high_list[mask & ~(1 << bit)] for bit in range(13) if mask >> bit & 1
            )
    flush_high[:] = flush_high_list

    return {
        "five_rank_sums": sums[order],
        "five_high": five_high[order],
        "five_low": five_low[order],
        "flush_suit": flush_suit,
        "flush_high": flush_high,
    }


@cache
def _base_tables() -> _BaseTables:
    import numpy as np

    fives = ("int64", FIVE_RANK_MULTISETS)
    arrays = _kept_or_built(
        "base",
        {
            "five_rank_sums": fives,
            "five_high": fives,
            "five_low": fives,
            "flush_suit": ("int64", 1 << SUIT_COUNT_BITS),
            "flush_high": ("int64", 1 << 13),
        },
        _base_arrays,
    )
    indices = np.arange(52, dtype=np.int64)
    card_keys = np.array(
        [_card_key(index // 4 + 2, index % 4) for index in range(52)], dtype=np.int64
    )
    card_rank_bits = 1 << (indices // 4)
    card_suits = indices % 4
    flush_suit_small = arrays["flush_suit"].astype(np.int8)
    for array in (card_keys, card_rank_bits, card_suits, flush_suit_small):
        array.flags.writeable = False
    return _BaseTables(
        five_rank_sums=arrays["five_rank_sums"],
        five_high=arrays["five_high"],
        five_low=arrays["five_low"],
        flush_suit=arrays["flush_suit"],
        flush_suit_list=arrays["flush_suit"].tolist(),
        flush_suit_small=flush_suit_small,
        flush_high=arrays["flush_high"],
        card_keys=card_keys,
        card_rank_bits=card_rank_bits,
        card_suits=card_suits,
    )


def _size_arrays(size: int) -> dict[str, Any]:
    import numpy as np

    base = _base_tables()
    multisets = _rank_multisets(size)
    rank_keys = np.array(RANK_SUM_KEYS, dtype=np.int64)
    sums = rank_keys[multisets].sum(axis=1)
    if len(np.unique(sums)) != len(sums):
        raise AssertionError(f"RANK_SUM_KEYS do not give distinct sums for {size} cards")
    # Best of every five of the multiset's ranks, C(size, 5) subsets at once; flushes are handled
    # apart (a hand's suits, not its ranks, decide them).
    high = np.full(len(multisets), -1, dtype=np.int64)
    low = np.full(len(multisets), -1, dtype=np.int64)
    for five in itertools.combinations(range(size), 5):
        rows = np.searchsorted(base.five_rank_sums, rank_keys[multisets[:, five]].sum(axis=1))
        np.maximum(high, base.five_high[rows], out=high)
        np.maximum(low, base.five_low[rows], out=low)
    multiset_by_rank_sum = np.zeros(int(sums.max()) + 1, dtype=np.uint16)
    multiset_by_rank_sum[sums] = np.arange(len(multisets), dtype=np.uint16)
    return {
        "multiset_by_rank_sum": multiset_by_rank_sum,
        "high_by_multiset": high.astype(np.int32),
        "low_by_multiset": low.astype(np.int32),
    }


@cache
def _size_tables(size: int) -> _SizeTables:
    rows = ("int32", _multiset_count(size))
    arrays = _kept_or_built(
        f"size{size}",
        {
            "multiset_by_rank_sum": ("uint16", _largest_rank_sum(size) + 1),
            "high_by_multiset": rows,
            "low_by_multiset": rows,
        },
        lambda: _size_arrays(size),
    )
    return _SizeTables(
        multiset_by_rank_sum=arrays["multiset_by_rank_sum"],
        high_by_multiset=arrays["high_by_multiset"],
        low_by_multiset=arrays["low_by_multiset"],
    )


@cache
def _by_rank_sum(size: int, kind: str) -> Any:  # np.ndarray
    """Rank sum -> the `high_by_multiset` (`kind` "high") or `low_by_multiset` ("low") of its
    multiset, as int16 (every value fits): one look-up where `_SizeTables` takes two, for the
    batches of sums (`high_rank_keyed`, `low_rank_keyed`). As big as `multiset_by_rank_sum`
    (15.6 MB for seven cards), so made (and kept) only for the sizes and kinds asked."""
    import numpy as np

    def build() -> dict[str, Any]:
        tables = _size_tables(size)
        by_multiset = tables.high_by_multiset if kind == "high" else tables.low_by_multiset
        return {"by_rank_sum": by_multiset.astype(np.int16)[tables.multiset_by_rank_sum]}

    expected = {"by_rank_sum": ("int16", _largest_rank_sum(size) + 1)}
    return _kept_or_built(f"size{size}-{kind}", expected, build)["by_rank_sum"]


@dataclass(frozen=True, slots=True)
class _LowballTables:
    """Five-card classes and tables of a lowball whose straights and flushes count
    (deuce-to-seven, ace-to-six); built the first time a batch of that lowball is ranked (one
    hand at a time needs none: `_lowball_rank`)."""

    five_low: Any  # np.ndarray
    """`low_rank` of five cards, not all of one suit, with the ranks of
    `_BaseTables.five_rank_sums` (aligned with it)."""
    flush_low: Any  # np.ndarray
    """13-bit mask of five ranks -> `low_rank` of five cards of one suit with those ranks; -1
    for masks of any other number of bits."""


@dataclass(frozen=True, slots=True)
class _LowballSizeTables:
    """The best deuce-to-seven or ace-to-six low of each rank multiset of one hand size, as if
    no five of the cards were of one suit (rows as in `_SizeTables`)."""

    low_by_multiset: Any  # np.ndarray


def _lowball_arrays(lowball: Lowball) -> dict[str, Any]:
    import numpy as np

    rank_keys = np.array(RANK_SUM_KEYS, dtype=np.int64)
    fives = _rank_multisets(5)
    fives = fives[np.argsort(rank_keys[fives].sum(axis=1))]  # `five_rank_sums` order
    rank_lists = (fives + 2).tolist()
    unsuited = [_lowball_class(ranks, False, lowball) for ranks in rank_lists]
    # Five suited cards have distinct ranks: a straight becomes a straight flush, no pair a flush.
    suited = {
        sum(1 << (rank - 2) for rank in ranks): _lowball_class(ranks, True, lowball)
        for ranks in rank_lists
        if len(set(ranks)) == 5
    }
    # Worst low first: the bigger the high-style (category, ranks) the worse the low.
    classes = sorted(
        set(unsuited) | set(suited.values()),
        key=lambda low: (low.category, low.ranks),
        reverse=True,
    )
    assert len(classes) == LOW_RANK_COUNTS[lowball]
    value_by_class = {low: value for value, low in enumerate(classes)}
    flush_low_list = [-1] * (1 << 13)
    for mask, low in suited.items():
        flush_low_list[mask] = value_by_class[low]
    return {
        "five_low": np.array([value_by_class[low] for low in unsuited], dtype=np.int64),
        "flush_low": np.array(flush_low_list, dtype=np.int64),
    }


@cache
def _lowball_tables(lowball: Lowball) -> _LowballTables:
    arrays = _kept_or_built(
        f"lowball-{lowball.value}",
        {"five_low": ("int64", FIVE_RANK_MULTISETS), "flush_low": ("int64", 1 << 13)},
        lambda: _lowball_arrays(lowball),
    )
    return _LowballTables(five_low=arrays["five_low"], flush_low=arrays["flush_low"])


def _lowball_size_arrays(lowball: Lowball, size: int) -> dict[str, Any]:
    import numpy as np

    base = _base_tables()
    five_low = _lowball_tables(lowball).five_low
    rank_keys = np.array(RANK_SUM_KEYS, dtype=np.int64)
    multisets = _rank_multisets(size)
    # The best low is the five whose high-style value is the worst: the largest `low_rank`.
    low = np.full(len(multisets), -1, dtype=np.int64)
    for five in itertools.combinations(range(size), 5):
        rows = np.searchsorted(base.five_rank_sums, rank_keys[multisets[:, five]].sum(axis=1))
        np.maximum(low, five_low[rows], out=low)
    return {"low_by_multiset": low.astype(np.int32)}


@cache
def _lowball_size_tables(lowball: Lowball, size: int) -> _LowballSizeTables:
    arrays = _kept_or_built(
        f"lowball-{lowball.value}-size{size}",
        {"low_by_multiset": ("int32", _multiset_count(size))},
        lambda: _lowball_size_arrays(lowball, size),
    )
    return _LowballSizeTables(low_by_multiset=arrays["low_by_multiset"])


def prepare_tables(*sizes: int) -> None:
    """Build the batches' tables now (for hands of `sizes` cards, default 5, 6 and 7) rather than
    on the first batch: about a tenth of a second per size, 16 MB for seven cards, or about a
    millisecond to map them when a run before kept them in the cache folder. One hand at a time
    (`high_rank`, the ace-to-five `low_rank`) needs none."""
    _base_tables()
    for size in sizes or (5, 6, 7):
        _size_tables(size)


def prepare_lowball_tables(lowball: Lowball, *sizes: int) -> None:
    """Build a lowball's tables now (for hands of `sizes` cards, default 5, 6 and 7) rather than
    on its first batch (one hand at a time needs none); nothing to do for ace-to-five, whose
    tables `prepare_tables` builds."""
    prepare_tables(*sizes)
    if lowball is not Lowball.ACE_TO_FIVE:
        for size in sorted({5, *(sizes or (6, 7))}):
            _lowball_size_tables(lowball, size)


# ---------------------------------------------------------------------------------------------
# One hand without tables: `high_rank` and the ace-to-five `low_rank` number the hand's class
# from its ranks, as sets of bits, in the order the tables number the classes (the tests compare
# the two on every class and on random hands of 5 to 7 cards); a deuce-to-seven or ace-to-six
# `low_rank` is the best of the hand's fives numbered so (`_lowball_rank`). A process that ranks
# a few hands (a one-hand import, `handlog check` of a file, a replay's showdowns) builds no
# table; the batches read them.
#
# Within a category, classes are numbered in the colexicographic order of their rank sets: the
# set of k distinct values (0..12) v1 > v2 > ... > vk is number C(v1, k) + C(v2, k - 1) + ... +
# C(vk, 1) of the k-sets, which orders sets by their highest value, then the next, as classes'
# ranks compare. A group's ranks are numbered among the values the bigger groups leave: a pair's
# three kickers among the 12 ranks other than the pair's.

_CHOOSE: list[list[int]] = [[math.comb(n, k) for k in range(6)] for n in range(14)]
"""`_CHOOSE[n][k]`: the binomial coefficient C(n, k), n up to 13, k up to 5."""


def _number(values: int, taken: int = 0) -> int:
    """The number of a set of values (the bits of `values`, 0..12) among the sets of as many
    values, each value counted among the values not in `taken` (bits not in `values`)."""
    size = values.bit_count()
    number = 0
    while values:
        value = values.bit_length() - 1
        values ^= 1 << value
        number += _CHOOSE[value - (taken & ((1 << value) - 1)).bit_count()][size]
        size -= 1
    return number


def _top(values: int, count: int) -> int:
    """The `count` highest bits of `values` (all of them if fewer)."""
    kept = 0
    for _ in range(count):
        if not values:
            break
        bit = 1 << (values.bit_length() - 1)
        kept |= bit
        values ^= bit
    return kept


def _bottom(values: int, count: int) -> int:
    """The `count` lowest bits of `values` (all of them if fewer)."""
    kept = 0
    for _ in range(count):
        bit = values & -values
        kept |= bit
        values ^= bit
    return kept


def _uncolex(number: int, size: int) -> list[int]:
    """The set of `size` values whose number (`_number`) is `number`, highest first."""
    values: list[int] = []
    for left in range(size, 0, -1):
        value = left - 1
        while _CHOOSE[value + 1][left] <= number:
            value += 1
        number -= _CHOOSE[value][left]
        values.append(value)
    return values


def _with(value: int, taken: list[int]) -> int:
    """The value counted as `value` among the values other than `taken` (increasing)."""
    for other in taken:
        if value >= other:
            value += 1
    return value


_HIGH_STRAIGHT_SETS = sorted(
    [_number(0x1F << low) for low in range(9)] + [_number(0x100F)]  # 0x100F: A-5-4-3-2
)
"""The numbers of the ten straights' rank sets (value rank - 2), increasing: the no-pair high
classes skip them."""

_LOW_CATEGORY_STARTS = (0, 1287, 4147, 5005, 5863, 6019)
"""Where each of `LOW_CATEGORIES` starts when ace-to-five lows are counted from the best (0):
1,287 no-pair lows, 2,860 pairs, 858 two pairs and trips, 156 full houses and quads."""

_LOW_BITS = [0, 0] + [1 << (rank - 1) for rank in range(2, 14)] + [1]
"""By rank: the bit of its ace-to-five value (the ace 0, the others rank - 1)."""


def _no_straight_number(values: int, straights: list[int]) -> int:
    """The number of five high-card values that are not a straight among those that are not,
    the straights' value sets numbered `straights`."""
    number = _number(values)
    below = 0
    for straight in straights:
        if straight < number:
            below += 1
    return number - below


def _high_straight(values: int) -> int:
    """The best straight in a set of rank values (bits rank - 2), from 0 (five high, the ace
    low) to 9 (ace high); -1 for none."""
    ranks = (values << 1) | (values >> 12 & 1)  # bit 0: the ace below the deuce
    for low in range(9, -1, -1):
        if ranks >> low & 0x1F == 0x1F:
            return low
    return -1


def _flush_high(values: int) -> int:
    """`high_rank` of the cards of a hand's flush suit from the set of their rank values; -1 for
    fewer than five (a card given twice), as the tables give."""
    if values.bit_count() < 5:
        return -1
    straight = _high_straight(values)
    if straight >= 0:
        return HIGH_CATEGORY_STARTS[8] + straight
    return HIGH_CATEGORY_STARTS[5] + _no_straight_number(_top(values, 5), _HIGH_STRAIGHT_SETS)


def _high_of_ranks(once: int, twice: int, thrice: int, four: int) -> int:
    """`high_rank` of a hand without five cards of a suit, from the sets of rank values (rank -
    2) it holds once or more, twice or more, three times or more and four times."""
    if four:
        return (
            HIGH_CATEGORY_STARTS[7]
            + (four.bit_length() - 1) * 12
            + _number(_top(once & ~four, 1), four)
        )
    trips = _top(thrice, 1)
    if trips and twice & ~trips:
        return (
            HIGH_CATEGORY_STARTS[6]
            + (trips.bit_length() - 1) * 12
            + _number(_top(twice & ~trips, 1), trips)
        )
    straight = _high_straight(once)
    if straight >= 0:
        return HIGH_CATEGORY_STARTS[4] + straight
    if trips:
        return (
            HIGH_CATEGORY_STARTS[3]
            + (trips.bit_length() - 1) * 66
            + _number(_top(once & ~trips, 2), trips)
        )
    if twice:
        if twice.bit_count() >= 2:  # two pair: the two highest
            pairs = _top(twice, 2)
            return (
                HIGH_CATEGORY_STARTS[2]
                + _number(pairs) * 11
                + _number(_top(once & ~pairs, 1), pairs)
            )
        return (
            HIGH_CATEGORY_STARTS[1]
            + (twice.bit_length() - 1) * 220
            + _number(_top(once & ~twice, 3), twice)
        )
    return _no_straight_number(_top(once, 5), _HIGH_STRAIGHT_SETS)


def _high_class_of(rank: int) -> HighClass:
    """The class numbered `rank` (a valid `high_rank`), from its number alone."""
    category, values = _class_values(rank, HIGH_CATEGORY_STARTS, _HIGH_STRAIGHT_SETS, 3)
    return HighClass(category, tuple(value + 2 for value in values))


def _class_values(
    position: int, starts: Sequence[int], straights: list[int], lowest_top: int
) -> tuple[int, list[int]]:
    """The category (a `HIGH_CATEGORIES` index) and the five values, as classes list them, of
    the class at `position` among classes ordered as high hands: `starts`, where each category
    starts; `straights`, the numbers of the straights' value sets (increasing), which the
    no-pair numbers skip; `lowest_top`, the top value of the lowest straight (3 for the wheel,
    whose ace is then the value -1)."""
    category = len(starts) - 1
    while starts[category] > position:
        category -= 1
    number = position - starts[category]
    if category in (0, 5):
        for straight in straights:
            if straight <= number:
                number += 1
        return category, _uncolex(number, 5)
    if category in (4, 8):
        top = number + lowest_top
        return category, [top, top - 1, top - 2, top - 3, top - 4]
    return category, _grouped_values(category, number)


def _grouped_values(kind: int, number: int) -> list[int]:
    """The five values, as classes list them, of the class numbered `number` within a kind of
    hand with a pair or more: 1 pair, 2 two pair, 3 trips, 6 full house, 7 quads (the high
    categories; lows pass theirs so)."""
    if kind == 1:
        pair = number // 220
        return [pair, pair] + [_with(value, [pair]) for value in _uncolex(number % 220, 3)]
    if kind == 2:
        high, low = _uncolex(number // 11, 2)
        return [high, high, low, low, _with(number % 11, [low, high])]
    if kind == 3:
        trips = number // 66
        return [trips] * 3 + [_with(value, [trips]) for value in _uncolex(number % 66, 2)]
    if kind == 6:
        trips = number // 12
        pair = _with(number % 12, [trips])
        return [trips, trips, trips, pair, pair]
    quads = number // 12
    return [quads] * 4 + [_with(number % 12, [quads])]


def _held(cards: Sequence[Card], bits: list[int]) -> tuple[int, int, int, int]:
    """The sets of the values (a rank's bit in `bits`, by rank) the hand holds once or more,
    twice or more, three times or more and four times; five cards of a rank are refused."""
    once = twice = thrice = four = five = 0
    for item in cards:
        bit = bits[item.rank]
        five |= four & bit
        four |= thrice & bit
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    if five:
        raise _duplicate_error(cards)
    return once, twice, thrice, four


def _low_position(cards: Sequence[Card]) -> int:
    """Where the hand's best ace-to-five low stands among the 6,175, from the best (0):
    `low_rank` is 6,174 less it."""
    once, twice, thrice, four = _held(cards, _LOW_BITS)
    held = once.bit_count()
    if held < 2:
        raise _duplicate_error(cards)
    if held >= 5:  # no pair: the five lowest ranks
        return _number(_bottom(once, 5))
    if held == 4:  # a pair, the lowest one, and the other three ranks
        pair = twice & -twice
        return _LOW_CATEGORY_STARTS[1] + (pair.bit_length() - 1) * 220 + _number(once & ~pair, pair)
    if held == 3:
        if twice.bit_count() >= 2:  # two pair (better than trips): the two lowest pairs
            pairs = _bottom(twice, 2)
            return _LOW_CATEGORY_STARTS[2] + _number(pairs) * 11 + _number(once & ~pairs, pairs)
        return (
            _LOW_CATEGORY_STARTS[3] + (twice.bit_length() - 1) * 66 + _number(once & ~twice, twice)
        )
    low = once & -once
    high = once ^ low
    if thrice & low and twice & high:  # a full house, the lower trips if both can be
        return _LOW_CATEGORY_STARTS[4] + (low.bit_length() - 1) * 12 + _number(high, low)
    if thrice & high and twice & low:
        return _LOW_CATEGORY_STARTS[4] + (high.bit_length() - 1) * 12 + _number(low, high)
    return _LOW_CATEGORY_STARTS[5] + (four.bit_length() - 1) * 12 + _number(once & ~four, four)


def _low_class_of(rank: int) -> LowClass:
    """The ace-to-five low numbered `rank` (a valid ace-to-five `low_rank`), from its number."""
    position = LOW_RANK_COUNT - 1 - rank
    category = len(_LOW_CATEGORY_STARTS) - 1
    while _LOW_CATEGORY_STARTS[category] > position:
        category -= 1
    number = position - _LOW_CATEGORY_STARTS[category]
    if category == 0:
        values = _uncolex(number, 5)
    else:  # as the high kinds: pair, two pair, trips, full house (6), quads (7)
        values = _grouped_values((0, 1, 2, 3, 6, 7)[category], number)
    return LowClass(category, tuple(value + 1 for value in values))


# ---------------------------------------------------------------------------------------------
# High hands.


def _check_size(cards: Sequence[Card]) -> int:
    count = len(cards)
    if not 5 <= count <= 7:
        raise ValueError(f"a hand to evaluate has 5, 6 or 7 cards, not {count}")
    return count


def _duplicate_error(cards: Sequence[Card]) -> ValueError:
    return ValueError(f"the same card twice in {' '.join(map(str, cards))}")


def _five_suited(suits: int) -> int:
    """Of the packed suit counts of a hand's key (`SUIT_COUNT_MASK`), the top bit of each
    suit's count that is 5, 6 or 7 (0b101 and up); 0 when no suit has five cards."""
    return (suits >> 2) & (suits | suits >> 1) & 0x249


def high_rank(cards: Sequence[Card]) -> int:
    """Strength of the best five-card high hand in 5, 6 or 7 cards: 0 (7-5-4-3-2) to 7,461 (royal
    flush); bigger is better and equal values tie exactly. The cards must be distinct."""
    size = _check_size(cards)
    total = 0
    for item in cards:
        total += _CARD_KEYS[item.rank][item.suit]
    suits = total & SUIT_COUNT_MASK
    flush = _five_suited(suits)
    if flush:
        # Five suited cards out of at most seven leave two others: no full house or quads can
        # beat the flush, so the flush suit alone decides.
        suit = (flush.bit_length() - 1) // 3
        ranks = 0
        for item in cards:
            if item.suit == suit:
                ranks |= _RANK_BITS[item.rank]
        return _flush_high(ranks)
    memo = _HIGH_BY_RANK_SUM[size - 5]
    key = total >> SUIT_COUNT_BITS
    value = memo.get(key)
    if value is None:
        value = memo[key] = _high_of_cards(cards)
    return value


_HIGH_BY_RANK_SUM: list[dict[int, int]] = [{}, {}, {}]
"""`high_rank` of the hands of 5, 6 and 7 cards without a flush ranked so far, by their rank
sum (`RANK_SUM_KEYS`): at most 6,175, 18,395 and 49,205 of them, filled as hands come."""


def _high_of_cards(cards: Sequence[Card]) -> int:
    """`high_rank` of a hand without five cards of a suit."""
    once, twice, thrice, four = _held(cards, _RANK_BITS)
    return _high_of_ranks(once, twice, thrice, four)


def high_class(rank: int) -> HighClass:
    """The category and compared ranks of a `high_rank` value."""
    if not 0 <= rank < HIGH_RANK_COUNT:
        raise ValueError(f"{rank} is not a high_rank value (0..{HIGH_RANK_COUNT - 1})")
    return _high_class_of(rank)


def high_category(rank: int) -> str:
    """The category of a `high_rank` value, one of `HIGH_CATEGORIES` ("two pair", "flush")."""
    if not 0 <= rank < HIGH_RANK_COUNT:
        raise ValueError(f"{rank} is not a high_rank value (0..{HIGH_RANK_COUNT - 1})")
    category = len(HIGH_CATEGORY_STARTS) - 1
    while HIGH_CATEGORY_STARTS[category] > rank:
        category -= 1
    return HIGH_CATEGORIES[category]


def _name(rank: int) -> str:
    return RANK_NAMES[14 if rank == 1 else rank]


def _plural(rank: int) -> str:
    return PLURAL_RANK_NAMES[14 if rank == 1 else rank]


def describe_high_rank(rank: int) -> str:
    """PokerStars' words for a `high_rank` value: "two pair, Queens and Sevens"."""
    hand = high_class(rank)
    return _high_words(hand.category, hand.ranks)


def _high_words(category: int, ranks: tuple[int, ...]) -> str:
    """Words for a five-card hand of a `HIGH_CATEGORIES` index and its compared ranks (ace as 1
    or 14)."""
    top = ranks[0]
    match category:
        case 0:
            return f"high card {_name(top)}"
        case 1:
            return f"a pair of {_plural(top)}"
        case 2:
            return f"two pair, {_plural(top)} and {_plural(ranks[2])}"
        case 3:
            return f"three of a kind, {_plural(top)}"
        case 4:
            return f"a straight, {_name(ranks[4])} to {_name(top)}"
        case 5:
            return f"a flush, {_name(top)} high"
        case 6:
            return f"a full house, {_plural(top)} full of {_plural(ranks[3])}"
        case 7:
            return f"four of a kind, {_plural(top)}"
        case _:
            if top == 14:
                return "a Royal Flush"
            return f"a straight flush, {_name(ranks[4])} to {_name(top)}"


def describe_high(cards: Sequence[Card]) -> str:
    """PokerStars' words for the best high hand in 5 to 7 cards: "a full house, Fives full of
    Aces"."""
    return describe_high_rank(high_rank(cards))


# ---------------------------------------------------------------------------------------------
# Low hands.


def _qualifying_floor(qualifier: int | None, lowball: Lowball) -> int:
    if qualifier is None:
        return 0
    if lowball is not Lowball.ACE_TO_FIVE:
        raise ValueError(f"a {lowball} low has no qualifier, not {qualifier!r}")
    if not 5 <= qualifier <= 13:
        raise ValueError(f"a low qualifier is None or a rank from 5 to 13, not {qualifier!r}")
    # The worst qualifying low: five ranks in a row from the qualifier down (values rank - 1).
    return LOW_RANK_COUNT - 1 - _number(0x1F << (qualifier - 5))


def low_floor(top: int, lowball: Lowball = Lowball.ACE_TO_FIVE) -> int:
    """The `low_rank` of the worst low `top` high (a rank: 8 for "eight or better"): a low
    is `top` or better exactly when its `low_rank` is at least this. Ace-to-five: the floor of
    a qualifier of `top` (`top` and the four ranks below it: straights do not count), 5 to 13.
    Deuce-to-seven and ace-to-six, where straights and flushes count against a low: `top`,
    the three ranks below it and the fifth below (five in a row are a straight), not of one
    suit; `top` from 7 to the ace in deuce-to-seven (ace high), from 6 to the king in
    ace-to-six (ace low). Else a ValueError."""
    if lowball is Lowball.ACE_TO_FIVE:
        return _qualifying_floor(top, lowball)
    ace_low = lowball is Lowball.ACE_TO_SIX
    lowest, highest = (6, 13) if ace_low else (7, 14)
    if not lowest <= top <= highest:
        raise ValueError(f"a {lowball} low is {lowest} to {highest} high, not {top!r}")
    ranks = [top, top - 1, top - 2, top - 3, top - 5]
    worst = [
        DECK[(14 if rank == 1 else rank) * 4 - 8 + place % 4] for place, rank in enumerate(ranks)
    ]
    return _lowball_rank(worst, lowball)


def low_rank(
    cards: Sequence[Card], qualifier: int | None, lowball: Lowball = Lowball.ACE_TO_FIVE
) -> int | None:
    """Strength of the best low in 5, 6 or 7 cards, ranked the `lowball` way; bigger is better
    and equal values tie exactly.

    Ace-to-five (razz, stud hi/lo): 0 (K-K-K-K-Q) to 6,174 (5-4-3-2-A). Straights and flushes do
    not count and pairs hurt: any pair loses to every five distinct ranks. With a `qualifier` (8
    in stud8) only five distinct ranks no higher than it count, and a hand without them gives
    None; razz passes None.

    Deuce-to-seven (2-7 razz) and ace-to-six (London lowball): the five cards whose high hand is
    the worst, straights and flushes counting, 0 (the worst: a royal flush, or K-Q-J-10-9 of one
    suit in ace-to-six) to 7,461 (7-5-4-3-2, or 6-4-3-2-A, not of one suit). Deuce-to-seven plays
    the ace high only (5-4-3-2-A is ace high, not a straight); ace-to-six plays it low only
    (5-4-3-2-A is a straight, A-K-Q-J-10 is king high). There is no qualifier: a `qualifier`
    other than None is a ValueError."""
    if lowball is not Lowball.ACE_TO_FIVE:
        if qualifier is not None:
            _qualifying_floor(qualifier, lowball)  # raises: these lows have no qualifier
        return _lowball_rank(cards, lowball)
    size = _check_size(cards)
    floor = _qualifying_floor(qualifier, lowball)
    total = 0
    for item in cards:
        total += _CARD_KEYS[item.rank][item.suit]
    memo = _LOW_BY_RANK_SUM[size - 5]
    key = total >> SUIT_COUNT_BITS
    value = memo.get(key)
    if value is None:
        value = memo[key] = LOW_RANK_COUNT - 1 - _low_position(cards)
    # Every qualifying low beats every low that does not qualify, so the best low qualifies if
    # any does, and a floor on the value is the whole test.
    return value if value >= floor else None


_LOW_BY_RANK_SUM: list[dict[int, int]] = [{}, {}, {}]
"""The ace-to-five `low_rank` (qualifier aside) of the hands of 5, 6 and 7 cards ranked so far,
by their rank sum, as `_HIGH_BY_RANK_SUM`."""


_LOWBALL_BY_RANK_SUM: list[list[dict[int, int]]] = [[{}, {}, {}], [{}, {}, {}]]
"""The deuce-to-seven (first list) and ace-to-six `low_rank` of the hands of 5, 6 and 7 cards
without five of a suit ranked so far, by their rank sum, as `_HIGH_BY_RANK_SUM`."""


def _lowball_rank(cards: Sequence[Card], lowball: Lowball) -> int:
    """`low_rank` of a deuce-to-seven or ace-to-six low, without tables: the worst high-style
    class among the hand's fives (`_lowball_five`)."""
    size = _check_size(cards)
    ace_low = lowball is Lowball.ACE_TO_SIX
    total = 0
    for item in cards:
        total += _CARD_KEYS[item.rank][item.suit]
    suits = total & SUIT_COUNT_MASK
    if not _five_suited(suits):
        # No five cards of one suit: the ranks alone decide.
        memo = _LOWBALL_BY_RANK_SUM[ace_low][size - 5]
        key = total >> SUIT_COUNT_BITS
        value = memo.get(key)
        if value is None:
            _held(cards, _RANK_BITS)  # five cards of a rank: refused
            value = memo[key] = _lowball_of_fives(cards, ace_low, False)
        return value
    if len(set(cards)) != size:
        raise _duplicate_error(cards)
    # Five or more cards of one suit (3% of seven-card hands): some fives are flushes.
    return _lowball_of_fives(cards, ace_low, True)


def _lowball_of_fives(cards: Sequence[Card], ace_low: bool, flushes: bool) -> int:
    """`low_rank` of the best deuce-to-seven (ace-to-six if `ace_low`) five of the cards; a
    five of one suit is a flush only when `flushes`."""
    bits = [(_LOW_BITS if ace_low else _RANK_BITS)[item.rank] for item in cards]
    suits = [item.suit for item in cards]
    worst = HIGH_RANK_COUNT
    for a, b, c, d, e in _FIVE_POSITIONS[len(cards)]:
        suited = flushes and suits[a] == suits[b] == suits[c] == suits[d] == suits[e]
        position = _lowball_five(bits[a], bits[b], bits[c], bits[d], bits[e], suited)
        if position < worst:
            worst = position
    return HIGH_RANK_COUNT - 1 - worst


def _lowball_five(a: int, b: int, c: int, d: int, e: int, suited: bool) -> int:
    """Where five cards of these rank values (one bit each: deuce-to-seven values rank - 2,
    ace-to-six values rank - 1 with the ace 0) stand among the lowball's 7,462 classes ordered
    as high hands, from the worst high hand (0): `low_rank` is 7,461 less it. Straights are five
    values in a row, none wrapping round the ace."""
    once = twice = thrice = four = 0
    for bit in (a, b, c, d, e):
        four |= thrice & bit
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    if twice:
        # A pair or more: numbered as the high hands, one more no-pair class (five values in a
        # row with the ace high, or A-K-Q-J-10 with it low) below.
        return _high_of_ranks(once, twice, thrice, four) + 1
    lowest = once & -once
    if once == lowest * 0x1F:
        return _LOWBALL_CATEGORY_STARTS[8 if suited else 4] + lowest.bit_length() - 1
    return _LOWBALL_CATEGORY_STARTS[5 if suited else 0] + _no_straight_number(
        once, _LOWBALL_STRAIGHT_SETS
    )


_LOWBALL_STRAIGHT_SETS = [_number(0x1F << low) for low in range(9)]
"""The numbers of a lowball's nine straights' value sets, increasing."""

_LOWBALL_CATEGORY_STARTS = (0, 1278, 4138, 4996, 5854, 5863, 7141, 7297, 7453)
"""Where each of `HIGH_CATEGORIES` starts among a deuce-to-seven or ace-to-six lowball's classes
ordered as high hands (the worst high hand 0): 1,278 no-pair hands, 9 straights, 1,278 flushes
and 9 straight flushes, the paired kinds as in `HIGH_CATEGORY_STARTS`."""


def _lowball_class_of(rank: int, lowball: Lowball) -> LowClass:
    """The deuce-to-seven or ace-to-six low numbered `rank` (a valid `low_rank` of it), from its
    number."""
    category, values = _class_values(
        HIGH_RANK_COUNT - 1 - rank, _LOWBALL_CATEGORY_STARTS, _LOWBALL_STRAIGHT_SETS, 4
    )
    offset = 1 if lowball is Lowball.ACE_TO_SIX else 2
    return LowClass(category, tuple(value + offset for value in values), lowball)


_FIVE_POSITIONS: dict[int, list[tuple[int, ...]]] = {
    size: list(itertools.combinations(range(size), 5)) for size in (5, 6, 7)
}
"""The positions of every five of a hand of 5, 6 or 7 cards."""


def low_class(rank: int, lowball: Lowball = Lowball.ACE_TO_FIVE) -> LowClass:
    """The category and ranks of a `low_rank` value of the `lowball` (ace as 1, except 14 in
    deuce-to-seven)."""
    count = LOW_RANK_COUNTS[lowball]
    if not 0 <= rank < count:
        raise ValueError(f"{rank} is not a {lowball} low_rank value (0..{count - 1})")
    if lowball is Lowball.ACE_TO_FIVE:
        return _low_class_of(rank)
    return _lowball_class_of(rank, lowball)


def low_cards(
    cards: Sequence[Card], qualifier: int | None, lowball: Lowball = Lowball.ACE_TO_FIVE
) -> tuple[int, ...] | None:
    """The five ranks of the best low in PokerStars' order: (7, 6, 5, 3, 1); pairs come first
    (3, 3, 5, 4, 1). The ace is 1, except in deuce-to-seven, where it is 14 (14, 5, 4, 3, 2).
    None when no low qualifies."""
    value = low_rank(cards, qualifier, lowball)
    return None if value is None else low_class(value, lowball).ranks


def describe_low_rank(rank: int, lowball: Lowball = Lowball.ACE_TO_FIVE) -> str:
    """The text of a `low_rank` value: the five ranks as PokerStars prints a razz low, "7,6,5,3,A"
    (pairs first: "3,3,K,5,4"); every ace-to-five low and every deuce-to-seven or ace-to-six low
    without a pair, straight or flush reads so ("7,5,4,3,2", "6,4,3,2,A"). A deuce-to-seven or
    ace-to-six low that makes a hand is named as that high hand with the ranks after it, since
    there the hand, not only the ranks, decides: "a pair of Fours (4,4,8,7,2)", "a straight, Ace
    to Five (5,4,3,2,A)", "a flush, Seven high (7,5,4,3,2)"."""
    low = low_class(rank, lowball)
    text = ",".join(RANK_CHARS[12 if rank == 1 else rank - 2] for rank in low.ranks)
    if lowball is Lowball.ACE_TO_FIVE or low.category == 0:
        return text
    return f"{_high_words(low.category, low.ranks)} ({text})"


def describe_low(
    cards: Sequence[Card], qualifier: int | None, lowball: Lowball = Lowball.ACE_TO_FIVE
) -> str | None:
    """The text of the best low (see `describe_low_rank`: "6,4,3,2,A"; razz shows it after
    "Lo: "), or None when no low qualifies."""
    value = low_rank(cards, qualifier, lowball)
    return None if value is None else describe_low_rank(value, lowball)


# ---------------------------------------------------------------------------------------------
# Batches.


def _hand_array(card_indices: np.ndarray) -> np.ndarray:
    import numpy as np

    hands = np.asarray(card_indices)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise ValueError(
            f"card_indices must be an (N, 5), (N, 6) or (N, 7) array, not {hands.shape}"
        )
    if not np.issubdtype(hands.dtype, np.integer):
        raise ValueError(f"card_indices must hold integers (Card.index), not {hands.dtype}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise ValueError("card_indices must be Card.index values, 0..51")
    return hands


def _batch_keys(hands: np.ndarray) -> np.ndarray:
    keys = _base_tables().card_keys
    # Adding one gathered column at a time beats keys[hands].sum(axis=1), whose reduction over
    # rows of 5-7 values is slow in NumPy.
    total = keys[hands[:, 0]]
    for column in range(1, hands.shape[1]):
        total += keys[hands[:, column]]
    return total


def high_rank_batch(card_indices: np.ndarray) -> np.ndarray:
    """`high_rank` of every row of an (N, 5), (N, 6) or (N, 7) integer array of `Card.index`
    values, as an int32 array of N. Rows must not repeat a card (not checked: it costs as much
    as the evaluation)."""
    import numpy as np

    hands = _hand_array(card_indices)
    base = _base_tables()
    tables = _size_tables(hands.shape[1])
    total = _batch_keys(hands)
    result = tables.high_by_multiset[tables.multiset_by_rank_sum[total >> SUIT_COUNT_BITS]]
    flush_suits = base.flush_suit[total & SUIT_COUNT_MASK]
    rows = np.flatnonzero(flush_suits >= 0)
    if rows.size:
        # Few hands hold a flush (3% of seven-card hands), so only their rows get the second pass.
        flush_hands = hands[rows]
        in_suit = base.card_suits[flush_hands] == flush_suits[rows, np.newaxis]
        # One card per rank in a suit: the sum of the rank bits is their bitwise or.
        masks = (base.card_rank_bits[flush_hands] * in_suit).sum(axis=1)
        result[rows] = base.flush_high[masks]
    return result


def low_rank_batch(
    card_indices: np.ndarray, qualifier: int | None, lowball: Lowball = Lowball.ACE_TO_FIVE
) -> np.ndarray:
    """`low_rank` of every row of an (N, 5..7) `Card.index` array as an int32 array, with
    `NO_LOW` (-1) where no low qualifies. Rows must not repeat a card (not checked)."""
    hands = _hand_array(card_indices)
    floor = _qualifying_floor(qualifier, lowball)
    if lowball is not Lowball.ACE_TO_FIVE:
        return _lowball_rank_batch(hands, lowball)
    tables = _size_tables(hands.shape[1])
    result = tables.low_by_multiset[
        tables.multiset_by_rank_sum[_batch_keys(hands) >> SUIT_COUNT_BITS]
    ]
    if floor:
        result[result < floor] = NO_LOW
    return result


def _lowball_rank_batch(hands: np.ndarray, lowball: Lowball) -> np.ndarray:
    """`low_rank_batch` of a deuce-to-seven or ace-to-six low."""
    import numpy as np

    base = _base_tables()
    size = hands.shape[1]
    total = _batch_keys(hands)
    result = _lowball_size_tables(lowball, size).low_by_multiset[
        _size_tables(size).multiset_by_rank_sum[total >> SUIT_COUNT_BITS]
    ]
    rows = np.flatnonzero(base.flush_suit[total & SUIT_COUNT_MASK] >= 0)
    if rows.size:
        # The few hands with five cards of one suit (3% of seven-card hands) get the best of
        # their fives, flushes included, in a second pass.
        result[rows] = _best_five_lowball(hands[rows], lowball)
    return result


def _best_five_lowball(hands: np.ndarray, lowball: Lowball) -> np.ndarray:
    """The best deuce-to-seven or ace-to-six `low_rank` of the fives of each row, every five
    ranked (flushes by their rank masks)."""
    import numpy as np

    base = _base_tables()
    flush_low = _lowball_tables(lowball).flush_low
    five_rows = _size_tables(5).multiset_by_rank_sum
    five_low = _lowball_size_tables(lowball, 5).low_by_multiset
    best = np.full(len(hands), -1, dtype=np.int32)
    for five in itertools.combinations(range(hands.shape[1]), 5):
        subset = hands[:, list(five)]
        total = _batch_keys(subset)
        value = five_low[five_rows[total >> SUIT_COUNT_BITS]]
        suited = np.flatnonzero(base.flush_suit[total & SUIT_COUNT_MASK] >= 0)
        if suited.size:
            # Distinct ranks in one suit: the sum of the rank bits is their bitwise or.
            value[suited] = flush_low[base.card_rank_bits[subset[suited]].sum(axis=1)]
        np.maximum(best, value, out=best)
    return best


# ---------------------------------------------------------------------------------------------
# Hands as sums of card codes: the cards a hand keeps (a stud player's known cards) are summed
# once, and only the cards that vary are added per row.

SUIT_BITS_PER_SUIT = 13
"""`card_bits` gives each suit 13 bits, one per rank."""


@cache
def card_codes() -> tuple[np.ndarray, np.ndarray]:
    """Two int64 codes per card, by `Card.index`, whose sums over a hand's distinct cards are
    all `high_rank_summed` and `low_rank_summed` need: the key (the rank key above 12 bits of
    suit counts, as the batches sum) and the card's bit, `1 << (13 * suit + rank - 2)` (their
    sum is the set of cards itself, from which the ranks held in a suit are read). Sums of
    distinct cards only: a card twice gives a wrong hand, not an error."""
    import numpy as np

    base = _base_tables()
    indices = np.arange(52)
    bits = np.left_shift(1, SUIT_BITS_PER_SUIT * (indices % 4) + indices // 4).astype(np.int64)
    keys = base.card_keys.copy()
    keys.flags.writeable = False
    bits.flags.writeable = False
    return keys, bits


def high_rank_summed(keys: np.ndarray, bits: np.ndarray, size: int) -> np.ndarray:
    """`high_rank` of hands of `size` (5, 6 or 7) distinct cards given as the sums of their
    `card_codes` (two int64 arrays of N), as an int32 array of N."""
    import numpy as np

    return high_rank_keyed(keys, bits.take, size).astype(np.int32)


def high_rank_keyed(
    keys: np.ndarray, bits_of: Callable[[np.ndarray], np.ndarray], size: int
) -> np.ndarray:
    """`high_rank_summed` as an int16 array (every value fits), given the key sums and
    `bits_of`, which gives the bit sums of the rows asked (an int array of row numbers): only
    the hands with five or more cards of one suit need theirs (3% of seven-card hands), so a
    caller that sums the codes of random deals (`handlog.equity`) sums their bits for those
    alone."""
    import numpy as np

    base = _base_tables()
    result = _by_rank_sum(size, "high").take(keys >> SUIT_COUNT_BITS)
    flush_suits = base.flush_suit_small.take(keys & SUIT_COUNT_MASK)
    rows = np.flatnonzero(flush_suits >= 0)
    if rows.size:
        shift = SUIT_BITS_PER_SUIT * flush_suits[rows]
        result[rows] = base.flush_high[(bits_of(rows) >> shift) & 0x1FFF]
    return result


def low_rank_summed(
    keys: np.ndarray,
    bits: np.ndarray,
    size: int,
    qualifier: int | None,
    lowball: Lowball = Lowball.ACE_TO_FIVE,
) -> np.ndarray:
    """`low_rank_batch` of hands of `size` distinct cards given as the sums of their
    `card_codes`: an int32 array with `NO_LOW` where no low qualifies."""
    import numpy as np

    return low_rank_keyed(keys, bits.take, size, qualifier, lowball).astype(np.int32)


def low_rank_keyed(
    keys: np.ndarray,
    bits_of: Callable[[np.ndarray], np.ndarray],
    size: int,
    qualifier: int | None,
    lowball: Lowball = Lowball.ACE_TO_FIVE,
) -> np.ndarray:
    """`low_rank_summed` as an int16 array, given the key sums and `bits_of` as for
    `high_rank_keyed`: an ace-to-five low never reads the bits, the other lowballs only those
    of the hands with five cards of one suit."""
    import numpy as np

    floor = _qualifying_floor(qualifier, lowball)
    if lowball is Lowball.ACE_TO_FIVE:
        result = _by_rank_sum(size, "low").take(keys >> SUIT_COUNT_BITS)
        if floor:
            result[result < floor] = NO_LOW
        return result
    multiset = _size_tables(size).multiset_by_rank_sum.take(keys >> SUIT_COUNT_BITS)
    result = _lowball_size_tables(lowball, size).low_by_multiset.take(multiset).astype(np.int16)
    rows = np.flatnonzero(_base_tables().flush_suit_small.take(keys & SUIT_COUNT_MASK) >= 0)
    if rows.size:
        # Five or more cards of one suit: every five is ranked, as `low_rank_batch` does, from
        # the cards the bits name.
        result[rows] = _best_five_lowball(_cards_of_bits(bits_of(rows), size), lowball)
    return result


def _cards_of_bits(bits: np.ndarray, size: int) -> np.ndarray:
    """The `Card.index` values of each row's `size` set bits (`card_codes`)."""
    import numpy as np

    positions = np.arange(52, dtype=np.int64)
    present = (bits[:, np.newaxis] >> positions) & 1
    places = np.nonzero(present)[1].reshape(len(bits), size)
    return (places % SUIT_BITS_PER_SUIT) * 4 + places // SUIT_BITS_PER_SUIT


def high_category_batch(ranks: np.ndarray) -> np.ndarray:
    """Index into `HIGH_CATEGORIES` of every `high_rank` value in an array."""
    import numpy as np

    return np.searchsorted(np.array(HIGH_CATEGORY_STARTS), ranks, side="right") - 1


# ---------------------------------------------------------------------------------------------
# Showing hands and the bring-in.


def _variant(game: str) -> Variant:
    name = getattr(game, "value", game)
    if name not in GAMES:
        raise ValueError(f"unknown game {game!r}: expected one of {', '.join(GAMES)}")
    return VARIANTS[Game(name)]


def _low_card_rank(rank: int) -> int:
    return 1 if rank == 14 else rank


def showing_rank(up_cards: Sequence[Card], game: str) -> tuple[int, tuple[int, ...], int]:
    """Sort key of a player's face-up cards (1 to 5 with a community card) for choosing who acts
    first on 4th street and later: the biggest key acts first, in every game.

    stud, stud8, stud5, stud_hilo: quads, trips (with a pair it is a full house), two pair,
    pair, then high cards, ace high; straights and flushes never count. Equal ranks are settled
    by the suit of the highest card (clubs lowest, spades highest; among cards of the top rank,
    its best suit), the higher suit acting first.
    razz, razz_a6 (the games whose `Variant.showing_low`): the lowest showing hand acts first:
    ace low, any pair worse than no pair, compared from the highest card down (7-5 beats 8-2).
    Equal ranks: the highest card with the lower suit acts first (6c-2s before 6d-2c, the seed
    rule). razz27: the same with the ace high (`Variant.ace_low` false: 3-2 before A-2).
    Straights and flushes do not count in a showing low either, not even five up cards of one
    with the community card."""
    variant = _variant(game)
    if not 1 <= len(up_cards) <= 5:
        raise ValueError(f"a showing hand has 1 to 5 face-up cards, not {len(up_cards)}")
    low = variant.showing_low
    ace_low = variant.ace_low
    ranks = tuple(
        sorted([_low_card_rank(c.rank) if ace_low else c.rank for c in up_cards], reverse=True)
    )
    found = _SHOWING_BY_RANKS.get((low, ranks))
    if found is None:
        pattern, ordered = _grouped(ranks)
        category = _pattern_category(pattern)
        # Negated in razz so that the lowest hand has the biggest key, like every other key.
        found = (-category, tuple(-rank for rank in ordered)) if low else (category, ordered)
        _SHOWING_BY_RANKS[(low, ranks)] = found
    top = ranks[0]
    suit = max(c.suit for c in up_cards if (_low_card_rank(c.rank) if ace_low else c.rank) == top)
    return (found[0], found[1], -suit if low else suit)


_SHOWING_BY_RANKS: dict[tuple[bool, tuple[int, ...]], tuple[int, tuple[int, ...]]] = {}
"""Category and compared ranks of showing hands by their sorted ranks: a few thousand
rank multisets of one to five cards cover every hand, so this memo stays small."""


def first_to_act(up_cards_by_player: Mapping[str, Sequence[Card]], game: str) -> str:
    """The player whose showing hand acts first on 4th street and later (see `showing_rank`)."""
    if not up_cards_by_player:
        raise ValueError("no players to choose the first actor from")
    return max(
        up_cards_by_player, key=lambda player: showing_rank(up_cards_by_player[player], game)
    )


def bring_in_key(door_card: Card, game: str) -> tuple[int, int]:
    """Sort key of a door card for the bring-in: the biggest key brings in. stud, stud8 and
    stud5 (and stud_hilo): the lowest card, ace high, clubs before diamonds (2c before 2d). razz
    and razz_a6: the highest card, king high and ace lowest, spades before clubs (Ks before
    Kc). razz27: the highest card, aces high (As before Ac before Ks)."""
    variant = _variant(game)
    if variant.bring_in_highest:
        rank = _low_card_rank(door_card.rank) if variant.ace_low else door_card.rank
        return (rank, door_card.suit)
    return (-door_card.rank, -door_card.suit)


def bring_in_player(door_cards: Mapping[str, Card], game: str) -> str:
    """The player who must post the bring-in on 3rd street, from each player's door card."""
    if not door_cards:
        raise ValueError("no door cards to choose the bring-in from")
    return max(door_cards, key=lambda player: bring_in_key(door_cards[player], game))
