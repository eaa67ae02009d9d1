"""The compiled engine must agree with the pure-Python reference engine, move for move.

Each deal is shuffled by the compiled deal stream; the reference is dealt the same deck order (RULES.md,
"Reproducing a deal") and gets the compiled engine's recycle order as its chance outcome, checking that it is a
permutation of the right cards. Actions are chosen by a seeded Python RNG from the legal set, which both engines
must agree on; after every action the whole state (hidden cards, piles, counters, unseen counts) must be equal.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from golfsim.core.engine import score_cards, shuffled_deck
from golfsim.core.rng import deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, PASS, PLACE_DRAWN, TRUNCATED
from golfsim.game.env import GolfEnv
from tests.reference_engine import JACK, ONE_EYED_JACK, ReferenceDeal, hole_scores, rank, score_layout

RULE_OPTIONS = {
    "default": Rules(),
    "same_column": Rules(opening_flips="same_column"),
    "different_columns": Rules(opening_flips="different_columns"),
    "reveal": Rules(reveal_instead_of_draw=True),
    "discard_flip_may": Rules(discard_and_flip="may"),
    "discard_flip_must": Rules(discard_and_flip="must"),
    "one_last_turn": Rules(end="one_last_turn"),
    "jokers_minus2": Rules(jokers="minus2"),
    "jokers_minus5": Rules(jokers="minus5"),
    "twos_keep_negative": Rules(twos_pair="keep_negative"),
    "four_kind_bonus": Rules(four_of_a_kind_bonus=-10, decks=2),
    "turn_cap": Rules(turn_cap=60),
    "combined": Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True, discard_and_flip="may",
                      jokers="zero", opening_flips="same_column"),
}
# every house rule alone (the web game's option names), then all of them together on a bigger table
HOUSE_RULES = {
    "initial_flips_0": Rules(initial_flips=0),
    "initial_flips_1": Rules(initial_flips=1),
    "flip_mode_endgame": Rules(discard_and_flip="endgame"),
    "knock_penalty": Rules(knock_penalty=True),
    "knock_bonus": Rules(knock_bonus=True),
    "underdog_bonus": Rules(underdog_bonus=True),
    "tied_shame": Rules(tied_shame=True),
    "blackjack": Rules(blackjack=True),
    "super_kings": Rules(super_kings=True),
    "ten_penny": Rules(ten_penny=True),
    "wolfpack": Rules(wolfpack=True),
    "eagle_eye": Rules(eagle_eye=True, jokers="minus2"),
    "one_eyed_jacks": Rules(one_eyed_jacks=True),
    "knock_early": Rules(knock_early=True),
    "house_all": Rules(players=4, end="one_last_turn", initial_flips=1, discard_and_flip="endgame", jokers="minus3",
                       four_of_a_kind_bonus=-20, knock_penalty=True, knock_bonus=True, underdog_bonus=True,
                       tied_shame=True, blackjack=True, super_kings=True, ten_penny=True, wolfpack=True,
                       eagle_eye=True, one_eyed_jacks=True, knock_early=True),
}
HOUSE_DEALS = 400
PLAYER_COUNTS = [2, 3, 4, 5, 8, 12]
DEALS_PER_CONFIG = 1500
QUICK_DEALS = 30  # per rule option or player count in the quick tests that `pytest -m "not slow"` runs


def hoard(env: GolfEnv, legal: list[int], chooser: random.Random) -> int:
    """Draw and keep the layout's face-down cards hidden, so stocks run out and get recycled."""
    face_up = env.snapshot()["face_up"][env.current_player]
    for wanted in (DRAW_STOCK, PASS):
        if wanted in legal:
            return wanted
    over_face_up = [PLACE_DRAWN + k for k in range(6) if face_up[k] and PLACE_DRAWN + k in legal]
    return chooser.choice(over_face_up or legal)


def play_both(rules: Rules, seed: int, game: int, hoarder: bool) -> dict:
    """Play one deal in both engines with the same random actions; return the final state."""
    env = GolfEnv(rules)
    env.reset(seed, game=game)
    deck = shuffled_deck(env.packed, np.array([deal_state(seed, game, 0)], dtype=np.uint64))

    def reshuffle(cards):
        stock = env.snapshot()["stock"]
        return list(stock)

    ref = ReferenceDeal(rules, [int(c) for c in deck], 0, reshuffle)
    chooser = random.Random(seed * 1_000_003 + game)
    assert env.snapshot() == ref.snapshot()
    while not ref.done:
        legal = env.legal_actions()
        assert legal == ref.legal_actions(), env.render()
        action = hoard(env, legal, chooser) if hoarder and chooser.random() < 0.9 else chooser.choice(legal)
        env.step(action)
        ref.step(action)
        assert env.snapshot() == ref.snapshot(), f"after action {action}\n{env.render()}"
    assert env.done
    assert env.scores() == ref.scores()
    return env.snapshot() | {"scores": ref.scores()}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_OPTIONS))
def test_every_rule_option_matches_reference(name):
    rules = RULE_OPTIONS[name]
    finals = [play_both(rules, 11, g, hoarder=g % 3 == 0) for g in range(DEALS_PER_CONFIG)]
    assert any(f["recycles"] for f in finals), "no deal recycled the stock: the recycle path was not compared"
    if name == "turn_cap":
        assert any(f["end_reason"] == TRUNCATED for f in finals), "no deal reached the cap"
        assert all(f["turn"] <= rules.turn_cap for f in finals)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_player_count_matches_reference(players):
    rules = Rules(players=players)
    for g in range(1000):
        play_both(rules, 5, g, hoarder=g % 4 == 0)


@pytest.mark.parametrize("name", sorted(RULE_OPTIONS))
def test_the_first_deals_of_every_rule_option_match_reference(name):
    # the development tier's pass over the same ground as the slow test above: its first deals
    for g in range(QUICK_DEALS):
        play_both(RULE_OPTIONS[name], 11, g, hoarder=g % 3 == 0)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_first_deals_of_every_player_count_match_reference(players):
    for g in range(QUICK_DEALS):
        play_both(Rules(players=players), 5, g, hoarder=g % 4 == 0)


def _rule_changed_the_score(rules: Rules, final: dict) -> bool:
    """Whether the deal's scores differ from what the same cards score with every house option off: the test of
    a house rule compared its rule only if some deal comes out this way."""
    plain = Rules(players=rules.players, jokers=rules.jokers, four_of_a_kind_bonus=rules.four_of_a_kind_bonus,
                  end=rules.end)
    layouts = [[JACK if c == ONE_EYED_JACK else c for c in cards] for cards in final["layouts"]]  # plain jacks
    plain_scores = hole_scores([score_layout(cards, plain) for cards in layouts], final["ender"], plain)
    return plain_scores != final["scores"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_every_house_rule_matches_reference(name):
    rules = HOUSE_RULES[name]
    finals = [play_both(rules, 23, g, hoarder=g % 3 == 0) for g in range(HOUSE_DEALS)]
    if name.startswith(("initial_flips", "flip_mode", "knock_early", "wolfpack")):
        return  # turn rules change the moves, compared action by action; wolfpack is too rare in random play
    assert any(_rule_changed_the_score(rules, f) for f in finals), f"{name} never changed a score"


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_the_first_deals_of_every_house_rule_match_reference(name):
    for g in range(QUICK_DEALS):
        play_both(HOUSE_RULES[name], 23, g, hoarder=g % 3 == 0)


@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_every_house_rule_scores_layouts_as_the_reference_does(name):
    # layouts drawn mostly from a few ranks (jacks, jokers, kings, tens, twos), so pairs, four of a kind and
    # wolfpacks are common: the rare cases random play seldom reaches
    rules = HOUSE_RULES[name]
    packed = rules.pack()
    chooser = random.Random(7)
    ranks = [0, 2, 10, 11, 11, 13, 5] if rules.jokers != "none" else [2, 10, 11, 11, 13, 5]
    if rules.one_eyed_jacks:  # half the jacks one-eyed, so pairs of a jack and a one-eyed jack are common too
        ranks = [ONE_EYED_JACK if r == 11 and i % 2 else r for i, r in enumerate(ranks)] + [ONE_EYED_JACK, 11]
    wolfpacks = 0
    for _ in range(3000):
        cards = [chooser.choice(ranks) for _ in range(6)]
        got = int(score_cards(np.array(cards, dtype=np.int16), 0, packed))
        assert got == score_layout(cards, rules), cards
        wolfpacks += sum(rank(cards[c]) == rank(cards[c + 3]) == 11 for c in range(3)) >= 2
    assert wolfpacks > 20
