"""What one viewer may see: the single place where secrets are stripped (DESIGN principle 3).

Every page, fragment, API response and export is built from `build_view` or
`visible_events`, never from raw state. Rules:
- a private counter (its value, its log lines and its threshold flags) is seen by its own seat and the GM;
- a secret GM roll is seen by the GM only, until the GM reveals it;
- a prompt answer is seen by the respondent who gave it; by everyone after the reveal
  (only the final answer: one changed before the reveal stays the author's);
  by the GM before the reveal only when the GM is not a combatant (gm_submits false);
- a cancelled prompt's answers are never shown to anyone but their author, nor are those of a prompt the
  session's close found unrevealed (status "closed");
- token changes, and the GM's summary of what an undo took back, are seen by the GM only;
- every other event as its type declares (core/events.py, a ruleset's `events`); an event of a
  type the session's rules do not declare is seen by the GM only;
- an undone event (its action taken back by an undo) is seen by everyone but the GM as its type's
  `undone_visibility` says, in the state after the undo: by the GM alone unless declared, since an undone
  reveal's contents are secret again (the undo's table summary is made the same way, runtime.undo);
- an undo's summary is, for everyone but the GM, the undone events as the reader may see them when the log is read
  (undo_summary): what it named and a later undo hid again is hidden in it too.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import merge
from itertools import islice

from .commands import counter_drafts_now
from .logtext import scene_title
from .prompts import void
from .model import GM, TABLE, Event, Prompt, RollRecord, State, Viewer  # noqa: F401  (the viewers are used from here)
from .ruleset import readings_view


def can_see_answer(prompt: Prompt, viewer: Viewer, who: str) -> bool:
    """Whether `viewer` may see the answer `who` gave to `prompt`: its own, except the GM's on a console that hides
    answers until the reveal (a game the GM plays in: a laptop the players can see gives the GM's choice away too)."""
    if viewer.respondent == who and not viewer.hide_answers:
        return True
    if prompt.status == "revealed" or prompt.was_revealed:
        return True
    if prompt.status in ("cancelled", "closed"):  # closed: unrevealed when the session was closed
        return False
    return viewer.is_gm and not prompt.gm_submits and not viewer.hide_answers


def answers_hidden(state: State) -> bool:
    """Whether the GM console hides answers until the reveal: the GM's setting, else the ruleset's default
    (on while the GM is a combatant, `Ruleset.gm_combatant`)."""
    if "hide_answers" in state.settings:
        return bool(state.settings["hide_answers"])
    combatant = getattr(state.rules, "gm_combatant", None)
    return bool(combatant(state)) if combatant is not None else False


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
    respondents = prompt.respondents()
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
        "respondents": respondents,
        "answered": [who for who in respondents if who in prompt.answers],
        "commitments": {who: a.commitment for who, a in prompt.answers.items()},
        "for_you": me in respondents,
        "disabled": dict(prompt.per_seat.get(me, {})) if me else {},
        "your_answer": {**answers[me], "at": prompt.answers[me].at} if me in answers else None,  # with when it was sent
        "answers": answers if (prompt.status == "revealed" or viewer.is_gm) else {},
        "resolution": pending_view(prompt, state, viewer) if prompt.status == "revealed" else None,
        "modifiers": list(prompt.modifiers) if prompt.status == "revealed" else [],
        "confirmed": prompt.confirmed,
        # A ruleset's own bookkeeping prompt (e.g. a committed true name): its panel shows it,
        # the generic prompt lists leave it out.
        "background": bool(prompt.meta.get("background")),
        # a ruleset's line to whoever answers it, above the answer form (e.g. "the tie is yours to break")
        "note": _note(prompt.meta.get("note")) if me in respondents else None,
    }
    if not view["for_you"]:
        view["disabled"] = {}
    if viewer.is_gm:  # the GM's alone: it tells whose answer named what has left the game (prompt.option_disabled)
        view["void"] = void_answers(prompt, viewer)
    if viewer.hide_answers and me in prompt.answers and me not in answers:
        # the console hiding answers (a game the GM plays in): the GM's own answer, for the GM to open on demand (a closed
        # disclosure, so that a laptop the players can see does not show it); no other screen's viewer hides answers
        view["own_answer"] = {"value": prompt.answers[me].value, "at": prompt.answers[me].at}
    return view


def _note(note) -> dict | None:
    """A prompt's `meta.note` as the screens read it: {"ja", "en"} texts (open_prompt checks them; a crafted import may
    hold anything there: then none)."""
    if isinstance(note, dict) and set(note) == {"ja", "en"} and all(isinstance(v, str) for v in note.values()):
        return dict(note)
    return None


def void_answers(prompt: Prompt, viewer: Viewer) -> list[str]:
    """The respondents of an unrevealed prompt whose answer counts no more (core's `void`: it names an option disabled
    since) and who must answer again, as far as `viewer` may see their answers (the GM's view: not on a console that
    hides answers, nor as a combatant, `can_see_answer`)."""
    if prompt.status not in ("open", "locked"):
        return []
    return [who for who in prompt.respondents() if void(prompt, who) and can_see_answer(prompt, viewer, who)]


def game_roll_views(state: State, viewer: Viewer):
    """The rolls a game's own events made (EventType.rolls), newest event first, as `viewer` may see each event (its type's
    visibility: a hidden event shows none of its rolls, a redacted one only what is left of it)."""
    for event in reversed(state.game_rolls):
        declared = state.rules.event_type(event.type)
        data = declared.visibility.apply(event, state, viewer)
        if data is None:
            continue
        for roll in declared.rolls(data, state):  # one event's rolls in the order rolled (they came together)
            yield {"seq": event.seq, "action": event.action, "event": event.type, "label": roll.get("label") or "",
                   "by": event.actor if "by" not in roll else f"seat:{roll['by']}" if roll["by"] else "", "revealed": False, "secret": False,
                   "text": roll.get("text", ""), "total": roll.get("total"), "choice": None,
                   "success": roll.get("success"), "entered": bool(roll.get("entered"))}


def screen_rolls(state: State, viewer: Viewer, limit: int | None):
    """Every roll `viewer` may see, newest first, up to `limit`: core's (dice.rolled) and the game's own
    (game_roll_views), as the screens' roll lists show them."""
    core = (roll_view(r, state) for r in reversed(state.rolls) if can_see_roll(state, viewer, r))
    return list(islice(merge(core, game_roll_views(state, viewer), key=lambda r: -r["seq"]), limit))


def build_view(state: State, viewer: Viewer, version: int | None = None, rolls: int | None = None,
               finished: int | None = None, game_rolls: bool = False) -> dict:
    """Everything `viewer` may see of the session, as JSON-able data (with the ruleset's part, if any).

    `rolls` keeps only that many of the newest rolls (visible and secret each), `finished` that many
    of the newest finished prompts (RECENT_FINISHED when not given): the screens show a few, so their
    view costs the same however long the session has run; the API's view has every roll. With `game_rolls` (the
    screens' view) the rolls are the game's own too (screen_rolls) and the scene says where its action began
    (`from`: a roll made with the mark, e.g. a round's order rolled as it starts, is of the new scene); the API's
    view lists dice.rolled only (the game's rolls are in its log) and its scene is {seq, title}."""
    rules = state.rules
    # can_see_counter for every seat at once: a seat sees its own counters, the GM all, the others the public ones
    private = {d.key for d in state.counter_defs if not d.public}
    owners: dict[str, tuple] = {}  # a threshold flag -> (its counter's definition, the threshold): the first declared
    for d in reversed(state.counter_defs):
        for t in reversed(d.thresholds):
            owners[t.flag] = (d, t)
    raised = rules.seat_flags(state) if rules is not None and rules.seat_flags is not None else {}  # public
    seats = []
    for seat in state.seats.values():
        sees_all = viewer.is_gm or viewer.seat == seat.id
        own = state.counters.get(seat.id, {})
        counters = dict(own) if sees_all or not private else {k: v for k, v in own.items() if k not in private}
        flags, own_flags = [], raised.get(seat.id, ())
        for flag in state.flags.get(seat.id, []):
            if own_flags and flag in rules.seat_flags_replace:
                continue  # the ruleset's flag says it (why the player is out), once
            owner = owners.get(flag)
            if owner is not None and not sees_all and owner[0].key in private:
                continue  # a private counter's flag would tell its value
            label = owner[1].label.to_dict() if owner else {"ja": flag, "en": flag}
            flags.append({"flag": flag, "label": label})
        flags += [{"flag": flag, "label": label.to_dict()} for flag, label in own_flags]
        seats.append({"id": seat.id, "name": seat.name, "faction": seat.faction, "counters": counters,
                      "flags": flags, "you": viewer.seat == seat.id})
    return {
        "session": {"id": state.session_id, "title": state.title, "ruleset": state.ruleset,
                    "closed": state.closed, "seed_hash": state.seed_hash, "seed": state.seed,
                    "created": state.created, "version": state.last_seq if version is None else version,
                    "next": dict(state.campaign["next"]) if state.campaign.get("next") else None},
        "viewer": viewer.to_dict(),
        "counters": [{"key": d.key, "label": d.label.to_dict(), "min": d.min, "max": d.max, "public": d.public,
                      "start": d.start}
                     for d in state.counter_defs],
        "seats": seats,
        "rolls": screen_rolls(state, viewer, rolls) if game_rolls else [roll_view(r, state) for r in islice(
            (r for r in reversed(state.rolls) if can_see_roll(state, viewer, r)), rolls)],
        "secret_rolls": [{"seq": r.seq, "by": r.actor} for r in islice(
            (r for r in reversed(state.rolls) if not can_see_roll(state, viewer, r)), rolls)],
        # the newest scene mark (a ruleset's round or combat, the GM's シーン区切り): a roll with a lower seq was made in
        # an earlier scene, which the screens' roll strips leave out or mark (templates/_rolls.html)
        "scene": scene_view(state.scenes[-1], game_rolls, state) if state.scenes else None,
        "prompts": [prompt_view(p, state, viewer)
                    for p in recent_prompts(state, viewer, RECENT_FINISHED if finished is None else finished)],
        "readings": readings_view(rules, state) if rules is not None else [],
        **({"ruleset": rules.view(state, viewer)} if rules is not None and rules.view else {}),
    }


def scene_view(scene: dict, screens: bool, state: State) -> dict:
    """The newest scene mark as a view holds it: {seq, title} (an old plain title as its ruleset reads it:
    logtext.scene_title); on the screens also `from`, where its action began (a mark folded before `from` was kept:
    its own seq)."""
    out = {"seq": scene["seq"], "title": scene_title(state, scene["title"])}
    if screens:
        out["from"] = scene.get("from", scene["seq"])
    return out


RECENT_FINISHED = 10
SCAN_PROMPTS = 200


def recent_prompts(state: State, viewer: Viewer, finished_kept: int = RECENT_FINISHED) -> list[Prompt]:
    """Newest first: every open or locked prompt and the last `finished_kept` finished ones (older ones by id).

    Only the newest SCAN_PROMPTS prompts are looked at, so a view costs the same in a long session.
    """
    out, finished = [], 0
    for i, prompt in enumerate(reversed(state.prompts.values())):
        if i >= SCAN_PROMPTS:
            break
        if not can_see_prompt(prompt, viewer):
            continue
        if prompt.status in ("open", "locked"):
            out.append(prompt)
        elif finished < finished_kept:
            out.append(prompt)
            finished += 1
    return out


def can_see_prompt(prompt: Prompt, viewer: Viewer) -> bool:
    """Whether `viewer` may see a prompt at all: a cancelled one is the GM's."""
    return prompt.status != "cancelled" or viewer.is_gm


def visible_event(event: Event, state: State, viewer: Viewer,
                  undone_of: Callable[[int], list[Event]] | None = None) -> dict | None:
    """One log event as `viewer` may see it, or None if it is hidden from them.

    The event type's declared visibility decides (core/events.py, the ruleset's `events`), in `state`; once an undo
    took the event's action back, its `undone_visibility` decides for everyone but the GM (the GM alone by default:
    an undone reveal's contents are secret again, and `state` is the state after the undo); a type the session's
    rules do not declare is the GM's alone.

    An undo's `summary` / `summary_en` is, for everyone but the GM, what it took back as `viewer` may see it in
    `state` (undo_summary: a later undo may have hidden again what it names), made from the undone events, which
    `undone_of(action)` gives (the log's); without it, or if it gives none, they read no summary.
    """
    if state.rules is not None:
        event = state.rules.upcast(event)  # an event stored by an older version, in today's shape
    declared = state.rules.event_type(event.type) if state.rules is not None else None
    if declared is None:
        data = event.data if viewer.is_gm else None
    else:
        # (a GM console that hides answers reads an undone event as everyone else does: the players see its laptop)
        undone = event.action in state.undone and not (viewer.is_gm and not viewer.hide_answers)
        data = (declared.undone_visibility if undone else declared.visibility).apply(event, state, viewer)
    if data is None:
        return None
    if event.type == "undo" and "summary" in data and not (viewer.is_gm and not viewer.hide_answers):
        undone = undone_of(int(data["action"])) if undone_of is not None else None
        summary = undo_summary(undone, state, viewer) if undone else None
        data = {k: v for k, v in data.items() if k not in ("summary", "summary_en")}
        if summary is not None:
            data.update(summary=summary["ja"], summary_en=summary["en"])
    out = event.to_dict()
    out["data"] = data
    out["undone"] = event.action in state.undone
    return out


def undo_summary(events: list[Event], state: State, viewer: Viewer) -> dict[str, str]:
    """{"ja", "en"}: an undo's undone `events` as `viewer` may see them in `state`, one line each joined by "; "
    (「（非公開）」 / "(hidden)" for one hidden from them). The undo's stored `summary` is the table's at the undo; a
    reader other than the GM reads this, made again in the state it reads (visible_event)."""
    from .logtext import describe

    def line(event: Event, lang: str) -> str:
        visible = visible_event(event, state, viewer)
        return describe(visible, state, lang) if visible else ("(hidden)" if lang == "en" else "（非公開）")
    return {lang: "; ".join(line(e, lang) for e in events) for lang in ("ja", "en")}


def undo_line(event: Event, state: State, undone_of: Callable[[int], list[Event]]):
    """What an undo's log line depends on besides the event (its line_key, web/screens.log_lines): the line keys of
    the events it took back (its summary is made from them, visible_event), or None (made again each time) when one
    of them declares none."""
    if "gm_summary" not in event.data:  # written before the table's summary was stored: no summary but the GM's
        return ()
    keys = []
    for undone in undone_of(int(event.data["action"])):
        declared = state.rules.event_type(undone.type) if state.rules is not None else None
        key = declared.line_key(undone, state) if declared is not None and declared.line_key is not None else None
        if key is None:
            return None
        keys.append((undone.seq, key))
    return tuple(keys)


# -- the visibility of core's event types (declared in core/events.py) -------------------------

def created_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """A private counter's thresholds (its flags) are the GM's and the seats' own business."""
    if viewer.is_gm:
        return data
    counters = [c if c.get("public", True) else {**c, "thresholds": []} for c in data.get("counters", [])]
    return {**data, "counters": counters}


def counter_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """A counter change (or its flag) is seen by whoever may see the counter."""
    key = data.get("key") or data.get("counter")
    if key and not can_see_counter(state, viewer, data["seat"], key):
        return None
    return data


def roll_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """A secret GM roll is the GM's until revealed."""
    if data["roll"].get("secret") and not viewer.is_gm and event.seq not in state.revealed_rolls:
        return None
    return data


def undo_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """An undo's GM summary may name secrets; an undo written before it existed keeps no safe summary. A console that
    hides answers (the GM's setting) reads `summary` as everyone else: the players may see it (visible_event makes
    that summary again, as the reader may see the undone events now)."""
    if viewer.is_gm and not viewer.hide_answers:
        return data
    return {k: v for k, v in data.items() if k not in ("gm_summary", "gm_summary_en")
            and (k not in ("summary", "summary_en") or "gm_summary" in data)}


def pending_view(prompt: Prompt, state: State, viewer: Viewer) -> dict | None:
    """A revealed prompt's resolution as `viewer` may see it (resolution_view); before its confirm, the counter
    changes it carries are shown as the confirm would make them now (counter_drafts_now: from the value each counter
    holds, into its bounds, with the flags that raises or lowers), not as drafted at the reveal, whose `to` may lie
    outside the counter's range (a cost of 2 from MP 1 reads 1→-1; the confirm pays 1→0)."""
    resolution = prompt.resolution
    if resolution and resolution.get("events") and not prompt.confirmed:
        now = counter_drafts_now(state, [(event_type, data) for event_type, data in resolution["events"]])
        resolution = {**resolution, "events": [[event_type, data] for event_type, data in now]}
    return resolution_view(resolution, prompt.opened_seq, state, viewer)


def resolution_view(resolution: dict | None, seq: int, state: State, viewer: Viewer) -> dict | None:
    """A prompt's resolution as `viewer` may see it: the events it will write on confirm are drafts of
    declared event types, each shown through its own visibility (a hidden one is left out)."""
    if resolution is None or viewer.is_gm or not resolution.get("events"):
        return resolution
    shown = []
    for event_type, data in resolution["events"]:
        draft = Event(seq, "", "system", 0, event_type, data)
        declared = state.rules.event_type(event_type) if state.rules is not None else None
        visible = declared.visibility.apply(draft, state, viewer) if declared is not None else None
        if visible is not None:
            shown.append([event_type, visible])
    return {**resolution, "events": shown}


def resolved_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """A resolution is public; the events it carries are shown as their own types declare."""
    return {**data, "resolution": resolution_view(data["resolution"], event.seq, state, viewer)}


def opened_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """A prompt's opening is public, but for its `disabled` options: each respondent reads its own (with their
    reasons), as its view of the prompt gives them (prompt_view); the GM, who set them, all; anyone else none."""
    disabled = data.get("disabled")
    if viewer.is_gm or not isinstance(disabled, dict):
        return data
    me = viewer.respondent
    return {**data, "disabled": {me: disabled[me]} if me is not None and me in disabled else {}}


def resolved_undone_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """An undone resolution is seen while its prompt is revealed without it (an undo of a modifier); one whose undo
    took the reveal back too is the GM's: its summary and rows name the answers, secret again."""
    prompt = state.prompts.get(data["prompt"])
    if prompt is None or not (prompt.status == "revealed" or prompt.was_revealed):
        return None
    return resolved_event(data, event, state, viewer)


def answer_event(data: dict, event: Event, state: State, viewer: Viewer) -> dict | None:
    """An answer's value and salt are seen as the prompt's rules say (can_see_answer); an answer
    changed before the reveal stays its author's: only the final one is revealed."""
    prompt = state.prompts.get(data["prompt"])
    final = prompt is not None and data["by"] in prompt.answers and prompt.answers[data["by"]].seq == event.seq
    if prompt is None or not can_see_answer(prompt, viewer, data["by"]) or (
            not final and viewer.respondent != data["by"]):
        return {k: v for k, v in data.items() if k not in ("value", "salt")}
    return data


# -- what a core event's log line depends on besides the event (EventType.line_key; web/screens.log_lines) ---------

def fixed_line(event: Event, state: State):
    """A line made from the event's own data (and the seats' names, which the screens' key holds already)."""
    return ()


def roll_line(event: Event, state: State):
    """A secret roll's line shows once the roll is revealed."""
    return event.seq in state.revealed_rolls


def revealed_roll_line(event: Event, state: State):
    """A reveal's line shows the roll while it is revealed."""
    return int(event.data["roll_seq"]) in state.revealed_rolls


def prompt_line(event: Event, state: State):
    """A prompt's line names its title while the prompt is in the state."""
    return event.data.get("prompt") in state.prompts


def resolved_line(event: Event, state: State):
    """A resolution's line names its prompt's title while the prompt is in the state; undone, it shows while the
    prompt is revealed (resolved_undone_event)."""
    prompt = state.prompts.get(event.data.get("prompt"))
    return prompt is not None, prompt is not None and (prompt.status == "revealed" or prompt.was_revealed)


def answer_line(event: Event, state: State):
    """An answer's value shows by its prompt's status and whether it is the respondent's final answer
    (answer_event); its text by the prompt's kind and title."""
    prompt = state.prompts.get(event.data["prompt"])
    if prompt is None:
        return None
    answer = prompt.answers.get(event.data["by"])
    return prompt.status, answer is not None and answer.seq == event.seq
