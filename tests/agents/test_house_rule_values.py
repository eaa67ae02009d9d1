"""ev, learned and mc value the house rules' scoring: in each position below one move is clearly right only under
the rule, and each player that can express the rule picks it there (and not without the rule).

Most positions are the last turn of a deal (the opponent went out with ``3 3 4 / A 5 6``, 22 points), so the move
ends the deal and its value is the layout it leaves; the last two are going out (end=immediate). Each player is held
to the rules it can express: mc scores its rollouts with the engine's one hole scorer, so every rule; ev values the
card values and, in going out (tests/agents/test_ev_house_rules.py), blackjack, knock_penalty, knock_bonus (in its
going-out limit, not here), tied_shame and wolfpack, but not underdog_bonus nor any of them in the last turns after
someone went out (as here); learned values its final layout under blackjack and wolfpack (so here too) and, in going
out, knock_penalty, knock_bonus and tied_shame, and plays knock_early's knock, but not underdog_bonus
(tests/learning/test_learned_house_rules.py).
"""

from __future__ import annotations

import pytest

from golfsim.coach.hint import hint
from golfsim.coach.position import parse_position
from golfsim.core.cards import parse_layout
from golfsim.core.rules import Rules
from tests.reference_engine import hole_scores, score_layout

SAMPLES = 400
OPP = "opp: 3 3 4 / A 5 6"


def picks(position: str, rules: Rules) -> dict:
    """Who picks what: mc's best move (with its margin over the runner-up in standard errors), ev's and learned's."""
    answer = hint(parse_position(position, rules), rules, samples=SAMPLES, seed=3)
    best, runner_up = answer.rows[0], answer.rows[1]
    return {"mc": best.key, "mc_margin_se": (runner_up.objective - best.objective) / max(runner_up.gap_se, 1e-9),
            "ev": next(r.key for r in answer.rows if r.ev_choice),
            "learned": next(r.key for r in answer.rows if r.learned_choice)}


# (rule name, rules with it, rules without it, position, the move right only under the rule, players held to it)
CASES = [
    # the discard is a 10: worth 1, it is the card to take over the 9 (slot 2); without the rule, draw instead
    ("ten_penny", Rules(end="one_last_turn", ten_penny=True), Rules(end="one_last_turn"),
     f"me: K 9 8 / ? K 7; {OPP}; discard: 8 10", "t2", ("mc", "ev", "learned")),
    # the discard is a joker over your joker's partner two (twos are +2 with jokers minus2): a pair of jokers
    # is -4 under eagle_eye (column 4 -> -4); without it the pair is 0 and the joker is best on the face-down card
    ("eagle_eye", Rules(end="one_last_turn", jokers="minus2", eagle_eye=True),
     Rules(end="one_last_turn", jokers="minus2"), f"me: X 9 K / 2 9 ?; {OPP}; discard: 8 X", "t4",
     ("mc", "ev", "learned")),
    # the 3 on the face-down card makes exactly 21 (K 8 3 / K A 9): 0 under blackjack; without it 21 is the worst
    ("blackjack", Rules(end="one_last_turn", blackjack=True), Rules(end="one_last_turn"),
     f"me: K 8 ? / K A 9; {OPP}; discard: 8 3", "t3", ("mc", "learned")),
    # the discard is a one-eyed jack, worth 0: the card to take over the 9 (slot 2); a plain jack (10) is not
    # (one position per rule set: a one-eyed jack cannot be written without the rule)
    ("one_eyed_jacks", Rules(end="one_last_turn", one_eyed_jacks=True), Rules(end="one_last_turn"),
     (f"me: K 9 8 / ? K 7; {OPP}; discard: 8 JH", f"me: K 9 8 / ? K 7; {OPP}; discard: 8 J"), "t2",
     ("mc", "ev", "learned")),
    # the drawn king: over the 9 it pairs the king above (saving 9), over the 8 it leaves K + 3 (saving 8); worth
    # -2 under super_kings, a lone king saves 10 there, while the pair of kings still scores 0 (saving 7)
    ("super_kings", Rules(end="one_last_turn", super_kings=True), Rules(end="one_last_turn"),
     f"me: K 8 ? / 9 3 5; {OPP}; discard: 8; drawn: K", "p2", ("mc", "ev", "learned")),
    # going out with the 9 (28) against an opponent at about 13.5 (end=immediate): only the knock bonus's -5 makes
    # it better than playing on
    ("knock_bonus", Rules(knock_bonus=True), Rules(), "me: 3 3 5 / 4 4 ?; opp: K 5 2 / K 5 ?; discard: 8 Q; drawn: 9",
     "p6", ("mc", "learned")),
    # far ahead (pairs of kings and twos against 50 face up), turning up both face-down cards at once ends the deal
    # (end=immediate) before the opponent can catch up; without the rule there is no such move
    ("knock_early", Rules(knock_early=True), Rules(), "me: K 2 ? / K 2 ?; opp: Q J ? / 9 10 Q; discard: 8", "k",
     ("mc", "learned")),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "rules", "plain", "position", "move", "players"), CASES,
                         ids=[c[0] for c in CASES])
def test_the_move_right_only_under_the_rule_is_picked_under_it(name, rules, plain, position, move, players):
    position_under, position_without = (position, position) if isinstance(position, str) else position
    under = picks(position_under, rules)
    without = picks(position_without, plain)
    for player in players:
        assert under[player] == move, (player, under)
        assert without[player] != move, (player, without)
    assert under["mc_margin_se"] > 3  # mc's pick is ahead of the runner-up by more than three standard errors


# A move that covers the last face-down card leaves a known table, so mc's value of it is exact: its objective is
# the hole score less the opponent's (who went out), under each rule -- worked out by hand below and by the
# reference engine.
EXACT = "me: K 8 ? / 5 A 9; opp: Q Q J / 10 9 8; discard: 8 3"  # t3: K 8 3 / 5 A 9 = 5 + 9 + 12 = 26; opp 57


@pytest.mark.parametrize(("options", "objective"), [
    ({}, 26 - 57),
    ({"super_kings": True}, 24 - 57),  # K over 5 is -2 + 5 = 3
    ({"knock_penalty": True}, 26 - 67),  # the opponent went out without the lowest score: +10
    ({"knock_bonus": True}, 26 - 52),  # the opponent went out: -5
    ({"underdog_bonus": True}, 23 - 57),  # your 26 is the lowest: -3
], ids=["none", "super_kings", "knock_penalty", "knock_bonus", "underdog_bonus"])
def test_mc_values_a_finished_deal_as_the_rules_score_it(options, objective):
    rules = Rules(end="one_last_turn", **options)
    answer = hint(parse_position(EXACT, rules), rules, samples=20, seed=1)
    row = next(r for r in answer.rows if r.key == "t3")
    layouts = [parse_layout("K 8 3 / 5 A 9"), parse_layout("Q Q J / 10 9 8")]
    mine, theirs = hole_scores([score_layout(cards, rules) for cards in layouts], 1, rules)
    assert row.objective == objective == mine - theirs
    assert row.objective_se == 0.0


# Rules whose effect on a finished deal the table above cannot show, each in a position of its own: the move covers
# the last face-down card, so mc's objective (own hole score less the opponents' mean) is exact.
EXACT_OWN = [
    # J/J, J/J and 8/9: two columns of jacks, 17 points, -20 under wolfpack; the opponent (who went out) has 22
    ({"wolfpack": True}, "me: J J 8 / J ? 9; opp: 3 3 4 / A 5 6; discard: 8 J", "t5",
     ["J J 8 / J J 9", "3 3 4 / A 5 6"], 1, (17 - 20) - 22),
    ({}, "me: J J 8 / J ? 9; opp: 3 3 4 / A 5 6; discard: 8 J", "t5", ["J J 8 / J J 9", "3 3 4 / A 5 6"], 1,
     17 - 22),
    # three players: your 26 ties the first opponent's (who went out): both +5 under tied_shame, the other 57
    ({"tied_shame": True}, "me: K 8 ? / 5 A 9; opp: 3 3 4 / 5 5 6; opp: Q Q J / 10 9 8; discard: 8 3", "t3",
     ["K 8 3 / 5 A 9", "3 3 4 / 5 5 6", "Q Q J / 10 9 8"], 1, 31 - (31 + 57) / 2),
    ({}, "me: K 8 ? / 5 A 9; opp: 3 3 4 / 5 5 6; opp: Q Q J / 10 9 8; discard: 8 3", "t3",
     ["K 8 3 / 5 A 9", "3 3 4 / 5 5 6", "Q Q J / 10 9 8"], 1, 26 - (26 + 57) / 2),
]


@pytest.mark.parametrize(("options", "text", "move", "finals", "ender", "objective"), EXACT_OWN,
                         ids=["wolfpack", "no wolfpack", "tied_shame", "no tied_shame"])
def test_mc_values_wolfpack_and_tied_shame_as_the_rules_score_them(options, text, move, finals, ender, objective):
    rules = Rules(end="one_last_turn", players=len(finals), **options)
    answer = hint(parse_position(text, rules), rules, samples=20, seed=1)
    row = next(r for r in answer.rows if r.key == move)
    scores = hole_scores([score_layout(parse_layout(f), rules) for f in finals], ender, rules)
    assert row.objective == pytest.approx(objective) == scores[0] - sum(scores[1:]) / len(scores[1:])
    assert row.objective_se == 0.0
