"""Sugoroku (S) flow: whole rounds through the ruleset's actions, folded in memory with fixed dice."""

from __future__ import annotations

import pytest
from gmtool_testing import Pure

from gmtool.core import prompts
from gmtool.core.commands import create_session, new_seat
from gmtool.core.dice import FixedDice, seed_hash
from gmtool.core.errors import GmError
from gmtool.core.logtext import describe
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext
from gmtool.core.view import GM, TABLE, Viewer, build_view, visible_event
from gmtool.rulesets import get as get_ruleset
from gmtool.rulesets.sugoroku.battle import parse_cards
from gmtool.rulesets.sugoroku.events import sg

RULESET = get_ruleset("sugoroku")
NAMES = ["セイバー", "アーチャー", "ランサー", "ライダー", "キャスター", "アサシン", "バーサーカー"]


class Game(Pure):
    """A sugoroku session in memory; `act` runs a ruleset action as the GM or a seat."""

    def act(self, name: str, payload: dict | None = None, who: str = "gm", dice=()):
        viewer = GM if who == "gm" else Viewer("seat", who)
        ctx = ActionContext(actor="gm" if who == "gm" else f"seat:{who}", viewer=viewer,
                            dice=FixedDice(list(dice)), salt=lambda: "salt", resolvers=self.resolvers)
        return self.do(RULESET.actions[name].fn, payload or {}, ctx, actor=ctx.actor)

    def c(self, seat: str, key: str) -> int:
        return self.state.counters[seat][key]

    @property
    def s(self) -> dict:
        return sg(self.state)

    def log(self, viewer=TABLE) -> list[str]:
        out = []
        for e in self.events:
            v = visible_event(e, self.state, viewer)
            if v is not None:
                out.append(describe(v, self.state))
        return out


def new_game(n: int = 4, **setup) -> Game:
    game = Game(State(rules=RULESET), resolvers=RULESET.all_resolvers())
    seats = [new_seat(f"s{i + 1}", NAMES[i]) for i in range(n)]
    game.write(create_session("sg000001", "双六テスト", "sugoroku", seats, list(RULESET.counters), seed_hash(b"x" * 32)))
    if setup is not None:
        payload = {"board_length": 12, "players": {
            "s1": {"master": "衛宮", "servant": "セイバー", "true_name": "アルトリア", "mana": 4, "unspent_cp": 5},
            "s2": {"master": "遠坂", "servant": "アーチャー", "true_name": "エミヤ", "mana": 6,
                   "cp_spent": 40, "traits": ["神性", "騎乗", "弓"]},
        }, **setup}
        game.act("setup", payload)
    return game


def test_s1_s5_s14_setup_sets_mana_vp_and_commits_true_names():
    g = new_game()
    assert g.s["round"] == "round1" and g.s["board_length"] == 12 and g.s["order"] == ["s1", "s2", "s3", "s4"]
    assert g.c("s1", "mana") == 4 and g.c("s2", "mana") == 6 and g.c("s1", "seals") == 3
    assert g.c("s1", "vp") == 2  # 5 unspent CP -> 2 VP
    # s2: 9 + 30 + 2 (3 traits) + 2 (神性) - 40 spent = 3 unspent -> 1 VP
    assert g.c("s2", "vp") == 1
    assert g.state.scenes[-1]["title"] == {"ja": "ラウンド1", "en": "Round 1"}  # shown in the viewer's language
    table = build_view(g.state, TABLE)
    text = repr(table) + "".join(g.log(TABLE))
    assert "アルトリア" not in text and "エミヤ" not in text
    assert build_view(g.state, GM)["ruleset"]["players"]["s1"]["true_name"] == "アルトリア"


def test_s1_skip_to_climax_gives_mana_and_is_refused_for_5_players():
    g = new_game(skip_to_climax=True)
    assert g.s["round"] == "climax" and g.c("s1", "mana") == 9 and g.c("s3", "mana") == 5
    with pytest.raises(GmError):
        new_game(5, skip_to_climax=True)


def test_s3_s4_turn_order_supply_and_rotation():
    g = new_game()
    with pytest.raises(GmError):
        g.act("roll_move", who="s2", dice=[3])  # not s2's turn
    g.act("roll_move", who="s1", dice=[3])
    g.act("roll_move", {"supply": True}, who="s2", dice=[5])  # 5 -> 3, mana +1
    assert g.c("s2", "position") == 3 and g.c("s2", "mana") == 7
    g.act("roll_move", {"seal": "extra_die"}, who="s3", dice=[2, 4])
    assert g.c("s3", "position") == 6 and g.c("s3", "seals") == 2
    g.act("roll_move", {"seat": "s4"}, dice=[1])
    g.act("end_phase")
    assert g.s["order"] == ["s2", "s3", "s4", "s1"] and g.s["phase"] == 2
    assert g.s["pending"] == [{"square": 3, "fighters": ["s1", "s2"], "challenge": False}]
    assert any("行動フェイズ1終了" in line for line in g.log())


def test_s5_mana_is_clamped_and_s15_three_uses_and_np_needs_7():
    g = new_game()
    g.act("square_event", {"seat": "s1", "mana": 20, "label": "霊脈"})
    assert g.c("s1", "mana") == 14
    with pytest.raises(GmError):
        g.act("use_skill", {"kind": "np", "cost": 2}, who="s3")  # mana 0 < 7
    for _ in range(3):
        g.act("use_skill", {"kind": "skill", "cost": 1}, who="s1")
    with pytest.raises(GmError):
        g.act("use_skill", {"kind": "skill", "cost": 1}, who="s1")
    assert g.c("s1", "uses") == 3 and g.c("s1", "mana") == 11 and g.c("s1", "reveal_count") == 3


def play_to_battle(g: Game) -> str:
    g.act("set_square", {"square": 3, "terrain": "力+1 魔-1", "vp": 2})
    for seat, die in (("s1", 3), ("s2", 3), ("s3", 5), ("s4", 6)):
        g.act("roll_move", who=seat, dice=[die])
    g.act("end_phase")
    g.act("start_battle")
    return g.s["battle"]["prompt"]


def test_s7_s8_battle_parent_secret_card_children_reveal_terrain_and_vp():
    g = new_game()
    pid = play_to_battle(g)
    assert g.s["battle"]["parent"] == "s1" and g.s["battle"]["children"] == ["s2"]
    with pytest.raises(GmError):
        g.answer(pid, "s1", "力7 魔2")  # the parent puts exactly one card down
    g.answer(pid, "s1", {"power": 7, "attribute": "力"})
    assert g.state.prompts[pid].status == "open"
    table = build_view(g.state, TABLE)
    assert "力7" not in repr(table)
    g.answer(pid, "s2", [{"power": 5, "attribute": "魔"}, "技4"])
    prompt = g.state.prompts[pid]
    assert prompt.status == "revealed"
    result = prompt.resolution
    assert result["totals"] == {"s1": 8, "s2": 8} and result["gm_decides"]  # 7+1 vs (5-1)+4
    g.act("battle_card", {"card": "力3"}, who="s1")  # the parent adds one after the reveal
    result = g.state.prompts[pid].resolution
    assert result["totals"] == {"s1": 12, "s2": 8} and result["winners"] == ["s1"]
    assert result["vp"] == 2 + 2  # square VP + 2 cards s2 played
    g.act("end_battle")
    assert g.c("s1", "vp") == 2 + 4 and g.s["battle"] is None and g.s["battles"] == 1
    assert g.c("s1", "reveal_count") == 1 and g.c("s2", "reveal_count") == 1
    assert any("セイバーの勝ち" in line for line in g.log())


def test_s7_tie_goes_to_the_gm_and_s11_power_seal_adds_3_and_3_vp():
    g = new_game()
    pid = play_to_battle(g)
    g.answer(pid, "s1", "力7")
    g.answer(pid, "s2", "魔5 技4")
    g.act("battle_adjust", {"winner": "s2"})
    assert g.state.prompts[pid].resolution["winners"] == ["s2"]
    g.act("use_seal", {"effect": "power"}, who="s2")
    result = g.state.prompts[pid].resolution
    assert result["totals"]["s2"] == 11 and result["vp"] == 2 + 1 + 3
    g.act("end_battle")
    assert g.c("s2", "vp") == 1 + 6 and g.c("s2", "seals") == 2


def test_s6_challenge_costs_1_mana_and_makes_the_challenger_the_child():
    g = new_game()
    for seat, die in (("s1", 3), ("s2", 4), ("s3", 6), ("s4", 1)):
        g.act("roll_move", who=seat, dice=[die])
    with pytest.raises(GmError):
        g.act("challenge", {"target": "s2"}, who="s3")  # s3 at 6, s2 at 4: too far
    g.act("challenge", {"target": "s1"}, who="s2")
    assert g.c("s2", "mana") == 5
    g.act("end_phase")
    assert g.s["pending"] == [{"square": 3, "fighters": ["s1", "s2"], "challenge": True}]


def test_s12_karma_subjugation_order_and_conversion_after_defeat():
    g = new_game()
    pid = play_to_battle(g)
    g.act("square_event", {"seat": "s2", "karma": 9, "label": "悪行"})
    assert "subjugation" in g.state.flags["s2"]
    g.answer(pid, "s1", "力9")
    g.answer(pid, "s2", "技2")
    g.act("end_battle")
    assert g.s["karma_pending"] == [{"victor": "s1", "target": "s2", "battle": pid}]
    with pytest.raises(GmError):
        g.act("convert_karma", {"target": "s2", "amount": 11}, who="s1")
    vp = g.c("s1", "vp")
    g.act("convert_karma", {"target": "s2", "amount": 4}, who="s1")
    assert g.c("s2", "karma") == 5 and "subjugation" not in g.state.flags["s2"] and g.c("s1", "vp") == vp + 4
    assert g.s["karma_pending"] == []


def test_s13_np_true_name_release_reveals_with_its_commitment():
    g = new_game()
    g.act("square_event", {"seat": "s1", "mana": 5})
    g.act("use_skill", {"kind": "np", "cost": 3, "true_name_release": True, "label": "約束された勝利の剣"}, who="s1")
    assert build_view(g.state, TABLE)["ruleset"]["players"]["s1"]["true_name"] == "アルトリア"
    assert any("アルトリア" in line for line in g.log(TABLE))
    assert "エミヤ" not in "".join(g.log(TABLE))


def test_s13_five_skill_uses_and_battles_reveal():
    g = new_game()
    g.act("square_event", {"seat": "s2", "mana": 8})
    for _ in range(3):
        g.act("use_skill", {"kind": "skill", "cost": 0}, who="s2")
    pid = play_to_battle(g)
    g.answer(pid, "s1", "力1")
    g.answer(pid, "s2", "技9")
    g.act("end_battle")
    assert g.c("s2", "reveal_count") == 4 and not g.s["revealed"]
    g.act("end_round", {"force": True, "vote": False})
    g.act("start_round")
    g.act("use_skill", {"kind": "skill", "cost": 0}, who="s2")
    assert "s2" in g.s["revealed"]


def test_s2_s9_s10_a_whole_round_goal_vp_recovery_elimination_and_the_vote():
    g = new_game(board_length=10)
    g.act("square_event", {"seat": "s3", "vp": -10, "label": "罰"})
    # phase 1: nobody meets
    for seat, die in (("s1", 6), ("s2", 5), ("s3", 1), ("s4", 2)):
        g.act("roll_move", who=seat, dice=[die])
    g.act("end_phase")
    # phase 2 (order s2 s3 s4 s1): s2 and s1 reach the goal
    for seat, die in (("s2", 6), ("s3", 1), ("s4", 1), ("s1", 6)):
        g.act("roll_move", who=seat, dice=[die])
    assert g.s["goal"] == ["s2", "s1"] and g.c("s2", "vp") == 1 + 14 and g.c("s1", "vp") == 2 + 11
    g.act("end_phase")
    for phase in range(3, 9):
        for seat in list(g.s["order"]):
            if seat not in g.s["goal"]:
                g.act("roll_move", who=seat, dice=[1])
        g.act("end_phase")
    assert g.s["round_over"]["rule"] == "S-2"
    with pytest.raises(GmError):
        g.act("roll_move", who="s3", dice=[1])
    g.act("end_round")
    assert g.c("s2", "mana") == 6 + 6  # arrived in phase 2, the round ended after phase 8: 6 turns (S-9)
    assert g.s["out"] == ["s3"]  # -10 vs s4's 0: a gap of 10 (S-10)
    vote = g.s["vote"]
    assert vote and g.state.prompts[vote].kind == "seat"
    # every remaining player votes in secret; a tie is decided by last place (s4)
    g.answer(vote, "s1", "s2")
    g.answer(vote, "s2", "s1")
    g.answer(vote, "s4", "s1")
    assert g.state.prompts[vote].resolution["winners"] == ["s1"]
    g.do(prompts.confirm, vote)
    assert "s1" in g.s["revealed"]
    g.act("start_round", {"board_length": 15})
    assert g.s["round"] == "round2" and g.c("s1", "position") == 0 and g.state.scenes[-1]["title"]["ja"] == "ラウンド2"


def test_s13_vote_tie_opens_a_second_prompt_to_the_last_placed_player():
    g = new_game()
    g.act("square_event", {"seat": "s3", "vp": 5})
    g.act("square_event", {"seat": "s4", "vp": 3})
    g.act("end_phase", {"force": True})
    g.act("end_round", {"force": True})
    vote = g.s["vote"]
    assert g.state.prompts[vote].per_seat["s1"]["s1"]  # no vote for yourself
    with pytest.raises(GmError):
        g.answer(vote, "s1", "s1")
    for voter, target in (("s1", "s2"), ("s2", "s1"), ("s3", "s4"), ("s4", "s3")):
        g.answer(vote, voter, target)
    result = g.state.prompts[vote].resolution
    assert result["tied"] == ["s1", "s2", "s3", "s4"] and not result["winners"]
    g.do(prompts.confirm, vote)
    tiebreak = f"{vote}-tb"
    # last place: s2 has 1 VP (s1 2, s3 5, s4 3)
    assert g.state.prompts[tiebreak].seats == ["s2"]
    g.answer(tiebreak, "s2", "s1")
    g.do(prompts.confirm, tiebreak)
    assert list(g.s["revealed"]) == ["s1"]
    assert g.state.prompts["sg-tn-s1"].status == "revealed"


def test_the_log_reads_as_a_replay_and_undo_refolds():
    g = new_game()
    play_to_battle(g)
    lines = g.log(TABLE)
    assert any("双六聖杯戦争の準備" in line for line in lines)
    assert any("セイバー：3マス進む" in line for line in lines)
    assert any("戦闘開始（マス3）：親 セイバー、子 アーチャー" in line for line in lines)
    assert all(line != e.type for line, e in zip(lines, g.events))
    assert g.refold().extra == g.state.extra


@pytest.mark.parametrize("typed, cards", [("Power 7, Magic 3", ["力7", "魔3"]), ("p7 m3", ["力7", "魔3"]),
                                          ("力7・スキル魔3", ["力7", "スキル魔3"]), (["technique 2"], ["技2"])])
def test_s7_cards_typed_in_words_letters_or_kanji_are_read_alike(typed, cards):
    """An English phone types a card as its word (Power 7), as the field's example says, or its letter (p7)."""
    assert parse_cards(typed) == cards
