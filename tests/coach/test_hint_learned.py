"""golfsim hint's column of the learned player's values: one per legal move, its choice the lowest."""

import json
import os
import subprocess
import sys

import pytest

PAIR_THE_QUEENS = "me: Q J 10 / ? ? ?; opp: ? 5 ? / ? ? 3; discard: 8 4; drawn: Q"


def golfsim(*args, columns=200):
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": str(columns)})


@pytest.mark.slow
def test_every_move_has_a_learned_value_and_its_choice_is_the_lowest():
    done = golfsim("hint", PAIR_THE_QUEENS, "--format", "json", "--samples", "50")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    rows = answer["actions"]
    assert all(r["learned_value"] is not None for r in rows)
    picks = [r for r in rows if r["learned_choice"]]
    assert len(picks) == 1 and picks[0]["learned_value"] == min(r["learned_value"] for r in rows)
    assert picks[0]["key"] == "p4"  # the Queen under the Queen, as the search finds
    assert "learned" in answer["learned_unit"]


def test_the_table_shows_the_learned_column():
    done = golfsim("hint", PAIR_THE_QUEENS, "--samples", "50")
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if "deal score" in line)
    assert "learned" in header and "ev" in header
    assert "learned: the learned player's value" in done.stdout


GO_OUT_WITH_THE_ACE = "me: K 2 A / K 2 ?; opp: Q J ? / 10 ? 9; discard: 8 4; drawn: A"


@pytest.mark.slow
def test_going_out_has_an_exact_value_and_under_immediate_end_it_is_the_learned_one():
    # under immediate end the learned player values going out exactly too, by its own code path (policy's
    # terminal afterstate); the exact endgame must give the same number, and no other move has one
    done = golfsim("hint", GO_OUT_WITH_THE_ACE, "--format", "json", "--samples", "20")
    assert done.returncode == 0, done.stderr
    rows = {r["key"]: r for r in json.loads(done.stdout)["actions"]}
    assert [k for k, r in rows.items() if r["exact_value"] is not None] == ["p6"]
    assert rows["p6"]["exact_value"] == pytest.approx(rows["p6"]["learned_value"], abs=1e-9)


def test_the_table_marks_the_exact_value_under_one_last_turn():
    done = golfsim("hint", GO_OUT_WITH_THE_ACE, "--end", "one-last-turn", "--samples", "20")
    assert done.returncode == 0, done.stderr
    marked = [line for line in done.stdout.splitlines() if "(=" in line and not line.startswith("(=x)")]
    assert len(marked) == 1 and "slot 6" in marked[0]
    assert "(=x): the move's exact value" in done.stdout


# ---------------------------------------------------------------- the learned column's model (--learned-model)
def learned_column(model):
    from golfsim.coach.hint import hint
    from golfsim.coach.position import parse_position
    from golfsim.core.rules import Rules

    rules = Rules(players=2)
    answer = hint(parse_position(PAIR_THE_QUEENS, rules), rules, samples=10, learned_model=model)
    return answer, {r.key: r for r in answer.rows}


def test_the_learned_column_shows_the_model_asked_for():
    import numpy as np

    from golfsim.agents.learned import WEIGHTS_NT
    from golfsim.agents.learned.policy import action_values
    from golfsim.coach.position import parse_position
    from golfsim.core.rules import Rules
    from golfsim.core.spec import NUM_ACTIONS

    answer, rows = learned_column(2)
    _, rows_1 = learned_column(1)
    assert answer.learned_model == 2 and answer.to_dict()["learned_model"] == 2
    rules = Rules(players=2)
    expected = np.zeros(NUM_ACTIONS)
    action_values(parse_position(PAIR_THE_QUEENS, rules), rules.pack(), WEIGHTS_NT, np.int64(0), expected)
    for row in rows.values():
        assert row.learned_value == pytest.approx(expected[row.action], abs=1e-9)
    assert any(abs(rows[k].learned_value - rows_1[k].learned_value) > 0.01 for k in rows)  # another model's values
    assert rows["p4"].learned_choice  # both models pair the queens


def test_the_table_names_the_learned_model():
    done = golfsim("hint", PAIR_THE_QUEENS, "--samples", "20", "--learned-model", "2")
    assert done.returncode == 0, done.stderr
    assert "model 2, the linear value plus n-tuple tables" in " ".join(done.stdout.split())


def test_the_narrow_table_names_model_2_and_leaves_the_default_unnamed():
    # at 80 columns the notes are short: only the model that is not the default is named
    args = ["hint", PAIR_THE_QUEENS, "--samples", "20"]
    two = golfsim(*args, "--learned-model", "2", columns=80)
    one = golfsim(*args, columns=80)
    assert two.returncode == 0 and one.returncode == 0, two.stderr + one.stderr
    assert "learned: model 2" in " ".join(two.stdout.split())
    assert "model" not in " ".join(one.stdout.split())


def test_an_unknown_learned_model_is_a_usage_error():
    done = golfsim("hint", PAIR_THE_QUEENS, "--samples", "20", "--learned-model", "3")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "--learned-model" in done.stderr
    from golfsim.coach.hint import hint
    from golfsim.coach.position import parse_position
    from golfsim.core.rules import Rules

    rules = Rules(players=2)
    with pytest.raises(ValueError, match="learned_model must be 1 or 2, got 0"):
        hint(parse_position(PAIR_THE_QUEENS, rules), rules, samples=10, learned_model=0)


def test_a_damaged_model_2_refuses_its_column_and_model_1_still_answers(monkeypatch):
    import golfsim.agents.learned as learned

    monkeypatch.setattr(learned, "MODEL_NT_ERROR", "cannot read the model file learned_ntuple.json")
    with pytest.raises(ValueError, match="model 2 cannot be used: cannot read the model file learned_ntuple"):
        learned_column(2)
    assert learned_column(1)[0].learned_model == 1
