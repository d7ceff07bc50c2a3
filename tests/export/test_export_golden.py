"""Golden files: the scripted session in every format, byte for byte (times left out).

GMTOOL_UPDATE_GOLDEN=1 rewrites the files; review the diff before keeping it. Besides the
byte comparison, each test checks what a wiki write-up must hold, so a golden file
rewritten with a regression in it still fails.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from export_session import (GENERIC, NASTY_MODIFIER, NASTY_SEAT, SCENE_TITLES, SECRET_ROLL_TEXT, TITLE, check_golden)

from gmtool.core.view import TABLE, visible_event
from gmtool.export import FORMAT_NAMES, Options, export
from gmtool.export.markup import MARKUPS
from gmtool.export.report import build_report, fold_all

SUFFIX = {"markdown": "md", "mediawiki": "wiki", "atwiki": "atwiki.txt", "text": "txt", "html": "html",
          "json": "json"}


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_golden(script, fmt):
    text = export(script.events, GENERIC, fmt, Options(times=False))
    check_golden(f"session.{SUFFIX[fmt]}", text)
    assert export(script.events, GENERIC, fmt, Options(times=False)) == text  # deterministic


@pytest.mark.parametrize("fmt", [f for f in FORMAT_NAMES if f != "json"])
def test_golden_english_by_faction(script, fmt):
    text = export(script.events, GENERIC, fmt, Options(times=False, lang="en", names="faction"))
    check_golden(f"session.en-faction.{SUFFIX[fmt]}", text)


def test_json_ignores_the_display_options(script):
    assert export(script.events, GENERIC, "json", Options(times=False, lang="en", names="faction")) == \
        export(script.events, GENERIC, "json", Options())


def _public_rolls(events):
    final = fold_all(events, GENERIC)
    return [e for e in events if e.type == "dice.rolled" and e.action not in final.undone
            and visible_event(e, final, TABLE) is not None]


@pytest.mark.parametrize("fmt", ["markdown", "mediawiki", "atwiki", "text"])
def test_write_up_holds_scenes_rolls_and_breakdowns(script, fmt):
    text = export(script.events, GENERIC, fmt, Options(times=False))
    m = MARKUPS[fmt]
    lines = text.splitlines()
    # A heading per scene, in order, after the opening.
    heading_level = 3 if fmt == "mediawiki" else 2
    positions = [lines.index(m.heading(heading_level, title).splitlines()[0])
                 for title in ["開始", *SCENE_TITLES, "最終状況"]]
    assert positions == sorted(positions)
    assert m.heading(1 if fmt != "mediawiki" else 2, TITLE).splitlines()[0] == lines[0]
    # Every public roll with its breakdown text; the kept-secret roll never.
    rolls = _public_rolls(script.events)
    assert len(rolls) == 3
    for e in rolls:
        assert m.escape(e.data["roll"]["text"]) in text, e.data["roll"]["text"]
    assert m.escape(SECRET_ROLL_TEXT) not in text
    # One line per decision: the answers, the GM's modifier in one bracket, the result that stood.
    report = build_report(script.events, GENERIC, Options(times=False))
    lines = [i.text for s in report.sections for i in s.items]
    assert f"「宝具の真名解放」: セイバー 7、アーチャー 5［修正: アーチャー +3〈{NASTY_MODIFIER}〉］ → アーチャーの勝ち（8）" in lines
    assert not any("一斉公開" in line or "を確定" in line or "秘密の質問" in line for line in lines)
    for line in lines:
        assert m.escape(line) in text
    # Who gained what joins the line of its action (the flag its counter raised).
    assert any(line.endswith(f"（{NASTY_SEAT}に討伐令）") for line in lines)
    # Standings after the story, then the appendix: every revealed answer with its salt and commitment.
    assert m.table(report.standings_head, report.standings) in text
    assert report.standings_head == ["席", "令呪", "カルマ", "戦果", "状態"]  # the private counter is left out
    assert [row[1:] for row in report.standings] == [["2", "0", "0", ""], ["3", "0", "3", ""],
                                                     ["3", "9", "0", "討伐令"]]
    assert [e.title for e in report.appendix] == ["宝具の真名解放", "1stセレクト", "同盟相手の投票"]
    for entry in report.appendix:
        assert m.table(["回答者", "回答", "ソルト", "コミットメント"], entry.rows) in text
    assert text.index(m.heading(heading_level, "最終状況").splitlines()[0]) < text.index("salt-p1-s1")


def test_vote_lines_show_seat_names_not_ids(script):
    report = build_report(script.events, GENERIC, Options(times=False))
    vote = next(i.text for s in report.sections for i in s.items if i.text.startswith("「同盟相手の投票」"))
    assert vote == f"「同盟相手の投票」: セイバー {NASTY_SEAT}、アーチャー {NASTY_SEAT}、{NASTY_SEAT} セイバー → " \
        + vote.split(" → ")[1]
    assert " s1" not in vote and " s3" not in vote
    faction = build_report(script.events, GENERIC, Options(times=False, names="faction"))
    vote = next(i.text for s in faction.sections for i in s.items if i.text.startswith("「同盟相手の投票」"))
    assert vote.startswith(f"「同盟相手の投票」: 衛宮 {NASTY_SEAT}、遠坂 {NASTY_SEAT}、{NASTY_SEAT} 衛宮")


def test_json_golden_is_the_public_log(script):
    doc = json.loads(export(script.events, GENERIC, "json", Options(times=False)))
    assert doc["schema"] == "gmtool.export/1" and doc["full"] is False
    assert doc["session"]["id"] == "golden01"
    seqs = [e["seq"] for e in doc["events"]]
    assert seqs == sorted(seqs)
    # Everything but the kept-secret roll and the private counter change is there.
    assert len(doc["events"]) == len(script.events) - 2


@pytest.fixture
def tokyo_time(monkeypatch):
    """Local time is Asia/Tokyo (UTC+9, no DST) for the duration of a test."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("fmt", ["markdown", "mediawiki", "atwiki", "text", "html"])
def test_times_are_local_hh_mm(script, fmt, tokyo_time):
    from gmtool.store import local_utc_offset
    assert local_utc_offset() == 9 * 60  # what the CLI and the GM console pass in Tokyo
    text = export(script.events, GENERIC, fmt, Options(times=True, utc_offset=local_utc_offset()))
    # The first counter change was at 10:01 UTC = 19:01 in Tokyo.
    assert re.search(r"19:01[ <].*令呪 3→2", text)
    times = re.findall(r"\b(\d\d:\d\d)\b", text)
    assert "19:02" in times and "19:31" in times
    assert "10:01" not in times
    untimed = export(script.events, GENERIC, fmt, Options(times=False))
    assert "19:01" not in untimed
