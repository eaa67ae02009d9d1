"""Tables with plain-Python or batched agents: the batch simulator's games, decided partly in Python.

[`play_batch`][golfsim.kernels.python_seats.play_batch] plays games ``first_game .. first_game + count - 1`` of a table
and returns the same [`Batch`][golfsim.kernels.batch.Batch] the compiled kernel would: identical deals, agent streams
and outputs, so a tournament, an experiment or a sweep treats such a table like any other. The games are held in slots
([`golfsim.kernels.in_flight`][]); compiled seats play in compiled code, and each seat played from Python is asked
for its decisions:

- a *batched* agent ([`golfsim.agents.base.register_batched_agent`][]) once per step, with the observation
  vectors and masks of every slot waiting for it ([`DecisionBatch`][golfsim.agents.base.DecisionBatch]);
- a *plain-Python* agent once per decision, with the observation of ``GolfEnv.observe`` as a
  [`LazyObservation`][golfsim.game.lazy.LazyObservation] (each field built when the policy first reads it). A policy
  with a ``reset(seed, game, seat)`` method keeps state through a game, so its games are played one at a time, each
  after its ``reset``, exactly as [`golfsim.game.game.Game.play`][] does; a policy without one decides for
  many games in flight.

A policy that raises is named in one line ([`AgentError`][golfsim.core.errors.AgentError]), and so is one that returns
an illegal action ([`IllegalActionError`][golfsim.core.errors.IllegalActionError]).
"""

from __future__ import annotations

import numba
import numpy as np

from golfsim._numba import pointers
from golfsim.agents.base import DecisionBatch
from golfsim.core.errors import IllegalActionError, check_agent_errors
from golfsim.core.spec import (
    HID_DTYPE,
    HOLE,
    NUM_ACTIONS,
    PHASE,
    PHASE_NAMES,
    PUB_DTYPE,
    R_HID_SIZE,
    R_PUB_SIZE,
    action_name,
)
from golfsim.core.worlds import sight_size
from golfsim.game import observation
from golfsim.game.game import PythonAgent
from golfsim.game.lazy import LazyObservation
from golfsim.kernels import bot_loop
from golfsim.kernels.batch import Batch
from golfsim.kernels.in_flight import (
    advance_in,
    advance_slots,
    advance_slots_passing_functions,
    gather_decisions,
    gather_masks,
)

BATCHED_SLOTS = 1024
"""Games in flight for a table with a batched agent: each policy call decides for up to this many games."""

PYTHON_SLOTS = 64
"""Games in flight for plain-Python agents without a ``reset``: one compiled call advances them all."""


def _seat_players(table):
    """Per seat: ``None`` for a compiled agent, else ``("python", PythonAgent)`` or ``("batched", policy)``; one
    policy object per distinct agent label, as a table of two copies of one agent shares nothing else."""
    made: dict[str, tuple] = {}
    seats = []
    for choice in table.agents:
        spec = choice.spec
        if spec.python is None:
            seats.append(None)
            continue
        if choice.label not in made:
            policy = spec.python(choice.param_dict())
            made[choice.label] = ("batched", policy) if spec.batched else ("python", PythonAgent(policy, choice.label))
        seats.append(made[choice.label])
    return seats


def _illegal(label, seat, action, pub, game) -> IllegalActionError:
    shown = action_name(action) if isinstance(action, (int, np.integer)) and 0 <= action < NUM_ACTIONS else "no action"
    return IllegalActionError(
        f"agent {label!r} (seat {seat}) returned the illegal action {action!r} ({shown}) in the "
        f"{PHASE_NAMES[int(pub[PHASE])]} phase of game {game}, hole {int(pub[HOLE])}")


def _as_action(value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        return None
    return int(value)


def slots_for(table, count: int) -> int:
    """How many games a table plays at once: one for a plain-Python policy with a ``reset``, else many."""
    seats = [s for s in _seat_players(table) if s is not None]
    if any(kind == "python" and callable(getattr(p.policy, "reset", None)) for kind, p in seats):
        return 1
    wanted = BATCHED_SLOTS if any(kind == "batched" for kind, _ in seats) else PYTHON_SLOTS
    return max(1, min(count, wanted))


def play_batch(table, count: int, seed: int, agent_seed: int, first_game: int = 0, slots: int | None = None):
    """Play ``count`` games of ``table`` (which may seat plain-Python and batched agents) and return their
    [`Batch`][golfsim.kernels.batch.Batch], equal to what the batch kernel gives for the same games.

    Parameters
    ----------
    table : golfsim.kernels.simulate.Table
    count : int
        Games, from ``first_game``.
    seed, agent_seed : int
        Seeds of the deals and of the agents' streams.
    first_game : int
    slots : int, optional
        Games in flight (default [`slots_for`][golfsim.kernels.python_seats.slots_for]); the results do not depend on
        it.

    Raises
    ------
    AgentError
        A plain-Python or batched policy raised; the message names the agent and seat.
    IllegalActionError
        An agent returned an illegal action; the message names it, the move and the game.
    """
    rules = table.rules
    packed = rules.pack()
    players, holes = rules.players, rules.holes
    seats = _seat_players(table)
    labels = [a.label for a in table.agents]
    n_slots = slots_for(table, count) if slots is None else max(1, min(int(slots), count))
    ids, params, agent_fns = table.kernel_arguments(skip_python=True)
    outside = np.array([s is not None for s in seats], dtype=np.uint8)
    sees = table.sees_hidden()
    pubs = np.zeros((n_slots, int(packed[R_PUB_SIZE])), dtype=PUB_DTYPE)
    hids = np.zeros((n_slots, int(packed[R_HID_SIZE])), dtype=HID_DTYPE)
    deal_rngs = np.zeros((n_slots, 1), dtype=np.uint64)
    agent_rngs = np.zeros((n_slots, players), dtype=np.uint64)
    totals = np.zeros((n_slots, players), dtype=np.int32)
    scores = np.zeros(players, dtype=np.int32)
    sight = np.zeros(sight_size(packed), dtype=PUB_DTYPE)
    hole_scores = np.zeros((count, holes, players), dtype=np.int16)
    turns = np.zeros((count, holes), dtype=np.int16)
    enders = np.full((count, holes), -1, dtype=np.int8)
    reasons = np.zeros((count, holes), dtype=np.int8)
    errors = np.zeros((count, 4), dtype=np.int64)
    next_game = np.zeros(1, dtype=np.int64)
    slot_game = np.full(n_slots, -1, dtype=np.int64)
    actions = np.full(n_slots, -1, dtype=np.int64)
    started = np.full((n_slots, players), -1, dtype=np.int64)  # the game each Python seat of a slot was reset for

    if numba.config.DISABLE_JIT:
        def advance():
            return advance_in(packed, ids, params, agent_fns, outside, sees, np.uint64(seed), np.uint64(agent_seed),
                              first_game, count, next_game, slot_game, actions, pubs, hids, deal_rngs, agent_rngs,
                              totals, scores, sight, hole_scores, turns, enders, reasons, errors)
    elif not pointers.AVAILABLE:  # pragma: no cover -- depends on the installed Numba (golfsim._numba.pointers)
        def advance():
            return advance_slots_passing_functions(
                packed, ids, params, agent_fns, outside, sees, np.uint64(seed), np.uint64(agent_seed), first_game,
                count, next_game, slot_game, actions, pubs, hids, deal_rngs, agent_rngs, totals, scores, sight,
                hole_scores, turns, enders, reasons, errors)
    else:
        addresses = bot_loop.agent_addresses(agent_fns)
        seed64, agent_seed64 = np.uint64(seed), np.uint64(agent_seed)

        def advance():
            return advance_slots(packed, ids, params, addresses, outside, sees, seed64, agent_seed64, first_game,
                                 count, next_game, slot_game, actions, pubs, hids, deal_rngs, agent_rngs, totals,
                                 scores, sight, hole_scores, turns, enders, reasons, errors)

    width = observation.size(players, rules.n_codes)
    obs_buf = np.zeros((n_slots, width), dtype=np.float32)
    mask_buf = np.zeros((n_slots, NUM_ACTIONS), dtype=np.uint8)
    random_buf = np.zeros(n_slots, dtype=np.float64)
    index_buf = np.zeros(n_slots, dtype=np.int64)

    while advance():
        check_agent_errors(errors, labels, first_game)
        for seat, player in enumerate(seats):
            if player is None:
                continue
            kind, policy = player
            if kind == "batched":
                n = gather_decisions(packed, pubs, slot_game, agent_rngs, seat, index_buf, obs_buf, mask_buf,
                                     random_buf)
                if n:
                    _decide_batch(policy, labels[seat], seat, rules, n, index_buf, obs_buf, mask_buf, random_buf,
                                  slot_game, first_game, pubs, actions)
                continue
            n = gather_masks(packed, pubs, slot_game, actions, seat, index_buf, mask_buf)
            for k in range(n):
                s = int(index_buf[k])
                game = first_game + int(slot_game[s])
                if started[s, seat] != game:
                    policy.reset(agent_seed, game, seat)
                    started[s, seat] = game
                mask = mask_buf[k].copy()
                action = _as_action(_act(policy, LazyObservation(pubs[s], packed, rules, seat, mask), seat))
                if action is None or not 0 <= action < NUM_ACTIONS or not mask[action]:
                    raise _illegal(policy.label, seat, action, pubs[s], game)
                actions[s] = action
    check_agent_errors(errors, labels, first_game)
    return Batch(first_game, hole_scores, turns, enders, reasons)


def _act(agent: PythonAgent, obs: dict, seat: int):
    """The policy's action on ``obs``; an exception it raises is named in one line (``AgentError``)."""
    from golfsim.core.errors import AgentError

    try:
        return agent.policy(obs)
    except (Exception, SystemExit) as e:  # a policy's sys.exit must not end the program (or worker) that plays it
        raise AgentError(f"agent {agent.label!r} (seat {seat}) raised {type(e).__name__}: "
                         f"{' '.join(str(e).split())}") from e


def _decide_batch(policy, label, seat, rules, n, index_buf, obs_buf, mask_buf, random_buf, slot_game, first_game,
                  pubs, actions) -> None:
    from golfsim.core.errors import AgentError

    slots = index_buf[:n].copy()
    masks = mask_buf[:n].copy()
    games = first_game + slot_game[slots]
    batch = DecisionBatch(obs_buf[:n].copy(), masks, seat, games, random_buf[:n].copy(), rules)
    try:
        chosen = np.asarray(policy(batch))
    except (Exception, SystemExit) as e:
        raise AgentError(f"agent {label!r} (seat {seat}) raised {type(e).__name__}: {' '.join(str(e).split())}") \
            from e
    if chosen.shape != (n,) or not np.issubdtype(chosen.dtype, np.integer):
        raise AgentError(f"agent {label!r} (seat {seat}) returned {chosen.shape} values of type {chosen.dtype} for "
                         f"a batch of {n} decisions; a batched policy returns {n} whole numbers")
    inside = (chosen >= 0) & (chosen < NUM_ACTIONS)
    legal = inside.copy()
    legal[inside] = masks[np.flatnonzero(inside), chosen[inside]] == 1
    if not legal.all():
        i = int(np.flatnonzero(~legal)[0])
        raise _illegal(label, seat, int(chosen[i]), pubs[slots[i]], int(games[i]))
    actions[slots] = chosen
