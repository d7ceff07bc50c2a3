"""Every action a screen or the API can take, with its permission check: one way to do a thing.

Each operation takes the live session, the viewer and the request's payload (form or JSON)
and returns a JSON-able result. Pages and the API both call these.
"""

from __future__ import annotations

import secrets
from typing import Any

from .core import commands, prompts
from .core.dice import dice_for, is_entered, parse
from .core.errors import Forbidden, GmError
from .core.events import DICE_READING
from .core.ruleset import ActionContext, reading_value, readings_view
from .core.view import Viewer, answers_hidden, prompt_view, roll_view
from .limits import MAX_TEXT
from .runtime import LiveSession


def require_gm(viewer: Viewer) -> None:
    """Only the GM may do this."""
    if not viewer.is_gm:
        raise Forbidden("GMだけができる操作です", "Only the GM can do this")


def actor_of(viewer: Viewer) -> str:
    """The log's name for a viewer."""
    return "gm" if viewer.is_gm else f"seat:{viewer.seat}"




def change_counter(live: LiveSession, viewer: Viewer, p: dict) -> dict:
    """GM: change a seat's counter by `delta` or to `value`."""
    require_gm(viewer)
    delta = p.get("delta") if p.get("delta") not in (None, "") else None
    value = p.get("value") if p.get("value") not in (None, "") else None
    live.execute("gm", commands.change_counter, p.get("seat"), p.get("key"), delta=delta, value=value,
                 reason=p.get("reason", ""))
    # the seat and counter as the command read them (" s1 " names s1: str() of the request's was a KeyError, a 500)
    seat = commands.seat_of(live.state, p.get("seat")).id
    key = commands.counter_definition(live.state, p.get("key")).key
    return {"seat": seat, "key": key, "value": live.state.counters[seat][key],
            "flags": list(live.state.flags.get(seat, []))}


def session_dice(live: LiveSession, p: dict):
    """The dice of one request: entered faces (`faces`), the server's (`"dice": "server"`), or the
    session's dice reading."""
    return dice_for(reading_value(live.state, DICE_READING), live.dice(), p)


def roll(live: LiveSession, viewer: Viewer, p: dict) -> dict:
    """GM or a seat: roll dice on the server, or record the faces of real dice (a seat may not roll secretly)."""
    # no length of its own: the dice parser refuses an expression over 200 characters in its words (docs/api.md,
    # Limits: `Expression too long (max 200): '<expr>'`)
    expr = commands.clean_text(p.get("expr"), "ダイス式", "dice expression", limit=MAX_TEXT, required=False)
    if not viewer.is_gm and viewer.kind != "seat":
        raise Forbidden("テーブル画面からはダイスを振れません", "The table screen cannot roll")
    if parse(expr).secret and not viewer.is_gm:
        raise Forbidden("秘密ロール（S）はGMだけが使えます", "Only the GM can make secret (S) rolls")
    with live.lock:
        if viewer.kind == "seat":  # a refused roll costs nothing
            live.roll_allowance(viewer.seat)
        events = live.execute(actor_of(viewer), commands.roll, expr, p.get("label", ""), session_dice(live, p))
        if viewer.kind == "seat":
            live.spend_roll(viewer.seat)
    record = next(r for r in reversed(live.state.rolls) if r.seq == events[0].seq)
    return roll_view(record, live.state)


def reveal_roll(live: LiveSession, viewer: Viewer, seq: Any) -> dict:
    """GM: make a secret roll public."""
    require_gm(viewer)
    live.execute("gm", commands.reveal_roll, seq)
    return {"revealed": int(seq)}


def undo(live: LiveSession, viewer: Viewer) -> dict:
    """GM: undo the latest undoable action."""
    require_gm(viewer)
    events = live.undo("gm")
    return {"undone": events[0].data}


def add_seat(live: LiveSession, viewer: Viewer, p: dict) -> dict:
    """GM: add a seat; returns its id and join token."""
    require_gm(viewer)
    seat_id, token = live.add_seat(p.get("name"), p.get("faction", ""))
    return {"id": seat_id, "name": live.state.seats[seat_id].name, "token": token}


def reissue(live: LiveSession, viewer: Viewer, seat_id: str) -> dict:
    """GM: a new join token for a seat; the old one stops working."""
    require_gm(viewer)
    return {"id": seat_id, "token": live.reissue_token(seat_id)}


def mark_scene(live: LiveSession, viewer: Viewer, p: dict) -> dict:
    """GM: start a new scene (a heading in the log and exports)."""
    require_gm(viewer)
    events = live.execute("gm", commands.mark_scene, p.get("title"))
    return {"scene": events[0].seq, "title": events[0].data["title"]}


def close(live: LiveSession, viewer: Viewer) -> dict:
    """GM: close the session and publish the dice seed."""
    require_gm(viewer)
    live.execute("gm", commands.close_session, live.seed.hex())
    return {"closed": True, "seed": live.seed.hex(), "seed_hash": live.state.seed_hash}


def set_reading(live: LiveSession, viewer: Viewer, p: dict) -> dict:
    """GM: switch one of the session's readings; returns every reading with its value."""
    require_gm(viewer)
    live.execute("gm", commands.set_reading, p.get("key"), p.get("value"))
    return {"readings": readings_view(live.ruleset, live.state)}


def set_setting(live: LiveSession, viewer: Viewer, p: dict) -> dict:
    """GM: switch one of the GM console's session settings (e.g. hide_answers), kept in the session's log."""
    require_gm(viewer)
    live.execute("gm", commands.set_setting, p.get("key"), p.get("value"))
    return {"hide_answers": answers_hidden(live.state)}


def ruleset_action(live: LiveSession, viewer: Viewer, name: str, payload: dict) -> dict:
    """Run one of the session's ruleset actions (docs/rulesets/); returns the new ruleset view."""
    if not (viewer.is_gm or viewer.kind == "seat"):
        raise Forbidden("テーブル画面からは操作できません", "The table screen cannot act")
    action = live.ruleset.actions.get(name)
    if action is None:
        raise GmError(f"このルールに操作「{name}」はありません", f"This ruleset has no action '{name}'", status=404)
    if action.who == "gm":
        require_gm(viewer)
    payload = payload if isinstance(payload, dict) else {}
    with live.lock:
        commands.require_open(live.state)  # 409 before any field of the step is read (docs/api.md 14b: the order)
        ctx = ActionContext(actor=actor_of(viewer), viewer=viewer, dice=session_dice(live, payload),
                            salt=lambda: secrets.token_hex(16), resolvers=live.ruleset.all_resolvers())
        events = live.execute(ctx.actor, _checked(action.fn), payload, ctx)
        view = live.ruleset.view(live.state, viewer) if live.ruleset.view else {}
    return {"action": name, "events": [{"seq": e.seq, "type": e.type} for e in events], "ruleset": view}


def _checked(fn):
    """An action whose entered dice faces must all be used (a typo would otherwise pass unnoticed)."""
    def run(state, payload, ctx):
        drafts = fn(state, payload, ctx)
        if is_entered(ctx.dice):
            ctx.dice.check_all_used()
        return drafts
    return run


def open_prompt(live: LiveSession, viewer: Viewer, spec: dict) -> dict:
    """GM: open a secret prompt."""
    require_gm(viewer)
    with live.lock:
        prompt_id = f"p{len(live.state.prompts) + 1}"
        live.execute("gm", prompts.open_prompt, prompt_id, spec, live.ruleset.all_resolvers())
        return prompt_view(live.state.prompts[prompt_id], live.state, viewer)


def answer(live: LiveSession, viewer: Viewer, prompt_id: str, p: dict) -> dict:
    """A seat (or the GM when it submits): a secret answer; returns its commitment."""
    who = viewer.respondent
    if who is None:
        raise Forbidden("テーブル画面からは回答できません", "The table screen cannot answer")
    if "value" not in p:
        raise GmError("回答がありません", "The answer ('value') is missing")
    with live.lock:
        if viewer.kind == "seat":  # a refused answer costs nothing; the GM is not limited
            live.answer_allowance(viewer.seat)
        live.execute(actor_of(viewer), prompts.answer, prompt_id, who, p["value"], secrets.token_hex(16),
                     live.ruleset.all_resolvers(), live.dice())
        if viewer.kind == "seat":
            live.spend_answer(viewer.seat)
        prompt = live.state.prompts[str(prompt_id)]
        mine = prompt.answers[who]
        return {"prompt": prompt.id, "commitment": mine.commitment, "status": prompt.status,
                "value": mine.value, "salt": mine.salt, "at": mine.at}


def prompt_action(live: LiveSession, viewer: Viewer, prompt_id: str, op: str, p: dict) -> dict:
    """GM: lock, reveal, extend, cancel, modifier or confirm a prompt."""
    require_gm(viewer)
    reason = p.get("reason", "")
    with live.lock:
        resolvers = live.ruleset.all_resolvers()
        if op == "lock":
            live.execute("gm", prompts.lock, prompt_id, reason)
        elif op == "reveal":
            live.execute("gm", prompts.reveal, prompt_id, reason, resolvers, live.dice())
        elif op == "extend":
            seats = p.get("seats")
            live.execute("gm", prompts.extend, prompt_id, [seats] if isinstance(seats, str) else seats, reason)
        elif op == "cancel":
            live.execute("gm", prompts.cancel, prompt_id, reason)
        elif op == "modifiers":
            live.execute("gm", prompts.add_modifier, prompt_id, p.get("who"), p.get("amount"), p.get("label"),
                         resolvers, live.dice())
        elif op == "confirm":
            live.execute("gm", prompts.confirm, prompt_id)
        else:
            raise GmError(f"操作「{op}」はありません", f"Unknown operation '{op}'", status=404)
        return prompt_view(live.state.prompts[str(prompt_id)], live.state, viewer)
