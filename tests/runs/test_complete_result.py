"""Which directories hold a complete result that a partial run must not replace."""

import json

from golfsim.runs.complete_result import holds_complete_result


def test_only_a_readable_config_that_is_not_partial_is_a_complete_result(tmp_path):
    assert not holds_complete_result(tmp_path / "missing")
    assert not holds_complete_result(tmp_path)  # empty
    config = tmp_path / "config.json"
    for text, complete in [(json.dumps({"partial": False, "games": 3}), True),
                           (json.dumps({"partial": True, "games": 3}), False),
                           (json.dumps({"games": 3}), True),  # written before runs recorded "partial"
                           (json.dumps([1, 2]), False), ("{not json", False), ("{}", False)]:
        config.write_text(text)
        assert holds_complete_result(tmp_path) is complete, text
    config.unlink()
    config.mkdir()  # a directory where the file should be
    assert not holds_complete_result(tmp_path)
