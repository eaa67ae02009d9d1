"""The compiled game loops that call the rules of :mod:`golfsim.core`.

- :mod:`golfsim.kernels.game_steps`: the one compiled step every loop takes (start a hole, play a decision, end a
  hole), over :class:`~golfsim.kernels.game_steps.Deal` and :class:`~golfsim.kernels.game_steps.HoleRows`;
- :mod:`golfsim.kernels.simulate`: the batch simulator (many N-hole games on every core, DataFrames out), with its
  greedy and random self-play kernels;
- :mod:`golfsim.kernels.batch`: :class:`~golfsim.kernels.batch.Batch`, the per-deal arrays every loop writes;
- :mod:`golfsim.kernels.self_play`: compact kernels for greedy or random at every seat under plain rules;
- :mod:`golfsim.kernels.counted`: the batch simulator's games with the decisions counted (game analytics);
- :mod:`golfsim.kernels.logged`: the logging game loop behind decision logs;
- :mod:`golfsim.kernels.python_seats`: tables that seat plain-Python or batched agents, games in slots;
- :mod:`golfsim.kernels.in_flight`: the compiled side of those slots (every compiled seat's turns up to an
  outside decision);
- :mod:`golfsim.kernels.in_flight_env`: many vectorised RL environments stepped at once;
- :mod:`golfsim.kernels.bot_loop`: the loop that plays compiled bots' turns between a framework's moves;
- :mod:`golfsim.kernels.bench`: the benchmark behind ``golfsim bench``.
"""
