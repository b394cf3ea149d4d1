"""Loading the Lark grammars in `grammars/`, compiled once per process, and the classifiers
that check each line of a block token against the line terminals its grammar allows there.

What the classifiers take from a grammar (its terminals' regular expressions, the terminals
each rule allows, the literal each line terminal's lines contain) is derived once and kept
between runs in the user's cache folder (`cache_folder`), keyed by the grammars' text and the
versions of Lark, Python and this derivation: a new process reads it rather than compiling
the grammar again (a few hundredths of a second a process, in every worker too). Lark keeps
its LALR tables there as well. A folder that cannot be written only costs the time."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from handlog.cachedir import cache_folder, write_whole

if TYPE_CHECKING:
    from lark import Lark

_INSTALLED_GRAMMARS = Path(__file__).resolve().parent.parent / "grammars"
"""`handlog/grammars/`: where a built package (`pip install .`, a wheel) carries a copy of the
repository's `grammars/` (setup.py copies them in)."""
_REPOSITORY_GRAMMARS = Path(__file__).resolve().parent.parent.parent / "grammars"
"""The repository's `grammars/`, which an editable install and a checkout read directly."""
GRAMMAR_DIR = _INSTALLED_GRAMMARS if _INSTALLED_GRAMMARS.is_dir() else _REPOSITORY_GRAMMARS


_FACTS_VERSION = 1
"""Bump when what `_Facts` keeps, or how it is derived, changes."""


@cache
def load(name: str, *start: str) -> Lark:
    """The LALR parser for `grammars/<name>.lark`; compiled on first use, then reused (and its
    tables kept in `cache_folder` between runs: Lark checks they are of this grammar)."""
    from lark import Lark

    folder = cache_folder()
    return Lark.open(
        str(GRAMMAR_DIR / f"{name}.lark"),
        parser="lalr",
        start=list(start),
        # Lark's own default (True) is a pickle in the shared temporary folder.
        cache=str(folder / f"lark-{name}-{'-'.join(start)}.pickle") if folder else True,
    )


class _Facts:
    """What the classifiers derive from one grammar, kept between runs as JSON (`_facts`)."""

    def __init__(self, name: str, path: Path | None, key: str, data: dict[str, Any]) -> None:
        self.name = name
        self.path = path
        self.key = key
        self.data = data
        """"rules": terminals by rule (`rule_terminals`); "sequences": `terminal_sequence` by
        rule; "patterns": by start rules joined with ",", every terminal's regular
        expression; "literals": `_line_literal` by regular expression. False stands for a
        derivation's None (`get` gives None for a fact not derived yet)."""

    def get(self, part: str, key: str) -> Any:
        return self.data.setdefault(part, {}).get(key)

    def put(self, part: str, key: str, value: Any) -> None:
        """Keep a new fact, and the file with it (replaced whole: readers see the old file or
        the new one)."""
        self.data.setdefault(part, {})[key] = value
        if self.path is None:
            return
        data = json.dumps({"key": self.key, **self.data}).encode("utf-8")
        if not write_whole(self.path, lambda handle: handle.write(data)):
            self.path = None  # not writable after all: this process keeps its facts in memory


@cache
def _facts(name: str) -> _Facts:
    """The facts derived from `grammars/<name>.lark` so far, read from `cache_folder` when a
    run before kept them for the same grammars, Lark and Python."""
    texts = [
        path.name + "\0" + path.read_text(encoding="utf-8")
        for path in sorted(GRAMMAR_DIR.glob("*.lark"))  # %import reads the others
    ]
    versions = f"{_FACTS_VERSION} {_lark_version()} {sys.version}"
    key = hashlib.sha256("\0".join([versions, name, *texts]).encode()).hexdigest()
    folder = cache_folder()
    path = folder / f"grammar-{name}.json" if folder else None
    if path is not None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if isinstance(data, dict) and data.pop("key", None) == key:
            return _Facts(name, path, key, data)
    return _Facts(name, path, key, {})


def _lark_version() -> str:
    """Lark's version for the cache keys, read without importing Lark (a tenth of a CPU
    second): its package's `__init__.py`, which states the version, hashed."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("lark")
        origin = spec.origin if spec is not None else None
        return hashlib.sha256(Path(origin).read_bytes()).hexdigest()[:16] if origin else "none"
    except (OSError, ImportError, ValueError):
        return "unknown"


REMEMBERED_KEPT = 2_000
"""The most values `remember` keeps between runs for one grammar and kind (a tournament
player's headers are thousands: past this, they are derived again in each process)."""


class _Remembered:
    """Values derived by a site's code from what its grammar reads (`remembered`): kept in
    memory, and one JSON line each in a file of the cache folder, appended as they are
    found (two processes appending at once each write whole lines)."""

    def __init__(self, path: Path | None, values: dict[str, Any]) -> None:
        self.path = path
        self.values = values

    def add(self, key: str, value: Any) -> None:
        if len(self.values) >= REMEMBERED_KEPT:
            return
        self.values[key] = value
        if self.path is None:
            return
        try:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps([key, value]) + "\n")
        except OSError:
            self.path = None  # not writable after all: kept in memory only


@cache
def _remembered(name: str, kind: str) -> _Remembered:
    """The `kind` values of grammar `name` kept by earlier runs of the same grammars, Lark,
    Python and readers (`_readers_identity`); a file of other versions is removed."""
    folder = cache_folder()
    if folder is None:
        return _Remembered(None, {})
    key = hashlib.sha256(f"{_facts(name).key} {_readers_identity()}".encode()).hexdigest()
    path = folder / f"{kind}-{name}-{key[:24]}.jsonl"
    values: dict[str, Any] = {}
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    found, value = json.loads(line)
                except ValueError:
                    continue  # a line cut short (a process stopped while writing it)
                values[found] = value
    except FileNotFoundError:
        for stale in folder.glob(f"{kind}-{name}-*.jsonl"):
            stale.unlink(missing_ok=True)
    except (OSError, ValueError):
        return _Remembered(None, {})
    return _Remembered(path, values)


@cache
def _readers_identity() -> str:
    """What the code that derives values from the grammars is: the name, size and time of
    every module of handlog's parsers, rules and records (source or compiled), so that a
    changed reader never finds what another version derived."""
    package = Path(__file__).resolve().parent.parent
    found = []
    for folder in (package, package / "parse", package / "parse" / "sites", package / "rules"):
        for path in sorted(folder.iterdir()):
            if path.suffix in (".py", ".so", ".pyd"):
                try:
                    stat = path.stat()
                except OSError:
                    continue
                found.append(f"{path.name} {stat.st_size} {stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(found).encode()).hexdigest()


def remembered(name: str, kind: str, key: str) -> Any:
    """A JSON value a site derived from what grammar `name` read (a header's game, say),
    kept by this process or an earlier run (`remember`); None if none was."""
    return _remembered(name, kind).values.get(key)


def remember(name: str, kind: str, key: str, value: Any) -> None:
    """Keep a JSON value derived from what grammar `name` read, for `remembered` in this
    process and the next runs (up to `REMEMBERED_KEPT` of a kind between runs)."""
    _remembered(name, kind).add(key, value)


@cache
def _definitions(name: str) -> tuple[Any, dict[str, Any]]:
    # A parser loaded from Lark's cache keeps no grammar object, so the definitions are
    # read again from the file (once per process, for the classifiers only).
    from lark.load_grammar import GrammarBuilder

    builder = GrammarBuilder(import_paths=[str(GRAMMAR_DIR)])
    path = GRAMMAR_DIR / f"{name}.lark"
    builder.load_grammar(path.read_text(encoding="utf-8"), str(path))
    return builder, builder._definitions


def rule_terminals(name: str, rule: str) -> list[str]:
    """The terminals a rule of the form `rule: A | B | _other` allows, in order, with
    inlined `_` rules expanded."""
    facts = _facts(name)
    known = facts.get("rules", rule)
    if known is not None:
        return list(known)
    found = _rule_terminals(name, rule)
    facts.put("rules", rule, found)
    return list(found)


def _rule_terminals(name: str, rule: str) -> list[str]:
    _, definitions = _definitions(name)
    found: list[str] = []

    def walk(rule_name: str) -> None:
        tree = definitions[rule_name].tree
        for symbol in tree.scan_values(lambda v: hasattr(v, "is_term")):
            if not symbol.is_term:
                walk(symbol.name)
            elif symbol.name not in found:
                found.append(symbol.name)

    walk(rule)
    return found


def terminal_regexps(name: str, start: list[str], names: list[str]) -> dict[str, str]:
    """The regular expressions Lark compiles for the terminals `names`, including line
    terminals that the parser's rules do not use directly (Lark would otherwise drop them)."""
    compiled = _terminal_patterns(name, tuple(start))
    found = {n: compiled[n] for n in names if n in compiled}
    missing = set(names) - set(found)
    if missing:
        raise KeyError(f"terminals not in the grammar: {sorted(missing)}")
    return found


@cache
def _terminal_patterns(name: str, start: tuple[str, ...]) -> dict[str, str]:
    """Every terminal of the grammar `name` (those its rules do not use kept too) as the
    regular expression Lark compiles for it: the grammar compiled once, not once per line
    rule (each compilation costs some 0.05 s), and kept for the next runs (`_facts`)."""
    facts = _facts(name)
    known = facts.get("patterns", ",".join(start))
    if known is not None:
        return dict(known)
    found = _compiled_patterns(name, start)
    facts.put("patterns", ",".join(start), found)
    return found


def _compiled_patterns(name: str, start: tuple[str, ...]) -> dict[str, str]:
    builder, definitions = _definitions(name)
    keep = {terminal for terminal, definition in definitions.items() if definition.is_term}
    terminals, _, _ = builder.build().compile(list(start), keep)
    return {t.name: t.pattern.to_regexp() for t in terminals}


def line_classifier(name: str, start: list[str], rule: str) -> re.Pattern[str]:
    """A pattern matching one line (with its "\\n") against the terminals that `rule`
    allows, tried in the rule's order; `match.lastgroup` names the terminal that matched."""
    names = rule_terminals(name, rule)
    regexps = terminal_regexps(name, start, names)
    pattern = re.compile("|".join(f"(?P<{n}>{regexps[n]})" for n in names))
    if pattern.groups != len(names):
        raise ValueError(f"line terminals of {rule!r} must not capture: use (?:...) in the grammar")
    return pattern


# ---------------------------------------------------------------------------------------
# Fast paths, derived from the grammar and exact by construction.


def _may_match_newline(items: Any) -> bool:
    """Whether any part of a parsed pattern (`re._parser` form) might match "\\n" or look
    beyond the text it matches; conservative: anything not understood counts as yes."""
    from re import _constants as c  # type: ignore[attr-defined]

    for op, av in items:
        if op is c.LITERAL:
            if av == 10:
                return True
        elif op is c.NOT_LITERAL:
            if av != 10:
                return True
        elif op is c.IN:
            negate = False
            has_newline = False
            for item_op, item_av in av:
                if item_op is c.NEGATE:
                    negate = True
                elif item_op is c.LITERAL:
                    has_newline |= item_av == 10
                elif item_op is c.RANGE:
                    has_newline |= item_av[0] <= 10 <= item_av[1]
                elif item_op is c.CATEGORY:
                    has_newline |= item_av not in (c.CATEGORY_DIGIT, c.CATEGORY_WORD)
                else:
                    return True
            if has_newline != negate:
                return True
        elif op is c.CATEGORY:
            if av not in (c.CATEGORY_DIGIT, c.CATEGORY_WORD):
                return True
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            if _may_match_newline(av[2]):
                return True
        elif op is c.SUBPATTERN:
            if _may_match_newline(av[3]):
                return True
        elif op is c.ATOMIC_GROUP:
            if _may_match_newline(av):
                return True
        elif op is c.BRANCH:
            if any(_may_match_newline(branch) for branch in av[1]):
                return True
        else:  # ANY, AT, lookarounds, back references: not on a line terminal's path
            return True
    return False


def _line_literal(regexp: str) -> tuple[str, bool] | None:
    """For a line terminal's pattern: the longest run of plain characters every match of it
    contains, and whether the match starts with it; None unless the pattern matches one
    line only (no "\\n" anywhere but at its very end), which the fast path relies on."""
    from re import _constants as c  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(regexp)
    if parsed.state.flags & re.IGNORECASE:
        return None  # its literals match other cases too
    items = list(parsed)
    if not items or items[-1] != (c.LITERAL, 10) or _may_match_newline(items[:-1]):
        return None
    best, best_start = "", -1
    run: list[str] = []
    run_start = 0
    for index, (op, av) in enumerate(items[:-1] + [(None, None)]):
        if op is c.LITERAL:
            if not run:
                run_start = index
            run.append(chr(av))
            continue
        if len(run) > len(best):
            best, best_start = "".join(run), run_start
        run = []
    return best, best_start == 0


def leading_literal(regexp: str) -> str:
    """The plain characters every match of `regexp` starts with ("" if none): a match can
    only start where they stand, so a search may skip to them (`find`) and try the pattern
    only there."""
    from re import _constants as c  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(regexp)
    if parsed.state.flags & re.IGNORECASE:
        return ""  # its literals match other cases too
    run = []
    for op, av in parsed:
        if op is not c.LITERAL:
            break
        run.append(chr(av))
    return "".join(run)


def literal_text(regexp: str) -> str | None:
    """The one text `regexp` matches when it is plain characters only (escaped or not), else
    None: a match of it is then `str.startswith`, no regular expression."""
    from re import _constants as c  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(regexp)
    if parsed.state.flags & re.IGNORECASE or any(op is not c.LITERAL for op, _ in parsed):
        return None
    return "".join(chr(av) for _, av in parsed)


@dataclass(frozen=True, slots=True)
class LineTerminal:
    """One line terminal of a line rule, for `line_terminals`."""

    name: str
    literal: str
    """Text every line it accepts contains (at its start when `prefix`)."""
    prefix: bool
    pattern: re.Pattern[str]
    """The grammar's own regular expression for it, compiled alone."""


def line_terminals(name: str, start: list[str], rule: str) -> list[LineTerminal] | None:
    """The terminals `rule` allows, in the rule's order, each compiled alone with a literal
    every line it accepts must contain. Trying them in order, each only on a line holding its
    literal, gives the same answer as `line_classifier` (an alternation tries its branches in
    order), provided every terminal matches within one line: None if one might not."""
    names = rule_terminals(name, rule)
    regexps = terminal_regexps(name, start, names)
    facts = _facts(name)
    found = []
    for terminal in names:
        known = facts.get("literals", regexps[terminal])
        if known is None:
            literal = _line_literal(regexps[terminal])
            facts.put("literals", regexps[terminal], False if literal is None else list(literal))
        else:
            literal = (known[0], known[1]) if known is not False else None
        if literal is None:
            return None
        found.append(LineTerminal(terminal, literal[0], literal[1], re.compile(regexps[terminal])))
    return found


def terminal_sequence(name: str, rule: str) -> list[tuple[str, bool]] | None:
    """A rule made of one sequence of terminals, some optional (`A B? C`), as (terminal,
    optional) pairs; None for a rule of any other shape."""
    facts = _facts(name)
    known = facts.get("sequences", rule)
    if known is None:
        sequence = _terminal_sequence(name, rule)
        facts.put("sequences", rule, False if sequence is None else sequence)
        return sequence
    return None if known is False else [(terminal, optional) for terminal, optional in known]


def _terminal_sequence(name: str, rule: str) -> list[tuple[str, bool]] | None:
    _, definitions = _definitions(name)
    tree = definitions[rule].tree
    if tree.data != "expansions" or len(tree.children) != 1:
        return None
    found: list[tuple[str, bool]] = []
    for item in tree.children[0].children:
        optional = False
        if item.data == "expr":
            if len(item.children) != 2 or str(item.children[1]) != "?":
                return None
            item, optional = item.children[0], True
        if item.data != "value" or len(item.children) != 1:
            return None
        symbol = item.children[0]
        if not getattr(symbol, "is_term", False):
            return None
        found.append((symbol.name, optional))
    return found


_DEFINITION = re.compile(r"(?P<name>[A-Z_][A-Z0-9_]*)(?:\.-?\d+)?:(?P<body>.*)")
_NAMES = r"[A-Z_][A-Z0-9_]*(?: \| [A-Z_][A-Z0-9_]*)*"
_REPEATED = re.compile(
    rf"(?:(?P<one>[A-Z_][A-Z0-9_]*)|\((?P<first>{_NAMES})\))"
    rf"(?: \((?P<rest>{_NAMES})\)\*|(?P<plus>\+))"
)
"""A terminal that is a run of lines as the grammars write one: `X+`, `X (X | NOTE)*` or
`(X | Y) (X | Y | NOTE)*`."""


def _terminal_texts(name: str) -> dict[str, str]:
    """Each terminal defined in `grammars/<name>.lark` itself, by name: its definition's
    text (continued on the lines that start with "|"), spaces made single."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in (GRAMMAR_DIR / f"{name}.lark").read_text(encoding="utf-8").splitlines():
        definition = _DEFINITION.match(line)
        if definition is not None:
            current = found.setdefault(definition["name"], [])
            current.append(definition["body"])
        elif current is not None and line[:1].isspace() and line.strip().startswith("|"):
            current.append(line)
        else:
            current = None
    return {terminal: " ".join(" ".join(parts).split()) for terminal, parts in found.items()}


def repeated_lines(name: str, terminal: str) -> tuple[list[str], list[str]] | None:
    """For a body terminal written as a run of lines (`_REPEATED`: `X+`, `X (X | NOTE)*`):
    the terminals its first line may be and those each line after it may be, every name
    that the grammar defines as an alternation of names (`NOTE: CHAT | JOINS`) replaced by
    those; None for a terminal of any other form."""
    facts = _facts(name)
    known = facts.get("repeats", terminal)
    if known is None:
        found = _repeated_lines(name, terminal)
        facts.put("repeats", terminal, False if found is None else [list(part) for part in found])
        return found
    return None if known is False else (list(known[0]), list(known[1]))


def _repeated_lines(name: str, terminal: str) -> tuple[list[str], list[str]] | None:
    texts = _terminal_texts(name)
    if terminal not in texts:
        return None
    found = _REPEATED.fullmatch(texts[terminal])
    if found is None:
        return None

    def expand(names: str, seen: tuple[str, ...] = ()) -> list[str]:
        result: list[str] = []
        for each in names.split(" | "):
            text = texts.get(each, "")
            if re.fullmatch(_NAMES, text) and " | " in text and each not in seen:
                parts = expand(text, (*seen, each))
            else:
                parts = [each]
            result += [part for part in parts if part not in result]
        return result

    first = expand(found["one"] or found["first"])
    rest = first if found["plus"] else expand(found["rest"])
    return first, rest
