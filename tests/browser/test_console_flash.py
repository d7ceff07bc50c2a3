"""In Chromium: a console button says what it did. The counter's − flashed 「OK」; the flash reads as the console's
own log line of it (web.common.act → screens.flash_text), in the console's language."""

from __future__ import annotations

from playwright.sync_api import expect


def test_the_gm_reads_what_a_counter_click_did(server, page):
    """One console, a click in each language in turn (tests/web/test_action_flash.py words every action's flash in
    both languages; here the browser's language reaches the click's answer)."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("言葉卓", "generic", [{"name": "セイバー"}, {"name": "アーチャー"}])
    sid = live.state.session_id
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang=ja")
    for lang, left, words in (("ja", "2", "セイバー: 令呪 3→2"), ("en", "1", "セイバー: Command Seals 2→1")):
        if lang == "en":
            page.goto(f"{base}/s/{sid}/gm?lang=en")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.locator("#down-s1-seals").click()
        expect(page.locator('#seat-s1 .value[data-key="seals"]')).to_have_text(left)
        flash = page.locator("#flash-status .flash-ok")
        expect(flash).to_contain_text(words)
        expect(flash).not_to_have_text("OK")
        expect(page.locator("#gm-log .log")).to_contain_text(words)  # the same words as the console's log line
