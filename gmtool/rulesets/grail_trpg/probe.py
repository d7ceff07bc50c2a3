"""grail_trpg's scripted sessions: its secrets for the leak crawl (tests/meta) and its demo. The crawl: true
names and the skills on a sheet (name, note) stay with their faction and the factions that saw through them
(T-2, T-9), through setup and every later step; an unused skill is never shown to anyone else."""

from __future__ import annotations

from gmtool.core.ruleset import LeakProbe, Secret

STATS = {"筋力": 40, "耐久": 60, "敏捷": 40, "魔力": 55, "幸運": 40, "宝具": 60}


def plant(table, marker) -> list[Secret]:
    """Two factions with marked true names fight a combat through its setup."""
    a, b = table.seats[0], table.seats[1]
    name_a, name_b, name_sub = marker("true name"), marker("true name"), marker("true name")
    skill_a, note_a, skill_sub = marker("skill"), marker("skill note"), marker("skill")
    table.act("set_characters", {"faction": a, "characters": [
        {"name": "剣士", "class_name": "セイバー", "true_name": name_a, "stats": STATS,
         "skills": [{"name": skill_a, "timing": "select", "stat": "筋力", "value": 10, "note": note_a}]},
        {"name": "相棒", "true_name": name_sub, "stats": STATS,
         "skills": [{"name": skill_sub, "kind": "np", "timing": "setup", "stat": "宝具", "value": 20}]}]})
    skill_form, note_form = marker("skill"), marker("skill note")  # a skill entered field by field (set_skill)
    table.act("set_skill", {"character": f"{a}/剣士", "name": skill_form, "timing": "cleanup", "stat": "敏捷",
                            "value": "10", "note": note_form})
    table.act("set_characters", {"faction": b, "characters": [
        {"name": "弓兵", "class_name": "アーチャー", "true_name": name_b, "stats": STATS}]})
    table.act("start_combat", {"a": [a], "b": [b]})
    table.answer("c1-setup", {"main": f"{a}/剣士", "sub": f"{a}/相棒"}, a)
    table.answer("c1-setup", {"main": f"{b}/弓兵"}, b)
    return [Secret(name_a, frozenset({"gm", a}), frozenset({b})), Secret(name_sub, frozenset({"gm", a})),
            Secret(name_b, frozenset({"gm", b})), Secret(skill_a, frozenset({"gm", a}), frozenset({b})),
            Secret(note_a, frozenset({"gm", a}), frozenset({b})), Secret(skill_sub, frozenset({"gm", a})),
            Secret(skill_form, frozenset({"gm", a}), frozenset({b})), Secret(note_form, frozenset({"gm", a}), frozenset({b}))]


def reveal(table) -> None:
    """T-9: the second faction sees through the first one's main."""
    a, b = table.seats[0], table.seats[1]
    table.act("set_seen", {"faction": b, "seen": [f"{a}/剣士"]})


PROBE = LeakProbe(plant, reveal)


def demo(table) -> None:
    """`gmtool serve --demo`: two factions with their characters in a combat, its setup answered and revealed
    (the table shows the forces; the GM confirms the result to go on to the 1st select)."""
    a, b = table.seats[0], table.seats[1]
    table.act("set_characters", {"faction": a, "text": (
        "セイバー/セイバー/アルトリア 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60\n"
        "- スキル 魔力放出 セットアップ 筋力+20\n- スキル 直感 セレクト 戦力+10\n- 宝具 約束された勝利の剣 セレクト 宝具+20\n衛宮士郎 筋力20 耐久20 敏捷20 魔力10 幸運30 宝具10")})
    table.act("set_characters", {"faction": b, "text": (
        "ランサー/ランサー/ディルムッド 筋力50 耐久40 敏捷70 魔力30 幸運20 宝具50\n"
        "- スキル 心眼 セレクト 相手の筋力-20\n- スキル 愛の黒子 セットアップ 相手の魔力-10\nケイネス 筋力10 耐久20 敏捷20 魔力60 幸運20 宝具10")})
    table.act("start_combat", {"a": [a], "b": [b]})
    table.answer("c1-setup", {"main": f"{a}/セイバー", "sub": f"{a}/衛宮士郎"}, a)
    table.answer("c1-setup", {"main": f"{b}/ランサー"}, b)


def to_final_result(table) -> None:
    """From the demo: its setup confirmed, three selects answered and confirmed, then the final result (win rates);
    the battle roll is next."""
    a, b = table.seats[0], table.seats[1]
    table.post("/prompts/c1-setup/confirm")
    for n, (stat_a, stat_b) in enumerate([("筋力", "耐久"), ("魔力", "敏捷"), ("幸運", "宝具")], 1):
        table.act("next_step")
        table.answer(f"c1-s{n}", {"stat": stat_a}, a)
        table.answer(f"c1-s{n}", {"stat": stat_b}, b)
        table.post(f"/prompts/c1-s{n}/confirm")
    table.act("next_step")  # the final result (win rates)


def demo_to_cleanup(table) -> None:
    """A later scene of the demo (the language crawl's, not `--demo`'s): its setup confirmed, three selects answered
    and confirmed, the final result and the battle roll (real dice, so no tie) to the cleanup, where each phone's
    skill panel says what may be declared then (T-1, T-5, T-9, T-10, T-11)."""
    to_final_result(table)
    table.act("next_step", {"faces": [90, 10]})  # the battle roll, as entered from the table's dice
