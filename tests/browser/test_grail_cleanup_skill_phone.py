"""Issue 16's rest at a real table: the GM adds a skill field by field on the console, a faction uses a result
skill after the confirm (T-6) and its cleanup skill (T-11) from its own phone; the table shows both."""

from __future__ import annotations

from playwright.sync_api import expect

SABER = """アルトリア(セイバー) 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60
- スキル 怪力 リザルト 筋力+20"""
ARCHER = "エミヤ(アーチャー) 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50"


def test_t11_t6_a_faction_uses_its_result_and_cleanup_skills_from_its_phone(open_table, page, paste_sheets):
    _live, _tokens, table, phones = open_table("スキルのタイミング", "grail_trpg", ["セイバー陣営", "アーチャー陣営"])
    gm = page  # open_table opened the GM console on it
    paste_sheets({"s1": SABER, "s2": ARCHER})

    # The GM adds a cleanup skill to アルトリア field by field.
    add = gm.locator("#grail-sheets-s1 .g-add-skill")
    add.locator("summary").click()
    add.locator("input[name=name]").fill("仕切り直し")
    add.locator("select[name=timing]").select_option("cleanup")
    add.locator("select[name=stat]").select_option("敏捷")
    add.locator("input[name=value]").fill("+10")
    add.get_by_role("button", name="スキル・宝具を追加").click()
    expect(gm.locator("[data-sheet-skill='s1/アルトリア:2'] summary")).to_contain_text("クリンナップ・敏捷+10")

    start = gm.locator("#grail-start")
    start.locator("input[name=a][value=s1]").check()
    start.locator("input[name=b][value=s2]").check()
    start.locator("button.primary").click()
    for seat_id, main in (("s1", "s1/アルトリア"), ("s2", "s2/エミヤ")):
        card = phones[seat_id].locator(".prompt-card")
        expect(card.locator("h2")).to_contain_text("セットアップ")
        card.locator("select[name=main]").select_option(main)
        card.get_by_role("button", name="秘密で提出").click()
    gm.locator("#grail-confirm").click()

    stats = {1: ("筋力", "筋力"), 2: ("魔力", "敏捷"), 3: ("筋力", "幸運")}
    for n in (1, 2, 3):
        gm.locator("#grail-next").click()
        for seat_id, stat in zip(("s1", "s2"), stats[n]):
            card = phones[seat_id].locator(".prompt-card")
            expect(card.locator("h2")).to_contain_text(f"{('1st', '2nd', '3rd')[n - 1]}セレクト")
            card.locator(f"label[data-stat='{stat}']").click()
            card.get_by_role("button", name="秘密で提出").click()
        gm.locator("#grail-confirm").click()
        expect(table.locator(f".g-result[data-select='{n}']")).to_have_count(1)
        if n == 1:
            # T-6: the result phase lasts until the next select: 怪力 is one tap on the phone after the confirm.
            chip = phones["s1"].locator("#grail-skill-panel [data-skill='怪力']")
            expect(chip).to_be_enabled()
            chip.click()
            expect(table.locator(".g-result[data-select='1'] [data-side='a'] .g-total")).to_have_text("60")

    gm.locator("#grail-next").click()  # final result
    gm.locator("#grail-next").click()  # battle roll
    expect(table.locator("#stage .g-stage-winner")).to_be_visible()
    winner = table.locator("#stage .g-stage-winner b").get_attribute("data-winner")

    # T-11: at cleanup the faction taps its cleanup skill on its own phone; the table lists it with its numbers.
    chip = phones["s1"].locator("#grail-skill-panel [data-skill='仕切り直し']")
    expect(chip).to_be_enabled()
    expect(phones["s1"].locator("#grail-skill-panel")).to_contain_text("クリンナップ・敏捷+10")
    chip.click()
    row = table.locator("#grail-cleanup-skills [data-skill='仕切り直し']")
    expect(row).to_contain_text("スキル〈仕切り直し〉")
    expect(row).to_contain_text("+10")
    expect(phones["s2"].locator("#grail-cleanup-skills")).to_contain_text("仕切り直し")  # declared openly
    assert winner in ("a", "b")
    gm.locator("#grail-next").click()  # cleanup: 黒星
    expect(table.locator("#grail-cleanup")).to_contain_text("黒星")

