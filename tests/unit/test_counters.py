"""Counters: delta / value, bounds with readable ja+en errors, threshold flags up and down."""

from __future__ import annotations

import pytest

from gmtool.core import commands, engine
from gmtool.core.errors import Conflict, GmError, NotFound


def test_delta_changes_the_value(pure):
    events = pure.do(commands.change_counter, "s1", "seals", delta=-1, reason="令呪で強化")
    assert pure.state.counters["s1"]["seals"] == 2
    assert events[0].data == {"seat": "s1", "key": "seals", "delta": -1, "from": 3, "to": 2, "reason": "令呪で強化"}


def test_value_sets_the_counter(pure):
    events = pure.do(commands.change_counter, "s2", "vp", value="14")
    assert pure.state.counters["s2"]["vp"] == 14
    assert events[0].data["delta"] == 14


@pytest.mark.parametrize("text, expected", [("+3", 3), ("＋3", 3), ("−2", -2), (" 5 ", 5)])
def test_delta_accepts_signed_and_full_width_text(pure, text, expected):
    pure.do(commands.change_counter, "s1", "vp", delta=text)
    assert pure.state.counters["s1"]["vp"] == expected


@pytest.mark.parametrize("kwargs", [{"delta": -4}, {"value": -1}])
def test_out_of_range_is_rejected_in_japanese_and_english(pure, kwargs):
    with pytest.raises(GmError) as caught:
        pure.do(commands.change_counter, "s1", "seals", **kwargs)
    error = caught.value
    assert error.status == 400
    assert "令呪" in error.ja and "範囲" in error.ja
    assert error.ja.startswith("令呪は0から3までの範囲です（")
    assert error.en.startswith("Command Seals must be from 0 to 3 (cannot become ")
    assert "∞" not in error.ja + error.en
    assert pure.state.counters["s1"]["seals"] == 3
    assert len(pure.events) == 1  # only session.created


def test_same_value_is_rejected(pure):
    with pytest.raises(GmError) as caught:
        pure.do(commands.change_counter, "s1", "seals", value=3)
    assert "既に3" in caught.value.ja and "already 3" in caught.value.en
    with pytest.raises(GmError):
        pure.do(commands.change_counter, "s1", "seals", delta=0)
    assert len(pure.events) == 1


@pytest.mark.parametrize("kwargs", [{}, {"delta": 1, "value": 4}])
def test_exactly_one_of_delta_and_value(pure, kwargs):
    with pytest.raises(GmError):
        commands.change_counter(pure.state, "s1", "seals", **kwargs)


@pytest.mark.parametrize("bad", ["abc", "1.5", True, None, [1]])
def test_non_integer_delta_is_rejected(pure, bad):
    kwargs = {"delta": bad} if bad is not None else {"value": "x"}
    with pytest.raises(GmError) as caught:
        commands.change_counter(pure.state, "s1", "seals", **kwargs)
    assert "整数" in caught.value.ja and "whole number" in caught.value.en


def test_unknown_seat_or_counter_is_not_found(pure):
    with pytest.raises(NotFound):
        commands.change_counter(pure.state, "s9", "seals", delta=1)
    with pytest.raises(NotFound):
        commands.change_counter(pure.state, "s1", "hp", delta=1)


def test_reason_longer_than_limit_is_rejected(pure):
    with pytest.raises(GmError):
        commands.change_counter(pure.state, "s1", "seals", delta=1, reason="x" * 201)


def test_karma_9_raises_the_subjugation_order(pure):
    events = pure.do(commands.change_counter, "s3", "karma", value=9, reason="魂喰い")
    assert [e.type for e in events] == ["counter.changed", "flag.raised"]
    raised = events[1].data
    assert raised["flag"] == "subjugation" and raised["rule"] == ""  # a generic preset cites no game's rule
    assert raised["label"] == {"ja": "討伐令", "en": "Subjugation order"}
    assert pure.state.flags["s3"] == ["subjugation"]
    assert pure.state.flags["s1"] == []


def test_karma_below_9_does_not_raise(pure):
    events = pure.do(commands.change_counter, "s3", "karma", value=8)
    assert [e.type for e in events] == ["counter.changed"]
    assert pure.state.flags["s3"] == []


def test_karma_back_to_8_lowers_the_subjugation_order(pure):
    pure.do(commands.change_counter, "s3", "karma", value=9)
    events = pure.do(commands.change_counter, "s3", "karma", delta=-1)
    assert [e.type for e in events] == ["counter.changed", "flag.lowered"]
    assert events[1].data["flag"] == "subjugation"
    assert pure.state.flags["s3"] == []


def test_karma_rising_above_9_does_not_raise_twice(pure):
    pure.do(commands.change_counter, "s3", "karma", value=9)
    events = pure.do(commands.change_counter, "s3", "karma", value=12)
    assert [e.type for e in events] == ["counter.changed"]
    assert pure.state.flags["s3"] == ["subjugation"]


def test_changes_on_a_closed_session_conflict(pure):
    pure.do(commands.close_session, "ab")
    with pytest.raises(Conflict) as caught:
        commands.change_counter(pure.state, "s1", "seals", delta=1)
    assert caught.value.status == 409


# -- the set box: +N / -N is relative (CCFOLIA habit), a plain number sets ------------------------------

@pytest.mark.parametrize("typed, expected", [("+2", 12), ("-3", 7), ("＋1", 11), ("−4", 6), ("ー2", 8), (" +0005 ", 15),
                                             ("2", 2), ("0", 0), (" 7 ", 7), (2, 2), (-3, -3)])
def test_set_box_sign_means_a_change_a_plain_number_sets(pure, typed, expected):
    pure.do(commands.change_counter, "s1", "vp", value=10)
    pure.do(commands.change_counter, "s1", "vp", value=typed)
    assert pure.state.counters["s1"]["vp"] == expected


def test_relative_set_records_the_change_it_made(pure):
    events = pure.do(commands.change_counter, "s1", "seals", value="-2", reason="令呪で強化")
    assert events[0].data == {"seat": "s1", "key": "seals", "delta": -2, "from": 3, "to": 1, "reason": "令呪で強化"}


@pytest.mark.parametrize("bad", ["+", "-", "++2", "+2.5", "2+", "abc", "+ x", "１e3"])
def test_bad_set_box_text_is_a_readable_error_and_changes_nothing(pure, bad):
    with pytest.raises(GmError) as caught:
        pure.do(commands.change_counter, "s1", "vp", value=bad)
    assert caught.value.status == 400
    assert "整数" in caught.value.ja and "whole number" in caught.value.en
    assert len(pure.events) == 1


@pytest.mark.parametrize("value", ["+1", "4", 10])
def test_seals_stay_at_most_their_start_without_a_reason(pure, value):
    with pytest.raises(GmError) as caught:
        pure.do(commands.change_counter, "s1", "seals", value=value)
    error = caught.value
    assert error.ja.startswith("令呪は0から3までの範囲です（") and "理由" in error.ja
    assert error.en.startswith("Command Seals must be from 0 to 3 (cannot become ") and "reason" in error.en
    assert "∞" not in error.ja + error.en
    assert pure.state.counters["s1"]["seals"] == 3 and len(pure.events) == 1


def test_a_reason_raises_the_seats_upper_bound_and_undo_takes_it_back(pure):
    events = pure.do(commands.change_counter, "s1", "seals", value="+2", reason="監督役の褒賞")
    assert events[0].data["max"] == 5 and events[0].data["to"] == 5
    assert pure.state.counters["s1"]["seals"] == 5 and pure.state.bounds("s1", "seals") == (0, 5)
    assert pure.state.bounds("s2", "seals") == (0, 3)  # only that seat
    with pytest.raises(GmError):  # the raised bound is the new limit
        commands.change_counter(pure.state, "s1", "seals", delta=1)
    undone = engine.fold(pure.events, pure.state.rules, undone=[events[0].action])
    assert undone.counters["s1"]["seals"] == 3 and undone.bounds("s1", "seals") == (0, 3)


def test_raised_bound_shows_in_the_log_line(pure):
    from gmtool.core.logtext import describe
    event = pure.do(commands.change_counter, "s1", "seals", value=4, reason="褒賞")[0]
    assert "上限を4に" in describe(event.to_dict() | {"undone": False}, pure.state, "ja")
    assert "limit now 4" in describe(event.to_dict() | {"undone": False}, pure.state, "en")


def test_lower_bounds_are_not_raised_by_a_reason(pure):
    with pytest.raises(GmError) as caught:
        pure.do(commands.change_counter, "s1", "seals", value="-4", reason="なんとなく")
    assert "0から3まで" in caught.value.ja


@pytest.mark.parametrize("lo, hi, ja, en", [(0, 3, "0から3までの範囲", "from 0 to 3"), (0, None, "0以上", "at least 0"),
                                            (None, 999, "999以下", "at most 999")])
def test_range_in_words(lo, hi, ja, en):
    assert commands.range_words(lo, hi) == (ja, en)


def test_every_ruleset_counter_has_an_upper_bound():
    from gmtool.rulesets import get
    for name in ("generic", "grail_trpg", "sugoroku", "ace_royal", "succession", "illuminati"):
        rules = get(name)
        for counter in rules.counters + rules.presets:
            assert counter.max is not None, f"{name}: {counter.key} has no upper bound"
            assert counter.min is None or counter.min <= counter.start <= counter.max


def test_a_raised_bound_carries_into_the_next_session_of_a_campaign(manager, live):
    live.execute("gm", commands.change_counter, "s1", "seals", value=5, reason="監督役の褒賞")
    following, _tokens = manager.continue_from(live.state.session_id, "第2夜")
    assert following.state.counters["s1"]["seals"] == 5 and following.state.bounds("s1", "seals") == (0, 5)
    assert following.state.bounds("s2", "seals") == (0, 3)


def test_grail_starting_seals_move_the_bound_with_the_start():
    from gmtool.core.model import State
    from gmtool.rulesets import get
    from gmtool.rulesets.grail_trpg.actions import set_starting_seals
    from gmtool_testing import Pure
    from gmtool.core.commands import create_session, new_seat
    rules = get("grail_trpg")
    pure = Pure(State(rules=rules))
    pure.write(create_session("abcd1234", "卓", "grail_trpg", [new_seat("s1", "A"), new_seat("s2", "B")],
                              list(rules.counters), "0" * 64))
    pure.write(set_starting_seals(pure.state, {"value": 5}, None))
    assert pure.state.counters["s1"]["seals"] == 5 and pure.state.bounds("s1", "seals") == (0, 5)
    with pytest.raises(GmError):
        commands.change_counter(pure.state, "s1", "seals", delta=1)


def test_changes_computed_earlier_apply_by_their_delta_from_the_value_now_with_the_flags_now(manager):
    """A prompt's resolution is computed at its reveal and applied at the confirm (commands.counter_drafts_now):
    each change moves the counter by its delta from where it stands at the confirm, into its bounds, its from / to
    and threshold flags what it does then, not what the reveal saw."""
    from gmtool.rulesets import get as get_ruleset
    from gmtool.setup import counters_for
    live, _ = manager.create("確定", "generic", [{"name": "A"}], counters_for(get_ruleset("generic"), ["HP,10,0,20,瀕死<=3"]))
    run = commands.CounterRun(live.state)
    run.set("s1", "c1", 5, "一撃")  # 10→5 at the reveal
    run.emit("note", {"x": 1})
    run.set("s1", "c1", 2, "追撃")  # 5→2 raises 瀕死
    early = run.drafts
    live.execute("gm", commands.change_counter, "s1", "c1", value=14)  # moved before the confirm
    now = commands.counter_drafts_now(live.state, early)
    assert now == [("counter.changed", {"seat": "s1", "key": "c1", "delta": -5, "from": 14, "to": 9, "reason": "一撃"}),
                   ("note", {"x": 1}),
                   ("counter.changed", {"seat": "s1", "key": "c1", "delta": -3, "from": 9, "to": 6, "reason": "追撃"})]
    live.execute("gm", commands.change_counter, "s1", "c1", value=4)
    now = commands.counter_drafts_now(live.state, early)
    assert [(t, d.get("from"), d.get("to")) for t, d in now] == [
        ("counter.changed", 4, 0), ("flag.raised", None, None), ("note", None, None)]  # clamped at 0; nothing left


def test_a_counter_run_keeps_an_upper_bound_raised_earlier_in_the_run(pure):
    """CounterRun: a change that raises a counter's upper bound (seals 3 → 6) holds for the later changes of the
    same run, which are clamped to the raised bound, not the state's old one (6 → 5, not 6 → 3)."""
    run = commands.CounterRun(pure.state)
    run.set("s1", "seals", 6, "褒賞", bound=6)
    assert run.set("s1", "seals", 5, "使用") == [
        ("counter.changed", {"seat": "s1", "key": "seals", "delta": -1, "from": 6, "to": 5, "reason": "使用"})]
    pure.write(run.drafts)
    assert pure.state.counters["s1"]["seals"] == 5 and pure.state.bounds("s1", "seals") == (0, 6)
    # a resolution computed earlier replays the same way (counter_drafts_now runs its changes as one run)
    now = commands.counter_drafts_now(pure.state, [
        ("counter.changed", {"seat": "s2", "key": "seals", "delta": 4, "reason": "褒賞", "max": 7}),
        ("counter.changed", {"seat": "s2", "key": "seals", "delta": -1, "reason": "使用"})])
    assert [(d["from"], d["to"], d.get("max")) for _, d in now] == [(3, 7, 7), (7, 6, None)]
