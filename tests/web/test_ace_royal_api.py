"""Fate/Ace Royal (A) through the JSON API: a whole game driven by a script, as docs/rulesets/ace_royal.md shows."""

from __future__ import annotations

import json
import re

import pytest
from gmtool_testing import (ADMIN_KEY, ROOT, RULE_CODE_TEXT, assert_undo_as_documented, bearer, documented_fields,
                            games_to_play, open_link, ruleset_views, ruleset_views_by_step, shown_by_default, undocumented)

from gmtool.web.common import csrf_for

SERVANTS = {
    "s1": {"hero": {"name": "アルトリア", "stats": "6/5/3/3", "skills": ["直感"]},
           "class": {"name": "セイバー", "stats": "3/3/1/5"}},
    "s2": {"hero": {"name": "イスカンダル", "stats": "5/3/5/3", "skills": ["カリスマ"]},
           "class": {"name": "ライダー", "stats": "2/2/2/2"}},
    "s3": {"hero": {"name": "佐々木小次郎", "stats": "5/2/1/1", "skills": ["山門の守護", "見切り"]},
           "class": {"name": "アサシン", "stats": "1/1/0/0"}},
}


@pytest.fixture
def game(client):
    """An ace_royal session with three seats."""
    return new_game(client)


def new_game(client):
    """An ace_royal session with three seats: {sid, act, state, tokens, client}."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "エースロイヤル", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー", "キャスター陣営"]})
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
        response = client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens[who]))
        assert response.status_code == 200
        return response.get_json()

    return {"sid": sid, "act": act, "state": state, "tokens": tokens, "client": client}


def set_up_game(act, version: str = "standard"):
    """A game of `version` with s1 first (entered from real dice) and every seat's servant (SERVANTS) set."""
    act("setup", {"version": version})
    act("roll_first", {"faces": [6, 3, 2]})  # s1 starts, entered from real dice
    for seat, servant in SERVANTS.items():
        act("set_servant", servant, who=seat)


def test_the_game_in_play_refuses_before_the_start_ahead_of_its_fields(game):
    """ace_royal.md §2: before `start_game` the actions of the game in play answer 409 'The game has not started yet'
    before reading their fields: an unknown counter, a phone's 魔力 and a zero change to `adjust`, an unknown state,
    an unknown seal effect (not the quick version's first-master die) — not their rows' 404 / 403 / 400. Before
    `setup` they answer the 'not set up' 409 (the page said 'not started' for both), and `use_seal` between the setup
    and the start says what a seal may do then, word for word as the page gives them. That `use_seal` reads each
    effect's number first, as the page says: a number outside 1–5 is its 400 (it was the 409), in either form and
    among valid ones."""
    act, state = game["act"], game["state"]
    refused = (("adjust", {"key": "zz", "delta": 1}, "s1"), ("adjust", {"key": "mana", "delta": -1}, "s1"),
               ("adjust", {"seat": "s1", "key": "hand", "delta": 0}, "gm"), ("set_state", {"state": "zz"}, "s1"),
               ("use_seal", {"effect": 1}, "s1"), ("combat_modifier", {"side": "zz"}, "s1"), ("place_code", {}, "s1"),
               ("step", {}, "gm"))
    unknown = ("令呪の効果は1〜5です", "Seal effects are 1 to 5")
    before_setup = ("まだ準備をしていません（GMが「準備」で始めます）",
                    "The game is not set up yet (the GM sets it up with the 'Setup' button)")
    not_started = ("ゲームはまだ始まっていません", "The game has not started yet")
    seal = ("ゲームはまだ始まっていません（開幕前の令呪は、クイック版の効果2で最初のアクティブマスター決定のダイスを振り直すことだけです）",
            "The game has not started yet (before the start, a Command Seal only re-rolls the first-active-master die: "
            "the quick version's effect 2)")
    page = (ROOT / "docs/rulesets/ace_royal.md").read_text(encoding="utf-8").replace("\n", " ")  # (as it renders)
    for words in (*before_setup, *not_started, *seal, *unknown):
        assert f"`{words}`" in page or f"「{words}」" in page, words
    for setup in (False, True):
        if setup:
            set_up_game(act)
        version = state()["session"]["version"]
        for name, payload, who in refused:
            error = act(name, payload, who=who, status=409)["error"]
            expected = before_setup if not setup else seal if name == "use_seal" else not_started
            assert (error["ja"], error["en"]) == expected, (name, error)
        if setup:
            for payload in ({"effect": 9}, {"effects": [{"effect": 9}]}, {"effects": [1, {"effect": 0}]}):
                error = act("use_seal", payload, who="s1", status=400)["error"]
                assert (error["ja"], error["en"]) == unknown, (payload, error)
        assert state()["session"]["version"] == version

def test_bad_input_is_a_4xx_and_changes_nothing(game):
    act, state = game["act"], game["state"]
    act("roll_first", status=409)  # not set up
    act("setup", {"version": "turbo"}, status=400)
    act("setup", who="s1", status=403)
    act("nope", status=404)
    set_up_game(act)
    version = state()["session"]["version"]
    act("set_servant", {"hero": {"name": "x", "stats": "1/2/3"}, "class": {"name": "y", "stats": "1/1/1/1"}},
        who="s1", status=400)
    act("set_servant", {**SERVANTS["s1"], "seat": "s2"}, who="s1", status=403)
    act("step", who="s1", status=409)  # not started
    act("roll_first", {"faces": [1, 2, 3]}, status=409)
    assert state()["session"]["version"] == version
    act("start_game")
    act("step", who="s2", status=409)  # not s2's turn
    act("reveal", {"what": "hero"}, who="s1", status=409)  # rise step
    act("use_seal", {"effect": "x"}, who="s1", status=400)
    act("adjust", {"key": "mana", "delta": 1}, who="s1", status=403)
    act("combat_choose", {"kind": "physical"}, who="s1", status=409)
    act("encounter_roll", {"faces": [1]}, who="s1", status=409)
    act("step", {"faces": [9]}, who="s1", status=400)  # faces no die used
    assert state()["session"]["version"] > version


def test_a_whole_game_through_the_api(game):
    act, state, client, sid, tokens = game["act"], game["state"], game["client"], game["sid"], game["tokens"]
    set_up_game(act)
    # The servants are secret: the table and the other phones see nothing of them.
    table = state("table")
    assert all(p["hero"] is None for p in table["ruleset"]["players"])
    assert "イスカンダル" not in str(table) and "イスカンダル" not in str(state("s1"))
    assert state("s2")["ruleset"]["me"]["stats"] == [7, 5, 7, 5]
    log = client.get(f"/api/sessions/{sid}/log", headers=bearer(tokens["table"]))
    assert log.status_code == 200 and "イスカンダル" not in log.get_data(as_text=True)
    act("start_game")
    r = state("table")["ruleset"]
    assert (r["current"], r["active"], r["step"]) == ("s1", "s1", "rise")

    # s1: rise, draw, reveal both (draw 4), encounter roll 4: nothing.
    act("step", who="s1")
    act("step", who="s1")
    out = act("reveal", {"what": "both"}, who="s1")
    assert out["ruleset"]["me"]["hand"] == 4 + 1 + 4
    act("step", who="s1")
    act("encounter_roll", {"faces": [4]}, who="s1")
    act("step", who="s1")  # end: discard to 4
    assert state()["ruleset"]["players"][0]["hand"] == 4

    # s2 attacks s1 with 王の軍勢 (カリスマ + 軍団: 11/10/11/6).
    act("step", who="s2")
    act("step", who="s2")
    act("declare_attack", {"target": "s1"}, who="s2")
    act("combat_proxy", {"name": "王の軍勢", "stats": "7/8/7/4", "legion": True, "source": "hero"}, who="s2")
    # a side's cards are its own to play: the interceptor cannot add to, or clear, the attacker's (docs: 403)
    version = state()["session"]["version"]
    for name, body in (("combat_modifier", {"side": "attacker", "stat": "patk", "value": -2, "label": "妨害"}),
                       ("combat_proxy", {"side": "attacker", "clear": True})):
        refused = act(name, body, who="s1", status=403)["error"]
        assert refused["en"] == "You cannot act for the other side", (name, refused)
    assert state()["session"]["version"] == version
    act("combat_choose", {"kind": "magical"}, who="s2")
    act("combat_choose", {"kind": "physical"}, who="s1")
    # the picks' log lines: the attacker's is its attack, the interceptor's its counter-attack (A-7); English read
    # "Interceptor 凛: attacks physical"
    for lang, picks in (("ja", ["襲撃側 ウェイバー: 魔術で攻撃", "迎撃側 凛: 物理で迎撃（襲撃側ダメージ判定: 魔術 11 対 防御 8 ⇒ 3ダメージ、A-7）"]),
                        ("en", ["Attacker ウェイバー picks a magical attack", "Interceptor 凛 picks a physical counter-attack "
                                "(attacker's damage judgement: magical 11 vs defence 8 ⇒ 3 damage, A-7)"])):
        texts = [e["text"] for e in client.get(f"/api/sessions/{sid}/log?lang={lang}",
                                                 headers=bearer(tokens["table"])).get_json()["events"]]
        assert texts[-2:] == picks, texts[-2:]
    view = state("table")["ruleset"]
    assert view["combat"]["preview"]["attacker"]["stats"] == [11, 10, 11, 6]
    assert view["players"][1]["hero"]["name"] == "イスカンダル"  # disclosed
    # A-9: whether the hero proxy's hand holds a mystic code is s2's (or the GM's) to say: s1 resolving cannot answer
    # it (it could turn s2's discard into Danger); a 403 that writes nothing
    version = state()["session"]["version"]
    refused = act("combat_resolve", {"attacker_hand_code": False}, who="s1", status=403)["error"]
    assert (refused["ja"], refused["en"]) == ("相手側の手札に礼装があるかは、相手かGMが答えます（A-9）",
                                              "Whether the other side's hand holds a mystic code is for that side or "
                                              "the GM to say (A-9)")
    assert state()["session"]["version"] == version
    # 11 vs s1's magical defence 8 → 3; s1 physical 9 vs the proxy's 10 → 0: s2 steals (entered face 2)
    act("combat_resolve", {"faces": [2]}, who="s2")
    view = state("table")["ruleset"]
    s1 = view["players"][0]
    assert (s1["mana"], s1["state"], s1["hand"]) == (2, "down", 3)
    assert view["step"] == "end" and view["newest"]["type"] == "ace_royal.stolen"
    assert "奪う" in view["newest"]["text"]["ja"] and "steals" in view["newest"]["text"]["en"]
    act("step", who="s2")

    # s3 (山門の守護) cannot attack; reveals the class, encounter on a 1, the roles flip.
    act("step", who="s3")
    act("step", who="s3")
    act("declare_attack", {"target": "s1"}, who="s3", status=409)
    act("reveal", {"what": "class"}, who="s3")
    act("step", who="s3")
    # A real-dice 1 alone: the die still to enter is the one that picks the opponent, and the refusal says so, with
    # each number's player (play-through a16_phone2_enc: 「2個目のd6」 only); nothing is written.
    version = state()["session"]["version"]
    for faces, die in (([1], 2), ([1, 5], 3)):
        refused = act("encounter_roll", {"faces": faces}, who="s3", status=400)["error"]
        assert refused["ja"] == f"遭遇戦です: 相手を決めるd6の出目も入力してください（{die}個目: 1=凛、2=ウェイバー、3〜6は振り直し） [A-6]"
        assert refused["en"] == (f"An encounter: enter the d6 that picks the opponent too "
                                 f"(die {die}: 1 = 凛, 2 = ウェイバー; 3 to 6: roll again) [A-6]")
    assert state()["session"]["version"] == version
    act("encounter_roll", {"faces": [1, 5, 2]}, who="s3")  # others s1, s2: 5 re-rolled, 2 = s2
    c = state("table")["ruleset"]["combat"]
    assert (c["attacker"], c["interceptor"], c["flipped"]) == ("s2", "s3", True)
    act("combat_choose", {"side": "attacker", "kind": "physical"})
    act("combat_modifier", {"side": "interceptor", "stat": "pdef", "value": 3, "label": "燕返し"})
    act("combat_choose", {"side": "interceptor", "kind": "physical"})  # ends the attack process
    # s2 7 vs s3 3+3=6 → 1; s3 6 vs s2 5 → 1
    act("combat_resolve")
    view = state("table")["ruleset"]
    assert [p["mana"] for p in view["players"]] == [2, 4, 4]
    act("step", who="s3")
    # the first full round is over: the active-master coin passes to s2, who loses 1 魔力
    view = state("table")["ruleset"]
    assert view["active"] == "s2" and view["players"][1]["mana"] == 3 and view["round"] == 2

    # s1 is Down: the rise step raises it; a seal recovers 魔力; then the GM places assassination coins.
    act("step", who="s1")
    assert state()["ruleset"]["players"][0]["state"] == "rise"
    act("use_seal", {"effects": [{"effect": 1}, {"effect": 1}]}, who="s1")
    assert state()["ruleset"]["players"][0]["mana"] == 4
    out = act("adjust", {"seat": "s1", "key": "assassin", "delta": 5, "reason": "暗殺者の刃"})
    assert next(p for p in out["ruleset"]["players"] if p["seat"] == "s1")["out"] == "assassin"
    r = state()["ruleset"]
    assert r["current"] == "s2" and r["step"] == "rise"

    # the GM can undo the elimination, then redo it by hand
    client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"]))
    assert state()["ruleset"]["players"][0]["out"] is None
    act("adjust", {"seat": "s1", "key": "mana", "delta": -4})
    act("adjust", {"seat": "s3", "key": "mana", "delta": -4})
    r = state("table")["ruleset"]
    assert r["over"] and r["winner"] == "s2"
    log = client.get(f"/api/sessions/{sid}/log?lang=en", headers=bearer(tokens["table"])).get_data(as_text=True)
    assert "イスカンダル" in log  # revealed by now
    # Every English line begins as a sentence does: "Interceptor 佐々木小次郎: …", not "interceptor …" (the phone's
    # newest line is the log's newest).
    lines = [e["text"] for e in client.get(f"/api/sessions/{sid}/log?lang=en&limit=1000",
                                           headers=bearer(tokens["gm"])).get_json()["events"]]
    assert any(line.startswith("Interceptor ") for line in lines) and any(line.startswith("Attacker ") for line in lines)
    assert [line for line in lines if line[:1].isascii() and line[:1].islower()] == []

    readings = {x["key"]: x for x in state()["readings"]}
    assert readings["first_ties"]["rule"] == "A-5" and readings["master_pass"]["value"] == "round"


def test_readings_switch_through_core(game):
    act, state, client, sid, tokens = game["act"], game["state"], game["client"], game["sid"], game["tokens"]
    r = client.post(f"/api/sessions/{sid}/readings", headers=bearer(tokens["gm"]), json={"key": "first_ties", "value": "seat_order"})
    assert r.status_code == 200, r.get_json()
    r = client.post(f"/api/sessions/{sid}/readings", headers=bearer(tokens["gm"]), json={"key": "first_ties", "value": "coin"})
    assert r.status_code == 400
    act("setup")
    act("roll_first", {"faces": [4, 4, 1]})  # a tie, broken by the seating order: no re-roll
    assert state("table")["ruleset"]["first"] == "s1"


def test_a2_a10_counters_set_on_the_core_panel_apply_the_checks_at_once(game):
    """Core's generic counter panel (POST /counters) runs ace_royal's automatic checks in the same action."""
    act, state, client, sid, tokens = game["act"], game["state"], game["client"], game["sid"], game["tokens"]
    set_up_game(act)
    act("start_game")
    r = client.post(f"/api/sessions/{sid}/counters", headers=bearer(tokens["gm"]),
                    json={"seat": "s2", "key": "mana", "value": 0, "reason": "カード効果"})
    assert r.status_code == 200, r.get_json()
    view = state("table")["ruleset"]
    assert view["players"][1]["out"] == "mana" and view["newest"]["type"] == "ace_royal.out"
    r = client.post(f"/api/sessions/{sid}/counters", headers=bearer(tokens["gm"]),
                    json={"seat": "s3", "key": "depletion", "delta": 5})
    assert r.status_code == 200
    view = state("table")["ruleset"]
    assert view["players"][2]["out"] == "depletion" and view["over"] and view["winner"] == "s1"
    # one action: the GM's undo takes the elimination back with the counter
    assert client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"])).status_code == 200
    view = state("table")["ruleset"]
    assert not view["players"][2]["out"] and not view["over"] and view["players"][2]["depletion"] == 0


def test_an_out_player_looks_out_whatever_its_servants_last_state(app, game):
    """A-2: a player at 0 魔力 is out; the table and its phone mark it as out (ar-state-out), not with the colour
    of the servant's last state (Rise green, Down orange)."""
    act, sid, tokens = game["act"], game["sid"], game["tokens"]
    set_up_game(act)
    act("start_game")
    act("step", who="s1")
    act("step", who="s1")
    act("reveal", {"what": "both"}, who="s1")
    assert game["state"]()["ruleset"]["players"][0]["state"] == "rise"
    act("adjust", {"seat": "s1", "key": "mana", "delta": -5})
    assert game["state"]()["ruleset"]["players"][0]["out"]
    table = open_link(app, f"/s/{sid}/table?k={tokens['table']}").get(f"/s/{sid}/table").get_data(as_text=True)
    player = re.search(r'<div class="ar-player ar-out[^"]*" data-seat="s1">.*?</div>', table, re.S).group(0)
    assert 'class="ar-state ar-state-out"' in player and "ar-state-rise" not in player, player
    phone = open_link(app, f"/join/{sid}?k={tokens['s1']}").get(f"/s/{sid}/phone").get_data(as_text=True)
    assert 'class="ar-state ar-state-out"' in phone and "ar-state-rise" not in phone


def _end_turn(act, seat):
    """The seat plays rise → draw → ritual → end step and ends its turn (no placement, reveal or attack)."""
    for _ in range(4):
        act("step", who=seat)


@pytest.mark.parametrize("s2_mana,winner", [(5, None), (1, "s1")])
def test_a5_the_round_ends_when_its_last_player_goes_out_on_their_turn(game, s2_mana, winner):
    """A-5: the round's last player (s3) went out on their own turn; play came back to the opener s1, but in the
    same round: s1 played twice in round 1 and the active-master coin passed a turn late. Now the round ends there
    and the coin passes (s2 loses 1 魔力; at 1 魔力 that puts s2 out too, and s1 wins, A-2, A-7). A game that ends so
    ended in round 1, the round of s3's turn: the table read 「第2巡」 / "Round 2" at its end."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    act("start_game")
    if s2_mana != 5:
        act("adjust", {"seat": "s2", "key": "mana", "delta": s2_mana - 5})
    _end_turn(act, "s1")
    _end_turn(act, "s2")
    act("adjust", {"seat": "s3", "key": "mana", "delta": -5, "reason": "カード効果"})
    r = state("table")["ruleset"]
    assert r["players"][2]["out"] == "mana"
    assert (r["current"], r["round"], r["step"], r["active"]) == ("s1", 2 if winner is None else 1, "rise", "s2")
    assert r["players"][1]["mana"] == s2_mana - 1
    assert r["players"][1]["out"] == (None if s2_mana > 1 else "mana")
    assert r["over"] is (winner is not None) and r["winner"] == winner
    if winner:
        table = game["client"].application.test_client()
        table.get(f"/s/{game['sid']}/table?k={game['tokens']['table']}")
        for lang, said, not_said in (("ja", "第1巡", "第2巡"), ("en", "Round 1", "Round 2")):
            html = table.get(f"/s/{game['sid']}/table?lang={lang}", headers={"HX-Request": "true"}).get_data(as_text=True)
            head = re.search(r'<p class="ar-head">.*?</p>', html, re.S).group(0)
            assert said in head and not_said not in html, head
            # the game ended without a combat (the coin's pass took ウェイバー's last 魔力): the stage and the phones say
            # why under the winner, who went out and why (they showed only the winner and 「聖杯戦争終結: 勝者 凛」)
            stage = html[html.index('id="stage"'):html.index('id="table-summary"')]
            phone = open_link(game["client"].application, f"/join/{game['sid']}?k={game['tokens']['s3']}").get(
                f"/s/{game['sid']}/phone?lang={lang}").get_data(as_text=True)
            phone = phone[phone.index('id="ace-royal-phone"'):]
            out = {"ja": "ウェイバー が脱落: 魔力コインが0", "en": "ウェイバー is out: no mana coins left"}[lang]
            for shown in (stage, phone[:phone.index('class="ar-mine"')]):
                shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown))
                assert out in shown and ("聖杯戦争終結" if lang == "ja" else "Holy Grail War is over") not in shown, shown


def test_a9_a_proxy_from_a_mystic_code_needs_one_on_the_field(game):
    """A-9: damage to a proxy from a mystic code discards that code instead of 魔力; with no code on the field the
    proxy was accepted and 8 damage cost nothing at all. Now 409 and nothing written; with a code it pays."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    start_and_attack_s2(act)
    proxy = {"name": "使い魔", "stats": "1/1/1/1", "source": "code"}
    version = state()["session"]["version"]
    refused = act("combat_proxy", proxy, who="s2", status=409)
    assert "礼装" in refused["error"]["ja"] and "mystic code" in refused["error"]["en"]
    assert state()["session"]["version"] == version and state()["ruleset"]["combat"]["interceptor_side"]["proxy"] is None
    act("adjust", {"seat": "s2", "key": "codes", "delta": 1, "reason": "礼装"})
    act("combat_proxy", proxy, who="s2")
    act("combat_choose", {"kind": "physical"}, who="s1")
    act("combat_choose", {"kind": "physical"}, who="s2")
    act("combat_resolve", {"faces": [1]})  # 9 vs the proxy's 1 → 8; back 1 vs 8 → 0: s1 steals
    s2 = state()["ruleset"]["players"][1]
    assert (s2["mana"], s2["codes"], s2["hand"]) == (5, 0, 3)


def test_a1_the_servant_is_fixed_once_the_game_has_started(game):
    """A-1: a phone could replace its hidden servant in the middle of the game (99/99/99/99 before its first combat);
    the cards are set on the servant's seat at the start: 409, and nothing changes."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    act("start_game")
    version = state()["session"]["version"]
    strong = {"hero": {"name": "X", "stats": "99/99/99/99"}, "class": {"name": "Y", "stats": "9/9/9/9"}}
    for who in ("s2", "gm"):
        refused = act("set_servant", {**strong, "seat": "s2"}, who=who, status=409)
        assert "始まって" in refused["error"]["ja"] and "started" in refused["error"]["en"]
    assert state()["session"]["version"] == version and state("s2")["ruleset"]["me"]["stats"] == [7, 5, 7, 5]


def start_and_attack_s2(act):
    """The game started: s1, the first player, steps to its battle and attacks s2."""
    act("start_game")
    act("step", who="s1")
    act("step", who="s1")
    act("declare_attack", {"target": "s2"}, who="s1")


def first_strike_attack(act, version, others):
    """A game of `version`: s1's Lancer with 先制 (8 physical) attacks s2; s2 and s3 play the servant `others`."""
    act("setup", {"version": version})
    act("roll_first", {"faces": [6, 3, 2]})
    act("set_servant", {"hero": {"name": "クー・フーリン", "stats": "5/3/2/2", "skills": ["先制"]},
                        "class": {"name": "ランサー", "stats": "3/2/1/1"}}, who="s1")
    for seat in ("s2", "s3"):
        act("set_servant", others, who=seat)
    start_and_attack_s2(act)


def test_a7_last_combat_carries_the_strike_when_first_strike_skipped_the_interception(game):
    """A-7: `last_combat.strike` (docs §4) was missing when 先制 dealt damage and the interceptor never picked."""
    act, state = game["act"], game["state"]
    first_strike_attack(act, "standard", SERVANTS["s1"])
    act("combat_choose", {"kind": "physical"}, who="s1")  # 8 vs 8: a tie deals 1, and 先制 skips the interception
    act("combat_choose", {"kind": "physical"}, who="s2", status=409)
    last = act("combat_resolve", {"faces": [3]}, who="s1")["ruleset"]["last_combat"]
    assert last["strike"] == {"kind": "physical", "atk": 8, "def": 8, "damage": 1, "skipped": True}
    assert last["result"]["result"]["intercept"] is None and last["result"]["result"]["to_interceptor"] == 1
    assert [p["mana"] for p in state()["ruleset"]["players"]] == [5, 4, 5]


def test_a7_after_the_gm_undid_a_combat_result_the_stage_shows_the_combat_as_it_stands(game):
    """Review (undo, every ruleset's stage): after the GM undid a combat's result, the table's stage must not show the
    undone result under the undo's line. It shows the combat open again (the picks and the damage judgement), and after
    an undone step that followed a result, that result, each under the line that says what was taken back."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    table = client.application.test_client()
    table.get(f"/s/{sid}/table?k={tokens['table']}")

    def stage():
        html = table.get(f"/s/{sid}/table").get_data(as_text=True)
        shown = html[html.index('id="stage"'):html.index('id="table-summary"')]
        undone = re.search(r'<p class="stage-undone" id="stage-undone">(.*?)</p>', shown, re.S)
        return (re.sub(r"<[^>]+>", "", undone.group(1)) if undone else None,
                re.sub(r'<p class="stage-undone".*?</p>', "", shown, flags=re.S))

    def undo():
        assert client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"])).status_code == 200

    set_up_game(act)
    start_and_attack_s2(act)
    act("combat_choose", {"kind": "physical"}, who="s1")
    act("combat_choose", {"kind": "magical"}, who="s2")
    act("combat_resolve", {"faces": [1]}, who="s1")  # 9 vs 5 → 4; 7 vs 8 → 0: s1 steals card 1
    line, shown = stage()
    assert line is None and "ar-stage-combat-result" in shown and 'id="ar-combat"' not in shown
    undo()
    line, shown = stage()
    assert line.startswith("取り消し: 戦闘結果"), line
    # what was taken back reads in words on the TV and on the attacker's phone: the rule codes inside a parenthesis
    # that says more (「（1d4、A-7）」) wait for 根拠 as the others do; the 1d4 stays
    banner = re.search(r'<p class="stage-undone".*?</p>', table.get(f"/s/{sid}/table").get_data(as_text=True), re.S)
    assert "（1d4" in banner.group(0) and shown_by_default(banner.group(0), RULE_CODE_TEXT) == [], banner.group(0)
    phone = client.application.test_client()
    phone.get(f"/join/{sid}?k={tokens['s1']}")
    notice = re.search(r'<p class="undo-notice">.*?</p>', phone.get(f"/s/{sid}/phone").get_data(as_text=True), re.S)
    assert "GMが取り消しました: 戦闘結果" in notice.group(0), notice
    assert shown_by_default(notice.group(0), RULE_CODE_TEXT) == [] and 'class="rule"' in notice.group(0), notice.group(0)
    assert 'id="ar-combat"' in shown and "ar-stage-combat-result" not in shown and "奪う" not in shown, shown
    act("combat_resolve", {"faces": [1]}, who="s1")
    act("step", who="s1")  # to the next player's turn: the result leaves the stage
    assert "ar-stage-combat-result" not in stage()[1]
    undo()
    line, shown = stage()
    assert line.startswith("取り消し: ") and "ar-stage-combat-result" in shown and 'id="ar-combat"' not in shown, shown
    # Review (attack): the GM undoes the result, the picks and the attack itself, which had turned both servants face
    # up: their cards are secret again, on the table's screen and in every log but their own seat's and the GM's (the
    # undo's line read 「取り消し: … 英霊 アルトリア 6/5/3/3 …」 and the undone reveals and picks kept their cards)
    for _ in range(4):
        undo()
    log = {who: client.get(f"/api/sessions/{sid}/log?limit=1000", headers=bearer(tokens[who])).get_data(as_text=True)
           for who in ("gm", "table", "s1", "s2", "s3")}
    assert any(e["type"] == "ace_royal.revealed" and e["undone"] for e in json.loads(log["gm"])["events"])
    seen = {**log, "table page": table.get(f"/s/{sid}/table").get_data(as_text=True)}
    for seat in ("s1", "s2"):
        card = SERVANTS[seat]["hero"]["name"]
        assert [who for who, text in seen.items() if card in text] == ["gm", seat], (card, line)
    assert "6/5/3/3" not in seen["table page"] and "取り消し" in stage()[0]
    # ... and the earlier undos' lines no longer read the combat's numbers (their summaries, made while the cards were
    # face up, read 「取り消し: 戦闘結果: 襲撃 物理 9 対 防御 5 …」 on the TV and in every log; the GM's keep them)
    seen.update({f"{who} en": client.get(f"/api/sessions/{sid}/log?limit=1000&lang=en", headers=bearer(tokens[who]))
                 .get_data(as_text=True) for who in ("gm", "table", "s1", "s2", "s3")})
    for numbers in ("9 対 防御 5", "physical 9 vs defence 5"):
        assert [who for who, text in seen.items() if numbers in text] == ["gm", "gm en"], numbers
    # the console hiding secrets (「回答を公開まで隠す」: its laptop is in the players' sight) reads the undone reveals as
    # the table does, and the attacked seat's phone still reads its own cards' undo
    console = client.application.test_client()
    console.get(f"/s/{sid}/gm?k={tokens['gm']}")
    assert console.post(f"/s/{sid}/gm/settings", data={"key": "hide_answers", "value": "on"},
                        headers={"X-CSRF-Token": csrf_for(tokens["gm"]), "HX-Request": "true"}).status_code == 200
    assert "アルトリア" not in console.get(f"/s/{sid}/gm").get_data(as_text=True)
    own = [e for e in json.loads(log["s2"])["events"] if e["type"] == "ace_royal.revealed" and e["data"]["seat"] == "s2"]
    assert own and all(e["undone"] and "cards" in e["data"] for e in own), own


def test_a2_a_side_out_before_the_result_ends_the_combat(game):
    """A-2/A-7: the interceptor used its last seals in the attack process and went out, but the combat went on
    against a servant that was out (its phone could still pick, the attacker could still hurt and rob it). Now the
    combat ends there and the turn player goes on at the end step."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    start_and_attack_s2(act)
    act("combat_choose", {"kind": "physical"}, who="s1")
    act("use_seal", {"effects": [{"effect": 4, "text": "宝具"}] * 3}, who="s2")
    r = state("table")["ruleset"]
    assert r["players"][1]["out"] == "seals" and r["combat"] is None
    assert (r["current"], r["step"]) == ("s1", "end") and r["players"][1]["mana"] == 5
    assert "戦闘は終わる" in r["newest"]["plain"]["ja"] and "the combat ends" in r["newest"]["plain"]["en"]
    act("combat_choose", {"kind": "physical"}, who="s2", status=409)
    act("step", who="s1")
    assert state()["ruleset"]["current"] == "s3"


def test_a8_quick_dice_count_in_the_attackers_damage_judgement(game):
    """A-8: in the quick version the interceptor could pick before the dice were rolled, which fixed the attacker's
    damage judgement without them (the attacker's own die never touched its attack). Now the pick waits for both
    dice (409), `ready` says so, and the judgement carries them."""
    act, state = game["act"], game["state"]
    set_up_game(act, "quick")
    start_and_attack_s2(act)
    act("combat_choose", {"kind": "magical"}, who="s1")
    act("combat_roll", {"faces": [6]}, who="s1")
    refused = act("combat_choose", {"kind": "magical"}, who="s2", status=409)
    assert "A-8" in refused["error"]["ja"] and "combat die" in refused["error"]["en"]
    assert state()["ruleset"]["combat"]["ready"] is False
    act("combat_roll", {"faces": [2]}, who="s2")
    act("combat_choose", {"kind": "magical"}, who="s2")
    r = state()["ruleset"]
    assert r["combat"]["strike"] == {"kind": "magical", "atk": 10, "def": 7, "damage": 3, "skipped": False}
    assert r["combat"]["ready"] is True
    act("combat_resolve", {"faces": [4]})  # s1 4+6 vs s2 5+2 → 3; s2 7+2 vs s1 8+6 → 0: s1 steals
    assert [p["mana"] for p in state()["ruleset"]["players"]] == [8, 5, 8]


def test_a8_ready_waits_for_the_quick_dice(game):
    """`combat.ready` (docs §4: combat_resolve would be accepted) said true in a quick 先制 combat before the dice
    were rolled, and combat_resolve then answered 409."""
    act, state = game["act"], game["state"]
    first_strike_attack(act, "quick", SERVANTS["s2"])
    act("combat_choose", {"kind": "physical"}, who="s1")  # 8 vs 5: 先制 skips the interception
    assert state()["ruleset"]["combat"]["ready"] is False
    act("combat_resolve", status=409)
    act("combat_roll", {"faces": [3]}, who="s1")
    act("combat_roll", {"faces": [2]}, who="s2")
    assert state()["ruleset"]["combat"]["ready"] is True
    act("combat_resolve", {"faces": [1]})  # 11 vs 7 → 4, no interception
    assert [p["mana"] for p in state()["ruleset"]["players"]] == [8, 4, 8]


def test_a3_seal_two_ends_with_a_turn_that_ends_by_an_elimination(game):
    """A-3: seal effect 2 raises a stat for the turn it was used in; a turn that ended because its player went out
    left the raise on the other players' servants into the next turn."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    act("start_game")
    act("adjust", {"seat": "s2", "key": "codes", "delta": 2, "reason": "礼装"})
    act("use_seal", {"effect": 2, "stat": "pdef"}, who="s2")
    assert state()["ruleset"]["players"][1]["turn_mods"] == [{"stat": "pdef", "value": 2, "label": "令呪2"}]
    act("adjust", {"seat": "s1", "key": "mana", "delta": -5, "reason": "カード効果"})  # s1 is out on its turn
    r = state()["ruleset"]
    assert r["current"] == "s2" and r["players"][1]["turn_mods"] == []


def test_a1_whether_a_servant_is_entered_is_public_its_cards_are_not(game):
    """docs §4: `servant_set` (the servant's cards are entered) is public; the table and the other phones had null."""
    act, state = game["act"], game["state"]
    act("setup", {"version": "standard"})
    act("roll_first", {"faces": [6, 3, 2]})
    act("set_servant", SERVANTS["s1"], who="s1")
    for who in ("table", "s2", "gm"):
        players = state(who)["ruleset"]["players"]
        assert [p["servant_set"] for p in players] == [True, False, False], who
        assert who == "gm" or (players[0]["hero"] is None and players[0]["class"] is None and players[0]["stats"] is None)


def test_leftover_classes_once(game):
    """Entering the leftover classes again refilled the pool (the class exchanged away was lost, the one taken came
    back) and restarted the exchange: the player who had exchanged could exchange again. Now 409, nothing changes."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    act("leftover_classes", {"classes": ["ランサー 2/2/2/2", "キャスター 1/1/3/3"]})
    act("exchange_class", {"pick": 0}, who="s3")  # s3 is the last drawer (s1 is the first active master)
    before = state()
    refused = act("leftover_classes", {"classes": ["ランサー 2/2/2/2", "キャスター 1/1/3/3"]}, status=409)
    assert "公開済み" in refused["error"]["ja"] and "already" in refused["error"]["en"]
    after = state()
    assert after["session"]["version"] == before["session"]["version"]
    assert [c["name"] for c in after["ruleset"]["exchange"]["pool"]] == ["アサシン", "キャスター"]
    assert after["ruleset"]["exchange"]["queue"] == ["s2", "s1"]


def test_refusals_of_keys_and_numbers_no_screen_sends_are_said_in_words(game):
    """A crafted request's unknown counter key or leftover class number was echoed as a code or a 0-based index
    (「「x」は数えていません（mana, seals, …）」, 「5番のクラスカードはありません」): now in words, as core's counter route.
    On the way, `exchange` is there while the exchange runs, with a seat to pick, and null once it is over."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    act("leftover_classes", {"classes": ["ランサー 2/2/2/2"]})
    error = act("exchange_class", {"pick": 5}, who="s3", status=404)["error"]
    assert (error["ja"], error["en"]) == ("そのクラスカードは残っていません", "There is no such leftover class card")
    for _ in range(3):
        assert state()["ruleset"]["exchange"]["next"] in ("s1", "s2", "s3")
        act("exchange_class", {"pick": "pass"})
    # ace_royal.md §4: null once the last one passed (it was {pool, queue: [], next: null} until start_game)
    assert state()["ruleset"]["exchange"] is None
    act("start_game")
    error = act("adjust", {"seat": "s1", "key": "vp", "delta": 1}, status=404)["error"]
    assert (error["ja"], error["en"]) == ("そのカウンターはありません", "There is no such counter")
    assert state()["ruleset"]["players"][0]["mana"] == 5


def test_adjust_below_a_counters_minimum_names_its_label_and_real_minimum(game):
    """adjust refused any count below 0 with 「0未満にはできません」, also a counter whose minimum is negative (熱, from
    -3 to 5, kept by a session imported from a file that has it: -2 is taken) and said nothing of the counter. Now
    the refusal is worded as core's counter panel, with the counter's label and its real range in both languages
    (never its key), and writes nothing."""
    client, act = game["client"], game["act"]
    set_up_game(act)
    act("leftover_classes", {"classes": ["ランサー 2/2/2/2"]})
    for _ in range(3):
        act("exchange_class", {"pick": "pass"})
    act("start_game")
    doc = json.loads(client.get(f"/api/sessions/{game['sid']}/export?format=json",
                                headers=bearer(game["tokens"]["gm"])).get_data(as_text=True))
    doc["events"][0]["data"]["counters"].append({"key": "heat", "label": {"ja": "熱", "en": "Heat"}, "start": 0,
                                                 "min": -3, "max": 5})
    r = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), data=json.dumps(doc),
                    content_type="application/json")
    assert r.status_code == 201, r.get_json()
    sid, gm = r.get_json()["session"], bearer(r.get_json()["gm_token"])

    def adjust(seat, key, delta):
        return client.post(f"/api/sessions/{sid}/actions/adjust", headers=gm,
                           json={"seat": seat, "key": key, "delta": delta})

    assert adjust("s1", "heat", -2).status_code == 200
    version = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"]
    for seat, key, delta, ja, en in [
            ("s1", "heat", -2, "熱は-3から5までの範囲です（-4にはできません）", "Heat must be from -3 to 5 (cannot become -4)"),
            ("s2", "mana", -6, "魔力は0から30までの範囲です（-1にはできません）", "Mana must be from 0 to 30 (cannot become -1)")]:
        r = adjust(seat, key, delta)
        error = r.get_json()["error"]
        assert r.status_code == 400 and (error["ja"], error["en"]) == (ja, en), error
        assert "heat" not in error["message"]
    state = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()
    assert state["session"]["version"] == version and state["seats"][0]["counters"]["heat"] == -2
def a_code_placed_and_a_servant_without_its_master(game):
    """A-6/A-10: a mystic code placed in the ritual step; depletion coins beyond the hand kill the master of a
    単独行動 servant, which fights on."""
    act = game["act"]
    act("setup", {"version": "standard"})
    act("roll_first", {"faces": [6, 3, 2]})
    loner = {**SERVANTS["s2"], "hero": {**SERVANTS["s2"]["hero"], "skills": ["単独行動"]}}
    for seat, servant in {**SERVANTS, "s2": loner}.items():
        act("set_servant", servant, who=seat)
    act("start_game")
    act("step", who="s1")
    act("step", who="s1")
    act("place_code", {}, who="s1")
    act("adjust", {"seat": "s2", "key": "depletion", "delta": 5})


def a_proxy_pays_for_its_damage(game):
    """A-9: a proxy from a hero card takes 2 damage: its player discards a mystic code from the hand instead of 魔力
    and the servant goes Down, said in the log (ace_royal.proxy_paid) as on the stage and the phones."""
    act = game["act"]
    set_up_game(act)
    act("start_game")
    act("step", who="s1")
    act("step", who="s1")
    act("declare_attack", {"target": "s2"}, who="s1")
    act("combat_proxy", {"name": "王の軍勢", "stats": "7/8/7/4", "legion": True, "source": "hero"}, who="s2")
    act("combat_modifier", {"stat": "patk", "value": 3, "label": "約束された勝利の剣"}, who="s1")
    act("combat_choose", {"kind": "physical"}, who="s1")
    act("combat_choose", {"kind": "physical"}, who="s2")
    # 12 vs the proxy's 10 → 2: s2 says its hand holds a code (s1 resolving first waits for that answer, 409);
    # a code from s2's hand, Down; 11 vs 8 → 3 to s1
    act("combat_resolve", {}, who="s1", status=409)
    act("combat_resolve", {"interceptor_hand_code": True}, who="s2")


def both_hero_proxies_answer_on_their_phones(game):
    """A-9: both sides' proxies come from hero cards, both take damage, both hands hold cards: each side's answer is
    asked. Each phone offered neither its own question nor a resolve (each waited for the other, and a resolve with
    only the caller's answer was 409), so only the GM could go on. Now each side answers on its own
    (`combat_hand_code`), the answer kept in the combat for its seat and the GM only (the others read that it is
    answered), and either side resolves once the other's answer is kept."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    act("start_game")
    act("step", who="s1")
    act("step", who="s1")
    act("declare_attack", {"target": "s2"}, who="s1")
    act("combat_proxy", {"name": "影", "stats": "6/1/12/1", "source": "hero"}, who="s1")
    act("combat_proxy", {"name": "王の軍勢", "stats": "7/8/7/4", "legion": True, "source": "hero"}, who="s2")
    version = state()["session"]["version"]
    refused = act("combat_hand_code", {"hand_code": True}, who="s1", status=409)["error"]  # no pick yet: not asked
    assert (refused["ja"], refused["en"]) == (
        "凛 に手札の礼装カードを尋ねる場面ではありません: 英霊カードによる代理戦闘がダメージを受け、手札があるときに答えます（A-9）",
        "凛 is not asked about the hand: that is when a proxy from a hero card takes damage and the hand is not empty (A-9)")
    act("combat_choose", {"kind": "magical"}, who="s1")
    act("combat_choose", {"kind": "physical"}, who="s2")
    # 12 vs the legion's magical defence 6 → 6 to s2's proxy; its 11 vs 影's 1 → 10 to s1's: both hands hold cards
    assert state("table")["ruleset"]["combat"]["hand_code_due"] == {"attacker": True, "interceptor": True}
    refused = act("combat_hand_code", {}, who="s1", status=400)["error"]
    assert refused["en"] == "Say whether the hand holds a mystic code card to discard (hand_code: true or false, A-9)"
    refused = act("combat_hand_code", {"side": "interceptor", "hand_code": True}, who="s1", status=403)["error"]
    assert refused["en"] == "You cannot act for the other side"
    refused = act("combat_resolve", {"attacker_hand_code": True}, who="s1", status=409)["error"]
    assert refused["ja"].startswith("ウェイバー の代理戦闘がダメージを受けます: 手札に捨てられる礼装カードがあるかを")
    assert state()["session"]["version"] == version + 2  # the two picks only
    act("combat_hand_code", {"hand_code": False}, who="s2")
    # the same answer again (a double tap, a phone's retry) was 409 「既にそう答えています」: now it succeeds and writes
    # nothing (the answer is kept already)
    version = state()["session"]["version"]
    assert act("combat_hand_code", {"hand_code": False}, who="s2")["events"] == []
    assert state()["session"]["version"] == version
    act("combat_hand_code", {"hand_code": True}, who="s1")
    # A-9: the answer is about the hand as it was: a card played from 凛's hand since (the phone's −1) may have been
    # that mystic code, so 凛's kept answer is dropped (public: any change drops it, whatever it was) and asked again;
    # it was kept and the resolve paid with a card 凛 no longer held. ウェイバー's answer stays.
    answer = act("adjust", {"key": "hand", "delta": -1, "reason": "カード使用"}, who="s1")
    assert [e["type"] for e in answer["events"]] == ["counter.changed", "ace_royal.hand_code_cleared"]
    # public, and now the newest result too (it was not kept as one, so no screen's newest line said why 凛 is asked again)
    newest = state("table")["ruleset"]
    assert [line["plain"] for line in newest["newest_action"]] == [{
        "ja": "襲撃側 凛: 手札が変わったので、手札の礼装カードの有無を答え直します",
        "en": "Attacker 凛: the hand has changed, so whether it holds a mystic code card is asked again"}]
    assert newest["newest"]["type"] == "ace_royal.hand_code_cleared"
    combat = state("table")["ruleset"]["combat"]
    assert combat["hand_code_answered"] == {"attacker": False, "interceptor": True}
    assert combat["hand_code_due"] == {"attacker": True, "interceptor": True}
    assert state("s1")["ruleset"]["combat"]["hand_code"] == {"attacker": None, "interceptor": None}
    refused = act("combat_resolve", {}, who="s2", status=409)["error"]
    assert refused["ja"].startswith("凛 の代理戦闘がダメージを受けます: 手札に捨てられる礼装カードがあるかを")
    # the other side's hand changes on core's counter panel (counter_settle): its answer is asked again too
    r = game["client"].post(f"/api/sessions/{game['sid']}/counters", headers=bearer(game["tokens"]["gm"]),
                            json={"seat": "s2", "key": "hand", "delta": 1, "reason": "ドロー"})
    assert r.status_code == 200, r.get_json()
    assert state("table")["ruleset"]["combat"]["hand_code_answered"] == {"attacker": False, "interceptor": False}
    act("combat_hand_code", {"hand_code": False}, who="s2")
    act("combat_hand_code", {"hand_code": True}, who="s1")
    # whether a hand holds a mystic code is its player's and the GM's: the others read only that it is answered
    for who, seen in (("gm", {"attacker": True, "interceptor": False}), ("s1", {"attacker": True, "interceptor": None}),
                      ("s2", {"attacker": None, "interceptor": False}), ("s3", {"attacker": None, "interceptor": None}),
                      ("table", {"attacker": None, "interceptor": None})):
        combat = state(who)["ruleset"]["combat"]
        assert (combat["hand_code"], combat["hand_code_answered"]) == (seen, {"attacker": True, "interceptor": True}), who
    hands = [p["hand"] for p in state()["ruleset"]["players"]]
    act("combat_resolve", {}, who="s2")  # both kept answers: s1 discards a code from the hand, s2 has none: Danger
    view = state("table")["ruleset"]
    assert [(p["mana"], p["state"], p["hand"]) for p in view["players"][:2]] == [
        (5, "down", hands[0] - 1), (5, "danger", hands[1])]
    assert "hand_code" not in view["last_combat"]


def documented_games(client, every_event=False):
    """The games the documented-fields tests play (the view's here, the events' in test_web_api.py), each as (session
    id, tokens of the GM, the table and every seat, play), `play()` not yet run: a full one, a quick combat, 先制, the
    class exchange, seal 2, both sides' hand answers (A-9); with `every_event` also those that write the event types these leave out (a mystic code
    placed, a master killed under a 単独行動 servant, a proxy paying for its damage)."""
    flows = [test_a_whole_game_through_the_api, test_a8_quick_dice_count_in_the_attackers_damage_judgement,
             test_a7_last_combat_carries_the_strike_when_first_strike_skipped_the_interception,
             test_leftover_classes_once, test_a3_seal_two_ends_with_a_turn_that_ends_by_an_elimination,
             both_hero_proxies_answer_on_their_phones]
    if every_event:
        flows += [a_code_placed_and_a_servant_without_its_master, a_proxy_pays_for_its_damage]
    yield from games_to_play(flows, lambda: new_game(client))


def test_the_view_has_exactly_the_documented_fields(client):
    """docs/rulesets/ace_royal.md §4 lists every field of `state.ruleset` and of the objects in it: whole games
    (a full one, a quick combat, 先制, the class exchange, seal 2, both sides' hand answers) seen by the GM, the table and every seat after every
    step carry exactly those, none missing and none unnamed."""
    views = []
    for sid, tokens, play in documented_games(client):
        views += ruleset_views(client, sid, tokens, play)
    assert undocumented(views, "docs/rulesets/ace_royal.md", "## 4. `state.ruleset`") == {}


def test_the_view_is_the_same_for_every_viewer_but_me_you_and_the_hidden_cards(client):
    """docs/rulesets/ace_royal.md §4: `state.ruleset` is the same for the GM, the table and every seat but `me` (a
    seat's own), `players[].you` (true on the caller's own entry only), what an entry hides from the caller
    (`hero`, `class`, `stats` null) and the answers in `combat.hand_code` that are not the caller's (null; A-9), after
    every step of the documented games."""
    hidden = ("hero", "class", "stats")
    answers = 0
    for i, tokens, views in ruleset_views_by_step(client, documented_games(client)):
        gm = views["gm"]
        for who, view in views.items():
            assert [p["seat"] for p in view["players"] if p["you"]] == ([who] if who in tokens and who not in (
                "gm", "table") and any(p["seat"] == who for p in view["players"]) else []), (who, i)
            for mine, full in zip(view["players"], gm["players"]):
                assert all(mine[k] in (None, full[k]) for k in hidden), (who, i, mine["seat"])
                assert {k: v for k, v in mine.items() if k not in (*hidden, "you")} == {
                    k: v for k, v in full.items() if k not in (*hidden, "you")}, (who, i, mine["seat"])
            if gm["combat"]:  # a side's kept answer: its own phone's and the GM's, null for everyone else
                seen, shown = view["combat"]["hand_code"], gm["combat"]["hand_code"]
                assert seen == {side: shown[side] if who in ("gm", gm["combat"][side]) else None for side in shown}, (who, i)
                answers += sum(v is not None for v in seen.values())
            assert {k: v for k, v in view.items() if k not in ("me", "players", "combat")} == {
                k: v for k, v in gm.items() if k not in ("me", "players", "combat")}, (who, i)
            assert ({k: v for k, v in view["combat"].items() if k != "hand_code"} if view["combat"] else None) == (
                {k: v for k, v in gm["combat"].items() if k != "hand_code"} if gm["combat"] else None), (who, i)
    assert answers  # the games reach a kept answer


def test_every_field_of_the_view_is_always_there_also_before_the_setup(client):
    """docs/rulesets/ace_royal.md §4: "Every field is always there (null or empty before it applies)". Before `setup`
    the view was only `{phase, players, steps}` (its steps without `now`); now every viewer's view carries every
    documented field (`me` a phone's: null before the setup, where it was left out) before the setup and after each
    step of a whole game."""
    documented = documented_fields("docs/rulesets/ace_royal.md", "## 4. `state.ruleset`")
    top, step_fields = documented[""], documented["steps"]
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "AR", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー"]})
    data = r.get_json()
    before = [client.get(f"/api/sessions/{data['session']}/state", headers=bearer(token)).get_json()["ruleset"]
              for token in (data["gm_token"], data["table_token"], data["seats"][0]["token"])]
    assert before[0]["phase"] == "new" and before[0]["players"] == [] and before[0]["winner"] is None
    assert "me" not in before[0] and "me" not in before[1] and before[2]["me"] is None  # a phone's: null, not absent
    sid, tokens, play = next(documented_games(client))
    for view in before + ruleset_views(client, sid, tokens, play):
        assert set(view) in (top, top - {"me"}), (view.get("phase"), top ^ set(view))
        assert all(set(step) == step_fields for step in view["steps"]), view["steps"]


def test_a10_a_typed_reason_keeps_its_rule_code_in_the_log_in_both_languages(game):
    """Plan.counter appended a rule code to a reason its own way; it goes through core's rule_reason now, as every
    ruleset's counter change: a reason the GM types for an assassination coin still reads with its rule in both
    languages, and a ruleset's own words with theirs (nothing a player reads is lost)."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    set_up_game(act)
    act("start_game")
    act("adjust", {"seat": "s2", "key": "assassin", "delta": 1, "reason": "ハサン"})
    act("adjust", {"key": "hand", "delta": 1, "reason": "draw"}, who="s1")
    for lang, typed, drawn in (("ja", "暗殺コイン 0→1 (+1)（ハサン [A-10]）", "手札 4→5 (+1)（ドロー）"),
                               ("en", "0→1 (+1) (ハサン [A-10])", "4→5 (+1) (draw)")):
        texts = [e["text"] for e in client.get(f"/api/sessions/{sid}/log?lang={lang}",
                                                 headers=bearer(tokens["gm"])).get_json()["events"]]
        assert any(t.endswith(typed) for t in texts) and any(t.endswith(drawn) for t in texts), texts[-4:]


def test_a_public_export_of_a_game_under_way_says_it_cannot_play_on(app, client, game):
    """A public JSON export has no servant's cards (servant_set's are its seat's, A-1): imported after the start, an attack declared read
    a servant that is not there and was a 500 after it was recorded (TypeError on the hero's stats), and so was every
    screen with it. Every action of the game (but a count the GM corrects) is now a 409 that says why, nothing
    written; before the start, the players set their servants again. §4b names that exception: `adjust` (the GM's any
    count, a phone's own hand) still writes its counter.changed (the page said every action is refused)."""
    act = game["act"]
    page = (ROOT / "docs/rulesets/ace_royal.md").read_text(encoding="utf-8").replace("\n", " ")
    assert "every action of the game under way but `adjust` is refused with a 409" in page
    assert "`adjust` still changes a count as §2 says (the GM any counter, a phone its own `hand`)" in page
    set_up_game(act)
    doc = client.get(f"/api/sessions/{game['sid']}/export?format=json", headers=bearer(game["tokens"]["gm"]))
    act("start_game")
    started = client.get(f"/api/sessions/{game['sid']}/export?format=json", headers=bearer(game["tokens"]["gm"]))
    for export, steps in ((started.get_json(), [("step", {}, "s1"), ("step", {}, "s1"),
                                                ("declare_attack", {"target": "s2"}, "s1")]),
                          (doc.get_json(), [("start_game", {}, "gm")])):
        r = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=export)
        assert r.status_code == 201, r.get_json()
        new = r.get_json()
        tok = {"gm": new["gm_token"], **{s["id"]: s["token"] for s in new["seats"]}}
        version = client.get(f"/api/sessions/{new['session']}/state",
                             headers=bearer(tok["gm"])).get_json()["session"]["version"]
        for name, body, who in steps:  # (the steps went through; the attack was the 500)
            r = client.post(f"/api/sessions/{new['session']}/actions/{name}", headers=bearer(tok[who]), json=body)
            if r.status_code != 200:
                break
        assert r.status_code == 409, r.get_json()
        if steps[0][0] == "start_game":  # before the start: the servants are to be set again, said as it is (they were
            # set: 「サーヴァント未登録」 / "Servants not set yet" was untrue), and the console says it before the start is pressed
            error = r.get_json()["error"]
            assert error["ja"] == ("公開エクスポートから読み込んだため、カードの記録がないサーヴァント（スマホで登録し直します）: "
                                   "凛、ウェイバー、キャスター陣営"), error
            assert error["en"] == ("Imported from a public export, so their servant's cards are not here (set again on the "
                                   "phone): 凛, ウェイバー, キャスター陣営"), error
            gm = open_link(app, new["gm_url"])
            html = gm.get(f"/s/{new['session']}/gm").get_data(as_text=True)
            assert 'id="ar-servants-unrecorded"' in html and "ar-servants-missing" not in html
            assert re.search(r'id="ar-start"[^>]* disabled aria-describedby="ar-servants-unrecorded"', html)
            assert "凛: …" in html and "凛: ✓" not in html
            r = client.post(f"/api/sessions/{new['session']}/actions/set_servant", headers=bearer(tok["s1"]), json=SERVANTS["s1"])
            assert r.status_code == 200
            error = client.post(f"/api/sessions/{new['session']}/actions/leftover_classes", headers=bearer(tok["gm"]),
                                json={"classes": ["ランサー 2/2/2/2"]}).get_json()["error"]
            assert error["ja"].startswith("公開エクスポートから読み込んだため") and error["ja"].endswith(": ウェイバー、キャスター陣営")
            version = client.get(f"/api/sessions/{new['session']}/state", headers=bearer(tok["gm"])).get_json()["session"]["version"]
        else:
            assert name == "step"
            assert r.get_json()["error"]["ja"].startswith("サーヴァントの記録がこのセッションにありません（公開エクスポート")
            assert "import a full backup to play on" in r.get_json()["error"]["en"]
        assert client.get(f"/api/sessions/{new['session']}/state",
                          headers=bearer(tok["gm"])).get_json()["session"]["version"] == version
        if steps[0][0] == "step":  # the exception the page names: a count
            for body, who in (({"seat": "s2", "key": "mana", "delta": -1}, "gm"), ({"key": "hand", "delta": 1}, "s1")):
                r = client.post(f"/api/sessions/{new['session']}/actions/adjust", headers=bearer(tok[who]), json=body)
                assert r.status_code == 200, r.get_json()
                assert [e["type"] for e in r.get_json()["events"]] == ["counter.changed"], r.get_json()["events"]


def test_a2_once_the_game_is_over_no_phone_offers_the_hand_buttons(app, game):
    """Browser review: after the last servant standing won (A-7), every phone still showed 手札 +1 / 手札 −1, which
    answer 409 「ゲームは終了しています」. The phone offers them while the game runs, not once it is over."""
    act, sid, tokens = game["act"], game["sid"], game["tokens"]
    set_up_game(act)
    act("start_game")
    phones = {seat: open_link(app, f"/join/{sid}?k={tokens[seat]}") for seat in ("s1", "s3")}
    hand_button = '"key": "hand", "delta": "1"'
    assert hand_button in phones["s1"].get(f"/s/{sid}/phone").get_data(as_text=True)
    act("adjust", {"seat": "s2", "key": "mana", "delta": -5})
    act("adjust", {"seat": "s3", "key": "seals", "delta": -3})
    assert game["state"]()["ruleset"]["over"]
    for seat, phone in phones.items():
        assert hand_button not in phone.get(f"/s/{sid}/phone").get_data(as_text=True), seat
    # the final table says why each player is out, whatever the reason: the table's chips, the console's players
    # and the phone's own state said 脱落 alone, and only an out of mana had a flag (魔力切れ（脱落）)
    table = open_link(app, f"/s/{sid}/table?k={tokens['table']}")
    console = open_link(app, f"/s/{sid}/gm?k={tokens['gm']}")
    for lang, mana, seals in (("ja", "魔力切れ（脱落）", "令呪切れ（脱落）"), ("en", "No mana left (out)", "No Command Seals left (out)")):
        for screen, path in ((table, "table"), (console, "gm"), (phones["s3"], "phone")):
            html = screen.get(f"/s/{sid}/{path}?lang={lang}").get_data(as_text=True)
            assert html.count(seals) >= 1 + (path != "phone") and mana in html, (path, lang)
    act("adjust", {"key": "hand", "delta": 1}, who="s1", status=409)


def _screens(app, game, lang, text=True):
    """The GM console, the table and every phone, in `lang`, as text without tags (`text` False: the HTML)."""
    sid, tokens = game["sid"], game["tokens"]
    links = {"gm": f"/s/{sid}/gm?k={tokens['gm']}", "table": f"/s/{sid}/table?k={tokens['table']}",
             **{s: f"/join/{sid}?k={tokens[s]}" for s in ("s1", "s2", "s3")}}
    out = {}
    for who, link in links.items():
        browser = open_link(app, link)
        page = "gm" if who == "gm" else "table" if who == "table" else "phone"
        html = browser.get(f"/s/{sid}/{page}?lang={lang}").get_data(as_text=True)
        out[who] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)) if text else html
    return out


def test_a2_one_name_for_the_command_seals_on_every_screen(app, game):
    """Play-through: in English the game panel said 'Seals' and the counters 'Command seals' for the same coin
    (A-2). Every screen now says 'Command Seals' (as the generic and grail presets do), and 令呪 in Japanese."""
    act = game["act"]
    set_up_game(act)
    act("start_game")
    act("use_seal", {"effect": "5"}, who="s2", status=409)  # refused: a log line is not needed for the labels
    for who, text in _screens(app, game, "en").items():
        assert "Command Seals" in text, who
        assert not re.findall(r"(?<!Command )\b[Ss]eals\b|command seal", text), (who, re.findall(r".{40}[Ss]eals.{20}", text))
    for who, text in _screens(app, game, "ja").items():
        assert "令呪" in text and "Seal" not in text, who


def test_a5_no_active_master_badge_on_a_player_who_is_out_or_once_the_game_is_over(app, game):
    """Play-through: the table's アクティブマスター badge stayed on an eliminated player to the end. The coin's holder
    out (A-2): no screen shows the badge on them (the coin passes on at the phase end, A-5); the game over (A-7):
    no badge anywhere. The top-level `active` keeps the coin's holder."""
    act, state = game["act"], game["state"]
    set_up_game(act)
    act("start_game")

    def badges(lang="ja"):
        """Each screen's active-master marks: the table's pill, the console's ★, a phone's line under its servant."""
        badge = re.compile(r'class="pill ar-am"|<th>[^<]*★</th>|class="ar-state[^"]*">[^<]*· (アクティブマスター|Active master)')
        return {who: len(badge.findall(html)) for who, html in _screens(app, game, lang, text=False).items()}

    assert [p["active"] for p in state()["ruleset"]["players"]] == [True, False, False]
    first = badges()
    assert first["table"] == first["gm"] == first["s1"] == 1 and badges("en")["s1"] == 1
    act("adjust", {"seat": "s1", "key": "mana", "delta": -5})  # the holder is out; s2 and s3 play on
    r = state("table")["ruleset"]
    assert r["players"][0]["out"] and not r["over"] and r["active"] == "s1"
    assert [p["active"] for p in r["players"]] == [False, False, False]
    assert set(badges().values()) == set(badges("en").values()) == {0}
    _end_turn(act, "s2")
    _end_turn(act, "s3")  # the phase ends: the coin passes from the out s1 to s2
    r = state("table")["ruleset"]
    assert r["active"] == "s2" and [p["active"] for p in r["players"]] == [False, True, False]
    assert badges()["table"] == 1
    act("adjust", {"seat": "s3", "key": "mana", "delta": -5})  # s2 wins
    r = state("table")["ruleset"]
    assert r["over"] and r["winner"] == "s2" and not any(p["active"] for p in r["players"])
    assert set(badges().values()) == set(badges("en").values()) == {0}


def test_a2_a_phone_shows_its_coins_once(app, game):
    """Play-through: once the game was set up, an ace_royal phone listed its coins twice, in the game panel's coin row
    and again in core's 「あなたの席」 card below it. The panel's row (with the mystic codes' slots) is the one left
    (`Ruleset.phone_counters`); before the setup, when the panel is empty, core's card still shows them."""
    sid, tokens = game["sid"], game["tokens"]
    phone = open_link(app, f"/join/{sid}?k={tokens['s1']}")

    def shown():
        """Core's cards of its coins, the panel's coin rows, and how often 暗殺 is said before the others' card."""
        html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
        own = html.split('<div class="other">', 1)[0]
        return own.count('class="card mine-card"'), own.count('class="ar-coins"'), own.count(">暗殺")

    assert shown() == (1, 0, 1)  # before the setup: core's card only
    set_up_game(game["act"])
    assert shown() == (0, 1, 1)
    assert re.search(r"<dt>礼装</dt><dd>0/\d</dd>", phone.get(f"/s/{sid}/phone").get_data(as_text=True))


def test_a7_the_combat_that_ends_the_game_stays_on_the_stage_under_the_winner(game):
    """Play-through at 1920x1080: the combat that put the last rival out vanished from the table's stage at once; it
    showed 「勝者: 凛」 and 「聖杯戦争終結: 勝者 凛」 only, so the table never saw the blow that decided the game nor its
    breakdown. The stage keeps the winner on top, then that combat's result, the elimination and both sides'
    breakdowns (A-7), as after any other combat; the end line is not said twice."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    table = client.application.test_client()
    table.get(f"/s/{sid}/table?k={tokens['table']}")
    set_up_game(act)
    act("start_game")
    for seat, mana in (("s3", 0), ("s2", 1)):  # the third master is out; the second has one 魔力 left
        r = client.post(f"/api/sessions/{sid}/counters", headers=bearer(tokens["gm"]),
                        json={"seat": seat, "key": "mana", "value": mana, "reason": "テスト"})
        assert r.status_code == 200, r.get_json()
    act("step", who="s1")
    act("step", who="s1")
    act("declare_attack", {"target": "s2"}, who="s1")
    act("combat_choose", {"kind": "physical"}, who="s1")
    act("combat_choose", {"kind": "physical"}, who="s2")
    assert act("combat_resolve", {}, who="s1")["ruleset"]["winner"] == "s1"
    for lang, words in (("ja", ("勝者: 凛", "襲撃: 凛 物理", "ウェイバー が脱落", "聖杯戦争終結")),
                        ("en", ("Winner: 凛", "Attack: 凛 Physical", "ウェイバー is out", "Holy Grail War over"))):
        html = table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[html.index('id="stage"'):html.index('id="table-summary"')]))
        winner, attack, out, end = words
        assert winner in shown and "ar-stage-combat-result" in html and "ar-stage-breakdowns" in html, (lang, shown)
        assert re.search(re.escape(attack) + r" \d+ vs \d+ ⇒ \d+", shown), (lang, shown)
        assert out in shown and end not in shown, (lang, shown)


def test_a6_the_stage_says_how_an_encounter_came_about(game):
    """Play-through at 1920x1080: the turn player's encounter die came up 1 and the opponent's die picked 龍之介 (A-6),
    but the table's stage went straight to the combat (「Attacker 凛 / Interceptor 龍之介」): nobody at the table saw
    the 1, nor which number picked whom. The stage shows the encounter roll's line above the combat when the combat
    has just come of it; once a side acts the combat alone shows."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    table = client.application.test_client()
    table.get(f"/s/{sid}/table?k={tokens['table']}")

    def stage(lang="ja"):
        html = table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        shown = html[html.index('id="stage"'):html.index('id="table-summary"')]
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", shown)), shown

    set_up_game(act)
    act("start_game")
    act("step", who="s1")
    act("step", who="s1")
    act("reveal", {"what": "both"}, who="s1")
    act("step", who="s1")
    act("encounter_roll", {"faces": [1, 2]}, who="s1")  # others s2, s3: 2 = s3
    for lang, words in (("ja", ("遭遇戦判定 1d6 = 1", "1d6 = 2 ⇒ キャスター陣営")),
                        ("en", ("encounter roll 1d6 = 1", "1d6 = 2 ⇒ キャスター陣営"))):
        text, shown = stage(lang)
        assert 'id="ar-combat"' in shown and 'id="ar-encounter"' in shown, (lang, text)
        assert all(w in text for w in words), (lang, text)
    act("combat_choose", {"kind": "physical"}, who="s1")
    assert 'id="ar-encounter"' not in stage()[1]


def test_a2_a_player_who_is_out_has_no_hand_to_change(game):
    """Play-through at 390x844: a player whose 魔力 reached 0 was out (A-2), yet their phone still offered 「手札 +1」
    「手札 −1」 and the tap was accepted, changing a count nobody plays any more (the log and the table then showed an
    out player drawing). The phone leaves the buttons out, and `adjust` from the phone of a player who is out is a 409
    in both languages that changes nothing; the GM still corrects any count."""
    act, client, sid, tokens, state = game["act"], game["client"], game["sid"], game["tokens"], game["state"]
    phone = open_link(client.application, f"/join/{sid}?k={tokens['s3']}")
    set_up_game(act)
    act("start_game")
    assert "手札 +1" in phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    r = client.post(f"/api/sessions/{sid}/counters", headers=bearer(tokens["gm"]),
                    json={"seat": "s3", "key": "mana", "value": 0, "reason": "テスト"})
    assert r.status_code == 200 and next(p for p in state()["ruleset"]["players"] if p["seat"] == "s3")["out"]
    html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert "手札 +1" not in html and "手札 −1" not in html
    version = state()["session"]["version"]
    refused = act("adjust", {"key": "hand", "delta": 1, "reason": "draw"}, who="s3", status=409)["error"]
    assert refused["ja"] and refused["en"] and state()["session"]["version"] == version
    act("adjust", {"seat": "s3", "key": "hand", "delta": -1, "reason": "GM"})  # the GM still may


def test_a3_quick_seal_1_reads_as_english(game):
    """Play-through in English (quick version): seal 1 read 「Recover a die's roll of mana」 on the phone's and the
    console's seal lists and 「recover a die's roll of mana」 in the log, hard to parse at a glance; it reads 「Recover
    mana equal to a die roll」 (出目の数だけ魔力回復, A-3)."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    act("setup", {"version": "quick"})
    act("roll_first", {"faces": [6, 3, 2]})
    for seat, servant in SERVANTS.items():
        act("set_servant", servant, who=seat)
    act("start_game")
    act("adjust", {"seat": "s1", "key": "mana", "delta": -3})
    act("use_seal", {"effect": 1, "faces": [2]}, who="s1")
    phone = open_link(client.application, f"/join/{sid}?k={tokens['s1']}")
    gm = open_link(client.application, f"/s/{sid}/gm?k={tokens['gm']}")
    for page in (phone.get(f"/s/{sid}/phone?lang=en"), gm.get(f"/s/{sid}/gm?lang=en")):
        html = page.get_data(as_text=True)
        assert "ecover mana equal to a die roll" in html and "die's roll" not in html and "die&#39;s roll" not in html


def test_a10_a_public_import_asks_whether_a_servant_it_has_not_fights_on(app, client, game):
    """A public export has no servant's cards (A-1). Imported, a master killed by coins above the hand (A-10) took its
    player out, where the live game's 単独行動 servant fought on masterless: now the change is refused (409, nothing
    written) until the GM says whether the servant has 単独行動 (`independent`, the console's two buttons), and then
    it goes as the live game went. On the way: with every hero card revealed but a class card not, the game's
    actions went on (the guard asked for the hero only), and the combat an encounter started was a 500 on every
    screen; they are refused as with any servant not in the record."""
    act = game["act"]
    act("setup", {"version": "standard"})
    act("roll_first", {"faces": [6, 3, 2]})
    loner = {"hero": {"name": "エミヤ", "stats": "4/3/4/3"},
             "class": {"name": "アーチャー", "stats": "2/2/2/2", "skills": ["単独行動"]}}
    for seat, servant in {**SERVANTS, "s2": loner}.items():
        act("set_servant", servant, who=seat)
    act("start_game")
    for seat in ("s1", "s2", "s3"):  # each reveals the hero card only (its class card stays secret)
        act("step", who=seat)
        act("step", who=seat)
        act("reveal", {"what": "hero"}, who=seat)
        if seat != "s3":
            act("step", who=seat)
            act("encounter_roll", {"faces": [4]}, who=seat)
            act("step", who=seat)
    export = client.get(f"/api/sessions/{game['sid']}/export?format=json", headers=bearer(game["tokens"]["gm"])).get_json()
    live = act("adjust", {"seat": "s2", "key": "depletion", "delta": 5})
    assert [e["type"] for e in live["events"]] == ["counter.changed", "ace_royal.masterless"]
    new = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=export).get_json()
    sid, gm = new["session"], bearer(new["gm_token"])
    seat_token = {s["id"]: s["token"] for s in new["seats"]}

    def post(name, body, headers=gm):
        return client.post(f"/api/sessions/{sid}/actions/{name}", headers=headers, json=body)

    def version():
        return client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["session"]["version"]

    before = version()
    r = post("step", {}, bearer(seat_token["s3"]))
    assert r.status_code == 409 and "import a full backup to play on" in r.get_json()["error"]["en"], r.get_json()
    assert version() == before
    assert post("adjust", {"seat": "s2", "key": "depletion", "delta": 4}).status_code == 200  # 4, not above the hand 4
    console = open_link(app, new["gm_url"]).get(f"/s/{sid}/gm").get_data(as_text=True)
    for yes in ("true", "false"):  # the + that kills s2's master asks which (a count that kills nobody does not)
        assert f'"seat": "s2", "key": "depletion", "delta": "1", "independent": "{yes}"' in console
    assert '"key": "mana", "delta": "1", "independent"' not in console
    before = version()
    r = post("adjust", {"seat": "s2", "key": "depletion", "delta": 1})
    error = r.get_json()["error"]
    assert r.status_code == 409 and error["ja"].startswith("ウェイバー のマスターが死亡します（枯渇5枚 > 手札4枚、A-10）"), error
    assert "fights on with Independent action is not known" in error["en"] and version() == before
    r = post("adjust", {"seat": "s2", "key": "depletion", "delta": "1", "independent": "true"})  # as the console sends it
    assert [e["type"] for e in r.get_json()["events"]] == ["counter.changed", "ace_royal.masterless"], r.get_json()
    s2 = client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["ruleset"]["players"][1]
    assert s2["masterless"] and not s2["out"]
    # a masterless servant fights on without a master's seals: the live game's s2 spending its last one is not
    # out, as s1, whose master lives, is at its last (A-2; docs §2)
    assert [e["type"] for e in act("adjust", {"seat": "s2", "key": "seals", "delta": -3})["events"]] == ["counter.changed"]
    assert [e["type"] for e in act("adjust", {"seat": "s1", "key": "seals", "delta": -3})["events"]] == [
        "counter.changed", "ace_royal.out"]
