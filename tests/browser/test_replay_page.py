"""The replay page in a real browser: stepped through by clicks and keys, jumped to a hole, its layout checked by
element boxes (not pixels)."""

from __future__ import annotations

import time

import pytest

from golfsim.core.rules import Rules
from golfsim.logs.replay_html import write_page
from golfsim.logs.trace import log_games, read_log
from tests.browser.layout import box, overlap, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replay")
    log = read_log(log_games(["ev", "greedy"], folder / "log.parquet", Rules(holes=3), games=1, seed=4))
    write_page(folder / "game.html", log, 0)
    return folder / "game.html"


def shown_cards(page) -> list[str]:
    """Per seat the six ranks the board shows now ('?' face down), read from the drawn cards."""
    return page.evaluate("""() => [0, 1].map(seat => [0, 1, 2, 3, 4, 5].map(slot => {
        const g = document.querySelector(`#board g.card[data-seat="${seat}"][data-slot="${slot}"]`);
        if (g.classList.contains('face-down')) return '?';
        return g.querySelector('.rank').textContent;
    }).join(' '))""")


def expected_cards(page, index: int) -> list[str]:
    row = page.evaluate(f"JSON.parse(document.getElementById('data').textContent).steps[{index}].L")
    return [" ".join("10" if c == "T" else c for c in seat) for seat in row.split(" ")]


def test_a_replay_steps_by_clicks_and_keys_and_jumps_to_a_hole(page, replay):
    start = time.perf_counter()
    page.goto(replay.as_uri())
    page.wait_for_selector("#where:has-text('step 1 of')")
    print(f"opened in {time.perf_counter() - start:.2f} s")
    total = int(page.inner_text("#where").split()[-1])
    for k in range(1, 6):
        page.click("#next")
        assert page.inner_text("#where") == f"step {k + 1} of {total}"
        assert shown_cards(page) == expected_cards(page, k)
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#where") == f"step 5 of {total}"
    chosen = page.locator("#alts li.chosen")
    assert chosen.count() == 1 and chosen.inner_text().endswith("(played)")
    assert page.inner_text("#move").endswith(chosen.inner_text().replace("(played)", "").strip())
    page.click('#holes button[data-hole="3"]')
    first = page.evaluate("JSON.parse(document.getElementById('data').textContent).starts['3']")
    assert page.inner_text("#where") == f"step {first + 1} of {total}"
    assert "hole 3 of 3" in page.text_content("#board text.title")
    assert shown_cards(page) == expected_cards(page, first)
    page.click("#last")
    assert page.inner_text("#move").startswith("deal over: ")
    assert "?" not in " ".join(shown_cards(page))
    assert page.errors == []


def test_the_replay_layout_keeps_its_parts_apart(page, replay, tmp_path):
    page.goto(replay.as_uri())
    for _ in range(8):
        page.click("#next")
    controls, holes, board = box(page, "#controls"), box(page, "#holes"), box(page, "#board svg")
    move, alternatives = box(page, "#move"), box(page, "#alternatives")
    # top to bottom without overlapping: controls, hole buttons, the table, the move, the alternatives
    for upper, lower in ((controls, holes), (holes, board), (board, move), (move, alternatives)):
        assert upper["y"] + upper["height"] <= lower["y"] + 1
    assert board["x"] + board["width"] <= 1000  # no sideways scrolling at 1000 pixels
    panels = [box(page, f'#board g.seat[data-seat="{s}"] > rect') for s in (0, 1)]
    assert not overlap(*panels)
    for seat, panel in enumerate(panels):
        for slot in range(6):
            card = box(page, f'#board g.card[data-seat="{seat}"][data-slot="{slot}"]')
            assert panel["x"] <= card["x"] and card["x"] + card["width"] <= panel["x"] + panel["width"]
            assert panel["y"] <= card["y"] and card["y"] + card["height"] <= panel["y"] + panel["height"]
    assert screenshot(page, "replay.png", tmp_path).stat().st_size > 1000
