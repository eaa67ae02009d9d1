"""The luck experiment on real games: equal agents show no skill, an agent against random nearly always wins, the
analytics come from the counting kernel, Ctrl-C keeps complete cells, and the recorded command reruns the result
byte for byte."""

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

from golfsim.core.rules import Rules
from golfsim.experiments import luck
from golfsim.experiments import luck_measures as lm
from golfsim.runs.tasks import run_tasks
from tests.experiments.citations import check_citations
from tests.support import default_sigint

TINY = 6
SEED = 3


def pair_scores(strong, weak, rules, deal_sets, seed=0):
    tasks = luck.pair_tasks(strong, weak, rules, deal_sets, seed, workers=2, units=1)
    run = run_tasks(tasks, threads=2)
    return luck.seating_scores([run.results[i] for i in range(len(tasks))], rules.players)


def test_seatings_put_the_first_agent_in_each_seat_once_and_differ_in_agent_seed_only():
    tasks = luck.pair_tasks("ev", "greedy", Rules(players=4), 10, 5, workers=1, units=1)
    seatings = list(dict.fromkeys((t.seats, t.agent_seed) for t in tasks))
    assert [s.index("ev") for s, _ in seatings] == [0, 1, 2, 3]
    assert all(s.count("ev") == 1 for s, _ in seatings)
    assert len({seed for _, seed in seatings}) == 4 and {t.seed for t in tasks} == {5}


def test_two_identical_agents_have_no_skill_share_within_its_interval():
    scores = pair_scores("random", "random", Rules(players=2), 1500, seed=2)
    row = luck.luck_row(scores, np.random.default_rng(0), resamples=300)
    for scope in ("game", "deal"):
        assert row[f"{scope}_skill_share_low"] <= 0 <= row[f"{scope}_skill_share_high"], scope
    # the paired margin is zero within 3.3 standard errors (a 99.9% interval: the 95% one misses 1 time in 20)
    paired = lm.margins(scores).sum(axis=2).mean(axis=1)
    assert abs(paired.mean()) < 3.3 * paired.std(ddof=1) / np.sqrt(paired.size)
    assert row["margin"] == pytest.approx(paired.mean())
    assert row["holes_90"] == np.inf or row["holes_90_high"] == np.inf


def test_an_agent_against_random_wins_almost_always():
    scores = pair_scores("ev", "random", Rules(players=2), 200, seed=4)
    row = luck.luck_row(scores, np.random.default_rng(0), resamples=300)
    # 400 games: if ev lost 2% of them, seeing no more than 2 losses would have probability about 1%
    assert row["win_9"] >= 0.99 and row["win_18"] >= 0.99
    assert row["win_1"] > 0.85 and row["game_skill_share_low"] > 0.5
    assert row["holes_90"] <= 3 and row["model_win_9"] > 0.99


@pytest.fixture(scope="module")
def tiny():
    return luck.run(games=TINY, seed=SEED, threads=2)


@pytest.mark.slow
def test_tables_cover_every_variant_pair_and_player_count(tiny):
    from golfsim.experiments.variants import VARIANTS

    table, extra = tiny.table, tiny.extra_tables["analytics"]
    assert list(table.columns) == luck.LUCK_COLUMNS and list(extra.columns) == luck.ANALYTICS_COLUMNS
    assert len(table) == len(VARIANTS) * len(luck.PLAYER_COUNTS) * len(luck.PAIRS) + 1  # + mc at 2 players
    mc = table[table.strong == "mc"]
    assert list(mc.variant) == ["default"] and list(mc.players) == [2]
    assert int(mc.deal_sets.iloc[0]) == luck.MIN_MC_DEAL_SETS
    assert set(extra[extra.variant == "default"].players) == set(luck.SEAT_PLAYER_COUNTS)
    assert (extra.games == TINY).all() and (table[table.strong != "mc"].deal_sets == TINY).all()
    shares = table[[f"game_{k}_share" for k in luck.SHARE_KINDS]].sum(axis=1)
    np.testing.assert_allclose(shares, 1.0)


def test_analytics_come_from_the_counting_kernel(tiny):
    from golfsim.kernels.counted import play_counted
    from golfsim.kernels.simulate import Table

    rules = Rules(players=2)
    counted = play_counted(Table.make(["ev", "ev"], rules), TINY, SEED)
    row = tiny.extra_tables["analytics"].query("variant == 'default' and players == 2").iloc[0]
    assert row.decisions_per_game == pytest.approx(counted.decisions.sum(axis=1).mean())
    assert row.branching == pytest.approx((counted.legal.sum(axis=1) / counted.decisions.sum(axis=1)).mean())


def test_figures_state_seed_sample_sizes_rules_and_intervals(tiny):
    assert set(tiny.figures) == {"figure", "win_curve", "analytics", "seats"}
    for stem, fig in tiny.figures.items():
        title = fig._suptitle.get_text()
        assert f"seed {SEED}" in title and f"{TINY:,}" in title and "95%" in title, stem
        assert "rule" in title, stem
        for ax in fig.axes:
            assert "(" in ax.get_xlabel(), (stem, ax.get_xlabel())
        assert any(isinstance(c, ErrorbarContainer) for ax in fig.axes for c in ax.containers), stem


def test_ctrl_c_keeps_only_complete_cells():
    lines = []

    def stop_after_two(line):
        lines.append(line)
        if sum(" done (" in x for x in lines) == 2:
            raise KeyboardInterrupt

    out = luck.run(games=TINY, seed=SEED, threads=1, log=stop_after_two)
    assert out.partial and out.config["partial"]
    kept = {c["cell"] for c in out.config["cells"] if c["complete"]}
    assert len(kept) == 2
    assert {f"{r.variant} {r.players}p" for r in out.table.itertuples()} <= kept
    assert out.notes[0].startswith("PARTIAL RESULT")


def _golfsim(args, cwd):
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-m", "golfsim", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900)


@pytest.mark.slow
def test_the_recorded_command_reruns_the_result_byte_for_byte(tmp_path):
    first = _golfsim(["experiment", "luck", "--games", str(TINY), "--seed", str(SEED), "--out", str(tmp_path / "a")],
                     tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    a = tmp_path / "a" / "luck"
    command = json.loads((a / "config.json").read_text())["command"]
    words = shlex.split(command)
    assert words[:3] == ["golfsim", "experiment", "luck"]
    (tmp_path / "b").mkdir()
    again = _golfsim(words[1:], tmp_path / "b")  # run from another folder: it writes ./results/luck there
    assert again.returncode == 0, again.stderr[-2000:]
    b = tmp_path / "b" / "results" / "luck"
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    assert {"table.csv", "analytics.csv", "config.json", "figure.png", "README.md"} - set(names) == {"README.md"}
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_every_number_the_committed_readme_cites_is_in_the_committed_tables():
    # ``tuned-ev`` in a citation stands for the tuned ev's label
    check_citations(Path(luck.__file__).resolve().parent.parent / "results" / "luck", "variant",
                    aliases={"tuned-ev": luck.PAIRS[1][0]})


@pytest.mark.slow  # a real golfsim process playing real games until the signal: about 30 s here
def test_a_real_ctrl_c_keeps_and_marks_the_complete_cells(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "experiment", "luck", "--games", "300", "--out",
                             str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"}, preexec_fn=default_sigint)
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if "done (1/" in line:
                proc.send_signal(signal.SIGINT)
                break
        _, rest = proc.communicate(timeout=600)
    finally:
        proc.kill()
    assert proc.returncode == 130, "".join(seen)
    out = tmp_path / "luck"
    config = json.loads((out / "config.json").read_text())
    assert config["partial"] is True and "PARTIAL RESULT" in (out / "table.md").read_text()
    done = {c["cell"] for c in config["cells"] if c["complete"]}
    assert 1 <= len(done) < len(config["cells"])
    table, extra = pd.read_csv(out / "table.csv"), pd.read_csv(out / "analytics.csv")
    assert {f"{r.variant} {r.players}p" for r in table.itertuples()} <= done
    assert len(extra) <= len(done) and (table.deal_sets[table.strong != "mc"] == 300).all()


def test_a_counted_task_played_one_game_a_chunk_counts_the_same_games(monkeypatch):
    import golfsim.runs.tasks as tasks
    from golfsim.kernels.counted import play_counted
    from golfsim.kernels.simulate import Table

    monkeypatch.setattr(tasks, "FIRST_CHUNK", 1)
    monkeypatch.setattr(tasks, "CHUNK_SECONDS", 0.0)  # chunks never grow
    rules = Rules(players=3, discard_and_flip="may")
    table = Table.make(["random", "greedy", "ev"], rules)
    whole = play_counted(table, 12, seed=4, agent_seed=6, first_game=5)
    chunked = luck.play_counted_task(table, tasks.Task(rules, ("random", "greedy", "ev"), 4, 6, 5, 12))
    for field in ("hole_scores", "turns", "enders", "reasons", "decisions", "legal", "choices"):
        np.testing.assert_array_equal(getattr(chunked, field), getattr(whole, field), err_msg=field)
    assert chunked.first_game == 5 and chunked.cpu_seconds > 0
