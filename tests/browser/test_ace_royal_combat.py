"""Issue 13 at a real table: two phones enter their secret servants, one attacks the other, both pick
physical / magical on their phones (the attacker first, A-7), and the table shows the combat with its breakdown."""

from __future__ import annotations

import re

from gmtool_testing import api_caller, bearer, start_ace_royal
from playwright.sync_api import expect


def _servant(phone, hero, hero_stats, cls, cls_stats, skills=()):
    form = phone.locator("#ar-servant-form")
    form.locator("input[name=hero_name]").fill(hero)
    form.locator("input[name=hero_stats]").fill(hero_stats)
    for s in skills:
        form.locator(f"input[name=hero_skills][value={s}]").check()
    form.locator("input[name=class_name]").fill(cls)
    form.locator("input[name=class_stats]").fill(cls_stats)
    form.locator("button.primary").click()


def test_one_combat_with_two_phones(server, page, open_table):
    live, tokens, table, phones = open_table("エースロイヤル", "ace_royal", ["凛", "ウェイバー"])

    # The GM sets up the standard version and enters the real dice for the first active master.
    page.locator("#ar-setup button.primary").click()
    expect(table.locator(".ar-head")).to_contain_text("スタンダード")
    page.locator("form:has(#ar-roll-first) input[name=faces]").fill("6 2")
    page.locator("#ar-roll-first").click()
    expect(table.locator(".ar-first")).to_contain_text("6")

    # Each phone enters its servant: the owner sees the sums at once, nobody else sees the cards.
    _servant(phones["s1"], "アルトリア", "6/5/3/3", "セイバー", "3/3/1/5", ["first_strike"])
    expect(phones["s1"].locator(".ar-my-stats")).to_contain_text("9/8/4/8")
    _servant(phones["s2"], "イスカンダル", "5/3/5/3", "ライダー", "2/2/4/2")
    expect(phones["s2"].locator(".ar-my-stats")).to_contain_text("7/5/9/5")
    assert "アルトリア" not in table.locator("#live").inner_text()
    assert "アルトリア" not in phones["s2"].locator("#live").inner_text()
    page.locator("#ar-start").click()

    # s1's turn: one big button per step, then an attack on s2.
    expect(table.locator(".ar-current")).to_have_text("凛")
    phones["s1"].locator("#ar-step").click()
    expect(table.locator(".ar-steps .ar-now")).to_have_text("ドローステップ")
    phones["s1"].locator("#ar-step").click()
    expect(table.locator(".ar-steps .ar-now")).to_have_text("儀式ステップ")
    phones["s1"].locator(".ar-attack").click()

    # Disclosure: both servants on the table; each phone picks its attack.
    expect(table.locator("#ar-combat")).to_be_visible()
    expect(table.locator(".ar-players")).to_contain_text("アルトリア")
    # The phone's breakdown fits its 390 px: the stat headers wrap, the row labels do not (one line each), and in
    # English ("Phys ATK" …) nothing scrolls sideways; the attacker's buttons are then clickable as they are.
    for lang in ("ja", "en"):
        if lang == "en":
            phones["s1"].goto(phones["s1"].url.split("?")[0] + "?lang=en")
        box = phones["s1"].locator("#ar-my-combat .ar-breakdown")
        expect(box).to_be_visible()
        assert box.evaluate("""t => { const label = t.querySelector('td'); const em = parseFloat(getComputedStyle(label).fontSize);
            return t.getBoundingClientRect().right <= t.closest('.card').getBoundingClientRect().right
                   && label.getBoundingClientRect().height < 2.5 * em; }"""), lang
        assert phones["s1"].evaluate("document.documentElement.scrollWidth") <= 390, lang
        # The phone's own coins (the panel's row: core's card of them is left out, Ruleset.phone_counters): each
        # label stays inside the card, in English too.
        spill = phones["s1"].evaluate("""() => [...document.querySelectorAll('#ace-royal-phone .ar-coins dt')]
            .filter(dt => dt.scrollWidth > dt.clientWidth
                          || dt.getBoundingClientRect().right > dt.closest('.card').getBoundingClientRect().right)
            .map(dt => dt.textContent)""")
        assert phones["s1"].locator("#ace-royal-phone .ar-coins dt").count() == 6
        assert spill == [], (lang, spill)
    phones["s1"].locator(".ar-kind[data-kind=physical]").click()
    expect(phones["s1"].locator("#ar-picked")).to_be_visible()  # the pick stands: no buttons to tap
    expect(phones["s1"].locator(".ar-kind")).to_have_count(0)
    # s1's 先制 deals damage: there is no interception process, so s2 has nothing to pick (A-7).
    expect(phones["s2"].locator(".ar-kind")).to_have_count(0)
    expect(phones["s2"].locator("#ar-resolve")).to_be_visible()
    phones["s2"].locator("#ar-resolve").click()

    # 9 vs 5 → 4 to s2; s1 has 先制 and dealt damage, so there is no interception: s1 took
    # nothing and steals a card from s2's hand, the server's die picking which.
    result = table.locator("#stage .ar-result")
    expect(result).to_contain_text("9 vs 5")
    expect(result).to_contain_text("4")
    expect(table.locator(".ar-player[data-seat=s2] .ar-mana")).to_have_text("1")
    expect(table.locator(".ar-player[data-seat=s2] .ar-state")).to_contain_text("ダウン")
    expect(table.locator("#stage .ar-stage-terms").first).to_be_visible()
    expect(table.locator("#ar-newest")).to_contain_text("奪う")
    # each phone lists what the combat did (Down, the steal), its words whole on a 390 px phone: 「ダ / ウン」 broke there
    expect(phones["s2"].locator("#ar-newest-action")).to_contain_text("奪う")
    broken = phones["s2"].evaluate("""() => [...document.querySelectorAll('#ar-newest-action p')].flatMap((p) =>
        [...p.textContent.matchAll(/[ァ-ヶー]{2,}/g)].filter((m) => { const range = document.createRange();
            const node = p.firstChild; range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1; }).map((m) => m[0]))""")
    assert broken == [], broken

    # The GM undoes the result: on a 1366×768 TV in English the line over the stage that says what was taken back
    # (six clauses) keeps to two lines, a small part of the stage (it filled 273 of its 449 px and the combat under it
    # was drawn at 8 px); the whole line is in the history's log.
    api_caller(server[1], live.state.session_id, tokens)("undo")
    table.set_viewport_size({"width": 1366, "height": 768})
    table.goto(table.url.split("?")[0] + "?lang=en")
    banner = table.locator("#stage-undone")
    expect(banner).to_contain_text("Undo: Combat result")
    size = banner.evaluate("""(b) => ({height: b.clientHeight, line: parseFloat(getComputedStyle(b).lineHeight),
        stage: document.getElementById('stage').clientHeight})""")
    assert size["height"] <= 2 * size["line"] + 1 and size["height"] <= size["stage"] / 5, size
    expect(table.locator("#history .log li").first).to_contain_text(re.compile(r"^.*Undo: Combat result: .*凛: Hand 5→6"))


COINS = """() => [...document.querySelectorAll('.ar-player')].map((chip) => {
    const box = chip.getBoundingClientRect();
    const out = [...chip.querySelectorAll('.ar-coins *')].filter((el) => {
        const r = el.getBoundingClientRect(); return r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5); });
    return {rows: new Set([...chip.querySelectorAll('.ar-coins dd')].map((d) => Math.round(d.getBoundingClientRect().bottom))).size,
            outside: out.map((el) => el.textContent.trim())}; })"""


def test_a2_the_english_tv_chips_keep_their_coins_in_one_row_and_inside_the_chip(server, browser):
    """Browser review at 1920×1080 and 1366×768 (A-2): the English chip's 'Command Seals' and 'Mystic codes' are twice
    as wide as 令呪 and 礼装, and from five players one coin fell to a row of its own (「Mystic codes」 alone under the
    others), the chip half again as tall as the Japanese one. A name now takes two lines instead, the coins stay in one
    row; seven players (with assassination and depletion coins) lay them out in aligned columns, none outside its chip.
    Seven chips at the three sizes in both languages: a face-down card's 「英霊カード?」 / 「クラスカード?」 is never broken
    inside the word (it read 「クラスカー」 / 「ド?」), nor is the stage heading's player or step (「ライズステッ」 / 「プ」 at
    390 px). On the stage, during a combat, the two sides' rows line up (A-7): the pick sank on the side with fewer
    breakdown lines."""
    base, app = server
    for n in (5, 7):
        live, tokens = app.extensions["gmtool"].create("エースロイヤル", "ace_royal", [{"name": f"マスター{i}"} for i in range(n)])
        sid = live.state.session_id
        post = api_caller(app, sid, tokens)
        start_ace_royal(post, tokens["seats"], "standard", [6] + [1 + i % 5 for i in range(1, n)])
        if n == 7:
            post("counters", {"seat": "s1", "key": "assassin", "delta": 2})
            post("counters", {"seat": "s1", "key": "depletion", "delta": 1})
            # a combat on the stage: the attacker's proxy and cards make its breakdown lines two or three, the
            # interceptor's one (its pick still …)
            post("actions/step")
            post("actions/step")
            post("actions/declare_attack", {"target": "s2"})
            post("actions/combat_proxy", {"side": "attacker", "name": "王の軍勢", "stats": "7/8/7/4", "legion": True,
                                          "source": "hero"})
            for label in ("約束された勝利の剣", "風王結界", "魔力放出"):
                post("actions/combat_modifier", {"side": "attacker", "stat": "all", "value": 1, "label": label})
            post("actions/combat_choose", {"side": "attacker", "kind": "physical"})
        sizes = ((1920, 1080), (1366, 768)) + (((390, 844),) if n == 7 else ())
        for (width, height), lang in [(size, lang) for size in sizes for lang in ("en", "ja") if lang == "en" or n == 7]:
            table = browser.new_context(viewport={"width": width, "height": height}).new_page()
            table.goto(f"{base}/s/{sid}/table?k={tokens['table']}&lang={lang}")
            expect(table.locator(".ar-seals").first).to_be_visible()
            if lang == "en" and width > 390:
                chips = table.evaluate(COINS)
                assert all(not c["outside"] for c in chips), (n, width, chips)
                if n == 5:
                    assert all(c["rows"] == 1 for c in chips), (width, chips)
            # each face-down card's placeholder on one line, the chip breaking between the two (seven: the narrowest)
            broken = table.evaluate("""() => [...document.querySelectorAll('.ar-player .ar-cards .ar-hidden')]
                .filter((el) => el.getClientRects().length !== 1).map((el) => el.textContent)""")
            hidden = 2 * (n - 2) if n == 7 else 2 * n  # the combat disclosed its two servants
            assert table.locator(".ar-player .ar-cards .ar-hidden").count() == hidden and broken == [], (n, width, lang, broken)
            # the stage's heading breaks between its words, each whole: 「ライズステッ」 / 「プ」 on a 390 px phone
            heading = table.evaluate("""() => [...document.querySelectorAll('#stage .stage-step b')]
                .filter((el) => el.getClientRects().length !== 1).map((el) => el.textContent)""")
            assert table.locator("#stage .stage-step b").count() == 2 and heading == [], (n, width, lang, heading)
            if n == 7:  # the two sides' rows line up: who, the pick, the breakdown (the pick sank on the shorter side)
                rows = table.evaluate("""() => ['.ar-who', '.ar-stage-kind', '.ar-stage-terms'].map((part) =>
                    [...document.querySelectorAll('#ar-combat .ar-stage-side')].map((side) =>
                        Math.round(side.querySelector(part).getBoundingClientRect().top)))""")
                assert all(len(tops) == 2 and tops[0] == tops[1] for tops in rows), (width, lang, rows)
            table.context.close()


FIELDS = """(form) => [...form.querySelectorAll('select:not([name=effect]), input:not([type=hidden])')]
    .filter((el) => el.getClientRects().length).map((el) => el.name)"""


def test_a3_the_consoles_seal_form_shows_what_the_chosen_effect_takes_and_seal_four_its_text(server, browser):
    """Browser review at 1366×768: the console's seal form showed every field whatever the effect (the die or stat, the
    coin, the placement) and none for seal 4's text, which use_seal takes (`text`, logged with the seal). Each effect now
    shows only its fields, chosen with the keyboard; seal 4's text is typed and sent; a live update keeps the choice."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("エースロイヤル", "ace_royal", [{"name": "凛"}, {"name": "ウェイバー"}])
    sid = live.state.session_id
    post = api_caller(app, sid, tokens)
    start_ace_royal(post, tokens["seats"], "quick", [6, 1])
    page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    for lang, text_label in (("en", "凛: Text effect used (card, effect)"), ("ja", "凛: 使うテキスト（カード名・効果）")):
        page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang={lang}")
        form = page.locator(".ar-seal-form").first
        effect = form.locator("select[name=effect]")
        effect.focus()
        shown = {}
        for n in range(1, 6):
            expect(effect).to_have_value(str(n))
            shown[n] = form.evaluate(FIELDS)
            if n < 5:
                page.keyboard.press("ArrowDown")
        assert shown == {1: [], 2: ["die"], 3: ["coin", "placement"], 4: ["text"], 5: []}, (lang, shown)
        expect(form.get_by_label(text_label)).to_have_count(1)
    # the keyboard all the way: seal 4, Tab to its text, type it, Enter sends it
    page.keyboard.press("ArrowUp")
    expect(effect).to_have_value("4")
    post("actions/adjust", {"seat": "s2", "key": "hand", "delta": 1, "reason": "draw"})  # a live update meanwhile
    expect(page.locator(".ar-gm-players tbody").nth(1).locator(".ar-count b").nth(2)).to_have_text("5")
    expect(effect).to_have_value("4")
    page.keyboard.press("Tab")
    expect(form.locator("input[name=text]")).to_be_focused()
    page.keyboard.type("燕返し")
    page.keyboard.press("Enter")
    expect(page.locator(".ar-gm-players tbody").first.locator(".ar-count b").nth(1)).to_have_text("2")
    log = app.test_client().get(f"/api/sessions/{sid}/log?lang=ja", headers=bearer(tokens["gm"])).get_json()["events"]
    assert any("4. テキストをコストなしで使用 <燕返し>" in e["text"] for e in log), log[-3:]
    page.context.close()
