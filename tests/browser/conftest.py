"""Browser tests: the real server (waitress, as `gmtool serve` runs it) and Debian's Chromium."""

from __future__ import annotations

import shutil
import threading

import pytest
from waitress import create_server

from gmtool.web import create_app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's chromium, no browser download; flags for a closed network, as root."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


@pytest.fixture
def server(tmp_path):
    """A live gmtool server on loopback; yields its base URL and app."""
    app = create_app({"DATA_DIR": str(tmp_path / "sessions"), "HEARTBEAT": 2.0})
    srv = create_server(app, host="127.0.0.1", port=0, threads=24, connection_limit=100,
                        channel_request_lookahead=1)
    base = f"http://127.0.0.1:{srv.effective_port}"
    app.config["PUBLIC_BASE"] = base
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield base, app
    srv.close()
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
