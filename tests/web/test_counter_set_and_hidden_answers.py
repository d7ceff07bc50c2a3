"""Issue 12: a counter's set box (+N / -N relative, bounds in words, a reason raises a bound) on the GM
console and the API; the GM console's 'hide answers until the reveal' toggle, remembered per session."""

from __future__ import annotations

import re
from html import unescape

import pytest

from gmtool.web import create_app
from gmtool_testing import ADMIN_KEY, bearer, open_link


def gm_post(screens, path, data=None, lang=None):
    query = f"?lang={lang}" if lang else ""
    return screens.gm.post(f"/s/{screens.sid}/gm/{path}{query}", data=data or {},
                           headers={"X-CSRF-Token": screens.csrf("gm"), "HX-Request": "true"})


def value_of(client, screens, seat, key):
    state = client.get(f"/api/sessions/{screens.sid}/state", headers=bearer(screens.token("gm"))).get_json()
    return next(s for s in state["seats"] if s["id"] == seat)["counters"][key]


@pytest.mark.parametrize("typed, expected", [("+2", 7), ("-3", 2), ("＋1", 6), ("−5", 0), ("2", 2), ("12", 12)])
def test_console_set_box_plus_minus_is_relative_plain_sets(client, screens, typed, expected):
    gm_post(screens, "counter", {"seat": "s2", "key": "vp", "value": "5"})
    response = gm_post(screens, "counter", {"seat": "s2", "key": "vp", "value": typed})
    assert response.status_code == 200
    assert value_of(client, screens, "s2", "vp") == expected


@pytest.mark.parametrize("lang, words", [(None, "令呪は0から3までの範囲です"), ("en", "Command Seals must be from 0 to 3")])
def test_console_refuses_seals_above_their_start_in_words(client, screens, lang, words):
    if lang:
        screens.gm.get(f"/s/{screens.sid}/gm?lang={lang}")
    for typed in ("10", "+1"):
        response = gm_post(screens, "counter", {"seat": "s1", "key": "seals", "value": typed})
        html = response.get_data(as_text=True)
        assert response.status_code == 400 and "flash-error" in html
        assert words in html and "∞" not in html
    assert value_of(client, screens, "s1", "seals") == 3


@pytest.mark.parametrize("typed", ["abc", "+", "1.5", "++1"])
def test_console_bad_set_text_is_a_clear_error_and_changes_nothing(client, screens, typed):
    version = client.get(f"/api/sessions/{screens.sid}/state", headers=bearer(screens.token("gm"))).get_json()[
        "session"]["version"]
    response = gm_post(screens, "counter", {"seat": "s1", "key": "vp", "value": typed})
    assert response.status_code == 400
    assert "整数で入力してください" in response.get_data(as_text=True)
    state = client.get(f"/api/sessions/{screens.sid}/state", headers=bearer(screens.token("gm"))).get_json()
    assert state["session"]["version"] == version


def test_console_reason_raises_one_seats_bound(client, screens):
    assert gm_post(screens, "counter", {"seat": "s1", "key": "seals", "value": "+2", "reason": "監督役の褒賞"}).status_code == 200
    assert value_of(client, screens, "s1", "seals") == 5
    log = client.get(f"/api/sessions/{screens.sid}/log", headers=bearer(screens.token("table"))).get_json()["events"]
    assert log[-1]["data"]["max"] == 5 and "上限を5に" in log[-1]["text"]
    assert gm_post(screens, "counter", {"seat": "s2", "key": "seals", "value": "4"}).status_code == 400


@pytest.mark.parametrize("body, expected", [({"value": "+2"}, 9), ({"value": "-2"}, 5), ({"value": 2}, 2),
                                            ({"value": "2"}, 2), ({"value": -2}, -2), ({"delta": "-2"}, 5)])
def test_api_value_text_with_a_sign_is_relative(client, screens, body, expected):
    gm = bearer(screens.token("gm"))
    client.post(f"/api/sessions/{screens.sid}/counters", headers=gm, json={"seat": "s1", "key": "vp", "value": 7})
    response = client.post(f"/api/sessions/{screens.sid}/counters", headers=gm, json={"seat": "s1", "key": "vp", **body})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["value"] == expected


def test_api_karma_99_is_refused_in_both_languages(client, screens):
    response = client.post(f"/api/sessions/{screens.sid}/counters", headers=bearer(screens.token("gm")),
                           json={"seat": "s1", "key": "karma", "value": 99})
    error = response.get_json()["error"]
    assert response.status_code == 400
    assert error["ja"].startswith("カルマは0から30までの範囲です（99にはできません）")
    assert error["en"].startswith("Karma must be from 0 to 30 (cannot become 99)")


# -- hide answers until the reveal -----------------------------------------------------------------------

def open_prompt_and_answer(screens):
    assert gm_post(screens, "prompts", {"title": "1stセレクト", "kind": "choice", "options": "筋力\n耐久\n敏捷",
                                        "seats": ["s1", "s2"]}).status_code == 200
    answered = screens.seats["s1"].post(f"/s/{screens.sid}/phone/prompts/p1/answer", data={"value": "耐久"},
                                        headers={"X-CSRF-Token": screens.csrf("s1"), "HX-Request": "true"})
    assert answered.status_code == 200


def console(screens, fragment=False):
    headers = {"HX-Request": "true"} if fragment else {}
    return screens.gm.get(f"/s/{screens.sid}/gm", headers=headers).get_data(as_text=True)


def test_generic_console_shows_answers_by_default_and_hides_them_when_toggled(client, screens):
    open_prompt_and_answer(screens)
    html = console(screens)
    assert 'id="hide-answers" aria-pressed="false"' in html
    assert 'class="answer-value">耐久<' in html and "→ 耐久" in html  # prompt panel and log
    assert gm_post(screens, "settings", {"key": "hide_answers", "value": "on"}).status_code == 200
    for fragment in (False, True):
        html = console(screens, fragment)
        assert 'id="hide-answers" aria-pressed="true"' in html
        assert "耐久" not in html.split('id="gm-prompts"')[1].split("</section>")[0].replace("筋力\n耐久", "")
        assert 'class="answer-value"' not in html and "→ 耐久" not in html
        assert "回答は公開まで隠しています" in html
    # only the console: the GM's API view and the GM's log still carry the answer
    state = client.get(f"/api/sessions/{screens.sid}/state", headers=bearer(screens.token("gm"))).get_json()
    assert state["prompts"][0]["answers"]["s1"]["value"] == "耐久"
    # off again: the GM sees them
    assert gm_post(screens, "settings", {"key": "hide_answers", "value": "off"}).status_code == 200
    assert 'class="answer-value">耐久<' in console(screens)


def test_hidden_answers_show_after_the_reveal(screens):
    open_prompt_and_answer(screens)
    gm_post(screens, "settings", {"key": "hide_answers", "value": "on"})
    assert gm_post(screens, "prompts/p1/reveal", {"reason": ""}).status_code == 200
    assert 'class="answer-value">耐久<' in console(screens)


def test_the_gms_own_answer_is_hidden_with_the_others_until_the_reveal(client, screens):
    """PL対GM (T-2): with 回答を公開まで隠す on, the console still showed the GM's own answer (「GM ✓ 封印済み 筋力」,
    the form's 「送信しました: 筋力」 and its choice marked) to any player who could see the laptop. It shows that the
    GM answered, not what, until the reveal; the GM's API view still carries it. What the GM sent is there for the GM
    to check, in a closed disclosure under the receipt (it confirmed only 「✓ 送信しました」 while a phone says its
    choice): shown when the GM opens it, never on another screen."""
    assert gm_post(screens, "prompts", {"title": "1stセレクト", "kind": "choice", "options": "筋力\n耐久\n敏捷",
                                        "seats": ["s1"], "gm_submits": "on"}).status_code == 200
    gm_post(screens, "settings", {"key": "hide_answers", "value": "on"})
    sent = gm_post(screens, "prompts/p1/answer", {"value": "敏捷"})
    assert sent.status_code == 200 and "✓ 送信しました (" in unescape(sent.get_data(as_text=True))
    assert "敏捷" not in sent.get_data(as_text=True).replace("筋力\n耐久\n敏捷", ""), sent.get_data(as_text=True)  # the flash
    for fragment in (False, True):
        html = console(screens, fragment)
        prompts = html.split('id="gm-prompts"')[1].split("</section>")[0].replace("筋力\n耐久\n敏捷", "")
        assert 'class="answer-value"' not in prompts and "→ 敏捷" not in html and ": 敏捷" not in prompts, prompts
        assert 'class="choice chosen"' not in prompts
        assert "✓ 送信しました" in prompts and "回答は公開まで隠しています" in prompts
        assert re.search(r'<form class="answer-form"[^>]*data-reset', prompts)  # the tapped choice is cleared once sent
        own = re.search(r'<details class="own-answer"( open)?[^>]*><summary>送った内容を見る（GMのみ）</summary>\s*'
                        r'<span class="own-answer-value">(.*?)</span>', prompts)
        assert own and own.group(1) is None and own.group(2) == "敏捷", prompts  # closed until the GM opens it
    english = screens.gm.get(f"/s/{screens.sid}/gm?lang=en").get_data(as_text=True)
    assert re.search(r'<summary>Show what you sent \(GM only\)</summary>\s*<span class="own-answer-value">敏捷<', english)
    screens.gm.get(f"/s/{screens.sid}/gm?lang=ja")  # the console's language is remembered: back to Japanese
    table = screens.table.get(f"/s/{screens.sid}/table").get_data(as_text=True).replace("筋力\n耐久\n敏捷", "")
    assert "own-answer" not in table and "敏捷" not in table
    state = client.get(f"/api/sessions/{screens.sid}/state", headers=bearer(screens.token("gm"))).get_json()
    assert state["prompts"][0]["answers"]["gm"]["value"] == "敏捷"
    gm_post(screens, "settings", {"key": "hide_answers", "value": "off"})
    assert "送信しました: 敏捷" in console(screens)


def test_the_setting_is_remembered_by_the_session(tmp_path, screens, app):
    gm_post(screens, "settings", {"key": "hide_answers", "value": "on"})
    data_dir = app.config["DATA_DIR"]
    app.extensions["gmtool"].close_all()
    again = create_app({"DATA_DIR": data_dir, "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    try:
        gm = open_link(again, screens.data["gm_url"])
        html = gm.get(f"/s/{screens.sid}/gm").get_data(as_text=True)
        assert 'id="hide-answers" aria-pressed="true"' in html
    finally:
        again.extensions["gmtool"].close_all()


def test_setting_is_the_gms_alone_and_checked(client, screens):
    assert gm_post(screens, "settings", {"key": "hide_answers", "value": "maybe"}).status_code == 400
    unknown = gm_post(screens, "settings", {"key": "nonsense", "value": "on"})
    assert unknown.status_code == 404 and "nonsense" not in unknown.get_data(as_text=True)  # said in words, not echoed
    assert "その設定はありません" in unknown.get_data(as_text=True)
    log = client.get(f"/api/sessions/{screens.sid}/log", headers=bearer(screens.token("table"))).get_json()["events"]
    gm_post(screens, "settings", {"key": "hide_answers", "value": "on"})
    after = client.get(f"/api/sessions/{screens.sid}/log", headers=bearer(screens.token("table"))).get_json()["events"]
    assert after == log  # the table never learns the GM's console settings
    gm_log = client.get(f"/api/sessions/{screens.sid}/log", headers=bearer(screens.token("gm"))).get_json()["events"]
    assert gm_log[-1]["type"] == "setting.set" and gm_log[-1]["text"] == "GM画面: 回答を公開まで隠す"


def test_grail_console_hides_answers_by_default_when_the_gm_controls_a_faction(client, admin, app):
    created = client.post("/api/sessions", headers=admin, json={"title": "PL対GM", "ruleset": "grail_trpg",
                                                               "seats": ["セイバー陣営", "アーチャー陣営"]}).get_json()
    gm = open_link(app, created["gm_url"])
    sid = created["session"]
    assert 'id="hide-answers" aria-pressed="false"' in gm.get(f"/s/{sid}/gm").get_data(as_text=True)
    response = client.post(f"/api/sessions/{sid}/actions/set_characters", headers=bearer(created["gm_token"]),
                           json={"faction": "gm", "text": "シャドウサーヴァント 筋力40 耐久40 敏捷40 魔力40 幸運40 宝具40"})
    assert response.status_code == 200, response.get_json()
    assert 'id="hide-answers" aria-pressed="true"' in gm.get(f"/s/{sid}/gm").get_data(as_text=True)


# -- the QR sheet ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang, wifi, typed, print_", [
    ("ja", "GMのノートPCと同じWi-Fi", "このアドレスをブラウザに入力", "印刷する"),
    ("en", "same Wi-Fi as the GM's laptop", "type this address", "Print")])
def test_qr_sheet_has_a_typed_address_and_a_wifi_hint_under_each_code(screens, lang, wifi, typed, print_):
    html = unescape(screens.gm.get(f"/s/{screens.sid}/gm/qr?lang={lang}").get_data(as_text=True))
    assert f'onclick="window.print()">{print_}</button>' in html  # a word, not an emoji a laptop may lack
    cards = html.split('class="qr-card"')[1:]
    assert len(cards) == len(screens.data["seats"]) + 1  # every seat and the table screen
    for card, url in zip(cards, [s["join_url"] for s in screens.data["seats"]] + [screens.data["table_url"]]):
        assert wifi in card and typed in card
        assert card.index("<svg") < card.index(f'<p class="typed-url"><code>{url}</code>')


@pytest.mark.parametrize(("lang", "off", "on"), [
    ("ja", "今はGM画面のログと質問に回答が出ています", "誰が回答したかだけを出します"),
    ("en", "The console&#39;s log and prompts show the answers now", "show who answered, not what")])
def test_the_toggles_hint_says_what_the_console_shows_now(screens, lang, off, on):
    """Browser review: under 「回答を公開まで隠す: オフ」 the console read that its log and prompts show only who
    answered, which is what it does when on; the hint now says what the console shows in the current state."""
    def hint():
        page = screens.gm.get(f"/s/{screens.sid}/gm?lang={lang}").get_data(as_text=True)
        return page.split('class="row hide-answers"', 1)[1].split('<p class="hint open-only">', 1)[1].split("</p>", 1)[0]
    assert off in hint() and on not in hint()
    assert gm_post(screens, "settings", {"key": "hide_answers", "value": "on"}).status_code == 200
    assert on in hint() and off not in hint()
