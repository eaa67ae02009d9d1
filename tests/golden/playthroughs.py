"""Golden playthroughs: seeded games written out action by action, a few seeded batch runs and a tournament summarised.

Each case is a short game played exactly as the batch simulator plays game ``game`` under ``seed`` (deal stream per
hole, one agent stream per seat running on through the holes, totals carried into the next hole), but one decision
at a time through the compiled engine and agents, so that every action, the card it moved or turned up and the
public state after it can be written down. The text is committed in ``tests/golden/<case>.txt``; the files are
snapshots, not derived expectations: a change to a random stream, the shuffle, a rule or an agent's decision changes
them, and ``tests/test_golden.py`` fails with a diff. Regenerate them only on purpose, after checking that the change
is meant, with::

    python -m tests.golden --regenerate
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from golfsim.agents import parse_agent
from golfsim.agents.dispatch import act
from golfsim.core.engine import apply_action, deal_scores, deal_shuffled, legal_mask, score_cards, shuffled_deck
from golfsim.core.rng import agent_state, deal_state
from golfsim.core.rules import (
    R_CODES,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    Rules,
)
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    END_REASON,
    ENDER,
    FINAL_LEFT,
    HELD,
    NUM_ACTIONS,
    PHASE,
    RECYCLES,
    STOCK_N,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
)
from golfsim.kernels.simulate import simulate, work_arrays
from golfsim.tournament import run_tournament

GOLDEN_DIR = Path(__file__).resolve().parent
SEED_ONE_EYED = 36
REGENERATE = "python -m tests.golden --regenerate"

# written here rather than taken from golfsim, so that the files pin the game and not the wording of its helpers
CARD = ("X", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "J0")  # J0: one-eyed jack
PHASE_WORD = ("open", "start", "hold", "flip", "done")
END_WORD = ("running", "went out", "stock exhausted", "truncated at the turn cap")


@dataclass(frozen=True)
class Case:
    """One golden game: its file name, rules, agents (one per seat), seed and game index."""

    name: str
    rules: Rules
    agents: tuple[str, ...]
    seed: int
    game: int = 0

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.name}.txt"


def _one_hole(**options) -> Rules:
    return Rules(holes=1, **options)


# every option value Rules offers (one file each), the defaults, and 2, 3, 4 and 12 players
CASES = (
    Case("defaults", _one_hole(), ("greedy", "random"), seed=1),
    Case("ev-vs-pair-builder", _one_hole(), ("ev", "pair-builder"), seed=2),
    Case("opening_flips-same_column", _one_hole(opening_flips="same_column"), ("random", "greedy"), seed=3),
    Case("opening_flips-different_columns", _one_hole(opening_flips="different_columns"), ("greedy", "random"),
         seed=4),
    Case("reveal_instead_of_draw", _one_hole(reveal_instead_of_draw=True), ("random", "greedy"), seed=5),
    Case("discard_and_flip-may", _one_hole(discard_and_flip="may"), ("random", "pair-builder"), seed=6),
    Case("discard_and_flip-must", _one_hole(discard_and_flip="must"), ("greedy", "random"), seed=7),
    Case("end-one_last_turn", _one_hole(end="one_last_turn"), ("greedy", "ev"), seed=8),
    Case("twos_pair-keep_negative", _one_hole(twos_pair="keep_negative"), ("random", "greedy"), seed=9),
    Case("jokers-minus2", _one_hole(jokers="minus2"), ("greedy", "random"), seed=10),
    Case("jokers-minus5", _one_hole(jokers="minus5"), ("random", "greedy"), seed=11),
    Case("jokers-minus3", _one_hole(jokers="minus3"), ("greedy", "random"), seed=12),
    Case("jokers-zero", _one_hole(jokers="zero"), ("random", "greedy"), seed=13),
    Case("four_of_a_kind_bonus", _one_hole(four_of_a_kind_bonus=-10), ("ev", "random"), seed=14),
    Case("decks-2", _one_hole(decks=2), ("greedy", "random"), seed=15),
    Case("holes-3", Rules(holes=3), ("greedy", "random"), seed=16),
    Case("turn_cap", _one_hole(turn_cap=9), ("random", "greedy"), seed=17),
    Case("players-3", _one_hole(players=3), ("random", "greedy", "ev"), seed=18),
    Case("players-4", _one_hole(players=4), ("pair-builder", "random", "greedy", "ev"), seed=19),
    # eight players from one deck: a three-card stock, rebuilt from the discards by the deal stream again and again
    Case("players-8-one-deck-recycles", _one_hole(players=8, decks=1), ("greedy", "random", "pair-builder", "ev") * 2,
         seed=21),
    Case("players-12", _one_hole(players=12), ("greedy", "ev", "pair-builder", "random") * 3, seed=20),
    # The house rules, one file each, seeds chosen so that the rule acts (wolfpack never does in play at this size:
    # the worked examples of docs/RULES.md pin it). Checked by hand against the web game's rules document
    # (server/RULES.md) and code (server/game.py, _end_round and calculate_score), every layout added up column by
    # column: initial_flips-0 starts at turn 1 with no open phase; initial_flips-1 makes one open flip per player;
    # flip_mode-endgame offers the flip (step 15) once p0 has one card down and lets p1 pass it (step 20);
    # knock_penalty: p0 went out on 4 with p2 on 0, so 4 + 10 = 14; knock_bonus: p0 went out on 5, 5 - 5 = 0;
    # underdog_bonus: p1's 9 is lowest, 9 - 3 = 6; tied_shame: p0 and p2 tie on 2, both 7, p1 keeps 43;
    # blackjack: p0's K Q K / 6 4 A adds to 21 and scores 0; super_kings: p1's K over a 10 is 8 (K = -2);
    # ten_penny: p0's 10 under a Q is 11; eagle_eye: p0's lone joker over an A is 2 + 1 = 3; knock_early: p0 knocks
    # with two cards down (6 and 10), goes out and p1 takes one last turn; one_eyed_jacks: the pack's points are 264
    # (jacks 2 x 10 + 2 x 0), 255 unseen after the 9 turned up; p1 takes the J from the discard over its J0 (the
    # jack of hearts or spades) and that column is a pair, 0: 5 + 3, 0, A + Q = 19; p0's K + 3, 4s, aces = 3.
    Case("house-initial_flips-0", _one_hole(initial_flips=0), ("greedy", "random"), seed=30),
    Case("house-initial_flips-1", _one_hole(initial_flips=1), ("random", "greedy"), seed=30),
    Case("house-flip_mode-endgame", _one_hole(discard_and_flip="endgame"), ("random", "greedy"), seed=31),
    Case("house-knock_penalty", _one_hole(players=3, end="one_last_turn", knock_penalty=True),
         ("greedy", "random", "ev"), seed=36),
    Case("house-knock_bonus", _one_hole(knock_bonus=True), ("greedy", "random"), seed=30),
    Case("house-underdog_bonus", _one_hole(players=3, underdog_bonus=True), ("random", "greedy", "ev"), seed=30),
    Case("house-tied_shame", _one_hole(players=3, tied_shame=True), ("greedy", "random", "ev"), seed=35),
    Case("house-blackjack", _one_hole(players=3, blackjack=True), ("random", "greedy", "random"), seed=39),
    Case("house-super_kings", _one_hole(super_kings=True), ("greedy", "random"), seed=30),
    Case("house-ten_penny", _one_hole(ten_penny=True), ("random", "greedy"), seed=30),
    Case("house-eagle_eye", _one_hole(jokers="minus2", eagle_eye=True), ("greedy", "random"), seed=30),
    Case("house-knock_early", _one_hole(end="one_last_turn", knock_early=True), ("random", "greedy"), seed=37),
    Case("house-one_eyed_jacks", _one_hole(one_eyed_jacks=True), ("greedy", "random"), seed=SEED_ONE_EYED),
)


def _cards(cards) -> str:
    return " ".join(CARD[int(c)] for c in cards)


def _layout(cards) -> str:
    """Six ranks as ``top / bottom``, ``?`` for a face-down card."""
    shown = [CARD[int(c)] if c >= 0 else "?" for c in cards]
    return " ".join(shown[:3]) + " / " + " ".join(shown[3:])


class _Reader:
    """Named views into one deal's ``pub`` for the packed rules."""

    def __init__(self, packed: np.ndarray, players: int):
        self.players = players
        self.ov, self.od = int(packed[R_OFF_VIEW]), int(packed[R_OFF_DISCARD])
        self.ou, self.ok, self.ot = int(packed[R_OFF_UNSEEN]), int(packed[R_OFF_STOCK_KNOWN]), int(packed[R_OFF_TOTALS])
        self.codes = int(packed[R_CODES])  # 14 ranks, 15 card codes with one_eyed_jacks

    def view(self, pub, p) -> np.ndarray:
        return pub[self.ov + 6 * p: self.ov + 6 * p + 6]

    def discard(self, pub) -> np.ndarray:
        return pub[self.od: self.od + int(pub[DISCARD_N])]

    def top(self, pub) -> int:
        return int(pub[self.od + int(pub[DISCARD_N]) - 1])

    def unseen(self, pub) -> np.ndarray:
        return pub[self.ou: self.ou + self.codes]

    def stock_known(self, pub) -> np.ndarray:
        return pub[self.ok: self.ok + self.codes]

    def state(self, pub) -> list[str]:
        """The public state as a few lines: counters, then every layout as players see it."""
        head = (f"     {PHASE_WORD[int(pub[PHASE])]} p{int(pub[CURRENT])} turn {int(pub[TURN])} | "
                f"stock {int(pub[STOCK_N])} | discard {int(pub[DISCARD_N])} top {CARD[self.top(pub)]} | "
                f"unseen {int(pub[UNSEEN_CARDS])} cards {int(pub[UNSEEN_POINTS])} points [{_counts(self.unseen(pub))}]")
        if pub[RECYCLES]:
            head += f" | recycles {int(pub[RECYCLES])} stock known [{_counts(self.stock_known(pub))}]"
        if pub[ENDER] >= 0:
            head += f" | p{int(pub[ENDER])} went out, final turns left {int(pub[FINAL_LEFT])}"
        layouts = [f"p{p} {_layout(self.view(pub, p))}" for p in range(self.players)]
        return [head] + ["     " + "   ".join(layouts[i: i + 4]) for i in range(0, self.players, 4)]


def _counts(counts) -> str:
    """Per-rank counts as ``X0 A4 2 4 ...``, compact and fixed in order."""
    return " ".join(f"{CARD[r]}:{int(n)}" for r, n in enumerate(counts) if n)


def _describe(action: int, before: np.ndarray, after: np.ndarray, read: _Reader, p: int) -> str:
    """What ``action`` of player ``p`` did, with the cards it moved or turned up."""
    if action < 6:
        return f"take discard {CARD[read.top(before)]} to {action}, {CARD[read.top(after)]} to the discard"
    if action == 6:
        return f"draw from stock: {CARD[int(after[HELD])]}"
    if action < 13:
        return f"reveal {action - 7}: {CARD[int(read.view(after, p)[action - 7])]}"
    if action < 19:
        return f"place drawn {CARD[int(before[HELD])]} at {action - 13}, {CARD[read.top(after)]} to the discard"
    if action == 19:
        return f"throw drawn {CARD[int(before[HELD])]}"
    if action < 26:
        return f"flip {action - 20}: {CARD[int(read.view(after, p)[action - 20])]}"
    if action == 27:
        turned = [k for k in range(6) if read.view(before, p)[k] < 0]
        return "knock early: " + ", ".join(f"{k} is {CARD[int(read.view(after, p)[k])]}" for k in turned)
    return "pass"


def play_case(case: Case) -> str:
    """The whole game of ``case`` as text: deck, every action with the state after it, end and scores."""
    rules = case.rules
    packed = rules.pack()
    players = rules.players
    read = _Reader(packed, players)
    choices = [parse_agent(a) for a in case.agents]
    pub, hid, deal_rng, agent_rng, totals, scores = work_arrays(packed)[:6]  # as the batch kernel allocates them
    agent_rng[:] = [agent_state(case.seed, case.game, p) for p in range(players)]
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    lines = [
        f"# golden playthrough '{case.name}': regenerate only on purpose with `{REGENERATE}`",
        f"rules: {rules.describe()}; {rules.holes} hole(s), turn cap {rules.turn_cap}",
        f"points: {' '.join(f'{CARD[r]}={int(v)}' for r, v in enumerate(rules.points()) if rules.card_counts()[r])}",
        f"agents: {', '.join(f'p{p} {a}' for p, a in enumerate(case.agents))}",
        f"seed {case.seed}, game {case.game}",
    ]
    for hole in range(rules.holes):
        deal_rng[0] = deal_state(case.seed, case.game, hole)
        deck = shuffled_deck(packed, deal_rng.copy())
        deal_shuffled(pub, hid, packed, deal_rng, hole, hole % players, totals)
        lines += ["", f"== hole {hole + 1}: p{hole % players} moves first, totals {' '.join(map(str, totals))}",
                  f"deck (top first): {_cards(deck)}", "dealt:"] + read.state(pub)
        step = 0
        while pub[PHASE] != DONE:
            p = int(pub[CURRENT])
            action = act(choices[p], pub, packed, agent_rng, p)
            legal_mask(pub, packed, mask)
            if not mask[action]:
                raise AssertionError(f"{case.agents[p]} chose the illegal action {action} in case {case.name}")
            before = pub.copy()
            apply_action(pub, hid, packed, deal_rng, action)
            step += 1
            lines.append(f"{step:>4} p{p} {PHASE_WORD[int(before[PHASE])]:<5} #{action:<2} "
                         f"{_describe(action, before, pub, read, p)}")
            if pub[RECYCLES] > before[RECYCLES]:
                lines.append(f"     recycle: the {int(pub[STOCK_N])} cards under the top discard are shuffled into "
                             f"a new stock")
            if pub[PHASE] != DONE:
                lines += read.state(pub)
        deal_scores(pub, hid, packed, scores)
        totals += scores
        ender = int(pub[ENDER])
        lines += [f"end: {END_WORD[int(pub[END_REASON])]}" + (f" (p{ender})" if ender >= 0 else "")
                  + f" after {int(pub[TURN])} turns, {int(pub[RECYCLES])} recycle(s)",
                  f"discard (bottom first): {_cards(read.discard(pub))}"]
        if rules.house_rules():  # the layout's own score too, so that the house rules' changes can be checked
            lines += [f"p{q} {_layout(read.view(pub, q))}  layout {int(score_cards(hid, 6 * q, packed))}, "
                      f"scores {int(scores[q])}" for q in range(players)]
        else:
            lines += [f"p{q} {_layout(read.view(pub, q))}  scores {int(scores[q])}" for q in range(players)]
        lines.append(f"totals after hole {hole + 1}: {' '.join(map(str, totals))}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- seeded batch runs, summarised
@dataclass(frozen=True)
class BatchCase:
    """A seeded multi-game ``simulate`` run whose summary numbers are pinned."""

    name: str
    rules: Rules
    agents: tuple[str, ...]
    games: int
    seed: int


BATCH_CASES = (
    BatchCase("default rules, greedy vs random", Rules(), ("greedy", "random"), games=300, seed=5),
    BatchCase("3 players, one last turn, jokers -2, discard-and-flip may, 2 holes",
              Rules(players=3, end="one_last_turn", jokers="minus2", discard_and_flip="may", holes=2),
              ("ev", "pair-builder", "random"), games=200, seed=6),
    BatchCase("8 players from one deck, reveal, same-column opening, bonus -10, 1 hole",
              Rules(players=8, decks=1, reveal_instead_of_draw=True, opening_flips="same_column",
                    four_of_a_kind_bonus=-10, holes=1),
              ("greedy", "random", "ev", "pair-builder") * 2, games=200, seed=7),
)
BATCH_FILE = GOLDEN_DIR / "batch.txt"

# a round robin at three seats (every table, every seat order, its own agent seeds) pins the tournament's schedule
TOURNAMENT = {"agents": ["ev", "greedy", "pair-builder", "random"], "rules": Rules(players=3, holes=1),
              "games": 30, "seed": 9}


def batch_summary() -> str:
    """Summary numbers of every batch case (per seat the sum of totals and wins, per run the end reasons and turns,
    the first games' totals) and the standings of a small tournament."""
    lines = [f"# golden batch runs: regenerate only on purpose with `{REGENERATE}`"]
    for case in BATCH_CASES:
        result = simulate(list(case.agents), case.rules, games=case.games, seed=case.seed)
        seats = result.players.sort_values(["game", "seat"])
        totals = seats["total"].to_numpy().reshape(case.games, case.rules.players)
        wins = seats["win_share"].to_numpy().reshape(case.games, case.rules.players).sum(axis=0)
        deals = result.deals
        reasons = deals["end_reason"].value_counts().sort_index()
        went_out = np.bincount(deals["went_out"].to_numpy() + 1, minlength=case.rules.players + 1)
        lines += [
            "",
            f"== {case.name}: {case.games} games, seed {case.seed}, agents {', '.join(case.agents)}",
            f"sum of totals by seat: {' '.join(str(int(t)) for t in totals.sum(axis=0))}",
            f"wins by seat (ties shared): {' '.join(f'{w:.4f}' for w in wins)}",
            f"deals {len(deals)}, turns {int(deals['turns'].sum())}, "
            + ", ".join(f"{reason} {int(n)}" for reason, n in reasons.items() if n),
            f"went out by seat: {' '.join(str(int(n)) for n in went_out[1:])}, nobody {int(went_out[0])}",
        ]
        lines += [f"game {g} totals: {' '.join(str(int(t)) for t in totals[g])}" for g in range(3)]
    result = run_tournament(**TOURNAMENT)
    lines += ["", f"== tournament: {', '.join(TOURNAMENT['agents'])}; {TOURNAMENT['rules'].describe()}; "
                  f"{TOURNAMENT['games']} deal sets, seed {TOURNAMENT['seed']}: {result.games_played} games"]
    for row in result.standings.itertuples():
        lines.append(f"{row.rank}. {row.agent}: {row.games} games, mean score {row.mean_score:.4f}, "
                     f"win rate {row.win_rate:.4f}, went out {row.went_out_rate:.4f}, turns {row.mean_turns:.4f}")
    return "\n".join(lines) + "\n"


def expected_files() -> dict[Path, str]:
    """Every golden file and the text it must hold, generated now."""
    files = {case.path: play_case(case) for case in CASES}
    files[BATCH_FILE] = batch_summary()
    return files
