"""Undo through the runtime (real SQLite files): every change can be undone, also after a restart."""

from __future__ import annotations

import pytest

from gmtool import operations as ops
from gmtool.core import commands
from gmtool.core.errors import Conflict
from gmtool.core.view import GM, TABLE, Viewer, build_view, visible_event
from gmtool.runtime import SessionManager


def restart(manager, session_id):
    """Close every store and load the session again in a new manager on the same folder."""
    manager.close_all()
    fresh = SessionManager(manager.data_dir)
    return fresh, fresh.get(session_id)


def test_undo_counter_change_restores_value(live):
    live.execute("gm", commands.change_counter, "s1", "seals", delta=-2)
    assert live.state.counters["s1"]["seals"] == 1
    events = live.undo()
    assert events[0].type == "undo"
    assert live.state.counters["s1"]["seals"] == 3


def test_undo_of_a_change_that_raised_a_flag_removes_the_flag_s12(live):
    live.execute("gm", commands.change_counter, "s2", "karma", value=9)
    assert live.state.flags["s2"] == ["subjugation"]
    live.undo()
    assert live.state.counters["s2"]["karma"] == 0
    assert live.state.flags["s2"] == []


def test_undo_twice_undoes_two_actions(live):
    live.execute("gm", commands.change_counter, "s1", "vp", delta=5)
    live.execute("gm", commands.change_counter, "s2", "vp", delta=7)
    live.execute("gm", commands.change_counter, "s3", "vp", delta=1)
    live.undo()
    assert [live.state.counters[s]["vp"] for s in ("s1", "s2", "s3")] == [5, 7, 0]
    live.undo()
    assert [live.state.counters[s]["vp"] for s in ("s1", "s2", "s3")] == [5, 0, 0]


def test_undo_with_nothing_to_undo_conflicts(live):
    with pytest.raises(Conflict) as caught:
        live.undo()
    assert caught.value.status == 409
    assert "取り消せる" in caught.value.ja and "nothing to undo" in caught.value.en


def test_undo_stops_after_every_undoable_action_is_undone(live):
    live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
    live.undo()
    with pytest.raises(Conflict):
        live.undo()
    assert live.state.counters["s1"]["vp"] == 0


def test_undo_keeps_later_actions(live):
    live.execute("gm", commands.change_counter, "s1", "vp", delta=5)
    live.execute("gm", ops.prompts.open_prompt, "p1", {"title": "選択", "kind": "choice",
                                                       "options": ["A", "B"], "seats": ["s1"]},
                 live.ruleset.all_resolvers())
    live.undo()  # the prompt is not undoable: the counter change is undone, the prompt stays
    assert live.state.counters["s1"]["vp"] == 0
    assert "p1" in live.state.prompts


def test_undo_survives_a_restart(manager, live):
    sid = live.state.session_id
    live.execute("gm", commands.change_counter, "s1", "seals", delta=-1)
    live.execute("gm", commands.change_counter, "s3", "karma", value=9)
    fresh, again = restart(manager, sid)
    try:
        assert again.state.flags["s3"] == ["subjugation"]
        again.undo()
        assert again.state.counters["s3"]["karma"] == 0 and again.state.flags["s3"] == []
        again.undo()
        assert again.state.counters["s1"]["seals"] == 3
        with pytest.raises(Conflict):
            again.undo()
    finally:
        fresh.close_all()


def test_an_undo_stays_undone_after_a_restart(manager, live):
    sid = live.state.session_id
    live.execute("gm", commands.change_counter, "s1", "seals", delta=-1)
    live.execute("gm", commands.change_counter, "s1", "vp", delta=4)
    live.undo()
    fresh, again = restart(manager, sid)
    try:
        assert again.state.counters["s1"] == {"seals": 2, "mana": 0, "karma": 0, "vp": 0}
        again.undo()  # the next undo reaches the earlier action, not the already undone one
        assert again.state.counters["s1"]["seals"] == 3
    finally:
        fresh.close_all()


def test_state_after_restart_equals_state_before(manager, live):
    sid = live.state.session_id
    live.execute("gm", commands.change_counter, "s1", "seals", delta=-1, reason="強化")
    live.execute("gm", commands.change_counter, "s2", "karma", value=9)
    live.execute("gm", commands.change_counter, "s2", "mana", value=6)
    ops.roll(live, GM, {"expr": "2D6>=7", "label": "判定"})
    secret = ops.roll(live, GM, {"expr": "S1D100"})
    ops.roll(live, Viewer("seat", "s1"), {"expr": "1D6"})
    ops.reveal_roll(live, GM, secret["seq"])
    live.undo()  # the reveal
    live.add_seat("セイバー・オルタ")
    prompt = ops.open_prompt(live, GM, {"title": "1stセレクト", "kind": "choice",
                                        "options": ["筋力", "耐久"], "seats": ["s1", "s2"], "resolver": "votes"})
    ops.answer(live, Viewer("seat", "s1"), prompt["id"], {"value": "筋力"})
    before = {who: build_view(live.state, viewer) for who, viewer in
              (("gm", GM), ("table", TABLE), ("s1", Viewer("seat", "s1")))}
    fresh, again = restart(manager, sid)
    try:
        for who, viewer in (("gm", GM), ("table", TABLE), ("s1", Viewer("seat", "s1"))):
            assert build_view(again.state, viewer) == before[who], who
        assert again.state.dice_next == live.state.dice_next
        assert again.version == live.version
        assert again.state.undone == live.state.undone
    finally:
        fresh.close_all()


def test_undo_summary_of_a_secret_roll_does_not_leak_to_the_table(live):
    """Principle 3: an undo of a secret roll must not publish the roll through its log line."""
    ops.roll(live, GM, {"expr": "Schoice[ZEBRA42,ZEBRA42]", "label": "伏せ札"})
    undo = live.undo()[0]
    for viewer in (TABLE, Viewer("seat", "s1")):
        visible = visible_event(undo, live.state, viewer)
        assert visible is None or "ZEBRA42" not in repr(visible)
    assert "ZEBRA42" in repr(visible_event(undo, live.state, GM))


def test_undo_summary_of_a_private_counter_does_not_leak_to_other_seats(live):
    live.execute("gm", commands.change_counter, "s1", "mana", value=7)
    undo = live.undo()[0]
    for viewer in (TABLE, Viewer("seat", "s2")):
        visible = visible_event(undo, live.state, viewer)
        assert visible is None or "0→7" not in repr(visible)


@pytest.mark.parametrize("old", [
    {},  # the first shape: no summary at all
    {"summary": "アーチャー: 令呪 3→2 (-1)"},  # the GM's summary, stored before the table's was: the GM's alone
])
def test_an_undo_written_before_its_summaries_reads_as_a_plain_undo(manager, live, old):
    """Review: an undo written before its summaries were stored read 「取り消し: 」 (an empty summary after the colon) on
    the table, the phones and the exports. It reads plain 「取り消し」 / "Undo" to whoever may read no summary of it; the
    GM still reads the stored one."""
    from gmtool.core.logtext import describe
    sid = live.state.session_id
    [change] = live.execute("gm", commands.change_counter, "s2", "seals", delta=-1)
    live.store.append("gm", [("undo", {"action": change.action, "seqs": [change.seq], **old})])  # as the old code wrote it
    fresh, again = restart(manager, sid)
    try:
        undo = list(again.store.events())[-1]
        assert undo.type == "undo" and again.state.counters["s2"]["seals"] == 3
        for viewer in (TABLE, Viewer("seat", "s2")):
            visible = visible_event(undo, again.state, viewer)
            assert [describe(visible, again.state, lang) for lang in ("ja", "en")] == ["取り消し", "Undo"]
        gm = [describe(visible_event(undo, again.state, GM), again.state, lang) for lang in ("ja", "en")]
        assert gm == ([f"取り消し: {old['summary']}", f"Undo: {old['summary']}"] if old else ["取り消し", "Undo"])
    finally:
        fresh.close_all()
