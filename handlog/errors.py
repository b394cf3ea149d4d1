"""Bad input as values: a `ParseError` names the file, line and hand, and says in a sentence
what is wrong. Nothing here raises; callers collect these and go on with the next hand."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ParseError:
    """A hand (or a stretch of a file) that could not be read."""

    file: str
    line: int
    """1-based line of the offending line (or of the hand's first line if none is known)."""
    message: str
    """A sentence a player understands."""
    hand_id: str | None = None
    text: str | None = None
    """The offending line as read."""
    hand_line: int | None = None
    """1-based line where the hand starts."""
    raw: str | None = None
    """The whole text of the hand, kept so that nothing is lost."""
    site: str | None = None
    """The site whose format the file is in, when it is known (`Site` value)."""

    def format(self) -> str:
        hand = f" hand {self.hand_id}:" if self.hand_id else ""
        return f"{self.file}:{self.line}:{hand} {self.message}"


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hand of a game handlog does not replay (hold'em, Omaha, draw) in a mixed file."""

    file: str
    line: int
    hand_id: str | None
    game: str
    """The game name as printed, e.g. "Hold'em Limit"."""
    site: str | None = None
    """The site whose format the file is in (`Site` value)."""
