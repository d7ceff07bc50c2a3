"""Readings of the rules where the seed leaves a choice (RULES.md **Reading:**), switchable per session."""

from gmtool.core.model import Label
from gmtool.core.ruleset import Choice, Reading

TIES = Reading(
    "illuminati_ties", "I-3", Label("プレイ順の同点", "Ties for the play order"),
    (Choice("reroll", Label("同点の人だけ振り直す", "The tied players roll again")),
     Choice("table_order", Label("同点は席順のまま", "Ties keep the seating order"))),
    "reroll")

PARENT_BONUS = Reading(
    "illuminati_parent_bonus", "I-4", Label("親と同じ属性の防御修正", "Defense bonus for sharing an alignment with the parent"),
    (Choice("once", Label("共通の属性がいくつあっても+4", "+4 however many alignments are shared")),
     Choice("per_alignment", Label("共通の属性1つごとに+4", "+4 per shared alignment"))),
    "once")

READINGS = (TIES, PARENT_BONUS)
