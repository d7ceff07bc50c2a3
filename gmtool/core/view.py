"""What one viewer may see: the single place where secrets are stripped (DESIGN principle 3).

Every page, fragment, API response and export is built from `build_view` or
`visible_events`, never from raw state. Rules:
- a private counter (its value, its log lines and its threshold flags) is seen by its own seat and the GM;
- a secret GM roll is seen by the GM only, until the GM reveals it;
- a prompt answer is seen by the respondent who gave it; by everyone after the reveal
  (only the final answer: one changed before the reveal stays the author's);
  by the GM before the reveal only when the GM is not a combatant (gm_submits false);
- a cancelled prompt's answers are never shown to anyone but their author;
- token changes, and the GM's summary of what an undo took back, are seen by the GM only.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Event, Prompt, RollRecord, State


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the GM, the public table screen, or one seat."""

    kind: str  # "gm" | "table" | "seat"
    seat: str | None = None

    @property
    def is_gm(self) -> bool:
        """The GM console."""
        return self.kind == "gm"

    @property
    def respondent(self) -> str | None:
        """The name this viewer answers prompts under ("gm" or a seat id)."""
        return "gm" if self.kind == "gm" else self.seat

    def to_dict(self) -> dict:
        """JSON form."""
        return {"kind": self.kind, "seat": self.seat}


TABLE = Viewer("table")
GM = Viewer("gm")


def can_see_answer(prompt: Prompt, viewer: Viewer, who: str) -> bool:
    """Whether `viewer` may see the answer `who` gave to `prompt`."""
    if viewer.respondent == who:
        return True
    if prompt.status == "revealed":
        return True
    if prompt.status == "cancelled":
        return False
    return viewer.is_gm and not prompt.gm_submits


def can_see_roll(state: State, viewer: Viewer, record: RollRecord) -> bool:
    """Whether `viewer` may see a roll."""
    return not record.secret or viewer.is_gm or record.seq in state.revealed_rolls


def can_see_counter(state: State, viewer: Viewer, seat_id: str, key: str) -> bool:
    """Whether `viewer` may see a seat's counter."""
    definition = state.counter_def(key)
    public = definition.public if definition else True
    return public or viewer.is_gm or viewer.seat == seat_id


def roll_view(record: RollRecord, state: State) -> dict:
    """A visible roll as a dict."""
    return {"seq": record.seq, "label": record.label, "by": record.actor,
            "revealed": record.seq in state.revealed_rolls, **record.roll}


def prompt_view(prompt: Prompt, state: State, viewer: Viewer) -> dict:
    """A prompt as `viewer` may see it."""
    me = viewer.respondent
    answers = {}
    for who, a in prompt.answers.items():
        if can_see_answer(prompt, viewer, who):
            answers[who] = {"value": a.value, "salt": a.salt, "commitment": a.commitment}
    view = {
        "id": prompt.id, "title": prompt.title, "kind": prompt.kind, "options": list(prompt.options),
        "option_names": {o: state.seat_name(o) for o in prompt.options} if prompt.kind == "seat" else {},
        "seats": list(prompt.seats), "gm_submits": prompt.gm_submits, "min": prompt.min, "max": prompt.max,
        "status": prompt.status, "revealed": prompt.status == "revealed", "reason": prompt.reason,
        "resolver": prompt.resolver,
        "respondents": prompt.respondents(),
        "answered": [who for who in prompt.respondents() if who in prompt.answers],
        "commitments": {who: a.commitment for who, a in prompt.answers.items()},
        "for_you": me in prompt.respondents(),
        "disabled": dict(prompt.per_seat.get(me, {})) if me else {},
        "your_answer": answers.get(me) if me else None,
        "answers": answers if (prompt.status == "revealed" or viewer.is_gm) else {},
        "resolution": prompt.resolution if prompt.status == "revealed" else None,
        "modifiers": list(prompt.modifiers) if prompt.status == "revealed" else [],
        "confirmed": prompt.confirmed,
        # A ruleset's own bookkeeping prompt (e.g. a committed true name): its panel shows it,
        # the generic prompt lists leave it out.
        "background": bool(prompt.meta.get("background")),
    }
    if not view["for_you"]:
        view["disabled"] = {}
    return view


def build_view(state: State, viewer: Viewer, version: int | None = None, ruleset=None) -> dict:
    """Everything `viewer` may see of the session, as JSON-able data (with the ruleset's part, if any)."""
    seats = []
    for seat in state.seats.values():
        counters = {k: v for k, v in state.counters.get(seat.id, {}).items()
                    if can_see_counter(state, viewer, seat.id, k)}
        flags = []
        for flag in state.flags.get(seat.id, []):
            owner = next(((d, t) for d in state.counter_defs for t in d.thresholds if t.flag == flag), None)
            if owner is not None and not can_see_counter(state, viewer, seat.id, owner[0].key):
                continue  # a private counter's flag would tell its value
            label = owner[1].label.to_dict() if owner else {"ja": flag, "en": flag}
            flags.append({"flag": flag, "label": label})
        seats.append({"id": seat.id, "name": seat.name, "faction": seat.faction, "counters": counters,
                      "flags": flags, "you": viewer.seat == seat.id})
    return {
        "session": {"id": state.session_id, "title": state.title, "ruleset": state.ruleset,
                    "closed": state.closed, "seed_hash": state.seed_hash, "seed": state.seed,
                    "created": state.created, "version": state.last_seq if version is None else version},
        "viewer": viewer.to_dict(),
        "counters": [{"key": d.key, "label": d.label.to_dict(), "min": d.min, "max": d.max, "public": d.public,
                      "start": d.start}
                     for d in state.counter_defs],
        "seats": seats,
        "rolls": [roll_view(r, state) for r in reversed(state.rolls) if can_see_roll(state, viewer, r)],
        "prompts": [prompt_view(p, state, viewer) for p in recent_prompts(state, viewer)],
        **({"ruleset": ruleset.view(state, viewer)} if ruleset is not None and ruleset.view else {}),
    }


RECENT_FINISHED = 10
SCAN_PROMPTS = 200


def recent_prompts(state: State, viewer: Viewer) -> list[Prompt]:
    """Newest first: every open or locked prompt and the last few finished ones (older ones by id).

    Only the newest SCAN_PROMPTS prompts are looked at, so a view costs the same in a long session.
    """
    out, finished = [], 0
    for i, prompt in enumerate(reversed(state.prompts.values())):
        if i >= SCAN_PROMPTS:
            break
        if prompt.status == "cancelled" and not viewer.is_gm:
            continue
        if prompt.status in ("open", "locked"):
            out.append(prompt)
        elif finished < RECENT_FINISHED:
            out.append(prompt)
            finished += 1
    return out


def visible_event(event: Event, state: State, viewer: Viewer) -> dict | None:
    """One log event as `viewer` may see it, or None if it is hidden from them."""
    d = event.data
    t = event.type
    if t == "seat.token_reissued" and not viewer.is_gm:
        return None
    if t == "dice.rolled" and d["roll"].get("secret") and not viewer.is_gm and event.seq not in state.revealed_rolls:
        return None
    if t in ("flag.raised", "flag.lowered") and d.get("counter") and not can_see_counter(
            state, viewer, d["seat"], d["counter"]):
        return None
    if t == "counter.changed" and not can_see_counter(state, viewer, d["seat"], d["key"]):
        return None
    if t == "undo" and not viewer.is_gm:
        # gm_summary may name secrets; an undo written before it existed keeps no safe summary.
        d = {k: v for k, v in d.items() if k != "gm_summary" and (k != "summary" or "gm_summary" in d)}
    if t == "prompt.answered":
        prompt = state.prompts.get(d["prompt"])
        final = prompt is not None and d["by"] in prompt.answers and prompt.answers[d["by"]].seq == event.seq
        # An answer changed before the reveal stays the author's: only the final one is revealed.
        if prompt is None or not can_see_answer(prompt, viewer, d["by"]) or (
                not final and viewer.respondent != d["by"]):
            d = {k: v for k, v in d.items() if k not in ("value", "salt")}
    out = event.to_dict()
    out["data"] = d
    out["undone"] = event.action in state.undone
    return out
