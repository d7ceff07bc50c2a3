"""The live streams' own thread (gmtool/web/streams.py): after its first message a stream leaves waitress and
one thread writes it. Real waitress on loopback, raw sockets as the screens; timeouts are failure guards."""

from __future__ import annotations

import json
import socket
import time

import pytest

from gmtool_testing import running_in_thread

import gmtool.web.streams as streams_module
from gmtool.serving import StreamingChannel, make_server
from gmtool.web import create_app

ADMIN = "k" * 32


def api(port: int, path: str, token: str, body: dict | None = None) -> dict:
    data = json.dumps(body or {}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, body_bytes = raw.partition(b"\r\n\r\n")
    assert b" 20" in head.split(b"\r\n")[0], raw[:300]
    return json.loads(body_bytes)


def open_stream(port: int, sid: str, kind: str, token: str, rcvbuf: int | None = None) -> socket.socket:
    """A screen's pushed stream (no gzip: the messages read as text), its first message read."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    cookie = {"gm": "gmtool_gm_", "table": "gmtool_table_", "seat": "gmtool_seat_"}[kind] + sid
    sock.sendall(f"GET /s/{sid}/events?push=1&as={kind}&v=0 HTTP/1.1\r\nHost: x\r\nCookie: {cookie}={token}\r\n\r\n".encode())
    read_until(sock, b"event: fragment")
    return sock


def read_until(sock: socket.socket, wanted: bytes, seen: bytes = b"") -> bytes:
    while wanted not in seen:
        data = sock.recv(65536)
        assert data, f"the stream ended before {wanted!r}"
        seen += data
    return seen


def read_to_end(sock: socket.socket) -> bytes:
    seen = b""
    while data := sock.recv(65536):
        seen += data
    return seen


def wait_for(check, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def session(tmp_path, **config):
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": ADMIN, **config})
    server = make_server(app, host="127.0.0.1", port=0, threads=8, channel_request_lookahead=1)
    return app, server


def test_streams_leave_waitress_and_every_screen_gets_every_change(tmp_path):
    app, server = session(tmp_path)
    port, hub = int(server.effective_port), server.stream_hub
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A", "B", "C", "D"], "counters": ["vp"]})
        sid = created["session"]
        screens = [open_stream(port, sid, "seat", s["token"]) for s in created["seats"]]
        screens += [open_stream(port, sid, "table", created["table_token"]), open_stream(port, sid, "gm", created["gm_token"])]
        try:
            wait_for(lambda: hub.open_streams() == 6, "the six streams were handed to the stream thread")
            # waitress keeps none of their connections: its loop looks only at requests
            wait_for(lambda: not [c for c in server._map.values() if isinstance(c, StreamingChannel)],
                     "waitress closed its side of the handed-over connections")
            for i in range(5):
                version = api(port, f"/api/sessions/{sid}/counters", created["gm_token"],
                              {"seat": "s1", "key": "vp", "delta": 1})["version"]
            for screen in screens:  # the last change reached every screen, its value on every one
                seen = read_until(screen, f"id: {version}\n".encode())
                assert b'data-key="vp">5<' in seen.split(f"id: {version}\n".encode())[1]
            assert app.extensions["gmtool_streams"].open == 6
        finally:
            for screen in screens:
                screen.close()
        # a screen that closes frees its slot at once: its socket reads nothing
        wait_for(lambda: hub.open_streams() == 0 and app.extensions["gmtool_streams"].open == 0, "slots freed")
        # a client that sends on its stream is not a page's EventSource: its stream ends (not read on and on)
        talker = open_stream(port, sid, "table", created["table_token"])
        wait_for(lambda: hub.open_streams() == 1, "handed over")
        talker.sendall(b"x" * 10000)
        try:
            read_to_end(talker)
        except ConnectionResetError:  # the server closed with bytes unread: a reset, as good as an end
            pass
        talker.close()
        wait_for(lambda: hub.open_streams() == 0 and app.extensions["gmtool_streams"].open == 0, "its slot freed")


def test_a_screen_that_does_not_read_holds_up_no_one_and_is_dropped(tmp_path, monkeypatch):
    monkeypatch.setattr(streams_module, "MAX_BACKLOG", 128 * 1024)
    app, server = session(tmp_path)
    port, hub = int(server.effective_port), server.stream_hub
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A", "B"], "counters": ["vp"]})
        sid, gm = created["session"], created["gm_token"]
        slow = open_stream(port, sid, "gm", gm, rcvbuf=4096)  # reads nothing from here on
        fast = open_stream(port, sid, "table", created["table_token"])
        try:
            version = 0
            for i in range(120):  # each change sends the GM console's whole fragment (kilobytes) to the slow one
                version = api(port, f"/api/sessions/{sid}/counters", gm,
                              {"seat": "s1", "key": "vp", "delta": 1 if i % 2 == 0 else -1, "reason": "x" * 200})["version"]
                read_until(fast, f"id: {version}\n".encode())  # the table screen keeps up, change by change
            wait_for(lambda: hub.open_streams() == 1, "the screen that does not read was dropped")
            assert app.extensions["gmtool_streams"].open == 1
        finally:
            slow.close()
            fast.close()


def test_a_reissued_token_ends_its_stream_with_revoked(tmp_path):
    app, server = session(tmp_path)
    port, hub = int(server.effective_port), server.stream_hub
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A", "B"], "counters": ["vp"]})
        sid = created["session"]
        phone = open_stream(port, sid, "seat", created["seats"][0]["token"])
        other = open_stream(port, sid, "seat", created["seats"][1]["token"])
        try:
            api(port, f"/api/sessions/{sid}/seats/s1/token", created["gm_token"])
            rest = read_to_end(phone)  # the response ends: the page's EventSource reconnects, and is refused
            assert b"event: revoked" in rest and rest.endswith(b"0\r\n\r\n")
            assert b"event: revoked" not in read_until(other, b"id: ")  # the other seat goes on
            wait_for(lambda: hub.open_streams() == 1 and app.extensions["gmtool_streams"].open == 1, "one stream left")
        finally:
            phone.close()
            other.close()


def test_a_stopping_server_ends_its_streams_without_saying_revoked(tmp_path):
    """Ctrl+C closes the sessions before the process ends: their streams end, and the screens reconnect to the
    next server. A `revoked` would make every phone stop and tell its player to ask for a new QR code."""
    app, server = session(tmp_path)
    port, hub = int(server.effective_port), server.stream_hub
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A"], "counters": ["vp"]})
        phone = open_stream(port, created["session"], "seat", created["seats"][0]["token"])
        try:
            wait_for(lambda: hub.open_streams() == 1, "handed over")
            app.extensions["gmtool"].stop()  # what `gmtool serve` does at Ctrl+C (cli.cmd_serve)
            rest = read_to_end(phone)
            assert rest.endswith(b"0\r\n\r\n") and b"revoked" not in rest
        finally:
            phone.close()


def call(port: int, method: str, path: str, headers: dict, body: dict | None = None) -> tuple[int, dict]:
    """(status, JSON body) of one request, whatever its status."""
    import http.client
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request(method, path, None if body is None else json.dumps(body),
                     {"Content-Type": "application/json", **headers})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def test_a_request_that_comes_after_ctrl_c_closed_the_sessions_is_refused_and_writes_nothing(tmp_path):
    """Between Ctrl+C closing the sessions (cli.cmd_serve) and the process's end, request threads still answer what
    had arrived. Such a request reopened its session (or made a new one) and wrote to it while the server stopped;
    it is now a 503 in both languages (a screen queues the tap and sends it to the next server), and nothing is
    written: the folder is as Ctrl+C left it."""
    from gmtool.core import commands
    from gmtool.runtime import ServerStopping
    app, server = session(tmp_path)
    port = int(server.effective_port)
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A"], "counters": ["vp"]})
        sid, gm = created["session"], {"Authorization": f"Bearer {created['gm_token']}"}
        manager = app.extensions["gmtool"]
        held = manager.get(sid)  # a request that had its session when Ctrl+C came
        manager.stop()  # what `gmtool serve` does at Ctrl+C (cli.cmd_serve)
        files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
        for method, path, headers, body in [
                ("POST", f"/api/sessions/{sid}/counters", {**gm, "Idempotency-Key": "after-ctrl-c-1"},
                 {"seat": "s1", "key": "vp", "delta": 1}),
                ("GET", f"/api/sessions/{sid}/state", gm, None),
                ("POST", "/api/sessions", {"Authorization": f"Bearer {ADMIN}"}, {"title": "u", "seats": ["B"]})]:
            status, answer = call(port, method, path, headers, body)
            assert status == 503, (path, answer)
            assert "停止" in answer["error"]["ja"] and "stopping" in answer["error"]["en"], answer
        with pytest.raises(ServerStopping):
            held.execute("gm", commands.change_counter, "s1", "vp", 1)
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files


def test_a_request_that_had_its_session_when_ctrl_c_closed_it_is_a_503(tmp_path):
    """A request that has its session and waits for it (here: to read its log) while Ctrl+C closes it then finds its
    store closed: that was a 500 (a screen swaps an error in); it is the stop's 503, in both languages."""
    import sys
    import threading
    app, server = session(tmp_path)
    port = int(server.effective_port)
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A"], "counters": ["vp"]})
        sid, manager = created["session"], app.extensions["gmtool"]
        held, answer = manager.get(sid), []
        reading = threading.Thread(target=lambda: answer.append(call(
            port, "GET", f"/api/sessions/{sid}/log", {"Authorization": f"Bearer {created['gm_token']}"})))
        with held.lock:  # the session is busy (this thread's: the stop below goes through it)
            reading.start()
            wait_for(lambda: any(frame.f_code.co_name == "log" and frame.f_code.co_filename.endswith("api.py")
                                 for frame in _frames(sys._current_frames().values())), "the read waits for it")
            manager.stop()  # Ctrl+C
        reading.join(10)
    status, body = answer[0]
    assert status == 503 and "停止" in body["error"]["ja"] and "stopping" in body["error"]["en"], body


def _frames(tops):
    """Every frame of the threads whose top frames are `tops`."""
    for frame in tops:
        while frame is not None:
            yield frame
            frame = frame.f_back


def test_a_quiet_stream_gets_heartbeats_and_a_closed_session_ends_it(tmp_path):
    app, server = session(tmp_path, HEARTBEAT=0.2)
    port = int(server.effective_port)
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A"], "counters": ["vp"]})
        sid = created["session"]
        table = open_stream(port, sid, "table", created["table_token"])
        try:
            read_until(table, b"event: hb\n")
            version = api(port, f"/api/sessions/{sid}/close", created["gm_token"])["version"]
            rest = read_to_end(table)  # the closing version's fragment, then the end of the response
            assert f"id: {version}\n".encode() in rest and rest.endswith(b"0\r\n\r\n")
        finally:
            table.close()


def test_closing_the_server_ends_its_streams(tmp_path):
    app, server = session(tmp_path)
    port, hub = int(server.effective_port), server.stream_hub
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A"], "counters": ["vp"]})
        table = open_stream(port, created["session"], "table", created["table_token"])
        wait_for(lambda: hub.open_streams() == 1, "handed over")
        thread = hub.thread
    try:
        read_to_end(table)  # the server's stream thread closed it
        assert not thread.is_alive()
        assert app.extensions["gmtool_streams"].open == 0
    finally:
        table.close()


def test_after_a_failure_of_the_stream_thread_the_screens_reconnect_to_a_new_one(tmp_path, monkeypatch):
    app, server = session(tmp_path)
    port, hub = int(server.effective_port), server.stream_hub
    with running_in_thread(server):
        created = api(port, "/api/sessions", ADMIN, {"title": "t", "seats": ["A"], "counters": ["vp"]})
        sid = created["session"]
        table = open_stream(port, sid, "table", created["table_token"])
        wait_for(lambda: hub.open_streams() == 1, "handed over")
        first = hub.thread
        monkeypatch.setattr(hub, "_tend", lambda now: 1 / 0)  # a bug in the thread
        api(port, f"/api/sessions/{sid}/counters", created["gm_token"], {"seat": "s1", "key": "vp", "delta": 1})
        read_to_end(table)  # its stream is closed, not left hanging: the page reconnects
        table.close()
        monkeypatch.undo()
        wait_for(lambda: app.extensions["gmtool_streams"].open == 0, "its slot freed")
        table = open_stream(port, sid, "table", created["table_token"])  # the page's reconnect
        try:
            wait_for(lambda: hub.open_streams() == 1, "handed over to a new thread")
            assert hub.thread is not first and hub.thread.is_alive()
            version = api(port, f"/api/sessions/{sid}/counters", created["gm_token"],
                          {"seat": "s1", "key": "vp", "delta": 1})["version"]
            read_until(table, f"id: {version}\n".encode())
        finally:
            table.close()


def test_a_session_held_by_another_thread_holds_up_no_other_session(tmp_path):
    """An export or a long log page holds its session for a while: the stream thread renders the other
    sessions' changes meanwhile, and that session's once it is free."""
    import threading

    from gmtool.core import commands
    app, server = session(tmp_path)
    port = int(server.effective_port)
    with running_in_thread(server):
        a = api(port, "/api/sessions", ADMIN, {"title": "a", "seats": ["A"], "counters": ["vp"]})
        b = api(port, "/api/sessions", ADMIN, {"title": "b", "seats": ["B"], "counters": ["vp"]})
        table_a = open_stream(port, a["session"], "table", a["table_token"])
        table_b = open_stream(port, b["session"], "table", b["table_token"])
        live_a = app.extensions["gmtool"].get(a["session"])
        holding, release, changed = threading.Event(), threading.Event(), []

        def hold():  # a change, then the session stays held (as by an export right after an action)
            with live_a.lock:
                changed.append(live_a.execute("gm", commands.change_counter, "s1", "vp", 1)[-1].seq)
                holding.set()
                release.wait(30)

        holder = threading.Thread(target=hold)
        try:
            version_a = api(port, f"/api/sessions/{a['session']}/counters", a["gm_token"],
                            {"seat": "s1", "key": "vp", "delta": 1})["version"]
            read_until(table_a, f"id: {version_a}\n".encode())
            holder.start()
            assert holding.wait(10)
            version_b = api(port, f"/api/sessions/{b['session']}/counters", b["gm_token"],
                            {"seat": "s1", "key": "vp", "delta": 1})["version"]
            read_until(table_b, f"id: {version_b}\n".encode())  # session b's screen is served meanwhile
            assert holder.is_alive()
        finally:
            release.set()
            holder.join(10)
        read_until(table_a, f"id: {changed[0]}\n".encode())  # and a's once it is free
        table_a.close()
        table_b.close()
