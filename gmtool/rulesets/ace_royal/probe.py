"""ace_royal's secrets for the leak crawl (tests/meta): a servant's hero card and class card are their
owner's (and the GM's) until revealed (A-1; the seed's サーヴァントの開示)."""

from __future__ import annotations

from gmtool.core.ruleset import LeakProbe, Secret


def _servant(hero: str, cls: str) -> dict:
    return {"hero": {"name": hero, "stats": [6, 5, 3, 3]}, "class": {"name": cls, "stats": [3, 3, 1, 5]}}


def plant(table, marker) -> list[Secret]:
    """Every player's hero and class carry a marker; the first seat is the first active master."""
    seats = list(table.seats)
    table.act("setup", {"version": "standard"})
    table.act("roll_first", {"faces": list(range(6, 6 - len(seats), -1))})  # distinct faces: the first seat starts
    secrets = []
    for seat in seats:
        hero, cls = marker("hero card"), marker("class card")
        table.act("set_servant", _servant(hero, cls), who=seat)
        everyone = frozenset({"table", *seats})
        revealed = everyone if seat == seats[0] else frozenset()
        secrets += [Secret(hero, frozenset({"gm", seat}), revealed), Secret(cls, frozenset({"gm", seat}))]
    return secrets


def reveal(table) -> None:
    """The first seat reveals its hero card in its ritual step (the class stays hidden)."""
    table.act("start_game", {})
    table.act("step", {})
    table.act("step", {})
    table.act("reveal", {"what": "hero"})


PROBE = LeakProbe(plant, reveal)
