"""A hand step by step for the replayer page, read from the rules engine's trace
(`handlog.rules.trace`): the one replay the checks make, observed event by event, with
every seat's state after each. Nothing here decides a rule.

    view(row, text, flags) -> dict | None

The hand's record comes from its text (`queries.hand_text`: the store's copy, or its file
read again), parsed as the import parsed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from handlog.model import Hand
    from handlog.serve.queries import HandText


def hand_record(row: dict[str, Any], text: HandText | None) -> Hand | None:
    """The hand's record: its text parsed (by its file's format, detected from the text),
    else its file read again from the stored line (formats whose hands need the file's
    header: the XML sessions)."""
    from handlog.model import Hand
    from handlog.parse import parse_file, parse_text

    wanted = (row["site"], row["hand_id"])
    if text is not None:
        for parsed in parse_text(text.text, text.file or "<stored>"):
            if isinstance(parsed, Hand) and (parsed.site.value, parsed.hand_id) == wanted:
                return parsed
    file, line = row.get("file"), row.get("line")
    if file and line:
        try:
            for parsed in parse_file(file, int(line)):
                if isinstance(parsed, Hand) and (parsed.site.value, parsed.hand_id) == wanted:
                    return parsed
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
    row: dict[str, Any], text: HandText | None, flags: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The replayer's steps (see the module doc); None when the trace is not available or
    the hand cannot be read again (the page then shows its text)."""
    try:
        from handlog.rules.trace import trace
    except ImportError:
        return None
    hand = hand_record(row, text)
    if hand is None:
        return None
    traced = trace(hand)
    replay = traced.replay
    kinds = {(flag["line"], flag["code"]): flag["kind"] for flag in flags}
    steps = []
    for step in traced.steps:
        steps.append(
            {
                "index": step.index,
                "line": step.line,
                "street": step.street.label if step.street is not None else None,
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
                        "status": seat.status,
                        "cards": _cards(seat.cards),
                    }
                    for seat in step.seats
                ],
                "flags": [
                    {
                        "code": v.code,
                        "message": v.message,
                        "kind": kinds.get(
                            (v.line, v.code), "mis-split" if v.mis_split else "illegal"
                        ),
                    }
                    for v in step.violations
                ],
            }
        )
    pots = [
        {"amount": pot.amount, "eligible": list(pot.eligible)}
        for pot in getattr(replay, "pots", ())
    ]
    return {
        "steps": steps,
        "pots": pots,
        "collected": dict(replay.collected),
        "expected": dict(getattr(replay, "expected_collect", {}) or {}),
        "net": dict(replay.net),
        "final_cards": {player: _cards(slots) for player, slots in traced.final_cards.items()},
        "community_card": str(hand.community_card) if hand.community_card else None,
        "results": [
            {
                "player": result.player,
                "description": result.description,
                "won": result.won,
                "showed": " ".join(str(card) for card in result.showed),
            }
            for result in hand.results
        ],
    }


def _describe(step: Any) -> str:
    """The step in a few words ("Hero raises 0.20", "4th street")."""
    if step.kind == "street":
        return step.street.label if step.street is not None else "street"
    words = {
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
        "collect": "collects",
        "note": "",
    }
    event = step.event
    if step.kind == "note" and event is not None:
        return str(getattr(event, "text", ""))
    return f"{step.player or ''} {words.get(step.kind, step.kind)}".strip()
