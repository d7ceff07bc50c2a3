"""Idempotency keys: a state-changing request sent twice (a retry after a lost response, a tap queued
while offline and sent when the connection returns) is applied once; the repeat gets the first answer.

A browser screen puts an `Idempotency-Key` header on every POST (static/live.js); API clients may. A page's plain form
(one that posts without script: the home page's, the campaign's continue) carries its key in a hidden field instead
(FIELD, made with each page: the templates' `idempotency_field()`), which names the form as it was filled in. The
answers are kept in memory for the last MAX_KEYS keys, at most MAX_BYTES of bodies in all (the oldest go first).
A request under a session that appended an action also leaves its key in the session's file, in the same transaction
(store.m002_request_keys): a repeat that comes after a restart (a tap whose answer the killed server never sent, queued
and sent again when it is back) is not applied again, and gets a short answer saying it was already recorded. A request
that makes a session (create, import, continue) leaves its key, with the links it hands out, in the file of the session
it makes, whose id comes from the key: its repeat finds that session and is answered as the first was
(runtime.SessionManager._made_before).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
from collections import OrderedDict
from typing import NamedTuple

from flask import Flask, Response, g, jsonify, make_response, request
from markupsafe import Markup

from .. import runtime

HEADER = "Idempotency-Key"
FIELD = "idempotency_key"  # a plain form's hidden field: its key when no header came (a page without script)
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
KEY = re.compile(r"[A-Za-z0-9_-]{8,100}")
MAX_KEYS = 5000
MAX_BYTES = 16 * 1024 * 1024  # what a client sending large answers' keys could make the server hold
KEPT_HEADERS = ("Location", "HX-Redirect", "HX-Refresh", "HX-Retarget")  # how the first answer acts on a screen
ANOTHER_BODY = runtime.ANOTHER_BODY
# The routes that make a session under one that noted their key: after a restart they answer their repeat themselves,
# with the session they made and its links (runtime.SessionManager.continue_from), not with the short answer
ANSWER_THEIR_REPEATS = frozenset({"api.continue_session", "gm.continue_campaign"})
WAIT_SECONDS = 10.0  # a repeat that arrives while the first is still running waits for its answer (StillRunning)
RUNNING_MESSAGE = ("この要求はまだ処理中です。少し待ってからもう一度送ってください",
                   "This request is still being applied; send it again in a moment")


class Stored(NamedTuple):
    """A keyed request's answer, kept for its repeats."""

    status: int
    body: bytes
    mimetype: str
    headers: dict  # its KEPT_HEADERS
    digest: str  # the request's body (or form) digest: a repeat must send the same


class StillRunning(Exception):
    """A repeat whose first request has not answered within WAIT_SECONDS: it is told to send it again (a 503), not
    applied a second time. The first one ends: its body was read before it claimed its key, its answer is kept before it
    is sent, and what it does in between is bounded (the session's lock is held by bounded work only, SQLite waits at
    most its busy timeout); a request that fails without an answer releases its key (teardown)."""


class Answers:
    """The answers to recent keyed requests, and the requests still running."""

    def __init__(self, size: int = MAX_KEYS, max_bytes: int = MAX_BYTES):
        self.size = size
        self.max_bytes = max_bytes
        self.bytes = 0  # the kept bodies' length in all
        self.done: OrderedDict[str, Stored] = OrderedDict()
        self.running: dict[str, threading.Event] = {}
        self.lock = threading.Lock()

    def claim(self, scope: str) -> Stored | None:
        """The stored answer for `scope`, or None after marking it running (the caller then does the work); raises
        StillRunning when the first request has not answered within WAIT_SECONDS."""
        while True:
            with self.lock:
                if scope in self.done:
                    self.done.move_to_end(scope)
                    return self.done[scope]
                waiting = self.running.get(scope)
                if waiting is None:
                    self.running[scope] = threading.Event()
                    return None
            if not waiting.wait(WAIT_SECONDS):
                raise StillRunning()  # not None: doing the work too applied the tap twice once the first was done

    def finish(self, scope: str, answer: Stored | None) -> None:
        """Store the answer (None: the request failed before answering) and wake the repeats."""
        with self.lock:
            if answer is not None:
                replaced = self.done.pop(scope, None)  # a stuck first request that finished after its repeat
                self.bytes += len(answer.body) - (len(replaced.body) if replaced else 0)
                self.done[scope] = answer
                while len(self.done) > 1 and (len(self.done) > self.size or self.bytes > self.max_bytes):
                    self.bytes -= len(self.done.popitem(last=False)[1].body)
            event = self.running.pop(scope, None)
        if event is not None:
            event.set()


def scope_of(key: str, content: str = "") -> str:
    """The key as bound to this request's route and the credentials it is answered for (one client cannot replay
    another's): its bearer token, the server GM key's cookie and, on a session's route, that session's cookies. Not
    the browser's other cookies: a phone that joins another table (or the campaign's next session) before its queued
    tap goes out still sends that tap's scope, which the file noted (it was applied twice). `content`: a form key's
    form (form_digest)."""
    from .common import ADMIN_COOKIE, COOKIE_PREFIX
    session_id = (request.view_args or {}).get("session_id")
    names = {ADMIN_COOKIE, *(prefix + session_id for prefix in COOKIE_PREFIX.values() if session_id)}
    creds = request.headers.get("Authorization", "") + "|" + "|".join(
        f"{k}={v}" for k, v in sorted(request.cookies.items()) if k in names)
    return hashlib.sha256(f"{request.method} {request.path}\n{key}\n{creds}\n{content}".encode()).hexdigest()


def body_digest() -> str:
    """The request body's SHA-256: a repeat must send the same bytes as the request it repeats."""
    return hashlib.sha256(request.get_data()).hexdigest()


def form_key() -> str | None:
    """The key a plain form sent in its hidden field, when no header came; None for anything else."""
    if request.mimetype not in FORMS:
        return None
    request.get_data()  # kept: the form is parsed from it, and a route that reads the body still has it (the API)
    return request.form.get(FIELD)


def form_digest() -> str:
    """What a form sent but its key: its fields, its files' names and bytes, however the browser framed them (a
    multipart body's boundary is new each time a browser sends it, also for the same form)."""
    digest = hashlib.sha256()
    for name, value in sorted(request.form.items(multi=True)):
        if name != FIELD:
            digest.update(f"{len(name)}:{name}={len(value)}:{value}\n".encode())
    for name, upload in sorted(request.files.items(multi=True), key=lambda item: item[0]):
        digest.update(f"{len(name)}:{name} {upload.filename!r}\n".encode())
        for chunk in iter(lambda: upload.stream.read(65536), b""):
            digest.update(chunk)
        upload.stream.seek(0)  # the route reads it again
    return digest.hexdigest()


def field() -> Markup:
    """A plain form's hidden key field, a new key each time a page is made (templates: `{{ idempotency_field() }}`)."""
    return Markup(f'<input type="hidden" name="{FIELD}" value="{secrets.token_hex(16)}">')


def _noted(session_id: str, scope: str) -> tuple[int, str] | None:
    """(the action, the body digest) the session's file noted for this key, or None."""
    from .common import live_session
    return live_session(session_id).recorded_request(scope)


def _recorded_before_restart(session_id: str, action: int) -> Response:
    """The answer to a repeat of a request the session's file shows was applied (its first answer is not kept across a
    restart): 200, in the API's JSON or a screen's flash (docs/api.md, Idempotency keys)."""
    from .common import flash_response, is_api, live_session
    if is_api():
        return jsonify({"replayed": True, "action": action, "version": live_session(session_id).version})
    return flash_response("This was already recorded (before the server restarted)" if g.get("lang") == "en"
                          else "この操作は記録済みです（サーバーの再起動の前に）")


def install(app: Flask) -> None:
    """Answer a repeated keyed POST with the first answer instead of applying it again."""
    answers = Answers()
    app.extensions["gmtool.idempotency"] = answers
    app.jinja_env.globals["idempotency_field"] = field

    @app.before_request
    def _replay():
        runtime.request_key.set(None)  # a request thread answers many requests, one after the other
        runtime.replayed.set(False)
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        key, content = request.headers.get(HEADER), ""
        if key is None:
            key = form_key()
            if key is None:
                return None
            # a plain form's key names the form as it was filled in: the same form sent again (a double tap, a reload
            # that sends it again) is its repeat, the form changed after a refusal (its page's key unchanged) a request
            # of its own, not a 422 the page without script could not get past
            content = form_digest()
        from . import error_response
        if not KEY.fullmatch(key):
            return error_response(400, "Idempotency-Key は8〜100文字の英数字・-・_ です",
                                  "Idempotency-Key must be 8 to 100 letters, digits, - or _")
        scope = scope_of(key, content)
        sent = content or body_digest()
        try:
            stored = answers.claim(scope)
        except StillRunning:  # a 503: a screen keeps the tap queued and sends it again (static/live.js)
            response = make_response(error_response(503, *RUNNING_MESSAGE))
            response.headers["Retry-After"] = "2"
            return response
        if stored is not None:
            if stored.digest != sent:  # a key is one request: another body under it is a client's mistake
                return error_response(422, *ANOTHER_BODY)
            response = Response(stored.body, status=stored.status, mimetype=stored.mimetype, headers=stored.headers)
            response.headers["Idempotent-Replayed"] = "true"
            return response
        g.idempotency_scope, g.idempotency_digest = scope, sent
        session_id = (request.view_args or {}).get("session_id")
        noted = None if session_id is None else _noted(session_id, scope)
        if noted is not None:  # applied before a restart, its answer forgotten
            if noted[1] != g.idempotency_digest:
                del g.idempotency_scope
                answers.finish(scope, None)
                return error_response(422, *ANOTHER_BODY)
            if request.endpoint not in ANSWER_THEIR_REPEATS:
                response = _recorded_before_restart(session_id, noted[0])  # ... kept as this key's answer from now on
                response.headers["Idempotent-Replayed"] = "true"
                return response
        # noted in the file with the action it appends; a request that makes a session finds the one it made before
        # a restart by it (runtime.SessionManager._made_before), and its answer is marked replayed (below)
        runtime.request_key.set((scope, g.idempotency_digest))
        return None

    @app.after_request
    def _remember(response):
        if runtime.replayed.get():
            response.headers["Idempotent-Replayed"] = "true"
        scope = g.pop("idempotency_scope", None)
        if scope is not None:
            keep = response.status_code < 500 and not response.is_streamed
            kept = {k: response.headers[k] for k in KEPT_HEADERS if k in response.headers}
            answer = Stored(response.status_code, response.get_data(), response.mimetype, kept, g.pop("idempotency_digest"))
            answers.finish(scope, answer if keep else None)
        return response

    @app.teardown_request
    def _release(_error=None):
        scope = g.pop("idempotency_scope", None)
        if scope is not None:  # no answer was made (an exception): let a repeat do the work
            answers.finish(scope, None)
