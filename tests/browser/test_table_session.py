"""A person's session: the GM creates it, two phones join by their links, counters and dice show live."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def _create_session(page, base, app):
    key = app.config["ADMIN_KEY"]
    page.goto(f"{base}/?k={key}")
    expect(page.get_by_role("heading", name="新しいセッション")).to_be_visible()
    page.fill("input[name=title]", "ブラウザ卓")
    # the seat guidance follows the game picked, by CSS alone: a grail seat is a faction, then its master
    guide = page.locator(".seats-guide[data-ruleset=grail_trpg]")
    expect(guide).to_be_hidden()
    page.select_option("select[name=ruleset]", "grail_trpg")
    expect(guide).to_be_visible()
    expect(guide).to_contain_text("陣営名 / マスター名")
    expect(page.locator(".seats-guide[data-ruleset=generic]")).to_be_hidden()
    page.select_option("select[name=ruleset]", "generic")
    expect(page.locator(".seats-guide[data-ruleset=generic]")).to_be_visible()
    # lines typed for one game, then a game whose lines read the other way round picked: a warning by the field (a
    # generic 「士郎 / セイバー陣営」 became, silently, a grail faction named 士郎 with master セイバー陣営); it goes once the
    # game they were typed for is back, or once they are edited for the game now picked
    warning = page.locator("[data-seats-warning]")
    page.fill("textarea[name=seats]", "士郎 / セイバー陣営")
    expect(warning).to_be_hidden()
    page.select_option("select[name=ruleset]", "grail_trpg")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("ゲームを変えました")
    page.select_option("select[name=ruleset]", "generic")
    expect(warning).to_be_hidden()
    page.select_option("select[name=ruleset]", "grail_trpg")
    expect(warning).to_be_visible()
    page.fill("textarea[name=seats]", "セイバー陣営 / 士郎")  # typed again for the grail
    expect(warning).to_be_hidden()
    page.select_option("select[name=ruleset]", "generic")
    page.fill("textarea[name=seats]", "セイバー陣営 / 衛宮\nアーチャー陣営 / 遠坂")
    page.check("input[name=counter][value=karma]")
    page.fill("textarea[name=custom]", "HP,ten")  # a custom counter whose start is no number: refused beside the form
    page.click("#new-session button.primary")
    expect(page.locator("#flash .flash-error")).to_be_visible()
    expect(page.locator("textarea[name=seats]")).to_have_value("セイバー陣営 / 衛宮\nアーチャー陣営 / 遠坂")  # kept
    page.fill("textarea[name=custom]", "")
    page.click("#new-session button.primary")
    expect(page).to_have_url(re.compile(r"/s/[0-9a-f]+/gm$"))
    return page.url.split("/s/")[1].split("/")[0]


def test_gm_creates_session_phones_join_and_see_counters_and_dice_live(server, page, browser, phone_context):
    base, app = server
    sid = _create_session(page, base, app)
    joins = [a.get_attribute("href") for a in page.locator("a.join-link").all()]
    assert len(joins) == 3  # two seats and the table screen
    seat_links, table_link = joins[:2], joins[2]

    phones = []
    for link in seat_links:
        phone = phone_context().new_page()
        phone.goto(link)
        expect(phone).to_have_url(re.compile(rf"/s/{sid}/phone$"))
        phones.append(phone)
    expect(phones[0].locator("header .brand")).to_have_text("セイバー陣営")
    expect(phones[1].locator("header .brand")).to_have_text("アーチャー陣営")

    table = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    table.goto(table_link)
    expect(table.locator(".seed-hash")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))

    # The GM taps + on Saber's karma four times: every screen follows without reloading.
    plus = page.locator('#seat-s1 [data-counter=karma] button[aria-label$="+1"]')
    for _ in range(4):
        plus.click()
        page.wait_for_timeout(50)
    karma = '.value[data-seat=s1][data-key=karma]'
    expect(page.locator(karma)).to_have_text("4")
    expect(phones[0].locator(karma)).to_have_text("4")
    expect(phones[1].locator(karma)).to_have_text("4")
    expect(table.locator(karma)).to_have_text("4")
    expect(table.locator(karma)).to_have_class(re.compile(r"\bflash-change\b"))  # the TV shows what changed
    expect(phones[1].locator(karma)).to_have_class(re.compile(r"\bflash-change\b"))

    # A typed value crossing 9 raises 討伐令 everywhere.
    form = page.locator("#seat-s1 [data-counter=karma] form.set")
    form.locator("input[name=value]").fill("9")
    form.locator("input[name=reason]").fill("魂喰い")
    form.locator("button").click()
    expect(table.locator("#seat-s1 .flag")).to_have_text("討伐令")
    expect(phones[1].locator(".other .flag")).to_have_text("討伐令")

    # Out of range: a clear error, nothing changes.
    form.locator("input[name=value]").fill("-30")  # a change (CCFOLIA habit): 9 - 30 = -21
    form.locator("button").click()
    expect(page.locator("#flash .flash-error")).to_contain_text("0から30までの範囲")
    expect(table.locator(karma)).to_have_text("9")

    # The GM rolls; the roll appears on the table screen and the phones.
    page.fill("#gm-dice input[name=expr]", "2D6>=7")
    page.fill("#gm-dice input[name=label]", "宝具判定")
    page.click("#gm-dice button")
    expect(table.locator(".rolls li").first).to_contain_text("宝具判定")
    expect(table.locator("#stage .stage-roll")).to_contain_text("宝具判定")  # the newest roll is on the stage
    expect(phones[0].locator(".rolls li").first).to_contain_text("2D6>=7")

    # A phone rolls from the quick buttons; the server rolls and everyone sees it.
    phones[1].get_by_role("button", name="1D100").click()
    expect(table.locator(".rolls li").first).to_contain_text("アーチャー陣営")
    expect(page.locator(".rolls li").first).to_contain_text("1D100")

    # Real dice: the phone types the face it rolled at the table, then taps a quick button.
    phones[1].locator("#phone-dice").locator("xpath=..").locator("summary").click()
    phones[1].fill("#phone-faces", "4")
    phones[1].get_by_role("button", name="1D6", exact=True).click()
    expect(table.locator(".rolls li").first).to_contain_text("[4]")
    expect(page.locator(".log li").first).to_contain_text("［実ダイス］")

    # A secret GM roll stays on the GM console only.
    page.fill("#gm-dice input[name=expr]", "S1D20")
    page.fill("#gm-dice input[name=label]", "秘密の判定")
    page.click("#gm-dice button")
    expect(page.locator(".rolls li.secret").first).to_contain_text("秘密の判定")
    # The table sees that the GM rolled in secret, and nothing of the roll.
    expect(table.locator("#stage .stage-secret")).to_have_text(re.compile("GMがシークレットダイスを振りました"))
    expect(table.locator("#live")).not_to_contain_text("秘密の判定")
    assert "1D20" not in table.locator("#live").text_content()
    expect(phones[0].locator(".rolls")).not_to_contain_text("秘密の判定")

    # Undo asks first (a stray tap at a noisy table), then takes back the secret roll; the log keeps it struck through.
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("button.undo")
    expect(page.locator(".log li.undone").first).to_contain_text("秘密の判定")
    assert asked and "取り消しますか" in asked[0]


def test_reissued_link_stops_working_and_english_is_one_tap_away(server, page, phone_context):
    base, app = server
    _create_session(page, base, app)
    old_link = page.locator("a.join-link").first.get_attribute("href")
    phone = phone_context().new_page()
    phone.goto(old_link)
    expect(phone.locator("header .brand")).to_have_text("セイバー陣営")

    # A misclick logs nobody out: the first click only arms the button and says what a second one does (no JS
    # dialog, which a kiosk or a script may accept unseen); the second, within 4 seconds, reissues.
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    reissue = page.locator(".joins li").first.get_by_role("button", name="リンク再発行")
    reissue.click()
    expect(reissue).to_have_class(re.compile("armed"))
    expect(page.locator("#flash")).to_contain_text("セイバー陣営の古いリンクは使えなくなります: もう一度押すと再発行")
    page.wait_for_timeout(500)
    assert page.locator("a.join-link").first.get_attribute("href") == old_link and not dialogs
    reissue.click()
    page.wait_for_load_state()
    expect(page.locator("a.join-link").first).not_to_have_attribute("href", old_link)

    phone.reload()
    expect(phone.locator("main")).to_contain_text("権限がありません")
    phone.goto(page.locator("a.join-link").first.get_attribute("href"))
    expect(phone.locator("header .brand")).to_have_text("セイバー陣営")

    phone.get_by_role("link", name="English").click()
    expect(phone.locator("h2").filter(has_text="Your seat")).to_be_visible()
