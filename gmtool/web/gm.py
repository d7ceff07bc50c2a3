"""The GM console: every seat, counters, dice, prompts, log, QR codes; and its actions."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from .. import operations as ops
from ..core.logtext import scene_title
from ..urls import gm_url
from .common import act, check_csrf, export_options, export_text, form_payload, go_to, query_flag, \
    is_htmx, live_session, login, manager, no_store, page_viewer
from .screens import context, gm_extras, live_fragment

bp = Blueprint("gm", __name__, url_prefix="/s/<session_id>/gm")


@bp.get("")
def console(session_id: str):
    """The GM console page (or its live fragment)."""
    if "k" in request.args:
        return login(session_id, "gm", "gm.console")
    live = live_session(session_id)
    viewer, token = page_viewer(live, "gm")
    if is_htmx():  # the live fragment, shared by every GM screen (the console's fixed controls stay with the page) …
        if request.args.get("controls") != "1":
            return no_store(live_fragment(live, viewer)[1])
        # … or, for a console that lacks some (a seat added since it loaded), with them
        return no_store(render_template("gm/_live.html", **(context(live, viewer, token) | {"controls": True})))
    return no_store(render_template("gm/console.html", **(context(live, viewer, token) | gm_extras(live) | {"controls": True})))


@bp.get("/qr")
def qr_sheet(session_id: str):
    """A printable sheet: one card per seat with its name and join QR code."""
    live = live_session(session_id)
    viewer, token = page_viewer(live, "gm")
    return no_store(render_template("gm/qr_sheet.html", **context(live, viewer, token), **gm_extras(live)))


@bp.get("/export")
def export_page(session_id: str):
    """Choose a format and options, preview, download."""
    from ..export import FORMAT_NAMES
    live = live_session(session_id)
    viewer, token = page_viewer(live, "gm")
    fmt, options, full = export_options(request.args)
    campaign = query_flag(request.args, "campaign", ja="キャンペーン全体")
    preview = export_text(live, fmt, options, False, campaign)
    return no_store(render_template("gm/export.html", formats=FORMAT_NAMES, fmt=fmt, options=options,
                                   preview=preview, campaign=campaign,
                                   scenes=[{**s, "title": scene_title(live.state, s["title"])} for s in live.state.scenes],
                                   in_campaign=bool(live.state.campaign), **context(live, viewer, token)))


@bp.get("/export/download")
def export_download(session_id: str):
    """The export as a file."""
    from ..export import MEDIA_TYPES
    live = live_session(session_id)
    page_viewer(live, "gm")
    fmt, options, full = export_options(request.args)
    campaign = query_flag(request.args, "campaign", ja="キャンペーン全体")
    text = export_text(live, fmt, options, full, campaign)
    mimetype, suffix = MEDIA_TYPES[fmt]
    name = f"gmtool-{'campaign-' if campaign else ''}{session_id}{'-full' if full else ''}.{suffix}"
    return no_store(Response(text, mimetype=mimetype,
                             headers={"Content-Disposition": f'attachment; filename="{name}"'}))


@bp.get("/campaign")
def campaign_page(session_id: str):
    """The sessions of this session's campaign in order, with their date and outcome; start the next one."""
    from ..export import Options, session_rows
    from ..store import local_utc_offset
    from .common import lang
    live = live_session(session_id)
    viewer, token = page_viewer(live, "gm")
    options = Options(lang=lang(), utc_offset=local_utc_offset())
    rows = session_rows(manager().campaign_logs(session_id), options)
    from ..runtime import next_title
    return no_store(render_template("gm/campaign.html", sessions=rows, following=live.state.campaign.get("next"),
                                    next_title=next_title(live.state.title, lang()), **context(live, viewer, token)))


@bp.post("/continue")
def continue_campaign(session_id: str):
    """Start the next session of the campaign (core/campaign.py) and open its GM console."""
    from .. import limits
    live = live_session(session_id)
    viewer, token = page_viewer(live, "gm")
    check_csrf(token)
    limits.check_value(request.form.to_dict(flat=False))
    from .common import lang
    following, tokens = manager().continue_from(session_id, request.form.get("title"), lang())
    return go_to(gm_url("", following.state.session_id, tokens["gm"]))


def _act(session_id: str, operation, *args):
    """A GM operation from a console form; new or reissued links reload the console (its QR codes)."""
    return act(session_id, "gm", "gm.console", operation, *args,
               refresh=operation in (ops.reissue, ops.add_seat))


@bp.post("/counter")
def counter(session_id):
    """Change a counter."""
    return _act(session_id, ops.change_counter, request.form.to_dict())


@bp.post("/roll")
def roll(session_id):
    """Roll dice."""
    return _act(session_id, ops.roll, request.form.to_dict())


@bp.post("/rolls/<int:seq>/reveal")
def reveal_roll(session_id, seq):
    """Reveal a secret roll."""
    return _act(session_id, ops.reveal_roll, seq)


@bp.post("/undo")
def undo(session_id):
    """Undo the latest action."""
    return _act(session_id, ops.undo)


@bp.post("/seats")
def add_seat(session_id):
    """Add a seat."""
    return _act(session_id, ops.add_seat, request.form.to_dict())


@bp.post("/seats/<seat_id>/reissue")
def reissue(session_id, seat_id):
    """Reissue a seat's join link."""
    return _act(session_id, ops.reissue, seat_id)


@bp.post("/scenes")
def scene(session_id):
    """Start a new scene."""
    return _act(session_id, ops.mark_scene, request.form.to_dict())


@bp.post("/close")
def close(session_id):
    """Close the session and publish the seed."""
    return _act(session_id, ops.close)


@bp.post("/readings")
def reading(session_id):
    """Switch one of the session's readings."""
    return _act(session_id, ops.set_reading, request.form.to_dict())


@bp.post("/settings")
def setting(session_id):
    """Switch a console setting (hide answers until the reveal)."""
    return _act(session_id, ops.set_setting, request.form.to_dict())


@bp.post("/actions/<name>")
def ruleset_action(session_id, name):
    """A ruleset step from the console's ruleset panel."""
    return _act(session_id, ops.ruleset_action, name, form_payload())


@bp.post("/prompts")
def open_prompt(session_id):
    """Open a secret prompt from the form."""
    form = request.form
    spec = {"title": form.get("title"), "kind": form.get("kind", "choice"),
            "options": [o.strip() for o in form.get("options", "").splitlines() if o.strip()],
            "seats": form.getlist("seats"), "gm_submits": form.get("gm_submits") == "on",
            "min": form.get("min"), "max": form.get("max"), "resolver": form.get("resolver") or None}
    return _act(session_id, ops.open_prompt, spec)


@bp.post("/prompts/<prompt_id>/answer")
def answer(session_id, prompt_id):
    """The GM's own answer (PL vs GM)."""
    return _act(session_id, ops.answer, prompt_id, _answer_payload())


@bp.post("/prompts/<prompt_id>/<op>")
def prompt_action(session_id, prompt_id, op):
    """Lock, reveal, extend, cancel, add a modifier or confirm."""
    payload = request.form.to_dict()
    if op == "extend":
        payload["seats"] = request.form.getlist("seats")
    return _act(session_id, ops.prompt_action, prompt_id, op, payload)


def _answer_payload() -> dict:
    """A form answer: `value` (several for multi-choice)."""
    values = request.form.getlist("value")
    return {"value": values if request.form.get("multi") == "1" else (values[0] if values else None)}
