"""The rules of six-card Golf, in one place.

- :mod:`golfsim.core.spec`: the kernel interface (card codes, the 28 action ids and :func:`~golfsim.core.spec.decode`,
  phases, end reasons, the public-state header, packed-rule indices); its docstring is the engine spec.
- :mod:`golfsim.core.rules`: :class:`~golfsim.core.rules.Rules`, every option of the rules contract, validated.
- :mod:`golfsim.core.cards`, :mod:`golfsim.core.scoring`: rank codes, layout parsing and the layout scorer.
- :mod:`golfsim.core.rng`: the counter-based random streams (deals per (seed, game, hole), agents per seat).
- :mod:`golfsim.core.engine`: the compiled rules (deal, legal actions, apply an action, recycle, end, score), the
  only place a rule is written.
- :mod:`golfsim.core.worlds`: search support: a world consistent with what the mover knows, state copies.
- :mod:`golfsim.core.errors`: the error codes compiled code reports back to Python.

Nothing here imports anything of golfsim outside ``core`` and ``_numba``.
"""
