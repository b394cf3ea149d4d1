"""The modules compiled by mypyc at install (`handlog._native.COMPILED`) must give exactly what
their Python source gives: the whole `handlog parse --json` and `handlog check --json` output
of real, simulated, faulty and broken hands is compared between a process that runs the
compiled extensions and one that runs the source (HANDLOG_PURE_PYTHON=1)."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from handlog import _native, records

from .conftest import pokerstars_corpus_files, site_fixture_files

HANDLOG = [sys.executable, "-c", "from handlog.cli import main; main()"]


def _run(arguments: list[str], pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_PYTHON_ENV}
    if pure:
        env[_native.PURE_PYTHON_ENV] = "1"
    return subprocess.run(
        [*HANDLOG, *arguments], capture_output=True, text=True, env=env, timeout=600, check=False
    )


def test_status_names_every_compiled_module():
    status = _native.status()
    assert set(status) == set(_native.COMPILED)
    assert all(s == "compiled" or s.startswith("source (") for s in status.values())


def test_pure_python_switch_runs_the_source():
    probe = (
        "import handlog.rules.fast as f, handlog.parse.sites.pokerstars as p, handlog._native as n;"
        "print(f.__file__, p.__file__, sorted(set(n.status().values())))"
    )
    env = {**os.environ, _native.PURE_PYTHON_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    assert out[0].endswith("fast.py") and out[1].endswith("pokerstars.py"), out
    assert "HANDLOG_PURE_PYTHON" in " ".join(out[2:])


def test_a_stale_extension_gives_way_to_its_source(tmp_path, monkeypatch):
    source = tmp_path / "fast.py"
    extension = tmp_path / "fast.cpython-311-x86_64-linux-gnu.so"
    extension.write_text("")
    source.write_text("")
    os.utime(extension, (1_000_000, 1_000_000))
    os.utime(source, (1_000_100, 1_000_100))
    monkeypatch.delenv(_native.PURE_PYTHON_ENV, raising=False)
    assert _native._why_source(str(source), str(extension)) == "edited since the install"
    os.utime(source, (1_000_001, 1_000_001))  # written a moment after, as an install does
    assert _native._why_source(str(source), str(extension)) is None
    assert _native._why_source(str(source), None) == "not compiled at install"
    # One compiled module edited: every other one runs as source too (one mypyc group).
    assert _native._why_source(str(source), str(extension), group_edited=True) == (
        "another compiled module was edited since the install"
    )


def _mixed_input(folder: Path) -> list[str]:
    """Real hands, simulated hands with injected faults, and hands broken as text."""
    simulated = folder / "simulated.txt"
    done = _run(
        ["simulate", "--game", "stud8", "--hands", "400", "--faults", "0.3", "--seed", "11"]
        + ["--out", str(simulated)],
        pure=False,
    )
    assert done.returncode == 0, done.stderr
    razz = folder / "razz.txt"
    done = _run(
        ["simulate", "--game", "razz", "--hands", "300", "--players", "5", "--seed", "12"]
        + ["--tournament", "--out", str(razz)],
        pure=False,
    )
    assert done.returncode == 0, done.stderr
    text = simulated.read_text(encoding="utf-8")
    broken = folder / "broken.txt"
    broken.write_text(
        text[:40_000]
        .replace(": calls ", ": kalls ", 3)
        .replace("Dealt to ", "Dealt to Nobody ", 2)
        .replace("] [", "] [Zz ", 2)
        .replace("*** SUMMARY ***", "*** SUMARY ***", 1),
        encoding="utf-8",
    )
    real = [str(path) for path in pokerstars_corpus_files()]
    fixtures = [str(path) for path in site_fixture_files("pokerstars")]
    return [*real, *fixtures, str(simulated), str(razz), str(broken)]


@pytest.mark.skipif(
    not any(s == "compiled" for s in _native.status().values()),
    reason="no module was compiled at install (pure Python install): nothing to compare",
)
def test_compiled_modules_give_what_the_source_gives(tmp_path):
    paths = _mixed_input(tmp_path)
    for command in (["parse", "--json"], ["check", "--json"]):
        compiled = _run([*command, *paths], pure=False)
        source = _run([*command, *paths], pure=True)
        assert compiled.returncode == source.returncode
        assert compiled.stdout == source.stdout
        lines = compiled.stdout.splitlines()
        assert len(lines) > 700  # 400 + 300 simulated, the real and broken hands
        if command[0] == "check":
            assert '"status": "flagged"' in compiled.stdout
            assert '"status": "unparsed"' in compiled.stdout


_RECORD_PROBE = """
import dataclasses, pickle, sys
from handlog.model import Hand
from handlog.parse import parse_file
hands = [h for h in parse_file(sys.argv[1]) if isinstance(h, Hand)]
for hand in hands:
    copy = pickle.loads(pickle.dumps(hand))
    assert copy == hand and copy.source == hand.source
    assert [e.line for e in copy.events] == [e.line for e in hand.events]
event = hands[0].events[0]
try:
    event.line = 1
except dataclasses.FrozenInstanceError:
    pass
else:
    raise AssertionError("a record took an assignment")
assert dataclasses.replace(event, line=99).line == 99 and event.line != 99
print(len(hands))
"""


@pytest.mark.parametrize("pure", [False, True], ids=["installed", "source"])
def test_records_are_frozen_and_pickle_compiled_or_not(pure):
    """handlog.model's records are native classes when compiled and dataclasses with a swapped
    `__init__` as source (see handlog.records): both stay frozen, pickle whole (lines and
    sources too) and work with `dataclasses.replace`."""
    assert int(_probe(_RECORD_PROBE, pure)) > 0


def _probe(script: str, pure: bool) -> str:
    """What `script` prints, run on a PokerStars corpus file in a new process, compiled (as
    installed) or as source (`pure`); it must succeed."""
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_PYTHON_ENV}
    if pure:
        env[_native.PURE_PYTHON_ENV] = "1"
    sample = str(pokerstars_corpus_files()[0])
    done = subprocess.run(
        [sys.executable, "-c", script, sample],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


_TRACE_PROBE = """
import dataclasses, sys
from handlog import _native
from handlog.check import hand_rules
from handlog.model import Hand
from handlog.parse import parse_file
from handlog.rules import trace as module
from handlog.rules.trace import CardSlot, FlagState, SeatState, Step, trace
hands = [h for h in parse_file(sys.argv[1]) if isinstance(h, Hand)]
steps = 0
for hand in hands:
    first, again = trace(hand, *hand_rules(hand)), trace(hand, *hand_rules(hand))
    assert first.steps == again.steps and first.final_cards == again.final_cards
    assert hash(first.steps) == hash(again.steps)
    steps += len(first.steps)
step = first.steps[-1]
seat = step.seats[0]
for record in (step, seat, seat.cards[0]):
    fields = dataclasses.fields(record)
    try:
        setattr(record, fields[0].name, getattr(record, fields[1].name))
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError(f"{type(record).__name__} took an assignment")
    assert dataclasses.replace(record) == record
assert dataclasses.replace(step, pot=step.pot + 1).pot == step.pot + 1
assert Step(*(getattr(step, f.name) for f in dataclasses.fields(Step))) == step
assert SeatState(*(getattr(seat, f.name) for f in dataclasses.fields(SeatState))) == seat
assert CardSlot(seat.cards[0].card, seat.cards[0].face_up, seat.cards[0].street) == seat.cards[0]
from handlog.model import ActionKind
flagged = []
for hand in hands:  # each hand with a call one chip over what was owed: flagged
    events = list(hand.events)
    for index, event in enumerate(events):
        if getattr(event, "kind", None) is ActionKind.CALL:
            events[index] = dataclasses.replace(event, amount=event.amount + 1)
            break
    changed = dataclasses.replace(hand, events=tuple(events))
    flagged += trace(changed, *hand_rules(changed)).flagged
assert flagged
for state in flagged:
    assert FlagState(*(getattr(state, f.name) for f in dataclasses.fields(FlagState))) == state
    assert dataclasses.replace(state) == state
    try:
        state.owed = 1
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("FlagState took an assignment")
compiled = not module.__file__.endswith(".py")
assert compiled == (_native.status()["handlog.rules.trace"] == "compiled")
print(steps, compiled)
"""


@pytest.mark.parametrize("pure", [False, True], ids=["installed", "source"])
def test_trace_records_are_frozen_dataclasses_compiled_or_not(pure):
    """The trace's per-event records (`Step`, `SeatState`, `CardSlot`; `FlagState` at a
    flag) have their `__init__`
    written out for mypyc (swapped as source, as the model's are): compiled or not they take
    their fields in order, compare and hash by value, stay frozen and work with
    `dataclasses.replace` (the all-in EV replaces a step's seats and street)."""
    steps, compiled = _probe(_TRACE_PROBE, pure).split()
    assert int(steps) > 0
    if pure:
        assert compiled == "False"


def test_a_written_out_init_must_take_exactly_the_fields():
    @dataclasses.dataclass(frozen=True)
    class Pair:
        left: int
        right: int = 0

        def __init__(self, left: int, right: int = 1) -> None:  # default differs
            pass

    with pytest.raises(TypeError, match="Pair.__init__ takes"):
        records.source_init(Pair)

    @dataclasses.dataclass(frozen=True)
    class Fine:
        left: int
        right: int = 0

        def __init__(self, left: int, right: int = 0) -> None:
            pass

    records.swap_inits(Fine)
    assert Fine(3) == Fine(3, 0) and Fine(3).right == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        Fine(3).left = 4  # type: ignore[misc]


def test_the_makefile_reinstalls_when_a_compiled_module_changes():
    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text(encoding="utf-8")
    makefile = makefile.replace("\\\n", " ")  # continued lines
    line = next(x for x in makefile.splitlines() if x.startswith("NATIVE_SOURCES :="))
    for name in _native.COMPILED:
        assert name.replace(".", "/") + ".py" in line.split(), name


def test_a_built_wheel_carries_the_grammars(tmp_path):
    """`pip install .` (a wheel, not the editable install) must work on its own: the
    grammars travel inside the package. Built without compiling (HANDLOG_PURE_PYTHON), which
    changes nothing else in the wheel."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, _native.PURE_PYTHON_ENV: "1"}
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q"]
        + ["-w", str(tmp_path / "wheel"), str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheel").glob("handlog-*.whl")
    target = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target)]
        + [str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    probe = (
        "import handlog.parse.grammar as g, handlog.parse as p, sys;"
        "hands = p.parse_file(sys.argv[1]);"
        "print(g.GRAMMAR_DIR, sum(1 for h in hands if type(h).__name__ == 'Hand'))"
    )
    sample = sorted((root / "sample_logs").glob("*.txt"))[0]
    ran = subprocess.run(
        [sys.executable, "-c", probe, str(sample)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(target)},
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    grammar_dir, hands = ran.stdout.split()
    assert Path(grammar_dir) == target / "handlog" / "grammars"
    assert int(hands) > 0
