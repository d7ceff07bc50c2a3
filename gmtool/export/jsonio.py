"""The JSON export: the event log with a schema version, re-importable by `gmtool import`.

Two kinds: the default *public* export holds what the table may see (unrevealed answers
without value and salt, no GM-secret rolls unless ticked in); a *full* backup (GM only)
holds every event and the session's secrets, and restores an identical session.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..core.errors import GmError
from ..core.model import Event
from ..core.view import GM, TABLE, visible_event
from .report import Options, fold_all

SCHEMA = "gmtool.export/1"


def export_json(events: list[Event], rules: Any, options: Options = Options(), secrets: dict | None = None) -> str:
    """The JSON export (full when `secrets` is given)."""
    final = fold_all(events, rules)
    if secrets is not None:
        out_events = [e.to_dict() for e in events]
    else:
        out_events = []
        for e in events:
            viewer = GM if (options.secret_rolls and e.type == "dice.rolled") else TABLE
            visible = visible_event(e, final, viewer)
            if visible is not None:
                visible.pop("undone", None)
                out_events.append(visible)
    doc = {"schema": SCHEMA, "full": secrets is not None,
           "session": {"id": final.session_id, "title": final.title, "ruleset": final.ruleset,
                       "created": final.created, "seed_hash": final.seed_hash, "seed": final.seed},
           "events": out_events}
    if secrets is not None:
        doc["secrets"] = secrets
    return json.dumps(doc, ensure_ascii=False, indent=1)


def parse_export(text: str, rules_named: Callable[[str], Any]) -> tuple[dict, list[Event], dict | None]:
    """(session header, events, secrets or None) from a JSON export, or a readable error.

    `rules_named(name)` is the ruleset registry's lookup (it raises GmError for an unknown one).
    """
    try:
        doc = json.loads(text)
    except ValueError:
        raise GmError("JSONとして読めません", "Not valid JSON") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise GmError(f"gmtoolのJSONエクスポート（{SCHEMA}）ではありません", f"Not a gmtool JSON export ({SCHEMA})")
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
    secrets = doc.get("secrets") if doc.get("full") else None
    if doc.get("full") and not _valid_secrets(secrets):
        raise GmError("完全バックアップに秘密情報がありません", "A full backup must contain its secrets")
    try:  # an import is written to disk before it is loaded: a log that does not fold must stop here
        fold_all(events, rules_named(str(events[0].data.get("ruleset", ""))))
    except GmError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise GmError("イベントを読み込めません（壊れたエクスポートです）",
                      "The events cannot be replayed (a damaged export)") from None
    return doc.get("session") or {}, events, secrets


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
