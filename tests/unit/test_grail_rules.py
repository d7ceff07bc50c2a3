"""Holy Grail War TRPG combat rules (RULES.md T-1..T-8): grail_rules.py, named by rule."""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from gmtool.core.errors import GmError
from gmtool.rulesets.grail_trpg import rules as grail_rules
from gmtool.rulesets.grail_trpg import winrate as grail_winrate
from gmtool.rulesets.grail_trpg.rules import (
    HALF, MINUS10, READINGS, STATS, STATS_EN, Character, SideChoice, affinity, allowed_stats,
    check_choice, compare, declared_readings, force, parse_characters, reading, reading_note,
    select_notes, setup_order, sub_part, validate_setup,
)

SAMPLE = "セイバー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60"
SAMPLE_STATS = dict(zip(STATS, (40, 60, 40, 55, 40, 60)))


def readings_in(notes):
    return {n.get("reading") for n in notes}


# -- T-1: every public function documents its rule; readings are switchable ----------

@pytest.mark.parametrize("module", [grail_rules, grail_winrate], ids=lambda m: m.__name__)
def test_t1_every_public_function_has_a_one_line_docstring_with_a_rule(module):
    tree = ast.parse(inspect.getsource(module))
    nodes = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    nodes += [m for c in tree.body if isinstance(c, ast.ClassDef) for m in c.body if isinstance(m, ast.FunctionDef)]
    for node in nodes:
        if node.name.startswith("_"):
            continue
        doc = ast.get_docstring(node)
        assert doc and "\n" not in doc and re.search(r"T-\d+", doc), node.name


def test_t1_readings_have_defaults_and_reject_unknown_choices():
    assert reading(None, "force_diff") == "sum_halved_ceil"
    assert reading({"force_diff": "sum_halved_floor"}, "force_diff") == "sum_halved_floor"
    with pytest.raises(GmError) as e:
        reading({"battle_tie": "coin"}, "battle_tie")
    # said by the reading's label, as the readings panel shows it, never its key or the stored value
    label = {r.key: r for r in declared_readings()}["battle_tie"].label
    assert label.ja in e.value.ja and label.en in e.value.en and "解釈（ハウスルール）" in e.value.ja
    assert not any(code in e.value.ja + e.value.en for code in ("battle_tie", "coin"))
    table = {r.key: r for r in declared_readings()}
    assert set(table) == set(READINGS)
    assert table["third_may_repeat_first"].default is True
    note = reading_note(None, "sub_part")
    assert note["rule"] == "T-4" and note["reading"] == "sub_part" and note["ja"].startswith("解釈")


# -- T-4: characters, sub part, force, setup -------------------------------------------

def test_t4_parse_sample_line():
    [c] = parse_characters(SAMPLE, "saber")
    assert (c.name, c.class_name, c.true_name, c.faction) == ("セイバー", "セイバー", "", "saber")
    assert c.stats == SAMPLE_STATS and c.id == "saber/セイバー"


@pytest.mark.parametrize("line, name, cls, true_name", [
    ("アルトリア(セイバー) 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60", "アルトリア", "セイバー", ""),
    ("アルトリア（セイバー） 筋力：４０ 耐久：６０ 敏捷40 魔力55 幸運40 宝具60", "アルトリア", "セイバー", ""),
    ("士郎/セイバー/アルトリア STR=40 END=60 AGI=40 MAG=55 LUK=40 NP=60", "士郎", "セイバー", "アルトリア"),
    ("セイバー/アルトリア 【筋力】40【耐久】60【敏捷】40【魔力】55【幸運】40【宝具】60", "セイバー", "セイバー", "アルトリア"),
    ("謎の騎士 筋 40, 耐 60, 敏 40, 魔 55, 幸 40, 宝 60", "謎の騎士", "", ""),
    ("Knight str40 end60 agi40 mag55 luk40 np60", "Knight", "", ""),
])
def test_t4_parse_accepts_names_widths_and_keys(line, name, cls, true_name):
    [c] = parse_characters(line)
    assert (c.name, c.class_name, c.true_name) == (name, cls, true_name)
    assert c.stats == SAMPLE_STATS


def test_t4_parse_several_lines_skips_blanks_and_comments_and_dedupes_ids():
    cs = parse_characters(f"# 陣営A\n{SAMPLE}\n\n{SAMPLE}\n", "a")
    assert [c.id for c in cs] == ["a/セイバー", "a/セイバー#2"]


def test_t4_parse_json_list():
    cs = parse_characters('[{"name": "アルトリア", "class": "セイバー", "true_name": "アルトリア・ペンドラゴン",'
                          ' "stats": {"筋力": 40, "耐久": 60, "敏捷": 40, "魔力": 55, "幸運": 40, "宝具": 60}},'
                          ' {"name": "x", "STR": 1, "END": 2, "AGI": 3, "MAG": 4, "LUK": 5, "NP": "６"}]', "f")
    assert cs[0].stats == SAMPLE_STATS and cs[0].true_name == "アルトリア・ペンドラゴン"
    assert cs[1].stats == dict(zip(STATS, (1, 2, 3, 4, 5, 6))) and cs[1].faction == "f"


@pytest.mark.parametrize("text, ja, en", [
    (f"{SAMPLE}\nランサー 筋力40 耐久60 敏捷40 魔力55 幸運40", "2行目", "Line 2"),
    ("ランサー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60 強い", "1行目", "Line 1"),
    ("ランサー 筋力40 筋力50 耐久60 敏捷40 魔力55 幸運40 宝具60", "2回", "twice"),
    ("ただの文章です", "能力値がありません", "no stats"),
    ("", "入力されていません", "No characters"),
    ("[1, 2]", "1番目", "Item 1"),
    ("[{", "JSON", "JSON"),
])
def test_t4_parse_bad_input_names_the_line(text, ja, en):
    with pytest.raises(GmError) as e:
        parse_characters(text)
    assert ja in e.value.ja and en in e.value.en


def test_t4_parse_missing_stat_is_named():
    with pytest.raises(GmError) as e:
        parse_characters("ランサー 筋力40 耐久60 敏捷40 魔力55 幸運40")
    assert "宝具" in e.value.ja and "NP" in e.value.en


@pytest.mark.parametrize("x, expected", [(55, 30), (40, 20), (60, 30), (9, 9), (100, 50), (0, 0), (75, 40)])
def test_t4_sub_part_halves_tens_keeps_ones(x, expected):
    assert sub_part(x) == expected


def test_t4_sub_part_reading_half_ceil():
    assert sub_part(55, {"sub_part": "half_ceil"}) == 28


def test_t4_force_is_main_plus_sub_part_with_terms():
    main = Character("m", "セイバー", stats=SAMPLE_STATS)
    sub = Character("s", "アーチャー", stats=dict(zip(STATS, (35, 40, 50, 45, 30, 70))))
    f = force(main, sub)
    # 筋力 40 + (35: 30//2 + 5 = 20) = 60; 魔力 55 + (45: 20 + 5 = 25) = 80; 宝具 60 + 35 = 95
    assert {s: f[s]["value"] for s in STATS} == dict(zip(STATS, (60, 80, 65, 80, 55, 95)))
    assert [t["value"] for t in f["筋力"]["terms"]] == [40, 20]
    assert all(t["rule"] == "T-4" for t in f["筋力"]["terms"])
    assert "sub_part" in readings_in(f["筋力"]["notes"])
    # the labels stored in grail.setup_done: the role and the name apart, as on every other line
    assert [t["label"] for t in f["筋力"]["terms"]] == [
        {"ja": "メイン セイバーの筋力", "en": "Main セイバー STR"}, {"ja": "サブ アーチャーの筋力 35→20", "en": "Sub アーチャー STR 35→20"}]
    assert force(SAMPLE_STATS)["筋力"]["terms"][0]["label"] == {"ja": "メインの筋力", "en": "Main STR"}


def test_t4_force_without_sub_is_the_main():
    f = force(SAMPLE_STATS)
    assert f["魔力"] == {"value": 55, "terms": f["魔力"]["terms"], "notes": []} and len(f["魔力"]["terms"]) == 1


def _side():
    return [Character(f"c{i}", f"キャラ{i}", stats=SAMPLE_STATS) for i in range(5)]


def test_t4_setup_valid_lists_non_combat():
    s = validate_setup(_side(), "c0", "c1", ["c2", "c3"])
    assert s == {"main": "c0", "sub": "c1", "others": ["c2", "c3"], "non_combat": ["c4"]}
    assert validate_setup(_side(), ["c0"])["sub"] is None


@pytest.mark.parametrize("main, sub, others, ja", [
    (None, None, (), "メインは1体です（0体） / The main is one character (0 chosen)"),  # not 「1〜1体」 / "1–1"
    (["c0", "c1"], None, (), "メインは1体です（2体） / The main is one character (2 chosen)"),
    ("c0", ["c1", "c2"], (), "サブは0〜1体です（2体） / The sub must be 0–1 characters (2)"),
    ("c0", None, ["c1", "c2", "c3"], "その他は0〜2体です（3体） / The others must be 0–2 characters (3)"),
    ("c0", "zz", (), "そのキャラクターはこの側にいません"),
    ("c0", "c0", (), "2か所"),
])
def test_t4_setup_rejects_bad_roles(main, sub, others, ja):
    with pytest.raises(GmError) as e:
        validate_setup(_side(), main, sub, others)
    assert ja in f"{e.value.ja} / {e.value.en}"


def test_t4_setup_skills_resolve_defender_first():
    assert setup_order("rider", "saber") == ["saber", "rider"]


# -- T-5: selects ------------------------------------------------------------------------

def test_t5_first_select_everything_allowed():
    assert allowed_stats(None, False) == {s: None for s in STATS}


def test_t5_second_select_bars_the_first_choice():
    allowed = allowed_stats("筋力", False)
    assert allowed["筋力"]["rule"] == "T-5" and "筋力" in allowed["筋力"]["ja"] and "STR" in allowed["筋力"]["en"]
    assert [s for s, r in allowed.items() if r is None] == ["耐久", "敏捷", "魔力", "幸運", "宝具"]


def test_t5_third_select_may_repeat_first_by_default():
    allowed = allowed_stats("耐久", False, before_previous="筋力")
    assert allowed["筋力"] is None and allowed["耐久"] is not None
    assert "third_may_repeat_first" in readings_in(select_notes(3))
    assert select_notes(2) == []


def test_t5_third_select_reading_bars_first_too():
    allowed = allowed_stats("耐久", False, {"third_may_repeat_first": False}, before_previous="筋力")
    assert allowed["筋力"]["reading"] == "third_may_repeat_first"


def test_t5_np_only_once_per_scene():
    assert allowed_stats("筋力", True)["宝具"]["ja"].startswith("宝具")
    with pytest.raises(GmError):
        check_choice("宝具", None, True)
    check_choice("宝具", "筋力", False)
    with pytest.raises(GmError):
        check_choice("魔力", "魔力", False)
    with pytest.raises(GmError):
        check_choice("HP", None, False)


# -- T-6 / T-7: results and affinity -------------------------------------------------------

# chooser stat -> {opponent stat: what happens to the opponent's value}
TABLE = {
    "筋力": {"耐久": HALF, "幸運": MINUS10},
    "耐久": {"敏捷": HALF, "幸運": MINUS10},
    "敏捷": {"筋力": HALF, "幸運": MINUS10},
    "魔力": {"筋力": MINUS10, "耐久": MINUS10, "敏捷": MINUS10},
    "幸運": {"魔力": HALF},
    "宝具": {"幸運": HALF},
}
PAIRS = [(c, o, TABLE[c].get(o)) for c in STATS for o in STATS]
AFTER = {HALF: 28, MINUS10: 45, None: 55}  # the opponent's 55 after my affinity (half rounds up)


def test_t7_table_has_36_pairs():
    assert len(PAIRS) == 36 and sum(1 for p in PAIRS if p[2]) == 11


@pytest.mark.parametrize("chooser, opponent, expected", PAIRS, ids=[f"{c}-{o}" for c, o, _ in PAIRS])
def test_t7_affinity_pair(chooser, opponent, expected):
    assert affinity(chooser, opponent) == expected
    r = compare(1, SideChoice(chooser, 50), SideChoice(opponent, 55))
    assert r.b["value"] == AFTER[expected]
    if expected:
        assert r.b["terms"][-1]["rule"] == "T-7" and r.b["terms"][-1]["value"] == AFTER[expected] - 55
    if chooser == opponent:
        assert any("同じ戦力" in n["ja"] for n in r.notes)


def test_t7_halving_rounds_up():
    r = compare(1, SideChoice("筋力", 10), SideChoice("耐久", 55))
    assert r.b["value"] == 28 and [t["value"] for t in r.b["terms"]] == [55, -27]
    assert "(55→28" in r.b["terms"][1]["label"]["en"] or "55→28" in r.b["terms"][1]["label"]["en"]


def test_t7_own_modifiers_first_affinity_last():
    # 耐久 60 + 20 <鉄壁> = 80, halved by 筋力 -> 40; 筋力 40: equal -> nobody wins
    b = SideChoice("耐久", 60, ({"label": {"ja": "鉄壁", "en": "Iron wall"}, "value": 20},))
    r = compare(1, SideChoice("筋力", 40), b)
    assert [t["value"] for t in r.b["terms"]] == [60, 20, -40] and r.b["value"] == 40
    assert r.winner is None and "affinity_order" in readings_in(r.notes)
    # Reading affinity_first: 60 halved = 30, then + 20 = 50 > 40
    r2 = compare(1, SideChoice("筋力", 40), b, readings={"affinity_order": "affinity_first"})
    assert [t["value"] for t in r2.b["terms"]] == [60, -30, 20] and r2.winner == "b"


def test_t6_higher_wins_and_gets_advantage():
    r = compare(2, SideChoice("敏捷", 80), SideChoice("魔力", 60))  # 敏捷 80 − 10 (魔力's affinity) = 70 > 60
    assert r.winner == "a" and r.advantage("a") == 1 and r.advantage("b") == -1
    assert r.to_dict()["advantage"] == {"a": 1, "b": -1}
    # the timing is named as on the sheets and the skill chips (リザルト / Result), not 結果タイミング
    assert any(n["ja"].endswith("優位側からリザルトのスキルを使う") and "uses result skills first" in n["en"]
               for n in r.notes)


def test_t6_equal_values_give_no_advantage():
    r = compare(1, SideChoice("筋力", 50), SideChoice("筋力", 50))
    assert r.winner is None and r.advantage("a") == r.advantage("b") == 0 and not r.needs_gm
    assert "result_tie" in readings_in(r.notes)
    assert compare(1, SideChoice("筋力", 50), SideChoice("筋力", 50), readings={"result_tie": "gm"}).needs_gm


def test_t7_magic_win_carries_plus_10_to_next_submission():
    r1 = compare(1, SideChoice("魔力", 60), SideChoice("筋力", 55))  # 筋力 55 - 10 = 45
    assert r1.b["value"] == 45 and r1.winner == "a" and r1.magic_carry == "a"
    r2 = compare(2, SideChoice("耐久", 50), SideChoice("耐久", 55), carry=r1.magic_carry)
    assert [t["value"] for t in r2.a["terms"]] == [50, 10] and r2.a["terms"][1]["rule"] == "T-7"
    assert r2.winner == "a"  # 60 > 55


def test_t7_magic_carry_is_added_before_affinity():
    # 敏捷 50 + 10 carry = 60, halved by 耐久 -> 30
    r = compare(2, SideChoice("敏捷", 50), SideChoice("耐久", 20), carry="a")
    assert [t["value"] for t in r.a["terms"]] == [50, 10, -30]


def test_t7_magic_carry_lapses_after_third_and_reading_affinity_win():
    r = compare(3, SideChoice("魔力", 60), SideChoice("筋力", 40))
    assert r.winner == "a" and r.magic_carry is None and any("lapses" in n["en"] for n in r.notes)
    r = compare(1, SideChoice("魔力", 60), SideChoice("魔力", 40))
    assert r.magic_carry == "a"
    r = compare(1, SideChoice("魔力", 60), SideChoice("魔力", 40), readings={"magic_carry_on": "affinity_win"})
    assert r.magic_carry is None


def test_t7_luck_halves_magic():
    r = compare(1, SideChoice("幸運", 40), SideChoice("魔力", 55))
    assert r.b["value"] == 28 and r.winner == "a" and r.luck_bonus == "a"
    assert "luck_bonus_on" in readings_in(r.notes)


def test_t7_luck_bonus_only_when_luck_wins():
    r = compare(1, SideChoice("幸運", 20), SideChoice("魔力", 55))  # 20 < 28
    assert r.winner == "b" and r.luck_bonus is None


def test_t7_luck_bonus_reading_affinity_win():
    # 幸運 70 - 10 (筋力's affinity) = 60 > 50
    r = compare(1, SideChoice("幸運", 70), SideChoice("筋力", 50))
    assert r.a["value"] == 60 and r.luck_bonus == "a"
    r = compare(1, SideChoice("幸運", 70), SideChoice("筋力", 50), readings={"luck_bonus_on": "affinity_win"})
    assert r.winner == "a" and r.luck_bonus is None


def test_t7_np_win_voids_opponent_luck_bonus():
    r = compare(2, SideChoice("宝具", 60), SideChoice("幸運", 80))  # 80 halved -> 40
    assert r.b["value"] == 40 and r.luck_void == "a"
    assert {"luck_void_on", "luck_void_scope"} <= readings_in(r.notes)
    r = compare(2, SideChoice("宝具", 60), SideChoice("筋力", 50), readings={"luck_void_on": "affinity_win"})
    assert r.winner == "a" and r.luck_void is None


def test_t7_compare_rejects_bad_input():
    with pytest.raises(GmError):
        compare(4, SideChoice("筋力", 1), SideChoice("筋力", 1))
    with pytest.raises(GmError):
        compare(1, SideChoice("体力", 1), SideChoice("筋力", 1))
    with pytest.raises(GmError):
        compare(1, SideChoice("筋力", 1, ({"label": "x", "value": "10"},)), SideChoice("筋力", 1))


def test_t7_result_terms_sum_to_values():
    r = compare(1, SideChoice("魔力", 77, (5, {"label": "怪力", "value": 20, "rule": "T-8"})), SideChoice("敏捷", 63),
                carry="b")
    for side in (r.a, r.b):
        assert sum(t["value"] for t in side["terms"]) == side["value"]
    assert r.b["value"] == 63 + 10 - 10 and r.a["value"] == 102


def test_stats_and_english_names():
    assert STATS == ("筋力", "耐久", "敏捷", "魔力", "幸運", "宝具")
    assert STATS_EN == ("STR", "END", "AGI", "MAG", "LUK", "NP")
