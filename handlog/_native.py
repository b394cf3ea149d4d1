"""The modules `pip install` compiles with mypyc, and whether this process runs them compiled.

`setup.py` compiles the modules in `COMPILED` to C extensions when a compiler is at hand; Python
then imports the extension (`fast.cpython-311-….so`) in place of the source next to it. The
source stays the reference: it runs instead when

* HANDLOG_PURE_PYTHON is set (to anything but "" or "0") — for tests of the source itself and
  for comparing the two;
* no extension was built (no compiler; a pure install);
* the source of any of them is newer than its extension (edited since the install): running a
  stale extension would silently ignore the edit, so the sources run and a warning says to
  reinstall (`make test` and `make demo` reinstall by themselves when these files change).
  All of them, not only the edited one: mypyc compiles them as one group whose modules use
  each other's compiled classes directly, so a fresh extension would bring the stale code of
  an edited module back (a new `Game` member unknown to the compiled `model`, say).

`install()` runs when the `handlog` package is imported, before any of these modules is.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec

COMPILED = (
    "handlog.model",
    "handlog.holdings",
    "handlog.store",
    "handlog.rules.structures",
    "handlog.rules.tables",
    "handlog.rules.engine",
    "handlog.rules.awards",
    "handlog.rules.fast",
    "handlog.rules.replay",
    "handlog.rules.trace",
    "handlog.rules.evaluate",
    "handlog.parse.text",
    "handlog.parse.sites.pokerstars",
    "handlog.parse.sites.fulltilt",
    "handlog.parse.sites.winning",
    "handlog.parse.sites.winning2016",
    "handlog.parse.sites.winamax",
    "handlog.parse.sites.bovada",
    "handlog.parse.sites.everleaf",
    "handlog.parse.sites.partypoker",
    "handlog.parse.sites.kingsclub",
    "handlog.parse.sites.ongame",
    "handlog.parse.sites.absolute",
    "handlog.parse.xmlsafe",
    "handlog.parse.sites.ipoker",
    "handlog.parse.sites.merge",
)
"""Dotted names of the modules setup.py compiles (it reads this tuple from this file's text)."""

PURE_PYTHON_ENV = "HANDLOG_PURE_PYTHON"

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_SLACK_SECONDS = 2.0
"""An install writes the source and the extension a moment apart, in either order."""


def _files(name: str) -> tuple[str, str | None]:
    """The module's source path and its compiled extension's path (None when not built)."""
    base = os.path.join(_PACKAGE_DIR, *name.split(".")[1:])
    for suffix in EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + ".py", base + suffix
    return base + ".py", None


def pure_python_requested() -> bool:
    return os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0")


def status() -> dict[str, str]:
    """How each module in `COMPILED` runs in this process: "compiled", or "source" and why."""
    found: dict[str, str] = {}
    edited = bool(_edited())
    for name in COMPILED:
        reason = _why_source(*_files(name), edited)  # what `install` decided at import
        found[name] = "compiled" if reason is None else f"source ({reason})"
    return found


def _edited() -> list[str]:
    """The sources of compiled modules edited since the install."""
    found = []
    for name in COMPILED:
        source, extension = _files(name)
        if extension is not None and _stale(source, extension):
            found.append(source)
    return found


def _why_source(source: str, extension: str | None, group_edited: bool = False) -> str | None:
    """Why the source of a module runs rather than its extension; None when it need not.
    `group_edited`: some compiled module was edited since the install (then all run as
    source: see the module's doc)."""
    if pure_python_requested():
        return f"{PURE_PYTHON_ENV} is set"
    if extension is None:
        return "not compiled at install"
    if _stale(source, extension):
        return "edited since the install"
    if group_edited:
        return "another compiled module was edited since the install"
    return None


def _stale(source: str, extension: str) -> bool:
    try:
        return os.path.getmtime(source) > os.path.getmtime(extension) + _SLACK_SECONDS
    except OSError:
        return False


class _SourceFinder:
    """Finds the named modules as their `.py` files, ahead of the compiled extensions."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        source = self.sources.get(name)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(name, source)


def install() -> None:
    """Make the modules that must run as source import from their `.py` files."""
    sources: dict[str, str] = {}
    edited = _edited()
    for name in COMPILED:
        source, extension = _files(name)
        if extension is None:
            continue  # nothing shadows the source
        if _why_source(source, extension, bool(edited)) is not None:
            sources[name] = source
    if edited and not pure_python_requested():
        more = f" and {len(edited) - 1} more" if len(edited) > 1 else ""
        warnings.warn(
            f"{edited[0]}{more} newer than the compiled extensions; running every compiled "
            "module as source (slower). Reinstall handlog (`make test` or `pip install -e .`) "
            "to compile them again.",
            stacklevel=2,
        )
    if sources and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder(sources))
