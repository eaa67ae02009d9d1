"""golfsim: a fast, faithful research toolkit for six-card Golf.

The names most scripts need are importable from here (each loads its subsystem on first use)::

    from golfsim import Rules, simulate, GolfEnv, Game, parse_agent, score_layout

The subsystems, lowest first (each imports only those before it, or its neighbours on the same line;
``tests/test_import_layers.py`` holds the same floors and checks every import):

- [`golfsim.atomic`][] and [`golfsim.stats`][]: leaves (atomic file writes and error words; intervals and
  rating models) that import nothing of golfsim;
- `golfsim._numba`: how golfsim compiles (private; nothing else reaches into Numba's internals);
- `golfsim.core`: the rules (spec, [`Rules`][golfsim.core.rules.Rules], cards, random streams, the compiled engine,
  scoring);
- `golfsim.view`: pictures of the table as SVG (a [`Game`][golfsim.game.game.Game] and a hint position show themselves
  with it);
- [`golfsim.agents`][]: the policy contract, the registry, the built-in bots and plugin loading;
- `golfsim.game`: [`Game`][golfsim.game.game.Game] (one N-hole game a decision at a time, with events), the step API
  [`GolfEnv`][golfsim.game.env.GolfEnv] and the observation encoders;
- `golfsim.kernels`: the compiled game loops (batch simulation, self-play, logged games, bot loops);
- [`golfsim.interop`][]: PettingZoo, Gymnasium and OpenSpiel adapters;
- `golfsim.runs`: tasks on executors, result directories, provenance, progress;
- `golfsim.logs`, `golfsim.coach`, [`golfsim.learning`][]: decision logs, hints, training the learned
  player;
- [`golfsim.tournament`][], then [`golfsim.sweep`][] and [`golfsim.tuning`][]: tournaments, grids of
  tournaments, parameter search;
- [`golfsim.agent_checks`][]: the agent checks for plugin authors (legal under every variant, no peeking);
- [`golfsim.experiments`][]: the research questions, each writing ``results/<name>/``;
- [`golfsim.cli`][] and `golfsim.web`: the ``golfsim`` command line, and ``golfsim serve``'s web app (which
  reads the command line's rule options).
"""

from importlib import import_module

__version__ = "0.1.0"

_LAZY = {
    "Rules": "golfsim.core.rules",
    "score_layout": "golfsim.core.scoring",
    "simulate": "golfsim.kernels.simulate",
    "GolfEnv": "golfsim.game.env",
    "Game": "golfsim.game.game",
    "parse_agent": "golfsim.agents",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'golfsim' has no attribute {name!r}")
