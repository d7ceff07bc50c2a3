"""Turning what a GM types (form, command line, JSON) into seats and counters for a new session."""

from __future__ import annotations

import re
from typing import Any

from .core.errors import GmError
from .core.model import CounterDef, Label
from .core.ruleset import Ruleset


def parse_seat(text: Any) -> dict:
    """A seat from 'name' or 'name / faction' (or a {"name", "faction"} object)."""
    if isinstance(text, dict):
        return {"name": str(text.get("name", "")).strip(), "faction": str(text.get("faction", "") or "").strip()}
    name, _, faction = str(text).partition("/")
    return {"name": name.strip(), "faction": faction.strip()}


def parse_seats(lines: Any) -> list[dict]:
    """Seats from a list or from text with one seat per line."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    if not isinstance(lines, list):
        raise GmError("席はリストで指定してください", "Seats must be a list")
    return [parse_seat(line) for line in lines if (line.strip() if isinstance(line, str) else line)]


def _int_or_none(value: Any, what: str) -> int | None:
    if value is None or str(value).strip() == "":
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise GmError(f"カウンターの{what}は整数で入力してください（「{value}」）",
                      f"The counter's {what} must be a whole number (got '{value}')") from None


def custom_counter(spec: Any, index: int) -> CounterDef:
    """A counter from 'name,start,min,max' or a {"label"/"name", "start", "min", "max", "public"} object."""
    if isinstance(spec, str):
        parts = [p.strip() for p in re.split(r"[,、，]", spec)]
        spec = dict(zip(("name", "start", "min", "max"), parts))
    if not isinstance(spec, dict):
        raise GmError("カウンターの指定が正しくありません", "Invalid counter specification")
    name = str(spec.get("name") or spec.get("label") or "").strip()
    if isinstance(spec.get("label"), dict):
        label = Label(str(spec["label"].get("ja", "")), str(spec["label"].get("en", "") or spec["label"].get("ja", "")))
    else:
        label = Label(name, name)
    if not label.ja or len(label.ja) > 20:
        raise GmError("カウンター名は1〜20文字です", "A counter name must be 1 to 20 characters")
    start = _int_or_none(spec.get("start"), "初期値") or 0
    lo = _int_or_none(spec.get("min"), "最小値") if "min" in spec else 0
    hi = _int_or_none(spec.get("max"), "最大値")
    key = str(spec.get("key") or f"c{index}")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,24}", key):
        raise GmError("カウンターのキーは英数字・_・- の24文字以内です", "A counter key is 1 to 24 letters, digits, _ or -")
    counter = CounterDef(key, label, start=start, min=lo, max=hi, public=bool(spec.get("public", True)))
    if not counter.is_in_range(start):
        raise GmError(f"「{label.ja}」の初期値が範囲外です", f"The start value of '{label.en}' is outside its bounds")
    return counter


def counters_for(ruleset: Ruleset, specs: list | None, private: list | None = None) -> list[CounterDef] | None:
    """The session's counters: preset keys or custom specs (None: the ruleset's defaults)."""
    if specs is None:
        return None
    if not ruleset.custom_counters:
        raise GmError("このルールのカウンターは決まっています", "This ruleset defines its own counters")
    private = set(private or [])
    out: list[CounterDef] = []
    for i, spec in enumerate(specs):
        preset = ruleset.preset(spec) if isinstance(spec, str) else None
        counter = preset or custom_counter(spec, i + 1)
        if counter.key in private:
            counter = CounterDef(counter.key, counter.label, counter.start, counter.min, counter.max, False,
                                 counter.thresholds)
        if any(c.key == counter.key for c in out):
            raise GmError(f"カウンター「{counter.label.ja}」が重複しています", f"Counter '{counter.label.en}' is listed twice")
        out.append(counter)
    return out
