"""Any site's printer writes the simulator's records: the simulator builds site-neutral `Hand`
records (no printer-only facts), the site's printer writes them in its own format, and the
site's parser reads every hand back to records that the replay, under the site's profile and
traits, finds legal with the same per-player nets as the simulator's own records.

Each format names the forms of hand it deals (`SiteFormat.deals`: game, betting structure,
cash or tournament); every one is simulated here, and `handlog simulate --site` offers them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from handlog.errors import ParseError
from handlog.model import ActionKind, Game, Hand, Structure
from handlog.parse import parse_file, parse_text
from handlog.parse.site import SiteFormat
from handlog.parse.sites import FORMATS, format_for
from handlog.rules.replay import replay
from handlog.simulate import SimulationOptions, simulate_hands, write_simulation

HANDS = 24
"""Hands per form: 8-handed (side pots, the community card now and then) and heads-up."""

FORMS = [
    (candidate, game, structure, tournament)
    for candidate in FORMATS
    if candidate.deals
    for game, structure, tournament in candidate.deals
]


def _name(form: tuple[SiteFormat, Game, Structure, bool]) -> str:
    candidate, game, structure, tournament = form
    kind = "tournament" if tournament else "cash"
    return f"{candidate.site.value}-{game.value}-{structure.value}-{kind}"


@pytest.mark.parametrize("form", FORMS, ids=[_name(form) for form in FORMS])
def test_simulated_hands_print_and_read_back(
    form: tuple[SiteFormat, Game, Structure, bool],
) -> None:
    candidate, game, structure, tournament = form
    assert format_for(candidate.site) is candidate, "a site's forms are on its first format"
    read = 0
    for players, seed in ((8, 61), (2, 62)):
        options = SimulationOptions(
            game,
            HANDS // 2,
            players,
            seed=seed,
            tournament=tournament,
            structure=structure,
            site=candidate.site,
        )
        for simulated in simulate_hands(options):
            ours = replay(simulated.hand, options.rules, candidate.traits)
            assert not ours.violations, (simulated.hand_id, ours.violations[:2])
            parsed = parse_text(simulated.text, f"{simulated.hand_id}.txt")
            assert len(parsed) == 1, (simulated.text, parsed)
            hand = parsed[0]
            assert isinstance(hand, Hand), (hand, simulated.text)
            assert (hand.site, hand.hand_id, hand.game, hand.structure) == (
                candidate.site,
                simulated.hand_id,
                game,
                structure,
            )
            theirs = replay(hand, candidate.profile, candidate.traits)
            assert not theirs.violations, (theirs.violations[:2], simulated.text)
            # By seat: a site whose players are anonymous (Bovada's "Seat+3") names them
            # by their seats, not as the simulator did.
            assert _by_seat(hand, theirs.net) == _by_seat(simulated.hand, ours.net), simulated.text
            read += 1
    assert read == HANDS


SITES = [candidate for candidate in FORMATS if candidate.deals]


@pytest.mark.parametrize("candidate", SITES, ids=[c.site.value for c in SITES])
def test_every_injected_fault_shows_in_the_sites_text(candidate: SiteFormat) -> None:
    """Faults go only where the site's text can show them (its traits, and a check of each
    faulted hand's text): every hand the simulator says it faulted is flagged with that code
    once read back from the site's text, and the other hands are not flagged."""
    game, structure, tournament = candidate.deals[0]
    options = SimulationOptions(
        game, 60, 6, seed=71, tournament=tournament, structure=structure, site=candidate.site
    )
    faulted = 0
    for simulated in simulate_hands(dataclasses.replace(options, fault_rate=0.5)):
        (hand,) = parse_text(simulated.text)
        assert isinstance(hand, Hand), hand
        codes = {v.code for v in replay(hand, candidate.profile, candidate.traits).violations}
        if simulated.fault is None:
            assert not codes, (simulated.hand_id, codes)
        else:
            assert simulated.fault in codes, (simulated.fault, codes, simulated.text)
            faulted += 1
    assert faulted >= 15


def _by_seat(hand: Hand, net: dict[str, int]) -> dict[int, int]:
    """Each seat's net: the players of `hand`, known by their seat numbers."""
    seats = {seat.name: seat.number for seat in hand.seats}
    return {seats[name]: amount for name, amount in net.items()}


FILES = [
    (candidate, tournament)
    for candidate in SITES
    if candidate.print_file is not None
    for tournament in sorted({t for _, _, t in candidate.deals})
]
SESSION_HEADS = {"iPoker": "<session>", "Merge": "<description "}
"""What a file of each format that wraps its hands (an XML session) holds once."""


@pytest.mark.parametrize(
    ("candidate", "tournament"),
    FILES,
    ids=[f"{c.site.value}-{'tournament' if t else 'cash'}" for c, t in FILES],
)
def test_a_simulated_file_is_one_session_and_reads_back(
    tmp_path: Path, candidate: SiteFormat, tournament: bool
) -> None:
    """A format whose file wraps its hands (`SiteFormat.print_file`) writes one session for
    the whole simulated file, read back with each hand's stakes and nets. In a tournament
    the stakes come from each hand's actions (or an earlier hand's at the same ante and
    bring-in): a hand nobody completes in at a new level prints them nowhere, as in a real
    file, and is one clear error."""
    game = Game.STUD
    options = SimulationOptions(game, 60, 2, seed=5, tournament=tournament, site=candidate.site)
    path = tmp_path / "simulated.xml"
    summary = write_simulation(options, path)
    text = path.read_text(encoding="utf-8")
    assert summary.hands == 60 and summary.bytes == len(text.encode("utf-8"))
    assert text.count(SESSION_HEADS[candidate.name]) == 1
    records = {s.hand_id: s.hand for s in simulate_hands(options)}
    read = errors = 0
    for item in parse_file(path):
        if isinstance(item, ParseError):
            assert tournament and "printed nowhere" in item.message
            actions = records[item.hand_id].actions
            assert not any(a.kind is ActionKind.COMPLETE and not a.all_in for a in actions)
            errors += 1
            continue
        assert isinstance(item, Hand)
        record = records[item.hand_id]
        assert (item.small_bet, item.big_bet) == (record.small_bet, record.big_bet)
        ours = replay(record, options.rules, candidate.traits)
        theirs = replay(item, candidate.profile, candidate.traits)
        assert not theirs.violations and theirs.net == ours.net
        read += 1
    assert read + errors == 60 and read >= 50


def test_the_simulator_prints_pokerstars_by_default() -> None:
    (simulated,) = simulate_hands(SimulationOptions(Game.RAZZ, 1))
    assert simulated.text.startswith("PokerStars Hand #")
