"""Illuminati: the final part of a write-up (the ruleset's `standings` hook, export/report.py): every player against
the goal (I-1: its Illuminati, the groups it controls, its destroyed pile, out by I-7) and the result (I-1). The
campaign page lists the result line as each evening's outcome.

Built from the table's view alone, so it shows what the table sees.
"""

from __future__ import annotations


def _t(lang: str, ja: str, en: str) -> str:
    return en if lang == "en" else ja


def _result(view_ruleset: dict, lang: str) -> str:
    """I-1: who won and how, or that the game is not decided yet."""
    w = view_ruleset.get("winner")
    if not w:
        return _t(lang, "未決着（ゲーム中）", "Not decided yet (in play)")
    kind = w["how"][_t(lang, "ja", "en")]
    return _t(lang, f"{w['name']}の勝利（{kind}、I-1）", f"{w['name']} wins ({kind}, I-1)")


def standings(view: dict, lang: str) -> tuple[list[str], list[list[str]], list[str]] | None:
    """The final table (one row per player: Illuminati, groups against the goal, destroyed pile, out or goal met)
    and the result line; None before the regulation names the players (core's table then)."""
    s = view.get("ruleset") or {}
    if not s.get("players") or s.get("stage") == "setup":
        return None
    head = [_t(lang, "席", "Seat"), _t(lang, "イルミナティ", "Illuminati"), _t(lang, "支配グループ", "Groups"),
            _t(lang, "破壊の山", "Destroyed"), _t(lang, "状態", "State")]
    rows = []
    for p in s["players"]:
        c = p["counters"]
        state = _t(lang, "脱落", "out") if p["out"] else _t(lang, "ゴール達成", "goal met") if p["meets"] else ""
        rows.append([p["name"], p["illuminati"], f"{c['groups']}/{s['goal']}" if s.get("goal") else str(c["groups"]),
                     str(c["destroyed"]), state])
    return head, rows, [_t(lang, f"結果：{_result(s, lang)}", f"Result: {_result(s, lang)}")]
