"""Shared web helpers: who is asking (tokens, cookies, CSRF), rendering, URLs and QR codes."""

from __future__ import annotations

import hashlib
from datetime import datetime
import hmac
from functools import lru_cache
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from flask import current_app, g, make_response, redirect, render_template, request, url_for

from ..core.commands import parse_flag
from ..core.errors import Forbidden, GmError, choices_text
from ..export import Options
from ..i18n import STRINGS, language_named
from ..core.view import GM, Viewer
from .. import runtime
from ..runtime import LiveSession, SessionManager
from .. import limits
from ..store import local_utc_offset

COOKIE_PREFIX = {"gm": "gmtool_gm_", "table": "gmtool_table_", "seat": "gmtool_seat_"}
ADMIN_COOKIE = "gmtool_admin"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def manager() -> SessionManager:
    """The app's session manager."""
    return current_app.extensions["gmtool"]


def live_session(session_id: str) -> LiveSession:
    """An open session (404 if unknown)."""
    return manager().get(session_id)


def csrf_for(token: str) -> str:
    """The CSRF token that goes with a cookie token (derived, so it survives restarts)."""
    return hashlib.sha256(("csrf:" + token).encode()).hexdigest()[:32]


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison that also accepts non-ASCII input (hmac refuses non-ASCII str)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass"))


def is_admin() -> bool:
    """Whether the request carries the server's GM key (cookie or bearer)."""
    key = current_app.config["ADMIN_KEY"]
    given = request.cookies.get(ADMIN_COOKIE) or bearer_token()
    return bool(given) and same_secret(given, key)


def require_admin() -> None:
    """The server's GM key is required (403): a bearer header, or the cookie, which on a
    state-changing request also needs its CSRF token (`X-CSRF-Token` header or `csrf` field)."""
    key = current_app.config["ADMIN_KEY"]
    token = bearer_token()
    if token and same_secret(token, key):
        return
    cookie = request.cookies.get(ADMIN_COOKIE)
    if cookie and same_secret(cookie, key):
        if request.method not in SAFE_METHODS:
            check_csrf(key)
        return
    raise Forbidden("GM用のキーが必要です", "The server's GM key is required")


def check_origin() -> None:
    """Refuse a state-changing request that a browser says comes from another site (403)."""
    if request.method in SAFE_METHODS:
        return
    # Our pages send `Referrer-Policy: no-referrer`, so browsers send `Origin: null` with their own
    # form posts: a null origin proves nothing either way (the CSRF token still has to match).
    origin = request.headers.get("Origin")
    cross = request.headers.get("Sec-Fetch-Site") == "cross-site"
    if cross or (origin not in (None, "null") and urlsplit(origin).netloc != request.host):
        raise Forbidden("別のサイトからの操作は受け付けません", "Requests from another site are refused")


def bearer_token() -> str | None:
    """The token of an `Authorization: Bearer` header."""
    auth = request.headers.get("Authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


def page_viewer(live: LiveSession, kind: str) -> tuple[Viewer, str]:
    """The viewer of a page of `kind` from its cookie (or the admin key for the GM); 403 otherwise."""
    if kind not in COOKIE_PREFIX:  # e.g. /version?as=... from a client
        raise Forbidden("このページを見る権限がありません。QRコードを読み直してください。",
                        "You may not open this page. Scan the QR code again.")
    token = request.cookies.get(COOKIE_PREFIX[kind] + live.state.session_id)
    viewer = live.viewer_for(token)
    if viewer is not None and viewer.kind == kind:
        return viewer, token
    if kind == "gm" and is_admin():
        return GM, current_app.config["ADMIN_KEY"]
    raise Forbidden("このページを見る権限がありません。QRコードを読み直してください。",
                    "You may not open this page. Scan the QR code again.")


def check_csrf(token: str) -> None:
    """Reject a state-changing page request without the CSRF token of its cookie (403)."""
    sent = request.headers.get(CSRF_HEADER) or request.form.get("csrf", "")
    if not same_secret(sent, csrf_for(token)):
        raise Forbidden("ページが古くなっています。再読み込みしてください。",
                        "This page is out of date (CSRF check failed). Please reload it.")


def api_viewer(live: LiveSession) -> Viewer:
    """The viewer of an API request from its bearer token; 403 otherwise."""
    token = bearer_token()
    viewer = live.viewer_for(token)
    if viewer is None and token and same_secret(token, current_app.config["ADMIN_KEY"]):
        viewer = GM
    if viewer is None:
        raise Forbidden("トークンが無効です", "Missing or invalid token")
    return viewer


def is_api() -> bool:
    """Whether this request is to the JSON API (`/api` and under): its errors are JSON, its language the request's own."""
    return request.path == "/api" or request.path.startswith("/api/")


def is_htmx() -> bool:
    """Whether the request was made by htmx (wants a fragment)."""
    return request.headers.get("HX-Request") == "true"


def go_to(target: str, status: int = 303):
    """After a form that made something (a session, the campaign's next one): the browser opens `target`. From htmx
    a 204 that htmx follows (a refusal before it stays a flash beside the form); from a plain form, a redirect."""
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, status)


def render(page: str, fragment: str | None = None, **context):
    """The full page, or on an htmx request the fragment the page includes (one URL, two renderings)."""
    return render_template(fragment if fragment and is_htmx() else page, **context)


def no_store(response):
    """Mark a response as private and uncacheable (it holds a viewer's own view)."""
    response = make_response(response)
    response.headers["Cache-Control"] = "no-store"
    return response


def base_url() -> str:
    """The address phones use: the LAN base URL chosen at start, else this request's host."""
    return current_app.config.get("PUBLIC_BASE") or request.host_url.rstrip("/")


@lru_cache(maxsize=256)
def qr_svg(data: str) -> str:
    """An inline SVG QR code for `data`."""
    img = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg = img.to_string(encoding="unicode")
    return svg[svg.index("<svg"):]


def export_options(args) -> tuple[str, Options, bool]:
    """(format, options, full) from query arguments: format, lang, times, names, scene, secret_rolls, standings,
    full."""
    scene = args.get("scene", "")
    try:
        scene_number = int(scene) if scene != "" else None
    except ValueError:
        raise GmError("シーンは整数で指定してください", "'scene' must be a whole number") from None
    names = args.get("names") or "player"  # empty: not given
    if names not in ("player", "faction"):
        ja, en = choices_text({n: STRINGS[f"export.names.{n}"] for n in ("player", "faction")})  # the export page's
        raise GmError(f"名前は{ja}のどちらかです", f"'names' must be one of: {en}")
    standings = args.get("standings") or "last"
    if standings not in ("first", "last"):
        ja, en = choices_text({s: STRINGS[f"export.standings.{s}"] for s in ("last", "first")})
        raise GmError(f"最終状況の位置は{ja}のどちらかです", f"'standings' must be one of: {en}")
    options = Options(lang=language_named(args.get("lang")) or lang(),  # default: the reader's
                      utc_offset=local_utc_offset(),
                      times=query_flag(args, "times", True, ja="時刻を入れる"), names=names, scene=scene_number,
                      secret_rolls=query_flag(args, "secret_rolls", ja="GMの秘密ロール"), standings=standings)
    return args.get("format") or "markdown", options, query_flag(args, "full", ja="完全バックアップ")


def query_flag(args, key: str, default: bool = False, *, ja: str) -> bool:
    """A yes/no query argument as a body's (`1`/`0`, `true`/`false`, `on`, `yes` …; anything else a 400); the last
    value wins (a hidden 0 before a checkbox). Refused naming it in Japanese by `ja`, in English by its key."""
    values = args.getlist(key)
    return parse_flag(values[-1], ja, key) if values else default


def export_text(live: LiveSession, fmt: str, options, full: bool, campaign: bool = False) -> str:
    """A session's export, or its whole campaign's (GM only: the caller checks)."""
    from ..export import export_campaign
    if campaign:
        if full:
            raise GmError("完全バックアップはセッションごとです", "A full backup is made one session at a time")
        return export_campaign(manager().campaign_logs(live.state.session_id), fmt, options)
    return live.export(fmt, options, full)


def form_payload() -> dict:
    """A form as a payload: one value per field, or a list where a field repeats (checkboxes)."""
    return {k: v[0] if len(v) == 1 else v for k, v in request.form.to_dict(flat=False).items() if k != "csrf"}


def lang() -> str:
    """The viewer's language."""
    return g.get("lang", "ja")


def act(session_id: str, kind: str, endpoint: str, operation, *args, refresh: bool = False):
    """Run an operation from a screen's form (cookie + CSRF): for htmx a flash that says what it did as the
    viewer's log reads it (screens.flash_text), else back to the page at `endpoint`; `refresh` makes htmx reload the
    whole page."""
    live = live_session(session_id)
    viewer, token = page_viewer(live, kind)
    check_csrf(token)
    limits.check_value(request.form.to_dict(flat=False))  # text and list lengths (docs/api.md, limits)
    operation(live, viewer, *args)
    if not is_htmx():
        return redirect(url_for(endpoint, session_id=session_id))
    from .screens import FLASH_JOINED, flash_text  # (screens builds on this module)
    written = runtime.recorded.get()  # the request's events: its action's
    from . import state_names
    text = flash_text(live, viewer, written)
    # an action that ends the game (a winner, ruleset.EventType.ends_game) tells of it whole, never cut (three lines
    # of a win were cut to two on a phone), unless its text is one line too long to join
    whole = len(text) <= FLASH_JOINED and any(
        getattr(live.ruleset.event_type(e.type), "ends_game", False) for e in written)
    response = flash_response(text, action=written[0].action if written else None, names=state_names(live.state),
                              whole=whole)
    if refresh:
        response.headers["HX-Refresh"] = "true"
    return response


def flash_response(message: str, error: bool = False, status: int = 200, action: int | None = None,
                   names: tuple[str, ...] = (), whole: bool = False):
    """A message for htmx: a success into the page's polite live region (#flash-status, the default target), an error
    into its alert region (#flash-alert); the other region is emptied (templates/_flash.html). `action`: the action
    a success tells of (a phone clears the message when the GM undoes it). `names`: the session's names that read like
    rule codes, which the message's rule codes hiding leaves alone (web.rule_marked). `whole`: shown whole, never cut
    to the lines a success keeps to (the end of the game)."""
    response = make_response(render_template("_flash.html", error=error, message=message, action=action,
                                             rule_names=names, whole=whole), status)
    if error:
        response.headers["HX-Retarget"] = "#flash-alert"
    return response


def clock_hm(ts: str) -> str:
    """An event time as the server's local HH:MM (an answer's receipt)."""
    try:
        return datetime.fromisoformat(ts).astimezone().strftime("%H:%M")
    except (TypeError, ValueError):
        return ts or ""


def login(session_id: str, kind: str, endpoint: str):
    """Exchange `?k=token` for an HttpOnly cookie and redirect to the clean URL."""
    live = live_session(session_id)
    token = request.args["k"]
    viewer = live.viewer_for(token)
    if viewer is None or viewer.kind != kind:
        raise Forbidden("リンクが無効です（再発行された可能性があります）",
                        "This link is not valid (it may have been reissued)")
    return logged_in(session_id, kind, endpoint, token)


def logged_in(session_id: str, kind: str, endpoint: str, token: str):
    """A redirect to the screen at `endpoint` that keeps `token` in the screen's HttpOnly cookie."""
    response = redirect(url_for(endpoint, session_id=session_id))
    response.set_cookie(COOKIE_PREFIX[kind] + session_id, token, httponly=True, samesite="Lax",
                        max_age=3600 * 24 * 7)
    return response


def to_next_session(session_id: str, kind: str, endpoint: str):
    """A screen of a continued session into the campaign's next one (docs/api.md 14d), logged in there as what it
    is: the table screen as the new table screen; a phone as its own seat, only if that seat carried over
    (runtime.SessionManager.carried_seat_token), else a 403 that sends it to the GM for the new QR code. The new
    token goes into the new session's cookie, never into a page or an address."""
    live = live_session(session_id)
    viewer, _token = page_viewer(live, kind)
    following = manager().following(session_id)
    token = following.table_token if kind == "table" else manager().carried_seat_token(following, viewer.seat)
    if not token:
        raise Forbidden("このリンクでは次のセッションに入れません。GMに新しいQRコードをもらってください。",
                        "This link does not lead into the next session: ask the GM for the new QR code.")
    return logged_in(following.state.session_id, kind, endpoint, token)
