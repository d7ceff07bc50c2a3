"""From an event log to a Report: the structured write-up every export format renders.

Pure: it folds the events under the session's ruleset and builds every line and the standings
from the table's filtered view (core/view.py), so an unrevealed answer, a private counter or its
flag, or a GM-secret roll can only appear if the GM ticks secret rolls in. Undone actions and the
undo events themselves are left out: a write-up tells what stood.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from typing import Any

from ..core.engine import apply, fold
from ..core.errors import GmError
from ..core.logtext import describe, scene_title, who_name
from ..core.model import Event, State, text_in
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
    standings: str = "last"  # where the final standings go: "first" (after the header) or "last"


@dataclass
class Item:
    """One line of the story: a decision with its result and who gained what (one action)."""

    kind: str  # "line" | "roll" | "prompt"
    time: str
    text: str
    data: dict = field(default_factory=dict)
    action: int = 0  # the action it tells (counter changes of the same action join its line)


@dataclass
class Section:
    """A scene / round / combat (a heading of the write-up); level 2, or 3 under a session's heading."""

    title: str
    items: list[Item] = field(default_factory=list)
    level: int = 2


@dataclass
class Appendix:
    """The verification data of one revealed prompt: every answer with its salt and commitment."""

    title: str
    rows: list[list[str]]  # who, answer, salt, commitment


@dataclass
class Report:
    """Everything a renderer needs."""

    title: str
    lang: str
    meta: list[tuple[str, str]]
    sections: list[Section]
    standings_head: list[str]
    standings: list[list[str]]
    appendix: list[Appendix] = field(default_factory=list)
    verification: list[tuple[str, str]] = field(default_factory=list)  # seed hash, seed
    standings_first: bool = False
    standings_lines: list[str] = field(default_factory=list)  # under the standings table (a ruleset's result)


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


class Names:
    """The names option applied to what the log stored as text (DESIGN: every name in the body follows it).

    Live lines name seats through the state, so a state whose seats carry their faction names is enough
    for them; but a result's summary, a combat's side names and a ruleset's stored rows were written with
    the seat names of their time. `walk` rewrites those: a string that is a seat name (or seat names joined
    by ・, a side) becomes the shown name; inside a summary every seat name is replaced (a name made of
    ASCII letters or digits only where it stands as a word, so seat "A" leaves "Attack" alone).
    """

    def __init__(self, state: State, names: str):
        self.table = {s.name: s.faction for s in state.seats.values()
                      if names == "faction" and s.faction and s.faction != s.name and s.name}
        self.known = {s.name for s in state.seats.values()} | {s.faction for s in state.seats.values() if s.faction}
        words = sorted(self.table, key=len, reverse=True)
        self.pattern = re.compile("|".join(
            (r"(?<![A-Za-z0-9])" if w[0].isascii() and w[0].isalnum() else "") + re.escape(w)
            + (r"(?![A-Za-z0-9])" if w[-1].isascii() and w[-1].isalnum() else "") for w in words)) if words else None

    def sentence(self, text: str | dict) -> str | dict:
        """A stored sentence (or a {"ja", "en"} pair of them) with every seat name shown as the option wants."""
        if isinstance(text, dict):
            return {k: self.sentence(v) for k, v in text.items()}
        return self.pattern.sub(lambda m: self.table[m.group(0)], text) if self.pattern else text

    def exact(self, text: str) -> str:
        """A stored name (or side: names joined by ・) shown as the option wants; any other text unchanged."""
        if not self.table or not text:
            return text
        parts = text.split("・")
        if all(p in self.known for p in parts) and any(p in self.table for p in parts):
            return "・".join(self.table.get(p, p) for p in parts)
        return text

    def walk(self, value: Any, in_summary: bool = False) -> Any:
        """A copy of stored data (an event's, a resolution's) with its names shown as the option wants."""
        if not self.table:
            return value
        if isinstance(value, dict):
            return {k: self.walk(v, in_summary or k == "summary") for k, v in value.items()}
        if isinstance(value, list):
            return [self.walk(v, in_summary) for v in value]
        if isinstance(value, str):
            return self.sentence(value) if in_summary else self.exact(value)
        return value


def display_state(state: State, names: str) -> State:
    """A copy of the state whose seat names follow the names option, in the seats and in what the log
    stored as text (a combat's side names, a result's summary, a prompt's title)."""
    if names != "faction":
        return state
    renamer = Names(state, names)
    shown = copy.deepcopy(state)
    for seat in shown.seats.values():
        seat.name = seat.faction or seat.name
    shown.extra = renamer.walk(shown.extra)
    for prompt in shown.prompts.values():
        prompt.title = renamer.sentence(prompt.title)
        if prompt.resolution is not None:
            prompt.resolution = renamer.walk(prompt.resolution)
    return shown


def story_line(visible: dict, state: State, lang: str) -> str:
    """An event's line in a write-up: its type's export line if it declares one ("" leaves it out), else its
    log line."""
    declared = state.rules.event_type(visible["type"]) if state.rules is not None else None
    if declared is not None and declared.export is not None:
        return declared.export(visible, state, lang)
    return describe(visible, state, lang)


def fold_all(events: list[Event], rules: Any) -> State:
    """The final state of a log under the session's ruleset (undone actions skipped)."""
    undone = {int(e.data["action"]) for e in events if e.type == "undo"}
    return fold(events, rules, undone)


CONDENSED = ("prompt.opened", "prompt.answered", "prompt.locked", "prompt.resolved", "prompt.modified",
             "prompt.confirmed", "prompt.extended")  # told by the prompt's one line at its reveal
JOINED = ("counter.changed", "flag.raised", "flag.lowered")  # join the line of their action when it has one


def build_report(events: list[Event], rules: Any, options: Options = Options()) -> Report:
    """The write-up of a session's events: one line per decision, grouped by scene and round."""
    lang = options.lang
    final = fold_all(events, rules)
    shown_final = display_state(final, options.names)
    renamer = Names(final, options.names)
    viewer_for_rolls = GM if options.secret_rolls else TABLE
    own_kinds = {k.name for k in rules.prompt_kinds}  # the ruleset logs these decisions itself
    outcome = _prompt_outcomes(events, final, shown_final, lang, renamer)
    sections = [Section(L(lang, "開始", "Opening"))]
    appendix: list[Appendix] = []
    state = State(undone=set(final.undone), rules=rules)
    end_state: State | None = None  # standings are taken where the exported range ends
    for e in events:
        skipped = e.action in final.undone or e.type in ("undo", "session.created") + CONDENSED
        if (e.type == "scene.marked" and not skipped and options.scene is not None and end_state is None
                and len(sections) - 1 == options.scene):
            end_state = copy.deepcopy(state)
        apply(state, e)
        if skipped:
            continue
        if e.type == "scene.marked":
            sections.append(Section(renamer.sentence(text_in(scene_title(final, e.data["title"]), lang))))
            continue
        visible = visible_event(e, final, viewer_for_rolls if e.type == "dice.rolled" else TABLE)
        if visible is None:
            continue
        visible = {**visible, "data": renamer.walk(visible["data"])}
        section = sections[-1]
        time = _time(e.ts, options.utc_offset) if options.times else ""
        last = section.items[-1] if section.items and section.items[-1].action == e.action else None
        if last is not None and e.type in JOINED and (last.kind != "change" or e.type != "counter.changed"):
            last.text += _gain(visible, shown_final, lang)  # who gained what, on the line of its decision
            continue
        text = story_line(visible, shown_final, lang)
        if text == "":
            continue  # another line of the story tells this event (its type's export line says so)
        if e.type == "dice.rolled":
            roll = e.data["roll"]
            item = Item("roll", time, text, {
                "label": text_in(e.data.get("label", ""), lang), "who": _actor(e.actor, shown_final), "expr": roll["expr"],
                "text": roll["text"], "total": roll.get("total"), "choice": roll.get("choice"),
                "success": roll.get("success"), "secret": bool(roll.get("secret"))}, e.action)
        elif e.type == "prompt.revealed":
            prompt = final.prompts[e.data["prompt"]]
            rows = [[who_name(who, shown_final), _value(a.value, prompt, shown_final, lang), a.salt, a.commitment]
                    for who, a in prompt.answers.items()]
            appendix.append(Appendix(text_in(prompt.title, lang), rows))
            if prompt.kind in own_kinds:
                continue  # the ruleset's own lines tell this decision
            item = Item("prompt", time, outcome.get(prompt.id, text), {"title": text_in(prompt.title, lang)}, e.action)
        else:
            item = Item("change" if e.type in JOINED else "line", time, text, {}, e.action)
        if last is not None:  # one action, one line: a roll and the move it makes, a result and what follows
            last.text += " — " + item.text
            last.kind = "line" if last.kind == "change" else last.kind
        else:
            section.items.append(item)
    end_state = end_state or state
    if options.scene is not None:
        if not 0 <= options.scene < len(sections):
            raise GmError(f"シーン{options.scene}はありません", f"There is no scene {options.scene}")
        sections = [sections[options.scene]]
    else:
        sections = [s for s in sections if s.items or s is not sections[0]]
    head, rows, lines = final_standings(display_state(end_state, options.names), lang)
    meta = [(L(lang, "ルール", "Ruleset"), rules.label.get(lang)),
            (L(lang, "作成", "Created"), local_time(final.created, options.utc_offset)),
            (L(lang, "席", "Seats"), L(lang, "、", ", ").join(s.name for s in shown_final.seats.values()))]
    for key, ja, en in (("previous", "前回", "Previous session"), ("next", "次回", "Next session")):
        linked = final.campaign.get(key)
        if linked:
            meta.append((L(lang, ja, en), linked["title"]))
    verification = [(L(lang, "ダイスシードのSHA-256", "Dice seed SHA-256"), final.seed_hash)]
    if final.seed:
        verification.append((L(lang, "ダイスシード", "Dice seed"), final.seed))
    return Report(final.title, lang, meta, sections, head, rows, appendix, verification,
                  options.standings == "first", lines)


def _gain(visible: dict, state: State, lang: str) -> str:
    """Who gained what, joined to the line of the action that caused it: （セイバー: 令呪 3→2）."""
    d = visible["data"]
    name = state.seat_name(d["seat"])
    if visible["type"] == "counter.changed":
        definition = state.counter_def(d["key"])
        label = definition.label.get(lang) if definition else d["key"]
        return f"（{name}: {label} {d['from']}→{d['to']}）" if lang != "en" else f" ({name}: {label} {d['from']}→{d['to']})"
    label = pick(d["label"], lang)
    if visible["type"] == "flag.raised":
        return f"（{name}に{label}）" if lang != "en" else f" ({label} on {name})"
    return f"（{name}の{label}解除）" if lang != "en" else f" ({label} lifted from {name})"


def _prompt_outcomes(events: list[Event], final: State, state: State, lang: str, renamer: Names) -> dict[str, str]:
    """One line per revealed prompt: the answers, the modifiers in one bracket, and the result that stood
    (its last resolution the table may see)."""
    resolved: dict[str, dict] = {}
    for e in events:
        if e.type == "prompt.resolved" and e.action not in final.undone:
            visible = visible_event(e, final, TABLE)
            if visible is not None:
                resolved[e.data["prompt"]] = renamer.walk(visible["data"]["resolution"])
    out = {}
    for pid, prompt in state.prompts.items():
        if prompt.status not in ("revealed", "resolved") or not prompt.answers:
            continue
        comma = ", " if lang == "en" else "、"
        answers = comma.join(f"{who_name(who, state)} {_value(a.value, prompt, state, lang)}"
                             for who, a in prompt.answers.items())
        mods = comma.join(f"{who_name(m['who'], state)} {m['amount']:+d}"
                          + (f" <{m['label']}>" if lang == "en" else f"〈{m['label']}〉") for m in prompt.modifiers)
        title = text_in(prompt.title, lang)
        line = f"「{title}」: {answers}" if lang != "en" else f"'{title}': {answers}"
        if mods:
            line += f"［{L(lang, '修正', 'modifiers')}: {mods}］" if lang != "en" else f" [modifiers: {mods}]"
        if pid in resolved:
            line += f" → {pick(resolved[pid]['summary'], lang)}"
        out[pid] = line
    return out


def local_time(ts: str, offset: int) -> str:
    """A time as YYYY-MM-DD HH:MM in the caller's time zone."""
    try:
        return _shifted(ts, offset).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return ts


def _actor(actor: str, state: State) -> str:
    if actor == "gm":
        return "GM"
    return state.seat_name(actor[5:]) if actor.startswith("seat:") else actor


def _value(value, prompt, state: State, lang: str = "ja") -> str:
    names = {s: state.seat_name(s) for s in state.seats} if prompt.kind == "seat" else {}
    return answer_text(state.rules, prompt.kind, value, names, lang)


def without_empty_columns(head: list[str], rows: list[list[str]], keep: int = 1) -> tuple[list[str], list[list[str]]]:
    """A table without the columns that are empty in every row (the first `keep` columns always stay)."""
    kept = [i for i in range(len(head)) if i < keep or any(str(row[i]).strip() for row in rows)]
    return [head[i] for i in kept], [[row[i] for i in kept] for row in rows]


def own_standings(state: State, lang: str) -> tuple[list[str], list[list[str]], list[str]] | None:
    """The ruleset's own final table and lines (its `standings` hook, given the table's view), or None."""
    hook = state.rules.standings if state.rules is not None else None
    own = hook(build_view(state, TABLE), lang) if hook is not None else None
    if own is None:
        return None
    head, rows, lines = own
    return head, rows, list(lines)


def result_lines(state: State, lang: str) -> list[str]:
    """The lines a ruleset that keeps core's table puts under it (its `standings_lines` hook: the game's result)."""
    hook = state.rules.standings_lines if state.rules is not None else None
    return list(hook(build_view(state, TABLE), lang)) if hook is not None else []


def final_standings(state: State, lang: str) -> tuple[list[str], list[list[str]], list[str]]:
    """The final part of a write-up, from the table's view of `state`: the ruleset's own table and lines, or every
    seat's public counters and flags with the ruleset's lines under them (its result)."""
    own = own_standings(state, lang)
    return own if own is not None else (*_standings(build_view(state, TABLE), lang), result_lines(state, lang))


def _standings(view: dict, lang: str) -> tuple[list[str], list[list[str]]]:
    """The standings table: every seat's counters and flags as the view shows them (public ones only)."""
    public = [c for c in view["counters"] if c["public"]]
    head = [L(lang, "席", "Seat")] + [pick(c["label"], lang) for c in public] + [L(lang, "状態", "Flags")]
    rows = []
    for seat in view["seats"]:
        flags = L(lang, "、", ", ").join(pick(f["label"], lang) for f in seat["flags"])
        rows.append([seat["name"]] + [str(seat["counters"].get(c["key"], "")) for c in public] + [flags])
    return without_empty_columns(head, rows)
