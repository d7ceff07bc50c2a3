"""A screen's form says what its action did (web.common.act, screens.flash_text): the flash reads as the log of the
viewer who pressed it, in their language (「セイバー陣営: 令呪 3→2」 / "セイバー陣営: Command Seals 3→2"); it said
「OK」 for every action but a roll, an answer and an undo. A player's flash is built from that player's view: it never
holds what their own view would not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gmtool_testing import ADMIN_KEY, bearer, open_link
from test_screen_messages import GRAIL_A, GRAIL_B, Table, flash, grail_table

from gmtool.core.model import Label
from gmtool.core.ruleset import GM_ONLY, EventType, Ruleset, action, own_seat
from gmtool.rulesets import registry
from gmtool.web import create_app
from gmtool.web.common import csrf_for

COMMITMENT = re.compile(r"[0-9a-f]{12}")


def console(t: Table, path: str, form: dict, lang: str):
    """A core form of the GM console (counter, scenes, roll, close …), sent as htmx sends it."""
    return t.screens["gm"].post(f"/s/{t.sid}/gm/{path}?lang={lang}", data=form,
                                headers={"X-CSRF-Token": csrf_for(t.tokens["gm"]), "HX-Request": "true"})


@pytest.fixture
def grail(app, client) -> Table:
    return grail_table(app, client)


def said(response) -> str:
    """The flash of a form that succeeded, which never reads 「OK」."""
    assert response.status_code == 200, flash(response)
    text = flash(response)
    assert text and text != "OK", text
    return text


@pytest.mark.parametrize(("lang", "counter", "scene", "roll", "closed"), [
    ("ja", "セイバー陣営: 令呪 3→2", "■ 第2幕", "GM 回避: 2D6+1", "セッションを終了しました"),
    ("en", "セイバー陣営: Command Seals 3→2", "■ 第2幕", "GM 回避: 2D6+1", "The session is closed")])
def test_the_consoles_core_forms_say_what_they_did(grail, lang, counter, scene, roll, closed):
    """The counter's −, a scene, a roll and closing the session: each flash is the line the console's log gains, but
    the close's, which read the seed's 64 hex digits to the GM: it says in words that the session is closed (the seed
    stays in the log, the closed banner and the exports)."""
    assert said(console(grail, "counter", {"seat": "s1", "key": "seals", "delta": "-1"}, lang)).startswith(counter)
    assert said(console(grail, "scenes", {"title": "第2幕"}, lang)) == scene
    assert said(console(grail, "roll", {"expr": "2D6+1", "label": "回避"}, lang)).startswith(roll)
    # the console hiding answers (「回答を公開まで隠す」) says what its undo took back in the words of the undo's summary
    # (docs/api.md §6), made from the undone roll as that console sees it: it read a bare 「取り消し」
    assert console(grail, "settings", {"key": "hide_answers", "value": "on"}, lang).status_code == 200
    undo = "取り消し: " if lang == "ja" else "Undo: "
    assert said(console(grail, "undo", {}, lang)).startswith(undo + roll)
    assert said(console(grail, "close", {}, lang)) == closed


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(("ruleset", "seats", "steps", "who", "name", "form", "words"), [
    ("sugoroku", ["セイバー陣営", "アーチャー陣営"], [("setup", {})], "s1", "roll_move", {"faces": "4"},
     {"ja": "［実ダイス］セイバー陣営 移動（S-3）: 1D6 → [4] → 4", "en": "[real dice] セイバー陣営 Move (S-3): 1D6 → [4] → 4"}),
    ("succession", ["甲", "乙"], [], "gm", "setup", {"players": ["s1", "s2"], "first": "s1"},
     {"ja": "聖杯サクセション 第1ゲーム開始（甲・乙、手番を記録）", "en": "Grail Succession game 1 starts (甲 and 乙"}),
    ("illuminati", ["甲", "乙"], [], "gm", "setup", {},
     {"ja": "レギュレーション：2人（甲・乙）、基本ゴール12組織", "en": "Regulation: 2 players (甲, 乙), basic goal 12 groups"}),
    ("ace_royal", ["凛", "ウェイバー"], [("setup", {"version": "standard"})], "s2", "set_servant",
     {"hero_name": "イスカンダル", "hero_stats": "5/3/5/3", "class_name": "ライダー", "class_stats": "2/2/2/2"},
     {"ja": "ウェイバー のサーヴァント登録（秘密）: 英霊 イスカンダル 5/3/5/3 + クラス ライダー",
      "en": "ウェイバー set their servant (secret): hero イスカンダル 5/3/5/3 + class ライダー"}),
    ("grail_trpg", ["セイバー陣営", "アーチャー陣営"],
     [("set_characters", {"faction": "s1", "text": GRAIL_A}), ("set_characters", {"faction": "s2", "text": GRAIL_B})],
     "gm", "start_combat", {"a": "s1", "b": "s2"},
     {"ja": "■ 戦闘: セイバー陣営 vs アーチャー陣営 / 戦闘開始: セイバー陣営 vs アーチャー陣営", "en": "■ Combat: セイバー陣営 vs アーチャー陣営"}),
])
def test_a_ruleset_panels_form_says_what_it_did(app, client, lang, ruleset, seats, steps, who, name, form, words):
    """One form of each game's panel (the console's or a phone's): its flash is the log line of what it wrote, in the
    screen's language; more lines than a flash holds read as the first and how many more."""
    t = Table(app, client, ruleset, seats)
    for step, payload in steps:
        t.act(step, payload)
    text = said(t.post(name, form, who=who, lang=lang))
    assert text.startswith(words[lang]), text
    if text.endswith("more") or text.endswith("件"):
        assert re.search(r"… (and \d+ more|ほか \d+ 件)$", text), text


@pytest.mark.parametrize(("lang", "words"), [("ja", "✓ 送信しました: メイン アルトリア ("), ("en", "✓ Sent: Main アルトリア (")])
def test_a_phones_answer_through_its_panel_reads_as_its_receipt(grail, lang, words):
    """The grail panel's own answer form (a ruleset action) said 「OK」; it reads like any answer: what was sent and
    when, in words, never the commitment (the log's line carries its first 12 digits)."""
    grail.act("start_combat", {"a": "s1", "b": "s2"})
    text = said(grail.post("answer", {"prompt": "c1-setup", "main": "s1/アルトリア"}, who="s1", lang=lang))
    assert text.startswith(words) and not COMMITMENT.search(text), text


def _peek(tmp_path: Path) -> Ruleset:
    """A game whose seat action draws a card for the seat (its own to see) and notes the deck's next card for the GM
    (the GM's alone); `note` writes only the GM's part."""
    def nothing(state, event):
        pass

    def draw(state, payload, ctx):
        return [("peek.drawn", {"seat": ctx.viewer.seat, "card": "ハートのエース"}),
                ("peek.deck", {"next": "スペードのキング"})]

    def note(state, payload, ctx):
        return [("peek.deck", {"next": "スペードのキング"})]

    return Ruleset(
        name="peek", label=Label("のぞき見", "Peek"),
        events=(EventType("peek.drawn", nothing, lambda e, s, lang: f"{s.seat_name(e['data']['seat'])}: "
                          + (f"引いた札 {e['data']['card']}" if lang != "en" else f"drew {e['data']['card']}"),
                          own_seat("seat"), undoable=True),
                EventType("peek.deck", nothing, lambda e, s, lang: ("山札の次" if lang != "en" else "Next in the deck")
                          + f": {e['data']['next']}", GM_ONLY, undoable=True)),
        actions=dict((action("draw", "引く", "Draw", draw, who="seat"), action("note", "控える", "Note", note, who="seat"))),
        template_dir=tmp_path)


@pytest.mark.parametrize(("lang", "drew", "done"), [("ja", "ミナ: 引いた札 ハートのエース", "完了しました"),
                                                    ("en", "ミナ: drew ハートのエース", "Done")])
def test_a_players_flash_holds_only_what_their_own_view_holds(tmp_path, monkeypatch, lang, drew, done):
    """A phone's action that also writes the GM's secret (the deck's next card): the phone's flash says what the player
    did and nothing of the secret; an action all of whose events are the GM's says a neutral word; the GM's own flash of
    the same action names both, as the GM's log does."""
    found = dict(registry())
    found["peek"] = _peek(tmp_path)
    monkeypatch.setattr("gmtool.rulesets.registry", lambda: found)
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    data = app.test_client().post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "t", "ruleset": "peek", "seats": ["ミナ", "ケン"]}).get_json()
    sid, token = data["session"], data["seats"][0]["token"]
    phone = open_link(app, data["seats"][0]["join_url"])

    def press(name):
        return said(phone.post(f"/s/{sid}/phone/actions/{name}?lang={lang}",
                               headers={"X-CSRF-Token": csrf_for(token), "HX-Request": "true"}))

    assert press("draw") == drew
    assert press("note") == done
    gm = open_link(app, data["gm_url"])
    response = gm.post(f"/s/{sid}/gm/actions/note?lang={lang}", headers={"X-CSRF-Token": csrf_for(data["gm_token"]),
                                                                        "HX-Request": "true"})
    assert said(response).endswith("スペードのキング")
    app.extensions["gmtool"].close_all()


@pytest.mark.parametrize(("lang", "win"), [("ja", "アリスの勝利！（他の全員が脱落）"), ("en", "アリス wins! (")])
def test_an_attack_that_wins_the_game_says_the_win(client, lang, win):
    """I-7/I-1: an attack that puts the last other player out wins the game; its flash read 「攻撃判定：…（the long
    breakdown）… …ほか 4 件」, the win cut away (the screens showed it). A flash of an action that ends the game leads
    with the win (EventType.ends_game) and is shown whole."""
    from test_illuminati_api import attack_on_kgb
    from test_illuminati_api import new_game as new_illuminati
    game = new_illuminati(client)
    attack_on_kgb(game)  # s1 attacks s3's KGB, its one group
    for seat in ("s2", "s4"):
        game["act"]("eliminate", {"seat": seat, "reason": "goal_cards"})
    game["act"]("modify", {"side": "attack", "amount": 5, "label": "Mind Control"})  # achieved 5: 2d6 of 2 succeeds
    phone = open_link(client.application, f"/join/{game['sid']}?k={game['tokens']['s1']}")
    response = phone.post(f"/s/{game['sid']}/phone/actions/roll_attack?lang={lang}", data={"faces": "1 1"},
                          headers={"X-CSRF-Token": csrf_for(game["tokens"]["s1"]), "HX-Request": "true"})
    text = said(response)
    assert text.startswith(win) and re.search(r"…( and 4 more|ほか 4 件)$", text), text
    assert "flash-whole" in response.get_data(as_text=True)
