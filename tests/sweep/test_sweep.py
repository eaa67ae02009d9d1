"""golfsim.sweep.grid: a grid of duplicate-deal tournaments from a TOML description, kept on disk cell by cell.

The command line (errors, Ctrl-C and SIGTERM sent to a real process, resuming) is tested in test_cli_sweep.py.
"""

import json

import pandas as pd
import pytest

from golfsim.core.rules import Rules
from golfsim.sweep.grid import cell_seed, plan_sweep, run_sweep
from golfsim.tournament import run_tournament

# Two pools: one sweeps ev's watch_discard through {watch}, the other does not use it.
TWO_POOLS = """
[sweep]
seed = 5
games = 12

[rules]
holes = 2

[axes]
players = [2, 3]
end = ["immediate", "one_last_turn"]
watch = [0, 0.5]

[pools]
tipped = ["ev:watch_discard={watch}", "greedy", "random"]
plain = ["greedy", "pair-builder", "random"]
"""


def config(tmp_path, text, name="grid.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def small(players="[2]", end='["immediate"]', watch="[0, 0.5]", games=10, extra=""):
    return f"""
[sweep]
seed = 3
games = {games}
{extra}
[rules]
holes = 1

[axes]
players = {players}
end = {end}
watch = {watch}

[pools]
field = ["greedy:take_gain={{watch}}", "random"]
"""


def test_the_grid_is_every_combination_and_a_parameter_axis_only_applies_to_the_pools_that_use_it(tmp_path):
    plan = plan_sweep(config(tmp_path, TWO_POOLS))
    tipped = [c for c in plan.cells if c.pool == "tipped"]
    plain = [c for c in plan.cells if c.pool == "plain"]
    assert len(tipped) == 2 * 2 * 2 and len(plain) == 2 * 2
    assert all("watch" not in c.values for c in plain)
    assert {c.agents[0] for c in tipped} == {"ev:watch_discard=0", "ev:watch_discard=0.5"}
    first = plan.cells[0]
    assert first.values == {"players": 2, "end": "immediate", "watch": 0, "pool": "tipped"}
    assert first.rules == Rules(players=2, end="immediate", holes=2)
    assert {c.rules.players for c in plan.cells} == {2, 3}


def test_without_players_a_cell_seats_its_whole_pool(tmp_path):
    text = TWO_POOLS.replace("players = [2, 3]\n", "")
    plan = plan_sweep(config(tmp_path, text))
    assert {c.rules.players for c in plan.cells} == {3}


def test_a_cell_seed_depends_on_the_sweep_seed_and_the_cell_rules_not_on_the_grid(tmp_path):
    plan = plan_sweep(config(tmp_path, TWO_POOLS))
    wider = plan_sweep(config(tmp_path, TWO_POOLS.replace('end = ["immediate", "one_last_turn"]',
                                                          'end = ["one_last_turn", "immediate"]')
                              .replace("players = [2, 3]", "players = [3, 2]")
                              .replace("watch = [0, 0.5]", "watch = [0.25, 0, 0.5]"), "wider.toml"))
    assert len(wider.cells) == 2 * 2 * 3 + 2 * 2
    by_id = {c.cell_id: c for c in wider.cells}
    for cell in plan.cells:  # the same cells at other grid positions: the same identity and seed
        assert by_id[cell.cell_id].seed == cell.seed
        assert by_id[cell.cell_id].agents == cell.agents
    assert plan.cells[0].seed == cell_seed(5, Rules(players=2, holes=2))
    # cells with the same rules are dealt the same cards, whatever the pool
    same_rules = [c for c in plan.cells if c.rules == plan.cells[0].rules]
    assert len(same_rules) == 3 and len({c.seed for c in same_rules}) == 1
    assert len({c.seed for c in plan.cells}) == 4  # four rule sets
    assert cell_seed(6, Rules(players=2, holes=2)) != plan.cells[0].seed


def test_each_row_is_the_cells_tournament(tmp_path):
    res = run_sweep(config(tmp_path, small()), out=tmp_path / "out")
    assert res.cells_total == res.cells_complete == res.cells_played == 2 and not res.partial
    plan = plan_sweep(tmp_path / "grid.toml")
    for cell in plan.cells:
        direct = run_tournament(list(cell.agents), cell.rules, 10, cell.seed).standings.set_index("agent")
        rows = res.table[res.table["cell_id"] == cell.cell_id].set_index("agent")
        assert list(rows.index) == list(cell.agents)
        for column in ("mean_score", "mean_score_low", "mean_score_high", "win_rate", "win_rate_low",
                       "win_rate_high", "games", "deal_sets", "rank"):
            assert rows[column].tolist() == direct.loc[rows.index, column].tolist(), column
        assert (rows["seed"] == cell.seed).all()
    table = res.table
    assert table["pool_entry"].tolist() == ["greedy:take_gain={watch}", "random"] * 2
    assert table["watch"].tolist() == [0.0, 0.0, 0.5, 0.5]
    assert (table["holes"] == 1).all() and (table["players"] == 2).all() and (table["end"] == "immediate").all()
    assert table.equals(pd.read_parquet(tmp_path / "out" / "table.parquet"))
    assert (tmp_path / "out" / "table.csv").read_text().splitlines()[0].startswith("cell,cell_id,players,decks,")
    assert sorted(p.name for p in (tmp_path / "out").glob("*.png")) == ["score_vs_watch.png"]
    assert len(list((tmp_path / "out" / "cells").glob("*.json"))) == 2


def test_adding_a_value_to_an_axis_leaves_the_other_cells_numbers_unchanged(tmp_path):
    before = run_sweep(config(tmp_path, small(watch="[0.5]")), out=tmp_path / "a").table
    after = run_sweep(config(tmp_path, small(watch="[0, 0.5, 2]"), "more.toml"), out=tmp_path / "b").table
    kept = after[after["watch"] == 0.5].drop(columns="cell").reset_index(drop=True)
    assert kept.equals(before.drop(columns="cell"))
    assert len(after) == 3 * len(before)


def test_config_json_records_the_request_grid_fingerprint_and_complete_cells(tmp_path):
    from golfsim.runs.fingerprint import behaviour_fingerprint

    run_sweep(config(tmp_path, small()), out=tmp_path / "out")
    recorded = json.loads((tmp_path / "out" / "config.json").read_text())
    assert recorded["request"]["sweep"] == {"name": "grid", "seed": 3, "games": 10, "confidence": 0.95,
                                            "impossible": "error"}
    assert recorded["request"]["axes"] == {"players": [2], "end": ["immediate"], "watch": [0, 0.5],
                                           "pool": ["field"]}
    assert recorded["behaviour_fingerprint"] == behaviour_fingerprint()
    assert recorded["status"] == "complete" and recorded["partial"] is False
    assert [c["complete"] for c in recorded["grid"]] == [True, True]
    assert [c["agents"] for c in recorded["grid"]] == [["greedy:take_gain=0", "random"],
                                                      ["greedy:take_gain=0.5", "random"]]
    assert recorded["config_text"] == (tmp_path / "grid.toml").read_text()


def test_a_rerun_plays_only_the_missing_cells_and_gives_the_same_table(tmp_path):
    path = config(tmp_path, small(watch="[0, 0.5, 1]"))
    first = run_sweep(path, out=tmp_path / "out")
    csv = (tmp_path / "out" / "table.csv").read_bytes()
    again = run_sweep(path, out=tmp_path / "out")
    assert again.cells_played == 0 and again.table.equals(first.table)
    lost = first.table["cell_id"].iloc[-1]
    (tmp_path / "out" / "cells" / f"{lost}.json").unlink()
    (tmp_path / "out" / "table.csv").unlink()
    resumed = run_sweep(path, out=tmp_path / "out")
    assert resumed.cells_played == 1 and resumed.cells_complete == 3
    assert (tmp_path / "out" / "table.csv").read_bytes() == csv


def test_a_changed_request_into_the_same_directory_is_refused_unless_overwrite(tmp_path):
    run_sweep(config(tmp_path, small()), out=tmp_path / "out")
    changed = config(tmp_path, small(games=11))
    with pytest.raises(ValueError, match=r"different request \(\[sweep\] games differ\).*--overwrite"):
        run_sweep(changed, out=tmp_path / "out")
    res = run_sweep(changed, out=tmp_path / "out", overwrite=True)
    assert res.cells_played == 2 and (res.table["deal_sets"] == 11).all()
    cells = [json.loads(p.read_text()) for p in (tmp_path / "out" / "cells").glob("*.json")]
    assert len(cells) == 2 and {c["games"] for c in cells} == {11}


def test_cells_made_by_code_that_plays_differently_are_not_reused(tmp_path):
    path = config(tmp_path, small())
    run_sweep(path, out=tmp_path / "out")
    recorded = json.loads((tmp_path / "out" / "config.json").read_text())
    recorded["behaviour_fingerprint"] = "0123456789abcdef"
    (tmp_path / "out" / "config.json").write_text(json.dumps(recorded))
    with pytest.raises(ValueError, match="plays differently"):
        run_sweep(path, out=tmp_path / "out")


def test_a_directory_of_other_files_is_not_taken_over(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not a sweep"):
        run_sweep(config(tmp_path, small()), out=tmp_path / "out")


def test_impossible_cells_are_refused_by_name_or_skipped_with_a_note(tmp_path):
    text = small(players="[2, 9]", extra="").replace("holes = 1", "holes = 1\ndecks = 1")
    with pytest.raises(ValueError, match=r"cell \(players=9, end=immediate, watch=0, pool=field\) cannot be "
                                         r"played: 9 players need at least 55 cards.*impossible = \"skip\""):
        plan_sweep(config(tmp_path, text))
    # a pool of two agents cannot fill three seats in a round robin
    skipping = small(players="[2, 3]", extra='impossible = "skip"')
    res = run_sweep(config(tmp_path, skipping, "skip.toml"), out=tmp_path / "out")
    assert res.cells_total == 2 and set(res.table["players"]) == {2}
    assert [s["cell"] for s in res.skipped] == ["players=3, end=immediate, watch=0, pool=field",
                                                "players=3, end=immediate, watch=0.5, pool=field"]
    assert "cannot fill a table of 3 seats" in res.skipped[0]["reason"]
    assert json.loads((tmp_path / "out" / "config.json").read_text())["skipped"] == res.skipped


def test_a_whole_agent_can_be_an_axis_value(tmp_path):
    text = """
[sweep]
games = 4
[axes]
bot = ["ev", "pair-builder"]
[pools]
duel = ["{bot}", "greedy"]
"""
    plan = plan_sweep(config(tmp_path, text))
    assert [c.agents for c in plan.cells] == [("ev", "greedy"), ("pair-builder", "greedy")]
    assert [c.rules.players for c in plan.cells] == [2, 2]


def test_a_text_axis_is_empty_for_the_pools_that_do_not_use_it(tmp_path):
    text = """
[sweep]
games = 3
[rules]
holes = 1
[axes]
bot = ["greedy", "pair-builder"]
[pools]
duel = ["{bot}", "random"]
trio = ["greedy", "pair-builder", "random"]
"""
    res = run_sweep(config(tmp_path, text), out=tmp_path / "out")
    assert res.table["bot"].fillna("").tolist() == ["greedy", "greedy", "pair-builder", "pair-builder", "", "", ""]
    csv = pd.read_csv(tmp_path / "out" / "table.csv", keep_default_na=False)
    assert csv["bot"].tolist() == ["greedy", "greedy", "pair-builder", "pair-builder", "", "", ""]
    assert sorted(p.name for p in (tmp_path / "out").glob("*.png")) == ["score_vs_bot.png", "score_vs_pool.png"]


def test_the_parsed_description_works_like_the_file(tmp_path):
    import tomllib

    text = small()
    from_file = plan_sweep(config(tmp_path, text))
    from_dict = plan_sweep(tomllib.loads(text.replace("seed = 3", 'seed = 3\nname = "grid"')))
    assert [c.cell_id for c in from_dict.cells] == [c.cell_id for c in from_file.cells]
    assert [c.seed for c in from_dict.cells] == [c.seed for c in from_file.cells]


BAD = {
    "unknown section": ("[sweeps]\ngames = 1\n", "unknown section [sweeps]"),
    "unknown sweep key": (small(extra="gmaes = 3"), "unknown key 'gmaes' in [sweep]"),
    "no games": (small().replace("games = 10\n", ""), "[sweep] needs games"),
    "zero games": (small(games=0), "games in [sweep] must be a whole number of at least 1, got 0"),
    "fractional games": (small(games=2.5), "got 2.5"),
    "unknown rule option": (small().replace("holes = 1", "jokerz = 'minus2'"),
                            "unknown key 'jokerz' in [rules]"),
    "bad rule value": (small(end='["immediate", "sometimes"]'), "[axes] end: end='sometimes' is not allowed"),
    "unknown axis": (small().replace("watch = [0, 0.5]", "watch = [0, 0.5]\nwach = [1]"),
                     "unknown axis 'wach'"),
    "placeholder without axis": (small().replace("watch = [0, 0.5]", ""), "uses {watch}, but [axes] has no watch"),
    "unknown agent": (small().replace('"random"]', '"randum"]'), "unknown agent 'randum'"),
    "unknown parameter": (small().replace("take_gain", "take_gian"), "has no parameter 'take_gian'"),
    "parameter value not a number": (small(watch='["high"]'), "parameter take_gain needs a number"),
    "swept and fixed": (small().replace("holes = 1", "end = 'immediate'"), "both fixed in [rules] and swept"),
    "repeated value": (small(watch="[0, 0]"), "repeats a value"),
    "unknown pool": (small().replace("watch = [0, 0.5]", "watch = [0]\npool = ['feild']"),
                     "axis pool names 'feild'"),
    "pool of one": (small().replace(', "random"]', "]"), "needs at least two agents"),
    "placeholder with a format": (small().replace("{watch}", "{watch:.2f}"), "a placeholder is a plain axis name"),
    "dotted placeholder": (small().replace("{watch}", "{ev.watch}"), "a placeholder is a plain axis name"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_description_is_one_clear_error(tmp_path, case):
    text, fragment = BAD[case]
    with pytest.raises(ValueError) as error:
        plan_sweep(config(tmp_path, text))
    assert fragment in str(error.value)
    assert "\n" not in str(error.value)


def interrupting_tournament(monkeypatch, calls_before: int, inside: bool):
    """Ctrl-C (a real SIGINT to this process) at the start of tournament number ``calls_before + 1``: before it
    plays (as a run_tournament that raises on Ctrl-C would surface it) or inside, after its first block."""
    import os
    import signal

    import golfsim.tournament

    real = golfsim.tournament.run_tournament
    calls = []
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # a suite run as a background job ignores Ctrl-C
        signal.signal(signal.SIGINT, signal.default_int_handler)

    def run(*args, **kwargs):
        calls.append(1)
        if len(calls) == calls_before + 1:
            if not inside:
                os.kill(os.getpid(), signal.SIGINT)
            else:
                report = kwargs["progress"]

                def progress(done, total):
                    report(done, total)
                    os.kill(os.getpid(), signal.SIGINT)

                kwargs = {**kwargs, "progress": progress, "batch_size": 2}
        return real(*args, **kwargs)

    monkeypatch.setattr(golfsim.tournament, "run_tournament", run)


@pytest.mark.parametrize("inside", [False, True], ids=["between cells", "inside a cell"])
def test_ctrl_c_keeps_the_finished_cells_drops_the_unfinished_one_and_a_rerun_completes(tmp_path, monkeypatch,
                                                                                        inside):
    path = config(tmp_path, small(watch="[0, 0.5, 1]"))
    whole = run_sweep(path, out=tmp_path / "whole").table
    interrupting_tournament(monkeypatch, calls_before=1, inside=inside)
    res = run_sweep(path, out=tmp_path / "out")
    assert res.partial and res.cells_complete == res.cells_played == 1 and res.cells_total == 3
    assert len(list((tmp_path / "out" / "cells").glob("*.json"))) == 1
    assert res.table.equals(whole[whole["cell"] == 0])
    recorded = json.loads((tmp_path / "out" / "config.json").read_text())
    assert recorded["partial"] is True and [c["complete"] for c in recorded["grid"]] == [True, False, False]
    monkeypatch.undo()
    resumed = run_sweep(path, out=tmp_path / "out")
    assert resumed.cells_played == 2 and not resumed.partial
    assert resumed.table.equals(whole)


def test_the_table_does_not_depend_on_the_thread_count(tmp_path):
    path = config(tmp_path, small(players="[2, 3]").replace(
        '"random"]', '"random", "pair-builder"]'))
    one = run_sweep(path, out=tmp_path / "one", threads=1).table
    two = run_sweep(path, out=tmp_path / "two", threads=2).table
    assert len(one) == 2 * 3 + 2 * 3 and one.equals(two)


@pytest.mark.parametrize("edit", ["older version", "other statistics"])
def test_cells_whose_intervals_other_code_computed_are_not_reused(tmp_path, edit):
    path = config(tmp_path, small())
    run_sweep(path, out=tmp_path / "out")
    recorded = json.loads((tmp_path / "out" / "config.json").read_text())
    if edit == "older version":  # a folder written before the standings fingerprint existed
        del recorded["standings_fingerprint"]
    else:
        recorded["standings_fingerprint"] = "0123456789abcdef"
    (tmp_path / "out" / "config.json").write_text(json.dumps(recorded))
    with pytest.raises(ValueError, match="standings and intervals were computed by other code"):
        run_sweep(path, out=tmp_path / "out")
    run_sweep(path, out=tmp_path / "out", overwrite=True)  # the way out the message names
