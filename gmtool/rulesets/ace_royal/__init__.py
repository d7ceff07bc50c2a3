"""Fate/Ace Royal (RULES.md A, docs/rulesets/ace_royal.md): coins, servant states, turns and phases,
combat damage, proxies, standard and quick versions. The declaration only; nothing registers on import."""

from __future__ import annotations

from gmtool.core.model import CounterDef, Label, Threshold
from gmtool.core.ruleset import Demo, Ruleset

from .actions import ACTIONS
from .campaign import carry_over
from .demo import demo
from .events import EVENTS
from .plan import counter_settle
from .probe import PROBE
from .readings import READINGS
from .strings import STRINGS
from .view import OUT_FLAGS, result_lines, seat_flags, view

# Upper bounds, sanity limits the GM raises for one seat with a reason: 魔力 coins 30 (5, or 8
# in the quick version, and recovered one at a time), 令呪 the 3 coins a player gets, a hand of 30 cards,
# 20 mystic codes on the field, 暗殺 / 枯渇 coins 30 (the master dies once either exceeds the hand).
COUNTERS = (
    CounterDef("mana", Label("魔力", "Mana"), start=5, min=0, max=30,
               thresholds=(Threshold(0, *OUT_FLAGS["mana"], "A-2", below=True),)),
    CounterDef("seals", Label("令呪", "Command Seals"), start=3, min=0, max=3),
    CounterDef("hand", Label("手札", "Hand"), start=4, min=0, max=30),
    CounterDef("codes", Label("礼装（場）", "Mystic codes (field)"), start=0, min=0, max=20),
    CounterDef("assassin", Label("暗殺コイン", "Assassination coins"), start=0, min=0, max=30),
    CounterDef("depletion", Label("枯渇コイン", "Depletion coins"), start=0, min=0, max=30),
)

RULESET = Ruleset(
    name="ace_royal",
    label=Label("Fate/Ace Royal", "Fate/Ace Royal"),
    prompt_example=(Label("迎撃する？", "Intercept?"), Label("迎撃する\n見送る", "Intercept\nLet it pass")),  # the GM console's secret-prompt example
    seats=(2, 7),
    counters=COUNTERS,
    events=EVENTS,
    readings=READINGS,
    actions=ACTIONS,
    view=view,
    standings_lines=result_lines,
    seat_flags=seat_flags, seat_flags_replace=(OUT_FLAGS["mana"][0],),  # one out flag: the reason they went out
    strings=STRINGS,
    templates={"gm": "rulesets/ace_royal/gm.html", "stage": "rulesets/ace_royal/stage.html",
               "table": "rulesets/ace_royal/table.html", "history": "rulesets/ace_royal/history.html",
               "phone": "rulesets/ace_royal/phone.html"},
    stylesheet="rulesets/ace_royal.css",
    docs="docs/rulesets/ace_royal.md",
    carry_over=carry_over,
    leak_probe=PROBE,
    demo=Demo("デモ：Fate/Ace Royal", ("凛", "ウェイバー", "龍之介"), play=demo),
    counter_settle=counter_settle,
    phone_counters=lambda rv: bool(rv.get("me")),  # the panel's coin row, once the seat plays (view.py: `me`)
)

__all__ = ["RULESET"]
