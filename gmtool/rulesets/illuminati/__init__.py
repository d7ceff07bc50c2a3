"""Illuminati: New World Order TCG v1.2 (seed 004, RULES.md I-1 to I-7) on the ruleset contract.

gmtool runs the secret simultaneous placements (I-2), the play order (I-3), the attack calculator
with its 2d6 roll (I-4, I-5) and the group counts against the goal (I-1, I-7); the cards stay on
the table. This module only declares `RULESET`; nothing registers itself on import.
"""

from gmtool.core.model import CounterDef, Label
from gmtool.core.ruleset import Demo, PromptKind, Ruleset

from .actions import ACTIONS, PLACEMENT_KIND, counter_settle, validate_placement
from .campaign import carry_over
from .demo import demo
from .events import EVENTS
from .probe import PROBE
from .readings import READINGS
from .standings import standings
from .strings import STRINGS
from .view import view

# Upper bounds, sanity limits the GM raises for one seat with a reason: the goal is 10 to 12 groups (I-1),
# so 60 groups leaves room for special goals; tokens, piles, hands and resources are counted in tens at most.
COUNTERS = (
    CounterDef("groups", Label("支配グループ", "Groups controlled"), max=60),
    CounterDef("tokens_illuminati", Label("イルミナティのトークン", "Tokens on the Illuminati"), max=99),
    CounterDef("tokens_groups", Label("グループのトークン", "Tokens on groups"), max=99),
    CounterDef("destroyed", Label("破壊の山", "Destroyed pile"), max=99),
    CounterDef("plot_hand", Label("プロット手札", "Plot hand"), start=3, max=60),
    CounterDef("group_hand", Label("グループ手札", "Group hand"), start=6, max=60),
    CounterDef("resources", Label("リソース", "Resources"), max=99),
)

RULESET = Ruleset(
    name="illuminati",
    label=Label("イルミナティ（TCG）", "Illuminati: New World Order"),
    prompt_example=(Label("この攻撃を支援する？", "Support this attack?"), Label("攻撃側\n防御側\nどちらもしない", "The attack\nThe defense\nNeither")),  # the GM console's secret-prompt example
    seats=(2, 6),
    counters=COUNTERS,
    events=EVENTS,
    prompt_kinds=(PromptKind(PLACEMENT_KIND, validate_placement, text=str,
                             template="rulesets/illuminati/_card_form.html"),),
    readings=READINGS,
    actions=ACTIONS,
    view=view,
    strings=STRINGS,
    templates={"gm": "rulesets/illuminati/gm.html", "stage": "rulesets/illuminati/stage.html",
               "table": "rulesets/illuminati/table.html", "history": "rulesets/illuminati/history.html",
               "phone": "rulesets/illuminati/phone.html"},
    stylesheet="rulesets/illuminati.css",
    docs="docs/rulesets/illuminati.md",
    carry_over=carry_over,
    standings=standings,
    counter_settle=counter_settle,
    leak_probe=PROBE,
    demo=Demo("デモ：イルミナティ", ("アリス", "ボブ", "キャロル", "デイヴ"), play=demo),
    phone_counters=lambda rv: bool(rv.get("me")),  # the panel's two lines, once the seat plays (view.py: `me`)
)
