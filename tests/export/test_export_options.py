"""Export options: language, names, one scene (with the standings where it ends), secret rolls."""

from __future__ import annotations

import json

import pytest
from export_session import GENERIC, NASTY_SEAT, SCENE_TITLES, SECRET_ROLL_LABEL, SECRET_ROLL_TEXT

from gmtool.core.errors import GmError
from gmtool.export import FORMAT_NAMES, Options, export
from gmtool.export.markup import MARKUPS
from gmtool.export.report import build_report

TEXT_FORMATS = ["markdown", "mediawiki", "atwiki", "text", "html"]


def _standings(report) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in report.standings}


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_english_labels(script, fmt):
    en = export(script.events, GENERIC, fmt, Options(times=False, lang="en"))
    for label in ("Opening", "Standings", "Seat", "Command Seals", "Karma", "Victory points", "Flags",
                  "Subjugation order", "Ruleset", "Dice seed SHA-256", "Who", "Answer", "Salt", "Commitment",
                  "Appendix: verification data", "modifiers", "wins (8)"):
        assert label in en, label
    for label in ("開始", "最終状況", "令呪 3→2", "回答者", "コミットメント", "付録", "修正", "勝ち", "討伐令"):
        assert label not in en, label
    ja = export(script.events, GENERIC, fmt, Options(times=False))
    assert "開始" in ja and "最終状況" in ja and "Standings" not in ja


def test_names_faction_replaces_seat_names_in_tables_and_lines(script):
    report = build_report(script.events, GENERIC, Options(times=False, names="faction"))
    assert [row[0] for row in report.standings] == ["衛宮", "遠坂", NASTY_SEAT]  # no faction: the seat name
    assert dict(report.meta)["席"] == f"衛宮、遠坂、{NASTY_SEAT}"
    items = [i for s in report.sections for i in s.items]
    answers = [row for entry in report.appendix for row in entry.rows]
    assert {row[0] for row in answers} == {"衛宮", "遠坂", NASTY_SEAT}
    assert [row[1] for row in answers if row[0] == NASTY_SEAT][-1] == "衛宮"  # a seat vote shows the faction
    lines = [i.text for i in items if i.kind in ("line", "roll", "change")]
    assert "衛宮: 令呪 3→2 (-1)（令呪: 自害を阻止）" in lines
    assert "遠坂 魔術判定: 1D100<=60 → [42] → 42 ≤ 60 成功" in lines
    assert not any(line.startswith(("セイバー", "アーチャー")) for line in lines)
    player = build_report(script.events, GENERIC, Options(times=False))
    assert [row[0] for row in player.standings] == ["セイバー", "アーチャー", NASTY_SEAT]


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_names_option_reaches_every_format(script, fmt):
    faction = export(script.events, GENERIC, fmt, Options(times=False, names="faction"))
    player = export(script.events, GENERIC, fmt, Options(times=False))
    assert "衛宮" in faction and "遠坂" in faction
    assert "衛宮" not in player and "遠坂" not in player


def test_scene_exports_one_scene_with_its_standings(script):
    whole = build_report(script.events, GENERIC, Options(times=False))
    assert [s.title for s in whole.sections] == ["開始", *SCENE_TITLES]

    opening = build_report(script.events, GENERIC, Options(times=False, scene=0))
    assert [s.title for s in opening.sections] == ["開始"]
    assert len(opening.sections[0].items) == 2
    # No flag stands yet: the empty 状態 column is left out.
    assert opening.standings_head[-1] != "状態"
    assert _standings(opening) == {"セイバー": ["2", "0", "0"], "アーチャー": ["3", "0", "0"],
                                   NASTY_SEAT: ["3", "0", "0"]}

    first = build_report(script.events, GENERIC, Options(times=False, scene=1))
    assert [s.title for s in first.sections] == [SCENE_TITLES[0]]
    assert first.sections[0].items == whole.sections[1].items
    # At the end of scene 1: karma 9 and its flag, but not scene 2's victory points.
    assert _standings(first) == {"セイバー": ["2", "0", "0", ""], "アーチャー": ["3", "0", "0", ""],
                                 NASTY_SEAT: ["3", "9", "0", "討伐令"]}

    last = build_report(script.events, GENERIC, Options(times=False, scene=2))
    assert [s.title for s in last.sections] == [SCENE_TITLES[1]]
    assert last.standings == whole.standings


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_scene_option_in_every_format(script, fmt):
    text = export(script.events, GENERIC, fmt, Options(times=False, scene=1))
    assert "夜の港" in text and "教会" not in text and "開始" not in text and "偵察" not in text
    assert "最終状況" in text


@pytest.mark.parametrize("scene", [-1, 3, 99])
@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_scene_out_of_range_is_an_error(script, fmt, scene):
    if fmt == "json":  # the JSON export is the whole log: it has no scene option
        json.loads(export(script.events, GENERIC, fmt, Options(scene=scene)))
        return
    with pytest.raises(GmError) as error:
        export(script.events, GENERIC, fmt, Options(scene=scene))
    assert f"scene {scene}" in error.value.en


def test_unknown_format_is_an_error(script):
    with pytest.raises(GmError) as error:
        export(script.events, GENERIC, "pdf")
    assert "pdf" in error.value.en and "markdown" in error.value.en


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_secret_rolls_option(script, fmt):
    escape = MARKUPS[fmt].escape if fmt in MARKUPS else (lambda t: t.replace(">", "&gt;"))
    without = export(script.events, GENERIC, fmt, Options(times=False))
    assert SECRET_ROLL_LABEL not in without and escape(SECRET_ROLL_TEXT) not in without
    with_secret = export(script.events, GENERIC, fmt, Options(times=False, secret_rolls=True))
    assert SECRET_ROLL_LABEL in with_secret and escape(SECRET_ROLL_TEXT) in with_secret
    assert "［秘密］GM SECRET-ROLL-LABEL-K7" in with_secret  # marked as the GM's secret roll
    # The revealed secret roll is in both.
    assert "伏せ札" in without and "伏せ札" in with_secret


def test_secret_rolls_option_in_the_json_export(script):
    def rolls(options):
        doc = json.loads(export(script.events, GENERIC, "json", options))
        return [e["data"]["label"] for e in doc["events"] if e["type"] == "dice.rolled"]

    assert rolls(Options()) == ["偵察", "魔術判定", "伏せ札"]
    assert rolls(Options(secret_rolls=True)) == ["偵察", "魔術判定", SECRET_ROLL_LABEL, "伏せ札"]


def test_names_faction_reaches_stored_result_summaries(script):
    """A result's summary was stored with the seat names of its time: the body follows the option anyway."""
    for lang, wins, again in (("ja", "遠坂の勝ち（8）", "重複のため選び直し：衛宮・遠坂"),
                              ("en", "遠坂 wins (8)", "Duplicates, choose again: 衛宮, 遠坂")):
        for fmt in TEXT_FORMATS:
            text = export(script.events, GENERIC, fmt, Options(times=False, lang=lang, names="faction"))
            story = text[:text.index("付録" if lang == "ja" else "Appendix")]
            assert wins in story and again in story, (fmt, lang)
            assert "セイバー" not in story and "アーチャー" not in story, (fmt, lang)


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_names_faction_reaches_a_grail_combat(fmt, lang):
    """A combat's side names (stored when it started) and its heading follow the option too."""
    from replay_sessions import GRAIL, grail_combat
    events = grail_combat().events
    text = export(events, GRAIL, fmt, Options(times=False, lang=lang, names="faction"))
    story = text[:text.index("付録" if lang == "ja" else "Appendix")]
    assert "陣営" not in story.replace("各陣営", "")  # セイバー陣営 / アーチャー陣営 are the seat names
    assert ("衛宮【筋力】60 vs 遠坂【耐久】25" if lang == "ja" else "衛宮 STR 60 vs 遠坂 END 25") in story
    assert "衛宮 vs 遠坂" in story
    player = export(events, GRAIL, fmt, Options(times=False, lang=lang))
    assert "衛宮" not in player[:player.index("付録" if lang == "ja" else "Appendix")]


def test_names_replace_whole_words_of_ascii_names():
    """Seat "A" becomes its faction in "A wins" but leaves "Attack" and "AB" alone."""
    from gmtool.core.model import Seat, State
    from gmtool.export.report import Names
    state = State(rules=GENERIC)
    state.seats = {"s1": Seat("s1", "A", faction="遠坂"), "s2": Seat("s2", "B")}
    names = Names(state, "faction")
    assert names.sentence("A wins (Attack 8, AB 2)") == "遠坂 wins (Attack 8, AB 2)"
    assert names.exact("A") == "遠坂" and names.exact("A・B") == "遠坂・B" and names.exact("Attack") == "Attack"
    assert Names(state, "player").sentence("A wins") == "A wins"
