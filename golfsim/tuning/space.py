"""The search space of a study: each parameter's range and grid, the shipped agents' ranges, and agent strings."""

from __future__ import annotations

import math
from dataclasses import dataclass

from golfsim.agents.base import AgentChoice, AgentSpec

KINDS = ("float", "int", "bool")


@dataclass(frozen=True)
class ParamRange:
    """The values of one parameter a study searches.

    Attributes
    ----------
    name : str
        The agent's parameter.
    kind : {"float", "int", "bool"}
        ``"float"``: ``low, low + step, ..., high``; ``"int"``: the whole numbers from ``low`` to ``high``;
        ``"bool"``: 0 or 1.
    low, high : float
        The range (0 and 1 for ``"bool"``).
    step : float
        Grid spacing of a ``"float"`` range (1 for ``"int"`` and ``"bool"``).
    """

    name: str
    kind: str
    low: float
    high: float
    step: float = 1.0

    @classmethod
    def make(cls, name: str, kind: str, low: float | None = None, high: float | None = None,
             step: float | None = None) -> ParamRange:
        """A checked range; a float range without ``step`` gets 1/100 of its width rounded down to a power of 10."""
        if kind not in KINDS:
            raise ValueError(f"parameter {name}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if kind == "bool":
            return cls(name, "bool", 0.0, 1.0, 1.0)
        if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)) or not low < high:
            raise ValueError(f"parameter {name}: a range needs finite LOW < HIGH, got {low!r}:{high!r}")
        if kind == "int":
            if low != int(low) or high != int(high):
                raise ValueError(f"parameter {name} takes whole numbers; give a range like 0:6, got {low:g}:{high:g}")
            return cls(name, "int", float(low), float(high), 1.0)
        if step is None:
            step = 10.0 ** math.floor(math.log10((high - low) / 100))
        if not (math.isfinite(step) and step > 0) or step > high - low:
            raise ValueError(f"parameter {name}: the step must be positive and at most the range, got {step!r}")
        return cls(name, "float", float(low), float(high), float(step))

    @property
    def points(self) -> int:
        """How many values the grid holds."""
        return int(math.floor((self.high - self.low) / self.step + 1e-9)) + 1

    def distribution(self):
        """The optuna distribution searched: the grid index of a float, the value of an int, 0/1 of a bool."""
        from optuna.distributions import CategoricalDistribution, IntDistribution

        if self.kind == "bool":
            return CategoricalDistribution((0, 1))
        if self.kind == "int":
            return IntDistribution(int(self.low), int(self.high))
        return IntDistribution(0, self.points - 1)

    def value(self, raw) -> float:
        """The parameter value of the optuna value ``raw``, rounded to the grid's decimals."""
        if self.kind != "float":
            return float(raw)
        return round(self.low + int(raw) * self.step, _decimals(self.step) + _decimals(self.low))

    def raw(self, value: float) -> int:
        """The optuna value that plays ``value`` (inverse of [`value`][golfsim.tuning.space.ParamRange.value])."""
        if self.kind != "float":
            return int(round(value))
        return int(round((value - self.low) / self.step))

    def describe(self) -> str:
        if self.kind == "bool":
            return f"{self.name}: 0 or 1"
        if self.kind == "int":
            return f"{self.name}: whole numbers {self.low:g} to {self.high:g}"
        return f"{self.name}: {self.low:g} to {self.high:g} in steps of {self.step:g}"

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "low": self.low, "high": self.high, "step": self.step}


def _decimals(x: float) -> int:
    text = repr(float(x))
    if "e" in text:
        return 12
    return len(text.partition(".")[2].rstrip("0"))


BUILT_IN_RANGES: dict[str, dict[str, ParamRange]] = {
    agent: {r.name: r for r in ranges} for agent, ranges in {
        "ev": (
            ParamRange.make("pair_weight", "float", 0, 2),
            ParamRange.make("horizon", "float", 0, 8, 0.05),
            ParamRange.make("count_out", "bool"),
            ParamRange.make("out_margin", "float", -10, 10),
            ParamRange.make("watch_discard", "float", 0, 1.5),
        ),
        "greedy": (
            ParamRange.make("take_gain", "float", 0, 10, 0.1),
            ParamRange.make("fixed_hidden", "bool"),
            ParamRange.make("hidden_value", "float", 0, 10, 0.1),
            # -6 is below every card of every joker option: the tip is off
            ParamRange.make("blind_swap", "int", -6, 6),
        ),
        "pair-builder": (
            ParamRange.make("pairs_first", "bool"),
            # 16 is more than any two cards differ by: the tip is off
            ParamRange.make("keep_threshold", "int", 0, 16),
            ParamRange.make("lone_two", "bool"),
            ParamRange.make("take_gain", "float", 0, 10, 0.1),
        ),
        "mc": (
            ParamRange.make("samples", "int", 8, 512),
            ParamRange.make("rollout", "int", 0, 2),
            ParamRange.make("objective", "int", 0, 2),
            ParamRange.make("horizon", "int", 0, 30),
            ParamRange.make("confidence", "float", 0, 4, 0.05),
            ParamRange.make("halving", "int", 0, 4),
        ),
    }.items()
}
"""Search ranges of the shipped agents' parameters (kept here, not on their [`Param`][golfsim.agents.base.Param]
declarations, so that tuning does not touch the agents' modules); a user agent declares its own on its ``Param``."""


def parse_param_ranges(text: str | None) -> dict[str, tuple[float, float, float | None] | None]:
    """Parse ``--params``: ``"watch_discard,take_gain=0:5,horizon=1:4:0.5"``.

    Returns
    -------
    dict
        Parameter name -> ``(low, high, step)`` (``step`` ``None`` when not given), or ``None`` to use the declared
        range, in the order given.
    """
    out: dict[str, tuple[float, float, float | None] | None] = {}
    for piece in (p.strip() for p in (text or "").split(",")):
        if not piece:
            continue
        name, eq, rng = piece.partition("=")
        name = name.strip()
        if not eq:
            out[name] = None
            continue
        parts = [p.strip() for p in rng.split(":")]
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) not in (2, 3):
            raise ValueError(f"parameter {name}: write a range as name=LOW:HIGH or name=LOW:HIGH:STEP, got {piece!r}")
        out[name] = (numbers[0], numbers[1], numbers[2] if len(numbers) == 3 else None)
    return out


def search_space(spec: AgentSpec, params=None, fixed=()) -> tuple[ParamRange, ...]:
    """The ranges searched for agent ``spec``.

    Parameters
    ----------
    spec : AgentSpec
        The agent.
    params : str or dict, optional
        Which parameters to search (``"watch_discard,take_gain=0:5"``, or the dict of
        [`parse_param_ranges`][golfsim.tuning.space.parse_param_ranges]); default: every parameter that has a declared
        range and is not in ``fixed``.
    fixed : sequence of str
        Parameters left out of the default space (those set in the agent string).

    Raises
    ------
    ValueError
        For an agent without parameters, an unknown parameter, or a named parameter with no declared range and
        none given.
    """
    if not spec.params:
        raise ValueError(f"agent {spec.name!r} has no parameters to tune")
    wanted = parse_param_ranges(params) if isinstance(params, str) or params is None else dict(params)
    by_name = {p.name: p for p in spec.params}
    for name in wanted:
        if name not in by_name:
            raise ValueError(f"agent {spec.name!r} has no parameter {name!r}; its parameters: {', '.join(by_name)}")
    declared = {}
    for p in spec.params:
        if p.kind == "bool" or (p.low is not None and p.high is not None):
            declared[p.name] = ParamRange.make(p.name, p.kind, p.low, p.high)
        elif p.name in BUILT_IN_RANGES.get(spec.name, {}):
            declared[p.name] = BUILT_IN_RANGES[spec.name][p.name]
    if not wanted:
        declared = {name: r for name, r in declared.items() if name not in set(fixed)}
        if not declared:
            left = "is left to search once the agent string fixes some" if fixed else "declares a range"
            raise ValueError(f"agent {spec.name!r}: no parameter {left}; name the parameters to tune with ranges, "
                             f"e.g. --params {spec.params[0].name}=LOW:HIGH")
        return tuple(declared[p.name] for p in spec.params if p.name in declared)
    space = []
    for name, given in wanted.items():
        if given is not None:
            kind = declared[name].kind if name in declared else "float"
            if kind == "bool":
                kind = "int"
            space.append(ParamRange.make(name, kind, given[0], given[1], given[2] if kind == "float" else None))
        elif name in declared:
            space.append(declared[name])
        else:
            raise ValueError(f"agent {spec.name!r}: parameter {name!r} declares no range; give one, e.g. "
                             f"--params {name}=LOW:HIGH")
    return tuple(space)


def agent_string(choice: AgentChoice) -> str:
    """The agent as a command-line string: its name and every parameter that differs from the default
    (``"ev:watch_discard=0.31,horizon=3"``); [`golfsim.agents.base.parse_agent`][] reads it back."""
    changed = [f"{p.name}={p.format(v) if p.kind == 'agent' else _number(v)}"
               for p, v in zip(choice.spec.params, choice.values, strict=True) if not p.is_default(v)]
    return choice.spec.name + (":" + ",".join(changed) if changed else "")


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))
