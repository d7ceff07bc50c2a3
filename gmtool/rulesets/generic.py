"""The generic ruleset: the GM picks counters for any game (presets named in Japanese)."""

from gmtool.core.model import CounterDef, Label, Threshold
from gmtool.core.ruleset import Demo, Ruleset

# Upper bounds are sanity limits a GM can raise for one seat with a reason (core/commands.py):
# 令呪 never above the 3 a master starts with (T-13, S-11, A-2); 魔力 / MP sheets stop at 99 (sugoroku's
# own 魔力 stops at 14); coins are counted in ones (Ace Royal starts at 5 or 8); カルマ: 討伐令 at 9 and a
# defeat takes up to 10 away (S-12), 30 leaves room for a whole campaign of bad deeds; 黒星 one per lost
# combat; 戦果 a whole sugoroku game stays far below 999 (S-8, S-9, S-11).
PRESETS = (
    CounterDef("seals", Label("令呪", "Command Seals"), start=3, min=0, max=3),
    CounterDef("mana", Label("魔力", "Mana"), start=0, min=0, max=99),
    CounterDef("coins", Label("コイン", "Coins"), start=0, min=0, max=99),
    CounterDef("karma", Label("カルマ", "Karma"), start=0, min=0, max=30,
               thresholds=(Threshold(9, "subjugation", Label("討伐令", "Subjugation order")),)),
    CounterDef("black_stars", Label("黒星", "Black stars"), start=0, min=0, max=10),
    CounterDef("vp", Label("戦果", "Victory points"), start=0, min=None, max=999),
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
    demo=Demo("デモ卓（サンプル）", ("衛宮 / セイバー陣営", "遠坂 / アーチャー陣営", "ケイネス / ランサー陣営"),
              counters=("seals", "mana", "karma", "vp"), play=_demo),
)
