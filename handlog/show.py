"""Any stored hand, read back: its text as it stood in its file, its records (the text read
again by today's parser) and its replay street by street (`handlog show`; the local app
reads the same).

    lookup(db, hand_id) -> [Shown]        every stored hand of that number (one per site)
    stored_hands(connection, keys)         the same for (site, hand id) keys
    replay_lines(shown)                    the replay street by street, for people
    text_lines(shown)                      the text with its line numbers, flags marked

The replay is `handlog.rules.trace`: the rules engine's own state after each event, never a
replay of another kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from handlog.units import money

if TYPE_CHECKING:
    import duckdb

    from handlog.equity import AllIn, Equities
    from handlog.evidence import HandEvidence
    from handlog.model import Hand
    from handlog.rules.trace import HandTrace, Step


class ShowError(Exception):
    """Something the user can fix: no such hand."""


@dataclass
class Shown:
    """One stored hand, ready to show."""

    site: str
    hand_id: str
    game: str
    structure: str
    unit: str
    table: str | None
    start: Any
    file: str
    line: int
    text: str | None
    """Its text as it stood in its file (None: imported before handlog kept every hand's)."""
    hand: Hand | None = None
    """Its records, the text read again (None where it cannot be: see `problem`)."""
    problem: str | None = None
    """Why there is no replay, in a sentence."""
    evidence: HandEvidence | None = None
    """For a flagged hand, its flags and what the replay knew at each (as stored)."""
    codes: list[tuple[int, str, str, str]] = field(default_factory=list)
    """The stored flags in order: (line, code, message, label), the label "CODE (kind)" for
    a fault of its own, "CODE (follows CODE on line N)" for a flag that only follows from
    one (`cause`)."""
    faults: int = 0
    """How many of the flags are faults of their own (the others follow from them)."""

    def trace(self) -> HandTrace | None:
        """The hand replayed event by event under its own rules (its site's, or the house a
        PHH file names), if it was read again."""
        if self.hand is None:
            return None
        from handlog.check import hand_rules
        from handlog.rules.trace import trace

        profile, traits = hand_rules(self.hand)
        return trace(self.hand, profile, traits)


def flag_label(code: str, kind: str | None, cause: tuple[str, int] | None) -> str:
    """How a flag is headed: "CODE (kind)" for a fault of its own, "CODE (follows CODE on
    line N)" for one that only follows from the fault `cause` (its code and line)."""
    if cause is not None:
        return f"{code} (follows {cause[0]} on line {cause[1]})"
    return f"{code} ({kind})" if kind else code


def stored_hands(connection: duckdb.DuckDBPyConnection, keys: list[tuple[str, str]]) -> list[Shown]:
    """The hands `keys` (site, hand id) as stored, in that order, each read again from its
    stored text (`texts.load_texts`)."""
    from handlog.evidence import load as load_evidence
    from handlog.report.data import UNIT_SQL
    from handlog.texts import load_texts, reread

    texts = load_texts(connection, keys)
    evidence = {(e.site, e.hand_id): e for e in load_evidence(connection, keys)}
    shown = []
    for site, hand_id in keys:
        row = connection.execute(
            f"""SELECT game, structure, {UNIT_SQL}, table_name, start_time, file, line
            FROM hands WHERE site = ? AND hand_id = ?""",
            [site, hand_id],
        ).fetchone()
        if row is None:
            continue
        game, structure, unit, table, start, file, line = row
        stored_flags = connection.execute(
            "SELECT seq, line, code, message, kind, cause FROM violations "
            "WHERE site = ? AND hand_id = ? ORDER BY seq",
            [site, hand_id],
        ).fetchall()
        by_seq = {seq: (code, flag_line) for seq, flag_line, code, _, _, _ in stored_flags}
        codes = [
            (flag_line, code, message, flag_label(code, kind, by_seq.get(cause)))
            for _, flag_line, code, message, kind, cause in stored_flags
        ]
        faults = sum(cause is None for *_, cause in stored_flags)
        stored = texts.get((site, hand_id))
        found = evidence.get((site, hand_id))
        text = stored.text if stored is not None else (found.text if found else None)
        item = Shown(
            site, hand_id, game, structure, unit, table, start, file, line, text,
            evidence=found, codes=codes, faults=faults,
        )  # fmt: skip
        if stored is None:
            item.problem = (
                "imported before handlog kept every hand's text: import its file into a new "
                "database to see its replay"
            )
        else:
            item.hand, item.problem = reread(stored)
        shown.append(item)
    return shown


def lookup(db: Any, hand_id: str) -> list[Shown]:
    """Every hand stored under `hand_id` (one per site) in the database at `db` (a path or
    a `Dataset`); a `ShowError` when there is no such hand, `snapshot.NoDatabase` when there
    is no database, a `StoreError` when it cannot be read (`DatabaseBusy`: another program;
    while an import writes it, a copy taken between two of its commits is read)."""
    from handlog.evidence import find
    from handlog.snapshot import opened

    with opened(db) as connection:
        keys = find(connection, hand_id)
        if not keys:
            raise ShowError(f"no hand {hand_id!r} in {db}")
        return stored_hands(connection, keys)


# -- as text ------------------------------------------------------------------------------

Style = Callable[..., str]


def _plain(text: str, **_: Any) -> str:
    return text


def header(shown: Shown) -> str:
    """The hand in one line: number, site, game, structure, table, time, file and line."""
    parts = [f"hand {shown.hand_id}", shown.site, shown.game]
    if shown.structure and shown.structure != "fixed":
        parts.append(f"{shown.structure} limit")
    if shown.table:
        parts.append(f"table {shown.table}")
    if shown.start is not None:
        parts.append(f"{shown.start:%Y-%m-%d %H:%M} UTC")
    return ", ".join(parts) + f"  ({shown.file}:{shown.line}; amounts in {shown.unit})"


_VERBS = {
    "ante": "posts the ante",
    "bring_in": "brings in for",
    "bet": "bets",
    "call": "calls",
    "check": "checks",
    "fold": "folds",
    "show": "shows",
    "muck": "mucks",
    "does_not_show": "does not show",
    "collect": "collects",
}


def _cards(step: Step, player: str | None) -> str:
    """The cards a player holds after `step`: down cards in round brackets (?? where the
    history never shows them), up cards in square ones."""
    for seat in step.seats:
        if seat.player == player:
            down = [
                str(slot.card) if slot.card else "??" for slot in seat.cards if not slot.face_up
            ]
            up = [str(slot.card) if slot.card else "??" for slot in seat.cards if slot.face_up]
            return f"({' '.join(down)}) [{' '.join(up)}]" if down else f"[{' '.join(up)}]"
    return ""


def _event(step: Step, unit: str) -> str | None:
    """One event of the replay in words (None for a note: chat, joins, table events)."""
    from handlog.model import Action

    player, kind = step.player or "", step.kind
    amount = money(step.amount, unit) if step.amount is not None else ""
    event = step.event
    all_in = " and is all-in" if isinstance(event, Action) and event.all_in else ""
    if kind == "note":
        return None
    if kind == "deal":
        return f"{player} is dealt {_cards(step, player)}"
    if kind in ("complete", "raise"):
        total = event.to_amount if isinstance(event, Action) else None
        verb = "completes" if kind == "complete" else "raises"
        target = f" to {money(total, unit)}" if total is not None else f" {amount}"
        return f"{player} {verb}{target}{all_in}"
    if kind == "uncalled":
        return f"{amount} uncalled, returned to {player}"
    if kind in ("show", "muck") and isinstance(event, Action) and event.cards:
        words = f" ({event.description})" if event.description else ""
        return f"{player} {_VERBS[kind]} {' '.join(map(str, event.cards))}{words}"
    verb = _VERBS.get(kind, kind)
    return f"{player} {verb}{' ' + amount if amount else ''}{all_in}"


def _label(violation: Any, violations: tuple[Any, ...]) -> str:
    """`flag_label` of a violation of a replay (`cause`: the index of its fault)."""
    cause = violation.cause
    if cause is not None and 0 <= cause < len(violations):
        return flag_label(violation.code, None, (violations[cause].code, violations[cause].line))
    return flag_label(violation.code, str(violation.kind), None)


def replay_lines(shown: Shown, style: Style = _plain) -> list[str]:
    """The hand's replay street by street: each event with the pot after it (and whose
    turn it is next), each flag marked under the event it was raised at, then the pots as
    the rules award them and each player's net."""
    found = shown.trace()
    if found is None:
        return [f"no replay: {shown.problem}"]
    unit = shown.unit
    lines: list[str] = []
    street = None
    by_street, at_all_in = _equities(found)
    for step in found.steps:
        if step.street != street:
            street = step.street
            lines.append(style(f"-- {street.label} --", bold=True))
            if street in by_street:
                lines.append(f"    equity: {_equity_text(by_street[street], 0)}")
        said = _event(step, unit)
        if said is None:
            continue
        where = f"pot {money(step.pot, unit)}"
        if step.to_act:
            where += f", {step.to_act} to act" + (
                f" ({money(step.to_call, unit)} to call)" if step.to_call else ""
            )
        mark = ">" if step.violations else " "
        text = f"{mark} {said:<48} {where}"
        lines.append(style(text, fg="red", bold=True) if step.violations else text)
        for violation in step.violations:
            label = _label(violation, found.violations)
            if violation.cause is None:
                lines.append(style(f"    ^ {label}: {violation.message}", fg="yellow"))
            else:  # a flag that only follows from a fault: indented, naming it
                lines.append(f"      ^ {label}: {violation.message}")
        if step.betting_closed_with_cards_to_come and step is found.all_in_step():
            lines.append("    (all-in: no more betting, cards still to come)")
            if at_all_in is not None and at_all_in.equities is not None:
                lines += _all_in_lines(at_all_in.equities, unit)
            elif at_all_in is not None and at_all_in.unknown:
                lines.append(f"    (no equities: {at_all_in.unknown})")
    for violation in found.unplaced:
        label = _label(violation, found.violations)
        lines.append(style(f"! line {violation.line}: {label}: {violation.message}", fg="red"))
    if found.awards:
        lines.append(style("-- pots --", bold=True))
    for number, award in enumerate(found.awards):
        name = "main pot" if number == 0 else f"side pot {number}"
        shares = ", ".join(f"{p} {money(v, unit)}" for p, v in award.shares.items())
        lines.append(
            f"  {name} {money(award.pot.amount, unit)}"
            + (
                f" ({money(award.after_rake, unit)} after rake)"
                if award.after_rake != award.pot.amount
                else ""
            )
            + (f": {award.reason}" if award.reason else "")
            + (f"; to {shares}" if shares else "")
        )
    net = found.replay.net
    if net:
        lines.append(style("-- result --", bold=True))
        results = [
            f"{player} {'+' if value > 0 else ''}{money(value, unit)}"
            for player, value in net.items()
            if value
        ]
        if found.hand.rake:
            results.append(f"rake {money(found.hand.rake, unit)}")
        lines.append("  " + ", ".join(results))
        if at_all_in is not None and at_all_in.equities is not None:
            from handlog.equity import ev_nets

            evs = [
                f"{n.player} {'+' if n.ev_net_units > 0 else ''}{money(n.ev_net_units, unit)}"
                for n in ev_nets(found.replay, at_all_in)
                if n.ev_net_units or n.net
            ]
            lines.append("  all-in EV net: " + ", ".join(evs))
    return lines


def _equities(found: HandTrace) -> tuple[dict[Any, Equities], AllIn | None]:
    """The hand's equities street by street (for the streets on which every player still
    in has their cards shown by the end) and at its all-in, under its own rules; none
    where a spot cannot be dealt out (a card twice in a flagged hand)."""
    from handlog.check import hand_rules
    from handlog.equity import SpotError, all_in, street_equities

    profile = hand_rules(found.hand)[0]
    try:
        streets = dict(street_equities(found, profile))
    except SpotError:
        streets = {}
    return streets, all_in(found, profile)


def _equity_text(found: Equities, pot: int) -> str:
    """Each player's equity in pot `pot`, and how it was found."""
    shares = [s for s in found.shares if s.pot == pot]
    deals = f"{found.deals:,} deal{'' if found.deals == 1 else 's'}"
    if len(shares) == 1:
        how = "uncontested"
    elif found.method.value == "exact":
        how = f"exact, {deals}"
    else:
        error = max(share.error for share in shares)
        how = f"sampled, {deals}, ±{100 * error:.1f} points"
    return ", ".join(f"{s.player} {100 * s.equity:.1f}%" for s in shares) + f" ({how})"


def _all_in_lines(found: Equities, unit: str) -> list[str]:
    """Each pot at the all-in with each eligible player's equity in it."""
    pots = sorted({share.pot for share in found.shares})
    lines = []
    for pot in pots:
        amount = next(s.amount for s in found.shares if s.pot == pot)
        name = "main pot" if pot == 0 else f"side pot {pot}"
        lines.append(
            f"    equity at the all-in, {name} {money(amount, unit)}: {_equity_text(found, pot)}"
        )
    return lines


def text_lines(shown: Shown, style: Style = _plain) -> list[str]:
    """The hand's text as it stood in its file, numbered as there, each flagged line marked
    with its flags (and, for a flagged hand, what the replay knew there)."""
    if shown.text is None:
        return [f"no text: {shown.problem}"]
    if shown.evidence is not None:
        from handlog.evidence import terminal

        colour = style is not _plain
        return terminal(shown.evidence, colour).split("\n")[1:]
    flags: dict[int, list[tuple[str, str]]] = {}
    for line, _, message, label in shown.codes:
        flags.setdefault(line, []).append((label, message))
    numbered = list(enumerate(shown.text.split("\n"), start=shown.line))
    width = len(str(numbered[-1][0])) if numbered else 1
    out = []
    for number, text in numbered:
        if number in flags:
            out.append(style(f"{number:>{width}} > {text}", fg="red", bold=True))
            out += [style(f"{'':>{width}}   ^ {c}: {m}", fg="yellow") for c, m in flags[number]]
        else:
            out.append(f"{number:>{width}}  {text}")
    return out


def terminal(shown: Shown, color: bool = False, text: bool = True) -> str:
    """`handlog show`'s output for one hand: its header, its replay street by street and
    (with `text`) its text, flags marked (in colour on a terminal)."""
    import typer

    style: Style = typer.style if color else _plain
    count, following = shown.faults, len(shown.codes) - shown.faults
    flagged = f"  {count} flag{'s' if count != 1 else ''}" if count else ""
    if following:
        flagged += (
            f" ({following} more that follow{'s' if following == 1 else ''} from "
            f"{'it' if count == 1 else 'them'})"
        )
    out = [style(header(shown), bold=True) + flagged, "", *replay_lines(shown, style)]
    if text:
        out += ["", style("-- as it stands in its file --", bold=True), *text_lines(shown, style)]
    return "\n".join(out)


def show_all(found: Iterable[Shown], color: bool = False, text: bool = True) -> str:
    return "\n\n".join(terminal(shown, color, text) for shown in found)
