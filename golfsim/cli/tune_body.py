"""The body of ``golfsim tune``: plan the study, run it in optuna's SQLite storage in the output directory, print
the recommendation and write the files.

SIGTERM stops it as Ctrl-C does (exit 130, the finished trials kept); every finished trial is already committed to
``study.db``, so even a SIGKILL or a full disk while the other files are written loses none, and ``--resume``
continues the study.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

from rich.console import Console


def run(agent: str, against: str | None, params: str | None, trials: int, games: int, eval_games: int | None,
        seed: int, startup_trials: int, rules, threads: int | None, out_dir: Path | None, overwrite: bool,
        resume: bool, quiet: bool, err: Console) -> None:
    """Run ``golfsim tune``.

    Raises
    ------
    golfsim.runs.interrupts.RunStopped
        When Ctrl-C or SIGTERM stopped the study (its finished trials are written, marked partial).
    ValueError
        For bad input, a directory that holds another study, or an OSError while writing the files (one line,
        saying where the finished trials are kept).
    """
    from golfsim.agents.base import parse_agent
    from golfsim.runs.claims import check_target, default_root
    from golfsim.runs.interrupts import sigterm_as_ctrl_c
    from golfsim.runs.outdir import check_out_dir
    from golfsim.tuning import study as tuning
    from golfsim.tuning.storage import STUDY_FILE, study_lock

    for name, value in (("--trials", trials), ("--games", games), ("--eval-games", eval_games),
                        ("--startup-trials", startup_trials)):
        if value is not None and value < 1:
            raise ValueError(f"{name} must be a whole number of at least 1, got {value}")
    base = parse_agent(agent)
    directory = out_dir if out_dir is not None else default_root() / "tuning" / base.name
    check_out_dir(directory)
    request = tuning.plan_request(agent, against, rules, games, seed, params=params, eval_games=eval_games,
                                  startup_trials=startup_trials)
    if resume:
        if not (directory / STUDY_FILE).is_file() and not (directory / tuning.CONFIG_FILE).is_file():
            raise ValueError(f"nothing to resume in {str(directory)!r}: no study was written there")
    sigterm_as_ctrl_c()
    with study_lock(directory):  # a second tune on the folder is refused before it claims or replaces anything
        if not resume:
            check_target(directory, request, overwrite)
        return _tune_and_write(agent, against, rules, trials, games, seed, params, eval_games, startup_trials,
                               threads, quiet, directory, resume, err)


def report_text(lines: list[str], width: int | None) -> list[str]:
    """``golfsim tune``'s report for a terminal ``width`` columns wide: each line wrapped at spaces, never inside an
    agent string or a number, its continuation indented two more than the line; ``width`` None (a pipe): the lines
    as they are, one line for each, for tools that read them."""
    if width is None:
        return list(lines)
    wrapped = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip(" ")))
        wrapped += textwrap.wrap(line.lstrip(" "), width=max(20, width), initial_indent=indent,
                                 subsequent_indent=indent + "  ", break_long_words=False,
                                 break_on_hyphens=False) or [line]
    return wrapped


def _tune_and_write(agent, against, rules, trials, games, seed, params, eval_games, startup_trials, threads, quiet,
                    directory, resume, err) -> int:
    """The study and its files, while this run holds the folder (`golfsim.tuning.storage.study_lock`)."""
    from golfsim.cli.own_stdout import agents_print_to_stderr
    from golfsim.runs.interrupts import RunStopped
    from golfsim.tuning import study as tuning
    from golfsim.tuning.storage import STUDY_FILE

    try:
        with agents_print_to_stderr():
            result = tuning.tune(agent, against, rules, trials, games, seed, params=params, eval_games=eval_games,
                                 startup_trials=startup_trials, threads=threads, progress=not quiet,
                                 directory=directory, resume=resume)
    except OSError as e:
        raise ValueError(f"cannot write the study in {str(directory)!r}: {e.strerror or e}") from None
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    for line in report_text(result.lines(), width):
        print(line)
    try:
        written = ", ".join(p.name for p in result.write(directory))
    except OSError as e:
        raise ValueError(f"cannot write the study's files to {str(directory)!r} ({e.strerror or e}); its "
                         f"{len(result.trials)} finished trials are kept in {STUDY_FILE} there: free some room and "
                         "run the same command with --resume") from None
    if result.partial:
        raise RunStopped(f"[bold yellow]interrupted:[/] kept the {len(result.trials)} completed of {trials} trials "
                         f"in {directory} ({STUDY_FILE}, {written}; marked partial, not re-evaluated); --resume "
                         "continues the study")
    err.print(f"wrote {STUDY_FILE}, {written} to {directory} (optuna-dashboard sqlite:///{directory / STUDY_FILE} "
              "shows the study)", highlight=False, soft_wrap=True)
