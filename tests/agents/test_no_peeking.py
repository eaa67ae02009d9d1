"""No peeking: two deals that differ only in cards nobody has seen look the same, to the engine's public state and
to every built-in agent, up to the moment one of those cards is seen.

The check is the public :func:`golfsim.agent_checks.check_no_peeking`: at a decision ``T`` of a deal, the cards
nobody has seen yet (face-down layout cards, the stock not yet drawn) are shuffled among their places in the deck,
and the deal is played again from the new deck with the same agent seeds. At every step up to ``T`` the public array
``pub`` must be identical in both deals, and the agent must take the same decision. A card of the hidden state
copied into ``pub`` (the next stock card, a face-down card's rank, a count that includes one) or read by the agent
makes the two deals differ and fails.
"""

from __future__ import annotations

import random

import pytest

from golfsim.agent_checks import PEEKING_VARIANTS, AgentCheckError, check_no_peeking
from golfsim.core.rules import Rules
from golfsim.core.spec import RECYCLES

# mc searches worlds sampled from its own stream and pub alone, so it must pass too (the oracle sees hidden cards),
# and so must learned, which reads pub only
BUILT_IN = ("random", "greedy", "ev", "pair-builder", "mc:samples=8", "learned")
DEALS = 10
DECISIONS_PER_DEAL = 3


@pytest.mark.parametrize("variant", list(PEEKING_VARIANTS))
@pytest.mark.parametrize("agent", BUILT_IN)
def test_deals_differing_only_in_unseen_cards_look_the_same_until_one_is_seen(agent, variant):
    report = check_no_peeking(agent, {variant: PEEKING_VARIANTS[variant]}, deals=DEALS,
                              decisions_per_deal=DECISIONS_PER_DEAL, seed=41)
    # a shuffle is impossible only when every unseen card has one rank: rare, so nearly every decision is compared
    assert report.counts[variant] >= DEALS * DECISIONS_PER_DEAL - 2


def test_the_eight_player_variant_reaches_a_recycled_stock():
    # the 8-player one-deck variant is there for decisions after the stock is rebuilt from the discards (where the
    # unseen cards are only the face-down ones); check that the deals it plays do get there
    from golfsim.game.game import Game

    rules = PEEKING_VARIANTS["8p-one-deck-bonus"]
    recycled, chooser = 0, random.Random(5)
    for g in range(DEALS):
        game = Game(rules.replace(holes=rules.players), 41, game=g)
        game.start_hole(g % rules.players)
        while not game.hole_over:
            game.step(chooser.choice(game.legal_actions()))
            recycled += int(game.pub[RECYCLES] > 0)
    assert recycled > 0


@pytest.mark.slow
def test_an_agent_that_sees_hidden_cards_fails():
    # the control: the oracle reads the hidden cards, so the comparison must catch it
    with pytest.raises(AgentCheckError, match="reads a card nobody has seen"):
        check_no_peeking("oracle", {"default": Rules()}, deals=5)
