"""Merge / Carbon XML: every corpus hand parsed (the no-limit one with its structure), the
limit ones replayed clean, nets summing to −rake, printed and parsed back; players by seat, street totals,
uncalled bets listed apart or left in the amount won, HORSE hands by their game code. The
golden pairs are tests/sites/merge/."""

from __future__ import annotations

from pathlib import Path

import pytest

from handlog.check import check_file
from handlog.errors import ParseError, Skipped
from handlog.model import ActionKind, Game, Hand, Site, Street, Structure
from handlog.parse import detect_file, parse_file, parse_text
from handlog.parse.sites import merge

from .conftest import SHARED_CORPUS

FOLDER = SHARED_CORPUS / "Merge"
CORPUS = sorted(p for p in FOLDER.glob("*") if p.suffix in (".xml", ".txt"))
NO_LIMIT = FOLDER / "NL7-StudHL-0.01-0.02-0.10-201204.xml"
HORSE = FOLDER / "HORSE-8max-USD-0.25-0.50-201409.new.format.txt"
RAZZ = FOLDER / "Razz-USD-0.50-1.00-201111.allIn.txt"
STUD8 = FOLDER / "7-StudHL-USD-0.25-0.50-201111.txt"
LIMIT = [p for p in CORPUS if p != NO_LIMIT]
NO_LIMIT_TEXT = NO_LIMIT.read_text(encoding="utf-8") if NO_LIMIT.exists() else ""

needs_corpus = pytest.mark.skipif(not CORPUS, reason="../shared/corpus/Merge is not here")


def _hands(path: Path) -> list[Hand]:
    return [h for h in parse_file(path) if isinstance(h, Hand)]


@needs_corpus
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_parses(path):
    items = list(parse_file(path))
    assert detect_file(path) is merge.FORMAT
    assert [i for i in items if isinstance(i, ParseError)] == []
    assert len(items) == path.read_text(encoding="utf-8").count('<game id="') > 0
    assert all(isinstance(i, Hand) and i.site is Site.MERGE for i in items)
    assert {i.structure for i in items} == {  # type: ignore[union-attr]
        Structure.NO_LIMIT if path == NO_LIMIT else Structure.FIXED
    }


@needs_corpus
def check_file_as(path, structure):  # type: ignore[no-untyped-def]
    """The replay of a file's one hand under another betting structure."""
    from dataclasses import replace

    from handlog.check import site_rules
    from handlog.rules.replay import replay

    (hand,) = parse_file(path)
    return replay(replace(hand, structure=structure), *site_rules(hand.site))


@needs_corpus
def test_no_limit_stud8_is_read_with_its_structure_and_stakes():
    """`stakes="No Limit ($0.01/$0.02/$0.10)"`: ante, bring-in and the smallest bet (3rd
    street's completion, the smallest bet on every street: `big_bet` the same)."""
    (hand,) = parse_file(NO_LIMIT)
    assert isinstance(hand, Hand)
    assert (hand.hand_id, hand.game, hand.structure) == (
        "53828643-2",
        Game.STUD8,
        Structure.NO_LIMIT,
    )
    assert (hand.ante, hand.bring_in, hand.small_bet, hand.big_bet) == (1, 2, 10, 10)
    bets = [
        (a.street, a.kind, a.amount, a.to_amount)
        for a in hand.actions
        if a.amount and Street.FOURTH < a.street < Street.SHOWDOWN
    ]
    assert bets == [
        (Street.FIFTH, ActionKind.BET, 13, 13),  # no limit: any bet from $0.10
        (Street.FIFTH, ActionKind.CALL, 13, 13),
        (Street.SIXTH, ActionKind.BET, 39, 39),
        (Street.SIXTH, ActionKind.CALL, 39, 39),
        (Street.SEVENTH, ActionKind.BET, 65, 65),
        (Street.SEVENTH, ActionKind.RAISE, 130, 130),  # RAISE: a street total
    ]
    # Hero's raise nobody called is in the $3.12 won (in the pot): $3.25 in, $0.13 rake.
    assert (hand.total_pot, hand.rake) == (325, 13)
    printed = merge.print_hand(hand)
    assert printed.startswith(
        '<description type="7-Stud H/L8" stakes="No Limit ($0.01/$0.02/$0.10)"/>'
    )
    assert parse_text(printed) == [hand]
    # No-limit bet sizes (handlog.rules.structures): every bet at least the $0.10, the raise
    # at least the bet it raises; clean.
    [checked] = check_file(str(NO_LIMIT))
    assert checked.replay is not None and checked.replay.violations == ()
    # The same bets as fixed limit ($0.10/$0.10) would be flagged, each of them.
    fixed = check_file_as(NO_LIMIT, Structure.FIXED)
    assert [(v.code, v.line) for v in fixed.violations] == [
        ("BET_SIZE", 26),
        ("BET_SIZE", 32),
        ("BET_SIZE", 38),
        ("BET_SIZE", 39),
    ]
    assert sum(checked.replay.net.values()) == -hand.rake  # type: ignore[union-attr]


def test_pot_limit_stakes_read_the_same_way_and_others_are_skipped_by_name():
    """`Pot Limit (…)` has the no-limit syntax: ante, bring-in, smallest bet. A no- or
    pot-limit stake of two figures says too little (which two?): skipped by name."""
    text = NO_LIMIT_TEXT
    if not text:
        pytest.skip("../shared/corpus/Merge is not here")
    pot = text.replace('stakes="No Limit (', 'stakes="Pot Limit (')
    (hand,) = parse_text(pot)
    assert isinstance(hand, Hand) and hand.structure is Structure.POT_LIMIT
    assert (hand.small_bet, hand.big_bet) == (10, 10)
    assert 'stakes="Pot Limit ($0.01/$0.02/$0.10)"' in merge.print_hand(hand)
    assert parse_text(merge.print_hand(hand)) == [hand]
    two = text.replace("($0.01/$0.02/$0.10)", "($0.02/$0.10)")
    (skipped,) = parse_text(two)
    assert isinstance(skipped, Skipped)
    assert skipped.game == "7-Stud H/L8 No Limit ($0.02/$0.10)"


@needs_corpus
@pytest.mark.parametrize("path", LIMIT, ids=lambda p: p.name)
def test_every_corpus_hand_replays_clean_and_nets_sum_to_minus_the_rake(path):
    checked = list(check_file(str(path)))
    assert checked
    for item in checked:
        assert item.replay is not None, item
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        assert sum(item.replay.net.values()) == -item.hand.rake


@needs_corpus
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_parse_print_parse_gives_equal_records(path):
    hands = _hands(path)
    assert hands
    for hand in hands:
        assert parse_text(merge.print_hand(hand)) == [hand]


@needs_corpus
def test_raise_and_complete_are_street_totals_calls_and_all_ins_chips_added():
    (hand,) = _hands(RAZZ)
    third = [(a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street == 3]
    assert third == [
        ("Hero", ActionKind.BRING_IN, 10, 10),
        ("Player1", ActionKind.COMPLETE, 50, 50),
        ("Player2", ActionKind.CALL, 50, 50),
        ("Hero", ActionKind.RAISE, 90, 100),
        ("Player1", ActionKind.RAISE, 100, 150),
        ("Player2", ActionKind.CALL, 100, 150),
        ("Hero", ActionKind.RAISE, 100, 200),
        ("Player1", ActionKind.CALL, 50, 200),
        ("Player2", ActionKind.CALL, 50, 200),
    ]
    fourth = [(a.player, a.kind, a.amount, a.all_in) for a in hand.actions if a.street == 4]
    assert fourth[2:] == [
        ("Hero", ActionKind.RAISE, 91, True),
        ("Player1", ActionKind.CALL, 41, False),
    ]
    shows = {a.player: len(a.cards) for a in hand.actions if a.kind is ActionKind.SHOW}
    assert shows == {"Hero": 7, "Player1": 7}  # shown on 4th street, all-in; all 7 known


@needs_corpus
def test_uncalled_bets_apart_or_in_the_amount_won():
    (folded,) = _hands(STUD8)  # $0.50 bet nobody called, counted in the $0.64 won
    assert not [a for a in folded.actions if a.kind is ActionKind.UNCALLED_BET_RETURNED]
    assert [(a.player, a.amount) for a in folded.actions if a.kind is ActionKind.COLLECT] == [
        ("Hero", 64)
    ]
    apart = _hands(HORSE)[1]  # 78854953-356: uncalled="true" potnumber="2"
    returned = [a for a in apart.actions if a.kind is ActionKind.UNCALLED_BET_RETURNED]
    assert [(a.player, a.amount, a.street) for a in returned] == [("Player0", 25, Street.FOURTH)]


@needs_corpus
def test_horse_hands_are_read_by_their_game_code_and_halves_named():
    hands = _hands(HORSE)
    assert [(h.game, h.mixed_game, h.currency, h.small_bet) for h in hands] == [
        (Game.STUD8, "HORSE", "USD", 25)
    ] * 3
    collects = [
        (a.player, a.amount, a.half) for a in hands[0].actions if a.kind is ActionKind.COLLECT
    ]
    assert collects == [("Player3", 230, "high"), ("Player3", 229, "low")]
    assert hands[0].source.line == 3 and hands[0].table == "Pony II"


def test_a_file_without_a_description_is_one_error(tmp_path):
    text = RAZZ.read_text(encoding="utf-8") if RAZZ.exists() else ""
    path = tmp_path / "bare.xml"
    path.write_text('<game id="1-1" gametype="47">\n</game>\n' + text.split("\n", 1)[-1])
    (error,) = list(parse_file(path))
    assert isinstance(error, ParseError) and error.line == 1
    assert "no <description>" in error.message


def test_an_external_entity_in_a_merge_file_is_refused_as_one_error(tmp_path):
    path = tmp_path / "hostile.txt"
    path.write_text(
        '<!DOCTYPE description [ <!ENTITY x SYSTEM "http://example.invalid/x"> ]>\n'
        '<description type="Razz" stakes="Limit $0.50/$1"/>\n'
        '<game id="1-1" starttime="20111115223628" gametype="47" data="|&x;||1-1|false">\n'
        "</game>\n",
        encoding="utf-8",
    )
    (error,) = list(parse_file(path))
    assert isinstance(error, ParseError)
    assert (error.file, error.line, error.site) == (str(path), 1, "merge")
    assert "refused as hostile XML" in error.message


@needs_corpus
def test_a_malformed_hand_is_one_error_at_its_line_and_the_next_hand_is_read(tmp_path):
    text = HORSE.read_text(encoding="utf-8")
    broken = text.replace(
        '<round id="BLINDS" sequence="1" >', '<round id="BLINDS" sequence="1" <', 1
    )
    path = tmp_path / "broken.txt"
    path.write_text(broken, encoding="utf-8")
    items = list(parse_file(path))
    assert [type(i).__name__ for i in items] == ["ParseError", "Hand", "Hand"]
    assert (items[0].line, items[0].hand_id, items[0].hand_line) == (11, "78854953-355", 3)
    assert "malformed" in items[0].message and items[0].raw.startswith('<game id="78854953-355"')


@needs_corpus
def test_byte_ranges_cut_a_merge_file_at_its_game_lines(tmp_path):
    from handlog.parse import parse_range
    from handlog.parse.reader import hand_ranges

    text = HORSE.read_text(encoding="utf-8")
    head, _, games = text.partition("\n\n")
    path = tmp_path / "long.txt"
    path.write_text(head + "\n\n" + games * 20, encoding="utf-8")
    whole = list(parse_file(path))
    ranges = list(hand_ranges(path, merge.FORMAT.header_bytes, merge.FORMAT.header_marker, 20000))
    assert len(ranges) > 5
    assert [i for p in ranges for i in parse_range(path, p, merge.FORMAT)] == whole
    assert len(whole) == 60 and all(isinstance(h, Hand) for h in whole)


@needs_corpus
def test_tournament_balances_are_printed_after_the_ante(tmp_path):
    text = RAZZ.read_text(encoding="utf-8")
    chips = (
        text.replace('stakes="Limit $0.50/$1"', 'stakes="Limit 50/100"')
        .replace('realmoney="true"', 'realmoney="false"')
        .replace('balance="$2.96"', 'balance="291"')
        .replace('balance="$10.00"', 'balance="995"')
        .replace('balance="$15.39"', 'balance="1534"')
    )
    for old, new in (('amount="0.05"', 'amount="5"'), ('amount="0.10"', 'amount="10"')):
        chips = chips.replace(old, new)
    for old, new in (("0.50", "50"), ("1.00", "100"), ("1.50", "150"), ("2.00", "200")):
        chips = chips.replace(f'amount="{old}"', f'amount="{new}"')
    chips = chips.replace('amount="0.91"', 'amount="91"').replace('amount="0.41"', 'amount="41"')
    chips = chips.replace('amount="7.58"', 'amount="797"')
    path = tmp_path / "tourney.txt"
    path.write_text(chips, encoding="utf-8")
    (hand,) = _hands(path)
    assert hand.currency is None
    assert [(s.name, s.stack) for s in hand.seats] == [
        ("Hero", 296),
        ("Player1", 1000),
        ("Player2", 1539),
    ]
    (checked,) = check_file(str(path))
    assert checked.replay.violations == ()  # Hero's all-in is exactly his stack
    assert parse_text(merge.print_hand(hand)) == [hand]


# ---------------------------------------------------------------------------------------
# Tournament files: `stakes="Limit"` and no figures, each hand's stakes from its own events
# (or an earlier hand's at the same ante and bring-in), chips printed as `$1550.00`

SEATS = {"Ann": 0, "Bob": 1, "Cat": 2}


def _merge_hand(
    code: str, balances: dict[str, int], ante: int, rounds: list[tuple[str, list[str]]]
) -> str:
    players = "".join(
        f'<player seat="{SEATS[n]}" nickname="{n}" balance="${b}.00" dealtin="true"/>\n'
        for n, b in balances.items()
    )
    antes = "".join(_ev("ANTE", n, ante) for n in balances)
    body = "".join(f'<round id="{name}">\n{"".join(items)}</round>\n' for name, items in rounds)
    return (
        f'<game id="{code}" starttime="20110622121826" numholecards="7" gametype="77" '
        f'multigametype="41" realmoney="true" '
        f'data="20110622|$200 Freeroll - HORSE - 12%3A00|36447024-1|{code}|true">\n'
        f'<players dealer="2">\n{players}'
        '<player seat="3" nickname="Dan" balance="$0.00" dealtin="true"/>\n</players>\n'
        f'<round id="BLINDS">\n{antes}</round>\n{body}</game>\n'
    )


def _ev(kind: str, name: str, amount: int | None = None) -> str:
    chips = f' amount="{amount}.00"' if amount is not None else ""
    return f'<event type="{kind}" player="{SEATS[name]}"{chips}/>\n'


def _up(name: str, cards: str) -> str:
    return f'<cards type="DRAW_DRAWN_CARDS" cards="{cards}" player="{SEATS[name]}"/>\n'


def _won(name: str, amount: int) -> str:
    return f'<winner amount="{amount}.00" uncalled="false" potnumber="1" player="{SEATS[name]}" pottype="n"/>\n'


MERGE_COMPLETED = _merge_hand(  # Bob brings in 25, Ann completes to 100, bets 100 then 200
    "36487050-1",
    {"Ann": 1490, "Bob": 1990, "Cat": 990},
    10,
    [
        (
            "BRING_IN",
            [
                _ev("BRING_IN", "Bob", 25),
                _up("Ann", "null,null,Kh"),
                _up("Bob", "null,null,3c"),
                _up("Cat", "null,null,Qs"),
            ],
        ),
        ("THIRD_STREET", [_ev("FOLD", "Cat"), _ev("COMPLETE", "Ann", 100), _ev("CALL", "Bob", 75)]),
        (
            "FOURTH_STREET",
            [
                _ev("BET", "Ann", 100),
                _ev("CALL", "Bob", 100),
                _up("Ann", "null,null,Kh,5d"),
                _up("Bob", "null,null,3c,7s"),
            ],
        ),
        (
            "FIFTH_STREET",
            [
                _ev("BET", "Ann", 200),
                _ev("FOLD", "Bob"),
                _up("Ann", "null,null,Kh,5d,8c"),
                _up("Bob", "null,null,3c,7s,2h"),
            ],
        ),
        ("END_OF_FOLDED_GAME", [_won("Ann", 630)]),
    ],
)
MERGE_BIG_BET_ONLY = _merge_hand(  # bring-in called, 4th checked (open sixes), 200 on 5th
    "36487050-2",
    {"Ann": 1710, "Bob": 1780, "Cat": 980},
    10,
    [
        (
            "BRING_IN",
            [
                _ev("BRING_IN", "Bob", 25),
                _up("Ann", "null,null,As"),
                _up("Bob", "null,null,4d"),
                _up("Cat", "null,null,6h"),
            ],
        ),
        ("THIRD_STREET", [_ev("CALL", "Cat", 25), _ev("CALL", "Ann", 25)]),
        (
            "FOURTH_STREET",
            [
                _ev("CHECK", "Cat"),
                _ev("CHECK", "Ann"),
                _ev("CHECK", "Bob"),
                _up("Ann", "null,null,As,9c"),
                _up("Bob", "null,null,4d,5h"),
                _up("Cat", "null,null,6h,6s"),
            ],
        ),
        (
            "FIFTH_STREET",
            [
                _ev("BET", "Cat", 200),
                _ev("CALL", "Ann", 200),
                _ev("FOLD", "Bob"),
                _up("Ann", "null,null,As,9c,Kd"),
                _up("Bob", "null,null,4d,5h,7c"),
                _up("Cat", "null,null,6h,6s,3d"),
            ],
        ),
        (
            "SIXTH_STREET",
            [
                _ev("BET", "Cat", 200),
                _ev("FOLD", "Ann"),
                _up("Ann", "null,null,As,9c,Kd,Jh"),
                _up("Cat", "null,null,6h,6s,3d,Ts"),
            ],
        ),
        ("END_OF_FOLDED_GAME", [_won("Cat", 705)]),
    ],
)


def _merge_nobody_bets(code: str, ante: int, bring_in: int) -> str:
    """Bob brings in, Cat and Ann fold: Bob wins the antes and his bring-in."""
    return _merge_hand(
        code,
        {"Ann": 1000, "Bob": 1000, "Cat": 1000},
        ante,
        [
            (
                "BRING_IN",
                [
                    _ev("BRING_IN", "Bob", bring_in),
                    _up("Ann", "null,null,Qh"),
                    _up("Bob", "null,null,2c"),
                    _up("Cat", "null,null,Td"),
                ],
            ),
            ("THIRD_STREET", [_ev("FOLD", "Cat"), _ev("FOLD", "Ann")]),
            ("END_OF_FOLDED_GAME", [_won("Bob", 3 * ante + bring_in)]),
        ],
    )


MERGE_TOURNAMENT_HEAD = '<description type="HORSE Tournament" stakes="Limit"/>\n'
MERGE_TOURNAMENT = (
    MERGE_TOURNAMENT_HEAD
    + MERGE_COMPLETED
    + MERGE_BIG_BET_ONLY
    + _merge_nobody_bets("36487050-3", 10, 25)
    + _merge_nobody_bets("36487050-4", 20, 50)
)


def test_a_tournament_file_reads_each_hands_stakes_from_its_events(tmp_path):
    path = tmp_path / "horse.xml"
    path.write_text(MERGE_TOURNAMENT)
    items = list(parse_file(path))
    assert all(isinstance(i, Hand) for i in items)
    hands = items[:3]
    assert [h.hand_id for h in hands] == ["36487050-1", "36487050-2", "36487050-3"]
    for hand in hands:
        assert (hand.small_bet, hand.big_bet) == (100, 200)
        assert hand.currency is None  # chips, although printed "$1490.00"
        assert (hand.tournament_id, hand.mixed_game) == ("36447024-1", "HORSE")
        assert hand.table == "$200 Freeroll - HORSE - 12:00"  # URL-decoded
        assert (hand.ante, hand.bring_in) == (10, 25)
        # balances after the ante; Dan, busted, is listed dealt in but takes no part
        assert [(s.name, s.sitting_out) for s in hand.seats][-1] == ("Dan", True)
    assert [s.stack for s in hands[0].seats] == [1500, 2000, 1000, 0]
    # No hand of the file shows the stakes at ante 20 / bring-in 50: kept, stakes unknown.
    unknown = items[3]
    assert unknown.hand_id == "36487050-4" and not unknown.stakes_known
    assert (unknown.small_bet, unknown.big_bet, unknown.ante) == (0, 0, 20)


def test_tournament_hands_replay_clean_and_nets_sum_to_minus_the_rake(tmp_path):
    path = tmp_path / "horse.xml"
    path.write_text(MERGE_TOURNAMENT)
    checked = [item for item in check_file(str(path)) if item.hand is not None]
    assert len(checked) == 4
    for item in checked:
        assert item.replay is not None, item
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        assert sum(item.replay.net.values()) == -item.hand.rake == 0


def test_a_tournament_hand_nobody_bets_in_takes_a_later_hands_stakes_or_none(tmp_path):
    path = tmp_path / "one.xml"
    path.write_text(MERGE_TOURNAMENT_HEAD + _merge_nobody_bets("36487050-3", 10, 25))
    [alone] = list(parse_file(path))
    assert isinstance(alone, Hand) and not alone.stakes_known
    path.write_text(
        MERGE_TOURNAMENT_HEAD + _merge_nobody_bets("36487050-3", 10, 25) + MERGE_COMPLETED
    )
    first, later = list(parse_file(path))
    assert first.hand_id == "36487050-3" and later.hand_id == "36487050-1"
    assert (first.small_bet, first.big_bet) == (later.small_bet, later.big_bet) == (100, 200)


def test_tournament_hands_print_and_parse_back_equal_merge(tmp_path):
    path = tmp_path / "horse.xml"
    path.write_text(MERGE_TOURNAMENT)
    hands = [i for i in parse_file(path) if isinstance(i, Hand)]
    for hand in hands:
        text = merge.print_hand(hand)
        shown = hand.hand_id != "36487050-3"  # the hand nobody bets in prints its stakes
        assert ('stakes="Limit"' in text) is shown
        assert "HORSE Tournament" in text
        [again] = parse_text(text)
        assert again == hand


def _simulated(game: Game, seed: int, structure: Structure = Structure.FIXED, players: int = 8):
    from handlog.simulate import SimulationOptions, simulate_hands

    options = SimulationOptions(game, 80, players, seed=seed, structure=structure, site=Site.MERGE)
    return simulate_hands(options)


def test_a_neutral_hand_is_written_with_merges_clock_and_read_back():
    from handlog.parse.text import local_time

    simulated = next(iter(_simulated(Game.STUD, 61)))
    hand = simulated.hand
    assert hand.clock_text == "" and hand.start_time is not None
    clock = local_time(hand.start_time, "UTC").strftime("%Y%m%d%H%M%S")
    assert f'starttime="{clock}"' in simulated.text
    [parsed] = parse_text(simulated.text)
    assert parsed.start_time == hand.start_time


def test_a_returned_bet_is_on_the_street_it_was_made_before_later_deals():
    from handlog.model import Action, Dealt
    from handlog.rules.replay import replay

    def returned(hand: Hand) -> int:
        return next(
            i
            for i, e in enumerate(hand.events)
            if type(e) is Action and e.kind is ActionKind.UNCALLED_BET_RETURNED
        )

    def late_deal(hand: Hand) -> bool:
        if not any(a.kind is ActionKind.UNCALLED_BET_RETURNED for a in hand.actions):
            return False
        return any(type(e) is Dealt for e in hand.events[returned(hand) :])

    # a bet nobody calls on one street, and later streets dealt to an all-in player
    simulated = next(s for s in _simulated(Game.STUD8, 61) if late_deal(s.hand))
    [parsed] = parse_text(simulated.text)
    ours, theirs = simulated.hand.events, parsed.events
    mine, its = returned(simulated.hand), returned(parsed)
    assert (ours[mine].street, ours[mine].amount) == (theirs[its].street, theirs[its].amount)
    before = ours[mine - 1]
    assert (theirs[its - 1].player, theirs[its - 1].kind) == (before.player, before.kind)
    assert type(theirs[its + 1]) is Dealt
    assert not replay(parsed, merge.MERGE, merge.TRAITS).violations


def test_a_community_card_is_a_community_card_list_of_7th_street_and_read_back():
    from handlog.rules.replay import replay

    simulated = next(s for s in _simulated(Game.RAZZ, 61) if s.hand.community_card)
    assert f'<cards type="COMMUNITY" cards="{simulated.hand.community_card}"/>' in simulated.text
    [parsed] = parse_text(simulated.text)
    assert parsed.community_card == simulated.hand.community_card
    shows = [a for a in parsed.actions if a.kind is ActionKind.SHOW]
    assert shows and all(len(a.cards) == 6 for a in shows)
    assert not replay(parsed, merge.MERGE, merge.TRAITS).violations
    twice = simulated.text.replace(
        '<cards type="COMMUNITY"', '<cards type="COMMUNITY" cards="3d"/>\n<cards type="COMMUNITY"'
    )
    [error] = parse_text(twice)
    assert isinstance(error, ParseError) and "a second community card" in error.message
    early = simulated.text.replace(
        '<round id="SIXTH_STREET">',
        '<round id="SIXTH_STREET">\n<cards type="COMMUNITY" cards="3d"/>',
    )
    [error] = parse_text(early)
    assert isinstance(error, ParseError) and "a community card on 6th street" in error.message


def test_merge_deals_fixed_limit_cash_and_tournaments():
    # (no and pot limit stakes name one smallest bet for all streets: see FORMAT.deals)
    assert {(s, t) for _, s, t in merge.FORMAT.deals} == {
        (Structure.FIXED, False),
        (Structure.FIXED, True),
    }
    assert {game for game, _, _ in merge.FORMAT.deals} == {Game.STUD, Game.STUD8, Game.RAZZ}


def test_the_bet_faced_falls_back_when_the_largest_street_total_goes_down():
    # Bob's second raise names a street total below his first (no site writes it; it must
    # read as written): the bet faced is then Ann's 1.00 again, and her all-in to 1.25 a
    # raise, not a call of Bob's 2.00 that is no longer there.
    text = """<description type="7-Stud" stakes="Limit $0.50/$1"/>
<game id="7-1" starttime="20110204202244" numholecards="7" gametype="39" realmoney="true" data="20110204|T||7-1|false">
<players>
<player seat="0" nickname="Ann" balance="$10.00" dealtin="true"/>
<player seat="1" nickname="Bob" balance="$10.00" dealtin="true"/>
</players>
<round id="BLINDS">
<event type="ANTE" player="0" amount="0.05"/>
<event type="ANTE" player="1" amount="0.05"/>
</round>
<round id="FOURTH_STREET">
<event type="BET" player="0" amount="1.00"/>
<event type="RAISE" player="1" amount="2.00"/>
<event type="RAISE" player="1" amount="0.50"/>
<event type="ALL_IN" player="0" amount="0.25"/>
<event type="CALL" player="1" amount="0.75"/>
</round>
</game>
"""
    (hand,) = parse_text(text)
    fourth = [
        (a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street is Street.FOURTH
    ]
    assert fourth == [
        ("Ann", ActionKind.BET, 100, 100),
        ("Bob", ActionKind.RAISE, 200, 200),
        ("Bob", ActionKind.RAISE, -150, 50),
        ("Ann", ActionKind.RAISE, 25, 125),
        ("Bob", ActionKind.CALL, 75, 125),
    ]
