"""Sugoroku (S) as the GM console, the table screen and a phone show it, page by page through the test client:
the action phase once the round is over (S-2), the log line of the next round's start, a battle's card values."""

from __future__ import annotations

import re
from html import unescape

import pytest
from gmtool_testing import ADMIN_KEY, assert_answers_sealed_on_table, bare_emoji, bearer, icon, open_link

from gmtool.web.common import csrf_for


def text_of(html: str) -> str:
    """What a page reads: no tags, no rule codes (the table hides them until 根拠 is pressed), spaces collapsed."""
    html = re.sub(r'<small class="rule">.*?</small>', "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def game(app, client):
    """Three players on a board of 30 (nobody reaches the goal in 8 phases), with every screen logged in."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー", "ランサー"]}).get_json()
    sid, tokens = data["session"], {"gm": data["gm_token"], "table": data["table_token"],
                                    **{s["id"]: s["token"] for s in data["seats"]}}

    def post(name, payload=None, who="gm"):
        return client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(tokens[who]), json=payload or {})

    def act(name, payload=None, who="gm"):
        r = post(name, payload, who)
        assert r.status_code == 200, (name, r.get_json())

    def view():
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens["gm"])).get_json()["ruleset"]

    def undo():
        r = client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"]), json={})
        assert r.status_code == 200, r.get_json()

    def answer(prompt, who, value):
        r = client.post(f"/api/sessions/{sid}/prompts/{prompt}/answer", headers=bearer(tokens[who]), json={"value": value})
        assert r.status_code == 200, r.get_json()

    browsers = {"gm": open_link(app, data["gm_url"]), "table": open_link(app, data["table_url"]),
                **{s["id"]: open_link(app, s["join_url"]) for s in data["seats"]}}

    def page(who, lang="ja"):
        path = {"gm": f"/s/{sid}/gm", "table": f"/s/{sid}/table"}.get(who, f"/s/{sid}/phone")
        r = browsers[who].get(f"{path}?lang={lang}")
        assert r.status_code == 200
        return r.get_data(as_text=True)

    def phone_post(who, name, payload=None, lang="ja"):
        """A step from `who`'s phone page (a form, as htmx sends it)."""
        return browsers[who].post(f"/s/{sid}/phone/actions/{name}?lang={lang}", data=payload or {},
                                  headers={"X-CSRF-Token": csrf_for(tokens[who]), "HX-Request": "true"})

    act("setup", {"board_length": 30, "order": ["s1", "s2", "s3"], "players": {
        s: {"servant": n, "mana": 4} for s, n in (("s1", "セイバー"), ("s2", "アーチャー"), ("s3", "ランサー"))}})
    def gm_post(name, payload=None, lang="ja"):
        """A step from the GM console (a form, as htmx sends it)."""
        return browsers["gm"].post(f"/s/{sid}/gm/actions/{name}?lang={lang}", data=payload or {},
                                   headers={"X-CSRF-Token": csrf_for(tokens["gm"]), "HX-Request": "true"})

    return {"act": act, "post": post, "view": view, "answer": answer, "page": page, "phone_post": phone_post,
            "gm_post": gm_post, "undo": undo, "client": client, "sid": sid, "tokens": tokens}


def play_phase(game, steps=None):
    """Everyone moves (s1 1 square, s2 2, s3 3: never on one square), then the GM ends the phase."""
    steps = steps or {"s1": 1, "s2": 2, "s3": 3}
    while (mover := game["view"]()["current"]) is not None:
        game["act"]("roll_move", {"faces": [steps[mover]]}, who=mover)
    game["act"]("end_phase")


def phases_shown(game) -> dict:
    return {who: re.findall(r"フェイズ (\d+) ?/8", text_of(game["page"](who))) for who in ("gm", "table", "s1")}


def test_the_phase_shown_once_the_round_is_over_is_the_last_one_played(game):
    """S-2: after the 8th phase the round is over: 8/8 on every screen (the console read 9/8, a phase that never
    comes), and still after the GM ends the round."""
    for _ in range(8):
        play_phase(game)
    assert game["view"]()["round_over"]["rule"] == "S-2"
    assert phases_shown(game) == {"gm": ["8"], "table": ["8"], "s1": ["8"]}
    game["act"]("end_round")
    assert phases_shown(game) == {"gm": ["8"], "table": ["8"], "s1": ["8"]}
    # the true-name vote the round's end opens (S-13) is on the TV once: the stage shows its card (who has voted, each
    # vote's commitment), and the summary's line of open prompts no longer names it a second time under the stage
    game["answer"]("sg-vote-round1", "s1", "s2")
    for lang, title in (("ja", "真名看破投票（ラウンド1）"), ("en", "True name vote (Round 1)")):
        screen = game["page"]("table", lang).split('id="history"', 1)[0]
        stage, summary = screen.split('id="table-summary"', 1)
        shown = re.sub(r"<header>.*?</header>", "", screen, flags=re.S)  # the card's own title: hidden on the stage (CSS)
        assert text_of(shown).count(title) == 1 and 'data-prompt="sg-vote-round1"' in stage, (lang, text_of(screen))
        assert "summary-prompt" not in summary, lang


def test_a_round_over_at_the_goal_shows_the_phase_it_ended_in(game):
    """S-2: everyone reaches the goal in phase 6 and the GM ends that phase: 6/8 on every screen, not 7/8 (a
    phase that never comes; the phone capped only a count past 8)."""
    play_phase(game)
    assert phases_shown(game) == {"gm": ["2"], "table": ["2"], "s1": ["2"]}  # the next phase, while playing
    for _ in range(5):
        play_phase(game, {"s1": 6, "s2": 6, "s3": 6})
    assert game["view"]()["round_over"] and len(game["view"]()["goal"]) == 3
    assert phases_shown(game) == {"gm": ["6"], "table": ["6"], "s1": ["6"]}


def test_a_phases_battles_show_that_phase_not_the_next(game):
    """S-3/S-7: the battles of action phase 1 are fought after everyone's turn in phase 1; while they were listed
    and fought every screen already read フェイズ 2/8 (the counter runs on when the GM ends the phase). It reads
    1/8 until they are over, then 2/8 for the next rolls."""
    play_phase(game, {"s1": 2, "s2": 2, "s3": 3})  # セイバー and アーチャー on square 2: a battle
    assert game["view"]()["pending"] and game["view"]()["phase"] == 2
    assert phases_shown(game) == {"gm": ["1"], "table": ["1"], "s1": ["1"]}
    game["act"]("start_battle")
    assert phases_shown(game) == {"gm": ["1"], "table": ["1"], "s1": ["1"]}
    game["undo"]()
    game["act"]("skip_battle", {"reason": "合意"})
    assert phases_shown(game) == {"gm": ["2"], "table": ["2"], "s1": ["2"]}


def test_the_goal_flag_says_goal_in_words(game):
    """🏁 alone (the table's standings, the console's turn order) was an empty box on a laptop without an emoji
    font, and a screen reader read it as "chequered flag": a word says it, the flag is hidden from a screen reader.
    The first phone's roll button keeps its die, drawn in SVG (🎲 was an empty box there too)."""
    assert re.search(icon("die") + " 1d6を振る", game["page"]("s1")) and "🎲" not in game["page"]("s1")
    play_phase(game)  # 1, 2, 3 squares: nobody shares a square (no battle), then 6 a phase to the goal
    for _ in range(5):
        play_phase(game, {"s1": 6, "s2": 6, "s3": 6})
    goal = game["view"]()["goal"]
    for lang, first, word in (("ja", "1着でゴール", "ゴール"), ("en", "goal #1", "Goal")):
        table, gm = game["page"]("table", lang), game["page"]("gm", lang)
        row = re.search(rf'<tr data-seat="{goal[0]["seat"]}".*?</tr>', table, re.S).group(0)
        assert re.search('<small class="sg-at-goal">' + icon("goal") + f"{first}</small>", row) and "🏁" not in row
        assert re.search(icon("goal") + f"{word}</span>", gm) and "🏁" not in gm
        for who in ("gm", "table", "s1", "s2"):
            assert bare_emoji(game["page"](who, lang)) == [], (who, lang)


def test_the_next_rounds_start_line_has_no_space_before_its_bracket(game):
    """The table hides a line's rule code ([S-1]) until 根拠 is pressed; the space before the code goes with it:
    「（ラウンド2：スタートへ）」, not 「（ラウンド2：スタートへ ）」."""
    for _ in range(8):
        play_phase(game)
    game["act"]("end_round", {"vote": False})
    game["act"]("start_round")
    for lang, want in (("ja", "（ラウンド2：スタートへ）"), ("en", "(Round 2: back to the start)")):
        html = game["page"]("table", lang)
        log = re.search(r'<ol class="log">(.*?)</ol>', html, re.S).group(1)
        line = next(li for li in re.findall(r"<li.*?</li>", log, re.S) if "[S-1]" in li and want in text_of(li))
        assert text_of(line).strip().endswith(want), line
        assert not re.search(r" [）)]", text_of(html)), lang


def _a_phase_and_its_battle(game) -> None:
    """Round 1's first phase: セイバー and アーチャー meet on square 2 (ランサー moves on to 5), and セイバー wins the battle."""
    act, view = game["act"], game["view"]
    act("roll_move", {"faces": [2]}, who="s1")
    act("roll_move", {"faces": [2]}, who="s2")
    act("roll_move", {"faces": [5]}, who="s3")
    act("end_phase")
    act("start_battle")
    battle = view()["battle"]
    for seat in battle["fighters"]:
        game["answer"](battle["prompt"], seat, "力9" if seat == "s1" else "力1")
    act("end_battle")


def test_s1_a_new_round_is_the_stages_headline_until_its_first_move(game):
    """Browser review: at the start of round 2 the table's big lines were still 「前の戦闘: マス2 …」 from round 1 and
    the last player's 「位置 8→0（スタートへ）」. A round just begun is the stage's headline (S-1/S-2): its name, who
    moves first, how it ends (the climax: that it is the last); the first move of the round takes it away.
    Play-through: the first mover was named twice, 「手番: セイバー」 in the title over 「ラウンド1開始 · 先手: セイバー」;
    the headline names them once (S-3), the title again once the headline has given way."""
    act, view = game["act"], game["view"]
    assert _stage(game).count("セイバー") == 1 and "先手: セイバー" in _stage(game), _stage(game)  # round 1, from the setup
    _a_phase_and_its_battle(game)
    act("end_round", {"force": True, "vote": False})

    def stage(lang="ja"):
        html = re.search(r'<div class="stage-item sg-stage".*?</div>\s*</div>', game["page"]("table", lang), re.S).group(0)
        return html, text_of(html)

    assert "sg-round-start" not in stage()[0]  # between rounds: the round's end, not a start
    for rnd, ja, en in (("round2", "ラウンド2開始", "Round 2 begins"), ("climax", "クライマックス開始", "Climax begins")):
        act("start_round", {"board_length": 12})
        first = view()["current_name"]
        html, text = stage()
        assert f"{ja} · 先手: {first}" in text, text
        assert text.count(first) == 1, text  # the first mover is named once: not also 「手番: …」 in the title (S-3)
        assert "行動フェイズ8回か、" in text and "盤面12マス" in text, text
        assert ("最終ラウンド" in text) == (rnd == "climax"), text
        assert "sg-last-battle" not in html and "スタートへ" not in text, text
        en_text = stage("en")[1]
        assert f"{en} · first to move: {first}" in en_text and "Board of 12 squares" in en_text, en_text
        assert en_text.count(first) == 1 and "To move" not in en_text, en_text
        # each part of the line between its dots starts with a capital, as the title's (it began 'the final round: …'
        # and 'ends after 8 action phases …', lower case at the start of a line)
        what = ("The final round: most VP at its end wins; at the goal, +6 VP per unused seal · " if rnd == "climax" else "") + \
            "Ends after 8 action phases or once " + ("3" if rnd == "round2" else "2") + " are at the goal · Board of 12 squares"
        # (round 2's goal count is 4, but round 1 put one of the four out: the three left end it all at the goal,
        # Reading round_end_all_at_goal, as the title's 「Goal 0/3」 says)
        assert what in en_text, en_text
        act("roll_move", {"faces": [1]}, who=view()["current"])
        assert "sg-round-start" not in stage()[0], rnd  # the first move of the round takes the headline away
        act("end_round", {"force": True, "vote": False})


def test_a_childs_cards_read_their_power_on_the_phone_as_on_the_table(game):
    """S-7: a card counts with its power: the child's second card 技2 reads 2 on the phones and the console, as
    on the table's stage, not +2 (a card is no bonus); a seal's +3 is still a bonus after the first card. The table
    showed the revealed result as final (「セイバーの勝ち…」) while cards and seals could still change it: until the GM
    confirms it, the TV and the fighters' phones read it as 暫定 / Provisional."""
    game["act"]("roll_move", {"faces": [3]}, who="s1")
    game["act"]("roll_move", {"faces": [3]}, who="s2")
    game["act"]("roll_move", {"faces": [5]}, who="s3")
    game["act"]("end_phase")
    game["act"]("start_battle")
    battle = game["view"]()["battle"]
    game["answer"](battle["prompt"], "s1", "力7")
    # before the reveal the table's summary names who has put their cards down and (behind 根拠) their commitment
    seen = game["client"].get(f"/api/sessions/{game['sid']}/prompts/{battle['prompt']}",
                              headers=bearer(game["tokens"]["table"])).get_json()
    assert_answers_sealed_on_table(game["page"]("table"), seen, {"s1": "セイバー", "s2": "アーチャー"}, ("力7",))
    game["act"]("use_seal", {"effect": "power"}, who="s1")
    game["answer"](battle["prompt"], "s2", ["力4", "技2"])
    rows = {}
    for who in ("table", "gm", "s1", "s2"):
        html = game["page"](who)
        rows[who] = [re.sub(r" \[[A-Z]-\d+\]", "", text_of(t)) for t in re.findall(r'<table class="breakdown">.*?</table>', html, re.S)]
        assert rows[who], who
        for row in rows[who]:
            assert "アタック（技2） 2 = 6" in row and "+2" not in row, (who, row)
            assert "アタック（力7） 7 令呪（パワー+3）×1 +3 = 10" in row, (who, row)
        if who != "gm":  # revealed, not final (S-7): the TV and the fighters' phones read the result as provisional
            result = text_of(re.search(r'<p class="summary sg-result">.*?</p>', html, re.S).group(0)).strip()
            assert result.startswith("暫定 セイバーの勝ち"), (who, result)
    assert "Provisional" in text_of(game["page"]("table", "en"))
    game["act"]("end_battle")  # the GM confirms: the stage's last battle is final
    assert "data-provisional" not in game["page"]("table") and "data-provisional" not in game["page"]("s1")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_setup_forms_turn_order_takes_the_seats_names_as_its_hint_says(app, client, lang):
    """The console's 手番 field asks for the seats' names (it showed "s1,s2,…", ids the GM never sees) and the setup
    accepts them: the order typed "ランサー,セイバー,アーチャー" is that order."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー", "ランサー"]}).get_json()
    sid, gm = data["session"], open_link(app, data["gm_url"])
    html = gm.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True)
    field = re.search(r'<input name="order"[^>]*>', html).group(0)
    hint = text_of(re.search(r'<p class="hint" id="sg-order-hint">.*?</p>', html, re.S).group(0))
    assert 'aria-describedby="sg-order-hint"' in field and "s1" not in field + hint
    assert ("席の名前をカンマ区切り" if lang == "ja" else "names separated by commas") in hint
    assert ("例: セイバー,アーチャー,ランサー。" if lang == "ja" else "e.g. セイバー,アーチャー,ランサー;") in hint, hint
    headers = {"X-CSRF-Token": csrf_for(data["gm_token"]), "HX-Request": "true"}
    r = gm.post(f"/s/{sid}/gm/actions/setup?lang={lang}", data={"order": "セイバー,ランサー"}, headers=headers)
    assert r.status_code == 400 and "セイバー" in r.get_data(as_text=True) and "s1" not in r.get_data(as_text=True)
    r = gm.post(f"/s/{sid}/gm/actions/setup", data={"board_length": "20", "order": "ランサー、セイバー,アーチャー"},
                headers=headers)
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    state = client.get(f"/api/sessions/{sid}/state", headers=bearer(data["gm_token"])).get_json()["ruleset"]
    assert [o["seat"] for o in state["order"]] == ["s3", "s1", "s2"]


def test_a_battle_cards_power_field_says_power_on_the_phone(game):
    """S-7, browser review: each card's power field beside its attribute was an empty box on the phone (named only
    for a screen reader); it reads パワー / Power until the player types the card's power."""
    game["act"]("roll_move", {"faces": [3]}, who="s1")
    game["act"]("roll_move", {"faces": [3]}, who="s2")
    game["act"]("roll_move", {"faces": [5]}, who="s3")
    game["act"]("end_phase")
    game["act"]("start_battle")
    for who, slots in (("s1", 1), ("s2", 3)):  # the parent puts one card down, the child plays up to three
        for lang, word in (("ja", "パワー"), ("en", "Power")):
            fields = re.findall(r'<input[^>]*class="sg-power"[^>]*>', game["page"](who, lang))
            assert len(fields) == slots and all(f'placeholder="{word}"' in f for f in fields), (who, lang, fields)


@pytest.mark.parametrize(("lang", "words"), [("ja", "ラウンド1 · 行動フェイズ 1 ?/8"), ("en", "Round 1 · Action phase 1 ?/8")])
def test_every_screen_names_the_action_phase_alike(game, lang, words):
    """Browser review: the phones read 「フェイズ 1/8」 / "phase 1/8" where the console and the table read 「行動フェイズ
    1/8」 / "Action phase 1/8"; every screen now names it the same (S-3)."""
    for who in ("gm", "table", "s1", "s2"):
        assert re.search(words, text_of(game["page"](who, lang)).replace("・", " · ")), who


def test_s1_the_game_over_stage_headlines_the_winner_not_round_1s_battle(game):
    """Browser review: at the climax's end the table stage's big line still told of the last battle, fought in
    round 1 (「前の戦闘: マス2 — セイバー の勝ち」), and the winner sat under it in small type. Once the game is
    over the stage names the winner with its 戦果 (S-1) and no old battle. The winner's phone did not say the game
    was over at all (nor who won) and still offered the skill form."""
    act, view = game["act"], game["view"]
    _a_phase_and_its_battle(game)
    assert "sg-last-battle" in game["page"]("table")  # while the game runs, the last battle is on the stage
    for _ in range(2):
        act("end_round", {"force": True, "vote": False})
        act("start_round", {"board_length": 6})
    for seat in [o["seat"] for o in view()["order"]][:2]:
        act("roll_move", {"faces": [6]}, who=seat)
    act("end_round")
    assert view()["finished"]
    winner = view()["standings"][0]
    stage = re.search(r'<div class="stage-item sg-stage".*?</div>\s*</div>', game["page"]("table"), re.S).group(0)
    assert "sg-last-battle" not in stage, stage
    assert f"優勝: {winner['name']}（戦果 {winner['vp']}）" in text_of(stage), text_of(stage)
    assert f"Winner: {winner['name']} (VP {winner['vp']})" in text_of(game["page"]("table", "en"))
    # every phone and the console say the game is over and who won; no phone offers a skill the game refuses
    for who in ("gm", "s1", "s3"):
        assert f"ゲーム終了 · 優勝: {winner['name']}（戦果 {winner['vp']}）" in text_of(game["page"](who)), who
        assert f"Game over · Winner: {winner['name']} (VP {winner['vp']})" in text_of(game["page"](who, "en")), who
    assert "use_skill" not in game["page"]("s1")


def test_players_tied_on_vp_share_a_place_on_the_table_and_in_the_round_end_line(game):
    """Browser review: the table ranked the three players behind the leader, all on 0 戦果, as 2, 3, 4 (and the
    round's end line 「2位 … 3位 …」, in the write-up too); players tied on 戦果 share a place (standard competition
    ranking: 1, 2, 2)."""
    game["act"]("square_event", {"seat": "s2", "vp": 5})
    assert [r["rank"] for r in game["view"]()["standings"]] == [1, 2, 2]
    for lang in ("ja", "en"):
        ranks = re.findall(r'<tr data-seat="s\d"[^>]*>\s*<td>(\d+)</td>', game["page"]("table", lang))
        assert ranks == ["1", "2", "2"], (lang, ranks)
    game["act"]("end_round", {"force": True, "vote": False})
    assert re.search(r"戦果：1位 アーチャー 5、2位 \S+ 0、2位 \S+ 0", text_of(game["page"]("table"))), "ja"
    assert re.search(r"VP: 1\. アーチャー 5, 2\. \S+ 0, 2\. \S+ 0", text_of(game["page"]("table", "en"))), "en"


def test_between_rounds_no_phone_offers_a_skill_or_a_seal_the_round_would_refuse(game):
    """Browser review: between rounds (the round ended, the next not started) every phone still showed the skill form
    (スキル / 魔力 / 使用), and the last roller its free-move seal buttons. Nothing is played between rounds: the
    skill/宝具 uses were just reset for the next round (S-15), and a seal's free move has no round to move in
    (S-11): both are refused (409, in both languages, nothing written) and no screen offers them."""
    for _ in range(7):
        play_phase(game)
    while (mover := game["view"]()["current"]) is not None:
        game["act"]("roll_move", {"faces": [1]}, who=mover)
    mover_before = game["view"]()["order"][-1]["seat"]  # the last roller: a free-move seal right after its roll
    game["act"]("end_phase")
    assert "use_skill" in game["page"]("s1")  # the round is over, not yet ended: a skill may still be played
    game["act"]("end_round", {"vote": False})
    for who in ("s1", "s2", "s3"):
        for lang, says in (("ja", "ラウンド1終了 · 次はラウンド2（GMの開始を待っています）"),
                           ("en", "Round 1 over · next: Round 2 (waiting for the GM to start it)")):
            html = game["page"](who, lang)
            assert "use_skill" not in html and "use_seal" not in html, (who, lang)
            assert says in text_of(html), (who, lang)  # the phone's header still names the last phase (8/8)
    assert "use_skill" not in game["page"]("gm")
    before = game["view"]()
    for who, name, payload in (("s1", "use_skill", {"kind": "skill", "cost": 0}),
                               ("gm", "use_skill", {"seat": "s2", "kind": "skill", "cost": 0}),
                               (mover_before, "use_seal", {"effect": "free_move", "squares": 2})):
        r = game["post"](name, payload, who)
        assert r.status_code == 409, (name, r.get_json())
        assert r.get_json()["error"]["ja"] and r.get_json()["error"]["en"], r.get_json()
    assert game["view"]()["players"] == before["players"]
    game["act"]("start_round")
    assert "use_skill" in game["page"]("s1") and "sg-between" not in game["page"]("s1")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_phones_refusal_reads_no_rule_code(game, lang):
    """A phone's error says why in words; its rule code ([S-6] / (S-6)) is tucked into class rule, which the phones
    never show (gmtool.css): the GM console's flash shows it, for the GM to read."""
    r = game["phone_post"]("s1", "challenge", {"target": "s2"}, lang)  # before everyone has moved (S-6)
    html = r.get_data(as_text=True)
    assert r.status_code == 409, html
    assert re.search(r'<small class="rule"> ?[\[(（]S-6[\])）]</small>', html), html
    assert "S-6" not in text_of(html), html


def _stage(game, lang="ja") -> str:
    """The table's stage as it reads (rule codes hidden, as before 根拠 is pressed)."""
    return text_of(re.search(r'<div class="stage-item sg-stage".*?</div>\s*</div>', game["page"]("table", lang), re.S).group(0))


def test_s2_a_round_the_gm_ends_early_reads_ended_on_the_stage_as_one_that_met_its_end(game):
    """Play-through: a round ended by its end condition is flagged on the table's stage (「ラウンド1：行動フェイズ8回目
    終了」), one the GM ended early (force) was not: after the climax the stage read only the winner, with nothing
    saying the game had ended. Both now say why the round is over (S-2): 「クライマックス：GMが終了」 / 'Climax: ended by
    the GM' (view: round_over)."""
    act, view = game["act"], game["view"]
    play_phase(game)
    for rnd, ja, en in (("round1", "ラウンド1", "Round 1"), ("round2", "ラウンド2", "Round 2"),
                        ("climax", "クライマックス", "Climax")):
        act("end_round", {"force": True, "vote": False})
        assert view()["round_over"] == {"ja": f"{ja}：GMが終了", "en": f"{en}: ended by the GM", "rule": "S-2"}
        assert f"{ja} · 行動フェイズ" in _stage(game) and f"{ja}：GMが終了" in _stage(game), _stage(game)
        assert f"{en}: ended by the GM" in _stage(game, "en"), _stage(game, "en")
        # news for the room, not an error: the accent (sugoroku.css), not the red flag of 「脱落」 (the console: below)
        assert re.findall(r'<p class="([^"]*)">' + f"{ja}：GMが終了", game["page"]("table")) == [
            "big-flag flag sg-round-over"]
        if rnd != "climax":
            act("start_round", {"board_length": 12})
            assert view()["round_over"] is None and "GMが終了" not in _stage(game)
    assert view()["finished"] and "優勝: " in _stage(game)
    css = game["client"].get("/static/rulesets/sugoroku.css").get_data(as_text=True)
    assert "background: var(--accent); color: #111" in re.search(r"\.flag\.sg-round-over \{([^}]*)\}", css).group(1)


def test_s3_a_square_event_before_the_rounds_first_move_is_the_stages_newest_line(game):
    """Play-through: a square's event the GM applied before the round's first move (セイバー's 戦果 +2 at the start)
    never reached the table's stage, which kept the round's headline and showed only later events. It is the newest
    line, as after a move: the headline gives way to it (the title names who moves); undone, the headline is back."""
    act, view = game["act"], game["view"]
    _a_phase_and_its_battle(game)
    act("end_round", {"force": True, "vote": False})
    for rnd in ("round2", "climax"):
        act("start_round", {"board_length": 12})
        first = view()["current_name"]
        assert "開始 · 先手" in _stage(game), _stage(game)
        act("square_event", {"seat": "s1", "vp": 2, "label": "宝箱"})
        for lang, line, mover in (("ja", "セイバー: 戦果 ", f"手番: {first}"), ("en", "セイバー: VP ", f"To move: {first}")):
            text = _stage(game, lang)
            assert line in text and "宝箱" in text and mover in text, (rnd, lang, text)
            assert "開始 · 先手" not in text and "begins · first" not in text and "前の戦闘" not in text, (rnd, lang, text)
        game["undo"]()
        assert "開始 · 先手" in _stage(game) and "宝箱" not in _stage(game), _stage(game)
        act("end_round", {"force": True, "vote": False})


def test_each_players_token_on_the_tables_board_reads_apart_from_the_others(app, client):
    """The board's tokens were the names' first 2 characters: Shirou and Shinji (or セイバー and セイバー・オルタ) both
    read "Sh" / "セイ" on the table screen. Each now reads the shortest start of its name no other name starts with."""
    seats = ["Shirou", "Shinji", "Rin", "セイバー", "セイバー・オルタ"]
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": seats}).get_json()
    sid, gm = data["session"], data["gm_token"]
    r = client.post(f"/api/sessions/{sid}/actions/setup", headers=bearer(gm), json={
        "board_length": 20, "order": [s["id"] for s in data["seats"]]})
    assert r.status_code == 200, r.get_json()
    html = open_link(app, data["table_url"]).get(f"/s/{sid}/table").get_data(as_text=True)
    tokens = re.findall(r'<span class="sg-marker[^"]*" data-seat="[^"]+">([^<]*)</span>', html)
    assert tokens == ["Shir", "Shin", "Ri", "セイバー", "セイバー・"], tokens


def test_s1_the_last_rounds_battle_is_not_the_new_rounds_news(game):
    """Play-through: round 1's battle on square 2 stayed on the table's stage through round 2 and the climax
    (「前の戦闘: マス3 — …」, a square of another board), above the newest line. A new round starts with none."""
    act, view = game["act"], game["view"]
    _a_phase_and_its_battle(game)
    assert view()["last_battle"] and "前の戦闘: マス2 — セイバーの勝ち（戦果 +1）" in _stage(game), _stage(game)
    assert "Last battle: Square 2 — セイバー won (VP +1)" in _stage(game, "en")  # (it read 「セイバー の勝ち (戦果 +1)」)
    act("end_round", {"force": True, "vote": False})
    act("start_round", {"board_length": 12})
    act("roll_move", {"faces": [2]}, who=view()["current"])  # past the round's headline: the stage shows the news
    assert view()["last_battle"] is None and "前の戦闘" not in _stage(game), _stage(game)


@pytest.mark.parametrize(("lang", "words"), [("ja", "令呪：出目の代わりに、振る前のマスから進む"),
                                             ("en", "Seal: instead of the roll, move on from where you were")])
def test_s11_the_free_move_seal_says_what_it_does_once_and_offers_the_squares(game, lang, words):
    """Play-through at 390 px: right after a roll the phone stacked four wide buttons 「令呪：振る前から +1」 … "+4"
    ("Seal: from before the roll +1"), words that did not say the roll is ignored (S-11). The phone says it once, in
    words, then offers +1 … +4."""
    game["act"]("roll_move", {"faces": [3]}, who="s1")
    form = re.search(r'<form class="row sg-free-move".*?</form>', game["page"]("s1", lang), re.S).group(0)
    assert text_of(form).strip() == words + " +1 +2 +3 +4", text_of(form)


def button(html: str, button_id: str) -> str:
    """The opening tag of the console's button `button_id`."""
    return re.search(rf'<button id="{button_id}"[^>]*>', html, re.S).group(0)


def second_tap(html: str, button_id: str) -> str | None:
    """What the first click on button `button_id` says it armed (data-second-tap), None if one click acts."""
    found = re.search(r'data-second-tap="([^"]*)"', button(html, button_id))
    return found.group(1) if found else None


@pytest.mark.parametrize(("lang", "phase_words", "round_words"), [
    ("ja", "セイバー・アーチャー・ランサーがまだ移動していません: もう一度押すと行動フェイズ1を終了",
     "終了条件（S-2）をまだ満たしていません: もう一度押すとラウンド1を終了"),
    ("en", "Not moved yet: セイバー, アーチャー, ランサー. Click again to end action phase 1",
     "The end condition (S-2) is not met yet: click again to end Round 1")], ids=["ja", "en"])
def test_an_early_end_takes_a_second_click_the_marked_step_one(game, lang, phase_words, round_words):
    """S-2/S-3: the console's 行動フェイズ終了 (強制) before everyone moved and ラウンド終了 before the round's end
    condition act only on a second click within 4 s (static/live.js data-second-tap; the round's ended on one tap,
    a stray click beside 行動フェイズ終了), and the first says what it would cut short; each as the marked next step
    (everyone moved, the condition met) acts on one click, as every other step of the game does."""
    html = game["page"]("gm", lang)
    assert second_tap(html, "sg-end-phase") == phase_words
    assert second_tap(html, "sg-end-round") == round_words
    steps = {"s1": 1, "s2": 2, "s3": 3}  # never on one square: no battle
    game["act"]("roll_move", {"faces": [1]}, who="s1")
    html = game["page"]("gm", lang)
    assert second_tap(html, "sg-end-phase").startswith("アーチャー・ランサーが" if lang == "ja" else "Not moved yet: アーチャー, ランサー.")
    for _ in range(8):
        while (mover := game["view"]()["current"]) is not None:
            game["act"]("roll_move", {"faces": [steps[mover]]}, who=mover)
        assert second_tap(game["page"]("gm", lang), "sg-end-phase") is None  # everyone moved: the marked step
        game["act"]("end_phase")
    html = game["page"]("gm", lang)
    assert game["view"]()["round_over"] and 'class="primary"' in button(html, "sg-end-round")
    assert second_tap(html, "sg-end-round") is None
    # S-10: two tied for last place 10 behind, the GM picks who is out (Reading elimination_tie=gm): each 脱落 button
    # asks once more, saying what it does (it put a player out on one click)
    r = game["client"].post(f"/api/sessions/{game['sid']}/readings", headers=bearer(game["tokens"]["gm"]),
                            json={"key": "elimination_tie", "value": "gm"})
    assert r.status_code == 200, r.get_json()
    game["act"]("square_event", {"seat": "s1", "vp": 10, "label": "test"})
    game["act"]("end_round")  # the true-name vote opens with it
    assert game["view"]()["candidates"] == ["s2", "s3"]
    html = game["page"]("gm", lang)
    assert second_tap(html, "sg-out-s2") == ("アーチャーは脱落すると以後行動できません: もう一度押すと脱落させる" if lang == "ja"
                                             else "アーチャー acts no more once out: click again to put アーチャー out")
    assert second_tap(html, "sg-out-s3").startswith("ランサー")
    # the button reads as what it does (English said "アーチャー is out [S-10]", a statement)
    assert re.search(r'id="sg-out-s2"[^>]*>([^<]*)</button>', html).group(1) == (
        "アーチャーを脱落させる [S-10]" if lang == "ja" else "Put アーチャー out [S-10]")
    # one of the tied goes (S-10): once the GM has put アーチャー out, ランサー's button goes too (it stayed)
    game["answer"]("sg-vote-round1", "s3", "s2")  # ランサー votes for アーチャー
    game["act"]("eliminate", {"seat": "s2"})
    assert game["view"]()["out_candidates"] == [] and 'id="sg-out-' not in game["page"]("gm", lang)
    # S-10: the player put out reads it on their own phone (nothing there said so: its vote just went) and nobody else's
    out_me = re.search(r'<p class="summary sg-out-me" id="sg-out-me">([^<]*)</p>', game["page"]("s2", lang))
    assert out_me and out_me.group(1) == ("あなたは脱落しました（S-10）：以後は行動できません" if lang == "ja"
                                          else "You are out of the war (S-10): you act no more")
    assert 'id="sg-out-me"' not in game["page"]("s3", lang)
    # S-13: the open vote on ランサー's phone greys アーチャー out, saying why (it stayed a choice there), and says that
    # its vote for アーチャー, which no longer counts, must be made again (it read only 「✓ 送信しました: アーチャー」)
    phone = game["page"]("s3", lang)
    vote = re.search(r'<button name="value" value="s2"[^>]*>.*?</button>', phone, re.S).group(0)
    why = "脱落済み（S-10）" if lang == "ja" else "Out of the war (S-10)"
    assert " disabled" in vote and f'title="{why}"' in vote and f'<small class="why">{why}</small>' in vote
    again = text_of(re.search(r"<p data-choose-again>.*?</p>", phone, re.S).group(0)).strip()
    assert " ".join(again.split()) == ("選び直してください この回答は選べなくなりました：脱落済み（S-10）" if lang == "ja"
                                       else "Choose again This answer can no longer be chosen: Out of the war (S-10)")
    # S-10, the GM's ruling at any other time (a player who leaves the table): the console offers it for the players
    # still in the war (eliminate was the API's only), on a second click that says what it does: with two left, that
    # the one left wins and the game ends (S-1/S-10, gmtool's reading)
    form = re.search(r'<form class="row" hx-post="[^"]*/gm/actions/eliminate"[^>]*id="sg-ruling-out">.*?</form>',
                     game["page"]("gm", lang), re.S).group(0)
    assert re.findall(r'<option value="(s\d)">', form) == ["s1", "s3"]
    assert re.search(r'data-second-tap="([^"]*)"', form).group(1) == (
        "選んだプレイヤーが脱落すると残りは1人：その1人の優勝でゲーム終了です: もう一度押すと脱落させる" if lang == "ja"
        else "One player is left once the player chosen is out, who wins: the game ends: click again to put them out")
    r = game["gm_post"]("eliminate", {"seat": "s3", "reason": "離席"}, lang)
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    assert game["view"]()["out"] == ["s2", "s3"] and game["view"]()["finished"]
    assert 'id="sg-ruling-out"' not in game["page"]("gm", lang)  # one player left in the war: the game is over


def rolls_of(html: str, where: str) -> list[str]:
    """The items of a roll list as they read: the table's strip (`"strip"`), else the one list under a 「ロール」
    heading (the table's history, a phone's card, the console's card)."""
    pattern = r'<div class="summary-rolls">.*?</ol>' if where == "strip" else r'<h2>(?:ロール|Rolls)</h2>\s*<ol class="rolls">.*?</ol>'
    found = re.search(pattern, html, re.S)
    return [text_of(li).strip() for li in re.findall(r"<li.*?</li>", found.group(0), re.S)] if found else []


@pytest.mark.parametrize(("lang", "empty", "before"), [
    ("ja", "「ラウンド2」ではまだダイスは振られていません", "「ラウンド2」より前"),
    ("en", "No dice rolled yet in Round 2", "Before Round 2")], ids=["ja", "en"])
def test_a_new_round_starts_the_rolls_strip_clean(game, lang, empty, before):
    """S-1: at the start of round 2 the table's strip of rolls and every phone's list showed round 1's last rolls as if
    just rolled. Rolls made before the newest scene mark (view.scene, the round's ■ heading) leave the strip and the
    phones' list (which says none was rolled in this round yet); the console and the table's history still list them,
    after a line that says they came before round 2."""
    for _ in range(8):
        play_phase(game)
    game["act"]("end_round", {"vote": False})
    assert len(rolls_of(game["page"]("table", lang), "strip")) == 3  # between rounds: still round 1's
    game["act"]("start_round")
    table, phone, gm = game["page"]("table", lang), game["page"]("s1", lang), game["page"]("gm", lang)
    assert rolls_of(table, "strip") == [] and 'class="summary-rolls"' not in table
    assert rolls_of(phone, "list") == [empty]
    for html in (gm, table):
        listed = rolls_of(html, "list")
        assert listed[0] == before and len(listed) > 3, listed
    mover = game["view"]()["current"]
    game["act"]("roll_move", {"faces": [4]}, who=mover)
    table, phone, gm = game["page"]("table", lang), game["page"]("s1", lang), game["page"]("gm", lang)
    assert len(rolls_of(table, "strip")) == 1 and rolls_of(table, "strip")[0].endswith("4")
    assert len(rolls_of(phone, "list")) == 1 and rolls_of(phone, "list")[0].endswith("4")
    assert rolls_of(gm, "list")[1] == before and 'class="roll earlier' in gm


def test_nobody_is_named_to_move_while_the_battles_are_fought(game):
    """S-7: once the phase ends its battles are fought before anyone rolls (the roll is refused, the mover's phone
    offers no roll), but the table's title and the other phones named the next phase's first mover (手番: アーチャー) for
    the whole battle, as if it were their turn. They name the mover again once the battles are over."""
    for seat, face in (("s1", 1), ("s2", 1), ("s3", 3)):  # s1 and s2 on square 1: a battle
        game["act"]("roll_move", {"faces": [face]}, who=seat)
    game["act"]("end_phase")
    mover = game["view"]()["current_name"]
    assert mover and game["view"]()["pending"]

    def named() -> dict:
        title = re.search(r'<p class="stage-step sg-title".*?</p>', game["page"]("table"), re.S).group(0)
        return {"table": "手番" in text_of(title), "s3": f"手番: {mover}" in text_of(game["page"]("s3"))}

    assert named() == {"table": False, "s3": False}  # the battle is listed
    game["act"]("start_battle")
    assert named() == {"table": False, "s3": False}  # and fought
    pid = game["view"]()["battle"]["prompt"]
    game["answer"](pid, "s1", ["力5"])
    game["answer"](pid, "s2", ["力3"])
    game["act"]("end_battle")
    assert named() == {"table": True, "s3": True}


def test_a_revealed_true_name_reads_without_its_count(game):
    """S-13: the table's 真名 column shows the count of skill uses and battles toward the reveal at 5 (？ 3/5); a
    true name revealed at 5 kept counting, and the column read 「エミヤ 6/5」, as if the count were wrong. Once revealed
    it reads the name alone, as the phones do."""
    def cell(seat: str) -> str:
        row = re.search(rf'<tr data-seat="{seat}".*?</tr>', game["page"]("table"), re.S).group(0)
        return text_of(re.search(r'<td class="sg-name">.*?</td>', row, re.S).group(0)).strip()

    for _ in range(5):
        game["act"]("use_skill", {"kind": "skill", "cost": 0}, who="s2")  # 3 a round (S-15), then the GM's count
        if game["view"]()["players"]["s2"]["uses_left"] == 0:
            break
    assert cell("s2") == "？ 3/5"
    game["act"]("reveal_true_name", {"seat": "s2", "reason": "宝具《真名開放》"})
    game["act"]("use_skill", {"kind": "skill", "cost": 0}, who="s1")
    assert cell("s2") == "判明" and cell("s1") == "？ 1/5"  # (no true name was entered at this setup: 判明, revealed)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_phase_end_is_offered_once_the_round_is_over_and_its_phase_ended(game, lang):
    """S-2: once the end condition is met, only the phase that met it may still end (for its battles); after that the
    console still offered 行動フェイズ終了 beside the marked ラウンド終了, and a click on it was only refused (409
    「ラウンド終了の条件を満たしています」). Now the round's end is the one way on."""
    play_phase(game)  # 1, 2, 3 squares: apart from here on (no battle)
    for _ in range(4):
        play_phase(game, {"s1": 6, "s2": 6, "s3": 6})
    while game["view"]()["current"] is not None:  # everyone at the goal (board of 30) in phase 6: over (S-2)
        game["act"]("roll_move", {"faces": [6]}, who=game["view"]()["current"])
    assert game["view"]()["round_over"] and not game["view"]()["round_ended"]
    html = game["page"]("gm", lang)
    assert 'id="sg-end-phase"' in html and 'class="primary"' in button(html, "sg-end-phase")  # the phase that met it
    # the console's notice is news, not an error: the accent flag (sugoroku.css), not the red of 「脱落」
    flags = [unescape(f) for f in re.findall(r'<p class="flag sg-round-over">([^<\[]*) \[', html)]
    assert flags == [game["view"]()["round_over"][lang]], flags
    game["act"]("end_phase")
    html = game["page"]("gm", lang)
    assert 'id="sg-end-phase"' not in html and 'class="primary"' in button(html, "sg-end-round")
    assert game["post"]("end_phase").status_code == 409  # what the button did


def test_the_phase_that_met_the_end_condition_still_ends_in_one_click(app, client):
    """S-2: in the climax two at the goal end it at once, while the others have not moved (and may no longer roll):
    the phase that met the condition may still end, for its battles (force, as someone has not moved), so the
    console offers it, without the second click of an early end, whose words (「…がまだ移動していません」) would tell
    the GM to wait for a roll that is refused; once that phase has ended it is offered no more."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー", "ランサー"]}).get_json()
    sid, gm = data["session"], data["gm_token"]
    tokens = {s["id"]: s["token"] for s in data["seats"]}
    console = open_link(app, data["gm_url"])

    def act(name, payload, token=gm):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(token), json=payload)
        assert r.status_code == 200, r.get_json()
        return r.get_json()["ruleset"]

    act("setup", {"board_length": 6, "order": ["s1", "s2", "s3"], "skip_to_climax": True})
    act("roll_move", {"faces": [6]}, tokens["s1"])
    rv = act("roll_move", {"faces": [6]}, tokens["s2"])
    assert rv["round"] == "climax" and rv["round_over"] and not rv["all_moved"]
    html = console.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert "force" in button(html, "sg-end-phase") and second_tap(html, "sg-end-phase") is None
    act("end_phase", {"force": True})
    assert 'id="sg-end-phase"' not in console.get(f"/s/{sid}/gm").get_data(as_text=True)


def test_a_new_round_leaves_the_last_rounds_battles_off_the_phones(game):
    """S-1: each round has its own board, yet at the start of round 2 every phone still showed round 1's last battle
    cards (「戦闘（マス1）… セイバーの勝ち」) among the revealed results, as if fought on the new board's square 1 (the
    table's stage already lets the last round's battle go, e7f2e29). A phone shows the results revealed since the
    newest scene mark (the round's start), as its list of rolls does; the console and the table's history keep them."""
    for seat, face in (("s1", 1), ("s2", 1), ("s3", 3)):  # s1 and s2 on square 1: a battle
        game["act"]("roll_move", {"faces": [face]}, who=seat)
    game["act"]("end_phase")
    game["act"]("start_battle")
    pid = game["view"]()["battle"]["prompt"]
    game["answer"](pid, "s1", ["力5"])
    game["answer"](pid, "s2", ["力3"])
    game["act"]("end_battle")
    card = f'id="prompt-{pid}"'
    assert card in game["page"]("s3")
    game["act"]("end_round", {"force": True, "vote": False})
    assert card in game["page"]("s3")  # between rounds: still round 1
    game["act"]("start_round")
    for lang in ("ja", "en"):
        assert card not in game["page"]("s3", lang) and card not in game["page"]("s1", lang)
    assert card in game["page"]("gm") and f'id="history-prompt-{pid}"' in game["page"]("table")
