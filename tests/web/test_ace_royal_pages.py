"""Fate/Ace Royal screens: the GM console, the table and the phones render every phase from the
caller's view, post their steps through the forms, and show nobody a servant that is not theirs."""

from __future__ import annotations

import re
from html import unescape

from gmtool_testing import ADMIN_KEY, bare_emoji, bearer, icon, open_link, unnamed_controls

from gmtool.web.common import csrf_for


def test_screens_through_a_combat(app, client):
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "エースロイヤル", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]})
    data = r.get_json()
    sid = data["session"]
    gm, table = open_link(app, data["gm_url"]), open_link(app, data["table_url"])
    phones = {s["id"]: open_link(app, s["join_url"]) for s in data["seats"]}
    tokens = {"gm": data["gm_token"], **{s["id"]: s["token"] for s in data["seats"]}}

    def pages():
        out = {"gm": gm.get(f"/s/{sid}/gm"), "table": table.get(f"/s/{sid}/table"),
               **{s: c.get(f"/s/{sid}/phone") for s, c in phones.items()}}
        for who, page in out.items():
            assert page.status_code == 200, (who, page.get_data(as_text=True)[-2000:])
        return {who: page.get_data(as_text=True) for who, page in out.items()}

    def post(who, name, form, status=200):
        client_ = gm if who == "gm" else phones[who]
        path = f"/s/{sid}/gm/actions/{name}" if who == "gm" else f"/s/{sid}/phone/actions/{name}"
        response = client_.post(path, data=form, headers={"X-CSRF-Token": csrf_for(tokens[who]), "HX-Request": "true"})
        assert response.status_code == status, (name, response.status_code, response.get_data(as_text=True)[:500])

    assert 'id="ar-setup"' in pages()["gm"]
    post("gm", "setup", {"version": "standard"})
    post("gm", "roll_first", {"faces": "6 2"})
    html = pages()
    assert 'id="ar-servant-form"' in html["s1"] and "スタンダード" in html["table"]
    # 開幕 and the leftover classes wait for every servant, saying who is missing (they answered a 409 before)
    assert re.search(r'id="ar-start"[^>]* disabled', html["gm"]) and "未登録: 凛、ウェイバー" in html["gm"]
    assert re.search(r'<button class="small" disabled[^>]*>残ったクラス', html["gm"])
    english = gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    assert "each player sets their servant on the phone. Not set yet: 凛, ウェイバー" in english
    gm.get(f"/s/{sid}/gm?lang=ja")
    post("s1", "set_servant", {"hero_name": "遠坂の秘蔵英霊", "hero_stats": "6/5/3/3", "hero_skills": ["first_strike", "mind_eye"],
                               "class_name": "セイバー", "class_stats": "3/3/1/5"})
    post("s2", "set_servant", {"hero_name": "イスカンダル", "hero_stats": "5/3/5/3", "hero_skills": "charisma",
                               "class_name": "ライダー", "class_stats": "2/2/2/2"})
    html = pages()
    assert "遠坂の秘蔵英霊" in html["s1"] and "9/8/4/8" in html["s1"] and "遠坂の秘蔵英霊" in html["gm"]
    assert "遠坂の秘蔵英霊" not in html["table"] and "遠坂の秘蔵英霊" not in html["s2"]
    assert not re.search(r'id="ar-start"[^>]* disabled', html["gm"]) and 'id="ar-servants-missing"' not in html["gm"]
    # no real GM here: the laptop's console, which the players see, hides every servant (its panel and its log) while
    # 「回答を公開まで隠す」 is on, as the table does; who has set one still counts (開幕 stays enabled)
    def hide(value):
        r = gm.post(f"/s/{sid}/gm/settings", data={"key": "hide_answers", "value": value},
                    headers={"X-CSRF-Token": csrf_for(tokens["gm"]), "HX-Request": "true"})
        assert r.status_code == 200, r.get_data(as_text=True)[:300]

    hide("on")
    for lang in ("ja", "en"):
        hidden = gm.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True)
        for secret in ("遠坂の秘蔵英霊", "イスカンダル", "セイバー", "ライダー", "3/3/1/5", "9/8/4/8"):
            assert secret not in hidden, (lang, secret)
        assert not re.search(r'id="ar-start"[^>]* disabled', hidden) and 'id="ar-servants-unrecorded"' not in hidden
        assert ("凛 がサーヴァントを登録" if lang == "ja" else "凛 set their servant") in hidden  # its log line says only that
        assert ("凛: ✓" in hidden) and ("非公開" if lang == "ja" else "Hidden") in hidden
    gm.get(f"/s/{sid}/gm?lang=ja")
    # an undo taken while hidden tells the console what it took back as the table reads it, not the servant's cards
    r = gm.post(f"/s/{sid}/gm/undo", headers={"X-CSRF-Token": csrf_for(tokens["gm"]), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    for text in (r.get_data(as_text=True), gm.get(f"/s/{sid}/gm").get_data(as_text=True),
                 gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)):
        for secret in ("イスカンダル", "ライダー", "5/3/5/3"):
            assert secret not in text, secret
    gm.get(f"/s/{sid}/gm?lang=ja")
    post("s2", "set_servant", {"hero_name": "イスカンダル", "hero_stats": "5/3/5/3", "hero_skills": "charisma",
                               "class_name": "ライダー", "class_stats": "2/2/2/2"})
    hide("off")
    assert "遠坂の秘蔵英霊" in pages()["gm"]
    post("gm", "start_game", {})
    post("s1", "step", {})
    post("s1", "step", {})
    html = pages()
    assert 'ar-now">儀式ステップ' in html["table"] and "襲撃: ウェイバー" in html["s1"]
    # seal effect 2 adds the mystic codes on the field: offered only with one there (+0 is refused)
    assert "ステータス強化（礼装の枚数）" not in html["s1"] and "令呪を使う" in html["s1"]
    post("gm", "adjust", {"seat": "s1", "key": "codes", "delta": "1"})
    assert "ステータス強化（礼装の枚数） (+1)" in pages()["s1"]
    post("gm", "adjust", {"seat": "s1", "key": "codes", "delta": "-1"})
    # the GM's ✓ buttons (a servant's state, a command seal) are named for a screen reader, in either language
    assert 'aria-label="凛: 令呪を使う"' in html["gm"]
    english = gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    assert 'aria-label="凛: Servant state Set"' in english
    assert unnamed_controls(html["gm"]) == unnamed_controls(english) == []
    post("s1", "declare_attack", {"target": "s2"})
    post("s1", "combat_choose", {"kind": "physical"})
    post("s2", "combat_choose", {"kind": "magical"}, status=409)  # 先制 dealt damage: no interception
    # a pick stands until a card changes the stats: the attacker's phone showed both buttons, each a 409
    post("s1", "combat_choose", {"kind": "magical"}, status=409)
    html = pages()
    assert "先制でダメージ、迎撃プロセスはなし" in html["s2"] and "first strike dealt damage, no interception process" in html["gm"]  # (the GM reads English here)
    html = html["s1"]
    assert 'class="big-button ar-kind"' not in html and re.search(r'id="ar-picked"><b>物理</b>', html)
    post("gm", "combat_modifier", {"side": "interceptor", "stat": "all", "value": "1", "label": "令呪の加護"})
    post("gm", "combat_modifier", {"side": "attacker", "stat": "mdef", "value": "-1", "label": "呪詛"})  # unused here
    html = pages()
    assert 'class="big-button primary ar-kind" data-kind="physical"' in html["s1"] and 'id="ar-picked"' not in html["s1"]
    assert 'id="ar-combat"' in html["table"] and "令呪の加護" in html["table"] and 'id="ar-resolve"' in html["s2"]
    assert "遠坂の秘蔵英霊" in html["table"]  # disclosed by the combat
    post("s2", "combat_resolve", {"faces": "1"})  # 9 vs 5+1 → 3; 先制 skips the interception; s1 steals card 1
    html = pages()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html["table"]))
    assert "物理 9 vs 6 ⇒ 3 ダメージ" in text and "先制: 迎撃なし" in text and "&lt;令呪の加護&gt; +1" in text
    # a negative modifier reads with the minus sign, in its log line and the stage's terms (−1, not -1)
    assert "魔術防御 −1 &lt;呪詛&gt;" in text and "&lt;呪詛&gt; 魔術防御−1" in text
    assert not re.search(r"(?<![\w(→-])-\d", text), text  # (core's counter lines keep their documented 5→2 (-3))
    assert text.index("物理 9 vs 6") < text.index("ライズステップ")  # the result on the stage, above the summary
    english = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", table.get(f"/s/{sid}/table?lang=en").get_data(as_text=True)))
    assert "Physical 9 vs 6 ⇒ 3 damage" in english  # mid-sentence: not "3 Damage"
    table.get(f"/s/{sid}/table?lang=ja")
    post("gm", "adjust", {"seat": "s2", "key": "mana", "delta": "-2"})
    html = pages()
    assert "勝者: 凛" in html["table"] and "勝者: 凛" in html["s2"]
    # the trophy before the word 勝者 is hidden from a screen reader (it read "trophy") and drawn in SVG (🏆 was an
    # empty box on a laptop without an emoji font); no emoji stands alone
    for who, page in html.items():
        assert re.search(icon("trophy") + " (勝者|Winner): 凛", page) and "🏆" not in page and bare_emoji(page) == [], who
    english = table.get(f"/s/{sid}/table?lang=en").get_data(as_text=True)
    assert "Winner" in english or "winner" in english


def test_a7_every_phone_shows_the_combat_that_ended_the_game(app, client):
    """Play-through: a combat put the last rival out; the stage showed it under the winner, but the phones said only
    who won and who was out (the loser's phone hid its combat once it was out). Both phones show its result now."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "決着", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]}).get_json()
    sid, gm = data["session"], data["gm_token"]

    def api(name, body=None):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm), json=body or {})
        assert r.status_code == 200, r.get_json()

    api("setup")
    api("roll_first", {"faces": [6, 1]})
    for seat in ("s1", "s2"):
        api("set_servant", {"seat": seat, "hero": {"name": "英霊", "stats": "6/5/3/3"}, "class": {"name": "クラス", "stats": "3/3/1/5"}})
    api("start_game")
    api("step")
    api("step")
    api("declare_attack", {"target": "s2"})
    api("adjust", {"seat": "s2", "key": "mana", "delta": -4, "reason": "カード"})
    api("combat_choose", {"side": "attacker", "kind": "physical"})
    api("combat_choose", {"side": "interceptor", "kind": "magical"})
    api("combat_resolve")  # 9 vs 8 → 1: ウェイバー's last 魔力, out; 凛 wins
    for seat in data["seats"]:
        phone = open_link(app, seat["join_url"])
        for lang, line in (("ja", "物理 9 vs 8 ⇒ 1 ダメージ"), ("en", "Physical 9 vs 8 ⇒ 1 damage")):
            text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)))
            assert line in text and ("勝者: 凛" in text or "Winner: 凛" in text), (seat["name"], lang)


def test_quick_version_phone_rolls_and_rerolls_with_real_dice(app, client):
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "クイック", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]}).get_json()
    sid, gm = data["session"], data["gm_token"]
    tokens = {s["id"]: s["token"] for s in data["seats"]}
    phone = open_link(app, next(s["join_url"] for s in data["seats"] if s["id"] == "s2"))

    def api(name, body):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm), json=body)
        assert r.status_code == 200, r.get_json()

    def post(name, form):
        r = phone.post(f"/s/{sid}/phone/actions/{name}", data=form,
                       headers={"X-CSRF-Token": csrf_for(tokens["s2"]), "HX-Request": "true"})
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
        return r.get_data(as_text=True)

    api("setup", {"version": "quick"})
    api("roll_first", {"faces": [6, 1]})
    for seat in ("s1", "s2"):
        api("set_servant", {"seat": seat, "hero": {"name": "英霊", "stats": "5/5/5/5"}, "class": {"name": "クラス", "stats": "1/1/1/1"}})
    api("start_game", {})
    api("step", {})
    api("step", {})
    api("declare_attack", {"target": "s2"})
    api("combat_choose", {"side": "attacker", "kind": "physical"})
    html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert "戦闘ダイスを振る" in html and "8" in html  # 8 魔力 in the quick version
    assert "戦闘ダイスを振り直す" not in html  # quick seal 2 offers only a die the player rolled (me.rerolls, A-3)
    # the interceptor picks once both dice are in (they count in the attacker's damage judgement)
    assert 'id="ar-wait-dice"' in html and 'class="big-button ar-kind"' not in html
    assert 'ar-process-now">襲撃プロセス: 両者が戦闘ダイスを振る' in html  # not "the attacker picks": it has picked
    post("combat_roll", {"faces": "1 3"})
    assert "2. 戦闘ダイスを振り直す" in phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    post("use_seal", {"effect": "2", "faces": "6"})  # quick seal 2: re-roll my die, with a real die
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["ruleset"]
    assert view["combat"]["interceptor_side"]["faces"] == [6]
    assert view["players"][1]["seals"] == 2
    api("combat_roll", {"side": "attacker", "faces": [4]})
    html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'id="ar-wait-dice"' not in html and 'class="big-button ar-kind"' in html
    # the line above the buttons says the interceptor picks now (it said 「襲撃側が物理か魔術を選ぶ」 under 「物理で攻撃」)
    assert 'ar-process-now">襲撃プロセス: 迎撃側が反撃に物理か魔術を選ぶ（選ぶと襲撃側のダメージが決まる）' in html
    stage = open_link(app, data["table_url"]).get(f"/s/{sid}/table").get_data(as_text=True)  # the TV says the same
    assert 'ar-stage-process">襲撃プロセス: 迎撃側が反撃に物理か魔術を選ぶ（選ぶと襲撃側のダメージが決まる）' in stage
    bad = phone.post(f"/s/{sid}/phone/actions/combat_roll", data={"faces": "9"},
                     headers={"X-CSRF-Token": csrf_for(tokens["s2"]), "HX-Request": "true"})
    assert 400 <= bad.status_code < 500
    # a card the interceptor plays, from its own phone (the API let a side do it, the phone offered nothing):
    # a labelled modifier and a proxy for its side, the proxy withdrawn again; an unlabelled modifier is refused
    assert 'id="ar-my-modifier"' in html and 'id="ar-my-proxy"' in html and 'id="ar-proxy-clear"' not in html
    post("combat_modifier", {"label": "風王結界", "stat": "pdef", "value": "+2"})
    post("combat_proxy", {"name": "使い魔", "stats": "4/4/4/4", "source": "hero"})
    side = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["ruleset"]["combat"]["interceptor_side"]
    assert side["modifiers"] == [{"stat": "pdef", "value": 2, "label": "風王結界"}] and side["proxy"]["name"] == "使い魔"
    html = phone.get(f"/s/{sid}/phone?lang=en").get_data(as_text=True)
    assert "Card effects (modifiers, proxy)" in html and 'id="ar-proxy-clear"' in html
    assert "ar-process-now\">Attack process: the interceptor picks physical or magical to strike back" in html
    post("combat_proxy", {"clear": "1"})
    side = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["ruleset"]["combat"]["interceptor_side"]
    assert side["proxy"] is None
    bad = phone.post(f"/s/{sid}/phone/actions/combat_modifier", data={"label": "", "stat": "all", "value": "1"},
                     headers={"X-CSRF-Token": csrf_for(tokens["s2"]), "HX-Request": "true"})
    assert bad.status_code == 400


def test_a9_the_console_asks_whether_a_hero_proxy_can_discard_a_code(app, client):
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "代理", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]}).get_json()
    sid, gm_token = data["session"], data["gm_token"]
    gm = open_link(app, data["gm_url"])

    def api(name, body):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm_token), json=body)
        assert r.status_code == 200, r.get_json()

    api("setup", {})
    api("roll_first", {"faces": [6, 1]})
    api("set_servant", {"seat": "s1", "hero": {"name": "英霊", "stats": "9/9/9/9"}, "class": {"name": "クラス", "stats": "1/1/1/1"}})
    api("set_servant", {"seat": "s2", "hero": {"name": "イスカンダル", "stats": "1/1/1/1", "skills": ["カリスマ"]},
                        "class": {"name": "ライダー", "stats": "1/1/1/1"}})
    api("start_game", {})
    api("step", {})
    api("step", {})
    api("declare_attack", {"target": "s2"})
    api("combat_proxy", {"side": "interceptor", "name": "王の軍勢", "stats": "7/8/7/4", "legion": True, "source": "hero"})
    api("combat_choose", {"side": "attacker", "kind": "physical"})
    api("combat_choose", {"side": "interceptor", "kind": "physical"})
    # A-9: the proxy takes 1 damage and ウェイバー holds 4 cards: whether one is a mystic code is ウェイバー's (or the
    # GM's) to say, never assumed; 凛 resolving first is refused (409, nothing written), and says why
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm_token)).get_json()
    assert view["ruleset"]["combat"]["hand_code_due"] == {"attacker": False, "interceptor": True}
    for token in (data["seats"][0]["token"], data["seats"][1]["token"], gm_token):
        r = client.post(f"/api/sessions/{sid}/actions/combat_resolve", headers=bearer(token), json={})
        assert r.status_code == 409 and r.get_json()["error"]["ja"] == (
            "ウェイバー の代理戦闘がダメージを受けます: 手札に捨てられる礼装カードがあるかを ウェイバー かGMが答えてから解決します（A-9）")
    after = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm_token)).get_json()
    assert after["session"]["version"] == view["session"]["version"]
    rin, waver = (open_link(app, seat["join_url"]) for seat in data["seats"])
    for lang, wait, ask in (("ja", "ウェイバー の代理戦闘がダメージを受けます: 手札の礼装カードの有無を ウェイバー が答えて解決します",
                             "手札に捨てられる礼装カードは？"),
                            ("en", "ウェイバー's proxy takes damage: ウェイバー says whether the hand holds a mystic code and resolves",
                             "a mystic code card in the hand to discard?")):
        html = unescape(rin.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True))
        assert 'id="ar-wait-hand-code"' in html and wait in html and 'id="ar-resolve"' not in html, lang
        html = unescape(waver.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True))
        assert ask in html and 'id="ar-resolve"' in html and 'id="ar-wait-hand-code"' not in html, lang
        assert html.count('name="interceptor_hand_code"') == 2 and 'value="1" required' in html, lang
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert html.count('name="interceptor_hand_code"') == 2 and 'name="attacker_hand_code"' not in html
    # Both answers asked: 凛's proxy from a hero card takes the legion's 11 against its 1 (10 damage), 凛 holding 5
    # cards. Each phone said the other player would answer and resolve, with neither its own question nor a resolve,
    # and a resolve with the caller's own answer was 409: only the GM could go on. Now each phone asks its own
    # question whatever the other side's state, keeps the answer (combat_hand_code), and offers the resolve once the
    # other side's answer is in.
    api("combat_proxy", {"side": "attacker", "name": "影", "stats": "1/1/1/1", "source": "hero"})
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm_token)).get_json()
    assert view["ruleset"]["combat"]["hand_code_due"] == {"attacker": True, "interceptor": True}
    seats, tokens = {"s1": rin, "s2": waver}, {s["id"]: s["token"] for s in data["seats"]}
    both = {"ja": "{} の代理戦闘もダメージを受けます: 両者が手札の礼装カードの有無を答えると解決できます",
            "en": "{}'s proxy takes damage too: once both have said whether their hand holds a mystic code, the combat can be resolved"}
    for lang, ask, answer in (("ja", "手札に捨てられる礼装カードは？", ">答える<"), ("en", "a mystic code card in the hand to discard?", ">Answer<")):
        for seat, other in (("s1", "ウェイバー"), ("s2", "凛")):
            html = unescape(seats[seat].get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True))
            assert 'id="ar-hand-code-form"' in html and ask in html and html.count('name="hand_code"') == 2, (seat, lang)
            assert answer in html and both[lang].format(other) in html and 'id="ar-resolve"' not in html, (seat, lang)
    r = client.post(f"/api/sessions/{sid}/actions/combat_resolve", headers=bearer(tokens["s2"]), json={"interceptor_hand_code": False})
    assert r.status_code == 409 and r.get_json()["error"]["ja"].startswith("凛 の代理戦闘がダメージを受けます")
    for tap in range(2):  # 「答える」 tapped twice: the second was a 409 flash 「既にそう答えています」; now it is kept
        r = rin.post(f"/s/{sid}/phone/actions/combat_hand_code", data={"hand_code": "1"},
                     headers={"X-CSRF-Token": csrf_for(tokens["s1"]), "HX-Request": "true"})
        assert r.status_code == 200 and "既にそう答えています" not in r.get_data(as_text=True), tap
    html = unescape(rin.get(f"/s/{sid}/phone?lang=ja").get_data(as_text=True))  # my answer kept, ticked; I wait
    assert 'name="hand_code" value="1" required checked' in html and "回答済み（変更できます）" in html
    assert "ウェイバー の代理戦闘がダメージを受けます: 手札の礼装カードの有無を ウェイバー が答えて解決します" in html
    assert 'id="ar-resolve"' not in html
    html = unescape(waver.get(f"/s/{sid}/phone?lang=ja").get_data(as_text=True))  # 凛's is in: I answer and resolve
    assert 'id="ar-resolve"' in html and html.count('name="interceptor_hand_code"') == 2 and "ar-wait-hand-code" not in html
    assert "required checked" not in html  # 凛's answer is not mine to see (nor the table's, test_ace_royal_api)
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert 'name="attacker_hand_code" value="1" required checked' in html and 'name="interceptor_hand_code"' in html
    a9_kept_answer_is_asked_again_after_a_public_import(app, client, sid, gm_token)
    # 凛 draws a card (the console's +1) after answering: the answer, about the hand as it was, is dropped and asked
    # again (ace_royal.hand_code_cleared). The table's stage, showing the combat, ignored the newest action and kept the
    # older line; it says what just happened now, and once 凛 answers again that 凛 answered, never what.
    table = open_link(app, data["table_url"])
    api("adjust", {"seat": "s1", "key": "hand", "delta": 1, "reason": "ドロー"})
    for answered, lines in ((False, {"ja": "襲撃側 凛: 手札が変わったので、手札の礼装カードの有無を答え直します",
                                     "en": "Attacker 凛: the hand has changed, so whether it holds a mystic code card is asked again"}),
                            (True, {"ja": "襲撃側 凛: 手札の礼装カードの有無を回答",
                                    "en": "Attacker 凛: answered whether the hand holds a mystic code"})):
        if answered:
            r = rin.post(f"/s/{sid}/phone/actions/combat_hand_code", data={"hand_code": "1"},
                         headers={"X-CSRF-Token": csrf_for(tokens["s1"]), "HX-Request": "true"})
            assert r.status_code == 200
        for lang, line in lines.items():
            stage = unescape(table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True))
            newest = re.search(r'id="ar-newest">(.*?)</div>', stage, re.S)
            assert 'id="ar-combat"' in stage and newest and line in newest.group(1), (answered, lang)
            assert "捨てられる礼装カードがある" not in stage and "holds a mystic code card to discard" not in stage

    def hide(value):  # the console's 「回答を公開まで隠す」 (a game without a real GM, its laptop seen by the players)
        r = gm.post(f"/s/{sid}/gm/settings", data={"key": "hide_answers", "value": value},
                    headers={"X-CSRF-Token": csrf_for(gm_token), "HX-Request": "true"})
        assert r.status_code == 200, r.get_data(as_text=True)[:300]

    # Hidden, the console showed both sides' radios, required and none ticked: it could not resolve without a guess for
    # 凛, and the guess overrode 凛's kept answer. A side whose answer is kept now reads only 回答済み / Answered, no
    # radios; a side not yet answered still gets them.
    hide("on")
    html = gm.get(f"/s/{sid}/gm?lang=ja").get_data(as_text=True)
    assert 'name="attacker_hand_code"' not in html and 'id="ar-hand-code-attacker-kept">回答済み<' in html
    assert html.count('name="interceptor_hand_code"') == 2 and "checked" not in html.split('id="ar-hand-code-interceptor"')[1].split("</fieldset>")[0]
    r = waver.post(f"/s/{sid}/phone/actions/combat_hand_code", data={"hand_code": "0"},
                   headers={"X-CSRF-Token": csrf_for(tokens["s2"]), "HX-Request": "true"})
    assert r.status_code == 200
    html = gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    assert "_hand_code" not in html.split('id="ar-gm-resolve"')[0].split("combat_resolve")[-1]  # the form posts no answer
    assert 'id="ar-hand-code-attacker-kept">Answered<' in html and 'id="ar-hand-code-interceptor-kept">Answered<' in html
    r = gm.post(f"/s/{sid}/gm/actions/combat_resolve", data={"faces": ""},  # what the hidden console's form posts
                headers={"X-CSRF-Token": csrf_for(gm_token), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    hide("off")
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm_token)).get_json()["ruleset"]
    s1, s2 = view["players"]
    assert (s2["mana"], s2["state"], s2["hand"]) == (5, "danger", 4)  # 10 vs 10 → 1 to the proxy: no code, Danger
    assert (s1["mana"], s1["state"], s1["hand"]) == (5, "down", 5)  # 11 vs 1 → 10 to 影: 凛's code discarded (6 → 5), Down
    # What the proxy's damage cost (A-9) was only a GM's log line: the table's stage and the players' phones (the
    # proxy's own and the one who watched) say it under the combat's result now, in either language.
    table, phones = open_link(app, data["table_url"]), [open_link(app, seat["join_url"]) for seat in data["seats"]]
    said = {"ja": "ウェイバー の代理戦闘 王の軍勢 に1ダメージ: 魔力は失わず、手札に捨てられる礼装カードがないため、デンジャー",
            "en": "ウェイバー's proxy 王の軍勢 takes 1 damage: no mana lost; no mystic code card in the hand to discard, so Danger"}
    for lang, line in said.items():
        assert line in unescape(table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)), lang
        for phone in phones:
            html = unescape(phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True))
            assert 'id="ar-newest-action"' in html and line in html, lang


def a9_kept_answer_is_asked_again_after_a_public_import(app, client, sid, gm_token):
    """A-9 in a combat where 凛 has answered (kept) and ウェイバー has not, exported publicly and imported as a new session:
    the export says that 凛 answered, not what (the table's reading), so the copy has no answer to resolve with. It read
    answered everywhere (the API's hand_code_answered, 凛's phone's 回答済み, the console's pill; ウェイバー's phone
    offered the resolve) while the resolve asked for the answer (409). Now 凛 is asked again on every screen, and the
    stage's newest line says why; 凛's answer then resolves as usual."""
    export = client.get(f"/api/sessions/{sid}/export?format=json", headers=bearer(gm_token)).get_json()
    made = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=export).get_json()
    new, tokens = made["session"], {"gm": made["gm_token"], "table": made["table_token"],
                                    **{seat["id"]: seat["token"] for seat in made["seats"]}}
    for who in tokens:
        combat = client.get(f"/api/sessions/{new}/state", headers=bearer(tokens[who])).get_json()["ruleset"]["combat"]
        assert combat["hand_code_due"] == {"attacker": True, "interceptor": True}, who
        assert combat["hand_code_answered"] == {"attacker": False, "interceptor": False}, who
        assert combat["hand_code"] == {"attacker": None, "interceptor": None}, who
    rin, waver = (open_link(app, seat["join_url"]) for seat in made["seats"])
    gm, table = open_link(app, made["gm_url"]), open_link(app, made["table_url"])
    for lang, given, why in (("ja", "回答済み", "襲撃側 凛: 手札の礼装カードの有無の回答は公開エクスポートに含まれないため、答え直します"),
                             ("en", "Answered", "Attacker 凛: the answer to whether the hand holds a mystic code card is not in "
                                               "the public export, so it is asked again")):
        html = unescape(rin.get(f"/s/{new}/phone?lang={lang}").get_data(as_text=True))
        assert 'id="ar-hand-code-form"' in html and "ar-hand-code-given" not in html and "checked" not in html, lang
        html = unescape(waver.get(f"/s/{new}/phone?lang={lang}").get_data(as_text=True))
        assert 'id="ar-resolve"' not in html and 'id="ar-hand-code-form"' in html, lang  # both still to answer
        html = unescape(gm.get(f"/s/{new}/gm?lang={lang}").get_data(as_text=True))
        fieldset = html.split('id="ar-hand-code-attacker"')[1].split("</fieldset>")[0]
        assert given not in fieldset and "checked" not in fieldset and 'name="attacker_hand_code"' in fieldset, lang
        stage = unescape(table.get(f"/s/{new}/table?lang={lang}").get_data(as_text=True))
        assert why in re.search(r'id="ar-newest">(.*?)</div>', stage, re.S).group(1), lang
    r = client.post(f"/api/sessions/{new}/actions/combat_resolve", headers=bearer(tokens["s2"]),
                    json={"interceptor_hand_code": False})
    assert r.status_code == 409 and r.get_json()["error"]["ja"].startswith("凛 の代理戦闘がダメージを受けます"), r.get_json()
    for seat, answer in (("s1", True), ("s2", False)):
        r = client.post(f"/api/sessions/{new}/actions/combat_hand_code", headers=bearer(tokens[seat]), json={"hand_code": answer})
        assert r.status_code == 200, r.get_json()
    r = client.post(f"/api/sessions/{new}/actions/combat_resolve", headers=bearer(tokens["gm"]), json={})
    assert r.status_code == 200, r.get_json()


def test_a1_the_console_disables_the_start_until_the_class_exchange_is_over(app, client):
    """開幕 answered a 409 during the class exchange (A-1) while the console offered it: now it is disabled there,
    saying whose turn it is to exchange, in either language."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "エースロイヤル", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]})
    data = r.get_json()
    sid, gm_token = data["session"], data["gm_token"]
    gm = open_link(app, data["gm_url"])

    def act(name, payload, token=gm_token, status=200):
        response = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(token), json=payload)
        assert response.status_code == status, (name, response.get_json())
        return response.get_json()

    act("setup", {})
    act("roll_first", {"faces": [6, 2]})
    for seat in data["seats"]:
        act("set_servant", {"hero": {"name": "英霊", "stats": "6/5/3/3"}, "class": {"name": "セイバー", "stats": "3/3/1/5"}},
            token=seat["token"])
    act("leftover_classes", {"classes": ["ランサー 2/2/2/2"]})
    refused = act("start_game", {}, status=409)["error"]
    assert "ウェイバー" in refused["ja"] and "class exchange" in refused["en"]
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert re.search(r'id="ar-start"[^>]* disabled aria-describedby="ar-exchange-pending"', html)
    assert re.search(r'id="ar-exchange-pending">開幕はクラス交換が終わってから（A-1）。次に交換かパスをする人: ウェイバー<', html)
    english = gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    assert "The game starts once the class exchange is over (A-1). Next to exchange or pass: ウェイバー" in english
    gm.get(f"/s/{sid}/gm?lang=ja")
    act("exchange_class", {"pick": "pass"})
    act("exchange_class", {"pick": 0})
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert not re.search(r'id="ar-start"[^>]* disabled', html) and 'id="ar-exchange-pending"' not in html
    act("start_game", {})


def test_a3_a10_a_phone_cancels_a_lethal_placement_and_the_consoles_plus_asks_first(app, client):
    """A-3 effect 3 x A-10: the GM enters a 暗殺 / 枯渇 placement in one step (adjust), so there was no moment for the
    player to answer it, and the phone offered seal 3 only for a coin already on the servant. The phone now offers
    「置かれる前に配置を無効化」 (use_seal effect 3 with placement) at any time, and the console's + that would kill a
    master asks first, saying the player may cancel it with the seal."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "暗殺", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]}).get_json()
    sid, gm_token = data["session"], data["gm_token"]
    gm = open_link(app, data["gm_url"])
    token = next(s["token"] for s in data["seats"] if s["id"] == "s2")
    phone = open_link(app, next(s["join_url"] for s in data["seats"] if s["id"] == "s2"))

    def api(name, body):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm_token), json=body)
        assert r.status_code == 200, r.get_json()

    api("setup", {})
    api("roll_first", {"faces": [6, 1]})
    for seat in ("s1", "s2"):
        api("set_servant", {"seat": seat, "hero": {"name": "英霊", "stats": "5/5/5/5"}, "class": {"name": "クラス", "stats": "1/1/1/1"}})
    api("start_game", {})
    api("adjust", {"seat": "s2", "key": "assassin", "delta": 3})  # 3 coins, a hand of 4: the next one is safe, then lethal
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert not re.search(r'ウェイバー 暗殺 \+1"\s*hx-confirm', html)  # a fourth coin does not exceed the hand of 4
    api("adjust", {"seat": "s2", "key": "assassin", "delta": 1})
    for lang, words in (("ja", "ウェイバーのマスターが死亡します（暗殺5枚 &gt; 手札4枚、A-10）。ウェイバーは令呪3"),
                        ("en", "This kills ウェイバー&#39;s master (Assassination 5 &gt; hand 4, A-10). ウェイバー can cancel")):
        html = gm.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True)
        assert re.search(r"ウェイバー (暗殺|Assassination) \+1\"\s*hx-confirm=\"" + re.escape(words), html), lang
        assert not re.search(r'凛 (暗殺|Assassination) \+1"\s*hx-confirm', html), lang
    gm.get(f"/s/{sid}/gm?lang=ja")
    html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'id="ar-cancel-placement"' in html and "3. 置かれる前に配置を無効化" in html
    assert "3. Cancel a placement before it is made" in phone.get(f"/s/{sid}/phone?lang=en").get_data(as_text=True)
    phone.get(f"/s/{sid}/phone?lang=ja")
    r = phone.post(f"/s/{sid}/phone/actions/use_seal", data={"effect": "3", "coin": "assassin", "placement": "2"},
                   headers={"X-CSRF-Token": csrf_for(token), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    s2 = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm_token)).get_json()["ruleset"]["players"][1]
    assert (s2["assassin"], s2["seals"], s2["out"]) == (4, 2, None)
    bad = phone.post(f"/s/{sid}/phone/actions/use_seal", data={"effect": "3", "coin": "assassin", "placement": "0"},
                     headers={"X-CSRF-Token": csrf_for(token), "HX-Request": "true"})
    assert bad.status_code == 400 and "1〜30" in bad.get_data(as_text=True)
    # seal 4 takes the text used (as the console's form does): the phone's button had no field for it
    html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert re.search(r'<form class="row" id="ar-seal-text"[^>]*>.*?<input name="text" placeholder="使うテキスト（カード名・効果）"', html, re.S)
    assert 'placeholder="Text effect used (card, effect)"' in phone.get(f"/s/{sid}/phone?lang=en").get_data(as_text=True)
    r = phone.post(f"/s/{sid}/phone/actions/use_seal", data={"effect": "4", "text": "燕返し"},
                   headers={"X-CSRF-Token": csrf_for(token), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    log = client.get(f"/api/sessions/{sid}/log?lang=ja", headers=bearer(gm_token)).get_json()["events"]
    assert any("4. テキストをコストなしで使用 <燕返し>" in e["text"] for e in log), log[-2:]


def test_a3_quick_seal_two_on_the_phone_re_rolls_the_first_master_and_encounter_dice(app, client):
    """A-3 quick effect 2 re-rolls a die you rolled: the phone offered only the combat die. It now offers each die the
    game still lets the player re-roll (me.rerolls): the first-active-master die during the setup (A-5), the encounter
    die of the turn (A-6), each with real dice, in both languages."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "クイック", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]}).get_json()
    sid, gm = data["session"], data["gm_token"]
    tokens = {s["id"]: s["token"] for s in data["seats"]}
    phones = {s["id"]: open_link(app, s["join_url"]) for s in data["seats"]}

    def api(name, body):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm), json=body)
        assert r.status_code == 200, r.get_json()

    def post(seat, name, form, status=200):
        r = phones[seat].post(f"/s/{sid}/phone/actions/{name}", data=form,
                              headers={"X-CSRF-Token": csrf_for(tokens[seat]), "HX-Request": "true"})
        assert r.status_code == status, r.get_data(as_text=True)[:300]
        return r.get_data(as_text=True)

    def view():
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["ruleset"]

    api("setup", {"version": "quick"})
    api("roll_first", {"faces": [6, 2]})
    html = phones["s2"].get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'id="ar-reroll"' in html and "2. 最初のアクティブマスター決定のダイスを振り直す" in html
    assert "Re-roll your first-active-master die" in phones["s2"].get(f"/s/{sid}/phone?lang=en").get_data(as_text=True)
    phones["s2"].get(f"/s/{sid}/phone?lang=ja")
    post("s2", "use_seal", {"effect": "2", "die": "first", "faces": "6 3 5"})  # a tie: both roll again, 3 vs 5
    v = view()
    assert v["first"] == "s2" and v["first_rolls"] == {"s1": [6, 3], "s2": [6, 5]} and v["players"][1]["seals"] == 2
    for seat in ("s1", "s2"):
        api("set_servant", {"seat": seat, "hero": {"name": "英霊", "stats": "5/5/5/5"}, "class": {"name": "クラス", "stats": "1/1/1/1"}})
    api("start_game", {})
    assert 'id="ar-reroll"' not in phones["s2"].get(f"/s/{sid}/phone").get_data(as_text=True)
    bad = post("s2", "use_seal", {"effect": "2", "die": "first", "faces": "1"}, status=409)
    assert "開幕したので、最初のアクティブマスター決定のダイスはもう振り直せません" in bad
    for _ in range(2):
        api("step", {})
    api("place_code", {})
    api("step", {})
    api("encounter_roll", {"faces": [1, 1]})  # an encounter with 凛
    html = phones["s2"].get(f"/s/{sid}/phone").get_data(as_text=True)
    assert "2. 遭遇戦判定のダイスを振り直す" in html and "2. 戦闘ダイスを振り直す" not in html
    post("s2", "use_seal", {"effect": "2", "die": "encounter", "faces": "5"})
    v = view()
    assert v["combat"] is None and v["step"] == "end" and "遭遇戦判定のダイス 1→5" in v["newest_action"][0]["plain"]["ja"]
    assert "encounter die 1→5" in v["newest_action"][0]["plain"]["en"]


def test_a3_a6_the_phone_and_the_console_re_roll_the_encounters_opponent_die(app, client):
    """A-3 quick effect 2 x A-6: the die that picked an encounter's opponent is the turn player's too. The phone offers
    「2. 遭遇戦の相手を決めるダイスを振り直す」 (me.rerolls `opponent`) with real dice, in both languages, and the console's
    seal form the die `opponent`; the re-roll picks the combat's interceptor again."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "クイック", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー", "龍之介"]}).get_json()
    sid, gm_token = data["session"], data["gm_token"]
    phone = open_link(app, data["seats"][0]["join_url"])
    gm = open_link(app, data["gm_url"])

    def api(name, body):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm_token), json=body)
        assert r.status_code == 200, r.get_json()

    api("setup", {"version": "quick"})
    api("roll_first", {"faces": [6, 2, 3]})
    for seat in ("s1", "s2", "s3"):
        api("set_servant", {"seat": seat, "hero": {"name": "英霊", "stats": "5/5/5/5"}, "class": {"name": "クラス", "stats": "1/1/1/1"}})
    api("start_game", {})
    api("step", {})
    api("step", {})
    api("place_code", {})
    api("step", {})
    api("encounter_roll", {"faces": [1, 1]})  # 1 = ウェイバー, 2 = 龍之介: ウェイバー
    html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert re.search(r'name="die" value="opponent">2\. 遭遇戦の相手を決めるダイスを振り直す</button>', html)
    assert "2. Re-roll your encounter opponent die" in phone.get(f"/s/{sid}/phone?lang=en").get_data(as_text=True)
    assert re.search(r'<select name="die" aria-label="凛: [^"]*">.*<option value="opponent">遭遇戦の相手を決めるダイス</option>',
                     gm.get(f"/s/{sid}/gm").get_data(as_text=True))
    assert '<option value="opponent">Encounter opponent die</option>' in gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    phone.get(f"/s/{sid}/phone?lang=ja")
    r = phone.post(f"/s/{sid}/phone/actions/use_seal", data={"effect": "2", "die": "opponent", "faces": "4 2"},
                   headers={"X-CSRF-Token": csrf_for(data["seats"][0]["token"]), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    v = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm_token)).get_json()["ruleset"]
    assert (v["combat"]["attacker"], v["combat"]["interceptor"]) == ("s1", "s3") and v["players"][0]["seals"] == 2
    assert any("遭遇戦の相手を決めるダイス 1→4→2" in line["plain"]["ja"] for line in v["newest_action"]), v["newest_action"]

def test_a3_a5_the_console_re_rolls_a_players_first_master_die_with_seal_two(app, client):
    """The GM runs the table for players without phones: the console's setup offers quick seal 2's re-roll of each
    player's first-active-master die while the game allows it (players[].rerolls, A-3 x A-5), named in both
    languages, with real dice; the standard version and the started game offer none."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "クイック", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]}).get_json()
    sid, gm_token = data["session"], data["gm_token"]
    gm = open_link(app, data["gm_url"])

    def api(name, body):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm_token), json=body)
        assert r.status_code == 200, r.get_json()

    api("setup", {"version": "quick"})
    assert 'id="ar-gm-reroll-first"' not in gm.get(f"/s/{sid}/gm").get_data(as_text=True)  # nothing rolled yet
    api("roll_first", {"faces": [6, 2]})
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    form = re.search(r'<form class="row" id="ar-gm-reroll-first".*?</form>', html, re.S).group(0)
    assert "凛: 令呪2で最初のアクティブマスター決定のダイスを振り直す" in form
    assert "ウェイバー: 令呪2で最初のアクティブマスター決定のダイスを振り直す" in form
    english = gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    assert "ウェイバー: re-roll their first-active-master die (Command Seal 2)" in english
    gm.get(f"/s/{sid}/gm?lang=ja")
    r = gm.post(f"/s/{sid}/gm/actions/use_seal", data={"effect": "2", "die": "first", "faces": "6 3 5", "seat": "s2"},
                headers={"X-CSRF-Token": csrf_for(gm_token), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm_token)).get_json()["ruleset"]
    assert view["first"] == "s2" and view["first_rolls"] == {"s1": [6, 3], "s2": [6, 5]}
    assert view["players"][1]["seals"] == 2
    for seat in ("s1", "s2"):
        api("set_servant", {"seat": seat, "hero": {"name": "英霊", "stats": "5/5/5/5"}, "class": {"name": "クラス", "stats": "1/1/1/1"}})
    api("start_game", {})
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert 'id="ar-gm-reroll-first"' not in html
    # in play the seal form's die select is named for what it picks, per player (it read "Re-roll your combat die",
    # its options the combat and the encounter die), as its coin select is
    assert 'aria-label="ウェイバー: 令呪2で振り直すダイス"' in html and 'aria-label="ウェイバー: コイン"' in html
    english = gm.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    assert 'aria-label="ウェイバー: Die to re-roll (Command Seal 2)"' in english
