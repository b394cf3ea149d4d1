"""iPoker XML: every corpus hand parsed, replayed clean, nets equal to the file's own
`win` − `bet`, printed and parsed back; hands out of file order, a hand starting on the line
where the last ends, 5-card stud from its 2nd street; hostile and malformed XML as one error
each; big sessions cut into byte ranges, streamed with flat memory, and resumed after a
kill. The golden pairs are tests/sites/ipoker/."""

from __future__ import annotations

import re
import resource
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from handlog.check import check_file
from handlog.errors import ParseError
from handlog.importer import import_paths
from handlog.model import ActionKind, Game, Hand, Site, Street
from handlog.parse import detect_file, parse_file, parse_range, parse_text
from handlog.parse.reader import Chunk, hand_ranges
from handlog.parse.sites import ipoker
from handlog.store import connect

from .conftest import SHARED_CORPUS
from .test_import import _kill_after_a_commit, _start_import

FOLDER = SHARED_CORPUS / "iPoker"
CORPUS = sorted(p for p in FOLDER.glob("*") if p.suffix in (".xml", ".txt"))
STUD_USD = FOLDER / "7-StudL-USD-0.05-0.10-201009.txt"
STUD8_EUR = FOLDER / "7-StudHL-EUR-0.05-0.10-201405.txt"
FIVE_CARD = FOLDER / "5-StudL-USD-0.05-0.10-201111.Sample.with.showdown.xml"

needs_corpus = pytest.mark.skipif(not CORPUS, reason="../shared/corpus/iPoker is not here")


def _text(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252")  # the EUR file, despite its UTF-8 prolog


def _hands(path) -> list[Hand]:
    return [h for h in parse_file(path) if isinstance(h, Hand)]


@needs_corpus
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_corpus_hand_parses(path):
    items = list(parse_file(path))
    assert detect_file(path) is ipoker.FORMAT
    assert [i for i in items if isinstance(i, ParseError)] == []
    assert len(items) == _text(path).count('<game gamecode="') > 0
    assert all(isinstance(i, Hand) and i.site is Site.IPOKER for i in items)
    assert {i.game for i in items} == {  # type: ignore[union-attr]
        FIVE_CARD: {Game.STUD5},
        STUD_USD: {Game.STUD},
        STUD8_EUR: {Game.STUD8},
    }[path]


@needs_corpus
@pytest.mark.parametrize("path", [STUD_USD, STUD8_EUR, FIVE_CARD], ids=lambda p: p.name)
def test_every_corpus_hand_replays_clean_and_nets_sum_to_minus_the_rake(path):
    checked = list(check_file(str(path)))
    assert checked
    for item in checked:
        assert item.replay is not None, item
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        assert sum(item.replay.net.values()) == -item.hand.rake


_PLAYER = re.compile(
    r'<player seat="\d+" name="([^"]+)" chips="[^"]*" dealer="\d" win="([^"]*)" bet="([^"]*)"'
)


def _cents(text: str) -> int:
    return int(Decimal(text.lstrip("$€")) * 100)


@needs_corpus
@pytest.mark.parametrize("path", [STUD_USD, STUD8_EUR, FIVE_CARD], ids=lambda p: p.name)
def test_nets_and_chips_in_equal_the_files_own_win_and_bet(path):
    """iPoker prints each player's result: handlog's replay must come to the same figures
    (what each put in = `bet`, net = `win` − `bet`). The net is kept (`SeatResult.net`) and
    the replay flags a difference (PLAYER_NET; see the next test)."""
    games = re.split(r'<game gamecode="', _text(path))[1:]
    checked = list(check_file(str(path)))
    assert len(checked) == len(games)
    for item, game in zip(checked, games, strict=True):
        printed = {name: (_cents(win), _cents(bet)) for name, win, bet in _PLAYER.findall(game)}
        put_in = {n: v for n, v in item.replay.put_in.items() if v}
        assert put_in == {n: b for n, (w, b) in printed.items() if b}
        assert {n: v for n, v in item.replay.net.items() if v} == {
            n: w - b for n, (w, b) in printed.items() if w - b
        }


@needs_corpus
def test_a_bet_figure_that_disagrees_with_the_actions_is_flagged(tmp_path):
    text = _text(STUD_USD)
    old = 'name="Hero" chips="$0.73" dealer="0" win="$0.13" bet="$0.03"'
    assert text.count(old) == 1
    path = tmp_path / "changed.xml"
    path.write_text(text.replace(old, old.replace('bet="$0.03"', 'bet="$0.05"')))
    flagged = [
        (v.code, v.player, v.message)
        for item in check_file(str(path))
        for v in item.replay.violations  # type: ignore[union-attr]
    ]
    assert flagged == [
        (
            "PLAYER_NET",
            "Hero",
            "the hand history prints Hero's result as +$0.08, but its actions give +$0.10",
        )
    ]


@needs_corpus
@pytest.mark.parametrize("path", [STUD_USD, STUD8_EUR, FIVE_CARD], ids=lambda p: p.name)
def test_parse_print_parse_gives_equal_records(path):
    for hand in _hands(path):
        assert parse_text(ipoker.print_hand(hand)) == [hand]


@needs_corpus
def test_actions_are_put_in_the_order_of_their_numbers_and_amounts_normalised():
    hand = _hands(STUD8_EUR)[1]  # 5710056302
    sixth = [(a.player, a.kind, a.amount, a.to_amount) for a in hand.actions if a.street == 6]
    assert sixth == [
        ("Hero", ActionKind.BET, 10, 10),
        ("Player0", ActionKind.RAISE, 20, 20),  # type 23: raise TO €0.20
        ("Hero", ActionKind.RAISE, 20, 30),
        ("Player0", ActionKind.CALL, 10, 30),
    ]
    seventh = [(a.player, a.kind, a.amount, a.all_in) for a in hand.actions if a.street == 7]
    assert seventh == [
        ("Hero", ActionKind.BET, 10, False),
        ("Player0", ActionKind.RAISE, 11, True),  # type 7: all-in, chips added
        ("Hero", ActionKind.CALL, 1, False),
    ]
    assert hand.currency == "EUR" and (hand.small_bet, hand.big_bet) == (5, 10)
    assert hand.game is Game.STUD8 and hand.table == "Beignon, 826907366"
    assert hand.source.line == 51 and hand.actions[0].line == 59  # it starts after a </game>


@needs_corpus
def test_a_forced_player_who_bets_completes_and_showdown_cards_are_shown():
    first = _hands(STUD8_EUR)[0]
    third = [a for a in first.actions if a.street == Street.THIRD]
    assert (third[0].player, third[0].kind, third[0].amount) == ("Hero", ActionKind.COMPLETE, 5)
    shows = {a.player: a.cards for a in first.actions if a.kind is ActionKind.SHOW}
    assert [str(c) for c in shows["Player0"]] == ["7d", "4d", "Kd", "3c", "9h", "Ad", "Jc"]
    hidden = _hands(STUD_USD)[0]
    dealt = [d for d in hidden.dealt if d.player == "WurmX"]
    assert [(d.street, [str(c) for c in d.new]) for d in dealt] == [(Street.THIRD, ["6h"])]


@needs_corpus
def test_five_card_stud_deals_one_down_one_up_on_2nd_street_and_replays_clean():
    """`<gametype>5 Card Stud L $0.05/$0.10</gametype>`: round 2 is "Second Street" (one
    card down, one up: the up card brings in), rounds 3 to 5 one card each ("River" the
    5th). Hero's up 3c brings in; Player1, whose cards the deal printed in full, shows."""
    [hand] = _hands(FIVE_CARD)
    assert (hand.game, hand.streets) == (
        Game.STUD5,
        (Street.SECOND, Street.THIRD, Street.FOURTH, Street.FIFTH),
    )
    assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (5, 10, 2, 2)
    dealt = [(d.street, d.player, [str(c) for c in d.new]) for d in hand.dealt]
    assert dealt[:2] == [
        (Street.SECOND, "Player1", ["8h", "Jd"]),
        (Street.SECOND, "Hero", ["Qs", "3c"]),
    ]
    assert [d.street for d in hand.dealt[2:]] == [Street.THIRD] * 2 + [Street.FOURTH] * 2 + [
        Street.FIFTH
    ] * 2
    second = [(a.player, a.kind, a.amount) for a in hand.actions if a.street == Street.SECOND]
    assert second == [
        ("Hero", ActionKind.BRING_IN, 2),
        ("Player1", ActionKind.COMPLETE, 5),  # type 5 over the bring-in: the completion
        ("Hero", ActionKind.CALL, 3),
    ]
    shows = {a.player: [str(c) for c in a.cards] for a in hand.actions if a.kind is ActionKind.SHOW}
    assert shows == {
        "Player1": ["8h", "Jd", "4c", "4s", "Kd"],
        "Hero": ["Qs", "3c", "2c", "Kc", "5c"],
    }
    [checked] = check_file(str(FIVE_CARD))
    assert checked.status == "ok" and checked.replay is not None
    assert checked.replay.violations == ()
    assert dict(checked.replay.net) == {"Player1": 20, "Hero": -22}  # rake 2
    assert hand.rake == 2


@needs_corpus
def test_a_five_card_stud_hidden_down_card_and_the_printer():
    """An opponent's first cards as iPoker writes them when they stay hidden, `X DJ`: the
    up card alone, dealt on 2nd street; the printer writes the `X` back."""
    text = ipoker.print_hand(_hands(FIVE_CARD)[0]).replace(">H8 DJ<", ">X DJ<")
    assert '<cards type="Second Street" player="Player1">X DJ</cards>' in text
    [hand] = parse_text(text)
    assert isinstance(hand, Hand)
    first = next(d for d in hand.dealt if d.player == "Player1")
    assert (first.street, [str(c) for c in first.new]) == (Street.SECOND, ["Jd"])
    # its down card never shown: Player1 is read as mucking at the showdown
    assert ActionKind.MUCK in [a.kind for a in hand.actions if a.player == "Player1"]
    assert parse_text(ipoker.print_hand(hand)) == [hand]


# -- the file, not one hand ------------------------------------------------------------


def _session(path: Path, games: int, same_line: bool = False) -> Path:
    """A session of `games` hands copied from the corpus's USD file with fresh game codes,
    each hand on a line of its own (or, with `same_line`, starting where the last ended)."""
    text = STUD_USD.read_text(encoding="utf-8")
    head = text[: text.index("\t     <game gamecode=")]
    originals = re.findall(r'<game gamecode="\d+">.*?</game>', text, re.S)
    with open(path, "w", encoding="utf-8") as out:
        out.write(head)
        for number in range(games):
            game = re.sub(r'gamecode="\d+"', f'gamecode="9{number:09d}"', originals[number % 2])
            out.write(game if same_line and number else "\n\t" + game)
        out.write("\n</session>\n")
    return path


@needs_corpus
@pytest.mark.parametrize("same_line", [False, True])
def test_byte_ranges_give_the_hands_of_the_whole_file(tmp_path, same_line):
    path = _session(tmp_path / "s.xml", 60, same_line)
    whole = list(parse_file(path))
    ranges = list(hand_ranges(path, ipoker.FORMAT.header_bytes, ipoker.FORMAT.header_marker, 8000))
    assert len(ranges) > 20  # cut at a line starting with <game, or with </game><game
    by_range = [item for part in ranges for item in parse_range(path, part, ipoker.FORMAT)]
    assert by_range == whole and len(whole) == 60
    assert all(isinstance(h, Hand) for h in whole)
    assert len({h.hand_id for h in whole}) == 60


def _peak_mb(path: Path) -> float:
    code = (
        "import resource, sys\n"
        "from handlog.parse import parse_file\n"
        "count = sum(1 for _ in parse_file(sys.argv[1]))\n"
        "print(count, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[1])


@needs_corpus
def test_memory_stays_flat_whatever_the_size_of_the_session(tmp_path):
    small = _peak_mb(_session(tmp_path / "small.xml", 300))  # 1.1 MB
    big = _peak_mb(_session(tmp_path / "big.xml", 4000))  # 15 MB
    assert big < small + 15, (small, big)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0


@needs_corpus
def test_kill_9_inside_a_big_session_resumes_and_stores_each_hand_once(tmp_path):
    db = tmp_path / "h.duckdb"
    path = _session(tmp_path / "big.xml", 3000)
    # About 140 hands a range, a commit every 300 hands or so.
    process = _start_import(db, [str(path)], range_bytes=1 << 19, commit_hands=300)
    _kill_after_a_commit(process, tmp_path / "h.duckdb.wal")
    connection = connect(db)
    stored = connection.execute("SELECT count(*) FROM hands").fetchone()[0]
    connection.close()
    assert 0 < stored < 3000
    summary = import_paths([str(path)], db, workers=1)
    assert summary.new_hands == 3000 - stored
    connection = connect(db)
    rows = connection.execute(
        "SELECT count(*), count(DISTINCT hand_id), min(site) FROM hands"
    ).fetchone()
    errors = connection.execute("SELECT count(*) FROM parse_errors").fetchone()[0]
    connection.close()
    assert rows == (3000, 3000, "ipoker") and errors == 0


# -- hostile and broken XML --------------------------------------------------------------

BILLION_LAUGHS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<session sessioncode="1"><general><gametype>7 Card Stud L $0.05/$0.10</gametype>
<tablename>&lol9;</tablename></general>
<game gamecode="1"><general><players><player seat="1" name="&lol9;" chips="$1" win="$0" bet="$0"/></players></general></game>
</session>
"""
EXTERNAL_ENTITY = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE session [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
<session sessioncode="1"><general><gametype>7 Card Stud L $0.05/$0.10</gametype>
<tablename>&secret;</tablename></general>
<game gamecode="1"><general><players><player seat="1" name="&secret;" chips="$1" win="$0" bet="$0"/></players></general></game>
</session>
"""


@needs_corpus
@pytest.mark.parametrize(
    ("name", "text", "line"),
    [("laughs.xml", BILLION_LAUGHS, 2), ("external.xml", EXTERNAL_ENTITY, 2)],
)
def test_hostile_xml_is_one_error_naming_file_and_line_and_the_import_goes_on(
    tmp_path, name, text, line
):
    hostile = tmp_path / name
    hostile.write_text(text, encoding="utf-8")
    (error,) = list(parse_file(hostile))
    assert isinstance(error, ParseError)
    assert (error.file, error.line, error.site) == (str(hostile), line, "ipoker")
    assert "refused as hostile XML" in error.message and "DTD" in error.message
    good = tmp_path / "good.xml"
    good.write_bytes(STUD_USD.read_bytes())
    summary = import_paths([str(hostile), str(good)], tmp_path / "h.duckdb", workers=1)
    assert summary.new_hands == 2
    connection = connect(tmp_path / "h.duckdb")
    stored = connection.execute("SELECT file, line, message FROM parse_errors").fetchall()
    connection.close()
    assert [(f, n) for f, n, _ in stored] == [(str(hostile), line)]


@needs_corpus
def test_a_malformed_hand_is_one_error_with_its_xml_kept_and_the_rest_read(tmp_path):
    text = STUD_USD.read_text(encoding="utf-8")
    broken = text.replace('<round no="3">', '<round no="3"', 1)  # hand 1, line 34
    path = tmp_path / "broken.xml"
    path.write_text(broken, encoding="utf-8")
    first, second = list(parse_file(path))
    assert isinstance(first, ParseError) and isinstance(second, Hand)
    assert (first.line, first.hand_id, first.hand_line) == (35, "2418629537", 18)
    assert "malformed" in first.message and first.raw.startswith(
        '\t     <game gamecode="2418629537"'
    )
    assert second.hand_id == "2418630592"


@needs_corpus
def test_bench_replicates_an_xml_session_with_its_header_and_fresh_game_codes(tmp_path):
    from handlog.bench import replicate

    path = replicate(FOLDER, 12, tmp_path, ipoker.FORMAT)
    items = list(parse_file(path))
    assert path.suffix == ".xml" and len(items) == 12
    assert all(isinstance(h, Hand) for h in items)
    assert [h.hand_id for h in items] == [str(900_000_000_000 + n) for n in range(12)]


@needs_corpus
def test_a_card_iPoker_does_not_write_is_an_error_at_its_line(tmp_path):
    text = STUD_USD.read_text(encoding="utf-8").replace(">H8 D7 C2<", ">H8 Z7 C2<", 1)
    path = tmp_path / "card.xml"
    path.write_text(text, encoding="utf-8")
    first, second = list(parse_file(path))
    assert isinstance(first, ParseError) and isinstance(second, Hand)
    assert first.line == 32 and "'H8 Z7 C2' are not cards" in first.message


@needs_corpus
def test_a_seated_player_with_no_ante_and_no_cards_sits_out():
    hand = _hands(STUD_USD)[0]
    assert [s.name for s in hand.seats if s.sitting_out] == ["ad1028"]


@needs_corpus
def test_a_raise_by_is_the_raise_size_over_the_bet_faced(tmp_path):
    """Type 6 (no corpus hand has one): `sum` read as the raise size, the replay checks it."""
    text = _text(STUD8_EUR).replace(
        '<action no="10" player="Player0" type="23" sum="€0.20"',
        '<action no="10" player="Player0" type="6" sum="€0.10"',
    )
    path = tmp_path / "raise-by.xml"
    path.write_text(text, encoding="utf-8")
    hand = [h for h in parse_file(path) if isinstance(h, Hand)][1]
    (raise_,) = [a for a in hand.actions if a.player == "Player0" and a.kind is ActionKind.RAISE][
        :1
    ]
    assert (raise_.amount, raise_.to_amount, raise_.raise_by) == (20, 20, 10)
    assert parse_text(ipoker.print_hand(hand)) == [hand]
    assert [c.replay.violations for c in check_file(str(path))][1] == ()


# ---------------------------------------------------------------------------------------
# Tournament sessions: no stakes in the game type, chips with thousands commas, each hand's
# stakes from its own actions (or an earlier hand's at the same ante and bring-in)


def _player(seat: int, name: str, chips: str, win: str, bet: str) -> str:
    return (
        f'<player seat="{seat}" name="{name}" chips="{chips}" dealer="0" win="{win}" bet="{bet}"/>'
    )


def _act(no: int, player: str, code: int, chips: str) -> str:
    return f'<action no="{no}" player="{player}" type="{code}" sum="{chips}" cards=""/>'


def _tournament_hand(code: str, players: list[str], rounds: dict[int, list[str]]) -> str:
    body = "".join(f'<round no="{n}">{"".join(items)}</round>\n' for n, items in rounds.items())
    return (
        f'<game gamecode="{code}">\n<general><startdate>2012-03-19 20:46:31</startdate>\n'
        f"<players>{''.join(players)}</players></general>\n{body}</game>\n"
    )


def _antes(ante: str) -> list[str]:
    return [_act(n, p, 15, ante) for n, p in ((1, "Ann"), (2, "Bob"), (3, "Cat"))]


def _cards(street: str, player: str, cards: str) -> str:
    return f'<cards type="{street}" player="{player}">{cards}</cards>'


TOURNAMENT_HEAD = """<?xml version="1.0" encoding="utf-8"?>
<session sessioncode="1">
<general>
<gametype>7 Card Stud L</gametype>
<tablename>$5 Limit 7 Card Stud, 699476041, 699476041</tablename>
<currency>USD</currency><nickname>Ann</nickname><bets>1,250</bets>
<awardpoints>3</awardpoints><tournamentname>$5 Limit 7 Card Stud</tournamentname><place>2</place><buyin>$5+$0.50</buyin> <totalbuyin>$5.50</totalbuyin> <win>$16.40</win> <awardpoints>3</awardpoints>}
</general>
"""
COMPLETED = _tournament_hand(  # Bob brings in 25, Ann completes to 100, bets 100 then 200
    "101",
    [
        _player(1, "Ann", "1,500", "630", "410"),
        _player(3, "Bob", "2,000", "0", "210"),
        _player(5, "Cat", "1,000", "0", "10"),
    ],
    {
        0: _antes("10"),
        2: [
            _cards("Third Street", "Ann", "X X HK"),
            _cards("Third Street", "Bob", "X X C3"),
            _cards("Third Street", "Cat", "X X SQ"),
            _act(4, "Bob", 16, "25"),
            _act(5, "Cat", 0, "0"),
            _act(6, "Ann", 5, "100"),
            _act(7, "Bob", 3, "75"),
        ],
        3: [
            _cards("Fourth Street", "Ann", "D5"),
            _cards("Fourth Street", "Bob", "S7"),
            _act(8, "Ann", 5, "100"),
            _act(9, "Bob", 3, "100"),
        ],
        4: [
            _cards("Fifth Street", "Ann", "C8"),
            _cards("Fifth Street", "Bob", "H2"),
            _act(10, "Ann", 5, "200"),
            _act(11, "Bob", 0, "0"),
        ],
    },
)
BIG_BET_ONLY = _tournament_hand(  # called bring-in, 4th checked (open sixes), 200 on 5th
    "102",
    [
        _player(1, "Ann", "1,280", "0", "235"),
        _player(3, "Bob", "1,790", "0", "35"),
        _player(5, "Cat", "990", "705", "435"),
    ],
    {
        0: _antes("10"),
        2: [
            _cards("Third Street", "Ann", "X X SA"),
            _cards("Third Street", "Bob", "X X D4"),
            _cards("Third Street", "Cat", "X X H6"),
            _act(4, "Bob", 16, "25"),
            _act(5, "Cat", 3, "25"),
            _act(6, "Ann", 3, "25"),
        ],
        3: [
            _cards("Fourth Street", "Ann", "C9"),
            _cards("Fourth Street", "Bob", "H5"),
            _cards("Fourth Street", "Cat", "S6"),
            _act(7, "Cat", 4, "0"),
            _act(8, "Ann", 4, "0"),
            _act(9, "Bob", 4, "0"),
        ],
        4: [
            _cards("Fifth Street", "Ann", "DK"),
            _cards("Fifth Street", "Bob", "C7"),
            _cards("Fifth Street", "Cat", "D3"),
            _act(10, "Cat", 5, "200"),
            _act(11, "Ann", 3, "200"),
            _act(12, "Bob", 0, "0"),
        ],
        5: [
            _cards("Sixth Street", "Ann", "HJ"),
            _cards("Sixth Street", "Cat", "S10"),
            _act(13, "Cat", 5, "200"),
            _act(14, "Ann", 0, "0"),
        ],
    },
)


def _nobody_bets(code: str, ante: str, bring_in: str) -> str:
    """Bob brings in, Cat and Ann fold: Bob wins the antes and his bring-in."""
    pot = 3 * int(ante) + int(bring_in)
    return _tournament_hand(
        code,
        [
            _player(1, "Ann", "1,045", "0", ante),
            _player(3, "Bob", "1,555", str(pot), str(int(ante) + int(bring_in))),
            _player(5, "Cat", "1,260", "0", ante),
        ],
        {
            0: _antes(ante),
            2: [
                _cards("Third Street", "Ann", "X X HQ"),
                _cards("Third Street", "Bob", "X X C2"),
                _cards("Third Street", "Cat", "X X D10"),
                _act(4, "Bob", 16, bring_in),
                _act(5, "Cat", 0, "0"),
                _act(6, "Ann", 0, "0"),
            ],
        },
    )


TOURNAMENT = (
    TOURNAMENT_HEAD
    + COMPLETED
    + BIG_BET_ONLY
    + _nobody_bets("103", "10", "25")
    + _nobody_bets("104", "20", "50")
    + "</session>\n"
)


def test_a_tournament_session_reads_each_hands_stakes_from_its_actions(tmp_path):
    path = tmp_path / "stt.xml"
    path.write_text(TOURNAMENT)
    items = list(parse_file(path))
    assert all(isinstance(i, Hand) for i in items)
    assert [h.hand_id for h in items] == ["101", "102", "103", "104"]
    hands = items[:3]
    for hand in hands:
        assert (hand.small_bet, hand.big_bet) == (100, 200)
        assert hand.stakes_known
        assert hand.currency is None  # tournament chips, whatever <currency> says
        assert (hand.tournament_id, hand.buy_in) == ("699476041", "$5+$0.50")
        assert (hand.ante, hand.bring_in) == (10, 25)
    assert [s.stack for s in hands[0].seats] == [1500, 2000, 1000]  # "1,500": commas read
    kinds = [(a.player, a.kind) for a in hands[0].actions if a.street is Street.THIRD]
    assert ("Ann", ActionKind.COMPLETE) in kinds
    # No hand of the file shows the stakes at ante 20 / bring-in 50: kept, stakes unknown.
    unknown = items[3]
    assert (unknown.small_bet, unknown.big_bet) == (0, 0) and not unknown.stakes_known
    assert (unknown.ante, unknown.bring_in) == (20, 50)


def test_a_level_shown_only_by_a_later_hand_gives_the_earlier_hands_their_stakes(tmp_path):
    """Hands nobody bets in, before any hand of their level shows its stakes: they take the
    stakes the later hand shows, and keep their place in the file."""
    path = tmp_path / "stt.xml"
    path.write_text(
        TOURNAMENT_HEAD
        + _nobody_bets("201", "10", "25")
        + _nobody_bets("202", "10", "25")
        + _nobody_bets("203", "20", "50")  # a level no hand shows: waits, then goes on
        + COMPLETED  # shows ante 10 / bring-in 25 at 100/200
        + _nobody_bets("204", "10", "25")
        + "</session>\n"
    )
    hands = list(parse_file(path))
    assert [h.hand_id for h in hands] == ["201", "202", "203", "101", "204"]
    assert [(h.small_bet, h.big_bet) for h in hands] == [
        (100, 200),
        (100, 200),
        (0, 0),
        (100, 200),
        (100, 200),
    ]
    # The same hands however the file is read: whole, or as text.
    assert parse_text(path.read_text()) == hands
    # Each as it would have been read had the level been known at the start: read again.
    alone = TOURNAMENT_HEAD + COMPLETED + _nobody_bets("201", "10", "25") + "</session>\n"
    assert parse_text(alone)[1] == hands[0]


def test_a_held_hand_goes_on_with_its_stakes_unknown_when_too_many_wait_behind_it():
    from handlog.parse.stakes import settle

    session = ipoker.read_session(TOURNAMENT_HEAD, "<text>")
    assert isinstance(session, ipoker.Session)
    chunks = [
        Chunk("<text>", 1 + n, text)
        for n, text in enumerate(
            [
                _nobody_bets("301", "10", "25"),
                *(_nobody_bets(f"3{n:02}", "20", "50") for n in range(2, 6)),
                COMPLETED,
            ]
        )
    ]
    pairs = ((chunk, ipoker.parse_hand(chunk, session)) for chunk in chunks)
    kept = list(settle(pairs, session.levels, lambda c: ipoker.parse_hand(c, session), 2))
    assert [h.hand_id for h in kept] == ["301", "302", "303", "304", "305", "101"]
    assert [h.stakes_known for h in kept] == [False, False, False, False, False, True]


def test_tournament_hands_replay_clean_with_the_files_own_nets(tmp_path):
    path = tmp_path / "stt.xml"
    path.write_text(TOURNAMENT)
    checked = [item for item in check_file(str(path)) if item.hand is not None]
    assert len(checked) == 4
    for item in checked:
        assert item.replay is not None, item
        assert item.replay.violations == (), (item.hand.hand_id, item.replay.violations)
        assert sum(item.replay.net.values()) == -item.hand.rake
        assert {r.player: r.net for r in item.hand.results} == item.replay.net


def test_a_hand_with_its_stakes_unknown_is_stored_and_can_be_named(tmp_path):
    path = tmp_path / "one.xml"
    path.write_text(TOURNAMENT_HEAD + _nobody_bets("103", "10", "25") + "</session>\n")
    [hand] = list(parse_file(path))
    assert isinstance(hand, Hand) and not hand.stakes_known
    db = tmp_path / "h.duckdb"
    summary = import_paths([str(path)], db, workers=1)
    assert summary.new_hands == 1
    with connect(db, read_only=True) as connection:
        rows = connection.execute(
            "SELECT hand_id, status FROM hands WHERE small_bet = 0 AND big_bet = 0"
        ).fetchall()
    assert rows == [("103", "ok")]
    # Reported: in the nets, named in the page's introduction, never a division by 0.
    from handlog.report import build
    from handlog.report.data import Filters

    report = build(db, tmp_path / "report", Filters(), fmt="md")
    page = report.paths[0].read_text(encoding="utf-8")
    assert "1 hand shows its stakes nowhere" in page
    assert "unknown" in report.tables["games"]["stakes"].to_list()
    assert "inf" not in page.lower() and "nan" not in page.lower()


def test_tournament_hands_print_and_parse_back_equal(tmp_path):
    path = tmp_path / "stt.xml"
    path.write_text(TOURNAMENT)
    hands = [i for i in parse_file(path) if isinstance(i, Hand)]
    for hand in hands:
        text = ipoker.print_hand(hand)
        # stakes left out as a tournament prints them when the actions show them (or when
        # nothing shows them); the hand nobody bets in keeps the stakes it learned
        shown = hand.hand_id != "103"
        assert ("<gametype>7 Card Stud L</gametype>" in text) is shown
        [again] = parse_text(text)
        assert again == hand


def test_the_neutral_stakes_rules():
    from handlog.parse.stakes import BIG, FIRST, SMALL, UNKNOWN_STAKES, Levels, Shown, fixed_stakes

    assert fixed_stakes(60, None, None) == (60, 120)
    assert fixed_stakes(None, None, 2000) == (1000, 2000)
    assert fixed_stakes(None, None, 1001) is None  # half a chip is not a small bet
    assert fixed_stakes(150, 150, 300) == (150, 300)
    shown = Shown()
    shown.bet(SMALL, 400, open_pair=True)  # maybe the double bet: not read
    shown.bet(BIG, 500, all_in=True)  # maybe short: not read
    assert shown.stakes() is None
    shown.bet(BIG, 400)
    assert shown.stakes() == (200, 400)
    assert FIRST not in (SMALL, BIG)
    levels = Levels()
    assert levels.stakes(shown, 25, 50) == (200, 400)
    assert levels.stakes(Shown(), 25, 50) == (200, 400)  # learned from the earlier hand
    assert levels.knows(25, 50) and not levels.knows(1000, None)
    assert levels.stakes(Shown(), 1000, None) == UNKNOWN_STAKES == (0, 0)


def _simulated(game: Game, seed: int, *, tournament: bool = False, players: int = 8):
    from handlog.simulate import SimulationOptions, simulate_hands

    options = SimulationOptions(
        game, 80, players, seed=seed, tournament=tournament, site=Site.IPOKER
    )
    return simulate_hands(options)


def test_a_neutral_hand_is_written_in_ipokers_own_form():
    from handlog.parse.text import local_time

    hands = list(_simulated(Game.STUD, 61))
    raised = next(s for s in hands if any(a.kind is ActionKind.RAISE for a in s.hand.actions))
    hand, text = raised.hand, raised.text
    assert hand.clock_text == "" and hand.start_time is not None
    clock = local_time(hand.start_time, "UTC").strftime("%Y-%m-%d %H:%M:%S")
    assert f"<startdate>{clock}</startdate>" in text
    raise_ = next(a for a in hand.actions if a.kind is ActionKind.RAISE and not a.all_in)
    assert f'player="{raise_.player}" type="23" sum="$0.' in text  # a raise-to, never type 6
    assert 'type="6"' not in text
    [parsed] = parse_text(text)
    assert parsed.start_time == hand.start_time
    # An uncalled bet is in the player's win and bet (iPoker prints no return line).
    returned = next(
        s for s in hands if any(a.kind is ActionKind.UNCALLED_BET_RETURNED for a in s.hand.actions)
    )
    back = next(a for a in returned.hand.actions if a.kind is ActionKind.UNCALLED_BET_RETURNED)
    [parsed] = parse_text(returned.text)
    assert not any(a.kind is ActionKind.UNCALLED_BET_RETURNED for a in parsed.actions)
    collected = sum(a.amount or 0 for a in parsed.actions if a.kind is ActionKind.COLLECT)
    assert collected == back.amount + sum(
        a.amount or 0 for a in returned.hand.actions if a.kind is ActionKind.COLLECT
    )


def test_a_neutral_showdown_is_printed_in_the_deal_and_read_as_shows():
    from handlog.rules.replay import replay

    for simulated in _simulated(Game.STUD8, 62, players=2):
        shows = {a.player: a.cards for a in simulated.hand.actions if a.kind is ActionKind.SHOW}
        if len(shows) == 2:
            break
    else:
        raise AssertionError("no heads-up showdown in 80 hands")
    [parsed] = parse_text(simulated.text)
    assert {a.player: a.cards for a in parsed.actions if a.kind is ActionKind.SHOW} == shows
    assert not replay(parsed, ipoker.IPOKER, ipoker.TRAITS).violations


def test_a_community_card_is_a_last_round_card_with_no_player_and_read_back():
    from handlog.rules.replay import replay

    simulated = next(s for s in _simulated(Game.RAZZ, 61) if s.hand.community_card)
    assert f'<cards type="River">{ipoker._card_text(simulated.hand.community_card)}</cards>' in (
        simulated.text
    )
    [parsed] = parse_text(simulated.text)
    assert parsed.community_card == simulated.hand.community_card
    assert not replay(parsed, ipoker.IPOKER, ipoker.TRAITS).violations
    # only on the last street: a card with no player on 6th street is an error
    early = '<round no="5">\n<cards type="Sixth Street">H3</cards>'
    [error] = parse_text(simulated.text.replace('<round no="5">', early, 1))
    assert isinstance(error, ParseError) and "who has no seat" in error.message
    twice = re.sub(r'(<cards type="River">\w+</cards>)', r"\1\n\1", simulated.text)
    [error] = parse_text(twice)
    assert isinstance(error, ParseError) and "a second community card" in error.message


def test_a_neutral_tournament_hand_names_its_tournament_as_ipoker_does():
    simulated = next(iter(_simulated(Game.STUD, 61, tournament=True)))
    hand = simulated.hand
    assert hand.buy_in and hand.buy_in.endswith(" USD")
    assert f"<buyin>{hand.buy_in.removesuffix(' USD')}</buyin>" in simulated.text
    [parsed] = parse_text(simulated.text)
    assert parsed.tournament_id == hand.tournament_id
    assert parsed.currency is None


def test_the_bet_faced_falls_back_when_the_largest_street_total_goes_down():
    # Bob's second raise-to names a street total below his first (no site writes it; it
    # must read as written): the bet faced is then Ann's 0.10 again, and her all-in to 0.15
    # a raise, not a call of Bob's 0.20 that is no longer there.
    head = TOURNAMENT_HEAD.replace("7 Card Stud L", "7 Card Stud L $0.05/$0.10", 1)
    hand = _tournament_hand(
        "77",
        [_player(1, "Ann", "$5", "$0", "$0.35"), _player(2, "Bob", "$5", "$0.35", "$0.35")],
        {
            0: [_act(1, "Ann", 15, "$0.01"), _act(2, "Bob", 15, "$0.01")],
            3: [
                _act(3, "Ann", 5, "$0.10"),
                _act(4, "Bob", 23, "$0.20"),
                _act(5, "Bob", 23, "$0.05"),
                _act(6, "Ann", 7, "$0.05"),
                _act(7, "Bob", 3, "$0.10"),
            ],
        },
    )
    (parsed,) = parse_text(head + hand + "</session>\n")
    assert isinstance(parsed, Hand)
    fourth = [
        (a.player, a.kind, a.amount, a.to_amount)
        for a in parsed.actions
        if a.street is Street.FOURTH
    ]
    assert fourth == [
        ("Ann", ActionKind.BET, 10, 10),
        ("Bob", ActionKind.RAISE, 20, 20),
        ("Bob", ActionKind.RAISE, -15, 5),
        ("Ann", ActionKind.RAISE, 5, 15),
        ("Bob", ActionKind.CALL, 10, 15),
    ]
