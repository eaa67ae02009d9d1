"""The kernel interface: its own module, the old import path, and a public state wide enough for long games."""

from __future__ import annotations

import numpy as np

import golfsim.core.rules as rules_module
import golfsim.core.spec as spec
from golfsim.core.engine import deal_shuffled
from golfsim.core.rng import deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import PUB_DTYPE, R_HID_SIZE, R_OFF_TOTALS, R_PUB_SIZE
from golfsim.game.env import GolfEnv


def test_the_kernel_names_still_import_from_golfsim_rules():
    from golfsim.core.rules import R_OFF_VIEW
    from golfsim.core.spec import FLIP, PHASE, action_name

    assert (FLIP, PHASE, R_OFF_VIEW) == (spec.FLIP, spec.PHASE, spec.R_OFF_VIEW)
    assert action_name is spec.action_name and action_name(15) == "place drawn card at 2"
    assert not hasattr(rules_module, "NO_SUCH_NAME")


def test_the_spec_docstring_documents_cards_actions_observation_and_variants():
    doc = spec.__doc__
    for heading in ("Card codes", "Phases and actions", "Public state", "Hidden state", "Deal procedure"):
        assert heading in doc
    for variant in ("opening_flips", "reveal_instead_of_draw", "discard_and_flip", "one_last_turn", "twos_pair",
                    "four_of_a_kind_bonus", "jokers"):
        assert variant in doc


def test_game_totals_beyond_sixteen_bits_reach_the_public_state_unwrapped():
    # 1000 holes of high scores: a total of 35,245 once read back from an int16 state as -30,291
    rules = Rules(holes=1000)
    packed = rules.pack()
    pub = np.zeros(packed[R_PUB_SIZE], dtype=PUB_DTYPE)
    hid = np.zeros(packed[R_HID_SIZE], dtype=np.int16)
    totals = np.array([35245, -40000], dtype=np.int32)
    deal_shuffled(pub, hid, packed, np.array([deal_state(3, 0, 999)], dtype=np.uint64), 999, 1, totals)
    ot = packed[R_OFF_TOTALS]
    assert pub[ot:ot + 2].tolist() == [35245, -40000]
    env = GolfEnv(rules)
    env.reset(3, hole=999, totals=[35245, 60000])
    assert env.observe(env.current_player)["totals"].tolist() == [35245, 60000]
