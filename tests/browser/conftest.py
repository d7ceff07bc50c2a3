"""Browser tests: the real server (waitress, as `gmtool serve` runs it) and Debian's Chromium."""

from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from gmtool_testing import ram_disk_usable, running_in_thread
from playwright.sync_api import expect

from gmtool.serving import make_server
from gmtool.web import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


# Playwright's own --disable-features (playwright-core's chromiumSwitches.ts, 1.65). Chromium reads only the last
# --disable-features of its command line, so ours repeats these; test_chromium_setup fails when Playwright's differ.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying",
    "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")
# Chromium (156, headless) gives every window, so every browser context, a renderer process of its own for the address
# bar's popups drawn in WebUI (chrome://omnibox-popup.top-chrome/), which a headless test never opens: starting it
# cost about 0.6 s of CPU per context, more than the context's page. Both features off, no such renderer starts.
NO_BROWSER_UI = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's chromium, no browser download; flags for a closed network, as root. Where /dev/shm has room (the
    RAM disk the suite's tmp_path uses), Chromium keeps its shared memory there: Playwright's default
    --disable-dev-shm-usage (meant for containers with a 64 MB /dev/shm) puts it in files under /tmp, on disk here,
    which cost the browser modules about a fifth of their CPU time. No renderer for the address bar's popups in each
    context (NO_BROWSER_UI)."""
    shm = {"ignore_default_args": ["--disable-dev-shm-usage"]} if ram_disk_usable() else {}
    return {**browser_type_launch_args, **shm, "executable_path": CHROMIUM,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run",
                     "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + NO_BROWSER_UI)]}


@pytest.fixture
def server(tmp_path):
    """A live gmtool server on loopback; yields its base URL and app."""
    app = create_app({"DATA_DIR": str(tmp_path / "sessions"), "HEARTBEAT": 2.0, "CHECK_SECTIONS": True})
    srv = make_server(app, host="127.0.0.1", port=0, threads=24, connection_limit=100,
                      channel_request_lookahead=1)
    base = f"http://127.0.0.1:{srv.effective_port}"
    app.config["PUBLIC_BASE"] = base
    with running_in_thread(srv):
        yield base, app
    app.extensions["gmtool"].close_all()


@pytest.fixture
def phone_context(browser):
    """A factory of separate phone-sized browser contexts (each is its own phone)."""
    contexts = []

    def make():
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def open_table(server, page, browser, phone_context):
    """A session made on the server with the GM console on `page`, the table screen and one phone
    per seat opened through their links: returns (live session, tokens, table page, {seat: phone})."""
    base, app = server

    def make(title: str, ruleset: str, seats: list[str], table_height: int = 800):
        live, tokens = app.extensions["gmtool"].create(title, ruleset, [{"name": n} for n in seats])
        sid = live.state.session_id
        page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
        table = browser.new_context(viewport={"width": 1280, "height": table_height}).new_page()
        table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
        phones = {}
        for seat_id, token in tokens["seats"].items():
            phones[seat_id] = phone_context().new_page()
            phones[seat_id].goto(f"{base}/join/{sid}?k={token}")
        return live, tokens, table, phones

    return make


@pytest.fixture
def paste_sheets(page):
    """The grail GM console on `page` pastes each faction's characters (the text format: a character per
    line, its skills on "- " lines under it) and sees them listed: paste_sheets({"s1": SABER, "s2": ARCHER})."""

    def paste(sheets: dict[str, str]):
        form = page.locator("#grail-characters")
        for seat_id, text in sheets.items():
            form.locator("select[name=faction]").select_option(seat_id)
            form.locator("textarea[name=text]").fill(text)
            form.locator("button").click()
            expect(page.locator(f"#grail-faction-{seat_id} .g-chars li")).to_have_count(
                sum(1 for line in text.splitlines() if not line.lstrip().startswith("-")))

    return paste


@pytest.fixture
def api_post(server):
    """A POST to the server's JSON API over the wire, as another device would send it:
    api_post(sid, token, "counters", {...}) -> the decoded answer."""
    base, _app = server

    def post(sid: str, token: str, path: str, body: dict) -> dict:
        request = urllib.request.Request(f"{base}/api/sessions/{sid}/{path}", data=json.dumps(body).encode(),
                                         method="POST", headers={"Authorization": f"Bearer {token}",
                                                                 "Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())

    return post
