"""The HTTP server gmtool runs: waitress, with a connection that its main loop leaves alone while the
request thread writing to it is sending, and a main loop that leaves idle connections alone (QuietLoop;
issue 11).

waitress serves each request in a thread of its pool and watches every open connection from one main
loop. A request thread sends what it writes itself (waitress's `send_bytes` is 1), holding the
connection's output lock. While it does, the connection has bytes waiting, so to the main loop it is
writable: select returns at once, the loop finds the lock taken, sends nothing and goes round again,
asking every open connection whether it wants to read or write, until the thread is done. Every live
stream's message did this: one table of ten screens cost about 70 rounds of the loop per action, each
over every open connection, so in a room of 200 screens the loop used more of the interpreter than
rendering did. With `StreamingChannel` the loop skips a connection while its request thread is
sending (3 rounds per action, measured with the same table), and a thread that could not send
everything (a full socket buffer: a slow phone) wakes the loop once it has let go of the lock.
"""

from __future__ import annotations

import errno
import json
import select
import threading
import time
from collections import Counter
from types import SimpleNamespace

from waitress import create_server, wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import WSGITask
from werkzeug.wsgi import ClosingIterator

from .core.errors import error_json
from .limits import Shares
from .web.streams import StreamHub

HAND_OVER_TIMEOUT = 5.0  # seconds a stream's first message has to leave before its connection is handed over
PER_ADDRESS = 32         # connections one client address may hold open (a browser uses at most 6 per server)
IN_FLIGHT = 12           # requests of one client address being answered at once (of the server's 24 threads)
REQUEST_DEADLINE = 60.0  # seconds from a request's first byte until all of it (headers and body) has arrived
# (the largest body, a 256 KiB import by the home page's form, 264 KiB, at 5 KB/s takes 54 s)
LIMIT_LOG_INTERVAL = 60.0  # seconds between two warnings that the connection limit was reached
TRUSTED = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1", "localhost"})  # addresses not held to PER_ADDRESS and
# IN_FLIGHT: the GM's own laptop, and the proxy in front of --workers, whose connections carry every phone's requests
TOO_MANY = ("この端末からの接続が多すぎます。ほかのタブを閉じてから再読み込みしてください。",
            "Too many connections from this device. Close other tabs, then reload.")
TOO_SLOW = ("要求が時間内に届きませんでした。やり直してください。",
            "The request did not arrive in time. Please try again.")
TOO_BUSY = ("この端末からの要求が多すぎます。少し待ってからやり直してください。",
            "Too many requests at once from this device. Wait a moment, then try again.")


class ClientLimits:
    """What one client may hold of the server, so that nobody on the Wi-Fi can lock the others out with
    connections that never finish a request (a "slowloris": a header line every few seconds keeps
    waitress's idle timeout from ever closing one), with many idle ones, or with a flood of heavy requests: at
    most `per_address` connections from one address and `in_flight` of its requests answered at once (`trusted`
    addresses excepted), a request's headers and body must have arrived within `deadline` seconds of its
    first byte, and at the server's connection limit a new connection makes room for itself (make_room: a flood
    of unfinished requests from many addresses, each under its share, locks nobody out). Shared by the server's
    listening sockets."""

    def __init__(self, per_address: int = PER_ADDRESS, deadline: float = REQUEST_DEADLINE,
                 trusted: frozenset = TRUSTED, in_flight: int = IN_FLIGHT):
        self.per_address, self.deadline, self.trusted, self.in_flight = per_address, deadline, trusted, in_flight
        self.open, self.running = Shares(), Shares()  # connections, and requests being answered, by address

    def admit(self, address: str) -> bool:
        """Count a new connection from `address`, unless it has as many open as it may."""
        return address in self.trusted or self.open.take(address, self.per_address)

    def release(self, address: str) -> None:
        """A counted connection from `address` closed."""
        if address not in self.trusted:
            self.open.give(address)

    def start(self, address: str) -> bool:
        """Count a request of `address` as being answered, unless as many of its requests already are."""
        return address in self.trusted or self.running.take(address, self.in_flight)

    def finish(self, address: str) -> None:
        """A counted request of `address` was answered (its response closed)."""
        if address not in self.trusted:
            self.running.give(address)

    def wsgi(self, app):
        """`app` answering at most `in_flight` requests of one address at once: the rest get a 429 at once, so one
        device flooding the server with heavy reads holds at most that many of its threads."""
        body = error_body(429, *TOO_BUSY)

        def limited(environ, start_response):
            address = environ.get("REMOTE_ADDR", "")
            if not self.start(address):
                start_response("429 Too Many Requests", [("Content-Type", "application/json"),
                                                          ("Content-Length", str(len(body))), ("Retry-After", "1")])
                return [body]
            try:
                result = app(environ, start_response)
            except BaseException:
                self.finish(address)
                raise
            return ClosingIterator(result, lambda: self.finish(address))

        return limited

    def overdue(self, channels, now: float) -> None:
        """Answer 408 and close every connection whose request has been arriving for longer than the deadline."""
        cutoff = now - self.deadline
        for channel in channels:
            since = getattr(channel, "receiving_since", None)
            if since is not None and since < cutoff and not channel.requests and not channel.close_when_flushed:
                cut_off(channel)

    def make_room(self, channels, newcomer) -> HTTPChannel | None:
        """At the connection limit, with `newcomer` just taken: close one connection that holds its place without a
        request being answered (a request still arriving, or a kept-alive connection waiting for its next one), the
        one waiting longest of the client address holding the most connections. A flood of unfinished requests from
        many addresses then churns through its own connections instead of locking everyone else out: every new
        connection is taken, and one whose request arrives whole at once is answered. Returns the one closed (None:
        every other connection has a request being answered)."""
        others = [c for c in channels if isinstance(c, HTTPChannel) and c is not newcomer]
        held = Counter(client_address(c) for c in others)
        victim = min((c for c in others if waiting(c)), default=None,
                     key=lambda c: (-held[client_address(c)], c.receiving_since or c.last_activity))
        if victim is not None:
            cut_off(victim)
        return victim


def client_address(channel) -> str:
    addr = channel.addr
    return addr[0] if isinstance(addr, tuple) and addr else str(addr)


def waiting(channel) -> bool:
    """Whether `channel` holds its place with no request of it being answered or queued (ClientLimits.make_room)."""
    return channel.connected and not channel.requests and not channel.will_close and not channel.close_when_flushed


def cut_off(channel) -> None:
    """Close `channel` from the main loop: a request still arriving is answered 408 first (both languages); a
    connection between requests is closed without a word, as waitress's idle timeout does (a browser opens a new one
    for its next request)."""
    if channel.request is None:
        channel.will_close = True
        return
    channel.receiving_since = None
    try:
        channel.write_soon(refusal("408 Request Timeout", *TOO_SLOW))
        channel.close_when_flushed = True  # and what else arrives is not read (HTTPChannel.received)
    except Exception:  # noqa: BLE001  gone meanwhile (ClientDisconnected): closed without a word
        channel.will_close = True


def error_body(status: int, ja: str, en: str) -> bytes:
    """The API's error JSON (core.errors.error_json) as the server writes it itself."""
    return json.dumps(error_json(status, ja, en), ensure_ascii=False).encode()


def refusal(status: str, ja: str, en: str) -> bytes:
    """A whole HTTP response the server writes itself, outside any request (JSON, both languages)."""
    body = error_body(int(status.split()[0]), ja, en)
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: 10\r\nConnection: close\r\n\r\n").encode() + body


class StreamingChannel(HTTPChannel):
    """waitress's connection, not writable to the main loop while a request thread sends on it, counted against
    its client's ClientLimits (a connection over them is answered 503 and closed at once); one taken at the
    server's connection limit makes room for itself (ClientLimits.make_room)."""

    receiving_since: float | None = None  # when the request being received began (ClientLimits.deadline)
    counted: str | None = None            # the address this connection is counted against

    def __init__(self, server, sock, addr, adj, map=None):  # noqa: A002  waitress's signature
        limits: ClientLimits | None = getattr(server, "client_limits", None)
        address = addr[0] if isinstance(addr, tuple) and addr else str(addr)
        if limits is not None and not limits.admit(address):
            try:
                sock.send(refusal("503 Service Unavailable", *TOO_MANY))
            except OSError:
                pass
            sock.close()
            self.socket, self._fileno, self.connected = None, None, False  # never added to the loop's map
            return
        try:
            super().__init__(server, sock, addr, adj, map)
        except BaseException:
            if limits is not None and address not in limits.trusted:
                limits.release(address)  # admitted, never added
            raise
        if limits is not None and address not in limits.trusted:
            self.counted = address
        if limits is not None and len(self._map) > server.adj.connection_limit:  # taken at the limit (room_to_accept)
            victim = limits.make_room(list(self._map.values()), self)
            if victim is not None:
                server.unpark(victim)

    def del_channel(self, map=None):  # noqa: A002
        super().del_channel(map)
        if self.counted is not None:
            self.server.client_limits.release(self.counted)
            self.counted = None

    def received(self, data):
        handled = super().received(data)
        if self.request is None:  # every request so far is complete
            self.receiving_since = None
        elif self.receiving_since is None:
            self.receiving_since = time.time()  # waitress's clock (maintenance's `now`)
        return handled

    def writable(self):
        if not super().writable():
            return False
        if self.will_close or self.close_when_flushed or not self.requests:
            return True
        if self.outbuf_lock.acquire(False):  # no request thread is sending now: what waits is the loop's to send
            self.outbuf_lock.release()
            return True
        return False

    def write_soon(self, data):
        written = super().write_soon(data)
        if self.total_outbufs_len:  # not all of it went out (waitress woke the loop while holding the lock)
            self.server.pull_trigger()
        return written


def guard_trigger(trigger) -> None:
    """Make waitress's trigger (the pipe its request threads write to, to wake the main loop) write nothing once
    it is closed. waitress writes to the pipe's descriptor number even after closing it; a thread finishing a
    request, or a stream being handed over, as the server closes could then write into whatever file the
    system gave that number next (another server's session file, in the test suite: "file is not a
    database"). The write and the close are made one at a time."""
    if getattr(trigger, "guarded", False):
        return
    lock = threading.Lock()
    pull, close = trigger._physical_pull, trigger._close

    def guarded_pull():
        with lock:
            if not trigger._closed:  # set by close() before it closes the descriptors
                pull()

    def guarded_close():
        with lock:
            close()

    trigger._physical_pull, trigger._close, trigger.guarded = guarded_pull, guarded_close, True


class StreamingTask(WSGITask):
    """A request on a StreamingChannel. Its WSGI environment carries the server's StreamHub
    (`gmtool.streams`) and `gmtool.hand_over`, with which a live stream gives its connection to the hub
    after its first message (web/live.py)."""

    def get_environment(self):
        environ = super().get_environment()
        environ["gmtool.streams"] = self.channel.server.stream_hub
        environ["gmtool.hand_over"] = self.hand_over
        return environ

    def hand_over(self):
        """This connection's socket (a duplicate, non-blocking) for the hub to write the rest of the response,
        once what waitress has been given of it is sent; waitress then ends the response without its last chunk
        and closes its own descriptor (the connection stays open: the hub holds the other). None if what was
        written did not leave in time, the client is gone, or the server is stopping.

        The duplicate is made in waitress's main loop (a trigger thunk): that loop is the only thread that
        closes a connection's socket, so the descriptor cannot be closed, and its number given to another
        file, between the look and the dup."""
        channel = self.channel
        deadline = time.monotonic() + HAND_OVER_TIMEOUT
        while time.monotonic() < deadline:
            done, lock, taken = threading.Event(), threading.Lock(), []

            def take():  # in the main loop
                with lock:
                    if done.is_set():  # the request gave up waiting
                        return
                    try:
                        if channel.connected and channel.socket is not None and not channel.total_outbufs_len:
                            taken.append(channel.socket.dup())
                    except OSError:
                        pass
                    done.set()

            channel.server.trigger.pull_trigger(take)
            finished = done.wait(max(0.0, deadline - time.monotonic()))
            with lock:
                if not finished and not done.is_set():
                    done.set()  # too late for the thunk: it takes nothing
                    return None
            if taken:
                sock = taken[0]
                sock.setblocking(False)
                self.chunked_response = False  # the hub goes on with the chunked body: waitress must not end it
                self.close_on_finish = True
                return sock
            if not channel.connected:
                return None
            time.sleep(0.005)  # what was written is still being sent by the main loop
        return None


StreamingChannel.task_class = StreamingTask


class QuietLoop:
    """waitress's main loop (wasyncore.loop on poll()) that does not ask idle connections what they want
    on every round.

    waitress asks each open connection, on every round of its loop, whether it wants to read or write,
    and builds a new poll set from the answers. A phone that loaded a page keeps its connection open
    (keep-alive) for the next tap; in a room of 200 screens those idle connections were most of what the
    loop did (about 1 ms a round, 2.6 rounds an action on the bench). A connection with no request, nothing
    to send and no close pending wants only to read its next request, and only the main loop can change
    that (it reads the request); so it is *parked*: kept in the poll set as a reader and not asked again
    until it becomes readable. Everything else is asked every round, as waitress does. Parked connections
    are asked again after waitress's idle-timeout check (which closes them), and every REVIEW seconds anyway
    (for what no one tells the loop about: a request thread's "100 Continue" that did not go out whole)."""

    REVIEW = 1.0  # seconds: every connection is asked again at least this often
    READ = select.POLLIN | select.POLLPRI if hasattr(select, "poll") else 0

    def __init__(self):
        self.pollster = select.poll()
        self.registered: dict[int, int] = {}  # descriptor -> the events it is polled for
        self.parked: dict[int, object] = {}   # descriptor -> an idle connection, polled for reading only
        self.review_at = 0.0

    def review(self) -> None:
        """Ask every connection again on the next round (after waitress's idle-timeout check)."""
        self.review_at = 0.0

    def unpark(self, channel) -> None:
        """Ask `channel` again on the next round (it was told to close: ClientLimits.make_room)."""
        if self.parked.get(channel._fileno) is channel:
            del self.parked[channel._fileno]

    def loop(self, timeout=30.0, use_poll=True, map=None, count=None):  # noqa: A002  wasyncore.loop's signature
        while map and (count is None or count > 0):
            self.round(timeout, map)
            count = None if count is None else count - 1

    def round(self, timeout: float, map: dict) -> None:  # noqa: A002
        now = time.monotonic()
        parked, registered = self.parked, self.registered
        if now >= self.review_at:
            parked.clear()
            self.review_at = now + self.REVIEW
        for fd, obj in list(map.items()):
            if parked.get(fd) is obj:
                continue
            idle = isinstance(obj, HTTPChannel) and not obj.requests  # asked first: a finishing request thread
            flags = 0                                                  # writes before it drops its request
            if obj.readable():
                flags |= self.READ
            if obj.writable() and not obj.accepting:
                flags |= select.POLLOUT
            if idle and flags == self.READ:
                parked[fd] = obj
            if registered.get(fd, 0) != flags:
                if flags:
                    self.pollster.register(fd, flags)  # registers, or modifies a registration
                    registered[fd] = flags
                else:
                    self.pollster.unregister(fd)
                    del registered[fd]
        for fd in [fd for fd in registered if fd not in map]:  # closed connections
            self.pollster.unregister(fd)
            del registered[fd]
            parked.pop(fd, None)
        try:
            ready = self.pollster.poll(None if timeout is None else int(timeout * 1000))
        except OSError as err:
            if err.args[0] != errno.EINTR:
                raise
            ready = []
        for fd, flags in ready:
            parked.pop(fd, None)
            obj = map.get(fd)
            if obj is not None:
                wasyncore.readwrite(obj, flags)


def run_quietly(server, sockets: dict) -> None:
    """Run `server`'s main loop as a QuietLoop over its socket map `sockets` where the system has poll()
    (elsewhere, as on Windows, waitress's own select() loop)."""
    if not hasattr(select, "poll"):
        return
    quiet = QuietLoop()
    server.asyncore = SimpleNamespace(loop=quiet.loop)
    for dispatcher in list(sockets.values()):
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.unpark = quiet.unpark
            maintenance = dispatcher.maintenance

            def maintained(now, maintenance=maintenance):
                maintenance(now)  # may have marked idle connections to be closed
                quiet.review()

            dispatcher.maintenance = maintained


def room_to_accept(dispatcher):
    """The listening socket's `readable` (waitress's, which also runs the idle check): at the connection limit
    waitress stops taking connections, leaving newcomers in the OS backlog until one closes, so connections that
    never finish a request, opened again as they are closed, kept everyone else out. This one goes on taking
    them while some connection waits without a request being answered (each new one then closes such a
    connection: ClientLimits.make_room); only when every connection has a request being answered do newcomers
    wait in the backlog."""
    logged = {True: -LIMIT_LOG_INTERVAL, False: -LIMIT_LOG_INTERVAL}  # when each warning was last logged

    def readable():
        now = time.time()
        if now >= dispatcher.next_channel_cleanup:
            dispatcher.next_channel_cleanup = now + dispatcher.adj.cleanup_interval
            dispatcher.maintenance(now)
        if not dispatcher.accepting:
            return False
        sockets = dispatcher._map
        if len(sockets) < dispatcher.adj.connection_limit:
            return True
        room = any(isinstance(c, HTTPChannel) and waiting(c) for c in list(sockets.values()))
        if now >= logged[room] + LIMIT_LOG_INTERVAL:  # once a minute: a flood reaches the limit at every connection
            logged[room] = now
            dispatcher.logger.warning(
                "total open connections reached the connection limit: each new connection closes the longest-waiting "
                "idle or unfinished one" if room else
                "total open connections reached the connection limit and each has a request being answered: new "
                "connections wait")
        return room

    return readable


def make_server(app, map: dict | None = None, client_limits: ClientLimits | None = None,  # noqa: A002  waitress's name
                **settings):
    """A waitress server for `app` (not yet running) whose connections are StreamingChannels and whose live
    streams are written by one StreamHub; `map` is waitress's socket map (every listening socket and
    connection), a new one if not given; `client_limits` what one client may hold (ClientLimits' defaults if
    not given). Closing the server ends its streams."""
    sockets = {} if map is None else map
    limits = client_limits or ClientLimits()
    server = create_server(limits.wsgi(app), map=sockets, **settings)
    hub = StreamHub()
    for dispatcher in sockets.values():  # one listening server per address
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = StreamingChannel
            dispatcher.stream_hub = hub
            dispatcher.client_limits = limits
            dispatcher.readable = room_to_accept(dispatcher)
            dispatcher.unpark = lambda channel: None  # run_quietly: a parked connection is asked again
            guard_trigger(dispatcher.trigger)
            maintenance = dispatcher.maintenance

            def maintained(now, maintenance=maintenance, dispatcher=dispatcher):
                maintenance(now)  # waitress's idle timeout
                limits.overdue(list(dispatcher.active_channels.values()), now)

            dispatcher.maintenance = maintained
    run_quietly(server, sockets)
    close = server.close

    def close_with_streams():
        hub.stop()
        close()

    server.close = close_with_streams
    server.stream_hub = hub
    return server
