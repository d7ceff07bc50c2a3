"""grail_trpg's secrets for the leak crawl (tests/meta): true names and the skills on a sheet (name, note)
stay with their faction and the factions that saw through them (T-2, T-9), through setup and every later
step; an unused skill is never shown to anyone else."""

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
    table.act("set_characters", {"faction": b, "characters": [
        {"name": "弓兵", "class_name": "アーチャー", "true_name": name_b, "stats": STATS}]})
    table.act("start_combat", {"a": [a], "b": [b]})
    table.answer("c1-setup", {"main": f"{a}/剣士", "sub": f"{a}/相棒"}, a)
    table.answer("c1-setup", {"main": f"{b}/弓兵"}, b)
    return [Secret(name_a, frozenset({"gm", a}), frozenset({b})), Secret(name_sub, frozenset({"gm", a})),
            Secret(name_b, frozenset({"gm", b})), Secret(skill_a, frozenset({"gm", a}), frozenset({b})),
            Secret(note_a, frozenset({"gm", a}), frozenset({b})), Secret(skill_sub, frozenset({"gm", a}))]


def reveal(table) -> None:
    """T-9: the second faction sees through the first one's main."""
    a, b = table.seats[0], table.seats[1]
    table.act("set_seen", {"faction": b, "seen": [f"{a}/剣士"]})


PROBE = LeakProbe(plant, reveal)
