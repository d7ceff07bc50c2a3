"""Counters: delta / value, bounds with readable ja+en errors, threshold flags up and down."""

from __future__ import annotations

import pytest

from gmtool.core import commands
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
    assert "Command Seals" in error.en and "within 0..∞" in error.en
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
