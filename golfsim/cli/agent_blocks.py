"""``golfsim agents`` as text a person reads: one block per agent, wrapped to the terminal (80 columns piped)."""

from __future__ import annotations

import textwrap

__all__ = ["agent_blocks", "range_text"]

WIDEST = 100
"""Blocks are wrapped to the terminal's width, but no wider than this (long lines are hard to read)."""


def range_text(spec, param) -> str:
    """The values ``golfsim tune`` searches for ``param`` of ``spec``: e.g. ``0 to 2 in steps of 0.02``."""
    from golfsim.tuning.study import BUILT_IN_RANGES, ParamRange

    if param.kind == "agent":
        return "an agent: " + ", ".join(param.agents)
    if param.kind == "bool" or (param.low is not None and param.high is not None):
        declared = ParamRange.make(param.name, param.kind, param.low, param.high)
    else:
        declared = BUILT_IN_RANGES.get(spec.name, {}).get(param.name)
    if declared is None:
        return "no declared range"
    return declared.describe().partition(": ")[2]


def agent_blocks(specs, width: int = 80) -> str:
    """The agents ``specs`` ([`AgentSpec`][golfsim.agents.base.AgentSpec]) as text blocks no wider than ``width``.

    Each block names the agent and its kind, its description, then each parameter as ``name=default``, the values
    worth trying (as ``golfsim tune`` searches them) and what it means.
    """
    width = max(40, min(width, WIDEST))

    def wrap(text: str, indent: int) -> list[str]:
        return textwrap.wrap(text, width=width, initial_indent=" " * indent, subsequent_indent=" " * indent,
                             break_on_hyphens=False) or [""]

    lines = ["golfsim agents: give parameters as name:param=value,... (e.g. 'ev:horizon=3,count_out=0'). Each "
             "parameter shows name=default (the values golfsim tune searches) and its meaning.", ""]
    lines = [line for text in lines for line in (wrap(text, 0) if text else [""])]
    for spec in specs:
        lines.append(f"{spec.name} ({spec.kind})")
        lines += wrap(spec.description, 2)
        if not spec.params:
            lines.append("  parameters: none")
        for p in spec.params:
            default = p.default if p.kind == "agent" else f"{p.default:g}"
            lines += wrap(f"{p.name}={default}  ({range_text(spec, p)})", 2)
            lines += wrap(p.doc, 6)
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
