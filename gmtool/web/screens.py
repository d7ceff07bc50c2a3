"""Template context for the three screens, always built from the viewer's filtered view."""

from __future__ import annotations

from datetime import datetime

from flask import current_app, g

from ..core.logtext import describe
from ..core.view import Viewer, build_view, visible_event
from ..runtime import LiveSession
from ..urls import join_url, table_url
from . import stylesheet_url
from .common import base_url, csrf_for, lang, qr_svg

LOG_LINES = 60


def clock(ts: str) -> str:
    """An event time as local HH:MM:SS."""
    try:
        return datetime.fromisoformat(ts).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return ts


def log_lines(live: LiveSession, viewer: Viewer, limit: int = LOG_LINES) -> list[dict]:
    """The latest log lines `viewer` may see, newest first."""
    lines = []
    for event in reversed(live.recent):
        visible = visible_event(event, live.state, viewer)
        if visible is None:
            continue
        lines.append({"seq": event.seq, "time": clock(event.ts), "type": event.type,
                      "text": describe(visible, live.state, lang()), "undone": visible["undone"]})
        if len(lines) >= limit:
            break
    return lines


def context(live: LiveSession, viewer: Viewer, token: str) -> dict:
    """What every screen's template gets."""
    g.rules = live.ruleset  # the answer_text filter words answers of the ruleset's prompt kinds
    with live.lock:
        view = build_view(live.state, viewer, live.version)
        log = log_lines(live, viewer)
    seats = {s["id"]: s for s in view["seats"]}
    return {"view": view, "log": log, "seats_by_id": seats, "csrf": csrf_for(token), "sid": view["session"]["id"],
            "viewer": viewer, "version": view["session"]["version"],
            "heartbeat": current_app.config["HEARTBEAT"],
            "ruleset_templates": live.ruleset.templates, "prompt_templates": {k.name: k.template for k in live.ruleset.prompt_kinds if k.template},
            "ruleset_css": stylesheet_url(live.ruleset),
            "counter_defs": {c["key"]: c for c in view["counters"]}}


def gm_extras(live: LiveSession) -> dict:
    """The GM console's join links and QR codes (GM only)."""
    sid = live.state.session_id
    joins = []
    for seat in live.state.seats.values():
        token = live.join_tokens.get(seat.id, "")
        url = join_url(base_url(), sid, token)
        joins.append({"id": seat.id, "name": seat.name, "faction": seat.faction, "url": url, "qr": qr_svg(url)})
    turl = table_url(base_url(), sid, live.table_token)
    return {"joins": joins, "table_url": turl, "table_qr": qr_svg(turl),
            "resolvers": live.ruleset.all_resolvers()}
