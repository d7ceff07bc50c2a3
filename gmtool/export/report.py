"""From an event log to a Report: the structured write-up every export format renders.

Pure: it folds the events under the session's ruleset and builds every line and the standings
from the table's filtered view (core/view.py), so an unrevealed answer, a private counter or its
flag, or a GM-secret roll can only appear if the GM ticks secret rolls in. Undone actions and the
undo events themselves are left out: a write-up tells what stood.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from typing import Any

from ..core.engine import apply, fold
from ..core.errors import GmError
from ..core.logtext import describe, who_name
from ..core.model import Event, State
from ..core.prompts import answer_text
from ..core.view import GM, TABLE, build_view, visible_event
from ..i18n import pick

FORMAT_NAMES = ("markdown", "mediawiki", "atwiki", "text", "html", "json")


@dataclass(frozen=True)
class Options:
    """What to export and how."""

    lang: str = "ja"
    times: bool = True
    names: str = "player"  # "player": seat names; "faction": faction names (seat name if none)
    scene: int | None = None  # None: the whole session; 0: before the first scene marker; N: scene N
    secret_rolls: bool = False  # the GM ticks GM-secret rolls in
    utc_offset: int = 0  # minutes east of UTC that times are shown in (the caller's local time zone)


@dataclass
class Item:
    """One entry of a section: a log line, a roll, or a revealed prompt with its result."""

    kind: str  # "line" | "roll" | "prompt"
    time: str
    text: str
    data: dict = field(default_factory=dict)


@dataclass
class Section:
    """A scene / round / combat (a heading of the write-up)."""

    title: str
    items: list[Item] = field(default_factory=list)


@dataclass
class Report:
    """Everything a renderer needs."""

    title: str
    lang: str
    meta: list[tuple[str, str]]
    sections: list[Section]
    standings_head: list[str]
    standings: list[list[str]]


def L(lang: str, ja: str, en: str) -> str:
    """A label in the report's language."""
    return en if lang == "en" else ja


def _shifted(ts: str, offset: int) -> datetime:
    return datetime.fromisoformat(ts).astimezone(timezone(timedelta(minutes=offset)))


def _time(ts: str, offset: int) -> str:
    try:
        return _shifted(ts, offset).strftime("%H:%M")
    except ValueError:
        return ""


def _display_state(state: State, names: str) -> State:
    """A copy of the state whose seat names follow the names option."""
    if names != "faction":
        return state
    shown = copy.deepcopy(state)
    for seat in shown.seats.values():
        seat.name = seat.faction or seat.name
    return shown


def fold_all(events: list[Event], rules: Any) -> State:
    """The final state of a log under the session's ruleset (undone actions skipped)."""
    undone = {int(e.data["action"]) for e in events if e.type == "undo"}
    return fold(events, rules, undone)


def build_report(events: list[Event], rules: Any, options: Options = Options()) -> Report:
    """The write-up of a session's events."""
    lang = options.lang
    final = fold_all(events, rules)
    shown_final = _display_state(final, options.names)
    viewer_for_rolls = GM if options.secret_rolls else TABLE
    sections = [Section(L(lang, "開始", "Opening"))]
    state = State(undone=set(final.undone), rules=rules)
    end_state: State | None = None  # standings are taken where the exported range ends
    for e in events:
        skipped = e.action in final.undone or e.type in ("undo", "session.created")
        if (e.type == "scene.marked" and not skipped and options.scene is not None and end_state is None
                and len(sections) - 1 == options.scene):
            end_state = copy.deepcopy(state)
        apply(state, e)
        if skipped:
            continue
        if e.type == "scene.marked":
            sections.append(Section(e.data["title"]))
            continue
        visible = visible_event(e, final, viewer_for_rolls if e.type == "dice.rolled" else TABLE)
        if visible is None:
            continue
        section = sections[-1]
        time = _time(e.ts, options.utc_offset) if options.times else ""
        text = describe(visible, shown_final, lang)
        if e.type == "dice.rolled":
            roll = e.data["roll"]
            section.items.append(Item("roll", time, text, {
                "label": e.data.get("label", ""), "who": _actor(e.actor, shown_final), "expr": roll["expr"],
                "text": roll["text"], "total": roll.get("total"), "choice": roll.get("choice"),
                "success": roll.get("success"), "secret": bool(roll.get("secret"))}))
        elif e.type == "prompt.revealed":
            prompt = final.prompts[e.data["prompt"]]
            rows = [[who_name(who, shown_final), _value(a.value, prompt, shown_final), a.salt, a.commitment]
                    for who, a in prompt.answers.items()]
            section.items.append(Item("prompt", time, text, {"title": prompt.title, "answers": rows}))
        elif e.type == "prompt.resolved":
            section.items.append(Item("prompt", time, text, {
                "title": final.prompts[e.data["prompt"]].title,
                "resolution": _resolution_rows(e.data["resolution"], final.prompts[e.data["prompt"]], shown_final,
                                               lang)}))
        elif e.type != "prompt.answered":  # answers appear with their reveal, never before
            section.items.append(Item("line", time, text))
    end_state = end_state or state
    if options.scene is not None:
        if not 0 <= options.scene < len(sections):
            raise GmError(f"シーン{options.scene}はありません", f"There is no scene {options.scene}")
        sections = [sections[options.scene]]
    else:
        sections = [s for s in sections if s.items or s is not sections[0]]
    head, rows = _standings(build_view(_display_state(end_state, options.names), TABLE), lang)
    meta = [(L(lang, "ルール", "Ruleset"), rules.label.get(lang)),
            (L(lang, "作成", "Created"), _local(final.created, options.utc_offset)),
            (L(lang, "席", "Seats"), "、".join(s.name for s in shown_final.seats.values())),
            (L(lang, "ダイスシードのSHA-256", "Dice seed SHA-256"), final.seed_hash)]
    if final.seed:
        meta.append((L(lang, "ダイスシード", "Dice seed"), final.seed))
    return Report(final.title, lang, meta, sections, head, rows)


def _local(ts: str, offset: int) -> str:
    """A time as YYYY-MM-DD HH:MM in the caller's time zone."""
    try:
        return _shifted(ts, offset).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return ts


def _actor(actor: str, state: State) -> str:
    if actor == "gm":
        return "GM"
    return state.seat_name(actor[5:]) if actor.startswith("seat:") else actor


def _value(value, prompt, state: State) -> str:
    names = {s: state.seat_name(s) for s in state.seats} if prompt.kind == "seat" else {}
    return answer_text(state.rules, prompt.kind, value, names)


def _resolution_rows(resolution: dict, prompt, state: State, lang: str) -> dict:
    """A resolution as a summary and table rows (every term with its rule); seat answers and vote
    options are shown by the seats' display names, like the answers table."""
    rows = []
    for row in resolution.get("rows", []):
        terms = " ".join(f"{pick(t['label'], lang)} {t['value']:+}" if i else f"{pick(t['label'], lang)} {t['value']}"
                         for i, t in enumerate(row.get("terms", [])))
        if "kept" in row:
            kept = L(lang, "採用", "kept") if row["kept"] else L(lang, "脇に置く", "set aside")
            terms = f"{_value(row['value'], prompt, state)} — {kept}"
        total = "" if row.get("total") is None else str(row["total"])
        rows.append([who_name(row["who"], state), terms or _value(row.get("value", ""), prompt, state), total])
    counts = [[_value(c["option"], prompt, state) if "option" in c else c["name"], str(c["votes"])]
              for c in resolution.get("counts", [])]
    notes = [n["en" if lang == "en" else "ja"] for n in resolution.get("notes", [])]
    return {"summary": resolution["summary"]["en" if lang == "en" else "ja"], "rows": rows, "counts": counts,
            "notes": notes}


def _standings(view: dict, lang: str) -> tuple[list[str], list[list[str]]]:
    """The standings table: every seat's counters and flags as the view shows them (public ones only)."""
    public = [c for c in view["counters"] if c["public"]]
    head = [L(lang, "席", "Seat")] + [pick(c["label"], lang) for c in public] + [L(lang, "状態", "Flags")]
    rows = []
    for seat in view["seats"]:
        flags = "、".join(pick(f["label"], lang) for f in seat["flags"])
        rows.append([seat["name"]] + [str(seat["counters"].get(c["key"], "")) for c in public] + [flags])
    return head, rows
