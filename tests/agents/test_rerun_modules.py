"""The rerun commands that results record name the agent modules loaded through GOLFSIM_AGENT_MODULES."""

import shlex
from pathlib import Path

from golfsim.agents import plugins
from golfsim.agents.base import parse_agent
from golfsim.core.rules import Rules

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "cautious_python_agent.py"


def test_a_command_is_unchanged_without_agent_modules(monkeypatch):
    monkeypatch.delenv(plugins.ENV_VAR, raising=False)
    assert plugins.rerun_command("golfsim tournament --agents ev,greedy") == "golfsim tournament --agents ev,greedy"


def test_a_loaded_module_given_by_a_relative_path_is_named_by_its_absolute_path(monkeypatch):
    monkeypatch.chdir(EXAMPLE.parent)
    monkeypatch.setenv(plugins.ENV_VAR, EXAMPLE.name)
    parse_agent("cautious")  # loads the modules the variable names
    words = shlex.split(plugins.rerun_command("golfsim tournament --agents cautious,greedy"))
    assert words == [f"{plugins.ENV_VAR}={EXAMPLE}", "golfsim", "tournament", "--agents", "cautious,greedy"]


def test_the_tournament_and_experiment_commands_carry_the_modules(monkeypatch):
    from golfsim.experiments.common import base_config
    from golfsim.tournament.planning import rerun_command

    monkeypatch.setenv(plugins.ENV_VAR, str(EXAMPLE))
    parse_agent("cautious")
    prefix = f"{plugins.ENV_VAR}={shlex.quote(str(EXAMPLE))} "
    tournament = rerun_command(["cautious", "greedy"], ["cautious", "greedy"], Rules(players=2), 10, 1,
                               "round-robin", None, "rotate", 0.95)
    assert tournament.startswith(prefix + "golfsim tournament --agents cautious,greedy ")
    assert base_config("tips", games=20, seed=3)["command"] == prefix + "golfsim experiment tips --games 20 --seed 3"
