"""Sugoroku Holy Grail War rules (RULES.md S-1..S-15): pure functions, named by rule."""

from __future__ import annotations

import ast
import inspect

import pytest

from gmtool.core.dice import FixedDice
from gmtool.core.errors import GmError
from gmtool.rulesets.sugoroku import rules as S


def total_of(result: dict, key: str = "value") -> int:
    """A result's number must equal the sum of its breakdown terms."""
    assert sum(t["value"] for t in result["terms"]) == result[key]
    return result[key]


def assert_terms_shape(terms: list[dict]) -> None:
    for t in terms:
        assert set(t) >= {"label", "value", "rule"}
        assert isinstance(t["value"], int) and not isinstance(t["value"], bool)
        assert isinstance(t["label"], str) or set(t["label"]) == {"ja", "en"}


# ---- module contract ---------------------------------------------------------------------------

def test_module_is_pure():
    source = inspect.getsource(S)
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported <= {"__future__", "dataclasses", "math", "typing", "gmtool.core.errors", "gmtool.core.logtext",
                        "gmtool.core.model", "gmtool.core.turns"}


def test_every_public_function_has_a_one_line_docstring_with_its_rule():
    functions = [f for n, f in vars(S).items()
                 if inspect.isfunction(f) and not n.startswith("_") and f.__module__ == S.__name__]
    assert len(functions) > 20
    for f in functions:
        doc = f.__doc__ or ""
        assert doc and "\n" not in doc.strip(), f.__name__
        assert "S-" in doc or "Reading" in doc, f.__name__


def test_readings_have_defaults_choices_and_both_languages():
    for key, spec in S.READINGS.items():
        assert spec["default"] in spec["choices"], key
        assert spec["label"][0] and spec["label"][1] and spec["rule"].startswith("S-")
        assert all(ja and en for _value, ja, en in spec["words"]), key
        assert S.reading(None, key) == spec["default"]


def test_reading_rejects_bad_values():
    with pytest.raises(GmError) as e:
        S.reading({"battle_tie": "coin"}, "battle_tie")
    # said by the reading's label, as the readings panel shows it, never its key or the stored value
    assert "戦闘の最高値が同点" in e.value.ja and "Tied highest battle power" in e.value.en
    assert not any(code in e.value.ja + e.value.en for code in ("battle_tie", "coin"))
    with pytest.raises(GmError):
        S.reading({"strong_traits_count": 1}, "strong_traits_count")  # 1 is not a bool


# ---- S-1 structure -------------------------------------------------------------------------------

def test_s1_rounds_and_labels():
    assert S.ROUNDS == ("round1", "round2", "climax")
    assert S.ROUND_LABELS["climax"].ja == "クライマックス"
    assert S.DEFAULT_BOARD_LENGTH == 20


@pytest.mark.parametrize("n, ok", [(2, True), (4, True), (5, False), (7, False)])
def test_s1_skip_to_climax_only_with_four_or_fewer(n, ok):
    r = S.skip_to_climax_allowed(n)
    assert r["ok"] is ok
    assert r["mana_bonus"] == (5 if ok else 0)
    assert r["reason"]["rule"] == "S-1"
    assert_terms_shape(r["terms"])


# ---- S-14 build points --------------------------------------------------------------------------

@pytest.mark.parametrize("cp, vp", [(0, 0), (1, 0), (2, 1), (5, 2), (9, 4)])
def test_s14_starting_vp_two_cp_per_vp_rounded_down(cp, vp):
    assert total_of(S.starting_vp(cp)) == vp


def test_s14_starting_vp_rejects_negative():
    with pytest.raises(GmError):
        S.starting_vp(-1)


@pytest.mark.parametrize("traits, cp", [
    ([], 30),
    (["騎乗", "魔性"], 30),
    (["騎乗", "魔性", "人型"], 32),           # 2 per 3 traits
    (["人型"] * 3, 30),                        # duplicates count once
    (["神性"], 32),                            # a strong trait gives 2 alone
    (["《竜》", "騎乗", "人型"], 34),          # 2 (three traits) + 2 (竜); 《》 are stripped
    (["神性", "竜", "鬼", "妖精"], 36),        # 2 + 8 = 10, capped at 6
    (["a", "b", "c", "d", "e", "f", "g", "h", "i"], 36),  # 9 traits: 6
    (["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"], 36),  # 12 traits: 8 → cap 6
])
def test_s14_servant_cp_trait_bonus_capped_at_6(traits, cp):
    r = S.servant_cp(traits)
    assert total_of(r) == cp
    assert r["bonus"] == cp - 30 <= 6
    assert_terms_shape(r["terms"])
    assert r["notes"][0]["rule"] == "S-14"


def test_s14_servant_cp_cap_is_shown_in_breakdown():
    r = S.servant_cp(["神性", "竜", "鬼", "妖精"])
    assert r["terms"][-1]["value"] == -4 and r["terms"][-1]["label"]["en"] == "bonus cap 6"


def test_s14_reading_strong_traits_not_counted_as_traits():
    assert S.servant_cp(["神性", "騎乗", "人型"])["value"] == 34
    assert S.servant_cp(["神性", "騎乗", "人型"], {"strong_traits_count": False})["value"] == 32


# ---- S-3 turn order -------------------------------------------------------------------------------

def test_s3_rotation_four_players_over_three_phases():
    order = ["A", "B", "C", "D"]
    seen = []
    for _ in range(3):
        order = S.turn_order_after_phase(order)
        seen.append(order)
    assert seen == [["B", "C", "D", "A"], ["C", "D", "A", "B"], ["D", "A", "B", "C"]]
    assert S.turn_order_after_phase(seen[-1]) == ["A", "B", "C", "D"]


def test_s3_rotation_first_moves_last_second_moves_first():
    nxt = S.turn_order_after_phase(("x", "y", "z"))
    assert nxt[-1] == "x" and nxt[0] == "y"
    assert S.turn_order_after_phase([]) == []


def test_s3_initial_order_without_dice_is_the_table_order():
    assert S.initial_order(["A", "B", "C"])["order"] == ["A", "B", "C"]
    with pytest.raises(GmError):
        S.initial_order(["A", "A"])


def test_s3_initial_order_with_dice_high_first_ties_reroll():
    dice = FixedDice([3, 6, 3, 1, 5, 2])  # A3 B6 C3 D1, then A/C re-roll: A5 C2
    r = S.initial_order(["A", "B", "C", "D"], dice)
    assert r["order"] == ["B", "A", "C", "D"]
    assert r["rolls"] == {"A": [3, 5], "B": [6], "C": [3, 2], "D": [1]}
    assert dice.next_index == 6


# ---- S-4 / S-5 / S-15 mana -----------------------------------------------------------------------

@pytest.mark.parametrize("roll, move", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_s4_supply_move_halves_rounding_up(roll, move):
    r = S.supply_move(roll)
    assert total_of(r, "move") == move
    assert r["mana_gain"] == 1 and r["mana"] is None
    assert_terms_shape(r["terms"])


def test_s4_supply_move_with_mana_is_clamped():
    assert S.supply_move(5, mana=3)["mana"] == 4
    r = S.supply_move(5, mana=14)
    assert r["mana"] == 14 and any(n["rule"] == "S-5" for n in r["notes"])


@pytest.mark.parametrize("value, clamped, lost", [(-3, 0, -3), (0, 0, 0), (7, 7, 0), (14, 14, 0), (17, 14, 3)])
def test_s5_clamp_mana_at_0_and_14(value, clamped, lost):
    r = S.clamp_mana(value)
    assert r["value"] == clamped and r["lost"] == lost
    assert bool(r["notes"]) is (lost != 0)


@pytest.mark.parametrize("mana, cost, ok", [(6, 0, False), (7, 0, True), (7, 3, True), (8, 9, False), (14, 10, True)])
def test_s5_np_needs_mana_7_whatever_its_cost(mana, cost, ok):
    r = S.can_use_np(mana, cost)
    assert r["ok"] is ok and r["reason"]["rule"] == "S-5" and r["reason"]["ja"] and r["reason"]["en"]


def test_s15_three_skill_or_np_uses_per_round():
    mana, uses = 14, 0
    for kind, cost in (("skill", 2), ("np", 3), ("skill", 1)):
        r = S.use_skill(kind, cost, mana, uses)
        mana, uses = r["mana"], r["uses"]
        assert_terms_shape(r["terms"])
    assert (mana, uses) == (8, 3)
    with pytest.raises(GmError) as e:
        S.use_skill("skill", 0, mana, uses)
    assert "3" in e.value.en


def test_s5_use_skill_checks_mana():
    with pytest.raises(GmError):
        S.use_skill("skill", 4, 3, 0)
    with pytest.raises(GmError):
        S.use_skill("np", 1, 6, 0)  # 宝具 needs 7 even with cost 1
    with pytest.raises(GmError):
        S.use_skill("attack", 0, 5, 0)
    assert S.use_skill("np", 1, 7, 0)["mana"] == 6


# ---- S-2 round end ----------------------------------------------------------------------------------

@pytest.mark.parametrize("round_name, need", [("round1", 6), ("round2", 4), ("climax", 2)])
def test_s2_round_over_by_goal_count_per_round(round_name, need):
    assert S.round_over(round_name, 3, need - 1)["over"] is False
    r = S.round_over(round_name, 3, need)
    assert r["over"] is True and r["reason"]["rule"] == "S-2" and r["goal_needed"] == need


@pytest.mark.parametrize("round_name", S.ROUNDS)
def test_s2_round_over_after_eighth_action_phase(round_name):
    assert S.round_over(round_name, 7, 0)["over"] is False
    assert S.round_over(round_name, 7, 0)["phases_left"] == 1
    r = S.round_over(round_name, 8, 0)
    assert r["over"] is True and "8" in r["reason"]["en"]


def test_s2_reading_all_players_at_goal_ends_round():
    r = S.round_over("round1", 3, 4, n_players=4)
    # said as the other ends are, the round first, with the reading that made it one (a table read 「解釈（全員ゴールでの
    # ラウンド終了）：規定人数に満たなくても全員ゴールで終了」, a reading's description, as the reason in its big flag)
    assert r["over"] is True and r["reason"] == {
        "ja": "ラウンド1：全員がゴール（解釈「全員ゴールでのラウンド終了」による）",
        "en": "Round 1: everyone is at the goal (reading 'Round end when everyone is at the goal')", "rule": "S-2"}
    assert S.round_over("round1", 3, 4, n_players=4, readings={"round_end_all_at_goal": False})["over"] is False
    assert S.round_over("round1", 3, 3, n_players=4)["over"] is False


def test_s2_unknown_round_is_an_error():
    with pytest.raises(GmError):
        S.round_over("round3", 1, 0)


# ---- S-9 goal ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("place, vp", [(1, 14), (2, 11), (3, 9), (4, 7), (5, 3), (6, 3), (7, 3)])
def test_s9_goal_vp_by_arrival_order(place, vp):
    r = S.goal_vp(place)
    assert total_of(r) == vp and r["terms"][0]["rule"] == "S-9"


def test_s9_goal_vp_place_is_one_based():
    with pytest.raises(GmError):
        S.goal_vp(0)


def test_s9_goal_mana_recovery_turns_times_one_clamped():
    assert total_of(S.goal_mana_recovery(3)) == 3
    assert S.goal_mana_recovery(3, mana=5)["mana"] == 8
    assert S.goal_mana_recovery(5, mana=12)["mana"] == 14
    assert S.goal_mana_recovery(0, mana=2)["mana"] == 2


# ---- S-10 elimination -------------------------------------------------------------------------------

def test_s10_gap_of_exactly_10_eliminates_last_place():
    r = S.eliminated_after_round({"A": 30, "B": 20, "C": 10})
    assert r["out"] == ["C"] and r["gap"] == 10 and r["next"] == ["B"]
    assert total_of(r, "gap") == 10


def test_s10_gap_of_9_keeps_everyone():
    r = S.eliminated_after_round({"A": 30, "B": 19, "C": 10})
    assert r["out"] == [] and r["gap"] == 9 and r["last"] == ["C"]


def test_s10_next_player_tied_above_last():
    r = S.eliminated_after_round({"A": 20, "B": 20, "C": 5})
    assert r["out"] == ["C"] and r["next"] == ["A", "B"]


def test_s10_tie_at_the_bottom_default_nobody_out():
    r = S.eliminated_after_round({"A": 30, "B": 5, "C": 5})
    assert r["out"] == [] and r["last"] == ["B", "C"] and r["gap"] == 0
    assert any(n["en"] == "Reading (Tied last place): A gap of 0: nobody is out" for n in r["notes"])


def test_s10_tie_at_the_bottom_other_readings():
    vps = {"A": 30, "B": 5, "C": 5}
    assert S.eliminated_after_round(vps, readings={"elimination_tie": "all"})["out"] == ["B", "C"]
    r = S.eliminated_after_round(vps, readings={"elimination_tie": "gm"})
    assert r["out"] == [] and r["candidates"] == ["B", "C"]
    assert S.eliminated_after_round({"A": 14, "B": 5, "C": 5}, readings={"elimination_tie": "all"})["out"] == []
    assert S.eliminated_after_round({"A": 5, "B": 5}, readings={"elimination_tie": "all"})["out"] == []


def test_s10_no_elimination_after_climax_or_alone():
    assert S.eliminated_after_round({"A": 40, "B": 0}, "climax")["out"] == []
    assert S.eliminated_after_round({"A": 40, "B": 0}, "round2")["out"] == ["B"]
    assert S.eliminated_after_round({"A": 0})["out"] == []


# ---- S-6 challenge ----------------------------------------------------------------------------------

def test_s6_challenge_within_one_square():
    r = S.can_challenge({"A": 5, "B": 6, "C": 4, "D": 7}, "A")
    assert r["ok"] is True and r["targets"] == ["B", "C"] and r["cost"] == 1
    assert r["reason"]["rule"] == "S-6"


def test_s6_no_challenge_when_out_of_range_or_sharing_a_square():
    assert S.can_challenge({"A": 5, "B": 7, "C": 3}, "A")["ok"] is False
    r = S.can_challenge({"A": 5, "B": 5, "C": 6}, "A")
    assert r["ok"] is False and r["targets"] == [] and "battle" in r["reason"]["en"]


def test_s6_challenge_needs_one_mana_and_reach_is_configurable():
    assert S.can_challenge({"A": 5, "B": 6}, "A", mana=0)["ok"] is False
    assert S.can_challenge({"A": 5, "B": 6}, "A", mana=1)["ok"] is True
    r = S.can_challenge({"A": 5, "B": 8}, "A", mana=0, reach=3, cost=0)  # 【強襲】-3
    assert r["ok"] is True and r["targets"] == ["B"]
    with pytest.raises(GmError):
        S.can_challenge({"B": 1}, "A")


# ---- S-7 / S-8 battle ---------------------------------------------------------------------------------

def card(power, attribute="力", kind="attack", face="up", **kw):
    return {"power": power, "attribute": attribute, "kind": kind, "face": face, **kw}


def test_s7_parent_is_first_arrival():
    r = S.battle_parent_and_children(["B", "A", "C"])
    assert r["parent"] == "B" and r["children"] == ["A", "C"]
    with pytest.raises(GmError):
        S.battle_parent_and_children(["A"])
    with pytest.raises(GmError):
        S.battle_parent_and_children(["A", "A"])


def test_s7_battle_total_each_card_in_breakdown():
    r = S.battle_total([card(3, "力"), card(5, "技", name="燕返し"), card(4, "魔", face="down")])
    assert total_of(r, "total") == 12
    assert [t["value"] for t in r["terms"]] == [3, 5, 4]
    assert r["terms"][1]["label"]["ja"].startswith("燕返し")
    assert_terms_shape(r["terms"])


def test_s7_terrain_strengthens_and_weakens_attributes():
    r = S.battle_total([card(3, "力"), card(3, "魔"), card(3, "技")], terrain={"力": 2, "魔": -1})
    assert [t["value"] for t in r["terms"]] == [5, 2, 3]
    assert [t["terrain"] for t in r["terms"]] == [2, -1, 0]
    assert total_of(r, "total") == 10
    assert any(n["en"] == "Reading (What terrain modifies): Attack cards only" for n in r["notes"])


def test_s7_terrain_reading_and_power_floor():
    cards = [card(2, "魔"), card(4, "魔", kind="skill")]
    assert S.battle_total(cards, terrain={"魔": -3})["total"] == 0 + 4
    assert S.battle_total(cards, terrain={"魔": -3}, readings={"terrain_applies_to": "all"})["total"] == 1
    assert S.battle_total(cards, terrain={"魔": -3}, readings={"card_power_floor": None})["total"] == 3
    with pytest.raises(GmError):
        S.battle_total(cards, terrain={"火": 1})


def test_s11_seal_adds_three_power_in_battle():
    r = S.battle_total([card(3)], seal_bonus=True)
    assert total_of(r, "total") == 6 and r["terms"][-1]["rule"] == "S-11"
    assert S.battle_total([card(3)], seal_bonus=2)["total"] == 9


def test_s7_manual_modifiers_and_hidden_cards():
    r = S.battle_total([card(3), card(9, face="down")], modifiers=[{"label": "特攻", "value": 3}], reveal=False)
    assert r["total"] == 6 and r["hidden"] == 1
    assert r["terms"][-1] == {"label": "特攻", "value": 3, "rule": "GM"}


def test_s7_card_validation():
    with pytest.raises(GmError):
        S.battle_total([card(10)])  # attack power ≤ 9
    with pytest.raises(GmError):
        S.battle_total([card(3, "火")])
    with pytest.raises(GmError):
        S.battle_total([card(3, kind="item")])
    assert S.battle_total([card(12, None, kind="np")])["total"] == 12


def test_s7_three_player_battle_highest_wins():
    totals = {
        "A": S.battle_total([card(3), card(5, "技")])["total"],
        "B": S.battle_total([card(9, "魔"), card(3, "技")], terrain={"魔": 1})["total"],
        "C": S.battle_total([card(3), card(3, "技"), card(3, "魔")])["total"],
    }
    r = S.battle_winner(totals, parent="A")
    assert totals == {"A": 8, "B": 13, "C": 9}
    assert r["winner"] == "B" and r["tied"] == [] and r["ranking"] == ["B", "C", "A"]


def test_s7_tied_highest_no_winner_gm_decides():
    r = S.battle_winner({"A": 9, "B": 9, "C": 4}, parent="A")
    assert r["winner"] is None and r["tied"] == ["A", "B"] and r["gm_decides"] is True
    assert r["notes"][0]["rule"] == "S-7" and r["notes"][0]["en"] == "Reading (Tied highest battle power): No winner; the GM decides"
    r = S.battle_winner({"A": 9, "B": 9, "C": 4}, parent="A", readings={"battle_tie": "parent"})
    assert r["winner"] == "A" and r["gm_decides"] is False
    r = S.battle_winner({"A": 4, "B": 9, "C": 9}, parent="A", readings={"battle_tie": "parent"})
    assert r["winner"] is None


def test_s8_battle_vp_with_breakdown():
    r = S.battle_vp(3, 4, effects=[{"label": {"ja": "略奪", "en": "plunder"}, "value": 2}])
    assert total_of(r) == 9
    assert [t["rule"] for t in r["terms"]] == ["S-8", "S-8", "S-8"]


def test_s8_s11_seal_win_gives_three_more_vp():
    r = S.battle_vp(3, 4, seal_used_and_won=True)
    assert total_of(r) == 10 and r["terms"][-1]["rule"] == "S-11"
    assert S.battle_vp(0, 0)["value"] == 0


def test_s8_cards_played_by_others():
    cards = {"A": [card(3)], "B": [card(1), card(2)], "C": 3}
    assert S.cards_played_by_others(cards, "A") == 5


# ---- S-11 command seals --------------------------------------------------------------------------------

def test_s11_seal_effects_and_counts():
    assert S.SEALS_PER_PLAYER == 3
    assert set(S.SEAL_EFFECTS) == {"mana", "power", "escape", "free_move", "extra_die"}
    r = S.use_seal("mana", 3, mana=12)
    assert r["seals"] == 2 and r["mana"] == 14 and r["notes"]
    r = S.use_seal("power", 1)
    assert r["seals"] == 0 and r["power_bonus"] == 3 and r["vp_if_won"] == 3
    with pytest.raises(GmError):
        S.use_seal("power", 0)
    with pytest.raises(GmError):
        S.use_seal("wish", 3)


def test_s11_seal_movement_effects():
    r = S.use_seal("escape", 3, players_on_square=3)
    assert r["move"] == 3 and r["event"] is False
    assert S.use_seal("free_move", 3, squares=4)["move"] == 4
    with pytest.raises(GmError):
        S.use_seal("free_move", 3, squares=5)
    dice = FixedDice([2, 5])
    r = S.use_seal("extra_die", 3, dice=dice)
    assert r["move"] == 7 and r["dice"] == [2, 5] and dice.next_index == 2
    r = S.use_seal("extra_die", 3, roll=4, dice=FixedDice([6]))
    assert total_of(r, "move") == 10


def test_s11_climax_unused_seals_six_vp_each():
    assert total_of(S.climax_seal_vp(3)) == 18
    assert S.climax_seal_vp(0)["value"] == 0


# ---- S-12 karma ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("karma, flag", [(0, False), (8, False), (9, True), (15, True)])
def test_s12_subjugation_at_nine(karma, flag):
    assert S.subjugation(karma) is flag


def test_s12_karma_conversion():
    r = S.karma_conversion(12, 10)
    assert (r["karma"], r["vp"], r["subjugation"]) == (2, 10, False)
    r = S.karma_conversion(15, 3)
    assert (r["karma"], r["vp"], r["subjugation"]) == (12, 3, True)
    assert total_of(r, "vp") == 3


@pytest.mark.parametrize("karma, amount", [(15, 11), (9, 10), (12, 0), (12, -1), (8, 1)])
def test_s12_karma_conversion_bad_amounts(karma, amount):
    with pytest.raises(GmError):
        S.karma_conversion(karma, amount)


# ---- S-13 true names ------------------------------------------------------------------------------------

def test_s13_reveal_by_count_at_five():
    assert S.reveal_by_count(4) is False and S.reveal_by_count(5) is True


def test_s13_vote_most_votes_revealed():
    r = S.true_name_vote({"A": "B", "B": "C", "C": "B", "D": "B"}, {"A": 20, "B": 10, "C": 5, "D": 12})
    assert r["revealed"] == "B" and r["counts"] == {"A": 0, "B": 3, "C": 1, "D": 0} and not r["needs_tiebreak"]


def test_s13_vote_for_yourself_is_invalid():
    with pytest.raises(GmError):
        S.true_name_vote({"A": "A"}, ["A", "B"])
    with pytest.raises(GmError):
        S.true_name_vote({"A": "Z"}, ["A", "B"])


def test_s13_vote_tie_decided_by_last_place():
    r = S.true_name_vote({"A": "B", "B": "A", "C": "A", "D": "B"}, {"A": 20, "B": 10, "C": 5, "D": 12})
    assert r["revealed"] is None and r["needs_tiebreak"] and r["tied"] == ["A", "B"]
    assert r["decider"] == "C"
    done = S.true_name_tiebreak(r, "A", by="C")
    assert done["revealed"] == "A" and done["notes"][0]["en"] == "Decided by the last-placed player"
    # the GM's pick (the last place tied) says so: it read "Decided by the last-placed player" too
    assert S.true_name_tiebreak(r, "A")["notes"][0] == {"ja": "最下位が同点のためGMが決定",
                                                         "en": "Decided by the GM (last place is tied)", "rule": "S-13"}
    with pytest.raises(GmError):
        S.true_name_tiebreak(r, "D", by="C")  # not among the tied
    with pytest.raises(GmError):
        S.true_name_tiebreak(r, "A", by="A")  # not the last-placed player


def test_s13_vote_tie_with_ranking_list_and_tied_last_place():
    r = S.true_name_vote({"A": "B", "B": "A"}, ["A", "B", "C"])
    assert r["decider"] == "C"
    r = S.true_name_vote({"A": "B", "B": "A"}, {"A": 9, "B": 3, "C": 3})
    assert r["decider"] is None and r["deciders"] == ["B", "C"] and len(r["notes"]) == 2
    with pytest.raises(GmError):
        S.true_name_tiebreak(S.true_name_vote({"A": "B"}, ["A", "B"]), "B")  # no tie


def test_s13_no_votes_reveals_nobody():
    r = S.true_name_vote({}, ["A", "B"])
    assert r["revealed"] is None and r["tied"] == []


def test_s7_a_tie_note_names_the_reading_in_words_not_its_key():
    gm = S.battle_winner({"A": 9, "B": 9}, parent="A")["notes"][0]
    assert gm["ja"] == "解釈（戦闘の最高値が同点）：勝者なし・GMが裁定" and gm["rule"] == "S-7"
    parent = S.battle_winner({"A": 9, "B": 9}, parent="A", readings={"battle_tie": "parent"})["notes"][0]
    assert parent["en"] == "Reading (Tied highest battle power): The parent wins if among the tied"
    for note in (gm, parent):
        assert "battle_tie" not in note["ja"] + note["en"] and "=" not in note["ja"] + note["en"]


def test_a_number_below_its_floor_is_refused_in_words_that_name_the_floor():
    """A cost of −1 read 'Cost must be in 0.. (-1)': an open range says its one bound."""
    with pytest.raises(GmError) as refused:
        S.use_skill("skill", cost=-1, mana=5, uses=0)
    assert (refused.value.ja, refused.value.en) == ("消費魔力は0以上です（-1）", "Cost must be at least 0 (-1)")
