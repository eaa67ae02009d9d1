"""``mc-tips``: the searching player ``mc`` with a strategy tip's rule laid over its decisions, for the tips
experiment ([`golfsim.experiments.tips`][]).

mc has no parameter for tips (b) and (e): its baseline and its rollouts are ev at its defaults. So the tips are
tested on mc as rules over its decision, each a parameter of this agent (0 off, 1 on):

- ``pairs_first`` (tip (b), "build pairs before you lower singles"): when the top discard (at the start of a turn)
  or the drawn card (when holding one) completes a column pair with a positive gain, as pair-builder's
  ``pairs_first`` rule finds it (pair-builder's defaults otherwise), that pair is taken or placed, whatever the
  search prefers.
- ``count_out`` (tip (e), "count before you go out"): when the search's move would go out with a final score above
  ev's limit (the best opponent's estimate; ev's ``out_limit``, lifted in the last-turn circuit and once the deal
  has stalled), the move is vetoed and ev's move (ev's defaults, which obey the same limit) is played instead.

The search runs at every decision either way, so the agent's random stream is consumed exactly as plain ``mc``'s
and, with both rules off, ``mc-tips`` plays move for move like ``mc`` with the same search parameters. It is
registered when this module is imported (by [`golfsim.experiments.tips`][]); it is not a built-in and not in any
default pool.
"""

from __future__ import annotations

from golfsim._numba.jit import hot
from golfsim.agents.base import REGISTRY, Param, register_compiled_agent
from golfsim.agents.common import hidden_mean, stall_floor
from golfsim.agents.expected_value import BIG, decision_context, draw_value, draw_value_reference, ev_act, layout_value
from golfsim.agents.expected_value import PARAMS as EV_PARAMS
from golfsim.agents.pair_builder import PARAMS as PB_PARAMS
from golfsim.agents.pair_builder import pair_builder_choice, reserved_columns
from golfsim.agents.search import MC_PARAMS, mc_act
from golfsim.core.engine import top_discard
from golfsim.core.spec import (
    FLIP,
    FLIP_PHASE,
    HELD,
    HOLD,
    PHASE,
    PLACE_DRAWN,
    R_FOUR_BONUS,
    R_OFF_VIEW,
    REVEAL,
    START,
    TAKE_DISCARD,
)
from golfsim.core.worlds import stack_float64

NAME = "mc-tips"
PAIRS_FIRST = len(MC_PARAMS)
COUNT_OUT = PAIRS_FIRST + 1
PARAMS = (*MC_PARAMS,
          Param("pairs_first", 0.0, "tip (b): 1 takes or places a card that completes a column pair (pair-builder's "
                                    "rule) whatever the search prefers; 0 off"),
          Param("count_out", 0.0, "tip (e): 1 vetoes a move of the search that goes out above ev's limit (the best "
                                  "opponent's estimate) and plays ev's move instead; 0 off"))
_EV_DEFAULTS = tuple(p.default for p in EV_PARAMS)
_PB_DEFAULTS = {p.name: p.default for p in PB_PARAMS}
_KEEP_THRESHOLD = _PB_DEFAULTS["keep_threshold"]
_LONE_TWO = _PB_DEFAULTS["lone_two"] != 0.0


@hot
def _pair_move(pub, rules, player):
    """Tip (b): the action that takes or places a pair-completing card with a positive gain, or -1."""
    phase = pub[PHASE]
    if phase != START and phase != HOLD:
        return -1
    base = rules[R_OFF_VIEW] + 6 * player
    h = stall_floor(pub, rules, hidden_mean(pub, rules))
    reserved = reserved_columns(pub, rules, player, _KEEP_THRESHOLD, _LONE_TWO)
    card = top_discard(pub, rules) if phase == START else pub[HELD]
    pair_k, pair_gain, k, gain = pair_builder_choice(pub, rules, base, h, card, reserved, _LONE_TWO)
    if pair_k < 0 or not pair_gain > 0.0:
        return -1
    return TAKE_DISCARD + pair_k if phase == START else PLACE_DRAWN + pair_k


@hot
def _goes_out_above_limit(pub, rules, ev_params, player, action):
    """Tip (e): True when ``action`` turns or covers the player's last face-down card with a final score above ev's
    going-out limit."""
    phase = pub[PHASE]
    if rules[R_FOUR_BONUS] != 0:
        ctx = decision_context(pub, rules, ev_params, player, draw_value_reference)
    else:
        ctx = decision_context(pub, rules, ev_params, player, draw_value)
    if ctx.last < 0 or ctx.limit >= BIG:
        return False
    base = rules[R_OFF_VIEW] + 6 * player
    if phase == START and action == TAKE_DISCARD + ctx.last:
        card = top_discard(pub, rules)
    elif phase == HOLD and action == PLACE_DRAWN + ctx.last:
        card = pub[HELD]
    elif (phase == START and action == REVEAL + ctx.last) or (phase == FLIP_PHASE and action == FLIP + ctx.last):
        return ctx.blind_out >= BIG / 2  # turned up blind: ev's expected final score is above the limit
    else:
        return False
    final = layout_value(pub, rules, base, ctx.last, card, ctx.mu, ctx.hh, ctx.inv_u, 0.0, 0.0)
    return final > ctx.limit


@hot
def mc_tips_act(pub, rules, params, agent_rng, player):
    """Decision of ``mc-tips``: mc's move, overridden by the rules of the tips switched on (module docstring)."""
    action = mc_act(pub, rules, params, agent_rng, player)
    if params[PAIRS_FIRST] != 0.0:
        pair = _pair_move(pub, rules, player)
        if pair >= 0:
            return pair
    if params[COUNT_OUT] != 0.0:
        ev_params = stack_float64(8)
        for i in range(len(_EV_DEFAULTS)):
            ev_params[i] = _EV_DEFAULTS[i]
        if _goes_out_above_limit(pub, rules, ev_params, player, action):
            return ev_act(pub, rules, ev_params, agent_rng, player)
    return action


def register_mc_tips() -> None:
    """Register ``mc-tips`` (once per process)."""
    if NAME not in REGISTRY:
        register_compiled_agent(NAME, "mc with strategy tips (b) pairs first and (e) count before you go out laid "
                                      "over its moves (golfsim.experiments.tips; not a built-in)", mc_tips_act, PARAMS)


register_mc_tips()
