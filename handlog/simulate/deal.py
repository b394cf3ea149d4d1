"""One simulated hand, played on the rules engine's table.

A `Deal` deals real cards from a shuffled deck and plays a `Table` (`handlog.rules.engine`):
the table says who brings in, whose turn it is, what they owe, what a completion, bet or
raise may be (fixed limit's sizes, the range of spread, pot and no limit), whether the cap or
a short all-in closes the raising, when a street is over, what bet is uncalled, and the
pots; who wins each pot, and the odd chips, are `handlog.rules.awards.split_pot`'s. The deal
has no rule of its own: it chooses among the legal actions at random, weighted by a rough
strength of the player's cards and a style per player, and writes down what happened as the
hand's records (`Action`, `Dealt`, `Note`, `SeatResult`), which the site's printer writes.

A fault (`handlog.simulate.faults`) is the only thing that bends the hand: the deal calls
its hooks at the few places one may act (an ante, a card, the bring-in, the first actor, an
action, an uncalled bet, the awards) and lets it edit the records before they are printed.
Without one (`NO_FAULT`) every hook plays legally.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import TYPE_CHECKING

from handlog.cards import DECK, Card
from handlog.model import (
    Action,
    ActionKind,
    Dealt,
    Event,
    Hand,
    Note,
    NoteKind,
    Seat,
    SeatResult,
    Street,
)
from handlog.rules import evaluate
from handlog.rules.awards import split_pot
from handlog.rules.engine import Table
from handlog.rules.tables import after_rake, deck_runs_short, describe
from handlog.rules.variants import Lowball
from handlog.simulate.faults import Fault, Payout, Plan, Redeal
from handlog.simulate.options import MAX_SEATS, RAKE_CAP_BIG_BETS, RAKE_PERCENT

if TYPE_CHECKING:
    from handlog.simulate.session import Player, Simulator

FOLD_BY_STREET = {3: 0.85, 4: 1.0, 5: 1.1, 6: 0.9, 7: 0.8}
"""How readily a weak hand folds to a bet, by betting round (the first is "3"): weighted by
looseness and strength."""

STREETS = {int(street): street for street in Street}
"""Streets by number (0: the antes)."""

CHAT = (
    "gl",
    "nh",
    "ty",
    "vnh",
    "wp",
    "gg",
    "lol",
    "sick",
    "unreal",
    "ship it",
    "this.is.lucky",
    "LIMIT STUD",
    "every time",
    "?",
    "nice river",
    "how",
    "ok",
)


class Deal:
    """One hand: deal, bet, show down, award, and build its records (`self.hand`), which the
    site's printer writes (`self.text`).

    Players are indexed 0..n-1 in seat order (the players dealt in) for the choices; the
    table (`self.table`) knows them by name and decides every rule. `self.fault` may bend
    exactly one thing (`handlog.simulate.faults`)."""

    def __init__(self, sim: Simulator, hand_id: str, plan: Plan, fault: Fault) -> None:
        self.sim = sim
        self.rng = sim.rng
        self.random = sim.rng.random
        self.game = sim.game
        variant = self.variant = sim.variant
        self.first_street = int(variant.first_street)
        self.last_street = int(variant.last_street)
        self.low_only = not variant.high
        """A low game (razz, 2-7 razz, London lowball): the best low takes the pot."""
        self.split = variant.split
        """A hi/lo game: the pot is split between the best high and the best low."""
        self.rules = sim.rules
        self.exact = sim.rules.exact_sizes
        """Fixed limit: every bet and raise exactly a bet size (else a range: spread, pot, no)."""
        self.profile = sim.profile
        self.stakes = sim.stakes
        self.plan = plan
        self.fault = fault
        """The fault bent into this hand (`NO_FAULT`: none)."""
        self.applied = False
        """Whether the fault was bent in (a deal that cannot carry it is dealt again)."""
        self.hand_id = hand_id
        seated = sim.seated()
        self.all_seated = seated
        players = [(seat, p) for seat, p in seated if sim.dealt_in(p)]
        if len(players) < 2:
            raise AssertionError("fewer than two players dealt in")
        self.seat_numbers = [seat for seat, _ in players]
        self.players: list[Player] = [p for _, p in players]
        self.names = [p.name for p in self.players]
        self.index = {name: i for i, name in enumerate(self.names)}
        n = self.n = len(players)
        self.hero = next((i for i in range(n) if self.names[i] == sim.options.hero), -1)
        self.start = [p.stack for p in self.players]
        self.seat_index: dict[int, int] = {}
        self.seat_records: list[Seat] = []
        dealt_seats = set(self.seat_numbers)
        for seat, player in seated:
            sitting_out = seat not in dealt_seats or bool(player.sitting_out and sim.tournament)
            self.seat_index[seat] = len(self.seat_records)
            self.seat_records.append(Seat(seat, player.name, player.stack, sitting_out))
        stakes = self.stakes
        self.table = Table(
            sim.game,
            sim.structure,
            sim.profile,
            tuple(self.seat_records),
            stakes.small_bet,
            stakes.big_bet,
            stakes.ante,
        )
        """The rules engine's table the hand is played on."""
        self.third_money = [0] * n
        """Chips beyond the ante put in on the first street (a fold then is not "didn't bet")."""
        self.folded_on = [0] * n
        """The street each player folded on (0: still in)."""
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[Card]] = [[] for _ in range(n)]
        self.auto_fold = [sim.tournament and p.sitting_out > 0 for p in self.players]
        self.items: list[Event | Street] = []
        """The hand's events in order, with each street whose header stands there (the
        printer writes a header for it)."""
        self.street_of = STREETS[0]
        """The street the events now being added belong to."""
        self.street = 0
        """The street being played (0 while the antes are posted)."""
        self.results: list[SeatResult] = []
        self.ante_seen: int | None = None
        self.bring_in_seen: int | None = None
        self.pots_after_rake: list[int] = []
        self.community: Card | None = None
        self.burns = 0
        self.burned: list[Card] = []
        self.deck: list[Card] = []
        self.queues: dict[int, list[Card]] = {}
        self.final_stacks: dict[int, int] = {}
        self.leaving: list[int] = []
        self.joining: list[tuple[int, Player]] = []
        self.busted: list[int] = []
        self.sitting_out_next: int | None = None
        self.text = ""
        self.hand: Hand | None = None
        self.collected: dict[int, int] = {}
        """What each player collects, as the hand history says."""
        self.total = 0
        """The total pot as the summary prints it (a fault may misprint it)."""
        self.rake = 0
        """The rake as the summary prints it."""
        self.shown: dict[int, tuple[Card, ...]] = {}
        """Cards of the players at showdown, shown or mucked."""
        self.descriptions: dict[int, str] = {}
        """Hand descriptions of the players who showed."""
        self.showdown = False
        self.values: dict[int, tuple[int, int | None]] = {}
        self.strength_now = [-1.0] * n
        """Each player's `_strength` on this street (-1: not worked out yet)."""
        family, passive = plan.family_pot, plan.passive
        tied = plan.tie or ()
        self.fold_weight = [
            0.0 if family or i in tied else (1.0 - 0.7 * p.looseness) * (0.25 if passive else 1.0)
            for i, p in enumerate(self.players)
        ]
        """How readily each player folds a weak hand to a bet (0: never, in this hand)."""
        self.raise_weight = [p.aggression * (0.5 if family else 1.0) for p in self.players]
        self.bet_weight = [p.aggression * (0.3 if family else 1.0) for p in self.players]
        self.fold_street = 1.0
        self.forced_war = False
        """Raise at every turn (a fault that needs the cap reached)."""

    # -- the table, by index -------------------------------------------------------------

    def chips(self, player: int) -> int:
        """Chips behind."""
        return self.table.stack[self.names[player]]

    def on_street(self, player: int) -> int:
        """Chips put in on this street."""
        return self.table.street_put[self.names[player]]

    def is_all_in(self, player: int) -> bool:
        return self.names[player] in self.table.all_in

    @property
    def live(self) -> int:
        """Players still in the hand."""
        return self.n - sum(1 for street in self.folded_on if street)

    def able(self) -> list[int]:
        """Players still in and able to act (not all-in), in seat order."""
        able = self.table.able
        return [i for i in range(self.n) if self.names[i] in able]

    def in_hand(self) -> list[int]:
        folded_on = self.folded_on
        return [i for i in range(self.n) if not folded_on[i]]

    # -- records ---------------------------------------------------------------------------

    def add(self, kind: ActionKind, player: int, amount: int | None = None) -> None:
        """An action that puts nothing in (or, for returns and collects, `amount` out)."""
        self.items.append(Action(self.street_of, self.names[player], kind, amount))

    def record(
        self,
        kind: ActionKind,
        player: int,
        amount: int,
        raise_by: int | None = None,
        all_in: bool | None = None,
    ) -> None:
        """An action that put `amount` in (the table has moved the chips): with the player's
        street total after it (`raise_by` for a raise, the size over the bet it faced); all-in
        when the stack is empty, unless `all_in` says otherwise."""
        name = self.names[player]
        if self.street == self.first_street:
            self.third_money[player] += amount
        self.items.append(
            Action(
                self.street_of,
                name,
                kind,
                amount,
                None if kind is ActionKind.ANTE else self.table.street_put[name],
                (name in self.table.all_in) if all_in is None else all_in,
                raise_by=raise_by,
            )
        )

    def street_header(self, street: Street) -> None:
        """The events that follow belong to `street`, whose header stands here."""
        self.street_of = street
        self.items.append(street)
        self.table.next_street(street)

    def note(self, kind: NoteKind, player: int | None, text: str) -> None:
        self.items.append(
            Note(self.street_of, kind, None if player is None else self.names[player], text)
        )

    # -- moves -----------------------------------------------------------------------------

    def post_bring_in(self, player: int, amount: int) -> None:
        self.table.post_bring_in(self.names[player], amount)
        self.table.bring_in = self.bring_in_seen = amount
        self.record(ActionKind.BRING_IN, player, amount)

    def bet_to(self, player: int, target: int, least: int, all_in: bool | None = None) -> None:
        """A completion, bet or raise to the street total `target` (whichever the table says
        it is now); below `least`, the smallest full one, it is all-in for less, which counts
        and reopens the betting only as the table says (`Table.counts_as_bet`)."""
        table = self.table
        name = self.names[player]
        before = table.current_bet
        kind = table.bet_kind()
        put = target - table.street_put[name]
        counts = table.counts_as_bet(target, least, put >= table.stack[name])
        table.bet(name, target, put, counts)
        self.record(kind, player, put, None if before == 0 else target - before, all_in)
        if counts and table.bets == self.profile.cap_bets and table.cap_reached():
            self.note(NoteKind.BETTING_CAPPED, None, "Betting is capped")

    def call(self, player: int, amount: int, all_in: bool | None = None) -> None:
        self.table.call(self.names[player], amount)
        self.record(ActionKind.CALL, player, amount, all_in=all_in)

    def check(self, player: int) -> None:
        self.table.check(self.names[player])
        self.add(ActionKind.CHECK, player)

    def fold(self, player: int) -> None:
        if self.queues and self.queues.get(player):
            self.deck.extend(self.queues.pop(player))  # cards set aside for a tie go back
        self.folded_on[player] = self.street
        self.table.fold(self.names[player])
        self.add(ActionKind.FOLD, player)

    # -- the hand ------------------------------------------------------------------------

    def play(self) -> None:
        """Play the hand and build its records (`self.hand`) and text (`self.text`);
        `Redeal` if it cannot be played as planned."""
        self._new_deck()
        self._antes()
        for street in range(self.first_street, self.last_street + 1):
            if self.live < 2:
                break
            self.street = street
            self._deal(street)
            self._betting(street)
            self._return_uncalled()
        if self.live == 1:
            self._award_uncontested()
        else:
            self._showdown()
        self._finish()

    def _new_deck(self) -> None:
        """The deck: cards are drawn from it at random one at a time (as good as shuffling
        it, and only the cards dealt cost a random number)."""
        deck = list(DECK)
        tie = self.plan.tie
        if tie is None:
            self.deck = deck
            return
        # Two players with the same seven ranks in other suits: a tie unless someone beats
        # both (flushes aside: the deal is tried again if the suits break it).
        first, second = tie
        if max(first, second) >= self.n:
            raise Redeal
        rng = self.rng
        size = self.variant.cards
        for _ in range(50):
            rng.shuffle(deck)
            mine = deck[:size]
            ranks = Counter(card.rank for card in mine)
            if max(ranks.values()) > 2:
                continue
            rest = deck[size:]
            theirs = []
            for card in mine:
                match = next(c for c in rest if c.rank == card.rank)
                rest.remove(match)
                theirs.append(match)
            # Ace-to-five lows of the same ranks always tie; 2-7 and A-6 lows count flushes.
            if (
                self._low_rank(mine) == self._low_rank(theirs)
                if self.low_only
                else evaluate.high_rank(mine) == evaluate.high_rank(theirs)
            ):
                self.queues = {first: mine, second: theirs}
                self.deck = rest
                return
        raise Redeal

    def _low_rank(self, cards: list[Card]) -> int | None:
        """The game's low (its qualifier and lowball), by the replay's evaluator."""
        variant = self.variant
        return evaluate.low_rank(cards, variant.low_qualifier, variant.lowball)

    def draw(self, player: int = -1) -> Card:
        """The next card for `player` (a rigged one for the two tied players)."""
        if self.queues:
            queue = self.queues.get(player)
            if queue:
                return queue.pop(0)
        deck = self.deck
        if not deck:
            # Only with burns (and eight players): the burned cards, never seen, serve.
            if not self.burned:
                raise Redeal
            deck = self.deck = self.burned
            self.burned = []
        return deck.pop(int(self.random() * len(deck)))

    def _antes(self) -> None:
        """Everyone dealt in posts the ante (all-in for less if that is all they have)."""
        ante = self.stakes.ante
        skip = self.fault.skipped_ante(self)
        table = self.table
        for i in range(self.n):
            if i == skip:
                continue
            amount = min(ante, self.chips(i))
            table.post_ante(self.names[i], amount)
            self.record(ActionKind.ANTE, i, amount)
            if self.ante_seen is None or amount > self.ante_seen:
                self.ante_seen = amount

    # -- dealing -------------------------------------------------------------------------

    def _deal(self, street: int) -> None:
        """The street's header and cards: the down cards and the door card on the first
        street, then one each (face down on 7th, or one community card when the deck runs
        short: `tables.deck_runs_short`), and the dealing records: the hero sees all their
        cards, the others' up cards only."""
        items = self.items
        names = self.names
        live = self.in_hand()
        table = self.table
        if self.profile.burns:
            # A burn before each street (counted even when the deck is empty).
            self.burns += 1
            if self.deck:
                self.burned.append(self.draw())
        first = self.first_street
        face_up = self.variant.face_up[street - 1]
        if street == self.last_street and not face_up:
            folded_on = {i: STREETS[self.folded_on[i]] for i in range(self.n) if self.folded_on[i]}
            if deck_runs_short(
                range(self.n), folded_on, street, self.burns
            ) or self.fault.deals_community(self, live):
                self.community = self.draw()
                self.street_header(STREETS[street])
                table.community_card = self.community
                self.strength_now = [-1.0] * self.n
                return
        self.street_header(STREETS[street])
        street_of = self.street_of
        hero = self.hero
        if street == first:
            # The first deal: the down cards, then the door card (3rd street: two down and
            # one up; 2nd street in 5-card stud: one down, one up).
            for i in live:
                self.cards[i] = [self.draw(i) for _ in range(first)]
            self.fault.first_deal(self, live)
            for i in live:
                cards = self.cards[i]
                door = cards[-1]
                self.up[i] = [door]
                name = names[i]
                if name not in table.dealt_in:
                    table.deal_in(name)
                table.deal_door(name, door)
                if i == hero:
                    items.append(Dealt(street_of, name, (), tuple(cards)))
                else:
                    items.append(Dealt(street_of, name, (), (door,), 0, first - 1))
            return
        self.fault.before_deal(self, street, live, face_up)
        for i in live:
            card = self.fault.card_for(self, i)
            cards = self.cards[i]
            old = tuple(cards) if i == hero else tuple(self.up[i])
            cards.append(card)
            if face_up:
                self.up[i].append(card)
                table.deal_up(names[i], street - 1, card)
            elif i != hero:
                continue
            self.fault.dealing_line(self, i)
            items.append(Dealt(street_of, names[i], old, (card,)))
        self.strength_now = [-1.0] * self.n
        if table.double_bet_allowed():
            self.note(NoteKind.DOUBLE_BET_ALLOWED, None, "Pair on board - a double bet is allowed")

    # -- betting -------------------------------------------------------------------------

    def _betting(self, street: int) -> None:
        """One betting round on the table: the bring-in (the first street) or the best
        showing hand opens, then whoever the table says is to act, until nobody owes
        anything or one player is left."""
        table = self.table
        if not table.waiting():
            return  # fewer than two players can act
        # By betting round (5-card stud's 2nd street is the first, as 3rd in 7-card games).
        self.fold_street = FOLD_BY_STREET[street - self.first_street + 3]
        table.open_round()
        self.forced_war = self.fault.forces_raises(self, street)
        if street == self.first_street:
            self._bring_in()
        else:
            first = table.to_act()
            assert first is not None
            self._act(self.fault.first_actor(self, street, self.index[first]))
        while self.live > 1:
            name = table.to_act()
            if name is None:
                break
            self._act(self.index[name])

    def _bring_in(self) -> None:
        """The player the table names brings in, or completes."""
        stakes = self.stakes
        table = self.table
        name = table.bring_in_player()
        assert name is not None
        player = self.index[name]
        if self.is_all_in(player):
            raise Redeal  # who brings in for a player all-in on the ante is not settled
        player = self.fault.bring_in_player(self, player)
        stack = self.chips(player)
        if self.fault.brings_in(self, player):
            pass
        elif (
            stack > stakes.small_bet
            and not self.auto_fold[player]
            and (self.forced_war or self.rng.random() < 0.25 * self._strength(player) ** 2)
        ):
            if self.exact:
                self.bet_to(player, stakes.small_bet, stakes.small_bet)
            else:
                self._sized_raise(player, self.forced_war)  # opens for any legal amount
        else:
            self.post_bring_in(player, min(stakes.bring_in, stack))
        table.acted(self.names[player])

    def _act(self, player: int) -> None:
        """One action by the player whose turn it is: the fault if it is due here, else a
        legal action chosen at random by strength and style."""
        table = self.table
        name = self.names[player]
        owed = table.owed(name)
        may_raise = self.fault.allows_raise(self) and table.may_raise(name)
        if not self.fault.act(self, player, owed, may_raise):
            self._choose(player, owed, may_raise)
        table.acted(name)

    def _choose(self, player: int, owed: int, may_raise: bool) -> None:
        if self.forced_war and may_raise:
            self.raise_bet(player, prefer_big=True)
            return
        # A plausible action, weighted by a rough strength and the player's style.
        if self.auto_fold[player]:
            if owed > 0:
                self.fold(player)
            else:
                self.check(player)
            return
        strength = self.strength_now[player]
        if strength < 0:
            strength = self._strength(player)
        roll = self.random()
        if owed > 0:
            fold = self.fold_weight[player] * (1.0 - strength) * self.fold_street
            if owed > self.table.bet_size():
                fold *= 1.4
            if roll < fold:
                self.fold(player)
            elif may_raise and roll < fold + self.raise_weight[player] * strength * (
                1.3 * strength + 0.1
            ):
                self.raise_bet(player)
            elif may_raise and self._completes_short(player):
                self.raise_bet(player)  # all in: the house's completion over it may follow
            elif may_raise and self.table.completes_over_short() and self.random() < 0.5:
                self.raise_bet(player)  # the house's completion (and raise) over it
            else:
                self.call(player, min(owed, self.chips(player)))
        elif may_raise and roll < self.bet_weight[player] * (0.3 + 1.2 * strength):
            self.raise_bet(player)
        else:
            self.check(player)

    def _completes_short(self, player: int) -> bool:
        """Where the house lets the next player complete and raise over an all-in completion
        short of the small bet (`Simulator.completes_over_short`): whether `player`, who
        would call the bring-in, has too little to complete in full (and goes all-in)."""
        table = self.table
        return (
            self.sim.completes_over_short
            and table.bet_kind() is ActionKind.COMPLETE
            and not table.completed
            and self.on_street(player) + self.chips(player) < self.stakes.small_bet
        )

    def _strength(self, player: int) -> float:
        """A rough 0..1 strength of the player's own cards, for choosing actions (not a
        rule: the rules use `evaluate`). Only the ranks count."""
        cards = self.cards[player]
        if self.community is not None:
            cards = [*cards, self.community]
        strength = rank_strength(
            tuple(sorted([card.rank for card in cards])),
            self.low_only,
            self.split,
            self.variant.lowball is not Lowball.DEUCE_TO_SEVEN,
        )
        self.strength_now[player] = strength
        return strength

    def _sized_raise(self, player: int, prefer_least: bool) -> None:
        """A completion, bet or raise in spread, pot or no limit: the least, a pot-sized one
        (the top of the spread, the pot limit), an amount in between, or all-in (for less
        than the least when that is all the player has: it reopens nothing)."""
        table = self.table
        least, most = table.raise_range(self.names[player])
        already = self.on_street(player)
        everything = already + self.chips(player)
        if prefer_least:
            target = least
        else:
            rng = self.rng
            pot_size = table.pot_sized(self.names[player])
            roll = rng.random()
            if roll < 0.45:
                target = least
            elif roll < 0.7:
                target = pot_size if most is None else most
            elif roll < 0.88:
                high = most if most is not None else 2 * pot_size
                target = rng.randint(least, max(least, high))
            else:
                target = everything
            if most is not None:
                target = min(target, most)
            target = max(target, least)
        self.bet_to(player, min(target, everything), least)

    def raise_bet(self, player: int, prefer_big: bool = False) -> None:
        """A completion, bet or raise to a size the limit allows, or all-in for less."""
        if not self.exact:
            self._sized_raise(player, prefer_big)
            return
        targets = self.table.targets()
        rng = self.rng
        if not prefer_big and self.table.completes_over_short():
            # The house's completion over a short all-in one (`Table.completes_over_short`):
            # the completion alone, or with the house's raise or a full one at once.
            target = rng.choice(targets)
        elif len(targets) > 1 and (prefer_big or self.table.big_bet_made or rng.random() < 0.6):
            target = targets[-1]
        else:
            target = targets[0]
        already = self.on_street(player)
        stack = self.chips(player)
        if target - already > stack:
            # Not enough for the chosen size: at times all-in for less than it when more than
            # a smaller size (the open pair's big bet: table stakes allow it), else the
            # smallest full size, or all-in for less.
            if target != targets[0] and targets[0] - already < stack and rng.random() < 0.5:
                target = already + stack
            else:
                target = targets[0]
                if target - already > stack:
                    target = already + stack
        self.bet_to(player, target, targets[0])

    def _return_uncalled(self) -> None:
        """The part of the biggest bet on this street that nobody matched goes back
        (`Table.uncalled`)."""
        name, due = self.table.uncalled()
        if name is None or due <= 0:
            return
        top = self.index[name]
        returned = self.fault.returned(self, due)
        self.add(ActionKind.UNCALLED_BET_RETURNED, top, returned)
        self.table.return_uncalled(name, returned)

    # -- pots and awards -----------------------------------------------------------------

    def _rake(self, total: int) -> int:
        if self.sim.tournament or self.street == self.first_street:
            return 0
        return min(total * RAKE_PERCENT // 100, RAKE_CAP_BIG_BETS * self.stakes.big_bet)

    def _award_uncontested(self) -> None:
        """Everyone else folded: the last player collects the pot without a showdown."""
        winner = self.in_hand()[0]
        total = sum(self.table.put_in.values())
        rake = self._rake(total)
        amount = total - rake
        collector = self.fault.collector(self, winner)
        self.add(ActionKind.COLLECT, collector, amount)
        self.table.collect(self.names[collector], amount)
        if self.rng.random() < 0.3:
            self.add(ActionKind.DOES_NOT_SHOW, winner)
        self.collected = {collector: amount}
        self.total = total
        self.rake = rake
        self.pots_after_rake = [amount]

    def pots(self) -> list[tuple[int, list[int]]]:
        """The table's main and side pots (`Table.pots`), with each pot's eligible players
        by index."""
        index = self.index
        return [(pot.amount, [index[name] for name in pot.eligible]) for pot in self.table.pots()]

    def hand_cards(self, player: int) -> list[Card]:
        cards = self.cards[player]
        if self.community is not None:
            return [*cards, self.community]
        return cards

    def hand_values(self, player: int) -> tuple[int, int | None]:
        """(`high_rank`, `low_rank`) of a player's showdown hand, as the game compares them
        (its qualifier and lowball; a low None if none qualifies, or in a high-only game; the
        high 0 in a low game); worked out once a hand."""
        found = self.values.get(player)
        if found is None:
            cards = self.hand_cards(player)
            variant = self.variant
            found = (
                evaluate.high_rank(cards) if variant.high else 0,
                self._low_rank(cards) if variant.low else None,
            )
            self.values[player] = found
        return found

    def _split(
        self, amount: int, eligible: list[int], shown: set[int]
    ) -> tuple[dict[int, int], list[int], list[int], bool]:
        """(shares, high winners, low winners, whether a low qualified) of one pot, by
        `awards.split_pot` among the eligible players who show."""
        contenders = eligible if len(eligible) == 1 else [i for i in eligible if i in shown]
        if len(contenders) == 1:
            return {contenders[0]: amount}, contenders, [], False
        # Keyed by index, which is seat order (clockwise, for the odd chip).
        hands = {i: self.hand_cards(i) for i in contenders}
        shares, high_winners, low_winners = split_pot(
            amount, contenders, hands, self.game, self.profile
        )
        return shares, high_winners, low_winners, bool(low_winners)

    def _showdown(self) -> None:
        """Pots from contributions, rake from the main pot, the winners of each pot (or half)
        by the cards, shows and mucks, collects, and the pots."""
        rng = self.rng
        names = self.names
        contenders = self.in_hand()
        total = sum(self.table.put_in.values())
        rake = self._rake(total)
        pots = self.pots()
        after = after_rake([amount for amount, _ in pots], rake)  # as the replay takes it
        everyone = set(contenders)
        winners_full: set[int] = set()
        for (_, eligible), amount in zip(pots, after, strict=True):
            full_shares = self._split(amount, eligible, everyone)[0]
            winners_full.update(i for i, v in full_shares.items() if v)
        must_show = self.fault.must_show
        # The player called (`Table.shows_first`) shows first and the others in turn
        # (`Table.show_order`); winners and all-in players show; the others show or muck.
        position = self.index
        order = [position[name] for name in self.table.show_order()]
        start = order[0]
        shown = {
            i
            for i in contenders
            if i == start
            or i in winners_full
            or self.is_all_in(i)
            or must_show
            or rng.random() < 0.45
        }
        results = [
            self._split(amount, eligible, shown)
            for (_, eligible), amount in zip(pots, after, strict=True)
        ]
        shares = [dict(result[0]) for result in results]
        self.fault.awards(self, Payout(pots, shares, shown, results))
        self.street_header(Street.SHOWDOWN)
        items = self.items
        descriptions: dict[int, str] = {}
        for i in order:
            if i in shown:
                words = self.fault.describe_hand(
                    self, i, describe(tuple(self.hand_cards(i)), self.game)
                )
                descriptions[i] = words
                items.append(
                    Action(
                        Street.SHOWDOWN,
                        names[i],
                        ActionKind.SHOW,
                        cards=tuple(self.cards[i]),
                        description=words,
                    )
                )
            else:
                self.add(ActionKind.MUCK, i)
        collected: dict[int, int] = {}
        several = len(pots) > 1
        for index in reversed(range(len(pots))):
            for i, amount in sorted(shares[index].items()):
                if amount:
                    items.append(
                        Action(
                            Street.SHOWDOWN,
                            names[i],
                            ActionKind.COLLECT,
                            amount,
                            pot=index if several else None,
                        )
                    )
                    collected[i] = collected.get(i, 0) + amount
                    self.table.collect(names[i], amount)
        qualifier = self.variant.low_qualifier
        if self.split and qualifier is not None and not any(result[3] for result in results):
            self.note(NoteKind.NO_LOW_HAND, None, "No low hand qualified")
        if self.sim.tournament:
            for i in order:
                if self.chips(i) + collected.get(i, 0) == 0:
                    place = self.sim.entrants - len(self.busted)
                    self.note(
                        NoteKind.FINISHED_TOURNAMENT,
                        i,
                        f"{names[i]} finished the tournament in {ordinal(place)} place",
                    )
                    self.busted.append(self.seat_numbers[i])
        self.collected = collected
        self.total = total
        self.rake = rake
        self.pots_after_rake = after
        self.shown = {i: tuple(self.cards[i]) for i in contenders}
        self.descriptions = descriptions
        self.showdown = True

    # -- finishing -----------------------------------------------------------------------

    def _finish(self) -> None:
        """The fault's edits of the records, noise, the summary, the records, the text and
        final stacks."""
        if not self.fault.edit(self):
            self.applied = False  # the records cannot carry it: dealt again
            return
        names = self.names
        rng = self.rng
        # Noise: chat, connections, joins and leaves, now and then.
        if rng.random() < 0.12:
            self._noise()
        collected = self.collected
        results = self.results
        for i in range(self.n):
            seat = self.seat_numbers[i]
            street = self.folded_on[i]
            if street:
                did_not_bet = street == self.first_street and self.third_money[i] == 0
                results.append(
                    SeatResult(seat, names[i], folded_on=STREETS[street], did_not_bet=did_not_bet)
                )
            elif not self.showdown:
                won = sum(collected.values())
                results.append(SeatResult(seat, names[i], won=won, collected_without_showdown=True))
            elif i in self.descriptions:
                won = collected.get(i, 0)
                results.append(
                    SeatResult(
                        seat,
                        names[i],
                        showed=self.shown[i],
                        won=won or None,
                        lost=not won,
                        description=self.descriptions[i],
                    )
                )
            else:
                results.append(SeatResult(seat, names[i], mucked=self.shown[i]))
        hand = self.hand = self.sim.build_hand(self, self.total, self.rake)
        self.text = self.sim.print_hand(hand)
        put_in = self.table.put_in
        final = {}
        for i in range(self.n):
            final[self.seat_numbers[i]] = self.start[i] - put_in[names[i]] + collected.get(i, 0)
        self.final_stacks = final

    def _noise(self) -> None:
        """One line that is not play: chat, a connection, someone joining or leaving."""
        rng = self.rng
        items = self.items
        sim = self.sim
        # Positions as lines of the hand's text: the header, the table and the seat lines
        # stand before the events, a street header before each street's.
        before = 2 + len(self.all_seated)
        first = before + items.index(STREETS[self.first_street])
        lines = before + len(items)
        position = rng.randrange(first + 1, lines + 1)
        names = self.names
        roll = rng.random()
        who = rng.randrange(self.n)
        kind = NoteKind.CHAT
        if roll < 0.45 or 0.6 <= roll < 0.7:  # chat (two bands: as the lines always came)
            text = rng.choice(CHAT)
        elif roll < 0.6:
            kind = NoteKind.DISCONNECTED
            text = f"{names[who]} is disconnected"
            if rng.random() < 0.7:
                self._insert(position - before, NoteKind.DISCONNECTED, who, text)
                lines += 1
                position = rng.randrange(position + 1, lines + 1)
                kind = NoteKind.CONNECTED
                text = f"{names[who]} is connected"
        elif roll < 0.85 and not sim.tournament:
            empty = [s for s in range(1, MAX_SEATS + 1) if s not in sim.seats]
            if not empty or len(sim.seats) >= sim.options.players:
                return
            seat = rng.choice(empty)
            taken = {p.name for p in sim.seats.values()} | {p.name for _, p in sim.joining}
            joiner = sim.new_player(taken)
            self.joining.append((seat, joiner))
            kind = NoteKind.JOINS
            text = f"{joiner.name} joins the table at seat #{seat}"
            self._insert(position - before, kind, None, text, joiner.name)
            return
        else:
            # A player who is out of the hand leaves or sits out (never the hero).
            out = [
                i
                for i in range(self.n)
                if i != self.hero and (self.folded_on[i] or not self.showdown)
            ]
            if not out:
                return
            who = rng.choice(out)
            seat = self.seat_numbers[who]
            if rng.random() < 0.5 and len(sim.seats) > 2 and not sim.tournament:
                self.leaving.append(seat)
                kind = NoteKind.LEAVES
                text = f"{names[who]} leaves the table"
            else:
                self.sitting_out_next = seat
                kind = NoteKind.SITTING_OUT
                text = f"{names[who]} is sitting out"
            position = lines
        self._insert(position - before, kind, who, text)

    def _insert(
        self, index: int, kind: NoteKind, player: int | None, text: str, name: str | None = None
    ) -> None:
        """A note at `index` of the events, on the street whose header stands before it."""
        items = self.items
        street = next(
            (item for item in reversed(items[:index]) if type(item) is Street), Street.ANTES
        )
        if player is not None:
            name = self.names[player]
        items.insert(index, Note(street, kind, name, text))  # type: ignore[arg-type]


@cache
def rank_strength(ranks: tuple[int, ...], razz: bool, hilo: bool, ace_low: bool = True) -> float:
    """How good sorted ranks (2..14) look to a player: pairs, trips, straights for high;
    few distinct cards of 8 or lower for low (razz; aces high in 2-7 razz), the better of
    both in hi/lo. (Some tens of thousands of rank multisets a game: cached.)"""
    high = 0.0
    low = 0.0
    if not razz:
        counts = sorted((ranks.count(rank), rank) for rank in set(ranks))
        most, best = counts[-1]
        pairs = sum(1 for count, _ in counts if count >= 2)
        if most >= 4:
            high = 1.0
        elif most == 3:
            high = 0.95 if pairs >= 2 else 0.75
        elif pairs >= 2:
            high = 0.5 + best / 100
        elif pairs == 1:
            high = 0.3 + best / 60
        else:
            high = 0.05 + ranks[-1] / 60
        distinct = sorted(set(ranks))
        if len(distinct) >= 5 and any(
            distinct[i + 4] - distinct[i] == 4 for i in range(len(distinct) - 4)
        ):
            high = max(high, 0.85)
    if razz or hilo:
        lows = sorted({1 if rank == 14 and ace_low else rank for rank in ranks})
        useful = [rank for rank in lows if rank <= 8]
        need = min(5, len(ranks))
        if len(useful) >= need:
            low = min(1.0, (14 - useful[need - 1]) / 13 * (0.8 + 0.07 * need))
        else:
            low = len(useful) / (need * 3)
    return max(high, low)


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
