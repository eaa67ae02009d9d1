"""The figures of a sweep: for every swept axis, mean game score against the axis's values, one line per agent.

Each figure has one panel per combination of the other swept axes (at most `MAX_PANELS`), all on one y
scale so panels compare at a glance, interval bars on every point, and a caption with the seed, the sample size and
the interval level. Points are joined by lines only along a numeric axis: categorical values (pools, rule names, on
and off) have no order to follow. Nothing here plays games.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from golfsim.core.rules import Rules, auto_decks
from golfsim.runs.figures import subplots
from golfsim.runs.outdir import write_file

MAX_PANELS = 12


def _text(value) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "n/a"
    if isinstance(value, bool | np.bool_):
        return str(bool(value)).lower()
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _fixed_rules(data: pd.DataFrame) -> str:
    """The rule options every row shares that differ from the published game, e.g. ``"3 players, jokers=minus2"``."""
    default = Rules()
    parts = []
    players = data["players"].unique()
    if len(players) == 1:
        parts.append(f"{int(players[0])} players")
    for option in default.to_dict():
        if option == "players":
            continue
        values = data[option].unique()
        if len(values) != 1:
            continue
        value = values[0]
        usual = auto_decks(int(players[0])) if option == "decks" and len(players) == 1 else getattr(default, option)
        if option == "decks" and len(players) != 1:
            continue
        if value != usual:
            parts.append(f"{option}={_text(value)}")
    return ", ".join(parts) if parts else "published rules"


def _count_range(counts: pd.Series) -> str:
    low, high = int(counts.min()), int(counts.max())
    return f"{low:,}" if low == high else f"{low:,}-{high:,}"


def _agent_with_params(row, params) -> str:
    """``"greedy (bot=ev)"``: an agent and the agent-parameter values of its cell, to tell its lines apart."""
    values = ", ".join(f"{a}={_text(row[a])}" for a in params if not pd.isna(row[a]))
    return f"{row['agent']} ({values})" if values else row["agent"]


def _axis_label(axis: str, plan) -> str:
    if axis == "players":
        return "players at the table"
    if axis == "pool":
        return "agent pool"
    if axis in plan.param_axes:
        users = sorted({e for entries in plan.request["pools"].values() for e in entries if "{" + axis + "}" in e})
        return f"{axis} (fills {{{axis}}} in {', '.join(users)})"
    return f"rule option {axis}"


def plot_axis(table: pd.DataFrame, plan, axis: str, path: Path, cells_complete: int) -> Path:
    """Mean game score with interval bars against ``axis``, one line per pool entry, written atomically to
    ``path`` ([`draw_axis`][golfsim.sweep.plots.draw_axis]); returns ``path``."""
    fig = draw_axis(table, plan, axis, cells_complete)
    return write_file(Path(path), lambda tmp: fig.savefig(tmp, format="png"))  # a reader never sees half a figure


def draw_axis(table: pd.DataFrame, plan, axis: str, cells_complete: int):
    """The figure of [`plot_axis`][golfsim.sweep.plots.plot_axis], not saved: one panel per combination of the other
    swept axes."""
    data = table[table[axis].notna()]
    swept = [a for a in plan.axes if table[a].nunique() > 1]
    # Against the pool, lines follow an agent across pools, and agent-parameter axes (which only some pools use)
    # are lines of their own rather than panels; elsewhere a line is a pool entry as written, e.g. ev:w={watch}.
    by_pool = axis == "pool"
    others = [a for a in swept if a != axis and not (by_pool and a in plan.param_axes)]
    series = "_series"
    if by_pool:
        params = [a for a in plan.param_axes if a in swept]
        data = data.assign(_series=[_agent_with_params(row, params) for _, row in data.iterrows()])
    else:
        data = data.assign(_series=data["pool_entry"])
    groups = list(data.groupby(others, dropna=False, sort=False)) if others else [((), data)]
    shown = groups[:MAX_PANELS]
    ncols = len(shown) if len(shown) <= 3 else 2 if len(shown) == 4 else 3
    nrows = math.ceil(len(shown) / ncols)
    fig, axes = subplots(nrows, ncols, figsize=(5.2 * ncols, 3.8 * nrows + 1.6), dpi=110, squeeze=False,
                             sharey=True)
    xs = list(dict.fromkeys(data[axis]))
    numeric = all(isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool | np.bool_)
                  for v in xs)
    position = {v: (float(v) if numeric else float(i)) for i, v in enumerate(xs)}
    span = (max(position.values()) - min(position.values())) if len(xs) > 1 else 1.0
    entries = list(dict.fromkeys(data[series]))
    colours = {e: f"C{i % 10}" for i, e in enumerate(entries)}
    holes = data["holes"].unique()
    for k, (key, panel) in enumerate(shown):
        ax = axes[k // ncols][k % ncols]
        key = key if isinstance(key, tuple) else (key,)
        for j, entry in enumerate(entries):
            rows = panel[panel[series] == entry]
            if rows.empty:
                continue
            dodge = (j - (len(entries) - 1) / 2) * 0.012 * span * (1 if numeric else 4)
            x = np.array([position[v] for v in rows[axis]]) + dodge
            y = rows["mean_score"].to_numpy()
            err = np.vstack([y - rows["mean_score_low"].to_numpy(), rows["mean_score_high"].to_numpy() - y])
            ax.errorbar(x, y, yerr=np.nan_to_num(err), marker="o", markersize=4, capsize=3, linewidth=1.3,
                        linestyle="-" if numeric else "none", color=colours[entry], label=entry)
        title = ", ".join(f"{o}={_text(v)}" for o, v in zip(others, key, strict=True)) or "all cells"
        ax.set_title(textwrap.fill(title, 60), fontsize=8)
        ax.set_xticks(list(position.values()), [_text(v) for v in xs])  # the swept values, not a numeric grid
        if not numeric:
            ax.set_xlim(-0.5, len(xs) - 0.5)
        else:
            ax.margins(x=0.08)
        ax.set_xlabel(_axis_label(axis, plan), fontsize=8)
        ax.set_ylabel(f"mean {int(holes[0])}-hole score (points)" if len(holes) == 1
                      else "mean game total (points)", fontsize=8)
        ax.tick_params(labelleft=True)  # shared scale, but each panel keeps its numbers
        ax.grid(alpha=0.3)
    for k in range(len(shown), nrows * ncols):
        axes[k // ncols][k % ncols].set_visible(False)
    handles, labels = axes[0][0].get_legend_handles_labels()
    for row in axes:
        for ax in row:
            for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
    fig.legend(handles, labels, loc="upper right", fontsize=8,
               title="agent" if by_pool else "agent (as written in the pool)",
               title_fontsize=8)
    level = round(100 * plan.confidence)
    compared = ", ".join(entries) if len(entries) <= 4 else f"{len(entries)} agents"
    fig.suptitle(f"Mean game score vs {axis}, lower is better: {compared}\n"
                 f"rules: {_fixed_rules(data)} (other options as panels)", fontsize=10, x=0.02, ha="left")
    games = data["games"]
    caption = (f"Sweep {plan.name!r}, seed {plan.seed} (each cell's seed derived from it and the cell's rules); "
               f"{plan.games:,} duplicate deal sets per cell, each played in every seat order "
               f"({_count_range(games)} games per agent and cell); bars: {level}% t-intervals over deal "
               "sets.")
    if cells_complete < len(plan.cells):
        caption += f" PARTIAL: {cells_complete} of {len(plan.cells)} cells complete."
    if len(groups) > MAX_PANELS:
        caption += f" Showing {MAX_PANELS} of {len(groups)} panels (all are in the table)."
    fig.text(0.02, 0.005, caption, fontsize=7.5, ha="left", va="bottom", wrap=True)
    fig.tight_layout(rect=(0, 0.05, 0.86, 0.93))
    return fig


def plot_sweep(table: pd.DataFrame, plan, out: Path, cells_complete: int) -> list[Path]:
    """One ``score_vs_<axis>.png`` per axis with more than one value among the complete cells."""
    if table.empty:
        return []
    written = []
    for axis in plan.axes:
        if table[axis].nunique() < 2:  # one value left (the others skipped as impossible, or not played yet)
            continue
        name = "".join(c if c.isalnum() or c in "-_" else "_" for c in axis)
        written.append(plot_axis(table, plan, axis, Path(out) / f"score_vs_{name}.png", cells_complete))
    return written
