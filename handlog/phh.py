"""Stored hands as PHH, the Poker Hand History format (https://phh.readthedocs.io/), which
pokerkit and other tools read: 7-card stud as variant F7S, stud hi/lo as F7S/8, razz as FR.

Each hand is written from its stored rows: the antes, bring-in and bets, every player's
starting stack (players in seat order are p1, p2, ...), each street's cards as dealt ("??"
for a card nobody saw: the store keeps each player's cards by deal position), the betting
actions ("pb" bring-in, "cbr" completion, bet or raise *to* the player's total for the
street, "cc" check or call, "f" fold), at a showdown each player's show ("sm -") or muck
("sm"), and as optional fields the hand number, table, players, seats, seat count, level,
date and time (UTC), the card room (`venue`) and the finishing stacks (starting stack + net:
after rake, as the site paid out), and fields of handlog's own: `_site` (which house's rules
the hand is read back under), `_hand_id`, `_rake`. Money is in PHH's units: a cash hand's in
its currency ("0.04" with `currency = "USD"`), a tournament's in chips, chips that come in
hundredths with two decimals. The antes, burns and pushing of chips are left to the reader,
as PHH allows.

Hands are written many to a file (`.phhs`, PHH's TOML tables `[1]`, `[2]`, ...), a file per
site and game and per `HANDS_PER_FILE` hands. Not written (counted, with a reason): hands of
games that PHH has no stud variant for, and hands PHH's stud variants cannot play as they
were played: with a community card (no way to say which card was shared), with a double bet
on 4th street (the open-pair option, which F7S does not have), with an up card the site did
not print (the bring-in and who acts first are decided from the up cards), or flagged
illegal by the replay (no rules engine can play them as written). So every hand written
plays through pokerkit (tests/test_phh.py, on the corpus too); a hand whose pots were
mis-split is written with the finishing stacks the site paid, which pokerkit's play then
differs from, as handlog's flag says; read back by handlog, every hand written keeps its
verdict (tests/test_phh.py).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    import duckdb

VARIANTS = {"stud": "F7S", "stud8": "F7S/8", "razz": "FR"}
HANDS_PER_FILE = 10_000
BATCH_HANDS = 5_000
"""Hands read from the store at a time."""

STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
"""The 7-card games' betting streets; the cards dealt on each: 3, 1, 1, 1, 1."""
_FIRST_CARD = {"third": 0, "fourth": 3, "fifth": 4, "sixth": 5, "seventh": 6}
_LAST_CARD = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}
_UP_CARD = {"third": 2, "fourth": 0, "fifth": 0, "sixth": 0}
"""Where the face-up card is among the cards each street deals (7th street's is face down)."""


@dataclass
class PhhSummary:
    files: list[Path] = field(default_factory=list)
    hands: int = 0
    skipped: Counter[str] = field(default_factory=Counter)


def export(connection: duckdb.DuckDBPyConnection, out: Path) -> PhhSummary:
    """Write the stored stud, stud hi/lo and razz hands into `out` as `.phhs` files (see
    the module doc)."""
    summary = PhhSummary()
    out.mkdir(parents=True, exist_ok=True)
    # PHH's stud variants (F7S, F7S/8, FR) are fixed limit.
    other = connection.execute(
        "SELECT game, structure, count(*) FROM hands "
        "WHERE game NOT IN ('stud', 'stud8', 'razz') OR structure <> 'fixed' GROUP BY ALL"
    ).fetchall()
    for game, structure, count in other:
        limit = "" if structure == "fixed" else f" in {structure} limit"
        summary.skipped[f"no PHH variant for {game}{limit}"] += count
    groups = connection.execute(
        "SELECT site, game, count(*) FROM hands WHERE game IN ('stud', 'stud8', 'razz') "
        "AND structure = 'fixed' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    for site, game, count in groups:
        folder = out / _safe(site) / game
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.phhs"):
            old.unlink()
        writer = _Writer(folder, summary)
        for offset in range(0, count, BATCH_HANDS):
            for hand in _hands(connection, site, game, offset):
                text = hand_phh(hand)
                if isinstance(text, str):
                    writer.add(text)
                else:
                    summary.skipped[text.reason] += 1
        writer.close()
    return summary


@dataclass
class Skip:
    reason: str


def hand_phh(hand: dict[str, Any]) -> str | Skip:
    """One hand (the rows `_hands` gathers) as PHH fields (TOML), or why it cannot be."""
    players = hand["players"]
    index = {p["player"]: n for n, p in enumerate(players, start=1)}
    cards = {p["player"]: (p["cards"] or "").split() for p in players}
    folded_on: dict[str, int] = {}
    by_street: dict[str, list[dict[str, Any]]] = {street: [] for street in STREETS}
    for action in hand["actions"]:
        if action["street"] in by_street:
            by_street[action["street"]].append(action)
            if action["kind"] == "fold":
                folded_on.setdefault(action["player"], STREETS.index(action["street"]))
    if hand["illegal"]:
        return Skip("flagged illegal")
    lines: list[str] = []
    live = [p["player"] for p in players]
    dealt_cards = 0
    for number, street in enumerate(STREETS):
        live = [p["player"] for p in players if folded_on.get(p["player"], 99) >= number]
        if number > 0 and len(live) < 2:
            break
        dealt_cards += len(live) * (_LAST_CARD[street] - _FIRST_CARD[street])
        if dealt_cards > 52:  # the deck ran short: one community card for all
            return Skip("a community card")
        for player in live:
            dealt = cards[player][_FIRST_CARD[street] : _LAST_CARD[street]]
            dealt += ["??"] * (_LAST_CARD[street] - _FIRST_CARD[street] - len(dealt))
            if street in _UP_CARD and dealt[_UP_CARD[street]] == "??":
                return Skip("an up card the site did not print")
            lines.append(f"d dh p{index[player]} {''.join(dealt)}")
        put: dict[str, int] = {}
        for action in by_street[street]:
            player, kind = action["player"], action["kind"]
            if player not in index:
                return Skip("an action by a player not dealt in")
            label = f"p{index[player]}"
            amount = action["amount"] or 0
            before = put.get(player, 0)
            if kind == "bring_in":
                put[player] = before + amount
                lines.append(f"{label} pb")
            elif kind in ("complete", "bet", "raise"):
                to = _bet_to(action, before)
                if street == "fourth" and to - max(put.values(), default=0) > hand["small_bet"]:
                    return Skip("a bet or raise of the big bet on 4th street (open pair)")
                put[player] = to
                lines.append(f"{label} cbr {to}")
            elif kind in ("call", "check"):
                put[player] = before + amount
                lines.append(f"{label} cc")
            elif kind == "fold":
                lines.append(f"{label} f")
    # The showdown: who showed (every card known, dealt above) and who mucked.
    at_end = [p for p in players if p["player"] not in folded_on]
    if len(at_end) > 1:
        for p in at_end:
            lines.append(f"p{index[p['player']]} sm" + (" -" if p["showed"] else ""))
    if hand["small_bet"] is None or hand["big_bet"] is None:
        return Skip("no bets known")
    # The bring-in as posted. A header names only the bets; when the bring-in was completed
    # instead of posted its amount is nowhere in the hand, and changes nothing in its play:
    # the stakes' usual bring-in stands in (PHH requires one).
    posted = [a["amount"] for a in hand["actions"] if a["kind"] == "bring_in" and a["amount"]]
    bring_in = hand["bring_in"] or (posted[0] if posted else None)
    if bring_in is None:
        from handlog.simulate import forced_bets

        bring_in = forced_bets(hand["small_bet"], hand["big_bet"])[1]
    # Money as PHH writes it: in the currency's units (cents as "0.04") for a cash hand, in
    # chips for a tournament, with two decimals for chips that come in hundredths (which
    # tells a reader the unit: handlog's reads "22.00" as hundredths of a chip).
    currency = hand["currency"] if not hand["tournament_id"] else None
    decimals = bool(currency) or bool(hand["chips_in_hundredths"])

    def money(value: int) -> str:
        return f"{value // 100}.{value % 100:02d}" if decimals else str(value)

    def amounts(values: list[int]) -> str:
        return "[" + ", ".join(money(value) for value in values) + "]"

    if decimals:
        lines = [_money_in_action(line, money) for line in lines]
    fields = [
        f"variant = {_toml(VARIANTS[hand['game']])}",
        f"antes = {amounts([hand['ante'] or 0 for _ in players])}",
        f"bring_in = {money(bring_in)}",
        f"small_bet = {money(hand['small_bet'])}",
        f"big_bet = {money(hand['big_bet'])}",
        f"starting_stacks = {amounts([p['stack'] for p in players])}",
        "actions = [\n" + "".join(f"  {_toml(line)},\n" for line in lines) + "]",
        f"players = [{', '.join(_toml(p['player']) for p in players)}]",
        f"finishing_stacks = {amounts([p['stack'] + p['net'] for p in players])}",
        f"seats = [{', '.join(str(p['seat']) for p in players)}]",
    ]
    if hand["max_seats"]:
        fields.append(f"seat_count = {max(hand['max_seats'], len(players))}")
    # The card room, by PHH's own field, and as fields of ours (PHH's user-defined fields
    # start with "_"): the site exactly, which decides the house rules the hand is read back
    # under, the hand number as text, and the rake, which PHH has no field for (its winnings
    # and finishing stacks are after rake). A hand read from a PHH file keeps its number.
    if hand["site"] != "phh":
        fields.append(f"venue = {_toml(_venue(hand['site']))}")
        fields.append(f"_site = {_toml(hand['site'])}")
    fields += [f"_hand_id = {_toml(hand['hand_id'])}", f"_rake = {money(hand['rake'] or 0)}"]
    if hand["hand_id"].isdigit() and len(hand["hand_id"]) < 19:
        fields.append(f"hand = {int(hand['hand_id'])}")
    if hand["table_name"]:
        fields.append(f"table = {_toml(hand['table_name'])}")
    if hand["tournament_level"] and hand["tournament_level"].isdigit():
        fields.append(f"level = {int(hand['tournament_level'])}")
    if currency:
        fields.append(f"currency = {_toml(currency)}")
    if hand["start_time"] is not None:
        moment = hand["start_time"]
        fields += [f"year = {moment.year}", f"month = {moment.month}", f"day = {moment.day}"]
        fields += [f"time = {moment:%H:%M:%S}", 'time_zone = "UTC"']
    return "\n".join(fields)


def _money_in_action(line: str, money: Callable[[int], str]) -> str:
    """A `cbr` action's amount in the hand's money form."""
    head, verb, amount = line.rpartition(" cbr ")
    return f"{head}{verb}{money(int(amount))}" if verb else line


def _venue(site: str) -> str:
    """A site as PHH's `venue` names a card room: the name its format goes by."""
    from handlog.model import Site
    from handlog.parse.sites import format_for

    try:
        found = format_for(Site(site))
    except ValueError:
        return site
    return found.name if found is not None else site


class _Writer:
    def __init__(self, folder: Path, summary: PhhSummary) -> None:
        self.folder, self.summary = folder, summary
        self.texts: list[str] = []
        self.number = 0

    def add(self, text: str) -> None:
        self.texts.append(text)
        self.summary.hands += 1
        if len(self.texts) >= HANDS_PER_FILE:
            self.close()

    def close(self) -> None:
        if not self.texts:
            return
        self.number += 1
        path = self.folder / f"hands-{self.number:05d}.phhs"
        body = "\n\n".join(f"[{n}]\n{text}" for n, text in enumerate(self.texts, start=1))
        path.write_text(body + "\n", encoding="utf-8")
        self.summary.files.append(path)
        self.texts = []


def _hands(
    connection: duckdb.DuckDBPyConnection, site: str, game: str, offset: int
) -> list[dict[str, Any]]:
    """`BATCH_HANDS` hands of one site and game (from `offset` in hand order) with their
    players in seat order and their actions in order."""
    connection.execute(
        """
        CREATE OR REPLACE TEMP TABLE phh_batch AS
        SELECT site, hand_id, game, ante, bring_in, small_bet, big_bet, table_name,
            currency, tournament_id, start_time AT TIME ZONE 'UTC' AS start_time, rake,
            chips_in_hundredths, max_seats, tournament_level,
            EXISTS (
                SELECT 1 FROM violations v
                WHERE v.site = h.site AND v.hand_id = h.hand_id AND v.kind = 'illegal'
            ) AS illegal
        FROM hands h WHERE site = ? AND game = ? AND structure = 'fixed'
        ORDER BY start_time, hand_id LIMIT ? OFFSET ?
        """,
        [site, game, BATCH_HANDS, offset],
    )
    hands: dict[str, dict[str, Any]] = {}
    columns = (
        "site", "hand_id", "game", "ante", "bring_in", "small_bet", "big_bet", "table_name",
        "currency", "tournament_id", "start_time", "rake", "chips_in_hundredths",
        "max_seats", "tournament_level", "illegal",
    )  # fmt: skip
    for row in connection.execute("SELECT * FROM phh_batch").fetchall():
        hand = dict(zip(columns, row, strict=True))
        hand["players"], hand["actions"] = [], []
        hands[hand["hand_id"]] = hand
    for hand_id, player, seat, stack, cards, net, showed in connection.execute(
        """
        SELECT p.hand_id, p.player, p.seat, p.stack, p.cards, p.net, p.showdown
        FROM hand_players p SEMI JOIN phh_batch b USING (site, hand_id)
        WHERE coalesce(p.dealt_in, true)  -- a seat that sat out is not in the hand
        ORDER BY p.hand_id, p.seat
        """
    ).fetchall():
        hands[hand_id]["players"].append(
            {
                "player": player,
                "seat": seat,
                "stack": stack,
                "cards": cards,
                "net": net,
                "showed": bool(showed),
            }
        )
    for hand_id, street, player, kind, amount, to_amount in connection.execute(
        """
        SELECT a.hand_id, a.street, a.player, a.kind, a.amount, a.to_amount
        FROM actions a SEMI JOIN phh_batch b USING (site, hand_id)
        ORDER BY a.hand_id, a.seq
        """
    ).fetchall():
        hands[hand_id]["actions"].append(
            {
                "street": street,
                "player": player,
                "kind": kind,
                "amount": amount,
                "to_amount": to_amount,
            }
        )
    connection.execute("DROP TABLE phh_batch")
    return list(hands.values())


def _bet_to(action: dict[str, Any], before: int) -> int:
    """The street total a completion, bet or raise brings its player to."""
    if action["to_amount"] is not None:
        return int(action["to_amount"])
    return before + (action["amount"] or 0)


def _toml(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
