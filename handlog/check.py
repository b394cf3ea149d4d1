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
from handlog.serialize import plain


@dataclass(frozen=True, slots=True)
class CheckedHand:
    """The outcome of reading and replaying one hand."""

    file: str
    line: int
    status: str
    """"ok", "flagged", "unparsed" or "skipped"."""
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


def check_json(checked: CheckedHand) -> dict[str, Any]:
    """The stable JSON shape of `handlog check --json` (one object per hand)."""
    hand, result = checked.hand, checked.replay
    data: dict[str, Any] = {
        "file": checked.file,
        "line": checked.line,
        "site": hand.site.value if hand else _site_of(checked),
        "hand_id": checked.hand_id,
        "game": hand.game.value if hand else (checked.skipped.game if checked.skipped else None),
        "status": checked.status,
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
