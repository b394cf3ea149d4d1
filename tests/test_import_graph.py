"""The package's import graph has no circles: no module imports one that imports it back,
directly or through others, counting the imports inside functions (which hide a circle
from Python, not from the design); imports only for type checking do not count.

An import `from handlog.a.b import c` is an arrow to `handlog.a.b.c` when that is a module,
else to `handlog.a.b` (not to the packages above it, which Python runs first but which
are not what the module uses)."""

from __future__ import annotations

import ast
from pathlib import Path

import handlog

PACKAGE = Path(handlog.__file__).parent

KNOWN_CIRCLES: set[frozenset[str]] = set()
"""Circles outside this test's author's area, each to be taken out by its owner: the test
fails when a new circle appears, and when one of these is gone (so that it leaves the list)."""


def _modules() -> dict[str, Path]:
    found = {}
    for file in PACKAGE.rglob("*.py"):
        parts = file.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = file
    return found


def _imports(name: str, file: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that `name` imports, anywhere in it but under `if
    TYPE_CHECKING:`."""
    found: set[str] = set()
    package = name.split(".") if file.name == "__init__.py" else name.split(".")[:-1]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - (child.level - 1)]
                    module = ".".join(base + ([child.module] if child.module else []))
                else:
                    module = child.module or ""
                for alias in child.names:
                    inner = f"{module}.{alias.name}"
                    found.add(inner if inner in modules else module)
            visit(child)

    visit(ast.parse(file.read_text(encoding="utf-8")))
    return {module for module in found if module in modules and module != name}


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                connect(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.add(top)
                if top == module:
                    break
            if len(component) > 1:
                circles.append(frozenset(component))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return circles


def test_no_module_imports_one_that_imports_it_back() -> None:
    modules = _modules()
    graph = {name: _imports(name, file, modules) for name, file in modules.items()}
    assert "handlog.ingest" in graph["handlog.importer"]  # the graph is read at all
    circles = set(_circles(graph))
    assert circles - KNOWN_CIRCLES == set(), "new import circles"
    assert KNOWN_CIRCLES - circles == set(), "gone: take them out of KNOWN_CIRCLES"


def test_the_circle_finder_finds_a_circle_through_three_modules() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [frozenset({"a", "b", "c"})]
