"""What to simulate: the games, structures and stakes the simulator plays, its options, and
the records of a run (`SimulatedHand`, `SimulationSummary`)."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from handlog.model import Game, Hand, Site, Structure
from handlog.parse.site import SiteFormat
from handlog.parse.sites import format_for
from handlog.rules.profiles import RuleProfile

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


RAKE_PERCENT = 5
RAKE_CAP_BIG_BETS = 3
"""Cash-game rake: 5% of the total pot rounded down to the cent, at most three big bets, and
none when the hand ends on 3rd street ("no flop, no drop"). Tournaments have no rake."""

START_CLOCK = datetime(2024, 1, 1, 12, 0, 0)
"""The first hand's Eastern-time clock."""


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
