"""Pure rules of the illuminati ruleset, named by rule code (RULES.md I-1 to I-7)."""

import pytest

from gmtool.core.dice import FixedDice
from gmtool.core.errors import GmError
from gmtool.rulesets.illuminati import alignments as al
from gmtool.rulesets.illuminati import attack as atk
from gmtool.rulesets.illuminati import opening, rules


# -- I-1 goals -------------------------------------------------------------------------------------

@pytest.mark.parametrize("players,tournament,goal", [
    (2, False, 12), (3, False, 12), (4, False, 11), (5, False, 10), (6, False, 10), (2, True, 12), (4, True, 11)])
def test_i1_basic_goal_by_player_count(players, tournament, goal):
    assert rules.basic_goal(players, tournament) == goal


@pytest.mark.parametrize("players", [0, 1, 7])
def test_i1_player_count_out_of_range_is_refused(players):
    with pytest.raises(GmError):
        rules.basic_goal(players)


@pytest.mark.parametrize("groups,goal,missing,met", [(1, 12, 11, False), (11, 11, 0, True), (13, 12, 0, True)])
def test_i1_missing_and_met(groups, goal, missing, met):
    assert rules.missing(groups, goal) == missing
    assert rules.meets_goal(groups, goal) is met


def test_i1_last_standing():
    assert rules.last_standing(["a", "b", "c"], ["a", "c"]) == "b"
    assert rules.last_standing(["a", "b", "c"], ["a"]) is None


# -- turn bookkeeping ------------------------------------------------------------------------------

@pytest.mark.parametrize("groups,ill,grp,auto,tourn,expected", [
    (3, 0, 0, False, False, (1, 3)),  # one on the Illuminati and one on each group
    (3, 1, 2, False, False, (1, 3)),  # a card that holds a token gets no second one
    (3, 0, 1, True, True, (0, 3)),  # two-player tournament, automatic control: none on the Illuminati
    (3, 0, 1, True, False, (1, 3)),
    (3, 0, 1, False, True, (1, 3)),
])
def test_turn_start_places_tokens(groups, ill, grp, auto, tourn, expected):
    assert rules.turn_tokens(groups, ill, grp, auto, tourn) == expected


def test_plot_hand_limit_and_draw_cost():
    assert rules.hand_after_turn(7) == 5 and rules.hand_after_turn(4) == 4
    assert rules.plot_draw_cost("illuminati") == 1 and rules.plot_draw_cost("group") == 2


@pytest.mark.parametrize("groups,out", [(0, True), (1, False)])
def test_i7_no_groups_is_out(groups, out):
    assert rules.is_out(groups) is out


# -- I-6 alignments --------------------------------------------------------------------------------

@pytest.mark.parametrize("a,b", [("government", "corporate"), ("liberal", "conservative"),
                                 ("peaceful", "violent"), ("straight", "weird")])
def test_i6_opposite_pairs_both_ways(a, b):
    assert al.are_opposed(a, b) and al.are_opposed(b, a)
    assert not al.are_same(a, b)


@pytest.mark.parametrize("other", list(al.ALIGNMENTS))
def test_i6_criminal_has_no_opposite(other):
    assert not al.are_opposed("criminal", other) and not al.are_opposed(other, "criminal")


def test_i6_fanatic_opposes_every_other_fanatic_and_is_never_same():
    assert al.are_opposed("fanatic", "fanatic")
    assert not al.are_same("fanatic", "fanatic")
    assert al.pair_counts(["fanatic"], ["fanatic"]) == (0, 1)
    assert not any(al.are_opposed("fanatic", x) for x in al.ALIGNMENTS if x != "fanatic")


@pytest.mark.parametrize("a,b", [("criminal", "criminal"), ("weird", "weird"), ("government", "government")])
def test_i6_same_alignment(a, b):
    assert al.are_same(a, b) and al.pair_counts([a], [b]) == (1, 0)


def test_i6_each_pair_counted():
    assert al.pair_counts(["government", "liberal", "violent"], ["corporate", "liberal", "peaceful"]) == (1, 2)


def test_i6_parse_accepts_keys_japanese_and_english():
    assert al.parse_alignments("Government, 狂信者,weird") == ["government", "fanatic", "weird"]
    with pytest.raises(GmError):
        al.parse_alignments(["Martian"])


# -- I-4 the attack --------------------------------------------------------------------------------

def make(purpose="control", a_align=(), t_align=(), position="further", parent=(), **kw):
    """An attack: attacker power 6 (global 4), target power 5 resistance 3."""
    return {
        "purpose": purpose, "attacker_seat": "s1",
        "attacker": {"kind": "group", "name": "A", "power": 6, "global_power": 4, "use": kw.pop("use", "normal"),
                     "alignments": list(a_align)},
        "target": {"name": "T", "owner": kw.pop("owner", "s2"), "power": 5, "resistance": 3,
                   "alignments": list(t_align), "position": position, "parent_alignments": list(parent),
                   "subtree": kw.pop("subtree", 0), "tokens": kw.pop("tokens", 0)},
        "supports": kw.pop("supports", []), "modifiers": kw.pop("modifiers", []), **kw}


ALL_PAIRS = [(a, b) for a in al.ALIGNMENTS for b in al.ALIGNMENTS]


@pytest.mark.parametrize("a,b", ALL_PAIRS)
def test_i4_alignment_modifier_for_every_pair(a, b):
    """Control: same +4, opposed -4; destroy: same -4, opposed +4; unrelated 0 (I-6 pairs)."""
    if al.are_same(a, b):
        control, destroy = 4, -4
    elif al.are_opposed(a, b):
        control, destroy = -4, 4
    else:
        control, destroy = 0, 0
    assert atk.breakdown(make("control", [a], [b]))["attack_total"] == 6 + control
    assert atk.breakdown(make("destroy", [a], [b]))["attack_total"] == 6 + destroy


def test_i4_fanatic_vs_fanatic_is_opposed_in_the_attack():
    assert atk.breakdown(make("control", ["fanatic"], ["fanatic"]))["attack_total"] == 2
    assert atk.breakdown(make("destroy", ["fanatic"], ["fanatic"]))["attack_total"] == 10


def test_i4_several_pairs_each_count():
    b = atk.breakdown(make("control", ["government", "liberal", "violent"], ["corporate", "liberal", "peaceful"]))
    assert b["attack_total"] == 6 + 4 - 8
    # each count reads with × in both languages (English had "same alignment x1")
    assert [t["label"] for t in b["attack"][1:]] == [{"ja": "同じ属性×1", "en": "same alignment ×1"},
                                                     {"ja": "対立属性×2", "en": "opposed alignment ×2"}]


@pytest.mark.parametrize("purpose,base", [("control", 3), ("destroy", 5)])
def test_i4_defense_base_is_resistance_or_power(purpose, base):
    assert atk.breakdown(make(purpose))["defense_total"] == base


@pytest.mark.parametrize("attacker,target,attack_en,defense_en", [
    ("UFOs", "KGB", "UFOs' power", "KGB's resistance"),  # it read "UFOs's power"
    ("CIA", "Yuppies", "CIA's power", "Yuppies' resistance"),
])
def test_i4_the_breakdowns_names_read_as_english_possessives(attacker, target, attack_en, defense_en):
    attack = make()
    attack["attacker"]["name"], attack["target"]["name"] = attacker, target
    b = atk.breakdown(attack)
    assert (b["attack"][0]["label"]["en"], b["defense"][0]["label"]["en"]) == (attack_en, defense_en)
    assert b["attack"][0]["label"]["ja"] == f"{attacker}のパワー"


def test_i4_attacker_chooses_normal_or_global_power():
    assert atk.breakdown(make(use="global"))["attack_total"] == 4
    assert atk.breakdown(make(use="normal"))["attack_total"] == 6


@pytest.mark.parametrize("flags,attack_total,defense_total", [
    ({"same_illuminati": True}, 11, 3),
    ({"attack_agent": True}, 9, 3),
    ({"defense_agent": True}, 6, 6),
    ({"same_illuminati": True, "attack_agent": True, "defense_agent": True}, 14, 6),
])
def test_i4_illuminati_modifiers(flags, attack_total, defense_total):
    b = atk.breakdown(make(**flags))
    assert (b["attack_total"], b["defense_total"]) == (attack_total, defense_total)


@pytest.mark.parametrize("position,bonus", [("child", 10), ("grandchild", 5), ("further", 0), ("hand", 0)])
def test_i4_target_position(position, bonus):
    assert atk.breakdown(make("destroy", position=position))["defense_total"] == 5 + bonus


@pytest.mark.parametrize("purpose,target,parent,bonus", [
    ("control", ["liberal"], ["liberal"], 4),
    ("control", ["fanatic"], ["fanatic"], 0),  # non-Fanatic only
    ("control", ["liberal", "weird"], ["liberal", "weird"], 4),  # once, by default
    ("control", ["liberal"], ["conservative"], 0),
    ("destroy", ["liberal"], ["liberal"], 0),  # control targets only
])
def test_i4_parent_shares_alignment(purpose, target, parent, bonus):
    b = atk.breakdown(make(purpose, [], target, parent=parent))
    assert b["defense_total"] == (3 if purpose == "control" else 5) + bonus


def test_i4_parent_bonus_per_alignment_reading():
    b = atk.breakdown(make("control", [], ["liberal", "weird"], parent=["liberal", "weird"]),
                      parent_per_alignment=True)
    assert b["defense_total"] == 3 + 8
    assert b["defense"][-1]["label"] == {"ja": "親と同じ属性×2", "en": "shares an alignment with its parent ×2"}


def test_i4_supports_and_agents_and_modifiers():
    supports = [
        {"side": "attack", "kind": "aligned", "seat": "s3", "name": "X", "value": 4, "tokens": 1},
        {"side": "attack", "kind": "global", "seat": "s1", "name": "Y", "value": 2, "tokens": 1},
        {"side": "attack", "kind": "agent", "seat": "s1", "name": "T", "value": 0, "tokens": 0},
        {"side": "defense", "kind": "target", "seat": "s2", "name": "T", "value": 0, "tokens": 2},
        {"side": "defense", "kind": "adjacent", "seat": "s2", "name": "P", "value": 3, "tokens": 1},
        {"side": "defense", "kind": "agent", "seat": "s4", "name": "T", "value": 0, "tokens": 0},
    ]
    mods = [{"side": "attack", "amount": -2, "label": "怪力"}]
    b = atk.breakdown(make(supports=supports, modifiers=mods), names={"s3": "Carol"})
    assert b["attack_total"] == 6 + 4 + 2 + 10 - 2
    assert b["defense_total"] == 3 + 5 * 2 + 3 + 6
    assert b["achieved"] == 20 - 22
    assert any("Carol" in t["label"]["en"] for t in b["attack"])


def test_i4_one_agent_per_side():
    attack = make(supports=[{"side": "attack", "kind": "agent", "seat": "s1", "value": 0, "tokens": 0}])
    with pytest.raises(GmError):
        atk.check_support(attack, {"side": "attack", "kind": "agent", "seat": "s3"}, "s2")
    atk.check_support(attack, {"side": "defense", "kind": "agent", "seat": "s4"}, "s2")


@pytest.mark.parametrize("side", ["attack", "defense"])
def test_i4_no_agent_of_a_group_in_ones_own_power_structure(side):
    """The target's owner (defending it, or destroying its own group) holds the card: it cannot be the owner's agent."""
    with pytest.raises(GmError):
        atk.check_support(make(), {"side": side, "kind": "agent", "seat": "s2"}, "s2")
    atk.check_support(make(), {"side": side, "kind": "agent", "seat": "s3"}, "s2")


@pytest.mark.parametrize("purpose,side,mine,ok", [
    ("control", "attack", ["liberal"], True), ("control", "attack", ["conservative"], False),
    ("destroy", "attack", ["conservative"], True), ("destroy", "attack", ["liberal"], False),
    ("destroy", "attack", ["criminal"], False), ("control", "defense", ["liberal"], True),
    ("control", "defense", ["weird"], False), ("control", "attack", ["fanatic"], False),
])
def test_i4_aligned_support_needs_the_right_alignment(purpose, side, mine, ok):
    t_align = ["fanatic", "liberal"] if mine == ["fanatic"] else ["liberal"]
    attack = make(purpose, [], t_align)
    support = {"side": side, "kind": "aligned", "seat": "s3", "alignments": mine, "value": 3}
    if ok:
        atk.check_support(attack, support, "s2")
    else:
        with pytest.raises(GmError):
            atk.check_support(attack, support, "s2")


def test_i4_target_tokens_only_by_its_owner_and_not_for_attack():
    attack = make()
    atk.check_support(attack, {"side": "defense", "kind": "target", "seat": "s2", "tokens": 1}, "s2")
    with pytest.raises(GmError):
        atk.check_support(attack, {"side": "defense", "kind": "target", "seat": "s3", "tokens": 1}, "s2")
    with pytest.raises(GmError):
        atk.check_support(attack, {"side": "attack", "kind": "target", "seat": "s2", "tokens": 1}, "s2")


@pytest.mark.parametrize("seat,owner,ok", [("s2", "s2", True), ("s3", "s2", False), ("s1", None, False)])
def test_i4_parent_or_child_defends_only_for_its_owner(seat, owner, ok):
    """The target's parent and children are in its owner's power structure; a hand card has none."""
    support = {"side": "defense", "kind": "adjacent", "seat": seat, "value": 3}
    if ok:
        atk.check_support(make(owner=owner), support, owner)
    else:
        with pytest.raises(GmError):
            atk.check_support(make(owner=owner), support, owner)


# -- I-5 the roll ----------------------------------------------------------------------------------

@pytest.mark.parametrize("achieved,roll,ok", [
    (7, 7, True),  # achieved equal to the roll succeeds
    (6, 7, False),
    (10, 10, True), (9, 10, False),
    (20, 11, False), (20, 12, False),  # 11 and 12 always fail
    (2, 2, True), (-3, 2, False),  # negative achieved never reaches a roll
    (0, 2, False),
])
def test_i5_roll_boundaries(achieved, roll, ok):
    assert atk.succeeds(achieved, roll) is ok


# -- I-4 the result --------------------------------------------------------------------------------

def test_i4_destroy_outcome():
    changes = atk.outcome(make("destroy", subtree=2, tokens=2), True)
    assert ("s1", "destroyed", 1) in [c[:3] for c in changes]
    assert ("s2", "groups", -3) in [c[:3] for c in changes]
    assert ("s2", "group_hand", 2) in [c[:3] for c in changes]
    assert ("s2", "tokens_groups", -2) in [c[:3] for c in changes]


def test_i4_control_outcome_moves_the_subtree():
    changes = [c[:3] for c in atk.outcome(make("control", subtree=1, tokens=1), True)]
    assert changes == [("s1", "groups", 2), ("s2", "groups", -2), ("s2", "tokens_groups", -1)]


def test_i4_control_from_the_hand_and_failure():
    assert [c[:3] for c in atk.outcome(make("control", owner=None, position="hand"), True)] == [("s1", "groups", 1)]
    assert atk.outcome(make("destroy"), False) == []


# -- I-2 simultaneous placement --------------------------------------------------------------------

def test_i2_duplicates_set_aside_over_several_rounds_with_four_players():
    kept: dict = {}
    set_aside: list = []
    r1 = opening.settle_groups({"a": "Moral Minority", "b": "moral  minority", "c": "CIA", "d": "KGB"})
    assert r1["kept"] == {"c": "CIA", "d": "KGB"} and r1["again"] == ["a", "b"]
    assert r1["set_aside"] == ["Moral Minority"]
    kept.update(r1["kept"])
    set_aside += r1["set_aside"]
    assert opening.unavailable("ｃｉａ", kept, set_aside) == "kept"
    assert opening.unavailable("Moral Minority", kept, set_aside) == "set_aside"
    assert opening.unavailable("Yuppies", kept, set_aside) is None
    r2 = opening.settle_groups({"a": "Yuppies", "b": "Yuppies"})  # only those two choose again
    assert r2["kept"] == {} and r2["again"] == ["a", "b"] and r2["set_aside"] == ["Yuppies"]
    r3 = opening.settle_groups({"a": "Hackers", "b": "Post Office"})
    assert r3["kept"] == {"a": "Hackers", "b": "Post Office"} and r3["again"] == []


def test_i2_three_players_same_choice_all_set_aside():
    r = opening.settle_groups({"a": "X", "b": "X", "c": "X"})
    assert r["kept"] == {} and r["again"] == ["a", "b", "c"] and r["set_aside"] == ["X"]


# -- I-3 play order --------------------------------------------------------------------------------

def test_i3_higher_totals_first_ties_reroll_among_the_tied():
    # a: 3+4=7, b: 6+6=12, c: 5+2=7 -> b first; a and c re-roll: a 1+1=2, c 2+2=4
    dice = FixedDice([3, 4, 6, 6, 5, 2, 1, 1, 2, 2])
    result = opening.play_order(["a", "b", "c"], dice)
    assert result["order"] == ["b", "c", "a"]
    assert result["rolls"] == {"a": [7, 2], "b": [12], "c": [7, 4]}
    assert result["faces"] == {"a": [[3, 4], [1, 1]], "b": [[6, 6]], "c": [[5, 2], [2, 2]]}  # the panels show them
    assert dice.next_index == 10


def test_i3_reading_ties_keep_the_table_order():
    dice = FixedDice([3, 4, 6, 6, 5, 2])
    result = opening.play_order(["a", "b", "c"], dice, reroll_ties=False)
    assert result["order"] == ["b", "a", "c"] and result["faces"] == {"a": [[3, 4]], "b": [[6, 6]], "c": [[5, 2]]}
