"""Tuning an agent's parameters (golfsim.tuning.study): search spaces, the field lead, reproducible studies, the
re-evaluation on fresh deals, and stopping and resuming.

The studies are small (greedy, a few trials of a few hundred deal sets) so they run in seconds once compiled.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from golfsim.agents.base import AgentSpec, Param, parse_agent
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate
from golfsim.runs.fingerprint import behaviour_fingerprint
from golfsim.tournament import run_tournament
from golfsim.tuning.study import (
    BUILT_IN_RANGES,
    ParamRange,
    TuningResult,
    agent_string,
    field_lead,
    parse_param_ranges,
    plan_request,
    search_space,
    tune,
)
from tests.committed import RESULTS

TWO = Rules(players=2)
SHORT = Rules(players=2, holes=3)


# ---------------------------------------------------------------- search spaces
def test_ev_is_searched_over_every_parameter_by_default():
    space = search_space(parse_agent("ev").spec)
    assert [r.name for r in space] == ["pair_weight", "horizon", "count_out", "out_margin", "watch_discard"]
    kinds = {r.name: r.kind for r in space}
    assert kinds["count_out"] == "bool" and kinds["watch_discard"] == "float"


def test_params_restrict_the_space_and_ranges_override_the_declared_ones():
    space = search_space(parse_agent("greedy").spec, "take_gain=0:5,blind_swap")
    assert [r.name for r in space] == ["take_gain", "blind_swap"]
    assert (space[0].low, space[0].high, space[0].step) == (0.0, 5.0, 0.01)
    assert space[1] == BUILT_IN_RANGES["greedy"]["blind_swap"] and space[1].kind == "int"


def test_parameters_set_in_the_agent_string_stay_fixed_unless_named():
    searched = [p["name"] for p in plan_request("ev:count_out=0,horizon=3")["params"]]
    assert searched == ["pair_weight", "out_margin", "watch_discard"]
    assert [p["name"] for p in plan_request("ev:count_out=0", params="count_out")["params"]] == ["count_out"]


def test_a_user_agent_declares_its_ranges_on_its_params():
    spec = AgentSpec("toy", "a test agent", (Param("a", 1.0, "a float", low=0.0, high=2.0),
                                             Param("b", 0.0, "a switch", kind="bool"),
                                             Param("c", 3.0, "no range")), builtin_id=1)
    space = search_space(spec)
    assert [(r.name, r.kind, r.low, r.high) for r in space] == [("a", "float", 0.0, 2.0), ("b", "bool", 0.0, 1.0)]
    with pytest.raises(ValueError, match="parameter 'c' declares no range; give one"):
        search_space(spec, "c")
    assert search_space(spec, "c=0:6:0.5")[0] == ParamRange("c", "float", 0.0, 6.0, 0.5)


@pytest.mark.parametrize("agent, params, message", [
    ("random", None, "agent 'random' has no parameters to tune"),
    ("ev", "nosuch", "agent 'ev' has no parameter 'nosuch'; its parameters: pair_weight"),
    ("ev", "horizon=3:1", "a range needs finite LOW < HIGH"),
    ("ev", "horizon=1", "write a range as name=LOW:HIGH"),
    ("greedy", "blind_swap=0:2.5", "takes whole numbers"),
])
def test_bad_spaces_are_refused(agent, params, message):
    with pytest.raises(ValueError, match=message):
        search_space(parse_agent(agent).spec, params)


def test_every_grid_point_round_trips_through_the_optuna_value():
    for r in (ParamRange.make("x", "float", -10, 10), ParamRange.make("x", "float", 0, 8, 0.05),
              ParamRange.make("x", "float", 0.5, 1.5), ParamRange.make("x", "int", -6, 6)):
        values = [r.value(k) for k in (range(r.points) if r.kind == "float" else range(-6, 7))]
        assert values[0] == r.low and values[-1] == r.high
        for v in values:
            assert r.value(r.raw(v)) == v
            assert len(repr(v).partition(".")[2]) <= 2  # short enough to paste


def test_parse_param_ranges():
    assert parse_param_ranges("a, b=0:1, c=-2:2:0.5") == {"a": None, "b": (0.0, 1.0, None), "c": (-2.0, 2.0, 0.5)}
    assert parse_param_ranges(None) == {}


def test_agent_string_names_only_what_differs_from_the_defaults_and_parses_back():
    choice = parse_agent("ev:watch_discard=0.31,count_out=0,horizon=2.5")
    assert agent_string(choice) == "ev:count_out=0,watch_discard=0.31"
    assert parse_agent(agent_string(choice)) == choice


# ---------------------------------------------------------------- the objective
def test_field_lead_is_the_tournaments_paired_head_to_head_difference():
    lead = field_lead("greedy:take_gain=6", ["greedy"], TWO, 300, 4)
    res = run_tournament(["greedy:take_gain=6", "greedy"], TWO, 300, 4)
    row = res.head_to_head.set_index("agent").loc["greedy:take_gain=6"]
    assert lead.shape == (300,)
    assert lead.mean() == pytest.approx(row["mean_diff"], abs=1e-12)


def test_at_three_seats_the_lead_is_over_the_mean_of_the_other_seats():
    rules = Rules(players=3, holes=3)
    lead = field_lead("greedy:take_gain=6", ["random"], rules, 200, 2)
    # the same table as a tournament: the candidate and two copies of random, in every rotation
    res = run_tournament(["greedy:take_gain=6", "random", "random"], rules, 200, 2, schedule="table",
                         seating="rotations")
    rows = res.head_to_head.set_index(["agent", "opponent"])
    pairwise = [rows.loc[("greedy:take_gain=6", other), "mean_diff"] for other in ("random#1", "random#2")]
    assert lead.mean() == pytest.approx(np.mean(pairwise), abs=1e-12)


# ---------------------------------------------------------------- studies
def _mis_set(trials=8, **kwargs):
    """greedy with take_gain set far too high, tuning take_gain alone against greedy at its defaults."""
    return tune("greedy:take_gain=9", against="greedy", rules=TWO, trials=trials, games=200, seed=0,
                params="take_gain", **kwargs)


@pytest.fixture(scope="module")
def mis_set():
    return _mis_set()


def test_tuning_finds_a_better_setting_on_fresh_deals(mis_set):
    # The margin is the 95% interval over 200 fresh deal sets: it must exclude no gain.
    r = mis_set.reevaluation
    assert r["winner_vs_baseline"]["high"] < 0, r
    assert r["improvement"]["high"] < 0, r
    assert r["seed"] != 0 and r["games"] == 200
    assert mis_set.best["params"]["take_gain"] < 9


def test_trial_0_plays_the_agent_as_given(mis_set):
    first = mis_set.trials.iloc[0]
    assert first["take_gain"] == 9.0 and first["agent"] == "greedy:take_gain=9" and first["state"] == "COMPLETE"
    assert mis_set.baseline == "greedy:take_gain=9"


def test_the_winner_is_the_best_trial_and_its_string_parses_and_plays(mis_set):
    t = mis_set.trials
    best = t.loc[t["objective"].idxmin()]
    assert mis_set.agent == best["agent"] and mis_set.best["trial"] == best["trial"]
    choice = parse_agent(mis_set.agent)
    assert choice.param_dict()["take_gain"] == best["take_gain"]
    played = simulate([mis_set.agent, "greedy"], Rules(players=2, holes=1), games=20, seed=3)
    assert len(played.deals) == 20


def test_the_re_evaluation_interval_is_the_tournaments(mis_set):
    r = mis_set.reevaluation
    res = run_tournament([mis_set.agent, "greedy:take_gain=9"], TWO, r["games"], r["seed"])
    row = res.head_to_head.set_index("agent").loc[mis_set.agent]
    got = r["winner_vs_baseline"]
    assert (got["mean"], got["low"], got["high"]) == pytest.approx(
        (row["mean_diff"], row["mean_diff_low"], row["mean_diff_high"]), abs=1e-9)


def test_the_same_seed_gives_the_same_study(mis_set):
    again = _mis_set()
    pd.testing.assert_frame_equal(again.trials, mis_set.trials)
    assert again.reevaluation == mis_set.reevaluation
    other = tune("greedy:take_gain=9", against="greedy", rules=TWO, trials=8, games=200, seed=1, params="take_gain")
    assert list(other.trials["take_gain"][1:]) != list(mis_set.trials["take_gain"][1:])


@pytest.mark.slow
def test_an_interrupted_study_keeps_its_trials_and_resumes_as_if_never_stopped(tmp_path):
    def stop_after_three(done, total, best):
        if done == 3:
            raise KeyboardInterrupt

    partial = tune("greedy", against="greedy", rules=SHORT, trials=6, games=100, seed=5, params="take_gain",
                   progress=stop_after_three)
    assert partial.partial and len(partial.trials) == 3 and partial.reevaluation is None
    partial.write(tmp_path, fingerprint=False)
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["partial"] is True and config["trials_completed"] == 3
    resumed = tune("greedy", against="greedy", rules=SHORT, trials=6, games=100, seed=5, params="take_gain",
                   resume=tmp_path)
    whole = tune("greedy", against="greedy", rules=SHORT, trials=6, games=100, seed=5, params="take_gain")
    pd.testing.assert_frame_equal(resumed.trials, whole.trials)
    assert not resumed.partial and resumed.reevaluation == whole.reevaluation
    with pytest.raises(ValueError, match="holds a study of another request"):
        tune("greedy", against="greedy", rules=SHORT, trials=6, games=100, seed=6, params="take_gain",
             resume=tmp_path)


def test_the_winner_is_recommended_only_when_it_beats_the_baseline_on_fresh_deals(mis_set):
    # take_gain=9 is far off: the re-evaluation's interval of the gain over 200 fresh deal sets lies below zero
    assert mis_set.recommended == mis_set.agent
    lines = mis_set.lines()
    assert f"agent string: {mis_set.agent}" in lines and not any("no parameters beat" in line for line in lines)
    # greedy at its defaults: the best trial on the tuning deals is no better on fresh ones
    plain = tune("greedy", against="greedy", rules=SHORT, trials=3, games=100, seed=0, params="take_gain")
    high = plain.reevaluation["improvement"]["high"]
    assert plain.recommended is None and not high < 0
    lines = plain.lines()
    assert not any(line.startswith("agent string:") for line in lines)
    assert any(line.startswith("no parameters beat the defaults") for line in lines), lines


def test_a_study_in_a_directory_keeps_every_trial_in_optunas_sqlite_storage_and_resumes_from_it(tmp_path):
    import optuna

    def stop_after_three(done, total, best):
        assert total == 6  # the trials asked for, not one more for the re-evaluation
        if done == 3:
            raise KeyboardInterrupt

    args = {"agent": "greedy", "against": "greedy", "rules": SHORT, "trials": 6, "games": 100, "seed": 5,
            "params": "take_gain"}
    partial = tune(**args, progress=stop_after_three, directory=tmp_path)
    assert partial.partial and len(partial.trials) == 3
    # the storage optuna-dashboard reads holds the three finished trials, written before anything else
    stored = optuna.load_study(study_name="golfsim-tune", storage=f"sqlite:///{tmp_path / 'study.db'}")
    done = [t for t in stored.trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert sorted(t.value for t in done) == sorted(partial.trials["objective"])
    assert json.loads((tmp_path / "config.json").read_text())["partial"] is True  # written before the first trial
    resumed = tune(**args, directory=tmp_path, resume=True)
    whole = tune(**args)
    pd.testing.assert_frame_equal(resumed.trials, whole.trials)
    assert not resumed.partial and resumed.reevaluation == whole.reevaluation
    with pytest.raises(ValueError, match="holds a study of another request"):
        tune(**{**args, "seed": 6}, directory=tmp_path, resume=True)


def test_write_saves_the_trials_the_plot_and_the_config(mis_set, tmp_path):
    paths = mis_set.write(tmp_path, fingerprint=False)
    assert sorted(p.name for p in paths) == ["config.json", "convergence.png", "trials.csv"]
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "trials.csv"), mis_set.trials)
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["winner"] == mis_set.agent and config["request"]["games"] == 200
    assert config["reevaluation"]["winner_vs_baseline"] == mis_set.reevaluation["winner_vs_baseline"]
    assert (tmp_path / "convergence.png").stat().st_size > 10_000
    read = TuningResult.read(tmp_path)
    pd.testing.assert_frame_equal(read.trials, mis_set.trials)
    assert (read.agent, read.baseline, read.best, read.reevaluation) == (
        mis_set.agent, mis_set.baseline, mis_set.best, mis_set.reevaluation)


@pytest.mark.parametrize("kwargs, message", [
    ({"agent": "nosuch"}, "unknown agent 'nosuch'"),
    ({"agent": "random"}, "has no parameters to tune"),
    ({"trials": 0}, "trials must be a whole number of at least 1"),
    ({"games": -1}, "games must be a whole number of at least 1"),
    ({"against": ""}, "the field is empty"),
    ({"against": "greedy,nosuch"}, "unknown agent 'nosuch'"),
    ({"eval_games": 0}, "eval_games must be a whole number of at least 1"),
])
def test_bad_requests_are_refused_before_anything_runs(kwargs, message):
    args = {"agent": "greedy", "against": "greedy", "rules": SHORT, "trials": 2, "games": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        tune(**args)


# ---------------------------------------------------------------- the committed study
COMMITTED = RESULTS / "tuning" / "ev"


def test_the_committed_study_of_ev_names_its_best_trial_and_a_string_that_parses():
    config = json.loads((COMMITTED / "config.json").read_text())
    trials = pd.read_csv(COMMITTED / "trials.csv")
    assert len(trials) == config["trials"] == config["trials_completed"] and not config["partial"]
    assert config["winner"] == trials.loc[trials["objective"].idxmin(), "agent"]
    assert parse_agent(config["winner"]).name == "ev"
    lead = config["reevaluation"]["winner_vs_baseline"]
    assert lead["low"] <= lead["mean"] <= lead["high"] and lead["deal_sets"] == config["eval_games"]


@pytest.mark.slow  # the fingerprint's seeded games take a minute or two
def test_the_committed_study_of_ev_comes_from_code_that_plays_like_this_code():
    config = json.loads((COMMITTED / "config.json").read_text())
    assert config["behaviour_fingerprint"] == behaviour_fingerprint(), (
        "results/tuning/ev was made by code that plays differently: rerun the command in its config.json with "
        "--overwrite from the repository root")
