"""Campaigns: a session continued from the previous one (pure: states in, drafts out).

The next session of a campaign starts with the same seats (ids, names, factions), counters and
readings; the counters' values and whatever else carries are decided by the session's ruleset
(`Ruleset.carry_over`, a `Carry`); a ruleset that declares none carries every counter's value.
Core writes what carries as ordinary events after `session.created`: `campaign.continued` (the
previous session), counter changes with their flags, readings switched, then the ruleset's own
events. The previous session gets `campaign.next`. Both sessions' logs and exports name the other.
"""

from __future__ import annotations

from .commands import CounterRun, Draft
from .errors import GmError
from .model import State
from .ruleset import Carry

RULE = "campaign"


def carry_of(previous: State) -> Carry:
    """What carries from `previous` into the next session: its ruleset's declaration, or every counter."""
    rules = previous.rules
    if rules.carry_over is not None:
        return rules.carry_over(previous)
    return Carry(counters={seat: dict(values) for seat, values in previous.counters.items()})


def campaign_of(state: State) -> dict:
    """The session's place in its campaign: {"id", "previous", "next"} (previous / next: {"id", "title"} or None)."""
    info = state.campaign
    return {"id": info.get("id") or state.session_id, "previous": info.get("previous"), "next": info.get("next")}


def continue_drafts(previous: State, fresh: State) -> list[Draft]:
    """The events that start `fresh` (just created with `previous`'s seats and counters) where `previous` ended."""
    carry = carry_of(previous)
    declared = {e.name for e in fresh.rules.events}
    for event_type, _ in carry.events:
        if event_type not in declared:
            raise GmError(f"引き継ぎのイベント「{event_type}」はこのルールにありません",
                          f"The carried event type '{event_type}' is not declared by this ruleset")
    run = CounterRun(fresh)
    run.emit("campaign.continued", {
        "campaign": campaign_of(previous)["id"], "previous": {"id": previous.session_id, "title": previous.title},
        "rule": RULE})
    reason = {"ja": f"前回（{previous.title}）から引き継ぎ", "en": f"carried over from '{previous.title}'"}
    for seat, counters in carry.counters.items():
        for key, value in counters.items():
            if seat not in fresh.seats or fresh.counter_def(key) is None or run.value(seat, key) == value:
                continue
            hi = fresh.bounds(seat, key)[1]
            bound = value if hi is not None and value > hi else None  # a bound raised last time stays raised
            run.set(seat, key, value, reason, RULE, bound)
    for key, value in previous.readings.items():
        reading = fresh.rules.reading(key)
        if reading is not None and reading.choice(value) is not None:
            run.emit("reading.set", {"key": key, "value": value, "rule": reading.rule})
    for event_type, data in carry.events:
        run.emit(event_type, dict(data))
    return run.drafts


def next_draft(previous: State, following_id: str, following_title: str) -> Draft:
    """The event the previous session gets: the session that continues it."""
    return ("campaign.next", {"next": {"id": following_id, "title": following_title}, "rule": RULE})


def campaign_continued(state: State, e) -> None:
    """Fold: the session continues a campaign."""
    state.campaign.update(id=e.data["campaign"], previous=dict(e.data["previous"]))


def campaign_next(state: State, e) -> None:
    """Fold: the session is continued by the next one."""
    state.campaign["next"] = dict(e.data["next"])
