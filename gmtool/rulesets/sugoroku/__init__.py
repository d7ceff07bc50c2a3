"""sugoroku: the Sugoroku Holy Grail War (RULES.md S, docs/rulesets/sugoroku.md), one declaration.

Modules by concern: rules.py (the pure rules S-1..S-15), flow.py (setup, moves, phases, rounds),
battle.py (battles and their secret cards S-6/S-7), events.py (folds, log lines, visibilities), story.py (how a battle reads in a write-up),
actions.py (rounds, the true-name vote and its resolvers, the action table), view.py, strings.py.
"""

from __future__ import annotations

from gmtool.core.model import Label
from gmtool.core.ruleset import Choice, Demo, PromptKind, Reading, Ruleset

from . import battle as B, flow, rules
from .actions import ACTIONS, COUNTERS, RESOLVERS
from .campaign import carry_over
from .view import result_lines, seat_flags, view
from .events import EVENTS, upcast_reading
from .probe import PROBE, demo
from .story import term_text, with_export_lines
from .strings import STRINGS


def _reading(key: str, spec: dict) -> Reading:
    return Reading(key, spec["rule"], Label(*spec["label"]),
                   tuple(Choice(value, Label(ja, en)) for value, ja, en in spec["words"]), spec["default"])


READINGS = tuple(_reading(key, spec) for key, spec in {**rules.READINGS, **flow.FLOW_READINGS}.items())

RULESET = Ruleset(
    name="sugoroku",
    label=Label("双六聖杯戦争", "Sugoroku Holy Grail War"),
    prompt_example=(Label("同盟の申し出", "Alliance offer"), Label("受ける\n断る", "Accept\nRefuse")),  # the GM console's secret-prompt example
    seats=(2, 7),
    counters=COUNTERS,
    events=with_export_lines(EVENTS),
    # the battle panel applies the result (end_battle); a GM power modifier stays on the prompt card (S-7)
    prompt_kinds=(PromptKind(B.KIND, B.validate_cards, B.cards_text, "rulesets/sugoroku/_cards_form.html", term_text,
                             panel_ops=frozenset({"confirm"})),),
    resolvers=RESOLVERS,
    readings=READINGS,
    actions=ACTIONS,
    view=view,
    seat_flags=seat_flags,
    standings_lines=result_lines,
    strings=STRINGS,
    templates={"gm": "rulesets/sugoroku/gm.html", "stage": "rulesets/sugoroku/stage.html",
               "table": "rulesets/sugoroku/table.html",
               "phone": "rulesets/sugoroku/phone.html"},
    stylesheet="rulesets/sugoroku.css",
    upcasters={"sugoroku.reading_set": upcast_reading},
    docs="docs/rulesets/sugoroku.md",
    leak_probe=PROBE,
    carry_over=carry_over,
    demo=Demo("デモ：双六聖杯戦争", ("A", "B", "C", "D"), play=demo),
)
