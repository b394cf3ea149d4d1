"""The evidence of a flagged hand: its original text and what the replay knew at each flag.

An import keeps, for every hand the replay flags, the hand's text as it stood in its file
(zlib-compressed, with the file and line it came from) and, for each violation, a snapshot
of the replay's state when it was flagged: whose turn it was, the bet to call, the pot, and
each player's stack, chips in and showing cards. Reports and `handlog show` print the text
with the flagged lines marked, the message and that state beside each.

The snapshots come from the import's one replay of the hand, through its observer hook: the
rules engine's table when each violation was flagged (`handlog.rules.trace.flag_state`, read
by `handlog.ingest.snapshot`): the rules are not repeated here, nor the hand read again.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb


def decompress(blob: bytes) -> str:
    return zlib.decompress(blob).decode("utf-8")


# The capture, at import, is `handlog.ingest` (`snapshot`, `add_evidence`): the states come
# from the hand's one replay, through its observer hook.


# -- at report time: read ------------------------------------------------------------------


@dataclass
class Flag:
    seq: int
    line: int
    code: str
    player: str | None
    message: str
    kind: str
    """The kind of verdict: illegal, mis-split or inconsistent."""
    cause: int | None = None
    """The seq of the fault this flag only follows from; None for a fault of its own."""
    state: dict[str, Any] | None = None

    @property
    def mis_split(self) -> bool:
        return self.kind == "mis-split"

    @property
    def label(self) -> str:
        """ "CODE (kind)" for a fault, "CODE (follows CAUSE_CODE on line N)" for a
        consequence (`HandEvidence.label` names the cause)."""
        return f"{self.code} ({self.kind})"


@dataclass
class HandEvidence:
    """A flagged hand as stored: its text, where it came from, its flags with their states."""

    site: str
    hand_id: str
    game: str
    unit: str
    file: str
    line: int
    text: str
    flags: list[Flag] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return anchor(self.site, self.hand_id)

    @property
    def faults(self) -> int:
        """The flags that are faults of their own (not consequences)."""
        return sum(flag.cause is None for flag in self.flags)

    def label(self, flag: Flag) -> str:
        """How a flag is headed: "CODE (kind)", or for a consequence "CODE (follows CODE
        on line N)", naming its cause."""
        if flag.cause is None:
            return flag.label
        cause = next((f for f in self.flags if f.seq == flag.cause), None)
        if cause is None:
            return f"{flag.code} (consequence)"
        return f"{flag.code} (follows {cause.code} on line {cause.line})"

    def flags_at(self) -> dict[int, list[Flag]]:
        """The flags by the file line they point at; on a line, each fault before the
        flags that follow from it."""
        by_line: dict[int, list[Flag]] = {}
        ordered = sorted(
            self.flags,
            key=lambda f: (f.seq if f.cause is None else f.cause, f.cause is not None, f.seq),
        )
        for flag in ordered:
            by_line.setdefault(flag.line, []).append(flag)
        return by_line

    def numbered_lines(self) -> list[tuple[int, str]]:
        return [(self.line + i, text) for i, text in enumerate(self.text.split("\n"))]


ANCHOR_PATTERN = r"[^0-9A-Za-z]"
"""What `anchor` turns into dashes (the report computes the same id in Polars)."""


def anchor(site: str, hand_id: str) -> str:
    """The HTML id of a hand's evidence: only letters, digits and dashes, whatever the id."""
    return "hand-" + re.sub(ANCHOR_PATTERN, "-", f"{site}-{hand_id}")


def load(connection: duckdb.DuckDBPyConnection, keys: list[tuple[str, str]]) -> list[HandEvidence]:
    """The stored evidence of the hands `keys` (site, hand id), in that order; hands with
    no evidence stored (imported before schema version 3) are left out."""
    if not keys:
        return []
    import pyarrow as pa

    wanted = pa.table(
        {
            "site": [k[0] for k in keys],
            "hand_id": [k[1] for k in keys],
            "k": list(range(len(keys))),
        }
    )
    connection.register("wanted_evidence", wanted)
    try:
        from handlog.units import UNIT_SQL

        rows = connection.execute(
            f"""
            SELECT w.k, e.site, e.hand_id, h.game, coalesce(unit, {UNIT_SQL}),
                e.file, e.line, e.text, e.states
            FROM wanted_evidence w
            JOIN hand_evidence e USING (site, hand_id)
            JOIN hands h USING (site, hand_id)
            ORDER BY w.k
            """
        ).fetchall()
        flags = connection.execute(
            """
            SELECT v.site, v.hand_id, v.seq, v.line, v.code, v.player, v.message, v.kind,
                v.cause
            FROM violations v SEMI JOIN wanted_evidence w USING (site, hand_id)
            ORDER BY v.site, v.hand_id, v.seq
            """
        ).fetchall()
    finally:
        connection.unregister("wanted_evidence")
    by_hand: dict[tuple[str, str], list[Flag]] = {}
    for site, hand_id, seq, line, code, player, message, kind, cause in flags:
        by_hand.setdefault((site, hand_id), []).append(
            Flag(seq, line, code, player, message, kind, cause)
        )
    result = []
    for _, site, hand_id, game, unit, file, line, blob, states_json in rows:
        hand_flags = by_hand.get((site, hand_id), [])
        states = json.loads(states_json) if states_json else []
        for flag, state in zip(hand_flags, states, strict=False):
            flag.state = state
        result.append(
            HandEvidence(site, hand_id, game, unit, file, line, decompress(blob), hand_flags)
        )
    return result


def find(connection: duckdb.DuckDBPyConnection, hand_id: str) -> list[tuple[str, str]]:
    """The (site, hand id) keys stored under `hand_id` (a hand number may repeat across
    sites)."""
    rows = connection.execute(
        "SELECT site, hand_id FROM hands WHERE hand_id = ? ORDER BY site", [hand_id]
    ).fetchall()
    return [(site, found) for site, found in rows]


def state_text(state: dict[str, Any], unit: str) -> str:
    """One flag's replay state as a line of text for people."""
    from handlog.units import money

    parts = [f"on {state['street']}"]
    if state.get("turn"):
        parts.append(f"{state['turn']} to act")
    if state.get("bet") is not None:
        parts.append(f"bet {money(state['bet'], unit)}")
    if state.get("owed") is not None:
        parts.append(f"to call {money(state['owed'], unit)}")
    parts.append(f"pot {money(state['pot'], unit)}")
    return ", ".join(parts)


def player_rows(state: dict[str, Any], unit: str) -> list[tuple[str, str, str, str, str]]:
    """(player, stack, in pot, showing, status) per player of a flag's state."""
    from handlog.units import money

    return [
        (
            p["player"],
            money(p["stack"], unit),
            money(p["in_pot"], unit),
            p["showing"] or "",
            p["status"],
        )
        for p in state.get("players", [])
    ]


def terminal(evidence: HandEvidence, color: bool = False) -> str:
    """The hand for a terminal: every line numbered as in its file, the flagged lines
    marked (in colour on a terminal), each flag's message and the replay's state below
    its line."""
    import typer

    def style(text: str, **options: Any) -> str:
        return typer.style(text, **options) if color else text

    flags_at = evidence.flags_at()
    count = evidence.faults
    following = len(evidence.flags) - count
    out = [
        style(f"hand {evidence.hand_id} ({evidence.site}, {evidence.game})", bold=True)
        + f"  {evidence.file}:{evidence.line}  {count} flag{'s' if count != 1 else ''}"
        + (
            f" ({following} more that follow{'s' if following == 1 else ''} from "
            f"{'it' if count == 1 else 'them'})"
            if following
            else ""
        )
    ]
    width = len(str(evidence.line + evidence.text.count("\n")))
    known = {number for number, _ in evidence.numbered_lines()}
    # Flags pointing outside the hand's text (none expected) are listed first.
    for flag in (f for f in evidence.flags if f.line not in known):
        out.append(style(f"{'':>{width}}  ! {evidence.label(flag)}: {flag.message}", fg="red"))
    for number, text in evidence.numbered_lines():
        flags = flags_at.get(number)
        if not flags:
            out.append(f"{number:>{width}}  {text}")
            continue
        out.append(style(f"{number:>{width}} > {text}", fg="red", bold=True))
        for flag in flags:
            # a consequence is indented under the line, and names the fault it follows from
            mark = "^" if flag.cause is None else "  ^"
            out.append(
                style(
                    f"{'':>{width}}   {mark} {evidence.label(flag)}: {flag.message}",
                    fg="yellow" if flag.cause is None else None,
                )
            )
            if flag.state:
                out.append(f"{'':>{width}}     replay: {state_text(flag.state, evidence.unit)}")
                for player, stack, in_pot, showing, status in player_rows(
                    flag.state, evidence.unit
                ):
                    out.append(
                        f"{'':>{width}}       {player}: stack {stack}, in pot {in_pot}"
                        + (f", showing {showing}" if showing else "")
                        + (f" ({status})" if status != "in" else "")
                    )
    return "\n".join(out)
