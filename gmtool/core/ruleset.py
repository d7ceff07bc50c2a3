"""The ruleset contract: a game is one frozen declaration (DESIGN principle 5).

A `Ruleset` holds everything the rest of gmtool needs to serve a game: its counters, its
event types (each with its fold, its log line in both languages, whether it starts an
undoable action and who may see it), its prompt kinds, its readings (switched and shown by
core), its actions, its view, its UI strings, its templates and stylesheet. It is validated
once, when it is made; nothing registers itself as a side effect of being imported. The
engine, the log writer and the views find handlers through the session's ruleset.

Secrets fail closed: an event type that declares no visibility is not an `EventType` at all,
and an event whose type the session's rules do not know is seen by the GM only (view.py).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .model import CounterDef, Event, Label, Prompt, State, Viewer
from .resolvers import BUILTIN, Resolver

Fold = Callable[[State, Event], None]
Describe = Callable[[dict, State, str], str]  # (the event as the viewer sees it, state, lang) -> one log line
Filter = Callable[[dict, Event, State, Viewer], "dict | None"]  # (data, event, state, viewer) -> visible data


# -- visibility ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Visibility:
    """Who may see an event of one type, and which of its fields.

    kind: "public" (everyone), "gm" (the GM only), "seat" (the GM and the seat named by the
    event's `field`), "redact" (everyone, with `fields` removed for a viewer until `until`
    holds for them), or "custom" (a filter function that returns the visible data or None).
    """

    kind: str
    field: str = ""
    fields: tuple[str, ...] = ()
    until: Callable[[Event, State, Viewer], bool] | None = None
    filter: Filter | None = None

    def __post_init__(self):
        if self.kind not in ("public", "gm", "seat", "redact", "custom"):
            raise ValueError(f"unknown visibility {self.kind!r}")
        if self.kind == "seat" and not self.field:
            raise ValueError("a seat visibility names the field that holds the seat")
        if self.kind == "redact" and not (self.fields and self.until):
            raise ValueError("a redacted visibility names its fields and the condition that reveals them")
        if self.kind == "custom" and self.filter is None:
            raise ValueError("a custom visibility needs its filter")

    def apply(self, event: Event, state: State, viewer: Viewer) -> dict | None:
        """The event's data as `viewer` may see it, or None when the whole event is hidden."""
        data = event.data
        if self.kind == "public" or viewer.is_gm:
            return data if self.kind != "custom" else self.filter(data, event, state, viewer)
        if self.kind == "gm":
            return None
        if self.kind == "seat":
            return data if viewer.seat is not None and viewer.seat == data.get(self.field) else None
        if self.kind == "redact":
            if self.until(event, state, viewer):
                return data
            return {k: v for k, v in data.items() if k not in self.fields}
        return self.filter(data, event, state, viewer)


PUBLIC = Visibility("public")
GM_ONLY = Visibility("gm")


def own_seat(field_name: str = "seat") -> Visibility:
    """Seen by the GM and by the seat named in the event's `field_name`."""
    return Visibility("seat", field=field_name)


def redacted(fields: tuple[str, ...], until: Callable[[Event, State, Viewer], bool]) -> Visibility:
    """Seen by everyone, with `fields` removed until `until(event, state, viewer)` holds."""
    return Visibility("redact", fields=tuple(fields), until=until)


def custom(fn: Filter) -> Visibility:
    """Seen as `fn(data, event, state, viewer)` returns it (None: hidden). The GM's view goes through it too."""
    return Visibility("custom", filter=fn)


# -- event types, prompt kinds, readings, actions ---------------------------------------------

@dataclass(frozen=True)
class EventType:
    """One kind of log entry: how it folds into state, how it reads, who may see it."""

    name: str
    fold: Fold
    describe: Describe
    visibility: Visibility
    undoable: bool = False  # an action that starts with this event can be undone by the GM
    # Who sees an event of this type once an undo took its action back, judged in the state after the undo (the GM
    # always sees it as `visibility` says). GM_ONLY, the default, fails closed: an undone event may be a reveal the
    # undo took back, whose contents are secret again. A type whose contents hold no secret the undo could hide again
    # declares its `visibility` here too; one whose contents may, a filter that reads the state after the undo
    # (e.g. shown while the cards it names are still face up).
    undone_visibility: Visibility = GM_ONLY
    # Its line in a write-up (export/report.py), given the event as the table sees it and the session's final
    # state: None (the default) uses the log line; a hook returning "" leaves the event out of the story
    # because another line tells it (a select opened, then told whole by its result).
    export: Describe | None = None
    # What else its log line for a viewer (visibility and text) depends on besides the event, the viewer, the
    # language, the seats' names and its undone mark: line_key(event, state) -> a hashable token, under which the
    # screens keep the line (web/screens.log_lines). None (the default): the line is made again at every change.
    line_key: Callable[[Event, State], Any] | None = None
    # This event is a roll the game made (or several): rolls(data, state) -> the rolls the screens' roll lists show
    # for it, in the order they were rolled, given the event's data as one viewer may see it (its visibility applied:
    # a viewer who may not see the event sees none of its rolls). Each a dict: "label" ({"ja", "en"}: what it was
    # for), "text" (the dice and their faces, e.g. "1d6 [3, 5]"), "total" (the result, or None), and optionally "by"
    # (the seat whose die it is; else the event's actor; None: no roller is named, the label says whose it is), "success" (True/False) and "entered" (real dice). Core keeps
    # the newest such events (State.game_rolls) and lists their rolls with core's dice.rolled ones, newest first
    # (view.screen_rolls). None (the default): not a roll.
    rolls: Callable[[dict, State], list[dict]] | None = None
    # This event ends the game (a winner is known): the flash of the action that writes it, which says so, is shown
    # whole, never cut to the lines a success flash keeps to (gmtool.css .flash-whole), unless it is a single line
    # too long to join (web/screens.FLASH_JOINED). False (the default): an ordinary step.
    ends_game: bool = False


PANEL_OPS = frozenset({"confirm", "modifiers"})  # what a ruleset's GM panel may take over from the prompt card


@dataclass(frozen=True)
class PromptKind:
    """A ruleset's own kind of secret prompt (opened by its actions, answered on the usual routes)."""

    name: str
    validate: Callable[[Prompt, str, Any, State], Any]  # -> the normalised answer, or GmError
    text: Callable[..., str] | None = None  # how an answer reads in a sentence: text(answer) or text(answer, lang)
    template: str = ""  # the answer form the phone shows (a template name)
    term_text: Callable[[dict, str], str] | None = None  # how a term of its resolution reads in a language
                                                          # (default: the term's label in that language)
    # The GM operations on a revealed prompt of this kind that the ruleset's own GM panel offers ("confirm",
    # "modifiers"): the console's prompt card leaves them out, so each result has one button (the API keeps them).
    panel_ops: frozenset[str] = frozenset()

    def takes_lang(self) -> bool:
        """Whether `text` words the answer in the viewer's language (it takes a second argument)."""
        import inspect
        try:
            return len(inspect.signature(self.text).parameters) >= 2
        except (TypeError, ValueError):  # a builtin such as str
            return False


@dataclass(frozen=True)
class Choice:
    """One choice of a reading."""

    value: Any
    label: Label


@dataclass(frozen=True)
class Reading:
    """A reading of an ambiguous rule (RULES.md **Reading:**), switchable per session by the GM."""

    key: str
    rule: str
    label: Label
    choices: tuple[Choice, ...]
    default: Any

    def choice(self, value: Any) -> Choice | None:
        """The choice `value` names (compared as text, so form posts and JSON both match)."""
        text = _choice_text(value)
        return next((c for c in self.choices if _choice_text(c.value) == text), None)

    def to_dict(self, value: Any) -> dict:
        """JSON form, with the session's current value."""
        current = self.choice(value) or self.choice(self.default)
        return {"key": self.key, "rule": self.rule, "label": self.label.to_dict(), "value": value,
                "default": self.default, "current": current.label.to_dict() if current else None,
                "choices": [{"value": c.value, "label": c.label.to_dict()} for c in self.choices]}


def _choice_text(value: Any) -> str:
    """A choice's value as the text it is compared by (surrounding spaces left out, as of every text field)."""
    return str(value).lower() if isinstance(value, bool) or value is None else str(value).strip()


@dataclass
class ActionContext:
    """What an action may use besides the state: who acts, the session's dice, fresh salts."""

    actor: str  # "gm" or "seat:<id>"
    viewer: Viewer
    dice: Any  # an object with randint(sides) and next_index (core.dice)
    salt: Callable[[], str]
    resolvers: dict


@dataclass(frozen=True)
class RulesetAction:
    """A named step of a ruleset's flow (start a combat, roll the battle, apply cleanup …)."""

    name: str
    label: Label
    fn: Callable[[State, dict, ActionContext], list]
    who: str = "gm"  # "gm": the GM only; "seat": a seat (or the GM) may call it
    # Whether the GM's undo takes it back is not declared here: undo goes by the type of the first event the action
    # writes (EventType.undoable), and its docs page's `undo` column says what that gives (tests/gmtool_testing.py
    # holds the column to it at every action the tests take).


def action(name: str, ja: str, en: str, fn: Callable[[State, dict, ActionContext], list],
           who: str = "gm") -> tuple[str, RulesetAction]:
    """A (name, RulesetAction) pair for a ruleset's `actions` dict."""
    return name, RulesetAction(name, Label(ja, en), fn, who)


# -- campaigns -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Carry:
    """What a ruleset carries into the next session of a campaign (core writes it as events).

    counters: {seat id: {counter key: value}} (only these counters carry; the rest start afresh);
    events: drafts `(event type, data)` of the ruleset's own declared event types, written in order.
    """

    counters: dict[str, dict[str, int]] = field(default_factory=dict)
    events: tuple[tuple[str, dict], ...] = ()


# -- the leak probe (for the contract's meta-tests) ---------------------------------------------

@dataclass(frozen=True)
class Secret:
    """A unique marker planted in one secret, with who may see it (before and after the reveal)."""

    marker: str
    seen_by: frozenset[str]  # who may see it before the reveal: "gm", "table" and/or seat ids
    revealed_to: frozenset[str] = frozenset()  # who may see it too after the probe's reveal step


@dataclass(frozen=True)
class LeakProbe:
    """A scripted scene that plants a marker in every secret the ruleset keeps, then reveals some.

    `plant(table, marker)` drives a fresh session through `table` (the test harness: `table.seats`,
    `table.act(name, payload, who="gm")`, `table.answer(prompt, value, who)`, `table.state(who)`,
    `table.post(path, body, who)`; `who` is "gm" or a seat id) and returns the Secrets it planted;
    `marker(kind)` gives a unique text to put in one. `reveal(table)` then makes public what the
    game makes public (a true name seen through, a card turned up). tests/meta crawls every page,
    fragment, API route, live message and export for every token before and after.
    """

    plant: Callable[[Any, Callable[[str], str]], list[Secret]]
    reveal: Callable[[Any], None] | None = None
    seats: int = 2  # how many seats the crawl's session has


@dataclass(frozen=True)
class Demo:
    """A sample session `gmtool serve --demo` sets up, so a newcomer sees the game at once.

    `play(driver)` takes the same driver calls as the leak probe (`act`, `answer`, `post`, `state`). `scenes`: later
    steps of the same game, each played (with the same driver) after the one before, once `play` is done; the
    language crawl (tests/meta) reads every screen after each, so a screen only a later step shows is checked too;
    `gmtool serve --demo` shows `play`'s.
    """

    title: str
    seats: tuple[str, ...]
    counters: tuple[str, ...] = ()  # preset keys, for a ruleset whose GM picks the counters
    play: Callable[[Any], None] | None = None
    scenes: tuple[Callable[[Any], None], ...] = ()


# -- the declaration ------------------------------------------------------------------------------

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")


def has_japanese(text: str) -> bool:
    """Whether `text` holds kana or kanji (an English string must not)."""
    return bool(_JAPANESE.search(unicodedata.normalize("NFKC", text)))


@dataclass(frozen=True)
class Ruleset:
    """A game gmtool knows: the whole declaration (see the module docstring)."""

    name: str
    label: Label
    counters: tuple[CounterDef, ...] = ()
    presets: tuple[CounterDef, ...] = ()
    default_presets: tuple[str, ...] = ()  # the presets a new session gets when the GM picks none
    custom_counters: bool = False  # the GM picks / defines counters at session creation
    seats: tuple[int, int] = (0, 12)  # how many seats (players / factions) a session of this game has
    events: tuple[EventType, ...] = ()
    prompt_kinds: tuple[PromptKind, ...] = ()
    resolvers: dict[str, Resolver] = field(default_factory=dict)
    readings: tuple[Reading, ...] = ()
    actions: dict[str, RulesetAction] = field(default_factory=dict)
    view: Callable[[State, Viewer], dict] | None = None  # the ruleset's part of a viewer's view
    strings: dict[str, tuple[str, str]] = field(default_factory=dict)  # UI strings: key -> (ja, en)
    templates: dict[str, str] = field(default_factory=dict)  # "gm" / "table" / "phone" / "stage" / "history" -> template name
    template_dir: Path | None = None  # where its templates live (None: the top-level templates/)
    static_dir: Path | None = None  # its static files, served at /rulesets/<name>/static/
    stylesheet: str = ""  # a file the screens load: under static_dir, or under the top-level static/
    upcasters: dict[str, Callable[[dict], tuple[str, dict]]] = field(default_factory=dict)  # old type -> new
    # A scene heading (core's `scene.marked`) stored as plain text that an older version of this ruleset wrote for its
    # own steps, read in both languages: (state, title) -> {ja, en}, or None to read it as stored (as typed).
    old_scene_title: Callable[[State, str], dict | None] | None = None
    docs: str = ""  # its page, e.g. "docs/rulesets/<name>.md"
    leak_probe: LeakProbe | None = None  # plants and reveals its secrets for the leak crawl (tests/meta)
    # What the next session of a campaign starts with (`gmtool new --from`): state -> a Carry (counters'
    # values and drafts of this ruleset's own event types); None: every counter carries (core's default).
    carry_over: Callable[[State], "Carry"] | None = None
    demo: Demo | None = None  # the sample session of `gmtool serve --demo`
    # Whether the GM is a combatant (state -> bool): the GM console then hides answers until the reveal by
    # default (the GM's toggle overrides it). None: the GM only referees, answers show as they arrive.
    gm_combatant: Callable[[State], bool] | None = None
    # A counter changed outside the ruleset's actions (core's counter panel): (state, core's drafts) -> those
    # drafts followed by the ruleset's automatic consequences (an elimination at 0 …), written as one action.
    counter_settle: Callable[[State, list], list] | None = None
    # Flags the ruleset raises on seats from its own state, not from a counter's threshold (e.g. a player out of the
    # game): state -> {seat id: [(flag, its label)]}. Public: every viewer's `seats[].flags` carries them after
    # the counters' flags, so every screen that lists the seats' flags shows them (the phones' others card, the GM's
    # and the table's seat lists, the write-up's standings). None (the default): the counters' flags only.
    seat_flags: Callable[[State], dict[str, list[tuple[str, Label]]]] | None = None
    # Counters' threshold flags that a seat's own flag from `seat_flags` stands in for: a seat carrying one of those
    # shows none of these (a player out for one reason, whose 魔力 later reached 0, read two out flags).
    seat_flags_replace: tuple[str, ...] = ()
    # Whether the ruleset's phone panel shows the seat's own counters (and what their flags say) itself: (the
    # ruleset's part of the seat's view) -> bool. A phone then leaves out core's card of them, which would repeat
    # every number. None (the default): core's card always shows.
    phone_counters: Callable[[dict], bool] | None = None
    # The final part of a write-up (export/report.py): (the table's view of the state where the export ends, lang)
    # -> (column heads, one row per seat, lines under the table such as the result), or None for core's table
    # (every seat's public counters and flags). None (the default): core's table. It sees only the table's view.
    standings: Callable[[dict, str], tuple[list[str], list[list[str]], list[str]] | None] | None = None
    # The lines under core's table for a ruleset that keeps it (its `standings` is None or returns None): (the
    # table's view of the state where the export ends, lang) -> lines such as the game's result (who won, or that
    # it is not decided yet). The campaign's outcome of a session lists them after the seats' counters. None (the
    # default): no lines.
    standings_lines: Callable[[dict, str], list[str]] | None = None
    # The same final part as data for the JSON export (export/jsonio.py): (the table's view of the final state)
    # -> numbers, seat ids and names, no words of one language (what a program reads), or None. None (the
    # default): the JSON export has no `standings`.
    standings_data: Callable[[dict], dict | None] | None = None
    # The GM console's example of a secret prompt (the placeholders of its title and of its options, one per line):
    # something this game asks at the table. The default is neutral, for a game that names none.
    prompt_example: tuple[Label, Label] = (Label("次の行動", "Next move"),
                                           Label("攻める\n守る\n様子を見る", "Attack\nDefend\nWait and see"))

    def __post_init__(self):
        from .events import CORE_EVENTS, CORE_UPCASTERS  # core's own event types are declared with this contract
        table = {e.name: e for e in CORE_EVENTS}
        problems = self.problems(set(table))
        if problems:
            raise ValueError(f"ruleset {self.name}: " + "; ".join(problems))
        table.update({e.name: e for e in self.events})
        object.__setattr__(self, "_event_table", table)
        object.__setattr__(self, "_upcaster_table", {**CORE_UPCASTERS, **self.upcasters})  # looked up per event

    def problems(self, core_events: set[str]) -> list[str]:
        """What is wrong with this declaration (empty when it is whole)."""
        out = []
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", self.name):
            out.append("a ruleset name is lower-case letters, digits and _")
        if not 0 <= self.seats[0] <= self.seats[1] <= 12:
            out.append("seats is (fewest, most), within 0..12")
        keys = [c.key for c in self.counters]
        if len(set(keys)) != len(keys):
            out.append("duplicate counter keys")
        for c in self.counters + self.presets:
            if not c.is_in_range(c.start):
                out.append(f"counter {c.key} starts outside its bounds")
        for key in self.default_presets:
            if self.preset(key) is None:
                out.append(f"default preset {key} is not a preset")
        names = [e.name for e in self.events]
        if len(set(names)) != len(names):
            out.append("duplicate event types")
        for e in self.events:
            if not isinstance(e, EventType) or not callable(e.fold) or not callable(e.describe):
                out.append(f"event type {getattr(e, 'name', e)} lacks its fold or its log line")
            elif e.export is not None and not callable(e.export):
                out.append(f"event type {e.name}: its export line is not a function")
            elif e.rolls is not None and not callable(e.rolls):
                out.append(f"event type {e.name}: its rolls are not a function")
            elif not isinstance(e.visibility, Visibility):
                out.append(f"event type {e.name} declares no visibility")
            elif e.name in core_events:
                out.append(f"event type {e.name} is a core event type")
        for old in self.upcasters:
            if old in names:
                out.append(f"upcaster for {old} shadows a live event type")
        for r in self.readings:
            if not r.rule:
                out.append(f"reading {r.key} has no rule code")
            if r.choice(r.default) is None:
                out.append(f"reading {r.key}: its default is not one of its choices")
            for label in [r.label] + [c.label for c in r.choices]:
                out.extend(_label_problems(label, f"reading {r.key}"))
        if len({r.key for r in self.readings}) != len(self.readings):
            out.append("duplicate reading keys")
        for key, (ja, en) in self.strings.items():
            out.extend(_label_problems(Label(ja, en), f"string {key}"))
        for name, a in self.actions.items():
            if a.name != name or a.who not in ("gm", "seat"):
                out.append(f"action {name} is not declared with action()")
            out.extend(_label_problems(a.label, f"action {name}"))
        if self.old_scene_title is not None and not callable(self.old_scene_title):
            out.append("its old_scene_title is not a function")
        if self.seat_flags is not None and not callable(self.seat_flags):
            out.append("its seat_flags are not a function")
        if self.standings is not None and not callable(self.standings):
            out.append("its standings are not a function")
        if self.standings_data is not None and not callable(self.standings_data):
            out.append("its standings_data is not a function")
        kinds = [k.name for k in self.prompt_kinds]
        if len(set(kinds)) != len(kinds):
            out.append("duplicate prompt kinds")
        for k in self.prompt_kinds:
            if not set(k.panel_ops) <= PANEL_OPS:
                out.append(f"prompt kind {k.name}: panel_ops are among {sorted(PANEL_OPS)}")
        return out

    def __deepcopy__(self, memo) -> "Ruleset":
        return self  # a declaration is immutable: a copied state keeps the same rules

    # -- lookups ------------------------------------------------------------------------------
    def event_types(self) -> dict[str, EventType]:
        """Every event type a session of this ruleset can hold: core's and this ruleset's."""
        return self._event_table

    def event_type(self, name: str) -> EventType | None:
        """The declaration of one event type (None: unknown here, so the GM's alone)."""
        return self._event_table.get(name)

    def upcast(self, event: Event) -> Event:
        """An event stored by an older version in the shape this version folds."""
        fn = self._upcaster_table.get(event.type)
        if fn is None:
            return event
        new_type, data = fn(event.data)
        return Event(event.seq, event.ts, event.actor, event.action, new_type, data)

    def prompt_kind(self, name: str) -> PromptKind | None:
        """A prompt kind this ruleset declares."""
        return next((k for k in self.prompt_kinds if k.name == name), None)

    def reading(self, key: str) -> Reading | None:
        """The reading named `key`, core's (e.g. dice) or this ruleset's."""
        return next((r for r in self.all_readings() if r.key == key), None)

    def all_readings(self) -> tuple[Reading, ...]:
        """Core's readings (the session's dice) then this ruleset's."""
        from .events import CORE_READINGS
        return CORE_READINGS + self.readings

    def all_resolvers(self) -> dict[str, Resolver]:
        """The built-in resolvers plus this ruleset's own."""
        return {**BUILTIN, **self.resolvers}

    def default_counters(self) -> list[CounterDef]:
        """A new session's counters when the GM names none: the ruleset's own, then its default presets."""
        return list(self.counters) + [p for p in self.presets if p.key in self.default_presets]

    def preset(self, key: str) -> CounterDef | None:
        """The preset counter named `key`."""
        return next((c for c in self.presets if c.key == key), None)

    def is_undoable(self, event_type: str) -> bool:
        """Whether an action starting with `event_type` can be undone."""
        declared = self.event_type(event_type)
        return declared is not None and declared.undoable


def _label_problems(label: Label, where: str) -> list[str]:
    out = []
    if not label.ja.strip() or not label.en.strip():
        out.append(f"{where}: a text is missing in Japanese or English")
    elif has_japanese(label.en):
        out.append(f"{where}: the English text holds Japanese ({label.en!r})")
    return out


def readings_view(ruleset: Ruleset, state: State) -> list[dict]:
    """Every reading of the session with its current value (core serves them the same for every game).
    Every view has them (each screen, each change): each reading's dict is made once per value and shared,
    so callers only read it."""
    return [_reading_dict(r, state.readings.get(r.key, r.default)) for r in ruleset.all_readings()]


def _reading_dict(reading: Reading, value: Any) -> dict:
    try:
        return _kept_reading_dict(reading, value)
    except TypeError:  # an unhashable value (only a foreign log could hold one): made each time
        return reading.to_dict(value)


@lru_cache(maxsize=1024, typed=True)  # typed: True and 1 are different values of a reading
def _kept_reading_dict(reading: Reading, value: Any) -> dict:
    return reading.to_dict(value)


def reading_value(state: State, reading: Reading) -> Any:
    """The session's value of one reading (its default until the GM switches it)."""
    value = state.readings.get(reading.key, reading.default)
    chosen = reading.choice(value)
    return chosen.value if chosen else reading.default


def reading_values(state: State, readings: tuple[Reading, ...]) -> dict[str, Any]:
    """The session's values of several readings, by key."""
    return {r.key: reading_value(state, r) for r in readings}
