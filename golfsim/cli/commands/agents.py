"""``golfsim agents``: every registered agent with its parameters, or one agent."""


from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from golfsim.cli.shared import Format, _default_text, app, clear_errors, out


@app.command("agents")
@clear_errors
def list_agents(
    name: Annotated[str | None, typer.Argument(help="Show only this agent (default: every agent).")] = None,
    format: Annotated[Format, typer.Option(
        "--format", help="table (default), json (one document) or csv (one row per agent parameter).")] = Format.table,
):
    """List the registered agents, their parameters, defaults and ranges (user agents included)."""
    from golfsim.agents.base import REGISTRY, available
    from golfsim.cli.agent_blocks import agent_blocks

    available()  # loads the user agents named by GOLFSIM_AGENT_MODULES and entry points
    names = sorted(REGISTRY)
    if name is not None:
        if name.strip().lower() not in REGISTRY:
            raise ValueError(f"unknown agent {name!r}; the agents are {', '.join(names)}")
        names = [name.strip().lower()]
    rows = []
    for agent in names:
        spec = REGISTRY[agent]
        rows.append({"agent": agent, "kind": spec.kind, "description": spec.description,
                     "parameters": [{"name": p.name, "default": p.default, "doc": p.doc} for p in spec.params]})
    if format is Format.json:
        print(json.dumps(rows))
        return
    if format is Format.csv:
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["agent", "kind", "description", "parameter", "default", "parameter_doc"])
        for row in rows:
            for p in row["parameters"] or [{"name": "", "default": "", "doc": ""}]:
                writer.writerow([row["agent"], row["kind"], row["description"], p["name"],
                                 _default_text(p["default"]) if p["name"] else "", p["doc"]])
        return
    sys.stdout.write(agent_blocks([REGISTRY[agent] for agent in names], out.width if out.is_terminal else 80))
