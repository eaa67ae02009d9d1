"""Six-card Golf for other frameworks: PettingZoo, Gymnasium and OpenSpiel (install with ``golfsim[rl]``).

- [`golfsim.interop.pettingzoo`][]: the AEC environment (``env``, ``raw_env``), every seat a learner.
- [`golfsim.interop.gymnasium`][]: ``golfsim/Golf-v0``, one learner against compiled golfsim bots.
- [`golfsim.interop.openspiel`][]: the OpenSpiel game ``python_golf`` and a bridge that seats an OpenSpiel bot
  at a golfsim table.

The adapters have no rules of their own and no game loop of their own: each is a layer over
[`golfsim.game.game.Game`][], which deals every hole, keeps the totals and ends holes and the game, through the
engine's compiled rule functions; what a seat observes is encoded from the engine's public state by
[`golfsim.game.observation`][]. [`golfsim.interop.match.Match`][] adds the compiled loop that plays the bots'
turns (PettingZoo and Gymnasium wrap it); the OpenSpiel state adds the chance deal, card by card. This package
itself imports none of the frameworks.
"""
