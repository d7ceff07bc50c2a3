"""Fate/Ace Royal flow through the ruleset's actions on a pure in-memory session (RULES.md A)."""

from __future__ import annotations

import pytest

from gmtool.core import commands, engine
from gmtool.core.dice import EnteredDice, FixedDice
from gmtool.core.errors import Conflict, Forbidden, GmError
from gmtool.core.model import GM, TABLE, Event, State, Viewer
from gmtool.core.ruleset import ActionContext
from gmtool.core.view import build_view, visible_event
from gmtool.export.report import Options, build_report
from gmtool.rulesets.ace_royal import COUNTERS, RULESET

SABER = {"hero": {"name": "アルトリア", "stats": [6, 5, 3, 3]}, "class": {"name": "セイバー", "stats": [3, 3, 1, 5]}}


class Game:
    """A session in memory: actions as the web layer runs them, events folded by the engine."""

    def __init__(self, n: int = 3):
        self.events: list[Event] = []
        self.state = State(rules=RULESET)
        seats = [{"id": s, "name": s.upper() + "さん"} for s in "abcdefg"[:n]]
        self._write(commands.create_session("s1", "test", "ace_royal", seats, list(COUNTERS), "h"), "gm")

    def _write(self, drafts, actor):
        action = self.state.last_action + 1
        for t, d in drafts:
            e = Event(self.state.last_seq + 1, "2026-01-01T00:00:00+00:00", actor, action, t, d)
            self.events.append(e)
            engine.apply(self.state, e)

    def act(self, name, payload=None, who="gm", dice=()):
        """Run one action as `who` with these dice (all of them must be used)."""
        a = RULESET.actions[name]
        if a.who == "gm" and who != "gm":
            raise Forbidden("GM", "GM only")
        viewer = GM if who == "gm" else Viewer("seat", who)
        fixed = FixedDice(list(dice))
        ctx = ActionContext("gm" if who == "gm" else f"seat:{who}", viewer, fixed, lambda: "salt", {})
        drafts = a.fn(self.state, payload or {}, ctx)
        assert fixed.next_index == len(dice), f"{name} used {fixed.next_index} of {len(dice)} dice"
        self._write(drafts, ctx.actor)
        return [t for t, _ in drafts]

    def undo(self):
        """The GM's undo of the last action: the state folded again without it."""
        self.state = engine.fold(self.events, RULESET, undone=self.state.undone | {self.state.last_action})

    @property
    def g(self):
        return self.state.extra["ace_royal"]

    def c(self, seat, key):
        return self.state.counters[seat][key]

    def view(self, viewer=TABLE):
        return build_view(self.state, viewer)["ruleset"]


def started(n=3, version="standard", servants=None, first_dice=None):
    """A game past the setup: everyone's servant set, `a` the first active master."""
    game = Game(n)
    game.act("setup", {"version": version})
    game.act("roll_first", dice=first_dice or [6] + list(range(1, n)))
    for i, s in enumerate(game.g["order"]):
        game.act("set_servant", (servants or {}).get(s, SABER), who=s)
    game.act("start_game")
    return game


def to_step(game, step):
    while game.g["step"] != step:
        game.act("step")


def test_a2_setup_versions():
    game = Game(3)
    game.act("setup", {"version": "quick"})
    assert [game.c(s, "mana") for s in "abc"] == [8, 8, 8]
    assert game.c("a", "seals") == 3 and game.c("a", "hand") == 4
    with pytest.raises(GmError):
        game.act("setup", {"version": "quick"})
    with pytest.raises(GmError):
        Game(1).act("setup", {})
    with pytest.raises(GmError):
        Game(3).act("setup", {"version": "fast"})


def test_a5_first_master_ties_reroll_among_the_tied():
    game = Game(3)
    game.act("setup", {})
    game.act("roll_first", dice=[5, 5, 2, 3, 4])
    assert game.g["first"] == "b"
    assert game.g["first_rolls"] == {"a": [5, 3], "b": [5, 4], "c": [2]}
    text = RULESET.event_type("ace_royal.first_rolled").describe(
        visible_event(game.events[-1], game.state, TABLE), game.state, "ja")
    assert "A-5" in text and "同点は振り直し（解釈）" in text  # the reading shows where it decided
    game = Game(3)
    game.act("setup", {})
    game.act("roll_first", dice=[2, 5, 2])  # a tie below the highest decides nothing: no re-roll, no more faces
    assert game.g["first"] == "b" and game.g["first_rolls"] == {"a": [2], "b": [5], "c": [2]}


def test_a5_first_master_ties_reading_seat_order():
    game = Game(3)
    game.act("setup", {})
    game._write(commands.set_reading(game.state, "first_ties", "seat_order"), "gm")
    game.act("roll_first", dice=[2, 5, 5])
    assert game.g["first"] == "b"


def test_a1_servant_is_secret_until_revealed():
    game = started()
    table = game.view()
    a_for_b = next(p for p in game.view(Viewer("seat", "b"))["players"] if p["seat"] == "a")
    a_for_a = next(p for p in game.view(Viewer("seat", "a"))["players"] if p["seat"] == "a")
    assert table["players"][0]["hero"] is None and a_for_b["hero"] is None and a_for_b["stats"] is None
    assert a_for_a["stats"] == [9, 8, 4, 8] and a_for_a["hero"]["name"] == "アルトリア"
    secret = [e for e in game.events if e.type == "ace_royal.servant_set"]
    # the table and the other seats read only that it was set (players[].servant_set), never the cards
    assert all(visible_event(e, game.state, TABLE)["data"] == {"seat": e.data["seat"], "rule": "A-1"} for e in secret)
    assert visible_event(secret[0], game.state, Viewer("seat", "a"))["data"] == secret[0].data
    assert visible_event(secret[0], game.state, Viewer("seat", "b"))["data"] == {"seat": "a", "rule": "A-1"}
    to_step(game, "ritual")
    game.act("reveal", {"what": "hero"}, who="a")
    a = game.view()["players"][0]
    assert a["hero"]["name"] == "アルトリア" and a["class"] is None and a["stats"] is None
    assert game.c("a", "hand") == 4 + 1 + 2  # draw step + 2 for the revealed card
    assert a["state"] == "rise"


def test_a1_another_player_cannot_set_my_servant():
    game = Game(3)
    game.act("setup", {})
    with pytest.raises(Forbidden):
        game.act("set_servant", {**SABER, "seat": "b"}, who="a")


def test_class_exchange_from_the_last_drawer_counter_clockwise():
    game = Game(4)
    game.act("setup", {})
    game.act("roll_first", dice=[1, 6, 2, 3])  # b first: the last drawer is a, then d, c, b
    for s in "abcd":
        game.act("set_servant", SABER, who=s)
    game.act("leftover_classes", {"classes": [{"name": "ランサー", "stats": "2/2/2/2"}]})
    assert game.g["exchange"]["queue"] == ["a", "d", "c", "b"]
    with pytest.raises(GmError):
        game.act("exchange_class", {"pick": 0}, who="d")
    game.act("exchange_class", {"pick": 0}, who="a")
    a = game.view()["players"][0]
    assert a["class"]["name"] == "ランサー" and a["hero"] is None
    assert game.g["exchange"]["pool"][0]["name"] == "セイバー"
    game.act("exchange_class", {"pick": "pass"}, who="d")
    assert game.g["exchange"]["queue"] == ["c", "b"]
    with pytest.raises(GmError):
        game.act("set_servant", SABER, who="a")  # an exchanged class is public


def test_a1_the_game_starts_only_after_the_class_exchange():
    """start_game was accepted while the exchange still waited for players: the leftover classes leave the table when
    the exchange ends, then the servants are set (A-1). Now a 409 naming whose turn it is, and nothing is written."""
    game = Game(3)
    game.act("setup", {})
    game.act("roll_first", dice=[6, 2, 1])  # a first: the exchange runs c, b, a
    for s in "abc":
        game.act("set_servant", SABER, who=s)
    game.act("leftover_classes", {"classes": [{"name": "ランサー", "stats": "2/2/2/2"}]})
    game.act("exchange_class", {"pick": "pass"}, who="c")
    before = len(game.events)
    with pytest.raises(Conflict) as refused:
        game.act("start_game")
    assert refused.value.status == 409
    assert "クラス交換" in refused.value.ja and "Bさん" in refused.value.ja and "class exchange" in refused.value.en
    assert len(game.events) == before and game.g["phase"] == "setup"
    game.act("exchange_class", {"pick": 0}, who="b")
    game.act("exchange_class", {"pick": "pass"}, who="a")
    game.act("start_game")
    assert game.g["phase"] == "play" and game.g["players"]["b"]["class"]["name"] == "ランサー"


def test_turn_steps_rise_draw_ritual_end():
    game = started()
    assert game.g["turns"]["current"] == "a" and game.g["step"] == "rise"
    with pytest.raises(GmError):
        game.act("step", who="b")  # not b's turn
    game.act("step", who="a")
    game.act("step", who="a")
    assert game.c("a", "hand") == 5
    game.act("step", who="a")  # no placement, no reveal, no attack: straight to the end step
    assert game.g["step"] == "end"
    game.act("step", who="a")
    assert game.c("a", "hand") == 4  # A-11 discard to 4
    assert game.g["turns"]["current"] == "b" and game.g["step"] == "rise"


def _turn(game, seat):
    assert game.g["turns"]["current"] == seat
    to_step(game, "end")
    game.act("step")


def test_a5_active_master_passes_after_the_first_full_round():
    game = started(3)
    for s in "abc":
        assert game.g["active"] == "a"
        _turn(game, s)
    assert game.g["active"] == "b" and game.c("b", "mana") == 4 and game.c("a", "mana") == 5
    assert game.g["turns"]["round"] == 2
    assert "一巡ごと" in game.view()["newest"]["text"]["ja"] or any(
        "一巡ごと" in RULESET.event_type(e.type).describe(visible_event(e, game.state, TABLE), game.state, "ja")
        for e in game.events if e.type == "ace_royal.master_passed")
    for s in "ab":
        _turn(game, s)
    assert game.g["active"] == "b"
    _turn(game, "c")
    assert game.g["active"] == "c" and game.c("c", "mana") == 4


def test_a5_active_master_reading_every_turn_after_the_first_round():
    game = started(3)
    game._write(commands.set_reading(game.state, "master_pass", "turn"), "gm")
    for s in "ab":
        _turn(game, s)
    assert game.g["active"] == "a"
    _turn(game, "c")
    assert game.g["active"] == "b"
    _turn(game, "a")
    assert game.g["active"] == "c"


def test_a4_rise_step_raises_down_and_danger_loss_goes_down():
    game = started()
    game.act("set_state", {"seat": "a", "state": "down"})
    game.act("step")
    assert game.g["players"]["a"]["state"] == "rise"
    game.act("set_state", {"seat": "b", "state": "danger"})
    game.act("adjust", {"seat": "b", "key": "mana", "delta": -1})
    assert game.g["players"]["b"]["state"] == "down"


def test_a6_encounter_only_after_placing_or_revealing_and_random_target():
    game = started(4)
    to_step(game, "ritual")
    game.act("place_code", {}, who="a")
    assert game.c("a", "codes") == 1 and game.c("a", "hand") == 4
    with pytest.raises(GmError):
        game.act("declare_attack", {"target": "b"}, who="a")
    game.act("step")
    assert game.g["step"] == "encounter"
    game.act("encounter_roll", dice=[1, 5, 4, 2])  # others b, c, d: 5 and 4 re-rolled, 2 = c
    c = game.g["combat"]
    assert (c["attacker"], c["interceptor"], c["how"]) == ("a", "c", "encounter")
    assert game.g["players"]["a"]["hero_revealed"] and game.g["players"]["c"]["class_revealed"]
    assert game.c("a", "hand") == 4  # disclosure draws nothing (reading disclosure_draw: none)


def test_a6_encounter_nothing_on_two_to_six():
    game = started()
    to_step(game, "ritual")
    game.act("reveal", {"what": "both"}, who="a")
    assert game.c("a", "hand") == 5 + 4
    game.act("step")
    game.act("encounter_roll", dice=[3])
    assert game.g["step"] == "end" and game.g["combat"] is None


def test_a6_gatekeeper_flips_roles():
    kojiro = {"hero": {"name": "佐々木小次郎", "stats": [5, 3, 1, 1], "skills": ["山門の守護"]},
              "class": {"name": "アサシン", "stats": [1, 1, 1, 1]}}
    game = started(2, servants={"a": kojiro})
    to_step(game, "ritual")
    with pytest.raises(GmError):
        game.act("declare_attack", {"target": "b"}, who="a")
    game.act("reveal", {"what": "class"}, who="a")
    game.act("step")
    game.act("encounter_roll", dice=[1, 1])
    c = game.g["combat"]
    assert (c["attacker"], c["interceptor"], c["flipped"]) == ("b", "a", True)


def _combat(game, target="b", att="physical"):
    """An attack declared and the attacker's pick made (the attack process, A-7)."""
    to_step(game, "ritual")
    game.act("declare_attack", {"target": target})
    game.act("combat_choose", {"side": "attacker", "kind": att})


def _intercept(game, dfn="physical"):
    """The interceptor's pick: the attack process is over (A-7)."""
    game.act("combat_choose", {"side": "interceptor", "kind": dfn})


def test_a7_combat_damage_down_and_steal():
    game = started()  # both 9/8/4/8
    _combat(game)
    game.act("combat_modifier", {"side": "attacker", "stat": "patk", "value": 2, "label": "礼装"}, who="a")
    _intercept(game)
    game.act("combat_resolve", {})  # a: 11 vs 8 → 3; b: 9 vs 8 → 1: both damaged, no steal
    assert game.c("b", "mana") == 2 and game.c("a", "mana") == 4
    assert game.g["players"]["a"]["state"] == "down" and game.g["players"]["b"]["state"] == "down"
    assert game.g["step"] == "end" and game.g["combat"] is None
    assert "内訳" not in game.view()["newest"]["text"]["ja"]


def test_a7_the_attacker_picks_first_the_interceptor_in_the_interception_process():
    game = started()  # both 9/8/4/8
    to_step(game, "ritual")
    game.act("declare_attack", {"target": "b"})
    with pytest.raises(Conflict, match="襲撃側が攻撃手段を選んだ後"):
        game.act("combat_choose", {"kind": "magical"}, who="b")  # the interceptor cannot pick first
    with pytest.raises(Conflict):
        game.act("combat_resolve", {})
    game.act("combat_choose", {"kind": "physical"}, who="a")
    game.act("combat_choose", {"kind": "magical"}, who="b")  # the attack process is over
    assert game.g["combat"]["strike"] == {"kind": "physical", "atk": 9, "def": 8, "damage": 1, "skipped": False}
    with pytest.raises(Conflict, match="襲撃プロセスは終わりました"):
        game.act("combat_choose", {"kind": "magical"}, who="a")


def test_a7_a_pick_changes_only_after_a_card_changed_the_stats():
    game = started()
    _combat(game)
    with pytest.raises(Conflict, match="ステータスが変わった後だけ"):
        game.act("combat_choose", {"kind": "magical"}, who="a")
    game.act("combat_modifier", {"side": "attacker", "stat": "matk", "value": 6, "label": "シーンカード"}, who="a")
    game.act("combat_choose", {"kind": "magical"}, who="a")  # a card changed the stats: the attacker may switch
    assert game.g["combat"]["attacker_side"]["kind"] == "magical"
    _intercept(game)
    with pytest.raises(Conflict, match="ステータスが変わった後だけ"):
        game.act("combat_choose", {"kind": "magical"}, who="b")


def test_a7_the_strike_is_judged_when_the_attack_process_ends():
    game = started()  # both 9/8/4/8
    _combat(game)
    _intercept(game)  # the attacker's damage judgement: 9 vs 8 → 1
    game.act("combat_modifier", {"side": "attacker", "stat": "patk", "value": 5, "label": "遅れた礼装"}, who="a")
    game.act("combat_resolve", {})  # the late card counts in the interception only: b 9 vs 8 → 1
    res = game.g["last_combat"]["result"]["result"]
    assert res["attack"]["atk"] == 9 and res["attack"]["damage"] == 1
    assert game.c("b", "mana") == 4 and game.c("a", "mana") == 4


def test_a2_a_counter_set_on_the_core_panel_eliminates_at_once():
    game = started()
    game._write(commands.change_counter(game.state, "b", "mana", value=0), "gm")
    assert game.g["players"]["b"]["out"] == "mana"
    game._write(commands.change_counter(game.state, "c", "assassin", delta=5), "gm")
    assert game.g["players"]["c"]["out"] == "assassin"
    assert game.g["over"] and game.g["winner"] == "a"


def test_a4_mana_lost_on_the_core_panel_in_danger_goes_down():
    game = started()
    game.act("set_state", {"seat": "b", "state": "danger"})
    game._write(commands.change_counter(game.state, "b", "mana", delta=-1), "gm")
    assert game.g["players"]["b"]["state"] == "down" and not game.g["players"]["b"]["out"]


def test_a7_one_sided_damage_steals_a_card():
    weak = {"hero": {"name": "弱", "stats": [0, 6, 0, 0]}, "class": {"name": "キャスター", "stats": [0, 0, 0, 0]}}
    game = started(servants={"b": weak})
    _combat(game)
    hand_a = game.c("a", "hand")
    _intercept(game)
    game.act("combat_resolve", {}, dice=[2])
    assert game.c("b", "hand") == 3 and game.c("a", "hand") == hand_a + 1
    stolen = [e for e in game.events if e.type == "ace_royal.stolen"][0]
    assert stolen.data["position"] == 2 and stolen.data["hand"] == 4


def test_a7_first_strike_skips_the_interception():
    fast = {"hero": {"name": "速", "stats": [9, 1, 0, 0], "skills": ["先制"]}, "class": {"name": "ランサー", "stats": [0, 0, 0, 0]}}
    game = started(servants={"a": fast})
    _combat(game)
    with pytest.raises(Conflict):  # 先制 dealt damage: no interception process, nothing to pick
        _intercept(game)
    game.act("combat_resolve", {}, dice=[1])
    res = game.g["last_combat"]["result"]["result"]
    assert res["intercept"] is None and game.c("a", "mana") == 5 and game.c("b", "mana") == 4


def test_a7_out_at_zero_and_last_servant_wins():
    strong = {"hero": {"name": "強", "stats": [20, 20, 0, 0]}, "class": {"name": "セイバー", "stats": [0, 0, 0, 0]}}
    game = started(2, servants={"a": strong})
    _combat(game)
    _intercept(game)
    types = game.act("combat_resolve", {})  # b is out: nothing is stolen from a player who left
    assert "ace_royal.out" in types and "ace_royal.stolen" not in types
    assert game.g["players"]["b"]["out"] == "mana"
    assert game.g["over"] and game.g["winner"] == "a"
    # the write-up ends with the result under its final table, as every game's does (b's flag says it is out once)
    for lang, flag, line in (("ja", "魔力切れ（脱落）", "結果：Aさんの勝利（A-7）"),
                             ("en", "No mana left (out)", "Result: Aさん wins (A-7)")):
        report = build_report(game.events, RULESET, Options(lang=lang, times=False))
        assert report.standings[1][0] == "Bさん" and report.standings[1][-1] == flag and report.standings_lines == [line]


def test_a7_mutual_knock_out_has_no_winner():
    glass = {"hero": {"name": "硝子", "stats": [20, 0, 0, 0]}, "class": {"name": "セイバー", "stats": [0, 0, 0, 0]}}
    game = started(2, servants={"a": glass, "b": glass})
    _combat(game)
    _intercept(game)
    assert build_report(game.events, RULESET).standings_lines == ["結果：未決着（ゲーム中）"]
    game.act("combat_resolve", {})
    assert game.g["players"]["a"]["out"] and game.g["players"]["b"]["out"]
    assert game.g["over"] and game.g["winner"] is None
    assert "勝者なし" in game.view()["newest"]["text"]["ja"]
    assert build_report(game.events, RULESET, Options(lang="en")).standings_lines == [
        "Result: no winner, a mutual knock-out (A-7)"]


def test_a8_quick_combat_dice_and_reroll_with_a_seal():
    game = started(version="quick")
    _combat(game)
    with pytest.raises(GmError):
        game.act("combat_resolve", {})
    game.act("combat_roll", {"side": "attacker"}, who="a", dice=[1, 1, 3])
    game.act("combat_roll", {"side": "interceptor"}, who="b", dice=[6])
    game.act("use_seal", {"effect": 2}, who="b", dice=[2])  # quick seal 2: re-roll your die
    assert game.g["combat"]["interceptor_side"]["faces"] == [2]
    preview = game.view()["combat"]["preview"]
    assert preview["attacker"]["stats"] == [14, 13, 9, 13] and preview["interceptor"]["stats"] == [11, 10, 6, 10]
    _intercept(game)
    game.act("combat_resolve", {}, dice=[1])  # 14 vs 10 → 4; interceptor 11 vs 13 → 0; steal
    assert game.c("b", "mana") == 4 and game.c("a", "mana") == 8


def test_a9_proxy_with_charisma_and_legion_from_a_hero_card():
    iskandar = {"hero": {"name": "イスカンダル", "stats": [5, 3, 5, 3], "skills": ["カリスマ"]},
                "class": {"name": "ライダー", "stats": [1, 1, 1, 1]}}
    game = started(servants={"a": iskandar})
    _combat(game)
    game.act("combat_proxy", {"side": "attacker", "name": "王の軍勢", "stats": "7/8/7/4", "legion": True,
                              "source": "hero"}, who="a")
    assert game.view()["combat"]["preview"]["attacker"]["stats"] == [11, 10, 11, 6]
    hand = game.c("a", "hand")
    _intercept(game)
    game.act("combat_resolve", {}, dice=[4])  # 11 vs 8 → 3; back 9 vs 10 → 0: a steals card 4
    assert game.c("b", "mana") == 2 and game.c("a", "hand") == hand + 1


def test_a9_proxy_from_a_mystic_code_discards_the_code_not_mana():
    tough = {"hero": {"name": "強", "stats": [9, 20, 0, 0]}, "class": {"name": "セイバー", "stats": [0, 0, 0, 0]}}
    game = started(servants={"b": tough})
    to_step(game, "ritual")
    game.act("set_state", {"seat": "a", "state": "rise"})
    game.act("adjust", {"seat": "a", "key": "codes", "delta": 1})
    game.act("declare_attack", {"target": "b"})
    game.act("combat_choose", {"side": "attacker", "kind": "physical"})
    game.act("combat_proxy", {"side": "attacker", "name": "使い魔", "stats": [1, 1, 1, 1], "source": "code"})
    game.act("combat_choose", {"side": "interceptor", "kind": "physical"})
    game.act("combat_resolve", {}, dice=[1])
    assert game.c("a", "mana") == 5 and game.c("a", "codes") == 0


def test_a9_proxy_from_a_hero_without_a_code_in_hand_goes_danger():
    tough = {"hero": {"name": "強", "stats": [9, 20, 0, 0]}, "class": {"name": "セイバー", "stats": [0, 0, 0, 0]}}
    game = started(servants={"b": tough})
    _combat(game)
    game.act("combat_proxy", {"side": "attacker", "name": "影", "stats": [1, 1, 1, 1], "source": "hero"})
    _intercept(game)
    game.act("combat_resolve", {"attacker_hand_code": False}, dice=[1])
    assert game.c("a", "mana") == 5 and game.g["players"]["a"]["state"] == "danger"


def test_a9_an_unanswered_hero_proxy_is_never_assumed_to_hold_a_code():
    """A-9: a hero card's proxy that takes damage discards a mystic code from the hand, or goes Danger with none. The
    resolve used to assume a code whenever the hand was not empty, so the other side resolving first (it may not
    answer for the hand, 403) decided it for the proxy's player: now nobody's silence decides it (409, nothing
    written) until the player or the GM says it."""
    tough = {"hero": {"name": "強", "stats": [9, 20, 0, 0]}, "class": {"name": "セイバー", "stats": [0, 0, 0, 0]}}
    game = started(servants={"b": tough})
    _combat(game)
    game.act("combat_proxy", {"side": "attacker", "name": "影", "stats": [1, 1, 1, 1], "source": "hero"}, who="a")
    _intercept(game)  # b's physical 9 vs the proxy's 1 → 8 to the proxy; 1 vs 20 → 0 to b
    assert game.view()["combat"]["hand_code_due"] == {"attacker": True, "interceptor": False}
    hand, events = game.c("a", "hand"), len(game.events)
    for who in ("b", "a", "gm"):
        with pytest.raises(Conflict) as refused:
            game.act("combat_resolve", {}, who=who, dice=[1])
        name = game.state.seat_name("a")
        assert (refused.value.ja, refused.value.en) == (
            f"{name} の代理戦闘がダメージを受けます: 手札に捨てられる礼装カードがあるかを {name} かGMが答えてから解決します（A-9）",
            f"{name}'s proxy takes damage: {name} or the GM says whether {name}'s hand holds a mystic code to discard "
            "before the combat is resolved (A-9)")
    assert len(game.events) == events and game.c("a", "hand") == hand and game.g["combat"]
    game.act("combat_resolve", {"attacker_hand_code": True}, who="a", dice=[1])
    # one code discarded, one card stolen by b; Down for the damage beyond 1; no mana lost
    assert game.c("a", "hand") == hand - 2 and game.c("a", "mana") == 5 and game.g["players"]["a"]["state"] == "down"


def test_a3_seals_standard_effects_and_all_used_is_out_even_with_independent_action():
    loner = {"hero": {"name": "アーチャー", "stats": [1, 1, 1, 1], "skills": ["単独行動"]},
             "class": {"name": "アーチャー", "stats": [1, 1, 1, 1]}}
    game = started(3, servants={"b": loner})
    game.act("adjust", {"seat": "b", "key": "mana", "delta": -2})
    game.act("adjust", {"seat": "b", "key": "assassin", "delta": 1})
    game.act("set_state", {"seat": "b", "state": "danger"})
    game.act("use_seal", {"effects": [{"effect": 1}, {"effect": 3, "coin": "assassin"}]}, who="b")
    assert game.c("b", "mana") == 4 and game.c("b", "assassin") == 0 and game.c("b", "seals") == 1
    with pytest.raises(GmError):
        game.act("use_seal", {"effects": [1, 5]}, who="b")  # one seal left
    types = game.act("use_seal", {"effect": 5}, who="b")
    assert game.g["players"]["b"]["state"] == "rise"
    assert "ace_royal.out" in types and game.g["players"]["b"]["out"] == "seals"


def test_a3_a_seal_the_servant_has_nothing_left_for_is_refused_not_spent():
    """Two seals of effect 3 on the one 暗殺 coin, or two of effect 5, spent both seals and did the effect once
    (a player with two seals left went out, A-2): the second is refused (409) and nothing is spent."""
    game = started()
    game.act("adjust", {"seat": "b", "key": "assassin", "delta": 1})
    before = len(game.events)
    with pytest.raises(Conflict):
        game.act("use_seal", {"effects": [{"effect": 3, "coin": "assassin"}, {"effect": 3, "coin": "assassin"}]}, who="b")
    game.act("set_state", {"seat": "b", "state": "down"})
    with pytest.raises(Conflict):
        game.act("use_seal", {"effects": [{"effect": 5}, {"effect": 5}]}, who="b")
    assert len(game.events) == before + 1 and game.c("b", "seals") == 3 and game.c("b", "assassin") == 1
    game.act("adjust", {"seat": "b", "key": "assassin", "delta": 1})
    game.act("use_seal", {"effects": [{"effect": 3, "coin": "assassin"}, {"effect": 3, "coin": "assassin"}]}, who="b")
    assert game.c("b", "assassin") == 0 and game.c("b", "seals") == 1


def test_a3_seal_three_cancels_a_lethal_coin_placement_before_the_master_dies():
    """A-3 effect 3 cancels one special-coin placement on the player: seal 3 could only take off a coin already on the
    servant, so a placement that would lift the count above the hand (A-10) killed the master in the same action, and
    the seal could no longer answer it. With `placement` the effect is cancelled before its coins are placed."""
    game = started()
    game.act("adjust", {"seat": "b", "key": "assassin", "delta": 4})  # 4 coins, a hand of 4: one more kills
    before = game.c("b", "assassin")
    types = game.act("use_seal", {"effect": 3, "coin": "assassin", "placement": 2}, who="b")
    assert types == ["ace_royal.seal_used", "counter.changed"] and not game.g["players"]["b"]["out"]
    assert game.c("b", "assassin") == before and game.c("b", "seals") == 2
    assert game.events[-2].data["effects"] == [{"effect": 3, "coin": "assassin", "placement": 2}]
    line = RULESET.event_type("ace_royal.seal_used").describe(
        {"type": "ace_royal.seal_used", "data": game.events[-2].data}, game.state, "en")
    assert "assassin (placement of 2 cancelled)" in line
    for bad in (0, -1, "x", 100):
        with pytest.raises(GmError):
            game.act("use_seal", {"effect": 3, "coin": "depletion", "placement": bad}, who="b")
    assert game.c("b", "seals") == 2


@pytest.mark.parametrize("version", ["standard", "quick"])
def test_a3_seal_one_at_the_mana_limit_is_refused_not_spent(version):
    """Seal effect 1 at the 魔力 limit (30) spent the seal and recovered nothing, silently (A-3): now a 409 saying there is
    nothing to recover and how the GM raises the limit; one effect 1 too many in a list is refused the same way."""
    game = started(version=version)
    game.act("adjust", {"seat": "b", "key": "mana", "delta": 30 - game.c("b", "mana")})
    before = len(game.events)
    for effects in ([1], [{"effect": 4, "text": "宝具"}, 1]):
        with pytest.raises(Conflict) as refused:
            game.act("use_seal", {"effects": effects}, who="b")
        assert refused.value.status == 409 and "回復するものがありません" in refused.value.ja
        assert "nothing to recover" in refused.value.en
    game.act("adjust", {"seat": "b", "key": "mana", "delta": -1})
    with pytest.raises(Conflict):
        game.act("use_seal", {"effects": [1, 1]}, who="b", dice=[1] if version == "quick" else [])
    assert len(game.events) == before + 1 and game.c("b", "seals") == 3
    game.act("use_seal", {"effect": 1}, who="b", dice=[4] if version == "quick" else [])
    assert game.c("b", "mana") == 30 and game.c("b", "seals") == 2


def test_a3_standard_seal_two_without_a_mystic_code_is_refused_not_spent():
    """Standard seal effect 2 adds the number of the player's mystic codes on the field (A-3): with none it was +0 and the
    seal was spent anyway; now a 409 and nothing is written."""
    game = started()
    before = len(game.events)
    with pytest.raises(Conflict) as refused:
        game.act("use_seal", {"effect": 2, "stat": "patk"}, who="a")
    assert refused.value.status == 409 and "礼装" in refused.value.ja and "No mystic code" in refused.value.en
    assert len(game.events) == before and game.c("a", "seals") == 3 and game.g["players"]["a"]["turn_mods"] == []


def test_adjust_above_the_counters_limit_is_refused_not_cut():
    """adjust {"key": "hand", "delta": 1000000000} set the hand to 30 without a word, and +1 at the limit (a phone's
    hand button) answered OK and did nothing: now a 400 saying the limit, and nothing is written."""
    game = started()
    before = len(game.events)
    for seat, key, delta, who in (("a", "hand", 10**9, "gm"), ("a", "seals", 1, "gm"), ("a", "codes", 100, "gm"),
                                  ("a", "hand", 27, "a")):
        with pytest.raises(GmError) as refused:
            game.act("adjust", {"seat": seat, "key": key, "delta": delta}, who=who)
        assert refused.value.status == 400 and "GM" in refused.value.en and "カウンター" in refused.value.ja
    assert len(game.events) == before
    game.act("adjust", {"key": "hand", "delta": 26}, who="a")
    assert game.c("a", "hand") == 30


def test_a3_standard_seal_two_raises_a_stat_by_the_codes_this_turn():
    game = started()
    game.act("adjust", {"seat": "a", "key": "codes", "delta": 2})
    game.act("use_seal", {"effect": 2, "stat": "patk"}, who="a")
    _combat(game)
    assert game.view()["combat"]["preview"]["attacker"]["stats"][0] == 11


def test_a10_assassination_kills_the_master():
    game = started()
    types = game.act("adjust", {"seat": "b", "key": "assassin", "delta": 5})
    assert "ace_royal.out" in types and game.g["players"]["b"]["out"] == "assassin"
    # every player out is flagged out with its reason, as 魔力切れ（脱落） was alone: on each screen's seat
    # list and the write-up's final table, in both languages (a player out of seals or killed by coins had no flag)
    game.act("adjust", {"seat": "c", "key": "seals", "delta": -3})
    assert game.g["players"]["c"]["out"] == "seals"
    seats = {s["id"]: s["flags"] for s in build_view(game.state, TABLE)["seats"]}
    assert seats["b"] == [{"flag": "ace_royal_out_assassin", "label": {"ja": "暗殺でマスター死亡（脱落）",
                                                                       "en": "Master assassinated (out)"}}]
    assert [f["label"]["en"] for f in seats["c"]] == ["No Command Seals left (out)"] and seats["a"] == []
    for lang, flags in (("ja", ["", "暗殺でマスター死亡（脱落）", "令呪切れ（脱落）"]),
                        ("en", ["", "Master assassinated (out)", "No Command Seals left (out)"])):
        report = build_report(game.events, RULESET, Options(lang=lang, times=False))
        assert [row[-1] for row in report.standings] == flags, report.standings
    # out for seals, then at 0 魔力 (the active master's pass, the GM's counter): one flag, the reason they went out
    # (the 魔力 counter's own 魔力切れ（脱落） was shown beside it)
    game = started(4)  # (four: the game goes on)
    game.act("adjust", {"seat": "c", "key": "seals", "delta": -3})
    game.act("adjust", {"seat": "c", "key": "mana", "delta": -game.c("c", "mana")})
    assert game.c("c", "mana") == 0 and "ace_royal_out" in game.state.flags["c"]
    for viewer in (TABLE, GM, Viewer("seat", "c")):
        seats = {s["id"]: s["flags"] for s in build_view(game.state, viewer)["seats"]}
        assert [f["flag"] for f in seats["c"]] == ["ace_royal_out_seals"], viewer


def test_a10_depletion_counted_apart():
    game = started()
    game.act("adjust", {"seat": "b", "key": "assassin", "delta": 3})
    game.act("adjust", {"seat": "b", "key": "depletion", "delta": 3})
    assert not game.g["players"]["b"]["out"]
    game.act("adjust", {"seat": "b", "key": "hand", "delta": -2})
    assert game.g["players"]["b"]["out"] == "assassin"


def test_a10_independent_action_fights_on_without_master_or_seals():
    loner = {"hero": {"name": "アーチャー", "stats": [1, 1, 1, 1], "skills": ["independent"]},
             "class": {"name": "アーチャー", "stats": [1, 1, 1, 1]}}
    game = started(servants={"b": loner})
    types = game.act("adjust", {"seat": "b", "key": "depletion", "delta": 5})
    assert "ace_royal.masterless" in types and not game.g["players"]["b"]["out"]
    with pytest.raises(GmError):
        game.act("use_seal", {"effect": 1}, who="b")


def test_a2_elimination_passes_the_turn_and_is_undoable():
    game = started()
    game.act("adjust", {"seat": "a", "key": "mana", "delta": -5})
    assert game.g["players"]["a"]["out"] == "mana" and game.g["turns"]["current"] == "b"
    game.undo()
    assert not game.g["players"]["a"]["out"] and game.c("a", "mana") == 5 and game.g["turns"]["current"] == "a"


def test_refusals_change_nothing():
    game = started()
    before = len(game.events)
    for name, payload, who in [("reveal", {"what": "hero"}, "a"), ("declare_attack", {"target": "a"}, "a"),
                               ("combat_resolve", {}, "gm"), ("use_seal", {"effect": 9}, "a"),
                               ("adjust", {"key": "mana", "delta": 1}, "a"), ("encounter_roll", {}, "a"),
                               ("set_state", {"state": "flying"}, "a"), ("combat_choose", {"kind": "x"}, "a")]:
        with pytest.raises(GmError):
            game.act(name, payload, who=who)
    assert len(game.events) == before


def test_entered_dice_mark_the_roll():
    game = Game(2)
    game.act("setup", {})
    a = RULESET.actions["roll_first"]
    dice = EnteredDice([4, 2])
    drafts = a.fn(game.state, {}, ActionContext("gm", GM, dice, lambda: "s", {}))
    game._write(drafts, "gm")
    assert game.g["first"] == "a"
    text = RULESET.event_type("ace_royal.first_rolled").describe(
        visible_event(game.events[-1], game.state, TABLE), game.state, "ja")
    assert "実ダイス" in text


def test_forms_post_flat_fields_and_lines():
    game = Game(2)
    game.act("setup", {})
    game.act("roll_first", dice=[6, 1])
    game.act("set_servant", {"hero_name": "エミヤ", "hero_stats": "4/3/4/3", "hero_skills": ["単独行動"],
                             "class_name": "アーチャー", "class_stats": "2 2 2 2"}, who="b")
    assert game.g["players"]["b"]["hero"]["skills"] == ["independent"]
    game.act("set_servant", SABER, who="a")
    game.act("leftover_classes", {"classes": "ランサー 2/2/2/2 先制\nバーサーカー 5/1/0/0\n"})
    assert [c["name"] for c in game.g["exchange"]["pool"]] == ["ランサー", "バーサーカー"]
    assert game.g["exchange"]["pool"][0]["skills"] == ["first_strike"]
    with pytest.raises(GmError):
        game.act("leftover_classes", {"classes": "ランサー"})


@pytest.mark.parametrize("state", ["danger", "down"])
def test_a4_danger_and_down_cannot_attack_but_are_attacked(state):
    game = started()
    to_step(game, "ritual")
    game.act("set_state", {"seat": "a", "state": state})
    with pytest.raises(GmError):
        game.act("declare_attack", {"target": "b"})
    game.act("set_state", {"seat": "a", "state": "rise"})
    game.act("set_state", {"seat": "b", "state": state})
    game.act("declare_attack", {"target": "b"})
    assert game.g["combat"]["interceptor"] == "b"


@pytest.mark.parametrize("line,shown", [
    ("戦闘結果: 襲撃 ⇒ 3ダメージ（A-7）", "戦闘結果: 襲撃 ⇒ 3ダメージ"),
    ("撤退プロセス: 凛 が奪う（1d4、A-7）", "撤退プロセス: 凛 が奪う（1d4）"),
    ("Withdrawal: steals (1d4, A-7)", "Withdrawal: steals (1d4)"),
    ("凛: 魔力 5→4 (-1)（戦闘ダメージ [A-7]）", "凛: 魔力 5→4 (-1)（戦闘ダメージ）"),
])
def test_players_screens_read_words_not_rule_codes(line, shown):
    from gmtool.rulesets.ace_royal.view import plain
    assert plain(line) == shown


def test_a_seal_that_rolls_nothing_is_not_marked_real_dice_under_the_entered_reading():
    from gmtool.core.dice import dice_for
    game = started()
    a = RULESET.actions["use_seal"]
    dice = dice_for("entered", FixedDice([]), {})
    drafts = a.fn(game.state, {"effect": 1}, ActionContext("seat:a", Viewer("seat", "a"), dice, lambda: "s", {}))
    game._write(drafts, "seat:a")
    assert game.c("a", "mana") == 6
    used = next(d for t, d in drafts if t == "ace_royal.seal_used")
    assert used["entered"] is False
    with pytest.raises(GmError):  # a roll under the entered reading asks for the faces
        to_step(game, "ritual")
        game.act("reveal", {"what": "both"}, who="a")
        game.act("step")
        RULESET.actions["encounter_roll"].fn(game.state, {}, ActionContext("gm", GM, dice, lambda: "s", {}))


def test_a2_seating_order_by_names_from_the_console():
    game = Game(3)
    game.act("setup", {"order": "Cさん, Bさん、Aさん"})
    assert game.g["order"] == ["c", "b", "a"]
    with pytest.raises(GmError):
        Game(3).act("setup", {"order": "Aさん, Aさん, Bさん"})
    with pytest.raises(GmError):
        Game(3).act("setup", {"order": "Aさん, 誰か"})


def test_a3_seal_two_lasts_for_the_turn_it_was_used_in_even_for_the_other_player():
    game = started()
    game.act("adjust", {"seat": "b", "key": "codes", "delta": 1})
    game.act("use_seal", {"effect": 2, "stat": "pdef"}, who="b")
    assert game.g["players"]["b"]["turn_mods"]
    to_step(game, "end")
    game.act("step")
    assert game.g["players"]["b"]["turn_mods"] == []


@pytest.mark.parametrize("seed", range(4))
def test_random_games_run_to_a_finish_and_refold_the_same(seed):
    """Random legal and illegal moves with the server's dice: refusals are GmErrors, the counters stay in
    bounds, and the log folds again to the same state (the replay)."""
    import random

    from gmtool.core.dice import SeededDice

    rng = random.Random(seed)
    game = Game(4)
    dice = SeededDice(bytes([seed]) * 32)
    servants = {s: {"hero": {"name": f"英霊{s}", "stats": [rng.randint(2, 8) for _ in range(4)],
                             "skills": rng.sample(["先制", "見切り", "カリスマ", "単独行動", "山門の守護"], rng.randint(0, 2))},
                    "class": {"name": f"クラス{s}", "stats": [rng.randint(0, 4) for _ in range(4)]}} for s in "abcd"}

    def act(name, payload, who="gm"):
        a = RULESET.actions[name]
        viewer = GM if who == "gm" else Viewer("seat", who)
        try:
            drafts = a.fn(game.state, payload, ActionContext("gm", viewer, dice, lambda: "s", {}))
        except GmError:
            return False
        game._write(drafts, "gm")
        return True

    assert act("setup", {"version": rng.choice(["standard", "quick"])})
    assert act("roll_first", {})
    for s in "abcd":
        assert act("set_servant", servants[s], who=s)
    assert act("start_game", {})
    for _ in range(400):
        if game.g["over"]:
            break
        g = game.g
        cur = g["turns"]["current"]
        others = [s for s in "abcd" if s != cur and not g["players"][s]["out"]]
        choice = rng.random()
        if g["combat"]:
            c = g["combat"]
            for side in ("attacker", "interceptor"):
                act("combat_choose", {"side": side, "kind": rng.choice(["physical", "magical"])})
                act("combat_roll", {"side": side})
            if rng.random() < 0.2:
                act("use_seal", {"seat": rng.choice([c["attacker"], c["interceptor"]]), "effect": rng.randint(1, 5),
                                 "stat": "patk", "coin": "assassin"})
            act("combat_resolve", {})
        elif g["step"] == "ritual" and choice < 0.4 and others:
            act("declare_attack", {"target": rng.choice(others)})
        elif g["step"] == "ritual" and choice < 0.6:
            act(rng.choice(["place_code", "reveal"]), {"what": "both"})
        elif g["step"] == "encounter":
            act("encounter_roll", {})
        elif choice < 0.05:
            act("adjust", {"seat": rng.choice("abcd"), "key": rng.choice(["assassin", "depletion", "hand"]), "delta": 1})
        else:
            act("step", {})
        for s in "abcd":
            assert all(v >= 0 for v in game.state.counters[s].values())
    assert game.g["over"], "a game of random moves ends within 400 actions"
    standing = [s for s in "abcd" if not game.g["players"][s]["out"]]
    assert game.g["winner"] == (standing[0] if standing else None)
    again = engine.fold(game.events, RULESET)
    assert again.extra == game.state.extra and again.counters == game.state.counters


def _seal_line(game, lang):
    e = next(e for e in reversed(game.events) if e.type == "ace_royal.seal_used")
    return RULESET.event_type("ace_royal.seal_used").describe({"type": e.type, "data": e.data}, game.state, lang)


def _line(game, event_type, lang):
    e = next(e for e in reversed(game.events) if e.type == event_type)
    return RULESET.event_type(event_type).describe({"type": e.type, "data": e.data}, game.state, lang)


def test_a3_a5_quick_seal_two_re_rolls_the_first_master_die_while_the_opening_is_open():
    """A-3 quick effect 2 re-rolls a die you rolled: gmtool re-rolled only the combat die; the first-active-master die
    (A-5) is one the player rolled too. Before the class exchange's order and the start it may be re-rolled: the
    rounds are walked again (a new tie for the highest rolls again, a tie-break that no longer happens is dropped)."""
    game = Game(3)
    game.act("setup", {"version": "quick"})
    game.act("roll_first", dice=[5, 5, 2, 3, 4])  # a 5→3, b 5→4: b first
    assert game.view(Viewer("seat", "c"))["me"]["rerolls"] == ["first"]
    game.act("use_seal", {"effect": 2, "die": "first"}, who="c", dice=[6])
    assert game.g["first"] == "c" and game.g["first_rolls"] == {"a": [5], "b": [5], "c": [6]}  # the tie-break is gone
    assert game.c("c", "seals") == 2 and game.events[-1].type == "ace_royal.first_rolled"
    assert game.events[-3].data["effects"] == [{"effect": 2, "die": "first", "was": 2, "faces": [6]}]
    assert "（最初のアクティブマスター決定のダイス 2→6）" in _seal_line(game, "ja")
    assert " (first-active-master die 2→6)" in _seal_line(game, "en")
    assert "Cさん re-rolled by Command Seal 2: First active master (1d6)" in _line(game, "ace_royal.first_rolled", "en")
    game.undo()
    assert game.g["first"] == "b" and game.c("c", "seals") == 3
    # real dice (faces) as for any roll
    real = EnteredDice([4])
    viewer = Viewer("seat", "c")
    drafts = RULESET.actions["use_seal"].fn(game.state, {"effect": 2, "die": "first"},
                                            ActionContext("seat:c", viewer, real, lambda: "salt", {}))
    game._write(drafts, "seat:c")
    assert game.g["first_rolls"] == {"a": [5, 3], "b": [5, 4], "c": [4]} and game.g["first"] == "b"  # 4 < 5
    assert game.events[-1].data["entered"] and "［実ダイス］令呪2で Cさん が振り直し" in _line(game, "ace_royal.first_rolled", "ja")
    game.undo()
    # a new tie for the highest rolls again among the tied (reading first_ties): c rolls its second die
    game.act("use_seal", {"effect": 2, "die": "first"}, who="c", dice=[5, 6])
    assert game.g["first_rolls"] == {"a": [5, 3], "b": [5, 4], "c": [5, 6]} and game.g["first"] == "c"
    # not after the exchange's order is set, not the last seal, not before the roll, nothing else before the start
    game.act("use_seal", {"effect": 2, "die": "first"}, who="c", dice=[6])  # its latest die: the second
    assert game.g["first_rolls"]["c"] == [5, 6] and game.c("c", "seals") == 1
    with pytest.raises(Conflict, match="最後の令呪"):
        game.act("use_seal", {"effect": 2, "die": "first"}, who="c", dice=[1])
    with pytest.raises(Conflict, match="ゲームはまだ始まっていません"):
        game.act("use_seal", {"effect": 2}, who="a", dice=[1])
    with pytest.raises(Conflict, match="ゲームはまだ始まっていません"):
        game.act("use_seal", {"effect": 1}, who="a", dice=[1])
    for s in game.g["order"]:
        game.act("set_servant", SABER, who=s)
    game.act("leftover_classes", {"classes": ["ランサー 2/2/2/2"]})
    with pytest.raises(Conflict, match="クラス交換の順番が決まった"):
        game.act("use_seal", {"effect": 2, "die": "first"}, who="a", dice=[1])
    fresh = Game(2)
    fresh.act("setup", {"version": "quick"})
    with pytest.raises(Conflict, match="まだ振っていません"):
        fresh.act("use_seal", {"effect": 2, "die": "first"}, who="a", dice=[1])


def _quick_encounter(dice):
    game = started(version="quick")
    to_step(game, "ritual")
    game.act("reveal", {"what": "hero"})
    game.act("step")
    game.act("encounter_roll", dice=dice)
    return game


def test_a3_a6_quick_seal_two_re_rolls_the_encounter_die_before_its_encounter_went_on():
    """A-3 quick effect 2 x A-6: the encounter die is a die the turn player rolled: a 1 re-rolled into another face
    cancels the encounter (its combat ends, the end step), another face re-rolled into a 1 starts one; once the
    encounter's combat has gone on, or after it, a 409 says the die can no longer be re-rolled. Undo takes it back."""
    game = _quick_encounter([1, 2])  # a 1: c is picked (numbers 1 = b, 2 = c)
    assert game.g["step"] == "combat" and game.view(Viewer("seat", "a"))["me"]["rerolls"] == ["encounter", "opponent"]
    assert game.view(Viewer("seat", "b"))["me"]["rerolls"] == []
    game.act("use_seal", {"effect": 2, "die": "encounter"}, who="a", dice=[4])
    assert game.g["combat"] is None and game.g["step"] == "end" and game.c("a", "seals") == 2
    assert "遭遇戦判定のダイス 1→4" in _seal_line(game, "ja") and "encounter die 1→4" in _seal_line(game, "en")
    assert "令呪2で振り直し: Aさん の遭遇戦判定 1d6 = 4: 遭遇戦は起こらない（A-6）" in _line(game, "ace_royal.encounter_rolled", "ja")
    assert "re-rolled by Command Seal 2: Aさん's encounter roll 1d6 = 4: no encounter (A-6)" in _line(
        game, "ace_royal.encounter_rolled", "en")
    assert "encounter" not in game.view()["turn"]
    # a 4 re-rolled into a 1: the encounter happens now (its opponent rolled as in encounter_roll)
    game.act("use_seal", {"effect": 2, "die": "encounter"}, who="a", dice=[1, 1])
    assert game.g["step"] == "combat" and game.g["combat"]["interceptor"] == "b"
    game.undo()
    assert game.g["combat"] is None and game.g["step"] == "end" and game.c("a", "seals") == 2
    game = _quick_encounter([1, 2])
    # a 1 re-rolled into a 1: the encounter stands (its opponent was picked by the other die)
    game.act("use_seal", {"effect": 2, "die": "encounter"}, who="a", dice=[1])
    assert game.g["combat"]["interceptor"] == "c" and "遭遇戦はそのまま" in _line(game, "ace_royal.encounter_rolled", "ja")
    assert "the encounter stands" in _line(game, "ace_royal.encounter_rolled", "en")
    game.undo()
    with pytest.raises(GmError, match="振り直すダイス"):
        game.act("use_seal", {"effect": 2, "die": "hand"}, who="a")
    game.act("combat_roll", {"side": "attacker"}, dice=[3])
    with pytest.raises(Conflict, match="遭遇戦の戦闘が進んでいます") as refused:
        game.act("use_seal", {"effect": 2, "die": "encounter"}, who="a", dice=[4])
    assert "can no longer be re-rolled (A-6)" in refused.value.en and game.c("a", "seals") == 3
    assert game.view(Viewer("seat", "a"))["me"]["rerolls"] == ["combat"]
    with pytest.raises(Conflict, match="遭遇戦判定のダイスがありません"):
        game.act("use_seal", {"effect": 2, "die": "encounter"}, who="b", dice=[4])


def test_a3_a6_the_encounter_die_is_not_re_rolled_after_its_turn_or_its_combat():
    """A-6: the encounter die belongs to its turn: after the turn ends, or once the encounter's combat is resolved,
    quick seal 2 cannot re-roll it (409), and the standard version's effect 2 stays the +stat."""
    game = _quick_encounter([3])
    assert game.g["step"] == "end"
    game.act("step")  # the turn passes
    with pytest.raises(Conflict, match="遭遇戦判定のダイスがありません"):
        game.act("use_seal", {"effect": 2, "die": "encounter"}, who="a", dice=[1])
    game = _quick_encounter([1, 1])
    game.act("combat_roll", {"side": "attacker"}, dice=[3])
    game.act("combat_roll", {"side": "interceptor"}, dice=[3])
    game.act("combat_choose", {"side": "attacker", "kind": "physical"})
    game.act("combat_choose", {"side": "interceptor", "kind": "physical"})
    game.act("combat_resolve")
    with pytest.raises(Conflict, match="遭遇戦は解決済みです"):
        game.act("use_seal", {"effect": 2, "die": "encounter"}, who="a", dice=[4])


def test_a3_a6_quick_seal_two_re_rolls_the_die_that_picked_the_encounters_opponent():
    """A-3 quick effect 2 re-rolls a die you rolled: the turn player rolls the encounter die and, on a 1, the die that
    picks the opponent (encounter_roll, A-6); only the first could be re-rolled. The opponent die now can, on the same
    terms (this turn's encounter, before its combat went on): numbers nobody holds are rolled again, the same opponent
    keeps the combat, another one fights it instead. Not when only one player can be picked (it would change nothing)."""
    def four_players():
        game = started(n=4, version="quick")
        to_step(game, "ritual")
        game.act("reveal", {"what": "hero"})
        game.act("step")
        game.act("encounter_roll", dice=[1, 2])  # numbers 1 = b, 2 = c, 3 = d: c
        return game

    game = four_players()
    assert game.view(Viewer("seat", "a"))["me"]["rerolls"] == ["encounter", "opponent"]
    game.act("use_seal", {"effect": 2, "die": "opponent"}, who="a", dice=[5, 3])  # 5 is nobody's: rolled again, 3 = d
    c = game.g["combat"]
    assert (c["attacker"], c["interceptor"], c["how"]) == ("a", "d", "encounter") and game.c("a", "seals") == 2
    assert game.g["players"]["d"]["hero_revealed"] and game.g["players"]["c"]["hero_revealed"]  # both disclosed
    sealed = lambda: next(e for e in reversed(game.events) if e.type == "ace_royal.seal_used").data["effects"]  # noqa: E731
    assert sealed() == [{"effect": 2, "die": "opponent", "was": 2, "faces": [5, 3]}]
    assert "（遭遇戦の相手を決めるダイス 2→5→3）" in _seal_line(game, "ja")
    assert " (encounter opponent die 2→5→3)" in _seal_line(game, "en")
    assert ("令呪2で振り直し: Aさん の遭遇戦の相手の決定（1=Bさん、2=Cさん、3=Dさん）1d6 = 5→3 ⇒ Dさん（A-6）"
            in _line(game, "ace_royal.encounter_rolled", "ja"))
    assert ("re-rolled by Command Seal 2: Aさん's encounter opponent (1=Bさん, 2=Cさん, 3=Dさん) 1d6 = 5→3 ⇒ Dさん (A-6)"
            in _line(game, "ace_royal.encounter_rolled", "en"))
    # again, onto the same opponent: the combat stands; the encounter die is still the turn's 1
    game.act("use_seal", {"effect": 2, "die": "opponent"}, who="a", dice=[3])
    assert game.g["combat"]["interceptor"] == "d" and "⇒ Dさん（相手は変わらない）（A-6）" in _line(game, "ace_royal.encounter_rolled", "ja")
    assert "⇒ Dさん (the same opponent) (A-6)" in _line(game, "ace_royal.encounter_rolled", "en")
    game.undo()
    assert game.g["combat"]["interceptor"] == "d" and game.c("a", "seals") == 2
    # a 1 again on the encounter die keeps the opponent and its die: that die can still be re-rolled
    game = four_players()
    with pytest.raises(Conflict, match="令呪1画ずつ"):
        game.act("use_seal", {"effects": [{"effect": 2, "die": "encounter"}, {"effect": 2, "die": "opponent"}]}, who="a",
                 dice=[1])
    game.act("use_seal", {"effect": 2, "die": "encounter"}, who="a", dice=[1])
    game.act("use_seal", {"effect": 2, "die": "opponent"}, who="a", dice=[1])
    assert game.g["combat"]["interceptor"] == "b" and sealed()[0]["was"] == 2
    with pytest.raises(Conflict, match="このターンに振った遭遇戦の相手を決めるダイスがありません"):
        game.act("use_seal", {"effect": 2, "die": "opponent"}, who="b", dice=[4])
    game.act("combat_roll", {"side": "attacker"}, dice=[3])
    with pytest.raises(Conflict, match="遭遇戦の戦闘が進んでいます.*遭遇戦の相手を決めるダイスはもう振り直せません") as refused:
        game.act("use_seal", {"effect": 2, "die": "opponent"}, who="a", dice=[4])
    assert "its encounter opponent die can no longer be re-rolled (A-6)" in refused.value.en
    # no encounter this turn: no opponent die; two players: one possible opponent, nothing to re-roll for
    game = _quick_encounter([3])
    with pytest.raises(Conflict, match="遭遇戦の相手を決めるダイスがありません"):
        game.act("use_seal", {"effect": 2, "die": "opponent"}, who="a", dice=[4])
    game = started(n=2, version="quick")
    to_step(game, "ritual")
    game.act("reveal", {"what": "hero"})
    game.act("step")
    game.act("encounter_roll", dice=[1, 1])
    assert game.view(Viewer("seat", "a"))["me"]["rerolls"] == ["encounter"]
    with pytest.raises(Conflict, match="相手になれるのは1人だけ") as refused:
        game.act("use_seal", {"effect": 2, "die": "opponent"}, who="a", dice=[1])
    assert "a re-roll would pick the same (A-6)" in refused.value.en and game.c("a", "seals") == 3
