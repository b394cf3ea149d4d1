"""A hand step by step for the replayer page, read from the rules engine's trace
(`handlog.rules.trace`): the one replay the checks make, observed event by event, with
every seat's state after each. Nothing here decides a rule.

    view(row, text, flags) -> dict | None

The hand's record comes from its stored text read again as `handlog show` reads it
(`texts.reread`, with its file's head); a hand imported before the store kept every hand's
text is read from its evidence or its file (`queries.hand_text`). Each flagged step
carries its faults with their kind and the flags that follow from each (`consequences`),
and a flag that only follows from a fault says which (`follows`).

The all-in equities (`handlog.equity`), as `handlog show` prints them: each step carries
the index of the equities beside it in `equities` (`equity`, None where none are known), as
`equity.step_equities` places them: from the all-in on, each pot's at the all-in (the
stored figures, `equities` table, where the import computed them; else computed here),
before it, the street's for the streets on which every player still in has their cards
shown by the end (computed here: one hand's, a few milliseconds); and its street's
(`street_equity`), after the all-in too. `ev_net` is each player's EV-adjusted net
(`hand_players.ev_net` where stored) when the hand has an all-in with equities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from handlog.equity import Equities
    from handlog.model import Hand
    from handlog.rules.profiles import RuleProfile
    from handlog.rules.trace import HandTrace
    from handlog.serve.queries import HandText


def hand_record(row: dict[str, Any], text: HandText | None) -> tuple[Hand, int] | None:
    """The hand's record and what to add to its line numbers to make them its file's: its
    stored text read again (`texts.reread`: lines already its file's), else (a hand
    imported before the store kept every hand's text) the text found parsed (by the format
    detected from the text; its lines counted from the text's first), else its file read
    again from the stored line (formats whose hands need the file's header)."""
    from handlog.model import Hand
    from handlog.parse import parse_file, parse_text
    from handlog.texts import reread

    if text is not None and text.stored is not None:
        hand, _ = reread(text.stored)
        return (hand, 0) if hand is not None else None
    wanted = (row["site"], row["hand_id"])
    if text is not None:
        for parsed in parse_text(text.text, text.file or "<stored>"):
            if isinstance(parsed, Hand) and (parsed.site.value, parsed.hand_id) == wanted:
                return parsed, text.line - 1
    file, line = row.get("file"), row.get("line")
    if file and line:
        try:
            for parsed in parse_file(file, int(line)):
                if isinstance(parsed, Hand) and (parsed.site.value, parsed.hand_id) == wanted:
                    return parsed, 0
                break
        except OSError:
            return None
    return None


def _cards(slots: Any) -> list[dict[str, Any]]:
    return [
        {
            "card": str(slot.card) if slot.card is not None else None,
            "up": bool(slot.face_up),
            "street": int(slot.street),
        }
        for slot in slots
    ]


def view(
    row: dict[str, Any],
    text: HandText | None,
    flags: list[dict[str, Any]],
    stored_equities: list[dict[str, Any]] | None = None,
    players: list[dict[str, Any]] | None = None,
) -> dict[str, Any] | None:
    """The replayer's steps (see the module doc), under the house rules and traits the
    import checked the hand with (`check.hand_rules`: its own); None when the hand cannot be read again
    (the page then shows its text and stored figures). `stored_equities`: the hand's rows
    of `equities` (`queries.hand_equities`); `players`: its `hand_players` rows (their
    stored `ev_net`)."""
    from handlog.check import hand_rules
    from handlog.rules.trace import trace

    found = hand_record(row, text)
    if found is None:
        return None
    hand, offset = found
    profile, traits = hand_rules(hand)
    traced = trace(hand, profile, traits)
    replay = traced.replay
    # The stored verdicts by (line, code): each fault's kind and consequences, and for a
    # flag that follows from a fault, which ("CODE (line N)").
    stored: dict[tuple[int | None, str], dict[str, Any]] = {}
    for fault in flags:
        stored[fault["line"], fault["code"]] = {
            "kind": fault["kind"],
            "consequences": [
                {"code": c["code"], "line": c["line"], "message": c["message"]}
                for c in fault["consequences"]
            ],
        }
        for consequence in fault["consequences"]:
            stored[consequence["line"], consequence["code"]] = {
                "kind": consequence["kind"],
                "follows": f"{fault['code']} (line {fault['line']})",
            }

    def line(number: int) -> int | None:
        return number + offset if number else None

    def flag(violation: Any) -> dict[str, Any]:
        at = line(violation.line)
        known = stored.get((at, violation.code), {})
        kind = known.get("kind") or ("mis-split" if violation.mis_split else "illegal")
        return {
            "code": violation.code,
            "message": violation.message,
            "kind": kind,
            "line": at,
            "follows": known.get("follows"),
            "consequences": known.get("consequences", []),
        }

    shown, per_step, ev_net = _equities(traced, profile, row, stored_equities or [], players)
    steps = []
    street = None
    for step, (equity, street_equity) in zip(traced.steps, per_step, strict=True):
        steps.append(
            {
                "index": step.index,
                "line": line(step.line),
                "street": step.street.label,
                "new_street": step.street != street,
                "kind": step.kind,
                "player": step.player,
                "amount": step.amount,
                "pot": step.pot,
                "to_act": step.to_act,
                "to_call": step.to_call,
                "bet": step.current_bet,
                "text": _describe(step),
                "seats": [
                    {
                        "player": seat.player,
                        "seat": seat.seat,
                        "stack": seat.stack,
                        "put_in": seat.put_in,
                        "this_street": seat.this_street,
                        "collected": seat.collected,
                        "status": seat.status,
                        "cards": _cards(seat.cards),
                    }
                    for seat in step.seats
                ],
                "flags": [flag(v) for v in step.violations],
                "equity": equity,
                "street_equity": street_equity,
            }
        )
        street = step.street
    return {
        "steps": steps,
        "awards": [
            {
                "amount": award.pot.amount,
                "after_rake": award.after_rake,
                "eligible": list(award.pot.eligible),
                "shares": dict(award.shares),
                "reason": award.reason,
            }
            for award in traced.awards
        ],
        "unplaced": [flag(v) for v in traced.unplaced],
        "collected": dict(replay.collected),
        "expected": dict(replay.expected_collect),
        "net": dict(replay.net),
        "final_cards": {player: _cards(slots) for player, slots in traced.final_cards.items()},
        "community_card": str(hand.community_card) if hand.community_card else None,
        "equities": shown,
        "ev_net": ev_net,
    }


def _equities(
    traced: HandTrace,
    profile: RuleProfile,
    row: dict[str, Any],
    stored: list[dict[str, Any]],
    players: list[dict[str, Any]] | None,
) -> tuple[list[dict[str, Any]], list[tuple[int | None, int | None]], dict[str, int] | None]:
    """The equities the page shows (each once); for each step the index in them of its
    equities (as `equity.step_equities` places them) and of its street's (after the all-in
    too: how the cards ran); and the EV-adjusted nets (None: no all-in with
    equities). The all-in's are the stored ones where the import computed them
    (`ev_all_in` TRUE), none where it found none (FALSE), computed here where it has not
    been asked (NULL: a database imported before, `handlog ev` not run)."""
    from handlog.equity import SpotError, all_in, ev_nets, street_equities

    try:
        by_street = dict(street_equities(traced, profile))
    except SpotError:  # a card twice (a flagged hand): no spot to deal out
        by_street = {}
    shown: list[dict[str, Any]] = []
    index: dict[Any, int] = {}
    on = {step.street for step in traced.steps}
    for street, found in by_street.items():
        if street not in on:  # no step of it to show them beside (as `show` prints them)
            continue
        index[street] = len(shown)
        shown.append(_shown(found, street.label, at_all_in=False))
    step = traced.all_in_step()
    at_all_in: int | None = None
    ev_net: dict[str, int] | None = None
    if step is not None:
        label = step.street.label
        if row.get("ev_all_in") is None:
            computed = all_in(traced, profile)
            if computed is not None and computed.equities is not None:
                at_all_in = len(shown)
                shown.append(_shown(computed.equities, label, at_all_in=True))
                ev_net = {n.player: n.ev_net_units for n in ev_nets(traced.replay, computed)}
        elif row["ev_all_in"] and stored:
            at_all_in = len(shown)
            shown.append(_stored(stored, label))
            ev_net = {p["player"]: p["ev_net"] for p in players or [] if p["ev_net"] is not None}
    per_step: list[tuple[int | None, int | None]] = []
    reached = False
    for each in traced.steps:
        reached = reached or each is step
        its_street = index.get(each.street)
        per_step.append((at_all_in if reached else its_street, its_street))
    return shown, per_step, ev_net


def _pot_name(pot: int) -> str:
    return "main pot" if pot == 0 else f"side pot {pot}"


def _shown(found: Equities, street: str, at_all_in: bool) -> dict[str, Any]:
    """Equities as the page shows them: pot by pot, each eligible player's share of it."""
    pots: dict[int, dict[str, Any]] = {}
    for share in found.shares:
        pot = pots.setdefault(
            share.pot,
            {
                "pot": share.pot,
                "name": _pot_name(share.pot) if at_all_in else "pot",  # a street's: one pot
                "amount": share.amount,
                "shares": [],
            },
        )
        pot["shares"].append({"player": share.player, "equity": share.equity, "error": share.error})
    return {
        "street": street,
        "at_all_in": at_all_in,
        "method": found.method.value,
        "deals": found.deals,
        "pots": list(pots.values()),
    }


def _stored(rows: list[dict[str, Any]], street: str) -> dict[str, Any]:
    """The stored equities at the all-in (`queries.hand_equities`), shaped as `_shown`'s."""
    pots: dict[int, dict[str, Any]] = {}
    for found in rows:
        pot = pots.setdefault(
            found["pot"],
            {
                "pot": found["pot"],
                "name": _pot_name(found["pot"]),
                "amount": found["amount"],
                "shares": [],
            },
        )
        pot["shares"].append(
            {"player": found["player"], "equity": found["equity"], "error": found["error"] or 0.0}
        )
    return {
        "street": street,
        "at_all_in": True,
        "method": rows[0]["method"],
        "deals": rows[0]["deals"],
        "pots": list(pots.values()),
    }


_WORDS = {
    "deal": "is dealt",
    "ante": "antes",
    "bring_in": "brings in",
    "complete": "completes",
    "bet": "bets",
    "raise": "raises",
    "call": "calls",
    "check": "checks",
    "fold": "folds",
    "uncalled": "gets back the uncalled bet",
    "show": "shows",
    "muck": "mucks",
    "does_not_show": "does not show",
    "collect": "collects",
}


def _describe(step: Any) -> str:
    """The step in a few words ("Hero raises", "Hero is dealt 4c"); the amount apart."""
    from handlog.model import Action, Dealt

    event = step.event
    if step.kind == "note":
        return str(getattr(event, "text", "")) if event is not None else ""
    words = f"{step.player or ''} {_WORDS.get(step.kind, step.kind.replace('_', ' '))}".strip()
    if isinstance(event, Dealt) and event.new:
        words += " " + " ".join(str(card) for card in event.new)
    elif isinstance(event, Action) and event.cards:
        words += " " + " ".join(str(card) for card in event.cards)
        if event.description:
            words += f" ({event.description})"
    if isinstance(event, Action) and event.all_in:
        words += ", all-in"
    return words
