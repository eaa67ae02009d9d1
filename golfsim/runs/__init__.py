"""What every long run shares: tasks on an executor (:mod:`golfsim.runs.tasks`), result directories
(:mod:`golfsim.runs.outdir`), provenance (:mod:`golfsim.runs.fingerprint`) and progress bars
(:mod:`golfsim.runs.progress`).
"""
