"""Every figure golfsim draws, rendered from the committed results (and a small sweep) with warnings as errors, and
checked the way a reader looks at it: labelled axes, titles inside their axes, number labels clear of the interval
bars, intervals on the points, the sweep's panels on one y scale with no lines across categorical values."""

from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection, PolyCollection  # noqa: E402

from golfsim.experiments import replot  # noqa: E402
from tests.committed import RESULTS  # noqa: E402

# luck's figures are drawn from its runs (tests/experiments/test_luck.py checks them) and learned_value's by
# golfsim learn (tests/learning/test_train.py); replot redraws the rest from their committed tables
COMMITTED = sorted({p.parent for p in RESULTS.rglob("*.png")
                    if p.relative_to(RESULTS).parts[0] not in ("luck", "learned_value")})
NO_INTERVALS = {"benchmarks": "the benchmark keeps only the median of its timed runs, not their spread"}


def render(fig, dpi=50):
    """Draw at a small size, as a test can afford; every warning is an error."""
    fig.set_dpi(dpi)
    fig.canvas.draw()
    return fig.canvas.get_renderer()


def segments_in_pixels(ax):
    out = []
    for c in ax.collections:
        if isinstance(c, LineCollection):
            for seg in c.get_segments():
                out.append(ax.transData.transform(np.asarray(seg)))
    return out


def crosses(segment, box) -> bool:
    """Whether a straight segment (2 points, pixels) passes through a box (shrunk by a pixel)."""
    (x0, y0), (x1, y1) = segment[0], segment[-1]
    left, right, bottom, top = box.x0 + 1, box.x1 - 1, box.y0 + 1, box.y1 - 1
    for t in np.linspace(0, 1, 64):
        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        if left <= x <= right and bottom <= y <= top:
            return True
    return False


def check_figure(fig, name: str) -> None:
    renderer = render(fig)
    width = fig.bbox.width
    if fig._suptitle is not None and fig._suptitle.get_text():
        box = fig._suptitle.get_window_extent(renderer)
        assert box.x0 >= -1 and box.x1 <= width + 1, f"{name}: the figure's title runs past the figure"
    drawn = [ax for ax in fig.axes if ax.get_visible() and (ax.lines or ax.collections)]
    assert drawn, f"{name}: nothing drawn"
    for ax in drawn:
        where = f"{name}, panel {ax.get_title()!r}"
        assert ax.get_xlabel().strip(), f"{where}: no x label"
        shared = not any(t.get_visible() and t.get_text() for t in ax.get_yticklabels())
        assert ax.get_ylabel().strip() or shared, f"{where}: no y label"
        if ax.get_title():
            box, frame = ax.title.get_window_extent(renderer), ax.get_window_extent(renderer)
            assert box.x0 >= frame.x0 - 2 and box.x1 <= frame.x1 + 2, f"{where}: the title runs past the axes"
        if name not in NO_INTERVALS:
            assert any(isinstance(c, LineCollection | PolyCollection) for c in ax.collections), \
                f"{where}: no intervals"
        bars = segments_in_pixels(ax)
        for text in ax.texts:
            if not text.get_visible() or not text.get_text().strip():
                continue
            box = text.get_window_extent(renderer)
            hit = [s for s in bars if crosses(s, box)]
            assert not hit, f"{where}: the label {text.get_text()!r} covers an interval bar"


@pytest.mark.parametrize("directory", COMMITTED, ids=[str(d.relative_to(RESULTS)) for d in COMMITTED])
def test_every_committed_figure_redraws_from_its_tables_cleanly(directory):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        drawn = replot.figures(directory)
        assert sorted(f"{stem}.png" for stem in drawn) == sorted(p.name for p in directory.glob("*.png"))
        for stem, fig in drawn.items():
            try:
                check_figure(fig, directory.name if stem in ("figure", "convergence") else f"{directory.name}/{stem}")
            finally:
                plt.close(fig)


def test_replot_writes_the_figures_and_leaves_the_tables_alone(tmp_path):
    import shutil

    source = RESULTS / "tips"
    shutil.copytree(source, tmp_path / "tips")
    before = {p.name: p.read_bytes() for p in (tmp_path / "tips").iterdir() if p.suffix != ".png"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        written = replot.replot(tmp_path / "tips", dpi=40)
    assert [p.name for p in written] == ["figure.png"] and written[0].stat().st_size > 5_000
    assert {p.name: p.read_bytes() for p in (tmp_path / "tips").iterdir() if p.suffix != ".png"} == before
    assert not [p for p in (tmp_path / "tips").iterdir() if p.name.startswith(".")]


def test_the_tips_labels_stand_clear_of_a_wide_interval():
    import pandas as pd

    from golfsim.experiments import tips

    table = pd.read_csv(RESULTS / "tips" / "table.csv")
    config = {"games_per_cell": 100, "seed": 0}
    table.loc[0, ["effect_low", "effect_high"]] = [table.effect.min() - 5, table.effect.max() + 5]  # spans it all
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = tips.plot(table, config)
        check_figure(fig, "tips with a wide interval")
    plt.close(fig)


SWEEP = """
[sweep]
seed = 2
games = 4
[rules]
holes = 1
[axes]
players = [2, 3]
end = ["immediate", "one_last_turn"]
[pools]
field = ["greedy", "pair-builder", "random"]
"""


def test_the_sweeps_panels_share_one_y_scale_and_categorical_values_are_not_joined(tmp_path):
    from golfsim.sweep.grid import plan_sweep, run_sweep
    from golfsim.sweep.plots import draw_axis

    (tmp_path / "grid.toml").write_text(SWEEP)
    result = run_sweep(tmp_path / "grid.toml", out=tmp_path / "out")
    plan = plan_sweep(tmp_path / "grid.toml")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for axis, numeric in (("end", False), ("players", True)):
            fig = draw_axis(result.table, plan, axis, result.cells_complete)
            try:
                check_figure(fig, f"sweep score_vs_{axis}")
                panels = [ax for ax in fig.axes if ax.get_visible() and ax.lines]
                assert len(panels) == 2  # one per value of the other axis
                assert all(panels[0].get_shared_y_axes().joined(panels[0], ax) for ax in panels[1:])
                assert panels[0].get_ylim() == panels[1].get_ylim()
                styles = {bars.lines[0].get_linestyle() for ax in panels for bars in ax.containers}  # data lines
                assert styles == ({"-"} if numeric else {"None"}), (axis, styles)
            finally:
                plt.close(fig)
