"""Issue 12: a state-changing request repeated with its Idempotency-Key is applied once."""

from __future__ import annotations

import io
import re
import threading
import time

from gmtool_testing import ADMIN_KEY, bearer, open_link

from gmtool.web.common import csrf_for
from gmtool.web.idempotency import Stored


def _session(client, admin):
    r = client.post("/api/sessions", headers=admin, json={"title": "再送", "seats": ["A", "B"], "counters": ["karma"]})
    assert r.status_code == 201
    data = r.get_json()
    return data["session"], data["gm_token"], data["seats"][0]["token"]


def _rolls(client, sid, token):
    return client.get(f"/api/sessions/{sid}/state", headers=bearer(token)).get_json()["rolls"]


def test_a_repeated_key_is_applied_once_and_gets_the_first_answer(client, admin):
    sid, gm, seat = _session(client, admin)
    headers = {**bearer(seat), "Idempotency-Key": "tap-0001-abcdef"}
    first = client.post(f"/api/sessions/{sid}/rolls", headers=headers, json={"expr": "2D6"})
    again = client.post(f"/api/sessions/{sid}/rolls", headers=headers, json={"expr": "2D6"})
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true" and "Idempotent-Replayed" not in first.headers
    assert again.get_json() == first.get_json()
    assert len(_rolls(client, sid, gm)) == 1
    # Another key is another tap; the same key from another token is that token's own request.
    client.post(f"/api/sessions/{sid}/rolls", headers={**bearer(seat), "Idempotency-Key": "tap-0002-abcdef"}, json={"expr": "2D6"})
    other = client.post(f"/api/sessions/{sid}/rolls", headers={**bearer(gm), "Idempotency-Key": "tap-0001-abcdef"}, json={"expr": "1D6"})
    assert "Idempotent-Replayed" not in other.headers
    assert len(_rolls(client, sid, gm)) == 3


def test_a_refusal_is_remembered_too_and_a_bad_key_changes_nothing(client, admin):
    sid, gm, seat = _session(client, admin)
    headers = {**bearer(gm), "Idempotency-Key": "set-karma-0001"}
    body = {"seat": "s1", "key": "karma", "value": -5}
    first = client.post(f"/api/sessions/{sid}/counters", headers=headers, json=body)
    assert 400 <= first.status_code < 500
    again = client.post(f"/api/sessions/{sid}/counters", headers=headers, json=body)
    assert again.status_code == first.status_code and again.headers.get("Idempotent-Replayed") == "true"
    bad = client.post(f"/api/sessions/{sid}/rolls", headers={**bearer(seat), "Idempotency-Key": "短い"}, json={"expr": "2D6"})
    error = bad.get_json()["error"]
    assert bad.status_code == 400 and "Idempotency-Key" in error["ja"] and "Idempotency-Key" in error["en"]
    assert _rolls(client, sid, gm) == []


def test_a_key_repeated_with_another_body_is_refused_and_applies_nothing(client, admin):
    """docs/api.md, Idempotency keys: a key names one request; the same key with a different body is a 422 in both
    languages (it used to get the first request's answer as if it had been applied), and changes nothing."""
    sid, gm, seat = _session(client, admin)
    headers = {**bearer(gm), "Idempotency-Key": "counter-0001"}
    first = client.post(f"/api/sessions/{sid}/counters", headers=headers, json={"seat": "s1", "key": "karma", "delta": 1})
    assert first.status_code == 200
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()
    other = client.post(f"/api/sessions/{sid}/counters", headers=headers, json={"seat": "s2", "key": "karma", "delta": 5})
    assert other.status_code == 422 and "Idempotent-Replayed" not in other.headers
    error = other.get_json()["error"]
    assert error["status"] == 422 and "Idempotency-Key" in error["ja"] and error["en"] == (
        "This Idempotency-Key was used for a different request; send it with a new key")
    assert client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json() == state
    again = client.post(f"/api/sessions/{sid}/counters", headers=headers, json={"seat": "s1", "key": "karma", "delta": 1})
    assert again.get_json() == first.get_json() and again.headers.get("Idempotent-Replayed") == "true"


def test_a_screens_repeated_tap_acts_on_the_page_as_the_first_answer_did(app, created):
    """A tap a screen sends again with its key (live.js: a lost answer, a queued tap) gets the first answer's htmx
    instructions too, not only its body: a refusal goes to the alert region (HX-Retarget), the campaign's next
    session opens (HX-Redirect, a 204 without a body). The repeat had only the body: the page did nothing."""
    gm, sid = open_link(app, created["gm_url"]), created["session"]
    headers = {"X-CSRF-Token": csrf_for(created["gm_token"]), "HX-Request": "true"}
    for key, path, form, header in (("tap-refused-01", "counter", {"seat": "s1", "key": "nope", "delta": "1"}, "HX-Retarget"),
                                    ("tap-continue-01", "continue", {"title": "第2回"}, "HX-Redirect")):
        first, again = (gm.post(f"/s/{sid}/gm/{path}", data=form, headers={**headers, "Idempotency-Key": key})
                        for _ in range(2))
        assert again.headers.get("Idempotent-Replayed") == "true" and again.status_code == first.status_code
        assert first.headers.get(header) and again.headers.get(header) == first.headers[header], (path, again.headers)
        assert again.get_data() == first.get_data()


def test_the_kept_answers_are_held_to_a_byte_budget_oldest_first(app):
    """A client that sends many keyed requests with large answers cannot make the server keep them all: the oldest
    answers go first once their bodies pass the budget, and the newest is always kept."""
    answers = app.extensions["gmtool.idempotency"].__class__(size=100, max_bytes=10_000)
    for n in range(30):
        answers.claim(f"k{n}")
        answers.finish(f"k{n}", Stored(200, b"x" * 1_000, "application/json", {}, "d"))
    assert answers.bytes == sum(len(a[1]) for a in answers.done.values()) <= 10_000
    assert list(answers.done) == [f"k{n}" for n in range(20, 30)]
    answers.claim("big")
    answers.finish("big", Stored(200, b"y" * 50_000, "application/json", {}, "d"))  # over the budget alone: still kept
    assert list(answers.done) == ["big"] and answers.claim("big")[1] == b"y" * 50_000


def test_a_repeat_after_a_restart_is_not_applied_again(app, created):
    """A tap whose answer the killed server never sent is queued by the screen and sent again, with its key, when the
    server is back (live.js). Its key is in the session's file with its action, so the restarted server does not
    apply it a second time (it did: +1 became +2, a roll was rolled twice), even if the phone joined another table
    meanwhile (its scope counted every cookie: the roll was rolled again); another body under that key is a 422."""
    from gmtool.web import create_app
    sid, gm = created["session"], created["gm_token"]
    phone = open_link(app, created["seats"][0]["join_url"])
    cookie = phone.get_cookie(f"gmtool_seat_{sid}")
    api_tap = ({**bearer(gm), "Idempotency-Key": "tap-restart-api"}, {"seat": "s1", "key": "vp", "delta": 1})
    screen_tap = {"X-CSRF-Token": csrf_for(created["seats"][0]["token"]), "HX-Request": "true",
                  "Idempotency-Key": "tap-restart-phone"}
    assert app.test_client().post(f"/api/sessions/{sid}/counters", headers=api_tap[0], json=api_tap[1]).status_code == 200
    assert phone.post(f"/s/{sid}/phone/roll", data={"expr": "2D6"}, headers=screen_tap).status_code == 200
    app.extensions["gmtool"].close_all()  # the server stops; a new one starts on the same folder
    again = create_app({"DATA_DIR": app.config["DATA_DIR"], "ADMIN_KEY": app.config["ADMIN_KEY"], "TESTING": True})
    try:
        client = again.test_client()
        before = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()
        assert before["seats"][0]["counters"]["vp"] == 1 and len(before["rolls"]) == 1
        repeat = client.post(f"/api/sessions/{sid}/counters", headers=api_tap[0], json=api_tap[1])
        assert repeat.status_code == 200 and repeat.headers.get("Idempotent-Replayed") == "true"
        assert repeat.get_json()["replayed"] is True and repeat.get_json()["action"] == 2
        phone = again.test_client()
        phone.set_cookie(f"gmtool_seat_{sid}", cookie.value)
        phone.set_cookie("gmtool_seat_0th3r5e5", "another-table")  # joined another table before the tap went out
        tap = phone.post(f"/s/{sid}/phone/roll", data={"expr": "2D6"}, headers=screen_tap)
        assert tap.status_code == 200 and tap.headers.get("Idempotent-Replayed") == "true"
        assert "記録済み" in tap.get_data(as_text=True)
        other = client.post(f"/api/sessions/{sid}/counters", headers=api_tap[0], json={**api_tap[1], "delta": 5})
        assert other.status_code == 422 and other.get_json()["error"]["en"].startswith("This Idempotency-Key")
        assert client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json() == before
        # ... and the same request once more gets the same answer, now from memory
        assert client.post(f"/api/sessions/{sid}/counters", headers=api_tap[0], json=api_tap[1]).get_json() == repeat.get_json()
    finally:
        again.extensions["gmtool"].close_all()


def test_a_key_sent_by_another_seat_is_that_seats_own_request_and_never_gets_the_first_answer(app, created):
    """docs/api.md, Idempotency keys: a key is bound to its route and the credentials it is sent with. The same key
    from another seat (a copied page, a key seen on the Wi-Fi) is that seat's own request: it never gets the first
    seat's answer (its secret choice and salt), neither from the server's memory nor, after a restart, from the
    session's file; sent without credentials it is refused like any other request."""
    from gmtool.web import create_app
    sid, gm, seats = created["session"], created["gm_token"], created["seats"]
    ask = {"title": "1stセレクト", "kind": "choice", "options": ["筋力", "耐久", "敏捷"]}
    first_prompt, second_prompt = (app.test_client().post(f"/api/sessions/{sid}/prompts", headers=bearer(gm), json=ask)
                                   .get_json()["id"] for _ in range(2))

    def tap(client, seat, key="same-key-0001"):  # a phone's answer (its form, with its cookie)
        return client.post(f"/s/{sid}/phone/prompts/{first_prompt}/answer", data={"value": "筋力"},
                           headers={"X-CSRF-Token": csrf_for(seat["token"]), "HX-Request": "true", "Idempotency-Key": key})

    first = tap(open_link(app, seats[0]["join_url"]), seats[0])
    assert first.status_code == 200 and "筋力" in first.get_data(as_text=True)
    other = tap(open_link(app, seats[1]["join_url"]), seats[1])
    assert other.status_code == 200 and "Idempotent-Replayed" not in other.headers
    anonymous = app.test_client().post(f"/s/{sid}/phone/prompts/{first_prompt}/answer", data={"value": "筋力"},
                                       headers={"HX-Request": "true", "Idempotency-Key": "same-key-0001"})
    assert anonymous.status_code == 403 and "Idempotent-Replayed" not in anonymous.headers
    assert "筋力" not in anonymous.get_data(as_text=True)
    api = [app.test_client().post(f"/api/sessions/{sid}/prompts/{second_prompt}/answer", json={"value": "耐久"},
                                  headers={**bearer(seat["token"]), "Idempotency-Key": "same-key-0002"}) for seat in seats[:2]]
    assert [r.status_code for r in api] == [200, 200] and "Idempotent-Replayed" not in api[1].headers
    assert api[1].get_json()["salt"] != api[0].get_json()["salt"]
    state = app.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()
    assert [sorted(p["commitments"]) for p in state["prompts"]] == [["s1", "s2"], ["s1", "s2"]]
    app.extensions["gmtool"].close_all()  # the server stops; a new one starts on the same folder
    again = create_app({"DATA_DIR": app.config["DATA_DIR"], "ADMIN_KEY": app.config["ADMIN_KEY"], "TESTING": True})
    try:
        third = tap(open_link(again, seats[2]["join_url"]), seats[2])
        assert third.status_code == 200 and "Idempotent-Replayed" not in third.headers
        assert "記録済み" not in third.get_data(as_text=True)
        api = again.test_client().post(f"/api/sessions/{sid}/prompts/{second_prompt}/answer", json={"value": "耐久"},
                                       headers={**bearer(seats[2]["token"]), "Idempotency-Key": "same-key-0002"})
        assert api.status_code == 200 and "replayed" not in api.get_json()
        state = again.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()
        assert [sorted(p["answers"]) for p in state["prompts"]] == [["s1", "s2", "s3"], ["s1", "s2", "s3"]]
    finally:
        again.extensions["gmtool"].close_all()


def _form_key(page: str, form_id: str) -> str:
    """The hidden key field of a page's form."""
    form = page.split(f'id="{form_id}"', 1)[1].split("</form>", 1)[0]
    return re.search(r'name="idempotency_key" value="([0-9a-f]{32})"', form).group(1)


def test_a_plain_form_sent_again_is_applied_once(app, created):
    """A page's plain form (the home page's create and import, the campaign's continue: they post without script, and
    the home page's has no live.js to put the header on) carried no key: the same form sent twice (a double tap, a
    reload that sends a form whose answer was lost) made a second session, or answered the continue's repeat with a
    refusal instead of the session it made. Each carries a hidden key, new with each page; the form's repeat gets
    the first answer (the same redirect), marked replayed, also after a restart, and nothing is made twice. The same
    page's form filled in otherwise (after a refusal) is a request of its own, not a 422."""
    from gmtool.web import create_app
    from gmtool.web.common import csrf_for
    sessions = lambda client: len(client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()["sessions"])  # noqa: E731
    home = app.test_client()
    home.get(f"/?k={ADMIN_KEY}")
    page = home.get("/").get_data(as_text=True)
    key = _form_key(page, "new-session")
    assert key != _form_key(home.get("/").get_data(as_text=True), "new-session")  # a new key with each page
    before = sessions(home)
    form = {"csrf": csrf_for(ADMIN_KEY), "idempotency_key": key, "title": "フォーム卓", "ruleset": "generic",
            "counter": "vp"}
    refused = home.post("/sessions", data={**form, "seats": "\n".join(f"S{n}" for n in range(13))})
    assert refused.status_code == 400
    made, again = (home.post("/sessions", data={**form, "seats": "A\nB"}) for _ in range(2))
    assert made.status_code == again.status_code == 302 and "Idempotent-Replayed" not in made.headers
    assert again.headers["Location"] == made.headers["Location"] and again.headers.get("Idempotent-Replayed") == "true"
    export = home.get(f"/api/sessions/{created['session']}/export?format=json", headers=bearer(ADMIN_KEY)).get_data()
    imports = [home.post("/sessions/import", data={"csrf": csrf_for(ADMIN_KEY), "file": (io.BytesIO(file), "卓.json"),
                                                   "idempotency_key": _form_key(page, "import-session")})
               for file in (export, export, export + b" ")]  # (a new multipart boundary each time, as a browser sends it)
    assert [r.status_code for r in imports] == [303, 303, 303] and imports[1].headers.get("Idempotent-Replayed") == "true"
    assert imports[1].headers["Location"] == imports[0].headers["Location"] != imports[2].headers["Location"]
    gm = open_link(app, created["gm_url"])
    sid = created["session"]
    console_key = _form_key(gm.get(f"/s/{sid}/gm").get_data(as_text=True), "continue-console")
    assert _form_key(gm.get(f"/s/{sid}/gm/campaign").get_data(as_text=True), "continue-form") != console_key
    following = [gm.post(f"/s/{sid}/gm/continue", data={"csrf": csrf_for(created["gm_token"]), "title": "第2回",
                                                        "idempotency_key": console_key}) for _ in range(2)]
    assert [r.status_code for r in following] == [303, 303] and following[1].headers.get("Idempotent-Replayed") == "true"
    assert following[1].headers["Location"] == following[0].headers["Location"]
    assert sessions(home) == before + 4
    app.extensions["gmtool"].close_all()  # the server stops; a new one starts on the same folder
    restarted = create_app({"DATA_DIR": app.config["DATA_DIR"], "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    try:
        home = restarted.test_client()
        home.get(f"/?k={ADMIN_KEY}")
        repeat = home.post("/sessions", data={**form, "seats": "A\nB"})
        assert repeat.headers["Location"] == made.headers["Location"] and repeat.headers.get("Idempotent-Replayed") == "true"
        assert sessions(home) == before + 4
    finally:
        restarted.extensions["gmtool"].close_all()


def test_a_repeat_that_waited_long_for_its_first_is_told_to_come_again_and_applies_nothing(app, created, monkeypatch):
    """A repeat that comes while the first request is still at work waits for the first answer. After WAIT_SECONDS it
    did the work itself, and once the first was done the tap was applied twice (two tabs of a phone sending the same
    queued tap while the server is busy with the session). It is now a 503 in both languages that changes nothing (a
    screen keeps the tap queued and sends it again); sent again, it gets the first answer."""
    from gmtool.web import idempotency
    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.2)
    sid, gm = created["session"], created["gm_token"]
    live = app.extensions["gmtool"].get(sid)
    headers, body = {**bearer(gm), "Idempotency-Key": "slow-tap-0001"}, {"seat": "s1", "key": "vp", "delta": 1}
    answers = []

    def send():
        answers.append(app.test_client().post(f"/api/sessions/{sid}/counters", headers=headers, json=body))
    first, repeat = threading.Thread(target=send), threading.Thread(target=send)
    with live.lock:  # the session is busy: another request holds it
        first.start()
        deadline = time.time() + 5
        while not app.extensions["gmtool.idempotency"].running and time.time() < deadline:
            time.sleep(0.01)
        repeat.start()
        repeat.join(timeout=3)
    first.join(timeout=10)
    repeat.join(timeout=10)
    assert sorted(r.status_code for r in answers) == [200, 503]
    error = next(r for r in answers if r.status_code == 503).get_json()["error"]
    assert error["ja"] and error["en"] == "This request is still being applied; send it again in a moment"
    again = app.test_client().post(f"/api/sessions/{sid}/counters", headers=headers, json=body)
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert _state(app, sid, gm)["seats"][0]["counters"]["vp"] == 1


def _state(app, sid, token):
    return app.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(token)).get_json()
