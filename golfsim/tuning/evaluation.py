"""One evaluation of a candidate: its lead over a field on duplicate deals, and the winner's re-evaluation on fresh
deals."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from golfsim import stats
from golfsim.agents.base import AgentChoice, parse_agent
from golfsim.core.rules import Rules
from golfsim.tuning.space import agent_string


def field_lead(candidate, against, rules: Rules, games: int, seed: int, *, threads: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The candidate's lead over the field in every deal set, in points per ``rules.holes``-hole game.

    For each agent of ``against``, the candidate sits at a table with that agent in every other seat, played in
    all cyclic seat rotations on the deal sets of ``seed`` (duplicate deals). Per deal set, the lead is the
    candidate's mean total minus the mean total of the other seats; the leads against the field agents are
    averaged. Negative leads mean the candidate scored lower (better).

    Parameters
    ----------
    candidate : str or AgentChoice
        The agent evaluated.
    against : sequence of str or AgentChoice
        The field.
    rules : Rules
        The rules; ``rules.players`` seats per table.
    games : int
        Deal sets.
    seed : int
        Seed of the deals (and, derived from it, of the agents' own streams).
    threads : int, optional
        Threads of the simulator; results do not depend on it.
    progress : callable, optional
        Called as ``progress(games_done, games_total)`` after each simulator call of each table.

    Returns
    -------
    numpy.ndarray
        ``float64[games]``, the lead in each deal set.

    Raises
    ------
    KeyboardInterrupt
        When interrupted before every deal set was played (nothing partial is returned).
    """
    from golfsim.tournament import run_tournament

    candidate = parse_agent(candidate)
    field_choices = [parse_agent(a) for a in against]
    players = rules.players
    leads = np.zeros(games)
    per_table = players * games
    for i, opponent in enumerate(field_choices):
        def report(done, total, base=i * per_table):
            if progress is not None:
                progress(base + done, len(field_choices) * per_table)

        res = run_tournament([candidate] + [opponent] * (players - 1), rules, games, seed, schedule="table",
                             seating="rotations", threads=threads, progress=report)
        if res.partial or res.deal_sets < games:
            raise KeyboardInterrupt
        played = res.games
        mine = (played["agent"] == res.labels[0]).to_numpy()
        own = played.loc[mine].groupby("game")["total"].mean()
        others = played.loc[~mine].groupby("game")["total"].mean()
        leads += (own - others).reindex(np.arange(games)).to_numpy(np.float64)
    return leads / len(field_choices)


def interval(sample: np.ndarray, confidence: float) -> dict:
    mean, low, high = stats.mean_ci(sample, confidence)
    return {"mean": mean, "low": low, "high": high, "deal_sets": int(sample.size)}


def clean(v):
    return None if isinstance(v, float) and not math.isfinite(v) else v



def reevaluate(winner: AgentChoice, base: AgentChoice, field_choices: Sequence[AgentChoice], rules: Rules,
                games: int, seed: int, threads, confidence: float) -> dict:
    win = field_lead(winner, field_choices, rules, games, seed, threads=threads)
    held = field_lead(base, field_choices, rules, games, seed, threads=threads)
    direct = field_lead(winner, [base], rules, games, seed, threads=threads)
    out = {"seed": seed, "games": games, "winner": agent_string(winner), "baseline": agent_string(base),
           "winner_vs_field": interval(win, confidence), "baseline_vs_field": interval(held, confidence),
           "improvement": interval(win - held, confidence), "winner_vs_baseline": interval(direct, confidence)}
    for key in ("winner_vs_field", "baseline_vs_field", "improvement", "winner_vs_baseline"):
        out[key] = {k: clean(v) for k, v in out[key].items()}
    return out
