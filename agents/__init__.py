"""golfsim's agents: the built-in policies and the registry where users add their own.

``parse_agent("pair-builder:keep_threshold=8")`` turns a name into an :class:`~agents.base.AgentChoice`;
``REGISTRY`` holds every registered :class:`~agents.base.AgentSpec`.
"""

from agents.base import (
    AGENT_SIGNATURE,
    REGISTRY,
    AgentChoice,
    AgentSpec,
    Param,
    parse_agent,
    register,
    register_compiled_agent,
    register_python_agent,
)
from agents.dispatch import EV_ID, GREEDY_ID, PAIR_BUILDER_ID, RANDOM_ID
from agents.expected_value import PARAMS as _EV_PARAMS
from agents.greedy import PARAMS as _GREEDY_PARAMS
from agents.pair_builder import PARAMS as _PAIR_BUILDER_PARAMS

register(AgentSpec("random", "every legal action equally likely; the floor", builtin_id=RANDOM_ID))
register(AgentSpec("greedy", "puts each card where it lowers its estimated score the most right now",
                   params=_GREEDY_PARAMS, builtin_id=GREEDY_ID))
register(AgentSpec("ev", "card counting: values every action by the expected score it leaves, pairs to come "
                         "included; counts before going out", params=_EV_PARAMS, builtin_id=EV_ID))
register(AgentSpec("pair-builder", "builds vertical pairs first, keeps high cards whose match may come, then "
                                   "lowers singles", params=_PAIR_BUILDER_PARAMS, builtin_id=PAIR_BUILDER_ID))

__all__ = [
    "AGENT_SIGNATURE",
    "REGISTRY",
    "AgentChoice",
    "AgentSpec",
    "Param",
    "parse_agent",
    "register",
    "register_compiled_agent",
    "register_python_agent",
]

from agents.search import register_search_agents  # noqa: E402

register_search_agents()

# last, so user modules can import what is registered above
from agents.plugins import load_plugins  # noqa: E402

load_plugins()
