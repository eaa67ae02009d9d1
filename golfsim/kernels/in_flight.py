"""Many games in flight at once, the compiled bots playing every turn up to the next outside decision.

A table with a plain-Python or batched agent cannot run inside the batch kernel, so its games are played in *slots*:
each slot holds one game's arrays, and [`advance_slots`][golfsim.kernels.in_flight.advance_slots] plays, in every slot,
the compiled seats' turns (and the holes' deals and scores) until a seat played from Python must decide or the slot's
game ends, when the slot takes the next game. Python then decides for the waiting slots (one call per decision, or one
call per batch for a batched agent), hands the actions back in ``actions`` and calls
[`advance_slots`][golfsim.kernels.in_flight.advance_slots] again.

Every game is played exactly as the batch kernel plays it ([`golfsim.kernels.simulate.play_game`][]): hole ``h``
of game ``g`` is dealt from ``deal_state(seed, g, h)``, seat ``p`` of game ``g`` draws from
``agent_state(agent_seed, g, p)``, and the outputs are the kernel's rows. So a game's result depends neither on
the number of slots nor on the order the slots finish.

The compiled agents are passed as addresses ([`golfsim.kernels.bot_loop.agent_addresses`][]): one call from
Python then costs a few microseconds rather than the unboxing of every first-class function.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from golfsim._numba.jit import NO_NRT, leaf
from golfsim.agents.dispatch import decide
from golfsim.core.engine import legal_mask
from golfsim.core.rng import uniform
from golfsim.core.spec import CURRENT, DONE, HOLE, PHASE, R_PLAYERS
from golfsim.game.observation import encode
from golfsim.kernels.bot_loop import agent_functions
from golfsim.kernels.game_steps import (
    Deal,
    HoleRows,
    advance,
    end_hole,
    next_hole,
    note_illegal,
    seat_view,
    start_hole,
    start_seats,
    write_hole,
)


@leaf
def _start_game(deal, agent_rng, totals, deal_seed, agent_seed, game):
    start_seats(agent_rng, totals, agent_seed, game, deal.rules[R_PLAYERS])
    start_hole(deal, deal_seed, game, 0, totals)


@leaf
def advance_in(rules, bot_ids, params, agent_fns, outside, sees, deal_seed, agent_seed, first_game, n_games,
               next_game, slot_game, actions, pubs, hids, deal_rngs, agent_rngs, totals, scores, sight,
               hole_scores, turns, enders, reasons, errors):
    """Play every slot up to its next outside decision; return how many slots wait for one.

    ``slot_game[s]`` is the row (game ``first_game + row``) slot ``s`` plays, -1 for a free slot; a free slot takes
    row ``next_game[0]`` while rows remain. ``actions[s]`` (if >= 0) is first played for the seat to move in slot
    ``s``. A seat with ``outside[p]`` is decided from Python. An illegal action (a compiled seat's, or an outside
    one) writes ``errors[row]`` = ``(hole + 1, seat, action, phase)`` and abandons that game, as the batch kernel
    does.
    """
    waiting = 0
    for s in range(slot_game.shape[0]):
        pub = pubs[s]
        deal = Deal(pub, hids[s], rules, deal_rngs[s])
        agent_rng = agent_rngs[s]
        tot = totals[s]
        while True:
            g = slot_game[s]
            if g < 0:
                if next_game[0] >= n_games:
                    break
                g = next_game[0]
                next_game[0] += 1
                slot_game[s] = g
                actions[s] = -1
                _start_game(deal, agent_rng, tot, deal_seed, agent_seed, first_game + g)
            a = actions[s]
            if a >= 0:
                actions[s] = -1
                if not advance(deal, a):
                    note_illegal(errors[g], pub[HOLE], np.int64(pub[CURRENT]), a, pub[PHASE])
                    slot_game[s] = -1
                    continue
            bad = False
            # simulate.play_game's decision step, with two differences: this loop also stops at an outside seat (to
            # be decided from Python) and, on an illegal move, abandons only this slot's game
            while pub[PHASE] != DONE:
                p = np.int64(pub[CURRENT])
                if outside[p]:
                    break
                view = seat_view(pub, deal, sees, p, sight)
                move = decide(bot_ids[p], agent_fns, view, rules, params[p], agent_rng, p)
                if not advance(deal, move):
                    note_illegal(errors[g], pub[HOLE], p, move, pub[PHASE])
                    bad = True
                    break
            if bad:
                slot_game[s] = -1
                continue
            if pub[PHASE] != DONE:
                waiting += 1
                break
            h = pub[HOLE]
            end_hole(deal, scores, tot)
            write_hole(deal, h, scores, HoleRows(hole_scores[g], turns[g], enders[g], reasons[g]))
            if not next_hole(deal, deal_seed, first_game + g, tot):
                slot_game[s] = -1
    return waiting


@njit(cache=True, **NO_NRT)
def advance_slots(rules, bot_ids, params, addresses, outside, sees, deal_seed, agent_seed, first_game, n_games,
                  next_game, slot_game, actions, pubs, hids, deal_rngs, agent_rngs, totals, scores, sight,
                  hole_scores, turns, enders, reasons, errors):
    """[`advance_in`][golfsim.kernels.in_flight.advance_in] with the agent functions rebuilt from ``addresses``
    ([`golfsim.kernels.bot_loop.agent_addresses`][])."""
    return advance_in(rules, bot_ids, params, agent_functions(addresses), outside, sees, deal_seed, agent_seed,
                      first_game, n_games, next_game, slot_game, actions, pubs, hids, deal_rngs, agent_rngs, totals,
                      scores, sight, hole_scores, turns, enders, reasons, errors)


@njit(cache=True, **NO_NRT)
def advance_slots_passing_functions(rules, bot_ids, params, agent_fns, outside, sees, deal_seed, agent_seed,
                                    first_game, n_games, next_game, slot_game, actions, pubs, hids, deal_rngs,
                                    agent_rngs, totals, scores, sight, hole_scores, turns, enders, reasons, errors):
    """[`advance_in`][golfsim.kernels.in_flight.advance_in] taking the function tuple itself (slower per call); for a
    Numba without the address helpers."""
    return advance_in(rules, bot_ids, params, agent_fns, outside, sees, deal_seed, agent_seed, first_game, n_games,
                      next_game, slot_game, actions, pubs, hids, deal_rngs, agent_rngs, totals, scores, sight,
                      hole_scores, turns, enders, reasons, errors)


@njit(cache=True, **NO_NRT)
def gather_decisions(rules, pubs, slot_game, agent_rngs, seat, slots, observations, masks, randoms):
    """For every slot whose ``seat`` must decide: its index into ``slots``, the seat's observation vector
    ([`golfsim.game.observation.encode`][]) into ``observations``, its legal-action mask into ``masks`` and one
    uniform number in [0, 1) from the seat's own agent stream into ``randoms``; returns how many."""
    n = 0
    for s in range(slot_game.shape[0]):
        pub = pubs[s]
        if slot_game[s] < 0 or pub[PHASE] == DONE or pub[CURRENT] != seat:
            continue
        slots[n] = s
        encode(pub, rules, seat, 1, observations[n])
        legal_mask(pub, rules, masks[n])
        randoms[n] = uniform(agent_rngs[s], seat)
        n += 1
    return n


@njit(cache=True, **NO_NRT)
def gather_masks(rules, pubs, slot_game, actions, seat, slots, masks):
    """For every slot whose ``seat`` must decide and has no action yet: its index into ``slots`` and its legal-action
    mask into ``masks``; returns how many. (Unlike [`gather_decisions`][golfsim.kernels.in_flight.gather_decisions],
    nothing is drawn from the agent streams.)"""
    n = 0
    for s in range(slot_game.shape[0]):
        pub = pubs[s]
        if slot_game[s] < 0 or pub[PHASE] == DONE or pub[CURRENT] != seat or actions[s] >= 0:
            continue
        slots[n] = s
        legal_mask(pub, rules, masks[n])
        n += 1
    return n
