"""Holy Grail War TRPG combat rules (RULES.md T-3, T-8..T-14): grail_winrate.py, named by rule."""

from __future__ import annotations

import pytest

from gmtool.core.dice import FixedDice
from gmtool.core.errors import GmError
from gmtool.core.model import Label
from gmtool.rulesets.grail_trpg.rules import STATS, SideChoice, compare, force
from gmtool.rulesets.grail_trpg.winrate import (
    SEAL_EFFECTS, CapTracker, battle_roll, black_stars_after, check_seal_use, escape_check,
    force_difference, luck_bonus_of, non_combat_count, pairings, seal_cost, seal_cost_words, seal_effects, win_rate,
)


def readings_in(notes):
    return {n.get("reading") for n in notes}


def values(terms):
    return [t["value"] for t in terms]


# -- T-8: caps -----------------------------------------------------------------------------

def tracker(**base):
    stats = {s: 50 for s in STATS}
    stats.update(base)
    return CapTracker({"s": stats})


def test_t8_plus20_then_plus20_is_clipped_to_plus10_with_note():
    t = tracker()
    assert t.apply("s", "筋力", 20)["applied"] == 20
    r = t.apply("s", "筋力", 20, "np", "魔力放出")
    assert r["applied"] == 10 and r["clipped"] and r["value"] == 80 and r["used"] == 30
    assert r["term"] == {"label": "魔力放出", "value": 10, "rule": "T-8"}
    assert "leaves +10 for later" in r["notes"][0]["en"] and r["notes"][0]["rule"] == "T-8"
    assert t.apply("s", "筋力", 5)["applied"] == 0
    assert t.apply("s", "耐久", 30)["applied"] == 30  # per stat


def test_t8_minus50_on_plus20_stat_nets_minus30():
    t = tracker()
    t.apply("s", "筋力", 20)
    r = t.apply("s", "筋力", -50)
    assert r["applied"] == -50 and not r["clipped"] and r["used"] == -30 and r["value"] == 20
    assert "nets −30" in r["notes"][0]["en"]
    assert r["left"] == {"up": 60, "down": 0}


def test_t8_minus60_on_plus20_is_clipped_to_minus50():
    t = tracker()
    t.apply("s", "筋力", 20)
    r = t.apply("s", "筋力", -60)
    assert r["applied"] == -50 and r["clipped"] and r["used"] == -30


def test_t8_ceiling_100_except_seals():
    t = tracker(筋力=90)
    r = t.apply("s", "筋力", 20)
    assert r["applied"] == 10 and r["value"] == 100 and any("100" in n["en"] for n in r["notes"])
    r = t.apply("s", "筋力", 30, "seal")
    assert r["applied"] == 30 and r["value"] == 130 and r["used"] == 10 and r["term"]["rule"] == "T-13"


def test_t8_seal_changes_are_outside_the_cap():
    t = tracker()
    t.apply("s", "魔力", 30)
    assert t.apply("s", "魔力", 10, "seal")["applied"] == 10
    assert t.used("s", "魔力") == 30 and t.value("s", "魔力") == 90
    assert t.apply("s", "魔力", 5, "outside")["applied"] == 5 and t.used("s", "魔力") == 30


def test_t8_ceiling_reading_seal_on_top_vs_total():
    t = tracker(筋力=90)
    t.apply("s", "筋力", 30, "seal")  # 120
    r = t.apply("s", "筋力", 20)  # without the seal: 90 -> room 10
    assert r["applied"] == 10 and r["value"] == 130 and "stat_ceiling" in readings_in(r["notes"])
    t2 = CapTracker({"s": {s: 90 for s in STATS}}, {"stat_ceiling": "total"})
    t2.apply("s", "筋力", 30, "seal")
    assert t2.apply("s", "筋力", 20)["applied"] == 0


def test_t8_tracker_round_trips_and_rejects_unknowns():
    t = tracker()
    t.apply("s", "幸運", 15)
    t2 = CapTracker.from_dict(t.to_dict())
    assert t2.used("s", "幸運") == 15 and t2.value("s", "幸運") == 65
    with pytest.raises(GmError):
        t.apply("x", "幸運", 1)
    with pytest.raises(GmError):
        t.apply("s", "幸運", 1, "magic")


# -- T-9: win rate -----------------------------------------------------------------------------

A_FORCE = dict(zip(STATS, (60, 90, 60, 85, 60, 90)))  # main + sub (see test_grail_rules)
B_FORCE = dict(zip(STATS, (70, 50, 80, 40, 70, 80)))


def worked_results():
    # 1st: a 魔力 85 vs b 幸運 70. b's 幸運 halves a's 魔力: 85 -> 43. 43 < 70: b wins, b earns the 幸運 bonus.
    r1 = compare(1, SideChoice("魔力", 85), SideChoice("幸運", 70))
    # 2nd: a 宝具 90 vs b 魔力 40: no affinity either way. a wins with 宝具: b's 幸運 bonus is void.
    r2 = compare(2, SideChoice("宝具", 90), SideChoice("魔力", 40))
    # 3rd: a 筋力 60 + 15 <怪力> = 75 vs b 耐久 50, halved by 筋力 -> 25. a wins.
    r3 = compare(3, SideChoice("筋力", 60, ({"label": "怪力", "value": 15},)), SideChoice("耐久", 50))
    return [r1, r2, r3]


def test_t9_worked_example_results():
    r1, r2, r3 = worked_results()
    assert (r1.a["value"], r1.b["value"], r1.winner, r1.luck_bonus) == (43, 70, "b", "b")
    assert (r2.a["value"], r2.b["value"], r2.winner, r2.luck_void) == (90, 40, "a", "a")
    assert (r3.a["value"], r3.b["value"], r3.winner) == (75, 25, "a")


def test_t9_worked_example_side_a_term_by_term():
    # (優位 2 − 劣位 1) × 20 = +20
    # 戦力の差: (43−70) + (90−40) + (75−25) = −27 + 50 + 50 = 73; 73 ÷ 2 = 36.5 -> rounded up 37
    # 真名看破 1 × 15 = 15; 非戦闘 1 × 10 = 10; 幸運 bonus 0 (a never won with 幸運)
    # battle skill +10; seal effect 3 × 1 = +50.  Total 20 + 37 + 15 + 10 + 0 + 10 + 50 = 142
    w = win_rate("a", worked_results(), 1, 1, None, [{"label": "直感", "value": 10}], seals=1)
    assert values(w["terms"]) == [20, 37, 15, 10, 0, 10, 50] and w["total"] == 142
    assert [t["rule"] for t in w["terms"]] == ["T-9", "T-9", "T-9", "T-9", "T-7", "T-9", "T-13"]
    assert "force_diff" in readings_in(w["notes"])
    assert w["terms"][1]["label"]["en"] == "Force difference (−27) + (+50) + (+50) = +73 ÷ 2 → +37"


def test_t9_worked_example_side_b_luck_bonus_voided():
    # (1 − 2) × 20 = −20; 戦力の差 −73 ÷ 2 = −36.5 -> rounded up −36; 幸運 +10 voided by a's 宝具 win -> 0
    # total −20 − 36 + 0 + 0 + 0 = −56
    w = win_rate("b", worked_results())
    assert values(w["terms"]) == [-20, -36, 0, 0, 0] and w["total"] == -56
    assert "voided" in w["terms"][4]["label"]["en"]
    assert {"force_diff", "force_diff_behind", "luck_void_scope"} <= readings_in(w["notes"])


def test_t9_luck_void_scope_later_keeps_earlier_bonus():
    # the bonus was earned in the 1st result, the void came in the 2nd: "later" keeps it -> −56 + 10
    assert win_rate("b", worked_results(), readings={"luck_void_scope": "later"})["total"] == -46
    lb = luck_bonus_of("b", worked_results(), {"luck_void_scope": "later"})
    assert lb["value"] == 10


def test_t9_luck_bonus_counts_when_not_voided():
    rs = [compare(1, SideChoice("幸運", 40), SideChoice("魔力", 55))]  # 40 > 28
    assert luck_bonus_of("a", rs)["value"] == 10
    assert win_rate("a", rs, luck_bonus=0)["terms"][4]["value"] == 0  # GM override


@pytest.mark.parametrize("how, a, b", [
    ("sum_halved_ceil", 37, -36),
    ("sum_halved_floor", 36, -37),
    ("chosen_force", 38, -37),  # (85−70) + (90−40) + (60−50) = 75 -> 37.5 -> 38 / −37
    ("total_force", 28, -27),  # 445 − 390 = 55 -> 27.5 -> 28 / −27
])
def test_t9_force_diff_readings(how, a, b):
    forces = {"a": force(A_FORCE), "b": B_FORCE}
    readings = {"force_diff": how}
    assert force_difference("a", worked_results(), readings, forces)["value"] == a
    assert force_difference("b", worked_results(), readings, forces)["value"] == b


def test_t9_force_diff_behind_zero_and_total_force_needs_forces():
    assert force_difference("b", worked_results(), {"force_diff_behind": "zero"})["value"] == 0
    with pytest.raises(GmError) as e:
        force_difference("a", worked_results(), {"force_diff": "total_force"})
    assert e.value.ja == "この戦力の差の解釈（公開された6つの戦力の合計）には両陣営の戦力が必要です"  # not 「解釈total_force…」


def test_t9_granted_advantage_gives_opponent_disadvantage():
    rs = worked_results()
    w = win_rate("b", rs, granted={"b": 1})
    assert w["terms"][0]["value"] == 0  # (1 + 1 − 2) × 20
    assert win_rate("a", rs, granted={"b": 1})["terms"][0]["value"] == 0  # (2 − 1 − 1) × 20


def test_t9_ties_count_neither_and_accept_dicts():
    rs = [compare(1, SideChoice("筋力", 50), SideChoice("筋力", 50)).to_dict()]
    w = win_rate("a", rs)
    assert w["total"] == 0 and "result_tie" in readings_in(w["notes"])


def test_t9_counts_must_be_non_negative():
    with pytest.raises(GmError):
        win_rate("a", [], seen_count=-1)
    with pytest.raises(GmError):
        win_rate("c", [])


class _Rolls:
    """A dice source that gives one value (the real ones never give a face outside 1..sides, FixedDice refuses to)."""

    next_index = 0

    def __init__(self, value):
        self.value = value

    def randint(self, sides):
        return self.value


@pytest.mark.parametrize(("call", "ja", "en"), [
    (lambda: win_rate("a", [], extra_terms=[True]), "修正値を読めません（true）", "Cannot read the modifier (true)"),
    (lambda: win_rate("a", [], extra_terms=[{"label": "地の利", "value": None}]), "修正値は整数です（null）",
     "A modifier value must be a whole number (null)"),
    (lambda: win_rate("a", [], extra_terms=[{"label": "地の利", "value": "5"}]), "修正値は整数です（5）",
     "A modifier value must be a whole number (5)"),
    (lambda: compare(1, SideChoice("筋力", "50"), SideChoice("筋力", 50)), "戦力は整数です（50）",
     "Force must be a whole number (50)"),
    (lambda: win_rate("a", [], seen_count=True), "真名看破数は0以上の整数です（true）",
     "True names seen must be a whole number ≥ 0 (true)"),
    (lambda: battle_roll(0, 0, _Rolls(None)), "1d100の出目は1〜100の整数です（null）",
     "A 1d100 roll is a whole number 1–100 (null)")])
def test_t9_a_value_that_is_no_number_is_said_as_json_writes_it(call, ja, en):
    """The checks of grail's numbers quoted a value with Python's repr (`True`, `None`, `'5'`): as JSON writes it now,
    as every refusal quotes a request's value (errors.shown). No request reaches them (each action checks its
    numbers, and a crafted import whose win-rate modifier is no whole number no longer folds:
    tests/web/test_stored_shapes.py); a game's own code calling them wrongly reads them."""
    with pytest.raises(GmError) as e:
        call()
    assert (e.value.ja, e.value.en) == (ja, en)


def test_t9_non_combat_count():
    assert non_combat_count(["c0", "c1", "c2", "c3"], {"main": "c0", "sub": None, "others": ["c2"]}) == 2


# -- T-10: battle roll --------------------------------------------------------------------------

def test_t10_higher_total_wins():
    r = battle_roll(30, 20, FixedDice([40, 60]))
    assert r["winner"] == "b" and r["rolls"][0]["a"]["total"] == 70 and r["rolls"][0]["b"]["total"] == 80
    assert values(r["rolls"][0]["a"]["terms"]) == [40, 30]


def test_t10_tie_is_rerolled_and_both_rolls_shown():
    dice = FixedDice([40, 50, 70, 10])  # 40+30 = 50+20 -> tie; then 70+30 = 100 > 10+20 = 30
    r = battle_roll(30, 20, dice)
    assert r["winner"] == "a" and len(r["rolls"]) == 2 and dice.next_index == 4
    assert r["rolls"][0]["tie"] and not r["rolls"][1]["tie"]
    assert [(x["a"]["die"], x["b"]["die"]) for x in r["rolls"]] == [(40, 50), (70, 10)]
    assert [(x["a"]["index"], x["b"]["index"]) for x in r["rolls"]] == [(0, 1), (2, 3)]
    assert "battle_tie" in readings_in(r["notes"])


def test_t10_tie_reading_gm_decides():
    r = battle_roll(30, 20, FixedDice([40, 50]), {"battle_tie": "gm"})
    assert r["winner"] is None and r["needs_gm"] and len(r["rolls"]) == 1


# -- T-11: cleanup ------------------------------------------------------------------------------

def test_t11_loser_gains_black_star_and_is_eliminated():
    r = black_stars_after(["rider"])
    assert r["black_stars"] == {"rider": 1} and r["eliminated"] == ["rider"] and r["notes"] == []


def test_t11_alliance_every_ally_gains_a_black_star():
    r = black_stars_after(["saber", "lancer"], escaped=["saber"])
    assert r["black_stars"] == {"saber": 1, "lancer": 1}
    assert r["escaped"] == ["saber"] and r["eliminated"] == ["lancer"]
    assert {n["rule"] for n in r["notes"]} == {"T-11", "T-12"}
    with pytest.raises(GmError):
        black_stars_after([])


# -- T-12: escape -------------------------------------------------------------------------------

def test_t12_escape_needs_strictly_higher():
    assert not escape_check(0, 0, FixedDice([50, 50]))["escaped"]
    assert escape_check(0, 0, FixedDice([51, 50]))["escaped"]
    r = escape_check(10, [{"label": "追跡スキル", "value": 20}], FixedDice([70, 60]))
    assert r["escaper"]["total"] == 80 and r["pursuer"]["total"] == 80 and not r["escaped"]
    assert values(r["pursuer"]["terms"]) == [60, 20]


def test_t12_automatic_escape_rolls_nothing():
    dice = FixedDice([])
    assert escape_check(dice=dice, automatic=True)["escaped"] and dice.next_index == 0


# -- T-13: seals --------------------------------------------------------------------------------

def test_t13_seal_table():
    rows = seal_effects()
    assert [r["effect"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert SEAL_EFFECTS[2]["effect"] == {"one_stat": 30} and SEAL_EFFECTS[2]["may_exceed_100"]
    assert rows[2]["effect_values"] == {"win_rate": 50} and rows[2]["users"] == ["main", "sub"]
    assert rows[0]["timing_labels"] == [{"ja": "セットアップ", "en": "Setup"}]
    assert all(r["label"]["ja"] and r["label"]["en"] for r in rows)
    # `timing` holds the phases of combat.phase (docs §6b), never the step name final_result (the battle phase)
    assert rows[3]["timing"] == rows[4]["timing"] == ["setup", "select", "result", "battle", "cleanup"]
    assert len(rows[4]["timing_labels"]) == 5


def test_t13_seal_6_costs_black_stars_alliance_uses_max():
    assert seal_cost(6, 2)["cost"] == 2
    r = seal_cost(6, [1, 3])
    assert r["cost"] == 3 and "most among the allies" in r["terms"][0]["label"]["en"]
    assert seal_cost(6, 0)["cost"] == 0


def test_t13_seal_7_costs_black_stars_plus_1_and_one_more_for_automatic():
    r = seal_cost(7, 2)
    assert r["cost"] == 3 and values(r["terms"]) == [2, 1] and "seal7_black_stars" in readings_in(r["notes"])
    assert seal_cost(7, 2, automatic=True)["cost"] == 4
    assert seal_cost(7, [1, 2])["cost"] == 3
    assert seal_cost(7, [1, 2], readings={"seal7_alliance": "own"})["cost"] == 2
    assert seal_cost(7, 2, readings={"seal7_black_stars": "after_this_loss"})["cost"] == 4


@pytest.mark.parametrize("seal, stars, kw, ja, en", [
    (7, 0, {}, "令呪1画を使用（黒星0個 ＋ 1画）", "1 Command Seal spent (0 black stars + 1)"),
    (7, 1, {"automatic": True}, "令呪3画を使用（黒星1個 ＋ 1画 ＋ 自動成功に1画）",
     "3 Command Seals spent (1 black star + 1 + 1 for automatic success)"),
    (7, 0, {"readings": {"seal7_black_stars": "after_this_loss"}}, "令呪2画を使用（黒星0個 ＋ 今回の敗北の黒星1個 ＋ 1画）",
     "2 Command Seals spent (0 black stars + this loss's black star + 1)"),
    (7, [1, 2], {}, "令呪3画を使用（同盟内で最多の黒星2個 ＋ 1画）",
     "3 Command Seals spent (2 black stars (the most among the allies) + 1)"),
    (6, 2, {}, "令呪2画を使用（黒星2個と同じ数）", "2 Command Seals spent (as many as 2 black stars)"),
    (6, 0, {}, "令呪は使わない（黒星0個）", "no Command Seal spent (0 black stars)"),
])
def test_t13_an_escapes_seal_cost_says_how_many_and_why(seal, stars, kw, ja, en):
    """Play-through: the table read 「令呪 1 (黒星の数 0 さらに1画 +1)」 under a seal-7 escape; it says how many seals
    the escape spent and why, in words (T-13: 黒星 + 1, + 1 more for a sure escape)."""
    automatic = kw.pop("automatic", False)
    cost = seal_cost(seal, stars, automatic, **kw)
    assert seal_cost_words({"seal": seal, "cost": cost, "automatic": automatic}) == Label(ja, en)


def test_t13_other_seals_cost_one_and_bad_input():
    assert seal_cost(3)["cost"] == 1
    with pytest.raises(GmError):
        seal_cost(8)
    with pytest.raises(GmError):
        seal_cost(6, -1)
    with pytest.raises(GmError):
        seal_cost(6, 1, automatic=True)


def test_t13_only_main_faction_uses_seals_effect3_also_sub():
    check_seal_use(1, "main", "setup")
    check_seal_use(3, "sub", "battle")
    for effect, role in ((1, "sub"), (2, "other"), (3, "other"), (5, None)):
        with pytest.raises(GmError):
            check_seal_use(effect, role)
    with pytest.raises(GmError) as e:
        check_seal_use(2, "main", "battle")
    assert "リザルト" in e.value.ja
    with pytest.raises(GmError):
        check_seal_use(4, "main", has_reserve=False)
    check_seal_use(5, "main", "cleanup")


# -- T-14: pairings -----------------------------------------------------------------------------

def test_t14_highest_priority_picks_allies_are_one_side():
    order = [("saber", "lancer"), "rider", "caster"]
    p = pairings(order)
    assert p["picker"] == ("saber", "lancer") and p["opponents"] == ["rider", "caster"]
    p = pairings(order, fought=[("saber", "lancer"), "rider"])
    assert p["picker"] == "caster" and p["opponents"] == [("saber", "lancer"), "rider"]
    assert pairings(order, fought=[("saber", "lancer"), "rider"], readings={"pairing_opponents": "unfought"})["opponents"] == []
    assert pairings(order, fought=["caster"], out=["rider"])["opponents"] == ["caster"]
    assert pairings(order, fought=order)["picker"] is None


def test_t9_a_side_not_in_the_combat_is_said_in_words():
    """T-9: the win rate of a side the combat does not have said 「側は a か b です（'c'）」 (the sides' internal ids)."""
    with pytest.raises(GmError) as e:
        force_difference("c", [])
    assert (e.value.ja, e.value.en) == ("その側はこの戦闘にいません", "That side is not in this combat")
