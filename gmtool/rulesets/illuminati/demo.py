"""illuminati's demo (`gmtool serve --demo`, Ruleset.demo): the opening of docs/rulesets/illuminati.md §7 (the secret
Illuminati, a clash over a starting group placed again, the play order rolled) and a first attack declared with its
support, so a newcomer sees the placements, the order and an attack's breakdown at once; the attacker rolls to go on."""

from __future__ import annotations


def _place(table, answers: dict) -> None:
    """Every asked player answers the open placement (a secret until the last one is in, I-2)."""
    prompt = table.state("gm")["ruleset"]["placement"]["prompt"]
    for seat, card in answers.items():
        table.answer(prompt, card, seat)


def demo(table) -> None:
    """Four players: the opening (I-2), the order (I-3), and the first player's attack to control a group from their hand (I-4)."""
    a, b, c, d = table.seats[:4]
    table.act("setup", {})  # four players: the basic goal is 11 groups (I-1)
    table.act("opening_start", {})
    _place(table, {a: "バヴァリアン・イルミナティ", b: "UFO", c: "ネットワーク", d: "ディスコルディアン・ソサエティ"})
    table.act("opening_next", {})
    _place(table, {a: "CIA", b: "CIA", c: "KGB", d: "IRS"})
    table.act("opening_next", {})  # CIA chosen twice: set aside, those two choose again
    _place(table, {a: "ハッカー", b: "郵便局"})
    table.act("opening_next", {})
    table.act("roll_order", {"faces": [6, 5, 3, 3, 4, 2, 1, 2, 2, 1, 5, 5]})  # the tie of the second and third rolled again
    table.act("start_turn", {"draw_plot": True}, who=a)
    table.act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10},
                         "target": {"name": "ボーイスカウト", "power": 0, "resistance": 3}}, who=a)  # from the hand
    table.act("support", {"side": "attack", "kind": "global", "name": "ハッカー", "value": 1}, who=a)
