"""grail_trpg: the Holy Grail War TRPG combat (RULES.md T, docs/rulesets/grail_trpg.md), one declaration.

Modules by concern: rules.py (stats, characters T-4, selects and affinity T-5..T-7, readings),
winrate.py (caps and limits T-3/T-8, win rate T-9, battle T-10, cleanup and escape T-11/T-12,
seals T-13, pairing T-14), flow.py (the secret setup and select prompts, their resolvers),
events.py (folds, log lines, visibilities), story.py (how a combat reads in a write-up), actions.py, view in flow.py, strings.py.
"""

from __future__ import annotations

from gmtool.core.model import Label
from gmtool.core.resolvers import Resolver
from gmtool.core.ruleset import Demo, PromptKind, Ruleset

from .actions import ACTIONS, COUNTERS
from .campaign import carry_over
from .events import EVENTS, gm_combatant, old_scene_title, upcast_reading
from .flow import resolve_select, resolve_setup, result_lines, seat_flags, select_text, setup_text, \
    validate_select_answer, validate_setup_answer, view
from .probe import PROBE, demo, demo_to_cleanup
from .rules import declared_readings
from .story import with_export_lines
from .strings import STRINGS

RULESET = Ruleset(
    name="grail_trpg",
    label=Label("聖杯戦争TRPG（戦闘）", "Holy Grail War TRPG (combat)"),
    prompt_example=(Label("1stセレクト", "1st select"), Label("筋力\n耐久\n敏捷", "Strength\nEndurance\nAgility")),  # the GM console's secret-prompt example
    seats=(1, 12),
    counters=COUNTERS,
    events=with_export_lines(EVENTS),
    prompt_kinds=(
        # the combat panel confirms a step (#grail-confirm) and takes its modifiers (#grail-step-modifier, T-8)
        PromptKind("grail_setup", validate_setup_answer, setup_text, "rulesets/grail/setup_form.html",
                   panel_ops=frozenset({"confirm", "modifiers"})),
        PromptKind("grail_select", validate_select_answer, select_text, "rulesets/grail/select_form.html",
                   panel_ops=frozenset({"confirm", "modifiers"})),
    ),
    resolvers={
        "grail_setup": Resolver("grail_setup", Label("戦力（T-4）", "Force (T-4)"), ("grail_setup",), resolve_setup),
        "grail_select": Resolver("grail_select", Label("リザルト（T-6/T-7）", "Result (T-6/T-7)"), ("grail_select",),
                                 resolve_select),
    },
    readings=declared_readings(),
    actions=ACTIONS,
    view=view,
    seat_flags=seat_flags,
    standings_lines=result_lines,
    strings=STRINGS,
    templates={"gm": "rulesets/grail/gm.html", "stage": "rulesets/grail/stage.html",
               "table": "rulesets/grail/summary.html", "history": "rulesets/grail/table.html",
               "phone": "rulesets/grail/phone.html"},
    stylesheet="rulesets/grail.css",
    upcasters={"grail.reading_set": upcast_reading},
    old_scene_title=old_scene_title,
    docs="docs/rulesets/grail_trpg.md",
    leak_probe=PROBE,
    carry_over=carry_over,
    gm_combatant=gm_combatant,
    demo=Demo("デモ：聖杯戦争TRPG 戦闘", ("セイバー陣営 / 衛宮", "ランサー陣営 / ケイネス"), play=demo,
              scenes=(demo_to_cleanup,)),
)
