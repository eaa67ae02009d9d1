"""Files a person may edit by hand are read as untrusted: a ``config.json`` that is a JSON list, a ``trials.csv``
without a column or with text where numbers belong, a decision log whose metadata lost its version, each meets
one ``ValueError`` line naming the file (which the command line prints as its one error line), never a
traceback."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from golfsim.logs.trace import LogError, log_games, read_log
from golfsim.runs.claims import check_target
from golfsim.tuning.space import ParamRange
from golfsim.tuning.storage import read_trials_csv
from tests.support import run_golfsim

REQUEST = {"experiment": "ladder", "games": 10, "seed": 0}


@pytest.mark.parametrize("text", ["[1]", '"text"', "7"], ids=["a list", "a string", "a number"])
def test_a_config_json_that_is_not_an_object_is_a_result_whose_request_is_not_recorded(tmp_path, text):
    (tmp_path / "config.json").write_text(text)
    with pytest.raises(ValueError, match="holds a result whose request is not recorded"):
        check_target(tmp_path, REQUEST)


SPACE = (ParamRange.make("take_gain", "float", 0, 10),)
TUNE_REQUEST = {"experiment": "tune greedy", "games": 20}
GOOD = "trial,take_gain,objective,state\n0,3.0,-0.5,COMPLETE\n1,4.0,-0.25,COMPLETE\n"


@pytest.mark.parametrize("csv, words", [
    ("trial,take_gain,objective\n0,3.0,-0.5\n", "it has no column 'state'"),
    ("trial,take_gain,state\n0,3.0,COMPLETE\n", "it has no column 'objective'"),
    ("", "it is not a readable trials table"),
    ("trial,take_gain,objective,state\n0,3.0,low,COMPLETE\n", "its column 'objective' holds values that are not"),
    ("trial,take_gain,objective,state\n0,x,-0.5,COMPLETE\n", "its column 'take_gain' holds values that are not"),
], ids=["no state", "no objective", "empty", "text objective", "text parameter"])
def test_a_trials_csv_edited_by_hand_is_one_line_naming_it(tmp_path, csv, words):
    (tmp_path / "config.json").write_text(json.dumps({"request": TUNE_REQUEST}))
    (tmp_path / "trials.csv").write_text(csv)
    with pytest.raises(ValueError, match="trials.csv") as caught:
        read_trials_csv(tmp_path, TUNE_REQUEST, SPACE)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_good_trials_csv_still_resumes(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"request": TUNE_REQUEST}))
    (tmp_path / "trials.csv").write_text(GOOD)
    assert list(read_trials_csv(tmp_path, TUNE_REQUEST, SPACE)["objective"]) == [-0.5, -0.25]


def test_a_config_json_of_a_list_beside_trials_csv_is_another_request(tmp_path):
    (tmp_path / "config.json").write_text("[1]")
    (tmp_path / "trials.csv").write_text(GOOD)
    with pytest.raises(ValueError, match="holds a study of another request"):
        read_trials_csv(tmp_path, TUNE_REQUEST, SPACE)


@pytest.fixture(scope="module")
def small_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "l.parquet"
    log_games(["greedy", "random"], path, games=2)
    return path


def with_version(small_log, tmp_path, version):
    key = b"golfsim.decision_log"
    meta = json.loads(pq.read_metadata(small_log).metadata[key])
    path = tmp_path / "edited.parquet"
    table = pq.read_table(small_log)
    pq.write_table(table.replace_schema_metadata({key: json.dumps({**meta, "version": version}).encode()}), path)
    return path


@pytest.mark.parametrize("version", ["2", None, 1.5, -1], ids=["a string", "null", "a fraction", "negative"])
def test_a_log_whose_format_version_is_not_a_whole_number_is_one_line(small_log, tmp_path, version):
    path = with_version(small_log, tmp_path, version)
    with pytest.raises(LogError, match=r"edited.parquet: the golfsim metadata is damaged \(log format version"):
        read_log(path)


def test_replay_of_a_log_with_a_bad_version_is_one_line(small_log, tmp_path):
    done = run_golfsim("replay", with_version(small_log, tmp_path, "2"))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "log format version '2' is not a whole number" in lines[0], done.stderr


@pytest.mark.slow
def test_a_log_named_like_a_file_out_writes_is_refused_before_the_run(tmp_path):
    out = tmp_path / "out"
    first = run_golfsim("tournament", "--agents", "greedy,random", "--games", "5", "--holes", "1", "--quiet",
                        "--out", out)
    assert first.returncode == 0, first.stderr
    before = (out / "config.json").read_bytes()
    done = run_golfsim("tournament", "--agents", "greedy,random", "--games", "5", "--holes", "1", "--quiet",
                       "--out", out, "--log", out / "config.json")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is a file --out writes, which would replace the log" in lines[0], done.stderr
    assert (out / "config.json").read_bytes() == before


def edited_log(small_log, tmp_path, drop_column=None, drop_key=None):
    key = b"golfsim.decision_log"
    meta = json.loads(pq.read_metadata(small_log).metadata[key])
    if drop_key is not None:
        del meta[drop_key]
    table = pq.read_table(small_log)
    if drop_column is not None:
        table = table.drop_columns([drop_column])
    path = tmp_path / "edited.parquet"
    pq.write_table(table.replace_schema_metadata({key: json.dumps(meta).encode()}), path)
    return path


def test_a_log_whose_metadata_lost_its_seed_is_one_line(small_log, tmp_path):
    with pytest.raises(LogError, match=r"edited.parquet: the golfsim metadata is damaged \(no whole-number deal seed"):
        read_log(edited_log(small_log, tmp_path, drop_key="seed"))


@pytest.mark.parametrize("column", ["action", "seat", "agent", "score_1"])
def test_a_log_without_one_of_its_columns_is_one_line_naming_it(small_log, tmp_path, column):
    with pytest.raises(LogError, match=rf"edited.parquet is not a whole decision log: it has no column '{column}'"):
        read_log(edited_log(small_log, tmp_path, drop_column=column))


def test_a_log_with_a_damaged_page_is_one_line_not_other_moves(tmp_path):
    path = tmp_path / "l.parquet"
    log_games(["greedy", "random"], path, games=200)
    data = bytearray(path.read_bytes())
    # the column chunks come first and the footer last: a byte changed a quarter of the way in is in a page
    data[len(data) // 4] ^= 0xFF
    path.write_bytes(bytes(data))
    log = read_log(path)  # the footer is whole
    with pytest.raises(LogError, match=r"l.parquet: the log is damaged \(") as caught:
        log.frame()
    assert "\n" not in str(caught.value)
