"""A refusal that offers choices names them as the screens do (core.errors.choices_text): by their labels in both
languages, never by the codes behind them (「choice/multi/number/text/seat」, 「server/entered」, illuminati's
「none/group/resource」); the English adds each code in brackets, as docs/api.md and docs/rulesets/ give them, for the
programmer whose request only these messages reach."""

from __future__ import annotations

import re

import pytest
from gmtool_testing import ADMIN_KEY, bearer
from test_ace_royal_api import set_up_game as ace_royal_setup
from test_ace_royal_api import new_game as new_ace_royal
from test_sugoroku_api import new_game as new_sugoroku
from test_illuminati_api import game, open_game  # noqa: F401  (game: the fixture)
from test_screen_messages import Table, flash, grail_table

from gmtool.core.errors import GmError
from gmtool.rulesets.ace_royal.rules import parse_skills
from gmtool.rulesets.grail_trpg.rules import check_stat
from gmtool.rulesets.grail_trpg.sheets import make_skill
from gmtool.rulesets.sugoroku.battle import card_text
from gmtool.rulesets.sugoroku.rules import _card as sugoroku_card
from gmtool.web.common import csrf_for

CODE = re.compile(r"[a-z]{3,}")  # a code (choice, server, auto_control …): no Japanese message holds one


def console(t: Table, path: str, form: dict, lang: str):
    """A core form of the GM console, crafted, as htmx sends it."""
    return t.screens["gm"].post(f"/s/{t.sid}/gm/{path}?lang={lang}", data=form,
                                headers={"X-CSRF-Token": csrf_for(t.tokens["gm"]), "HX-Request": "true"})


@pytest.mark.parametrize(("path", "form", "status", "ja", "en"), [
    ("prompts", {"title": "1stセレクト", "kind": "poll", "options": "筋力\n耐久"}, 400,
     "種類「poll」は使えません（「一つ選ぶ」「複数選ぶ」「数値」「短い文」「席に投票」）",
     "Unknown kind 'poll' (use One choice [choice], Several choices [multi], Number [number], Short text [text], "
     "Vote for a seat [seat])"),
    ("readings", {"key": "nope", "value": "1"}, 404, "解釈「nope」はありません（「ダイス」）",
     "There is no reading 'nope' (Dice [dice])"),
    ("readings", {"key": "dice", "value": "x"}, 400,
     "解釈「ダイス」に「x」は選べません（「サーバーが振る（シードから、後で検証可能）」「卓で振った実ダイスの出目を入力する」）",
     "Reading 'Dice' cannot be 'x' (The server rolls (from the seed, verifiable) [server], "
     "Faces of real dice rolled at the table are entered [entered])"),
])
def test_a_crafted_core_form_is_refused_with_the_choices_in_words(app, client, path, form, status, ja, en):
    """The console's prompt kind and a reading's choice, sent with a value no form offers: 400/404 naming the choices
    by the words the console shows them with, in the console's language; nothing changes."""
    t = Table(app, client, "generic", ["セイバー", "アーチャー"])
    for lang, said in (("ja", ja), ("en", en)):
        r = console(t, path, form, lang)
        assert r.status_code == status and flash(r) == said, flash(r)
    assert not CODE.search(ja.replace("poll", "").replace("nope", ""))
    state = client.get(f"/api/sessions/{t.sid}/state", headers=bearer(t.tokens["gm"])).get_json()
    assert state["session"]["version"] == 1


def test_illuminati_choices_are_refused_in_the_words_of_its_forms(game):  # noqa: F811
    """illuminati's `_choice` said 「自動支配はnone/group/resourceのどれかです」: the codes of its select. It names the
    options as the phone's select does; the English keeps the codes docs/rulesets/illuminati.md gives."""
    open_game(game)
    game["act"]("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    error = game["act"]("start_turn", {"auto_control": "castle"}, who="s1", status=400)["error"]
    assert error["ja"] == "自動支配は「自動支配なし」「自動支配：グループ」「自動支配：リソース」のどれかです（「castle」）"
    assert error["en"] == ("The automatic control must be one of: No automatic control [none], Automatic control: a group "
                           "[group], Automatic control: a resource [resource] (got 'castle')")
    game["act"]("start_turn", who="s1")
    error = game["act"]("spend", {"purpose": ["move"]}, who="s1", status=400)["error"]  # a list: refused, not a 500
    assert "「グループの移動」" in error["ja"] and not CODE.search(error["ja"].replace('["move"]', "")), error
    error = game["act"]("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 8},
                                   "target": {"name": "X", "owner": "s2", "alignments": ["Martian"]}}, who="s1",
                        status=400)["error"]
    assert "「政府系」「企業系」" in error["ja"] and not CODE.search(error["ja"].replace("Martian", "")), error
    assert "Government [government], Corporate [corporate]" in error["en"], error


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "宣言側は「セイバー陣営」「アーチャー陣営」のどちらかです"),
    ("en", "The declaring side must be one of: セイバー陣営 [a], アーチャー陣営 [b]")])
def test_grail_a_side_is_refused_by_its_factions_names(app, client, lang, said):
    """grail's 「declarer は a か b です」 named a field and two codes; it names the two sides by their factions."""
    t = grail_table(app, client)
    r = t.post("start_combat", {"a": "s1", "b": "s2", "declarer": "c"}, lang=lang)
    assert r.status_code == 400 and flash(r) == said, flash(r)


@pytest.mark.parametrize(("lang", "said"), [
    ("ja", "修正する側は「セイバー陣営」「アーチャー陣営」のどちらかです"),
    ("en", "The side must be one of: セイバー陣営 [a], アーチャー陣営 [b]")])
def test_grail_a_win_rate_modifiers_side_is_refused_by_its_factions_names(app, client, lang, said):
    """add_modifier kept 「side は a か b です」 after start_combat, decide and use_skill named the sides (one check)."""
    t = grail_table(app, client)
    t.act("start_combat", {"a": "s1", "b": "s2"})
    r = t.post("add_modifier", {"side": "c", "label": "地の利", "value": "5"}, lang=lang)
    assert r.status_code == 400 and flash(r) == said, flash(r)


@pytest.mark.parametrize(("card", "ja", "en"), [
    ({"kind": "magic", "power": 3}, "カードの種類は「アタック」「スキル」「宝具」のどれかです",
     "The card kind must be one of: Attack [attack], Skill [skill], NP [np]"),
    ({"attribute": None, "power": 3}, "属性は力・魔・技です（null）", "Attribute must be 力, 魔 or 技 (null)"),
    ({"attribute": "火", "power": 3}, "属性は力・魔・技です（火）", "Attribute must be 力, 魔 or 技 (火)"),
    ({"attribute": "力", "power": "abc"}, "パワーは整数です（abc）", "Power must be an integer (abc)"),
    ({"attribute": "力", "power": [7]}, "パワーは整数です（[7]）", "Power must be an integer ([7])"),
    (["力7"], "カード「[\"力7\"]」を読めません", "Cannot read card '[\"力7\"]'"),
    (None, "カード「null」を読めません", "Cannot read card 'null'")])
def test_a_sugoroku_card_is_refused_in_words_and_as_json_quotes_it(card, ja, en):
    """A battle card (a phone's answer or battle_card) given as an object or a value no form sends: the kind named
    by its words (it said 「attack / skill / np」), a wrong value quoted as JSON writes it, not as Python's repr
    ('None', "'abc'", "['力7']"), as the other refusals of this session quote them (errors.shown)."""
    said_ja, said_en = _refusal(card_text, card)
    assert said_ja.startswith(ja) and said_en.startswith(en), (said_ja, said_en)

def _refusal(fn, *args):
    with pytest.raises(GmError) as e:
        fn(*args)
    return e.value.ja, e.value.en


@pytest.mark.parametrize(("fn", "args", "ja", "en"), [
    (make_skill, ({"name": "直感", "kind": "magic"}, ("アルトリア", "アルトリア")),
     "アルトリア: 種類「magic」はありません。スキル・宝具のいずれかを指定してください",
     "アルトリア: there is no kind 'magic': give Skill or NP"),
    (make_skill, ({"name": "直感", "stat": "体力", "value": 10}, ("アルトリア", "アルトリア")),
     "アルトリア: 能力値「体力」はありません。筋力・耐久・敏捷・魔力・幸運・宝具のいずれかを指定してください",
     "アルトリア: there is no stat '体力': give STR, END, AGI, MAG, LUK or NP"),
    (check_stat, (["筋力"],), "戦力「[\"筋力\"]」はありません。筋力・耐久・敏捷・魔力・幸運・宝具のいずれかを指定してください",
     "There is no stat '[\"筋力\"]': give STR [筋力], END [耐久], AGI [敏捷], MAG [魔力], LUK [幸運] or NP [宝具]"),
    (make_skill, ({"name": "直感", "timing": "朝"}, ("アルトリア", "アルトリア")),
     "アルトリア: タイミング「朝」はありません。セットアップ・セレクト・リザルト・バトル・クリンナップ・常時のいずれかを指定してください",
     "アルトリア: there is no timing '朝': give Setup, Select, Result, Battle, Cleanup or Any time"),
    (parse_skills, (["飛行"],), "スキル「飛行」は扱えません（「先制」「見切り」",
     "Unknown skill '飛行' (known: First strike [first_strike], Mind's eye [mind_eye]"),
    (sugoroku_card, ({"kind": "attack", "attribute": "力", "face": "sideways"},), "カードの向きは表向きか裏向きです",
     "Card face must be face up [up] or face down [down]"),
])
def test_a_rulesets_refusal_names_its_choices_in_words(fn, args, ja, en):
    """grail's mod and sheet kinds, stats and timings (「skill / np」, 「setup/select/…」; a stat sent as a list read as
    Python's repr, 「['筋力']」, and the English listed no words but codes), Ace Royal's keyword skills (the English
    listed keys only) and a sugoroku card's face (「up か down」): the choices in words, the English with the codes."""
    said_ja, said_en = _refusal(fn, *args)
    assert said_ja.startswith(ja) and said_en.startswith(en), (said_ja, said_en)
    assert not CODE.search(said_ja.replace("magic", "")), said_ja


def test_ace_royal_refusals_name_their_choices_in_the_words_of_its_screens(client):
    """Ace Royal's refusals of a value no form sends listed its codes (「side は attacker（襲撃側）か …」, 「stat は patk /
    pdef / …」, 「状態は rise / reverse / …」): a crafted JSON request now reads the choices as the console and the phone
    show them, the English with the codes docs/rulesets/ace_royal.md gives; 400, and nothing changes."""
    ace = new_ace_royal(client)
    act, state = ace["act"], ace["state"]

    def refused(name, payload, ja, en, who="gm"):
        version = state()["session"]["version"]
        error = act(name, payload, who=who, status=400)["error"]
        assert (error["ja"], error["en"]) == (ja, en), error
        assert not CODE.search(ja), ja
        assert state()["session"]["version"] == version

    refused("setup", {"version": "turbo"}, "版は「スタンダード」「クイック」のどちらかです",
            "The version must be one of: Standard [standard], Quick [quick]")
    ace_royal_setup(act)
    act("start_game")
    act("step", who="s1")
    act("step", who="s1")  # s1's ritual step
    refused("reveal", {"what": "servant"}, "開示は「英霊を開示」「クラスを開示」「両方開示」のどれかです",
            "The reveal must be one of: Reveal the hero [hero], Reveal the class [class], Reveal both [both]", who="s1")
    refused("set_state", {"seat": "s2", "state": "asleep"},
            "サーヴァントの状態は「リバース」「ライズ」「デンジャー」「ダウン」のどれかです",
            "The servant's state must be one of: Reverse [reverse], Rise [rise], Danger [danger], Down [down]")
    act("adjust", {"seat": "s1", "key": "codes", "delta": 1})  # a mystic code on the field: seal 2 raises a stat
    refused("use_seal", {"effect": 2, "stat": "luck"},
            "強化するステータス（「物理攻撃」「物理防御」「魔術攻撃」「魔術防御」）を選んでください",
            "Choose the stat to raise: Phys ATK [patk], Phys DEF [pdef], Mag ATK [matk], Mag DEF [mdef]", who="s1")
    refused("use_seal", {"effect": 3, "coin": "gold"}, "無効化するコイン（「暗殺」「枯渇」）を選んでください",
            "Choose the coin to cancel: Assassination [assassin], Depletion [depletion]", who="s1")
    act("declare_attack", {"target": "s2"}, who="s1")
    refused("combat_choose", {"kind": "physical"}, "操作する側は「襲撃側」「迎撃側」のどちらかです",
            "The side must be one of: Attacker [attacker], Interceptor [interceptor]")
    refused("combat_choose", {"kind": "fire"}, "攻撃手段は「物理」「魔術」のどちらかです",
            "The attack must be one of: Physical [physical], Magical [magical]", who="s1")
    refused("combat_modifier", {"stat": "speed", "value": 1, "label": "礼装"}, "修正するステータスは「全ステータス」"
            "「物理攻撃」「物理防御」「魔術攻撃」「魔術防御」のどれかです", "The stat must be one of: All stats [all], "
            "Phys ATK [patk], Phys DEF [pdef], Mag ATK [matk], Mag DEF [mdef]", who="s1")
    refused("combat_proxy", {"source": "npc", "name": "影", "stats": "1/1/1/1"},
            "代理戦闘の由来は「英霊カード」「礼装」のどちらかです",
            "The proxy's source must be one of: Hero card [hero], Mystic codes [code]", who="s1")


@pytest.mark.parametrize(("lang", "said"), [("ja", "記録の仕方は「手番を記録」「得点のみ（手番を記録しない）」のどちらかです"),
                                            ("en", "The mode must be one of: Track every turn [turns], "
                                                   "Score only (turns are not tracked) [score]")])
def test_succession_a_mode_is_refused_in_the_words_of_the_console(app, client, lang, said):
    """succession's setup said 「mode は turns（手番を記録）か score（得点のみ）です」: a crafted console form now reads
    the two ways as the console names them (the tick box 得点のみ…); 400, nothing changes."""
    t = Table(app, client, "succession", ["アルトリア", "ギルガメッシュ"])
    r = t.post("setup", {"first": "s1", "mode": "fast"}, lang=lang)
    assert r.status_code == 400 and flash(r) == said, flash(r)
    state = client.get(f"/api/sessions/{t.sid}/state", headers=bearer(t.tokens["gm"])).get_json()
    assert state["session"]["version"] == 1


@pytest.mark.parametrize(("lang", "said"), [("ja", "種類「magic」はありません。スキル・宝具・上限外のいずれかを指定してください"),
                                            ("en", "There is no kind 'magic': give Skill [skill], NP [np] or Outside the cap [outside]")])
def test_grail_a_gm_modifiers_kind_is_refused_in_the_words_of_the_consoles_select(app, client, lang, said):
    """The console's step modifier sent with a kind its select does not offer: the kinds as that select and the sheet
    name them (「スキル」「宝具」「上限外」 / Skill, NP, Outside the cap: the English read "skill [skill]" and "outside the
    cap [outside]", lower case, unlike the sheet's kinds); 400, nothing changes."""
    t = grail_table(app, client)
    t.act("start_combat", {"a": "s1", "b": "s2"})
    version = client.get(f"/api/sessions/{t.sid}/state", headers=bearer(t.tokens["gm"])).get_json()["session"]["version"]
    r = t.post("use_skill", {"side": "a", "kind": "magic", "stat": "筋力", "value": "10", "label": "心眼"}, lang=lang)
    assert r.status_code == 400 and flash(r) == said, flash(r)
    state = client.get(f"/api/sessions/{t.sid}/state", headers=bearer(t.tokens["gm"])).get_json()
    assert state["session"]["version"] == version


def test_grail_a_typed_in_skill_over_the_t3_limit_reads_as_a_sheet_skill_over_it(app, client):
    """T-3: a phone's third typed-in skill said 「この戦闘でスキルは陣営ごとに2回まで」 / "at most 2 skill per faction and
    combat" (the kind's lower-case label in a sentence), a sheet skill over the same limit 「スキルはこの戦闘で2回使用済み
    （陣営ごと）」: one reason (sheets.unavailable) for both; 400, the answer not taken."""
    t = grail_table(app, client)
    t.act("start_combat", {"a": "s1", "b": "s2"})
    mods = [{"label": name, "value": 5, "kind": "skill", "stat": "筋力"} for name in ("怪力", "魔力放出", "直感")]
    version = client.get(f"/api/sessions/{t.sid}/state", headers=bearer(t.tokens["gm"])).get_json()["session"]["version"]
    r = t.client.post(f"/api/sessions/{t.sid}/prompts/c1-setup/answer", headers=bearer(t.tokens["s1"]),
                      json={"value": {"main": "s1/アルトリア", "mods": mods}})
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (
        "「直感」は使えません: スキルはこの戦闘で2回使用済み（陣営ごと） [T-3]",
        "Cannot use '直感': 2 skills already used this combat (per faction) [T-3]"), error
    assert client.get(f"/api/sessions/{t.sid}/state", headers=bearer(t.tokens["gm"])).get_json()["session"]["version"] == version


@pytest.mark.parametrize(("skill", "quoted"), [({"b": 2}, '{"b": 2}'), (True, "true"), (["先制"], '["先制"]')])
def test_ace_royal_a_skill_that_is_no_text_is_quoted_as_json_writes_it(client, skill, quoted):
    """set_servant's skills list holding an object, true or a list quoted Python's repr (「{'b': 2}」, 'True', "['先制']");
    it is quoted as the JSON the client sent (errors.shown); 400, nothing changes."""
    ace = new_ace_royal(client)
    ace["act"]("setup", {"version": "standard"})
    version = ace["state"]()["session"]["version"]
    error = ace["act"]("set_servant", {"hero": {"name": "アルトリア", "stats": "6/5/3/3", "skills": [skill]},
                                       "class": {"name": "セイバー", "stats": "3/3/1/5"}}, who="s1", status=400)["error"]
    assert error["ja"].startswith(f"スキル「{quoted}」は扱えません（「先制」「見切り」"), error
    assert error["en"].startswith(f"Unknown skill '{quoted}' (known: First strike [first_strike], "), error
    assert ace["state"]()["session"]["version"] == version


def _session(client, ruleset: str, seats: list[str]) -> dict:
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "卓", "ruleset": ruleset, "seats": seats}).get_json()
    return {"sid": data["session"], "gm": data["gm_token"], **{s["id"]: s["token"] for s in data["seats"]}}


def _post(client, t: dict, path: str, body: dict, who: str = "gm"):
    return client.post(f"/api/sessions/{t['sid']}/{path}", headers=bearer(t[who]), json=body)


def _version(client, t: dict) -> int:
    return client.get(f"/api/sessions/{t['sid']}/state", headers=bearer(t["gm"])).get_json()["session"]["version"]


def refused_unchanged(client, ruleset, prepare, path, body, who, status, ja, en) -> None:
    """A session of `ruleset` brought to a step by `prepare`, then the request at `path` is refused with `status` and
    exactly (ja, en), the Japanese free of codes, and the session's version unchanged."""
    t = _session(client, ruleset, ["アルトリア", "ギルガメッシュ"])
    for step, payload in prepare:
        assert _post(client, t, step, payload).status_code in (200, 201), step
    version = _version(client, t)
    r = _post(client, t, path, body, who)
    error = r.get_json()["error"]
    assert r.status_code == status and (error["ja"], error["en"]) == (ja, en), error
    assert not CODE.search(ja), ja
    assert _version(client, t) == version


@pytest.mark.parametrize(("ruleset", "prepare", "path", "body", "who", "status", "ja", "en"), [
    ("ace_royal", [], "actions/roll_first", {}, "gm", 409, "まだ準備をしていません（GMが「準備」で始めます）",
     "The game is not set up yet (the GM sets it up with the 'Setup' button)"),
    ("succession", [], "actions/take", {}, "s1", 409, "まだ準備をしていません（GMが「ゲーム開始」で始めます）",
     "The game is not set up yet (the GM starts it with the 'Start the game' button)"),
    ("sugoroku", [], "actions/roll_move", {}, "s1", 409, "まず準備をしてください（GMが「準備完了」で始めます）",
     "Set the game up first (the GM's 'Set up' button)"),
    ("succession", [], "actions/setup", {"first": ""}, "gm", 400, "最初の先手を選ぶか「ダイスで決める」を選んでください",
     "Choose who starts, or 'A die decides' (first: a seat, or dice)"),
    ("succession", [("actions/setup", {"first": "s1", "mode": "score"})], "actions/enter_counts", {"f5": 1}, "gm", 400,
     "入力するプレイヤーの席を選んでください", "Choose the seat whose cards these are (seat)"),
    ("generic", [("prompts", {"title": "q", "kind": "number", "seats": ["s1"]})], "prompts/p1/answer", {}, "s1", 400,
     "回答がありません", "The answer ('value') is missing"),
    ("grail_trpg", [("actions/set_characters", {"faction": "s1", "text": "アルトリア(セイバー) 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60"}),
                    ("actions/set_characters", {"faction": "s2", "text": "エミヤ(アーチャー) 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50"}),
                    ("actions/start_combat", {"a": "s1", "b": "s2"})],
     "prompts/c1-setup/answer", {"value": {"main": "s1/アルトリア", "mods": ["怪力+5"]}}, "s1", 400,
     "スキル・宝具は名前・修正値・種類で指定します", "Each mod is {label, value, kind}")])
def test_a_japanese_refusal_names_no_field_or_action(client, ruleset, prepare, path, body, who, status, ja, en):
    """Japanese refusals that still named an API field or action in brackets (「まだ準備（setup）をしていません」,
    「先手の席（first）を…（first: dice）」, 「入力する席（seat）を…」, 「回答（value）がありません」, 「{label, value, kind} で指定
    します」): the Japanese names the console's button or choice or says it in words; the English keeps the field
    an API client sends. Refused with the status shown; nothing changes."""
    refused_unchanged(client, ruleset, prepare, path, body, who, status, ja, en)


@pytest.mark.parametrize(("ruleset", "path", "body", "status", "ja", "en"), [
    ("ace_royal", "actions/setup", {"version": True}, 400, "版は文字で入力してください", "The version must be text"),
    ("sugoroku", "actions/setup", {"board_length": 8, "skip_to_climax": "maybe"}, 400,
     "「クライマックスから」はオンかオフで指定してください", "'skip_to_climax' must be true or false"),
    ("illuminati", "actions/setup", {"tournament": "maybe"}, 400, "「2人大会」はオンかオフで指定してください",
     "'tournament' must be true or false"),
    ("succession", "actions/setup", {"first": "s1", "mode": ["score"]}, 400, "記録の仕方は文字で入力してください",
     "The mode must be text"),
    ("generic", "prompts", {"title": "q", "kind": "number", "seats": ["s1"], "gm_submits": "maybe"}, 400,
     "「GMの回答」はオンかオフで指定してください", "'gm_submits' must be true or false")])
def test_a_field_that_is_no_text_or_no_yes_no_is_named_in_japanese_words(client, ruleset, path, body, status, ja, en):
    """A ruleset's field sent as a list or true where it names something, or as neither yes nor no where it is a tick
    box, was named in Japanese by its key (「versionは文字で入力してください」, 「tournamentは true か false で指定して
    ください」): the Japanese names it as its screen does and says オンかオフ; the English keeps the key an API
    client sends. Refused; nothing changes."""
    t = _session(client, ruleset, ["アルトリア", "ギルガメッシュ"])
    version = _version(client, t)
    r = _post(client, t, path, body)
    error = r.get_json()["error"]
    assert r.status_code == status and (error["ja"], error["en"]) == (ja, en), error
    assert not CODE.search(ja), ja
    assert _version(client, t) == version


@pytest.mark.parametrize(("query", "ja", "en"), [("times=maybe", "「時刻を入れる」はオンかオフで指定してください", "'times' must be true or false"),
                                                 ("campaign=all", "「キャンペーン全体」はオンかオフで指定してください",
                                                  "'campaign' must be true or false")])
def test_an_export_option_that_is_no_yes_no_is_named_as_the_export_page_does(client, query, ja, en):
    """The export's yes/no options were named in Japanese by their query keys (「timesは true か false で…」)."""
    t = _session(client, "generic", ["A", "B"])
    r = client.get(f"/api/sessions/{t['sid']}/export?format=markdown&{query}", headers=bearer(t["gm"]))
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (ja, en), error


def test_sugoroku_a_round_ended_early_names_the_consoles_button(client):
    """end_round before its end condition said 「（force で強制）」, the API's field: the console's button ends it anyway
    (「ラウンド終了」 sends force); the English keeps the field. 409, nothing changes."""
    board = new_sugoroku(client)
    version = board["state"]()["session"]["version"]
    error = board["act"]("end_round", status=409)["error"]
    assert (error["ja"], error["en"]) == (
        "終了条件（S-2）をまだ満たしていません：残り8フェイズ（それでも終えるなら「ラウンド終了」）",
        "The end condition (S-2) is not met: 8 phases left (to end it anyway: 'End the round'; force: true)"), error
    assert board["state"]()["session"]["version"] == version


@pytest.mark.parametrize(("path", "body", "ja", "en"), [
    ("/api/sessions", {"title": "卓", "seats": ["A", "B"], "private": [{"a": 1}]},
     "非公開にするカウンターはキーのリストで指定してください", "'private' must be a list of counter keys"),
    ("/api/sessions", {"title": "卓", "seats": ["A", "B"], "counters": "seals"}, "カウンターはリストで指定してください",
     "'counters' must be a list")])
def test_a_session_field_of_the_wrong_shape_is_named_in_japanese_words(client, path, body, ja, en):
    """Session creation's `private` and `counters` of the wrong shape were named by their keys in Japanese
    (「private はカウンターのキーのリストで…」, 「counters はリストで…」); the English keeps the key. 400, no session."""
    before = client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()
    r = client.post(path, headers=bearer(ADMIN_KEY), json=body)
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (ja, en), error
    assert client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json() == before


@pytest.mark.parametrize(("ruleset", "path", "body", "ja", "en"), [
    ("illuminati", "actions/setup", {"players": {"s1": True}}, "プレイヤーは席のリストで指定してください",
     "'players' must be a list of seat ids"),
    ("sugoroku", "actions/setup", {"board_length": 8, "players": ["s1"]}, "プレイヤーの設定は席ごとに指定します",
     "'players' must be an object of seats"),
    ("sugoroku", "actions/setup", {"board_length": 8, "players": {"s1": "セイバー"}},
     "プレイヤーの設定は席ごとに、項目とその値で指定します", "Each entry of 'players' must be an object"),
    ("sugoroku", "actions/setup", {"board_length": 8, "readings": ["battle_tie"]}, "解釈は解釈ごとにその値で指定します",
     "'readings' must be an object of reading names and values"),
    ("generic", "continue", {"title": ["第5次"]}, "タイトルは文字で入力してください", "'title' must be a text")])
def test_a_games_field_of_the_wrong_shape_is_named_in_japanese_words(client, ruleset, path, body, ja, en):
    """illuminati's and sugoroku's setup `players` / `readings` and the next session's `title` of the wrong shape were
    named by their keys in Japanese (「players は席IDのリストです」, 「title は文字列です」). 400, nothing changes."""
    t = _session(client, ruleset, ["アルトリア", "ギルガメッシュ"])
    version = _version(client, t)
    r = _post(client, t, path, body)
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (ja, en), error
    assert not CODE.search(ja), ja
    assert _version(client, t) == version


@pytest.mark.parametrize(("query", "ja", "en"), [
    ("names=x", "名前は「席（プレイヤー）名」「陣営名」のどちらかです",
     "'names' must be one of: Seat (player) names [player], Faction names [faction]"),
    ("standings=middle", "最終状況の位置は「最後に」「最初に」のどちらかです",
     "'standings' must be one of: At the end [last], At the top [first]"),
    ("scene=x", "シーンは整数で指定してください", "'scene' must be a whole number")])
def test_an_export_choice_is_refused_in_the_words_of_the_export_page(client, query, ja, en):
    """The export's names / standings / scene options listed their codes in Japanese (「names は player か faction
    です」): the choices as the export page's selects name them, the English with the values to send."""
    t = _session(client, "generic", ["A", "B"])
    r = client.get(f"/api/sessions/{t['sid']}/export?format=markdown&{query}", headers=bearer(t["gm"]))
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (ja, en), error


@pytest.mark.parametrize(("ruleset", "prepare", "path", "body", "who", "ja", "en"), [
    ("sugoroku", [("actions/setup", {"board_length": 8})], "actions/use_seal", {"effect": "extra_die"}, "s1",
     "ダイス追加は振るときに「令呪：ダイス追加」で", "Add a die when rolling: 'Seal: extra die' (roll_move with seal=extra_die)"),
    ("sugoroku", [("actions/setup", {"board_length": 8})], "actions/roll_move", {"seal": "mana"}, "s1",
     "振るときに使える令呪は「令呪：ダイス追加」だけです", "Only the seal 'Seal: extra die' [extra_die] is used when rolling"),
    ("generic", [], "rolls", {"expr": "1D6", "dice": "table"}, "gm", "ダイスの指定は「サーバーが振る」だけです",
     "'dice' can only be \"server\""),
    ("generic", [], "prompts", {"title": "q", "seats": ["s1"], "options": ["a", "b"], "meta": [1]}, "gm",
     "質問の付加情報は項目とその値で指定してください", "'meta' must be an object"),
    ("succession", [], "actions/setup", {"players": ["s1"], "first": "s1"}, "gm",
     "聖杯サクセションは2人用です（プレイヤーに席を2つ）", "Grail Succession is for exactly two players (two seats in players)")])
def test_a_refusal_names_no_api_value_in_japanese(client, ruleset, prepare, path, body, who, ja, en):
    """Refusals whose Japanese named API values (「roll_move の seal=extra_die」, 「extra_die だけ」, 「dice に指定できるのは
    "server" だけ」, 「meta は…」, 「players に席を2つ」): the phone's button or the words instead; the English keeps
    what an API client sends. 400, nothing changes."""
    refused_unchanged(client, ruleset, prepare, path, body, who, 400, ja, en)


@pytest.mark.parametrize(("body", "ja", "en"), [
    ({"counters": [{"key": "hp", "label": "HP", "thresholds": [5]}]}, "フラグは値と名前で指定します",
     "A flag is {\"at\": number, \"label\": name}"),
    ({"counters": ["seals"], "private": ["nope"]}, "非公開にするカウンター「nope」はこのセッションにありません",
     "'private' names a counter this session does not have: 'nope'")])
def test_a_counter_refusal_names_no_api_field_in_japanese(client, body, ja, en):
    """Session creation's flag and private counters named their JSON shape or key in Japanese (「{"at": 数値, …}」,
    「private のカウンター…」). 400, no session."""
    before = client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json()
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "卓", "seats": ["A", "B"], **body})
    error = r.get_json()["error"]
    assert r.status_code == 400 and (error["ja"], error["en"]) == (ja, en), error
    assert client.get("/api/sessions", headers=bearer(ADMIN_KEY)).get_json() == before


def test_the_logs_paging_is_refused_in_japanese_words(client):
    """The log's after / limit that are no numbers said 「after と limit は整数です」."""
    t = _session(client, "generic", ["A", "B"])
    error = client.get(f"/api/sessions/{t['sid']}/log?after=x", headers=bearer(t["gm"])).get_json()["error"]
    assert (error["status"], error["ja"], error["en"]) == (400, "記録の位置と件数は整数で指定してください",
                                                           "'after' and 'limit' must be whole numbers")
