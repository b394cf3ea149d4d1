"""Random legal stud hands played by pokerkit, written as PokerStars text.

Test-only helper for `test_differential_pokerkit.py`. pokerkit (the reference engine) decides
everything that matters for legality: who brings in, whose turn it is, who acts first on
later streets, what a call costs, when a street is over, who wins which pot and every
player's final stack. This module only chooses random actions among those pokerkit allows,
records every card and action, writes the hand as PokerStars would print it (antes, "brings
in for", completions as "raises X to Y", hero/opponent "Dealt to" lines, "Uncalled bet"
returns, showdown, per-pot collects, summary) and parses that text with handlog's parser.

    random_hands(game, count, seed) -> [(Hand, {player: final stack})]
    generate(game, count, seed) -> Generated(hands, texts, skipped)

Deterministic per (game, count, seed): every attempt draws from its own `random.Random`
and the deck is ours (pokerkit's own shuffle is never used: every card is dealt explicitly).

Where pokerkit and PokerStars' rules (docs: /work/shared/RULES.md, profile POKERSTARS) part
ways, the generator restricts or adapts, as the issue asks:

* Open-pair double bet (stud only at PokerStars): pokerkit has none, so the 4th-street
  bet is always the small bet. That is legal under PokerStars rules too (the big bet is an
  option), so nothing is skipped; the "Pair on board - a double bet is allowed" line is
  written when a pair shows on 4th street in 7-card stud, as PokerStars does.
* Cap: pokerkit keeps the cap of a bet (or completion) and three raises heads-up, as
  PokerStars does. Nothing to adapt; raises are often chosen so that the cap is reached.
* Short all-in completions, bets and raises are generated. pokerkit reopens the betting
  for players who already acted only on a full raise and counts every short all-in raise
  towards the cap; PokerStars (profile `all_in_reopens_at_half_bet`) reopens at half a bet
  and counts a short raise only from half a bet. pokerkit is the stricter of the two but
  for a player who checked (or called the bring-in) before a short all-in bet (completion):
  pokerkit lets them raise it, while the rules (TDA, Robert's Rules, `Table.betting_closed`)
  close the betting to anyone who has acted and faces less than a full bet, PokerStars from
  half a bet. The generator does not raise there (`_Table.acted_at`). These hands only
  test that the replay accepts what is legal, not that it rejects a raise the half-bet rule
  forbids (tests/test_short_all_in.py does).
* Stacks are always larger than the ante, so nobody is all-in on the ante (when such a
  player has the bring-in card pokerkit passes the bring-in to the next seat, which
  RULES.md does not settle). A bring-in all-in for less does happen.
* First actor on 4th-7th street: pokerkit breaks ties between equal showing hands by seat
  (the first player index), PokerStars by the suit of the highest card. On 4th-6th street
  the up cards are redrawn (from the same deck) until the best showing hand is unique; on
  7th street (no new up card) a tie at the top makes the hand skipped ("first-actor tie").
* Burns: PokerStars (profile `burns=False`) does not burn, pokerkit does; pokerkit is given
  unknown cards ("??") to burn, so the deck is the PokerStars one.
* 8 players: 52 cards are not enough when 8 reach 7th street (PokerStars deals a community
  card; pokerkit does too but decides the 7th-street first actor without it) and pokerkit
  even re-deals folded (dead) cards when the deck runs short with fewer players left. Hands
  in which our (dead-card-free) deck runs short are skipped ("deck short"); 8-player
  tables are dealt less often, and most of their hands have enough folds to finish.
* Odd chips: pokerkit gives the odd chip of a tied split to the first player by seat,
  PokerStars by suit. Hands where a tied split leaves an odd chip are skipped ("odd chip").
  The odd chip of a hi/lo split goes to the high half in both, so those are kept.
* Pots: pokerkit kills hands that cannot win and then merges pots with the same surviving
  players, rakes each pot separately, and in hi/lo splits a side pot into halves when any
  player at the table has a low (paying the "low half" to non-qualifying hands if nobody in
  that pot has one). The generator writes main/side pots as PokerStars does (built from
  what the non-folded players put in), maps pokerkit's payouts onto them and skips the hand
  when that is not exact ("merged pots", "pokerkit low half"). Rake (5%, floored) is taken
  only in hands without any all-in, i.e. with a single pot.
* Showdown descriptions ("(HI: a pair of Kings; LO: 8,7,5,4,2)") are PokerStars' words
  for the best hands as pokerkit's evaluators pick them (`StandardHighHand`,
  `EightOrBetterLowHand`, `RegularLowHand`), so the replay's description check is
  differential too. A razz hand whose best low still holds a pair gets no description
  (its PokerStars wording is not known here). pokerkit decides who shows and who mucks
  (`show_or_muck_hole_cards()` default: show when the hand can still win).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pokerkit import (
    Automation,
    Card,
    EightOrBetterLowHand,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Label,
    RegularLowHand,
    StandardHighHand,
    State,
)

from handlog.model import Hand
from handlog.parse import parse_text

GAMES: dict[str, tuple[Any, str]] = {  # the pokerkit game class and PokerStars' name
    "stud": (FixedLimitSevenCardStud, "7 Card Stud Limit"),
    "stud8": (FixedLimitSevenCardStudHighLowSplitEightOrBetter, "7 Card Stud Hi/Lo Limit"),
    "razz": (FixedLimitRazz, "Razz Limit"),
}

# (ante, bring-in, small bet, big bet) in cents, as PokerStars' stud tables have them.
STAKES = (
    (1, 2, 4, 8),
    (2, 5, 10, 20),
    (5, 10, 20, 40),
    (5, 10, 25, 50),
    (10, 25, 50, 100),
    (25, 50, 100, 200),
    (50, 200, 500, 1000),
)

NAMES = ["Player1", "Player2", "Player3", "Player4", "Player5", "Player6", "Player7", "Player8"]
ODD_NAMES = ["Anna K.", "J.R. Ewing", "x.y.z", "Mr Big", "Ölfläsche", "dr. no", "A B C D"]

STREET_HEADERS = (
    "*** 3rd STREET ***",
    "*** 4th STREET ***",
    "*** 5th STREET ***",
    "*** 6th STREET ***",
    "*** RIVER ***",
)
SUMMARY_STREETS = ("3rd Street", "4th Street", "5th Street", "6th Street", "River")

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
PK_CARD = {text: next(iter(Card.parse(text))) for text in DECK}

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PULLING,
)

_HIGH_LOOKUP = State._State__high_hand_opening_lookup  # type: ignore[attr-defined]
_LOW_LOOKUP = State._State__low_hand_opening_lookup  # type: ignore[attr-defined]


class Skip(Exception):
    """This deal is one of the cases where pokerkit and PokerStars' rules part ways."""


@dataclass
class Generated:
    hands: list[tuple[Hand, dict[str, int]]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    attempts: int = 0


def money(cents: int) -> str:
    whole, rest = divmod(cents, 100)
    return f"${whole}.{rest:02d}" if rest else f"${whole}"


def random_hands(game: str, count: int, seed: int) -> list[tuple[Hand, dict[str, int]]]:
    """`count` random legal hands of `game` ("stud", "stud8", "razz") and pokerkit's final
    stack of every player (by name)."""
    return generate(game, count, seed).hands


def generate(game: str, count: int, seed: int) -> Generated:
    """Hands, their texts and how many deals were skipped and why."""
    out = Generated()
    attempt = 0
    while len(out.hands) < count:
        attempt += 1
        rng = random.Random(f"{game}/{seed}/{attempt}")
        hand_id = f"{seed % 1000:03d}{attempt:07d}"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                text, stacks = _play(game, rng, hand_id, attempt)
        except Skip as why:
            out.skipped[str(why)] += 1
            continue
        parsed = parse_text(text, file=f"<pokerkit {game} {hand_id}>")
        if len(parsed) != 1 or not isinstance(parsed[0], Hand):
            raise AssertionError(f"generated text does not parse: {parsed}\n{text}")
        out.hands.append((parsed[0], stacks))
        out.texts.append(text)
    out.attempts = attempt
    return out


# -- one hand ----------------------------------------------------------------------------


class _Table:
    """What we record while pokerkit plays one hand."""

    def __init__(self, names: list[str], seats: list[int], stacks: list[int]) -> None:
        self.names = names
        self.seats = seats
        self.n = len(names)
        self.cards: list[list[str]] = [[] for _ in names]
        self.up: list[list[str]] = [[] for _ in names]
        self.folded: dict[int, int] = {}  # player -> street index
        self.put: list[int] = [0] * self.n  # total put in, after uncalled returns
        self.street_put: list[int] = [0] * self.n
        self.third_street_money: list[int] = [0] * self.n
        self.lines: list[list[str]] = [[] for _ in range(5)]  # per street index
        self.street = -1
        self.last_street = -1
        self.closed = -1  # the last street whose uncalled bet was settled
        self.acted_at: dict[int, int] = {}
        """The bet each player last acted on in this street since its last full bet or
        raise (`Table.acted_on`): who may not raise a short all-in (`_act`)."""
        self.start = list(stacks)


def _play(game: str, rng: random.Random, hand_id: str, attempt: int) -> tuple[str, dict[str, int]]:
    cls, title = GAMES[game]
    low_game = game == "razz"
    ante, bring_in, small, big = rng.choice(STAKES)
    n = rng.choices(range(2, 9), weights=(3, 3, 3, 3, 3, 3, 1))[0]
    seats = sorted(rng.sample(range(1, 9), n))
    pool = NAMES[: n - 1] + rng.sample(ODD_NAMES, 2)
    rng.shuffle(pool)
    names = ["Hero", *pool[: n - 1]]
    stacks = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.3:  # short: all-in soon
            stacks.append(rng.randint(ante + 1, ante + 4 * big))
        elif kind < 0.7:
            stacks.append(rng.randint(4 * big, 20 * big))
        else:
            stacks.append(rng.randint(20 * big, 100 * big))
    raking = {"on": rng.random() < 0.5}

    def rake(amount: int, _state: object) -> tuple[int, int]:
        if not raking["on"]:
            return 0, amount
        taken = min(amount * 5 // 100, 3 * big)
        return taken, amount - taken

    state = cls.create_state(AUTOMATIONS, True, ante, bring_in, small, big, stacks, n, rake=rake)
    table = _Table(names, seats, stacks)
    deck = DECK[:]
    rng.shuffle(deck)
    # how this hand's players play: chance to fold facing a bet, to raise, to bet
    fold_p = rng.uniform(0.05, 0.35)
    raise_p = rng.choice((0.05, 0.15, 0.3, 0.6))
    bet_p = rng.uniform(0.2, 0.6)

    antes = [f"{names[i]}: posts the ante {money(ante)}" for i in range(n)]
    for i in range(n):
        table.put[i] += ante
    pushes: list[tuple[int, int | None, tuple[int, ...]]] = []  # (pot, hand type, amounts)
    pk_pots: list[tuple[int, int, tuple[int, ...]]] | None = None
    shown: dict[int, bool] = {}
    showdown_order: list[int] = []

    while state.status:
        if state.can_burn_card("??"):
            state.burn_card("??")  # no burns at PokerStars: pokerkit burns an unknown card
        elif state.can_deal_hole():
            _deal_street(state, table, deck, rng, low_game, game)
        elif state.can_deal_board():
            raise Skip("deck short")
        elif state.actor_index is not None:
            _act(state, table, rng, fold_p, raise_p, bet_p)
            if any(s == 0 for s in state.stacks):
                raking["on"] = False  # an all-in: maybe several pots, no rake (see above)
        elif state.can_show_or_muck_hole_cards():
            _close_street(table)
            index = state.showdown_index
            operation = state.show_or_muck_hole_cards()
            # pokerkit shows all-in hands as soon as the betting is over, then again at the
            # end: PokerStars shows each hand once, at the showdown, in the first order.
            if index not in shown:
                showdown_order.append(index)
            shown[index] = bool(operation.hole_cards)
        elif state.can_push_chips():
            _close_street(table)
            if pk_pots is None:
                pk_pots = [
                    (p.raked_amount, p.unraked_amount, tuple(p.player_indices)) for p in state._pots
                ]  # noqa: SLF001 - before pushing changes them
            amount, pot_index, board_index, type_index = state._sub_pots[0]  # noqa: SLF001
            if board_index is not None:
                hands = tuple(state.get_up_hands(board_index, type_index))
                eligible = pk_pots[pot_index][2]
                contenders = [hands[i] for i in eligible if hands[i] is not None]
                if contenders:
                    best = max(contenders)
                    winners = [i for i in eligible if hands[i] == best]
                else:
                    # A low half of a pot in which nobody qualifies for low: pokerkit pays
                    # it to every eligible player; the rules give it to the high winners.
                    highs = tuple(state.get_up_hands(board_index, 0))
                    top = max(highs[i] for i in eligible)
                    winners = list(eligible)
                    if any(highs[i] != top for i in eligible):
                        raise Skip("pokerkit low half")
                if len(winners) > 1 and amount % len(winners):
                    raise Skip("odd chip")
            operation = state.push_chips()
            pushes.append((operation.pot_index, operation.hand_type_index, operation.amounts))
        else:  # pragma: no cover - pokerkit waits for something we do not do
            raise AssertionError(f"stuck pokerkit state in hand {hand_id}")

    final = {names[i]: state.stacks[i] for i in range(n)}
    assert pk_pots is not None
    text = _write(
        game,
        title,
        hand_id,
        attempt,
        table,
        small,
        big,
        antes,
        pk_pots,
        pushes,
        shown,
        showdown_order,
        rng,
    )
    return text, final


def _deal_street(
    state: State, table: _Table, deck: list[str], rng: random.Random, low_game: bool, game: str
) -> None:
    street = state.street_index
    assert street is not None
    _close_street(table)
    table.street = street
    table.last_street = street
    table.street_put = [0] * table.n
    table.acted_at = {}
    players = [i for i in range(table.n) if state.statuses[i]]
    if street == 0:
        new = {i: [deck.pop(), deck.pop(), deck.pop()] for i in players}
    else:
        if len(deck) < len(players):
            raise Skip("deck short")
        new = {i: [deck.pop()] for i in players}
        if street < 4:
            tries = 0
            while _top_tie([table.up[i] + new[i] for i in players], low_game):
                tries += 1
                if tries > 50:
                    raise Skip("first-actor tie")
                for i in players:
                    deck.append(new[i][0])
                rng.shuffle(deck)
                new = {i: [deck.pop()] for i in players}
    queues = {i: list(new[i]) for i in players}
    while state.can_deal_hole():
        dealee = state.hole_dealee_index
        assert dealee is not None
        state.deal_hole(PK_CARD[queues[dealee].pop(0)])
    assert not any(queues.values()), queues
    # record the cards and write the "Dealt to" lines (in seat order)
    lines = table.lines[street]
    hero = 0
    for i in players:
        before = list(table.cards[i])
        table.cards[i].extend(new[i])
        if street == 0:
            table.up[i].append(new[i][2])
            shown_cards = new[i] if i == hero else new[i][2:]
            lines.append(f"Dealt to {table.names[i]} [{' '.join(shown_cards)}]")
        elif street < 4:
            previous = before if i == hero else table.up[i]
            lines.append(f"Dealt to {table.names[i]} [{' '.join(previous)}] [{new[i][0]}]")
            table.up[i].append(new[i][0])
        elif i == hero:
            lines.append(f"Dealt to {table.names[i]} [{' '.join(before)}] [{new[i][0]}]")
    if (
        street == 1
        and game == "stud"
        and any(len(set(c[0] for c in table.up[i])) < len(table.up[i]) for i in players)
    ):
        lines.append("Pair on board - a double bet is allowed")
    if (
        street == 4
        and state.actor_index is not None
        and _top_tie([table.up[i] for i in players], low_game)
    ):
        raise Skip("first-actor tie")


def _top_tie(up_cards: list[list[str]], low_game: bool) -> bool:
    """Whether two players share the best showing hand as pokerkit ranks it (pokerkit then
    lets the first by seat act, PokerStars the one with the highest card by suit)."""
    lookup = _LOW_LOOKUP if low_game else _HIGH_LOOKUP
    entries = [lookup.get_entry_or_none([PK_CARD[c] for c in cards]) for cards in up_cards]
    entries = [e for e in entries if e is not None]
    best = min(entries) if low_game else max(entries)
    return entries.count(best) > 1


def _act(
    state: State, table: _Table, rng: random.Random, fold_p: float, raise_p: float, bet_p: float
) -> None:
    i = state.actor_index
    assert i is not None
    name = table.names[i]
    stack = state.stacks[i]
    lines = table.lines[table.street]
    top = max(state.bets)
    full = None
    short = False
    if state.can_complete_bet_or_raise_to():
        street = state.street
        assert street is not None
        full = max(
            state.completion_betting_or_raising_amount,
            street.min_completion_betting_or_raising_amount,
        )
        if not state.completion_status:
            full += top
        if full - state.bets[i] > stack:
            full = stack + state.bets[i]  # a short all-in completion, bet or raise
            short = True
        assert state.min_completion_betting_or_raising_to_amount == full
        at = table.acted_at.get(i)
        if (
            at is not None
            and at < top
            and 2 * (top - at) < street.min_completion_betting_or_raising_amount
        ):
            # A player who acted (checked, called) faces less than half a bet more, from
            # short all-ins: the betting is closed to them (TDA, Robert's Rules; PokerStars'
            # half-bet rule), where pokerkit lets one who checked raise a short all-in bet.
            full = None
    all_in = ""

    def pay(amount: int) -> None:
        nonlocal all_in
        table.put[i] += amount
        table.street_put[i] += amount
        if table.street == 0:
            table.third_street_money[i] += amount
        if amount == stack:
            all_in = " and is all-in"

    if state.can_post_bring_in():
        if full is not None and rng.random() < 0.15:
            pay(full - state.bets[i])
            state.complete_bet_or_raise_to(full)
            lines.append(f"{name}: bets {money(full)}{all_in}")  # the bring-in seat completes
            _bet_made(table, i, full, short)
        else:
            amount = state.effective_bring_in_amount
            assert amount is not None
            pay(amount)
            state.post_bring_in()
            lines.append(f"{name}: brings in for {money(amount)}{all_in}")
            table.acted_at[i] = amount
        return
    owed = state.checking_or_calling_amount
    assert owed is not None
    roll = rng.random()
    if owed > 0:
        if roll < fold_p and state.can_fold():
            state.fold()
            table.folded[i] = table.street
            lines.append(f"{name}: folds")
            return
        if roll < fold_p + raise_p and full is not None:
            pay(full - state.bets[i])
            state.complete_bet_or_raise_to(full)
            lines.append(f"{name}: raises {money(full - top)} to {money(full)}{all_in}")
            _bet_made(table, i, full, short)
            return
        pay(owed)
        state.check_or_call()
        lines.append(f"{name}: calls {money(owed)}{all_in}")
        table.acted_at[i] = top
        return
    if full is not None and roll < bet_p:
        pay(full - state.bets[i])
        state.complete_bet_or_raise_to(full)
        lines.append(f"{name}: bets {money(full)}{all_in}")
        _bet_made(table, i, full, short)
        return
    state.check_or_call()
    lines.append(f"{name}: checks")
    table.acted_at[i] = top


def _bet_made(table: _Table, i: int, total: int, short: bool) -> None:
    """A completion, bet or raise to `total` by player `i`: a full one closes the acting of
    everyone else (they face it whole); a short all-in leaves them what they acted on."""
    if short:
        table.acted_at[i] = total
    else:
        table.acted_at = {i: total}


def _close_street(table: _Table) -> None:
    """At the end of a street: the part of the biggest bet nobody matched goes back."""
    if table.street < 0 or table.closed == table.street:
        return
    table.closed = table.street
    order = sorted(range(table.n), key=lambda p: table.street_put[p], reverse=True)
    first, second = order[0], order[1]
    extra = table.street_put[first] - table.street_put[second]
    if extra > 0:
        table.put[first] -= extra
        table.street_put[first] -= extra
        table.lines[table.street].append(
            f"Uncalled bet ({money(extra)}) returned to {table.names[first]}"
        )


# -- pots and text -------------------------------------------------------------------------

RANK_WORDS = {
    "2": ("Deuce", "Deuces"),
    "3": ("Three", "Threes"),
    "4": ("Four", "Fours"),
    "5": ("Five", "Fives"),
    "6": ("Six", "Sixes"),
    "7": ("Seven", "Sevens"),
    "8": ("Eight", "Eights"),
    "9": ("Nine", "Nines"),
    "T": ("Ten", "Tens"),
    "J": ("Jack", "Jacks"),
    "Q": ("Queen", "Queens"),
    "K": ("King", "Kings"),
    "A": ("Ace", "Aces"),
}
LOW_ORDER = "A23456789TJQK"


def _describe(game: str, cards: list[str]) -> str | None:
    """PokerStars' description of a 7-card showdown hand, from pokerkit's best hands."""
    hand = [PK_CARD[c] for c in cards]
    if game == "razz":
        low = [c.rank.value for c in RegularLowHand.from_game(hand).cards]
        return f"Lo: {_low_words(low)}" if len(set(low)) == 5 else None
    high = _high_words(StandardHighHand.from_game(hand))
    if game == "stud8":
        try:
            low = [c.rank.value for c in EightOrBetterLowHand.from_game(hand).cards]
        except ValueError:
            return f"HI: {high}"
        return f"HI: {high}; LO: {_low_words(low)}"
    return high


def _low_words(ranks: list[str]) -> str:
    return ",".join(sorted(ranks, key=LOW_ORDER.index, reverse=True))


def _high_words(hand: Any) -> str:
    ranks = [c.rank.value for c in hand.cards]
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], RANKS.index(r)), reverse=True)
    one = {r: RANK_WORDS[r][0] for r in ranks}
    many = {r: RANK_WORDS[r][1] for r in ranks}
    label = hand.entry.label
    if label in (Label.STRAIGHT, Label.STRAIGHT_FLUSH):
        low, high = ("A", "5") if set(ranks) == set("A2345") else (order[-1], order[0])
        if label is Label.STRAIGHT_FLUSH and high == "A":
            return "a Royal Flush"
        kind = "a straight flush" if label is Label.STRAIGHT_FLUSH else "a straight"
        return f"{kind}, {one[low]} to {one[high]}"
    words = {
        Label.HIGH_CARD: lambda: f"high card {one[order[0]]}",
        Label.ONE_PAIR: lambda: f"a pair of {many[order[0]]}",
        Label.TWO_PAIR: lambda: f"two pair, {many[order[0]]} and {many[order[1]]}",
        Label.THREE_OF_A_KIND: lambda: f"three of a kind, {many[order[0]]}",
        Label.FLUSH: lambda: f"a flush, {one[order[0]]} high",
        Label.FULL_HOUSE: lambda: f"a full house, {many[order[0]]} full of {many[order[1]]}",
        Label.FOUR_OF_A_KIND: lambda: f"four of a kind, {many[order[0]]}",
    }
    return words[label]()


def _stars_pots(table: _Table) -> list[tuple[int, tuple[int, ...]]]:
    """Main and side pots as PokerStars builds them: levels at what each all-in player
    still in the hand put in; eligible: the players still in (not folded)."""
    live = [i for i in range(table.n) if i not in table.folded]
    put = table.put
    all_in_levels = {put[i] for i in live if table.start[i] == put[i]}
    levels = sorted(all_in_levels | {max(put[i] for i in live)})
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in levels:
        amount = sum(min(p, level) - min(p, previous) for p in put)
        eligible = tuple(i for i in live if put[i] >= level)
        if amount:
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        previous = level
    leftover = sum(max(0, p - previous) for p in put)
    assert leftover == 0, "a folded player put in more than anyone still in"
    return pots


def _collects(
    table: _Table,
    pk_pots: list[tuple[int, int, tuple[int, ...]]],
    pushes: list[tuple[int, int | None, tuple[int, ...]]],
    stars: list[tuple[int, tuple[int, ...]]],
) -> list[dict[int, int]]:
    """What each player collects from each PokerStars pot, from pokerkit's payouts.

    pokerkit's pots are unions of consecutive PokerStars pots (it merges pots whose
    surviving players are the same after killing hands that cannot win). A pokerkit pot
    that is one PokerStars pot maps over as it is; a merged one is split back into its parts
    by PokerStars' rules with pokerkit's winners, and must add up to what pokerkit paid."""
    result: list[dict[int, int]] = [{} for _ in stars]
    j = 0
    for k, (raked, unraked, _eligible) in enumerate(pk_pots):
        group = []
        total = 0
        while total < raked + unraked:
            group.append(j)
            total += stars[j][0]
            j += 1
        assert total == raked + unraked, (pk_pots, stars)
        paid: dict[int, int] = {}
        # hand type 0: high (or razz low), 1: the stud8 low half; None: one player left
        mine = [(t or 0, amounts) for pot, t, amounts in pushes if pot == k]
        for _t, amounts in mine:
            for i, a in enumerate(amounts):
                if a:
                    paid[i] = paid.get(i, 0) + a
        if len(group) == 1:
            result[group[0]] = paid
            continue
        assert raked == 0
        has_low = any(t == 1 for t, _ in mine)
        rebuilt: dict[int, int] = {}
        for g in group:
            amount = stars[g][0]
            halves = [(0, amount - amount // 2), (1, amount // 2)] if has_low else [(0, amount)]
            for t, half in halves:
                winners = [i for tt, amounts in mine if tt == t for i, a in enumerate(amounts) if a]
                assert winners, (pk_pots, pushes, stars, t)
                if half % len(winners):
                    raise Skip("odd chip")
                for i in winners:
                    share = half // len(winners)
                    result[g][i] = result[g].get(i, 0) + share
                    rebuilt[i] = rebuilt.get(i, 0) + share
        if rebuilt != paid:
            raise Skip("merged pots")
    assert j == len(stars), (pk_pots, stars)
    return result


def _write(
    game: str,
    title: str,
    hand_id: str,
    attempt: int,
    table: _Table,
    small: int,
    big: int,
    antes: list[str],
    pk_pots,
    pushes,
    shown: dict[int, bool],
    showdown_order: list[int],
    rng: random.Random,
) -> str:
    names = table.names
    total = sum(table.put)
    rake = sum(r for r, _, _ in pk_pots)
    live = [i for i in range(table.n) if i not in table.folded]
    minute = attempt % 60
    hour = 12 + (attempt // 60) % 10
    out = [
        f"PokerStars Hand #{hand_id}:  {title} ({money(small)}/{money(big)} USD) - "
        f"2020/01/01 {hour}:{minute:02d}:00 ET",
        "Table 'Diff' 8-max",
    ]
    out += [
        f"Seat {table.seats[i]}: {names[i]} ({money(table.start[i])} in chips)"
        for i in range(table.n)
    ]
    out += antes
    last_street = table.last_street
    won: dict[int, int] = {}
    if len(live) == 1:
        winner = live[0]
        won[winner] = total - rake
        table.lines[last_street].append(f"{names[winner]} collected {money(total - rake)} from pot")
        if rng.random() < 0.5:
            table.lines[last_street].append(f"{names[winner]}: doesn't show hand")
        pot_text = f"Total pot {money(total)} | Rake {money(rake)}"
        showdown: list[str] = []
    else:
        stars = _stars_pots(table)
        shares = _collects(table, pk_pots, pushes, stars)
        showdown = ["*** SHOW DOWN ***"]
        descriptions: dict[int, str] = {}
        for i in showdown_order:
            if shown[i]:
                words = _describe(game, table.cards[i])
                descriptions[i] = f" with {words}" if words else ""
                showdown.append(
                    f"{names[i]}: shows [{' '.join(table.cards[i])}]"
                    + (f" ({words})" if words else "")
                )
            else:
                showdown.append(f"{names[i]}: mucks hand")
        if len(stars) == 1:
            labels = ["pot"]
            pot_text = f"Total pot {money(total)} | Rake {money(rake)}"
        else:
            labels = ["main pot"] + (
                ["side pot"] if len(stars) == 2 else [f"side pot-{k}" for k in range(1, len(stars))]
            )
            after_rake = [amount for amount, _ in stars]
            after_rake[0] -= rake
            pot_text = f"Total pot {money(total)} Main pot {money(after_rake[0])}."
            for k, amount in enumerate(after_rake[1:], 1):
                label = "Side pot" if len(stars) == 2 else f"Side pot-{k}"
                pot_text += f" {label} {money(amount)}."
            pot_text += f" | Rake {money(rake)}"
        for k in reversed(range(len(stars))):  # side pots first, the main pot last
            for i, amount in sorted(shares[k].items()):
                if amount:
                    showdown.append(f"{names[i]} collected {money(amount)} from {labels[k]}")
                    won[i] = won.get(i, 0) + amount
        assert sum(won.values()) + rake == total, (won, rake, total)
    for street in range(5):
        if street > last_street:
            break
        out.append(STREET_HEADERS[street])
        out += table.lines[street]
    out += showdown
    out.append("*** SUMMARY ***")
    out.append(pot_text)
    for i in range(table.n):
        start = f"Seat {table.seats[i]}: {names[i]}"
        if i in table.folded:
            street = table.folded[i]
            tail = " (didn't bet)" if street == 0 and table.third_street_money[i] == 0 else ""
            out.append(f"{start} folded on the {SUMMARY_STREETS[street]}{tail}")
        elif len(live) == 1:
            out.append(f"{start} collected ({money(won[i])})")
        elif shown.get(i):
            result = f"won ({money(won[i])})" if won.get(i) else "lost"
            out.append(f"{start} showed [{' '.join(table.cards[i])}] and {result}{descriptions[i]}")
        else:
            out.append(f"{start} mucked")
    return "\n".join(out) + "\n"
