"""The site seam: what one site's module tells the rest of handlog.

Each site (or each export format of a site) is one module in `handlog.parse.sites` with a
grammar in `grammars/` (or an XML reader), its printer and its fixtures in
`tests/sites/<site>/`; the module's `FORMAT` is a `SiteFormat`, listed once in
`handlog.parse.sites.FORMATS`. Nothing else in handlog names a site: files are matched to a
format by their content (`handlog.parse.sites.detect`), and the replay reads the format's
declared traits and rule profile.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

from handlog.errors import ParseError, Skipped
from handlog.model import ActionKind, Game, Hand, Site, Structure
from handlog.parse.reader import Chunk
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits

Parsed = Hand | ParseError | Skipped


@dataclass(frozen=True)
class SiteFormat:
    """One export format of one site."""

    site: Site
    name: str
    """The format as a player names it: "PokerStars", "Full Tilt Poker"."""
    header_prefix: str
    """Plain text every hand's first line starts with (files are split at such lines)."""
    is_header: Callable[[str], bool]
    """Whether a line (starting with `header_prefix`) starts a hand."""
    parse_hand: Callable[[Chunk], Parsed]
    """One hand's text, header first, to its record, a `ParseError` or `Skipped`."""
    profile: RuleProfile
    """The house rules its hands are checked against by default, derived from its real
    hands (`--profile` names another)."""
    traits: SiteTraits
    print_hand: Callable[[Hand], str] | None = None
    """A record back to this format's text (parse → print → parse gives equal records)."""
    header_bytes: re.Pattern[bytes] | None = None
    """A newline and the start of a hand header in the file's bytes, for cutting a file into
    ranges of whole hands that workers read apart; None: the file is read whole."""
    deals: tuple[tuple[Game, Structure, bool], ...] = ()
    """The (game, betting structure, tournament) forms of hand the site deals and its parser
    reads, which its printer writes from any site-neutral record: what `handlog simulate
    --site` offers (tests/test_simulated_sites.py checks each)."""
    encodings: tuple[str, ...] = ("utf-8", "cp1252")
    """The encodings it is exported in, for the README (files are decoded by their bytes)."""
    file_context: Callable[[str, str], object] | None = None
    """For formats whose hands depend on what stands before the first hand (an XML export's
    session header: game, stakes, currency): reads it from the head of a file's text (and
    the file's name, for errors) once per file or range, and `parse_hand` is then called
    with it as a second argument. The text before the first hand is then that context, not
    a stray; a `ParseError` returned is the file's one error (a refused DTD, say) and none
    of its hands are read. None: `parse_hand` gets the chunk alone."""

    context_marker: str | None = None
    """For formats with a `file_context`: the text that begins one (an iPoker `<session`, a
    Merge `<description`). Where it stands again after a hand (two exports joined in one
    file), the hands from there on are read with the context read from there (`parse.
    _parse_all`; a file cut into ranges, each range's from the last one before it:
    `ByteRange.context`), not with the first's."""

    settle: Callable[[Iterator[tuple[Chunk, Parsed]], object], Iterator[Parsed]] | None = None
    """For formats whose hands learn from each other (a tournament level's stakes, shown by
    any hand of the level, `handlog.parse.stakes.settle`): the parsed hands of a pass over a
    file or range (each with its chunk, in order) and the file's context, to the hands as
    they are kept (in the same order). None: each hand as its chunk parsed."""

    print_file: Callable[[Iterable[Hand]], Iterator[str]] | None = None
    """For formats whose file wraps its hands (an XML session with one header): a file of
    these hands, piece by piece (its head, each hand, its tail), taking the hands one at a
    time (`handlog.simulate.write_simulation` writes simulated files with it). None: each
    hand's `print_hand` text, the hands apart by blank lines."""

    def another_header(
        self,
        name: str,
        header_prefix: str,
        header_bytes: re.Pattern[bytes],
        is_header: Callable[[str], bool] | None = None,
    ) -> SiteFormat:
        """The same format exported under another hand header (a tournament export's, a
        sister site's): its hands read, checked and printed alike, found by `header_prefix`
        (and `is_header`, by default this format's) and cut at `header_bytes`. It deals
        nothing of its own to `handlog simulate`: this format's `deals` stand for both."""
        return replace(
            self,
            name=name,
            header_prefix=header_prefix,
            is_header=self.is_header if is_header is None else is_header,
            header_bytes=header_bytes,
            deals=(),
        )

    @property
    def header_marker(self) -> bytes | None:
        """What every match of `header_bytes` starts with, for `bytes.find`."""
        if self.header_bytes is None:
            return None
        from handlog.parse.grammar import leading_literal

        return leading_literal(self.header_bytes.pattern.decode("ascii")).encode("ascii")


def fixed_limit_deals(
    games: Iterable[Game], tournaments: bool = True
) -> tuple[tuple[Game, Structure, bool], ...]:
    """`SiteFormat.deals` of a site that deals `games` in fixed limit only: at cash tables
    and (with `tournaments`) in tournaments, each game's cash form first."""
    return tuple(
        (game, Structure.FIXED, tournament)
        for game in games
        for tournament in ((False, True) if tournaments else (False,))
    )


def bet_kind(
    first_street: bool, facing: int, total: int, small_bet: int, completed: bool
) -> ActionKind:
    """What a bet or raise to the street total `total` is, for a reader whose site does not
    say (iPoker's `raise to`, Merge's events): on the first street while nobody has put in
    the small bet, the completion, except that over an all-in completion short of it
    (`completed`: the street's completion made) one past the small bet raises that completion,
    as the rules read it (`engine.Table.bet_kind`); else a bet with nothing to match (`facing`
    0), a raise."""
    if first_street and facing < small_bet and not (completed and total > small_bet):
        return ActionKind.COMPLETE
    return ActionKind.BET if facing == 0 else ActionKind.RAISE
