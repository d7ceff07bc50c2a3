"""Grail Succession screens: every UI string the templates use is declared in both languages, so players
read words, never keys."""

from __future__ import annotations

import re
from pathlib import Path

from gmtool.core.ruleset import has_japanese
from gmtool.rulesets.succession import RULESET

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "rulesets" / "succession"


def test_every_string_the_screens_use_is_declared_in_japanese_and_english():
    used = set()
    for path in TEMPLATES.glob("*.html"):
        used |= set(re.findall(r"t\('(succession\.[a-z_]+)'\)", path.read_text(encoding="utf-8")))
    assert len(used) > 40
    assert sorted(used - set(RULESET.strings)) == []
    for key in used:
        ja, en = RULESET.strings[key]
        assert ja.strip() and en.strip(), key
        assert not has_japanese(en), key


def test_the_declaration_names_its_screens_docs_and_readings_with_rule_codes():
    assert set(RULESET.templates) == {"gm", "stage", "table", "history", "phone"}
    for name in RULESET.templates.values():
        assert (TEMPLATES.parent.parent / name).is_file()
    assert Path(__file__).resolve().parents[2].joinpath(RULESET.docs).is_file()
    assert {r.key: r.rule for r in RULESET.readings} == {"first_player": "G-1", "tie": "G-3"}
    assert RULESET.leak_probe is None  # nothing secret: every card gmtool knows is face up
