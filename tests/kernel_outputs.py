"""Call a simulator kernel directly and collect every output array: for tests that compare kernels game for game."""

import numpy as np

from golfsim.kernels.simulate import Table, work_arrays


def kernel_outputs(kernel, table: Table, games: int, seed: int) -> list[np.ndarray]:
    """Every output array (hole scores, turns, enders, end reasons, error rows) of one call of ``kernel`` for
    ``games`` games of ``table``."""
    rules = table.rules.pack()
    ids, params, agent_fns = table.kernel_arguments()
    holes, players = table.rules.holes, table.rules.players
    outputs = [np.zeros((games, holes, players), np.int16), np.zeros((games, holes), np.int16),
               np.full((games, holes), -1, np.int8), np.zeros((games, holes), np.int8), np.zeros((games, 4), np.int64)]
    kernel(rules, ids, params, agent_fns, np.uint64(seed), np.uint64(seed + 1), 0, 0, games, *outputs,
           table.sees_hidden(), *work_arrays(rules))
    return outputs
