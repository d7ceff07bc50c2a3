"""Deterministic sessions for the replay golden files: one whole grail_trpg combat, one sugoroku round and one
succession game scored from its counts, played through the rulesets' own actions with fixed dice, salts and times (one minute per action).

The grail combat is RULES.md T's worked example (tests/unit/test_grail_flow.py computes every number by
hand): setup, three selects with a skill, a seal and affinities, the final result with a seal, the battle
roll, an escape and the cleanup with its black star. セイバー陣営 has seen through エミヤ; nobody has seen
through アルトリア, whose true name must never reach a public export.

The sugoroku round: setup, a terrain square, a phase of moves where two servants meet, the battle with its
secret cards, the end of the round and the true-name vote (セイバー's true name is revealed; the others'
stay secret).

The succession game: RULES.md G-2's worked example entered as counts (A 15 to B 14), its final standings in the
write-ups' words and, in the JSON export, as numbers.
"""

from __future__ import annotations

from itertools import count

from export_session import Script

from gmtool.core import prompts
from gmtool.core.commands import create_session, new_seat
from gmtool.core.dice import FixedDice, seed_hash
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext
from gmtool.core.view import GM, Viewer
from gmtool.rulesets import get as get_ruleset

GRAIL = get_ruleset("grail_trpg")
SUGOROKU = get_ruleset("sugoroku")
SUCCESSION = get_ruleset("succession")

SABER = """アルトリア(セイバー)/アルトリア・ペンドラゴン 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60
士郎 筋力20 耐久30 敏捷20 魔力10 幸運30 宝具10
大河 筋力10 耐久10 敏捷10 魔力10 幸運10 宝具10"""
ARCHER = """[{"name": "エミヤ", "class_name": "アーチャー", "true_name": "無銘の守護者", "stats":
 {"筋力": 30, "耐久": 40, "敏捷": 40, "魔力": 50, "幸運": 30, "宝具": 50}},
 {"name": "凛", "stats": {"筋力": 20, "耐久": 20, "敏捷": 30, "魔力": 55, "幸運": 40, "宝具": 20}}]"""

GRAIL_SECRET = "アルトリア・ペンドラゴン"  # never seen through: no public export may show it
SUGOROKU_SECRETS = ("エミヤ", "クー・フーリン", "メドゥーサ")  # true names that stay unrevealed
SUGOROKU_REVEALED = "アルトリア"  # revealed by the vote at the end of the round


class RulesetScript(Script):
    """A Script whose steps are a ruleset's actions (as the GM or a seat), with fixed dice and salts."""

    def __init__(self, rules, dice=()):
        super().__init__(state=State(rules=rules), resolvers=rules.all_resolvers())
        self.rules = rules
        self.fixed = FixedDice(list(dice))
        self.salts = count(1)

    def act(self, name: str, payload: dict | None = None, who: str = "gm", dice=None):
        viewer = GM if who == "gm" else Viewer("seat", who)
        ctx = ActionContext(actor="gm" if who == "gm" else f"seat:{who}", viewer=viewer,
                            dice=self.fixed if dice is None else FixedDice(list(dice)),
                            salt=lambda: f"salt{next(self.salts):04d}", resolvers=self.resolvers)
        return self.write(self.rules.actions[name].fn(self.state, payload or {}, ctx), ctx.actor)

    def seat_answer(self, prompt_id: str, who: str, value):
        return self.answer(prompt_id, who, value, f"salt{next(self.salts):04d}")

    def confirm(self, prompt_id: str):
        return self.do(prompts.confirm, prompt_id)


def grail_combat() -> RulesetScript:
    """RULES.md T's whole combat (see the module docstring)."""
    s = RulesetScript(GRAIL, dice=[30, 50, 60, 40])
    s.write(create_session("grail001", "聖杯戦争 第4夜", "grail_trpg",
                           [new_seat("s1", "セイバー陣営", "衛宮"), new_seat("s2", "アーチャー陣営", "遠坂")],
                           list(GRAIL.counters), seed_hash(b"gmtool replay golden grail 00001")))
    s.act("set_characters", {"faction": "s1", "text": SABER})
    s.act("set_characters", {"faction": "s2", "characters": ARCHER})
    s.act("set_seen", {"faction": "s1", "seen": ["s2/エミヤ"]})
    s.act("start_combat", {"a": ["s1"], "b": ["s2"]})
    s.act("answer", {"prompt": "c1-setup", "value": {"main": "s1/アルトリア", "sub": "s1/士郎"}}, who="s1")
    s.act("answer", {"prompt": "c1-setup", "value": {"main": "s2/エミヤ", "sub": "s2/凛"}}, who="s2")
    s.confirm("c1-setup")
    for n, a, b in ((1, {"stat": "筋力", "mods": [{"label": "怪力", "value": 10, "kind": "skill"}]}, {"stat": "耐久"}),
                    (2, {"stat": "魔力"}, {"stat": "敏捷"}),
                    (3, {"stat": "幸運"}, {"stat": "宝具", "seal": {"effect": 2}})):
        s.act("next_step")
        s.act("answer", {"prompt": f"c1-s{n}", "value": a}, who="s1")
        s.act("answer", {"prompt": f"c1-s{n}", "value": b}, who="s2")
        s.confirm(f"c1-s{n}")
    s.act("next_step")  # the final result
    s.act("use_seal", {"faction": "s2", "effect": 3})
    s.act("next_step")  # the battle roll: 30 + 42 = 72 vs 50 + 34 = 84
    s.act("escape", {"faction": "s1"})  # 60 vs 40: escaped
    s.act("next_step")  # cleanup: a black star for セイバー陣営
    return s


def sugoroku_round() -> RulesetScript:
    """One sugoroku round (see the module docstring)."""
    s = RulesetScript(SUGOROKU)
    names = ["セイバー", "アーチャー", "ランサー", "ライダー"]
    s.write(create_session("sugo0001", "双六リーグ 第1戦", "sugoroku",
                           [new_seat(f"s{i + 1}", n) for i, n in enumerate(names)], list(SUGOROKU.counters),
                           seed_hash(b"gmtool replay golden sugoroku 001")))
    s.act("setup", {"board_length": 10, "order": ["s1", "s2", "s3", "s4"], "players": {
        "s1": {"master": "衛宮", "servant": "セイバー", "true_name": "アルトリア", "mana": 4, "unspent_cp": 5},
        "s2": {"master": "遠坂", "servant": "アーチャー", "true_name": "エミヤ", "mana": 6},
        "s3": {"servant": "ランサー", "true_name": "クー・フーリン", "mana": 3},
        "s4": {"servant": "ライダー", "true_name": "メドゥーサ", "mana": 3}}})
    s.act("set_square", {"square": 3, "terrain": "力+1 魔-1", "vp": 2})
    for seat, die in (("s1", 3), ("s2", 3), ("s3", 5), ("s4", 6)):
        s.act("roll_move", who=seat, dice=[die])
    s.act("end_phase")
    s.act("start_battle")
    battle = s.state.extra["sugoroku"]["battle"]["prompt"]
    s.seat_answer(battle, "s1", {"power": 7, "attribute": "力"})
    s.seat_answer(battle, "s2", [{"power": 5, "attribute": "魔"}, "技4"])
    s.act("battle_card", {"card": "力3"}, who="s1")
    s.act("end_battle")
    s.act("square_event", {"seat": "s3", "vp": -10, "label": "罰"})
    s.act("end_round", {"force": True})
    vote = s.state.extra["sugoroku"]["vote"]
    for voter, target in (("s1", "s2"), ("s2", "s1"), ("s4", "s1")):
        s.seat_answer(vote, voter, target)
    s.confirm(vote)
    return s


def succession_scores() -> RulesetScript:
    """One succession game in score mode (see the module docstring)."""
    s = RulesetScript(SUCCESSION)
    s.write(create_session("succ0001", "サクセション 第1局", "succession", [new_seat("s1", "A"), new_seat("s2", "B")],
                           list(SUCCESSION.counters), seed_hash(b"gmtool replay golden succession1")))
    s.act("setup", {"first": "s1", "mode": "score"})
    s.act("enter_counts", {"f5": 4, "f6": 2, "f7": 3, "f8": 2}, who="s1")
    s.act("enter_counts", {"f6": 3, "f7": 3, "f8": 6, "plus": "3", "minus": [2, 1]}, who="s2")
    return s
