"""The undo base kept in the session file (gmtool/snapshots.py): a resume after a close folds only the events after
it, and takes it only while it is still the log's fold; otherwise it folds the whole log, as before.

The suite runs with GMTOOL_CHECK_SNAPSHOTS=1 (tests/conftest.py): every kept base a resume takes is compared with the
whole fold there. The tests that count the events a resume folds turn that check off (it folds the whole log)."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import sqlite3
import threading
import time

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


def assert_folded_whole(data_dir, sid: str, counted: list) -> None:
    """A resume on `data_dir` takes no kept base: it folds every event from the first, and the state is the log's."""
    counted.clear()
    again = SessionManager(data_dir)
    try:
        resumed = again.get(sid)
        assert min(counted) == 1 and resumed.kept_seq == 0
        check(resumed)
    finally:
        again.close_all()


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


@pytest.mark.parametrize("spoil", [
    "UPDATE snapshot SET code = 'another version'",  # folded by other code
    "UPDATE snapshot SET data = X'0102030405'",  # edited
    "UPDATE snapshot SET seq = seq - 1",  # said to end elsewhere
    "UPDATE snapshot SET mac = 'not signed'",
    "UPDATE snapshot SET mac = NULL",
])
def test_a_kept_base_this_folder_did_not_sign_as_it_is_is_not_taken(manager, live, counted, spoil):
    """The resume folds the whole log instead (every event from the first), and the state is the log's; the close
    after it keeps a base again, which the next resume takes."""
    play(live, 20)
    sid = live.state.session_id
    manager.close_all()
    sql(live, spoil)
    assert_folded_whole(manager.data_dir, sid, counted)  # (its close keeps a base again)
    counted.clear()
    again, resumed = reopen(manager, sid)
    try:
        assert min(counted) > 1 and resumed.kept_seq == resumed.base.last_seq
        check(resumed)
    finally:
        again.close_all()


def sign_in(live, data_dir, blob: bytes, seq: int | None = None) -> None:
    """A kept base written with this folder's key and this code's digest (what only this code could write: a bug)."""
    conn = sqlite3.connect(live.path)
    try:
        code, kept_seq = conn.execute("SELECT code, seq FROM snapshot").fetchone()
        seq = kept_seq if seq is None else seq
        conn.execute("UPDATE snapshot SET seq = ?, data = ?, mac = ?",
                     (seq, blob, snapshots.sign(runtime.KeepKey(data_dir).get(), code, seq, blob)))
        conn.commit()
    finally:
        conn.close()


class Planted:
    """An object whose unpickling would run a command (what a file put into the session folder could hold)."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def kept_state(live, **changes) -> bytes:
    """The blob of the base the file keeps, with `changes` made to it."""
    state = snapshots.loads(live_blob(live), live.ruleset)
    for name, value in changes.items():
        setattr(state, name, value)
    return snapshots.dumps(state)


def live_blob(live) -> bytes:
    conn = sqlite3.connect(live.path)
    try:
        return bytes(conn.execute("SELECT data FROM snapshot").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("made", [
    "truncated", "not a state", "another session", "another ruleset", "ends elsewhere", "folds no further",
    "an action that is no number", "runs a command",
])
def test_a_signed_kept_base_that_does_not_fit_its_session_is_not_taken(manager, live, counted, made, tmp_path):
    """Even one signed with this folder's key and this code's digest (only a bug in this code could write it): whatever
    it holds, the session opens, folded from its log, and nothing in the blob runs."""
    play(live, 20)
    sid = live.state.session_id
    manager.close_all()
    marker = tmp_path / "ran"
    blob = {
        "truncated": lambda: live_blob(live)[:-40],
        "not a state": lambda: pickle.dumps({"seats": {}}, protocol=5),
        "another session": lambda: kept_state(live, session_id="other"),
        "another ruleset": lambda: kept_state(live, ruleset="sugoroku"),
        "ends elsewhere": lambda: kept_state(live, last_seq=3),
        "folds no further": lambda: kept_state(live, counters={}),
        "an action that is no number": lambda: kept_state(live, last_action="7"),
        "runs a command": lambda: pickle.dumps(Planted(str(marker)), protocol=5),
    }[made]()
    sign_in(live, manager.data_dir, blob)
    assert_folded_whole(manager.data_dir, sid, counted)
    assert not marker.exists()


@pytest.mark.parametrize("edit", [
    "UPDATE events SET data = replace(data, '\"delta\": 1', '\"delta\": 5') WHERE seq = {seq}",
    "DELETE FROM events WHERE seq = {seq}",
])
def test_an_event_the_kept_base_folded_changed_by_hand_drops_it(manager, live, edit):
    """A hand edit of the log (DB Browser, the sqlite3 shell) at or before the kept base's end deletes it (the file's
    triggers): the resume folds the log as it now stands. (The whole-fold check is on: a stale base fails the load.)"""
    play(live, 20)
    sid = live.state.session_id
    manager.close_all()
    first_change = next(e.seq for e in live_events(live) if e.type == "counter.changed")
    assert first_change < live.kept_seq
    sql(live, edit.format(seq=first_change))
    conn = sqlite3.connect(live.path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM snapshot").fetchone()[0] == 0
    finally:
        conn.close()
    again = SessionManager(manager.data_dir)
    try:
        resumed = again.get(sid)
        assert plain(resumed.state) == plain(full_fold(resumed))
        assert resumed.state.counters["s1"]["vp"] == (20 + 4 if "UPDATE" in edit else 19)
    finally:
        again.close_all()


def live_events(live):
    """The session file's events, read on a connection of their own (the session is closed)."""
    with runtime.LogReader(live.path) as reader:
        return list(reader.events())


def test_a_session_file_copied_from_another_data_folder_is_folded_from_its_log(manager, live, counted, tmp_path):
    """Its kept base was signed with the other folder's key."""
    play(live, 20)
    sid = live.state.session_id
    manager.close_all()
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(live.path, other / live.path.name)
    assert_folded_whole(other, sid, counted)


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


PLUGIN = """from gmtool.core.model import Label
from gmtool.core.ruleset import PUBLIC, EventType, Ruleset
from gmtool.rulesets.generic import PRESETS

STEP = {step}


def fold(state, e):
    state.extra["bumps"] = state.extra.get("bumps", 0) + STEP * e.data["n"]


RULESET = Ruleset(name="homebrew", label=Label("自作", "Homebrew"), presets=PRESETS, default_presets=("vp",),
                  events=(EventType("homebrew.bump", fold, lambda d, s, lang: "bump", PUBLIC, undoable=True),))
"""


def test_the_code_digest_follows_gmtool_and_the_rulesets_own_package(tmp_path, monkeypatch):
    """A third-party game is a pip package of its own (docs/api.md): its folds are in the digest of its sessions, so
    upgrading it (or editing it) makes their kept bases fold again; other games' sessions keep theirs."""
    site = tmp_path / "site"
    (site / "homebrew_game-0.1.dist-info").mkdir(parents=True)
    (site / "homebrew_game-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: homebrew-game\n"
                                                                    "Version: 0.1\n")
    (site / "homebrew_game-0.1.dist-info" / "entry_points.txt").write_text(
        "[gmtool.rulesets]\nhomebrew = homebrew_game:RULESET\n")
    (site / "homebrew_game.py").write_text(PLUGIN.format(step=1))
    monkeypatch.syspath_prepend(str(site))
    snapshots._package_of.cache_clear()
    try:
        generic, homebrew = snapshots.code_digest("generic", now=True), snapshots.code_digest("homebrew", now=True)
        assert generic and homebrew and generic != homebrew
        (site / "homebrew_game.py").write_text(PLUGIN.format(step=2))  # version 0.2
        snapshots._recent.clear()
        assert snapshots.code_digest("homebrew", now=True) not in ("", homebrew)
        assert snapshots.code_digest("generic", now=True) == generic
    finally:
        snapshots._package_of.cache_clear()
        snapshots._recent.clear()


def test_a_stop_keeps_no_base_once_the_code_on_disk_is_not_the_code_running(manager, live, monkeypatch):
    """An upgrade (git pull, pip install -U) made while the server runs: the base the old code folded would be
    labelled with the new code's digest, so the stop writes nothing and the next resume folds the log."""
    play(live, 20)
    sid = live.state.session_id
    manager, resumed = reopen(manager, sid)
    kept = resumed.store.get_snapshot()
    resumed.execute("gm", commands.change_counter, "s1", "vp", delta=1)  # the base moves on: a close would keep it
    monkeypatch.setitem(snapshots._recent, "gmtool", (time.monotonic() + 60, "the files as upgraded"))
    manager.close_all()
    conn = sqlite3.connect(resumed.path)
    try:
        assert conn.execute("SELECT code, seq, mac, data FROM snapshot").fetchone() == (kept[0], kept[1], kept[2], kept[3])
    finally:
        conn.close()
    monkeypatch.delitem(snapshots._recent, "gmtool")
    manager, again = reopen(manager, sid)  # (the files are as the process started again: the new base is kept)
    manager.close_all()
    conn = sqlite3.connect(again.path)
    try:
        assert conn.execute("SELECT seq FROM snapshot").fetchone()[0] > kept[1]
    finally:
        conn.close()


def test_a_close_during_an_undo_keeps_nothing_and_the_undo_says_the_server_is_stopping(manager, live, monkeypatch):
    """The undo folds off the session's lock holding undo_lock; a stop meanwhile neither waits for it (a deadlock: the
    undo then waits for the session's lock) nor writes a base in the middle of its fold, and the undo answers that the
    server is stopping (503), not an error, leaving the action undoable."""
    for _ in range(60):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
    inside, closed = threading.Event(), threading.Event()

    class Slow(runtime.LogReader):
        def __enter__(self):
            inside.set()
            closed.wait(10)
            return super().__enter__()

    monkeypatch.setattr(runtime, "LogReader", Slow)
    outcome = []

    def undo():
        try:
            live.undo()
            outcome.append("done")
        except BaseException as e:  # noqa: BLE001
            outcome.append(e)

    worker = threading.Thread(target=undo)
    worker.start()
    assert inside.wait(10)
    manager.close_all()  # returns while the undo is stuck in its fold
    closed.set()
    worker.join(10)
    assert not worker.is_alive() and isinstance(outcome[0], runtime.ServerStopping)
    conn = sqlite3.connect(live.path)
    try:
        assert conn.execute("SELECT COUNT(*) FROM snapshot").fetchone()[0] == 0
        assert json.loads(dict(conn.execute("SELECT key, value FROM meta").fetchall()).get(runtime.REFUSED, "[]")) == []
    finally:
        conn.close()
