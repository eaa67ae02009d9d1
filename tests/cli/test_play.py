"""``golfsim play`` driven the way a person uses it: the real command in a pseudo-terminal, keys typed at prompts."""

import re
import subprocess
import sys

import pexpect

from golfsim.game.env import GolfEnv
from golfsim.logs.trace import read_log

PROMPTS = [r"open> ", r"start> ", r"hold> ", r"flip> ", r"sure\? \(y/n\)> ", pexpect.EOF]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def spawn(*args, size=(40, 100)):
    return pexpect.spawn(sys.executable, ["-m", "golfsim", "play", *map(str, args)], dimensions=size,
                         encoding="utf-8", timeout=180)


def test_a_whole_deal_against_ev_matches_the_engines_scores(tmp_path):
    save = tmp_path / "game.parquet"
    child = spawn("--opponents", "ev", "--holes", "1", "--seed", "3", "--save", save)
    opening = iter(["zz", "f1", "f4"])  # a key that is no move first: it is explained and asked again
    places = ["p2", "p3", "p5", "p6"]  # the four cards left face down after flipping 1 and 4
    answers = iter(["n", "y"])  # the first confirmation is declined: the prompt comes back
    transcript = ""
    while True:
        i = child.expect(PROMPTS)
        transcript += ANSI.sub("", child.before)
        if i == 0:
            child.sendline(next(opening))
        elif i == 1:
            child.sendline("d")
        elif i == 2:
            child.sendline(places[0])
        elif i == 4:
            answer = next(answers)
            if answer == "y":
                places.pop(0)
            child.sendline(answer)
        elif i == 5:
            break
        if i == 2 and len(places) > 1:
            places.pop(0)
    child.close()
    assert child.exitstatus == 0
    assert "'zz' is not a key" in transcript
    ended = re.search(r"hole 1 over \(([^)]*)\): you (-?\d+), ev (-?\d+)", transcript)
    assert ended, transcript[-2000:]
    # the engine, given the saved moves on the same deal, scores them the same
    frame = read_log(save).frame()
    env = GolfEnv(read_log(save).rules)
    env.reset(3)
    for action in frame[frame["kind"] == "decision"]["action"]:
        env.step(int(action))
    assert env.done and env.scores == [int(ended.group(2)), int(ended.group(3))]
    assert "you" in ended.group(1) or "ev went out" in ended.group(1)
    shown = subprocess.run([sys.executable, "-m", "golfsim", "replay", str(save)], capture_output=True, text=True,
                           timeout=300)
    assert shown.returncode == 0 and re.search(rf"total\s+{env.scores[0]}\s+{env.scores[1]}", shown.stdout)


def test_hint_and_help_answer_without_moving(tmp_path):
    child = spawn("--opponents", "greedy", "--holes", "1", "--seed", "1", "--save", tmp_path / "g.parquet")
    child.expect("open> ")
    child.sendline("?")
    child.expect(r"hint: ev would play f\d \(flip position \d\)")
    child.expect("open> ")
    child.sendline("h")
    child.expect("f1-6: flip")
    child.expect("open> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and (tmp_path / "g.parquet").exists()


HINT_ROW = re.compile(r"^\s*[│|]\s*(d|x|n|[tprf][1-6])\s+[│|]", re.MULTILINE)


def hint_keys(child, prompt):
    """Press ? at ``prompt`` and read the keys of the hint table's rows, best first."""
    child.sendline("?")
    child.expect("hint: mc's search")
    child.expect(prompt)
    return HINT_ROW.findall(ANSI.sub("", child.before))


def test_the_hint_table_lists_the_legal_moves_best_first_and_the_best_is_playable(tmp_path):
    child = spawn("--opponents", "greedy", "--holes", "1", "--seed", "5", "--save", tmp_path / "g.parquet")
    for key in ("f1", "f4"):
        child.expect("open> ")
        child.sendline(key)
    child.expect("start> ")
    keys = hint_keys(child, "start> ")
    assert sorted(keys) == ["d", "t1", "t2", "t3", "t4", "t5", "t6"]  # no reveal in these rules: every legal move
    child.sendline("d")
    child.expect("hold> ")
    keys = hint_keys(child, "hold> ")
    assert sorted(keys) == ["p1", "p2", "p3", "p4", "p5", "p6", "x"]
    child.sendline(keys[0])  # the best-listed move is accepted as a move
    i = child.expect(["not a move", "not a key", r"sure\? \(y/n\)> ", "start> ", pexpect.EOF])
    assert i >= 2, child.before
    child.sendline("q" if i == 3 else "y" if i == 2 else "")
    child.expect(pexpect.EOF)
    child.close()


def test_ctrl_c_ends_the_game_cleanly_and_saves_it(tmp_path):
    save = tmp_path / "g.parquet"
    child = spawn("--opponents", "ev,greedy", "--seed", "2", "--save", save)
    child.expect("open> ")
    child.sendline("f1")
    child.expect("open> ")
    child.sendintr()
    child.expect(pexpect.EOF)
    output = ANSI.sub("", child.before)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in output
    assert "interrupted" in output and f"saved the game to {save}" in output.replace("\r\n", "")
    log = read_log(save)
    assert log.meta["partial"] is True and log.rules.players == 3


def test_too_small_or_no_terminal_or_unknown_opponent_is_one_line_and_exit_2(tmp_path):
    child = spawn("--opponents", "ev", "--save", tmp_path / "g.parquet", size=(10, 40))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "the terminal is 40x10; golfsim play needs at least" in child.before
    for args, message in ((["--opponents", "ev"], "needs an interactive terminal"),
                          (["--opponents", "ev,nobody"], "unknown agent 'nobody'"),
                          (["--save", tmp_path / "no" / "g.parquet"], "the directory")):
        done = subprocess.run([sys.executable, "-m", "golfsim", "play", *map(str, args)], capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=300, cwd=tmp_path)
        assert done.returncode == 2 and message in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
