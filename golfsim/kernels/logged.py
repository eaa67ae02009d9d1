"""The logging game loop: the batch simulator's games, with every decision recorded by compiled code.

[`play_logged_games`][golfsim.kernels.logged.play_logged_games] is [`golfsim.kernels.simulate.play_games`][] plus one
record per decision and per deal end, written into preallocated column arrays (no Python per decision). It calls the
same engine functions and ``golfsim.agents.dispatch.decide`` with the same streams, so it plays identical games;
``tests/test_trace.py`` checks that against the batch kernel.

Record columns, written in the types the log stores so that the writer wraps them without converting: ``rec``
(int8; index constants below) holds kind (0 decision, 1 deal end), seat, phase, action, card (the card that moved or
was revealed, as [`golfsim.game.game.Event`][] defines it; -1 for none), discard top before the move, the acting
player's six view cards before the move (-1 face down), and for a deal end: who went out and the end reason. On a
deal end the decision fields are -1 and the phase is ``done``. ``rec_hole_turn`` (int16) holds hole and turn,
``rec_game`` (int32) the batch row of the game and ``rec_scores`` (int16) the deal scores of a deal end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from golfsim._numba.jit import NO_NRT, leaf
from golfsim.agents.dispatch import decide
from golfsim.core.engine import apply_action, is_legal
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    DRAW_STOCK,
    END_REASON,
    ENDER,
    FLIP,
    HELD,
    HOLD,
    PASS,
    PHASE,
    R_HOLES,
    R_OFF_DISCARD,
    R_OFF_VIEW,
    R_PLAYERS,
    REVEAL,
    START,
    TURN,
)
from golfsim.kernels.game_steps import (
    Deal,
    HoleRows,
    end_hole,
    note_illegal,
    seat_view,
    start_hole,
    start_seats,
    write_hole,
)

KIND, SEAT, PHASE_COL, ACTION, CARD, DISCARD_TOP, VIEW0 = range(7)
WENT_OUT_COL = VIEW0 + 6
REASON_COL = WENT_OUT_COL + 1
RECORD_FIELDS = REASON_COL + 1
HOLE_COL, TURN_COL = 0, 1
"""Rows of ``rec_hole_turn``."""
DECISION, DEAL_END = 0, 1


@leaf
def _moved_card(pub, hid, rules, p, phase, action):
    """The card an action moves or reveals, read before it is applied (-1 for a stock draw, read after)."""
    if phase == START:
        if action < DRAW_STOCK:
            return pub[rules[R_OFF_DISCARD] + pub[DISCARD_N] - 1]
        if action == DRAW_STOCK:
            return -1
        return hid[6 * p + action - REVEAL]
    if phase == HOLD:
        return pub[HELD]
    if FLIP <= action < PASS:
        return hid[6 * p + action - FLIP]
    return -1


@leaf
def _record_decision(pub, hid, rules, h, p, a, rec, rec_hole_turn, rec_game, row, game_row):
    """Write decision ``a`` of seat ``p`` (legal, not yet played) to row ``row`` of the record."""
    ov = rules[R_OFF_VIEW]
    phase = pub[PHASE]
    rec[KIND, row] = DECISION
    rec_hole_turn[HOLE_COL, row] = h
    rec_hole_turn[TURN_COL, row] = pub[TURN]
    rec[SEAT, row] = p
    rec[PHASE_COL, row] = phase
    rec[ACTION, row] = a
    rec[DISCARD_TOP, row] = pub[rules[R_OFF_DISCARD] + pub[DISCARD_N] - 1]
    for k in range(6):
        rec[VIEW0 + k, row] = pub[ov + 6 * p + k]
    rec[WENT_OUT_COL, row] = -1
    rec[REASON_COL, row] = 0
    rec[CARD, row] = _moved_card(pub, hid, rules, p, phase, a)
    rec_game[row] = game_row


@leaf
def _record_hole_end(pub, rules, h, scores, rec, rec_hole_turn, rec_game, rec_scores, row, game_row):
    """Write the end of hole ``h`` (its ``scores``) to row ``row`` of the record."""
    rec[KIND, row] = DEAL_END
    rec_hole_turn[HOLE_COL, row] = h
    rec_hole_turn[TURN_COL, row] = pub[TURN]
    rec[SEAT, row] = -1
    rec[PHASE_COL, row] = DONE
    rec[ACTION, row] = -1
    rec[CARD, row] = -1
    rec[DISCARD_TOP, row] = pub[rules[R_OFF_DISCARD] + pub[DISCARD_N] - 1]
    for k in range(6):
        rec[VIEW0 + k, row] = -1
    rec[WENT_OUT_COL, row] = pub[ENDER]
    rec[REASON_COL, row] = pub[END_REASON]
    rec_game[row] = game_row
    for p in range(rules[R_PLAYERS]):
        rec_scores[p, row] = scores[p]


# simulate.play_game's loop with the recording added (the steps of golfsim.kernels.game_steps, the record written
# between the legality check and the move, since it reads the card a move takes): a separate loop keeps the batch
# simulator's hot loop free of it; the trace tests check that both play the same games.
@leaf
def play_logged_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
                     deal_seed, agent_seed, game, hole_scores, turns, enders, reasons, error, sees, sight,
                     rec, rec_hole_turn, rec_game, rec_scores, row, game_row):
    """Play every hole of game ``game`` like ``simulate.play_game``, recording from row ``row``; return the next
    free row. Seats with ``sees[p]`` are given ``sight`` (the true state after the public one), as there."""
    deal = Deal(pub, hid, rules, deal_rng)
    rows = HoleRows(hole_scores, turns, enders, reasons)
    start_seats(agent_rng, totals, agent_seed, game, rules[R_PLAYERS])
    for h in range(rules[R_HOLES]):
        start_hole(deal, deal_seed, game, h, totals)
        while pub[PHASE] != DONE:
            p = np.int64(pub[CURRENT])
            a = decide(agent_ids[p], agent_fns, seat_view(pub, deal, sees, p, sight), rules, params[p], agent_rng, p)
            if not is_legal(pub, rules, a):
                note_illegal(error, h, p, a, pub[PHASE])
                return row
            drew = pub[PHASE] == START and a == DRAW_STOCK
            _record_decision(pub, hid, rules, h, p, a, rec, rec_hole_turn, rec_game, row, game_row)
            apply_action(pub, hid, rules, deal_rng, a)
            if drew:
                rec[CARD, row] = pub[HELD]
            row += 1
        end_hole(deal, scores, totals)
        write_hole(deal, h, scores, rows)
        _record_hole_end(pub, rules, h, scores, rec, rec_hole_turn, rec_game, rec_scores, row, game_row)
        row += 1
    return row


@njit(cache=True, **NO_NRT, nogil=True)
def play_logged_games(rules, agent_ids, params, agent_fns, sees, deal_seed, agent_seed, first_game, lo, hi,
                      hole_scores, turns, enders, reasons, errors, pub, hid, deal_rng, agent_rng, totals, scores,
                      sight, rec, rec_hole_turn, rec_game, rec_scores, game_rows):
    """Play games ``first_game + lo ..`` into rows ``lo ..`` of the outputs while the record arrays have room for
    a whole game (``game_rows`` records, the most a game can take); return ``(games played up to, rows used)``.

    A game is never split across calls: the caller takes the records and calls again from the returned game.
    """
    capacity = rec_game.shape[0]
    row = 0
    i = lo
    while i < hi and row + game_rows <= capacity:
        row = play_logged_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
                               deal_seed, agent_seed, first_game + i, hole_scores[i], turns[i], enders[i],
                               reasons[i], errors[i], sees, sight, rec, rec_hole_turn, rec_game, rec_scores, row, i)
        i += 1
        if errors[i - 1, 0] != 0:
            break
    return i, row


def most_records_per_game(players: int, holes: int, turn_cap: int) -> int:
    """An upper bound on the records of one game: per hole two opening flips each, at most three decisions per
    turn (draw, place or throw, flip) and the deal end."""
    return holes * (2 * players + 3 * turn_cap + 1)


__all__ = ["DEAL_END", "DECISION", "RECORD_FIELDS", "most_records_per_game", "play_logged_games"]
