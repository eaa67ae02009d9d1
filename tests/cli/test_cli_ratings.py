"""The ratings and win-rate intervals a person reads in ``golfsim tournament``, run as a real process.

A pool with an agent that never wins (random) used to be rated through a pseudo-count prior: its rating and the
others' moved with the number of deal sets and the standard errors did not shrink. Ratings now come from the
agents that are rated (maximum likelihood), an agent that never wins shows a bound, and no win-rate interval is
zero-width.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

POOL = "greedy,pair-builder,random"


def run(tmp_path, games: int) -> tuple[str, dict]:
    out = tmp_path / f"games{games}"
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run([sys.executable, "-m", "golfsim.cli.app", "tournament", "--agents", POOL, "--games",
                           str(games), "--seed", "4", "--quiet", "--out", str(out)],
                          capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads((out / "tournament.json").read_text())


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ratings")
    return run(tmp, 30), run(tmp, 300)


def by_agent(doc: dict) -> dict:
    return {row["agent"]: row for row in doc["ratings"]}


@pytest.mark.slow
def test_an_agent_that_never_wins_is_shown_as_a_bound_not_a_rating(runs):
    for text, doc in runs:
        random = by_agent(doc)["random"]
        assert random["standing"] == "never won"
        assert random["rating"] is None and random["rating_se"] is None
        rated = [r["rating"] for r in doc["ratings"] if r["standing"] == "rated"]
        assert random["bound"] < min(rated)
        words = " ".join(text.split())
        assert f"< {random['bound']:+.0f}" in words and "< r: never won" in words
        assert "0 = mean of the rated agents" in words  # the table says how ratings are anchored
    # more evidence of never winning pushes the bound down
    assert by_agent(runs[1][1])["random"]["bound"] < by_agent(runs[0][1])["random"]["bound"]


def test_rated_agents_are_stable_and_their_errors_shrink_with_ten_times_the_deals(runs):
    small, large = by_agent(runs[0][1]), by_agent(runs[1][1])
    for agent in ("greedy", "pair-builder"):
        a, b = small[agent], large[agent]
        assert a["standing"] == b["standing"] == "rated"
        # ten times the games: the standard error should fall by about sqrt(10) = 3.2
        assert b["rating_se"] < 0.6 * a["rating_se"]
        # the larger run holds the smaller one's deals: the two estimates agree within their errors
        assert abs(a["rating"] - b["rating"]) < 3 * math.hypot(a["rating_se"], b["rating_se"])
    assert sum(large[a]["rating"] for a in ("greedy", "pair-builder")) == pytest.approx(0.0, abs=1e-6)


def test_no_win_rate_interval_is_zero_width(runs):
    for text, doc in runs:
        for row in doc["standings"]:
            low, high = row["win_rate_ci"]
            assert low < high
            assert low <= row["win_rate"] <= high
        for row in doc["head_to_head"]:
            low, high = row["win_rate_ci"]
            assert low < high
        assert "0.0-0.0" not in text and "100.0-100.0" not in text


def test_an_interval_near_0_or_100_percent_is_shown_with_the_decimals_it_needs():
    from golfsim.tournament.report import _range

    assert _range(0.0, 0.000128) == "0.00-0.01"  # 0 wins in 30,000 games: not 0.0-0.0
    assert _range(0.999872, 1.0) == "99.99-100.00"
    assert _range(0.824, 0.837) == "82.4-83.7"
