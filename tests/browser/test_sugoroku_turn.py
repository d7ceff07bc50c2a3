"""Issue 6 at a real table: two phones roll on their turns, meet on a square and fight with secret cards."""

from __future__ import annotations

import pytest
from gmtool_testing import CLIPPED_TEXT, SETTLED, SMALL_TEXT, TV_MIN_PX, api_caller
from playwright.sync_api import expect


def test_a_turn_with_a_battle_between_two_phones(page, open_table):
    live, tokens, table, phones = open_table("双六卓", "sugoroku", ["セイバー", "アーチャー"])

    # The GM sets the game up from the console; the true names stay secret.
    setup = page.locator("#sg-setup")
    setup.locator("input[name='s1.true_name']").fill("アルトリア")
    setup.locator("input[name='s2.true_name']").fill("エミヤ・シロウ")
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
    # On the parent's phone in English, the child's cards ("Magic 3, Technique 2", too long for the rest of its row)
    # read beside the child's name, not fallen under it as a line of their own
    phones["s1"].goto(phones["s1"].url.split("?")[0] + "?lang=en")
    row = phones["s1"].locator(".prompt-card .respondents li, .card .respondents li").filter(has_text="アーチャー").first
    expect(row.locator(".answer-value")).to_have_text("Magic 3, Technique 2")
    who, value = row.locator(".who").bounding_box(), row.locator(".answer-value").bounding_box()
    assert value["y"] < who["y"] + who["height"] and value["x"] > who["x"] + who["width"], (who, value)
    page.locator("#sg-end-battle").click()
    expect(table.locator(".sg-last-battle")).to_contain_text("セイバー")
    expect(table.locator("tr[data-seat=s1] .sg-vp")).to_have_text("2")  # 0 square VP + 2 cards the child played
    assert "アルトリア" not in table.locator("#live").inner_text()
    # S-13: once revealed, a phone's own true name reads whole at 390 px (a third of the row broke 「クー・フー / リン」)
    page.locator(".sg-more summary").click()
    reveal = page.locator("form[hx-post$='/reveal_true_name']")
    reveal.locator("select[name=seat]").select_option("s2")
    reveal.locator("button").click()
    mine = phones["s2"].locator(".sg-my-true-name")
    expect(mine).to_have_text("エミヤ・シロウ")
    assert mine.evaluate("""dd => { const range = document.createRange(); range.selectNodeContents(dd);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }""") == 1


# Seven factions with long names (sugoroku seats at most 7): the widest standings and the most markers.
LONG_NAMES = ["セイバー陣営（衛宮士郎とアルトリア）", "アーチャー陣営（遠坂凛とエミヤ）", "ランサー陣営（言峰綺礼）", "ライダー陣営（間桐桜）",
              "キャスター陣営（葛木宗一郎）", "アサシン陣営（佐々木小次郎）", "バーサーカー陣営（イリヤスフィール）"]
# Each board's entered faces, one per seat in turn order: the same board every run. All seven on one square is
# tie_of_seven's board (its summary, with the tie on the stage, the tallest this board makes).
BOARDS = {"spread": [1, 2, 3, 4, 5, 6, 1], "pairs": [1, 1, 2, 2, 3, 3, 4], "tie_of_seven": [3] * 7}
# The strip's rolls: whole and on one line inside it, or left out below it; all inside the summary.
ROLLS = """ol => { const box = ol.getBoundingClientRect(), summary = document.querySelector('#table-summary').getBoundingClientRect();
  return [...ol.querySelectorAll('.roll')].map(li => { const r = li.getBoundingClientRect();
    return {text: li.innerText.replace(/\\s+/g, ' '), inside: r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.right <= box.right + 1,
            outside: r.top >= box.bottom - 1, height: r.height, in_summary: r.bottom <= summary.bottom + 1}; }); }"""
# The board's squares: each one's width, and how many columns a crowd of three or more takes (--span)
SQUARES = """() => [...document.querySelectorAll('#table-summary .sg-square')].map(s => ({n: s.dataset.square,
  width: s.getBoundingClientRect().width, span: +getComputedStyle(s).getPropertyValue('--span') || 1}))"""


@pytest.mark.parametrize("board", list(BOARDS))
def test_the_table_shows_a_whole_sugoroku_board_and_its_rolls_at_every_screen(server, browser, board):
    """The summary of seven long-named factions (spread over the board, in pairs, all on one square) and a revealed tie
    of all seven on the stage: at 1280×720, 1366×768 and 1920×1080, in both languages, no text of the table screen is
    cut (the summary was 40vh with overflow hidden: the rolls, then the standings' last rows fell out of it; a crowded
    square stacked its markers one per line), the page does not scroll, and the roll strip shows whole rolls on one line.
    The board's squares are all as wide, a piece on them or not."""
    base, app = server
    live, raw = app.extensions["gmtool"].create("双六卓", "sugoroku", [{"name": n} for n in LONG_NAMES])
    sid, seats = live.state.session_id, list(raw["seats"])
    call = api_caller(app, sid, raw)
    call("actions/setup", {"board_length": 20, "order": seats})
    for seat, face in zip(seats, BOARDS[board]):
        call("actions/roll_move", {"faces": [face]}, who=seat)
    if board == "tie_of_seven":
        call("actions/end_phase")
        call("actions/start_battle")
        battle = call("state")["ruleset"]["battle"]
        for seat in battle["fighters"]:
            cards = ["力5"] if seat == battle["parent"] else ["技3", "魔2", "力1"]
            call(f"prompts/{battle['prompt']}/answer", {"value": cards}, who=seat)
        assert call("state")["ruleset"]["battle"]["result"]
    for width, height in ((1280, 720), (1366, 768), (1920, 1080)):
        table = browser.new_context(viewport={"width": width, "height": height}).new_page()
        for lang in ("ja", "en"):
            table.goto(f"{base}/s/{sid}/table?k={raw['table']}&lang={lang}")
            expect(table.locator(".summary-rolls .roll").first).to_contain_text(LONG_NAMES[6])
            table.wait_for_function(SETTLED)  # measured once the layout holds still (the stage's entrance, its fit)
            cut = table.evaluate(CLIPPED_TEXT), table.locator(".summary-rolls .rolls").evaluate(ROLLS)
            where = (board, width, lang)
            assert cut[0] == [], where
            visible = [r for r in cut[1] if r["inside"]]
            assert visible and all(r["inside"] or r["outside"] for r in cut[1]), (where, cut[1])
            assert all(r["in_summary"] and r["height"] <= 48 for r in visible), (where, cut[1])
            if width == 1920:  # the TV: drawn smaller to fit, but every word still reads across the room
                assert table.evaluate(SMALL_TEXT, TV_MIN_PX) == [], where
            # every square as wide as the others, a piece on it or not (a square with a marker had been drawn narrower
            # or wider than an empty one); a crowd of three or more a column more for every two more players
            squares = table.evaluate(SQUARES)
            one = [q["width"] for q in squares if q["span"] == 1]
            assert max(one) - min(one) < 1 and all(q["width"] >= q["span"] * min(one) - 1 for q in squares), (where, squares)
        table.context.close()
