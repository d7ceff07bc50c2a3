"""Sugoroku (RULES.md S): how a battle reads in a write-up (the export lines of the `sugoroku.battle_*` events).

The log keeps a line per step of a battle (started, a card added, over); a replay tells the battle once,
when it is over, as one line: every fighter's total with the cards it played (terrain applied, seals and
modifiers), the winner and the VP it gained (S-7/S-8). The cards come from the battle prompt's revealed
answers, through its last resolution; the commitments and salts stay in the appendix. A battle that is
still going, or whose cards were never revealed, reads as its log lines.
"""

from __future__ import annotations

from dataclasses import replace

from gmtool.core.logtext import in_lang as _ja
from gmtool.core.logtext import minus_sign
from gmtool.core.model import TABLE, State
from gmtool.core.ruleset import EventType
from gmtool.core.view import can_see_answer

from . import rules as R
from .events import _d_battle, _d_battle_ended, _d_card, _terms, sg


def _is_over(state: State, battle_id: str) -> bool:
    """Whether the battle `battle_id` has ended (battles are fought one at a time, S-7)."""
    current = (sg(state) or {}).get("battle")
    return battle_id in state.prompts and (current is None or current["id"] != battle_id) and \
        _rows(state, battle_id) is not None


def _rows(state: State, battle_id: str) -> list[dict] | None:
    """The fighters' rows of the battle's last resolution, when the table may see every card in them."""
    prompt = state.prompts.get(battle_id)
    rows = (prompt.resolution or {}).get("rows") if prompt is not None else None
    if not rows or not all(can_see_answer(prompt, TABLE, row["who"]) for row in rows):
        return None
    return rows


def _label(term: dict, lang: str) -> str:
    return term["label"] if isinstance(term["label"], str) else term["label"]["en" if lang == "en" else "ja"]


def term_text(term: dict, lang: str) -> str:
    """S-7: a battle resolution's term as the reader reads it: a card's with its card worded (attack (Power 7))."""
    label = _label(term, lang)
    return R.card_label(label, lang) if "power" in term else label


def _played(row: dict, lang: str) -> str:
    """S-7: the cards one fighter played, terrain applied (伏せ札力7+1・力3−1), then seals and modifiers."""
    cards, extra = [], []
    for t in row["terms"]:
        label = _label(t, lang)
        if "power" in t:  # a card: its text with the terrain (アタック（力7+1） → 力7+1)
            inner = label[label.find("（") + 1:-1] if label.endswith("）") else \
                label[label.find("(") + 1:-1] if label.endswith(")") else label
            card = R.card_words(inner, lang) if label.startswith(("アタック", "attack")) else R.card_label(label, lang)
            cards.append(_ja(lang, f"伏せ札{card}", f"face-down {card}") if t.get("face") == "down" else card)
        else:
            extra.append(f"{label} {minus_sign(t['value'], True)}")
    sep = ", " if lang == "en" else "、"
    return ("・" if lang != "en" else sep).join(cards) + (sep + sep.join(extra) if extra and cards else sep.join(extra))


def battle_line(e: dict, state: State, lang: str) -> str:
    """S-7/S-8: one battle, one line: each fighter's total with its cards, the winner and the VP."""
    d = e["data"]
    rows = _rows(state, d["battle"])
    if rows is None or not d.get("totals"):
        return _d_battle_ended(e, state, lang)
    parent = state.prompts[d["battle"]].meta.get("parent")
    fighters = []
    for row in rows:
        if row["who"] not in d["totals"]:
            continue  # left the battle (a seal, S-11)
        role = _ja(lang, "（親）" if row["who"] == parent else "（子）", " (parent)" if row["who"] == parent else " (child)")
        fighters.append(f"{state.seat_name(row['who'])}{role} {d['totals'][row['who']]}"
                        + (f" ({_played(row, lang)})" if lang == "en" else f"（{_played(row, lang)}）"))
    where = _ja(lang, f"戦闘（マス{d['square']}）：", f"Battle on square {d['square']}: ")
    if d.get("winner"):
        ruling = _ja(lang, "GM裁定で", "by the GM's ruling, ") if d.get("decided_by_gm") else ""
        verdict = _ja(lang, f"{ruling}{state.seat_name(d['winner'])}の勝ち、戦果+{d['vp']}（{_terms(d['terms'], lang)}）",
                      f"{ruling}{state.seat_name(d['winner'])} wins, VP +{d['vp']} ({_terms(d['terms'], lang).replace('、', ', ')})")
    else:
        verdict = _ja(lang, "勝者なし", "no winner")
    return f"{where}{' vs '.join(fighters)} → {verdict} [S-7/S-8]"


def battle_started_line(e: dict, state: State, lang: str) -> str:
    """S-7: a battle's start is told by its line when it is over."""
    return "" if _is_over(state, e["data"]["id"]) else _d_battle(e, state, lang)


def battle_card_line(e: dict, state: State, lang: str) -> str:
    """S-7: a card added to a battle is told with the battle's cards when it is over."""
    return "" if _is_over(state, e["data"]["battle"]) else _d_card(e, state, lang)


EXPORT_LINES = {"sugoroku.battle_ended": battle_line, "sugoroku.battle_started": battle_started_line,
                "sugoroku.battle_card": battle_card_line}


def with_export_lines(events: tuple[EventType, ...]) -> tuple[EventType, ...]:
    """The event types with their write-up lines (export/report.py) where they differ from the log's."""
    return tuple(replace(e, export=EXPORT_LINES[e.name]) if e.name in EXPORT_LINES else e for e in events)
