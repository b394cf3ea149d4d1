"""Parse and replay hand histories without storing them: one `CheckedHand` per hand."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from handlog.errors import ParseError, Skipped
from handlog.model import Hand, Site
from handlog.parse import parse_file
from handlog.parse.sites import format_for
from handlog.rules.profiles import CASINO, RuleProfile
from handlog.rules.replay import Replay, replay
from handlog.rules.traits import PRINTS_EVERYTHING, SiteTraits
from handlog.rules.violations import KINDS, Violation
from handlog.serialize import plain

SUMMARY_COUNTS = ("ok", "illegal", "mis-split", "unparsed", "skipped", "inconsistent")
"""What `count` adds up per hand, as `summary_text` words them."""


@dataclass(frozen=True, slots=True)
class CheckedHand:
    """The outcome of reading and replaying one hand."""

    file: str
    line: int
    status: str
    """"ok", "flagged" (a fault of any kind: `kinds` says which), "unparsed" or
    "skipped"."""
    hand: Hand | None = None
    replay: Replay | None = None
    error: ParseError | None = None
    skipped: Skipped | None = None

    @property
    def first_line(self) -> int:
        """The line where the hand starts (for a parse error, not the line at fault)."""
        if self.error is not None and self.error.hand_line:
            return self.error.hand_line
        return self.line

    @property
    def kinds(self) -> list[str]:
        """The kinds of verdict of the hand's faults, in `Kind` order (consequences follow
        their cause's)."""
        if self.replay is None:
            return []
        found = self.replay.kinds
        return [kind.value for kind in KINDS if kind in found]

    @property
    def hand_id(self) -> str | None:
        if self.hand is not None:
            return self.hand.hand_id
        item = self.error or self.skipped
        return item.hand_id if item else None


@cache
def site_rules(site: Site) -> tuple[RuleProfile, SiteTraits]:
    """The rule profile a site's hands are checked against by default, and what it prints
    (from the site's module); the seed pages' casino rules for a site without one."""
    found = format_for(site)
    if found is None:
        return CASINO, PRINTS_EVERYTHING
    return found.profile, found.traits


def hand_rules(hand: Hand) -> tuple[RuleProfile, SiteTraits]:
    """The rule profile a hand is checked against by default, and what its file prints: its
    site's; for a hand whose file names the house it was played at (`Hand.house`: a PHH file
    written from another site's hands), that house's profile with its own format's traits."""
    profile, traits = site_rules(hand.site)
    if hand.house is not None and hand.house is not hand.site:
        profile = site_rules(hand.house)[0]
    return profile, traits


def check_file(
    path: str, profile: RuleProfile | None = None, start_line: int = 1
) -> Iterator[CheckedHand]:
    """Every hand of a file (from `start_line`), parsed and replayed under `profile`
    (default: the site's)."""
    return check_items(parse_file(path, start_line), path, profile)


def check_items(
    items: Iterable[Hand | ParseError | Skipped], path: str, profile: RuleProfile | None = None
) -> Iterator[CheckedHand]:
    """Replay parsed items (from `parse_file` or `parse_range`)."""
    for item in items:
        if isinstance(item, Hand):
            house, traits = hand_rules(item)
            result = replay(item, profile or house, traits)
            line = item.source.line if item.source else 0
            yield CheckedHand(
                item.source.file if item.source else path,
                line,
                result.status,
                hand=item,
                replay=result,
            )
        elif isinstance(item, Skipped):
            yield CheckedHand(item.file, item.line, "skipped", skipped=item)
        else:
            yield CheckedHand(item.file, item.line, "unparsed", error=item)


def _site_of(checked: CheckedHand) -> str | None:
    """The site of a hand that was not read: its file's format, when that is known."""
    item = checked.error or checked.skipped
    return item.site if item is not None else None


def count(counts: dict[str, int], checked: CheckedHand) -> None:
    """Add one hand to `counts`: its status ("ok", "flagged", "unparsed", "skipped") and, for
    a flagged hand, each kind of verdict it has ("illegal", "mis-split", "inconsistent": a
    hand may have several)."""
    counts[checked.status] = counts.get(checked.status, 0) + 1
    for kind in checked.kinds:
        counts[kind] = counts.get(kind, 0) + 1


def summary_text(counts: dict[str, int]) -> str:
    """The counts of `handlog check` (and of the stored hands), worded in a fixed order that
    scripts read: "N hands: N ok, N flagged illegal, N flagged mis-split, N unparsed, N
    skipped, N inconsistent", N hands the hands read (ok or flagged), as `handlog parse`
    and `handlog import` count them."""
    n = {name: counts.get(name, 0) for name in (*SUMMARY_COUNTS, "flagged")}
    # The hands read (replayed): as parse and import count them; those that could not be
    # read and those of other games are counted after them.
    hands = n["ok"] + n["flagged"]
    return (
        f"{hands} hands: {n['ok']} ok, {n['illegal']} flagged illegal, "
        f"{n['mis-split']} flagged mis-split, {n['unparsed']} unparsed, "
        f"{n['skipped']} skipped, {n['inconsistent']} inconsistent"
    )


def grouped(violations: tuple[Violation, ...]) -> list[tuple[int, list[int]]]:
    """The hand's faults in order, each with the consequences that follow from it (indices
    into `violations`, in order)."""
    consequences: dict[int, list[int]] = {}
    for index, violation in enumerate(violations):
        if violation.cause is not None:
            consequences.setdefault(violation.cause, []).append(index)
    return [
        (index, consequences.get(index, []))
        for index, violation in enumerate(violations)
        if violation.cause is None
    ]


def flag_lines(checked: CheckedHand) -> list[str]:
    """`handlog check`'s lines for a hand: each fault as `  FILE:LINE: hand ID: CODE (kind):
    message`, the flags that follow from it under it, indented, as `      FILE:LINE: hand
    ID: CODE (consequence): message`; a hand that could not be read as its error."""
    if checked.error is not None:
        return [f"  {checked.error.format()}"]
    if checked.replay is None:
        return []
    violations = checked.replay.violations
    where = f"{checked.file}:{{}}: hand {checked.hand_id}: "
    lines = []
    for index, following in grouped(violations):
        root = violations[index]
        lines.append(f"  {where.format(root.line)}{root.code} ({root.kind}): {root.message}")
        for other in following:
            v = violations[other]
            lines.append(f"      {where.format(v.line)}{v.code} (consequence): {v.message}")
    return lines


def check_json(checked: CheckedHand) -> dict[str, Any]:
    """The stable JSON shape of `handlog check --json` (one object per hand): `status` ok,
    flagged, unparsed or skipped; `kinds` the kinds of verdict of a flagged hand's faults;
    each violation with its `kind` and, for one that follows from an earlier fault, `cause`
    (that fault's index in `violations`; null for a fault of its own)."""
    hand, result = checked.hand, checked.replay
    data: dict[str, Any] = {
        "file": checked.file,
        "line": checked.line,
        "site": hand.site.value if hand else _site_of(checked),
        "hand_id": checked.hand_id,
        "game": hand.game.value if hand else (checked.skipped.game if checked.skipped else None),
        "status": checked.status,
        "kinds": checked.kinds,
        "violations": [],
        "pot": None,
        "rake": None,
        "collected": {},
        "net": {},
    }
    if hand is not None and result is not None:
        data["violations"] = [
            {
                "code": v.code,
                "kind": v.kind.value,
                "cause": v.cause,
                "street": plain(v.street),
                "line": v.line,
                "player": v.player,
                "message": v.message,
            }
            for v in result.violations
        ]
        data["pot"] = hand.total_pot
        data["rake"] = hand.rake
        data["collected"] = {p: v for p, v in result.collected.items()}
        data["net"] = dict(result.net)
    if checked.error is not None:
        data["error"] = {
            "line": checked.error.line,
            "message": checked.error.message,
            "text": checked.error.text,
        }
    return data
