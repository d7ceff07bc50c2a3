"""Holy Grail War TRPG (RULES.md T): what the next session of a campaign starts with.

Carried: every faction's characters (T-4, with their stats and true names), the true names each
faction has seen through (T-9), and the counters 令呪 (T-13) and 黒星 (T-11). Not carried: MP,
combats, the priority order and the uses of skills and 宝具 (they belong to a combat or a scene).
"""

from __future__ import annotations

import copy

from gmtool.core.model import State
from gmtool.core.ruleset import Carry

from .events import grail_of

CARRIED_COUNTERS = ("seals", "black_stars")


def carry_over(state: State) -> Carry:
    """T: characters, seen-through true names, 令呪 and 黒星 of every faction, for the next session."""
    g = grail_of(state)
    events = [("grail.characters_set", {"faction": f, "characters": copy.deepcopy(chars), "append": False})
              for f, chars in g["characters"].items() if f in state.seats and chars]
    events += [("grail.seen_set", {"faction": f, "seen": list(seen)})
               for f, seen in g["seen"].items() if f in state.seats and seen]
    counters = {seat: {k: values[k] for k in CARRIED_COUNTERS if k in values}
                for seat, values in state.counters.items()}
    return Carry(counters=counters, events=tuple(events))
