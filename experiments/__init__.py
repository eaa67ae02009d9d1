"""golfsim's experiments: one module per question, each writing ``results/<name>/``.

Every module has ``NAME``, ``run(games=None, seed=0, ...) -> ExperimentOutput`` (``games=None`` is the full size
used for the committed ``results/``; a number sets every cell to that many games, e.g. a few hundred for a test)
and ``summary(table)``, the short table the command line prints. Each is declared in
[`EXPERIMENTS`][golfsim.experiments.EXPERIMENTS] ([`golfsim.runs.experiment.Experiment`][]), which ``golfsim
experiment`` finds through an entry point.

=============  ======================================================================================================
name           question
=============  ======================================================================================================
``ladder``     mean nine-hole score and win rate of every built-in agent at 2, 3 and 4 players
``tips``       does each strategy tip from the source texts help? A/B tests on duplicate deals at 2 and 4 players
``variants``   what each rule option does to deal scores, deal length, going out, first-seat advantage, agent ranking
``players``    the same deal statistics and the agents' order from 2 to 8 players
``benchmarks`` throughput of the simulator (hardware-specific, so not part of ``all``)
``search``     strength against speed of mc settings, and oracle's lead (hardware-specific and slow: not in ``all``)
``luck``       luck against skill and game analytics (branching, lead changes, decisiveness) of every variant
``headroom``   what the learned player loses per phase against the exact endgame and an oracle (not in ``all``)
``house``      luck against skill, scores and analytics of each of the web game's house rules
=============  ======================================================================================================

Run one with ``golfsim experiment NAME`` (or ``python -m experiments.NAME``); ``golfsim experiment all`` regenerates
every committed result. ``python -m golfsim.experiments.notebooks`` executes the notebooks in place at full size.

Every experiment but ``benchmarks`` is a list of cells of independent tasks ([`golfsim.experiments.common`][],
[`golfsim.runs.tasks`][]) that run together on one executor: a thread pool on this machine, or a Dask cluster with
``golfsim experiment NAME --dask local:N`` / ``--dask tcp://HOST:PORT`` (``run(..., executor=...)`` from Python).
Ctrl-C or SIGTERM stops a run: the complete cells are written, marked ``partial`` in ``config.json`` (with every
cell's games done) and in ``table.md``, no unfinished cell is, ``all`` runs no further experiment, and the command
exits with status 130.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

from golfsim.runs.experiment import Experiment

_ALL_OPTIONS = ("threads", "executor", "log")

EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment("ladder", "mean nine-hole score and win rate of every built-in agent at 2, 3 and 4 players",
               "golfsim.experiments.ladder", "100,000 deal sets at 2 players, 25,000 at 3 and 4",
               options=_ALL_OPTIONS),
    Experiment("tips", "does each strategy tip from the source texts help? A/B tests on duplicate deals",
               "golfsim.experiments.tips", "100,000 deal sets per tip and player count", options=_ALL_OPTIONS),
    Experiment("variants", "what each rule option does to deal scores, deal length, going out, first-seat "
               "advantage and the agents' ranking", "golfsim.experiments.variants",
               "50,000 self-play games and 20,000 round-robin deal sets per variant", options=_ALL_OPTIONS),
    Experiment("players", "the same deal statistics and the agents' order from 2 to 8 players",
               "golfsim.experiments.players",
               "40,000 self-play games and 10,000 gauntlet deal sets per player count", options=_ALL_OPTIONS),
    Experiment("benchmarks", "throughput of the simulator (hardware-specific)", "golfsim.experiments.benchmarks",
               "2,000,000 single deals per point of the grid", trial_games=2000, in_all=False),
    Experiment("search", "strength against speed of mc settings, and oracle's lead (hardware-specific, slow)",
               "golfsim.experiments.search", "each setting at its own full number of deal sets", trial_games=20,
               options=("threads", "log"), in_all=False),
    Experiment("luck", "luck against skill and game analytics (branching, lead changes, decisiveness) of every "
               "variant", "golfsim.experiments.luck",
               "20,000 duplicate deal sets per pair and cell (200 for mc), 20,000 analytics games per cell",
               options=_ALL_OPTIONS),
    Experiment("house", "luck against skill, scores, seat advantage and lead changes under each of the web game's "
               "house rules", "golfsim.experiments.house",
               "20,000 duplicate deal sets of ev against greedy and of learned against ev, and 20,000 games of ev "
               "per house rule and player count",
               options=_ALL_OPTIONS),
    Experiment("headroom", "how much the learned player loses, per phase of a deal, against the exact end of the "
               "deal and against an oracle with learned rollouts (Python-speed: not in all)",
               "golfsim.experiments.headroom", "2,000 self-play deals per end rule", trial_games=20,
               options=_ALL_OPTIONS, in_all=False),
)
"""golfsim's experiments, as ``golfsim experiment`` discovers them (the ``golfsim.experiments`` entry point)."""

#: Environment variable with the notebooks' size: a number of games per cell, or ``full`` for the full run.
NOTEBOOK_GAMES_ENV = "GOLFSIM_NOTEBOOK_GAMES"
NOTEBOOK_DEFAULT_GAMES = 200


def source_fingerprint() -> dict[str, str]:
    """SHA-256 (first 16 hex digits) of the files in ``agents/`` and ``golfsim/``.

    Superseded by [`golfsim.runs.fingerprint.behaviour_fingerprint`][], which every committed ``config.json``
    records: a hash of source files changes with any edit, while the results stay valid. Kept so that code written
    against it still runs.
    """
    import hashlib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    out = {}
    for folder in ("agents", "golfsim"):
        digest = hashlib.sha256()
        for path in sorted((root / folder).glob("*.py")):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        out[folder] = digest.hexdigest()[:16]
    return out


def figure_png(fig, dpi: int = 100):
    """A matplotlib figure as an ``IPython.display.Image`` (PNG), whatever the notebook's matplotlib backend."""
    import io

    from IPython.display import Image

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    return Image(buffer.getvalue())


def interval_decimals(half_width: float) -> int:
    """Decimals a value supports when its interval's half-width is ``half_width``: the interval's first
    significant digit and one more (half-width 0.057 -> 3 decimals, 2.3 -> 1, 140 -> 0)."""
    import math

    if not math.isfinite(half_width) or half_width <= 0:
        return 6
    return max(0, 1 - math.floor(math.log10(half_width)))


def rounded(table: pd.DataFrame, intervals: dict[str, tuple[str, str]] | None = None) -> pd.DataFrame:
    """``table`` with every float column rounded to what the intervals support.

    Parameters
    ----------
    table : pandas.DataFrame
        A result table. A summary made from one may name, in ``table.attrs["half_widths"]``, the interval
        half-widths of its columns (column -> list of half-widths), for the columns whose bounds it does not carry.
    intervals : dict, optional
        Value column -> (low column, high column). Default: every column ``X`` with ``X_low`` and ``X_high``.

    Returns
    -------
    pandas.DataFrame
        A copy; each value and its bounds are rounded to [`interval_decimals`][golfsim.experiments.interval_decimals] of
        the median half-width of the column (a zero-width interval, such as an agent against itself, leaves the others
        to decide). A float column with no interval of its own (a standard deviation, a rate shown beside a rated
        effect) is rounded to the finest of those decimals: no column is shown more precisely than the best-measured
        value of the table. In a table with no interval at all, floats keep four significant digits of the column's
        largest value.
    """
    import numpy as np
    import pandas as pd

    if intervals is None:
        intervals = {c: (f"{c}_low", f"{c}_high") for c in table.columns
                     if f"{c}_low" in table.columns and f"{c}_high" in table.columns}
    widths = {value: ((table[high] - table[low]) / 2).to_numpy(dtype=float)
              for value, (low, high) in intervals.items()}
    named = {c: np.asarray(h, dtype=float) for c, h in table.attrs.get("half_widths", {}).items() if c in table}
    out = table.copy()
    done: dict[str, int] = {}
    for value, half in {**named, **widths}.items():
        half = half[np.isfinite(half) & (half > 0)]
        if not half.size:
            continue
        decimals = interval_decimals(float(np.median(half)))
        for column in (value, *intervals.get(value, ())):
            done[column] = decimals
    finest = max(done.values(), default=None)
    for column in table.columns:
        if not pd.api.types.is_float_dtype(table[column]):
            continue
        decimals = done.get(column, finest)
        if decimals is None:
            largest = float(np.nanmax(np.abs(table[column].to_numpy(dtype=float)), initial=0.0))
            decimals = interval_decimals(largest / 1e2) if largest > 0 else 0
        out[column] = table[column].round(decimals)
    return out


def notebook_rerun(default: int = NOTEBOOK_DEFAULT_GAMES) -> tuple[bool, int | None]:
    """Whether a notebook plays its experiment again, and at what size, from ``GOLFSIM_NOTEBOOK_GAMES``.

    Unset: ``(False, default)``, the notebook reads the committed ``results/`` (seconds). ``full``: ``(True, None)``,
    a rerun at each experiment's full size, the size of ``results/`` (hours on 2 cores). A number: ``(True, N)``.
    """
    if not os.environ.get(NOTEBOOK_GAMES_ENV, "").strip():
        return False, default
    return True, notebook_games(default)


def notebook_games(default: int = NOTEBOOK_DEFAULT_GAMES) -> int | None:
    """Games per cell for a notebook, from ``GOLFSIM_NOTEBOOK_GAMES``: unset -> ``default`` (small, for CI);
    ``full`` -> ``None`` (each experiment's full size, as in ``results/``); a number -> that number."""
    text = os.environ.get(NOTEBOOK_GAMES_ENV, "").strip().lower()
    if not text:
        return default
    if text == "full":
        return None
    try:
        games = int(text)
    except ValueError:
        raise ValueError(f"{NOTEBOOK_GAMES_ENV} must be a whole number or 'full', got {text!r}") from None
    if games < 1:
        raise ValueError(f"{NOTEBOOK_GAMES_ENV} must be at least 1, got {games}")
    return games
