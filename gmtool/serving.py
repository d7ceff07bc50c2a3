"""The HTTP server gmtool runs: waitress, with a connection that its main loop leaves alone while the
request thread writing to it is sending (issue 11).

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

from waitress import create_server
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer


class StreamingChannel(HTTPChannel):
    """waitress's connection, not writable to the main loop while a request thread sends on it."""

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


def make_server(app, map: dict | None = None, **settings):  # noqa: A002  waitress's name for its socket map
    """A waitress server for `app` (not yet running) whose connections are StreamingChannels; `map` is
    waitress's socket map (every listening socket and connection), a new one if not given."""
    sockets = {} if map is None else map
    server = create_server(app, map=sockets, **settings)
    for dispatcher in sockets.values():  # one listening server per address
        if isinstance(dispatcher, BaseWSGIServer):
            dispatcher.channel_class = StreamingChannel
    return server
