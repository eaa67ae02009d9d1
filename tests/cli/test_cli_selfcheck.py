"""``golfsim selfcheck``: the long soak of every agent under every rule set, run as a command.

The test suite plays a few thousand deals of each rule set (tests/agents/test_agent_legality.py); CI runs this
command at its full size, a million deals per agent and rule set. Here it runs small, and against an agent that
never ends a deal, which it must catch.
"""

import json
import textwrap

import pytest

from golfsim.agent_checks import HOUSE_SOAK_VARIANTS, SOAK_VARIANTS
from tests.support import run_golfsim

STUBBORN = textwrap.dedent('''
    """Never ends a deal under the default rules: opens as it must, then draws from the stock and throws the card
    away, forever."""
    from numba import njit

    from golfsim.agents import AGENT_SIGNATURE, register_compiled_agent
    from golfsim.core.engine import is_legal
    from golfsim.core.spec import DRAW_STOCK, HOLD, NUM_ACTIONS, PHASE, THROW_DRAWN


    @njit(AGENT_SIGNATURE, cache=True)
    def stubborn_act(pub, rules, params, agent_rng, player):
        if pub[PHASE] == HOLD and is_legal(pub, rules, THROW_DRAWN):
            return THROW_DRAWN
        if is_legal(pub, rules, DRAW_STOCK):
            return DRAW_STOCK
        for a in range(NUM_ACTIONS):
            if is_legal(pub, rules, a):
                return a
        return 0


    register_compiled_agent("stubborn", "draws and throws away forever", stubborn_act)
''')


def test_a_sound_agent_passes_every_rule_set():
    done = run_golfsim("selfcheck", "--agents", "greedy", "--deals", "500", "--quiet", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["agents"]["greedy"] == {"passed": True, "rule_sets": len(SOAK_VARIANTS) + 3,
                                          "deals": 500 * 20 + 25 * 3}
    assert len(report["rule_sets"]) == 20  # every rule set of golfsim.agent_checks.VARIANTS but the house rules
    assert report["house_rule_sets"] == list(HOUSE_SOAK_VARIANTS)  # the house block: 500 // 20 deals each
    assert report["house_deals_per_rule_set"] == 25


def test_an_agent_that_never_ends_a_deal_fails_naming_it_and_the_rule_set(tmp_path):
    plugin = tmp_path / "stubborn_agent.py"
    plugin.write_text(STUBBORN)
    done = run_golfsim("selfcheck", "--agents", "greedy,stubborn", "--deals", "200", "--quiet",
                       env={"GOLFSIM_AGENT_MODULES": str(plugin)})
    assert done.returncode == 1, done.stderr
    assert "greedy: passed" in done.stdout
    assert "stubborn: FAILED: stubborn under 'default': 200 of 200 deals hit the turn cap" in done.stdout
    assert "selfcheck failed for stubborn" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_bad_requests_are_one_line(repo):
    cautious = {"GOLFSIM_AGENT_MODULES": str(repo / "docs" / "examples" / "cautious_python_agent.py")}
    for args, env, words in ((("--deals", "0"), None, "--deals must be at least 1"),
                             (("--agents", "nobody"), None, "unknown agent 'nobody'"),
                             (("--agents", "cautious"), cautious, "agent 'cautious' is plain Python")):
        done = run_golfsim("selfcheck", *args, "--quiet", env=env)
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr, done.stderr
