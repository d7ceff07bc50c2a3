"""Undo from the undo base (runtime.py): the live state after every undo, every resume and every action, and
the base itself, equal a full fold of the log, for every ruleset with its own events, on real session files.

The base shares its prompts with the live state (State.copy, prompts copied on write), so these tests also
catch a fold that changes something a copy shares (a prompt, a roll, a scene mark) in place."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmtool import operations as ops
from gmtool import runtime
from gmtool.core import commands, engine, prompts
from gmtool.core.errors import Conflict, GmError
from gmtool.core.model import Event
from gmtool.core.view import GM, Viewer, build_view
from gmtool.driver import LocalDriver
from gmtool.rulesets import registry
from gmtool.runtime import SessionManager
from gmtool.setup import counters_for, parse_seats
from gmtool.store import LogReader

RULESETS = sorted(registry())
EXAMPLES = settings(max_examples=15, deadline=None, derandomize=True, database=None, print_blob=True,
                    suppress_health_check=list(HealthCheck))
OPS = ("undo", "undo", "counter", "roll", "prompt", "modify", "confirm", "drop", "restart")
DROP_TITLE = "undo drop"


class Interrupted(Exception):
    """The ruleset's script stopped after the number of steps a test asked for."""


class Steps(LocalDriver):
    """A LocalDriver that stops the script (raises Interrupted) after `limit` writes."""

    def __init__(self, live, limit: int):
        super().__init__(live)
        self.left = limit

    def _step(self) -> None:
        if self.left <= 0:
            raise Interrupted
        self.left -= 1

    def act(self, *args, **kwargs):
        self._step()
        return super().act(*args, **kwargs)

    def answer(self, *args, **kwargs):
        self._step()
        return super().answer(*args, **kwargs)

    def post(self, *args, **kwargs):
        self._step()
        return super().post(*args, **kwargs)


def new_session(manager: SessionManager, name: str):
    """A session of ruleset `name` set up as its demo (or its leak probe) wants."""
    rules = registry()[name]
    if rules.demo is not None and rules.demo.play is not None:
        seats = list(rules.demo.seats)
        counters = counters_for(rules, list(rules.demo.counters)) if rules.demo.counters else None
    else:
        seats = [f"席{i + 1}" for i in range(rules.leak_probe.seats)]
        counters = None
    live, _tokens = manager.create(f"undo {name}", name, parse_seats(seats), counters)
    return live


def play(live, steps: int) -> None:
    """The ruleset's own play (its demo, else its leak probe's plant and reveal), stopped after `steps` writes."""
    rules = live.ruleset
    driver = Steps(live, steps)
    markers = itertools.count(1)
    try:
        if rules.demo is not None and rules.demo.play is not None:
            rules.demo.play(driver)
        else:
            rules.leak_probe.plant(driver, lambda kind: f"marker{next(markers)}")
            if rules.leak_probe.reveal is not None:
                rules.leak_probe.reveal(driver)
    except Interrupted:
        pass


def full_fold(live, up_to_seq: int | None = None):
    """A fold of the session's log from the start (up to `up_to_seq`), every undone action skipped."""
    return engine.fold(live.store.events(up_to_seq=up_to_seq), live.ruleset, live.store.undone_actions())


def plain(value) -> object:
    """A state (or a view) as JSON holds it: the live state folds an action's own drafts, a fold of the log their
    stored JSON (a tuple there is a list here)."""
    def encode(item):
        if dataclasses.is_dataclass(item):
            return {f.name: getattr(item, f.name) for f in dataclasses.fields(item) if f.compare}
        if isinstance(item, set):
            return sorted(item)
        raise TypeError(type(item))
    return json.loads(json.dumps(value, default=encode, sort_keys=True))


def check(live) -> None:
    """The live state and the undo base are what a full fold of the log gives; the base is before the window."""
    whole = full_fold(live)
    assert plain(live.state) == plain(whole)
    assert plain(build_view(live.state, GM)) == plain(build_view(whole, GM))
    if live.base is not None:
        assert plain(live.base) == plain(full_fold(live, live.base.last_seq))
        folded = list(live.store.events(after_seq=live.base.last_seq - 1, up_to_seq=live.base.last_seq))
        assert all(e.action < live._window_start() for e in folded)


def run_op(op: str, live, manager):
    """One step of a random session; returns the (manager, live) to go on with."""
    seat = next(iter(live.state.seats))
    revealed = [p for p in live.state.prompts.values() if p.is_revealed and not p.confirmed]
    undone = live.store.undone_actions()
    try:
        if op == "undo":
            try:
                live.undo()
            except runtime.CannotUndo:  # a later event needs the action (e.g. an answer to the prompt it opened):
                assert live.store.undone_actions() == undone  # the log cannot be folded without it, nothing is undone
        elif op == "counter" and live.state.counter_defs:
            ops.change_counter(live, GM, {"seat": seat, "key": live.state.counter_defs[0].key, "delta": 1})
        elif op == "roll":
            ops.roll(live, GM, {"expr": "2D6", "label": "undo test"})
        elif op == "prompt":
            opened = ops.open_prompt(live, GM, {"title": "undo test", "kind": "number", "seats": [seat],
                                                "resolver": "highest"})
            ops.answer(live, Viewer("seat", seat), opened["id"], {"value": 3})
        elif op == "modify" and revealed:  # the oldest: a prompt the base most likely shares
            ops.prompt_action(live, GM, revealed[0].id, "modifiers", {"who": revealed[0].respondents()[0],
                                                                      "amount": 2, "label": "undo test"})
        elif op == "confirm" and revealed:
            ops.prompt_action(live, GM, revealed[0].id, "confirm", {})
        elif op == "drop" and len(live.state.seats) >= 2:
            drop_op(live)
    except GmError:
        pass  # refused by the rules (e.g. nothing left to undo): nothing changed
    if op == "restart":
        sid = live.state.session_id
        manager.close_all()
        manager = SessionManager(manager.data_dir)
        live = manager.get(sid)
    check(live)
    return manager, live


def drop_op(live) -> None:
    """prompt.dropped (a ruleset's seal escape, core prompts.drop): the oldest open test prompt (one the base most
    likely shares) loses its first respondent, a withdrawn answer or not, revealed once the rest have answered;
    with none open, one is opened for every seat and answered by the first (and the last of three or more)."""
    ours = [p for p in live.state.prompts.values() if p.is_open and p.title == DROP_TITLE and len(p.seats) >= 2]
    if ours:
        with live.lock:
            live.execute("gm", prompts.drop, ours[0].id, ours[0].seats[0], {"ja": "離脱", "en": "left"},
                         live.ruleset.all_resolvers(), live.dice())
        return
    seats = list(live.state.seats)
    opened = ops.open_prompt(live, GM, {"title": DROP_TITLE, "kind": "number", "seats": seats, "resolver": "highest"})
    for seat in dict.fromkeys([seats[0], seats[-1]] if len(seats) >= 3 else [seats[0]]):
        ops.answer(live, Viewer("seat", seat), opened["id"], {"value": 3})


@pytest.fixture
def small_window(monkeypatch):
    """A window of 5 undoable actions, and a base that follows after 3 events: both move in short sessions."""
    monkeypatch.setattr(runtime, "UNDO_DEPTH", 5)
    monkeypatch.setattr(runtime, "BASE_LAG", 3)


@pytest.mark.parametrize("name", RULESETS)
def test_random_actions_undos_and_restarts_equal_a_full_fold(name, small_window):
    """Property: any mix of the ruleset's own play, core actions, undos (also of prompts the base shares) and
    restarts leaves the state and the base equal to a full fold of the log."""

    @EXAMPLES
    @given(steps=st.integers(0, 300), script=st.lists(st.sampled_from(OPS), max_size=30))
    def run(steps, script):
        with tempfile.TemporaryDirectory() as tmp:
            manager = SessionManager(Path(tmp))
            try:
                live = new_session(manager, name)
                play(live, steps)
                check(live)
                for op in script:
                    manager, live = run_op(op, live, manager)
                for _ in range(runtime.UNDO_DEPTH + 1):  # back to the start of the window, and a 409 after it
                    manager, live = run_op("undo", live, manager)
            finally:
                manager.close_all()

    run()


def fresh(events: list[Event]) -> list[Event]:
    """Copies of events (a fold may keep an event's data: two states never fold the same object)."""
    return [Event(e.seq, e.ts, e.actor, e.action, e.type, copy.deepcopy(e.data)) for e in events]


@pytest.mark.parametrize("name", RULESETS)
def test_a_copied_state_and_its_original_fold_on_apart(name, manager):
    """State.copy at every point of the ruleset's play: folding the rest into the copy leaves the original as
    it was, and folding it into the original then leaves the copy as it was (nothing shared is changed in
    place: a prompt only through writable_prompt; rolls and scene marks never)."""
    live = new_session(manager, name)
    play(live, 10_000)
    for op in ("prompt", "modify", "roll", "prompt", "confirm", "counter", "drop", "drop", "drop"):
        run_op(op, live, manager)
    events, rules, undone = list(live.store.events()), live.ruleset, live.store.undone_actions()
    whole = engine.fold(fresh(events), rules, undone)
    for cut in range(1, len(events), max(1, len(events) // 40)):
        original = engine.fold(fresh(events[:cut]), rules, undone)
        twin = original.copy()
        engine.fold_on(twin, fresh(events[cut:]))
        assert original == engine.fold(fresh(events[:cut]), rules, undone), cut
        assert twin == whole, cut
        engine.fold_on(original, fresh(events[cut:]))
        assert twin == whole and original == whole, cut


def test_undo_reaches_the_oldest_action_of_the_window_then_conflicts(live):
    """UNDO_DEPTH actions back, each undo equal to a full fold (the base is folded on to the window as it
    moves), and not one more."""
    for i in range(runtime.UNDO_DEPTH + 20):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
        ops.open_prompt(live, GM, {"title": f"q{i}", "kind": "number", "seats": ["s2"], "resolver": "highest"})
        ops.answer(live, Viewer("seat", "s2"), f"p{i + 1}", {"value": i})
    for _ in range(runtime.UNDO_DEPTH):
        live.undo()
        check(live)
    assert live.state.counters["s1"]["vp"] == 20
    with pytest.raises(Conflict):
        live.undo()


def test_undo_right_after_a_resume_of_a_log_longer_than_the_window(manager, live, monkeypatch):
    """A resume folds the base to the window's start: an undo then (of a modifier on a prompt the base holds,
    and of older actions) equals a full fold, as does every later undo."""
    monkeypatch.setattr(runtime, "UNDO_DEPTH", 3)
    for i in range(10):
        ops.open_prompt(live, GM, {"title": f"q{i}", "kind": "number", "seats": ["s1"], "resolver": "highest"})
        ops.answer(live, Viewer("seat", "s1"), f"p{i + 1}", {"value": i})
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
    ops.prompt_action(live, GM, "p1", "modifiers", {"who": "s1", "amount": 5, "label": "+5"})
    sid = live.state.session_id
    manager.close_all()
    again = SessionManager(manager.data_dir)
    try:
        resumed = again.get(sid)
        assert resumed.base is not None and resumed.base.last_seq < resumed.state.last_seq
        assert resumed.base.prompts["p2"] is resumed.state.prompts["p2"]  # shared until a fold changes one
        assert resumed.base.prompts["p1"] is not resumed.state.prompts["p1"]  # the modifier was folded in the window
        check(resumed)
        for _ in range(3):
            resumed.undo()
            check(resumed)
        assert resumed.state.prompts["p1"].modifiers == [] and resumed.state.counters["s1"]["vp"] == 8
        with pytest.raises(Conflict):
            resumed.undo()
    finally:
        again.close_all()


def test_a_base_that_failed_to_fold_is_folded_again_by_the_next_undo(live, monkeypatch):
    """A fold of the base that fails (a bug) does not fail the action that set it off; the next undo folds a
    base from the start and is still right."""
    monkeypatch.setattr(runtime, "BASE_LAG", 2)
    for _ in range(3):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
    base = live.base
    apply = engine.apply

    def failing(state, event, rules=None):
        if state is base:
            raise RuntimeError("a broken fold")
        return apply(state, event, rules)

    monkeypatch.setattr(engine, "apply", failing)
    for _ in range(runtime.UNDO_DEPTH + 5):  # the window moves on: the base has to follow it
        live.execute("gm", commands.change_counter, "s2", "vp", delta=1)
    assert live.base is None
    assert live.state.counters["s2"]["vp"] == runtime.UNDO_DEPTH + 5
    monkeypatch.setattr(engine, "apply", apply)
    live.undo()
    check(live)
    assert live.base is not None and live.state.counters["s2"]["vp"] == runtime.UNDO_DEPTH + 4


def test_undo_while_the_table_acts_equals_a_full_refold(live, monkeypatch):
    """The undo's fold runs outside the session lock: actions made meanwhile stay (the base is not folded on
    by them while an undo uses it), and state and base equal a fold of the whole log."""
    monkeypatch.setattr(runtime, "BASE_LAG", 2)
    for i in range(400):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)
        live.execute("gm", commands.change_counter, "s2", "karma", delta=-1 if i % 2 else 1)
    live.execute("gm", commands.change_counter, "s3", "vp", delta=5)
    done = threading.Event()

    def act():  # up and down: however long the undos take, the counter stays within its bounds
        n = 0
        while not done.is_set():
            live.execute("gm", commands.change_counter, "s2", "vp", delta=1 if n % 2 == 0 else -1)
            n += 1

    worker = threading.Thread(target=act)
    worker.start()
    try:
        live.undo()
        live.undo()
    finally:
        done.set()
        worker.join()
    check(live)
    undone = live.store.undone_actions()
    assert len(undone) == 2
    changes = sum(e.data["delta"] for e in live.store.events(types=("counter.changed",))
                  if e.data["seat"] == "s2" and e.data["key"] == "vp" and e.action not in undone)
    assert live.state.counters["s2"]["vp"] == changes  # nothing the table did meanwhile was lost


def test_actions_during_an_undo_leave_the_base_to_it(live, monkeypatch):
    """Actions committed while an undo folds do not fold the base on (the undo uses it): here so many that the
    window moves past the action being undone, which a base folded on by them would then hold."""
    monkeypatch.setattr(runtime, "BASE_LAG", 2)
    for _ in range(5):
        live.execute("gm", commands.change_counter, "s1", "vp", delta=1)

    class Busy(LogReader):
        """The undo's reader, opened once the table has acted UNDO_DEPTH + 10 times during the undo."""

        def __enter__(self):
            for _ in range(runtime.UNDO_DEPTH + 10):
                live.execute("gm", commands.change_counter, "s2", "vp", delta=1)
            return super().__enter__()

    monkeypatch.setattr(runtime, "LogReader", Busy)
    live.undo()
    monkeypatch.setattr(runtime, "LogReader", LogReader)
    check(live)
    assert live.state.counters["s1"]["vp"] == 4 and live.state.counters["s2"]["vp"] == runtime.UNDO_DEPTH + 10


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="CPython 3.14's incremental collector has no third generation")
def test_a_resumed_state_is_not_left_to_the_young_collections(tmp_path):
    """A resume folds the log with the cyclic collector paused; what it made is then put in the oldest
    generation, so no young collection goes over a long log's millions of objects at the next allocation."""
    import gc

    from gmtool.benchmark.logs import write_session

    sid, _gm = write_session(tmp_path, 2_000)
    manager = SessionManager(tmp_path)
    try:
        gc.collect()
        live = manager.get(sid)
        [[] for _ in range(1_500)]  # a later request allocates: a young collection runs
        oldest = {id(o) for o in gc.get_objects(generation=2)}
        prompts = [p for p in live.state.prompts.values() if gc.is_tracked(p)]
        assert prompts and all(id(p) in oldest for p in prompts)
    finally:
        manager.close_all()


def test_an_appended_event_is_what_a_resume_reads(tmp_path):
    """The live fold gets each event as stored (a tuple comes back a list, a number key a string), so the state
    a table plays on is the state a restart folds; and a command's objects changed later change no event."""
    from gmtool.store import Store

    store = Store(tmp_path / "s.sqlite")
    try:
        draft = {"terms": (1, (2, 3)), 4: "four", "nested": {"seats": ("s1", "s2")}}
        [event] = store.append("gm", [("test.event", draft)])
        draft["nested"]["seats"] = ("changed",)
        [stored] = store.events()
        assert event.data == stored.data == {"terms": [1, [2, 3]], "4": "four", "nested": {"seats": ["s1", "s2"]}}
    finally:
        store.close()


def test_folds_in_two_threads_share_one_pause_of_the_collector():
    """A resume and another session's undo fold at once: the collector stays off until both are done (the first
    to start ending first must not turn it back on under the other's fold)."""
    import gc

    inside, first_done, results = threading.Event(), threading.Event(), {}

    def later_fold():  # starts while the first fold runs, ends after it
        with runtime.gc_paused():
            inside.set()
            first_done.wait(10)
            results["during"] = gc.isenabled()

    assert gc.isenabled()
    other = threading.Thread(target=later_fold)
    with runtime.gc_paused():
        other.start()
        assert inside.wait(10)
    first_done.set()
    other.join(10)
    assert results["during"] is False and gc.isenabled()
