"""A simulation run: tables, players, clock and hand numbers across the hands, the loop that
deals each hand (`handlog.simulate.deal.Deal`, with its fault if one is drawn), and the files
it writes."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta

from handlog.model import Hand, Street, Structure
from handlog.parse.money import format_amount
from handlog.parse.text import utc_time
from handlog.rules.structures import STRUCTURES
from handlog.rules.variants import VARIANTS
from handlog.simulate.deal import Deal
from handlog.simulate.faults import FAULT_TYPES, Plan, Redeal, fault_codes, fault_for
from handlog.simulate.options import (
    DEFAULT_STAKES,
    MAX_SEATS,
    START_CLOCK,
    TOURNAMENT_LEVELS,
    SimulatedHand,
    SimulationOptions,
    SimulationSummary,
    Stakes,
    faults_path_for,
)

_MAX_ATTEMPTS = 80
"""Deals tried for one faulted hand before another fault is chosen for it."""

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
    return Simulator(options).hands()


@dataclass(slots=True)
class Player:
    name: str
    stack: int
    looseness: float
    """How readily the player continues with a weak hand (0..1)."""
    aggression: float
    """How readily the player bets and raises (0..1)."""
    sitting_out: int = 0
    """Hands left sitting out (cash: not dealt in; tournament: dealt in and folded)."""


class Simulator:
    """Tables, players, clock and hand numbers across a run, and the loop over hands."""

    def __init__(self, options: SimulationOptions) -> None:
        self.options = options
        self.game = options.game
        self.variant = VARIANTS[options.game]
        self.structure = options.structure
        self.rules = STRUCTURES[options.structure]
        self.profile = options.rules
        self.completes_over_short = (
            self.profile.raise_over_short_completion
            and self.rules.exact_sizes
            and not options.tournament
        )
        """The house lets a completion and a raise follow a short all-in completion: some cash
        stacks are dealt to go all-in there (`_buy_in_stack`)."""
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
        self.seats: dict[int, Player] = {}
        self.hero_seat = 1
        self.hands_left = 0
        self.table = ""
        self.tournament_id = ""
        self.buy_in = ""
        self.entrants = 0
        self.level_hands = 0
        self.joining: list[tuple[int, Player]] = []
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

    def new_player(self, exclude: set[str]) -> Player:
        rng = self.rng
        while True:
            name = rng.choice(self.names)
            if name not in exclude:
                break
        return Player(name, self._buy_in_stack(), rng.uniform(0.15, 0.85), rng.uniform(0.05, 0.6))

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
            low, high = stakes.ante + 1, 6 * big
            if roll < 0.15 and self.completes_over_short and stakes.small_bet - stakes.bring_in > 1:
                # a stack that completes all-in short of the small bet, which the house lets
                # the next player complete and raise at once (`Table.completes_over_short`)
                low, high = stakes.ante + stakes.bring_in + 1, stakes.ante + stakes.small_bet - 1
            return rng.randint(low, high)
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
                player = Player(
                    options.hero, self._buy_in_stack(), rng.uniform(0.3, 0.7), rng.uniform(0.1, 0.5)
                )
                player.stack = max(player.stack, 10 * self.stakes.big_bet)
            else:
                player = self.new_player(taken)
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
                replacement = self.new_player(taken)
                taken.add(replacement.name)
                self.seats[seat] = replacement
        # Seats left empty fill again through "joins the table" lines; a table more than
        # one short (or below two) is filled at once.
        empty = [s for s in range(1, MAX_SEATS + 1) if s not in self.seats]
        while len(self.seats) < max(2, self.options.players - 1) and empty:
            seat = empty.pop(rng.randrange(len(empty)))
            replacement = self.new_player(taken)
            taken.add(replacement.name)
            self.seats[seat] = replacement
        dealt = [seat for seat, player in self.seats.items() if self.dealt_in(player)]
        if len(dealt) < 2:
            for player in self.seats.values():
                player.sitting_out = 0

    def _next_clock(self) -> None:
        """The next hand's Eastern-time clock (`self.clock`)."""
        self.clock += timedelta(seconds=self.rng.randrange(15, 80))

    def build_hand(self, deal: Deal, total_pot: int, rake: int) -> Hand:
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
                dealt = sum(self.dealt_in(p) for p in self.seats.values())
                odd_rake = not self.tournament and self.split_game
                while not FAULT_TYPES[fault].fits(dealt, odd_rake):
                    fault = rng.choice(self.codes)
            deal = self._play(hand_id, fault)
            self._after_hand(deal)
            assert deal.hand is not None  # built by every deal that was played
            yield SimulatedHand(hand_id, deal.text, deal.plan.fault, deal.hand)

    def seated(self) -> list[tuple[int, Player]]:
        return sorted(self.seats.items())

    def _play(self, hand_id: str, fault: str | None) -> Deal:
        """Deal and play one hand; a fault that this deal cannot carry is dealt again, and
        after many tries replaced by another."""
        attempts = 0
        while True:
            attempts += 1
            plan = self._plan(fault)
            deal = Deal(self, hand_id, plan, fault_for(fault))
            try:
                deal.play()
            except Redeal:
                continue
            if plan.fault is None or (deal.applied and self._carried(deal)):
                return deal
            if attempts >= _MAX_ATTEMPTS:
                fault = self.rng.choice(self.codes)
                attempts = 0

    def _carried(self, deal: Deal) -> bool:
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

    def _plan(self, fault: str | None) -> Plan:
        rng = self.rng
        variant = self.variant
        plan = Plan(fault, int(variant.first_street))
        seated = [seat for seat, player in self.seats.items() if self.dealt_in(player)]
        if fault is None:
            roll = rng.random()
            if len(seated) == MAX_SEATS and roll < 0.02:
                plan.family_pot = True
            elif roll < 0.10:
                plan.passive = True
            elif roll < 0.115 and not self.variant.split and len(seated) >= 2:
                plan.tie = tuple(rng.sample(range(len(seated)), 2))  # type: ignore[assignment]
            return plan
        # Streets by the game's (7-card stud: 3rd to 7th, 5-card stud: 2nd to 5th).
        fault_for(fault).plan(plan, variant, self.rules.exact_sizes, len(seated), rng)
        return plan

    def dealt_in(self, player: Player) -> bool:
        """Whether a seated player is dealt in: cash players sitting out are not."""
        return player.stack > 0 and not (player.sitting_out and not self.tournament)

    def _after_hand(self, deal: Deal) -> None:
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
