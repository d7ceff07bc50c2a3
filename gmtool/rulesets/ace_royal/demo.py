"""ace_royal's demo (`gmtool serve --demo`, Ruleset.demo): the game of docs/rulesets/ace_royal.md §7 up to its first
combat, both sides' attacks picked, so a newcomer sees the turn steps, the revealed servant, a proxy and the combat's
numbers at once; the GM resolves the combat to go on."""

from __future__ import annotations


def demo(table) -> None:
    """Three masters: the first reveals its servant and meets nobody; the second attacks it with a legion proxy."""
    rin, waver, ryunosuke = table.seats[:3]
    table.act("setup", {"version": "standard"})
    table.act("roll_first", {"faces": [6, 3, 2]})  # the first seat is the first active master
    table.act("set_servant", {"hero": {"name": "アルトリア", "stats": "6/5/3/3"},
                              "class": {"name": "セイバー", "stats": "3/3/1/5"}}, who=rin)
    table.act("set_servant", {"hero": {"name": "イスカンダル", "stats": "5/3/5/3", "skills": ["カリスマ"]},
                              "class": {"name": "ライダー", "stats": "2/2/2/2"}}, who=waver)
    table.act("set_servant", {"hero": {"name": "佐々木小次郎", "stats": "5/2/1/1", "skills": ["山門の守護"]},
                              "class": {"name": "アサシン", "stats": "1/1/0/0"}}, who=ryunosuke)
    table.act("start_game", {})
    for _ in range(2):
        table.act("step", {}, who=rin)  # rise → draw → ritual
    table.act("reveal", {"what": "both"}, who=rin)
    table.act("step", {}, who=rin)  # → encounter
    table.act("encounter_roll", {"faces": [4]}, who=rin)  # no encounter
    table.act("step", {}, who=rin)  # end step: the turn passes
    for _ in range(2):
        table.act("step", {}, who=waver)
    table.act("declare_attack", {"target": rin}, who=waver)
    table.act("combat_proxy", {"name": "王の軍勢", "stats": "7/8/7/4", "legion": True, "source": "hero"}, who=waver)
    table.act("combat_choose", {"kind": "magical"}, who=waver)
    table.act("combat_choose", {"kind": "physical"}, who=rin)
