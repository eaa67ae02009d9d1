"""Writing a result directory all at once: a Ctrl-C while writing leaves no half-written directory.

Files are written into a hidden temporary directory next to the target; only when all of them are written are they
moved into place (a rename of the whole directory when the target does not exist, else one atomic rename per
file), with Ctrl-C and SIGTERM held back during those renames ([`golfsim.runs.interrupts.held_signals`][]).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from golfsim.atomic import process_umask, refuse_special, replace_file
from golfsim.runs.interrupts import held_signals


def write_directory(target: Path | str, fill: Callable[[Path], list[Path]]) -> list[Path]:
    """Call ``fill(directory)`` on a temporary directory, then move what it wrote into ``target``.

    Files already in ``target`` that ``fill`` did not write are left alone. If ``fill`` fails or is interrupted,
    the temporary directory is removed and ``target`` is untouched.

    Returns
    -------
    list of pathlib.Path
        The paths ``fill`` returned, moved under ``target``.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".writing", dir=target.parent))
    os.chmod(staging, 0o777 & ~process_umask())  # mkdtemp's 0700 would become the result folder's mode
    try:
        written = fill(staging)
        with held_signals():
            if not target.exists():
                os.rename(staging, target)
            else:
                for path in staging.iterdir():  # every target checked before any is replaced
                    if path.is_file():
                        refuse_special(target / path.name)
                for path in staging.iterdir():
                    os.replace(path, target / path.name)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return [target / Path(p).relative_to(staging) for p in written]


def check_out_dir(path: Path, option: str = "--out") -> None:
    """Refuse, before any work, an output directory that is an existing file or cannot be written.

    A directory that does not exist yet is probed at its nearest existing parent (a temporary file is created and
    removed there), so a read-only place is caught even for a user whom permission bits do not stop.
    """
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is an existing file; give a directory")
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"{option} {str(path)!r} cannot be made: {str(probe)!r} is a file, not a directory")
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as e:
        raise ValueError(f"{option} {str(path)!r} is not writable: {e.strerror or e} in {str(probe)!r}") from None


def write_file(path: Path | str, write: Callable[[Path], object]) -> Path:
    """Call ``write(temporary_path)`` on a hidden file next to ``path``, then rename it onto ``path``: a reader
    never sees half a file, and an interrupted write leaves only the hidden ``.<name>.tmp`` (which a later run may
    remove); a write that fails (a full disk) removes it.

    Only a regular file or a missing ``path`` is replaced: a character device is written through, and a directory,
    FIFO, socket or block device is refused (``ValueError``, [`golfsim.atomic.refuse_special`][])."""
    path = Path(path)
    if refuse_special(path) == "character device":
        write(path)
        return path
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        write(tmp)
        replace_file(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return path
