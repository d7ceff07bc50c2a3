"""The ruleset registry: every ruleset installed under the `gmtool.rulesets` entry-point group.

The built-in games load exactly as a third-party one does (pyproject.toml names them), so a
community game is a pip package that declares one `Ruleset`. Each is validated when it is made
(core/ruleset.py) and checked here once: its entry-point name is its own, and its UI strings
join the one catalog without redefining another game's.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from gmtool.core.errors import GmError, choices_text
from gmtool.core.ruleset import Ruleset
from gmtool.i18n import add_strings

GROUP = "gmtool.rulesets"


@cache
def registry() -> dict[str, Ruleset]:
    """Every installed ruleset by name, loaded and checked once."""
    found: dict[str, Ruleset] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        ruleset = ep.load()
        if not isinstance(ruleset, Ruleset) or ruleset.name != ep.name:
            raise ValueError(f"entry point {ep.name} ({ep.value}) is not a Ruleset named {ep.name}")
        if ep.name in found:
            continue  # the same distribution seen twice on sys.path
        add_strings(ruleset.strings)
        found[ep.name] = ruleset
    if "generic" not in found:
        raise RuntimeError("gmtool's rulesets are not registered: install gmtool (pip install -e .) first")
    return found


def get(name: str) -> Ruleset:
    """The ruleset named `name`, or a readable error."""
    ruleset = registry().get(name)
    if ruleset is None:
        ja, en = choices_text({key: found.label for key, found in registry().items()})
        raise GmError(f"ルール「{name}」はありません（{ja}）", f"Unknown ruleset '{name}' (available: {en})")
    return ruleset
