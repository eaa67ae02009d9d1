"""docs/RULES.md is the project's rules document: its worked examples score as stated, it holds every example of
the rules contract, and the engine spec and the README point to it."""

import importlib
import importlib.util
import re

import numpy as np
import pytest

from golfsim.core.cards import parse_layout
from golfsim.core.engine import deal_scores
from golfsim.core.rules import HOUSE_MEANINGS, HOUSE_OPTIONS, Rules
from golfsim.core.scoring import score_layout
from golfsim.core.spec import ENDER, R_PUB_SIZE
from tests import reference_engine as reference
from tests.support import REPO

DOCUMENT = REPO / "docs" / "RULES.md"
CONTRACT_EXAMPLES = [  # the worked examples of the rules contract (tests/worked_examples.py), as the document shows
    ("8 K 2 / 8 Q 3", "default", 11), ("2 2 2 / K K K", "default", -6), ("2 5 7 / 2 5 7", "default", 0),
    ("5 K 2 / 5 9 2", "default", 9), ("Q J A / 3 7 Q", "default", 41), ("J 4 4 / Q 6 9", "default", 43),
    ("2 K 9 / K 2 9", "default", -4), ("2 2 6 / 2 3 6", "twos_pair=keep_negative", -3),
    ("7 7 A / 7 7 A", "four_of_a_kind_bonus=-10", -10), ("X 2 5 / X 3 5", "jokers=minus2", 5),
    ("X 2 5 / 4 3 9", "jokers=minus2", 21),
]


def documented_examples() -> list[tuple[str, str, int]]:
    """The rows of the table between the worked-examples markers: (layout, options, score)."""
    text = DOCUMENT.read_text()
    block = text.split("<!-- worked-examples: begin")[1].split("<!-- worked-examples: end")[0]
    rows = []
    for line in block.splitlines():
        match = re.match(r"\| `([^`]+)` \| ([^|]+) \| (-?\d+) \|", line)
        if match:
            rows.append((match[1], match[2].strip(), int(match[3])))
    return rows


def rules_from(options: str) -> Rules:
    if options == "default":
        return Rules()
    values = {}
    for item in options.split(","):
        key, value = (part.strip() for part in item.split("="))
        values[key] = int(value) if re.fullmatch(r"-?\d+", value) else True if value == "on" else value
    return Rules(**values)


def test_the_document_has_a_table_of_worked_examples():
    assert len(documented_examples()) >= 20


@pytest.mark.parametrize(("layout", "options", "score"), documented_examples())
def test_every_worked_example_scores_as_the_document_states(layout, options, score):
    assert score_layout(layout, rules_from(options))["score"] == score


def test_the_document_keeps_every_example_of_the_rules_contract():
    assert set(CONTRACT_EXAMPLES) <= set(documented_examples())


def test_every_option_of_rules_is_documented():
    text = DOCUMENT.read_text()
    for field in ("decks", "jokers", "opening_flips", "reveal_instead_of_draw", "discard_and_flip", "end",
                  "twos_pair", "four_of_a_kind_bonus", "holes", "turn_cap"):
        assert f"`{field}" in text, field
    assert set(Rules.__dataclass_fields__) == {"players", "decks", "jokers", "opening_flips",
                                               "reveal_instead_of_draw", "discard_and_flip", "end", "twos_pair",
                                               "four_of_a_kind_bonus", "holes", "turn_cap", *HOUSE_OPTIONS}
    for name in (*HOUSE_MEANINGS, "flip_mode=endgame"):
        assert f"`{name}" in text, name


def test_the_engine_spec_and_the_readme_cite_the_projects_own_rules_document():
    # the module whose docstring is the engine's specification (golfsim.core.rules, or golfsim.core.spec once the
    # kernel interface has a module of its own)
    modules = [importlib.import_module(name) for name in ("golfsim.core.rules", "golfsim.core.spec")
               if importlib.util.find_spec(name) is not None]
    (spec,) = [m for m in modules if "docstring is the engine's specification" in " ".join(m.__doc__.split())]
    assert "docs/RULES.md" in spec.__doc__
    assert "../shared" not in spec.__doc__
    assert "docs/RULES.md" in (REPO / "README.md").read_text()


def documented_hole_examples() -> list[tuple[list[str], int, str, list[int]]]:
    """The rows of the house rules' hole table: (layouts, seat that went out or -1, options, scores)."""
    text = DOCUMENT.read_text()
    block = text.split("<!-- hole-examples: begin")[1].split("<!-- hole-examples: end")[0]
    rows = []
    for line in block.splitlines()[3:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4:
            layouts = [part.strip().strip("`") for part in cells[0].split(";")]
            went_out = -1 if cells[1] == "-" else int(cells[1])
            rows.append((layouts, went_out, cells[2], [int(x) for x in cells[3].split()]))
    return rows


def test_the_document_has_hole_examples_for_every_rule_that_compares_scores():
    named = " ".join(options for _, _, options, _ in documented_hole_examples())
    for rule in ("blackjack", "knock_penalty", "knock_bonus", "underdog_bonus", "tied_shame"):
        assert rule in named, rule


@pytest.mark.parametrize(("layouts", "went_out", "options", "scores"), documented_hole_examples())
def test_every_hole_example_scores_as_the_document_states(layouts, went_out, options, scores):
    rules = Rules(players=len(layouts), **{name.strip(): True for name in options.split(",")})
    packed = rules.pack()
    pub = np.zeros(int(packed[R_PUB_SIZE]), dtype=np.int32)
    pub[ENDER] = went_out
    hid = np.zeros(int(packed[R_PUB_SIZE]), dtype=np.int16)
    hid[: 6 * len(layouts)] = [card for layout in layouts for card in parse_layout(layout)]
    out = np.zeros(len(layouts), dtype=np.int64)
    deal_scores(pub, hid, packed, out)
    assert out.tolist() == scores
    layout_scores = [reference.score_layout(parse_layout(layout), rules) for layout in layouts]
    assert reference.hole_scores(layout_scores, went_out, rules) == scores
