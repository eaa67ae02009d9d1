"""The position notation: read, written back, turned into the engine's state, and impossible positions refused."""

import numpy as np
import pytest

from golfsim.coach.position import Position, PositionError, parse_position
from golfsim.core.cards import HIDDEN
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    ENDER,
    FINAL_LEFT,
    FIRST,
    HELD,
    HOLD,
    HOLE,
    LAST_ACTION,
    OPEN,
    OPEN_FIRST,
    PHASE,
    PLAYERS,
    R_OFF_DISCARD,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    RECYCLES,
    START,
    STOCK_N,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
)
from golfsim.game.game import Game


def test_a_position_reads_as_a_person_writes_it():
    where = Position.parse("me: 5H ? ? | KS ? 2C; opp: ? 7D ? / ? ? ?; discard: 9 3; drawn: Q; hole: 7; "
                           "totals: 12, 30")
    assert where.me == [5, HIDDEN, HIDDEN, 13, HIDDEN, 2]
    assert where.opponents == [[HIDDEN, 7, HIDDEN, HIDDEN, HIDDEN, HIDDEN]]
    assert where.discard == [9, 3] and where.drawn == 12 and where.phase == "hold"
    assert where.hole == 7 and where.totals == [12, 30] and where.players == 2


def test_the_state_counts_every_card_nobody_has_seen():
    rules = Rules()
    pub = parse_position("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q", rules)
    packed = rules.pack()
    # 52 cards: 12 in the layouts (4 face up), 2 on the discard pile, 1 drawn -> 37 in the stock
    assert pub[PHASE] == HOLD and pub[HELD] == 12 and pub[CURRENT] == 0
    assert pub[STOCK_N] == 37 and pub[DISCARD_N] == 2
    unseen = pub[packed[R_OFF_UNSEEN]: packed[R_OFF_UNSEEN] + 14]
    expected = np.array([0] + [4] * 13)
    for seen in (5, 13, 2, 7, 9, 3, 12):
        expected[seen] -= 1
    assert list(unseen) == list(expected)
    assert pub[UNSEEN_CARDS] == 8 + 37 == expected.sum()  # the face-down cards and the stock
    assert pub[UNSEEN_POINTS] == expected @ rules.points()[:14]  # 14 ranks; entry 14 is the one-eyed jack



def test_the_jacks_of_hearts_and_spades_are_one_eyed_only_under_one_eyed_jacks():
    text = "me: JH ? ? / J ? 2; opp: ? JD ? / ? ? ?; discard: 9 J♠; drawn: Q"
    for rules, one_eyed in ((Rules(one_eyed_jacks=True), 14), (Rules(), 11)):
        packed = rules.pack()
        pub = parse_position(text, rules)
        ov, ou = int(packed[R_OFF_VIEW]), int(packed[R_OFF_UNSEEN])
        assert list(pub[ov:ov + 6]) == [one_eyed, HIDDEN, HIDDEN, 11, HIDDEN, 2] and pub[ov + 7] == 11
        assert pub[int(packed[R_OFF_DISCARD]) + 1] == one_eyed
        assert pub[ou + 11] == 0  # every jack of the pack is showing, one-eyed or not
    with pytest.raises(PositionError, match="J0"):  # a pack has two one-eyed jacks
        parse_position("me: JH ? ? / J0 ? 2; opp: ? JD ? / ? ? ?; discard: 9 J♠", Rules(one_eyed_jacks=True))


NOTATIONS = [
    "me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q",
    "me: K ? 4 / K ? ?; opp: 8 8 ? / 3 ? 9; opp: ? ? J / ? 2 ?; discard: 6 J 7; hole: 4; totals: 20 11 35; turn: 14",
    "me: X ? ? / ? 2 ?; opp: A ? ? / ? ? 10; discard: 5; phase: flip",
    "me: 9 ? Q / 9 4 ?; opp: 3 3 4 / A 5 6; discard: 7 2 8",
    "me: 9 ? Q / 9 4 ?; opp: 3 ? 4 / A 5 6; discard: 7 2 8; stock: 20; hole: 3; turn: 19",
]


@pytest.mark.parametrize("text", NOTATIONS)
def test_notation_to_state_and_back_is_the_same_notation(text):
    rules = Rules(players=text.count("opp:") + 1, jokers="minus5", discard_and_flip="may", end="one_last_turn")
    pub = parse_position(text, rules)
    assert Position.from_pub(pub, rules).text() == text
    assert np.array_equal(parse_position(Position.from_pub(pub, rules).text(), rules), pub)


def test_pile_cards_left_out_of_a_short_stock_count_as_unseen():
    rules = Rules()
    full = parse_position("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3", rules)
    short = parse_position("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; stock: 30", rules)
    assert full[STOCK_N] == 52 - 12 - 2 == 38 and short[STOCK_N] == 30
    # the 8 pile cards you did not list are unknown: still among the unseen cards, with the face-down ones
    assert short[UNSEEN_CARDS] == full[UNSEEN_CARDS] == 8 + 38
    assert short[DISCARD_N] == full[DISCARD_N] == 2
    with pytest.raises(PositionError, match="stock: 39 cards cannot be left; .* leaves 38"):
        parse_position("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; stock: 39", rules)


def test_an_opponent_who_went_out_leaves_you_a_last_turn():
    rules = Rules(players=3, end="one_last_turn")
    pub = parse_position("me: 5 ? ? / K ? 2; opp: 3 3 4 / A 5 6; opp: ? 7 ? / ? ? ?; discard: 9", rules)
    assert pub[ENDER] == 1 and pub[FINAL_LEFT] == 1  # opp 2 and you still play: you are the last
    pub = parse_position("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; opp: 3 3 4 / A 5 6; discard: 9", rules)
    assert pub[ENDER] == 2 and pub[FINAL_LEFT] == 2  # opp 2 went out just now: you, then opp 1


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, end="one_last_turn"),
                                   Rules(players=5, jokers="minus2", discard_and_flip="must")],
                         ids=["default", "3p-one-last-turn", "5p-jokers-flip"])
def test_a_real_games_state_written_and_read_back_is_the_engines_state(rules):
    """The engine's own states (seat 0 to move, before any recycle) survive notation -> state unchanged."""
    checked = 0
    for seed in range(6):
        game = Game(rules, seed)
        game.start_hole()
        rng = np.random.default_rng(seed)
        while not game.hole_over and game.pub[RECYCLES] == 0:
            pub = game.pub
            if game.current_player == 0 and pub[PHASE] != OPEN:
                rebuilt = Position.from_pub(pub, rules).to_pub(rules)
                same = [PHASE, CURRENT, HELD, TURN, STOCK_N, DISCARD_N, ENDER, FINAL_LEFT, FIRST, HOLE, PLAYERS,
                        OPEN_FIRST, UNSEEN_CARDS, UNSEEN_POINTS]
                assert [int(rebuilt[i]) for i in same] == [int(pub[i]) for i in same]
                rest = slice(rules.pack()[R_OFF_VIEW] - rules.players, None)  # totals, views, counts, discard
                assert np.array_equal(rebuilt[rest], pub[rest])
                checked += 1
            legal = game.legal_actions()
            game.step(int(rng.choice(legal)))
    assert checked > 20


@pytest.mark.parametrize("text, rules, message", [
    ("me: K K K / K ? ?; opp: K ? ? / ? ? ?; discard: 3", Rules(), "5 cards of rank K are showing, but 1 deck(s)"),
    ("me: 5 ? ? / K ?; opp: ? ? ? / ? ? ?; discard: 3", Rules(), "a layout has 6 cards (3 over 3, ? for face down), "
                                                                 "got 5"),
    ("me: 5 ? ? / K ? Z; opp: ? ? ? / ? ? ?; discard: 3", Rules(), "me: 'Z' is not a card"),
    ("me: 5 ? ? / K ? 2; opp: ? ? ? / ? ? ?; discard: 3; drawn: Q; phase: start", Rules(),
     "a drawn card is decided in the hold phase, not in the start phase"),
    ("me: 5 ? ? / K ? 2; opp: ? ? ? / ? ? ?; discard: 3; phase: hold", Rules(), "say which card you drew"),
    ("me: 5 4 3 / K 9 2; opp: ? ? ? / ? ? ?; discard: 3", Rules(), "your six cards are all face up"),
    ("me: 5 ? 3 / K 9 2; opp: 4 4 7 / 8 8 6; discard: 3", Rules(), "with end=immediate the deal is over"),
    ("me: 5 ? 3 / K 9 2; opp: ? ? ? / ? ? ?; discard: 3; phase: flip", Rules(), "unless --discard-and-flip"),
    ("me: 5 ? 3 / K 9 2; opp: ? ? ? / ? ? ?; discard: 3; hole: 10", Rules(), "hole: 10 is not a hole of a 9-hole"),
    # 12 cards in the layouts and 40 on the discard pile (every card not showing, but the kings and queens)
    ("me: 5 ? 3 / K 9 2; opp: ? ? ? / ? ? ?; discard: " + "A " * 4 + "2 " * 3 + "3 " * 3 + "4 " * 4 + "5 " * 3
     + "6 " * 4 + "7 " * 4 + "8 " * 4 + "9 " * 3 + "10 " * 4 + "J " * 4, Rules(),
     "the stock is empty at the start of a turn"),
    ("me: 5 ? 3 / K 9 2; opp: ? ? ? / ? ? ?; discard 3", Rules(), "'discard 3' is not a field"),
])
def test_an_impossible_position_is_refused_with_what_is_wrong(text, rules, message):
    with pytest.raises(PositionError) as caught:
        parse_position(text, rules)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_start_is_the_phase_without_a_drawn_card():
    pub = parse_position("me: 5 ? ? / K ? 2; opp: ? ? ? / ? ? ?; discard: 3 4 5", Rules())
    assert pub[PHASE] == START and pub[HELD] == -1 and pub[TURN] == 3 and pub[LAST_ACTION] == -1
