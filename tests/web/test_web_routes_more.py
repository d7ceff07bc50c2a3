"""Routes added with the rulesets and long sessions: one prompt, ruleset actions, old secret rolls."""

from __future__ import annotations

from gmtool_testing import bearer


def test_one_prompt_route_follows_the_secrecy_rules(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    seat1, seat2 = (bearer(s["token"]) for s in created["seats"][:2])
    client.post(f"/api/sessions/{sid}/prompts", headers=gm,
                json={"title": "Q", "kind": "text", "seats": ["s1", "s2"]})
    client.post(f"/api/sessions/{sid}/prompts/p1/answer", headers=seat1, json={"value": "ONEPROMPT-SECRET"})
    mine = client.get(f"/api/sessions/{sid}/prompts/p1", headers=seat1).get_json()
    assert mine["your_answer"]["value"] == "ONEPROMPT-SECRET"
    for token in (seat2, bearer(created["table_token"])):
        response = client.get(f"/api/sessions/{sid}/prompts/p1", headers=token)
        assert response.status_code == 200
        assert "ONEPROMPT-SECRET" not in response.get_data(as_text=True)
    assert client.get(f"/api/sessions/{sid}/prompts/p9", headers=gm).status_code == 404


def test_state_lists_open_prompts_and_the_latest_finished_ones_only(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    for i in range(14):
        client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={"title": f"Q{i}", "kind": "number",
                                                                      "seats": ["s1"]})
        if i != 2:
            client.post(f"/api/sessions/{sid}/prompts/p{i + 1}/reveal", headers=gm)
    listed = [p["id"] for p in client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["prompts"]]
    assert "p3" in listed  # still open: always listed
    assert listed[:3] == ["p14", "p13", "p12"]
    assert len(listed) == 11  # the open one and the ten latest finished
    old = client.get(f"/api/sessions/{sid}/prompts/p1", headers=gm).get_json()
    assert old["status"] == "revealed"


def test_generic_ruleset_has_no_actions_and_the_table_may_not_act(client, created):
    sid = created["session"]
    response = client.post(f"/api/sessions/{sid}/actions/start_combat", headers=bearer(created["gm_token"]), json={})
    assert response.status_code == 404
    assert "no action" in response.get_json()["error"]["en"]
    response = client.post(f"/api/sessions/{sid}/actions/start_combat", headers=bearer(created["table_token"]),
                           json={})
    assert response.status_code == 403


def test_a_secret_roll_older_than_the_recent_list_can_still_be_revealed(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    secret = client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "S1D6", "label": "OLDSECRET"})
    for _ in range(55):
        client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "1D6"})
    seq = secret.get_json()["seq"]
    table = bearer(created["table_token"])
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=table).get_data(as_text=True)
    assert "OLDSECRET" not in log
    assert client.post(f"/api/sessions/{sid}/rolls/{seq}/reveal", headers=gm).status_code == 200
    log = client.get(f"/api/sessions/{sid}/log?limit=1000", headers=table).get_data(as_text=True)
    assert "OLDSECRET" in log
    assert client.post(f"/api/sessions/{sid}/rolls/{seq}/reveal", headers=gm).status_code == 409


def test_a_closed_session_refuses_prompt_operations_and_undo_but_reissues_links(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s1", "key": "karma", "delta": 1})
    client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={"title": "Q", "kind": "number", "seats": ["s1"]})
    assert client.post(f"/api/sessions/{sid}/close", headers=gm).status_code == 200
    before = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()
    for path in ("prompts/p1/lock", "prompts/p1/reveal", "prompts/p1/cancel", "undo"):
        response = client.post(f"/api/sessions/{sid}/{path}", headers=gm, json={})
        assert response.status_code == 409, path
        assert "closed" in response.get_json()["error"]["en"]
    after = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()
    assert after == before
    # A lost phone can still be given a new link to read the finished session.
    assert client.post(f"/api/sessions/{sid}/seats/s1/token", headers=gm).status_code == 200


def test_a_counter_key_must_be_a_plain_identifier(client, admin):
    response = client.post("/api/sessions", headers=admin, json={
        "title": "T", "seats": ["A"], "counters": [{"key": "x\"'><b>", "name": "X"}]})
    assert response.status_code == 400
    assert "counter key" in response.get_json()["error"]["en"]
    assert client.get("/api/sessions", headers=admin).get_json()["sessions"] == []
