"""The policy contract: what an agent sees, what it returns, and how it is registered.

A compiled agent is a Numba function with the signature ``AGENT_SIGNATURE``::

    act(pub, rules, params, agent_rng, player) -> action

- ``pub`` (int32 array): the public state described in :mod:`golfsim.core.spec` -- every face-up card, the whole
  discard pile, stock size, counts of each rank never seen (``unseen``) and of the known stock after a recycle
  (``stock_known``), game totals before this hole, and ``HELD``, the stock card the player just drew.
  It never contains a face-down card or the stock order: those live in ``hid``, which agents are not given.
- ``rules`` (int32 array): ``Rules.pack()``, so an agent can play every variant (points, decks, end mode, ...).
- ``params`` (float64 array of ``MAX_PARAMS``): the agent's parameter vector; a sweep changes it without recompiling.
- ``agent_rng`` (uint64 array of length 1): the agent's own random stream, never the deal's and never another
  seat's; draw with ``rand_below(agent_rng, n)`` or ``rand_uniform(agent_rng)``.
- ``player``: the seat to move (``pub[CURRENT]``).

It returns one action id (:mod:`golfsim.core.spec`) that must be legal (``golfsim.core.engine.is_legal``);
the simulator stops with an error naming the agent and the move otherwise.

Registration
------------
Every agent the simulator calls through a function pointer -- ``ev``, ``pair-builder`` and every user agent -- is
registered the same way, with :func:`register_compiled_agent`. Only ``random`` and ``greedy``, whose decisions cost
a few tens of nanoseconds, are registered with a ``builtin_id`` and inlined into the kernels
(:mod:`golfsim.agents.dispatch`). An agent that compiles different code for different rules (ev values the
``four_of_a_kind_bonus`` apart) passes ``variant_for``, a function of the packed rules that returns the compiled
variant to use (see :func:`register_compiled_agent`).

A plain-Python agent is any callable ``policy(observation) -> action`` where ``observation`` is the dict made by
``GolfEnv.observe`` (it holds ``"action_mask"``); it plays through the step API (:mod:`golfsim.game.env`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import config, types

from golfsim._numba.fence import EXPERIMENTAL_WARNING
from golfsim._numba.jit import leaf
from golfsim.core.rng import below, uniform

MAX_PARAMS = 8
USER_AGENT_BASE = 100
BUILT_IN_AGENTS = ("random", "greedy", "ev", "pair-builder")
"""The agents golfsim ships (``AgentSpec.built_in``); only random and greedy have a ``builtin_id``."""

OPT_IN_AGENTS = ("mc", "oracle")
"""Agents golfsim also ships but keeps out of default pools: too slow for them (``mc``) or a research reference that
sees hidden cards (``oracle``). Name them to use them."""

AGENT_SIGNATURE = types.int64(
    types.int32[::1], types.int32[::1], types.float64[::1], types.uint64[::1], types.int64
)

if EXPERIMENTAL_WARNING is not None:
    warnings.filterwarnings("ignore", category=EXPERIMENTAL_WARNING)


@leaf
def rand_below(agent_rng, n):
    """A uniform integer in ``[0, n)`` from the agent's own stream ``agent_rng[0]``."""
    return below(agent_rng, 0, n)


@leaf
def rand_uniform(agent_rng):
    """A uniform float in ``[0, 1)`` from the agent's own stream ``agent_rng[0]``."""
    return uniform(agent_rng, 0)


@dataclass(frozen=True)
class Param:
    """One documented agent parameter."""

    name: str
    default: float
    doc: str
    low: float | None = None
    high: float | None = None
    kind: str = "float"
    """The values worth trying, which ``golfsim tune`` searches: ``"float"`` or ``"int"`` (whole numbers) from
    ``low`` to ``high``, or ``"bool"`` (0 or 1, no range needed). Without a range, tuning asks for one."""


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent.

    Exactly one of ``builtin_id`` (random or greedy, inlined into the kernels by id), ``function`` (a compiled
    agent called through a function pointer, see :func:`register_compiled_agent`) or ``python`` (a factory
    ``(params: dict) -> policy`` for the step API) is set. ``variant_for`` (only with ``function``) picks a
    compiled variant for given packed rules.
    """

    name: str
    description: str
    params: tuple[Param, ...] = ()
    builtin_id: int | None = None
    function: object = None
    python: Callable | None = None
    variant_for: Callable | None = None
    sees_hidden: bool = False
    """True for a research reference that is given the true hidden state (:mod:`golfsim.core.worlds`); its label says
    so."""

    @property
    def built_in(self) -> bool:
        """True for the agents golfsim ships (:data:`BUILT_IN_AGENTS`), however they are dispatched."""
        return self.name in BUILT_IN_AGENTS

    @property
    def kind(self) -> str:
        """What ``golfsim agents`` calls it: ``built-in`` (in default pools), ``search`` or ``reference`` (shipped,
        named to use; a reference sees hidden cards), ``compiled`` or ``python`` (a user's agent)."""
        if self.built_in:
            return "built-in"
        if self.name in OPT_IN_AGENTS:
            return "reference" if self.sees_hidden else "search"
        return "compiled" if self.compiled else "python"

    @property
    def compiled(self) -> bool:
        """True when the agent can play inside the batch simulator."""
        return self.python is None

    def defaults(self) -> dict[str, float]:
        return {p.name: p.default for p in self.params}


@dataclass(frozen=True)
class AgentChoice:
    """An agent with its parameter values, as chosen by a user (``"pair-builder:keep_threshold=8"``)."""

    spec: AgentSpec
    values: tuple[float, ...] = field(default=())

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def spec_string(self) -> str:
        """The agent as written on a command line: name plus every parameter that differs from its default
        (``"ev:watch_discard=0.46"``); it parses back to this choice."""
        changed = [
            f"{p.name}={_fmt(v)}" for p, v in zip(self.spec.params, self.values, strict=True) if v != p.default
        ]
        return self.spec.name + (":" + ",".join(changed) if changed else "")

    @property
    def label(self) -> str:
        """:attr:`spec_string`, marked when the agent sees hidden cards (:data:`SEES_HIDDEN_MARK`)."""
        return self.spec_string + SEES_HIDDEN_MARK if self.spec.sees_hidden else self.spec_string

    def param_vector(self) -> np.ndarray:
        """The float64 parameter vector of length ``MAX_PARAMS`` that the compiled agent reads."""
        vec = np.zeros(MAX_PARAMS, dtype=np.float64)
        vec[: len(self.values)] = self.values
        return vec

    def param_dict(self) -> dict[str, float]:
        return {p.name: v for p, v in zip(self.spec.params, self.values, strict=True)}


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


REGISTRY: dict[str, AgentSpec] = {}

SEES_HIDDEN_MARK = " (sees hidden cards)"
"""Appended to the label of an agent that sees hidden cards, so every table, JSON and plot marks it."""


def register(spec: AgentSpec) -> AgentSpec:
    """Add an agent to the registry under ``spec.name``; a name may be registered once."""
    if spec.name in REGISTRY and REGISTRY[spec.name] is not spec:
        raise ValueError(f"an agent named {spec.name!r} is already registered")
    if len(spec.params) > MAX_PARAMS:
        raise ValueError(f"agent {spec.name!r} has {len(spec.params)} parameters; at most {MAX_PARAMS} are allowed")
    if sum(x is not None for x in (spec.builtin_id, spec.function, spec.python)) != 1:
        raise ValueError(f"agent {spec.name!r} needs exactly one of builtin_id, function or python")
    if spec.variant_for is not None and spec.function is None:
        raise ValueError(f"agent {spec.name!r}: variant_for picks among compiled functions; give function too")
    REGISTRY[spec.name] = spec
    return spec


def register_compiled_agent(name: str, description: str, function, params=(), *, variant_for=None) -> AgentSpec:
    """Register a compiled agent so it plays at full speed in the batch simulator (ev and pair-builder are
    registered this way too).

    Parameters
    ----------
    name, description : str
        How the agent is named on the command line and described by ``golfsim agents``.
    function : numba dispatcher
        The decision function ``act(pub, rules, params, agent_rng, player) -> action``, compiled with
        ``@njit(AGENT_SIGNATURE, cache=True)``, or with ``@njit(cache=True)`` and no signature, in which case it is
        compiled for ``AGENT_SIGNATURE`` when it first plays. With ``NUMBA_DISABLE_JIT=1`` it is a plain function.
    params : sequence of Param
        Documented parameters with defaults, read from ``params[i]`` in the order given.
    variant_for : callable, optional
        ``variant_for(rules) -> function``: the compiled function to play under the packed rules ``rules``
        (``Rules.pack()``, indices in :mod:`golfsim.core.spec`), for an agent that compiles separate code for
        some rule options. Each variant follows the same rules as ``function``, which plays when there is no hook.
        ev uses it to compile its ``four_of_a_kind_bonus`` valuation only for rules that have the bonus.
    """
    _check_compiled(name, function)
    return register(AgentSpec(name, description, tuple(params), function=function, variant_for=variant_for))


def _check_compiled(name: str, function) -> None:
    if not callable(function):
        raise ValueError(f"agent {name!r}: function must be a compiled decision function, got {function!r}")
    sigs = getattr(function, "signatures", None)
    if sigs and tuple(sigs[0]) != tuple(AGENT_SIGNATURE.args):
        raise ValueError(
            f"agent {name!r}: compile the function with @njit(AGENT_SIGNATURE) from golfsim.agents.base (or with no "
            "signature) so the simulator can call it"
        )
    if not hasattr(function, "py_func") and not config.DISABLE_JIT:
        raise ValueError(f"agent {name!r}: compile the function with @njit(AGENT_SIGNATURE, cache=True)")


def register_python_agent(name: str, description: str, factory: Callable, params=()) -> AgentSpec:
    """Register a plain-Python agent: ``factory(params: dict) -> policy(observation) -> action``."""
    return register(AgentSpec(name, description, tuple(params), python=factory))


def _load_user_agents() -> None:
    from golfsim.agents.plugins import ensure_loaded  # here, not at import: user modules may import golfsim themselves

    ensure_loaded()


def available() -> str:
    _load_user_agents()
    return ", ".join(sorted(REGISTRY))


def parse_agent(text) -> AgentChoice:
    """Parse ``"name"`` or ``"name:param=value,param=value"`` into an :class:`AgentChoice`.

    Raises
    ------
    ValueError
        For an unknown agent (listing the registered ones) or an unknown or malformed parameter (listing the
        agent's parameters).
    """
    if isinstance(text, AgentChoice):
        return text
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"an agent is a name like 'greedy' or 'pair-builder:keep_threshold=8'; got {text!r}")
    text = text.strip().removesuffix(SEES_HIDDEN_MARK.strip()).strip()  # a label read back
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    _load_user_agents()
    spec = REGISTRY.get(name)
    if spec is None:
        raise ValueError(f"unknown agent {name!r}; available agents: {available()}")
    values = {p.name: p.default for p in spec.params}
    if rest.strip():
        for item in rest.split(","):
            key, eq, val = item.partition("=")
            key = key.strip()
            if not eq or key not in values:
                known = ", ".join(values) or "none"
                raise ValueError(f"agent {name!r} has no parameter {key!r} (write name=value); its parameters: {known}")
            try:
                number = float(val)
            except ValueError:
                raise ValueError(f"agent {name!r}: parameter {key} needs a number, got {val.strip()!r}") from None
            if not np.isfinite(number):
                raise ValueError(f"agent {name!r}: parameter {key} must be finite, got {val.strip()!r}")
            values[key] = number
    return AgentChoice(spec, tuple(values[p.name] for p in spec.params))


def split_agents(text: str) -> list[str]:
    """Split a comma-separated list of agents, keeping each agent's own ``param=value`` list together.

    ``"greedy:blind_swap=1,take_gain=2,random"`` gives ``["greedy:blind_swap=1,take_gain=2", "random"]``: a piece
    with ``=`` but no ``:`` continues the previous agent's parameters.
    """
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if out and "=" in piece and ":" not in piece and ":" in out[-1]:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out
