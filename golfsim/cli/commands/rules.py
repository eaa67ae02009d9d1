"""``golfsim rules``: every rule option, its default and what it means, at 80 columns."""

from __future__ import annotations

import textwrap
import typing

from golfsim.cli.shared import RULE_DEFAULTS, RULE_FLAG_TYPES, Players, app
from golfsim.core.rules import HOUSE_MEANINGS, Rules

WIDTH = 80
_HOUSE_DEFAULTS = {"initial_flips": "2", "flip_mode": "never"}


def _help(annotation) -> str:
    return typing.get_args(annotation)[1].help


def _entry(name: str, default: str, meaning: str) -> str:
    head = f"{name} (default {default})"
    return "\n".join([head, *textwrap.wrap(meaning, WIDTH - 4, initial_indent="    ", subsequent_indent="    ")])


def rules_text() -> str:
    """The listing ``golfsim rules`` prints: the options every playing command takes (as ``--flag``), then the
    house rules of ``--house`` by the web game's names."""
    blocks = ["Rule options (every command that plays takes them as --flags):", ""]
    blocks.append(_entry("--players", str(Rules().players), _help(Players)))
    for name, annotation in RULE_FLAG_TYPES.items():
        if name == "house":
            continue
        default = RULE_DEFAULTS[name]
        default = ("yes" if default else "no") if isinstance(default, bool) else str(default).replace("_", "-")
        blocks.append(_entry("--" + name.replace("_", "-"), default, _help(annotation)))
    blocks += ["", "House rules (--house name,name=value,...; the web game's option names):", ""]
    for name, meaning in HOUSE_MEANINGS.items():
        blocks.append(_entry(name, _HOUSE_DEFAULTS.get(name, "off"), meaning))
    return "\n".join(blocks)


@app.command(name="rules")
def rules_command():
    """List every rule option and house rule with its default and meaning."""
    print(rules_text())
