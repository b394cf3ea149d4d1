"""Line shapes that real exports hold (as /work/shared/FORMATS.md documents and quotes them),
each checked on its own: a real hand (a fixture under tests/sites, or a hand written here from
the documented lines) with the documented line put in, parsed and replayed.

One case per documented form. A form handlog does not read yet is marked `xfail(strict=True)`
with what goes wrong, so that the fix flips it (and the mark must then go)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from handlog.check import CheckedHand, check_file, check_items
from handlog.model import Action, ActionKind, Game, Hand, Note, NoteKind, Street, Structure
from handlog.parse import parse_text
from handlog.parse.reader import open_text

from .conftest import SITES

# ---------------------------------------------------------------------------------------------
# Helpers


def fixture(name: str) -> str:
    """A fixture hand text (tests/sites/NAME), decoded as handlog reads files, LF endings."""
    with open_text(SITES / name) as text:
        return text.read().replace("\r\n", "\n")


def edit(text: str, *edits: tuple[str, str]) -> str:
    """`text` with each (old, new) replaced once; `old` must be there ("re:" for a regex)."""
    for old, new in edits:
        if old.startswith("re:"):
            text, count = re.subn(old[3:], new, text, count=1, flags=re.M)
            assert count, f"{old!r} not in the hand"
        else:
            assert old in text, f"{old!r} not in the hand"
            text = text.replace(old, new, 1)
    return text


def checked_text(text: str) -> list[CheckedHand]:
    return list(check_items(parse_text(text, "<form>"), "<form>"))


def checked_bytes(tmp_path: Path, data: bytes, suffix: str = ".txt") -> list[CheckedHand]:
    path = tmp_path / f"form{suffix}"
    path.write_bytes(data)
    return list(check_file(str(path)))


def actions(hand: Hand, kind: ActionKind | None = None) -> list[Action]:
    return [e for e in hand.events if isinstance(e, Action) and (kind is None or e.kind is kind)]


def notes(hand: Hand) -> list[Note]:
    return [e for e in hand.events if isinstance(e, Note)]


def action_of(hand: Hand, player: str, kind: ActionKind, street: Street | None = None) -> Action:
    found = [a for a in actions(hand, kind) if a.player == player]
    if street is not None:
        found = [a for a in found if a.street is street]
    assert found, f"no {kind} by {player} in {hand.hand_id}"
    return found[0]


def seat(hand: Hand, name: str):
    found = [s for s in hand.seats if s.name == name]
    assert found, f"no seat for {name!r}: {[s.name for s in hand.seats]}"
    return found[0]


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def cents(amount: str) -> int:
    return int(Decimal(amount) * 100)


@dataclass(frozen=True)
class Form:
    """One documented line shape: the hand that holds it, and what handlog must make of it."""

    site: str
    line: str
    """The documented line (or lines), as FORMATS.md quotes it."""
    text: Callable[[], str]
    expect: Callable[[Hand], None] = lambda hand: None
    status: str = "ok"
    """The replay's status for the hand: "ok" unless the form makes a real fault."""
    fails: str | None = None
    """What handlog does wrong today (the test is then an expected failure)."""
    hands: int = 1
    raw: Callable[[], bytes] | None = None
    """The file's bytes, for a form that is about them (encoding, byte-order mark, line
    endings, XML): then the file is read as handlog reads any file, and `text` is unused."""
    suffix: str = ".txt"


def check_form(form: Form, checked: list[CheckedHand]) -> None:
    assert len(checked) == form.hands, [c.status for c in checked]
    for one in checked:
        assert one.error is None, f"parse error: {one.error.message} at line {one.error.line}"
        assert one.skipped is None, f"skipped as another game: {one.skipped.game}"
        assert one.hand is not None
        violations = [(v.code, v.line, v.message) for v in one.replay.violations]
        assert one.status == form.status, violations
        form.expect(one.hand)


# ---------------------------------------------------------------------------------------------
# PokerStars

PS_STUD = "pokerstars/stud.txt"
PS_STUD_HEADER = (
    "PokerStars Game #35874039554:  7 Card Stud Limit ($0.04/$0.08 USD) - 2009/11/26 10:09:44 ET"
)

# Razz MTT hand written from the documented lines: the tournament header, the tourney table,
# a name with a space and brackets, the completion as a raise, chat between the bring-in and
# the next action, a short all-in call on 3rd street and the uncalled bet returned, the razz
# "Lo:" showdown, "finished the tournament", three blank lines after the hand.
PS_MTT_RAZZ = """\
PokerStars Hand #49382949075: Tournament #2010090015, $200+$15 USD Razz Limit - Level IV (50/100) - 2010/09/09 18:27:23 ET
Table '2010090015 98' 8-max
Seat 1: Hero (4842 in chips)␠
Seat 5: Player5 (82 in chips)␠
Seat 8: PC [Mittel] (6428 in chips)␠
Hero: posts the ante 10
Player5: posts the ante 10
PC [Mittel]: posts the ante 10
*** 3rd STREET ***
Dealt to Hero [Ac 2d 3h]
Dealt to Player5 [Kc]
Dealt to PC [Mittel] [5c]
Player5: brings in for 15
PC [Mittel]: raises 35 to 50
Hero said, "LIMIT STUD"
Hero: raises 50 to 100
Player5: calls 57 and is all-in
PC [Mittel]: folds␠
Uncalled bet (28) returned to Hero
*** 4th STREET ***
Dealt to Hero [Ac 2d 3h] [4s]
Dealt to Player5 [Kc] [Kd]
*** 5th STREET ***
Dealt to Hero [Ac 2d 3h 4s] [5s]
Dealt to Player5 [Kc Kd] [Td]
*** 6th STREET ***
Dealt to Hero [Ac 2d 3h 4s 5s] [6s]
Dealt to Player5 [Kc Kd Td] [9c]
*** RIVER ***
Dealt to Hero [Ac 2d 3h 4s 5s 6s] [7s]
*** SHOW DOWN ***
Hero: shows [Ac 2d 3h 4s 5s 6s 7s] (Lo: 5,4,3,2,A)
Player5: shows [Qs Jh Kc Kd Td 9c 8c] (Lo: Q,J,T,9,8)
Hero collected 224 from pot
Player5 finished the tournament in 28th place
*** SUMMARY ***
Total pot 224 | Rake 0␠
Seat 1: Hero showed [Ac 2d 3h 4s 5s 6s 7s] and won (224) with Lo: 5,4,3,2,A
Seat 5: Player5 showed [Qs Jh Kc Kd Td 9c 8c] and lost with Lo: Q,J,T,9,8
Seat 8: PC [Mittel] folded on the 3rd Street



""".replace("␠", " ").replace("⇥", "\t")


def _ps_mtt(hand: Hand) -> None:
    assert hand.game is Game.RAZZ
    assert hand.tournament_id == "2010090015"
    assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (50, 100, 10, 15)
    assert hand.table == "2010090015 98"
    assert seat(hand, "PC [Mittel]").stack == 6428
    complete = action_of(hand, "PC [Mittel]", ActionKind.COMPLETE)
    assert complete.to_amount == 50
    call = action_of(hand, "Player5", ActionKind.CALL)
    assert (call.amount, call.all_in) == (57, True)
    returned = actions(hand, ActionKind.UNCALLED_BET_RETURNED)
    assert [(a.player, a.amount) for a in returned] == [("Hero", 28)]
    kinds = {n.kind for n in notes(hand)}
    assert {NoteKind.CHAT, NoteKind.FINISHED_TOURNAMENT} <= kinds


def _ps_stud_with(*edits: tuple[str, str]) -> Callable[[], str]:
    return lambda: edit(fixture(PS_STUD), *edits)


def _start(when: datetime) -> Callable[[Hand], None]:
    def expect(hand: Hand) -> None:
        assert hand.start_time == when

    return expect


PS_NOISE = [
    "RoadDevil joins the table at seat #6 ",
    "totof51 leaves the table",
    "totof51 is sitting out",
    "kurczakkr2 is disconnected ",
    "poconoman is connected ",
    "Katica65 was removed from the table for failing to post",
    'kobreli said, "this.is.lucky"',
    "Player5 finished the tournament in 28th place",
    "Hero wins the tournament and receives 200.00 - congratulations!",
]


def _ps_noise(line: str) -> Form:
    # between a street header and its Dealt lines, as FORMATS.md says they can be
    return Form(
        "PokerStars",
        line,
        _ps_stud_with(("*** 4th STREET ***\n", f"*** 4th STREET ***\n{line}\n")),
        lambda hand, line=line: _has_note(hand, line.strip()),
    )


def _has_note(hand: Hand, text: str) -> None:
    assert any(text.endswith(n.text) or n.text in text for n in notes(hand)), notes(hand)


# Stud/8 hand written from the documented lines: the completion as a raise, "Betting is
# capped" after a bet and three raises, "No low hand qualified", the high hand takes it all.
PS_STUD8_NO_LOW = """\
PokerStars Game #35874487284:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - 2009/11/26 10:22:32 ET
Table 'Atalante II' 8-max
Seat 1: Hero ($2 in chips)␠
Seat 3: gashpor ($2 in chips)␠
Seat 5: Player5 ($2 in chips)␠
Hero: posts the ante $0.01
gashpor: posts the ante $0.01
Player5: posts the ante $0.01
*** 3rd STREET ***
Dealt to Hero [Kc Kd Qs]
Dealt to gashpor [Jh]
Dealt to Player5 [2c]
Player5: brings in for $0.02
Hero: raises $0.02 to $0.04
gashpor: raises $0.04 to $0.08
Player5: folds␠
Hero: raises $0.04 to $0.12
gashpor: raises $0.04 to $0.16
Betting is capped
Hero: calls $0.04
*** 4th STREET ***
Dealt to Hero [Kc Kd Qs] [9h]
Dealt to gashpor [Jh] [Th]
Hero: checks␠
gashpor: checks␠
*** 5th STREET ***
Dealt to Hero [Kc Kd Qs 9h] [Ks]
Dealt to gashpor [Jh Th] [Tc]
gashpor: bets $0.08
Hero: calls $0.08
*** 6th STREET ***
Dealt to Hero [Kc Kd Qs 9h Ks] [Jd]
Dealt to gashpor [Jh Th Tc] [9c]
gashpor: checks␠
Hero: checks␠
*** RIVER ***
Dealt to Hero [Kc Kd Qs 9h Ks Jd] [Qh]
gashpor: checks␠
Hero: checks␠
*** SHOW DOWN ***
Hero: shows [Kc Kd Qs 9h Ks Jd Qh] (HI: a full house, Kings full of Queens)
gashpor: shows [Ad 8s Jh Th Tc 9c 7d] (HI: a straight, Seven to Jack)
No low hand qualified
Hero collected $0.51 from pot
*** SUMMARY ***
Total pot $0.53 | Rake $0.02␠
Seat 1: Hero showed [Kc Kd Qs 9h Ks Jd Qh] and won ($0.51) with HI: a full house, Kings full of Queens
Seat 3: gashpor showed [Ad 8s Jh Th Tc 9c 7d] and lost with HI: a straight, Seven to Jack
Seat 5: Player5 folded on the 3rd Street
""".replace("␠", " ")


def _ps_stud8_no_low(hand: Hand) -> None:
    kinds = [n.kind for n in notes(hand)]
    assert kinds == [NoteKind.BETTING_CAPPED, NoteKind.NO_LOW_HAND]
    assert [(a.player, a.amount) for a in actions(hand, ActionKind.COLLECT)] == [("Hero", 51)]


POKERSTARS = [
    Form(
        "PokerStars",
        "PokerStars Game #30506593746:  7 Card Stud Limit ($0.04/$0.08) - 2009/07/16 2:36:31 CET "
        "[2009/07/15 20:36:31 ET]",
        _ps_stud_with(
            (
                PS_STUD_HEADER,
                "PokerStars Game #35874039554:  7 Card Stud Limit ($0.04/$0.08) - "
                "2009/07/16 2:36:31 CET [2009/07/15 20:36:31 ET]",
            )
        ),
        _start(utc(2009, 7, 16, 0, 36, 31)),
    ),
    Form(
        "PokerStars",
        "… - 2013/01/03 16:27:43 EET [2013/01/03 9:27:43 ET]",
        _ps_stud_with(
            (
                PS_STUD_HEADER,
                "PokerStars Game #35874039554:  7 Card Stud Limit ($0.04/$0.08 USD) - "
                "2013/01/03 16:27:43 EET [2013/01/03 9:27:43 ET]",
            )
        ),
        _start(utc(2013, 1, 3, 14, 27, 43)),
    ),
    Form(
        "PokerStars",
        "PokerStars Hand #49382949075: Tournament #2010090015, $200+$15 USD Razz Limit - "
        "Level IV (50/100) - …; raises 35 to 50; calls 72 and is all-in; Uncalled bet (178) "
        "returned to Hero",
        lambda: PS_MTT_RAZZ,
        _ps_mtt,
    ),
    Form(
        "PokerStars",
        "Seat 7: Player6 (2500 in chips) is sitting out",
        _ps_stud_with(
            (
                "Seat 8: MasterTrini1 ($2.26 in chips) \n",
                "Seat 8: MasterTrini1 ($2.26 in chips) \nSeat 7: Player6 ($25 in chips) is "
                "sitting out\n",
            )
        ),
        lambda hand: None if seat(hand, "Player6").sitting_out else pytest.fail("not sitting out"),
    ),
    Form(
        "PokerStars",
        "Spacemasa: bets $0.08 and is all-in",
        # totof51 with just what the hand costs him: all in with the 6th street bet
        _ps_stud_with(
            ("Seat 4: totof51 ($1.31 in chips)", "Seat 4: totof51 ($0.23 in chips)"),
            (
                "totof51: bets $0.08\nMasterTrini1",
                "totof51: bets $0.08 and is all-in\nMasterTrini1",
            ),
            ("Nikolay Zem: checks \ntotof51: checks \n", "Nikolay Zem: checks \n"),
        ),
        lambda hand: (
            None
            if action_of(hand, "totof51", ActionKind.BET, Street.SIXTH).all_in
            else pytest.fail("all-in lost")
        ),
    ),
    Form(
        "PokerStars",
        "Nikolay Zem: doesn't show hand ",
        lambda: edit(
            PS_MTT_RAZZ,
            (
                "Player5: shows [Qs Jh Kc Kd Td 9c 8c] (Lo: Q,J,T,9,8)",
                "Player5: doesn't show hand ",
            ),
            (
                "Seat 5: Player5 showed [Qs Jh Kc Kd Td 9c 8c] and lost with Lo: Q,J,T,9,8",
                "Seat 5: Player5 mucked [Qs Jh Kc Kd Td 9c 8c]",
            ),
        ),
        lambda hand: None if action_of(hand, "Player5", ActionKind.DOES_NOT_SHOW) else None,
    ),
    Form(
        "PokerStars",
        "Betting is capped; No low hand qualified",
        lambda: PS_STUD8_NO_LOW,
        _ps_stud8_no_low,
    ),
    *[_ps_noise(line) for line in PS_NOISE],
]


# ---------------------------------------------------------------------------------------------
# Full Tilt Poker

FTP_CHAT = "fulltilt/names-chat-double-bet.txt"
FTP_CHAT_HEADER = (
    "Full Tilt Poker Game #21536999001: Table Hagan (6 max) - $2/$4 Ante $0.40 - Limit Stud Hi "
    "- 12:30:05 ET - 2010/06/11"
)

# MTT hand written from the documented lines: thousands separators, the 2012+ street headers
# with the pot, a short all-in raise with ", and is all in", a seat sitting out, the
# tournament side/main pot lines and the summary with Main pot / Side pot.
FTP_MTT_STUD = """\
Full Tilt Poker Game #32412111031: Big Game of the Week (251332389), Table 1 - 800/1600 Ante 150 - Limit Stud Hi - 18:30:57 ET - 2013/03/31
Seat 1: Player0 (4,950)
Seat 2: Player1 (12,000)
Seat 3: Player4 (1,645)
Seat 4: Player6 (2,500), is sitting out
Player0 antes 150
Player1 antes 150
Player4 antes 150
*** 3RD STREET *** (Total Pot: 450, 3 Players)
Dealt to Player0 [2c]
Dealt to Player1 [Ah]
Dealt to Player4 [Ks]
Player0 is low with [2c]
Player0 brings in for 250
Player1 completes it to 800
Player4 raises to 1,495, and is all in
Player0 calls 1,245
Player1 calls 695
*** 4TH STREET *** (Total Pot: 4,935, 3 Players, 1 All-In)
Dealt to Player0 [2c] [7c]
Dealt to Player1 [Ah] [5s]
Dealt to Player4 [Ks] [4h]
Player1 checks
Player0 checks
*** 5TH STREET *** (Total Pot: 4,935, 3 Players, 1 All-In)
Dealt to Player0 [2c 7c] [8h]
Dealt to Player1 [Ah 5s] [6d]
Dealt to Player4 [Ks 4h] [5c]
Player1 checks
Player0 bets 1,600
Player1 calls 1,600
*** 6TH STREET *** (Total Pot: 8,135, 3 Players, 1 All-In)
Dealt to Player0 [2c 7c 8h] [9s]
Dealt to Player1 [Ah 5s 6d] [Tc]
Dealt to Player4 [Ks 4h 5c] [6h]
Player1 checks
Player0 checks
*** 7TH STREET *** (Total Pot: 8,135, 3 Players, 1 All-In)
Player1 checks
Player0 checks
*** SHOW DOWN ***
Player1 shows [Qd Qh Ah 5s 6d Tc 3c] a pair of Queens
Player4 shows [Kd Kc Ks 4h 5c 6h 8d] three of a kind, Kings
Player0 mucks
Player1 wins the side pot (3,200) with a pair of Queens
Player4 wins the main pot (4,935) with three of a kind, Kings
*** SUMMARY ***
Total pot 8,135 Main pot 4,935. Side pot 3,200. | Rake 0
Seat 1: Player0 mucked [3d 4d 2c 7c 8h 9s Jd] - Jack Nine high
Seat 2: Player1 showed [Qd Qh Ah 5s 6d Tc 3c] and won (3,200) with a pair of Queens
Seat 3: Player4 showed [Kd Kc Ks 4h 5c 6h 8d] and won (4,935) with three of a kind, Kings
Seat 4: Player6 is sitting out
""".replace("␠", " ").replace("⇥", "\t")


def _ftp_mtt(hand: Hand) -> None:
    assert hand.tournament_id == "251332389"
    assert (hand.small_bet, hand.big_bet, hand.ante, hand.bring_in) == (800, 1600, 150, 250)
    assert seat(hand, "Player1").stack == 12000
    assert seat(hand, "Player6").sitting_out
    raise_ = action_of(hand, "Player4", ActionKind.RAISE)
    assert (raise_.to_amount, raise_.all_in) == (1495, True)
    assert (hand.total_pot, hand.main_pot, hand.side_pots) == (8135, 4935, (3200,))


# Heads-up SNG razz: the short bring-in all-in and the 3-card shows of an all-in on 3rd.
FTP_HU_RAZZ = """\
Full Tilt Poker Game #28333847000: $2 + $0.10 Heads Up Sit & Go (220338000), Table 1 - 80/160 Ante 15 - Limit Razz - 05:46:00 ET - 2011/02/19
Seat 1: Villain (24)
Seat 2: Hero (3,976)
Villain antes 15
Hero antes 15
*** 3RD STREET *** (Total Pot: 30, 2 Players)
Dealt to Villain [Kc]
Dealt to Hero [5d 6s] [2s]
Villain is high with [Kc]
Villain brings in for 9, and is all in
Hero calls 9
Villain shows [As 7c Kc]
Hero shows [5d 6s 2s]
*** 4TH STREET *** (Total Pot: 48, 2 Players, 1 All-In)
Dealt to Villain [Kc] [Js]
Dealt to Hero [5d 6s 2s] [Td]
*** 5TH STREET *** (Total Pot: 48, 2 Players, 1 All-In)
Dealt to Villain [Kc Js] [4s]
Dealt to Hero [5d 6s 2s Td] [Jh]
*** 6TH STREET *** (Total Pot: 48, 2 Players, 1 All-In)
Dealt to Villain [Kc Js 4s] [7d]
Dealt to Hero [5d 6s 2s Td Jh] [2h]
*** 7TH STREET *** (Total Pot: 48, 2 Players, 1 All-In)
Dealt to Hero [5d 6s 2s Td Jh 2h] [Qc]
*** SHOW DOWN ***
Villain shows [As 7c Kc Js 4s 7d Tc] J,T,7,4,A
Hero shows [5d 6s 2s Td Jh 2h Qc] J,T,6,5,2
Hero wins the pot (48) with J,T,6,5,2
*** SUMMARY ***
Total pot 48 | Rake 0
Seat 1: Villain showed [As 7c Kc Js 4s 7d Tc] and lost with J,T,7,4,A
Seat 2: Hero showed [5d 6s 2s Td Jh 2h Qc] and won (48) with J,T,6,5,2
""".replace("␠", " ").replace("⇥", "\t")
FTP_HU_HEADER = FTP_HU_RAZZ.split("\n", 1)[0]


def _ftp_hu(hand: Hand) -> None:
    bring_in = action_of(hand, "Villain", ActionKind.BRING_IN)
    assert (bring_in.amount, bring_in.all_in) == (9, True)
    assert hand.tournament_id == "220338000"


# The real 5-card stud MTT hand (FullTilt/5-Stud-USD-MTT-100-201303.txt), CRLF as exported.
FTP_5STUD = """\
Full Tilt Poker Game #32412111030: Big Game of the Week (251332389), Table 1 - 800/1600 Ante 150 - Limit 5 Card Stud - 18:30:57 ET - 2013/03/31
Seat 1: Player0 (4,950)
Seat 2: Player1 (27,915)
Seat 4: Player2 (3,740)
Seat 5: Player3 (12,330)
Seat 6: Hero (17,724)
Seat 7: Player4 (1,495)
Seat 8: Player5 (14,030)
Player0 antes 150
Player1 antes 150
Player2 antes 150
Player3 antes 150
Hero antes 150
Player4 antes 150
Player5 antes 150
*** 2ND STREET *** (Total Pot: 1,050, 7 Players)
Dealt to Player0 [Kc]
Dealt to Player1 [Qh]
Dealt to Player2 [5s]
Dealt to Player3 [7s]
Dealt to Hero [6s] [6h]
Dealt to Player4 [Js]
Dealt to Player5 [2c]
Player5 is low with [2c]
Player5 brings in for 250
Player0 completes it to 800
Player1 calls 800
Player2 folds
Player3 folds
Hero has 15 seconds left to act
Hero has timed out
Hero folds
Hero is sitting out
Player4 raises to 1,345, and is all in
Player5 folds
Player0 raises to 2,145
Player1 calls 1,345
*** 3RD STREET *** (Total Pot: 6,935, 3 Players, 1 All-In)
Dealt to Player0 [Kc] [Tc]
Dealt to Player1 [Qh] [3h]
Dealt to Player4 [Js] [9h]
Player0 bets 800
Player1 calls 800
*** 4TH STREET *** (Total Pot: 8,535, 3 Players, 1 All-In)
Dealt to Player0 [Kc Tc] [Qd]
Dealt to Player1 [Qh 3h] [Kd]
Dealt to Player4 [Js 9h] [4c]
Player0 bets 1,600
Player1 calls 1,600
*** 5TH STREET *** (Total Pot: 11,735, 3 Players, 1 All-In)
Dealt to Player0 [Kc Tc Qd] [3d]
Dealt to Player1 [Qh 3h Kd] [Ah]
Dealt to Player4 [Js 9h 4c] [2d]
Player1 bets 1,600
Player0 calls 255, and is all in
Uncalled bet of 1,345 returned to Player1
*** SHOW DOWN ***
Player1 shows [Ad Qh 3h Kd Ah] a pair of Aces
Hero has returned
Player0 mucks
Player1 wins the side pot (6,910) with a pair of Aces
Player4 mucks
Player1 wins the main pot (5,335) with a pair of Aces
*** SUMMARY ***
Total pot 12,245 Main pot 5,335. Side pot 6,910. | Rake 0
Seat 1: Player0 mucked [Ks Kc Tc Qd 3d] - a pair of Kings
Seat 2: Player1 showed [Ad Qh 3h Kd Ah] and won (12,245) with a pair of Aces
Seat 4: Player2 folded on 2nd St.
Seat 5: Player3 folded on 2nd St.
Seat 6: Hero folded on 2nd St.
Seat 7: Player4 mucked [Jd Js 9h 4c 2d] - Jack Nine high
Seat 8: Player5 folded on 2nd St.
""".replace("␠", " ").replace("⇥", "\t")

# Stud/8 cash hand: hi/lo shows ", for high", "No low hand qualified".
FTP_STUD8_NO_LOW = """\
Full Tilt Poker Game #29408130001: Table XGod_Of_WarX - $2/$4 Ante $0.40 - Limit Stud H/L - 01:12:00 ET - 2011/03/28
Seat 1: Hero ($50)
Seat 3: gashpor ($50)
Seat 5: Player5 ($50)
Hero antes $0.40
gashpor antes $0.40
Player5 antes $0.40
*** 3RD STREET ***
Dealt to Hero [Kc Kd] [Qs]
Dealt to gashpor [Jh]
Dealt to Player5 [2c]
Player5 is low with [2c]
Player5 brings in for $0.50
Hero completes it to $2
gashpor raises to $4
Player5 folds
Hero calls $2
*** 4TH STREET ***
Dealt to Hero [Kc Kd Qs] [9h]
Dealt to gashpor [Jh] [Th]
Hero checks
gashpor checks
*** 5TH STREET ***
Dealt to Hero [Kc Kd Qs 9h] [Ks]
Dealt to gashpor [Jh Th] [Tc]
gashpor bets $4
Hero calls $4
*** 6TH STREET ***
Dealt to Hero [Kc Kd Qs 9h Ks] [Jd]
Dealt to gashpor [Jh Th Tc] [9c]
gashpor checks
Hero checks
*** 7TH STREET ***
Dealt to Hero [Kc Kd Qs 9h Ks Jd] [Qh]
gashpor checks
Hero checks
*** SHOW DOWN ***
gashpor shows [Ad 8s Jh Th Tc 9c 7d] a straight, Seven to Jack, for high
Hero shows [Kc Kd Qs 9h Ks Jd Qh] a full house, Kings full of Queens, for high
No low hand qualified
Hero wins the pot ($16.70) with a full house, Kings full of Queens
*** SUMMARY ***
Total pot $17.70 | Rake $1
Seat 1: Hero showed [Kc Kd Qs 9h Ks Jd Qh] and won ($16.70) with HI: a full house, Kings full of Queens
Seat 3: gashpor showed [Ad 8s Jh Th Tc 9c 7d] and lost with HI: a straight, Seven to Jack
Seat 5: Player5 folded on 3rd St.
""".replace("␠", " ")


def _ftp_no_low(hand: Hand) -> None:
    assert [n.kind for n in notes(hand)] == [NoteKind.NO_LOW_HAND]
    assert [(a.player, a.amount) for a in actions(hand, ActionKind.COLLECT)] == [("Hero", 1670)]


def _ftp_collected_mucked() -> str:
    return edit(
        FTP_STUD8_NO_LOW,
        (
            "gashpor checks\nHero checks\n*** SHOW DOWN ***",
            "gashpor bets $4\nHero raises to $8\ngashpor folds\nUncalled bet of $4 returned to "
            "Hero\nHero mucks",
        ),
        ("re:^gashpor shows (?:.*\\n)*?Hero wins the pot .*$", "Hero wins the pot ($24.70)"),
        ("Total pot $17.70", "Total pot $25.70"),
        ("re:^Seat 1: Hero showed .*$", "Seat 1: Hero collected ($24.70), mucked"),
        ("re:^Seat 3: gashpor showed .*$", "Seat 3: gashpor folded on 7th St."),
    )


def _ftp_mucked_winner(hand: Hand) -> None:
    result = [r for r in hand.results if r.player == "Hero"][0]
    assert (result.won, result.collected_without_showdown) == (2470, True)
    assert [a.amount for a in actions(hand, ActionKind.UNCALLED_BET_RETURNED)] == [400]


FTP_NOISE = [
    "1Incubator1 has 15 seconds left to act",
    "Hero has timed out",
    "bllodshot is sitting out",
    "bllodshot has returned",
    "Sirocko adds $11.90",
    "Player3 sits down",
    "Sirocko stands up",
    "CutUrHeadOff has been disconnected",
    "CutUrHeadOff has reconnected",
    "allie3911 is feeling confused",
    "grimyreaper1: im running badd this week",
]


def _ftp_noise(line: str) -> Form:
    return Form(
        "Full Tilt",
        line,
        lambda: edit(fixture(FTP_CHAT), ("*** 4TH STREET ***\n", f"*** 4TH STREET ***\n{line}\n")),
        lambda hand, line=line: _has_note(hand, line),
    )


def _ftp_header(new: str) -> Callable[[], str]:
    return lambda: edit(fixture(FTP_CHAT), (FTP_CHAT_HEADER, new))


FULLTILT = [
    Form(
        "Full Tilt",
        "Full Tilt Poker Game #…: Table Jackrabbit (6 max) - $2.50/$5 Ante $0.40 - Limit Stud "
        "H/L - 20:13:24 CET - 2011/04/07 [14:13:24 ET - 2011/04/07]",
        _ftp_header(
            "Full Tilt Poker Game #21536999001: Table Jackrabbit (6 max) - $2/$4 Ante $0.40 - "
            "Limit Stud Hi - 20:13:24 CET - 2011/04/07 [14:13:24 ET - 2011/04/07]"
        ),
        _start(utc(2011, 4, 7, 18, 13, 24)),
    ),
    Form(
        "Full Tilt",
        "Full Tilt Poker Game #26190453000: Table Mart - $0.10/$0.20 Ante $0.02 - Limit Razz - "
        "17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07] (blank line after the header)",
        _ftp_header(
            "Full Tilt Poker Game #21536999001: Table Mart - $2/$4 Ante $0.40 - Limit Stud Hi - "
            "17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07]\n"
        ),
        _start(utc(2010, 12, 7, 9, 10, 10)),
    ),
    Form(
        "Full Tilt",
        "Full Tilt Poker Game #29408130000: Table XGod_Of_WarX - $2/$4 Ante $0.40 - Limit Stud "
        "H/L - 01:12:00 ET - 2011/03/28",
        _ftp_header(
            "Full Tilt Poker Game #21536999001: Table XGod_Of_WarX - $2/$4 Ante $0.40 - Limit "
            "Stud Hi - 01:12:00 ET - 2011/03/28"
        ),
        lambda hand: None if hand.table == "XGod_Of_WarX" else pytest.fail(hand.table),
    ),
    Form(
        "Full Tilt",
        "Big Game of the Week (251332389), Table 1 - 800/1600 Ante 150; raises to 1,345, and is "
        "all in; wins the side pot (6,910); Total pot 12,245 Main pot 5,335. Side pot 6,910.",
        lambda: FTP_MTT_STUD,
        _ftp_mtt,
    ),
    Form(
        "Full Tilt",
        "$2 + $0.10 Heads Up Sit & Go (220338000), Table 1 - 80/160 Ante 15 - Limit Razz; "
        "Villain brings in for 9, and is all in",
        lambda: FTP_HU_RAZZ,
        _ftp_hu,
    ),
    Form(
        "Full Tilt",
        "… $200 Heads-Up Sit & Go (243603038), Table 1 - 40/80 Ante 7 - Limit Razz - …",
        lambda: edit(
            FTP_HU_RAZZ,
            (
                FTP_HU_HEADER,
                "Full Tilt Poker Game #28333847000: $200 Heads-Up Sit & Go (243603038), Table 1 "
                "- 80/160 Ante 15 - Limit Razz - 05:46:00 ET - 2011/02/19",
            ),
        ),
        lambda hand: None if hand.tournament_id == "243603038" else pytest.fail("id"),
    ),
    Form(
        "Full Tilt",
        "FullTiltPoker Game #579366587: $200 + $10 Heads Up Sit & Go (3795352), Table 1 - "
        "40/80 - … - 2006/04/19 (2006 spelling)",
        lambda: edit(
            FTP_HU_RAZZ,
            (
                FTP_HU_HEADER,
                "FullTiltPoker Game #579366587: $200 + $10 Heads Up Sit & Go (3795352), Table 1 "
                "- 80/160 Ante 15 - Limit Razz - 21:27:00 ET - 2006/04/19",
            ),
        ),
        lambda hand: None if hand.hand_id == "579366587" else pytest.fail(hand.hand_id),
    ),
    Form(
        "Full Tilt",
        "Limit 5 Card Stud; *** 2ND STREET ***; folded on 2nd St.",
        lambda: FTP_5STUD,
        lambda hand: None if hand.game is Game.STUD5 else pytest.fail(str(hand.game)),
        status="ok",
    ),
    Form(
        "Full Tilt",
        "Kilij shows [As Ac 8h Qs Jh Qh 7c] two pair, Aces and Queens, for high; No low hand "
        "qualified",
        lambda: FTP_STUD8_NO_LOW,
        _ftp_no_low,
    ),
    Form(
        "Full Tilt",
        "Uncalled bet of $4 returned to Hero; Hero mucks; Seat 2: Hero collected ($10.90), mucked",
        _ftp_collected_mucked,
        _ftp_mucked_winner,
    ),
    *[_ftp_noise(line) for line in FTP_NOISE],
]


# ---------------------------------------------------------------------------------------------
# Bovada / Bodog

# Hand written from the documented verbs: "Big blind/Bring in", "Raises N to M" (the
# completion), "Call", the "(timeout)" suffix, "Double bets" on an open pair, "All-in N"
# (chips added: a short call), "Return uncalled portion of bet", "Hand Result-Side Pot".
BOVADA_VERBS = """\
Bovada Hand #2633952300 TBL#2027664 7CARD Fixed Limit - 2012-09-19 13:20:00
Seat+1: $5 in chips
Seat+2 [ME]: $6.53 in chips
Seat+3: $0.60 in chips
Seat+1 : Ante chip $0.05␠
Seat+2 [ME] : Ante chip $0.05␠
Seat+3 : Ante chip $0.05␠
*** 3RD STREET ***
Seat+1 : Card dealt to a spot [6d Ad 2s]␠
Seat+2 [ME] : Card dealt to a spot [4d Qd Kc]␠
Seat+3 : Card dealt to a spot [7s As 9c]␠
Seat+1 : Big blind/Bring in $0.10␠
Seat+2 [ME] : Raises $0.25 to $0.25
Seat+3 : Call $0.25␠
Seat+1 : Calls(timeout) $0.15␠
*** 4TH STREET ***
Seat+1 : Card dealt to a spot [Jc]␠
Seat+2 [ME] : Card dealt to a spot [Kd]␠
Seat+3 : Card dealt to a spot [3h]␠
Seat+2 [ME] : Double bets $0.50␠
Seat+3 : All-in $0.30␠
Seat+1 : Calls $0.50␠
*** 5TH STREET ***
Seat+1 : Card dealt to a spot [8h]␠
Seat+2 [ME] : Card dealt to a spot [5c]␠
Seat+3 : Card dealt to a spot [Th]␠
Seat+2 [ME] : Bets $0.50␠
Seat+1 : Calls $0.50␠
*** 6TH STREET ***
Seat+1 : Card dealt to a spot [9d]␠
Seat+2 [ME] : Card dealt to a spot [7h]␠
Seat+3 : Card dealt to a spot [Qs]␠
Seat+2 [ME] : Checks
Seat+1 : Bets $0.50␠
Seat+2 [ME] : Calls $0.50␠
*** RIVER ***
Seat+1 : Card dealt to a spot [3c]␠
Seat+2 [ME] : Card dealt to a spot [2h]␠
Seat+3 : Card dealt to a spot [4s]␠
Seat+2 [ME] : Bets $0.50␠
Seat+1 : Folds
Seat+2 [ME] : Return uncalled portion of bet $0.50
Seat+2 [ME] : Showdown [Kc Kd Qd 7h 5c] (One pair)
Seat+3 : Showdown [As Qs Th 9c 7s] (High Card)
Seat+2 [ME] : Hand Result-Side Pot $2.40␠
Seat+2 [ME] : Hand result $1.80␠
*** SUMMARY ***
Total Pot($4.20) | Rake ($0.00)
Seat+1:  Folded on the RIVER
Seat+2:  $4.20  with One pair [4d Qd Kc Kd 5c 7h 2h-Kc Kd Qd 7h 5c]
Seat+3:   lost with High Card [7s As 9c 3h Th Qs 4s-As Qs Th 9c 7s]
""".replace("␠", " ").replace("⇥", "\t")


def _bovada_verbs(hand: Hand) -> None:
    bring_in = actions(hand, ActionKind.BRING_IN)
    assert [(a.player, a.amount) for a in bring_in] == [("Seat+1", 10)]
    complete = actions(hand, ActionKind.COMPLETE)
    assert [a.to_amount for a in complete] == [25]
    calls = [
        (a.player, a.amount) for a in actions(hand, ActionKind.CALL) if a.street is Street.THIRD
    ]
    assert calls == [("Seat+3", 25), ("Seat+1", 15)]
    short = [a for a in actions(hand, ActionKind.CALL) if a.all_in]
    assert [(a.player, a.amount) for a in short] == [("Seat+3", 30)]
    bet = [a for a in actions(hand, ActionKind.BET) if a.street is Street.FOURTH]
    assert [a.amount for a in bet] == [50]
    collected = sorted(a.amount for a in actions(hand, ActionKind.COLLECT))
    assert collected == [180, 240]
    assert [a.amount for a in actions(hand, ActionKind.UNCALLED_BET_RETURNED)] == [50]


def _bovada_all_in_raise() -> str:
    """The verbs hand with "All-in(raise) $1" (the street total) on 5th street."""
    return edit(
        BOVADA_VERBS,
        ("Seat+1: $5 in chips", "Seat+1: $1.80 in chips"),
        (
            "Seat+2 [ME] : Bets $0.50 \nSeat+1 : Calls $0.50 \n",
            "Seat+2 [ME] : Bets $0.50 \nSeat+1 : All-in(raise) $1 \nSeat+2 [ME] : Calls $0.50 \n",
        ),
        ("Seat+2 [ME] : Checks\nSeat+1 : Bets $0.50 \nSeat+2 [ME] : Calls $0.50 \n", ""),
        (
            "Seat+2 [ME] : Bets $0.50 \nSeat+1 : Folds\n"
            "Seat+2 [ME] : Return uncalled portion of bet $0.50\n",
            "",
        ),
        ("Seat+3 : Showdown", "Seat+1 : Showdown [Ad Jc 9d 8h 6d] (High Card)\nSeat+3 : Showdown"),
        (
            "Seat+1:  Folded on the RIVER",
            "Seat+1:   lost with High Card [6d Ad 2s Jc 8h 9d 3c-Ad Jc 9d 8h 6d]",
        ),
    )


def _bovada_raise_total(hand: Hand) -> None:
    raise_ = action_of(hand, "Seat+1", ActionKind.RAISE, Street.FIFTH)
    assert (raise_.to_amount, raise_.all_in) == (100, True)
    assert sorted(a.amount for a in actions(hand, ActionKind.COLLECT)) == [180, 240]


BOVADA = [
    Form(
        "Bovada",
        "All-in(raise) $1 (the street total)",
        _bovada_all_in_raise,
        _bovada_raise_total,
    ),
    Form(
        "Bovada",
        "Big blind/Bring in; Call; Calls(timeout); Double bets; All-in N (chips added); Return "
        "uncalled portion of bet; Hand Result-Side Pot",
        lambda: BOVADA_VERBS,
        _bovada_verbs,
    ),
    Form(
        "Bovada",
        "Bovada Hand #2633115879: 7CARD Tournament #1378659 TBL#1, Fixed Limit- Level 1 (0/0) - …",
        lambda: edit(
            BOVADA_VERBS,
            (
                "Bovada Hand #2633952300 TBL#2027664 7CARD Fixed Limit - 2012-09-19 13:20:00",
                "Bovada Hand #2633115879: 7CARD Tournament #1378659 TBL#1, Fixed Limit- Level 1 "
                "(0/0) - 2012-09-19 13:20:00",
            ),
        ),
        lambda hand: None if hand.tournament_id == "1378659" else pytest.fail("no tournament"),
    ),
    Form(
        "Bovada",
        "Bodog Hand #… 7CARD Fixed Limit",
        lambda: edit(
            BOVADA_VERBS,
            ("Bovada Hand #2633952300 TBL", "Bodog Hand #2633952300 TBL"),
        ),
        lambda hand: None if hand.game is Game.STUD else pytest.fail(str(hand.game)),
    ),
]


# ---------------------------------------------------------------------------------------------
# Everleaf

EVERLEAF_NEW = "everleaf/stud-eur-new-format.txt"


def _everleaf_old_format() -> str:
    """The last fixture hand as the old format prints it: dollars as "$ 0.54 USD", the
    "**** dealing 4th street ****" headers."""
    hand = fixture(EVERLEAF_NEW).split("\n\n\n\n")[5]
    hand = hand.replace("€ ", "$ ").replace(" EURO", " USD").replace("€", "$")
    for street in ("4th Street", "5th Street", "6th Street", "River"):
        hand = hand.replace(f"** Dealing {street} **", f"**** dealing {street.lower()} ****")
    return hand


def _everleaf_old(hand: Hand) -> None:
    assert hand.currency == "USD"
    assert seat(hand, "MOURINHO_").stack == 282
    assert hand.streets[-1] is Street.SEVENTH
    assert [a.amount for a in actions(hand, ActionKind.COLLECT)] == [211]


EVERLEAF = [
    Form(
        "Everleaf",
        "Seat 1: Player1 (  $ 0.54 USD ); Player1: posts ante [$ 0.01 USD]; **** dealing 4th "
        "street ****; Player4 wins $ 0.08 USD from main pot",
        _everleaf_old_format,
        _everleaf_old,
    ),
]


# ---------------------------------------------------------------------------------------------
# Winning Poker / ACR (2019+)

ACR = "winning/stud-winner-does-not-show.txt"
ACR_HEADER = "Hand #85198832 - 7Stud(Fixed Limit) - $0.04/$0.08 - 2019/07/28 16:15:58 UTC"


def _acr_header(new: str) -> Form:
    return Form(
        "ACR",
        new,
        lambda: edit(fixture(ACR), (ACR_HEADER, new)),
        lambda hand: (
            None
            if (hand.game, hand.small_bet, hand.big_bet) == (Game.STUD, 4, 8)
            else pytest.fail(f"{hand.game} {hand.small_bet}/{hand.big_bet}")
        ),
    )


WINNING = [
    _acr_header(ACR_HEADER),
    _acr_header(
        "Hand #85198832 - 7Stud (Fixed Limit) - $0.04/$0.08, Ante $0.01 - 2019/07/28 16:15:58 UTC"
    ),
]


# ---------------------------------------------------------------------------------------------
# Merge

MERGE_RAZZ = "merge/razz-all-in-shown-early.xml"
MERGE_FOLD = '<event sequence="14" type="FOLD" timestamp="1321414729477" player="6"/>'


def _merge_event(event: str) -> Form:
    return Form(
        "Merge",
        f'<event … type="{event}" …/>',
        lambda: edit(
            fixture(MERGE_RAZZ),
            (
                MERGE_FOLD,
                f'{MERGE_FOLD}\n\t\t<event sequence="14" type="{event}" timestamp="1321414729500" '
                'player="6" message="nh"/>',
            ),
        ),
    )


def _merge_tournament() -> str:
    """The fixture as a tournament hand: realmoney="false", balances printed after the ante."""
    return edit(
        fixture(MERGE_RAZZ),
        ('realmoney="true"', 'realmoney="false"'),
        ('balance="$2.96"', 'balance="2.91"'),
        ('balance="$10.00"', 'balance="9.95"'),
        ('balance="$15.39"', 'balance="15.34"'),
    )


MERGE = [
    Form(
        "Merge",
        'realmoney="false": tournament balances are printed after the ante',
        _merge_tournament,
        lambda hand: _is(
            [(s.name, s.stack) for s in hand.seats],
            [("Hero", 296), ("Player1", 1000), ("Player2", 1539)],
        ),
    ),
    _merge_event("CHAT"),
    _merge_event("PLAYER_OUT"),
    Form(
        "Merge",
        '<description type="7-Stud H/L8" stakes="No Limit ($0.01/$0.02/$0.10)"/>',
        lambda: fixture("merge/no-limit-stud8.xml"),
        lambda hand: (
            None if hand.structure is Structure.NO_LIMIT else pytest.fail(str(hand.structure))
        ),
    ),
]


# ---------------------------------------------------------------------------------------------
# KingsClub

KINGSCLUB = [
    Form(
        "KingsClub",
        "#40091899: Limit 2-7 Razz - 22/44",
        lambda: fixture("kingsclub/2-7-razz-first-raise-by-the-bring-in.txt"),
        lambda hand: None if hand.game is Game.RAZZ27 else pytest.fail(str(hand.game)),
    ),
]


# ---------------------------------------------------------------------------------------------
# iPoker

IPOKER_EUR = SITES / "ipoker" / "stud8-eur-cp1252.xml"
IPOKER_RAISE_TO = b'<action no="11" player="Hero" type="23" sum="\x800.30" cards=""/>'
IPOKER_RAISE_BY = b'<action no="11" player="Hero" type="6" sum="\x800.10" cards=""/>'


def _ipoker_raise_by() -> bytes:
    data = IPOKER_EUR.read_bytes()
    assert IPOKER_RAISE_TO in data
    return data.replace(IPOKER_RAISE_TO, IPOKER_RAISE_BY, 1)


def _ipoker_raise(hand: Hand) -> None:
    if hand.hand_id != IPOKER_RAISE_HAND:
        return
    raise_ = action_of(hand, "Hero", ActionKind.RAISE, Street.SIXTH)
    assert raise_.to_amount == 30


IPOKER_RAISE_HAND = re.search(
    rb'<game gamecode="(\d+)">(?:(?!<game ).)*' + re.escape(IPOKER_RAISE_TO),
    IPOKER_EUR.read_bytes(),
    re.S,
)[1].decode()

# The real 5-card stud session (iPoker/5-StudL-USD-0.05-0.10-201111.Sample.with.showdown.xml,
# CRLF as exported, indentation left out): "5 Card Stud L", "Second Street"…"River", no closing </session>.
IPOKER_5STUD = """\
<?xml version="1.0" encoding="utf-8"?>
<session sessioncode="3463716601">
<general>
<mode>real</mode>
<gametype>5 Card Stud L $0.05/$0.10</gametype>
<tablename>Dundee, 637718441</tablename>
<duration>00:17</duration>
<gamecount>51</gamecount>
<startdate>2011-11-02 18:11:00</startdate>
<currency>USD</currency>
<nickname>Hero</nickname>
<bets>$5.41</bets>
<wins>$3.41</wins>
<chipsin>$2</chipsin>
<chipsout>$0</chipsout>
<ipoints>3.40</ipoints>
<statuspoints>3.40</statuspoints>
<awardpoints>3.40</awardpoints>

</general>
<game gamecode="3013529647">
<general>
<startdate>2011-11-02 18:10:00</startdate>
<players>
<player seat="1" name="Player1" chips="$2.67" dealer="1" win="$0.42" bet="$0.22" rebuy="0" addon="0"/><player seat="4" name="Hero" chips="$1.28" dealer="0" win="$0" bet="$0.22" rebuy="0" addon="0"/>
</players>
</general>
<round no="0">
<action no="1" player="Player1" type="15" sum="$0.02" cards="[cards]"/><action no="2" player="Hero" type="15" sum="$0.02" cards="[cards]"/>
</round>
<round no="1">

</round>
<round no="2">
<cards type="Second Street" player="Player1">H8 DJ</cards><action no="4" player="Player1" type="5" sum="$0.05" cards=""/><cards type="Second Street" player="Hero">SQ C3</cards><action no="3" player="Hero" type="16" sum="$0.02" cards=""/><action no="5" player="Hero" type="3" sum="$0.03" cards=""/>
</round>
<round no="3">
<cards type="Third Street" player="Player1">C4</cards><action no="6" player="Player1" type="5" sum="$0.05" cards=""/><cards type="Third Street" player="Hero">C2</cards><action no="7" player="Hero" type="3" sum="$0.05" cards=""/>
</round>
<round no="4">
<cards type="Fourth Street" player="Player1">S4</cards><action no="8" player="Player1" type="5" sum="$0.10" cards=""/><cards type="Fourth Street" player="Hero">CK</cards><action no="9" player="Hero" type="3" sum="$0.10" cards=""/>
</round>
<round no="5">
<cards type="River" player="Player1">DK</cards><action no="10" player="Player1" type="4" sum="$0" cards=""/><cards type="River" player="Hero">C5</cards><action no="11" player="Hero" type="4" sum="$0" cards=""/>
</round>

</game>
""".replace("␠", " ").replace("⇥", "\t")


IPOKER = [
    Form(
        "iPoker",
        '<action … type="6" sum="€0.10"/> (raise by, in the cp1252 EUR file)',
        lambda: "",
        _ipoker_raise,
        raw=_ipoker_raise_by,
        suffix=".xml",
        hands=5,
    ),
    Form(
        "iPoker",
        "<gametype>5 Card Stud L $0.05/$0.10</gametype>; Second Street … River; no </session>",
        lambda: "",
        lambda hand: None if hand.game is Game.STUD5 else pytest.fail(str(hand.game)),
        raw=lambda: IPOKER_5STUD.replace("\n", "\r\n").encode("utf-8"),
        suffix=".xml",
    ),
]


# ---------------------------------------------------------------------------------------------
# Bytes: byte-order marks, UTF-16, CRLF, blank lines between hands

BYTES = [
    Form(
        "PokerStars",
        "UTF-8 BOM before the first hand only, CRLF, hands separated by 3 blank lines",
        lambda: "",
        raw=lambda: (
            ("\ufeff" + PS_MTT_RAZZ + PS_MTT_RAZZ.replace("49382949075", "49382949076"))
            .replace("\n", "\r\n")
            .encode("utf-8")
        ),
        hands=2,
    ),
    Form(
        "Full Tilt",
        "UTF-16LE with BOM, CRLF, blank line after the header",
        lambda: "",
        raw=lambda: (
            ("\ufeff" + edit(FTP_HU_RAZZ, (FTP_HU_HEADER, FTP_HU_HEADER + "\n")) + "\n\n")
            .replace("\n", "\r\n")
            .encode("utf-16-le")
        ),
        expect=_ftp_hu,
    ),
]


# ---------------------------------------------------------------------------------------------
# Documented forms that a fixture of the site already holds: the value handlog reads from it


def _from_fixture(site: str, line: str, name: str, expect, index: int = 0, **kw) -> Form:
    """The form as fixture NAME holds it; `expect` is checked on its hand number `index`."""

    def check(hand: Hand, name=name, index=index) -> None:
        hands = [c.hand for c in checked_text(fixture(name)) if c.hand is not None]
        if hand.hand_id == hands[index].hand_id:
            expect(hand)

    hands = len(checked_text(fixture(name)))
    return Form(site, line, lambda: fixture(name), check, hands=hands, **kw)


def _is(actual, expected) -> None:
    assert actual == expected, f"{actual!r} != {expected!r}"


def _moves(hand: Hand, player: str, kind: ActionKind, street: Street | None = None):
    return [
        (a.amount, a.to_amount, a.all_in)
        for a in actions(hand, kind)
        if a.player == player and (street is None or a.street is street)
    ]


FIXTURE_FORMS = [
    # Winamax
    _from_fixture(
        "Winamax",
        "Player0 raises -6.10€ to 18.90€ (short all-in re-raise: 18.90€ added, 28.90€ in all)",
        "winamax/short-all-in-reraise-negative-size.txt",
        lambda h: _is(_moves(h, "Player0", ActionKind.RAISE), [(1890, 2890, True)]),
    ),
    _from_fixture(
        "Winamax",
        "Player1 raises 25€ to 25€ (the completion); Hero brings in 10€; (5€/25€/50€) = "
        "ante/small/big",
        "winamax/short-all-in-reraise-negative-size.txt",
        lambda h: _is(
            (h.ante, h.small_bet, h.big_bet, _moves(h, "Player1", ActionKind.COMPLETE)),
            (500, 2500, 5000, [(2500, 2500, False)]),
        ),
    ),
    _from_fixture(
        "Winamax",
        "Player0 collected 114€ from pot(HI) / …from pot(LO); Seat 2: Player0 won 114€ (twice)",
        "winamax/stud8-halves-without-showdown.txt",
        lambda h: _is(
            [(a.amount, a.half) for a in actions(h, ActionKind.COLLECT)],
            [(11400, "high"), (11400, "low")],
        ),
    ),
    _from_fixture(
        "Winamax",
        "7stud fixed limit (0.01/0.05/0.10) (play money)",
        "winamax/play-money-earlier-client.txt",
        lambda h: _is((h.game, h.ante, h.small_bet, h.big_bet), (Game.STUD, 1, 5, 10)),
    ),
    # OnGame
    _from_fixture(
        "OnGame",
        "Hero raises $1 to $1.37 (the to figure is the hand total, antes excluded)",
        "ongame/stud8-raise-to-hand-total.txt",
        lambda h: _is(_moves(h, "Hero", ActionKind.RAISE), [(100, 100, False)]),
    ),
    _from_fixture(
        "OnGame",
        "Start hand: Sat Aug 28 20:33:38 GMT+0300 2010; Hero small bring in $0.12",
        "ongame/stud8-raise-to-hand-total.txt",
        lambda h: _is(
            (h.start_time, _moves(h, "Hero", ActionKind.BRING_IN)),
            (utc(2010, 8, 28, 17, 33, 38), [(12, 12, False)]),
        ),
    ),
    _from_fixture(
        "OnGame",
        "Dealing to boneos56: [-, -, Kd]",
        "ongame/stud8-raise-to-hand-total.txt",
        lambda h: _is(
            [
                str(c)
                for d in h.events
                if getattr(d, "player", "") == "boneos56" and hasattr(d, "new")
                for c in d.new
            ][:1],
            ["Kd"],
        ),
    ),
    _from_fixture(
        "OnGame",
        "Hero big bring in $1 (the forced player completing)",
        "ongame/stud-big-bring-in.txt",
        lambda h: _is(
            (_moves(h, "Hero", ActionKind.BRING_IN), _moves(h, "Hero", ActionKind.COMPLETE)),
            ([], [(100, 100, False)]),
        ),
    ),
    # Absolute
    _from_fixture(
        "Absolute",
        "Stage #1300000000: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)",
        "absolute/stud8-odd-chip-to-high.txt",
        lambda h: _is((h.game, h.start_time), (Game.STUD8, utc(2009, 3, 18, 23, 10))),
    ),
    _from_fixture(
        "Absolute",
        "PLAYER1 - Pocket [H H Js 10d] (H = hidden, rank 10)",
        "absolute/stud8-odd-chip-to-high.txt",
        lambda h: _is(
            [str(c) for c in action_of(h, "PLAYER1", ActionKind.SHOW).cards][:4],
            ["Jh", "3h", "Js", "Td"],
        ),
    ),
    _from_fixture(
        "Absolute",
        "Seat 3: PLAYER3 won Total ($0.19) HI:… LO:($0.19) (odd chip: high 0.20 / low 0.19)",
        "absolute/stud8-odd-chip-to-high.txt",
        lambda h: _is(
            sorted((a.half, a.amount) for a in actions(h, ActionKind.COLLECT)),
            [("high", 20), ("low", 19)],
        ),
    ),
    # PartyPoker
    _from_fixture(
        "PartyPoker",
        "Player0 raises [$17 USD] (bracketed amounts are increments)",
        "partypoker/stud8-wins-low-half.txt",
        lambda h: _is(_moves(h, "Player0", ActionKind.RAISE), [(1700, 2000, False)]),
    ),
    _from_fixture(
        "PartyPoker",
        "Player1 wins Lo ($90.50 USD) from the main pot with 8,5,3,2,A.",
        "partypoker/stud8-wins-low-half.txt",
        lambda h: _is(
            [(a.player, a.amount, a.half) for a in actions(h, ActionKind.COLLECT)],
            [("Player0", 9050, "high"), ("Player1", 9050, "low")],
        ),
    ),
    _from_fixture(
        "PartyPoker",
        "FL 7 Card Stud $6 USD Buy-in Trny:69784932 Level:2  Stakes-Antes(60/120-10); "
        "Player4 double bets [120]",
        "partypoker/tournament-double-bet.txt",
        lambda h: _is(
            (h.tournament_id, h.ante, h.small_bet, _moves(h, "Player4", ActionKind.BET)[0]),
            ("69784932", 10, 60, (120, 120, False)),
        ),
    ),
    # Winning Poker 2016
    _from_fixture(
        "Winning 2016",
        "*** Sixth street *** is 7th street; Player ChazDazzle received card: [10d]",
        "winning/2016-stud8-odd-chip-to-low.txt",
        lambda h: _is(
            [
                (d.street, [str(c) for c in d.new])
                for d in h.events
                if getattr(d, "player", "") == "ChazDazzle" and hasattr(d, "new")
            ][::3],
            [(Street.THIRD, ["6h", "Td", "2c"]), (Street.SIXTH, ["4d"])],
        ),
    ),
    _from_fixture(
        "Winning 2016",
        "*Player ChazDazzle shows: … Collects: 3.53. …; Pot: 7.05. Rake 0.14. JP fee 0.06",
        "winning/2016-stud8-odd-chip-to-low.txt",
        lambda h: _is(
            sorted((a.player, a.amount) for a in actions(h, ActionKind.COLLECT)),
            [("ChazDazzle", 353), ("KickAzzJohnny", 352)],
        ),
    ),
    # KingsClub
    _from_fixture(
        "KingsClub",
        "no header for the first betting round, then *** 3RD STREET *** (4th street); "
        "Seat 1: Player0 (1,060.38)",
        "kingsclub/razz-uncalled-bet-returned-silently.txt",
        lambda h: _is(
            (seat(h, "Player0").stack, _moves(h, "Hero", ActionKind.BET, Street.FOURTH)),
            (106038, [(4000, 4000, False)]),
        ),
    ),
    # Everleaf
    _from_fixture(
        "Everleaf",
        "MOURINHO_: bets [€ 0.05 EURO] (a forced player completing, no bring-in line)",
        "everleaf/stud-eur-new-format.txt",
        lambda h: _is(_moves(h, "MOURINHO_", ActionKind.COMPLETE), [(5, 5, False)]),
        index=1,
    ),
    # iPoker
    _from_fixture(
        "iPoker",
        '<action … type="7" …/> (all-in), actions sorted by "no", not file order',
        "ipoker/stud8-eur-cp1252.xml",
        lambda h: _is(_moves(h, "Player0", ActionKind.RAISE, Street.SEVENTH), [(11, 11, True)]),
        index=1,
    ),
    # Merge
    _from_fixture(
        "Merge",
        "RAISE is the street total, ALL_IN the chips added",
        "merge/razz-all-in-shown-early.xml",
        lambda h: _is(
            _moves(h, "Hero", ActionKind.RAISE),
            [(90, 100, False), (100, 200, False), (91, 91, True)],
        ),
    ),
]


# ---------------------------------------------------------------------------------------------
# The collected table


FORMS = [
    *POKERSTARS,
    *FULLTILT,
    *BOVADA,
    *EVERLEAF,
    *WINNING,
    *MERGE,
    *KINGSCLUB,
    *IPOKER,
    *BYTES,
    *FIXTURE_FORMS,
]


def _id(form: Form) -> str:
    words = re.sub(r"[^A-Za-z0-9]+", "-", form.line).strip("-")[:60]
    return f"{form.site}:{words}"


def _param(form: Form):
    marks = [pytest.mark.xfail(strict=True, reason=form.fails)] if form.fails else []
    return pytest.param(form, id=_id(form), marks=marks)


@pytest.mark.parametrize("form", [_param(f) for f in FORMS])
def test_documented_form(form: Form, tmp_path: Path):
    if form.raw is not None:
        check_form(form, checked_bytes(tmp_path, form.raw(), form.suffix))
    else:
        check_form(form, checked_text(form.text()))
