"""The flagged hands of an HTML report, each as its original text with the flagged lines
highlighted, the message beside each and what the replay knew there.

Each hand is a `<details>` element, closed until clicked or until a link to the id
`evidence.anchor` gives (which the flag tables link to, on the hand's lines inside) is
followed. No script, no external resource; every piece of text is escaped.
"""

from __future__ import annotations

import html
from collections import Counter

from handlog.evidence import HandEvidence, player_rows, state_text

STYLE = """
details.hand { border: 1px solid #ccc; margin: 0.4em 0; padding: 0.2em 0.6em; }
details.hand[open] { background: #fcfcfc; }
details.hand > summary { cursor: pointer; }
table.hand-text { border: none; font-size: 0.85em; margin: 0.5em 0; }
table.hand-text td { border: none; padding: 0 0.6em; text-align: left; vertical-align: top; }
table.hand-text td.ln { color: #888; text-align: right; user-select: none; }
table.hand-text td.src { font-family: ui-monospace, monospace; white-space: pre; }
table.hand-text tr.flagged td.src { background: #ffe0e0; color: #900; font-weight: bold; }
table.hand-text td.why { font-size: 0.95em; min-width: 30em; }
p.flag { margin: 0 0 0.2em; color: #900; }
p.state { margin: 0 0 0.2em; color: #333; }
table.state { font-size: 0.9em; margin: 0 0 0.6em; }
table.state td, table.state th { padding: 0 0.4em; }
table.state td:first-child, table.state th:first-child { text-align: left; }
table.hand-text tr.flagged td.why { background: #fff4f4; border-left: 3px solid #c00; }
"""


def evidence_html(hands: list[HandEvidence], total: int) -> str:
    """The flagged hands as `<details>` elements; `total`: how many hands were flagged in
    all (only `hands` are shown)."""
    e = html.escape
    parts = []
    if total > len(hands):
        parts.append(
            f'<p class="note">The first {len(hands):,} of {total:,} flagged hands; '
            "handlog show HAND prints any of them.</p>"
        )
    for hand in hands:
        codes = Counter(flag.label for flag in hand.flags if flag.cause is None)
        listed = ", ".join(
            f"{code} ×{count}" if count > 1 else code for code, count in codes.items()
        )
        count = hand.faults
        following = len(hand.flags) - count
        if following:
            follow = "follows" if following == 1 else "follow"
            listed += f" (and {following} that {follow} from {'it' if count == 1 else 'them'})"
        parts.append(
            f'<details class="hand"><summary>hand {e(hand.hand_id)} '
            f"({e(hand.site)}, {e(hand.game)}) at {e(hand.file)}:{hand.line}: "
            f"{count} flag{'s' if count != 1 else ''}: {e(listed)}</summary>"
        )
        # The id stands inside the <details>: following a link to it opens the hand (the
        # browser reveals hidden content that is the target of a link, not a closed
        # <details> that is the target itself).
        parts.append(f'<table class="hand-text" id="{e(hand.anchor)}">')
        flags_at = hand.flags_at()
        numbered = hand.numbered_lines()
        known = {number for number, _ in numbered}
        stray = [flag for flag in hand.flags if flag.line not in known]
        if stray:  # flags that point outside the hand's text (none expected)
            parts.append(
                f'<tr class="flagged"><td class="ln"></td><td class="src"></td>{_why(hand, stray)}</tr>'
            )
        for number, text in numbered:
            flags = flags_at.get(number)
            if flags:
                parts.append(
                    f'<tr class="flagged"><td class="ln">{number}</td>'
                    f'<td class="src">{e(text)}</td>{_why(hand, flags)}</tr>'
                )
            else:
                parts.append(
                    f'<tr><td class="ln">{number}</td><td class="src">{e(text)}</td><td></td></tr>'
                )
        parts.append("</table></details>")
    return "\n".join(parts)


def _why(hand: HandEvidence, flags: list) -> str:  # type: ignore[type-arg]
    e = html.escape
    cells = []
    for flag in flags:
        # a consequence is indented and names the fault it follows from
        style = "" if flag.cause is None else ' style="margin-left: 1.5em"'
        cells.append(f'<p class="flag"{style}><b>{e(hand.label(flag))}</b>: {e(flag.message)}</p>')
        if flag.state:
            cells.append(f'<p class="state">Replay: {e(state_text(flag.state, hand.unit))}</p>')
            rows = "".join(
                "<tr>" + "".join(f"<td>{e(value)}</td>" for value in row) + "</tr>"
                for row in player_rows(flag.state, hand.unit)
            )
            cells.append(
                '<table class="state"><thead><tr><th>player</th><th>stack</th>'
                "<th>in pot</th><th>showing</th><th>status</th></tr></thead>"
                f"<tbody>{rows}</tbody></table>"
            )
    return f'<td class="why">{"".join(cells)}</td>'
