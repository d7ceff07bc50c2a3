"""Live updates: one SSE stream per open screen, authenticated as its viewer.

With `push=1` (what static/live.js asks for) each new version arrives as the viewer's own live
fragment (`event: fragment`, `id:` the version, data: the version then the HTML), rendered once per
viewer and version (screens.live_fragment) and swapped in by the page without a round trip. The
first message is that fragment only when the page does not show the current version yet (its `v`
argument, or the `Last-Event-ID` of a reconnect); otherwise a bare `changed` notice. Without `push`
the stream carries only "changed, version N" notices and the page re-fetches its fragment. Either
way nothing but the viewer's own view travels, and a reconnect catches up at once. Beyond
MAX_STREAMS the server answers 503 and the page falls back to polling /version.
"""

from __future__ import annotations

import threading
import time
import zlib
from functools import partial

from flask import Blueprint, Response, current_app, request, stream_with_context

from ..limits import Shares
from ..runtime import token_hash
from .common import lang, live_session, page_viewer
from .screens import live_fragment
from .streams import Stream, compressed

GZIP_WINDOW_BITS = 16 + 13  # a gzip stream with an 8 KiB window: a fragment is compressed against the previous one
# Level 1 costs half the CPU of level 6 (a phone's fragment: 20 µs instead of 38; the GM's: 141 instead of 328)
# for more bytes: a phone receives about 470 bytes per action on the bench instead of 157, one TCP segment either way.
GZIP_LEVEL = 1
GZIP_MEM_LEVEL = 5          # about 48 KiB of compressor state per open stream
DISCONNECT_CHECK = 1.0  # seconds between checks of waitress's client_disconnected on a quiet stream

bp = Blueprint("live", __name__, url_prefix="/s/<session_id>")


PER_TOKEN_STREAMS = 8  # live streams one token may hold (a player's tabs): one phone cannot take every slot


class StreamSlots:
    """The app's count of open streams against its MAX_STREAMS, and each token's against PER_TOKEN_STREAMS."""

    def __init__(self):
        self.open = 0
        self.by_token = Shares()
        self.lock = threading.Lock()

    def take(self, limit: int, token: str) -> bool:
        """Take a slot for a stream of `token` (hashed) if one is free, for the server and for the token."""
        with self.lock:
            if self.open >= limit or not self.by_token.take(token, PER_TOKEN_STREAMS):
                return False
            self.open += 1
            return True

    def give_back(self, token: str) -> None:
        """Free a slot of `token`."""
        with self.lock:
            self.open -= 1
        self.by_token.give(token)


def slots() -> StreamSlots:
    """This app's stream slots."""
    return current_app.extensions.setdefault("gmtool_streams", StreamSlots())


def fragment_message(version: int, html: str) -> bytes:
    """A fragment as one SSE message: each of its lines a `data:` line (a line ends at CR, LF or CRLF, so a CR
    in a name cannot end one early). Framed as UTF-8 bytes: replacing in a str of Japanese text is several
    times slower (36 KB: 0.19 ms as str and then encoded, 0.09 ms as bytes)."""
    data = html.encode()
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return b"id: %d\nevent: fragment\ndata: %d\ndata: %s\n\n" % (version, version, data.replace(b"\n", b"\ndata: "))


def open_streams() -> int:
    """How many streams this app has open now."""
    return slots().open


@bp.get("/events")
def events(session_id: str):
    """The SSE stream of one screen (its fragments with `push=1`, else version notices); it ends when its
    token is reissued, the session is closed (after the closing message) or the server shuts the session.
    Under `gmtool serve` the first message goes out from this request and the server's StreamHub writes
    the rest (web/streams.py); elsewhere this request's thread writes them all."""
    live = live_session(session_id)
    viewer, token = page_viewer(live, request.args.get("as", "seat"))
    if live.state.closed:  # nothing more will change: 204 tells EventSource not to reconnect (the page polls)
        return Response(status=204, headers={"Cache-Control": "no-store"})
    hashed = token_hash(token or "")  # hashed once: the check runs at every change
    streams = slots()
    if not streams.take(current_app.config["MAX_STREAMS"], hashed):
        return Response("busy: poll /version\n", status=503, mimetype="text/plain", headers={"Retry-After": "10"})
    give_back = partial(streams.give_back, hashed)
    heartbeat = float(current_app.config["HEARTBEAT"])
    by_admin_key = token == current_app.config["ADMIN_KEY"]

    def allowed() -> bool:  # the token still belongs to this viewer (a reissue revokes it at once)
        return by_admin_key or live.tokens.get(hashed) == viewer

    push = request.args.get("push") == "1"
    since = request.headers.get("Last-Event-ID") or request.args.get("v", "")

    def message(wait: bool = True) -> tuple[int, bytes] | None:
        """(version, the SSE message of the session's current version): the viewer's own fragment, or a notice;
        with `wait=False` None while another thread holds the session (web/streams.py tries again)."""
        if not push:
            if not live.lock.acquire(blocking=wait):  # taken, so what a change under it did is complete
                return None
            version = live.version
            live.lock.release()
            return version, b"event: changed\ndata: %d\n\n" % version
        made = live_fragment(live, viewer, wait)
        if made is None:
            return None
        return made[0], fragment_message(*made)

    version = live.version
    if push and since != str(version):
        version, first = message()
    else:
        first = (b"id: %d\n" % version if push else b"") + b"event: changed\ndata: %d\n\n" % version
    first = b"retry: 1000\n" + first
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Vary": "Accept-Encoding"}
    compressor = None
    if push and "gzip" in request.headers.get("Accept-Encoding", ""):
        headers["Content-Encoding"] = "gzip"
        compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, GZIP_WINDOW_BITS, GZIP_MEM_LEVEL)

    def encoded(data: bytes) -> bytes:
        return compressed(data, compressor)

    hub, hand_over = request.environ.get("gmtool.streams"), request.environ.get("gmtool.hand_over")
    if hub is not None and hand_over is not None:
        stream = Stream(None, current_app._get_current_object(), live, lang(), version, heartbeat, allowed, message,
                        compressor, give_back)

        def handed_over():
            adopted = False
            try:
                yield encoded(first)
                stream.sock = hand_over()
                if stream.sock is not None:
                    hub.adopt(stream)
                    adopted = True
            finally:
                if not adopted:
                    give_back()

        return Response(handed_over(), mimetype="text/event-stream", headers=headers)

    disconnected = request.environ.get("waitress.client_disconnected", lambda: False)

    def written_here():
        nonlocal version
        try:
            yield encoded(first)
            wrote = time.monotonic()
            while not disconnected():  # checked every DISCONNECT_CHECK s: a closed screen frees its slot at once
                new = live.wait(version, min(heartbeat, DISCONNECT_CHECK))
                if live.shut:  # the server is stopping: the response ends, and the page reconnects to the next one
                    return
                if not allowed():
                    yield encoded(b"event: revoked\ndata: 0\n\n")
                    return
                if new != version:
                    version, data = message()
                    yield encoded(data)
                    wrote = time.monotonic()
                    if live.state.closed:
                        return
                elif time.monotonic() - wrote >= heartbeat:  # an event, not a comment, so the page can tell a dead connection
                    yield encoded(b"event: hb\ndata: %d\n\n" % version)
                    wrote = time.monotonic()
        finally:
            give_back()

    return Response(stream_with_context(written_here()), mimetype="text/event-stream", headers=headers)


@bp.get("/version")
def version(session_id: str):
    """The session's version, for polling when streaming is not available."""
    live = live_session(session_id)
    page_viewer(live, request.args.get("as", "seat"))
    return {"version": live.version}, 200, {"Cache-Control": "no-store"}
