"""Issue 12: nothing is lost offline. The real `gmtool serve` is stopped; a phone taps 2D6 and the GM
taps 魔力+1; both screens show the taps as pending; the server is started again on the same port and
data; each tap is sent exactly once and shown as sent."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from gmtool.core.view import GM, build_view

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`gmtool serve` as its own process, restartable on the same port and data folder."""

    def __init__(self, data, port):
        self.data, self.port, self.proc = data, port, None
        self.base = f"http://127.0.0.1:{port}"

    def start(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "gmtool", "serve", "--no-browser", "--host", "127.0.0.1",
                                      "--port", str(self.port), "--data", str(self.data)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if "/?k=" in line:  # from now on its output is read away, so that a full pipe never blocks it
                self.reader = threading.Thread(target=self.proc.stdout.read, daemon=True)
                self.reader.start()
                return self
            if not line and self.proc.poll() is not None:
                break
            if "Cannot listen" in line:  # the old socket lingers a moment
                time.sleep(0.3)
                self.proc = subprocess.Popen(self.proc.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        raise RuntimeError("gmtool serve did not start")

    def stop(self):
        # SIGTERM, which gmtool serve turns into its Ctrl+C (cli.stop_on_signals), not SIGINT: a command a shell starts
        # in the background without job control inherits SIGINT ignored (POSIX), and so do its children, so a suite run
        # that way (`pytest … &`) left every server running through SIGINT; that was this test's "flake under load"
        # (the server did not stop within 15 s, a2ddc49), reproduced with `trap "" INT` before pytest.
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=15)
        self.reader.join(timeout=5)  # (its end of the pipe is read to the end before it is closed)
        self.proc.stdout.close()

    def api(self, method, path, token, body=None):
        req = urllib.request.Request(self.base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())


def test_taps_made_while_the_server_is_down_are_sent_once_when_it_returns(tmp_path, browser, phone_context):
    server = Server(tmp_path / "sessions", _free_port()).start()
    try:
        key = (tmp_path / "sessions" / ".admin_key").read_text().strip()
        made = server.api("POST", "/api/sessions", key, {"title": "オフライン卓", "seats": ["セイバー陣営", "アーチャー陣営"],
                                                         "counters": ["mana"]})
        sid, gm_token = made["session"], made["gm_token"]
        phone = phone_context().new_page()
        phone.goto(made["seats"][0]["join_url"] if made["seats"][0]["join_url"].startswith("http")
                   else server.base + made["seats"][0]["join_url"])
        gm = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        gm.goto(server.base + (made["gm_url"] if made["gm_url"].startswith("/") else "/" + made["gm_url"].split("/", 3)[3]))
        expect(gm.locator(".value[data-seat=s1][data-key=mana]").first).to_have_text("0")
        expect(phone.get_by_role("button", name="2D6")).to_be_visible()

        server.stop()
        phone.get_by_role("button", name="2D6").click()
        gm.get_by_role("button", name="セイバー陣営 魔力 +1").click()
        for page, label in ((phone, "2D6"), (gm, "+1")):
            expect(page.locator("#pending")).to_be_visible()
            expect(page.locator("#pending")).to_contain_text("×1")
            expect(page.locator("#flash .flash-pending")).to_contain_text("送信待ち")
        # A second tap on the GM console while still offline joins the queue.
        gm.get_by_role("button", name="セイバー陣営 魔力 +1").click()
        expect(gm.locator("#pending")).to_contain_text("×2")

        server.start()
        for page in (phone, gm):
            expect(page.locator("#pending")).to_be_hidden(timeout=20000)
            expect(page.locator("#flash")).to_contain_text("送信しました", timeout=20000)
        expect(gm.locator(".value[data-seat=s1][data-key=mana]").first).to_have_text("2")
        expect(phone.locator(".rolls li.roll")).to_have_count(1)
        state = server.api("GET", f"/api/sessions/{sid}/state", gm_token)
        assert len(state["rolls"]) == 1 and state["rolls"][0]["expr"] == "2D6"
        assert state["seats"][0]["counters"]["mana"] == 2
        # Reloading sends nothing again: the queue is empty.
        phone.reload()
        expect(phone.locator("#pending")).to_be_hidden()
        time.sleep(1)
        assert len(server.api("GET", f"/api/sessions/{sid}/state", gm_token)["rolls"]) == 1
    finally:
        if server.proc and server.proc.poll() is None:
            server.stop()


def test_a_screen_that_polls_sends_its_queued_taps_when_the_server_returns(tmp_path, browser):
    """A screen without a live stream (polling every 2 s) sends what it queued offline at its first
    successful poll, though nothing else changed meanwhile (the version it polls is the same)."""
    server = Server(tmp_path / "sessions", _free_port()).start()
    try:
        key = (tmp_path / "sessions" / ".admin_key").read_text().strip()
        made = server.api("POST", "/api/sessions", key, {"title": "オフライン卓", "seats": ["セイバー陣営"],
                                                         "counters": ["mana"]})
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        context.add_init_script("delete window.EventSource;")  # a browser without EventSource polls
        gm = context.new_page()
        gm.goto(server.base + "/" + made["gm_url"].split("/", 3)[3])
        expect(gm.locator("body.is-polling")).to_have_count(1)
        server.stop()
        gm.get_by_role("button", name="セイバー陣営 魔力 +1").click()
        expect(gm.locator("#pending")).to_contain_text("×1")
        server.start()
        expect(gm.locator("#pending")).to_be_hidden(timeout=15000)
        expect(gm.locator(".value[data-seat=s1][data-key=mana]").first).to_have_text("1")
        state = server.api("GET", f"/api/sessions/{made['session']}/state", made["gm_token"])
        assert state["seats"][0]["counters"]["mana"] == 1
    finally:
        if server.proc and server.proc.poll() is None:
            server.stop()


def test_a_proxys_502_counts_as_no_answer_the_tap_waits_and_the_screen_stays(server, browser):
    """gmtool serve --workers: while a killed worker restarts, Caddy answers its sessions' requests with an empty 502.
    A tap that got one was lost without a word (only a tap that could not be sent was queued), and the refresh that
    follows a reconnect swapped the empty answer into the page: the whole GM console went blank. A 502, 503 or 504 is
    now no answer: the tap waits and is sent once, the screen keeps what it shows. (Caddy's 502 is played by the
    browser's request routing: a worker's restart takes longer than this test may.)"""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("代理卓", "generic", [{"name": "セイバー陣営"}])
    sid = live.state.session_id
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    gm = context.new_page()
    gm.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    mana = gm.locator(".value[data-seat=s1][data-key=mana]").first
    expect(mana).to_have_text("0")

    def no_worker(route):
        route.fulfill(status=502, body="")
    context.route(f"{base}/s/**", no_worker)
    context.set_offline(True)  # the worker's end dropped the stream: the page reconnects and fetches its fragment
    context.set_offline(False)
    expect(gm.locator("body.is-polling")).to_have_count(1)
    gm.get_by_role("button", name="セイバー陣営 魔力 +1").click()
    expect(gm.locator("#pending")).to_contain_text("×1")
    expect(mana).to_have_text("0")  # the console is still there

    context.unroute(f"{base}/s/**", no_worker)  # the worker is back
    expect(gm.locator("#pending")).to_be_hidden(timeout=10000)
    expect(gm.locator("#flash")).to_contain_text("送信しました")
    expect(mana).to_have_text("1")
    assert build_view(live.state, GM)["seats"][0]["counters"]["mana"] == 1  # once
    # A console whose live.js did not come (the same proxy, a moment earlier) says it is not updating: it showed an
    # ordinary console whose taps went out unkeyed and unqueued, and whose screen never changed
    expect(gm.locator(".no-live-badge")).to_be_hidden()
    context.route("**/live.js*", lambda route: route.fulfill(status=502, body=""))
    gm.reload()
    expect(gm.locator(".no-live-badge")).to_be_visible()
    expect(gm.locator(".no-live-badge")).to_contain_text("再読み込みしてください")
    context.close()


def test_a_polling_screen_whose_fetch_failed_fetches_again(server, browser, api_post):
    """A polling screen that learns of a new version and then cannot fetch its fragment (the Wi-Fi or the server gone
    between the two requests) fetches it again at its next poll. It took the version as shown and waited for the next
    change, showing the old state meanwhile (htmx reports a failed fetch as an event, so live.js never saw it fail)."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("取りこぼし卓", "generic", [{"name": "セイバー陣営"}])
    sid = live.state.session_id
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script("delete window.EventSource;")  # polls /version every 2 s
    phone = context.new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    value = phone.locator("#live .mine-card .value[data-key=vp]")
    expect(value).to_have_text("0")
    failed = []

    def lost(route):  # the first fetch of the fragment does not get through
        if route.request.headers.get("hx-request") and not failed:
            failed.append(route.request.url)
            route.abort()
        else:
            route.continue_()
    phone.route(f"{base}/s/{sid}/phone", lost)
    api_post(sid, tokens["gm"], "counters", {"seat": "s1", "key": "vp", "value": 7, "reason": "取りこぼし"})
    expect(value).to_have_text("7", timeout=10000)
    assert failed
    context.close()


def test_two_tabs_of_one_phone_send_every_queued_tap_and_drop_none(server, phone_context):
    """Two tabs of one phone share its queue (localStorage: a tap queued in a tab that is closed before it could send
    is sent by the next tab of that page). After an answer a tab removed the queue's first tap, whichever it was: a
    tab whose send took long (the other tab sent the same tap meanwhile; the server answers that repeat with the first
    answer, its Idempotency-Key) then removed the tap the other tab had queued since, which nobody sent. Each queued tap
    is now removed by its own key. (The server's slow answer is played by holding tab B's request.)"""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("二窓卓", "generic", [{"name": "セイバー陣営"}])
    sid = live.state.session_id
    context = phone_context()
    tab_a, tab_b = context.new_page(), context.new_page()
    for tab in (tab_a, tab_b):
        tab.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
        expect(tab.get_by_role("button", name="2D6")).to_be_visible()
    mode, held = {"a": "no answer", "b": "hold"}, {"a": [], "b": []}

    def rolls_of(name):
        def handle(route):
            if mode[name] == "no answer":
                route.fulfill(status=502, body="")
            elif mode[name] == "hold":
                held[name].append(route)
            else:
                route.continue_()
        return handle

    def wait_for(name):  # (route handlers run while the test waits on the browser)
        deadline = time.time() + 15
        while not held[name] and time.time() < deadline:
            tab_a.wait_for_timeout(100)
        assert held[name], name
        return held[name].pop()

    tab_a.route(f"{base}/s/{sid}/phone/roll", rolls_of("a"))
    tab_b.route(f"{base}/s/{sid}/phone/roll", rolls_of("b"))
    tab_a.get_by_role("button", name="2D6").click()  # the first tap: no answer, queued
    expect(tab_a.locator("#pending")).to_contain_text("×1")
    first_from_b = wait_for("b")  # tab B sends it at its next heartbeat; its answer is slow
    mode["a"] = "hold"
    wait_for("a").continue_()  # tab A sends it too, and is answered first
    expect(tab_a.locator("#pending")).to_be_hidden(timeout=10000)
    mode["a"] = "no answer"
    tab_a.get_by_role("button", name="2D6").click()  # the second tap: queued
    expect(tab_a.locator("#pending")).to_contain_text("×1")
    mode["a"] = mode["b"] = "through"
    first_from_b.continue_()  # the first tap's repeat: the first answer, replayed
    expect(tab_a.locator("#pending")).to_be_hidden(timeout=10000)
    expect(tab_b.locator("#pending")).to_be_hidden()
    expect(tab_a.locator(".rolls li.roll")).to_have_count(2, timeout=10000)
    assert len(build_view(live.state, GM)["rolls"]) == 2
    tab_a.wait_for_timeout(2500)  # a heartbeat later: nothing more was sent
    assert len(build_view(live.state, GM)["rolls"]) == 2
    # A tap queued in a tab that is closed before it could send is sent by the next tab of the phone (the same session
    # and seat, whichever address opened it), also one an older live.js queued (one list under the page's name: a page
    # loaded before gmtool was updated).
    tab_b.close()
    mode["a"] = "no answer"
    tab_a.get_by_role("button", name="2D6").click()
    expect(tab_a.locator("#pending")).to_contain_text("×1")
    tab_a.evaluate("""() => {
        const name = Object.keys(localStorage).find((k) => k.startsWith("gmtool.queue:"));
        localStorage.setItem(name.slice(0, name.lastIndexOf(":")), "[" + localStorage.getItem(name) + "]");
        localStorage.removeItem(name);
    }""")
    tab_a.close()
    tab_c = context.new_page()
    tab_c.goto(f"{base}/join/{sid}")  # the same phone at its join address (no ?k=): its queue was that address's own
    expect(tab_c.locator(".rolls li.roll")).to_have_count(3, timeout=10000)
    expect(tab_c.locator("#pending")).to_be_hidden()
    assert tab_c.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('gmtool.queue:'))") == []
    assert len(build_view(live.state, GM)["rolls"]) == 3
