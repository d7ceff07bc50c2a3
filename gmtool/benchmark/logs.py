"""Long sessions for the growth benchmark, written straight into a session file."""

from __future__ import annotations

import secrets
from pathlib import Path

from ..core import commands, prompts
from ..core.dice import SeededDice, seed_hash
from ..core.engine import apply
from ..core.model import Event, State
from ..core.resolvers import BUILTIN
from ..rulesets import get as get_ruleset
from ..rulesets.generic import PRESETS
from ..runtime import new_token, token_hash
from ..store import SUFFIX, Store, now_iso


def write_session(data: Path, n_events: int) -> tuple[str, str]:
    """A generic session with about `n_events` realistic events; returns (session id, GM token)."""
    data = Path(data)
    data.mkdir(parents=True, exist_ok=True)
    sid = f"bench{n_events}-{secrets.token_hex(2)}"
    seed = secrets.token_bytes(32)
    gm = new_token()
    state = State(rules=get_ruleset("generic"))
    events: list[Event] = []
    ts = now_iso()

    def emit(actor: str, drafts: list) -> None:
        action = state.last_action + 1
        for event_type, payload in drafts:
            event = Event(state.last_seq + 1, ts, actor, action, event_type, payload)
            apply(state, event)
            events.append(event)

    seats = [commands.new_seat(f"s{i}", f"P{i}") for i in (1, 2, 3, 4)]
    counters = [c for c in PRESETS if c.key in ("seals", "vp", "karma")]
    emit("gm", commands.create_session(sid, f"{n_events} events", "generic", seats, counters, seed_hash(seed)))
    i = 0
    while len(events) < n_events:
        step = i % 4
        if step == 0:
            emit("gm", commands.change_counter(state, "s1", "vp", delta=1 if (i // 4) % 2 == 0 else -1, reason="bench"))
        elif step == 1:
            emit("gm", commands.roll(state, "2D6+1", "bench", SeededDice(seed, state.dice_next)))
        elif step == 2:
            pid = f"p{len(state.prompts) + 1}"
            emit("gm", prompts.open_prompt(state, pid, {"title": "bench", "kind": "number", "seats": ["s1", "s2"],
                                                          "resolver": "highest"}, BUILTIN))
        else:
            pid = f"p{len(state.prompts)}"
            dice = SeededDice(seed, state.dice_next)
            emit("seat:s1", prompts.answer(state, pid, "s1", i, secrets.token_hex(16), BUILTIN, dice))
            emit("seat:s2", prompts.answer(state, pid, "s2", i + 1, secrets.token_hex(16), BUILTIN, dice))
        i += 1
    table = new_token()
    store = Store(data / f"{sid}{SUFFIX}")
    try:
        store.import_events(events, {"id": sid, "title": state.title, "ruleset": "generic", "created": ts},
                            {"seed": seed.hex(), "gm": token_hash(gm), "table": token_hash(table),
                             "table_token": table})
    finally:
        store.close()
    return sid, gm
