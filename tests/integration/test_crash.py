"""Issue 4: crash safety under SIGKILL at random points, and racing requests."""

from __future__ import annotations

import sys
import threading

import pytest

from gmtool.benchmark.crash import run_crash
from gmtool.benchmark.harness import Client, ServerProcess
from gmtool.runtime import ANSWER_BURST
from gmtool_testing import run_processes

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def test_ten_sigkills_lose_no_acknowledged_action_and_state_equals_replay(tmp_path):
    result = run_crash(10, seed=7, data=tmp_path / "sessions", log=lambda *a: None)
    assert result["acknowledged"] > 20
    assert result["lost"] == []
    assert result["replay_equal"]


def test_a_crash_run_cut_short_leaves_no_server_running(tmp_path):
    """run_crash (gmtool/benchmark/crash.py, also `gmtool bench`'s) left the server it had started again running when
    anything after a kill failed; it now stops it whatever happens."""
    def cut_short(*_):
        raise RuntimeError("cut short")
    with pytest.raises(RuntimeError, match="cut short"):
        run_crash(1, seed=7, data=tmp_path / "sessions", log=cut_short)  # fails right after the first restart
    assert [cmd for cmd in run_processes().values() if str(tmp_path) in cmd] == []


@pytest.fixture
def live_server(tmp_path):
    server = ServerProcess(tmp_path / "sessions").start()
    yield server
    server.stop()


def test_racing_counter_changes_all_count(live_server):
    client = Client(live_server.base)
    status, s = client.json("POST", "/api/sessions", live_server.admin_key,
                            {"title": "race", "seats": ["A"], "counters": ["vp"]})
    assert status == 201
    errors = []

    def bump():
        c = Client(live_server.base)
        for _ in range(40):
            st, _ = c.json("POST", f"/api/sessions/{s['session']}/counters", s["gm_token"],
                           {"seat": "s1", "key": "vp", "delta": 1})
            if st != 200:
                errors.append(st)
        c.close()

    threads = [threading.Thread(target=bump) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    status, state = client.json("GET", f"/api/sessions/{s['session']}/state", s["gm_token"])
    client.close()
    assert errors == []
    assert state["seats"][0]["counters"]["vp"] == 80


def test_racing_answers_to_one_prompt_end_consistent(live_server):
    client = Client(live_server.base)
    status, s = client.json("POST", "/api/sessions", live_server.admin_key, {"title": "race", "seats": ["A", "B"]})
    sid, gm, seat = s["session"], s["gm_token"], s["seats"][0]["token"]
    client.json("POST", f"/api/sessions/{sid}/prompts", gm, {"title": "q", "kind": "number", "seats": ["s1", "s2"]})
    commitments = []

    def answer(values):
        c = Client(live_server.base)
        for v in values:
            st, body = c.json("POST", f"/api/sessions/{sid}/prompts/p1/answer", seat, {"value": v})
            assert st == 200
            commitments.append(body["commitment"])
        c.close()

    # as many as a seat may send at once (ANSWER_BURST; beyond, its answers are held to a rate: 429)
    threads = [threading.Thread(target=answer, args=(range(0, ANSWER_BURST, 2),)),
               threading.Thread(target=answer, args=(range(1, ANSWER_BURST, 2),))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _, state = client.json("GET", f"/api/sessions/{sid}/state", seat)
    mine = state["prompts"][0]["your_answer"]
    _, log = client.json("GET", f"/api/sessions/{sid}/log?limit=1000", gm)
    client.close()
    answered = [e for e in log["events"] if e["type"] == "prompt.answered" and e["data"]["by"] == "s1"]
    assert answered[-1]["data"]["commitment"] == mine["commitment"]
    assert mine["commitment"] in commitments
    assert state["prompts"][0]["status"] == "open"


def test_an_undo_refused_before_a_restart_is_not_offered_again_after_it(tmp_path):
    """S-11: undoing an escape from a battle revealed since would show the escaper's withdrawn card, so it is refused
    (409) and leaves the undo list: the next undo takes the action before it. The list lived in memory: after the
    server was killed and started again on the same folder the escape was offered again, and refused again. The
    refusal is kept in the session's file, so the console offers after the restart what it offered before."""
    server = ServerProcess(tmp_path / "sessions").start()
    client = Client(server.base)
    try:
        status, s = client.json("POST", "/api/sessions", server.admin_key, {
            "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー", "ランサー", "ライダー"]})
        sid, tokens = s["session"], {"gm": s["gm_token"], **{seat["id"]: seat["token"] for seat in s["seats"]}}

        def call(path, who="gm", body=None, expected=200):
            status, answer = client.json("POST", f"/api/sessions/{sid}/{path}", tokens[who], body or {})
            assert status == expected, (path, answer)
            return answer

        call("actions/setup", body={"board_length": 8})
        for seat, face in (("s1", 3), ("s2", 3), ("s3", 3), ("s4", 1)):
            call("actions/roll_move", seat, {"faces": [face]})
        call("actions/end_phase")
        pid = call("actions/start_battle")["ruleset"]["battle"]["prompt"]
        call(f"prompts/{pid}/answer", "s1", {"value": "力4"})
        call(f"prompts/{pid}/answer", "s2", {"value": "技8"})
        call("actions/use_seal", "s2", {"effect": "escape"})
        call(f"prompts/{pid}/reveal")
        refused = call("undo", expected=409)["error"]
        assert "withdrawn answer" in refused["en"]
        client.close()
        server.kill()
        server = ServerProcess(tmp_path / "sessions").start()
        client = Client(server.base)
        status, answer = client.json("POST", f"/api/sessions/{sid}/undo", tokens["gm"], {})
        assert status == 409 and "withdrawn answer" not in str(answer), answer
        assert "戦闘開始" in answer["error"]["ja"]  # the battle's start, before the escape (its answers build on it)
    finally:
        client.close()
        server.stop()
