"""``learned-tips``: the learned player ``learned`` with a strategy tip's rule laid over its decisions, for the tips
experiment ([`golfsim.experiments.tips`][]).

``learned`` plays the move of best expected learned value; it has no parameter for any tip. So the tips are tested
on it as rules over its decision, each a parameter of this agent (every one off by default):

- ``blind_swap`` (tip (a), "swap blind early"; on at 3): a drawn card worth at most this many points replaces a
  face-down card while two or more are face down (greedy's rule): when learned's own move does not already put it
  on a face-down card, it goes on the face-down card of best learned value.
- ``pairs_first`` (tip (b), "build pairs before you lower singles"; on at 1): when the top discard (at the start
  of a turn) or the drawn card (when holding one) completes a column pair with a positive gain, as pair-builder's
  ``pairs_first`` rule finds it (pair-builder's defaults otherwise), that pair is taken or placed, whatever learned
  prefers (the rule of ``mc-tips``, [`golfsim.experiments.mc_tips`][]).
- ``keep_threshold`` (tip (c); on at 10 or 6, off at 99): a column with one face-up card worth at least this many
  points over a face-down card is kept for its pair while a card of that rank can still come (pair-builder's
  reservation, [`golfsim.agents.pair_builder.reserved_columns`][]): no card but the matching one goes into it.
- ``count_out`` (tip (e), "count before you go out"; on at 1): a move that goes out with a final score above ev's
  limit (the best opponent's estimate, as ev and ``mc-tips`` judge it) is not played.
- ``lone_two`` (tip (f), "a lone two beats a pair of twos"; on at 1): a move that completes a column pair of cards
  that score less apart (twos, under the default rules) is not played.

A move a rule forbids is replaced by the allowed move of best learned value (ties: the lowest action id); when the
rules forbid every legal move, learned's own move stands. No rule applies in the opening flips or once the deal has
to progress (from half of ``turn_cap``, [`golfsim.agents.learned.policy.must_progress`][]), so every deal still
ends. Tip (d) ("watch the discard pile") is not a rule here: the learned value of a throw already includes what the
thrown card is worth to the next player.

With every rule off, ``learned-tips`` plays move for move like ``learned`` (it draws nothing from its random stream
either). It is registered when this module is imported (by [`golfsim.experiments.tips`][]); it is not a built-in
and not in any default pool.
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.agents.base import REGISTRY, Param, register_compiled_agent
from golfsim.agents.common import better_alone
from golfsim.agents.expected_value import PARAMS as EV_PARAMS
from golfsim.agents.learned import WEIGHTS
from golfsim.agents.learned.policy import action_values, decide, must_progress
from golfsim.agents.pair_builder import reserved_columns
from golfsim.core.engine import face_down_count, top_discard
from golfsim.core.spec import (
    FLIP_PHASE,
    HELD,
    HOLD,
    NUM_ACTIONS,
    PHASE,
    PLACE_DRAWN,
    R_OFF_VIEW,
    R_POINTS,
    START,
    TAKE_DISCARD,
)
from golfsim.core.worlds import stack_float64
from golfsim.experiments.mc_tips import _goes_out_above_limit, _pair_move

NAME = "learned-tips"
BLIND_SWAP, PAIRS_FIRST, KEEP_THRESHOLD, COUNT_OUT, LONE_TWO = range(5)
#: ``blind_swap`` at or below this is off (below every card's points).
BLIND_SWAP_OFF = -99.0
#: ``keep_threshold`` at or above this is off (above every card's points).
KEEP_OFF = 99.0
PARAMS = (
    Param("blind_swap", BLIND_SWAP_OFF, "tip (a): a drawn card worth <= this replaces a face-down card (the one of "
                                        "best learned value) while two or more are face down; -99 off",
          minimum=-99, maximum=20),
    Param("pairs_first", 0.0, "tip (b): 1 takes or places a card that completes a column pair (pair-builder's "
                              "rule) whatever learned prefers; 0 off", kind="bool"),
    Param("keep_threshold", KEEP_OFF, "tip (c): a face-up card worth >= this over a face-down card keeps its "
                                      "column for the pair while one can come; 99 off", minimum=-99, maximum=99),
    Param("count_out", 0.0, "tip (e): 1 never goes out above ev's limit (the best opponent's estimate); 0 off",
          kind="bool"),
    Param("lone_two", 0.0, "tip (f): 1 never completes a column pair of twos (cards that score less apart); 0 off",
          kind="bool"),
)
_EV_DEFAULTS = np.array([p.default for p in EV_PARAMS], dtype=np.float64)


@leaf
def _placement(pub, rules, action):
    """``(position, card)`` of an action that puts a card into the layout (the top discard taken, or the drawn
    card placed), or ``(-1, -1)``."""
    phase = pub[PHASE]
    if phase == START and TAKE_DISCARD <= action < TAKE_DISCARD + 6:
        return action - TAKE_DISCARD, top_discard(pub, rules)
    if phase == HOLD and PLACE_DRAWN <= action < PLACE_DRAWN + 6:
        return action - PLACE_DRAWN, pub[HELD]
    return -1, -1


@hot
def _forbidden(pub, rules, params, ev_params, player, reserved, action):
    """True when a rule switched on in ``params`` forbids ``action`` (tips (c), (e) and (f); module docstring)."""
    k, card = _placement(pub, rules, action)
    if k >= 0:
        base = rules[R_OFF_VIEW] + 6 * player
        partner = pub[base + (k + 3) % 6]
        if (reserved >> (k % 3)) & 1:
            up = pub[base + k] if pub[base + k] >= 0 else partner
            if not (card == up and pub[base + k] < 0):
                return True
        if params[LONE_TWO] != 0.0 and partner == card and pub[base + k] != card and better_alone(rules, card):
            return True
    if params[COUNT_OUT] != 0.0 and _goes_out_above_limit(pub, rules, ev_params, player, action):
        return True
    return False


@hot
def _blind_swap(pub, rules, player, values, action):
    """Tip (a): the placement of the drawn card on the face-down card of best learned value, or ``action`` when it
    already goes on a face-down card."""
    base = rules[R_OFF_VIEW] + 6 * player
    if PLACE_DRAWN <= action < PLACE_DRAWN + 6 and pub[base + action - PLACE_DRAWN] < 0:
        return action
    best = action
    best_value = np.inf
    for k in range(6):
        v = values[PLACE_DRAWN + k]
        if pub[base + k] < 0 and v == v and v < best_value:
            best_value = v
            best = PLACE_DRAWN + k
    return best


@hot
def learned_tips_act(pub, rules, params, agent_rng, player):
    """Decision of ``learned-tips``: learned's move, changed by the rules of the tips switched on (module
    docstring)."""
    action = decide(pub, rules, WEIGHTS, player, agent_rng, 0.0)
    phase = pub[PHASE]
    if (phase != START and phase != HOLD and phase != FLIP_PHASE) or must_progress(pub, rules):
        return action
    if params[PAIRS_FIRST] != 0.0:
        pair = _pair_move(pub, rules, player)
        if pair >= 0:
            return pair
    values = stack_float64(NUM_ACTIONS)
    if (params[BLIND_SWAP] > BLIND_SWAP_OFF and phase == HOLD and face_down_count(pub, rules, player) >= 2
            and rules[R_POINTS + pub[HELD]] <= params[BLIND_SWAP]):
        action_values(pub, rules, WEIGHTS, player, values)
        action = _blind_swap(pub, rules, player, values, action)
    reserved = 0
    if params[KEEP_THRESHOLD] < KEEP_OFF:
        reserved = reserved_columns(pub, rules, player, params[KEEP_THRESHOLD], False)
    ev_params = stack_float64(8)
    for i in range(len(_EV_DEFAULTS)):
        ev_params[i] = _EV_DEFAULTS[i]
    if not _forbidden(pub, rules, params, ev_params, player, reserved, action):
        return action
    action_values(pub, rules, WEIGHTS, player, values)
    best = action
    best_value = np.inf
    for a in range(NUM_ACTIONS):
        v = values[a]
        if v == v and v < best_value and not _forbidden(pub, rules, params, ev_params, player, reserved, a):
            best_value = v
            best = a
    return best


def register_learned_tips() -> None:
    """Register ``learned-tips`` (once per process)."""
    if NAME not in REGISTRY:
        register_compiled_agent(NAME, "learned with strategy tips (a), (b), (c), (e) and (f) laid over its moves "
                                      "(golfsim.experiments.tips; not a built-in)", learned_tips_act, PARAMS)


register_learned_tips()
