"""Golden playthroughs: seeded games and batch runs must reproduce the committed files in tests/golden/ exactly.

A difference means a random stream, the shuffle, a rule or an agent's decision changed, and with it every committed
result. If that is meant, regenerate with ``python -m tests.golden --regenerate`` and commit the new files with the
reason (see tests/golden/playthroughs.py).
"""

from __future__ import annotations

import difflib

import pytest

from golfsim.kernels.simulate import simulate
from tests.golden import __main__ as golden_command
from tests.golden.playthroughs import BATCH_FILE, CASES, REGENERATE, batch_summary, play_case


def assert_same_text(path, now: str) -> None:
    committed = path.read_text()
    if committed != now:
        diff = "".join(difflib.unified_diff(committed.splitlines(True), now.splitlines(True),
                                            f"{path.name} (committed)", f"{path.name} (now)"))
        pytest.fail(f"{path.name} no longer matches; if the change is meant, run `{REGENERATE}`\n{diff}",
                    pytrace=False)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_playthrough_matches_its_golden_file(case):
    assert_same_text(case.path, play_case(case))


def test_batch_runs_match_their_golden_summary():
    assert_same_text(BATCH_FILE, batch_summary())


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_playthrough_is_the_game_the_batch_simulator_plays(case):
    # the golden games are played a decision at a time; the batch kernel must play the very same game
    last = play_case(case).splitlines()[-1]
    assert last.startswith(f"totals after hole {case.rules.holes}: ")
    totals = [int(t) for t in last.split(": ")[1].split()]
    result = simulate(list(case.agents), case.rules, games=1, seed=case.seed, first_game=case.game)
    assert result.players.sort_values("seat")["total"].tolist() == totals


def test_the_command_shows_a_difference_and_rewrites_only_when_asked(tmp_path, monkeypatch, capsys):
    golden = tmp_path / "case.txt"
    golden.write_text("p0 draws 7\np1 throws 7\n")
    monkeypatch.setattr(golden_command, "expected_files", lambda: {golden: "p0 draws 7\np1 keeps 7\n"})
    assert golden_command.main([]) == 1
    shown = capsys.readouterr().out
    assert "-p1 throws 7\n+p1 keeps 7\n" in shown
    assert golden.read_text() == "p0 draws 7\np1 throws 7\n"
    assert golden_command.main(["--regenerate"]) == 0
    assert golden.read_text() == "p0 draws 7\np1 keeps 7\n"
    assert golden_command.main([]) == 0
    assert "every golden file matches" in capsys.readouterr().out
