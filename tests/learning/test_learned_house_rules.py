"""The learned player under house rules its weights were not fitted on: it reads them through the rules' numbers
(points, pair scores, when a flip follows a throw), so it must read them right.
"""

from __future__ import annotations

import numpy as np
import pytest

from golfsim.agents.learned import WEIGHTS
from golfsim.agents.learned.policy import action_values
from golfsim.agents.learned.value import card_counts, column_expectation, jack_mate
from golfsim.core.cards import JACK, ONE_EYED_JACK, QUEEN
from golfsim.core.rules import R_OFF_UNSEEN, Rules
from golfsim.core.spec import KNOCK, NUM_ACTIONS, PLACE_DRAWN, THROW_DRAWN
from tests.agents.positions import position
from tests.reference_engine import column_scores


def learned_values(pos) -> np.ndarray:
    """The learned player's value of every action in ``pos`` (NaN where it has none)."""
    values = np.empty(NUM_ACTIONS)
    action_values(pos.pub, pos.packed, WEIGHTS, np.int64(pos.player), values)
    return values


def throw_value(pos) -> float:
    return float(learned_values(pos)[THROW_DRAWN])


def held_nine(layouts, discard_and_flip: str):
    return position(layouts, rules=Rules(discard_and_flip=discard_and_flip), held="9", discard="Q")


def test_under_flip_mode_endgame_a_throw_counts_the_flip_only_once_it_is_offered():
    # nobody has at most one card face down: the endgame flip is not offered, so throwing is throwing and no more
    early = ["K 3 ? / A 4 ?", "Q Q ? / 5 ? ?"]
    assert throw_value(held_nine(early, "endgame")) == throw_value(held_nine(early, "off"))
    assert throw_value(held_nine(early, "endgame")) != throw_value(held_nine(early, "may"))
    # the opponent has one card face down: now the flip is offered and may be passed, as with "may"
    late = ["K 3 ? / A 4 ?", "Q Q 6 / 5 7 ?"]
    assert throw_value(held_nine(late, "endgame")) == throw_value(held_nine(late, "may"))
    assert throw_value(held_nine(late, "endgame")) != throw_value(held_nine(late, "off"))


def test_under_one_eyed_jacks_a_one_eyed_jack_is_taken_as_the_zero_it_is_and_pairs_with_a_jack():
    rules = Rules(one_eyed_jacks=True, end="one_last_turn")
    plain = Rules(end="one_last_turn")
    # worth 0, the one-eyed jack goes over the 9; a plain jack (10) is not taken at all
    pos = position(["K 9 2 / ? 3 A", "Q Q 6 / 5 7 ?"], rules=rules, discard="JH")
    assert pos.name(pos.decide("learned")) == "take discard to 1"
    pos = position(["K 9 2 / ? 3 A", "Q Q 6 / 5 7 ?"], rules=plain, discard="J")
    assert not pos.name(pos.decide("learned")).startswith("take discard")
    # under a jack, it makes a pair (0) rather than replacing the 9
    pos = position(["J 9 2 / ? 3 A", "Q Q 6 / 5 7 ?"], rules=rules, discard="JH")
    assert pos.name(pos.decide("learned")) == "take discard to 3"


def unseen_cards(pos) -> list[int]:
    ou = int(pos.packed[R_OFF_UNSEEN])
    return [code for code in range(pos.rules.n_codes) for _ in range(int(pos.pub[ou + code]))]


def column_score(top: int, bottom: int, rules: Rules) -> int:
    return column_scores([top, 0, 0, bottom, 0, 0], rules)[0]  # the other columns are pairs of jokers


def test_under_one_eyed_jacks_column_expectations_are_the_mean_over_the_unseen_cards():
    # a jack over a face-down card pairs with the unseen one-eyed jacks too, and two face-down cards may be a jack
    # and a one-eyed jack: the learned player's exact expectations, against the plain mean over the unseen cards
    rules = Rules(one_eyed_jacks=True)
    pos = position(["J 9 ? / ? ? ?", "Q Q 6 / 5 7 ?"], rules=rules, discard="4")
    unseen = unseen_cards(pos)
    assert ONE_EYED_JACK in unseen and JACK in unseen
    cnt = card_counts(pos.pub, pos.packed, jack_mate(pos.packed))
    for face_up in (JACK, ONE_EYED_JACK, 7):
        mean = np.mean([column_score(face_up, c, rules) for c in unseen])
        assert column_expectation(pos.pub, pos.packed, face_up, -1, cnt) == pytest.approx(mean, abs=1e-9)
    pairs = [column_score(a, b, rules) for i, a in enumerate(unseen) for j, b in enumerate(unseen) if i != j]
    assert column_expectation(pos.pub, pos.packed, -1, -1, cnt) == pytest.approx(np.mean(pairs), abs=1e-9)


def test_knock_penalty_keeps_the_learned_player_from_going_out_behind():
    # covering the last card with the 6 ends the deal (end=immediate) at 7 + 7 + 11 = 25 against an opponent at
    # about 21 in expectation (K/K, 5/6 and 4 over a face-down card): without the rule the learned player ends it
    # there; with it the opponent is lower nearly surely, which costs +10, so it plays on
    layouts = ["3 3 5 / 4 4 ?", "K 5 4 / K 6 ?"]
    assert position(layouts, held="6").decide("learned") == PLACE_DRAWN + 5
    assert position(layouts, held="6", rules=Rules(knock_penalty=True)).decide("learned") != PLACE_DRAWN + 5


def test_blackjack_makes_the_learned_player_go_out_with_exactly_21():
    # ev's position (tests/agents/test_ev_house_rules.py): the held King pairs the King above the last card, for
    # exactly 21 against an opponent at about 12; only under blackjack is that a 0
    layouts = ["Q 3 K / 7 A ?", "K 2 ? / K 2 ?"]
    assert position(layouts, held="K").decide("learned") != PLACE_DRAWN + 5
    assert position(layouts, held="K", rules=Rules(blackjack=True)).decide("learned") == PLACE_DRAWN + 5


def test_tied_shame_keeps_the_learned_player_from_going_out_into_a_likely_tie_at_three_players():
    # covering the last card with the 3 ends the deal (end=immediate) at 7 + 7 + 8 = 22; the first opponent is at
    # about 21.5 in expectation (K/K, 5/6 and 4 over a face-down card), the second far behind. Without the rule the
    # learned player ends the deal there; with it a tie (+5) is likely enough that it plays on
    layouts = ["3 3 5 / 4 4 ?", "K 5 4 / K 6 ?", "Q Q J / 10 9 ?"]
    assert position(layouts, held="3", rules=Rules(players=3)).decide("learned") == PLACE_DRAWN + 5
    assert position(layouts, held="3", rules=Rules(players=3, tied_shame=True)).decide("learned") != PLACE_DRAWN + 5


def test_knock_bonus_makes_the_learned_player_go_out_a_little_behind():
    # covering the last card with the 9 ends the deal (end=immediate) at 7 + 7 + 14 = 28 against an opponent at
    # about 13.5 (K/K, 5/5, 2 over a face-down card): without the rule the learned player throws the 9 and plays on;
    # the -5 for going out makes ending it better (mc agrees: tests/agents/test_house_rule_values.py)
    layouts = ["3 3 5 / 4 4 ?", "K 5 2 / K 5 ?"]
    assert position(layouts, held="9").decide("learned") == THROW_DRAWN
    assert position(layouts, held="9", rules=Rules(knock_bonus=True)).decide("learned") == PLACE_DRAWN + 5


def test_wolfpack_values_a_final_layout_with_two_column_pairs_of_jacks_20_lower():
    # the fourth jack on the face-down card makes a second column pair of jacks and ends the deal (end=immediate):
    # valued exactly, 20 points lower under wolfpack; every other move leaves the layout without a wolfpack
    layouts = ["J J Q / J ? 10", "K 5 2 / K 5 ?"]
    plain = learned_values(position(layouts, held="J"))
    wolf = learned_values(position(layouts, held="J", rules=Rules(wolfpack=True)))
    assert wolf[PLACE_DRAWN + 4] == pytest.approx(plain[PLACE_DRAWN + 4] - 20, abs=1e-9)
    others = [a for a in range(NUM_ACTIONS) if a != PLACE_DRAWN + 4 and not np.isnan(plain[a])]
    assert len(others) == 6
    assert np.array_equal(wolf[others], plain[others])


def test_knock_early_is_played_far_ahead_and_not_behind():
    # two face-down cards in a column of their own, kings and twos paired: knocking ends the deal (end=immediate)
    # at about 12 against an opponent whose face-up cards alone are 50; mc agrees
    # (tests/agents/test_house_rule_values.py). Behind (9 8 / 7 6 against pairs of kings and twos), it is not played
    rules = Rules(knock_early=True)
    ahead = position(["K 2 ? / K 2 ?", "Q J ? / 9 10 Q"], rules=rules, discard="8")
    assert ahead.decide("learned") == KNOCK
    behind = position(["9 8 ? / 7 6 ?", "K K ? / 2 2 ?"], rules=rules, discard="8")
    assert behind.decide("learned") != KNOCK
    assert not np.isnan(learned_values(behind)[KNOCK])  # valued, and found worse


def test_the_knock_value_is_the_mean_over_the_cards_it_turns_up():
    # the knock's value against the plain mean, over every ordered pair of unseen cards, of the exact value of the
    # layout with both turned up (end=immediate: own layout less the opponent's expected one)
    rules = Rules(knock_early=True)
    pos = position(["K 2 ? / K 2 ?", "Q J ? / 9 10 Q"], rules=rules, discard="8")
    unseen = unseen_cards(pos)
    cnt = card_counts(pos.pub, pos.packed, jack_mate(pos.packed))
    opp = column_expectation(pos.pub, pos.packed, QUEEN, 9, cnt) + column_expectation(
        pos.pub, pos.packed, JACK, 10, cnt) + column_expectation(pos.pub, pos.packed, -1, QUEEN, cnt)
    finals = [column_score(a, b, rules) - opp for i, a in enumerate(unseen) for j, b in enumerate(unseen) if i != j]
    assert learned_values(pos)[KNOCK] == pytest.approx(np.mean(finals), abs=1e-9)
