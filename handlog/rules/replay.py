"""Replaying a parsed hand under the rules of its game and house, and checking every line.

`replay(hand, profile)` walks the hand action by action: who must act, what they owe, what
the limit allows, when a street is complete; then builds the pots from what each player put
in, decides the winners from the cards (cards speak) and compares that with what the hand
history says was collected. Every breach is a `Violation`; one does not hide the others,
since the replay goes on from what the hand history says happened.

A hand that breaks no rule is replayed first by a fast path (`handlog.rules.fast`) that gives
up at anything unusual; the full replay (`_Replayer`) then runs, and it is the specification
the fast path must agree with.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from dataclasses import replace

from handlog.cards import Card, format_cards
from handlog.holdings import FACE_UP, FIRST_STREET
from handlog.model import Action, ActionKind, Dealt, Event, Hand, Street
from handlog.money import CURRENCY_SIGNS, format_amount, format_hundredths
from handlog.rules import fast as _fast
from handlog.rules.awards import Awards, and_list
from handlog.rules.profiles import RuleProfile, TieBreak
from handlog.rules.structures import STRUCTURES, Ceiling, raise_range, smallest_bet
from handlog.rules.tables import (
    BIG_BET_STREETS,
    BRING_IN_KEYS,
    CARDS_PER_PLAYER,
    DECK_SIZE,
    LAST_STREET,
    UP_CARDS_BEFORE,
    UP_POSITIONS,
    Pot,
    Replay,
    build_pots,
    cards_needed,
    describe,
    fixed_sizes,
    has_pair,
    known_cards,
    lineup,
    ordinal,
    river_line,
    showing_keys,
)
from handlog.rules.traits import PRINTS_EVERYTHING, SiteTraits, UncalledBets
from handlog.rules.variants import VARIANTS
from handlog.rules.violations import DEFAULT_KIND, Kind, Violation

_SEVENTH = Street.SEVENTH
_FOLD, _CHECK, _CALL, _BRING_IN = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BRING_IN,
)


def replay(
    hand: Hand,
    profile: RuleProfile,
    traits: SiteTraits = PRINTS_EVERYTHING,
    observer: Callable[[_Replayer, Violation], None] | None = None,
) -> Replay:
    """Replay `hand` under `profile` and report what breaks the rules; `traits` say what its
    site prints, so that nothing a site does not print is flagged. `observer`, when given,
    is called with the replayer and each violation as it is flagged (`_Replayer.observer`:
    the evidence an import keeps is read from this one replay)."""
    # The fast path (see handlog.rules.fast) judges every size: not for a hand whose stakes
    # are unknown (`Hand.stakes_known`). A hand it passes has no violation to observe.
    clean = _fast.replay_clean(hand, profile, traits) if hand.stakes_known else None
    if clean is not None:
        return clean
    replayer = _Replayer(hand, profile, traits)
    replayer.observer = observer
    return replayer.run()


class _Replayer:
    """The state of one hand while it is replayed.

    Hands that break a rule (and the few clean ones the fast path leaves alone) come here, so
    the state the betting needs on every action is still kept ready rather than recomputed:
    the players able to act (`able`), the seats after each player in clockwise order, each
    player's showing-hand key until their up cards change. The card checks run in the same
    pass over the events as the betting, and the later checks read what that pass gathered
    (shows, early folds) instead of walking the events again."""

    # -- observer hook (evidence, see handlog.evidence) -------------------------------------
    # Called with the replayer and each violation as it is flagged, so that a caller can
    # record what the replay knew at that moment. None (the default, and always in
    # `replay`): no call, no cost. Not a rule: it must not change the replayer's state.
    observer: Callable[[_Replayer, Violation], None] | None = None
    # Called with the replayer and each event once the event is replayed (the trace, see
    # handlog.rules.trace): read-only, like `observer`; None in `replay`.
    step_observer: Callable[[_Replayer, Event], None] | None = None

    def __init__(
        self, hand: Hand, profile: RuleProfile, traits: SiteTraits = PRINTS_EVERYTHING
    ) -> None:
        self.hand = hand
        self.profile = profile
        self.traits = traits
        game = self.game = hand.game
        variant = self.variant = VARIANTS[game]
        self.first_street = FIRST_STREET[game]
        self.last_street = LAST_STREET[game]
        self.big_bet_streets = BIG_BET_STREETS[game]
        self.face_up = FACE_UP[game]
        self.up_cards_before = UP_CARDS_BEFORE[game]
        self.up_positions = UP_POSITIONS[game]
        self.first_up = self.up_positions[0]  # the up cards are dealt one after the other
        self.showing = showing_keys(game, profile)
        self.open_pair_street = variant.open_pair_street
        self.structure = STRUCTURES[hand.structure]
        self.house_raise = profile.house_raise(hand.bring_in, hand.ante)
        self.symbol = CURRENCY_SIGNS.get(hand.currency) if hand.currency else None
        self.hundredths = hand.currency is None and hand.chips_in_hundredths
        self.violations: list[Violation] = []
        seats = hand.seats
        seat_order = lineup(seats)
        order = self.order = seat_order.order
        self.seat_index = seat_order.seat_index
        self.clockwise_after = seat_order.clockwise_after
        """Each player's followers clockwise, ending with the player."""
        self.stack = {seat.name: seat.stack for seat in seats}
        self.put_in = dict.fromkeys(order, 0)
        self.collected = dict.fromkeys(order, 0)
        self.folded: set[str] = set()
        self.all_in: set[str] = set()
        self.dealt_in: list[str] = []
        self.able: set[str] = set()
        """Dealt in, not folded, not all-in: the players who can still act."""
        self.up_cards: dict[str, list[Card]] = {name: [] for name in order}
        self.showing_by_player: dict[str, tuple[object, ...]] = {}
        """Showing-hand key of each player's up cards, dropped when they change."""
        self.door: dict[str, Card] = {}
        self.anted: set[str] = set()
        # Card checks run in the same pass as the betting (one walk over the events), but
        # their violations are reported after the betting's and the antes', as one group.
        size = self.card_count = CARDS_PER_PLAYER[game]
        self.slots: dict[str, list[Card | None]] = {name: [None] * size for name in order}
        """Each player's cards by deal position, as first seen."""
        self.owner: dict[Card, tuple[str, int]] = {}
        """Who holds each card seen, at which deal position."""
        self.up_count = dict.fromkeys(order, 0)
        """Up cards dealt to each player so far (as the dealing lines count them)."""
        self.card_street: Street | None = None
        """The street of the card line last checked (None: none yet)."""
        self.card_flags: list[
            tuple[str, Street | None, int, str | None, str, object, object, int | None]
        ] = []
        """Card violations found during the pass, reported after the others (street None: the
        street the replay ended on; last, the place in this list of the one it follows
        from)."""
        self.shows: list[Action] = []
        """Show lines with cards: the showdown hands and their descriptions."""
        self.folded_early: dict[str, Street] = {}
        """Players who folded before the last street, and the street they folded on."""
        """Players with a fold line before the last street (whether or not the fold counted)."""
        # betting round
        self.street: Street = Street.ANTES
        self.street_put = dict.fromkeys(order, 0)
        self.current_bet = 0
        self.bets = 0
        self.big_bet_made = False
        self.pending: set[str] = set()
        self.last_actor: str | None = None
        self.aggressor: str | None = None
        self.round_open = False
        self.started_with = 0
        self.reopened_for: set[str] = set()
        self.double_bet = False
        self.returned = False
        self.hand_over = False
        self.streets_dealt: list[Street] = []
        # Root causes (see `Violation.cause`): the fault each follow-on flag comes from.
        self.over_stack: dict[str, int] = {}
        """Players the replay took all-in because they put in more than their seat's stack
        (OVER_STACK), and that flag: whatever they do next follows from it."""
        self.acted_unable: dict[str, int] = {}
        """Players flagged for acting after folding or going all-in, and the first such flag:
        their later actions follow from it."""
        self.not_dealt: dict[str, int] = {}
        """Players flagged for acting without being dealt in, and that flag."""
        self.phantom_bet: int | None = None
        """On this street, a bet by a player the replay has all-in (chips they did not have,
        OVER_STACK): it reopens nothing here, so the others' answers to it seem out of turn;
        the fault they follow from."""
        self.skipped: tuple[str, int, str] | None = None
        """On this street, since the last action in turn: the player whose turn was skipped,
        the OUT_OF_TURN flag of the first player who acted instead, and the last player who
        did. The others who act after them in seat order follow from that first flag."""
        self.seven_shown: list[int] = []
        """Shows of every card a player holds with a community card dealt (one too many
        then): their CARD_COUNT flags (places in `card_flags`), which follow from a
        community card dealt when the deck had enough."""
        self.miscounted: dict[str, int] = {}
        """Players dealt a wrong number of cards on a street, and that flag (its place in
        `card_flags`): their later card lines repeat the wrong cards."""
        self.misstated: list[tuple[int, str, int]] = []
        """Flags that a player's chips differ from what they owed (an ante missing or off, a
        call for less or more, a check facing a bet, a bet bigger than the limit, a turn
        never taken, an uncalled bet returned short): the flag, the player, and the chips
        their lines put in beyond what they owed (negative when short). The site's figures
        and its pots may count what was owed instead: what follows from it then."""
        self.short_paid: dict[str, int] = {}
        """Players flagged for putting in less than they owed (a check facing a bet, a call
        for less), and that flag: the pots the site builds may treat them as all-in for
        what they put in."""
        self.short_called: dict[str, int] = {}
        """The bettors whose bet was answered so (`short_paid`), or who put in more than the
        limit allows, and that flag: the uncalled part the site then returns to them (or
        not) follows from it."""
        self.shortfall: dict[tuple[str, Street], int] = {}
        """By how much each such bettor's bet on a street was answered short: the part of
        it the site may pay back with the pot rather than with a line of its own."""
        self.over_bet: tuple[int, int] | None = None
        """On this street, a bet or bring-in over what the limit allows: its flag and by how
        much. A call of what the limit's size asked for follows from it."""
        self.pot_total_flag: int | None = None
        """POT_TOTAL for a printed total that differs from the chips put in."""
        self.rake_flag: int | None = None
        """RAKE for collects plus rake that differ from the printed total."""

    # -- reporting -------------------------------------------------------------------------

    def money(self, value: int) -> str:
        if self.hundredths:
            return format_hundredths(value)
        return format_amount(value, self.symbol)

    def flag(
        self,
        code: str,
        line: int,
        player: str | None,
        message: str,
        expected: object = None,
        actual: object = None,
        *,
        cause: int | None = None,
        kind: Kind | None = None,
    ) -> int:
        """Report a violation; its index among the hand's violations. `cause`: the index of
        the earlier fault it only follows from (then it takes that fault's kind); `kind`:
        the kind the check decided from the evidence (default: the code's,
        `DEFAULT_KIND`)."""
        violations = self.violations
        if cause is not None:
            cause = self._root(cause)
            kind = violations[cause].kind
        violations.append(
            Violation(
                code,
                self.street if self.street is not Street.ANTES else None,
                line or self._hand_line(),
                player,
                message,
                None if expected is None else str(expected),
                None if actual is None else str(actual),
                (),
                kind or DEFAULT_KIND[code],
                cause,
            )
        )
        if self.observer is not None:  # the observer hook (see `observer`)
            self.observer(self, violations[-1])
        return len(violations) - 1

    def _root(self, index: int) -> int:
        """The fault that violation `index` follows from (itself when it is one)."""
        cause = self.violations[index].cause
        return index if cause is None else cause

    def _follows(self, index: int, cause: int) -> None:
        """Make violation `index` (flagged already) a consequence of violation `cause`, and
        its own consequences too: it takes the root's kind."""
        root = self._root(cause)
        if root == index:
            return
        violations = self.violations
        kind = violations[root].kind
        for i, violation in enumerate(violations):
            if i == index or violation.cause == index:
                violations[i] = replace(violation, cause=root, kind=kind)

    def _judge(self, index: int, kind: Kind) -> None:
        """Give fault `index` (flagged already) and its consequences the kind the evidence
        shows."""
        violations = self.violations
        for i, violation in enumerate(violations):
            if i == index or violation.cause == index:
                violations[i] = replace(violation, kind=kind)

    def _hand_line(self) -> int:
        return self.hand.source.line if self.hand.source else 0

    # -- driving -------------------------------------------------------------------------

    def run(self) -> Replay:
        hand = self.hand
        handlers = _ACTION_HANDLERS
        dealt = self._dealt
        current = self.street  # only _next_street changes it during the loop
        step = self.step_observer
        for event in hand.events:
            street = event.street
            if street != current and street <= _SEVENTH:
                self._next_street(street, event.line)
                current = street
            if type(event) is Action:
                handlers[event.kind](self, event)
            elif type(event) is Dealt:
                dealt(event)
            # Notes change nothing: the replay decides the double bet from the up cards itself.
            if step is not None:
                step(self, event)
        self._close_round(last=True)
        self._check_antes()
        self._finish_card_checks()
        pots = self._pots()
        awards = Awards(hand, self.profile, pots, self.seat_index, known_cards(self.shows, hand))
        before_awards = len(self.violations)
        if self.traits.prints_awards or any(self.collected.values()):
            expected = awards.check(self)
        else:
            expected = awards.pay(self)
        award_flags = range(before_awards, len(self.violations))
        self._check_descriptions()
        collected = self.collected
        put_in = self.put_in
        net = {name: collected[name] - put_in[name] for name in self.order}
        net_flags = self._check_printed_nets(net)
        if self.pot_total_flag is not None or self.rake_flag is not None or award_flags:
            self._judge_accounting(awards, expected, award_flags, net_flags)
        return Replay(
            hand,
            tuple(self.violations),
            tuple(pots),
            put_in,
            collected,
            net,
            expected,
            frozenset(awards.high_winners),
            frozenset(awards.low_winners),
        )

    def _check_printed_nets(self, net: dict[str, int]) -> dict[int, str]:
        """A site that prints each player's result for the hand (`SeatResult.net`) must
        agree with what the hand's own lines make of it: a difference is the site's
        accounting against its own hand history. The flags, with the player of each (their
        kind and cause are decided with the pots', `_judge_accounting`)."""
        found: dict[int, str] = {}
        for result in self.hand.results:
            printed = result.net
            if printed is None:
                continue
            mine = net.get(result.player, 0)
            if printed != mine:
                self.street = Street.SUMMARY
                found[len(self.violations)] = result.player
                self.flag(
                    "PLAYER_NET",
                    result.line or self._summary_line(),
                    result.player,
                    f"the hand history prints {result.player}'s result as "
                    f"{self._signed(printed)}, but its actions give "
                    f"{self._signed(mine)}",
                    self._signed(mine),
                    self._signed(printed),
                )
        return found

    def _judge_accounting(
        self,
        awards: Awards,
        expected: dict[str, int],
        award_flags: range,
        net_flags: dict[int, str],
    ) -> None:
        """Decide from the evidence the kind and the cause of the pot flags (POT_TOTAL, RAKE,
        the awards' codes, PLAYER_NET), which all compare the money put in, printed and paid:

        - a printed total that differs from the chips put in while every chip put in was paid
          out (collects plus rake) is the summary's figure alone: inconsistent, and the RAKE
          flag it brings (collects plus rake against that total) follows from it;
        - collects that the rules would give with the rake the collects leave (chips put in
          less chips paid) make an award flag follow from the flag that the printed rake or
          total is off; the printed total (with its rake) alone off is then inconsistent;
        - an award flag (a pot paid other than by the rules) is inconsistent when the site's
          own per-player results pay every player concerned as the rules do: the site paid
          right, its collect lines say otherwise; the printed total that is just what those
          lines paid, and the players' results that differ from them, follow from it;
        - a player's printed result that differs from the hand's lines is inconsistent when
          the lines pay the player as the rules do, a mis-split when it pays them neither as
          the lines nor as the rules do;
        - when the chips that a betting fault misstates (`misstated`: an ante missing, a call
          short or long, a check facing a bet, a turn never taken, a bet over the limit) are
          what the printed total or the pots as paid count, POT_TOTAL and the award flag
          follow from that fault, and so does a collect by a player who, for want of those
          chips, has no claim on the pot."""
        hand = self.hand
        put_in = self.put_in
        violations = self.violations
        pot_total = self.pot_total_flag
        rake = self.rake_flag
        total = sum(put_in.values())
        paid = sum(self.collected.values())
        actual = {p: v for p, v in self.collected.items() if v}
        implied = total - paid  # the rake the collects leave
        awarded = [i for i in award_flags if violations[i].code != "POT_TOTAL"]
        pot_counts = [i for i in award_flags if violations[i].code == "POT_TOTAL"]
        short_of: dict[str, int] = {}
        for index, player, beyond in self.misstated:
            if beyond < 0:
                short_of.setdefault(player, index)
        for index, _ in awards.ineligible:
            collector = violations[index].player
            if collector is not None and collector in short_of:
                # no claim on the pot for want of the chips a betting fault left out
                self._follows(index, short_of[collector])
        awarded = [i for i in awarded if violations[i].root]
        award = awarded[0] if awarded else None
        for index in awarded[1:]:  # several NOT_ELIGIBLE collects: one misplaced payment each
            self._judge(index, self._award_kind(expected))
        printed_total = (
            hand.total_pot + (hand.rake if self.traits.total_pot_after_rake else 0)
            if self.traits.prints_total_pot
            else None
        )
        as_owed = self._put_as_owed()
        betting = self._paid_as_owed(as_owed, actual) if award is not None else None
        if award is not None and betting is not None:
            # The site paid the pots as if the chips a betting fault misstated were as owed
            # (or the player who paid short all-in for what they put in): the award follows
            # from that fault.
            self._follows(award, betting)
        elif award is not None:
            kind = self._award_kind(expected)
            self._judge(award, kind)
            if kind is Kind.INCONSISTENT:
                flagged = violations[award]
                violations[award] = replace(
                    flagged, message=f"{flagged.message}; {self._results_words(expected)}"
                )
            accounting = rake if rake is not None else pot_total
            if accounting is not None and implied >= 0 and awards.pays_with_rake(implied, actual):
                # Paid as the rules pay with the rake the collects leave: the printed rake
                # (or total) is off, not the split.
                self._follows(award, accounting)
        if (
            pot_total is not None
            and rake is not None
            and self.traits.total_pot_after_rake
            and hand.total_pot + implied == total
        ):
            # A total printed after rake is off by what the printed rake is: that is the fault
            self._follows(pot_total, rake)
        taken = sum(amount for _, amount in awards.ineligible)
        if rake is not None and awards.ineligible and paid - taken + hand.rake == printed_total:
            # the sum of the collects is off by the collects of players with no claim
            self._follows(rake, awards.ineligible[0][0])
        if (
            pot_total is not None
            and as_owed is not None
            and sum(as_owed.values()) == printed_total
            and violations[pot_total].cause is None
        ):
            # the summary counts the chips as they were owed: the betting fault is the fault
            self._follows(pot_total, min(i for i, _, _ in self.misstated))
        if pot_total is not None and violations[pot_total].cause is None:
            if paid + hand.rake == total:
                self._judge(pot_total, Kind.INCONSISTENT)
                if rake is not None:
                    self._follows(rake, pot_total)
            elif paid + hand.rake == printed_total:
                if award is not None and violations[award].cause is None:
                    self._follows(pot_total, award)  # the total is what the lines paid
                elif award is not None:
                    self._judge(pot_total, Kind.INCONSISTENT)  # only the printed rake is off
        for index in pot_counts:
            # The number of pots printed: the summary's figure, unless a pot was paid wrong.
            if award is not None:
                self._follows(index, award)
            else:
                self._judge(index, Kind.INCONSISTENT)
        printed = self._printed_nets()
        for index, player in net_flags.items():
            by_rules = expected.get(player, 0) - put_in.get(player, 0)
            if printed.get(player) == by_rules and award is not None:
                self._follows(index, award)  # the site's result pays as the rules do
            elif self.collected.get(player, 0) != expected.get(player, 0):
                self._judge(index, Kind.MIS_SPLIT)  # neither as its lines nor as the rules

    def _put_as_owed(self) -> dict[str, int] | None:
        """What each player put in had the chips that betting faults misstate
        (`misstated`) been as owed; None when no fault misstates any."""
        if not self.misstated:
            return None
        put_in = dict(self.put_in)
        for _, player, beyond in self.misstated:
            put_in[player] = put_in.get(player, 0) - beyond
        return put_in

    def _paid_as_owed(self, as_owed: dict[str, int] | None, actual: dict[str, int]) -> int | None:
        """The betting fault that the collects `actual` follow from, if any: they are what
        the rules pay with the chips as owed (`_put_as_owed`), or with the players who put
        in less than they owed (`short_paid`) all-in for what they put in, the part of the
        bets they did not answer paid back to the bettors with the pot or not."""
        hand = self.hand
        cards = known_cards(self.shows, hand)
        if as_owed is not None:
            pots = build_pots(self.order, as_owed, self.folded, self.all_in)
            if Awards(hand, self.profile, pots, self.seat_index, cards).pays_with_rake(
                hand.rake, actual
            ):
                return min(i for i, _, _ in self.misstated)
        if not self.short_paid:
            return None
        all_in = self.all_in | set(self.short_paid)
        for returned in (False, True):
            put_in = dict(self.put_in)
            paid = dict(actual)
            if returned:
                for (bettor, _), short in self.shortfall.items():
                    put_in[bettor] -= short
                    paid[bettor] = paid.get(bettor, 0) - short
                    if not paid[bettor]:
                        del paid[bettor]
            pots = build_pots(self.order, put_in, self.folded, all_in)
            awards = Awards(hand, self.profile, pots, self.seat_index, cards)
            if awards.pays_with_rake(hand.rake, paid):
                return min(self.short_paid.values())
        return None

    def _results_words(self, expected: dict[str, int]) -> str:
        """Why a pot paid other than by the rules is only the history's inconsistency: the
        site's own results for the players concerned, which pay as the rules do."""
        printed = self._printed_nets()
        wrong = sorted(
            p
            for p in set(expected) | set(self.collected)
            if self.collected.get(p, 0) != expected.get(p, 0) and p in printed
        )
        results = and_list(f"{p} {self._signed(printed[p])}" for p in wrong)
        return f"the site's own results ({results}) pay as the rules do"

    def _printed_nets(self) -> dict[str, int]:
        """Each player's result as the site prints it (`SeatResult.net`), where it does."""
        printed: dict[str, int] = {}
        for result in self.hand.results:
            if result.net is not None:
                printed[result.player] = result.net
        return printed

    def _award_kind(self, expected: dict[str, int]) -> Kind:
        """The kind of a flag that a pot was paid other than by the rules: inconsistent
        when the site prints each player's result (`SeatResult.net`) and those of every
        player paid wrong by the hand's lines are what the rules give them."""
        printed = self._printed_nets()
        collected = self.collected
        wrong = [
            p for p in set(expected) | set(collected) if collected.get(p, 0) != expected.get(p, 0)
        ]
        if wrong and all(
            p in printed and printed[p] == expected.get(p, 0) - self.put_in.get(p, 0) for p in wrong
        ):
            return Kind.INCONSISTENT
        return Kind.MIS_SPLIT

    def _signed(self, amount: int) -> str:
        return ("+" if amount >= 0 else "-") + self.money(abs(amount))

    # -- streets ---------------------------------------------------------------------------

    def _next_street(self, street: Street, line: int) -> None:
        if self.street >= self.first_street:
            self._close_round(last=False, line=line)
        self.street = street
        if street > _SEVENTH:  # showdown or summary
            return
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
        self.phantom_bet = None
        self.skipped = None
        self.over_bet = None
        if self.hand_over and street <= self.last_street:
            self.flag(
                "ROUND_INCOMPLETE",
                line,
                None,
                f"{street.label} is dealt although only one player is left in the hand",
            )

    def _active(self) -> list[str]:
        """Players still in the hand and able to act, in seat order."""
        able = self.able
        return [p for p in self.dealt_in if p in able]

    def _in_hand(self) -> list[str]:
        return [p for p in self.dealt_in if p not in self.folded]

    def _deal_in(self, player: str) -> None:
        """A player's first ante or card: they are in the hand (folds and all-ins come later)."""
        dealt_in = self.dealt_in
        index = self.seat_index
        if not dealt_in or index[dealt_in[-1]] < index[player]:
            dealt_in.append(player)  # antes and cards come in seat order: the usual case
        else:
            insort(dealt_in, player, key=index.__getitem__)  # kept in seat order
        self.able.add(player)

    def _open_round(self, line: int) -> None:
        """Set up the betting round at its first betting action, once the street's cards
        are known (the first actor on later streets depends on them)."""
        self.round_open = True
        able = self.able
        self.pending = set(able)
        self.started_with = len(able)
        self.reopened_for = set(able)
        if self.street == self.first_street:
            self.expected_first = self._bring_in_player()
        else:
            self.expected_first = self._first_actor()
            # The open pair allows the double bet; when a player's up cards are not printed
            # (sites that show only the player's own cards), a pair cannot be ruled out.
            if (
                self.street == self.open_pair_street
                and self.structure.exact_sizes
                and self.profile.double_bet_allowed(self.game)
                and (
                    any(has_pair(self.up_cards[p]) for p in self._in_hand())
                    or not self._up_cards_known()
                )
            ):
                self.double_bet = True

    def _bring_in_player(self) -> str | None:
        """Who must bring in, from the door cards; None when someone's door card is not
        printed (then anyone may: the replay judges only what the hand history shows)."""
        door = self.door
        keys = BRING_IN_KEYS[self.game]
        if not self.dealt_in or any(p not in door for p in self.dealt_in):
            return None
        return max(self.dealt_in, key=lambda p: keys[door[p]])

    def _up_cards_known(self) -> bool:
        """Whether every player still in shows all the up cards dealt by this street: a site
        that prints only the player's own cards leaves the first actor and the open pair
        unknown. (A betting street's value is the number of cards dealt by then.)"""
        dealt = sum(self.face_up[: int(self.street)])
        return all(len(self.up_cards[p]) >= dealt for p in self._in_hand())

    def _first_actor(self) -> str | None:
        """Who acts first on a later street, from the showing hands; None when some player's
        up cards are not printed (the first to act is then taken as the hand says)."""
        if not self._up_cards_known():
            return None
        community = self.hand.community_card
        with_community = self.street == _SEVENTH and community is not None
        cached = self.showing_by_player
        folded = self.folded
        keys: dict[str, tuple[object, ...]] = {}
        for p in self.dealt_in:
            if p in folded:
                continue
            ups = self.up_cards[p]
            if not ups:
                continue
            if with_community:
                keys[p] = self.showing.key([*ups, community])  # type: ignore[list-item]
            else:
                key = cached.get(p)
                if key is None:
                    key = cached[p] = self.showing.key(ups)
                keys[p] = key
        if not keys:
            return None
        # Equal keys: the first in seat order (`max` keeps the first of equals).
        best = max(keys, key=keys.__getitem__)
        if self.profile.first_actor_tie is TieBreak.CLOCKWISE:
            tied = [p for p in keys if keys[p][:2] == keys[best][:2]]
            best = min(tied, key=self.seat_index.__getitem__)
        if best in self.all_in:  # an all-in player cannot act: the next one clockwise does
            best = self._next_after(best) or best
        return best

    def _clockwise_key(self, player: str) -> int:
        return self.seat_index[player]

    def _next_after(self, player: str) -> str | None:
        """The next player clockwise from `player` who still has to act this round."""
        pending = self.pending
        for candidate in self.clockwise_after[player]:
            if candidate in pending:
                return candidate
        return None

    def _expected_actor(self) -> str | None:
        player = self.last_actor
        if player is None:
            player = self.expected_first
            if player is None or player in self.pending:
                return player
        return self._next_after(player)

    def _close_round(self, last: bool, line: int = 0) -> None:
        """At the end of a street: was everyone who had to act heard?"""
        if self.street < self.first_street or self.street > _SEVENTH:
            return
        # Every fold is by a player dealt in, so this counts the players still in the hand.
        if len(self.dealt_in) - len(self.folded) <= 1:
            waiting: list[str] = []
        elif not self.round_open:
            # Nobody acted: fine only when at most one player can still act.
            able = self._active()
            waiting = able if len(able) >= 2 or (able and self._owes(able[0])) else []
        else:
            pending = self.pending
            waiting = [p for p in self.order if p in pending] if pending else []
        if waiting:
            names = ", ".join(waiting)
            found = self.flag(
                "ROUND_INCOMPLETE",
                line or self._hand_line(),
                waiting[0],
                f"betting on {self.street.label} ended before {names} acted",
            )
            for player in waiting:  # a call the lines left out, if the site counted one
                owed = self.current_bet - self.street_put[player]
                if owed > 0:
                    self.misstated.append((found, player, -owed))
        self._check_uncalled_due()

    def _owes(self, player: str) -> bool:
        return self.street_put[player] < self.current_bet

    # -- dealing -------------------------------------------------------------------------

    def _dealt(self, event: Dealt) -> None:
        player = event.player
        new = event.new
        # What the betting needs: who is dealt in, the door cards and the up cards (for the
        # bring-in and the first actor), by the street the replay is on.
        if self.street == self.first_street:
            if player not in self.dealt_in:
                self._deal_in(player)
            if new:
                door = new[-1]
                self.door[player] = door
                self.up_cards[player] = [door]
                self.showing_by_player.pop(player, None)
        elif new:
            position = event.street - 1
            if self.face_up[position]:
                # By deal position, so that a repeated "Dealt to" line cannot add a card.
                ups = self.up_cards[player]
                index = self.up_cards_before[position]
                if index < len(ups):
                    ups[index] = new[-1]
                else:
                    ups.append(new[-1])
                self.showing_by_player.pop(player, None)
        # The card checks, by the street the line is on. Nearly every line deals one card
        # never seen before, after repeating the player's earlier cards as they were seen: that
        # case is settled here; anything else goes to `_check_dealt_cards`, which flags.
        street = event.street
        row = self.slots.get(player)
        if len(new) == 1 and row is not None:
            card = new[0]
            if street == self.first_street:
                position = self.first_up
                repeats_match = True
            else:
                position = street - 1
                previous = event.previous
                count = len(previous)
                if count == position:  # the hero's line: every card so far
                    repeats_match = tuple(row[:count]) == previous
                elif count == self.up_count[player]:  # an opponent's: the up cards so far
                    shown = previous[: len(self.up_positions)]
                    first_up = self.first_up
                    repeats_match = tuple(row[first_up : first_up + len(shown)]) == shown
                else:
                    repeats_match = False
            if (
                repeats_match
                and position < self.card_count
                and row[position] is None
                and card not in self.owner
                and card is not self.hand.community_card
            ):
                self.card_street = street
                self.owner[card] = (player, position)
                row[position] = card
                if street == self.first_street:
                    self.up_count[player] = 1
                elif self.face_up[position]:
                    self.up_count[player] += 1
                return
        self._check_dealt_cards(event)

    # -- cards -----------------------------------------------------------------------------
    # Duplicates, cards that change, wrong counts, the community card. Checked line by line
    # as the events are walked; the violations wait in `card_flags` until the end.

    def _card_flag(
        self,
        code: str,
        line: int,
        player: str | None,
        message: str,
        expected: object = None,
        actual: object = None,
        cause: int | None = None,
    ) -> int:
        """Keep a card violation for the end (`_finish_card_checks`); its place among them.
        `cause`: the place of the card violation it follows from."""
        flags = self.card_flags
        flags.append((code, self.card_street, line, player, message, expected, actual, cause))
        return len(flags) - 1

    def _see(self, player: str, position: int, card: Card, line: int) -> None:
        """A sighting of `card` at deal `position` of `player`'s cards."""
        row = self.slots.get(player)
        if row is None or not 0 <= position < self.card_count:
            return
        known = row[position]
        if known is not None and known != card:
            self._card_flag(
                "CARDS_CHANGED",
                line,
                player,
                f"{player}'s card {position + 1} was {known}, now shows as {card}",
                known,
                card,
                # the cards of a line that dealt too many were not placed: the later lines
                # seem to change them
                self.miscounted.get(player),
            )
            return
        if known is None:
            holder = self.owner.get(card)
            community = self.hand.community_card
            if holder is not None and holder != (player, position):
                other = holder[0]
                where = f"{other}'s hand" if other != player else f"{player}'s hand twice"
                self._card_flag(
                    "DUPLICATE_CARD",
                    line,
                    player,
                    f"{card} dealt to {player} is already in {where}",
                    None,
                    card,
                )
            elif community is not None and card == community:
                self._card_flag(
                    "DUPLICATE_CARD",
                    line,
                    player,
                    f"{card} dealt to {player} is also the community card",
                    None,
                    card,
                )
            self.owner[card] = (player, position)
            row[position] = card

    def _see_run(self, player: str, start: int, cards: tuple[Card, ...], line: int) -> None:
        """`_see` for cards at consecutive positions from `start`. Most are repeats of cards
        already seen in the same places (every "Dealt to" line repeats the earlier ones),
        which need no check."""
        row = self.slots.get(player)
        if row is None or tuple(row[start : start + len(cards)]) == cards:
            return
        size = self.card_count
        for position, card in enumerate(cards, start):
            if position >= size or row[position] is not card:
                self._see(player, position, card, line)

    def _check_dealt_cards(self, event: Dealt) -> None:
        player, street = event.player, event.street
        self.card_street = street
        new = event.new
        size = self.card_count
        if street == self.first_street:
            if len(new) not in (1, 3 if size == 7 else 2):
                found = self._card_flag(
                    "CARD_COUNT",
                    event.line,
                    player,
                    f"{player} is dealt {len(new)} cards on {street.label}",
                    cause=self.miscounted.get(player),
                )
                self.miscounted.setdefault(player, found)
                return
            if len(new) == 1:
                self._see(player, self.up_positions[0], new[0], event.line)
            else:
                self._see_run(player, 0, new, event.line)
            self.up_count[player] = 1
            return
        position = int(street) - 1
        if len(new) != 1:
            found = self._card_flag(
                "CARD_COUNT",
                event.line,
                player,
                f"{player} is dealt {len(new)} cards on {street.label}, not one",
                cause=self.miscounted.get(player),
            )
            self.miscounted.setdefault(player, found)
            return
        previous = event.previous
        up_count = self.up_count[player]
        if len(previous) == position:  # the hero's line: every card so far
            self._see_run(player, 0, previous, event.line)
        elif len(previous) == up_count:  # an opponent's: the up cards so far
            self._see_run(player, self.first_up, previous[: len(self.up_positions)], event.line)
        else:
            self._card_flag(
                "CARD_COUNT",
                event.line,
                player,
                f"{player}'s {street.label} line repeats {len(previous)} earlier cards; "
                f"{up_count} up cards (or {position} in all) were dealt before",
                cause=self.miscounted.get(player),  # the cards of a line dealing too many
            )
        self._see(player, position, new[0], event.line)
        if self.face_up[position]:
            self.up_count[player] += 1

    def _check_shown_cards(self, event: Action) -> None:
        """A show or muck line with cards."""
        cards = event.cards
        limit = self.card_count - 1 if self.hand.community_card is not None else self.card_count
        if len(cards) > limit:
            found = self._card_flag(
                "CARD_COUNT",
                event.line,
                event.player,
                f"{event.player} shows {len(cards)} cards; a player holds at most {limit}",
            )
            if len(cards) == self.card_count:
                self.seven_shown.append(found)
            return
        self.card_street = event.street
        self._see_run(event.player, 0, cards, event.line)

    def _finish_card_checks(self) -> None:
        """The summary's cards and the community card; then report the card violations."""
        hand = self.hand
        self.card_street = Street.SUMMARY
        for result in hand.results:
            cards = result.showed or result.mucked
            self._see_run(result.player, 0, cards, result.line)
        self.card_street = Street.SEVENTH
        game = hand.game
        community = hand.community_card
        last = LAST_STREET[game]
        folded_early = self.folded_early
        # The street headers, not the events: a 7th street with no line on it (a community
        # card and nobody able to act) was dealt all the same.
        streets_dealt = [street for street in hand.streets if street <= _SEVENTH]
        players_at_last = len([p for p in self.dealt_in if p not in folded_early])
        burns = len(streets_dealt) if self.profile.burns else 0
        needed = cards_needed(self.dealt_in, folded_early, self.card_count, burns)
        if community is not None and last in streets_dealt and needed <= DECK_SIZE:
            found = self._card_flag(
                "COMMUNITY_CARD",
                river_line(hand),
                None,
                f"a community card was dealt on 7th street, but the deck had enough cards for "
                f"the {players_at_last} players left ({needed} of {DECK_SIZE} needed)",
            )
            for position in self.seven_shown:  # seven cards are one too many only with it
                code, street, line, player, message, expected, actual, _ = self.card_flags[position]
                self.card_flags[position] = (
                    code,
                    street,
                    line,
                    player,
                    message,
                    expected,
                    actual,
                    found,
                )
        if community is None and needed > DECK_SIZE and last in streets_dealt:
            self._card_flag(
                "COMMUNITY_CARD",
                river_line(hand),
                None,
                f"{players_at_last} players reached 7th street: the deck runs short and one "
                "community card should have been dealt",
            )
        # A card line before any other takes the street the replay was on (as the flag of a
        # separate pass over the card lines after the betting would).
        ended_on = self.street
        flagged: list[int] = []
        for code, street, line, player, message, expected, actual, _ in self.card_flags:
            self.street = ended_on if street is None else street
            flagged.append(self.flag(code, line, player, message, expected, actual))
        for position, entry in enumerate(self.card_flags):
            if entry[7] is not None:
                self._follows(flagged[position], flagged[entry[7]])
        self.street = Street.SEVENTH

    # -- actions -------------------------------------------------------------------------

    def _collect(self, action: Action) -> None:
        self.collected[action.player] = self.collected.get(action.player, 0) + (action.amount or 0)

    def _showdown_cards(self, action: Action) -> None:
        """A show or muck line: its cards are checked with the dealt ones (and a show's are the
        player's showdown hand)."""
        if action.cards:
            self._check_shown_cards(action)
            if action.kind is ActionKind.SHOW:
                self.shows.append(action)

    def _no_op(self, action: Action) -> None:
        """An action line that changes nothing in the replay ("does not show")."""

    def _pay(
        self, player: str, amount: int, line: int, what: str, cause: int | None = None
    ) -> int | None:
        """The player puts `amount` in; beyond the stack it is flagged (OVER_STACK, following
        from `cause` or from the player's earlier over-stack): that flag's index, else
        None."""
        left = self.stack[player]
        found = None
        if amount > left:
            found = self.flag(
                "OVER_STACK",
                line,
                player,
                f"{player} {what} {self.money(amount)} but had only {self.money(left)} left",
                self.money(left),
                self.money(amount),
                cause=self.over_stack.get(player, cause),
            )
            self.over_stack.setdefault(player, found)
        left -= amount
        self.stack[player] = left
        self.put_in[player] += amount
        self.street_put[player] += amount
        if left <= 0:
            self.all_in.add(player)
            self.able.discard(player)
        return found

    def _ante(self, action: Action) -> None:
        player = action.player
        if player in self.anted:
            self.flag("ANTE", action.line, player, f"{player} posts the ante twice")
        self.anted.add(player)
        if player not in self.dealt_in:
            self._deal_in(player)
        expected = self.hand.ante or 0
        amount = action.amount or 0
        short_all_in = amount < expected and amount == self.stack[player]
        if amount != expected and not short_all_in:
            found = self.flag(
                "ANTE",
                action.line,
                player,
                f"the ante is {self.money(expected)}, {player} posted {self.money(amount)}",
                self.money(expected),
                self.money(amount),
            )
            self.misstated.append((found, player, amount - expected))
        left = self.stack[player]
        if amount <= left:  # `_pay`, inline (antes are many): nothing to flag
            left -= amount
            self.stack[player] = left
            self.put_in[player] += amount
            if left <= 0:
                self.all_in.add(player)
                self.able.discard(player)
        else:
            self._pay(player, amount, action.line, "posted an ante of")
        self.street_put[player] = 0  # antes are not part of 3rd street's betting

    def _check_antes(self) -> None:
        if not self.hand.ante:
            return
        for player in self.dealt_in:
            if player not in self.anted:
                found = self.flag(
                    "ANTE",
                    self._hand_line(),
                    player,
                    f"{player} was dealt in without posting the ante",
                )
                self.misstated.append((found, player, -self.hand.ante))

    def _bet_size(self) -> int:
        return self.hand.big_bet if self.street in self.big_bet_streets else self.hand.small_bet

    def _betting(self, action: Action) -> None:
        player = action.player
        kind = action.kind
        if kind is _FOLD and action.street < self.last_street:
            self.folded_early.setdefault(player, action.street)
        if player not in self.able:
            self._unable_to_act(action)
            return
        if not self.round_open:
            self._open_round(action.line)
        # Who should act (`_expected_actor`, inline: this runs for every betting line).
        pending = self.pending
        first_action = self.last_actor is None
        expected = self.expected_first if first_action else self.last_actor
        if expected is not None and (not first_action or expected not in pending):
            for candidate in self.clockwise_after[expected]:
                if candidate in pending:
                    expected = candidate
                    break
            else:
                expected = None
        in_turn = True
        if first_action and self.street == self.first_street:
            self._first_third_street_action(action, expected)
        elif player != expected:
            in_turn = self._out_of_turn(action, expected, first_action)
        street_put = self.street_put
        owed = self.current_bet - street_put[player]
        if kind is _CALL:
            amount = action.amount or 0
            left = self.stack[player]
            if owed > 0 and amount == (owed if owed < left else left):
                # A call of what is owed (all-in for less when short): nothing to flag, and
                # never more than the stack. The rest is `_pay`, inline.
                left -= amount
                self.stack[player] = left
                self.put_in[player] += amount
                street_put[player] += amount
                if left <= 0:
                    self.all_in.add(player)
                    self.able.discard(player)
                pending.discard(player)
            else:
                self._call(action, owed)
        elif kind is _CHECK:
            if owed > 0:
                over = self.over_bet
                if over is not None and owed <= over[1]:
                    # owes only what the bet is beyond the limit: follows from that bet
                    self.flag(
                        "CHECK_FACING_BET",
                        action.line,
                        player,
                        f"{player} checks facing a bet of {self.money(self.current_bet)} "
                        f"(owes {self.money(owed)})",
                        cause=over[0],
                    )
                else:
                    found = self.flag(
                        "CHECK_FACING_BET",
                        action.line,
                        player,
                        f"{player} checks facing a bet of {self.money(self.current_bet)} "
                        f"(owes {self.money(owed)})",
                    )
                    self.misstated.append((found, player, -owed))
                    self._paid_short(player, found, owed)
            pending.discard(player)
        elif kind is _FOLD:
            self.folded.add(player)
            pending.discard(player)
            self.reopened_for.discard(player)
            self.able.discard(player)
            if len(self.dealt_in) - len(self.folded) == 1:
                self.hand_over = True
        elif kind is _BRING_IN:
            self._bring_in(action)
        else:
            self._bet_or_raise(action, owed)
        if action.all_in and self.stack[player] > 0:
            self._chips_left_all_in(action)
        if in_turn:
            self.last_actor = player
            self.skipped = None

    def _chips_left_all_in(self, action: Action) -> None:
        """The hand history says the player is all-in, but the stack it seated them with
        leaves chips behind: its stacks and its actions disagree."""
        player = action.player
        left = self.stack[player]
        self.flag(
            "OVER_STACK",
            action.line,
            player,
            f"{player} is all-in by the hand history, but the seat's stack leaves "
            f"{self.money(left)} behind",
            self.money(left),
            self.money(0),
        )

    def _unable_to_act(self, action: Action) -> None:
        """A betting action by a player who folded, is all-in or was not dealt in."""
        player = action.player
        line = action.line
        kind = action.kind
        # Each such action after the first of the player follows from that first one, or from
        # the over-stack that had the replay take the player all-in.
        cause = self.over_stack.get(player, self.acted_unable.get(player))
        if player in self.folded:
            found = self.flag(
                "ACTED_AFTER_FOLD",
                line,
                player,
                f"{player} acts ({kind.value}) after having folded",
                cause=cause,
            )
            self.acted_unable.setdefault(player, found)
        elif player in self.all_in:
            put = self._chips_in(action)
            if put > 0:  # chips the player no longer has: _pay reports OVER_STACK
                over = self._pay(player, put, line, f"{kind.value}s, putting in", cause)
                if over is not None:
                    # A bet the history lets the others answer, which reopens nothing here.
                    self.phantom_bet = self._root(over)
                self.current_bet = max(self.current_bet, self.street_put[player])
            else:
                found = self.flag(
                    "ACTED_AFTER_FOLD",
                    line,
                    player,
                    f"{player} acts ({kind.value}) but is already all-in",
                    cause=cause,
                )
                self.acted_unable.setdefault(player, found)
                if kind is _FOLD and player in self.over_stack:
                    # All-in only by the seat's stack, which the hand history does not keep
                    # to: its fold counts, as the site counted it (the pot is not theirs).
                    self.folded.add(player)
                    if len(self.dealt_in) - len(self.folded) == 1:
                        self.hand_over = True
            self.last_actor = player
        else:
            found = self.flag(
                "OUT_OF_TURN",
                line,
                player,
                f"{player} acts but was not dealt in",
                cause=self.not_dealt.get(player),
            )
            self.not_dealt.setdefault(player, found)
            # The chips still moved as the hand history says: book them, so that a return or
            # a collect later is set against them and the nets stay what the text says.
            put = self._chips_in(action)
            if put > 0:
                self._pay(player, put, line, f"{kind.value}s, putting in", found)

    def _out_of_turn(self, action: Action, expected: str | None, first_action: bool) -> bool:
        """Flag an action by someone other than the player expected to act (`expected` is
        None when nobody is); whether the turn passes on to the player who acted."""
        player = action.player
        kind = action.kind
        if expected is None:
            if not self.pending:
                self.flag(
                    "OUT_OF_TURN",
                    action.line,
                    player,
                    f"{player} acts ({kind.value}) after the betting on {self.street.label} "
                    "was closed",
                    cause=self.phantom_bet,
                )
            return True
        # The turn stays with the skipped player, so that their own action, when it comes, is
        # not reported as out of turn as well.
        if player not in self.pending:
            what = (
                "the betting was already closed"
                if not self.pending
                else f"it was {expected}'s turn"
            )
        elif first_action and self.street != self.first_street:
            what = f"{expected} has the best showing hand and acts first"
        else:
            what = f"it was {expected}'s turn"
        cause = None
        skipped = self.skipped
        if player not in self.pending:
            cause = self.phantom_bet  # answering a bet that reopened nothing here
        elif (
            skipped is not None
            and skipped[0] == expected
            and self._next_after(skipped[2]) == player
        ):
            # The next in seat order after the player who took the skipped player's turn:
            # in order but for that first skip, which the turn waits on.
            cause = skipped[1]
        found = self.flag(
            "OUT_OF_TURN",
            action.line,
            player,
            f"{player} acts ({kind.value}) out of turn: {what}",
            expected,
            player,
            cause=cause,
        )
        if player in self.pending:
            self.skipped = (expected, self._root(found), player)
        return False

    def _chips_in(self, action: Action) -> int:
        """Chips an action puts in, as printed."""
        if action.kind in (ActionKind.RAISE, ActionKind.COMPLETE) and action.to_amount is not None:
            return action.to_amount - self.street_put[action.player]
        if action.kind in (ActionKind.CHECK, ActionKind.FOLD):
            return 0
        return action.amount or 0

    def _first_third_street_action(self, action: Action, bring_in_player: str | None) -> None:
        player = action.player
        if bring_in_player is not None and player != bring_in_player:
            door = self.door.get(bring_in_player)
            theirs = self.door.get(player)
            extreme = "highest" if self.variant.bring_in_highest else "lowest"
            self.flag(
                "BRING_IN_PLAYER",
                action.line,
                player,
                f"bring-in should be {bring_in_player} ({door} is the {extreme} door card), "
                f"was {player}" + (f" ({theirs})" if theirs else ""),
                bring_in_player,
                player,
            )
        if action.kind not in (ActionKind.BRING_IN, ActionKind.COMPLETE):
            self.flag(
                "BRING_IN_PLAYER",
                action.line,
                player,
                f"3rd street must open with the bring-in or a completion, not a {action.kind.value}",
            )

    def _bring_in(self, action: Action) -> None:
        player = action.player
        amount = action.amount or 0
        if self.bets or self.current_bet:
            self.flag(
                "OUT_OF_TURN", action.line, player, f"{player} brings in after the betting started"
            )
        elif not self.hand.stakes_known:
            pass  # nothing to judge its size by
        elif not 0 < amount < self.hand.small_bet and amount != self.stack[player]:
            found = self.flag(
                "BRING_IN_AMOUNT",
                action.line,
                player,
                f"a bring-in must be less than the small bet {self.money(self.hand.small_bet)}, "
                f"{player} brought in for {self.money(amount)}",
                f"< {self.money(self.hand.small_bet)}",
                self.money(amount),
            )
            hand = self.hand
            fixed = self.profile.bring_in_for(hand.currency, hand.small_bet, hand.big_bet)
            if fixed is not None and amount > fixed:
                self._bet_over(found, player, amount - fixed)
        else:
            hand = self.hand
            fixed = self.profile.bring_in_for(hand.currency, hand.small_bet, hand.big_bet)
            if fixed is not None and amount != fixed and amount != self.stack[player]:
                found = self.flag(
                    "BRING_IN_AMOUNT",
                    action.line,
                    player,
                    f"the bring-in at {self.money(self.hand.small_bet)}/"
                    f"{self.money(self.hand.big_bet)} is {self.money(fixed)}, {player} brought "
                    f"in for {self.money(amount)}",
                    self.money(fixed),
                    self.money(amount),
                )
                if amount > fixed:
                    self._bet_over(found, player, amount - fixed)
        self._pay(player, amount, action.line, "brought in for")
        self.current_bet = max(self.current_bet, self.street_put[player])
        self.pending = self.able - {player}
        self.aggressor = player

    def _call(self, action: Action, owed: int) -> None:
        player = action.player
        amount = action.amount or 0
        expected = min(owed, self.stack[player])
        if owed <= 0:
            self.flag(
                "CALL_AMOUNT",
                action.line,
                player,
                f"{player} calls {self.money(amount)} with nothing to call (should check)",
                self.money(0),
                self.money(amount),
            )
        elif amount != expected:
            cause = None
            paid = False
            if self.stack[player] < amount <= owed:
                # A call beyond the seat's stack: the fault is the stack (OVER_STACK), and
                # the call for more than an all-in follows from it.
                cause = self._pay(player, amount, action.line, "called")
                paid = True
            over_bet = self.over_bet
            if cause is None and over_bet is not None and amount == expected - over_bet[1]:
                cause = over_bet[0]  # the call the limit's size asked for
            found = self.flag(
                "CALL_AMOUNT",
                action.line,
                player,
                f"{player} owed {self.money(expected)} to call, put in {self.money(amount)}",
                self.money(expected),
                self.money(amount),
                cause=cause,
            )
            if cause is None:
                self.misstated.append((found, player, amount - expected))
                if amount < expected:
                    self._paid_short(player, found, expected - amount)
                else:
                    self.short_called.setdefault(player, found)  # more than owed: uncalled
            if paid:
                self.pending.discard(player)
                return
        self._pay(player, amount, action.line, "called")
        self.pending.discard(player)

    def _paid_short(self, player: str, index: int, short: int) -> None:
        """The player answered the bet with `short` less than they owed (flag `index`)."""
        self.short_paid.setdefault(player, index)
        bettor = self.aggressor
        if bettor is not None and bettor != player:
            self.short_called.setdefault(bettor, index)
            key = (bettor, self.street)
            self.shortfall[key] = max(self.shortfall.get(key, 0), short)

    def _bet_over(self, index: int, player: str, excess: int) -> None:
        """A bet or bring-in `excess` over what the limit allows (flag `index`)."""
        self.over_bet = (index, excess)
        self.misstated.append((index, player, excess))
        self.short_called.setdefault(player, index)

    def _allowed_sizes(self) -> tuple[int, ...]:
        hand = self.hand
        return fixed_sizes(
            self._bet_size(),
            hand.small_bet,
            hand.big_bet,
            self.double_bet,
            self.big_bet_made,
            self.profile,
            # the first raise of the first street's completion: the house's own size too
            self.house_raise if self.street == self.first_street and self.bets == 1 else None,
        )

    def _bet_or_raise(self, action: Action, owed: int) -> None:
        player = action.player
        kind = action.kind
        before = self.street_put[player]
        if action.to_amount is not None:
            total = action.to_amount
            raise_by = action.raise_by
            if raise_by is not None and raise_by != total - self.current_bet:
                self.flag(
                    "BET_SIZE",
                    action.line,
                    player,
                    f"{player} raises {self.money(raise_by)} to {self.money(total)}, but "
                    f"{self.money(total)} is {self.money(total - self.current_bet)} over the "
                    f"{self.money(self.current_bet)} bet",
                    self.money(total - self.current_bet),
                    self.money(raise_by),
                )
            elif action.amount is not None and action.amount != total - before:
                self.flag(
                    "BET_SIZE",
                    action.line,
                    player,
                    f"{player} puts in {self.money(action.amount)}, but that takes them from "
                    f"{self.money(before)} to {self.money(before + action.amount)} on "
                    f"{self.street.label}, not to the {self.money(total)} the hand says",
                    self.money(total - before),
                    self.money(action.amount),
                )
        else:
            total = before + (action.amount or 0)
        put = total - before
        stack_before = self.stack[player]
        goes_all_in = put >= stack_before
        if not self.structure.exact_sizes:
            self._sized_bet_or_raise(action, owed, total, put, goes_all_in)
            return
        sizes = self._allowed_sizes()
        if kind is ActionKind.COMPLETE:
            targets: tuple[int, ...] = (self.hand.small_bet,)
            what = "complete to"
        elif kind is ActionKind.BET and self.current_bet == 0:
            targets = sizes
            what = "bet"
        else:
            targets = tuple(self.current_bet + size for size in sizes)
            what = "raise to"
            if kind is ActionKind.BET:
                self._bet_facing_a_bet(action)
        # All-in for less than a size the player may bet (the big one of an open pair's
        # two): table stakes allow it; below the smallest size it is a short all-in.
        over = None
        if (
            total not in targets
            and not (goes_all_in and total < max(targets))
            and self.hand.stakes_known  # else nothing to judge its size by
        ):
            allowed = " or ".join(self.money(t) for t in targets)
            over = self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"on {self.street.label} {player} may {what} {allowed}, made it {self.money(total)}",
                allowed,
                self.money(total),
            )
        raising = kind is ActionKind.RAISE or (kind is ActionKind.BET and self.current_bet)
        short = goes_all_in and total < min(targets)
        if total - self.current_bet >= self.hand.big_bet and self.double_bet:
            self.big_bet_made = True
        self._settle_bet(
            action,
            total,
            put,
            raising=bool(raising) and self.current_bet > 0,
            counts_as_bet=not short or self._reopens(total),
            capped=True,
        )
        if over is not None and total > max(targets) and not goes_all_in:
            self._bet_over(over, player, total - max(targets))

    def _sized_bet_or_raise(
        self, action: Action, owed: int, total: int, put: int, goes_all_in: bool
    ) -> None:
        """A bet, completion or raise to `total` in a structure with a range of sizes (spread,
        pot, no limit; see `handlog.rules.structures`): at least the smallest bet or raise
        (an all-in may be less, and then reopens nothing), at most the spread's top or the
        pot; capped where the structure and the profile say so."""
        player = action.player
        kind = action.kind
        rules = self.structure
        profile = self.profile
        hand = self.hand
        least_bet = smallest_bet(rules, hand.small_bet, self._bet_size())
        least, most = raise_range(
            rules,
            current_bet=self.current_bet,
            last_raise=self.last_raise,
            least_bet=least_bet,
            top=hand.big_bet,
            pot=sum(self.put_in.values()),
            owed=owed,
            at_least_last=profile.spread_raise_at_least_last or rules.ceiling is not Ceiling.SPREAD,
        )
        bet_made = self.current_bet >= least_bet
        what = "raise to" if bet_made else ("complete to" if self.current_bet else "bet")
        if kind is ActionKind.BET and self.current_bet:
            self._bet_facing_a_bet(action)
        short = goes_all_in and total < least
        if total < least and not short:
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"on {self.street.label} {player}'s {rules.limit_word} {what} "
                f"{self.money(total)} is less than the minimum {self.money(least)}",
                self.money(least),
                self.money(total),
            )
        elif most is not None and total > most:
            bound = "the pot maximum" if rules.ceiling is Ceiling.POT else "the top of the spread,"
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"on {self.street.label} {player}'s {rules.limit_word} {what} "
                f"{self.money(total)} exceeds {bound} {self.money(most)}",
                self.money(most),
                self.money(total),
            )
        if not short:
            self.last_raise = total - (self.current_bet if bet_made else 0)
        self._settle_bet(
            action,
            total,
            put,
            raising=bet_made,
            counts_as_bet=not short,
            capped=rules.capped and (rules.ceiling is not Ceiling.SPREAD or profile.spread_capped),
        )

    def _bet_facing_a_bet(self, action: Action) -> None:
        player = action.player
        self.flag(
            "BET_SIZE",
            action.line,
            player,
            f"{player} bets facing a bet of {self.money(self.current_bet)}: only a raise is possible",
        )

    def _settle_bet(
        self,
        action: Action,
        total: int,
        put: int,
        *,
        raising: bool,
        counts_as_bet: bool,
        capped: bool,
    ) -> None:
        """What every structure does once a bet, completion or raise to `total` (`put` chips)
        is sized: a raise needs the betting reopened for the raiser; a full one counts
        towards the cap (where `capped`) and reopens the betting, a short all-in does
        neither; then the chips go in."""
        player = action.player
        profile = self.profile
        self.over_bet = None  # a new bet: the calls answer it
        if raising and player not in self.reopened_for:
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"{player} raises although a short all-in did not reopen the betting for them",
            )
        new_bets = self.bets + 1 if counts_as_bet else self.bets
        if (
            capped
            and counts_as_bet
            and new_bets > profile.cap_bets
            and not (not profile.cap_heads_up and self.started_with <= 2)
        ):
            self.flag(
                "RAISE_CAP",
                action.line,
                player,
                f"{player} makes the {ordinal(new_bets)} bet on {self.street.label}; "
                f"the cap is {profile.cap_bets} (a bet and {profile.cap_bets - 1} raises)",
                profile.cap_bets,
                new_bets,
            )
        self._pay(
            player,
            put,
            action.line,
            "bet" if action.kind is ActionKind.BET else "raised, putting in",
        )
        self.current_bet = max(self.current_bet, total)
        self.bets = new_bets
        self.aggressor = player
        if counts_as_bet:
            self.pending = self.able - {player}
            self.reopened_for = set(self.able)
        else:
            # A short all-in raise: the others must still call it, but those who had
            # already acted may not raise again.
            self._short_all_in(player)
        self.pending.discard(player)

    def _short_all_in(self, player: str) -> None:
        """After an all-in raise too short to reopen the betting: everyone still in who owes
        chips must act again, but those who had already acted on the street's last full bet
        or raise (the ones no longer pending) may only call or fold. Before any full bet (a
        bring-in alone, or nothing) nobody has: a short all-in completion leaves the others
        free to complete or raise."""
        if self.bets > 0:
            self.reopened_for -= self.able - self.pending - {player}
        self.pending = {p for p in self._active() if self.street_put[p] < self.current_bet} - {
            player
        }

    def _reopens(self, total: int) -> bool:
        increment = total - self.current_bet
        size = self._bet_size()
        if self.profile.all_in_reopens_at_half_bet:
            return increment * 2 >= size
        return increment >= size

    # -- uncalled bets -------------------------------------------------------------------

    def _uncalled_amount(self) -> tuple[str | None, int]:
        """The player who put in most on this street (the first such in seat order), and how
        much more than anyone else. Among the antes, the antes: when everyone else is all-in
        for less of an ante, the part nobody can match goes back (Full Tilt prints it)."""
        put = self.put_in if self.street is Street.ANTES else self.street_put
        if not put:
            return None, 0
        order = self.order
        amounts = list(map(put.__getitem__, order))
        most = max(amounts)
        index = amounts.index(most)
        top = order[index]
        if len(self.seat_index) == len(order):
            del amounts[index]
            return top, most - max(amounts, default=0)
        # A name seated twice: none of its seats counts as another player.
        return top, most - max((put[p] for p in order if p != top), default=0)

    def _uncalled(self, action: Action) -> None:
        player, due = self._uncalled_amount()
        amount = action.amount or 0
        if player != action.player or amount != due:
            if due == 0:
                message = f"no bet was left uncalled, yet {self.money(amount)} was returned to {action.player}"
            else:
                message = (
                    f"{self.money(due)} of {player}'s bet was uncalled, but "
                    f"{self.money(amount)} was returned to {action.player}"
                )
            short_called = self.short_called
            cause = short_called.get(action.player, short_called.get(player or ""))
            found = self.flag(
                "UNCALLED_RETURN",
                action.line,
                action.player,
                message,
                f"{self.money(due)} to {player}",
                f"{self.money(amount)} to {action.player}",
                # the part of a bet answered with less than it cost, returned by the site
                cause=cause,
            )
            if cause is None and player == action.player:
                self.misstated.append((found, player, due - amount))
        self.returned = True
        self._give_back(action.player, amount)

    def _give_back(self, player: str, amount: int) -> None:
        """An uncalled bet returned: a player all-in with it has chips again and may act on
        (the next streets' betting, when the others were not all-in)."""
        self.stack[player] = left = self.stack.get(player, 0) + amount
        self.put_in[player] = self.put_in.get(player, 0) - amount
        self.street_put[player] = self.street_put.get(player, 0) - amount
        if (
            left > 0
            and player in self.all_in
            and player not in self.folded
            and player in self.dealt_in
        ):
            self.all_in.discard(player)
            self.able.add(player)

    def _check_uncalled_due(self) -> None:
        if self.returned or not any(self.street_put.values()):  # nothing was bet
            return
        player, due = self._uncalled_amount()
        uncalled = self.traits.uncalled_bets
        if due > 0 and player is not None and uncalled is UncalledBets.SILENT:
            # The site returns it without a line: so does the replay.
            self._give_back(player, due)
            self.returned = True
        elif due > 0 and player is not None and uncalled is UncalledBets.LINE:
            cause = self.short_called.get(player)
            found = self.flag(
                "UNCALLED_RETURN",
                self._hand_line(),
                player,
                f"{self.money(due)} of {player}'s bet on {self.street.label} was never called "
                "and should have been returned",
                self.money(due),
                self.money(0),
                cause=cause,
            )
            if cause is None:
                self.misstated.append((found, player, due))
            self.returned = True

    # -- pots ------------------------------------------------------------------------------

    def _pots(self) -> list[Pot]:
        hand = self.hand
        pots = build_pots(self.order, self.put_in, self.folded, self.all_in)
        if not self.traits.prints_total_pot:
            return pots  # nothing printed to compare
        total = sum(self.put_in.values())
        printed_total = hand.total_pot + (hand.rake if self.traits.total_pot_after_rake else 0)
        if total != printed_total:
            self.pot_total_flag = self.flag(
                "POT_TOTAL",
                self._summary_line(),
                None,
                f"the players put in {self.money(total)} in all, the summary says the total "
                f"pot was {self.money(printed_total)}",
                self.money(total),
                self.money(printed_total),
            )
        collected = sum(self.collected.values())
        if collected + hand.rake != printed_total:
            self.rake_flag = self.flag(
                "RAKE",
                self._summary_line(),
                None,
                f"{self.money(collected)} collected plus {self.money(hand.rake)} rake is "
                f"{self.money(collected + hand.rake)}, not the total pot of {self.money(printed_total)}",
                self.money(printed_total - hand.rake),
                self.money(collected),
            )
        if hand.rake < 0 or hand.rake > printed_total:
            self.flag(
                "RAKE",
                self._summary_line(),
                None,
                f"a rake of {self.money(hand.rake)} is impossible",
            )
        return pots

    def _summary_line(self) -> int:
        for event in reversed(self.hand.events):
            if event.street == Street.SUMMARY:
                return event.line
        results = self.hand.results
        return results[0].line - 1 if results else self._hand_line()

    # -- descriptions --------------------------------------------------------------------

    def _check_descriptions(self) -> None:
        if not self.traits.describes_hands:
            return
        community = (self.hand.community_card,) if self.hand.community_card else ()
        for event in self.shows:
            if event.description is None or len(event.cards) + len(community) < 5:
                continue
            if len(event.cards) + len(community) < CARDS_PER_PLAYER[self.game]:
                continue  # shown early (before 7th street): PokerStars describes partial hands
            cards = event.cards + community
            try:
                expected = describe(cards, self.game)
            except ValueError:
                continue  # duplicate cards: reported by the card checks
            if expected != event.description:
                self.street = event.street
                self.flag(
                    "HAND_DESCRIPTION",
                    event.line,
                    event.player,
                    f"{event.player} shows [{format_cards(event.cards)}]: the cards make "
                    f'"{expected}", the site says "{event.description}"',
                    expected,
                    event.description,
                )


_ACTION_HANDLERS: dict[ActionKind, Callable[[_Replayer, Action], None]] = {
    **dict.fromkeys(ActionKind, _Replayer._no_op),  # any kind not named below changes nothing
    ActionKind.ANTE: _Replayer._ante,
    ActionKind.BRING_IN: _Replayer._betting,
    ActionKind.COMPLETE: _Replayer._betting,
    ActionKind.BET: _Replayer._betting,
    ActionKind.RAISE: _Replayer._betting,
    ActionKind.CALL: _Replayer._betting,
    ActionKind.CHECK: _Replayer._betting,
    ActionKind.FOLD: _Replayer._betting,
    ActionKind.UNCALLED_BET_RETURNED: _Replayer._uncalled,
    ActionKind.COLLECT: _Replayer._collect,
    ActionKind.SHOW: _Replayer._showdown_cards,
    ActionKind.MUCK: _Replayer._showdown_cards,
}
"""What each kind of action line does to the replay."""


__all__ = ["Pot", "Replay", "Violation", "describe", "replay"]
