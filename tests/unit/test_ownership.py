"""Issue 11: which worker owns a session (gmtool/ownership.py), and a session manager that opens, creates,
imports and continues only sessions its worker owns."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from gmtool.export import export
from gmtool.ownership import NotOwned, Ownership
from gmtool.proxy import caddyfile, owned_paths, session_paths
from gmtool.runtime import SessionManager


@pytest.mark.parametrize("session_id, workers, owner", [
    ("w2-0a1b2c3d", 2, 2), ("w1-0a1b2c3d", 2, 1), ("0a1b2c3d", 2, 1), ("w3-0a1b2c3d", 2, 1),
    ("w02-0a1b2c3d", 2, 1), ("w2x0a1b2c3d", 2, 1), ("W2-0a1b2c3d", 2, 1),
    ("w12-0a1b2c3d", 12, 12), ("w1-0a1b2c3d", 12, 1), ("w3-0a1b2c3d", 3, 3)])
def test_the_owner_is_a_function_of_the_id_alone(session_id, workers, owner):
    for worker in range(1, workers + 1):
        assert Ownership(worker, workers).owner_of(session_id) == owner
        assert Ownership(worker, workers).owns(session_id) is (worker == owner)


@pytest.mark.parametrize("session_id, workers, owner", [
    ("w2-0a1b2c3d", 2, 2), ("w1-0a1b2c3d", 2, 1), ("0a1b2c3d", 2, 1), ("w3-0a1b2c3d", 2, 1),
    ("w02-0a1b2c3d", 2, 1), ("w12-0a1b2c3d", 12, 12), ("w1-0a1b2c3d", 12, 1)])
def test_the_proxy_sends_a_session_where_its_owner_is(session_id, workers, owner):
    """The Caddyfile's matchers, tried in its order, pick the worker ownership names (same regular expressions)."""
    config = caddyfile([9000 + k for k in range(1, workers + 1)], 8000)
    routes = [(int(k), pattern) for k, pattern in re.findall(r"@worker(\d+) path_regexp worker\d+ (\S+)", config)]
    assert routes == [*((k, owned_paths(k)) for k in range(workers, 1, -1)), (1, session_paths())]
    for path in (f"/s/{session_id}/gm", f"/join/{session_id}", f"/api/sessions/{session_id}/state"):
        chosen = next(k for k, pattern in routes if re.search(pattern, path))
        assert chosen == owner, path


def test_a_single_server_owns_everything_and_makes_plain_ids():
    single = Ownership()
    assert single.owns("w2-0a1b2c3d") and single.owns("0a1b2c3d")
    assert re.fullmatch(r"[0-9a-f]{8}", single.new_id())


def test_a_worker_makes_ids_it_owns():
    for worker in (1, 2, 3):
        ownership = Ownership(worker, 3)
        assert ownership.new_id().startswith(f"w{worker}-")
        assert all(ownership.owns(ownership.new_id()) for _ in range(20))
    with pytest.raises(ValueError):
        Ownership(3, 2)


def test_a_manager_never_opens_a_session_another_worker_owns(tmp_path):
    first = SessionManager(tmp_path, ownership=Ownership(1, 2))
    second = SessionManager(tmp_path, ownership=Ownership(2, 2))
    try:
        live, _tokens = second.create("t", "generic", [{"name": "A"}])
        sid = live.state.session_id
        assert sid.startswith("w2-")
        with pytest.raises(NotOwned) as refused:
            first.get(sid)
        assert refused.value.status == 421 and "ワーカー" in refused.value.ja and "worker 2" in refused.value.en
        assert sid not in first.sessions
        assert second.get(sid) is live
    finally:
        first.close_all()
        second.close_all()


def test_an_import_gets_an_id_its_worker_owns(tmp_path):
    single = SessionManager(tmp_path / "laptop")
    second = SessionManager(tmp_path / "here", ownership=Ownership(2, 2))
    try:
        for original in ("w1-0a1b2c3d", "0a1b2c3d", "w2-0a1b2c3d"):
            live, _tokens = single.create("t", "generic", [{"name": "A"}])
            with live.lock:
                events = list(live.store.events())
            events[0].data["id"] = original  # as the file exported from another laptop named it
            imported, _tokens = second.import_session(export(events, live.ruleset, "json"))
            sid = imported.state.session_id
            assert second.ownership.owns(sid)
            assert (sid == original) is (original == "w2-0a1b2c3d")  # its own marker is kept, others renamed
    finally:
        single.close_all()
        second.close_all()


def test_a_campaign_is_continued_by_the_owner_and_never_crosses_workers(tmp_path):
    first = SessionManager(tmp_path, ownership=Ownership(1, 2))
    second = SessionManager(tmp_path, ownership=Ownership(2, 2))
    try:
        live, _tokens = second.create("第1回", "generic", [{"name": "A"}])
        following, _tokens = second.continue_from(live.state.session_id)
        assert following.state.session_id.startswith("w2-")
        assert [s.state.session_id for s in second.campaign(following.state.session_id)] == \
            [live.state.session_id, following.state.session_id]
        legacy = SessionManager(tmp_path)  # a session made by a single server: worker 1 owns it
        old, _tokens = legacy.create("前回", "generic", [{"name": "A"}])
        old_id = old.state.session_id
        legacy.close_all()
        continued, _tokens = first.continue_from(old_id)
        assert continued.state.session_id.startswith("w1-")
        assert [s.state.session_id for s in first.campaign(continued.state.session_id)] == \
            [old_id, continued.state.session_id]
        with pytest.raises(NotOwned):
            second.continue_from(old_id)
    finally:
        first.close_all()
        second.close_all()


def test_proxy_config_prints_a_caddyfile_and_the_worker_commands():
    out = subprocess.run([sys.executable, "-m", "gmtool", "proxy-config", "--workers", "3", "--port", "8100",
                          "--first-port", "8101"], capture_output=True, text=True, check=True).stdout
    assert "http://:8100 {" in out and "admin off" in out and "auto_https off" in out
    assert all(f"127.0.0.1:{p}" in out for p in (8101, 8102, 8103))
    assert "gmtool serve --workers 3 --worker 3 --host 127.0.0.1 --port 8103" in out


def test_serve_with_workers_without_caddy_says_how_to_install_it(tmp_path):
    done = subprocess.run([sys.executable, "-m", "gmtool", "serve", "--workers", "2", "--no-browser", "--port", "0",
                           "--data", str(tmp_path / "s"), "--caddy", str(tmp_path / "no-such-caddy")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    for words in ("caddy が見つかりません", "caddy was not found", "winget install CaddyServer.Caddy",
                  "brew install caddy", "apt install caddy", "gmtool proxy-config"):
        assert words in done.stderr
    assert not (tmp_path / "s").exists() or not list((tmp_path / "s").iterdir())  # nothing started or made


def test_a_worker_number_out_of_range_is_refused(tmp_path):
    done = subprocess.run([sys.executable, "-m", "gmtool", "serve", "--workers", "2", "--worker", "3", "--no-browser",
                           "--port", "0", "--data", str(tmp_path / "s")], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--worker" in done.stderr and "1から" in done.stderr

