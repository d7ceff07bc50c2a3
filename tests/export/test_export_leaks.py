"""No export without secrets holds a secret: an unrevealed answer and its salt, a cancelled
prompt's answer, a GM-secret roll, a private counter change; nor an undone action's text.
"""

from __future__ import annotations

import itertools
import json

import pytest
from export_session import (GENERIC, CANCELLED_MARKER, CANCELLED_SALT, PRIVATE_REASON, SECRET_ROLL_LABEL, SECRET_ROLL_TEXT,
                            UNDONE_REASON, UNREVEALED_MARKER, UNREVEALED_SALT, events_of, play)

from gmtool.rulesets import get as get_ruleset
from gmtool.export import FORMAT_NAMES, Options, export, parse_export
from gmtool.runtime import SessionManager

SECRETS = [UNREVEALED_MARKER, UNREVEALED_SALT, CANCELLED_MARKER, CANCELLED_SALT, SECRET_ROLL_LABEL, "S1D20",
           PRIVATE_REASON]
TEXT_FORMATS = [f for f in FORMAT_NAMES if f != "json"]

OPTION_SETS = [Options(lang=lang, times=times, names=names, scene=scene)
               for lang, times, names, scene in itertools.product(("ja", "en"), (True, False),
                                                                  ("player", "faction"), (None, 0, 1, 2))]


def _assert_clean(text: str, also=()) -> None:
    for secret in [*SECRETS, *also]:
        assert secret not in text, secret
    assert SECRET_ROLL_TEXT not in text and "[17]" not in text


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_default_export_holds_no_secret(script, fmt):
    text = export(script.events, GENERIC, fmt)
    _assert_clean(text, also=() if fmt == "json" else (UNDONE_REASON,))


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_no_option_lets_a_secret_through(script, fmt):
    for options in OPTION_SETS:
        _assert_clean(export(script.events, GENERIC, fmt, options), also=(UNDONE_REASON,))


def test_undone_actions_are_left_out_of_the_write_up(script):
    for fmt in TEXT_FORMATS:
        text = export(script.events, GENERIC, fmt, Options(times=False))
        assert UNDONE_REASON not in text
        assert "取り消し: " not in text and "0→2" not in text  # neither the undo nor what it took back


def test_public_json_structure_holds_no_secret(script):
    doc = json.loads(export(script.events, GENERIC, "json"))
    assert doc["full"] is False and "secrets" not in doc and doc["session"]["seed"] is None
    by_type: dict[str, list[dict]] = {}
    for e in doc["events"]:
        by_type.setdefault(e["type"], []).append(e)
        assert "undone" not in e
    assert all(not e["data"]["roll"]["secret"] or e["data"]["label"] == "伏せ札" for e in by_type["dice.rolled"])
    for e in by_type["prompt.answered"]:
        if e["data"]["prompt"] in ("p4", "p5"):
            assert set(e["data"]) == {"prompt", "by", "commitment", "change"}
        else:  # revealed answers stay verifiable: value, salt and commitment
            assert {"value", "salt", "commitment"} <= set(e["data"])
    assert all(e["data"]["key"] != "mana" for e in by_type["counter.changed"])
    assert all("gm_summary" not in e["data"] for e in by_type["undo"])


def test_the_full_backup_holds_them_all(script):
    """The check above is not vacuous: the full backup (GM only) carries every secret."""
    text = export(script.events, GENERIC, "json", Options(), secrets={"seed": "00" * 32})
    for secret in SECRETS:
        assert secret in text, secret
    doc = json.loads(text)
    assert doc["full"] is True and doc["secrets"] == {"seed": "00" * 32}
    assert [e["seq"] for e in doc["events"]] == [e.seq for e in script.events]


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_a_public_export_read_back_stays_clean(script, fmt):
    """Secrets cannot come back through a public JSON export: re-exported, it holds none."""
    _header, events, secrets, _refused = parse_export(export(script.events, GENERIC, "json"), get_ruleset)
    assert secrets is None
    for options in (Options(), Options(secret_rolls=True), Options(lang="en", names="faction")):
        _assert_clean(export(events, GENERIC, fmt, options), also=(UNDONE_REASON,))
    # The unrevealed answer is there as a bare commitment, with no value and no salt.
    unrevealed = next(e for e in events if e.type == "prompt.answered" and e.data["prompt"] == "p4")
    assert "value" not in unrevealed.data and "salt" not in unrevealed.data


def test_the_write_up_is_the_same_from_the_public_export(script):
    """Everything the table may see survives the public JSON: the wiki text is identical."""
    _header, events, _, _refused = parse_export(export(script.events, GENERIC, "json"), get_ruleset)
    for fmt in TEXT_FORMATS:
        assert export(events, GENERIC, fmt, Options(times=False)) == export(script.events, GENERIC, fmt, Options(times=False))


def test_a_live_session_export_holds_no_secret(tmp_path):
    """The same on a session played through the runtime, with real random salts and seed."""
    manager = SessionManager(tmp_path)
    try:
        live, _tokens, secret = play(manager)
        unrevealed = live.state.prompts["p3"].answers["s1"]
        cancelled = live.state.prompts["p4"].answers["s2"]
        hidden = ["UNREVEALED-RT", unrevealed.salt, "CANCELLED-RT", cancelled.salt, "GMの秘密", secret["text"],
                  "PRIVATE-RT", live.seed.hex()]
        events = events_of(live)
        for fmt in FORMAT_NAMES:
            text = export(events, GENERIC, fmt)
            for value in hidden:
                assert value not in text, (fmt, value)
        full = export(events, GENERIC, "json", secrets=live.store.get_secrets())
        assert all(value in full for value in hidden)
    finally:
        manager.close_all()


def test_a_public_export_keeps_that_a_servant_was_set_not_its_cards(tmp_path):
    """ace_royal (A-1): a public export held no `servant_set` (the event was its seat's), so an imported session showed
    every servant unset, which the table had seen set. It holds each as the table reads it, `seat` and `rule`, and
    nothing of the cards: no name, stats or skill, in any format."""
    from gmtool import operations as ops
    from gmtool.core.view import GM, Viewer
    manager = SessionManager(tmp_path)
    try:
        live, _tokens = manager.create("卓", "ace_royal", [{"name": "凛"}, {"name": "ウェイバー"}])
        ops.ruleset_action(live, GM, "setup", {})
        ops.ruleset_action(live, Viewer("seat", "s1"), "set_servant", {
            "hero": {"name": "HERO-SECRET", "stats": "6/5/3/3", "skills": ["intuition"]},
            "class": {"name": "CLASS-SECRET", "stats": "3/3/1/5"}})
        events, rules = events_of(live), get_ruleset("ace_royal")
        for fmt in FORMAT_NAMES:
            text = export(events, rules, fmt)
            assert not [s for s in ("HERO-SECRET", "CLASS-SECRET", "intuition", "直感") if s in text], fmt
        doc = json.loads(export(events, rules, "json"))
        assert [e["data"] for e in doc["events"] if e["type"] == "ace_royal.servant_set"] == [{"seat": "s1", "rule": "A-1"}]
        assert "HERO-SECRET" in export(events, rules, "json", secrets=live.store.get_secrets())  # not vacuous
    finally:
        manager.close_all()


def test_a_public_export_keeps_how_many_true_names_were_seen_not_whose(tmp_path):
    """grail_trpg (T-9): a public export's seen_set held only how many, and its import folded nothing of it: the table
    read 真名看破 0 and a win rate without its 真名看破 term, where it had read 1 and +15. It holds what the table read,
    `count` and the shown combat's term `combat_seen`, and never whom: no seen character's id in any seen_set."""
    from gmtool import operations as ops
    from gmtool.core import engine
    from gmtool.core.view import GM, TABLE, Viewer
    from gmtool.rulesets import get as rules_named
    manager = SessionManager(tmp_path)
    try:
        live, _tokens = manager.create("聖杯戦争", "grail_trpg", [{"name": "セイバー陣営"}, {"name": "アーチャー陣営"}])
        ops.ruleset_action(live, GM, "set_characters", {"faction": "s1", "characters": [
            {"name": "剣", "class_name": "セイバー", "true_name": "TRUE-SABER", "stats": {"筋力": 40, "耐久": 60, "敏捷": 40, "魔力": 55, "幸運": 40, "宝具": 60}}]})
        ops.ruleset_action(live, GM, "set_characters", {"faction": "s2", "characters": [
            {"name": "弓", "class_name": "アーチャー", "true_name": "TRUE-ARCHER", "stats": {"筋力": 30, "耐久": 40, "敏捷": 40, "魔力": 50, "幸運": 30, "宝具": 50}},
            {"name": "凛", "stats": {"筋力": 20, "耐久": 20, "敏捷": 30, "魔力": 55, "幸運": 40, "宝具": 20}}]})
        ops.ruleset_action(live, GM, "start_combat", {"a": ["s1"], "b": ["s2"]})
        ops.answer(live, Viewer("seat", "s1"), "c1-setup", {"value": {"main": "s1/剣"}})
        ops.answer(live, Viewer("seat", "s2"), "c1-setup", {"value": {"main": "s2/弓", "sub": "s2/凛"}})
        ops.prompt_action(live, GM, "c1-setup", "confirm", {})
        ops.ruleset_action(live, GM, "set_seen", {"faction": "s1", "seen": ["s2/凛"]})  # the sub: whom is s1's own
        events, rules = events_of(live), get_ruleset("grail_trpg")
        doc = json.loads(export(events, rules, "json"))
        seen = [e["data"] for e in doc["events"] if e["type"] == "grail.seen_set"]
        assert seen == [{"faction": "s1", "count": 1, "combat_seen": {"combat": "c1", "count": 1}}]
        for fmt in FORMAT_NAMES:
            assert not [s for s in ("TRUE-SABER", "TRUE-ARCHER") if s in export(events, rules, fmt)], fmt
        _header, imported, _secrets, _refused = parse_export(json.dumps(doc), rules_named)
        state = engine.fold(imported, rules, set())
        shown = {v: rules.view(s, TABLE) for v, s in (("live", live.state), ("imported", state))}
        for view in shown.values():
            assert [f["seen_count"] for f in view["factions"]] == [1, 0]
            assert {t["label"]["en"]: t["value"] for t in view["combat"]["win_rates"]["a"]["terms"]}[
                "true names seen 1 × 15"] == 15
    finally:
        manager.close_all()
