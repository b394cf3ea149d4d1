"""Simulated PokerStars stud hand histories: legal hands of every stud game handlog knows
(7-card stud, stud hi/lo 8 or better and any low, razz, 2-7 razz, London lowball, 5-card stud)
in every betting structure (fixed, spread, pot and no limit), dealt from real shuffled decks
and played under a rule profile, built as `Hand` records that a site's printer writes (PokerStars
by default); optionally a share of them carries exactly one known rule violation (a sidecar
names it).

Games and structures are data: the streets, the face-up cards, the bring-in, the first actor
and how hands are compared come from the game's `Variant` (`handlog.rules.variants`), how much
a bet or raise may be from the structure's `BettingStructure` and the very functions the replay
uses (`handlog.rules.structures.smallest_bet`, `raise_range`).

The simulator decides everything the rules decide with handlog's own evaluator
(`handlog.rules.evaluate`) and the profile (`handlog.rules.profiles`): who brings in, who
acts first on 4th-7th street, what the limit allows, when a street is over, the uncalled
bet, the pots built from contributions, who wins each pot or half, where the odd chip goes.
Players choose among the legal actions at random, weighted by a rough hand strength and a
style per player, so that folds, completions, raises to the cap, short all-ins with side
pots, open-pair double bets, showdowns, hi/lo splits, ties and (with eight players) the
community card all occur.

    options = SimulationOptions(Game.RAZZ, hands=10_000, players=6, seed=7)
    london = SimulationOptions(Game.RAZZ_A6, hands=2_000, structure=Structure.POT_LIMIT)
    for hand in simulate_hands(options): ...      # SimulatedHand(hand_id, text, fault, hand)
    summary = write_simulation(options, "razz.txt")  # and razz.txt.faults.jsonl

The same options and seed give the same bytes.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from handlog.cards import DECK, Card
from handlog.model import (
    Action,
    ActionKind,
    Dealt,
    Event,
    Game,
    Hand,
    Note,
    NoteKind,
    Seat,
    SeatResult,
    Site,
    Street,
    Structure,
)
from handlog.parse.money import format_amount
from handlog.parse.site import SiteFormat
from handlog.parse.sites import format_for
from handlog.parse.text import utc_time
from handlog.rules import evaluate
from handlog.rules.profiles import POKERSTARS, RuleProfile, TieBreak
from handlog.rules.structures import STRUCTURES, Ceiling, raise_range, smallest_bet
from handlog.rules.tables import (
    after_rake,
    build_pots,
    cards_needed,
    describe,
    divide,
    fixed_sizes,
    has_pair,
    hi_lo_shares,
    showing_keys,
)
from handlog.rules.traits import PRINTS_EVERYTHING, SiteTraits, UncalledBets
from handlog.rules.variants import VARIANTS, Lowball

SIMULATED_GAMES = (
    Game.STUD,
    Game.STUD8,
    Game.RAZZ,
    Game.STUD5,
    Game.RAZZ27,
    Game.RAZZ_A6,
    Game.STUD_HILO,
)
"""The games the simulator plays: every game handlog replays (the first three are dealt at
PokerStars; the others carry handlog's own names in the PokerStars shape)."""

POKERSTARS_GAMES = (Game.STUD, Game.STUD8, Game.RAZZ)
"""The simulated games that PokerStars deals (in fixed limit): `handlog bench`'s set."""

SIMULATED_STRUCTURES = tuple(Structure)
"""The betting structures the simulator plays: fixed, spread, pot and no limit."""

DEFAULT_STAKES = {
    Structure.FIXED: (4, 8, 1, 2),
    Structure.SPREAD: (4, 16, 1, 2),
    Structure.POT_LIMIT: (4, 8, 1, 2),
    Structure.NO_LIMIT: (4, 8, 1, 2),
}
"""Cash stakes by structure, in cents: (small bet, big bet, ante, bring-in). Spread limit:
a $0.04-$0.16 spread (its bottom and top); pot and no limit: the smallest bet of the early
and of the big-bet streets."""

MAX_SEATS = 8
"""PokerStars stud tables are 8-max."""

CASH_FORCED_BETS = {(4, 8): (1, 2), (10, 20): (2, 5), (25, 50): (5, 10)}
"""(small bet, big bet) -> (ante, bring-in) in cents, as PokerStars' cash tables have them
(the 0.04/0.08 and 0.10/0.20 exports in corpus/); other stakes use `forced_bets`' rule."""

TOURNAMENT_LEVELS = (
    (10, 20, 2, 5),
    (15, 30, 3, 5),
    (25, 50, 5, 10),
    (50, 100, 10, 15),
    (75, 150, 15, 25),
    (100, 200, 20, 30),
    (150, 300, 25, 50),
    (200, 400, 40, 60),
    (300, 600, 50, 100),
    (400, 800, 80, 120),
    (600, 1200, 100, 200),
    (800, 1600, 150, 250),
    (1000, 2000, 200, 300),
    (1500, 3000, 300, 500),
    (2000, 4000, 400, 600),
    (3000, 6000, 500, 1000),
)
"""Tournament levels in chips: (small bet, big bet, ante, bring-in). Level III (25/50, ante 5,
bring-in 10) and IV (50/100, ante 10, bring-in 15) are as in real PokerStars exports."""

FAULTS = {
    "BRING_IN_PLAYER": "the bring-in is posted by a player whose door card is not the lowest "
    "(highest in razz); play goes on clockwise from that player",
    "BRING_IN_AMOUNT": "the bring-in is posted for the full small bet; nobody completes",
    "OUT_OF_TURN": "on 4th street or later someone other than the best showing hand acts first",
    "BET_SIZE": "fixed limit: the first bet on a big-bet street (5th-7th) is the small bet; "
    "spread limit: a bet or raise above the top of the spread; pot limit: a raise smaller than "
    "the minimum raise, or a bet or raise above the pot; no limit: a raise smaller than the "
    "minimum raise (none of them all-in)",
    "RAISE_CAP": "after 'Betting is capped' one more full raise is made (fixed limit, and "
    "spread limit where the profile caps it)",
    "CHECK_FACING_BET": "a player facing a bet (the bring-in, or a bet made for it) checks",
    "CALL_AMOUNT": "a player calls a bet for less than it costs (and is not all-in)",
    "ACTED_AFTER_FOLD": "a player who just folded checks",
    "OVER_STACK": "a seat line shows a stack smaller than what the player then puts in",
    "ROUND_INCOMPLETE": "the last check of a street is left out",
    "UNCALLED_RETURN": "an uncalled bet is returned short",
    "ANTE": "one player is dealt in without posting the ante",
    "DUPLICATE_CARD": "a player is dealt another player's door card",
    "CARDS_CHANGED": "a 'Dealt to' line repeats an earlier card as a card nobody was dealt",
    "CARD_COUNT": "a 'Dealt to' line on 4th-6th street deals two new cards",
    "COMMUNITY_CARD": "a community card is dealt on 7th street although the deck was enough",
    "POT_TOTAL": "the summary's total pot is more than the players put in",
    "RAKE": "the summary's rake is off by one unit",
    "WRONG_WINNER": "a pot is paid to a player who shows a losing hand (in hi/lo one with a "
    "qualifying low, so that the only reading is the wrong winner)",
    "SPLIT_AMOUNT": "two or more units move between two players who share the pots",
    "LOW_NOT_QUALIFIED": "hi/lo: half of a pot nobody qualifies low for goes to a losing hand",
    "ODD_CHIP": "the odd chip of a split pot goes to the other player",
    "NOT_ELIGIBLE": "a pot won without showdown is collected by a player who folded",
    "HAND_DESCRIPTION": "a shown hand is described as another hand",
}
"""Each injectable violation code and how the simulator injects it: one thing bent in a hand
that is otherwise played legally, so that the replay must report (at least) that code."""

FAULT_CODES = tuple(FAULTS)
"""Every violation code of `handlog.rules.violations` can be injected."""

RAKE_PERCENT = 5
RAKE_CAP_BIG_BETS = 3
"""Cash-game rake: 5% of the total pot rounded down to the cent, at most three big bets, and
none when the hand ends on 3rd street ("no flop, no drop"). Tournaments have no rake."""

START_CLOCK = datetime(2024, 1, 1, 12, 0, 0)
"""The first hand's Eastern-time clock."""

# Faults whose hands are steered towards later streets and showdowns (fewer folds).
_NEEDS_LATE_STREETS = frozenset(
    {
        "OUT_OF_TURN",
        "BET_SIZE",
        "DUPLICATE_CARD",
        "CARDS_CHANGED",
        "CARD_COUNT",
        "COMMUNITY_CARD",
        "ROUND_INCOMPLETE",
        "WRONG_WINNER",
        "SPLIT_AMOUNT",
        "LOW_NOT_QUALIFIED",
        "ODD_CHIP",
        "HAND_DESCRIPTION",
    }
)
_NEEDS_TIE = frozenset({"SPLIT_AMOUNT", "ODD_CHIP"})
"""Faults that need a pot shared by two players: in stud and razz the deal is arranged so
that two players hold the same ranks (a tie); in stud hi/lo the halves do it."""
_MAX_ATTEMPTS = 80
"""Deals tried for one faulted hand before another fault is chosen for it."""

_STRENGTH_MEMO: dict[Game, dict[tuple[int, ...], float]] = {game: {} for game in Game}
"""`_rank_strength` by game and sorted ranks (at most ~50,000 rank multisets a game)."""
_FOLD_BY_STREET = {3: 0.85, 4: 1.0, 5: 1.1, 6: 0.9, 7: 0.8}
"""How readily a weak hand folds to a bet, by street (weighted by looseness and strength)."""

_STREETS = {int(street): street for street in Street}
"""Streets by number (0: the antes)."""
_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)
_TABLE_NAMES = (
    "Atalante",
    "Hygiea",
    "Ceres",
    "Pallas",
    "Vesta",
    "Juno",
    "Astraea",
    "Hebe",
    "Iris",
    "Flora",
    "Metis",
    "Parthenope",
    "Victoria",
    "Egeria",
    "Irene",
    "Eunomia",
    "Psyche",
    "Thetis",
    "Melpomene",
    "Fortuna",
    "Massalia",
    "Lutetia",
    "Calliope",
    "Thalia",
    "Themis",
    "Phocaea",
    "Proserpina",
    "Euterpe",
    "Bellona",
    "Amphitrite",
)
_CHAT = (
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
_NAME_PARTS = (
    "ace",
    "stud",
    "river",
    "king",
    "joker",
    "tilt",
    "lucky",
    "shark",
    "fish",
    "razz",
    "pokah",
    "bluff",
    "nuts",
    "grind",
    "chip",
    "donk",
    "maverick",
    "silk",
    "zone",
    "road",
    "devil",
    "master",
    "trini",
    "smoothie",
    "pressure",
    "sludge",
    "rahat",
    "soroka",
    "kobreli",
    "gashpor",
    "denny",
    "totof",
    "nikolay",
    "wizard",
    "eagle",
    "tiger",
    "panda",
    "mojo",
    "volt",
    "delta",
)
_ODD_NAMES = (
    "Anna K.",
    "J.R. Ewing",
    "x.y.z",
    "Mr Big",
    "Ölfläsche",
    "dr. no",
    "PC [Mittel]",
    "Zoë_22",
    "el niño",
    "Kaiser [TT]",
)


class StakesError(ValueError):
    """Stakes text that cannot be played (the message says why)."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """The four amounts of a stud game, in minor units: `small_bet` and `big_bet` as
    `Hand.small_bet` and `Hand.big_bet` (fixed limit: the two bets; spread limit: the spread's
    bottom and top; pot and no limit: the smallest bet of the early and the big-bet streets)."""

    small_bet: int
    big_bet: int
    ante: int
    bring_in: int


def forced_bets(small_bet: int, big_bet: int) -> tuple[int, int]:
    """(ante, bring-in) for stakes that PokerStars headers name only by their bets: the
    known tables as they are, otherwise an ante of a tenth of the big bet and a bring-in of
    three tenths of the small bet (400/800: 80 and 120, as in a real 8-Game export)."""
    known = CASH_FORCED_BETS.get((small_bet, big_bet))
    if known is not None:
        return known
    for level in TOURNAMENT_LEVELS:
        if level[:2] == (small_bet, big_bet):
            return level[2], level[3]
    ante = max(1, big_bet // 10)
    bring_in = min(max(1, small_bet * 3 // 10), small_bet - 1)
    return ante, bring_in


def parse_stakes(
    text: str, tournament: bool = False, structure: Structure = Structure.FIXED
) -> Stakes:
    """Stakes as "small/big": dollars for cash ("0.04/0.08", "$1/$2"), chips for tournaments
    ("50/100"). Fixed limit: the big bet is twice the small; spread limit: the spread's bottom
    and top; pot and no limit: the smallest bet of the early and the big-bet streets. Raises
    `StakesError` for anything that cannot be dealt."""
    small_text, slash, big_text = text.replace("$", "").replace(" ", "").partition("/")
    if not slash:
        raise StakesError(f"stakes are written small/big, e.g. 0.04/0.08, not {text!r}")
    try:
        small, big = (
            _chips(part) if tournament else _cents(part) for part in (small_text, big_text)
        )
    except ValueError:
        unit = "whole chips" if tournament else "dollars with at most two decimals"
        raise StakesError(f"stakes {text!r}: both bets must be {unit}") from None
    if small < 2:
        raise StakesError(
            f"stakes {text!r}: the small bet must be at least 2 "
            f"{'chips' if tournament else 'cents'} (the bring-in is less than the small bet)"
        )
    if structure is Structure.FIXED and big != 2 * small:
        raise StakesError(
            f"stakes {text!r}: in fixed-limit stud the big bet is twice the small bet"
        )
    if structure is Structure.SPREAD and big <= small:
        raise StakesError(f"stakes {text!r}: a spread's top must be above its bottom")
    if big < small:
        raise StakesError(f"stakes {text!r}: the big-bet streets' bet cannot be the smaller")
    ante, bring_in = forced_bets(small, big)
    return Stakes(small, big, ante, bring_in)


def _cents(text: str) -> int:
    whole, dot, fraction = text.partition(".")
    if not whole.isdigit() or (dot and not fraction.isdigit()) or len(fraction) > 2:
        raise ValueError(text)
    return int(whole) * 100 + int((fraction + "00")[:2])


def _chips(text: str) -> int:
    if not text.isdigit():
        raise ValueError(text)
    return int(text)


@dataclass(frozen=True, slots=True)
class SimulationOptions:
    """What to simulate."""

    game: Game
    hands: int
    players: int = 8
    """Players seated at each table (2..8); now and then one sits out or leaves."""
    seed: int = 0
    stakes: Stakes | None = None
    """Default: `DEFAULT_STAKES` of the structure for cash ($0.04/$0.08, a $0.04-$0.16 spread); tournaments climb the `TOURNAMENT_LEVELS` from level I
    (or from the level of these stakes; stakes off the ladder stay fixed)."""
    tournament: bool = False
    fault_rate: float = 0.0
    """Share of hands given exactly one injected violation."""
    profile: RuleProfile | None = None
    """The house rules the hands are played under; None: the site's own profile."""
    hero: str = "Hero"
    structure: Structure = Structure.FIXED
    """The betting structure (`handlog.rules.structures`): fixed, spread, pot or no limit."""
    site: Site = Site.POKERSTARS
    """Whose hands: the site's printer writes them (and its profile is the default)."""

    def site_format(self) -> SiteFormat:
        """The site's format (its printer and profile), or ValueError if it cannot print."""
        found = format_for(self.site)
        if found is None or found.print_hand is None:
            raise ValueError(f"handlog has no printer for {self.site.value} hands")
        return found

    @property
    def rules(self) -> RuleProfile:
        """The profile the hands are played under: `profile`, else the site's."""
        return self.profile if self.profile is not None else self.site_format().profile

    def check(self) -> None:
        """Raise ValueError with a clear message for options that cannot be simulated."""
        if self.game not in SIMULATED_GAMES:
            names = ", ".join(game.value for game in SIMULATED_GAMES)
            raise ValueError(f"game {self.game.value!r} cannot be simulated; choose {names}")
        if self.structure not in SIMULATED_STRUCTURES:
            names = ", ".join(s.value for s in SIMULATED_STRUCTURES)
            raise ValueError(f"structure {self.structure!r} cannot be simulated; choose {names}")
        if self.hands < 0:
            raise ValueError(f"hands must be 0 or more, not {self.hands}")
        if not 2 <= self.players <= MAX_SEATS:
            raise ValueError(
                f"players must be from 2 to {MAX_SEATS} (a PokerStars stud table), not {self.players}"
            )
        if not 0.0 <= self.fault_rate <= 1.0:
            raise ValueError(f"the fault rate is a share from 0 to 1, not {self.fault_rate}")
        problem = form_error(self.site_format(), self.game, self.structure, self.tournament)
        if problem is not None:
            raise ValueError(problem)


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    """One simulated hand."""

    hand_id: str
    text: str
    """The hand as the site's printer writes it (PokerStars text by default), without a
    trailing newline."""
    fault: str | None
    """The violation code injected into it, if any."""
    hand: Hand
    """The hand's records, as the simulator built them: what the printer wrote (parsing
    `text` gives records equal to these)."""


@dataclass(slots=True)
class SimulationSummary:
    """What `write_simulation` wrote."""

    path: str
    faults_path: str | None
    hands: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    bytes: int = 0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.cpu_seconds if self.cpu_seconds else 0.0


def form_error(site: SiteFormat, game: Game, structure: Structure, tournament: bool) -> str | None:
    """Why `site` cannot be simulated dealing this form of hand (one it does not deal, by its
    `SiteFormat.deals`), or None."""
    if (game, structure, tournament) in site.deals:
        return None
    kind = "tournament" if tournament else "cash"
    dealt = sorted({f"{g.value} {s.value}{' tournament' if t else ''}" for g, s, t in site.deals})
    return (
        f"{site.name} does not deal {game.value} {structure.value}-limit {kind} hands; it "
        f"deals: {', '.join(dealt) or 'none that handlog can print yet'}"
    )


def faults_path_for(path: str | os.PathLike[str]) -> str:
    """The sidecar that lists the injected faults of a simulated file: FILE.faults.jsonl."""
    return f"{os.fspath(path)}.faults.jsonl"


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
    capped = rules.capped and (rules.ceiling is not Ceiling.SPREAD or profile.spread_capped)
    excluded = set()
    if not (variant.split and variant.low_qualifier is not None):
        excluded.add("LOW_NOT_QUALIFIED")
    if variant.face_up[-1]:
        excluded.add("COMMUNITY_CARD")
    if not capped:
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


_AWARD_FAULTS = frozenset(
    {"WRONG_WINNER", "SPLIT_AMOUNT", "LOW_NOT_QUALIFIED", "ODD_CHIP", "NOT_ELIGIBLE"}
)
"""Faults in who is paid what, which a site that prints no awards cannot show."""


def write_simulation(
    options: SimulationOptions,
    path: str | os.PathLike[str],
    progress: Callable[[int], None] | None = None,
) -> SimulationSummary:
    """Simulate `options.hands` hands into `path`, hand by hand, and (with a fault rate) list
    the injected faults in `faults_path_for(path)`. `progress` is called with the number of
    hands written so far, every 1,000 hands."""
    options.check()
    target = os.fspath(path)
    faults_path = faults_path_for(target) if options.fault_rate > 0 else None
    summary = SimulationSummary(target, faults_path)
    wall, cpu = time.perf_counter(), time.process_time()
    with contextlib.ExitStack() as files:
        out = files.enter_context(open(target, "w", encoding="utf-8", newline="\n"))
        sidecar = None
        if faults_path is not None:
            sidecar = files.enter_context(open(faults_path, "w", encoding="utf-8", newline="\n"))

        def counted() -> Iterator[SimulatedHand]:
            for count, hand in enumerate(simulate_hands(options), 1):
                yield hand
                if hand.fault is not None:
                    summary.faults[hand.fault] += 1
                    if sidecar is not None:
                        line = json.dumps({"hand_id": hand.hand_id, "code": hand.fault})
                        sidecar.write(line + "\n")
                if progress is not None and count % 1000 == 0:
                    progress(count)
                summary.hands = count

        print_file = options.site_format().print_file
        if print_file is None:
            pieces: Iterator[str] = (hand.text + "\n\n\n\n" for hand in counted())
        else:  # a file that wraps its hands (an XML session): the site writes it whole
            pieces = print_file(hand.hand for hand in counted())
        for text in pieces:
            out.write(text)
            summary.bytes += len(text.encode("utf-8"))
    summary.seconds = time.perf_counter() - wall
    summary.cpu_seconds = time.process_time() - cpu
    return summary


def simulate_hands(options: SimulationOptions) -> Iterator[SimulatedHand]:
    """The simulated hands one at a time (nothing is kept: any number can be streamed)."""
    options.check()
    return _Simulator(options).hands()


# -- players and tables ------------------------------------------------------------------


@dataclass(slots=True)
class _Player:
    name: str
    stack: int
    looseness: float
    """How readily the player continues with a weak hand (0..1)."""
    aggression: float
    """How readily the player bets and raises (0..1)."""
    sitting_out: int = 0
    """Hands left sitting out (cash: not dealt in; tournament: dealt in and folded)."""


@dataclass(slots=True)
class _Plan:
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


class _Redeal(Exception):
    """This deal cannot be played as planned; deal again."""


class _Simulator:
    """Tables, players, clock and hand numbers across a run, and the loop over hands."""

    def __init__(self, options: SimulationOptions) -> None:
        self.options = options
        self.game = options.game
        self.variant = VARIANTS[options.game]
        self.structure = options.structure
        self.rules = STRUCTURES[options.structure]
        self.profile = options.rules
        stream = f"handlog-simulate/{options.game.value}/{options.seed}"
        if options.structure is not Structure.FIXED:
            stream += f"/{options.structure.value}"
        self.rng = random.Random(stream)
        self.tournament = options.tournament
        self.format = options.site_format()
        printer = self.format.print_hand
        assert printer is not None
        self.print_hand = printer
        """The site's printer, which writes each hand's records as text."""
        self.strength_memo = _STRENGTH_MEMO[options.game]
        self.names = self._name_pool(400)
        self.clock = START_CLOCK + timedelta(minutes=self.rng.randrange(0, 600))
        # Hand numbers: a block per (game, seed) so that separate runs rarely collide.
        self.next_hand_id = 100_000_000_000 + self.rng.randrange(9_000) * 100_000_000
        self.codes = fault_codes(options.game, options.structure, self.profile, self.format.traits)
        self.split_game = self.variant.split
        self.fixed_level: Stakes | None = None
        self.level = 0
        if options.tournament:
            if options.stakes is not None:
                ladder = [level[:2] for level in TOURNAMENT_LEVELS]
                pair = (options.stakes.small_bet, options.stakes.big_bet)
                if pair in ladder:
                    self.level = ladder.index(pair)
                else:
                    self.fixed_level = options.stakes
            self.stakes = self._level_stakes()
        else:
            self.stakes = options.stakes or Stakes(*DEFAULT_STAKES[options.structure])
        self.seats: dict[int, _Player] = {}
        self.hero_seat = 1
        self.hands_left = 0
        self.table = ""
        self.tournament_id = ""
        self.buy_in = ""
        self.entrants = 0
        self.level_hands = 0
        self.joining: list[tuple[int, _Player]] = []
        self.leaving: set[int] = set()

    # -- names, money ------------------------------------------------------------------

    def _name_pool(self, count: int) -> list[str]:
        rng = self.rng
        names: list[str] = []
        seen = {self.options.hero}
        while len(names) < count:
            roll = rng.random()
            if roll < 0.04:
                name = rng.choice(_ODD_NAMES)
            else:
                first = rng.choice(_NAME_PARTS)
                style = rng.random()
                if style < 0.35:
                    name = f"{first}{rng.randrange(1, 9999)}"
                elif style < 0.7:
                    name = f"{first.capitalize()}{rng.choice(_NAME_PARTS).capitalize()}"
                    if rng.random() < 0.5:
                        name += str(rng.randrange(1, 99))
                elif style < 0.85:
                    name = f"{first}_{rng.choice(_NAME_PARTS)}"
                else:
                    name = f"{first.upper()}{rng.randrange(10, 999)}"
            if name not in seen:
                seen.add(name)
                names.append(name)
        return names

    # -- sessions ----------------------------------------------------------------------

    def _level_stakes(self) -> Stakes:
        if self.fixed_level is not None:
            return self.fixed_level
        small, big, ante, bring_in = TOURNAMENT_LEVELS[min(self.level, len(TOURNAMENT_LEVELS) - 1)]
        return Stakes(small, big, ante, bring_in)

    def _new_player(self, exclude: set[str]) -> _Player:
        rng = self.rng
        while True:
            name = rng.choice(self.names)
            if name not in exclude:
                break
        return _Player(name, self._buy_in_stack(), rng.uniform(0.15, 0.85), rng.uniform(0.05, 0.6))

    def _buy_in_stack(self) -> int:
        rng = self.rng
        stakes = self.stakes
        big = stakes.big_bet
        if self.tournament:
            if rng.random() < 0.2:
                return rng.randint(stakes.ante + 1, 6 * big)
            return rng.randint(10 * big, 80 * big)
        roll = rng.random()
        if roll < 0.3:  # short stacks: all-ins for less, side pots
            return rng.randint(stakes.ante + 1, 6 * big)
        if roll < 0.85:
            return rng.randint(10 * big, 40 * big)
        return rng.randint(40 * big, 150 * big)

    def _new_table(self) -> None:
        rng = self.rng
        options = self.options
        self.seats = {}
        self.joining = []
        self.leaving = set()
        seat_numbers = sorted(rng.sample(range(1, MAX_SEATS + 1), options.players))
        self.hero_seat = rng.choice(seat_numbers)
        if self.tournament:
            self.tournament_id = str(rng.randrange(100_000_000, 999_999_999))
            fee = rng.choice(((200, 20), (500, 50), (1000, 100), (2000, 150), (110, 10)))
            self.buy_in = f"{format_amount(fee[0], '$')}+{format_amount(fee[1], '$')} USD"
            if fee[0] % 100 == 0 and rng.random() < 0.5:
                self.buy_in = f"${fee[0] // 100}.00+${fee[1] // 100}.{fee[1] % 100:02d} USD"
            self.entrants = rng.randrange(200, 9000)
            self.table = f"{self.tournament_id} {rng.randrange(1, max(2, self.entrants // 8))}"
            if self.fixed_level is None:
                self.level = 0
                if options.stakes is not None:
                    pair = (options.stakes.small_bet, options.stakes.big_bet)
                    self.level = [level[:2] for level in TOURNAMENT_LEVELS].index(pair)
            self.stakes = self._level_stakes()
            self.level_hands = 0
            self.hands_left = rng.randrange(150, 600)
        else:
            numeral = _roman(rng.randrange(1, 40))
            self.table = f"{rng.choice(_TABLE_NAMES)} {numeral}"
            self.hands_left = rng.randrange(40, 400)
        taken = {options.hero}
        for seat in seat_numbers:
            if seat == self.hero_seat:
                player = _Player(
                    options.hero, self._buy_in_stack(), rng.uniform(0.3, 0.7), rng.uniform(0.1, 0.5)
                )
                player.stack = max(player.stack, 10 * self.stakes.big_bet)
            else:
                player = self._new_player(taken)
            taken.add(player.name)
            self.seats[seat] = player

    def _before_hand(self) -> None:
        """Table changes between hands: leavers go, joiners sit, stacks are topped up, the
        tournament level rises."""
        if self.hands_left <= 0 or not self.seats:
            self._new_table()
            return
        rng = self.rng
        for seat in self.leaving:
            self.seats.pop(seat, None)
        self.leaving = set()
        for seat, player in self.joining:
            if seat not in self.seats:
                self.seats[seat] = player
        self.joining = []
        if self.tournament:
            self.level_hands += 1
            if self.fixed_level is None and self.level_hands >= 10:
                self.level_hands = 0
                self.level = min(self.level + 1, len(TOURNAMENT_LEVELS) - 1)
                self.stakes = self._level_stakes()
            self.entrants = max(len(self.seats) + 1, self.entrants - rng.randrange(0, 4))
        ante = self.stakes.ante
        taken = {player.name for player in self.seats.values()}
        for seat, player in list(self.seats.items()):
            if player.sitting_out:
                player.sitting_out -= 1
            if player.stack > ante:
                continue
            if seat == self.hero_seat:
                player.stack = self._buy_in_stack() + 10 * self.stakes.big_bet
            elif self.tournament and player.stack > 0:
                continue  # a short tournament stack posts what it has
            else:
                replacement = self._new_player(taken)
                taken.add(replacement.name)
                self.seats[seat] = replacement
        # Seats left empty fill again through "joins the table" lines; a table more than
        # one short (or below two) is filled at once.
        empty = [s for s in range(1, MAX_SEATS + 1) if s not in self.seats]
        while len(self.seats) < max(2, self.options.players - 1) and empty:
            seat = empty.pop(rng.randrange(len(empty)))
            replacement = self._new_player(taken)
            taken.add(replacement.name)
            self.seats[seat] = replacement
        dealt = [seat for seat, player in self.seats.items() if self._dealt_in(player)]
        if len(dealt) < 2:
            for player in self.seats.values():
                player.sitting_out = 0

    def _next_clock(self) -> None:
        """The next hand's Eastern-time clock (`self.clock`)."""
        self.clock += timedelta(seconds=self.rng.randrange(15, 80))

    def _hand(self, deal: _Deal, total_pot: int, rake: int) -> Hand:
        """The hand's record from what the deal built: the table, stakes and clock from the
        run, seats, events, streets, results and pots from the deal."""
        stakes = self.stakes
        clock = self.clock
        tournament = self.tournament
        level = None
        if tournament:
            level = "Level " + (_roman(self.level + 1) if self.fixed_level is None else "I")
        several = len(deal.pots_after_rake) > 1
        if self.format.traits.total_pot_after_rake:
            total_pot -= rake  # the total as the site prints it (Winning, Winamax)
        return Hand(
            site=self.options.site,
            hand_id=deal.hand_id,
            game=self.game,
            table=self.table,
            max_seats=MAX_SEATS,
            currency=None if tournament else "USD",
            small_bet=stakes.small_bet,
            big_bet=stakes.big_bet,
            start_time=utc_time(
                clock.year, clock.month, clock.day, clock.hour, clock.minute, clock.second, "ET"
            ),
            seats=tuple(deal.seat_records),
            events=tuple(item for item in deal.items if type(item) is not Street),  # type: ignore[misc]
            streets=tuple(item for item in deal.items if type(item) is Street),  # type: ignore[misc]
            results=tuple(deal.results),
            total_pot=total_pot,
            rake=rake,
            main_pot=deal.pots_after_rake[0] if several else None,
            side_pots=tuple(deal.pots_after_rake[1:]) if several else (),
            community_card=deal.community,
            ante=deal.ante_seen,
            bring_in=deal.bring_in_seen,
            tournament_id=self.tournament_id if tournament else None,
            tournament_level=level,
            buy_in=self.buy_in if tournament else None,
            structure=self.structure,
        )

    # -- the loop ----------------------------------------------------------------------

    def hands(self) -> Iterator[SimulatedHand]:
        rng = self.rng
        options = self.options
        for _ in range(options.hands):
            self._before_hand()
            self.next_hand_id += rng.randrange(1, 40)
            hand_id = str(self.next_hand_id)
            self._next_clock()
            fault = None
            if rng.random() < options.fault_rate:
                fault = rng.choice(self.codes)
                dealt = sum(self._dealt_in(p) for p in self.seats.values())
                while (
                    fault == "ODD_CHIP" and dealt == 2 and (self.tournament or not self.split_game)
                ):
                    # Two players put in the same: their pot is even (only rake can make it
                    # odd, in hi/lo cash games).
                    fault = rng.choice(self.codes)
            deal = self._play(hand_id, fault)
            self._after_hand(deal)
            assert deal.hand is not None  # built by every deal that was played
            yield SimulatedHand(hand_id, deal.text, deal.plan.fault, deal.hand)

    def _seated(self) -> list[tuple[int, _Player]]:
        return sorted(self.seats.items())

    def _play(self, hand_id: str, fault: str | None) -> _Deal:
        """Deal and play one hand; a fault that this deal cannot carry is dealt again, and
        after many tries replaced by another."""
        attempts = 0
        while True:
            attempts += 1
            plan = self._plan(fault)
            deal = _Deal(self, hand_id, plan)
            try:
                deal.play()
            except _Redeal:
                continue
            if plan.fault is None or (deal.applied and self._carried(deal)):
                return deal
            if attempts >= _MAX_ATTEMPTS:
                fault = self.rng.choice(self.codes)
                attempts = 0

    def _carried(self, deal: _Deal) -> bool:
        """Whether the site's text still shows the injected fault to the replay: a site that
        does not print something (PartyPoker shows no opponent's cards) cannot carry a fault
        in it, and the deal is dealt again (or the fault replaced), so that every fault the
        sidecar lists is one `handlog check` can flag."""
        from handlog.parse import parse_text
        from handlog.rules.replay import replay

        parsed = parse_text(deal.text)
        if len(parsed) != 1 or not isinstance(parsed[0], Hand):
            return False
        result = replay(parsed[0], self.profile, self.format.traits)
        return any(violation.code == deal.plan.fault for violation in result.violations)

    def _plan(self, fault: str | None) -> _Plan:
        rng = self.rng
        variant = self.variant
        first, last = int(variant.first_street), int(variant.last_street)
        plan = _Plan(fault, first)
        seated = [seat for seat, player in self.seats.items() if self._dealt_in(player)]
        if fault is None:
            roll = rng.random()
            if len(seated) == MAX_SEATS and roll < 0.02:
                plan.family_pot = True
            elif roll < 0.10:
                plan.passive = True
            elif roll < 0.115 and not self.variant.split and len(seated) >= 2:
                plan.tie = tuple(rng.sample(range(len(seated)), 2))  # type: ignore[assignment]
            return plan
        plan.passive = fault in _NEEDS_LATE_STREETS
        if fault in _NEEDS_TIE and not self.variant.split:
            plan.tie = tuple(rng.sample(range(len(seated)), 2))  # type: ignore[assignment]
        # Streets by the game's (7-card stud: 3rd to 7th, 5-card stud: 2nd to 5th).
        later = range(first + 1, last + 1)
        if fault == "OUT_OF_TURN":
            plan.street = rng.choice((first + 1, *later))
        elif fault in ("CARDS_CHANGED", "CARD_COUNT"):
            plan.street = rng.choice([s for s in later if variant.face_up[s - 1]])
        elif fault == "BET_SIZE":
            if self.rules.exact_sizes:
                plan.street = rng.choice(sorted(variant.big_bet_streets))
            else:
                plan.street = rng.choice((first, *range(first, last + 1)))
        elif fault == "RAISE_CAP":
            plan.street = rng.choice((first, first, first + 1, first + 2))
        elif fault in ("CHECK_FACING_BET", "CALL_AMOUNT"):
            plan.street = rng.choice((first, *range(first, last)))
        elif fault == "DUPLICATE_CARD":
            plan.street = rng.choice(range(first, last))
        elif fault == "COMMUNITY_CARD":
            plan.family_pot = rng.random() < 0.5
        return plan

    def _dealt_in(self, player: _Player) -> bool:
        """Whether a seated player is dealt in: cash players sitting out are not."""
        return player.stack > 0 and not (player.sitting_out and not self.tournament)

    def _after_hand(self, deal: _Deal) -> None:
        """Stacks after the hand, and the table events its noise lines announced."""
        self.hands_left -= 1
        for seat, stack in deal.final_stacks.items():
            self.seats[seat].stack = stack
        for seat in deal.leaving:
            self.leaving.add(seat)
        if deal.sitting_out_next is not None:
            self.seats[deal.sitting_out_next].sitting_out = self.rng.randrange(1, 6)
        self.joining.extend(deal.joining)
        if self.tournament:
            for seat in deal.busted:
                self.leaving.add(seat)
                self.entrants -= 1
            if self.hero_seat in deal.busted:
                self.hands_left = 0  # the hero is out: the next hand starts a new tournament


def _roman(number: int) -> str:
    text = ""
    for value, letters in _ROMAN:
        while number >= value:
            text += letters
            number -= value
    return text


# -- one hand ------------------------------------------------------------------------------


class _Deal:
    """One hand: deal, bet, show down, award, and build its records (`self.hand`), which the
    site's printer writes (`self.text`).

    Players are indexed 0..n-1 in seat order (the players dealt in); every rule decision
    mirrors RULES.md and the profile. Fault hooks (`self.fault`) bend exactly one thing."""

    def __init__(self, sim: _Simulator, hand_id: str, plan: _Plan) -> None:
        self.sim = sim
        self.rng = sim.rng
        self.random = sim.rng.random
        self.game = sim.game
        variant = self.variant = sim.variant
        self.first_street = int(variant.first_street)
        self.last_street = int(variant.last_street)
        self.low_only = not variant.high
        """A low game (razz, 2-7 razz, London lowball): the best low takes the pot."""
        self.showing = showing_keys(sim.game, sim.profile)
        self.split = variant.split
        """A hi/lo game: the pot is split between the best high and the best low."""
        self.rules = sim.rules
        self.exact = sim.rules.exact_sizes
        """Fixed limit: every bet and raise exactly a bet size (else a range: spread, pot, no)."""
        self.profile = sim.profile
        self.stakes = sim.stakes
        self.plan = plan
        self.fault = plan.fault
        self.applied = False
        self.hand_id = hand_id
        seated = sim._seated()
        self.all_seated = seated
        players = [(seat, p) for seat, p in seated if sim._dealt_in(p)]
        if len(players) < 2:
            raise AssertionError("fewer than two players dealt in")
        self.seat_numbers = [seat for seat, _ in players]
        self.players = [p for _, p in players]
        self.names = [p.name for p in self.players]
        n = self.n = len(players)
        self.hero = next((i for i in range(n) if self.names[i] == sim.options.hero), -1)
        self.start = [p.stack for p in self.players]
        self.stack = list(self.start)
        self.put = [0] * n
        self.street_put = [0] * n
        self.third_money = [0] * n
        """Chips beyond the ante put in on 3rd street (a fold then is not "didn't bet")."""
        self.folded_on = [0] * n
        self.all_in = [False] * n
        self.cards: list[list[Card]] = [[] for _ in range(n)]
        self.up: list[list[Card]] = [[] for _ in range(n)]
        self.auto_fold = [sim.tournament and p.sitting_out > 0 for p in self.players]
        self.live = n
        self.items: list[Event | Street] = []
        """The hand's events in order, with each street whose header stands there (the
        printer writes a header for it)."""
        self.street_of = _STREETS[0]
        """The street the events now being added belong to."""
        self.seat_records: list[Seat] = []
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
        self.joining: list[tuple[int, _Player]] = []
        self.busted: list[int] = []
        self.sitting_out_next: int | None = None
        self.text = ""
        self.hand: Hand | None = None
        self.collected: dict[int, int] = {}
        """What each player collects, as the hand history says."""
        self.total = 0
        self.rake = 0
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
        self.last_aggressor: int | None = None
        self.patches: list[int] = []
        """Where in `items` a dealing record is to show a card nobody was dealt (the card
        faults), put in once the hand is over."""
        self.seat_index: dict[int, int] = {}
        # The betting round.
        self.street = 0
        """The street being played (0 while the antes are posted)."""
        self.current_bet = 0
        """The most anyone has put in on this street."""
        self.bets = 0
        """Bets and raises counted towards the cap (the completion is the first)."""
        self.size = self.stakes.small_bet
        """The street's bet: small on 3rd and 4th, big from 5th."""
        self.last_raise = 0
        """The size of the street's last full bet or raise (0 before any), as the replay
        keeps it for `raise_range`."""
        self.double_bet = False
        """An open pair on 4th street allows the big bet (stud, by the profile)."""
        self.big_bet_made = False
        self.completed_text = False
        """Whether a bet or raise was made on the first street: the first one is the
        completion, later ones raises."""
        self.pending: set[int] = set()
        """Players who still have to act before the street is over."""
        self.locked: set[int] = set()
        """Players who acted before a short all-in raise that did not reopen the betting:
        they may call or fold, not raise."""
        self.acted: set[int] = set()
        """Players who acted since the last bet or raise that reopened the betting."""
        self.cap = self.profile.cap_bets
        self.no_raise = False
        self.forced_war = False
        """Raise at every turn (the RAISE_CAP fault needs the cap reached)."""

    # -- helpers -------------------------------------------------------------------------

    def able(self) -> list[int]:
        folded_on = self.folded_on
        all_in = self.all_in
        return [i for i in range(self.n) if not folded_on[i] and not all_in[i]]

    def in_hand(self) -> list[int]:
        folded_on = self.folded_on
        return [i for i in range(self.n) if not folded_on[i]]

    def pay(self, player: int, amount: int) -> None:
        self.stack[player] -= amount
        self.put[player] += amount
        self.street_put[player] += amount
        if self.street == self.first_street:
            self.third_money[player] += amount
        if self.stack[player] <= 0:
            self.all_in[player] = True

    def add(self, kind: ActionKind, player: int, amount: int | None = None) -> None:
        """An action that puts nothing in (or, for returns and collects, `amount` out)."""
        self.items.append(Action(self.street_of, self.names[player], kind, amount))

    def put_in(
        self,
        kind: ActionKind,
        player: int,
        amount: int,
        raise_by: int | None = None,
        all_in: bool | None = None,
    ) -> None:
        """Pay `amount` from the player's stack and record it: the chips added and the
        player's street total after them (`raise_by` for a raise, the size over the bet it
        faced); all-in when the stack is empty, unless `all_in` says otherwise."""
        self.pay(player, amount)
        self.items.append(
            Action(
                self.street_of,
                self.names[player],
                kind,
                amount,
                None if kind is ActionKind.ANTE else self.street_put[player],
                self.all_in[player] if all_in is None else all_in,
                raise_by=raise_by,
            )
        )

    def bet_or_raise(self, player: int, target: int, all_in: bool | None = None) -> None:
        """A bet (nothing to match yet) or a raise of the bet to match, to the street total
        `target`; on the first street the first one is the completion."""
        before = self.current_bet
        if self.street == self.first_street and not self.completed_text:
            self.completed_text = True
            kind = ActionKind.COMPLETE
        else:
            kind = ActionKind.BET if before == 0 else ActionKind.RAISE
        raise_by = None if before == 0 else target - before
        self.put_in(kind, player, target - self.street_put[player], raise_by, all_in)

    def street_header(self, street: Street) -> None:
        """The events that follow belong to `street`, whose header stands here."""
        self.street_of = street
        self.items.append(street)

    def note(self, kind: NoteKind, player: int | None, text: str) -> None:
        self.items.append(
            Note(self.street_of, kind, None if player is None else self.names[player], text)
        )

    def next_after(self, player: int) -> int:
        pending = self.pending
        n = self.n
        for step in range(1, n + 1):
            candidate = (player + step) % n
            if candidate in pending:
                return candidate
        raise AssertionError("nobody left to act")

    # -- the hand ------------------------------------------------------------------------

    def play(self) -> None:
        """Play the hand and build its records (`self.hand`) and text (`self.text`);
        `_Redeal` if it cannot be played as planned."""
        sim = self.sim
        dealt_seats = set(self.seat_numbers)
        for seat, player in self.all_seated:
            sitting_out = seat not in dealt_seats or bool(player.sitting_out and sim.tournament)
            self.seat_index[seat] = len(self.seat_records)
            self.seat_records.append(Seat(seat, player.name, player.stack, sitting_out))
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
            raise _Redeal
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
        raise _Redeal

    def _low_rank(self, cards: list[Card]) -> int | None:
        """The game's low (its qualifier and lowball), by the replay's evaluator."""
        variant = self.variant
        return evaluate.low_rank(cards, variant.low_qualifier, variant.lowball)

    def _draw(self, player: int = -1) -> Card:
        """The next card for `player` (a rigged one for the two tied players)."""
        if self.queues:
            queue = self.queues.get(player)
            if queue:
                return queue.pop(0)
        deck = self.deck
        if not deck:
            # Only with burns (and eight players): the burned cards, never seen, serve.
            if not self.burned:
                raise _Redeal
            deck = self.deck = self.burned
            self.burned = []
        return deck.pop(int(self.random() * len(deck)))

    def _antes(self) -> None:
        """Everyone dealt in posts the ante (all-in for less if that is all they have)."""
        ante = self.stakes.ante
        skip = self.rng.randrange(self.n) if self.fault == "ANTE" else -1
        for i in range(self.n):
            if i == skip:
                self.applied = True
                continue
            amount = min(ante, self.stack[i])
            self.put_in(ActionKind.ANTE, i, amount)
            if self.ante_seen is None or amount > self.ante_seen:
                self.ante_seen = amount
        self.street_put = [0] * self.n

    # -- dealing -------------------------------------------------------------------------

    def _deal(self, street: int) -> None:
        """The street's header and cards: three each on 3rd street, then one each (face
        down on 7th, or one community card when the deck is short), and the dealing records:
        the hero sees all their cards, the others' up cards only."""
        items = self.items
        names = self.names
        live = self.in_hand()
        rng = self.rng
        if self.profile.burns:
            # A burn before each street (counted even when the deck is empty).
            self.burns += 1
            if self.deck:
                self.burned.append(self._draw())
        first = self.first_street
        face_up = self.variant.face_up[street - 1]
        if street == self.last_street and not face_up:
            folded_on = {i: _STREETS[self.folded_on[i]] for i in range(self.n) if self.folded_on[i]}
            needed = cards_needed(range(self.n), folded_on, street, self.burns)
            if needed > len(DECK) or (self.fault == "COMMUNITY_CARD" and len(live) >= 2):
                if needed <= len(DECK):
                    self.applied = True
                self.community = self._draw()
                self.street_header(_STREETS[street])
                self.strength_now = [-1.0] * self.n
                return
        self.street_header(_STREETS[street])
        street_of = self.street_of
        hero = self.hero
        if street == first:
            # The first deal: the down cards, then the door card (3rd street: two down and
            # one up; 2nd street in 5-card stud: one down, one up).
            for i in live:
                self.cards[i] = [self._draw(i) for _ in range(first)]
            if self.fault == "DUPLICATE_CARD" and self.plan.street == first:
                victim, source = rng.sample(live, 2)
                self.cards[victim][-1] = self.cards[source][-1]
                self.applied = True
            for i in live:
                cards = self.cards[i]
                door = cards[-1]
                self.up[i] = [door]
                if i == hero:
                    items.append(Dealt(street_of, names[i], (), tuple(cards)))
                else:
                    items.append(Dealt(street_of, names[i], (), (door,), 0, first - 1))
            return
        fault = self.fault
        victim = bent = -1
        if fault is not None and face_up and not self.applied:
            if fault == "DUPLICATE_CARD" and self.plan.street == street:
                victim = rng.choice(live)
            elif fault in ("CARDS_CHANGED", "CARD_COUNT") and street >= self.plan.street:
                bent = rng.choice(live)
        for i in live:
            if i == victim:
                card = self.up[rng.choice([j for j in range(self.n) if j != i])][0]
                self.applied = True
            else:
                card = self._draw(i)
            cards = self.cards[i]
            old = tuple(cards) if i == hero else tuple(self.up[i])
            cards.append(card)
            if face_up:
                self.up[i].append(card)
            elif i != hero:
                continue
            if i == bent:
                self.applied = True
                self.patches.append(len(items))
            items.append(Dealt(street_of, names[i], old, (card,)))
        self.strength_now = [-1.0] * self.n
        if (
            street == self.variant.open_pair_street
            and self.exact
            and self.profile.double_bet_allowed(self.game)
            and any(has_pair(self.up[i]) for i in live)
        ):
            self.double_bet = True
            self.note(NoteKind.DOUBLE_BET_ALLOWED, None, "Pair on board - a double bet is allowed")

    # -- betting -------------------------------------------------------------------------

    def _betting(self, street: int) -> None:
        """One betting round: the bring-in (3rd street) or the best showing hand opens,
        then clockwise until nobody who can act owes anything or one player is left."""
        able = self.able()
        self.street_put = [0] * self.n
        self.current_bet = 0
        self.bets = 0
        self.big_bet_made = False
        self.acted = set()
        self.locked = set()
        self.last_aggressor = None
        self.no_raise = False
        self.last_raise = 0
        if street != self.variant.open_pair_street:
            self.double_bet = False
        if len(able) < 2:
            return
        stakes = self.stakes
        self.size = stakes.big_bet if street in self.variant.big_bet_streets else stakes.small_bet
        # By betting round (5-card stud's 2nd street is the first, as 3rd in 7-card games).
        self.fold_street = _FOLD_BY_STREET[street - self.first_street + 3]
        self.pending = set(able)
        started_with = len(able)
        profile = self.profile
        rules = self.rules
        capped = rules.capped and (rules.ceiling is not Ceiling.SPREAD or profile.spread_capped)
        self.cap = (
            profile.cap_bets if capped and (profile.cap_heads_up or started_with > 2) else 1_000_000
        )
        self.forced_war = (
            self.fault == "RAISE_CAP" and street >= self.plan.street and not self.applied
        )
        if street == self.first_street:
            actor = self._bring_in()
        else:
            actor = self._first_actor(street)
            if self.fault == "OUT_OF_TURN" and street >= self.plan.street and not self.applied:
                others = [i for i in able if i != actor]
                actor = self.rng.choice(others)
                self.applied = True
            self._act(actor)
        while self.live > 1 and self.pending:
            actor = self.next_after(actor)
            self._act(actor)

    def _showing_key(self, player: int, with_community: bool) -> tuple[object, ...]:
        """The replay's key of the player's showing cards (`tables.ShowingKeys`), with the
        community card on 7th street."""
        cards = self.up[player]
        if with_community and self.community is not None:
            cards = [*cards, self.community]
        return self.showing.key(cards)

    def _first_actor(self, street: int) -> int:
        """The best showing hand acts first (with the community card on 7th street); equal
        hands by the profile's tie-break; an all-in player passes to the next clockwise."""
        contenders = self.in_hand()
        keys = {i: self._showing_key(i, street == 7) for i in contenders}
        best = max(contenders, key=keys.__getitem__)
        if self.profile.first_actor_tie is TieBreak.CLOCKWISE:
            tied = [i for i in contenders if keys[i][:2] == keys[best][:2]]
            best = min(tied)
        if self.all_in[best]:
            best = self.next_after(best)
        return best

    def _bring_in(self) -> int:
        """The lowest door card (highest in razz) brings in, or completes; the player."""
        stakes = self.stakes
        keys = {i: evaluate.bring_in_key(self.up[i][0], self.game) for i in range(self.n)}
        player = max(range(self.n), key=keys.__getitem__)
        if self.all_in[player]:
            raise _Redeal  # who brings in for a player all-in on the ante is not settled
        if self.fault == "BRING_IN_PLAYER":
            others = [i for i in self.able() if i != player and self.stack[i] > stakes.bring_in]
            if not others:
                raise _Redeal
            player = self.rng.choice(others)
            self.applied = True
        stack = self.stack[player]
        if self.fault == "BRING_IN_AMOUNT":
            if stack <= stakes.small_bet:
                raise _Redeal
            self.put_in(ActionKind.BRING_IN, player, stakes.small_bet)
            self.bring_in_seen = stakes.small_bet
            self.current_bet = stakes.small_bet
            self.no_raise = True  # a completion after it would read as a wrong completion
            self.applied = True
        elif (
            stack > stakes.small_bet
            and not self.auto_fold[player]
            and (self.forced_war or self.rng.random() < 0.25 * self._strength(player) ** 2)
        ):
            if not self.exact:
                self._sized_raise(player, self.forced_war)  # opens for any legal amount
                self.pending = set(self.able()) - {player}
                self.acted = {player}
                return player
            self.bet_or_raise(player, stakes.small_bet)
            self.current_bet = stakes.small_bet
            self.bets = 1
            self.last_aggressor = player
        else:
            amount = min(stakes.bring_in, stack)
            self.put_in(ActionKind.BRING_IN, player, amount)
            self.bring_in_seen = amount
            self.current_bet = amount
        self.pending = set(self.able()) - {player}
        self.acted = {player}
        return player

    def _allowed_sizes(self) -> tuple[int, ...]:
        """The sizes fixed limit allows now, as the replay has them (`tables.fixed_sizes`)."""
        stakes = self.stakes
        first_raise = self.street == self.first_street and self.bets == 1
        return fixed_sizes(
            self.size,
            stakes.small_bet,
            stakes.big_bet,
            self.double_bet,
            self.big_bet_made,
            self.profile,
            # the house's first raise of the completion, sized as the replay reads the hand
            self.profile.house_raise(self.bring_in_seen, stakes.ante) if first_raise else None,
        )

    def _act(self, player: int) -> None:
        """One action by the player whose turn it is: the fault if it is due here, else a
        legal action chosen at random by strength and style."""
        owed = self.current_bet - self.street_put[player]
        stack = self.stack[player]
        may_raise = (
            not self.no_raise
            and self.bets < self.cap
            and stack > owed
            and player not in self.locked
        )
        fault = self.fault
        street = self.street
        if (
            fault is not None
            and not self.applied
            and street >= self.plan.street
            and self._fault_action(player, owed, may_raise)
        ):
            return
        if self.forced_war and may_raise:
            self._raise(player, prefer_big=True)
            return
        # A plausible action, weighted by a rough strength and the player's style.
        if self.auto_fold[player]:
            if owed > 0:
                self._fold(player)
            else:
                self._check(player)
            return
        strength = self.strength_now[player]
        if strength < 0:
            strength = self._strength(player)
        roll = self.random()
        if owed > 0:
            fold = self.fold_weight[player] * (1.0 - strength) * self.fold_street
            if owed > self.size:
                fold *= 1.4
            if roll < fold:
                self._fold(player)
            elif may_raise and roll < fold + self.raise_weight[player] * strength * (
                1.3 * strength + 0.1
            ):
                self._raise(player)
            else:
                self._call(player, owed)
        elif may_raise and roll < self.bet_weight[player] * (0.3 + 1.2 * strength):
            self._raise(player)
        else:
            self._check(player)

    def _fault_action(self, player: int, owed: int, may_raise: bool) -> bool:
        """Play a faulted action if this is the place for it; whether it was played."""
        fault = self.fault
        stack = self.stack[player]
        size = self._allowed_sizes()[-1]
        if not self.exact:
            size = self._range(player)[0] - self.current_bet  # the least raise
        if fault == "RAISE_CAP" and self.bets >= self.cap and stack > owed + size:
            # One raise more than the cap allows, after "Betting is capped".
            total = self.current_bet + size
            self.bet_or_raise(player, total, all_in=False)
            self.last_raise = size
            self.current_bet = total
            self.bets += 1
            self.pending = set(self.able()) - {player}
            self.locked = set()
            self.acted = {player}
            self.forced_war = False
            self.applied = True
            return True
        if fault == "BET_SIZE" and not self.exact:
            return self._sized_fault_bet(player, owed, may_raise)
        if (
            fault == "BET_SIZE"
            and owed == 0
            and self.current_bet == 0
            and stack > self.stakes.big_bet
        ):
            amount = self.stakes.small_bet  # the small bet on a big-bet street
            self.bet_or_raise(player, amount, all_in=False)
            self._after_counted_bet(player, amount, amount)
            self.applied = True
            return True
        if fault in ("CHECK_FACING_BET", "CALL_AMOUNT"):
            if owed <= 0 and self.current_bet == 0 and may_raise and stack > self.size:
                self._raise(player)  # a bet for the fault to face
                return True
            if owed > 0 and stack > owed:
                if fault == "CHECK_FACING_BET":
                    self.add(ActionKind.CHECK, player)
                    self.pending.discard(player)
                    self.acted.add(player)
                    self.applied = True
                    return True
                if owed >= 2:
                    amount = owed - max(1, owed // 2)
                    self.put_in(ActionKind.CALL, player, amount, all_in=False)
                    self.pending.discard(player)
                    self.acted.add(player)
                    self.applied = True
                    return True
        return False

    def _range(self, player: int) -> tuple[int, int | None]:
        """The least and the most the player may bet or raise to in a structure with a range
        of sizes: `structures.raise_range`, given what the replay gives it."""
        stakes = self.stakes
        rules = self.rules
        return raise_range(
            rules,
            current_bet=self.current_bet,
            last_raise=self.last_raise,
            least_bet=smallest_bet(rules, stakes.small_bet, self.size),
            top=stakes.big_bet,
            pot=sum(self.put),
            owed=self.current_bet - self.street_put[player],
            at_least_last=(
                self.profile.spread_raise_at_least_last or rules.ceiling is not Ceiling.SPREAD
            ),
        )

    def _sized_fault_bet(self, player: int, owed: int, may_raise: bool) -> bool:
        """BET_SIZE in spread, pot and no limit: a bet or raise (not all-in) above the top of
        the spread or the pot, or below the least raise (pot and no limit)."""
        if not may_raise:
            return False
        least, most = self._range(player)
        ceiling = self.rules.ceiling
        over = ceiling is Ceiling.SPREAD or (ceiling is Ceiling.POT and self.rng.random() < 0.5)
        if over:
            assert most is not None
            target = most + 1
        else:
            target = least - 1
            if target <= self.current_bet or target <= 0:
                return False
        already = self.street_put[player]
        if target - already >= self.stack[player]:
            return False  # all-in: table stakes would allow less than the least
        self._put_bet_or_raise(player, target, least)
        self.applied = True
        return True

    def _strength(self, player: int) -> float:
        """A rough 0..1 strength of the player's own cards, for choosing actions (not a
        rule: the rules use `evaluate`). Only the ranks count, so it is memoized by them."""
        cards = self.cards[player]
        if self.community is not None:
            cards = [*cards, self.community]
        ranks = tuple(sorted([card.rank for card in cards]))
        memo = self.sim.strength_memo
        strength = memo.get(ranks)
        if strength is None:
            strength = memo[ranks] = _rank_strength(
                ranks, self.low_only, self.split, self.variant.lowball is not Lowball.DEUCE_TO_SEVEN
            )
        self.strength_now[player] = strength
        return strength

    def _targets(self) -> tuple[int, ...]:
        """Totals a full bet, completion or raise may be made to."""
        if self.street == self.first_street and not self.completed_text:
            return (self.stakes.small_bet,)
        return tuple(self.current_bet + size for size in self._allowed_sizes())

    def _sized_raise(self, player: int, prefer_least: bool) -> None:
        """A completion, bet or raise in spread, pot or no limit: the least, a pot-sized one
        (the top of the spread, the pot limit), an amount in between, or all-in (for less
        than the least when that is all the player has: it reopens nothing)."""
        least, most = self._range(player)
        already = self.street_put[player]
        everything = already + self.stack[player]
        if prefer_least:
            target = least
        else:
            rng = self.rng
            pot_size = 2 * self.current_bet + sum(self.put) - already
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
        self._put_bet_or_raise(player, min(target, everything), least)

    def _put_bet_or_raise(self, player: int, target: int, least: int) -> None:
        """Bet or raise to `target` in a structure with a range of sizes; below `least` (an
        all-in for less) it reopens nothing, as in the replay."""
        before = self.current_bet
        self.bet_or_raise(player, target)
        if target >= least or not self.all_in[player]:
            least_bet = smallest_bet(self.rules, self.stakes.small_bet, self.size)
            self.last_raise = target - (before if before >= least_bet else 0)
            self._after_counted_bet(player, target, target - before)
        else:
            self.current_bet = max(before, target)
            self.pending = {i for i in self.able() if self.street_put[i] < self.current_bet} - {
                player
            }
            self.locked |= self.acted
            self.acted.add(player)
        self.last_aggressor = player

    def _raise(self, player: int, prefer_big: bool = False) -> None:
        """A completion, bet or raise to a size the limit allows, or all-in for less; a short
        all-in reopens the betting only from half a bet (or a full one, by the profile)."""
        if not self.exact:
            self._sized_raise(player, prefer_big)
            return
        targets = self._targets()
        rng = self.rng
        if len(targets) > 1 and (prefer_big or self.big_bet_made or rng.random() < 0.6):
            target = targets[-1]
        else:
            target = targets[0]
        already = self.street_put[player]
        stack = self.stack[player]
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
        before = self.current_bet
        self.bet_or_raise(player, target)
        short = target < targets[0]
        increment = target - before
        if self.profile.all_in_reopens_at_half_bet:
            counts = not short or increment * 2 >= self.size
        else:
            counts = not short or increment >= self.size
        if counts:
            self._after_counted_bet(player, target, increment)
        else:
            self.current_bet = max(before, target)
            self.pending = {i for i in self.able() if self.street_put[i] < self.current_bet} - {
                player
            }
            self.locked |= self.acted
            self.acted.add(player)
        self.last_aggressor = player

    def _after_counted_bet(self, player: int, total: int, increment: int) -> None:
        if self.double_bet and increment >= self.stakes.big_bet:
            self.big_bet_made = True
        self.current_bet = max(self.current_bet, total)
        self.bets += 1
        self.pending = set(self.able()) - {player}
        self.locked = set()
        self.acted = {player}
        self.last_aggressor = player
        if self.bets == self.profile.cap_bets and self.cap == self.profile.cap_bets:
            self.note(NoteKind.BETTING_CAPPED, None, "Betting is capped")

    def _call(self, player: int, owed: int) -> None:
        self.put_in(ActionKind.CALL, player, min(owed, self.stack[player]))
        self.pending.discard(player)
        self.acted.add(player)

    def _check(self, player: int) -> None:
        self.add(ActionKind.CHECK, player)
        self.pending.discard(player)
        self.acted.add(player)
        if (
            self.fault == "ROUND_INCOMPLETE"
            and not self.applied
            and not self.pending
            and self.live > 1
        ):
            self.items.pop()  # the street ends without this player's check
            self.applied = True

    def _fold(self, player: int) -> None:
        if self.queues and self.queues.get(player):
            self.deck.extend(self.queues.pop(player))  # cards set aside for a tie go back
        self.folded_on[player] = self.street
        self.live -= 1
        self.pending.discard(player)
        self.locked.discard(player)
        self.add(ActionKind.FOLD, player)
        if self.fault == "ACTED_AFTER_FOLD" and not self.applied:
            self.add(ActionKind.CHECK, player)
            self.applied = True

    def _return_uncalled(self) -> None:
        """The part of the biggest bet on this street that nobody matched goes back."""
        street_put = self.street_put
        most = max(street_put)
        if most == 0:
            return
        top = street_put.index(most)
        due = most - max(street_put[:top] + street_put[top + 1 :])
        if due <= 0:
            return
        returned = due
        if self.fault == "UNCALLED_RETURN" and not self.applied and due >= 2:
            returned = due - max(1, due // 2)
            self.applied = True
        self.add(ActionKind.UNCALLED_BET_RETURNED, top, returned)
        self.stack[top] += returned
        self.put[top] -= returned
        street_put[top] -= returned
        if self.stack[top] > 0:
            self.all_in[top] = False

    # -- pots and awards -----------------------------------------------------------------

    def _rake(self, total: int) -> int:
        if self.sim.tournament or self.street == self.first_street:
            return 0
        return min(total * RAKE_PERCENT // 100, RAKE_CAP_BIG_BETS * self.stakes.big_bet)

    def _award_uncontested(self) -> None:
        """Everyone else folded: the last player collects the pot without a showdown."""
        winner = self.in_hand()[0]
        total = sum(self.put)
        rake = self._rake(total)
        amount = total - rake
        collector = winner
        if self.fault == "NOT_ELIGIBLE":
            folded = [i for i in range(self.n) if self.folded_on[i]]
            collector = self.rng.choice(folded)
            self.applied = True
        self.add(ActionKind.COLLECT, collector, amount)
        if self.rng.random() < 0.3:
            self.add(ActionKind.DOES_NOT_SHOW, winner)
        self.collected = {collector: amount}
        self.total = total
        self.rake = rake
        self.pots_after_rake = [amount]

    def _pots(self) -> list[tuple[int, list[int]]]:
        """Main and side pots from what everyone put in, as the replay builds them
        (`tables.build_pots`), with each pot's eligible players by index."""
        names = self.names
        index = {name: i for i, name in enumerate(names)}
        put = dict(zip(names, self.put, strict=True))
        folded = {names[i] for i in range(self.n) if self.folded_on[i]}
        all_in = {names[i] for i in range(self.n) if self.all_in[i]}
        return [
            (pot.amount, [index[name] for name in pot.eligible])
            for pot in build_pots(names, put, folded, all_in)
        ]

    def _hand_cards(self, player: int) -> list[Card]:
        cards = self.cards[player]
        if self.community is not None:
            return [*cards, self.community]
        return cards

    def _hand_values(self, player: int) -> tuple[int, int | None]:
        """(`high_rank`, `low_rank`) of a player's showdown hand, as the game compares them
        (its qualifier and lowball; a low None if none qualifies, or in a high-only game; the
        high 0 in a low game); worked out once a hand."""
        found = self.values.get(player)
        if found is None:
            cards = self._hand_cards(player)
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
        """(shares, high winners, low winners, whether a low qualified) of one pot."""
        contenders = eligible if len(eligible) == 1 else [i for i in eligible if i in shown]
        if len(contenders) == 1:
            return {contenders[0]: amount}, contenders, [], False
        # Keyed by seat index, which `divide` orders clockwise for the odd chip.
        hands = {i: self._hand_cards(i) for i in contenders}
        values = {i: self._hand_values(i) for i in contenders}
        lowball = self.variant.lowball
        if self.low_only:
            best = max(values[i][1] or 0 for i in contenders)
            winners = [i for i in contenders if (values[i][1] or 0) == best]
            return (
                divide(amount, winners, hands, True, self.profile, None, lowball),
                [],
                winners,
                True,
            )
        top = max(values[i][0] for i in contenders)
        high_winners = [i for i in contenders if values[i][0] == top]
        if not self.split:
            return divide(amount, high_winners, hands, False, self.profile), high_winners, [], False
        lows8 = {i: values[i][1] for i in contenders}
        qualified = [v for v in lows8.values() if v is not None]
        if not qualified:
            return divide(amount, high_winners, hands, False, self.profile), high_winners, [], False
        best_low = max(qualified)
        low_winners = [i for i in contenders if lows8[i] == best_low]
        shares = hi_lo_shares(amount, high_winners, low_winners, hands, self.profile, None, lowball)
        return shares, high_winners, low_winners, True

    def _showdown(self) -> None:
        """Pots from contributions, rake from the main pot, the winners of each pot (or half)
        by the cards, shows and mucks, collects, and the pots."""
        rng = self.rng
        names = self.names
        contenders = self.in_hand()
        total = sum(self.put)
        rake = self._rake(total)
        pots = self._pots()
        after = after_rake([amount for amount, _ in pots], rake)  # as the replay takes it
        everyone = set(contenders)
        winners_full: set[int] = set()
        for (_, eligible), amount in zip(pots, after, strict=True):
            full_shares = self._split(amount, eligible, everyone)[0]
            winners_full.update(i for i, v in full_shares.items() if v)
        must_show = self.fault in (
            "WRONG_WINNER",
            "SPLIT_AMOUNT",
            "LOW_NOT_QUALIFIED",
            "ODD_CHIP",
            "HAND_DESCRIPTION",
        )
        # The player called (the last aggressor, else the first in) shows first; winners and
        # all-in players show; the others show or muck.
        start = self.last_aggressor if self.last_aggressor in everyone else contenders[0]
        order = sorted(contenders, key=lambda i: (i - start) % self.n)  # type: ignore[operator]
        shown = {
            i
            for i in contenders
            if i == start or i in winners_full or self.all_in[i] or must_show or rng.random() < 0.45
        }
        results = [
            self._split(amount, eligible, shown)
            for (_, eligible), amount in zip(pots, after, strict=True)
        ]
        shares = [dict(result[0]) for result in results]
        self._fault_awards(pots, shares, shown, results)
        self.street_header(Street.SHOWDOWN)
        items = self.items
        descriptions: dict[int, str] = {}
        for i in order:
            if i in shown:
                words = describe(tuple(self._hand_cards(i)), self.game)
                if self.fault == "HAND_DESCRIPTION" and not self.applied:
                    words = self._wrong_description(i, words)
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
        qualifier = self.variant.low_qualifier
        if self.split and qualifier is not None and not any(result[3] for result in results):
            self.note(NoteKind.NO_LOW_HAND, None, "No low hand qualified")
        if self.sim.tournament:
            for i in order:
                if self.stack[i] + collected.get(i, 0) == 0:
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

    def _wrong_description(self, player: int, right: str) -> str:
        """Another hand's words for this player's cards (the site contradicting them)."""
        for _ in range(100):
            cards = self.rng.sample(DECK, len(self._hand_cards(player)))
            words = describe(tuple(cards), self.game)
            if words != right:
                self.applied = True
                return words
        return right

    def _fault_awards(
        self,
        pots: list[tuple[int, list[int]]],
        shares: list[dict[int, int]],
        shown: set[int],
        results: list[tuple[dict[int, int], list[int], list[int], bool]],
    ) -> None:
        """Bend the awards for the pot faults (shares are changed in place)."""
        fault = self.fault
        if fault not in ("WRONG_WINNER", "SPLIT_AMOUNT", "ODD_CHIP", "LOW_NOT_QUALIFIED"):
            return
        rng = self.rng
        totals: Counter[int] = Counter()
        for pot_shares in shares:
            totals.update(pot_shares)
        collectors = [i for i, v in totals.items() if v > 0]
        if fault == "WRONG_WINNER":
            for index, (_, eligible) in enumerate(pots):
                losers = [
                    i
                    for i in eligible
                    if i in shown
                    and totals[i] == 0
                    and (not self.split or self._hand_values(i)[1] is not None)
                ]
                paid = [i for i, v in shares[index].items() if v > 0]
                if losers and paid:
                    winner = rng.choice(paid)
                    loser = rng.choice(losers)
                    shares[index][loser] = shares[index].pop(winner)
                    self.applied = True
                    return
        elif fault == "SPLIT_AMOUNT":
            if len(collectors) < 2:
                return
            for index, (_, eligible) in enumerate(pots):
                givers = [i for i, v in shares[index].items() if v >= 3]
                for giver in givers:
                    takers = [i for i in collectors if i != giver and i in eligible]
                    if takers:
                        taker = rng.choice(takers)
                        moved = rng.randint(2, shares[index][giver] - 1)
                        shares[index][giver] -= moved
                        shares[index][taker] = shares[index].get(taker, 0) + moved
                        self.applied = True
                        return
        elif fault == "ODD_CHIP":
            for index in range(len(pots)):
                pot_shares = shares[index]
                paid = [i for i, v in pot_shares.items() if v > 0]
                if len(paid) < 2:
                    continue
                amount = sum(pot_shares.values())
                high_winners, low_winners = results[index][1], results[index][2]
                odd_holder = self._odd_chip_holder(amount, pot_shares, high_winners, low_winners)
                if odd_holder is None:
                    continue
                others = [i for i in paid if i != odd_holder]
                taker = rng.choice(others)
                pot_shares[odd_holder] -= 1
                pot_shares[taker] += 1
                self.applied = True
                return
        elif fault == "LOW_NOT_QUALIFIED":
            for index, (_, eligible) in enumerate(pots):
                result = results[index]
                if result[3] or len([i for i in eligible if i in shown]) < 2:
                    continue
                losers = [i for i in eligible if i in shown and totals[i] == 0]
                if not losers:
                    continue
                loser = rng.choice(losers)
                amount = sum(shares[index].values())
                low_half = amount // 2
                if low_half == 0:
                    continue
                remaining = amount - low_half
                winners = [i for i, v in shares[index].items() if v > 0]
                base, odd = divmod(remaining, len(winners))
                shares[index] = {i: base + (1 if k < odd else 0) for k, i in enumerate(winners)}
                shares[index][loser] = low_half
                self.applied = True
                return

    def _odd_chip_holder(
        self,
        amount: int,
        shares: dict[int, int],
        high_winners: list[int],
        low_winners: list[int],
    ) -> int | None:
        """The player who got the odd chip of a pot shared by two or more, if there is one
        chip to move and moving it changes who is paid by exactly one chip each way."""
        if self.split and high_winners and low_winners:
            if (
                len(high_winners) == 1
                and len(low_winners) == 1
                and high_winners != low_winners
                and amount % 2
            ):
                return high_winners[0] if self.profile.odd_chip_to_high else low_winners[0]
            return None
        winners = high_winners or low_winners
        if len(winners) < 2:
            return None
        values = sorted({shares.get(i, 0) for i in winners})
        if len(values) == 2 and values[1] - values[0] == 1:
            return next(i for i in winners if shares.get(i, 0) == values[1])
        return None

    # -- finishing -----------------------------------------------------------------------

    def _finish(self) -> None:
        """The pot faults, spare cards, noise, the summary, the records, the text and final
        stacks."""
        names = self.names
        rng = self.rng
        fault = self.fault
        total, rake = self.total, self.rake
        if fault == "POT_TOTAL":
            total += self.stakes.ante or 1
            self.applied = True
        elif fault == "RAKE":
            rake = rake - 1 if rake > 0 else rake + 1
            self.applied = True
        # Cards nobody was dealt, for the card faults that show one.
        if self.patches:
            used = {c for cards in self.cards for c in cards}
            if self.community is not None:
                used.add(self.community)
            spare = [c for c in DECK if c not in used]
            if not spare:
                self.applied = False
                return
            items = self.items
            for index in self.patches:
                dealt = items[index]
                assert type(dealt) is Dealt
                card = rng.choice(spare)
                if fault == "CARDS_CHANGED":  # the first card shown again, changed
                    previous, new = (card, *dealt.previous[1:]), dealt.new
                else:  # two cards dealt on one street
                    previous, new = dealt.previous, (card, *dealt.new)
                items[index] = Dealt(dealt.street, dealt.player, previous, new)
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
                    SeatResult(seat, names[i], folded_on=_STREETS[street], did_not_bet=did_not_bet)
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
        if fault == "OVER_STACK":
            biggest = max(range(self.n), key=self.put.__getitem__)
            printed = self.put[biggest] - 1
            if printed > self.stakes.ante and printed < self.start[biggest]:
                index = self.seat_index[self.seat_numbers[biggest]]
                seat_record = self.seat_records[index]
                self.seat_records[index] = Seat(seat_record.number, seat_record.name, printed)
                self.applied = True
        hand = self.hand = self.sim._hand(self, total, rake)
        self.text = self.sim.print_hand(hand)
        final = {}
        for i in range(self.n):
            final[self.seat_numbers[i]] = self.start[i] - self.put[i] + collected.get(i, 0)
        self.final_stacks = final

    def _noise(self) -> None:
        """One line that is not play: chat, a connection, someone joining or leaving."""
        rng = self.rng
        items = self.items
        sim = self.sim
        # Positions as lines of the hand's text: the header, the table and the seat lines
        # stand before the events, a street header before each street's.
        before = 2 + len(self.all_seated)
        first = before + items.index(_STREETS[self.first_street])
        lines = before + len(items)
        position = rng.randrange(first + 1, lines + 1)
        names = self.names
        roll = rng.random()
        who = rng.randrange(self.n)
        kind = NoteKind.CHAT
        if roll < 0.45 or 0.6 <= roll < 0.7:  # chat (two bands: as the lines always came)
            text = rng.choice(_CHAT)
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
            joiner = sim._new_player(taken)
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


def _rank_strength(ranks: tuple[int, ...], razz: bool, hilo: bool, ace_low: bool = True) -> float:
    """How good sorted ranks (2..14) look to a player: pairs, trips, straights for high;
    few distinct cards of 8 or lower for low (razz; aces high in 2-7 razz), the better of
    both in hi/lo."""
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
