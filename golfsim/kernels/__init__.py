"""The compiled game loops that call the rules of `golfsim.core`.

- [`golfsim.kernels.game_steps`][]: the one compiled step every loop takes (start a hole, play a decision, end a
  hole), over [`Deal`][golfsim.kernels.game_steps.Deal] and [`HoleRows`][golfsim.kernels.game_steps.HoleRows];
- [`golfsim.kernels.simulate`][]: the batch simulator (many N-hole games on every core, DataFrames out), with its
  greedy and random self-play kernels;
- [`golfsim.kernels.batch`][]: [`Batch`][golfsim.kernels.batch.Batch], the per-deal arrays every loop writes;
- [`golfsim.kernels.self_play`][]: compact kernels for greedy or random at every seat under plain rules;
- [`golfsim.kernels.counted`][]: the batch simulator's games with the decisions counted (game analytics);
- [`golfsim.kernels.logged`][]: the logging game loop behind decision logs;
- [`golfsim.kernels.python_seats`][]: tables that seat plain-Python or batched agents, games in slots;
- [`golfsim.kernels.in_flight`][]: the compiled side of those slots (every compiled seat's turns up to an
  outside decision);
- [`golfsim.kernels.in_flight_env`][]: many vectorised RL environments stepped at once;
- [`golfsim.kernels.bot_loop`][]: the loop that plays compiled bots' turns between a framework's moves;
- [`golfsim.kernels.bench`][]: the benchmark behind ``golfsim bench``.
"""
