"""docs/rulesets/ace_royal.md documents every action and reading the declaration has, and no other."""

import re
from pathlib import Path

from gmtool.rulesets.ace_royal import RULESET

DOC = (Path(__file__).resolve().parents[2] / RULESET.docs).read_text(encoding="utf-8")


def _section(title: str) -> str:
    return DOC.split(f"## {title}")[1].split("\n## ")[0]


def test_every_action_is_documented_with_who_may_call_it():
    rows = re.findall(r"^\| `(\w+)` \| (GM|seat)", _section("2. Actions"), re.M)
    assert {name for name, _ in rows} == set(RULESET.actions)
    for name, who in rows:
        assert RULESET.actions[name].who == who.lower(), name


def test_every_reading_is_documented_with_its_rule_code_and_choices():
    rows = re.findall(r"^\| `(\w+)` \| (A-\d+) \| (.+)$", _section("3. Readings"), re.M)
    assert {key for key, _, _ in rows} == {r.key for r in RULESET.readings}
    for key, rule, choices in rows:
        reading = RULESET.reading(key)
        assert reading.rule == rule
        assert [f"`{c.value}`" in choices for c in reading.choices] == [True] * len(reading.choices)
        assert choices.index(f"`{reading.default}`") == choices.index("`")  # the default is listed first


def test_an_event_that_records_a_reading_documents_each_of_its_values():
    """ace_royal.first_rolled's `ties` is the reading first_ties in force (A-5): its row named only "reroll", so a log
    read with the reading at "seat_order" held a value the table does not list."""
    for event, key in (("ace_royal.first_rolled", "first_ties"), ("ace_royal.master_passed", "master_pass")):
        row = next(line for line in DOC.splitlines() if line.startswith(f"| `{event}` |"))
        for choice in RULESET.reading(key).choices:
            assert f'`"{choice.value}"`' in row, (event, choice.value)
