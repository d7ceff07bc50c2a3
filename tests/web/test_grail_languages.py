"""Grail (T) screens in English show the ruleset's own words in English: stats (筋力 → STR), a skill or NP's kind
and its 〈 〉 / 【 】 brackets, lists joined with ", ". The character sheets are typed in Japanese, so
tests/meta/test_languages.py counts these words as the users' own and cannot see them; this test runs the
ruleset's demo (a combat with its setup revealed) into its 1st select and looks for them on every English screen."""

from __future__ import annotations

import re

from gmtool_testing import ADMIN_KEY, ApiTable, bearer, open_link

from gmtool.rulesets.grail_trpg.probe import demo, to_final_result
from gmtool.web.common import csrf_for

RULESET_JAPANESE = re.compile(r"(?:筋力|耐久|敏捷|幸運)\s*\d|<th>(?:筋力|耐久|敏捷|魔力|幸運|宝具)</th>|スキル|[【】〈〉、]")


def visible(html: str) -> str:
    """The page without scripts, styles, <code> (ids) and <textarea> (typed sheets)."""
    return re.sub(r"<(script|style|code|textarea)\b.*?</\1>", " ", html, flags=re.S)


def test_the_demo_combat_reads_in_english(app, client):
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "Demo", "ruleset": "grail_trpg", "seats": ["Saber side / Emiya", "Lancer side / Kayneth"]})
    data = r.get_json()
    table = ApiTable(client, data)
    demo(table)  # the setup answered and revealed; on to the 1st select, both sides choosing 筋力, a GM skill on side a
    a, b = table.seats[:2]
    table.post("/prompts/c1-setup/confirm")
    table.act("next_step")
    table.answer("c1-s1", {"stat": "筋力"}, a)
    table.answer("c1-s1", {"stat": "筋力"}, b)
    table.act("use_skill", {"side": "a", "label": "軍略", "value": 10, "kind": "skill", "stat": "筋力"})
    sid = data["session"]
    screens = {"gm": (data["gm_url"], f"/s/{sid}/gm"), "table": (data["table_url"], f"/s/{sid}/table"),
               **{s["id"]: (s["join_url"], f"/s/{sid}/phone") for s in data["seats"]}}
    leaks, pages = [], {}
    for who, (link, path) in screens.items():
        for lang in ("en", "ja"):
            html = open_link(app, link).get(f"{path}?lang={lang}").get_data(as_text=True)
            pages[who, lang] = html
        leaks += [f"{who}: {m.string[max(0, m.start() - 40):m.end() + 30]!r}"
                  for m in RULESET_JAPANESE.finditer(visible(pages[who, "en"]))]
    assert not leaks, leaks[:10]
    assert "STR 40" in pages["s1", "en"] and "筋力40" in pages["s1", "ja"]  # a character's stats, in each language
    # counts with their unit, named as the win rate's term names them (T-9): the table read 真名看破 0 / "seen 0"
    assert "真名看破 0体" in pages["table", "ja"] and "true names seen 0" in pages["table", "en"]
    assert "非戦闘 1体" in pages["s1", "ja"] and "Non-combat characters 1" in pages["s1", "en"]  # a line of its own, as Main and Sub
    # terms written as the game's others: the side that declared the combat, in the combat table's header beside Cast,
    # Main and Sub, read "declarer"; a side's uses left read "Advantage 0 / Disadvantage 0 · skills left 2 · NP left 2"
    for who in ("gm", "table", "s1"):
        assert re.search(r'<th data-side="a">[^<]*<small>Declarer</small></th>', pages[who, "en"]), who
        assert re.search(r"· Skills left \d+ · NP left \d+", re.sub(r"<[^>]+>|\s+", " ", pages[who, "en"]).replace("  ", " ")), who


def test_the_battle_roll_takes_real_dice_from_the_gm_console(app, client):
    """Under the dice reading "real dice" the console's battle-roll step carries a field for the faces rolled at the
    table (browser review: the button sent none and the server asked for faces there was nowhere to type)."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "実ダイス", "ruleset": "grail_trpg", "seats": ["Saber side / Emiya", "Lancer side / Kayneth"]}).get_json()
    table = ApiTable(client, data)
    demo(table)
    a, b = table.seats[:2]
    to_final_result(table)  # next is the battle roll
    table.post("/readings", {"key": "dice", "value": "entered"})
    sid = data["session"]
    gm = open_link(app, data["gm_url"])
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    form = re.search(r'<form[^>]*actions/next_step[^>]*>.*?</form>', html, flags=re.S)
    assert form and 'name="faces"' in form.group(0), "no field for the real dice"
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', html) or re.search(r'"X-CSRF-Token": "([^"]+)"', html)
    response = gm.post(f"/s/{sid}/gm/actions/next_step", data={"faces": "30 90"},
                       headers={"X-CSRF-Token": csrf.group(1), "HX-Request": "true"} if csrf else {"HX-Request": "true"})
    assert response.status_code < 400, response.get_data(as_text=True)[:300]
    log = client.get(f"/api/sessions/{sid}/log?lang=ja", headers=bearer(data["gm_token"])).get_json()["events"]
    rolled = next(e["text"] for e in reversed(log) if e["type"] == "grail.battle_rolled")
    assert rolled.startswith("［実ダイス］") and "1d100(30)" in rolled and "1d100(90)" in rolled, rolled
    # the next step (cleanup, T-11) rolls nothing: no field for faces it would refuse as left over (400)
    html = gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert re.search(r'id="grail-next"', html) and not re.search(
        r'<form[^>]*actions/next_step[^>]*>.*?</form>', html, flags=re.S), "a faces field on a step without dice"


def test_english_answers_and_breakdowns_use_english_brackets(app, client):
    """Browser review: an answer shown in English kept the Japanese 〈〉 around a skill's name (〈心眼〉); English
    uses <心眼>, as the English breakdowns and notes do (docs/rulesets/grail_trpg.md: `<千里眼> win rate +10`)."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "Demo", "ruleset": "grail_trpg", "seats": ["Saber side / Emiya", "Lancer side / Kayneth"]})
    data = r.get_json()
    table = ApiTable(client, data)
    demo(table)  # a's sheet: 直感 (select, chosen stat +10); b's: 心眼 (select, the opponent's 筋力 -20)
    a, b = table.seats[:2]
    table.post("/prompts/c1-setup/confirm")
    table.act("next_step")
    table.answer("c1-s1", {"stat": "筋力", "skills": [f"{a}/セイバー:2"], "mods": [{"label": "怪力", "value": 5}]}, a)
    table.answer("c1-s1", {"stat": "耐久", "skills": [f"{b}/ランサー:1"], "seal": {"effect": 2}}, b)
    sid = data["session"]
    screens = {"gm": (data["gm_url"], f"/s/{sid}/gm"), "table": (data["table_url"], f"/s/{sid}/table"),
               **{s["id"]: (s["join_url"], f"/s/{sid}/phone") for s in data["seats"]}}
    for who, (link, path) in screens.items():
        en = visible(open_link(app, link).get(f"{path}?lang=en").get_data(as_text=True))
        assert "<直感>" in en.replace("&lt;", "<").replace("&gt;", ">"), who
        brackets = [en[max(0, m.start() - 60):m.end() + 20] for m in re.finditer("[〈〉]", en)]
        assert not brackets, (who, brackets[:5])
        ja = open_link(app, link).get(f"{path}?lang=ja").get_data(as_text=True)
        assert "〈直感〉" in ja, who
    log = client.get(f"/api/sessions/{sid}/log?lang=en", headers=bearer(data["gm_token"])).get_json()["events"]
    assert not [e["text"] for e in log if re.search("[〈〉]", e["text"])]
    table.post("/prompts/c1-s1/confirm")
    md = client.get(f"/api/sessions/{sid}/export?format=markdown&lang=en",
                    headers=bearer(data["gm_token"])).get_data(as_text=True).replace("&lt;", "<")
    assert "| STR <直感> <怪力> |" in md and "| END <心眼> <Command Seal 2 +30> |" in md  # the answers in the appendix
    assert not [line for line in md.splitlines() if re.search("[〈〉]", line)]


def test_the_start_form_waits_for_characters_and_its_errors_name_the_console(app, client):
    """A fresh session's 戦闘開始 form: a faction with no characters cannot be ticked and the button is disabled with
    its reason until two can fight (it answered "a側の陣営を選んでください" or "…（set_characters）", an API id);
    the errors name side A and the console's section, in each language."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "初回", "ruleset": "grail_trpg", "seats": ["セイバー陣営", "ランサー陣営"]}).get_json()
    sid, table = data["session"], ApiTable(client, data)
    gm = open_link(app, data["gm_url"])

    def start_form(lang):
        html = gm.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True)
        return re.search(r'<form[^>]*id="grail-start".*?</form>', html, flags=re.S).group(0)

    form = start_form("ja")
    assert re.search(r'<button class="primary" disabled', form) and "キャラクター・真名看破」で2つ以上" in form
    assert len(re.findall(r'type="checkbox"[^>]* disabled', form)) == 4  # both factions on both sides
    assert "Characters and true names" in start_form("en")
    headers = {"X-CSRF-Token": csrf_for(data["gm_token"]), "HX-Request": "true"}
    for lang, side_a, none_yet in (("ja", "A側の陣営を選んで", "「キャラクター・真名看破」で登録"),
                                   ("en", "side A", "under &#39;Characters and true names&#39;")):
        r = gm.post(f"/s/{sid}/gm/actions/start_combat?lang={lang}", data={"b": "s2"}, headers=headers)
        assert r.status_code == 400 and side_a in r.get_data(as_text=True), r.get_data(as_text=True)[-600:]
        r = gm.post(f"/s/{sid}/gm/actions/start_combat?lang={lang}", data={"a": "s1", "b": "s2"}, headers=headers)
        body = r.get_data(as_text=True)
        assert r.status_code == 400 and none_yet in body and "set_characters" not in body, body[-600:]
    for seat, name in zip(table.seats, ("アルトリア", "ディルムッド")):
        table.act("set_characters", {"faction": seat, "text": f"{name} 筋力40 耐久40 敏捷40 魔力40 幸運40 宝具40"})
    form = start_form("ja")
    assert "disabled" not in form and "2つ以上" not in form


def seen_labels(app, data: dict, faction: str) -> list[str]:
    """The words of the console's 真名看破 boxes under `faction` (what the GM reads beside each)."""
    html = open_link(app, data["gm_url"]).get(f"/s/{data['session']}/gm?lang=ja").get_data(as_text=True)
    form = re.search(rf'id="grail-faction-{faction}".*?</form>', html, re.S).group(0)
    return [" ".join(re.sub(r"<[^>]+>", " ", label).split())
            for label in re.findall(r'name="seen"[^>]*>(.*?)</label>', form, re.S)]


def test_the_seen_through_boxes_name_each_characters_faction_when_there_are_several(app, client):
    """T-9 真名看破 on the console: each enemy character's box read its name only, so two enemy factions' セイバー were
    two boxes saying セイバー (their ids, s2/セイバー and s3/セイバー, are nobody's words). With characters in two
    enemy factions or more, each box names its faction too; with one, its name is enough."""
    stats = "筋力40 耐久40 敏捷40 魔力40 幸運40 宝具40"
    for seats, want in ((["遠坂陣営", "間桐陣営", "衛宮陣営"], ["セイバー 間桐陣営", "セイバー 衛宮陣営"]),
                        (["遠坂陣営", "間桐陣営"], ["セイバー"])):
        data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
            "title": "真名看破", "ruleset": "grail_trpg", "seats": seats}).get_json()
        table = ApiTable(client, data)
        for seat in table.seats:
            table.act("set_characters", {"faction": seat, "text": f"セイバー {stats}"})
        assert seen_labels(app, data, "s1") == want


def test_the_gms_threat_side_reads_in_every_language(app, client):
    """Play-through of PL対GM in English: the GM's side read 「GM（脅威）」 on every English screen (the combat's title,
    its columns, the results, the log), a name stored in Japanese only. It is "GM" in both languages."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "Threat", "ruleset": "grail_trpg", "seats": ["Rider side / Shinji"]}).get_json()
    table = ApiTable(client, data)
    table.act("set_characters", {"faction": "s1", "text": "Rider 筋力40 耐久30 敏捷60 魔力40 幸運30 宝具50"})
    table.act("set_characters", {"faction": "gm", "text": "Berserker 筋力90 耐久80 敏捷50 魔力30 幸運20 宝具60"})
    table.act("start_combat", {"a": ["s1"], "b": "gm"})
    sid = data["session"]
    for link, path in ((data["gm_url"], f"/s/{sid}/gm"), (data["table_url"], f"/s/{sid}/table"),
                       (data["seats"][0]["join_url"], f"/s/{sid}/phone")):
        page = open_link(app, link)
        english = visible(page.get(f"{path}?lang=en").get_data(as_text=True))
        assert "脅威" not in english, (path, english[english.index("脅威") - 80:english.index("脅威") + 20])
        assert re.search(r"Rider side\s+vs\s+GM", re.sub(r"<[^>]+>", " ", english)), path
    log = client.get(f"/api/sessions/{sid}/log?lang=en", headers=bearer(data["gm_token"])).get_json()["events"]
    assert not [e["text"] for e in log if "脅威" in e["text"]]


def test_the_start_forms_hint_names_the_gm_side_as_its_box_does(app, client):
    """Play-through (T-2 PL対GM): the hint under 戦闘開始 said to register characters under 「GM（脅威）」 and pick it, but
    the start form's box for that side reads "GM" (as every screen names it since 8148371): it says where to enter them
    and what to pick, in both languages."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "Threat", "ruleset": "grail_trpg", "seats": ["ライダー陣営"]}).get_json()
    table = ApiTable(client, data)
    table.act("set_characters", {"faction": "s1", "text": "ライダー 筋力40 耐久30 敏捷60 魔力40 幸運30 宝具50"})
    table.act("set_characters", {"faction": "gm", "text": "バーサーカー 筋力90 耐久80 敏捷50 魔力30 幸運20 宝具60"})
    console = open_link(app, data["gm_url"])
    for lang, pick in (("ja", "ここで「GM」を選びます"), ("en", "then pick 'GM' here")):
        html = console.get(f"/s/{data['session']}/gm?lang={lang}").get_data(as_text=True)
        start = re.search(r'id="grail-start".*?</form>', html, re.S).group(0)
        assert re.search(r'name="b" value="gm"[^>]*>\s*GM\s*<', start) and pick in start.replace("&#39;", "'"), lang


def test_a_win_rate_terms_operator_keeps_to_its_number(app, client):
    """Screenshot at 390 px: a phone's first win-rate term broke between "×" and "20" in English ("(advantages 1 −
    disadvantages 1) ×" / "20 → 0"). An operator (×, ÷, →) is joined to what follows it by a no-break space, so the
    term wraps before "× 20", never inside it; on every screen, in both languages."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "Demo", "ruleset": "grail_trpg", "seats": ["Saber side / Emiya", "Lancer side / Kayneth"]})
    data = r.get_json()
    table = ApiTable(client, data)
    demo(table)
    to_final_result(table)
    sid = data["session"]
    for link, path in [(data["table_url"], f"/s/{sid}/table"), (data["seats"][0]["join_url"], f"/s/{sid}/phone")]:
        for lang, first in (("en", "disadvantages"), ("ja", "劣位")):
            html = open_link(app, link).get(f"{path}?lang={lang}").get_data(as_text=True)
            terms = re.findall(r'<span class="g-term">(.*?)</span>', html)
            assert any(first in t for t in terms), (path, lang)
            assert all(re.search(r"[×÷→] ", t) is None for t in terms), (path, lang)
            assert any(re.search(r"×\u00a020 →\u00a0<b>", t) for t in terms), (path, lang)
