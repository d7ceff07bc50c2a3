"""Ruleset registry: built-in rulesets and any installed under the `gmtool.rulesets` entry-point group."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from gmtool.core.errors import GmError
from gmtool.core.ruleset import Ruleset
from gmtool.i18n import add_strings

from . import generic, grail_trpg, sugoroku



def _registered(ruleset: Ruleset) -> Ruleset:
    """A ruleset whose UI strings are in the one catalog."""
    add_strings(ruleset.strings)
    return ruleset


BUILTIN = {r.name: _registered(r) for r in (generic.RULESET, grail_trpg.RULESET, sugoroku.RULESET)}


@cache
def registry() -> dict[str, Ruleset]:
    """Every ruleset by name, validated once."""
    found = dict(BUILTIN)
    for ep in entry_points(group="gmtool.rulesets"):
        if ep.name not in found:
            ruleset = ep.load()
            if not isinstance(ruleset, Ruleset) or ruleset.name != ep.name:
                raise ValueError(f"entry point {ep.name} is not a Ruleset named {ep.name}")
            found[ep.name] = _registered(ruleset)
    return found


def get(name: str) -> Ruleset:
    """The ruleset named `name`, or a readable error."""
    ruleset = registry().get(name)
    if ruleset is None:
        raise GmError(f"ルール「{name}」はありません（{', '.join(registry())}）",
                      f"Unknown ruleset '{name}' (available: {', '.join(registry())})")
    return ruleset
