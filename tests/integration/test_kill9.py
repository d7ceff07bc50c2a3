"""Killing the real server with SIGKILL loses no acknowledged action (issue 2, item 6)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


class Server:
    """`gmtool serve` as a separate process on loopback."""

    def __init__(self, data: Path, port: int = 0):
        self.data = data
        self.port = port  # 0: any free port
        self.proc = None
        self.base = ""

    def start(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gmtool", "serve", "--no-browser", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 20
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            match = re.search(r"(http://127\.0\.0\.1:\d+)/\?k=", line)
            if match:
                self.base = match.group(1)
                return self
            if not line and self.proc.poll() is not None:
                break
        self.kill()  # not left running when it did not start
        raise RuntimeError("server did not start")

    def kill(self):
        """SIGKILL, once (again: nothing): a test's `finally` kills what it started, whatever happened before."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc.stdout.close()

    def send(self, method: str, path: str, headers: dict, body: bytes | None = None):
        """(status, headers, body) of one request, whatever its status."""
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def call(self, method: str, path: str, token: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {token}",
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())


def test_taps_resent_after_sigkill_with_their_keys_are_each_applied_once(tmp_path):
    """SIGKILL during a burst of keyed actions, then every action that got no answer is sent again with its key, as a
    screen's queue does when the server is back (static/live.js). Each is in the log exactly once: those the killed
    server had committed without answering are not applied again (they were: their keys lived in memory only)."""
    import http.client
    import threading
    import uuid
    data = tmp_path / "sessions"
    server = Server(data).start()
    try:
        key = (data / ".admin_key").read_text().strip()
        _, created = server.call("POST", "/api/sessions", key, {"title": "連打", "seats": ["A"], "counters": ["vp"]})
        sid, gm = created["session"], created["gm_token"]
        port = int(server.base.rsplit(":", 1)[1])
    except BaseException:
        server.kill()
        raise
    sent: dict[str, tuple[str, int | None]] = {}  # reason -> (key, status or None: no answer)
    lock = threading.Lock()

    def post(port: int, reason: str, idem: str) -> int | None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request("POST", f"/api/sessions/{sid}/counters", json.dumps({"seat": "s1", "key": "vp", "delta": 1,
                                                                               "reason": reason}),
                         {"Authorization": f"Bearer {gm}", "Content-Type": "application/json", "Idempotency-Key": idem})
            response = conn.getresponse()
            response.read()
            return response.status
        except (OSError, http.client.HTTPException):
            return None
        finally:
            conn.close()

    def tapper(n: int) -> None:
        for i in range(1000):
            reason, idem = f"t{n}-{i}", uuid.uuid4().hex
            status = post(port, reason, idem)
            with lock:
                sent[reason] = (idem, status)
            if status is None:
                return

    threads = [threading.Thread(target=tapper, args=(n,)) for n in range(4)]
    try:
        for thread in threads:
            thread.start()
        time.sleep(0.4)
    finally:
        server.kill()
        for thread in threads:
            if thread.is_alive():
                thread.join(timeout=30)
    server = Server(data).start()
    try:
        port = int(server.base.rsplit(":", 1)[1])
        unanswered = [reason for reason, (_, status) in sent.items() if status is None]
        assert len(unanswered) == 4
        for reason in unanswered:
            assert post(port, reason, sent[reason][0]) == 200
        status, log = server.call("GET", f"/api/sessions/{sid}/log?limit=1000", gm)
    finally:
        server.kill()
    reasons = [e["data"]["reason"] for e in log["events"] if e["type"] == "counter.changed"]
    assert sorted(reasons) == sorted(sent)  # every tap once, none twice


MAKE_AND_STALL = """
import sys, time
from pathlib import Path
from gmtool import store
from gmtool.runtime import SessionManager

def stalled(self, *args, **kwargs):  # the first action is being written when the process is killed
    print("writing", flush=True)
    time.sleep(60)
store.Store.append = stalled
SessionManager(Path(sys.argv[1])).create("作りかけ", "grail_trpg", [{"name": "A"}, {"name": "B"}])
"""


def test_a_session_being_made_when_the_process_is_killed_leaves_no_session_file(tmp_path):
    """kill -9 while a session's file is made (its tables, then its first action): a file was left under the session's
    name, without its meta or events, which the restarted server listed as a damaged session (when the kill came while
    its tables were made) that nobody had been given. A new session's file is now written under another name and
    renamed into place whole. What the killed process left under that name was never removed: the next start removes
    it, but never while a process sharing the folder (a worker of --workers, `gmtool new`) is still writing one."""
    from gmtool.runtime import SessionManager
    data = tmp_path / "sessions"
    data.mkdir()
    child = subprocess.Popen([sys.executable, "-c", MAKE_AND_STALL, str(data)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "writing"
        being_made = sorted(p.name for p in data.glob("*.sqlite-making*"))
        assert being_made, "the child writes its file under another name"
        other = SessionManager(data)  # another process starts on the folder meanwhile (a worker, a restarted one)
        assert other.list() == []  # the file being made is no session
        assert sorted(p.name for p in data.glob("*.sqlite-making*")) == being_made  # ... and is not taken for a leftover
        other.close_all()
    finally:  # killed here whatever happened before (it would sleep on, then finish making its session)
        child.kill()
        child.wait(timeout=10)
        child.stdout.close()
    assert sorted(p.name for p in data.glob("*.sqlite")) == []
    assert sorted(p.name for p in data.glob("*.sqlite-making*")) == being_made  # what the kill left
    server = Server(data).start()  # the next start removes it
    try:
        status, listed = server.call("GET", "/api/sessions", (data / ".admin_key").read_text().strip())
    finally:
        server.kill()
    assert status == 200 and listed == {"sessions": []}
    assert sorted(p.name for p in data.iterdir()) == [".admin_key"]
    manager = SessionManager(data)
    live, _tokens = manager.create("次の卓", "generic", [{"name": "A"}])  # and sessions are made as before
    assert [s["id"] for s in manager.list()] == [live.state.session_id]
    manager.close_all()


def test_a_new_session_file_never_replaces_one_made_meanwhile(tmp_path):
    """Two processes sharing the folder import one backup at once (the server and `gmtool import`): both found its id
    free, and the second's rename replaced the session the first had made and opened. It is a 409 and changes
    nothing."""
    from gmtool.core.errors import Conflict
    from gmtool.runtime import write_whole
    made = tmp_path / "abc.sqlite"
    made.write_bytes(b"the other process's session")
    with pytest.raises(Conflict) as refused:
        write_whole(made, lambda store: store.put_meta("id", "abc"))
    assert refused.value.ja and "made elsewhere" in refused.value.en
    assert made.read_bytes() == b"the other process's session"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["abc.sqlite"]


def test_a_session_made_by_a_keyed_request_is_not_made_again_by_its_repeat_after_a_restart(tmp_path):
    """A request that makes a session (the API's create, import and continue; the home page's form, keyed by its
    hidden field or a header) repeated with its Idempotency-Key after kill -9 (its answer lost with the process, the
    tap queued and sent again): the create and the import were applied again (a second session), the continue answered without the new
    session's links. Each repeat now answers as the first did (the same session, its same links), marked
    Idempotent-Replayed, and nothing is made twice; the same key with another body is still a 422."""
    from gmtool.web.common import ADMIN_COOKIE, csrf_for
    data = tmp_path / "sessions"
    server = Server(data).start()
    try:
        key = (data / ".admin_key").read_text().strip()
        admin = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        made = json.dumps({"seats": ["A", "B"], "counters": ["vp"], "title": "第1夜"}).encode()
        status, _, first = server.send("POST", "/api/sessions", {**admin, "Idempotency-Key": "create-0001"}, made)
        assert status == 201
        sid, gm = json.loads(first)["session"], json.loads(first)["gm_token"]
        _, export = server.call("GET", f"/api/sessions/{sid}/export?format=json", gm)
        requests = {  # what a client sends (path, headers, body), after the create it just sent
            "import": ("/api/sessions/import", admin, json.dumps(export).encode()),
            "continue": (f"/api/sessions/{sid}/continue", {"Authorization": f"Bearer {gm}",
                                                           "Content-Type": "application/json"},
                         json.dumps({"title": "第2夜"}).encode()),
            "form": ("/sessions", {"Cookie": f"{ADMIN_COOKIE}={key}", "HX-Request": "true",
                                   "Content-Type": "application/x-www-form-urlencoded"},
                     f"csrf={csrf_for(key)}&title=form&ruleset=generic&seats=A".encode()),
        }
        answers = {"create": (201, first, None)}  # (status, body, HX-Redirect) of each first answer
        for name, (path, headers, body) in requests.items():
            status, got, answer = server.send("POST", path, {**headers, "Idempotency-Key": f"{name}-0001"}, body)
            assert status in (201, 204), answer
            answers[name] = (status, answer, got.get("HX-Redirect"))
        requests["create"] = ("/api/sessions", admin, made)
        _, listed = server.call("GET", "/api/sessions", key)
        before = sorted(s["id"] for s in listed["sessions"])
        assert len(before) == 4
    finally:
        server.kill()
    server = Server(data, port=int(server.base.rsplit(":", 1)[1])).start()  # the links name its address
    try:
        for name, (path, headers, body) in requests.items():
            status, got, answer = server.send("POST", path, {**headers, "Idempotency-Key": f"{name}-0001"}, body)
            assert (status, answer, got.get("HX-Redirect")) == answers[name], name
            assert got.get("Idempotent-Replayed") == "true", name
        status, _, answer = server.send("POST", "/api/sessions", {**admin, "Idempotency-Key": "create-0001"},
                                        made.replace(b'"vp"', b'"karma"'))
        assert status == 422 and "different request" in json.loads(answer)["error"]["en"]
        _, listed = server.call("GET", "/api/sessions", key)
        assert sorted(s["id"] for s in listed["sessions"]) == before  # nothing made twice
        following = json.loads(answers["continue"][1])
        status, state = server.call("GET", f"/api/sessions/{following['session']}/state", following["gm_token"])
        assert status == 200  # its links work
    finally:
        server.kill()


CONTINUE_AND_STALL = """
import json, sys, time
from gmtool import runtime
from gmtool.web import create_app

def stalled(self, actor, drafts, *args, **kwargs):  # killed before the previous session links the new one
    if drafts[0][0] == "campaign.next":
        print("linking", flush=True)
        time.sleep(60)
    return commit(self, actor, drafts, *args, **kwargs)
commit, runtime.LiveSession._commit = runtime.LiveSession._commit, stalled
data, sid, gm = sys.argv[1:]
create_app({"DATA_DIR": data}).test_client().post(f"/api/sessions/{sid}/continue", data=json.dumps({"title": "第2夜"}),
    content_type="application/json", headers={"Authorization": f"Bearer {gm}", "Idempotency-Key": "continue-0001"})
"""


def test_a_continue_cut_short_by_a_kill_is_finished_by_its_repeat(tmp_path):
    """kill -9 after a continue made the new session but before the previous one named it (the server, as `gmtool
    serve`, with its key): the repeat of the request made a second new session and left the first one beside it. It
    now finishes the one the kill cut short, and answers with its links."""
    data = tmp_path / "sessions"
    server = Server(data).start()
    try:
        key = (data / ".admin_key").read_text().strip()
        status, made = server.call("POST", "/api/sessions", key, {"title": "第1夜", "seats": ["A"], "counters": ["vp"]})
        sid, gm = made["session"], made["gm_token"]
    finally:
        server.kill()
    child = subprocess.Popen([sys.executable, "-c", CONTINUE_AND_STALL, str(data), sid, gm], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout.readline().strip() == "linking"
    finally:  # killed here whatever happened before (it would sleep on, then finish the continue)
        child.kill()
        child.wait(timeout=10)
        child.stdout.close()
    cut_short = sorted(p.name[:-len(".sqlite")] for p in data.glob("*.sqlite") if p.name != f"{sid}.sqlite")
    assert len(cut_short) == 1
    server = Server(data).start()
    try:
        status, _, answer = server.send(
            "POST", f"/api/sessions/{sid}/continue", {"Authorization": f"Bearer {gm}", "Content-Type": "application/json",
                                                      "Idempotency-Key": "continue-0001"},
            json.dumps({"title": "第2夜"}).encode())
        assert status == 201, answer
        following = json.loads(answer)
        assert following["session"] == cut_short[0] and following["previous"] == sid
        _, listed = server.call("GET", "/api/sessions", key)
        assert sorted(s["id"] for s in listed["sessions"]) == sorted([sid, cut_short[0]])
        _, campaign = server.call("GET", f"/api/sessions/{sid}/campaign", gm)
        assert [row["title"] for row in campaign["sessions"]] == ["第1夜", "第2夜"]
        status, _ = server.call("GET", f"/api/sessions/{following['session']}/state", following["gm_token"])
        assert status == 200
    finally:
        server.kill()
