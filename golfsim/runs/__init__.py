"""What every long run shares.

- [`golfsim.runs.tasks`][]: plan, independent tasks, reduce, on a thread pool, processes or a Dask cluster;
- [`golfsim.runs.task_threads`][]: the default pool, daemon threads that a stuck task cannot keep alive;
- [`golfsim.runs.experiment`][]: the interface an experiment declares, and how ``golfsim experiment`` finds them;
- [`golfsim.runs.outdir`][]: writing a result directory all at once;
- [`golfsim.runs.claims`][]: which result a directory may receive (only a run of the same request replaces one);
- [`golfsim.runs.complete_result`][]: never replacing a complete result with a partial one;
- [`golfsim.runs.interrupts`][]: Ctrl-C and SIGTERM for every long run, and the end of a stopped run;
- [`golfsim.runs.stops_after_work`][]: a stop that arrives after the work is done keeps the work;
- [`golfsim.runs.limits`][]: how big a plan may be, refused before it starts;
- [`golfsim.runs.fingerprint`][]: provenance, a fingerprint of what decides every result;
- [`golfsim.runs.progress`][]: the progress bar of the long commands;
- `golfsim.runs.compile_notice`: what is compiling, on stderr, while Numba compiles;
- `golfsim.runs.figures`: titles, captions and labels every figure uses.

Files written whole or not at all are [`golfsim.atomic`][], a leaf below every subsystem.
"""
