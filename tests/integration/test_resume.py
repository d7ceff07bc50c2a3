"""Issue 11's resume through the real `gmtool serve`: a normal stop (SIGTERM) keeps each open session's undo base in
its file (gmtool/snapshots.py); the next start resumes from it, and after a kill -9 from the base the last stop kept,
with every acknowledged action since. The servers run with GMTOOL_CHECK_SNAPSHOTS=1 (tests/conftest.py): a kept base
that is not the fold of the log fails the resume (409) instead of showing a wrong state."""

from __future__ import annotations

import sqlite3
import sys

import pytest

from gmtool.benchmark.harness import Client, ServerProcess
from gmtool.benchmark.scenarios import create_table

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX CI")


def kept_seq(path) -> int | None:
    """Where the undo base kept in a session file ends, or None."""
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT seq FROM snapshot").fetchone()
    finally:
        conn.close()
    return None if row is None else row[0]


def changes(client: Client, table: dict, n: int) -> None:
    """`n` acknowledged counter changes by the GM."""
    for i in range(n):
        status, _ = client.json("POST", f"/api/sessions/{table['session']}/counters", table["gm_token"],
                                {"seat": "s1", "key": "vp", "delta": 1 if i % 3 else 2})
        assert status == 200


def state(client: Client, table: dict) -> dict:
    status, body = client.json("GET", f"/api/sessions/{table['session']}/state", table["gm_token"])
    assert status == 200, body
    return body


def vp(view: dict) -> int:
    """The first seat's victory points in a state."""
    return next(seat["counters"]["vp"] for seat in view["seats"] if seat["id"] == "s1")


def test_a_stopped_server_keeps_the_undo_base_and_resumes_from_it(tmp_path):
    data = tmp_path / "sessions"
    server = ServerProcess(data).start()
    try:
        client = Client(server.base)
        table = create_table(client, server.admin_key, 2)
        changes(client, table, 80)  # more than the 50 actions an undo can reach: the base moves past the start
        before = state(client, table)
        client.close()
    finally:
        server.stop()
    path = data / f"{table['session']}.sqlite"
    kept = kept_seq(path)
    assert kept is not None and kept > 30
    server = ServerProcess(data).start()
    try:
        client = Client(server.base)
        assert state(client, table) == before
        status, _ = client.json("POST", f"/api/sessions/{table['session']}/undo", table["gm_token"], {})
        assert status == 200
        changes(client, table, 5)
        after = state(client, table)
        client.close()
    finally:
        server.kill()  # no stop: the file keeps the base of the last one
    assert kept_seq(path) == kept
    server = ServerProcess(data).start()
    try:
        client = Client(server.base)
        assert state(client, table) == after
        assert vp(after) == vp(before) - 1 + (2 + 1 + 1 + 2 + 1)  # the last change (+1) undone, five more
        client.close()
    finally:
        server.stop()
