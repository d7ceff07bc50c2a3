"""The public table screen: large type, public counters, rolls, commitments and results."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from ..core.commitments import verify
from ..core.view import prompt_view, recent_prompts
from ..core.errors import Forbidden
from .common import is_htmx, live_session, login, no_store, page_viewer, to_next_session
from .screens import context, live_fragment

bp = Blueprint("table", __name__, url_prefix="/s/<session_id>")


@bp.get("/table")
def screen(session_id: str):
    """The table screen (or its live fragment)."""
    if "k" in request.args:
        return login(session_id, "table", "table.screen")
    live = live_session(session_id)
    viewer, token = page_viewer(live, "table")
    if is_htmx():  # the live fragment, rendered once per viewer and version
        return no_store(live_fragment(live, viewer)[1])
    return no_store(render_template("table/screen.html", **context(live, viewer, token)))


@bp.get("/table/next")
def next_session(session_id: str):
    """The table screen of the campaign's next session (the closed screen's link; web/common.to_next_session)."""
    return to_next_session(session_id, "table", "table.screen")


@bp.get("/verify")
def verify_page(session_id: str):
    """Every revealed answer with its salt and a recomputed commitment check (any screen may open it)."""
    live = live_session(session_id)
    viewer, token = _any_viewer(live)
    ctx = context(live, viewer, token)
    checks = []
    for prompt in recent_prompt_views(live, viewer):
        if not prompt["revealed"]:
            continue
        for who, a in prompt["answers"].items():
            checks.append({"prompt": prompt, "who": who, **a, "ok": verify(a["salt"], a["value"], a["commitment"])})
    return no_store(render_template("verify.html", checks=checks, **ctx))


@bp.get("/verify/how")
def verify_how(session_id: str):
    """How to recompute a commitment by hand, with the values of one of the session's revealed answers
    (a page gmtool serves, so a phone can open it; any screen may)."""
    from ..core.commitments import canonical
    live = live_session(session_id)
    viewer, token = _any_viewer(live)
    ctx = context(live, viewer, token)
    example = {"real": False, "salt": "03661000c252912d40a5d9f3eae433b3", "json": '"DEX"',
               "commitment": "3caa85a25e46f80b2bba710b7529aa0f67a5609c6b0dc7e56c54fcd559564e94"}
    for prompt in recent_prompt_views(live, viewer):
        answers = list(prompt["answers"].values()) if prompt["revealed"] else []
        if answers:
            a = answers[0]
            example = {"real": True, "salt": a["salt"], "json": canonical(a["value"]), "commitment": a["commitment"],
                       "seat": prompt["option_names"].get(a["value"]) if isinstance(a["value"], str) else None}
            break
    return no_store(render_template("verify_how.html", example=example, **ctx))


def recent_prompt_views(live, viewer) -> list[dict]:
    """The newest prompts as `viewer` sees them (with the finished ones a phone's screen view leaves out)."""
    with live.lock:
        return [prompt_view(p, live.state, viewer) for p in recent_prompts(live.state, viewer)]


def _any_viewer(live):
    """The viewer of whichever screen cookie this browser holds."""
    for kind in ("table", "seat", "gm"):
        try:
            return page_viewer(live, kind)
        except Forbidden:  # not this kind of screen: try the next
            continue
    return page_viewer(live, "table")
