"""The scaling experiment (experiments/benchmarks.py) writes its promised files at a tiny size."""

import json

import pandas as pd

from golfsim.experiments import benchmarks


def test_benchmarks_experiment_writes_table_figure_and_config(tmp_path):
    output = benchmarks.run(games=3000, repeats=1)
    written = output.write(tmp_path)
    assert {p.name for p in written} == {"table.csv", "table.md", "config.json", "figure.png"}
    table = pd.read_csv(tmp_path / "table.csv")
    assert set(table["measure"]) == {"threads", "batch size", "players"}
    assert (table["deals_per_second"] > 0).all()
    assert set(table["players"]) == set(benchmarks.PLAYER_COUNTS)
    threads = table[table.measure == "threads"]
    assert (threads[threads.threads == 1]["speedup_vs_1_thread"] == 1.0).all()
    config = json.loads((tmp_path / "config.json").read_text())
    assert config["deals_per_point"] == 3000 and config["golfsim_version"]
