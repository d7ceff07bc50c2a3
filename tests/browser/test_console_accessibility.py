"""The GM console and the table screen for a keyboard and a screen reader, in Chromium: skip links first on the
console; each new thing said once by a live region of its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gmtool_testing import bearer


def console(server, page, seats=("セイバー", "アーチャー", "ランサー", "ライダー"), ruleset="sugoroku"):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("卓", ruleset, [{"name": n} for n in seats])
    sid = live.state.session_id
    return base, app, sid, tokens


# The skip links' targets, each after the one before in the document (the page's order and its tab order).
IN_PAGE_ORDER = """() => {
  const targets = [...document.querySelectorAll(".skip-links a")].map((a) => document.querySelector(a.getAttribute("href")));
  return targets.every((t, i) => t && (i === 0 || targets[i - 1].compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING));
}"""


@pytest.mark.parametrize(("ruleset", "links", "english"), [
    ("sugoroku", ["ゲームの進行へ", "質問へ", "席とカウンターへ", "ログへ", "ダイスへ"],
     ["Skip to the game", "Skip to prompts", "Skip to seats and counters", "Skip to the log", "Skip to dice"]),
    ("generic", ["質問へ", "席とカウンターへ", "ログへ", "ダイスへ"], None)])
def test_the_consoles_first_tab_stops_skip_to_its_areas(server, page, ruleset, links, english):
    """About sixty counter controls stood between the top of the console and its dice: the first tab stops are
    links to the console's areas, out of sight until focused; Enter moves the focus. They follow the areas' order
    on the page (the console put the game's panel first, then the prompts, above the seats; the links still began
    with the seats and had no way to the panel): the game's panel (a game with one), the prompts, the seats, the
    log, then the side column's dice. The keys are walked in Japanese; in English the same links read in English, in
    the same order."""
    lang = "ja"
    base, app, sid, tokens = console(server, page, ruleset=ruleset)
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang={lang}")
    expect(page.locator("#live .live-root")).to_be_attached()
    skip = page.locator(".skip-links a")
    expect(skip).to_have_text(links)
    assert page.evaluate(IN_PAGE_ORDER)
    targets = [href[1:] for href in skip.evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")]
    assert targets[-4:] == ["gm-prompts-area", "gm-seats", "gm-log", "gm-dice-card"]
    assert targets[:-4] == (["gm-panel"] if ruleset != "generic" else [])
    first = skip.first
    box = first.bounding_box()
    assert box["y"] + box["height"] <= 0  # out of sight before it has the focus
    page.keyboard.press("Tab")
    expect(first).to_be_focused()
    box = first.bounding_box()
    assert box["y"] >= 0 and box["height"] > 0  # seen once focused
    for n, target in enumerate(targets):
        page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang={lang}")
        expect(page.locator("#live .live-root")).to_be_attached()
        for _ in range(n + 1):
            page.keyboard.press("Tab")
        expect(skip.nth(n)).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator(f"#{target}")).to_be_focused()
        if target == "gm-panel":  # the next Tab goes on inside the game's panel, not back to the top of the page
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.closest('#gm-panel section.card') !== null")
    # the next Tab goes on from the dice, not back to the top of the page
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#gm-dice-card') !== null")
    if english:
        page.goto(f"{base}/s/{sid}/gm?lang=en")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(skip).to_have_text(english)
        assert page.evaluate(IN_PAGE_ORDER)
        assert [href[1:] for href in skip.evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")] == targets


# Live regions (and what makes one) inside another: a screen reader may read a message once for each.
NESTED = """() => {
  const live = '[aria-live], [role=status], [role=alert], [role=log]';
  return [...document.querySelectorAll(live)].filter((el) => el.parentElement.closest(live)).map((el) => el.outerHTML.slice(0, 80));
}"""


def test_each_message_is_in_one_live_region_of_its_kind(server, page, phone_context, browser):
    """#flash was a polite live region holding a role=status or role=alert message, so some screen readers read a
    message twice: a success goes into the page's status region, an error into its alert region, neither inside
    another, and one replaces the other (console, phone and table alike)."""
    base, app, sid, tokens = console(server, page)
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    for screen, form in ((page, "#gm-dice"), (phone, "#phone-dice + form")):
        expect(screen.locator("#live .live-root")).to_be_attached()
        expr = screen.locator(f"{form} input[name=expr]")
        expr.fill("2D6")
        screen.locator(f"{form} button.primary").click()
        expect(screen.locator("#flash-status[role=status] .flash-ok")).to_have_count(1)
        assert screen.evaluate(NESTED) == []
        expr.fill("2D")
        screen.locator(f"{form} button.primary").click()
        expect(screen.locator("#flash-alert[role=alert] .flash-error")).to_have_count(1)
        expect(screen.locator("#flash-status")).to_be_empty()
        assert screen.evaluate(NESTED) == []
        expr.fill("1D6")
        screen.locator(f"{form} button.primary").click()
        expect(screen.locator("#flash-status .flash-ok")).to_have_count(1)
        expect(screen.locator("#flash-alert")).to_be_empty()
        assert screen.locator("#flash [role]:not(#flash-status, #flash-alert)").count() == 0
    # On the phone an error stays in the flow under the header, a success lies just under the header bar.
    expr = phone.locator("#phone-dice + form input[name=expr]")
    expr.fill("2D")
    phone.locator("#phone-dice + form button.primary").click()
    error = phone.locator("#flash-alert .flash-error")
    expect(error).to_be_visible()
    assert error.evaluate("(el) => getComputedStyle(el).position") != "fixed"
    error.locator(".flash-close").click()
    expect(phone.locator("#flash .flash")).to_have_count(0)
    expect(phone.locator("#flash")).to_be_hidden()
    table = browser.new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    expect(table.locator("#live .live-root")).to_be_attached()
    assert table.evaluate(NESTED) == []
    table.close()


def test_the_console_and_the_table_say_what_is_new_once(server, page, browser):
    """Only a phone told a screen reader of a new prompt. The table says a new prompt, a reveal and a roll's result;
    the console says a reveal (the last answer reveals a prompt by itself), a prompt the GM answers too and every
    roll (the GM's other actions answer with a flash; the GM's own rolls and every roll of a game's step:
    test_web_pages, test_game_rolls). Each once, and again for a new prompt of the same title (a thing is known by
    what it is, not by its words)."""
    base, app, sid, tokens = console(server, page, seats=("セイバー", "アーチャー"), ruleset="generic")
    api = app.test_client()

    def call(token, path, body):
        r = api.post(f"/api/sessions/{sid}/{path}", headers=bearer(token), json=body)
        assert r.status_code in (200, 201), r.get_json()
        return r.get_json()

    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    table = browser.new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    phone = browser.new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    heard = {"gm": page.locator("#announce"), "table": table.locator("#announce")}
    for screen in (page, table, phone):
        expect(screen.locator("#live .live-root")).to_be_attached()
    expect(heard["gm"]).to_have_attribute("aria-live", "polite")

    def quiet():  # what was said is gone: only something new fills the region again
        for screen in (page, table, phone):
            screen.evaluate("document.querySelectorAll('#announce > *').forEach((line) => { line.dataset.old = '1'; line.textContent = ''; })")

    call(tokens["gm"], "prompts", {"title": "どれ", "kind": "choice", "options": ["赤", "青"], "seats": ["s1", "s2"]})
    expect(heard["table"]).to_have_text("新しい質問: どれ")
    expect(page.locator("#gm-prompts")).to_contain_text("どれ")
    expect(heard["gm"]).to_have_text("")  # the GM opened it
    quiet()
    call(tokens["seats"]["s1"], "prompts/p1/answer", {"value": "赤"})
    call(tokens["seats"]["s2"], "prompts/p1/answer", {"value": "青"})  # the last answer reveals it
    for who in ("gm", "table"):
        expect(heard[who]).to_have_text("どれ: 公開済み")
    quiet()
    total = call(tokens["seats"]["s1"], "rolls", {"expr": "2D6", "label": "探索"})["total"]
    for who in ("gm", "table"):
        expect(heard[who]).to_have_text(f"セイバー · 探索: {total}")
    quiet()
    call(tokens["gm"], "counters", {"seat": "s1", "key": "seals", "delta": -1})
    for screen in (page, table):
        expect(screen.locator("#live .value[data-seat=s1][data-key=seals]")).to_have_text("2")
    for who in ("gm", "table"):
        expect(heard[who]).to_have_text("")  # nothing new: nothing said again
    # A prompt the GM answers too is news on the console; a second prompt of the same title is news again: a new
    # line with the same words.
    for _ in range(2):
        quiet()
        call(tokens["gm"], "prompts", {"title": "どれ", "kind": "choice", "options": ["赤", "青"], "seats": ["s1"],
                                       "gm_submits": True})
        for screen in (page, table, phone):
            expect(screen.locator("#announce > :not([data-old])")).to_have_text("新しい質問: どれ")
    table.close()
    phone.close()
