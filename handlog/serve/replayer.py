"""A hand step by step for the replayer page, read from the rules engine's trace
(`handlog.rules.trace`): the one replay the checks make, observed event by event, with
every seat's state after each. Nothing here decides a rule.

    view(row, text, flags) -> dict | None

The hand's record comes from its stored text read again as `handlog show` reads it
(`texts.reread`, with its file's head); a hand imported before the store kept every hand's
text is read from its evidence or its file (`queries.hand_text`). Each flagged step
carries its faults with their kind and the flags that follow from each (`consequences`),
and a flag that only follows from a fault says which (`follows`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from handlog.model import Hand
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
    row: dict[str, Any], text: HandText | None, flags: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The replayer's steps (see the module doc), under the house rules and traits the
    import checked the hand with (`check.hand_rules`: its own); None when the hand cannot be read again
    (the page then shows its text and stored figures)."""
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

    steps = []
    street = None
    for step in traced.steps:
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
