"""The rules of six-card Golf, in one place.

- [`golfsim.core.spec`][]: the kernel interface (card codes, the 28 action ids and [`decode`][golfsim.core.spec.decode],
  phases, end reasons, the public-state header, packed-rule indices); its docstring is the engine spec.
- [`golfsim.core.rules`][]: [`Rules`][golfsim.core.rules.Rules], every option of the rules contract, validated.
- [`golfsim.core.cards`][], [`golfsim.core.scoring`][]: rank codes, layout parsing and the layout scorer.
- [`golfsim.core.rng`][]: the counter-based random streams (deals per (seed, game, hole), agents per seat).
- [`golfsim.core.engine`][]: the compiled rules (deal, legal actions, apply an action, recycle, end, score), the
  only place a rule is written.
- [`golfsim.core.worlds`][]: search support: a world consistent with what the mover knows, state copies.
- [`golfsim.core.errors`][]: the error codes compiled code reports back to Python.

Nothing here imports anything of golfsim outside ``core`` and ``_numba``.
"""
