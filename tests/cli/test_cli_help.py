"""Help as a person reads it in an 80-column terminal, and ``golfsim --version``, from real processes."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys

import pytest
import typer.main

from golfsim.cli.app import app

COMMANDS = sorted(typer.main.get_command(app).commands)


def golfsim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "80"})


def test_every_command_has_help():
    assert {"agents", "tournament", "sweep", "tune", "replay", "score"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns_with_every_option_name_in_full(command):
    done = golfsim(command, "--help")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "…" not in text
    assert "<bool>" not in text  # a flag takes no value
    click_command = typer.main.get_command(app).commands[command]
    for param in click_command.params:
        for name in param.opts + param.secondary_opts:
            if name.startswith("--"):
                assert name in text.split() or f"{name}," in text or any(
                    word.startswith(name + "=") or word == name for word in text.split()), name


@pytest.mark.parametrize("command", ["tournament", "experiment"])
def test_markup_does_not_eat_the_dask_extra(command):
    done = golfsim(command, "--help")
    assert "Needs golfsim[dask]." in " ".join(done.stdout.split())


def test_version():
    done = golfsim("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"golfsim {importlib.metadata.version('golfsim')}\n"
