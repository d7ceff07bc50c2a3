"""The JSON API: every action of the screens, with `Authorization: Bearer <token>` (docs/api.md)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from .. import operations as ops
from ..core.commands import id_text
from ..core.errors import GmError
from ..core.logtext import describe
from ..core.prompts import get_prompt, no_such_prompt
from ..core.view import build_view, can_see_prompt, prompt_view, visible_event
from ..rulesets import get as get_ruleset
from ..setup import counters_for, parse_seats
from ..urls import created, join_url
from .screens import import_checked
from .. import limits
from .common import api_viewer, require_admin, base_url, export_options, export_text, query_flag, lang, \
    live_session, manager

bp = Blueprint("api", __name__, url_prefix="/api")


def json_text() -> str:
    """The request body as sent (a form is not parsed: it is not JSON); a body without the JSON content type is a
    400 (docs/api.md 2: plain `curl -d` sends a form type)."""
    text = request.get_data(as_text=True)
    if text and not request.is_json:
        raise GmError("JSONオブジェクトを送ってください", "Send a JSON object")
    return text


def payload() -> dict:
    """The request's JSON object (an empty body is {}); anything else, or anything over a limit, is a 400."""
    text = json_text()
    if not text:
        return {}
    try:  # nesting and number literals are checked on the text, before the parser sees it
        data = limits.loads(text)
    except limits.NotJson:
        data = None
    if not isinstance(data, dict):
        raise GmError("JSONオブジェクトを送ってください", "Send a JSON object")
    limits.check_value(data)  # text and list lengths, numbers, lone surrogates ("\ud800")
    return data


def done(live, result: dict, status: int = 200):
    """An action's JSON answer, with the session's version after it (what live screens catch up to)."""
    return jsonify({**result, "version": live.version}), status


def _session(session_id: str):
    live = live_session(session_id)
    return live, api_viewer(live)


@bp.get("/health")
def health():
    """A bare endpoint for comparisons (bench)."""
    return jsonify(ok=True)


@bp.get("/sessions")
def list_sessions():
    """Every session (server GM key)."""
    require_admin()
    return jsonify(sessions=manager().list())


@bp.post("/sessions")
def create_session():
    """Create a session (server GM key): title, ruleset, seats, counters, private."""
    require_admin()
    p = payload()
    ruleset = get_ruleset(id_text(p.get("ruleset"), "ルール", "ruleset") or "generic")
    counters = p.get("counters")
    if counters is not None and not isinstance(counters, list):
        raise GmError("カウンターはリストで指定してください", "'counters' must be a list")
    live, tokens = manager().create(p.get("title", ""), ruleset.name, parse_seats(p.get("seats", [])),
                                    counters_for(ruleset, counters, p.get("private")))
    return jsonify(created(live, tokens, base_url())), 201


@bp.get("/sessions/<session_id>/state")
def state(session_id):
    """The caller's own view of the session."""
    live, viewer = _session(session_id)
    with live.lock:
        return jsonify(build_view(live.state, viewer, live.version))


@bp.get("/sessions/<session_id>/log")
def log(session_id):
    """The caller's view of the event log (after=SEQ, limit=N)."""
    live, viewer = _session(session_id)
    try:
        after = int(request.args.get("after") or 0)  # empty: not given, as every empty query parameter
        limit = min(max(int(request.args.get("limit") or 200), 1), 1000)
    except ValueError:
        raise GmError("記録の位置と件数は整数で指定してください", "'after' and 'limit' must be whole numbers") from None
    out, undone = [], {}

    def undone_of(action: int) -> list:  # an undo's summary is made from what it took back (view.visible_event)
        if action not in undone:
            undone[action] = live.store.action_events(action)
        return undone[action]
    with live.lock:
        for event in live.store.events(after_seq=after):
            visible = visible_event(event, live.state, viewer, undone_of)
            if visible is not None:
                visible["text"] = describe(visible, live.state, lang())
                out.append(visible)
                if len(out) >= limit:
                    break
    return jsonify(events=out)


@bp.get("/sessions/<session_id>/export")
def export_session(session_id):
    """GM: the session's log (or with campaign=1 its whole campaign's) as markdown, mediawiki, atwiki, text,
    html or json."""
    from ..export import MEDIA_TYPES
    live, viewer = _session(session_id)
    ops.require_gm(viewer)
    fmt, options, full = export_options(request.args)
    text = export_text(live, fmt, options, full, query_flag(request.args, "campaign", ja="キャンペーン全体"))
    return Response(text, mimetype=MEDIA_TYPES[fmt][0], headers={"Cache-Control": "no-store"})


@bp.get("/sessions/<session_id>/salvage")
def salvage(session_id):
    """Server GM key: the readable part of a damaged session, a full JSON backup marked `partial`."""
    require_admin()
    return Response(manager().salvage(session_id), mimetype="application/json", headers={"Cache-Control": "no-store"})


@bp.post("/sessions/<session_id>/continue")
def continue_session(session_id):
    """GM: start the next session of the campaign (optional title); answers like session creation, plus
    `previous`."""
    live, viewer = _session(session_id)
    ops.require_gm(viewer)
    title = payload().get("title")
    if title is not None and not isinstance(title, str):
        raise GmError("タイトルは文字で入力してください", "'title' must be a text")
    following, tokens = manager().continue_from(session_id, title)
    return jsonify({**created(following, tokens, base_url()), "previous": session_id}), 201


@bp.get("/sessions/<session_id>/campaign")
def campaign(session_id):
    """GM: the sessions of the campaign, first to last, with their date and outcome."""
    from ..export import Options, session_rows
    from ..store import local_utc_offset
    live, viewer = _session(session_id)
    ops.require_gm(viewer)
    options = Options(lang=lang(), utc_offset=local_utc_offset())
    return jsonify(sessions=session_rows(manager().campaign_logs(session_id), options))


@bp.post("/sessions/import")
def import_session():
    """Server GM key: load a JSON export (the request body) as a session."""
    require_admin()
    restore = query_flag(request.args, "restore_tokens", ja="リンクの復元")
    live, tokens = import_checked(manager(), json_text(), restore_tokens=restore)
    out = {"session": live.state.session_id, "title": live.state.title, "restored_tokens": tokens is None}
    if tokens is not None:
        out.update(created(live, tokens, base_url()))
    return jsonify(out), 201


@bp.post("/sessions/<session_id>/counters")
def counters(session_id):
    """GM: change a counter."""
    live, viewer = _session(session_id)
    return done(live, ops.change_counter(live, viewer, payload()))


@bp.post("/sessions/<session_id>/rolls")
def rolls(session_id):
    """GM or seat: roll dice."""
    live, viewer = _session(session_id)
    return done(live, ops.roll(live, viewer, payload()), 201)


@bp.post("/sessions/<session_id>/rolls/<int:seq>/reveal")
def reveal_roll(session_id, seq):
    """GM: reveal a secret roll."""
    live, viewer = _session(session_id)
    payload()  # no parameters, but a body that is not a JSON object is still refused (docs/api.md 2)
    return done(live, ops.reveal_roll(live, viewer, seq))


@bp.post("/sessions/<session_id>/undo")
def undo(session_id):
    """GM: undo the latest undoable action."""
    live, viewer = _session(session_id)
    payload()
    return done(live, ops.undo(live, viewer))


@bp.post("/sessions/<session_id>/seats")
def add_seat(session_id):
    """GM: add a seat."""
    live, viewer = _session(session_id)
    result = ops.add_seat(live, viewer, payload())
    result["join_url"] = join_url(base_url(), session_id, result["token"])
    return done(live, result, 201)


@bp.post("/sessions/<session_id>/seats/<seat_id>/token")
def reissue(session_id, seat_id):
    """GM: reissue a seat's token."""
    live, viewer = _session(session_id)
    payload()
    result = ops.reissue(live, viewer, seat_id)
    result["join_url"] = join_url(base_url(), session_id, result["token"])
    return done(live, result)


@bp.post("/sessions/<session_id>/scenes")
def scenes(session_id):
    """GM: start a new scene / round / combat."""
    live, viewer = _session(session_id)
    return done(live, ops.mark_scene(live, viewer, payload()), 201)


@bp.post("/sessions/<session_id>/close")
def close(session_id):
    """GM: close the session, publishing the seed."""
    live, viewer = _session(session_id)
    payload()
    return done(live, ops.close(live, viewer))


@bp.post("/sessions/<session_id>/prompts")
def open_prompt(session_id):
    """GM: open a secret prompt."""
    live, viewer = _session(session_id)
    return done(live, ops.open_prompt(live, viewer, payload()), 201)


@bp.post("/sessions/<session_id>/actions/<name>")
def ruleset_action(session_id, name):
    """A step of the session's ruleset (docs/rulesets/<ruleset>.md)."""
    live, viewer = _session(session_id)
    return done(live, ops.ruleset_action(live, viewer, name, payload()))


@bp.post("/sessions/<session_id>/readings")
def reading(session_id):
    """GM: switch one of the session's readings (key, value); returns every reading."""
    live, viewer = _session(session_id)
    return done(live, ops.set_reading(live, viewer, payload()))


@bp.get("/sessions/<session_id>/prompts/<prompt_id>")
def prompt(session_id, prompt_id):
    """Any token: one prompt as the caller may see it (also older ones that the state leaves out)."""
    live, viewer = _session(session_id)
    with live.lock:
        found = get_prompt(live.state, prompt_id)
        if not can_see_prompt(found, viewer):
            raise no_such_prompt()
        return jsonify(prompt_view(found, live.state, viewer))


@bp.post("/sessions/<session_id>/prompts/<prompt_id>/answer")
def answer(session_id, prompt_id):
    """A seat (or the GM when it submits): answer."""
    live, viewer = _session(session_id)
    return done(live, ops.answer(live, viewer, prompt_id, payload()))


@bp.post("/sessions/<session_id>/prompts/<prompt_id>/<op>")
def prompt_action(session_id, prompt_id, op):
    """GM: lock / reveal / extend / cancel / modifiers / confirm."""
    live, viewer = _session(session_id)
    return done(live, ops.prompt_action(live, viewer, prompt_id, op, payload()))
