"""Grail Succession (聖杯サクセション, RULES.md G-1 to G-3): the two-player row game, tracked turn by turn, scored live.

The package declares one `RULESET` (registered through the `gmtool.rulesets` entry point; nothing
registers itself on import). rules.py decides the turns (G-1), cards.py the cards, scoring.py the
score and the result (G-2, G-3); events.py folds and describes; actions.py checks and drafts;
view.py shows. docs/rulesets/succession.md describes the API.
"""

from __future__ import annotations

from gmtool.core.model import CounterDef, Label
from gmtool.core.ruleset import Demo, Ruleset

from .actions import ACTIONS
from .campaign import carry_over
from .demo import demo
from .events import EVENTS
from .standings import standings, standings_data
from .state import READINGS
from .strings import STRINGS
from .view import view

COUNTERS = (
    CounterDef("hand", Label("手札", "Hand"), start=5, min=0, max=5),
)

RULESET = Ruleset(
    name="succession",
    label=Label("聖杯サクセション", "Grail Succession"),
    prompt_example=(Label("先攻・後攻", "Who goes first"), Label("先攻\n後攻", "First\nSecond")),  # the GM console's secret-prompt example
    seats=(2, 2),
    counters=COUNTERS,
    events=EVENTS,
    readings=READINGS,
    actions=ACTIONS,
    view=view,
    strings=STRINGS,
    templates={"gm": "rulesets/succession/gm.html", "stage": "rulesets/succession/stage.html",
               "table": "rulesets/succession/table.html", "history": "rulesets/succession/history.html",
               "phone": "rulesets/succession/phone.html"},
    stylesheet="rulesets/succession.css",
    docs="docs/rulesets/succession.md",
    carry_over=carry_over,
    standings=standings,
    standings_data=standings_data,
    demo=Demo("デモ：聖杯サクセション", ("アルトリア", "ギルガメッシュ"), play=demo),
    phone_counters=lambda rv: bool(rv.get("me")) and rv.get("mode") == "turns",  # the panel's hand line (view.py: `me`)
)

__all__ = ["RULESET"]
