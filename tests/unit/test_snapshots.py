"""The undo base kept in the session file (gmtool/snapshots.py): a resume after a close folds only the events after
it, and takes it only while it is still the log's fold; otherwise it folds the whole log, as before.

The suite runs with GMTOOL_CHECK_SNAPSHOTS=1 (tests/conftest.py): every kept base a resume takes is compared with the
whole fold there. The tests that count the events a resume folds turn that check off (it folds the whole log)."""

from __future__ import annotations

import json
import logging
import os
import pickle
import sqlite3

import pytest
from test_undo_base import check, full_fold, plain

from gmtool import operations as ops
from gmtool import runtime, snapshots
from gmtool.core import commands, engine
from gmtool.core.view import GM, Viewer
from gmtool.runtime import SessionManager


@pytest.fixture
def counted(monkeypatch):
    """The events folded from now on (engine.apply's calls), with the whole-fold check of a kept base turned off."""
    monkeypatch.setenv("GMTOOL_CHECK_SNAPSHOTS", "0")
    calls = []
    apply = engine.apply

    def counting(state, event, rules=None):
        calls.append(event.seq)
        return apply(state, event, rules)

    monkeypatch.setattr(engine, "apply", counting)
    return calls


def play(live, rounds: int = 40) -> None:
    """Counter changes, rolls, and prompts answered and modified: `rounds` times four undoable actions and more."""
    for i in range(rounds):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
        ops.roll(live, GM, {"expr": "2D6", "label": f"r{i}"})
        opened = ops.open_prompt(live, GM, {"title": f"q{i}", "kind": "number", "seats": ["s2"],
                                            "resolver": "highest"})
        ops.answer(live, Viewer("seat", "s2"), opened["id"], {"value": i})
        ops.prompt_action(live, GM, opened["id"], "modifiers", {"who": "s2", "amount": 1, "label": "+1"})


def reopen(manager: SessionManager, sid: str) -> tuple[SessionManager, runtime.LiveSession]:
    """The session loaded by a new manager, as after a restart."""
    manager.close_all()
    again = SessionManager(manager.data_dir)
    return again, again.get(sid)


def sql(live, statement: str, *args) -> None:
    """One statement on the session's file, from outside gmtool (as a hand edit or another program would)."""
    conn = sqlite3.connect(live.path)
    try:
        conn.execute(statement, args)
        conn.commit()
    finally:
        conn.close()


def test_a_resume_after_a_close_folds_only_what_came_after_the_kept_base(manager, live, counted):
    """A close writes the undo base into the file; the next resume folds from it: the undo window and what came
    after the base, not the log from its first event. The state, the base and each undo then equal the whole fold."""
    play(live)
    sid, total = live.state.session_id, live.state.last_seq
    manager.close_all()
    kept = live.kept_seq
    counted.clear()
    manager, resumed = reopen(manager, sid)
    try:
        assert resumed.kept_seq == kept > total // 2 and resumed.base.last_seq == kept
        assert counted and min(counted) > kept  # no event the kept base holds was folded again
        check(resumed)
        for _ in range(5):
            resumed.undo()
            check(resumed)
        counted.clear()
        manager, resumed = reopen(manager, sid)  # the undos moved nothing the kept base holds: it is taken again
        assert counted and min(counted) > kept
        check(resumed)
    finally:
        manager.close_all()


def test_a_close_writes_the_kept_base_only_when_it_moved(manager, live, monkeypatch):
    """Closing a session whose base did not move since the last close writes nothing (a long session's base takes
    about half a second to write)."""
    writes = []
    put = runtime.Store.put_snapshot
    monkeypatch.setattr(runtime.Store, "put_snapshot", lambda store, *args: writes.append(args[1]) or put(store, *args))
    play(live, 20)
    sid = live.state.session_id
    manager, resumed = reopen(manager, sid)
    try:
        assert writes == [resumed.kept_seq] and resumed.store.get_snapshot()[1] == resumed.base.last_seq
        manager, again = reopen(manager, sid)
        assert writes == [resumed.kept_seq]
        again.execute("gm", commands.change_counter, "s1", "vp", delta=1)  # the window moves on, and the base with it
        manager, again = reopen(manager, sid)
        assert len(writes) == 2 and writes[1] > writes[0] and writes[1] == again.base.last_seq
    finally:
        manager.close_all()


@pytest.mark.parametrize("spoil, why", [
    ("UPDATE snapshot SET code = 'another version'", "written by other code"),
    ("UPDATE snapshot SET data = X'80054b'", "not a state"),
    ("UPDATE snapshot SET data = X'0102030405'", "not a pickle"),
    ("UPDATE snapshot SET seq = seq - 1", "not where the row says it ends"),
])
def test_a_kept_base_that_is_not_the_fold_of_this_code_is_not_taken(manager, live, counted, spoil, why, caplog):
    """The resume folds the whole log instead (every event from the first), and the state is the log's."""
    play(live, 20)
    sid = live.state.session_id
    manager.close_all()
    sql(live, spoil)
    counted.clear()
    again = SessionManager(manager.data_dir)
    try:
        with caplog.at_level(logging.WARNING, logger="gmtool.runtime"):
            resumed = again.get(sid)
        assert min(counted) == 1, why
        check(resumed)
    finally:
        again.close_all()


class Planted:
    """An object whose unpickling would run a command (what a file put into the session folder could hold)."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_kept_base_never_runs_code_from_the_file(manager, live, counted, tmp_path):
    """A blob that would run a command when unpickled is refused (only the model's classes are made): nothing runs,
    the whole log is folded."""
    play(live, 5)
    sid = live.state.session_id
    manager.close_all()
    marker = tmp_path / "ran"
    sql(live, "UPDATE snapshot SET data = ?", pickle.dumps(Planted(str(marker)), protocol=5))
    counted.clear()
    again = SessionManager(manager.data_dir)
    try:
        resumed = again.get(sid)
        assert not marker.exists()
        assert min(counted) == 1
        check(resumed)
    finally:
        again.close_all()
    assert pickle.loads(pickle.dumps(Planted(str(marker)))) == 0 and marker.exists()  # (the blob did run elsewhere)


def test_a_kept_base_inside_a_window_that_moved_back_is_not_taken(manager, live, monkeypatch):
    """An undo refused since the close leaves the window's list, so the window reaches one action further back than
    when the base was written: the resume folds the base anew (a kept base that held the action would make its undo
    wrong), and undoing back through the whole window equals the whole fold each time."""
    monkeypatch.setattr(runtime, "UNDO_DEPTH", 3)
    manager, live = reopen(manager, live.state.session_id)  # (loaded with the window of 3)
    for _ in range(12):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
    sid, newest = live.state.session_id, live.state.last_action
    manager.close_all()
    kept_to = live.base.last_action
    sql(live, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", runtime.REFUSED, json.dumps([newest]))
    again = SessionManager(manager.data_dir)
    try:
        resumed = again.get(sid)
        assert resumed._window_start() <= kept_to  # (the case this test is about)
        check(resumed)
        for _ in range(3):
            resumed.undo()
            check(resumed)
        assert resumed.state.counters["s1"]["vp"] == 12 - 3 - 1 + 1  # three undone, the refused one stays
    finally:
        again.close_all()


def test_a_kept_base_is_not_taken_when_an_action_it_holds_was_undone_since(manager, live, monkeypatch):
    """An undo written since the close of an action the kept base holds (the base would still fold it): the resume
    folds the log anew. (The whole-fold check is on: a base taken wrongly fails the load.)"""
    monkeypatch.setattr(runtime, "UNDO_DEPTH", 3)
    manager, live = reopen(manager, live.state.session_id)  # (loaded with the window of 3)
    for _ in range(12):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
    sid = live.state.session_id
    manager.close_all()
    held = live.base.last_action
    store = runtime.Store(live.path)
    try:
        store.append("gm", [("undo", {"action": held, "seqs": [], "summary": "", "gm_summary": ""})])
    finally:
        store.close()
    again = SessionManager(manager.data_dir)
    try:
        resumed = again.get(sid)
        assert held in resumed.state.undone
        assert plain(resumed.state) == plain(full_fold(resumed))
        assert resumed.state.counters["s1"]["vp"] == 11
    finally:
        again.close_all()


def test_the_code_digest_follows_the_folds_source(tmp_path, monkeypatch):
    """The digest changes with any core or ruleset module's text (an upgrade, a local edit), so a base folded by
    other code is never taken; it is the same for the same files."""
    digest = snapshots.code_digest()
    assert digest and digest == snapshots.code_digest()
    root = tmp_path / "gmtool"
    for part in ("core", "rulesets/generic"):
        (root / part).mkdir(parents=True)
    (root / "core" / "engine.py").write_text("x = 1\n")
    (root / "rulesets" / "generic" / "events.py").write_text("y = 1\n")
    (root / "i18n.py").write_text("z = 1\n")
    monkeypatch.setattr(snapshots, "__file__", str(root / "snapshots.py"))
    digests = []
    for edit in (None, ("core/engine.py", "x = 2\n"), ("rulesets/generic/events.py", "y = 2\n"), ("i18n.py", "z = 2\n")):
        if edit:
            (root / edit[0]).write_text(edit[1])
        snapshots.code_digest.cache_clear()
        digests.append(snapshots.code_digest())
    snapshots.code_digest.cache_clear()
    assert len(set(digests)) == 4 and digest not in digests
