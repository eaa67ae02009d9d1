"""How much the learned player loses, per phase of a deal, against the exact end of the deal and against an oracle.

Self-play deals of ``learned`` against ``learned`` (2 players, one hole each, default rules under each end rule).
At every decision of a turn (start of turn, holding a drawn card) the decision is measured two ways:

- *Against an oracle with learned rollouts*: every legal move is played out to the end of the deal in the true deal
  (the real face-down cards and stock order), both seats then playing ``learned``; the oracle's regret of the
  learned move is its outcome (the mover's deal score less the opponent's) less the best move's. This is what
  perfect information about this one decision would save with the same player afterwards: an upper bound on what a
  better value could gain at that decision, most of which no player without sight of the cards can reach.
- *Against the exact end of the deal* ([`golfsim.agents.learned.endgame`][]): on the deal's last turn, where every
  move has its exact expectimax value, the exact regret is the learned move's exact value less the best; and where
  going out is valued exactly against learned values (one card face down, ``one_last_turn``), how often the exact
  value changes the move (``learned:exact=1``'s choice).

The phase of a decision is the mover's face-down cards before it: 4 to 6, 2 or 3, 1, and the last turn (the final
circuit of ``one_last_turn``; the mover may have any number). Regrets are summed over a deal's decisions of that
phase and averaged per deal and seat, with 95% t-intervals over deals; a nine-hole game is nine deals.

Run: ``golfsim experiment headroom`` (``--games N``: N deals per end rule).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from golfsim.core.rules import Rules
from golfsim.experiments.common import Cell, ExperimentOutput, base_config, mark_partial, run_cells, subplots
from golfsim.runs.figures import titled
from golfsim.runs.tasks import Task
from golfsim.stats import mean_ci

NAME = "headroom"
FULL_DEALS = 2000
TASK_DEALS = 50
PLAYER = "learned"
PHASES = ("4-6 face down", "2-3 face down", "1 face down", "last turn")
ENDS = ("immediate", "one_last_turn")
# per deal, for each phase: oracle regret, decisions, exact regret, fully exact decisions, choices exact changes
COLUMNS = 5


def _phase(game, player: int) -> int:
    from golfsim.core.spec import ENDER

    if int(game.pub[ENDER]) >= 0:
        return 3
    down = len(game.face_down(player))
    return 0 if down >= 4 else 1 if down >= 2 else 2


def _outcome(game, agent, mover: int) -> float:
    """The mover's deal score less the opponent's once ``game`` is played out by ``agent`` in both seats."""
    while not game.hole_over:
        game.step(agent.act(game, game.current_player))
    scores = game.scores
    return float(scores[mover] - scores[1 - mover])


def play_headroom(table, task: Task) -> np.ndarray:
    """``[count, 4, COLUMNS]``: per deal of ``task`` and phase, the sums listed at `COLUMNS`."""
    from golfsim.agents.learned import WEIGHTS
    from golfsim.agents.learned.endgame import decide_exact, exact_values
    from golfsim.core.spec import HOLD, NUM_ACTIONS, PHASE, START
    from golfsim.game.game import CompiledAgent, Game

    agent = CompiledAgent(PLAYER, task.rules)
    exact = np.zeros(NUM_ACTIONS)
    out = np.zeros((task.count, len(PHASES), COLUMNS))
    for i in range(task.count):
        g = task.first_game + i
        game = Game(task.rules, seed=task.seed, game=g)
        game.start_hole()
        for seat in range(2):
            agent.reset(task.agent_seed, g, seat)
        while not game.hole_over:
            mover = game.current_player
            choice = agent.act(game, mover)
            if int(game.pub[PHASE]) in (START, HOLD):
                row = out[i, _phase(game, mover)]
                legal = game.legal_actions()
                outcomes = {}
                for a in legal:
                    trial = game.clone()
                    trial.step(a)
                    outcomes[a] = _outcome(trial, agent, mover)
                row[0] += outcomes[choice] - min(outcomes.values())
                row[1] += 1
                exact_values(game.pub, game.packed, np.int64(mover), exact)
                if not np.any(np.isnan(exact[legal])):
                    row[2] += exact[choice] - exact[legal].min()
                    row[3] += 1
                row[4] += int(decide_exact(game.pub, game.packed, WEIGHTS, np.int64(mover), choice)) != choice
            game.step(choice)
    return out


def keep(result: np.ndarray) -> np.ndarray:
    """The task's result as it is (the summary step)."""
    return result


def _cell(end: str, deals: int, seed: int) -> Cell:
    rules = Rules(holes=1, end=end)
    tasks = [Task(rules, (PLAYER, PLAYER), seed, seed, first, min(TASK_DEALS, deals - first),
                  summary="golfsim.experiments.headroom:keep", play="golfsim.experiments.headroom:play_headroom")
             for first in range(0, deals, TASK_DEALS)]
    return Cell(end, tasks, lambda parts: np.concatenate(parts))


def _rows(end: str, data: np.ndarray) -> list[dict]:
    rows = []
    for p, phase in enumerate(PHASES):
        per_deal = data[:, p, 0] / 2  # per seat
        mean, low, high = mean_ci(per_deal)
        decisions = data[:, p, 1].sum()
        exact_n = data[:, p, 3].sum()
        rows.append({
            "end": end, "phase": phase, "deals": data.shape[0], "decisions": int(decisions),
            "oracle_regret_per_deal": mean, "oracle_regret_low": low, "oracle_regret_high": high,
            "oracle_regret_per_decision": data[:, p, 0].sum() / decisions if decisions else np.nan,
            "exact_decisions": int(exact_n),
            "exact_regret_per_decision": data[:, p, 2].sum() / exact_n if exact_n else np.nan,
            "exact_changes_choice": data[:, p, 4].sum() / decisions if decisions else np.nan,
        })
    return rows


def run(games: int | None = None, seed: int = 0, threads: int | None = None, executor=None, log=None,
        ) -> ExperimentOutput:
    """Measure the learned player's regrets per phase (``games`` deals per end rule; `FULL_DEALS` if None)."""
    deals = FULL_DEALS if games is None else int(games)
    if deals < 2:
        raise ValueError(f"games must be at least 2 deals per end rule, got {deals}")
    cells = [_cell(end, deals, seed) for end in ENDS]
    done = run_cells(cells, executor=executor, threads=threads, log=log)
    rows = []
    for i, end in enumerate(ENDS):
        if i in done.values:
            rows += _rows(end, done.values[i])
    table = pd.DataFrame(rows)
    notes = [f"{deals} self-play deals of {PLAYER} per end rule (2 players, one hole each), deal seed {seed}",
             "oracle regret: the learned move's outcome less the best move's, every move played out in the true deal "
             "by learned in both seats; per deal and seat, 95% t-interval over deals",
             "exact regret: on the deal's last turn, the learned move's exact value less the best (every move exact "
             "there); exact changes choice: share of the phase's decisions where learned:exact=1 moves otherwise"]
    config = base_config(NAME, games=games, seed=seed, deals_per_end=deals, player=PLAYER, phases=list(PHASES))
    mark_partial(config, notes, done)
    figures = {"figure": plot(table, config)} if len(table) else {}
    return ExperimentOutput(NAME, table, config, figures, notes, partial=done.partial)


def plot(table: pd.DataFrame, config: dict):
    """Bars of the oracle regret per phase and end rule, with their 95% intervals (drawn from the table alone, so
    `golfsim.experiments.replot` redraws it)."""
    figure, ax = subplots(figsize=(7, 3.5))
    for j, end in enumerate(ENDS):
        part = table[table["end"] == end]
        if len(part):
            x = np.arange(len(part)) + (j - 0.5) * 0.35
            ax.bar(x, part["oracle_regret_per_deal"], 0.35, label=end,
                   yerr=[part["oracle_regret_per_deal"] - part["oracle_regret_low"],
                         part["oracle_regret_high"] - part["oracle_regret_per_deal"]])
    ax.set_xticks(np.arange(len(PHASES)), PHASES)
    ax.set_xlabel("phase of the deal (the mover's face-down cards)")
    ax.set_ylabel("regret (points per deal and seat)")
    ax.legend(title="end rule")
    return titled(figure, "learned's regret against an oracle with learned rollouts, by phase: default rules, "
                          "2 players, self-play",
                  f"95% t-intervals over {config['deals_per_end']:,} deals per end rule, seed {config['seed']}")


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints."""
    return table[["end", "phase", "decisions", "oracle_regret_per_deal", "exact_regret_per_decision",
                  "exact_changes_choice"]]
