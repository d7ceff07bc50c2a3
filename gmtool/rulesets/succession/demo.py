"""succession's demo (`gmtool serve --demo`, Ruleset.demo): a game set up and its first round played, so a newcomer
sees the row, the captured cards, the scores and a round's end at once."""

from __future__ import annotations

# one round where each player plays and takes once (G-1), then the first moves of the second round
MOVES = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "+2", "7", "8"]


def demo(table) -> None:
    """Set up with the row 5, 6 (the first seat starts), then play MOVES, each by the player whose turn it is."""
    table.act("setup", {"first": table.seats[0], "row": ["5", "6"]})
    for move in MOVES:
        seat = table.state("gm")["ruleset"]["current"]
        if move == "take":
            table.act("take", {}, who=seat)
        else:
            table.act("play", {"card": move}, who=seat)
