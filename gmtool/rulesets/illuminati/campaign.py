"""Illuminati: New World Order TCG (RULES.md I): what the next session of a campaign starts with.

Each evening's game is won by a goal (I-1: groups controlled, a special goal, or everyone else out)
and ends there; the next game starts from nothing: Illuminati and first groups placed again face down
(I-2, a secret that must not carry), play order rolled again (I-3), hands dealt anew (plot 3, group 6),
no groups, tokens, resources or destroyed pile. So nothing of the game carries: the next session keeps
core's part (the seats, their names and factions, the readings) and starts every counter
afresh. An eliminated player (I-7) plays again.
"""

from __future__ import annotations

from gmtool.core.model import State
from gmtool.core.ruleset import Carry


def carry_over(state: State) -> Carry:
    """I: nothing of the last game carries (every counter starts afresh; core keeps seats and readings)."""
    return Carry()
