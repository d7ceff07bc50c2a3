"""Issue 12 in Chromium: the verify page fits a 390 px phone and explains itself; the GM console's set box
takes +N / -N as a change; its 'hide answers until the reveal' toggle hides the answers and is remembered."""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect

from gmtool_testing import bearer

SHOTS = os.environ.get("GMTOOL_SCREENSHOTS")  # a folder: save screenshots there to look at them


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def api(app, sid, token, path, body):
    response = app.test_client().post(f"/api/sessions/{sid}/{path}", headers=bearer(token), json=body)
    assert response.status_code in (200, 201), response.get_json()
    return response.get_json()


def revealed_session(server, seats=("セイバー", "アーチャー")):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("検証卓", "generic", [{"name": n} for n in seats])
    sid = live.state.session_id
    api(app, sid, tokens["gm"], "prompts", {"title": "1stセレクト", "kind": "choice", "options": ["筋力", "耐久"],
                                           "seats": ["s1", "s2"]})
    api(app, sid, tokens["gm"], "prompts", {"title": "誰を狙う", "kind": "seat", "seats": ["s1", "s2"]})
    api(app, sid, tokens["seats"]["s1"], "prompts/p1/answer", {"value": "耐久"})
    api(app, sid, tokens["seats"]["s2"], "prompts/p1/answer", {"value": "筋力"})
    api(app, sid, tokens["seats"]["s1"], "prompts/p2/answer", {"value": "s2"})
    api(app, sid, tokens["seats"]["s2"], "prompts/p2/answer", {"value": "s1"})
    return base, app, sid, tokens


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_verify_page_fits_a_phone_explains_itself_and_links_to_a_served_page(server, phone_context):
    """In each language in turn, on one phone of one session."""
    base, app, sid, tokens = revealed_session(server)
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    for lang in ("ja", "en"):
        phone.goto(f"{base}/s/{sid}/verify?lang={lang}")
        items = phone.locator("ul.verify > li")
        expect(items).to_have_count(4)
        assert phone.locator("ul.verify > li.ok").count() == 4
        assert phone.evaluate("window.innerWidth") == 390
        assert fits(phone), phone.evaluate("document.documentElement.scrollWidth")
        intro = phone.locator(".verify-intro").inner_text().strip()
        if lang == "ja":
            assert intro.count("。") == 2 and intro.endswith("。")
            assert not re.search(r"[A-Za-z]{3,}", intro)
        else:
            assert intro.count(". ") == 1 and intro.endswith(".") and not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", intro)
        # players read names, never ids: the seat vote shows the seat's name in words
        vote = phone.locator("#v-p2-s1 .answer-words")
        expect(vote).to_have_text("アーチャー")
        # … and the seat id it hashed stands as it is hashed, the seat's name beside it
        expect(phone.locator("#v-p2-s1 code").first).to_have_text('"s2"')
        expect(phone.locator("#v-p2-s1 .id-name")).to_have_text("（アーチャーの席）" if lang == "ja" else "(アーチャー's seat)")
        shot(phone, f"verify-390-{lang}.png")
        link = phone.locator("a.verify-help-link")
        href = link.get_attribute("href")
        assert href.startswith(f"/s/{sid}/") and ".md" not in href
        link.click()
        expect(phone).to_have_url(re.compile(r"/verify/how"))
        assert fits(phone)
        # the worked example uses one of this table's revealed answers
        prompts = app.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(tokens["gm"])).get_json()["prompts"]
        salts = [a["salt"] for p in prompts for a in p["answers"].values()]
        text = phone.locator(".verify-help").inner_text()
        assert any(salt in text for salt in salts)
        shot(phone, f"verify-how-390-{lang}.png")


def test_verify_page_fits_at_laptop_width_too(server, browser):
    base, app, sid, tokens = revealed_session(server)
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    page.goto(f"{base}/s/{sid}/verify")
    assert fits(page)
    shot(page, "verify-1366-ja.png")


def test_console_set_box_plus_two_is_a_change(server, page):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("加算卓", "generic", [{"name": "セイバー"}, {"name": "アーチャー"}])
    sid = live.state.session_id
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    value = page.locator('#seat-s2 .value[data-key="vp"]')
    expect(value).to_have_text("0")
    box = page.locator('#seat-s2 [data-counter="vp"] form.set')
    box.locator("input[name=value]").fill("5")
    box.locator("button").click()
    expect(value).to_have_text("5")
    box.locator("input[name=value]").fill("+2")
    box.locator("button").click()
    expect(value).to_have_text("7")
    box.locator("input[name=value]").fill("-3")
    box.locator("button").click()
    expect(value).to_have_text("4")
    seals = page.locator('#seat-s1 [data-counter="seals"] form.set')
    seals.locator("input[name=value]").fill("10")
    seals.locator("button").click()
    expect(page.locator("#flash")).to_contain_text("令呪は0から3までの範囲です")
    expect(page.locator('#seat-s1 .value[data-key="seals"]')).to_have_text("3")
    shot(page, "console-1366-ja.png")


def test_console_hides_answers_until_the_reveal_and_remembers_it(server, page, browser):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("隠す卓", "generic", [{"name": "セイバー"}, {"name": "アーチャー"}])
    sid = live.state.session_id
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    api(app, sid, tokens["gm"], "prompts", {"title": "1stセレクト", "kind": "choice", "options": ["筋力", "耐久"],
                                           "seats": ["s1", "s2"]})
    api(app, sid, tokens["seats"]["s1"], "prompts/p1/answer", {"value": "耐久"})
    log = page.locator("#gm-log .log")
    expect(log).to_contain_text("→ 耐久")
    expect(page.locator("#gm-prompts .answer-value")).to_have_text("耐久")
    toggle = page.locator("#hide-answers")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(page.locator("#hide-answers")).to_have_attribute("aria-pressed", "true")
    expect(log).not_to_contain_text("耐久")
    expect(page.locator("#gm-prompts .answer-value")).to_have_count(0)
    expect(page.locator("#gm-prompts")).to_contain_text("回答は公開まで隠しています")
    shot(page, "console-hidden-1366-ja.png")
    # remembered by the session: another browser (the GM's second laptop) opens it hidden
    other = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    other.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang=en")
    other.goto(f"{base}/s/{sid}/gm?lang=en")
    expect(other.locator("#hide-answers")).to_have_attribute("aria-pressed", "true")
    expect(other.locator("#hide-answers")).to_contain_text("Hide answers until the reveal: On")
    expect(other.locator("#gm-log .log")).not_to_contain_text("耐久")
    shot(other, "console-hidden-1366-en.png")
    # the reveal shows them again
    api(app, sid, tokens["seats"]["s2"], "prompts/p1/answer", {"value": "筋力"})
    expect(page.locator("#gm-prompts .answer-value").first).to_be_visible()
    expect(log).to_contain_text("耐久")


def test_the_new_session_form_shows_counters_only_for_a_ruleset_that_takes_them(server, browser):
    """The counter choices stayed on screen for the games that declare their own counters and were dropped without
    a word (browser review). On a 390 px phone the home page does not scroll sideways in either language (it was
    423 px wide: the ruleset select as wide as its longest choice, and the import's file field)."""
    base, app = server
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    page.goto(f"{base}/?k={app.config['ADMIN_KEY']}&lang=en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "en"
    page.goto(f"{base}/?lang=ja")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "ja"
    counters = page.locator("fieldset.custom-counters")
    expect(counters).to_be_visible()  # generic, the default
    page.select_option("select[name=ruleset]", "sugoroku")
    expect(counters).to_be_hidden()
    page.select_option("select[name=ruleset]", "generic")
    expect(counters).to_be_visible()
    page.context.close()
