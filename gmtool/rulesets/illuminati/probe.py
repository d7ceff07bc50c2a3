"""The leak probe: the game's only secrets are the face-down placements (I-2), kept in core prompts until revealed."""

from __future__ import annotations

from gmtool.core.ruleset import LeakProbe, Secret


def plant(table, marker) -> list[Secret]:
    """Everyone reveals an Illuminati; then the first player places a group face down named by a marker."""
    seats = list(table.seats)
    table.act("setup", {"players": seats[:6]})
    table.act("opening_start", {})
    prompt = table.state("gm")["ruleset"]["placement"]["prompt"]
    for i, seat in enumerate(seats[:6]):
        table.answer(prompt, f"Illuminati {i}", seat)
    table.act("opening_next", {})
    prompt = table.state("gm")["ruleset"]["placement"]["prompt"]
    secret = marker("face-down group")
    table.answer(prompt, secret, seats[0])
    return [Secret(secret, frozenset({"gm", seats[0]}), frozenset({"table", *seats}))]


def reveal(table) -> None:
    """The other players place their groups: all are revealed at once."""
    seats = list(table.seats)
    prompt = table.state("gm")["ruleset"]["placement"]["prompt"]
    for i, seat in enumerate(seats[1:6]):
        table.answer(prompt, f"Group {i}", seat)


PROBE = LeakProbe(plant, reveal)
