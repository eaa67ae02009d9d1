"""Strength against speed of the searching player: how far each ``mc`` setting leads ``ev``, and at what cost.

Every setting plays ``ev`` heads-up (2 players, default rules: one deck, nine holes, immediate end) in a tournament
planned and reduced as ``golfsim tournament`` does ([`golfsim.tournament.plan_tournament`][]): each deal set is
played in both seat orders on identical cards, and the lead is ``ev``'s nine-hole total minus the setting's, averaged
over deal sets, with its 95% paired t-interval (positive = the setting scores lower, i.e. better). ``greedy`` and
``ev`` itself are reference points (``ev`` against ``ev`` leads by exactly 0). ``oracle``, the same search given the
real face-down cards and stock order, measures the value of hidden information against ``ev`` and against ``mc``; it
SEES HIDDEN CARDS and every row, figure and JSON entry showing it says so.

Speed is deals per second per thread of the match itself (both seats' decisions, as in ``golfsim bench --agents
mc,ev``): the deals played divided by the CPU time of the threads that played them (every task runs on one thread and
times it; compilation excluded by a warm-up game), i.e. per second of one fully used thread. CPU time rather than wall
time, because the machine is shared and the settings run side by side as cells ([`golfsim.experiments.common`][];
Ctrl-C keeps the finished settings): the wall time of a thread depends on what else runs, its CPU time much less (the
wall speed is in the table too). It still depends on the hardware, so this experiment is, like ``benchmarks``, not
part of ``golfsim experiment all`` (which it would also slow by about half an hour).

Run: ``golfsim experiment search`` (``--games N`` plays N deal sets per setting) or ``python -m
golfsim.experiments.search``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from golfsim.agents.base import SEES_HIDDEN_MARK
from golfsim.core.rules import Rules
from golfsim.experiments.common import (
    TASK_GAMES,
    Cell,
    ExperimentOutput,
    base_config,
    mark_partial,
    run_cells,
    subplots,
)
from golfsim.runs.fingerprint import behaviour_fingerprint
from golfsim.tournament import plan_tournament, reduce_tournament

NAME = "search"
CONFIDENCE = 0.95
PLAYERS = 2
REFERENCE = "ev"
HIDDEN_MARK = SEES_HIDDEN_MARK.strip()  # "(sees hidden cards)"


@dataclass(frozen=True)
class Setting:
    """One player measured against an opponent, and its full-size number of deal sets."""

    agent: str
    opponent: str
    full_deal_sets: int
    role: str  # "search setting", "reference" or "value of hidden information"

    @property
    def sees_hidden(self) -> bool:
        from golfsim.agents import parse_agent

        return parse_agent(self.agent).spec.sees_hidden


#: What is measured, in order. The full sizes fit the whole run into about 20 minutes on a shared 2-core machine under
#: a load average of about 10 (other jobs), with fewer deal sets for the slow settings; their intervals are wide
#: (about +-4 to +-9 points per nine-hole game for mc). Larger samples, no halving and a longer horizon did not fit.
SETTINGS: tuple[Setting, ...] = (
    Setting("greedy", REFERENCE, 20_000, "reference"),
    Setting("ev", REFERENCE, 20_000, "reference"),
    Setting("mc:samples=8", REFERENCE, 300, "search setting"),
    Setting("mc:samples=16", REFERENCE, 200, "search setting"),
    Setting("mc:samples=32", REFERENCE, 120, "search setting"),
    Setting("mc", REFERENCE, 100, "search setting"),
    Setting("mc:horizon=4", REFERENCE, 60, "search setting"),
    Setting("mc:samples=128", REFERENCE, 40, "search setting"),
    Setting("oracle", REFERENCE, 300, "value of hidden information"),
    Setting("oracle", "mc", 60, "value of hidden information"),
)

COLUMNS = ["agent", "opponent", "role", "sees_hidden_cards", "samples", "halving", "horizon", "deal_sets", "games",
           "lead", "lead_low", "lead_high", "win_rate", "win_rate_low", "win_rate_high", "seconds", "cpu_seconds",
           "threads", "deals", "deals_per_second_per_thread", "deals_per_wall_second"]


def describe(agent: str) -> str:
    """The label of an agent in tables and figures (as in tournaments): its string, marked when it sees hidden
    cards."""
    from golfsim.agents import parse_agent

    return parse_agent(agent).label


def _params(agent: str) -> dict[str, float]:
    from golfsim.agents import parse_agent

    return parse_agent(agent).param_dict()


def summarise_timed(batch) -> tuple:
    """A task's game summary with the wall and CPU seconds of the thread that played it (the task summary of this
    experiment's tournaments, see [`golfsim.runs.tasks.Task`][])."""
    from golfsim.runs.tasks import summarise_games

    return summarise_games(batch), batch.seconds, batch.cpu_seconds


def warm_up(setting: Setting) -> None:
    """Compile (or load from the cache) the kernel of the setting's match in both seat orders, outside the clock:
    one one-hole game each."""
    from golfsim.kernels.simulate import Table, iter_batches

    for seats in ([setting.agent, setting.opponent], [setting.opponent, setting.agent]):
        for _ in iter_batches(Table.make(seats, Rules(players=PLAYERS, holes=1)), 1, 0, batch_size=1, threads=1):
            pass


def setting_cell(setting: Setting, deal_sets: int, seed: int, workers: int) -> Cell:
    """The cell of one setting: its duplicate-deal tournament against its opponent, as tasks."""
    plan = plan_tournament([setting.agent, setting.opponent], Rules(players=PLAYERS), deal_sets, seed,
                           confidence=CONFIDENCE, batch_size=TASK_GAMES, workers=workers,
                           summary="golfsim.experiments.search:summarise_timed")
    name = f"{describe(setting.agent)} against {describe(setting.opponent)}"
    return Cell(name, list(plan.tasks), functools.partial(_reduce_setting, setting, plan))


def _reduce_setting(setting: Setting, plan, results: list) -> dict:
    res = reduce_tournament(plan, {i: summary for i, (summary, _, _) in enumerate(results)})
    return setting_row(setting, res, sum(r[1] for r in results), sum(r[2] for r in results))


def setting_row(setting: Setting, res, seconds: float, cpu_seconds: float) -> dict:
    """The table row of one setting from its tournament's result and the seconds its tasks' threads took."""
    labels = list(res.standings.agent)
    me = describe(setting.agent)
    if me not in labels:  # the same agent twice is told apart as name#1, name#2
        me = f"{me}#1"
    other = next(lab for lab in labels if lab != me)
    h2h = res.head_to_head.set_index(["agent", "opponent"]).loc[(me, other)]
    params = _params(setting.agent)
    deals = res.games_played * Rules(players=PLAYERS).holes
    return {
        "agent": describe(setting.agent), "opponent": describe(setting.opponent), "role": setting.role,
        "sees_hidden_cards": setting.sees_hidden, "samples": params.get("samples", np.nan),
        "halving": params.get("halving", np.nan), "horizon": params.get("horizon", np.nan) if "samples" in params
        else np.nan, "deal_sets": res.deal_sets, "games": res.games_played,
        # + 0.0 turns the -0.0 of a zero difference into 0.0
        "lead": 0.0 - float(h2h.mean_diff) + 0.0, "lead_low": 0.0 - float(h2h.mean_diff_high) + 0.0,
        "lead_high": 0.0 - float(h2h.mean_diff_low) + 0.0,
        "win_rate": float(h2h.win_rate), "win_rate_low": float(h2h.win_rate_low),
        "win_rate_high": float(h2h.win_rate_high), "seconds": seconds, "cpu_seconds": cpu_seconds, "threads": 1,
        "deals": deals, "deals_per_second_per_thread": deals / cpu_seconds if cpu_seconds > 0 else np.nan,
        "deals_per_wall_second": deals / seconds if seconds > 0 else np.nan,
    }


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None, settings: tuple[Setting, ...] = SETTINGS) -> ExperimentOutput:
    """Measure every setting; return the table (one row per setting and opponent) and the figure.

    Every setting is a cell ([`golfsim.experiments.common`][]): the tasks of all of them run at once, each on one
    thread, and each task times its own thread, so a setting's speed does not depend on what ran beside it. After
    Ctrl-C or SIGTERM the settings whose every task finished are kept, the output is marked partial, and the
    running tasks stop within about a second ([`golfsim.runs.tasks`][]).

    Parameters
    ----------
    games : int, optional
        Deal sets per setting (each played in both seat orders); default each setting's ``full_deal_sets``.
    seed : int
        Seed of the deals (the same deals for every setting) and, derived from it, of the agents.
    threads : int, optional
        Tasks run at once (default: every core Numba may use). The leads do not depend on it.
    log : callable, optional
        Called with a line of text when the run starts and as each setting completes.
    settings : tuple of Setting
        What to measure (default `SETTINGS`).
    """
    from golfsim.runs.tasks import executor_workers

    sizes = [s.full_deal_sets if games is None else int(games) for s in settings]
    workers = executor_workers(None, threads)
    cells = [setting_cell(s, n, seed, workers) for s, n in zip(settings, sizes, strict=True)]
    if log:
        log(f"{NAME}: compiling the {len(settings)} matches (outside the clock)")
    for s in settings:
        warm_up(s)
    run_ = run_cells(cells, None, threads, log, NAME)
    rows = [run_.values[c] for c in range(len(cells)) if c in run_.values]
    table = pd.DataFrame(rows, columns=COLUMNS)
    config = base_config(
        NAME, games=games, behaviour_fingerprint=behaviour_fingerprint(), rules=Rules(players=PLAYERS).to_dict(),
        agents=sorted({s.agent for s in settings} | {s.opponent for s in settings}), seed=seed,
        deal_sets=[{"agent": describe(s.agent), "opponent": describe(s.opponent), "deal_sets": n}
                   for s, n in zip(settings, sizes, strict=True)],
        sees_hidden_cards=sorted({describe(a) for s in settings for a in (s.agent, s.opponent)
                                  if HIDDEN_MARK in describe(a)}),
        confidence=CONFIDENCE, threads=workers, cpu_count=os.cpu_count(),
        design="each agent against its opponent in a 2-player duplicate-deal tournament (both seat orders on the "
               "same deals); lead = opponent's nine-hole total minus the agent's, paired t-interval over deal sets; "
               "speed = deals played / CPU seconds of the threads that played them (each task on one thread), "
               "compilation excluded, on a shared machine; the settings' tasks run side by side",
        games_meaning="deal sets per setting; each is played in both seat orders",
    )
    notes = [
        f"Default rules (one deck, nine holes, immediate end), {PLAYERS} players; seed {seed}; each deal set played "
        "in both seat orders on identical cards (duplicate deals). deal_sets per row as listed.",
        "lead: the opponent's nine-hole total minus the agent's (points per nine-hole game, positive = the agent "
        "is better), 95% paired t-interval over deal sets; win_rate: share of games the agent finished ahead "
        "(ties half), 95% interval.",
        "deals_per_second_per_thread: deals of the whole match (both seats) / CPU seconds of the threads that "
        "played them (each task runs on one thread), compilation excluded: the speed of one fully used thread; "
        f"measured on a shared {os.cpu_count()}-core machine with the settings' tasks running side by side "
        "(CPU time is much less sensitive to that than wall time, deals_per_wall_second of the same threads, "
        "but not immune), so a guide to within a few tens of percent.",
        f"oracle {HIDDEN_MARK}: it is given the real face-down cards and stock order (a research reference, never "
        "a fair player); its lead is the value of that information to this search.",
        "mc parameters: samples (worlds per decision), halving (rounds of successive halving; 0 none), horizon "
        "(turns before ev's valuation ends a rollout; 0 plays to the end of the deal); defaults samples=64, "
        "halving=2, horizon=0, rollout=ev, objective=own minus opponents' mean, confidence=2.",
    ]
    mark_partial(config, notes, run_)
    figures = {"strength_vs_speed": plot(table, config)} if len(table) else {}
    return ExperimentOutput(NAME, table, config, figures, notes, partial=run_.partial)


def plot(table: pd.DataFrame, config: dict):
    """Lead over ev against deals per second per thread (log axis), with 95% intervals; the oracle, far off that
    scale, in a panel of its own. Each point is named, with its number, in the legend below the plot: the settings
    lie close together in speed, where labels beside the points would cover each other's intervals."""
    import matplotlib

    from golfsim.runs.figures import captioned

    fair = table[(table.opponent == REFERENCE) & ~table.sees_hidden_cards]
    oracle = table[table.sees_hidden_cards]
    fig, (ax, ax_oracle) = subplots(1, 2, figsize=(11.5, 6.8), gridspec_kw={"width_ratios": [3.2, 1]})
    settings = fair[fair.role == "search setting"]
    palette = matplotlib.colormaps["tab10"]
    for i, r in enumerate(settings.itertuples()):
        ax.errorbar([r.deals_per_second_per_thread], [r.lead], yerr=[[r.lead - r.lead_low], [r.lead_high - r.lead]],
                    fmt="os^Dv<>ph8"[i % 11], color=palette((i + 2) % 10), capsize=4,
                    label=f"{r.agent}: {r.lead:+.1f} ({r.lead_low:+.1f} to {r.lead_high:+.1f})")
    for r in fair[fair.role == "reference"].itertuples():
        ax.errorbar([r.deals_per_second_per_thread], [r.lead], yerr=[[r.lead - r.lead_low], [r.lead_high - r.lead]],
                    fmt="s", color="C1" if r.agent == REFERENCE else "C0", capsize=4, markersize=7,
                    label=f"{r.agent} (reference): {r.lead:+.1f} ({r.lead_low:+.1f} to {r.lead_high:+.1f})")
    ax.set_xscale("log")
    if not fair.empty:
        low, high = min(fair.lead_low.min(), 0.0), max(fair.lead_high.max(), 0.0)
        ax.set_ylim(low - 0.05 * (high - low + 1), high + 0.05 * (high - low + 1))
        speeds = fair.deals_per_second_per_thread
        ax.set_xlim(speeds.min() / 1.8, speeds.max() * 1.8)
    ax.axhline(0, color="k", lw=1)
    ax.set_xlabel("speed (deals per second per thread, i.e. per CPU second, log scale; whole match, both seats)")
    ax.set_ylabel("lead over ev (points per nine-hole game; positive = better than ev)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2,
              title="agent: lead over ev (95% interval); mc's defaults: samples=64, halving=2, horizon=0",
              title_fontsize=7)
    x = range(len(oracle))
    ax_oracle.errorbar(list(x), oracle.lead, yerr=[oracle.lead - oracle.lead_low, oracle.lead_high - oracle.lead],
                       fmt="D", color="C3", capsize=4, label=f"oracle {HIDDEN_MARK}")
    for xx, r in zip(x, oracle.itertuples(), strict=True):
        ax_oracle.annotate(f"{r.lead:+.1f}\n({r.lead_low:+.1f} to {r.lead_high:+.1f})", (xx, r.lead),
                           xytext=(9, 0), textcoords="offset points", va="center", fontsize=7, color="C3")
    ax_oracle.set_xticks(list(x), [f"vs {o}\n{d / 1000:.1f}k deals/s" if d >= 1000 else f"vs {o}\n{d:.0f} deals/s"
                                   for o, d in zip(oracle.opponent, oracle.deals_per_second_per_thread,
                                                   strict=True)], fontsize=8)
    ax_oracle.set_xlim(-0.5, len(oracle) - 0.2)
    ax_oracle.set_ylim(0, max(oracle.lead_high.max(), 1.0) * 1.1 if len(oracle) else 1.0)
    ax_oracle.set_xlabel("opponent (speed in deals per second per thread)")
    ax_oracle.set_ylabel("oracle's lead (points per nine-hole game)")
    ax_oracle.grid(alpha=0.3, axis="y")
    sizes = sorted({d["deal_sets"] for d in config["deal_sets"]})
    size_text = f"{sizes[0]:,}" if len(sizes) == 1 else f"{sizes[0]:,} to {sizes[-1]:,}"
    caption = (f"error bars: 95% paired t-intervals over deal sets; {size_text} deal sets per point (each in both "
               f"seat orders; per point in table.md); seed {config['seed']}; speeds from CPU time on a shared, "
               f"loaded {config['cpu_count']}-core machine, {config['threads']} threads")
    return captioned(fig, [
        (ax, "Strength against speed: each mc setting and the reference agents against ev, 2 players, duplicate "
             "deals, default rules (1 deck, 9 holes, immediate end)", 9),
        (ax_oracle, f"value of hidden information: oracle {HIDDEN_MARK.upper()} against ev and mc, same rules", 9)],
        caption, room=0.04)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints."""
    out = table[["agent", "opponent", "deal_sets", "lead"]].copy()
    out["95% CI"] = [f"{lo:+.2f} to {hi:+.2f}" for lo, hi in zip(table.lead_low, table.lead_high, strict=True)]
    out["deals/s/thread"] = table.deals_per_second_per_thread.round(1)
    return out


if __name__ == "__main__":
    run(log=print).write()
