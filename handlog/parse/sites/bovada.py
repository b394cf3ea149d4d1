"""Bovada / Bodog stud-family hand histories to `Hand` records, and back to text.

`grammars/bovada.lark` is the specification. What this site prints differently from the
others, and how it becomes the neutral records:

- Cash headers print no stakes (tournament levels print "(0/0)"): the small and big bet are
  read from the betting (a completion, a bet), see `_stakes`.
- Every player's cards are printed, down cards too; later streets print only the new card.
  `Dealt.previous` holds the player's cards from earlier streets, as the seat's own lines
  printed them, so that each line carries what the player holds (as the hero's lines of
  other sites do).
- `Raises N` and `All-in(raise) N` are street totals, `Raises N to M` chips added and the
  total, `All-in N` and `Calls N` chips added.
- `Showdown [...]` prints the best five (hi/lo: the high five, then the low five); the
  `SHOW` record holds the player's cards in deal order, as they were dealt.
- `Hand result` is what a player collects (not a net); `Hand Result-Side Pot` a side pot.
- Older exports have one `*** HOLE CARDS ***` section for every street: a street starts
  where its cards are dealt.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from functools import lru_cache

from handlog import model
from handlog.cards import Card, cards, format_cards
from handlog.errors import ParseError, Skipped
from handlog.money import format_amount, minor_units, money_writer
from handlog.parse import text as txt
from handlog.parse.reader import Chunk
from handlog.parse.site import SiteFormat, fixed_limit_deals
from handlog.parse.sites.community import community_card, river_players, without_river_deals
from handlog.parse.text import clock_time, level_number, read_hand, street_named
from handlog.rules.profiles import RuleProfile
from handlog.rules.traits import SiteTraits

SITE = model.Site.BOVADA
HEADER_PREFIX = "Bo"
HEADER_BYTES = re.compile(rb"\nBo(?:vada|dog(?:\.com|\.eu| UK| Canada|88)?) Hand #")
"""A newline and the start of a hand header, for cutting files into ranges of whole hands."""
IGNITION_PREFIX = "Ignition"
IGNITION_HEADER_BYTES = re.compile(rb"\nIgnition Hand #")
_HEADER_START = re.compile(r"(?:Bo(?:vada|dog(?:\.com|\.eu| UK| Canada|88)?)|Ignition) Hand #")
"""The brands the network's clients print (fpdb's parser lists them): Bovada, Bodog, Bodog.com,
Bodog.eu, Bodog UK, Bodog Canada, Bodog88 and Ignition."""
_HEADER_SPLIT = re.compile(
    r"(?P<brand>[A-Za-z0-9 .]+?) Hand #(?P<number>C?\d+)(?P<game>:?\s.*) - "
    r"(?P<clock>(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2}) (?P<h>\d{1,2}):(?P<mi>\d{2}):(?P<s>\d{2}))$"
)


def is_header(line: str) -> bool:
    """Whether `line` starts a Bovada / Bodog / Ignition hand."""
    return _HEADER_START.match(line) is not None


HERO = "[ME]"
"""The hero's name in the records. Bovada's players are anonymous and named by seat
("Seat+3"); the hero's seat is marked "Seat+3 [ME]", a seat that changes from table to table.
One name for the hero in every hand is what makes the hero's figures add up in reports
(`handlog report --player "[ME]"`); opponents keep their seat names."""
HERO_MARK = " [ME]"

GAMES = {"7CARD": model.Game.STUD, "7CARD HiLo": model.Game.STUD8, "7CARD_HL": model.Game.STUD8}
GAME_NAMES = {model.Game.STUD: "7CARD", model.Game.STUD8: "7CARD HiLo"}

SECTIONS = txt.section_table("HOLE_CARDS", *txt.STUD_STREETS, "RIVER", "SUMMARY")
STREET_HEADERS = {
    model.Street.THIRD: "*** 3RD STREET ***",
    model.Street.FOURTH: "*** 4TH STREET ***",
    model.Street.FIFTH: "*** 5TH STREET ***",
    model.Street.SIXTH: "*** 6TH STREET ***",
    model.Street.SEVENTH: "*** RIVER ***",
}
TERMINAL_WORDS = txt.terminal_words(
    SECTIONS,
    STREET_HEADERS,
    {"HOLE_CARDS": "*** HOLE CARDS ***", "SUMMARY": "*** SUMMARY ***"},
)
FOLDED_ON_TEXT = {
    model.Street.THIRD: "3rd STREET",
    model.Street.FOURTH: "4TH STREET",
    model.Street.FIFTH: "5TH STREET",
    model.Street.SIXTH: "6TH STREET",
    model.Street.SEVENTH: "RIVER",
}
NOTE_KINDS = {
    "SITS_OUT": model.NoteKind.SITTING_OUT,
    "SITS_DOWN": model.NoteKind.JOINS,
    "STANDS": model.NoteKind.LEAVES,
    "ENTERS": model.NoteKind.JOINS,
    "LEAVES": model.NoteKind.LEAVES,
    "REJOINS": model.NoteKind.RETURNED,
    "RANKED": model.NoteKind.FINISHED_TOURNAMENT,
}

# Stakes by ante, from the real hands, for a hand whose betting never shows the small bet
# (the bring-in is called or folded to and nobody bets): $0.01 → $0.05/$0.10, $0.05 →
# $0.25/$0.50, $1.25 → $5/$10.
SMALL_BET_BY_ANTE = {1: 5, 5: 25, 125: 500}

_TOTAL_POT = re.compile(r"Total Pot\((?P<total>[^)]+)\)(?: \| Rake \((?P<rake>[^)]+)\))?")
_SEAT_SHOWED = re.compile(
    r"Seat[+ ](?P<seat>\d+): +(?P<high>HI )?(?:(?P<won>[$€£]?\d[\d,]*(?:\.\d+)?) +)?"
    r"(?P<lost>los[te] )?with (?P<description>[^\[]*?) ?\[(?P<cards>[^\]-]+)-[^\]]*\]"
    r"(?: LOW? (?P<low>[$€£]?\d[\d,]*(?:\.\d+)?) \[[^\]]*\])?$"
)


# ---------------------------------------------------------------------------------------
# Rules: what Bovada's real hands show


BOVADA = RuleProfile(
    name="bovada",
    description=(
        "Bovada / Bodog: a bet and three raises (no corpus hand reaches the cap, so the "
        "common online rule); open-pair double bet in 7-card stud; odd chip to the high "
        "half; rake before the split; no burns."
    ),
    # No Bovada hand in the corpus reaches the cap; like the other online rooms the cap
    # stays heads-up (the default, as on PokerStars).
    # Bodog hand #2604291577: "D bets $0.10" on 4th street with 3d 3c showing (7-card stud).
    # No stud8 hand shows a pair on 4th street: the usual rule, not in hi/lo (the default).
    # Hand #2633952287 (stud8): $4.65 after rake split $2.33 high, $2.32 low: the odd chip to
    # the high half. Hand #2844383701: $150 pot, $3 kept, $73.50 to each half: rake before
    # the split. Both the defaults, as are no burns.
)

TRAITS = SiteTraits(
    # The defaults: "Return uncalled portion of bet $0.10", and a total pot before the rake
    # (Total Pot($0.59) | Rake ($0.02): 0.57 collected).
    # "One pair", "High Card", "Straight": not the wording `replay.describe` writes.
    describes_hands=False,
    # Every dealing line shows the player's cards ("Seat+1 : Card dealt to a spot [7h 8c
    # Jc]"); the exporting player's seat alone is marked ("Seat+3 [ME]": HERO).
    hero_name=HERO,
)


# ---------------------------------------------------------------------------------------
# Header


@lru_cache(maxsize=10_000)
def _game_info(start: str, game_part: str) -> txt.GameInfo:
    """`_read_game_info`, memoised, and remembered between runs (`SectionGrammar.game_info`)."""
    return GRAMMAR.game_info(
        "\0".join((start, game_part)), lambda: _read_game_info(start, game_part)
    )


def _read_game_info(start: str, game_part: str) -> txt.GameInfo:
    """The header's game description, parsed with the grammar once per table (memoised)."""
    from lark import Tree

    tree = GRAMMAR.parser().parse(f"{start}0{game_part} - 2000-01-01 00:00:00", start="header")
    table = ""
    tournament_id = level = None
    game_name = ""
    for child in tree.children:
        if not isinstance(child, Tree) or child.data not in ("cash_game", "tournament_game"):
            continue
        for part in child.children:
            kind = getattr(part, "type", None)
            if kind == "GAME_NAME":
                game_name = str(part)
            elif kind == "TABLE_NUMBER":
                table = str(part)
            elif kind == "TOURNAMENT_NUMBER":
                tournament_id = str(part)
            elif isinstance(part, Tree) and part.data == "level":
                level = str(part.children[0])
    return txt.GameInfo(
        game_name,
        GAMES.get(game_name),
        table=table,
        tournament_id=tournament_id,
        tournament_level=level,
    )


def parse_hand(chunk: Chunk) -> model.Hand | ParseError | Skipped:
    """One hand's lines (header first) to a `Hand`, a `ParseError`, or `Skipped` for a hand
    of a game handlog does not replay."""

    def read(split: re.Match[str], body: str) -> model.Hand | Skipped:
        info = _game_info(f"{split['brand']} Hand #", split["game"])
        if info.game is None:
            return Skipped(chunk.file, chunk.line, split["number"], info.game_name)
        tokens = GRAMMAR.tokens(body, chunk)
        start_time = clock_time(split, "ET")  # US Eastern (Bovada prints no zone)
        builder = _HandBuilder(
            chunk, split["number"], info, split["brand"], split["clock"], start_time
        )
        return builder.build(tokens)

    return read_hand(chunk, GRAMMAR, _HEADER_SPLIT, read)


# ---------------------------------------------------------------------------------------
# Hands


class _HandBuilder(txt.TextHandBuilder):
    """Turns the checked sections of one hand into records. One instance per hand."""

    def __init__(
        self,
        chunk: Chunk,
        hand_id: str,
        info: txt.GameInfo,
        brand: str,
        clock: str,
        start_time: datetime | None,
    ) -> None:
        super().__init__(chunk, GRAMMAR, hand_id, info)
        self.brand = brand
        self.clock = clock
        self.start_time = start_time
        self.money_in_on_street = False
        self.held: dict[str, tuple[Card, ...]] = {}
        """Each player's cards so far, in deal order, as the dealing lines printed them."""
        self.printed_rake: int | None = None
        """The rake as the summary prints it (None: it prints none)."""
        self.currency: str | None = None
        self.completed_to: int | None = None
        """What the stakes are read from: the first completion, the first big bet or raise
        (5th street on, or a double bet), the first small bet or raise (3rd or 4th street)."""
        self.big_bet_seen: int | None = None
        self.small_bet_seen: int | None = None
        self.fourth_raise_seen: int | None = None
        """The least a 4th-street raise went over the bet it faced: the small bet (or the
        big one, raising over an open pair's double bet), when no bet shows the stakes."""
        self.all_in_small = 0
        """The most an all-in went over the bet faced on 3rd or 4th street, and on 5th
        street on (`all_in_big`): the least the bet sizes can be."""
        self.all_in_big = 0
        self.collects: list[tuple[int, model.Action]] = []
        """The collects and their indexes in `events` (their pots are settled at the end)."""
        self.side_pot_collected = False
        self.by_number: dict[int, model.Seat] = {}
        self.headed = False
        """Whether the lines read are under a street header (not the older exports' one
        `*** HOLE CARDS ***` section, where a street starts where its cards are dealt)."""

    def build(self, tokens: list[tuple[str, str, int]]) -> model.Hand:
        self.read_sections(tokens)
        if self.side_pot_collected:  # then a plain "Hand result" is the main pot
            for index, collect in self.collects:
                if collect.pot is None:
                    self.events[index] = _with_pot(collect, 0)
        collected = sum(collect.amount or 0 for _, collect in self.collects)
        rake = self.printed_rake
        if rake is None:
            # "Total Pot($150)" with no rake, though $3 was kept (hand #2844383701: 147
            # collected, each half $73.50): the summary leaves out a rake it took.
            # Never below nothing: more paid out than the pot held is for the replay to flag.
            rake = max(0, self.total_pot - collected)
        small, big = self._stakes()
        community = community_card(self.events)
        if community is not None:
            # A river dealing one card to every player left: the community card, which is
            # no player's own (the showdown lines took it from what each was dealt).
            self.community_card = community
            self.events = [
                _without_card(event, community) for event in without_river_deals(self.events)
            ]
            self.results = [_result_without_card(result, community) for result in self.results]
        self.rake = rake
        # The header's facts, with the stakes and currency the betting showed.
        header = self.info
        info = txt.GameInfo(
            header.game_name,
            header.game,
            small,
            big,
            self.currency,
            table=header.table,
            tournament_id=header.tournament_id,
            tournament_level=header.tournament_level,
        )
        return self.hand_of(
            SITE, self.hand_id, info, self.start_time, model.Printed(self.brand, self.clock)
        )

    def _stakes(self) -> tuple[int, int]:
        """The small and big bet, which Bovada does not print: a full bet seen in the
        betting (limit stud: the big bet is twice the small), else the stakes of the ante."""
        small = self.completed_to
        if small is None and self.big_bet_seen is not None:
            small = self.big_bet_seen // 2
        if small is None:
            small = self.small_bet_seen
        if small is None:
            # A raise over a short all-in bet on 4th street (nobody completed on 3rd): it
            # goes a full bet over it.
            small = self.fourth_raise_seen
        if small is not None:
            return small, 2 * small
        small = SMALL_BET_BY_ANTE.get(self.ante or 0)
        if small is None:
            # Nothing to go by: just above the bring-in (or the ante), so that the forced
            # bet reads as a bring-in; no bet was made that the size could be checked on.
            small = (self.bring_in or self.ante or 1) + 1
        # Only all-ins went over a bet (for less than a full bet, or they would have
        # shown the stakes): the bets are at least that big.
        small = max(small, self.all_in_small, (self.all_in_big + 1) // 2)
        return small, 2 * small

    def _section(self, kind: str, text: str, line: int) -> None:
        line += self.offset
        street, rule = SECTIONS[kind]
        start = 0
        if street is not None:
            start = text.index("\n") + 1
            self.headed = kind != "HOLE_CARDS"
            if street is model.Street.SUMMARY:
                self.street = street
                total_end = text.index("\n", start)
                self.read_line(_HandBuilder._total_pot, text[start:total_end], line + 1)
                start = total_end + 1
                line += 1
            elif not self.streets or street > self.streets[-1]:
                self._begin(street)
            line += 1
        self.lines(rule, text, start, line)
        if kind == "SEAT_LINES":
            self.seats_done()

    def _begin(self, street: model.Street) -> None:
        self.street = street
        self.streets.append(street)
        self.street_put = {}
        self.current_bet = 0
        self.money_in_on_street = False

    # -- helpers -------------------------------------------------------------------------

    def _name(self, text: str, line: int) -> str:
        """The seated player whose name starts the line, before " : "."""
        return self.player_before(text, " : ", line)

    def _put(
        self,
        kind: model.ActionKind,
        player: str,
        line: int,
        chips: int | None,
        total: int | None = None,
        all_in: bool = False,
    ) -> None:
        """An action putting chips in: `chips` added, or the street `total` it takes the
        player to (or both, as printed); the record gets both."""
        self.put_chips(kind, player, line, chips, total, all_in)
        self.money_in_on_street = True

    def _seen_bet(self, kind: model.ActionKind, total: int, double: bool) -> None:
        """Note a full bet, completion or raise seen in the betting, taking the player to
        the street `total` (for the stakes)."""
        if kind is model.ActionKind.COMPLETE:
            self.completed_to = self.completed_to or total
            return
        size = total - self.current_bet
        if size <= 0:
            return
        if double or self.street >= model.Street.FIFTH:
            self.big_bet_seen = self.big_bet_seen or size
        elif self.street == model.Street.THIRD or kind is model.ActionKind.BET:
            self.small_bet_seen = self.small_bet_seen or size
        else:
            seen = self.fourth_raise_seen
            self.fourth_raise_seen = size if seen is None else min(seen, size)

    def _amount(self, text: str) -> int:
        if self.currency is None and text[:1] == "$":
            self.currency = "USD"
        return minor_units(text)

    # -- line handlers -------------------------------------------------------------------

    def _seat(self, text: str, line: int) -> None:
        colon = text.index(": ")
        printed = text[:colon]
        number = int(printed[5:].split(" ", 1)[0])
        stack = self._amount(text[colon + 2 : -9])
        hero = printed.endswith(HERO_MARK)
        seat = model.Seat(number, HERO if hero else printed, stack, False, line)
        self.add_seat(seat, text)
        if hero:  # the lines name the hero by seat: "Seat+3 [ME] : Calls $0.02"
            self.seated[printed] = seat
        self.by_number[number] = seat

    def _ante(self, text: str, line: int) -> None:
        player = self._name(text, line)
        amount = self._amount(text[text.rindex(" ") + 1 :])
        self.add_ante(player, amount, False, line)

    def _dealt(self, text: str, line: int) -> None:
        player = self._name(text, line)
        new = cards(text[text.rindex("[") + 1 : -1])
        earlier = self.held.get(player, ())
        if self.headed:
            # Under a street header the card is that street's (a hand not dealt by Bovada
            # may print only the cards its records knew: an opponent's up cards). Too many
            # cards on a street are the replay's to flag (CARD_COUNT).
            self.held[player] = earlier + new
            self.deal(player, earlier, new, line)
            return
        # The street a card line belongs to: the player's card count after it (3 on the
        # first street). Exports without street headers start each street here.
        street = model.Street(len(earlier) + len(new)) if earlier else model.Street.THIRD
        if not self.streets or street > self.streets[-1]:
            if street > model.Street.SEVENTH:
                raise txt.LineError(self.relative(line), f"{player} is dealt an eighth card", text)
            self._begin(street)
        elif street < self.street:
            raise txt.LineError(
                self.relative(line),
                f"a card of {street.label} is dealt on {self.street.label}",
                text,
            )
        self.held[player] = earlier + new
        self.deal(player, earlier, new, line)

    def _brings_in(self, text: str, line: int) -> None:
        player = self._name(text, line)
        amount = self._amount(text[text.rindex(" ") + 1 :])
        self.bring_in = amount
        self._put(model.ActionKind.BRING_IN, player, line, amount)

    def _bets(self, text: str, line: int) -> None:
        player = self._name(text, line)
        amount = self._amount(text[text.rindex(" ") + 1 :])
        kind = self.completion_or(model.ActionKind.BET)
        before = self.street_put.get(player, 0)
        double = " : D bets" in text or " : Double bets" in text
        self._seen_bet(kind, before + amount, double)
        self._put(kind, player, line, amount)

    def _raise_amounts(self, text: str) -> tuple[int | None, int]:
        """(chips added or None, street total) of "N" (a total) or "N to M"."""
        words = text.split(" ")
        if words[-2] == "to":
            return self._amount(words[-3]), self._amount(words[-1])
        return None, self._amount(words[-1])

    def _raises(self, text: str, line: int, all_in: bool = False) -> None:
        player = self._name(text, line)
        chips, total = self._raise_amounts(text)
        kind = self.completion_or(model.ActionKind.RAISE)
        if all_in:
            self._all_in_over(kind, total)
        else:
            self._seen_bet(kind, total, False)
        self._put(kind, player, line, chips, total, all_in)

    def _all_in_over(self, kind: model.ActionKind, total: int) -> None:
        """Note an all-in bet, completion or raise taking the player to the street `total`:
        no full bet, but the bet sizes are at least what it went over the bet faced by
        (for the stakes of a hand whose betting shows no full bet)."""
        size = total if kind is model.ActionKind.COMPLETE else total - self.current_bet
        if self.street >= model.Street.FIFTH:
            self.all_in_big = max(self.all_in_big, size)
        else:
            self.all_in_small = max(self.all_in_small, size)

    def _all_in_raise(self, text: str, line: int) -> None:
        self._raises(text, line, all_in=True)

    def _all_in(self, text: str, line: int) -> None:
        player = self._name(text, line)
        amount = self._amount(text[text.rindex(" ") + 1 :])
        if self.street is model.Street.ANTES:
            if self.ante is None or amount > self.ante:
                self.ante = amount
            self.events.append(
                model.Action(
                    model.Street.ANTES, player, model.ActionKind.ANTE, amount, None, True, line=line
                )
            )
            return
        # "All-in N" is the chips added: a call when it does not go over the bet faced, the
        # bring-in when it opens the first street, else a bet or raise.
        total = self.street_put.get(player, 0) + amount
        if self.street == model.Street.THIRD and not self.money_in_on_street:
            kind = model.ActionKind.BRING_IN
            self.bring_in = amount
        else:
            kind = self.all_in_kind(total)
        if kind is not model.ActionKind.BRING_IN and kind is not model.ActionKind.CALL:
            self._all_in_over(kind, total)
        self._put(kind, player, line, amount, None, True)

    def _calls(self, text: str, line: int) -> None:
        player = self._name(text, line)
        self._put(model.ActionKind.CALL, player, line, self._amount(text[text.rindex(" ") + 1 :]))

    def _checks(self, text: str, line: int) -> None:
        self.events.append(
            model.Action(self.street, self._name(text, line), model.ActionKind.CHECK, line=line)
        )

    def _folds(self, text: str, line: int) -> None:
        self.events.append(
            model.Action(self.street, self._name(text, line), model.ActionKind.FOLD, line=line)
        )

    def _uncalled_bet(self, text: str, line: int) -> None:
        player = self._name(text, line)
        amount = self._amount(text[text.rindex(" ") + 1 :])
        self.street_put[player] = self.street_put.get(player, 0) - amount
        self.events.append(
            model.Action(
                self.street, player, model.ActionKind.UNCALLED_BET_RETURNED, amount, line=line
            )
        )

    def _shown(self, text: str) -> tuple[tuple[Card, ...], str | None]:
        open_at = text.index(" [") + 2
        close = text.index("]", open_at)
        description = text[close + 3 : -1] if len(text) > close + 1 else None
        return cards(text[open_at:close]), description

    def _showdown(self, text: str, line: int) -> None:
        self._shown_at_showdown(model.ActionKind.SHOW, text, line)

    def _mucks(self, text: str, line: int) -> None:
        self._shown_at_showdown(model.ActionKind.MUCK, text, line)

    def _shown_at_showdown(self, kind: model.ActionKind, text: str, line: int) -> None:
        player = self._name(text, line)
        printed, description = self._shown(text[text.find(" : ") :])
        # The line prints the best five (hi/lo: the high five, then the low five); the
        # player's cards are the ones dealt, every one of them printed on its street.
        held = self.held.get(player, ())
        if not held or not set(printed) <= set(held):
            held = tuple(dict.fromkeys(printed))
        self.events.append(
            model.Action(
                model.Street.SHOWDOWN,
                player,
                kind,
                cards=held,
                description=description,
                line=line,
            )
        )

    def _does_not_show(self, text: str, line: int) -> None:
        player = self._name(text, line)
        printed, description = self._shown(text[text.find(" : ") :])
        self.events.append(
            model.Action(
                model.Street.SHOWDOWN,
                player,
                model.ActionKind.DOES_NOT_SHOW,
                cards=printed,
                description=description,
                line=line,
            )
        )

    def _hand_result(self, text: str, line: int) -> None:
        player = self._name(text, line)
        amount = self._amount(text[text.rindex(" ") + 1 :])
        side = "-Side" in text[text.find(" : ") :]
        self.side_pot_collected |= side
        collect = model.Action(
            model.Street.SHOWDOWN,
            player,
            model.ActionKind.COLLECT,
            amount,
            pot=1 if side else None,
            line=line,
        )
        self.collects.append((len(self.events), collect))
        self.events.append(collect)

    def _note(self, kind: model.NoteKind, text: str, line: int) -> None:
        self.events.append(model.Note(self.street, kind, self._name(text, line), text, line))

    def _total_pot(self, text: str, line: int) -> None:
        found = _TOTAL_POT.match(text)
        if found is None:
            raise txt.LineError(self.relative(line), "the 'Total Pot' line cannot be read", text)
        self.total_pot = self._amount(found["total"])
        if found["rake"] is not None:
            self.printed_rake = self._amount(found["rake"])

    def _summary_seat(self, text: str, line: int) -> tuple[int, str]:
        colon = text.index(":")
        number = int(text[5:colon])
        seat = self.by_number.get(number)
        if seat is None:
            raise txt.LineError(
                self.relative(line), f"the summary names seat {number}, where nobody sits", text
            )
        return number, seat.name

    def _seat_folded(self, text: str, line: int) -> None:
        number, name = self._summary_seat(text, line)
        street = street_named(text[text.index("Folded on the ") + 14 :])
        self.results.append(model.SeatResult(number, name, folded_on=street, line=line))

    def _seat_does_not_show(self, text: str, line: int) -> None:
        number, name = self._summary_seat(text, line)
        won = self._amount(text[text.index(":") + 1 : -16].strip())
        self.results.append(
            model.SeatResult(number, name, won=won, collected_without_showdown=True, line=line)
        )

    def _seat_mucked(self, text: str, line: int) -> None:
        number, name = self._summary_seat(text, line)
        printed = cards(text[text.index("[Mucked] [") + 10 : text.rindex("]")].strip())
        held = self.held.get(name, ())
        mucked = held if held and set(printed) <= set(held) else printed
        self.results.append(model.SeatResult(number, name, mucked=mucked, line=line))

    def _seat_showed(self, text: str, line: int) -> None:
        number, name = self._summary_seat(text, line)
        found = _SEAT_SHOWED.match(text)
        if found is None:
            raise txt.LineError(self.relative(line), "this summary line cannot be read", text)
        won = None
        for part in (found["won"], found["low"]):
            if part is not None:
                won = (won or 0) + self._amount(part)
        showed = cards(found["cards"])
        held = self.held.get(name, ())
        if held and showed != held and set(showed) <= set(held):
            # The list is meant to be every card in deal order, but it can leave one out
            # (hand #2604291699: Seat 5's lists six cards without the Ac of 6th street,
            # which its best five holds): the dealing lines printed them all.
            showed = held
        self.results.append(
            model.SeatResult(
                number,
                name,
                showed=showed,
                won=won,
                lost=found["lost"] is not None,
                description=found["description"] or None,
                line=line,
            )
        )


def _with_pot(action: model.Action, pot: int) -> model.Action:
    return model.Action(
        action.street,
        action.player,
        action.kind,
        action.amount,
        action.to_amount,
        action.all_in,
        action.cards,
        action.description,
        pot,
        action.half,
        action.raise_by,
        action.line,
    )


def _without_card(event: model.Event, card: Card) -> model.Event:
    """A showdown action without `card` among its cards."""
    if type(event) is not model.Action or card not in event.cards:
        return event
    return dataclasses.replace(event, cards=tuple(c for c in event.cards if c != card))


def _result_without_card(result: model.SeatResult, card: Card) -> model.SeatResult:
    """A summary seat line's record without `card` among its cards."""
    if card not in result.showed and card not in result.mucked:
        return result
    return dataclasses.replace(
        result,
        showed=tuple(c for c in result.showed if c != card),
        mucked=tuple(c for c in result.mucked if c != card),
    )


_HANDLERS = txt.note_handlers(NOTE_KINDS)

GRAMMAR = txt.SectionGrammar(
    "bovada", "Bovada", SECTIONS, _HANDLERS, TERMINAL_WORDS, builder=_HandBuilder
)


# ---------------------------------------------------------------------------------------
# Printing


def print_hand(hand: model.Hand) -> str:
    """A hand as Bovada text (the current form, with street headers), which parses back to
    an equal record.

    A hand not read from Bovada text (simulated, say) is written in the same form, as far
    as its records go: players named by their seats ("Seat+3", the one whose down cards the
    records show "Seat+3 [ME]"), each street's cards as the records know them (Bovada
    prints every card; a record holds an opponent's up cards only), the clock from the
    start time on Bovada's Eastern clock, the table number and level as Bovada writes
    them, only the notes Bovada has a line for, and a community card dealt on each river
    line (`sites.community`)."""
    money = money_writer("$" if hand.currency else None, format_amount)

    game = GAME_NAMES[hand.game]
    brand = hand.header_variant if _read_from_bovada(hand) else "Bovada"
    if brand == "game":  # a record's default header form, not a brand
        brand = "Bovada"
    clock = _clock(hand)
    table = _table_number(hand)
    if hand.tournament_id is not None:
        number = level_number(hand.tournament_level)
        level = f"- Level {number} (0/0)" if number and number.isdigit() else ""
        lines = [
            f"{brand} Hand #{hand.hand_id}: {game} Tournament #{hand.tournament_id} "
            f"TBL#{table}, Fixed Limit{level} - {clock}"
        ]
    else:
        lines = [f"{brand} Hand #{hand.hand_id} TBL#{table} {game} Fixed Limit - {clock}"]
    own = _read_from_bovada(hand)
    printed = _printed_names(hand, own)
    for seat in hand.seats:
        lines.append(f"{printed[seat.name]}: {money(seat.stack)} in chips")
    current = model.Street.ANTES
    for event in hand.events:
        street = event.street
        if street != current and model.Street.THIRD <= street <= model.Street.SEVENTH:
            lines.append(STREET_HEADERS[street])
            current = street
            if street is model.Street.SEVENTH and hand.community_card is not None:
                lines.extend(_community_lines(hand, printed))
        if isinstance(event, model.Note):
            if own:
                lines.append(event.text)
            elif event.player in printed and event.kind in NOTE_LINES:
                lines.append(f"{printed[event.player]} : {NOTE_LINES[event.kind]}")
            continue
        name = printed.get(event.player, event.player)
        if isinstance(event, model.Dealt):
            if event.new:
                lines.append(f"{name} : Card dealt to a spot [{format_cards(event.new)}]")
        elif event.cards or event.kind not in (
            model.ActionKind.MUCK,
            model.ActionKind.DOES_NOT_SHOW,
        ):
            lines.append(_action(event, name, money, hand))
    if (
        model.Street.SEVENTH in hand.streets
        and hand.community_card is not None
        and STREET_HEADERS[model.Street.SEVENTH] not in lines
    ):
        lines.append(STREET_HEADERS[model.Street.SEVENTH])
        lines.extend(_community_lines(hand, printed))
    lines.append("*** SUMMARY ***")
    lines.append(f"Total Pot({money(hand.total_pot)}) | Rake ({money(hand.rake)})")
    for result in hand.results:
        line = _result(result, money)
        if line:
            lines.append(line)
    return "\n".join(lines)


NOTE_LINES = {
    model.NoteKind.SITTING_OUT: "Sit out",
    model.NoteKind.LEAVES: "Table leave user",
    model.NoteKind.RETURNED: "Re-join",
}
"""Bovada's words for the notes of a hand not read from Bovada text (the others, chat and
connections among them, have no Bovada line)."""


def _clock(hand: model.Hand) -> str:
    """The clock as printed, or (a hand built without its text: simulated, or read from
    another site) its start time on Bovada's Eastern clock: "2012-09-19 13:11:08"."""
    return txt.printed_clock(hand, SITE, "ET", "{t:%Y-%m-%d %H:%M:%S}")


def _table_number(hand: model.Hand) -> str:
    """The table as Bovada's `TBL#` prints it: one word (a tournament's table without the
    tournament number before it; words joined by "-")."""
    table = hand.table
    if hand.tournament_id is not None and table.startswith(f"{hand.tournament_id} "):
        table = table[len(hand.tournament_id) + 1 :]
    return "-".join(table.replace(",", " ").split()) or "0"


def _read_from_bovada(hand: model.Hand) -> bool:
    """Whether the hand was read from Bovada text (its notes are Bovada's lines), not
    simulated or read from another site."""
    return hand.site is SITE and hand.header_variant != ""


def _printed_names(hand: model.Hand, own: bool) -> dict[str, str]:
    """Each player's name as Bovada prints it: by seat, "Seat+3"; the hero "Seat+3 [ME]".
    In a hand not read from Bovada text (`own` false) the hero is the one player whose
    first-street cards the records show in full (none hidden)."""
    heroes = (
        set()
        if own
        else {
            event.player
            for event in hand.events
            if type(event) is model.Dealt
            and not event.previous
            and event.hidden == 0
            and len(event.new) > 1
        }
    )
    names = {}
    for seat in hand.seats:
        hero = seat.name == HERO or (len(heroes) == 1 and seat.name in heroes)
        names[seat.name] = f"Seat+{seat.number}{HERO_MARK}" if hero else f"Seat+{seat.number}"
    return names


def _community_lines(hand: model.Hand, printed: dict[str, str]) -> list[str]:
    """The community card on the river line of every player left."""
    card = f"[{hand.community_card}]"
    return [
        f"{printed.get(player, player)} : Card dealt to a spot {card}"
        for player in river_players(hand)
    ]


def _action(action: model.Action, name: str, money, hand: model.Hand) -> str:  # type: ignore[no-untyped-def]
    kind = action.kind
    amount = money(action.amount)
    if kind is model.ActionKind.ANTE:
        return f"{name} : All-in {amount}" if action.all_in else f"{name} : Ante chip {amount}"
    if kind is model.ActionKind.BRING_IN:
        return f"{name} : All-in {amount}" if action.all_in else f"{name} : Bring_in chip {amount}"
    if kind in (model.ActionKind.COMPLETE, model.ActionKind.RAISE):
        verb = "All-in(raise)" if action.all_in else "Raises"
        return f"{name} : {verb} {amount} to {money(action.to_amount)}"
    if kind is model.ActionKind.BET:
        if action.all_in:
            return f"{name} : All-in {amount}"
        double = action.street == model.Street.FOURTH and action.amount == hand.big_bet
        return f"{name} : {'D bets' if double else 'Bets'} {amount}"
    if kind is model.ActionKind.CALL:
        return f"{name} : All-in {amount}" if action.all_in else f"{name} : Calls {amount}"
    if kind is model.ActionKind.CHECK:
        return f"{name} : Checks"
    if kind is model.ActionKind.FOLD:
        return f"{name} : Folds"
    if kind is model.ActionKind.UNCALLED_BET_RETURNED:
        return f"{name} : Return uncalled portion of bet {amount}"
    if kind in (model.ActionKind.SHOW, model.ActionKind.MUCK, model.ActionKind.DOES_NOT_SHOW):
        verb = {model.ActionKind.SHOW: "Showdown", model.ActionKind.MUCK: "Mucks"}.get(
            kind, "Does not show"
        )
        tail = f" ({action.description})" if action.description is not None else ""
        return f"{name} : {verb} [{format_cards(action.cards)}]{tail}"
    if kind is model.ActionKind.COLLECT:
        what = "Hand Result-Side Pot" if action.pot else "Hand result"
        return f"{name} : {what} {amount}"
    raise ValueError(f"Bovada prints no {kind.value} line")


def _result(result: model.SeatResult, money) -> str:  # type: ignore[no-untyped-def]
    """A seat's summary line; "" for a seat Bovada has no line for (mucked unseen)."""
    head = f"Seat+{result.seat}:  "
    if result.folded_on is not None:
        return f"{head}Folded on the {FOLDED_ON_TEXT[result.folded_on]}"
    if result.collected_without_showdown:
        return f"{head}{money(result.won)} [Does not show]"
    if result.mucked:
        return f"{head} [Mucked] [{format_cards(result.mucked)} ]"
    if not result.showed:
        return ""
    won = f"{money(result.won)}  " if result.won is not None else " "
    lost = "lost " if result.lost else ""
    shown = format_cards(result.showed)
    best = format_cards(result.showed[-5:])
    return f"{head}{won}{lost}with {result.description or ''} [{shown}-{best}]"


FORMAT = SiteFormat(
    site=SITE,
    name="Bovada",
    header_prefix=HEADER_PREFIX,
    is_header=is_header,
    parse_hand=parse_hand,
    profile=BOVADA,
    traits=TRAITS,
    print_hand=print_hand,
    header_bytes=HEADER_BYTES,
    # Fixed-limit 7-card stud and stud hi/lo, at cash tables and in tournaments.
    deals=fixed_limit_deals(GAME_NAMES),
)

IGNITION_FORMAT = FORMAT.another_header("Bovada (Ignition)", IGNITION_PREFIX, IGNITION_HEADER_BYTES)
"""The same format under the network's later brand, whose headers start "Ignition Hand #"
(files are split at their headers' common start, so each start is a format of its own)."""
