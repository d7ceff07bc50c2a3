"""Sugoroku Holy Grail War (RULES.md S): what the next session of a league starts with.

Carried: every player's 戦果 (VP, the standings) and カルマ (with its 討伐令, S-12). Everything else
belongs to one game and starts afresh: the board and positions, mana, command seals, uses, the
servants and their true names.
"""

from __future__ import annotations

from gmtool.core.model import State
from gmtool.core.ruleset import Carry

CARRIED_COUNTERS = ("vp", "karma")


def carry_over(state: State) -> Carry:
    """S: VP and karma of every player, for the next session of the league."""
    return Carry(counters={seat: {k: values[k] for k in CARRIED_COUNTERS if k in values}
                           for seat, values in state.counters.items()})
