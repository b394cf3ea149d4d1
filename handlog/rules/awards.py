"""Who should have won each pot, by the rules and the cards, and how that compares with what
the hand history says was collected (the mis-split checks)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from handlog.cards import Card
from handlog.model import Action, ActionKind, Hand, Street
from handlog.rules import evaluate
from handlog.rules.profiles import RuleProfile
from handlog.rules.tables import (
    Pot,
    after_rake,
    divide,
    hi_lo_shares,
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

    def expected(self, distributable: list[int]) -> tuple[dict[str, int], list[Callable[[], str]]]:
        """What each player should collect from the pots after rake (`distributable`), and
        for each pot a function giving the reason in words."""
        expected: dict[str, int] = {}
        notes: list[Callable[[], str]] = []
        for pot, amount in zip(self.pots, distributable, strict=True):
            shares, words = self._split(pot, amount)
            notes.append(words)
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

    def pay(self, state: Any) -> dict[str, int]:
        """The pots paid by the rules into `state.collected`, for a hand that does not say
        who collected (`SiteTraits.prints_awards`): nothing to compare, nothing flagged but
        a printed count of pots that differs from the pots built."""
        self.state = state
        state.street = Street.SHOWDOWN
        expected, _ = self.expected(self._distributable())
        for player, amount in expected.items():
            state.collected[player] = state.collected.get(player, 0) + amount
        return expected

    def check(self, state: Any) -> dict[str, int]:
        """Compare the expected awards with the collects, flagging on `state`."""
        self.state = state
        hand = self.hand
        state.street = Street.SHOWDOWN
        expected, notes = self.expected(self._distributable())
        actual = {p: v for p, v in state.collected.items() if v}
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
        story = "; ".join(text for text in (note() for note in notes) if text)
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
                    ", ".join(sorted(got - should)) or None,
                    f"{story}; the hand history pays {pay_list(actual, state)}",
                    pay_list(expected, state),
                    pay_list(actual, state),
                )
            return expected
        differences = [abs(actual.get(p, 0) - expected.get(p, 0)) for p in should | got]
        code = "ODD_CHIP" if max(differences) == 1 and sum(differences) == 2 else "SPLIT_AMOUNT"
        state.flag(
            code,
            line,
            None,
            f"{story}: should pay {pay_list(expected, state)}, the hand history pays "
            f"{pay_list(actual, state)}",
            pay_list(expected, state),
            pay_list(actual, state),
        )
        return expected

    def _ineligible_collects(self) -> bool:
        """Flag collects by players with no claim on the pot named ("main pot", "side
        pot-2") or, for plain "pot", on any pot."""
        state = self.state
        found = False
        for event in self.hand.events:
            if type(event) is not Action or event.kind is not ActionKind.COLLECT:
                continue
            player, index = event.player, event.pot
            label = pot_words(index, len(self.pots) - 1)
            pots = [self.pots[index]] if index is not None and index < len(self.pots) else self.pots
            if any(player in pot.eligible for pot in pots):
                continue
            if player in state.folded:
                why = f"{player} folded"
            elif index:
                why = f"{player} was all-in for less and has no part in it"
            else:
                why = f"{player} put nothing into it"
            state.flag(
                "NOT_ELIGIBLE",
                event.line,
                player,
                f"{player} collected {state.money(event.amount or 0)} from the {label}, but {why}",
                None,
                state.money(event.amount or 0),
            )
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
        """Each pot after rake. PokerStars prints main and side pots after rake; use those
        when their number matches the pots built, else take the rake from the main pot
        (and the next ones when it is bigger: `tables.after_rake`)."""
        hand = self.hand
        amounts = [pot.amount for pot in self.pots]
        if not amounts:
            return []
        printed = [hand.main_pot, *hand.side_pots] if hand.main_pot is not None else None
        if (
            printed is not None
            and len(printed) == len(amounts)
            and sum(printed) + hand.rake == sum(amounts)
        ):
            return [int(p) for p in printed]
        return after_rake(amounts, hand.rake if self.profile.rake_before_split else 0)

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
            return {}, lambda: "nobody shows a hand that can be read"
        if len(players) == 1:
            self.high_winners.add(players[0])
            return {players[0]: amount}, lambda: ""
        hands: dict[str, tuple[Card, ...]] = {p: self._hand(p) for p in players}  # type: ignore[misc]
        game = self.game

        def high_words(winners: list[str]) -> str:
            return player_words(winners, lambda p: evaluate.describe_high(hands[p]))

        variant = VARIANTS[game]
        qualifier = variant.low_qualifier
        lowball = variant.lowball

        def low_words(winners: list[str]) -> str:
            prefix = "" if variant.high else "Lo: "
            return player_words(
                winners,
                lambda p: prefix + str(evaluate.describe_low(hands[p], qualifier, lowball)),
            )

        if not variant.high:
            lows = {p: evaluate.low_rank(hands[p], qualifier, lowball) for p in players}
            best = max(lows.values())  # type: ignore[type-var]
            winners = [p for p in players if lows[p] == best]
            self.high_winners.update(winners)  # a low game: the pot's winners count as "high"
            return (
                self._divide(amount, winners, hands, low=True),
                lambda: f"the pot goes to {low_words(winners)}",
            )
        highs = {p: evaluate.high_rank(hands[p]) for p in players}
        top = max(highs.values())
        high_winners = [p for p in players if highs[p] == top]
        self.high_winners.update(high_winners)
        if not variant.low:
            return (
                self._divide(amount, high_winners, hands, low=False),
                lambda: f"the pot goes to {high_words(high_winners)}",
            )
        lows = {p: evaluate.low_rank(hands[p], qualifier, lowball) for p in players}
        qualified = {p: v for p, v in lows.items() if v is not None}
        if not qualified:
            return (
                self._divide(amount, high_winners, hands, low=False),
                lambda: f"no low qualifies, the whole pot goes high to {high_words(high_winners)}",
            )
        best_low = max(qualified.values())
        low_winners = [p for p in players if lows[p] == best_low]
        self.low_winners.update(low_winners)
        shares = hi_lo_shares(
            amount,
            high_winners,
            low_winners,
            hands,
            self.profile,
            self.seat_index.__getitem__,
            lowball,
        )
        return (
            shares,
            lambda: (
                f"high half to {high_words(high_winners)}, low half to {low_words(low_winners)}"
            ),
        )

    def _divide(
        self, amount: int, winners: list[str], hands: dict[str, tuple[Card, ...]], low: bool
    ) -> dict[str, int]:
        return divide(
            amount,
            winners,
            hands,
            low,
            self.profile,
            self.seat_index.__getitem__,
            VARIANTS[self.game].lowball,
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


def pot_words(pot: int | None, side_pots: int) -> str:
    """A pot as a player names it: "pot" (the only one, or not said), "main pot", "side pot"
    (the only side pot) or "side pot 2"."""
    if pot is None:
        return "pot"
    if pot == 0:
        return "main pot"
    return "side pot" if side_pots <= 1 else f"side pot {pot}"


def player_words(players: Iterable[str], describe_one: Callable[[str], str]) -> str:
    return " and ".join(f"{p} ({describe_one(p)})" for p in players)


def pay_list(amounts: dict[str, int], state: Any) -> str:
    paid = [(p, v) for p, v in amounts.items() if v]
    return ", ".join(f"{p} {state.money(v)}" for p, v in sorted(paid)) or "nobody"
