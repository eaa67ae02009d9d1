"""Plans are computed on demand and run a window at a time; a tournament's statistics do not need its games."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import pytest

import golfsim.tournament.running as running
from golfsim.core.rules import Rules
from golfsim.runs.tasks import WINDOW_PER_WORKER, Pieces, Task, run_tasks
from golfsim.tournament import plan_tournament, run_tournament


@pytest.mark.parametrize("games,block,units,workers", [(250, 36, 2, 1), (250, 250, 2, 16), (7, 100, 1, 64),
                                                       (1000, 1, 3, 4), (10, 3, 1, 1)])
def test_pieces_cover_every_game_once_in_order(games, block, units, workers):
    cut = list(Pieces(games, block, units, workers))
    assert cut[0][0] == 0 and sum(n for _, n in cut) == games
    assert all(a + n == b for (a, n), (b, _) in zip(cut, cut[1:], strict=False))
    assert all(1 <= n <= block for _, n in cut)
    assert units * len(cut) >= min(games * units, 2 * workers)  # at least two tasks per worker in all


def test_pieces_of_10_to_the_15_games_are_computed_without_listing_them():
    pieces = Pieces(10**15, 1000, 3, 2)
    assert len(pieces) == 10**12
    assert pieces[0] == (0, 1000) and pieces[-1] == (10**15 - 1000, 1000) and pieces[123_456_789] == (
        123_456_789_000, 1000)
    with pytest.raises(IndexError):
        pieces[10**12]


def test_a_plan_of_10_to_the_12_deal_sets_is_made_at_once_and_names_its_tasks_by_index():
    # 10**12 deal sets (12 billion tasks) is as big as the time limit lets a 2-worker plan be (runs.limits.check_time
    # refuses 10**15: years of play); listing its tasks would still take terabytes
    plan = plan_tournament("greedy,random,pair-builder", Rules(players=2, holes=1), games=10**12, seed=3,
                           batch_size=500, workers=2)
    seatings = len(plan.seatings)
    assert seatings == 6 and len(plan.tasks) == 2 * 10**9 * seatings
    last = plan.tasks[len(plan.tasks) - 1]
    assert (last.first_game, last.count) == (10**12 - 500, 500)
    assert last.seats == tuple(plan.choices[i].label for i in plan.seatings[-1][2])


class Counted(Sequence):
    """A sequence of very many one-game tasks that counts which ones were asked for (and, like a plan's
    :class:`golfsim.tournament.planning.PlanTasks`, names its labels, so nothing has to list it to find them)."""

    def __init__(self, n: int):
        self.n, self.asked = n, set()
        self.task = Task(Rules(players=2, holes=1), ("greedy", "random"), 1, 2, 0, 1)
        self.labels = set(self.task.seats)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        self.asked.add(i)
        return self.task


def test_run_tasks_takes_only_a_window_of_a_huge_plan_and_stops_on_interrupt():
    tasks = Counted(10**15)
    finished = []

    def progress(i, _):
        finished.append(i)
        if len(finished) == 20:
            raise KeyboardInterrupt

    run = run_tasks(tasks, threads=2, progress=progress)
    assert run.interrupted and len(run.results) == 20
    assert len(tasks.asked) <= 20 + WINDOW_PER_WORKER * 2


def test_run_tasks_hands_results_to_consume_and_keeps_none():
    got = {}
    run = run_tasks(Counted(12), threads=2, consume=got.__setitem__)
    assert sorted(got) == list(range(12)) and run.results == {} and not run.interrupted


@pytest.mark.parametrize("pool,players", [("greedy,random,pair-builder", 2), ("greedy,random,pair-builder,ev", 3)])
def test_a_tournament_too_big_to_keep_its_games_has_the_same_statistics(monkeypatch, pool, players):
    rules = Rules(players=players, holes=2)
    kept = run_tournament(pool, rules, games=120, seed=11, batch_size=25, threads=1)
    monkeypatch.setattr(running, "GAMES_KEPT_LIMIT", 0)
    folded = run_tournament(pool, rules, games=120, seed=11, batch_size=50, threads=2)
    for name in ("standings", "head_to_head", "ratings"):
        pd.testing.assert_frame_equal(getattr(kept, name), getattr(folded, name), check_exact=True)
    with pytest.raises(ValueError, match="only a tournament of 64 MiB of per-game results or less keeps them"):
        folded.games  # noqa: B018
    games = kept.games
    for agent, counts in folded.score_counts().items():
        assert counts == games[games.agent == agent]["total"].value_counts().sort_index().to_dict()
