"""The generic ruleset: the GM picks counters for any game (presets named in Japanese)."""

from gmtool.core.model import CounterDef, Label, Threshold
from gmtool.core.ruleset import Ruleset

PRESETS = (
    CounterDef("seals", Label("令呪", "Command Seals"), start=3, min=0, max=None),
    CounterDef("mana", Label("魔力", "Mana"), start=0, min=0, max=None),
    CounterDef("coins", Label("コイン", "Coins"), start=0, min=0, max=None),
    CounterDef("karma", Label("カルマ", "Karma"), start=0, min=0, max=None,
               thresholds=(Threshold(9, "subjugation", Label("討伐令", "Subjugation order")),)),
    CounterDef("black_stars", Label("黒星", "Black stars"), start=0, min=0, max=None),
    CounterDef("vp", Label("戦果", "Victory points"), start=0, min=None, max=None),
)

RULESET = Ruleset(
    name="generic",
    label=Label("汎用", "Generic"),
    presets=PRESETS,
    default_presets=("seals", "mana", "vp"),
    custom_counters=True,
    docs="README.md",
)
