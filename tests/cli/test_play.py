"""``golfsim play`` driven the way a person uses it: the real command in a pseudo-terminal, keys typed at prompts."""

import re
import subprocess
import sys

import pexpect
import pytest

from golfsim.game.env import GolfEnv
from golfsim.logs.trace import read_log
from tests.support import default_sigint

PROMPTS = [r"open> ", r"start> ", r"hold> ", r"flip> ", r"sure\? \(y/n\)> ", pexpect.EOF]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def spawn(*args, size=(40, 100)):
    return pexpect.spawn(sys.executable, ["-m", "golfsim", "play", *map(str, args)], dimensions=size,
                         encoding="utf-8", timeout=180, preexec_fn=default_sigint)


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
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


def play_through(save, *args, size=(40, 80), help_at=None):
    """Play a whole game at 80 columns the simple way a person might: flip 1 and 4, then draw every turn and put
    the card on the leftmost face-down position (confirming the last one). ``help_at`` presses h at that prompt
    number. Returns the transcript without colours."""
    child = spawn("--save", save, *args, size=size)
    transcript, flips, down, prompts = "", 0, [], 0
    while True:
        i = child.expect(PROMPTS)
        transcript += ANSI.sub("", child.before)
        if i == 5:
            break
        prompts += 1
        if prompts == help_at:
            child.sendline("h")
            continue
        if i == 0:
            if flips % 2 == 0:
                down = [2, 3, 5, 6]
            child.sendline("f1" if flips % 2 == 0 else "f4")
            flips += 1
        elif i == 1:
            child.sendline("d")
        elif i == 2:
            child.sendline(f"p{down.pop(0)}")
        elif i == 4:
            child.sendline("y")
    child.close()
    assert child.exitstatus == 0, transcript[-2000:]
    return transcript.replace("\r\n", "\n")


def replayed(save):
    """The saved game stepped through a fresh engine: for each of your swaps, the card that was face down there
    (read from the engine's hidden cards before the move), and the layouts and scores at each hole's end."""
    from golfsim.core.spec import PLACE_DRAWN, THROW_DRAWN
    from golfsim.game.game import Game

    log = read_log(save)
    frame = log.frame()
    game = Game(log.rules, log.meta["seed"])
    swaps, ends = [], []
    for row in frame[frame["kind"] == "decision"].itertuples():
        if not game.started or game.hole_over:
            game.start_hole()
        action = int(row.action)
        if row.seat == 0 and PLACE_DRAWN <= action < THROW_DRAWN:
            k = action - PLACE_DRAWN
            swaps.append((k + 1, int(game.hid[k]), game.view(0)[k] < 0))
        game.step(action)
        if game.hole_over:
            ends.append(([[int(c) for c in game.hid[6 * p: 6 * p + 6]] for p in range(log.rules.players)],
                         game.scores))
    return swaps, ends


@pytest.mark.slow
def test_your_swaps_are_narrated_and_each_hole_ends_with_every_layout_face_up(tmp_path):
    from golfsim.core.cards import rank_name

    save = tmp_path / "g.parquet"
    transcript = play_through(save, "--opponents", "ev", "--holes", "2", "--seed", "3")
    swaps, ends = replayed(save)
    assert len(ends) == 2 and any(was_down for _, _, was_down in swaps)
    narrated = re.findall(r"^you put the drawn (\S+) at position (\d), discarding an? (\S+)$", transcript, re.M)
    # every swap of yours is told, naming the card that came out of that position (face down until then)
    assert [(int(k), card) for _, k, card in narrated] == [(k, rank_name(c)) for k, c, _ in swaps]
    for hole, (layouts, scores) in enumerate(ends, start=1):
        block = transcript.split(f"hole {hole} over")[1].split("scorecard")[0]
        for name, cards, score in zip(["you", "ev"], layouts, scores, strict=True):
            row = re.search(rf"^  {name}\s+(.+?)\s+= (-?\d+)$", block, re.M)
            assert row, block
            assert row.group(1).split() == [rank_name(c) for c in cards[:3]] + ["/"] + \
                [rank_name(c) for c in cards[3:]]
            assert int(row.group(2)) == score


@pytest.mark.slow
def test_the_scorecard_shows_before_the_first_hole_ends_and_counts_holes_from_1(tmp_path):
    transcript = play_through(tmp_path / "g.parquet", "--opponents", "greedy", "--holes", "2", "--seed", "4")
    first_hole = transcript.split("hole 1 over")[0]
    header = re.search(r"^\s*scorecard\s+1\s+total\s*$", first_hole, re.M)
    assert header, first_hole[-1500:]
    assert re.search(r"^\s*you\s+·\s+0\s*$", first_hole, re.M)
    second_hole = transcript.split("hole 2 of 2:")[1].split("hole 2 over")[0]
    assert re.search(r"^\s*scorecard\s+1\s+2\s+total\s*$", second_hole, re.M)


@pytest.mark.slow
def test_help_gives_the_keys_the_card_values_and_scoring_under_the_rules_played(tmp_path):
    plain = play_through(tmp_path / "a.parquet", "--opponents", "greedy", "--holes", "1", "--seed", "2",
                         help_at=3)
    shown = plain.split("help (")[1].split("start> ")[0]
    assert "card values: A=1 2=-2 3=3 4=4 5=5 6=6 7=7 8=8 9=9 10=10 J=10 Q=10 K=0" in shown
    assert "a pair of twos: 0" in shown and "t1-t6" in shown and "p1-p6" in shown and "q " in shown
    assert "the deal ends the moment someone has six cards face up" in shown
    house = play_through(tmp_path / "b.parquet", "--opponents", "greedy", "--holes", "1", "--seed", "2",
                         "--jokers", "minus2", "--twos-pair", "zero", "--end", "one_last_turn", help_at=3)
    shown = house.split("help (")[1].split("start> ")[0]
    assert "card values: X=-2 A=1 2=2 3=3" in shown and "everyone else takes one last turn" in shown


@pytest.mark.slow
def test_narration_is_grammatical(tmp_path):
    transcript = play_through(tmp_path / "g.parquet", "--opponents", "ev", "--holes", "2", "--seed", "3")
    assert "hole 1 of 2: you move first" in transcript and "hole 2 of 2: ev moves first" in transcript
    assert re.search(r"^you draw an? \S+$", transcript, re.M)
    assert re.search(r"^you turn up an? \S+ at position 1$", transcript, re.M)
    assert not re.search(r"\ba (A|8)\b|\ban [^A8\s]|\byou (moves|draws|puts|turns|takes)\b", transcript), transcript
