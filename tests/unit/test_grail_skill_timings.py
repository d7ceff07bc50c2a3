"""Issue 16, the rest: the field-by-field skill form (set_skill / remove_skill), cleanup-timing skills (T-11)
and result-timing skills for the whole result phase (T-6), pure and with fixed dice.

Every expected number is worked out by hand in the comments (RULES.md T-4, T-6, T-7, T-8, T-11).
"""

from __future__ import annotations

import pytest
from test_grail_flow import Table

from gmtool.core import commands
from gmtool.core.errors import GmError
from gmtool.core.logtext import describe
from gmtool.core.view import GM, Viewer, visible_event
from gmtool.rulesets.grail_trpg import RULESET

SABER = """アルトリア(セイバー) 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60
- スキル 怪力 リザルト 筋力+20
- スキル 仕切り直し クリンナップ 敏捷+10 MP2
- スキル 戦闘続行 クリンナップ
- スキル 直感 クリンナップ 勝率+10
- スキル 魔力放出 セレクト 筋力+20"""
ARCHER = """エミヤ(アーチャー) 筋力30 耐久40 敏捷40 魔力50 幸運30 宝具50
- スキル 心眼 リザルト 相手の筋力-10"""
A_RES, A_ESC, A_HAND, A_WIN, A_SEL = (f"s1/アルトリア:{n}" for n in range(1, 6))
E_RES = "s2/エミヤ:1"


@pytest.fixture
def t():
    t = Table(dice=[30, 50, 60, 40])
    t.act("set_characters", {"faction": "s1", "text": SABER})
    t.act("set_characters", {"faction": "s2", "text": ARCHER})
    return t


def sheet(t, faction="s1", n=0):
    return t.state.extra["grail"]["characters"][faction][n]["skills"]


def start(t):
    t.act("start_combat", {"a": ["s1"], "b": ["s2"], "declarer": "a"})
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s1/アルトリア"}}, who="s1")
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s2/エミヤ"}}, who="s2")
    t.confirm("c1-setup")


def select(t, n, a, b, confirm=True):
    t.act("next_step")
    t.act("answer", {"prompt": f"c1-s{n}", "value": a}, who="s1")
    t.act("answer", {"prompt": f"c1-s{n}", "value": b}, who="s2")
    if confirm:
        t.confirm(f"c1-s{n}")


def to_cleanup(t):
    """Three selects, the final result and a battle roll that side a wins (dice 60 vs 40 after 30/50 … fixed)."""
    start(t)
    for n, (a, b) in enumerate((("筋力", "幸運"), ("魔力", "敏捷"), ("筋力", "幸運")), 1):
        select(t, n, {"stat": a}, {"stat": b})
    t.act("next_step")  # final result
    t.act("roll_battle", {"faces": [90, 1]})
    assert t.combat()["step"] == "cleanup"


# -- the field-by-field form (T-3, T-8) -------------------------------------------------------

def test_t8_skill_form_adds_changes_and_removes_a_skill_field_by_field(t):
    t.act("set_skill", {"character": "s2/エミヤ", "name": "鶴翼三連", "kind": "np", "timing": "select", "stat": "宝具",
                        "value": "+20", "win_rate": "", "mp": "3", "note": "三連撃"})
    added = sheet(t, "s2")[-1]
    assert added == {"id": "s2/エミヤ:2", "name": "鶴翼三連", "kind": "np", "timing": "select", "stat": "宝具",
                     "value": 20, "target": "self", "win_rate": None, "mp": 3, "note": "三連撃"}
    # a debuff (the opponent's stat) and a win rate, by form checkbox and English keys
    t.act("set_skill", {"skill": "s2/エミヤ:2", "name": "鶴翼", "kind": "skill", "timing": "result", "stat": "STR",
                        "value": "-10", "target": "opponent", "win_rate": "5", "mp": ""})
    edited = sheet(t, "s2")[-1]
    assert (edited["id"], edited["kind"], edited["timing"], edited["stat"], edited["value"], edited["target"],
            edited["win_rate"], edited["mp"]) == ("s2/エミヤ:2", "skill", "result", "筋力", -10, "opponent", 5, 0)
    t.act("remove_skill", {"skill": "s2/エミヤ:1"})
    assert [k["id"] for k in sheet(t, "s2")] == ["s2/エミヤ:2"]  # the others keep their ids
    t.act("set_skill", {"character": "エミヤ", "faction": "s2", "name": "投影", "timing": "any"})
    assert [k["id"] for k in sheet(t, "s2")] == ["s2/エミヤ:2", "s2/エミヤ:3"]
    log = t.log()[-4:]
    assert log[0] == "アーチャー陣営 エミヤ: 宝具〈鶴翼三連〉を追加（セレクト・宝具+20 MP3）"
    assert log[2] == "アーチャー陣営 エミヤ: スキル〈心眼〉を削除（リザルト・相手の筋力−10）"


@pytest.mark.parametrize("payload, ja, en", [
    ({"name": ""}, "スキル名は1〜30文字です", "a skill name is 1–30 characters"),
    ({"name": "x" * 31}, "スキル名は1〜30文字です", "a skill name is 1–30 characters"),
    ({"name": "x", "timing": "夜"}, "タイミング「夜」はありません。", "there is no timing '夜': give Setup"),
    ({"name": "x", "kind": "card"}, "種類「card」はありません。スキル・宝具のいずれか", "there is no kind 'card': give Skill or NP"),
    ({"name": "x", "stat": "体力", "value": "10"}, "能力値「体力」はありません。筋力・", "there is no stat '体力': give STR, END"),
    ({"name": "x", "stat": "筋力", "value": "abc"}, "効果の値は-100〜100の整数です", "The value must be a whole number"),
    ({"name": "x", "stat": "筋力", "value": "200"}, "効果の値は-100〜100の整数です", "The value must be a whole number"),
    ({"name": "x", "stat": "筋力"}, "能力値の効果には値を入れてください", "give the value of the stat effect"),
    ({"name": "x", "target": "opponent"}, "能力値の効果には値を入れてください", "give the value of the stat effect"),
    ({"name": "x", "win_rate": "+1000"}, "勝率の値は-100〜100の整数です", "The win rate must be a whole number"),
    ({"name": "x", "mp": "-1"}, "MPは0〜99の整数です", "MP must be a whole number 0..99"),
])
def test_t8_skill_form_refuses_a_bad_field_in_both_languages_and_writes_nothing(t, payload, ja, en):
    before = len(t.pure.events)
    with pytest.raises(GmError) as e:
        t.act("set_skill", {"character": "s1/アルトリア", **payload})
    assert e.value.status == 400 and ja in e.value.ja and en in e.value.en
    assert len(t.pure.events) == before


def test_t3_skill_form_refuses_an_unknown_character_or_skill_and_a_ninth_skill(t):
    with pytest.raises(GmError) as e:
        t.act("set_skill", {"character": "s1/ギルガメッシュ", "name": "x"})
    assert e.value.status == 404 and e.value.ja == "そのキャラクターはいません"
    with pytest.raises(GmError) as e:
        t.act("remove_skill", {"skill": "s1/アルトリア:99"})
    assert e.value.status == 404
    for n in range(3):
        t.act("set_skill", {"character": "s1/アルトリア", "name": f"追加{n}"})
    with pytest.raises(GmError) as e:
        t.act("set_skill", {"character": "s1/アルトリア", "name": "九つ目"})
    assert e.value.status == 400 and "8個まで" in e.value.ja and "At most 8" in e.value.en


def test_t9_a_skill_entered_by_form_is_as_secret_as_the_sheet(t):
    t.act("set_skill", {"character": "s1/アルトリア", "name": "秘密の剣技", "timing": "select", "stat": "筋力",
                        "value": "10", "note": "秘伝"})
    event = t.pure.events[-1]
    other = visible_event(event, t.state, Viewer("seat", "s2"))
    assert "秘密の剣技" not in str(other) and "秘伝" not in str(other)
    assert describe(other, t.state) == "セイバー陣営 アルトリア: スキル・宝具を追加"
    assert "秘密の剣技" in describe(visible_event(event, t.state, Viewer("seat", "s1")), t.state)
    assert "秘密の剣技" in describe(visible_event(event, t.state, GM), t.state)
    t.act("set_seen", {"faction": "s2", "seen": ["s1/アルトリア"]})  # T-9: seen through, the sheet opens
    assert "秘密の剣技" in describe(visible_event(event, t.state, Viewer("seat", "s2")), t.state)


def test_t3_a_skill_added_by_form_is_a_one_tap_chip_at_its_timing(t):
    t.act("set_skill", {"character": "s1/アルトリア", "name": "風王結界", "timing": "setup", "stat": "敏捷", "value": "10"})
    t.act("start_combat", {"a": ["s1"], "b": ["s2"]})
    chip = next(c for c in RULESET.view(t.state, Viewer("seat", "s1"))["combat"]["skills"]["chips"]
                if c["name"] == "風王結界")
    assert chip["usable"] and chip["effect_text"]["ja"] == "セットアップ・敏捷+10"
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s1/アルトリア", "skills": [chip["id"]]}}, who="s1")
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s2/エミヤ"}}, who="s2")
    t.confirm("c1-setup")
    assert t.combat()["forces"]["a"]["敏捷"]["value"] == 50  # 40 + 10 [T-8]


# -- cleanup-timing skills (T-11) -------------------------------------------------------------

def test_t11_cleanup_skill_is_offered_only_at_cleanup_and_applies_its_stat_change_through_the_cap(t):
    t.pure.do(commands.change_counter, "s1", "mp", None, 5)
    start(t)
    chips = {c["name"]: c for c in RULESET.view(t.state, Viewer("seat", "s1"))["combat"]["skills"]["chips"]}
    assert chips["仕切り直し"]["reason"]["rule"] == "T-1"  # not at setup
    with pytest.raises(GmError, match="タイミングが違います"):
        select(t, 1, {"stat": "敏捷", "skills": [A_ESC]}, {"stat": "幸運"}, confirm=False)
    t.act("end_combat")
    to_cleanup_again(t)
    view = RULESET.view(t.state, Viewer("seat", "s1"))["combat"]
    chips = {c["name"]: c for c in view["skills"]["chips"]}
    assert view["phase"] == "cleanup" and chips["仕切り直し"]["usable"] and chips["戦闘続行"]["usable"]
    assert chips["魔力放出"]["reason"]["rule"] == "T-1"  # a select skill is not a cleanup skill
    t.act("use_skill", {"skill": A_ESC}, who="s1")
    c = t.combat()
    entry = c["cleanup_skills"][-1]
    assert entry["applied"] == [{"character": "s1/アルトリア", "name": "アルトリア", "stat": "敏捷", "requested": 10,
                                 "applied": 10, "clipped": False, "rule": "T-8"}]
    assert entry["by_hand"] is False and entry["use"]["skill"] == A_ESC
    assert t.state.counters["s1"]["mp"] == 3  # 5 − MP2
    assert c["uses_left_by_faction"]["s1"]["skill"] == 1  # T-3 counts cleanup skills too
    assert t.log()[-2] == "クリンナップ [T-11]: セイバー陣営 スキル〈仕切り直し〉（アルトリア【敏捷】+10 [T-8]、MP−2）"


def to_cleanup_again(t):
    """A second combat that reaches cleanup (the first was broken off)."""
    t.act("start_combat", {"a": ["s1"], "b": ["s2"], "declarer": "a"})
    t.act("answer", {"prompt": "c2-setup", "value": {"main": "s1/アルトリア"}}, who="s1")
    t.act("answer", {"prompt": "c2-setup", "value": {"main": "s2/エミヤ"}}, who="s2")
    t.confirm("c2-setup")
    for n, (a, b) in enumerate((("筋力", "幸運"), ("魔力", "敏捷"), ("筋力", "幸運")), 1):
        t.act("next_step")
        t.act("answer", {"prompt": f"c2-s{n}", "value": {"stat": a}}, who="s1")
        t.act("answer", {"prompt": f"c2-s{n}", "value": {"stat": b}}, who="s2")
        t.confirm(f"c2-s{n}")
    t.act("next_step")
    t.act("roll_battle", {"faces": [90, 1]})
    assert t.combat()["step"] == "cleanup"


def test_t11_cleanup_skill_without_numbers_or_with_a_win_rate_is_listed_for_the_gm(t):
    to_cleanup(t)
    t.act("use_skill", {"skill": A_HAND}, who="s1")
    t.act("use_skill", {"skill": A_WIN, "faction": "s1"})  # the GM taps it for the faction
    hand, win = t.combat()["cleanup_skills"]
    assert hand["by_hand"] and hand["applied"] == [] and hand["notes"][0]["rule"] == "T-11"
    assert "GMが適用" in hand["notes"][0]["ja"] and "the GM applies it" in hand["notes"][0]["en"]
    assert win["by_hand"] and "勝敗判定は済んでいます" in win["notes"][0]["ja"]
    assert t.combat()["modifiers"]["a"] == []  # a win rate after the roll changes nothing by itself
    assert t.log()[-2:] == ["クリンナップ [T-11]: セイバー陣営 スキル〈戦闘続行〉（GMが適用）",
                            "クリンナップ [T-11]: セイバー陣営 スキル〈直感〉（GMが適用）"]
    with pytest.raises(GmError, match="2回使用済み"):  # T-3: the third skill of the faction
        t.act("use_skill", {"skill": A_ESC}, who="s1")


def test_t11_t8_cleanup_debuff_shares_the_scene_cap(t):
    t.act("set_skill", {"character": "s2/エミヤ", "name": "追い討ち", "timing": "cleanup", "stat": "敏捷",
                        "value": "-50", "target": "opponent"})
    t.pure.do(commands.change_counter, "s1", "mp", None, 2)
    to_cleanup(t)
    t.act("use_skill", {"skill": A_ESC}, who="s1")  # +10 on アルトリア's 敏捷
    t.act("use_skill", {"skill": "s2/エミヤ:2"}, who="s2")  # −50 on a +10 stat: the net may go to −30 → −40
    entry = t.combat()["cleanup_skills"][-1]
    assert entry["applied"][0]["requested"] == -50 and entry["applied"][0]["applied"] == -40
    assert entry["applied"][0]["clipped"] and any(n["rule"] == "T-8" for n in entry["notes"])
    assert t.combat()["uses_left_by_faction"]["s2"]["skill"] == 1


def test_t11_cleanup_skills_end_with_the_combat(t):
    to_cleanup(t)
    t.act("finish_combat")
    with pytest.raises(GmError):
        t.act("use_skill", {"skill": A_HAND}, who="s1")


# -- result-timing skills: the whole result phase (T-6) -----------------------------------------

def test_t6_result_skill_is_offered_after_the_confirm_until_the_next_select(t):
    start(t)
    # 1st: 筋力 40 vs エミヤ 筋力 30: a wins. Then エミヤ's 心眼 (result: 相手の筋力-10) → 30 vs 30, a tie.
    select(t, 1, {"stat": "筋力"}, {"stat": "筋力"})
    c = t.combat()
    assert c["step"] == "result1" and c["phase"] == "result" and c["selects"][0]["result"]["winner"] == "a"
    chips = {k["name"]: k for k in RULESET.view(t.state, Viewer("seat", "s2"))["combat"]["skills"]["chips"]}
    assert chips["心眼"]["usable"]
    t.act("use_skill", {"skill": E_RES}, who="s2")
    r = t.combat()["selects"][0]["result"]
    assert (r["a"]["value"], r["b"]["value"], r["winner"]) == (30, 30, None)
    assert "スキル〈心眼〉" in [x["label"]["ja"] for x in r["a"]["terms"]]
    assert t.combat()["advantages"]["a"] == {"adv": 0, "dis": 0}
    assert t.log()[-1].startswith("リザルトのスキル〈心眼〉で再計算 [T-6]: 1stリザルト [T-6/T-7]: ")
    revised = visible_event(t.pure.events[-1], t.state, GM)
    assert RULESET.event_type("grail.select_revised").export(revised, t.state, "ja") == (
        "リザルトのスキル〈心眼〉で再計算 [T-6]: 1stセレクト [T-5/T-6/T-7]: セイバー陣営【筋力】30 vs アーチャー陣営【筋力】30"
        "［修正 セイバー陣営: スキル〈心眼〉 −10[T-8]］ → 同値: 優位なし")
    # the winner's own result skill: 怪力 +20 → 50 vs 30, a wins again; both uses stay in the breakdown
    t.act("use_skill", {"skill": A_RES}, who="s1")
    r = t.combat()["selects"][0]["result"]
    assert (r["a"]["value"], r["winner"]) == (50, "a")
    assert t.combat()["uses_left_by_faction"] == {"s1": {"skill": 1, "np": 2}, "s2": {"skill": 1, "np": 2}}
    t.act("next_step")  # the 2nd select opens: the 1st result phase is over
    chips = {k["name"]: k for k in RULESET.view(t.state, Viewer("seat", "s1"))["combat"]["skills"]["chips"]}
    assert chips["怪力"]["reason"]["rule"] == "T-1" and "リザルト" in chips["怪力"]["reason"]["ja"]
    with pytest.raises(GmError, match="タイミングが違います"):
        t.act("use_skill", {"skill": A_RES}, who="s1")


def test_t6_t8_result_skill_after_the_confirm_goes_through_the_same_cap(t):
    start(t)
    # 魔力放出 (select, 筋力+20) then 怪力 (result, 筋力+20) after the confirm: +40 asked, the cap leaves +10.
    select(t, 1, {"stat": "筋力", "skills": [A_SEL]}, {"stat": "耐久"})
    t.act("use_skill", {"skill": A_RES}, who="s1")
    terms = t.combat()["selects"][0]["result"]["a"]["terms"]
    assert [(x["label"]["ja"], x["value"], x["rule"]) for x in terms[1:]] == [
        ("スキル〈魔力放出〉", 20, "T-8"), ("スキル〈怪力〉 +20 → +10", 10, "T-8")]
    assert t.combat()["selects"][0]["result"]["a"]["value"] == 70  # 40 + 20 + 10


def test_t6_result_skill_at_the_3rd_result_changes_the_final_win_rate(t):
    start(t)
    select(t, 1, {"stat": "筋力"}, {"stat": "幸運"})
    select(t, 2, {"stat": "魔力"}, {"stat": "敏捷"})
    select(t, 3, {"stat": "筋力"}, {"stat": "筋力"})
    before = t.combat()["win_rates"]["a"]["total"]
    t.act("use_skill", {"skill": A_RES}, who="s1")  # 3rd: 40 vs 30 → 60 vs 30: 戦力の差 +20, halved: +10
    t.act("next_step")
    assert t.combat()["final"]["a"]["total"] == before + 10


def test_t6_gm_modifier_after_the_confirm_recomputes_the_result(t):
    start(t)
    select(t, 1, {"stat": "筋力"}, {"stat": "筋力"})
    t.act("use_skill", {"side": "b", "kind": "outside", "stat": "筋力", "value": 15, "label": "地形"})
    r = t.combat()["selects"][0]["result"]
    assert (r["b"]["value"], r["winner"]) == (45, "b")


def test_t6_t13_result_skill_after_a_seal_4_swap_keeps_the_cast_the_result_was_compared_with(t):
    t.act("set_characters", {"faction": "s1", "append": True, "text": "士郎 筋力20 耐久30 敏捷20 魔力10 幸運30 宝具10"})
    t.act("start_combat", {"a": ["s1"], "b": ["s2"], "declarer": "a"})
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s1/アルトリア", "sub": "s1/士郎"}}, who="s1")
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s2/エミヤ"}}, who="s2")
    t.confirm("c1-setup")
    select(t, 1, {"stat": "筋力"}, {"stat": "筋力"})  # 40 + 士郎's sub part (20 → 10) = 50 vs 30
    t.act("use_seal", {"faction": "s1", "effect": 4, "with": "士郎"})  # from now on 士郎 20 + アルトリア's 20 = 40
    t.act("use_skill", {"skill": E_RES}, who="s2")  # 心眼 −10 on the 1st result's 50 → 40 (not 40 − 10 = 30, a tie)
    r = t.combat()["selects"][0]["result"]
    assert (r["a"]["value"], r["b"]["value"], r["winner"]) == (40, 30, "a")
    assert t.combat()["forces"]["a"]["筋力"]["value"] == 40  # the swap stands for the selects to come
