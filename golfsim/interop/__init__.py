"""Six-card Golf for other frameworks: PettingZoo, Gymnasium and OpenSpiel (install with ``golfsim[rl]``).

- :mod:`golfsim.interop.pettingzoo`: the AEC environment (``env``, ``raw_env``), every seat a learner.
- :mod:`golfsim.interop.gymnasium`: ``golfsim/Golf-v0``, one learner against compiled golfsim bots.
- :mod:`golfsim.interop.openspiel`: the OpenSpiel game ``python_golf`` and a bridge that seats an OpenSpiel bot
  at a golfsim table.

The adapters have no rules of their own: every deal, legal-action test, move and score is a call into
:mod:`golfsim.core.engine`, and what a seat observes is encoded from the engine's public state by
:mod:`golfsim.game.observation`. :mod:`golfsim.interop.table` holds the one deal the adapters share and the
compiled loop that plays the bots' turns. This package itself imports none of the frameworks.
"""
