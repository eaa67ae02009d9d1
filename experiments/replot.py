"""Redraw a result's figures from its committed tables, without playing a game or changing a table.

``python -m golfsim.experiments.replot results/tips results/search ...`` (or `replot`) reads ``table.csv`` and
``config.json`` (``curve.csv`` for the learning example, ``analytics.csv`` for the house rules; ``trials.csv`` for a
tuning study) and writes the figures the experiment would have written, each atomically. A restyled plotting
function so reaches every committed figure in seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path

import pandas as pd


def figures(directory: Path | str) -> dict:
    """The figures of the result in ``directory``, drawn from its files: ``{stem: matplotlib Figure}``.

    Raises
    ------
    ValueError
        When the directory holds no result this module knows how to draw.
    """
    d = Path(directory)
    if (d / "trials.csv").is_file() and not (d / "table.csv").is_file():
        from golfsim.tuning.report import TuningResult

        return {"convergence": TuningResult.read(d).plot()}
    try:
        config = json.loads((d / "config.json").read_text())
        table = pd.read_csv(d / "table.csv")
    except (OSError, ValueError) as e:
        raise ValueError(f"{str(d)!r} holds no result to draw ({e})") from None
    name = config.get("experiment")
    if name == "tips":
        from golfsim.experiments import tips

        return {"figure": tips.plot(table, config)}
    if name == "search":
        from golfsim.experiments import search

        return {"strength_vs_speed": search.plot(table, config)}
    if name == "ladder":
        from golfsim.experiments import ladder

        out = {}
        if (table.section == ladder.SECTIONS[0]).any():
            out["figure"] = ladder.plot(table[table.section == ladder.SECTIONS[0]], config)
        if (table.section == ladder.SECTIONS[1]).any():
            out["search"] = ladder.plot_search(table[table.section == ladder.SECTIONS[1]], config)
        if (table.section == ladder.SECTIONS[2]).any():
            out["learned"] = ladder.plot_search(table[table.section == ladder.SECTIONS[2]], config, "learned")
        return out
    if name == "variants":
        from golfsim.experiments import variants

        return {"figure": variants.plot(table, config), "ranking": variants.plot_ranking(table, config)}
    if name == "players":
        from golfsim.experiments import players

        return {"figure": players.plot(table, config)}
    if name == "benchmarks":
        from golfsim.experiments import benchmarks

        return {"figure": benchmarks.plot(table, config)}
    if name == "headroom":
        from golfsim.experiments import headroom

        return {"figure": headroom.plot(table, config)}
    if name == "house":
        from golfsim.experiments import house

        return {"figure": house.plot(table, pd.read_csv(d / "analytics.csv"), config)}
    if name == "learning":
        from golfsim.experiments import learning

        config = dict(config)
        config.setdefault("reference_points_per_hole", _learning_references(d))
        return {"figure": learning.plot(pd.read_csv(d / "curve.csv"), config)}
    raise ValueError(f"{str(d)!r}: no figures are drawn for experiment {name!r}")


def _learning_references(d: Path) -> dict:
    """Runs before the references were kept in config.json name them in table.md's notes (to 2 decimals)."""
    text = (d / "table.md").read_text()
    found = re.search(r"random in the learner's place scores (-?[\d.]+), greedy (-?[\d.]+) points per hole", text)
    if not found:
        raise ValueError(f"{str(d / 'table.md')!r} does not name the reference scores the learning figure shows")
    return {"random": float(found.group(1)), "greedy": float(found.group(2))}


def replot(directory: Path | str, dpi: int = 120) -> list[Path]:
    """Redraw and write the figures of the result in ``directory`` (``STEM.png`` each, atomically)."""
    d = Path(directory)
    written = []
    for stem, fig in figures(d).items():
        path = d / f"{stem}.png"
        tmp = d / f".{stem}.png.tmp"
        try:
            fig.savefig(tmp, format="png", dpi=dpi, bbox_inches="tight")
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
        written.append(path)
    return written


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m golfsim.experiments.replot", description=__doc__.splitlines()[0])
    parser.add_argument("directories", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for d in args.directories:
        for path in replot(d):
            print(path)


if __name__ == "__main__":
    main()
