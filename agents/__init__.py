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
from agents.dispatch import RANDOM_ID

register(AgentSpec("random", "every legal action equally likely; the floor", builtin_id=RANDOM_ID))

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
