"""Replaying a parsed hand under the rules of its game and house, and checking every line.

`replay(hand, profile)` drives the rules engine's table (`handlog.rules.engine.Table`) with
the hand, line by line: the table says who must act, what they owe, what the limit allows,
when a street is complete; the replay flags what a line does otherwise and applies what it
says happened. Then it builds the pots from what each player put in, decides the winners
from the cards (cards speak) and compares that with what the hand history says was
collected. Every breach is a `Violation`; one does not hide the others, since the replay goes
on from what the hand history says happened.

A hand that breaks no rule is replayed first by a fast path (`handlog.rules.fast`) that gives
up at anything unusual; the full replay (`_Replayer`) then runs, and it is the specification
the fast path must agree with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from handlog.cards import Card, format_cards
from handlog.model import Action, ActionKind, Dealt, Event, Hand, Street
from handlog.money import CURRENCY_SIGNS, format_hundredths, printed_amount
from handlog.rules import fast as _fast
from handlog.rules.awards import Awards, and_list
from handlog.rules.engine import Table
from handlog.rules.profiles import RuleProfile
from handlog.rules.structures import Ceiling
from handlog.rules.tables import (
    CARDS_PER_PLAYER,
    DECK_SIZE,
    LAST_STREET,
    UP_POSITIONS,
    Pot,
    Replay,
    build_pots,
    cards_needed,
    deck_runs_short,
    describe,
    known_cards,
    ordinal,
    river_line,
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


def _judged(violation: Violation, kind: Kind, cause: int | None) -> Violation:
    """`violation` with the kind and the cause given (a new record: `dataclasses.replace`
    reads the fields by their names, a Python call for each, where this is one call)."""
    v = violation
    return Violation(
        v.code, v.street, v.line, v.player, v.message, v.expected, v.actual, v.extra, kind, cause
    )


class _Replayer:
    """One hand replayed on a `Table` (`handlog.rules.engine`): the table says what the rules
    allow and holds the state; the replayer walks the hand's lines, flags what a line does
    that the table does not allow (and why, in a sentence), then applies what the line says
    happened, so that one fault does not hide the others.

    Hands that break a rule (and the few clean ones the fast path leaves alone) come here.
    The card checks run in the same pass over the events as the betting, and the later
    checks read what that pass gathered (shows, early folds) instead of walking the events
    again."""

    # -- observer hooks (the trace, see handlog.rules.trace) ---------------------------------
    # Called with the replayer and each violation as it is flagged, so that a caller can
    # record what the table was at that moment. None (the default, and always in `replay`):
    # no call, no cost. Not a rule: it must not change the replay's state.
    observer: Callable[[_Replayer, Violation], None] | None = None
    # Called with the replayer and each event once the event is replayed (the trace):
    # read-only, like `observer`; None in `replay`.
    step_observer: Callable[[_Replayer, Event], None] | None = None

    def __init__(
        self, hand: Hand, profile: RuleProfile, traits: SiteTraits = PRINTS_EVERYTHING
    ) -> None:
        self.hand = hand
        self.profile = profile
        self.traits = traits
        game = self.game = hand.game
        self.variant = VARIANTS[game]
        self.table = table = Table(
            game,
            hand.structure,
            profile,
            hand.seats,
            hand.small_bet,
            hand.big_bet,
            hand.ante or 0,
            hand.bring_in,
            hand.community_card,
        )
        """The rules engine: the table's state and what the rules allow in it."""
        self.first_street = table.first_street
        self.last_street = table.last_street
        self.up_positions = UP_POSITIONS[game]
        self.first_up = self.up_positions[0]  # the up cards are dealt one after the other
        self.symbol = CURRENCY_SIGNS.get(hand.currency) if hand.currency else None
        self.hundredths = hand.currency is None and hand.chips_in_hundredths
        self.violations: list[Violation] = []
        order = table.order
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
        """Players with a fold line before the last street (whether or not the fold counted),
        and the street they folded on."""
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
        self.returns: list[int] = []
        """The hand's UNCALLED_RETURN flags, judged once its pots are paid (`_judge_returns`)."""
        self.street_returns: dict[str, int] | None = None
        """On a street with such a flag: the chips returned to each player by its lines
        (`_settle_returns`); None on the other streets."""
        self.street_start: dict[str, int] = dict(table.put_in)
        """What each player had put in when the street began."""
        self.return_delta: dict[str, int] = {}
        """The chips each player's lines left in the pot beyond what the rules return to them
        (negative: took out beyond), over the streets with an UNCALLED_RETURN flag."""
        self.pot_total_flag: int | None = None
        """POT_TOTAL for a printed total that differs from the chips put in."""
        self.rake_flag: int | None = None
        """RAKE for collects plus rake that differ from the printed total."""

    # -- reporting -------------------------------------------------------------------------

    def money(self, value: int) -> str:
        if self.hundredths:
            return format_hundredths(value)
        return printed_amount(value, self.symbol)  # `format_amount`, remembered

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
                self.table.street if self.table.street is not Street.ANTES else None,
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
                violations[i] = _judged(violation, kind, root)

    def _judge(self, index: int, kind: Kind) -> None:
        """Give fault `index` (flagged already) and its consequences the kind the evidence
        shows."""
        violations = self.violations
        for i, violation in enumerate(violations):
            if i == index or violation.cause == index:
                violations[i] = _judged(violation, kind, violation.cause)

    def _hand_line(self) -> int:
        return self.hand.source.line if self.hand.source else 0

    # -- driving -------------------------------------------------------------------------

    def run(self) -> Replay:
        hand = self.hand
        handlers = _ACTION_HANDLERS
        dealt = self._dealt
        current = self.table.street  # only _next_street changes it during the loop
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
        if self.street_returns is not None:
            self._settle_returns()
        self._check_antes()
        self._finish_card_checks()
        pots = self._pots()
        awards = Awards(
            hand, self.profile, pots, self.table.seat_index, known_cards(self.shows, hand)
        )
        before_awards = len(self.violations)
        if self.traits.prints_awards or any(self.table.collected.values()):
            expected = awards.check(self)
        else:
            expected = awards.pay(self)
        award_flags = range(before_awards, len(self.violations))
        self._check_descriptions()
        collected = self.table.collected
        put_in = self.table.put_in
        net = {name: collected[name] - put_in[name] for name in self.table.order}
        net_flags = self._check_printed_nets(net)
        if self.pot_total_flag is not None or self.rake_flag is not None or award_flags:
            self._judge_accounting(awards, expected, award_flags, net_flags)
        if self.returns:
            self._judge_returns()
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
                self.table.street = Street.SUMMARY
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
        put_in = self.table.put_in
        violations = self.violations
        pot_total = self.pot_total_flag
        rake = self.rake_flag
        total = sum(put_in.values())
        paid = sum(self.table.collected.values())
        actual = {p: v for p, v in self.table.collected.items() if v}
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
            elif self.table.collected.get(player, 0) != expected.get(player, 0):
                self._judge(index, Kind.MIS_SPLIT)  # neither as its lines nor as the rules

    def _put_as_owed(self) -> dict[str, int] | None:
        """What each player put in had the chips that betting faults misstate
        (`misstated`) been as owed; None when no fault misstates any."""
        if not self.misstated:
            return None
        put_in = dict(self.table.put_in)
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
            pots = build_pots(self.table.order, as_owed, self.table.folded, self.table.all_in)
            if Awards(hand, self.profile, pots, self.table.seat_index, cards).pays_with_rake(
                hand.rake, actual
            ):
                return min(i for i, _, _ in self.misstated)
        if not self.short_paid:
            return None
        all_in = self.table.all_in | set(self.short_paid)
        for returned in (False, True):
            put_in = dict(self.table.put_in)
            paid = dict(actual)
            if returned:
                for (bettor, _), short in self.shortfall.items():
                    put_in[bettor] -= short
                    paid[bettor] = paid.get(bettor, 0) - short
                    if not paid[bettor]:
                        del paid[bettor]
            pots = build_pots(self.table.order, put_in, self.table.folded, all_in)
            awards = Awards(hand, self.profile, pots, self.table.seat_index, cards)
            if awards.pays_with_rake(hand.rake, paid):
                return min(self.short_paid.values())
        return None

    def _results_words(self, expected: dict[str, int]) -> str:
        """Why a pot paid other than by the rules is only the history's inconsistency: the
        site's own results for the players concerned, which pay as the rules do."""
        printed = self._printed_nets()
        wrong = sorted(
            p
            for p in set(expected) | set(self.table.collected)
            if self.table.collected.get(p, 0) != expected.get(p, 0) and p in printed
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
        collected = self.table.collected
        wrong = [
            p for p in set(expected) | set(collected) if collected.get(p, 0) != expected.get(p, 0)
        ]
        if wrong and all(
            p in printed and printed[p] == expected.get(p, 0) - self.table.put_in.get(p, 0)
            for p in wrong
        ):
            return Kind.INCONSISTENT
        return Kind.MIS_SPLIT

    def _signed(self, amount: int) -> str:
        return ("+" if amount >= 0 else "-") + self.money(abs(amount))

    # -- streets ---------------------------------------------------------------------------

    def _next_street(self, street: Street, line: int) -> None:
        table = self.table
        if table.street >= table.first_street:
            self._close_round(last=False, line=line)
        if self.street_returns is not None:
            self._settle_returns()
        self.street_start = dict(table.put_in)
        table.next_street(street)
        if street > _SEVENTH:  # showdown or summary
            return
        self.phantom_bet = None
        self.skipped = None
        self.over_bet = None
        if table.hand_over and street <= table.last_street:
            self.flag(
                "ROUND_INCOMPLETE",
                line,
                None,
                f"{street.label} is dealt although only one player is left in the hand",
            )

    def _close_round(self, last: bool, line: int = 0) -> None:
        """At the end of a street: was everyone who had to act heard?"""
        table = self.table
        if table.street < table.first_street or table.street > _SEVENTH:
            return
        waiting = table.waiting()
        if waiting:
            names = ", ".join(waiting)
            found = self.flag(
                "ROUND_INCOMPLETE",
                line or self._hand_line(),
                waiting[0],
                f"betting on {table.street.label} ended before {names} acted",
            )
            for player in waiting:  # a call the lines left out, if the site counted one
                owed = table.current_bet - table.street_put[player]
                if owed > 0:
                    self.misstated.append((found, player, -owed))
        self._check_uncalled_due()

    # -- dealing -------------------------------------------------------------------------

    def _dealt(self, event: Dealt) -> None:
        player = event.player
        new = event.new
        # What the betting needs: who is dealt in, the door cards and the up cards (for the
        # bring-in and the first actor), by the street the replay is on.
        table = self.table
        first_street = table.first_street
        if table.street == first_street:
            if player not in table.dealt_set:
                table.deal_in(player)
            if new:
                table.deal_door(player, new[-1])
        elif new:
            position = event.street - 1
            if table.face_up[position]:
                table.deal_up(player, position, new[-1])
        # The card checks, by the street the line is on. Nearly every line deals one card
        # never seen before, after repeating the player's earlier cards as they were seen: that
        # case is settled here; anything else goes to `_check_dealt_cards`, which flags.
        street = event.street
        row = self.slots.get(player)
        if len(new) == 1 and row is not None:
            card = new[0]
            if street == first_street:
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
                if street == first_street:
                    self.up_count[player] = 1
                elif table.face_up[position]:
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
        if street == self.table.first_street:
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
        if self.table.face_up[position]:
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
        players_at_last = len([p for p in self.table.dealt_in if p not in folded_early])
        burns = len(streets_dealt) if self.profile.burns else 0
        needed = cards_needed(self.table.dealt_in, folded_early, self.card_count, burns)
        short = deck_runs_short(self.table.dealt_in, folded_early, self.card_count, burns)
        if community is not None and last in streets_dealt and not short:
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
        if community is None and short and last in streets_dealt:
            self._card_flag(
                "COMMUNITY_CARD",
                river_line(hand),
                None,
                f"{players_at_last} players reached 7th street: the deck runs short and one "
                "community card should have been dealt",
            )
        # A card line before any other takes the street the replay was on (as the flag of a
        # separate pass over the card lines after the betting would).
        ended_on = self.table.street
        flagged: list[int] = []
        for code, street, line, player, message, expected, actual, _ in self.card_flags:
            self.table.street = ended_on if street is None else street
            flagged.append(self.flag(code, line, player, message, expected, actual))
        for position, entry in enumerate(self.card_flags):
            if entry[7] is not None:
                self._follows(flagged[position], flagged[entry[7]])
        self.table.street = Street.SEVENTH

    # -- actions -------------------------------------------------------------------------

    def _collect(self, action: Action) -> None:
        self.table.collect(action.player, action.amount or 0)

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
        """The player puts `amount` in; beyond the stack it is flagged first (`_over_stack`):
        that flag's index, else None."""
        found = self._over_stack(player, amount, line, what, cause)
        self.table.pay(player, amount)
        return found

    def _over_stack(
        self, player: str, amount: int, line: int, what: str, cause: int | None = None
    ) -> int | None:
        """Flag `amount` put in beyond the player's stack (OVER_STACK, following from `cause`
        or from the player's earlier over-stack): that flag's index, else None."""
        left = self.table.stack[player]
        if amount <= left:
            return None
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
        return found

    def _ante(self, action: Action) -> None:
        player = action.player
        table = self.table
        if player in self.anted:
            self.flag("ANTE", action.line, player, f"{player} posts the ante twice")
        self.anted.add(player)
        if player not in table.dealt_set:
            table.deal_in(player)
        expected = self.hand.ante or 0
        amount = action.amount or 0
        short_all_in = amount < expected and amount == table.stack[player]
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
        self._over_stack(player, amount, action.line, "posted an ante of")
        table.post_ante(player, amount)

    def _check_antes(self) -> None:
        if not self.hand.ante:
            return
        for player in self.table.dealt_in:
            if player not in self.anted:
                found = self.flag(
                    "ANTE",
                    self._hand_line(),
                    player,
                    f"{player} was dealt in without posting the ante",
                )
                self.misstated.append((found, player, -self.hand.ante))

    def _betting(self, action: Action) -> None:
        player = action.player
        kind = action.kind
        table = self.table
        if kind is _FOLD and action.street < table.last_street:
            self.folded_early.setdefault(player, action.street)
        if player not in table.able:
            self._unable_to_act(action)
            return
        if not table.round_open:
            table.open_round()
        first_action = table.last_actor is None
        expected = table.to_act()  # who should act
        in_turn = True
        if first_action and table.street == table.first_street:
            self._first_third_street_action(action, expected)
        elif player != expected:
            in_turn = self._out_of_turn(action, expected, first_action)
        owed = table.current_bet - table.street_put[player]
        if kind is _CALL:
            amount = action.amount or 0
            left = table.stack[player]
            if owed > 0 and amount == (owed if owed < left else left):
                # A call of what is owed (all-in for less when short): nothing to flag, and
                # never more than the stack.
                table.call(player, amount)
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
                        f"{player} checks facing a bet of {self.money(table.current_bet)} "
                        f"(owes {self.money(owed)})",
                        cause=over[0],
                    )
                else:
                    found = self.flag(
                        "CHECK_FACING_BET",
                        action.line,
                        player,
                        f"{player} checks facing a bet of {self.money(table.current_bet)} "
                        f"(owes {self.money(owed)})",
                    )
                    self.misstated.append((found, player, -owed))
                    self._paid_short(player, found, owed)
            table.check(player)
        elif kind is _FOLD:
            table.fold(player)
        elif kind is _BRING_IN:
            self._bring_in(action)
        else:
            self._bet_or_raise(action, owed)
        if action.all_in and table.stack[player] > 0:
            self._chips_left_all_in(action)
        if in_turn:
            table.acted(player)
            self.skipped = None

    def _chips_left_all_in(self, action: Action) -> None:
        """The hand history says the player is all-in, but the stack it seated them with
        leaves chips behind: its stacks and its actions disagree."""
        player = action.player
        left = self.table.stack[player]
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
        if player in self.table.folded:
            found = self.flag(
                "ACTED_AFTER_FOLD",
                line,
                player,
                f"{player} acts ({kind.value}) after having folded",
                cause=cause,
            )
            self.acted_unable.setdefault(player, found)
        elif player in self.table.all_in:
            put = self._chips_in(action)
            if put > 0:  # chips the player no longer has: _pay reports OVER_STACK
                over = self._pay(player, put, line, f"{kind.value}s, putting in", cause)
                if over is not None:
                    # A bet the history lets the others answer, which reopens nothing here.
                    self.phantom_bet = self._root(over)
                self.table.match_to(player)
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
                    self.table.fold_out(player)
            self.table.acted(player)
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
            if not self.table.pending:
                self.flag(
                    "OUT_OF_TURN",
                    action.line,
                    player,
                    f"{player} acts ({kind.value}) after the betting on {self.table.street.label} "
                    "was closed",
                    cause=self.phantom_bet,
                )
            return True
        # The turn stays with the skipped player, so that their own action, when it comes, is
        # not reported as out of turn as well.
        if player not in self.table.pending:
            what = (
                "the betting was already closed"
                if not self.table.pending
                else f"it was {expected}'s turn"
            )
        elif first_action and self.table.street != self.table.first_street:
            what = f"{expected} has the best showing hand and acts first"
        else:
            what = f"it was {expected}'s turn"
        cause = None
        skipped = self.skipped
        if player not in self.table.pending:
            cause = self.phantom_bet  # answering a bet that reopened nothing here
        elif (
            skipped is not None
            and skipped[0] == expected
            and self.table.next_after(skipped[2]) == player
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
        if player in self.table.pending:
            self.skipped = (expected, self._root(found), player)
        return False

    def _chips_in(self, action: Action) -> int:
        """Chips an action puts in, as printed."""
        if action.kind in (ActionKind.RAISE, ActionKind.COMPLETE) and action.to_amount is not None:
            return action.to_amount - self.table.street_put[action.player]
        if action.kind in (ActionKind.CHECK, ActionKind.FOLD):
            return 0
        return action.amount or 0

    def _first_third_street_action(self, action: Action, bring_in_player: str | None) -> None:
        player = action.player
        if bring_in_player is not None and player != bring_in_player:
            door = self.table.door.get(bring_in_player)
            theirs = self.table.door.get(player)
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
        if self.table.bets or self.table.current_bet:
            self.flag(
                "OUT_OF_TURN", action.line, player, f"{player} brings in after the betting started"
            )
        elif not self.hand.stakes_known:
            pass  # nothing to judge its size by
        elif not 0 < amount < self.hand.small_bet and amount != self.table.stack[player]:
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
            if fixed is not None and amount != fixed and amount != self.table.stack[player]:
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
        self._over_stack(player, amount, action.line, "brought in for")
        self.table.post_bring_in(player, amount)

    def _call(self, action: Action, owed: int) -> None:
        player = action.player
        amount = action.amount or 0
        expected = min(owed, self.table.stack[player])
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
            if self.table.stack[player] < amount <= owed:
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
                self.table.check(player)  # the chips are in: the turn is taken
                return
        self._over_stack(player, amount, action.line, "called")
        self.table.call(player, amount)

    def _paid_short(self, player: str, index: int, short: int) -> None:
        """The player answered the bet with `short` less than they owed (flag `index`)."""
        self.short_paid.setdefault(player, index)
        bettor = self.table.aggressor
        if bettor is not None and bettor != player:
            self.short_called.setdefault(bettor, index)
            key = (bettor, self.table.street)
            self.shortfall[key] = max(self.shortfall.get(key, 0), short)

    def _bet_over(self, index: int, player: str, excess: int) -> None:
        """A bet or bring-in `excess` over what the limit allows (flag `index`)."""
        self.over_bet = (index, excess)
        self.misstated.append((index, player, excess))
        self.short_called.setdefault(player, index)

    def _bet_or_raise(self, action: Action, owed: int) -> None:
        player = action.player
        kind = action.kind
        before = self.table.street_put[player]
        if action.to_amount is not None:
            total = action.to_amount
            raise_by = action.raise_by
            if raise_by is not None and raise_by != total - self.table.current_bet:
                self.flag(
                    "BET_SIZE",
                    action.line,
                    player,
                    f"{player} raises {self.money(raise_by)} to {self.money(total)}, but "
                    f"{self.money(total)} is {self.money(total - self.table.current_bet)} over the "
                    f"{self.money(self.table.current_bet)} bet",
                    self.money(total - self.table.current_bet),
                    self.money(raise_by),
                )
            elif action.amount is not None and action.amount != total - before:
                self.flag(
                    "BET_SIZE",
                    action.line,
                    player,
                    f"{player} puts in {self.money(action.amount)}, but that takes them from "
                    f"{self.money(before)} to {self.money(before + action.amount)} on "
                    f"{self.table.street.label}, not to the {self.money(total)} the hand says",
                    self.money(total - before),
                    self.money(action.amount),
                )
        else:
            total = before + (action.amount or 0)
        if total < before:
            # A raise "to" less than the player has in on this street already: chips do not
            # come back out of the pot by a raise, so it puts nothing in (the nets stay the
            # text's chips), and the line contradicts the player's own bets.
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"{player} raises to {self.money(total)}, less than the "
                f"{self.money(before)} they have in on {self.table.street.label} already: "
                "nothing more goes in",
                f"more than {self.money(before)}",
                self.money(total),
            )
            total = before
        put = total - before
        stack_before = self.table.stack[player]
        goes_all_in = put >= stack_before
        if not self.table.exact_sizes:
            self._sized_bet_or_raise(action, total, put, goes_all_in)
            return
        table = self.table
        kind = table.kind_of(kind)
        targets = table.targets_of(kind)
        if kind is ActionKind.COMPLETE:
            what = "complete to"
        elif kind is ActionKind.BET and table.current_bet == 0:
            what = "bet"
        else:
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
                f"on {table.street.label} {player} may {what} {allowed}, made it {self.money(total)}",
                allowed,
                self.money(total),
            )
        raising = kind is ActionKind.RAISE or (kind is ActionKind.BET and table.current_bet)
        self._settle_bet(
            action,
            total,
            put,
            raising=bool(raising) and table.current_bet > 0,
            counts_as_bet=table.counts_as_bet(total, min(targets), goes_all_in),
        )
        if over is not None and total > max(targets) and not goes_all_in:
            self._bet_over(over, player, total - max(targets))

    def _sized_bet_or_raise(self, action: Action, total: int, put: int, goes_all_in: bool) -> None:
        """A bet, completion or raise to `total` in a structure with a range of sizes (spread,
        pot, no limit; see `handlog.rules.structures`): at least the smallest bet or raise
        (an all-in may be less, and then reopens nothing), at most the spread's top or the
        pot; capped where the structure and the profile say so (`Table.cap_allows`)."""
        player = action.player
        kind = action.kind
        table = self.table
        rules = table.structure
        least, most = table.raise_range(player)
        bet_made = table.current_bet >= table.least_bet()
        what = "raise to" if bet_made else ("complete to" if table.current_bet else "bet")
        if kind is ActionKind.BET and table.current_bet:
            self._bet_facing_a_bet(action)
        short = goes_all_in and total < least
        if total < least and not short:
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"on {table.street.label} {player}'s {rules.limit_word} {what} "
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
                f"on {table.street.label} {player}'s {rules.limit_word} {what} "
                f"{self.money(total)} exceeds {bound} {self.money(most)}",
                self.money(most),
                self.money(total),
            )
        self._settle_bet(
            action,
            total,
            put,
            raising=table.current_bet > 0,
            counts_as_bet=table.counts_as_bet(total, least, goes_all_in),
        )

    def _bet_facing_a_bet(self, action: Action) -> None:
        player = action.player
        self.flag(
            "BET_SIZE",
            action.line,
            player,
            f"{player} bets facing a bet of {self.money(self.table.current_bet)}: only a raise is possible",
        )

    def _settle_bet(
        self,
        action: Action,
        total: int,
        put: int,
        *,
        raising: bool,
        counts_as_bet: bool,
    ) -> None:
        """What every structure does once a bet, completion or raise to `total` (`put` chips)
        is sized: a raise needs the betting reopened for the raiser; a full one counts
        towards the cap and reopens the betting, a short all-in does neither (`Table.bet`);
        then the chips go in."""
        player = action.player
        profile = self.profile
        table = self.table
        self.over_bet = None  # a new bet: the calls answer it
        if raising and table.betting_closed(player):
            self.flag(
                "BET_SIZE",
                action.line,
                player,
                f"{player} raises although a short all-in did not reopen the betting for them",
            )
        new_bets = table.bets + table.bets_counted(total, counts_as_bet)
        if counts_as_bet and not table.cap_allows(new_bets):
            self.flag(
                "RAISE_CAP",
                action.line,
                player,
                f"{player} makes the {ordinal(new_bets)} bet on {table.street.label}; "
                f"the cap is {profile.cap_bets} (a bet and {profile.cap_bets - 1} raises)",
                profile.cap_bets,
                new_bets,
            )
        self._over_stack(
            player,
            put,
            action.line,
            "bet" if action.kind is ActionKind.BET else "raised, putting in",
        )
        table.bet(player, total, put, counts_as_bet)

    # -- uncalled bets -------------------------------------------------------------------

    def _uncalled(self, action: Action) -> None:
        player, due = self.table.uncalled()
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
            self._returned_wrongly(found)
        if self.street_returns is not None:
            returns = self.street_returns
            returns[action.player] = returns.get(action.player, 0) + amount
        self.table.return_uncalled(action.player, amount)

    def _check_uncalled_due(self) -> None:
        if self.table.returned or not any(self.table.street_put.values()):  # nothing was bet
            return
        player, due = self.table.uncalled()
        uncalled = self.traits.uncalled_bets
        if due > 0 and player is not None and uncalled is UncalledBets.SILENT:
            # The site returns it without a line: so does the replay.
            self.table.return_uncalled(player, due)
        elif due > 0 and player is not None and uncalled is UncalledBets.LINE:
            cause = self.short_called.get(player)
            found = self.flag(
                "UNCALLED_RETURN",
                self._hand_line(),
                player,
                f"{self.money(due)} of {player}'s bet on {self.table.street.label} was never called "
                "and should have been returned",
                self.money(due),
                self.money(0),
                cause=cause,
            )
            if cause is None:
                self.misstated.append((found, player, due))
            self._returned_wrongly(found)
            self.table.returned = True

    def _returned_wrongly(self, found: int) -> None:
        """An UNCALLED_RETURN flag: the street's returns are counted, to tell at its end what
        the lines left in the pot (`_settle_returns`)."""
        self.returns.append(found)
        if self.street_returns is None:
            returns: dict[str, int] = {}
            # Returns printed on this street before the flag count too.
            line = self.violations[found].line
            for event in self.hand.events:
                if (
                    type(event) is Action
                    and event.kind is ActionKind.UNCALLED_BET_RETURNED
                    and event.street == self.table.street
                    and event.line < line
                ):
                    returns[event.player] = returns.get(event.player, 0) + (event.amount or 0)
            self.street_returns = returns

    def _settle_returns(self) -> None:
        """At the end of a street with an UNCALLED_RETURN flag: what each player's lines left
        in the pot beyond what the rules return (`return_delta`). The bets are what each
        put in on the street before any return; the rules leave each at most the second
        biggest (`tables.uncalled_due`), whatever the lines returned, and wherever."""
        put_in = self.table.put_in
        start = self.street_start
        returns = self.street_returns or {}
        put = {p: put_in[p] - start.get(p, 0) for p in self.table.order}
        bets = sorted((put[p] + returns.get(p, 0) for p in put), reverse=True)
        matched = bets[1] if len(bets) > 1 else 0
        delta = self.return_delta
        for p, chips in put.items():
            beyond = chips - min(chips + returns.get(p, 0), matched)
            if beyond:
                delta[p] = delta.get(p, 0) + beyond
        self.street_returns = None

    def _judge_returns(self) -> None:
        """The kind of each UNCALLED_RETURN fault (RULES.md's verdicts), from where the money
        went. An inconsistent history when every player ends as the rules have them (a
        return printed out of its place, before its bet, or short with the rest paid back
        with the pot), or when the lines' chips do not add up and the site paid the pots as
        if the bet had gone back as due (the printed amount contradicts the results). A
        mis-split when money moved from one player to another by the return (to the wrong
        player, too much or too little, the pots paid with it). A flag that follows from
        another fault keeps that one's kind."""
        table = self.table
        delta = self.return_delta
        kind = Kind.INCONSISTENT
        if any(delta.values()):
            as_due = {p: v - delta.get(p, 0) for p, v in table.put_in.items()}
            pots = build_pots(table.order, as_due, table.folded, table.all_in)
            awards = Awards(
                self.hand, self.profile, pots, table.seat_index, known_cards(self.shows, self.hand)
            )
            actual = {p: v for p, v in table.collected.items() if v}
            less = {p: actual.get(p, 0) - delta.get(p, 0) for p in actual.keys() | delta.keys()}
            less = {p: v for p, v in less.items() if v}
            paid_as_due = sum(delta.values()) != 0 and awards.pays_with_rake(self.hand.rake, actual)
            nets_as_due = min(less.values(), default=0) >= 0 and awards.pays_with_rake(
                self.hand.rake, less
            )
            if not (paid_as_due or nets_as_due):
                kind = Kind.MIS_SPLIT
        for index in self.returns:
            if self.violations[index].cause is None:
                self._judge(index, kind)

    # -- pots ------------------------------------------------------------------------------

    def _pots(self) -> list[Pot]:
        hand = self.hand
        pots = self.table.pots()
        if not self.traits.prints_total_pot:
            return pots  # nothing printed to compare
        total = sum(self.table.put_in.values())
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
        collected = sum(self.table.collected.values())
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
                self.table.street = event.street
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
