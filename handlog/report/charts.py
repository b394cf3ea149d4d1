"""The report's charts as PNG files (matplotlib, headless Agg backend).

Three charts: cumulative net won over hands for the focus players, one panel per player and
unit (total, showdown and non-showdown lines, in that unit: two units never share a line
or an axis), big bets/100 by player, game and unit with 95% intervals, and flags by code.
Each has a title, axis labels with units and a legend where there is more than one series.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from handlog import units

MAX_POINTS = 4000
"""Lines are thinned to about this many points per series: a 200,000-hand line draws the
same picture from 4,000 evenly spaced points in a fraction of the time."""


def _pyplot():  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 100, "axes.grid": True, "grid.alpha": 0.3})
    return plt


def cumulative(
    rows: pl.DataFrame, players: list[tuple[str, str]], path: Path, most: int = 6
) -> Path | None:
    """Cumulative net won per player (site, name) and unit over their hands of that unit in
    play order: the total, the part won or lost in hands that went to showdown, and the part
    without showdown; one panel per player and unit (at most `most`, the players' units
    with the most hands first)."""
    if not players or rows.is_empty():
        return None
    panels: list[tuple[str, str, str, pl.DataFrame]] = []
    for site, player in players:
        mine = rows.filter((pl.col("player_site") == site) & (pl.col("player") == player))
        by_unit = mine.group_by("unit").len().sort(["len", "unit"], descending=[True, False])
        for (unit,) in by_unit.select("unit").iter_rows():
            panels.append((site, player, unit, mine.filter(pl.col("unit") == unit).sort("hk")))
    panels = panels[:most]
    if not panels:
        return None
    plt = _pyplot()
    figure, axes = plt.subplots(
        len(panels), 1, figsize=(9, 3.2 * len(panels)), squeeze=False, sharex=False
    )
    for axis, (site, player, unit, mine) in zip(axes[:, 0], panels, strict=True):
        at_showdown = mine["went_to_showdown"].fill_null(False)
        net = mine["net"].cast(pl.Float64).fill_null(0) * units.in_major_units(1.0, unit)
        total = net.cum_sum()
        showdown = (net * at_showdown.cast(pl.Float64)).cum_sum()
        other = total - showdown
        step = max(1, len(mine) // MAX_POINTS)
        # From 0 before the first hand: a line however few hands there are.
        x = [0, *list(range(1, len(mine) + 1))[::step]]
        marker = "o" if len(mine) <= 30 else None
        for values, label, colour in (
            (total, "net won", "black"),
            (showdown, "at showdown", "tab:blue"),
            (other, "without showdown", "tab:red"),
        ):
            axis.plot(
                x,
                [0.0, *values.to_list()[::step]],
                label=label,
                color=colour,
                linewidth=1.6 if label == "net won" else 1.0,
                marker=marker,
                markersize=3,
            )
        axis.axhline(0, color="grey", linewidth=0.8)
        axis.set_title(f"{player} ({site}), {unit}: cumulative net won over {len(mine):,} hands")
        axis.set_xlabel(f"hands played in {unit}")
        axis.set_ylabel(f"net won ({_axis_unit(unit)})")
        axis.legend(loc="best", fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path


def _axis_unit(unit: str) -> str:
    """A unit as an axis says it: "USD", "tournament chips", "chips" (hundredths shown as
    chips with decimals)."""
    return "chips" if unit == units.HUNDREDTHS else unit


def by_game(table: pl.DataFrame, path: Path) -> Path | None:
    """Big bets/100 per player and game with the 95% confidence interval as error bars
    (`table`: one row per player and game, as `compute.winrates` makes it)."""
    table = table.filter(pl.col("bb_per_100").is_not_null())  # pot and no limit: no big bet
    if table.is_empty():
        return None
    plt = _pyplot()
    table = table.sort("player", "player_site", "game", "unit", "structure")
    labels = [
        f"{player} ({site})\n{game}, {unit}"
        + ("" if structure == "fixed" else f"\n{structure} limit")
        for player, site, game, unit, structure in zip(
            table["player"],
            table["player_site"],
            table["game"],
            table["unit"],
            table["structure"],
            strict=True,
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
    figure, axis = plt.subplots(figsize=(min(max(6, 1.3 * len(labels) + 2), 24), 5))
    axis.bar(labels, values, yerr=errors, capsize=4, color=colours)
    from matplotlib.patches import Patch

    axis.legend(
        handles=[Patch(color="tab:green", label="winning"), Patch(color="tab:red", label="losing")],
        loc="best",
        fontsize="small",
    )
    axis.axhline(0, color="grey", linewidth=0.8)
    axis.set_title("Win-rate by game (error bars: 95% confidence interval)")
    axis.set_xlabel("player (site), game and unit: one bar each")
    axis.set_ylabel("BB/100 (big bets won per 100 hands)")
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
