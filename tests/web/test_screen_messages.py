"""What the screens read back: a refusal answered to a console or phone form names the button or field as that
screen shows it (never an API action or field such as end_combat, force, seat), and a value not entered yet reads
as a word, in either language."""

from __future__ import annotations

import html
import re

import pytest
from gmtool_testing import ADMIN_KEY, bearer, open_link

from gmtool.web.common import csrf_for


class Table:
    """A session of `ruleset` with every screen logged in; `post` sends a screen's form the way htmx does."""

    def __init__(self, app, client, ruleset: str, seats: list[str]):
        data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
            "title": "卓", "ruleset": ruleset, "seats": seats}).get_json()
        self.client, self.sid = client, data["session"]
        self.tokens = {"gm": data["gm_token"], **{s["id"]: s["token"] for s in data["seats"]}}
        self.screens = {"gm": open_link(app, data["gm_url"]), **{s["id"]: open_link(app, s["join_url"]) for s in data["seats"]}}

    def act(self, name: str, payload: dict | None = None, who: str = "gm") -> dict:
        """An action through the API (the setting up a test needs)."""
        r = self.client.post(f"/api/sessions/{self.sid}/actions/{name}", headers=bearer(self.tokens[who]), json=payload or {})
        assert r.status_code == 200, (name, r.get_json())
        return r.get_json()

    def post(self, name: str, form: dict, who: str = "gm", lang: str = "ja"):
        """A screen's ruleset form (console or phone), answered with a flash fragment."""
        path = f"/s/{self.sid}/gm/actions/{name}" if who == "gm" else f"/s/{self.sid}/phone/actions/{name}"
        return self.screens[who].post(f"{path}?lang={lang}", data=form,
                                      headers={"X-CSRF-Token": csrf_for(self.tokens[who]), "HX-Request": "true"})

    def page(self, who: str = "gm", lang: str = "ja") -> str:
        path = f"/s/{self.sid}/gm" if who == "gm" else f"/s/{self.sid}/phone"
        r = self.screens[who].get(f"{path}?lang={lang}")
        assert r.status_code == 200
        return r.get_data(as_text=True)


def flash(response) -> str:
    """The flash's text."""
    return html.unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True))).strip()


@pytest.mark.parametrize(("lang", "word"), [("ja", "未登録"), ("en", "Not set")])
def test_ace_royal_console_says_a_servant_is_not_set_yet(app, client, lang, word):
    """Before a player sets their servant, the console's servant column reads 未登録 / Not set (it read "- + -")."""
    t = Table(app, client, "ace_royal", ["凛", "ウェイバー"])
    t.act("setup", {"version": "standard"})
    t.act("set_servant", {"hero_name": "イスカンダル", "hero_stats": "5/3/5/3", "class_name": "ライダー",
                          "class_stats": "2/2/2/2"}, who="s2")
    rows = re.findall(r"<tr class=\"[^\"]*\"><th>(.*?)</tr>", t.page("gm", lang), flags=re.S)
    cells = {re.sub(r"<[^>]+>|★", "", row.split("</th>")[0]).strip(): row.split("<td>")[1] for row in rows}
    assert word in cells["凛"] and "- + -" not in re.sub(r"<[^>]+>", "", cells["凛"])
    assert word not in cells["ウェイバー"] and "イスカンダル" in cells["ウェイバー"]


GRAIL_A = "アルトリア(セイバー) 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60"
GRAIL_B = "エミヤ(アーチャー) 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50"


def grail_table(app, client) -> Table:
    """A grail session of two factions with their characters set (GRAIL_A, GRAIL_B)."""
    t = Table(app, client, "grail_trpg", ["セイバー陣営", "アーチャー陣営"])
    t.act("set_characters", {"faction": "s1", "text": GRAIL_A})
    t.act("set_characters", {"faction": "s2", "text": GRAIL_B})
    return t


@pytest.fixture
def grail(app, client) -> Table:
    return grail_table(app, client)


@pytest.mark.parametrize(("lang", "said"), [("ja", "「打ち切り」で打ち切って"), ("en", "stop it with 'End combat'")])
def test_grail_a_second_start_names_the_consoles_end_combat_button(grail, lang, said):
    """The console's 戦闘開始 sent twice (a double click, a second tab): the refusal names the console's 打ち切り
    button (it said "end_combat", the API's action)."""
    assert grail.post("start_combat", {"a": "s1", "b": "s2"}).status_code == 200
    r = grail.post("start_combat", {"a": "s1", "b": "s2"}, lang=lang)
    assert r.status_code == 409 and said in flash(r) and "end_combat" not in flash(r)
    assert f">{ {'ja': '打ち切り', 'en': 'End combat'}[lang]}</button>" in grail.page("gm", lang)  # the button it names


@pytest.mark.parametrize(("lang", "said", "button"), [("ja", "「戦闘開始」で始めて", "戦闘開始"),
                                                      ("en", "with the 'Start' button", "Start")])
def test_grail_a_step_after_the_combat_names_the_consoles_start_button(grail, lang, said, button):
    """The console's next step sent once the combat is over (a double click on its last step): the refusal names
    the console's 戦闘開始 button (it said "start_combat", the API's action)."""
    grail.act("start_combat", {"a": ["s1"], "b": ["s2"]})
    grail.act("end_combat")
    r = grail.post("next_step", {}, lang=lang)
    assert r.status_code == 409 and said in flash(r) and "start_combat" not in flash(r)
    assert f">{button}</button>" in grail.page("gm", lang)


@pytest.fixture
def sugoroku(app, client) -> Table:
    """Three players on a board of 30, set up."""
    t = Table(app, client, "sugoroku", ["セイバー", "アーチャー", "ランサー"])
    t.act("setup", {"board_length": 30, "order": ["s1", "s2", "s3"], "players": {
        s: {"servant": n, "mana": 4} for s, n in (("s1", "セイバー"), ("s2", "アーチャー"), ("s3", "ランサー"))}})
    return t


def sugoroku_moves(t: Table) -> None:
    """Everyone moves, in the phase's order (s1 1 square, s2 2, s3 3: never onto one square, no battle)."""
    steps = {"s1": 1, "s2": 2, "s3": 3}
    while (mover := t.client.get(f"/api/sessions/{t.sid}/state", headers=bearer(t.tokens["gm"])).get_json()["ruleset"]["current"]):
        t.act("roll_move", {"faces": [steps[mover]]}, who=mover)


@pytest.mark.parametrize(("lang", "said", "button"), [
    ("ja", "それでも終えるなら「行動フェイズ終了 (強制)」", "行動フェイズ終了 (強制)"),
    ("en", "to end it anyway: 'End the action phase (force)'", "End the action phase (force)")])
def test_sugoroku_ending_a_phase_twice_names_the_forced_button(sugoroku, lang, said, button):
    """The console's 行動フェイズ終了 sent twice once everyone moved (a double click): the second finds nobody moved
    in the next phase, and names the console's forced button (it said "force", the API's field)."""
    sugoroku_moves(sugoroku)
    assert sugoroku.post("end_phase", {}).status_code == 200
    r = sugoroku.post("end_phase", {}, lang=lang)
    assert r.status_code == 409 and said in flash(r) and "force で" not in flash(r) and "use force" not in flash(r)
    assert button in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", sugoroku.page("gm", lang)))


@pytest.mark.parametrize(("lang", "said", "buttons"), [
    ("ja", "「一斉公開」してから「結果を確定」", ("一斉公開", "結果を確定")),
    ("en", "press 'Reveal', then 'Confirm result'", ("Reveal", "Confirm result"))])
def test_sugoroku_the_next_round_before_the_vote_names_the_vote_buttons(sugoroku, lang, said, buttons):
    """The console's next-round form (it sends no force) while the true-name vote is open: the refusal says how
    to finish the vote on the console (it said "force", a field the console cannot send). The console does not offer
    it until then: its button is disabled, the reason beside it (it offered 「ラウンド2 へ」, which could only be
    refused), and enabled once the vote is confirmed."""
    for _ in range(8):
        sugoroku_moves(sugoroku)
        sugoroku.act("end_phase")
    sugoroku.act("end_round")
    page = sugoroku.page("gm", lang)
    start = re.compile(r'<button class="primary" id="sg-start-round"([^>]*)>')
    assert start.search(page).group(1) == ' disabled aria-describedby="sg-vote-waiting"', start.search(page)
    assert re.search(r'id="sg-vote-waiting">[^<]*' + ("真名看破投票を終えて" if lang == "ja" else "Finish the true-name vote"), page)
    r = sugoroku.post("start_round", {"board_length": "30"}, lang=lang)
    assert r.status_code == 409 and said in flash(r) and "force" not in flash(r)
    assert f">{buttons[0]}</button>" in page  # the vote's card on the console; 結果を確定 follows the reveal
    path = re.search(r'hx-post="([^"]*/prompts/sg-vote[^"/]*/reveal)"', page).group(1)  # the console's 一斉公開
    reveal = sugoroku.screens["gm"].post(path, headers={
        "X-CSRF-Token": csrf_for(sugoroku.tokens["gm"]), "HX-Request": "true"})
    assert reveal.status_code == 200 and f">{buttons[1]}</button>" in sugoroku.page("gm", lang)
    vote = re.search(r"/prompts/(sg-vote[^/]*)/reveal", path).group(1)
    confirm = sugoroku.client.post(f"/api/sessions/{sugoroku.sid}/prompts/{vote}/confirm", headers=bearer(sugoroku.tokens["gm"]))
    assert confirm.status_code == 200, confirm.get_json()
    page = sugoroku.page("gm", lang)
    assert start.search(page).group(1) == "" and 'id="sg-vote-waiting"' not in page  # the vote is done: offered


@pytest.mark.parametrize(("lang", "said"), [("ja", "席を選んでください"), ("en", "Choose a seat")])
def test_sugoroku_a_console_form_with_no_seat_to_choose_asks_for_a_seat(sugoroku, lang, said):
    """Every true name revealed, the console's 真名公開 form has no seat left in its list: sent anyway, the refusal
    asks for a seat (it said 「席（seat）」, the API's field)."""
    for seat in ("s1", "s2", "s3"):
        sugoroku.act("reveal_true_name", {"seat": seat})
    form = re.search(r'<form class="row" hx-post="[^"]*/reveal_true_name".*?</form>', sugoroku.page("gm", lang), re.S).group(0)
    assert "<option" not in form
    r = sugoroku.post("reveal_true_name", {"reason": ""}, lang=lang)
    assert r.status_code == 400 and flash(r) == said


REMATCH = {"ja": "「再戦（先手交代）」", "en": "'Rematch (first player flipped)'"}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_succession_a_move_after_the_game_names_the_rematch_button(app, client, lang):
    """The phone's 取る tapped twice as it ends the game (the third grail taken): the refusal names the console's
    再戦 button (it said "rematch", the API's action)."""
    t = Table(app, client, "succession", ["アルトリア", "ギルガメッシュ"])
    t.act("setup", {"first": "s1", "row": ["grail", "grail"]})
    t.act("play", {"card": "grail"}, who="s1")
    assert t.post("take", {}, who="s2").status_code == 200
    r = t.post("take", {}, who="s2", lang=lang)
    assert r.status_code == 409 and REMATCH[lang] in flash(r) and "rematch with rematch" not in flash(r)
    assert f">{REMATCH[lang][1:-1]}</button>" in t.page("gm", lang)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_succession_the_setup_sent_twice_names_the_rematch_button(app, client, lang):
    """The console's ゲーム開始 sent twice (a double click): the refusal names 再戦 (it said "rematch")."""
    t = Table(app, client, "succession", ["アルトリア", "ギルガメッシュ"])
    form = {"first": "s1", "row": ["+1", "+2"]}
    assert t.post("setup", form).status_code == 200
    r = t.post("setup", form, lang=lang)
    assert r.status_code == 409 and REMATCH[lang] in flash(r) and ": rematch" not in flash(r)


@pytest.mark.parametrize(("lang", "said"), [("ja", "入れ替えるときは「場の礼装と入れ替え」"),
                                            ("en", "to swap one: 'Replace one on the field'")])
def test_ace_royal_placing_a_code_with_every_slot_full_names_the_replace_button(app, client, lang, said):
    """The phone's 礼装を配置 with all four slots full: the refusal names the phone's 場の礼装と入れ替え button (it
    said "replace", the API's field)."""
    t = Table(app, client, "ace_royal", ["凛", "ウェイバー"])
    t.act("setup", {"version": "standard"})
    t.act("roll_first", {"faces": [6, 2]})
    for seat, hero in (("s1", "遠坂の秘蔵英霊"), ("s2", "イスカンダル")):
        t.act("set_servant", {"hero_name": hero, "hero_stats": "5/3/5/3", "class_name": "セイバー",
                              "class_stats": "2/2/2/2"}, who=seat)
    t.act("start_game")
    t.act("step", who="s1")
    t.act("step", who="s1")
    t.act("adjust", {"seat": "s1", "key": "codes", "delta": 4, "reason": "テスト"})
    assert f">{ {'ja': '場の礼装と入れ替え', 'en': 'Replace one on the field'}[lang]}</button>" in t.page("s1", lang)
    r = t.post("place_code", {}, who="s1", lang=lang)
    assert r.status_code == 409 and said in flash(r) and "replace" not in flash(r).replace("Replace", "")


@pytest.mark.parametrize(("lang", "said", "button"), [("ja", "それでも飛ばすなら「手番を飛ばす」", "手番を飛ばす"),
                                                      ("en", "to skip it anyway: 'Skip the turn'", "Skip the turn")])
def test_succession_skipping_a_turn_that_has_a_move_names_the_skip_button(app, client, lang, said, button):
    """The console's 手番を飛ばす as it was drawn for a stuck player (force 0; a double click moves the turn on to one
    who is not): the refusal names that button, which skips anyway once the console shows the new turn (it said
    "force", the API's field)."""
    t = Table(app, client, "succession", ["アルトリア", "ギルガメッシュ"])
    t.act("setup", {"first": "s1", "row": ["+1", "+2"]})
    page = t.page("gm", lang)
    assert re.search(r'hx-vals=\'\{"seat": "s1", "force": "1"\}\'>' + button + "</button>", page)
    r = t.post("skip_turn", {"seat": "s1", "force": "0"}, lang=lang)
    assert r.status_code == 409 and said in flash(r) and "force" not in flash(r)


@pytest.mark.parametrize(("lang", "said", "buttons"), [
    ("ja", "「結果を確定」しても何も適用されません。そのあと「出し直す」", ("結果を確定", "出し直す")),
    ("en", "'Confirm the result', which applies nothing, then 'Open it again'", ("Confirm the result", "Open it again"))])
def test_grail_a_select_revealed_without_an_answer_names_the_consoles_buttons(grail, lang, said, buttons):
    """A select revealed before a side answered: its result says how to open it again with the console's buttons
    (it said "cancel, then next_step": the API's action, and a revealed prompt cannot be cancelled)."""
    grail.act("start_combat", {"a": ["s1"], "b": ["s2"]})
    sid = grail.sid
    prompt = grail.client.get(f"/api/sessions/{sid}/state", headers=bearer(grail.tokens["gm"])).get_json()["ruleset"]["combat"]["prompt"]
    r = grail.client.post(f"/api/sessions/{sid}/prompts/{prompt}/reveal", headers=bearer(grail.tokens["gm"]), json={})
    assert r.status_code == 200, r.get_json()
    page = grail.page("gm", lang)
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page)))
    assert said in text and "next_step" not in text
    assert f">{buttons[0]}</button>" in page  # the button it names first
    grail.client.post(f"/api/sessions/{sid}/prompts/{prompt}/confirm", headers=bearer(grail.tokens["gm"]))
    assert f">{buttons[1]}</button>" in grail.page("gm", lang)  # then the one that opens it again


ID = re.compile(r"\b(?:s|p)\d+\b|:\d+|\b99\b")  # a seat, prompt or skill id, a roll's number


@pytest.mark.parametrize(("lang", "seat", "prompt", "roll", "character", "skill", "player"), [
    ("ja", "その席はありません", "その質問はありません", "そのダイスロールはありません", "そのキャラクターはいません",
     "そのスキル・宝具はありません", "その席はこのゲームのプレイヤーではありません"),
    ("en", "There is no such seat", "There is no such prompt", "There is no such roll", "There is no such character",
     "There is no such skill or Noble Phantasm", "Not a player of this game: that seat")])
def test_stale_input_is_refused_in_words_never_by_its_id(app, client, grail, lang, seat, prompt, roll, character, skill,
                                                          player):
    """A console's form from before an undo (a seat, a prompt, a roll, a character or skill taken back) was refused
    with its id: 「席「s3」はありません」, 「スキル「s1/アルトリア:9」」. It says what is missing in words."""
    gm, sid = grail.screens["gm"], grail.sid
    headers = {"X-CSRF-Token": csrf_for(grail.tokens["gm"]), "HX-Request": "true"}

    def console(path, form):
        r = gm.post(f"/s/{sid}/gm/{path}?lang={lang}", data=form, headers=headers)
        assert r.status_code == 404, (path, r.status_code, flash(r))
        return flash(r)

    said = [(console("counter", {"seat": "s9", "key": "seals", "delta": "1"}), seat),
            (console("seats/s9/reissue", {}), seat),
            (console("prompts/p9/reveal", {}), prompt),
            (console("rolls/99/reveal", {}), roll),
            (console("actions/set_skill", {"character": "s1/誰か", "name": "x"}), character),
            (console("actions/remove_skill", {"skill": "s1/アルトリア:9"}), skill)]
    api = client.get(f"/api/sessions/{sid}/prompts/p9?lang={lang}", headers=bearer(grail.tokens["gm"])).get_json()["error"]
    said.append((api[lang], prompt))
    gone = gm.get(f"/s/0000dead/gm?lang={lang}")  # a console's bookmark of a session that is not there
    assert gone.status_code == 404 and "0000dead" not in gone.get_data(as_text=True)
    said.append((gone.get_data(as_text=True), {"ja": "そのセッションはありません", "en": "There is no such session"}[lang]))
    t = Table(app, client, "succession", ["甲", "乙"])
    t.act("setup", {"players": ["s1", "s2"], "first": "s1"})
    r = t.post("play", {"seat": "s9", "card": "5"}, lang=lang)
    said.append((flash(r), player))
    for text, words in said:
        assert words in text and not ID.search(text), text


@pytest.mark.parametrize(("lang", "words"), [("ja", "取り消し: セイバー陣営: 戦果"), ("en", "Undo: セイバー陣営: VP")])
def test_the_consoles_undo_says_which_action_it_took_back(app, client, lang, words):
    """Browser review: ↶ 取り消し answered only "OK", so a busy GM could not tell which action went; the flash names it
    as the log line of the undo reads (取り消し: … / Undo: …), in the console's language."""
    t = Table(app, client, "sugoroku", ["セイバー陣営", "アーチャー陣営"])
    t.act("setup", {})
    r = t.client.post(f"/api/sessions/{t.sid}/counters", headers=bearer(t.tokens["gm"]),
                      json={"seat": "s1", "key": "vp", "delta": 2, "reason": "ボーナス"})
    assert r.status_code == 200, r.get_json()
    response = t.screens["gm"].post(f"/s/{t.sid}/gm/undo?lang={lang}", headers={
        "X-CSRF-Token": csrf_for(t.tokens["gm"]), "HX-Request": "true"})
    assert response.status_code == 200 and flash(response).startswith(words), flash(response)
