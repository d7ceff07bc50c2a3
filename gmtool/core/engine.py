"""Folding events into state: the only code that changes a State.

The fold of each event type is declared with the type (core/events.py for core's, the
session's ruleset for its own), so the engine finds it through the session's ruleset.
An action (one request) may write several events; undo names the action, and every
event of an undone action is skipped by the fold.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from typing import Any

from .model import CounterDef, Event, RollRecord, Seat, State

RECENT_ROLLS = 50
KEY = re.compile(r"[A-Za-z0-9_-]{1,24}")  # a seat id or counter key as gmtool writes them


def is_key(value: Any) -> bool:
    """A seat id or counter key as gmtool writes them: text of 1 to 24 letters, digits, _ or - (not true or -5, whose
    text would pass, nor "a/b": no request could name it)."""
    return isinstance(value, str) and KEY.fullmatch(value) is not None


def apply(state: State, event: Event, rules: Any = None) -> State:
    """Apply one event to `state` in place and return it.

    `rules` is the session's Ruleset; it is needed for the first event and kept in the state.
    """
    if state.rules is None:
        if rules is None:
            raise ValueError("the first event of a state needs the session's ruleset")
        state.rules = rules
    rules = state.rules  # (a resume applies every event of the log: each lookup here counts)
    event = rules.upcast(event)
    dice_next = event.data.get("dice_next")
    if dice_next is not None:  # dice stay drawn even when their action is undone
        state.dice_next = max(state.dice_next, int(dice_next))
    state.last_seq = event.seq
    action = event.action
    if action > state.last_action:
        state.last_action = action
        state.action_seq = event.seq
    if action in state.undone:
        return state
    declared = rules.event_type(event.type)
    if declared is None:
        raise ValueError(f"unknown event type {event.type!r}")
    declared.fold(state, event)
    # a game's own roll: the screens list it with core's (view.screen_rolls); an event of such a type that rolled
    # nothing (a setup whose first player the GM picked, a combat choice that is no die) is not kept in their window
    if declared.rolls is not None and declared.rolls(event.data, state):
        state.game_rolls.append(event)
        del state.game_rolls[:-RECENT_ROLLS]
    return state


def fold(events: Iterable[Event], rules: Any, undone: Iterable[int] = ()) -> State:
    """The state after `events` under the session's ruleset, skipping the actions in `undone`."""
    state = State(rules=rules)
    state.undone.update(undone)
    return fold_on(state, events)


def fold_on(state: State, events: Iterable[Event]) -> State:
    """Apply `events` to `state` in place (a state folded further) and return it."""
    for event in events:
        apply(state, event)
    return state


class Plan:
    """The drafts of one action, each folded as it is added into a private copy of the state (`sim`), so that each
    step of the action reads what the steps before it left (a ruleset's action that is several core commands in a row).
    State.copy, not a deep copy: the prompts are shared and copied only when a draft's fold changes one."""

    def __init__(self, state: State):
        self.before, self.sim = state, state.copy()
        self.drafts: list[tuple[str, dict]] = []

    def add(self, event_type: str, data: dict) -> None:
        """Add one draft and fold it into the copy (a copy of its data: the draft itself stays as written)."""
        self.drafts.append((event_type, data))
        apply(self.sim, Event(self.sim.last_seq + 1, "", "plan", self.before.last_action + 1, event_type,
                              copy.deepcopy(data)))

    def extend(self, drafts: Iterable[tuple[str, dict]]) -> None:
        """Add drafts one after another (what a core command returns)."""
        for event_type, data in drafts:
            self.add(event_type, data)


def _init_counters(state: State, seat_id: str) -> None:
    state.counters[seat_id] = {d.key: d.start for d in state.counter_defs}
    state.flags[seat_id] = [t.flag for d in state.counter_defs for t in d.thresholds if t.is_met(d.start)]


def session_created(state: State, e: Event) -> None:
    """Fold `session.created`."""
    d = e.data
    if d["ruleset"] != state.rules.name:
        raise ValueError(f"a {d['ruleset']} session folded under the {state.rules.name} ruleset")
    state.session_id = d["id"]
    state.title = d["title"]
    state.ruleset = d["ruleset"]
    state.created = e.ts
    state.seed_hash = d["seed_hash"]
    state.counter_defs = [CounterDef.from_dict(c) for c in d.get("counters", [])]
    state.extra = dict(d.get("extra", {}))
    for s in d.get("seats", []):
        state.seats[s["id"]] = Seat(s["id"], s["name"], s.get("faction", ""))
        _init_counters(state, s["id"])


def seat_added(state: State, e: Event) -> None:
    """Fold `seat.added` (an id gmtool does not write, or one already seated, is refused: no request could name that
    seat, or it would replace another; only a crafted import holds one)."""
    d = e.data
    if not is_key(d["id"]) or d["id"] in state.seats:
        raise ValueError("a seat id is 1 to 24 letters, digits, _ or -, and new")
    state.seats[d["id"]] = Seat(d["id"], d["name"], d.get("faction", ""))
    _init_counters(state, d["id"])


def seat_token_reissued(state: State, e: Event) -> None:
    """Tokens live outside the state (store secrets); the event is for the log."""


def counter_changed(state: State, e: Event) -> None:
    """Fold `counter.changed` (a key the session does not define is refused: no definition says who may see that
    value, so the file is damaged, not shown; only a hand-edited or foreign file holds one)."""
    d = e.data
    if state.counter_def(d["key"]) is None:
        raise ValueError("a counter.changed names a counter the session does not define")
    if d.get("max") is not None:  # the GM raised this seat's upper bound (with a reason), or a ruleset's start did
        state.counter_max.setdefault(d["seat"], {})[d["key"]] = int(d["max"])
    values = state.counters[d["seat"]]
    value = values.get(d["key"], 0) + int(d["delta"])
    lo, hi = state.bounds(d["seat"], d["key"])
    values[d["key"]] = clamp(value, lo, hi)


def clamp(value: int, lo: int | None, hi: int | None) -> int:
    """`value` moved into the bounds (None: unbounded on that side)."""
    if lo is not None:
        value = max(lo, value)
    if hi is not None:
        value = min(hi, value)
    return value


def setting_set(state: State, e: Event) -> None:
    """Fold `setting.set`: one of the GM's session settings (e.g. hide_answers)."""
    state.settings[e.data["key"]] = e.data["value"]


def flag_raised(state: State, e: Event) -> None:
    """Fold `flag.raised`."""
    flags = state.flags.setdefault(e.data["seat"], [])
    if e.data["flag"] not in flags:
        flags.append(e.data["flag"])


def flag_lowered(state: State, e: Event) -> None:
    """Fold `flag.lowered`."""
    flags = state.flags.setdefault(e.data["seat"], [])
    if e.data["flag"] in flags:
        flags.remove(e.data["flag"])


def dice_rolled(state: State, e: Event) -> None:
    """Fold `dice.rolled`."""
    d = e.data
    record = RollRecord(e.seq, e.action, e.actor, d.get("label", ""), d["roll"], bool(d["roll"].get("secret")))
    state.rolls.append(record)
    if record.secret:
        state.secret_rolls[e.seq] = record
    del state.rolls[:-RECENT_ROLLS]


def dice_revealed(state: State, e: Event) -> None:
    """Fold `dice.revealed`."""
    state.revealed_rolls.add(int(e.data["roll_seq"]))


def scene_marked(state: State, e: Event) -> None:
    """Fold `scene.marked`: `from`, where the scene begins on the screens (web.scene_start), is where the mark's action
    began, so that a roll made in it before the mark (a round's order rolled as it starts) is of the new scene; with
    `from_mark` (a ruleset's: a round that its action ended, e.g. with a roll that puts the current player out) the
    mark itself, so that what the action did before it stays in the scene before."""
    at_mark = e.data.get("from_mark", False)
    if not isinstance(at_mark, bool):  # (only a crafted import holds one that is not)
        raise ValueError("a scene mark's from_mark is true or false")
    start = e.seq if at_mark else min(state.action_seq or e.seq, e.seq)
    state.scenes.append({"seq": e.seq, "title": e.data["title"], "from": start})


def undone(state: State, e: Event) -> None:
    """Fold `undo`."""
    state.undone.add(int(e.data["action"]))


def session_imported(state: State, e: Event) -> None:
    """A public export loaded elsewhere: rolls from here on come from a new seed."""
    state.seed_hash = e.data["seed_hash"]


CLOSED_REASON = {"ja": "セッション終了", "en": "Session closed"}


def session_closed(state: State, e: Event) -> None:
    """Fold `session.closed`: a prompt still open or locked is closed with it, unrevealed (status "closed": its
    answers stay their authors', as a cancelled prompt's; view.can_see_answer)."""
    state.closed = True
    state.seed = e.data["seed"]
    for prompt_id, prompt in list(state.prompts.items()):
        if prompt.status in ("open", "locked"):
            prompt = state.writable_prompt(prompt_id)
            prompt.status = "closed"
            prompt.reason = CLOSED_REASON


def reading_set(state: State, e: Event) -> None:
    """Fold `reading.set`."""
    state.readings[e.data["key"]] = e.data["value"]
