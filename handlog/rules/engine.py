"""The rules engine: one stud hand's table as a state machine.

A `Table` holds what the rules need while a hand is played — each player's chips (behind, in
the pot, on this street), who is dealt in, folded or all-in, the up cards, the street, the
bet to match, the number of bets towards the cap, who has still to act — and answers both
questions a poker state machine answers (as pokerkit's state does): what may be done now
(`to_act`, `owed`, `may_raise`, `targets`, `raise_range`, `options`: whose turn, what they
owe, what they may bet or raise to) and what happens when it is done (`post_ante`,
`deal_door`, `deal_up`, `post_bring_in`, `call`, `check`, `fold`, `bet`,
`return_uncalled`, `next_street`, `collect`).

Each rule is written once, in one function (a method here, or a function of
`handlog.rules.tables`, `structures`, `awards`, `evaluate`, or a field or method of the
house's `RuleProfile` or the game's `Variant`), which the replay, the simulator and the
observers all reach through the table:

- the game's streets, up cards, bet sizes by street: `variants.VARIANTS` (a `Variant`);
- the ante: `Table.post_ante` (the replay's `_check_antes` compares it with the hand's);
- who brings in: `Table.bring_in_player` (`tables.bring_in_index` over
  `tables.BRING_IN_VALUES`, from `evaluate.bring_in_key`); the bring-in's amount:
  `RuleProfile.bring_in_for`;
- the completion and bet/raise sizes: `Table.bet_kind` (completion, bet or raise),
  `Table.bet_size` (the street's bet), fixed limit's `tables.fixed_sizes` (`Table.targets`;
  the open pair's double bet `tables.open_pair_round` and `Table.double_bet_allowed`, the
  house's own first raise `RuleProfile.house_raise`, the house's completion and raise at
  once over a short all-in completion `Table.completes_over_short`,
  `Table.completion_targets`, counting two bets `Table.bets_counted`); spread, pot and no limit's
  `structures.raise_range` (`Table.raise_range`), its least bet `structures.smallest_bet`
  and full step `structures.full_step`, pot limit's most `structures.pot_sized`
  (`Table.pot_sized`);
- the cap: `tables.cap_allows` (`Table.cap_allows`, `structures.capped`);
- a full bet or a short all-in: `tables.counts_as_bet` (fixed limit's half-bet rule
  `tables.reopens`); reopening the betting: `Table.betting_closed` (a player who acted —
  checked, called, brought in — and faces less than a full bet or raise from short all-ins,
  however many, may only call or fold);
- who acts first on a later street: `Table.first_actor` (`tables.best_showing` over
  `tables.ShowingKeys`, the house's ties `RuleProfile.first_actor_tie` and
  `razz_lower_suit_first` by `tables.showing_keys`; an all-in player passes it on);
- turn order: `tables.next_clockwise` (`Table.next_after`, `Table.to_act`, `Table.turn`);
- the call amount: `Table.owed` (`Options.call`: all-in for less when short);
- the round's end: `Table.waiting`;
- the uncalled bet: `tables.uncalled_due` (`Table.uncalled`);
- side pots: `tables.build_pots` (`Table.pots`);
- who wins each pot and half: `awards.split_pot` (cards speak: `evaluate.high_rank`,
  `evaluate.low_rank`); low qualification: `evaluate.low_rank` with `Variant.low_qualifier`;
- what the winners get: `tables.award` (the replay's awards, the fast path, the simulator and
  the equity calculator pay through it): the part of a pot the high and the low win,
  `tables.pot_parts` (the low games all low; no qualifying low, all high; else the hi/lo halves
  and their odd chip, `tables.hi_lo_halves`, `RuleProfile.odd_chip_to_high`); ties and the
  odd chip among them: `tables.divide` (`RuleProfile.odd_chip_tie`), which reads the winners'
  cards only when `tables.divide_reads_cards`;
- the rake: `tables.after_rake` (`awards.pots_after_rake`, `RuleProfile.rake_before_split`);
- the community card: `tables.deck_runs_short` (`RuleProfile.burns`);
- who shows first at a showdown, and the order after: `Table.shows_first`, `Table.show_order`
  (the simulator's; the replay does not judge the order in which a history shows hands);
- a showdown hand's description: `tables.describe`.

The fast path (`handlog.rules.fast`) calls the same functions on its compact state; what it
keeps of its own (the round's end, `fast._clean_round_closed`; ranking a showdown's hands
once for every pot, `fast._clean_awards`, ties left to `awards`) is proven equal to the
engine by tests/test_replay.py.

The replay (`handlog.rules.replay`) drives a table from a hand's lines: it asks what the
rules allow, flags what the history does otherwise, and then applies what the history says
happened, legal or not (the transitions never refuse). The simulator (`handlog.simulate`)
plays a table by asking for the legal actions. Observers (the trace, the evidence of a flag)
read its state as the hand goes. Players are keyed by name, as the hand's records name them.

This module is compiled with mypyc by the real install (`handlog._native`): its annotations
are exact and its classes are not patched.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass

from handlog.cards import Card
from handlog.holdings import FACE_UP, FIRST_STREET
from handlog.model import ActionKind, Game, Seat, Street, Structure
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.structures import (
    STRUCTURES,
    Ceiling,
    capped,
    full_step,
    pot_sized,
    raise_range,
    smallest_bet,
)
from handlog.rules.tables import (
    BIG_BET_STREETS,
    BRING_IN_VALUES,
    LAST_STREET,
    UP_CARDS_BEFORE,
    Pot,
    best_showing,
    bring_in_index,
    build_pots,
    cap_allows,
    counts_as_bet,
    fixed_sizes,
    has_pair,
    lineup,
    next_clockwise,
    open_pair_round,
    reopens,
    showing_keys,
    uncalled_due,
)
from handlog.rules.variants import VARIANTS

_SEVENTH = Street.SEVENTH


@dataclass(frozen=True, slots=True)
class Options:
    """What the player whose turn it is may do now (`Table.options`)."""

    player: str
    owed: int
    """Chips to put in to call (0: a check is possible)."""
    call: int
    """What a call puts in: what is owed, or the whole stack when it is less (all-in)."""
    stack: int
    """Chips behind."""
    opens: bool
    """The first action of the first street: the bring-in (`bring_in`) or a completion."""
    bring_in: int
    """The bring-in the player may post when `opens` (the stakes', or the stack when less)."""
    may_raise: bool
    """A bet, completion or raise is allowed: chips beyond the call, the cap not reached,
    the betting open to this player (not closed by a short all-in)."""
    kind: ActionKind
    """The kind a bet or raise would be: COMPLETE, BET or RAISE."""
    targets: tuple[int, ...]
    """Fixed limit: the street totals a full completion, bet or raise may go to (the smallest
    first); less is possible only all-in."""
    least: int
    """The least street total a full bet or raise may go to (fixed limit: `targets[0]`)."""
    most: int | None
    """The most (fixed limit: `targets[-1]`; None in no limit: the stack)."""


class Table:
    """One hand's table: its state, what the rules allow in it, and the moves that change it.

    Every field is public for observers to read; only the methods change it."""

    def __init__(
        self,
        game: Game,
        structure: Structure,
        profile: RuleProfile,
        seats: tuple[Seat, ...],
        small_bet: int,
        big_bet: int,
        ante: int = 0,
        bring_in: int | None = None,
        community_card: Card | None = None,
    ) -> None:
        self.game = game
        variant = VARIANTS[game]
        self.profile = profile
        self.structure = STRUCTURES[structure]
        self.exact_sizes = self.structure.exact_sizes
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.ante = ante
        self.bring_in = bring_in
        """The hand's bring-in as posted (the house's first raise may be by it)."""
        self.community_card = community_card
        """The card dealt face up to everyone on 7th street when the deck runs short."""
        self.first_street = FIRST_STREET[game]
        self.last_street = LAST_STREET[game]
        self.big_bet_streets = BIG_BET_STREETS[game]
        self.face_up = FACE_UP[game]
        self.up_cards_before = UP_CARDS_BEFORE[game]
        self.up_dealt_by = [sum(self.face_up[:street]) for street in range(len(self.face_up) + 1)]
        """Up cards dealt to each player by the street numbered n (`up_cards_known`)."""
        self.open_pair_street = variant.open_pair_street
        self.showing = showing_keys(game, profile)
        self.at_least_last = (
            profile.spread_raise_at_least_last or self.structure.ceiling is not Ceiling.SPREAD
        )
        """A raise must be at least the street's last full bet or raise (spread limit: where
        the profile says so)."""
        seat_order = lineup(seats)
        order = self.order = seat_order.order
        """Names in seat order."""
        self.seat_index = seat_order.seat_index
        self.seat_bits = seat_order.seat_bits
        """Each player's seat positions as a bitmask (`tables.next_clockwise`)."""
        self.stack = {seat.name: seat.stack for seat in seats}
        """Chips behind, by player."""
        self.put_in = dict.fromkeys(order, 0)
        """Chips in the pot (antes included, uncalled bets returned taken off)."""
        self.collected = dict.fromkeys(order, 0)
        self.folded: set[str] = set()
        self.all_in: set[str] = set()
        self.dealt_in: list[str] = []
        """Players dealt in, in seat order."""
        self.dealt_set: set[str] = set()
        """The same players, as a set (whether a player is dealt in, without a walk)."""
        self.able: set[str] = set()
        """Dealt in, not folded, not all-in: the players who can still act."""
        self.up_cards: dict[str, list[Card]] = {name: [] for name in order}
        self.door: dict[str, Card] = {}
        self.showing_by_player: dict[str, tuple[object, ...]] = {}
        """Showing-hand key of each player's up cards, dropped when they change."""
        self.streets_dealt: list[Street] = []
        # the betting round
        self.street = Street.ANTES
        self.street_put = dict.fromkeys(order, 0)
        """Chips put in on this betting street (antes not counted)."""
        self.current_bet = 0
        """The most anyone has put in on this street: the bet to match."""
        self.bets = 0
        """Bets and raises counted towards the cap (a completion is the first)."""
        self.last_raise = 0
        """The size of the street's last full bet or raise (0 before any)."""
        self.big_bet_made = False
        self.double_bet = False
        """An open pair on the second betting round allows the big bet."""
        self.completed = False
        """A completion, bet or raise was made on the first street (later ones are raises)."""
        self.pending: set[str] = set()
        """Players who must still act before the round is complete."""
        self.acted_on: dict[str, int] = {}
        """The bet to match when each player last acted on this street since its last full
        bet or raise (the bring-in, a check, a call, a short all-in): what a short all-in
        raised since is what they face (`betting_closed`). A full bet or raise starts it
        again with its maker alone."""
        self.last_actor: str | None = None
        """The last player who acted in turn on this street."""
        self.aggressor: str | None = None
        self.round_open = False
        """The street's betting started (its first betting action)."""
        self.started_with = 0
        """Players able to act when the round opened (the cap may be lifted heads-up)."""
        self.expected_first: str | None = None
        """Who must open the round (None: unknown, when the cards that decide are not
        printed)."""
        self.returned = False
        """This street's uncalled bet was returned (or found missing)."""
        self.hand_over = False
        """Only one player is left in the hand."""
        self.moves = 0
        """How many moves changed the seats (chips behind, in the pot, on this street or
        collected; dealt in, folded, all-in): while it stays the same, so do they (the trace
        copies them only when it changed)."""

    # -- who is in -----------------------------------------------------------------------

    def active(self) -> list[str]:
        """Players still in the hand and able to act, in seat order."""
        able = self.able
        return [p for p in self.dealt_in if p in able]

    def in_hand(self) -> list[str]:
        """Players dealt in who have not folded, in seat order."""
        folded = self.folded
        return [p for p in self.dealt_in if p not in folded]

    def players_left(self) -> int:
        """Players in the hand (every fold is by a player dealt in)."""
        return len(self.dealt_in) - len(self.folded)

    def status(self, player: str) -> str:
        """ "in", "all-in", "folded", or "out" (never dealt in)."""
        if player not in self.dealt_set:
            return "out"
        if player in self.folded:
            return "folded"
        if player in self.all_in:
            return "all-in"
        return "in"

    # -- rules ---------------------------------------------------------------------------

    def bet_size(self) -> int:
        """The street's bet: the small bet on the early streets, the big bet on the others."""
        return self.big_bet if self.street in self.big_bet_streets else self.small_bet

    def bring_in_player(self) -> str | None:
        """Who must bring in: the lowest door card (the highest in the razz games), suits
        breaking ties (`evaluate.bring_in_key`); None when someone's door card is not known
        (then anyone may: the replay judges only what the hand history shows)."""
        door = self.door
        values = BRING_IN_VALUES[self.game]
        dealt_in = self.dealt_in
        index = bring_in_index([values[door[p]] if p in door else -1 for p in dealt_in])
        return dealt_in[index] if index >= 0 else None

    def up_cards_known(self) -> bool:
        """Whether every player still in shows all the up cards dealt by this street: a site
        that prints only the player's own cards leaves the first actor and the open pair
        unknown. (A betting street's value is the number of cards dealt by then.)"""
        by = self.up_dealt_by
        street = int(self.street)
        dealt = by[street] if street < len(by) else by[-1]
        up_cards, folded = self.up_cards, self.folded
        return all(len(up_cards[p]) >= dealt for p in self.dealt_in if p not in folded)

    def first_actor(self) -> str | None:
        """Who acts first on a later street: the best showing hand (with the community card
        on 7th street), equal hands by the profile's tie-break (the suit of the top card, or
        the lowest seat); an all-in player passes it to the next clockwise. None when some
        player's up cards are not known."""
        if not self.up_cards_known():
            return None
        community = self.community_card
        with_community = self.street == _SEVENTH and community is not None
        cached = self.showing_by_player
        folded = self.folded
        players: list[str] = []
        keys: list[tuple[object, ...]] = []
        for p in self.dealt_in:
            if p in folded:
                continue
            ups = self.up_cards[p]
            if not ups:
                continue
            if with_community:
                key = self.showing.key([*ups, community])  # type: ignore[list-item]
            else:
                found = cached.get(p)
                if found is None:
                    found = cached[p] = self.showing.key(ups)
                key = found
            players.append(p)
            keys.append(key)
        index = best_showing(keys, self.profile.first_actor_tie is TieBreak.CLOCKWISE)
        if index < 0:
            return None
        best = players[index]
        if best in self.all_in:  # an all-in player cannot act: the next one clockwise does
            best = self.next_after(best) or best
        return best

    def opener(self) -> str | None:
        """Who must open this street's betting: the bring-in on the first street, the best
        showing hand on the others."""
        if self.street == self.first_street:
            return self.bring_in_player()
        return self.first_actor()

    def shows_first(self) -> str | None:
        """Who shows first at a showdown: the player called, the last to complete, bet or raise
        on the last street (if still in); with no bet on it, the first player still in, in
        seat order. What PokerStars prints: the last aggressor shows first in each of the
        corpus's 16 PokerStars showdowns with a bet on the last street, the lowest seat still in
        in each of the 6 without. (Other sites print some showdowns in another order; no rule
        of theirs is broken by it, and the replay does not judge the order.) None when nobody
        is in."""
        aggressor = self.aggressor
        if (
            aggressor is not None
            and self.street >= self.last_street
            and aggressor not in self.folded
        ):
            return aggressor
        in_hand = self.in_hand()
        return in_hand[0] if in_hand else None

    def show_order(self) -> list[str]:
        """The players still in, in the order they show (or muck) at a showdown: clockwise
        from `shows_first`."""
        first = self.shows_first()
        if first is None:
            return []
        seat_index = self.seat_index
        start = seat_index[first]
        seats = len(self.order)
        return sorted(self.in_hand(), key=lambda p: (seat_index[p] - start) % seats)

    def double_bet_allowed(self) -> bool:
        """The open pair: on the second betting round of fixed limit, where the profile
        allows the double bet in the game, a pair showing in anyone's up cards allows the
        big bet (and so does a player's up cards not being printed: a pair cannot be
        ruled out)."""
        return open_pair_round(self.street, self.game, self.exact_sizes, self.profile) and (
            any(has_pair(self.up_cards[p]) for p in self.in_hand()) or not self.up_cards_known()
        )

    def next_after(self, player: str) -> str | None:
        """The next player clockwise from `player` who still has to act this round."""
        return self.next_of(player, self.pending)

    def next_of(self, player: str, players: set[str]) -> str | None:
        """The first of `players` clockwise from `player` (`player` last): the turn order,
        `tables.next_clockwise`."""
        bits = self.seat_bits
        group = 0
        for name in players:
            group |= bits.get(name, 0)
        index = next_clockwise(group, self.seat_index[player])
        return self.order[index] if index >= 0 else None

    def to_act(self) -> str | None:
        """Whose turn it is in the round: the opener until someone acts in turn, then the
        next clockwise still to act; None when nobody is (or the opener is not known)."""
        player = self.last_actor
        if player is None:
            player = self.expected_first
            if player is None or player in self.pending:
                return player
        return self.next_after(player)

    def turn(self) -> str | None:
        """Whose turn it is, as the table stands: in a round, `to_act`; before a street's
        first action, who must open it (when two players or more can act, or one owes);
        an all-in player's turn passes to the next player clockwise who can act. None
        between rounds and once the hand is over."""
        if self.hand_over:
            return None
        if self.round_open:
            player = self.to_act()
        else:
            if not self.waiting():
                return None
            player = self.opener()
        if player is not None and player not in self.able:
            player = self.next_of(player, self.able)
        return player

    def owes(self, player: str) -> bool:
        return self.street_put[player] < self.current_bet

    def owed(self, player: str) -> int:
        """What `player` must put in to call."""
        return self.current_bet - self.street_put[player]

    def house_raise(self) -> int | None:
        """The size of the house's own first raise of the first street's completion, where
        the profile has one (`RuleProfile.house_raise`)."""
        return self.profile.house_raise(self.bring_in, self.ante)

    def allowed_sizes(self) -> tuple[int, ...]:
        """Fixed limit: the sizes a bet or raise may have now (`tables.fixed_sizes`)."""
        return fixed_sizes(
            self.bet_size(),
            self.small_bet,
            self.big_bet,
            self.double_bet,
            self.big_bet_made,
            self.profile,
            # the first raise of the first street's completion: the house's own size too
            self.house_raise() if self.street == self.first_street and self.bets == 1 else None,
        )

    def bet_kind(self) -> ActionKind:
        """What a bet or raise is now: the completion (the first on the first street, and
        where the house lets it follow a short all-in one, `completes_over_short`), a bet
        (nothing to match) or a raise."""
        if self.street == self.first_street and (not self.completed or self.completes_over_short()):
            return ActionKind.COMPLETE
        return ActionKind.BET if self.current_bet == 0 else ActionKind.RAISE

    def completes_over_short(self) -> bool:
        """Fixed limit, on the first street: the completion so far is an all-in short of the
        small bet (made, but no full bet counted), and the house lets the next player
        complete over it, and raise at once (`RuleProfile.raise_over_short_completion`)."""
        return (
            self.profile.raise_over_short_completion
            and self.exact_sizes
            and self.street == self.first_street
            and self.completed
            and self.bets == 0
        )

    def completion_targets(self) -> tuple[int, ...]:
        """Fixed limit: the street totals a completion may go to: the small bet; over a short
        all-in completion where the house allows it (`completes_over_short`), also the small
        bet and a raise (`tables.fixed_sizes` of the first raise of a completion: the house's
        own size and a full bet), which count as two bets (`bets_counted`)."""
        small = self.small_bet
        if not self.completes_over_short():
            return (small,)
        raises = fixed_sizes(
            small, small, self.big_bet, False, False, self.profile, self.house_raise()
        )
        return (small, *(small + size for size in raises))

    def kind_of(self, kind: ActionKind) -> ActionKind:
        """What a completion, bet or raise that a history calls `kind` is under the house's
        rules now: a raise over a short all-in completion, where the house completes over it
        (`completes_over_short`), is that completion (a PHH `cbr` reads as a raise)."""
        if kind is ActionKind.RAISE and self.completes_over_short():
            return ActionKind.COMPLETE
        return kind

    def targets_of(self, kind: ActionKind) -> tuple[int, ...]:
        """Fixed limit: the street totals a full completion, bet or raise (`kind`, as a
        history calls it) may go to now."""
        if kind is ActionKind.COMPLETE:
            return self.completion_targets()
        return tuple(self.current_bet + size for size in self.allowed_sizes())

    def targets(self) -> tuple[int, ...]:
        """Fixed limit: the street totals a full completion, bet or raise may go to now."""
        return self.targets_of(self.bet_kind())

    def bets_counted(self, total: int, counts_as_bet: bool) -> int:
        """How many bets towards the cap a completion, bet or raise to the street total
        `total` makes now: none when it is a short all-in that does not count
        (`counts_as_bet` false), two when it completes over a short all-in completion and
        raises at once (`completes_over_short`: to the least completion and raise or
        beyond), else one."""
        if not counts_as_bet:
            return 0
        if self.completes_over_short():
            targets = self.completion_targets()
            if len(targets) > 1 and total >= targets[1]:
                return 2
        return 1

    def least_bet(self) -> int:
        """The least a bet or completion may be (`structures.smallest_bet`)."""
        return smallest_bet(self.structure, self.small_bet, self.bet_size())

    def raise_range(self, player: str) -> tuple[int, int | None]:
        """Spread, pot and no limit: the least and the most street total `player` may bet or
        raise to (`structures.raise_range`; the most None in no limit)."""
        structure = self.structure
        return raise_range(
            structure,
            current_bet=self.current_bet,
            last_raise=self.last_raise,
            least_bet=self.least_bet(),
            top=self.big_bet,
            pot=sum(self.put_in.values()),
            owed=self.current_bet - self.street_put[player],
            at_least_last=self.at_least_last,
        )

    def pot_sized(self, player: str) -> int:
        """The street total of a pot-sized bet or raise by `player` (`structures.pot_sized`):
        pot limit's most, a size a no-limit player may choose."""
        return pot_sized(
            self.current_bet, sum(self.put_in.values()), self.current_bet - self.street_put[player]
        )

    def capped(self) -> bool:
        """Whether the cap on raises holds in this structure (fixed limit, and spread limit
        where the profile caps it)."""
        return capped(self.structure, self.profile)

    def cap_allows(self, bets: int) -> bool:
        """Whether the `bets`-th bet of the street is within the cap (`RuleProfile.cap_bets`;
        lifted heads-up where the profile says so, and where the structure has no cap)."""
        return cap_allows(bets, self.started_with, self.profile, self.capped())

    def cap_reached(self) -> bool:
        """The street's bets are at the cap: no more raises."""
        return not self.cap_allows(self.bets + 1)

    def counts_as_bet(self, total: int, least: int, all_in: bool) -> bool:
        """Whether a completion, bet or raise to `total` is a full one, which counts towards
        the cap and reopens the betting: at least `least` (the smallest full size), or
        all-in for less where fixed limit's half-bet rule lets it (`tables.reopens`); a short all-in
        in spread, pot and no limit never does."""
        return counts_as_bet(
            total,
            least,
            all_in,
            self.current_bet,
            self.bet_size(),
            self.exact_sizes,
            self.profile,
        )

    def full_raise(self) -> int:
        """The least a full bet or raise adds to the bet to match now: fixed limit's street
        size; in spread, pot and no limit the smallest bet, or the street's last full bet or
        raise when bigger (`structures.full_step`)."""
        if self.exact_sizes:
            return self.bet_size()
        return full_step(
            self.current_bet, self.last_raise, self.least_bet(), at_least_last=self.at_least_last
        )

    def faces_full_raise(self, increment: int) -> bool:
        """Whether a player who acted on this street and now faces `increment` more, raised
        since by short all-ins alone, may bet or raise again: from a full bet or raise
        (several short all-ins adding up to one count, as the TDA rules say), in fixed limit
        from half of one where the profile has the half-bet rule (`tables.reopens`)."""
        if self.exact_sizes:
            return reopens(increment, self.bet_size(), self.profile)
        return increment >= self.full_raise()

    def betting_closed(self, player: str) -> bool:
        """The betting is closed to `player` (they may only call or fold): they acted on this
        street since its last full bet or raise — the bring-in, a check or a call — and what
        short all-ins raised since is less than a full bet or raise (`faces_full_raise`). A
        player who checked and faces a short all-in bet has acted (Robert's Rules of Poker,
        the TDA rules: "a player who has already acted and is not facing at least a full bet
        or raise"), and so has one who called the bring-in and faces a short completion."""
        at = self.acted_on.get(player)
        if at is None or at >= self.current_bet:
            return False
        if self.bets == 0 and self.profile.short_opening_all_in_reopens:
            return False  # the house's rule: no full bet yet, nothing closed
        return not self.faces_full_raise(self.current_bet - at)

    def may_raise(self, player: str) -> bool:
        """Whether `player` may complete, bet or raise now: chips beyond the call, within the
        cap, and the betting open to them (`betting_closed`)."""
        return (
            self.stack[player] > self.owed(player)
            and not self.cap_reached()
            and not self.betting_closed(player)
        )

    def opens(self) -> bool:
        """The next action opens the first street: the bring-in or a completion."""
        return (
            self.street == self.first_street and self.last_actor is None and self.current_bet == 0
        )

    def options(self, player: str) -> Options:
        """What `player` may do now (whether or not it is their turn: `to_act` says whose
        it is)."""
        owed = self.owed(player)
        stack = self.stack[player]
        opens = self.opens()
        bring_in = min(self.bring_in or 0, stack) if opens else 0
        targets: tuple[int, ...] = ()
        most: int | None
        if self.exact_sizes:
            targets = self.targets()
            least, most = targets[0], targets[-1]
        else:
            least, most = self.raise_range(player)
        return Options(
            player,
            max(owed, 0),
            min(max(owed, 0), stack),
            stack,
            opens,
            bring_in,
            self.may_raise(player),
            self.bet_kind(),
            targets,
            least,
            most,
        )

    def waiting(self) -> list[str]:
        """Who must still act for this street's betting to be complete, in seat order: before
        the first action, everyone able to act when two or more are (or the one who owes);
        after it, those still pending; nobody once one player is left in the hand."""
        if self.players_left() <= 1:
            return []
        if not self.round_open:
            able = self.active()
            return able if len(able) >= 2 or (able and self.owes(able[0])) else []
        pending = self.pending
        return [p for p in self.order if p in pending] if pending else []

    def uncalled(self) -> tuple[str | None, int]:
        """The player who put in most on this street (the first such in seat order), and
        how much more than anyone else: the part of the bet to return. Among the antes, the
        antes: when everyone else is all-in for less of an ante, the part nobody can match
        goes back (Full Tilt prints it)."""
        put = self.put_in if self.street is Street.ANTES else self.street_put
        if not put:
            return None, 0
        order = self.order
        index, due = uncalled_due(list(map(put.__getitem__, order)))
        top = order[index]
        if len(self.seat_index) == len(order):
            return top, due
        # A name seated twice: none of its seats counts as another player.
        return top, put[top] - max((put[p] for p in order if p != top), default=0)

    def pots(self) -> list[Pot]:
        """Main and side pots from what each player put in (`tables.build_pots`)."""
        return build_pots(self.order, self.put_in, self.folded, self.all_in)

    # -- moves ---------------------------------------------------------------------------

    def deal_in(self, player: str) -> None:
        """A player's first ante or card: they are in the hand (folds and all-ins come later)."""
        dealt_in = self.dealt_in
        index = self.seat_index
        if not dealt_in or index[dealt_in[-1]] < index[player]:
            dealt_in.append(player)  # antes and cards come in seat order: the usual case
        else:
            insort(dealt_in, player, key=index.__getitem__)  # kept in seat order
        self.moves += 1
        self.dealt_set.add(player)
        self.able.add(player)

    def deal_door(self, player: str, card: Card) -> None:
        """The first street's up card (the door card)."""
        self.door[player] = card
        self.up_cards[player] = [card]
        self.showing_by_player.pop(player, None)

    def deal_up(self, player: str, position: int, card: Card) -> None:
        """An up card at deal `position` after the first street (by position, so that a card
        dealt again cannot add one)."""
        ups = self.up_cards[player]
        index = self.up_cards_before[position]
        if index < len(ups):
            ups[index] = card
        else:
            ups.append(card)
        self.showing_by_player.pop(player, None)

    def pay(self, player: str, amount: int) -> None:
        """`amount` from the player's stack into the pot (all-in when nothing is left)."""
        self.moves += 1
        left = self.stack[player] - amount
        self.stack[player] = left
        self.put_in[player] += amount
        self.street_put[player] += amount
        if left <= 0:
            self.all_in.add(player)
            self.able.discard(player)

    def post_ante(self, player: str, amount: int) -> None:
        if player not in self.dealt_set:
            self.deal_in(player)
        self.pay(player, amount)
        self.street_put[player] = 0  # antes are not part of the first street's betting

    def next_street(self, street: Street) -> None:
        """The next street's header: a new betting round (showdown and summary end them)."""
        self.street = street
        if street > _SEVENTH:
            return
        self.moves += 1
        self.streets_dealt.append(street)
        self.street_put = dict.fromkeys(self.order, 0)
        self.current_bet = 0
        self.bets = 0
        self.big_bet_made = False
        self.last_raise = 0
        self.last_actor = None
        self.aggressor = None
        self.returned = False
        self.round_open = False
        self.double_bet = False

    def open_round(self) -> None:
        """The round's first betting action: who must act, who opens, the double bet. Done
        once the street's cards are known (the first actor depends on them)."""
        self.round_open = True
        able = self.able
        self.pending = set(able)
        self.started_with = len(able)
        self.acted_on = {}
        self.expected_first = self.opener()
        if self.street != self.first_street and self.double_bet_allowed():
            self.double_bet = True

    def acted(self, player: str) -> None:
        """`player` acted in turn: the turn passes on from them."""
        self.last_actor = player

    def match_to(self, player: str) -> None:
        """What `player` has put in on this street is the bet to match (if more)."""
        self.current_bet = max(self.current_bet, self.street_put[player])

    def post_bring_in(self, player: str, amount: int) -> None:
        self.pay(player, amount)
        self.match_to(player)
        self.pending = self.able - {player}
        self.aggressor = player
        self.acted_on[player] = self.current_bet

    def call(self, player: str, amount: int) -> None:
        self.pay(player, amount)
        self.pending.discard(player)
        self.acted_on[player] = self.current_bet

    def check(self, player: str) -> None:
        self.pending.discard(player)
        self.acted_on[player] = self.current_bet

    def fold(self, player: str) -> None:
        self.pending.discard(player)
        self.acted_on.pop(player, None)
        self.able.discard(player)
        self.fold_out(player)

    def fold_out(self, player: str) -> None:
        """The player's cards are dead: out of the hand (and of its pots)."""
        self.moves += 1
        self.folded.add(player)
        if self.players_left() == 1:
            self.hand_over = True

    def bet(self, player: str, total: int, put: int, counts_as_bet: bool) -> None:
        """A completion, bet or raise to the street total `total` (`put` chips): a full one
        (`counts_as_bet`) counts towards the cap (`bets_counted`: a completion and a raise
        at once count two) and reopens the betting for everyone still able to act; a short
        all-in does neither (`short_all_in`): who acted before it faces what it raised
        (`acted_on`, `betting_closed`)."""
        if total - self.current_bet >= self.big_bet and self.double_bet:
            self.big_bet_made = True
        if counts_as_bet and not self.exact_sizes:
            least = self.least_bet()
            self.last_raise = total - (self.current_bet if self.current_bet >= least else 0)
        counted = self.bets_counted(total, counts_as_bet)
        if self.street == self.first_street:
            self.completed = True
        self.pay(player, put)
        self.current_bet = max(self.current_bet, total)
        self.bets += counted
        self.aggressor = player
        if counts_as_bet:
            self.pending = self.able - {player}
            self.acted_on = {player: self.current_bet}
        else:
            self.short_all_in(player)
        self.pending.discard(player)

    def short_all_in(self, player: str) -> None:
        """After an all-in bet or raise too short to reopen the betting: everyone still in
        who owes chips must act again; those who had acted on this street since its last
        full bet or raise keep what they acted on (`acted_on`), and may only call or fold
        unless the short all-ins since add up to a full bet or raise (`betting_closed`)."""
        self.acted_on[player] = self.current_bet
        self.pending = {p for p in self.active() if self.street_put[p] < self.current_bet} - {
            player
        }

    def give_back(self, player: str, amount: int) -> None:
        """An uncalled bet returned: a player all-in with it has chips again and may act on
        (the next streets' betting, when the others were not all-in)."""
        self.moves += 1
        self.stack[player] = left = self.stack.get(player, 0) + amount
        self.put_in[player] = self.put_in.get(player, 0) - amount
        # More than the street's bets (a return printed before the bet, flagged
        # UNCALLED_RETURN) comes back all the same, as the line says, but the street's total
        # stops at nothing: the bet that follows puts in what its line says.
        self.street_put[player] = max(0, self.street_put.get(player, 0) - amount)
        if (
            left > 0
            and player in self.all_in
            and player not in self.folded
            and player in self.dealt_set
        ):
            self.all_in.discard(player)
            self.able.add(player)

    def return_uncalled(self, player: str, amount: int) -> None:
        """The street's uncalled bet goes back (`uncalled` says whose and how much)."""
        self.returned = True
        self.give_back(player, amount)

    def collect(self, player: str, amount: int) -> None:
        self.moves += 1
        self.collected[player] = self.collected.get(player, 0) + amount


__all__ = ["Options", "Table"]
