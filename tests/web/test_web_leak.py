"""THE LEAK TEST (principle 3): a secret never leaves the server before its reveal.

A seat submits a unique marker; every page, fragment and API response any other viewer can
fetch is searched for the marker and the salt. The same for a secret GM roll.
"""

from __future__ import annotations

import pytest

from gmtool_testing import ADMIN_KEY, bearer

MARKER = "ZQXMARKER7731"
ROLL_MARKER = "ROLLMARKER4402"
SKIP = {"static", "live.events", "home.health", "api.health"}  # the stream never ends; health has no data


def get_pages(app, sid):
    """Every GET URL of a session that takes no other parameter (pages, fragments, API, exports)."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" in rule.methods and rule.endpoint not in SKIP and set(rule.arguments) <= {"session_id"}:
            paths.append(rule.rule.replace("<session_id>", sid))
    return sorted(paths)


def everything(app, screens, who):
    """The text of every response `who` ('gm', 'table' or a seat id) can fetch, with its path."""
    client = screens.gm if who == "gm" else screens.table if who == "table" else screens.seats[who]
    auth = bearer(screens.token(who))
    out = []
    for path in get_pages(app, screens.sid):
        for query in ("", "?lang=en", "?as=" + ("seat" if who.startswith("s") else who)):
            for headers in ({}, {"HX-Request": "true"}):
                response = client.get(path + query, headers={**auth, **headers})
                assert response.status_code != 500
                out.append((f"{path}{query} {headers}", response.get_data(as_text=True)))
    return out


def assert_absent(app, screens, who, *secrets):
    for where, body in everything(app, screens, who):
        for secret in secrets:
            assert secret not in body, f"{secret!r} leaked to {who} at {where}"


def assert_present(app, screens, who, *wanted):
    """Each (secret, paths) of `wanted` is in what `who` fetches at each of its paths (all fetched once)."""
    fetched = everything(app, screens, who)
    for secret, paths in wanted:
        seen = {where.split(" ")[0] for where, body in fetched if secret in body}
        for path in paths:
            assert path.format(sid=screens.sid) in seen, (who, secret, path, sorted(seen))


def open_text_prompt(client, screens, gm_submits):
    response = client.post(f"/api/sessions/{screens.sid}/prompts", headers=bearer(screens.token("gm")),
                           json={"title": "秘話", "kind": "text", "seats": ["s1", "s2"], "gm_submits": gm_submits})
    assert response.status_code == 201
    return response.get_json()["id"]


def answer(client, screens, who, pid, value):
    response = client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/answer", headers=bearer(screens.token(who)),
                           json={"value": value})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_the_pages_searched_include_every_screen(app, screens):
    pages = get_pages(app, screens.sid)
    for path in ("/s/{sid}/gm", "/s/{sid}/table", "/s/{sid}/phone", "/s/{sid}/verify", "/api/sessions/{sid}/state",
                 "/api/sessions/{sid}/log"):
        assert path.format(sid=screens.sid) in pages


@pytest.mark.parametrize("gm_submits", [False, True])
def test_unrevealed_answer_never_leaves_the_server(app, client, screens, gm_submits):
    pid = open_text_prompt(client, screens, gm_submits)
    mine = answer(client, screens, "s1", pid, MARKER)
    salt = mine["salt"]
    assert mine["value"] == MARKER and len(salt) >= 16
    blind = ["s2", "s3", "table"] + (["gm"] if gm_submits else [])
    for who in blind:
        assert_absent(app, screens, who, MARKER, salt)
    # Not vacuous: the author sees its own answer on its phone, state and log ...
    assert_present(app, screens, "s1", (MARKER, ["/s/{sid}/phone", "/api/sessions/{sid}/state",
                                                  "/api/sessions/{sid}/log"]))
    # ... and a GM who is not a combatant sees it on the console.
    if not gm_submits:
        assert_present(app, screens, "gm", (MARKER, ["/s/{sid}/gm", "/api/sessions/{sid}/state"]))
    # The commitment is public from the start.
    table = client.get(f"/s/{screens.sid}/table", headers=bearer(screens.token("table")))
    assert mine["commitment"] in screens.table.get(f"/s/{screens.sid}/table").get_data(as_text=True)
    assert table.status_code == 403  # a bearer header does not open a page: pages need the cookie

    # Everyone answers: the reveal is automatic, and now everyone sees value and salt.
    answer(client, screens, "s2", pid, "別の答え")
    if gm_submits:
        assert_absent(app, screens, "table", MARKER, salt)  # still waiting for the GM
        screens.gm.post(f"/s/{screens.sid}/gm/prompts/{pid}/answer", data={"value": "GMの答え"},
                        headers={"X-CSRF-Token": screens.csrf("gm")})
    for who in ("table", "s2", "s3", "gm"):
        public = ["/api/sessions/{sid}/state", "/s/{sid}/verify"]
        assert_present(app, screens, who, (MARKER, public + (["/s/{sid}/table"] if who == "table" else [])),
                       (salt, public))


def test_early_reveal_publishes_and_changed_answer_keeps_old_value_hidden(app, client, screens):
    pid = open_text_prompt(client, screens, gm_submits=True)
    first = answer(client, screens, "s1", pid, "OLDVALUE5512")
    answer(client, screens, "s1", pid, MARKER)
    for who in ("table", "s2", "gm"):
        assert_absent(app, screens, who, MARKER, "OLDVALUE5512", first["salt"])
    # docs/api.md §14 (review: the GM's full backup held the seats' answers while the GM had still to answer): no
    # full backup while the GM is a respondent of an unrevealed prompt, on the API or the console's 「バックアップ」
    backups = ((client, f"/api/sessions/{screens.sid}/export?format=json&full=1", bearer(screens.token("gm"))),
               (screens.gm, f"/s/{screens.sid}/gm/export/download?format=json&full=1", {}))
    for browser, url, auth in backups:
        refused = browser.get(url, headers=auth)
        body = refused.get_data(as_text=True)
        assert refused.status_code == 409 and MARKER not in body and first["salt"] not in body, body
        assert "完全バックアップ" in body and "秘話" in body and "full backup" in body, body
    response = client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/reveal", headers=bearer(screens.token("gm")),
                           json={"reason": "時間切れ"})
    assert response.status_code == 200
    assert_present(app, screens, "table", (MARKER, ["/s/{sid}/table", "/api/sessions/{sid}/state"]))
    for browser, url, auth in backups:  # revealed: the backup is made again, answers and all
        made = browser.get(url, headers=auth)
        assert made.status_code == 200 and MARKER in made.get_data(as_text=True)


def test_cancelled_answer_stays_hidden_forever(app, client, screens):
    pid = open_text_prompt(client, screens, gm_submits=False)
    sent = answer(client, screens, "s1", pid, MARKER)
    salt = sent["salt"]
    response = client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/cancel", headers=bearer(screens.token("gm")),
                           json={"reason": "やり直し"})
    assert response.status_code == 200
    for who in ("table", "s2", "s3", "gm"):
        assert_absent(app, screens, who, MARKER, salt)
    assert client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/reveal",
                       headers=bearer(screens.token("gm"))).status_code == 409
    for who in ("table", "s2", "gm"):
        assert_absent(app, screens, who, MARKER, salt)
    # docs/api.md §14: nor in the GM's full backup (it held the answer's value and salt); its commitment stays, and
    # the backup restores the session
    gm = bearer(screens.token("gm"))
    backups = [client.get(f"/api/sessions/{screens.sid}/export?format=json&full=1", headers=gm),
               screens.gm.get(f"/s/{screens.sid}/gm/export/download?format=json&full=1")]
    for backup in backups:
        body = backup.get_data(as_text=True)
        assert backup.status_code == 200 and MARKER not in body and salt not in body and sent["commitment"] in body
    restored = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=backups[0].get_json())
    assert restored.status_code == 201, restored.get_json()


def test_secret_gm_roll_is_hidden_until_revealed(app, client, screens):
    gm = bearer(screens.token("gm"))
    response = client.post(f"/api/sessions/{screens.sid}/rolls", headers=gm,
                           json={"expr": f"Schoice[{ROLL_MARKER},{ROLL_MARKER}]", "label": "伏せた判定"})
    assert response.status_code == 201
    roll = response.get_json()
    assert roll["choice"] == ROLL_MARKER and roll["secret"] is True
    for who in ("table", "s1", "s2", "s3"):
        assert_absent(app, screens, who, ROLL_MARKER, "伏せた判定")
    assert_present(app, screens, "gm", (ROLL_MARKER, ["/s/{sid}/gm", "/api/sessions/{sid}/state",
                                                      "/api/sessions/{sid}/log"]))
    revealed = screens.gm.post(f"/s/{screens.sid}/gm/rolls/{roll['seq']}/reveal",
                               headers={"X-CSRF-Token": screens.csrf("gm"), "HX-Request": "true"})
    assert revealed.status_code == 200
    public = ["/api/sessions/{sid}/state", "/api/sessions/{sid}/log"]
    for who, paths in (("table", public + ["/s/{sid}/table"]), ("s1", public), ("s2", ["/s/{sid}/phone"])):
        assert_present(app, screens, who, (ROLL_MARKER, paths))


def test_undone_secret_roll_never_leaks_through_the_undo_line(app, client, screens):
    gm = bearer(screens.token("gm"))
    client.post(f"/api/sessions/{screens.sid}/rolls", headers=gm, json={"expr": f"Schoice[{ROLL_MARKER},{ROLL_MARKER}]"})
    assert client.post(f"/api/sessions/{screens.sid}/undo", headers=gm).status_code == 200
    for who in ("table", "s1"):
        assert_absent(app, screens, who, ROLL_MARKER)
    assert_present(app, screens, "gm", (ROLL_MARKER, ["/api/sessions/{sid}/log"]))


def test_private_counter_never_reaches_other_screens(app, client, screens):
    gm = bearer(screens.token("gm"))
    client.post(f"/api/sessions/{screens.sid}/counters", headers=gm,
                json={"seat": "s1", "key": "mana", "value": 7, "reason": "PRIVREASON88"})
    for who in ("table", "s2"):
        assert_absent(app, screens, who, "PRIVREASON88", 'data-seat="s1" data-key="mana"')
    assert_present(app, screens, "s1", ("PRIVREASON88", ["/api/sessions/{sid}/log"]))


def test_an_event_of_an_undeclared_type_reaches_the_gm_alone(app, client, screens):
    """DESIGN 3, docs/api.md §6: an event whose type the session's rules do not declare is shown to the GM only (its log
    line the bare type). No request writes one and an import refuses one (undone or not, docs/api.md §14): it can only
    be in a session's own file (a game package updated since, whose newer version no longer has the type), as an
    undone action (an event of it that was folded would not load). Planted there, every page, fragment, API answer and
    export of the session is searched for it as the table and each seat, and the GM's log has it."""
    import sqlite3

    gm = bearer(screens.token("gm"))
    client.post(f"/api/sessions/{screens.sid}/scenes", headers=gm, json={"title": "UNDECLARED-SCENE"})
    assert client.post(f"/api/sessions/{screens.sid}/undo", headers=gm).status_code == 200
    manager = app.extensions["gmtool"]
    manager.close_all()  # the file as a server that stopped left it
    with sqlite3.connect(manager.path_of(screens.sid)) as db:
        db.execute("UPDATE events SET type = 'homebrew.secret', data = ? WHERE type = 'scene.marked'",
                   (f'{{"x": "{MARKER}"}}',))
    db.close()
    for who in ("table", *screens.seats):
        assert_absent(app, screens, who, MARKER, "homebrew.secret")
    log = client.get(f"/api/sessions/{screens.sid}/log?limit=1000&lang=en", headers=gm).get_json()
    assert [(e["data"], e["text"]) for e in log["events"] if e["type"] == "homebrew.secret"] == [
        ({"x": MARKER}, "homebrew.secret")]


@pytest.mark.parametrize("undone", [True, False], ids=["undone", "folded"])
def test_an_import_refuses_an_event_type_the_game_does_not_have(client, screens, undone):
    """docs/api.md §14: an import refuses an event that neither core nor the session's ruleset writes, with a 400 in
    both languages that names it, and writes nothing. An undone one was taken (an undone action is not folded, and
    only the fold looked at the type); the same event not undone was refused, as a damaged export."""
    gm = bearer(screens.token("gm"))
    client.post(f"/api/sessions/{screens.sid}/scenes", headers=gm, json={"title": "UNDECLARED-SCENE"})
    if undone:
        assert client.post(f"/api/sessions/{screens.sid}/undo", headers=gm).status_code == 200
    backup = client.get(f"/api/sessions/{screens.sid}/export?format=json&full=1", headers=gm).get_json()
    marked = next(e for e in backup["events"] if e["type"] == "scene.marked")
    marked["type"], marked["data"] = "homebrew.secret", {"x": MARKER}
    before = client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()
    made = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=backup)
    assert made.status_code == 400, made.get_json()
    error = made.get_json()["error"]
    assert error["en"] == (f"The events cannot be replayed (a damaged export: event {marked['seq']} [homebrew.secret]: "
                           "an event type this game does not have)")
    assert error["ja"] == f"イベントを読み込めません（壊れたエクスポートです: イベント番号{marked['seq']}: このゲームにない種類のイベントです）"
    assert client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json() == before


def test_live_stream_carries_only_a_version_notice(app, client, screens):
    """Principle 8: the SSE stream says "changed, version N"; each screen re-fetches its own view."""
    app.config["HEARTBEAT"] = 0.05
    pid = open_text_prompt(client, screens, gm_submits=True)
    salt = answer(client, screens, "s1", pid, MARKER)["salt"]
    for who, client_of in (("table", screens.table), ("s2", screens.seats["s2"]), ("gm", screens.gm)):
        kind = "seat" if who.startswith("s") else who
        response = client_of.get(f"/s/{screens.sid}/events?as={kind}", buffered=False)
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        chunks = iter(response.response)
        text = "".join(c.decode() if isinstance(c, bytes) else c for c in (next(chunks), next(chunks)))
        response.close()
        assert "data:" in text
        assert MARKER not in text and salt not in text
    assert client.get(f"/s/{screens.sid}/events?as=table").status_code == 403  # no cookie, no stream
    from gmtool.web.live import open_streams
    with app.app_context():
        assert open_streams() == 0  # a closed stream gives its slot back
