"""``golfsim serve`` in a real browser: a person starts a game, plays a whole hole by clicking, opens the hint
panel, gets bad input back as a message in the page, and finds the game saved for ``golfsim replay``."""

from __future__ import annotations

import pytest

from golfsim.logs.trace import read_log, scorecard
from tests.browser.layout import box, overlap, screenshot
from tests.browser.server import serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("starlette", reason="golfsim serve needs the web extra: pip install -e '.[web]'")
    folder = tmp_path_factory.mktemp("games")
    with serving(folder) as url:
        yield url, folder


def start(page, url, opponents="ev", seed="5", **fields):
    page.set_default_timeout(180_000)  # the server's first game of an agent loads its compiled code
    page.goto(url + "/")
    page.fill("#opponents", opponents)
    page.fill("#seed", seed)
    for name, value in fields.items():
        page.fill(f"#{name}", value)
    page.click("#start")


def settle(page):
    """Wait until the page after a click is parsed: it offers the person's moves or the next hole.

    A click on a form button returns once the next page's navigation commits, before its body is parsed; counting
    buttons then can find none (CI failed so)."""
    page.locator(".moves button, #next-hole").first.wait_for()


def test_a_whole_hole_played_by_clicks_is_scored_and_saved(page, server, tmp_path):
    url, folder = server
    start(page, url, "ev,greedy", "5", holes="2")
    clicks = 0
    settle(page)
    while page.locator("#next-hole").count() == 0:
        assert clicks < 200, "the hole did not end"
        buttons = page.locator(".moves button")
        assert buttons.count() >= 1 and "your move" in page.inner_text("#status")
        # take the last legal move offered (a reveal, a throw or the last slot): a whole hole by clicks
        buttons.nth(buttons.count() - 1).click()
        clicks += 1
        settle(page)
    status = page.inner_text("#status")
    assert status.startswith("the hole is over: you ")
    shown = {part.rsplit(" ", 1)[0]: int(part.rsplit(" ", 1)[1]) for part in status.split(": ", 1)[1].split(", ")}
    rows = page.locator("#scorecard tr")
    assert rows.count() == 3  # header, hole 1, total
    hole_one = [int(c) for c in rows.nth(1).locator("td").all_inner_texts()[1:]]
    assert hole_one == [shown["you"], shown["ev"], shown["greedy"]]
    saved = page.inner_text("#saved").split("Saved after every move to ")[1].split(" (show it")[0]
    log = read_log(saved)  # what golfsim replay reads
    assert scorecard(log, 0).loc[1].tolist() == hole_one
    screenshot(page, "serve.png", tmp_path)
    page.click("#next-hole")
    settle(page)
    assert "hole 2 of 2" in page.inner_text("#status")
    assert page.errors == []


def test_the_hint_panel_lists_every_legal_move(page, server):
    url, _ = server
    start(page, url, "ev", "8")
    while "open" in page.text_content("#board text.title"):  # the two opening flips
        page.locator(".moves button").first.click()
        settle(page)
    moves = page.locator(".moves button").all_inner_texts()
    page.click("#show-hint")
    page.locator("#hint table").wait_for()
    rows = page.locator("#hint table tr")
    assert rows.count() == len(moves) + 1
    hinted = sorted(r.split("\t")[0] for r in rows.all_inner_texts()[1:])
    assert hinted == sorted(moves)
    board, hint = box(page, "#board svg"), box(page, "#hint")
    assert not overlap(board, hint) and board["x"] + board["width"] <= 1000


def test_bad_input_is_a_message_in_the_page(page, server):
    url, _ = server
    start(page, url, "nobody", "1")
    page.locator("#error").wait_for()
    assert page.locator("#error").count() == 1 and "nobody" in page.inner_text("#error")
    start(page, url, "ev", "1", jokers="lots")
    assert "lots" in page.inner_text("#error")
    start(page, url, "ev", "x")
    assert "seed" in page.inner_text("#error")
    response = page.goto(url + "/game/no-such-game")
    assert response.status == 404 and "no game" in page.inner_text("#error")
    start(page, url, "ev", "2")
    page.wait_for_selector(".moves button")  # evaluate does not wait for the game page as the locators do
    game = page.url
    page.evaluate("() => { const b = document.querySelector('.moves button'); b.value = '99'; }")
    page.locator(".moves button").first.click()
    assert "not legal" in page.inner_text("#error") and page.url.startswith(game)
    assert "Traceback" not in page.content()
