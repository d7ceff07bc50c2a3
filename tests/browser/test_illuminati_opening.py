"""Illuminati at a real table: three phones place face down in secret (I-2), the table reveals,
duplicates choose again, then the play order is rolled (I-3) and the current player is marked."""

from __future__ import annotations

from playwright.sync_api import expect

# The katakana and Latin words of the texts in `roots` that the page draws on more than one line.
BROKEN_WORDS = """(roots) => roots.flatMap((root) => [...document.querySelectorAll(root)]).flatMap((el) => {
  const out = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const node = walk.currentNode;
    for (const m of node.textContent.matchAll(/[ァ-ヶー]{2,}|[A-Za-z]{2,}/g)) { const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) out.push(m[0]); } }
  return out; })"""
# Each seat's name (`names`) found in a text under `root` that the page draws on more than one line.
BROKEN_NAMES = """([root, names]) => { const out = []; const walk = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const node = walk.currentNode;
    for (const name of names) { for (let i = node.textContent.indexOf(name); i >= 0; i = node.textContent.indexOf(name, i + 1)) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + name.length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) out.push(node.textContent.trim()); } } }
  return out; }"""

# The heading under `root` drawn on one line, then narrowed to end right after 支 of its 「(支配)」: the lines
# 「(支配)」 is drawn on then.
NARROWED_SPLIT = """(root) => { const h = document.querySelector(root); const walk = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const node = walk.currentNode; const i = node.textContent.indexOf('(支配)'); if (i < 0) continue;
    h.style.width = 'max-content';  // on one line, then narrowed to end right after 支
    const range = document.createRange(); range.setStart(node, i + 1); range.setEnd(node, i + 2);
    h.style.width = (range.getBoundingClientRect().right - h.getBoundingClientRect().left + 1) + 'px';
    range.setStart(node, i); range.setEnd(node, i + 4);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; h.style.width = ''; return lines; }
  return 0; }"""

# The texts under `root` where a 「·」 ends a line: the next character is drawn on a lower line.
LONE_DOTS = """(root) => [...document.querySelectorAll(root)].flatMap((el) => {
  const chars = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const n = walk.currentNode; for (let i = 0; i < n.textContent.length; i++) if (n.textContent[i].trim()) chars.push([n, i]); }
  const box = ([n, i]) => { const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); return r.getBoundingClientRect(); };
  return chars.slice(0, -1).filter((c, k) => c[0].textContent[c[1]] === '·' && box(chars[k + 1]).top >= box(c).bottom)
    .map(() => el.textContent.replace(/\\s+/g, ' ').trim()); })"""
# The rolls (in the Rolls panel) whose total is drawn on a line of its own, below the end of its dice.
LONE_TOTALS = """() => [...document.querySelectorAll('.rolls li.roll')].filter((li) => { const t = li.querySelector('.total');
  const rects = li.querySelector('.text').getClientRects(); const end = rects[rects.length - 1], box = t && t.getBoundingClientRect();
  return t && (box.top >= end.bottom || box.bottom <= end.top); }).map((li) => li.innerText.replace(/\\s+/g, ' '))"""


def test_opening_with_three_phones(server, page, browser, phone_context):
    base, app = server
    live, tokens = app.extensions["gmtool"].create(
        "イルミナティ", "illuminati", [{"name": "アリス"}, {"name": "ボブ"}, {"name": "キャロル"}])
    sid = live.state.session_id
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    phones = {}
    for seat_id, token in tokens["seats"].items():
        phone = phone_context().new_page()
        phone.goto(f"{base}/join/{sid}?k={token}")
        phones[seat_id] = phone

    def place(seat_id, name, last=False):
        card = phones[seat_id].locator(".prompt-card")
        card.locator("input.il-card-input").fill(name)
        card.locator("button.il-place").click()
        if last:  # the last placement reveals the round: the form goes away on every phone
            expect(card).to_have_count(0)
        else:
            expect(card.locator(".mine")).to_contain_text(name)

    # I-1: the regulation (3 players: goal 12), then the secret Illuminati placement.
    page.locator("#il-setup-button").click()
    expect(table.locator(".il-title")).to_contain_text("12")
    page.locator("#il-opening-start").click()
    for phone in phones.values():
        expect(phone.locator(".prompt-card input.il-card-input")).to_be_visible()

    place("s1", "Bavarian Illuminati")
    place("s2", "UFOs")
    expect(table.locator("#il-placement .il-answered")).to_have_count(2)
    # each placed card's commitment in its pill (behind 根拠), and the placement once: not again in the summary
    expect(table.locator("#il-placement .il-big-pill details.seal")).to_have_count(2)
    expect(table.locator("#summary-prompts")).to_have_count(0)
    assert "Bavarian" not in table.locator("#live").inner_text()
    assert "Bavarian" not in phones["s3"].locator("#live").inner_text()
    expect(page.locator("#il-opening-next")).to_be_disabled()  # the server would refuse it: キャロル has not placed
    place("s3", "Bavarian Illuminati", last=True)  # duplicates allowed for the Illuminati
    # The reveal shows on the table as it happens, each player with what they placed, before the GM settles it
    expect(table.locator("#il-placement [data-seat=s1] .il-placed-value")).to_have_text("Bavarian Illuminati")
    expect(table.locator("#il-placement [data-seat=s2] .il-placed-value")).to_have_text("UFOs")
    page.locator("#il-opening-next").click()
    expect(table.locator(".il-standings")).to_contain_text("Bavarian Illuminati")
    expect(table.locator(".il-standings")).to_contain_text("UFOs")

    # I-2: starting groups; a duplicate is set aside and only its two players choose again.
    for phone in phones.values():
        expect(phone.locator(".prompt-card input.il-card-input")).to_be_visible()
    place("s1", "CIA")
    place("s2", "KGB")
    assert "CIA" not in table.locator("#live").inner_text()
    place("s3", "CIA", last=True)
    # The revealed round on the table, before the GM settles it: the stage's heading names the stage once (「イルミナティの
    # 配置」 read twice, the heading over the placements repeating it), and no seat's name breaks across lines, in the
    # pills or in the clash's 「アリス・キャロル が選び直します」, at the widths where they wrap (600–1000 px).
    expect(table.locator("#il-clash")).to_be_visible()
    assert table.locator("#stage").inner_text().count("初期グループの配置") == 1
    for width in range(600, 1000, 10):
        table.set_viewport_size({"width": width, "height": 800})
        broken = table.evaluate(BROKEN_NAMES, ["#stage", ["アリス", "ボブ", "キャロル"]])
        assert broken == [], (width, broken)
    table.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#il-opening-next").click()
    expect(table.locator(".il-aside")).to_have_count(2)
    expect(table.locator(".il-aside").first).to_have_text("アリス: CIA")  # whose group was set aside
    expect(table.locator(".il-kept")).to_have_text("ボブ: KGB")
    expect(phones["s1"].locator(".prompt-card input.il-card-input")).to_be_visible()
    expect(phones["s3"].locator(".prompt-card input.il-card-input")).to_be_visible()
    expect(phones["s2"].locator(".prompt-card")).to_have_count(0)  # s2 keeps KGB
    place("s1", "Hackers")
    place("s3", "Post Office", last=True)
    page.locator("#il-opening-next").click()
    expect(table.locator(".il-title")).to_contain_text("プレイ順")

    # the opening's revealed placements on every phone (I-2) until play begins
    for phone in phones.values():
        expect(phone.locator("article.prompt")).to_have_count(3)

    # I-3: everyone's 2d6 from the server; the order on every screen and the current player marked.
    page.locator("#il-roll-order").click()
    expect(table.locator(".il-title")).to_contain_text("ゲーム中")
    # Round 1 is a new scene: the phones show this round's results, no longer the set-up's three placements (they
    # stayed all game); the table's standings keep each player's Illuminati
    for phone in phones.values():
        expect(phone.locator("article.prompt")).to_have_count(0)
    expect(table.locator(".il-standings")).to_contain_text("UFOs")
    expect(table.locator(".il-standings tr.il-current")).to_have_count(1)
    current = live.state.extra["illuminati"]["turns"]["current"]
    expect(table.locator(f".il-standings tr.il-current[data-seat={current}]")).to_be_visible()
    expect(phones[current].locator("#il-start-turn")).to_be_visible()
    phones[current].locator("#il-start-turn").click()
    expect(table.locator(f".il-standings tr[data-seat={current}]")).to_contain_text("1+1")
    # I-1: a phone shows each of its counters once, in the panel (core's 「あなたの席」 card is left out,
    # Ruleset.phone_counters): at 390 px each counter's label and number keep to one line, never breaking inside a
    # word (リソ/ース broke so in a play-through), in both languages.
    # I-1: the current player reaches the goal (12 for three) and wins at the end of the turn: each phone's winner
    # line keeps its words whole (「基本ゴ / ール」 broke at 390 px)
    client = app.test_client()
    # I-4: an attack's headline keeps its words whole: 「(支 / 配)」 broke at 390 px. The headline is narrowed to end
    # between 支 and 配 (where a phone's width fell in a play-through); the purpose goes to the next line whole
    attack = {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10},
              "target": {"name": "ボーイスカウト", "power": 0, "resistance": 3}}
    for path, body, who in (("actions/attack", attack, current), ("actions/cancel_attack", {}, "gm")):
        token = tokens["gm"] if who == "gm" else tokens["seats"][who]
        if path.endswith("cancel_attack"):
            head = phones[current].locator(".il-attack h3")
            expect(head).to_contain_text("(支配)")
            assert phones[current].evaluate(NARROWED_SPLIT, ".il-attack h3") == 1
        r = client.post(f"/api/sessions/{sid}/{path}", headers={"Authorization": f"Bearer {token}"}, json=body)
        assert r.status_code == 200, r.get_json()
    r = client.post(f"/api/sessions/{sid}/counters", headers={"Authorization": f"Bearer {tokens['gm']}"},
                    json={"seat": current, "key": "groups", "delta": 11})
    assert r.status_code == 200, r.get_json()
    # the phone ends its turn at the goal: it wins, and its flash says so in three lines (the declaration end_turn
    # makes, the turn's end, the win), shown whole: a success's flash keeps to two lines and cut the win (「アリ…」)
    expect(phones[current].locator(".il-me .il-goal-flag")).to_be_visible()
    phones[current].locator("#il-end-turn").click()
    flash = phones[current].locator("#flash .flash-ok .flash-text")
    expect(flash).to_contain_text("勝利！（基本ゴール）")
    assert flash.evaluate("t => [t.scrollHeight <= t.clientHeight, t.getClientRects()[0].height > 2.5 * parseFloat(getComputedStyle(t).lineHeight)]") == [True, True]
    for lang in ("ja", "en"):
        for seat, phone in phones.items():
            phone.goto(f"{base}/s/{sid}/phone?lang={lang}")
            expect(phone.locator(".il-won")).to_be_visible()
            # and the tokens' line wraps between its items, never inside a word (「イ / ルミナティ」 at 390 px)
            assert phone.evaluate(BROKEN_WORDS, [".il-won", ".il-me"]) == [], (lang, seat)
            expect(phone.locator("#il-my-counts .il-count")).to_have_count(4)
            expect(phone.locator(".mine-card")).to_have_count(0)
            broken = phone.evaluate("""() => [...document.querySelectorAll('#il-my-counts .il-count')]
                .filter(c => c.getClientRects().length > 1).map(c => c.textContent)""")
            assert broken == [], (lang, seat, broken)
        # at a phone's widths a roll's total stays on the line of its dice (「2D6 → [5,5] → 10 / 10」 in English at
        # 390 px), and the 「·」 before the tokens never ends a line alone
        phone = phones["s1"]
        assert phone.locator(".rolls li.roll .total").count() >= 3  # the order rolls
        for width in range(320, 400, 10):
            phone.set_viewport_size({"width": width, "height": 844})
            assert phone.evaluate(LONE_TOTALS) == [], (lang, width)
            assert phone.evaluate(LONE_DOTS, ".il-me") == [], (lang, width)
        phone.set_viewport_size({"width": 390, "height": 844})
