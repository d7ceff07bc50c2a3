"""Commands: validate a request against the state and return the events it writes.

Each command is pure: it reads the state (never changes it) and returns a list of
`(event_type, data)` drafts, or raises GmError with a message a player can read.
The runtime appends the drafts as one action and folds them (engine.py).
"""

from __future__ import annotations

import re
from typing import Any

from . import dice as dicelib
from .errors import Conflict, GmError, NotFound, choices_text, shown
from .engine import clamp
from .model import CounterDef, State

Draft = tuple[str, dict]
MAX_NAME = 40
MAX_REASON = 200
MAX_REQUEST_TEXT = 8000  # any text a request may carry: a field naming a seat, counter or reading (unknown: a 404), a
                         # dice expression (the dice parser then refuses over 200 characters in its own words)
MAX_SEATS = 12
MAX_INT = 10**9             # any whole number a request gives (docs/api.md, limits)
MAX_COUNTER_VALUE = 10**6   # a counter's value, whatever its own range says


LINE_BREAKS = str.maketrans({"\t": " ", "\n": " ", "\r": " "})
# Control characters (NUL …) and the direction controls that make a name read backwards or hide its end (a phone's
# copied text may hold the isolates U+2066–U+2069 unseen): left out of what is kept
INVISIBLE_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean_text(value: Any, what_ja: str, what_en: str, limit: int = MAX_NAME, required: bool = True) -> str:
    """A stripped, length-checked one-line text field: a JSON string (a number is taken as its text), its tabs and
    line breaks made spaces, control characters and direction controls left out (a session saved before they were,
    continued or imported, still reads); anything else (true, a list, an object) is refused."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int, float))):
        raise GmError(f"{what_ja}は文字で入力してください", f"The {what_en} must be text")
    text = "" if value is None else str(value).replace("\r\n", "\n").translate(LINE_BREAKS)
    text = INVISIBLE_CONTROLS.sub("", text).strip()
    if required and not text:
        raise GmError(f"{what_ja}を入力してください", f"Please enter the {what_en}")
    if len(text) > limit:
        raise GmError(f"{what_ja}は{limit}文字以内にしてください", f"The {what_en} must be at most {limit} characters")
    return text


YES, NO = (True, 1, "1", "true", "on", "yes"), (False, 0, None, "", "0", "false", "off", "no")


def parse_flag(value: Any, what_ja: str, what_en: str) -> bool:
    """A yes/no field: a JSON boolean, 1/0, or a form's "on", "true", "1" / "", "false", "0" (absent: no); anything
    else is refused (the string "false" must not count as yes)."""
    if isinstance(value, (bool, int, str)) or value is None:  # not 1.0 (a float equals 1 in Python)
        if value in YES:
            return True
        if value in NO:
            return False
    raise GmError(f"「{what_ja}」はオンかオフで指定してください", f"'{what_en}' must be true or false")


def text_field(payload: dict, key: str, default: str = "", *, ja: str) -> str:
    """A request's field `key` that names something (a side, a seat, an effect) as text (`default` when absent or
    empty); a list, an object or true is refused, named in Japanese by `ja` (the words its screen uses), in English
    by its key (`The side must be text`)."""
    value = payload.get(key)
    return default if value in (None, "") else id_text(value, ja, key)


def flag_field(payload: dict, key: str, default: bool = False, *, ja: str) -> bool:
    """parse_flag of a request's field `key` (`default` when it is absent), named in Japanese by `ja` (the words of
    its tick box), in English by its key, when refused."""
    return parse_flag(payload.get(key, default), ja, key)


WIDE_DIGITS = str.maketrans({**{chr(0xFF10 + i): str(i) for i in range(10)}, "＋": "+", "−": "-", "ー": "-", "－": "-"})
WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def parse_int(value: Any, what_ja: str, what_en: str) -> int:
    """An integer from a form or JSON value (at most ±MAX_INT), or a readable error."""
    if isinstance(value, int) and not isinstance(value, bool):  # JSON true/false is no number (Python: 1/0)
        number = value
    else:
        # Full-width digits and signs as a Japanese keyboard types them (３, ＋, −, ー) read as ASCII; other digits
        # Python's int() would take (٣, 1_000) do not
        text = shown(value).strip().translate(WIDE_DIGITS)
        if len(text) > 12 or not WHOLE_NUMBER.fullmatch(text) or not isinstance(value, (str, int)):  # no 4,300-digit
            text = text if len(text) <= 20 else text[:17] + "..."  # conversions, no float 1.0 or list [1]
            raise GmError(f"{what_ja}は整数で入力してください（「{text}」）",
                          f"The {what_en} must be a whole number (got '{text}')")
        number = int(text)
    if abs(number) > MAX_INT:
        raise GmError(f"{what_ja}は±{MAX_INT:,}までです", f"The {what_en} must be within ±{MAX_INT:,}")
    return number


def id_text(value: Any, what_ja: str, what_en: str) -> str:
    """A field that names something (a seat, a counter, a reading): its text, a number taken as its text; a list,
    an object or true is a 400 `The <what> must be text` (not looked up as "['s1']")."""
    return clean_text(value, what_ja, what_en, limit=MAX_REQUEST_TEXT, required=False)


def seat_of(state: State, seat_id: Any):
    """The seat named `seat_id`, or a 404 error."""
    if seat_id in (None, ""):
        raise GmError("席を指定してください", "Give the seat")
    seat_id = id_text(seat_id, "席", "seat")
    seat = state.seats.get(seat_id)
    if seat is None:
        raise NotFound("その席はありません", "There is no such seat")  # an id is not what a player reads
    return seat


def require_open(state: State) -> None:
    """Reject changes to a closed session."""
    if state.closed:
        raise Conflict("このセッションは終了しています", "This session is closed")


def create_session(session_id: str, title: str, ruleset: str, seats: list[dict],
                   counters: list[CounterDef], seed_hash: str, extra: dict | None = None) -> list[Draft]:
    """The first event of every session."""
    title = clean_text(title, "タイトル", "title", limit=80)
    if len(seats) > MAX_SEATS:
        raise GmError(f"席は{MAX_SEATS}までです", f"At most {MAX_SEATS} seats")
    names = [s["name"] for s in seats]
    if len(set(names)) != len(names):
        raise GmError("席の名前が重複しています", "Two seats have the same name")
    return [("session.created", {
        "id": session_id, "title": title, "ruleset": ruleset, "seed_hash": seed_hash,
        "seats": seats, "counters": [c.to_dict() for c in counters], "extra": extra or {},
    })]


def check_seat_count(rules: Any, count: int) -> None:
    """A session of the game `rules` has between its fewest and most seats."""
    if count > MAX_SEATS:
        raise GmError(f"席は{MAX_SEATS}までです", f"At most {MAX_SEATS} seats")
    low, high = rules.seats
    if not low <= count <= high:
        span = f"{low}" if low == high else f"{low}〜{high}"
        span_en = f"{low}" if low == high else f"{low} to {high}"
        raise GmError(f"{rules.label.ja}は{span}席で遊びます（{count}席になります）",
                      f"{rules.label.en} is played with {span_en} seats (not {count})")


def new_seat(seat_id: str, name: Any, faction: Any = "") -> dict:
    """A validated seat description."""
    return {"id": seat_id,
            "name": clean_text(name, "席の名前", "seat name"),
            "faction": clean_text(faction, "陣営名", "faction name", required=False)}


def add_seat(state: State, seat: dict) -> list[Draft]:
    """Add a seat during the session."""
    require_open(state)
    if len(state.seats) >= MAX_SEATS:
        raise GmError(f"席は{MAX_SEATS}までです", f"At most {MAX_SEATS} seats")
    if state.rules is not None:
        check_seat_count(state.rules, len(state.seats) + 1)
    if any(s.name == seat["name"] for s in state.seats.values()):
        raise GmError("同じ名前の席があります", "A seat with this name exists")
    return [("seat.added", seat)]


SIGNS = ("+", "-", "＋", "−", "ー", "－")


def parse_set(value: Any) -> tuple[int, bool]:
    """A counter's set box: `(number, relative)`. Text starting with + or − (`"+2"`, `"-1"`, full-width
    too) is a change from the current value (CCFOLIA habit); a plain number (or a JSON integer) sets."""
    relative = isinstance(value, str) and value.strip().startswith(SIGNS)
    return parse_int(value, "値", "value"), relative


def range_words(lo: int | None, hi: int | None) -> tuple[str, str]:
    """A counter's range in words, Japanese and English (never with ∞)."""
    if lo is not None and hi is not None:
        return f"{lo}から{hi}までの範囲", f"from {lo} to {hi}"
    if lo is not None:
        return f"{lo}以上", f"at least {lo}"
    if hi is not None:
        return f"{hi}以下", f"at most {hi}"
    return "制限なし", "unbounded"


def counter_definition(state: State, key: Any) -> CounterDef:
    """The session's counter `key`, or a 404 in words (the screens name counters by their labels; only a crafted
    request names one that is not there); a key that is not text is a 400."""
    definition = state.counter_def(id_text(key, "カウンター", "counter"))
    if definition is None:
        raise NotFound("そのカウンターはありません", "There is no such counter")
    return definition


def change_counter(state: State, seat_id: Any, key: Any, delta: Any = None, value: Any = None,
                   reason: Any = "") -> list[Draft]:
    """Change a seat's counter by `delta` or to `value` (the GM's request), within its bounds.

    `value` given as `"+N"` / `"-N"` is a change by N (parse_set). Going above the counter's upper bound
    needs a reason: the bound for this seat is then raised to the new value (the event carries `max`).
    """
    require_open(state)
    seat = seat_of(state, seat_id)
    if key in (None, ""):
        raise GmError("カウンターを指定してください", "Give the counter")
    definition = counter_definition(state, key)
    reason = clean_text(reason, "理由", "reason", limit=MAX_REASON, required=False)
    current = state.counters[seat.id][definition.key]
    if (delta is None) == (value is None):
        raise GmError("増減か新しい値のどちらかを指定してください", "Give either a change (delta) or a new value")
    if value is not None:
        number, relative = parse_set(value)
        new = current + number if relative else number
    else:
        new = current + parse_int(delta, "増減", "change")
    label = definition.label
    if abs(new) > MAX_COUNTER_VALUE:
        raise GmError(f"{label.ja}は±{MAX_COUNTER_VALUE:,}までです", f"{label.en} must stay within ±{MAX_COUNTER_VALUE:,}")
    lo, hi = state.bounds(seat.id, definition.key)
    raised = None
    if hi is not None and new > hi and reason:
        raised, hi = new, new  # the GM raises this seat's bound, with the reason in the log
    if (lo is not None and new < lo) or (hi is not None and new > hi):
        ja, en = range_words(lo, hi)
        more_ja = more_en = ""
        if hi is not None and new > hi:
            more_ja = f"。{hi}より上にするには理由を書いてください（上限を上げます）"
            more_en = f". To go above {hi}, give a reason (it raises the limit)"
        raise GmError(f"{label.ja}は{ja}です（{new}にはできません）{more_ja}",
                      f"{label.en} must be {en} (cannot become {new}){more_en}")
    if new == current:
        raise GmError(f"{label.ja}は既に{current}です", f"{label.en} is already {current}")
    drafts = counter_drafts(state, seat.id, definition.key, new, reason, bound=raised)
    settle = getattr(state.rules, "counter_settle", None)
    return settle(state, drafts) if settle else drafts  # the ruleset's automatic checks apply at once


def counter_drafts(state: State, seat_id: str, key: str, new: int, reason: str | dict | tuple[str, str] = "",
                   rule: str = "", bound: int | None = None) -> list[Draft]:
    """The one counter change every action uses, from the state as it is (CounterRun.set, alone in its run)."""
    return CounterRun(state).set(seat_id, key, new, reason, rule, bound)


def rule_reason(reason: str | dict | tuple[str, str], rule: str = "") -> str | dict:
    """A counter change's reason as the log keeps it: a ruleset's words `(Japanese, English)` with the rule code
    after each (`{"ja": "… [S-8]", "en": "… [S-8]"}`); a text or a `{"ja", "en"}` as it is."""
    if not isinstance(reason, tuple):
        return reason
    code = f" [{rule}]" if rule else ""
    return {"ja": reason[0] + code, "en": reason[1] + code}


class CounterRun:
    """The drafts of one action, with its counter changes made one after another: each from the value, with the
    threshold flags and the upper bound the earlier ones left (the state's before the first).

    `drafts` holds every draft of the run in order: the counter changes (`set`, `add`) and whatever else the
    action adds (`emit`, or `drafts +=`)."""

    def __init__(self, state: State):
        self.state = state
        self.drafts: list[Draft] = []
        self.values: dict[tuple[str, str], int] = {}
        self.flags: dict[str, list[str]] = {}
        self.maxima: dict[tuple[str, str], int] = {}

    def emit(self, event_type: str, data: dict) -> None:
        """Add one draft that is not a counter change."""
        self.drafts.append((event_type, data))

    def value(self, seat_id: str, key: str) -> int:
        """The counter's value after the changes so far."""
        return self.values.get((seat_id, key), self.state.counters[seat_id][key])

    def standing(self, seat_id: str) -> list[str]:
        """The seat's flags after the changes so far."""
        return self.flags[seat_id] if seat_id in self.flags else list(self.state.flags.get(seat_id, []))

    def bounds(self, seat_id: str, key: str) -> tuple[int | None, int | None]:
        """The seat's bounds for the counter after the changes so far (an upper bound raised in the run holds)."""
        lo, hi = self.state.bounds(seat_id, key)
        return lo, self.maxima.get((seat_id, key), hi)

    def fork(self) -> "CounterRun":
        """A run that starts where this one stands (values, flags, bounds) and writes drafts of its own."""
        other = CounterRun(self.state)
        other.values, other.maxima = dict(self.values), dict(self.maxima)
        other.flags = {seat: list(flags) for seat, flags in self.flags.items()}
        return other

    def set(self, seat_id: str, key: str, new: int, reason: str | dict | tuple[str, str] = "", rule: str = "",
            bound: int | None = None) -> list[Draft]:
        """Move a counter to `new`, into the seat's bounds for it, with the threshold flags it raises or lowers,
        upwards and downwards; the drafts (none when nothing changes) are added to the run and returned.

        `reason` as rule_reason keeps it. `bound` sets this seat's upper bound for the counter first (a GM's raise
        with a reason, a ruleset's new starting value); the event carries it as `max`."""
        definition = counter_definition(self.state, key)
        current = self.value(seat_id, key)
        lo, hi = self.bounds(seat_id, key)
        new = clamp(int(new), lo, hi if bound is None else bound)
        if new == current:
            return []
        extra: dict = {}
        if rule:
            extra["rule"] = rule
        if bound is not None and bound != hi:
            extra["max"] = self.maxima[(seat_id, key)] = bound
        drafts: list[Draft] = [("counter.changed", {"seat": seat_id, "key": key, "delta": new - current,
                                                    "from": current, "to": new, "reason": rule_reason(reason, rule),
                                                    **extra})]
        standing = self.flags.setdefault(seat_id, self.standing(seat_id))
        for t in definition.thresholds:
            data = {"seat": seat_id, "flag": t.flag, "label": t.label.to_dict(), "rule": t.rule, "counter": key,
                    "at": t.at}
            if t.is_met(new) and t.flag not in standing:
                drafts.append(("flag.raised", data))
            elif not t.is_met(new) and t.flag in standing:
                drafts.append(("flag.lowered", data))
        for event_type, data in drafts[1:]:
            if event_type == "flag.raised":
                standing.append(data["flag"])
            else:
                standing.remove(data["flag"])
        self.values[(seat_id, key)] = new
        self.drafts += drafts
        return drafts

    def add(self, seat_id: str, key: str, delta: int, reason: str | dict | tuple[str, str] = "", rule: str = "",
            bound: int | None = None) -> list[Draft]:
        """Move a counter by `delta` from its value after the changes so far (set)."""
        return self.set(seat_id, key, self.value(seat_id, key) + int(delta), reason, rule, bound)


def counter_drafts_now(state: State, drafts: list[Draft]) -> list[Draft]:
    """Drafts computed earlier (a prompt's resolution, at its reveal) as they apply now: each counter change
    moves its counter by its delta from the value it holds now (into its bounds), with the threshold flags it
    raises or lowers now, so its from / to are what it does; the other drafts as they are."""
    run = CounterRun(state)
    for event_type, data in drafts:
        if event_type in ("flag.raised", "flag.lowered") and "counter" in data:
            continue  # a counter's threshold flag: computed again with its change below
        if event_type != "counter.changed":
            run.emit(event_type, data)
            continue
        run.add(data["seat"], data["key"], data["delta"], data.get("reason", ""), data.get("rule", ""), data.get("max"))
    return run.drafts


def change_at_confirm(state: State, seat_id: str, key: str, delta: int, reason: str | dict = "",
                      rule: str = "") -> list[Draft]:
    """A counter change by `delta` that a prompt's resolution carries to its confirm, whole: counter_drafts_now
    applies it then, from the value the counter holds then (into its bounds). Its `from` / `to` are the value now
    and that value moved by `delta` (outside the bounds if so): clamped now, the change would lose what the counter
    gains before the confirm (MP set to 0 before a reveal and to 5 before its confirm pays a cost of 2 as 5→3)."""
    if not delta:
        return []
    current = state.counters[seat_id][key]
    data = {"seat": seat_id, "key": key, "delta": delta, "from": current, "to": current + delta, "reason": reason}
    return [("counter.changed", {**data, "rule": rule} if rule else data)]


def set_setting(state: State, key: Any, value: Any) -> list[Draft]:
    """Switch one of the GM's session settings (SETTINGS), remembered in the session's log."""
    require_open(state)
    if key not in SETTINGS:
        raise NotFound("その設定はありません", "There is no such setting")  # the console's toggle sends a known one
    if value is None or value == "" or (value not in YES and value not in NO):
        raise GmError("設定はオンかオフです", "A setting is on or off")
    return [("setting.set", {"key": key, "value": value in YES})]


SETTINGS = ("hide_answers",)


def reading_choice(state: State, key: Any, value: Any) -> tuple[Any, Any]:
    """One of the session's readings (core's or its ruleset's) and the value of its choice `value` names (a form's
    "0" / "false" as the choice's own 0 / False), or a readable error (unknown reading 404, other value 400)."""
    if key in (None, ""):
        raise GmError("解釈を指定してください", "Give the reading (key)")
    key = id_text(key, "解釈", "reading")
    reading = state.rules.reading(key) if state.rules is not None else None
    if reading is None:
        ja, en = choices_text({r.key: r.label for r in state.rules.all_readings()} if state.rules is not None else {})
        raise NotFound(f"解釈「{key}」はありません（{ja}）", f"There is no reading '{key}' ({en})")
    choice = reading.choice(value)
    if choice is None:
        ja, en = choices_text({shown(c.value): c.label for c in reading.choices})
        raise GmError(f"解釈「{reading.label.ja}」に「{shown(value)}」は選べません（{ja}）",
                      f"Reading '{reading.label.en}' cannot be '{shown(value)}' ({en})")
    return reading, choice.value


def set_reading(state: State, key: Any, value: Any) -> list[Draft]:
    """Switch one of the session's readings (core's or its ruleset's) for this session."""
    require_open(state)
    reading, value = reading_choice(state, key, value)
    if state.readings.get(reading.key, reading.default) == value:
        raise Conflict(f"解釈「{reading.label.ja}」は既にその値です", f"Reading '{reading.label.en}' already has that value")
    return [("reading.set", {"key": reading.key, "value": value, "rule": reading.rule})]


def roll(state: State, expr: Any, label: Any, dice) -> list[Draft]:
    """Roll a dice expression (BCDice style) with the session's dice."""
    require_open(state)
    label = clean_text(label, "ラベル", "label", limit=80, required=False)
    text = clean_text(expr, "ダイス式", "dice expression", limit=MAX_REQUEST_TEXT)
    result = dicelib.roll(text, dice)
    if dicelib.is_entered(dice):
        dice.check_all_used()
    return [("dice.rolled", {"label": label, "roll": result.to_dict(), "dice_next": dice.next_index})]


def reveal_roll(state: State, roll_seq: Any) -> list[Draft]:
    """Make a secret GM roll public."""
    require_open(state)
    seq = parse_int(roll_seq, "ロール番号", "roll number")
    if seq in state.secret_rolls:
        if seq in state.revealed_rolls:
            raise Conflict("このロールは公開済みです", "This roll was already revealed")
        return [("dice.revealed", {"roll_seq": seq})]
    if any(r.seq == seq for r in state.rolls):
        raise Conflict("このロールは公開されています", "This roll is already public")
    raise NotFound("そのダイスロールはありません", "There is no such roll")


def mark_scene(state: State, title: Any) -> list[Draft]:
    """Start a new scene / round / combat: a heading in the log and its exports."""
    require_open(state)
    return [("scene.marked", {"title": clean_text(title, "シーン名", "scene title", limit=80)})]


def close_session(state: State, seed_hex: str) -> list[Draft]:
    """Close the session and publish its dice seed so every roll can be re-checked."""
    require_open(state)
    return [("session.closed", {"seed": seed_hex})]
