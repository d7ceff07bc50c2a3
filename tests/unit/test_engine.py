"""DESIGN principle 2: state is a fold over the append-only event log; undo names an action."""

from __future__ import annotations

import pytest

from gmtool.core import commands, engine
from gmtool.core.dice import FixedDice
from gmtool.core.model import Event, State
from gmtool.core.view import GM, TABLE, build_view


def test_session_created_folds_seats_counters_and_start_values(pure):
    state = pure.state
    assert state.session_id == "abcd1234"
    assert state.title == "テスト卓"
    assert list(state.seats) == ["s1", "s2", "s3"]
    assert state.seats["s1"].faction == "衛宮"
    assert [d.key for d in state.counter_defs] == ["seals", "mana", "karma", "vp"]
    assert state.counters["s2"] == {"seals": 3, "mana": 0, "karma": 0, "vp": 0}
    assert state.counter_def("mana").public is False
    assert state.flags == {"s1": [], "s2": [], "s3": []}


def test_refold_from_scratch_gives_the_same_state(pure):
    pure.do(commands.change_counter, "s1", "seals", delta=-1)
    pure.do(commands.change_counter, "s2", "karma", value=9, reason="魂喰い")
    pure.do(commands.roll, "2D6", "判定", FixedDice([3, 5]))
    again = pure.refold()
    assert build_view(again, GM) == build_view(pure.state, GM)
    assert again.last_seq == pure.state.last_seq == len(pure.events)


def test_each_command_is_one_action_with_consecutive_seqs(pure):
    events = pure.do(commands.change_counter, "s1", "karma", value=9)
    assert [e.type for e in events] == ["counter.changed", "flag.raised"]
    assert len({e.action for e in events}) == 1
    assert [e.seq for e in events] == [events[0].seq, events[0].seq + 1]
    assert pure.state.last_action == events[0].action


def test_commands_are_pure_they_do_not_change_the_state(pure):
    before = build_view(pure.state, GM)
    drafts = commands.change_counter(pure.state, "s1", "seals", delta=-2)
    assert drafts and drafts[0][0] == "counter.changed"
    assert build_view(pure.state, GM) == before


def test_fold_skips_every_event_of_an_undone_action(pure):
    first = pure.do(commands.change_counter, "s1", "karma", value=9)  # counter + flag
    pure.do(commands.change_counter, "s2", "vp", delta=5)
    state = engine.fold(pure.events, pure.state.rules, undone={first[0].action})
    assert state.counters["s1"]["karma"] == 0
    assert state.flags["s1"] == []
    assert state.counters["s2"]["vp"] == 5


def test_undo_event_undoes_the_named_action_when_folded(pure):
    change = pure.do(commands.change_counter, "s1", "seals", delta=-2)
    undo = Event(pure.state.last_seq + 1, "t", "gm", pure.state.last_action + 1, "undo",
                 {"action": change[0].action, "seqs": [change[0].seq], "summary": ""})
    # The undo event marks the action; a refold that knows it (as the store does) skips it.
    state = engine.fold(pure.events + [undo], pure.state.rules, undone={change[0].action})
    assert state.counters["s1"]["seals"] == 3
    assert change[0].action in state.undone


def test_undone_roll_keeps_its_dice_drawn(pure):
    """Dice stay drawn when their action is undone, so an index is never reused."""
    roll = pure.do(commands.roll, "3D6", "", FixedDice([1, 2, 3]))
    assert pure.state.dice_next == 3
    state = engine.fold(pure.events, pure.state.rules, undone={roll[0].action})
    assert state.rolls == []
    assert state.dice_next == 3


def test_refold_clamps_a_counter_into_its_bounds(pure):
    """After an earlier change is undone, a later delta that would cross the bound is clamped."""
    up = pure.do(commands.change_counter, "s1", "seals", value=10, reason="褒賞")
    pure.do(commands.change_counter, "s1", "seals", delta=-9)  # 10 -> 1
    state = engine.fold(pure.events, pure.state.rules, undone={up[0].action})  # 3 - 9 would be -6
    assert state.counters["s1"]["seals"] == 0


def test_unknown_event_type_is_refused(pure):
    with pytest.raises(ValueError, match="unknown event type"):
        engine.apply(pure.state, Event(99, "t", "gm", 99, "no.such.event", {}))


def test_a_state_needs_its_ruleset_for_the_first_event():
    with pytest.raises(ValueError, match="ruleset"):
        engine.apply(State(), Event(1, "t", "gm", 1, "session.created", {}))


def test_a_ruleset_may_not_redeclare_a_core_event_type():
    from gmtool.core.model import Label
    from gmtool.core.ruleset import PUBLIC, EventType, Ruleset
    with pytest.raises(ValueError, match="core event type"):
        Ruleset("x", Label("x", "x"), events=(EventType("counter.changed", lambda s, e: None, lambda e, s, l: "", PUBLIC),))


def test_secret_and_public_views_come_from_the_same_fold(pure):
    pure.do(commands.roll, "S1D6", "", FixedDice([4]))
    assert len(build_view(pure.state, GM)["rolls"]) == 1
    assert build_view(pure.state, TABLE)["rolls"] == []


def test_close_publishes_the_seed_and_refuses_further_changes(pure):
    pure.do(commands.close_session, "00ff")
    assert pure.state.closed and pure.state.seed == "00ff"
    with pytest.raises(commands.Conflict):
        commands.change_counter(pure.state, "s1", "seals", delta=1)
    with pytest.raises(commands.Conflict):
        commands.roll(pure.state, "1D6", "", FixedDice([1]))
    with pytest.raises(commands.Conflict):
        commands.close_session(pure.state, "00ff")
