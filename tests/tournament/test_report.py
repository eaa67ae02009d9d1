"""The tournament's head-to-head figure: long agent strings stay readable, and a gap within noise looks like one."""

import warnings

import numpy as np
import pytest

from golfsim.core.rules import Rules
from golfsim.tournament import run_tournament
from golfsim.tournament.report import SMALLEST_COLOUR_SCALE, agent_label, head_to_head_figure

TUNED_EV = "ev:pair_weight=1.06,horizon=1.9,count_out=0,out_margin=8,watch_discard=0.46"


def test_a_long_agent_string_breaks_after_commas_and_before_parentheses():
    agent = "mc:rollout=(learned:model=2),base=(learned:model=2),samples=128"
    label = agent_label(agent, width=24)
    lines = label.split("\n")
    assert "".join(lines) == agent
    assert len(lines) > 1 and all(len(line) <= 24 for line in lines)
    assert all(line.endswith(",") or nxt.startswith("(") for line, nxt in zip(lines, lines[1:], strict=False))
    assert agent_label("learned:model=2") == "learned:model=2"


@pytest.fixture(scope="module")
def long_names():
    return run_tournament(f"{TUNED_EV},greedy,greedy:blind_swap=3", Rules(players=2, holes=1), games=30, seed=4)


def test_every_agent_label_lies_inside_the_figure(long_names):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns when tight_layout cannot make room for the labels
        fig = head_to_head_figure(long_names)
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width, height = fig.canvas.get_width_height()
    ax = fig.axes[0]
    labels = ax.get_xticklabels() + ax.get_yticklabels()
    assert len(labels) == 6
    for label in labels:
        box = label.get_window_extent(renderer)
        assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height, label.get_text()


def test_a_gap_smaller_than_the_scale_floor_is_drawn_pale(long_names):
    fig = head_to_head_figure(long_names)
    norm = fig.axes[0].images[0].norm
    assert norm.vmax >= SMALLEST_COLOUR_SCALE
    # a 0.4-point gap (well inside the interval of 30 deal sets) sits near the middle of the colour map, where a
    # scale fitted to the largest gap of a close match would have painted it at the end
    assert abs(float(norm(0.4)) - 0.5) < 0.15
    cells = [t.get_text() for t in fig.axes[0].texts if t.get_text()]
    assert len(cells) == 6 and all("\n±" in c for c in cells)  # each difference with its interval's half-width
    diffs = long_names.head_to_head
    for row in diffs.itertuples(index=False):
        half = (row.mean_diff_high - row.mean_diff_low) / 2
        assert f"{row.mean_diff:+.1f}\n±{half:.1f}" in cells
    assert np.isfinite(diffs.mean_diff).all()
