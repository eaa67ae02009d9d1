"""The policy contract: what an agent sees, what it returns, and how it is registered.

A compiled agent is a Numba function with the signature ``AGENT_SIGNATURE``::

    act(pub, rules, params, agent_rng, player) -> action

- ``pub`` (int32 array): the public state described in [`golfsim.core.spec`][] -- every face-up card, the whole
  discard pile, stock size, counts of each rank never seen (``unseen``) and of the known stock after a recycle
  (``stock_known``), game totals before this hole, and ``HELD``, the stock card the player just drew.
  It never contains a face-down card or the stock order: those live in ``hid``, which agents are not given.
- ``rules`` (int32 array): ``Rules.pack()``, so an agent can play every variant (points, decks, end mode, ...).
- ``params`` (float64 array of ``MAX_PARAMS``): the agent's parameter vector; a sweep changes it without recompiling.
- ``agent_rng`` (uint64 array of length 1): the agent's own random stream, never the deal's and never another
  seat's; draw with ``rand_below(agent_rng, n)`` or ``rand_uniform(agent_rng)``.
- ``player``: the seat to move (``pub[CURRENT]``).

It returns one action id ([`golfsim.core.spec`][]) that must be legal (``golfsim.core.engine.is_legal``);
the simulator stops with an error naming the agent and the move otherwise.

Registration
------------
Every agent the simulator calls through a function pointer -- ``ev``, ``pair-builder`` and every user agent -- is
registered the same way, with [`register_compiled_agent`][golfsim.agents.base.register_compiled_agent]. Only ``random``
and ``greedy``, whose decisions cost a few tens of nanoseconds, are registered with a ``builtin_id`` and inlined into
the kernels ([`golfsim.agents.dispatch`][]). An agent that compiles different code for different rules (ev values the
``four_of_a_kind_bonus`` apart) passes ``variant_for``, a function of the packed rules that returns the compiled
variant to use (see [`register_compiled_agent`][golfsim.agents.base.register_compiled_agent]).

A plain-Python agent is any callable ``policy(observation) -> action`` where ``observation`` is the dict made by
``GolfEnv.observe`` (it holds ``"action_mask"``). A batched agent is a callable ``policy(batch) -> actions`` on a
[`DecisionBatch`][golfsim.agents.base.DecisionBatch]: the observation vectors and legal-action masks of many games
waiting for its decision. Both play everywhere a compiled agent does (tournaments, experiments, sweeps, tuning), at
tables mixed with compiled bots: the games are played many at a time in compiled code and stop for them
([`golfsim.kernels.python_seats`][]).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import config, types

from golfsim._numba.fence import EXPERIMENTAL_WARNING
from golfsim._numba.jit import leaf
from golfsim.core.rng import below, uniform

MAX_PARAMS = 24
"""Length of the parameter vector every compiled agent is given (most use a few slots; mc packs its base and
rollout policies' own parameters after its own)."""
USER_AGENT_BASE = 100
BUILT_IN_AGENTS = ("random", "greedy", "ev", "pair-builder")
"""The agents golfsim ships (``AgentSpec.built_in``); only random and greedy have a ``builtin_id``."""

OPT_IN_AGENTS = ("mc", "oracle")
"""Agents golfsim also ships but keeps out of default pools: too slow for them (``mc``) or a research reference that
sees hidden cards (``oracle``). Name them to use them."""

AGENT_SIGNATURE = types.int64(
    types.int32[::1], types.int32[::1], types.float64[::1], types.uint64[::1], types.int64
)

LEARNED_AGENTS = ("learned",)
"""Agents golfsim ships whose play comes from a model trained by ``golfsim learn``; kept out of default pools (so
that results of the built-ins do not move with a retrained model). Name them to use them."""

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
    ``low`` to ``high``, or ``"bool"`` (0 or 1, no range needed). Without a range, tuning asks for one. The parser
    refuses a value of another kind (``2.5`` for an ``"int"``, ``0.5`` for a ``"bool"``).
    ``"agent"``: the value is another agent (``default`` is its name), written ``name`` or, with parameters, in
    parentheses: ``base=(ev:watch_discard=0.46,horizon=1.9)``; ``agents`` lists the names allowed."""
    minimum: float | None = None
    maximum: float | None = None
    """The values the agent accepts at all, inclusive (None: no bound); the parser refuses any other. Wider than
    ``low``/``high``, which are only the values worth trying."""

    def check(self, value: float, agent: str = "") -> float:
        """``value`` as a float after checking it is finite, of [`kind`][golfsim.agents.base.Param.kind] and within
        ``minimum``/``maximum``.

        Raises
        ------
        ValueError
            One line naming the agent, the parameter and what it accepts.
        """
        who = f"agent {agent!r}: parameter {self.name}" if agent else f"parameter {self.name}"
        value = float(value)
        if not np.isfinite(value):
            raise ValueError(f"{who} must be finite, got {value!r}")
        if self.kind == "bool" and value not in (0.0, 1.0):
            raise ValueError(f"{who} is a switch: 0 (off) or 1 (on), got {_fmt(value)}")
        if self.kind == "int" and not value.is_integer():
            raise ValueError(f"{who} takes whole numbers{self._bounds()}, got {_fmt(value)}")
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            kind = "a whole number" if self.kind == "int" else "a number"
            raise ValueError(f"{who} must be {kind}{self._bounds()}, got {_fmt(value)}")
        return value

    def _bounds(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f" from {_fmt(self.minimum)} to {_fmt(self.maximum)}"
        if self.minimum is not None:
            return f" of at least {_fmt(self.minimum)}"
        if self.maximum is not None:
            return f" of at most {_fmt(self.maximum)}"
        return ""
    agents: tuple[str, ...] = ()
    """For ``kind="agent"``: the agents allowed; ``aliases`` maps numbers kept from older versions to names."""
    aliases: tuple[tuple[float, str], ...] = ()

    def format(self, value) -> str:
        """``value`` as written on a command line (an agent with parameters in parentheses)."""
        if self.kind != "agent":
            return _fmt(value)
        text = value.spec_string
        return f"({text})" if ":" in text else text

    def is_default(self, value) -> bool:
        if self.kind == "agent":
            return value.spec_string == self.default
        return value == self.default


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent.

    Exactly one of ``builtin_id`` (random or greedy, inlined into the kernels by id), ``function`` (a compiled
    agent called through a function pointer, see
    [`register_compiled_agent`][golfsim.agents.base.register_compiled_agent]) or ``python`` (a factory ``(params: dict)
    -> policy`` for the step API) is set. ``variant_for`` (only with ``function``) picks a compiled variant for given
    packed rules.
    """

    name: str
    description: str
    params: tuple[Param, ...] = ()
    builtin_id: int | None = None
    function: object = None
    python: Callable | None = None
    variant_for: Callable | None = None
    pack: Callable | None = None
    """``pack(choice) -> float64 array of MAX_PARAMS``: the parameter vector of a compiled agent whose parameters
    are not all numbers (mc's base and rollout policies); default: the values in order."""
    batched: bool = False
    """With ``python``: the factory makes a batch policy ``policy(batch: DecisionBatch) -> actions`` (see
    [`register_batched_agent`][golfsim.agents.base.register_batched_agent]) rather than a policy of one observation
    dict."""
    sees_hidden: bool = False
    """True for a research reference that is given the true hidden state ([`golfsim.core.worlds`][]); its label says
    so."""

    @property
    def built_in(self) -> bool:
        """True for the agents golfsim ships ([`BUILT_IN_AGENTS`][golfsim.agents.base.BUILT_IN_AGENTS]), however they
        are dispatched."""
        return self.name in BUILT_IN_AGENTS

    @property
    def kind(self) -> str:
        """What ``golfsim agents`` calls it: ``built-in`` (in default pools), ``search``, ``reference`` or
        ``learned`` (shipped, named to use; a reference sees hidden cards), ``compiled``, ``python`` or ``batched``
        (a user's agent)."""
        if self.built_in:
            return "built-in"
        if self.name in OPT_IN_AGENTS:
            return "reference" if self.sees_hidden else "search"
        if self.name in LEARNED_AGENTS:
            return "learned"
        return "compiled" if self.compiled else "batched" if self.batched else "python"

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
            f"{p.name}={p.format(v)}" for p, v in zip(self.spec.params, self.values, strict=True)
            if not p.is_default(v)
        ]
        return self.spec.name + (":" + ",".join(changed) if changed else "")

    @property
    def label(self) -> str:
        """[`spec_string`][golfsim.agents.base.AgentChoice.spec_string], marked when the agent sees hidden cards
        ([`SEES_HIDDEN_MARK`][golfsim.agents.base.SEES_HIDDEN_MARK])."""
        return self.spec_string + SEES_HIDDEN_MARK if self.spec.sees_hidden else self.spec_string

    def param_vector(self) -> np.ndarray:
        """The float64 parameter vector of length ``MAX_PARAMS`` that the compiled agent reads."""
        if self.spec.pack is not None:
            return self.spec.pack(self)
        vec = np.zeros(MAX_PARAMS, dtype=np.float64)
        vec[: len(self.values)] = self.values
        return vec

    def param_dict(self) -> dict[str, float | str]:
        """Parameter name -> value (an agent-valued parameter as its agent string)."""
        return {p.name: (v.spec_string if p.kind == "agent" else v)
                for p, v in zip(self.spec.params, self.values, strict=True)}


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


REGISTRY: dict[str, AgentSpec] = {}

SEES_HIDDEN_MARK = " (sees hidden cards)"
"""Appended to the label of an agent that sees hidden cards, so every table, JSON and plot marks it."""


NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_.+-]{0,63}")
"""What an agent's name may be, so that it can be written on a command line and in a list of agents: lower case
letters, digits and ``_ . + -``, at most 64 characters (no ``:``, ``,``, ``=``, ``#`` or spaces, which the agent
syntax uses)."""


def register(spec: AgentSpec) -> AgentSpec:
    """Add an agent to the registry under ``spec.name``; a name may be registered once.

    Raises
    ------
    ValueError
        For a name the command line cannot name ([`NAME_PATTERN`][golfsim.agents.base.NAME_PATTERN]), a name taken, too
        many parameters, or a parameter whose default its own kind or bounds refuse.
    """
    if not isinstance(spec.name, str) or not NAME_PATTERN.fullmatch(spec.name):
        raise ValueError(f"agent name {spec.name!r} cannot be named on the command line: use lower case letters, "
                         "digits and _ . + - (at most 64, no spaces, ':', ',', '=' or '#'), e.g. 'my-agent'")
    for p in spec.params:
        if p.kind not in ("float", "int", "bool", "agent"):
            raise ValueError(f"agent {spec.name!r}: parameter {p.name} has kind {p.kind!r}; use float, int, bool "
                             "or agent")
        if p.kind == "agent":
            if p.default not in p.agents:
                raise ValueError(f"agent {spec.name!r}: parameter {p.name}'s default {p.default!r} is not among its "
                                 f"agents ({', '.join(p.agents)})")
            continue
        try:
            p.check(p.default, spec.name)
        except ValueError as e:
            raise ValueError(f"{e} (its own default)") from None
    if spec.name in REGISTRY and REGISTRY[spec.name] is not spec:
        raise ValueError(f"an agent named {spec.name!r} is already registered")
    if len(spec.params) > MAX_PARAMS:
        raise ValueError(f"agent {spec.name!r} has {len(spec.params)} parameters; at most {MAX_PARAMS} are allowed")
    if sum(x is not None for x in (spec.builtin_id, spec.function, spec.python)) != 1:
        raise ValueError(f"agent {spec.name!r} needs exactly one of builtin_id, function or python")
    if spec.batched and spec.python is None:
        raise ValueError(f"agent {spec.name!r}: batched needs the factory python")
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
        (``Rules.pack()``, indices in [`golfsim.core.spec`][]), for an agent that compiles separate code for
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


def register_batched_agent(name: str, description: str, factory: Callable, params=()) -> AgentSpec:
    """Register a batched agent: ``factory(params: dict) -> policy``, where ``policy(batch)`` takes a
    [`DecisionBatch`][golfsim.agents.base.DecisionBatch] of ``n`` decisions and returns ``n`` legal actions (any integer
    sequence or array).

    The policy is called once per step for many games in flight, all waiting for the same seat, so a numpy or
    neural-network policy decides for hundreds of games per call. It may draw on ``batch.random`` (one uniform
    number per decision from that seat's own stream) to stay reproducible.
    """
    return register(AgentSpec(name, description, tuple(params), python=factory, batched=True))


@dataclass(frozen=True)
class DecisionBatch:
    """The decisions a batched agent is asked for in one call: row ``i`` is one game waiting for the agent's seat.

    Attributes
    ----------
    observations : ndarray, float32 (n, size)
        What the seat may know ([`golfsim.game.observation`][]: seen from the seat, itself first).
    masks : ndarray, uint8 (n, NUM_ACTIONS)
        1 where an action is legal.
    seat : int
        The seat deciding (the same for every row).
    games : ndarray, int64 (n,)
        The game number of each row.
    random : ndarray, float64 (n,)
        One uniform number in [0, 1) per row, from the seat's own agent stream of that game.
    rules : Rules
        The rules of the table.
    """

    observations: np.ndarray
    masks: np.ndarray
    seat: int
    games: np.ndarray
    random: np.ndarray
    rules: object

    def __len__(self) -> int:
        return int(self.masks.shape[0])


def _load_user_agents() -> None:
    from golfsim.agents.plugins import ensure_loaded  # here, not at import: user modules may import golfsim themselves

    ensure_loaded()


def available() -> str:
    _load_user_agents()
    return ", ".join(sorted(REGISTRY))


READY_CHECKS: dict[str, Callable[[str], None]] = {}
"""Per agent name, a check run with the agent text whenever a choice naming that agent is parsed (``learned``: that
the model file it asks for is whole); it raises ``ValueError`` with one line when the agent cannot play."""


def parse_agent(text) -> AgentChoice:
    """Parse ``"name"`` or ``"name:param=value,param=value"`` into an [`AgentChoice`][golfsim.agents.base.AgentChoice].

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
    for needed, check in READY_CHECKS.items():  # the agent itself, or one inside it (mc's base or rollouts)
        if re.search(rf"\b{re.escape(needed)}\b", text):
            check(text)
    by_name = {p.name: p for p in spec.params}
    values = {p.name: _agent_value(spec, p, p.default) if p.kind == "agent" else p.default for p in spec.params}
    if rest.strip():
        for item in _split_top(rest):
            key, eq, val = item.partition("=")
            key = key.strip()
            if not eq or key not in values:
                known = ", ".join(values) or "none"
                raise ValueError(f"agent {name!r} has no parameter {key!r} (write name=value); its parameters: {known}")
            if by_name[key].kind == "agent":
                values[key] = _agent_value(spec, by_name[key], val.strip())
                continue
            try:
                number = float(val)
            except ValueError:
                raise ValueError(f"agent {name!r}: parameter {key} needs a number, got {val.strip()!r}") from None
            if not np.isfinite(number):
                raise ValueError(f"agent {name!r}: parameter {key} must be finite, got {val.strip()!r}")
            values[key] = by_name[key].check(number, name)
    return AgentChoice(spec, tuple(values[p.name] for p in spec.params))


def _split_top(text: str) -> list[str]:
    """``text`` cut at the commas outside parentheses (an agent-valued parameter keeps its own list)."""
    pieces, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced parentheses in {text!r}: a ')' closes nothing")
        elif ch == "," and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
    if depth:
        raise ValueError(f"unbalanced parentheses in {text!r}: a '(' is never closed")
    pieces.append(text[start:])
    return pieces


def _agent_value(spec: AgentSpec, param: Param, text: str) -> AgentChoice:
    """Parse the value of the agent-valued parameter ``param`` of ``spec``: ``name``, ``(name:p=v,...)`` or a
    number among its ``aliases``."""
    text = text.strip()
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None:
        names = dict(param.aliases)
        if number not in names:
            allowed = ", ".join(param.agents) or "an agent name"
            raise ValueError(f"agent {spec.name!r}: {param.name} is an agent ({allowed}), got {text!r}")
        text = names[number]
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    elif ":" in text:
        raise ValueError(f"agent {spec.name!r}: write {param.name}'s agent with its parameters in parentheses, "
                         f"{param.name}=({text}), so they are not read as {spec.name}'s own")
    choice = parse_agent(text)
    if param.agents and choice.name not in param.agents:
        raise ValueError(f"agent {spec.name!r}: {param.name} must be one of {', '.join(param.agents)}, got "
                         f"{choice.name!r}")
    return choice


def split_agents(text: str) -> list[str]:
    """Split a comma-separated list of agents, keeping each agent's own ``param=value`` list together.

    ``"greedy:blind_swap=1,take_gain=2,random"`` gives ``["greedy:blind_swap=1,take_gain=2", "random"]``: a piece
    with ``=`` but no ``:`` continues the previous agent's parameters. Commas inside parentheses (an agent-valued
    parameter, ``"mc:base=(ev:horizon=2,count_out=0),greedy"``) never split.
    """
    out: list[str] = []
    for piece in (p.strip() for p in _split_top(text)):
        if not piece:
            continue
        head = piece.split("(")[0]  # a colon inside parentheses belongs to an agent-valued parameter
        if out and "=" in head and ":" not in head and ":" in out[-1]:
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out
