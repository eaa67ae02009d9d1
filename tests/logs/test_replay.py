"""``golfsim replay``: a logged deal move by move and a logged game's scorecard, run as a real command."""


import pandas as pd
import pytest

from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate
from golfsim.logs.trace import log_games
from tests.support import run_golfsim


def golfsim(*args):
    return run_golfsim(*args, timeout=600)


@pytest.mark.slow
def test_scorecard_and_deal_of_a_logged_game(tmp_path):
    rules = Rules(holes=3)
    path = log_games(["ev", "greedy"], tmp_path / "log.parquet", rules, games=4, seed=6)
    sim = simulate(["ev", "greedy"], rules, games=4, seed=6)
    card = golfsim("replay", path, "--game", 2)
    assert card.returncode == 0, card.stderr
    total = next(line for line in card.stdout.splitlines() if line.split()[0] == "total").split()
    assert [int(v) for v in total[1:]] == sim.players[sim.players["game"] == 2]["total"].tolist()
    # holes count from 1, as on the scorecard: hole 2 is the simulator's hole index 1
    deal = golfsim("replay", path, "--game", 2, "--hole", 2)
    assert deal.returncode == 0, deal.stderr
    lines = deal.stdout.splitlines()
    assert lines[0].startswith("game 2, hole 2 of 3 (") and "greedy (seat 1) moves first" in lines[0]
    row = sim.deals[(sim.deals["game"] == 2) & (sim.deals["hole"] == 1)].iloc[0]
    card_row = next(line for line in card.stdout.splitlines() if line.split()[0] == "2").split()
    assert [int(v) for v in card_row[1:]] == [row["score_0"], row["score_1"]]
    assert lines[-1].endswith(f"ev (seat 0) {row['score_0']}, greedy (seat 1) {row['score_1']}")
    moves = lines[1:-1]
    assert len(moves) % 2 == 0 and all("0: " in layout and "discard" in layout for layout in moves[1::2])
    assert all("(seat 0)" in move or "(seat 1)" in move for move in moves[0::2])


@pytest.mark.slow
def test_bad_logs_and_missing_games_get_one_line_and_exit_2(tmp_path):
    path = log_games(["random", "random"], tmp_path / "log.parquet", Rules(holes=2), games=2, seed=1)
    foreign = tmp_path / "foreign.parquet"
    pd.DataFrame({"x": [1]}).to_parquet(foreign)
    garbage = tmp_path / "garbage.parquet"
    garbage.write_bytes(b"\x00" * 100)
    cases = [
        ((foreign,), "not a golfsim decision log"),
        ((garbage,), "not a readable Parquet file"),
        ((tmp_path / "none.parquet",), "does not exist"),
        ((path, "--game", 5), "game 5 is not in"),
        ((path, "--game", 1, "--hole", 3), "hole 3 is not in game 1"),
        ((path, "--game", 1, "--hole", 0), "holes count from 1 (1 to 2)"),
    ]
    for args, message in cases:
        done = golfsim("replay", *args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.slow
def test_the_one_hole_of_a_one_hole_game_is_hole_1(tmp_path):
    path = log_games(["greedy", "random"], tmp_path / "log.parquet", Rules(holes=1), games=1, seed=2)
    card = golfsim("replay", path)
    assert card.returncode == 0, card.stderr
    assert [line.split()[0] for line in card.stdout.splitlines()[2:]] == ["1", "total"]
    deal = golfsim("replay", path, "--hole", 1)
    assert deal.returncode == 0, deal.stderr
    assert deal.stdout.startswith("game 0, hole 1 of 1 (")


def edited_copy(path, to, meta_change=None, table_change=None):
    """A copy of the log at ``path`` with its golfsim metadata or its rows changed, as a hand edit would."""
    import json

    import pyarrow.parquet as pq

    from golfsim.logs.trace import META_KEY

    table = pq.read_table(path)
    meta = json.loads(pq.read_metadata(path).metadata[META_KEY.encode()])
    if meta_change:
        meta_change(meta)
    if table_change:
        table = table_change(table)
    table = table.replace_schema_metadata({META_KEY: json.dumps(meta)})
    pq.write_table(table, to)
    return to


def add_one_to_a_score(table):
    import pyarrow as pa

    scores = table.column("score_0").to_pylist()
    end = next(i for i, v in enumerate(scores) if v is not None)
    scores[end] += 1
    return table.set_column(table.schema.get_field_index("score_0"), "score_0", pa.array(scores, pa.int16()))


@pytest.mark.slow
def test_a_log_whose_metadata_or_scores_were_edited_is_refused_in_one_line(tmp_path):
    path = log_games(["greedy", "random"], tmp_path / "log.parquet", Rules(holes=2), games=2, seed=3)
    assert golfsim("replay", path).returncode == 0
    assert golfsim("replay", edited_copy(path, tmp_path / "same.parquet")).returncode == 0  # a copy is no edit

    def set_holes(n):
        return lambda meta: meta["rules"].__setitem__("holes", n)

    edits = {
        "no_seatings": edited_copy(path, tmp_path / "a.parquet", meta_change=lambda meta: meta.pop("seatings")),
        "more_holes": edited_copy(path, tmp_path / "b.parquet", meta_change=set_holes(3)),
        "fewer_holes": edited_copy(path, tmp_path / "c.parquet", meta_change=set_holes(1)),
        "score": edited_copy(path, tmp_path / "d.parquet", table_change=add_one_to_a_score),
    }
    for what, edited in edits.items():
        for args in ((edited,), (edited, "--hole", 1)):
            done = golfsim("replay", *args)
            assert done.returncode == 2, (what, args, done.stdout)
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and "edited" in lines[0] and "Traceback" not in done.stderr, (what, done.stderr)
