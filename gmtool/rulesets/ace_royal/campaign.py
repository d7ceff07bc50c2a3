"""Fate/Ace Royal (RULES.md A): what the next session of a campaign starts with.

Each evening is a whole Holy Grail War of its own (seed 000: the last player with a servant standing
wins, and the war is over). Every coin and card count belongs to that war: 魔力 coins are life and
start at 5 (8 in the quick version, A-2), 令呪 coins at 3 (A-2), the hand at 4 (A-11), mystic codes on
the field, 暗殺 and 枯渇 coins at 0 (A-10); servants are drafted anew and the first active master is
rolled again (A-5). So nothing of the game carries: the next session keeps core's part (the seats,
their names and factions, the readings) and starts every counter afresh; setup chooses the version again.
An eliminated player plays again.
"""

from __future__ import annotations

from gmtool.core.model import State
from gmtool.core.ruleset import Carry


def carry_over(state: State) -> Carry:
    """A: nothing of the last war carries (every counter starts afresh; core keeps seats and readings)."""
    return Carry()
