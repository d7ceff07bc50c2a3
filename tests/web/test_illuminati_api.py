"""Illuminati (I) through the JSON API, as docs/rulesets/illuminati.md shows: the secret opening, the play
order, an attack with supports from other phones, refusals as clear 4xx, and the export as a replay."""

from __future__ import annotations

import html
import re

import pytest
from gmtool_testing import (ADMIN_KEY, HASH_TEXT, RULE_CODE_TEXT, assert_undo_as_documented, bearer,
                            games_to_play, icon, open_link, ruleset_views, ruleset_views_by_step, shown_by_default,
                            undocumented)

from gmtool.core.ruleset import has_japanese
from gmtool.web.common import csrf_for

SEATS = ["アリス", "ボブ", "キャロル", "デイヴ"]


def whole_names(html: str) -> str:
    """A page's HTML with each seat's name out of its own span (`il-seat`: kept whole on one line), so that the text
    read around it has no gap where a tag was."""
    return re.sub(r'<span class="il-seat">([^<]*)</span>', r"\1", html)


@pytest.fixture
def game(client):
    """An illuminati session with four seats."""
    return new_game(client)


def new_game(client):
    """An illuminati session with four seats: {sid, act, state, answer, tokens, client}."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "イルミナティ", "ruleset": "illuminati", "seats": SEATS})
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    tokens = {"gm": data["gm_token"], "table": data["table_token"], **{s["id"]: s["token"] for s in data["seats"]}}
    sid = data["session"]

    def act(name, payload=None, who="gm", status=200):
        response = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(tokens[who]), json=payload or {})
        assert response.status_code == status, (name, response.status_code, response.get_json())
        body = response.get_json()
        if status >= 400:
            assert body["error"]["ja"] and body["error"]["en"], body
        else:
            assert_undo_as_documented(client, sid, name, body)
        return body

    def state(who="gm"):
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens[who])).get_json()

    def answer(prompt, who, value, status=200):
        response = client.post(f"/api/sessions/{sid}/prompts/{prompt}/answer", headers=bearer(tokens[who]),
                               json={"value": value})
        assert response.status_code == status, response.get_json()
        return response.get_json()

    return {"sid": sid, "act": act, "state": state, "answer": answer, "tokens": tokens, "client": client}


def placement(game) -> str:
    return game["state"]()["ruleset"]["placement"]["prompt"]


def to_group_round(game):
    """Set up, the Illuminati placed (s1 and s3 alike), the first group round open: its placement prompt."""
    act, answer = game["act"], game["answer"]
    act("setup")
    act("opening_start")
    p = placement(game)
    for seat, name in zip(["s1", "s2", "s3", "s4"], ["Bavarian Illuminati", "UFOs", "Bavarian Illuminati", "Network"]):
        answer(p, seat, name)
    act("opening_next")
    return placement(game)


def open_game(game, groups=("CIA", "KGB", "IRS", "Yuppies")):
    act, answer = game["act"], game["answer"]
    p = to_group_round(game)
    for seat, name in zip(["s1", "s2", "s3", "s4"], groups):
        answer(p, seat, name)
    act("opening_next")


def test_opening_secret_placements_and_duplicates(game):
    act, state, answer = game["act"], game["state"], game["answer"]
    act("setup")
    assert state()["ruleset"]["goal"] == 11
    act("opening_start")
    p = placement(game)
    # a name has a length limit, as every name (a 72-character one wrapped across the standings and the GM's table)
    refused = answer(p, "s1", "Bavarian Illuminati of the " + "Very " * 5 + "Long Name", status=400)["error"]
    assert (refused["ja"], refused["en"]) == ("カード名は40文字以内にしてください", "The card name must be at most 40 characters")
    answer(p, "s1", "Bavarian Illuminati")
    # no real GM: the laptop's console, which the players see, hides the face-down card while 「回答を公開まで隠す」 is
    # on (a core prompt's answer: the game keeps no other secret on the console)
    console = open_link(game["client"].application, f"/s/{game['sid']}/gm?k={game['tokens']['gm']}")
    for value, shown in (("on", False), ("off", True)):
        r = console.post(f"/s/{game['sid']}/gm/settings", data={"key": "hide_answers", "value": value},
                         headers={"X-CSRF-Token": csrf_for(game["tokens"]["gm"]), "HX-Request": "true"})
        assert r.status_code == 200
        for lang in ("ja", "en"):
            assert ("Bavarian" in console.get(f"/s/{game['sid']}/gm?lang={lang}").get_data(as_text=True)) is shown
    # the answer is the phone's (and the GM's, who does not play) until the reveal
    for who in ("table", "s2"):
        assert "Bavarian" not in str(state(who)), who
        log = game["client"].get(f"/api/sessions/{game['sid']}/log", headers=bearer(game["tokens"][who])).get_json()
        assert "Bavarian" not in str(log)
    assert "Bavarian" in str(state("s1"))
    # the TV shows the placement once: the stage's pills (who has placed), not again in the summary's line of open
    # prompts (the stage marks it data-stage-prompt, as the generic and sugoroku stages do)
    # prompts of the GM's own opened after it are listed there, the placement still not
    tv = open_link(game["client"].application, f"/s/{game['sid']}/table?k={game['tokens']['table']}")
    vote = None
    for lang in ("ja", "en", "ja"):
        page = tv.get(f"/s/{game['sid']}/table?lang={lang}").get_data(as_text=True)
        assert f'class="summary-prompt" data-prompt="{p}"' not in page, lang
        assert 'id="il-placement"' in page and f'data-stage-prompt="{p}"' in page, lang
        if vote:
            assert f'class="summary-prompt" data-prompt="{vote}"' in page
        vote = game["client"].post(f"/api/sessions/{game['sid']}/prompts", headers=bearer(game["tokens"]["gm"]), json={
            "title": "休憩する？", "kind": "number", "seats": ["s1", "s2"]}).get_json()["id"]
    act("opening_next", status=409)  # still waiting for three phones
    for seat, name in (("s2", "UFOs"), ("s3", "Bavarian Illuminati"), ("s4", "Network")):
        answer(p, seat, name)
    act("opening_next")
    view = state("table")["ruleset"]
    assert [x["illuminati"] for x in view["players"]] == ["Bavarian Illuminati", "UFOs", "Bavarian Illuminati", "Network"]
    p = placement(game)
    for seat, name in zip(["s1", "s2", "s3", "s4"], ["CIA", "CIA", "KGB", "cia"]):
        answer(p, seat, name)
    act("opening_next")
    view = state("table")["ruleset"]
    assert view["set_aside"] == ["CIA"] and view["stage"] == "groups"
    assert [s["seat"] for s in view["placement"]["seats"]] == ["s1", "s2", "s4"]
    p = placement(game)
    answer(p, "s3", "IRS", status=403)  # s3 keeps KGB
    answer(p, "s1", "KGB", status=400)  # kept by s3
    answer(p, "s1", "CIA", status=400)  # set aside
    for seat, name in (("s1", "Hackers"), ("s2", "Post Office"), ("s4", "Hackers")):
        answer(p, seat, name)
    act("opening_next")
    p = placement(game)
    assert [s["seat"] for s in state()["ruleset"]["placement"]["seats"]] == ["s1", "s4"]
    answer(p, "s1", "Hackers", status=400)  # set aside in round 2
    answer(p, "s1", "Yuppies")
    answer(p, "s4", "Gnomes of Zurich")
    act("opening_next")
    view = state("table")["ruleset"]
    assert view["stage"] == "order"
    assert {x["seat"]: x["group"] for x in view["players"]} == {
        "s1": "Yuppies", "s2": "Post Office", "s3": "KGB", "s4": "Gnomes of Zurich"}
    assert all(x["counters"]["groups"] == 1 and x["missing"] == 10 for x in view["players"])


def test_i2_the_gm_cannot_add_a_seat_to_a_placement_round(game):
    """POST /prompts/<placement>/extend {"seats": ["s3"]} in group round 2 (s3 keeps KGB) was accepted: s3 then
    placed again, was asked again, and ended with two groups and its starting group replaced (I-2: one each).
    The ruleset's action decides who places: 409 in both languages, nothing changed."""
    act, state, answer, client = game["act"], game["state"], game["answer"], game["client"]
    open_game(game, groups=("CIA", "CIA", "KGB", "IRS"))  # CIA set aside: s1 and s2 place again
    p = placement(game)
    before = state()["session"]["version"]
    r = client.post(f"/api/sessions/{game['sid']}/prompts/{p}/extend", headers=bearer(game["tokens"]["gm"]),
                    json={"seats": ["s3"]})
    assert r.status_code == 409 and has_japanese(r.get_json()["error"]["ja"]) and "extended" in r.get_json()["error"]["en"]
    assert state()["session"]["version"] == before
    answer(p, "s3", "Hackers", status=403)  # not asked in this round
    answer(p, "s1", "Hackers")
    answer(p, "s2", "Pentagon")
    act("opening_next")
    view = state("table")["ruleset"]
    assert {x["seat"]: (x["group"], x["counters"]["groups"]) for x in view["players"]} == {
        "s1": ("Hackers", 1), "s2": ("Pentagon", 1), "s3": ("KGB", 1), "s4": ("IRS", 1)}


def test_play_order_and_an_attack_with_supports(game):
    act, state = game["act"], game["state"]
    open_game(game)
    short = act("roll_order", {"faces": [6, 5]}, status=400)["error"]  # too few faces for four players
    assert (short["ja"], short["en"]) == (
        "実ダイスの出目が足りません：プレイ順は全員が2d6を振ります（4人で8個、入力2個）",
        "Not enough entered faces: everyone rolls 2d6 for the play order (8 faces for 4 players, 2 entered)")
    # s1 7, s2 12, s3 7, s4 3 -> s2; s1 and s3 re-roll: s1 2, s3 10 -> s2, s3, s1, s4
    # the faces of the tie's re-roll missing: the GM read only 「Not enough entered faces (die 9, a d6)」
    short = act("roll_order", {"faces": [3, 4, 6, 6, 5, 2, 1, 2]}, status=400)["error"]
    assert (short["ja"], short["en"]) == (
        "実ダイスの出目が足りません：アリスとキャロルが7で同点です。振り直しの出目（1人2個）を他の人の出目の後に続けて"
        "入力してください（9個目から）",
        "Not enough entered faces: アリス and キャロル tied at 7. Enter their re-roll faces (2 each) after the others' "
        "faces (from face 9)")
    out = act("roll_order", {"faces": [3, 4, 6, 6, 5, 2, 1, 2, 1, 1, 5, 5]})
    view = out["ruleset"]
    assert view["order"] == ["s2", "s3", "s1", "s4"] and view["current"] == "s2" and view["order_entered"]
    act("start_turn", who="s1", status=409)  # not s1's turn
    act("start_turn", {"draw_plot": True, "auto_control": "group"}, who="s2")
    me = next(x for x in state("s2")["ruleset"]["players"] if x["seat"] == "s2")
    assert me["counters"]["groups"] == 2 and me["counters"]["tokens_groups"] == 2
    assert me["counters"]["tokens_illuminati"] == 1 and me["counters"]["plot_hand"] == 4
    act("end_turn", who="s2")
    act("start_turn", who="s3")
    act("end_turn", who="s3")
    act("start_turn", who="s1")  # s1 (Bavarian Illuminati) attacks s3 (also Bavarian Illuminati): +5
    act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10, "global_power": 10},
                   "target": {"name": "KGB", "owner": "s3", "power": 2, "resistance": 5,
                              "alignments": ["government", "violent"], "position": "child",
                              "parent_alignments": "", "tokens": 1}}, who="s1")
    act("attack", {"purpose": "control"}, who="s1", status=409)  # one attack at a time
    refused = act("support", {"side": "attack", "kind": "aligned", "name": "IRS", "value": 2,
                              "alignments": ["peaceful"]}, who="s2", status=400)  # nothing shared with KGB
    # the way out is named as the support form names it (グローバルパワー, not 全体パワー)
    assert "グローバルパワー" in refused["error"]["ja"] and "global power" in refused["error"]["en"]
    act("support", {"side": "attack", "kind": "global", "name": "Post Office", "value": 1}, who="s2")
    act("support", {"side": "defense", "kind": "target", "tokens": 1}, who="s3")
    act("support", {"side": "defense", "kind": "target", "tokens": 1}, who="s3", status=409)  # no token left
    act("modify", {"side": "attack", "amount": 3, "label": "Mind Control"}, who="s4", status=403)
    act("modify", {"side": "defense", "amount": 2, "label": "Secret Police"})
    attack = state("table")["ruleset"]["attack"]
    b = attack["breakdown"]
    # attack 10 + same Illuminati 5 + support 1; defense 5 + child 10 + own tokens 2 + GM 2
    assert (b["attack_total"], b["defense_total"], b["achieved"]) == (16, 19, -3)
    assert [t["value"] for t in b["attack"]] == [10, 5, 1]
    act("roll_attack", who="s2", status=403)  # only the attacker or the GM rolls
    out = act("roll_attack", {"faces": [1, 1]}, who="s1")
    last = out["ruleset"]["last_attack"]
    assert last["result"]["roll"] == 2 and not last["result"]["success"] and last["result"]["entered"]
    assert out["ruleset"]["attack"] is None
    act("attack", {"purpose": "destroy", "attacker": {"kind": "group", "name": "Yuppies", "power": 6},
                   "target": {"name": "KGB", "owner": "s3", "power": 2, "position": "child"}}, who="s1")
    out = act("roll_attack", {"faces": [2, 1]}, who="s1")  # 6 - 12 = -6 < 3: fails
    assert not out["ruleset"]["last_attack"]["result"]["success"]
    act("attack", {"purpose": "control", "attacker": {"kind": "group", "name": "Yuppies", "power": 6},
                   "target": {"name": "KGB", "owner": "s3"}}, who="s1", status=409)  # no group token left
    act("end_turn", who="s1")
    text = game["client"].get(f"/api/sessions/{game['sid']}/export?format=text",
                              headers=bearer(game["tokens"]["gm"])).get_data(as_text=True)
    for line in ("プレイ順", "攻撃判定", "実ダイス", "攻撃（支配）"):
        assert line in text, line


def test_the_pages_sample_attack_goes_through_where_the_page_puts_it(game):
    """docs/rulesets/illuminati.md §3's sample attack, as written, on s1's first turn (s1 plays CIA, s2 KGB): it was
    refused there (its target had a group below it and a token on it, which a starting group cannot have: 400)."""
    import json
    from pathlib import Path
    page = (Path(__file__).resolve().parents[2] / "docs/rulesets/illuminati.md").read_text(encoding="utf-8")
    sample = json.loads(re.search(r"\*\*The attack payload\*\*.*?```json\n(.*?)```", page, re.S).group(1))
    act = game["act"]
    open_game(game)  # s1 CIA, s2 KGB
    assert act("roll_order", {"faces": [6, 6, 1, 1, 2, 2, 3, 3]})["ruleset"]["current"] == "s1"
    act("start_turn", who="s1")
    attack = act("attack", sample, who="s1")["ruleset"]["attack"]
    assert (attack["attacker"]["name"], attack["target"]["name"], attack["owner_name"]) == ("CIA", "KGB", SEATS[1])


@pytest.mark.parametrize("name,payload,who,status", [
    ("nope", {}, "gm", 404),
    ("setup", {"players": ["s1"]}, "gm", 400),
    ("setup", {"players": "s1"}, "gm", 400),  # one player
    ("setup", {"players": 5}, "gm", 400),
    ("setup", {"goal": "lots"}, "gm", 400),
    ("setup", {}, "s1", 403),
    ("setup", {}, "table", 403),
    ("opening_start", {}, "gm", 409),
    ("opening_next", {}, "gm", 409),
    ("roll_order", {}, "gm", 409),
    ("start_turn", {}, "s1", 409),
    ("attack", {"purpose": "control"}, "s1", 409),
    ("support", {"side": "attack"}, "s2", 409),
    ("eliminate", {"seat": "s9"}, "gm", 409),
])
def test_refusals_before_the_game_are_4xx_and_change_nothing(game, name, payload, who, status):
    before = game["state"]()["session"]["version"]
    game["act"](name, payload, who=who, status=status)
    assert game["state"]()["session"]["version"] == before


def test_refusals_in_play_are_4xx(game):
    act = game["act"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    act("start_turn", {"auto_control": "castle"}, who="s1", status=400)
    act("start_turn", who="s1")
    act("spend", {"purpose": "teleport"}, who="s1", status=400)
    act("spend", {"purpose": "move", "seat": "s2"}, who="s1", status=403)
    act("spend", {"purpose": "move"}, who="s2", status=409)  # not s2's turn
    act("place_agent", {"illuminati": "Bavarian Illuminati"}, who="s1", status=400)  # own
    act("place_agent", {"illuminati": "Nobody"}, who="s1", status=400)
    act("place_agent", {"illuminati": "ufos"}, who="s1")
    act("place_agent", {"illuminati": "UFOs"}, who="s1", status=409)
    act("attack", {"purpose": "control", "attacker": "CIA", "target": {}}, who="s1", status=400)
    act("attack", {"purpose": "control", "attacker": {"power": -1}, "target": {"name": "X", "owner": "s2"}},
        who="s1", status=400)
    act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 8},
                   "target": {"name": "X", "owner": "s2", "alignments": ["Martian"]}}, who="s1", status=400)
    act("declare_victory", who="s1", status=409)  # 1 of 11
    act("declare_victory", {"kind": "special", "label": "x"}, who="s1", status=403)
    for kind in ("special", "goal_card"):  # without a label too: the phone may not declare it (it was asked for a label)
        refused = act("declare_victory", {"kind": kind}, who="s1", status=403)["error"]
        assert (refused["ja"], refused["en"]) == ("特殊ゴールとゴールカードはGMが宣言します",
                                                  "The GM declares special goals and goal cards"), refused
    act("declare_victory", {"seat": "s2", "kind": "special"}, status=400)  # the GM names it
    act("roll_attack", who="s1", status=409)
    act("choose_power", {"use": "global"}, who="s1", status=409)
    # the agent of UFOs (s2's Illuminati) gives +3 against s2
    out = act("attack", {"purpose": "destroy", "attacker": {"kind": "illuminati", "power": 8},
                         "target": {"name": "Post Office", "owner": "s2", "power": 3, "position": "child"}}, who="s1")
    assert out["ruleset"]["attack"]["breakdown"]["attack_total"] == 11
    act("end_turn", who="s1", status=409)  # an attack is in progress
    act("cancel_attack", who="s1", status=403)
    act("cancel_attack", {"reason": "間違い"})
    act("end_turn", who="s1")


def test_the_gm_undoes_an_attack_roll_and_its_result(game):
    act, state = game["act"], game["state"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    act("start_turn", who="s1")
    act("attack", {"purpose": "destroy", "attacker": {"kind": "illuminati", "power": 20},
                   "target": {"name": "KGB", "owner": "s3", "power": 2, "position": "child"}}, who="s1")
    out = act("roll_attack", {"faces": [1, 2]}, who="s1")
    players = {p["seat"]: p for p in out["ruleset"]["players"]}
    assert players["s3"]["out"] and players["s1"]["counters"]["destroyed"] == 1
    r = game["client"].post(f"/api/sessions/{game['sid']}/undo", headers=bearer(game["tokens"]["gm"]))
    assert r.status_code == 200, r.get_json()
    view = state()["ruleset"]
    players = {p["seat"]: p for p in view["players"]}
    assert not players["s3"]["out"] and players["s3"]["counters"]["groups"] == 1
    assert players["s1"]["counters"]["destroyed"] == 0 and view["attack"]["target"]["name"] == "KGB"
    r = game["client"].post(f"/api/sessions/{game['sid']}/readings", headers=bearer(game["tokens"]["gm"]),
                            json={"key": "illuminati_parent_bonus", "value": "per_alignment"})
    assert r.status_code == 200, r.get_json()


def attack_on_kgb(game) -> None:
    """The game opened, the order rolled, s1's turn begun: s1's Illuminati (power 10) attacks s3's KGB to control."""
    act = game["act"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    act("start_turn", who="s1")
    act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10, "global_power": 8},
                   "target": {"name": "KGB", "owner": "s3", "power": 2, "resistance": 5, "position": "child"}},
        who="s1")


def test_screens_in_english_hold_no_japanese_but_names(app, game):
    act = game["act"]
    attack_on_kgb(game)
    sid = game["sid"]
    check_english(app, sid, game["tokens"])  # the attack in progress
    act("roll_attack", {"faces": [5, 6]}, who="s1")
    check_english(app, sid, game["tokens"])  # its result


def check_english(app, sid, tokens):
    """The illuminati section of each screen in English: no Japanese but the seats' names."""
    for who, page in (("gm", "gm"), ("table", "table"), ("s1", "phone"), ("s2", "phone")):
        browser = app.test_client()
        entry = f"/join/{sid}?k={tokens[who]}" if who.startswith("s") else f"/s/{sid}/{page}?k={tokens[who]}"
        assert browser.get(entry).status_code in (200, 302)
        html = browser.get(f"/s/{sid}/{page}?lang=en").get_data(as_text=True)
        section = re.search(r'<section class="[^"]*illuminati[^"]*".*?</section>', html, re.S)
        assert section, who
        text = re.sub(r"<[^>]+>", " ", whole_names(section.group(0)))
        for name in SEATS:
            text = text.replace(name, "")
        assert not has_japanese(text), (who, [w for w in text.split() if has_japanese(w)][:5])


def test_the_phone_and_console_forms_post_flat_fields(app, game):
    """The screens post forms (flat `attacker_*` / `target_*` fields, repeated checkboxes, empty inputs)."""
    from werkzeug.datastructures import MultiDict

    from gmtool.web.common import csrf_for

    act, state, sid, tokens = game["act"], game["state"], game["sid"], game["tokens"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4

    def form(who, name, fields, status=200):
        browser = app.test_client()
        entry = f"/join/{sid}?k={tokens[who]}" if who.startswith("s") else f"/s/{sid}/gm?k={tokens[who]}"
        browser.get(entry)
        path = f"/s/{sid}/phone/actions/{name}" if who.startswith("s") else f"/s/{sid}/gm/actions/{name}"
        r = browser.post(path, data=MultiDict(fields), headers={"X-CSRF-Token": csrf_for(tokens[who]),
                                                                "HX-Request": "true"})
        assert r.status_code == status, (name, r.status_code, r.get_data(as_text=True)[:300])

    form("s1", "start_turn", [("draw_plot", "1"), ("draw_group", "1"), ("auto_control", "none")])
    form("s1", "attack", [("purpose", "control"), ("attacker_kind", "illuminati"), ("attacker_name", ""),
                          ("attacker_power", "10"), ("attacker_global_power", ""),
                          ("attacker_alignments", "government"), ("attacker_alignments", "violent"),
                          ("target_name", "KGB"), ("target_owner", "s3"), ("target_power", "2"),
                          ("target_resistance", "5"), ("target_position", "grandchild"), ("target_subtree", ""),
                          ("target_tokens", ""), ("target_alignments", "government"),
                          ("target_parent_alignments", "government")])
    attack = state()["ruleset"]["attack"]
    assert attack["attacker"]["name"] == "Bavarian Illuminati"
    assert attack["target"]["alignments"] == ["government"] and attack["target"]["subtree"] == 0
    b = attack["breakdown"]  # 10 + same 4 + same Illuminati 5; 5 + grandchild 5 + parent 4
    assert (b["attack_total"], b["defense_total"]) == (19, 14)
    form("gm", "support", [("seat", "s1"), ("side", "attack"), ("kind", "global"), ("name", "Yuppies"),
                           ("value", "3"), ("tokens", "")])
    form("s2", "support", [("side", "defense"), ("kind", "aligned"), ("name", "IRS"), ("value", "4"),
                           ("alignments", "government")], status=409)  # s2 has no token before its turn
    form("gm", "modify", [("side", "defense"), ("amount", "+2"), ("label", "Secret Police")])
    assert state()["ruleset"]["attack"]["breakdown"]["achieved"] == 22 - 16
    form("s1", "roll_attack", [("faces", "3 3")])
    assert state()["ruleset"]["last_attack"]["result"]["success"]
    form("gm", "setup", [("goal", "")], status=409)  # the game is on


@pytest.mark.parametrize("seats,offered", [(["アリス", "ボブ"], True), (["アリス", "ボブ", "キャロル"], False)])
def test_i1_the_gm_console_offers_the_tournament_goal_only_to_two_players(client, seats, offered):
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY),
                       json={"title": "大会", "ruleset": "illuminati", "seats": seats}).get_json()
    sid, gm = data["session"], data["gm_token"]
    browser = client.application.test_client()
    assert browser.get(f"/s/{sid}/gm?k={gm}").status_code in (200, 302)
    console = browser.get(f"/s/{sid}/gm").get_data(as_text=True)
    assert 'id="il-setup"' in console
    assert ('name="tournament"' in console) is offered
    # the goal field reads its label on the screen (it was a blank box, its meaning only in a tooltip)
    assert re.search(r'<label[^>]*>協議によるゴール（空欄なら人数どおり） <input name="goal"', console)
    r = client.post(f"/api/sessions/{sid}/actions/setup", headers=bearer(gm), json={"tournament": True})
    if offered:
        assert r.status_code == 200 and r.get_json()["ruleset"]["goal"] == 12
    else:
        assert r.status_code == 400
        error = r.get_json()["error"]
        assert "2人対戦だけ" in error["ja"] and "3人" in error["ja"]
        assert "two-player rule only" in error["en"] and "3 players" in error["en"]
        assert client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["ruleset"]["goal"] is None
        # two of the three set: the console offers the tournament and ticks those two only, so that its form sends
        # them again (`setup` without `players` takes every seat; the boxes were all ticked whatever was set)
        assert client.post(f"/api/sessions/{sid}/actions/setup", headers=bearer(gm),
                           json={"players": ["s1", "s3"]}).status_code == 200
        console = browser.get(f"/s/{sid}/gm").get_data(as_text=True)
        assert 'name="tournament"' in console
        ticked = re.findall(r'<input type="checkbox" name="players" value="(\w+)"( checked)?>', console)
        assert ticked == [("s1", " checked"), ("s2", ""), ("s3", " checked")], ticked


def test_a_negative_number_in_the_attack_breakdown_has_the_minus_sign_of_its_subtraction(app, game):
    """I-5: "Achieved 13 − 20 = −7" on every screen and in both languages, not "= -7" beside a real minus sign
    (U+2212); a negative modifier reads −2 too."""
    act = game["act"]
    attack_on_kgb(game)
    act("modify", {"side": "attack", "amount": -2, "label": "Bad luck"})
    act("modify", {"side": "defense", "amount": 5, "label": "Secret Police"})
    b = game["state"]()["ruleset"]["attack"]["breakdown"]
    assert (b["attack_total"], b["defense_total"], b["achieved"]) == (13, 20, -7)
    sid = game["sid"]
    for who, page in (("gm", "gm"), ("table", "table"), ("s1", "phone")):
        browser = app.test_client()
        entry = f"/join/{sid}?k={game['tokens'][who]}" if who.startswith("s") else f"/s/{sid}/{page}?k={game['tokens'][who]}"
        browser.get(entry)
        for lang in ("ja", "en"):
            html = browser.get(f"/s/{sid}/{page}?lang={lang}").get_data(as_text=True)
            parts = re.findall(r'<div class="il-breakdown">.*?</p>|<p class="il-stage-big il-stage-vs">.*?</p>', html, re.S)
            assert parts, (who, lang)
            shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", " ".join(parts)))
            assert "13 − 20 = −7" in shown and "−2" in shown and not re.search(r"(?<!\d)-\d", shown), (who, lang, shown)
    act("roll_attack", {"faces": [2, 1]}, who="s1")  # the log line (and so the exports) writes the numbers alike
    for lang, subtraction in (("ja", "攻撃13（"), ("en", "attack 13 (")):
        log = game["client"].get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(game["tokens"]["table"]))
        line = next(e["text"] for e in log.get_json()["events"] if e["type"] == "illuminati.attack_rolled")
        assert subtraction in line and re.search("− (防御|defense)", line) and "= −7" in line and "−2" in line, line
        assert not re.search(r"(?<![\d)])-\d| - ", line), line
        modified = next(e["text"] for e in log.get_json()["events"] if e["type"] == "illuminati.attack_modified")
        assert "−2" in modified and not re.search(r"-\d", modified), modified  # the GM modifier's own line


def test_a_phone_before_the_regulation_says_what_it_waits_for(app, game):
    """Browser review: before the GM's `setup` a phone showed an empty 準備 / Setup card; it says what comes next, in
    its language, until the GM opens the placing of the Illuminati."""
    sid, browser = game["sid"], app.test_client()
    browser.get(f"/join/{sid}?k={game['tokens']['s1']}")
    for lang, words in (("ja", "GMがプレイヤーとゴールを決めています"), ("en", "The GM is choosing the players and the goal")):
        assert words in browser.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True), lang
    game["act"]("setup", {})
    assert "il-waiting" in browser.get(f"/s/{sid}/phone").get_data(as_text=True)
    game["act"]("opening_start")
    assert "il-waiting" not in browser.get(f"/s/{sid}/phone").get_data(as_text=True)


def test_i7_a_player_out_on_their_own_turn_hands_the_next_player_a_fresh_turn(game):
    """I-7: s1 destroyed its own last group on its turn (out), and the turn passed to s2 already begun with its group
    draw used: s2's start_turn was refused (409 「このターンは既に開始しています」), so s2 got no action tokens. The same
    when the GM puts the current player out. The next player's turn starts afresh."""
    act, state = game["act"], game["state"]
    open_game(game)  # s1 CIA, s2 KGB, s3 IRS, s4 Yuppies
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    act("start_turn", who="s1")
    act("spend", {"purpose": "draw_group", "source": "illuminati"}, who="s1")
    act("attack", {"purpose": "destroy", "attacker": {"kind": "group", "name": "CIA", "power": 6},
                   "target": {"name": "CIA", "owner": "s1", "power": 0}}, who="s1")
    out = act("roll_attack", {"faces": [1, 1]}, who="s1")["ruleset"]
    assert next(p for p in out["players"] if p["seat"] == "s1")["out"]
    assert out["current"] == "s2" and not out["turn"]["started"] and not out["turn"]["group_draw"]
    assert state("s2")["ruleset"]["can"]["start_turn"]
    act("start_turn", who="s2")
    act("spend", {"purpose": "draw_group", "source": "illuminati"}, who="s2")  # s2's own group draw
    act("eliminate", {"seat": "s2", "reason": "no_groups"})  # the GM puts the current player out
    view = state("s3")["ruleset"]
    assert view["current"] == "s3" and view["turn"] == {"started": False, "group_draw": False, "auto_control": None}
    act("start_turn", who="s3")
    s3 = next(p for p in state()["ruleset"]["players"] if p["seat"] == "s3")["counters"]
    assert (s3["tokens_illuminati"], s3["tokens_groups"]) == (1, 1)


@pytest.mark.parametrize("purpose", ["control", "destroy"])
def test_i4_a_target_token_spent_on_the_defense_is_not_removed_twice(game, purpose):
    """I-4: s3 (3 groups, a token on each) spent the token on its attacked KGB to defend; when the attack succeeded the
    result removed "the tokens on the target" again, leaving s3 one token for its two remaining groups. The token
    spent is gone once: s3 keeps the two on its other groups."""
    act, client = game["act"], game["client"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    for key in ("groups", "tokens_groups"):  # as if earlier turns went by
        r = client.post(f"/api/sessions/{game['sid']}/counters", headers=bearer(game["tokens"]["gm"]),
                        json={"seat": "s3", "key": key, "value": 3, "reason": "earlier turns"})
        assert r.status_code == 200, r.get_json()
    act("start_turn", who="s1")
    act("attack", {"purpose": purpose, "attacker": {"kind": "illuminati", "power": 30},
                   "target": {"name": "KGB", "owner": "s3", "power": 2, "resistance": 2, "tokens": 1}}, who="s1")
    act("support", {"side": "defense", "kind": "target", "tokens": 1}, who="s3")
    out = act("roll_attack", {"faces": [1, 1]}, who="s1")["ruleset"]
    assert out["last_attack"]["result"]["success"]
    s3 = next(p for p in out["players"] if p["seat"] == "s3")["counters"]
    assert (s3["groups"], s3["tokens_groups"]) == (2, 2)


def test_i4_only_the_targets_owner_defends_with_its_parent_or_child(game):
    """I-4: a defense by a card adjacent to the target (its parent or a child) comes from the target's owner's power
    structure. Another player's `adjacent` support was taken (s2 added a power 4 "parent" to s3's KGB): 400 in both
    languages, nothing changed; s3's own parent defends."""
    act, state = game["act"], game["state"]
    attack_on_kgb(game)  # s1 attacks s3's KGB
    for seat in ("s2", "s3"):  # a token on each Illuminati, as if their turns went by
        r = game["client"].post(f"/api/sessions/{game['sid']}/counters", headers=bearer(game["tokens"]["gm"]),
                                json={"seat": seat, "key": "tokens_illuminati", "value": 1, "reason": "earlier turns"})
        assert r.status_code == 200, r.get_json()
    before = state()["session"]["version"]
    refused = act("support", {"side": "defense", "kind": "adjacent", "name": "UFOs", "value": 4,
                              "source": "illuminati"}, who="s2", status=400)
    assert "持ち主だけ" in refused["error"]["ja"] and "owner" in refused["error"]["en"]
    assert state()["session"]["version"] == before
    act("support", {"side": "defense", "kind": "adjacent", "name": "Bavarian Illuminati", "value": 4,
                    "source": "illuminati"}, who="s3")
    assert state()["ruleset"]["attack"]["breakdown"]["defense_total"] == 5 + 10 + 4


def test_i4_the_targets_owner_plays_no_agent_of_its_own_group(game):
    """I-4 (seed: a card in one's own power structure is never one's agent): s3 defended its own KGB with "the KGB
    agent from the hand" (+6). Refused with 400 in both languages, nothing changed; another player's agent counts."""
    act, state = game["act"], game["state"]
    attack_on_kgb(game)  # s1 attacks s3's KGB
    before = state()["session"]["version"]
    refused = act("support", {"side": "defense", "kind": "agent"}, who="s3", status=400)
    assert "エージェント" in refused["error"]["ja"] and "agent" in refused["error"]["en"]
    assert state()["session"]["version"] == before
    act("support", {"side": "defense", "kind": "agent"}, who="s2")
    assert state()["ruleset"]["attack"]["breakdown"]["defense_total"] == 5 + 10 + 6


def test_i5_the_table_shows_the_highest_roll_that_succeeds_or_why_none_does(app, game):
    """I-5 on the table's stage and breakdown: achieved 1 cannot succeed because 2 is the lowest roll (the screens said
    「11以上は失敗」 / "11-12 always fail", which is not why); achieved 2 needs a 2; achieved 12 needs 10 or less (11 and
    12 always fail)."""
    act, sid = game["act"], game["sid"]
    attack_on_kgb(game)  # attack 15 (power 10 + same Illuminati 5) − defense 15 (resistance 5 + child 10)
    browser = app.test_client()
    browser.get(f"/s/{sid}/table?k={game['tokens']['table']}")
    shown = {"ja": {1: "成功の見込みなし（達成値が最小の出目2に届かない）", 2: "成功には出目 2 以下", 12: "成功には出目 10 以下"},
             "en": {1: "Cannot succeed (the achieved value is below 2, the lowest roll)", 2: "Succeeds on a roll of 2 or less",
                    12: "Succeeds on a roll of 10 or less"}}
    for amount, achieved in ((1, 1), (1, 2), (10, 12)):
        act("modify", {"side": "attack", "amount": amount, "label": "Mind Control"})
        assert game["state"]()["ruleset"]["attack"]["breakdown"]["achieved"] == achieved
        for lang in ("ja", "en"):
            html = browser.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
            stage = re.search(r'<p class="il-stage-big il-stage-vs">.*?</p>', html, re.S).group(0)
            line = re.search(r'<p class="il-achieved">.*?</p>', html, re.S).group(0)
            for part in (stage, line):
                assert shown[lang][achieved] in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", part)), (lang, achieved, part)


def test_an_action_out_of_its_stage_names_the_stage_in_words(game):
    """A step out of its stage said "Not now: the game is at the over stage" (the stage's key, not a word a player
    reads) and 「段階：終了」; both languages name the stage as the screens do."""
    act = game["act"]
    error = act("roll_order", who="gm", status=409)["error"]
    assert (error["ja"], error["en"]) == ("今はこの操作はできません（段階：準備）", "Not now (the game's stage: Setup)")
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    for seat in ("s2", "s3", "s4"):
        act("eliminate", {"seat": seat, "reason": "goal_cards"})
    error = act("start_turn", who="s1", status=409)["error"]
    assert (error["ja"], error["en"]) == ("今はこの操作はできません（段階：ゲーム終了）", "Not now (the game's stage: Game over)")


def test_i7_players_out_and_the_winner_read_on_the_table_with_the_rule_code_behind_the_toggle(app, game):
    """I-7 / I-1: 「ボブが脱落（自ターン外にゴールカードを2枚持っていた、I-7）」 wrote its rule code inside the reason's
    parentheses, which the table's 根拠 toggle does not hide (only a code in parentheses of its own): the TV showed
    "I-7" raw on every player out, and "I-1" on the winner. The code stands in parentheses of its own, as ace_royal's
    lines write theirs."""
    act, sid = game["act"], game["sid"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    act("eliminate", {"seat": "s2", "reason": "goal_cards"})
    act("eliminate", {"seat": "s3", "reason": "no_groups"})
    act("eliminate", {"seat": "s4", "reason": "goal_cards"})  # s1 is left: it wins (I-1)
    browser = app.test_client()
    browser.get(f"/s/{sid}/table?k={game['tokens']['table']}")
    lines = {"ja": ("ボブが脱落（自ターン外にゴールカードを2枚持っていた）", "キャロルが脱落（支配するグループがなくなった）",
                    "アリスの勝利！（他の全員が脱落）"),
             "en": ("ボブ is out (held two goal cards outside their turn)", "キャロル is out (controls no group)",
                    "アリス wins! (everyone else is out)")}
    for lang, words in lines.items():
        html = browser.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        assert shown_by_default(html, RULE_CODE_TEXT) == [], lang
        text = re.sub(r"<[^>]+>", "", html)
        assert all(w in text for w in words), (lang, words)


def test_the_tables_history_marks_an_attack_called_off(app, game):
    """The table's history listed an attack the GM called off like one still to roll (its headline and breakdown,
    "Succeeds on a roll of 10 or less", no roll): it says it was called off, with the GM's reason."""
    act, sid = game["act"], game["sid"]
    attack_on_kgb(game)
    act("cancel_attack", {"reason": "宣言の間違い"})
    browser = app.test_client()
    browser.get(f"/s/{sid}/table?k={game['tokens']['table']}")
    for lang, words in (("ja", "取りやめ: 宣言の間違い"), ("en", "Called off: 宣言の間違い")):
        html = browser.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        history = re.search(r'<section class="illuminati il-history".*?</section>', html, re.S).group(0)
        assert words in re.sub(r"<[^>]+>", "", history), (lang, history)


def test_i4_a_phone_offers_the_supports_its_player_may_give(app, game):
    """I-4: the target's owner defends with the target's own tokens and its parent or child, and never plays an agent
    of its own group; every phone offered all five kinds (three of them then refused). The owner's phone offers the
    first two, the others' the agent."""
    attack_on_kgb(game)  # s1 attacks s3's KGB
    sid = game["sid"]
    for seat, shown, hidden in (("s3", ("adjacent", "target"), ("agent",)), ("s2", ("agent",), ("adjacent", "target"))):
        browser = app.test_client()
        browser.get(f"/join/{sid}?k={game['tokens'][seat]}")
        form = re.search(r'<form [^>]*class="il-support".*?</form>', browser.get(f"/s/{sid}/phone").get_data(as_text=True),
                         re.S).group(0)
        kinds = set(re.findall(r'<option value="(\w+)"', re.search(r'<select name="kind".*?</select>', form, re.S).group(0)))
        assert set(shown) <= kinds and not set(hidden) & kinds, (seat, kinds)
        # The side is chosen for them: the owner defends, the others support the attack (the owner's form was set to
        # 攻撃を支援, so its docked 支援 button sent help to the attacker on its own group)
        checked = re.findall(r'<input type="radio" name="side" value="(\w+)" checked>', form)
        assert checked == ["defense" if seat == "s3" else "attack"], (seat, checked)


@pytest.mark.parametrize("out", ["s1", "s3"])
def test_i7_a_player_put_out_during_an_attack_calls_it_off(game, out):
    """I-7: the GM put the attacker (s1) or the target's owner (s3) out while the attack was being built; the attack
    stayed, so nobody could end a turn until the GM called it off, and rolling it moved the groups of a player out of
    the game. The attack is called off in the same step; the next player's turn goes on."""
    act, state = game["act"], game["state"]
    attack_on_kgb(game)  # s1 attacks s3's KGB
    answer = act("eliminate", {"seat": out, "reason": "goal_cards"})
    assert [e["type"] for e in answer["events"]] == ["illuminati.attack_cancelled", "illuminati.player_out"]
    view = answer["ruleset"]
    assert view["attack"] is None and view["last_attack"]["status"] == "cancelled"
    assert next(p for p in view["players"] if p["seat"] == out)["out"]
    current = view["current"]
    assert current == ("s2" if out == "s1" else "s1")
    if out == "s1":
        act("start_turn", who=current)
    act("end_turn", who=current)
    assert state()["ruleset"]["current"] != current


@pytest.mark.parametrize("ties", ["reroll", "table_order"])
def test_i3_players_named_in_any_order_roll_in_seat_order(game, ties):
    """I-3 (docs: real dice are entered "in seat order"; the reading `table_order` keeps the seating order on a tie):
    `setup` {"players": ["s3", "s1"]} kept that order, so the first two faces were s3's and a tie put s3 first."""
    act = game["act"]
    if ties != "reroll":  # (the default)
        r = game["client"].post(f"/api/sessions/{game['sid']}/readings", headers=bearer(game["tokens"]["gm"]),
                                json={"key": "illuminati_ties", "value": ties})
        assert r.status_code == 200, r.get_json()
    act("setup", {"players": ["s3", "s1"]})
    assert [p["seat"] for p in game["state"]()["ruleset"]["players"]] == ["s1", "s3"]
    act("opening_start")
    for seat in ("s1", "s3"):
        game["answer"](placement(game), seat, f"Illuminati {seat}")
    act("opening_next")
    for seat in ("s1", "s3"):
        game["answer"](placement(game), seat, f"Group {seat}")
    act("opening_next")
    faces = [6, 6, 1, 1] if ties == "reroll" else [3, 4, 5, 2]  # s1 12, s3 2 / a tie at 7
    view = act("roll_order", {"faces": faces})["ruleset"]
    assert view["order"] == ["s1", "s3"]
    assert {p["seat"]: p["order_rolls"] for p in view["players"]} == ({"s1": [12], "s3": [2]} if ties == "reroll" else
                                                                       {"s1": [7], "s3": [7]})


def test_i2_a_phone_that_places_again_says_why_and_the_table_names_what_is_set_aside(app, game):
    """Browser review: a player whose starting group was also chosen by another got only "初期グループ 第2回" and an
    empty field, and the table only struck the duplicates out. The phone now says its group is set aside and to
    choose another, in its language; the players who keep theirs are not told so; the table lists the set-aside group."""
    open_game(game, groups=("CIA", "CIA", "KGB", "IRS"))  # CIA set aside: s1 and s2 place again
    sid = game["sid"]
    for lang, words in (("ja", "「CIA」は他のプレイヤーも選んだため脇に置かれました"), ("en", "Another player also chose CIA")):
        for seat, told in (("s1", True), ("s2", True), ("s3", False)):
            browser = app.test_client()
            browser.get(f"/join/{sid}?k={game['tokens'][seat]}")
            assert (words in browser.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)) is told, (lang, seat)
        screen = app.test_client()
        screen.get(f"/s/{sid}/table?k={game['tokens']['table']}")
        table = screen.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        assert re.search(r'class="il-set-aside">[^<]*: CIA<', table), lang
    game["answer"](placement(game), "s1", "Hackers")
    browser = app.test_client()
    browser.get(f"/join/{sid}?k={game['tokens']['s1']}")
    assert "il-again" not in browser.get(f"/s/{sid}/phone").get_data(as_text=True)  # placed: nothing more to do


@pytest.mark.parametrize(("lang", "names"), [
    ("ja", ["パワー", "グローバルパワー", "パワー", "抵抗", "下流のグループ数", "対象と下流のトークン"]),
    ("en", ["Power", "Global power", "Power", "Resistance", "Groups below it", "Tokens on it and below"])])
def test_the_attack_forms_numbers_are_named_in_full_above_their_fields(app, game, lang, names):
    """Browser review: the attack form's numbers were named only by placeholders in 3-character fields, read on a
    390 px phone as 「グローバ」「下流のグ」 / "Global p", "Resistar", "Tokens (" (and gone once typed). Each now has its
    whole name written above it, on the attacker's phone and on the GM console."""
    open_game(game)
    game["act"]("roll_order", {"faces": [6, 6, 1, 1, 2, 2, 3, 3]})  # s1 first
    game["act"]("start_turn", who="s1")
    sid = game["sid"]
    for who, path in (("s1", "phone"), ("gm", "gm")):
        browser = app.test_client()
        browser.get(f"/join/{sid}?k={game['tokens'][who]}" if who != "gm" else f"/s/{sid}/gm?k={game['tokens']['gm']}")
        page = browser.get(f"/s/{sid}/{path}?lang={lang}").get_data(as_text=True)
        form = re.search(r'<form[^>]*actions/attack".*?</form>', page, re.S).group(0)
        fields = ("attacker_power", "attacker_global_power", "target_power", "target_resistance", "target_subtree", "target_tokens")
        shown = [re.search(rf'<label class="il-num"><span>([^<]*)</span><input name="{f}"', form) for f in fields]
        assert [m.group(1) if m else None for m in shown] == names, (who, lang)


def test_i7_groups_set_to_zero_on_the_counter_panel_puts_the_player_out(app, game):
    """I-7 (docs §1): `groups` set to 0 with the core counter route during play puts the player out in that action (the
    GM had to call `eliminate` as well); the turn passes them by, and the GM's undo takes both back."""
    act, state, client = game["act"], game["state"], game["client"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    r = client.post(f"/api/sessions/{game['sid']}/counters", headers=bearer(game["tokens"]["gm"]),
                    json={"seat": "s2", "key": "groups", "value": 0, "reason": "カード効果"})
    assert r.status_code == 200, r.get_json()
    players = {p["seat"]: p for p in state()["ruleset"]["players"]}
    assert players["s2"]["out"] and players["s2"]["out_reason"] == "no_groups"
    # The player's own phone says so (it said 「0/12 組織（あと 12）」 as if still playing for the goal; the table and
    # the console said 脱落 / Out)
    phone = app.test_client()
    phone.get(f"/join/{game['sid']}?k={game['tokens']['s2']}")
    for lang, out, missing in (("ja", "脱落", "あと"), ("en", "Out", "missing")):
        me = re.search(r'<p class="il-me">.*?</p>', phone.get(f"/s/{game['sid']}/phone?lang={lang}").get_data(as_text=True),
                       re.S).group(0)
        assert out in me and missing not in me, (lang, me)
    act("start_turn", who="s1")
    act("end_turn", who="s1")
    assert state()["ruleset"]["current"] == "s3"
    for _ in range(3):  # end_turn, start_turn, the counter change with the player out
        undo = client.post(f"/api/sessions/{game['sid']}/undo", headers=bearer(game["tokens"]["gm"]), json={})
        assert undo.status_code == 200, undo.get_json()
    players = {p["seat"]: p for p in state()["ruleset"]["players"]}
    assert not players["s2"]["out"] and players["s2"]["counters"]["groups"] == 1


def won_by_a_declaration(game):
    """The opening, the order rolled (s1 first), and s1's turn ended after it declared a special victory (I-1)."""
    act = game["act"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    act("start_turn", who="s1")
    act("declare_victory", {"seat": "s1", "kind": "special", "label": "特別勝利"})
    act("end_turn", who="s1")


def test_after_the_game_no_player_is_marked_to_play(app, game):
    """I-1: once a victory ends the game nobody's turn is next: the table and the console marked the seat after the
    winner's turn (▶ and the current-player outline) as if it were to play, and the view's current / current_name /
    players[].current still named it (the templates had each been taught to look at the stage instead)."""
    tokens, sid = game["tokens"], game["sid"]
    won_by_a_declaration(game)
    assert game["state"]()["ruleset"]["stage"] == "over"
    for who in ("gm", "table", "s2"):  # the API says so too (as ace_royal's does): nobody's turn, no name
        view = game["state"](who)["ruleset"]
        assert (view["current"], view["current_name"]) == (None, "") and not any(p["current"] for p in view["players"])
    for who, path in (("table", "table"), ("gm", "gm")):
        browser = app.test_client()
        assert browser.get(f"/s/{sid}/{path}?k={tokens[who]}").status_code == 302
        page = browser.get(f"/s/{sid}/{path}").get_data(as_text=True)
        assert "il-current" not in re.sub(r'class="il-current-name"', "", page) and "▶" not in page, who


def test_i1_the_winner_reads_as_a_win_on_every_phone_and_the_console(app, game):
    """Play-through: the winner's line on the phones and the console was a red flag (.flag, the colour of a warning,
    as a player put out reads), the winner's own phone included. It reads as the stage's does: a trophy, in gold."""
    tokens, sid = game["tokens"], game["sid"]
    to_the_end(game)
    for who, path in (("s2", "phone"), ("s3", "phone"), ("gm", "gm")):
        page = open_link(app, f"/join/{sid}?k={tokens[who]}" if path == "phone" else f"/s/{sid}/gm?k={tokens[who]}")
        html = page.get(f"/s/{sid}/{path}").get_data(as_text=True)
        line = re.search(r'<p class="([^"]*)">(<svg.*?</svg>)? ?勝者', html)
        assert line and line.group(1) == "il-won" and line.group(2), (who, line and line.group(0))


def test_i1_a_pending_declaration_reads_as_pending_not_as_an_error(app, game):
    """Review: 「勝利宣言中」 (a declaration that end_turn has yet to confirm, I-1) was a red flag (.flag, the colour of
    「脱落」 and of errors) on the table and the console, and the declaring phone did not show it at all. Every screen
    shows it as pending and important: the accent, dark text, a dashed edge (illuminati.css), never the red."""
    tokens, sid = game["tokens"], game["sid"]
    open_game(game)
    game["act"]("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    game["act"]("start_turn", who="s1")
    game["act"]("declare_victory", {"seat": "s2", "kind": "special", "label": "Big Brother"})  # s2's: pending
    for who, path in (("table", "table"), ("gm", "gm"), ("s2", "phone")):
        page = open_link(app, f"/join/{sid}?k={tokens[who]}" if path == "phone" else f"/s/{sid}/{path}?k={tokens[who]}")
        for lang, word in (("ja", "勝利宣言中"), ("en", "Victory declared")):
            flags = re.findall(r'<span class="([^"]*)">' + word + "</span>", page.get(f"/s/{sid}/{path}?lang={lang}").get_data(as_text=True))
            assert flags == ["flag il-declared-flag"], (who, lang, flags)
    css = app.test_client().get("/static/rulesets/illuminati.css").get_data(as_text=True)
    rule = re.search(r"\.flag\.il-declared-flag \{([^}]*)\}", css).group(1)
    assert "background: var(--accent)" in rule and "color: #111" in rule and "dashed" in rule, rule


def to_the_end(game):
    """s1 put out during its attack (called off), a declaration, then players put out until s2, the last, wins."""
    test_i7_a_player_put_out_during_an_attack_calls_it_off(game, "s1")  # s1 out, its attack called off
    game["act"]("declare_victory", {"kind": "special", "label": "Big Brother", "seat": "s2"})
    game["act"]("eliminate", {"seat": "s3", "reason": "goal_cards"})
    game["act"]("eliminate", {"seat": "s4", "reason": "goal_cards"})  # s2 is the last player: the winner


def tokens_an_agent_and_the_power(game):
    """I-4: in its turn a player spends a token, places an agent and attacks with its global power."""
    act = game["act"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    act("start_turn", who="s1")
    act("spend", {"purpose": "move", "label": "Gnomes"}, who="s1")
    act("place_agent", {"illuminati": "UFOs"}, who="s1")
    act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10, "global_power": 8},
                   "target": {"name": "KGB", "owner": "s3", "power": 2, "resistance": 5}}, who="s1")
    act("choose_power", {"use": "global"}, who="s1")


def documented_games(client, every_event=False):
    """The games the documented-fields tests play (the view's here, the events' in test_web_api.py), each as (session
    id, tokens of the GM, the table and every seat, play), `play()` not yet run: the opening, an attack with
    supports rolled, one called off, a declaration, players put out until one wins; with `every_event` also those
    that write the event types these leave out (tokens spent, an agent placed, the power chosen)."""
    flows = [test_opening_secret_placements_and_duplicates, test_play_order_and_an_attack_with_supports, to_the_end]
    if every_event:
        flows += [tokens_an_agent_and_the_power]
    yield from games_to_play(flows, lambda: new_game(client))


def test_the_tables_stage_shows_no_step_the_gm_took_back(app, game):
    """Browser review: the GM undid the end of the turn that won the game; the table's stage went on showing
    「アリスのターン終了。次は…」 as the newest step with 「アリスの勝利！」 under it, in a game in play again (an undone
    line stays in the log, struck through). The stage shows the newest step that stands: the declaration."""
    tokens, sid = game["tokens"], game["sid"]
    won_by_a_declaration(game)
    undo = game["client"].post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"]), json={})
    assert undo.status_code == 200, undo.get_json()
    assert game["state"]()["ruleset"]["stage"] == "play"
    browser = app.test_client()
    assert browser.get(f"/s/{sid}/table?k={tokens['table']}").status_code == 302
    page = browser.get(f"/s/{sid}/table").get_data(as_text=True)
    newest = re.search(r'id="il-newest">(.*?)</p>', page, re.S)
    assert newest and "特別勝利" in newest.group(1), newest
    assert "il-stage-flag" not in page and "ターン終了" not in newest.group(1)


def test_a_phone_offers_no_token_spend_its_player_cannot_pay(app, game):
    """Browser review: every phone showed its four token buttons (move a group, draw a group card, a plot card for
    1 Illuminati or 2 group tokens) as if they could be tapped, before the player's first turn with no token at all;
    each tap was refused (409 「…が足りません」). A button the player cannot pay for, or the turn's one group draw
    once used, is disabled."""
    act, sid = game["act"], game["sid"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4

    def buttons(seat: str) -> dict:
        phone = app.test_client()
        phone.get(f"/join/{sid}?k={game['tokens'][seat]}")
        page = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
        # each asks for a deliberate second tap (static/live.js): a stray tap spent a token of the turn
        found = re.findall(r'<button data-second-tap="トークンを使います: もう一度タップで確定" hx-post="[^"]*/spend" '
                           r'hx-vals=\'(\{[^\']*\})\'( disabled)?>', page)
        return {vals: bool(off) for vals, off in found}

    plot_ill = '{"purpose": "draw_plot", "source": "illuminati"}'
    plot_grp = '{"purpose": "draw_plot", "source": "group"}'
    move, draw = '{"purpose": "move", "source": "group"}', '{"purpose": "draw_group", "source": "group"}'
    assert buttons("s2") == {plot_ill: True, plot_grp: True}  # no token before their first turn
    act("start_turn", {"draw_group": False}, who="s1")  # 1 Illuminati token, 1 group token
    assert buttons("s1") == {move: False, draw: False, plot_ill: False, plot_grp: True}  # 2 group tokens for a plot
    act("spend", {"purpose": "draw_group", "source": "illuminati"}, who="s1")  # the turn's one group draw
    assert buttons("s1") == {move: False, draw: True, plot_ill: True, plot_grp: True}


def test_i1_a_seat_added_after_the_regulation_is_told_it_is_not_playing(app, game):
    """Browser review: the GM added a seat mid-game; its phone showed the game, the attack and a full counter card
    (プロット手札 3, グループ手札 6) as if it played, with nothing to do and no word why. The players are chosen by the
    regulation (I-1): its phone says it is not in this game and can play the next one."""
    client, sid = game["client"], game["sid"]
    open_game(game)
    r = client.post(f"/api/sessions/{sid}/seats", headers=bearer(game["tokens"]["gm"]), json={"name": "エヴァ"})
    assert r.status_code in (200, 201), r.get_json()
    token = r.get_json()["token"]
    for who, token_, shown in (("s5", token, True), ("s1", game["tokens"]["s1"], False)):
        phone = app.test_client()
        phone.get(f"/join/{sid}?k={token_}")
        for lang, words in (("ja", "このゲームには参加していません"), ("en", "not playing in this game")):
            page = phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
            assert (words in page) == shown, (who, lang)


def test_i1_the_write_up_and_the_campaign_page_end_with_the_winner(game):
    """Browser review: the write-up's final standings were the seven counters of every seat (tokens, hands and
    resources left over) with no word of who won, and the campaign page's outcome listed the same. They end with
    each player against the goal (its Illuminati, groups, destroyed pile, out) and the result (I-1)."""
    act, client, tokens, sid = game["act"], game["client"], game["tokens"], game["sid"]

    def export(lang="ja"):
        r = client.get(f"/api/sessions/{sid}/export?format=markdown&lang={lang}&times=0", headers=bearer(tokens["gm"]))
        text = r.get_data(as_text=True)
        return text[text.index("## 最終状況" if lang == "ja" else "## Standings"):]

    open_game(game)  # s1 CIA, s2 KGB, s3 IRS, s4 Yuppies (goal 11)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    assert "- 結果：未決着（ゲーム中）" in export()
    act("start_turn", who="s1")
    act("declare_victory", {"seat": "s1", "kind": "special", "label": "特別勝利"})
    act("end_turn", who="s1")
    final = export()
    assert "| 席 | イルミナティ | 支配グループ | 破壊の山 | 状態 |" in final
    assert "| アリス | Bavarian Illuminati | 1/11 | 0 |  |" in final and "トークン" not in final
    assert "- 結果：アリスの勝利（特殊ゴール「特別勝利」、I-1）" in final
    assert "- Result: アリス wins (special goal '特別勝利', I-1)" in export("en")
    r = client.post(f"/api/sessions/{sid}/continue", headers=bearer(tokens["gm"]), json={})
    assert r.status_code == 201, r.get_json()
    listed = client.get(f"/api/sessions/{sid}/campaign?lang=ja", headers=bearer(tokens["gm"])).get_json()["sessions"]
    assert listed[0]["outcome"] == "結果：アリスの勝利（特殊ゴール「特別勝利」、I-1）"


def test_i1_the_tables_end_stage_says_how_the_winner_won(game):
    """Play-through: the table's end stage said 「勝者: アリス」 with no word of how; it says how (the declared
    special goal, I-1), in both languages, as the write-up's result line does."""
    act, tokens, sid = game["act"], game["tokens"], game["sid"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    act("start_turn", who="s1")
    act("declare_victory", {"seat": "s1", "kind": "special", "label": "特別勝利"})
    act("end_turn", who="s1")
    table = game["client"].application.test_client()
    table.get(f"/s/{sid}/table?k={tokens['table']}")
    for lang, words in (("ja", ("勝者", "アリス", "特殊ゴール「特別勝利」")),
                        ("en", ("Winner", "アリス", "special goal '特別勝利'"))):
        page = table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        shown = re.search(r'<p class="il-winner[^"]*" id="il-stage-winner">(.*?)</p>', page, re.S).group(1)
        winner = html.unescape(re.sub(r"<[^>]+>", "", shown))
        assert all(w in winner for w in words), (lang, winner)
        assert re.match(icon("trophy") + " " + words[0], shown.strip()), (lang, shown)  # a trophy, as on the phones


def test_the_view_has_exactly_the_documented_fields(client):
    """docs/rulesets/illuminati.md §5 lists every field of `state.ruleset` and of the objects in it: games through
    the API (the opening, an attack with supports rolled, one called off, a declaration, players put out until one
    wins), seen by the GM, the table and every seat after every step, carry exactly those, none missing and none
    unnamed."""
    views = []
    for sid, tokens, play in documented_games(client):
        views += ruleset_views(client, sid, tokens, play)
    assert undocumented(views, "docs/rulesets/illuminati.md", "## 5. `state.ruleset`") == {}


def test_the_view_is_the_same_for_every_viewer_but_the_callers_own_fields(client):
    """docs/rulesets/illuminati.md §5: `state.ruleset` is the same for the GM, the table and every seat but `me`,
    `revealed_before_placing`, `can` and each `players[].you` (the caller's own entry), after every step of the
    documented games. The page named the first three only, while `players[].you` differs as well."""
    own = ("me", "revealed_before_placing", "can")
    for i, _tokens, ruleset in ruleset_views_by_step(client, documented_games(client)):
        views = {who: {k: v for k, v in view.items() if k not in own} for who, view in ruleset.items()}
        assert [p["seat"] for who, view in views.items() for p in view["players"] if p["you"]] == [
            who for who, view in views.items() if who not in ("gm", "table") and any(
                p["seat"] == who for p in view["players"])]  # a seat's own entry; none for the GM and the table
        for view in views.values():
            view["players"] = [{k: v for k, v in p.items() if k != "you"} for p in view["players"]]
        assert all(view == views["gm"] for view in views.values()), (i, sorted(views))


def test_i2_once_the_groups_are_revealed_the_table_and_console_show_the_clash_before_the_gm_settles_it(app, game):
    """Play-through: アリス and ボブ both revealed CIA, but neither the table nor the console said they clash until the
    GM pressed 公開結果を確定して次へ. Once the placements are revealed (public), both screens name the group that
    settling sets aside and who chooses again, in either language (I-2); never before the reveal."""
    act, answer, sid, tokens = game["act"], game["answer"], game["sid"], game["tokens"]
    act("setup")
    act("opening_start")
    p = placement(game)
    for seat, name in zip(["s1", "s2", "s3", "s4"], ["Bavarian Illuminati", "UFOs", "Bavarian Illuminati", "Network"]):
        answer(p, seat, name)  # Illuminati may be the same (I-2): no clash
    assert game["state"]()["ruleset"]["placement"]["set_aside"] == []
    act("opening_next")
    p = placement(game)
    gm, table = app.test_client(), app.test_client()
    gm.get(f"/s/{sid}/gm?k={tokens['gm']}")
    table.get(f"/s/{sid}/table?k={tokens['table']}")

    def screens(lang):  # the text read, a seat's name whole in its own span (never broken across lines) as in the line
        return {who: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", whole_names(c.get(
                    f"/s/{sid}/{who}?lang={lang}").get_data(as_text=True)))) for who, c in (("gm", gm), ("table", table))}

    for seat, name in zip(["s1", "s2", "s3"], ["CIA", "CIA", "KGB"]):
        answer(p, seat, name)
    r = game["state"]("table")["ruleset"]["placement"]
    assert (r["status"], r["set_aside"], r["again"]) == ("open", [], [])  # secret until revealed
    # the stage says who has placed and (behind 根拠) each answer's commitment, once: the summary's line of open
    # prompts leaves the placement out (it named it a second time)
    seen = next(q for q in game["state"]("table")["prompts"] if q["id"] == p)
    html = table.get(f"/s/{sid}/table").get_data(as_text=True)
    stage = html[html.index('id="il-placement"'):html.index('id="table-summary"')]
    for seat, commitment in seen["commitments"].items():
        assert re.search(rf'data-seat="{seat}">.*?<details class="seal"><summary title="[^"]+"><code class="commitment-short">'
                         rf'{commitment[:12]}</code>…</summary><code class="commitment">{commitment}</code></details>',
                         stage, re.S), seat
    assert len(seen["commitments"]) == 3 and stage.count('<details class="seal">') == 3
    assert f'class="summary-prompt" data-prompt="{p}"' not in html
    assert shown_by_default(html, HASH_TEXT) == [] and "CIA" not in html and "KGB" not in html
    assert not any("重複したグループ" in text for text in screens("ja").values())
    answer(p, "s4", "IRS")  # everyone placed: revealed
    r = game["state"]("table")["ruleset"]["placement"]
    assert (r["status"], r["set_aside"], r["again"]) == ("revealed", ["CIA"], ["s1", "s2"])
    names = dict(zip(["s1", "s2"], SEATS))
    # the console names its button; the table (TV) speaks to the room: it read the GM's button label too
    ja, en = screens("ja"), {who: text.replace("&#39;", "'") for who, text in screens("en").items()}
    assert f"重複したグループ: CIA 「公開結果を確定して次へ」で脇に置かれ、{names['s1']}・{names['s2']} が選び直します" in ja["gm"], ja["gm"][-800:]
    assert (f"Groups chosen twice: CIA set aside by 'Settle the reveal and go on'; {names['s1']}, {names['s2']} choose "
            "again") in en["gm"], en["gm"][-800:]
    assert f"重複したグループ: CIA は脇に置かれ、{names['s1']}・{names['s2']} が別のグループを選び直します" in ja["table"], ja["table"][-800:]
    assert f"Groups chosen twice: CIA set aside; {names['s1']}, {names['s2']} choose another group" in en["table"], en["table"][-800:]
    assert "公開結果を確定" not in ja["table"] and "Settle the reveal" not in en["table"]
    act("opening_next")
    assert game["state"]()["ruleset"]["set_aside"] == ["CIA"]
    assert not any("重複したグループ" in text for text in screens("ja").values())


def test_i2_the_phones_are_told_of_the_clash_and_of_its_settlement(app, game):
    """Play-through: the table and the console showed the clash once the groups were revealed, but every phone kept
    its old screen (the revealed card) before and after the GM settled it: those who keep their group were never told
    why the game waits, nor which group they hold. Each phone now reads the clash once revealed (public), then what
    settling set aside, who chooses again and its own kept group; the new round's placements stay secret (I-2)."""
    act, answer, sid, tokens = game["act"], game["answer"], game["sid"], game["tokens"]
    p = to_group_round(game)
    phones = {}
    for seat in ("s1", "s2", "s3", "s4"):
        phones[seat] = app.test_client()
        phones[seat].get(f"/join/{sid}?k={tokens[seat]}")

    def phone(seat, lang="ja"):
        page = phones[seat].get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", whole_names(page[page.index("<main"):]))).replace("&#39;", "'")

    for seat, name in zip(["s1", "s2", "s3"], ["CIA", "CIA", "KGB"]):
        answer(p, seat, name)
    assert not any("重複したグループ" in phone(s) for s in phones)  # secret until revealed
    answer(p, "s4", "IRS")  # everyone placed: revealed
    for seat in phones:
        assert "重複したグループ: CIA GMが公開結果を確定すると脇に置かれ、アリス・ボブ が選び直します" in phone(seat), seat
        assert ("Groups chosen twice: CIA once the GM settles the reveal it is set aside; アリス, ボブ choose again"
                in phone(seat, "en")), seat
    act("opening_next")
    for seat, kept in (("s3", "KGB"), ("s4", "IRS")):
        for lang, said, mine in (("ja", "公開結果の確定: CIA は脇に置かれ、アリス・ボブ が選び直します", f"あなたの初期グループ: {kept}"),
                                 ("en", "Reveal settled: CIA set aside; アリス, ボブ choose again", f"Your starting group: {kept}")):
            text = phone(seat, lang)
            assert said in text and mine in text and "重複したグループ" not in text, (seat, lang, text[:600])
    assert "「CIA」は他のプレイヤーも選んだため" in phone("s1") and "公開結果の確定" not in phone("s1")  # its own line
    answer(placement(game), "s1", "Hackers")
    assert "公開結果の確定: CIA は脇に置かれ" in phone("s1") and "あなたの初期グループ" not in phone("s1")
    assert not any("Hackers" in phone(s) for s in ("s2", "s3", "s4"))  # the new round's placement stays secret


def test_i2_a_group_round_the_gm_revealed_early_names_those_who_had_not_placed(app, game):
    """Play-through: the GM revealed group round 2 (core's reveal) when only アリス had placed. The log said
    「重複したは脇へ、ボブ・デイヴが選び直し」 (no group was chosen twice) and ボブ's and デイヴ's phones
    「「」は他のプレイヤーも選んだため脇に置かれました」 (an empty name: they had chosen none). The log names those who had not
    placed, as the Illuminati's early reveal does, and their phones say the GM revealed before they placed (I-2)."""
    act, answer, sid, tokens = game["act"], game["answer"], game["sid"], game["tokens"]
    p = to_group_round(game)
    for seat, name in zip(["s1", "s2", "s3", "s4"], ["CIA", "CIA", "KGB", "IRS"]):
        answer(p, seat, name)
    act("opening_next")  # CIA set aside: s1 and s2 choose again
    answer(placement(game), "s1", "Hackers")
    r = game["client"].post(f"/api/sessions/{sid}/prompts/{placement(game)}/reveal", headers=bearer(tokens["gm"]))
    assert r.status_code == 200, r.get_json()
    act("opening_next")  # Hackers kept; s2 had not placed and places again in round 3
    for lang, said in (("ja", "グループ公開 第2回：アリス: Hackers。未配置のボブはもう一度配置（I-2）"),
                       ("en", "Groups revealed, round 2: アリス: Hackers. ボブ had not placed and place again (I-2)")):
        log = game["client"].get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(tokens["table"])).get_json()
        lines = [e["text"] for e in log["events"] if e["type"] == "illuminati.groups_revealed"]
        assert lines[-1] == said, lines
    phone = app.test_client()
    phone.get(f"/join/{sid}?k={tokens['s2']}")
    for lang, said in (("ja", "GMがあなたの配置前に公開しました"), ("en", "The GM revealed the round before you placed")):
        page = phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
        assert said in page and "「」" not in page and "also chose  " not in page, lang


def test_i2_the_illuminati_revealed_early_tell_the_phone_that_had_not_placed_to_place_again(app, game):
    """Play-through: after the GM revealed the Illuminati before デイヴ placed, his phone showed the same empty
    「イルミナティを裏向きに配置」 card again with nothing said, while the others' Illuminati were on the table. It now
    says the GM revealed before it placed (I-2); the phones that placed are not told so."""
    act, answer, sid, tokens = game["act"], game["answer"], game["sid"], game["tokens"]
    act("setup")
    act("opening_start")
    for seat, name in zip(["s1", "s2", "s3"], ["UFOs", "Network", "Discordian Society"]):
        answer(placement(game), seat, name)
    r = game["client"].post(f"/api/sessions/{sid}/prompts/{placement(game)}/reveal", headers=bearer(tokens["gm"]))
    assert r.status_code == 200, r.get_json()
    act("opening_next")  # s4 places again
    for seat, told in (("s4", True), ("s1", False)):
        phone = app.test_client()
        phone.get(f"/join/{sid}?k={tokens[seat]}")
        for lang, said in (("ja", "GMがあなたの配置前に公開しました"), ("en", "The GM revealed the round before you placed")):
            assert (said in phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)) is told, (seat, lang)


def test_i7_the_consoles_out_button_asks_first_naming_the_player(app, game):
    """Play-through: the console's 「ゴールカード2枚で脱落」 asked 「ゴールカード2枚で脱落?」 (no name) through an inline
    `onclick="return confirm(…)"`, which htmx 4 does not heed: dismissing the question still put the player out. The
    button asks through htmx's own hx-confirm, naming the player, in the console's language (I-7)."""
    open_game(game)
    game["act"]("roll_order", {"faces": [6, 6, 1, 1, 2, 2, 3, 3]})
    console = app.test_client()
    console.get(f"/s/{game['sid']}/gm?k={game['tokens']['gm']}")
    for lang, asks in (("ja", "ボブをゴールカード2枚で脱落させますか？（I-7）"), ("en", "Put ボブ out for holding two goal cards (I-7)?")):
        page = console.get(f"/s/{game['sid']}/gm?lang={lang}").get_data(as_text=True)
        button = re.search(r'<button[^>]*&#34;seat&#34;: &#34;s2&#34;, &#34;reason&#34;: &#34;goal_cards&#34;[^>]*>|'
                           r'<button[^>]*"seat": "s2", "reason": "goal_cards"[^>]*>', page)
        assert button and f'hx-confirm="{asks}"' in button.group(0) and "onclick" not in button.group(0), (lang, button)


def test_i7_a_player_out_reads_on_its_phone_that_it_is_out_and_why(app, game):
    """Play-through: an eliminated player's phone showed only 「脱落」 beside its count of groups, never that or why it was
    out. Its phone says so plainly with the reason the rules give (I-7: two goal cards outside its turn, or no group
    left), in its language; no other phone reads it."""
    act, sid, tokens = game["act"], game["sid"], game["tokens"]
    open_game(game)
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    act("eliminate", {"seat": "s2", "reason": "goal_cards"})
    r = game["client"].post(f"/api/sessions/{sid}/counters", headers=bearer(tokens["gm"]),
                            json={"seat": "s3", "key": "groups", "value": 0, "reason": "カード効果"})
    assert r.status_code == 200, r.get_json()
    said = {"s2": {"ja": "あなたは脱落しました。自分のターン以外にゴールカードを2枚持っていたためです",
                   "en": "You are out of the game: you held two goal cards outside your turn"},
            "s3": {"ja": "あなたは脱落しました。支配するグループがなくなったためです",
                   "en": "You are out of the game: you control no group"}}
    for seat in ("s1", "s2", "s3"):
        phone = app.test_client()
        phone.get(f"/join/{sid}?k={tokens[seat]}")
        for lang in ("ja", "en"):
            page = phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
            out = re.search(r'<p class="flag il-out" id="il-out">(.*?)</p>', page, re.S)
            if seat == "s1":
                assert out is None and "あなたは脱落" not in page and "You are out" not in page, (seat, lang)
            else:
                assert out and re.sub(r"<[^>]+>", "", out.group(1)).strip() == said[seat][lang] + " [I-7]", (seat, lang)
                assert shown_by_default(page, RULE_CODE_TEXT) == [], (seat, lang)


def test_i1_a_phone_shows_each_of_its_counters_once(app, game):
    """Play-through at 390x844: once the seat played, an illuminati phone showed its groups and both token counts
    twice, in the panel's line (「1/11 組織（あと 10） · トークン イルミナティ 0 / グループ 0」) and again in core's
    「あなたの席」 card of all seven counters under it, a card as tall as the panel on a page already three screens long.
    The panel now shows the other four too (破壊の山, プロット手札, グループ手札, リソース) and core's card is left out
    (`Ruleset.phone_counters`, as ace_royal's coins and succession's hand); before the regulation it still shows."""
    sid, browser = game["sid"], app.test_client()
    browser.get(f"/join/{sid}?k={game['tokens']['s1']}")

    def own(lang="ja"):
        """The phone's own part (before the others' counters)."""
        return browser.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True).split('<div class="other">', 1)[0]

    assert own().count('class="card mine-card"') == 1 and 'id="il-my-counts"' not in own()  # before the regulation
    open_game(game)
    game["client"].post(f"/api/sessions/{sid}/counters", headers=bearer(game["tokens"]["gm"]),
                        json={"seat": "s1", "key": "resources", "delta": 2, "reason": "テスト"})
    for lang, labels in (("ja", ("破壊の山", "プロット手札", "グループ手札", "リソース")),
                         ("en", ("Destroyed", "Plot hand", "Group hand", "Resources"))):
        page = own(lang)
        assert page.count('class="card mine-card"') == 0, lang
        counts = re.search(r'id="il-my-counts">(.*?)</p>', page, re.S).group(1)
        assert re.findall(r'data-key="(\w+)">(\d+)<', counts) == [
            ("destroyed", "0"), ("plot_hand", "3"), ("group_hand", "6"), ("resources", "2")], lang
        assert all(label in counts for label in labels), (lang, counts)
        assert page.count('class="il-my-groups"') == 1, lang  # the groups and tokens once, in the line above


def test_i1_the_groups_still_needed_read_as_english(app, game):
    """Play-through in English: the table's standings and a phone said a player's groups against the goal as
    「1/11 missing 10」 (as if ten groups were lost), and the table's heading 「Goal 11 groups · round 1」 with a small r
    among capitals. They read 「10 more needed」, as the refusal of an early victory says it, and 「Round 1」; the
    Japanese 「あと 10」 and 「1巡目」 are as before. The TV's toggle read "Rules" in English: "Rule refs"."""
    sid = game["sid"]
    open_game(game)
    game["act"]("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})
    table, phone = app.test_client(), app.test_client()
    table.get(f"/s/{sid}/table?k={game['tokens']['table']}")
    phone.get(f"/join/{sid}?k={game['tokens']['s1']}")
    pages = {lang: (table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True),
                    phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True).split('<div class="other">', 1)[0])
             for lang in ("ja", "en")}
    for page in pages["en"]:
        assert "10 more needed" in page and "missing" not in page
    assert " · Round 1" in pages["en"][0] and " · round 1" not in pages["en"][0]  # (a placement's title: 「…, round 1」)
    # the TV's 根拠 toggle shows rule codes (and breakdowns, commitments): in English "Rule refs", not "Rules", which
    # read as a link to the game's rules
    toggle = {lang: re.search(r'<button[^>]*id="rules-toggle"[^>]*>([^<]*)</button>', page).group(1)
              for lang, (page, _) in pages.items()}
    assert toggle == {"ja": "根拠", "en": "Rule refs"}, toggle
    for page in pages["ja"]:
        assert "あと 10" in page
    assert "1巡目" in pages["ja"][0]


def test_i7_the_attack_that_wins_the_game_stays_on_the_stage_under_the_winner(app, game):
    """As ace_royal's last combat (found playing it at 1920x1080): an attack that left the last rival with no group won
    the game (I-1, I-7), and the table's stage showed only 「勝者: アリス」; the roll, the verdict and the breakdown that
    decided the game were gone at once. They stay under the winner, with the player who went out (the game's end is
    the winner's line, not said again)."""
    act, sid = game["act"], game["sid"]
    open_game(game)  # s1 CIA, s2 KGB, s3 IRS, s4 Yuppies
    act("roll_order", {"faces": [6, 6, 5, 5, 4, 4, 3, 3]})  # s1, s2, s3, s4
    for seat in ("s3", "s4"):
        act("eliminate", {"seat": seat, "reason": "no_groups"})
    act("start_turn", who="s1")
    act("attack", {"purpose": "destroy", "attacker": {"kind": "group", "name": "CIA", "power": 6},
                   "target": {"name": "KGB", "owner": "s2", "power": 0}}, who="s1")
    assert act("roll_attack", {"faces": [1, 1]}, who="s1")["ruleset"]["winner"]["seat"] == "s1"
    table = app.test_client()
    table.get(f"/s/{sid}/table?k={game['tokens']['table']}")
    for lang, words in (("ja", ("勝者", "直前の攻撃", "KGB", "2d6 = 1 + 1 = 2")),
                        ("en", ("Winner", "Last attack", "KGB", "2d6 = 1 + 1 = 2"))):
        html = table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        stage = html[html.index('id="stage"'):html.index('id="table-summary"')]
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", whole_names(stage)))
        assert 'id="il-stage-winner"' in stage and 'id="il-last-attack"' in stage, (lang, text)
        assert all(w in text for w in words), (lang, text)
        assert stage.count('class="il-stage-flag flag"') == 1, (lang, text)  # ボブ out; the win is the line above
