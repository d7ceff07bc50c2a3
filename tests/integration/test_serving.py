"""The HTTP server (gmtool/serving.py): waitress's main loop stays quiet while request threads write
to live streams, and what a thread cannot send at once still goes out.

Real waitress on loopback; counts of the main loop's rounds, never times; a socket timeout is a
failure guard, not a measurement.
"""

from __future__ import annotations

import http.client
import select
import socket
import threading
import time

from gmtool_testing import running_in_thread

from gmtool.serving import StreamingChannel, make_server
from gmtool.web import create_app

ADMIN = "k" * 32


class CountingMap(dict):
    """waitress's socket map, counting the rounds of its main loop (each round lists the map's items)."""

    rounds = 0

    def items(self):
        self.rounds += 1
        return super().items()


def request(port: int, method: str, path: str, token: str, body: str | None = None) -> dict:
    import json
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    assert response.status < 300, data
    return data


def open_stream(port: int, sid: str, kind: str, token: str) -> socket.socket:
    """A screen's pushed live stream (what static/live.js opens), its first message read."""
    cookie = {"gm": "gmtool_gm_", "table": "gmtool_table_", "seat": "gmtool_seat_"}[kind] + sid
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /s/{sid}/events?push=1&as={kind}&v=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 f"Cookie: {cookie}={token}\r\n\r\n".encode())
    first = b""
    while b"event: fragment" not in first:
        data = sock.recv(65536)
        assert data, "the stream ended"
        first += data
    return sock


def test_the_main_loop_does_not_go_round_while_streams_are_written(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    sockets = CountingMap()
    server = make_server(app, map=sockets, host="127.0.0.1", port=0, threads=24, channel_request_lookahead=1)
    port = server.effective_port
    streams: list[socket.socket] = []
    with running_in_thread(server):
        try:
            created = request(port, "POST", "/api/sessions", ADMIN,
                              '{"title": "t", "seats": ["A", "B", "C", "D", "E", "F"], "counters": ["vp"]}')
            sid = created["session"]
            streams += [open_stream(port, sid, "seat", s["token"]) for s in created["seats"]]
            streams += [open_stream(port, sid, "table", created["table_token"]), open_stream(port, sid, "gm", created["gm_token"])]
            time.sleep(0.3)
            before, changes = sockets.rounds, 20
            for i in range(changes):
                version = request(port, "POST", f"/api/sessions/{sid}/counters", created["gm_token"],
                                  f'{{"seat": "s1", "key": "vp", "delta": {1 if i % 2 == 0 else -1}}}')["version"]
                time.sleep(0.02)
            rounds = (sockets.rounds - before) / changes
            for stream in streams:  # every screen got the last change
                seen = b""
                while f"id: {version}".encode() not in seen:
                    data = stream.recv(65536)
                    assert data, "the stream ended"
                    seen += data
            # A change is read, answered and pushed to eight streams: a handful of rounds. While the loop went
            # round as long as a thread was sending, it took about 70 here.
            assert rounds < 15, rounds
        finally:
            for stream in streams:
                stream.close()
            app.extensions["gmtool"].close_all()


def test_what_a_thread_cannot_send_at_once_goes_out_while_its_request_still_runs(tmp_path):
    size, done = 8 << 20, threading.Event()  # 8 MiB: more than the socket buffers hold

    def stream(environ, start_response):  # a live stream: a big message, then it waits for the next one
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        yield b"x" * size
        done.wait(30)

    # The main loop wakes on its own only once a minute here: what is left must be sent because the
    # thread woke it, not because the loop came round.
    server = make_server(stream, host="127.0.0.1", port=0, threads=4, asyncore_loop_timeout=60)
    try:
        with running_in_thread(server), socket.create_connection(("127.0.0.1", server.effective_port), timeout=10) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            time.sleep(0.5)  # a slow phone: the thread's sends fill the buffers, the rest waits in waitress
            received = 0
            while received < size:
                data = sock.recv(1 << 20)
                assert data, "the stream ended"
                received += len(data)
    finally:
        done.set()


def test_a_connection_is_left_to_the_thread_that_is_sending_on_it(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    server = make_server(app, host="127.0.0.1", port=0)
    ours, theirs = socket.socketpair()
    try:
        channel = StreamingChannel(server, ours, ("127.0.0.1", 0), server.adj, map={})
        channel.requests.append(object())  # a request thread runs on it …
        channel.total_outbufs_len = 10     # … and has written bytes not sent yet
        holding, release = threading.Event(), threading.Event()

        def sending():
            with channel.outbuf_lock:
                holding.set()
                release.wait(10)

        thread = threading.Thread(target=sending)
        thread.start()
        holding.wait(10)
        assert not channel.writable()  # the thread is sending: nothing for the main loop to do
        release.set()
        thread.join(10)
        assert channel.writable()      # it let go with bytes left: the main loop sends them
        channel.requests.clear()
        channel.total_outbufs_len = 0
        assert not channel.writable()
    finally:
        theirs.close()
        ours.close()
        server.close()


def test_a_closed_server_writes_nothing_into_a_file_that_took_its_trigger_number(tmp_path):
    """waitress writes to its trigger pipe's descriptor number even after closing it: a request thread
    finishing as the server closed could write into the next file opened (seen in the suite as a new
    session file that 'is not a database'). gmtool.serving guards the trigger."""
    import os
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    server = make_server(app, host="127.0.0.1", port=0)
    number = server.trigger.trigger  # the pipe's write end
    server.close()
    files = []
    try:
        while not files or files[-1][0] != number:  # the lowest free numbers are taken first: it comes soon
            path = tmp_path / f"f{len(files)}"
            files.append((os.open(path, os.O_RDWR | os.O_CREAT), path))
            assert len(files) < 64, "the trigger's number was not given out again"
        server.pull_trigger()  # what a request thread does when it finishes
        assert files[-1][1].read_bytes() == b""
    finally:
        for fd, _ in files:
            os.close(fd)


# -- idle connections (serving.QuietLoop): a phone's kept-alive connection waits for its next tap without being
# asked, on every round of the main loop, whether it wants anything --

def health(sock: socket.socket) -> None:
    """GET /api/health on a kept-alive connection, its whole answer read."""
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    answer = b""
    while b"\r\n\r\n" not in answer:
        data = sock.recv(65536)
        assert data, "the connection closed"
        answer += data
    head, body = answer.split(b"\r\n\r\n", 1)
    length = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")).split(b":")[1])
    while len(body) < length:
        body += sock.recv(65536)
    assert head.startswith(b"HTTP/1.1 200"), head


def keep_alive(port: int) -> socket.socket:
    """A connection that made one request and stays open for the next (what a browser keeps)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    health(sock)
    return sock


class CountingChannel(StreamingChannel):
    asked = 0

    def readable(self):
        CountingChannel.asked += 1
        return super().readable()


def test_idle_connections_are_not_asked_on_every_round(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    sockets = CountingMap()
    server = make_server(app, map=sockets, host="127.0.0.1", port=0, threads=4)
    server.channel_class = CountingChannel
    port, idle = server.effective_port, []
    with running_in_thread(server):
        try:
            idle += [keep_alive(port) for _ in range(30)]
            time.sleep(0.2)
            asked, rounds = CountingChannel.asked, sockets.rounds
            busy = keep_alive(port)
            for _ in range(20):  # requests on one connection while thirty wait
                health(busy)
            per_round = (CountingChannel.asked - asked) / (sockets.rounds - rounds)
            busy.close()
            assert per_round < 5, per_round  # waitress's own loop asks all 31 every round
            for sock in idle:  # each is still served when it sends again
                health(sock)
        finally:
            for sock in idle:
                sock.close()


def test_an_idle_connection_is_still_closed_after_the_channel_timeout(tmp_path, monkeypatch):
    from gmtool.serving import QuietLoop
    monkeypatch.setattr(QuietLoop, "REVIEW", 1000.0)  # only waitress's idle check may bring it back
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    server = make_server(app, host="127.0.0.1", port=0, channel_timeout=1, cleanup_interval=1)
    with running_in_thread(server), keep_alive(server.effective_port) as sock:
        sock.settimeout(10)
        assert sock.recv(1) == b""  # closed by the server (a timeout here: the idle connection was forgotten)


# -- what one client may hold (serving.ClientLimits): nobody on the Wi-Fi locks the others out with connections
# that never finish a request, or with many idle ones --

def limited_server(tmp_path, **limits):
    from gmtool.serving import ClientLimits
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    # loopback is trusted by default (the GM's laptop, the proxy of --workers): here it is the client under test
    return make_server(app, host="127.0.0.1", port=0, threads=4, channel_timeout=20, cleanup_interval=1,
                       client_limits=ClientLimits(trusted=frozenset(), **limits))


def test_one_address_holds_at_most_its_share_of_connections(tmp_path):
    server = limited_server(tmp_path, per_address=4)
    port, held = server.effective_port, []
    with running_in_thread(server):
        try:
            held += [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(4)]
            for sock in held:  # idle, and half a request: both count
                sock.sendall(b"GET /api/health HTTP/1.1\r\n")
            extra = socket.create_connection(("127.0.0.1", port), timeout=10)
            answer = b""
            while chunk := extra.recv(65536):  # refused at once, with a message, and closed
                answer += chunk
            extra.close()
            assert answer.startswith(b"HTTP/1.1 503"), answer
            assert "この端末からの接続が多すぎます".encode() in answer and b"Too many connections" in answer
        finally:
            for sock in held:
                sock.close()
        deadline = time.monotonic() + 10
        while True:  # each closed connection gives its place back
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                try:
                    health(sock)
                    break
                except AssertionError:
                    assert time.monotonic() < deadline, "the address never got its connections back"
            time.sleep(0.05)


def test_a_request_trickled_in_is_closed_at_its_deadline(tmp_path):
    server = limited_server(tmp_path, per_address=100, deadline=1.0)
    port = server.effective_port
    with running_in_thread(server):
        slow = socket.create_connection(("127.0.0.1", port), timeout=10)
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.settimeout(0.3)
        closed, answer, started = False, b"", time.monotonic()
        while time.monotonic() - started < 8:  # a header line every 0.3 s: never idle for waitress's timeout
            try:
                slow.sendall(b"X-a: b\r\n")
                data = slow.recv(65536)
                answer += data
                if data == b"":
                    closed = True
                    break
            except socket.timeout:
                continue
            except OSError:  # reset by the server
                closed = True
                break
        slow.close()
        assert closed, "a request that never finished arriving kept its connection"
        assert answer.startswith(b"HTTP/1.1 408"), answer  # told why, in both languages
        assert "時間内に届きませんでした".encode() in answer and b"did not arrive in time" in answer
        with keep_alive(port):  # a whole request is served as before
            pass


def test_a_flood_of_unfinished_requests_at_the_connection_limit_locks_nobody_out(tmp_path):
    """Many addresses holding unfinished requests (a slowloris from a few devices, each under its own share)
    fill the server's connections: a newcomer is still taken and answered, room being made by closing the
    connection waiting longest of the address holding the most; a request being answered and a phone's
    kept-alive connection stay. (Before, newcomers waited in the OS backlog for as long as the flood ran.)"""
    from gmtool.serving import ClientLimits
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    release, arrived = threading.Event(), threading.Semaphore(0)

    @app.get("/test-slow")
    def slow():  # a request being answered, held until the test lets it go
        arrived.release()
        release.wait(10)
        return "done"

    # 10 places in waitress's socket map: its listening socket, its trigger and 8 connections
    server = make_server(app, host="127.0.0.1", port=0, threads=4, connection_limit=10,
                         client_limits=ClientLimits(trusted=frozenset(), per_address=4))
    port, held = server.effective_port, []

    def connect(source: str) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        held.append(sock)
        return sock

    def unfinished(source: str) -> socket.socket:
        sock = connect(source)
        sock.sendall(b"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
        return sock

    with running_in_thread(server):
        try:
            phone = connect("127.0.1.9")
            health(phone)  # then kept alive, idle, for its next tap
            busy = connect("127.0.1.1")  # the oldest connection of the address holding the most …
            busy.sendall(b"GET /test-slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert arrived.acquire(timeout=10)  # … has a request being answered
            flood = [unfinished("127.0.1.1") for _ in range(3)]  # 127.0.1.1: 4 connections
            others = [unfinished(source) for source in ("127.0.1.2", "127.0.1.2", "127.0.1.3")]  # 8: the server is full
            for source in ("127.0.2.1", "127.0.2.2"):  # newcomers (a flood reopens what is closed)
                health(connect(source))  # taken and answered (before: a timeout, waiting in the backlog)
            release.set()
            assert busy.recv(65536).startswith(b"HTTP/1.1 200")  # the request being answered was left alone
            health(phone)  # and the phone's kept-alive connection serves its next tap
            # Read in a later round of the main loop than the one that closed the last connection to make room:
            # each one closed has its answer and its end in our buffer by now.
            cut = select.select(flood + others, [], [], 0)[0]
            assert len(cut) == 2 and set(cut) <= set(flood), cut  # 127.0.1.1's, holding the most (4, then 3)
            for sock in cut:  # told why, in both languages
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 408"), answer
                assert "時間内に届きませんでした".encode() in answer and b"did not arrive in time" in answer
        finally:
            release.set()
            for sock in held:
                sock.close()


def test_one_address_has_at_most_its_share_of_requests_answered_at_once(tmp_path):
    from gmtool.serving import ClientLimits
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN})
    release, arrived = threading.Event(), threading.Semaphore(0)

    @app.get("/test-slow")
    def slow():  # a heavy read, held until the test lets it go
        arrived.release()
        release.wait(10)
        return "done"

    server = make_server(app, host="127.0.0.1", port=0, threads=8,
                         client_limits=ClientLimits(trusted=frozenset(), in_flight=2))
    port, answers = server.effective_port, []

    def get(path):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path)
        response = conn.getresponse()
        answers.append((path, response.status, response.read()))
        conn.close()

    with running_in_thread(server):
        held = [threading.Thread(target=get, args=("/test-slow",)) for _ in range(2)]
        for thread in held:
            thread.start()
        for _ in held:
            assert arrived.acquire(timeout=10)
        get("/api/health")  # a third request of the same address while two are being answered
        path, status, body = answers[-1]
        assert status == 429, answers
        assert "この端末からの要求が多すぎます".encode() in body and b"Too many requests at once" in body
        release.set()
        for thread in held:
            thread.join(10)
        get("/api/health")  # answered again once the two are done
        assert answers[-1][1] == 200 and sorted(s for p, s, _ in answers if p == "/test-slow") == [200, 200]


def test_one_token_holds_at_most_its_share_of_live_streams(tmp_path):
    """A player's phone (one seat token) may keep a few tabs streaming, not take every slot of the server."""
    from gmtool.web.live import PER_TOKEN_STREAMS
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN, "MAX_STREAMS": 50})
    server = make_server(app, host="127.0.0.1", port=0, threads=8)
    port, streams = server.effective_port, []
    with running_in_thread(server):
        try:
            created = request(port, "POST", "/api/sessions", ADMIN, '{"title": "t", "seats": ["A", "B"]}')
            sid, mine, other = created["session"], created["seats"][0]["token"], created["seats"][1]["token"]
            streams += [open_stream(port, sid, "seat", mine) for _ in range(PER_TOKEN_STREAMS)]
            extra = socket.create_connection(("127.0.0.1", port), timeout=10)
            streams.append(extra)
            extra.sendall(f"GET /s/{sid}/events?push=1&as=seat&v=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          f"Cookie: gmtool_seat_{sid}={mine}\r\n\r\n".encode())
            assert extra.recv(65536).startswith(b"HTTP/1.1 503"), "a ninth stream of one token was let in"
            streams.append(open_stream(port, sid, "seat", other))  # another seat still gets its stream
        finally:
            for sock in streams:
                sock.close()
