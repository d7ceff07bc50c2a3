"""No 500 anywhere: bad input of every kind gets a clear 4xx (and nothing unreadable is written)."""

from __future__ import annotations

import pytest

from gmtool_testing import ADMIN_KEY, bearer

HUGE = "あ" * 5000
BAD_VALUES = [None, "", HUGE, "-5", "9" * 5000, -1, 10**30, 1.5, True, [], [1, 2], {"a": 1}, "<script>", "\x00"]
BODY_ENDPOINTS = ["counters", "rolls", "seats", "prompts", "prompts/p1/answer", "prompts/p1/lock",
                  "prompts/p1/extend", "prompts/p1/modifiers", "scenes"]
NOT_OBJECTS = ["not json", "[]", "[1,2,3]", "null", "42", '"str"', "{", '{"a":' + "[" * 500,
               '{"a": 1' + "0" * 5000 + "}"]


def is_4xx(response) -> bool:
    return 400 <= response.status_code < 500


@pytest.fixture
def api(client, created):
    """post(path, body, token=GM) on the created session, which has an open number prompt p1."""
    sid = created["session"]
    gm = bearer(created["gm_token"])
    client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "Q", "kind": "number", "seats": ["s1", "s2"], "resolver": "highest", "min": 0, "max": 10})

    def post(path, body=None, token=None, **kwargs):
        return client.post(f"/api/sessions/{sid}/{path}", headers=bearer(token or created["gm_token"]), json=body,
                           **kwargs)

    def state():
        return client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()

    post.sid, post.created, post.state = sid, created, state
    return post


def reload_ok(app, client, api):
    """The session still folds from its log after a restart (nothing unreadable was written)."""
    app.extensions["gmtool"].close_all()
    response = client.get(f"/api/sessions/{api.sid}/state", headers=bearer(api.created["gm_token"]))
    assert response.status_code == 200


def test_non_object_bodies_are_400_and_write_nothing(client, api):
    before = api.state()
    failed = []
    for path in BODY_ENDPOINTS:
        for data in NOT_OBJECTS:
            response = client.post(f"/api/sessions/{api.sid}/{path}", headers=bearer(api.created["gm_token"]),
                                   data=data, content_type="application/json")
            if response.status_code != 400 or "JSON" not in response.get_json()["error"]["en"]:
                failed.append((path, data[:20], response.status_code))
    assert failed == []
    assert api.state() == before


def test_endpoints_without_a_body_never_crash_on_one(client, api):
    for path in ("undo", "rolls/1/reveal", "seats/s1/token", "close"):
        response = client.post(f"/api/sessions/{api.sid}/{path}", headers=bearer(api.created["gm_token"]),
                               data="[not json", content_type="application/json")
        assert response.status_code < 500, path


def test_counter_fields_fuzz(app, client, api):
    for field in ("seat", "key", "delta", "value", "reason"):
        for bad in BAD_VALUES:
            body = {"seat": "s1", "key": "seals", "delta": 1, field: bad}
            if field == "value":
                body.pop("delta")
            response = api("counters", body)
            # some values are valid: a reason text, a big delta (seals have no upper bound)
            assert response.status_code == 200 or is_4xx(response), (field, bad, response.status_code)
    reload_ok(app, client, api)


def test_roll_fuzz(app, client, api):
    for bad in BAD_VALUES + ["S" + "1D6+" * 60, "1D6" * 100, "choice[" + "a," * 300 + "]", "100D1000!", "1D6>=x"]:
        response = api("rolls", {"expr": bad, "label": bad})
        assert response.status_code in (201, 400, 403), (bad, response.status_code)
    reload_ok(app, client, api)


def test_answer_fuzz(app, client, api):
    for bad in BAD_VALUES:
        response = api("prompts/p1/answer", {"value": bad}, token=api.created["seats"][0]["token"])
        assert response.status_code == 200 or is_4xx(response), (bad, response.status_code)
    reload_ok(app, client, api)


def test_open_prompt_fuzz(app, client, api):
    extra = [{"s1": "not a dict"}, {"s1": {"A": "r"}}, {"gm": {"A": 1}}, ["s1", ["s2"]]]
    for field in ("title", "kind", "options", "seats", "min", "max", "disabled", "resolver", "meta", "gm_submits"):
        for bad in BAD_VALUES + extra:
            body = {"title": "T", "kind": "choice", "options": ["A", "B"], "seats": ["s1"], field: bad}
            response = api("prompts", body)
            assert response.status_code == 201 or is_4xx(response), (field, bad, response.status_code)
    reload_ok(app, client, api)


def test_prompt_ops_fuzz(app, client, api):
    bodies = [{}, {"seats": HUGE, "who": [], "amount": "ten", "label": HUGE, "reason": HUGE},
              {"seats": [{"x": 1}], "who": "s1", "amount": 10**20, "label": "L"}, {"seats": 5, "who": {"a": 1}}]
    for op in ("lock", "reveal", "extend", "cancel", "modifiers", "confirm", "unknown-op", "answer", "%00", "x" * 300):
        for body in bodies:
            for pid in ("p1", "p999", "x" * 300):
                response = api(f"prompts/{pid}/{op}", body)
                ok = pid == "p1" and response.status_code == 200  # lock / reveal / cancel p1 may succeed
                assert ok or is_4xx(response), (pid, op, body, response.status_code)
    reload_ok(app, client, api)


@pytest.mark.parametrize("query", ["as=bogus", "as=", "as=../../etc", "as=GM", "as=seat&lang=xx"])
def test_version_and_events_with_a_bad_viewer_kind_are_403(client, created, query):
    sid = created["session"]
    assert client.get(f"/s/{sid}/version?{query}").status_code == 403
    assert client.get(f"/s/{sid}/events?{query}").status_code == 403


@pytest.mark.parametrize("secret", ["あいう", "é" * 40, "\u200b", "x" * 3000], ids=["ja", "latin1", "zwsp", "long"])
def test_non_ascii_or_huge_keys_and_tokens_are_refused_not_crashed(app, client, created, secret):
    sid = created["session"]
    assert client.get("/", query_string={"k": secret}).status_code == 403
    assert client.get(f"/join/{sid}", query_string={"k": secret}).status_code == 403
    assert client.get(f"/s/{sid}/gm", query_string={"k": secret}).status_code == 403
    header = secret.encode("utf-8").decode("latin-1")  # what a client's raw UTF-8 bytes look like to WSGI
    assert client.get(f"/api/sessions/{sid}/state", headers={"Authorization": f"Bearer {header}"}).status_code == 403
    assert client.post("/api/sessions", headers={"Authorization": f"Bearer {header}"},
                       json={"title": "x"}).status_code == 403
    browser = app.test_client()
    browser.set_cookie("gmtool_admin", secret)
    browser.set_cookie(f"gmtool_gm_{sid}", secret)
    assert browser.get("/").status_code == 403
    assert browser.get(f"/s/{sid}/gm").status_code == 403


@pytest.mark.parametrize("csrf", ["あいう", "é", "x" * 10000], ids=["ja", "latin1", "long"])
def test_non_ascii_csrf_is_refused_not_crashed(client, screens, csrf):
    for headers, data in (({}, {"csrf": csrf}), ({"X-CSRF-Token": csrf.encode("utf-8").decode("latin-1")}, {})):
        response = screens.gm.post(f"/s/{screens.sid}/gm/counter", headers=headers,
                                   data={"seat": "s1", "key": "seals", "delta": "1", **data})
        assert response.status_code == 403


@pytest.mark.parametrize("path, body", [
    ("counters", '{"seat": "s1", "key": "seals", "delta": 1, "reason": "\\ud800"}'),
    ("rolls", '{"expr": "1D6", "label": "\\udfff"}'),
    ("rolls", '{"expr": "choice[\\ud800,b]"}'),
    ("prompts", '{"title": "\\ud800", "kind": "choice", "options": ["A", "B"]}'),
    ("prompts", '{"title": "T", "kind": "choice", "options": ["\\ud800", "B"]}'),
    ("prompts/p1/answer", '{"value": "\\ud800"}'),
    ("seats", '{"name": "\\ud800"}'),
    ("scenes", '{"title": "\\ud800"}'),
], ids=["counter", "roll-label", "roll-choice", "prompt-title", "prompt-option", "answer", "seat", "scene"])
def test_lone_surrogates_in_json_are_400_not_500(app, client, api, path, body):
    """JSON may escape a lone surrogate (\\ud800); such text cannot be stored as UTF-8 and must be refused."""
    token = api.created["seats"][0]["token"] if path.endswith("answer") else None
    response = client.post(f"/api/sessions/{api.sid}/{path}", headers=bearer(token or api.created["gm_token"]),
                           data=body, content_type="application/json")
    assert response.status_code == 400, response.get_data(as_text=True)[:200]
    reload_ok(app, client, api)


def test_huge_body_is_413(client, created):
    response = client.post(f"/api/sessions/{created['session']}/counters", headers=bearer(created["gm_token"]),
                           data='{"seat": "s1", "key": "seals", "delta": 1, "reason": "' + "x" * 300_000 + '"}',
                           content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"]["en"] == "Request too large"
    # docs/api.md, Limits: the form limits are the screens' (test_gm_forms_fuzz); under /api/ no form is read, so a
    # form of 201 fields is the 400 of any form there (the page said 413 for every route)
    response = client.post(f"/api/sessions/{created['session']}/counters", headers=bearer(created["gm_token"]),
                           data={f"f{i}": "x" for i in range(201)})
    assert response.status_code == 400 and response.get_json()["error"]["en"] == "Send a JSON object"
    # but the server key's cookie without the CSRF header has its `csrf` field looked for: a multipart form is read
    assert client.get(f"/?k={ADMIN_KEY}").status_code == 302
    response = client.post("/api/sessions", data={f"f{i}": "x" for i in range(201)}, content_type="multipart/form-data")
    assert response.status_code == 413 and response.get_json()["error"]["en"] == "Request too large"


def test_gm_forms_fuzz(screens):
    form = {"seat": HUGE, "key": "", "delta": "x", "value": "-", "expr": HUGE, "title": "", "kind": "???",
            "options": "\n\n", "seats": "s9", "min": "a", "who": "", "amount": "", "label": ""}
    for path in ("counter", "roll", "prompts", "prompts/p1/modifiers", "prompts/p1/answer", "rolls/99/reveal",
                 "seats", "seats/s9/reissue", "prompts/p1/bogus", "prompts/p1/extend"):
        for data in ({}, form):
            response = screens.gm.post(f"/s/{screens.sid}/gm/{path}", data={**data, "csrf": screens.csrf("gm")},
                                       headers={"HX-Request": "true"})
            assert is_4xx(response), (path, response.status_code)
            assert "flash" in response.get_data(as_text=True)
    # docs/api.md, Limits: a screen's form of more than 200 fields: multipart is refused by Werkzeug (413), URL-encoded
    # (as the screens send) by the field count (400)
    many = {**{f"f{i}": "x" for i in range(200)}, "csrf": screens.csrf("gm")}
    for content_type, status, words in (("multipart/form-data", 413, "送信内容が大きすぎます"),
                                        ("application/x-www-form-urlencoded", 400, "項目が多すぎます（200個まで）")):
        response = screens.gm.post(f"/s/{screens.sid}/gm/counter", headers={"HX-Request": "true"}, data=many,
                                   content_type=content_type)
        assert response.status_code == status and words in response.get_data(as_text=True), content_type


def test_phone_forms_fuzz(screens):
    phone = screens.seats["s1"]
    for path, data in (("roll", {"expr": HUGE}), ("roll", {"expr": "S1D6"}), ("roll", {}),
                       ("prompts/p1/answer", {"value": "x"}), ("prompts/p1/answer", {"multi": "1"})):
        response = phone.post(f"/s/{screens.sid}/phone/{path}", data={**data, "csrf": screens.csrf("s1")})
        assert is_4xx(response), (path, response.status_code)


@pytest.mark.parametrize("path", ["/s/nosuch/gm", "/s/%2e%2e/gm", "/s/" + "a" * 300 + "/table", "/join/x y",
                                  "/api/sessions/" + "z" * 300 + "/state", "/nope", "/s/{sid}/gm/nope"],
                         ids=["unknown", "dots", "long", "space", "long-api", "nope", "gm-nope"])
def test_unknown_paths_are_404(client, created, path):
    response = client.get(path.format(sid=created["session"]), headers=bearer(ADMIN_KEY))
    assert response.status_code == 404


def test_wrong_method_is_405(client, created):
    assert client.get(f"/api/sessions/{created['session']}/counters").status_code == 405
    assert client.delete(f"/api/sessions/{created['session']}/state").status_code == 405


def test_log_query_fuzz(client, created):
    gm = bearer(created["gm_token"])
    for query in ("after=-5", "limit=0", "limit=-1", "limit=" + "9" * 50, "after=abc", "after=1e3", "limit=NaN",
                  "after=" + "9" * 5000):
        response = client.get(f"/api/sessions/{created['session']}/log?{query}", headers=gm)
        assert response.status_code in (200, 400), query


def test_create_session_fuzz(client, admin):
    for body in ({"title": HUGE}, {"title": "t", "seats": [None, 5, {"name": ""}]}, {"title": "t", "seats": [[1]]},
                 {"title": "t", "counters": [None]}, {"title": "t", "counters": [{"name": "x", "min": "a"}]},
                 {"title": "t", "counters": [{"name": "x" * 30}]}, {"title": "t", "private": 5},
                 {"title": "t", "ruleset": ["generic"]}, {"title": "t", "seats": [{"name": "a", "faction": HUGE}]}):
        response = client.post("/api/sessions", headers=admin, json=body)
        assert response.status_code == 201 or is_4xx(response), (body, response.status_code)
