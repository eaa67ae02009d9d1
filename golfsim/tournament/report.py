"""Tournament reports: rich tables for the terminal, CSV for machines, and plots (matplotlib figures drawn without
pyplot).

Every function takes a [`golfsim.tournament.TournamentResult`][]; nothing here plays games.
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path
from statistics import NormalDist

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from golfsim.runs.figures import subplots

__all__ = ["caption", "plot_head_to_head", "plot_score_distribution", "print_report", "standings_csv"]


def _num(x, fmt: str = ".2f") -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def _pct(x) -> str:
    return "-" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def caption(result) -> str:
    """One line naming rules, seed and sample size, for titles of tables and plots."""
    cfg = result.config
    partial = ", PARTIAL" if result.partial else ""
    orders = sum(len(t["seat_orders"]) for t in cfg["tables"])
    return (f"{cfg['rules_text']}; seed {cfg['seed']}; {result.deal_sets:,} duplicate deal sets x "
            f"{orders} seat orders ({len(cfg['tables'])} table(s)) = {result.games_played:,} games{partial}")


def _pm(mean, low, high, fmt: str = ".2f", sign: bool = False) -> str:
    """``mean ± half-width`` of a symmetric interval."""
    if mean is None or math.isnan(mean):
        return "-"
    text = format(mean, ("+" if sign else "") + fmt)
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return text
    return f"{text} ± {format((high - low) / 2, fmt)}"


def _range(low, high) -> str:
    """A percentage interval, e.g. ``82.4-83.7``; more decimals where one would show a zero-width interval
    (``0.00-0.01`` for an agent that never won 30,000 games)."""
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return "-"
    for digits in range(1, 6):
        text = f"{100 * low:.{digits}f}-{100 * high:.{digits}f}"
        if f"{100 * low:.{digits}f}" != f"{100 * high:.{digits}f}":
            break
    return text


def _rating(row, z: float, rated: int) -> str:
    """``rating ± z * se`` (the half-width of the run's interval, as for the scores), or the bound of an agent that
    is not rated (never won or never lost against the rest); ``-`` when it is the only rated agent (its rating is
    the anchor, 0, by definition)."""
    standing = getattr(row, "rating_standing", "rated")
    if standing == "rated" and rated < 2:
        return "-"
    if standing == "rated" or standing == "none":
        return _pm(row.rating, row.rating - z * row.rating_se, row.rating + z * row.rating_se, ".0f", sign=True)
    if standing in ("never won", "never lost") and not math.isnan(row.rating_bound):
        return f"{'<' if standing == 'never won' else '>'} {row.rating_bound:+.0f}"
    return f"- ({standing})"


def print_report(result, console: Console | None = None) -> None:
    """Print the standings, play-style and head-to-head tables and the notes on how they were made."""
    console = console or Console()
    cfg = result.config
    holes = cfg["rules"]["holes"]
    level = f"{round(100 * cfg['confidence'])}%"
    title = (f"golfsim tournament: {len(cfg['agents'])} agents, {cfg['schedule']}"
             + (f" (anchor {cfg['anchor']})" if cfg["anchor"] else "") + f" -- {caption(result)}")
    standings = result.standings
    rated = int((standings["rating_standing"] == "rated").sum()) if "rating_standing" in standings else len(standings)
    z = NormalDist().inv_cdf(0.5 + cfg["confidence"] / 2)
    alone = "; -: the only rated agent (its rating is 0 by definition)" if rated == 1 else ""
    table = RichTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                      caption=f"every ±: {level} CI half-width. score: mean {holes}-hole total (over deal sets); "
                              f"wins: win rate, ties shared, {level} Wilson interval; rating: "
                              "0 = mean of the rated agents; < r: never won, rating below r, > r: never lost, "
                              f"above r ({level} bounds){alone}", caption_justify="left")
    for col in ("#", "agent", f"{holes}-hole score", "per hole", "wins", f"{level} CI", "rating"):
        table.add_column(col, justify="left" if col == "agent" else "right", no_wrap=True)
    for row in result.standings.itertuples(index=False):
        table.add_row(
            str(row.rank), row.agent, _pm(row.mean_score, row.mean_score_low, row.mean_score_high),
            _num(row.mean_hole_score, ".3f"), _pct(row.win_rate), _range(row.win_rate_low, row.win_rate_high),
            _rating(row, z, rated),
        )
    console.print(table)

    # short headings, explained in the caption: the table fits an 80-column terminal without cutting one
    style = RichTable(title="how they played", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                      caption=f"went out: share of its deals the agent ended by going out ({level} Wilson "
                              "interval); out & won: share of those it won; turns: turns per deal, all players; "
                              "cut off: deals ended by the turn cap", caption_justify="left")
    for col in ("agent", "went out", f"{level} CI", "out & won", "turns", "cut off", "games"):
        style.add_column(col, justify="left" if col == "agent" else "right", no_wrap=True)
    for row in result.standings.itertuples(index=False):
        style.add_row(row.agent, _pct(row.went_out_rate), _range(row.went_out_rate_low, row.went_out_rate_high),
                      _pct(row.out_win_rate), _num(row.mean_turns, ".1f"), f"{row.truncated_deals:,}",
                      f"{row.games:,}")
    console.print(style)

    head = result.head_to_head
    if len(head):
        rank = {a: i for i, a in enumerate(result.standings["agent"])}
        keep = head[[rank[a] < rank[b] for a, b in zip(head["agent"], head["opponent"], strict=True)]]
        keep = keep.assign(_r1=[rank[a] for a in keep["agent"]], _r2=[rank[b] for b in keep["opponent"]])
        keep = keep.sort_values(["_r1", "_r2"])
        h2h = RichTable(title=f"head to head on identical deals: paired mean of agent - opponent, {holes}-hole "
                              "totals (negative = agent lower)", title_justify="left", box=box.SIMPLE_HEAD,
                        pad_edge=False, caption="ahead: share of their games the agent finished ahead, ties half",
                        caption_justify="left")
        for col in ("agent", "opponent", f"diff ± {level} CI", "ahead", f"{level} CI", "games"):
            h2h.add_column(col, justify="left" if col in ("agent", "opponent") else "right", no_wrap=True)
        for row in keep.itertuples(index=False):
            h2h.add_row(row.agent, row.opponent, _pm(row.mean_diff, row.mean_diff_low, row.mean_diff_high, sign=True),
                        _pct(row.win_rate), _range(row.win_rate_low, row.win_rate_high), f"{row.games:,}")
        console.print(h2h)
    for line in result.notes():
        # wrapped at word boundaries in a terminal; one line each when piped, for grep
        console.print(line, style="bold yellow" if line.startswith("PARTIAL") else None, highlight=False,
                      soft_wrap=not console.is_terminal)


def standings_csv(result) -> str:
    """The standings (ratings included) as CSV text."""
    buf = io.StringIO()
    result.standings.to_csv(buf, index=False)
    return buf.getvalue()


def plot_score_distribution(result, path) -> Path:
    """Histogram of every agent's N-hole totals, best agent first; returns ``path``."""
    holes = result.config["rules"]["holes"]
    counts = result.score_counts()
    order = list(result.standings["agent"])
    fig, ax = subplots(figsize=(9, 5.5), dpi=110)
    values = [counts[a] for a in order if counts[a]]
    if values:
        lo, hi = min(min(c) for c in values), max(max(c) for c in values)
        width = max(1, math.ceil((hi - lo + 1) / 60))
        bins = np.arange(lo, hi + width + 1, width) - 0.5
        for agent in order:
            if not counts[agent]:
                continue
            totals = np.fromiter(counts[agent], np.float64)
            games = np.fromiter(counts[agent].values(), np.float64)
            n = games.sum()
            mean = float(totals @ games / n)
            _, _, patches = ax.hist(totals, bins=bins, weights=games / n, histtype="step", linewidth=1.6,
                                    label=f"{agent} (mean {mean:.1f}, n={int(n):,})")
            ax.axvline(mean, linewidth=0.8, linestyle=":", color=patches[0].get_edgecolor())
        ax.legend(fontsize=8)
        ax.set_ylabel(f"share of games per {width}-point bin")
    else:
        ax.text(0.5, 0.5, "no complete deal set", ha="center", va="center", transform=ax.transAxes)
        ax.set_ylabel("share of games")
    ax.set_xlabel(f"{holes}-hole total score (points; lower is better)")
    ax.set_title(f"Score distribution per agent\n{caption(result)}", fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path)
    return path


def agent_label(agent: str, width: int = 24) -> str:
    """``agent`` broken into lines of about ``width`` characters for an axis: after a comma or before an opening
    parenthesis (``mc:rollout=(learned:model=2),base=...``), never inside a name; a short name is unchanged."""
    if len(agent) <= width:
        return agent
    pieces = re.split(r"(?<=,)|(?=\()", agent)
    lines = [""]
    for piece in pieces:
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(lines)


SMALLEST_COLOUR_SCALE = 5.0
"""Points at which the head-to-head colours saturate at the least: a gap smaller than this is drawn pale, so a
match within noise (a few tenths of a point) never looks like a rout."""


def head_to_head_figure(result):
    """The matplotlib figure of [`plot_head_to_head`][golfsim.tournament.report.plot_head_to_head]."""
    holes = result.config["rules"]["holes"]
    order = list(result.standings["agent"])
    k = len(order)
    idx = {a: i for i, a in enumerate(order)}
    mat = np.full((k, k), np.nan)
    half = np.full((k, k), np.nan)
    for row in result.head_to_head.itertuples(index=False):
        mat[idx[row.agent], idx[row.opponent]] = row.mean_diff
        half[idx[row.agent], idx[row.opponent]] = (row.mean_diff_high - row.mean_diff_low) / 2
    labels = [agent_label(a) for a in order]
    longest = max(len(line) for label in labels for line in label.split("\n"))
    lines = max(label.count("\n") + 1 for label in labels)
    label_inches = 0.075 * longest  # 8-10 point text: about 0.075 inch a character
    fig, ax = subplots(figsize=(2.6 + 1.1 * k + label_inches, 2.0 + 0.9 * k + 0.6 * label_inches + 0.1 * lines),
                       dpi=110)
    from matplotlib.colors import SymLogNorm

    finite = mat[np.isfinite(mat)]
    lim = max(float(np.abs(finite).max()) if finite.size else 0.0, SMALLEST_COLOUR_SCALE)
    # A weak agent's huge gaps would wash out the close matches on a linear scale: linear up to lim / 30, log beyond.
    linear = max(lim / 30, 1.0)
    norm = SymLogNorm(linthresh=linear, vmin=-lim, vmax=lim, base=10)
    im = ax.imshow(np.ma.masked_invalid(mat), cmap="RdBu_r", norm=norm)
    for i in range(k):
        for j in range(k):
            if i == j:
                text = ""
            elif not np.isfinite(mat[i, j]):
                text = "n/a"
            else:
                text = f"{mat[i, j]:+.1f}" + (f"\n±{half[i, j]:.1f}" if np.isfinite(half[i, j]) else "")
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="white" if np.isfinite(mat[i, j]) and abs(norm(mat[i, j]) - 0.5) > 0.35 else "black")
    ax.set_xticks(range(k), labels, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(k), labels, fontsize=8)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ends = float(f"{lim:.2g}") if float(f"{lim:.2g}") <= lim else float(f"{lim * 0.95:.2g}")
    marks = sorted({e for e in [10.0**e for e in range(-1, 6)] + [ends] if linear <= e <= lim and e <= ends
                    and (e == ends or e <= 0.6 * ends)})
    bar = fig.colorbar(im, ax=ax, ticks=sorted([0.0] + marks + [-m for m in marks]))
    bar.ax.set_yticklabels([f"{t:+g}" if t else "0" for t in bar.get_ticks()])
    bar.set_label(f"agent - opponent: mean paired difference\n({holes}-hole points; blue = agent scores lower;\n"
                  "symmetric log colour scale)", fontsize=8)
    ax.set_title(f"Head to head on identical deals (cells: difference ± 95% CI)\n{caption(result)}", fontsize=8,
                 wrap=True)
    fig.tight_layout()
    return fig


def plot_head_to_head(result, path) -> Path:
    """Heatmap of paired mean differences (row agent minus column agent) on identical deals, each cell with its 95%
    interval's half-width; returns ``path``."""
    fig = head_to_head_figure(result)
    path = Path(path)
    fig.savefig(path)
    return path
