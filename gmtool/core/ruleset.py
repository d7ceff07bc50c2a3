"""A ruleset is a frozen declaration: counters, presets, resolvers, actions (DESIGN principle 5).

Everything a ruleset adds is pure: actions are commands `(state, payload, ctx) -> drafts`,
its view is `(state, viewer) -> dict` (secrets stripped there), its prompt kinds validate
answers. The web layer serves them generically: `POST /api/sessions/<id>/actions/<name>`,
the GM console / table / phone include the ruleset's templates with `view["ruleset"]`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .model import CounterDef, Label, State
from .resolvers import BUILTIN, Resolver


@dataclass
class ActionContext:
    """What an action may use besides the state: who acts, the session's dice, fresh salts."""

    actor: str  # "gm" or "seat:<id>"
    viewer: Any  # core.view.Viewer
    dice: Any  # an object with randint(sides) and next_index
    salt: Callable[[], str]
    resolvers: dict


@dataclass(frozen=True)
class RulesetAction:
    """A named step of a ruleset's flow (start a combat, roll the battle, apply cleanup …)."""

    name: str
    label: Label
    fn: Callable[[State, dict, ActionContext], list]
    who: str = "gm"  # "gm": the GM only; "seat": a seat (or the GM) may call it


def action(name: str, ja: str, en: str, fn: Callable[[State, dict, ActionContext], list],
           who: str = "gm") -> tuple[str, RulesetAction]:
    """A (name, RulesetAction) pair for a ruleset's `actions` dict."""
    return name, RulesetAction(name, Label(ja, en), fn, who)


@dataclass(frozen=True)
class Ruleset:
    """A game gmtool knows: its counters, counter presets and resolvers."""

    name: str
    label: Label
    counters: tuple[CounterDef, ...] = ()
    presets: tuple[CounterDef, ...] = ()
    resolvers: dict[str, Resolver] = field(default_factory=dict)
    custom_counters: bool = False  # the GM picks / defines counters at session creation
    actions: dict[str, RulesetAction] = field(default_factory=dict)
    view: Callable[[State, Any], dict] | None = None  # the ruleset's part of a viewer's view
    templates: dict[str, str] = field(default_factory=dict)  # "gm" / "table" / "phone" -> template path
    prompt_templates: dict[str, str] = field(default_factory=dict)  # custom prompt kind -> answer form
    readings: tuple[dict, ...] = ()  # {"key", "rule", "default", "choices": [{"value", "ja", "en"}]}
    undoable_events: frozenset[str] = frozenset()  # event types that start an undoable action
    stylesheet: str = ""  # a file under static/ that the screens load (e.g. "rulesets/grail.css")
    strings: dict[str, tuple[str, str]] = field(default_factory=dict)  # UI strings: key -> (ja, en)

    def __post_init__(self):
        keys = [c.key for c in self.counters]
        if len(set(keys)) != len(keys):
            raise ValueError(f"ruleset {self.name}: duplicate counter keys")
        for c in self.counters + self.presets:
            if not c.is_in_range(c.start):
                raise ValueError(f"ruleset {self.name}: counter {c.key} starts outside its bounds")

    def all_resolvers(self) -> dict[str, Resolver]:
        """The built-in resolvers plus this ruleset's own."""
        return {**BUILTIN, **self.resolvers}

    def preset(self, key: str) -> CounterDef | None:
        """The preset counter named `key`."""
        return next((c for c in self.presets if c.key == key), None)
