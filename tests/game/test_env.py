"""The step API: observation holds only what a player may know; illegal moves and bad input are refused."""

import doctest
import random

import numpy as np
import pytest

import golfsim.game.env
from golfsim.agent_checks import permute_at, unseen_deck_indices
from golfsim.core.errors import IllegalActionError
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    DRAW_STOCK,
    FLIP,
    HOLD,
    PLACE_DRAWN,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    RECYCLES,
    THROW_DRAWN,
)
from golfsim.game.env import GolfEnv, play_game


def comparable(obs: dict) -> dict:
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in obs.items() if k != "rules"}


def observations_to(rules: Rules, deck: list[int], hole: int, choices_seed: int, stop: int | None = None) -> list:
    """Every player's observation at each decision of a deal from ``deck``, actions chosen at random from the legal
    set, up to decision ``stop`` (or the end)."""
    env = GolfEnv(rules)
    env.reset(deck=deck, hole=hole)
    chooser = random.Random(choices_seed)
    seen = []
    while not env.done and (stop is None or len(seen) <= stop):
        seen.append([comparable(env.observe(p)) for p in range(rules.players)])
        env.step(chooser.choice(env.legal_actions()))
    return seen


def unseen_at(observation: dict, first: int, rules: Rules) -> list[int]:
    return unseen_deck_indices(observation["view"], first, observation["stock_size"], sum(observation["stock_known"]),
                               rules.n_cards)


@pytest.mark.parametrize("rules", [Rules(), Rules(players=4, jokers="minus2", end="one_last_turn"),
                                   Rules(players=8, decks=1, reveal_instead_of_draw=True)],
                         ids=["default", "4p-minus2-last-turn", "8p-one-deck-reveal"])
def test_deals_differing_only_in_unseen_cards_give_every_player_the_same_observations(rules):
    # at a decision, shuffle the cards nobody has seen yet among their places in the deck: replayed with the same
    # choices, the other deck must give every player the same observation at every step up to that decision
    chooser = random.Random(1)
    checked = 0
    for game in range(12):
        hole = game % rules.players
        deck = [int(r) for r, n in enumerate(rules.card_counts()) for _ in range(n)]
        chooser.shuffle(deck)
        seen = observations_to(rules, deck, hole, game)
        for stop in chooser.sample(range(len(seen)), 3):
            other = permute_at(deck, unseen_at(seen[stop][0], hole % rules.players, rules), chooser)
            if other is None:
                continue
            assert observations_to(rules, other, hole, game, stop) == seen[: stop + 1], f"game {game}, step {stop}"
            checked += 1
    assert checked >= 30


def test_only_the_drawer_sees_the_drawn_card():
    env = GolfEnv(Rules())
    env.reset(0)
    while env.phase == "open":
        env.step(env.legal_actions()[0])
    drawer = env.current_player
    env.step(DRAW_STOCK)
    assert env.pub[0] == HOLD
    assert env.observe(drawer)["held"] is not None
    assert env.observe(1 - drawer)["held"] is None
    assert env.observe(1 - drawer)["observation"][2] == -1
    assert env.observe(1 - drawer)["action_mask"].sum() == 0


@pytest.mark.parametrize("rules", [Rules(), Rules(players=8, decks=1)], ids=["default", "8p-one-deck-recycles"])
def test_a_draw_from_the_stock_tells_onlookers_nothing_about_the_card(rules):
    # the onlookers' counts of unseen cards (and of the recycled stock) are the same before and after the draw;
    # only the drawer's counts lose the drawn card
    env = GolfEnv(rules)
    ou, ok = int(env.packed[R_OFF_UNSEEN]), int(env.packed[R_OFF_STOCK_KNOWN])
    chooser = random.Random(5)
    draws = recycled_draws = 0
    for game in range(6):
        env.reset(game)
        while not env.done:
            legal = env.legal_actions()
            if env.phase == "start" and DRAW_STOCK in legal:
                drawer = env.current_player
                before = [env.observe(p) for p in range(rules.players)]
                env.step(DRAW_STOCK)
                after = [env.observe(p) for p in range(rules.players)]
                card = after[drawer]["held"]
                for p in range(rules.players):
                    counts = ("stock_known" if env.pub[RECYCLES] > 0 else "unseen")
                    expected = before[p][counts].copy()
                    if p == drawer:
                        expected[card] -= 1
                    assert after[p][counts].tolist() == expected.tolist(), (game, p)
                    vector = after[p]["observation"]
                    assert vector[ou: ou + 14].tolist() == after[p]["unseen"].tolist()
                    assert vector[ok: ok + 14].tolist() == after[p]["stock_known"].tolist()
                draws += 1
                recycled_draws += int(env.pub[RECYCLES] > 0)
            else:
                env.step(chooser.choice(legal))
    assert draws > 50
    if rules.players == 8:
        assert recycled_draws > 0


def test_explicit_deck_deals_as_rules_md_describes():
    ranks = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 4
    env = GolfEnv(Rules())
    env.reset(deck=ranks)
    snap = env.snapshot()
    assert snap["layouts"][0] == [1, 3, 5, 7, 9, 11]  # player 0 gets cards 0, 2, 4, ...
    assert snap["layouts"][1] == [2, 4, 6, 8, 10, 12]
    assert snap["discard"] == [13]
    assert snap["stock"][:2] == [1, 2]
    assert "A 2 3" not in env.render()  # face-down cards are not shown


def test_render_shows_the_table():
    env = GolfEnv(Rules())
    env.reset(1)
    text = env.render()
    assert "player 0: ? ? ? / ? ? ?" in text and "stock 39 cards" in text


def test_render_hides_the_drawn_card_from_onlookers_and_says_when_the_deal_is_over():
    env = GolfEnv(Rules())
    env.reset(deck=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 4)  # the stock's top card is an A
    while env.phase == "open":
        env.step(env.legal_actions()[0])
    env.step(DRAW_STOCK)
    assert "drawn card A" in env.render(player=0)
    assert "drawn card A" not in env.render() and "player 0 holds a drawn card" in env.render(player=1)
    while not env.done:
        env.step(PLACE_DRAWN + env.face_down()[0] if env.phase == "hold" else DRAW_STOCK)
    text = env.render()
    assert "to move" not in text and "deal over (went out)" in text and "*" not in text


def test_accessors_name_the_state():
    env = GolfEnv(Rules(players=3))
    env.reset(4, hole=2)
    assert (env.hole, env.first_player, env.turn, env.end_reason, env.went_out) == (2, 2, 0, "running", -1)
    env.step(FLIP + 4)
    [event] = env.history
    assert (event.player, event.phase, event.action, event.position) == (2, "open", FLIP + 4, 4)
    while env.phase == "open":
        env.step(env.legal_actions()[0])
    assert env.turn == 1 and len(env.history) == 6


def test_docstring_example_ends_its_deal():
    result = doctest.testmod(golfsim.game.env)
    assert result.attempted > 0 and result.failed == 0


def test_compiled_bot_from_the_step_api_plays_the_simulators_deal():
    from golfsim.kernels.simulate import simulate

    rules = Rules(holes=1)
    env = GolfEnv(rules)
    batch = simulate(["ev", "greedy"], rules, games=5, seed=8)
    for game in range(5):
        bots = [env.agent("ev", seat=0, seed=8, game=game), env.agent("greedy", seat=1, seed=8, game=game)]
        env.reset(8, game=game)
        while not env.done:
            p = env.current_player
            env.step(bots[p].act(env, p))
        row = batch.deals[batch.deals["game"] == game]
        assert env.scores == [int(row["score_0"].iloc[0]), int(row["score_1"].iloc[0])]


def test_illegal_action_names_the_action_and_the_legal_set():
    env = GolfEnv(Rules())
    env.reset(0)
    with pytest.raises(ValueError, match=r"action 6 \(draw from stock\) is not legal .* open phase; legal: 20"):
        env.step(DRAW_STOCK)
    with pytest.raises(ValueError, match="not legal"):
        env.step("flip")


def test_python_agent_returning_an_illegal_move_is_named():
    def stubborn(observation):
        return THROW_DRAWN

    with pytest.raises(IllegalActionError, match=r"agent 'stubborn' \(seat 1\).*action 19"):
        play_game(["random", stubborn], Rules(), seed=0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda env: env.reset(-1), "seed"),
        (lambda env: env.reset(0, game=-2), "game must be"),
        (lambda env: env.reset(deck=[1] * 52), "not the pack these rules use"),
        (lambda env: env.reset(deck=[1, 2, 3]), "all 52 cards"),
        (lambda env: env.reset(deck=["Z"] * 52), "'Z' is not a card"),
        (lambda env: env.reset(0, totals=[1, 2, 3]), "totals must be 2"),
        (lambda env: env.observe(5), "player must be 0..1"),
    ],
)
def test_bad_input_gets_a_clear_error(call, message):
    env = GolfEnv(Rules())
    env.reset(0)
    with pytest.raises(ValueError, match=message):
        call(env)


@pytest.mark.parametrize("read", ["went_out", "truncated", "turn", "end_reason", "first_player", "done", "scores",
                                  "current_player", "history"])
def test_reading_the_state_before_reset_is_refused(read):
    env = GolfEnv(Rules())
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        getattr(env, read)


def test_scores_before_the_end_and_play_before_reset_are_refused():
    env = GolfEnv(Rules())
    with pytest.raises(RuntimeError, match="reset"):
        env.legal_actions()
    env.reset(0)
    with pytest.raises(RuntimeError, match="not over"):
        env.scores()
