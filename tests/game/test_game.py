"""The N-hole game object: holes, totals, first players, events, seats; the same games as the batch simulator."""

import copy
import doctest

import numpy as np
import pytest

import golfsim.game.game
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, FLIP, PLACE_DRAWN, THROW_DRAWN
from golfsim.game.game import CompiledAgent, Game, PythonAgent
from golfsim.kernels.simulate import simulate

# RULES.md, "Reproducing a deal": card i of the first 12 goes to player i % 2 at position i // 2, the next starts
# the discard pile, the rest is the stock, top first.
DECK = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 4  # player 0: A 3 5 7 9 J, player 1: 2 4 6 8 10 Q, discard K


def test_events_say_who_did_what_with_which_card():
    g = Game(Rules(holes=1))
    g.start_hole(deck=DECK)
    assert g.first_player == 0 and g.turn == 0 and g.phase == "open"
    for action in (FLIP + 0, FLIP + 3):  # player 0 turns up the A and the 7
        g.step(action)
    for action in (FLIP + 1, FLIP + 4):  # player 1 turns up the 4 and the 10
        g.step(action)
    opening = g.history
    assert [(e.player, e.phase, e.card, e.position) for e in opening] == [
        (0, "open", 1, 0), (0, "open", 7, 3), (1, "open", 4, 1), (1, "open", 10, 4)]
    [take] = g.step(2)  # player 0 takes the K from the discard pile onto the face-down 5 at position 2
    assert (take.player, take.phase, take.turn, take.card, take.discarded) == (0, "start", 1, 13, 5)
    assert take.describe() == "player 0 takes the K from the discard pile to position 3, discarding a 5"
    [draw] = g.step(DRAW_STOCK)  # player 1 draws the stock's top card: the A after the 12 dealt and the K
    assert (draw.player, draw.card, draw.phase) == (1, 1, "start")
    assert draw.describe(viewer=0) == "player 1 draws from the stock"
    assert draw.describe(viewer=1) == "player 1 draws an A"
    [throw] = g.step(THROW_DRAWN)
    assert (throw.phase, throw.card, throw.discarded) == ("hold", 1, 1)
    assert g.top_discard == 1 and g.current_player == 0


def test_a_hole_ends_with_an_event_holding_the_scores():
    g = Game(Rules(holes=1))
    g.start_hole(deck=DECK)
    events = []
    while not g.hole_over:  # each player draws and covers a face-down card until someone has all six up
        if g.phase == "hold":
            events += g.step(PLACE_DRAWN + g.face_down()[0])
        else:
            events += g.step(DRAW_STOCK if g.phase == "start" else g.legal_actions()[0])
    end = events[-1]
    assert end.kind == "hole_end" and end.end_reason == "went_out" == g.end_reason
    assert end.went_out == g.went_out >= 0
    assert list(end.scores) == g.scores == g.hole_scores[0].tolist()
    assert g.over and g.current_player == -1
    with pytest.raises(RuntimeError, match="game is over"):
        g.start_hole()


def test_holes_totals_and_first_players_follow_the_rules():
    rules = Rules(players=3, holes=4)
    g = Game(rules, seed=5)
    firsts = []
    g.play(["random"] * 3, on_event=lambda e: None)
    for e in g.history:
        if e.kind == "action" and e.phase == "open" and (not firsts or firsts[-1][0] != e.hole):
            firsts.append((e.hole, e.player))
    assert firsts == [(h, h % 3) for h in range(4)]  # the first player moves round the table
    ends = [e for e in g.history if e.kind == "hole_end"]
    assert [e.hole for e in ends] == [0, 1, 2, 3]
    assert g.totals.tolist() == np.sum([e.scores for e in ends], axis=0).tolist()


@pytest.mark.parametrize("rules", [Rules(players=2, holes=3),
                                   Rules(players=4, jokers="minus2", end="one_last_turn", holes=2),
                                   Rules(players=3, discard_and_flip="may", four_of_a_kind_bonus=-10, holes=2)])
def test_game_play_is_the_batch_simulators_game(rules):
    agents = ["ev", "greedy", "pair-builder", "random"][: rules.players]
    batch = simulate(agents, rules, games=6, seed=21)
    for game in range(6):
        g = Game(rules, 21, game=game)
        g.play(agents)
        rows = batch.deals[batch.deals["game"] == game]
        for p in range(rules.players):
            assert list(rows[f"score_{p}"]) == g.hole_scores[:, p].tolist()
        ends = [e for e in g.history if e.kind == "hole_end"]
        assert list(rows["turns"]) == [e.turn for e in ends]
        assert list(rows["end_reason"]) == [e.end_reason for e in ends]


def test_a_python_agent_gets_its_own_seed_every_game():
    class Recorder:
        def __init__(self):
            self.resets = []

        def reset(self, seed, game, seat):
            self.resets.append((seed, game, seat))

        def __call__(self, observation):
            return int(np.flatnonzero(observation["action_mask"])[0])

    first, again = Recorder(), Recorder()
    for rec in (first, again):
        for game in (0, 1):
            Game(Rules(holes=1), seed=3, game=game).play([rec, "random"])
    assert first.resets == again.resets  # reproducible
    seeds = [s for s, _, _ in first.resets]
    assert [(g, s) for _, g, s in first.resets] == [(0, 0), (1, 0)] and seeds[0] != seeds[1]
    assert all(0 <= s < 2**64 for s in seeds)


def test_a_compiled_agent_also_plays_from_observation_dicts():
    rules = Rules(players=3)
    g = Game(rules, seed=4)
    g.start_hole()
    bot = CompiledAgent("greedy", rules)
    for _ in range(30):
        p = g.current_player
        bot.reset(4, 0, p)
        direct = bot.act(g, p)
        bot.reset(4, 0, p)
        assert bot(golfsim.game.game.observe(g, p)) == direct
        g.step(direct)


def test_seat_objects_name_their_agents():
    rules = Rules()
    assert CompiledAgent("pair-builder:keep_threshold=8", rules).label == "pair-builder:keep_threshold=8"
    assert PythonAgent(lambda obs: 0, "mine").label == "mine"
    with pytest.raises(ValueError, match="unknown agent 'nope'"):
        Game(rules).play(["nope", "ev"])
    with pytest.raises(ValueError, match="3 agents given for 2 seats"):
        Game(rules).play(["ev", "ev", "ev"])


def test_a_hole_cannot_be_dealt_over_one_being_played_nor_read_before_a_deal():
    g = Game(Rules())
    with pytest.raises(RuntimeError, match="no hole has been dealt"):
        _ = g.went_out
    g.start_hole()
    with pytest.raises(RuntimeError, match="still being played"):
        g.start_hole()


def test_docstring_example_runs():
    result = doctest.testmod(golfsim.game.game)
    assert result.attempted > 0 and result.failed == 0


def play_random(g, rng, moves=None):
    """Random legal moves on ``g`` until its hole ends (or ``moves`` were played); the actions played."""
    played = []
    while not g.hole_over and (moves is None or len(played) < moves):
        played.append(int(rng.choice(g.legal_actions())))
        g.step(played[-1])
    return played


def test_a_hole_end_is_recorded_once_and_only_when_the_hole_is_over():
    g = Game(Rules(holes=2), seed=1)
    g.start_hole()
    with pytest.raises(RuntimeError, match="still being played"):
        g.end_hole()
    play_random(g, np.random.default_rng(1))  # step() records the end
    with pytest.raises(RuntimeError, match="recorded already"):
        g.end_hole()
    assert len(g.hole_scores) == 1 and len([e for e in g.history if e.kind == "hole_end"]) == 1


def test_with_truncation_ending_the_game_a_hole_at_the_turn_cap_is_the_last():
    rules = Rules(holes=3, turn_cap=2)
    g = Game(rules, seed=2, truncation_ends_game=True)
    g.start_hole()
    play_random(g, np.random.default_rng(2))
    assert g.truncated and g.over and len(g.hole_scores) == 1
    with pytest.raises(RuntimeError, match="ended at the turn cap"):
        g.start_hole()
    g.restart(2)  # a new game under the same flag starts afresh
    assert not g.over


def test_a_joined_hole_plays_on_as_the_game_it_was_taken_from():
    rules = Rules(players=3, holes=3)
    rng = np.random.default_rng(3)
    g = Game(rules, seed=7)
    g.start_hole()
    play_random(g, rng)
    g.start_hole()
    play_random(g, rng, moves=10)
    joined = Game(rules, seed=7)
    joined.join(g.pub, g.hid, int(g.deal_rng[0]))
    assert joined.totals.tolist() == g.hole_scores[0].tolist()  # the totals before hole 2, as pub shows them
    assert (joined.hole, joined.next_hole) == (1, 1)
    for action in play_random(g, rng):
        joined.step(action)
    assert joined.scores == g.scores and joined.totals.tolist() == g.totals.tolist()
    assert joined.next_hole == 2 and not joined.over
    joined.start_hole()
    g.start_hole()
    np.testing.assert_array_equal(joined.pub, g.pub)
    np.testing.assert_array_equal(joined.hid, g.hid)
    for action in play_random(g, rng):
        joined.step(action)
    assert joined.over and g.over and joined.totals.tolist() == g.totals.tolist()


def test_a_deep_copy_plays_on_without_touching_the_original():
    g = Game(Rules(), seed=4)
    g.start_hole()
    play_random(g, np.random.default_rng(4), moves=6)
    pub, hid, events = g.pub.copy(), g.hid.copy(), len(g.history)
    other = copy.deepcopy(g)
    play_random(other, np.random.default_rng(5))
    assert other.hole_over and not g.hole_over
    np.testing.assert_array_equal(g.pub, pub)
    np.testing.assert_array_equal(g.hid, hid)
    assert len(g.history) == events < len(other.history)


def test_you_labelled_with_your_seat_is_still_second_person():
    from golfsim.game.game import Event

    names = ["you (seat 0)", "ev (seat 1)"]
    mine = Event(kind="action", hole=0, turn=3, player=0, phase="start", action=DRAW_STOCK, card=5)
    theirs = Event(kind="action", hole=0, turn=4, player=1, phase="start", action=DRAW_STOCK, card=5)
    assert mine.describe(viewer=0, names=names) == "you (seat 0) draw a 5"
    assert theirs.describe(viewer=0, names=names) == "ev (seat 1) draws from the stock"
