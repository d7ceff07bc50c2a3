"""Who may open what: tokens, cookies, the join flow and token reissue (principle 3, STACK cookies)."""

from __future__ import annotations

import re

import pytest

from gmtool_testing import ADMIN_KEY, bearer, open_link, path_of

JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
PUBLIC_ENDPOINTS = {"static", "ruleset_static", "home.health", "api.health", "home.manifest"}  # no session data
PARAMS = {"seat_id": "s1", "prompt_id": "p1", "op": "lock", "seq": "1", "name": "start_combat"}


def every_route(app, sid):
    """(method, path, endpoint) for every route of the app that is not public, with sample parameters."""
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint in PUBLIC_ENDPOINTS:
            continue
        path = rule.rule
        for name in rule.arguments:
            value = sid if name == "session_id" else PARAMS[name]
            path = re.sub(rf"<(?:[a-z]+:)?{name}>", value, path)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            out.append((method, path, rule.endpoint))
    return out


def assert_bilingual_refusal(response, status=403):
    """A refusal with a Japanese and an English message."""
    assert response.status_code == status, (response.request.path, response.status_code)
    if response.is_json:
        error = response.get_json()["error"]
        assert JA.search(error["ja"]), error
        assert re.search(r"[A-Za-z]{3}", error["en"]) and not JA.search(error["en"]), error
    else:
        body = response.get_data(as_text=True)
        ja = re.search(r'class="msg-ja"[^>]*>([^<]+)<', body)
        en = re.search(r'class="msg-en"[^>]*>([^<]+)<', body)
        assert ja and JA.search(ja.group(1)), body[:500]
        assert en and re.search(r"[A-Za-z]{3}", en.group(1)) and not JA.search(en.group(1)), body[:500]


@pytest.fixture
def secrets_of(client, created):
    """Texts that must never appear in a refusal: names, tokens, the seed hash."""
    state = client.get(f"/api/sessions/{created['session']}/state", headers=bearer(created["gm_token"])).get_json()
    return ["聖杯戦争テスト", "セイバー", "衛宮", "アーチャー", state["session"]["seed_hash"],
            created["gm_token"], created["table_token"]] + [s["token"] for s in created["seats"]]


def assert_no_data(response, secrets):
    body = response.get_data(as_text=True)
    for secret in secrets:
        assert secret not in body, (response.request.path, secret)


def test_every_route_without_token_is_403_in_japanese_and_english(app, client, created, secrets_of):
    routes = every_route(app, created["session"])
    assert len(routes) >= 30
    failed = []
    for method, path, endpoint in routes:
        response = client.open(path, method=method, json={} if method == "POST" else None)
        try:
            assert_bilingual_refusal(response)
            assert_no_data(response, secrets_of)
        except AssertionError:
            failed.append((method, path, response.status_code))
    assert failed == []


def test_home_without_key_is_403_in_japanese_and_english(client, created, secrets_of):
    response = client.get("/")
    assert_bilingual_refusal(response)
    assert_no_data(response, secrets_of)


def test_every_route_with_a_wrong_token_is_403(app, created, secrets_of):
    sid = created["session"]
    wrong = "A" * 32
    browser = app.test_client()
    for kind in ("gm", "table", "seat"):
        browser.set_cookie(f"gmtool_{kind}_{sid}", wrong)
    browser.set_cookie("gmtool_admin", wrong)
    for method, path, endpoint in every_route(app, sid):
        response = browser.open(path, method=method, json={} if method == "POST" else None,
                                headers=bearer(wrong))
        assert_bilingual_refusal(response)
        assert_no_data(response, secrets_of)


@pytest.mark.parametrize("url", ["/join/{sid}?k=WRONG", "/s/{sid}/gm?k=WRONG", "/s/{sid}/table?k=WRONG", "/?k=WRONG"])
def test_a_link_with_a_wrong_token_is_403_and_sets_no_cookie(client, created, url):
    response = client.get(url.format(sid=created["session"]))
    assert_bilingual_refusal(response)
    assert "Set-Cookie" not in response.headers


def test_join_sets_an_httponly_samesite_lax_cookie_and_redirects_to_the_phone(client, created):
    seat = created["seats"][0]
    response = client.get(path_of(seat["join_url"]))
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/s/{created['session']}/phone")
    assert "?k=" not in response.headers["Location"]
    assert response.headers["Referrer-Policy"] == "no-referrer"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"gmtool_seat_{created['session']}={seat['token']};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # kept off for the plain-HTTP LAN (STACK.md)
    page = client.get(f"/s/{created['session']}/phone")
    assert page.status_code == 200
    assert page.headers["Cache-Control"] == "no-store"
    assert "セイバー" in page.get_data(as_text=True)


@pytest.mark.parametrize("kind, endpoint", [("gm", "gm"), ("table", "table")])
def test_gm_and_table_links_set_cookies_and_redirect(client, created, kind, endpoint):
    response = client.get(path_of(created[f"{kind}_url"]))
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/s/{created['session']}/{endpoint}")
    cookie = response.headers["Set-Cookie"]
    assert f"gmtool_{kind}_{created['session']}=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get(f"/s/{created['session']}/{endpoint}").status_code == 200


def test_seat_cookie_cannot_open_the_gm_console(screens):
    phone = screens.seats["s1"]
    for path in (f"/s/{screens.sid}/gm", f"/s/{screens.sid}/gm/qr", f"/s/{screens.sid}/table"):
        assert_bilingual_refusal(phone.get(path))
    response = phone.post(f"/s/{screens.sid}/gm/counter", data={"seat": "s1", "key": "seals", "delta": "5",
                                                               "csrf": screens.csrf("s1")})
    assert response.status_code == 403


@pytest.mark.parametrize("link", ["/s/{sid}/gm?k={token}", "/s/{sid}/table?k={token}"])
def test_a_seat_token_is_not_a_gm_or_table_token(client, created, link):
    seat = created["seats"][0]
    response = client.get(link.format(sid=created["session"], token=seat["token"]))
    assert_bilingual_refusal(response)


def test_a_seat_token_in_the_gm_cookie_is_refused(app, created):
    browser = app.test_client()
    sid = created["session"]
    browser.set_cookie(f"gmtool_gm_{sid}", created["seats"][0]["token"])
    assert browser.get(f"/s/{sid}/gm").status_code == 403


def test_a_seat_sees_its_own_phone_not_another_seats(screens, client):
    sid = screens.sid
    gm = bearer(screens.token("gm"))
    client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s2", "key": "mana", "value": 11})
    client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s1", "key": "mana", "value": 4})
    page = screens.seats["s1"].get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'data-seat="s1" data-key="mana">4<' in page
    assert 'data-seat="s2" data-key="mana"' not in page
    own = screens.seats["s2"].get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'data-seat="s2" data-key="mana">11<' in own
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(screens.token("s1"))).get_json()
    assert state["viewer"] == {"kind": "seat", "seat": "s1"}
    assert "mana" not in next(s for s in state["seats"] if s["id"] == "s2")["counters"]


def test_a_token_of_one_session_does_not_open_another(app, client, admin, created):
    other = client.post("/api/sessions", headers=admin, json={"title": "別卓", "seats": ["甲", "乙"]}).get_json()
    sid = other["session"]
    for token in (created["gm_token"], created["table_token"], created["seats"][0]["token"]):
        assert client.get(f"/api/sessions/{sid}/state", headers=bearer(token)).status_code == 403
    browser = app.test_client()
    browser.set_cookie(f"gmtool_gm_{sid}", created["gm_token"])
    browser.set_cookie(f"gmtool_seat_{sid}", created["seats"][0]["token"])
    assert browser.get(f"/s/{sid}/gm").status_code == 403
    assert browser.get(f"/s/{sid}/phone").status_code == 403
    assert client.get(f"/join/{sid}?k={created['seats'][0]['token']}").status_code == 403


def test_table_token_cannot_post_anything(app, client, created):
    sid = created["session"]
    table = bearer(created["table_token"])
    gm = bearer(created["gm_token"])
    roll = client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "S1D6"}).get_json()
    client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={"title": "Q", "kind": "choice",
                                                                  "options": ["A", "B"], "seats": ["s1", "s2"]})
    before = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()
    bodies = {
        "counters": {"seat": "s1", "key": "seals", "delta": -1},
        "rolls": {"expr": "1D6"},
        f"rolls/{roll['seq']}/reveal": {},
        "undo": {},
        "seats": {"name": "乱入者"},
        "seats/s1/token": {},
        "scenes": {"title": "第2戦"},
        "prompts": {"title": "Q2", "kind": "choice", "options": ["A", "B"]},
        "prompts/p1/answer": {"value": "A"},
        "prompts/p1/reveal": {},
        "prompts/p1/lock": {},
        "prompts/p1/cancel": {},
        "close": {},
    }
    for path, body in bodies.items():
        response = client.post(f"/api/sessions/{sid}/{path}", headers=table, json=body)
        assert response.status_code == 403, path
        assert_bilingual_refusal(response)
    screen = open_link(app, created["table_url"])
    for method, path, endpoint in every_route(app, sid):
        if method == "POST" and not path.startswith("/api/"):
            assert screen.post(path, data={"csrf": "x"}).status_code == 403, path
    after = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()
    assert after == before


def test_reissue_makes_the_old_token_403_at_once_and_the_new_one_works(app, client, screens):
    sid = screens.sid
    old = screens.token("s2")
    phone = screens.seats["s2"]
    assert phone.get(f"/s/{sid}/phone").status_code == 200
    response = client.post(f"/api/sessions/{sid}/seats/s2/token", headers=bearer(screens.token("gm")))
    assert response.status_code == 200
    new = response.get_json()
    assert new["id"] == "s2" and new["token"] != old and len(new["token"]) >= 22
    assert new["join_url"].endswith(f"/join/{sid}?k={new['token']}")
    assert_bilingual_refusal(client.get(f"/api/sessions/{sid}/state", headers=bearer(old)))
    assert_bilingual_refusal(phone.get(f"/s/{sid}/phone"))
    assert phone.post(f"/s/{sid}/phone/roll", data={"expr": "1D6", "csrf": screens.csrf("s2")}).status_code == 403
    assert client.get(f"/join/{sid}?k={old}").status_code == 403
    assert client.get(f"/api/sessions/{sid}/state", headers=bearer(new["token"])).status_code == 200
    fresh = open_link(app, new["join_url"])
    assert fresh.get(f"/s/{sid}/phone").status_code == 200
    # the other seats are not affected
    assert screens.seats["s1"].get(f"/s/{sid}/phone").status_code == 200


def test_reissued_token_survives_a_restart(app, tmp_path, client, created):
    from gmtool.web import create_app
    sid = created["session"]
    new = client.post(f"/api/sessions/{sid}/seats/s1/token", headers=bearer(created["gm_token"])).get_json()["token"]
    app.extensions["gmtool"].close_all()
    again = create_app({"DATA_DIR": app.config["DATA_DIR"], "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    try:
        browser = again.test_client()
        assert browser.get(f"/api/sessions/{sid}/state", headers=bearer(created["seats"][0]["token"])).status_code == 403
        assert browser.get(f"/api/sessions/{sid}/state", headers=bearer(new)).status_code == 200
    finally:
        again.extensions["gmtool"].close_all()


def test_admin_key_opens_the_gm_console_and_the_home_page(app, created):
    browser = app.test_client()
    response = browser.get(f"/?k={ADMIN_KEY}")
    assert response.status_code == 302
    assert "HttpOnly" in response.headers["Set-Cookie"]
    assert browser.get("/").status_code == 200
    assert browser.get(f"/s/{created['session']}/gm").status_code == 200


def test_api_requires_the_admin_key_to_create_or_list_sessions(client, created):
    assert client.post("/api/sessions", json={"title": "x"}, headers=bearer(created["gm_token"])).status_code == 403
    assert client.get("/api/sessions", headers=bearer(created["gm_token"])).status_code == 403
    # docs/api.md §1: the server key's routes say what they need, with no token, a wrong one or a session's
    sid = created["session"]
    for method, path in (("GET", "/api/sessions"), ("POST", "/api/sessions"), ("POST", "/api/sessions/import"),
                         ("GET", f"/api/sessions/{sid}/salvage")):
        for headers in ({}, bearer("A" * 32), bearer(created["gm_token"])):
            response = client.open(path, method=method, json={} if method == "POST" else None, headers=headers)
            assert response.status_code == 403 and response.get_json()["error"]["en"] == (
                "The server's GM key is required"), (method, path, headers)
    # every other route: a missing or unknown token is 'Missing or invalid token'
    for headers in ({}, bearer("A" * 32)):
        assert client.get(f"/api/sessions/{sid}/state", headers=headers).get_json()["error"]["en"] == (
            "Missing or invalid token")
    listed = client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()["sessions"]
    assert [s["id"] for s in listed] == [created["session"]]


def test_adding_a_seat_is_not_undone_and_its_token_keeps_working(app, client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s1", "key": "karma", "delta": 1})
    seat = client.post(f"/api/sessions/{sid}/seats", headers=gm, json={"name": "キャスター"}).get_json()
    phone = open_link(app, seat["join_url"])
    undone = client.post(f"/api/sessions/{sid}/undo", headers=gm).get_json()["undone"]
    assert "カルマ" in undone["gm_summary"]  # undo skipped the seat and took back the counter change
    assert phone.get(f"/s/{sid}/phone").status_code == 200
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(seat["token"])).get_json()
    assert state["viewer"]["seat"] == seat["id"]


@pytest.mark.parametrize("lang, succession, sugoroku", [("ja", "聖杯サクセション — 2席", "双六聖杯戦争 — 2〜7席"),
                                                       ("en", "Grail Succession — 2 seats", "Sugoroku Holy Grail War — 2–7 seats")])
def test_the_new_session_forms_games_say_how_many_seats_they_take(app, lang, succession, sugoroku):
    """Choosing a game in the home page's form shows the seats it is played with (the form said nothing, and three
    seats for 聖杯サクセション only came back as an error page); the generic ruleset takes any number and says none."""
    browser = app.test_client()
    browser.get(f"/?k={ADMIN_KEY}")
    html = browser.get(f"/?lang={lang}").get_data(as_text=True)
    options = dict(re.findall(r'<option value="(\w+)"[^>]*>([^<]+)</option>', html))
    assert options["succession"] == succession and options["sugoroku"] == sugoroku, options
    assert options["generic"] == ("汎用" if lang == "ja" else "Generic")
