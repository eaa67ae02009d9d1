"""golfsim: a fast, faithful research toolkit for six-card Golf.

The main entry points: :class:`golfsim.rules.Rules` (every rule option), :func:`golfsim.simulate.simulate`
(batch games), :class:`golfsim.env.GolfEnv` (the step API), :class:`golfsim.game.Game` (an N-hole game a decision
at a time, with events), :mod:`golfsim.trace` (decision logs), :func:`golfsim.scoring.score_layout` and the
``golfsim`` command line.
"""

__version__ = "0.1.0"
