"""The compiled loop that plays the bots' turns between two outside decisions, at the batch simulator's speed.

Why addresses: a kernel that takes the tuple of agent functions ([`golfsim.agents.dispatch.AgentFunctions`][]) as an
argument pays for Numba to unbox every first-class function on every call from Python (it looks the compiled code
up again and unpickles the signature), which costs as much as hundreds of environment steps. So the Python side
looks each function's two entry points up once ([`agent_addresses`][golfsim.kernels.bot_loop.agent_addresses]) and
passes them as a plain int64 array; [`play_bots`][golfsim.kernels.bot_loop.play_bots] rebuilds the same tuple of
first-class functions from the addresses in compiled code and calls the simulator's own dispatch
(``golfsim.agents.dispatch.decide``) with it.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from golfsim._numba import pointers
from golfsim._numba.jit import NO_NRT, leaf
from golfsim.agents.base import AGENT_SIGNATURE
from golfsim.agents.dispatch import decide
from golfsim.core.spec import CURRENT, DONE, HID_DTYPE, MAX_PLAYERS, PHASE
from golfsim.kernels.game_steps import Deal, advance

OK, ILLEGAL_OUTSIDE, ILLEGAL_BOT = 0, 1, 2
SLOTS = MAX_PLAYERS
"""Slots of the rebuilt function tuple: enough for a different agent called by pointer in every seat."""

DECK_DTYPE = HID_DTYPE
"""Element type of a scripted deck (rank codes, top card first), as ``engine.deal_from_deck`` takes it."""


def agent_addresses(agent_fns) -> np.ndarray:
    """int64 array ``(SLOTS, 2)``: the C-wrapper and native entry address of each function of a kernel's
    ``agent_fns`` tuple (``Table.kernel_arguments()``), in order, the slots beyond it repeating its last entry
    (the dispatch never calls them). The caller keeps ``agent_fns`` alive."""
    functions = list(agent_fns)
    if not functions or len(functions) > SLOTS:
        raise ValueError(f"expected 1 to {SLOTS} agent functions, got {len(functions)}")
    functions += [functions[-1]] * (SLOTS - len(functions))
    return np.array([pointers.entry_addresses(f, AGENT_SIGNATURE) for f in functions], dtype=np.int64)


@leaf
def play_turns(pub, hid, rules, deal_rng, agent_rng, bot_ids, params, agent_fns, is_bot, action, error):
    """Play ``action`` (if >= 0) for the seat to move, then every bot turn until a seat without a bot must decide
    or the deal ends; ``agent_fns`` is the kernels' tuple of agent functions.

    Returns ``OK``, ``ILLEGAL_OUTSIDE`` (``action`` is not legal; nothing changed) or ``ILLEGAL_BOT`` (a bot
    returned an illegal action: ``error`` gets seat, action and phase, and the move is not played).
    """
    deal = Deal(pub, hid, rules, deal_rng)
    if action >= 0 and not advance(deal, action):
        return ILLEGAL_OUTSIDE
    while pub[PHASE] != DONE and is_bot[pub[CURRENT]] == 1:
        p = np.int64(pub[CURRENT])
        move = decide(bot_ids[p], agent_fns, pub, rules, params[p], agent_rng, p)
        if not advance(deal, move):
            error[0] = p
            error[1] = move
            error[2] = pub[PHASE]
            return ILLEGAL_BOT
    return OK


if pointers.AVAILABLE:
    _agent_function = pointers.function_from_addresses(AGENT_SIGNATURE)

    @leaf
    def agent_functions(addresses):
        """The tuple of first-class agent functions (``SLOTS`` of them) at ``addresses``
        ([`agent_addresses`][golfsim.kernels.bot_loop.agent_addresses]), rebuilt in compiled code: what the kernels
        taking addresses pass on as ``agent_fns``."""
        a = addresses
        return (_agent_function(a[0, 0], a[0, 1]), _agent_function(a[1, 0], a[1, 1]),
                _agent_function(a[2, 0], a[2, 1]), _agent_function(a[3, 0], a[3, 1]),
                _agent_function(a[4, 0], a[4, 1]), _agent_function(a[5, 0], a[5, 1]),
                _agent_function(a[6, 0], a[6, 1]), _agent_function(a[7, 0], a[7, 1]),
                _agent_function(a[8, 0], a[8, 1]), _agent_function(a[9, 0], a[9, 1]),
                _agent_function(a[10, 0], a[10, 1]), _agent_function(a[11, 0], a[11, 1]))

    @njit(cache=True, **NO_NRT)
    def play_bots(pub, hid, rules, deal_rng, agent_rng, bot_ids, params, addresses, is_bot, action, error):
        """[`play_turns`][golfsim.kernels.bot_loop.play_turns] with the agent functions rebuilt from ``addresses``
        ([`agent_addresses`][golfsim.kernels.bot_loop.agent_addresses])."""
        return play_turns(pub, hid, rules, deal_rng, agent_rng, bot_ids, params, agent_functions(addresses), is_bot,
                          action, error)


else:
    def agent_functions(addresses):
        """Without `golfsim._numba.pointers` no kernel takes addresses: the callers pass the function tuple to
        the ``*_passing_functions`` kernels instead, so this is never compiled (it is here so that the kernels
        that do take addresses still import)."""
        raise RuntimeError("agent addresses need golfsim._numba.pointers, which this Numba release does not support")


@njit(cache=True, **NO_NRT)
def play_bots_passing_functions(pub, hid, rules, deal_rng, agent_rng, bot_ids, params, agent_fns, is_bot, action,
                                error):
    """[`play_turns`][golfsim.kernels.bot_loop.play_turns] compiled with the function tuple as an argument: correct
    everywhere, but each call from Python unboxes every function. Used only when `golfsim._numba.pointers.AVAILABLE` is
    False."""
    return play_turns(pub, hid, rules, deal_rng, agent_rng, bot_ids, params, agent_fns, is_bot, action, error)


class Bots:
    """The bots of one table, ready to play: ``Table.make(...).kernel_arguments()`` plus which seats they hold.

    Under ``NUMBA_DISABLE_JIT=1`` (debugging) the turns are played by the same loop in plain Python.
    """

    def __init__(self, bot_ids: np.ndarray, params: np.ndarray, agent_fns, is_bot: np.ndarray):
        self.bot_ids, self.params, self.agent_fns, self.is_bot = bot_ids, params, agent_fns, is_bot
        self.addresses = None
        if not numba.config.DISABLE_JIT and pointers.AVAILABLE:
            self.addresses = agent_addresses(agent_fns)
        self.error = np.zeros(3, dtype=np.int64)

    def play(self, pub, hid, rules, deal_rng, agent_rng, action: int) -> int:
        """[`play_turns`][golfsim.kernels.bot_loop.play_turns] on one deal's arrays; see there for the return codes
        (``self.error`` on a bad bot)."""
        if self.addresses is None:
            loop = play_turns if numba.config.DISABLE_JIT else play_bots_passing_functions
            return loop(pub, hid, rules, deal_rng, agent_rng, self.bot_ids, self.params, self.agent_fns,
                        self.is_bot, action, self.error)
        return play_bots(pub, hid, rules, deal_rng, agent_rng, self.bot_ids, self.params, self.addresses,
                         self.is_bot, action, self.error)
