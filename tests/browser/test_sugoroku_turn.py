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


def test_the_table_summary_shows_whole_rolls_on_one_line_at_1280x720(open_table, api_post):
    """Four players with long faction names: the summary's roll strip (newest first) shows only whole rolls, each
    on one line, inside the summary; the rolls that do not fit are left out, never cut or broken over two lines."""
    names = ["セイバー陣営", "アーチャー陣営", "ランサー陣営", "ライダー陣営"]
    live, tokens, table, _phones = open_table("双六卓", "sugoroku", names, table_height=720)
    sid = live.state.session_id
    api_post(sid, tokens["gm"], "actions/setup", {"board_length": 20, "order": ["s1", "s2", "s3", "s4"]})
    for seat, face in (("s1", 3), ("s2", 1), ("s3", 6), ("s4", 5)):  # entered: the same board every run
        api_post(sid, tokens["seats"][seat], "actions/roll_move", {"faces": [face]})
    expect(table.locator(".summary-rolls .roll")).to_have_count(3)
    for lang in ("ja", "en"):
        table.goto(f"{table.url.split('?')[0]}?lang={lang}")
        strip = table.locator(".summary-rolls .rolls")
        expect(strip.locator(".roll").first).to_contain_text(names[3])
        # measured once the layout holds still (the live fragment may still be morphing in after the load)
        shown, previous = None, []
        for _ in range(20):
            if shown == previous:
                break
            previous = shown
            table.wait_for_timeout(150)
            shown = strip.evaluate("""ol => { const box = ol.getBoundingClientRect();
            const summary = document.querySelector('#table-summary').getBoundingClientRect();
            return [...ol.querySelectorAll('.roll')].map(li => { const r = li.getBoundingClientRect();
              const inside = r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.right <= box.right + 1;
              const outside = r.top >= box.bottom - 1;
              return {text: li.innerText.replace(/\\s+/g, ' '), inside, outside, height: r.height,
                      in_summary: r.bottom <= summary.bottom + 1}; }); }""")
        visible = [r for r in shown if r["inside"]]
        assert visible and all(r["inside"] or r["outside"] for r in shown), (lang, shown)
        assert all(r["in_summary"] and r["height"] <= 48 for r in visible), (lang, shown)
