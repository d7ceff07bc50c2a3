"""Grail Succession: the final part of a write-up (the ruleset's `standings` hook, export/report.py): each
player's score with its breakdown (G-2: majorities, sets, plus, minus; grails score 0) and the result (G-3); the
same as numbers for the JSON export (`standings_data`, export/jsonio.py).

Built from the table's view alone, so it shows what the table sees (every card gmtool knows is face up).
"""

from __future__ import annotations

from gmtool.core.logtext import minus_sign

from .events import result_text


def _t(lang: str, ja: str, en: str) -> str:
    return en if lang == "en" else ja


def _majorities(player: dict, lang: str) -> str:
    won = [str(v) for v in player["factions_won"]]
    if not won:
        return "0"
    return _t(lang, f"{player['majorities']}（勢力{'・'.join(won)}）",
              f"{player['majorities']} (faction{'s' if len(won) > 1 else ''} {', '.join(won)})")


def standings(view: dict, lang: str) -> tuple[list[str], list[list[str]], list[str]] | None:
    """The final table (one row per player: majorities, sets, plus, minus, grails, total) and the result line:
    standings_data in words; None before the first game is set up (core's table then)."""
    data = standings_data(view)
    if data is None:
        return None
    head = [_t(lang, "席", "Seat"), _t(lang, "過半数", "Majorities"), _t(lang, "セット", "Sets"),
            _t(lang, "プラス", "Plus"), _t(lang, "マイナス", "Minus"), _t(lang, "聖杯", "Grails"),
            _t(lang, "合計", "Total")]
    rows = []
    for p in data["players"]:
        sets = _t(lang, f"{p['set_points']}（{p['sets']}組）", f"{p['set_points']} ({p['sets']} × 5)") \
            if p["sets"] else "0"
        rows.append([p["name"], _majorities(p, lang), sets, f"+{p['plus']}" if p["plus"] else "0",
                     f"−{p['minus']}" if p["minus"] else "0", str(p["grails"]), minus_sign(p["total"])])
    r = data["result"]
    if r["decided"]:
        result = result_text(r["reason"], r["winner_name"], r["rematch"], lang)
    else:
        result = _t(lang, f"未決着（第{r['game']}ゲーム進行中）", f"Not decided yet (game {r['game']} in play)")
    return head, rows, [_t(lang, f"結果：{result}", f"Result: {result}")]


def standings_data(view: dict) -> dict | None:
    """G-2/G-3: the final standings as numbers for the JSON export, from the table's view: per player its seat,
    name, total and the G-2 terms it sums (majority points with the faction values won, sets and their points,
    plus, minus, grails), and the game's result; None before the first game is set up."""
    s = view.get("ruleset") or {}
    if not s.get("ready"):
        return None
    players = []
    for p in s["players"]:
        sc = p["score"]
        won = [f["value"] for f in sc["factions"] if f["points"]]
        players.append({"seat": p["seat"], "name": p["name"], "total": sc["total"],
                        "majorities": sum(f["points"] for f in sc["factions"]), "factions_won": won,
                        "sets": sc["sets"], "set_points": sc["set_points"], "plus": sc["plus"], "minus": sc["minus"],
                        "grails": sc["grail"]})
    done = s["finished"]
    result = {"decided": bool(done), "game": s["game"], "reason": done["reason"] if done else None,
              "winner": done.get("winner") if done else None, "winner_name": done.get("winner_name") if done else None,
              "rematch": bool(done.get("rematch")) if done else False,
              "rule": ("G-2" if done["reason"] == "score" else "G-3") if done else None}
    return {"players": players, "result": result}
