"""Live streams written by one thread (issue 11).

Under `gmtool serve` a live stream's request answers its first message through waitress as usual, then
hands its connection over (gmtool/serving.py, `gmtool.hand_over` in the WSGI environment) to the
server's `StreamHub`: one thread that owns every live stream's socket from then on. When a session
changes, the hub renders each of its screens' messages (screens.live_fragment: once per viewer and
version, shared by the screens of that viewer), compresses and sends them without blocking, and keeps
what a slow screen has not taken yet. A screen that closes is seen at once (its socket becomes readable
and reads nothing); a stream whose viewer's token was reissued ends with `revoked`; one whose session was
shut (the server stopping) just ends, so that its screen reconnects to the next server instead of telling its
player that the link no longer works; a quiet stream gets a heartbeat.

Before, each stream held a waitress thread that woke at every change of its session, and its connection
stayed in waitress's main loop, which asks every connection whether it wants to read or write on every
round: in a room of 200 screens those were a large share of an action's cost. The hub's selector (epoll
on Linux, kqueue on macOS) looks only at sockets that are ready.

Without waitress (Flask's test client, another WSGI server) web/live.py serves the stream from its
request thread, as before; the messages are the same.
"""

from __future__ import annotations

import logging
import selectors
import socket
import threading
import time
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

from flask import g

log = logging.getLogger(__name__)

MAX_BACKLOG = 4 * 1024 * 1024  # bytes a screen may leave unread before its stream is dropped (it reconnects)
SEND_BUFFER = 128 * 1024       # bytes of a stream the kernel holds (fixed, not grown to megabytes per socket)
BUSY_RETRY = 0.01              # seconds before a session held by another thread is tried again
ENDING_GRACE = 5.0             # seconds an ending stream has to take its last bytes before its socket is closed
END_OF_BODY = b"0\r\n\r\n"     # the chunked response's end (waitress began the response chunked)


def chunk(data: bytes) -> bytes:
    """`data` as one chunk of a chunked HTTP/1.1 body."""
    return b"%X\r\n%s\r\n" % (len(data), data)


def compressed(data: bytes, compressor) -> bytes:
    """One SSE message as it goes on the wire: through the stream's gzip compressor (flushed, so the screen
    gets it whole now), or as it is when the screen did not ask for gzip (`compressor` None)."""
    return data if compressor is None else compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


@dataclass(eq=False)
class Stream:
    """One screen's live stream, handed over to the hub after its first message."""

    sock: socket.socket
    app: Any                              # the Flask app whose context renders the messages
    live: Any                             # runtime.LiveSession
    lang: str
    version: int                          # the version the screen has been sent
    heartbeat: float                      # seconds of quiet before a heartbeat
    allowed: Callable[[], bool]           # the token still belongs to this viewer
    message: Callable[[bool], tuple[int, bytes] | None]  # (version, SSE message) of the session's current version;
                                                        # message(False): None while the session is held
    compressor: Any = None                # the stream's zlib compressor (gzip), or None
    on_close: Callable[[], None] = lambda: None
    out: bytearray = field(default_factory=bytearray)
    wrote: float = field(default_factory=time.monotonic)
    ending: float = 0.0                   # when the stream was ended (0: still live)
    closed: bool = False

    def encode(self, data: bytes) -> bytes:
        return chunk(compressed(data, self.compressor))


class StreamHub:
    """The thread that writes a server's live streams (started with the first stream)."""

    def __init__(self):
        self.selector: selectors.BaseSelector | None = None  # made with the thread (a server may never stream)
        self.wake_r = self.wake_w = None                       # a socket pair that wakes the thread
        self.lock = threading.Lock()
        self.arrived: list[Stream] = []          # handed over, not registered yet (only the hub thread registers)
        self.dirty: set = set()                  # sessions changed since the hub last looked
        self.by_session: dict[Any, set[Stream]] = {}
        self.thread: threading.Thread | None = None
        self.stopping = False
        self.contexts: dict[int, Any] = {}       # a request context per app, pushed in the hub thread
        self.next_tend = 0.0                     # when heartbeats and ending streams are looked at next
        self.held = 0                            # streams registered with the selector
        self.busy: set = set()                   # sessions that were held by another thread: tried again soon
        self.tick = 5.0                          # seconds between two looks at heartbeats (a quarter of the shortest)

    # -- from other threads -------------------------------------------------------------------------
    def adopt(self, stream: Stream) -> None:
        """Take over a stream whose first message has been sent."""
        with self.lock:
            if self.stopping:
                stream.sock.close()
                stream.on_close()
                return
            self.arrived.append(stream)
            if self.thread is None:
                self.selector = selectors.DefaultSelector()
                self.wake_r, self.wake_w = socket.socketpair()
                for end in (self.wake_r, self.wake_w):
                    end.setblocking(False)
                self.selector.register(self.wake_r, selectors.EVENT_READ, None)
                self.thread = threading.Thread(target=self._run, name="gmtool-streams", daemon=True)
                self.thread.start()
            self._wake()

    def changed(self, live) -> None:
        """A session's listener: it has a new version, or was shut."""
        with self.lock:
            self.dirty.add(live)
            self._wake()

    def stop(self, timeout: float = 5.0) -> None:
        """End every stream (what they have been sent stays sent) and the thread."""
        with self.lock:
            self.stopping = True
            thread = self.thread
            self._wake()
        if thread is not None:
            thread.join(timeout)

    def open_streams(self) -> int:
        """How many streams the hub holds."""
        with self.lock:
            return len(self.arrived) + self.held

    def _wake(self) -> None:
        """Wake the thread (the caller holds self.lock: the wake socket is closed under it too, so a send never
        reaches a descriptor number the system has given to another file meanwhile)."""
        if self.wake_w is None:  # no thread
            return
        try:
            self.wake_w.send(b"\0")
        except (BlockingIOError, OSError):  # full: the thread is woken already
            pass

    # -- the hub thread -----------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while True:
                with self.lock:
                    arrived, self.arrived = self.arrived, []
                    dirty, self.dirty = self.dirty, set()
                    stopping = self.stopping
                for stream in arrived:
                    self._register(stream)
                    dirty.add(stream.live)  # what changed between its first message and now
                dirty |= self.busy
                self.busy = set()
                if stopping:
                    break
                for live in dirty:
                    for stream in list(self.by_session.get(live, ())):
                        self._update(stream)
                now = time.monotonic()
                if now >= self.next_tend:
                    self._tend(now)
                    self.next_tend = now + (self.tick if self.held else 5.0)
                for key, mask in self.selector.select(self._timeout()):
                    if key.data is None:
                        self._drain_wake()
                        continue
                    stream = key.data
                    if mask & selectors.EVENT_READ:
                        self._read(stream)
                    if mask & selectors.EVENT_WRITE and not stream.closed:
                        self._flush(stream)
        except Exception:  # noqa: BLE001  a bug here must not leave screens hanging: they reconnect
            log.exception("the live stream thread failed")
        finally:
            self._shut_down()

    def _shut_down(self) -> None:
        """Close every stream (their screens reconnect, or poll) and what the thread made. After a failure the
        next stream handed over starts a new thread; after stop() none does."""
        for streams in list(self.by_session.values()):
            for stream in list(streams):
                self._close(stream)
        for ctx in reversed(list(self.contexts.values())):
            ctx.pop()
        self.contexts = {}
        with self.lock:
            for stream in self.arrived:
                stream.sock.close()
                stream.on_close()
            self.arrived, self.dirty = [], set()
            selector, wake_r = self.selector, self.wake_r
            self.wake_w.close()
            self.selector = self.wake_r = self.wake_w = self.thread = None
        selector.close()
        wake_r.close()

    def _timeout(self) -> float:
        if self.busy:
            return BUSY_RETRY
        return self.tick if self.held else 5.0

    def _drain_wake(self) -> None:
        try:
            while self.wake_r.recv(4096):
                pass
        except (BlockingIOError, OSError):
            pass

    def _register(self, stream: Stream) -> None:
        if stream.live not in self.by_session:
            self.by_session[stream.live] = set()
            if self.changed not in stream.live.listeners:
                stream.live.listeners.append(self.changed)
        self.by_session[stream.live].add(stream)
        self.held += 1
        self.tick = max(0.05, min(self.tick, 1.0, stream.heartbeat / 4))
        try:
            stream.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            self.selector.register(stream.sock, selectors.EVENT_READ, stream)
        except (OSError, ValueError):  # the socket is gone already
            self._close(stream)

    def _in_context(self, stream: Stream) -> None:
        """The stream's app's request context is the current one, with the stream's language."""
        key = id(stream.app)
        if key not in self.contexts:
            ctx = self.contexts[key] = stream.app.test_request_context("/")
            ctx.push()
        g.lang = stream.lang

    def _update(self, stream: Stream) -> None:
        """Send the stream its session's new version (or end it, revoked, if its viewer may no longer see it)."""
        if stream.closed or stream.ending:
            return
        live = stream.live
        if live.shut:  # the server is stopping: the response ends, and the page reconnects to the next one
            self._end(stream)
            return
        if live.version == stream.version and stream.allowed():  # nothing new (a change's listener sees its new version)
            return
        try:
            self._in_context(stream)
            made = stream.message(False)
        except Exception:  # noqa: BLE001  the screen reconnects, and its request shows the failure
            log.exception("a live message could not be made")
            self._close(stream)
            return
        if made is None:  # another thread holds the session (an export, a long log page): the others go on
            self.busy.add(live)
            return
        # Asked after the message, which took the session: a change made under it (a token reissued, then the
        # old token dropped) is complete by now.
        if not stream.allowed():
            self._send(stream, b"event: revoked\ndata: 0\n\n")
            self._end(stream)
            return
        if made[0] == stream.version:
            return
        stream.version, data = made
        self._send(stream, data)
        if live.state.closed:
            self._end(stream)

    def _tend(self, now: float) -> None:
        """Heartbeats for quiet streams; ending streams that did not take their last bytes are closed."""
        for streams in list(self.by_session.values()):
            for stream in list(streams):
                if stream.ending:
                    if now - stream.ending > ENDING_GRACE:
                        self._close(stream)
                elif now - stream.wrote >= stream.heartbeat:  # an event, not a comment: the page can tell a dead connection
                    if not stream.allowed():
                        self._send(stream, b"event: revoked\ndata: 0\n\n")
                        self._end(stream)
                    else:
                        self._send(stream, b"event: hb\ndata: %d\n\n" % stream.version)

    def _send(self, stream: Stream, data: bytes) -> None:
        stream.out += stream.encode(data)
        stream.wrote = time.monotonic()
        self._flush(stream)

    def _end(self, stream: Stream) -> None:
        """End the response (the page reconnects, or stops on a closed session's 204)."""
        stream.out += END_OF_BODY
        stream.ending = time.monotonic()
        self._flush(stream)

    def _flush(self, stream: Stream) -> None:
        if stream.closed:
            return
        while stream.out:
            try:
                sent = stream.sock.send(stream.out)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                self._close(stream)
                return
            del stream.out[:sent]
        if stream.out and len(stream.out) > MAX_BACKLOG:  # a screen that does not read: it reconnects later
            self._close(stream)
            return
        if not stream.out and stream.ending:
            self._close(stream)
            return
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.out else 0)
        if self.selector.get_key(stream.sock).events != events:
            self.selector.modify(stream.sock, events, stream)

    def _read(self, stream: Stream) -> None:
        """The screen closed its end, or sent something: a browser's EventSource sends nothing after its
        request, so whatever sends is not one (and is not read on and on): either way the stream ends."""
        try:
            stream.sock.recv(1)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            pass
        self._close(stream)

    def _close(self, stream: Stream) -> None:
        if stream.closed:
            return
        stream.closed = True
        self.held -= 1
        try:
            self.selector.unregister(stream.sock)
        except (KeyError, ValueError):
            pass
        stream.sock.close()
        group = self.by_session.get(stream.live)
        if group is not None:
            group.discard(stream)
            if not group:
                del self.by_session[stream.live]
                if self.changed in stream.live.listeners:
                    stream.live.listeners.remove(self.changed)
        stream.on_close()
