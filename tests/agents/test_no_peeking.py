"""No peeking: two deals that differ only in cards nobody has seen look the same, to the engine's public state and
to every built-in agent, up to the moment one of those cards is seen.

A deal is played from a deck order (``golfsim.core.engine.deal_from_deck``) by a table of built-in agents. At a decision
``T`` of it, the cards nobody has seen yet (face-down layout cards, the stock not yet drawn) are shuffled among their
places in the deck, and the deal is played again from the new deck with the same agent streams. At every step up to
``T`` the public array ``pub`` must be identical in both deals, and every built-in agent, asked from the same stream
state, must take the same decision. A card of the hidden state copied into ``pub`` at any point (the next stock
card, a face-down card's rank, a count that includes one) makes the two deals differ and fails the test.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from golfsim.agents import parse_agent
from golfsim.agents.dispatch import act
from golfsim.core.engine import apply_action, deal_from_deck, legal_mask, shuffled_deck
from golfsim.core.rng import agent_state, deal_state
from golfsim.core.rules import (
    CURRENT,
    DONE,
    FIRST,
    NUM_ACTIONS,
    PHASE,
    R_OFF_STOCK_KNOWN,
    R_OFF_VIEW,
    RECYCLES,
    STOCK_N,
    Rules,
)
from golfsim.kernels.simulate import work_arrays
from tests.unseen_cards import permute_at, unseen_deck_indices

# mc searches worlds sampled from its own stream and pub alone, so it must pass too (the oracle sees hidden cards),
# and so must learned, which reads pub only
BUILT_IN = ("random", "greedy", "ev", "pair-builder", "mc:samples=8", "learned")
CHOICES = {name: parse_agent(name) for name in BUILT_IN}
SEED = 41
DEALS = 10
DECISIONS_PER_DEAL = 3

VARIANTS = {
    "default": Rules(),
    "3p-last-turn-reveal-may": Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True,
                                     discard_and_flip="may", opening_flips="different_columns"),
    "4p-minus2-same-column-must": Rules(players=4, jokers="minus2", opening_flips="same_column",
                                        discard_and_flip="must"),
    "2p-minus5-twos-keep": Rules(jokers="minus5", twos_pair="keep_negative"),
    # eight players from one deck: a three-card stock, so most decisions come after a recycle; ev values the bonus
    "8p-one-deck-bonus": Rules(players=8, decks=1, four_of_a_kind_bonus=-10),
}


class Step:
    """The public state at one decision and what every built-in agent decides there."""

    def __init__(self, pub: np.ndarray, decisions: dict[str, int]):
        self.pub = pub
        self.decisions = decisions


def play(rules: Rules, deck, hole: int, game: int, stop: int | None = None) -> list[Step]:
    """Play one deal from ``deck`` with a mixed table of built-ins; the steps up to decision ``stop`` (or all)."""
    packed = rules.pack()
    players = rules.players
    pub, hid, deal_rng, agent_rng, totals = work_arrays(packed)[:5]  # the arrays the batch kernel plays on
    deal_rng[0] = deal_state(SEED, game, hole)  # shuffles recycled stock
    deal_from_deck(pub, hid, packed, deal_rng, np.asarray(deck, dtype=hid.dtype), hole, hole % players, totals)
    agent_rng[:] = [agent_state(SEED, game, p) for p in range(players)]
    seats = [BUILT_IN[(p + game) % len(BUILT_IN)] for p in range(players)]
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    steps = []
    while pub[PHASE] != DONE and (stop is None or len(steps) <= stop):
        p = int(pub[CURRENT])
        decisions, streams = {}, {}
        for name in BUILT_IN:
            streams[name] = agent_rng.copy()
            decisions[name] = act(CHOICES[name], pub, packed, streams[name], p)
        steps.append(Step(pub.copy(), decisions))
        action = decisions[seats[p]]
        agent_rng = streams[seats[p]]
        legal_mask(pub, packed, mask)
        assert mask[action], f"{seats[p]} chose the illegal action {action}"
        apply_action(pub, hid, packed, deal_rng, action)
    return steps


def unseen_at(step: Step, rules: Rules) -> list[int]:
    """Deck places of the cards nobody has seen at this step, read from its public state."""
    packed, pub = rules.pack(), step.pub
    ov, ok = int(packed[R_OFF_VIEW]), int(packed[R_OFF_STOCK_KNOWN])
    view = pub[ov: ov + 6 * rules.players].reshape(rules.players, 6)
    return unseen_deck_indices(view, int(pub[FIRST]), int(pub[STOCK_N]), int(pub[ok: ok + 14].sum()), rules.n_cards)


def first_difference(a: list[Step], b: list[Step]) -> str | None:
    for t, (x, y) in enumerate(zip(a, b, strict=True)):
        if not np.array_equal(x.pub, y.pub):
            where = np.flatnonzero(x.pub != y.pub).tolist()
            return f"pub differs at step {t}, indices {where}: {x.pub[where].tolist()} vs {y.pub[where].tolist()}"
        if x.decisions != y.decisions:
            return f"decisions differ at step {t}: {x.decisions} vs {y.decisions}"
    return None


@pytest.mark.parametrize("name", list(VARIANTS))
def test_deals_differing_only_in_unseen_cards_look_the_same_until_one_is_seen(name):
    rules = VARIANTS[name]
    chooser = random.Random(7)
    checked = after_recycle = 0
    for game in range(DEALS):
        hole = game % rules.players  # who moves first changes where each dealt card lands
        deck = [int(c) for c in shuffled_deck(rules.pack(), np.array([deal_state(SEED, game, hole)], np.uint64))]
        steps = play(rules, deck, hole, game)
        for stop in chooser.sample(range(len(steps)), DECISIONS_PER_DEAL):
            other = permute_at(deck, unseen_at(steps[stop], rules), chooser)
            if other is None:
                continue
            replay = play(rules, other, hole, game, stop)
            assert len(replay) == stop + 1
            difference = first_difference(steps[: stop + 1], replay)
            assert difference is None, f"{name}, game {game}, decision {stop}: {difference}"
            checked += 1
            after_recycle += steps[stop].pub[RECYCLES] > 0
    assert checked >= DEALS * DECISIONS_PER_DEAL - 2
    if name.startswith("8p"):
        assert after_recycle >= checked // 2


def test_moving_one_seen_card_is_noticed():
    # the control: the comparison does see a difference when a seen card (the first discard) trades places with an
    # unseen one (the bottom of the stock), so the test above is not passing for want of looking
    rules = Rules()
    deck = [int(c) for c in shuffled_deck(rules.pack(), np.array([deal_state(SEED, 0, 0)], np.uint64))]
    discard, bottom = 6 * rules.players, rules.n_cards - 1
    while deck[discard] == deck[bottom]:
        bottom -= 1
    other = deck[:]
    other[discard], other[bottom] = deck[bottom], deck[discard]
    steps, replay = play(rules, deck, 0, 0, 3), play(rules, other, 0, 0, 3)
    assert first_difference(steps, replay).startswith("pub differs at step 0")
