"""Grail Succession (RULES.md G): what the next session of a campaign starts with.

A game is won at once by three grails or by the totals after round 4 (G-2/G-3); each game starts
with a fresh deal (seed 準備: 3 cards out, 5 to each hand, 2 to the row) and nothing captured, and the
only counter, the hand (G-1), is refilled to 5. So nothing of the games carries: the next session keeps
core's part (the two seats, their names, the readings such as how the first player is chosen) and
starts afresh.
"""

from __future__ import annotations

from gmtool.core.model import State
from gmtool.core.ruleset import Carry


def carry_over(state: State) -> Carry:
    """G: nothing of the last games carries (the hand starts at 5 again; core keeps seats and readings)."""
    return Carry()
