"""The faults the simulator can inject: each declared once, with the violation code the
replay must raise for it and the one thing it bends in an otherwise legal hand.

A `Fault` is a layer over the legal deal (`handlog.simulate.deal.Deal`): the deal plays by
the rules engine and calls the fault's hooks at the few places a fault may act — skipping an
ante, a card dealt, the bring-in, the first actor of a street, a player's action, the
uncalled bet, the collector of an uncontested pot, the awards of a showdown, a hand's
description — and, once the hand is played, lets it edit the records before the site's
printer writes them (`Fault.edit`: a misprinted total or rake, a card line, a seat's stack,
a check added or left out). Every hook of the base class plays legally, so the deal has no
fault of its own; each subclass overrides the hook its fault needs, and says how the hand is
to be dealt for it (`Fault.plan`: later streets, a tie, the street it is due on).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING, ClassVar

from handlog.cards import DECK, Card
from handlog.model import BETTING_KINDS, Action, ActionKind, Dealt, Game, Seat, Street, Structure
from handlog.rules.profiles import POKERSTARS, RuleProfile
from handlog.rules.structures import STRUCTURES, Ceiling, capped
from handlog.rules.tables import describe
from handlog.rules.traits import PRINTS_EVERYTHING, SiteTraits, UncalledBets
from handlog.rules.variants import VARIANTS, Variant
from handlog.rules.violations import Kind

if TYPE_CHECKING:
    from handlog.simulate.deal import Deal


@dataclass(slots=True)
class Plan:
    """How one hand is to be played: the fault to inject and the deal that makes it
    possible."""

    fault: str | None = None
    street: int = 3
    """The street from which a street-bound fault is injected."""
    passive: bool = False
    """Few folds: the hand goes to late streets and showdowns."""
    family_pot: bool = False
    """Nobody folds (with eight players: the community card)."""
    tie: tuple[int, int] | None = None
    """Two players (by index) dealt the same ranks, who never fold."""


@dataclass(slots=True)
class Payout:
    """A showdown's pots as the rules pay them, which an award fault bends before they are
    collected (`Fault.awards`)."""

    pots: list[tuple[int, list[int]]]
    """Each pot: its amount and the players eligible for it."""
    shares: list[dict[int, int]]
    """What each pot pays each player (changed in place by the fault)."""
    shown: set[int]
    """The players who show their cards."""
    results: list[tuple[dict[int, int], list[int], list[int], bool]]
    """Each pot as the rules pay it: the shares, the high and the low winners, and whether
    a low qualified."""

    def totals(self) -> Counter[int]:
        """What the pots pay each player in all."""
        totals: Counter[int] = Counter()
        for pot_shares in self.shares:
            totals.update(pot_shares)
        return totals


class Redeal(Exception):
    """This deal cannot be played as planned; deal again."""


class Fault:
    """No fault: every hook plays legally. The faults below each override the hooks they
    need; their `code` is the violation the replay must raise for them, `kind` its kind of
    verdict."""

    code: ClassVar[str] = ""
    kind: ClassVar[Kind] = Kind.ILLEGAL
    """The kind of verdict the replay must give the fault (`handlog.rules.violations.Kind`):
    illegal play, a mis-split pot or an inconsistent history."""
    description: ClassVar[str] = ""
    """How the fault is injected, in a sentence."""
    late_streets: ClassVar[bool] = False
    """The hand is steered towards later streets and showdowns (fewer folds)."""
    tie: ClassVar[bool] = False
    """The pot must be shared by two players: in stud and razz the deal is arranged so that
    two players hold the same ranks (in hi/lo the halves do it)."""
    must_show: ClassVar[bool] = False
    """Everyone left at the showdown shows (the awards and the descriptions need the cards)."""

    @classmethod
    def fits(cls, players: int, odd_rake: bool) -> bool:
        """Whether a hand with `players` dealt in can carry the fault (`odd_rake`: the rake
        can leave a split pot odd, in hi/lo cash games)."""
        return True

    def plan(self, plan: Plan, variant: Variant, exact: bool, seated: int, rng: Random) -> None:
        """Steer the hand's plan: later streets, a tie, the street the fault is due on."""
        plan.passive = self.late_streets
        if self.tie and not variant.split:
            plan.tie = tuple(rng.sample(range(seated), 2))  # type: ignore[assignment]
        street = self.street(variant, exact, rng)
        if street is not None:
            plan.street = street

    def street(self, variant: Variant, exact: bool, rng: Random) -> int | None:
        """The street the fault is due on (None: any)."""
        return None

    @staticmethod
    def due(deal: Deal) -> bool:
        """Not yet bent in, and on or after the planned street."""
        return not deal.applied and deal.street >= deal.plan.street

    # -- hooks during play (the legal play by default) -------------------------------------

    def skipped_ante(self, deal: Deal) -> int:
        """The player (by index) who posts no ante; -1: nobody."""
        return -1

    def first_deal(self, deal: Deal, live: list[int]) -> None:
        """After the first street's cards are drawn, before they are dealt out."""

    def before_deal(self, deal: Deal, street: int, live: list[int], face_up: bool) -> None:
        """Before a later street's cards are dealt."""

    def card_for(self, deal: Deal, player: int) -> Card:
        """The card dealt to `player` on a later street."""
        return deal.draw(player)

    def dealing_line(self, deal: Deal, player: int) -> None:
        """Just before `player`'s dealing line of a later street is written."""

    def deals_community(self, deal: Deal, live: list[int]) -> bool:
        """Whether a community card is dealt although the deck has enough cards."""
        return False

    def forces_raises(self, deal: Deal, street: int) -> bool:
        """Whether every player raises whenever they may on this street."""
        return False

    def bring_in_player(self, deal: Deal, player: int) -> int:
        """Who brings in, `player` being the one the table names."""
        return player

    def brings_in(self, deal: Deal, player: int) -> bool:
        """Post the bring-in for the fault (True), or leave it to the legal play."""
        return False

    def first_actor(self, deal: Deal, street: int, player: int) -> int:
        """Who acts first on a later street, `player` being the one the table names."""
        return player

    def allows_raise(self, deal: Deal) -> bool:
        """Whether a completion, bet or raise may be chosen (where the table allows one)."""
        return True

    def act(self, deal: Deal, player: int, owed: int, may_raise: bool) -> bool:
        """Play `player`'s action for the fault (True), or leave it to the legal play."""
        return False

    def returned(self, deal: Deal, due: int) -> int:
        """The amount of the uncalled bet `due` returned."""
        return due

    def collector(self, deal: Deal, winner: int) -> int:
        """Who collects a pot won without a showdown by `winner`."""
        return winner

    def awards(self, deal: Deal, payout: Payout) -> None:
        """Bend the shares of the showdown's pots (`Payout.shares`, in place) before they
        are collected."""

    def describe_hand(self, deal: Deal, player: int, words: str) -> str:
        """The description printed for `player`'s shown hand (`words`: the right one)."""
        return words

    # -- the records, once the hand is played -----------------------------------------------

    def edit(self, deal: Deal) -> bool:
        """Edit the hand's records before they are printed; False when they cannot carry
        the fault (the hand is dealt again)."""
        return True


class Ante(Fault):
    code = "ANTE"
    kind = Kind.ILLEGAL
    description = "one player is dealt in without posting the ante"

    def skipped_ante(self, deal: Deal) -> int:
        deal.applied = True
        return deal.rng.randrange(deal.n)


class BringInPlayer(Fault):
    code = "BRING_IN_PLAYER"
    kind = Kind.ILLEGAL
    description = (
        "the bring-in is posted by a player whose door card is not the lowest (highest in "
        "razz); play goes on clockwise from that player"
    )

    def bring_in_player(self, deal: Deal, player: int) -> int:
        bring_in = deal.stakes.bring_in
        others = [i for i in deal.able() if i != player and deal.chips(i) > bring_in]
        if not others:
            raise Redeal
        deal.applied = True
        return deal.rng.choice(others)


class BringInAmount(Fault):
    code = "BRING_IN_AMOUNT"
    kind = Kind.ILLEGAL
    description = "the bring-in is posted for the full small bet; nobody completes"

    def brings_in(self, deal: Deal, player: int) -> bool:
        small_bet = deal.stakes.small_bet
        if deal.chips(player) <= small_bet:
            raise Redeal
        deal.post_bring_in(player, small_bet)
        deal.applied = True
        return True

    def allows_raise(self, deal: Deal) -> bool:
        # a completion after it would read as a wrong completion
        return not (deal.applied and deal.street == deal.first_street)


class OutOfTurn(Fault):
    code = "OUT_OF_TURN"
    kind = Kind.ILLEGAL
    description = "on 4th street or later someone other than the best showing hand acts first"
    late_streets = True

    def street(self, variant: Variant, exact: bool, rng: Random) -> int | None:
        first, last = int(variant.first_street), int(variant.last_street)
        return rng.choice((first + 1, *range(first + 1, last + 1)))

    def first_actor(self, deal: Deal, street: int, player: int) -> int:
        if street >= deal.plan.street and not deal.applied:
            others = [i for i in deal.able() if i != player]
            player = deal.rng.choice(others)
            deal.applied = True
        return player


class BetSize(Fault):
    code = "BET_SIZE"
    kind = Kind.ILLEGAL
    description = (
        "fixed limit: the first bet on a big-bet street (5th-7th) is the small bet; spread "
        "limit: a bet or raise above the top of the spread; pot limit: a raise smaller than "
        "the minimum raise, or a bet or raise above the pot; no limit: a raise smaller than "
        "the minimum raise (none of them all-in)"
    )
    late_streets = True

    def street(self, variant: Variant, exact: bool, rng: Random) -> int | None:
        first, last = int(variant.first_street), int(variant.last_street)
        if exact:
            return rng.choice(sorted(variant.big_bet_streets))
        return rng.choice((first, *range(first, last + 1)))

    def act(self, deal: Deal, player: int, owed: int, may_raise: bool) -> bool:
        if not self.due(deal):
            return False
        table = deal.table
        if not deal.exact:
            return self._sized(deal, player, may_raise)
        small_bet = deal.stakes.small_bet
        if owed == 0 and table.current_bet == 0 and deal.chips(player) > deal.stakes.big_bet:
            deal.bet_to(
                player, small_bet, small_bet, all_in=False
            )  # the small bet, on a big street
            deal.applied = True
            return True
        return False

    @staticmethod
    def _sized(deal: Deal, player: int, may_raise: bool) -> bool:
        """Spread, pot and no limit: a bet or raise (not all-in) above the top of the spread
        or the pot, or below the least raise (pot and no limit)."""
        if not may_raise:
            return False
        table = deal.table
        least, most = table.raise_range(deal.names[player])
        ceiling = deal.rules.ceiling
        over = ceiling is Ceiling.SPREAD or (ceiling is Ceiling.POT and deal.rng.random() < 0.5)
        if over:
            assert most is not None
            target = most + 1
        else:
            target = least - 1
            if target <= table.current_bet or target <= 0:
                return False
        if target - deal.on_street(player) >= deal.chips(player):
            return False  # all-in: table stakes would allow less than the least
        deal.bet_to(player, target, least)
        deal.applied = True
        return True


class RaiseCap(Fault):
    code = "RAISE_CAP"
    kind = Kind.ILLEGAL
    description = (
        "after 'Betting is capped' one more full raise is made (fixed limit, and spread limit "
        "where the profile caps it)"
    )

    def street(self, variant: Variant, exact: bool, rng: Random) -> int | None:
        first = int(variant.first_street)
        return rng.choice((first, first, first + 1, first + 2))

    def forces_raises(self, deal: Deal, street: int) -> bool:
        return street >= deal.plan.street and not deal.applied

    def act(self, deal: Deal, player: int, owed: int, may_raise: bool) -> bool:
        if not self.due(deal):
            return False
        table = deal.table
        name = deal.names[player]
        if deal.exact:
            size = table.allowed_sizes()[-1]
        else:
            size = table.raise_range(name)[0] - table.current_bet  # the least raise
        if table.cap_reached() and deal.chips(player) > owed + size:
            # One raise more than the cap allows, after "Betting is capped".
            total = table.current_bet + size
            deal.bet_to(player, total, total, all_in=False)
            deal.forced_war = False
            deal.applied = True
            return True
        return False


class _OwedFault(Fault):
    """A fault played by a player facing a bet: on a street with none yet, the player
    bets for it to face."""

    late_streets = False

    def street(self, variant: Variant, exact: bool, rng: Random) -> int | None:
        first, last = int(variant.first_street), int(variant.last_street)
        return rng.choice((first, *range(first, last)))

    def act(self, deal: Deal, player: int, owed: int, may_raise: bool) -> bool:
        if not self.due(deal):
            return False
        table = deal.table
        stack = deal.chips(player)
        if owed <= 0 and table.current_bet == 0 and may_raise and stack > table.bet_size():
            deal.raise_bet(player)  # a bet for the fault to face (legal)
            return True
        if owed > 0 and stack > owed:
            return self.facing(deal, player, owed)
        return False

    def facing(self, deal: Deal, player: int, owed: int) -> bool:
        raise NotImplementedError


class CheckFacingBet(_OwedFault):
    code = "CHECK_FACING_BET"
    kind = Kind.ILLEGAL
    description = "a player facing a bet (the bring-in, or a bet made for it) checks"

    def facing(self, deal: Deal, player: int, owed: int) -> bool:
        deal.check(player)
        deal.applied = True
        return True


class CallAmount(_OwedFault):
    code = "CALL_AMOUNT"
    kind = Kind.ILLEGAL
    description = "a player calls a bet for less than it costs (and is not all-in)"

    def facing(self, deal: Deal, player: int, owed: int) -> bool:
        if owed < 2:
            return False
        deal.call(player, owed - max(1, owed // 2), all_in=False)
        deal.applied = True
        return True


class ActedAfterFold(Fault):
    code = "ACTED_AFTER_FOLD"
    kind = Kind.ILLEGAL
    description = "a player who just folded checks"

    def edit(self, deal: Deal) -> bool:
        items = deal.items
        for index, item in enumerate(items):
            if type(item) is Action and item.kind is ActionKind.FOLD:
                items.insert(index + 1, Action(item.street, item.player, ActionKind.CHECK))
                deal.applied = True
                break
        return True


class OverStack(Fault):
    code = "OVER_STACK"
    kind = Kind.ILLEGAL
    description = "a seat line shows a stack smaller than what the player then puts in"

    def edit(self, deal: Deal) -> bool:
        put_in = deal.table.put_in
        names = deal.names
        biggest = max(range(deal.n), key=lambda i: put_in[names[i]])
        printed = put_in[names[biggest]] - 1
        if deal.stakes.ante < printed < deal.start[biggest]:
            index = deal.seat_index[deal.seat_numbers[biggest]]
            seat = deal.seat_records[index]
            deal.seat_records[index] = Seat(seat.number, seat.name, printed)
            deal.applied = True
        return True


class RoundIncomplete(Fault):
    code = "ROUND_INCOMPLETE"
    kind = Kind.ILLEGAL
    description = "the last check of a street is left out"
    late_streets = True

    def edit(self, deal: Deal) -> bool:
        # The first street whose betting ended with a check: that check is left out.
        items = deal.items
        last_betting: dict[Street, int] = {}
        for index, item in enumerate(items):
            if type(item) is Action and item.kind in BETTING_KINDS:
                last_betting[item.street] = index
        for street in sorted(last_betting):
            index = last_betting[street]
            if items[index].kind is ActionKind.CHECK:  # type: ignore[union-attr]
                del items[index]
                deal.applied = True
                break
        return True


class UncalledReturn(Fault):
    code = "UNCALLED_RETURN"
    kind = Kind.INCONSISTENT
    description = (
        "an uncalled bet is returned short (the rest comes back to the bettor with the pot)"
    )

    def returned(self, deal: Deal, due: int) -> int:
        if deal.applied or due < 2:
            return due
        deal.applied = True
        return due - max(1, due // 2)


class DuplicateCard(Fault):
    code = "DUPLICATE_CARD"
    kind = Kind.ILLEGAL
    description = "a player is dealt another player's door card"
    late_streets = True

    def __init__(self) -> None:
        self.victim = -1

    def street(self, variant: Variant, exact: bool, rng: Random) -> int | None:
        first, last = int(variant.first_street), int(variant.last_street)
        return rng.choice(range(first, last))

    def first_deal(self, deal: Deal, live: list[int]) -> None:
        if deal.plan.street == deal.first_street:
            victim, source = deal.rng.sample(live, 2)
            deal.cards[victim][-1] = deal.cards[source][-1]
            deal.applied = True

    def before_deal(self, deal: Deal, street: int, live: list[int], face_up: bool) -> None:
        self.victim = -1
        if face_up and not deal.applied and deal.plan.street == street:
            self.victim = deal.rng.choice(live)

    def card_for(self, deal: Deal, player: int) -> Card:
        if player != self.victim:
            return deal.draw(player)
        deal.applied = True
        return deal.up[deal.rng.choice([j for j in range(deal.n) if j != player])][0]


class _CardLineFault(Fault):
    """A dealing line bent once the hand is played: the card checks must catch it."""

    late_streets = True

    def __init__(self) -> None:
        self.bent = -1
        self.lines: list[int] = []
        """Where in the deal's items the lines to bend stand."""

    def street(self, variant: Variant, exact: bool, rng: Random) -> int | None:
        first, last = int(variant.first_street), int(variant.last_street)
        return rng.choice([s for s in range(first + 1, last + 1) if variant.face_up[s - 1]])

    def before_deal(self, deal: Deal, street: int, live: list[int], face_up: bool) -> None:
        self.bent = -1
        if face_up and not deal.applied and street >= deal.plan.street:
            self.bent = deal.rng.choice(live)

    def dealing_line(self, deal: Deal, player: int) -> None:
        if player == self.bent:
            deal.applied = True
            self.lines.append(len(deal.items))

    def edit(self, deal: Deal) -> bool:
        if not self.lines:
            return True
        used = {c for cards in deal.cards for c in cards}
        if deal.community is not None:
            used.add(deal.community)
        spare = [c for c in DECK if c not in used]
        if not spare:
            return False
        items = deal.items
        for index in self.lines:
            dealt = items[index]
            assert type(dealt) is Dealt
            items[index] = self.bend(dealt, deal.rng.choice(spare))
        return True

    def bend(self, dealt: Dealt, card: Card) -> Dealt:
        raise NotImplementedError


class CardsChanged(_CardLineFault):
    code = "CARDS_CHANGED"
    kind = Kind.ILLEGAL
    description = "a 'Dealt to' line repeats an earlier card as a card nobody was dealt"

    def bend(self, dealt: Dealt, card: Card) -> Dealt:
        # the first card shown again, changed
        return Dealt(dealt.street, dealt.player, (card, *dealt.previous[1:]), dealt.new)


class CardCount(_CardLineFault):
    code = "CARD_COUNT"
    kind = Kind.ILLEGAL
    description = "a 'Dealt to' line on 4th-6th street deals two new cards"

    def bend(self, dealt: Dealt, card: Card) -> Dealt:
        return Dealt(dealt.street, dealt.player, dealt.previous, (card, *dealt.new))


class CommunityCard(Fault):
    code = "COMMUNITY_CARD"
    kind = Kind.ILLEGAL
    description = "a community card is dealt on 7th street although the deck was enough"
    late_streets = True

    def plan(self, plan: Plan, variant: Variant, exact: bool, seated: int, rng: Random) -> None:
        super().plan(plan, variant, exact, seated, rng)
        plan.family_pot = rng.random() < 0.5

    def deals_community(self, deal: Deal, live: list[int]) -> bool:
        if len(live) < 2:
            return False
        deal.applied = True
        return True


class PotTotal(Fault):
    code = "POT_TOTAL"
    kind = Kind.INCONSISTENT
    description = "the summary's total pot is more than the players put in"

    def edit(self, deal: Deal) -> bool:
        deal.total += deal.stakes.ante or 1
        deal.applied = True
        return True


class Rake(Fault):
    code = "RAKE"
    kind = Kind.MIS_SPLIT
    description = "the summary's rake is off by one unit"

    def edit(self, deal: Deal) -> bool:
        deal.rake = deal.rake - 1 if deal.rake > 0 else deal.rake + 1
        deal.applied = True
        return True


class _AwardFault(Fault):
    """A pot paid otherwise than by the rules: everyone left shows."""

    late_streets = True
    must_show = True


class WrongWinner(_AwardFault):
    code = "WRONG_WINNER"
    kind = Kind.MIS_SPLIT
    description = (
        "a pot is paid to a player who shows a losing hand (in hi/lo one with a qualifying "
        "low, so that the only reading is the wrong winner)"
    )

    def awards(self, deal: Deal, payout: Payout) -> None:
        rng = deal.rng
        totals = payout.totals()
        shares, shown = payout.shares, payout.shown
        for index, (_, eligible) in enumerate(payout.pots):
            losers = [
                i
                for i in eligible
                if i in shown
                and totals[i] == 0
                and (not deal.split or deal.hand_values(i)[1] is not None)
            ]
            paid = [i for i, v in shares[index].items() if v > 0]
            if losers and paid:
                winner = rng.choice(paid)
                loser = rng.choice(losers)
                shares[index][loser] = shares[index].pop(winner)
                deal.applied = True
                return


class SplitAmount(_AwardFault):
    code = "SPLIT_AMOUNT"
    kind = Kind.MIS_SPLIT
    description = "two or more units move between two players who share the pots"
    tie = True

    def awards(self, deal: Deal, payout: Payout) -> None:
        rng = deal.rng
        shares = payout.shares
        collectors = [i for i, v in payout.totals().items() if v > 0]
        if len(collectors) < 2:
            return
        for index, (_, eligible) in enumerate(payout.pots):
            givers = [i for i, v in shares[index].items() if v >= 3]
            for giver in givers:
                takers = [i for i in collectors if i != giver and i in eligible]
                if takers:
                    taker = rng.choice(takers)
                    moved = rng.randint(2, shares[index][giver] - 1)
                    shares[index][giver] -= moved
                    shares[index][taker] = shares[index].get(taker, 0) + moved
                    deal.applied = True
                    return


class OddChip(_AwardFault):
    code = "ODD_CHIP"
    kind = Kind.MIS_SPLIT
    description = "the odd chip of a split pot goes to the other player"
    tie = True

    @classmethod
    def fits(cls, players: int, odd_rake: bool) -> bool:
        # Two players heads-up put in the same: their pot is even (only rake can make it odd).
        return players != 2 or odd_rake

    def awards(self, deal: Deal, payout: Payout) -> None:
        for index, pot_shares in enumerate(payout.shares):
            paid = [i for i, v in pot_shares.items() if v > 0]
            if len(paid) < 2:
                continue
            amount = sum(pot_shares.values())
            high_winners, low_winners = payout.results[index][1:3]
            odd_holder = _odd_chip_holder(deal, amount, pot_shares, high_winners, low_winners)
            if odd_holder is None:
                continue
            others = [i for i in paid if i != odd_holder]
            taker = deal.rng.choice(others)
            pot_shares[odd_holder] -= 1
            pot_shares[taker] += 1
            deal.applied = True
            return


class LowNotQualified(_AwardFault):
    code = "LOW_NOT_QUALIFIED"
    kind = Kind.MIS_SPLIT
    description = "hi/lo: half of a pot nobody qualifies low for goes to a losing hand"

    def awards(self, deal: Deal, payout: Payout) -> None:
        totals = payout.totals()
        shares, shown = payout.shares, payout.shown
        for index, (_, eligible) in enumerate(payout.pots):
            result = payout.results[index]
            if result[3] or len([i for i in eligible if i in shown]) < 2:
                continue
            losers = [i for i in eligible if i in shown and totals[i] == 0]
            if not losers:
                continue
            loser = deal.rng.choice(losers)
            amount = sum(shares[index].values())
            low_half = amount // 2
            if low_half == 0:
                continue
            remaining = amount - low_half
            winners = [i for i, v in shares[index].items() if v > 0]
            base, odd = divmod(remaining, len(winners))
            shares[index] = {i: base + (1 if k < odd else 0) for k, i in enumerate(winners)}
            shares[index][loser] = low_half
            deal.applied = True
            return


class NotEligible(Fault):
    code = "NOT_ELIGIBLE"
    kind = Kind.MIS_SPLIT
    description = "a pot won without showdown is collected by a player who folded"

    def collector(self, deal: Deal, winner: int) -> int:
        folded = [i for i in range(deal.n) if deal.folded_on[i]]
        deal.applied = True
        return deal.rng.choice(folded)


class HandDescription(_AwardFault):
    code = "HAND_DESCRIPTION"
    kind = Kind.INCONSISTENT
    description = "a shown hand is described as another hand"

    def describe_hand(self, deal: Deal, player: int, words: str) -> str:
        if deal.applied:
            return words
        # Another hand's words for this player's cards (the site contradicting them).
        for _ in range(100):
            cards = deal.rng.sample(DECK, len(deal.hand_cards(player)))
            other = describe(tuple(cards), deal.game)
            if other != words:
                deal.applied = True
                return other
        return words


FAULT_TYPES: dict[str, type[Fault]] = {
    fault.code: fault
    for fault in (
        BringInPlayer,
        BringInAmount,
        OutOfTurn,
        BetSize,
        RaiseCap,
        CheckFacingBet,
        CallAmount,
        ActedAfterFold,
        OverStack,
        RoundIncomplete,
        UncalledReturn,
        Ante,
        DuplicateCard,
        CardsChanged,
        CardCount,
        CommunityCard,
        PotTotal,
        Rake,
        WrongWinner,
        SplitAmount,
        LowNotQualified,
        OddChip,
        NotEligible,
        HandDescription,
    )
}
"""Each injectable fault by the violation code the replay must raise for it."""

FAULTS = {code: fault.description for code, fault in FAULT_TYPES.items()}
"""Each injectable violation code and how the simulator injects it: one thing bent in a hand
that is otherwise played legally, so that the replay must report (at least) that code."""

FAULT_CODES = tuple(FAULTS)
"""Every violation code of `handlog.rules.violations` that PokerStars text can show."""

NO_FAULT = Fault()
"""The legal play, with no fault."""


def fault_for(code: str | None) -> Fault:
    """A fresh fault of `code` for one deal (None: `NO_FAULT`)."""
    return NO_FAULT if code is None else FAULT_TYPES[code]()


_AWARD_FAULTS = frozenset(
    {"WRONG_WINNER", "SPLIT_AMOUNT", "LOW_NOT_QUALIFIED", "ODD_CHIP", "NOT_ELIGIBLE"}
)
"""Faults in who is paid what, which a site that prints no awards cannot show."""


def fault_codes(
    game: Game,
    structure: Structure = Structure.FIXED,
    profile: RuleProfile = POKERSTARS,
    traits: SiteTraits = PRINTS_EVERYTHING,
) -> tuple[str, ...]:
    """The faults that can be injected into hands of `game` in `structure`: a low that fails
    to qualify exists only in hi/lo with a qualifier, a community card only where the last
    card is dealt face down (7-card games), the cap only in fixed limit and (by the profile)
    spread limit; and only what the site prints (its `traits`) can show a fault: no
    uncalled-bet fault without the line, no total or rake fault without the total pot, no
    description fault in wording handlog does not compare, no award fault without awards."""
    variant = VARIANTS[game]
    rules = STRUCTURES[structure]
    excluded = set()
    if not (variant.split and variant.low_qualifier is not None):
        excluded.add("LOW_NOT_QUALIFIED")
    if variant.face_up[-1]:
        excluded.add("COMMUNITY_CARD")
    if not capped(rules, profile):
        excluded.add("RAISE_CAP")
    if traits.uncalled_bets is not UncalledBets.LINE:
        excluded.add("UNCALLED_RETURN")
    if not traits.prints_total_pot:
        excluded |= {"POT_TOTAL", "RAKE"}
    if not traits.describes_hands:
        excluded.add("HAND_DESCRIPTION")
    if not traits.prints_awards:
        excluded |= _AWARD_FAULTS
    return tuple(code for code in FAULT_CODES if code not in excluded)


# -- helpers -------------------------------------------------------------------------------


def _odd_chip_holder(
    deal: Deal,
    amount: int,
    shares: dict[int, int],
    high_winners: list[int],
    low_winners: list[int],
) -> int | None:
    """The player who got the odd chip of a pot shared by two or more, if there is one chip
    to move and moving it changes who is paid by exactly one chip each way."""
    if deal.split and high_winners and low_winners:
        if (
            len(high_winners) == 1
            and len(low_winners) == 1
            and high_winners != low_winners
            and amount % 2
        ):
            return high_winners[0] if deal.profile.odd_chip_to_high else low_winners[0]
        return None
    winners = high_winners or low_winners
    if len(winners) < 2:
        return None
    values = sorted({shares.get(i, 0) for i in winners})
    if len(values) == 2 and values[1] - values[0] == 1:
        return next(i for i in winners if shares.get(i, 0) == values[1])
    return None
