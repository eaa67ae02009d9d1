"""Tuning an agent's parameters on duplicate deals against a chosen field (``golfsim tune``).

How a study runs
----------------
- **Search space.** By default every parameter with a declared range that the agent string does not set. Every
  parameter searched has a range: given by the caller (``"watch_discard=0:1"``), declared on the agent's
  [`Param`][golfsim.agents.base.Param] (``low``, ``high``, ``kind``), or, for the agents golfsim ships, taken from
  [`BUILT_IN_RANGES`][golfsim.tuning.space.BUILT_IN_RANGES]. Floats are searched on a grid of ``step`` (1/100 of the
  range, rounded down to a power of ten, unless given), so the winner prints as a short agent string and the study holds
  exactly the values played; whole-number parameters are searched as integers and on/off switches as 0 or 1. Parameters
  not searched keep the values of the agent string given (``"ev:count_out=0"`` fixes ``count_out``).
- **A trial** plays the candidate against every agent of the field: for each field agent, one table with the
  candidate in one seat and that agent in every other seat, played in all cyclic seat rotations on ``games``
  duplicate deal sets ([`golfsim.tournament.run_tournament`][]). The candidate's *lead* in a deal set is its mean
  nine-hole total minus the mean total of the other seats (over the rotations), averaged over the field; the
  objective is the mean lead over the deal sets, in points per game (negative: the candidate scores lower, which
  is better).
- **The same deals for every trial.** Every trial plays the deal sets of ``seed`` with the same agent streams, so
  two trials differ only in the parameters: the comparison is paired (common random numbers), and the luck of the
  cards, which is far larger than most parameter effects, does not decide which trial looks best.
- **Sampler.** optuna's TPE sampler, minimising the objective. Trial 0 plays the baseline (when its values lie in
  the space), so the winner is never worse than it on the tuning deals; the next ``startup_trials - 1`` are drawn
  at random, and TPE models the results from then on. The sampler of trial ``n`` is seeded from ``(seed, n)``, so
  a study is a function of the seed alone and a resumed study continues exactly as an uninterrupted one would
  have.
- **Re-evaluation.** The best trial was picked on the tuning deals, so its objective there is optimistic (the best
  of many noisy estimates). The winner is therefore replayed on fresh deals (a seed derived from ``seed``): against
  the field, against the *baseline* (the agent as given: its defaults, unless the agent string fixed some) at a
  table of the same shape, and the baseline against the field on the same fresh deals, with 95% t-intervals over
  deal sets ([`golfsim.stats`][]).
- **Stopping early.** A ``KeyboardInterrupt`` (Ctrl-C, or raised by a ``progress`` callback) ends the study after
  the last complete trial; the result keeps those trials, is marked ``partial`` and has no re-evaluation.

The code
--------
`golfsim.tuning.space` reads the search space, `golfsim.tuning.evaluation` plays a trial and the
re-evaluation, `golfsim.tuning.running` runs the study ([`tune`][golfsim.tuning.running.tune]),
`golfsim.tuning.storage` keeps it in optuna's SQLite storage and `golfsim.tuning.report` holds the result
and writes its files. [`golfsim.tuning.study`][] gathers the public names.
"""
