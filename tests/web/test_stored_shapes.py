"""A session file holds what the gmtool that wrote it accepted: one saved before a check was added (or an import
from anyone) may hold a field in a shape today's requests refuse. Loading and showing it must never be a 500."""

from __future__ import annotations

import json
import re

import pytest
from gmtool_testing import ADMIN_KEY, bearer, open_link

from gmtool.store import Store
from gmtool.web import create_app


def session_with(tmp_path, drafts_of):
    """A generic session made through the API, then `drafts_of(created)` appended straight into its file as one
    action (as the gmtool that wrote it stored them), and a fresh app started on the folder."""
    data = tmp_path / "sessions"
    app = create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    r = app.test_client().post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "古い卓", "seats": ["セイバー", "アーチャー"], "counters": ["seals", "karma"]})
    assert r.status_code == 201, r.get_json()
    created = r.get_json()
    app.extensions["gmtool"].close_all()
    store = Store(data / f"{created['session']}.sqlite")
    try:
        store.append("gm", drafts_of(created))
    finally:
        store.close()
    return create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True}), created


def every_screen(app, created) -> dict:
    """Every page, fragment-free read and export of the session for each viewer: {what: response}."""
    sid, out = created["session"], {}
    for name, url, page in (("gm", created["gm_url"], "gm"), ("table", created["table_url"], "table"),
                            ("phone", created["seats"][0]["join_url"], "phone")):
        out[name] = open_link(app, url).get(f"/s/{sid}/{page}")
    api = app.test_client()
    for token in (created["gm_token"], created["table_token"], created["seats"][0]["token"]):
        for path in ("state", "log?limit=1000", "log?limit=1000&lang=en", "prompts/p1"):
            out[f"{path} {token[:4]}"] = api.get(f"/api/sessions/{sid}/{path}", headers=bearer(token))
    for fmt in ("markdown", "text", "html", "json"):
        out[fmt] = api.get(f"/api/sessions/{sid}/export?format={fmt}", headers=bearer(created["gm_token"]))
    return out


@pytest.mark.parametrize("reason, ja, en", [
    (["呪い"], "", ""), ({"x": 1}, "", ""), (True, "", ""), (None, "", ""), (5, "5", "5"),
    ({"ja": ["呪い"], "en": "cursed"}, "", "cursed"), ("呪い", "呪い", "呪い")])
def test_an_old_prompt_whose_disabled_reason_is_not_text_is_shown_and_still_refused(tmp_path, reason, ja, en):
    """A prompt.opened saved before 'disabled' reasons were checked (914c0fd) holds any JSON as a reason: a list made
    every phone page of the session a 500. The phone, table and GM console, the API's reads and the exports answer
    200; the option stays disabled on the phone and refused by the API in both languages, its reason shown when it
    is words (a number as its text), none for a list, an object or true (a player reads no code)."""
    app, created = session_with(tmp_path, lambda c: [("prompt.opened", {
        "id": "p1", "title": "どこへ行く？", "kind": "choice", "options": ["a", "b"], "seats": ["s1", "s2"],
        "gm_submits": False, "min": None, "max": None, "disabled": {"s1": {"a": reason}}, "resolver": None,
        "meta": {}})])
    screens = every_screen(app, created)
    for what, response in screens.items():
        assert response.status_code == 200, (what, response.get_data(as_text=True)[-500:])
    phone = screens["phone"].get_data(as_text=True)
    button = re.search(r'<button name="value" value="a"[^>]*>(.*?)</button>', phone, re.S)
    assert " disabled" in button.group(0) and ("<small" in button.group(1)) == bool(ja)
    assert "[" not in button.group(0) and "True" not in button.group(0) and "None" not in button.group(0)
    seat = bearer(created["seats"][0]["token"])
    api = app.test_client()
    r = api.post(f"/api/sessions/{created['session']}/prompts/p1/answer", headers=seat, json={"value": "a"})
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (
        "「a」は選べません" + (f"：{ja}" if ja else ""), "'a' is not allowed" + (f": {en}" if en else ""))
    r = api.post(f"/api/sessions/{created['session']}/prompts/p1/answer", headers=seat, json={"value": "b"})
    assert r.status_code == 200, r.get_json()
    app.extensions["gmtool"].close_all()


def exported(client, created) -> dict:
    """The session's public JSON export, as a document to edit."""
    return json.loads(client.get(f"/api/sessions/{created['session']}/export?format=json",
                                 headers=bearer(created["gm_token"])).get_data(as_text=True))


def imported(client, doc):
    return client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), data=json.dumps(doc),
                       content_type="application/json")


@pytest.mark.parametrize("where, value", [
    (("session.created", "seats", 0, "id"), True), (("session.created", "seats", 1, "id"), -5),
    (("session.created", "counters", 0, "key"), 5), (("seat.added", "id"), True), (("seat.added", "id"), ""),
    (("seat.added", "id"), "a/b"), (("seat.added", "id"), "x" * 25), (("seat.added", "id"), "s1"),
    (("prompt.opened", "resolver"), ["sum"]), (("prompt.opened", "kind"), {"x": 1}), (("prompt.opened", "id"), 7),
    (("prompt.opened", "min"), "x"), (("prompt.opened", "max"), {"a": 1}), (("prompt.opened", "max"), [2])])
def test_a_crafted_import_whose_ids_are_not_text_is_refused(app, client, where, value):
    """An export from anyone: a seat id true or -5 passed the import's check as its text ("True"), was kept as it
    was, and that seat's phone was a 500 (its link names the seat as text); a prompt's resolver given as a list
    made its reveal a 500. Ids, kinds and resolvers that are not text are refused with a 400 and leave nothing; so is
    a seat added with an id no request can name ("", "a/b": the token route and the counters answered 404) or
    with a seat's id already taken (it replaced that seat, A vanished), as the session's own seats are; and a
    prompt whose min or max is no whole number (every answer to it was a 500)."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "卓", "seats": ["A", "B"],
                                                                     "counters": ["seals", "karma"]})
    created = r.get_json()
    sid, gm = created["session"], bearer(created["gm_token"])
    assert client.post(f"/api/sessions/{sid}/seats", headers=gm, json={"name": "C"}).status_code == 201
    assert client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "合計", "kind": "number", "seats": ["s1", "s2"], "resolver": "sum"}).status_code == 201
    doc = exported(client, created)
    event = next(e for e in doc["events"] if e["type"] == where[0])
    parent = event["data"]
    for key in where[1:-1]:
        parent = parent[key]
    parent[where[-1]] = value
    sessions = client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()
    r = imported(client, doc)
    assert r.status_code == 400 and r.get_json()["error"]["ja"] and r.get_json()["error"]["en"], r.get_json()
    assert client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json() == sessions
    assert imported(client, exported(client, created)).status_code == 201  # the file as it was imports
