"""The state of one session: plain data, derived by folding the event log (see engine.py)."""

from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Label:
    """A text in Japanese and English."""

    ja: str
    en: str

    def get(self, lang: str) -> str:
        """The text in `lang` (Japanese unless 'en')."""
        return self.en if lang == "en" else self.ja

    def to_dict(self) -> dict:
        """JSON form."""
        return {"ja": self.ja, "en": self.en}


def text_in(value: Any, lang: str) -> str:
    """A stored text in `lang`: a {"ja", "en"} pair (what a ruleset writes: reasons, titles, labels) or a
    plain text (what a user typed, or what was stored before pairs), which reads the same in both."""
    if isinstance(value, dict):
        return str(value.get("en" if lang == "en" else "ja") or value.get("ja") or "")
    return "" if value is None else str(value)


@dataclass(frozen=True)
class Threshold:
    """A flag raised while a counter is at or above `at` (e.g. karma 9 -> 討伐令, S-12), or at or
    below it when `below` (e.g. HP 3 -> 瀕死)."""

    at: int
    flag: str
    label: Label
    rule: str = ""
    below: bool = False

    def is_met(self, value: int) -> bool:
        """Whether the flag stands at `value`."""
        return value <= self.at if self.below else value >= self.at

    def to_dict(self) -> dict:
        """JSON form."""
        return {"at": self.at, "flag": self.flag, "label": self.label.to_dict(), "rule": self.rule,
                "below": self.below}

    @classmethod
    def from_dict(cls, d: dict) -> "Threshold":
        """Inverse of to_dict."""
        return cls(int(d["at"]), str(d["flag"]), Label(**d["label"]), str(d.get("rule", "")), bool(d.get("below")))


@dataclass(frozen=True)
class CounterDef:
    """A per-seat counter: label, start value, bounds, visibility and thresholds."""

    key: str
    label: Label
    start: int = 0
    min: int | None = 0
    max: int | None = None
    public: bool = True
    thresholds: tuple[Threshold, ...] = ()

    def to_dict(self) -> dict:
        """JSON form (stored in the session.created event)."""
        return {
            "key": self.key,
            "label": self.label.to_dict(),
            "start": self.start,
            "min": self.min,
            "max": self.max,
            "public": self.public,
            "thresholds": [t.to_dict() for t in self.thresholds],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "CounterDef":
        """Inverse of to_dict."""
        return cls(
            key=str(d["key"]),
            label=Label(**d["label"]),
            start=int(d.get("start", 0)),
            min=None if d.get("min") is None else int(d["min"]),
            max=None if d.get("max") is None else int(d["max"]),
            public=bool(d.get("public", True)),
            thresholds=tuple(Threshold.from_dict(t) for t in d.get("thresholds", ())),
        )

    def is_in_range(self, value: int) -> bool:
        """Whether `value` is within the counter's bounds."""
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def clamp(self, value: int) -> int:
        """`value` moved into the bounds (used when an undo re-folds later changes)."""
        if self.min is not None:
            value = max(self.min, value)
        if self.max is not None:
            value = min(self.max, value)
        return value


@dataclass(slots=True)
class Seat:
    """A player's place at the table (a faction); joined by phone through its token."""

    id: str
    name: str
    faction: str = ""


@dataclass(slots=True)
class Event:
    """One entry of the append-only log."""

    seq: int
    ts: str
    actor: str
    action: int
    type: str
    data: dict

    def to_dict(self) -> dict:
        """JSON form."""
        return {"seq": self.seq, "ts": self.ts, "actor": self.actor, "action": self.action,
                "type": self.type, "data": self.data}


class FrozenDict(dict):
    """A dict that refuses every change in place: a prompt's nested parts (its resolution, meta, disabled options,
    an answer's value …), which Prompt.copy shares between a prompt and its copy, so that changing one can never
    change the other. A fold replaces such a part whole. It reads, compares and writes as JSON as a dict does;
    copy.copy and copy.deepcopy give a plain dict to change."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("a prompt's nested parts are read-only: replace the part, do not change it in place")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo) -> dict:
        return {k: copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self):
        return FrozenDict, (dict(self),)


class FrozenList(list):
    """A list that refuses every change in place (see FrozenDict); copy.copy and copy.deepcopy give a plain list."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("a prompt's nested parts are read-only: replace the part, do not change it in place")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = clear = sort = \
        reverse = _refuse

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo) -> list:
        return [copy.deepcopy(v, memo) for v in self]

    def __reduce__(self):
        return FrozenList, (list(self),)


_SCALARS = frozenset((str, int, float, bool, type(None), FrozenDict, FrozenList))
NOTHING = FrozenDict()  # an empty read-only map, shared (a prompt's meta without any)


def frozen(value: Any) -> Any:
    """`value` (JSON-like data: what an event holds) with every dict and list in it, however deep, made read-only
    (FrozenDict, FrozenList); a part that already is, text and numbers as they are. (Folds call it for every
    resolution and answer: text and numbers are passed over without a call.)"""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict or isinstance(value, dict):
        return FrozenDict({k: v if type(v) in _SCALARS else frozen(v) for k, v in value.items()})
    if kind is list or kind is tuple or isinstance(value, (list, tuple)):
        return FrozenList([v if type(v) in _SCALARS else frozen(v) for v in value])
    return value


@dataclass(slots=True, frozen=True)
class Answer:
    """A seat's (or the GM's) secret submission to a prompt (replaced whole, never changed: Prompt.copy shares it;
    its value is frozen, see `frozen`)."""

    value: Any
    salt: str
    commitment: str
    seq: int
    at: str = ""  # when it was sent (its event's time, ISO 8601): the phone's receipt says so


@dataclass(slots=True)
class Prompt:
    """A question put to some seats whose answers stay secret until the reveal."""

    # What a fold changes in place (seats, answers, per_seat, modifiers) Prompt.copy copies; everything nested in a
    # prompt besides (options, each seat's map in per_seat, off, each modifier, meta, a title or reason in two
    # languages, each Answer and its value; the resolution once the prompt is copied) is read-only (`frozen`:
    # FrozenDict, FrozenList, a frozen Answer), so the copy may share it: a fold replaces it whole, and nothing can
    # change it in place.
    id: str
    title: str | FrozenDict
    kind: str
    options: FrozenList
    seats: list[str]
    gm_submits: bool
    min: int | None = None
    max: int | None = None
    per_seat: dict = field(default_factory=dict)  # seat -> {option: reason}: the options that seat may not choose
    off: FrozenDict = field(default_factory=lambda: NOTHING)  # option -> reason: disabled for every respondent (prompt.option_disabled)
    resolver: str | None = None
    status: str = "open"  # open -> locked? -> revealed -> resolved | cancelled; open or locked -> closed (the session's close)
    answers: dict[str, Answer] = field(default_factory=dict)
    opened_seq: int = 0
    revealed_seq: int = 0  # the seq of its (last) reveal: the scene its result belongs to (web/screens.phone_public)
    reason: str | FrozenDict = ""
    resolution: dict | None = None  # a FrozenDict once the prompt was copied (Prompt.copy)
    modifiers: list[FrozenDict] = field(default_factory=list)
    confirmed: bool = False
    was_revealed: bool = False  # its answers were made public: they stay so if a ruleset cancels it afterwards
    meta: FrozenDict = field(default_factory=lambda: NOTHING)
    owner: int = field(default=0, compare=False, repr=False)  # the State.prompt_owner that may change it in place

    def copy(self) -> "Prompt":
        """A copy that shares nothing changeable with this prompt: what a fold changes in place (seats, answers,
        per_seat, modifiers) is copied, everything nested deeper is read-only (`frozen`), so changing the copy
        never changes this prompt. Made by hand: an answer copies its prompt (State.writable_prompt), and
        dataclasses.replace took twice as long.

        The resolution is made read-only here, for both (equal to what it was), the first time the prompt is copied
        with one: a fold takes it as its event holds it, since freezing every resolution slowed a fold of a whole
        log by a third, and a prompt is copied only by an action that changes it after its state was copied."""
        if self.resolution is not None and type(self.resolution) is not FrozenDict:
            self.resolution = frozen(self.resolution)
        twin = _new_prompt(Prompt)
        for name in _PROMPT_SHARED:
            setattr(twin, name, getattr(self, name))
        twin.seats, twin.answers = list(self.seats), dict(self.answers)
        twin.per_seat, twin.modifiers = dict(self.per_seat), list(self.modifiers)
        return twin

    @property
    def is_open(self) -> bool:
        """Answers are still accepted."""
        return self.status == "open"

    @property
    def is_revealed(self) -> bool:
        """Answers are public."""
        return self.status in ("revealed",)

    def respondents(self) -> list[str]:
        """Everyone who must answer: the seats, plus 'gm' when the GM submits."""
        return list(self.seats) + (["gm"] if self.gm_submits else [])


_new_prompt = object.__new__
_PROMPT_SHARED = tuple(f.name for f in fields(Prompt) if f.name not in ("seats", "answers", "per_seat", "modifiers"))


@dataclass(slots=True)
class RollRecord:
    """A roll as the log holds it."""

    seq: int
    action: int
    actor: str
    label: str
    roll: dict
    secret: bool


@dataclass
class State:
    """Everything gmtool knows about a session, folded from its events."""

    session_id: str = ""
    title: str = ""
    ruleset: str = "generic"
    created: str = ""
    seed_hash: str = ""
    seed: str | None = None  # revealed when the session is closed
    closed: bool = False
    seats: dict[str, Seat] = field(default_factory=dict)
    counter_defs: list[CounterDef] = field(default_factory=list)
    counters: dict[str, dict[str, int]] = field(default_factory=dict)
    counter_max: dict[str, dict[str, int]] = field(default_factory=dict)  # seat -> key -> upper bound the GM raised
    flags: dict[str, list[str]] = field(default_factory=dict)
    rolls: list[RollRecord] = field(default_factory=list)
    revealed_rolls: set[int] = field(default_factory=set)
    # every secret roll by its seq, also those older than `rolls` keeps: a reveal finds it, its line names it
    secret_rolls: dict[int, RollRecord] = field(default_factory=dict)
    prompts: dict[str, Prompt] = field(default_factory=dict)
    undone: set[int] = field(default_factory=set)
    scenes: list[dict] = field(default_factory=list)  # scene / round boundaries: seq, title, and from: where its action began
    # the newest events that rolled a ruleset's own dice (EventType.rolls), oldest first
    game_rolls: list[Event] = field(default_factory=list)
    last_seq: int = 0
    last_action: int = 0
    action_seq: int = 0  # the seq of the first event of the newest action (engine.apply)
    dice_next: int = 0  # index of the next die drawn from the session seed
    extra: dict = field(default_factory=dict)  # ruleset-owned state
    readings: dict = field(default_factory=dict)  # reading key -> the value the GM switched it to
    settings: dict = field(default_factory=dict)  # the GM's session settings (e.g. hide_answers), core's events
    campaign: dict = field(default_factory=dict)  # {"id", "previous", "next"} once continued (core/campaign.py)
    rules: Any = field(default=None, repr=False, compare=False)  # the session's Ruleset (engine.apply)
    prompt_owner: int = field(default=0, repr=False, compare=False)  # the Prompt.owner of prompts this state owns

    def copy(self) -> "State":
        """A copy that folds on apart from this state, made without copying every prompt (a long session holds
        thousands): the two share their prompts, and each copies one before a fold changes it
        (`writable_prompt`); what a fold only ever appends (rolls, scenes) is shared item by item. Everything
        else is copied deeply, so a field added later is safe by default."""
        twin = State.__new__(State)
        for f in fields(self):
            value = getattr(self, f.name)
            copier = _FIELD_COPIES.get(f.name)
            setattr(twin, f.name, copier(value) if copier else copy.deepcopy(value))
        self.prompt_owner, twin.prompt_owner = new_owner(), new_owner()  # every prompt is shared from now on
        return twin

    def writable_prompt(self, prompt_id: str) -> Prompt:
        """The prompt `prompt_id`, made this state's own first if a copy shares it (what a fold may change)."""
        prompt = self.prompts[prompt_id]
        if prompt.owner != self.prompt_owner:
            prompt = self.prompts[prompt_id] = prompt.copy()
            prompt.owner = self.prompt_owner
        return prompt

    def counter_def(self, key: str) -> CounterDef | None:
        """The counter definition named `key`."""
        for d in self.counter_defs:
            if d.key == key:
                return d
        return None

    def bounds(self, seat_id: str, key: str) -> tuple[int | None, int | None]:
        """A seat's counter bounds: the definition's, with the upper bound the GM raised for this seat."""
        definition = self.counter_def(key)
        if definition is None:
            return None, None
        return definition.min, self.counter_max.get(seat_id, {}).get(key, definition.max)

    def seat_name(self, seat_id: str) -> str:
        """A seat's display name (or the id if unknown)."""
        seat = self.seats.get(seat_id)
        return seat.name if seat else seat_id


_owners = itertools.count(1)


def new_owner() -> int:
    """A State.prompt_owner no other state of this process has (State.copy gives each side a new one)."""
    return next(_owners)

_FIELD_COPIES = {  # how State.copy copies a field (the rest: deepcopy)
    "prompts": dict,  # each Prompt is copied on write (State.writable_prompt)
    "rolls": list,  # RollRecords and scene marks are never changed once folded
    "scenes": list,
    "game_rolls": list,  # Events, never changed once folded
    "counter_defs": list,  # frozen
    "revealed_rolls": set,  # sets of numbers
    "secret_rolls": dict,  # of RollRecords, never changed once folded
    "undone": set,
    "rules": lambda rules: rules,  # the declaration (immutable)
    "prompt_owner": int,  # set anew by State.copy
}


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the GM, the public table screen, or one seat."""

    kind: str  # "gm" | "table" | "seat"
    seat: str | None = None
    hide_answers: bool = False  # the GM console with answers hidden until the reveal (the GM's setting)

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
