"""Compiled self-play for training the learned value, and duels against ev for its learning curve.

Self-play ([`self_play_chunk`][golfsim.learning.selfplay.self_play_chunk])
-----------------------------------
Every seat plays [`golfsim.agents.learned.policy.decide`][] under the current weights. After each of a player's turns
that leaves the deal running, the features of the state from that player's point of view are kept
([`golfsim.agents.learned.value.features`][]), with the current value of that state. When the deal is over, each of
the player's states gets its *lambda-return* as a target, computed backwards from the deal's outcome ``D`` (the
player's deal score less the opponents' mean): the last state's target is ``D`` and each earlier one's is
``(1 - lam) V(next state) + lam * target(next state)`` (TD(lambda) in its forward view; ``lam = 1`` gives plain
Monte-Carlo returns). Nothing is stored beyond the deal: each target goes straight into the normal equations of a
least-squares fit, per row, ``A[row] += phi phi^T`` (the upper triangle) and ``b[row] += phi * target``.

Game ``g`` of a chunk is one deal dealt from ``deal_state(seed, g, 0)`` with player ``g % players`` moving first,
and seat ``p`` explores from ``agent_state(seed, g, p)``, so a chunk's sums depend on the seed, the game range and
the weights only; the caller adds chunks in a fixed order, so the result does not depend on the thread count.

Duels ([`duel_chunk`][golfsim.learning.selfplay.duel_chunk])
--------------------------
Two-player duplicate deals: deal ``g`` is played twice, the learned player in seat 0 and then in seat 1 against ev
with the given parameters, and the deal's margin is the mean over both of ev's score less the learned player's
(positive: the learned player is ahead).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from golfsim.agents.expected_value import ev_act
from golfsim.agents.learned.policy import decide
from golfsim.agents.learned.value import NUM_FEATURES, features, tuple_entries
from golfsim.core.cards import NUM_CODES
from golfsim.core.engine import apply_action, deal_scores, deal_shuffled, is_legal
from golfsim.core.rng import agent_state, deal_state
from golfsim.core.spec import CURRENT, DONE, END_REASON, OPEN, PHASE, R_PLAYERS, R_TURN_CAP, TRUNCATED, TURN

STAT_DEALS, STAT_TRUNCATED, STAT_ERRORS, STAT_SAMPLES, STAT_SQUARED_ERROR, STAT_TURNS = range(6)
NUM_STATS = 6


MAX_ENTRIES = NUM_FEATURES + 3 * 8
"""Nonzero features of one kept state at most: the linear ones and, for an n-tuple model, three own columns and three
per opponent (up to 8 players)."""


@njit(cache=True, nogil=True)
def self_play_chunk(rules, w, lam, explore, seed, first_game, n_games, a_sums, b_sums, row_counts, stats,
                    pub, hid, deal_rng, agent_rng, totals, scores):
    """Play games ``first_game .. first_game + n_games - 1`` in self-play under weights ``w`` and add their
    normal equations to ``a_sums`` (rows x width x width, upper triangle), ``b_sums`` (rows x width) and
    ``row_counts``, ``width`` that of ``w``; ``stats`` (``NUM_STATS``) gets deals, truncated deals, illegal actions,
    samples, the squared error of the values against their targets and turns. ``pub .. scores`` are work arrays
    ([`golfsim.kernels.simulate.work_arrays`][]).

    Each state is kept as its nonzero features: the linear ones and, for an n-tuple model (``w`` wider than
    ``NUM_FEATURES``), the one-hot column states ([`tuple_entries`][golfsim.agents.learned.value.tuple_entries]),
    added to the sums sparsely (the same sums, to the bit, as the dense products: a zero adds nothing)."""
    players = rules[R_PLAYERS]
    cap = rules[R_TURN_CAP] + 2
    tables = w.shape[1] > NUM_FEATURES
    traj_idx = np.zeros((players, cap, MAX_ENTRIES), dtype=np.int64)
    traj_val = np.zeros((players, cap, MAX_ENTRIES))
    traj_n = np.zeros((players, cap), dtype=np.int64)
    traj_value = np.zeros((players, cap))
    traj_row = np.zeros((players, cap), dtype=np.int64)
    traj_len = np.zeros(players, dtype=np.int64)
    phi = np.zeros(NUM_FEATURES)
    gains = np.zeros(NUM_CODES)
    t_idx = np.zeros(3 * players, dtype=np.int64)
    t_val = np.zeros(3 * players)
    for i in range(n_games):
        game = first_game + i
        deal_rng[0] = deal_state(seed, game, 0)
        for p in range(players):
            agent_rng[p] = agent_state(seed, game, p)
            traj_len[p] = 0
            totals[p] = 0
        deal_shuffled(pub, hid, rules, deal_rng, 0, game % players, totals)
        failed = False
        while pub[PHASE] != DONE:
            p = np.int64(pub[CURRENT])
            phase = pub[PHASE]
            a = decide(pub, rules, w, p, agent_rng[p:p + 1], explore)
            if not is_legal(pub, rules, a):
                failed = True
                break
            apply_action(pub, hid, rules, deal_rng, a)
            if phase != OPEN and pub[PHASE] != DONE and pub[CURRENT] != p:
                row = features(pub, rules, p, phi, gains)
                t = traj_len[p]
                v = 0.0
                n = 0
                for j in range(NUM_FEATURES):
                    if phi[j] != 0.0:
                        traj_idx[p, t, n] = j
                        traj_val[p, t, n] = phi[j]
                        v += w[row, j] * phi[j]
                        n += 1
                if tables:
                    m = tuple_entries(pub, rules, p, t_idx, t_val)
                    for k in range(m):
                        traj_idx[p, t, n] = t_idx[k]
                        traj_val[p, t, n] = t_val[k]
                        v += w[row, t_idx[k]] * t_val[k]
                        n += 1
                traj_n[p, t] = n
                traj_value[p, t] = v
                traj_row[p, t] = row
                traj_len[p] = t + 1
        if failed:
            stats[STAT_ERRORS] += 1
            continue
        stats[STAT_DEALS] += 1
        stats[STAT_TURNS] += pub[TURN]
        if pub[END_REASON] == TRUNCATED:
            stats[STAT_TRUNCATED] += 1
        deal_scores(pub, hid, rules, scores)
        total = 0.0
        for p in range(players):
            total += scores[p]
        for p in range(players):
            target = scores[p] - (total - scores[p]) / (players - 1)
            for t in range(traj_len[p] - 1, -1, -1):
                row = traj_row[p, t]
                n = traj_n[p, t]
                for e in range(n):
                    j = traj_idx[p, t, e]
                    x = traj_val[p, t, e]
                    b_sums[row, j] += x * target
                    for f in range(n):
                        m = traj_idx[p, t, f]
                        if m >= j:
                            a_sums[row, j, m] += x * traj_val[p, t, f]
                row_counts[row] += 1
                err = target - traj_value[p, t]
                stats[STAT_SAMPLES] += 1
                stats[STAT_SQUARED_ERROR] += err * err
                target = (1.0 - lam) * traj_value[p, t] + lam * target


@njit(cache=True, nogil=True)
def duel_chunk(rules, w, ev_params, seed, first_game, n_games, margins, pub, hid, deal_rng, agent_rng, totals,
               scores):
    """Duplicate two-player deals ``first_game ..`` of the learned player (weights ``w``) against ev
    (``ev_params``): ``margins[i]`` is ev's score less the learned player's, the mean over both seatings (NaN if
    a move was illegal)."""
    for i in range(n_games):
        game = first_game + i
        margin = 0.0
        for seat in range(2):
            deal_rng[0] = deal_state(seed, game, 0)
            for p in range(2):
                agent_rng[p] = agent_state(seed, game, p)
                totals[p] = 0
            deal_shuffled(pub, hid, rules, deal_rng, 0, 0, totals)
            while pub[PHASE] != DONE:
                p = np.int64(pub[CURRENT])
                if p == seat:
                    a = decide(pub, rules, w, p, agent_rng[p:p + 1], 0.0)
                else:
                    a = ev_act(pub, rules, ev_params, agent_rng[p:p + 1], p)
                if not is_legal(pub, rules, a):
                    margin = np.nan
                    break
                apply_action(pub, hid, rules, deal_rng, a)
            if pub[PHASE] == DONE:
                deal_scores(pub, hid, rules, scores)
                margin += 0.5 * (scores[1 - seat] - scores[seat])
        margins[i] = margin
