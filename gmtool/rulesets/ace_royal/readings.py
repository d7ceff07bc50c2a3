"""Fate/Ace Royal readings: where the seed is ambiguous, the digest's reading by default, switchable per session."""

from __future__ import annotations

from gmtool.core.model import Label
from gmtool.core.ruleset import Choice, Reading

FIRST_TIES = Reading(
    "first_ties", "A-5", Label("最初のアクティブマスターの同点", "Ties for the first active master"),
    (Choice("reroll", Label("同点の者だけで振り直す", "The tied players roll again")),
     Choice("seat_order", Label("同点なら座席順で先の者", "The tied player first in the seating order"))),
    "reroll")

AM_PASS = Reading(
    "master_pass", "A-5", Label("アクティブマスターコインの移行", "When the active-master coin passes"),
    (Choice("round", Label("一巡（フェイズ）ごと。最初の移行は最初の一巡の後", "After every full round (phase); the first after the first round")),
     Choice("turn", Label("最初の一巡の後は毎ターン終了時", "After the first round, at the end of every turn"))),
    "round")

COMBAT_REVEAL_DRAW = Reading(
    "disclosure_draw", "A-11", Label("開示プロセスでのドロー", "Drawing when a combat discloses a servant"),
    (Choice("none", Label("引かない（2枚引くのは儀式ステップの開示だけ）", "No draw (only a ritual-step reveal draws 2)")),
     Choice("draw", Label("開示したカード1枚につき2枚引く", "Draw 2 per card disclosed"))),
    "none")

READINGS = (FIRST_TIES, AM_PASS, COMBAT_REVEAL_DRAW)
