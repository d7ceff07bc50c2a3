"""Turning what a GM types (form, command line, JSON) into seats and counters for a new session."""

from __future__ import annotations

import re
from typing import Any

from .core.commands import clean_text, new_seat, parse_flag, parse_int
from .core.engine import is_key
from .core.errors import GmError
from .core.model import CounterDef, Label, Threshold
from .core.ruleset import Ruleset
from . import limits


def parse_seat(text: Any) -> dict:
    """A seat from 'name' or 'name / faction' (or a {"name", "faction"} object)."""
    if isinstance(text, dict):  # checked as text when the seat is made (commands.new_seat)
        return {"name": text.get("name"), "faction": text.get("faction") or ""}
    if not isinstance(text, str):
        return {"name": text, "faction": ""}
    name, _, faction = text.partition("/")
    return {"name": name.strip(), "faction": faction.strip()}


def parse_seats(lines: Any) -> list[dict]:
    """Seats from a list or from text with one seat per line. Text is what a GM types in a form (the home page's
    seats field): a seat it cannot make is refused naming its line as typed (「席の2行目「/ 衛宮」：…」), since the
    form's order of a line's two parts depends on the game (its seat guidance, `<name>.form_seats`)."""
    if isinstance(lines, str):
        return [_seat_line(n, line) for n, line in enumerate(lines.splitlines(), start=1) if line.strip()]
    if not isinstance(lines, list):
        raise GmError("席はリストで指定してください", "Seats must be a list")
    return [parse_seat(line) for line in lines if (line.strip() if isinstance(line, str) else line)]


def _seat_line(n: int, line: str) -> dict:
    """Line `n` of a seats field as a seat, checked as the seat will be made (commands.new_seat): its refusal names
    the line and quotes it."""
    seat = parse_seat(line)
    try:
        new_seat("s0", seat["name"], seat["faction"])
    except GmError as e:
        raise GmError(f"席の{n}行目「{line.strip()}」：{e.ja}", f"Seats, line {n} '{line.strip()}': {e.en}",
                      e.status) from None
    return seat


def _int_or_none(value: Any, what_ja: str, what_en: str) -> int | None:
    """A counter's whole number (start, min, max, a flag's value); empty: None."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return parse_int(value, f"カウンターの{what_ja}", f"counter's {what_en}")


def _label(value: Any, what_ja: str, what_en: str) -> Label:
    """A counter's or flag's name: a text, or {"ja", "en"} texts (English defaults to the Japanese); anything else
    (a list, true) is refused as not text. Its length is checked by the caller."""
    def text(v: Any) -> str:
        return clean_text(v, what_ja, what_en, limit=limits.MAX_TEXT, required=False)
    if isinstance(value, dict):
        ja = text(value.get("ja"))
        return Label(ja, text(value.get("en")) or ja)
    return Label(text(value), text(value))


THRESHOLD_TEXT = re.compile(r"^(?P<label>[^<>=]{1,20})(?P<op>>=|<=|≥|≤)(?P<at>[-+]?\d+)$")


def threshold(spec: Any, key: str, n: int) -> Threshold:
    """A flag from '討伐令>=9' / '瀕死<=3' or {"at", "label", "below"}: raised while the value is at
    or above `at` (at or below with `below`)."""
    if isinstance(spec, str):
        match = THRESHOLD_TEXT.match(spec.replace(" ", ""))
        if not match:
            raise GmError(f"フラグ「{spec}」を読めません（例: 討伐令>=9、瀕死<=3）",
                          f"Cannot read the flag '{spec}' (e.g. 討伐令>=9, 瀕死<=3)")
        spec = {"label": match["label"], "at": match["at"], "below": match["op"] in ("<=", "≤")}
    if not isinstance(spec, dict) or _int_or_none(spec.get("at"), "フラグの値", "flag value") is None:
        raise GmError("フラグは値と名前で指定します", "A flag is {\"at\": number, \"label\": name}")
    label = _label(spec.get("label"), "フラグの名前", "flag name")
    if not 1 <= len(label.ja) <= 20 or len(label.en) > 20:
        raise GmError("フラグの名前は1〜20文字です", "A flag's name must be 1 to 20 characters")
    return Threshold(_int_or_none(spec["at"], "フラグの値", "flag value"), f"{key}_{n}", label, "",
                     parse_flag(spec.get("below"), "フラグの「以下」指定", "below"))


def custom_counter(spec: Any, index: int) -> CounterDef:
    """A counter from 'name,start,min,max[,flag>=N …]' or a {"label"/"name", "start", "min", "max",
    "public", "thresholds"} object."""
    if isinstance(spec, str):
        parts = [p.strip() for p in re.split(r"[,、，]", spec)]
        spec = {**dict(zip(("name", "start", "min", "max"), parts)), "thresholds": [p for p in parts[4:] if p]}
    if not isinstance(spec, dict):
        raise GmError("カウンターの指定が正しくありません", "Invalid counter specification")
    named = spec.get("label") if isinstance(spec.get("label"), dict) else spec.get("name") or spec.get("label")
    label = _label(named, "カウンター名", "counter name")
    if not label.ja or len(label.ja) > 20 or len(label.en) > 20:
        raise GmError("カウンター名は1〜20文字です", "A counter name must be 1 to 20 characters")
    start = _int_or_none(spec.get("start"), "初期値", "start value") or 0
    lo = _int_or_none(spec.get("min"), "最小値", "minimum") if "min" in spec else 0
    hi = _int_or_none(spec.get("max"), "最大値", "maximum")
    key = spec.get("key", f"c{index}")  # given, it must be text as it is: not 5, null or ["x"] made "5", "None"
    if not is_key(key):
        raise GmError("カウンターのキーは英数字・_・- の24文字以内です", "A counter key is 1 to 24 letters, digits, _ or -")
    flags = spec.get("thresholds") or []
    if not isinstance(flags, list) or len(flags) > 4:
        raise GmError("フラグは4つまでのリストです", "'thresholds' must be a list of at most 4")
    counter = CounterDef(key, label, start=start, min=lo, max=hi, public=parse_flag(spec.get("public", True), "カウンターの公開", "public"),
                         thresholds=tuple(threshold(f, key, n + 1) for n, f in enumerate(flags)))
    if not counter.is_in_range(start):
        raise GmError(f"「{label.ja}」の初期値が範囲外です", f"The start value of '{label.en}' is outside its bounds")
    return counter


def counters_for(ruleset: Ruleset, specs: list | None, private: Any = None) -> list[CounterDef] | None:
    """The session's counters: preset keys or custom specs (None: the ruleset's defaults), those whose keys are
    listed in `private` made private (only their seat and the GM see them), the defaults' too. A `private` that is
    not a list of keys, or names a counter the session will not have, is refused: a counter the GM meant to hide
    must never be shown because of a typo."""
    if private is not None and not (isinstance(private, list) and all(isinstance(k, str) for k in private)):
        raise GmError("非公開にするカウンターはキーのリストで指定してください", "'private' must be a list of counter keys")
    private = set(private or [])
    if specs is None and not private:
        return None
    if not ruleset.custom_counters:
        raise GmError("このルールのカウンターは決まっています", "This ruleset defines its own counters")
    out: list[CounterDef] = []
    for i, spec in enumerate(ruleset.default_counters() if specs is None else specs):
        if isinstance(spec, CounterDef):
            counter = spec
        else:
            counter = (ruleset.preset(spec) if isinstance(spec, str) else None) or custom_counter(spec, i + 1)
        if counter.key in private:
            counter = CounterDef(counter.key, counter.label, counter.start, counter.min, counter.max, False,
                                 counter.thresholds)
        if any(c.key == counter.key for c in out):
            raise GmError(f"カウンター「{counter.label.ja}」が重複しています", f"Counter '{counter.label.en}' is listed twice")
        out.append(counter)
    unknown = sorted(private - {c.key for c in out})
    if unknown:
        raise GmError(f"非公開にするカウンター「{unknown[0]}」はこのセッションにありません",
                      f"'private' names a counter this session does not have: '{unknown[0]}'")
    return out
