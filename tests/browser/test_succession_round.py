"""Issue 14 at a real table: two phones play Grail Succession with the table screen: a round turn by turn,
the last round to its final take (the winner and the breakdown on every screen at once), then a one-tap
rematch that ends in a grail succession."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import expect

ROUND = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "+2"]
# the last round ends with the second player's take; with the starting row 5, 6 the four rounds use
# the whole deck (26 faction, 7 plus, 9 minus cards)
LAST_ROUND = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "-3", "-2", "take"]


def test_a_game_with_two_phones_then_a_rematch_won_by_the_grails(server, page, open_table):
    base, app = server
    live, tokens, table, phones = open_table("サクセション卓", "succession", ["アルトリア", "ギルガメッシュ"])
    sid = live.state.session_id

    def api(name: str, payload: dict) -> dict:
        """The GM's move for the current player through the JSON API (rounds the phones skip)."""
        request = urllib.request.Request(f"{base}/api/sessions/{sid}/actions/{name}", data=json.dumps(payload).encode(),
                                         headers={"Authorization": f"Bearer {tokens['gm']}",
                                                  "Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def current() -> str:
        return live.state.extra["succession"]["turns"]["current"]

    def move(what: str, passes: bool = True) -> None:
        seat = current()
        phone, other = phones[seat], phones["s2" if seat == "s1" else "s1"]
        expect(phone.locator("#sc-your-turn")).to_be_visible()
        expect(other.locator("#sc-your-turn")).to_have_count(0)
        if what == "take":
            phone.locator("#sc-take").click()
        else:
            phone.locator(f"#sc-play [data-card='{what}']").click()
        if passes:  # the last turn of a round gives the next round to this player (the first player flips)
            expect(phone.locator("#sc-your-turn")).to_have_count(0)

    # The GM sets up: アルトリア starts, the row starts with 勢力5 and 勢力6.
    setup = page.locator("#sc-setup")
    setup.locator("select[name=row]").nth(0).select_option("5")
    setup.locator("select[name=row]").nth(1).select_option("6")
    setup.locator("#sc-setup-go").click()
    expect(table.locator("#sc-row .sc-slot")).to_have_count(2)
    expect(table.locator("#sc-status .sc-current")).to_have_text("アルトリア")
    # The first player's moves are docked at the bottom of the phone (390×844) in at most 40% of its height,
    # every card in view without scrolling the dock, none of their names broken inside (マイナ / ス−1).
    dock = phones["s1"].locator(".sc-moves[data-primary]")
    expect(dock).to_be_visible()
    fit = dock.evaluate("""d => ({height: d.getBoundingClientRect().height, scrolls: d.scrollHeight > d.clientHeight + 1,
        broken: [...d.querySelectorAll('.sc-word')].filter(w => w.getClientRects().length > 1).map(w => w.textContent)})""")
    assert fit["height"] <= 0.4 * 844 and not fit["scrolls"] and not fit["broken"], fit

    # Round 1 on the phones: twelve turns; the row marks its end and the five cards a take would get.
    for i, what in enumerate(ROUND):
        move(what, passes=i < len(ROUND) - 1)
        if i == 7:
            expect(table.locator("#sc-row .sc-in-take")).to_have_count(5)
            expect(table.locator("#sc-row .sc-end")).to_have_count(1)
    # The round ended: hands refilled, the first player flipped (ギルガメッシュ opens round 2).
    expect(table.locator("#sc-status .sc-round")).to_have_text("2")
    expect(table.locator("#sc-status .sc-current")).to_have_text("ギルガメッシュ")
    expect(phones["s1"].locator("#sc-my-hand")).to_have_text("5")

    # Rounds 2 and 3 and most of round 4 through the API; the phones play the last four turns.
    for what in ROUND * 2 + LAST_ROUND[:8]:
        api("take" if what == "take" else "play", {} if what == "take" else {"card": what})
    expect(table.locator("#sc-status .sc-round")).to_have_text("4")
    for i, what in enumerate(LAST_ROUND[8:]):
        move(what, passes=i < 3)
    # The last card is taken: the winner and both breakdowns are on every screen at once.
    expect(table.locator("#sc-result .sc-winner")).to_be_visible()
    finished = live.state.extra["succession"]["finished"]
    winner = {"s1": "アルトリア", "s2": "ギルガメッシュ"}[finished["winner"]]
    for screen in (table, phones["s1"], phones["s2"], page):
        expect(screen.locator("#sc-result .sc-winner")).to_contain_text(winner)
        expect(screen.locator("#sc-result .sc-breakdown")).to_have_count(2)
    expect(table.locator("#sc-result .sc-total").first).to_contain_text(str(finished["scores"]["s1"]["total"]))
    expect(phones["s1"].locator("#sc-take")).to_have_count(0)

    # One tap: a rematch, ギルガメッシュ first; the GM enters the two grails that start the row.
    page.locator("#sc-rematch").click()
    expect(page.locator("#sc-play [data-card='grail']")).to_be_visible()
    page.locator("#sc-play [data-card='grail']").click()
    expect(table.locator("#sc-row .sc-slot")).to_have_count(1)
    page.locator("#sc-play [data-card='grail']").click()
    expect(table.locator("#sc-row .sc-slot")).to_have_count(2)
    move("grail")  # ギルガメッシュ
    move("take")  # アルトリア takes all three grails and wins at once (G-3)
    for screen in (table, phones["s1"], phones["s2"]):
        expect(screen.locator("#sc-result .sc-winner")).to_contain_text("アルトリア")
    expect(table.locator("#sc-result")).to_contain_text("聖杯3枚")


# Every word (split at spaces and 「・」) of the header's title, the winner's line and the breakdowns' names that is broken
# across two lines (…アインツベル/ン, ペンドラゴ/ン).
BROKEN_NAMES = """() => {
  const out = [];
  for (const el of document.querySelectorAll(".bar .brand, .sc-winner, .sc-breakdown th")) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n; (n = walk.nextNode());) for (const m of n.data.matchAll(/[^\\s・]+/g)) {
      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      if (new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size > 1) out.push([el.className, m[0]]);
    }
  }
  return out;
}"""


def test_long_names_on_a_phone_break_between_words(server, phone_context, api_post):
    """Play-through at 390×844: a player named イリヤスフィール・フォン・アインツベルン read her own name in the phone's
    header as 「…アインツベル」 with 「ン」 alone on the next line, and the result as 「アルトリア・ペンドラゴ / ン・オルタ
    の勝利」 with the breakdown's heading broken alike. Names now break between their words (at 「・」)."""
    base, app = server
    names = ["アルトリア・ペンドラゴン・オルタ", "イリヤスフィール・フォン・アインツベルン"]
    live, tokens = app.extensions["gmtool"].create("長い名前の決着", "succession", [{"name": n} for n in names])
    sid = live.state.session_id
    api_post(sid, tokens["gm"], "actions/setup", {"first": "s1", "mode": "score"})
    api_post(sid, tokens["seats"]["s1"], "actions/enter_counts", {"f5": 4, "f6": 2, "f7": 3, "f8": 2})
    api_post(sid, tokens["seats"]["s2"], "actions/enter_counts", {"f6": 3, "f7": 3, "f8": 6, "grail": 2})
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s2']}")
    expect(phone.locator("#sc-result .sc-winner")).to_be_visible()
    assert phone.evaluate(BROKEN_NAMES) == []
