"""The rule tables and pot rules the replay and its fast path share: what a replay returns,
the seat order, the bring-in and showing-hand keys of every card, building pots from what
each player put in, dividing a pot among tied winners and a hi/lo pot in halves, the deck
running short, and describing a showdown hand.

One implementation of each: `handlog.rules.replay` (the specification), `handlog.rules.fast`
(its fast path) and the simulator read them from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Final, TypeVar

from handlog.cards import DECK, Card
from handlog.holdings import FACE_UP
from handlog.model import Action, Game, Hand, Seat, Street
from handlog.records import record
from handlog.rules import evaluate
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.variants import VARIANTS, Lowball
from handlog.rules.violations import Kind, Violation, root_kinds

LAST_STREET = {game: variant.last_street for game, variant in VARIANTS.items()}
BIG_BET_STREETS = {game: variant.big_bet_streets for game, variant in VARIANTS.items()}
CARDS_PER_PLAYER = {game: len(layout) for game, layout in FACE_UP.items()}
DECK_SIZE = 52


@record
class Pot:
    """One pot as built from contributions."""

    amount: int
    """Chips in it before rake."""
    eligible: tuple[str, ...]
    """Players who put chips in it and did not fold."""


@record
class Replay:
    """What the replay of one hand found."""

    hand: Hand
    violations: tuple[Violation, ...]
    pots: tuple[Pot, ...]
    put_in: dict[str, int]
    """Everything each player put in (antes included), less uncalled bets returned."""
    collected: dict[str, int]
    net: dict[str, int]
    """collected - put_in, per player; sums to -rake."""
    expected_collect: dict[str, int]
    """What each player should have collected, by the rules and the cards."""
    won_high: frozenset[str] = frozenset()
    """Players who, by the rules and the cards, win (a share of) the high half of a pot, or of
    a whole pot: in stud and razz every pot winner, in stud8 the best high hand of each pot
    (the whole pot when no low qualifies), and whoever takes a pot uncontested."""
    won_low: frozenset[str] = frozenset()
    """Players who win (a share of) the low half of a hi/lo pot; nobody in stud and the razz
    games."""

    @property
    def total_pot(self) -> int:
        return sum(self.put_in.values())

    @property
    def rake(self) -> int:
        return self.hand.rake

    @property
    def kinds(self) -> frozenset[Kind]:
        """The kinds of verdict of the hand's faults (consequences follow their cause's)."""
        if not self.violations:  # most hands: asked three times a hand by an import
            return NO_KINDS
        return root_kinds(self.violations)

    @property
    def illegal(self) -> bool:
        """Whether play was illegal (a fault of kind `Kind.ILLEGAL`)."""
        return Kind.ILLEGAL in self.kinds

    @property
    def mis_split(self) -> bool:
        """Whether a pot was mis-split (money went where the rules do not send it)."""
        return Kind.MIS_SPLIT in self.kinds

    @property
    def inconsistent(self) -> bool:
        """Whether the history contradicts itself (its printed figures against its lines)
        while the money moved where the rules send it."""
        return Kind.INCONSISTENT in self.kinds

    @property
    def status(self) -> str:
        """ "flagged" when any fault was found, of whichever kind (`kinds` says which), else
        "ok"."""
        return "flagged" if self.violations else "ok"


NO_KINDS: Final[frozenset[Kind]] = frozenset()
"""The kinds of a hand without a fault."""

BRING_IN_KEYS = {game: {card: evaluate.bring_in_key(card, game) for card in DECK} for game in Game}
"""`evaluate.bring_in_key` of every card in every game, looked up rather than recomputed."""

BRING_IN_VALUES = {
    game: {card: value for value, card in enumerate(sorted(DECK, key=keys.__getitem__))}
    for game, keys in BRING_IN_KEYS.items()
}
"""The order of `BRING_IN_KEYS` as integers (every card's key differs): faster to compare."""

UP_CARDS_BEFORE = {
    game: tuple(sum(layout[:position]) for position in range(len(layout)))
    for game, layout in FACE_UP.items()
}
"""For each deal position, how many face-up cards come before it (its index among the up
cards)."""
assert all(
    layout[layout.index(True) : layout.index(True) + sum(layout)] == (True,) * sum(layout)
    for layout in FACE_UP.values()
), "the card checks take the up cards to be dealt one after the other"


UP_POSITIONS = {
    game: tuple(i for i, up in enumerate(layout) if up) for game, layout in FACE_UP.items()
}
"""The deal positions of the face-up cards."""

_NUMBER_AND_NAME = attrgetter("number", "name")
_FIRST = itemgetter(0)


@dataclass(frozen=True, slots=True)
class Lineup:
    """The seating of a table, shared by the hands dealt to the same players in the same
    seats (a session's hands mostly are): worked out once, never changed."""

    order: list[str]
    """Names in seat order."""
    seat_index: dict[str, int]
    """Each name's seat position (0 to n-1 in `order`; a name seated twice: its last)."""
    seat_bits: dict[str, int]
    """Each name's seat positions as a bitmask (bit p: position p), the form `next_clockwise`
    reads a group of players in (a name seated twice has two bits)."""


def lineup(seats: tuple[Seat, ...]) -> Lineup:
    """The seating of `seats` (shared by every hand of the same players in the same seats)."""
    number = 0
    for seat in seats:  # the parsers list the seats in order: the names alone are the key
        if seat.number <= number:
            return _lineup(
                tuple(name for _, name in sorted(map(_NUMBER_AND_NAME, seats), key=_FIRST))
            )
        number = seat.number
    return _lineup(tuple(seat.name for seat in seats))


@lru_cache(maxsize=10_000)  # a bound on memory over a long import
def _lineup(names: tuple[str, ...]) -> Lineup:
    """The seating of the players `names`, in seat order."""
    order = list(names)
    seat_index = {name: index for index, name in enumerate(order)}
    seat_bits = dict.fromkeys(order, 0)
    for index, name in enumerate(order):
        seat_bits[name] |= 1 << index
    return Lineup(order, seat_index, seat_bits)


def next_clockwise(players: int, after: int) -> int:
    """Turn order: the first of `players` (seat positions as a bitmask, bit p for position p
    in seat order, `Lineup.order`) clockwise after position `after`, `after` itself last; -1
    when `players` is empty. Stud tables have no button: play goes round the seats in order
    from whoever acted (or opened) last. The engine's `Table.next_after` and the fast path
    both ask this function."""
    later = players >> (after + 1)
    if later:  # someone in a higher seat: the nearest of them
        return after + (later & -later).bit_length()
    return (players & -players).bit_length() - 1  # round to the lowest seat (-1: nobody)


def _showing_rank_of(card: Card, ace_low: bool) -> int:
    return 1 if ace_low and card.rank == 14 else card.rank


SHOWING_VALUES = {
    ace_low: {card: _showing_rank_of(card, ace_low) * 4 + card.suit for card in DECK}
    for ace_low in (False, True)
}
"""Each card's rank (ace low where `Variant.ace_low`) times four plus its suit: the biggest
value is the best suit of the top rank."""

_RANK_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43)
SHOWING_PRIMES = {
    ace_low: {card: _RANK_PRIMES[_showing_rank_of(card, ace_low) - 1] for card in DECK}
    for ace_low in (False, True)
}
"""A prime for each card's rank (ace low where `Variant.ace_low`): the product of a hand's
primes names its multiset of ranks, whatever the order and the number of cards."""


class ShowingKeys:
    """Who acts first on a later street: the player whose showing (face-up) cards have the
    biggest key, `evaluate.showing_rank`'s rank part and then the suit of the top card, its
    sign turned by the profile in the low games (`showing_keys`). Keys are remembered by a
    code, the product of the ranks' primes times four plus the top card's suit: a few tens of
    thousands of codes cover every showing hand of a game. The replay, its fast path (which
    keeps each player's code as the cards come) and the simulator all read them here."""

    def __init__(self, game: Game, sign: int) -> None:
        ace_low = VARIANTS[game].ace_low
        self.game = game
        self.sign = sign
        self.primes = SHOWING_PRIMES[ace_low]
        self.values = SHOWING_VALUES[ace_low]
        self.memo: dict[int, tuple[object, ...]] = {}

    def key(self, cards: list[Card]) -> tuple[object, ...]:
        """The key of a player's showing cards (at least one)."""
        primes, values = self.primes, self.values
        product = 1
        top = -1
        for card in cards:  # a loop, not prod() and max() over map(): compiled, C alone
            product *= primes[card]
            value = values[card]
            if value > top:
                top = value
        code = product * 4 + (top & 3)
        found = self.memo.get(code)
        if found is None:
            found = self.work_out(code, cards)
        return found

    def work_out(self, code: int, cards: list[Card]) -> tuple[object, ...]:
        """The key of `cards`, whose code is `code`, worked out and remembered."""
        ranks = evaluate.showing_rank(cards, self.game)[:2]
        found = self.memo[code] = (*ranks, self.sign * (code & 3))
        return found


_SHOWING = {(game, sign): ShowingKeys(game, sign) for game in VARIANTS for sign in (1, -1)}


def showing_keys(game: Game, profile: RuleProfile) -> ShowingKeys:
    """The showing-hand keys of `game` under `profile`: `evaluate.showing_rank` makes the lower
    suit the bigger in the low games, and the profile turns that round unless the lower suit
    acts first there (`RuleProfile.razz_lower_suit_first`)."""
    sign = -1 if VARIANTS[game].showing_low and profile.razz_lower_suit_first else 1
    return _SHOWING[game, sign]


OPEN_PAIR_STREET = {game: variant.open_pair_street for game, variant in VARIANTS.items()}


def build_pots(
    order: list[str], put_in: dict[str, int], folded: set[str], all_in: set[str]
) -> list[Pot]:
    """Main and side pots from what each player put in: a side pot at each all-in player's
    level; folded players' chips count, but they are eligible for nothing."""
    contenders = [p for p in order if p not in folded and put_in[p] > 0]
    levels = sorted(
        {put_in[p] for p in contenders if p in all_in}
        | {max((put_in[p] for p in contenders), default=0)}
    )
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(put, level) - min(put, previous) for put in put_in.values())
        eligible = tuple(p for p in contenders if put_in[p] >= level)
        if amount > 0:
            if pots and eligible == pots[-1].eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            else:
                pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(max(0, put - previous) for put in put_in.values())
    if leftover and pots:
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots


def describe(cards: tuple[Card, ...], game: Game) -> str:
    """PokerStars' description of a showdown hand in `game`."""
    # Words depend on the hand's strength only: ranking is cheap, wording is not, so the words
    # are kept by strength (at most some tens of thousands of them).
    key: tuple[Game, int | None, int | None]
    variant = VARIANTS[game]
    if not variant.high:  # a low game: the low is the hand
        key = (game, evaluate.low_rank(cards, variant.low_qualifier, variant.lowball), None)
    else:
        high = evaluate.high_rank(cards)
        low = (
            evaluate.low_rank(cards, variant.low_qualifier, variant.lowball)
            if variant.low
            else None
        )
        key = (game, high, low)
    return describe_strength(*key)


@lru_cache(maxsize=100_000)  # some tens of thousands of strengths a game: a bound on memory
def describe_strength(game: Game, first: int | None, low: int | None) -> str:
    """`describe` from the `evaluate.high_rank` (in a low game: `low_rank`) and the low of a
    split game, each low worded the game's `lowball` way."""
    variant = VARIANTS[game]
    if not variant.high:
        return f"Lo: {evaluate.describe_low_rank(first, variant.lowball)}"  # type: ignore[arg-type]
    high = evaluate.describe_high_rank(first)  # type: ignore[arg-type]
    if variant.low:
        return (
            f"HI: {high}; LO: {evaluate.describe_low_rank(low, variant.lowball)}"
            if low is not None
            else f"HI: {high}"
        )
    return high


def fixed_sizes(
    size: int,
    small_bet: int,
    big_bet: int,
    double_bet: bool,
    big_bet_made: bool,
    profile: RuleProfile,
    house_raise: int | None = None,
) -> tuple[int, ...]:
    """The sizes a bet or raise may have in fixed limit, smallest first: the street's `size`
    (the small bet on the early streets, the big bet on the others); after an open pair on
    4th street (`double_bet`) the small or the big bet, and only the big once a big bet has
    been made, unless the profile allows a small raise after it. `house_raise`: for the
    first raise of the first street's completion, the size of the house's own raise there
    (`RuleProfile.house_raise`), allowed as well as the full bet."""
    if double_bet:
        if big_bet_made and not profile.small_raise_after_big_bet:
            return (big_bet,)
        return (small_bet, big_bet)
    if house_raise is not None and 0 < house_raise < size:
        return (house_raise, size)
    return (size,)


def bring_in_index(values: Sequence[int]) -> int:
    """Who brings in, among players (in seat order) whose door cards have the bring-in
    `values` (`BRING_IN_VALUES`: the lowest card, the highest in the razz games, suits
    breaking ties; every card's differs): the index of the biggest; -1 when there is nobody
    or a door card is not known (a value of -1): then anyone may bring in."""
    if not values or min(values) < 0:
        return -1
    return values.index(max(values))


def best_showing(keys: Sequence[tuple[object, ...]], by_seat: bool) -> int:
    """Who acts first on a later street, among players (in seat order) whose showing hands
    have `keys` (`ShowingKeys.key`): the index of the biggest key, the first in seat order
    among equals; `by_seat` (`TieBreak.CLOCKWISE`): equal ranks are equal, whatever the
    suits. -1 when there is nobody."""
    best = -1
    best_key: tuple[object, ...] = ()
    for index, key in enumerate(keys):
        if by_seat:
            key = key[:2]
        if best < 0 or key > best_key:  # type: ignore[operator]
            best, best_key = index, key
    return best


def open_pair_round(street: Street, game: Game, exact_sizes: bool, profile: RuleProfile) -> bool:
    """The open pair: whether `street` is the game's second betting round
    (`Variant.open_pair_street`) of fixed limit (`exact_sizes`) in a game where the profile
    allows the double bet; there a pair showing (or up cards not printed, so that one cannot
    be ruled out) allows the big bet."""
    return street == OPEN_PAIR_STREET[game] and exact_sizes and profile.double_bet_allowed(game)


def cap_allows(bets: int, started_with: int, profile: RuleProfile, capped: bool) -> bool:
    """Whether the `bets`-th bet of a street (a completion counts as the first) is within
    the cap: `RuleProfile.cap_bets`, lifted when only two players could act at the start of
    the street where the profile says so (`cap_heads_up`), and none where the structure has
    no cap (`capped`: `structures.capped`)."""
    return (
        not capped or bets <= profile.cap_bets or (not profile.cap_heads_up and started_with <= 2)
    )


def reopens(increment: int, size: int, profile: RuleProfile) -> bool:
    """Fixed limit: whether an all-in raise by `increment`, short of a full `size`, still
    reopens the betting: from half a bet under the half-bet rule, else only a full one
    (`RuleProfile.all_in_reopens_at_half_bet`)."""
    if profile.all_in_reopens_at_half_bet:
        return increment * 2 >= size
    return increment >= size


def counts_as_bet(
    total: int,
    least: int,
    all_in: bool,
    current_bet: int,
    size: int,
    exact_sizes: bool,
    profile: RuleProfile,
) -> bool:
    """Whether a completion, bet or raise to the street total `total` is a full one, which
    counts towards the cap and reopens the betting: at least `least` (the smallest full
    total), or all-in for less where fixed limit's half-bet rule lets it (`reopens`, over
    the bet of `current_bet`, the street's bet `size`). A short all-in in spread, pot or no
    limit never is."""
    if not all_in or total >= least:
        return True
    return exact_sizes and reopens(total - current_bet, size, profile)


def uncalled_due(amounts: list[int]) -> tuple[int, int]:
    """The uncalled part of a street's bets (`amounts`, by player in seat order): the index
    of the player who put in most (the first such) and how much more than anyone else."""
    # One pass, no copies: the most, where it first is, and the most of the others.
    most = amounts[0]
    index = 0
    second = 0
    has_second = False
    for i in range(1, len(amounts)):
        amount = amounts[i]
        if amount > most:
            second, has_second = most, True
            most, index = amount, i
        elif not has_second or amount > second:
            second, has_second = amount, True
    return index, most - second if has_second else most


def after_rake(amounts: list[int], rake: int) -> list[int]:
    """Each pot after the rake, which comes out of the main pot first and, when it is bigger
    than that (a short all-in's small main pot), out of the next pots in turn."""
    left = rake
    result = []
    for amount in amounts:
        taken = min(left, amount)
        result.append(amount - taken)
        left -= taken
    return result


def has_pair(cards: list[Card] | tuple[Card, ...]) -> bool:
    ranks = [c.rank for c in cards]
    return len(ranks) != len(set(ranks))


def ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


# -- cards -------------------------------------------------------------------------------


_Player = TypeVar("_Player", str, int)
"""A player: a name, or a seat position (in the fast path and the simulator)."""


def cards_needed(
    players: Iterable[_Player], folded_on: Mapping[_Player, Street], size: int, burns: int
) -> int:
    """Cards the deck must hold to give everyone still in a last card: every card dealt so
    far counts, the dead cards of players who folded included (the n-th street deals the
    n-th card, so a player who folded on 5th street took five), plus the burns."""
    return sum(min(int(folded_on.get(p, size)), size) for p in players) + burns


def deck_runs_short(
    players: Iterable[_Player], folded_on: Mapping[_Player, Street], size: int, burns: int
) -> bool:
    """Whether the deck cannot give everyone still in a last card (`cards_needed`): then one
    community card is dealt face up on 7th street instead, for everyone."""
    return cards_needed(players, folded_on, size, burns) > DECK_SIZE


def river_line(hand: Hand) -> int:
    for event in hand.events:
        if event.street == Street.SEVENTH:
            return event.line - 1
    return hand.source.line if hand.source else 0


# -- awards ------------------------------------------------------------------------------


def _low_card_order(card: Card, ace_low: bool) -> tuple[int, int]:
    """A card's place from the lowest, for the odd chip of a low half: by rank (the ace below
    the deuce where `ace_low`), then suit."""
    return (1 if ace_low and card.rank == 14 else card.rank, card.suit)


def divide(
    amount: int,
    winners: list[_Player],
    hands: Mapping[_Player, Sequence[Card]],
    low: bool,
    profile: RuleProfile,
    seat_order: Callable[[_Player], int] | None = None,
    lowball: Lowball = Lowball.ACE_TO_FIVE,
) -> dict[_Player, int]:
    """`amount` shared by tied `winners` (of a pot, or of its high or low half): equal shares,
    the odd chips one each in the profile's order — clockwise (`seat_order`; None: the
    winners' own order), or by the best card, the highest by suit for a high hand (`low`
    False), the lowest by suit for a low one, ranked the game's `lowball` way (the ace lowest
    but in deuce-to-seven, where it is highest)."""
    if len(winners) == 1:
        return {winners[0]: amount}
    share, odd = divmod(amount, len(winners))
    if profile.odd_chip_tie is TieBreak.CLOCKWISE:
        ordered = sorted(winners, key=seat_order)
    elif low:
        ace_low = lowball is not Lowball.DEUCE_TO_SEVEN
        ordered = sorted(winners, key=lambda w: min(_low_card_order(c, ace_low) for c in hands[w]))
    else:
        ordered = sorted(
            winners, key=lambda w: max((c.rank, c.suit) for c in hands[w]), reverse=True
        )
    return {w: share + (1 if index < odd else 0) for index, w in enumerate(ordered)}


def hi_lo_halves(amount: int, profile: RuleProfile) -> tuple[int, int]:
    """The high and the low half of a hi/lo pot of `amount` with a (qualifying) low: the odd
    chip of the halving to the high half unless the profile says low."""
    low_half = amount // 2
    high_half = amount - low_half
    if not profile.odd_chip_to_high:
        return low_half, high_half
    return high_half, low_half


def divide_reads_cards(amount: int, winners: int, profile: RuleProfile) -> bool:
    """Whether `divide` reads the cards of `winners` tied players sharing `amount`: an odd
    chip is left among them and the house gives it by the best card (`TieBreak.SUIT`)."""
    return profile.odd_chip_tie is TieBreak.SUIT and winners > 1 and amount % winners != 0


def pot_parts(
    amount: int, game: Game, low_qualifies: bool, profile: RuleProfile
) -> tuple[int, int]:
    """What of a pot of `amount` the best high hand wins and what the best low wins: all of it
    to the low in the low games (razz and its cousins); all of it to the high in the high games,
    and in hi/lo when no low qualifies (`low_qualifies` False); else the two halves
    (`hi_lo_halves`)."""
    variant = VARIANTS[game]
    if not variant.high:
        return 0, amount
    if not (variant.low and low_qualifies):
        return amount, 0
    return hi_lo_halves(amount, profile)


def award(
    amount: int,
    high_winners: list[_Player],
    low_winners: list[_Player],
    hands: Mapping[_Player, Sequence[Card]],
    game: Game,
    profile: RuleProfile,
    seat_order: Callable[[_Player], int] | None = None,
) -> tuple[dict[_Player, int], dict[_Player, int]]:
    """A pot of `amount` (after rake) paid to its winners, the high and the low shares apart:
    `high_winners` hold the best high hand (none in the low games), `low_winners` the best
    qualifying low (none in the high games, or when no low qualifies). Each part of the pot
    (`pot_parts`) is shared by `divide` among the players tied for it, the low part's odd
    chip by the game's lowball; one player may take both. The one division of a pot: the
    replay's awards (`awards.split_pot`), the fast path, the simulator and the equity
    calculator all pay through it."""
    high_part, low_part = pot_parts(amount, game, bool(low_winners), profile)
    high = (
        divide(high_part, high_winners, hands, False, profile, seat_order) if high_winners else {}
    )
    if not low_winners:
        return high, {}
    lowball = VARIANTS[game].lowball
    return high, divide(low_part, low_winners, hands, True, profile, seat_order, lowball)


def award_reads_cards(
    amount: int, high_winners: int, low_winners: int, game: Game, profile: RuleProfile
) -> bool:
    """Whether `award` reads the winners' cards: an odd chip of a part of the pot is left
    among tied winners and the house gives it by the cards (`divide_reads_cards`). Else the
    division depends only on who won."""
    high_part, low_part = pot_parts(amount, game, low_winners > 0, profile)
    return divide_reads_cards(high_part, high_winners, profile) or divide_reads_cards(
        low_part, low_winners, profile
    )


def known_cards(shows: list[Action], hand: Hand) -> dict[str, tuple[Card, ...]]:
    """Each player's cards as shown at showdown (show lines, then summary lines)."""
    cards = {event.player: event.cards for event in shows}
    for result in hand.results:
        if result.showed and result.player not in cards:
            cards[result.player] = result.showed
    return cards
