"""User agents: the documented examples in docs/examples play matches against the built-ins, and the engine plays
exactly what they decide (checked against the examples' documented rules and the reference engine)."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

from golfsim.agents import AGENT_SIGNATURE, REGISTRY, parse_agent, register_compiled_agent
from golfsim.agents.plugins import load_module
from golfsim.core.engine import is_legal, shuffled_deck
from golfsim.core.errors import IllegalActionError
from golfsim.core.rng import deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, NUM_ACTIONS, PHASE, PLACE_DRAWN, START, TAKE_DISCARD, THROW_DRAWN
from golfsim.game.env import play_game
from golfsim.kernels.simulate import simulate
from golfsim.stats import paired_difference
from tests.reference_engine import ReferenceDeal

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
load_module(str(EXAMPLES / "lowball_agent.py"))
load_module(str(EXAMPLES / "cautious_python_agent.py"))


def test_compiled_user_agent_plays_at_full_speed_in_the_batch_simulator():
    result = simulate(["lowball", "greedy"], Rules(), games=2000, seed=3)
    assert result.truncated_deals == 0
    by_agent = result.players.groupby("agent", observed=True)["total"].mean()
    assert set(by_agent.index) == {"lowball", "greedy"}
    # lowball beats random on identical deals (interval from the sample, fixed seed)
    vs_random = simulate(["lowball", "random"], Rules(), games=2000, seed=3).players
    low = vs_random[vs_random.seat == 0]["total"].to_numpy()
    rnd = simulate(["random", "random"], Rules(), games=2000, seed=3).players
    diff = paired_difference(low, rnd[rnd.seat == 0]["total"].to_numpy())
    assert diff["high"] < 0


def lowball_as_documented(margin: float):
    """The example's rule written again from its documentation: flip the first face-down card allowed; take the top
    discard, or keep a drawn card, over its worst face-up card only when lower by more than ``margin``; else draw,
    or throw the drawn card away."""

    def policy(observation: dict) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if observation["phase"] in ("open", "flip"):
            return int(legal[0])  # FLIP + k for the first allowed k (PASS, 26, comes last)
        points = observation["rules"].points()
        mine = observation["view"][observation["player"]]
        face_up = [k for k in range(6) if mine[k] >= 0]
        worst = max(face_up, key=lambda k: points[mine[k]], default=None)
        if observation["phase"] == "start":
            top = observation["top_discard"]
            if worst is not None and points[top] < points[mine[worst]] - margin:
                return TAKE_DISCARD + worst
            return DRAW_STOCK
        if worst is not None and points[observation["held"]] < points[mine[worst]] - margin:
            return PLACE_DRAWN + worst
        return THROW_DRAWN

    return policy


@pytest.mark.parametrize("margin", [0, 2])
def test_the_engine_plays_a_compiled_user_agent_as_its_rule_says(margin):
    # the compiled example, the same rule in plain Python through the step API, and the batch kernel all play the
    # same three-hole games against greedy (neither lowball draws from its random stream, so greedy's is the same)
    rules = Rules(holes=3)
    batch = simulate([f"lowball:margin={margin}", "greedy"], rules, games=4, seed=2).players
    for game in range(4):
        compiled = play_game([f"lowball:margin={margin}", "greedy"], rules, seed=2, game=game)["hole_scores"]
        python = play_game([lowball_as_documented(margin), "greedy"], rules, seed=2, game=game)["hole_scores"]
        assert np.array_equal(compiled, python), f"game {game}"
        in_batch = batch[batch.game == game].sort_values("seat")
        assert in_batch[[f"hole_{h + 1}" for h in range(3)]].to_numpy().T.tolist() == compiled.tolist()


def recorded(policy, log: list):
    def record(observation):
        action = policy(observation)
        log.append(int(action))
        return action

    return record


def test_the_engine_applies_exactly_what_a_python_agent_decides():
    # every decision of two plain-Python agents is recorded, then replayed in the independent reference engine from
    # the same deck: it must accept each one as legal and reach the same scores
    rules = Rules(holes=4)
    seed = 2
    log: list[int] = []
    seats = [recorded(parse_agent(a).spec.python(parse_agent(a).param_dict()), log)
             for a in ("cautious", "cautious:keep_at_most=0")]
    game = play_game(seats, rules, seed=seed)
    replayed = []
    moves = iter(log)
    for hole in range(rules.holes):
        deck = shuffled_deck(rules.pack(), np.array([deal_state(seed, 0, hole)], dtype=np.uint64))

        def no_recycle(cards):
            raise AssertionError("the stock ran out: this replay has no recycle order")

        deal = ReferenceDeal(rules, [int(c) for c in deck], hole % rules.players, no_recycle)
        while not deal.done:
            deal.step(next(moves))
        replayed.append(deal.scores())
    assert next(moves, None) is None
    assert game["hole_scores"].tolist() == replayed
    assert len(log) > 100


@pytest.mark.slow
def test_python_agent_plays_in_the_batch_simulator_but_not_in_a_decision_log(tmp_path):
    from golfsim.tournament import run_tournament

    result = simulate(["cautious", "greedy"], Rules(holes=1), games=3)
    assert len(result.players) == 6
    with pytest.raises(ValueError, match="'cautious' is a plain-Python agent; only compiled agents play here"):
        run_tournament(["cautious", "greedy"], Rules(holes=1), games=2, log=tmp_path / "log.parquet")


@njit(AGENT_SIGNATURE, cache=True)
def _always_throws(pub, rules, params, agent_rng, player):
    return 19


def test_a_compiled_agent_returning_an_illegal_move_is_named():
    if "always-throws" not in REGISTRY:
        register_compiled_agent("always-throws", "returns 19 whatever the phase", _always_throws)
    with pytest.raises(IllegalActionError, match=r"agent 'always-throws' \(seat 0\) returned the illegal action 19 "
                                                 r"\(throw drawn card\) in the open phase"):
        simulate(["always-throws", "greedy"], Rules(), games=5)


def test_registration_refuses_a_function_compiled_for_another_signature():
    @njit("int64(int64[::1], int32[::1], float64[::1], uint64[::1], int64)")
    def loose(pub, rules, params, agent_rng, player):
        return 6

    with pytest.raises(ValueError, match="AGENT_SIGNATURE"):
        register_compiled_agent("loose", "wrong signature", loose)


@njit(cache=True)
def _draw_first(pub, rules, params, agent_rng, player):
    if pub[PHASE] == START:
        return DRAW_STOCK
    for a in range(NUM_ACTIONS):
        if is_legal(pub, rules, a):
            return a
    return -1


def test_a_function_compiled_without_a_signature_is_compiled_for_the_simulator_when_it_plays():
    if "draw-first" not in REGISTRY:
        register_compiled_agent("draw-first", "draws every turn", _draw_first)
    result = simulate(["draw-first", "random"], Rules(holes=1), games=50, seed=2)
    assert result.deals["truncated"].sum() == 0 and len(result.players) == 100
