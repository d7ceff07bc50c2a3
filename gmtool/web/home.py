"""The GM's home page: the session list, the new-session form and the import form (server GM key required)."""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, g, make_response, redirect, request, url_for

from .. import limits
from ..core.errors import Forbidden, GmError
from ..i18n import translate
from ..rulesets import get as get_ruleset
from ..rulesets import registry
from ..setup import counters_for, parse_seats
from .compression import asset_url
from .screens import import_checked
from .common import ADMIN_COOKIE, check_csrf, csrf_for, go_to, is_admin, manager, no_store, render, same_secret

bp = Blueprint("home", __name__)


@bp.get("/health")
def health():
    """A bare liveness check."""
    return {"ok": True}


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: a phone adds gmtool to its home screen. No start_url: a screen installed from a
    seat's page opens that page again (the browser takes the page's own address), logged in by its cookie."""
    lang = g.get("lang", "ja")
    body = {
        "name": "gmtool", "short_name": "gmtool", "lang": lang,
        "description": translate("manifest.description", lang),
        "display": "standalone", "orientation": "portrait",
        "background_color": "#121318", "theme_color": "#0c0d11",
        "icons": [
            {"src": asset_url("icons/gmtool.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": asset_url("icons/gmtool-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": asset_url("icons/gmtool-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": asset_url("icons/gmtool-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = make_response(json.dumps(body, ensure_ascii=False))
    response.headers["Content-Type"] = "application/manifest+json; charset=utf-8"
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.get("/")
def index():
    """Session list and new-session form."""
    key = request.args.get("k")
    if key:
        if not same_secret(key, current_app.config["ADMIN_KEY"]):
            raise Forbidden("GM用のキーが違います", "Wrong GM key")
        target = request.args.get("next", "")
        safe = target.startswith("/s/") and "//" not in target  # only our own session pages
        response = redirect(target if safe else url_for("home.index"))
        response.set_cookie(ADMIN_COOKIE, key, httponly=True, samesite="Lax", max_age=3600 * 24 * 30)
        return response
    if not is_admin():  # the same bilingual refusal as every other page without its key
        raise Forbidden(translate("home.need_key", "ja"), translate("home.need_key", "en"))
    generic = get_ruleset("generic")
    labels = {name: r.label for name, r in registry().items()}  # the session list names each game, not its id
    return no_store(render("home.html", sessions=manager().list(), rulesets=registry().values(), ruleset_labels=labels,
                           presets=generic.presets, csrf=csrf_for(current_app.config["ADMIN_KEY"])))


@bp.get("/s/<session_id>/salvage")
def salvage(session_id):
    """Download the readable part of a damaged session (the API's salvage, docs/api.md 14); under /s/<sid>/ as every
    page of a session, so a proxy in front of workers sends it to the session's (gmtool/proxy.py)."""
    if not is_admin():
        raise Forbidden("GM用のキーが必要です", "The GM key is required")
    text = manager().salvage(session_id)
    return no_store(Response(text, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="gmtool-{session_id}-partial.json"'}))


@bp.post("/sessions")
def create():
    """Create a session from the form and open its GM console."""
    if not is_admin():
        raise Forbidden("GM用のキーが必要です", "The GM key is required")
    check_csrf(current_app.config["ADMIN_KEY"])
    limits.check_value(request.form.to_dict(flat=False))  # text and list lengths (docs/api.md, limits)
    form = request.form
    ruleset = get_ruleset(form.get("ruleset", "generic"))
    specs = None
    if ruleset.custom_counters:
        specs = form.getlist("counter") + [line for line in form.get("custom", "").splitlines() if line.strip()]
    counters = counters_for(ruleset, specs, form.getlist("private"))
    live, _tokens = manager().create(form.get("title", ""), ruleset.name, parse_seats(form.get("seats", "")),
                                     counters)
    return go_to(url_for("gm.console", session_id=live.state.session_id), 302)


@bp.post("/sessions/import")
def import_file():
    """Import an uploaded JSON export (the API's import and its refusals, docs/api.md 14) and open its GM console.
    The file may be as large as the API's body (MAX_BODY); the form's body, with its framing, up to MAX_UPLOAD_BODY
    (web/__init__.py sets that cap before the form is read; a larger body: 413, unread)."""
    if not is_admin():
        raise Forbidden("GM用のキーが必要です", "The GM key is required")
    check_csrf(current_app.config["ADMIN_KEY"])  # reads the form
    upload = request.files.get("file")
    raw = upload.read(limits.MAX_BODY + 1) if upload else b""
    if len(raw) > limits.MAX_BODY:
        kib = limits.MAX_BODY // 1024
        raise GmError(f"ファイルが大きすぎます（{kib}キロバイトまで。大きいものは gmtool import FILE --data DIR で読み込めます）",
                      f"The file is too large (at most {kib} KiB; import larger ones with gmtool import FILE --data DIR)",
                      status=413)
    if not raw:
        raise GmError("JSONエクスポートのファイルを選んでください", "Choose a JSON export file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise limits.NotJson() from None
    live, _tokens = import_checked(manager(), text, restore_tokens=request.form.get("restore_tokens") == "1")
    return go_to(url_for("gm.console", session_id=live.state.session_id))
