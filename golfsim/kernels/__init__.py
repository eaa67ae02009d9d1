"""The compiled game loops that call the rules of :mod:`golfsim.core`.

- :mod:`golfsim.kernels.simulate`: the batch simulator (many N-hole games on every core, DataFrames out).
- :mod:`golfsim.kernels.self_play`: compact specialisations for random or greedy at every seat.
- :mod:`golfsim.kernels.logged`: the logging game loop behind decision logs.
- :mod:`golfsim.kernels.bot_loop`: the loop that plays compiled bots' turns between a framework's moves.
- :mod:`golfsim.kernels.bench`: the benchmark behind ``golfsim bench``.
"""
