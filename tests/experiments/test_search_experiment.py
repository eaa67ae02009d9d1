"""The strength-against-speed experiment (experiments/search.py) at a tiny size: its table, figure and config, the
lead it reports checked against games played directly with the simulator, and the oracle marked as seeing hidden
cards."""

import json

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer

from golfsim.core.rules import Rules
from golfsim.experiments import search
from golfsim.kernels.simulate import simulate
from golfsim.runs.experiment import choose, discover

SEED = 5
SETS = 40
REFERENCES = (search.Setting("greedy", "ev", 10, "reference"), search.Setting("ev", "ev", 10, "reference"))


@pytest.fixture(scope="module")
def references():
    return search.run(games=SETS, seed=SEED, threads=1, settings=REFERENCES)


def test_search_is_registered_but_kept_out_of_all_as_slow_and_hardware_specific():
    declared = discover()
    assert declared["search"].load() is search
    assert "search" not in [e.name for e in choose("all", declared)]


def test_table_has_every_column_and_intervals_bracket_the_lead(references):
    table = references.table
    assert list(table.columns) == search.COLUMNS
    assert list(table.agent) == ["greedy", "ev"] and set(table.opponent) == {"ev"}
    assert (table.deal_sets == SETS).all() and (table.games == 2 * SETS).all()  # both seat orders
    assert ((table.lead_low <= table.lead) & (table.lead <= table.lead_high)).all()
    assert (table.deals == table.games * 9).all() and (table.deals_per_second_per_thread > 0).all()
    assert not table.sees_hidden_cards.any()


def test_ev_against_itself_leads_by_exactly_zero(references):
    row = references.table.set_index("agent").loc["ev"]
    assert row.lead == 0 and row.lead_low == 0 and row.lead_high == 0


def test_lead_is_the_opponents_total_minus_the_agents_on_the_same_deals_in_both_seat_orders(references):
    rules = Rules(players=2)
    first = simulate(["greedy", "ev"], rules, games=SETS, seed=SEED).players
    second = simulate(["ev", "greedy"], rules, games=SETS, seed=SEED).players

    def totals(players, agent):
        return players[players.agent == agent].sort_values("game").total.to_numpy(float)

    per_deal_set = (totals(first, "ev") - totals(first, "greedy") + totals(second, "ev")
                    - totals(second, "greedy")) / 2
    row = references.table.set_index("agent").loc["greedy"]
    assert row.lead == pytest.approx(per_deal_set.mean())
    assert row.lead < 0  # greedy is worse than ev, by a margin far beyond this sample's noise


def test_figure_plots_lead_against_speed_on_a_log_axis_with_labels_seed_and_sample_size(references):
    fig = references.figures["strength_vs_speed"]
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    assert "deals per second per thread" in ax.get_xlabel() and "(" in ax.get_xlabel()
    assert "lead over ev" in ax.get_ylabel() and "points per nine-hole game" in ax.get_ylabel()
    title = " ".join(ax.get_title().split())  # wrapped to fit the axes
    assert "2 players" in title and "rules" in title
    suptitle = " ".join(fig._suptitle.get_text().split())
    assert f"seed {SEED}" in suptitle and f"{SETS:,} deal sets" in suptitle and "95%" in suptitle
    assert any(isinstance(c, ErrorbarContainer) for c in ax.containers)


def test_writes_table_figure_and_config_with_the_request(references, tmp_path):
    written = references.write(tmp_path)
    assert {p.name for p in written} == {"table.csv", "table.md", "config.json", "strength_vs_speed.png"}
    assert len(pd.read_csv(tmp_path / "table.csv")) == 2
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["request"] == {"experiment": "search", "games": SETS, "seed": SEED}
    assert config["threads"] == 1 and config["rules"]["players"] == 2
    assert [d["deal_sets"] for d in config["deal_sets"]] == [SETS, SETS]


@pytest.mark.slow  # compiles the search (tens of seconds cold)
def test_mc_settings_and_the_oracle_marked_as_seeing_hidden_cards(tmp_path):
    settings = (search.Setting("mc:samples=4", "ev", 10, "search setting"),
                search.Setting("oracle", "ev", 10, "value of hidden information"),
                search.Setting("oracle", "mc:samples=4", 10, "value of hidden information"))
    out = search.run(games=3, seed=SEED, settings=settings)
    table = out.table
    assert list(table.sees_hidden_cards) == [False, True, True]
    assert list(table.agent) == ["mc:samples=4", "oracle (sees hidden cards)", "oracle (sees hidden cards)"]
    assert list(table.samples) == [4, 1, 1] and np.isnan(table.samples).sum() == 0
    assert ((table.lead_low <= table.lead) & (table.lead <= table.lead_high)).all()
    assert out.config["sees_hidden_cards"] == ["oracle (sees hidden cards)"]
    oracle_panel = out.figures["strength_vs_speed"].axes[1]
    assert "SEES HIDDEN CARDS" in " ".join(oracle_panel.get_title().split())
    assert [t.get_text().split("\n")[0] for t in oracle_panel.get_xticklabels()] == ["vs ev", "vs mc:samples=4"]
    out.write(tmp_path)
    assert "oracle (sees hidden cards)" in (tmp_path / "table.md").read_text()


def test_every_setting_is_a_cell_and_ctrl_c_keeps_the_finished_ones():
    settings = (*REFERENCES, search.Setting("pair-builder", "ev", 10, "reference"))
    lines = []

    def stop_after_one(line):
        lines.append(line)
        if " done (1/" in line:
            raise KeyboardInterrupt  # as Ctrl-C does in the calling thread

    out = search.run(games=SETS, seed=SEED, threads=1, settings=settings, log=stop_after_one)
    assert out.partial and out.config["partial"] and out.notes[0].startswith("PARTIAL RESULT")
    kept = [c["cell"] for c in out.config["cells"] if c["complete"]]
    assert len(kept) == 1 and len(out.config["cells"]) == 3
    assert [f"{r.agent} against {r.opponent}" for r in out.table.itertuples()] == kept
    # the kept setting's numbers are those of an uninterrupted run on the same deals
    whole = search.run(games=SETS, seed=SEED, threads=1, settings=settings).table.set_index("agent")
    row = out.table.iloc[0]
    assert row.lead == whole.loc[row.agent].lead and row.deal_sets == SETS


def test_the_settings_speeds_come_from_the_threads_that_played_them(references):
    table = references.table
    assert (table.cpu_seconds > 0).all() and (table.seconds >= table.cpu_seconds * 0.5).all()
    assert (table.threads == 1).all()
    np.testing.assert_allclose(table.deals_per_second_per_thread, table.deals / table.cpu_seconds)
