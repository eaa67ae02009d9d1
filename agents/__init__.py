"""golfsim's agents: the built-in policies and the registry where users add their own.

``parse_agent("pair-builder:keep_threshold=8")`` turns a name into an [`AgentChoice`][golfsim.agents.base.AgentChoice];
``REGISTRY`` holds every registered [`AgentSpec`][golfsim.agents.base.AgentSpec].
"""

from golfsim.agents.base import (
    AGENT_SIGNATURE,
    REGISTRY,
    AgentChoice,
    AgentSpec,
    DecisionBatch,
    Param,
    parse_agent,
    register,
    register_batched_agent,
    register_compiled_agent,
    register_python_agent,
)
from golfsim.agents.dispatch import GREEDY_ID, RANDOM_ID
from golfsim.agents.expected_value import PARAMS as _EV_PARAMS
from golfsim.agents.expected_value import ev_act as _ev_act
from golfsim.agents.expected_value import ev_variant as _ev_variant
from golfsim.agents.greedy import PARAMS as _GREEDY_PARAMS
from golfsim.agents.pair_builder import PARAMS as _PAIR_BUILDER_PARAMS
from golfsim.agents.pair_builder import pair_builder_act as _pair_builder_act

# random and greedy are inlined into the kernels by id; every other agent is registered like a user's
register(AgentSpec("random", "every legal action equally likely; the floor", builtin_id=RANDOM_ID))
register(AgentSpec("greedy", "puts each card where it lowers its estimated score the most right now",
                   params=_GREEDY_PARAMS, builtin_id=GREEDY_ID))
register_compiled_agent("ev", "card counting: values every action by the expected score it leaves, pairs to come "
                              "included; counts before going out", _ev_act, params=_EV_PARAMS,
                        variant_for=_ev_variant)
register_compiled_agent("pair-builder", "builds vertical pairs first, keeps high cards whose match may come, then "
                                        "lowers singles", _pair_builder_act, params=_PAIR_BUILDER_PARAMS)

__all__ = [
    "AGENT_SIGNATURE",
    "REGISTRY",
    "AgentChoice",
    "AgentSpec",
    "DecisionBatch",
    "Param",
    "parse_agent",
    "register",
    "register_batched_agent",
    "register_compiled_agent",
    "register_python_agent",
]

from golfsim.agents.search import register_search_agents  # noqa: E402

register_search_agents()

from golfsim.agents.learned import register_learned_agent  # noqa: E402

register_learned_agent()
