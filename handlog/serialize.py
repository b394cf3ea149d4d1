"""Records as plain JSON-ready values: cards as "Kd", enums by value, times in ISO 8601."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from enum import Enum
from typing import Any

from handlog.cards import Card
from handlog.errors import ParseError, Skipped
from handlog.model import Hand


def plain(value: Any) -> Any:
    """A JSON-ready copy of any record, tuple, enum, card or time."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value if not isinstance(value.value, int) else value.name.lower()
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    return value


def hand_json(hand: Hand) -> dict[str, Any]:
    """A parsed hand as one JSON object, with every player's known cards by position."""
    from handlog.holdings import player_cards

    data = plain(hand)
    if hand.house is None:
        del data["house"]  # shown only for a hand judged by another house than its site's
    for item, event in zip(data["events"], hand.events, strict=True):
        item["type"] = type(event).__name__.lower()  # action, dealt or note
    data["status"] = "parsed"
    data["file"] = hand.source.file if hand.source else None
    data["line"] = hand.source.line if hand.source else None
    data["player_cards"] = {
        name: {
            "cards": [str(c) if c is not None else None for c in holding.slots],
            "face_up": list(holding.face_up),
            "door_card": str(holding.door_card) if holding.door_card else None,
        }
        for name, holding in player_cards(hand).items()
    }
    return data


def result_json(item: Hand | ParseError | Skipped) -> dict[str, Any]:
    """Any outcome of parsing one hand as one JSON object with a "status"."""
    if isinstance(item, Hand):
        return hand_json(item)
    if isinstance(item, Skipped):
        return {
            "status": "skipped",
            "file": item.file,
            "line": item.line,
            "hand_id": item.hand_id,
            "game": item.game,
        }
    return {
        "status": "error",
        "file": item.file,
        "line": item.line,
        "hand_id": item.hand_id,
        "message": item.message,
        "text": item.text,
        "hand_line": item.hand_line,
    }
