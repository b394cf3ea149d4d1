"""The report's charts as PNG files (matplotlib, headless Agg backend).

Three charts: cumulative net won over hands for the focus players (total, showdown and
non-showdown lines, in big bets so that stakes and currencies add up), big bets/100 by game
with 95% intervals, and flags by code. Each has a title, axis labels with units and a
legend where there is more than one series.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

MAX_POINTS = 4000
"""Lines are thinned to about this many points per series: a 200,000-hand line draws the
same picture from 4,000 evenly spaced points in a fraction of the time."""


def _pyplot():  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 100, "axes.grid": True, "grid.alpha": 0.3})
    return plt


def cumulative(rows: pl.DataFrame, players: list[str], path: Path) -> Path | None:
    """Cumulative net won (big bets) per player over their hands in play order: the total,
    the part won or lost in hands that went to showdown, and the part without showdown."""
    if not players:
        return None
    plt = _pyplot()
    figure, axes = plt.subplots(
        len(players), 1, figsize=(9, 3.2 * len(players)), squeeze=False, sharex=False
    )
    for axis, player in zip(axes[:, 0], players, strict=True):
        mine = rows.filter(pl.col("player") == player).sort("hk")
        at_showdown = mine["went_to_showdown"]
        bb = mine["bb"].fill_nan(0).fill_null(0)
        total = bb.cum_sum()
        showdown = (bb * at_showdown.cast(pl.Float64)).cum_sum()
        other = total - showdown
        step = max(1, len(mine) // MAX_POINTS)
        x = list(range(1, len(mine) + 1))[::step]
        axis.plot(x, total.to_list()[::step], label="net won", color="black", linewidth=1.6)
        axis.plot(x, showdown.to_list()[::step], label="at showdown", color="tab:blue")
        axis.plot(x, other.to_list()[::step], label="without showdown", color="tab:red")
        axis.axhline(0, color="grey", linewidth=0.8)
        axis.set_title(f"{player}: cumulative net won over {len(mine):,} hands")
        axis.set_xlabel("hands played")
        axis.set_ylabel("net won (big bets)")
        axis.legend(loc="best", fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def by_game(table: pl.DataFrame, path: Path) -> Path | None:
    """Big bets/100 per player and game with the 95% confidence interval as error bars
    (`table`: one row per player and game, as `compute.winrates` makes it)."""
    table = table.filter(pl.col("bb_per_100").is_not_null())  # pot and no limit: no big bet
    if table.is_empty():
        return None
    plt = _pyplot()
    table = table.sort("player", "game", "structure")
    labels = [
        f"{player}\n{game}" + ("" if structure == "fixed" else f" ({structure} limit)")
        for player, game, structure in zip(
            table["player"], table["game"], table["structure"], strict=True
        )
    ]
    values = table["bb_per_100"].to_list()
    low = table["ci_low"].to_list()
    high = table["ci_high"].to_list()
    errors = [
        [v - lo if lo is not None else 0 for v, lo in zip(values, low, strict=True)],
        [hi - v if hi is not None else 0 for v, hi in zip(values, high, strict=True)],
    ]
    colours = ["tab:green" if v >= 0 else "tab:red" for v in values]
    figure, axis = plt.subplots(figsize=(max(6, 1.1 * len(labels) + 2), 4.5))
    axis.bar(labels, values, yerr=errors, capsize=4, color=colours)
    from matplotlib.patches import Patch

    axis.legend(
        handles=[Patch(color="tab:green", label="winning"), Patch(color="tab:red", label="losing")],
        loc="best",
        fontsize="small",
    )
    axis.axhline(0, color="grey", linewidth=0.8)
    axis.set_title("Win-rate by game (error bars: 95% confidence interval)")
    axis.set_xlabel("player and game")
    axis.set_ylabel("big bets per 100 hands")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def flags(by_code: pl.DataFrame, path: Path) -> Path | None:
    """Flags per violation code, illegal actions, mis-split pots and inconsistent histories
    in three colours."""
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(8, max(2.5, 0.4 * by_code.height + 1.5)))
    if by_code.is_empty():
        axis.text(0.5, 0.5, "no flagged hands", ha="center", va="center", fontsize=14)
        axis.set_xticks([])
        axis.set_yticks([])
    else:
        # A code found as two kinds (POT_TOTAL mis-split here, inconsistent there) gets a
        # bar for each, named with its kind.
        twice = pl.col("code").count().over("code") > 1
        ordered = by_code.sort("flags").with_columns(
            label=pl.when(twice)
            .then(pl.format("{} ({})", "code", "kind"))
            .otherwise(pl.col("code"))
        )
        colours = {"illegal": "tab:orange", "mis-split": "tab:purple", "inconsistent": "tab:gray"}
        for kind, colour in colours.items():
            part = ordered.filter(pl.col("kind") == kind)
            if part.height:
                axis.barh(
                    part["label"].to_list(), part["flags"].to_list(), color=colour, label=kind
                )
        axis.legend(loc="lower right", fontsize="small")
        axis.set_xlabel("faults (the flags that follow from one not counted)")
        axis.set_ylabel("code")
    axis.set_title("Flags by code")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
