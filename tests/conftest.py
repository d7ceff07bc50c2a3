"""Shared fixtures: a pure in-memory harness for core rules, live sessions on real SQLite
files in tmp_path, and a Flask app with a created session and one cookie jar per screen.

No mocks: the harness folds real events through gmtool.core.engine, the runtime writes real
SQLite files, and the web tests go through Flask's test client. Helpers that tests import live
in gmtool_testing.py (a unique name: several conftest.py files share the module name "conftest").
"""

from __future__ import annotations

import itertools
import os

import pytest
from gmtool_testing import (ADMIN_KEY, COUNTERS, PRIVATE, RAM_DISK, SEAT_NAMES, Pure, Screens, bearer, open_link,
                            ram_disk_usable)

from gmtool.core.commands import create_session, new_seat
from gmtool.core.dice import seed_hash
from gmtool.core.model import State
from gmtool.rulesets import get as get_ruleset
from gmtool.runtime import SessionManager
from gmtool.setup import counters_for
from gmtool.web import create_app


def pytest_configure(config):
    """tmp_path on the RAM disk where there is one (PYTEST_DEBUG_TEMPROOT, unless it is set already): the sessions'
    SQLite files are real files either way, and the suite's thousands of new session files no longer wait for a
    disk (a fifth of a web module's wall time on the project's machine). Under xdist the workers' folders are inside
    this process's, so they follow."""
    if "PYTEST_DEBUG_TEMPROOT" not in os.environ and ram_disk_usable():
        os.environ["PYTEST_DEBUG_TEMPROOT"] = RAM_DISK
    # Every session resumed from its kept undo base (gmtool/snapshots.py) is folded from the start too and compared,
    # in this process and in the servers the tests start (they inherit the environment).
    os.environ["GMTOOL_CHECK_SNAPSHOTS"] = "1"


@pytest.fixture
def pure() -> Pure:
    """Three seats (s1..s3), counters seals/mana(private)/karma/vp, folded in memory."""
    counters = counters_for(get_ruleset("generic"), COUNTERS, PRIVATE)
    seats = [new_seat("s1", "セイバー", "衛宮"), new_seat("s2", "アーチャー", "遠坂"), new_seat("s3", "ランサー")]
    harness = Pure(State(rules=get_ruleset("generic")))
    harness.write(create_session("abcd1234", "テスト卓", "generic", seats, counters, seed_hash(b"x" * 32)))
    return harness


@pytest.fixture
def manager(tmp_path):
    """A SessionManager on a fresh data folder; closed at the end."""
    m = SessionManager(tmp_path / "data")
    yield m
    m.close_all()


@pytest.fixture
def live(manager):
    """A live session with three seats and counters seals/mana(private)/karma/vp."""
    counters = counters_for(get_ruleset("generic"), COUNTERS, PRIVATE)
    session, _tokens = manager.create("テスト卓", "generic",
                                      [{"name": "セイバー", "faction": "衛宮"}, {"name": "アーチャー"},
                                       {"name": "ランサー"}], counters)
    # a second passes at each look at the session's clock: scripted answers and rolls of a seat, one after the other,
    # stay within its rates (runtime.ANSWERS_PER_SECOND, ROLLS_PER_SECOND), which are not what these tests are about
    session.clock = itertools.count(0.0, 1.0).__next__
    return session


@pytest.fixture
def app(tmp_path):
    """A gmtool app on a temporary data folder."""
    application = create_app({"DATA_DIR": str(tmp_path / "sessions"), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    yield application
    application.extensions["gmtool"].close_all()


@pytest.fixture
def client(app):
    """A test client without any cookie."""
    return app.test_client()


@pytest.fixture
def admin() -> dict:
    """The server GM key as a bearer header."""
    return bearer(ADMIN_KEY)


@pytest.fixture
def created(client, admin) -> dict:
    """A session created through the API: three seats, counters with a private one (mana)."""
    response = client.post("/api/sessions", headers=admin, json={
        "title": "聖杯戦争テスト", "ruleset": "generic", "seats": SEAT_NAMES,
        "counters": COUNTERS, "private": PRIVATE})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture
def screens(app, created) -> Screens:
    """The GM console, table screen and every phone logged in through their links."""
    return Screens(
        data=created,
        gm=open_link(app, created["gm_url"]),
        table=open_link(app, created["table_url"]),
        seats={s["id"]: open_link(app, s["join_url"]) for s in created["seats"]},
    )
