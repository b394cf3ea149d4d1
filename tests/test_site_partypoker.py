"""PartyPoker through the site seam: every real export parses (the one that starts with a NUL
byte too), replays clean (Party prints nobody's up cards but the player's own: the replay
does not judge the bring-in, the first actor or the open pair from cards it does not see), prints
back to equal records; hand-written hands for names with spaces and brackets, all-ins, table
noise, NUL-separated files and other games. The golden fixtures are tests/sites/partypoker/,
checked by test_site_fixtures.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from handlog.check import check_file
from handlog.errors import ParseError, Skipped
from handlog.model import Action, ActionKind, Dealt, Game, Hand, Note, NoteKind, Site, Street
from handlog.parse import detect_file, parse_file, parse_text
from handlog.parse.sites import partypoker
from handlog.rules.replay import replay

from .conftest import SHARED_CORPUS, site_fixture_files

CORPUS = SHARED_CORPUS / "PartyPoker"
FILES = sorted(CORPUS.glob("*.txt"))
HEADER = re.compile(r"^\x00*#Game No : \d+", re.MULTILINE)

needs_corpus = pytest.mark.skipif(not FILES, reason="../shared/corpus/PartyPoker is not there")
"""For the tests that read the shared corpus; the others run without it."""


def _hands(path) -> list[Hand]:
    return [h for h in parse_file(path) if isinstance(h, Hand)]


def _one(text: str) -> Hand:
    items = parse_text(text)
    assert len(items) == 1 and isinstance(items[0], Hand), items
    return items[0]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_corpus_hand_parses(path):
    items = list(parse_file(path))
    assert [i for i in items if not isinstance(i, Hand)] == []
    text = path.read_bytes().decode("utf-8")
    assert len(items) == len(HEADER.findall(text)) >= 1
    assert detect_file(path) in (partypoker.FORMAT, partypoker.TOURNAMENT_FORMAT)


@needs_corpus
def test_the_file_that_starts_with_a_nul_byte_is_read():
    # 7-Stud-USD-1-2-201104.txt starts "\x00Game #10399817763 starts." and ends its hand with
    # a line holding one NUL byte: Party's separator between hands, not binary data.
    path = CORPUS / "7-Stud-USD-1-2-201104.txt"
    raw = path.read_bytes()
    assert raw.startswith(b"\x00Game #") and raw.endswith(b"\x00\r\n")
    assert detect_file(path) is partypoker.FORMAT
    (hand,) = _hands(path)
    assert hand.hand_id == "10399817763" and hand.header_variant == "starts"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_replays_clean(path):
    # Before the replay stopped judging from partial up cards, these real hands were flagged
    # (BRING_IN_PLAYER on 11792805420 and 9581478205, OUT_OF_TURN on 10399817763 and
    # 11480841734, BET_SIZE on 11792805420's "double bets [120]"): none of it was wrong play.
    for item in check_file(str(path)):
        assert item.hand is not None and item.replay is not None
        assert [v.code for v in item.replay.violations] == []
        assert sum(item.replay.net.values()) == -item.hand.rake


@pytest.mark.parametrize(
    "path", FILES + site_fixture_files("partypoker"), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_parse_print_parse_gives_equal_records(path):
    for hand in _hands(path):
        assert _one(partypoker.print_hand(hand)) == hand


@needs_corpus
def test_cash_header_and_amounts_as_increments():
    hand = _hands(CORPUS / "7-StudHL-USD-10-20.201202.wins.lo.pot.txt")[0]
    assert (hand.site, hand.hand_id, hand.game, hand.currency) == (
        Site.PARTYPOKER,
        "11480841734",
        Game.STUD8,
        "USD",
    )
    assert (hand.ante, hand.bring_in, hand.small_bet, hand.big_bet) == (100, 300, 1000, 2000)
    assert hand.start_time == datetime(2012, 2, 27, 14, 51, 26, tzinfo=UTC)  # EST
    assert (hand.table, hand.max_seats) == ("Table  125524", 8)
    third = [
        (e.player, e.kind, e.amount, e.to_amount)
        for e in hand.events
        if type(e) is Action and e.street is Street.THIRD
    ]
    # "Player0 raises [$17 USD]" after bringing in $3 over a $10 completion: $20 in all
    assert third == [
        ("Player0", ActionKind.BRING_IN, 300, 300),
        ("Player1", ActionKind.COMPLETE, 1000, 1000),
        ("Player0", ActionKind.RAISE, 1700, 2000),
        ("Player1", ActionKind.CALL, 1000, 2000),
    ]
    # the total pot and rake are not printed: every chip put in, and what was not collected
    assert (hand.total_pot, hand.rake) == (18200, 100)


@needs_corpus
def test_hi_lo_halves_and_the_low_shown_apart():
    hand = _hands(CORPUS / "7-StudHL-USD-10-20.201202.wins.lo.pot.txt")[0]
    collects = [
        (e.player, e.amount, e.pot, e.half, e.description)
        for e in hand.events
        if type(e) is Action and e.kind is ActionKind.COLLECT
    ]
    assert collects == [
        ("Player0", 9050, 0, "high", "a pair of Fours"),
        ("Player1", 9050, 0, "low", "8,5,3,2,A"),
    ]
    shows = [
        (e.player, e.description)
        for e in hand.events
        if type(e) is Action and e.kind is ActionKind.SHOW
    ]
    assert shows == [("Player1", "high card Ace; LO: 8,5,3,2,A"), ("Player0", "a pair of Fours")]


@needs_corpus
def test_no_qualifying_low_and_a_hand_not_shown_down():
    hand = _hands(CORPUS / "7-StudHL-USD-0.50-1.00-201008.txt")[0]
    kinds = [(e.player, e.kind) for e in hand.events if type(e) is Action and e.cards]
    assert kinds == [("PPPPPositive", ActionKind.SHOW), ("strandalleen", ActionKind.MUCK)]
    (collect,) = [e for e in hand.events if type(e) is Action and e.kind is ActionKind.COLLECT]
    assert (collect.amount, collect.half) == (845, None)
    assert [e.kind for e in hand.events if type(e) is Note] == [NoteKind.NO_LOW_HAND]


@needs_corpus
def test_the_heros_later_deals_repeat_the_earlier_cards():
    hand = _hands(CORPUS / "7-Stud-USD-1-2-201104.txt")[0]
    dealt = [e for e in hand.events if type(e) is Dealt]
    assert [(e.street, [str(c) for c in e.previous], [str(c) for c in e.new]) for e in dealt] == [
        (Street.THIRD, [], ["3h", "8c", "7c"]),
        (Street.FOURTH, ["3h", "8c", "7c"], ["2c"]),
    ]


@needs_corpus
def test_tournament_header_chips_and_the_double_bet():
    hand = _hands(CORPUS / "7-Stud-USD-MTT-6.00-201205.txt")[0]
    assert (hand.currency, hand.tournament_id, hand.tournament_level, hand.buy_in) == (
        None,
        "69784932",
        "2",
        "$6 USD",
    )
    assert (hand.ante, hand.bring_in, hand.small_bet, hand.big_bet) == (10, 20, 60, 120)
    assert hand.seats[0].stack == 2930  # "( 2,930 )"
    double = next(e for e in hand.events if type(e) is Action and e.street is Street.FOURTH)
    assert (double.kind, double.amount, double.to_amount) == (ActionKind.BET, 120, 120)
    assert (hand.total_pot, hand.rake) == (2560, 0)


HAND = """\
Game #100 starts.

#Game No : 100
***** Hand History for Game 100 *****
$1/$2 USD 7 Card Stud - Tuesday, May 3, 21:05:00 EDT 2011
Table Table  99999 (Real Money)
Seat 0 is the button
Total number of players : 3/8
Seat 4: Big [Joe] 7 ( $5.10 USD )
Seat 2: Hero ( $40 USD )
Seat 6: la vie ( $25 USD )
Big [Joe] 7 posts ante [$0.10 USD]
Hero posts ante [$0.10 USD]
la vie posts ante [$0.10 USD]
** Dealing **
Dealt to Hero [  Ah Kd 2c ]
Hero opens
Hero bring-ins [$0.25 USD]
Newbie has joined the table.
Big [Joe] 7 completes [$1 USD]
la vie folds
Hero calls [$0.75 USD]
** Dealing Fourth street **
Dealt to Hero [  Ks ]
Hero opens
Hero bets [$1 USD]
Big [Joe] 7 raises [$2 USD]
Hero calls [$1 USD]
** Dealing Fifth street **
Dealt to Hero [  7h ]
Hero opens
Hero bets [$2 USD]
Big [Joe] 7 is all-In  [$2 USD]
** Dealing Sixth street **
Dealt to Hero [  9c ]
** Dealing River **
Dealt to Hero [  Qs ]
Big [Joe] 7 shows [ 3d, 3h, Tc, 4s, 8d, Td, Jc ]two pairs, Tens and Threes.
Hero doesn't show [ Ah, Kd, 2c, Ks, 7h, 9c, Qs ]a pair of Kings.
Big [Joe] 7 wins $10 USD from the main pot with two pairs, Tens and Threes.
Newbie has left the table.
\x00
"""


def test_names_with_spaces_and_brackets_an_all_in_and_table_noise():
    hand = _one(HAND)
    assert [s.name for s in hand.seats] == ["Big [Joe] 7", "Hero", "la vie"]  # as printed
    all_in = next(e for e in hand.events if type(e) is Action and e.all_in)
    assert (all_in.player, all_in.kind, all_in.amount, all_in.to_amount) == (
        "Big [Joe] 7",
        ActionKind.CALL,
        200,
        200,
    )
    notes = [(e.kind, e.player) for e in hand.events if type(e) is Note]
    assert notes == [(NoteKind.JOINS, "Newbie"), (NoteKind.LEAVES, "Newbie")]
    assert (hand.total_pot, hand.rake) == (1030, 30)
    result = replay(hand, partypoker.PARTYPOKER, partypoker.TRAITS)
    assert result.violations == ()
    assert result.net == {"Big [Joe] 7": 490, "Hero": -510, "la vie": -10}
    assert _one(partypoker.print_hand(hand)) == hand


def test_nul_separated_hands_and_other_games_skipped_by_name():
    holdem = (
        "Game #200 starts.\n\n#Game No : 200\n***** Hand History for Game 200 *****\n"
        "$0.01/$0.02 USD NL Texas Hold'em - Saturday, August 7, 15:02:37 EDT 2010\n"
        "Table Table  1 (Real Money)\nSeat 3 is the button\n"
    )
    text = "\x00" + HAND + "Game #101 starts." + HAND.split("starts.", 1)[1].replace("100", "101")
    items = parse_text(text + holdem + "\x00\n")
    assert [type(i) for i in items] == [Hand, Hand, Skipped]
    assert [i.hand_id for i in items] == ["100", "101", "200"]
    assert items[2].game == "NL Texas Hold'em" and items[2].site == "partypoker"


@needs_corpus
def test_tournament_exports_are_cut_at_game_no_lines():
    path = CORPUS / "7-Stud-USD-MTT-6.00-201205.txt"
    text = path.read_bytes().decode("utf-8").replace("\r\n", "\n")
    items = parse_text(text + "\n" + text.replace("11792805420", "11792805421"))
    assert [type(i) for i in items] == [Hand, Hand]
    assert items[1].hand_id == "11792805421"


def test_a_line_party_does_not_write_is_an_error_at_its_line():
    broken = HAND.replace("la vie folds\n", "la vie folds\nla vie waves\n")
    (error,) = parse_text(broken, "bad.txt")
    assert isinstance(error, ParseError)
    assert error.line == 22 and error.text == "la vie waves"
    assert "not one PartyPoker writes during a street" in error.message
    wrong = HAND.replace("#Game No : 100", "#Game No : 7")
    (error,) = parse_text(wrong, "bad.txt")
    assert isinstance(error, ParseError) and error.line == 3


def test_the_fixtures_are_there():
    assert len(site_fixture_files("partypoker")) >= 3


def test_an_ante_posted_with_of_reads_the_same():
    plain = _one(HAND)
    worded = _one(HAND.replace("Hero posts ante [", "Hero posts ante of ["))
    assert worded == plain


def test_partys_forms_for_another_sites_tournament_facts():
    assert partypoker._buy_in("$1.10+$0.10 USD") == "$1.20 USD"
    assert partypoker._buy_in("$20+$1.50 USD") == "$21.50 USD"
    assert partypoker._buy_in("1,000+100") == "1,100"
    assert partypoker._buy_in("$6 USD") == "$6 USD"  # Party's own: kept
    assert partypoker._level("Level IV") == "4"
    assert partypoker._level("Match Round I, Level XIV") == "14"
    assert partypoker._level("2") == "2"


def _simulated(game: Game, hands: int, players: int, seed: int, tournament: bool = False):
    from handlog.simulate import SimulationOptions, simulate_hands

    options = SimulationOptions(
        game, hands, players, seed=seed, tournament=tournament, site=Site.PARTYPOKER
    )
    return list(simulate_hands(options))


def test_a_simulated_hand_is_written_in_partys_current_forms():
    for simulated in _simulated(Game.STUD, 6, 8, 5, tournament=True):
        lines = simulated.text.splitlines()
        assert lines[0] == f"#Game No : {simulated.hand_id}"  # tournaments: no "starts" line
        assert re.fullmatch(
            r"FL 7 Card Stud \$\d+(?:\.\d\d)? USD Buy-in Trny:\d+ Level:\d+  "
            r"Stakes-Antes\(\d+/\d+-\d+\) - [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, "
            r"\d\d:\d\d:\d\d E[SD]T \d{4}",
            lines[2],
        ), lines[2]
        (hand,) = parse_text(simulated.text, "sim.txt")
        assert isinstance(hand, Hand)
        assert hand.start_time == simulated.hand.start_time  # the Eastern clock, read back
        assert "Dealt to Hero" in simulated.text
        dealt = {e.player for e in hand.events if type(e) is Dealt}
        assert dealt <= {"Hero"}  # Party prints the hero's cards only
    cash = _simulated(Game.RAZZ, 12, 8, 61)
    assert all(s.text.startswith(f"Game #{s.hand_id} starts.\n\n") for s in cash)
    assert all(" USD FL Razz - " in s.text.splitlines()[4] for s in cash)


def test_an_uncalled_bet_is_collected_with_the_pot_and_a_community_card_read_back():
    uncalled = community = 0
    for simulated in _simulated(Game.RAZZ, 12, 8, 61) + _simulated(Game.STUD8, 12, 8, 7):
        (hand,) = parse_text(simulated.text, "sim.txt")
        assert isinstance(hand, Hand)
        returned = {
            a.player: a.amount or 0
            for a in simulated.hand.actions
            if a.kind is ActionKind.UNCALLED_BET_RETURNED
        }
        collected: dict[str, int] = {}
        for action in simulated.hand.actions:
            if action.kind is ActionKind.COLLECT:
                collected[action.player] = collected.get(action.player, 0) + (action.amount or 0)
        for player, amount in returned.items():
            collected[player] = collected.get(player, 0) + amount
        read: dict[str, int] = {}
        for action in hand.actions:
            assert action.kind is not ActionKind.UNCALLED_BET_RETURNED
            if action.kind is ActionKind.COLLECT:
                read[action.player] = read.get(action.player, 0) + (action.amount or 0)
        assert read == collected
        uncalled += bool(returned)
        assert hand.community_card == simulated.hand.community_card
        if hand.community_card is not None:
            assert f"** Dealing River ** [ {hand.community_card} ]" in simulated.text
            community += 1
    assert uncalled and community  # both cases were met
