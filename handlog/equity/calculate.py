"""Each live player's expected share of each pot of a `Spot`, over every way the rest of the
deck could be dealt: exactly when the deals left are few, else from a seeded sample with its
95% error stated.

How it runs: a player's final hand is the cards they hold plus the cards they still get, and
the hand evaluator ranks hands from two sums of per-card codes (`evaluate.card_codes`), so the
known cards are summed once and only the drawn ones are added (a sample's second sum, the
suits', only for the few hands that can hold a flush: `evaluate.high_rank_keyed`). Every set
of cards a player could still get (a draw: a few hundred or thousand of them) is ranked once,
and a deal is a draw for each player, no card in two. Exactly, heads-up: the deals are
counted, not listed
(`_count_apart`: each draw of one player against the other's sorted strengths, those sharing
its cards taken off by inclusion and exclusion; or, when the pairs of draws are few, every
pair compared at once, `_Deal._count_pairs`), each half of a hi/lo pot apart; only tied deals are
listed. Exactly, more players: the deals are a NumPy grid with an axis per player's
draws (the cells where two draws share a card left out), or, on small decks, enumerated one
player after another. Sampled: the deals are rows of a fixed table of ordered draws of
distinct unknown cards' positions (made once a process from a fixed seed, `_deal_table`),
relabelled by a random permutation of the spot's unknown cards and read from a random row on
(`_Drawn`): a deal's code sums are a look-up per pair of cards, no random draw per deal and
no try thrown away. Each way deals the rest as a shuffled deck would, every deal as likely as
any other.
However found, a deal comes down to who wins each pot or half — the winners' seats as a small
integer, counted (`_each_outcome`; two players of one kind of hand by two comparisons,
`_Deal._counted`) — and each distinct outcome is paid by the replay's own division
(`tables.award`: the parts of the pot, `tables.pot_parts`, shared among ties by
`tables.divide`) on one representative deal: the tie splits and the house's odd chip are the
replay's rules, not a second copy of them. Where an odd chip is left over among tied hands and
the house gives it by the cards (`tables.award_reads_cards`), the deals are grouped further by
how the tied players' highest and lowest cards compare, which is all `divide` reads of them.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

import numpy as np

from handlog.cards import DECK
from handlog.equity.spot import EXACT_LIMIT, Spot
from handlog.rules import evaluate
from handlog.rules.tables import award, award_reads_cards, divide, divide_reads_cards, pot_parts
from handlog.rules.variants import VARIANTS, Lowball

JOINT_LIMIT = 4_000_000
"""Rows at most that enumerating the deals jointly may build on the way (the sets of one
player beside every deal of the players before)."""
TARGET_ERROR = 0.005
"""Sampling stops once every equity's 95% interval is within this (half a percentage point)."""
MAX_SAMPLES = 400_000
"""Sampling stops here in any case (the widest interval, an equity of one half, needs about
38,400 samples)."""
PAIRED_LIMIT = 40_000
"""Pairs of draws at most (heads-up, exact) that are compared all at once (`_Deal._count_pairs`)
rather than counted by sorting (`_count_apart`): a 7th-street spot's thousand or so, a draw
of one card against two."""
FIRST_SAMPLES = 12_288
"""The first batch of samples; later batches are sized from the variance seen."""
Z_95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


HEAP_ARRAYS = 1 << 22
"""Bytes of the NumPy array made and dropped once when this module is imported, so that the
arrays of a batch (a few hundred KB each) come from the C heap: glibc's malloc maps every
block above its threshold (128 KiB at first) afresh and unmaps it when freed, so each of a
batch's temporary arrays would cost a page fault per 4 KiB written, more than the work on it
(a sampled spot took twice as long). Freeing a mapped block raises the threshold to its size
(mallopt(3): the threshold is dynamic), for the life of the process; other allocators are not
affected."""
np.empty(HEAP_ARRAYS, dtype=np.uint8)


class Method(StrEnum):
    """How an equity was found."""

    EXACT = "exact"
    """Every way the rest of the deck could be dealt, each counted once."""
    SAMPLED = "sampled"
    """A seeded sample of those ways (the same every run), with its 95% error."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Share:
    """One player's expectation from one pot."""

    pot: int
    """0 the main pot, then the side pots in the order of `Spot.pots`."""
    player: str
    amount: int
    """The pot as it will be paid out, in the hand's minor units."""
    expected: Fraction
    """Expected chips from the pot: the mean over the deals (every deal when exact, the
    samples when sampled), the odd chips where the house's rule sends them."""
    high: Fraction
    """The part of `expected` won by the high hand (all of it in high-only games; the high half
    of a hi/lo pot, or the whole pot when no low qualifies or the player alone is in it)."""
    low: Fraction
    """The part won by the low hand (all of it in the razz games)."""
    error: float
    """Half the width of the 95% interval of `equity`: 0.0 when exact."""

    @property
    def equity(self) -> float:
        """The expected share of the pot, 0 to 1."""
        return float(self.expected / self.amount) if self.amount else 0.0


@dataclass(frozen=True, slots=True)
class Equities:
    """The equities of one spot."""

    spot: Spot
    method: Method
    deals: int
    """Ways of dealing the rest counted: all of them (exact) or the samples drawn."""
    shares: tuple[Share, ...]
    """One per pot and eligible player, pot by pot, players in seat order."""
    rankings: int = 0
    """Hands the evaluator ranked to find them (high and low count apart): the work done."""

    @property
    def error(self) -> float:
        """The widest 95% half-interval of any equity (0.0 when exact)."""
        return max((share.error for share in self.shares), default=0.0)

    def expected(self, player: str) -> Fraction:
        """What the player collects in expectation, all pots together."""
        return sum((s.expected for s in self.shares if s.player == player), Fraction(0))

    def equity(self, player: str, pot: int = 0) -> float:
        """The player's expected share of a pot (0 if not eligible for it)."""
        return next((s.equity for s in self.shares if s.player == player and s.pot == pot), 0.0)


def equities(
    spot: Spot,
    *,
    exact_limit: int = EXACT_LIMIT,
    target_error: float = TARGET_ERROR,
    max_samples: int = MAX_SAMPLES,
) -> Equities:
    """Each live player's expected share of each pot of `spot`, exact when there are at most
    `exact_limit` ways to deal the rest, else sampled until every equity's 95% interval is
    within `target_error` (or `max_samples` are drawn). `SpotError` for a spot that cannot be
    dealt out."""
    spot.check()
    deal = _Deal(spot)
    tally = _Tally(len(spot.pots), len(spot.holdings))
    if deal.deals <= exact_limit:
        if deal.heads_up_counted():
            deal.count_heads_up(tally)
            return tally.result(spot, Method.EXACT, deal.rankings)
        # The grid costs a cell per combination of draws, overlapping or not; the joint
        # enumeration a row per deal but more to build: the grid unless it is much bigger
        # (a small deck shared by many players).
        if deal.grid <= 2 * deal.deals:
            deal.score(deal.every_deal(), tally)
            return tally.result(spot, Method.EXACT, deal.rankings)
        if deal.joint_work <= JOINT_LIMIT:
            deal.score(deal.every_deal_jointly(), tally)
            return tally.result(spot, Method.EXACT, deal.rankings)
    generator = np.random.default_rng(int.from_bytes(spot.fingerprint(), "big"))
    batch = FIRST_SAMPLES
    while True:
        deal.score(deal.sample(generator, batch), tally)
        widest = max(tally.errors(spot), default=0.0)
        if widest <= target_error or tally.count >= max_samples:
            break
        # Samples needed for the widest interval to shrink to the target (the width goes as
        # one over the square root of the count), with a margin, in whole thousands.
        needed = math.ceil(tally.count * (widest / target_error) ** 2 * 1.05)
        batch = min(
            max_samples - tally.count, max(2_048, -(-(needed - tally.count) // 1024) * 1024)
        )
    return tally.result(spot, Method.SAMPLED, deal.rankings)


# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Batch:
    """Some deals of the rest of the deck: each player's hand strength in each deal, and a way
    to get the cards of chosen deals. Exactly, the deals are a grid with an axis per player (the
    sets of cards they could still get) and one for the community card; the strengths are
    arrays that broadcast to it, and `valid` marks the cells where no card is dealt twice. A
    sample is one axis of deals."""

    shape: tuple[int, ...]
    count: int
    """Deals in the batch (the valid cells of a grid)."""
    high: list[np.ndarray] | None
    """Per player, `high_rank` values broadcasting to `shape` (in games with a high)."""
    low: list[np.ndarray] | None
    """Per player, `low_rank` values (`evaluate.NO_LOW` when none qualifies)."""
    valid: np.ndarray | None
    """Flat: whether each cell is a deal (None: all are)."""
    hands: Callable[[np.ndarray], np.ndarray]
    """Flat cell numbers -> (cells, players, hand size) `Card.index` values of those deals."""


@cache
def _combinations(count: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every `size`-subset of range(count) as rows of positions, and each row's bit mask."""
    if size == 0:
        return np.zeros((1, 0), dtype=np.int64), np.zeros(1, dtype=np.int64)
    rows = np.array(list(itertools.combinations(range(count), size)), dtype=np.int64)
    masks = np.zeros(len(rows), dtype=np.int64)
    for column in range(size):
        masks |= np.left_shift(1, rows[:, column])
    rows.flags.writeable = False
    masks.flags.writeable = False
    return rows, masks


@cache
def _low_card_codes(lowball: Lowball) -> np.ndarray:
    """Each card's place from the lowest with the ace below the deuce (except in
    deuce-to-seven): one of the comparisons the odd chip of a low half can read."""
    ace_low = lowball is not Lowball.DEUCE_TO_SEVEN
    codes = np.array(
        [(1 if ace_low and card.rank == 14 else card.rank) * 4 + card.suit for card in DECK],
        dtype=np.int64,
    )
    codes.flags.writeable = False
    return codes


@cache
def _card_codes() -> tuple[np.ndarray, np.ndarray, list[int], list[int]]:
    """`evaluate.card_codes` made once a process, and the same codes as lists (a few cards'
    sums are cheaper in Python than in NumPy)."""
    keys, bits = evaluate.card_codes()
    return keys, bits, keys.tolist(), bits.tolist()


class _Deal:
    """A spot made ready to deal: the unknown cards, each player's known cards summed, the
    number of cards each still gets."""

    def __init__(self, spot: Spot) -> None:
        self.spot = spot
        variant = self.variant = VARIANTS[spot.game]
        self.size = variant.cards
        keys, bits, key_list, bit_list = _card_codes()
        known = {_INDEX[card] for card in spot.known_cards()}
        self.pool = np.array([index for index in range(52) if index not in known], np.int64)
        self.pool_keys = keys[self.pool]
        self.pool_bits = bits[self.pool]
        self.players = spot.players
        self.seat = {player: index for index, player in enumerate(self.players)}
        shared = [_INDEX[spot.community_card]] if spot.community_card is not None else []
        held = [
            [_INDEX[card] for card in holding.cards if card is not None]
            for holding in spot.holdings
        ]
        self.fixed = [cards + shared for cards in held]
        own = spot.own_cards
        self.draws = [own - len(cards) for cards in held]
        self.community_draw = 1 if spot.community and spot.community_card is None else 0
        self.fixed_keys = [sum([key_list[card] for card in cards]) for cards in self.fixed]
        self.fixed_bits = [sum([bit_list[card] for card in cards]) for cards in self.fixed]
        self.eligible = [[self.seat[p] for p in pot.eligible] for pot in spot.pots]
        self.low_codes = _low_card_codes(variant.lowball)
        self.rankings = 0
        """Hands ranked so far (a hand ranked high and low counts twice)."""
        self.tables: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] | None = None
        """Each player's draws ranked, for counting heads-up (`_draw_tables`)."""
        self.paid: dict[tuple[int, int], tuple[dict[int, int], dict[int, int]] | None] = {}
        """What each outcome of a pot pays, high and low (`score`), by (pot, outcome code);
        None where the division reads the winners' cards."""
        self.drawn: _Drawn | None = None
        """The spot's deal table, relabelled (`sample`): made on the first batch."""
        # Ways to deal the rest, and the cells of the exact grid: every set of cards each player
        # could get, times every community card (overlapping sets included).
        unknown = len(self.pool)
        self.grid = math.prod(math.comb(unknown, draw) for draw in self.draws)
        self.grid *= unknown if self.community_draw else 1
        left = unknown
        self.deals = 1
        self.joint_work = 0
        """Rows the joint enumeration builds before filtering them (`every_deal_jointly`)."""
        for draw in self.draws + [1] * self.community_draw:
            self.joint_work += self.deals * math.comb(unknown, draw)
            self.deals *= math.comb(left, draw)
            left -= draw

    # -- ranking ---------------------------------------------------------------------------

    def _rank(
        self, keys: np.ndarray, bits_of: Callable[[np.ndarray], np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        """The high and the low strength of hands given as code sums, the keys and a way to
        the bits of the rows asked (`evaluate.high_rank_keyed`: only the hands with five cards
        of a suit read theirs), as int16 (`_NONE` for the kind the game does not play)."""
        variant = self.variant
        size = self.size
        self.rankings += len(keys) * (variant.high + variant.low)
        high = evaluate.high_rank_keyed(keys, bits_of, size) if variant.high else _NONE
        low = (
            evaluate.low_rank_keyed(keys, bits_of, size, variant.low_qualifier, variant.lowball)
            if variant.low
            else _NONE
        )
        return high, low

    # -- every deal --------------------------------------------------------------------------

    def _batch(
        self,
        shape: tuple[int, ...],
        count: int,
        highs: list[np.ndarray],
        lows: list[np.ndarray],
        valid: np.ndarray | None,
        hands: Callable[[np.ndarray], np.ndarray],
    ) -> _Batch:
        """A `_Batch` with the strengths the game ranks by (its high, its low, or both)."""
        return _Batch(
            shape,
            count,
            highs if self.variant.high else None,
            lows if self.variant.low else None,
            valid,
            hands,
        )

    def every_deal(self) -> _Batch:
        """Every way of dealing the rest, once each."""
        pool = self.pool
        unknown = len(pool)
        players = len(self.players)
        subsets = [_combinations(unknown, draw) for draw in self.draws]
        axes = players + self.community_draw
        shape = tuple(len(masks) for _, masks in subsets) + (
            (unknown,) if self.community_draw else ()
        )
        highs: list[np.ndarray] = []
        lows: list[np.ndarray] = []
        taken: np.ndarray | None = None
        valid: np.ndarray | None = None
        # Without a community card, a player's strengths are those of their draws, every
        # player's ranked in one call (`_draw_tables`).
        ranked_draws = None if self.community_draw else self._draw_tables()
        for player, (rows, masks) in enumerate(subsets):
            place = [1] * axes
            place[player] = len(rows)
            if ranked_draws is not None:
                ranked = [ranked_draws[player][2], ranked_draws[player][3]]
            else:
                keys = self.pool_keys[rows].sum(axis=1) + self.fixed_keys[player]
                bits = self.pool_bits[rows].sum(axis=1) + self.fixed_bits[player]
                # Every community card beside each set (one the player holds is never dealt:
                # the grid's `valid` leaves those cells out).
                free = ((masks[:, np.newaxis] >> np.arange(unknown)) & 1) == 0
                keys = (keys[:, np.newaxis] + self.pool_keys)[free]
                bits = (bits[:, np.newaxis] + self.pool_bits)[free]
                place[-1] = unknown
                ranked = [_spread(values, free) for values in self._rank(keys, bits.take)]
            highs.append(ranked[0].reshape(place) if ranked[0] is not _NONE else _NONE)
            lows.append(ranked[1].reshape(place) if ranked[1] is not _NONE else _NONE)
            if len(rows) > 1:
                placed = masks.reshape(place[:players] + [1] * self.community_draw)
                if taken is None:
                    taken = placed
                else:
                    apart = (taken & placed) == 0
                    valid = apart if valid is None else valid & apart
                    taken = taken | placed
        if self.community_draw:
            card = np.left_shift(1, np.arange(unknown, dtype=np.int64)).reshape(
                [1] * players + [unknown]
            )
            if taken is not None:
                apart = (taken & card) == 0
                valid = apart if valid is None else valid & apart
        flat_valid = None if valid is None else np.broadcast_to(valid, shape).ravel()
        count = math.prod(shape) if flat_valid is None else int(np.count_nonzero(flat_valid))

        dealt = [pool[rows] for rows, _ in subsets]  # each player's draws as cards

        def hands(cells: np.ndarray) -> np.ndarray:
            where = np.unravel_index(cells, shape)
            result = np.empty((len(cells), players, self.size), dtype=np.int64)
            for player, fixed in enumerate(self.fixed):
                result[:, player, : len(fixed)] = fixed
                drawn = dealt[player][where[player]]
                result[:, player, len(fixed) : len(fixed) + drawn.shape[1]] = drawn
                if self.community_draw:
                    result[:, player, -1] = pool[where[-1]]
            return result

        return self._batch(shape, count, highs, lows, flat_valid, hands)

    def every_deal_jointly(self) -> _Batch:
        """Every way of dealing the rest, once each, as one axis of deals: each player's sets
        joined to the deals so far where they share no card."""
        pool = self.pool
        unknown = len(pool)
        subsets = [_combinations(unknown, draw) for draw in self.draws]
        if self.community_draw:
            subsets.append(_combinations(unknown, 1))
        chosen = [np.arange(len(subsets[0][1]))]
        taken = subsets[0][1]
        for _, masks in subsets[1:]:
            before = np.repeat(np.arange(len(taken)), len(masks))
            mine = np.tile(np.arange(len(masks)), len(taken))
            apart = (taken[before] & masks[mine]) == 0
            before, mine = before[apart], mine[apart]
            chosen = [column[before] for column in chosen] + [mine]
            taken = taken[before] | masks[mine]
        count = len(taken)
        drawn = [
            [pool[rows[which]] for rows in subsets[player][0].T]
            for player, which in enumerate(chosen)
        ]
        community = drawn.pop()[0] if self.community_draw else None
        highs: list[np.ndarray] = []
        lows: list[np.ndarray] = []
        keys_of, bits_of, _, _ = _card_codes()
        for player, columns in enumerate(drawn):
            keys = np.full(count, self.fixed_keys[player], dtype=np.int64)
            bits = np.full(count, self.fixed_bits[player], dtype=np.int64)
            for column in columns + ([community] if community is not None else []):
                keys += keys_of[column]
                bits += bits_of[column]
            high, low = self._rank(keys, bits.take)
            highs.append(high)
            lows.append(low)

        def hands(rows: np.ndarray) -> np.ndarray:
            result = np.empty((len(rows), len(self.players), self.size), dtype=np.int64)
            for player, fixed in enumerate(self.fixed):
                result[:, player, : len(fixed)] = fixed
                for offset, column in enumerate(drawn[player]):
                    result[:, player, len(fixed) + offset] = column[rows]
                if community is not None:
                    result[:, player, -1] = community[rows]
            return result

        return self._batch((count,), count, highs, lows, None, hands)

    # -- heads-up, counted ---------------------------------------------------------------------

    def heads_up_counted(self) -> bool:
        """Whether the deals can be counted rather than enumerated: two players and no
        community card to come."""
        return len(self.players) == 2 and not self.community_draw

    def count_heads_up(self, tally: _Tally) -> None:
        """Every deal of a heads-up spot, counted (`_count_apart`): the deals each player wins
        outright, each half apart in hi/lo (with no low anywhere the high hand takes the whole
        pot; a lone low takes the low half); only the tied deals are listed and paid one by
        one, grouped by the cards the odd chip can turn on. A win takes its pot or half whole,
        whoever's cards."""
        tables = self._draw_tables()
        (rows_a, masks_a, high_a, low_a), (rows_b, masks_b, high_b, low_b) = tables
        unknown = len(self.pool)
        tally.count += len(rows_a) * math.comb(unknown - rows_a.shape[1], rows_b.shape[1])
        if len(rows_a) * len(rows_b) <= PAIRED_LIMIT:
            self._count_pairs(tally)
            return
        every_a = np.arange(len(rows_a))
        every_b = np.arange(len(rows_b))
        variant = self.variant
        # (amount of each pot -> the part at stake, which hands, which draws of each player)
        parts: list[tuple[Callable[[int], int], bool, np.ndarray, np.ndarray]] = []
        if not variant.split:
            parts.append((self._part(False, not variant.high), not variant.high, every_a, every_b))
        else:
            lows_a, lows_b = np.flatnonzero(low_a >= 0), np.flatnonzero(low_b >= 0)
            none_a, none_b = np.flatnonzero(low_a < 0), np.flatnonzero(low_b < 0)
            high_half, low_half = self._part(True, False), self._part(True, True)
            parts += [
                (self._part(False, False), False, none_a, none_b),  # no low: the high scoops
                (high_half, False, lows_a, every_b),
                (high_half, False, none_a, lows_b),
                (low_half, True, lows_a, lows_b),
            ]
            # A low against none: that low takes the low half, whatever the highs.
            for picks_a, picks_b, winner in ((lows_a, none_b, 0), (none_a, lows_b, 1)):
                deals = _count_apart(rows_a[picks_a], rows_b[picks_b], None, None, unknown)[1]
                self._pay_outright(tally, low_half, winner, deals, low=True)
        for part, low, picks_a, picks_b in parts:
            if not len(picks_a) or not len(picks_b):
                continue
            strengths = (low_a, low_b) if low else (high_a, high_b)
            first_wins, ties, second_wins = _count_apart(
                rows_a[picks_a],
                rows_b[picks_b],
                strengths[0][picks_a].astype(np.int64),
                strengths[1][picks_b].astype(np.int64),
                unknown,
            )
            self._pay_outright(tally, part, 0, first_wins, low)
            self._pay_outright(tally, part, 1, second_wins, low)
            if ties:
                first, second = _tied_deals(
                    strengths[0][picks_a], strengths[1][picks_b], masks_a[picks_a], masks_b[picks_b]
                )
                assert len(first) == ties, (len(first), ties)
                self._pay_ties(tally, part, low, picks_a[first], picks_b[second])

    def _count_pairs(self, tally: _Tally) -> None:
        """`count_heads_up` when the pairs of draws are few (`PAIRED_LIMIT`): every pair
        compared at once, as a grid of the first player's draws by the second's (a few NumPy
        calls, whatever the draws, where sorting and searching takes a few per size of shared
        set): which pairs share no card, and in which of them each part of the pots is at
        stake (in hi/lo: whether either has a low). The tied pairs are listed in the order
        `_tied_deals` gives them (by the first's draw, then the second's)."""
        (_, masks_a, high_a, low_a), (_, masks_b, high_b, low_b) = self._draw_tables()
        apart = (masks_a[:, np.newaxis] & masks_b) == 0
        variant = self.variant
        if not variant.split:
            low = not variant.high
            value_a, value_b = (low_a, low_b) if low else (high_a, high_b)
            # 0 the second's stronger, 1 as strong, 2 the first's.
            outcome = np.sign(value_a.astype(np.int32)[:, np.newaxis] - value_b) + 1
            self._pay_pairs(tally, self._part(False, low), low, outcome, apart, 0)
            return
        # Which of the two has a low: 0 neither, 1 the first, 2 the second, 3 both.
        lows = (low_a >= 0).astype(np.int32)[:, np.newaxis] + 2 * (low_b >= 0)
        high = np.sign(high_a.astype(np.int32)[:, np.newaxis] - high_b) + 1
        # The high outcome, 3 more where a low takes half the pot (the high the other half).
        self._pay_pairs(tally, self._part(False, False), False, high, apart & (lows == 0), 0)
        half = high + 3 * (lows > 0)
        self._pay_pairs(tally, self._part(True, False), False, half, apart & (lows > 0), 3)
        # The low outcome, by who has one: a lone low takes the low half whatever the other's
        # cards, paid with the low half's outright wins.
        low_half = self._part(True, True)
        outcome = np.sign(low_a.astype(np.int32)[:, np.newaxis] - low_b) + 1 + 3 * lows
        counts = np.bincount(outcome[apart], minlength=12).tolist()
        alone_a, alone_b = sum(counts[3:6]), sum(counts[6:9])
        counts = [counts[9] + alone_b, counts[10], counts[11] + alone_a]
        self._pay_pairs(tally, low_half, True, outcome, apart & (lows == 3), 9, counts)

    def _pay_pairs(
        self,
        tally: _Tally,
        part: Callable[[int], int],
        low: bool,
        outcome: np.ndarray,
        at_stake: np.ndarray,
        offset: int,
        counts: list[int] | None = None,
    ) -> None:
        """Pay the pairs of draws where `part` of the pots is at stake (`at_stake`, a grid of
        the first player's draws by the second's) by their `outcome` less `offset`: 0 the
        second's hand stronger, 1 as strong (the tied pairs listed and paid by `_pay_ties`),
        2 the first's (`counts`: how many of each, when known)."""
        if counts is None:
            counts = np.bincount(outcome[at_stake] - offset, minlength=3).tolist()
        self._pay_outright(tally, part, 0, counts[2], low)
        self._pay_outright(tally, part, 1, counts[0], low)
        if counts[1]:
            first, second = np.nonzero(at_stake & (outcome == offset + 1))
            self._pay_ties(tally, part, low, first, second)

    def _part(self, low_qualifies: bool, low: bool) -> Callable[[int], int]:
        """A pot's amount -> what its best low (`low`) or its best high wins of it, when a low
        qualifies or not (`tables.pot_parts`)."""
        game, profile, which = self.spot.game, self.spot.profile, int(low)

        def part(amount: int) -> int:
            return pot_parts(amount, game, low_qualifies, profile)[which]

        return part

    def _pay_outright(
        self, tally: _Tally, part: Callable[[int], int], winner: int, deals: int, low: bool
    ) -> None:
        """`deals` deals in which `winner` takes `part` of each pot they are in (the pot's one
        player takes a pot the other is not in)."""
        if not deals:
            return
        for index, pot in enumerate(self.spot.pots):
            eligible = self.eligible[index]
            taker = winner if winner in eligible else eligible[0]
            won = divide(part(pot.amount), [self.players[taker]], {}, low, self.spot.profile)
            self._add(tally, index, {taker: won[self.players[taker]]}, low, deals)

    def _add(
        self, tally: _Tally, index: int, shares: dict[int, int], low: bool, deals: int
    ) -> None:
        """Add `shares` of pot `index`, won by the low hand (`low`) or the high, in `deals`
        deals to `tally`. A pot one player alone is in is won high (low in the low games),
        whatever part of it a deal is counted for, as `score` and the replay have it."""
        if len(self.eligible[index]) == 1:
            low = not self.variant.high
        if low or not self.variant.high:
            tally.add(index, {}, shares, deals)
        else:
            tally.add(index, shares, {}, deals)

    def _pay_ties(
        self,
        tally: _Tally,
        part: Callable[[int], int],
        low: bool,
        first: np.ndarray,
        second: np.ndarray,
    ) -> None:
        """The tied deals (the two players' draws, by number) paid by `divide`: the deals
        grouped by how the players' highest and lowest cards compare where an odd chip is
        left and the house gives it by the cards, else one deal for all."""
        tables = self._draw_tables()
        pool = self.pool
        hands = np.empty((len(first), 2, self.size), dtype=np.int64)
        for player, picks in enumerate((first, second)):
            fixed = self.fixed[player]
            hands[:, player, : len(fixed)] = fixed
            hands[:, player, len(fixed) :] = pool[tables[player][0][picks]]
        profile = self.spot.profile
        names = list(self.players)
        lowball = self.variant.lowball
        for index, pot in enumerate(self.spot.pots):
            eligible = self.eligible[index]
            amount = part(pot.amount)
            if len(eligible) == 1:
                groups = [(0, len(first))]
            elif divide_reads_cards(amount, 2, profile):
                groups = self._by_odd_chip_cards(hands)
            else:
                groups = [(0, len(first))]
            for row, deals in groups:
                winners = [names[p] for p in eligible]
                cards = {names[p]: tuple(DECK[c] for c in hands[row, p].tolist()) for p in eligible}
                won = divide(amount, winners, cards, low, profile, self.seat.__getitem__, lowball)
                shares = {self.seat[name]: chips for name, chips in won.items()}
                self._add(tally, index, shares, low, deals)

    # -- a sample ------------------------------------------------------------------------------

    def sample(self, generator: np.random.Generator, count: int) -> _Batch:
        """`count` random deals of the rest, each as likely as any other: the next rows of
        the spot's deal table, relabelled (`_Drawn`, made on the first batch from
        `generator`): each player's code sums are a look-up per unit of their cards to come (a
        pair or a single) and the community card's, no random draw, no try thrown away; the
        bits summed only for the hands that read them (`evaluate.high_rank_keyed`)."""
        if self.drawn is None:
            self.drawn = _Drawn(self, generator)
        drawn = self.drawn
        ids = drawn.next_rows(count)
        highs: list[np.ndarray] = []
        lows: list[np.ndarray] = []
        for player, units in enumerate(drawn.of_player):
            if drawn.own[player]:  # the known cards' codes are in the first unit's
                keys = drawn.keys[units[0]].take(ids[units[0]])
                units = units[1:]
            else:
                keys = np.full(count, self.fixed_keys[player], dtype=np.int64)
            for unit in units:
                keys += drawn.keys[unit].take(ids[unit])
            high, low = self._rank(keys, functools.partial(drawn.bits_of, ids, player))
            highs.append(high)
            lows.append(low)

        def hands(chosen: np.ndarray) -> np.ndarray:
            return drawn.hands(ids, chosen)

        return self._batch((count,), count, highs, lows, None, hands)

    def _draw_tables(self) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """Each player's possible draws (positions in the pool, masks) and their high and low
        strengths, ranked once for the spot."""
        if self.tables is None:
            pool_keys, pool_bits = self.pool_keys, self.pool_bits
            draws = [_combinations(len(self.pool), draw) for draw in self.draws]
            # Every player's draws ranked in one call: the drawn cards' sums once per size of
            # draw, each player's known cards added.
            if len(set(self.draws)) == 1:
                # The same draws for all (the usual case): one sum per card set, each
                # player's known cards added to all of them at once.
                rows = draws[0][0]
                drawn_keys = pool_keys if rows.shape[1] == 1 else pool_keys[rows].sum(axis=1)
                drawn_bits = pool_bits if rows.shape[1] == 1 else pool_bits[rows].sum(axis=1)
                fixed = np.array([self.fixed_keys, self.fixed_bits], dtype=np.int64)
                high, low = self._rank(
                    (fixed[0][:, np.newaxis] + drawn_keys).ravel(),
                    (fixed[1][:, np.newaxis] + drawn_bits).ravel().take,
                )
            else:
                keys = []
                bits = []
                for player, (rows, _) in enumerate(draws):
                    keys.append(pool_keys[rows].sum(axis=1) + self.fixed_keys[player])
                    bits.append(pool_bits[rows].sum(axis=1) + self.fixed_bits[player])
                high, low = self._rank(np.concatenate(keys), np.concatenate(bits).take)
            tables = []
            start = 0
            for rows, masks in draws:
                end = start + len(rows)
                tables.append(
                    (
                        rows,
                        masks,
                        high[start:end] if high is not _NONE else _NONE,
                        low[start:end] if low is not _NONE else _NONE,
                    )
                )
                start = end
            self.tables = tables
        return self.tables

    # -- who wins, and what ------------------------------------------------------------------

    def score(self, batch: _Batch, tally: _Tally) -> None:
        """Add what each player wins of each pot in each deal of `batch` to `tally`."""
        tally.count += batch.count
        # Who wins among each set of eligible players (side pots often have the same set).
        outcomes: dict[
            tuple[int, ...], tuple[list[tuple[int, int]], Callable[[int], np.ndarray]]
        ] = {}
        for index, pot in enumerate(self.spot.pots):
            eligible = self.eligible[index]
            if len(eligible) == 1 or pot.amount == 0:
                # Uncontested: the pot's one player takes it (won high but in the low games).
                whole = {eligible[0]: pot.amount}
                if self.variant.high:
                    tally.add(index, whole, {}, batch.count)
                else:
                    tally.add(index, {}, whole, batch.count)
                continue
            found = outcomes.get(tuple(eligible))
            if found is None:
                found = outcomes[tuple(eligible)] = self._counted(batch, eligible)
            counts, matching = found
            width = len(eligible)
            for code, deals in counts:
                # An outcome whose division reads no card pays alike in every deal: paid on
                # the first deal it comes up in, the same for the spot's later batches.
                key = (index, code)
                if key in self.paid:
                    paid = self.paid[key]
                    if paid is not None:
                        tally.add(index, paid[0], paid[1], deals)
                        continue
                high = [p for bit, p in enumerate(eligible) if code >> bit & 1]
                low = [p for bit, p in enumerate(eligible) if code >> (width + bit) & 1]
                if self._reads_cards(pot.amount, high, low):
                    self.paid[key] = None
                    cells = np.flatnonzero(matching(code))
                    hands = batch.hands(cells)
                    tied = sorted({*high, *low})
                    for first, size in self._by_odd_chip_cards(hands[:, tied, :]):
                        won_high, won_low = self._award(pot.amount, high, low, hands[first])
                        tally.add(index, won_high, won_low, size)
                else:
                    example = np.array([int(matching(code).argmax())])
                    won_high, won_low = self._award(pot.amount, high, low, batch.hands(example)[0])
                    self.paid[key] = (won_high, won_low)
                    tally.add(index, won_high, won_low, deals)

    def _by_odd_chip_cards(self, hands: np.ndarray) -> list[tuple[int, int]]:
        """Deals (rows of (deals, players, cards) `Card.index` values) grouped by what
        `tables.divide` reads of the players' cards to give an odd chip by them (each one's
        highest card by rank and suit, and lowest, ace low or not): (first row, rows) of each
        group, paid alike."""
        compared = np.concatenate(
            [hands.max(axis=2), hands.min(axis=2), self.low_codes[hands].min(axis=2)], axis=1
        )
        if compared.shape[1] * _CODE_BITS < 64:
            # Every value is below 64: the row packed into one int64, whose 1-D unique is far
            # cheaper than `unique(axis=0)` (the same groups, in the same order).
            key = np.zeros(len(compared), dtype=np.int64)
            for column in compared.T:
                key <<= _CODE_BITS
                key |= column
            _, firsts, sizes = np.unique(key, return_index=True, return_counts=True)
        else:
            _, firsts, sizes = np.unique(compared, axis=0, return_index=True, return_counts=True)
        return list(zip(firsts.tolist(), sizes.tolist(), strict=True))

    def _counted(
        self, batch: _Batch, eligible: list[int]
    ) -> tuple[list[tuple[int, int]], Callable[[int], np.ndarray]]:
        """The outcomes among `eligible` that come up in `batch` (`_outcomes`' codes), each
        with its deals (`_each_outcome`), and a function giving, for a code, a flat boolean
        array of the deals with that outcome. Two players ranked by one kind on one axis of
        deals (a sample: the usual heads-up spot) are counted from two comparisons, no code
        made: the first player alone best (code 1), the second (2), both (3)."""
        split = batch.high is not None and batch.low is not None
        first = batch.high if batch.high is not None else batch.low
        if not split and first is not None and len(eligible) == 2 and batch.valid is None:
            mine, theirs = first[eligible[0]], first[eligible[1]]
            if mine.shape == theirs.shape == batch.shape and len(batch.shape) == 1:
                ahead = int(np.count_nonzero(mine > theirs))
                tied = int(np.count_nonzero(mine == theirs))
                found = [(1, ahead), (2, batch.count - ahead - tied), (3, tied)]
                tests = {1: np.greater, 2: np.less, 3: np.equal}

                def matching_two(code: int) -> np.ndarray:
                    return tests[code](mine, theirs)

                return [(code, deals) for code, deals in found if deals], matching_two
        codes, void = self._outcomes(batch, eligible)

        def matching(code: int) -> np.ndarray:
            return codes == code

        return _each_outcome(codes, void), matching

    def _outcomes(self, batch: _Batch, eligible: list[int]) -> tuple[np.ndarray, int]:
        """Per deal (flat), who wins: a bit per eligible player for the high hand (the low in a
        low game), then a bit per player for the qualifying low of a hi/lo game; and the code
        given to the cells that are not deals (one past every outcome)."""
        width = len(eligible)
        split = batch.high is not None and batch.low is not None
        bits = 2 * width if split else width
        dtype: type[np.integer] = np.uint8 if bits < 8 else np.int32
        first = batch.high if batch.high is not None else batch.low
        assert first is not None
        columns = [first[p] for p in eligible]
        best = functools.reduce(np.maximum, columns)
        codes = np.zeros(np.broadcast_shapes(best.shape, *(c.shape for c in columns)), dtype)
        for bit, column in enumerate(columns):
            codes |= (column == best).astype(dtype) << dtype(bit)
        if split:
            assert batch.low is not None
            lows = [batch.low[p] for p in eligible]
            best_low = functools.reduce(np.maximum, lows)
            qualified = best_low >= 0
            for bit, column in enumerate(lows):
                codes |= ((column == best_low) & qualified).astype(dtype) << dtype(width + bit)
        void = 1 << bits
        codes = np.broadcast_to(codes, batch.shape).ravel()
        if batch.valid is not None:
            codes = np.where(batch.valid, codes, codes.dtype.type(void))
        return codes, void

    def _award(
        self, amount: int, high: list[int], low: list[int], hand: np.ndarray
    ) -> tuple[dict[int, int], dict[int, int]]:
        """What the winners of one deal get, high and low apart, by the replay's division
        (`tables.award`; `hand`: the deal's cards, read only for an odd chip given by them).
        In a low game the winners of the pot are `high` here (the first strengths ranked)."""
        names = self.players
        hands = {names[p]: tuple(DECK[c] for c in hand[p].tolist()) for p in {*high, *low}}
        high_names = [names[p] for p in high]
        low_names = [names[p] for p in low]
        if not self.variant.high:
            high_names, low_names = [], high_names
        won_high, won_low = award(
            amount,
            high_names,
            low_names,
            hands,
            self.spot.game,
            self.spot.profile,
            self.seat.__getitem__,
        )
        by_name = self.seat
        return (
            {by_name[name]: chips for name, chips in won_high.items()},
            {by_name[name]: chips for name, chips in won_low.items()},
        )

    def _reads_cards(self, amount: int, high: list[int], low: list[int]) -> bool:
        """Whether the division of a pot among these winners reads their cards
        (`tables.award_reads_cards`): then deals with the same winners may pay differently."""
        if not self.variant.high:
            high, low = [], high
        return award_reads_cards(amount, len(high), len(low), self.spot.game, self.spot.profile)


class _Drawn:
    """A spot's deals read from a deal table (`_deal_table`) relabelled for the spot.

    The table holds ordered draws of distinct positions among the `unknown` cards, the same in
    every process; the spot relabels the positions by a permutation of its unknown cards drawn
    from its own seeded generator, and reads the table's rows from one drawn at random on,
    cyclically through the table's first part, then on through its further parts: no row twice
    in a spot. A row's positions are cut into units, each player's cards to come as pairs (and
    a single when their count is odd), the community card a single, in the order dealt; a unit
    is one number, `first * unknown + second` for a pair, and its cards' summed codes
    (`evaluate.card_codes`) are one look-up in a table of `unknown` or `unknown`**2 values
    made for the spot (a player's known cards added to their first unit's).

    Why every deal is as likely as any other: a row is an ordered draw r of k distinct
    positions, and the permutation p is uniform over the unknown! orderings of the unknown
    cards (`Generator.permutation`: Fisher-Yates with unbiased integers); the deal is p(r),
    the cards at those positions, in order. For any ordered draw d of k distinct cards,
    p(r) = d for exactly (unknown - k)! of the permutations (the k positions of r fixed to d's
    cards, the rest in any order): every d as likely, whatever r, as the first k cards of a
    shuffled deck. Why the stated error (`Share.error`, from the sample's variance) holds
    although a spot's deals share one permutation: the table's rows were drawn independently
    and uniformly (partial Fisher-Yates shuffles, `_partial_shuffles`, from a fixed seed),
    and for a fixed permutation the images of independent uniform draws are independent
    uniform draws, so over the making of the table a spot's deals are an independent sample;
    the table made is one such draw (the tests check the coverage of the error on spots
    whose exact equities are known, and every deal coming up alike on small decks)."""

    def __init__(self, deal: _Deal, generator: np.random.Generator) -> None:
        unknown = self.unknown = len(deal.pool)
        self.sizes: list[int] = []
        """Cards in each unit."""
        self.of_player: list[list[int]] = []
        """The units of each player (the community card's among them, in every player's)."""
        for draw in deal.draws:
            sizes = [2] * (draw // 2) + [1] * (draw % 2)
            self.of_player.append(list(range(len(self.sizes), len(self.sizes) + len(sizes))))
            self.sizes.extend(sizes)
        self.own = [len(units) > 0 for units in self.of_player]
        """Whether each player gets cards of their own (else only the community card)."""
        self.fixed_bits = deal.fixed_bits
        """Each player's known cards' bit sum (in the first unit's of a player with cards of
        their own)."""
        if deal.community_draw:
            for units in self.of_player:
                units.append(len(self.sizes))
            self.sizes.append(1)
        self.table = _deal_table(unknown, tuple(self.sizes))
        self.start = int(generator.integers(0, DEAL_ROWS))
        """The table's row of the spot's first deal."""
        self.used = 0
        """Deals read so far."""
        order = generator.permutation(unknown)
        self.order = deal.pool[order]
        """The card (`Card.index`) at each position of the table."""
        keys = deal.pool_keys[order]
        bits = deal.pool_bits[order]
        codes = {
            1: (keys, bits),
            2: ((keys[:, np.newaxis] + keys).ravel(), (bits[:, np.newaxis] + bits).ravel()),
        }
        self.keys = [codes[size][0] for size in self.sizes]
        self.bits = [codes[size][1] for size in self.sizes]
        """Each unit's summed codes by its number, a player's known cards' added to their
        first unit's (so that a player's sum over their units is their hand's)."""
        # Where the cards of a deal go (`hands`): the known cards of every deal, and each
        # drawn card's player, place in the hand and row of `hands`'s positions (the first
        # card of each unit, then the second).
        self.known = np.full((len(deal.fixed), deal.size), -1, dtype=np.int64)
        slots: list[tuple[int, int, int]] = []
        units_count = len(self.sizes)
        for player, fixed in enumerate(deal.fixed):
            self.known[player, : len(fixed)] = fixed
            place = len(fixed)
            for unit in self.of_player[player]:
                rows = [unit, units_count + unit] if self.sizes[unit] == 2 else [units_count + unit]
                for row in rows:
                    slots.append((player, place, row))
                    place += 1
        self.slots = np.array(slots, dtype=np.intp).reshape(-1, 3).T
        for player, units in enumerate(self.of_player):
            if self.own[player]:
                self.keys[units[0]] = self.keys[units[0]] + deal.fixed_keys[player]
                self.bits[units[0]] = self.bits[units[0]] + deal.fixed_bits[player]

    def next_rows(self, count: int) -> np.ndarray:
        """(units, `count`): per unit, the numbers of the spot's next `count` deals (intp:
        NumPy's take reads them without a conversion of its own)."""
        ids = np.empty((len(self.sizes), count), dtype=np.intp)
        filled = 0
        while filled < count:
            deal = self.used + filled
            if deal < DEAL_ROWS:  # the first part, from the start row on, cyclically
                part, row = 0, (self.start + deal) % DEAL_ROWS
                take = min(count - filled, DEAL_ROWS - row, DEAL_ROWS - deal)
            else:  # the further parts in order
                part, row = divmod(deal, DEAL_ROWS)
                take = min(count - filled, DEAL_ROWS - row)
            for column, units in zip(ids, self.table.part(part), strict=True):
                column[filled : filled + take] = units[row : row + take]
            filled += take
        self.used += count
        return ids

    def bits_of(self, ids: np.ndarray, player: int, chosen: np.ndarray) -> np.ndarray:
        """The bit sums of the player's hands in the `chosen` deals of a batch (`ids`, its
        unit numbers), summed as `_Deal.sample` sums the keys."""
        units = self.of_player[player]
        if self.own[player]:
            bits = self.bits[units[0]].take(ids[units[0]].take(chosen))
            units = units[1:]
        else:
            bits = np.full(len(chosen), self.fixed_bits[player], dtype=np.int64)
        for unit in units:
            bits += self.bits[unit].take(ids[unit].take(chosen))
        return bits

    def hands(self, ids: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        """(`chosen` deals, players, hand size) `Card.index` values of the chosen deals of a
        batch (`ids`, its unit numbers): each player's known cards, then their cards drawn (the
        community card last). A unit's number n is the positions n // unknown and n % unknown
        (a single's first is 0, unread); every drawn card is put in its place at once."""
        picked = ids[:, chosen]
        first = picked // self.unknown
        positions = np.concatenate([first, picked - first * self.unknown])
        result = np.empty((len(chosen), *self.known.shape), dtype=np.int64)
        result[:] = self.known
        result[:, self.slots[0], self.slots[1]] = self.order[positions[self.slots[2]]].T
        return result


DEAL_ROWS = 40_960
"""Rows of a deal table's part (`_deal_table`): as many deals as a spot needs at most under the
default precision (the first batch and one sized from the variance, at an equity of one half),
so that a spot reads one part, through its rows from a random one on."""

_DEAL_SEED = 0x5EED_D2A7
"""The fixed seed of the deal tables (with the unknown cards, the cards drawn and the part)."""


class _DealTable:
    """Ordered draws of distinct positions among `unknown` cards, cut into units of `sizes`
    cards (`_Drawn`): per unit, one number a row (int16), by parts of `DEAL_ROWS` rows made
    when first read, each from its own fixed seed (the same in every process, whatever was
    read before)."""

    def __init__(self, unknown: int, sizes: tuple[int, ...]) -> None:
        self.unknown = unknown
        self.sizes = sizes
        self.parts: dict[int, list[np.ndarray]] = {}

    def part(self, index: int) -> list[np.ndarray]:
        """The unit numbers of the rows of part `index` (made by its number alone: two
        threads making it at once make the same)."""
        found = self.parts.get(index)
        if found is None:
            drawn = sum(self.sizes)
            generator = np.random.default_rng([_DEAL_SEED, self.unknown, drawn, index])
            places = _partial_shuffles(generator, DEAL_ROWS, self.unknown, drawn).astype(np.int16)
            found = []
            column = 0
            for size in self.sizes:
                if size == 2:
                    units = places[column] * np.int16(self.unknown) + places[column + 1]
                else:
                    units = places[column].copy()  # not a view holding every column
                units.flags.writeable = False
                found.append(units)
                column += size
            self.parts[index] = found
        return found


@functools.lru_cache(maxsize=16)
def _deal_table(unknown: int, sizes: tuple[int, ...]) -> _DealTable:
    """The deal table of a number of unknown cards and a cut into units, kept for the next spots
    of the process (the last 16 asked for). A part costs 80 KiB a unit and 1 to 4 ms to make
    (heads-up on 3rd street 320 KiB, 1.1 ms; three-way 480 KiB, 1.6 ms; eight players with a
    community card 1.3 MiB, 4.1 ms), once a process: a worker makes it on its first sampled
    spot of that kind."""
    return _DealTable(unknown, sizes)


def _each_outcome(codes: np.ndarray, void: int) -> list[tuple[int, int]]:
    """Each outcome (`_Deal._outcomes`) that comes up among `codes`: (code, deals with it).
    With few possible outcomes each is counted by a comparison, cheaper than `bincount`
    (which copies the codes to full integers)."""
    if void <= _FEW_OUTCOMES:
        found = []
        for code in range(void):
            deals = int(np.count_nonzero(codes == code))
            if deals:
                found.append((code, deals))
        return found
    counts = np.bincount(codes, minlength=void + 1)[:void]
    return [(code, int(counts[code])) for code in np.flatnonzero(counts).tolist()]


_FEW_OUTCOMES = 8
"""Outcomes at most that `_each_outcome` finds one by one (heads-up high or low: 3)."""


def _radix_groups(choices: list[int]) -> list[tuple[int, list[int]]]:
    """Consecutive digits of `choices` values each, grouped so that each group's number of
    values (the product of its choices) stays below 2**62: (that product, the digits)."""
    groups: list[tuple[int, list[int]]] = []
    for digit, choice in enumerate(choices):
        if groups and groups[-1][0] * choice < 1 << 62:
            product, members = groups[-1]
            groups[-1] = (product * choice, members + [digit])
        else:
            groups.append((choice, [digit]))
    return groups


def _digits(
    generator: np.random.Generator,
    digits: list[np.ndarray],
    rest: np.ndarray,
    choices: list[int],
    groups: list[tuple[int, list[int]]],
) -> None:
    """Fill each of `digits` (as long as `rest`, a work array) with values drawn uniformly
    below its choice, all independent: one integer per group (`_radix_groups`) uniform below
    the group's product (`generator.integers` is unbiased), read as digits in mixed radix, the
    first digit lowest. Each number below the product is one sequence of digits and back, so
    the digits are uniform and independent; one random integer and a division per digit cost
    less than a random integer per digit."""
    count = len(rest)
    for product, members in groups:
        number = generator.integers(0, product, size=count)
        other = rest
        for digit in members[:-1]:
            choice = choices[digit]
            found = digits[digit]
            np.floor_divide(number, choice, out=other)
            np.multiply(other, choice, out=found)
            np.subtract(number, found, out=found)
            number, other = other, number
        np.copyto(digits[members[-1]], number)


def _partial_shuffles(
    generator: np.random.Generator, count: int, unknown: int, drawn: int
) -> np.ndarray:
    """The first `drawn` places of `count` partial Fisher-Yates shuffles of range(`unknown`):
    at place p of every row, the card there is swapped with the one at a random place from p
    on (p plus a digit below `unknown` - p, the digits of every place drawn at once by
    `_digits`), as (drawn, count) positions in the pool: the rows of the deal tables.
    The rows are laid end to end (flat indices are far cheaper than pairs of them) and each
    place's cards are taken out as one contiguous column."""
    rows = np.tile(np.arange(unknown, dtype=np.int8), (count, 1))
    flat = rows.reshape(-1)
    starts = np.arange(0, count * unknown, unknown)
    choices = [unknown - place for place in range(drawn)]
    others = [np.empty(count, dtype=np.int64) for _ in choices]
    _digits(generator, others, np.empty(count, dtype=np.int64), choices, _radix_groups(choices))
    cards = np.empty((drawn, count), dtype=np.int8)
    for place, other in enumerate(others):
        other += starts + place
        cards[place] = flat[other]
        if place + 1 < drawn:  # the last place's swap is never read
            flat[other] = rows[:, place]
    return cards


def _count_apart(
    rows_a: np.ndarray,
    rows_b: np.ndarray,
    value_a: np.ndarray | None,
    value_b: np.ndarray | None,
    unknown: int,
) -> tuple[int, int, int]:
    """Over the pairs of a draw of the first player and one of the second that share no card
    (draws as rows of positions among `unknown` cards): how many the first's stronger, as
    strong, and the second's stronger (without values, every pair counts as tied). For each
    first draw, the second's draws are sorted by strength and searched; those sharing one of
    its cards, two, ... are taken off and put back by inclusion and exclusion."""
    if value_a is None or value_b is None:
        value_a = np.zeros(len(rows_a), dtype=np.int64)
        value_b = np.zeros(len(rows_b), dtype=np.int64)
    if not len(rows_a) or not len(rows_b):
        return 0, 0, 0
    span = np.int64(1 << 14)  # above every strength: a set's number and a strength in one key
    weaker = 0
    as_strong = 0
    total = 0
    for size in range(min(rows_a.shape[1], rows_b.shape[1]) + 1):
        # The second player's draws holding each `size` cards of the first's draw: how many
        # (every pair, by the same inclusion and exclusion), where they start among the
        # keys sorted by set then strength, and where those weaker and as strong end.
        sets_b = _set_ids(rows_b, size, unknown)
        sets_a = _set_ids(rows_a, size, unknown)
        keys = np.sort((sets_b * span + value_b[:, None]).ravel())
        held = np.bincount(sets_b.ravel(), minlength=int(sets_a.max()) + 1)
        starts = np.cumsum(held) - held
        strength = sets_a * span + value_a[:, None]
        found = np.searchsorted(keys, np.stack([strength, strength + 1]))
        below, through = found.reshape(2, -1).sum(axis=1).tolist()
        start = int(starts[sets_a].sum())
        sign = -1 if size % 2 else 1
        weaker += sign * (below - start)
        as_strong += sign * (through - below)
        total += sign * int(held[sets_a].sum())
    return weaker, as_strong, total - weaker - as_strong


def _tied_deals(
    value_a: np.ndarray, value_b: np.ndarray, masks_a: np.ndarray, masks_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of draws (numbers in each player's list) as strong as each other and sharing
    no card."""
    order = np.argsort(value_b, kind="stable")
    sorted_b = value_b[order]
    low_end = np.searchsorted(sorted_b, value_a)
    lengths = np.searchsorted(sorted_b, value_a, side="right") - low_end
    first = np.repeat(np.arange(len(value_a)), lengths)
    offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    second = order[np.repeat(low_end, lengths) + offsets]
    keep = (masks_a[first] & masks_b[second]) == 0
    return first[keep], second[keep]


def _set_ids(rows: np.ndarray, size: int, base: int) -> np.ndarray:
    """For each row of positions (ascending), a number for each of its `size`-subsets: the
    same subset of cards the same number in any row, whoever's draw it is (one column of
    zeros for the empty subset)."""
    columns = list(itertools.combinations(range(rows.shape[1]), size))
    ids = np.zeros((len(rows), len(columns)), dtype=np.int64)
    for index, chosen in enumerate(columns):
        for place, column in enumerate(chosen):
            ids[:, index] += rows[:, column] * base**place
        ids[:, index] += base**size  # sets of different sizes never share a number
    return ids


_INDEX = {card: card.index for card in DECK}
"""Each card's `Card.index` (a look-up by identity, cheaper than the property)."""

_CODE_BITS = 6
"""Bits that hold a `Card.index` or a `_low_card_codes` value (all below 64)."""

_NONE = np.zeros(0, dtype=np.int16)
"""The strengths of a kind of hand the game does not play."""


def _spread(values: np.ndarray, free: np.ndarray) -> np.ndarray:
    """Strengths ranked for the True places of `free`, put back in its shape (-2 elsewhere:
    a community card the player already holds, never dealt)."""
    if values is _NONE:
        return values
    table = np.full(free.shape, -2, dtype=np.int16)
    table[free] = values
    return table


class _Tally:
    """Chips won per pot and player, summed over the deals scored (Python integers: exact)."""

    def __init__(self, pots: int, players: int) -> None:
        self.count = 0
        self.high = [[0] * players for _ in range(pots)]
        self.low = [[0] * players for _ in range(pots)]
        self.squares = [[0] * players for _ in range(pots)]

    def add(
        self,
        pot: int,
        high: dict[int, int],
        low: dict[int, int],
        count: int,
    ) -> None:
        for player in {*high, *low}:
            won_high = high.get(player, 0)
            won_low = low.get(player, 0)
            self.high[pot][player] += count * won_high
            self.low[pot][player] += count * won_low
            self.squares[pot][player] += count * (won_high + won_low) ** 2

    def errors(self, spot: Spot) -> list[float]:
        """The 95% half-interval of every equity, as if the deals were a sample."""
        found = []
        count = self.count
        for index, pot in enumerate(spot.pots):
            if not pot.amount:
                continue
            for player in range(len(spot.holdings)):
                mean = (self.high[index][player] + self.low[index][player]) / count
                variance = max(self.squares[index][player] / count - mean * mean, 0.0)
                found.append(Z_95 * math.sqrt(variance / count) / pot.amount)
        return found

    def result(self, spot: Spot, method: Method, rankings: int) -> Equities:
        shares = []
        count = self.count
        players = spot.players
        for index, pot in enumerate(spot.pots):
            for player in [players.index(name) for name in pot.eligible]:
                high = Fraction(self.high[index][player], count)
                low = Fraction(self.low[index][player], count)
                error = 0.0
                if method is Method.SAMPLED and pot.amount:
                    mean = float(high + low)
                    variance = max(self.squares[index][player] / count - mean * mean, 0.0)
                    # Never below the "rule of three" (3/n): a share no sample went against is
                    # not known to be certain.
                    error = max(Z_95 * math.sqrt(variance / count) / pot.amount, 3 / count)
                shares.append(
                    Share(index, players[player], pot.amount, high + low, high, low, error)
                )
        return Equities(spot, method, count, tuple(shares), rankings)
