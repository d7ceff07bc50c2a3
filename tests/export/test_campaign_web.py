"""Campaigns through the web: the GM console's button, the campaign page, the API, whole-campaign exports,
and the export page's own improvements (standings first or last, an HTML preview that renders, one file
extension per format). Flask's test client on real SQLite files."""

from __future__ import annotations

import html
import re

import pytest
from gmtool_testing import ADMIN_KEY, bearer

from gmtool.export import FORMAT_NAMES, MEDIA_TYPES
from gmtool.web import create_app
from gmtool.web.common import csrf_for


@pytest.fixture
def web(tmp_path):
    """An app with a sugoroku league's first evening played a little, and the GM's browser logged in."""
    app = create_app({"DATA_DIR": str(tmp_path / "web"), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    client = app.test_client()
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "リーグ第1戦", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー"]}).get_json()
    gm = bearer(data["gm_token"])
    for body in ({"seat": "s1", "key": "vp", "value": 5, "reason": "勝利"},
                 {"seat": "s2", "key": "karma", "value": 9, "reason": "魂喰い"},
                 {"seat": "s2", "key": "position", "value": 6, "reason": "移動"}):
        assert client.post(f"/api/sessions/{data['session']}/counters", headers=gm, json=body).status_code == 200
    browser = app.test_client()
    assert browser.get(f"/s/{data['session']}/gm?k={data['gm_token']}").status_code == 302
    yield app, browser, data
    app.extensions["gmtool"].close_all()


def _continue(browser, data, title="リーグ第2戦", csrf=True):
    form = {"title": title} | ({"csrf": csrf_for(data["gm_token"])} if csrf else {})
    return browser.post(f"/s/{data['session']}/gm/continue", data=form)


def test_the_console_button_starts_the_next_session_with_what_carries(web):
    app, browser, data = web
    console = browser.get(f"/s/{data['session']}/gm").get_data(as_text=True)
    assert 'id="continue-console"' in console and f"/s/{data['session']}/gm/campaign" in console
    response = _continue(browser, data)
    assert response.status_code == 303
    match = re.fullmatch(r"/s/(\w+)/gm\?k=(.+)", response.headers["Location"])
    new_sid = match.group(1)
    assert browser.get(response.headers["Location"]).status_code == 302  # the new GM link logs in
    page = browser.get(f"/s/{new_sid}/gm").get_data(as_text=True)
    assert "リーグ第2戦" in page
    state = app.extensions["gmtool"].get(new_sid).state
    assert state.counters["s1"]["vp"] == 5 and state.counters["s2"]["karma"] == 9
    assert state.counters["s2"]["position"] == 0
    # the old phone links do not open the new session
    old_phone = app.test_client()
    assert old_phone.get(f"/join/{new_sid}?k={data['seats'][0]['token']}").status_code == 403
    # the campaign page, from either session, lists both in order with their date and outcome
    for sid in (data["session"], new_sid):
        campaign = browser.get(f"/s/{sid}/gm/campaign").get_data(as_text=True)
        campaign = campaign[campaign.index('id="campaign-sessions"'):]
        assert campaign.index("リーグ第1戦") < campaign.index("リーグ第2戦")
        assert "戦果 5" in campaign and "[討伐令]" in campaign
    assert "次のセッション" in browser.get(f"/s/{data['session']}/gm/campaign").get_data(as_text=True)


def test_continuing_is_refused_once_done_without_csrf_or_with_a_bad_title(web):
    app, browser, data = web
    count = len(app.extensions["gmtool"].list())
    assert _continue(browser, data, csrf=False).status_code == 403
    response = _continue(browser, data, title="長" * 81)
    assert response.status_code == 400 and "80" in response.get_data(as_text=True)
    assert len(app.extensions["gmtool"].list()) == count  # nothing was made
    assert _continue(browser, data).status_code == 303
    again = _continue(browser, data)
    assert again.status_code == 409
    text = again.get_data(as_text=True)
    assert "既に" in text and "already" in text
    assert len(app.extensions["gmtool"].list()) == count + 1
    stranger = app.test_client()
    assert stranger.post(f"/s/{data['session']}/gm/continue", data={"title": "x"}).status_code == 403


def test_the_api_continues_and_lists_a_campaign(web):
    app, browser, data = web
    client = app.test_client()
    sid = data["session"]
    assert client.post(f"/api/sessions/{sid}/continue", headers=bearer(data["seats"][0]["token"]),
                       json={}).status_code == 403
    assert client.post(f"/api/sessions/{sid}/continue", headers=bearer(data["gm_token"]),
                       json={"title": 3}).status_code == 400
    response = client.post(f"/api/sessions/{sid}/continue", headers=bearer(data["gm_token"]), json={"title": "第2戦"})
    assert response.status_code == 201
    out = response.get_json()
    assert out["previous"] == sid and out["title"] == "第2戦" and out["gm_token"] != data["gm_token"]
    listed = client.get(f"/api/sessions/{out['session']}/campaign", headers=bearer(out["gm_token"])).get_json()
    assert [s["title"] for s in listed["sessions"]] == ["リーグ第1戦", "第2戦"]
    assert set(listed["sessions"][0]) == {"id", "title", "date", "closed", "outcome"}
    # docs/api.md 14d: the new session's log, as the table reads it: one action by `system`, the carried counters with
    # rule `campaign` and the reason in both languages, the flags they raise
    log = client.get(f"/api/sessions/{out['session']}/log?limit=1000", headers=bearer(out["table_token"])).get_json()
    carried = [(e["actor"], e["type"], e["data"].get("rule"), e["data"].get("reason")) for e in log["events"][1:]]
    reason = {"ja": "前回（リーグ第1戦）から引き継ぎ", "en": "carried over from 'リーグ第1戦'"}
    assert carried == [("system", "campaign.continued", "campaign", None),
                       ("system", "counter.changed", "campaign", reason), ("system", "counter.changed", "campaign", reason),
                       ("system", "flag.raised", "S-12", None)]
    assert len({e["action"] for e in log["events"][1:]}) == 1


def test_a_whole_campaign_exports_in_one_file(web):
    app, browser, data = web
    location = _continue(browser, data).headers["Location"]
    new_sid = re.search(r"/s/(\w+)/gm", location).group(1)
    assert browser.get(location).status_code == 302
    gm = bearer(ADMIN_KEY)
    text = app.test_client().get(f"/api/sessions/{new_sid}/export?format=markdown&campaign=1&times=0",
                                 headers=gm).get_data(as_text=True)
    assert text.startswith("# キャンペーン: リーグ第1戦")
    first, second = text.index("## 第1回: リーグ第1戦"), text.index("## 第2回: リーグ第2戦")
    assert first < second < text.index("## 最終状況")
    assert "魂喰い" in text[first:second] and "次回「リーグ第2戦」に続く" in text[first:second]
    assert "前回「リーグ第1戦」の続き" in text[second:] and "（セイバー: 戦果 0→5）" in text[second:]
    download = browser.get(f"/s/{new_sid}/gm/export/download?format=mediawiki&campaign=1")
    assert download.headers["Content-Disposition"] == f'attachment; filename="gmtool-campaign-{new_sid}.wiki"'
    refused = browser.get(f"/s/{new_sid}/gm/export/download?format=json&campaign=1")
    assert refused.status_code == 400 and "JSON" in refused.get_data(as_text=True)
    # one session's export names the previous and the next one
    one = app.test_client().get(f"/api/sessions/{data['session']}/export?format=text", headers=gm)
    assert "次回: リーグ第2戦" in one.get_data(as_text=True)


def test_the_export_page_offers_no_scene_for_a_whole_campaign(web):
    """The scene picker is disabled and hidden while the whole campaign is chosen (a disabled field is not
    sent); the server still refuses a scene with campaign=1, saying why in both languages."""
    app, browser, data = web
    location = _continue(browser, data).headers["Location"]
    new_sid = re.search(r"/s/(\w+)/gm", location).group(1)
    assert browser.get(location).status_code == 302
    one = browser.get(f"/s/{new_sid}/gm/export?format=markdown").get_data(as_text=True)
    picker = re.search(r'<label id="scene-picker"([^>]*)>.*?<select name="scene"([^>]*)>', one, re.S)
    assert picker and "hidden" not in picker.group(1) and "disabled" not in picker.group(2)
    assert 'id="export-scope"' in one and "/static/export.js" in one
    whole = browser.get(f"/s/{new_sid}/gm/export?format=markdown&campaign=1").get_data(as_text=True)
    picker = re.search(r'<label id="scene-picker"([^>]*)>.*?<select name="scene"([^>]*)>', whole, re.S)
    assert picker and "hidden" in picker.group(1) and "disabled" in picker.group(2)
    refused = app.test_client().get(f"/api/sessions/{new_sid}/export?format=markdown&campaign=1&scene=0",
                                    headers=bearer(ADMIN_KEY)).get_json()["error"]
    assert refused["ja"] == "キャンペーン全体のエクスポートではシーンを選べません（シーンはセッションごとに書き出します）"
    assert refused["en"] == "A whole-campaign export cannot pick a scene (scenes are exported one session at a time)"
    page = browser.get(f"/s/{new_sid}/gm/export?format=markdown&campaign=1&scene=0")
    assert page.status_code == 400 and "scenes are exported one session at a time" in page.get_data(as_text=True)


def test_each_format_downloads_with_its_own_extension(web):
    _app, browser, data = web
    names = set()
    for fmt in FORMAT_NAMES:
        response = browser.get(f"/s/{data['session']}/gm/export/download?format={fmt}")
        assert response.status_code == 200
        names.add(response.headers["Content-Disposition"].rsplit(".", 1)[1])
    assert names == {'md"', 'wiki"', 'atwiki"', 'txt"', 'html"', 'json"'}
    assert len({suffix for _, suffix in MEDIA_TYPES.values()}) == len(FORMAT_NAMES)


def test_standings_first_or_last_and_a_bad_choice(web):
    _app, browser, data = web
    last = browser.get(f"/s/{data['session']}/gm/export/download?format=text").get_data(as_text=True)
    first = browser.get(f"/s/{data['session']}/gm/export/download?format=text&standings=first").get_data(as_text=True)
    assert last.index("開始") < last.index("最終状況") and first.index("最終状況") < first.index("開始")
    bad = browser.get(f"/s/{data['session']}/gm/export?standings=middle")
    assert bad.status_code == 400 and "standings" in bad.get_data(as_text=True)


def test_the_html_preview_renders_the_page_in_a_sandbox(web):
    _app, browser, data = web
    page = browser.get(f"/s/{data['session']}/gm/export?format=html&times=0").get_data(as_text=True)
    frame = re.search(r'<iframe class="preview" id="preview-frame" sandbox="" srcdoc="([^"]*)"', page)
    assert frame, "the HTML export is shown as a page, not as source"
    shown = html.unescape(frame.group(1))
    exported = browser.get(f"/s/{data['session']}/gm/export/download?format=html&times=0").get_data(as_text=True)
    assert shown == exported
    assert "<textarea" not in page
    text = browser.get(f"/s/{data['session']}/gm/export?format=markdown").get_data(as_text=True)
    assert '<textarea class="preview"' in text and "<iframe" not in text


# -- the closed session's screens lead on ------------------------------------------------------------

def _screen(app, url: str):
    """A browser logged in through `url` (a table or join link)."""
    screen = app.test_client()
    assert screen.get(url).status_code == 302
    return screen


def _banner(page: str) -> str:
    return re.search(r'<p class="closed-banner.*?</p>', page, re.S).group()


def test_closed_screens_lead_to_the_next_session_as_what_they_are(web):
    """Finding: after the GM closed a session and started the next one, the old table screen and phones said the
    session was closed but not where the game went on. Their banner now links to the next session (by its title):
    the table screen into the new table screen, a phone into its own seat there; the new token only goes into the
    new session's cookie (no page shows a token), and nothing leads on before the session is continued."""
    app, browser, data = web
    sid = data["session"]
    table = _screen(app, f"/s/{sid}/table?k={data['table_token']}")
    phones = [_screen(app, f"/join/{sid}?k={seat['token']}") for seat in data["seats"]]
    assert browser.post(f"/s/{sid}/gm/close", data={"csrf": csrf_for(data["gm_token"])}).status_code in (302, 303)
    before = _banner(table.get(f"/s/{sid}/table").get_data(as_text=True))
    assert "next-session" not in before and "data-awaits-next" in before  # the screen asks until it can lead on
    assert "data-awaits-next" in _banner(phones[0].get(f"/s/{sid}/phone").get_data(as_text=True))
    assert "data-awaits-next" not in browser.get(f"/s/{sid}/gm").get_data(as_text=True)  # the GM starts it
    early = table.get(f"/s/{sid}/table/next")
    assert early.status_code == 404 and "This session has not been continued" in early.get_data(as_text=True)
    assert "このセッションの続きはありません" in early.get_data(as_text=True)
    following = _continue(browser, data)
    new = re.fullmatch(r"/s/(\w+)/gm\?k=.+", following.headers["Location"]).group(1)
    new_live = app.extensions["gmtool"].get(new)
    tokens = [*new_live.join_tokens.values(), new_live.table_token, *(s["token"] for s in data["seats"])]

    banner = _banner(table.get(f"/s/{sid}/table").get_data(as_text=True))
    assert "リーグ第2戦" in banner and f'href="/s/{sid}/table/next"' in banner and "data-awaits-next" not in banner
    assert "リーグ第2戦" in _banner(table.get(f"/s/{sid}/table?lang=en").get_data(as_text=True))
    onward = table.get(f"/s/{sid}/table/next")
    assert onward.status_code == 302 and onward.headers["Location"] == f"/s/{new}/table"
    assert new_live.table_token not in onward.headers["Location"]
    assert "リーグ第2戦" in table.get(f"/s/{new}/table").get_data(as_text=True)
    for phone, seat in zip(phones, data["seats"]):
        page = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
        assert f'href="/s/{sid}/phone/next"' in _banner(page) and "data-awaits-next" not in _banner(page)
        assert not any(t in page for t in tokens)
        onward = phone.get(f"/s/{sid}/phone/next")
        assert onward.status_code == 302 and onward.headers["Location"] == f"/s/{new}/phone"
        assert phone.get_cookie(f"gmtool_seat_{new}").value == new_live.join_tokens[seat["id"]]  # its own seat's
        mine = phone.get(f"/s/{new}/phone").get_data(as_text=True)
        assert re.search(rf'<span class="brand">{seat["name"]}</span>', mine)
    # each screen takes only its own way: a phone is no table screen, the table no seat
    assert phones[0].get(f"/s/{sid}/table/next").status_code == 403
    assert table.get(f"/s/{sid}/phone/next").status_code == 403
    # the view says where the game went on (public: every viewer)
    state = app.test_client().get(f"/api/sessions/{sid}/state", headers=bearer(data["seats"][1]["token"])).get_json()
    assert state["session"]["next"] == {"id": new, "title": "リーグ第2戦"}


def test_a_phone_whose_seat_did_not_carry_over_is_sent_to_the_gm(web):
    """A phone goes on only as its own seat, and only if that seat carried over: a seat the previous session added
    after it was continued (whose id the next session gave to another player) and a seat whose link the GM
    reissued in the next session (the old holder shut out) are refused, in Japanese and English, with the way that
    works (a new QR code from the GM), and no cookie for the next session is set."""
    app, browser, data = web
    sid, manager = data["session"], app.extensions["gmtool"]
    new = re.fullmatch(r"/s/(\w+)/gm\?k=.+", _continue(browser, data).headers["Location"]).group(1)
    late_id, late_token = manager.get(sid).add_seat("ランサー")  # in the previous session, after the continuation
    other_id, _ = manager.get(new).add_seat("ライダー")  # the next session's own new seat, the same id
    assert late_id == other_id == "s3"
    manager.get(new).reissue_token("s2")
    assert browser.post(f"/s/{sid}/gm/close", data={"csrf": csrf_for(data["gm_token"])}).status_code in (302, 303)
    for token in (late_token, data["seats"][1]["token"]):
        phone = _screen(app, f"/join/{sid}?k={token}")
        refused = phone.get(f"/s/{sid}/phone/next")
        page = refused.get_data(as_text=True)
        assert refused.status_code == 403 and "ask the GM for the new QR code" in page and "GMに新しいQRコード" in page
        assert phone.get_cookie(f"gmtool_seat_{new}") is None
    carried = _screen(app, f"/join/{sid}?k={data['seats'][0]['token']}")
    assert carried.get(f"/s/{sid}/phone/next").status_code == 302
