"""Issue 13 at a real table: two phones enter their secret servants, one attacks the other, both pick
physical / magical on their phones (the attacker first, A-7), and the table shows the combat with its breakdown."""

from __future__ import annotations

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


def test_one_combat_with_two_phones(page, open_table):
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
        # The phone's own counters: a long label ("Assassination coins") wraps inside its box.
        spill = phones["s1"].evaluate("""() => [...document.querySelectorAll('.mine-card .counters .counter')]
            .filter(c => c.querySelector('dt').scrollWidth > c.querySelector('dt').clientWidth
                         || c.querySelector('dt').getBoundingClientRect().right > c.getBoundingClientRect().right)
            .map(c => c.querySelector('dt').textContent)""")
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
