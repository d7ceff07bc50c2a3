"""`gmtool export` / `gmtool import`, the API's export and import routes, and the GM export page."""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from export_session import GENERIC, events_of, play
from gmtool_testing import ROOT, bearer, unnamed_controls

from gmtool import limits
from gmtool.cli import main
from gmtool.core.view import GM, TABLE, Viewer, build_view
from gmtool.export import FORMAT_NAMES, MEDIA_TYPES, Options, export
from gmtool.runtime import SessionManager
from gmtool.web import create_app
from gmtool.web.common import csrf_for

ADMIN_KEY = "k" * 32


# -- command line -----------------------------------------------------------------

@pytest.fixture
def played(tmp_path):
    """A played session in tmp_path/data: (data dir, live session, tokens)."""
    data = tmp_path / "data"
    manager = SessionManager(data)
    live, tokens, _secret = play(manager)
    yield str(data), live, tokens
    manager.close_all()


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_cli_export_prints_to_stdout(played, capsys, fmt):
    data, live, _tokens = played
    assert main(["export", live.state.session_id, "--format", fmt, "--data", data, "--no-times"]) == 0
    out, err = capsys.readouterr()
    assert out == export(events_of(live), live.ruleset, fmt, Options(times=False))
    assert err == ""


def test_cli_export_options(played, capsys):
    data, live, _tokens = played
    sid = live.state.session_id
    assert main(["export", sid, "--format", "mediawiki", "--data", data, "--lang", "en", "--names", "faction",
                 "--scene", "1", "--secret-rolls", "--no-times"]) == 0
    out = capsys.readouterr().out
    assert out == export(events_of(live), live.ruleset, "mediawiki",
                         Options(lang="en", times=False, names="faction", scene=1, secret_rolls=True))
    assert "=== 第1シーン ===" in out and "=== Standings ===" in out and "衛宮" in out
    assert main(["export", sid, "--data", data]) == 0  # markdown with times by default
    assert capsys.readouterr().out == export(events_of(live), live.ruleset, "markdown", Options())


def test_cli_export_to_a_file(played, capsys, tmp_path):
    data, live, _tokens = played
    out_file = tmp_path / "write-up.wiki"
    assert main(["export", live.state.session_id, "--format", "mediawiki", "--data", data, "--no-times",
                 "--out", str(out_file)]) == 0
    assert capsys.readouterr().out == ""
    assert out_file.read_text(encoding="utf-8") == export(events_of(live), live.ruleset, "mediawiki", Options(times=False))


def test_cli_export_errors(played, capsys):
    data, live, _tokens = played
    assert main(["export", live.state.session_id, "--format", "markdown", "--data", data, "--scene", "9"]) == 2
    assert "scene 9" in capsys.readouterr().err
    assert main(["export", "nosuchid", "--data", data]) == 2
    assert "no such session" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["export", live.state.session_id, "--format", "pdf", "--data", data])
    capsys.readouterr()


def test_cli_import_public_export(played, capsys, tmp_path):
    data, live, _tokens = played
    sid = live.state.session_id
    export_file = tmp_path / "public.json"
    assert main(["export", sid, "--format", "json", "--data", data, "--out", str(export_file)]) == 0
    data2 = tmp_path / "data2"
    assert main(["import", str(export_file), "--data", str(data2), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["session"] == sid and out["title"] == "往復テスト" and out["restored_tokens"] is False
    assert out["gm_url"].endswith(f"/s/{sid}/gm?k={out['gm_token']}")
    assert [s["id"] for s in out["seats"]] == ["s1", "s2", "s3"]
    # without --json it prints the new links as `gmtool new` does (it printed the id alone: the old links no longer
    # work, and the new ones were nowhere to be read)
    assert main(["import", str(export_file), "--data", str(tmp_path / "data3"), "--base", "http://192.168.1.10:8000"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"imported {sid}: 往復テスト"
    assert printed[1].startswith(f"  GM:    http://192.168.1.10:8000/s/{sid}/gm?k=")
    assert printed[2].startswith(f"  table: http://192.168.1.10:8000/s/{sid}/table?k=")
    assert len(printed) == 6 and all(f"/join/{sid}?k=" in line for line in printed[3:])
    manager = SessionManager(data2)
    try:
        live2 = manager.get(sid)
        assert live2.viewer_for(out["gm_token"]) == GM
        assert live2.viewer_for(out["seats"][0]["token"]) == Viewer("seat", "s1")
    finally:
        manager.close_all()


def test_cli_import_full_backup(played, capsys, tmp_path):
    data, live, tokens = played
    sid = live.state.session_id
    backup = tmp_path / "full.json"
    assert main(["export", sid, "--format", "json", "--full", "--data", data, "--out", str(backup)]) == 0
    assert json.loads(backup.read_text(encoding="utf-8"))["full"] is True
    data2 = tmp_path / "data2"
    assert main(["import", str(backup), "--data", str(data2), "--json", "--restore-tokens"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"session": sid, "title": "往復テスト", "restored_tokens": True}
    # Imported again into the folder that has it: a new id, the old tokens.
    assert main(["import", str(backup), "--data", data, "--restore-tokens"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("imported ") and sid not in line
    new_sid = line.split()[1].rstrip(":")
    manager = SessionManager(data2)
    other = SessionManager(Path(data))
    try:
        assert build_view(manager.get(sid).state, GM) == build_view(live.state, GM)
        assert other.get(new_sid).viewer_for(tokens["gm"]) == GM
    finally:
        manager.close_all()
        other.close_all()


def test_cli_import_errors(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "something else"}', encoding="utf-8")
    data = tmp_path / "data"
    assert main(["import", str(bad), "--data", str(data)]) == 2
    assert "gmtool JSON export" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "missing.json"), "--data", str(data)]) == 2
    assert capsys.readouterr().err
    assert not list(data.glob("*.sqlite"))


# -- API ----------------------------------------------------------------------------

@pytest.fixture
def web(tmp_path):
    """A gmtool app on tmp_path/web with a session created through the API and a few actions."""
    app = create_app({"DATA_DIR": str(tmp_path / "web"), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    client = app.test_client()
    created = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "API卓", "seats": ["セイバー / 衛宮", "アーチャー / 遠坂"], "counters": ["seals", "vp"]})
    assert created.status_code == 201, created.get_json()
    data = created.get_json()
    gm = bearer(data["gm_token"])
    sid = data["session"]
    for path, body in (("counters", {"seat": "s1", "key": "seals", "delta": -1, "reason": "令呪|使用"}),
                       ("rolls", {"expr": "2D6>=7", "label": "判定"}),
                       ("scenes", {"title": "第1シーン"}),
                       ("rolls", {"expr": "S1D20", "label": "GM-SECRET-API"}),
                       ("counters", {"seat": "s2", "key": "vp", "delta": 2})):
        response = client.post(f"/api/sessions/{sid}/{path}", headers=gm, json=body)
        assert response.status_code in (200, 201), response.get_json()
    yield app, client, data
    app.extensions["gmtool"].close_all()


def _events(app, sid):
    return events_of(app.extensions["gmtool"].get(sid))


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_api_export_for_the_gm(web, fmt):
    app, client, data = web
    sid = data["session"]
    response = client.get(f"/api/sessions/{sid}/export?format={fmt}&times=0", headers=bearer(data["gm_token"]))
    assert response.status_code == 200
    assert response.mimetype == MEDIA_TYPES[fmt][0]
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_data(as_text=True)
    assert body == export(_events(app, sid), GENERIC, fmt, Options(times=False))
    assert "GM-SECRET-API" not in body


def test_api_export_options(web):
    app, client, data = web
    sid = data["session"]
    gm = bearer(data["gm_token"])
    response = client.get(f"/api/sessions/{sid}/export?format=markdown&lang=en&times=0&names=faction&scene=1"
                          "&secret_rolls=1", headers=gm)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body == export(_events(app, sid), GENERIC, "markdown",
                          Options(lang="en", times=False, names="faction", scene=1, secret_rolls=True))
    assert "GM-SECRET-API" in body and "## 第1シーン" in body and "## Opening" not in body
    assert "| 遠坂 | 3 | 2 |" in body  # standings by faction: seals, victory points
    full = client.get(f"/api/sessions/{sid}/export?format=json&full=1", headers=gm)
    assert full.status_code == 200 and full.get_json()["full"] is True and "seed" in full.get_json()["secrets"]
    # The admin key is the GM too.
    assert client.get(f"/api/sessions/{sid}/export?format=text", headers=bearer(ADMIN_KEY)).status_code == 200


def test_api_json_export_with_secret_rolls_keeps_them_the_gms_in_the_import(web):
    """docs/api.md §14: `format=json&secret_rolls=1` is the public export plus the GM's secret rolls never revealed;
    the session imported from it shows them to its GM only, as the original did (the table and the seats read none)."""
    _app, client, data = web
    gm = bearer(data["gm_token"])
    plain = client.get(f"/api/sessions/{data['session']}/export?format=json", headers=gm).get_json()
    with_rolls = client.get(f"/api/sessions/{data['session']}/export?format=json&secret_rolls=1", headers=gm).get_json()
    assert "GM-SECRET-API" not in str(plain) and "GM-SECRET-API" in str(with_rolls)
    made = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=with_rolls).get_json()
    tokens = {"gm": made["gm_token"], "table": made["table_token"], "seat": made["seats"][0]["token"]}
    seen = {who: "GM-SECRET-API" in client.get(f"/api/sessions/{made['session']}/log?limit=1000",
                                                headers=bearer(token)).get_data(as_text=True)
            for who, token in tokens.items()}
    assert seen == {"gm": True, "table": False, "seat": False}


@pytest.mark.parametrize("who", ["table", "seat", "none", "wrong"])
def test_api_export_is_for_the_gm_only(web, who):
    _app, client, data = web
    headers = {"table": bearer(data["table_token"]), "seat": bearer(data["seats"][0]["token"]),
               "none": {}, "wrong": bearer("x" * 32)}[who]
    for query in ("format=markdown", "format=json", "format=json&full=1"):
        response = client.get(f"/api/sessions/{data['session']}/export?{query}", headers=headers)
        assert response.status_code == 403
        assert response.get_json()["error"]["status"] == 403
        assert "seed" not in response.get_data(as_text=True)


@pytest.mark.parametrize("query, message", [("format=pdf", "Unknown format 'pdf'"),
                                            ("format=markdown&scene=9", "There is no scene 9"),
                                            ("format=markdown&scene=x", "'scene' must be a whole number"),
                                            ("format=markdown&names=x", "'names' must be")])
def test_api_export_bad_options(web, query, message):
    _app, client, data = web
    response = client.get(f"/api/sessions/{data['session']}/export?{query}", headers=bearer(data["gm_token"]))
    assert response.status_code == 400
    assert response.is_json and message in response.get_json()["error"]["en"]
    if "scene=9" in query:  # docs/api.md 14's export errors left it out: now word for word, both languages
        section = (ROOT / "docs/api.md").read_text(encoding="utf-8").split("## 14. Export and import")[1]
        number = re.search(r"`There is no scene (\d+)` / 「シーン(\d+)はありません」", section.split("\n## ")[0])
        assert number and number[1] == number[2], "docs/api.md 14 lists the missing scene's error"
        error = client.get(f"/api/sessions/{data['session']}/export?format=markdown&scene={number[1]}",
                           headers=bearer(data["gm_token"])).get_json()["error"]
        assert (error["ja"], error["en"]) == (f"シーン{number[1]}はありません", f"There is no scene {number[1]}"), error


def test_an_unknown_format_is_refused_naming_the_formats_as_the_export_page_does(web):
    """An export asked for in a format gmtool does not write listed the values (「markdown, mediawiki, …」): it names
    them as the export page does, the English with the value to send; 400, nothing written."""
    _app, client, data = web
    response = client.get(f"/api/sessions/{data['session']}/export?format=pdf", headers=bearer(data["gm_token"]))
    error = response.get_json()["error"]
    assert response.status_code == 400 and (error["ja"], error["en"]) == (
        "形式「pdf」はありません（「Markdown」「MediaWiki」「@wiki / Seesaa（PukiWiki記法）」「テキスト」「HTML（印刷用）」"
        "「JSON（再読み込み可）」）",
        "Unknown format 'pdf' (use Markdown [markdown], MediaWiki [mediawiki], @wiki / Seesaa (PukiWiki markup) [atwiki], "
        "Plain text [text], HTML (printable) [html], JSON (re-importable) [json])"), error


def test_api_import_public_export(web):
    app, client, data = web
    sid = data["session"]
    text = client.get(f"/api/sessions/{sid}/export?format=json", headers=bearer(data["gm_token"])).get_data()
    response = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), data=text,
                           content_type="application/json")
    assert response.status_code == 201
    out = response.get_json()
    assert out["restored_tokens"] is False and out["session"] != sid and out["title"] == "API卓"
    new = out["session"]
    state = client.get(f"/api/sessions/{new}/state", headers=bearer(out["gm_token"]))
    assert state.status_code == 200
    manager = app.extensions["gmtool"]
    before = build_view(manager.get(sid).state, TABLE)
    after = build_view(manager.get(new).state, TABLE)
    for view in (before, after):
        del view["session"]["id"], view["session"]["seed_hash"], view["session"]["version"]
        view.pop("secret_rolls")  # a public export leaves the GM's secret rolls out, so their trace too
    assert after == before
    # Exported again: the same write-up, but for the seed hash in the header (the new seed's) and a last
    # line telling of the import.
    again = client.get(f"/api/sessions/{new}/export?format=markdown&times=0", headers=bearer(out["gm_token"]))
    original = export(_events(app, sid), GENERIC, "markdown", Options(times=False)).splitlines()
    lines = again.get_data(as_text=True).splitlines()
    old_hash, new_hash = manager.get(sid).state.seed_hash, manager.get(new).state.seed_hash
    assert [line.replace(new_hash, old_hash) for line in lines if "エクスポートから読み込み" not in line] == original
    assert lines[lines.index("## 最終状況") - 2] == f"- エクスポートから読み込み（新しいダイスシード {new_hash[:12]}…）"


def test_api_import_full_backup(web):
    app, client, data = web
    sid = data["session"]
    text = client.get(f"/api/sessions/{sid}/export?format=json&full=1", headers=bearer(data["gm_token"])).get_data()
    response = client.post("/api/sessions/import?restore_tokens=1", headers=bearer(ADMIN_KEY), data=text,
                           content_type="application/json")
    assert response.status_code == 201
    out = response.get_json()
    assert out == {"session": out["session"], "title": "API卓", "restored_tokens": True}
    assert out["session"] != sid
    for token in (data["gm_token"], data["table_token"], data["seats"][1]["token"]):
        assert client.get(f"/api/sessions/{out['session']}/state", headers=bearer(token)).status_code == 200


def test_api_import_needs_the_admin_key_and_a_valid_export(web, tmp_path):
    app, client, data = web
    sid = data["session"]
    text = client.get(f"/api/sessions/{sid}/export?format=json", headers=bearer(data["gm_token"])).get_data()
    data_dir = Path(app.config["DATA_DIR"])
    files = sorted(data_dir.iterdir())
    for token in (data["gm_token"], data["table_token"], None):
        response = client.post("/api/sessions/import", headers=bearer(token) if token else {}, data=text)
        assert response.status_code == 403
    for bad in (b"", b"not json", b'{"schema": "gmtool.export/0"}', text.replace(b'"seq": 2', b'"seq": 99', 1)):
        response = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), data=bad)
        assert response.status_code == 400, bad[:40]
        assert response.is_json and response.get_json()["error"]["status"] == 400
    # docs/api.md 2: a body without the JSON content type is 400 `Send a JSON object`, an export too
    for content_type in (None, "text/plain", "application/x-www-form-urlencoded"):
        response = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), data=text, content_type=content_type)
        assert response.status_code == 400 and response.get_json()["error"]["en"] == "Send a JSON object"
    assert sorted(data_dir.iterdir()) == files


def test_api_import_keeps_every_games_seat_limits(web):
    """docs/api.md 14: an import holds a game's seat limits (Ruleset.seats) as making its session does: a crafted
    export with a seat too many in its session.created (a succession session with a third seat: its game has exactly
    two), one too few (an illuminati session with one), or seats added past the most by seat.added events, is a 400
    naming the count in both languages, and nothing is made (each was imported: its phones met seats no game has;
    the exports as made import, test_every_rulesets_public_export_imports_to_the_same_table)."""
    from gmtool.rulesets import registry
    app, client, _data = web
    data_dir = Path(app.config["DATA_DIR"])
    limited = {name: r for name, r in registry().items() if r.seats != (0, 12)}
    assert {"succession", "illuminati", "ace_royal", "sugoroku", "grail_trpg"} <= set(limited)

    def seats(n):
        return [{"id": f"s{i}", "name": f"P{i}", "faction": ""} for i in range(1, n + 1)]
    for name, rules in limited.items():
        low, high = rules.seats
        made = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
            "title": name, "ruleset": name, "seats": [s["name"] for s in seats(max(low, 1))]}).get_json()
        doc = client.get(f"/api/sessions/{made['session']}/export?format=json",
                         headers=bearer(made["gm_token"])).get_json()
        first, rest, last = doc["events"][0], doc["events"][1:], doc["events"][-1]
        crafted = []
        for count in (high + 1, low - 1):
            if 0 <= count <= 12:  # (13 seats: At most 12 seats, as before)
                crafted.append((count, {**doc, "events": [{**first, "data": {**first["data"], "seats": seats(count)}},
                                                          *rest]}))
        if high < 12:  # made with the fewest, then seats added one by one past the most
            added = [{**last, "seq": last["seq"] + i, "action": last["action"] + i, "type": "seat.added",
                      "data": {"id": f"x{i}", "name": f"X{i}", "faction": ""}} for i in range(1, high - max(low, 1) + 2)]
            crafted.append((high + 1, {**doc, "events": [*doc["events"], *added]}))
        assert crafted, name
        files = sorted(data_dir.iterdir())
        for count, bad in crafted:
            response = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=bad)
            assert response.status_code == 400, (name, count, response.get_json())
            error = response.get_json()["error"]
            assert error["en"].startswith(f"Cannot import: {rules.label.en} is played with "), error
            assert error["en"].endswith(f" seats (not {count})"), error
            assert error["ja"].startswith(f"読み込めません: {rules.label.ja}は"), error
            assert error["ja"].endswith(f"（{count}席になります）"), error
            if name == "succession" and count == 3:
                assert error["en"] == "Cannot import: Grail Succession is played with 2 seats (not 3)", error
                assert error["ja"] == "読み込めません: 聖杯サクセションは2席で遊びます（3席になります）", error
            assert sorted(data_dir.iterdir()) == files, (name, count)


# -- the GM's export page --------------------------------------------------------------

class Page(HTMLParser):
    """The preview textarea and the selected options of the export page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.preview: str | None = None
        self.selected: dict[str, str] = {}
        self._in_preview = False
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "textarea" and a.get("id") == "preview":
            self._in_preview = True
            self.preview = ""
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and "selected" in a and self._select:
            self.selected[self._select] = a.get("value")

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._in_preview = False

    def handle_data(self, data):
        if self._in_preview:
            self.preview += data


def test_gm_export_page_previews_the_wiki_text(web):
    app, _client, data = web
    sid = data["session"]
    browser = app.test_client()
    assert browser.get(f"/s/{sid}/gm?k={data['gm_token']}").status_code == 302
    response = browser.get(f"/s/{sid}/gm/export?format=mediawiki&times=0&scene=1")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    page = Page()
    page.feed(response.get_data(as_text=True))
    assert unnamed_controls(response.get_data(as_text=True)) == []  # the preview too has a name for a screen reader
    assert page.preview == export(_events(app, sid), GENERIC, "mediawiki", Options(times=False, scene=1))
    assert "=== 第1シーン ===" in page.preview and "{| class=\"wikitable\"" in page.preview
    assert "令呪&#124;使用" not in page.preview  # scene 1 only: the opening's counter change is left out
    assert page.selected == {"format": "mediawiki", "scene": "1"}
    # The whole session, with the reason's pipe escaped for the wiki.
    page = Page()
    page.feed(browser.get(f"/s/{sid}/gm/export?format=mediawiki&times=0").get_data(as_text=True))
    assert "令呪&#124;使用" in page.preview
    assert "GM-SECRET-API" not in page.preview
    # Download of the same text.
    download = browser.get(f"/s/{sid}/gm/export/download?format=mediawiki&times=0")
    assert download.status_code == 200
    assert download.headers["Content-Disposition"] == f'attachment; filename="gmtool-{sid}.wiki"'
    assert download.get_data(as_text=True) == page.preview


@pytest.mark.parametrize("lang, paste, secrets", [("ja", "Wikiに貼り付け", "秘密ロールは含まれません"),
                                                   ("en", "into your wiki", "secret rolls are never included")])
def test_the_export_pages_wiki_hint_shows_for_the_wiki_formats_only(web, lang, paste, secrets):
    """Play-through: 「プレビューをコピーしてWikiに貼り付けられます」 showed under the JSON and the HTML previews too. It shows
    under the wiki markups (Markdown, MediaWiki, @wiki) only; what is never included is said under every format."""
    app, _client, data = web
    sid = data["session"]
    browser = app.test_client()
    assert browser.get(f"/s/{sid}/gm?k={data['gm_token']}").status_code == 302
    for fmt in ("markdown", "mediawiki", "atwiki", "text", "html", "json"):
        html = browser.get(f"/s/{sid}/gm/export?format={fmt}&lang={lang}").get_data(as_text=True)
        hint = html.split('id="export-hint">', 1)[1].split("</p>", 1)[0]
        assert secrets in hint and (paste in hint) == (fmt in ("markdown", "mediawiki", "atwiki")), (fmt, hint)


def test_gm_export_page_is_for_the_gm_only(web):
    app, _client, data = web
    sid = data["session"]
    stranger = app.test_client()
    assert stranger.get(f"/s/{sid}/gm/export?format=mediawiki").status_code == 403
    phone = app.test_client()
    assert phone.get(f"/join/{sid}?k={data['seats'][0]['token']}").status_code == 302
    assert phone.get(f"/s/{sid}/gm/export?format=mediawiki").status_code == 403
    assert phone.get(f"/s/{sid}/gm/export/download?format=json&full=1").status_code == 403


@pytest.mark.parametrize("query, en", [
    ("times=x", "'times' must be true or false"), ("secret_rolls=2", "'secret_rolls' must be true or false"),
    ("format=json&full=maybe", "'full' must be true or false"), ("campaign=all", "'campaign' must be true or false"),
])
def test_a_yes_no_export_option_that_is_neither_is_a_400(client, created, query, en):
    """docs/api.md 14 and Limits (a yes/no field): `times=x` silently left the times out, `full=maybe` made a public
    export; now a 400 in both languages, like a body's yes/no field. `yes`, `true`, `on`, `0` … still read."""
    url = f"/api/sessions/{created['session']}/export?{query}"
    r = client.get(url, headers=bearer(created["gm_token"]))
    assert r.status_code == 400 and r.get_json()["error"]["en"] == en and r.get_json()["error"]["ja"]
    assert client.get(f"/api/sessions/{created['session']}/export?times=no&secret_rolls=yes&format=json&full=true",
                      headers=bearer(created["gm_token"])).get_json()["full"] is True


# -- the home page's import form ------------------------------------------------------

def test_home_page_imports_an_uploaded_export(web, tmp_path):
    """Play-through: importing needed the command line or the API; the home page (the server GM key's) has a form
    that takes the JSON export file and opens the new session's GM console with its new links."""
    app, client, data = web
    sid = data["session"]
    export_file = tmp_path / "API卓.json"
    export_file.write_bytes(client.get(f"/api/sessions/{sid}/export?format=json",
                                       headers=bearer(data["gm_token"])).get_data())
    browser = app.test_client()
    assert browser.get(f"/?k={ADMIN_KEY}").status_code == 302
    home = browser.get("/").get_data(as_text=True)
    assert 'id="import-session"' in home and 'enctype="multipart/form-data"' in home
    assert unnamed_controls(home) == []
    response = browser.post("/sessions/import", data={"csrf": csrf_for(ADMIN_KEY),
                                                      "file": (export_file.open("rb"), export_file.name)})
    assert response.status_code == 303, response.get_data(as_text=True)
    new = response.headers["Location"].split("/s/")[1].split("/")[0]
    assert new != sid and response.headers["Location"].endswith(f"/s/{new}/gm")
    console = browser.get(f"/s/{new}/gm").get_data(as_text=True)
    assert "API卓" in console
    joins = list(app.extensions["gmtool"].get(new).join_tokens.values())
    assert len(joins) == 2 and all(f"/join/{new}?k={token}" in console for token in joins)  # its new links
    assert app.extensions["gmtool"].get(new).state.title == "API卓"


def test_home_page_import_keeps_a_backups_links_when_asked(web):
    """元のリンクを使い続ける: a full backup imported from the home page keeps its old links (the API's restore_tokens)."""
    app, client, data = web
    text = client.get(f"/api/sessions/{data['session']}/export?format=json&full=1",
                      headers=bearer(data["gm_token"])).get_data()
    browser = app.test_client()
    browser.get(f"/?k={ADMIN_KEY}")
    response = browser.post("/sessions/import", data={"csrf": csrf_for(ADMIN_KEY), "restore_tokens": "1",
                                                      "file": (io.BytesIO(text), "backup.json")})
    assert response.status_code == 303, response.get_data(as_text=True)
    new = response.headers["Location"].split("/s/")[1].split("/")[0]
    assert new != data["session"]
    for token in (data["gm_token"], data["seats"][0]["token"]):
        assert client.get(f"/api/sessions/{new}/state", headers=bearer(token)).status_code == 200


@pytest.mark.parametrize("form, status, en", [
    ({}, 400, "Choose a JSON export file"),
    ({"file": (b"", "empty.json")}, 400, "Choose a JSON export file"),
    ({"file": (b"not json", "x.json")}, 400, "Not valid JSON"),
    ({"file": (b"\xff\xfe{}", "x.json")}, 400, "Not valid JSON"),
    ({"file": (b'{"schema": "gmtool.export/0"}', "x.json")}, 400, "Not a gmtool JSON export"),
    ({"file": (b"{" + b" " * (300 * 1024) + b"}", "big.json")}, 413, "Request too large"),
])
def test_home_page_import_refuses_as_the_api_does(web, form, status, en):
    """A refusal of the import form is a 4xx page in Japanese and English, and leaves no session behind."""
    app, client, _data = web
    data_dir = Path(app.config["DATA_DIR"])
    files = sorted(data_dir.iterdir())
    browser = app.test_client()
    browser.get(f"/?k={ADMIN_KEY}")
    body = {"csrf": csrf_for(ADMIN_KEY), **{k: (io.BytesIO(v[0]), v[1]) for k, v in form.items()}}
    response = browser.post("/sessions/import", data=body)
    page = response.get_data(as_text=True)
    assert response.status_code == status and en in page and 'class="msg-ja"' in page, page[-600:]
    assert sorted(data_dir.iterdir()) == files


def test_home_page_import_takes_every_file_the_api_takes(web):
    """Finding: a form import close to 256 KiB was a 413 that the API accepted for the same file (the form's
    multipart framing counted against the body's cap). The file's own bytes have the API's limit: an export of
    exactly MAX_BODY bytes is imported by both, one byte more is refused by both (the form: a 413 page naming the
    file's limit in Japanese and English) and leaves no session behind."""
    app, client, data = web
    text = client.get(f"/api/sessions/{data['session']}/export?format=json", headers=bearer(data["gm_token"])).get_data()
    largest = text + b" " * (limits.MAX_BODY - len(text))  # still the same export: JSON ignores trailing spaces
    browser = app.test_client()
    browser.get(f"/?k={ADMIN_KEY}")
    data_dir = Path(app.config["DATA_DIR"])
    key = re.search(r'name="idempotency_key" value="(\w+)"', browser.get("/").get_data(as_text=True)).group(1)

    def by_form(body: bytes):  # as a browser sends it, with the page's key (read with the form before the route)
        return browser.post("/sessions/import", data={"csrf": csrf_for(ADMIN_KEY), "restore_tokens": "0",
                                                       "idempotency_key": key,
                                                       "file": (io.BytesIO(body), "長いファイル名の第五次聖杯戦争.json")})
    api = client.post("/api/sessions/import", data=largest, content_type="application/json",
                      headers=bearer(ADMIN_KEY))
    assert api.status_code == 201, api.get_data(as_text=True)[:300]
    form = by_form(largest)
    assert form.status_code == 303 and form.headers["Location"].endswith("/gm"), form.get_data(as_text=True)[-600:]
    files = sorted(data_dir.iterdir())
    api = client.post("/api/sessions/import", data=largest + b" ", content_type="application/json",
                      headers=bearer(ADMIN_KEY))
    assert api.status_code == 413
    form = by_form(largest + b" ")
    page = form.get_data(as_text=True)
    assert form.status_code == 413 and "The file is too large (at most 256 KiB" in page and "ファイルが大きすぎます" in page
    assert sorted(data_dir.iterdir()) == files


def test_home_page_import_needs_the_key_and_the_csrf_token(web):
    """Without the server GM key's cookie, or without the form's CSRF token, the import is a 403 and writes nothing."""
    app, client, data = web
    text = client.get(f"/api/sessions/{data['session']}/export?format=json", headers=bearer(data["gm_token"])).get_data()
    data_dir = Path(app.config["DATA_DIR"])
    files = sorted(data_dir.iterdir())
    stranger = app.test_client()
    assert stranger.post("/sessions/import", data={"csrf": csrf_for(ADMIN_KEY),
                                                   "file": (io.BytesIO(text), "x.json")}).status_code == 403
    browser = app.test_client()
    browser.get(f"/?k={ADMIN_KEY}")
    assert browser.post("/sessions/import", data={"file": (io.BytesIO(text), "x.json")}).status_code == 403
    assert sorted(data_dir.iterdir()) == files
