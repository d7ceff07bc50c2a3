"""I-2 Simultaneous placement and I-3 play order: the opening of a game."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from gmtool.core.turns import roll_order


def card_key(name: str) -> str:
    """The comparison key of a card name typed on a phone (width, case and spaces do not matter), I-2."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", str(name))).strip().casefold()


def settle_groups(choices: dict[str, str]) -> dict:
    """I-2: one round of group placements revealed at once.

    A group chosen by more than one player is set aside for all of them and only they choose
    again; a group nobody else chose is kept. Returns {"kept": {seat: name}, "set_aside": [names],
    "again": [seats]}.
    """
    counts = Counter(card_key(v) for v in choices.values())
    kept = {s: v for s, v in choices.items() if counts[card_key(v)] == 1}
    again = [s for s in choices if s not in kept]
    set_aside: list[str] = []
    for s in again:
        if card_key(choices[s]) not in {card_key(x) for x in set_aside}:
            set_aside.append(choices[s])
    return {"kept": kept, "set_aside": set_aside, "again": again}


def unavailable(name: str, kept: dict[str, str], set_aside: list[str]) -> str | None:
    """I-2: why a group cannot be chosen now ("kept": on the table, "set_aside": set aside), else None."""
    key = card_key(name)
    if key in {card_key(v) for v in kept.values()}:
        return "kept"
    if key in {card_key(v) for v in set_aside}:
        return "set_aside"
    return None


def revealed_before_placing(g: dict, waiting: list[str], seat: str | None) -> bool:
    """I-2: the GM revealed a placement round before `seat` placed, and it is asked to place again with nothing of its
    own on the table: other Illuminati are recorded but not its own, or its last group round holds no choice of it.
    `waiting`: the seats the open placement still waits for (empty when none is open)."""
    if seat is None or seat not in waiting:
        return False
    if g["stage"] == "illuminati":
        return not g["illuminati"].get(seat) and any(g["illuminati"].values())
    last = g["rounds"][-1] if g["stage"] == "groups" and g["rounds"] else None
    return last is not None and seat in last["again"] and seat not in last["choices"]


def play_order(players: list[str], dice, reroll_ties: bool = True) -> dict:
    """I-3: everyone rolls 2d6, higher totals first; ties re-roll among the tied (the reading), or keep
    the table's order when the reading says so. Returns {"order", "rolls": {seat: [totals]}, "faces": {seat: [[the
    two faces of each roll]]}} (the rolls panels show the faces, core.turns.order_rolls)."""
    if reroll_ties:
        return roll_order(players, dice, sides=6, count=2)
    faces = {p: [dice.randint(6), dice.randint(6)] for p in players}
    totals = {p: sum(faces[p]) for p in players}
    order = sorted(players, key=lambda p: -totals[p])  # stable: ties keep the table's order
    return {"order": order, "rolls": {p: [totals[p]] for p in players}, "faces": {p: [faces[p]] for p in players}}
