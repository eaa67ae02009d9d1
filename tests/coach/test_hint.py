"""golfsim hint: every legal move valued by mc's search and by ev, checked against positions whose answer is known."""

import json
import math

import numpy as np
import pytest

from golfsim.coach.hint import hint
from golfsim.coach.position import parse_position
from golfsim.core.rules import Rules
from tests.reference_engine import deck_composition, score_layout
from tests.support import run_golfsim

# You drew a queen over a face-up queen whose partner is face down: swapping it in under the queen (slot 4) makes a
# column pair worth 0 instead of a queen plus an unknown card.
PAIR_THE_QUEENS = "me: Q J 10 / ? ? ?; opp: ? 5 ? / ? ? 3; discard: 8 4; drawn: Q"


def golfsim(*args):
    return run_golfsim(*args, timeout=600)


@pytest.mark.slow
def test_the_move_that_pairs_the_queens_comes_first_by_more_than_its_error():
    done = golfsim("hint", PAIR_THE_QUEENS, "--format", "json", "--samples", "400")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    rows = answer["actions"]
    assert answer["searcher"] == "mc" and answer["samples"] == 400
    assert [r["key"] for r in rows][0] == "p4"
    assert rows[0]["move"] == "swap the drawn Q into slot 4 (a face-down card)"
    runner_up = rows[1]
    assert runner_up["objective"] - rows[0]["objective"] > 3 * runner_up["gap_se"]
    assert sorted(r["key"] for r in rows) == ["p1", "p2", "p3", "p4", "p5", "p6", "x"]  # the legal moves, no more
    # ev's column: ev's own choice is the move it values lowest
    ev_pick = [r for r in rows if r["ev_choice"]]
    assert len(ev_pick) == 1 and ev_pick[0]["ev_value"] == min(r["ev_value"] for r in rows)


def test_the_table_names_the_searcher_and_every_move_in_words():
    # a 200-column pipe: the wide table (the narrow one at 80 columns has its own test below)
    done = run_golfsim("hint", PAIR_THE_QUEENS, "--samples", "50", "--seed", "4", env={"COLUMNS": "200"}, timeout=600)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "mc's search: 50 sampled worlds per move" in text
    for words in ("swap the drawn Q into slot 4 (a face-down card)", "throw the drawn Q away",
                  "swap the drawn Q into slot 1 (your Q)", "game totals do not enter the objective"):
        assert words in text


# Your last turn (the opponent went out with 3 3 4 / A 5 6, scoring 4 + 8 + 10 = 22): every move that takes the
# discard ends the deal at once, so its deal score is your layout's, the one face-down card uniform over the cards
# nobody has seen.
LAST_TURN = "me: K 7 ? / K 4 9; opp: 3 3 4 / A 5 6; discard: 8 J"
LAST_TURN_RULES = Rules(end="one_last_turn")


def expected_score(layout, rules, seen):
    """Mean and standard deviation of the deal score of ``layout`` whose one ``None`` is an unseen card."""
    unseen = deck_composition(rules)
    for card in seen:
        unseen[card] -= 1
    total = sum(unseen.values())
    scores = {r: score_layout([r if c is None else c for c in layout], rules) for r in unseen if unseen[r]}
    mean = sum(unseen[r] * s for r, s in scores.items()) / total
    var = sum(unseen[r] * (s - mean) ** 2 for r, s in scores.items()) / total
    return mean, math.sqrt(var)


def test_deal_scores_agree_with_the_hand_computed_expectation():
    samples = 2000
    answer = hint(parse_position(LAST_TURN, LAST_TURN_RULES), LAST_TURN_RULES, samples=samples, seed=5, objective=0)
    rows = {r.key: r for r in answer.rows}
    assert set(rows) == {"t1", "t2", "t3", "t4", "t5", "t6", "d"}
    K, J = 13, 11
    seen = [K, 7, K, 4, 9, 3, 3, 4, 1, 5, 6, 8, J]  # every face-up card and the discard pile
    # covering the face-down card with the jack goes out: K 7 J / K 4 9 scores 0 + 11 + 19, in every world
    assert rows["t3"].deal_score == score_layout([K, 7, J, K, 4, 9], LAST_TURN_RULES) == 30
    assert rows["t3"].deal_score_se == 0.0
    for key, slot in (("t1", 0), ("t2", 1), ("t4", 3), ("t5", 4), ("t6", 5)):
        layout = [K, 7, None, K, 4, 9]
        layout[slot] = J
        mean, sd = expected_score(layout, LAST_TURN_RULES, seen)  # the jack moved from the pile to your layout
        margin = 4 * sd / math.sqrt(samples)  # four standard errors of a mean of independent worlds
        assert abs(rows[key].deal_score - mean) <= margin, (key, rows[key].deal_score, mean, margin)
        assert rows[key].deal_score_se == pytest.approx(sd / math.sqrt(samples), rel=0.1)


def test_the_objective_is_the_score_less_the_opponents_and_the_same_seed_gives_the_same_numbers():
    pub = parse_position(LAST_TURN, LAST_TURN_RULES)
    relative = hint(pub, LAST_TURN_RULES, samples=300, seed=9)
    again = hint(pub, LAST_TURN_RULES, samples=300, seed=9)
    assert [(r.key, r.objective, r.deal_score) for r in relative.rows] == \
        [(r.key, r.objective, r.deal_score) for r in again.rows]
    for r in relative.rows:  # the opponent has gone out: their 22 is fixed
        if r.key != "d":
            assert r.objective == pytest.approx(r.deal_score - 22)


def test_a_position_with_a_short_stock_is_searched_like_any_other():
    rules = Rules()
    answer = hint(parse_position("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; stock: 4", rules), rules,
                  samples=200, seed=2)
    assert sorted(r.key for r in answer.rows) == ["d", "t1", "t2", "t3", "t4", "t5", "t6"]
    assert all(np.isfinite(r.deal_score) and r.deal_score_se > 0 for r in answer.rows)


def test_on_the_last_hole_objective_2_counts_the_game():
    rules = Rules(end="one_last_turn", holes=9)
    # you trail by 20 on totals: even the best score this deal cannot win, so every move loses the game for sure
    pub = parse_position(LAST_TURN + "; hole: 9; totals: 60 40", rules)
    answer = hint(pub, rules, samples=100, seed=1, objective=2)
    assert all(0.99 < r.objective < 1.01 for r in answer.rows)


@pytest.mark.parametrize("position, flags, message", [
    ("me: K K K / K ? ?; opp: K ? ? / ? ? ?; discard: 3", [], "5 cards of rank K are showing"),
    ("me: 5 ? ? / K ? 2; opp: ? ? ? / ? ? ?; discard: 3; drawn: Q; phase: start", [],
     "a drawn card is decided in the hold phase"),
    ("me: 5 ? ? / K ?; opp: ? ? ? / ? ? ?; discard: 3", [], "a layout has 6 cards"),
    ("me: 5 ? ? / K ? 2; opp: ? ? ? / ? ? ?; discard: 3 W", [], "discard: 'W' is not a card"),
    ("me: 5 ? ? / K ? 2; " + "opp: ? ? ? / ? ? ?; " * 12 + "discard: 3", [], "12 opponents make 13 players"),
    ("me: 5 ? ? / K ? 2; " + "opp: ? ? ? / ? ? ?; " * 8 + "discard: 3", ["--decks", "1"],
     "9 players need at least 55 cards"),
    ("me: 5 4 3 / K 9 2; opp: ? ? ? / ? ? ?; discard: 7", [], "your six cards are all face up"),
    ("me: 5 ? 3 / K 9 2; opp: 4 4 7 / 8 8 6; discard: 3", [], "with end=immediate the deal is over"),
    (PAIR_THE_QUEENS, ["--samples", "1"], "samples must be a whole number from 2"),
])
def test_an_impossible_position_exits_2_with_one_line(position, flags, message):
    done = golfsim("hint", position, *flags)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in done.stderr


def test_hint_help_shows_examples():
    done = golfsim("hint", "--help")
    assert done.returncode == 0
    assert 'golfsim hint "me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q"' in done.stdout
    assert "the LAST card is the top" in " ".join(done.stdout.split())


def test_every_row_of_a_hint_is_a_legal_move_of_a_real_game():
    from golfsim.game.game import Game

    rules = Rules(players=3, discard_and_flip="may", reveal_instead_of_draw=True)
    game = Game(rules, 7)
    game.start_hole()
    rng = np.random.default_rng(0)
    hinted = 0
    while not game.hole_over and hinted < 6:
        if game.phase != "open":
            answer = hint(game.pub, rules, samples=20, seed=hinted)
            assert sorted(r.action for r in answer.rows) == game.legal_actions()
            hinted += 1
        game.step(int(rng.choice(game.legal_actions())))
    assert hinted == 6


@pytest.mark.slow
def test_the_hints_values_are_mcs_own():
    """mc with every action searched in every world (no halving) and no confidence margin plays the move whose
    objective the hint, on the same stream, values lowest."""
    from golfsim.agents.search import MC_PARAMS, mc_act
    from golfsim.core.rng import stream_state
    from golfsim.game.game import Game

    rules = Rules(players=3, end="one_last_turn")
    params = np.array([p.default for p in MC_PARAMS])
    names = [p.name for p in MC_PARAMS]
    params[names.index("samples")], params[names.index("halving")], params[names.index("confidence")] = 40, 0, 0
    compared = 0
    for seed in range(3):
        game = Game(rules, seed)
        game.start_hole()
        rng = np.random.default_rng(seed)
        while not game.hole_over:
            if game.phase != "open":
                answer = hint(game.pub, rules, samples=40, seed=seed)
                p = game.current_player
                stream = np.array([stream_state(seed, game.hole, p)], dtype=np.uint64)  # the hint's stream
                choice = int(mc_act(game.pub, rules.pack(), params, stream, p))
                values = {r.action: r.objective for r in answer.rows}
                assert values[choice] <= min(values.values()) + 1e-9
                compared += 1
            game.step(int(rng.choice(game.legal_actions())))
    assert compared > 30


@pytest.mark.slow
def test_at_80_columns_each_move_takes_at_most_two_lines_and_the_hint_fits_a_30_row_screen():
    done = run_golfsim("hint", PAIR_THE_QUEENS, "--samples", "200", env={"COLUMNS": "80"}, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.rstrip("\n").splitlines()
    assert max(len(line) for line in lines) <= 80, "\n".join(lines)
    # the position line stays on a 30-row screen with the shell's prompt below the output
    assert len(lines) <= 29 and lines[0].startswith("position:"), "\n".join(lines)
    # a move's row starts with its rank; its words may go on to one more line
    starts = [i for i, line in enumerate(lines) if line.split() and line.split()[0] in {"1", "2", "3", "4", "5", "6",
                                                                                        "7"}]
    assert len(starts) == 7
    assert all(b - a <= 2 for a, b in zip(starts[:-1], starts[1:], strict=True)), "\n".join(lines)
    notes = " ".join(line.strip() for line in lines[starts[-1] + 1:])
    for phrase in ("lower is better", "standard error", "game totals do not enter the objective"):
        assert phrase in notes, notes  # the notes wrap at words: rejoined, the sentences are whole


def test_a_search_in_pieces_gives_the_same_numbers_as_in_one_call(monkeypatch):
    import golfsim.coach.hint as coach

    rules = Rules()
    pub = parse_position(PAIR_THE_QUEENS, rules)
    whole = hint(pub, rules, samples=30, seed=4)
    monkeypatch.setattr(coach, "WORLDS_PER_CALL", 7)
    pieces = hint(pub, rules, samples=30, seed=4)
    assert [(r.key, r.deal_score, r.objective, r.gap_se) for r in pieces.rows] == \
        [(r.key, r.deal_score, r.objective, r.gap_se) for r in whole.rows]


EIGHT_PLAYERS = ("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; opp: ? ? ? / 3 ? ?; opp: ? ? 9 / ? ? ?; "
                 "opp: ? ? ? / ? 4 ?; opp: Q ? ? / ? ? ?; opp: ? ? ? / ? ? 6; opp: ? 8 ? / ? ? ?; "
                 "discard: 9 3; drawn: J")


@pytest.mark.slow
def test_ctrl_c_stops_a_long_search_of_many_players_at_once():
    import signal
    import subprocess
    import sys
    import time

    from tests.support import REPO, default_sigint

    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "hint", EIGHT_PLAYERS, "--samples", "1000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            preexec_fn=default_sigint)
    try:
        time.sleep(20)  # well into the search (a million worlds of eight players take many minutes)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
