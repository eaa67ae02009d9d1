"""Speed measurements, kept out of the wheel: ``python -m benchmarks.bench_game``, ``python -m benchmarks.bench_tasks``,
``python -m benchmarks.bench_interop`` from the repository root. ``golfsim bench`` is the installed benchmark.
"""
