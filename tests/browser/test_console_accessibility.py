"""The GM console and the table screen for a keyboard and a screen reader, in Chromium: skip links first on the
console; each new thing said once by a live region of its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


def console(server, page, seats=("セイバー", "アーチャー", "ランサー", "ライダー")):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("卓", "sugoroku", [{"name": n} for n in seats])
    sid = live.state.session_id
    return base, app, sid, tokens


@pytest.mark.parametrize(("lang", "links"), [
    ("ja", ["席とカウンターへ", "質問へ", "ダイスへ", "ログへ"]),
    ("en", ["Skip to seats and counters", "Skip to prompts", "Skip to dice", "Skip to the log"])])
def test_the_consoles_first_tab_stops_skip_to_its_areas(server, page, lang, links):
    """About sixty counter controls stood between the top of the console and its dice: the first tab stops are
    links to the seats, the prompts, the dice and the log, out of sight until focused; Enter moves the focus."""
    base, app, sid, tokens = console(server, page)
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang={lang}")
    expect(page.locator("#live .live-root")).to_be_attached()
    skip = page.locator(".skip-links a")
    expect(skip).to_have_text(links)
    first = skip.first
    box = first.bounding_box()
    assert box["y"] + box["height"] <= 0  # out of sight before it has the focus
    page.keyboard.press("Tab")
    expect(first).to_be_focused()
    box = first.bounding_box()
    assert box["y"] >= 0 and box["height"] > 0  # seen once focused
    for n, target in enumerate(("#gm-seats", "#gm-prompts-area", "#gm-dice-card", "#gm-log")):
        page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang={lang}")
        expect(page.locator("#live .live-root")).to_be_attached()
        for _ in range(n + 1):
            page.keyboard.press("Tab")
        expect(skip.nth(n)).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator(target)).to_be_focused()
    # the next Tab goes on from the log, not back to the top of the page
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#gm-log') !== null")
