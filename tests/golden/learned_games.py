"""Golden games of the learned player: seeded runs whose every deal score is pinned in ``learned-games.txt``.

The file was first written from main's code before the learned policy was made faster, so that a change meant to
leave its choices alone (a faster expectation, a moved module) is checked against the games it played then: the
same seed must give the same deals, turns and scores. Regenerate only when its choices are meant to change (a new
model, a deliberate change of the policy), and say so in the commit::

    python -m tests.golden.learned_games --regenerate
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate

LEARNED_FILE = Path(__file__).resolve().parent / "learned-games.txt"
REGENERATE = "python -m tests.golden.learned_games --regenerate"


@dataclass(frozen=True)
class LearnedCase:
    """A seeded ``simulate`` run with the learned player in it."""

    name: str
    rules: Rules
    agents: tuple[str, ...]
    games: int
    seed: int


CASES = (
    LearnedCase("2 players, immediate end", Rules(), ("learned", "ev"), games=200, seed=41),
    LearnedCase("2 players, one last turn", Rules(end="one_last_turn"), ("ev", "learned"), games=200, seed=42),
    LearnedCase("learned in both seats, one last turn", Rules(end="one_last_turn"), ("learned", "learned"),
                games=200, seed=43),
    LearnedCase("4 players, one last turn, 3 holes", Rules(players=4, end="one_last_turn", holes=3),
                ("learned", "ev", "pair-builder", "learned"), games=100, seed=44),
    LearnedCase("3 players, reveal, discard-and-flip may, jokers -2, 2 holes",
                Rules(players=3, reveal_instead_of_draw=True, discard_and_flip="may", jokers="minus2", holes=2),
                ("learned", "greedy", "learned"), games=100, seed=45),
)


def learned_summary() -> str:
    """Per case: the sum of totals by seat, the turns, the first games' totals and a digest of every deal's turns
    and scores."""
    lines = [f"# golden games of the learned player: regenerate only on purpose with `{REGENERATE}`"]
    for case in CASES:
        result = simulate(list(case.agents), case.rules, games=case.games, seed=case.seed)
        seats = result.players.sort_values(["game", "seat"])
        totals = seats["total"].to_numpy().reshape(case.games, case.rules.players)
        deals = result.deals.sort_values(["game", "hole"])
        columns = ["turns"] + [f"score_{p}" for p in range(case.rules.players)]
        digest = hashlib.sha256(np.ascontiguousarray(deals[columns].to_numpy(dtype=np.int64)).tobytes())
        digest.update(" ".join(deals["end_reason"].astype(str)).encode())
        lines += [
            "",
            f"== {case.name}: {case.games} games, seed {case.seed}, agents {', '.join(case.agents)}",
            f"sum of totals by seat: {' '.join(str(int(t)) for t in totals.sum(axis=0))}",
            f"deals {len(deals)}, turns {int(deals['turns'].sum())}",
            f"digest of every deal's turns, end and scores: {digest.hexdigest()[:32]}",
        ]
        lines += [f"game {g} totals: {' '.join(str(int(t)) for t in totals[g])}" for g in range(5)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.learned_games", description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", help="rewrite the file from the code as it is")
    args = parser.parse_args(argv)
    now = learned_summary()
    old = LEARNED_FILE.read_text() if LEARNED_FILE.exists() else ""
    if old == now:
        print("the learned player's golden games match")
        return 0
    if args.regenerate:
        LEARNED_FILE.write_text(now)
        print(f"rewrote {LEARNED_FILE.name}")
        return 0
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), now.splitlines(True),
                                               f"{LEARNED_FILE.name} (committed)", f"{LEARNED_FILE.name} (now)"))
    return 1


if __name__ == "__main__":
    sys.exit(main())
