"""The JSON export: the event log with a schema version, re-importable by `gmtool import`.

Two kinds: the default *public* export holds what the table may see (unrevealed answers
without value and salt, no GM-secret rolls unless ticked in); a *full* backup (GM only)
holds every event and the session's secrets, and restores an identical session.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from .. import limits
from ..core import engine
from ..core.dice import MAX_NUMBER as MAX_ROLL_NUMBER
from ..core.errors import GmError
from ..core.engine import is_key
from ..core.model import Event, State, Viewer
from ..core.view import GM, TABLE, build_view, visible_event
from ..i18n import STRINGS
from .report import Options, fold_all

SCHEMA = "gmtool.export/1"


def export_json(events: list[Event], rules: Any, options: Options = Options(), secrets: dict | None = None,
                refused: Iterable[int] = (), partial: dict | None = None) -> str:
    """The JSON export (full when `secrets` is given: then with `refused`, the actions whose undo was refused, which
    the table never sees; `partial`: where the readable part of a damaged session stopped, runtime.readable_part)."""
    final = fold_all(events, rules)
    if secrets is not None:
        out_events = [e.to_dict() for e in events]
    else:
        out_events, actions = [], {}
        for e in events:
            actions.setdefault(e.action, []).append(e)
        for e in events:
            viewer = GM if (options.secret_rolls and e.type == "dice.rolled") else TABLE
            visible = visible_event(e, final, viewer, lambda action: actions.get(action, []))
            if visible is not None:
                visible.pop("undone", None)
                out_events.append(visible)
    doc = {"schema": SCHEMA, "full": secrets is not None, **({"partial": partial} if partial is not None else {}),
           "session": {"id": final.session_id, "title": final.title, "ruleset": final.ruleset,
                       "created": final.created, "seed_hash": final.seed_hash, "seed": final.seed},
           "events": out_events}
    hook = final.rules.standings_data
    standings = hook(build_view(final, TABLE)) if hook is not None else None
    if standings is not None:  # a ruleset's final standings as data (numbers, not a write-up's words)
        doc["standings"] = standings
    if secrets is not None:
        doc["secrets"] = secrets
        doc["undo_refused"] = sorted(refused)  # restored by an import: the backup offers the undos the session does
    return json.dumps(doc, ensure_ascii=False, indent=1)


MAX_SEQ = 10**12            # seq and action numbers of an imported event
MAX_IMPORT_TEXT = 100_000   # characters of one text value in an import
MAX_IMPORT_ITEMS = 100_000  # items of one list (the events) in an import
MAX_IMPORT_NUMBER = MAX_ROLL_NUMBER  # magnitude of any number in an import, 10**12 (dice indexes grow over a
# session; a roll's numbers are held to it when it is made, so every export imports)


def parse_export(text: str, rules_named: Callable[[str], Any]) -> tuple[dict, list[Event], dict | None, set[int]]:
    """(session header, events, secrets or None, the actions whose undo was refused) from a JSON export, or a readable
    error (GmError 400). Only a full backup carries refused undos (the table never sees them).

    `rules_named(name)` is the ruleset registry's lookup (it raises GmError for an unknown one).
    """
    if not isinstance(text, str):
        raise GmError("JSONとして読めません", "Not valid JSON")
    try:
        doc = limits.loads(text, max_depth=limits.MAX_IMPORT_DEPTH)
    except limits.NotJson:
        raise GmError("JSONとして読めません", "Not valid JSON") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise GmError(f"gmtoolのJSONエクスポート（{SCHEMA}）ではありません", f"Not a gmtool JSON export ({SCHEMA})")
    limits.check_value(doc, max_depth=limits.MAX_IMPORT_DEPTH, max_text=MAX_IMPORT_TEXT,
                       max_items=MAX_IMPORT_ITEMS, max_number=MAX_IMPORT_NUMBER)
    try:
        events = [Event(int(e["seq"]), str(e["ts"]), str(e["actor"]), int(e["action"]), str(e["type"]),
                        dict(e["data"])) for e in doc["events"]]
    except (KeyError, TypeError, ValueError):
        raise GmError("イベントの形式が正しくありません", "The events are malformed") from None
    if not events or events[0].type != "session.created":
        raise GmError("最初のイベントがセッション作成ではありません", "The first event must be session.created")
    seqs = [e.seq for e in events]
    if seqs != sorted(set(seqs)):
        raise GmError("イベントの順序が正しくありません", "The events are out of order")
    if not all(1 <= e.seq <= MAX_SEQ and 1 <= e.action <= MAX_SEQ for e in events):
        raise GmError(f"イベント番号は1〜{MAX_SEQ}です", f"Event and action numbers must be 1 to {MAX_SEQ}")
    _check_created(events[0].data)
    secrets = doc.get("secrets") if doc.get("full") else None
    if doc.get("full") and not _valid_secrets(secrets):
        raise GmError("完全バックアップに秘密情報がありません", "A full backup must contain its secrets")
    refused = doc.get("undo_refused", []) if doc.get("full") else []
    actions = {e.action for e in events}
    if not isinstance(refused, list) or not all(_is_int(a) and a in actions for a in refused):
        raise GmError("undo_refused（取り消せなかった操作）はこのログの操作番号のリストです",
                      "'undo_refused' must list action numbers of this log")
    try:
        rules = rules_named(str(events[0].data.get("ruleset", "")))
    except GmError as e:
        raise GmError(f"読み込めません: {e.ja}", f"Cannot import: {e.en}") from None
    final = replay(events, rules)  # an import is written to disk before it is loaded: a log that does not fold must stop here
    _check_seat_counts(rules, len(events[0].data["seats"]), len(final.seats))
    return doc.get("session") or {}, events, secrets, set(refused)


REPLAYED = ("イベントを読み込めません", "The events cannot be replayed")  # what an import refused says first
SHOWN = ("読み込んだセッションを表示できません", "The imported session cannot be shown")


@contextmanager
def blamed(part: tuple[str, str], lead: tuple[str, str] = REPLAYED) -> Iterator[None]:
    """Any failure inside refuses an import (400), naming the `part` of it that failed (docs/api.md §14):
    「イベントを読み込めません（壊れたエクスポートです: イベント番号12）」 / "The events cannot be replayed (a damaged
    export: event 12 [prompt.opened])"; a GmError's own words follow the part."""
    try:
        yield
    except Exception as e:  # noqa: BLE001  any failure of a foreign log is the file's fault
        why = (f": {e.ja}", f": {e.en}") if isinstance(e, GmError) else ("", "")
        raise GmError(f"{lead[0]}（壊れたエクスポートです: {part[0]}{why[0]}）",
                      f"{lead[1]} (a damaged export: {part[1]}{why[1]})") from None


def event_part(event: Event) -> tuple[str, str]:
    """An event of an import as a refusal names it: by its number (`seq`), the English with its type."""
    return f"イベント番号{event.seq}", f"event {event.seq} [{event.type}]"


def screen_part(state: State, viewer: Viewer) -> tuple[str, str]:
    """One viewer's screen (or view) of an import as a refusal names it: the GM's, the table's, a seat's by name."""
    if viewer.is_gm:
        return "GMの画面", "the GM's screen"
    if viewer.kind == "table":
        return "卓の画面", "the table screen"
    name = state.seat_name(viewer.seat)
    return f"{name}の画面", f"the screen of {name}"


def format_part(fmt: str) -> tuple[str, str]:
    """An export format of an import as a refusal names it: 「Markdownの書き出し」 / "the Markdown export"."""
    ja, en = STRINGS[f"export.fmt.{fmt}"]
    return f"{ja}の書き出し", f"the {en} export"


def replay(events: list[Event], rules: Any) -> State:
    """The final state of an imported log (undone actions skipped, as fold_all), or a 400 naming the first event
    that does not fold."""
    undone = set()
    for event in events:
        if event.type == "undo":
            with blamed(event_part(event)):
                undone.add(int(event.data["action"]))
    state = State(rules=rules)
    state.undone.update(undone)
    for event in events:
        with blamed(event_part(event)):
            # undone or not: an event no part of this game writes (neither core nor the session's ruleset) is not of
            # its log; an undone one is not folded, so the fold alone would let it in (shown to the GM alone)
            if rules.event_type(rules.upcast(event).type) is None:
                raise GmError("このゲームにない種類のイベントです", "an event type this game does not have")
            engine.apply(state, event)
    return state


def _check_created(data: dict) -> None:
    """The first event holds what session creation validates: title, seats, counter keys."""
    from ..core.commands import MAX_SEATS, clean_text, new_seat
    try:
        clean_text(data.get("title", ""), "タイトル", "title", limit=80)
        seats = data.get("seats", [])
        counters = data.get("counters", [])
        if not isinstance(seats, list) or len(seats) > MAX_SEATS or not isinstance(counters, list):
            raise GmError(f"席は{MAX_SEATS}までです", f"At most {MAX_SEATS} seats")
        for seat in seats:
            new_seat(str(seat["id"]), seat["name"], seat.get("faction", ""))
            if not is_key(seat["id"]):  # text: a seat's link and its phone find it by its id as text
                raise GmError("席のIDが正しくありません", "A seat id is malformed")
        for counter in counters:
            if not is_key(counter["key"]):
                raise GmError("カウンターのキーは英数字・_・- の24文字以内です",
                              "A counter key is 1 to 24 letters, digits, _ or -")
            if not _is_counter(counter):
                raise GmError(f"カウンター「{counter['key']}」の定義が正しくありません",
                              f"The counter '{counter['key']}' is malformed")
    except GmError as e:
        raise GmError(f"セッション作成イベントが正しくありません: {e.ja}", f"The session.created event is invalid: {e.en}") \
            from None
    except (KeyError, TypeError, AttributeError):
        raise GmError("セッション作成イベントが正しくありません", "The session.created event is invalid") from None


def _check_seat_counts(rules: Any, created: int, final: int) -> None:
    """A game's seat limits (Ruleset.seats) hold for an import as for a new session (commands.check_seat_count):
    the seats it was created with and the seats it ends with (seats are only added, each checked when added), else
    400 naming the count: 「読み込めません: 聖杯サクセションは2席で遊びます（3席になります）」."""
    from ..core.commands import check_seat_count
    for count in (created, final):
        try:
            check_seat_count(rules, count)
        except GmError as e:
            raise GmError(f"読み込めません: {e.ja}", f"Cannot import: {e.en}") from None


def _is_label(value) -> bool:
    return isinstance(value, dict) and isinstance(value.get("ja"), str) and isinstance(value.get("en"), str)


def _is_int(value, optional: bool = False) -> bool:
    return (value is None and optional) or (isinstance(value, int) and not isinstance(value, bool))


def _is_counter(c: dict) -> bool:
    """A counter definition with the types CounterDef.to_dict writes (label texts, whole numbers, flags)."""
    thresholds = c.get("thresholds", [])
    return (_is_label(c.get("label")) and _is_int(c.get("start", 0)) and _is_int(c.get("min"), True)
            and _is_int(c.get("max"), True) and isinstance(c.get("public", True), bool)
            and isinstance(thresholds, list)
            and all(isinstance(t, dict) and _is_int(t.get("at")) and isinstance(t.get("flag"), str)
                    and _is_label(t.get("label")) and isinstance(t.get("rule", ""), str)
                    and isinstance(t.get("below", False), bool) for t in thresholds))


def _valid_secrets(secrets) -> bool:
    """A full backup's secrets: text keys and values, with the dice seed in hex."""
    if not isinstance(secrets, dict):
        return False
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in secrets.items()):
        return False
    try:
        return bool(bytes.fromhex(secrets.get("seed", "")))
    except ValueError:
        return False
