"""``golfsim cache-warm``: what it compiles, and how its lines read in a terminal."""

import types

import pytest

from golfsim.cli import cache_warm
from golfsim.experiments.tips import TIPS
from golfsim.runs import compile_notice


def test_cache_warm_plays_the_learned_player_and_every_agent_of_experiment_tips(monkeypatch):
    import golfsim.kernels.simulate

    seats = set()
    monkeypatch.setattr(golfsim.kernels.simulate, "simulate", lambda agents, *a, **k: seats.update(agents))
    for _, run in cache_warm.STEPS:
        if "simulate" in run.__code__.co_names or "simulate" in run.__code__.co_varnames:
            run()
    wanted = {"learned"} | {tip.agent(on) for tip in TIPS for on in (True, False)}
    assert wanted <= seats, sorted(wanted - seats)


def fake_dispatcher(name, module):
    return types.SimpleNamespace(py_func=types.SimpleNamespace(__name__=name, __module__=module))


@pytest.mark.parametrize(("name", "module", "label"), [
    ("ev_act_no_bonus", "golfsim.agents.expected_value", "the expected value agent"),
    ("decide__pointer_entry", "golfsim.agents.learned.policy", "the learned agent"),
])
def test_the_compile_line_names_an_agent_not_its_compiled_variant(name, module, label):
    assert compile_notice._label(fake_dispatcher(name, module)) == label


def test_the_compile_line_fits_80_columns_by_dropping_its_reminder_before_cutting_words(monkeypatch):
    import io
    import shutil

    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: types.SimpleNamespace(columns=80, lines=24))
    monkeypatch.setattr(compile_notice, "describe",
                        lambda now=None: "compiling play_logged_games (kernels.logged): 12 s (once; cached for "
                                         "later runs)")
    stream = io.StringIO()
    line = compile_notice.CompileLine(stream=stream)
    line.terminal = True
    line._redraw()
    shown = stream.getvalue().split("\x1b[2K")[-1]
    assert shown == "compiling play_logged_games (kernels.logged): 12 s" and len(shown) <= 79
