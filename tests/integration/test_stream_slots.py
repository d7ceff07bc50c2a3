"""Issue 11: a screen that closes frees its stream slot at once (the real `gmtool serve`), not
at the next heartbeat write 15–30 s later. A bounded wait is a failure guard, not a measurement."""

from __future__ import annotations

import http.client
import sys
import time
from urllib.parse import urlsplit

import pytest

from gmtool.benchmark.harness import Client, ServerProcess
from gmtool.benchmark.scenarios import create_table

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX CI")


def open_stream(server: ServerProcess, sid: str, token: str) -> tuple[http.client.HTTPResponse, int]:
    """A table screen's stream: the response (it holds the connection: the stream's answer closes it at its
    end, so http.client leaves the socket to the response alone) and its status."""
    parts = urlsplit(server.base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request("GET", f"/s/{sid}/events?as=table&push=1", headers={"Cookie": f"gmtool_table_{sid}={token}"})
    response = conn.getresponse()
    if response.status == 200:
        response.fp.readline()  # the stream is open and serving
    conn.close()  # the response keeps the socket
    return response, response.status


def test_a_closed_screen_frees_its_stream_slot_at_once(tmp_path):
    server = ServerProcess(tmp_path / "sessions", threads=8, max_streams=1).start()
    try:
        client = Client(server.base)
        table = create_table(client, server.admin_key, 2)
        sid, token = table["session"], table["table_token"]
        first, status = open_stream(server, sid, token)
        assert status == 200
        second, status = open_stream(server, sid, token)
        assert status == 503  # the one slot is taken
        second.close()
        first.close()  # the screen goes away without a word (heartbeats are 15 s apart)
        deadline = time.monotonic() + 5  # well under one heartbeat
        while True:
            conn, status = open_stream(server, sid, token)
            conn.close()
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.25)
        assert status == 200
        client.close()
    finally:
        server.stop()
