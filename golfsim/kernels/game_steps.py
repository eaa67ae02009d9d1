"""The one compiled step of a game: the rules of a turn and of a hole's start and end, which every game loop of the
kernels calls.

A deal in play is a [`Deal`][golfsim.kernels.game_steps.Deal] (its public and hidden state, the packed rules and the
deal stream), and one game's output rows are [`HoleRows`][golfsim.kernels.game_steps.HoleRows]. The steps:

- [`start_seats`][golfsim.kernels.game_steps.start_seats]: every seat's agent stream of a game and a zero total;
- [`start_hole`][golfsim.kernels.game_steps.start_hole]: deal hole ``h`` of game ``g`` from ``deal_state(seed, g, h)``,
  seat ``h % players`` first;
- [`seat_view`][golfsim.kernels.game_steps.seat_view]: what seat ``p`` decides on (the public state, or the true state
  for a seat that sees it);
- [`advance`][golfsim.kernels.game_steps.advance]: one decision: the action checked against the rules and played (the
  rules of a turn, [`golfsim.core.engine.is_legal`][] and [`apply_action`][golfsim.core.engine.apply_action]);
- [`end_hole`][golfsim.kernels.game_steps.end_hole]: score the deal that ended and add the scores to the totals (the one
  place a kernel scores a hole; a rule of a hole's end that needs more than the layouts, e.g. who went out, goes here);
- [`write_hole`][golfsim.kernels.game_steps.write_hole]: a hole's row of the outputs;
  [`next_hole`][golfsim.kernels.game_steps.next_hole]: the game's next hole, if any;
- [`note_illegal`][golfsim.kernels.game_steps.note_illegal]: what the kernels report of an illegal action;
- [`count_decision`][golfsim.kernels.game_steps.count_decision]: a decision's legal moves counted into
  [`DecisionCounts`][golfsim.kernels.game_steps.DecisionCounts] (game analytics).

The game loops ([`golfsim.kernels.simulate`][]'s, which the counted kernel of [`counted`][golfsim.kernels.counted] plays
too, [`logged`][golfsim.kernels.logged], [`in_flight`][golfsim.kernels.in_flight],
[`in_flight_env`][golfsim.kernels.in_flight_env], [`bot_loop`][golfsim.kernels.bot_loop]) are these steps plus what each
one adds (recording, counting, stopping at a seat played from Python); only the compact self-play kernels of
[`self_play`][golfsim.kernels.self_play] keep their own copy of a turn, for speed, and only under the rules they name.
The steps are leaves (`golfsim._numba.jit.leaf`), inlined into each loop, so sharing them costs nothing (and the tuples
are taken apart by the compiler). A rule option is added in [`golfsim.core.engine`][] or here, never in a loop.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from golfsim._numba.jit import leaf
from golfsim.core.engine import apply_action, deal_scores, deal_shuffled, is_legal
from golfsim.core.rng import agent_state, deal_state
from golfsim.core.spec import END_REASON, ENDER, HOLE, NUM_ACTIONS, R_HOLES, R_PLAYERS, TURN
from golfsim.core.worlds import fill_sight


class Deal(NamedTuple):
    """One deal in play: the arrays every step of the rules reads or writes."""

    pub: np.ndarray
    """The public state (``PUB_DTYPE``)."""
    hid: np.ndarray
    """The hidden state: layouts and stock (``HID_DTYPE``)."""
    rules: np.ndarray
    """The packed rules (``Rules.pack()``)."""
    deal_rng: np.ndarray
    """The deal stream's state (uint64 ``[1]``)."""


class HoleRows(NamedTuple):
    """One game's rows of the outputs, a row per hole ([`golfsim.kernels.batch.Batch`][] holds them for many)."""

    hole_scores: np.ndarray
    """int16 ``[holes, players]``."""
    turns: np.ndarray
    """int16 ``[holes]``."""
    enders: np.ndarray
    """int8 ``[holes]``: who went out, -1 for nobody."""
    reasons: np.ndarray
    """int8 ``[holes]``: the end reason codes."""


class DecisionCounts(NamedTuple):
    """One game's decision counts, a row per hole (int32 ``[holes]`` each; [`golfsim.kernels.counted`][])."""

    decisions: np.ndarray
    """The decisions taken (every call of an agent)."""
    legal: np.ndarray
    """The legal moves summed over those decisions."""
    choices: np.ndarray
    """The decisions with more than one legal move."""


@leaf
def count_decision(counts, pub, rules, hole):
    """Add the decision about to be taken in ``pub`` to row ``hole`` of ``counts``
    ([`DecisionCounts`][golfsim.kernels.game_steps.DecisionCounts]): one decision, its number of legal moves
    (``is_legal`` over all actions), and a choice if more than one."""
    k = 0
    for a in range(NUM_ACTIONS):
        if is_legal(pub, rules, a):
            k += 1
    counts.decisions[hole] += 1
    counts.legal[hole] += k
    if k > 1:
        counts.choices[hole] += 1


@leaf
def start_seats(agent_rng, totals, agent_seed, game, players):
    """Give every seat ``p`` its agent stream of game ``game`` (``agent_state(agent_seed, game, p)``) and a zero
    total."""
    for p in range(players):
        agent_rng[p] = agent_state(agent_seed, game, p)
        totals[p] = 0


@leaf
def start_hole(deal, deal_seed, game, hole, totals):
    """Deal hole ``hole`` of game ``game`` from ``deal_state(deal_seed, game, hole)``, seat ``hole % players``
    moving first; ``totals`` are the scores before it (the public state shows them)."""
    deal.deal_rng[0] = deal_state(deal_seed, game, hole)
    deal_shuffled(deal.pub, deal.hid, deal.rules, deal.deal_rng, hole, hole % deal.rules[R_PLAYERS], totals)


@leaf
def seat_view(pub, deal, sees, p, sight):
    """What seat ``p`` decides on: ``pub`` (the deal's public state), or for a seat with ``sees[p]`` (an agent
    registered ``sees_hidden``) ``sight`` filled with the public state followed by the true hidden state
    ([`golfsim.core.worlds.fill_sight`][]). ``pub`` is passed beside ``deal`` because a function compiled without
    reference counting may only return an array it was given itself."""
    if sees[p]:
        fill_sight(sight, deal.pub, deal.hid, deal.rules, deal.deal_rng)
        return sight
    return pub


@leaf
def advance(deal, action):
    """Play ``action`` for the seat to move and return True, or return False and change nothing when the rules do
    not allow it."""
    if not is_legal(deal.pub, deal.rules, action):
        return False
    apply_action(deal.pub, deal.hid, deal.rules, deal.deal_rng, action)
    return True


@leaf
def end_hole(deal, scores, totals):
    """Score the deal that ended into ``scores`` (one per seat) and add them to ``totals``."""
    deal_scores(deal.pub, deal.hid, deal.rules, scores)
    for p in range(deal.rules[R_PLAYERS]):
        totals[p] += scores[p]


@leaf
def write_hole(deal, hole, scores, rows):
    """Write the ended deal's ``scores``, turns, who went out and why it ended to row ``hole`` of ``rows``
    ([`HoleRows`][golfsim.kernels.game_steps.HoleRows])."""
    for p in range(deal.rules[R_PLAYERS]):
        rows.hole_scores[hole, p] = scores[p]
    rows.turns[hole] = deal.pub[TURN]
    rows.enders[hole] = deal.pub[ENDER]
    rows.reasons[hole] = deal.pub[END_REASON]


@leaf
def next_hole(deal, deal_seed, game, totals):
    """Deal the hole after the one that ended ([`start_hole`][golfsim.kernels.game_steps.start_hole]) and return True,
    or return False after the game's last hole."""
    h = np.int64(deal.pub[HOLE]) + 1
    if h >= deal.rules[R_HOLES]:
        return False
    start_hole(deal, deal_seed, game, h, totals)
    return True


@leaf
def note_illegal(error, hole, seat, action, phase):
    """Write ``(hole + 1, seat, action, phase)`` to ``error``: what the kernels report of an illegal action."""
    error[0] = hole + 1
    error[1] = seat
    error[2] = action
    error[3] = phase
