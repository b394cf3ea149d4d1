"""All-in equities for the stud games: what each player could expect from each pot at the moment
the betting closed with cards still to come, and the EV-adjusted net that follows.

Design note
-----------
*The spot* (`Spot`): the game, each live player's cards by deal position (None for a card not
known), the cards known out of the deck (folded players' up cards; any card the spot knows),
whether the last card is one community card (7-card games whose deck runs short: the replay's
own count, `tables.cards_needed`, burns included), the pots after rake with their eligible
players (`tables.build_pots` as the replay makes them), and the house's profile for the odd
chip. Unknown cards are unknown to the calculator: dealt from the deck like the cards to come,
every way equally likely.

*The calculator* (`equities`): each player's expected chips from each pot, over every way the
rest of the deck could be dealt. Exact when at most `EXACT_LIMIT` (700,000) deals are left —
every heads-up spot of the 7-card games from 5th street on, three or four players on 6th:
heads-up the deals are counted (every pair of the two players' draws compared at once when
there are few, else sorting and inclusion-exclusion over shared cards; only the tied ones
listed), with more players enumerated as a broadcast grid of each player's possible
draws (or jointly, on small decks); otherwise sampled, seeded by a digest of the spot (the
same figures every run), until every equity's 95% interval is within ±0.5 percentage point
(`Share.error`, never below 3/n), the deals read from a fixed table of ordered draws of
distinct card positions (the same in every process, made once from a fixed seed) relabelled
by a random permutation of the spot's unknown cards, from a random row on, no row twice in a
spot: every deal as likely as any other, as from a shuffled deck, and the spot's rows as good
as an independent sample for its stated error (the tests measure its coverage). Hands are
ranked by the table-driven evaluator from two sums of per-card codes (`evaluate.card_codes`): a player's known cards are summed once and only the drawn ones are
added. A deal comes down to who wins each pot or half; each distinct outcome is paid by the
replay's own division (`tables.award`: `tables.pot_parts`, `tables.divide`) on one
representative deal — ties split, the hi/lo halving and its odd chip, the odd chip among tied hands by the cards or
clockwise as the profile says, the high hand scooping when no low qualifies — so there is one
implementation of those rules. Where the odd chip goes by the cards, deals are grouped further
by how the tied players' highest and lowest cards compare, all that `divide` reads of them.

*Hands* (`hands`): the spot is read from the replay's trace (`handlog.rules.trace`) at the
first step after which no betting is possible while cards remain (every player left but at
most one all-in), never by replaying the hand another way. Two conventions for what is known
(`Knowledge`): SHOWN, every card the history knows that had been dealt by then — the live
players' down cards as they are shown by the end (the trackers' convention, and the one the
EV-adjusted net uses; a hand where a live player's cards of that moment are never shown gets
no equities), the hero's own cards, folded or not — and TABLE, only what lay face up. `hand_ev` traces only
the hands whose replay allows an all-in with cards to come (two players or more to the end,
one of them all-in, at most one player acting on the last street: `may_have_all_in`), a few
percent of hands, and with a trace cut to what the equities read (`trace(..., all_in_only=True)`:
the all-in step alone, the awards without their words).
`street_equities` gives each street's equities for the streets on which every player still
in has all their cards shown by the end (for `show`), and `step_equities` the equities
beside each step of a trace (a street's until the all-in, the all-in's from there: for the
replayer).

*Money*: equities are fractions of a pot; expectations are exact `Fraction`s of the hand's
minor units (for a sampled spot, the exact mean of the sample). The EV-adjusted net of a
player is their expected collection from the pots at stake at the all-in (those the rules pay,
after rake) less what they put in; with no all-in it is the net. An expectation is not money
moved, so it is kept exact, and for storing in integer minor units it is rounded with the
hand's other nets by largest remainders (`EvNet.ev_net_units`): each within one unit of the
exact figure, and a hand's EV-adjusted nets sum exactly to its nets' sum, minus the rake.

*For the store and the reports*: per hand, pot and player `Share` (equity, expected chips,
high and low parts, error) with the spot's `Method` and deals counted; per hand and player
`EvNet` (put in, net, expected, EV-adjusted net exact and in units); luck is net less
EV-adjusted net.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from handlog.equity.calculate import Equities, Method, Share, equities
    from handlog.equity.hands import (
        AllIn,
        EvNet,
        HandEv,
        Knowledge,
        all_in,
        ev_nets,
        hand_ev,
        may_have_all_in,
        spot_at,
        step_equities,
        street_equities,
    )
    from handlog.equity.spot import EXACT_LIMIT, Holding, Spot, SpotError

_MODULES = ("spot", "hands", "calculate")
"""Where the names of `__all__` are found, the lightest first. They are imported when first
asked for: an import's hands reach the calculator (and NumPy) only when one has an all-in to
compute (`stored.add_ev`), and importing `handlog.equity.stored` loads no more than it uses."""


def __getattr__(name: str) -> Any:
    if name in __all__:
        for module in _MODULES:
            found = vars(import_module(f"{__name__}.{module}"))
            if name in found:
                globals()[name] = found[name]
                return found[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "EXACT_LIMIT",
    "AllIn",
    "Equities",
    "EvNet",
    "HandEv",
    "Holding",
    "Knowledge",
    "Method",
    "Share",
    "Spot",
    "SpotError",
    "all_in",
    "equities",
    "ev_nets",
    "hand_ev",
    "may_have_all_in",
    "spot_at",
    "step_equities",
    "street_equities",
]
