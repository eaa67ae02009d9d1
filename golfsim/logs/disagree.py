"""Where two agents disagree on the same situations, and what each disagreement costs, from a decision log.

Every decision of one agent in a log is replayed through the engine on its logged deal; in that exact state the
other agent is asked what it would do. Where they differ, both moves are played out on copies of the game: the rest
of the deal is finished by the same continuation agent at every seat, on the same cards and the same random streams
(common random numbers), so the difference in the mover's deal score is the price of the other agent's move on that
deal. Averaged over many situations of one kind it estimates what that kind of disagreement costs.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from golfsim.core.spec import HELD, decode
from golfsim.game.game import CompiledAgent, Game, action_position
from golfsim.logs.trace import LogFile


def move_kind(action: int) -> str:
    """A move without its position: ``take``, ``draw``, ``reveal``, ``place``, ``throw``, ``flip`` or ``pass``."""
    return decode(action).kind


def _finish(game: Game, bots: list[CompiledAgent], seed: int) -> list[int]:
    for p, bot in enumerate(bots):
        bot.reset(seed, game.game, p)
    while not game.hole_over:
        p = game.current_player
        game.step(int(bots[p].act(game, p)))
    return game.scores


def disagreements(log: LogFile, agent: str = "ev", other: str = "greedy", continuation: str = "ev",
                  games: int | None = None, rollout_seed: int = 0) -> pd.DataFrame:
    """Every decision of ``agent`` in ``log`` where ``other`` would have moved differently, with the cost.

    Parameters
    ----------
    log : LogFile
        A decision log ([`golfsim.logs.trace.read_log`][]).
    agent, other : str
        The label of the agent whose decisions are examined, and the agent asked in the same states.
    continuation : str
        The agent that finishes the deal at every seat after either move.
    games : int, optional
        Examine only the first ``games`` games of the log.

    Returns
    -------
    pandas.DataFrame
        One row per disagreement: ``game, hole, turn, seat, phase, discard_top, held`` (the drawn card in the hold
        phase, else -1), ``face_down`` (the mover's face-down cards), ``action`` and ``other_action`` with their
        kinds, ``score`` and ``other_score`` (the mover's deal score after each move, finished by
        ``continuation``), ``cost`` (``other_score - score``: positive when the other agent's move does worse) and
        ``other_on_face_down`` (the other agent's move puts a card on, or turns up, a face-down card) and
        ``other_replaces`` (the face-up card at the other agent's target position, else -1).
        ``attrs["decisions"]`` holds how many decisions of ``agent`` were examined.
    """
    rules = log.rules
    frame = log.frame()
    if games is not None:
        frame = frame[frame["game"] < frame["game"].drop_duplicates().sort_values().iloc[:games].max() + 1]
    asked = CompiledAgent(other, rules)
    rollout = [CompiledAgent(continuation, rules) for _ in range(rules.players)]
    rows = []
    examined = 0
    for game_id, moves in frame.groupby("game", sort=True):
        deal_set = int(moves["deal_set"].iloc[0])
        g = Game(rules, log.seed, game=deal_set)
        decisions = moves[moves["kind"] == "decision"]
        for hole, actions, labels, seats in _holes(decisions):
            g.start_hole(hole)
            for action, label, seat in zip(actions, labels, seats, strict=True):
                if label == agent:
                    examined += 1
                    asked.reset(rollout_seed, deal_set, seat)
                    alternative = int(asked.act(g, seat))
                    if alternative != action:
                        rows.append(_price(g, seat, action, alternative, rollout, rollout_seed, int(game_id)))
                g.step(action)
    result = pd.DataFrame(rows, columns=["game", "hole", "turn", "seat", "phase", "discard_top", "held",
                                         "face_down", "action", "other_action", "kind", "other_kind", "score",
                                         "other_score", "cost", "other_on_face_down",
                                         "other_replaces"])
    result.attrs["decisions"] = examined
    return result


def _holes(decisions: pd.DataFrame):
    for hole, rows in decisions.groupby("hole", sort=True):
        yield (int(hole), rows["action"].astype(int).tolist(), rows["agent"].astype(str).tolist(),
               rows["seat"].astype(int).tolist())


def _price(g: Game, seat: int, action: int, alternative: int, rollout, seed: int, game_id: int) -> dict:
    scores = []
    for move in (action, alternative):
        copy = g.clone()
        copy.step(move)
        scores.append(_finish(copy, rollout, seed)[seat])
    phase = g.phase
    k = action_position(alternative)
    target = g.view(seat)[k] if k >= 0 else -1
    return {"game": game_id, "hole": g.hole, "turn": g.turn, "seat": seat, "phase": phase,
            "discard_top": g.top_discard, "held": int(g.pub[HELD]) if phase == "hold" else -1,
            "face_down": len(g.face_down(seat)), "action": action, "other_action": alternative,
            "kind": move_kind(action), "other_kind": move_kind(alternative), "score": scores[0],
            "other_score": scores[1], "cost": scores[1] - scores[0],
            "other_on_face_down": k >= 0 and target < 0, "other_replaces": target}


def summarise(found: pd.DataFrame, confidence_z: float = 1.96) -> pd.DataFrame:
    """Disagreements grouped by phase and the two move kinds: count, share of all examined decisions, mean cost
    with a normal-approximation interval (``confidence_z`` standard errors)."""
    total = found.attrs.get("decisions", len(found))
    grouped = found.groupby(["phase", "kind", "other_kind"], observed=True)["cost"]
    table = grouped.agg(count="size", mean_cost="mean", sd="std").reset_index()
    se = table["sd"].fillna(0) / np.sqrt(table["count"])
    table["low"] = table["mean_cost"] - confidence_z * se
    table["high"] = table["mean_cost"] + confidence_z * se
    table["share_of_decisions"] = table["count"] / max(total, 1)
    table["total_cost"] = table["mean_cost"] * table["count"]
    return table.drop(columns="sd").sort_values("total_cost", ascending=False).reset_index(drop=True)

