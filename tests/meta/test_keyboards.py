"""Phone keyboards: a field asks for the digits-only keypad (`inputmode="numeric"`) only when what it takes is one
whole number of 0 or more. An iPhone's numeric keypad has the keys 0-9 and nothing else: no minus, no space, no
comma, no slash. A field whose example reads "+10", "3 5", "3, 2" or "7/8/7/4", or whose value is shown with a sign,
could not be filled in on an iPhone with that keypad; without `inputmode` it opens the ordinary keyboard, whose
"123" key has all of them.

Read from the templates themselves (every game's): each `<input>` with `inputmode="numeric"`, its placeholder (a
literal or a UI string, in both languages) and its value's format.
"""

from __future__ import annotations

import re
from pathlib import Path

import gmtool.rulesets  # noqa: F401  registers every game's UI strings
from gmtool.i18n import STRINGS

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
INPUT = re.compile(r"<input\b(?:[^>{]|\{\{.*?\}\}|\{%.*?%\})*>", re.S)
PLACEHOLDER = re.compile(r'placeholder="([^"]*)"')
UI_STRING = re.compile(r"""\{\{\s*t\(['"]([\w.]+)['"]\)\s*\}\}""")
NOT_DIGITS = re.compile(r"[+\-−±]\s*\d|\d\s*[/,、，／]\s*\d|\d\s+\d")  # a sign, or two numbers with something between


def placeholder_texts(tag: str) -> list[str]:
    """What a field's placeholder reads, in both languages where it is a UI string (a template expression that is
    not a UI string, such as a prompt's bounds, is left out: it is checked where it is made)."""
    found = PLACEHOLDER.search(tag)
    if not found:
        return []
    text = found.group(1)
    keys = UI_STRING.findall(text)
    literal = UI_STRING.sub("", text)
    literal = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", literal)
    return [literal] + [words for key in keys for words in STRINGS.get(key, ("", ""))]


def numeric_fields() -> list[tuple[str, str]]:
    fields = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for tag in INPUT.findall(path.read_text(encoding="utf-8")):
            if 'inputmode="numeric"' in tag:
                fields.append((str(path.relative_to(TEMPLATES)), tag))
    return fields


def test_the_scan_finds_the_numeric_fields():
    """The scan reads real fields (a counter's set field on the console, a sugoroku card's power), so the test below
    cannot pass by finding none."""
    names = {re.search(r'name="([^"]+)"', tag).group(1) for _, tag in numeric_fields() if 'name="' in tag}
    assert {"value", "cost", "board_length"} <= names, names


def test_a_digits_only_keypad_only_for_a_whole_number_of_0_or_more():
    wrong = []
    for where, tag in numeric_fields():
        signed = "%+d" in tag  # a value shown as +10 / -5
        texts = [text for text in placeholder_texts(tag) if NOT_DIGITS.search(text)]
        if signed or texts:
            wrong.append((where, re.search(r'name="([^"]+)"', tag).group(1), texts or "value shown with its sign"))
    assert not wrong, f"fields an iPhone's digits-only keypad cannot fill in: {wrong}"


def test_the_check_would_see_each_kind_of_text():
    """The patterns read the examples this test is about (checked on its own, so the test above cannot pass through
    a pattern that matches nothing)."""
    for text in ("+10", "例: 3 5（振った順に）", "3, 2", "7/8/7/4", "±5", "-1"):
        assert NOT_DIGITS.search(text), text
    for text in ("6", "0", "支援の値", "Support value", ""):
        assert not NOT_DIGITS.search(text), text
