"""Holy Grail War TRPG (RULES.md T): how a combat reads in a write-up (the export lines of the `grail.*` events).

The log keeps a line per step (a select opened, then its result); a replay tells each select once, as one
line with its result: both chosen stats with their values, every modifier of both sides in one bracket,
and the winner (T-5..T-7). Other events read as their log lines.
"""

from __future__ import annotations

from dataclasses import replace

from gmtool.core.logtext import in_lang as _ja
from gmtool.core.logtext import minus_sign
from gmtool.core.model import State
from gmtool.core.ruleset import EventType

from .events import ORDINALS, _d_select_opened, _names, _stat, combat_of, label_and_value, select_outcome


def _label(term: dict, lang: str) -> str:
    return term["label"] if isinstance(term["label"], str) else term["label"]["en" if lang == "en" else "ja"]


def _modifiers(terms: list[dict], lang: str) -> str:
    """T-6/T-7: one side's modifiers (every term after its force) with their rule codes; a label that
    already ends with its amount (令呪2: 宝具+30) is not followed by it again."""
    parts = []
    for t in terms[1:]:
        text = label_and_value(_label(t, lang), minus_sign(t["value"], True))
        rule = (f" [{t['rule']}]" if lang == "en" else f"[{t['rule']}]") if t.get("rule") else ""
        parts.append(text + rule)
    return (", " if lang == "en" else "、").join(parts)


def select_line(e: dict, state: State, lang: str) -> str:
    """T-5..T-7: one select, one line: both stats and values, the modifiers in one bracket, the winner."""
    d = e["data"]
    names = _names(state, d["combat"])
    r = d["result"]
    sp = " " if lang == "en" else ""
    stats = " vs ".join(f"{names[s]}{sp}{_stat(r[s]['stat'], lang)}{sp}{r[s]['value']}" for s in "ab")
    sides = [f"{names[s]}: {_modifiers(r[s]['terms'], lang)}" for s in "ab" if len(r[s]["terms"]) > 1]
    bracket = ""
    if sides:
        bracket = f" [modifiers, {'; '.join(sides)}]" if lang == "en" else f"［修正 {'／'.join(sides)}］"
    head = _ja(lang, f"{ORDINALS[d['select_no']]}セレクト [T-5/T-6/T-7]: ",
               f"{ORDINALS[d['select_no']]} select [T-5/T-6/T-7]: ")
    return f"{head}{stats}{bracket}{select_outcome(r, names, lang)}"


def select_opened_line(e: dict, state: State, lang: str) -> str:
    """T-5: a select's opening is told by its result's line; a select never resolved keeps its own."""
    d = e["data"]
    combat = combat_of(state, d["combat"])
    if d["select_no"] and combat and any(s["select_no"] == d["select_no"] for s in combat["selects"]):
        return ""
    return _d_select_opened(e, state, lang)


def select_revised_line(e: dict, state: State, lang: str) -> str:
    """T-6: a result computed again by a result skill after the confirm: the skill, then the select's one line."""
    name = (e["data"].get("use") or {}).get("name", "")
    return _ja(lang, f"リザルトのスキル〈{name}〉で再計算 [T-6]: ", f"Computed again with the result skill <{name}> [T-6]: ") \
        + select_line(e, state, lang)


EXPORT_LINES = {"grail.select_resolved": select_line, "grail.select_opened": select_opened_line,
                "grail.select_revised": select_revised_line}


def with_export_lines(events: tuple[EventType, ...]) -> tuple[EventType, ...]:
    """The event types with their write-up lines (export/report.py) where they differ from the log's."""
    return tuple(replace(e, export=EXPORT_LINES[e.name]) if e.name in EXPORT_LINES else e for e in events)
