"""``write_file``: a write that fails part way (a full disk) leaves the target as it was and no temporary file."""

from __future__ import annotations

import errno

import pytest

from golfsim.runs.outdir import write_file


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = tmp_path / "config.json"
    target.write_text("the earlier result")

    def full_disk(tmp):
        tmp.write_text("half")
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        write_file(target, full_disk)
    assert target.read_text() == "the earlier result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json"]
