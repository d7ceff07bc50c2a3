"""Issue 14 at a real table: two phones play a round of Grail Succession, the table screen keeps the row
and the scores, and a grail succession ends the game on every screen the moment the cards are taken."""

from __future__ import annotations

from playwright.sync_api import expect

ROUND = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "+2"]


def test_a_round_with_two_phones_then_a_grail_succession(server, page, browser, phone_context):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("サクセション卓", "succession", [{"name": "アルトリア"}, {"name": "ギルガメッシュ"}])
    sid = live.state.session_id
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    phones = {}
    for seat_id, token in tokens["seats"].items():
        phones[seat_id] = phone_context().new_page()
        phones[seat_id].goto(f"{base}/join/{sid}?k={token}")

    # The GM sets up: アルトリア starts, the row starts with 勢力5 and 勢力6.
    setup = page.locator("#sc-setup")
    setup.locator("select[name=row]").nth(0).select_option("5")
    setup.locator("select[name=row]").nth(1).select_option("6")
    setup.locator("#sc-setup-go").click()
    expect(table.locator("#sc-row .sc-slot")).to_have_count(2)
    expect(table.locator("#sc-status")).to_contain_text("アルトリア")

    def move(seat: str, what: str, passes: bool = True) -> None:
        phone = phones[seat]
        expect(phone.locator("#sc-your-turn")).to_be_visible()
        other = phones["s2" if seat == "s1" else "s1"]
        expect(other.locator("#sc-your-turn")).to_have_count(0)
        if what == "take":
            phone.locator("#sc-take").click()
        else:
            phone.locator(f"#sc-play [data-card='{what}']").click()
        if passes:  # the last turn of a round gives the next round to this player (the first player flips)
            expect(phone.locator("#sc-your-turn")).to_have_count(0)

    # Round 1: twelve turns, alternating; the take highlights and the scores update live.
    for i, what in enumerate(ROUND):
        move("s1" if i % 2 == 0 else "s2", what, passes=i < len(ROUND) - 1)
        if i == 7:
            expect(table.locator("#sc-row .sc-in-take")).to_have_count(5)
            expect(table.locator("#sc-row .sc-end")).to_have_count(1)
    expect(phones["s1"].locator("#sc-must")).to_have_count(0)
    # The round ended: hands refilled, the first player flipped (ギルガメッシュ opens round 2).
    expect(table.locator("#sc-status .sc-round")).to_have_text("2")
    expect(table.locator("#sc-status .sc-current")).to_have_text("ギルガメッシュ")
    expect(phones["s2"].locator("#sc-your-turn")).to_be_visible()
    expect(phones["s1"].locator("#sc-my-hand")).to_have_text("5")
    score = live.state.extra["succession"]
    assert len(score["captured"]["s1"]) + len(score["captured"]["s2"]) == 10

    # Round 2: three grails reach the row; アルトリア takes them all and wins at once (G-3).
    move("s2", "grail")
    move("s1", "grail")
    move("s2", "grail")
    move("s1", "take")
    for screen in (table, phones["s1"], phones["s2"], page):
        expect(screen.locator("#sc-result .sc-winner")).to_contain_text("アルトリア")
        expect(screen.locator("#sc-result .sc-breakdown")).to_have_count(2)
    expect(phones["s2"].locator("#sc-take")).to_have_count(0)
    expect(page.locator("#sc-rematch")).to_be_visible()
