"""Sugoroku's cards and terrain in the viewer's language: cards are stored and committed as 力7 / スキル魔3 /
宝具8 (a phone on an English keyboard types p7, skill m3), and every English screen words them "Power 7",
"Skill Magic 3"; the fighters' roles read "(parent)" / "(child)". Typed here in ASCII, so that no Japanese
on the English screens is a word the users typed (tests/meta/test_languages.py takes typed words out)."""

from __future__ import annotations

import re

import pytest
from gmtool_testing import ADMIN_KEY, RULE_CODE_TEXT, bearer, open_link, shown_by_default, texts_of

from gmtool.core.ruleset import has_japanese

# What a card, the terrain or a fighter's role leaves on a page when it is shown as stored.
CARD_JAPANESE = re.compile(r"[力魔技]|スキル|宝具|（親）|（子）|、")


def visible(html: str) -> str:
    """The page without its scripts, styles and <code> (the verify page's canonical JSON is hashed data)."""
    return re.sub(r"<(script|style|code)\b.*?</\1>", " ", html, flags=re.S)


@pytest.fixture
def battle(app, client):
    """Two fighters on square 3 (terrain Power +1, Magic −1) with their cards revealed and one card added."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "Cards", "ruleset": "sugoroku", "seats": ["Alice", "Bob"]})
    data = r.get_json()
    sid, tokens = data["session"], {"gm": data["gm_token"], **{s["id"]: s["token"] for s in data["seats"]}}

    def act(name, payload=None, who="gm"):
        response = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(tokens[who]), json=payload or {})
        assert response.status_code == 200, (name, response.get_json())
        return response.get_json()

    def answer(prompt, who, value):
        response = client.post(f"/api/sessions/{sid}/prompts/{prompt}/answer", headers=bearer(tokens[who]),
                               json={"value": value})
        assert response.status_code == 200, response.get_json()

    def state():
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens["gm"])).get_json()

    act("setup", {"board_length": 8, "order": ["s1", "s2"], "players": {
        "s1": {"servant": "Saber", "true_name": "Arthur", "mana": 4},
        "s2": {"servant": "Archer", "true_name": "Emiya", "mana": 5}}})
    act("set_square", {"square": 3, "terrain": "p+1 m-1", "vp": 2})
    act("roll_move", {"faces": [3]}, who="s1")
    act("roll_move", {"faces": [3]}, who="s2")
    act("end_phase")
    act("start_battle")
    b = state()["ruleset"]["battle"]
    for seat in b["fighters"]:
        answer(b["prompt"], seat, "p7" if seat == b["parent"] else ["skill m3", "t2", "m2"])
    act("battle_card", {"card": "p4"}, who=b["parent"])
    screens = {"gm": open_link(app, data["gm_url"]), "table": open_link(app, data["table_url"]),
               **{s["id"]: open_link(app, s["join_url"]) for s in data["seats"]}}

    def pages(lang):
        out = {}
        for who, browser in screens.items():
            path = {"gm": f"/s/{sid}/gm", "table": f"/s/{sid}/table"}.get(who, f"/s/{sid}/phone")
            for p in (path, f"/s/{sid}/verify", f"/s/{sid}/gm/export?format=markdown" if who == "gm" else path):
                response = browser.get(f"{p}{'&' if '?' in p else '?'}lang={lang}")
                assert response.status_code == 200, (who, p)
                out[f"{who} {p}"] = response.get_data(as_text=True)
        return out

    def log(lang):
        response = client.get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(tokens["gm"]))
        assert response.status_code == 200
        return response.get_json()["events"]

    def export(lang):
        response = client.get(f"/api/sessions/{sid}/export?format=text&lang={lang}", headers=bearer(tokens["gm"]))
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def counter(body):
        response = client.post(f"/api/sessions/{sid}/counters", headers=bearer(tokens["gm"]), json=body)
        assert response.status_code == 200, response.get_json()

    return {"act": act, "state": state, "pages": pages, "log": log, "export": export, "counter": counter}


def _leaks(pages: dict[str, str]) -> list[str]:
    return [f"{page}: {m.string[max(0, m.start() - 40):m.end() + 40]!r}"
            for page, html in pages.items() for m in CARD_JAPANESE.finditer(visible(html))]


def test_cards_terrain_and_roles_read_in_english_and_are_stored_as_typed_cards(battle):
    stored = battle["state"]()["ruleset"]["battle"]
    assert stored["added"][0]["card"] == "力4" and stored["terrain"] == {"力": 1, "魔": -1}  # the API is unchanged
    for stage in ("revealed", "ended"):
        en = battle["pages"]("en")
        assert not _leaks(en), (stage, _leaks(en)[:10])
        table = en["table /s/" + next(k.split("/s/")[1] for k in en if k.startswith("table "))]
        assert "Power 7" in table and "Skill Magic 3" in table and "Power +1, Magic −1" in table
        ja = "".join(battle["pages"]("ja").values())
        assert "力7" in ja and "スキル魔3" in ja and "Power 7" not in ja
        if stage == "revealed":
            battle["act"]("end_battle")



def test_s2_a_round_end_reads_in_english_with_its_standings(battle):
    """The round end's log line (S-2, S-9) in English: places as "1." with English punctuation, not 1位 / 、 / （）."""
    battle["act"]("end_battle")
    battle["act"]("end_round", {"force": True, "vote": False})
    line = {lang: next(e["text"] for e in battle["log"](lang) if e["type"] == "sugoroku.round_ended")
            for lang in ("en", "ja")}
    assert not has_japanese(line["en"]) and "（" not in line["en"] and "、" not in line["en"], line["en"]
    assert line["en"].startswith("Round 1 over (ended by the GM). VP: 1. ") and ", 2. " in line["en"], line["en"]
    assert line["ja"].startswith("ラウンド1終了（GMが終了）。戦果：1位 ") and "、2位 " in line["ja"], line["ja"]


HYPHEN_NEGATIVE = re.compile(r"(?<![\w\-/.])-\d+")  # -1 written with a hyphen-minus (not s1-2, 2026-11, a range)


# core's counter line, a counter's value (alone, or a cell of the write-up's final table) and its − button's name, as
# docs/api.md and the console write them: ASCII numbers (3→2 (-1), -3, 「Alice 魔力 -1」)
CORE_COUNTER = re.compile(r"-?\d+→-?\d+ \([+-]\d+\)|(?:^|(?<=\s))-?\d+(?=\s|$)")


def test_a_negative_number_reads_with_the_minus_sign_on_every_screen_log_line_and_export(battle):
    """Terrain 魔−1, the card it weakens (魔2−1) and a skill's mana cost (魔力−1) read with the minus sign (U+2212) as
    grail's breakdowns write them, in both languages; they read 魔-1 (a hyphen). Core's counter line and values keep
    the documented ASCII form (0→-3 (-3), -3), which API clients read."""
    battle["act"]("use_skill", {"seat": "s2", "kind": "skill", "cost": 1})
    battle["act"]("end_battle")
    battle["counter"]({"seat": "s2", "key": "vp", "value": -3, "reason": "罰"})  # core's counter line and values
    for lang in ("ja", "en"):
        texts = [text for html in battle["pages"](lang).values() for _, text in texts_of(visible(html))]
        texts += [e["text"] for e in battle["log"](lang)] + battle["export"](lang).splitlines()
        hyphens = [t for t in texts if HYPHEN_NEGATIVE.search(CORE_COUNTER.sub("", t.strip()))]
        assert not hyphens, (lang, hyphens[:10])
        joined = "\n".join(texts)
        assert ("魔−1" if lang == "ja" else "Magic −1") in joined and ("魔2−1" if lang == "ja" else "Magic 2−1") in joined
        assert ("魔力−1" if lang == "ja" else "mana −1") in joined
        assert ("戦果 0→-3 (-3)" if lang == "ja" else "VP 0→-3 (-3)") in joined and "-3" in texts


def test_the_table_s_vp_tooltip_lists_its_terms_in_words_without_rule_codes(battle):
    """The standings' VP cell lists what the VP is made of in its tooltip (title): words and numbers the players and
    the TV read, as everything the table shows before 根拠; it listed each term's rule code ([S-8])."""
    battle["act"]("end_battle")
    for lang in ("ja", "en"):
        table = next(html for page, html in battle["pages"](lang).items() if page.startswith("table /s/")
                     and "/verify" not in page)
        title = re.search(r'class="sg-vp" title="([^"]+)"', table).group(1)
        assert ("マスの勝利時戦果" if lang == "ja" else "battle VP") in title, title
        assert not shown_by_default(table, RULE_CODE_TEXT), (lang, shown_by_default(table, RULE_CODE_TEXT))


def test_an_english_phone_s_card_example_is_words_and_words_are_read(battle):
    """The parent's card field says what to type in words: 'Power 5', not the code 'P5' (nor 'P power, M magic' in its
    name); a card and a terrain typed so (skill Magic 3, Power +2 Magic −1) are read as スキル魔3 and {力: 2, 魔: -1}
    (as p7 and 力7 still are)."""
    parent = battle["state"]()["ruleset"]["battle"]["parent"]
    phone = next(html for page, html in battle["pages"]("en").items() if page.startswith(f"{parent} /s/")
                 and "/verify" not in page)
    field = re.search(r'<input name="card"[^>]*>', phone).group(0)
    assert 'placeholder="Power 5"' in field and "P power" not in field, field
    battle["act"]("battle_card", {"card": "skill Magic 3", "cost": 1}, who=parent)  # its attack cards are all out
    assert battle["state"]()["ruleset"]["battle"]["added"][-1]["card"] == "スキル魔3"
    battle["act"]("set_square", {"square": 5, "terrain": "Power +2 Magic −1"})
    assert battle["state"]()["ruleset"]["board"][5]["terrain"] == {"力": 2, "魔": -1}


@pytest.mark.parametrize("word", ["ダイス", "roll"])
def test_s3_the_order_field_takes_the_word_its_hint_says_in_either_language(client, word):
    """The Japanese console's hint says 「ダイス」ならダイスで決める (it said 'roll', an English word on a Japanese
    screen, the only one the setup form showed); either word rolls the order (S-3). Its faces are recorded as real dice:
    `"entered": true` in the sugoroku.setup, its log line marked ［実ダイス］ / [real dice] (as succession's setup)."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "順", "ruleset": "sugoroku",
                                                                     "seats": ["Alice", "Bob"]})
    data = r.get_json()
    response = client.post(f"/api/sessions/{data['session']}/actions/setup", headers=bearer(data["gm_token"]),
                           json={"order": word, "faces": [2, 6]})
    assert response.status_code == 200, response.get_json()
    assert [o["seat"] for o in response.get_json()["ruleset"]["order"]] == ["s2", "s1"]
    # the setup's log line lists the rolls in the reader's language (English read 「（Bob 6、Alice 2）」)
    # and says they were real dice (sugoroku.md, Real dice: nothing told them from the server's)
    events = {lang: [e for e in client.get(f"/api/sessions/{data['session']}/log?lang={lang}",
                                           headers=bearer(data["gm_token"])).get_json()["events"]
                     if e["type"] == "sugoroku.setup"][0] for lang in ("ja", "en")}
    lines = {lang: event["text"] for lang, event in events.items()}
    assert "手番 Bob→Alice（Alice 2、Bob 6）［実ダイス］ [S-1/S-3]" in lines["ja"], lines
    assert "order Bob→Alice (Alice 2, Bob 6) [real dice] [S-1/S-3]" in lines["en"], lines
    assert events["ja"]["data"]["entered"] is True, events["ja"]["data"]


def test_s7_the_tv_board_names_a_square_s_terrain_in_words_a_reader_knows(battle):
    """A board square's terrain on the English TV read P+1 / M−1 (letters, a code: the TV has no tooltip); it reads
    POW+1 / MAG−1, abbreviated as grail's stats are (STR, MAG), 力+1 / 魔−1 in Japanese."""
    for lang, want in (("en", ["POW+1", "MAG−1"]), ("ja", ["力+1", "魔−1"])):
        table = next(html for page, html in battle["pages"](lang).items() if page.startswith("table /s/")
                     and "/verify" not in page)
        square = re.search(r'<li class="sg-square[^"]*" data-square="3">.*?</li>', table, re.S).group(0)
        assert re.findall(r'<span class="sg-terrain"[^>]*>([^<]*)</span>', square) == want, (lang, square)


def test_english_terms_are_capitalised_as_the_games_other_terms(battle):
    """Play-through: English lines read "Battle · square 3 · terrain Power +1 · battle VP 2" and "Parent: Alice ·
    children: Bob · submitted 2/2", lowercase terms among the capitalised Battle, Parent, Mana, Karma and VP. Each term
    is written as the game's others are, on the console, the table and the phones."""
    def text(html):
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))

    pages = {page.split()[0]: text(html) for page, html in battle["pages"]("en").items()
             if "/verify" not in page and "export" not in page}
    assert "Battle · Square 3 · Terrain Power +1, Magic −1 · Battle VP 2" in pages["gm"]
    assert "Parent: Alice · Children: Bob · Submitted 2/2" in pages["gm"]
    assert "Battle · Square 3 · Terrain Power +1, Magic −1" in pages["table"] and "· Submitted 2/2" in pages["table"]
    for seat in ("s1", "s2"):
        assert "Action phase 1/8 · Square 3 /8" in pages[seat], seat  # phase 1's battle (S-7)


def test_s7_a_pending_battle_names_its_fighters_in_the_consoles_language(app, client):
    """The console's pending battle line joined the fighters with 「・」 in English too ("Alice・Bob")."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "Pending", "ruleset": "sugoroku",
                                                                         "seats": ["Alice", "Bob"]}).get_json()
    sid, gm = data["session"], data["gm_token"]
    for name, payload, who in (("setup", {"order": ["s1", "s2"]}, gm), ("roll_move", {"faces": [3]}, data["seats"][0]["token"]),
                               ("roll_move", {"faces": [3]}, data["seats"][1]["token"]), ("end_phase", {}, gm)):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(who), json=payload)
        assert r.status_code == 200, r.get_json()
    console = open_link(app, data["gm_url"])
    pending = {lang: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(
        r'<div class="row sg-pending.*?</span>', console.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True),
        re.S).group(0))) for lang in ("ja", "en")}
    assert "Alice・Bob" in pending["ja"] and "Alice, Bob" in pending["en"], pending
