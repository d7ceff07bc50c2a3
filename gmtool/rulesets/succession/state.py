"""Grail Succession: where the ruleset keeps its part of the state, and the readings (G-1, G-3)."""

from __future__ import annotations

from gmtool.core.model import Label, State
from gmtool.core.ruleset import Choice, Reading

KEY = "succession"

FIRST_READING = Reading(
    "first_player", "G-1", Label("最初の先手", "First player"),
    (Choice("gm", Label("GMが選ぶ（最近王位を継承した人）", "The GM picks (whoever last succeeded to a throne)")),
     Choice("dice", Label("ダイスで決める（1d6、高い方が先手、同値は振り直し）",
                          "A die decides (1d6 each, higher starts, ties re-roll)"))),
    "gm")
TIE_READING = Reading(
    "tie", "G-3", Label("同点のとき", "Equal totals"),
    (Choice("rematch", Label("再戦（先手を交代して新しいゲーム）", "A rematch (a new game, the first player flipped)")),
     Choice("draw", Label("引き分けで終わる", "The game ends in a draw"))),
    "rematch")
READINGS = (FIRST_READING, TIE_READING)


def sx(state: State) -> dict | None:
    """The ruleset's part of the state (None before setup)."""
    return state.extra.get(KEY)


def in_play(s: dict) -> list[dict]:
    """Every card on the table: the row and the captured cards."""
    return s["row"] + [c for p in s["players"] for c in s["captured"][p]]
