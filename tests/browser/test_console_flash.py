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
        # a tap on the flash reaches what lies under it: it never blocks the console (a long success on a 390 px
        # console lay over the middle of the screen for 4 s)
        assert page.evaluate(UNDER_FLASH) == "through", lang
    # on a phone-sized console the flash lies at the top edge, away from the next step held at the window's foot
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#down-s1-seals").click()
    expect(page.locator("#flash-status .flash-ok")).to_contain_text("セイバー: Command Seals 1→0")
    assert page.locator("#flash-status .flash-ok").bounding_box()["y"] < 844 / 4
    assert page.evaluate(UNDER_FLASH) == "through"


# What a tap at the middle of the shown flash reaches: "through" when it is not the flash itself.
UNDER_FLASH = """() => { const f = document.querySelector('#flash .flash').getBoundingClientRect();
  const hit = document.elementFromPoint(f.left + f.width / 2, f.top + f.height / 2);
  return hit && hit.closest('#flash') ? 'the flash' : 'through'; }"""
