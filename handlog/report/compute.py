"""The report's tables, computed with Polars expressions over the frames of `data.load`.

No per-hand Python: every figure is a group-by, a window (`over`) or a join. Money columns
are integer minor units of the row's `unit`; rates are floats.

Definitions (README "Reports" repeats them for users):

* big bet: the hand's 5th-7th street bet. `bb` = the player's net / big bet.
* big bets/100 = 100 x mean(bb) over the player's hands; the 95% confidence interval is
  that ± 1.96 x 100 x sd(bb) / sqrt(hands) (sd: sample standard deviation of bb per hand).
* big bets/100 only for fixed and spread limit (the top of the spread is its big bet), and
  never over more than one betting structure: every win-rate is grouped by structure, as by
  unit. Pot and no limit: bring-ins/100 = 100 x mean(net / the hand's bring-in) instead.
* $/100 = 100 x net / hands, in the unit's minor units. Rake paid: the player's share of
  the rake of the pots they won (as the importer stores it).
* a player is an account (site, name), or a person (`handlog.players`): every table groups
  by `player_site` (the account's site, or the person's sites) and `player`.
* sessions: a player's continuous play at one table (site, tournament, table name) with
  no gap of 30 minutes or more between hands. A hand lasts until the player's next hand in
  the session; the last hand of a session lasts the session's mean hand interval (for a
  one-hand session, the median of that player's sessions' mean intervals, or 60 s if they
  have none). Sessions and hands' lengths are worked out over every stored hand of the
  player, before any filter: a filter that keeps the same hands gives the same hours.
  Hours are table hours: two tables played at once count twice.
* days are UTC dates.
* EV net: the player's all-in EV-adjusted net (`hand_players.ev_net`, `handlog.equity`);
  EV BB/100 and its interval as BB/100's, of `ev_net`; luck = net - EV net; all-ins: the
  player's hands with a row of `equities` (in a pot at the all-in). Where the rows have no
  `ev_net` (the server's summaries), the tables have no EV columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from handlog.cards import DECK
from handlog.report.data import Frames
from handlog.rules import evaluate, tables
from handlog.rules.structures import BIG_BET_STRUCTURES
from handlog.rules.variants import LOW_GAMES, SPLIT_GAMES, VARIANTS, Lowball

_LOW_GAMES = [game.value for game in LOW_GAMES]
"""Games with a low hand: the 8-or-better low statistic."""
_LOWBALLS = tuple(Lowball)
_LOWBALL_NUMBER = {game.value: _LOWBALLS.index(VARIANTS[game].lowball) for game in LOW_GAMES}
"""Each low game's way of ranking lows, as its place in `_LOWBALLS` (`_eight_or_better`)."""
_CARD_INDEX = {str(card): card.index for card in DECK}
_SPLIT_GAMES = [game.value for game in SPLIT_GAMES]
"""Games with split pots: scoops, high and low halves, quartered pots."""

SESSION_GAP_SECONDS = 30 * 60
DEFAULT_HAND_SECONDS = 60.0
Z95 = 1.959964

AGGRESSIVE = ("complete", "bet", "raise")
VOLUNTARY = ("complete", "bet", "raise", "call")
LAST_STREET = {game.value: int(street) for game, street in tables.LAST_STREET.items()}
"""The street of the showdown by game (`tables.LAST_STREET`): 5th in 5-card stud, 7th in the
7-card games."""


UNKNOWN_STAKES = "unknown"
"""The stakes column of a hand whose stakes no line shows (`Hand.stakes_known`)."""


def _big_bets(net: str) -> pl.Expr:
    """`net` in big bets: fixed and spread limit only, of a hand whose stakes are known
    (`Hand.stakes_known`: a hand whose stakes no line shows is stored with a big bet of 0; it
    counts in the nets, hours and statistics, never in big bets/100)."""
    known = pl.col("structure").is_in(BIG_BET_STRUCTURES) & (pl.col("big_bet") > 0)
    return pl.when(known).then(pl.col(net) / pl.col("big_bet"))


def _bring_ins(net: str) -> pl.Expr:
    """`net` in bring-ins: pot and no limit only, where there is no big bet."""
    known = ~pl.col("structure").is_in(BIG_BET_STRUCTURES) & (pl.col("bring_in") > 0)
    return pl.when(known).then(pl.col(net) / pl.col("bring_in"))


BIG_BETS = _big_bets("net")
"""A row's net in big bets (`bb`)."""
BRING_INS = _bring_ins("net")
"""A row's net in bring-ins (`bi`)."""
EV_BIG_BETS = _big_bets("ev_net")
"""A row's all-in EV-adjusted net in big bets (`bb_ev`)."""
EV_BRING_INS = _bring_ins("ev_net")
"""A row's all-in EV-adjusted net in bring-ins (`bi_ev`)."""


def player_hands(frames: Frames) -> pl.DataFrame:
    """One row per player per hand with the hand's columns, `bb`, `session` and `seconds`
    (every stored hand of the player's: a report keeps the rows of its hands, `chosen`,
    after this)."""
    return player_sessions(frames)


HAND_COLUMNS = (
    "hk",
    "site",
    "game",
    "unit",
    "small_bet",
    "big_bet",
    "structure",
    "bring_in",
    "table_key",
    "table_name",
    "start_utc",
    "chosen",
)
"""The columns of `Frames.hands` that `player_sessions` reads (`chosen`: the hand is one
the report's filters select; a frame without it has them all chosen)."""


def player_sessions(frames: Frames, people: pl.DataFrame | None = None) -> pl.DataFrame:
    """`player_hands`' rows: each with its `session` and `seconds`, the accounts of persons
    (`people`) relabelled as them (`identify`; rows with a `player_site` already are).
    Sessions and lengths are a player's own (`player_site`, `player`): the rows of
    different players can be taken in parts (`report.scaled`), a player's rows all in one."""
    hands = frames.hands
    if "chosen" not in hands.columns:
        hands = hands.with_columns(chosen=pl.lit(True))
    rows = with_hand_columns(hands, frames.players, HAND_COLUMNS[1:])
    if "player_site" not in rows.columns:
        rows = identify(rows, people)
    rows = rows.with_columns(
        bb=BIG_BETS,
        bi=BRING_INS,
        day=pl.col("start_utc").dt.date(),
    )
    if "ev_net" in rows.columns:
        rows = rows.with_columns(bb_ev=EV_BIG_BETS, bi_ev=EV_BRING_INS)
    # Sessions need each player's hands at each table together and in time order; the order
    # of players and tables does not matter, so sort by small integer codes (categorical
    # codes) instead of comparing strings: 2-3x faster on a million rows. Time order is hk
    # order (hk numbers the hands by start time; hands of unknown time last, where each is
    # a session of its own whatever its place, as its gaps are unknown).
    rows = sort_by_integers(
        rows.with_columns(
            _player=pl.col("player").cast(pl.Categorical).to_physical(),
            _psite=pl.col("player_site").cast(pl.Categorical).to_physical(),
            _table=pl.col("table_key").cast(pl.Categorical).to_physical(),
        ),
        ["_player", "_psite", "_table", "hk"],
    )
    gap = (pl.col("start_utc") - pl.col("start_utc").shift(1)).dt.total_seconds()
    new_session = (
        (pl.col("_player") != pl.col("_player").shift(1))
        | (pl.col("_psite") != pl.col("_psite").shift(1))
        | (pl.col("_table") != pl.col("_table").shift(1))
        | gap.is_null()
        | (gap >= SESSION_GAP_SECONDS)
    ).fill_null(True)
    rows = rows.with_columns(session=new_session.cum_sum().cast(pl.Int64)).drop("_table")
    same_session = pl.col("session") == pl.col("session").shift(-1)
    following = pl.when(same_session).then(
        (pl.col("start_utc").shift(-1) - pl.col("start_utc")).dt.total_seconds()
    )
    rows = rows.with_columns(interval=following.cast(pl.Float64))
    rows = rows.with_columns(
        seconds=pl.col("interval").fill_null(pl.col("interval").mean().over("session"))
    )
    # One-hand sessions (seconds still null): the median of the player's sessions' mean
    # intervals, looked up for those rows only (a few in a hundred).
    alone = rows.select(pl.arg_where(pl.col("seconds").is_null())).to_series()
    if alone.len():
        means = rows.group_by("session").agg(
            pl.col("_player").first(), pl.col("_psite").first(), mean=pl.col("interval").mean()
        )
        medians = means.group_by("_player", "_psite").agg(fallback=pl.col("mean").median())
        found = (
            rows[alone]
            .select("_player", "_psite")
            .join(medians, on=["_player", "_psite"], how="left", maintain_order="left")
            .select(pl.col("fallback").fill_null(DEFAULT_HAND_SECONDS))
            .to_series()
        )
        rows = rows.with_columns(rows["seconds"].scatter(alone, found))
    return rows.drop("interval", "_player", "_psite")


def sort_by_integers(frame: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """`frame` sorted by `keys`, columns of non-negative integers: by one Int64 that packs
    them (the first in the high bits) when their largest values fit in its 63 bits, else
    by the columns. The same order; a sort by several columns encodes every row's keys
    first (two million rows by three columns: 0.55 CPU s, packed 0.25)."""
    widths = []
    for key in keys:
        column = frame[key]
        low, high = column.min(), column.max()
        if column.null_count() or low is None or low < 0:  # type: ignore[operator]
            return frame.sort(keys)
        widths.append(int(high).bit_length())  # type: ignore[arg-type]
    if sum(widths) > 63:
        return frame.sort(keys)
    packed = pl.lit(0, pl.Int64)
    for key, width in zip(keys, widths, strict=True):
        packed = packed * (1 << width) + pl.col(key).cast(pl.Int64)
    return frame.sort(packed)


def with_hand_columns(
    hands: pl.DataFrame, rows: pl.DataFrame, columns: Sequence[str]
) -> pl.DataFrame:
    """`rows` (each with the `hk` of a hand of `hands`) with the hand's `columns` added. The
    hands are numbered 1..n in `hk` order (`data.load` and `scaled.prepare` number them so),
    so a row's hand is row hk - 1 of `hands`: taken by position, where a hash join of two
    million rows with a million hands took twice as long. Checked, not assumed: hands
    numbered otherwise are joined."""
    keys = hands["hk"]
    if keys.len() and keys[0] == 1 and bool((keys.diff().drop_nulls() == 1).all()):
        added = hands.select(columns)[rows["hk"].cast(pl.Int64) - 1]
        return pl.concat([rows, added], how="horizontal")
    return rows.join(hands.select("hk", *columns), on="hk", how="inner", maintain_order="left")


WINRATE_KEYS = ("unit", "structure")
"""What every win-rate group is also split by: amounts of two units are never added, nor big
bets of two betting structures."""


def winrates(rows: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Hands, net, big bets/100 with its 95% interval, net per 100 hands and per hour, rake,
    sd for each group of `by` (the unit and the structure are always part of the group)."""
    return winrate_figures(winrate_sums(rows, by), by)


def winrate_sums(rows: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """`winrates`' groups before the figures (of one part of the rows: groups that hold a
    player never span two parts)."""
    keys = [*by, *(key for key in WINRATE_KEYS if key not in by)]
    ev = []
    if "ev_net" in rows.columns:  # the all-in EV figures beside the real ones
        ev = [
            pl.col("ev_net").sum().alias("ev_net"),
            (pl.col("bb_ev").mean() * 100).alias("ev_bb_per_100"),
            pl.col("bb_ev").std().alias("ev_sd_bb"),
            (pl.col("bi_ev").mean() * 100).alias("ev_bi_per_100"),
            pl.col("all_in").sum().cast(pl.Int64).alias("all_ins"),
        ]
    return rows.group_by(keys).agg(
        *ev,
        hands=pl.len(),
        net=pl.col("net").sum(),
        rake=pl.col("rake_share").sum(),
        bb_per_100=pl.col("bb").mean() * 100,
        sd_bb=pl.col("bb").std(),
        bi_per_100=pl.col("bi").mean() * 100,
        seconds=pl.col("seconds").sum(),
        first=pl.col("start_utc").min(),
        last=pl.col("start_utc").max(),
    )


MOMENTS = ("hands", "net", "rake", "bb_n", "bb_sum", "bb_sq", "bi_n", "bi_sum", "seconds")
"""The sums behind `winrate_sums` (`winrate_moments`): they add up over any sets of rows."""
EV_MOMENTS = ("ev_net", "ev_bb_sum", "ev_bb_sq", "ev_bi_sum", "all_ins")
"""The sums behind `winrate_sums`' all-in EV figures, of rows with `ev_net` (and `all_in`):
an EV big bet or bring-in is known exactly where its real one is (`bb_n`, `bi_n`)."""


def winrate_moments(rows: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """`winrate_sums`' groups as sums only (counts, sums and sums of squares of `bb` and
    `bi`, the seconds: `MOMENTS`), which add up over any sets of rows, with `first` and
    `last`: a summary kept up to date hand by hand (`handlog serve`) adds these, and
    `sums_from_moments` turns any total of them into `winrate_sums`' columns."""
    keys = [*by, *(key for key in WINRATE_KEYS if key not in by)]
    bb, bi = pl.col("bb"), pl.col("bi")
    ev = []
    if "ev_net" in rows.columns:  # `EV_MOMENTS`
        bb_ev = pl.col("bb_ev")
        ev = [
            pl.col("ev_net").sum().cast(pl.Int64).alias("ev_net"),
            bb_ev.sum().cast(pl.Float64).alias("ev_bb_sum"),
            (bb_ev * bb_ev).sum().cast(pl.Float64).alias("ev_bb_sq"),
            pl.col("bi_ev").sum().cast(pl.Float64).alias("ev_bi_sum"),
            pl.col("all_in").sum().cast(pl.Int64).alias("all_ins"),
        ]
    return rows.group_by(keys).agg(
        *ev,
        hands=pl.len().cast(pl.Int64),
        net=pl.col("net").sum().cast(pl.Int64),
        rake=pl.col("rake_share").sum().cast(pl.Int64),
        bb_n=bb.count().cast(pl.Int64),
        bb_sum=bb.sum().cast(pl.Float64),
        bb_sq=(bb * bb).sum().cast(pl.Float64),
        bi_n=bi.count().cast(pl.Int64),
        bi_sum=bi.sum().cast(pl.Float64),
        seconds=pl.col("seconds").sum().cast(pl.Float64),
        first=pl.col("start_utc").min(),
        last=pl.col("start_utc").max(),
    )


def sums_from_moments(moments: pl.DataFrame) -> pl.DataFrame:
    """`winrate_sums`' columns (mean and sample standard deviation of `bb`, mean of `bi`)
    from added-up `winrate_moments`; the same figures, to rounding
    (tests/test_serve_summary.py)."""
    c = pl.col
    bb_n = c("bb_n").cast(pl.Float64)

    def sd(total: str, squares: str) -> pl.Expr:
        variance = (c(squares) - c(total) * c(total) / bb_n) / (bb_n - 1)
        return pl.when(c("bb_n") > 1).then(pl.max_horizontal(variance, pl.lit(0.0)).sqrt())

    ev = []
    if "ev_bb_sum" in moments.columns:  # `EV_MOMENTS`: `winrate_sums`' EV figures
        ev = [
            pl.when(c("bb_n") > 0).then(c("ev_bb_sum") / bb_n * 100).alias("ev_bb_per_100"),
            sd("ev_bb_sum", "ev_bb_sq").alias("ev_sd_bb"),
            pl.when(c("bi_n") > 0)
            .then(c("ev_bi_sum") / c("bi_n").cast(pl.Float64) * 100)
            .alias("ev_bi_per_100"),
        ]
    return moments.with_columns(
        *ev,
        bb_per_100=pl.when(c("bb_n") > 0).then(c("bb_sum") / bb_n * 100),
        sd_bb=sd("bb_sum", "bb_sq"),
        bi_per_100=pl.when(c("bi_n") > 0).then(c("bi_sum") / c("bi_n").cast(pl.Float64) * 100),
    ).drop(
        "bb_n",
        "bb_sum",
        "bb_sq",
        "bi_n",
        "bi_sum",
        "ev_bb_sum",
        "ev_bb_sq",
        "ev_bi_sum",
        strict=False,
    )


def winrate_figures(sums: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """`winrates` from `winrate_sums`."""
    keys = [*by, *(key for key in WINRATE_KEYS if key not in by)]
    table = sums.select(
        *keys,
        "hands",
        "net",
        "rake",
        "bb_per_100",
        "sd_bb",
        "bi_per_100",
        (pl.col("seconds") / 3600).alias("hours"),
        "first",
        "last",
    )
    root = pl.col("hands").cast(pl.Float64).sqrt()
    half = Z95 * 100 * pl.col("sd_bb") / root
    table = table.with_columns(
        per_100=pl.col("net") * 100 / pl.col("hands"),
        per_hour=pl.when(pl.col("hours") > 0).then(pl.col("net") / pl.col("hours")),
        ci_low=pl.col("bb_per_100") - half,
        ci_high=pl.col("bb_per_100") + half,
    )
    if "ev_net" in sums.columns:
        ev_half = Z95 * 100 * sums["ev_sd_bb"] / sums["hands"].cast(pl.Float64).sqrt()
        table = table.with_columns(
            ev_net=sums["ev_net"],
            ev_bb_per_100=sums["ev_bb_per_100"],
            ev_ci_low=sums["ev_bb_per_100"] - ev_half,
            ev_ci_high=sums["ev_bb_per_100"] + ev_half,
            ev_bi_per_100=sums["ev_bi_per_100"],
            ev_per_100=sums["ev_net"] * 100 / sums["hands"],
            luck=sums["net"] - sums["ev_net"],
            all_ins=sums["all_ins"],
        )
    return table.sort([*keys[:2], "hands"], descending=[False, False, True])


PLAYER = ["player_site", "player"]
"""Whom a row is about: the account's site (or a person's sites) and name."""


def sessions(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per player session: table (and its site), start, end, hands and the win-rate
    figures."""
    table = winrates(rows, [*PLAYER, "session", "site", "table_name"])
    return table.sort(*PLAYER, "first").drop("session")


def identify(frame: pl.DataFrame, people: pl.DataFrame | None) -> pl.DataFrame:
    """`frame` (rows of accounts: `site`, `player`) with `player_site` and `player` naming
    whom each row is about: the account, or, for an account of a person (`people`: site,
    player, person, person_site; `players.Identities.arrow`), the person."""
    if people is None or people.is_empty():
        return frame.with_columns(player_site=pl.col("site"))
    kinds = {name: frame.schema[name] for name in ("site", "player")}
    keyed = people.with_columns(
        pl.col("site").cast(kinds["site"]), pl.col("player").cast(kinds["player"])
    )
    joined = frame.join(keyed, on=["site", "player"], how="left", maintain_order="left")
    return joined.with_columns(
        player=pl.coalesce(pl.col("person"), pl.col("player").cast(pl.String)),
        player_site=pl.coalesce(pl.col("person_site"), pl.col("site").cast(pl.String)),
    ).drop("person", "person_site")


def stud_stats(
    frames: Frames, per_hand: pl.DataFrame, people: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Per player and game: the stud statistics (see README "Reports" for definitions), from
    the per-hand flags of `hand_flags` (accounts relabelled as their persons: `identify`)."""
    return stud_ratios(stud_counts(identify(per_hand, people)), aggression_counts(frames, people))


STAT_COUNTS = {
    "hands": pl.len(),
    "vpip": pl.col("vpip").sum(),
    "aggressive_first": pl.col("aggressive_first").sum(),
    "had_bring_in": pl.col("had_bring_in").sum(),
    "completed_bring_in": pl.col("completed_bring_in").sum(),
    "steal_chance": pl.col("steal_chance").sum(),
    "steal": pl.col("steal").sum(),
    "steal_won": pl.col("steal_won").sum(),
    "fold_to_steal": pl.col("fold_to_steal").sum(),
    "steal_faced": pl.col("steal_faced").sum(),
    "three_bet": pl.col("three_bet").sum(),
    "three_bet_chance": pl.col("three_bet_chance").sum(),
    "saw_4": pl.col("saw_4").sum(),
    "saw_5": pl.col("saw_5").sum(),
    "saw_6": pl.col("saw_6").sum(),
    "saw_7": pl.col("saw_7").sum(),
    "showdown": pl.col("showdown").sum(),
    "won_showdown": pl.col("won_showdown").sum(),
    "won_no_showdown": pl.col("won_no_showdown").sum(),
    "scoop": pl.col("scoop").sum(),
    "won_high_showdown": (pl.col("won_high") & pl.col("showdown")).sum(),
    "won_low_showdown": (pl.col("won_low") & pl.col("showdown")).sum(),
    "quartered": pl.col("quartered").sum(),
    "no_low_hand": pl.col("no_low_hand").sum(),
    "qualifying_low": pl.col("qualifying_low").sum(),
    "known_seven": pl.col("known_seven").sum(),
}
"""What the statistics count per player and game, from `hand_flags`: sums, so that the
counts of separate sets of hands add up (a report over many hands counts them in parts)."""


def stud_counts(per_hand: pl.DataFrame) -> pl.DataFrame:
    """Per player and game, the counts behind the statistics (`STAT_COUNTS`, as Int64)."""
    return per_hand.group_by(*PLAYER, "game").agg(
        expression.cast(pl.Int64).alias(name) for name, expression in STAT_COUNTS.items()
    )


def stud_ratios(counts: pl.DataFrame, aggression: pl.DataFrame) -> pl.DataFrame:
    """The statistics from `stud_counts` and `aggression_counts` (added up over any parts)."""
    ratio = _ratio
    c = pl.col
    stats = counts.select(
        *PLAYER,
        "game",
        hands=c("hands").cast(pl.UInt32),
        vpip=ratio(c("vpip"), c("hands")),
        complete_raise=ratio(c("aggressive_first"), c("hands")),
        bring_ins=c("had_bring_in").cast(pl.UInt32),
        bring_in_completed=ratio(c("completed_bring_in"), c("had_bring_in")),
        steal_chances=c("steal_chance").cast(pl.UInt32),
        steal=ratio(c("steal"), c("steal_chance")),
        steal_success=ratio(c("steal_won"), c("steal")),
        fold_to_steal=ratio(c("fold_to_steal"), c("steal_faced")),
        three_bet=ratio(c("three_bet"), c("three_bet_chance")),
        saw_4th=ratio(c("saw_4"), c("hands")),
        saw_5th=ratio(c("saw_5"), c("hands")),
        saw_6th=ratio(c("saw_6"), c("hands")),
        saw_7th=ratio(c("saw_7"), c("hands")),
        went_to_showdown=ratio(c("showdown"), c("saw_4")),
        won_at_showdown=ratio(c("won_showdown"), c("showdown")),
        won_without_showdown=ratio(c("won_no_showdown"), c("hands")),
        showdowns=c("showdown").cast(pl.UInt32),
        scoop=ratio(c("scoop"), c("showdown")),
        won_high=ratio(c("won_high_showdown"), c("showdown")),
        won_low=ratio(c("won_low_showdown"), c("showdown")),
        quartered=ratio(c("quartered"), c("showdown")),
        no_low_qualified=c("no_low_hand").cast(pl.UInt32),
        qualifying_low=ratio(c("qualifying_low"), c("known_seven")),
    )
    low_games = pl.col("game").is_in(_LOW_GAMES)
    stats = stats.with_columns(
        [
            pl.when(pl.col("game").is_in(_SPLIT_GAMES)).then(pl.col(name)).alias(name)
            for name in ("scoop", "won_high", "won_low", "quartered", "no_low_qualified")
        ]
        + [pl.when(low_games).then(pl.col("qualifying_low")).alias("qualifying_low")]
    )
    return stats.join(_aggression(aggression), on=[*PLAYER, "game"], how="left").sort(
        *PLAYER, "game"
    )


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    """numerator / denominator as a share, null (not a division by zero) without chances."""
    return pl.when(denominator > 0).then(numerator / denominator)


def hand_flags(frames: Frames, rows: pl.DataFrame) -> pl.DataFrame:
    """One row per player per hand with boolean columns for every statistic's chance and
    event. Built from running counts over the actions of each hand's first street."""
    # One integer per (hand, player) pair, made once: every group-by and join below is on it
    # instead of on two columns, one of them text (a part of 100,000 hands: 1.26 -> 1.08
    # CPU s for the flags and their counts). The player's half is the name's categorical
    # code: Polars (1.32 on) numbers categories once per process, so that the codes of
    # `rows` and `frames.actions` agree.
    pair = (pl.col("hk").cast(pl.Int64) * (1 << 32)) + pl.col("player").cast(
        pl.Categorical
    ).to_physical().cast(pl.Int64)
    hk = pl.col("hk")
    if frames.actions["hk"].is_sorted():
        # As they should be (see below); marked so, the group-bys and joins by hand below
        # take Polars' paths for sorted keys (a part of 100,000 hands: 0.93 -> 0.79 CPU s).
        # Checked, not assumed: a wrong mark would give wrong answers.
        hk = hk.set_sorted()
    actions = frames.actions.select(hk, "street", "kind", _pair=pair)
    # Per hand: its first betting street (3rd, or 2nd in 5-card stud), its last street with
    # an action and how many players were dealt in.
    streets = (
        actions.group_by("hk")
        .agg(first=pl.col("street").min(), last_action_street=pl.col("street").max())
        .join(rows.group_by("hk").agg(dealt=pl.len()), on="hk", how="left")
    )
    # Actions arrive sorted by hand and sequence: the first street's stay so.
    third = (
        actions.join(streets, on="hk", how="left", maintain_order="left")
        .filter(pl.col("street") == pl.col("first"))
        .select("hk", "kind", "dealt", "_pair")
    )
    third = third.with_columns(
        aggressive=pl.col("kind").is_in(AGGRESSIVE),
        voluntary=pl.col("kind").is_in(VOLUNTARY),
        _first=(pl.col("hk") != pl.col("hk").shift(1)).fill_null(True),
        _last=(pl.col("hk") != pl.col("hk").shift(-1)).fill_null(True),
    )
    third = third.with_columns(
        index=_before(pl.col("hk").is_not_null()),
        bets_before=_before(pl.col("aggressive")),
        voluntary_before=_before(pl.col("voluntary")),
        voluntary_after=_after(pl.col("voluntary")),
    )
    # A steal: completing when only the bring-in and folds came before, with at most two
    # players other than the bring-in left to act after the completer. (The counts are
    # unsigned: no subtraction, which would wrap where more acted than were dealt in.)
    steal_chance = (
        (pl.col("index") > 0)
        & (pl.col("voluntary_before") == 0)
        & (pl.col("index") < pl.col("dealt"))
        & (pl.col("dealt") <= pl.col("index") + 3)
    )
    third = third.with_columns(steal_chance=steal_chance)
    third = third.with_columns(steal=pl.col("steal_chance") & pl.col("aggressive"))
    third = third.with_columns(after_steal=_before(pl.col("steal")) > 0)
    third = third.with_columns(
        answered=_before(pl.col("voluntary") & pl.col("after_steal")),
    )
    third = third.with_columns(
        steal_faced=pl.col("after_steal") & (pl.col("answered") == 0),
        steal_won=pl.col("steal") & (pl.col("voluntary_after") == 0),
        three_bet_chance=pl.col("bets_before") == 1,
    )
    # Per pair, sorted by pair: the group-bys and joins by pair below then take Polars'
    # paths for sorted keys (several times faster than hashing).
    third_flags = (
        third.sort("_pair")
        .group_by("_pair")
        .agg(
            vpip=pl.col("voluntary").any(),
            aggressive_first=pl.col("aggressive").any(),
            had_bring_in=(pl.col("index") == 0).any(),
            completed_bring_in=((pl.col("index") == 0) & pl.col("aggressive")).any(),
            steal_chance=pl.col("steal_chance").any(),
            steal=pl.col("steal").any(),
            steal_won=pl.col("steal_won").any(),
            steal_faced=pl.col("steal_faced").any(),
            fold_to_steal=(pl.col("steal_faced") & (pl.col("kind") == "fold")).any(),
            three_bet_chance=pl.col("three_bet_chance").any(),
            three_bet=(pl.col("three_bet_chance") & (pl.col("kind") == "raise")).any(),
        )
    )
    folds = (
        actions.filter(pl.col("kind") == "fold")
        .sort("_pair")
        .group_by("_pair")
        .agg(fold_street=pl.col("street").min())
    )
    # Sorted by hand (and pair), so that per-hand totals are linear running counts (see
    # `_before`).
    hand = (
        rows.select("hk", "site", "player", "game", "collected", "cards", "won_high", "won_low")
        .with_columns(_pair=pair)
        .sort("_pair")
        .join(folds, on="_pair", how="left", maintain_order="left")
        .join(
            streets.select("hk", "last_action_street"), on="hk", how="left", maintain_order="left"
        )
        .with_columns(
            _first=(pl.col("hk") != pl.col("hk").shift(1)).fill_null(True),
            _last=(pl.col("hk") != pl.col("hk").shift(-1)).fill_null(True),
            won_low=pl.col("won_low").fill_null(False),
            won_high=pl.col("won_high").fill_null(False),
            _won=pl.col("collected").fill_null(0) > 0,
            _live=pl.col("fold_street").is_null(),
        )
    )
    hand = hand.with_columns(
        live_at_end=_in_hand(pl.col("_live")),
        _low_winners=_in_hand(pl.col("won_low")),
        _high_winners=_in_hand(pl.col("won_high")),
        _winners=_in_hand(pl.col("_won")),
    )
    live = pl.col("_live")
    won = pl.col("_won")
    showdown_hand = pl.col("live_at_end") >= 2
    final_street = pl.col("game").replace_strict(LAST_STREET, default=7, return_dtype=pl.Int8)
    reached = pl.when(showdown_hand).then(final_street).otherwise(pl.col("last_action_street"))
    hand = hand.with_columns(
        [
            ((reached >= street) & (live | (pl.col("fold_street") >= street))).alias(
                f"saw_{street}"
            )
            for street in (4, 5, 6, 7)
        ]
        + [
            (showdown_hand & live).alias("showdown"),
            (showdown_hand & live & won).alias("won_showdown"),
            (~showdown_hand & live & won).alias("won_no_showdown"),
            (pl.col("_low_winners") >= 2).alias("_low_shared"),
            ((pl.col("_high_winners") >= 1) & (pl.col("_low_winners") == 0) & showdown_hand).alias(
                "_no_low"
            ),
            (pl.col("_winners") == 1).alias("_single_winner"),
        ]
    )
    unknown = pl.col("cards").fill_null("??").str.contains("?", literal=True)
    known_seven = pl.col("showdown") & ~unknown
    hand = hand.with_columns(known_seven=known_seven)
    # Only showdowns of low games with all seven cards known need their ranks read: the
    # string work is done on those rows alone, taken out and the answers put back in place
    # (false elsewhere).
    read = hand.select(pl.arg_where(pl.col("known_seven") & pl.col("game").is_in(_LOW_GAMES)))
    judged = hand[read.to_series()].select(_qualifying_low(pl.col("cards"))).to_series()
    qualifying = pl.repeat(False, hand.height, dtype=pl.Boolean, eager=True)
    hand = hand.with_columns(
        scoop=pl.col("showdown") & won & pl.col("_single_winner"),
        quartered=pl.col("showdown") & pl.col("won_low") & pl.col("_low_shared"),
        no_low_hand=pl.col("showdown") & pl.col("_no_low"),
        qualifying_low=qualifying.scatter(read.to_series(), judged),
    )
    flags = hand.join(third_flags, on="_pair", how="left", maintain_order="left").drop("_pair")
    booleans = [name for name, dtype in flags.schema.items() if dtype == pl.Boolean]
    return flags.with_columns(pl.col(booleans).fill_null(False))


def _before(flag: pl.Expr) -> pl.Expr:
    """How many rows of the same hand before this one have `flag` (rows sorted by hand, with
    `_first` marking each hand's first row). A running total minus its value at the hand's
    start: linear, where `.over("hk")` would hash every row into its group."""
    counts = flag.cast(pl.UInt32)
    before = counts.cum_sum() - counts
    return before - pl.when(pl.col("_first")).then(before).forward_fill()


def _in_hand(flag: pl.Expr) -> pl.Expr:
    """How many rows of this row's hand have `flag` (see `_before`)."""
    return _before(flag) + flag.cast(pl.UInt32) + _after(flag)


def _after(flag: pl.Expr) -> pl.Expr:
    """How many rows of the same hand after this one have `flag` (see `_before`)."""
    counts = flag.cast(pl.UInt32)
    after = counts.cum_sum(reverse=True) - counts
    return after - pl.when(pl.col("_last")).then(after).backward_fill()


def _qualifying_low(cards: pl.Expr) -> pl.Expr:
    """Whether the best low of the cards (rows of low games) is 8 or better, the way the game
    ranks its lows: by the rules' evaluator (`_eight_or_better`)."""
    return pl.struct(game=pl.col("game").cast(pl.String), cards=cards).map_batches(
        _eight_or_better, return_dtype=pl.Boolean
    )


def _eight_or_better(rows: pl.Series) -> pl.Series:
    """Whether the best low of each row's cards ("As 2d 2c 7h ...", 5 to 7 of them; null or
    any other number: false) is 8 or better, ranked the row's game's way: its
    `evaluate.low_rank_batch` at least `evaluate.low_floor(8)`'s (five distinct ranks up to
    the eight in the ace-to-five games; no pair, straight or flush, eight high or lower, in
    2-7 razz and London lowball). Every row of a lowball and a size in one NumPy batch."""
    cards = rows.struct.field("cards")
    parsed = cards.str.extract_all(r"[2-9TJQKA][cdhs]")
    sizes = parsed.list.len().fill_null(0).to_numpy().astype(np.int64)
    flat = (
        parsed.explode().drop_nulls().replace_strict(_CARD_INDEX, return_dtype=pl.Int64).to_numpy()
    )
    starts = np.cumsum(sizes) - sizes
    lowballs = (
        rows.struct.field("game")
        .replace_strict(_LOWBALL_NUMBER, default=-1, return_dtype=pl.Int8)
        .to_numpy()
    )
    result = np.zeros(len(rows), dtype=bool)
    for number, lowball in enumerate(_LOWBALLS):
        floor = evaluate.low_floor(8, lowball)
        for size in (5, 6, 7):
            chosen = np.flatnonzero((sizes == size) & (lowballs == number))
            if chosen.size:
                hands = flat[starts[chosen, np.newaxis] + np.arange(size)]
                result[chosen] = evaluate.low_rank_batch(hands, None, lowball) >= floor
    return pl.Series(cards.name, result)


def aggression_counts(
    frames: Frames, people: pl.DataFrame | None = None, by: Sequence[str] = ("game",)
) -> pl.DataFrame:
    """Per player, game (or the hands' columns `by`) and street: aggressive actions
    (completions, bets, raises), calls and all actions but the bring-in (sums: the counts
    of parts add up)."""
    actions = frames.actions.filter(pl.col("kind") != "bring_in")
    columns = list(dict.fromkeys([*by, "site"]))
    return (
        identify(with_hand_columns(frames.hands, actions, columns), people)
        .group_by(*PLAYER, *by, "street")
        .agg(
            aggressive=pl.col("kind").is_in(AGGRESSIVE).sum().cast(pl.Int64),
            calls=(pl.col("kind") == "call").sum().cast(pl.Int64),
            actions=pl.len().cast(pl.Int64),
        )
    )


def _aggression(counted: pl.DataFrame) -> pl.DataFrame:
    """Aggression factor ((bets + raises) / calls) and frequency ((bets + raises) / all
    actions but the bring-in) per street, as columns af_3 .. af_7 and afq_3 .. afq_7, from
    `aggression_counts`."""
    counted = counted.with_columns(
        af=_ratio(pl.col("aggressive").cast(pl.Float64), pl.col("calls")),
        afq=_ratio(pl.col("aggressive").cast(pl.Float64), pl.col("actions")),
    )
    wide = counted.pivot(
        on="street", index=[*PLAYER, "game"], values=["af", "afq"], aggregate_function="first"
    )
    wanted = [f"{kind}_{street}" for kind in ("af", "afq") for street in range(3, 8)]
    renames = {}
    for column in wide.columns:
        if column.startswith(("af_", "afq_")):
            kind, _, street = column.partition("_")
            renames[column] = f"{kind}_{street.rsplit('_', 1)[-1]}"
    wide = wide.rename(renames)
    missing = [pl.lit(None, pl.Float64).alias(name) for name in wanted if name not in wide.columns]
    return wide.with_columns(missing).select(*PLAYER, "game", *wanted)


def flag_counts(frames: Frames) -> dict[str, pl.DataFrame]:
    """Violations counted by kind and code and by site, table, day: the faults only, the
    flags that follow from one (`cause`) being part of it rather than flags of their own."""
    violations = frames.violations.filter(pl.col("cause").is_null()).with_columns(
        day=pl.col("start_utc").dt.date(),
    )
    hands = pl.col("hk").n_unique().alias("hands")
    return {
        "by_code": violations.group_by("kind", "code")
        .agg(pl.len().alias("flags"), hands)
        .sort("kind", "flags", "code", descending=[False, True, False]),
        "by_site": violations.group_by("site").agg(pl.len().alias("flags"), hands).sort("site"),
        "by_table": violations.group_by("site", "table_name")
        .agg(pl.len().alias("flags"), hands)
        .sort("flags", "site", "table_name", descending=[True, False, False]),
        "by_day": violations.group_by("day").agg(pl.len().alias("flags"), hands).sort("day"),
    }


def flagged_hands(frames: Frames, kind: str) -> pl.DataFrame:
    """Every flag of one kind (illegal, mis-split, inconsistent) with file, line, hand, code
    and message, in play order; a flag that follows from a fault names it (`follows`: its
    code and line), right after it."""
    violations = frames.violations
    causes = violations.select(
        "hk",
        pl.col("seq").alias("cause"),
        pl.format("{} (line {})", "code", "line").alias("follows"),
    )
    return (
        violations.filter(pl.col("kind") == kind)
        .join(causes, on=["hk", "cause"], how="left", maintain_order="left")
        .with_columns(root=pl.coalesce("cause", "seq"))
        .sort("hk", "root", pl.col("cause").is_not_null(), "seq", maintain_order=True)
        .select("file", "line", "site", "hand_id", "code", "follows", "street", "player", "message")
    )
