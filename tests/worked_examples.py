"""The worked scoring examples of RULES.md ("any scorer must reproduce these"), copied from the contract."""

from golfsim.core.rules import Rules

WORKED_EXAMPLES = [
    # layout, rule options, score
    ("8 K 2 / 8 Q 3", {}, 11),
    ("2 2 2 / K K K", {}, -6),
    ("2 5 7 / 2 5 7", {}, 0),
    ("5 K 2 / 5 9 2", {}, 9),
    ("Q J A / 3 7 Q", {}, 41),
    ("J 4 4 / Q 6 9", {}, 43),
    ("2 K 9 / K 2 9", {}, -4),
    ("2 2 6 / 2 3 6", {"twos_pair": "keep_negative"}, -3),
    ("7 7 A / 7 7 A", {"four_of_a_kind_bonus": -10}, -10),
    ("X 2 5 / X 3 5", {"jokers": "minus2"}, 5),
    ("X 2 5 / 4 3 9", {"jokers": "minus2"}, 21),
]


def rules_for(options: dict) -> Rules:
    return Rules(**options)
