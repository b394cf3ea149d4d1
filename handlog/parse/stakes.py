"""Fixed-limit stakes of a tournament hand whose export prints them nowhere but in its own
actions (iPoker's and Merge's tournament sessions: the stakes change by level, the session
header names none).

A hand shows its stakes through its bets:

- the small bet: the completion on the first street (its street total), else the first bet
  on the next street (7-card stud's 4th, 5-card stud's 3rd) unless an open pair shows
  there in a game that allows the double bet (that bet may then be the big one);
- the big bet: the first bet on a big-bet street (from 7-card stud's 5th, 5-card stud's
  4th).

One known gives the other (the big bet twice the small). An all-in is never read as a bet
size (it may be short). A hand that shows neither (nobody completed or bet) takes the stakes
of another hand of the same pass at the same ante and bring-in (the same tournament level):
an earlier one's, as `Levels` learned them in the order the hands were parsed, else a later
one's (`settle` holds the hand back and reads it again once a later hand shows them). With
none, the hand is kept with its stakes unknown (`UNKNOWN_STAKES`: its small and big bet 0,
`Hand.stakes_known` false): they are never invented, and no check needs them in a hand where
nobody completed or bet (the replay skips the size checks of such a hand).

What a pass sees is deterministic: the hands of the same pass, nothing else. A whole file
read in order sees all of its hands; a byte range of a big file (read apart by a worker)
sees only its own, so a hand nobody bets in whose level shows only in another range keeps
its stakes unknown there, where the whole file would have read them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from handlog.model import ActionKind, Hand
from handlog.parse.reader import Chunk
from handlog.parse.site import Parsed

FIRST, SMALL, BIG = 0, 1, 2
"""Street classes: the first street (bring-in, completion), the small-bet street after it,
the big-bet streets."""


UNKNOWN_STAKES = (0, 0)
"""The small and big bet of a hand whose stakes no hand of its pass shows (no stake is 0)."""

HELD_HANDS = 1_000
"""The most hands `settle` holds back behind one waiting for a later hand to show its level's
stakes (then that hand goes on with its stakes unknown): it bounds the memory a pass needs."""


class Shown:
    """What one hand's actions show of its stakes, fed by the site's builder as it reads."""

    __slots__ = ("big", "completion", "small")

    def __init__(self) -> None:
        self.completion: int | None = None
        self.small: int | None = None
        self.big: int | None = None

    def complete(self, total: int, all_in: bool = False) -> None:
        """A completion of the bring-in to `total` on the first street."""
        if self.completion is None and not all_in and total > 0:
            self.completion = total

    def bet(
        self, street_class: int, amount: int, open_pair: bool = False, all_in: bool = False
    ) -> None:
        """The opening bet of a street of class `street_class`; `open_pair` when an open pair
        shows on a small-bet street of a game with the double bet."""
        if all_in or amount <= 0:
            return
        if street_class == SMALL and not open_pair and self.small is None:
            self.small = amount
        elif street_class == BIG and self.big is None:
            self.big = amount

    def stakes(self) -> tuple[int, int] | None:
        """The small and big bet these actions show, or None."""
        return fixed_stakes(self.completion, self.small, self.big)


def fixed_stakes(
    completion: int | None, small_street_bet: int | None, big_street_bet: int | None
) -> tuple[int, int] | None:
    """The small and big bet from a completion, a small-street bet and a big-street bet (any
    of them None when not seen): the completion before the small-street bet; a missing one
    of the two is twice or half the other; None when neither shows."""
    small = completion if completion is not None else small_street_bet
    big = big_street_bet
    if small is None:
        if big is None or big % 2:
            return None
        small = big // 2
    if big is None:
        big = small * 2
    return small, big


class Levels:
    """The stakes a file's hands showed, by ante and bring-in, learned in the order the hands
    are parsed (one per pass over a file or range: see the module's note)."""

    __slots__ = ("known",)

    def __init__(self) -> None:
        self.known: dict[tuple[int | None, int | None], tuple[int, int]] = {}

    def stakes(self, shown: Shown, ante: int | None, bring_in: int | None) -> tuple[int, int]:
        """The hand's stakes: what it shows (learned for the later hands at its ante and
        bring-in, the first hand to show a level teaching it), else an earlier hand's at the
        same ante and bring-in, else `UNKNOWN_STAKES`."""
        key = (ante, bring_in)
        found = shown.stakes()
        if found is not None:
            self.known.setdefault(key, found)
            return found
        return self.known.get(key, UNKNOWN_STAKES)

    def knows(self, ante: int | None, bring_in: int | None) -> bool:
        """Whether a hand of the pass showed the stakes at this ante and bring-in."""
        return (ante, bring_in) in self.known


def settle(
    pairs: Iterable[tuple[Chunk, Parsed]],
    levels: Levels,
    reparse: Callable[[Chunk], Parsed],
    held_at_most: int = HELD_HANDS,
) -> Iterator[Parsed]:
    """A pass's parsed hands (each with its chunk, in file order), in the same order, each
    hand whose stakes were unknown when it was read (`Hand.stakes_known` false) read again by
    `reparse` once a later hand of the pass has shown its level's stakes to `levels`. The
    hands after a waiting one are held back with it (at most `held_at_most`, then it goes on
    as it is), so the order stays the file's."""
    held: deque[tuple[Chunk, Parsed]] = deque()
    for chunk, parsed in pairs:
        if not held and not _waiting(parsed):
            yield parsed
            continue
        held.append((chunk, parsed))
        while held:
            first_chunk, first = held[0]
            if _waiting(first):
                assert type(first) is Hand
                if levels.knows(first.ante, first.bring_in):
                    first = reparse(first_chunk)
                elif len(held) <= held_at_most:
                    break
            held.popleft()
            yield first
    for chunk, parsed in held:
        if type(parsed) is Hand and _waiting(parsed) and levels.knows(parsed.ante, parsed.bring_in):
            parsed = reparse(chunk)
        yield parsed


class Context(Protocol):
    """A file's context (its session header) that keeps the stakes its pass has shown."""

    @property
    def levels(self) -> Levels: ...


Settle = Callable[[Iterator[tuple[Chunk, Parsed]], object], Iterator[Parsed]]
"""`SiteFormat.settle`: a pass's parsed hands (with their chunks) and the file's context."""


def settler(kind: type[Context], parse_hand: Callable[[Chunk, object], Parsed]) -> Settle:
    """The `SiteFormat.settle` of a site whose file context of type `kind` keeps its pass's
    `Levels`: `settle` with `parse_hand` reading a hand again in that context; hands read
    without one (a file with no header) are passed on as they are."""

    def settle_stakes(pairs: Iterator[tuple[Chunk, Parsed]], context: object) -> Iterator[Parsed]:
        if not isinstance(context, kind):
            for _, parsed in pairs:
                yield parsed
            return
        known = context

        def reparse(chunk: Chunk) -> Parsed:
            return parse_hand(chunk, known)

        yield from settle(pairs, known.levels, reparse)

    return settle_stakes


def _waiting(parsed: Parsed) -> bool:
    return type(parsed) is Hand and not parsed.stakes_known


def shown_stakes(hand: Hand) -> tuple[int, int] | None:
    """The stakes a hand's record shows by its completion or its first bet on a big-bet
    street (never a small-street bet: an open pair may have doubled it), for the printer to
    know whether a tournament hand printed without stakes reads back with its own."""
    completion = big = None
    first = int(hand.streets[0]) if hand.streets else 0
    for action in hand.actions:
        if action.all_in:
            continue
        if action.kind is ActionKind.COMPLETE and completion is None:
            completion = action.to_amount
        elif action.kind is ActionKind.BET and int(action.street) >= first + 2 and big is None:
            big = action.amount
    return fixed_stakes(completion, None, big)
