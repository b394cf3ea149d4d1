"""Who should have won each pot, by the rules and the cards, and how that compares with what
the hand history says was collected (the mis-split checks)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from handlog.cards import Card
from handlog.model import Action, ActionKind, Game, Hand, Street
from handlog.rules import evaluate
from handlog.rules.profiles import RuleProfile
from handlog.rules.tables import (
    Pot,
    after_rake,
    award,
)
from handlog.rules.variants import VARIANTS


class Awards:
    """Who should have won each pot, by the cards, and how that compares with the collects."""

    def __init__(
        self,
        hand: Hand,
        profile: RuleProfile,
        pots: list[Pot],
        seat_index: dict[str, int],
        cards: dict[str, tuple[Card, ...]],
    ) -> None:
        self.hand = hand
        self.profile = profile
        self.pots = pots
        self.game = hand.game
        self.seat_index = seat_index
        self.community = (self.hand.community_card,) if self.hand.community_card else ()
        self.cards = cards
        """Each player's cards as shown at showdown (`known_cards`)."""
        self.hands: dict[str, tuple[Card, ...] | None] = {}
        self.high_winners: set[str] = set()
        """Players awarded (a share of) a pot's high half, or of a whole pot (`Replay.won_high`)."""
        self.low_winners: set[str] = set()
        """Players awarded (a share of) the low half of a hi/lo pot (`Replay.won_low`)."""
        self.shares: list[dict[str, int]] = []
        """Each pot's shares by the rules, as `expected` last worked them out."""
        self.ineligible: list[tuple[int, int]] = []
        """The NOT_ELIGIBLE flags (their index) and the amount each collect took."""

    def expected(self, distributable: list[int]) -> tuple[dict[str, int], list[Callable[[], str]]]:
        """What each player should collect from the pots after rake (`distributable`), and
        for each pot a function giving the reason in words (who should win it, and with
        what)."""
        expected: dict[str, int] = {}
        notes: list[Callable[[], str]] = []
        self.shares = []
        for pot, amount in zip(self.pots, distributable, strict=True):
            shares, words = self._split(pot, amount)
            notes.append(words)
            self.shares.append(shares)
            for player, share in shares.items():
                expected[player] = expected.get(player, 0) + share
        return expected, notes

    def by_pot(self, distributable: list[int]) -> list[tuple[dict[str, int], str]]:
        """Each pot's expected shares after rake (`distributable`), with the reason in words
        ("the pot goes to Hero with a flush, Queen high"): what a replayer shows of the
        awards. The same split as `expected`, pot by pot."""
        split = [
            self._split(pot, amount) for pot, amount in zip(self.pots, distributable, strict=True)
        ]
        return [(shares, words()) for shares, words in split]

    def pays_with_rake(self, rake: int, actual: dict[str, int]) -> bool:
        """Whether the collects `actual` (players paid something) are what the rules pay
        with a rake of `rake` taken from the pots (`tables.after_rake`): then a printed rake
        or total that disagrees is what is off, not the split."""
        amounts = [pot.amount for pot in self.pots]
        taken = rake if self.profile.rake_before_split else 0
        if taken > sum(amounts):
            return False
        shares = self.shares
        expected, _ = self.expected(after_rake(amounts, taken))
        self.shares = shares  # the pots' shares as the rules paid them, for the messages
        return {p: v for p, v in expected.items() if v} == actual

    def pay(self, state: Any) -> dict[str, int]:
        """The pots paid by the rules into the table's `collected`, for a hand that does not say
        who collected (`SiteTraits.prints_awards`): nothing to compare, nothing flagged but
        a printed count of pots that differs from the pots built."""
        self.state = state
        table = state.table
        table.street = Street.SHOWDOWN
        expected, _ = self.expected(self._distributable())
        for player, amount in expected.items():
            table.collect(player, amount)
        return expected

    def check(self, state: Any) -> dict[str, int]:
        """Compare the expected awards with the collects, flagging on `state`."""
        self.state = state
        hand = self.hand
        state.table.street = Street.SHOWDOWN
        expected, notes = self.expected(self._distributable())
        actual = {p: v for p, v in state.table.collected.items() if v}
        if actual == {p: v for p, v in expected.items() if v}:
            return expected
        line = next(
            (e.line for e in hand.events if type(e) is Action and e.kind is ActionKind.COLLECT),
            state._summary_line(),
        )
        if self._ineligible_collects():
            return expected
        should = {p for p, v in expected.items() if v}
        got = set(actual)
        wrong = {p for p in should | got if actual.get(p, 0) != expected.get(p, 0)}
        story = self._pot_story(wrong, notes)
        if should != got:
            low_case = self._low_not_qualified(got, should)
            if low_case:
                state.flag(
                    "LOW_NOT_QUALIFIED",
                    line,
                    low_case,
                    f"{low_case} was paid a low half, but no hand qualified for low "
                    f"({VARIANTS[self.hand.game].low_qualifier} or better): {story}",
                    None,
                    low_case,
                )
            else:
                state.flag(
                    "WRONG_WINNER",
                    line,
                    and_list(sorted(got - should)) or None,
                    f"{story}; the hand history pays {paid_words(actual, wrong, state)}",
                    pay_list(expected, state),
                    pay_list(actual, state),
                )
            return expected
        differences = [abs(actual.get(p, 0) - expected.get(p, 0)) for p in wrong]
        code = "ODD_CHIP" if max(differences) == 1 and sum(differences) == 2 else "SPLIT_AMOUNT"
        state.flag(
            code,
            line,
            None,
            f"{story}; the rules pay {pay_words(expected, state, wrong)}, the hand history "
            f"pays {pay_words(actual, state, wrong)}",
            pay_list(expected, state),
            pay_list(actual, state),
        )
        return expected

    def _pot_story(self, wrong: set[str], notes: list[Callable[[], str]]) -> str:
        """The pots a wrong payment is about, each named with its amount and the players in
        it, and who should win it with what: those the rules give a share of to a player
        paid wrong; else those such a player is in; else every pot."""
        pots = self.pots
        amounts = self.distributable()
        concerned = [i for i, shares in enumerate(self.shares) if wrong & set(shares)]
        if not concerned:
            concerned = [i for i, pot in enumerate(pots) if wrong & set(pot.eligible)]
        if not concerned:
            concerned = list(range(len(pots)))
        money = self.state.money
        return (
            "; ".join(
                f"{pot_label(i, len(pots))} ({money(amounts[i])}"
                + (" after rake" if amounts[i] != pots[i].amount else "")
                + f", {in_pot_words(pots[i].eligible)}): {notes[i]()}"
                for i in concerned
            )
            or "no pot was built: nobody put chips in"
        )

    def _ineligible_collects(self) -> bool:
        """Flag collects by players with no claim on the pot named ("main pot", "side
        pot-2") or, for plain "pot", on any pot."""
        state = self.state
        found = False
        for event in self.hand.events:
            if type(event) is not Action or event.kind is not ActionKind.COLLECT:
                continue
            player, index = event.player, event.pot
            if index is not None and index < len(self.pots):
                pots = [self.pots[index]]
                eligible = in_pot_words(self.pots[index].eligible)
                label = f"{pot_label(index, len(self.pots))} ({eligible})"
            else:
                pots = self.pots
                label = "the pot"
            if any(player in pot.eligible for pot in pots):
                continue
            if player in state.table.folded:
                why = f"{player} folded"
            elif index:
                why = f"{player} was all-in for less and has no part in it"
            elif state.table.put_in.get(player, 0) > 0:
                why = (
                    f"{player} put in {state.money(state.table.put_in[player])}, short of what "
                    "it takes, without being all-in"
                )
            else:
                why = f"{player} put nothing into it"
            index = state.flag(
                "NOT_ELIGIBLE",
                event.line,
                player,
                f"{player} collected {state.money(event.amount or 0)} from {label}, but {why}",
                None,
                state.money(event.amount or 0),
            )
            self.ineligible.append((index, event.amount or 0))
            found = True
        return found

    def _distributable(self) -> list[int]:
        """Each pot after rake (see `distributable`), flagging a printed count of pots that
        differs from the pots built."""
        hand = self.hand
        printed = [hand.main_pot, *hand.side_pots] if hand.main_pot is not None else None
        if printed is not None and self.pots and len(printed) != len(self.pots):
            self.state.flag(
                "POT_TOTAL",
                self.state._summary_line(),
                None,
                f"the summary prints {len(printed)} pots, but the contributions make {len(self.pots)}",
                len(self.pots),
                len(printed),
            )
        return self.distributable()

    def distributable(self) -> list[int]:
        """Each pot after rake (`pots_after_rake`)."""
        return pots_after_rake(self.hand, self.profile, [pot.amount for pot in self.pots])

    def _hand(self, player: str) -> tuple[Card, ...] | None:
        """The cards a player's showdown hand is made of, or None when they cannot be
        evaluated (fewer than five known, too many, or a card twice: the card checks report
        those)."""
        if player in self.hands:  # asked for again by each pot and each check
            return self.hands[player]
        cards = self.cards.get(player, ())
        if len(cards) + len(self.community) <= 7:
            cards = cards + self.community
        if not 5 <= len(cards) <= 7 or len(set(cards)) != len(cards):
            self.hands[player] = None
            return None
        self.hands[player] = cards
        return cards

    def _contenders(self, pot: Pot) -> list[str]:
        """Eligible players still claiming the pot: with one left, that one; otherwise those
        whose cards are known (a player who mucks at showdown gives the pot up)."""
        if len(pot.eligible) == 1:
            return list(pot.eligible)
        return [p for p in pot.eligible if self._hand(p) is not None]

    def _split(self, pot: Pot, amount: int) -> tuple[dict[str, int], Callable[[], str]]:
        """Expected shares of one pot, and a function giving the reason in words (only
        called when a flag needs it: describing hands costs more than ranking them)."""
        players = self._contenders(pot)
        if not players:
            return {}, lambda: "nobody shows a hand that can be read, so nobody wins it"
        if len(players) == 1:
            winner = players[0]
            self.high_winners.add(winner)
            alone = len(pot.eligible) == 1
            return (
                {winner: amount},
                lambda: (
                    f"{winner} should win it uncontested"
                    if alone
                    else f"{winner} should win it, the only one in it to show a hand"
                ),
            )
        hands: dict[str, tuple[Card, ...]] = {p: self._hand(p) for p in players}  # type: ignore[misc]
        game = self.game
        variant = VARIANTS[game]
        shares, high_winners, low_winners = split_pot(
            amount, players, hands, game, self.profile, self.seat_index.__getitem__
        )
        self.high_winners.update(high_winners)  # a low game: the pot's winners count as "high"
        # The words are module functions, not functions nested here: compiled, a nested
        # function that a lambda calls and the environment they share make a reference cycle
        # for every pot split (garbage the cycle collector has to find).
        if not variant.high:
            return shares, lambda: _low_words(hands, game, high_winners)
        if not variant.low:
            return shares, lambda: _high_words(hands, high_winners)
        if not low_winners:
            return (
                shares,
                lambda: f"no low qualifies: {_high_words(hands, high_winners, 'all of it')}",
            )
        self.low_winners.update(low_winners)
        return (
            shares,
            lambda: (
                f"{_high_words(hands, high_winners, 'the high half')}, "
                f"{_low_words(hands, game, low_winners, 'the low half')}"
            ),
        )

    def _low_not_qualified(self, got: set[str], should: set[str]) -> str | None:
        variant = VARIANTS[self.game]
        qualifier = variant.low_qualifier
        if qualifier is None or not variant.split:
            return None
        extra = got - should
        if len(extra) != 1:
            return None
        player = next(iter(extra))
        cards = self._hand(player)
        if cards is not None and evaluate.low_rank(cards, qualifier, variant.lowball) is None:
            return player
        return None


def pots_after_rake(hand: Hand, profile: RuleProfile, amounts: list[int]) -> list[int]:
    """Each pot of `amounts` after rake. PokerStars prints main and side pots after rake; use
    those when their number matches the pots built, else take the rake from the main pot
    (and the next ones when it is bigger: `tables.after_rake`)."""
    if not amounts:
        return []
    printed = [hand.main_pot, *hand.side_pots] if hand.main_pot is not None else None
    if (
        printed is not None
        and len(printed) == len(amounts)
        and sum(printed) + hand.rake == sum(amounts)
    ):
        return [int(p) for p in printed]
    return after_rake(amounts, hand.rake if profile.rake_before_split else 0)


_Player = TypeVar("_Player", str, int)
"""A player: a name, or a seat position (the simulator's)."""


def split_pot(
    amount: int,
    contenders: list[_Player],
    hands: Mapping[_Player, Sequence[Card]],
    game: Game,
    profile: RuleProfile,
    seat_order: Callable[[_Player], int] | None = None,
) -> tuple[dict[_Player, int], list[_Player], list[_Player]]:
    """Who wins a pot of `amount` (after rake) that two or more `contenders` claim with their
    showdown `hands` (cards speak), and how it is shared: (shares, high winners, low
    winners). The best high hand takes it (in the low games the best low, whose winners are
    given as the high ones); in hi/lo a qualifying low takes half, and the high hand all of it
    when no low qualifies (no low winners then): `tables.award`, which shares each part among
    ties, odd chips by the profile (`tables.divide`; `seat_order` for the clockwise rule,
    else the contenders' order)."""
    variant = VARIANTS[game]
    qualifier = variant.low_qualifier
    lowball = variant.lowball
    if not variant.high:
        lows = {p: evaluate.low_rank(hands[p], qualifier, lowball) for p in contenders}
        best = max(lows.values())  # type: ignore[type-var]
        winners = [p for p in contenders if lows[p] == best]
        return award(amount, [], winners, hands, game, profile, seat_order)[1], winners, []
    highs = {p: evaluate.high_rank(hands[p]) for p in contenders}
    top = max(highs.values())
    high_winners = [p for p in contenders if highs[p] == top]
    low_winners: list[_Player] = []
    if variant.low:
        lows = {p: evaluate.low_rank(hands[p], qualifier, lowball) for p in contenders}
        qualified = [v for v in lows.values() if v is not None]
        if qualified:
            best_low = max(qualified)
            low_winners = [p for p in contenders if lows[p] == best_low]
    shares, low_shares = award(amount, high_winners, low_winners, hands, game, profile, seat_order)
    for winner, share in low_shares.items():
        shares[winner] = shares.get(winner, 0) + share
    return shares, high_winners, low_winners


def pot_label(index: int, pots: int) -> str:
    """Pot `index` of `pots` as the messages name it: "the pot" (the only one), "the main
    pot", "side pot 1", "side pot 2" (numbered from the main pot's next)."""
    if pots == 1:
        return "the pot"
    return "the main pot" if index == 0 else f"side pot {index}"


def and_list(names: Iterable[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def in_pot_words(eligible: Iterable[str]) -> str:
    """The players with a claim on a pot: "A alone", "A and B"; "nobody" when all folded."""
    names = list(eligible)
    if not names:
        return "nobody left in it"
    return f"{names[0]} alone" if len(names) == 1 else and_list(names)


def share_words(winners: list[str], describe_one: Callable[[str], str], what: str) -> str:
    """Who should win `what` ("it", "the high half") with what: "A should win it with a
    flush", or among tied players "A (a flush) and B (a flush) should split it"."""
    if len(winners) == 1:
        return f"{winners[0]} should win {what} with {describe_one(winners[0])}"
    tied = and_list(f"{p} ({describe_one(p)})" for p in winners)
    return f"{tied} should split {what}"


def _high_words(hands: dict[str, tuple[Card, ...]], winners: list[str], what: str = "it") -> str:
    """The high winners of a pot (or of its half) with their hands, in words."""
    return share_words(winners, lambda p: evaluate.describe_high(hands[p]), what)


def _low_words(
    hands: dict[str, tuple[Card, ...]], game: Game, winners: list[str], what: str = "it"
) -> str:
    """The low winners of a pot (or of its half) with their hands, in words."""
    variant = VARIANTS[game]
    qualifier, lowball = variant.low_qualifier, variant.lowball
    return share_words(
        winners, lambda p: f"Lo: {evaluate.describe_low(hands[p], qualifier, lowball)}", what
    )


def pay_list(amounts: dict[str, int], state: Any) -> str:
    """What is paid to each player, "A $1, B $2" (a violation's `expected` and `actual`,
    stored as they were); "nobody" when nothing is."""
    paid = [(p, v) for p, v in amounts.items() if v]
    return ", ".join(f"{p} {state.money(v)}" for p, v in sorted(paid)) or "nobody"


def pay_words(amounts: dict[str, int], state: Any, players: Iterable[str]) -> str:
    """What is paid to each of `players`, in words: "A $1 and B $2"; "nobody" when nothing
    is."""
    paid = [(p, amounts.get(p, 0)) for p in players if amounts.get(p, 0)]
    return and_list(f"{p} {state.money(v)}" for p, v in sorted(paid)) or "nobody"


def paid_words(actual: dict[str, int], wrong: set[str], state: Any) -> str:
    """What the hand history pays the players paid wrong: "B $10 and A nothing", "A
    nothing"."""
    paid = pay_words(actual, state, wrong)
    unpaid = sorted(p for p in wrong if not actual.get(p))
    if not unpaid:
        return paid
    nothing = f"{and_list(unpaid)} nothing"
    return nothing if paid == "nobody" else f"{paid} and {nothing}"
