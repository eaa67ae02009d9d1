"""The headroom experiment at a tiny size: its table has every phase under both end rules, regrets are never
negative, and the last turn exists only under one_last_turn."""

import numpy as np
import pytest

from golfsim.experiments import headroom


@pytest.mark.slow
def test_a_small_run_reports_every_phase_with_regrets_that_are_never_negative(tmp_path):
    out = headroom.run(games=4, seed=3, threads=1)
    table = out.table
    assert list(table["end"]) == [e for e in headroom.ENDS for _ in headroom.PHASES]
    assert list(table["phase"]) == list(headroom.PHASES) * 2
    # the best move's outcome is the lowest, so the learned move's regret against it cannot be negative
    assert (table["oracle_regret_per_deal"] >= 0).all()
    immediate = table[table["end"] == "immediate"]
    assert immediate.loc[immediate["phase"] == "last turn", "decisions"].item() == 0
    last = table[(table["end"] == "one_last_turn") & (table["phase"] == "last turn")]
    assert last["decisions"].item() == last["exact_decisions"].item() > 0
    assert last["exact_regret_per_decision"].item() >= -1e-12
    assert np.isnan(immediate["exact_regret_per_decision"]).all()
    written = out.write(tmp_path / "headroom")
    assert {p.name for p in written} >= {"table.csv", "table.md", "config.json", "figure.png"}


def test_too_few_deals_are_refused():
    with pytest.raises(ValueError, match="at least 2 deals"):
        headroom.run(games=1)
