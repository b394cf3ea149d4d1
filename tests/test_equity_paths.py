"""The calculator's fast paths against straightforward references: the partial shuffles that
make the deal tables against a row-by-row Fisher-Yates shuffle fed the same draws, the deal
tables (ordered draws of distinct cards, the same in every process, each row read once by a
spot), the deals read from them against every deal alike (a chi-square on small decks) and
against the hands they rank, the stated error's coverage over many spots and seeds, the
odd-chip grouping against NumPy's row-wise unique, and sampled equities against the figures the
calculator gave before these paths were made faster (the samples are seeded by the spot, so a
change to the stream of draws, or to what is made of them, changes these figures)."""

from __future__ import annotations

import hashlib
import itertools
import random
from dataclasses import replace

import numpy as np
import pytest

from handlog.cards import DECK
from handlog.equity import Holding, Method, Spot, calculate, equities
from handlog.model import Game
from handlog.rules.profiles import CASINO, POKERSTARS
from handlog.rules.tables import Pot
from handlog.rules.variants import VARIANTS


def _shuffled_by_rows(seed: int, count: int, unknown: int, drawn: int) -> np.ndarray:
    """The first `drawn` places of `count` Fisher-Yates shuffles of range(unknown), one row at
    a time in plain Python, place p swapped with the place drawn for it: the draws read in
    mixed radix from one number per group of places, as `_partial_shuffles` draws them."""
    generator = np.random.default_rng(seed)
    # Each place's draw a digit of a number drawn for a group of places, lowest first.
    choices = [unknown - place for place in range(drawn)]
    draws = [[0] * count for _ in range(drawn)]
    for product, places in calculate._radix_groups(choices):
        for row, number in enumerate(generator.integers(0, product, size=count).tolist()):
            for place in places:
                number, digit = divmod(number, choices[place])
                draws[place][row] = place + digit
            assert number == 0
    result = np.empty((drawn, count), dtype=np.int64)
    for row in range(count):
        cards = list(range(unknown))
        for place in range(drawn):
            other = draws[place][row]
            cards[place], cards[other] = cards[other], cards[place]
            result[place, row] = cards[place]
    return result


@pytest.mark.parametrize(
    ("count", "unknown", "drawn"),
    [(1, 2, 2), (500, 46, 8), (300, 38, 3), (200, 11, 11), (400, 30, 24), (64, 52, 1)],
)
def test_partial_shuffles_deal_as_a_row_by_row_shuffle(
    count: int, unknown: int, drawn: int
) -> None:
    seed = count * 1000 + unknown * 10 + drawn
    found = calculate._partial_shuffles(np.random.default_rng(seed), count, unknown, drawn)
    assert found.shape == (drawn, count)
    assert np.array_equal(found, _shuffled_by_rows(seed, count, unknown, drawn))
    # Each row a draw without replacement.
    assert all(len(set(found[:, row].tolist())) == drawn for row in range(count))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_odd_chip_groups_are_those_of_a_row_wise_unique(players: int) -> None:
    rng = np.random.default_rng(players)
    spot = Spot(Game.RAZZ, tuple(Holding(f"p{p}", ()) for p in range(players)), ())
    deal = calculate._Deal(spot)
    for rows in (1, 7, 400):
        # Few distinct cards, so that rows repeat and the groups are big.
        hands = rng.choice(np.array([0, 12, 13, 50, 51]), size=(rows, players, 7))
        found = deal._by_odd_chip_cards(hands)
        compared = np.concatenate(
            [hands.max(axis=2), hands.min(axis=2), deal.low_codes[hands].min(axis=2)], axis=1
        )
        _, firsts, sizes = np.unique(compared, axis=0, return_index=True, return_counts=True)
        assert found == list(zip(firsts.tolist(), sizes.tolist(), strict=True))
        assert sum(size for _, size in found) == rows


def _spots(seed: str) -> list[Spot]:
    """Spots to sample, of every game: heads-up and three-way, early and late streets, one
    with a community card to come (on a deck cut short by dead cards)."""
    rng = random.Random(seed)
    found = []
    for game in Game:
        variant = VARIANTS[game]
        for players, dealt in ((2, 3 if variant.cards == 7 else 2), (3, variant.cards - 2)):
            deck = list(DECK)
            rng.shuffle(deck)
            holdings = tuple(
                Holding(f"p{seat}", tuple(deck.pop() for _ in range(dealt)))
                for seat in range(players)
            )
            names = tuple(h.player for h in holdings)
            pots = (Pot(rng.randint(3, 999), names), Pot(rng.randint(1, 99), names[:2]))
            dead = tuple(deck.pop() for _ in range(rng.randint(0, 6)))
            profile = rng.choice([CASINO, POKERSTARS])
            found.append(Spot(game, holdings, pots, dead, profile=profile))
    holdings = tuple(Holding(f"p{seat}", tuple(DECK[seat * 6 : seat * 6 + 6])) for seat in range(7))
    dead = tuple(DECK[42:46])
    found.append(
        Spot(Game.STUD, holdings, (Pot(700, tuple(h.player for h in holdings)),), dead, True)
    )
    return found


def _digest(spots: list[Spot]) -> str:
    lines = []
    for spot in spots:
        found = equities(spot, exact_limit=0)
        assert found.method is Method.SAMPLED
        lines.append(repr((found.deals, [(s.expected, s.high, s.error) for s in found.shares])))
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def test_sampled_equities_are_those_computed_before_the_fast_paths() -> None:
    assert _digest(_spots("pinned")) == "91fc1034bbf7564a"


def _small_spot(game: Game, players: int, known: int, pool: int, community: bool = False) -> Spot:
    """A spot whose players hold `known` cards each (the first of the deck) and whose deck is
    cut to `pool` unknown cards: few enough deals for each to come up many times."""
    deck = list(DECK)
    holdings = tuple(
        Holding(f"p{seat}", tuple(deck[seat * known : (seat + 1) * known]))
        for seat in range(players)
    )
    dead = tuple(deck[players * known : len(deck) - pool])
    names = tuple(h.player for h in holdings)
    return Spot(game, holdings, (Pot(100, names),), dead, community)


@pytest.mark.parametrize(
    ("spot", "per_deal", "batches"),
    [
        # A pair and a single each (560 deals).
        (_small_spot(Game.STUD5, 2, 2, 8), 40, 1),
        # A single each and the community card (210 deals).
        (_small_spot(Game.STUD, 2, 5, 7, community=True), 60, 1),
        # A pair each, three players (2,520 deals).
        (_small_spot(Game.STUD, 3, 5, 8), 12, 1),
        # The same over three batches, through the table's first part into its second.
        (_small_spot(Game.STUD, 3, 5, 8), 20, 3),
        # The first player draws only the community card, the others a single and it
        # (1,320 deals).
        (
            Spot(
                Game.STUD,
                (
                    Holding("p0", tuple(DECK[0:6])),
                    Holding("p1", tuple(DECK[6:11])),
                    Holding("p2", tuple(DECK[11:16])),
                ),
                (Pot(100, ("p0", "p1", "p2")),),
                tuple(DECK[16:40]),
                True,
            ),
            20,
            1,
        ),
    ],
)
def test_deals_read_from_the_deal_table_are_all_alike(
    spot: Spot, per_deal: int, batches: int
) -> None:
    deal = calculate._Deal(spot)
    count = deal.deals * per_deal
    generator = np.random.default_rng(per_deal)
    cut = [count * part // batches for part in range(batches + 1)]
    found = [deal.sample(generator, end - begin) for begin, end in itertools.pairwise(cut)]
    hands = np.concatenate([batch.hands(np.arange(batch.count)) for batch in found])
    for player, fixed in enumerate(deal.fixed):
        assert (hands[:, player, : len(fixed)] == fixed).all()
    drawn = [
        np.sort(hands[:, player, len(fixed) :], axis=1) for player, fixed in enumerate(deal.fixed)
    ]
    keys = np.concatenate(drawn, axis=1)
    # No card twice in a deal (the community card is each player's), none of them known.
    everything = np.sort(keys, axis=1)
    distinct = 1 + (np.diff(everything, axis=1) != 0).sum(axis=1)
    assert (distinct == sum(deal.draws) + deal.community_draw).all()
    assert not np.isin(keys, [card.index for card in spot.known_cards()]).any()
    _, seen = np.unique(keys, axis=0, return_counts=True)
    assert len(seen) == deal.deals  # every deal comes up
    # Pearson's chi-square against every deal alike, within five standard deviations of its
    # mean (the degrees of freedom): a sampler favouring some deals by a few percent fails.
    chi_square = float(((seen - per_deal) ** 2).sum() / per_deal)
    freedom = deal.deals - 1
    assert abs(chi_square - freedom) < 5 * (2 * freedom) ** 0.5, (chi_square, freedom)


@pytest.mark.parametrize(
    "spot",
    [
        _small_spot(Game.STUD8, 3, 3, 40),
        _small_spot(Game.RAZZ27, 2, 3, 43),
        _small_spot(Game.STUD_HILO, 4, 5, 20, community=True),
        _small_spot(Game.STUD5, 2, 2, 30),
    ],
)
def test_the_hands_of_a_drawn_batch_are_those_ranked(spot: Spot) -> None:
    """The cards a batch gives for its deals (read for the odd chip and the division) rank as
    the batch ranked them from its unit numbers' summed codes."""
    deal = calculate._Deal(spot)
    batch = deal.sample(np.random.default_rng(5), 3_000)
    hands = batch.hands(np.arange(3_000))
    keys, bits, _, _ = calculate._card_codes()
    for player in range(len(deal.players)):
        held = hands[:, player]
        high, low = deal._rank(keys[held].sum(axis=1), bits[held].sum(axis=1).take)
        if deal.variant.high:
            assert batch.high is not None and np.array_equal(batch.high[player], high)
        if deal.variant.low:
            assert batch.low is not None and np.array_equal(batch.low[player], low)


def test_a_deal_table_is_the_same_in_every_process_and_its_rows_are_ordered_draws() -> None:
    sizes = (2, 2, 1, 2, 2, 1, 1)
    table = calculate._DealTable(43, sizes)
    first = table.part(0)
    assert all(column.shape == (calculate.DEAL_ROWS,) for column in first)
    # Pinned: the fixed seed's rows, whatever process or run makes them.
    digest = hashlib.sha256(b"".join(column.tobytes() for column in first)).hexdigest()[:16]
    assert digest == "bf4d0b1ab361d05d"
    assert calculate._deal_table(43, sizes).part(0)[3].tobytes() == first[3].tobytes()
    places = []
    for column, size in zip(first, sizes, strict=True):
        places += [column // 43, column % 43] if size == 2 else [column]
    rows = np.stack(places, axis=1)
    assert rows.min() >= 0 and rows.max() < 43
    assert (np.diff(np.sort(rows, axis=1), axis=1) != 0).all()  # no position twice in a row
    # The second part, from its own seed, holds other draws.
    assert not np.array_equal(table.part(1)[0], first[0])


def test_a_spot_reads_each_row_of_the_table_once() -> None:
    """From a random row of the first part on, cyclically, then on into the second part."""
    deal = calculate._Deal(_small_spot(Game.STUD, 2, 3, 46))
    drawn = calculate._Drawn(deal, np.random.default_rng(11))
    batches = [12_288, 28_672, 5_000, 7_000]
    ids = np.concatenate([drawn.next_rows(count) for count in batches], axis=1)
    parts = [np.stack(drawn.table.part(index)) for index in (0, 1)]
    rows = calculate.DEAL_ROWS
    assert 0 < drawn.start < rows
    assert np.array_equal(ids[:, :rows], np.roll(parts[0], -drawn.start, axis=1))
    assert np.array_equal(ids[:, rows:], parts[1][:, : sum(batches) - rows])


def test_two_spots_on_the_same_unknown_cards_deal_apart() -> None:
    """Two seeds reading the whole first part of the same table: each deals other cards in
    each row (as two independent samples would, apart by chance) and other deals over all."""
    deal = calculate._Deal(_small_spot(Game.STUD, 2, 3, 46))
    count = calculate.DEAL_ROWS
    first, second = (
        deal.sample(np.random.default_rng(seed), count).hands(np.arange(count)) for seed in (1, 2)
    )
    # The same card to the same place of a deal about once in 46 (the first player's first
    # card drawn: row against row).
    assert abs(float((first[:, 0, 3] == second[:, 0, 3]).mean()) - 1 / 46) < 0.005
    assert not np.array_equal(
        np.unique(first[:, 0, 3:], axis=0), np.unique(second[:, 0, 3:], axis=0)
    )


def _renamed(spot: Spot, suffix: str) -> Spot:
    """The same spot with its players renamed: another fingerprint, so another seed."""
    names = {h.player: f"{h.player}-{suffix}" for h in spot.holdings}
    return replace(
        spot,
        holdings=tuple(replace(h, player=names[h.player]) for h in spot.holdings),
        pots=tuple(replace(p, eligible=tuple(names[e] for e in p.eligible)) for p in spot.pots),
    )


def test_the_stated_error_covers_the_exact_equity_about_95_percent_of_the_time() -> None:
    """Small spots whose exact equities are known, each sampled from the deal table under many
    seeds: the exact equity within the stated 95% interval about 95% of the time, the squared
    misses about one in units of the stated standard error, and the estimates of one spot
    spread as the stated error says. The rows of a spot share one permutation, so they are not
    independent draws: this is what says their error is still as stated."""
    rng = random.Random("coverage")
    covered = total = 0
    squares: list[float] = []
    spreads: list[float] = []
    while len(spreads) < 12:
        game = rng.choice(list(Game))
        variant = VARIANTS[game]
        players = rng.randint(2, 4)
        deck = list(DECK)
        rng.shuffle(deck)
        dealt = rng.randint(2 if variant.cards == 5 else 3, variant.cards - 1)
        holdings = tuple(
            Holding(f"p{seat}", tuple(deck.pop() for _ in range(dealt))) for seat in range(players)
        )
        # Few unknown cards: the rows of a table share many, the hardest case for the error.
        drawn = players * (variant.cards - dealt)
        unknown = rng.randint(drawn, min(len(deck), drawn + 12))
        names = tuple(h.player for h in holdings)
        spot = Spot(game, holdings, (Pot(1000, names),), tuple(deck[unknown:]))
        if not 20_000 <= calculate._Deal(spot).deals <= 600_000:
            continue
        exact = equities(spot)
        truth = exact.shares[0].equity
        if exact.method is not Method.EXACT or not 0.02 < truth < 0.98:
            continue
        estimates = []
        for seed in range(25):
            share = equities(_renamed(spot, str(seed)), exact_limit=0).shares[0]
            sigma = share.error / calculate.Z_95
            covered += abs(share.equity - truth) <= share.error
            total += 1
            squares.append(((share.equity - truth) / sigma) ** 2)
            estimates.append((share.equity, sigma))
        mean = sum(e for e, _ in estimates) / len(estimates)
        spread = sum((e - mean) ** 2 for e, _ in estimates) / (len(estimates) - 1)
        spreads.append(spread / (sum(s * s for _, s in estimates) / len(estimates)))
    assert 0.91 <= covered / total <= 0.99, (covered, total)
    assert 0.75 <= sum(squares) / len(squares) <= 1.3, sum(squares) / len(squares)
    assert 0.7 <= sum(spreads) / len(spreads) <= 1.3, spreads


@pytest.mark.parametrize("game", [Game.STUD, Game.RAZZ, Game.STUD8])
def test_two_players_outcomes_counted_by_comparisons_are_those_of_the_codes(
    game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heads-up in a game of one kind, a batch's outcomes are counted from two comparisons
    (`_Deal._counted`), no code made: the same counts, and the same deals for each outcome,
    as the codes of every player count (`_outcomes`, `_each_outcome`); a hi/lo game takes the
    codes."""
    rng = random.Random(f"outcomes {game}")
    deck = list(DECK)
    rng.shuffle(deck)
    holdings = tuple(Holding(f"p{seat}", tuple(deck.pop() for _ in range(3))) for seat in (0, 1))
    names = tuple(h.player for h in holdings)
    deal = calculate._Deal(Spot(game, holdings, (Pot(101, names),), profile=CASINO))
    batch = deal.sample(np.random.default_rng(3), 20_000)
    codes, void = deal._outcomes(batch, [0, 1])
    if game is not Game.STUD8:

        def no_codes(*_: object) -> None:
            raise AssertionError("codes made for two players of one kind")

        monkeypatch.setattr(deal, "_outcomes", no_codes)
    counts, matching = deal._counted(batch, [0, 1])
    assert counts == calculate._each_outcome(codes, void)
    assert sum(deals for _, deals in counts) == 20_000
    for code, deals in counts:
        assert np.array_equal(matching(code), codes == code)
        assert int(np.count_nonzero(matching(code))) == deals
