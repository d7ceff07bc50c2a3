"""sugoroku's secrets for the leak crawl (tests/meta): true names are the GM's committed answers,
public only once revealed (S-13)."""

from __future__ import annotations

from gmtool.core.ruleset import LeakProbe, Secret


def plant(table, marker) -> list[Secret]:
    """Two servants with marked true names, set up and one move made."""
    a, b = table.seats[0], table.seats[1]
    name_a, name_b = marker("true name"), marker("true name")
    table.act("setup", {"board_length": 8, "players": {
        a: {"servant": "セイバー", "true_name": name_a, "mana": 4},
        b: {"servant": "アーチャー", "true_name": name_b, "mana": 3}}})
    return [Secret(name_a, frozenset({"gm"}), frozenset({"table", *table.seats})), Secret(name_b, frozenset({"gm"}))]


def reveal(table) -> None:
    """S-13: the GM reveals the first servant's true name."""
    table.act("reveal_true_name", {"seat": table.seats[0], "reason": "宝具の真名解放"})


PROBE = LeakProbe(plant, reveal)
