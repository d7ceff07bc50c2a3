"""sugoroku: the Sugoroku Holy Grail War (RULES.md S, docs/rulesets/sugoroku.md), one declaration.

Modules by concern: rules.py (the pure rules S-1..S-15), flow.py (setup, moves, phases, rounds),
battle.py (battles and their secret cards S-6/S-7), events.py (folds, log lines, visibilities), story.py (how a battle reads in a write-up),
actions.py (rounds, the true-name vote and its resolvers, the action table), view.py, strings.py.
"""

from __future__ import annotations

from gmtool.core.model import Label
from gmtool.core.ruleset import Choice, Demo, PromptKind, Reading, Ruleset

from . import battle as B
from .actions import ACTIONS, COUNTERS, RESOLVERS
from .campaign import carry_over
from .view import view
from .events import EVENTS, upcast_reading
from .probe import PROBE, demo
from .story import with_export_lines
from .strings import STRINGS


def _reading(key: str, rule: str, label: tuple[str, str], default, *choices: tuple) -> Reading:
    return Reading(key, rule, Label(*label), tuple(Choice(v, Label(ja, en)) for v, ja, en in choices), default)


READINGS = (
    _reading("battle_tie", "S-7", ("戦闘の最高値が同点", "Tied highest battle power"), "gm",
             ("gm", "勝者なし・GMが裁定", "No winner; the GM decides"),
             ("parent", "同点に親がいれば親の勝ち", "The parent wins if among the tied")),
    _reading("elimination_tie", "S-10", ("最下位が同点", "Tied last place"), "none",
             ("none", "差0で脱落なし", "A gap of 0: nobody is out"),
             ("all", "次点と10以上差なら全員脱落", "All are out if 10 or more behind the next"),
             ("gm", "GMが決める", "The GM decides")),
    _reading("terrain_applies_to", "S-7", ("地の利の対象", "What terrain modifies"), "attack",
             ("attack", "アタックカードのみ", "Attack cards only"),
             ("all", "属性を持つ全カード", "Every card with an attribute")),
    _reading("card_power_floor", "S-7", ("弱化されたカードのパワー", "A weakened card's power"), 0,
             (0, "0未満にならない", "Never below 0"), (None, "下限なし", "No floor")),
    _reading("strong_traits_count", "S-14", ("強特性と特性数（3個につき2点）", "Strong traits and the trait count"), True,
             (True, "強特性も特性数に数える", "Strong traits count"), (False, "強特性は数えない", "Strong traits do not count")),
    _reading("round_end_all_at_goal", "S-2", ("全員ゴールでのラウンド終了", "Round end when everyone is at the goal"), True,
             (True, "規定人数に満たなくても全員ゴールで終了", "Ends when everyone is at the goal, below the goal count too"),
             (False, "規定人数がゴールするまで続ける", "Goes on until the goal count is reached")),
    _reading("reveal_counts_np", "S-13", ("真名判明の回数と宝具", "NP uses and the true-name count"), True,
             (True, "宝具の使用も数える（スキル使用＋戦闘＋宝具）", "NP uses count (with skill uses and battles)"),
             (False, "スキル使用と戦闘のみ数える", "Only skill uses and battles count")),
)

RULESET = Ruleset(
    name="sugoroku",
    label=Label("双六聖杯戦争", "Sugoroku Holy Grail War"),
    seats=(2, 7),
    counters=COUNTERS,
    events=with_export_lines(EVENTS),
    prompt_kinds=(PromptKind(B.KIND, B.validate_cards, None, "rulesets/sugoroku/_cards_form.html"),),
    resolvers=RESOLVERS,
    readings=READINGS,
    actions=ACTIONS,
    view=view,
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
