"""Sugoroku (S) through the JSON API: a whole round driven by a script, as docs/rulesets/sugoroku.md shows."""

from __future__ import annotations

import re

import pytest
from gmtool.rulesets.sugoroku.actions import ACTIONS
from gmtool_testing import (ADMIN_KEY, ROOT, assert_undo_as_documented, bearer, docs_rows, games_to_play, open_link,
                            ruleset_views, undocumented)


@pytest.fixture
def game(client):
    """A sugoroku session with four seats, set up through the API."""
    return new_game(client)


def new_game(client, seats=("セイバー", "アーチャー", "ランサー", "ライダー"), setup=None):
    """A sugoroku session with four seats (or `seats`), set up through the API (with `setup`, else an 8-square board
    and two servants): {sid, act, state, answer, tokens, client, data}."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六テスト", "ruleset": "sugoroku", "seats": list(seats)})
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    tokens = {"gm": data["gm_token"], "table": data["table_token"], **{s["id"]: s["token"] for s in data["seats"]}}
    sid = data["session"]

    def act(name, payload=None, who="gm", status=200):
        response = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(tokens[who]), json=payload or {})
        assert response.status_code == status, (name, response.get_json())
        if status == 200:
            assert_undo_as_documented(client, sid, name, response.get_json())
        return response.get_json()

    def state(who="gm"):
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens[who])).get_json()

    def answer(prompt, who, value, status=200):
        response = client.post(f"/api/sessions/{sid}/prompts/{prompt}/answer", headers=bearer(tokens[who]),
                               json={"value": value})
        assert response.status_code == status, response.get_json()
        return response.get_json()

    act("setup", setup or {"board_length": 8, "players": {
        "s1": {"servant": "セイバー", "true_name": "アルトリア", "mana": 4},
        "s2": {"servant": "アーチャー", "true_name": "エミヤ", "mana": 3, "unspent_cp": 4}}})
    return {"sid": sid, "act": act, "state": state, "answer": answer, "tokens": tokens, "client": client, "data": data}


def test_bad_input_is_a_4xx_never_a_500(game):
    act = game["act"]
    act("roll_move", {}, who="s2", status=409)  # not s2's turn
    r = game["client"].post(f"/api/sessions/{game['sid']}/readings", headers=bearer(game["tokens"]["gm"]),
                            json={"key": "nope", "value": 1})
    assert r.status_code == 404 and "nope" in r.get_json()["error"]["en"]
    act("set_square", {"square": "x"}, status=400)
    act("nope", status=404)
    act("setup", {}, status=409)
    act("end_phase", status=409)  # nobody moved yet
    act("roll_move", {"seal": "teleport"}, who="s1", status=400)
    act("use_seal", {"effect": "power"}, who="s1", status=409)  # no battle
    act("setup", who="s1", status=403)
    act("battle_card", {"card": "zzz"}, who="s1", status=409)
    act("square_event", {"seat": "s1", "mana": "lots"}, status=400)
    # skip_turn names the current mover or no seat (sugoroku.md §3): a seat that does not exist was the 409 of another
    # seat, not the 404 every other action answers
    for payload, status, words in (({"seat": "zz"}, 404, ("その席はありません", "There is no such seat")),
                                   ({"seat": "s2"}, 409, ("飛ばせるのは今の手番の席だけです",
                                                          "Only the current mover's turn can be skipped"))):
        error = act("skip_turn", payload, status=status)["error"]
        assert (error["ja"], error["en"]) == words, error
    assert act("skip_turn", {})["ruleset"]["current"] == "s2"  # no seat: the current mover's turn (s1's)


@pytest.mark.parametrize("order", [5, True, 1.5, {"s1": 1, "s2": 2, "s3": 3, "s4": 4}])
def test_an_order_that_is_neither_text_nor_a_list_is_a_400(client, order):
    """S-3 (review): `order` 5, true or 1.5 answered 500, and an object's keys were taken for the order."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー", "ランサー", "ライダー"]}).get_json()
    r = client.post(f"/api/sessions/{data['session']}/actions/setup", headers=bearer(data["gm_token"]),
                    json={"order": order})
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["error"]["en"] == "Give the order as the seats' names separated by commas, or as a list"
    state = client.get(f"/api/sessions/{data['session']}/state", headers=bearer(data["gm_token"])).get_json()
    assert state["session"]["version"] == 1  # nothing written


def test_a_whole_round_through_the_api(game):
    act, state, answer, client, sid = game["act"], game["state"], game["answer"], game["client"], game["sid"]
    out = client.post(f"/api/sessions/{sid}/readings", headers=bearer(game["tokens"]["gm"]),
                      json={"key": "battle_tie", "value": "parent"}).get_json()
    assert next(r for r in out["readings"] if r["key"] == "battle_tie")["value"] == "parent"
    act("set_square", {"square": 3, "terrain": {"力": 2}, "vp": 3})
    phase = 0
    battles = 0
    while not state()["ruleset"]["round_over"] and phase < 8:
        phase += 1
        while (mover := state()["ruleset"]["current"]) is not None:
            out = act("roll_move", {"supply": mover == "s3"}, who=mover)
            assert out["events"][0]["type"] == "dice.rolled"
        out = act("end_phase")
        while state()["ruleset"]["pending"]:
            act("start_battle")
            battle = state()["ruleset"]["battle"]
            for seat in battle["fighters"]:
                answer(battle["prompt"], seat, "力5" if seat == battle["parent"] else ["技3"])
            gm = state()["ruleset"]["battle"]
            assert gm["revealed"] and gm["result"]["rows"]
            act("end_battle")
            battles += 1
    view = state()["ruleset"]
    assert view["round_over"]["rule"] == "S-2"
    act("end_round")
    view = state()["ruleset"]
    assert view["round_ended"] and view["vote"]
    # the table never saw a true name that was not revealed
    table = client.get(f"/api/sessions/{sid}/state", headers=bearer(game["tokens"]["table"])).get_json()
    log = client.get(f"/api/sessions/{sid}/log", headers=bearer(game["tokens"]["table"])).get_json()["events"]
    text = repr(table) + "".join(e["text"] for e in log)
    assert "アルトリア" not in text and "エミヤ" not in text
    assert any("行動フェイズ1終了" in e["text"] for e in log)
    # the table screen's history holds each true name's commitment (the table sees only that, sugoroku.md §1)
    page = open_link(client.application, game["data"]["table_url"]).get(f"/s/{sid}/table").get_data(as_text=True)
    sealed = page.split('<section class="table-prompts table-sealed">', 1)[1].split("</section>", 1)[0]
    for seat in ("s1", "s2"):
        commitment = next(p for p in table["prompts"] if p["id"] == f"sg-tn-{seat}")["commitments"]["gm"]
        assert f'<code class="commitment" title="コミットメント">{commitment}</code>' in sealed, seat
    assert "アルトリア" not in page and "エミヤ" not in page
    # the vote: s1 gets the most votes; the GM confirms; the true name is public
    prompt = client.get(f"/api/sessions/{sid}/prompts/{view['vote']}", headers=bearer(game["tokens"]["gm"])).get_json()
    for voter in prompt["seats"]:
        answer(view["vote"], voter, "s1" if voter != "s1" else "s2")
    r = client.post(f"/api/sessions/{sid}/prompts/{view['vote']}/confirm", headers=bearer(game["tokens"]["gm"]), json={})
    assert r.status_code == 200
    table = client.get(f"/api/sessions/{sid}/state", headers=bearer(game["tokens"]["table"])).get_json()
    assert table["ruleset"]["players"]["s1"]["true_name"] == "アルトリア"
    assert table["ruleset"]["players"]["s2"]["true_name"] is None
    act("start_round", {"board_length": 10})
    assert state()["ruleset"]["round"] == "round2"
    export = client.get(f"/api/sessions/{sid}/export?format=markdown", headers=bearer(game["tokens"]["gm"])).get_data(
        as_text=True)
    assert "ラウンド2" in export and "ラウンド1" in export


def test_undo_takes_back_a_ruleset_step(game):
    act, state, client, sid = game["act"], game["state"], game["client"], game["sid"]
    act("roll_move", who="s1")
    before = state()["ruleset"]["players"]["s1"]["position"]
    assert before > 0
    r = client.post(f"/api/sessions/{sid}/undo", headers=bearer(game["tokens"]["gm"]), json={})
    assert r.status_code == 200
    assert state()["ruleset"]["players"]["s1"]["position"] == 0 and state()["ruleset"]["current"] == "s1"


def test_screens_render_for_every_viewer(game):
    client, sid = game["client"], game["sid"]
    game["act"]("roll_move", who="s1")
    for path in (f"/s/{sid}/gm?k={game['tokens']['gm']}", f"/s/{sid}/table?k={game['tokens']['table']}",
                 f"/join/{sid}?k={game['tokens']['s2']}"):
        browser = client.application.test_client()
        r = browser.get(path, follow_redirects=True)
        assert r.status_code == 200, path
        html = r.get_data(as_text=True)
        assert "sugoroku" in html
        assert "アルトリア" not in html or "/gm" in path


def test_a_move_takes_the_faces_of_a_real_die(game):
    """S-3/S-4/S-11 with physical dice: the entered face moves the token; the extra-die seal takes two."""
    act, state = game["act"], game["state"]
    out = act("roll_move", {"faces": [4]}, who="s1")
    assert out["events"][0]["type"] == "dice.rolled"
    view = state()
    assert view["ruleset"]["players"]["s1"]["position"] == 4 and view["rolls"][0]["entered"] is True
    act("roll_move", {"faces": [7]}, who="s2", status=400)  # no face 7 on a d6
    act("roll_move", {"faces": [2, 3]}, who="s2", status=400)  # one die, two faces
    act("roll_move", {"faces": [2, 3], "seal": "extra_die"}, who="s2")
    assert state()["ruleset"]["players"]["s2"]["position"] == 5
    r = game["client"].post(f"/api/sessions/{game['sid']}/readings", headers=bearer(game["tokens"]["gm"]),
                            json={"key": "dice", "value": "entered"})
    assert r.status_code == 200
    mover = state()["ruleset"]["current"]
    act("roll_move", {}, who=mover, status=400)  # the session takes real dice: the face is asked for
    act("roll_move", {"dice": "server"}, who=mover)
    assert state()["rolls"][0]["entered"] is False


def test_s3_the_order_the_server_rolls_is_not_marked_as_real_dice(client):
    """sugoroku.md, Real dice: the setup's order rolled by the server says `"entered": false`, its log line unmarked
    (the faces entered at the table say true: test_sugoroku_languages' order test)."""
    game = new_game(client, seats=("セイバー", "アーチャー", "ランサー"), setup={"order": "roll", "dice": "server"})
    events = {lang: [e for e in client.get(f"/api/sessions/{game['sid']}/log?lang={lang}",
                                           headers=bearer(game["tokens"]["table"])).get_json()["events"]
                     if e["type"] == "sugoroku.setup"][0] for lang in ("ja", "en")}
    assert events["ja"]["data"]["entered"] is False and len(events["ja"]["data"]["order_rolls"]) == 3, events["ja"]
    assert "実ダイス" not in events["ja"]["text"] and "real dice" not in events["en"]["text"], events


def test_s3_a_move_the_gm_rolls_for_a_seat_names_the_mover(game):
    """S-3: the GM's 代わりに1d6 for a player whose phone is away: the roll on every screen says whose move it was
    (「セイバーの移動」), not only that the GM rolled; a player's own roll keeps its short label."""
    act, state = game["act"], game["state"]
    act("roll_move", {"seat": "s1", "faces": [2]})
    act("roll_move", {"faces": [3]}, who="s2")
    rolls = state("table")["rolls"]
    assert rolls[1]["by"] == "gm" and rolls[1]["label"] == {"ja": "セイバーの移動（S-3）", "en": "セイバー's move (S-3)"}
    assert rolls[0]["by"] == "seat:s2" and rolls[0]["label"] == {"ja": "移動（S-3）", "en": "Move (S-3)"}


def test_a_vote_for_yourself_is_refused_in_words(game):
    """docs/rulesets/sugoroku.md, the true-name vote: a vote for yourself is 400 「「ランサー」は選べません：自分には
    投票できません」 — the reason in the message's own language, not the text of a {ja, en} dict; the seat by its name
    (it said 「s1」: a phone whose page was not yet updated, tapping a player just put out, flashed the id)."""
    act, answer = game["act"], game["answer"]
    out = act("end_round", {"force": True})
    vote = out["ruleset"]["vote"]
    error = answer(vote, "s1", "s1", status=400)["error"]
    assert error["ja"] == "「セイバー」は選べません：自分には投票できません"
    assert error["en"] == "'セイバー' is not allowed: You cannot vote for yourself"


def _moves(act, faces):
    """Every seat rolls its entered face, in turn order."""
    for seat, face in faces:
        act("roll_move", {"faces": [face]}, who=seat)


def test_s6_a_challenge_waits_until_everyone_has_moved(game):
    """S-6 (seed 戦闘準備フェイズ): a challenge is made after every turn of the action phase; made earlier, the target
    still moves away and the listed battle joined two factions squares apart (s1 on 4 against s2 on 10)."""
    act, state = game["act"], game["state"]
    _moves(act, (("s1", 3), ("s2", 4), ("s3", 6), ("s4", 1)))
    act("end_phase")  # order s2 s3 s4 s1; nobody meets
    error = act("challenge", {"target": "s2"}, who="s1", status=409)["error"]
    assert error["en"] == "A challenge is made once everyone has moved (S-6)"
    assert state()["ruleset"]["players"]["s1"]["mana"] == 4  # nothing paid
    assert state("s1")["ruleset"]["me"]["challenge_targets"] == []
    _moves(act, (("s2", 1), ("s3", 1), ("s4", 1), ("s1", 1)))  # s1 on 4, s2 on 5
    assert [t["seat"] for t in state("s1")["ruleset"]["me"]["challenge_targets"]] == ["s2"]
    act("challenge", {"target": "s2"}, who="s1")
    assert act("end_phase")["ruleset"]["pending"][0]["fighters"] == ["s2", "s1"]


def test_s6_a_challenge_no_battle_can_take_is_refused_and_costs_nothing(game):
    """S-6: a challenge whose battle end_phase would drop (its target fights on its own square, or is in a
    challenge already) took the 1 魔力 and never happened; it is refused and nothing is paid."""
    act, state = game["act"], game["state"]
    act("square_event", {"seat": "s3", "mana": 3})
    _moves(act, (("s1", 3), ("s2", 4), ("s3", 4), ("s4", 5)))  # s2 and s3 share square 4
    error = act("challenge", {"target": "s2"}, who="s1", status=409)["error"]
    assert error["en"] == "アーチャー fights on its own square already (S-6)"
    act("challenge", {"target": "s4"}, who="s1", status=400)  # s4 on 5 is two squares away
    assert state()["ruleset"]["players"]["s1"]["mana"] == 4


def test_s6_two_challenges_of_one_faction_are_refused(game):
    """S-6: a faction fights one challenge a phase; a second challenge naming it was paid for and dropped."""
    act, state = game["act"], game["state"]
    act("square_event", {"seat": "s3", "mana": 3})
    _moves(act, (("s1", 3), ("s2", 4), ("s3", 5), ("s4", 1)))
    act("challenge", {"target": "s2"}, who="s1")
    error = act("challenge", {"target": "s2"}, who="s3", status=409)["error"]
    assert error["en"] == "アーチャー is in a challenge already (S-6)"
    act("challenge", {"target": "s3"}, who="s2", status=409)  # the challenged fights the one challenge too
    assert state()["ruleset"]["players"]["s3"]["mana"] == 3 and state()["ruleset"]["players"]["s2"]["mana"] == 3
    # S-10: a player in a challenge is not put out before its battle is fought or skipped (the battle would be
    # listed with a player out of the war, its card prompt waiting for it)
    error = act("eliminate", {"seat": "s2"}, status=409)["error"]
    assert error["en"] == ("アーチャー is in a challenge of this action phase: end the phase, then fight or skip that "
                           "battle first (S-6)")


def test_s10_an_eliminated_player_acts_no_more(game):
    """S-10: a player out of the war used Command Seals and skills still (and the GM's square events reached it)."""
    act, state = game["act"], game["state"]
    act("square_event", {"seat": "s4", "vp": -10})
    act("end_round", {"force": True, "vote": False})
    assert state()["ruleset"]["out"] == ["s4"]
    # every screen that lists the seats marks it out: the others' phones (他の席, core's card showed the counters'
    # flags only), the GM's and the table's lists, from the seats' flags (the ruleset's seat_flags), for every viewer
    out_flag = {"flag": "sugoroku_out", "label": {"ja": "脱落", "en": "Out of the war"}}
    for who in game["tokens"]:
        flags = {seat["id"]: seat["flags"] for seat in state(who)["seats"]}
        assert flags == {"s1": [], "s2": [], "s3": [], "s4": [out_flag]}, who
    phone = open_link(game["client"].application, game["data"]["seats"][0]["join_url"])
    for lang, word in (("ja", "脱落"), ("en", "Out of the war")):
        html = phone.get(f"/s/{game['sid']}/phone?lang={lang}").get_data(as_text=True)
        others = re.findall(r'<div class="other"><b>([^<]*)</b>\s*((?:<span class="flag">[^<]*</span>)*)', html)
        assert others == [("アーチャー", ""), ("ランサー", ""), ("ライダー", f'<span class="flag">{word}</span>')], lang
    for name, payload, who in (("use_seal", {"effect": "mana"}, "s4"), ("use_skill", {"kind": "skill"}, "s4"),
                               ("use_seal", {"effect": "mana", "seat": "s4"}, "gm"),
                               ("square_event", {"seat": "s4", "vp": 3}, "gm"),
                               # the GM's steps naming a seat too (docs: any action for a seat out of the war is a
                               # 409; eliminating it again was a 400 `Give a seat still in the game`)
                               ("eliminate", {"seat": "s4"}, "gm"), ("reveal_true_name", {"seat": "s4"}, "gm")):
        error = act(name, payload, who=who, status=409)["error"]
        assert error["ja"] == "ライダーは脱落しています [S-10]" and error["en"] == "ライダー is out of the war (S-10)"
    s4 = state()["ruleset"]["players"]["s4"]
    assert (s4["seals"], s4["uses"], s4["vp"]) == (3, 0, -10)
    # the GM may put a player out at any time (a ruling), but not what cannot be: a seat that does not exist (it
    # was asked to choose a seat) or the last player left in the war (nobody would be left); nothing is written
    error = act("eliminate", {"seat": "s9"}, status=404)["error"]
    assert (error["ja"], error["en"]) == ("その席はありません", "There is no such seat")
    act("eliminate", {"seat": "s3", "reason": "離席"})
    act("eliminate", {"seat": "s2"})  # セイバー, the last player left, wins (test_s1_s10_the_last_player_left_…)
    version = state()["session"]["version"]
    error = act("eliminate", {"seat": "s1"}, status=409)["error"]
    assert (error["ja"], error["en"]) == ("ゲームは終了しています", "The game is over")
    assert state()["session"]["version"] == version and state()["ruleset"]["out"] == ["s4", "s3", "s2"]


def test_s1_s10_the_last_player_left_in_the_war_wins(game):
    """The GM's ruling (脱落させる) put out everyone but セイバー in the middle of round 1, and セイバー went on alone:
    rolling through the phases and rounds, with nobody to fight or vote for. gmtool's reading (RULES S-1 / S-10 are
    silent): once one player alone is left in the war the game is over and that player wins, as at the climax's end;
    the console's form says so on its first click. Undo takes it back. Once it is over, no screen offers a step (each
    one refused, 409): the karma conversion the last battle left (S-12) and the square events, seals, true names and
    squares stayed on the console and the victor's phone; nor does a screen offer a victor put out its conversion."""
    act, state, client, sid, answer = game["act"], game["state"], game["client"], game["sid"], game["answer"]
    # two battles, each won against a 討伐令 (S-12): セイバー over アーチャー on square 2, ランサー over ライダー on 4
    act("square_event", {"seat": "s2", "karma": 9})
    act("square_event", {"seat": "s4", "karma": 9})
    _moves(act, (("s1", 2), ("s2", 2), ("s3", 4), ("s4", 4)))
    act("end_phase")
    for _square in (2, 4):
        battle = act("start_battle")["ruleset"]["battle"]
        answer(battle["prompt"], battle["parent"], "力5")
        answer(battle["prompt"], battle["children"][0], ["技1"])
        act("end_battle")
    assert [(k["victor"], k["target"]) for k in state()["ruleset"]["karma_pending"]] == [("s1", "s2"), ("s3", "s4")]
    phones = {seat["id"]: open_link(client.application, seat["join_url"]) for seat in game["data"]["seats"]}

    def section(screen, html):  # the ruleset's panel of a console or a phone page
        return html.split(f'id="sugoroku-{screen}"')[1].split("</section>")[0]

    act("eliminate", {"seat": "s4", "reason": "離席"})
    console = open_link(client.application, game["data"]["gm_url"])
    form = console.get(f"/s/{sid}/gm").get_data(as_text=True).split('id="sg-ruling-out"')[1].split("</form>")[0]
    assert 'data-second-tap="選んだプレイヤーは脱落すると以後行動できません: もう一度押すと脱落させる"' in form
    act("eliminate", {"seat": "s3"})
    page = console.get(f"/s/{sid}/gm?lang=en").get_data(as_text=True)
    form = page.split('id="sg-ruling-out"')[1].split("</form>")[0]
    # the victor put out converts no more (409, S-10): only セイバー's conversion is offered, on its phone only
    karma = re.findall(r'name="seat" value="(s\d)"><input type="hidden" name="target"', section("gm", page))
    assert karma == ["s1"], karma
    assert "convert_karma" in section("phone", phones["s1"].get(f"/s/{sid}/phone").get_data(as_text=True))
    assert "convert_karma" not in section("phone", phones["s3"].get(f"/s/{sid}/phone").get_data(as_text=True))
    tv = open_link(client.application, game["data"]["table_url"])
    offers = re.findall(r'<p class="flag">([^:<]*): [^<]*討伐成功', tv.get(f"/s/{sid}/table").get_data(as_text=True))
    assert offers == ["セイバー"], offers  # the TV's line that the victor may convert (ランサー's too, out)
    assert ('data-second-tap="One player is left once the player chosen is out, who wins: the game ends: click again '
            'to put them out"') in form
    events = act("eliminate", {"seat": "s2", "reason": "離席"})["events"]
    assert [e["type"] for e in events] == ["sugoroku.eliminated"]
    log = {lang: client.get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(game["tokens"]["table"])).get_json()[
        "events"][-1] for lang in ("ja", "en")}
    assert log["ja"]["data"] == {"seat": "s2", "gap": None, "reason": {"ja": "離席", "en": "離席", "rule": "S-10"},
                                 "winner": "s1"}
    assert log["ja"]["text"] == "アーチャーが脱落（離席） [S-10]。残ったセイバーの優勝（ゲーム終了） [S-1]"
    assert log["en"]["text"] == "アーチャー is out (離席) [S-10]. セイバー, the last player left, wins (the game is over) [S-1]"
    for who in ("gm", "table", "s1"):
        rv = state(who)["ruleset"]
        assert rv["finished"] and rv["round_ended"] and rv["current"] is None, who
        assert [w["seat"] for w in rv["winners"]] == ["s1"] and rv["winner_words"]["ja"].startswith("セイバー（戦果 ")
        assert rv["round_over"] == {"ja": "残ったのはセイバーだけ（ほかは全員脱落）",
                                    "en": "セイバー is the last player left in the war", "rule": "S-10"}
    page = console.get(f"/s/{sid}/gm?lang=ja").get_data(as_text=True)
    assert 'id="sg-ruling-out"' not in page and 'id="sg-start-round"' not in page  # it offered ラウンド2へ
    assert re.search(r'<p class="summary sg-winner">ゲーム終了 · 優勝: セイバー（戦果 \d+）</p>', page)
    assert state()["ruleset"]["next_round"] is None
    for name, payload, who in (("roll_move", {}, "s1"), ("eliminate", {"seat": "s1"}, "gm")):
        assert act(name, payload, who=who, status=409)["error"]["en"] == "The game is over"
    # every step is refused now (set_square and skip_turn were taken, skip_turn skipping セイバー's turn after the
    # game), and none is offered on the console nor on any phone (the karma forms and the panel's forms were)
    version = state()["session"]["version"]
    payload = {"seat": "s1", "target": "s2", "amount": 1, "square": 3, "vp": 1, "effect": "mana", "kind": "skill",
               "card": "力3", "winner": "s1", "force": True}
    for name in sorted(ACTIONS):
        assert act(name, payload, status=409)["error"]["en"] in (
            "The game is over", "Already set up (undo it to start over)", "The round is over", "The round is already over",
            "There is no pending battle", "No battle is in progress", "There is no next round (end this one first)"), name
        if "seat" in docs_rows((ROOT / "docs/rulesets/sugoroku.md").read_text(encoding="utf-8"))[name].split("|")[0]:
            assert act(name, payload, who="s1", status=409)["error"]["en"] == "The game is over", name
    assert act("skip_turn", {}, status=409)["error"]["en"] == "The game is over"
    assert state()["session"]["version"] == version
    assert "hx-post" not in section("gm", page) and "sg-winner" in section("gm", page)
    assert "討伐成功" not in tv.get(f"/s/{sid}/table").get_data(as_text=True)  # nor does the TV say one may be taken
    for seat, phone in phones.items():
        mine = section("phone", phone.get(f"/s/{sid}/phone?lang=en").get_data(as_text=True))
        assert "hx-post" not in mine and "Game over · Winner: セイバー (VP " in mine, seat
    assert act("end_round", {"force": True}, status=409)["error"]["en"] == "The round is already over"
    assert act("start_round", {}, status=409)["error"]["en"] == "There is no next round (end this one first)"
    r = client.post(f"/api/sessions/{sid}/undo", headers=bearer(game["tokens"]["gm"]), json={})
    assert r.status_code == 200, r.get_json()
    rv = state()["ruleset"]
    assert not rv["finished"] and not rv["round_ended"] and rv["out"] == ["s4", "s3"] and rv["round_over"] is None


def test_s1_s10_a_round_end_that_leaves_one_player_ends_the_game(client):
    """S-10 at round 1's end put out the last place of two, and the one left went on alone into round 2: the game is
    over with it (as the GM's ruling, test_s1_s10_the_last_player_left_in_the_war_wins): the round's end is final,
    the winner named, no true-name vote, no next round."""
    game = new_game(client, seats=("セイバー", "アーチャー"))
    act, state = game["act"], game["state"]
    # two players end round 1 once both are at the goal (Reading round_end_all_at_goal, on by default): the TV's
    # headline said 「6人のゴールで終了」 and its title and the console's 「ゴール 0/6」, a count two never reach
    rv = state("table")["ruleset"]
    assert (rv["goal_needed"], rv["goal_ends"]) == (6, 2)
    tv = open_link(client.application, game["data"]["table_url"]).get(f"/s/{game['sid']}/table").get_data(as_text=True)
    console = open_link(client.application, game["data"]["gm_url"]).get(f"/s/{game['sid']}/gm").get_data(as_text=True)
    assert "行動フェイズ8回か、2人のゴールで終了" in tv and "ゴール 0/2" in tv and "ゴール 0/2</h2>" in console
    act("square_event", {"seat": "s1", "vp": 12})  # アーチャー 2 (its unspent CP): 10 behind
    ended = act("end_round", {"force": True})
    assert [e["type"] for e in ended["events"]][:2] == ["sugoroku.round_ended", "sugoroku.eliminated"]
    rv = state("table")["ruleset"]
    assert rv["out"] == ["s2"] and rv["finished"] and rv["vote"] is None and rv["next_round"] is None
    assert [w["seat"] for w in rv["winners"]] == ["s1"]
    log = game["client"].get(f"/api/sessions/{game['sid']}/log", headers=bearer(game["tokens"]["gm"])).get_json()["events"]
    round_ended = next(e for e in log if e["type"] == "sugoroku.round_ended")["data"]
    assert round_ended["final"] and round_ended["winners"] == ["s1"]
    assert {"ja": "残ったのはセイバーだけ（ほかは全員脱落）", "en": "セイバー is the last player left in the war",
            "rule": "S-10"} in round_ended["notes"]
    assert act("start_round", {}, status=409)["error"]["en"] == "There is no next round (end this one first)"


def test_s10_s13_a_player_the_gm_puts_out_during_the_vote_votes_no_more_and_is_voted_for_no_more(game):
    """Play-through: two tied for last place 10 behind (Reading elimination_tie=gm), the round's true-name vote open;
    the GM put ライダー out (S-10), who had voted. The last vote was then refused, 400 `Voters and targets must be
    players`, and the vote could never be revealed. A player put out during the vote is taken off it (its vote
    withdrawn, core's prompt.dropped); a vote for it is void, and said so; the tie it leaves is broken by the one
    last place left (S-13), on its phone."""
    act, state, answer, client, sid = game["act"], game["state"], game["answer"], game["client"], game["sid"]
    r = client.post(f"/api/sessions/{sid}/readings", headers=bearer(game["tokens"]["gm"]),
                    json={"key": "elimination_tie", "value": "gm"})
    assert r.status_code == 200, r.get_json()
    act("square_event", {"seat": "s1", "vp": 15})
    act("square_event", {"seat": "s2", "vp": 11})  # 13 with its unspent CP: ランサー and ライダー 0, 13 behind
    rv = act("end_round", {"force": True})["ruleset"]
    assert rv["candidates"] == ["s3", "s4"] and rv["vote"] == "sg-vote-round1"
    # between rounds nobody rolls, so no turn is skipped (セイバー's, who had not moved, was)
    assert act("skip_turn", {}, status=409)["error"]["en"] == "Only the current mover's turn can be skipped"
    answer("sg-vote-round1", "s4", "s1")
    answer("sg-vote-round1", "s3", "s4")
    events = [e["type"] for e in act("eliminate", {"seat": "s4"})["events"]]
    assert events == ["sugoroku.eliminated", "prompt.option_disabled", "prompt.dropped"]
    vote = next(p for p in state()["prompts"] if p["id"] == "sg-vote-round1")
    assert vote["respondents"] == ["s1", "s2", "s3"] and vote["answered"] == ["s3"]
    # ライダー, out, is greyed out with its reason on every other phone (it stayed an option there; the count was
    # right already): ランサー, who voted for it, must vote again
    out = {"ja": "脱落済み（S-10）", "en": "Out of the war (S-10)"}
    for seat in ("s1", "s2", "s3"):
        mine = client.get(f"/api/sessions/{sid}/prompts/sg-vote-round1", headers=bearer(game["tokens"][seat])).get_json()
        assert mine["disabled"]["s4"] == out, (seat, mine["disabled"])
    error = answer("sg-vote-round1", "s3", "s4", status=400)["error"]
    assert error["ja"] == "「ライダー」は選べません：脱落済み（S-10）"
    assert error["en"] == "'ライダー' is not allowed: Out of the war (S-10)"
    log = client.get(f"/api/sessions/{sid}/log?lang=en", headers=bearer(game["tokens"]["table"])).get_json()["events"]
    assert log[-2]["text"] == "ライダー can no longer be chosen in 'True name vote (Round 1)' (Out of the war (S-10))"
    answer("sg-vote-round1", "s1", "s2")
    answer("sg-vote-round1", "s2", "s1")  # ランサー's vote, void, is awaited again: the vote is not revealed with it
    vote = next(p for p in state()["prompts"] if p["id"] == "sg-vote-round1")
    assert vote["status"] == "open", vote
    assert vote["void"] == ["s3"] and vote["answered"] == ["s1", "s2", "s3"]
    _void_is_the_gms_alone(game, "ランサー")
    r = client.post(f"/api/sessions/{sid}/prompts/sg-vote-round1/reveal", headers=bearer(game["tokens"]["gm"]))
    assert r.status_code == 200, r.get_json()  # the GM may reveal it without that vote
    vote = next(p for p in state()["prompts"] if p["id"] == "sg-vote-round1")
    assert vote["status"] == "revealed", vote
    res = vote["resolution"]
    assert [(c["option"], c["votes"]) for c in res["counts"]] == [("s1", 1), ("s2", 1)]
    assert res["summary"]["ja"] == "同数（セイバー・アーチャー：1票）→ 最下位のランサーが決定"
    assert {"ja": "脱落したライダーへの票（1票）は数えません",
            "en": "1 vote for ライダー, who is out, does not count", "rule": "S-10"} in res["notes"]
    r = client.post(f"/api/sessions/{sid}/prompts/sg-vote-round1/confirm", headers=bearer(game["tokens"]["gm"]))
    assert r.status_code == 200, r.get_json()
    answer("sg-vote-round1-tb", "s3", "s2")  # the tie-break on ランサー's phone (last place, alone now)
    r = client.post(f"/api/sessions/{sid}/prompts/sg-vote-round1-tb/confirm", headers=bearer(game["tokens"]["gm"]))
    assert r.status_code == 200, r.get_json()
    assert state()["ruleset"]["players"]["s2"]["revealed"] and not state()["ruleset"]["players"]["s4"]["revealed"]


def _void_is_the_gms_alone(game, voter):
    """The GM console marked a void vote (one for the player put out, core's void) as counted (✓): the GM must see
    who votes again, 選び直し待ち beside `voter`; and nobody else: it would tell everyone whose vote was for the
    player put out. In the GM's view only (`void`), never in a seat's or the table's view, page, live fragment (what
    the stream pushes, screens.live_fragment) or an export."""
    client, sid, data = game["client"], game["sid"], game["data"]
    app = client.application
    urls = {"gm": data["gm_url"], "table": data["table_url"], **{s["id"]: s["join_url"] for s in data["seats"]}}
    for who, url in urls.items():
        seen = client.get(f"/api/sessions/{sid}/state", headers=bearer(game["tokens"][who])).get_json()
        assert all(("void" in p) == (who == "gm") for p in seen["prompts"]), who
        screen = open_link(app, url)
        path = {"gm": f"/s/{sid}/gm", "table": f"/s/{sid}/table"}.get(who, f"/s/{sid}/phone")
        for lang, word in (("ja", "選び直し待ち"), ("en", "Must choose again")):
            for htmx in ({}, {"HX-Request": "true"}):
                html = screen.get(f"{path}?lang={lang}", headers=htmx).get_data(as_text=True)
                marked = re.findall(r'<li class="waiting void">\s*<span class="who">([^<]*)</span>\s*'
                                    r'<span class="wait" data-void>([^<]*)</span>', html)
                assert marked == ([(voter, word)] if who == "gm" else []), (who, lang, htmx, marked)
                assert word not in html or who == "gm", (who, lang)
    for query in ("format=markdown", "format=json", "format=json&full=1", "format=html&lang=en"):
        r = client.get(f"/api/sessions/{sid}/export?{query}", headers=bearer(game["tokens"]["gm"]))
        text = r.get_data(as_text=True)
        assert r.status_code == 200 and "選び直し待ち" not in text and "Must choose again" not in text and '"void"' not in text, query


@pytest.mark.parametrize("s3_vp", [1, 2], ids=["one-last-place-left", "last-place-left-tied"])
def test_s10_s13_the_last_place_deciding_the_tie_break_put_out_decides_no_more(game, s3_vp):
    """S-13: the vote tied (セイバー, アーチャー 2 votes each) and ライダー, alone in last place, was to break the tie on
    its phone; the GM put ライダー out (S-10), and the tie-break still waited for ライダー, out of the war (only the main
    vote was handled). The last place left decides instead: ランサー on the same prompt (added, ライダー taken off,
    core's prompt.dropped), or the GM when the last place left is tied (ランサー and アーチャー on 2 VP): the tie-break
    opens again for the GM as <vote>-tb2. All four tied and セイバー put out first: the last place added to the
    tie-break could pick セイバー, greyed out only for the last place it was given to (an extra round)."""
    act, state, answer, client, sid = game["act"], game["state"], game["answer"], game["client"], game["sid"]
    gm = bearer(game["tokens"]["gm"])
    act("square_event", {"seat": "s1", "vp": 5})
    act("square_event", {"seat": "s3", "vp": s3_vp})  # アーチャー 2 (its unspent CP), ライダー 0: nobody 10 behind
    vote = act("end_round", {"force": True})["ruleset"]["vote"]
    for voter, target in (("s1", "s2"), ("s2", "s3"), ("s3", "s4"), ("s4", "s1")):
        answer(vote, voter, target)
    assert client.post(f"/api/sessions/{sid}/prompts/{vote}/confirm", headers=gm).status_code == 200
    tb = next(p for p in state()["prompts"] if p["id"] == f"{vote}-tb")
    assert tb["respondents"] == ["s4"] and tb["status"] == "open"
    assert [e["type"] for e in act("eliminate", {"seat": "s1"})["events"]] == [
        "sugoroku.eliminated", "prompt.option_disabled"]
    events = [e["type"] for e in act("eliminate", {"seat": "s4"})["events"]]
    prompts = {p["id"]: p for p in state()["prompts"]}
    greyed = {"ja": "脱落済み（S-10）", "en": "Out of the war (S-10)"}
    if s3_vp == 1:
        assert events == ["sugoroku.eliminated", "prompt.extended", "prompt.dropped", "prompt.resolved",
                          "prompt.option_disabled"]
        assert prompts[vote]["resolution"]["summary"]["ja"].endswith("→ 最下位のランサーが決定")  # was ライダー
        assert prompts[f"{vote}-tb"]["respondents"] == ["s3"] and prompts[f"{vote}-tb"]["status"] == "open"
        mine = client.get(f"/api/sessions/{sid}/prompts/{vote}-tb", headers=bearer(game["tokens"]["s3"])).get_json()
        assert mine["disabled"] == {"s1": greyed, "s4": greyed}
        answer(f"{vote}-tb", "s3", "s1", status=400)  # セイバー, out before ランサー decided, is greyed out there too
        answer(f"{vote}-tb", "s4", "s2", status=403)  # ライダー, out, decides no more
        answer(f"{vote}-tb", "s3", "s2")
        # undoing ライダー's elimination now would leave ランサー's pick on a tie-break ライダー answers: refused
        r = client.post(f"/api/sessions/{sid}/undo", headers=gm, json={})
        assert r.status_code == 409 and "cannot be undone: later actions" in r.get_json()["error"]["en"], r.get_json()
        assert state()["ruleset"]["out"] == ["s1", "s4"]
        decided = f"{vote}-tb"
    else:
        assert events == ["sugoroku.eliminated", "prompt.cancelled", "prompt.opened", "prompt.resolved"]
        assert prompts[vote]["resolution"]["summary"]["en"].endswith("→ last place is tied: the GM decides")
        assert prompts[f"{vote}-tb"]["status"] == "cancelled" and prompts[f"{vote}-tb"]["reason"] == {
            "ja": "決める最下位のライダーが脱落（S-10）、最下位が同点のためGMが決定",
            "en": "ライダー, the last place deciding, is out (S-10); last place is tied: the GM decides"}
        assert prompts[f"{vote}-tb2"]["respondents"] == ["gm"] and prompts[f"{vote}-tb2"]["options"] == ["s2", "s3"]
        assert state()["ruleset"]["vote_waiting"]
        answer(f"{vote}-tb2", "gm", "s2")
        decided = f"{vote}-tb2"
    r = client.post(f"/api/sessions/{sid}/prompts/{decided}/confirm", headers=gm)
    assert r.status_code == 200, r.get_json()
    rv = state()["ruleset"]
    assert rv["players"]["s2"]["revealed"] and not rv["vote_waiting"]


def _notes(game, prompt):
    """Who reads a line above the answer form of `prompt` (its view's `note`), of the GM, the table and every seat."""
    client, sid = game["client"], game["sid"]
    seen = {who: client.get(f"/api/sessions/{sid}/prompts/{prompt}", headers=bearer(token)).get_json()
            for who, token in game["tokens"].items()}
    return {who: view["note"] for who, view in seen.items() if view.get("note") is not None}


def _never_shown(game, seat, name):
    """`name`, the true name of `seat`, put out of the war, is nowhere the table or a phone reads it, nor in the write-up
    or the public JSON export."""
    client, sid = game["client"], game["sid"]
    for who in ("table", "s3"):
        seen = client.get(f"/api/sessions/{sid}/state", headers=bearer(game["tokens"][who])).get_json()
        assert seen["ruleset"]["players"][seat]["true_name"] is None and not seen["ruleset"]["players"][seat]["revealed"]
        assert name not in repr(seen)
        for lang in ("ja", "en"):
            log = client.get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(game["tokens"][who])).get_json()
            assert name not in repr(log)
    for fmt in ("markdown", "json"):
        r = client.get(f"/api/sessions/{sid}/export?format={fmt}&lang=en", headers=bearer(game["tokens"]["gm"]))
        assert r.status_code == 200 and name not in r.get_data(as_text=True)


@pytest.mark.parametrize("when", ["vote-revealed", "tie-break-open", "pick-revealed"])
def test_s10_s13_a_player_put_out_is_never_revealed_by_the_vote(game, when):
    """S-13: the vote tied セイバー and アーチャー (2 votes each), ライダー (last place) to break it. The GM put アーチャー
    out (S-10) and the vote could still reveal its true name, エミヤ: the result revealed and not yet confirmed, the
    tie-break offering it on ライダー's phone, or ライダー's pick of it not yet confirmed. A player who is out is never
    revealed by the vote: the result is worked out again without it (its vote and the votes for it do not count), and
    when only one of the tied is left it wins without a tie-break."""
    act, state, answer, client, sid = game["act"], game["state"], game["answer"], game["client"], game["sid"]
    gm = bearer(game["tokens"]["gm"])
    act("square_event", {"seat": "s1", "vp": 5})
    act("square_event", {"seat": "s3", "vp": 1})  # アーチャー 2 (its unspent CP), ライダー 0: last place
    vote = act("end_round", {"force": True})["ruleset"]["vote"]
    for voter, target in (("s1", "s2"), ("s2", "s1"), ("s3", "s2"), ("s4", "s1")):
        answer(vote, voter, target)
    if when != "vote-revealed":
        assert client.post(f"/api/sessions/{sid}/prompts/{vote}/confirm", headers=gm).status_code == 200
    if when == "pick-revealed":
        answer(f"{vote}-tb", "s4", "s2")  # ライダー picks アーチャー: revealed, the GM's confirm would reveal エミヤ
    events = [e["type"] for e in act("eliminate", {"seat": "s2"})["events"]]
    prompts = {p["id"]: p for p in state()["prompts"]}
    if when == "tie-break-open":  # セイバー alone is left of the tied: revealed at once, the tie-break cancelled
        assert events == ["sugoroku.eliminated", "prompt.cancelled", "sugoroku.true_name_revealed", "prompt.revealed",
                          "prompt.resolved"]
        assert prompts[vote]["resolution"]["summary"] == {  # it said ライダー (last place) decides
            "ja": "同数（セイバー・アーチャー：2票）→ 同数で残ったセイバーの真名を公開",
            "en": "Tie (セイバー, アーチャー: 2) → セイバー, the only one of the tied left, is revealed"}
        assert prompts[f"{vote}-tb"]["status"] == "cancelled" and prompts[f"{vote}-tb"]["reason"] == {
            "ja": "アーチャーが脱落（S-10）：同数で残るのはセイバーだけ",
            "en": "アーチャー is out (S-10): セイバー is the only one of the tied left"}
    else:
        decided = vote if when == "vote-revealed" else f"{vote}-tb"
        assert events == ["sugoroku.eliminated", "prompt.resolved"]
        result = prompts[decided]["resolution"]
        if when == "vote-revealed":
            assert result["summary"]["en"] == "Most votes: セイバー (1) → true name revealed"
            assert {"ja": "脱落したアーチャーの票は数えません", "en": "The vote of アーチャー, who is out, does not count",
                    "rule": "S-10"} in result["notes"]
            assert {"ja": "脱落したアーチャーへの票（2票）は数えません",
                    "en": "2 votes for アーチャー, who is out, do not count", "rule": "S-10"} in result["notes"]
        else:
            assert result["summary"] == {"ja": "選ばれたアーチャーは脱落：同数で残ったセイバーの真名を公開",
                                         "en": "アーチャー, the pick, is out: セイバー, the only one of the tied left, is revealed"}
        assert client.post(f"/api/sessions/{sid}/prompts/{decided}/confirm", headers=gm).status_code == 200
    rv = state()["ruleset"]
    assert rv["players"]["s1"]["revealed"] and not rv["players"]["s2"]["revealed"] and not rv["vote_waiting"]
    assert state("table")["ruleset"]["players"]["s1"]["true_name"] == "アルトリア"
    _never_shown(game, "s2", "エミヤ")


def test_s10_s13_a_voter_left_with_nobody_to_vote_for_votes_no_more(game):
    """S-13: セイバー's and アーチャー's true names known, ランサー could vote only for ライダー; ライダー put out (S-10),
    ランサー had nobody left to vote for and the vote waited for it. It is taken off the vote too (still a candidate),
    and the vote ends as the others answer. The others had voted for ライダー, who had not voted: putting it out
    revealed the vote at once with their votes void, where they are awaited again (選び直してください)."""
    act, answer, client, sid = game["act"], game["answer"], game["client"], game["sid"]
    act("reveal_true_name", {"seat": "s1"})
    act("reveal_true_name", {"seat": "s2"})
    vote = act("end_round", {"force": True})["ruleset"]["vote"]
    for voter in ("s1", "s2", "s3"):
        answer(vote, voter, "s4")
    events = act("eliminate", {"seat": "s4"})["events"]
    assert [e["type"] for e in events] == ["sugoroku.eliminated", "prompt.option_disabled", "prompt.dropped",
                                           "prompt.dropped"]
    log = client.get(f"/api/sessions/{sid}/log?lang=en", headers=bearer(game["tokens"]["table"])).get_json()["events"]
    assert log[-1]["text"] == ("ランサー no longer answers 'True name vote (Round 1)' (nobody left to vote for (S-13)); "
                               "the answer given stays unrevealed")
    answer(vote, "s1", "s3")
    assert client.get(f"/api/sessions/{sid}/prompts/{vote}", headers=bearer(game["tokens"]["gm"])).get_json()[
        "status"] == "open"  # アーチャー's vote for ライダー is awaited again
    answer(vote, "s2", "s3")  # the last answer awaited: revealed
    result = client.get(f"/api/sessions/{sid}/prompts/{vote}", headers=bearer(game["tokens"]["gm"])).get_json()
    assert result["status"] == "revealed" and result["resolution"]["winners"] == ["s3"]


@pytest.mark.parametrize("out", ["s4", "s1"], ids=["a-tied-last-place-out", "a-tied-candidate-out"])
def test_s10_s13_the_gms_tie_break_when_a_player_is_put_out(game, out):
    """S-13: a tie is decided by the last-placed player, the GM when the last place is tied (ランサー and ライダー on
    0): the four tied, the tie-break is the GM's. ライダー put out (S-10), ランサー alone is last: it decides, as it
    would had ライダー been out before the vote (the tie-break opens again on its phone, <vote>-tb2, without ライダー).
    セイバー put out instead, the last place is still tied: the tie-break stays with the GM, セイバー greyed out there.
    Either way a player put out later is greyed out where the tie-break is answered, and the tie-break ends."""
    act, state, answer, client, sid = game["act"], game["state"], game["answer"], game["client"], game["sid"]
    gm = bearer(game["tokens"]["gm"])
    act("square_event", {"seat": "s1", "vp": 5})
    vote = act("end_round", {"force": True})["ruleset"]["vote"]
    for voter, target in (("s1", "s2"), ("s2", "s1"), ("s3", "s4"), ("s4", "s3")):
        answer(vote, voter, target)
    assert client.post(f"/api/sessions/{sid}/prompts/{vote}/confirm", headers=gm).status_code == 200
    # the GM breaks the tie: its answer form says so, to the GM only (prompt view `note`)
    gm_decides = ("最下位が同点のため、同数になった真名看破投票はGMが決めます：真名を公開する相手を1人選んでください（S-13）",
                  "Last place is tied, so the tied true-name vote is the GM's to break: choose whose true name is "
                  "revealed (S-13)")
    assert _notes(game, f"{vote}-tb") == {"gm": dict(zip(("ja", "en"), gm_decides))}
    last_tied = {"ja": "最下位が同点：GMが同数の中から選ぶ", "en": "Last place is tied: the GM picks among the tied",
                 "rule": "S-13"}
    result = next(p for p in state("table")["prompts"] if p["id"] == vote)["resolution"]
    assert result["summary"]["en"].endswith("→ last place is tied: the GM decides") and last_tied in result["notes"]
    events = [e["type"] for e in act("eliminate", {"seat": out})["events"]]
    prompts = {p["id"]: p for p in state()["prompts"]}
    greyed = {"ja": "脱落済み（S-10）", "en": "Out of the war (S-10)"}
    if out == "s4":
        assert events == ["sugoroku.eliminated", "prompt.cancelled", "prompt.opened", "prompt.resolved"]
        assert prompts[f"{vote}-tb"]["reason"] == {"ja": "ライダーが脱落（S-10）、最下位のランサーが決定",
                                                   "en": "ライダー is out (S-10); last place (ランサー) decides"}
        tb, decider = f"{vote}-tb2", "s3"
        assert prompts[tb]["respondents"] == ["s3"] and prompts[tb]["options"] == ["s1", "s2", "s3"]
        # the vote's result said the GM decides: it now says ランサー does, and why (the GM's note on the tie gone)
        result = next(p for p in state("table")["prompts"] if p["id"] == vote)["resolution"]
        assert result["summary"] == {"ja": "同数（セイバー・アーチャー・ランサー・ライダー：1票）→ 最下位のランサーが決定",
                                     "en": "Tie (セイバー, アーチャー, ランサー, ライダー: 1) → last place (ランサー) decides"}
        assert last_tied not in result["notes"] and result["notes"][-1] == {
            "ja": "ライダーが脱落（S-10）：最下位のランサーが決定", "en": "ライダー is out (S-10): last place (ランサー) decides",
            "rule": "S-13"}
        assert result["events"] == prompts[vote]["resolution"]["events"] and prompts[vote]["confirmed"]
        # undone, the vote's result says the GM decides again (then ライダー is put out again)
        assert client.post(f"/api/sessions/{sid}/undo", headers=gm, json={}).status_code == 200
        undone = next(p for p in state("table")["prompts"] if p["id"] == vote)["resolution"]
        assert undone["summary"]["en"].endswith("→ last place is tied: the GM decides") and last_tied in undone["notes"]
        act("eliminate", {"seat": out})
        # ランサー's phone says the tie is ランサー's to break, above its choices; no other screen does
        assert _notes(game, tb) == {"s3": {"ja": "同数になった真名看破投票は、最下位のあなたが決めます：真名を公開する相手を1人選んでください（S-13）",
                                           "en": "The tied true-name vote is yours to break, as the last-placed player: "
                                                 "choose whose true name is revealed (S-13)"}}
        phone = open_link(client.application, next(s["join_url"] for s in game["data"]["seats"] if s["id"] == "s3"))
        for lang in ("ja", "en"):
            html = phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
            card = html[html.index(f'id="ask-{tb}"'):]
            assert card.index(_notes(game, tb)["s3"][lang]) < card.index('name="value"'), lang
        act("eliminate", {"seat": "s1"})  # one of the tied put out now: greyed out on ランサー's phone
    else:
        assert events == ["sugoroku.eliminated", "prompt.option_disabled"]
        tb, decider = f"{vote}-tb", "gm"
        assert prompts[tb]["respondents"] == ["gm"] and prompts[tb]["status"] == "open"
    mine = client.get(f"/api/sessions/{sid}/prompts/{tb}", headers=bearer(game["tokens"][decider])).get_json()
    assert mine["disabled"] == {"s1": greyed}
    answer(tb, decider, "s1", status=400)
    answer(tb, decider, "s2")  # revealed
    # undoing セイバー's elimination now would leave a pick made with セイバー greyed out, revealed, on a tie-break
    # offering セイバー again: refused, nothing changes
    r = client.post(f"/api/sessions/{sid}/undo", headers=gm, json={})
    error = r.get_json()["error"]
    assert r.status_code == 409 and "cannot be undone: later actions" in error["en"] and "取り消せません" in error["ja"]
    assert "s1" in state()["ruleset"]["out"]
    assert client.post(f"/api/sessions/{sid}/prompts/{tb}/confirm", headers=gm).status_code == 200
    rv = state()["ruleset"]
    assert rv["players"]["s2"]["revealed"] and not rv["vote_waiting"]
    assert not any(rv["players"][p]["revealed"] for p in ("s1", "s3", "s4"))


def test_s11_free_move_ignores_the_roll_once(game):
    """S-11: the seal ignores the roll and moves up to 4 squares from where the player stood before it; a second
    seal right after moved 4 more from the square the ignored roll had reached (0 → 6, then 3, then 10)."""
    act, state = game["act"], game["state"]
    act("roll_move", {"faces": [6]}, who="s1")
    act("use_seal", {"effect": "free_move", "squares": 3}, who="s1")
    assert state()["ruleset"]["players"]["s1"]["position"] == 3
    assert state("s1")["ruleset"]["me"]["can_free_move"] is False
    error = act("use_seal", {"effect": "free_move", "squares": 4}, who="s1", status=409)["error"]
    assert error["en"] == "Only right after your own roll"
    s1 = state()["ruleset"]["players"]["s1"]
    assert (s1["position"], s1["seals"]) == (3, 2)
    # its log line counts from the square before the roll: it read 「3マス進む（令呪：出目を無視 +3） マス6→3」, moving
    # 3 on to a square behind (play-through)
    lines = {lang: [e["text"] for e in game["client"].get(f"/api/sessions/{game['sid']}/log?lang={lang}", headers=bearer(
        game["tokens"]["table"])).get_json()["events"] if e["type"] == "sugoroku.moved"][-1] for lang in ("ja", "en")}
    assert lines == {"ja": "セイバー：振る前のマス0から3マス進む（令呪：出目を無視 +3） マス6→3 [S-11]",
                     "en": "セイバー: moves 3 from square 0, before the roll (seal: roll ignored +3), square 6→3 [S-11]"}


def test_s2_no_ninth_action_phase(game):
    """S-2: the round ends after the 8th action phase; end_phase (force) went on to a 9th and a 10th."""
    act, state = game["act"], game["state"]
    for _ in range(8):
        act("end_phase", {"force": True})
    view = state()["ruleset"]
    assert view["round_over"]["rule"] == "S-2" and (view["phase"], view["phase_shown"]) == (9, 8)
    error = act("end_phase", {"force": True}, status=409)["error"]
    assert error["en"] == "The round's end condition is met (the GM ends it)"
    assert state()["ruleset"]["phase"] == 9
    act("end_round")


def test_s2_the_phase_the_goal_ended_is_ended_once(game):
    """S-2: when the goal count ends the round mid-phase, the GM may end that phase (its battles), once."""
    act, state = game["act"], game["state"]
    act("square_event", {"seat": "s1", "move": 8})
    act("square_event", {"seat": "s2", "move": 8})
    act("square_event", {"seat": "s3", "move": 8})
    act("square_event", {"seat": "s4", "move": 7})  # 4 seats: all at the goal would end it; three are
    act("roll_move", {"faces": [1]}, who="s4")  # ... and s4's roll ends round 1 (everyone at the goal)
    assert state()["ruleset"]["round_over"]
    act("end_phase")
    act("end_phase", {"force": True}, status=409)


def test_s13_a_true_name_is_revealed_once_when_two_reasons_meet(game):
    """S-13: a 《真名開放》 NP that is also the 5th skill use + battle revealed the true name twice in one action
    (two sugoroku.true_name_revealed, two prompt.revealed, two log lines)."""
    act, client, sid = game["act"], game["client"], game["sid"]
    r = client.post(f"/api/sessions/{sid}/counters", headers=bearer(game["tokens"]["gm"]),
                    json={"seat": "s1", "key": "reveal_count", "value": 4})
    assert r.status_code == 200
    act("square_event", {"seat": "s1", "mana": 3})
    out = act("use_skill", {"kind": "np", "cost": 0, "true_name_release": True}, who="s1")
    types = [e["type"] for e in out["events"]]
    assert types.count("sugoroku.true_name_revealed") == 1 and types.count("prompt.revealed") == 1
    assert out["ruleset"]["players"]["s1"]["true_name"] == "アルトリア"


def _battle_on_3(game, cards):
    """s1, s2, s3 land on square 3 (s4 on 1), the battle starts and each plays its cards; the battle's view."""
    act, answer = game["act"], game["answer"]
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 3), ("s4", 1)))
    act("end_phase")
    battle = act("start_battle")["ruleset"]["battle"]
    for seat, value in cards.items():
        answer(battle["prompt"], seat, value)
    return game["state"]()["ruleset"]["battle"]


def test_s7_the_gm_rules_a_tie_among_the_tied(game):
    """S-7 (Reading battle_tie=gm): tied highest totals have no winner and the GM decides among them; a ruling for a
    fighter outside the tie (the lowest total) made it the winner, and one on a battle with a winner was taken
    with a 200 and ignored."""
    act = game["act"]
    act("battle_adjust", {"winner": "s1"}, status=409)  # no battle
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 3), ("s4", 1)))
    act("end_phase")
    act("start_battle")
    error = act("battle_adjust", {"winner": "s2"}, status=409)["error"]  # the cards are not revealed yet
    assert error["en"] == "There is no tie to rule (S-7)"
    version = game["state"]()["session"]["version"]
    error = act("battle_adjust", {"winner": "", "label": "宝具"}, status=400)["error"]  # nothing to adjust: in words
    assert (error["ja"], error["en"]) == ("「勝者」「戦果の効果」「勝利時戦果」のどれかを指定してください",
                                          "Give one of: Winner [winner], VP effect [vp_effect], Battle VP [square_vp]")
    assert game["state"]()["session"]["version"] == version
    battle = game["state"]()["ruleset"]["battle"]
    for seat, value in {"s1": "力3", "s2": "力5", "s3": "魔5"}.items():
        game["answer"](battle["prompt"], seat, value)
    result = game["state"]()["ruleset"]["battle"]["result"]
    assert result["tied"] == ["s2", "s3"] and result["gm_decides"] and result["winners"] == []
    assert result["summary"] == {"ja": "同点（アーチャー・ランサー）：GMが勝者を決めてください",
                                 "en": "Tie (アーチャー, ランサー): the GM decides the winner"}  # English lists as English does
    version = game["state"]()["session"]["version"]
    error = act("battle_adjust", {"winner": "s1"}, status=400)["error"]  # the tied and 勝者なし, as the console's buttons
    assert (error["ja"], error["en"]) == ("勝者は同点の「アーチャー」「ランサー」「勝者なし」のどれかです",
                                          "The winner must be one of the tied: アーチャー [s2], ランサー [s3], No winner [none]")
    assert game["state"]()["ruleset"]["battle"]["decision"] is None and game["state"]()["session"]["version"] == version
    result = act("battle_adjust", {"winner": "s3"})["ruleset"]["battle"]["result"]
    assert result["winners"] == ["s3"] and not result["gm_decides"]
    # the ruled tie says it was the GM's ruling (every screen read 「ランサーの勝ち（… アーチャー 5 対 ランサー 5）」)
    assert result["summary"]["ja"].startswith("GMの裁定でランサーの勝ち（セイバー 3 対 アーチャー 5 対 ランサー 5）")
    assert result["summary"]["en"].startswith("ランサー wins by the GM's ruling (セイバー 3 vs アーチャー 5 vs ランサー 5)")


def test_s7_no_ruling_on_a_battle_with_a_winner(game):
    """S-7: a ruling is for a tie; on a battle that has a winner it is a 409 and changes nothing."""
    battle = _battle_on_3(game, {"s1": "力3", "s2": "力5", "s3": "魔4"})
    assert battle["result"]["winners"] == ["s2"]
    error = game["act"]("battle_adjust", {"winner": "s1"}, status=409)["error"]
    assert error["en"] == "There is no tie to rule (S-7)"
    assert game["state"]()["ruleset"]["battle"]["result"]["winners"] == ["s2"]


def test_s7_reading_parent_wins_a_tie_leaves_nothing_for_the_gm(game):
    """S-7, Reading battle_tie=parent: the parent among the tied wins; the result said gm_decides all the same
    (and the console showed the tie buttons)."""
    r = game["client"].post(f"/api/sessions/{game['sid']}/readings", headers=bearer(game["tokens"]["gm"]),
                            json={"key": "battle_tie", "value": "parent"})
    assert r.status_code == 200
    result = _battle_on_3(game, {"s1": "力5", "s2": "力5", "s3": "魔4"})["result"]
    assert result["winners"] == ["s1"] and result["tied"] == ["s1", "s2"] and result["gm_decides"] is False


@pytest.mark.parametrize("mana", [-3, 15])
def test_s5_a_starting_mana_outside_0_to_14_is_refused(client, mana):
    """S-5: 魔力 is 0..14; a starting 魔力 of -3 or 15 was taken silently as 0 or 14. The refusal names the seat whose
    value it was (the setup form has a row per seat: 「初期魔力は0〜14です（15）」 left the GM to find it), as do the
    other per-seat values' refusals (a spent CP that is no number, too long a master name)."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー"]}).get_json()

    def refused(players):
        r = client.post(f"/api/sessions/{data['session']}/actions/setup", headers=bearer(data["gm_token"]),
                        json={"players": players})
        assert r.status_code == 400, r.get_json()
        return r.get_json()["error"]["ja"], r.get_json()["error"]["en"]
    assert refused({"s1": {"mana": 3}, "s2": {"mana": mana}}) == (
        f"アーチャーの初期魔力は0〜14です（{mana}）", f"The starting mana of アーチャー must be in 0..14 ({mana})")
    assert refused({"s2": {"cp_spent": "たくさん"}}) == (
        "アーチャーの使用CPは整数で入力してください（「たくさん」）", "The spent CP of アーチャー must be a whole number (got 'たくさん')")
    assert refused({"s1": {"master": "長" * 81}})[0].startswith("セイバーのマスター名は")
    state = client.get(f"/api/sessions/{data['session']}/state", headers=bearer(data["gm_token"])).get_json()
    assert state["session"]["version"] == 1


def test_s1_after_the_climax_the_game_is_over(client):
    """S-1: most 戦果 at the end of the climax wins; skills, seals and square events after it still changed the
    players' counters (and a skill could reveal a true name)."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー", "ランサー"]}).get_json()
    sid, gm = data["session"], bearer(data["gm_token"])
    seats = {s["id"]: bearer(s["token"]) for s in data["seats"]}

    def act(name, payload, who=gm, status=200):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=who, json=payload)
        assert r.status_code == status, r.get_json()
        return r.get_json()

    act("setup", {"board_length": 5, "skip_to_climax": True})
    act("roll_move", {"faces": [5]}, who=seats["s1"])
    act("roll_move", {"faces": [5]}, who=seats["s2"])  # 2 at the goal: the climax is over (S-2)
    assert act("end_round", {})["ruleset"]["finished"]
    for name, payload, who in (("use_skill", {"kind": "skill"}, seats["s3"]), ("use_seal", {"effect": "mana"}, seats["s3"]),
                               ("square_event", {"seat": "s3", "vp": 5}, gm),
                               ("eliminate", {"seat": "s3"}, gm), ("reveal_true_name", {"seat": "s3"}, gm)):
        assert act(name, payload, who, status=409)["error"]["en"] == "The game is over"
    s3 = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["players"]["s3"]
    assert (s3["uses"], s3["seals"], s3["vp"]) == (0, 3, 0)


def test_s8_a_square_vp_below_0_is_refused_where_it_is_given(game):
    """S-8: a square's battle VP is 0 or more; -3 was taken by set_square (and start_battle / battle_adjust), and
    then the battle could not be resolved: the last fighter's cards were refused with 'Square VP must be in 0..'."""
    act = game["act"]
    error = act("set_square", {"square": 3, "vp": -3}, status=400)["error"]
    assert error["en"] == "The battle VP must be 0 or more (-3)" and error["ja"] == "勝利時戦果は0以上です（-3）"
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 1), ("s4", 2)))
    act("end_phase")
    act("start_battle", {"square_vp": -1}, status=400)
    battle = act("start_battle", {"square_vp": 2})["ruleset"]["battle"]
    act("battle_adjust", {"square_vp": -1}, status=400)
    game["answer"](battle["prompt"], "s1", "力5")
    game["answer"](battle["prompt"], "s2", "力2")
    assert game["state"]()["ruleset"]["battle"]["result"]["vp"] == 2 + 1


def test_s7_a_terrain_of_no_attribute_is_refused(game):
    """S-7: terrain strengthens or weakens 力 / 魔 / 技; "火+2" was taken as no terrain at all (a 200)."""
    error = game["act"]("set_square", {"square": 3, "terrain": "火+2"}, status=400)["error"]
    assert error["en"] == "Cannot read the terrain '火+2' (e.g. Power +2 Magic −1)"
    assert game["act"]("set_square", {"square": 3, "terrain": "力+2、魔−1"})["ruleset"]["board"][3]["terrain"] == {"力": 2, "魔": -1}
    assert game["act"]("set_square", {"square": 3, "terrain": ""})["ruleset"]["board"][3]["terrain"] == {}


@pytest.mark.parametrize("payload", [{"move": -5}, {"seals": 1}, {"mana": 20, "move": -1}])
def test_s3_a_square_event_that_changes_nothing_is_refused(game, payload):
    """S-3: a square event for s2 on the start square that moves it back, or gives a seal beyond 3, changes
    nothing; moving back from the start wrote a sugoroku.moved 0→0 with a 200."""
    version = game["state"]()["session"]["version"]
    out = game["act"]("square_event", {"seat": "s2", **payload}, status=200 if "mana" in payload else 400)
    if "mana" in payload:  # 魔力 3 → 14 (clamped, S-5); the move back from the start is no part of it
        assert [e["type"] for e in out["events"]] == ["counter.changed"]
    else:
        assert out["error"]["en"] == "Nothing changes (every counter stays within its bounds)"
        assert game["state"]()["session"]["version"] == version


def test_s7_the_last_phase_battles_are_fought_before_the_round_ends(game):
    """S-7: the battles end_phase lists are fought after every turn; end_round (even forced) dropped them unseen.
    skip_battle naming a square without a pending battle is refused, as start_battle's is: it skipped the first
    pending battle instead (a console's button left from before skipped another battle than the one it showed).
    With no battle pending at all start_battle is a 409, which its docs row said was the 400 of a square without one."""
    act, state = game["act"], game["state"]
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 1), ("s4", 2)))
    act("end_phase")
    error = act("end_round", {"force": True}, status=409)["error"]
    assert error["en"] == "Fight the pending battles first"
    pending, version = state()["ruleset"]["pending"], state()["session"]["version"]
    assert pending and not state()["ruleset"]["round_ended"]
    elsewhere = max(b["square"] for b in pending) + 1
    error = act("skip_battle", {"square": elsewhere, "reason": "合意"}, status=400)["error"]
    assert (error["ja"], error["en"]) == (f"マス{elsewhere}に戦闘はありません", f"No battle on square {elsewhere}")
    assert state()["ruleset"]["pending"] == pending and state()["session"]["version"] == version
    act("skip_battle", {"reason": "合意"})
    for payload in ({}, {"square": elsewhere}):  # nothing pending at all: a 409, as its docs row says
        error = act("start_battle", payload, status=409)["error"]
        assert (error["ja"], error["en"]) == ("行う戦闘がありません", "There is no pending battle")
    row = docs_rows((ROOT / "docs/rulesets/sugoroku.md").read_text(encoding="utf-8"))["start_battle"]
    assert "→ 400 `No battle on square 5`" in row and "→ 409 `There is no pending battle`" in row
    act("end_round", {"force": True})


def test_s7_a_forced_end_phase_keeps_the_listed_battles(game):
    """S-7: a forced end_phase while battles were listed replaced them with the next phase's (none): dropped unseen."""
    act, state = game["act"], game["state"]
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 1), ("s4", 2)))
    act("end_phase")
    assert act("end_phase", {"force": True}, status=409)["error"]["en"] == "Fight the pending battles first"
    act("skip_turn", {"seat": "s2"}, status=409)
    assert state()["ruleset"]["pending"][0]["fighters"] == ["s1", "s2"] and state()["ruleset"]["phase"] == 2
    # S-10: nor is a fighter of a listed battle put out (its card prompt would wait for a player out of the war)
    error = act("eliminate", {"seat": "s1"}, status=409)["error"]
    assert error["ja"] == "セイバーは戦闘に加わっています：先に戦闘を終えるか「行わない」にしてください [S-7]"
    assert error["en"] == "セイバー is in a battle: finish it or 'Skip' it first (S-7)"
    act("start_battle")
    assert act("eliminate", {"seat": "s2"}, status=409)["error"]["en"] == "アーチャー is in a battle: finish it or 'Skip' it first (S-7)"
    act("eliminate", {"seat": "s3"})  # not fighting: the GM's ruling


def test_s13_a_tie_with_last_place_tied_says_the_gm_picks(game):
    """S-13: a tied vote whose last place is tied too goes to the GM, who picks among the tied; the result said
    「最下位のGMが決定」 (the GM in last place) and noted that the GM names who picks, which it does not."""
    act, answer, client, sid = game["act"], game["answer"], game["client"], game["sid"]
    act("square_event", {"seat": "s1", "vp": 5})
    act("square_event", {"seat": "s2", "vp": 3})  # s2 has 2 VP from its CP already: s3 and s4 share last place
    vote = act("end_round", {"force": True})["ruleset"]["vote"]
    for voter, target in (("s1", "s2"), ("s2", "s1"), ("s3", "s4"), ("s4", "s3")):
        answer(vote, voter, target)
    result = client.get(f"/api/sessions/{sid}/prompts/{vote}", headers=bearer(game["tokens"]["gm"])).get_json()["resolution"]
    assert result["summary"] == {"ja": "同数（セイバー・アーチャー・ランサー・ライダー：1票）→ 最下位が同点のためGMが決定",
                                 "en": "Tie (セイバー, アーチャー, ランサー, ライダー: 1) → last place is tied: the GM decides"}
    assert {"ja": "最下位が同点：GMが同数の中から選ぶ", "en": "Last place is tied: the GM picks among the tied",
            "rule": "S-13"} in result["notes"]
    r = client.post(f"/api/sessions/{sid}/prompts/{vote}/confirm", headers=bearer(game["tokens"]["gm"]), json={})
    assert r.status_code == 200
    answer(f"{vote}-tb", "gm", "s4")
    # the GM's pick: its note and the reveal's reason said 最下位のプレイヤーが決定 / "tie decided by last place"
    tb = client.get(f"/api/sessions/{sid}/prompts/{vote}-tb", headers=bearer(game["tokens"]["gm"])).get_json()
    assert tb["resolution"]["notes"] == [{"ja": "最下位が同点のためGMが決定", "en": "Decided by the GM (last place is tied)",
                                          "rule": "S-13"}]
    r = client.post(f"/api/sessions/{sid}/prompts/{vote}-tb/confirm", headers=bearer(game["tokens"]["gm"]), json={})
    assert r.status_code == 200
    log = {lang: [e["text"] for e in client.get(f"/api/sessions/{sid}/log?lang={lang}",
                                                 headers=bearer(game["tokens"]["table"])).get_json()["events"]]
           for lang in ("ja", "en")}
    assert "ライダーの真名が判明：真名看破投票：同数をGMが決定 [S-13]" in log["ja"]
    assert "True name of ライダー revealed: true-name vote: tie decided by the GM [S-13]" in log["en"]


@pytest.mark.parametrize(("readings", "status", "en"), [
    ({"terrain_applies_to": "nope"}, 400,
     "Reading 'What terrain modifies' cannot be 'nope' (Attack cards only [attack], Every card with an attribute [all])"),
    ({"nope": 1}, 404, "There is no reading 'nope'"),
    (["battle_tie"], 400, "'readings' must be an object")])
def test_setup_refuses_a_reading_it_cannot_apply(client, readings, status, en):
    """Readings (S-7 …) chosen with setup went in unchecked: "terrain_applies_to": "nope" made every battle's last
    answer a 400 (the battle could never resolve); a list was dropped silently."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー"]}).get_json()
    r = client.post(f"/api/sessions/{data['session']}/actions/setup", headers=bearer(data["gm_token"]),
                    json={"readings": readings})
    assert r.status_code == status and r.get_json()["error"]["en"].startswith(en), r.get_json()
    state = client.get(f"/api/sessions/{data['session']}/state", headers=bearer(data["gm_token"])).get_json()
    assert state["session"]["version"] == 1


def test_setup_takes_a_reading_as_a_form_sends_it(client):
    """A reading chosen with setup as text ("0", "false", as a form posts it) is stored as its choice's value: "0"
    for card_power_floor made every battle's last answer a 400."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー"]}).get_json()
    sid, gm = data["session"], bearer(data["gm_token"])
    r = client.post(f"/api/sessions/{sid}/actions/setup", headers=gm, json={
        "readings": {"card_power_floor": "0", "strong_traits_count": "false"},
        "players": {"s1": {"cp_spent": 30, "traits": "神性 竜 鬼"}}})
    assert r.status_code == 200, r.get_json()
    readings = {x["key"]: x["value"] for x in client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["readings"]}
    assert readings["card_power_floor"] == 0 and readings["strong_traits_count"] is False
    # 9 + 30 + 0 (strong traits do not count toward 3) + 6 (three strong traits) - 30 = 15 unspent → 7 VP (S-14)
    assert r.get_json()["ruleset"]["players"]["s1"]["vp"] == 7


@pytest.mark.parametrize("players", [["s1"], "s1", 5])
def test_setup_refuses_players_that_are_not_an_object(client, players):
    """S-5/S-14: `players` is an object per seat; a list (or text) was dropped silently and every seat started blank."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー"]}).get_json()
    r = client.post(f"/api/sessions/{data['session']}/actions/setup", headers=bearer(data["gm_token"]),
                    json={"players": players})
    assert r.status_code == 400 and r.get_json()["error"]["en"] == "'players' must be an object of seats", r.get_json()


def test_s9_s11_climax_goal_vp_with_unused_seals_and_the_winner_on_the_table(client):
    """S-9/S-11: at the goal in the climax 14 / 11 … by arrival plus 6 per unused Command Seal; 2 at the goal end the
    climax (S-2); the most 戦果 wins (S-1). The table shows each player's VP with the terms it is made of."""
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "双六", "ruleset": "sugoroku", "seats": ["セイバー", "アーチャー", "ランサー"]}).get_json()
    sid, gm = data["session"], bearer(data["gm_token"])
    seats = {s["id"]: bearer(s["token"]) for s in data["seats"]}

    def act(name, payload, who=gm):
        r = client.post(f"/api/sessions/{sid}/actions/{name}", headers=who, json=payload)
        assert r.status_code == 200, r.get_json()
        return r.get_json()["ruleset"]

    act("setup", {"board_length": 6, "skip_to_climax": True})
    act("use_seal", {"effect": "mana"}, seats["s1"])
    view = act("roll_move", {"faces": [6]}, seats["s1"])
    assert view["players"]["s1"]["vp"] == 14 + 6 * 2 and [t["value"] for t in view["players"]["s1"]["vp_terms"]] == [14, 12]
    view = act("roll_move", {"faces": [6]}, seats["s2"])
    assert view["players"]["s2"]["vp"] == 11 + 6 * 3 and view["round_over"]["rule"] == "S-2"
    view = act("end_round", {})
    assert view["finished"] and view["standings"][0]["seat"] == "s2"
    table = client.application.test_client()
    page = table.get(f"/s/{sid}/table?k={data['table_token']}", follow_redirects=True).get_data(as_text=True)
    row = re.search(r'<tr data-seat="s1".*?</tr>', page, re.S).group(0)
    assert 'title="ゴール1位 14&#10;令呪温存ボーナス 6×2 12&#10;">26</td>' in row
    assert re.search(r'sg-winner">[^<]*アーチャー', page)


def climax_game(client):
    """Three seats skipping to the climax on a 5-square board (S-1)."""
    return new_game(client, ("セイバー", "アーチャー", "ランサー"), {"board_length": 5, "skip_to_climax": True})


def a_tie_for_first_at_the_climaxs_end(game):
    """S-1/S-2/S-9/S-11: two reach the goal in the climax (14 and 11, +6 per unused seal) and a square event ties
    them on 32 戦果; the GM ends the climax. Played on climax_game."""
    act = game["act"]
    act("roll_move", {"faces": [5]}, who="s1")
    act("roll_move", {"faces": [5]}, who="s2")  # the climax is over (S-2)
    act("square_event", {"seat": "s2", "vp": 3, "label": "宝物"})
    return act("end_round")["ruleset"]


def test_s1_a_tie_for_the_most_vp_at_the_end_is_a_shared_victory(app, client):
    """S-1: every seat tied for the most 戦果 when the climax ends wins: the final round_ended names them all
    (`winners`; `winner`, what older gmtool read, is the first of them), and the GM console, every phone and the
    table's stage read 「優勝: セイバー、アーチャー（同点・戦果 32）」 / 'Winners: セイバー, アーチャー (tied, VP 32)'. A
    tie-break the group plays is a 戦果 change on core's counter route: the screens then name its one winner."""
    game = climax_game(client)
    data, sid, gm = game["data"], game["sid"], bearer(game["tokens"]["gm"])
    view = a_tie_for_first_at_the_climaxs_end(game)
    assert view["finished"] and [r["rank"] for r in view["standings"]] == [1, 1, 3]
    assert view["winners"] == [{"seat": "s1", "name": "セイバー", "vp": 32}, {"seat": "s2", "name": "アーチャー", "vp": 32}]
    assert view["winner_words"] == {"ja": "セイバー、アーチャー（同点・戦果 32）", "en": "セイバー, アーチャー (tied, VP 32)"}
    log = client.get(f"/api/sessions/{sid}/log", headers=gm).get_json()["events"]
    ended = next(e["data"] for e in log if e["type"] == "sugoroku.round_ended")
    assert ended["winners"] == ["s1", "s2"] and ended["winner"] == "s1"
    screens = {"gm": (open_link(app, data["gm_url"]), f"/s/{sid}/gm"),
               "table": (open_link(app, data["table_url"]), f"/s/{sid}/table"),
               "s3": (open_link(app, data["seats"][2]["join_url"]), f"/s/{sid}/phone")}
    for who, (browser, path) in screens.items():
        for lang, line in (("ja", "優勝: セイバー、アーチャー（同点・戦果 32）"), ("en", "Winners: セイバー, アーチャー (tied, VP 32)")):
            page = browser.get(f"{path}?lang={lang}").get_data(as_text=True)
            assert re.search(r'sg-winner">[^<]*' + re.escape(line) + "<", page), (who, lang)

    def result(lang):  # the write-up's last line under its final table (as illuminati's and succession's)
        text = client.get(f"/api/sessions/{sid}/export?format=markdown&lang={lang}", headers=gm).get_data(as_text=True)
        return text.split("|\n\n- ")[1].split("\n")[0]
    assert result("ja") == "結果：セイバー、アーチャーの優勝（同点・戦果 32、S-1）"
    assert result("en") == "Result: セイバー, アーチャー win (tied, VP 32, S-1)"
    r = client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s2", "key": "vp", "delta": 1,
                                                                      "reason": "同点決定戦"})
    assert r.status_code == 200, r.get_json()
    view = game["state"]()["ruleset"]
    assert view["winners"] == [{"seat": "s2", "name": "アーチャー", "vp": 33}]
    assert view["winner_words"] == {"ja": "アーチャー（戦果 33）", "en": "アーチャー (VP 33)"}
    page = screens["table"][0].get(f"/s/{sid}/table?lang=en").get_data(as_text=True)
    assert re.search(r'sg-winner">[^<]*Winner: アーチャー \(VP 33\)<', page)
    assert (result("ja"), result("en")) == ("結果：アーチャーの優勝（戦果 33、S-1）", "Result: アーチャー wins (VP 33, S-1)")


def test_s11_escape_seal_leaves_the_battle_moving_players_on_the_square(game):
    """S-11: a fighter leaves the battle with a seal and moves (players on the square) × 1 squares, without the
    square's event; a battle left with one fighter has no winner and its card prompt is cancelled unrevealed."""
    act, state, answer = game["act"], game["state"], game["answer"]
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 1), ("s4", 2)))
    act("end_phase")
    battle = act("start_battle")["ruleset"]["battle"]
    answer(battle["prompt"], "s1", "力9")
    act("use_seal", {"effect": "escape"}, who="s3", status=409)  # not in this battle
    out = act("use_seal", {"effect": "escape"}, who="s2")
    assert [e["type"] for e in out["events"]] == ["sugoroku.seal_used", "counter.changed", "sugoroku.battle_adjusted",
                                                  "sugoroku.moved", "counter.changed", "prompt.cancelled",
                                                  "sugoroku.battle_ended"]
    view = out["ruleset"]
    assert view["players"]["s2"]["position"] == 3 + 2 and view["players"]["s2"]["seals"] == 2
    assert view["battle"] is None and view["last_battle"]["winner"] is None and view["players"]["s1"]["vp"] == 0
    prompt = game["client"].get(f"/api/sessions/{game['sid']}/prompts/{battle['prompt']}",
                                headers=bearer(game["tokens"]["gm"])).get_json()
    assert prompt["status"] == "cancelled"
    assert "力9" not in repr(state("table")) + repr(state("s2"))  # the parent's card is never shown
    # nor in the GM's full backup (docs/api.md §14): its commitment stays, and the escape that cancelled the prompt is
    # not offered for undo in the copy (it would open the prompt again without the card); the session still offers it
    client, sid = game["client"], game["sid"]
    gm, admin = bearer(game["tokens"]["gm"]), bearer(ADMIN_KEY)
    full = client.get(f"/api/sessions/{sid}/export?format=json&full=1", headers=gm)
    escape = next(e["action"] for e in full.get_json()["events"] if e["type"] == "prompt.cancelled")
    assert "力9" not in full.get_data(as_text=True) and full.get_json()["undo_refused"] == [escape]
    copy = client.post("/api/sessions/import", headers=admin, json=full.get_json()).get_json()
    undone = client.post(f"/api/sessions/{copy['session']}/undo", headers=bearer(copy["gm_token"]), json={})
    assert undone.status_code == 409 or undone.get_json()["undone"]["action"] != escape, undone.get_json()
    undone = client.post(f"/api/sessions/{sid}/undo", headers=gm, json={})
    assert undone.get_json()["undone"]["action"] == escape and state()["ruleset"]["battle"] is not None


def test_s11_an_escape_after_the_reveal_ends_the_battle_and_its_result_cannot_be_confirmed(game):
    """S-11: a fighter who escapes a revealed battle of two ends it with no winner; its revealed card prompt stayed
    open to a confirm, which then applied the old result (the parent got its VP after the child had left). The prompt
    is cancelled with the battle; the cards everyone saw stay public."""
    act, state, answer = game["act"], game["state"], game["answer"]
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 1), ("s4", 2)))
    act("end_phase")
    battle = act("start_battle")["ruleset"]["battle"]
    answer(battle["prompt"], "s1", "力9")
    answer(battle["prompt"], "s2", "力1")
    prompt_url = f"/api/sessions/{game['sid']}/prompts/{battle['prompt']}"
    gm = bearer(game["tokens"]["gm"])
    assert game["client"].get(prompt_url, headers=gm).get_json()["status"] == "revealed"
    out = act("use_seal", {"effect": "escape"}, who="s2")
    assert out["ruleset"]["battle"] is None and out["ruleset"]["last_battle"]["winner"] is None
    assert "prompt.cancelled" in [e["type"] for e in out["events"]]
    refused = game["client"].post(f"{prompt_url}/confirm", headers=gm, json={})
    assert refused.status_code == 409, refused.get_json()
    assert state()["ruleset"]["players"]["s1"]["vp"] == 0
    table_log = game["client"].get(f"/api/sessions/{game['sid']}/log?limit=500",
                                   headers=bearer(game["tokens"]["table"])).get_json()
    assert "力9" in repr(table_log)  # the cards everyone saw stay public in the log


def a_skipped_turn_and_cards_added_to_a_battle(game):
    """S-3/S-7/S-15: the GM skips a turn; in a battle the parent adds a face-up card before the reveal and a skill
    card after it (its mana paid)."""
    act, state, answer = game["act"], game["state"], game["answer"]
    act("skip_turn", {"seat": "s1", "reason": "離席"})
    _moves(act, (("s2", 3), ("s3", 3), ("s4", 1)))
    act("end_phase")
    act("start_battle")
    battle = state()["ruleset"]["battle"]
    act("battle_card", {"card": "力4"}, who=battle["parent"])
    for seat in battle["fighters"]:
        answer(battle["prompt"], seat, "力5" if seat == battle["parent"] else ["技3"])
    act("battle_card", {"card": "スキル 魔2", "cost": 1}, who=battle["parent"])


def documented_games(client, every_event=False):
    """The games the documented-fields tests play (the view's here, the events' in test_web_api.py), each as (session
    id, tokens of the GM, the table and every seat, play), `play()` not yet run: a whole round with its vote,
    battles with a tie the GM rules, an escape, a challenge and a karma conversion, a tie for last place, a climax
    ending with a tie for first; with
    `every_event` also those that write the event types these leave out (a skipped turn, cards and skill cards added
    to a battle, a battle skipped, eliminations)."""
    flows = [test_a_whole_round_through_the_api, test_s7_the_gm_rules_a_tie_among_the_tied,
             test_s12_the_karma_offered_is_what_the_conversion_takes,
             test_s13_a_tie_with_last_place_tied_says_the_gm_picks,
             test_s11_an_escape_after_the_reveal_ends_the_battle_and_its_result_cannot_be_confirmed,
             test_s6_a_challenge_waits_until_everyone_has_moved]
    if every_event:
        flows += [a_skipped_turn_and_cards_added_to_a_battle,
                  test_s7_the_last_phase_battles_are_fought_before_the_round_ends,
                  test_s10_s13_the_gms_ruling_without_a_reason_reads_in_the_readers_language,
                  test_s1_s10_the_last_player_left_in_the_war_wins]
    yield from games_to_play(flows, lambda: new_game(client))
    yield from games_to_play([a_tie_for_first_at_the_climaxs_end], lambda: climax_game(client))


def test_the_view_has_exactly_the_documented_fields(client):
    """docs/rulesets/sugoroku.md 4b lists every field of the ruleset view (it had no such section) and of the objects
    in it: a session before `setup`, and games through the API after it (a whole round with its vote, battles with
    a tie the GM rules, an escape, a challenge and a karma conversion, a tie for last place), seen by the GM, the table and every
    seat after every step, carry exactly those, none missing and none unnamed; `me` only for a seat (not the GM
    or the table)."""
    fresh = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "x", "ruleset": "sugoroku", "seats": ["A", "B"]}).get_json()
    before = [client.get(f"/api/sessions/{fresh['session']}/state", headers=bearer(token)).get_json()["ruleset"]
              for token in (fresh["gm_token"], fresh["table_token"], fresh["seats"][0]["token"])]
    assert undocumented(before, "docs/rulesets/sugoroku.md", "### `state.ruleset` before `setup`") == {}
    views, unseated = [], []
    for sid, tokens, play in documented_games(client):
        views += ruleset_views(client, sid, tokens, play)
        unseated += [client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens[who])).get_json()["ruleset"]
                     for who in ("gm", "table")]
    assert undocumented(views, "docs/rulesets/sugoroku.md", "### `state.ruleset` after `setup`") == {}
    assert all("me" not in view for view in unseated)


def test_s10_s13_the_gms_ruling_without_a_reason_reads_in_the_readers_language(game):
    """S-10/S-13: an elimination or a true-name reveal by the GM without a reason: the English log and export read
    "GM's ruling"; they stored and showed the Japanese default (GMの裁定, GMが公開). A typed reason is shown as typed."""
    act, client, sid = game["act"], game["client"], game["sid"]
    act("eliminate", {"seat": "s4"})
    act("eliminate", {"seat": "s3", "reason": "離席"})
    act("reveal_true_name", {"seat": "s1"})
    lines = {}
    for lang in ("ja", "en"):
        r = client.get(f"/api/sessions/{sid}/export?format=markdown&lang={lang}", headers=bearer(game["tokens"]["gm"]))
        assert r.status_code == 200
        text = r.get_data(as_text=True).replace("\\[", "[").replace("\\]", "]")
        lines[lang] = [x for x in text.splitlines() if re.search("脱落|is out|真名.*判明|True name", x)]
    assert lines["ja"][0].endswith("ライダーが脱落（GMの裁定） [S-10]")
    assert lines["ja"][1].endswith("ランサーが脱落（離席） [S-10]") and "が判明：GMの裁定 [S-13]" in lines["ja"][2]
    assert lines["en"][0].endswith("ライダー is out (GM's ruling) [S-10]") and lines["en"][1].endswith("is out (離席) [S-10]")
    assert "revealed: GM's ruling [S-13]" in lines["en"][2]


def test_s12_the_karma_offered_is_what_the_conversion_takes(game):
    """S-12: once the target's karma fell below 9 (its 討伐令 lifted) the view still offered min(10, karma) while
    convert_karma refused any amount with a 400; now it offers 0 (declining), which is taken."""
    act, state, client, sid = game["act"], game["state"], game["client"], game["sid"]

    def set_karma(value):
        r = client.post(f"/api/sessions/{sid}/counters", headers=bearer(game["tokens"]["gm"]),
                        json={"seat": "s2", "key": "karma", "value": value})
        assert r.status_code == 200, r.get_json()

    set_karma(12)
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 1), ("s4", 2)))
    act("end_phase")
    battle = act("start_battle")["ruleset"]["battle"]
    game["answer"](battle["prompt"], "s1", "力9")
    game["answer"](battle["prompt"], "s2", "力2")
    pending = act("end_battle")["ruleset"]["karma_pending"]
    assert [(k["victor"], k["target"], k["max"]) for k in pending] == [("s1", "s2", 10)]
    set_karma(8)  # the 討伐令 is lifted
    assert [k["max"] for k in state("s1")["ruleset"]["me"]["karma"]] == [0]
    act("convert_karma", {"target": "s2", "amount": 1}, who="s1", status=400)
    assert act("convert_karma", {"target": "s2", "amount": 0}, who="s1")["ruleset"]["karma_pending"] == []
    assert state()["ruleset"]["players"]["s2"]["karma"] == 8


def test_s11_an_escape_before_the_reveal_of_three_takes_the_fighter_off_the_prompt(game):
    """S-7/S-11: a fighter who escapes a battle of three before the reveal answered on: the card prompt waited for
    it (revealing only early or on its answer). It is taken off the prompt: it cannot answer, the other two answers
    reveal the battle, and a card it had put down is never shown to anyone else (not in the state, the log or the
    export), its commitment kept in the log only; undoing the escape puts it back with its answer."""
    act, state, answer, client, sid, tokens = (game["act"], game["state"], game["answer"], game["client"],
                                               game["sid"], game["tokens"])
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 3), ("s4", 1)))
    act("end_phase")
    pid = act("start_battle")["ruleset"]["battle"]["prompt"]
    mine = answer(pid, "s2", "技8")["commitment"]
    out = act("use_seal", {"effect": "escape"}, who="s2")
    assert [e["type"] for e in out["events"]][-1] == "prompt.dropped"
    battle = out["ruleset"]["battle"]
    assert (battle["fighters"], battle["answered"], battle["revealed"]) == (["s1", "s3"], [], False)
    answer(pid, "s2", "技8", status=403)  # not a respondent any more
    assert client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"]), json={}).status_code == 200
    battle = state()["ruleset"]["battle"]
    assert battle["fighters"] == ["s1", "s2", "s3"] and battle["answered"] == ["s2"]  # back, with its answer
    act("use_seal", {"effect": "escape"}, who="s2")
    answer(pid, "s1", "力4")
    answer(pid, "s3", "魔5")
    battle = state()["ruleset"]["battle"]
    assert battle["revealed"] and battle["result"]["totals"] == {"s1": 4, "s3": 5}
    assert battle["result"]["winners"] == ["s3"] and [r["who"] for r in battle["result"]["rows"]] == ["s1", "s3"]
    for who in ("table", "s1", "s3", "gm"):
        seen = repr(state(who)) + client.get(f"/api/sessions/{sid}/log", headers=bearer(tokens[who])).get_data(as_text=True)
        assert "技8" not in seen, who
    assert mine in client.get(f"/api/sessions/{sid}/log", headers=bearer(tokens["table"])).get_data(as_text=True)
    assert "技8" in client.get(f"/api/sessions/{sid}/log", headers=bearer(tokens["s2"])).get_data(as_text=True)
    for lang in ("ja", "en"):
        text = client.get(f"/api/sessions/{sid}/export?format=markdown&lang={lang}",
                          headers=bearer(tokens["gm"])).get_data(as_text=True)
        assert "技8" not in text and ("回答者からアーチャーを外す" in text or "アーチャー no longer answers" in text)


def _an_escape_with_its_card_played(act, answer) -> str:
    """Three servants meet on square 3; セイバー plays 力4, アーチャー 技8 then escapes with a seal (S-11): the
    battle prompt's id."""
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 3), ("s4", 1)))
    act("end_phase")
    pid = act("start_battle")["ruleset"]["battle"]["prompt"]
    answer(pid, "s1", "力4")
    answer(pid, "s2", "技8")
    act("use_seal", {"effect": "escape"}, who="s2")
    return pid


def test_s11_undoing_an_escape_after_the_reveal_would_show_its_withdrawn_card_and_is_refused(game):
    """S-11: a fighter who escaped a battle of three before the reveal withdrew its card. Once the GM has revealed
    the battle, undoing the escape would fold the card back into the revealed prompt (on the table, in the log and
    the exports): the undo is refused with a 409 in both languages and nothing changes."""
    act, state, answer, client, sid, tokens = (game["act"], game["state"], game["answer"], game["client"],
                                               game["sid"], game["tokens"])
    pid = _an_escape_with_its_card_played(act, answer)
    gm = bearer(tokens["gm"])
    assert client.post(f"/api/sessions/{sid}/prompts/{pid}/reveal", headers=gm, json={}).status_code == 200
    before = {who: state(who) for who in ("gm", "table", "s1", "s3")}
    exported = client.get(f"/api/sessions/{sid}/export?format=markdown&lang=ja", headers=gm).get_data(as_text=True)
    r = client.post(f"/api/sessions/{sid}/undo", headers=gm, json={})
    assert r.status_code == 409, r.get_json()
    error = r.get_json()["error"]
    assert "公開済みの結果に伏せたままだった回答が加わります" in error["ja"]
    assert "would add a withdrawn answer to a result already revealed" in error["en"]
    assert {who: state(who) for who in before} == before  # nothing changed, for the GM and the table
    assert client.get(f"/api/sessions/{sid}/export?format=markdown&lang=ja", headers=gm).get_data(as_text=True) == exported
    for who in ("table", "s1", "s3"):
        seen = repr(state(who)) + client.get(f"/api/sessions/{sid}/log", headers=bearer(tokens[who])).get_data(as_text=True)
        assert "技8" not in seen, who


def test_s11_a_full_backup_carries_its_refused_undos_and_the_public_export_none(game):
    """S-11: the refused undo of an escape (its withdrawn card) stays off the undo list, kept in the session's meta
    (`undo_refused`), which no export carried: a full backup imported elsewhere offered that undo again. The full
    backup carries `undo_refused` and its import restores it: the copy offers the undos the session offers. The public
    export carries none (the table never sees a refusal); a backup whose `undo_refused` is not a list of its own action
    numbers is refused (400, both languages) and imports nothing."""
    act, answer, client, sid, tokens = game["act"], game["answer"], game["client"], game["sid"], game["tokens"]
    pid = _an_escape_with_its_card_played(act, answer)
    gm, admin = bearer(tokens["gm"]), bearer(ADMIN_KEY)
    assert client.post(f"/api/sessions/{sid}/prompts/{pid}/reveal", headers=gm, json={}).status_code == 200
    assert client.post(f"/api/sessions/{sid}/undo", headers=gm, json={}).status_code == 409  # the withdrawn card
    full = client.get(f"/api/sessions/{sid}/export?format=json&full=1", headers=gm).get_json()
    public = client.get(f"/api/sessions/{sid}/export?format=json", headers=gm).get_json()
    escape = next(e["action"] for e in full["events"] if e["type"] == "prompt.dropped")
    assert full["undo_refused"] == [escape] and "undo_refused" not in public
    sessions = client.get("/api/sessions", headers=admin).get_json()
    for bad in ([True], [str(escape)], [10**6], "x", None):
        r = client.post("/api/sessions/import", headers=admin, json={**full, "undo_refused": bad})
        error = r.get_json()["error"]
        assert (r.status_code, error["ja"], error["en"]) == (
            400, "undo_refused（取り消せなかった操作）はこのログの操作番号のリストです",
            "'undo_refused' must list action numbers of this log"), bad
    assert client.get("/api/sessions", headers=admin).get_json() == sessions
    copy = client.post("/api/sessions/import", headers=admin, json=full).get_json()
    for _ in range(3):  # the battle's start (its answers build on it), then what came before: the same in both
        undone = [client.post(f"/api/sessions/{session}/undo", headers=token, json={})
                  for session, token in ((sid, gm), (copy["session"], bearer(copy["gm_token"])))]
        assert [r.status_code for r in undone] == [undone[0].status_code] * 2, [r.get_json() for r in undone]
        assert "withdrawn answer" not in str(undone[1].get_json())
        assert undone[0].get_json().get("undone", {}).get("action") == undone[1].get_json().get("undone", {}).get("action")
    assert client.get(f"/api/sessions/{copy['session']}/export?format=json&full=1",
                      headers=bearer(copy["gm_token"])).get_json()["undo_refused"] == \
        client.get(f"/api/sessions/{sid}/export?format=json&full=1", headers=gm).get_json()["undo_refused"]


def test_s11_the_last_fighter_to_answer_escaping_reveals_the_battle(game):
    """S-7/S-11: when the two others have answered, the escape of the third (who had not) reveals the battle at once."""
    act, answer = game["act"], game["answer"]
    _moves(act, (("s1", 3), ("s2", 3), ("s3", 3), ("s4", 1)))
    act("end_phase")
    pid = act("start_battle")["ruleset"]["battle"]["prompt"]
    answer(pid, "s1", "力6")
    answer(pid, "s2", "力2")
    out = act("use_seal", {"effect": "escape"}, who="s3")
    assert [e["type"] for e in out["events"]][-3:] == ["prompt.dropped", "prompt.revealed", "prompt.resolved"]
    result = out["ruleset"]["battle"]["result"]
    assert result["totals"] == {"s1": 6, "s2": 2} and result["winners"] == ["s1"]
    assert act("end_battle")["ruleset"]["last_battle"]["winner"] == "s1"


def test_s13_the_table_stage_shows_the_revealed_true_name(game):
    """Browser review: a true name revealed by the GM put 「真名：セイバー」を一斉公開 on the table's stage (the
    commitment's prompt, opened right after the reveal, titled by the seat's name), which reads as if the true
    name were セイバー; the stage shows the reveal's own line, which names アルトリア."""
    game["act"]("reveal_true_name", {"seat": "s1", "reason": "宝具《真名開放》"})
    table = game["client"].application.test_client()
    html = table.get(f"/s/{game['sid']}/table?k={game['tokens']['table']}", follow_redirects=True).get_data(as_text=True)
    latest = re.search(r'<p class="sg-latest">(.*?)</p>', html, flags=re.S).group(1)
    assert "アルトリア" in latest and "一斉公開" not in latest, latest


def test_s13_every_phone_shows_a_true_name_once_revealed_never_before(game):
    """Play-through: only the table's standings showed a revealed true name; the phones (its own and the others')
    never did. Once revealed (S-13) it is public on every phone; before, on none (not even its own)."""
    def phone(seat):
        browser = game["client"].application.test_client()
        return browser.get(f"/join/{game['sid']}?k={game['tokens'][seat]}", follow_redirects=True).get_data(as_text=True)

    for seat in ("s1", "s2", "s3"):
        assert "アルトリア" not in phone(seat) and "エミヤ" not in phone(seat), seat
    game["act"]("reveal_true_name", {"seat": "s1", "reason": "宝具《真名開放》"})
    own = phone("s1")
    assert re.search(r'<dd class="sg-my-true-name">アルトリア</dd>', own) and "エミヤ" not in own
    for seat in ("s2", "s3"):
        names = re.search(r'<p class="sg-true-names">(.*?)</p>', phone(seat), re.S).group(1)
        assert "セイバー: <b>アルトリア</b>" in names and "エミヤ" not in names, (seat, names)


def test_s13_the_true_name_prompt_is_titled_as_the_seats_true_name(game):
    """Play-through: the commitment's prompt was titled 「真名：セイバー」, so the log and every export read
    「真名：セイバー」を一斉公開, as if the true name were セイバー; it is 「セイバーの真名」 / "True name of セイバー"."""
    game["act"]("reveal_true_name", {"seat": "s1", "reason": "宝具《真名開放》"})
    texts = {}
    for lang in ("ja", "en"):
        log = game["client"].get(f"/api/sessions/{game['sid']}/log?lang={lang}",
                                 headers=bearer(game["tokens"]["table"])).get_json()["events"]
        texts[lang] = "\n".join(e["text"] for e in log)
    assert "「セイバーの真名」を一斉公開" in texts["ja"] and "真名：" not in texts["ja"], texts["ja"]
    assert "'True name of セイバー' revealed" in texts["en"], texts["en"]


def test_the_tables_stage_tells_of_an_undo_and_keeps_an_undone_secret(game):
    """Play-through: when the GM undid, the table's stage just went back with no word of it. While the undo is the
    newest line the stage reads 「取り消し: …」 / "Undo: …" from the table's own log (an undone secret roll stays
    （非公開）), and the board's newest line is the newest that stands, neither the undone move nor the undo. A move
    reads as the move's own line, not as its 位置 counter's."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    table = client.application.test_client()
    table.get(f"/s/{sid}/table?k={tokens['table']}")

    def stage(lang="ja"):
        html = table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        undone = re.search(r'<p class="stage-undone" id="stage-undone">(.*?)</p>', html, re.S)
        latest = re.search(r'<p class="sg-latest">(.*?)</p>', html, re.S)
        return re.sub(r"<[^>]+>", "", undone.group(1)) if undone else None, latest.group(1) if latest else ""

    act("roll_move", who="s1")
    # the move said once, in its own line with the roll; the stage had read the 位置 counter's line, which says it twice
    # (「セイバー: 位置 0→3 (+3)（移動 マス0→3）」 / "セイバー: Square 0→3 (+3) (move: square 0→3)")
    texts = {lang: re.sub(r"<[^>]+>", "", stage(lang)[1]).strip() for lang in ("ja", "en")}
    assert stage()[0] is None and re.fullmatch(r"セイバー：(\d)マス進む（出目 \+\1） マス0→\1 \[S-3\]", texts["ja"]), texts
    assert re.fullmatch(r"セイバー: moves (\d) \(roll \+\1\), square 0→\1 \[S-3\]", texts["en"]), texts
    r = client.post(f"/api/sessions/{sid}/rolls", headers=bearer(tokens["gm"]), json={"expr": "S1D20", "label": "秘密の判定"})
    assert r.status_code == 201
    assert client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"])).status_code == 200
    undone, _latest = stage()
    assert undone == "取り消し: （非公開）", undone  # the secret roll stays one
    assert client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"])).status_code == 200
    undone, latest = stage()
    assert undone.startswith("取り消し: セイバー 移動") and "位置 0→" in undone, undone
    assert "位置 0→" not in latest and "取り消し" not in latest, latest
    assert stage("en")[0].startswith("Undo: セイバー Move")
    act("roll_move", who="s1")  # the next step: the notice has had its moment
    assert stage()[0] is None


def test_s2_a_round_the_gm_ended_early_has_nobody_to_move(game):
    """Browser review: after the GM ended round 1 early (end_round force), the next mover's phone still showed the
    big 1d6 button and every screen 手番: …, though the round is over (its roll is refused); the view names no
    mover once the round has ended."""
    act, state = game["act"], game["state"]
    assert state("s1")["ruleset"]["me"]["your_turn"]
    act("end_round", {"force": True})
    view = state("s1")["ruleset"]
    assert view["round_ended"] and view["current"] is None and view["current_name"] is None
    assert not view["me"]["your_turn"]
    phone = game["client"].application.test_client()
    html = phone.get(f"/join/{game['sid']}?k={game['tokens']['s1']}", follow_redirects=True).get_data(as_text=True)
    assert 'id="sg-roll"' not in html
    act("roll_move", who="s1", status=409)


def test_s2_a_round_its_goal_count_ended_has_nobody_to_move(game):
    """Browser review: in the climax two at the goal end the round at once (S-2), before the GM writes end_round;
    the next mover's phone and every screen still read 手番: ランサー and the GM's order ringed ランサー, though
    the roll is refused. The view names no mover once the round is over, by its end condition too."""
    act, state = game["act"], game["state"]
    act("end_round", {"force": True, "vote": False})
    act("start_round")
    act("end_round", {"force": True, "vote": False})
    act("start_round")  # the climax: 2 at the goal end it
    order = state()["ruleset"]["order"]
    first, second, third = (o["seat"] for o in order[:3])
    act("square_event", {"seat": first, "move": 7})
    act("square_event", {"seat": second, "move": 7})
    act("roll_move", {"faces": [1]}, who=first)
    act("roll_move", {"faces": [1]}, who=second)
    view = state(third)["ruleset"]
    assert view["round"] == "climax" and view["round_over"] and not view["round_ended"]
    assert view["current"] is None and view["current_name"] is None and not view["me"]["your_turn"]
    assert not any(o["current"] for o in view["order"])
    act("roll_move", who=third, status=409)
