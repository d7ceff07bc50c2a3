"""Issue 12: the table screen is a stage. A grail combat and a sugoroku battle are walked step by step
(driven through the JSON API, as the GM console and the phones would) while real Chromium shows the
table screen at 1920×1080 and 1280×720 (and in English): at every step the current step and its result
are inside the viewport, inside the stage, and nothing needs scrolling; on the 1920-wide TV every word reads at
18 px or more."""

from __future__ import annotations

import os
import re

from gmtool_testing import BROKEN_WORDS, CLIPPED_TEXT, SETTLED, SMALL_TEXT, TV_MIN_PX, bearer
from playwright.sync_api import expect

SABER = "アルトリア(セイバー)/アルトリア・ペンドラゴン 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60\n" \
        "士郎 筋力20 耐久30 敏捷20 魔力10 幸運30 宝具10\n大河 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10"
ARCHER = "エミヤ(アーチャー)/エミヤ 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50\n" \
         "凛 筋力20 耐久20 敏捷30 魔力55 幸運40 宝具20"
SHOTS = os.environ.get("GMTOOL_STAGE_SHOTS")  # a folder: keep a screenshot of every step there
SCREENS = [((1920, 1080), "ja"), ((1280, 720), "ja"), ((1280, 720), "en")]

# Where the step and the result sit, whether the page scrolls, whether the stage clips them.
FIT = """(result) => {
  const doc = document.scrollingElement, stage = document.querySelector('#stage').getBoundingClientRect();
  const box = (sel) => { const el = document.querySelector(sel); if (!el) return null;
    const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height}; };
  return {scrollY: doc.scrollHeight - innerHeight, scrollX: doc.scrollWidth - innerWidth, vh: innerHeight, vw: innerWidth,
          stageBottom: stage.bottom, step: box('#stage [data-stage-step]'), result: box(result)};
}"""




class Table:
    """The same table screen open on a TV, a laptop and an English laptop."""

    def __init__(self, browser, base, sid, token):
        self.pages = []
        for (w, h), lang in SCREENS:
            page = browser.new_context(viewport={"width": w, "height": h}).new_page()
            page.goto(f"{base}/s/{sid}/table?k={token}&lang={lang}")
            self.pages.append(page)

    def check(self, version: int, step: str, result: str, text: str = ""):
        """Every screen shows `version` with `step` on the stage and `result` (and `text` in it) in view."""
        for page in self.pages:
            expect(page.locator(".live-root")).to_have_attribute("data-version", str(version))
            expect(page.locator(f"#stage [data-stage-step='{step}']")).to_be_visible()
            expect(page.locator(result).first).to_be_visible()
            if text:
                expect(page.locator(result).first).to_contain_text(text)
            fit = page.evaluate(FIT, result)
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/{page.viewport_size['width']}-{step}-{version}.png")
            where = f"{page.viewport_size} step {step}: {fit}"
            if page.viewport_size["width"] == 1920:  # the TV: no word too small to read across the room
                assert not page.evaluate(SMALL_TEXT, TV_MIN_PX), where + f" small text: {page.evaluate(SMALL_TEXT, TV_MIN_PX)}"
            assert fit["scrollY"] <= 0 and fit["scrollX"] <= 0, "the table screen scrolls: " + where
            for box in (fit["step"], fit["result"]):
                assert box and box["h"] > 0, "missing on the stage: " + where
                assert box["top"] >= 0 and box["bottom"] <= min(fit["vh"], fit["stageBottom"]) + 1, "out of view: " + where

    def close(self):
        for page in self.pages:
            page.context.close()


def _api(app, sid, tokens):
    client = app.test_client()

    def post(path, body=None, who="gm", status=200):
        r = client.post(f"/api/sessions/{sid}{path}", headers=bearer(tokens[who]), json=body or {})
        assert r.status_code == status, (path, r.get_json())
        return r.get_json()

    def state(who="gm"):
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens[who])).get_json()
    return post, state


def _game(server, browser, title, ruleset, names):
    """A session of `ruleset` made on the server, its API (post, state, act) and its TV on three screens."""
    base, app = server
    live, raw = app.extensions["gmtool"].create(title, ruleset, [{"name": n} for n in names])
    sid = live.state.session_id
    tokens = {"gm": raw["gm"], "table": raw["table"], **raw["seats"]}
    post, state = _api(app, sid, tokens)

    def act(name, body=None, who="gm", status=200):
        return post(f"/actions/{name}", body, who=who, status=status)
    return post, state, act, Table(browser, base, sid, tokens["table"])


def test_a_grail_combat_follows_the_game_on_the_tv(server, browser):
    post, state, _, table = _game(server, browser, "第五次聖杯戦争", "grail_trpg", ("セイバー陣営", "アーチャー陣営", "ランサー陣営"))

    def step(out):
        combat = out["ruleset"]["combat"]
        return state()["session"]["version"], combat["step"]

    post("/actions/set_characters", {"faction": "s1", "text": SABER})
    post("/actions/set_characters", {"faction": "s2", "text": ARCHER})
    post("/actions/set_seen", {"faction": "s1", "seen": ["s2/エミヤ"]})
    post("/rolls", {"expr": "2D6", "label": "索敵"}, who="s3", status=201)  # a roll outside the combat: the newest event
    table.check(state()["session"]["version"], "roll", "#stage .stage-total")
    out = post("/actions/start_combat", {"a": ["s1"], "b": ["s2"]})
    table.check(*step(out), "#stage .g-stage-wait", "アーチャー陣営")  # waiting for both sides
    post("/prompts/c1-setup/answer", {"value": {"main": "s1/アルトリア", "sub": "s1/士郎"}}, who="s1")
    post("/prompts/c1-setup/answer", {"value": {"main": "s2/エミヤ", "sub": "s2/凛"}}, who="s2")
    out = post("/prompts/c1-setup/confirm")
    version = state()["session"]["version"]
    table.check(version, "setup_done", "#stage [data-stage-force='b-宝具']", "")
    expect(table.pages[0].locator("#stage [data-stage-force='a-筋力'] > b")).to_have_text("50")
    plan = [({"stat": "筋力", "mods": [{"label": "怪力", "value": 10, "kind": "skill"}]}, {"stat": "耐久"}, (60, 25)),
            ({"stat": "魔力"}, {"stat": "敏捷"}, (60, 45)),
            ({"stat": "幸運"}, {"stat": "宝具", "seal": {"effect": 2}}, (33, 90))]
    for n, (a, b, (va, vb)) in enumerate(plan, 1):
        out = post("/actions/next_step")
        table.check(*step(out), "#stage .g-stage-wait")
        post(f"/prompts/c1-s{n}/answer", {"value": a}, who="s1")
        post(f"/prompts/c1-s{n}/answer", {"value": b}, who="s2")
        cur = state()["ruleset"]["combat"]
        table.check(cur and state()["session"]["version"], cur["step"], f"#stage [data-stage-select='{n}'] [data-side=b] .g-stage-num", str(vb))
        post(f"/prompts/c1-s{n}/confirm")
        cur = state()
        table.check(cur["session"]["version"], cur["ruleset"]["combat"]["step"],
                    f"#stage [data-stage-select='{n}'] [data-side=a] .g-stage-num", str(va))
    out = post("/actions/next_step")
    table.check(*step(out), "#stage [data-stage-winrate=b] .g-stage-num", "−16")  # a negative win rate with its minus sign (T-9)
    out = post("/actions/use_seal", {"faction": "s2", "effect": 3})
    table.check(*step(out), "#stage [data-stage-winrate=b] .g-stage-num", "34")
    out = post("/actions/next_step")
    table.check(*step(out), "#stage .g-stage-winner")  # 勝敗判定: the winner in view, not at y=1537
    out = post("/actions/next_step")
    table.check(*step(out), "#grail-stage-cleanup", "セイバー陣営" if out["ruleset"]["combat"]["winner"] == "b" else "アーチャー陣営")
    # The counters below the stage show the black star; the history keeps the whole breakdown.
    loser = "s1" if out["ruleset"]["combat"]["winner"] == "b" else "s2"
    expect(table.pages[0].locator(f".value[data-seat={loser}][data-key=black_stars]")).to_have_text("1")
    tv = table.pages[0]
    expect(tv.locator("#history .g-result[data-select='3']")).to_be_hidden()
    tv.locator("#history > summary").click()
    expect(tv.locator("#history .g-result[data-select='3']")).to_be_visible()
    # Rule codes are the GM's: hidden on the TV until the 根拠 toggle.
    expect(tv.locator("#history .g-rule").first).to_be_hidden()
    tv.locator("#rules-toggle").click()
    expect(tv.locator("#history .g-rule").first).to_be_visible()
    table.close()


def test_a_grail_revealed_setup_escapes_and_real_dice_on_the_tv(server, browser):
    """Browser review: the stage shows a revealed setup before the GM confirms it, the newest escape check with
    its breakdown, and marks a battle roll made with real dice; each in view on every screen."""
    post, state, act, table = _game(server, browser, "逃走卓", "grail_trpg", ("セイバー陣営", "アーチャー陣営"))

    def check(result, text=""):
        now = state()
        table.check(now["session"]["version"], now["ruleset"]["combat"]["step"], result, text)

    act("set_characters", {"faction": "s1", "text": SABER})
    act("set_characters", {"faction": "s2", "text": ARCHER})
    act("start_combat", {"a": ["s1"], "b": ["s2"]})
    post("/prompts/c1-setup/answer", {"value": {"main": "s1/アルトリア", "sub": "s1/士郎"}}, who="s1")
    post("/prompts/c1-setup/answer", {"value": {"main": "s2/エミヤ", "sub": "s2/凛"}}, who="s2")
    check("#stage [data-stage-force='b-宝具']")  # revealed, not yet confirmed
    expect(table.pages[0].locator("#stage [data-stage-force='a-筋力'] > b")).to_have_text("50")
    act("escape", {"faction": "s2", "faces": [10, 90]})  # a setup escape (seal 6, no 黒星: no seal) that fails
    check("#grail-stage-escape [data-stage-escape=pursuer] .g-stage-num", "90")
    post("/prompts/c1-setup/confirm")
    for n, (a, b) in enumerate([("筋力", "耐久"), ("魔力", "敏捷"), ("幸運", "宝具")], 1):
        act("next_step")
        post(f"/prompts/c1-s{n}/answer", {"value": {"stat": a}}, who="s1")
        post(f"/prompts/c1-s{n}/answer", {"value": {"stat": b}}, who="s2")
        post(f"/prompts/c1-s{n}/confirm")
    act("next_step")
    act("next_step", {"faces": [1, 90]})  # the battle roll with real dice: セイバー陣営 loses
    check("#stage .real-dice")
    check("#stage .g-stage-winner")
    act("escape", {"faction": "s1", "escaper_mod": 5, "faces": [70, 20]})  # seal 7: 黒星 0 + 1
    check("#grail-stage-escape [data-stage-escape=escaper] .g-stage-num", "75")
    check("#grail-stage-escape", "セイバー陣営")
    act("finish_combat")
    check("#grail-stage-cleanup")
    table.close()


def test_a_sugoroku_battle_follows_the_game_on_the_tv(server, browser):
    post, state, _, table = _game(server, browser, "双六卓", "sugoroku", ("セイバー", "アーチャー", "ランサー", "ライダー"))
    post("/actions/setup", {"players": {"s1": {"servant": "セイバー", "true_name": "アルトリア", "mana": 4},
                                         "s2": {"servant": "アーチャー", "true_name": "エミヤ", "mana": 3}}})
    battles = 0
    for _ in range(6):
        while (mover := state()["ruleset"]["current"]) is not None:
            post("/actions/roll_move", {"faces": [3]}, who=mover)  # real dice: both land together, a battle (S-7)
            now = state()
            table.check(now["session"]["version"], f"{now['ruleset']['round']}-{now['ruleset']['phase']}", "#stage .sg-latest")
        if not state()["ruleset"]["current"] and not state()["ruleset"]["pending"]:
            post("/actions/end_phase")
        while state()["ruleset"]["pending"]:
            post("/actions/start_battle")
            battle = state()["ruleset"]["battle"]
            now = state()
            step = f"{now['ruleset']['round']}-{now['ruleset']['phase']}"
            table.check(now["session"]["version"], step, "#sg-battle", f"0/{len(battle['fighters'])}")
            for seat in battle["fighters"]:
                post(f"/prompts/{battle['prompt']}/answer", {"value": "力5" if seat == battle["parent"] else ["技3"]}, who=seat)
            now = state()
            table.check(now["session"]["version"], step, "#sg-battle .sg-result")
            table.check(now["session"]["version"], step, "#sg-battle table.breakdown")
            post("/actions/end_battle")
            now = state()
            table.check(now["session"]["version"], f"{now['ruleset']['round']}-{now['ruleset']['phase']}", "#stage .sg-last-battle")
            battles += 1
        if battles or state()["ruleset"]["round_over"]:
            break
    assert battles, "no battle in six phases"
    table.close()


def test_an_ace_royal_round_follows_the_game_on_the_tv(server, browser):
    """A round of Fate/Ace Royal: the turns' steps, a reveal, an attack (the attacker's pick, the attacker's
    damage judgement, the interceptor's pick, the result), an end step; each on the TV's stage in view."""
    post, state, act, table = _game(server, browser, "エースロイヤル卓", "ace_royal", ("凛", "ウェイバー", "キャスター陣営"))

    def check(result, text=""):
        now = state()
        r = now["ruleset"]
        step = "over" if r["over"] else (r["step"] if r["phase"] == "play" else "setup")
        table.check(now["session"]["version"], step, result, text)

    act("setup", {"version": "standard"})
    act("roll_first", {"faces": [6, 3, 2]})
    check("#stage .ar-first", "6")
    servants = {"s1": ("アルトリア", "6/5/3/3", "セイバー", "3/3/1/5"), "s2": ("イスカンダル", "5/3/5/3", "ライダー", "2/2/2/2"),
                "s3": ("メディア", "1/2/6/5", "キャスター", "0/1/3/3")}
    for seat, (hero, hs, cls, cs) in servants.items():
        act("set_servant", {"hero": {"name": hero, "stats": hs}, "class": {"name": cls, "stats": cs}}, who=seat)
    act("start_game")
    check("#stage #ar-newest")
    act("step", who="s1")
    check("#stage #ar-newest")
    act("step", who="s1")
    check("#stage #ar-newest")
    act("reveal", {"what": "both"}, who="s1")
    check("#stage #ar-newest", "アルトリア")
    act("step", who="s1")
    check("#stage #ar-newest")
    act("encounter_roll", {"faces": [4]}, who="s1")
    check("#stage #ar-newest", "4")
    act("step", who="s1")
    check("#stage #ar-newest")
    # s2 attacks s1: the attacker picks first, the interceptor in the interception process.
    act("step", who="s2")
    act("step", who="s2")
    act("declare_attack", {"target": "s1"}, who="s2")
    check("#stage .ar-stage-side[data-side=attacker] .ar-stage-kind", "…")
    act("combat_choose", {"kind": "magical"}, who="s2")
    check("#stage .ar-strike", "7 vs 8")  # イスカンダル 魔術 5+2 vs アルトリア 3+5: no damage yet
    act("combat_modifier", {"side": "attacker", "stat": "matk", "value": 2, "label": "令呪の加護"})
    check("#stage .ar-strike", "9 vs 8")
    # what is not one of the combat's own moves (a seal; a side's A-9 hand answer dropped) is said above the sides, in
    # view with them: the stage kept the older line
    act("use_seal", {"effects": [{"effect": 1}]}, who="s1")
    check("#stage #ar-newest", "凛")
    check("#stage .ar-strike", "9 vs 8")
    act("combat_choose", {"kind": "physical"}, who="s1")
    check("#stage .ar-stage-side[data-side=interceptor] .ar-stage-kind[data-kind=physical]")
    act("combat_resolve", who="s1")  # 9 vs 8 → 1; back 9 vs 5 → 4: both damaged, nothing stolen
    check("#stage .ar-result .ar-process", "9 vs 8")
    act("step", who="s2")
    check("#stage #ar-newest")
    for _ in range(3):  # s3: rise, draw, ritual → end, end: the round is over, the coin passes
        act("step", who="s3")
        check("#stage #ar-newest")
    act("step", who="s3")
    check("#stage #ar-newest")
    # the coin passed to ウェイバー, whose last 魔力 it cost: out at 0, on the stage and in the summary
    expect(table.pages[0].locator(".ar-player[data-seat=s2] .ar-mana")).to_have_text("0")
    expect(table.pages[0].locator(".ar-player[data-seat=s2]")).to_have_class(re.compile("ar-out"))
    table.close()


def test_a_succession_round_follows_the_game_on_the_tv(server, browser):
    """A round of Grail Succession (twelve turns, two takes): the newest move and the row on the stage, then the
    round's end with its scores, the scores with their majorities in the summary; the current step and its result in
    view at every turn."""
    post, state, act, table = _game(server, browser, "サクセション卓", "succession", ("アルトリア", "ギルガメッシュ"))

    def check(result, text=""):
        now = state()
        r = now["ruleset"]
        table.check(now["session"]["version"], "finished" if r["finished"] else f"r{r['round']}-t{r['turn']}", result, text)

    act("setup", {"first": "s1", "row": ["5", "6"]})
    check("#stage #sc-row .sc-slot:last-child", "6")
    moves = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "+2"]
    for what in moves[:-1]:
        act("take" if what == "take" else "play", {} if what == "take" else {"card": what})
        check("#stage #sc-last", what.replace("-", "−") if what != "take" else "")
    act("play", {"card": moves[-1]})  # the round's end is the newest moment, with its scores, until the next move
    check("#stage #sc-round-end")
    # round 2: the first player flipped; the summary shows how each score is made (G-2)
    now = state()["ruleset"]
    assert now["round"] == 2 and now["current"] == "s2"
    tv = table.pages[0]
    for p in now["players"]:
        for f in p["score"]["factions"]:
            expect(tv.locator(f"#table-summary .sc-majorities[data-seat={p['seat']}] [data-faction='{f['value']}'] .sc-maj-count")
                   ).to_have_text(f"{f['mine']}:{f['theirs']}")
        expect(tv.locator(f"#table-summary .sc-score-card[data-seat={p['seat']}] .sc-total")).to_have_text(str(p["score"]["total"]))
    table.close()


def test_an_illuminati_round_follows_the_game_on_the_tv(server, browser):
    """The Illuminati opening (secret placements, I-2), the order roll (I-3) and a round of turns with an
    attack (its breakdown as it is built, then its roll and verdict, I-4, I-5), each on the TV's stage in view."""
    post, state, act, table = _game(server, browser, "イルミナティ卓", "illuminati", ("A", "B", "C"))

    def check(result, text=""):
        now = state()
        r = now["ruleset"]
        step = r["stage"] + (f"-{r['round']}-{r['current']}" if r["stage"] == "play" else "")
        table.check(now["session"]["version"], step, result, text)

    act("setup")
    check("#stage #il-newest", "12")
    act("opening_start")
    prompt = state()["ruleset"]["placement"]["prompt"]
    check("#stage #il-placement")
    for seat, name in (("s1", "Bavarian Illuminati"), ("s2", "UFOs"), ("s3", "Network")):
        post(f"/prompts/{prompt}/answer", {"value": name}, who=seat)
        check(f"#stage #il-placement [data-seat={seat}].il-answered")
    act("opening_next")
    prompt = state()["ruleset"]["placement"]["prompt"]
    for seat, name in (("s1", "CIA"), ("s2", "KGB"), ("s3", "IRS")):
        post(f"/prompts/{prompt}/answer", {"value": name}, who=seat)
    check("#stage #il-placement [data-seat=s3].il-answered")
    act("opening_next")
    check("#stage #il-newest", "IRS")
    act("roll_order", {"faces": [6, 5, 4, 3, 2, 1]})  # A 11, B 7, C 3
    check("#stage #il-newest", "11")
    while state()["ruleset"]["round"] == 1:
        seat = state()["ruleset"]["current"]
        act("start_turn", who=seat)
        check("#stage #il-newest")
        if seat == "s1":
            act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10},
                           "target": {"name": "KGB", "owner": "s2", "power": 2, "resistance": 5, "position": "child"}}, who="s1")
            check("#stage #il-attack [data-stage-achieved]", "−5")  # 10 − (5 + 10 adjacent to its Illuminati), a real minus
            act("modify", {"side": "attack", "amount": 1, "label": "Post Office"})
            check("#stage #il-attack [data-stage-achieved]", "−4")
            act("modify", {"side": "attack", "amount": 8, "label": "Mind Control"})
            check("#stage #il-attack [data-stage-achieved]", "4")
            act("roll_attack", {"faces": [1, 2]}, who="s1")  # 3 ≤ 4: B loses its only group and is out (I-7)
            check("#stage #il-last-attack .il-roll", "3")
            check("#stage #il-last-attack .il-stage-flag", "B")
        act("end_turn", who=seat)
        check("#stage #il-newest")
    # A at the goal while B is out: the standings' 「ゴール達成」 had the red of 「脱落」 (both .flag); it is good news, in
    # green (and read at the TV's 18 px floor, as every word: `check`)
    post("/counters", {"seat": "s1", "key": "groups", "value": 12, "reason": "Mind Control"})
    check("#stage #il-newest")
    flags = table.pages[0].evaluate("""() => Object.fromEntries([...document.querySelectorAll('.il-standings tr .flag')]
        .map((f) => [f.closest('tr').dataset.seat, [f.textContent.trim(), getComputedStyle(f).backgroundColor]]))""")
    (goal, goal_bg), (out, out_bg) = flags["s1"], flags["s2"]
    assert (goal, out) == ("ゴール達成", "脱落") and goal_bg != out_bg, flags
    red, green, blue = (int(x) for x in re.findall(r"\d+", goal_bg)[:3])
    assert green > red and green > blue, flags  # a positive green, not a warning
    table.close()


# The seat chips' counter labels that take more than one line.
WRAPPED_LABELS = """() => [...document.querySelectorAll('#live .seat-chip dt')].filter((dt) => {
    const range = document.createRange(); range.selectNodeContents(dt);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
}).map((dt) => dt.textContent.trim())"""


def test_the_tv_in_english_breaks_no_word_of_a_counter(server, browser):
    """Browser review: with the counters' labels grown for the TV, 「Command Seals」 read 「Comm / and / Seals」 in its
    80 px box at 1920×1080; the boxes grow with the screen, so no word is cut, and every word still reads at 18 px.
    Play-through: at 1366×768 it still read 「Comman / d Seals」 (the box at its 80 px least): a box is never narrower
    than the word (A-2, T-13: the 令呪 counter's English name). Play-through: 「Command Seals」 still wrapped at its space in
    its box at both sizes; a box is as wide as its label where the row has room, so each label reads on one line."""
    base, app = server
    live, raw = app.extensions["gmtool"].create("第五次聖杯戦争", "grail_trpg", [{"name": "セイバー陣営"}, {"name": "ランサー陣営"}])
    laptop = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    laptop.goto(f"{base}/s/{live.state.session_id}/table?k={raw['table']}&lang=en")
    expect(laptop.locator("#live .seat-chip").first).to_contain_text("Command Seals")
    assert laptop.evaluate(BROKEN_WORDS, '#live') == []
    assert laptop.evaluate(WRAPPED_LABELS) == []
    laptop.context.close()
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{base}/s/{live.state.session_id}/table?k={raw['table']}&lang=en")
    expect(tv.locator("#live .seat-chip").first).to_contain_text("Command Seals")
    assert tv.evaluate(BROKEN_WORDS, '#live') == [] and tv.evaluate(SMALL_TEXT, TV_MIN_PX) == []
    assert tv.evaluate(WRAPPED_LABELS) == []
    # The bar's offline and polling badges read at the floor too (they were 14 px): the TV loses its network (the
    # browser's offline event shows the offline badge), and the page is in polling mode (live.js sets is-polling
    # when the server refuses a stream).
    tv.context.set_offline(True)
    tv.evaluate("document.body.classList.add('is-polling')")
    expect(tv.locator(".bar .offline-badge")).to_be_visible()
    expect(tv.locator(".bar .polling-badge")).to_be_visible()
    assert tv.evaluate(SMALL_TEXT, TV_MIN_PX) == []
    tv.context.close()


EIGHT = ["セイバー陣営", "アーチャー陣営", "ランサー陣営", "ライダー陣営", "キャスター陣営", "アサシン陣営", "バーサーカー陣営", "ルーラー陣営"]


def test_eight_seats_of_seven_counters_and_a_prompt_for_all_are_whole_on_every_screen(server, browser):
    """Browser review: the summary grows to what it holds (it was cut at 40% of the screen), so eight seats of seven
    counters filled a 1280×720 screen and pushed the stage (a prompt open for all eight) out of it. The summary takes
    at most 60% of the screen, the stage the rest, and what is too tall for its box is drawn smaller: no text is
    cut at any screen, in either language, and the page does not scroll."""
    base, app = server
    client = app.test_client()
    r = client.post("/api/sessions", headers=bearer(app.config["ADMIN_KEY"]), json={
        "title": "大人数卓", "ruleset": "generic", "seats": EIGHT,
        "counters": ["seals", "mana", "karma", "vp", "coins", "black_stars", "HP,10,0,20,瀕死<=3"]})
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    r = client.post(f"/api/sessions/{data['session']}/prompts", headers=bearer(data["gm_token"]),
                    json={"title": "どれ", "kind": "choice", "options": ["赤", "青", "緑"]})
    assert r.status_code == 201, r.get_json()
    for width, height in ((1280, 720), (1366, 768), (1920, 1080)):
        page = browser.new_context(viewport={"width": width, "height": height}).new_page()
        for lang in ("ja", "en"):
            page.goto(f"{base}/s/{data['session']}/table?k={data['table_token']}&lang={lang}")
            expect(page.locator("#stage [data-stage-step=prompt]")).to_be_visible()
            page.wait_for_function(SETTLED)  # the stage's entrance, then its fit
            assert page.evaluate(CLIPPED_TEXT) == [], (width, lang)
            if width == 1920:  # drawn smaller to fit, still read across the room
                assert page.evaluate(SMALL_TEXT, TV_MIN_PX) == [], lang
        page.context.close()
