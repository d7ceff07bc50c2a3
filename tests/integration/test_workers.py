"""Issue 11: `gmtool serve --workers 2` — two real gmtool workers behind a real Caddy, at one address.

Every request of a session reaches the worker that owns it, links carry the proxy's address, a live
stream through the proxy brings a change and frees its slot when it closes, secrets stay with their
viewer, a worker never opens a session another owns, a stopped worker is started again, and stopping
the parent stops every process. Needs the `caddy` program (CI and the README's test command install it): without
it these tests fail, unless GMTOOL_SKIP_CADDY_TESTS=1 says to skip them. Bounded waits are failure
guards, not measurements.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import sys
import time
import zlib
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from gmtool.benchmark.harness import Client, ServerProcess
from gmtool.ownership import Ownership
from gmtool.proxy import owned_paths, session_paths
from gmtool.web import WORKER_HEADER, create_app
from gmtool.workers import free_ports

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX CI (signals, /proc)")

MARKER = "ZQXWORKERSECRET5519"


def need_caddy() -> None:
    """Fail (or skip, when GMTOOL_SKIP_CADDY_TESTS=1) without the caddy program."""
    if shutil.which("caddy"):
        return
    if os.environ.get("GMTOOL_SKIP_CADDY_TESTS") == "1":
        pytest.skip("caddy is not installed and GMTOOL_SKIP_CADDY_TESTS=1")
    pytest.fail("caddy is not installed: `apt-get install -y caddy` (Windows: winget install CaddyServer.Caddy; "
                "macOS: brew install caddy), or set GMTOOL_SKIP_CADDY_TESTS=1 to skip the --workers tests")


class Cluster:
    """A running `gmtool serve --workers 2` and what it printed."""

    def __init__(self, data: Path, max_streams: int = 2):
        need_caddy()
        self.server = ServerProcess(data, threads=8, max_streams=max_streams, connection_limit=50, workers=2).start()
        self.base = self.server.base
        self.key = self.server.admin_key
        printed = "".join(self.server.lines)
        self.ports = {int(k): int(p) for k, p in re.findall(r"worker (\d)/2: http://127\.0\.0\.1:(\d+)", printed)}
        assert sorted(self.ports) == [1, 2], printed
        self.client = Client(self.base)

    def request(self, method: str, path: str, token: str | None = None, body=None, headers: dict | None = None,
                port: int | None = None) -> http.client.HTTPResponse:
        """One request on a new connection (through the proxy, or straight to a worker's `port`)."""
        conn = http.client.HTTPConnection("127.0.0.1", port or urlsplit(self.base).port, timeout=10)
        hdrs = dict(headers or {})
        if token:
            hdrs["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        response = conn.getresponse()
        response.body = response.read()
        conn.close()
        return response

    def create(self, key: str, seats=("A", "B")) -> tuple[dict, int]:
        """A session created through the proxy (keyed, so a retry would be answered once) and the worker that made it."""
        response = self.request("POST", "/api/sessions", self.key, {"title": "t", "seats": list(seats), "counters": ["seals"]},
                                {"Idempotency-Key": key})
        assert response.status == 201, response.body
        return json.loads(response.body), int(response.headers[WORKER_HEADER])

    def stop(self) -> None:
        self.client.close()
        self.server.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    running = Cluster(tmp_path_factory.mktemp("workers") / "sessions")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def tables(cluster):
    """Sessions created through the proxy until each worker owns some (the proxy spreads new sessions)."""
    made: dict[int, list[dict]] = {1: [], 2: []}
    for n in range(40):
        table, worker = cluster.create(f"create-{n:04d}")
        made[worker].append(table)
        if all(len(v) >= 2 for v in made.values()):
            break
    assert all(made.values()), "the proxy sent every new session to one worker"
    return made


def owner(sid: str) -> int:
    """The worker that owns a session id (gmtool/ownership.py)."""
    return Ownership(1, 2).owner_of(sid)


def test_the_ports_chosen_for_workers_are_all_different():
    """Ports chosen one at a time (bound, closed, bound again) came back the same now and then: about one in 130
    here, and two workers were once given one port, the second failing with 'Address already in use'."""
    public = free_ports(1)[0]
    ports = free_ports(500, avoid=(public,))
    assert len(set(ports)) == 500 and public not in ports


def test_each_worker_creates_sessions_it_owns(tables):
    for worker, made in tables.items():
        for table in made:
            assert table["session"].startswith(f"w{worker}-")
            assert owner(table["session"]) == worker


def test_every_request_of_a_session_reaches_its_owner(cluster, tables):
    for worker, made in tables.items():
        for table in made:
            sid, gm, seat = table["session"], table["gm_token"], table["seats"][0]
            answers = [
                cluster.request("GET", f"/api/sessions/{sid}/state", gm),
                cluster.request("POST", f"/api/sessions/{sid}/counters", gm,
                                {"seat": seat["id"], "key": "seals", "delta": -1}),
                cluster.request("POST", f"/api/sessions/{sid}/rolls", seat["token"], {"expr": "2D6"}),
                cluster.request("GET", f"/api/sessions/{sid}/export?format=markdown", gm),
                cluster.request("GET", f"/join/{sid}?k={seat['token']}"),
                cluster.request("GET", f"/s/{sid}/gm", cluster.key),
                cluster.request("GET", f"/s/{sid}/gm/qr", cluster.key),
                cluster.request("GET", f"/s/{sid}/table?k={table['table_token']}"),
                cluster.request("GET", f"/s/{sid}/version?as=table",
                                headers={"Cookie": f"gmtool_table_{sid}={table['table_token']}"}),
            ]
            for response in answers:
                assert response.status < 400, (response.status, response.body[:300])
                assert response.headers[WORKER_HEADER] == str(worker)


def test_every_route_that_names_a_session_is_routed_by_its_id(tmp_path):
    """The proxy's patterns cover every route of the app with a session id, and no other (pure: no processes)."""
    app = create_app({"DATA_DIR": str(tmp_path / "s"), "ADMIN_KEY": "k"})
    named = [r.rule for r in app.url_map.iter_rules() if "session_id" in r.arguments]
    assert len(named) > 40
    for rule in named:
        for sid, worker in (("w2-0a1b2c3d", 2), ("0a1b2c3d", 1), ("w1-0a1b2c3d", 1), ("w3-0a1b2c3d", 1)):
            path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: sid if m.group(1) == "session_id" else "x1", rule)
            assert re.search(session_paths(), path), path
            assert bool(re.search(owned_paths(2), path)) is (worker == 2), path
    for rule in app.url_map.iter_rules():
        if "session_id" not in rule.arguments:
            path = re.sub(r"<(?:\w+:)?(\w+)>", "w2-x", rule.rule)
            assert not re.search(session_paths(), path) and not re.search(owned_paths(2), path), path


def test_links_and_qr_codes_carry_the_proxys_address(cluster, tables):
    for made in tables.values():
        table = made[0]
        sid = table["session"]
        assert table["gm_url"].startswith(f"{cluster.base}/s/{sid}/gm?k=")
        assert table["seats"][0]["join_url"].startswith(f"{cluster.base}/join/{sid}?k=")
        sheet = cluster.request("GET", f"/s/{sid}/gm/qr", cluster.key).body.decode()
        assert f"{cluster.base}/join/{sid}?k=" in sheet
        for port in cluster.ports.values():
            assert f":{port}/" not in sheet


def test_a_phone_joins_through_the_proxy_with_its_cookie(cluster, tables):
    table = tables[2][0]
    sid, seat = table["session"], table["seats"][0]
    joined = cluster.request("GET", f"/join/{sid}?k={seat['token']}")
    assert joined.status in (302, 303)
    cookie = joined.headers["Set-Cookie"].split(";")[0]
    assert cookie == f"gmtool_seat_{sid}={seat['token']}" and "HttpOnly" in joined.headers["Set-Cookie"]
    page = cluster.request("GET", urlsplit(joined.headers["Location"]).path, headers={"Cookie": cookie})
    assert page.status == 200 and page.headers[WORKER_HEADER] == "2"
    assert seat["name"] in page.body.decode()


class Stream:
    """A screen's live stream (push=1, gzip) through the proxy, read message by message."""

    def __init__(self, cluster: Cluster, sid: str, kind: str, token: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", urlsplit(cluster.base).port, timeout=10)
        self.conn.request("GET", f"/s/{sid}/events?as={kind}&push=1",
                          headers={"Cookie": f"gmtool_{kind}_{sid}={token}", "Accept-Encoding": "gzip"})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.text = ""

    def message(self) -> str:
        """The next whole SSE message (the socket's timeout fails a stream that brings nothing)."""
        while "\n\n" not in self.text:
            chunk = self.response.read1(65536)
            assert chunk, "the stream ended"
            self.text += self.inflate.decompress(chunk).decode()
        message, self.text = self.text.split("\n\n", 1)
        return message

    def until_version(self, version: int) -> list[str]:
        """Every message up to the first one at `version` or later."""
        seen = []
        while True:
            seen.append(self.message())
            match = re.search(r"^id: (\d+)$", seen[-1], re.M)
            if match and int(match.group(1)) >= version:
                return seen

    def close(self) -> None:
        self.conn.close()


def test_a_live_stream_through_the_proxy_brings_a_change(cluster, tables):
    for worker, made in tables.items():
        table = made[0]
        sid = table["session"]
        stream = Stream(cluster, sid, "table", table["table_token"])
        try:
            assert stream.status == 200
            assert stream.response.headers[WORKER_HEADER] == str(worker)
            assert stream.response.headers["Content-Encoding"] == "gzip"  # the client's encoding reached the worker
            stream.message()  # the first message: the fragment or a notice of the current version
            done = cluster.request("POST", f"/api/sessions/{sid}/rolls", table["gm_token"],
                                   {"expr": "1D6", "label": "through-the-proxy"})
            assert done.status == 201
            messages = stream.until_version(json.loads(done.body)["version"])
            assert "event: fragment" in messages[-1] and "through-the-proxy" in messages[-1]
        finally:
            stream.close()


def test_a_secret_answer_stays_with_its_seat_through_the_proxy(cluster, tables):
    table = tables[2][1]
    sid, gm = table["session"], table["gm_token"]
    s1, s2 = table["seats"]
    opened = cluster.request("POST", f"/api/sessions/{sid}/prompts", gm,
                             {"title": "秘話", "kind": "text", "seats": [s1["id"], s2["id"]]})
    assert opened.status == 201
    pid = json.loads(opened.body)["id"]
    watching = Stream(cluster, sid, "table", table["table_token"])
    try:
        watching.message()
        answered = cluster.request("POST", f"/api/sessions/{sid}/prompts/{pid}/answer", s1["token"], {"value": MARKER})
        assert answered.status == 200
        seen_by_table = "\n".join(watching.until_version(json.loads(answered.body)["version"]))
    finally:
        watching.close()
    assert MARKER in cluster.request("GET", f"/api/sessions/{sid}/state", s1["token"]).body.decode()  # its own
    assert MARKER not in seen_by_table
    for token in (s2["token"], table["table_token"]):  # the GM sees answers (docs/api.md, 12)
        for path in (f"/api/sessions/{sid}/state", f"/api/sessions/{sid}/log", f"/api/sessions/{sid}/prompts/{pid}"):
            assert MARKER not in cluster.request("GET", path, token).body.decode(), path


def open_when_free(cluster: Cluster, sid: str, token: str) -> Stream:
    """A table stream, retried while the worker answers 503 (slots of closed streams are being freed)."""
    deadline = time.monotonic() + 10  # a failure guard: heartbeats are 15 s apart
    while True:
        stream = Stream(cluster, sid, "table", token)
        if stream.status != 503 or time.monotonic() > deadline:
            return stream
        stream.close()
        time.sleep(0.2)


def test_a_closed_screen_frees_its_slot_through_the_proxy(cluster, tables):
    """Each worker allows two streams here (--max-streams 2): a third is refused until one closes."""
    table = tables[1][0]
    sid, token = table["session"], table["table_token"]
    first = open_when_free(cluster, sid, token)  # earlier tests' streams may still be closing
    second = open_when_free(cluster, sid, token)
    assert (first.status, second.status) == (200, 200)
    third = Stream(cluster, sid, "table", token)
    third.close()
    assert third.status == 503
    first.close()  # the screen goes away: Caddy closes its connection to the worker, which frees the slot
    again = open_when_free(cluster, sid, token)
    again.close()
    second.close()
    assert again.status == 200


def test_a_worker_never_opens_a_session_another_owns(cluster, tables):
    """Straight to the wrong worker (no proxy): 421 everywhere, nothing written, and the owner unaffected."""
    for worker, made in tables.items():
        table = made[0]
        sid, gm = table["session"], table["gm_token"]
        other = cluster.ports[3 - worker]
        before = json.loads(cluster.request("GET", f"/api/sessions/{sid}/state", gm).body)["session"]["version"]
        for method, path, body in (("GET", f"/api/sessions/{sid}/state", None),
                                   ("POST", f"/api/sessions/{sid}/rolls", {"expr": "1D6"}),
                                   ("GET", f"/s/{sid}/gm", None),
                                   ("GET", f"/join/{sid}?k={table['seats'][0]['token']}", None),
                                   ("GET", f"/s/{sid}/events?as=gm&push=1", None)):
            refused = cluster.request(method, path, gm, body, port=other)
            assert refused.status == 421, (path, refused.status)
            assert refused.headers[WORKER_HEADER] == str(3 - worker)
            if path.startswith("/api/"):
                error = json.loads(refused.body)["error"]
                assert "ワーカー" in error["ja"] and "worker" in error["en"]
        after = cluster.request("GET", f"/api/sessions/{sid}/state", gm)
        assert after.headers[WORKER_HEADER] == str(worker)
        assert json.loads(after.body)["session"]["version"] == before


def test_a_continued_campaign_stays_with_its_worker(cluster, tables):
    table = tables[2][1]
    sid = table["session"]
    response = cluster.request("POST", f"/api/sessions/{sid}/continue", table["gm_token"], {"title": "第2回"})
    assert response.status == 201 and response.headers[WORKER_HEADER] == "2"
    following = json.loads(response.body)
    assert owner(following["session"]) == 2
    rows = cluster.request("GET", f"/api/sessions/{following['session']}/campaign", following["gm_token"])
    assert rows.headers[WORKER_HEADER] == "2"
    assert [r["id"] for r in json.loads(rows.body)["sessions"]][-2:] == [sid, following["session"]]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has stopped (it waits for its parent to read its status)


def assert_all_end(pids: list[int], within: float) -> None:
    """Every process of `pids` ends within `within` seconds (a failure guard, not a measurement)."""
    deadline = time.monotonic() + within
    while [pid for pid in pids if _alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in pids if _alive(pid)] == []


def assert_parent_stops_all(running, pids: list[int], signum: int) -> None:
    """`signum` to the parent: it ends cleanly, and every process of `pids` has ended with it."""
    running.server.proc.send_signal(signum)
    assert running.server.proc.wait(timeout=20) == 0
    assert_all_end(pids, 5)  # they were stopped before the parent ended


def test_a_stopped_worker_is_restarted_and_stopping_the_parent_stops_everything(tmp_path):
    running = Cluster(tmp_path / "sessions")
    pids: list[int] = []
    try:
        table, worker = running.create("restart-0001")
        pids = running.server.pids()
        assert len(pids) == 4  # the parent, two workers and Caddy
        victim = next(pid for pid in pids if f"--port\0{running.ports[worker]}\0" in
                      Path(f"/proc/{pid}/cmdline").read_text())
        os.kill(victim, signal.SIGKILL)
        # The creation sent again with its key (its answer lost with the worker): the proxy sends it to the other worker
        # while this one is down, which made a second session; it now answers 503 (a screen queues the tap) until the
        # proxy sends the key back to the restarted worker, which answers as it first did.
        statuses, deadline = [], time.monotonic() + 40  # a failure guard (Caddy avoids a failed worker for 10 s)
        while True:
            again = running.request("POST", "/api/sessions", running.key,
                                    {"title": "t", "seats": ["A", "B"], "counters": ["seals"]},
                                    {"Idempotency-Key": "restart-0001"})
            statuses.append(again.status)
            if again.status not in (502, 503) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert again.status == 201 and json.loads(again.body) == table, (statuses, again.body)
        assert again.headers["Idempotent-Replayed"] == "true" and again.headers[WORKER_HEADER] == str(worker)
        listed = json.loads(running.request("GET", "/api/sessions", running.key).body)["sessions"]
        assert [s["id"] for s in listed] == [table["session"]]  # no second session
        deadline = time.monotonic() + 20  # a failure guard
        while True:
            try:
                state = running.request("GET", f"/api/sessions/{table['session']}/state", table["gm_token"])
            except OSError:
                state = None
            if state is not None and state.status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert state is not None and state.status == 200 and state.headers[WORKER_HEADER] == str(worker)
        pids = running.server.pids()
        assert len(pids) == 4 and victim not in pids
        assert_parent_stops_all(running, pids, signal.SIGTERM)
    finally:
        for pid in running.server.pids()[1:] + [pid for pid in pids if _alive(pid)]:  # nothing left behind a failure
            os.kill(pid, signal.SIGKILL)
        running.stop()


def test_closing_the_terminal_stops_caddy_and_the_workers(tmp_path):
    """A terminal window closed sends SIGHUP; Caddy ignores it, so the parent must stop it (or it keeps the port)."""
    running = Cluster(tmp_path / "sessions")
    pids: list[int] = []
    try:
        pids = running.server.pids()
        assert len(pids) == 4  # the parent, two workers and Caddy
        assert_parent_stops_all(running, pids, signal.SIGHUP)  # to the parent alone: it stops the others itself
    finally:
        for pid in [pid for pid in pids[1:] if _alive(pid)]:  # nothing left behind a failure
            os.kill(pid, signal.SIGKILL)
        running.stop()


def test_a_killed_parent_leaves_no_worker_or_caddy_behind(tmp_path):
    """SIGKILL to the parent (the task manager's "end task", out of memory) gives it no chance to stop the others:
    the workers notice its pipe end, stop Caddy and themselves, so the port and the sessions are free again."""
    running = Cluster(tmp_path / "sessions")
    pids: list[int] = []
    try:
        running.create("orphan-0001")
        pids = running.server.pids()
        assert len(pids) == 4  # the parent, two workers and Caddy
        caddy = next(pid for pid in pids if "caddy" in Path(f"/proc/{pid}/cmdline").read_text())
        argv = Path(f"/proc/{caddy}/cmdline").read_text().split("\0")
        config = Path(argv[argv.index("--config") + 1])
        assert not config.parent.exists()  # Caddy's configuration folder is gone once it serves: no leftover
        running.server.proc.send_signal(signal.SIGKILL)
        running.server.proc.wait(timeout=20)
        assert_all_end(pids[1:], 15)  # waitress's loop looks up within a second
        # The public port is free again: a new server could start on it.
        with pytest.raises(OSError):
            running.request("GET", "/api/health")
    finally:
        for pid in [pid for pid in pids[1:] if _alive(pid)]:  # nothing left behind a failure
            os.kill(pid, signal.SIGKILL)
        running.stop()
