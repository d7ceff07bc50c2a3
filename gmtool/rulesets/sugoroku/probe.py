"""sugoroku's scripted sessions: its demo, and its secrets for the leak crawl (tests/meta): true names are the GM's committed answers,
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


def demo(table) -> None:
    """`gmtool serve --demo`: four servants set up on a board of 20, the first moves made with real dice and a
    battle started on square 3 (the phones of its two fighters show the card form)."""
    s1, s2, s3, s4 = table.seats[:4]
    table.act("setup", {"board_length": 20, "order": [s1, s2, s3, s4], "players": {
        s1: {"master": "衛宮士郎", "servant": "セイバー", "true_name": "アルトリア", "mana": 4},
        s2: {"master": "遠坂凛", "servant": "アーチャー", "true_name": "エミヤ", "mana": 5},
        s3: {"servant": "ランサー", "true_name": "クー・フーリン", "mana": 3},
        s4: {"servant": "ライダー", "true_name": "メドゥーサ", "mana": 3}}})
    for seat, face in ((s1, 3), (s2, 3), (s3, 2), (s4, 5)):
        table.act("roll_move", {"faces": [face]}, who=seat)
    table.act("end_phase", {})
    table.act("start_battle", {})
