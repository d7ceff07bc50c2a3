"""Campaigns: `continue_from` / `gmtool new --from` on real SQLite files carries what the rules carry,
and nothing else; both sessions name each other; old links do not open the new session."""

from __future__ import annotations

import itertools
import json

import pytest

from gmtool import cli
from gmtool import operations as ops
from gmtool.core.errors import Conflict
from gmtool.core.view import GM, Viewer
from gmtool.export import Options, session_rows
from gmtool.runtime import SessionManager

SABER = "セイバー/セイバー/アルトリア 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60"
LANCER = "ランサー/ランサー/ディルムッド 筋力50 耐久40 敏捷70 魔力30 幸運20 宝具50"


def _grail(manager: SessionManager):
    live, tokens = manager.create("第1夜", "grail_trpg", [{"name": "セイバー陣営", "faction": "衛宮"},
                                                          {"name": "ランサー陣営", "faction": "ケイネス"}])
    ops.ruleset_action(live, GM, "set_characters", {"faction": "s1", "text": SABER})
    ops.ruleset_action(live, GM, "set_characters", {"faction": "s2", "text": LANCER})
    lancer = live.state.extra["grail"]["characters"]["s2"][0]["id"]
    ops.ruleset_action(live, GM, "set_seen", {"faction": "s1", "seen": [lancer]})
    ops.change_counter(live, GM, {"seat": "s1", "key": "seals", "delta": -2, "reason": "令呪"})
    ops.change_counter(live, GM, {"seat": "s2", "key": "black_stars", "value": 2, "reason": "敗北"})
    ops.change_counter(live, GM, {"seat": "s2", "key": "mp", "value": 7, "reason": "MP"})
    return live, tokens, lancer


def test_grail_carries_characters_seen_names_seals_and_black_stars(tmp_path):
    manager = SessionManager(tmp_path)
    first, old_tokens, lancer = _grail(manager)
    nxt, tokens = manager.continue_from(first.state.session_id, "第2夜")
    s, g = nxt.state, nxt.state.extra["grail"]
    assert [(x.id, x.name, x.faction) for x in s.seats.values()] == \
        [("s1", "セイバー陣営", "衛宮"), ("s2", "ランサー陣営", "ケイネス")]
    assert g["characters"] == first.state.extra["grail"]["characters"]
    assert g["seen"] == {"s1": [lancer]}
    assert s.counters["s1"]["seals"] == 1 and s.counters["s2"]["black_stars"] == 2
    assert s.counters["s2"]["mp"] == 0  # MP belongs to one evening
    assert g["combats"] == []
    # the campaign's list: each evening's counters, then the result its write-up ends with (T-11)
    rows = session_rows(manager.campaign_logs(s.session_id), Options(lang="en"))
    assert rows[0]["outcome"] == ("セイバー陣営: Command Seals 1 MP 0 Black stars 0; ランサー陣営: Command Seals 3 MP 7 "
                                  "Black stars 2; Result: Not decided yet (in the war: セイバー陣営, ランサー陣営)")
    # linked both ways, in the log as well
    assert s.campaign["previous"] == {"id": first.state.session_id, "title": "第1夜"}
    assert first.state.campaign["next"] == {"id": s.session_id, "title": "第2夜"}
    # new links: the old phones' tokens do not open the new session
    assert nxt.viewer_for(old_tokens["seats"]["s1"]) is None
    assert nxt.viewer_for(tokens["seats"]["s1"]) == Viewer("seat", "s1")
    # survives a restart (the carried state is in the file, not in memory)
    manager.close_all()
    again = SessionManager(tmp_path).get(s.session_id)
    assert again.state.extra["grail"]["seen"] == {"s1": [lancer]}
    assert again.state.counters["s2"]["black_stars"] == 2


def test_seen_true_names_stay_secret_in_the_next_session(tmp_path):
    from gmtool.core.view import build_view
    manager = SessionManager(tmp_path)
    first, _, lancer = _grail(manager)
    nxt, _ = manager.continue_from(first.state.session_id)
    assert nxt.state.title == "第1夜（続き）"
    as_s1 = json.dumps(build_view(nxt.state, Viewer("seat", "s1"), nxt.state.last_seq), ensure_ascii=False)
    as_table = json.dumps(build_view(nxt.state, Viewer("table"), nxt.state.last_seq), ensure_ascii=False)
    assert "ディルムッド" in as_s1  # seen through last week
    assert "ディルムッド" not in as_table and "アルトリア" not in as_table


def test_a_session_is_continued_once(tmp_path):
    manager = SessionManager(tmp_path)
    first, _, _ = _grail(manager)
    manager.continue_from(first.state.session_id)
    before = len(manager.list())
    with pytest.raises(Conflict):
        manager.continue_from(first.state.session_id)
    assert len(manager.list()) == before


def test_a_continuation_does_not_copy_the_whole_session(tmp_path):
    """A continuation deep-copied the previous session's whole state, before it even checked whether the session was
    continued already: its cost grew with the session's length (the fuzz saw 210 ms of CPU for a refused one; in
    process 1, 7 and 76 ms at 50, 500 and 5,000 events). Measured as memory, not time: what a continuation allocates
    hardly grows from a session of 10 prompts to one of 300 (the state's copy shares the prompts, State.copy), and a
    refused one allocates next to nothing."""
    import tracemalloc

    def allocated(call) -> int:
        tracemalloc.start()
        try:
            call()
        except Conflict:
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    spent = {}
    for prompts in (10, 300):
        manager = SessionManager(tmp_path / str(prompts))
        live, _tokens = manager.create("卓", "generic", [{"name": "A"}, {"name": "B"}])
        live.clock = itertools.count(0.0, 1.0).__next__  # a second between answers: within a seat's answer rate
        for i in range(prompts):
            opened = ops.open_prompt(live, GM, {"title": f"q{i}", "kind": "number", "seats": ["s1"], "resolver": "sum"})
            ops.answer(live, Viewer("seat", "s1"), opened["id"], {"value": 3})
        sid = live.state.session_id
        spent[prompts] = allocated(lambda: manager.continue_from(sid)), allocated(lambda: manager.continue_from(sid))
        manager.close_all()
    assert spent[300][0] < 2 * spent[10][0], spent  # a deepcopy: 20 times as much
    assert max(spent[10][1], spent[300][1]) < 16 * 1024, spent  # the refusal


def test_sugoroku_carries_vp_and_karma_only(tmp_path):
    manager = SessionManager(tmp_path)
    live, _ = manager.create("リーグ第1戦", "sugoroku", [{"name": n} for n in ("A", "B", "C")])
    ops.change_counter(live, GM, {"seat": "s1", "key": "vp", "value": 12, "reason": "戦果"})
    ops.change_counter(live, GM, {"seat": "s2", "key": "karma", "value": 9, "reason": "魂喰い"})
    ops.change_counter(live, GM, {"seat": "s3", "key": "position", "value": 8, "reason": "移動"})
    ops.change_counter(live, GM, {"seat": "s3", "key": "seals", "delta": -1, "reason": "令呪"})
    nxt, _ = manager.continue_from(live.state.session_id, "リーグ第2戦")
    c = nxt.state.counters
    assert c["s1"]["vp"] == 12 and c["s2"]["karma"] == 9
    assert "subjugation" in nxt.state.flags["s2"]  # 討伐令 stands with the karma that raised it
    assert c["s3"]["position"] == 0 and c["s3"]["seals"] == live.state.counter_def("seals").start


def test_generic_carries_every_counter_and_the_readings(tmp_path):
    from gmtool.rulesets import get as get_ruleset
    from gmtool.setup import counters_for
    manager = SessionManager(tmp_path)
    live, _ = manager.create("汎用", "generic", [{"name": "A"}, {"name": "B"}],
                             counters_for(get_ruleset("generic"), ["seals", "karma"]))
    ops.change_counter(live, GM, {"seat": "s2", "key": "karma", "value": 9, "reason": "x"})
    ops.set_reading(live, GM, {"key": "dice", "value": "entered"})
    nxt, _ = manager.continue_from(live.state.session_id)
    assert nxt.state.counters["s2"]["karma"] == 9 and nxt.state.readings == {"dice": "entered"}


def test_cli_new_from(tmp_path, capsys):
    manager = SessionManager(tmp_path)
    first, _, _ = _grail(manager)
    sid = first.state.session_id
    manager.close_all()
    assert cli.main(["new", "--from", sid, "--title", "第2夜", "--data", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["previous"] == sid and out["ruleset"] == "grail_trpg" and len(out["seats"]) == 2
    again = SessionManager(tmp_path)
    assert again.get(out["session"]).state.counters["s2"]["black_stars"] == 2
    assert again.get(sid).state.campaign["next"]["id"] == out["session"]
    # refused: a second continuation, an unknown session, --from with seats; nothing is created
    count = len(again.list())
    again.close_all()
    assert cli.main(["new", "--from", sid, "--data", str(tmp_path)]) == 2
    assert cli.main(["new", "--from", "nosuch", "--data", str(tmp_path)]) == 2
    assert cli.main(["new", "--from", sid, "--seat", "X", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "既に" in err and "already" in err
    assert len(SessionManager(tmp_path).list()) == count
