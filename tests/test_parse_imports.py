"""The readers' place in the house: handlog.parse and handlog.money import nothing above them
and no module of theirs imports one that imports it back (imports inside functions
included: they hide a circle, they do not remove it)."""

from __future__ import annotations

import ast
from pathlib import Path

import handlog

PACKAGE = Path(handlog.__file__).parent

BELOW_PARSE = {
    "handlog",
    "handlog.cachedir",
    "handlog.cards",
    "handlog.errors",
    "handlog.model",
    "handlog.money",
    "handlog.records",
}
"""What the readers may import besides themselves: the records (and `handlog.records`, what
the model's records are built with: cheap frozen records, the standard library alone), the
cards, the money, the user's cache folder (`handlog.cachedir`, which the evaluator's tables
share) and the rules (`handlog.rules.*`: profiles, traits, variants)."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every handlog module `path` imports, anywhere in it: `from a import b` counts a.b
    when b is a module, else a (a package's own `__init__` runs before any of its modules
    in any case, so that is no arrow back)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                as_path = PACKAGE.parent / Path(*candidate.split("."))
                if as_path.with_suffix(".py").exists() or (as_path / "__init__.py").exists():
                    found.add(candidate)
                else:
                    found.add(node.module)
    return {name for name in found if name == "handlog" or name.startswith("handlog.")}


def _graph() -> dict[str, set[str]]:
    return {_module_name(path): _imports(path) for path in PACKAGE.rglob("*.py")}


def _area(name: str) -> bool:
    return name == "handlog.money" or name.startswith("handlog.parse")


def test_the_readers_and_the_money_import_nothing_above_them():
    graph = _graph()
    for module, imported in sorted(graph.items()):
        if not _area(module):
            continue
        above = {
            name
            for name in imported
            if not (_area(name) or name in BELOW_PARSE or name.startswith("handlog.rules"))
        }
        assert not above, f"{module} imports {sorted(above)}"
    assert graph["handlog.money"] <= {"handlog"}, "money stands below everything"
    assert graph["handlog.cachedir"] <= {"handlog"}, "the cache folder stands below everything"


def test_the_rules_reach_the_money_without_the_readers():
    graph = _graph()
    for module, imported in graph.items():
        if module.startswith("handlog.rules"):
            readers = {name for name in imported if name.startswith("handlog.parse")}
            assert not readers, f"{module} imports {sorted(readers)}"


def test_no_reader_module_imports_one_that_imports_it_back():
    graph = _graph()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            current = todo.pop()
            if current == goal:
                return True
            if current not in seen:
                seen.add(current)
                todo.extend(graph.get(current, ()))
        return False

    for module, imported in sorted(graph.items()):
        if _area(module) or module == "handlog.printer":
            for name in imported:
                if name != module and name != "handlog":
                    assert not reaches(name, module), f"{module} -> {name} -> … -> {module}"
