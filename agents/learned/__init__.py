"""learned: the one-ply expectimax player on the value learned by self-play (trained by [`golfsim.learning`][]).

At each decision it takes the move with the best expected value of the state it leaves, the expectation taken over
the card chance brings (the stock draw, the card under a covered or revealed face-down position) from the unseen
counts; the value is the linear model of [`golfsim.agents.learned.value`][] with the shipped weights
(``models/learned.json`` in this package, made by the command recorded in that file). The decision rule is
[`golfsim.agents.learned.policy.decide`][].

The playing side lives here in full -- [`value`][golfsim.agents.learned.value] (features and the linear value),
[`policy`][golfsim.agents.learned.policy] (the compiled decision), [`model`][golfsim.agents.learned.model] (reading a
weight file) -- so that the agents never import the training package [`golfsim.learning`][], which imports them.

Which rules the model covers: it was trained by self-play at two and four players under both end rules, every other
option at its default. It plays every variant and player count legally with the same weights (its features are
computed from the rules' own points and counts, and it has separate weights for two players and for three or
more), but under other options (jokers, reveal_instead_of_draw, discard_and_flip, opening flips, twos pairs, the
four-of-a-kind bonus, which its features do not value) it is untrained: expect it to be weaker there. The house
rules reach it through the rules' numbers and, in a final layout, through
[`house_cost`][golfsim.agents.learned.policy.house_cost] (every one but ``underdog_bonus``); ``results/house/`` has its
margin over ev under each.

``learned:model=2`` plays an n-tuple extension of the same value (``models/learned_ntuple.json``, trained by
``golfsim learn --ntuple``): to ``W[row] . phi`` it adds, for each own column, a learned weight per row, tempo bucket
(the player's face-down cards after the move: at most 1, 2-3, 4+) and column state (the unordered pair of the
column's cards, each face down or a card code), and for the opponents' columns a weight per row and column state,
averaged over the opponents. It keeps the column decomposition, so it costs about what the linear value does; the
default (``model=1``) plays the linear value exactly as before.

Two compiled copies: under rules where every rank is one card code (no ``one_eyed_jacks``) the registry plays
[`learned_act_plain`][golfsim.agents.learned.learned_act_plain], whose value has the one-eyed jack checks compiled
out ([`learned_variant`][golfsim.agents.learned.learned_variant]); it makes the same moves as the general
[`learned_act`][golfsim.agents.learned.learned_act], about a third faster. mc's rollouts, hints and training use the
general copy.

A damaged model file does not stop the other agents: it is reported (one line naming the file, from
[`require_model`][golfsim.agents.learned.require_model]) only when ``learned`` is asked to play, alone or in ``mc``'s
base or rollouts, or when ``golfsim hint`` needs its values. The weights are compiled into the agent as constants; the
Numba cache is keyed by the model file too (`golfsim._numba.jit.source_key`), so a new model is never played with an old
compile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from golfsim._numba.jit import hot
from golfsim.agents.base import Param
from golfsim.agents.learned.endgame import decide_exact
from golfsim.agents.learned.model import SHIPPED, SHIPPED_NT, load_model
from golfsim.agents.learned.policy import decide, decide_plain
from golfsim.agents.learned.value import NUM_FEATURES, NUM_FEATURES_NT, NUM_ROWS
from golfsim.core.cards import NUM_RANKS
from golfsim.core.spec import R_CODES

try:
    WEIGHTS, MODEL = load_model(SHIPPED)
    MODEL_ERROR = None
except ValueError as err:  # zeros in its place, never played: require_model refuses every use first
    WEIGHTS, MODEL = np.zeros((NUM_ROWS, NUM_FEATURES)), {}
    MODEL_ERROR = str(err)
"""The shipped weights ``(NUM_ROWS, NUM_FEATURES)`` and the model file's document; `MODEL_ERROR` says why
the file could not be read (``None`` when it was)."""

try:
    WEIGHTS_NT, MODEL_NT = load_model(SHIPPED_NT, NUM_FEATURES_NT)
    MODEL_NT_ERROR = None
except ValueError as err:
    WEIGHTS_NT, MODEL_NT = np.zeros((NUM_ROWS, NUM_FEATURES_NT)), {}
    MODEL_NT_ERROR = str(err)
"""The n-tuple model's weights ``(NUM_ROWS, NUM_FEATURES_NT)`` (``learned:model=2``), its document and error."""


def require_model(text: str = "") -> None:
    """Refuse (``ValueError``, one line naming the file) a use of ``learned`` when its model file is damaged, or
    when ``text`` (the agent as written, e.g. ``"mc:rollout=learned:model=2"``) asks for model 2 and that file is."""
    if MODEL_ERROR is not None:
        raise ValueError(f"the learned player's model cannot be used: {MODEL_ERROR}")
    if MODEL_NT_ERROR is not None and re.search(r"\bmodel\s*=\s*2", text):
        raise ValueError(f"the learned player's model 2 cannot be used: {MODEL_NT_ERROR}")


REMOVED_DEPTH = ("depth 2 was removed: measured, it played worse than depth 1 whatever its fixes "
                 "(results/learned_value/depth2/README.md); learned plays depth 1")


@dataclass(frozen=True)
class DepthParam(Param):
    """``depth``: only 1 is played; asking for more says why depth 2 is gone."""

    def check(self, value: float, agent: str = "") -> float:
        if 2.0 <= float(value) < float("inf"):
            raise ValueError(f"agent {agent or 'learned'!r}: {REMOVED_DEPTH}")
        return super().check(value, agent)


PARAMS = (
    DepthParam("depth", 1.0, "search depth: 1, the one-ply expectimax (depth 2 was removed, see "
                             "results/learned_value/depth2/README.md)", kind="int", minimum=1, maximum=1),
    Param("exact", 0.0, "1: where the end of the deal is valued exactly (the deal's last turn; going out at two "
                        "players under one last turn), play by the exact values (golfsim.agents.learned.endgame)",
          kind="bool"),
    Param("model", 1.0, "1: the linear value (models/learned.json); 2: the linear value plus n-tuple tables of "
                        "column states (models/learned_ntuple.json)", kind="int", minimum=1, maximum=2),
)
"""``learned``'s parameters (a vector of zeros, as mc's rollouts may pass, plays the one-ply decision)."""


@hot
def learned_one_ply_act(pub, rules, params, agent_rng, player):
    """Decision of ``learned`` without the exact endgame, whatever ``params`` say, with the model they name (model 2
    when ``params[2]`` is 2, else model 1): the policy ``mc`` rolls out and builds on."""
    if params.shape[0] > 2 and params[2] >= 1.5:
        return decide(pub, rules, WEIGHTS_NT, player, agent_rng, 0.0)
    return decide(pub, rules, WEIGHTS, player, agent_rng, 0.0)


@hot
def exact_or(pub, rules, params, player, action):
    """``action``, or with ``exact=1`` the move the exact endgame values prefer where they apply
    ([`decide_exact`][golfsim.agents.learned.endgame.decide_exact]), with the model ``params`` name."""
    if params[1] >= 0.5:
        if params.shape[0] > 2 and params[2] >= 1.5:
            return decide_exact(pub, rules, WEIGHTS_NT, player, action)
        return decide_exact(pub, rules, WEIGHTS, player, action)
    return action


@hot
def learned_act(pub, rules, params, agent_rng, player):
    """Decision of ``learned`` (see the module docstring), for any rules."""
    return exact_or(pub, rules, params, player, learned_one_ply_act(pub, rules, params, agent_rng, player))


@hot
def learned_act_plain(pub, rules, params, agent_rng, player):
    """[`learned_act`][golfsim.agents.learned.learned_act] compiled for rules without ``one_eyed_jacks``, by
    [`decide_plain`][golfsim.agents.learned.policy.decide_plain]: the same moves, about a third faster."""
    if params.shape[0] > 2 and params[2] >= 1.5:
        action = decide_plain(pub, rules, WEIGHTS_NT, player, agent_rng, 0.0)
    else:
        action = decide_plain(pub, rules, WEIGHTS, player, agent_rng, 0.0)
    return exact_or(pub, rules, params, player, action)


def learned_variant(rules):
    """``learned``'s ``variant_for`` hook ([`golfsim.agents.base.register_compiled_agent`][]): the plain copy unless
    ``one_eyed_jacks`` gives a rank two card codes in the packed ``rules``."""
    return learned_act if rules[R_CODES] > NUM_RANKS else learned_act_plain


def register_learned_agent() -> None:
    """Register ``learned`` (compiled on first use, like any agent called by pointer)."""
    from golfsim.agents.base import READY_CHECKS, register_compiled_agent

    READY_CHECKS["learned"] = require_model

    register_compiled_agent("learned", "one-ply expectimax on a value learned by self-play (golfsim learn): the "
                                       "move with the best expected afterstate value", learned_act,
                            params=PARAMS, variant_for=learned_variant)
