"""Which result a directory may receive (golfsim.runs.claims.check_target), as the sweep uses it."""

from __future__ import annotations

import json

import pytest

from golfsim.runs.claims import check_target

REQUEST = {"sweep": {"name": "s"}, "axes": {"players": [2]}}


def claim(directory):
    return check_target(directory, REQUEST, kind="a sweep", empty_dirs=("cells",))


def test_an_empty_cells_folder_is_claimed_and_a_file_in_it_is_refused(tmp_path):
    (tmp_path / "cells").mkdir()
    assert claim(tmp_path) == {}
    (tmp_path / "cells" / "0.json").write_text("{}")
    with pytest.raises(ValueError, match="holds files that are not a sweep"):
        claim(tmp_path)


def test_the_held_config_is_returned_for_the_same_request_and_another_is_refused(tmp_path):
    config = {"request": REQUEST, "partial": True}
    (tmp_path / "config.json").write_text(json.dumps(config))
    assert claim(tmp_path) == config
    other = {**REQUEST, "axes": {"players": [3]}}
    with pytest.raises(ValueError, match="would replace it"):
        check_target(tmp_path, other)
    with pytest.raises(ValueError, match="^changed$"):
        check_target(tmp_path, other, refusal=lambda held, req: "changed")
