"""The standings fingerprint: the same for the same code, different when only the intervals are computed
differently (the games unchanged)."""

from __future__ import annotations

from golfsim import stats
from golfsim.tournament import fingerprint


def test_the_standings_fingerprint_notices_a_new_interval_method(monkeypatch):
    first = fingerprint.standings_fingerprint.__wrapped__()
    assert fingerprint.standings_fingerprint.__wrapped__() == first
    real = stats.mean_ci_moments

    def wider(n, mean, sd, confidence=0.95):  # another interval around the same mean
        m, lo, hi = real(n, mean, sd, confidence)
        return m, lo - 1.0, hi + 1.0

    monkeypatch.setattr(stats, "mean_ci_moments", wider)
    assert fingerprint.standings_fingerprint.__wrapped__() != first
