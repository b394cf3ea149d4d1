"""Simulated stud hand histories: legal hands of every stud game handlog knows (7-card stud,
stud hi/lo 8 or better and any low, razz, 2-7 razz, London lowball, 5-card stud) in every
betting structure (fixed, spread, pot and no limit), dealt from real shuffled decks and played
on the rules engine's table under a rule profile, built as `Hand` records that a site's
printer writes (PokerStars by default); optionally a share of them carries exactly one known
rule violation (a sidecar names it).

The simulator has no rule of its own: each hand (`deal.Deal`) plays a `Table`
(`handlog.rules.engine`), which says who brings in, who acts, what they owe, what a bet or
raise may be, when a street is over, what is uncalled and what the pots are; who wins them is
`handlog.rules.awards.split_pot`'s. Players choose among the legal actions at random, weighted
by a rough hand strength and a style per player, so that folds, completions, raises to the
cap, short all-ins with side pots, open-pair double bets, showdowns, hi/lo splits, ties and
(with eight players) the community card all occur. Faults (`faults`) are a layer over the
legal hand, each declared once with the code the replay must raise for it and its kind of
verdict (`FAULT_TYPES[code].kind`).

    options = SimulationOptions(Game.RAZZ, hands=10_000, players=6, seed=7)
    london = SimulationOptions(Game.RAZZ_A6, hands=2_000, structure=Structure.POT_LIMIT)
    for hand in simulate_hands(options): ...      # SimulatedHand(hand_id, text, fault, hand)
    summary = write_simulation(options, "razz.txt")  # and razz.txt.faults.jsonl

The same options and seed give the same bytes.
"""

from __future__ import annotations

from handlog.simulate.faults import FAULT_CODES, FAULT_TYPES, FAULTS, fault_codes
from handlog.simulate.options import (
    CASH_FORCED_BETS,
    DEFAULT_STAKES,
    MAX_SEATS,
    POKERSTARS_GAMES,
    RAKE_CAP_BIG_BETS,
    RAKE_PERCENT,
    SIMULATED_GAMES,
    SIMULATED_STRUCTURES,
    START_CLOCK,
    TOURNAMENT_LEVELS,
    SimulatedHand,
    SimulationOptions,
    SimulationSummary,
    Stakes,
    StakesError,
    faults_path_for,
    forced_bets,
    form_error,
    parse_stakes,
)
from handlog.simulate.session import simulate_hands, write_simulation

__all__ = [
    "CASH_FORCED_BETS",
    "DEFAULT_STAKES",
    "FAULTS",
    "FAULT_CODES",
    "FAULT_TYPES",
    "MAX_SEATS",
    "POKERSTARS_GAMES",
    "RAKE_CAP_BIG_BETS",
    "RAKE_PERCENT",
    "SIMULATED_GAMES",
    "SIMULATED_STRUCTURES",
    "START_CLOCK",
    "TOURNAMENT_LEVELS",
    "SimulatedHand",
    "SimulationOptions",
    "SimulationSummary",
    "Stakes",
    "StakesError",
    "fault_codes",
    "faults_path_for",
    "forced_bets",
    "form_error",
    "parse_stakes",
    "simulate_hands",
    "write_simulation",
]
