"""Every site format handlog reads, and how a file's content names its format.

To add a site: a grammar in `grammars/` (or an XML reader), one module here whose `FORMAT`
is a `SiteFormat`, one line in `FORMAT_NAMES` below, its fixtures in `tests/sites/<site>/`.
Nothing in the records, rules, store or reports changes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from importlib import import_module
from typing import TYPE_CHECKING, Any

from handlog.model import Site
from handlog.parse.site import SiteFormat
from handlog.rules.profiles import PROFILES, RuleProfile

FORMAT_NAMES: tuple[tuple[str, str], ...] = (
    ("pokerstars", "FORMAT"),
    ("fulltilt", "FORMAT"),
    ("winning", "FORMAT"),
    ("winning", "TOURNAMENT_FORMAT"),
    ("winning2016", "FORMAT"),
    ("winamax", "FORMAT"),
    ("bovada", "FORMAT"),
    ("bovada", "IGNITION_FORMAT"),
    ("everleaf", "FORMAT"),
    ("ongame", "FORMAT"),
    ("absolute", "FORMAT"),
    ("partypoker", "FORMAT"),
    ("partypoker", "TOURNAMENT_FORMAT"),
    ("kingsclub", "FORMAT"),
    ("ipoker", "FORMAT"),
    ("merge", "FORMAT"),
    ("phh", "FORMAT"),
    ("phh", "SINGLE_FORMAT"),
)
"""Every format: its module here and the module's name for it, tried in this order on a
file's first lines; the first whose header a line is wins (`FORMATS`)."""

if TYPE_CHECKING:
    FORMATS: tuple[SiteFormat, ...]
    """The formats of `FORMAT_NAMES`, in its order (every site module imported)."""

_loaded: list[SiteFormat] = []
"""The formats of `FORMAT_NAMES` imported so far, in order: a module is imported when a
format before it does not fit (a PokerStars file's detection, and its hands' rules, import
the PokerStars module alone; each site module compiles its patterns when imported)."""
_loading = threading.Lock()


def formats() -> Iterator[SiteFormat]:
    """The formats of `FORMAT_NAMES`, in order, each site's module imported when reached."""
    if len(_loaded) == len(FORMAT_NAMES):  # all imported: asked for every line detection reads
        return iter(_loaded)
    return _loading_formats()


def _loading_formats() -> Iterator[SiteFormat]:
    index = 0
    while index < len(FORMAT_NAMES):
        if index == len(_loaded):
            with _loading:
                if index == len(_loaded):
                    module, name = FORMAT_NAMES[index]
                    _loaded.append(getattr(import_module(f"{__name__}.{module}"), name))
        yield _loaded[index]
        index += 1


def __getattr__(name: str) -> Any:
    if name == "FORMATS":
        return tuple(formats())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


RECOGNISED = {
    "<?xml": "an XML export that is neither iPoker nor Merge",
}
"""How exports handlog does not read yet begin, for a message that names what a file is."""

DETECT_LINES = 10_000
"""How many non-blank lines at the top of a file are looked at for a hand header: enough for
a long preface (an iPoker session's header, notes pasted above the hands), at most some
40 MB read (only each line's start is looked at) from a file that holds no hand."""


def detect(lines: Iterable[str]) -> SiteFormat | None:
    """The format of a text whose first lines are `lines`: the first line that is a hand
    header of a format handlog reads decides. None when none is among the first
    `DETECT_LINES` non-blank lines."""
    seen = 0
    for raw in lines:
        line = raw.lstrip("\ufeff").rstrip()
        if not line:
            continue
        found = header_format(line)
        if found is not None:
            return found
        seen += 1
        if seen >= DETECT_LINES:
            break
    return None


def header_format(line: str, among: Iterable[SiteFormat] | None = None) -> SiteFormat | None:
    """The first of `among` (default: every format, `formats()`) whose hand header `line`
    (stripped) is, if any."""
    for candidate in formats() if among is None else among:
        if line.startswith(candidate.header_prefix) and candidate.is_header(line):
            return candidate
    return None


def recognised(line: str) -> str | None:
    """The name of a format handlog does not read whose hands begin like `line`, if any."""
    start = line.lstrip("\ufeff").lstrip()
    return next((name for prefix, name in RECOGNISED.items() if start.startswith(prefix)), None)


def format_for(site: Site) -> SiteFormat | None:
    """The (first) format of `site`, for its profile, traits and printer."""
    return next((candidate for candidate in formats() if candidate.site is site), None)


def profiles() -> dict[str, RuleProfile]:
    """Every rule profile by name: the built-in ones and each site's own."""
    found = dict(PROFILES)
    for candidate in formats():
        found.setdefault(candidate.profile.name, candidate.profile)
    return found


def profile_named(name: str) -> RuleProfile:
    """The profile called `name`, or a `KeyError` naming the ones there are."""
    known = profiles()
    try:
        return known[name]
    except KeyError:
        raise KeyError(f"no rule profile {name!r}; there are: {', '.join(sorted(known))}") from None
