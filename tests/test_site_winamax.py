"""Winamax through the site seam: every real export parses, replays clean and prints back to
equal records; hand-written hands for what the corpus does not show (names with spaces and
brackets, tournaments, marked all-ins, other games, encodings, bad lines). The golden
fixtures are tests/sites/winamax/, checked by test_site_fixtures.py."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from handlog.check import check_file
from handlog.errors import ParseError, Skipped
from handlog.model import ActionKind, Dealt, Game, Hand, Site, Street
from handlog.parse import detect_file, parse_file, parse_text
from handlog.parse.sites import winamax
from handlog.rules.replay import replay

from .conftest import SHARED_CORPUS, SITES, site_fixture_files

CORPUS = SHARED_CORPUS / "Winamax"
FILES = sorted(CORPUS.glob("*.txt"))
HEADER = re.compile(r"^\ufeff?Winamax Poker - .* - HandId: #", re.MULTILINE)
NEGATIVE = CORPUS / "7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt"

pytestmark = pytest.mark.skipif(not FILES, reason="../shared/corpus/Winamax is not there")


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
    assert detect_file(path) is winamax.FORMAT


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_corpus_hand_replays_clean_and_nets_sum_to_minus_rake(path):
    checked = list(check_file(str(path)))
    assert checked
    for item in checked:
        assert item.hand is not None and item.replay is not None
        assert item.replay.violations == ()
        assert sum(item.replay.net.values()) == -item.hand.rake


@pytest.mark.parametrize(
    "path", FILES + site_fixture_files("winamax"), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_parse_print_parse_gives_equal_records(path):
    for hand in _hands(path):
        assert _one(winamax.print_hand(hand)) == hand


def test_cash_header_stakes_are_ante_small_big():
    hand = _hands(CORPUS / "7-StudHL-6max-EUR-25-50-201611._8games_.txt")[0]
    assert (hand.site, hand.hand_id, hand.game, hand.currency) == (
        Site.WINAMAX,
        "9250793-554-1478991850",
        Game.STUD8,
        "EUR",
    )
    assert (hand.ante, hand.bring_in, hand.small_bet, hand.big_bet) == (500, 1000, 2500, 5000)
    assert hand.start_time == datetime(2016, 11, 12, 23, 4, 10, tzinfo=UTC)
    assert (hand.table, hand.max_seats) == ("Pampelune", 6)
    assert hand.seats[0].stack == 202603


def test_play_money_is_read_in_hundredths_without_a_currency():
    hand = _hands(CORPUS / "7-Stud-6max-play-0.5-0.10-201606.export.txt")[0]
    assert (hand.currency, hand.ante, hand.small_bet, hand.big_bet) == (None, 1, 5, 10)
    assert hand.header_variant == "short"
    assert (hand.total_pot, hand.rake) == (65, 4)
    assert hand.events[3].kind is ActionKind.BRING_IN  # "Player1 bring-in 0.02"
    assert hand.streets == (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)


def test_a_negative_raise_size_is_the_bring_in_raising_short_all_in():
    # Player0 brings in 10€ with 18.90€ behind; Player1 completes to 25€; Player0 "raises
    # -6.10€ to 18.90€": he adds 18.90€, 28.90€ in all on the street, and is all-in; the call
    # of 3.90€ matches it, and the pot balances (70.30€ + 2.50€ = 3 × 5€ + 2 × 28.90€).
    hand = _hands(NEGATIVE)[0]
    actions = [e for e in hand.events if not isinstance(e, Dealt) and e.street is Street.THIRD]
    raise_ = next(a for a in actions if a.kind is ActionKind.RAISE)
    assert (raise_.amount, raise_.to_amount, raise_.all_in, raise_.raise_by) == (
        1890,
        2890,
        True,
        None,
    )
    call = next(a for a in actions if a.kind is ActionKind.CALL)
    assert (call.amount, call.to_amount) == (390, 2890)
    complete = next(a for a in actions if a.kind is ActionKind.COMPLETE)
    assert (complete.amount, complete.to_amount, complete.raise_by) == (2500, 2500, None)
    assert hand.total_pot + hand.rake == 3 * 500 + 2 * 2890


def test_hi_lo_halves_are_collected_without_a_showdown():
    hand = _hands(CORPUS / "7-StudHL-6max-EUR-25-50-201611._8games_.txt")[0]
    collects = [
        (e.player, e.amount, e.pot, e.half)
        for e in hand.events
        if not isinstance(e, Dealt) and e.kind is ActionKind.COLLECT
    ]
    assert collects == [("Player0", 11400, None, "high"), ("Player0", 11400, None, "low")]
    assert [(r.player, r.won, r.collected_without_showdown) for r in hand.results] == [
        ("Player0", 11400, True),
        ("Player0", 11400, True),
    ]


def test_hidden_cards_are_left_out_of_the_deal():
    hand = _hands(NEGATIVE)[0]
    dealt = [e for e in hand.events if isinstance(e, Dealt)]
    assert dealt[0].new == tuple(dealt[0].new) and [str(c) for c in dealt[0].new] == ["8h"]
    sixth = [e for e in dealt if e.street is Street.SIXTH and e.player == "Player0"][0]
    assert [str(c) for c in sixth.previous] == ["8h", "5c", "Js"]
    assert [str(c) for c in sixth.new] == ["Ad"]
    # "[X X 8h 5c Js Ad] [X]" shows no card: no record on 7th street
    assert not [e for e in dealt if e.street is Street.SEVENTH]


TOURNAMENT = """\
Winamax Poker - Tournament "STUD KO" buyIn: 4.50€ + 0.50€ level: 3 - HandId: #1234567-45-1478990000 - 7-Card Stud fixed limit (10/40/80) - 2016/11/12 22:00:00 UTC
Table: 'STUD KO(987654)#002' 8-max (real money)
Seat 1: Jean [Paris] (2000)
Seat 3: la vie en rose (130)
Seat 5: Hero (1800)
*** ANTE/BLINDS ***
Jean [Paris] posts ante 10
la vie en rose posts ante 10
Hero posts ante 10
*** 3rd STREET ***
Dealt to Jean [Paris] [X X 2c]
Dealt to la vie en rose [X X 9d]
Dealt to Hero [Ah Ad Kc]
Jean [Paris] brings in 15
la vie en rose raises 40 to 40
Hero raises 40 to 80
Jean [Paris] folds
la vie en rose raises 40 to 120 and is all-in
Hero calls 40
*** 4th STREET ***
Dealt to Hero [Ah Ad Kc] [Ks]
Dealt to la vie en rose [X X 9d] [3s]
*** 5th STREET ***
Dealt to Hero [Ah Ad Kc Ks] [2d]
Dealt to la vie en rose [X X 9d 3s] [4c]
*** 6th STREET ***
Dealt to Hero [Ah Ad Kc Ks 2d] [7h]
Dealt to la vie en rose [X X 9d 3s 4c] [8d]
*** 7th STREET ***
Dealt to Hero [Ah Ad Kc Ks 2d 7h] [As]
Dealt to la vie en rose [X X 9d 3s 4c 8d] [X]
*** SHOW DOWN ***
la vie en rose shows [9c 9h 9d 3s 4c 8d Jc] (Three of a kind : 9)
Hero shows [Ah Ad Kc Ks 2d 7h As] (Full of Aces and Kings)
Hero collected 285 from pot
*** SUMMARY ***
Total pot 285 | No rake
Seat 3: la vie en rose showed [9c 9h 9d 3s 4c 8d Jc] and lost with Three of a kind : 9
Seat 5: Hero showed [Ah Ad Kc Ks 2d 7h As] and won 285 with Full of Aces and Kings
"""


def test_tournament_names_with_spaces_and_brackets_and_a_marked_all_in():
    hand = _one(TOURNAMENT)
    assert (hand.currency, hand.tournament_id, hand.buy_in, hand.tournament_level) == (
        None,
        "987654",
        "4.50€ + 0.50€",
        "3",
    )
    assert (hand.ante, hand.bring_in, hand.small_bet, hand.big_bet) == (10, 15, 40, 80)
    assert [s.name for s in hand.seats] == ["Jean [Paris]", "la vie en rose", "Hero"]
    moves = [
        (e.player, e.kind, e.amount, e.to_amount, e.all_in, e.raise_by)
        for e in hand.events
        if not isinstance(e, Dealt) and e.street is Street.THIRD
    ]
    assert moves == [
        ("Jean [Paris]", ActionKind.BRING_IN, 15, 15, False, None),
        ("la vie en rose", ActionKind.COMPLETE, 40, 40, False, None),
        ("Hero", ActionKind.RAISE, 80, 80, False, 40),
        ("Jean [Paris]", ActionKind.FOLD, None, None, False, None),
        ("la vie en rose", ActionKind.RAISE, 80, 120, True, 40),
        ("Hero", ActionKind.CALL, 40, 120, False, None),
    ]
    assert hand.rake == 0 and hand.total_pot == 285
    result = replay(hand, winamax.WINAMAX, winamax.TRAITS)
    assert result.violations == ()
    assert result.net == {"Jean [Paris]": -25, "la vie en rose": -130, "Hero": 155}
    assert _one(winamax.print_hand(hand)) == hand


def test_the_bring_in_raising_in_full_is_read_by_the_same_rule():
    # The raise figure leaves out the raiser's bring-in whether the raise is short or full:
    # 15 brought in + 65 = 80, a raise of one small bet over the 40 completion.
    text = TOURNAMENT.replace(
        "Hero raises 40 to 80\nJean [Paris] folds\nla vie en rose raises 40 to 120 and is all-in\n"
        "Hero calls 40\n",
        "Hero calls 40\nJean [Paris] raises 25 to 65\n"
        "la vie en rose raises 40 to 120 and is all-in\nHero calls 80\nJean [Paris] folds\n",
    )
    text = text.replace("Total pot 285", "Total pot 350").replace("won 285", "won 350")
    text = text.replace("Hero collected 285", "Hero collected 350")
    hand = _one(text)
    (jean,) = [
        e
        for e in hand.events
        if not isinstance(e, Dealt) and e.player == "Jean [Paris]" and e.kind is ActionKind.RAISE
    ]
    assert (jean.amount, jean.to_amount, jean.raise_by) == (65, 80, None)
    result = replay(hand, winamax.WINAMAX, winamax.TRAITS)
    assert result.violations == ()
    assert result.net == {"Jean [Paris]": -90, "la vie en rose": -130, "Hero": 220}
    assert _one(winamax.print_hand(hand)) == hand


def test_other_games_are_skipped_by_name():
    holdem = """\
Winamax Poker - CashGame - HandId: #14404225-40-1589534802 - Holdem no limit (2€/4€) - 2020/05/15 09:26:42 UTC
Table: 'SHORT TRACK 20 € 06' 5-max (real money) Seat #4 is the button
Seat 1: betsenvrac (20€)
Seat 4: bobino72 (66.42€)
*** ANTE/BLINDS ***
bobino72 posts small blind 2€
betsenvrac posts big blind 4€
*** PRE-FLOP ***
bobino72 folds
betsenvrac collected 6€ from pot
*** SUMMARY ***
Total pot 6€ | No rake
Seat 1: betsenvrac (big blind) won 6€
"""
    stud = NEGATIVE.read_text(encoding="utf-8").replace("\r\n", "\n")
    items = parse_text(holdem + "\n\n" + stud + "\n\n" + holdem.replace("-40-", "-41-"))
    assert [type(i) for i in items] == [Skipped, Hand, Skipped]
    assert items[0].game == "Holdem no limit" and items[0].hand_id == "14404225-40-1589534802"
    assert items[0].site == "winamax"


def test_cp1252_euro_signs_read_as_utf8_does(tmp_path):
    text = NEGATIVE.read_text(encoding="utf-8")
    path = tmp_path / "cp1252.txt"
    path.write_bytes(text.replace("Pampelune", "Pampelune é").encode("cp1252"))
    assert b"\x80" in path.read_bytes()
    (hand,) = _hands(path)
    original = _hands(NEGATIVE)[0]
    assert hand.table == "Pampelune é"
    assert hand.events == original.events and hand.total_pot == original.total_pot


def test_a_line_winamax_does_not_write_is_an_error_at_its_line():
    text = NEGATIVE.read_text(encoding="utf-8").replace("\r\n", "\n")
    broken = text.replace("Hero folds\n", "Hero folds\nHero says hello\n")
    (error,) = parse_text(broken, "bad.txt")
    assert isinstance(error, ParseError)
    assert error.line == 17 and error.text == "Hero says hello"
    assert "not one Winamax writes during a street" in error.message
    stranger = text.replace("Hero folds\n", "Nobody folds\n")
    (error,) = parse_text(stranger, "bad.txt")
    assert isinstance(error, ParseError) and "not in the seat list" in error.message


def test_the_fixtures_are_there():
    assert len(site_fixture_files("winamax")) >= 3
    assert (SITES / "winamax").is_dir()


@pytest.mark.parametrize(
    ("label", "pot", "half"),
    [
        ("pot", None, None),
        ("pot(HI)", None, "high"),
        ("pot(LO)", None, "low"),
        ("main pot", 0, None),
        ("side pot 2", 2, None),
        ("side pot #1(LO)", 1, "low"),
    ],
)
def test_pot_labels(label, pot, half):
    assert winamax.pot_index(label) == (pot, half)
    if "#" not in label:
        assert winamax.pot_label(pot, half) == label


def test_a_raise_after_the_bring_ins_short_raise_keeps_no_size():
    # After the bring-in's short all-in raise to 28.90€ (18.90€ as Winamax counts it), a
    # further raise's printed size is over Winamax's 25€, not over the 28.90€ faced: it is
    # no raise size over the bet faced, so the record keeps none.
    text = NEGATIVE.read_text(encoding="utf-8").replace("\r\n", "\n")
    text = text.replace("Player1 calls 3.90€", "Player1 raises 25€ to 50€")
    hand = _one(text)
    (last,) = [e for e in hand.events if not isinstance(e, Dealt) and e.line == 18]
    assert (last.kind, last.amount, last.to_amount, last.raise_by) == (
        ActionKind.RAISE,
        2500,
        5000,
        None,
    )
    assert _one(winamax.print_hand(hand)) == hand


# ---------------------------------------------------------------------------------------
# Site-neutral hands (the simulator's) printed as Winamax text


def _simulated(game: Game, tournament: bool, hands: int = 40, seed: int = 61) -> list[Hand]:
    from handlog.simulate import SimulationOptions, simulate_hands

    options = SimulationOptions(game, hands, 8, seed=seed, tournament=tournament, site=Site.WINAMAX)
    return [simulated.hand for simulated in simulate_hands(options)]


def test_a_simulated_uncalled_bet_stays_in_the_pot_and_nets_are_unchanged() -> None:
    seen = 0
    for game in (Game.STUD, Game.STUD8):
        for record in _simulated(game, tournament=True):
            returned = sum(
                a.amount or 0 for a in record.actions if a.kind is ActionKind.UNCALLED_BET_RETURNED
            )
            if not returned:
                continue
            seen += 1
            text = winamax.print_hand(record)
            assert "Uncalled" not in text and "returned" not in text
            hand = _one(text)
            assert hand.total_pot == record.total_pot + returned
            assert not any(a.kind is ActionKind.UNCALLED_BET_RETURNED for a in hand.actions)
            ours = replay(record, winamax.WINAMAX, winamax.TRAITS)
            theirs = replay(hand, winamax.WINAMAX, winamax.TRAITS)
            assert not ours.violations and not theirs.violations, (theirs.violations, text)
            assert theirs.net == ours.net, text
    assert seen >= 5


def test_a_simulated_hand_reads_back_with_its_clock_tournament_and_community_card() -> None:
    records = _simulated(Game.STUD, tournament=True, hands=12)
    hand = _one(winamax.print_hand(records[-1]))
    record = records[-1]
    assert hand.start_time == record.start_time
    assert hand.tournament_id == record.tournament_id
    # "$5+$0.50 USD" as Winamax writes a buy-in: "5$ + 0.50$"
    assert re.fullmatch(r"\d+(?:\.\d\d)?\$ \+ \d+(?:\.\d\d)?\$", hand.buy_in or ""), hand.buy_in
    ours = [winamax.units(part, True) for part in (record.buy_in or "")[:-4].split("+")]
    assert [winamax.units(part, True) for part in hand.buy_in.split(" + ")] == ours
    assert hand.tournament_level is not None and hand.tournament_level.isdigit()
    # Eight players to 7th street: one community card, written after the street's header.
    shared = [r for r in _simulated(Game.STUD, tournament=False, hands=60) if r.community_card]
    assert shared
    for record in shared:
        text = winamax.print_hand(record)  # its total pot after the rake, as Winamax prints
        assert f"*** 7th STREET *** [{record.community_card}]" in text
        hand = _one(text)
        assert hand.community_card == record.community_card
        theirs = replay(hand, winamax.WINAMAX, winamax.TRAITS)
        assert not theirs.violations, (theirs.violations, text)
        assert theirs.net == replay(record, winamax.WINAMAX, winamax.TRAITS).net


@pytest.mark.parametrize(
    "table_line",
    ["Table: 'Pampelune' 6-max", "Table 'Pampelune' 6-max (real money)", "Table 'Pampelune' 6-max"],
)
def test_the_table_line_reads_without_its_money_marker_or_colon(table_line):
    """fpdb's Winamax parser allows the table line without "(real money)" and without the
    colon: the same hand either way."""
    from .conftest import SITES

    text = (SITES / "winamax" / "razz-uncalled-bet-in-pot.txt").read_text(encoding="utf-8")
    [expected] = parse_text(text)
    [hand] = parse_text(text.replace("Table: 'Pampelune' 6-max (real money)", table_line, 1))
    assert hand == expected
