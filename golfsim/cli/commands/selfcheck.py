"""``golfsim selfcheck``: the long soak, every agent in every seat under every rule set, a million deals each."""


from __future__ import annotations

import contextlib
import json
from typing import Annotated

import typer

from golfsim.cli.options import Quiet, Threads
from golfsim.cli.shared import ScoreFormat, app, clear_errors, err, fail, out
from golfsim.runs.interrupts import CaughtStop, RunStopped


@app.command()
@clear_errors
def selfcheck(
    agents: Annotated[str | None, typer.Option(
        help="Compiled agents to soak, comma-separated (default: the built-ins and learned; a plugin's agent "
             "too, with its module in GOLFSIM_AGENT_MODULES).")] = None,
    deals: Annotated[int, typer.Option(help="Single deals per agent and rule set.")] = 1_000_000,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the agents.")] = 31,
    threads: Threads = None,
    quiet: Quiet = False,
    format: Annotated[ScoreFormat, typer.Option("--format", help="table or json.")] = ScoreFormat.table,
):
    """Play each agent in every seat under every rule set of golfsim.agent_checks (one hole, 2 to 12 players) and
    fail (exit 1) on an illegal action or a deal that never ends; the test suite checks a few thousand deals of
    each, this finds the one-in-a-million position."""
    from golfsim.agent_checks import HOUSE_SOAK_SHARE, HOUSE_SOAK_VARIANTS, SOAK_VARIANTS, AgentCheckError, soak
    from golfsim.agents import REGISTRY
    from golfsim.agents.base import parse_agent

    if deals < 1:
        fail(f"--deals must be at least 1, got {deals}")
    if agents is None:
        names = sorted(n for n, spec in REGISTRY.items() if spec.built_in or spec.kind == "learned")
    else:
        names = [a.strip() for a in agents.split(",") if a.strip()]
        if not names:
            fail("--agents names no agent")
    for name in names:
        if not parse_agent(name).spec.compiled:
            fail(f"agent {name!r} is plain Python; the soak plays compiled agents (golfsim.agent_checks.check_legal "
                 "checks plain-Python ones)")

    results: dict[str, dict] = {}
    house_deals = max(1, deals // HOUSE_SOAK_SHARE)
    per_agent = len(SOAK_VARIANTS) * deals + len(HOUSE_SOAK_VARIANTS) * house_deals
    total = len(names) * per_agent
    if quiet:
        bar = contextlib.nullcontext()
    else:
        from golfsim.runs.progress import CountBar

        bar = CountBar(total, "deals")
    with CaughtStop() as stop, bar:
        for name in names:
            advance = None if quiet else (lambda n: bar.progress.advance(bar.task, n))
            try:
                report = soak(name, deals=deals, seed=seed, threads=threads, on_batch=advance)
                house = soak(name, HOUSE_SOAK_VARIANTS, deals=house_deals, seed=seed, threads=threads,
                             on_batch=advance)
                results[name] = {"passed": True, "rule_sets": len(report.counts) + len(house.counts),
                                 "deals": sum(report.counts.values()) + sum(house.counts.values())}
            except AgentCheckError as problem:
                results[name] = {"passed": False, "problem": str(problem)}
            if not quiet:  # a failed agent's remaining rule sets are not played
                bar.update(completed=len(results) * per_agent)
    if stop.arrived:
        done = ", ".join(f"{n} {'passed' if r['passed'] else 'FAILED'}" for n, r in results.items()) or "no agent"
        raise RunStopped(f"[bold yellow]interrupted:[/] {done} before the stop")

    failed = [n for n, r in results.items() if not r["passed"]]
    if format is ScoreFormat.json:
        print(json.dumps({"deals_per_rule_set": deals, "seed": seed, "rule_sets": list(SOAK_VARIANTS),
                          "house_deals_per_rule_set": house_deals, "house_rule_sets": list(HOUSE_SOAK_VARIANTS),
                          "agents": results}))
    else:
        for name, r in results.items():
            if r["passed"]:
                out.print(f"{name}: passed, {r['deals']:,} deals under {r['rule_sets']} rule sets", highlight=False,
                          markup=False, soft_wrap=True)
            else:
                out.print(f"{name}: FAILED: {r['problem']}", highlight=False, markup=False, soft_wrap=True)
    if failed:
        err.print(f"selfcheck failed for {', '.join(failed)}", highlight=False, markup=False)
        raise typer.Exit(1)
