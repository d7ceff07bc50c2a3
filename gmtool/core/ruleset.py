"""A ruleset is a frozen declaration: counters, presets, resolvers (DESIGN principle 5)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import CounterDef, Label
from .resolvers import BUILTIN, Resolver


@dataclass(frozen=True)
class Ruleset:
    """A game gmtool knows: its counters, counter presets and resolvers."""

    name: str
    label: Label
    counters: tuple[CounterDef, ...] = ()
    presets: tuple[CounterDef, ...] = ()
    resolvers: dict[str, Resolver] = field(default_factory=dict)
    custom_counters: bool = False  # the GM picks / defines counters at session creation

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
