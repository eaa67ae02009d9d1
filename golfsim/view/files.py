"""Writing a picture or a page: atomically (a temporary file renamed over the target), a bad path one line."""

from __future__ import annotations

import os
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_text(path, text: str, what: str = "the picture") -> Path:
    """Write ``text`` (UTF-8) to ``path`` through [`golfsim.atomic.AtomicFile`][].

    Raises
    ------
    ValueError
        One line naming the file and the cause (a missing folder, a read-only or full disk, a directory).
    """
    from golfsim.atomic import AtomicFile, os_error_text

    target = Path(path)
    if not str(target.parent) or not target.parent.is_dir():
        raise ValueError(f"cannot write {what} {target}: the folder {target.parent} does not exist")
    out = AtomicFile(target, what)
    try:
        out.temp.write_text(text, encoding="utf-8")
        os.chmod(out.temp, 0o666 & ~_umask())  # a page to share: readable as any new file is, not 0600
    except OSError as err:
        out.abandon()
        raise ValueError(f"cannot write {what} {target}: {os_error_text(err)}") from None
    except BaseException:
        out.abandon()
        raise
    out.commit()
    return target
