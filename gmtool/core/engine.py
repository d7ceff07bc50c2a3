"""Folding events into state: the only code that changes a State.

Every handler is registered by event type; rulesets register theirs the same way.
An action (one request) may write several events; undo names the action, and every
event of an undone action is skipped by the fold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .model import CounterDef, Event, RollRecord, Seat, State

Handler = Callable[[State, Event], None]
HANDLERS: dict[str, Handler] = {}
RECENT_ROLLS = 50


def handles(event_type: str) -> Callable[[Handler], Handler]:
    """Register the fold handler of one event type."""

    def register(fn: Handler) -> Handler:
        if event_type in HANDLERS:
            raise ValueError(f"duplicate handler for {event_type}")
        HANDLERS[event_type] = fn
        return fn

    return register


def apply(state: State, event: Event) -> State:
    """Apply one event to `state` in place and return it."""
    dice_next = event.data.get("dice_next")
    if dice_next is not None:  # dice stay drawn even when their action is undone
        state.dice_next = max(state.dice_next, int(dice_next))
    state.last_seq = event.seq
    state.last_action = max(state.last_action, event.action)
    if event.action in state.undone:
        return state
    handler = HANDLERS.get(event.type)
    if handler is None:
        raise ValueError(f"unknown event type {event.type!r}")
    handler(state, event)
    return state


def fold(events: Iterable[Event], undone: Iterable[int] = (), state: State | None = None) -> State:
    """The state after `events`, skipping the actions in `undone`."""
    state = state or State()
    state.undone.update(undone)
    for event in events:
        apply(state, event)
    return state


def _init_counters(state: State, seat_id: str) -> None:
    state.counters[seat_id] = {d.key: d.start for d in state.counter_defs}
    state.flags[seat_id] = [t.flag for d in state.counter_defs for t in d.thresholds if t.is_met(d.start)]


@handles("session.created")
def _session_created(state: State, e: Event) -> None:
    d = e.data
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


@handles("seat.added")
def _seat_added(state: State, e: Event) -> None:
    d = e.data
    state.seats[d["id"]] = Seat(d["id"], d["name"], d.get("faction", ""))
    _init_counters(state, d["id"])


@handles("seat.updated")
def _seat_updated(state: State, e: Event) -> None:
    seat = state.seats[e.data["id"]]
    seat.name = e.data["name"]
    seat.faction = e.data.get("faction", seat.faction)


@handles("seat.token_reissued")
def _token_reissued(state: State, e: Event) -> None:
    """Tokens live outside the state (store secrets); the event is for the log."""


@handles("counter.changed")
def _counter_changed(state: State, e: Event) -> None:
    d = e.data
    definition = state.counter_def(d["key"])
    values = state.counters[d["seat"]]
    value = values.get(d["key"], 0) + int(d["delta"])
    values[d["key"]] = definition.clamp(value) if definition else value


@handles("flag.raised")
def _flag_raised(state: State, e: Event) -> None:
    flags = state.flags.setdefault(e.data["seat"], [])
    if e.data["flag"] not in flags:
        flags.append(e.data["flag"])


@handles("flag.lowered")
def _flag_lowered(state: State, e: Event) -> None:
    flags = state.flags.setdefault(e.data["seat"], [])
    if e.data["flag"] in flags:
        flags.remove(e.data["flag"])


@handles("dice.rolled")
def _dice_rolled(state: State, e: Event) -> None:
    d = e.data
    state.rolls.append(RollRecord(e.seq, e.action, e.actor, d.get("label", ""), d["roll"], bool(d["roll"].get("secret"))))
    if d["roll"].get("secret"):
        state.secret_rolls.add(e.seq)
    del state.rolls[:-RECENT_ROLLS]


@handles("dice.revealed")
def _dice_revealed(state: State, e: Event) -> None:
    state.revealed_rolls.add(int(e.data["roll_seq"]))


@handles("scene.marked")
def _scene(state: State, e: Event) -> None:
    state.scenes.append({"seq": e.seq, "title": e.data["title"]})


@handles("undo")
def _undo(state: State, e: Event) -> None:
    state.undone.add(int(e.data["action"]))


@handles("session.imported")
def _imported(state: State, e: Event) -> None:
    """A public export loaded elsewhere: rolls from here on come from a new seed."""
    state.seed_hash = e.data["seed_hash"]


@handles("session.closed")
def _closed(state: State, e: Event) -> None:
    state.closed = True
    state.seed = e.data["seed"]
