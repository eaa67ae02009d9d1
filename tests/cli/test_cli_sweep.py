"""``golfsim sweep CONFIG.toml`` as a person runs it: a real command in a subprocess, Ctrl-C and SIGTERM sent to it,
the same command run again to finish, and every kind of bad input answered with one line and exit status 2."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.support import REPO, default_sigint, run_golfsim


def golfsim(*args, cwd=None, timeout=300):
    return run_golfsim(*args, cwd=cwd, timeout=timeout)


def start(*args, stderr_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "GOLFSIM_AGENT_MODULES"}
    return subprocess.Popen([sys.executable, "-m", "golfsim", *args], stdout=subprocess.DEVNULL,
                            stderr=stderr_path.open("w"), env=env, cwd=REPO, preexec_fn=default_sigint)


def assert_one_clear_line(result, *fragments):
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


SMALL = """
[sweep]
seed = 2
games = 6

[rules]
holes = 1

[axes]
end = ["immediate", "one_last_turn"]
gain = [0, 1]

[pools]
duel = ["greedy:take_gain={gain}", "random"]
"""

# Eight cells of greedy against random, each long enough (a few tenths of a second) to be interrupted inside.
LONG = """
[sweep]
seed = 4
games = 15000

[axes]
gain = [0, 1, 2, 3, 4, 5, 6, 7]

[pools]
duel = ["greedy:take_gain={gain}", "random"]
"""


def write(tmp_path: Path, text: str, name: str = "grid.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_help_shows_an_example():
    result = golfsim("sweep", "--help")
    assert result.returncode == 0
    for fragment in ("[sweep]", "[axes]", "[pools]", 'field = ["ev:watch_discard={watch}"',
                     "golfsim sweep experiments/sweeps/example.toml"):
        assert fragment in result.stdout


@pytest.mark.slow
def test_a_sweep_writes_the_table_figures_and_config_and_notes_the_cells_it_skipped(tmp_path):
    text = SMALL.replace("seed = 2", 'seed = 2\nimpossible = "skip"').replace("[axes]", "[axes]\nplayers = [2, 3]")
    result = golfsim("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 0, result.stderr
    skipped = [line for line in result.stderr.splitlines() if line.startswith("skipped cell")]
    assert len(skipped) == 4
    assert skipped[0].startswith("skipped cell (players=3, end=immediate, gain=0, pool=duel): 2 agents cannot fill")
    assert "end=one_last_turn, gain=1" in result.stdout and "greedy:take_gain={gain}" in result.stdout
    assert "4 cells (4 played now, 0 kept from an earlier run)" in result.stderr
    table = pd.read_parquet(tmp_path / "out" / "table.parquet")
    assert len(table) == 4 * 2 and set(table["agent"]) == {"greedy:take_gain=0", "greedy:take_gain=1", "random"}
    assert sorted(p.name for p in (tmp_path / "out").glob("*.png")) == ["score_vs_end.png", "score_vs_gain.png"]


def wait_for_cells(out: Path, proc, count: int = 1, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list((out / "cells").glob("*.json"))) >= count:
            return
        assert proc.poll() is None, "the sweep ended before it could be interrupted"
        time.sleep(0.02)
    raise AssertionError("no cell finished in time")


def interrupt(tmp_path: Path, sig) -> tuple[int, str, Path]:
    out = tmp_path / f"out-{sig.name}"
    err = tmp_path / f"stderr-{sig.name}.txt"
    proc = start("sweep", str(write(tmp_path, LONG)), "--out", str(out), stderr_path=err)
    try:
        wait_for_cells(out, proc)
        proc.send_signal(sig)
        code = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    return code, err.read_text(), out


def check_kept(stderr: str, out: Path) -> int:
    """The one line says how many cells were kept; exactly those are on disk, complete, and marked in config.json."""
    lines = [line for line in stderr.splitlines() if line.startswith("interrupted")]
    assert len(lines) == 1, stderr
    kept = int(lines[0].split("kept ")[1].split(" of ")[0])
    assert 1 <= kept < 8 and "of 8 cells" in lines[0]
    cells = [json.loads(p.read_text()) for p in (out / "cells").glob("*.json")]
    assert len(cells) == kept
    assert all(row["deal_sets"] == 15000 for cell in cells for row in cell["rows"])
    assert not list(out.rglob("*.tmp"))
    config = json.loads((out / "config.json").read_text())
    assert config["partial"] is True and config["cells_complete"] == kept
    assert {c["cell_id"] for c in config["grid"] if c["complete"]} == {c["cell_id"] for c in cells}
    assert len(pd.read_parquet(out / "table.parquet")) == 2 * kept
    return kept


@pytest.mark.slow  # three runs of the sweep: about 25 s on two cores (SIGTERM below covers the signal quickly)
def test_ctrl_c_keeps_the_finished_cells_and_the_same_command_finishes_with_the_same_table(tmp_path):
    code, stderr, out = interrupt(tmp_path, signal.SIGINT)
    assert code == 130, stderr
    assert "Traceback" not in stderr
    kept = check_kept(stderr, out)
    resumed = golfsim("sweep", str(tmp_path / "grid.toml"), "--out", str(out), "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert f"({8 - kept} played now, {kept} kept from an earlier run)" in resumed.stderr
    whole = golfsim("sweep", str(tmp_path / "grid.toml"), "--out", str(tmp_path / "whole"), "--quiet")
    assert whole.returncode == 0, whole.stderr
    assert (out / "table.csv").read_bytes() == (tmp_path / "whole" / "table.csv").read_bytes()
    assert pd.read_parquet(out / "table.parquet").equals(pd.read_parquet(tmp_path / "whole" / "table.parquet"))
    assert json.loads((out / "config.json").read_text())["partial"] is False


@pytest.mark.slow
def test_sigterm_stops_like_ctrl_c(tmp_path):
    code, stderr, out = interrupt(tmp_path, signal.SIGTERM)
    assert code == 130, stderr
    check_kept(stderr, out)


@pytest.mark.slow  # two runs of the sweep: about 25 s on two loaded cores
def test_after_a_crash_the_same_command_plays_only_the_missing_cells(tmp_path):
    out = tmp_path / "out"
    proc = start("sweep", str(write(tmp_path, LONG)), "--out", str(out), stderr_path=tmp_path / "stderr.txt")
    try:
        wait_for_cells(out, proc)
        proc.kill()  # SIGKILL: no handler runs, whatever was being written is cut short
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    on_disk = len(list((out / "cells").glob("*.json")))
    assert 1 <= on_disk < 8
    resumed = golfsim("sweep", str(tmp_path / "grid.toml"), "--out", str(out), "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    assert f"8 cells ({8 - on_disk} played now, {on_disk} kept from an earlier run)" in resumed.stderr
    assert len(pd.read_parquet(out / "table.parquet")) == 16 and not list(out.rglob("*.tmp"))


@pytest.mark.slow
def test_a_changed_config_into_the_same_directory_is_refused_in_one_line(tmp_path):
    path = write(tmp_path, SMALL)
    assert golfsim("sweep", str(path), "--out", str(tmp_path / "out"), "--quiet").returncode == 0
    path.write_text(SMALL.replace("gain = [0, 1]", "gain = [0, 1, 6]"))
    result = golfsim("sweep", str(path), "--out", str(tmp_path / "out"), "--quiet")
    assert_one_clear_line(result, "holds a sweep of a different request ([axes] gain differ)", "--overwrite")
    replaced = golfsim("sweep", str(path), "--out", str(tmp_path / "out"), "--quiet", "--overwrite")
    assert replaced.returncode == 0 and "6 cells (6 played now, 0 kept" in replaced.stderr


BAD_CONFIGS = {
    "TOML syntax error": (SMALL.replace("games = 6", "games = = 6"), ["grid.toml: TOML syntax error", "line 4"]),
    "unknown key": (SMALL.replace("seed = 2", "sead = 2"), ["unknown key 'sead' in [sweep]"]),
    "unknown rule option": (SMALL.replace("end = [", "ending = ["), ["unknown axis 'ending'"]),
    "unknown rule value": (SMALL.replace('"one_last_turn"', '"never"'), ["end='never' is not allowed"]),
    "unknown agent": (SMALL.replace('"random"', '"randomm"'), ["pool 'duel'", "unknown agent 'randomm'"]),
    "unknown parameter": (SMALL.replace("take_gain", "take_gains"), ["has no parameter 'take_gains'"]),
    "impossible cell": (SMALL.replace("holes = 1", "holes = 1\ndecks = 1")
                        .replace("[axes]", "[axes]\nplayers = [2, 9]"),
                        ["cell (players=9, end=immediate, gain=0, pool=duel) cannot be played",
                         "need at least 55 cards", 'impossible = "skip"']),
    "zero games": (SMALL.replace("games = 6", "games = 0"), ["games in [sweep] must be a whole number of at least 1"]),
    "negative games": (SMALL.replace("games = 6", "games = -3"), ["got -3"]),
}


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
@pytest.mark.slow
def test_a_bad_config_is_one_line_and_exit_2(tmp_path, case):
    text, fragments = BAD_CONFIGS[case]
    result = golfsim("sweep", str(write(tmp_path, text)), "--out", str(tmp_path / "out"))
    assert_one_clear_line(result, *fragments)
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_missing_config_file_is_one_line(tmp_path):
    assert_one_clear_line(golfsim("sweep", str(tmp_path / "nowhere.toml")), "nowhere.toml", "does not exist")


@pytest.mark.parametrize("where", ["existing file", "unwritable"])
def test_an_output_path_that_cannot_hold_the_sweep_is_one_line(tmp_path, where):
    (tmp_path / "taken").write_text("a file")
    out, fragment = {"existing file": (tmp_path / "taken", "is an existing file"),
                     "unwritable": (Path("/proc/golfsim-sweep"), "is not writable")}[where]
    result = golfsim("sweep", str(write(tmp_path, SMALL)), "--out", str(out))
    assert_one_clear_line(result, "--out", fragment)


@pytest.mark.slow
def test_games_shrinks_a_sweep_from_the_command_line(tmp_path):
    config = write(tmp_path, SMALL)
    result = golfsim("sweep", str(config), "--out", str(tmp_path / "small"), "--quiet", "--games", "2")
    assert result.returncode == 0, result.stderr
    recorded = json.loads((tmp_path / "small" / "config.json").read_text())
    assert recorded["request"]["sweep"]["games"] == 2
    table = pd.read_csv(tmp_path / "small" / "table.csv")
    assert set(table["deal_sets"]) == {2}
    assert_one_clear_line(golfsim("sweep", str(config), "--games", "0"), "--games must be a whole number")


def _first_cell(out: Path) -> Path:
    return sorted((out / "cells").glob("*.json"))[0]


def _without(record: dict, key: str) -> dict:
    return {k: v for k, v in record.items() if k != key}


HAND_EDITS = {
    "a JSON list": (lambda record: [1, 2], "a JSON list, not an object"),
    "no rows key": (lambda record: _without(record, "rows"), "no 'rows'"),
    "no request hash": (lambda record: _without(record, "request_hash"), "no 'request_hash'"),
    "rows not a list": (lambda record: {**record, "rows": 5}, "'rows' is not a list"),
    "a row without its mean": (lambda record: {**record, "rows": [_without(r, "mean_score") for r in record["rows"]]},
                               "a row without 'mean_score'"),
}


@pytest.fixture(scope="module")
def finished_sweep(tmp_path_factory):
    """A finished four-cell sweep to copy and edit."""
    place = tmp_path_factory.mktemp("sweep")
    config = write(place, SMALL)
    done = golfsim("sweep", str(config), "--out", str(place / "out"), "--quiet")
    assert done.returncode == 0, done.stderr
    return config, place / "out"


def copied(finished_sweep, tmp_path: Path) -> tuple[Path, Path]:
    import shutil

    config, out = finished_sweep
    shutil.copytree(out, tmp_path / "out")
    return config, tmp_path / "out"


@pytest.mark.parametrize("edit", list(HAND_EDITS), ids=list(HAND_EDITS))
@pytest.mark.slow
def test_a_cell_edited_by_hand_is_one_line_naming_its_file(finished_sweep, tmp_path, edit):
    config, out = copied(finished_sweep, tmp_path)
    cell = _first_cell(out)
    change, words = HAND_EDITS[edit]
    cell.write_text(json.dumps(change(json.loads(cell.read_text()))))
    table = (out / "table.csv").read_bytes()
    result = golfsim("sweep", str(config), "--out", str(out), "--quiet")
    assert_one_clear_line(result, cell.name, words)
    assert (out / "table.csv").read_bytes() == table  # nothing written over the earlier table


@pytest.mark.slow
def test_a_directory_where_a_cell_file_should_be_is_one_line_naming_it(finished_sweep, tmp_path):
    config, out = copied(finished_sweep, tmp_path)
    cell = _first_cell(out)
    cell.unlink()
    cell.mkdir()
    assert_one_clear_line(golfsim("sweep", str(config), "--out", str(out), "--quiet"), cell.name, "is a directory")


@pytest.mark.slow
def test_a_config_json_edited_into_a_list_is_one_line_naming_it(finished_sweep, tmp_path):
    config, out = copied(finished_sweep, tmp_path)
    (out / "config.json").write_text("[1]")
    assert_one_clear_line(golfsim("sweep", str(config), "--out", str(out), "--quiet"), "config.json",
                          "a JSON list, not an object")


@pytest.mark.slow
def test_a_cell_with_no_rows_is_played_again_not_dropped_from_the_table(finished_sweep, tmp_path):
    config, out = copied(finished_sweep, tmp_path)
    cell = _first_cell(out)
    record = json.loads(cell.read_text())
    expected = record["rows"]
    cell.write_text(json.dumps({**record, "rows": []}))
    result = golfsim("sweep", str(config), "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert "4 cells (1 played now, 3 kept from an earlier run)" in result.stderr
    table = pd.read_csv(out / "table.csv")
    assert table["cell_id"].nunique() == 4
    assert json.loads(cell.read_text())["rows"] == expected  # the same seeded cell, played again
