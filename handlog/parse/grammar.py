"""Loading the Lark grammars in `grammars/`, compiled once per process, and the classifiers
that check each line of a block token against the line terminals its grammar allows there."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark

GRAMMAR_DIR = Path(__file__).resolve().parent.parent.parent / "grammars"


@cache
def load(name: str, *start: str) -> Lark:
    """The LALR parser for `grammars/<name>.lark`; compiled on first use, then reused."""
    from lark import Lark

    return Lark.open(
        str(GRAMMAR_DIR / f"{name}.lark"),
        parser="lalr",
        start=list(start),
        cache=True,  # keeps the LALR tables in the temp dir between runs
    )


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
    builder, _ = _definitions(name)
    terminals, _, _ = builder.build().compile(start, set(names))
    found = {t.name: t.pattern.to_regexp() for t in terminals if t.name in names}
    missing = set(names) - set(found)
    if missing:
        raise KeyError(f"terminals not in the grammar: {sorted(missing)}")
    return found


def line_classifier(name: str, start: list[str], rule: str) -> re.Pattern[str]:
    """A pattern matching one line (with its "\\n") against the terminals that `rule`
    allows, tried in the rule's order; `match.lastgroup` names the terminal that matched."""
    names = rule_terminals(name, rule)
    regexps = terminal_regexps(name, start, names)
    pattern = re.compile("|".join(f"(?P<{n}>{regexps[n]})" for n in names))
    if pattern.groups != len(names):
        raise ValueError(f"line terminals of {rule!r} must not capture: use (?:...) in the grammar")
    return pattern
