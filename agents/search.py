"""mc and oracle: players that search by playing the deal forward.

mc (determinized Monte Carlo)
-----------------------------
At each decision (the opening flips excepted: those are ev's) ``mc`` samples ``samples`` worlds consistent with
what it knows ([`golfsim.core.worlds.determinize`][]), and for every candidate action plays each world to the end of
the deal, every seat following the rollout policy (ev by default). *Common random numbers*: every candidate meets
the same worlds (same face-down cards, same stock order, same rollout streams), so the comparison between two
actions is paired and a small sample still ranks them fairly.

Making it cheap and robust:

- *Successive halving*: every legal action starts; with ``halving=2``, after a quarter and after half of the
  worlds (with 3 also after an eighth, and so on) the worse half of the candidates (by mean objective so far)
  stops, so most rollouts go to the close contenders. ev's own choice is never dropped.
- *Stay with ev unless sure*: the action with the best mean replaces ev's choice only when its paired mean
  advantage over ev's choice is more than ``confidence`` standard errors. The best of several noisy estimates is
  mostly luck, and this is what keeps few worlds from losing to ev.
- *Horizon*: with ``horizon`` > 0 a rollout stops after that many more turns, and every player's layout is valued as
  ev values it ([`golfsim.agents.expected_value.column_value`][]: the expected final score of the layout from public
  information, the chance of pairs to come included). Deals that end earlier are scored exactly.

The objective (lower is better) of one rollout is, with ``s`` the deal scores (exact, or valued at the horizon):

- ``objective=0``: own deal score ``s[me]``;
- ``objective=1`` (default): ``s[me]`` minus the mean of the opponents' ``s``. This is what decides going out:
  going out early with a middling score is good exactly when it leaves the opponents worse off;
- ``objective=2``: as 1, except on the last hole of the game, where it is whether the game is lost (1), tied (0.5)
  or won (0) on game totals (the totals before this hole in ``pub`` plus ``s``, against the best opponent), with
  the point margin as a tie-break: on the last hole only finishing ahead of the leader counts, so a player far
  ahead takes no risk and one far behind takes every chance. Before the last hole the game totals do not change
  which action is best for the point difference, so they do not enter. (With 1 or 0 the totals never enter: a
  tournament's points per game are the sum of the deals' points.)

Hints
-----
[`rollout_values`][golfsim.agents.search.rollout_values] runs the same rollouts for every legal action in every world
(no halving, no choice) and returns the raw values, per world and action; [`golfsim.coach.hint`][] turns them into means
and standard errors for ``golfsim hint`` and the ``?`` key of ``golfsim play``. With ``halving=0`` and ``confidence=0``
on the same stream, mc plays the action whose mean objective there is lowest.

oracle
------
``oracle`` runs the same search on the one true world: it is given the real face-down cards, the real stock order
and the deal stream (the simulator passes them to agents registered with ``sees_hidden``, see
[`golfsim.core.worlds`][]), so every rollout is the deal's real future with the rollout policy playing. It is a
research
reference for the value of hidden information, never part of a default pool, and its label says that it sees hidden
cards. The batch simulator and the step API ([`golfsim.game.env.play_game`][]) give it the true state; called with a
plain ``pub`` it returns -1, an illegal action, rather than play blind.

Parameters (both agents)
------------------------
samples : float, default 64 (mc) / 1 (oracle)
    Worlds per decision (the number of rollouts of the last candidates standing). With a deterministic rollout
    policy the oracle needs one.
rollout : agent, default ev
    Policy of every seat in rollouts: ``ev``, ``greedy``, ``random`` or ``learned``
    ([`golfsim.agents.learned`][]), with parameters in parentheses (``rollout=(greedy:take_gain=2)``); the numbers
    0 to 3 still name them in that order. (oracle: the number.)
base : agent, default ev (mc only)
    The policy mc improves on: it plays the opening flips, and its choice stands unless another action beats it
    by ``confidence`` standard errors: ``mc:base=(ev:watch_discard=0.46,horizon=1.9),samples=32``. Parentheses
    keep the base's parameter list apart from mc's own (both have a ``horizon``). ev's default valuation still
    values layouts at a rollout's horizon. ``mc:base=learned,rollout=learned`` searches on top of the learned
    player.
objective : float, default 1
    0 own deal score, 1 own minus the opponents' mean, 2 as 1 but winning the game decides on the last hole.
horizon : float, default 0
    Turns a rollout plays before ev's valuation takes over; 0 plays to the end of the deal.
confidence : float, default 2 (mc) / 0 (oracle)
    Standard errors by which an action must beat ev's choice to be played instead.
halving : float, default 2
    Rounds of successive halving: the worse half of the candidates stops after ``samples / 2**r`` worlds for each
    ``r`` from ``halving`` down to 1; 0 gives every candidate every world.
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.agents.base import AgentSpec, Param, register
from golfsim.agents.common import opening_flip
from golfsim.agents.expected_value import PARAMS as EV_PARAMS
from golfsim.agents.expected_value import bonus_value, column_value, counting, ev_act
from golfsim.agents.greedy import PARAMS as GREEDY_PARAMS
from golfsim.agents.greedy import greedy_act
from golfsim.agents.learned import learned_one_ply_act
from golfsim.agents.random_agent import random_act
from golfsim.core.engine import apply_action, deal_scores, is_legal
from golfsim.core.rng import mix64, next_u64
from golfsim.core.rules import MAX_TURN_CAP, R_FOUR_BONUS, R_HOLES, R_OFF_TOTALS, R_OFF_VIEW, R_PLAYERS
from golfsim.core.spec import CURRENT, DONE, HOLE, MAX_PLAYERS, NUM_ACTIONS, OPEN, PHASE, TURN
from golfsim.core.worlds import (
    MAX_CARDS,
    MAX_HID_SIZE,
    MAX_PUB_SIZE,
    copy_state,
    determinize,
    has_sight,
    read_sight,
    stack_float64,
    stack_int16,
    stack_like,
    stack_uint64,
)

SAMPLES, ROLLOUT, OBJECTIVE, HORIZON, CONFIDENCE, HALVING = range(6)
MAX_SAMPLES = 100_000
"""Most sampled worlds per decision mc accepts (64 by default; a decision at 100,000 takes minutes)."""
ROLLOUT_EV, ROLLOUT_GREEDY, ROLLOUT_RANDOM, ROLLOUT_LEARNED = 0, 1, 2, 3


def _params(samples: float, confidence: float) -> tuple[Param, ...]:
    return (
        Param("samples", samples, "sampled worlds per decision (rollouts of the last candidates standing)",
              kind="int", minimum=1, maximum=MAX_SAMPLES),
        Param("rollout", 0.0, "policy of every seat in rollouts: 0 ev, 1 greedy, 2 random, 3 learned (also the "
                              "base choice)",
              kind="int", minimum=0, maximum=3),
        Param("objective", 1.0, "0 own deal score; 1 own minus the opponents' mean; 2 as 1, but on the last hole "
                                "of the game: lose 1, tie 0.5, win 0 on game totals",
              kind="int", minimum=0, maximum=2),
        Param("horizon", 0.0, "turns a rollout plays before ev's valuation takes over; 0 to the end of the deal",
              kind="int", minimum=0, maximum=MAX_TURN_CAP),
        Param("confidence", confidence, "standard errors by which an action must beat ev's choice to replace it",
              minimum=0, maximum=100),
        Param("halving", 2.0, "rounds of successive halving (cuts after 1/2, 1/4, ... of the worlds); 0: none",
              kind="int", minimum=0, maximum=20),
    )


MC_PARAMS = _params(64.0, 2.0)
ORACLE_PARAMS = _params(1.0, 0.0)

POLICY_KINDS = {"ev": ROLLOUT_EV, "greedy": ROLLOUT_GREEDY, "random": ROLLOUT_RANDOM, "learned": ROLLOUT_LEARNED}
"""The policies mc plays inside its compiled search, by the code its parameter vector holds."""
POLICIES_FLAG, BASE_KIND, BASE_PARAMS, ROLLOUT_PARAMS = 11, 12, 13, 18
POLICY_WIDTH = 5
"""mc's parameter vector past its own six numbers: a flag (1: the slots below are filled), the base policy's code,
then the base and the rollout policies' own parameters (``POLICY_WIDTH`` slots each: ev has five, greedy four)."""

_POLICY_NAMES = tuple(POLICY_KINDS)
MC_AGENT_PARAMS = (
    MC_PARAMS[SAMPLES],
    Param("rollout", "ev", "policy of every seat in rollouts: ev, greedy, random or learned, with parameters in "
                           "parentheses (rollout=(greedy:take_gain=2)); 0, 1, 2, 3 still mean ev, greedy, random, "
                           "learned", kind="agent", agents=_POLICY_NAMES,
          aliases=((0.0, "ev"), (1.0, "greedy"), (2.0, "random"), (3.0, "learned"))),
    *MC_PARAMS[OBJECTIVE:],
    Param("base", "ev", "the policy mc improves on: it plays the opening flips and its choice stands unless an "
                        "action beats it by confidence standard errors; ev, greedy, random or learned, with parameters "
                        "in parentheses: base=(ev:watch_discard=0.46,horizon=1.9)", kind="agent", agents=_POLICY_NAMES),
)


def pack_mc(choice) -> np.ndarray:
    """mc's parameter vector: its six numbers (``rollout`` as the rollout policy's code), then the base and
    rollout policies with their own parameters (`POLICIES_FLAG` and after)."""
    from golfsim.agents.base import MAX_PARAMS

    values = dict(zip((p.name for p in choice.spec.params), choice.values, strict=True))
    vec = np.zeros(MAX_PARAMS, dtype=np.float64)
    for i, p in enumerate(MC_PARAMS):
        vec[i] = POLICY_KINDS[values["rollout"].name] if p.name == "rollout" else values[p.name]
    vec[POLICIES_FLAG] = 1.0
    base, rollout = values["base"], values["rollout"]
    for role, policy in (("base", base), ("rollout", rollout)):
        if policy.name == "learned" and policy.values[1] >= 0.5:
            raise ValueError(f"agent 'mc': learned plays its one-ply decision in mc's base and rollouts; "
                             f"{role}=({policy.label}) is not supported")
    vec[BASE_KIND] = POLICY_KINDS[base.name]
    vec[BASE_PARAMS:BASE_PARAMS + len(base.values)] = base.values
    vec[ROLLOUT_PARAMS:ROLLOUT_PARAMS + len(rollout.values)] = rollout.values
    return vec
MAX_PLAYERS_RNG = 16
_EV_DEFAULTS = tuple(p.default for p in EV_PARAMS)
_GREEDY_DEFAULTS = tuple(p.default for p in GREEDY_PARAMS)
MARGIN_TIE_BREAK = 1e-4
_WORLD_PURPOSE = np.uint64(0x5851F42D4C957F2D)


# ---------------------------------------------------------------- one rollout
@leaf
def _rollout_action(pub, rules, policy_params, roll_rng, q, policy):
    if policy == ROLLOUT_GREEDY:
        return greedy_act(pub, rules, policy_params, roll_rng, q)
    if policy == ROLLOUT_RANDOM:
        return random_act(pub, rules, policy_params, roll_rng, q)
    if policy == ROLLOUT_LEARNED:
        return learned_one_ply_act(pub, rules, policy_params, roll_rng, q)  # learned's depth 2 is not searched on
    return ev_act(pub, rules, policy_params, roll_rng, q)


@leaf
def layout_estimate(pub, rules, ev_params, q):
    """ev's value of player ``q``'s layout: its expected final score from public information."""
    base = rules[R_OFF_VIEW] + 6 * q
    mu, hh, inv_u, nd, w = counting(pub, rules, ev_params, q)
    total = 0.0
    for c in range(3):
        total += column_value(pub, rules, pub[base + c], pub[base + c + 3], mu, hh, inv_u, nd, w)
    if rules[R_FOUR_BONUS] != 0:
        total += bonus_value(pub, rules, base, -1, 0, inv_u, nd, w)
    return total


@hot
def outcome(pub, hid, rules, ev_params, player, objective):
    """The objective (lower is better, see the module docstring) of the deal in ``pub``/``hid`` for ``player``:
    exact when it is over (the engine's hole scores, house rules included), ev's valuation of every layout when a
    rollout was cut at its horizon."""
    players = rules[R_PLAYERS]
    done = pub[PHASE] == DONE
    exact = stack_float64(MAX_PLAYERS)
    if done:
        deal_scores(pub, hid, rules, exact)
    last_hole = objective == 2 and pub[HOLE] == rules[R_HOLES] - 1
    ot = rules[R_OFF_TOTALS]
    own = 0.0
    others = 0.0
    best_other = 1e18
    for q in range(players):
        s = exact[q] if done else layout_estimate(pub, rules, ev_params, q)
        if last_hole:
            s += pub[ot + q]
        if q == player:
            own = s
        else:
            others += s
            if s < best_other:
                best_other = s
    if objective == 0:
        return own
    if last_hole:  # lost 1, tied 0.5, won 0; the point margin only breaks ties between equal chances
        lost = 1.0 if own > best_other else 0.5 if own == best_other else 0.0
        return lost + MARGIN_TIE_BREAK * (own - best_other)
    return own - others / (players - 1)


@hot
def play_out(pub, hid, rules, deal_rng, policy, policy_params, roll_rng, horizon):
    """Play the deal in ``pub``/``hid`` forward with ``policy`` in every seat until it ends or, with ``horizon`` >
    0, until that many more turns have begun; the arrays are changed in place."""
    stop = pub[TURN] + horizon
    while pub[PHASE] != DONE and (horizon <= 0 or pub[TURN] < stop):
        q = np.int64(pub[CURRENT])
        a = _rollout_action(pub, rules, policy_params, roll_rng, q, policy)
        if not is_legal(pub, rules, a):
            return
        apply_action(pub, hid, rules, deal_rng, a)


# ---------------------------------------------------------------- the search
@leaf
def _drop_worse_half(sums, alive, actions, n_actions, keep_index):
    """Stop the worse half of the live candidates (highest sums), never ``keep_index``; at least two stay."""
    live = 0
    for i in range(n_actions):
        if alive[i] != 0:
            live += 1
    target = max(2, (live + 1) // 2)
    while live > target:
        worst = -1
        worst_v = -1e300
        for i in range(n_actions):
            if alive[i] != 0 and i != keep_index and sums[i] > worst_v:
                worst_v = sums[i]
                worst = i
        if worst < 0:
            return
        alive[worst] = 0
        live -= 1


@leaf
def _rollout_policy(params, policy_params):
    """The rollout policy of mc's ``params``, with its default parameters written into ``policy_params``."""
    policy = np.int64(params[ROLLOUT])
    if policy == ROLLOUT_GREEDY:
        for i in range(len(_GREEDY_DEFAULTS)):
            policy_params[i] = _GREEDY_DEFAULTS[i]
    else:
        for i in range(len(_EV_DEFAULTS)):
            policy_params[i] = _EV_DEFAULTS[i]
    return policy


@leaf
def _roll_out(pub, world_hid, rules, roll_pub, roll_hid, world_rng, world_state, roll_rng, seed, players, action,
              policy, policy_params, horizon):
    """Play ``action`` in the world ``world_hid`` and the deal on to its end (or ``horizon``), into ``roll_pub`` and
    ``roll_hid``: the deal stream starts at ``world_state`` and seat ``q``'s rollout stream at
    ``mix64(seed + q + 1)``, the same for every candidate action (common random numbers)."""
    copy_state(pub, world_hid, rules, roll_pub, roll_hid)
    world_rng[0] = world_state
    for q in range(players):
        roll_rng[q] = mix64(seed + np.uint64(q + 1))
    apply_action(roll_pub, roll_hid, rules, world_rng, action)
    play_out(roll_pub, roll_hid, rules, world_rng, policy, policy_params, roll_rng, horizon)



@hot
def search(pub, rules, params, agent_rng, player, sighted, world_hid, roll_pub, roll_hid, pool,
           actions, alive, sums, diff_sums, diff_squares, values, roll_rng, ev_params, policy_params, world_rng,
           base_params):
    """One decision of mc (``sighted`` false) or the oracle (true). The arrays after ``sighted`` are scratch.

    The base and rollout policies play with the parameters packed after mc's own
    ([`pack_mc`][golfsim.agents.search.pack_mc]) when ``params[POLICIES_FLAG]`` is 1, else with their defaults (ev as
    the base).
    """
    custom = params.shape[0] >= ROLLOUT_PARAMS + POLICY_WIDTH and params[POLICIES_FLAG] == 1.0
    base = np.int64(params[BASE_KIND]) if custom else ROLLOUT_EV
    policy = np.int64(params[ROLLOUT])
    for i in range(len(_EV_DEFAULTS)):
        ev_params[i] = _EV_DEFAULTS[i]
    for i in range(POLICY_WIDTH):
        if custom:
            base_params[i] = params[BASE_PARAMS + i]
            policy_params[i] = params[ROLLOUT_PARAMS + i]
        else:
            base_params[i] = ev_params[i]
            policy_params[i] = _GREEDY_DEFAULTS[i] if policy == ROLLOUT_GREEDY and i < len(_GREEDY_DEFAULTS) \
                else 0.0 if policy == ROLLOUT_LEARNED else _EV_DEFAULTS[i]  # learned's defaults: model 1
    if pub[PHASE] == OPEN:
        if base == ROLLOUT_EV:
            return opening_flip(pub, rules, player)
        return _rollout_action(pub, rules, base_params, agent_rng, player, base)
    n_actions = 0
    for a in range(NUM_ACTIONS):
        if is_legal(pub, rules, a):
            actions[n_actions] = a
            n_actions += 1
    baseline = _rollout_action(pub, rules, base_params, agent_rng, player, base)
    if n_actions == 1:
        return actions[0]
    samples = max(1, np.int64(params[SAMPLES]))
    objective = np.int64(params[OBJECTIVE])
    horizon = np.int64(params[HORIZON])
    z = params[CONFIDENCE]
    rounds = np.int64(params[HALVING]) if n_actions > 2 else 0
    players = rules[R_PLAYERS]
    keep = -1
    for i in range(n_actions):
        alive[i] = 1
        sums[i] = 0.0
        diff_sums[i] = 0.0
        diff_squares[i] = 0.0
        if actions[i] == baseline:
            keep = i
    # the agent's own stream: agent_rng[player] when every seat's stream is passed, agent_rng[0] when only its own
    stream = player if agent_rng.shape[0] > player else 0
    if keep < 0:  # never expected: ev always answers legally
        keep = 0
        baseline = actions[0]
    true_state = np.uint64(0)
    if sighted:
        read_sight(pub, rules, world_hid, world_rng)
        true_state = world_rng[0]
    for j in range(samples):
        seed = next_u64(agent_rng, stream)
        if not sighted:
            world_rng[0] = seed
            determinize(pub, rules, world_rng, 0, world_hid, pool)
        for i in range(n_actions):
            if alive[i] == 0:
                continue
            world_state = true_state if sighted else mix64(seed ^ _WORLD_PURPOSE)
            _roll_out(pub, world_hid, rules, roll_pub, roll_hid, world_rng, world_state, roll_rng, seed, players,
                      actions[i], policy, policy_params, horizon)
            values[i] = outcome(roll_pub, roll_hid, rules, ev_params, player, objective)
        for i in range(n_actions):
            if alive[i] != 0:
                sums[i] += values[i]
                d = values[i] - values[keep]
                diff_sums[i] += d
                diff_squares[i] += d * d
        done = j + 1
        for r in range(1, rounds + 1):
            if done == samples >> r:
                _drop_worse_half(sums, alive, actions, n_actions, keep)
    best = keep
    for i in range(n_actions):
        if alive[i] != 0 and sums[i] < sums[best]:
            best = i
    if best == keep:
        return baseline
    n = samples
    mean = diff_sums[best] / n
    if z > 0.0:
        if n < 2:
            return baseline
        var = (diff_squares[best] - n * mean * mean) / (n - 1)
        se = np.sqrt(max(var, 0.0) / n)
        if not mean < -z * se:
            return baseline
    return actions[best]


@hot
def _act(pub, rules, params, agent_rng, player, sighted):
    """The search with its scratch arrays on this call's stack: nothing is allocated."""
    return search(pub, rules, params, agent_rng, player, sighted,
                  stack_int16(MAX_HID_SIZE), stack_like(pub, MAX_PUB_SIZE), stack_int16(MAX_HID_SIZE),
                  stack_int16(MAX_CARDS), stack_int16(NUM_ACTIONS),
                  stack_int16(NUM_ACTIONS), stack_float64(NUM_ACTIONS), stack_float64(NUM_ACTIONS),
                  stack_float64(NUM_ACTIONS), stack_float64(NUM_ACTIONS), stack_uint64(MAX_PLAYERS_RNG),
                  stack_float64(8), stack_float64(8), stack_uint64(1), stack_float64(8))


@hot
def mc_act(pub, rules, params, agent_rng, player):
    """Decision of ``mc`` (see the module docstring)."""
    return _act(pub, rules, params, agent_rng, player, False)


@hot
def oracle_act(pub, rules, params, agent_rng, player):
    """Decision of ``oracle``: -1 (illegal) unless ``pub`` carries the true state ([`golfsim.core.worlds`][])."""
    if not has_sight(pub, rules):
        return -1
    return _act(pub, rules, params, agent_rng, player, True)


def register_search_agents() -> None:
    """Register ``mc`` and ``oracle`` (compiled on first use, like any agent called by pointer)."""
    register(AgentSpec("mc", "determinized Monte Carlo: rolls every candidate out in the same sampled worlds "
                             "(ev in every seat) and plays the best when it clearly beats its base policy's choice "
                             "(ev unless base=...)",
                       params=MC_AGENT_PARAMS, function=mc_act, pack=pack_mc))
    register(AgentSpec("oracle", "SEES HIDDEN CARDS (research reference): mc's search on the true face-down cards "
                                 "and stock order",
                       params=ORACLE_PARAMS, function=oracle_act, sees_hidden=True))


# ---------------------------------------------------------------- every action's value (for hints)
@hot
def _rollout_values(pub, rules, params, agent_rng, player, actions, n_actions, objective_out, score_out,
                    world_hid, roll_pub, roll_hid, pool, roll_rng, ev_params, policy_params, world_rng):
    policy = _rollout_policy(params, policy_params)
    for i in range(len(_EV_DEFAULTS)):
        ev_params[i] = _EV_DEFAULTS[i]
    objective = np.int64(params[OBJECTIVE])
    horizon = np.int64(params[HORIZON])
    players = rules[R_PLAYERS]
    for j in range(objective_out.shape[0]):
        seed = next_u64(agent_rng, 0)
        world_rng[0] = seed
        determinize(pub, rules, world_rng, 0, world_hid, pool)
        for i in range(n_actions):
            _roll_out(pub, world_hid, rules, roll_pub, roll_hid, world_rng, mix64(seed ^ _WORLD_PURPOSE), roll_rng,
                      seed, players, actions[i], policy, policy_params, horizon)
            objective_out[j, i] = outcome(roll_pub, roll_hid, rules, ev_params, player, objective)
            score_out[j, i] = outcome(roll_pub, roll_hid, rules, ev_params, player, 0)


@hot
def rollout_values(pub, rules, params, agent_rng, player, actions, n_actions, objective_out, score_out):
    """Every candidate's rollouts in mc's worlds, with no halving: the raw material of a hint.

    For each of ``objective_out.shape[0]`` worlds ``j`` (drawn with ``agent_rng[0]``, which is advanced) and each
    action ``actions[i]``, ``i < n_actions``, the world is played to the end of the deal (or to mc's ``horizon``)
    exactly as [`search`][golfsim.agents.search.search] plays it: the same worlds and rollout streams for every action
    (common random numbers), the rollout policy of ``params`` in every seat. ``objective_out[j, i]`` receives the
    objective of ``params`` ([`outcome`][golfsim.agents.search.outcome], lower is better) and ``score_out[j, i]``
    ``player``'s own deal score (objective 0). Both outputs are float64 arrays of shape ``(worlds, >= n_actions)``;
    ``params`` are mc's (``samples``, ``confidence`` and ``halving`` are not used: the number of worlds is the outputs'
    length).
    """
    _rollout_values(pub, rules, params, agent_rng, player, actions, n_actions, objective_out, score_out,
                    stack_int16(MAX_HID_SIZE), stack_like(pub, MAX_PUB_SIZE), stack_int16(MAX_HID_SIZE),
                    stack_int16(MAX_CARDS), stack_uint64(MAX_PLAYERS_RNG), stack_float64(8), stack_float64(8),
                    stack_uint64(1))
