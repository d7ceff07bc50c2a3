"""The generic ruleset: the GM picks counters for any game (presets named in Japanese)."""

from gmtool.core.model import CounterDef, Label, Threshold
from gmtool.core.ruleset import Demo, Ruleset

PRESETS = (
    CounterDef("seals", Label("令呪", "Command Seals"), start=3, min=0, max=None),
    CounterDef("mana", Label("魔力", "Mana"), start=0, min=0, max=None),
    CounterDef("coins", Label("コイン", "Coins"), start=0, min=0, max=None),
    CounterDef("karma", Label("カルマ", "Karma"), start=0, min=0, max=None,
               thresholds=(Threshold(9, "subjugation", Label("討伐令", "Subjugation order")),)),
    CounterDef("black_stars", Label("黒星", "Black stars"), start=0, min=0, max=None),
    CounterDef("vp", Label("戦果", "Victory points"), start=0, min=None, max=None),
)

def _demo(table) -> None:
    """A raised 討伐令, a roll and an open secret select."""
    table.post("/counters", {"seat": table.seats[2], "key": "karma", "value": 9, "reason": "デモ: 魂喰い"})
    table.post("/rolls", {"expr": "2D6>=7", "label": "デモの判定"})
    table.post("/prompts", {"title": "1stセレクト", "kind": "choice", "options": ["筋力", "耐久", "敏捷", "魔力", "幸運", "宝具"],
                            "seats": table.seats[:2], "resolver": "cancel_duplicates"})


RULESET = Ruleset(
    name="generic",
    label=Label("汎用", "Generic"),
    presets=PRESETS,
    default_presets=("seals", "mana", "vp"),
    custom_counters=True,
    docs="README.md",
    demo=Demo("デモ卓（サンプル）", ("セイバー陣営 / 衛宮", "アーチャー陣営 / 遠坂", "ランサー陣営 / ケイネス"),
              counters=("seals", "mana", "karma", "vp"), play=_demo),
)
