"""A file written under a temporary name beside its target and renamed into place when complete, under a lock.

[`AtomicFile`][golfsim.atomic.AtomicFile] is for files written in a stream over a long run (decision logs): a run killed
part way leaves the previous file untouched and only a hidden ``.NAME.*.writing`` file beside it, never a torn target; a
second run that asks for the same target while the first writes it is refused at once (an advisory ``flock`` on a
hidden lock file, released by the system when a process dies, so a killed run never leaves a stale lock).

Only a regular file (or a path that does not exist yet) is ever replaced. A character device such as ``/dev/null``
is written through, as a person who writes ``--log /dev/null`` means (discard it; ``/dev/full`` then fails with
``ENOSPC`` in one line); a FIFO, socket, directory or block device is refused in one line before any work
([`target_kind`][golfsim.atomic.target_kind]). A finished file gets the permissions of the process umask, like every
other result. [`replace_file`][golfsim.atomic.replace_file] is the one rename every writer uses.
[`os_error_text`][golfsim.atomic.os_error_text] turns an ``OSError`` into the words of one error line, naming ``ENOSPC``
and the like.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory lock, the rename still keeps the target whole
    fcntl = None


def os_error_text(err: OSError) -> str:
    """``"No space left on device (ENOSPC)"``: the error's own words and, when it has one, its errno's name."""
    code = getattr(err, "errno", None)
    text = err.strerror or " ".join(str(err).split()) or type(err).__name__
    if code is None and "No space left on device" in text:
        code = errno.ENOSPC
    name = errno.errorcode.get(code) if code is not None else None
    return f"{text} ({name})" if name and name not in text else text


def process_umask() -> int:
    """The process umask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_KINDS = ((stat.S_ISREG, "regular file"), (stat.S_ISCHR, "character device"), (stat.S_ISDIR, "directory"),
          (stat.S_ISFIFO, "FIFO"), (stat.S_ISSOCK, "socket"), (stat.S_ISBLK, "block device"))


def target_kind(target) -> str:
    """What ``target`` is, following symbolic links: ``"missing"``, ``"regular file"``, ``"character device"``,
    ``"directory"``, ``"FIFO"``, ``"socket"``, ``"block device"`` or ``"special file"``."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError:
        return "missing"  # unreadable parent or a dangling link: the write itself reports the cause in one line
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "special file"


def refuse_special(target, what: str = "the file") -> str:
    """``target``'s kind ([`target_kind`][golfsim.atomic.target_kind]) when it may be written; ``ValueError`` (one line)
    when it is a directory, FIFO, socket, block device or other special file."""
    kind = target_kind(target)
    if kind not in ("missing", "regular file", "character device"):
        raise ValueError(f"cannot write {what} {target}: it is a {kind}, not a regular file; give a file path")
    return kind


def replace_file(temp, target, what: str = "the file") -> None:
    """Give the finished temporary file ``temp`` the umask's permissions and rename it onto ``target``: only over a
    regular file or a missing path (``ValueError`` otherwise, and ``temp`` is left for the caller to remove)."""
    kind = refuse_special(target, what)
    if kind == "character device":
        raise ValueError(f"cannot write {what} {target}: it is a character device; it is written through, "
                         "never replaced")
    os.chmod(temp, 0o666 & ~process_umask())
    os.replace(temp, target)


class TargetBusy(ValueError):
    """Another process is writing the same target now."""


class AtomicFile:
    """A temporary path to write ``target`` through; [`commit`][golfsim.atomic.AtomicFile.commit] renames it into place,
    [`abandon`][golfsim.atomic.AtomicFile.abandon] drops it.

    When ``target`` is a character device (``/dev/null``), `temp` is the device itself (`through` is
    true): it is written directly, [`commit`][golfsim.atomic.AtomicFile.commit] and
    [`abandon`][golfsim.atomic.AtomicFile.abandon] leave it alone, and no lock file is made.

    Parameters
    ----------
    target : path
        The file to write in the end (replaced by [`commit`][golfsim.atomic.AtomicFile.commit] if it exists).
    what : str
        What the file is, for error messages (``"the decision log"``).

    Raises
    ------
    TargetBusy
        When another process holds ``target``'s lock.
    ValueError
        When the temporary file cannot be made (one line with the cause, e.g. a read-only or full directory), or
        ``target`` is a directory, FIFO, socket or block device.
    """

    def __init__(self, target, what: str = "the file"):
        self.target = Path(target)
        self.what = what
        directory = self.target.parent if str(self.target.parent) else Path(".")
        self._lock = None
        self.through = refuse_special(self.target, what) == "character device"
        if self.through:
            self.temp = self.target
            return
        self._lock_path = directory / f".{self.target.name}.lock"
        try:
            if fcntl is not None:
                self._lock = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o644)
                try:
                    fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(self._lock)
                    self._lock = None
                    raise TargetBusy(f"another run is writing {what} {self.target} now; wait for it or give "
                                     "another path") from None
            fd, temp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".writing", dir=directory)
            os.close(fd)
        except OSError as err:
            self._unlock()
            raise ValueError(f"cannot write {what} {self.target}: {os_error_text(err)}") from None
        self.temp = Path(temp)

    def commit(self) -> None:
        """Move the finished temporary file onto the target (atomic on one filesystem) and release the lock."""
        if self.through:
            return
        try:
            replace_file(self.temp, self.target, self.what)
        except ValueError:
            self.abandon()
            raise
        except OSError as err:
            self.abandon()
            raise ValueError(f"cannot write {self.what} {self.target}: {os_error_text(err)}") from None
        self._unlock()

    def abandon(self) -> None:
        """Remove the temporary file, leaving the target as it was, and release the lock."""
        if self.through:
            return
        with contextlib.suppress(OSError):
            self.temp.unlink()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            with contextlib.suppress(OSError):
                self._lock_path.unlink()
            os.close(self._lock)
            self._lock = None


PROBE_BYTES = 1 << 18
"""Bytes [`check_writable`][golfsim.atomic.check_writable] writes and removes: more than a saved game takes, so a full
disk shows up first."""


def check_writable(target, what: str = "the file", option: str = "") -> None:
    """Refuse, before any work, a target that cannot be written: its directory missing or read-only, the target a
    directory, FIFO, socket or block device, another run writing it, or no room for
    [`PROBE_BYTES`][golfsim.atomic.PROBE_BYTES] (written to a temporary file beside it, synced and removed). A character
    device is only opened for writing.

    Raises
    ------
    ValueError
        One line naming the target (and ``option``) and the cause, e.g. ``No space left on device (ENOSPC)``.
    """
    label = f"{option} {target}" if option else str(target)
    try:
        probe = AtomicFile(target, what)
    except ValueError as err:
        raise ValueError(f"{label}: {err}") from None
    if probe.through:
        try:
            os.close(os.open(probe.target, os.O_WRONLY | os.O_NONBLOCK))
        except OSError as err:
            raise ValueError(f"{label}: cannot write {what} there: {os_error_text(err)}") from None
        return
    try:
        with open(probe.temp, "wb") as f:
            f.write(b"\0" * PROBE_BYTES)
            f.flush()
            os.fsync(f.fileno())
    except OSError as err:
        raise ValueError(f"{label}: cannot write {what} there: {os_error_text(err)}") from None
    finally:
        probe.abandon()
