"""grail_trpg through the JSON API and the screens (Flask test client): a whole combat, as a script would run it."""

from __future__ import annotations

from html import unescape
import re
import sqlite3

import pytest
from gmtool_testing import (ADMIN_KEY, ROOT, RULE_CODE_TEXT, assert_answers_sealed_on_table, assert_undo_as_documented, bearer, csrf_for,
                            open_link, path_of, ruleset_views, shown_by_default, undocumented)

from gmtool.web import create_app

SABER = "アルトリア(セイバー)/アルトリア・ペンドラゴン 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60\n" \
        "士郎 筋力20 耐久30 敏捷20 魔力10 幸運30 宝具10\n大河 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10"
ARCHER = [{"name": "エミヤ", "class_name": "アーチャー", "true_name": "エミヤ",
           "stats": {"筋力": 30, "耐久": 40, "敏捷": 40, "魔力": 50, "幸運": 30, "宝具": 50}},
          {"name": "凛", "stats": {"筋力": 20, "耐久": 20, "敏捷": 30, "魔力": 55, "幸運": 40, "宝具": 20}}]


@pytest.fixture
def grail(client):
    return new_grail(client)


def new_grail(client):
    """A grail_trpg session with two factions: the answer of POST /api/sessions plus `tok` {gm, s1, s2}."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "聖杯戦争", "ruleset": "grail_trpg",
                                                                      "seats": ["セイバー陣営", "アーチャー陣営"]})
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    data["tok"] = {"gm": data["gm_token"], **{s["id"]: s["token"] for s in data["seats"]}}
    return data


def call(client, grail, name, body=None, who="gm", status=200):
    r = client.post(f"/api/sessions/{grail['session']}/actions/{name}", headers=bearer(grail["tok"][who]),
                    json=body or {})
    assert r.status_code == status, r.get_json()
    if status == 200:
        assert_undo_as_documented(client, grail["session"], name, r.get_json())
    return r.get_json()


def answer(client, grail, prompt, value, who):
    r = client.post(f"/api/sessions/{grail['session']}/prompts/{prompt}/answer", headers=bearer(grail["tok"][who]),
                    json={"value": value})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def confirm(client, grail, prompt):
    r = client.post(f"/api/sessions/{grail['session']}/prompts/{prompt}/confirm", headers=bearer(grail["tok"]["gm"]))
    assert r.status_code == 200, r.get_json()


def started(client, grail, a_sub="s1/士郎", b_sub="s2/凛", sheet=SABER):
    """Both factions' characters set (セイバー陣営's from `sheet`) and c1 started (セイバー陣営 vs アーチャー陣営); the
    two setups to answer."""
    call(client, grail, "set_characters", {"faction": "s1", "text": sheet})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    return {"main": "s1/アルトリア", "sub": a_sub}, {"main": "s2/エミヤ", "sub": b_sub}


def set_up(client, grail, a, b):
    """c1's setup answered (`a` for セイバー陣営, `b` for アーチャー陣営) and confirmed."""
    answer(client, grail, "c1-setup", a, "s1")
    answer(client, grail, "c1-setup", b, "s2")
    confirm(client, grail, "c1-setup")


def to_final(client, grail):
    """c1 played through its setup and three selects to the final result; its win rates."""
    set_up(client, grail, *started(client, grail))
    return three_selects(client, grail)


def three_selects(client, grail):
    """c1's three selects played (s1 picks 筋力 魔力 幸運, s2 耐久 敏捷 宝具) to the final result; its win rates."""
    for n, (sa, sb) in enumerate([("筋力", "耐久"), ("魔力", "敏捷"), ("幸運", "宝具")], 1):
        call(client, grail, "next_step")
        answer(client, grail, f"c1-s{n}", {"stat": sa}, "s1")
        answer(client, grail, f"c1-s{n}", {"stat": sb}, "s2")
        confirm(client, grail, f"c1-s{n}")
    return call(client, grail, "next_step")["ruleset"]["combat"]["final"]


def test_a_seat_is_a_faction_whose_faction_field_holds_the_masters_name(client):
    """docs/api.md (the state's `seats`) and docs/rulesets/grail_trpg.md §1: a grail_trpg seat's `name` is its
    faction's (陣営名) and its `faction` the master's name (マスター名), as the new-session form's 「陣営名 / マスター名」
    gives them; the docs said only "Faction"."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "聖杯戦争", "ruleset": "grail_trpg",
        "seats": ["セイバー陣営 / 衛宮", {"name": "アーチャー陣営", "faction": "遠坂"}, "ランサー陣営"]})
    made = r.get_json()
    expected = [("セイバー陣営", "衛宮"), ("アーチャー陣営", "遠坂"), ("ランサー陣営", "")]
    assert [(s["name"], s["faction"]) for s in made["seats"]] == expected
    state = client.get(f"/api/sessions/{made['session']}/state", headers=bearer(made["gm_token"])).get_json()
    assert [(s["name"], s["faction"]) for s in state["seats"]] == expected
    said = '`"name": "セイバー陣営", "faction": "衛宮"`'
    for doc in ("api.md", "rulesets/grail_trpg.md"):
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        assert "master's name" in text and ("セイバー陣営 / 衛宮" in text) and \
            ("{" + said.strip("`") + "}" in text or said in text), doc


def test_a_whole_combat_through_the_api(client, grail):
    sid = grail["session"]
    out = call(client, grail, "set_characters", {"faction": "s1", "text": SABER})
    assert out["action"] == "set_characters" and out["events"][0]["type"] == "grail.characters_set"
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, grail, "set_seen", {"faction": "s1", "seen": ["s2/エミヤ"]})
    started = call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    assert [e["type"] for e in started["events"]] == ["scene.marked", "grail.combat_started", "prompt.opened"]
    assert started["ruleset"]["combat"]["prompt"] == "c1-setup"
    # The first answer stays secret: the other phone and the table see no setup yet.
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア", "sub": "s1/士郎"}, "s1")
    other = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["s2"])).get_json()
    assert "士郎" not in str(other["prompts"]) and other["ruleset"]["combat"]["setup"] is None
    # A seat may answer through the ruleset action too (what the phone form posts).
    call(client, grail, "answer", {"prompt": "c1-setup", "value": {"main": "s2/エミヤ", "sub": "s2/凛"}}, who="s2")
    confirm(client, grail, "c1-setup")
    plan = [({"stat": "筋力", "mods": [{"label": "怪力", "value": 10, "kind": "skill"}]}, {"stat": "耐久"}),
            ({"stat": "魔力"}, {"stat": "敏捷"}),
            ({"stat": "幸運"}, {"stat": "宝具", "seal": {"effect": 2}})]
    for n, (a, b) in enumerate(plan, 1):
        call(client, grail, "next_step")
        answer(client, grail, f"c1-s{n}", a, "s1")
        answer(client, grail, f"c1-s{n}", b, "s2")
        confirm(client, grail, f"c1-s{n}")
    view = call(client, grail, "next_step")["ruleset"]["combat"]
    assert [[s["result"][x]["value"] for x in "ab"] for s in view["selects"]] == [[60, 25], [60, 45], [33, 90]]
    assert view["final"]["a"]["total"] == 42 and view["final"]["b"]["total"] == -16
    call(client, grail, "use_seal", {"faction": "s2", "effect": 3})
    battle = call(client, grail, "next_step")["ruleset"]["combat"]["battle"]
    row = battle["rolls"][-1]
    assert row["a"]["rate"] == 42 and row["b"]["rate"] == 34
    assert row["a"]["total"] == row["a"]["die"] + 42 and row["b"]["total"] == row["b"]["die"] + 34
    # `index` is the seed's die number (docs §6b): a, b of each round, one after another, the last before dice_next
    rolled = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["tok"]["gm"])).get_json()["events"][-1]
    assert rolled["type"] == "grail.battle_rolled"
    indices = [r[x]["index"] for r in battle["rolls"] for x in "ab"]
    assert indices == list(range(rolled["data"]["dice_next"] - len(indices), rolled["data"]["dice_next"]))
    loser = "a" if battle["winner"] == "b" else "b"
    done = call(client, grail, "next_step")["ruleset"]["combat"]
    assert done["done"] and done["result"]["black_stars"] == {("s1" if loser == "a" else "s2"): 1}
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["tok"]["gm"])).get_json()["events"]
    text = "\n".join(e["text"] for e in log)
    for line in ("■ 戦闘: セイバー陣営 vs アーチャー陣営", "セットアップ [T-4]", "3rdリザルト", "勝敗判定 [T-10]", "クリンナップ [T-11]"):
        assert line in text
    # a term whose label ends with its amount reads it once (it read 「令呪2: 宝具+30 +30」, 「敏捷が−10 −10」)
    assert "（戦力（敏捷） 55、相性: 魔力により敏捷が−10 [T-7]）" in text and "（戦力（宝具） 60、令呪2: 宝具+30 [T-13]）" in text
    # and the win rate's first term says its amount once, after an arrow as the force difference does (it read 「× 20 20」)
    assert "勝率 (優位2 − 劣位1) × 20 → 20 [T-9] 戦力の差" in text and "勝率 (優位1 − 劣位2) × 20 → −20 [T-9]" in text
    page = open_link(client.application, grail["table_url"]).get(f"/s/{sid}/table?lang=ja").get_data(as_text=True)
    assert "相性: 魔力により敏捷が<b>−10</b>" in page and "令呪2: 宝具<b>+30</b>" in page  # and on the screens, in bold
    # Exports carry a heading per combat and the readable lines.
    md = client.get(f"/api/sessions/{sid}/export?format=markdown", headers=bearer(grail["tok"]["gm"])).get_data(as_text=True)
    assert "戦闘: セイバー陣営 vs アーチャー陣営" in md and "ファイナルリザルト" in md and "勝率" in md


@pytest.mark.parametrize("name, body, status, message", [
    ("start_combat", {"a": ["s1"], "b": ["s1"]}, 400, "キャラクターがいません"),
    ("start_combat", {"a": [], "b": ["s2"]}, 400, "陣営を選んで"),
    ("next_step", {}, 409, "進行中の戦闘がありません"),
    ("set_characters", {"faction": "s1", "text": "セイバー 筋力40"}, 400, "がありません"),
    ("set_characters", {"faction": "s9", "text": "x"}, 404, "ありません"),
    ("use_seal", {"faction": "s1", "effect": 9}, 400, "効果"),
    ("nope", {}, 404, "ありません"),
])
def test_bad_input_is_a_clear_4xx(client, grail, name, body, status, message):
    r = client.post(f"/api/sessions/{grail['session']}/actions/{name}", headers=bearer(grail["tok"]["gm"]), json=body)
    assert r.status_code == status and message in r.get_json()["error"]["ja"]


@pytest.mark.parametrize("text, message", [
    ("x" * 8001, "A text is too long (at most 8000 characters)"),
    ("y" * 201, "Line 1: a line is at most 200 characters"),
    ("\n".join(f"c{i} 筋力40 耐久40 敏捷40 魔力40 幸運40 宝具40" for i in range(21)), "At most 20 characters per faction"),
])
def test_set_characters_limits_answer_as_the_limits_table_says(client, grail, text, message):
    """docs/api.md, Limits › Rulesets: a sheet over its limits is refused with the message the table gives (8,000
    characters is every text's limit: the API answers it before the game reads the sheet; the table named the game's
    own message, which no request reaches) and writes nothing."""
    error = call(client, grail, "set_characters", {"faction": "s1", "text": text}, status=400)["error"]
    assert error["en"] == message
    state = client.get(f"/api/sessions/{grail['session']}/state", headers=bearer(grail["tok"]["gm"])).get_json()
    assert state["session"]["version"] == 1

@pytest.mark.parametrize("name, body", [
    ("add_modifier", {"side": "a", "label": "軍略", "value": 101}),
    ("add_modifier", {"side": "b", "label": "軍略", "value": "-101"}),
    ("escape", {"faction": "s1", "escaper_mod": 101}),
    ("escape", {"faction": "s1", "pursuer_mod": -101}),
    ("use_skill", {"side": "a", "label": "軍略", "value": 101, "kind": "skill", "stat": "筋力"}),
])
def test_t9_t12_a_modifier_over_100_is_refused_in_words_and_writes_nothing(client, grail, name, body):
    """docs/api.md, Limits › Rulesets: grail_trpg modifiers are at most ±100 (`A modifier is at most ±100 (…)`); a
    win-rate modifier (`add_modifier`) and an escape's modifiers took any number. A GM modifier of 0 (add_modifier,
    and use_skill's, which took it on a revealed setup) is refused: it would change nothing."""
    a, b = started(client, grail)
    if name == "use_skill":  # the setup revealed: a GM modifier recomputes it (a 0 one was taken, as +0 筋力)
        answer(client, grail, "c1-setup", a, "s1")
        answer(client, grail, "c1-setup", b, "s2")
    before = client.get(f"/api/sessions/{grail['session']}/state", headers=bearer(grail["tok"]["gm"])).get_json()
    error = call(client, grail, name, body, status=400)["error"]
    assert error["en"].startswith("A modifier is at most ±100 (") and error["ja"].startswith("修正値は±100までです（")
    if name in ("add_modifier", "use_skill"):  # a +0 term changes nothing: refused, as illuminati's and ace_royal's are
        error = call(client, grail, name, {**body, "value": 0}, status=400)["error"]
        assert (error["ja"], error["en"]) == ("修正値が0です", "The modifier is 0")
    after = client.get(f"/api/sessions/{grail['session']}/state", headers=bearer(grail["tok"]["gm"])).get_json()
    assert after["session"]["version"] == before["session"]["version"]


@pytest.mark.parametrize("body, status, message", [
    ({"key": "force_diff", "value": "x"}, 400, "選べません"),
    ({"key": "nope", "value": "x"}, 404, "ありません"),
])
def test_a_bad_reading_is_a_clear_4xx(client, grail, body, status, message):
    r = client.post(f"/api/sessions/{grail['session']}/readings", headers=bearer(grail["tok"]["gm"]), json=body)
    assert r.status_code == status and message in r.get_json()["error"]["ja"]
    r = client.post(f"/api/sessions/{grail['session']}/readings", headers=bearer(grail["tok"]["s1"]),
                    json={"key": "sub_part", "value": "half_ceil"})
    assert r.status_code == 403


def test_a_seat_cannot_run_gm_steps_and_undo_takes_a_step_back(client, grail):
    sid = grail["session"]
    call(client, grail, "set_characters", {"faction": "s1", "text": SABER}, who="s1", status=403)
    r = client.post(f"/api/sessions/{sid}/readings", headers=bearer(grail["tok"]["gm"]),
                    json={"key": "sub_part", "value": "half_ceil"})
    assert r.status_code == 200 and next(x for x in r.get_json()["readings"] if x["key"] == "sub_part")["value"] == "half_ceil"
    r = client.post(f"/api/sessions/{sid}/undo", headers=bearer(grail["tok"]["gm"]))
    assert r.status_code == 200
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()
    assert next(x for x in state["readings"] if x["key"] == "sub_part")["value"] == "tens_halved"


def test_screens_render_the_combat_and_the_phone_form_answers(app, client, grail):
    sid = grail["session"]
    call(client, grail, "set_characters", {"faction": "s1", "text": SABER.replace(
        "宝具60\n", "宝具60\n- スキル 怪力 セレクト 筋力+10\n- スキル 魔力放出 セットアップ 魔力+10\n", 1)})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    gm, table = open_link(app, grail["gm_url"]), open_link(app, grail["table_url"])
    phones = {s["id"]: open_link(app, s["join_url"]) for s in grail["seats"]}
    html = phones["s1"].get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'name="main"' in html and "アルトリア・ペンドラゴン" in html
    assert "アルトリア・ペンドラゴン" not in phones["s2"].get(f"/s/{sid}/phone").get_data(as_text=True)
    from gmtool.web.common import csrf_for
    for seat, main in (("s1", "s1/アルトリア"), ("s2", "s2/エミヤ")):
        r = phones[seat].post(f"/s/{sid}/phone/actions/answer", data={"prompt": "c1-setup", "main": main, "sub": ""},
                              headers={"X-CSRF-Token": csrf_for(grail["tok"][seat]), "HX-Request": "true"})
        assert r.status_code == 200, r.get_data(as_text=True)
    r = gm.post(f"/s/{sid}/gm/prompts/c1-setup/confirm", headers={"X-CSRF-Token": csrf_for(grail["tok"]["gm"]),
                                                                 "HX-Request": "true"})
    assert r.status_code == 200
    r = gm.post(f"/s/{sid}/gm/actions/next_step", headers={"X-CSRF-Token": csrf_for(grail["tok"]["gm"]), "HX-Request": "true"})
    assert r.status_code == 200
    html = phones["s1"].get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'data-stat="宝具"' in html and 'name="free_label"' in html
    # The sheet's skills are one-tap chips with their effect; the setup one is greyed out with its reason.
    assert 'data-skill="怪力"' in html and "セレクト・筋力+10" in html and "タイミングが違います（セットアップ）" in html
    assert "怪力" not in phones["s2"].get(f"/s/{sid}/phone").get_data(as_text=True)
    r = phones["s1"].post(f"/s/{sid}/phone/actions/answer",
                          data={"prompt": "c1-s1", "stat": "筋力", "skills": "s1/アルトリア:1", "free_label": "直感",
                                "free_value": "5"},
                          headers={"X-CSRF-Token": csrf_for(grail["tok"]["s1"]), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)
    mine = phones["s1"].get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["s1"])).get_json()
    s1 = next(p for p in mine["prompts"] if p["id"] == "c1-s1")
    assert [u["name"] for u in s1["your_answer"]["value"]["uses"]] == ["怪力", "直感"]
    assert 'data-force="a-筋力"' in gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    page = table.get(f"/s/{sid}/table").get_data(as_text=True)
    assert 'data-force="a-筋力"' in page and "怪力" not in page  # the answer is still secret from the table


def test_the_battle_roll_takes_real_dice(client, grail):
    """T-10 with physical dice: the GM types the two 1d100 faces; out-of-range faces are refused."""
    rates = to_final(client, grail)
    call(client, grail, "next_step", {"faces": [101, 5]}, status=400)
    call(client, grail, "next_step", {"faces": [50]}, status=400)
    battle = call(client, grail, "next_step", {"faces": [90, 10]})["ruleset"]["combat"]["battle"]
    row = battle["rolls"][-1]
    assert row["a"]["die"] == 90 and row["b"]["die"] == 10
    assert row["a"]["total"] == 90 + rates["a"]["total"] and row["b"]["total"] == 10 + rates["b"]["total"]
    log = client.get(f"/api/sessions/{grail['session']}/log?limit=1000", headers=bearer(grail["tok"]["gm"])).get_json()
    line = next(e for e in log["events"] if e["type"] == "grail.battle_rolled")
    assert line["data"]["entered"] is True and line["text"].startswith("［実ダイス］勝敗判定")


def test_an_undo_that_later_actions_build_on_is_a_clear_409_and_the_next_undo_goes_on(client, grail, caplog):
    """…and the refusal is one line in the server's log (review: each refused undo wrote a whole KeyError traceback,
    as if the server had crashed)."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    call(client, grail, "set_characters", {"faction": "s1", "text": SABER})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア", "sub": "s1/士郎"}, "s1")  # answers are not undone
    before = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()
    caplog.set_level("WARNING", logger="gmtool")
    r = client.post(f"/api/sessions/{sid}/undo", headers=gm)  # the combat start: its setup prompt has an answer
    assert r.status_code == 409, r.get_json()
    refusals = [rec for rec in caplog.records if "refused" in rec.getMessage()]
    assert len(refusals) == 1 and not refusals[0].exc_info and "\n" not in caplog.text.strip(), caplog.text
    error = r.get_json()["error"]
    assert "取り消せません" in error["ja"] and "cannot be undone" in error["en"] and "undo again" in error["en"]
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json() == before  # nothing changed
    # The GM is not stuck: the next undo takes the action before it (the archers' characters).
    r = client.post(f"/api/sessions/{sid}/undo", headers=gm)
    assert r.status_code == 200, r.get_json()
    state = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()
    assert state["ruleset"]["combat"]["prompt"] == "c1-setup"  # the combat stands
    assert "エミヤ" in str(before["ruleset"]["factions"]) and "エミヤ" not in str(state["ruleset"]["factions"])


def test_a_barred_stat_is_refused_in_words_in_both_languages(client, grail):
    """docs/rulesets/grail_trpg.md §3: the stat of the previous select is refused with its reason (T-5) — the
    reason itself in each language, never the text of a Python dict."""
    sid = grail["session"]
    set_up(client, grail, *started(client, grail))
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "筋力"}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")
    confirm(client, grail, "c1-s1")
    call(client, grail, "next_step")
    r = client.post(f"/api/sessions/{sid}/prompts/c1-s2/answer", headers=bearer(grail["tok"]["s1"]),
                    json={"value": {"stat": "筋力"}})
    assert r.status_code == 400
    error = r.get_json()["error"]
    assert error["ja"] == "筋力は選べません: 筋力は直前のセレクトで選んだため選べません [T-5]"
    assert error["en"] == "STR cannot be chosen: STR was chosen in the previous select [T-5]"
    assert error["message"] == f"{error['ja']} / {error['en']}"


def _first_terms(forces, side, stat="筋力"):
    return [t["label"]["ja"] for t in forces[side][stat]["terms"]]


def test_a_force_never_gives_away_the_stats_of_characters_a_viewer_has_not_seen_through(app, client, grail):
    """T-4/T-9: 戦力 is public, its main's and sub's own stats are not: a viewer who may not see both sees
    their two terms as one (the sum), in the pending setup, the combat, the log and every page."""
    sid = grail["session"]
    call(client, grail, "set_characters", {"faction": "s1", "text": SABER})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, grail, "set_seen", {"faction": "s1", "seen": ["s2/エミヤ"]})
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア", "sub": "s1/士郎"}, "s1")
    answer(client, grail, "c1-setup", {"main": "s2/エミヤ", "sub": "s2/凛"}, "s2")

    def state(who):
        token = grail["table_token"] if who == "table" else grail["tok"][who]
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(token)).get_json()

    def pending_forces(who):
        events = dict(state(who)["ruleset"]["combat"]["pending"]["events"])
        return events["grail.setup_done"]["forces"]

    split_a = ["メイン アルトリアの筋力", "サブ 士郎の筋力 20→10"]
    merged_a = ["メイン アルトリア＋サブ 士郎の筋力"]
    merged_b = ["メイン エミヤ＋サブ 凛の筋力"]
    for forces in (pending_forces("gm"), state("gm")["ruleset"]["combat"]["pending"]["events"][0][1]["forces"]):
        assert _first_terms(forces, "a") == split_a and _first_terms(forces, "b")[0] == "メイン エミヤの筋力"
    assert _first_terms(pending_forces("s2"), "a") == merged_a and _first_terms(pending_forces("s2"), "b")[0] == "メイン エミヤの筋力"
    # s1 saw through エミヤ but not 凛: one of the two is not enough.
    assert _first_terms(pending_forces("s1"), "b") == merged_b and _first_terms(pending_forces("s1"), "a") == split_a
    assert _first_terms(pending_forces("table"), "a") == merged_a
    cell = pending_forces("table")["a"]["筋力"]
    assert cell["value"] == 50 and [t["value"] for t in cell["terms"]] == [50]
    confirm(client, grail, "c1-setup")
    assert _first_terms(state("table")["ruleset"]["combat"]["forces"], "b") == merged_b
    assert _first_terms(state("s2")["ruleset"]["combat"]["forces"], "a") == merged_a
    assert _first_terms(state("gm")["ruleset"]["combat"]["forces"], "a") == split_a
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["tok"]["s2"])).get_json()
    done = next(e for e in log["events"] if e["type"] == "grail.setup_done")
    assert _first_terms(done["data"]["forces"], "a") == merged_a
    pages = {"table": (grail["table_url"], f"/s/{sid}/table"),
             "s2": (next(s["join_url"] for s in grail["seats"] if s["id"] == "s2"), f"/s/{sid}/phone")}
    for who, (url, page) in pages.items():
        html = open_link(app, url).get(page).get_data(as_text=True)
        assert "サブ 士郎の筋力 20" not in html and "メイン アルトリアの筋力" not in html and "メイン アルトリア＋サブ 士郎の筋力" in html, who
    # Seal 4 swaps the main with the sub: the force it writes is seen the same way (T-13).
    call(client, grail, "use_seal", {"faction": "s1", "effect": 4, "with": "士郎"})
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["tok"]["s2"])).get_json()
    swapped = next(e for e in log["events"] if e["type"] == "grail.seal_used")
    assert _first_terms(swapped["data"]["forces"], "a") == ["メイン 士郎＋サブ アルトリアの筋力"]
    assert _first_terms(state("s2")["ruleset"]["combat"]["forces"], "a") == ["メイン 士郎＋サブ アルトリアの筋力"]
    assert _first_terms(state("s1")["ruleset"]["combat"]["forces"], "a") == ["メイン 士郎の筋力", "サブ アルトリアの筋力 40→20"]
    # Once s1 has seen through 凛 too, it sees the archers' force term by term.
    call(client, grail, "set_seen", {"faction": "s1", "seen": ["s2/エミヤ", "s2/凛"]})
    assert _first_terms(state("s1")["ruleset"]["combat"]["forces"], "b") == ["メイン エミヤの筋力", "サブ 凛の筋力 20→10"]


@pytest.mark.parametrize("value, ja, en", [
    ({"main": 5}, "メインはキャラクターID", "Give the main as character ids"),
    ({"main": {"id": "s1/アルトリア"}}, "メインはキャラクターID", "Give the main as character ids"),
    ({"main": "s1/アルトリア", "sub": [7]}, "サブはキャラクターID", "Give the sub as character ids"),
    ({"main": "s1/アルトリア", "others": 3}, "その他はキャラクターID", "Give the others as character ids"),
    ({"main": "s1/アルトリア", "seal": 2}, "効果1（全ステータス+10）だけ", "Only seal effect 1"),
    ({"main": "s1/アルトリア", "seal": {"effect": 7}}, "効果1（全ステータス+10）だけ", "Only seal effect 1"),
    ({"main": "s1/アルトリア", "seal": "abc"}, "効果1（全ステータス+10）だけ", "Only seal effect 1"),
])
def test_t4_t13_a_setup_answer_that_names_its_cast_or_seal_wrongly_is_a_clear_400_and_writes_nothing(
        client, grail, value, ja, en):
    """T-4: main / sub / others are character ids; T-13: the one seal of the setup is effect 1. Anything else is
    refused in both languages (never a 500, never a seal silently dropped) and the faction still has to answer."""
    started(client, grail)
    sid = grail["session"]
    log = f"/api/sessions/{sid}/log?limit=1000"
    before = client.get(log, headers=bearer(grail["tok"]["gm"])).get_json()["events"]
    r = client.post(f"/api/sessions/{sid}/prompts/c1-setup/answer", headers=bearer(grail["tok"]["s1"]),
                    json={"value": value})
    assert r.status_code == 400, r.get_json()
    error = r.get_json()["error"]
    assert ja in error["ja"] and en in error["en"]
    assert client.get(log, headers=bearer(grail["tok"]["gm"])).get_json()["events"] == before
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()
    assert state["ruleset"]["combat"]["waiting"] == ["セイバー陣営", "アーチャー陣営"]


def test_t13_seal_1_is_declared_with_the_setup_in_every_form_it_is_sent(client, grail):
    """T-13 effect 1 with the setup answer: 1, "1", true and {"effect": 1} all declare it; null / false do not."""
    started(client, grail)
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア", "seal": {"effect": 1}}, "s1")
    answer(client, grail, "c1-setup", {"main": "s2/エミヤ", "seal": False}, "s2")
    confirm(client, grail, "c1-setup")
    combat = client.get(f"/api/sessions/{grail['session']}/state", headers=bearer(grail["tok"]["gm"])).get_json()
    setup = combat["ruleset"]["combat"]["setup"]
    assert setup["a"]["seal"] == 1 and setup["b"]["seal"] is None
    assert combat["ruleset"]["factions"][0]["seals"] == 2 and combat["ruleset"]["factions"][1]["seals"] == 3


def test_t13_seals_3_and_4_out_of_their_phase_are_a_409_that_says_when(client, grail):
    """T-13: seal 3 is for the battle phase, 4 needs the main the setup names. Before the setup is confirmed the
    faction has no main yet: 409 saying so (not 'only the main's faction'); seal 3 at a select: 409 naming the
    battle phase. Nothing is written, no seal is spent."""
    sid = grail["session"]
    a, b = started(client, grail)
    answer(client, grail, "c1-setup", a, "s1")
    for effect in (3, 4):
        r = client.post(f"/api/sessions/{sid}/actions/use_seal", headers=bearer(grail["tok"]["gm"]),
                        json={"faction": "s1", "effect": effect, "with": "士郎"})
        assert r.status_code == 409, r.get_json()
        assert r.get_json()["error"]["ja"] == f"令呪{effect}はセットアップの確定後に使います（メインが決まってから）"
        assert r.get_json()["error"]["en"] == f"Seal {effect} is used once the setup is confirmed (when the main is known)"
    answer(client, grail, "c1-setup", b, "s2")
    confirm(client, grail, "c1-setup")
    call(client, grail, "next_step")
    r = client.post(f"/api/sessions/{sid}/actions/use_seal", headers=bearer(grail["tok"]["gm"]),
                    json={"faction": "s1", "effect": 3})
    assert r.status_code == 409
    assert r.get_json()["error"]["ja"] == "令呪3はバトルフェイズで使います"
    assert r.get_json()["error"]["en"] == "Seal 3 is used in the Battle phase"
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()
    assert state["ruleset"]["factions"][0]["seals"] == 3 and state["ruleset"]["combat"]["seals"]["a"] == []


@pytest.mark.parametrize("how", ["escape", "end_combat"])
def test_t1_t12_a_combat_that_ends_with_its_step_revealed_stays_ended(client, grail, how):
    """T-12: a setup escape that ends the combat while the setup is revealed but not confirmed; T-1: the GM
    breaks the combat off with a select revealed. The revealed step is cancelled with the combat: a confirm
    afterwards is a 409 and neither brings the combat back nor spends a seal."""
    sid = grail["session"]
    a, b = started(client, grail)
    answer(client, grail, "c1-setup", {**a, "seal": 1}, "s1")
    answer(client, grail, "c1-setup", b, "s2")
    prompt = "c1-setup"
    if how == "escape":
        out = call(client, grail, "escape", {"faction": "s1", "faces": [90, 10]})
        assert [e["type"] for e in out["events"]] == ["grail.escape", "prompt.cancelled"]
    else:
        confirm(client, grail, "c1-setup")
        call(client, grail, "next_step")
        answer(client, grail, "c1-s1", {"stat": "筋力"}, "s1")
        answer(client, grail, "c1-s1", {"stat": "筋力"}, "s2")
        prompt = "c1-s1"
        call(client, grail, "end_combat", {"reason": "時間切れ"})
    seals = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()["ruleset"]
    seals = [f["seals"] for f in seals["factions"]]
    r = client.post(f"/api/sessions/{sid}/prompts/{prompt}/confirm", headers=bearer(grail["tok"]["gm"]))
    assert r.status_code == 409, r.get_json()
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()["ruleset"]
    assert view["in_progress"] is False and view["combat"]["done"] is True and view["combat"]["step"] == "done"
    assert view["combat"]["result"] == ("escaped" if how == "escape" else "aborted")
    assert view["combat"]["prompt_status"] == "cancelled"
    assert [f["seals"] for f in view["factions"]] == seals
    # What was revealed stays public: the table's log still reads both answers (and their salts verify them).
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["table_token"])).get_json()["events"]
    shown = [e["text"] for e in log if e["type"] == "prompt.answered" and e["data"]["prompt"] == prompt]
    assert len(shown) == 2 and all("→" in t for t in shown), shown
    # The step's cancel says why in the reader's language (the English log read 「(逃走により戦闘終了)」)
    for lang, why in (("ja", {"escape": "（逃走により戦闘終了）", "end_combat": "（戦闘の打ち切り）"}),
                      ("en", {"escape": " (the combat ended with an escape)", "end_combat": " (the combat was broken off)"})):
        log = client.get(f"/api/sessions/{sid}/log?limit=1000&lang={lang}", headers=bearer(grail["table_token"])).get_json()
        line = next(e["text"] for e in log["events"] if e["type"] == "prompt.cancelled")
        assert line.endswith(why[how]), line
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})  # the next combat can start


def test_t1_a_step_revealed_with_a_side_missing_or_cancelled_is_opened_again_by_next_step(client, grail):
    """T-1 (docs §1: a cancelled, or unanswered-and-confirmed, setup / select is opened again): the GM reveals a
    select one side has not answered; its summary says what to do (confirm: a cancel of a revealed prompt is a
    409), the confirm applies nothing (no result, no seal spent) and next_step opens it again. A cancelled setup
    is opened again the same way."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    started(client, grail)
    assert client.post(f"/api/sessions/{sid}/prompts/c1-setup/cancel", headers=gm, json={}).status_code == 200
    assert call(client, grail, "next_step")["ruleset"]["combat"]["prompt"] == "c1-setup-2"
    for lang, text in (("ja", "セットアップを出し直し [T-4]"), ("en", "Setup opened again [T-4]")):  # as docs §1, §6c say
        opened = [e for e in client.get(f"/api/sessions/{sid}/log?limit=1000&lang={lang}", headers=bearer(
            grail["table_token"])).get_json()["events"] if e["type"] == "grail.select_opened"]
        assert [(e["data"], e["text"]) for e in opened] == [({"combat": "c1", "select_no": 0, "prompt": "c1-setup-2"}, text)]
    answer(client, grail, "c1-setup-2", {"main": "s1/アルトリア"}, "s1")
    answer(client, grail, "c1-setup-2", {"main": "s2/エミヤ"}, "s2")
    confirm(client, grail, "c1-setup-2")
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "筋力", "seal": {"effect": 2}}, "s1")
    assert client.post(f"/api/sessions/{sid}/prompts/c1-s1/reveal", headers=gm, json={}).status_code == 200
    pending = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["combat"]["pending"]
    assert pending["summary"]["ja"] == "未回答の側があります（「結果を確定」しても何も適用されません。そのあと「出し直す」で出し直せます）"
    assert pending["summary"]["en"] == "A side did not answer (press 'Confirm the result', which applies nothing, then 'Open it again')"
    assert client.post(f"/api/sessions/{sid}/prompts/c1-s1/cancel", headers=gm, json={}).status_code == 409
    confirm(client, grail, "c1-s1")
    view = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]
    assert view["combat"]["step"] == "select1" and view["combat"]["selects"] == []
    assert view["combat"]["next"] == {"ja": "出し直す", "en": "Open it again"} and view["factions"][0]["seals"] == 3
    assert call(client, grail, "next_step")["ruleset"]["combat"]["prompt"] == "c1-s1-2"


def pl_vs_gm_to_the_first_select(client, grail):
    """PL対GM (T-2): the GM's threat side (`gm`) fights セイバー陣営, set up and on to its 1st select."""
    call(client, grail, "set_characters", {"faction": "s1", "text": SABER})
    call(client, grail, "set_characters", {"faction": "gm", "text": "謎の影(アサシン) 筋力30 耐久30 敏捷70 魔力20 幸運30 宝具40"})
    call(client, grail, "start_combat", {"a": ["s1"], "b": "gm"})
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア"}, "s1")
    call(client, grail, "answer", {"prompt": "c1-setup", "value": {"main": "gm/謎の影"}})
    confirm(client, grail, "c1-setup")
    call(client, grail, "next_step")


def test_t2_pl_vs_gm_the_gms_select_is_as_hidden_as_a_faction_until_the_reveal(app, client, grail):
    """T-2: in PL対GM the GM's own choice is just as hidden: the GM answers its select (a typed-in skill with a
    name no screen shows otherwise) before the players; until the reveal no phone, table, log or stream page
    carries it; after the reveal everyone reads it in the result."""
    sid = grail["session"]
    pl_vs_gm_to_the_first_select(client, grail)
    call(client, grail, "answer", {"prompt": "c1-s1", "value": {
        "stat": "敏捷", "mods": [{"label": "秘剣燕返し", "value": 10, "kind": "skill"}]}})
    table = open_link(client.application, grail["table_url"])
    phone = open_link(app, grail["seats"][0]["join_url"])

    def shown():
        return [str(client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"][w])).get_json())
                for w in ("s1", "s2")] + \
            [str(client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["tok"][w])).get_json())
             for w in ("s1", "s2")] + \
            [table.get(f"/s/{sid}/table").get_data(as_text=True), phone.get(f"/s/{sid}/phone").get_data(as_text=True)]
    assert all("秘剣燕返し" not in page for page in shown())
    # the GM's console (hiding answers: the GM fights) says what the GM sent, to the GM alone, behind a closed
    # disclosure (it confirmed only 「✓ 送信しました」)
    console = open_link(app, grail["gm_url"]).get(f"/s/{sid}/gm").get_data(as_text=True)
    own = re.search(r'<details class="own-answer"[^>]*><summary>[^<]*</summary>\s*<span class="own-answer-value">([^<]*)<',
                    console)
    assert own and "敏捷" in own.group(1) and "秘剣燕返し" in own.group(1), own
    # the table's summary: who has answered the select (the GM) and, behind 根拠, its commitment; who has not
    seen = client.get(f"/api/sessions/{sid}/prompts/c1-s1", headers=bearer(grail["table_token"])).get_json()
    assert seen["commitments"].keys() == {"gm"}
    assert_answers_sealed_on_table(table.get(f"/s/{sid}/table").get_data(as_text=True), seen,
                                   {"gm": "GM", **{s["id"]: s["name"] for s in grail["seats"]}}, ("秘剣燕返し",))
    answer(client, grail, "c1-s1", {"stat": "筋力"}, "s1")
    assert all("秘剣燕返し" in page for page in shown())


@pytest.mark.parametrize("declarer, value, terms", [
    # a declared: b (declared upon) first: -50 on a fresh stat is clipped to -30 (T-8), then a's +20 → 40.
    ("a", 40, ["メイン Aの筋力 50", "スキル〈呪い〉 −50 → −30 -30", "スキル〈魔力放出〉 20"]),
    # b declared: a (declared upon) first: +20, then -50 nets -30 and is applied whole → 20.
    ("b", 20, ["メイン Aの筋力 50", "スキル〈魔力放出〉 20", "スキル〈呪い〉 -50"]),
])
def test_t4_setup_skills_resolve_the_side_declared_upon_first(client, grail, declarer, value, terms):
    """T-4: setup-timing skills resolve for the side declared upon first, then the declarer; with the ±30 cap
    (T-8) the order decides the 戦力."""
    call(client, grail, "set_characters", {"faction": "s1", "text": "A 筋力50 耐久60 敏捷40 魔力55 幸運40 宝具60\n"
                                                                    "- 魔力放出 セットアップ 筋力+20"})
    call(client, grail, "set_characters", {"faction": "s2", "text": "B 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50\n"
                                                                    "- 呪い セットアップ 相手の筋力-50"})
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"], "declarer": declarer})
    answer(client, grail, "c1-setup", {"main": "s1/A", "skills": ["s1/A:1"]}, "s1")
    answer(client, grail, "c1-setup", {"main": "s2/B", "skills": ["s2/B:1"]}, "s2")
    confirm(client, grail, "c1-setup")
    cell = client.get(f"/api/sessions/{grail['session']}/state", headers=bearer(grail["tok"]["gm"])).get_json()[
        "ruleset"]["combat"]["forces"]["a"]["筋力"]
    assert cell["value"] == value and [f"{t['label']['ja']} {t['value']}" for t in cell["terms"]] == terms


def test_t3_a_skill_declared_twice_in_one_answer_is_refused_and_writes_nothing(client, grail):
    """T-3: each declared skill is one use; the same sheet skill twice in one answer would count twice and act
    twice (怪力 +20 +20 → +30 through the cap). It is refused in both languages, and nothing is written; so is a
    typed-in skill named twice (or named as a sheet skill of the same answer), and an own-stat skill, on the sheet
    or typed in, for another stat than the one the side chose (T-5: it was accepted with a note that blamed the
    opponent's choice)."""
    sid = grail["session"]
    started(client, grail, sheet="A 筋力50 耐久60 敏捷40 魔力55 幸運40 宝具60\n- 怪力 セレクト 筋力+20")
    set_up(client, grail, {"main": "s1/A"}, {"main": "s2/エミヤ"})
    call(client, grail, "next_step")
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["tok"]["gm"])).get_json()["events"]
    twice = ("「怪力」を2回宣言しています（1つの回答で1回まで） [T-3]", "'怪力' is declared twice (once per answer) [T-3]")
    typed = {"label": "怪力", "value": 10, "kind": "skill"}
    for value, ja, en in [
        ({"stat": "筋力", "skills": ["s1/A:1", "s1/A:1"]}, *twice),
        ({"stat": "筋力", "mods": [typed, typed]}, *twice),
        ({"stat": "筋力", "skills": ["s1/A:1"], "mods": [typed]}, *twice),
        ({"stat": "耐久", "skills": ["s1/A:1"]}, "「怪力」は筋力のスキルです（選んだのは耐久）", "'怪力' acts on STR (you chose END)"),
        ({"stat": "耐久", "mods": [{"label": "z", "value": 10, "kind": "skill", "stat": "筋力"}]},
         "「z」は筋力のスキルです（選んだのは耐久）", "'z' acts on STR (you chose END)"),
    ]:
        r = client.post(f"/api/sessions/{sid}/prompts/c1-s1/answer", headers=bearer(grail["tok"]["s1"]),
                        json={"value": value})
        assert r.status_code == 400, (value, r.get_json())
        assert (r.get_json()["error"]["ja"], r.get_json()["error"]["en"]) == (ja, en)
    assert client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["tok"]["gm"])).get_json()["events"] == log
    answer(client, grail, "c1-s1", {"stat": "筋力", "skills": ["s1/A:1"]}, "s1")
    # A typed-in skill of value 0 is a skill whose effect is no number (docs §2): declared, it spends a use (T-3) and
    # reads +0 in the breakdown; the GM's modifiers refuse 0, a player's typed-in skill does not.
    answer(client, grail, "c1-s1", {"stat": "筋力", "mods": [{"label": "気配遮断", "value": 0, "kind": "skill"}]}, "s2")
    confirm(client, grail, "c1-s1")
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()["ruleset"]["combat"]
    assert view["selects"][0]["result"]["a"]["value"] == 70 and view["uses_left_by_faction"]["s1"]["skill"] == 1
    assert view["selects"][0]["result"]["b"]["value"] == 30 and view["uses_left_by_faction"]["s2"]["skill"] == 1
    assert "スキル〈気配遮断〉 +0" in " ".join(f"{t['label']['ja']} {t['value']:+d}" for t in view["selects"][0]["result"]["b"]["terms"])


def _one_seal_each(client, grail):
    """Both factions' characters, each faction down to 1 seal (set_starting_seals), c1 set up, the 1st select open."""
    call(client, grail, "set_starting_seals", {"value": 1})
    set_up(client, grail, *started(client, grail))
    call(client, grail, "next_step")


def test_t13_a_seal_the_revealed_step_will_take_cannot_be_spent_before_the_confirm(client, grail):
    """T-13: セイバー陣営 (1 seal) declares seal 2 with its select; once revealed, that seal is spoken for: seal 5
    before the GM confirms is refused (it would leave the seal 2 unpaid: the counter stops at 0 and the +30 came
    free). After the confirm the seal is paid once."""
    sid = grail["session"]
    _one_seal_each(client, grail)
    answer(client, grail, "c1-s1", {"stat": "筋力", "seal": {"effect": 2}}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")
    r = client.post(f"/api/sessions/{sid}/actions/use_seal", headers=bearer(grail["tok"]["gm"]),
                    json={"faction": "s1", "effect": 5})
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["error"]["ja"] == "セイバー陣営の令呪が足りません（令呪5に1画、残り0画、確定待ちの1画を除く）"
    assert r.get_json()["error"]["en"] == "セイバー陣営 lacks seals (effect 5 needs 1, has 0 besides the 1 the revealed step takes)"
    confirm(client, grail, "c1-s1")
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()["ruleset"]
    assert view["factions"][0]["seals"] == 0 and [s["effect"] for s in view["combat"]["seals"]["a"]] == [2]
    assert view["combat"]["selects"][0]["result"]["a"]["value"] == 50 + 30  # 戦力 50, seal 2 +30


def test_t13_a_secret_seal_the_faction_can_no_longer_pay_at_the_reveal_has_no_effect(client, grail):
    """T-13: セイバー陣営 (1 seal) declares seal 2 in secret, then (before the reveal) the GM spends its last seal on
    seal 5. At the reveal the seal 2 cannot be paid: no +30, a note says why, and the confirm takes no seal."""
    sid = grail["session"]
    _one_seal_each(client, grail)
    answer(client, grail, "c1-s1", {"stat": "筋力", "seal": {"effect": 2}}, "s1")
    call(client, grail, "use_seal", {"faction": "s1", "effect": 5})
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")
    pending = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["s2"])).get_json()[
        "ruleset"]["combat"]["pending"]["result"]
    assert pending["a"]["value"] == 50 and all(t["rule"] != "T-13" for t in pending["a"]["terms"])
    assert {"ja": "セイバー陣営の令呪が足りないため、令呪2は効果なし",
            "en": "セイバー陣営 has no Command Seal left: seal 2 has no effect", "rule": "T-13"} in pending["notes"]
    confirm(client, grail, "c1-s1")
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()["ruleset"]
    assert view["factions"][0]["seals"] == 0 and [s["effect"] for s in view["combat"]["seals"]["a"]] == [5]
    assert view["combat"]["selects"][0]["choices"]["a"]["seal"] is None


def test_t13_a_secret_seal_1_the_faction_can_no_longer_pay_at_the_reveal_has_no_effect(client, grail):
    """T-13: the same for seal 1 with the setup: its last seal spent on seal 5 before the reveal, the +10 is not
    added to 戦力, a note says why, and the confirm takes no seal."""
    sid = grail["session"]
    call(client, grail, "set_starting_seals", {"value": 1})
    a, b = started(client, grail)
    answer(client, grail, "c1-setup", {**a, "seal": 1}, "s1")
    call(client, grail, "use_seal", {"faction": "s1", "effect": 5})
    answer(client, grail, "c1-setup", b, "s2")
    confirm(client, grail, "c1-setup")
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()["ruleset"]
    assert view["combat"]["forces"]["a"]["筋力"]["value"] == 50 and view["combat"]["setup"]["a"]["seal"] is None
    assert view["factions"][0]["seals"] == 0 and [s["effect"] for s in view["combat"]["seals"]["a"]] == [5]
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(grail["table_token"])).get_json()["events"]
    assert any("令呪が足りないため、令呪1は効果なし" in str(e) for e in log)


def test_t1_t11_a_finished_combat_takes_no_more_steps(client, grail):
    """T-1/T-11: once finish_combat scored a combat (黒星, 敗退) no action reaches it again, also one that names it
    (`"combat": "c1"`, which a GM action had accepted: end_combat then rewrote its result to 'aborted' while the
    loser stayed out with its 黒星). Every step is a 409 and the result stands."""
    sid = grail["session"]
    to_final(client, grail)
    rolls = call(client, grail, "roll_battle", {"faces": [100, 1]})["ruleset"]["combat"]["battle"]["rolls"]
    assert rolls[0]["a"]["index"] == rolls[0]["b"]["index"] == 0  # real dice draw nothing from the seed (docs §6b)
    call(client, grail, "finish_combat")
    body = {"combat": "c1", "faction": "s2", "side": "a", "label": "x", "value": 5, "winner": "a"}
    for name in ("end_combat", "next_step", "escape", "add_modifier", "finish_combat", "decide", "use_skill"):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(grail["tok"]["gm"]), json=body)
        assert r.status_code == 409, (name, r.get_json())
    view = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["gm"])).get_json()["ruleset"]
    assert view["combat"]["result"]["winner"] == "a" and view["combat"]["result"]["eliminated"] == ["s2"]
    assert view["out"] == ["s2"] and view["history"][0]["winner"] == "a"
    # T-11: the write-up ends with who is out (its final table's 状態 column, every seat list's flag) and the result
    seats = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["table_token"])).get_json()["seats"]
    assert [f["flag"] for s in seats for f in s["flags"]] == ["grail_out"]
    for lang, row, line in (
            ("ja", "| アーチャー陣営 | 3 | 0 | 1 | 敗退 |", "- 結果：セイバー陣営が勝ち残り（ほかはすべて敗退、T-11）"),
            ("en", "| アーチャー陣営 | 3 | 0 | 1 | Out |",
             "- Result: セイバー陣営 is the last faction left in the war (every other is out, T-11)")):
        text = client.get(f"/api/sessions/{sid}/export?format=markdown&lang={lang}",
                          headers=bearer(grail["tok"]["gm"])).get_data(as_text=True)
        assert row in text and f"|\n\n{line}\n" in text, lang


def test_t1_a_fourth_select_is_refused_in_words(client, grail):
    """T-1/T-5: three selects per combat; open_select after the 3rd is a 409 in words in both languages (it named
    a '4セレクト' and the step's id)."""
    to_final(client, grail)
    r = client.post(f"/api/sessions/{grail['session']}/actions/open_select", headers=bearer(grail["tok"]["gm"]), json={})
    assert r.status_code == 409
    assert r.get_json()["error"]["ja"] == "今はファイナルリザルトなのでセレクトは開けません（セレクトは3回まで）"
    assert r.get_json()["error"]["en"] == "No select can be opened now: the step is Final result (3 selects per combat)"


def test_t11_t12_t13_a_loser_escapes_at_cleanup_with_seal_7_keeps_playing_with_its_black_star(client, grail):
    """T-12: the escape needs the escaper's total strictly higher (a tie fails); T-13 effect 7: at cleanup it costs
    黒星 + 1 seals, one more makes it automatic; T-11: the loser gains its 黒星 whether it escaped or not, and only
    one that did not escape is out."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    assert client.post(f"/api/sessions/{sid}/counters", headers=gm,
                       json={"seat": "s2", "key": "black_stars", "value": 1}).status_code == 200
    to_final(client, grail)
    call(client, grail, "roll_battle", {"faces": [100, 1]})  # セイバー陣営 (a) wins; アーチャー陣営 lost
    # Play-through: the console's Cleanup button came first and its escape form had the winner chosen; pressing
    # Cleanup eliminated the loser before it could try seal 7. The form has the loser chosen and a hint says so.
    console = open_link(client.application, grail["gm_url"])
    for lang, hint in (("ja", "「クリンナップ」を押す前に下の「逃走判定」で"), ("en", "with Escape below before you press Cleanup")):
        html = console.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True)
        form = re.search(r'id="grail-escape".*?</form>', html, re.S).group(0)
        assert re.findall(r'<option value="(\w+)"', form) == ["s2"] and hint in html, lang  # the loser only
    tie = call(client, grail, "escape", {"faction": "s2", "escaper_mod": 5, "faces": [40, 45]})["ruleset"]["combat"]
    check = tie["escapes"][-1]
    assert check["check"]["escaper"]["total"] == 45 == check["check"]["pursuer"]["total"] and not check["escaped"]
    assert check["cost"]["cost"] == 2 and check["seal"] == 7  # 黒星 1 + 1
    # how many seals it spent and why, in words (the table read 「令呪 2 (黒星の数 1 さらに1画 +1)」)
    assert check["cost"]["words"] == {"ja": "令呪2画を使用（黒星1個 ＋ 1画）", "en": "2 Command Seals spent (1 black star + 1)"}
    for lang, line in (("ja", "アーチャー陣営の逃走判定 [T-12]、令呪2画を使用（黒星1個 ＋ 1画）: "),
                       ("en", "Escape check of アーチャー陣営 [T-12], 2 Command Seals spent (1 black star + 1): ")):
        log = client.get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(grail["table_token"])).get_json()
        assert [e["text"] for e in log["events"] if e["type"] == "grail.escape"][0].startswith("［実ダイス］" * (lang == "ja")
                                                                                            + "[real dice] " * (lang == "en") + line)
    table = open_link(client.application, grail["table_url"])
    for lang, words in (("ja", "· 令呪2画を使用（黒星1個 ＋ 1画）"), ("en", "· 2 Command Seals spent (1 black star + 1)")):
        page = table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        assert words in page and "さらに1画" not in page and "one seal more" not in page
        assert shown_by_default(page, RULE_CODE_TEXT) == [], lang  # the rule codes behind the TV's 根拠 toggle
    r = client.post(f"/api/sessions/{sid}/actions/escape", headers=gm, json={"faction": "s2", "automatic": True})
    assert r.status_code == 409  # one escape check per timing
    client.post(f"/api/sessions/{sid}/undo", headers=gm, json={})
    auto = call(client, grail, "escape", {"faction": "s2", "automatic": True})["ruleset"]["combat"]["escapes"][-1]
    assert auto["escaped"] and auto["automatic"] and auto["cost"]["cost"] == 3 and auto["check"]["escaper"] is None
    done = call(client, grail, "finish_combat")["ruleset"]
    assert done["combat"]["result"]["escaped"] == ["s2"] and done["combat"]["result"]["eliminated"] == []
    assert done["out"] == [] and done["factions"][1]["black_stars"] == 2 and done["factions"][1]["seals"] == 0


def test_t13_a_seal_5_reads_as_what_it_did_not_as_the_consoles_option(app, client, grail):
    """Play-through: seal 5's log line and the table's record of the seals used read the console's option
    「MP+3（即座に、公開可）」 ("may be public" is advice to the GM, not what was done). They say what it did, with the
    faction's name: 「セイバー陣営が令呪5を使用（1画）: MP+3」; a use stored before reads the same."""
    sid = grail["session"]
    set_up(client, grail, *started(client, grail))
    call(client, grail, "use_seal", {"faction": "s1", "effect": 5})
    want = {"ja": "セイバー陣営が令呪5を使用（1画）: MP+3 [T-13]", "en": "セイバー陣営 uses Command Seal 5 (1 seal): MP +3 [T-13]"}

    def seal_lines(app):
        out = {}
        for lang in ("ja", "en"):
            log = app.test_client().get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(grail["table_token"]))
            out[lang] = [e["text"] for e in log.get_json()["events"] if e["type"] == "grail.seal_used"]
            page = open_link(app, grail["table_url"]).get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
            assert "即座に" not in page and "may be public" not in page, lang
            assert ("令呪5 · MP+3" if lang == "ja" else "Command Seal 5 · MP +3") in page, lang
        return out

    assert seal_lines(app) == {lang: [text] for lang, text in want.items()}
    # as 0.1 – 2026-11 stored it: what it did was the console's option
    app.extensions["gmtool"].close_all()
    with sqlite3.connect(f"{app.config['DATA_DIR']}/{sid}.sqlite") as db:
        assert db.execute("UPDATE events SET data = replace(replace(data, '\"MP+3\"', '\"MP+3（即座に、公開可）\"'), "
                          "'\"MP +3\"', '\"MP +3 (at once, may be public)\"') WHERE type = 'grail.seal_used'").rowcount == 1
    db.close()
    again = create_app({"DATA_DIR": app.config["DATA_DIR"], "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    try:
        assert seal_lines(again) == {lang: [text] for lang, text in want.items()}
    finally:
        again.extensions["gmtool"].close_all()


def test_t13_a_confirm_logs_the_counter_changes_it_makes_not_those_computed_at_the_reveal(client, grail):
    """T-13 (core prompts.confirm): a setup's seal 1 and its skill's MP are paid when the GM confirms; a seal 5
    between the reveal and the confirm moved both counters, so the confirm's lines read the numbers it changed
    (seals 1→0, MP 6→4), not the ones the reveal computed (2→1, 3→1), in the log, on the table and in the export."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    call(client, grail, "set_characters", {"faction": "s1", "text": SABER.replace(
        "宝具60\n", "宝具60\n- スキル 魔力放出 セットアップ 筋力+10 MP2\n", 1)})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, grail, "use_seal", {"faction": "s1", "effect": 5})  # seals 3→2, MP 0→3
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア", "seal": 1, "skills": ["s1/アルトリア:1"]}, "s1")
    answer(client, grail, "c1-setup", {"main": "s2/エミヤ"}, "s2")
    call(client, grail, "use_seal", {"faction": "s1", "effect": 5})  # seals 2→1, MP 3→6
    confirm(client, grail, "c1-setup")
    seat = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["seats"][0]
    assert seat["counters"]["seals"] == 0 and seat["counters"]["mp"] == 4
    for token in (grail["tok"]["gm"], grail["table_token"]):
        log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(token)).get_json()["events"]
        changed = [e["text"] for e in log if e["type"] == "counter.changed"][-2:]
        assert changed == ["セイバー陣営: 令呪 1→0 (-1)（令呪1 [T-13]）", "セイバー陣営: MP 6→4 (-2)（スキルのMP [T-13]）"]
    md = client.get(f"/api/sessions/{sid}/export?format=markdown", headers=gm).get_data(as_text=True)
    assert "令呪 1→0" in md and "MP 6→4" in md and "MP 3→1" not in md and "令呪 2→1（令呪1" not in md


@pytest.mark.parametrize("body, ja, en", [
    ({"text": "ランサー 筋力150 耐久60 敏捷40 魔力55 幸運40 宝具60"},
     "1行目: 筋力の値は0〜100の整数です（150）[T-8]", "Line 1: STR must be a whole number 0–100 (150) [T-8]"),
    ({"text": "ランサー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60\n- スキル 怪力\nアーチャー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具" + "9" * 24},
     f"3行目: 宝具の値は0〜100の整数です（{'9' * 24}）[T-8]", f"Line 3: NP must be a whole number 0–100 ({'9' * 24}) [T-8]"),
    ({"characters": [{"name": "ランサー", "stats": {"STR": 40, "END": 101, "AGI": 40, "MAG": 55, "LUK": 40, "NP": 60}}]},
     "1番目: 耐久の値は0〜100の整数です（101）[T-8]", "Item 1: END must be a whole number 0–100 (101) [T-8]"),
])
def test_t8_a_stat_over_100_is_refused_at_entry_in_both_languages_and_writes_nothing(client, grail, body, ja, en):
    """T-8: no stat exceeds 100 by any means but Command Seals, so a sheet's stat is 0–100: 150 or a 24-digit
    number is a 400 naming the line, the stat and the value in both languages, and nothing is written; 100 is taken."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    version = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"]
    r = client.post(f"/api/sessions/{sid}/actions/set_characters", headers=gm, json={"faction": "s1", **body})
    assert r.status_code == 400 and (r.get_json()["error"]["ja"], r.get_json()["error"]["en"]) == (ja, en)
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"] == version
    done = call(client, grail, "set_characters", {"faction": "s1", "text": "ランサー 筋力100 耐久0 敏捷40 魔力55 幸運40 宝具60"})
    assert done["ruleset"]["factions"][0]["characters"][0]["stats"]["筋力"] == 100


def test_t10_after_a_tied_roll_the_gm_decides_no_battle_skill_or_seal_3_is_taken(client, grail):
    """T-10/T-9/T-13: battle skills and seal 3 add to the 勝率 that goes into the battle roll (seed: the battle
    phase's skills are used last, then both roll). Under the Reading battle_tie=gm a tie leaves the step at `battle`
    for the GM to decide; a battle skill (its chip greyed out with the reason) and seal 3 are refused there in both
    languages and write nothing, and the GM's decide goes on."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    client.post(f"/api/sessions/{sid}/readings", headers=gm, json={"key": "battle_tie", "value": "gm"})
    set_up(client, grail, *started(client, grail, sheet=SABER.replace("宝具60\n", "宝具60\n- スキル 直感 バトル 勝率+10\n", 1)))
    final = three_selects(client, grail)
    chip = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["s1"])).get_json()[
        "ruleset"]["combat"]["skills"]["chips"][0]
    assert chip["name"] == "直感" and chip["usable"]  # before the roll
    a, b = 1, 1 + final["a"]["total"] - final["b"]["total"]
    tied = call(client, grail, "roll_battle", {"faces": [a, b]})["ruleset"]["combat"]
    assert tied["step"] == "battle" and tied["battle"]["needs_gm"]
    version = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"]
    chip = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["s1"])).get_json()[
        "ruleset"]["combat"]["skills"]["chips"][0]
    assert not chip["usable"] and chip["reason"] == {
        "ja": "勝敗判定の後です（勝率は判定の前に加えます）", "en": "The battle roll has been made (win rates are added before it)",
        "rule": "T-10"}
    r = client.post(f"/api/sessions/{sid}/actions/use_skill", headers=bearer(grail["tok"]["s1"]),
                    json={"skill": "s1/アルトリア:1"})
    assert r.status_code == 400 and r.get_json()["error"]["ja"] == \
        "「直感」は使えません: 勝敗判定の後です（勝率は判定の前に加えます） [T-10]"
    assert r.get_json()["error"]["en"] == "Cannot use '直感': The battle roll has been made (win rates are added before it) [T-10]"
    r = client.post(f"/api/sessions/{sid}/actions/use_skill", headers=gm,
                    json={"side": "a", "label": "軍略", "value": 10, "win_rate": True})
    assert r.status_code == 409 and r.get_json()["error"]["en"] == \
        "The battle roll has been made (win rates are added before it) [T-10]"
    r = client.post(f"/api/sessions/{sid}/actions/use_seal", headers=gm, json={"faction": "s2", "effect": 3})
    assert r.status_code == 409 and (r.get_json()["error"]["ja"], r.get_json()["error"]["en"]) == (
        "令呪3は使えません: 勝敗判定の後です（勝率は判定の前に加えます） [T-10]",
        "Seal 3 cannot be used: The battle roll has been made (win rates are added before it) [T-10]")
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"] == version
    assert call(client, grail, "decide", {"winner": "a"})["ruleset"]["combat"]["step"] == "cleanup"


def test_t13_seal_4_on_the_console_swaps_in_one_of_two_characters_of_the_same_name(client, grail):
    """T-13 seal 4: the console's swap list posted the character's name, and use_seal refuses a name two characters it
    may swap in share (大河 twice in one sheet, or 士郎 of two allied factions): the GM could swap in neither. The list
    posts each one's id now, the GM reading its role, name and class, and for two others of one faction alike (both
    大河, no class: 「その他 大河」 twice) each one's place on the sheet; the API still takes a name no other shares, and
    a shared one is a 400 that names them, nothing written."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    a, b = started(client, grail, a_sub="s1/士郎", sheet=SABER + "\n大河 筋力90 耐久90 敏捷90 魔力90 幸運90 宝具90")
    # the phone's setup form told the two 大河 apart no better (「大河」 twice): each says its place on the sheet now
    phone = open_link(client.application, next(s["join_url"] for s in grail["seats"] if s["id"] == "s1"))
    for lang, labels in (("ja", ["アルトリア(セイバー)", "士郎", "大河 · シートの1人目", "大河 · シートの2人目"]),
                         ("en", ["アルトリア(セイバー)", "士郎", "大河 · 1st on the sheet", "大河 · 2nd on the sheet"])):
        form = phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
        others = re.findall(r'name="others" value="([^"]+)"> ([^<]*)</label>', form)
        assert [(v, unescape(text)) for v, text in others] == list(zip(
            ["s1/アルトリア", "s1/士郎", "s1/大河", "s1/大河#2"], labels)), lang
        main = re.search(r'<select name="main".*?</select>', form, re.S).group(0)
        assert [unescape(x) for x in re.findall(r'<option value="[^"]+">([^<]*)</option>', main)] == labels, lang
    set_up(client, grail, {**a, "others": ["s1/大河", "s1/大河#2"]}, b)
    # the setup's answer reads their names, not the id that tells them apart (it read 「その他 大河・大河#2」)
    for lang, said in (("ja", "メイン アルトリア / サブ 士郎 / その他 大河・大河"), ("en", "Main アルトリア / Sub 士郎 / Others 大河, 大河")):
        log = client.get(f"/api/sessions/{sid}/log?limit=1000&lang={lang}", headers=gm).get_json()["events"]
        answered = next(e["text"] for e in log if e["type"] == "prompt.answered" and e["data"]["by"] == "s1")
        assert f"→ {said}{'（' if lang == 'ja' else ' ('}" in answered, answered
    console = open_link(client.application, grail["gm_url"])
    # both 大河 are others of one faction with no class: they read 「その他 大河」 twice, so the GM could not tell which
    # to swap in; each says its place among the 大河 of the faction's sheet now, as the characters' list shows them
    for lang, labels in (("ja", ["サブ 士郎", "その他 大河 · シートの1人目", "その他 大河 · シートの2人目"]),
                         ("en", ["Sub 士郎", "Other 大河 · 1st on the sheet", "Other 大河 · 2nd on the sheet"])):
        row = re.search(r'<form [^>]*id="grail-seal-s1".*?</form>', console.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True), re.S)
        options = re.findall(r'<option value="([^"]+)">([^<]*)</option>', re.search(r'<select name="with".*?</select>', row.group(0), re.S).group(0))
        assert [(v, unescape(text)) for v, text in options] == list(zip(["s1/士郎", "s1/大河", "s1/大河#2"], labels)), lang
        # the view builds the list (flow.swap_choices, `swaps`): the console only prints it
        swaps = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["combat"]["swaps"]["s1"]
        assert [(s["id"], s["label"][lang]) for s in swaps] == [(v, unescape(text)) for v, text in options], lang
    version = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"]
    error = call(client, grail, "use_seal", {"faction": "s1", "effect": 4, "with": "大河"}, status=400)["error"]
    assert (error["ja"], error["en"]) == (
        "交代先「大河」は2人います（セイバー陣営の大河、セイバー陣営の大河）: キャラクターのID（s1/大河・s1/大河#2）で指定してください",
        "2 characters to swap in are named '大河' (大河 of セイバー陣営, 大河 of セイバー陣営): give the character's id (s1/大河, s1/大河#2)")
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"] == version
    r = console.post(f"/s/{sid}/gm/actions/use_seal", data={"faction": "s1", "effect": "4", "with": "s1/大河#2"},
                     headers={"X-CSRF-Token": csrf_for(grail["tok"]["gm"]), "HX-Request": "true"})
    assert r.status_code == 200, r.get_data(as_text=True)
    setup = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["combat"]["setup"]["a"]
    assert (setup["main"]["id"], setup["sub"]["id"], sorted(o["id"] for o in setup["others"])) == (
        "s1/大河#2", "s1/士郎", ["s1/アルトリア", "s1/大河"])
    call(client, grail, "use_seal", {"faction": "s1", "effect": 4, "with": "アルトリア"})  # a name none shares
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["combat"]["setup"]["a"]["main"][
        "id"] == "s1/アルトリア"


def test_t9_t12_t13_the_console_offers_seals_escapes_and_modifiers_only_when_they_can_be_used(client, grail):
    """Play-through: the console's seal, escape and win-rate modifier forms showed at every step of a combat (seal 3
    at the setup, an escape at a select, a modifier after the roll), each a 409 when used. Each form shows only while
    its action can be used, offering what can be used then (`gm_forms`, the actions' own checks); whatever it leaves
    out is refused."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    client.post(f"/api/sessions/{sid}/readings", headers=gm, json={"key": "battle_tie", "value": "gm"})
    console = open_link(client.application, grail["gm_url"])
    reserves = {"a": ["s1/士郎"], "b": ["s2/凛"]}  # the subs the setups below name (the swap list posts their ids)

    def offered(seals, escape, modifier, automatic=False):
        html = console.get(f"/s/{sid}/gm").get_data(as_text=True)
        forms = {name: re.search(rf'<form [^>]*id="grail-{name}".*?</form>', html, re.S) for name in
                 ("escape", "modifier")}
        now = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["combat"]["gm_forms"]
        step = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["combat"]["step"]
        assert now == {"seals": seals, "escape": escape, "modifier": modifier}, step
        # one seal row per faction: its own effects only, and seal 4's swap list its own side's sub and others only
        rows = {m.group(1): m.group(0) for m in re.finditer(r'<form [^>]*id="grail-seal-(\w+)".*?</form>', html, re.S)}
        assert sorted(rows) == sorted(seals), step
        for f, row in rows.items():
            assert f'name="faction" value="{f}"' in row and 'name="faction" aria-label' not in row, step
            assert [int(e) for e in re.findall(r'<option value="(\d)">', row)] == seals[f], (step, f)
            side = "a" if f == "s1" else "b"
            swap = re.search(r'<select name="with".*?</select>', row, re.S)
            assert (swap and re.findall(r'<option value="([^"]+)"', swap.group(0))) == (
                reserves[side] if 4 in seals[f] else None), (step, f)
        assert (forms["escape"] and re.findall(r'<option value="(\w+)"', forms["escape"].group(0))) == (escape or None)
        assert bool(forms["escape"] and 'name="automatic"' in forms["escape"].group(0)) == automatic, step
        assert bool(forms["modifier"]) == modifier, step
        for f, side in (("s1", "a"), ("s2", "b")):  # what a faction's row leaves out is refused, and writes nothing
            for effect in {3, 4, 5} - set(seals.get(f, [])):
                r = client.post(f"/api/sessions/{sid}/actions/use_seal", headers=gm,
                                json={"faction": f, "effect": effect, "with": reserves[side][0]})
                assert r.status_code in (400, 409), (step, f, effect)
        for faction in {"s1", "s2"} - set(escape):
            r = client.post(f"/api/sessions/{sid}/actions/escape", headers=gm, json={"faction": faction, "let_go": True})
            assert r.status_code in (400, 409), (step, faction)
        if not modifier:
            r = client.post(f"/api/sessions/{sid}/actions/add_modifier", headers=gm, json={"side": "a", "value": 5})
            assert r.status_code == 409, step

    a, b = started(client, grail)
    offered({"s1": [5], "s2": [5]}, ["s1", "s2"], True)  # setup: no main yet, so no 3 or 4; escapes (seal 6)
    # the modifier's name field says what to type in English too, as the Japanese example does (it read "label")
    for lang, words in (("en", "name, e.g. Tactics"), ("ja", "軍略")):
        form = re.search(r'id="grail-modifier".*?</form>', console.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True), re.S)
        assert unescape(re.search(r'name="label"[^>]*placeholder="([^"]*)"', form.group(0)).group(1)) == words
    answer(client, grail, "c1-setup", a, "s1")
    answer(client, grail, "c1-setup", b, "s2")
    confirm(client, grail, "c1-setup")
    offered({"s1": [4, 5], "s2": [4, 5]}, ["s1", "s2"], True)  # setup done: a sub to swap in (4)
    call(client, grail, "next_step")
    offered({"s1": [4, 5], "s2": [4, 5]}, [], True)  # a select: no escape any more
    for n, (sa, sb) in enumerate([("筋力", "耐久"), ("魔力", "敏捷"), ("幸運", "宝具")], 1):
        if n > 1:
            call(client, grail, "next_step")
        answer(client, grail, f"c1-s{n}", {"stat": sa}, "s1")
        answer(client, grail, f"c1-s{n}", {"stat": sb}, "s2")
        confirm(client, grail, f"c1-s{n}")
    offered({"s1": [4, 5], "s2": [4, 5]}, [], True)  # a result
    final = call(client, grail, "next_step")["ruleset"]["combat"]["final"]
    offered({"s1": [3, 4, 5], "s2": [3, 4, 5]}, [], True)  # final result: seal 3 before the roll
    call(client, grail, "roll_battle", {"faces": [1, 1 + final["a"]["total"] - final["b"]["total"]]})  # a tie
    offered({"s1": [4, 5], "s2": [4, 5]}, [], False)  # the GM decides: no seal 3, no modifier after the roll
    call(client, grail, "decide", {"winner": "a"})
    offered({"s1": [4, 5], "s2": [4, 5]}, ["s2"], False, automatic=True)  # cleanup: the loser escapes (seal 7)
    for _ in range(3):
        call(client, grail, "use_seal", {"faction": "s2", "effect": 5})
    offered({"s1": [4, 5]}, ["s2"], False, automatic=True)  # no seal left: let go is still possible
    # the escape's modifiers say what to type in English too (they read "esc. mod" / "pursuit mod")
    for lang, words in (("ja", ["逃走修正", "追跡修正"]), ("en", ["escaper's modifier", "pursuer's modifier"])):
        form = re.search(r'id="grail-escape".*?</form>', console.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True), re.S)
        assert [unescape(p) for p in re.findall(r'name="\w+_mod"[^>]*placeholder="([^"]*)"', form.group(0))] == words
    call(client, grail, "finish_combat")
    html = console.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert not re.search(r'id="grail-(seal|escape|modifier)"', html)


MP_SKILLS = SABER.replace("宝具60\n", "宝具60\n- スキル 魔力放出 セットアップ 筋力+10 MP2\n- スキル 直感 リザルト 筋力+5 MP2\n"
                                    "- スキル 怪力 セレクト 筋力+10 MP2\n", 1)


def set_mp(client, grail, value):
    """The GM sets セイバー陣営's MP (the console's counter panel posts the same)."""
    r = client.post(f"/api/sessions/{grail['session']}/counters", headers=bearer(grail["tok"]["gm"]),
                    json={"seat": "s1", "key": "mp", "value": value})
    assert r.status_code == 200, r.get_json()


@pytest.mark.parametrize("at_reveal, before_confirm, modifier", [(0, 5, False), (1, 6, True)])
def test_t13_a_step_skill_pays_its_whole_mp_from_what_the_gm_set_before_the_confirm(client, grail, at_reveal,
                                                                                      before_confirm, modifier):
    """T-13/T-3: a setup skill's MP 2 is paid at the confirm, whole, from the MP the faction holds then: the GM set
    the MP to 0 (or 1) before the step was resolved (at the reveal, or before a GM modifier re-resolved it) and to 5
    (or 6) by the counter panel before the confirm: MP ends at 3 (4), the log reads 5→3 (6→4) (the resolution's
    change was clamped at the reveal: 0 and -1 paid, the skill's MP left unpaid)."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    call(client, grail, "set_characters", {"faction": "s1", "text": MP_SKILLS})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    set_mp(client, grail, 3)
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア", "skills": ["s1/アルトリア:1"]}, "s1")  # MP 3: enough
    if modifier:
        answer(client, grail, "c1-setup", {"main": "s2/エミヤ"}, "s2")
        set_mp(client, grail, at_reveal)
        call(client, grail, "use_skill", {"side": "b", "label": "軍略", "value": 5, "stat": "筋力"})  # resolved again
    else:
        set_mp(client, grail, at_reveal)
        answer(client, grail, "c1-setup", {"main": "s2/エミヤ"}, "s2")  # revealed and resolved at MP 0
    set_mp(client, grail, before_confirm)
    confirm(client, grail, "c1-setup")
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["seats"][0]["counters"]["mp"] == \
        before_confirm - 2
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=gm).get_json()["events"]
    assert [e["text"] for e in log if e["type"] == "counter.changed"][-1] == \
        f"セイバー陣営: MP {before_confirm}→{before_confirm - 2} (-2)（スキルのMP [T-13]）"


def test_t13_the_pending_mp_change_shows_what_the_confirm_will_pay(client, grail):
    """T-13/T-3: a setup skill's MP 2, drafted at the reveal from MP 1, read 1→-1 in the pending step (the grail
    view's `pending.events` and the prompt's `resolution.events`, for the GM and the faction), below MP's range; the
    confirm pays 1→0. The preview is the change the confirm would write now: at MP 1 1→0 (-1), at MP 0 none, after
    the GM sets 5 it reads 5→3 (-2), and the confirm writes exactly that."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    call(client, grail, "set_characters", {"faction": "s1", "text": MP_SKILLS})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    set_mp(client, grail, 3)
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア", "skills": ["s1/アルトリア:1"]}, "s1")
    set_mp(client, grail, 1)
    answer(client, grail, "c1-setup", {"main": "s2/エミヤ"}, "s2")  # revealed and resolved at MP 1

    def previews(who):
        state = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"][who])).get_json()
        prompt = next(p for p in state["prompts"] if p["id"] == "c1-setup")
        out = []
        for events in (state["ruleset"]["combat"]["pending"]["events"], prompt["resolution"]["events"]):
            out.append([(d["from"], d["to"], d["delta"]) for t, d in events if t == "counter.changed" and d["key"] == "mp"])
        return out

    for who in ("gm", "s1"):
        assert previews(who) == [[(1, 0, -1)]] * 2, who
    set_mp(client, grail, 0)
    assert previews("gm") == [[]] * 2
    set_mp(client, grail, 5)
    assert previews("gm") == [[(5, 3, -2)]] * 2
    confirm(client, grail, "c1-setup")
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=gm).get_json()["events"]
    paid = [e["data"] for e in log if e["type"] == "counter.changed"][-1]
    assert (paid["from"], paid["to"], paid["delta"]) == (5, 3, -2)


def test_t13_a_skill_after_the_reveal_counts_the_mp_the_answer_declared(client, grail):
    """T-13/T-3: MP 3 and a select answer declaring 怪力 (MP 2): after the reveal 直感 (MP 2, result timing) cannot be
    paid too: its chip on the phone says so and use_skill is a 400 in both languages that writes nothing (it was
    taken, and the confirm paid 3 of the 4); the confirm pays 怪力's 2."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    call(client, grail, "set_characters", {"faction": "s1", "text": MP_SKILLS})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    set_mp(client, grail, 3)
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    set_up(client, grail, {"main": "s1/アルトリア"}, {"main": "s2/エミヤ"})
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "筋力", "skills": ["s1/アルトリア:3"]}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")
    chips = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["s1"])).get_json()[
        "ruleset"]["combat"]["skills"]["chips"]
    chip = next(c for c in chips if c["name"] == "直感")
    assert not chip["usable"] and chip["reason"]["en"] == "Not enough MP (needs 2, has 1)"
    version = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"]
    r = client.post(f"/api/sessions/{sid}/actions/use_skill", headers=bearer(grail["tok"]["s1"]),
                    json={"skill": "s1/アルトリア:2"})
    assert r.status_code == 400 and (r.get_json()["error"]["ja"], r.get_json()["error"]["en"]) == (
        "「直感」は使えません: MPが足りません（必要2、残り1） [T-13]", "Cannot use '直感': Not enough MP (needs 2, has 1) [T-13]")
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"] == version
    confirm(client, grail, "c1-s1")
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["seats"][0]["counters"]["mp"] == 1


def test_t3_a_skill_after_the_reveal_counts_the_skills_the_answer_declared(client, grail):
    """T-3: two skills declared with a select are the faction's two for the combat from the reveal on: a result
    skill after the reveal is refused in both languages and writes nothing (it was taken as a third)."""
    sid, gm = grail["session"], bearer(grail["tok"]["gm"])
    call(client, grail, "set_characters", {"faction": "s1", "text": SABER.replace("宝具60\n", "宝具60\n- スキル 魔力放出 セットアップ "
                                                                                "筋力+10\n- スキル 直感 リザルト 筋力+5\n- スキル 怪力 セレクト 筋力+10\n- スキル 心眼 セレクト 筋力+5\n", 1)})
    call(client, grail, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"]})
    set_up(client, grail, {"main": "s1/アルトリア"}, {"main": "s2/エミヤ"})
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "筋力", "skills": ["s1/アルトリア:3", "s1/アルトリア:4"]}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")
    version = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"]
    r = client.post(f"/api/sessions/{sid}/actions/use_skill", headers=bearer(grail["tok"]["s1"]),
                    json={"skill": "s1/アルトリア:2"})
    assert r.status_code == 400 and (r.get_json()["error"]["ja"], r.get_json()["error"]["en"]) == (
        "「直感」は使えません: スキルはこの戦闘で2回使用済み（陣営ごと） [T-3]",
        "Cannot use '直感': 2 skills already used this combat (per faction) [T-3]")
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"] == version
SKILLED_SABER = ("アルトリア(セイバー)/アルトリア・ペンドラゴン 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60\n"
                 "- スキル 怪力 リザルト 筋力+20\n- スキル 仕切り直し クリンナップ 敏捷+10")
SKILLED_ARCHER = ("エミヤ(アーチャー)/エミヤ 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50\n"
                  "- スキル 心眼 リザルト 相手の筋力-10\n- スキル 千里眼 クリンナップ 勝率+10")


def result_and_cleanup_skills(client, grail):
    """A result skill after the confirm, then cleanup skills by a phone and by the GM (§3a)."""
    call(client, grail, "set_characters", {"faction": "s1", "text": SKILLED_SABER})
    call(client, grail, "set_characters", {"faction": "s2", "text": SKILLED_ARCHER})
    call(client, grail, "set_seen", {"faction": "s1", "seen": ["s2/エミヤ"]})
    call(client, grail, "start_combat", {"a": ["s1"], "b": ["s2"], "declarer": "a"})
    answer(client, grail, "c1-setup", {"main": "s1/アルトリア"}, "s1")
    answer(client, grail, "c1-setup", {"main": "s2/エミヤ"}, "s2")
    confirm(client, grail, "c1-setup")
    for n, (a, b) in enumerate([("筋力", "筋力"), ("魔力", "敏捷"), ("幸運", "耐久")], 1):
        call(client, grail, "next_step")
        answer(client, grail, f"c1-s{n}", {"stat": a}, "s1")
        answer(client, grail, f"c1-s{n}", {"stat": b}, "s2")
        confirm(client, grail, f"c1-s{n}")
        if n == 1:
            call(client, grail, "use_skill", {"skill": "s2/エミヤ:1"}, who="s2")
    call(client, grail, "final_result")
    call(client, grail, "roll_battle", {"faces": [70, 20]})
    call(client, grail, "use_skill", {"skill": "s1/アルトリア:2"}, who="s1")
    call(client, grail, "use_skill", {"skill": "s2/エミヤ:2", "faction": "s2"})
    call(client, grail, "finish_combat")


def sheets_pairing_and_a_broken_off_combat(client, grail):
    """T-13/T-8/T-14/T-9/T-1: what the whole combats leave out: the starting seals, a skill added to a sheet through
    the API, a win-rate modifier, a combat the GM breaks off and a priority order whose first faction passes."""
    call(client, grail, "set_starting_seals", {"value": 2})
    started(client, grail)
    call(client, grail, "add_modifier", {"side": "b", "label": "地の利", "value": 5})
    call(client, grail, "end_combat", {"reason": "時間切れ"})
    call(client, grail, "set_skill", {"character": "s1/アルトリア", "name": "直感", "kind": "skill",
                                      "timing": "battle", "win_rate": "10"})
    call(client, grail, "set_priority", {"order": ["s2", "s1"], "new_round": True})
    call(client, grail, "pass_pick", who="s2")


def documented_games(client, every_event=False):
    """The combats the documented-fields tests play (the view's here, the events' in test_web_api.py), each as
    (session id, tokens of the GM, the table and both factions, play), `play()` not yet run: a whole one with seals
    and a skill, an escape at cleanup, a result skill and cleanup skills, a PL対GM combat; with `every_event` also
    those that write the event types these leave out (a tie the GM decides, sheets, pairing, a combat broken off)."""
    flows = [test_a_whole_combat_through_the_api, result_and_cleanup_skills, pl_vs_gm_to_the_first_select,
             test_t11_t12_t13_a_loser_escapes_at_cleanup_with_seal_7_keeps_playing_with_its_black_star]
    if every_event:
        flows += [test_t10_after_a_tied_roll_the_gm_decides_no_battle_skill_or_seal_3_is_taken,
                  sheets_pairing_and_a_broken_off_combat]
    for flow in flows:
        grail = new_grail(client)
        tokens = {**grail["tok"], "table": grail["table_token"]}
        yield grail["session"], tokens, lambda flow=flow, grail=grail: flow(client, grail)


def test_the_view_has_exactly_the_documented_fields(client):
    """docs/rulesets/grail_trpg.md §6 lists every field of `state.ruleset` and §6b of its `combat`, and of the objects
    in them: combats through the API (a whole one with seals and a skill, an escape at cleanup, a result skill and
    cleanup skills, a PL対GM combat), seen by the GM, the table and both factions after every step, carry exactly
    those, none missing and none unnamed."""
    views = []
    for session_id, tokens, play in documented_games(client):
        views += ruleset_views(client, session_id, tokens, play)
    combats = [v["combat"] for v in views if v["combat"]]  # §6b's
    tops = [{**v, "combat": v["combat"] and {}} for v in views]
    assert undocumented(tops, "docs/rulesets/grail_trpg.md", "## 6. `state.ruleset`") == {}
    assert undocumented(combats, "docs/rulesets/grail_trpg.md", "## 6b. `state.ruleset.combat`") == {}


def test_t14_the_phone_offers_only_a_pairing_that_can_start(app, client, grail):
    """Browser review: a faction without characters saw its T-14 pick buttons, and a tap answered 400 with a
    hint about the GM console's panel; an opponent without characters was offered the same way. The phone offers
    the opponents once both factions have characters (and says so until then); declining stays possible. Its own
    characters' heading says there are none yet instead of standing empty."""
    sid = grail["session"]
    phone = open_link(app, next(s["join_url"] for s in grail["seats"] if s["id"] == "s1"))
    assert "キャラクター未登録" in phone.get(f"/s/{sid}/phone").get_data(as_text=True)  # not an empty heading

    def pick_form():
        html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
        return html.split('id="grail-pick"', 1)[1].split("</form>", 1)[0]

    for faction, body in ((None, None), ("s1", {"text": SABER}), ("s2", {"characters": ARCHER})):
        if faction:
            call(client, grail, "set_characters", {"faction": faction, **body})
        form = pick_form()
        assert "今回は戦わない" in form
        if faction != "s2":  # one side or both without characters: no opponent to tap, the reason instead
            assert 'name="opponent"' not in form and "GMが両方の陣営のキャラクターを登録すると" in form
    assert 'name="opponent" value="s2"' in form and "GMが両方の陣営" not in form
    assert "キャラクター未登録" not in phone.get(f"/s/{sid}/phone").get_data(as_text=True)


def imported_public(client, grail):
    """The session's public JSON export imported as a new session (docs/api.md 14): its answer with `tok`."""
    doc = client.get(f"/api/sessions/{grail['session']}/export?format=json", headers=bearer(grail["tok"]["gm"]))
    assert doc.status_code == 200
    r = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=doc.get_json())
    assert r.status_code == 201, r.get_json()
    new = r.get_json()
    new["tok"] = {"gm": new["gm_token"], **{s["id"]: s["token"] for s in new["seats"]}}
    return new


def test_a_public_export_of_a_combat_imports_and_says_what_it_cannot_play_on(app, client, grail):
    """A public export holds what the table saw: characters without their stats (T-9), a combat without its cap
    tracker (T-8). Exported after a combat's setup, it was refused as 'a damaged export' (the fold read the caps it
    does not carry); exported before the setup was answered, the import took, and the second setup answer was a 500
    (KeyError '筋力'). Now it imports, every screen shows it, and what needs the hidden record is refused in words
    (409, nothing changes): the combat can be ended, and once the GM enters the characters again a new one plays."""
    a, b = started(client, grail)
    before_setup = imported_public(client, grail)
    for who, value in (("s1", a), ("s2", b)):
        r = client.post(f"/api/sessions/{before_setup['session']}/prompts/c1-setup/answer",
                        headers=bearer(before_setup["tok"][who]), json={"value": value})
        assert r.status_code == 409, r.get_json()
        assert "の能力値がこのセッションにありません（公開エクスポートから読み込んだため）" in r.get_json()["error"]["ja"]
        assert "are not in this session (it was imported from a public export)" in r.get_json()["error"]["en"]

    set_up(client, grail, a, b)
    after_setup = imported_public(client, grail)
    version = client.get(f"/api/sessions/{after_setup['session']}/state",
                         headers=bearer(after_setup["tok"]["gm"])).get_json()["session"]["version"]
    refused = call(client, after_setup, "next_step", status=409)["error"]
    assert refused["ja"] == ("この戦闘の修正上限の記録がこのセッションにありません（公開エクスポートから読み込んだため）。"
                             "続けるには完全バックアップから読み込むか、「打ち切り」で戦闘を終えてください")
    assert refused["en"] == ("This combat's record of the caps is not in this session (it was imported from a public "
                             "export): import a full backup to play it on, or stop it with 'End combat'")
    gm_view = client.get(f"/api/sessions/{after_setup['session']}/state", headers=bearer(after_setup["tok"]["gm"])).get_json()
    assert gm_view["session"]["version"] == version
    # the GM (and each faction, its own) reads a sheet the import does not hold as null, as docs §6 say ({}, [], "")
    for who in ("gm", "s1"):
        view = client.get(f"/api/sessions/{after_setup['session']}/state", headers=bearer(after_setup["tok"][who])).get_json()
        sheets = [(c["true_name"], c["stats"], c["skills"]) for f in view["ruleset"]["factions"] for c in f["characters"]]
        assert sheets == [(None, None, None)] * 5, who  # アルトリア, 士郎, 大河, エミヤ, 凛
    for url in (after_setup["gm_url"], after_setup["table_url"], after_setup["seats"][0]["join_url"]):
        page = open_link(app, url).get(path_of(url).split("?")[0])
        assert page.status_code == 200 and "アルトリア" in page.get_data(as_text=True), url

    call(client, after_setup, "end_combat")
    call(client, after_setup, "set_characters", {"faction": "s1", "text": SABER})
    call(client, after_setup, "set_characters", {"faction": "s2", "characters": ARCHER})
    call(client, after_setup, "start_combat", {"a": ["s1"], "b": ["s2"]})
    setup = next(p for p in client.get(f"/api/sessions/{after_setup['session']}/state",
                                       headers=bearer(after_setup["tok"]["gm"])).get_json()["prompts"]
                 if p["status"] == "open")
    for who, value in (("s1", a), ("s2", b)):
        answer(client, after_setup, setup["id"], value, who)
    confirm(client, after_setup, setup["id"])
    call(client, after_setup, "next_step")  # the new combat's 1st select opens: its record is whole


def test_a_public_export_with_a_step_pending_refuses_a_skill_in_words(client, grail):
    """A skill or GM modifier used on an imported public export's step computes the step again: a setup revealed and
    not confirmed needs the characters' stats (as seal 4's swap of the main does), a select revealed (or confirmed, in
    its result) the cap tracker. They were 500s (KeyError '筋力', TypeError on the missing caps); they are the 409s
    the answers give, nothing changed."""
    def refused(session, wanted):
        state = client.get(f"/api/sessions/{session['session']}/state", headers=bearer(session["tok"]["gm"]))
        version = state.get_json()["session"]["version"]
        error = call(client, session, "use_skill", {"side": "a", "label": "軍略", "value": 5, "stat": "筋力"},
                     status=409)["error"]
        assert wanted in error["ja"], error
        state = client.get(f"/api/sessions/{session['session']}/state", headers=bearer(session["tok"]["gm"]))
        assert state.get_json()["session"]["version"] == version

    a, b = started(client, grail)
    answer(client, grail, "c1-setup", a, "s1")
    answer(client, grail, "c1-setup", b, "s2")  # revealed, not confirmed
    refused(imported_public(client, grail), "の能力値がこのセッションにありません")
    confirm(client, grail, "c1-setup")
    after_setup = imported_public(client, grail)  # seal 4 swaps the main: the side's 戦力 is computed again
    error = call(client, after_setup, "use_seal", {"faction": "s1", "effect": 4, "with": "s1/士郎"}, status=409)["error"]
    assert "の能力値がこのセッションにありません" in error["ja"], error
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "筋力"}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")  # revealed, not confirmed
    refused(imported_public(client, grail), "この戦闘の修正上限の記録がこのセッションにありません")
    confirm(client, grail, "c1-s1")  # its result: a result skill computes it again
    refused(imported_public(client, grail), "この戦闘の修正上限の記録がこのセッションにありません")


def test_t11_a_faction_out_of_the_war_reads_so_at_the_top_of_its_phone(app, client, grail):
    """Browser review: after the cleanup (T-11) the loser's phone said 敗退 only in the combat's record, some 1,300
    characters down under the stat table; its top read 終了 like the winner's. The phone of a faction that is out
    now says so first, in both languages; the winner's does not."""
    to_final(client, grail)
    rolls = call(client, grail, "roll_battle", {"faces": [100, 1]})["ruleset"]["combat"]["battle"]["rolls"]
    assert rolls[0]["a"]["index"] == rolls[0]["b"]["index"] == 0  # real dice draw nothing from the seed (docs §6b)
    call(client, grail, "finish_combat")
    phones = {s["id"]: open_link(app, s["join_url"]) for s in grail["seats"]}

    def page(seat, lang):
        r = phones[seat].get(f"/s/{grail['session']}/phone?lang={lang}")
        assert r.status_code == 200
        return r.get_data(as_text=True)

    for lang, words in (("ja", "あなたの陣営は聖杯戦争から敗退しました"), ("en", "Your faction is out of the Holy Grail War")):
        loser = page("s2", lang)
        assert words in loser and loser.index(words) < loser.index('id="grail-phone"') + 400, lang
        assert words not in page("s1", lang)
