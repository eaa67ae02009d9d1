"""Many single-seat Golf environments in flight at once, each stepped to its next decision in one compiled call.

The batched Gymnasium vector env ([`golfsim.interop.gymnasium.GolfVectorEnv`][]) keeps ``n`` games in batch
arrays, one row per env, like [`golfsim.kernels.in_flight`][]'s slots;
[`step_envs`][golfsim.kernels.in_flight_env.step_envs] then, for every env at once, starts its next game or plays its
action, plays the compiled bots' turns (and the next holes' deals) up to the learner's next decision, and writes the
learner's observation and legal-action mask. Each env plays exactly what [`golfsim.interop.match.Match`][] plays: hole
``h`` of game ``g`` under seed ``s`` is dealt from ``deal_state(s, g, h)`` and bot seat ``p`` draws from
``agent_state(s, g, p)``, so env ``i`` equals a [`GolfSoloEnv`][golfsim.interop.gymnasium.GolfSoloEnv] given its seed
and actions.

Per env ``mode[i]``: ``SKIP`` leaves it as it is, ``START`` starts game ``games[i]`` under ``seeds[i]``, ``NEXT``
starts game ``games[i] + 1``, ``PLAY`` plays ``actions[i]`` for the learner's seat. The call leaves ``mode`` ready
for the next step (``NEXT`` for an env whose game ended, ``PLAY`` otherwise), so a learner's step is one call;
Python steps in only when an action is illegal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from golfsim._numba.jit import NO_NRT, leaf
from golfsim.core.engine import legal_mask
from golfsim.core.spec import DONE, END_REASON, PHASE, R_PLAYERS, TRUNCATED
from golfsim.game.observation import encode
from golfsim.kernels.bot_loop import ILLEGAL_BOT, ILLEGAL_OUTSIDE, OK, agent_functions, play_turns
from golfsim.kernels.game_steps import Deal, end_hole, next_hole, start_hole, start_seats

SKIP, START, NEXT, PLAY = 0, 1, 2, 3


@leaf
def step_in(rules, bot_ids, params, agent_fns, is_bot, seat, mode, seeds, games, actions, pubs, hids, deal_rngs,
            agent_rngs, totals, scores, rewards, terminated, truncated, illegal, observations, masks, error):
    """Advance every env whose ``mode`` is not ``SKIP`` to the learner's next decision (see the module docstring).

    First every ``PLAY`` env's action is checked against its mask (the legal actions of its last observation): if
    any is not legal, ``illegal[i]`` marks those envs (0 elsewhere) and the call returns ``ILLEGAL_OUTSIDE`` having
    changed nothing else; the caller decides what they do and calls again.

    ``rewards[i]`` gets minus the learner's points of the holes that ended, ``terminated[i]`` / ``truncated[i]``
    whether the game ended after its last hole / at a deal's turn cap; an env whose game is over gets an all-zero
    mask. Returns ``OK``, or ``ILLEGAL_OUTSIDE`` / ``ILLEGAL_BOT`` with ``error[:4]`` = (env, seat, action, phase)
    and that env's move not played (the envs before it were advanced); ``error`` (int64) has 7 entries, the last
    three being the bot loop's scratch.
    """
    players = rules[R_PLAYERS]
    bot_error = error[4:]
    bad = 0
    for i in range(mode.shape[0]):
        a = actions[i]
        illegal[i] = mode[i] == PLAY and (a < 0 or a >= masks.shape[1] or masks[i, a] == 0)
        bad += illegal[i]
    if bad:
        return ILLEGAL_OUTSIDE
    for i in range(mode.shape[0]):
        m = mode[i]
        if m == SKIP:
            continue
        if m == NEXT:
            games[i] += 1
        pub = pubs[i]
        hid = hids[i]
        deal_rng = deal_rngs[i]
        agent_rng = agent_rngs[i]
        tot = totals[i]
        action = actions[i]
        deal = Deal(pub, hid, rules, deal_rng)
        if m != PLAY:
            start_seats(agent_rng, tot, seeds[i], games[i], players)
            start_hole(deal, seeds[i], games[i], 0, tot)
            action = -1
        reward = 0.0
        over = False
        cut = False
        while True:
            code = play_turns(pub, hid, rules, deal_rng, agent_rng, bot_ids, params, agent_fns, is_bot, action,
                              bot_error)
            if code != OK:
                error[0] = i
                error[1] = seat if code == ILLEGAL_OUTSIDE else bot_error[0]
                error[2] = action if code == ILLEGAL_OUTSIDE else bot_error[1]
                error[3] = pub[PHASE] if code == ILLEGAL_OUTSIDE else bot_error[2]
                return code
            action = -1
            if pub[PHASE] != DONE:
                break
            end_hole(deal, scores, tot)
            reward -= scores[seat]
            cut = pub[END_REASON] == TRUNCATED
            if cut or not next_hole(deal, seeds[i], games[i], tot):
                over = True
                break
        rewards[i] = reward
        truncated[i] = cut
        terminated[i] = over and not cut
        mode[i] = NEXT if over else PLAY
        encode(pub, rules, seat, 1, observations[i])
        if over:
            masks[i, :] = 0
        else:
            legal_mask(pub, rules, masks[i])
    return OK


@njit(cache=True, **NO_NRT)
def step_envs(rules, bot_ids, params, addresses, is_bot, seat, mode, seeds, games, actions, pubs, hids, deal_rngs,
              agent_rngs, totals, scores, rewards, terminated, truncated, illegal, observations, masks, error):
    """[`step_in`][golfsim.kernels.in_flight_env.step_in] with the agent functions rebuilt from ``addresses``
    ([`golfsim.kernels.bot_loop.agent_addresses`][]), so a call from Python costs microseconds."""
    return step_in(rules, bot_ids, params, agent_functions(addresses), is_bot, seat, mode, seeds, games, actions,
                   pubs, hids, deal_rngs, agent_rngs, totals, scores, rewards, terminated, truncated, illegal,
                   observations, masks, error)


@njit(cache=True, **NO_NRT)
def step_envs_passing_functions(rules, bot_ids, params, agent_fns, is_bot, seat, mode, seeds, games, actions, pubs,
                                hids, deal_rngs, agent_rngs, totals, scores, rewards, terminated, truncated,
                                illegal, observations, masks, error):
    """[`step_in`][golfsim.kernels.in_flight_env.step_in] taking the function tuple itself (slower per call); for a
    Numba without the address helpers."""
    return step_in(rules, bot_ids, params, agent_fns, is_bot, seat, mode, seeds, games, actions, pubs, hids,
                   deal_rngs, agent_rngs, totals, scores, rewards, terminated, truncated, illegal, observations, masks,
                   error)


@njit(cache=True, **NO_NRT)
def pick_legal(masks, uniforms, out):
    """Per row of ``masks``: the legal action whose rank among the row's legal ones is ``floor(uniforms[i] *
    count)``, i.e. a uniform draw among them (0 for a row without one)."""
    for i in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            count += masks[i, a] != 0
        nth = np.int64(uniforms[i] * count)
        out[i] = 0
        for a in range(masks.shape[1]):
            if masks[i, a] != 0:
                if nth == 0:
                    out[i] = a
                    break
                nth -= 1


__all__ = ["ILLEGAL_BOT", "ILLEGAL_OUTSIDE", "NEXT", "OK", "PLAY", "SKIP", "START", "pick_legal", "step_envs",
           "step_envs_passing_functions", "step_in"]
