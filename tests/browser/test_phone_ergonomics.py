"""Issue 12: phones are used one-handed. Every control of every phone screen of every registered ruleset
is at least 44×44 CSS px (a checkbox or radio counts by the label around it), measured in Chromium at
390×844 in both languages, with the ruleset's own scripted scene (its leak probe) and open core prompts
of every kind, so a ruleset added later is measured without new test code. Each of those screens has one
primary action (data-primary: the oldest unanswered prompt, else the ruleset's step for this seat such as
the sugoroku roll, else the dice) and it sits in the bottom half of the viewport, in the thumb's reach,
with nothing over it. None shows a rule code or a 64-hex commitment before it is opened (people read words;
the GM console and the exports keep the codes). The same scene on the table screen fits a TV and a laptop without
scrolling."""

from __future__ import annotations

import itertools
import re

import pytest
from gmtool_testing import SMALL_CONTROLS, ApiTable, bearer, start_ace_royal
from playwright.sync_api import expect

from gmtool.rulesets import registry

MIN = 44


# Every visible toggle (a summary) that is not drawn as a button, with no disclosure mark: it reads as a plain label
# (the dice card's 「実ダイスの出目を入力」 over the expression field looked like that field's name, not something to open).
UNMARKED = """() => [...document.querySelectorAll('summary:not(.big-button)')].filter(el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return false;
  const style = getComputedStyle(el), before = getComputedStyle(el, '::before').content;
  return style.display !== 'list-item' && (!before || before === 'none' || before === 'normal');
}).map(el => `summary "${el.textContent.trim().slice(0, 30)}" has no disclosure mark`)"""


# A table's row header (a grail force table's 筋力, 参加) broken over lines: on a 390 px phone the word read 筋 / 力,
# one character a line, as the cells beside it took the width.
BROKEN_HEADERS = """() => [...document.querySelectorAll('tbody th')].filter(th => {
  const range = document.createRange(); range.selectNodeContents(th);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
}).map(th => `row header "${th.textContent.trim()}" is broken over lines`)"""


# A rule code ([T-4], （S-3）) or a 64-hex commitment a player reads without opening or toggling anything: the
# grail's force cells broke over lines on 「[T-4]」, every prompt card carried each answer's hash in full.
CODES = """() => (document.body.innerText.match(/\\b[ASGIT]-\\d+[a-z]?\\b|\\b[0-9a-f]{64}\\b/g) || [])
  .map(code => `"${code}" shown`)"""


# The screen's primary action: the one marked in the live fragment, else the page's fallback (the dice).
PRIMARY = """() => {
  const marked = [...document.querySelectorAll('#live [data-primary]')];
  const el = marked[0] || document.querySelector('[data-primary=fallback]');
  if (!el) return {marked: 0, found: false};
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 28));
  return {marked: marked.length, found: true, top: r.top, bottom: r.bottom, height: r.height, left: r.left, right: r.right,
          layout: [document.documentElement.scrollWidth, innerWidth, innerHeight],
          uncovered: !!hit && el.contains(hit), prompt: !!el.closest('.prompt-card'),
          what: `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')} ` +
                (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40)};
}"""


def primary_problems(page, where: str, prompt: bool | None = None) -> list[str]:
    """What is wrong with the screen's primary action: none or several marked, outside the bottom half or the width,
    covered by something else, or (`prompt`) not the open prompt's when one waits for this seat."""
    p = page.evaluate(PRIMARY)
    if not p["found"]:
        return [f"{where}: no primary action"]
    screen = page.viewport_size
    p["vh"] = screen["height"]
    out = []
    if p["layout"] != [screen["width"], screen["width"], screen["height"]]:  # wider: the phone zooms out, the dock leaves the screen
        out.append(f"{where}: the page is {p['layout'][0]} px wide, the layout viewport {p['layout'][1]}×{p['layout'][2]}")
    if p["marked"] > 1:
        out.append(f"{where}: {p['marked']} primary actions")
    if p["height"] <= 0 or p["top"] < p["vh"] / 2 - 0.5 or p["bottom"] > p["vh"] + 0.5:
        out.append(f"{where}: {p['what']} at y={p['top']:.0f}..{p['bottom']:.0f}, not in the bottom half of {p['vh']}")
    if p["left"] < -0.5 or p["right"] > screen["width"] + 0.5:  # a docked button 100% wide plus its 10 px inset
        out.append(f"{where}: {p['what']} at x={p['left']:.0f}..{p['right']:.0f}, wider than the screen's {screen['width']}")
    if not p["uncovered"]:
        out.append(f"{where}: {p['what']} is covered")
    if prompt is not None and p["prompt"] != prompt:
        out.append(f"{where}: {p['what']} is {'not ' if prompt else ''}an open prompt's")
    return out


@pytest.mark.parametrize("name", sorted(registry()))
def test_every_phone_control_is_at_least_44px_and_the_table_fits(server, browser, phone_context, name):
    base, app = server
    ruleset = registry()[name]
    client = app.test_client()
    probe = ruleset.leak_probe
    body = {"title": "片手で", "ruleset": name, "seats": [f"席{i + 1}" for i in range(probe.seats if probe else 2)]}
    if ruleset.custom_counters:
        body["counters"] = ["seals", "mana", "HP,10,0,20,瀕死<=3"]
    r = client.post("/api/sessions", headers=bearer(app.config["ADMIN_KEY"]), json=body)
    assert r.status_code == 201, r.get_json()
    table = ApiTable(client, r.get_json())
    count = itertools.count(1)
    if probe:
        probe.plant(table, lambda kind: f"mark{next(count)}")
    problems = []
    # The ruleset's own scene: each seat's primary action (its step, or the dice) within the thumb's reach. One phone
    # (browser context) per seat, logged in once: the join link with ?lang= redirects to the phone page in that
    # language (the lang cookie rides on the redirect), one page load instead of two.
    phones = {seat: phone_context() for seat in table.seats}
    for i, seat in enumerate(table.seats):
        phone = phones[seat].new_page()
        phone.goto(f"{base}/join/{table.sid}?k={table.tokens[seat]}&lang={('ja', 'en')[i % 2]}")
        expect(phone.locator("#live .live-root")).to_be_attached()
        assert phone.evaluate("document.documentElement.lang") == ("ja", "en")[i % 2]
        problems += primary_problems(phone, f"{name} {seat} (its own scene)")
        problems += [f"{name} {seat} (its own scene): {p}" for p in phone.evaluate(CODES)]
        phone.close()
    table.post("/prompts", {"title": "どれ", "kind": "choice", "options": ["赤", "青", "緑"]})
    table.post("/prompts", {"title": "いくつ", "kind": "multi", "options": ["剣", "弓", "槍"]})
    table.post("/prompts", {"title": "数", "kind": "number", "min": 0, "max": 9})
    table.post("/prompts", {"title": "投票", "kind": "seat"})
    # a revealed prompt too (the newest, as a phone lists three): its card's 検証 / Verify link (a bare link, 32×19 px)
    done = table.post("/prompts", {"title": "公開済み", "kind": "choice", "options": ["はい", "いいえ"]})
    for seat in done["seats"]:
        table.answer(done["id"], "はい", seat)  # the last answer reveals it
    for i, seat in enumerate(table.seats):
        phone = phones[seat].new_page()  # the seat's phone, still logged in
        for lang in (("ja", "en") if i == 0 else (("en", "ja")[i % 2],)):  # both languages, every seat
            phone.goto(f"{base}/s/{table.sid}/phone?lang={lang}")
            expect(phone.locator("#live .live-root")).to_be_attached()
            assert phone.evaluate("document.documentElement.lang") == lang
            expect(phone.locator(".verify-link a").first).to_be_visible()
            problems += [f"{name} {seat} {lang}: {p}" for p in
                         phone.evaluate(SMALL_CONTROLS, [MIN, MIN]) + phone.evaluate(UNMARKED) + phone.evaluate(BROKEN_HEADERS) +
                         phone.evaluate(CODES)]
            problems += primary_problems(phone, f"{name} {seat} {lang}", prompt=True)  # a prompt waits for every seat
        phone.close()
    assert not problems, "controls under 44×44 px, toggles without a mark, broken row headers, codes shown or primary actions out of reach:\n" + "\n".join(sorted(set(problems)))
    # The same scene on the TV: the stage's step in view and nothing scrolls.
    for width, height in ((1920, 1080), (1280, 720)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        page.goto(f"{base}/s/{table.sid}/table?k={table.tokens['table']}")
        expect(page.locator("#stage [data-stage-step]").first).to_be_visible()
        fit = page.evaluate("""() => ({scroll: document.scrollingElement.scrollHeight - innerHeight,
            step: document.querySelector('#stage [data-stage-step]').getBoundingClientRect().bottom, vh: innerHeight})""")
        assert fit["scroll"] <= 0 and fit["step"] <= fit["vh"], (name, width, fit)
        page.context.close()


def sugoroku_seal_on_a_phone(server, phone_context):
    """A sugoroku game at s1's first move, s1's phone open: (the table, the phone, its 令呪：ダイス追加 button)."""
    base, app = server
    client = app.test_client()
    r = client.post("/api/sessions", headers=bearer(app.config["ADMIN_KEY"]),
                    json={"title": "令呪", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー"]})
    table = ApiTable(client, r.get_json())
    table.act("setup", {"players": {"s1": {"servant": "セイバー", "mana": 4}, "s2": {"servant": "アーチャー", "mana": 3}}})
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{table.sid}?k={table.tokens['s1']}")
    return table, phone, phone.locator("button[name=seal][value=extra_die]")


def test_a_seal_armed_on_a_phone_stays_armed_through_a_live_update(server, phone_context):
    """At a busy table another player's action lands between the two taps (the brisk pace is one action a second): the
    update's morph took the armed mark off the button (the server's HTML has none), so the second tap only armed it
    again and the player's seal was never used. The armed control stays armed through the update; the second tap
    spends it; the arming still runs out after 4 seconds. (A Command Seal takes a second tap: the first only arms it,
    says so, and spends nothing.)"""
    table, phone, seal = sugoroku_seal_on_a_phone(server, phone_context)
    karma = phone.locator('.value[data-seat="s2"][data-key="karma"]')
    armed = re.compile(r"\barmed\b")
    for karma_shown in ("1", "2"):
        seal.click()  # one tap: armed, nothing spent
        expect(seal).to_have_class(armed)
        expect(phone.locator("#flash")).to_contain_text("もう一度タップ")
        table.post("/counters", {"seat": "s2", "key": "karma", "delta": 1})  # another player's change, meanwhile
        expect(karma).to_have_text(karma_shown)  # the update has been morphed in
        expect(seal).to_have_class(armed)
        if karma_shown == "1":  # left alone, the arming runs out after 4 seconds, update or not
            expect(seal).not_to_have_class(armed, timeout=6000)
            assert table.state()["rolls"] == [] and table.state()["seats"][0]["counters"]["seals"] == 3
    seal.click()  # the second tap spends it
    expect(phone.locator(".rolls li.roll")).to_have_count(1)
    assert table.state()["seats"][0]["counters"]["seals"] == 2



def test_an_ace_royal_seal_needs_a_second_tap_and_the_last_one_says_it_puts_you_out(server, phone_context):
    """Play-through a19/a20: once the 令呪を使う list was open a Command Seal fired on one tap, and using the last seal
    puts the player out (A-2). Every seal button asks for the same deliberate second tap as sugoroku's; the last
    seal's says what it costs."""
    base, app = server
    client = app.test_client()
    r = client.post("/api/sessions", headers=bearer(app.config["ADMIN_KEY"]),
                    json={"title": "令呪", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]})
    table = ApiTable(client, r.get_json())
    table.act("setup", {"version": "standard"})
    table.act("roll_first", {"faces": [6, 3]})
    for seat in table.seats:
        table.act("set_servant", {"hero": {"name": "英霊", "stats": "6/5/3/3"}, "class": {"name": "セイバー", "stats": "3/3/1/5"}},
                  who=seat)
    table.act("start_game")
    table.post("/counters", {"seat": "s1", "key": "seals", "value": 1, "reason": "テスト"})
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{table.sid}?k={table.tokens['s1']}")
    phone.locator(".ar-seals summary").click()
    seal = phone.locator(".ar-seals button", has_text="4.")
    seal.click()  # one tap: armed, nothing spent
    expect(seal).to_have_class(re.compile("armed"))
    expect(phone.locator("#flash")).to_contain_text("最後の令呪です")
    phone.wait_for_timeout(500)
    assert table.state()["seats"][0]["counters"]["seals"] == 1
    seal.click()  # the second tap spends it
    expect(phone.locator("#ar-my-seals")).to_have_text("0")
    expect(phone.locator(".ar-seals")).to_have_count(0)  # no seal left: the list is gone
    assert table.state()["seats"][0]["counters"]["seals"] == 0


def test_a_list_opened_on_a_phone_stays_open_through_a_live_update(server, phone_context):
    """A player opened 令呪を使う (a <details>) and another player's change landed: the morph took the `open` the player
    had set off (the server's HTML has none) and the list snapped shut under the player's finger. What a viewer
    opened stays open through updates; closing it is the viewer's."""
    base, app = server
    client = app.test_client()
    r = client.post("/api/sessions", headers=bearer(app.config["ADMIN_KEY"]),
                    json={"title": "令呪", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]})
    table = ApiTable(client, r.get_json())
    start_ace_royal(lambda path, body=None, who="gm": table.post("/" + path, body, who), table.seats, "standard", [6, 3])
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{table.sid}?k={table.tokens['s1']}")
    seals = phone.locator(".ar-seals")
    seals.locator("summary").click()
    expect(seals).to_have_attribute("open", "")
    hand = phone.locator('.value[data-seat="s2"][data-key="hand"]')

    def another_players_change():
        shown = table.post("/counters", {"seat": "s2", "key": "hand", "delta": 1})["value"]
        expect(hand).to_have_text(str(shown))  # the update has been morphed in
    for _ in range(2):
        another_players_change()
        expect(seals).to_have_attribute("open", "")
    seals.locator("summary").click()  # the player closes it, and it stays closed
    another_players_change()
    expect(seals).not_to_have_attribute("open", "")
