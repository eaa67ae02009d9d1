"""golfsim tune's printed report at a terminal's width (golfsim.cli.tune_body.report_text): wrapped at words, never
inside an agent string or an interval, and left as one line an entry when piped."""

from __future__ import annotations

from golfsim.cli.tune_body import report_text

# the shape of what TuneResult.lines() prints: long entries holding agent strings and intervals
REPORT = [
    "best of 40 trials: trial 17, ev:pair_weight=0.8314,blind_bonus=1.2207,go_out_margin=2.5043,queen_keep=0.1174",
    "  score relative to the field (greedy,pair-builder) on the tuning deals (seed 0, 2,000 deal sets): "
    "-3.41 [-3.97, -2.85] points per 9-hole game; optimistic: the best of 40 noisy estimates",
    "recommended: it scores -0.62 [-1.10, -0.14] points per 9-hole game against the field compared with ev, an "
    "interval below zero",
    "agent string: ev:pair_weight=0.8314,blind_bonus=1.2207,go_out_margin=2.5043,queen_keep=0.1174",
]


def test_at_80_columns_every_line_fits_and_no_token_is_split():
    lines = report_text(REPORT, 80)
    assert all(len(line) <= 80 for line in lines if len(line.split()) > 1)  # a lone long token cannot be broken
    assert " ".join(" ".join(lines).split()) == " ".join(" ".join(REPORT).split())  # the same words, in order
    words = {w for line in REPORT for w in line.split()}
    assert all(w in words for line in lines for w in line.split())  # no word cut in two
    assert len(lines) > len(REPORT)


def test_a_continuation_is_indented_under_its_entry():
    lines = report_text(REPORT[1:2], 60)
    assert lines[0].startswith("  score") and all(line.startswith("    ") for line in lines[1:])


def test_piped_each_entry_stays_one_line():
    assert report_text(REPORT, None) == REPORT
