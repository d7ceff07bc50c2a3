"""grail_trpg: findings of a browser review of the combat screens (docs/rulesets/grail_trpg.md §5), through the
Flask test client: what the table screen's stage shows at each step, and the prompt cards of every screen."""

from __future__ import annotations

import re

from gmtool_testing import bearer, open_link
from test_grail_api import SABER, answer, call, confirm, grail, set_up, started, to_final  # noqa: F401  (grail: the fixture)


def stage(app, grail, lang="ja"):  # noqa: F811
    """The table screen's stage (#stage), as the TV shows it."""
    html = open_link(app, grail["table_url"]).get(f"/s/{grail['session']}/table?lang={lang}").get_data(as_text=True)
    return html[html.index('id="stage"'):html.index('id="table-summary"')]


def history(app, grail):  # noqa: F811
    html = open_link(app, grail["table_url"]).get(f"/s/{grail['session']}/table").get_data(as_text=True)
    return html[html.index('id="history"'):]


# -- 1. the revealed setup ------------------------------------------------------------------------

def test_the_stage_shows_a_revealed_setup_before_the_gm_confirms_it(app, client, grail):  # noqa: F811
    a, b = started(client, grail)
    answer(client, grail, "c1-setup", a, "s1")
    answer(client, grail, "c1-setup", b, "s2")
    for lang in ("ja", "en"):
        shown = stage(app, grail, lang)
        # 戦力 筋力: アルトリア 40 + 士郎 20→10 = 50 / エミヤ 30 + 凛 20→10 = 40; main and sub one term for the table.
        assert re.search(r'data-stage-force="a-筋力"><b>50</b>', shown), shown
        assert re.search(r'data-stage-force="b-筋力"><b>40</b>', shown)
        assert re.search(r'data-stage-force="b-魔力"><b>80</b>', shown)
        assert ("メイン アルトリア＋サブ 士郎の筋力" if lang == "ja" else "Main アルトリア + sub 士郎 STR") in shown
        assert "サブ 士郎の筋力 20" not in shown and "メイン アルトリアの筋力" not in shown  # T-4/T-9: no stat given away
        assert "士郎" in shown and "凛" in shown  # the cast, by name
    confirm(client, grail, "c1-setup")
    assert re.search(r'data-stage-force="a-筋力"><b>50</b>', stage(app, grail))


def test_t4_the_stage_names_main_and_sub_as_the_phone_and_the_console_do(app, client, grail):  # noqa: F811
    """Play-through: the table's stage wrote 「メイン: アルトリア ／ サブ: 士郎」 with colons where the phone's and the console's
    cast row, and every force term (rules.force_label), write 「メイン アルトリア」: one style everywhere (T-4)."""
    set_up(client, grail, *started(client, grail))
    for lang, want in (("ja", "メイン アルトリア ／ サブ 士郎"), ("en", "Main アルトリア / Sub 士郎")):
        shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", stage(app, grail, lang)))
        assert want in shown and "メイン:" not in shown and "Main:" not in shown, (lang, shown)
        for link, screen in ((grail["gm_url"], "gm"), (grail["seats"][0]["join_url"], "phone")):
            page = open_link(app, link).get(f"/s/{grail['session']}/{screen}?lang={lang}").get_data(as_text=True)
            cast = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r'<tr class="g-cast">.*?</tr>', page, re.S).group(0)))
            assert want.split(" ／ " if lang == "ja" else " / ")[0] in cast and ":" not in cast, (lang, cast)


def test_t7_a_value_halved_by_affinity_says_why_on_the_stage_before_the_rules_are_shown(app, client, grail):  # noqa: F811
    """Play-through: the stage showed アーチャー陣営's 耐久 50 as 25 with no reason until 根拠 was pressed (its terms, with
    the rule code, are hidden till then). Why a value is half is a game fact the players need: 「相性で半減」 / 'halved by
    affinity' stands beside the number, outside the hidden details, and no rule code with it (T-7)."""
    set_up(client, grail, *started(client, grail))
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "筋力"}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")  # セイバー陣営's 筋力 halves アーチャー陣営's 耐久 50 → 25
    for revealed in (True, False):
        for lang, why in (("ja", "相性で半減"), ("en", "halved by affinity")):
            shown = stage(app, grail, lang)
            side = re.search(r'<div class="g-stage-side[^"]*" data-side="b">.*?</div>', shown, re.S).group(0)
            outside = re.sub(r'<span class="g-stage-terms rule-detail">.*?</span></span></span>', "", side, flags=re.S)
            assert re.search(rf'<b class="g-stage-num">25</b>\s*<span class="g-stage-why"[^>]*>{why}</span>', outside), side
            assert "T-7" not in outside, outside
            a_side = re.search(r'<div class="g-stage-side[^"]*" data-side="a">.*?</div>', shown, re.S).group(0)
            assert "g-stage-why" not in a_side, a_side  # 筋力 50 as chosen: nothing to explain
        if revealed:
            confirm(client, grail, "c1-s1")  # the confirmed result on the stage says it alike


def test_t9_a_negative_modifier_reads_with_its_minus_sign_as_a_positive_one_with_its_plus(app, client, grail):  # noqa: F811
    """Play-through: 「勝率 -25」 with a hyphen beside 「+25」: a negative value read as a dash, not as the minus its
    breakdown subtracts. Every place a modifier or a win rate is shown (the table's stage and combat panel, the console,
    a phone, the log) writes a negative one with the minus sign −, as core's `num` filter and log lines do (T-9)."""
    to_final(client, grail)  # the final result: アーチャー陣営 −26, its terms (優位1 − 劣位2) × 20 → −20, …
    call(client, grail, "add_modifier", {"side": "a", "label": "軍略", "value": 25})
    call(client, grail, "add_modifier", {"side": "b", "label": "呪い", "value": -25})
    screens = {"table": open_link(app, grail["table_url"]), "gm": open_link(app, grail["gm_url"]),
               "phone": open_link(app, grail["seats"][1]["join_url"])}
    for lang in ("ja", "en"):
        for who, browser in screens.items():
            html = browser.get(f"/s/{grail['session']}/{who}?lang={lang}").get_data(as_text=True)
            shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index("<main"):]))
            assert "呪い −25" in shown and "軍略 +25" in shown, (who, lang)
            assert "× 20 → −20 " in shown and "−20 −20" not in shown and "−51" in shown, (who, lang)  # −26, then 呪い −25
            assert "× 20 → 20 " in shown and not re.search(r"× 20( →)? 20 20", shown), (who, lang)  # once (it read 「× 20 20」)
            assert not re.search(r"(?<![\w:/-])-\d", shown), (who, lang, re.findall(r".{30}(?<![\w:/-])-\d.{10}", shown))
        log = client.get(f"/api/sessions/{grail['session']}/log?lang={lang}", headers=bearer(grail["tok"]["gm"])).get_json()
        lines = [e["text"] for e in log["events"] if e["type"] in ("grail.modifier_added", "grail.final")]
        assert any(("勝率に修正 −25〈呪い〉" if lang == "ja" else "Win rate modifier −25 <呪い>") in x for x in lines), lines
        assert not any(re.search(r"(?<![\w:/-])-\d", x) for x in lines), lines
    stage_html = stage(app, grail)
    assert "<b class=\"g-stage-num\">−51</b>" in stage_html, stage_html


# -- 2. escapes -----------------------------------------------------------------------------------

def test_the_newest_escape_is_on_the_stage_with_its_breakdown(app, client, grail):  # noqa: F811
    to_final(client, grail)
    call(client, grail, "roll_battle", {"faces": [1, 90]})  # side a (セイバー陣営) loses
    out = call(client, grail, "escape", {"faction": "s1", "escaper_mod": 5, "faces": [70, 20]})
    escape = out["ruleset"]["combat"]["escapes"][-1]
    assert escape["escaped"] and escape["cost"]["cost"] == 1  # seal 7: 黒星 0 + 1
    for lang, words in (("ja", ("逃走判定", "令呪1画を使用（黒星0個 ＋ 1画）", "成功", "追跡側")), ("en", ("Escape", "1 Command Seal spent (0 black stars + 1)", "escaped", "Pursuer"))):
        shown = stage(app, grail, lang)
        assert 'id="grail-stage-escape"' in shown, shown
        for word in words:
            assert word in shown, (lang, word)
        assert re.search(r'data-stage-escape="escaper"[^>]*>.*?<b class="g-stage-num">75</b>', shown, flags=re.S)
        assert re.search(r'data-stage-escape="pursuer"[^>]*>.*?<b class="g-stage-num">20</b>', shown, flags=re.S)
        assert "セイバー陣営" in shown
    call(client, grail, "finish_combat")
    shown = stage(app, grail)
    assert 'id="grail-stage-cleanup"' in shown and 'id="grail-stage-escape"' not in shown  # the next step took over
    # Play-through: the done stage read 「セイバー陣営 黒星+1」 (and the console's and phones' 「敗退: なし」) with no word of
    # the escape that kept the loser in the war (T-11/T-12): the TV, the console and a phone say it, in both languages.
    screens = {"table": (open_link(app, grail["table_url"]), "grail-stage-cleanup"),
               "gm": (open_link(app, grail["gm_url"]), "grail-cleanup"),
               "phone": (open_link(app, grail["seats"][1]["join_url"]), "grail-cleanup")}
    for lang, words in (("ja", "逃走成功: セイバー陣営"), ("en", "escaped: セイバー陣営")):
        for who, (browser, line) in screens.items():
            html = browser.get(f"/s/{grail['session']}/{who}?lang={lang}").get_data(as_text=True)
            said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html.split(f'id="{line}">', 1)[1].split("</p>", 1)[0]))
            assert words in said, (who, lang, said)


def test_an_escape_that_ends_the_combat_at_setup_stays_on_the_stage(app, client, grail):  # noqa: F811
    started(client, grail)
    call(client, grail, "escape", {"faction": "s1", "let_go": True})  # the setup prompt is cancelled with it
    shown = stage(app, grail)
    assert 'id="grail-stage-escape"' in shown and "見逃し" in shown and "逃走により終了" in shown, shown


def test_a_failed_setup_escape_leaves_the_stage_when_the_combat_goes_on(app, client, grail):  # noqa: F811
    a, b = started(client, grail)
    call(client, grail, "escape", {"faction": "s2", "faces": [10, 90]})
    shown = stage(app, grail)
    assert 'id="grail-stage-escape"' in shown and "失敗" in shown and "アーチャー陣営" in shown
    assert "実ダイス" in shown  # the faces were entered at the table, as the history says too
    assert re.search(r'<p class="g-escape">[^\n]*class="badge real-dice"', history(app, grail))
    answer(client, grail, "c1-setup", a, "s1")
    assert 'id="grail-stage-escape"' not in stage(app, grail)  # waiting for アーチャー陣営 again


# -- 3. real dice ---------------------------------------------------------------------------------

def test_a_battle_roll_with_real_dice_is_marked_on_the_stage_and_in_the_history(app, client, grail):  # noqa: F811
    to_final(client, grail)
    call(client, grail, "roll_battle", {"faces": [90, 10]})
    for lang, badge in (("ja", "実ダイス"), ("en", "real dice")):
        shown = stage(app, grail, lang)
        assert re.search(r'class="badge real-dice"[^>]*>' + badge, shown), shown
    heading = re.search(r'class="g-battle">\s*<h4>(.*?)</h4>', history(app, grail), flags=re.S)
    assert heading and 'class="badge real-dice"' in heading.group(1), heading


def test_a_battle_roll_with_the_servers_dice_is_not_marked(app, client, grail):  # noqa: F811
    to_final(client, grail)
    call(client, grail, "roll_battle")
    assert "real-dice" not in stage(app, grail) and "real-dice" not in history(app, grail)


# -- 4. a result skill after the confirm ----------------------------------------------------------

RESULT_SABER = SABER.replace("宝具60\n", "宝具60\n- スキル 怪力 リザルト 筋力+20\n", 1)


def card(html, pid):
    m = re.search(r'<article class="prompt[^"]*" id="(?:history-)?prompt-' + pid + r'".*?</article>', html, flags=re.S)
    return m.group(0) if m else ""


def test_a_result_skill_after_the_confirm_revises_the_select_card_on_every_screen(app, client, grail):  # noqa: F811
    sid = grail["session"]
    started(client, grail, sheet=RESULT_SABER)
    set_up(client, grail, {"main": "s1/アルトリア"}, {"main": "s2/エミヤ"})
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "筋力"}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")
    confirm(client, grail, "c1-s1")
    screens = {"gm": (grail["gm_url"], "gm"), "table": (grail["table_url"], "table"),
               **{s["id"]: (s["join_url"], "phone") for s in grail["seats"]}}
    browsers = {who: open_link(app, url) for who, (url, _) in screens.items()}

    def cards():
        return {who: card(browsers[who].get(f"/s/{sid}/{page}").get_data(as_text=True), "c1-s1")
                for who, (_, page) in screens.items()}

    for who, shown in cards().items():  # 40 vs 耐久 40 halved by 筋力 = 20
        assert "セイバー陣営【筋力】40 vs アーチャー陣営【耐久】20" in shown, (who, shown[:400])
    combat = call(client, grail, "use_skill", {"skill": "s1/アルトリア:1"}, who="s1")["ruleset"]["combat"]
    assert combat["selects"][0]["result"]["a"]["value"] == 60  # the combat panel's number: 40 + 怪力 20
    for who, shown in cards().items():
        assert "セイバー陣営【筋力】60 vs アーチャー陣営【耐久】20" in shown, (who, shown[:400])
        assert "怪力" in shown and "【筋力】40 vs" not in shown, who
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(grail["tok"]["s2"])).get_json()
    prompt = next(p for p in state["prompts"] if p["id"] == "c1-s1")
    assert prompt["resolution"]["result"]["a"]["value"] == 60 and prompt["resolution"]["rows"][0]["total"] == 60
    # Undone, the card reads as confirmed again.
    assert client.post(f"/api/sessions/{sid}/undo", headers=bearer(grail["tok"]["gm"])).status_code == 200
    for who, shown in cards().items():
        assert "セイバー陣営【筋力】40 vs アーチャー陣営【耐久】20" in shown, who


def test_the_combat_panel_shows_a_revealed_setup_before_the_confirm_as_each_viewer_may_see_it(app, client, grail):  # noqa: F811
    """The combat panel (phones, console, the table's history) shows a revealed setup's 戦力 before the GM confirms
    it, as the stage does: main and sub one term for a viewer who has not seen through them (T-4/T-9)."""
    a, b = started(client, grail)
    answer(client, grail, "c1-setup", a, "s1")
    answer(client, grail, "c1-setup", b, "s2")
    sid = grail["session"]
    s2 = open_link(app, next(s["join_url"] for s in grail["seats"] if s["id"] == "s2"))
    html = s2.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'class="g-forces" data-pending="1"' in html
    assert re.search(r'data-force="a-筋力"><b class="g-total">50</b>', html), html
    assert "メイン アルトリア＋サブ 士郎の筋力" in html and "サブ 士郎の筋力 20" not in html
    gm = open_link(app, grail["gm_url"]).get(f"/s/{sid}/gm").get_data(as_text=True)
    assert "サブ 士郎の筋力 20→10" in gm  # the GM sees every term
    confirm(client, grail, "c1-setup")
    html = s2.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'class="g-forces">' in html and re.search(r'data-force="a-筋力"><b class="g-total">50</b>', html)


# -- 5. spacing of a force line ------------------------------------------------------------------

def test_a_force_line_keeps_its_stat_marker_apart_from_its_words(app, client, grail):  # noqa: F811
    """The table's history: a result row reads 「セイバー陣営 [STR] Force (STR) 50」, not 「[STR]Force」, and a win rate
    row 「セイバー陣営 (advantages 2 …」 (both languages); the setup's log line reads "force STR 50", not "STR50"."""
    to_final(client, grail)
    browser = open_link(app, grail["table_url"])
    for lang, row, rate in (("en", "セイバー陣営 [STR] Force (STR) 50", "セイバー陣営 (advantages 2"),
                            ("ja", "セイバー陣営【筋力】 戦力（筋力） 50", "セイバー陣営 (優位2")):
        html = browser.get(f"/s/{grail['session']}/table?lang={lang}").get_data(as_text=True)
        shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html[html.index('id="history"'):]))
        assert row in shown and rate in shown, (lang, shown[:2000])
    log = client.get(f"/api/sessions/{grail['session']}/log?lang=en", headers=bearer(grail["tok"]["gm"])).get_json()
    line = next(e["text"] for e in log["events"] if e["type"] == "grail.setup_done")
    assert "force STR 50 END 75 AGI 50" in line, line
    log = client.get(f"/api/sessions/{grail['session']}/log?lang=ja", headers=bearer(grail["tok"]["gm"])).get_json()
    line = next(e["text"] for e in log["events"] if e["type"] == "grail.setup_done")
    assert "戦力 【筋力】50 【耐久】75" in line, line  # Japanese: the brackets set the stat apart


# -- 5. who answers for a side ----------------------------------------------------------------------

def test_you_answer_for_your_side_shows_only_while_there_is_something_to_answer(app, client, grail):  # noqa: F811
    """Play-through g12_phone1_battle: 「あなたがこの側の回答者です」 showed on a phone in the battle, with nothing to
    answer. It is said on the setup / select form itself: there while the form is, gone in the battle."""
    phone = open_link(app, grail["seats"][0]["join_url"])

    def said(lang="ja"):
        html = phone.get(f"/s/{grail['session']}/phone?lang={lang}").get_data(as_text=True)
        return {"ja": "あなたがこの側の回答者です", "en": "You answer for your side"}[lang] in html

    a, b = started(client, grail)
    assert said() and said("en")  # the setup waits for this side's answer
    set_up(client, grail, a, b)
    assert not said()  # confirmed, the 1st select not opened yet: nothing to answer
    call(client, grail, "next_step")
    assert said()
    answer(client, grail, "c1-s1", {"stat": "筋力"}, "s1")
    answer(client, grail, "c1-s1", {"stat": "耐久"}, "s2")
    confirm(client, grail, "c1-s1")
    assert not said()
    three = [("魔力", "敏捷"), ("幸運", "宝具")]
    for n, (sa, sb) in enumerate(three, 2):
        call(client, grail, "next_step")
        answer(client, grail, f"c1-s{n}", {"stat": sa}, "s1")
        answer(client, grail, f"c1-s{n}", {"stat": sb}, "s2")
        confirm(client, grail, f"c1-s{n}")
    call(client, grail, "next_step")  # the final result, then the battle
    call(client, grail, "next_step")
    assert not said() and not said("en")


# -- 6. the cleanup's black star -------------------------------------------------------------------

def test_the_cleanups_black_star_reads_in_the_viewers_language_around_the_faction_name(app, client, grail):  # noqa: F811
    """Play-through g16_table_en: the English stage read 「アーチャー陣営 black star+1」. The words around the typed-in name
    are the viewer's language, the name set apart: "セイバー陣営: black star +1"; the console's cleanup line alike."""
    to_final(client, grail)
    call(client, grail, "roll_battle", {"faces": [1, 90]})  # side a (セイバー陣営) loses
    call(client, grail, "finish_combat")
    gm = open_link(app, grail["gm_url"])
    for lang, words in (("ja", "セイバー陣営 黒星+1"), ("en", "セイバー陣営: black star +1")):
        shown = stage(app, grail, lang)
        cleanup = shown.split('id="grail-stage-cleanup">', 1)[1].split("</p>", 1)[0]
        assert words in cleanup, cleanup
        console = gm.get(f"/s/{grail['session']}/gm?lang={lang}").get_data(as_text=True)
        assert words in console.split('id="grail-cleanup">', 1)[1].split("</p>", 1)[0]


# -- 5. undo ----------------------------------------------------------------------------------------

def test_after_an_undo_the_stage_shows_the_combat_only_as_it_stands(app, client, grail):  # noqa: F811
    """Review (undo, every ruleset's stage): a finished combat stays on the stage until the table moves on (a roll, a
    prompt, a scene), but it read the newest line, and after the GM undid a roll made once the table had moved on,
    that line was the undo: the finished combat came back under 「取り消し: …」. The stage reads the newest line that
    stands; and an undone battle roll or cleanup leaves the stage with the combat as it stands again."""
    gm = bearer(grail["tok"]["gm"])

    def roll():
        assert client.post(f"/api/sessions/{grail['session']}/rolls", headers=gm, json={"expr": "1D6"}).status_code == 201

    def undo():
        assert client.post(f"/api/sessions/{grail['session']}/undo", headers=gm).status_code == 200

    def undone_line(shown):
        line = re.search(r'<p class="stage-undone" id="stage-undone">(.*?)</p>', shown, re.S)
        return re.sub(r"<[^>]+>", "", line.group(1)) if line else None

    def under_it(shown):  # the ruleset's stage, under the undo's line
        return re.sub(r'<p class="stage-undone" id="stage-undone">.*?</p>', "", shown, flags=re.S)

    to_final(client, grail)
    call(client, grail, "roll_battle", {"faces": [1, 90]})  # side a (セイバー陣営) loses
    call(client, grail, "finish_combat")
    assert 'id="grail-stage-cleanup"' in stage(app, grail)
    roll()  # the table moves on
    roll()
    undo()  # the second roll: the first still stands, the finished combat stays off the stage
    shown = stage(app, grail)
    assert "g-stage" not in shown and "取り消し: GM 1D6" in shown, shown
    undo()  # the first roll: the stage is back where it was, the finished combat under the undo's line
    shown = stage(app, grail)
    assert 'id="grail-stage-cleanup"' in shown and undone_line(shown).startswith("取り消し: GM 1D6"), shown
    undo()  # the cleanup (T-11): the battle's result again, no black star
    shown = stage(app, grail)
    assert undone_line(shown).startswith("取り消し: クリンナップ"), shown
    assert 'id="grail-stage-cleanup"' not in shown and "黒星" not in under_it(shown) and 'data-stage-battle="a"' in shown
    undo()  # the battle roll (T-10): the win rates again, no winner
    shown = stage(app, grail)
    assert "data-stage-battle" not in shown and 'data-stage-winrate="a"' in shown and "勝者" not in under_it(shown), shown


def test_t13_a_seal_used_reads_its_effect_in_words_on_the_stage_and_the_phones(app, client, grail):  # noqa: F811
    """The stage and the combat panel read 「セイバー陣営: 令呪を使用: 効果 1」 / "used a Command Seal: effect 1": a
    number the players had to look up. Each seal now reads its number and what it did (T-13), seal 2 its stat."""
    a, b = started(client, grail)
    answer(client, grail, "c1-setup", {**a, "seal": 1}, "s1")
    answer(client, grail, "c1-setup", b, "s2")
    confirm(client, grail, "c1-setup")
    call(client, grail, "next_step")
    answer(client, grail, "c1-s1", {"stat": "宝具", "seal": {"effect": 2}}, "s1")
    answer(client, grail, "c1-s1", {"stat": "筋力"}, "s2")
    confirm(client, grail, "c1-s1")
    words = {"ja": ("セイバー陣営: 令呪1 · 自分のサーヴァントの全ステータス+10（戦闘中）",
                    "セイバー陣営: 令呪2 · 自分のサーヴァントのステータス1つ+30 【宝具】"),
             "en": ("セイバー陣営: Command Seal 1 · All own servant&#39;s stats +10 for the combat",
                    "セイバー陣営: Command Seal 2 · One stat of own servant +30 (NP)")}
    phone = open_link(app, grail["seats"][1]["join_url"])
    for lang, expected in words.items():
        pages = {"stage": stage(app, grail, lang),
                 "phone": phone.get(f"/s/{grail['session']}/phone?lang={lang}").get_data(as_text=True)}
        for where, html in pages.items():
            shown = re.findall(r'<span class="(?:pill )?g-seal">(.*?)</span>', html)
            assert shown == list(expected), (where, lang, shown)
