"""Ctrl-C and SIGTERM sent to a real ``golfsim`` process: it stops, keeps and marks what was complete, exits 130.

Each test starts ``python -m golfsim ...`` and sends the signal when the run's own log says how far it got (the
experiments log a line as each cell completes), so the timing does not depend on the machine's speed.
"""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.support import REPO, default_sigint, signal_when

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
pytestmark = pytest.mark.slow  # each test starts golfsim in a new process and plays real games: 20-60 s here


def run_until(args: list[str], trigger: str, sig: int = signal.SIGINT, timeout: float = 400,
              script: str | None = None) -> tuple[int, str, str]:
    """Run golfsim with ``args``; send ``sig`` as soon as a line of its stderr contains ``trigger``."""
    command = [sys.executable, "-c", script] if script else [sys.executable, "-m", "golfsim"]
    return signal_when([*command, *args], trigger, sig, timeout)


def partial_config(directory: Path) -> dict:
    config = json.loads((directory / "config.json").read_text())
    assert config["partial"] is True
    assert "PARTIAL RESULT" in (directory / "table.md").read_text()
    return config


def test_ctrl_c_in_the_ladder_keeps_the_finished_player_count_marked_partial(tmp_path):
    # the trigger names no cell count: a ladder that gains a section must still be interrupted, not run to the end
    code, _, err = run_until(["experiment", "ladder", "--games", "1000", "--out", str(tmp_path)], "done (1/")
    assert code == 130, err
    config = partial_config(tmp_path / "ladder")
    cells = len(config["cells"])
    assert cells >= 5  # the built-ins at 2, 3 and 4 players, then the sections with the search and learned players
    assert f"kept 1 of {cells} complete cells (2 players)" in err
    assert [c["complete"] for c in config["cells"]] == [True] + [False] * (cells - 1)
    table = pd.read_csv(tmp_path / "ladder" / "table.csv")
    assert set(table.players) == {2} and (table.deal_sets == 1000).all()


def test_sigterm_in_tips_keeps_every_finished_cell(tmp_path):
    code, _, err = run_until(["experiment", "tips", "--games", "2000", "--out", str(tmp_path)], "done (2/",
                             signal.SIGTERM)
    assert code == 130, err
    config = partial_config(tmp_path / "tips")
    done = [c["cell"] for c in config["cells"] if c["complete"]]
    assert 2 <= len(done) < len(config["cells"])
    table = pd.read_csv(tmp_path / "tips" / "table.csv")
    assert [f"({r.tip}) {r.players} players" for r in table.itertuples()] == done
    assert (table.games == 2000).all()


def test_ctrl_c_in_variants_never_ranks_an_unfinished_variant(tmp_path):
    code, _, err = run_until(["experiment", "variants", "--games", "300", "--out", str(tmp_path)], "done (1/")
    assert code == 130, err
    config = partial_config(tmp_path / "variants")
    done = [c["cell"] for c in config["cells"] if c["complete"]]
    table = pd.read_csv(tmp_path / "variants" / "table.csv")
    assert list(dict.fromkeys(table.variant)) == done
    assert (table.games == 300).all() and table.rr_rank.notna().all() and table.rr_mean_deal_score.notna().all()


def test_ctrl_c_in_all_writes_the_partial_experiment_and_runs_no_other(tmp_path):
    code, _, err = run_until(["experiment", "all", "--games", "1000", "--out", str(tmp_path)], "ladder: 2 players done")
    assert code == 130, err
    assert "not run: tips, variants, players" in err
    partial_config(tmp_path / "ladder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ladder"]


def test_ctrl_c_before_any_cell_is_complete_writes_nothing(tmp_path):
    code, _, err = run_until(["experiment", "players", "--games", "20000", "--out", str(tmp_path)], " cells, ")
    assert code == 130, err
    assert "players: no cell was complete; nothing written" in err
    assert list(tmp_path.iterdir()) == []


def test_sigterm_stops_a_tournament_with_exit_status_130_and_keeps_the_complete_deal_sets():
    # stderr is a terminal, so the progress bar is drawn; SIGTERM goes when it shows games played
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "tournament", "--agents", "ev,greedy,random",
                             "--games", "2000000", "--batch-size", "500", "--format", "json"],
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=REPO,
                            env={**os.environ, "COLUMNS": "100", "TERM": "xterm"}, preexec_fn=default_sigint)
    os.close(slave)
    drawn = ""
    # 60,000 games: pieces of 500 deal sets, so the first piece of every seat order is long done
    while max((int(n) for n in re.findall(r"(\d+)/12000000", drawn)), default=0) < 60_000:
        drawn += ANSI.sub("", os.read(master, 65536).decode(errors="replace"))
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=300)
    with contextlib.suppress(OSError):
        while os.read(master, 65536):
            pass
    os.close(master)
    assert proc.returncode == 130
    summary = json.loads(out)["summary"]
    assert summary["partial"] is True and 0 < summary["deal_sets_completed"] < 2_000_000
    assert summary["deal_sets_completed"] % 500 == 0  # whole pieces of the deal sets, the same in every seat order


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_stops_a_searching_tournament_in_seconds_not_when_its_pieces_end(sig):
    # 4,000 deal sets of mc against ev in both seat orders are four tasks of 2,000 games, minutes each: the tasks
    # running when the signal comes must give up at their next chunk of games (about half a second), not play on
    master, slave = pty.openpty()  # stderr is a terminal, so the progress bar is drawn as the games start
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "tournament", "--agents", "mc,ev", "--games", "4000"],
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=REPO,
                            env={**os.environ, "COLUMNS": "100", "TERM": "xterm"}, preexec_fn=default_sigint)
    os.close(slave)
    try:
        drawn = ""
        while not re.search(r"/8,?000 games", drawn):
            drawn += ANSI.sub("", os.read(master, 65536).decode(errors="replace"))
        time.sleep(3)  # well inside the first tasks
        proc.send_signal(sig)
        # the target is within 5 s; the bound leaves room for a loaded machine, far below the minutes a task takes
        proc.communicate(timeout=60)
        with contextlib.suppress(OSError):
            while chunk := os.read(master, 65536):
                drawn += ANSI.sub("", chunk.decode(errors="replace"))
    finally:
        proc.kill()
        os.close(master)
    assert proc.returncode == 130, drawn
    assert "no deal set was complete" in drawn


def test_a_second_ctrl_c_while_writing_leaves_no_half_written_directory(tmp_path):
    # The table's Markdown is made slow (and announced) so that both Ctrl-Cs land inside the write.
    script = textwrap.dedent("""
        import sys, time
        import golfsim.experiments.common as common
        real = common.markdown_table
        def slow(*args, **kwargs):
            print("writing now", file=sys.stderr, flush=True)
            time.sleep(120)
            return real(*args, **kwargs)
        common.markdown_table = slow
        from golfsim.cli.app import main
        sys.argv = ["golfsim", *sys.argv[1:]]
        main()
    """)
    target = tmp_path / "ladder"
    # the first Ctrl-C after the last cell lets the complete result be written; the second abandons it
    proc = subprocess.Popen([sys.executable, "-c", script, "experiment", "ladder", "--games", "30", "--out",
                             str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "COLUMNS": "200"}, preexec_fn=default_sigint)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if "writing now" in line:
            proc.send_signal(signal.SIGINT)
        if line.startswith("stopping:"):
            proc.send_signal(signal.SIGINT)
            break
    _, rest = proc.communicate(timeout=300)
    code, err = proc.returncode, "".join(seen) + rest
    assert code == 130, err
    assert f"interrupted while writing {target}; it was left as it was" in err
    assert list(tmp_path.iterdir()) == []  # neither the result nor the temporary directory it was written to


def test_ctrl_c_in_the_search_experiment_keeps_the_finished_settings_and_stops_in_seconds(tmp_path):
    # greedy and ev finish at once; the mc settings take minutes at 300 deal sets, and must stop at the signal
    # (the target is 5 s; the mc tasks alone would run for minutes)
    code, _, err = run_until(["experiment", "search", "--games", "300", "--out", str(tmp_path)], "done (2/",
                             timeout=60)
    assert code == 130, err
    assert "Traceback" not in err and "KeyError" not in err
    config = partial_config(tmp_path / "search")
    done = [c["cell"] for c in config["cells"] if c["complete"]]
    assert 2 <= len(done) < len(config["cells"])
    table = pd.read_csv(tmp_path / "search" / "table.csv")
    assert [f"{r.agent} against {r.opponent}" for r in table.itertuples()] == done
    assert (table.deal_sets == 300).all()


def test_one_ctrl_c_while_benchmarks_writes_its_result_lets_the_result_be_written_in_full(tmp_path):
    # The write is announced and made slow, so the Ctrl-C lands inside it, after every point was measured: like
    # every other experiment, benchmarks finishes the write and exits 130 (it used to lose the whole result).
    script = textwrap.dedent("""
        import sys, time
        import golfsim.experiments.common as common
        real = common.ExperimentOutput.write
        def slow(self, *args, **kwargs):
            print("writing now", file=sys.stderr, flush=True)
            time.sleep(3)
            return real(self, *args, **kwargs)
        common.ExperimentOutput.write = slow
        from golfsim.cli.app import main
        sys.argv = ["golfsim", *sys.argv[1:]]
        main()
    """)
    code, _, err = run_until(["experiment", "benchmarks", "--games", "200", "--out", str(tmp_path)], "writing now",
                             script=script, timeout=300)
    assert code == 130, err
    assert "Traceback" not in err
    assert "interrupted after every cell of benchmarks was complete: the result was written in full" in " ".join(
        err.split())
    config = json.loads((tmp_path / "benchmarks" / "config.json").read_text())
    assert config.get("partial", False) is False and config["experiment"] == "benchmarks"
    assert len(pd.read_csv(tmp_path / "benchmarks" / "table.csv")) > 0
