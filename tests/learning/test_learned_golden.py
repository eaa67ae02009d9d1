"""The learned player's seeded games must stay the games it played when ``learned-games.txt`` was written (from
main's code, before the policy was made faster): same seed, same deals, turns and scores."""

import difflib

import pytest

from tests.golden.learned_games import LEARNED_FILE, REGENERATE, learned_summary


def test_the_learned_players_seeded_games_match_their_golden_file():
    committed = LEARNED_FILE.read_text()
    now = learned_summary()
    if committed != now:
        diff = "".join(difflib.unified_diff(committed.splitlines(True), now.splitlines(True), "committed", "now"))
        pytest.fail(f"the learned player's games changed; if that is meant, run `{REGENERATE}`\n{diff}",
                    pytrace=False)
