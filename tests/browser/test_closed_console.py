"""A closed session's GM console presents itself as closed (browser review): the controls that can no longer work
(counters, dice, prompts, scenes, undo, seats, readings, settings, the ruleset's steps, closing again) are not
offered, once the close arrives live and when the page is opened afresh; what still works stays (export, the QR
sheet, the table and campaign links, the log, reissuing a join link, the next session, the verify page)."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from gmtool.driver import make_demo
from gmtool.rulesets import registry
from gmtool_testing import api_caller, bearer, start_ace_royal

SHOTS = os.environ.get("GMTOOL_SCREENSHOTS")  # a folder: save screenshots there to look at them


def offered(page) -> list[str]:
    """What the console offers to change now: every visible control but a link, a reissue and the next session."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'main [hx-post], main form, main input:not([type=hidden]), main select, main textarea, main button')]
        .filter((el) => el.checkVisibility() && !el.closest('#continue-console') && !el.closest('.after-close'))
        .map((el) => el.outerHTML.slice(0, 120))""")


def test_a_closed_console_offers_only_what_still_works_live_and_reloaded(server, page):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("終了卓", "generic", [{"name": "セイバー"}, {"name": "アーチャー"}])
    sid, gm = live.state.session_id, tokens["gm"]
    client = app.test_client()
    for path, body in (("prompts", {"title": "誰を狙う", "kind": "seat", "seats": ["s1", "s2"], "gm_submits": True}),
                       ("rolls", {"expr": "S2D6", "label": "秘密"})):
        assert client.post(f"/api/sessions/{sid}/{path}", headers=bearer(gm), json=body).status_code in (200, 201)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/s/{sid}/gm?k={gm}")
    expect(page.locator("#seat-s1 [data-counter=vp] button.step").first).to_be_visible()
    assert len(offered(page)) > 20  # counters, dice, prompt forms, the prompt's answer and its operations …
    page.on("dialog", lambda dialog: dialog.accept())
    # the stream's end at the close is no lost connection: the header never says 「オフライン — 再接続中…」 (it did,
    # for up to a second, until the reconnect was refused)
    page.evaluate("""() => { window.wentOffline = false; new MutationObserver(() => {
        if (document.body.classList.contains('is-offline')) window.wentOffline = true; })
        .observe(document.body, {attributes: true, attributeFilter: ['class']}); }""")
    page.locator(".danger button").click()  # the GM closes the session: the change arrives through the live path
    banner = page.locator("#live .closed-banner")
    expect(banner).to_be_visible()
    page.wait_for_timeout(2500)  # the stream ends, the browser's reconnect is refused (204)
    assert not page.evaluate("window.wentOffline")
    for reload in (False, True):
        if reload:
            page.reload()
            expect(banner).to_be_visible()
        expect(page.locator("body")).to_have_class("screen-gm session-closed")
        assert offered(page) == []
        expect(page.locator(".closed-banner")).to_have_count(1)  # the reason, shown once
        expect(banner).to_contain_text("終了しました")
        expect(banner.locator("a.verify")).to_have_attribute("href", f"/s/{sid}/verify")
        for still in ("エクスポート", "QRシート印刷", "テーブル画面", "キャンペーン"):
            expect(page.locator(".toolbar").get_by_role("link", name=still)).to_be_visible()
        expect(page.locator(".joins button.after-close")).to_have_count(2)
        expect(page.locator(".joins button.after-close").first).to_be_visible()
        expect(page.locator("#continue-console button")).to_be_visible()
        expect(page.locator('#seat-s1 .value[data-key="vp"]')).to_be_visible()  # the counters' values stay
        expect(page.locator("#gm-log .log")).to_contain_text("終了")
        expect(page.locator("#gm-prompts")).to_contain_text("誰を狙う")  # the prompt stays to read
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, f"closed-console-{'reloaded' if reload else 'live'}.png"),
                            full_page=True)
    # what the console still offers works: a reissued link (the page reloads with the new QR codes)
    page.locator(".joins button.after-close").first.click()  # armed (a second click reissues)
    page.locator(".joins button.after-close").first.click()
    expect(page.locator("#flash")).not_to_contain_text("409")
    assert client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["session"]["closed"]


def test_a_closed_console_fits_a_phone(server, phone_context):
    """The published seed (64 characters without a break) in the closed banner and the log's last line wraps: the
    closed console does not scroll sideways at 390 px (it did: 645 px)."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("終了卓", "generic", [{"name": "セイバー"}, {"name": "アーチャー"}])
    sid = live.state.session_id
    assert app.test_client().post(f"/api/sessions/{sid}/close", headers=bearer(tokens["gm"])).status_code == 200
    page = phone_context().new_page()
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    expect(page.locator("#live .closed-banner code")).to_have_text(live.state.seed)
    expect(page.locator("#gm-log .log li").first).to_contain_text(live.state.seed)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def phone_offers(page) -> list[str]:
    """What a phone offers to change now: every visible control but the language link, and every visible hint that
    only an open session needs (`.open-only`: grail's 「あなたがこの側の回答者です」)."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'main [hx-post], main form, main input:not([type=hidden]), main select, main textarea, main button, main .open-only')]
        .filter((el) => el.checkVisibility()).map((el) => el.outerHTML.slice(0, 120))""")


@pytest.mark.parametrize("name", sorted(registry()))
def test_a_closed_console_and_phone_offer_no_ruleset_step(server, page, browser, phone_context, name):
    """Each ruleset's GM panel and a phone's (its demo's state where it has one) offer nothing once the session is
    closed: no dice, answers or steps, each of which would answer 409; live when the close arrives, and afresh. The
    table's stage says the session is closed (a banner at 1920×1080) and shows no one to move or to wait for."""
    base, app = server
    live, tokens = make_demo(app.extensions["gmtool"], name, "終了卓")
    sid = live.state.session_id
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    expect(phone.get_by_role("button", name="2D6", exact=True)).to_be_visible()
    assert phone_offers(phone)
    table = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    expect(table.locator("#stage")).to_be_visible()
    # grail: the demo's setup is revealed, waiting for the GM's confirm: s1 has nothing to answer, so its phone does
    # not say it answers for its side (it did, on every phone of a combat); nor does it once the session is closed
    you_answer = phone.get_by_text("あなたがこの側の回答者です")
    expect(you_answer).to_be_hidden()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang=en")
    assert offered(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator(".danger button").click()
    expect(page.locator("#live .closed-banner")).to_be_visible()
    assert offered(page) == []
    # nor a next step: the marked row (gmtool.css .gm-next) goes with its controls (succession's had kept its
    # 「代わりに操作 …:」 above no buttons, held at the window's foot)
    assert page.evaluate("[...document.querySelectorAll('.gm-next')].filter((el) => el.checkVisibility()).length") == 0
    expect(phone.locator("#live .closed-banner")).to_be_visible()  # the close reaches the phone live
    # the table's own stage says so, above the game as it stood, and shows nothing still to be done (grail's had shown
    # its step as if it could be answered): live, then reloaded in English
    for lang, words in (("ja", "セッション終了"), ("en", "Session closed")):
        if lang == "en":
            table.goto(f"{base}/s/{sid}/table?lang=en")
        expect(table.locator("#stage > .closed-banner")).to_have_text(words)
        expect(table.locator("body")).to_have_class("screen-table session-closed")
        assert table.evaluate("""() => [...document.querySelectorAll('#live .open-only, #live .g-stage-wait')]
            .filter((el) => el.checkVisibility()).length""") == 0
        expect(table.locator("#stage")).not_to_contain_text(  # sugoroku's 「提出 0/2」, grail's 「回答待ち」, who moves
            re.compile("提出|Submitted|回答待ち|Waiting for|手番のプレイヤー|To move|To play"), use_inner_text=True)
    expect(phone.locator("body")).to_have_class("screen-phone session-closed")
    assert phone_offers(phone) == []
    expect(you_answer).to_be_hidden()
    page.reload()
    expect(page.locator("#live .closed-banner")).to_contain_text("This session is closed")
    assert offered(page) == []
    phone.reload()
    expect(phone.locator("#live .closed-banner")).to_contain_text("終了しました")
    assert phone_offers(phone) == []
    expect(you_answer).to_be_hidden()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"closed-console-{name}.png"), full_page=True)
        phone.screenshot(path=os.path.join(SHOTS, f"closed-phone-{name}.png"), full_page=True)


def test_a_closed_succession_tells_nobody_to_move(server, browser, phone_context):
    """Browser review: after the GM closed a Grail Succession mid-round, the table still read 「手番のプレイヤー
    エルキドゥ」 and 「エルキドゥ: このラウンドは取り済み。カードを出してください」, and that player's phone 「あなたの手番」:
    nobody can move in a closed session. Who is to move and what they must do are gone from the table and the phones
    (live and reloaded); the last move, the row and the scores stay."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("終了卓", "succession", [{"name": "ギルガメッシュ"}, {"name": "エルキドゥ"}])
    sid = live.state.session_id
    post = api_caller(app, sid, tokens)
    post("actions/setup", {"first": "s1", "row": [5, 6]})
    post("actions/play", {"card": "7"}, who="s1")
    post("actions/take", who="s2")  # エルキドゥ took: next time it must play
    post("actions/play", {"card": "8"}, who="s1")
    table = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s2']}")
    now = [(table, "#stage .sc-current"), (table, "#stage #sc-must"), (phone, "#sc-your-turn"), (phone, "#sc-must")]
    for screen, selector in now:
        expect(screen.locator(selector)).to_be_visible()
    post("close")
    for reload in (False, True):
        for screen in (table, phone):
            if reload:
                screen.reload()
            expect(screen.locator("#live .closed-banner")).to_be_visible()
        for screen, selector in now:
            expect(screen.locator(selector)).to_be_hidden()
        expect(table.locator("#stage #sc-last")).to_contain_text("ギルガメッシュ")
        expect(phone.locator("#sc-my-score")).to_be_visible()


def _play_until_a_turn(ruleset: str, post) -> tuple[list[str], list[str]]:
    """The setup of each game up to s1's turn (through the API); (the table's, s1's phone's) marks of whose turn it is."""
    if ruleset == "sugoroku":
        post("actions/setup")
        return ["#stage .sg-mover"], []
    if ruleset == "ace_royal":
        start_ace_royal(post, ["s1", "s2"], "standard", [6, 3], {seat: (("英霊", stats), ("クラス", "2/2/2/2"))
                                                                for seat, stats in (("s1", "6/5/3/3"), ("s2", "5/3/5/3"))})
        return ["#stage .ar-current"], [".ar-seals summary"]
    illuminati_opening(post)
    return ["#stage .il-current-name"], [".il-your-turn"]


def illuminati_opening(post) -> None:
    """An illuminati game of two (s1, s2) through the opening (I-2) and the play order (I-3): s1 plays first."""
    post("actions/setup")
    post("actions/opening_start")
    for round_ in (("Bavarian Illuminati", "UFOs"), ("CIA", "KGB")):
        prompt = post("state")["ruleset"]["placement"]["prompt"]
        for seat, name in zip(("s1", "s2"), round_):
            post(f"prompts/{prompt}/answer", {"value": name}, who=seat)
        post("actions/opening_next")
    post("actions/roll_order", {"faces": [6, 6, 1, 1]})


@pytest.mark.parametrize("ruleset", ["sugoroku", "ace_royal", "illuminati"])
def test_a_closed_game_shows_nobody_whose_turn_it_is(server, browser, phone_context, ruleset):
    """As for succession above: a closed session's table no longer names whose turn it is (手番 …), and the phone of
    that player no longer says it is its turn nor offers an empty 令呪を使う; the other player's phone no longer waits."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("終了卓", ruleset, [{"name": "ギルガメッシュ"}, {"name": "エルキドゥ"}])
    sid = live.state.session_id
    post = api_caller(app, sid, tokens)
    on_table, on_phone = _play_until_a_turn(ruleset, post)
    table = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    phones = {}
    for seat in ("s1", "s2"):
        phones[seat] = phone_context().new_page()
        phones[seat].goto(f"{base}/join/{sid}?k={tokens['seats'][seat]}")
    now = [(table, s) for s in on_table] + [(phones["s1"], s) for s in on_phone]
    if ruleset == "sugoroku":
        now.append((phones["s2"], ".sg-wait"))
    for screen, selector in now:
        expect(screen.locator(selector)).to_be_visible()
    post("close")
    for screen, selector in now:
        expect(screen.locator("#live .closed-banner")).to_be_visible()
        expect(screen.locator(selector)).to_be_hidden()
