"""Issue 6 at a real table: two phones roll on their turns, meet on a square and fight with secret cards."""

from __future__ import annotations

from playwright.sync_api import expect


def test_a_turn_with_a_battle_between_two_phones(page, open_table):
    live, tokens, table, phones = open_table("双六卓", "sugoroku", ["セイバー", "アーチャー"])

    # The GM sets the game up from the console; the true names stay secret.
    setup = page.locator("#sg-setup")
    setup.locator("input[name='s1.true_name']").fill("アルトリア")
    setup.locator("input[name='s2.true_name']").fill("エミヤ")
    setup.locator("input[name='s1.mana']").fill("4")
    setup.locator("button.primary").click()
    expect(table.locator(".sg-board .sg-square")).to_have_count(21)

    # Each phone rolls on its own turn with one big button; the server rolls.
    expect(phones["s1"].locator("#sg-roll")).to_be_visible()
    expect(phones["s2"].locator("#sg-roll")).to_have_count(0)
    phones["s1"].locator("#sg-roll").click()
    expect(phones["s2"].locator("#sg-roll")).to_be_visible()
    phones["s2"].locator("#sg-roll").click()
    expect(table.locator(".sg-marker")).to_have_count(2)
    expect(page.locator("#sg-end-phase.primary")).to_be_visible()

    # A square event moves the second player onto the first one's square (quick event form).
    gap = live.state.counters["s1"]["position"] - live.state.counters["s2"]["position"]
    if gap:
        form = page.locator(".sg-events form")
        form.locator("select[name=seat]").select_option("s2")
        form.locator("input[name=move]").fill(str(gap))
        form.locator("input[name=label]").fill("ワープ")
        form.locator("button").click()
    expect(table.locator(".sg-square.sg-crowd")).to_have_count(1)

    page.locator("#sg-end-phase").click()
    page.locator(".sg-start-battle").click()

    # Both phones get the card prompt; the parent puts one card down, the child plays two.
    for phone in phones.values():
        expect(phone.locator(".prompt-card .sg-submit-cards")).to_be_visible()
    parent = phones["s1"].locator(".prompt-card")
    expect(parent.locator(".sg-card-slot")).to_have_count(1)
    parent.locator("select").select_option("力")
    parent.locator("input.sg-power").fill("7")
    parent.locator(".sg-submit-cards").click()
    expect(phones["s1"].locator(".prompt-card .mine")).to_contain_text("力7")
    expect(table.locator("#sg-battle")).to_contain_text("1/2")
    assert "力7" not in table.locator("#live").inner_text()

    child = phones["s2"].locator(".prompt-card")
    expect(child.locator(".sg-card-slot")).to_have_count(3)
    child.locator("select").nth(0).select_option("魔")
    child.locator("input.sg-power").nth(0).fill("3")
    child.locator("select").nth(1).select_option("技")
    child.locator("input.sg-power").nth(1).fill("2")
    child.locator(".sg-submit-cards").click()

    # Everything is revealed at once; the table shows the totals with their breakdown and the winner.
    expect(table.locator("#sg-battle .sg-result")).to_contain_text("セイバーの勝ち")
    expect(table.locator("#sg-battle table.breakdown tr")).to_have_count(3)
    page.locator("#sg-end-battle").click()
    expect(table.locator(".sg-last-battle")).to_contain_text("セイバー")
    expect(table.locator("tr[data-seat=s1] .sg-vp")).to_have_text("2")  # 0 square VP + 2 cards the child played
    assert "アルトリア" not in table.locator("#live").inner_text()
