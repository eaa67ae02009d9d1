"""The batch simulator: many independent N-hole games in a compiled loop run on every core, from one seed.

Game ``g`` of a run depends only on ``(seed, g)``: its hole ``h`` is dealt from ``deal_state(seed, g, h)`` and seat
``p`` decides with ``agent_state(agent_seed, g, p)``. So results are identical whatever the thread count, the batch
size or the order the games run in, and two runs with different agents but the same seed play identical deals.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd
from numba import njit

from golfsim._numba.jit import NO_NRT, leaf
from golfsim.agents.base import MAX_PARAMS, USER_AGENT_BASE, AgentChoice, parse_agent, split_agents
from golfsim.agents.dispatch import GREEDY_ID, RANDOM_ID, AgentFunctions, decide, pointer_function
from golfsim.core.errors import check_agent_errors
from golfsim.core.rng import check_seed
from golfsim.core.rules import Rules
from golfsim.core.scoring import win_shares
from golfsim.core.spec import (
    CURRENT,
    DONE,
    HID_DTYPE,
    PHASE,
    PUB_DTYPE,
    R_HID_SIZE,
    R_HOLES,
    R_PLAYERS,
    R_PUB_SIZE,
    RULES_SIZE,
    TRUNCATED,
)
from golfsim.core.worlds import sight_size, stack_like
from golfsim.kernels.batch import Batch
from golfsim.kernels.game_steps import (
    Deal,
    HoleRows,
    advance,
    count_decision,
    end_hole,
    note_illegal,
    seat_view,
    start_hole,
    start_seats,
    write_hole,
)
from golfsim.kernels.self_play import compact_rules, play_games_greedy_compact, play_games_random_compact

DEFAULT_BATCH = 20_000
SLICES_PER_THREAD = 4
MIN_SLICE = 500


ANY_AGENTS = -1
"""``play_game``'s ``every_seat`` for a table of any agents: each seat's decision goes through ``decide``."""


@leaf
def play_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
              deal_seed, agent_seed, game, hole_scores, turns, enders, reasons, error, sees, sight, every_seat,
              counts):
    """Play every hole of game ``game``, writing one row of each output array.

    ``every_seat`` is ``ANY_AGENTS``, or the id of the inlined built-in that plays every seat (no seat sees the
    hidden state). The kernels pass it as a constant: this function is inlined into each, so for a built-in
    self-play kernel LLVM folds the dispatch away and optimises the game loop around that one agent.

    A seat with ``sees[p]`` (an agent registered ``sees_hidden``) is given ``sight`` as its ``pub``: the public
    state followed by the true hidden state ([`golfsim.core.worlds.fill_sight`][]).

    ``error`` gets ``(hole + 1, seat, action, phase)`` and the game stops if an agent returns an illegal action.

    ``counts`` (a [`DecisionCounts`][golfsim.kernels.game_steps.DecisionCounts], or ``None``) gets every decision's
    legal moves counted ([`golfsim.kernels.counted`][]); with ``None`` Numba prunes the counting from the loop.
    """
    deal = Deal(pub, hid, rules, deal_rng)
    rows = HoleRows(hole_scores, turns, enders, reasons)
    start_seats(agent_rng, totals, agent_seed, game, rules[R_PLAYERS])
    for h in range(rules[R_HOLES]):
        start_hole(deal, deal_seed, game, h, totals)
        while pub[PHASE] != DONE:
            p = np.int64(pub[CURRENT])  # agents are compiled for an int64 seat: no second specialisation
            view = pub
            agent = every_seat
            if every_seat == ANY_AGENTS:
                agent = agent_ids[p]
                view = seat_view(pub, deal, sees, p, sight)
            if counts is not None:
                count_decision(counts, pub, rules, h)
            a = decide(agent, agent_fns, view, rules, params[p], agent_rng, p)
            if not advance(deal, a):
                note_illegal(error, h, p, a, pub[PHASE])
                return
        end_hole(deal, scores, totals)
        write_hole(deal, h, scores, rows)


# Every kernel copies the packed rules into its own stack frame: the compiler then knows that writing the game
# state cannot change them, and keeps the offsets and options it needs in registers instead of reading them again
# after every write to ``pub``. The few lines are repeated in each kernel rather than put in a shared function: an
# njit function between a kernel and the game loop is optimised with the whole loop once more (seconds of the first
# run's compile, see golfsim._numba.inner_compile), and the stack copy must live in the kernel's own frame.
@njit(cache=True, **NO_NRT, nogil=True)
def play_games(rules_in, agent_ids, params, agent_fns, deal_seed, agent_seed, first_game, lo, hi,
               hole_scores, turns, enders, reasons, errors, sees, pub, hid, deal_rng, agent_rng, totals, scores,
               sight):
    """Play games ``first_game + lo .. first_game + hi - 1`` into rows ``lo .. hi - 1`` of the outputs.

    ``rules_in`` is the packed rules (``Rules.pack()``); ``sees`` flags the seats given the true state;
    ``pub .. sight`` are work arrays ([`work_arrays`][golfsim.kernels.simulate.work_arrays]), one set per thread. The
    kernel releases the GIL, so [`iter_batches`][golfsim.kernels.simulate.iter_batches] runs slices of a batch on
    several Python threads at once. It is compiled like `golfsim._numba.jit.hot` and calls only leaves: every call level
    between it and the agents would be compiled, and optimised with all the code below it, once more (so the work arrays
    are allocated by the caller).
    """
    rules = stack_like(rules_in, RULES_SIZE)
    for j in range(RULES_SIZE):
        rules[j] = rules_in[j]
    for i in range(lo, hi):
        play_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
                  deal_seed, agent_seed, first_game + i, hole_scores[i], turns[i], enders[i], reasons[i], errors[i],
                  sees, sight, ANY_AGENTS, None)


# play_games_greedy and play_games_random repeat play_games line for line on purpose: each passes its agent's id as
# a constant to the inlined play_game, so LLVM folds the dispatch away and optimises the loop around that one agent
# (play_game's docstring); a shared body taking the id as an argument would lose exactly that.
@njit(cache=True, **NO_NRT, nogil=True)
def play_games_greedy(rules_in, agent_ids, params, agent_fns, deal_seed, agent_seed, first_game, lo, hi,
                      hole_scores, turns, enders, reasons, errors, sees, pub, hid, deal_rng, agent_rng, totals,
                      scores, sight):
    """[`play_games`][golfsim.kernels.simulate.play_games] for a table where greedy plays every seat (each seat keeps
    its own parameters)."""
    rules = stack_like(rules_in, RULES_SIZE)
    for j in range(RULES_SIZE):
        rules[j] = rules_in[j]
    for i in range(lo, hi):
        play_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
                  deal_seed, agent_seed, first_game + i, hole_scores[i], turns[i], enders[i], reasons[i], errors[i],
                  sees, sight, GREEDY_ID, None)


@njit(cache=True, **NO_NRT, nogil=True)
def play_games_random(rules_in, agent_ids, params, agent_fns, deal_seed, agent_seed, first_game, lo, hi,
                      hole_scores, turns, enders, reasons, errors, sees, pub, hid, deal_rng, agent_rng, totals,
                      scores, sight):
    """[`play_games`][golfsim.kernels.simulate.play_games] for a table where random plays every seat."""
    rules = stack_like(rules_in, RULES_SIZE)
    for j in range(RULES_SIZE):
        rules[j] = rules_in[j]
    for i in range(lo, hi):
        play_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
                  deal_seed, agent_seed, first_game + i, hole_scores[i], turns[i], enders[i], reasons[i], errors[i],
                  sees, sight, RANDOM_ID, None)


_SELF_PLAY_KERNELS = {GREEDY_ID: play_games_greedy, RANDOM_ID: play_games_random}


_COMPACT_KERNELS = {GREEDY_ID: play_games_greedy_compact, RANDOM_ID: play_games_random_compact}


def kernel_for(agent_ids: np.ndarray, sees: np.ndarray, rules: Rules | None = None):
    """The kernel for a table: a built-in self-play kernel when one inlined built-in plays every seat (compiled
    only when first used), else the general [`play_games`][golfsim.kernels.simulate.play_games]. Given ``rules`` that
    [`golfsim.kernels.self_play.compact_rules`][] accepts, the self-play kernel is the compact one. Every kernel
    gives the same results."""
    first = int(agent_ids[0])
    if not sees.any() and (agent_ids == first).all() and first in _SELF_PLAY_KERNELS:
        if rules is not None and compact_rules(rules):
            return _COMPACT_KERNELS[first]
        return _SELF_PLAY_KERNELS[first]
    return play_games


def _padded_zeros(n: int, dtype) -> np.ndarray:
    """``n`` zeros with two cache lines of slack on each side: small arrays allocated one after another share cache
    lines, and two threads writing into one line slow each other down (false sharing)."""
    pad = 128 // np.dtype(dtype).itemsize
    return np.zeros(n + 2 * pad, dtype=dtype)[pad:pad + n]


def work_arrays(rules: np.ndarray) -> tuple:
    """The kernel's work arrays for the packed ``rules``: ``pub, hid, deal_rng, agent_rng, totals, scores, sight``."""
    players = int(rules[R_PLAYERS])
    pub = _padded_zeros(rules[R_PUB_SIZE], PUB_DTYPE)
    return (pub, _padded_zeros(rules[R_HID_SIZE], HID_DTYPE),
            _padded_zeros(1, np.uint64), _padded_zeros(players, np.uint64), _padded_zeros(players, np.int32),
            _padded_zeros(players, np.int32), _padded_zeros(sight_size(rules), pub.dtype))


# ---------------------------------------------------------------- Python side
@dataclass(frozen=True)
class Table:
    """Who plays: the rules and one agent per seat, resolved and validated."""

    rules: Rules
    agents: tuple[AgentChoice, ...]

    @classmethod
    def make(cls, agents: Sequence, rules: Rules | None = None) -> Table:
        if isinstance(agents, str):
            agents = split_agents(agents)
        rules = Rules(players=len(agents)) if rules is None else rules
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a golfsim Rules object, got {type(rules).__name__}")
        choices = tuple(parse_agent(a) for a in agents)
        if len(choices) != rules.players:
            raise ValueError(
                f"{len(choices)} agents given for {rules.players} seats; give one agent per seat "
                f"(or set players={len(choices)})"
            )
        return cls(rules, choices)

    @property
    def compiled(self) -> bool:
        """Whether every seat is a compiled agent (else [`golfsim.kernels.python_seats`][] plays the table)."""
        return all(choice.spec.compiled for choice in self.agents)

    def kernel_arguments(self, skip_python: bool = False):
        """Agent ids, parameter rows and the agents called by pointer
        ([`AgentFunctions`][golfsim.agents.dispatch.AgentFunctions]), for the kernels.

        A plain-Python seat is refused, or with ``skip_python`` left at id 0 and zero parameters (the loop of
        [`golfsim.kernels.python_seats`][] never asks it).
        """
        agent_fns: list = []
        packed = self.rules.pack()
        ids = np.zeros(len(self.agents), dtype=np.int64)
        params = np.zeros((len(self.agents), MAX_PARAMS), dtype=np.float64)
        for seat, choice in enumerate(self.agents):
            spec = choice.spec
            if spec.python is not None:
                if skip_python:
                    continue
                raise ValueError(
                    f"agent {choice.label!r} is a plain-Python agent; only compiled agents play here (the decision "
                    "log records compiled agents only)"
                )
            function = pointer_function(spec, packed)
            if function is None:
                ids[seat] = spec.builtin_id
            else:
                if function not in agent_fns:
                    agent_fns.append(function)
                ids[seat] = USER_AGENT_BASE + agent_fns.index(function)
            params[seat] = choice.param_vector()
        return ids, params, AgentFunctions.padded(agent_fns)

    def sees_hidden(self) -> np.ndarray:
        """Per seat, whether its agent is given the true hidden state (bool array for the kernels)."""
        return np.array([choice.spec.sees_hidden for choice in self.agents], dtype=np.bool_)


def max_threads() -> int:
    """The most threads a run may use: Numba's thread count for this machine (``NUMBA_NUM_THREADS`` overrides)."""
    return numba.config.NUMBA_NUM_THREADS


def thread_count(threads: int | None) -> int:
    """Validate a requested thread count; ``None`` means all of
    [`max_threads`][golfsim.kernels.simulate.max_threads]."""
    if threads is None:
        return max_threads()
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a whole number of at least 1, got {threads!r}")
    if threads > max_threads():
        raise ValueError(f"threads={threads} but this machine allows at most {max_threads()}")
    return int(threads)


def _check_count(name, value, allow_zero=False):
    low = 0 if allow_zero else 1
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be a whole number of at least {low}, got {value!r}")
    return int(value)


def iter_batches(table: Table, games: int, seed: int = 0, *, agent_seed: int | None = None, first_game: int = 0,
                 batch_size: int = DEFAULT_BATCH, threads: int | None = None) -> Iterator[Batch]:
    """Play ``games`` games in batches, yielding each batch's raw arrays as soon as it is done.

    Stopping the iteration (or Ctrl-C between batches) keeps every batch already yielded; memory stays that of
    one batch.
    """
    games = _check_count("games", games, allow_zero=True)
    batch_size = _check_count("batch_size", batch_size)
    seed = check_seed(seed)
    agent_seed = seed if agent_seed is None else check_seed(agent_seed)
    first_game = _check_count("first_game", first_game, allow_zero=True)
    if not table.compiled:
        yield from _python_batches(table, games, seed, agent_seed, first_game, batch_size)
        return
    rules = table.rules.pack()
    ids, params, agent_fns = table.kernel_arguments()
    sees = table.sees_hidden()
    holes, players = table.rules.holes, table.rules.players
    nthreads = thread_count(threads)
    pool = ThreadPoolExecutor(nthreads, thread_name_prefix="golfsim") if nthreads > 1 else None
    # one set of work arrays per slice that can run at once; batches run one after another and reuse them
    work = [work_arrays(rules) for _ in range(SLICES_PER_THREAD * nthreads if pool else 1)]
    kernel = kernel_for(ids, sees, table.rules)
    try:
        done = 0
        while done < games:
            n = min(batch_size, games - done)
            hole_scores = np.zeros((n, holes, players), dtype=np.int16)
            turns = np.zeros((n, holes), dtype=np.int16)
            enders = np.full((n, holes), -1, dtype=np.int8)
            reasons = np.zeros((n, holes), dtype=np.int8)
            errors = np.zeros((n, 4), dtype=np.int64)
            start = first_game + done

            head = (rules, ids, params, agent_fns, np.uint64(seed), np.uint64(agent_seed), start)
            outputs = (hole_scores, turns, enders, reasons, errors, sees)
            if pool is None:
                kernel(*head, 0, n, *outputs, *work[0])
            else:
                # a few slices per thread, so that threads finish together, but each at least MIN_SLICE games:
                # handing a slice out takes the GIL, so many small slices scale worse than a few
                pieces = max(1, min(SLICES_PER_THREAD * nthreads, n // MIN_SLICE))
                cuts = np.linspace(0, n, pieces + 1).astype(np.int64)
                slices = [pool.submit(kernel, *head, int(lo), int(hi), *outputs, *work[j])
                          for j, (lo, hi) in enumerate(zip(cuts[:-1], cuts[1:], strict=True))]
                for piece in slices:
                    piece.result()
            check_agent_errors(errors, [a.label for a in table.agents], start)
            done += n
            yield Batch(start, hole_scores, turns, enders, reasons)
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)  # on Ctrl-C, slices already running finish on their own


def _python_batches(table: Table, games: int, seed: int, agent_seed: int, first_game: int,
                    batch_size: int) -> Iterator[Batch]:
    """[`iter_batches`][golfsim.kernels.simulate.iter_batches] for a table seating plain-Python or batched agents (they
    hold the GIL, so one thread)."""
    from golfsim.kernels.python_seats import play_batch

    for lo in range(0, games, batch_size):
        yield play_batch(table, min(batch_size, games - lo), seed, agent_seed, first_game + lo)


@dataclass
class SimulationResult:
    """Everything a batch run produced.

    Attributes
    ----------
    table : Table
        Rules and agents.
    seed : int
    players : pandas.DataFrame
        One row per game and seat: ``game, seat, agent, total, win_share, hole_1 .. hole_N``.
    deals : pandas.DataFrame
        One row per game and hole: ``game, hole, first_player, turns, went_out`` (seat or -1),
        ``end_reason`` (went_out / stock_exhausted / truncated), ``truncated``, ``score_0 .. score_{P-1}``.
    """

    table: Table
    seed: int
    players: pd.DataFrame
    deals: pd.DataFrame

    @property
    def truncated_deals(self) -> int:
        return int(self.deals["truncated"].sum())


END_REASON_NAMES = ("running", "went_out", "stock_exhausted", "truncated")


def simulate(agents: Sequence, rules: Rules | None = None, games: int = 1000, seed: int = 0, *,
             agent_seed: int | None = None, first_game: int = 0, batch_size: int = DEFAULT_BATCH,
             threads: int | None = None) -> SimulationResult:
    """Play ``games`` N-hole games of ``agents`` (one per seat) and return per-game and per-deal tables.

    Parameters
    ----------
    agents : sequence of str or AgentChoice
        One per seat, e.g. ``["greedy", "random"]``; a comma-separated string works too.
    rules : Rules, optional
        Defaults to the published game for ``len(agents)`` players. Use ``Rules(holes=1)`` to play single deals.
    games : int
        Number of games.
    seed : int
        Seeds the deals; the agents' streams come from ``agent_seed`` (default: the same number, a separate stream).
    threads : int, optional
        Threads (default all: [`max_threads`][golfsim.kernels.simulate.max_threads]). Results do not depend on it, nor
        on ``batch_size``.

    Returns
    -------
    SimulationResult
    """
    table = Table.make(agents, rules)
    batches = list(iter_batches(table, games, seed, agent_seed=agent_seed, first_game=first_game,
                                batch_size=batch_size, threads=threads))
    return assemble(table, seed, batches)


def assemble(table: Table, seed: int, batches: list[Batch]) -> SimulationResult:
    """Turn raw batches into the DataFrames of a [`SimulationResult`][golfsim.kernels.simulate.SimulationResult]."""
    rules = table.rules
    players, holes = rules.players, rules.holes
    if batches:
        hole_scores = np.concatenate([b.hole_scores for b in batches])
        turns = np.concatenate([b.turns for b in batches])
        enders = np.concatenate([b.enders for b in batches])
        reasons = np.concatenate([b.reasons for b in batches])
        first = batches[0].first_game
    else:
        hole_scores = np.zeros((0, holes, players), dtype=np.int16)
        turns = np.zeros((0, holes), dtype=np.int16)
        enders = reasons = np.zeros((0, holes), dtype=np.int8)
        first = 0
    n = hole_scores.shape[0]
    game_ids = np.arange(first, first + n)
    totals = hole_scores.sum(axis=1, dtype=np.int32)
    shares = win_shares(totals) if n else np.zeros((0, players))
    labels = [a.label for a in table.agents]
    player_frame = pd.DataFrame({
        "game": np.repeat(game_ids, players),
        "seat": np.tile(np.arange(players), n),
        "agent": pd.Categorical(np.tile(labels, n) if n else [], categories=list(dict.fromkeys(labels))),
        "total": totals.reshape(-1),
        "win_share": shares.reshape(-1),
    })
    flat = hole_scores.transpose(0, 2, 1).reshape(n * players, holes)
    # all hole columns at once: one column at a time fragments the frame (pandas warns from about 100 holes)
    hole_columns = pd.DataFrame({f"hole_{h + 1}": flat[:, h] for h in range(holes)}, index=player_frame.index)
    player_frame = pd.concat([player_frame, hole_columns], axis=1)
    deal_frame = pd.DataFrame({
        "game": np.repeat(game_ids, holes),
        "hole": np.tile(np.arange(holes), n),
        "first_player": np.tile(np.arange(holes) % players, n),
        "turns": turns.reshape(-1),
        "went_out": enders.reshape(-1),
        "end_reason": pd.Categorical.from_codes(reasons.reshape(-1).astype(np.int64), categories=END_REASON_NAMES),
        "truncated": (reasons == TRUNCATED).reshape(-1),
    })
    for p in range(players):
        deal_frame[f"score_{p}"] = hole_scores[:, :, p].reshape(-1)
    return SimulationResult(table, seed, player_frame, deal_frame)
