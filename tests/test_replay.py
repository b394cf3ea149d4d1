"""The replay: real hands are clean, and every violation code is caught in a real hand
changed the way that fault would look in an export."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from handlog.model import Action, ActionKind, Hand
from handlog.parse import parse_file, parse_text
from handlog.rules.profiles import CASINO, POKERSTARS, TieBreak
from handlog.rules.replay import replay
from handlog.rules.tables import after_rake
from handlog.rules.traits import PRINTS_EVERYTHING
from handlog.rules.violations import CODES

from .conftest import SAMPLE_LOGS, SITES, pokerstars_corpus_files, site_fixture_files

STUD = SAMPLE_LOGS / "7-Stud-USD-0.04-0.08-200911.txt"
SPLIT = SAMPLE_LOGS / "7-StudHL-USD-0.04-0.08-200911.Cardtest.txt"
PT2 = SAMPLE_LOGS / "7-StudHL-USD-10-1-200906.PT2.export.txt"
RAZZ = SAMPLE_LOGS / "Razz-USD-0.04-0.08-200911.txt"
SIDE_POT = SITES / "pokerstars" / "side-pot.txt"
ONGAME = SITES / "ongame" / "stud8-raise-to-hand-total.txt"  # the corpus hand, kept as a fixture


@pytest.mark.parametrize("path", pokerstars_corpus_files(), ids=lambda p: p.name)
def test_real_hands_replay_clean_and_nets_sum_to_minus_rake(path):
    for hand in (h for h in parse_file(path) if isinstance(h, Hand)):
        result = replay(hand, POKERSTARS)
        assert result.violations == (), (hand.hand_id, result.violations)
        assert sum(result.net.values()) == -hand.rake
        assert result.total_pot == hand.total_pot


def test_fixture_hands_replay_clean():
    for path in site_fixture_files("pokerstars"):
        for hand in (h for h in parse_file(path) if isinstance(h, Hand)):
            assert replay(hand, POKERSTARS).violations == (), (path.name, hand.hand_id)


def test_side_pot_awards():
    hand = next(h for h in parse_file(SIDE_POT) if isinstance(h, Hand))
    result = replay(hand, POKERSTARS)
    assert [(p.amount, p.eligible) for p in result.pots] == [
        (111, ("Anna K.", "PC [Mittel]")),  # main: everyone's first 37 cents
        (50, ("Anna K.",)),  # side: Anna and Ölfläsche, who folded
    ]
    # Anna: ante 2 + 20 on each of 3rd, 4th and 5th; her river bet came back
    assert result.net == {"Anna K.": 153 - 62, "PC [Mittel]": -37, "Ölfläsche": -62}


def _hand_text(path, hand_id: str | None) -> str:
    """The text of hand `hand_id` of a PokerStars file; the whole file for None."""
    text = "\n".join(line.rstrip() for line in path.read_text(encoding="utf-8").split("\n"))
    if hand_id is None:
        return text.strip("\n")
    start = text.index(f"#{hand_id}:")
    start = text.rindex("\n", 0, start) + 1 if "\n" in text[:start] else 0
    end = text.find("\n\n\n", start)
    return text[start : end if end > 0 else len(text)]


def _replay_text(text: str, profile=POKERSTARS):
    items = parse_text(text)
    assert len(items) == 1 and isinstance(items[0], Hand), items
    return replay(items[0], profile)


# One real hand per code, changed the way the fault would look in an export:
# (code, file, hand id, [(text, replacement), ...])
FAULTS = [
    (
        "DUPLICATE_CARD",
        STUD,
        "35874039554",
        [
            (
                "MasterTrini1: shows [4c 6d Ts 5c 6h Jh 9c]",
                "MasterTrini1: shows [4c 6d Ts 5c 6h Jh 2h]",
            ),
            (
                "MasterTrini1 showed [4c 6d Ts 5c 6h Jh 9c]",
                "MasterTrini1 showed [4c 6d Ts 5c 6h Jh 2h]",
            ),
        ],
    ),
    (
        "CARDS_CHANGED",
        STUD,
        "35874039554",
        [("Dealt to Nikolay Zem [7d Td] [3d]", "Dealt to Nikolay Zem [7d Kd] [3d]")],
    ),
    (
        "CARD_COUNT",
        STUD,
        "35874039554",
        [("Dealt to trs2758 [5h 8s] [4s]", "Dealt to trs2758 [5h 8s] [4s 4h]")],
    ),
    ("COMMUNITY_CARD", STUD, "35874039554", [("*** RIVER ***", "*** RIVER *** [Kd]")]),
    ("ANTE", STUD, "35874039554", [("totof51: posts the ante $0.01\n", "")]),
    (
        "BRING_IN_PLAYER",
        STUD,
        "35874039554",
        [
            ("Dealt to trs2758 [5h]\n", "Dealt to trs2758 [2h]\n"),
            ("Dealt to trs2758 [5h] [8s]", "Dealt to trs2758 [2h] [8s]"),
            ("Dealt to trs2758 [5h 8s] [4s]", "Dealt to trs2758 [2h 8s] [4s]"),
        ],
    ),
    (
        "BRING_IN_AMOUNT",
        STUD,
        "35874039554",
        [("RoadDevil: brings in for $0.02", "RoadDevil: brings in for $0.04")],
    ),
    (
        "OUT_OF_TURN",
        STUD,
        "35874039554",
        [("MasterTrini1: calls $0.02\nHero: folds", "Hero: folds\nMasterTrini1: calls $0.02")],
    ),
    (
        "CHECK_FACING_BET",
        STUD,
        "35874039554",
        [("RoadDevil: folds\nMasterTrini1: calls $0.04", "RoadDevil: folds\nMasterTrini1: checks")],
    ),
    ("BET_SIZE", STUD, "35874039554", [("totof51: bets $0.04", "totof51: bets $0.08")]),
    (
        "RAISE_CAP",
        STUD,
        "35874039554",
        [
            (
                "totof51: bets $0.08\ntrs2758: folds\nMasterTrini1: calls $0.08\nNikolay Zem: calls $0.08",
                "totof51: bets $0.08\ntrs2758: folds\nMasterTrini1: raises $0.08 to $0.16\n"
                "Nikolay Zem: raises $0.08 to $0.24\ntotof51: raises $0.08 to $0.32\n"
                "MasterTrini1: raises $0.08 to $0.40\nNikolay Zem: calls $0.16\ntotof51: calls $0.08",
            )
        ],
    ),
    (
        "CALL_AMOUNT",
        STUD,
        "35874039554",
        [("MasterTrini1: calls $0.02", "MasterTrini1: calls $0.03")],
    ),
    (
        "ACTED_AFTER_FOLD",
        STUD,
        "35874039554",
        [
            (
                "Dealt to MasterTrini1 [Ts 5c] [6h]\n",
                "Dealt to MasterTrini1 [Ts 5c] [6h]\nRoadDevil: checks\n",
            )
        ],
    ),
    ("OVER_STACK", STUD, "35874039554", [("trs2758 ($2.17 in chips)", "trs2758 ($0.03 in chips)")]),
    (
        "ROUND_INCOMPLETE",
        STUD,
        "35874039554",
        [
            (
                "totof51: bets $0.08\nMasterTrini1: calls $0.08\nNikolay Zem: calls $0.08\n*** RIVER",
                "totof51: bets $0.08\nMasterTrini1: calls $0.08\n*** RIVER",
            )
        ],
    ),
    (
        "UNCALLED_RETURN",
        STUD,
        "35874195699",
        [
            (
                "Uncalled bet ($0.08) returned to Nikolay Zem",
                "Uncalled bet ($0.04) returned to Nikolay Zem",
            )
        ],
    ),
    (
        "POT_TOTAL",
        STUD,
        "35874039554",
        [("Total pot $0.80 | Rake $0.03", "Total pot $0.90 | Rake $0.13")],
    ),
    (
        "RAKE",
        STUD,
        "35874039554",
        [("Total pot $0.80 | Rake $0.03", "Total pot $0.80 | Rake $0.04")],
    ),
    (
        "WRONG_WINNER",
        STUD,
        "35874039554",
        [("Nikolay Zem collected $0.77 from pot", "MasterTrini1 collected $0.77 from pot")],
    ),
    (
        "SPLIT_AMOUNT",
        SPLIT,
        "35874676388",
        [
            (
                "gashpor collected $0.40 from pot\nHero collected $0.40 from pot",
                "gashpor collected $0.30 from pot\nHero collected $0.50 from pot",
            )
        ],
    ),
    (
        "ODD_CHIP",
        SPLIT,
        "35874676388",
        [
            ("Total pot $0.84 | Rake $0.04", "Total pot $0.84 | Rake $0.03"),
            (
                "gashpor collected $0.40 from pot\nHero collected $0.40 from pot",
                "gashpor collected $0.40 from pot\nHero collected $0.41 from pot",
            ),
        ],
    ),
    (
        "LOW_NOT_QUALIFIED",
        PT2,
        "29356803849",
        [
            ("Player2: shows [3s Jc Ah 6h Ks 7h 5c]", "Player2: shows [3s Jc Ah 6h Ks 7h Qc]"),
            ("Player2 showed [3s Jc Ah 6h Ks 7h 5c]", "Player2 showed [3s Jc Ah 6h Ks 7h Qc]"),
        ],
    ),
    (
        "NOT_ELIGIBLE",
        SIDE_POT,
        "100000000001",
        [("Anna K. collected $0.47 from side pot", "PC [Mittel] collected $0.47 from side pot")],
    ),
    ("HAND_DESCRIPTION", STUD, "35874039554", [("(a pair of Tens)\n", "(a pair of Aces)\n")]),
    # OnGame prints each seat's net: one cent off for a player who only posted the ante.
    (
        "PLAYER_NET",
        ONGAME,
        None,
        [("Seat 3: boneos56 ($27.73), net: -$0.05", "Seat 3: boneos56 ($27.73), net: -$0.06")],
    ),
]


# Where each fault of FAULTS is flagged: whole lines of the changed hand, found once in it,
# whose last line is the flagged one (earlier lines only to tell repeated lines apart), and
# a part of the message that names what went wrong. Mostly the changed line; otherwise the
# line where the fault first shows in play (the bring-in of the wrong player, the call
# beyond the stack, the first action after the street cut short) or the header when the
# changed line is gone.
FLAGGED = {
    "DUPLICATE_CARD": (
        "MasterTrini1: shows [4c 6d Ts 5c 6h Jh 2h] (a pair of Sixes)",
        "2h dealt to MasterTrini1 is already in Nikolay Zem's hand",
    ),
    "CARDS_CHANGED": ("Dealt to Nikolay Zem [7d Kd] [3d]", "card 4 was Td, now shows as Kd"),
    "CARD_COUNT": ("Dealt to trs2758 [5h 8s] [4s 4h]", "trs2758 is dealt 2 cards on 5th street"),
    "COMMUNITY_CARD": ("*** RIVER *** [Kd]", "a community card was dealt on 7th street"),
    "ANTE": (
        "PokerStars Game #35874039554:  7 Card Stud Limit ($0.04/$0.08 USD)"
        " - 2009/11/26 10:09:44 ET",
        "totof51 was dealt in without posting the ante",
    ),
    "BRING_IN_PLAYER": (
        "RoadDevil: brings in for $0.02",
        "bring-in should be trs2758 (2h is the lowest door card), was RoadDevil (5d)",
    ),
    "BRING_IN_AMOUNT": (
        "RoadDevil: brings in for $0.04",
        "less than the small bet $0.04, RoadDevil brought in for $0.04",
    ),
    "OUT_OF_TURN": ("Hero: folds", "Hero acts (fold) out of turn: it was MasterTrini1's turn"),
    "CHECK_FACING_BET": (
        "RoadDevil: folds\nMasterTrini1: checks",
        "MasterTrini1 checks facing a bet of $0.04",
    ),
    "BET_SIZE": (
        "MasterTrini1: checks\nNikolay Zem: checks\ntotof51: bets $0.08",
        "totof51 may bet $0.04, made it $0.08",
    ),
    "RAISE_CAP": ("MasterTrini1: raises $0.08 to $0.40", "the 5th bet on 5th street"),
    "CALL_AMOUNT": ("MasterTrini1: calls $0.03", "MasterTrini1 owed $0.02 to call, put in $0.03"),
    "ACTED_AFTER_FOLD": (
        "Dealt to MasterTrini1 [Ts 5c] [6h]\nRoadDevil: checks",
        "RoadDevil acts (check) after having folded",
    ),
    "OVER_STACK": ("trs2758: calls $0.04", "putting in $0.04 but had only $0 left"),
    "ROUND_INCOMPLETE": (
        "*** RIVER ***\nNikolay Zem: checks",
        "betting on 6th street ended before Nikolay Zem acted",
    ),
    "UNCALLED_RETURN": (
        "Uncalled bet ($0.04) returned to Nikolay Zem",
        "$0.08 of Nikolay Zem's bet was uncalled, but $0.04 was returned",
    ),
    "POT_TOTAL": (
        "Total pot $0.90 | Rake $0.13",
        "put in $0.80 in all, the summary says the total pot was $0.90",
    ),
    "RAKE": ("Total pot $0.80 | Rake $0.04", "$0.77 collected plus $0.04 rake is $0.81"),
    "WRONG_WINNER": (
        "MasterTrini1 collected $0.77 from pot",
        "the pot ($0.77 after rake, Nikolay Zem, totof51 and MasterTrini1): Nikolay Zem should "
        "win it with a pair of Tens; the hand history pays MasterTrini1 $0.77 and Nikolay Zem "
        "nothing",
    ),
    "SPLIT_AMOUNT": (
        "gashpor collected $0.30 from pot",
        "the pot ($0.80 after rake, gashpor and Hero): gashpor should win the high half with a "
        "flush, Queen high, Hero should win the low half with Lo: 7,6,5,4,3; the rules pay Hero "
        "$0.40 and gashpor $0.40, the hand history pays Hero $0.50 and gashpor $0.30",
    ),
    "ODD_CHIP": (
        "gashpor collected $0.40 from pot",
        "the rules pay Hero $0.40 and gashpor $0.41, the hand history pays Hero $0.41 and "
        "gashpor $0.40",
    ),
    "LOW_NOT_QUALIFIED": (
        "Player4 collected 220 from pot",
        "Player2 was paid a low half, but no hand qualified for low",
    ),
    "NOT_ELIGIBLE": (
        "PC [Mittel] collected $0.47 from side pot",
        "PC [Mittel] was all-in for less and has no part in it",
    ),
    "HAND_DESCRIPTION": (
        "Nikolay Zem: shows [Ac 4d 7d Td 3d Tc 2h] (a pair of Aces)",
        'the cards make "a pair of Tens", the site says "a pair of Aces"',
    ),
    "PLAYER_NET": (
        "Seat 3: boneos56 ($27.73), net: -$0.06",
        "the hand history prints boneos56's result as -$0.06, but its actions give -$0.05",
    ),
}


def test_every_code_has_a_fault():
    assert sorted({code for code, *_ in FAULTS}) == sorted(CODES) == sorted(FLAGGED)


@pytest.mark.parametrize(("code", "path", "hand_id", "changes"), FAULTS, ids=[f[0] for f in FAULTS])
def test_each_fault_is_caught(code, path, hand_id, changes):
    original = _hand_text(path, hand_id)
    assert _replay_text(original).violations == ()
    text = original
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    result = _replay_text(text)
    codes = [v.code for v in result.violations]
    assert code in codes, result.violations
    flagged = next(v for v in result.violations if v.code == code)
    # the hand is parsed on its own, so its lines count from 1 at its header
    where, message_part = FLAGGED[code]
    lines = text.split("\n")
    at = [n for n in range(len(lines)) if "\n".join(lines[n : n + where.count("\n") + 1]) == where]
    assert len(at) == 1, where
    line = at[0] + where.count("\n") + 1
    assert flagged.line == line, (flagged.line, lines[flagged.line - 1])
    assert message_part in flagged.message, flagged.message


def test_bring_in_message_names_the_cards():
    text = _hand_text(STUD, "35874039554")
    for old, new in FAULTS[5][3]:
        text = text.replace(old, new)
    message = next(v.message for v in _replay_text(text).violations if v.code == "BRING_IN_PLAYER")
    assert message == "bring-in should be trs2758 (2h is the lowest door card), was RoadDevil (5d)"


def test_all_in_bet_below_the_big_bet_of_an_open_pair_is_legal():
    """On 4th street with an open pair (PokerStars stud) a player may bet the small or the
    big bet; one whose chips fall between bets them all (table stakes: all-in for less than
    a size he may bet). Where only the small bet may be bet, the same bet is too big."""
    text = SIDE_POT.read_text(encoding="utf-8")
    for old, new in [
        (
            "Anna K.: bets $0.20\nPC [Mittel]: calls $0.15 and is all-in\nÖlfläsche: calls $0.20",
            "Anna K.: checks\nPC [Mittel]: bets $0.15 and is all-in\nÖlfläsche: calls $0.15\n"
            "Anna K.: calls $0.15",
        ),
        ("Anna K. collected $0.47 from side pot", "Anna K. collected $0.37 from side pot"),
        (
            "Total pot $1.61 Main pot $1.06. Side pot $0.47.",
            "Total pot $1.51 Main pot $1.06. Side pot $0.37.",
        ),
        ("and won ($1.53)", "and won ($1.43)"),
    ]:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    from handlog.rules.fast import replay_clean

    hand = parse_text(text)[0]
    assert replay(hand, POKERSTARS).violations == ()
    assert replay_clean(hand, POKERSTARS) is not None  # the fast path agrees
    no_double_bet = replace(POKERSTARS, open_pair_double_bet=frozenset())
    assert [v.code for v in replay(hand, no_double_bet).violations] == ["BET_SIZE"]


def test_razz_showing_tie_depends_on_the_profile():
    """Hand 35874817957: As-6s and Ac-6h tie on 4th and 5th street. PokerStars lets the
    higher suit act first; the seed rule (casino) the lower."""
    text = _hand_text(RAZZ, "35874817957")
    assert _replay_text(text, POKERSTARS).violations == ()
    codes = {v.code for v in _replay_text(text, CASINO).violations}
    assert "OUT_OF_TURN" in codes


def test_cards_needed_counts_the_dead_cards_of_folded_players():
    from handlog.model import Street
    from handlog.rules.tables import cards_needed

    eight = [f"p{n}" for n in range(8)]
    assert cards_needed(eight, {}, 7, 0) == 56  # eight to 7th street: 4 cards short
    # one folds on 4th street (4 cards, dead), seven go on: 4 + 49 = 53, still one short
    assert cards_needed(eight, {"p0": Street.FOURTH}, 7, 0) == 53
    assert cards_needed(eight, {"p0": Street.THIRD, "p1": Street.THIRD}, 7, 0) == 48
    assert cards_needed(eight[:7], {}, 7, 5) == 54  # seven players run short with burns


# -- the fast path for clean hands agrees with the full replay ------------------------------


def _line_mutations(text: str, rng) -> list[str]:
    """Changed copies of a hand's text, each with one line dropped, repeated, swapped with the
    next, or one card, amount or player name changed: faults of every kind, most of which the
    fast path must leave to the full replay."""
    import re

    lines = text.split("\n")
    names = re.findall(r"^Seat \d+: (.+) \(", text, re.MULTILINE)
    out = []
    for _ in range(8):
        changed = list(lines)
        i = rng.randrange(len(changed))
        what = rng.randrange(6)
        if what == 0:
            del changed[i]
        elif what == 1:
            changed.insert(i, changed[i])
        elif what == 2 and i + 1 < len(changed):
            changed[i], changed[i + 1] = changed[i + 1], changed[i]
        elif what == 3:
            changed[i] = re.sub(
                r"\b[2-9TJQKA][cdhs]\b",
                lambda _: rng.choice("23456789TJQKA") + rng.choice("cdhs"),
                changed[i],
                count=1,
            )
        elif what == 4:
            changed[i] = re.sub(
                r"\$(\d+)\.(\d\d)",
                lambda m: f"${int(m[1]) + rng.choice((0, 1))}.{(int(m[2]) + 1) % 100:02d}",
                changed[i],
                count=1,
            )
        elif names and ": " in changed[i]:
            head, _, tail = changed[i].partition(": ")
            if head in names:
                changed[i] = f"{rng.choice(names)}: {tail}"
        out.append("\n".join(changed))
    return out


def _all_in_variants(hand: Hand) -> list[Hand]:
    """Copies of a hand with an all-in bet, raise or completion that change its size against
    the stack: a chip or half a bet more or less in the stack alone (over the stack, or not
    all-in after all), or in the stack and the bet together (any returned bet with it), which
    makes short all-ins that do or do not reopen the betting and all-ins of no allowed size."""
    variants = []
    events = hand.events
    for index, event in enumerate(events):
        if not (type(event) is Action and event.all_in and event.kind in _ALL_IN_KINDS):
            continue
        half = max(1, hand.small_bet // 2)
        for delta in (-1, 1, -half, half, hand.small_bet, -hand.small_bet):
            seats = tuple(
                replace(s, stack=s.stack + delta) if s.name == event.player else s
                for s in hand.seats
            )
            variants.append(replace(hand, seats=seats))
            changed = list(events)
            changed[index] = replace(
                event,
                amount=None if event.amount is None else event.amount + delta,
                to_amount=None if event.to_amount is None else event.to_amount + delta,
            )
            for later in range(index + 1, len(events)):
                other = events[later]
                if (
                    type(other) is Action
                    and other.kind is ActionKind.UNCALLED_BET_RETURNED
                    and other.player == event.player
                ):
                    changed[later] = replace(other, amount=(other.amount or 0) + delta)
                    break
            variants.append(replace(hand, seats=seats, events=tuple(changed)))
    return variants


_ALL_IN_KINDS = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)


def _fast_path_module(variant: str):
    """`handlog.rules.fast` as this process runs it ("installed": compiled by mypyc when the
    install could), or loaded afresh from its source ("source")."""
    import importlib.util

    from handlog.rules import fast

    if variant == "installed":
        return fast
    source = Path(fast.__file__).with_name("fast.py")
    if str(fast.__file__).endswith(".py"):
        pytest.skip("the installed module runs from source already (not compiled)")
    spec = importlib.util.spec_from_file_location("handlog.rules._fast_source", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("variant", ["installed", "source"])
def test_the_fast_path_agrees_with_the_full_replay(variant):
    """`replay` first tries the fast path (`handlog.rules.fast`), which gives up on anything
    unusual; on every hand it does not give up on, its result must be exactly the full
    `_Replayer`'s, under both profiles and a variant of the casino one whose first actor
    among equal up cards is the lowest seat rather than the best suit. Checked on the real
    hands, random legal pokerkit hands, and faulty copies (of the text, and of the all-in
    bets: `_all_in_variants`), for the module as installed (compiled by mypyc when the
    install could) and for its Python source."""
    import contextlib
    import random

    pytest.importorskip("pokerkit")
    from handlog.rules.replay import _Replayer

    _replay_clean = _fast_path_module(variant).replay_clean

    from .pokerkit_hands import generate
    from .test_differential_pokerkit import _mutations

    texts = []
    for path in [*pokerstars_corpus_files(), *site_fixture_files("pokerstars")]:
        texts += path.read_text(encoding="utf-8").replace("\r\n", "\n").split("\n\n\n")
    for game, seed in (("stud", 71), ("stud8", 72), ("razz", 73)):
        texts += generate(game, 120, seed).texts
    rng = random.Random(5)
    for text in list(texts):
        with contextlib.suppress(StopIteration):  # a mutation that needs two players to name
            texts += [changed for _, _, changed in _mutations(text)]
        texts += _line_mutations(text, rng)
    profiles = (
        POKERSTARS,
        CASINO,
        replace(CASINO, name="clockwise", first_actor_tie=TieBreak.CLOCKWISE),
    )
    accepted = clean = compared = 0
    for text in texts:
        parsed = [h for h in parse_text(text) if isinstance(h, Hand)]
        for hand in [*parsed, *(v for h in parsed for v in _all_in_variants(h))]:
            for profile in profiles:
                full = _Replayer(hand, profile).run()
                fast = _replay_clean(hand, profile)
                compared += 1
                clean += not full.violations
                if fast is not None:
                    accepted += 1
                    assert fast == full, (profile.name, hand.hand_id, text)
    assert compared > 5000
    # Most clean hands take the fast path (it leaves a few unusual ones alone, such as a bet
    # after a short all-in that did not reopen the betting), and nothing flagged ever does.
    assert clean * 0.4 < accepted <= clean, (accepted, clean)


@pytest.mark.parametrize("variant", ["installed", "source"])
def test_the_fast_path_agrees_in_every_game_structure_and_site(variant):
    """The fast path in the games, structures and sites the test above does not reach: the
    hands of every site's fixtures (all of them, faulty ones included) under their own house
    rules and traits, and simulated hands of every game in every structure (a third with a
    fault) with their all-in variants, under the three profiles of the test above. Wherever
    the fast path does not give up, its result is exactly the full `_Replayer`'s; and it
    takes most clean hands of spread, pot and no limit as it does of fixed limit.
    HANDLOG_FAST_PATH_HANDS=N simulates N hands of each game in each structure (24 by
    default) for a longer run."""
    import os

    from handlog.check import hand_rules
    from handlog.model import Structure
    from handlog.rules.replay import _Replayer
    from handlog.simulate import SIMULATED_GAMES, SimulationOptions, simulate_hands

    replay_clean = _fast_path_module(variant).replay_clean
    hands = int(os.environ.get("HANDLOG_FAST_PATH_HANDS", "24"))
    profiles = (
        POKERSTARS,
        CASINO,
        replace(CASINO, name="clockwise", first_actor_tie=TieBreak.CLOCKWISE),
    )
    cases = []
    for path in sorted(SITES.glob("*/*")):
        if path.suffix in (".txt", ".xml", ".phh", ".phhs"):
            for hand in parse_file(str(path)):
                if isinstance(hand, Hand):
                    cases.append((hand, *hand_rules(hand)))
    for structure in Structure:
        for game in SIMULATED_GAMES:
            options = SimulationOptions(
                game, hands, 8, seed=61, fault_rate=0.3, structure=structure
            )
            for simulated in simulate_hands(options):
                for hand in (simulated.hand, *_all_in_variants(simulated.hand)):
                    cases += [(hand, profile, PRINTS_EVERYTHING) for profile in profiles]
    accepted: Counter[Structure] = Counter()
    clean: Counter[Structure] = Counter()
    for hand, profile, traits in cases:
        full = _Replayer(hand, profile, traits).run()
        fast = replay_clean(hand, profile, traits)
        clean[hand.structure] += not full.violations
        if fast is not None:
            accepted[hand.structure] += 1
            assert fast == full, (profile.name, hand.hand_id, hand.structure)
    assert len(cases) > 3000
    for structure in Structure:
        assert clean[structure] * 0.5 < accepted[structure] <= clean[structure], (
            structure,
            accepted,
            clean,
        )


def test_a_bring_in_other_than_the_houses_fixed_one_is_flagged():
    # (The table tells cash from chips: $0.50/$1 is not the 50/100 tournament level.)
    assert POKERSTARS.bring_in_for("USD", 50, 100) is None
    assert POKERSTARS.bring_in_for(None, 50, 100) == 15
    # PokerStars brings in for $0.02 at $0.04/$0.08 (every corpus hand); $0.03 is below the
    # small bet but not the bring-in. At stakes the profile does not know, it is accepted.
    text = _hand_text(STUD, "35874039554")
    bring_in = next(line for line in text.split("\n") if ": brings in for $0.02" in line)
    player = bring_in.split(":")[0]
    changed = text.replace(bring_in, f"{player}: brings in for $0.03")
    flagged = [v for v in _replay_text(changed).violations if v.code == "BRING_IN_AMOUNT"]
    assert len(flagged) == 1 and "the bring-in at $0.04/$0.08 is $0.02" in flagged[0].message
    unknown = replace(POKERSTARS, bring_ins=())
    codes = {v.code for v in _replay_text(changed, unknown).violations}
    assert "BRING_IN_AMOUNT" not in codes


def test_the_simulator_brings_in_as_the_profile_says():
    from handlog.simulate import forced_bets

    for _, small, big, bring_in in POKERSTARS.bring_ins:
        assert forced_bets(small, big)[1] == bring_in, (small, big)


def test_an_all_in_that_leaves_chips_behind_is_flagged():
    """The hand history says "and is all-in" but the seat's stack leaves chips: its stacks
    and its actions disagree (OVER_STACK), and the fast path leaves it to the full replay."""
    from handlog.rules.fast import replay_clean

    text = _hand_text(STUD, "35874081088").replace(
        "RoadDevil: calls $0.04\nMasterTrini1: raises",
        "RoadDevil: calls $0.04 and is all-in\nMasterTrini1: raises",
    )
    (hand,) = parse_text(text)
    assert isinstance(hand, Hand)
    assert replay_clean(hand, POKERSTARS) is None
    flagged = [(v.code, v.player, v.message) for v in replay(hand, POKERSTARS).violations]
    assert flagged == [
        (
            "OVER_STACK",
            "RoadDevil",
            "RoadDevil is all-in by the hand history, but the seat's stack leaves $1.52 behind",
        )
    ]


def test_a_rake_bigger_than_the_main_pot_comes_out_of_the_side_pots_too() -> None:
    """One rule for replay and simulator (`tables.after_rake`): a short all-in's main pot can
    be smaller than the rake, and the rest of the rake comes out of the next pots, so that
    the pots paid still add up to the total less the rake."""
    assert after_rake([10, 100, 40], 15) == [0, 95, 40]
    assert after_rake([10, 100], 0) == [10, 100]
    assert after_rake([30, 100], 200) == [0, 0]


@pytest.mark.parametrize("variant", ["installed", "source"])
def test_the_fast_path_takes_a_bet_the_site_returns_without_a_line_or_leaves_in_the_pot(
    variant: str,
) -> None:
    """A bet nobody called goes back without a line at some sites (KingsClub, Everleaf:
    `UncalledBets.SILENT`, the replay returns it itself) and stays in the pot at others
    (Winamax: `UncalledBets.IN_POT`). Hands of every such site, simulated in every game and
    structure the site deals (a third with a fault), printed by its printer and read back,
    under their own house rules and traits: wherever the fast path does not give up its
    result is exactly `_Replayer`'s, and it takes nine clean hands in ten of each site (it
    left every hand with such a bet to `_Replayer` once: some half of them)."""
    from handlog.check import hand_rules
    from handlog.model import Structure
    from handlog.parse.sites import formats
    from handlog.rules.replay import _Replayer
    from handlog.rules.traits import UncalledBets
    from handlog.simulate import SIMULATED_GAMES, SimulationOptions, simulate_hands

    replay_clean = _fast_path_module(variant).replay_clean
    sites = sorted(
        {found.site for found in formats() if found.traits.uncalled_bets is not UncalledBets.LINE},
        key=lambda site: site.value,
    )
    accepted: Counter[str] = Counter()
    clean: Counter[str] = Counter()
    kinds: set[UncalledBets] = set()
    for site in sites:
        for structure in Structure:
            for game in SIMULATED_GAMES:
                options = SimulationOptions(
                    game, 16, 6, seed=43, fault_rate=0.3, structure=structure, site=site
                )
                try:
                    simulated = list(simulate_hands(options))
                except ValueError:  # a game or structure the site does not deal
                    continue
                for one in simulated:
                    for hand in parse_text(one.text):
                        if not isinstance(hand, Hand):
                            continue
                        profile, traits = hand_rules(hand)
                        kinds.add(traits.uncalled_bets)
                        full = _Replayer(hand, profile, traits).run()
                        fast = replay_clean(hand, profile, traits)
                        clean[site.value] += not full.violations
                        if fast is not None:
                            accepted[site.value] += 1
                            assert fast == full, (site, hand.hand_id, one.text)
    assert kinds == {UncalledBets.SILENT, UncalledBets.IN_POT}
    for site in clean:
        assert clean[site] * 0.9 < accepted[site] <= clean[site], (site, accepted, clean)
