"""Secrets in the rulesets' own views: a PL対GM select and a sugoroku face-down card stay hidden
from everyone but their author until the reveal, on every page and API response."""

from __future__ import annotations

from gmtool_testing import bearer, open_link

MARK = "LEAKMARK7731"


def post(client, sid, path, token, body=None, status=200):
    response = client.post(f"/api/sessions/{sid}/{path}", headers=bearer(token), json=body or {})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def everything_seen_by(app, client, created, who, token, kind):
    """Every page and API response one viewer can fetch, as one text."""
    sid = created["session"]
    texts = [client.get(f"/api/sessions/{sid}/{path}", headers=bearer(token)).get_data(as_text=True)
             for path in ("state", "log?limit=1000")]
    url = {"gm": created["gm_url"], "table": created["table_url"]}.get(who) or next(
        s["join_url"] for s in created["seats"] if s["id"] == who)
    browser = open_link(app, url)
    page = {"gm": f"/s/{sid}/gm", "table": f"/s/{sid}/table", "seat": f"/s/{sid}/phone"}[kind]
    for headers in ({}, {"HX-Request": "true"}):
        texts.append(browser.get(page, headers=headers).get_data(as_text=True))
    texts.append(browser.get(f"/s/{sid}/verify").get_data(as_text=True))
    return "\n".join(texts)


def test_a_select_against_the_gm_stays_secret_from_the_gm_table_and_other_phones(app, client, admin):
    created = client.post("/api/sessions", headers=admin, json={
        "title": "PL対GM", "ruleset": "grail_trpg", "seats": ["セイバー陣営", "見物人"]}).get_json()
    sid, gm = created["session"], created["gm_token"]
    seat = {s["id"]: s["token"] for s in created["seats"]}
    post(client, sid, "actions/set_characters", gm, {"faction": "s1", "text": "セイバー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60"})
    post(client, sid, "actions/set_characters", gm, {"faction": "gm", "text": "怪物 筋力60 耐久60 敏捷30 魔力30 幸運10 宝具40"})
    post(client, sid, "actions/start_combat", gm, {"a": ["s1"], "b": "gm"})
    post(client, sid, "prompts/c1-setup/answer", seat["s1"], {"value": {"main": "s1/セイバー"}})
    post(client, sid, "prompts/c1-setup/answer", gm, {"value": {"main": "gm/怪物"}})
    post(client, sid, "prompts/c1-setup/confirm", gm)
    post(client, sid, "actions/next_step", gm)
    mine = post(client, sid, "prompts/c1-s1/answer", seat["s1"],
                {"value": {"stat": "筋力", "mods": [{"label": MARK, "value": 5, "kind": "skill"}]}})
    for who, token, kind in (("gm", gm, "gm"), ("table", created["table_token"], "table"), ("s2", seat["s2"], "seat")):
        seen = everything_seen_by(app, client, created, who, token, kind)
        assert MARK not in seen and mine["salt"] not in seen, who
    assert MARK in everything_seen_by(app, client, created, "s1", seat["s1"], "seat")
    post(client, sid, "prompts/c1-s1/answer", gm, {"value": {"stat": "耐久"}})  # the GM answers: reveal
    assert MARK in everything_seen_by(app, client, created, "table", created["table_token"], "table")
