"""Golden files of one whole grail_trpg combat, one sugoroku round and one succession game in every format, checked for
validity (MediaWiki parses, Markdown renders, HTML loads nothing from outside), for the shape of a
replay (one line per decision, verification data in the appendix only) and for leaks (a true name
nobody has seen through never reaches a public export).

GMTOOL_UPDATE_GOLDEN=1 rewrites the files; review the diff.
"""

from __future__ import annotations

import json

import mwparserfromhell
import pytest
from export_session import check_golden
from markdown_it import MarkdownIt
from replay_sessions import (GRAIL, GRAIL_SECRET, SUCCESSION, SUGOROKU, SUGOROKU_REVEALED, SUGOROKU_SECRETS,
                             grail_combat, succession_scores, sugoroku_round)
from test_export_validity import _check_html

from gmtool.export import FORMAT_NAMES, Options, export

SUFFIX = {"markdown": "md", "mediawiki": "wiki", "atwiki": "atwiki.txt", "text": "txt", "html": "html",
          "json": "json"}
OPTIONS = {"ja": Options(times=False), "en": Options(times=False, lang="en")}
SESSIONS = {"grail": (grail_combat, GRAIL), "sugoroku": (sugoroku_round, SUGOROKU),
            "succession": (succession_scores, SUCCESSION)}


@pytest.fixture(scope="module")
def played():
    """Each session's events, built once."""
    return {name: (build().events, rules) for name, (build, rules) in SESSIONS.items()}


@pytest.mark.parametrize("name", SESSIONS)
@pytest.mark.parametrize("fmt", FORMAT_NAMES)
def test_golden(played, name, fmt):
    events, rules = played[name]
    check_golden(f"{name}.{SUFFIX[fmt]}", export(events, rules, fmt, OPTIONS["ja"]))


@pytest.mark.parametrize("name", SESSIONS)
@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_golden_english(played, name, fmt):
    events, rules = played[name]
    check_golden(f"{name}.en.{SUFFIX[fmt]}", export(events, rules, fmt, OPTIONS["en"]))


@pytest.mark.parametrize("name", SESSIONS)
@pytest.mark.parametrize("lang", OPTIONS)
def test_valid_markup(played, name, lang):
    events, rules = played[name]
    wiki = mwparserfromhell.parse(export(events, rules, "mediawiki", OPTIONS[lang]))
    assert wiki.filter_templates() == [] and wiki.filter_wikilinks() == []
    assert [str(link) for link in wiki.filter_external_links() if link.brackets] == []
    assert len(wiki.filter_headings()) >= 4
    tokens = MarkdownIt("commonmark").enable(["table"]).parse(export(events, rules, "markdown", OPTIONS[lang]))
    assert {t.type for t in tokens} & {"html_block", "html_inline", "code_block", "fence"} == set()
    assert {c.type for t in tokens for c in (t.children or [])} <= {"text", "softbreak"}
    page = export(events, rules, "html", OPTIONS[lang])
    checker = _check_html(page)
    assert not {name for name, _ in checker.attrs} & {"src", "href"}
    assert not checker.tags & {"script", "link", "img", "iframe", "object", "embed", "a", "base"}
    assert "url(" not in page and "@import" not in page
    json.loads(export(events, rules, "json", OPTIONS[lang]))


def _story(text: str, lang: str) -> str:
    """The write-up before its appendix."""
    return text[:text.index("付録" if lang == "ja" else "Appendix")]


@pytest.mark.parametrize("lang", OPTIONS)
def test_grail_reads_like_a_replay(played, lang):
    events, rules = played["grail"]
    text = export(events, rules, "text", OPTIONS[lang])
    story = _story(text, lang)
    selects = [line for line in story.splitlines() if ("セレクト [T-5/T-6/T-7]" if lang == "ja" else "select [T-5/T-6/T-7]")
               in line]
    assert len(selects) == 3  # one line per select: both stats with their values, one bracket, the winner
    assert "秘密で戦力を選択" not in story and "chooses a stat in secret" not in story  # no second line per select
    assert "リザルト [T-6/T-7]" not in story and "result [T-6/T-7]" not in story
    first = selects[0]
    if lang == "ja":
        assert "セイバー陣営【筋力】60 vs アーチャー陣営【耐久】25［修正 " in first and first.count("［") == 1
        assert "スキル〈怪力〉 +10[T-8]" in first and "−25[T-7]］ → セイバー陣営が優位" in first
        assert "令呪2: 宝具+30[T-13]］ → アーチャー陣営が優位" in selects[2]  # the amount once, not "+30 +30"
    else:
        assert "セイバー陣営 STR 60 vs アーチャー陣営 END 25 [modifiers, " in first
        assert "Skill <怪力> +10 [T-8]" in first and "−25 [T-7]] → セイバー陣営 gains the advantage" in first
    battle = next(line for line in story.splitlines() if "[T-10]" in line and "1d100" in line)
    assert "72" in battle and "84" in battle  # both rolls and the winner
    assert "salt" not in story and "一斉公開" not in story and "revealed" not in story
    assert "salt0001" in text[len(story):]  # the commitments are kept, in the appendix
    assert ("黒星 0→1" if lang == "ja" else "Black stars 0→1") in story  # who gained what


@pytest.mark.parametrize("fmt", [f for f in FORMAT_NAMES if f != "json"])
@pytest.mark.parametrize("lang", OPTIONS)
def test_a_select_is_one_line_in_every_format(played, fmt, lang):
    events, rules = played["grail"]
    story = _story(export(events, rules, fmt, OPTIONS[lang]), lang)
    assert story.count("セレクト" if lang == "ja" else " select ") == 3
    assert story.count("→ セイバー陣営が優位" if lang == "ja" else "→ セイバー陣営 gains the advantage") == 2


@pytest.mark.parametrize("lang", OPTIONS)
def test_sugoroku_reads_like_a_replay(played, lang):
    events, rules = played["sugoroku"]
    story = _story(export(events, rules, "markdown", OPTIONS[lang]), lang)
    turns = [line for line in story.splitlines() if "1D6" in line]
    assert len(turns) == 4 and all(" — " in line for line in turns)  # roll and move on one line


@pytest.mark.parametrize("fmt", [f for f in FORMAT_NAMES if f != "json"])
@pytest.mark.parametrize("lang", OPTIONS)
def test_a_sugoroku_battle_is_one_line_with_its_cards(played, fmt, lang):
    events, rules = played["sugoroku"]
    text = export(events, rules, fmt, OPTIONS[lang])
    story = _story(text, lang)
    battles = [line for line in story.splitlines() if ("戦闘（マス3）：" if lang == "ja" else "Battle on square 3:") in line]
    assert len(battles) == 1, battles
    line = battles[0]
    if lang == "ja":  # both totals with the cards played (terrain applied), the winner and the VP
        assert "セイバー（親） 12（伏せ札力7+1・力3+1） vs アーチャー（子） 8（魔5−1・技4） → セイバーの勝ち、戦果+4" in line
    else:
        assert "セイバー (parent) 12 (face-down Power 7+1, Power 3+1) vs アーチャー (child) 8 (Magic 5−1, Technique 4) → セイバー wins, VP +4" in line
    assert "戦闘開始" not in story and "Battle on square 3: parent" not in story and "力3」を追加" not in story
    appendix = text[len(story):]
    assert "salt0005" in appendix and "salt0005" not in story  # the commitments stay in the appendix
    assert "8f82f2860dfae7446599e902cb98c24fac48fc513961a72e10931a50eccc59a3" in appendix


def test_a_battle_still_going_reads_as_its_log_lines(played):
    events, rules = played["sugoroku"]
    ended = next(e for e in events if e.type == "sugoroku.battle_ended")
    before_end = [e for e in events if e.action < ended.action]
    story = _story(export(before_end, rules, "markdown", OPTIONS["ja"]), "ja")
    assert "戦闘開始（マス3）" in story and "カード「力3」を追加" in story and "戦闘（マス3）：" not in story


@pytest.mark.parametrize("fmt", FORMAT_NAMES)
@pytest.mark.parametrize("lang", OPTIONS)
def test_no_public_export_leaks_a_true_name(played, fmt, lang):
    grail = export(*played["grail"], fmt, OPTIONS[lang])
    assert GRAIL_SECRET not in grail
    sugoroku = export(*played["sugoroku"], fmt, OPTIONS[lang])
    for name in SUGOROKU_SECRETS:
        assert name not in sugoroku, name
    assert SUGOROKU_REVEALED in sugoroku


def test_succession_standings_are_words_in_the_write_ups_and_numbers_in_the_json(played):
    """G-2/G-3: the write-ups end with the final table and the result line in their language; the JSON export's
    `standings` holds each player's total and its G-2 terms as numbers and the result, the same in either language."""
    events, rules = played["succession"]
    assert "| A | 5（勢力5） | 10（2組） | 0 | 0 | 0 | 15 |" in export(events, rules, "markdown", OPTIONS["ja"])
    assert "| B | 14 (factions 6, 8) | 0 | +3 | −3 | 0 | 14 |" in export(events, rules, "markdown", OPTIONS["en"])
    standings = json.loads(export(events, rules, "json", OPTIONS["ja"]))["standings"]
    assert standings == json.loads(export(events, rules, "json", OPTIONS["en"]))["standings"]
    assert [(p["seat"], p["total"], p["majorities"], p["set_points"], p["plus"], p["minus"])
            for p in standings["players"]] == [("s1", 15, 5, 10, 0, 0), ("s2", 14, 14, 0, 3, 3)]
    assert standings["result"]["winner"] == "s1" and standings["result"]["reason"] == "score"
