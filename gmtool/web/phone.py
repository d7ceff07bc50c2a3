"""A seat's phone page: own counters, public info, secret prompts, dice."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from .. import operations as ops
from .common import act, form_payload, is_htmx, live_session, login, no_store, page_viewer, to_next_session
from .screens import context, live_fragment, phone_fragment

bp = Blueprint("phone", __name__)


@bp.get("/join/<session_id>")
def join(session_id: str):
    """A scanned QR code: log this phone in as its seat."""
    if "k" not in request.args:
        return phone(session_id)
    return login(session_id, "seat", "phone.phone")


@bp.get("/s/<session_id>/phone")
def phone(session_id: str):
    """The seat's own page (or its live fragment)."""
    live = live_session(session_id)
    viewer, token = page_viewer(live, "seat")
    if is_htmx():  # the live fragment, rendered once per viewer and version
        return no_store(live_fragment(live, viewer)[1])
    ctx = context(live, viewer, token)
    return no_store(render_template("phone/page.html", **ctx, live_html=phone_fragment(ctx)))


@bp.get("/s/<session_id>/phone/next")
def next_session(session_id: str):
    """This seat in the campaign's next session, if it carried over (the closed phone's link;
    web/common.to_next_session)."""
    return to_next_session(session_id, "seat", "phone.phone")


def _act(session_id: str, operation, *args):
    """A seat's operation from its phone page."""
    return act(session_id, "seat", "phone.phone", operation, *args)


@bp.post("/s/<session_id>/phone/actions/<name>")
def ruleset_action(session_id, name):
    """A ruleset step a seat may take (e.g. a declaration)."""
    return _act(session_id, ops.ruleset_action, name, form_payload())


@bp.post("/s/<session_id>/phone/roll")
def roll(session_id):
    """Roll dice from the phone (the server rolls)."""
    return _act(session_id, ops.roll, request.form.to_dict())


@bp.post("/s/<session_id>/phone/prompts/<prompt_id>/answer")
def answer(session_id, prompt_id):
    """Submit a secret answer."""
    values = request.form.getlist("value")
    value = values if request.form.get("multi") == "1" else (values[0] if values else None)
    return _act(session_id, ops.answer, prompt_id, {"value": value})
