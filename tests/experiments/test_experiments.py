"""The experiments layer: every experiment runs small, writes every promised file, labels its figures, and
reproduces its table exactly from the same seed; the ``golfsim experiment`` command."""

import json

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import ErrorbarContainer
from typer.testing import CliRunner

import golfsim.experiments as experiments
from golfsim.agents import parse_agent
from golfsim.cli.app import app
from golfsim.experiments import tips as tips_module
from golfsim.experiments import variants as variants_module
from golfsim.experiments.common import recorded_request
from golfsim.runs.experiment import choose, discover
from golfsim.runs.fingerprint import behaviour_fingerprint, fingerprint
from tests.committed import RESULTS

SMALL = 60
SEED = 5
runner = CliRunner()
DECLARED = discover()
"""The experiments as ``golfsim experiment`` finds them (the entry point)."""
ALL = [e.name for e in choose("all", DECLARED)]


def load(name):
    """The module of the experiment ``golfsim experiment NAME`` runs."""
    (experiment,) = choose(name, DECLARED)
    return experiment.load()


@pytest.fixture(scope="module")
def outputs():
    """Every experiment of ``golfsim experiment all`` at a small size."""
    return {name: load(name).run(games=SMALL, seed=SEED) for name in ALL}


def test_registry_lists_every_experiment_and_all_leaves_out_benchmarks():
    assert set(ALL) == {"ladder", "tips", "variants", "players", "luck", "house"}
    assert "benchmarks" in DECLARED and "benchmarks" not in ALL
    for name in DECLARED:
        module = load(name)
        assert module.NAME == name and callable(module.run)
    with pytest.raises(ValueError, match="choose one of: all, ladder"):
        load("nope")


@pytest.mark.parametrize("name", ALL)
@pytest.mark.slow
def test_figures_have_titles_labelled_axes_with_units_intervals_rules_and_sample_size(outputs, name):
    out = outputs[name]
    assert out.figures, "every experiment draws at least one figure"
    for stem, fig in out.figures.items():
        # titles are wrapped to fit their axes: compare their words, not where the lines break
        suptitle = " ".join(fig._suptitle.get_text().split()) if fig._suptitle is not None else ""
        titles = suptitle + " " + " ".join(" ".join(ax.get_title().split()) for ax in fig.axes)
        assert titles.strip(), f"{name}/{stem} has no title"
        assert f"seed {SEED}" in suptitle, f"{name}/{stem} does not state the seed"
        assert f"{SMALL:,}" in suptitle, f"{name}/{stem} does not state the sample size"
        assert "rules" in titles or "rule" in titles, f"{name}/{stem} does not state the rules"
        assert "95%" in titles, f"{name}/{stem} does not say what the error bars are"
        for ax in fig.axes:
            # a panel sharing its y axis with a labelled neighbour needs no y label of its own
            ylabel = " ".join(a.get_ylabel() for a in ax.get_shared_y_axes().get_siblings(ax))
            assert ax.get_xlabel() and ylabel.strip(), f"{name}/{stem}: unlabelled axis"
            assert "(" in ax.get_xlabel() + ylabel, f"{name}/{stem}: no units in {ax.get_xlabel()!r}, {ylabel!r}"
        bars = [c for ax in fig.axes for c in ax.containers if isinstance(c, ErrorbarContainer)]
        assert bars, f"{name}/{stem} draws no intervals"


@pytest.mark.parametrize("name", ALL)
def test_each_experiment_writes_every_promised_file(outputs, name, tmp_path):
    out = outputs[name]
    written = out.write(tmp_path / name)
    files = {p.name for p in written}
    assert {"table.csv", "table.md", "config.json"} <= files
    assert any(f.endswith(".png") for f in files)
    for p in written:
        assert p.exists() and p.stat().st_size > 0
    table = pd.read_csv(tmp_path / name / "table.csv")
    assert len(table) == len(out.table) > 0
    config = json.loads((tmp_path / name / "config.json").read_text())
    assert config["experiment"] == name and config["seed"] == SEED
    assert config["golfsim_version"]
    assert "rules" in config or "rules_default" in config
    assert any(key in config for key in ("agents", "tips"))
    assert any(str(v) == str(SMALL) for k, v in _flatten(config) if "games" in k or "deal_sets" in k)
    md = (tmp_path / name / "table.md").read_text()
    assert md.startswith("| ") and f"seed {SEED}" in md


def _flatten(doc, prefix=""):
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _flatten(v, f"{prefix}.{k}")
    elif isinstance(doc, list):
        for v in doc:
            yield from _flatten(v, prefix)
    else:
        yield prefix, doc


@pytest.mark.parametrize("name", ALL)
@pytest.mark.slow
def test_the_same_seed_reproduces_the_table_exactly(outputs, name):
    again = load(name).run(games=SMALL, seed=SEED, threads=1)
    pd.testing.assert_frame_equal(again.table, outputs[name].table, check_exact=True)


@pytest.mark.slow
def test_another_seed_gives_other_deals(outputs):
    other = load("ladder").run(games=SMALL, seed=SEED + 1)
    assert not np.allclose(other.table.mean_score, outputs["ladder"].table.mean_score)


def test_ladder_has_every_builtin_agent_at_2_3_and_4_players(outputs):
    table = outputs["ladder"].table
    table = table[table.section == "built-ins"]
    assert sorted(table.players.unique()) == [2, 3, 4]
    for players, rows in table.groupby("players"):
        assert sorted(rows.agent) == sorted(load("ladder").builtin_agents())
        assert (rows.mean_score_low <= rows.mean_score).all() and (rows.mean_score <= rows.mean_score_high).all()
        assert rows.win_rate.sum() == pytest.approx(len(rows) / players)  # every game has one winner (shared)


def test_ladder_search_section_has_mc_at_2_and_4_players_and_marks_the_oracle(outputs):
    ladder = load("ladder")
    out = outputs["ladder"]
    rows = out.table[out.table.section == "with search"]
    assert sorted(rows.players.unique()) == [2, 4]
    assert "mc" in set(rows[rows.players == 2].agent) and "mc" in set(rows[rows.players == 4].agent)
    oracle = rows[rows.agent.str.startswith("oracle")]
    assert list(oracle.players) == [2] and list(oracle.agent) == ["oracle (sees hidden cards)"]
    assert list(rows.agent[rows.sees_hidden_cards]) == ["oracle (sees hidden cards)"]
    assert out.config["search"]["sees_hidden_cards"] == ["oracle (sees hidden cards)"]
    assert out.config["search"]["deal_sets_per_table"] == {2: 2, 4: 2}  # max(2, 60 // 30): far fewer than the 60
    assert ((rows.mean_score_low <= rows.mean_score) & (rows.mean_score <= rows.mean_score_high)).all()
    for players, pool in ladder.search_pools().items():
        assert len(rows[rows.players == players]) == len(pool)
    assert "SEES HIDDEN CARDS" in " ".join(out.figures["search"]._suptitle.get_text().split())


def test_ladder_learned_section_seats_learned_with_the_builtins_and_the_tuned_ev(outputs):
    ladder = load("ladder")
    out = outputs["ladder"]
    rows = out.table[out.table.section == "with learned"]
    assert out.config["learned"]["deal_sets_per_table"] == {2: 12, 4: 12}  # 60 // 5
    for players, pool in ladder.learned_pools().items():
        here = rows[rows.players == players]
        assert sorted(here.agent) == sorted(parse_agent(a).label for a in pool) and "learned" in set(here.agent)
        assert here.win_rate.sum() == pytest.approx(len(here) / players)  # every game has one winner (shared)
    assert not rows.sees_hidden_cards.any()
    assert "learned player" in out.figures["learned"]._suptitle.get_text()


def test_every_tip_is_a_parameter_of_its_base_agent_with_distinct_on_and_off():
    keys = [t.key for t in tips_module.TIPS]
    assert {"a", "b", "c", "d", "e", "f"} <= set(keys)
    for tip in tips_module.TIPS:
        on, off = parse_agent(tip.agent(True)), parse_agent(tip.agent(False))
        assert on.spec.name == off.spec.name
        assert on.param_dict()[tip.param] == tip.on and off.param_dict()[tip.param] == tip.off
        assert tip.on != tip.off
        assert {k: v for k, v in on.param_dict().items() if k != tip.param} == \
               {k: v for k, v in off.param_dict().items() if k != tip.param}


def test_tip_table_rows_and_sign_convention(outputs):
    table = outputs["tips"].table
    assert len(table) == sum(len(t.players) for t in tips_module.TIPS)
    assert sorted(table.players.unique()) == [2, 4]
    planning = table[table.base_agent == "mc-tips"]
    assert set(planning.tip) == {"b-mc", "e-mc"} and set(planning.players) == {2}
    learned = table[table.base_agent == "learned-tips"]
    assert set(learned.tip) == {"a-l", "b-l", "c-l", "c6-l", "e-l", "f-l"} and set(learned.players) == {2, 4}
    assert (planning.games == 2).all() and (learned.games == SMALL // tips_module.LEARNED_SCALE).all()
    assert (table[~table.base_agent.isin(["mc-tips", "learned-tips"])].games == SMALL).all()
    diff = table.mean_score_on - table.mean_score_off
    assert np.allclose(diff, table.effect)
    assert ((table.effect_low <= table.effect) & (table.effect <= table.effect_high)).all()
    assert set(table.verdict) <= {"helps", "hurts", "no detectable effect", "negligible (within 0.1 points per game)",
                                  "no effect: the switch changes play in under 1% of games"}


def test_an_ab_test_of_a_tip_against_itself_is_exactly_zero():
    same = tips_module.Tip("z", "nothing", "nothing", "greedy", "take_gain", 3, 3)
    row = tips_module.ab_test(same, 2, 40, seed=1)
    assert row["effect"] == 0 and row["games_changed"] == 0


def test_variants_cover_every_rule_option(outputs):
    from golfsim.core.rules import Rules

    table = outputs["variants"].table
    options = {f for f in Rules().to_dict() if f not in ("players", "turn_cap")}
    assert options <= set(table.option)
    default = table[table.variant == "default"]
    assert (default.rr_rank_change == 0).all()
    assert ((table.out_lowest >= 0) & (table.out_lowest <= 1)).all()


def test_variants_interrupted_before_the_default_game_still_get_their_notes_and_figures(outputs):
    # Ctrl-C keeps whichever cells finished first, and the default game's need not be one of them
    output = outputs["variants"]
    partial = output.table[output.table.variant != "default"].reset_index(drop=True)
    assert variants_module.unchanged_play(partial) == []
    for figure in (variants_module.plot(partial, output.config), variants_module.plot_ranking(partial, output.config)):
        assert figure.axes[0].get_yticklabels()[0].get_text() == partial.variant[0]


def test_player_sweep_runs_from_2_to_8_with_auto_decks(outputs):
    table = outputs["players"].table
    assert sorted(table.players.unique()) == list(range(2, 9))
    assert (table[table.players >= 5].decks == 2).all() and (table[table.players <= 4].decks == 1).all()


def test_notebook_size_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv(experiments.NOTEBOOK_GAMES_ENV, raising=False)
    assert experiments.notebook_games() == experiments.NOTEBOOK_DEFAULT_GAMES
    monkeypatch.setenv(experiments.NOTEBOOK_GAMES_ENV, "full")
    assert experiments.notebook_games() is None
    monkeypatch.setenv(experiments.NOTEBOOK_GAMES_ENV, "1234")
    assert experiments.notebook_games() == 1234
    monkeypatch.setenv(experiments.NOTEBOOK_GAMES_ENV, "lots")
    with pytest.raises(ValueError, match="GOLFSIM_NOTEBOOK_GAMES"):
        experiments.notebook_games()


# ---------------------------------------------------------------- the command
def test_cli_unknown_experiment_is_one_line_listing_them_and_exit_2():
    result = runner.invoke(app, ["experiment", "nope"])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    for name in ("all", "ladder", "tips", "variants", "players", "benchmarks"):
        assert name in result.stderr
    assert "Traceback" not in result.output


def test_cli_bad_games_is_one_line_and_exit_2():
    result = runner.invoke(app, ["experiment", "tips", "--games", "0"])
    assert result.exit_code == 2 and "games must be" in result.stderr


def test_cli_runs_one_experiment_and_reports_where_it_wrote(tmp_path):
    result = runner.invoke(app, ["experiment", "tips", "--games", "30", "--seed", "2", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert str(tmp_path / "tips") in result.stdout and "verdict" in result.stdout
    assert {"table.csv", "table.md", "config.json", "figure.png"} <= {p.name for p in (tmp_path / "tips").iterdir()}
    config = json.loads((tmp_path / "tips" / "config.json").read_text())
    assert config["seed"] == 2 and config["games_per_cell"] == 30
    assert config["command"].startswith("golfsim experiment tips")


@pytest.mark.slow
def test_cli_all_runs_ladder_tips_variants_players_luck_and_house_but_not_benchmarks(tmp_path):
    result = runner.invoke(app, ["experiment", "all", "--games", "20", "--out", str(tmp_path), "--threads", "1"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(ALL)
    for name in ALL:
        assert (tmp_path / name / "table.csv").exists() and (tmp_path / name / "figure.png").exists()


# ---------------------------------------------------------------- committed results and the code that made them
@pytest.mark.parametrize("name", ALL)
def test_committed_results_come_from_code_that_plays_exactly_like_this_code(name):
    config = json.loads((RESULTS / name / "config.json").read_text())
    assert config["behaviour_fingerprint"] == behaviour_fingerprint(), (
        f"results/{name} was made by code that plays differently: regenerate it with "
        f"'golfsim experiment {name} --overwrite' from the repository root")


def test_the_fingerprint_changes_when_an_agent_plays_differently_and_only_then():
    base = (("greedy,random", {}), ("ev,pair-builder", {"end": "one_last_turn"}))
    changed_agent = (("greedy:take_gain=4,random", {}), ("ev,pair-builder", {"end": "one_last_turn"}))
    changed_rule = (("greedy,random", {}), ("ev,pair-builder", {"end": "immediate"}))
    first = fingerprint(base, games=30)
    assert fingerprint(base, games=30) == first
    assert fingerprint(changed_agent, games=30) != first
    assert fingerprint(changed_rule, games=30) != first


def test_a_result_written_before_requests_were_stored_is_read_from_its_command():
    assert recorded_request({"command": "golfsim experiment tips"}) == {"experiment": "tips", "games": None,
                                                                       "seed": 0}
    assert recorded_request({"command": "golfsim experiment ladder --games 50 --seed 3"}) == {
        "experiment": "ladder", "games": 50, "seed": 3}
    assert recorded_request({"command": "python my_script.py"}) is None


def test_the_variants_readme_names_the_option_that_moves_scores_most():
    import re

    table = pd.read_csv(RESULTS / "variants" / "table.csv")
    ev = table[table["agent"] == "ev"].set_index("variant")["mean_deal_score"]
    change = (ev - ev["default"]).drop("default")
    most = change.abs().idxmax()
    option, value = most.split("=")
    readme = (RESULTS / "variants" / "README.md").read_text()
    sentence = re.search(r"\*\*Most\.\*\* (.*?)\n-", readme, re.S)
    assert sentence, "the README does not say which option moves scores most"
    text = " ".join(sentence[1].split())
    assert text.startswith(f"`{option}={value}` moves scores most") and f"{abs(change[most]):.2f}" in text, text


@pytest.mark.parametrize("section", ["search", "learned"])
def test_the_ladders_searching_sections_labels_do_not_overlap(section):
    from golfsim.experiments import ladder

    table = pd.read_csv(RESULTS / "ladder" / "table.csv")
    config = json.loads((RESULTS / "ladder" / "config.json").read_text())
    fig = ladder.plot_search(table[table.section == ladder.SECTIONS[1 if section == "search" else 2]], config,
                             section)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    line = renderer.points_to_pixels(8)  # the labels' font size: two labels are told apart by half a line's gap
    for ax in fig.axes[::2]:  # the score panels carry the agents' labels
        boxes = sorted((t.get_window_extent(renderer) for t in ax.get_yticklabels()), key=lambda b: b.y0)
        for lower, upper in zip(boxes[:-1], boxes[1:], strict=True):
            assert upper.y0 - lower.y1 >= line / 2, [t.get_text() for t in ax.get_yticklabels()]
