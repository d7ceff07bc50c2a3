"""Generic sessions: the GM's own counters may raise flags at a threshold, upwards or downwards."""

from __future__ import annotations

import pytest

from gmtool.core.commands import change_counter
from gmtool.core.errors import GmError
from gmtool.core.view import TABLE, build_view
from gmtool.rulesets import get as get_ruleset
from gmtool.setup import counters_for, custom_counter


def test_text_form_reads_flags_in_both_directions():
    hp = custom_counter("HP,10,0,20,瀕死<=3,全快>=20", 1)
    assert [(t.label.ja, t.at, t.below) for t in hp.thresholds] == [("瀕死", 3, True), ("全快", 20, False)]
    assert hp.thresholds[0].is_met(3) and not hp.thresholds[0].is_met(4)


@pytest.mark.parametrize("bad", ["HP,10,0,20,瀕死<3", "HP,10,0,20,>=3", "HP,10,0,20,瀕死>=x"])
def test_unreadable_flags_are_refused_in_both_languages(bad):
    with pytest.raises(GmError) as e:
        custom_counter(bad, 1)
    assert "フラグ" in e.value.ja and "flag" in e.value.en


def test_a_downward_flag_rises_and_falls_and_starts_raised_when_the_start_meets_it(manager):
    counters = counters_for(get_ruleset("generic"), ["HP,4,0,20,瀕死<=3", "疲労,5,0,,限界>=5"])
    live, _ = manager.create("閾値", "generic", [{"name": "A"}], counters)
    flags = lambda: [f["label"]["ja"] for f in build_view(live.state, TABLE)["seats"][0]["flags"]]  # noqa: E731
    assert flags() == ["限界"]  # 疲労 starts at 5: its flag stands from the start
    events = live.execute("gm", change_counter, "s1", "c1", delta=-1)
    assert [e.type for e in events] == ["counter.changed", "flag.raised"]
    assert set(flags()) == {"限界", "瀕死"}
    live.execute("gm", change_counter, "s1", "c1", value=10)
    assert flags() == ["限界"]


def test_the_flag_of_a_private_counter_is_as_private_as_the_counter(manager):
    from gmtool.core.view import GM, Viewer, visible_event
    counters = counters_for(get_ruleset("generic"), ["HP,10,0,20,瀕死<=3"], private=["c1"])
    live, _ = manager.create("秘密のHP", "generic", [{"name": "A"}, {"name": "B"}], counters)
    events = live.execute("gm", change_counter, "s1", "c1", value=2)
    for viewer, sees in ((GM, True), (Viewer("seat", "s1"), True), (TABLE, False), (Viewer("seat", "s2"), False)):
        flags = build_view(live.state, viewer)["seats"][0]["flags"]
        assert bool(flags) == sees, viewer
        assert (visible_event(events[1], live.state, viewer) is not None) == sees, viewer
