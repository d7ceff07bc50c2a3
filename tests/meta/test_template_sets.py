"""Templates: a `{% set name = expression %}` is not repeated while the first is still in scope (the same value
worked out twice, one of the copies left behind when the other is changed). Read from every template: `for`,
`macro`, `call`, `block` and `filter` open a scope (an `if` does not), so the same line in two loops, or in two
branches' loops, is fine."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TAG = re.compile(r"\{%-?\s*(\w+)(.*?)-?%\}", re.S)
SCOPES = {"for", "macro", "call", "block", "filter"}


def repeated_sets(text: str) -> list[str]:
    stack: list[set[str]] = [set()]
    found = []
    for m in TAG.finditer(text):
        word, rest = m.group(1), " ".join(m.group(2).split())
        if word in SCOPES:
            stack.append(set())
        elif word.startswith("end") and word[3:] in SCOPES and len(stack) > 1:
            stack.pop()
        elif word == "set" and "=" in rest:
            if any(rest in frame for frame in stack):
                found.append(f"line {text.count(chr(10), 0, m.start()) + 1}: set {rest}")
            stack[-1].add(rest)
    return found


def test_no_template_sets_the_same_value_twice_in_one_scope():
    found = {str(p.relative_to(TEMPLATES)): repeated_sets(p.read_text(encoding="utf-8"))
             for p in sorted(TEMPLATES.rglob("*.html"))}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_check_sees_a_repeat_and_lets_separate_loops_be():
    assert repeated_sets("{% set a = b %}{% if x %}{% set a = b %}{% endif %}") == ["line 1: set a = b"]
    assert repeated_sets("{% for i in l %}{% set a = b %}{% endfor %}{% for i in l %}{% set a = b %}{% endfor %}") == []
