"""A session file holds what the gmtool that wrote it accepted: one saved before a check was added (or an import
from anyone) may hold a field in a shape today's requests refuse. Loading and showing it must never be a 500."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from gmtool_testing import ADMIN_KEY, bearer, open_link, path_of

from gmtool.cli import main
from gmtool.core import commands
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


def two_sessions_one_edited(tmp_path, edit):
    """Two generic sessions made through the API (a counter changed in the first), the app stopped, the first's file
    changed by `edit(path)` (sqlite3 on the file the real store wrote, or its bytes), and a fresh app on the folder."""
    data = tmp_path / "sessions"
    app = create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    made = []
    for title in ("壊れた卓", "無事な卓"):
        r = app.test_client().post("/api/sessions", headers=bearer(ADMIN_KEY), json={
            "title": title, "seats": ["セイバー", "アーチャー"], "counters": ["seals", "karma"]})
        assert r.status_code == 201, r.get_json()
        made.append(r.get_json())
    r = app.test_client().post(f"/api/sessions/{made[0]['session']}/counters", headers=bearer(made[0]["gm_token"]),
                               json={"seat": "s1", "key": "seals", "delta": -1})
    assert r.status_code == 200, r.get_json()
    app.extensions["gmtool"].close_all()
    shutil.copy(data / f"{made[0]['session']}.sqlite", tmp_path / "backup.sqlite")
    edit(data / f"{made[0]['session']}.sqlite")
    return create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True}), made


def unknown_counter(path):
    """The counter.changed of the file names a counter the session does not define (hand-edited with sqlite3)."""
    with sqlite3.connect(path) as db:
        assert db.execute("UPDATE events SET data = replace(data, '\"seals\"', '\"hp\"') "
                          "WHERE type = 'counter.changed'").rowcount == 1
    db.close()


def unknown_counter_mid_log(path):
    """As unknown_counter, with two sound events after the one that does not replay (a longer log, as a demo session's
    event 3 edited): the failed load stops reading the log part-way."""
    with sqlite3.connect(path) as db:
        for _ in range(2):
            db.execute("INSERT INTO events (seq, ts, actor, action, type, data) SELECT seq + 1, ts, actor, action + 1, "
                       "type, data FROM events WHERE seq = (SELECT MAX(seq) FROM events)")
        assert db.execute("UPDATE events SET data = replace(data, '\"seals\"', '\"hp\"') "
                          "WHERE seq = 2 AND type = 'counter.changed'").rowcount == 1
    db.close()


def not_a_database(path):
    """The file's bytes are no SQLite database (a disk error, a file of another program)."""
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"not a database " * 300)


def ruleset_not_installed(path):
    """The session's game is one this gmtool does not have (a third-party ruleset uninstalled since)."""
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = 'gone_game' WHERE key = 'ruleset'")
    db.close()


@pytest.mark.parametrize("edit, why_ja, why_en", [
    (unknown_counter, "2番目のイベント（counter.changed）を再生できません", "event 2 (counter.changed) does not replay"),
    (not_a_database, "SQLiteのデータベースとして読めません", "it is not a readable SQLite database"),
    (ruleset_not_installed, "ルール「gone_game」がこのgmtoolに入っていません", "its ruleset 'gone_game' is not installed here")])
def test_a_stored_session_that_does_not_load_is_a_clear_409_and_the_others_go_on(tmp_path, capsys, edit, why_ja,
                                                                                  why_en):
    """A file in the data folder that does not load (a counter.changed for a counter the session does not define,
    hand-edited or from another program; bytes that are no database) made every page of the session a 500, and the
    counter's value was shown to every seat (no definition said it was private). Now the holder of the server's GM
    key is told which session, what is wrong and what to do (409, both languages) on the page and through the API;
    anyone else only that it cannot be opened (no title, no log); the home page and the API's list name it damaged
    beside the other session, which works; nothing is written to the file, and once the GM puts a backup back the same
    server opens it."""
    app, (bad, good) = two_sessions_one_edited(tmp_path, edit)
    sid, path = bad["session"], tmp_path / "sessions" / f"{bad['session']}.sqlite"
    before = path.read_bytes()
    gm_browser = app.test_client()
    assert gm_browser.get(f"/?k={ADMIN_KEY}").status_code == 302
    page = gm_browser.get(f"/s/{sid}/gm")
    text = page.get_data(as_text=True)
    assert page.status_code == 409, text[-500:]
    for words in (why_ja, why_en, f"{sid}.sqlite", "バックアップから戻す", "put a backup of"):
        assert words in text.replace("&#39;", "'"), words
    if edit is unknown_counter:
        assert "「壊れた卓」" in text
    r = app.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(ADMIN_KEY))
    assert r.status_code == 409 and why_en in r.get_json()["error"]["en"] and why_ja in r.get_json()["error"]["ja"]
    public = {"status": 409, "ja": "このセッションの保存ファイルが壊れていて開けません。GMに知らせてください",
              "en": "This session's saved file is damaged and cannot be opened; tell the GM"}
    for token in (bad["gm_token"], bad["table_token"], bad["seats"][0]["token"], ""):
        for route in ("state", "log", "export?format=json"):
            r = app.test_client().get(f"/api/sessions/{sid}/{route}", headers=bearer(token) if token else {})
            assert r.status_code == 409 and {k: r.get_json()["error"][k] for k in public} == public, r.get_json()
    for url in (bad["table_url"], bad["seats"][1]["join_url"]):
        r = app.test_client().get(path_of(url))
        shown = r.get_data(as_text=True)
        assert r.status_code == 409 and public["ja"] in shown and "壊れた卓" not in shown and why_en not in shown
    home = gm_browser.get("/").get_data(as_text=True)
    items = re.findall(r"<li>.*?</li>", home, re.S)
    assert len(items) == 2 and "保存ファイルが壊れていて開けません" in next(i for i in items if f"/s/{sid}/gm" in i)
    assert "damaged" not in next(i for i in items if f"/s/{good['session']}/gm" in i)
    listed = app.test_client().get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()["sessions"]
    assert {s["id"]: s["damaged"] for s in listed} == {sid: True, good["session"]: False}
    r = app.test_client().post(f"/api/sessions/{good['session']}/counters", headers=bearer(good["gm_token"]),
                               json={"seat": "s1", "key": "seals", "delta": -1})
    assert r.status_code == 200 and r.get_json()["value"] == 2
    assert path.read_bytes() == before
    not_a_database(path)  # (its WAL and SHM go too)
    shutil.copy(tmp_path / "backup.sqlite", path)  # the GM puts the backup back: the same server opens it
    r = app.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(bad["gm_token"]))
    assert r.status_code == 200 and r.get_json()["seats"][0]["counters"]["seals"] == 2
    listed = app.test_client().get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()["sessions"]
    assert {s["id"]: s["damaged"] for s in listed} == {sid: False, good["session"]: False}
    app.extensions["gmtool"].close_all()
    edit(path)
    assert main(["export", sid, "--data", str(tmp_path / "sessions")]) == 2  # the command line is the GM's
    assert why_en in capsys.readouterr().err
def seed_missing(path):
    """The file has no dice seed (its secrets hand-edited)."""
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM secrets WHERE key = 'seed'")
    db.close()


def refused_unreadable(path):
    """The file's list of refused undos is no list of action numbers (its meta hand-edited)."""
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO meta (key, value) VALUES ('undo_refused', '[\"one\"]')")
    db.close()


def files_open(path) -> list[str]:
    """The files of this process named `path`, `path`-wal or `path`-shm (none known off Linux)."""
    if not sys.platform.startswith("linux"):
        return []
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # (closed meanwhile)
            continue
        if target.startswith(str(Path(path).resolve())):
            found.append(target)
    return found


def listed(app) -> dict:
    """{session id: damaged} of the API's session list."""
    sessions = app.test_client().get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()["sessions"]
    return {s["id"]: s["damaged"] for s in sessions}


@pytest.mark.parametrize("edit, at_once", [(unknown_counter, False), (unknown_counter_mid_log, False),
                                           (not_a_database, True),
                                           (ruleset_not_installed, True), (seed_missing, True),
                                           (refused_unreadable, True)])
def test_the_list_names_a_damaged_session_without_loading_it_and_after_a_restart(tmp_path, caplog, edit, at_once):
    """The list does not load sessions, and named one damaged only once it had failed to load in that server's
    memory: after a restart a file whose ruleset is not installed here, or that failed yesterday, was listed sound
    until someone opened it. Now what its meta and seed show (a ruleset not installed, no dice seed; no database at
    all) is listed at once, nothing loaded; a log that does not replay (that takes a fold) once it has failed to load,
    in this server or an earlier one (what was found is kept beside the file, in `<id>.sqlite-damaged`; the restarted
    server answers from it without folding the file again). The file itself is never written; a backup put back is
    listed sound and opens, and its record goes. A failed load left the file open (its fold's cursor, part-read, held
    the connection) until the request's error was freed, which removed the WAL after the record was written: the list
    named the session sound again for good (a demo's event 3 edited). Now the connection is closed before the record is
    written, and a WAL that holds nothing (a reader makes one, sqlite3's close removes it) is not a change."""
    app, (bad, good) = two_sessions_one_edited(tmp_path, edit)
    sid, path = bad["session"], tmp_path / "sessions" / f"{bad['session']}.sqlite"
    before = path.read_bytes()
    assert listed(app) == {sid: at_once, good["session"]: False}
    assert not app.extensions["gmtool"].sessions  # the list loaded nothing
    r = app.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(ADMIN_KEY))
    assert r.status_code == 409
    error = r.get_json()["error"]
    assert not files_open(path)  # the failed load's connection is closed (a fold's cursor part-read held it open)
    if edit is not not_a_database:
        with sqlite3.connect(path) as db:  # the GM looks into the file (the last connection removes the empty WAL)
            assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] >= 2
        db.close()
    assert listed(app) == {sid: True, good["session"]: False}
    app.extensions["gmtool"].close_all()
    caplog.clear()
    restarted = create_app({"DATA_DIR": str(tmp_path / "sessions"), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    assert listed(restarted) == {sid: True, good["session"]: False}
    r = restarted.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(ADMIN_KEY))
    assert r.status_code == 409 and r.get_json()["error"] == error
    if edit is unknown_counter:  # answered from the record: the file is not folded again
        assert "does not load" not in caplog.text and Path(f"{path}-damaged").exists()
    assert path.read_bytes() == before and not restarted.extensions["gmtool"].sessions
    not_a_database(path)  # (its WAL and SHM go too)
    shutil.copy(tmp_path / "backup.sqlite", path)  # the GM puts the backup back
    assert listed(restarted) == {sid: False, good["session"]: False}
    assert restarted.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(ADMIN_KEY)).status_code == 200
    assert not Path(f"{path}-damaged").exists()
    restarted.extensions["gmtool"].close_all()


def to_damage(data):
    """An app on `data` with two sessions made through the API, 「壊れた卓」 (to be damaged) and 「無事な卓」: (the app,
    its client, the server key's header, the two creations' answers)."""
    app = create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    api, admin = app.test_client(), bearer(ADMIN_KEY)
    made = [api.post("/api/sessions", headers=admin, json={"title": title, "seats": ["セイバー", "アーチャー"],
                                                           "counters": ["seals", "karma"]}).get_json()
            for title in ("壊れた卓", "無事な卓")]
    return app, api, admin, made


def test_the_gm_exports_the_readable_part_of_a_damaged_session_and_nobody_else_reads_anything_of_it(tmp_path):
    """Nothing of a session whose file does not load could be got out. The server GM key's holder (API and home page)
    now gets its readable part: a full JSON backup of its events up to the first that does not replay (with the undos
    before it), marked `partial` with where it stopped, why, and how many events were left out; the refused undos
    among them; and it imports as a session as it stood before that event. The session's own GM, the table, a seat
    and anyone without a key get a 403 that names nothing of it; a sound session, a file of which nothing can be read
    and an unknown id are refused in both languages (409, 409, 404); the file is never written. A file whose events
    all replay but whose meta does not load gives its whole log, stopped nowhere."""
    data = tmp_path / "sessions"
    app, api, admin, made = to_damage(data)
    sid, gm = made[0]["session"], bearer(made[0]["gm_token"])
    for body in ({"seat": "s1", "key": "seals", "delta": -1}, {"seat": "s2", "key": "karma", "delta": 1}, None,
                 {"seat": "s2", "key": "seals", "delta": -1}, {"seat": "s1", "key": "karma", "delta": 2}):
        r = api.post(f"/api/sessions/{sid}/{'counters' if body else 'undo'}", headers=gm, json=body or {})
        assert r.status_code == 200, r.get_json()
    app.extensions["gmtool"].close_all()
    path = data / f"{sid}.sqlite"
    with sqlite3.connect(path) as db:  # the s2 seals change (seq 5, after the undo of the karma) names no counter
        assert db.execute("UPDATE events SET data = replace(data, '\"seals\"', '\"hp\"') WHERE seq = 5").rowcount == 1
        db.execute("INSERT INTO meta (key, value) VALUES ('undo_refused', '[2, 6]')")
    db.close()
    before = path.read_bytes()
    app = create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    api = app.test_client()
    for token in (made[0]["gm_token"], made[0]["table_token"], made[0]["seats"][0]["token"], made[1]["gm_token"], ""):
        r = api.get(f"/api/sessions/{sid}/salvage", headers=bearer(token) if token else {})
        assert r.status_code == 403 and "壊れた卓" not in r.get_data(as_text=True), r.get_json()
    r = app.test_client().get(f"/s/{sid}/salvage")  # the home page's download, without the key's cookie
    assert r.status_code == 403 and "壊れた卓" not in r.get_data(as_text=True)
    r = api.get(f"/api/sessions/{sid}/salvage", headers=admin)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store", r.get_data(as_text=True)[:300]
    doc = r.get_json()
    assert doc["partial"] == {"stopped_at": 5, "left_out": 2,
                              "ja": "5番目のイベント（counter.changed）を再生できません（ValueError）",
                              "en": "event 5 (counter.changed) does not replay (ValueError)"}
    assert [e["seq"] for e in doc["events"]] == [1, 2, 3, 4] and doc["full"] and doc["undo_refused"] == [2]
    assert doc["session"]["title"] == "壊れた卓" and doc["secrets"]["seed"]
    gm_browser = app.test_client()
    assert gm_browser.get(f"/?k={ADMIN_KEY}").status_code == 302
    items = re.findall(r"<li>.*?</li>", gm_browser.get("/").get_data(as_text=True), re.S)
    link = f'href="/s/{sid}/salvage"'
    assert [link in i for i in items if f"/s/{sid}/gm" in i] == [True] and sum(link in i for i in items) == 1
    assert "読める部分をJSONで書き出す" in next(i for i in items if link in i)
    download = gm_browser.get(f"/s/{sid}/salvage")
    assert download.status_code == 200 and download.get_json() == doc
    assert download.headers["Content-Disposition"] == f'attachment; filename="gmtool-{sid}-partial.json"'
    copy = api.post("/api/sessions/import", headers=admin, json=doc)
    assert copy.status_code == 201, copy.get_json()
    state = api.get(f"/api/sessions/{copy.get_json()['session']}/state", headers=admin).get_json()
    assert [s["counters"] for s in state["seats"]] == [{"seals": 2, "karma": 0}, {"seals": 3, "karma": 0}]
    for session, status, en in ((made[1]["session"], 409, "This session is not damaged: use its export"),
                                ("nope", 404, "There is no such session")):
        r = api.get(f"/api/sessions/{session}/salvage", headers=admin)
        assert r.status_code == status and en in r.get_json()["error"]["en"] and r.get_json()["error"]["ja"]
    assert path.read_bytes() == before
    app.extensions["gmtool"].close_all()
    not_a_database(path)
    r = api.get(f"/api/sessions/{sid}/salvage", headers=admin)
    assert r.status_code == 409 and r.get_json()["error"]["en"] == (
        "Nothing of this session can be read: it is not a readable SQLite database")
    assert r.get_json()["error"]["ja"] == "このセッションは読める部分がありません: SQLiteのデータベースとして読めません"
    refused_unreadable(data / f"{made[1]['session']}.sqlite")  # every event replays: the whole log, stopped nowhere
    doc = api.get(f"/api/sessions/{made[1]['session']}/salvage", headers=admin).get_json()
    assert doc["partial"] == {"stopped_at": None, "left_out": 0, "ja": "取り消しを断った操作の記録が読めません",
                              "en": "its record of refused undos cannot be read"}
    assert [e["type"] for e in doc["events"]] == ["session.created"] and doc["undo_refused"] == []


def test_a_session_that_loaded_from_its_kept_base_and_is_found_damaged_later_is_the_gms_to_salvage(tmp_path, monkeypatch):
    """A normal stop keeps a session's undo base in its file, and the next resume reads only the events after it
    (gmtool/snapshots.py): an older event damaged on the disk since (not through SQLite, whose triggers would drop the
    kept base) is first read by an export or a page of the log. That read is not a 500: the session is closed and
    recorded as damaged, as one that does not load is (409, the GM key's holder told which event), and its readable
    part can be saved."""
    monkeypatch.setenv("GMTOOL_CHECK_SNAPSHOTS", "0")  # as served: the kept base is not checked against the whole log
    data = tmp_path / "sessions"
    app, api, admin, made = to_damage(data)
    sid, gm = made[0]["session"], bearer(made[0]["gm_token"])
    live = app.extensions["gmtool"].get(sid)
    for i in range(400):  # more than the undo window and the 300 newest events a resume reads
        live.execute("gm", commands.change_counter, "s1", "karma", delta=1, reason="EARLYMARK" if i < 5 else "later")
    app.extensions["gmtool"].close_all()
    path = data / f"{sid}.sqlite"
    raw = path.read_bytes()
    assert raw.count(b'"reason": "EARLYMARK"') == 5
    path.write_bytes(raw.replace(b'"reason": "EARLYMARK"', b'"reason":  EARLYMARK"', 1))  # a flipped byte
    with sqlite3.connect(path) as db:
        [(bad,)] = db.execute("SELECT seq FROM events WHERE NOT json_valid(data)").fetchall()
        kept = db.execute("SELECT seq FROM snapshot").fetchone()
    db.close()
    assert kept is not None and bad < kept[0]
    app = create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    api = app.test_client()
    assert api.get(f"/api/sessions/{sid}/state", headers=gm).status_code == 200  # the damage is not read yet
    r = api.get(f"/api/sessions/{sid}/export?format=markdown", headers=gm)
    assert r.status_code == 409 and r.get_json()["error"]["en"] == (
        "This session's saved file is damaged and cannot be opened; tell the GM")
    r = api.get(f"/api/sessions/{sid}/log?limit=1000", headers=admin)
    assert r.status_code == 409 and f"the data of event {bad} cannot be read" in r.get_json()["error"]["en"], (
        r.get_json())
    doc = api.get(f"/api/sessions/{sid}/salvage", headers=admin).get_json()
    assert doc["partial"]["stopped_at"] == bad and [e["seq"] for e in doc["events"]] == list(range(1, bad))
    assert api.get(f"/api/sessions/{made[1]['session']}/export?format=markdown",
                   headers=bearer(made[1]["gm_token"])).status_code == 200  # the other session goes on


def test_the_command_line_exports_the_readable_part_of_a_damaged_session(tmp_path, capsys):
    """The readable part of a damaged session could only be downloaded from a running server. `gmtool export ID
    --format json --salvage` writes the same backup (the GM whose server will not start, or who works on the data
    folder alone), `gmtool import` loads it; --salvage is refused for a write-up format and for a sound session, in
    both languages, and writes nothing."""
    data = tmp_path / "sessions"
    app, api, admin, made = to_damage(data)
    sid = made[0]["session"]
    for body in ({"title": "場面1"}, {"seat": "s1", "key": "seals", "delta": -1}):
        path = "counters" if "seat" in body else "scenes"
        assert api.post(f"/api/sessions/{sid}/{path}", headers=bearer(made[0]["gm_token"]), json=body).status_code in (200, 201)
    app.extensions["gmtool"].close_all()
    unknown_counter(data / f"{sid}.sqlite")
    out = tmp_path / "partial.json"
    assert main(["export", sid, "--format", "json", "--salvage", "--data", str(data), "--out", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    served = create_app({"DATA_DIR": str(data), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    assert doc == served.test_client().get(f"/api/sessions/{sid}/salvage", headers=admin).get_json()
    assert doc["partial"]["stopped_at"] == 3 and [e["seq"] for e in doc["events"]] == [1, 2]
    served.extensions["gmtool"].close_all()
    capsys.readouterr()
    assert main(["import", str(out), "--data", str(data)]) == 0 and "/s/" in capsys.readouterr().out
    for args, ja, en in (([sid, "--format", "markdown"], "--format json", "--salvage writes one session's JSON backup"),
                         ([made[1]["session"], "--format", "json"], "壊れていません", "This session is not damaged")):
        assert main(["export", *args, "--salvage", "--data", str(data), "--out", str(tmp_path / "no.json")]) == 2
        err = capsys.readouterr().err
        assert ja in err and en in err and not (tmp_path / "no.json").exists()


def test_a_refused_import_names_the_event_that_does_not_replay(app, client):
    """An import refused while replaying said 「…（壊れたエクスポートです）」 / "(a damaged export)" from the fold and
    "(a damaged export: KeyError)" (Python's name of the error) from the rehearsal, while docs/api.md §14 quoted
    "(a damaged export: …)": both name what is damaged now, an event by its number (the English with its type);
    400, and no session is left."""
    created = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "卓", "seats": ["A", "B"]}).get_json()
    assert client.post(f"/api/sessions/{created['session']}/seats", headers=bearer(created["gm_token"]),
                       json={"name": "C"}).status_code == 201
    doc = exported(client, created)
    event = next(e for e in doc["events"] if e["type"] == "seat.added")
    event["data"]["id"] = "a/b"
    sessions = client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()
    r = imported(client, doc)
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (
        f"イベントを読み込めません（壊れたエクスポートです: イベント番号{event['seq']}）",
        f"The events cannot be replayed (a damaged export: event {event['seq']} [seat.added])"), error
    assert client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json() == sessions


@pytest.mark.parametrize("value", [True, "5", None])
def test_a_crafted_import_whose_win_rate_modifier_is_no_whole_number_is_refused(client, value):
    """grail's add_modifier writes a whole number; an export from anyone with `true` there imported, and once the
    combat's setup was confirmed every view of the session was refused with 「修正値は整数です: True」 (Python's
    spelling). Its event no longer folds: the import is refused naming it, and no session is left."""
    created = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "卓", "ruleset": "grail_trpg", "seats": ["セイバー陣営", "アーチャー陣営"]}).get_json()
    sid, gm = created["session"], bearer(created["gm_token"])
    for faction, text in (("s1", "アルトリア(セイバー) 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60"),
                          ("s2", "エミヤ(アーチャー) 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50")):
        assert client.post(f"/api/sessions/{sid}/actions/set_characters", headers=gm,
                           json={"faction": faction, "text": text}).status_code == 200
    for name, payload in (("start_combat", {"a": "s1", "b": "s2"}), ("add_modifier", {"side": "a", "label": "地の利",
                                                                                      "value": 5})):
        assert client.post(f"/api/sessions/{sid}/actions/{name}", headers=gm, json=payload).status_code == 200
    doc = exported(client, created)
    event = next(e for e in doc["events"] if e["type"] == "grail.modifier_added")
    event["data"]["value"] = value
    sessions = client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()
    error = imported(client, doc).get_json()["error"]
    assert (error["status"], error["ja"], error["en"]) == (
        400, f"イベントを読み込めません（壊れたエクスポートです: イベント番号{event['seq']}）",
        f"The events cannot be replayed (a damaged export: event {event['seq']} [grail.modifier_added])"), error
    assert client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json() == sessions
    assert imported(client, exported(client, created)).status_code == 201  # the file as it was imports
