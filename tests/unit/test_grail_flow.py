"""Holy Grail War TRPG combat flow (RULES.md T-1..T-14) through the grail_trpg ruleset, pure and with fixed dice.

The whole-combat test computes every number by hand in its comments; the others check one
rule each (barred stats, use limits, caps, seals, escapes, alliances, readings, undo by refold).
"""

from __future__ import annotations

import pytest
from gmtool_testing import Pure

from gmtool.core import commands, prompts
from gmtool.core.commands import create_session, new_seat
from gmtool.core.dice import FixedDice, seed_hash
from gmtool.core.errors import GmError
from gmtool.core.logtext import describe
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext
from gmtool.core.view import GM, TABLE, Viewer, build_view
from gmtool.rulesets.grail_trpg import RULESET

SABER = """アルトリア(セイバー)/アルトリア・ペンドラゴン 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60
士郎 筋力20 耐久30 敏捷20 魔力10 幸運30 宝具10
大河 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10"""
ARCHER = """[{"name": "エミヤ", "class_name": "アーチャー", "true_name": "エミヤ", "stats":
 {"筋力": 30, "耐久": 40, "敏捷": 40, "魔力": 50, "幸運": 30, "宝具": 50}},
 {"name": "凛", "stats": {"筋力": 20, "耐久": 20, "敏捷": 30, "魔力": 55, "幸運": 40, "宝具": 20}}]"""


class Table:
    """A grail_trpg session in memory: actions and answers as the GM or a seat, folded like the runtime."""

    def __init__(self, seats=("セイバー陣営", "アーチャー陣営"), dice=()):
        self.pure = Pure(State(rules=RULESET), dice=FixedDice(list(dice)), resolvers=RULESET.all_resolvers())
        self.pure.write(create_session("g1", "聖杯戦争", "grail_trpg",
                                       [new_seat(f"s{i + 1}", n) for i, n in enumerate(seats)],
                                       list(RULESET.counters), seed_hash(b"x" * 32)))

    @property
    def state(self):
        return self.pure.state

    def act(self, name, payload=None, who="gm"):
        viewer = GM if who == "gm" else Viewer("seat", who)
        ctx = ActionContext(actor="gm" if who == "gm" else f"seat:{who}", viewer=viewer, dice=self.pure.dice,
                            salt=lambda: "salt", resolvers=self.pure.resolvers)
        return self.pure.write(RULESET.actions[name].fn(self.state, payload or {}, ctx), ctx.actor)

    def confirm(self, prompt_id):
        return self.pure.do(prompts.confirm, prompt_id)

    def combat(self):
        return RULESET.view(self.state, GM)["combat"]

    def log(self):
        return [describe(e.to_dict(), self.state) for e in self.pure.events]


@pytest.fixture
def table():
    t = Table(dice=[30, 50, 60, 40])
    t.act("set_characters", {"faction": "s1", "text": SABER})
    t.act("set_characters", {"faction": "s2", "characters": ARCHER})
    return t


def setup_both(t, a=None, b=None):
    t.act("start_combat", {"a": ["s1"], "b": ["s2"]})
    t.act("answer", {"prompt": "c1-setup", "value": a or {"main": "s1/アルトリア", "sub": "s1/士郎"}}, who="s1")
    t.act("answer", {"prompt": "c1-setup", "value": b or {"main": "s2/エミヤ", "sub": "s2/凛"}}, who="s2")
    t.confirm("c1-setup")


def select(t, n, a, b):
    t.act("next_step")
    t.act("answer", {"prompt": f"c1-s{n}", "value": a}, who="s1")
    t.act("answer", {"prompt": f"c1-s{n}", "value": b}, who="s2")
    return t.state.prompts[f"c1-s{n}"]


def test_t1_whole_combat_by_hand(table):
    t = table
    t.act("set_seen", {"faction": "s1", "seen": ["s2/エミヤ"]})
    setup_both(t)
    c = t.combat()
    # T-4 sub halved except the ones digit: 士郎 20→10 30→15 20→10 10→5 30→15 10→5
    assert {s: v["value"] for s, v in c["forces"]["a"].items()} == \
        {"筋力": 50, "耐久": 75, "敏捷": 50, "魔力": 60, "幸運": 55, "宝具": 65}
    # 凛 20→10 20→10 30→15 55→30 40→20 20→10
    assert {s: v["value"] for s, v in c["forces"]["b"].items()} == \
        {"筋力": 40, "耐久": 50, "敏捷": 55, "魔力": 80, "幸運": 50, "宝具": 60}
    assert c["setup"]["a"]["non_combat"] == 1  # 大河

    # 1st: A 筋力 50 + 怪力 10 = 60 (耐久 does nothing to 筋力); B 耐久 50 halved by 筋力 → 25. A 優位.
    p1 = select(t, 1, {"stat": "筋力", "mods": [{"label": "怪力", "value": 10, "kind": "skill"}]}, {"stat": "耐久"})
    assert [r["total"] for r in p1.resolution["rows"]] == [60, 25]
    t.confirm("c1-s1")
    # 2nd: 筋力 is greyed out for A (chosen in the 1st), 耐久 for B.
    t.act("next_step")
    assert "筋力" in t.state.prompts["c1-s2"].per_seat["s1"] and "耐久" in t.state.prompts["c1-s2"].per_seat["s2"]
    with pytest.raises(GmError, match="直前"):
        t.act("answer", {"prompt": "c1-s2", "value": {"stat": "筋力"}}, who="s1")
    # A 魔力 60; B 敏捷 55 − 10 (魔力 against 敏捷) = 45. A 優位 and +10 on its next submission.
    t.act("answer", {"prompt": "c1-s2", "value": {"stat": "魔力"}}, who="s1")
    t.act("answer", {"prompt": "c1-s2", "value": {"stat": "敏捷"}}, who="s2")
    assert [r["total"] for r in t.state.prompts["c1-s2"].resolution["rows"]] == [60, 45]
    t.confirm("c1-s2")
    assert t.combat()["carry"] == "a"
    # 3rd: A 幸運 55 + 10 (魔力 carry) = 65, halved by B's 宝具 → 33; B 宝具 60 + 30 (seal 2) = 90. B 優位.
    p3 = select(t, 3, {"stat": "幸運"}, {"stat": "宝具", "seal": {"effect": 2}})
    assert [r["total"] for r in p3.resolution["rows"]] == [33, 90]
    t.confirm("c1-s3")
    assert t.state.counters["s2"]["seals"] == 2

    # Final: A (2 − 1) × 20 = 20; 戦力の差 (35 + 15 − 57) = −7 ÷ 2 → −3 (rounded up); 看破 1 × 15; 非戦闘 1 × 10 → 42
    #        B (1 − 2) × 20 = −20; +7 ÷ 2 → +4; 0; 0 → −16
    t.act("next_step")
    final = t.combat()["final"]
    assert [x["value"] for x in final["a"]["terms"]] == [20, -3, 15, 10, 0] and final["a"]["total"] == 42
    assert final["b"]["total"] == -16
    # Seal 3 for B at the battle: +50 → 34.
    t.act("use_seal", {"faction": "s2", "effect": 3})
    assert t.combat()["win_rates"]["b"]["total"] == 34
    # Battle: A 30 + 42 = 72, B 50 + 34 = 84 → B wins.
    t.act("next_step")
    battle = t.combat()["battle"]
    assert (battle["rolls"][0]["a"]["total"], battle["rolls"][0]["b"]["total"], battle["winner"]) == (72, 84, "b")
    # Cleanup: A escapes with seal 7 (黒星 0 + 1 = 1 seal): 60 vs 40 → escaped; then 黒星 +1, not eliminated.
    t.act("escape", {"faction": "s1"})
    t.act("next_step")
    assert t.state.counters["s1"] == {"seals": 2, "mp": 0, "black_stars": 1}
    assert t.state.counters["s2"]["seals"] == 1
    c = t.combat()
    assert c["done"] and c["result"]["eliminated"] == [] and c["result"]["escaped"] == ["s1"]
    log = "\n".join(t.log())
    for text in ("戦闘開始", "セットアップ [T-4]", "1stリザルト", "魔力+10", "令呪2", "ファイナルリザルト [T-9]",
                 "勝敗判定 [T-10]", "逃走判定", "クリンナップ [T-11]"):
        assert text in log
    # The fold is deterministic: folding the log again gives the same grail state.
    assert t.pure.refold().extra["grail"] == t.state.extra["grail"]


def test_t3_third_skill_is_refused_with_a_clear_message(table):
    setup_both(table)
    two = [{"label": "怪力", "value": 5, "kind": "skill"}, {"label": "魔力放出", "value": 5, "kind": "skill"}]
    select(table, 1, {"stat": "筋力", "mods": two}, {"stat": "耐久"})
    table.confirm("c1-s1")
    table.act("next_step")
    with pytest.raises(GmError) as e:
        table.act("answer", {"prompt": "c1-s2", "value": {"stat": "魔力", "mods": two[:1]}}, who="s1")
    assert "T-3" in e.value.ja and "2回使用済み" in e.value.ja  # the reason a sheet skill over the limit gets


def test_t8_skills_are_capped_at_30_per_stat_with_a_note(table):
    setup_both(table)
    mods = [{"label": "怪力", "value": 20, "kind": "skill"}, {"label": "約束された勝利の剣", "value": 20, "kind": "np"}]
    p = select(table, 1, {"stat": "筋力", "mods": mods}, {"stat": "敏捷"})
    row = p.resolution["rows"][0]
    assert [x["value"] for x in row["terms"]][:3] == [50, 20, 10]  # the 宝具's +20 is clipped to +10
    assert any(n["rule"] == "T-8" and "±30" in n["ja"] for n in p.resolution["notes"])


def test_t13_seal1_at_setup_raises_every_force_by_10(table):
    setup_both(table, a={"main": "s1/アルトリア", "seal": 1})
    forces = table.combat()["forces"]["a"]
    assert forces["筋力"]["value"] == 50 and forces["筋力"]["terms"][-1]["rule"] == "T-13"
    assert table.state.counters["s1"]["seals"] == 2


def test_t13_seal4_swaps_main_and_seal5_gives_mp(table):
    setup_both(table)
    table.act("use_seal", {"faction": "s1", "effect": 4, "with": "s1/士郎"})
    c = table.combat()
    assert c["setup"]["a"]["main"]["name"] == "士郎" and c["setup"]["a"]["sub"]["name"] == "アルトリア"
    assert c["forces"]["a"]["筋力"]["value"] == 20 + 20  # 士郎 20 + アルトリア 40 → 20
    table.act("use_seal", {"faction": "s2", "effect": 5})
    assert table.state.counters["s2"] == {"seals": 2, "mp": 3, "black_stars": 0}
    with pytest.raises(GmError, match="バトル"):
        table.act("use_seal", {"faction": "s2", "effect": 3})


def test_t12_setup_escape_with_seal6_ends_the_combat(table):
    table.act("start_combat", {"a": ["s1"], "b": ["s2"]})
    table.state.counters["s1"]["black_stars"] = 2  # two earlier losses: seal 6 costs 2
    table.pure.dice = FixedDice([70, 20])
    table.act("escape", {"faction": "s1", "escaper_mod": 5})
    c = table.combat()
    assert c["done"] and c["result"] == "escaped" and table.state.counters["s1"]["seals"] == 1
    assert c["escapes"][0]["check"]["escaper"]["total"] == 75
    assert table.state.prompts["c1-setup"].status == "cancelled"


def test_t11_alliance_loses_every_ally_gains_a_black_star_and_is_eliminated():
    t = Table(seats=("甲", "乙", "丙"), dice=[1, 100])
    for f, line in (("s1", "甲 筋力50 耐久50 敏捷50 魔力50 幸運50 宝具50"), ("s2", "乙 筋力40 耐久40 敏捷40 魔力40 幸運40 宝具40"),
                    ("s3", "丙 筋力90 耐久90 敏捷90 魔力90 幸運90 宝具90")):
        t.act("set_characters", {"faction": f, "text": line})
    t.act("start_combat", {"a": ["s1", "s2"], "b": ["s3"]})
    prompt = t.state.prompts["c1-setup"]
    assert prompt.seats == ["s1", "s2", "s3"]  # T-3: every allied faction answers for itself
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s1/甲", "sub": "s2/乙"}}, who="s1")
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s3/丙"}}, who="s3")
    t.act("answer", {"prompt": "c1-setup", "value": {}}, who="s2")  # the ally declares no skill
    t.confirm("c1-setup")
    for n, (a, b) in enumerate((("筋力", "筋力"), ("耐久", "耐久"), ("筋力", "筋力")), 1):
        t.act("next_step")
        t.act("answer", {"prompt": f"c1-s{n}", "value": {"stat": a}}, who="s1")
        t.act("answer", {"prompt": f"c1-s{n}", "value": {"stat": b}}, who="s3")
        t.act("answer", {"prompt": f"c1-s{n}", "value": {}}, who="s2")
        t.confirm(f"c1-s{n}")
    t.act("next_step")
    t.act("next_step")
    assert t.combat()["winner"] == "b"
    t.act("next_step")
    assert [t.state.counters[s]["black_stars"] for s in ("s1", "s2", "s3")] == [1, 1, 0]
    assert t.state.extra["grail"]["out"] == ["s1", "s2"]
    with pytest.raises(GmError, match="敗退"):
        t.act("start_combat", {"a": ["s1"], "b": ["s3"]})


def test_pl_vs_gm_the_gm_answers_and_the_table_never_sees_true_names(table):
    table.act("set_characters", {"faction": "gm", "text": "謎の影(アサシン)/ハサン 筋力30 耐久30 敏捷70 魔力20 幸運30 宝具40"})
    table.act("start_combat", {"a": ["s1"], "b": "gm"})
    p = table.state.prompts["c1-setup"]
    assert p.seats == ["s1"] and p.gm_submits
    table.act("answer", {"prompt": "c1-setup", "value": {"main": "gm/謎の影"}}, who="gm")
    seen = RULESET.view(table.state, TABLE)
    gm_faction = next(f for f in seen["factions"] if f["id"] == "gm")
    assert gm_faction["characters"][0]["true_name"] is None and gm_faction["characters"][0]["stats"] is None
    assert "ハサン" not in str(seen)
    phone = RULESET.view(table.state, Viewer("seat", "s1"))
    assert "ハサン" not in str(phone) and phone["factions"][0]["characters"][0]["true_name"] == "アルトリア・ペンドラゴン"


def test_readings_switch_and_show_in_the_breakdown(table):
    table.pure.do(commands.set_reading, "sub_part", "half_ceil")
    table.pure.do(commands.set_reading, "third_may_repeat_first", "false")
    with pytest.raises(GmError, match="選べません"):
        table.pure.do(commands.set_reading, "force_diff", "nope")
    setup_both(table)
    assert table.combat()["forces"]["a"]["魔力"]["value"] == 55 + 5  # 士郎 10 → 5 either way
    assert table.combat()["forces"]["b"]["魔力"]["value"] == 50 + 28  # 凛 55 → 28 (half, rounded up)
    view = build_view(table.state, TABLE)
    assert next(r for r in view["readings"] if r["key"] == "sub_part")["value"] == "half_ceil"


def test_t1_a_typed_in_combat_title_is_the_same_in_both_languages_and_an_old_plain_one_still_folds(table):
    """T-1: a `title` given to start_combat is `{ja, en}` (the same in both) in the combat, the history and the
    grail.combat_started event, as the docs give it; an event stored before, with the title as plain text, folds
    and shows as one."""
    table.act("start_combat", {"a": ["s1"], "b": ["s2"], "title": "決戦"})
    both = {"ja": "決戦", "en": "決戦"}
    view = RULESET.view(table.state, GM)
    assert view["combat"]["title"] == both and view["history"][0]["title"] == both
    started = next(e for e in table.pure.events if e.type == "grail.combat_started")
    assert started.data["title"] == both
    old = Table()
    old.act("set_characters", {"faction": "s1", "text": SABER})
    old.act("set_characters", {"faction": "s2", "characters": ARCHER})
    old.pure.write([("scene.marked", {"title": "決戦"}), ("grail.combat_started", {**started.data, "title": "決戦"})])
    view = RULESET.view(old.state, GM)
    assert view["combat"]["title"] == both and view["history"][0]["title"] == both
    # its log lines read in both languages (the scene's as typed; 0.1's default title: test_migration_v0_1)
    lines = {lang: [describe(e.to_dict(), old.state, lang) for e in old.pure.events[-2:]] for lang in ("ja", "en")}
    assert lines == {"ja": ["■ 決戦", "戦闘開始: セイバー陣営 vs アーチャー陣営（宣言側: セイバー陣営）[T-1]"],
                     "en": ["■ 決戦", "Combat: セイバー陣営 vs アーチャー陣営 (declared by セイバー陣営) [T-1]"]}


def test_t13_seal_4_swap_list_names_each_one_a_gm_can_tell_apart():
    """T-4: the view's `setup_choices` (the setup form's characters) and T-13 seal 4: the view's `swaps` (the GM only) lists whom the main's faction may swap in, as the console prints
    it (flow.swap_choices, not the console's template): role, name and class; the faction's name where another
    faction's reads the same (士郎 of two allied factions). Two alike of one faction: test_grail_api's seal 4 test."""
    t = Table(seats=("甲陣営", "乙陣営", "丙陣営"))
    t.act("set_characters", {"faction": "s1", "text": "甲 筋力50 耐久50 敏捷50 魔力50 幸運50 宝具50\n"
                             "大河(ランサー) 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10\n士郎 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10"})
    t.act("set_characters", {"faction": "s2", "text": "乙 筋力40 耐久40 敏捷40 魔力40 幸運40 宝具40\n"
                             "士郎 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10"})
    t.act("set_characters", {"faction": "s3", "text": "丙 筋力90 耐久90 敏捷90 魔力90 幸運90 宝具90"})
    t.act("start_combat", {"a": ["s1", "s2"], "b": ["s3"]})
    # the setup form offers the side's characters by name and class, an ally's 士郎 told apart by its faction
    assert [c["label"]["en"] for c in RULESET.view(t.state, Viewer("seat", "s2"))["combat"]["setup_choices"]] == [
        "甲", "大河(ランサー)", "士郎 · 甲陣営", "乙", "士郎 · 乙陣営"]
    assert RULESET.view(t.state, Viewer("seat", "s3"))["combat"]["setup_choices"] == [
        {"id": "s3/丙", "label": {"ja": "丙", "en": "丙"}}]
    assert t.combat()["setup_choices"] is None  # the GM answers no setup in a combat of factions
    tiger = next(c["id"] for c in t.state.extra["grail"]["characters"]["s1"] if c["name"] == "大河")
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s1/甲", "sub": tiger, "others": ["s1/士郎", "s2/士郎"]}},
          who="s1")
    t.act("answer", {"prompt": "c1-setup", "value": {"main": "s3/丙"}}, who="s3")
    t.act("answer", {"prompt": "c1-setup", "value": {}}, who="s2")
    t.confirm("c1-setup")
    combat = t.combat()
    assert 4 in combat["gm_forms"]["seals"]["s1"]
    assert combat["swaps"]["s1"] == [
        {"id": tiger, "label": {"ja": "サブ 大河(ランサー)", "en": "Sub 大河(ランサー)"}},
        {"id": "s1/士郎", "label": {"ja": "その他 士郎 · 甲陣営", "en": "Other 士郎 · 甲陣営"}},
        {"id": "s2/士郎", "label": {"ja": "その他 士郎 · 乙陣営", "en": "Other 士郎 · 乙陣営"}}]
    seat = RULESET.view(t.state, Viewer("seat", "s1"))["combat"]
    assert seat["swaps"] is None and seat["gm_forms"] is None  # the console's alone


def test_t10_a_negative_battle_total_reads_with_the_minus_sign_in_the_log(table):
    """T-10: the battle roll's log line wrote a negative win rate with the minus sign (勝率−26) but the total it came
    to with a hyphen (= -25), in both languages; both read −25 now, as every breakdown writes a negative number."""
    table.act("start_combat", {"a": ["s1"], "b": ["s2"]})
    row = {"round": 1, "tie": False, "a": {"die": 98, "rate": 37, "total": 135}, "b": {"die": 1, "rate": -26, "total": -25}}
    event = {"type": "grail.battle_rolled", "data": {"combat": "c1", "battle": {"rolls": [row], "winner": "a"}}}
    assert describe(event, table.state).endswith("アーチャー陣営 1d100(1) + 勝率−26 = −25 → セイバー陣営の勝ち")
    assert describe(event, table.state, "en").endswith(
        "アーチャー陣営 1d100(1) + win rate −26 = −25 → セイバー陣営 wins")
