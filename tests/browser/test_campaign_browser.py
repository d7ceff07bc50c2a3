"""A GM ends an evening and starts the next from the console in real Chromium: the next session opens with
what carried over, the closed evening's table screen and phones left open lead there, an old phone link is
refused, and the HTML export preview renders as a page."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from gmtool import operations as ops
from gmtool.core.view import GM


def test_gm_continues_the_campaign_from_the_console(server, page, phone_context):
    base, app = server
    manager = app.extensions["gmtool"]
    live, tokens = manager.create("第1夜", "grail_trpg", [{"name": "セイバー陣営"}, {"name": "ランサー陣営"}])
    ops.change_counter(live, GM, {"seat": "s2", "key": "black_stars", "value": 2, "reason": "敗北"})
    sid = live.state.session_id
    # the evening's table screen and a phone stay open while the GM closes the session and starts the next one
    table = page.context.browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    old_phone = phone_context().new_page()
    old_phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s2']}")
    ops.close(live, GM)
    expect(table.locator("#stage .closed-banner")).to_be_visible()
    expect(old_phone.locator("#live .closed-banner")).to_be_visible()
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#continue-console button")
    expect(page).to_have_url(re.compile(r"/s/[0-9a-f]+/gm$"))
    new_sid = page.url.split("/s/")[1].split("/")[0]
    assert new_sid != sid
    expect(page.locator("header")).to_contain_text("第1夜（続き）")
    # the closed screens left open show where the game went on (within a heartbeat), each its own way there: the
    # table screen, which nobody stands at, goes there by itself
    expect(table).to_have_url(f"{base}/s/{new_sid}/table")
    expect(table.locator("header .brand")).to_have_text("第1夜（続き）")
    table.goto(f"{base}/s/{sid}/table")  # the closed evening opened on purpose stays, with its link
    expect(table.locator("#stage .closed-banner a.next-session")).to_contain_text("第1夜（続き）")
    table.wait_for_timeout(300)
    expect(table).to_have_url(f"{base}/s/{sid}/table")
    old_phone.click("#live .closed-banner a:has-text('第1夜（続き）')")
    expect(old_phone).to_have_url(f"{base}/s/{new_sid}/phone")
    expect(old_phone.locator("header .brand")).to_have_text("ランサー陣営")
    expect(old_phone.locator("#live .mine-card")).to_contain_text("黒星")
    table.context.close()
    # the log tells where it came from; the campaign page lists both evenings
    page.goto(f"{base}/s/{new_sid}/gm/campaign")
    rows = page.locator("#campaign-sessions tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("第1夜")
    expect(rows.nth(1)).to_contain_text("黒星 2")
    # last week's phone link does not open this evening
    phone = phone_context().new_page()
    response = phone.goto(f"{base}/join/{new_sid}?k={tokens['seats']['s1']}")
    assert response.status == 403
    # the HTML preview is the page as it prints, not its source
    page.goto(f"{base}/s/{new_sid}/gm/export?format=html")
    frame = page.frame_locator("#preview-frame")
    expect(frame.locator("h1")).to_have_text("第1夜（続き）")
    expect(frame.locator("h2").first).to_have_text("開始")


def test_the_scene_picker_steps_aside_for_a_whole_campaign_export(server, page):
    """A whole-campaign export covers every scene: choosing it disables and hides the scene picker, so the
    preview is never the server's refusal; choosing this session brings the picker back."""
    base, app = server
    manager = app.extensions["gmtool"]
    live, _tokens = manager.create("第1夜", "sugoroku", [{"name": "A"}, {"name": "B"}])
    following, new_tokens = manager.continue_from(live.state.session_id)
    ops.mark_scene(following, GM, {"title": "港"})
    sid = following.state.session_id
    page.goto(f"{base}/s/{sid}/gm?k={new_tokens['gm']}")
    page.goto(f"{base}/s/{sid}/gm/export?format=markdown")
    scene = page.locator("select[name=scene]")
    expect(scene).to_be_visible()
    scene.select_option("0")
    page.select_option("#export-scope", "1")
    expect(scene).to_be_disabled()
    expect(scene).to_be_hidden()
    page.click("#export-form button.primary")
    expect(page.locator("#preview")).to_contain_text("キャンペーン")  # the campaign's write-up, not a 400
    assert "scene=" not in page.url
    expect(page.locator("select[name=scene]")).to_be_disabled()  # rendered disabled while the campaign is chosen
    page.select_option("#export-scope", "0")
    expect(page.locator("select[name=scene]")).to_be_enabled()
    expect(page.locator("select[name=scene]")).to_have_value("")


def test_download_takes_what_is_chosen_now(server, page):
    """Download gave the format and language of the last preview, not of the choices on screen (browser review)."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("書き出し", "generic", [{"name": "A"}, {"name": "B"}])
    sid = live.state.session_id
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    page.goto(f"{base}/s/{sid}/gm/export?format=markdown")
    page.select_option("select[name=format]", "mediawiki")
    page.select_option("select[name=lang]", "en")
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename.endswith(".wiki"), download.value.suggested_filename
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "書き出し" in text and "セッション" not in text  # the English write-up (the title is the GM's own)
