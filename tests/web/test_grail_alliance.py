"""T-3 in an alliance: 2 skills and 2 宝具 per faction, each allied faction declaring its own from its own phone
(issue 16: one ally can no longer use the other's), so an allied side of two factions has 4 of each."""

from __future__ import annotations

import re
from html import unescape

from gmtool_testing import bearer, open_link


def post(client, sid, path, token, body=None, status=200):
    response = client.post(f"/api/sessions/{sid}/{path}", headers=bearer(token), json=body or {})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def alliance(client, admin, seats):
    """A grail session of `seats` with three factions' characters, in a combat of s1 and s3 allied against s2:
    (session id, GM token, seat tokens)."""
    created = client.post("/api/sessions", headers=admin, json={"title": "同盟戦", "ruleset": "grail_trpg", "seats": seats}).get_json()
    sid, gm = created["session"], created["gm_token"]
    seat = {s["id"]: s["token"] for s in created["seats"]}
    for faction, line in (("s1", "セイバー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60"),
                          ("s2", "アーチャー 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50"),
                          ("s3", "キャスター 筋力10 耐久20 敏捷30 魔力70 幸運30 宝具40")):
        post(client, sid, "actions/set_characters", gm, {"faction": faction, "text": line})
    post(client, sid, "actions/start_combat", gm, {"a": ["s1", "s3"], "b": ["s2"]})
    return sid, gm, seat


def test_each_allied_faction_has_its_own_two_skills_and_a_lone_faction_keeps_two(client, admin):
    sid, gm, seat = alliance(client, admin, ["セイバー陣営", "アーチャー陣営", "キャスター陣営"])
    post(client, sid, "prompts/c1-setup/answer", seat["s1"], {"value": {"main": "s1/セイバー", "sub": "s3/キャスター"}})
    post(client, sid, "prompts/c1-setup/answer", seat["s2"], {"value": {"main": "s2/アーチャー"}})
    post(client, sid, "prompts/c1-setup/answer", seat["s3"], {"value": {}})  # the ally answers for itself
    post(client, sid, "prompts/c1-setup/confirm", gm)
    post(client, sid, "actions/next_step", gm)
    three = [{"label": f"スキル{i}", "value": 5, "kind": "skill"} for i in range(3)]
    refused = post(client, sid, "prompts/c1-s1/answer", seat["s2"], {"value": {"stat": "筋力", "mods": three}},
                   status=400)
    assert "2 skills already used" in refused["error"]["en"] and "T-3" in refused["error"]["en"]
    refused = post(client, sid, "prompts/c1-s1/answer", seat["s1"], {"value": {"stat": "筋力", "mods": three}},
                   status=400)  # the side's first faction cannot use its ally's two
    assert "per faction" in refused["error"]["en"] and "T-3" in refused["error"]["en"]
    post(client, sid, "prompts/c1-s1/answer", seat["s1"], {"value": {"stat": "筋力", "mods": three[:2]}})
    # the ally's typed-in skill on 耐久 while its side chose 筋力: no effect, and the note says the side chose it
    post(client, sid, "prompts/c1-s1/answer", seat["s3"], {"value": {"mods": [three[0], {**three[1], "stat": "耐久"}]}})
    post(client, sid, "prompts/c1-s1/answer", seat["s2"], {"value": {"stat": "耐久"}})
    post(client, sid, "prompts/c1-s1/confirm", gm)
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()
    combat = state["ruleset"]["combat"]
    assert combat["uses_left"] == {"a": {"skill": 0, "np": 4}, "b": {"skill": 2, "np": 2}}
    assert combat["uses_left_by_faction"]["s1"]["skill"] == combat["uses_left_by_faction"]["s3"]["skill"] == 0
    assert "〈スキル1〉は耐久への効果ですが、選んだのは筋力なので効果なし" in [n["ja"] for n in combat["selects"][0]["result"]["notes"]]


def test_t13_in_its_combat_only_the_mains_faction_uses_seal_5(client, admin):
    """T-13: only the main's faction uses Command Seals (3 also the sub's), seal 5 (MP+3, any time) included: the
    ally whose character is the sub gets 400 in both languages and keeps its seal and MP; the main's faction may;
    before the setup is confirmed an allied faction is not yet known to be the main's (409, as for 3 and 4), and a
    faction outside the combat uses it as any time."""
    sid, gm, seat = alliance(client, admin, ["セイバー陣営", "アーチャー陣営", "キャスター陣営", "ランサー陣営"])
    early = post(client, sid, "actions/use_seal", gm, {"faction": "s3", "effect": 5}, status=409)["error"]
    assert (early["ja"], early["en"]) == ("令呪5はセットアップの確定後に使います（メインが決まってから）",
                                          "Seal 5 is used once the setup is confirmed (when the main is known)")
    post(client, sid, "actions/use_seal", gm, {"faction": "s2", "effect": 5})  # a lone side's faction is the main's
    for faction in ("s1", "s3"):  # each ally has a 大河: the side's two others, read apart by their factions
        post(client, sid, "actions/set_characters", gm,
             {"faction": faction, "text": "大河 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10", "append": True})
    post(client, sid, "prompts/c1-setup/answer", seat["s1"], {"value": {"main": "s1/セイバー", "sub": "s3/キャスター",
                                                                       "others": ["s3/大河", "s1/大河"]}})
    post(client, sid, "prompts/c1-setup/answer", seat["s2"], {"value": {"main": "s2/アーチャー"}})
    post(client, sid, "prompts/c1-setup/answer", seat["s3"], {"value": {}})
    post(client, sid, "prompts/c1-setup/confirm", gm)
    # seal 4's swap list on the console: the two 大河 differ only by their factions, which each says (a place on the
    # sheet is for two of one faction alike)
    console = open_link(client.application, f"/s/{sid}/gm?k={gm}")
    row = re.search(r'<form [^>]*id="grail-seal-s1".*?</form>', console.get(f"/s/{sid}/gm?lang=ja").get_data(as_text=True), re.S)
    options = re.findall(r'<option value="([^"]+)">([^<]*)</option>', re.search(r'<select name="with".*?</select>', row.group(0), re.S).group(0))
    assert [(v, unescape(text)) for v, text in options] == [
        ("s3/キャスター", "サブ キャスター(キャスター)"), ("s3/大河", "その他 大河 · キャスター陣営"),
        ("s1/大河", "その他 大河 · セイバー陣営")]
    refused = post(client, sid, "actions/use_seal", gm, {"faction": "s3", "effect": 5}, status=400)["error"]
    assert (refused["ja"], refused["en"]) == ("令呪5はメインの陣営のみ使えます", "Seal 5 is only for the faction of the main")
    post(client, sid, "actions/use_seal", gm, {"faction": "s1", "effect": 5})
    post(client, sid, "actions/use_seal", gm, {"faction": "s4", "effect": 5})  # not in this combat: any time
    seats = {s["id"]: s["counters"] for s in client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["seats"]}
    assert [(seats[f]["seals"], seats[f]["mp"]) for f in ("s1", "s2", "s3", "s4")] == [(2, 3), (2, 3), (3, 0), (2, 3)]
