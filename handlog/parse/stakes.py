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
of an earlier hand of the same file at the same ante and bring-in, as `Levels` learned them
in the order the hands were parsed; with none, it is one error: its stakes are never
invented.

What a pass sees is deterministic: the hands before it in the same pass, nothing else. A
whole file read in order sees every earlier hand of the file; a byte range of a big file
(read apart by a worker) starts with nothing learned and sees only the earlier hands of its
own range, so a hand nobody bets in whose level first shows in an earlier range is an error
there that the whole file would have read.
"""

from __future__ import annotations

from handlog.model import ActionKind, Hand

FIRST, SMALL, BIG = 0, 1, 2
"""Street classes: the first street (bring-in, completion), the small-bet street after it,
the big-bet streets."""


class StakesUnknown(ValueError):
    """A tournament hand whose stakes its actions do not show and no earlier hand taught."""


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
        same ante and bring-in. Raises `StakesUnknown` when neither."""
        key = (ante, bring_in)
        found = shown.stakes()
        if found is not None:
            self.known.setdefault(key, found)
            return found
        earlier = self.known.get(key)
        if earlier is None:
            raise StakesUnknown(
                "the stakes of this tournament hand are printed nowhere: nobody completed or "
                f"bet, and no earlier hand at ante {_figure(ante)} / bring-in {_figure(bring_in)}"
            )
        return earlier


def _figure(value: int | None) -> str:
    return "none" if value is None else f"{value:,}"


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
