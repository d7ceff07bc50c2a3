"""Fate/Ace Royal pure rules, named by rule code (RULES.md A-1 to A-11)."""

import pytest

from gmtool.core.dice import FixedDice
from gmtool.core.errors import GmError
from gmtool.rulesets.ace_royal import rules as r


def test_a1_servant_stats_are_the_sums():
    assert r.servant_stats([6, 5, 3, 3], [3, 3, 1, 5]) == [9, 8, 4, 8]


@pytest.mark.parametrize("text,expected", [("6/5/3/3", [6, 5, 3, 3]), ("6 5 3 3", [6, 5, 3, 3]),
                                           ([1, 2, 3, 4], [1, 2, 3, 4]), ("0／0／0／-1", [0, 0, 0, -1])])
def test_a1_parse_stats(text, expected):
    assert r.parse_stats(text) == expected


@pytest.mark.parametrize("bad", ["6/5/3", "a/b/c/d", None, [1, 2, 3, 4, 5], [True, 1, 1, 1], "100/0/0/0"])
def test_a1_parse_stats_refuses(bad):
    with pytest.raises(GmError):
        r.parse_stats(bad)


def test_a1_stats_read_as_core_reads_a_number():
    """parse_stats took whatever int() takes: "1_0" was 10 and "٣" (Arabic-Indic) 3, and a 5,000-digit stat was
    refused with the whole value in both messages. Now core's parse_int: full-width digits still read."""
    assert r.parse_stats("６/５/３/３") == [6, 5, 3, 3] and r.parse_stats([" 5 ", 1, "－1", 0]) == [5, 1, -1, 0]
    for bad in ("1_0/1/1/1", "٣/1/1/1", ["1_0", 1, 1, 1]):
        with pytest.raises(GmError):
            r.parse_stats(bad)
    with pytest.raises(GmError) as refused:
        r.parse_stats(["9" * 5000, 1, 1, 1])
    assert len(refused.value.ja) < 100 and len(refused.value.en) < 100


def test_a1_parse_skills_by_key_and_name():
    assert r.parse_skills("先制、カリスマ,legion, Mind's eye") == ["first_strike", "charisma", "legion", "mind_eye"]
    with pytest.raises(GmError):
        r.parse_skills(["怪力"])


@pytest.mark.parametrize("atk,dfn,damage", [(6, 4, 2), (5, 5, 1), (4, 5, 0), (10, 0, 10), (0, 0, 1)])
def test_a7_attacker_damage(atk, dfn, damage):
    assert r.attacker_damage(atk, dfn) == damage


@pytest.mark.parametrize("atk,dfn,damage", [(6, 4, 2), (5, 5, 0), (4, 5, 0), (7, 6, 1)])
def test_a7_interceptor_damage(atk, dfn, damage):
    assert r.interceptor_damage(atk, dfn) == damage


@pytest.mark.parametrize("att_first,dfn_first,dealt,skipped", [
    (True, False, 2, True),    # 先制 and damage: no interception
    (True, False, 0, False),   # 先制 without damage: interception happens
    (True, True, 2, False),    # both 先制: cancelled
    (False, True, 2, False),   # only the interceptor has it: nothing
    (False, False, 3, False),
])
def test_a7_first_strike(att_first, dfn_first, dealt, skipped):
    assert r.interception_skipped(att_first, dfn_first, dealt) is skipped


def _side(stats):
    return r.side_stats(stats)


@pytest.mark.parametrize("att,dfn,att_kind,dfn_kind,firsts,to_dfn,to_att,intercept", [
    # ties on both sides: the attacker's tie deals 1, the interceptor's 0
    ([5, 5, 0, 0], [5, 5, 0, 0], "physical", "physical", (False, False), 1, 0, True),
    # 0 damage both ways
    ([3, 9, 3, 9], [9, 9, 9, 9], "magical", "physical", (False, False), 0, 0, True),
    # 先制 with damage skips the interception
    ([9, 1, 0, 0], [9, 5, 0, 0], "physical", "physical", (True, False), 4, 0, False),
    # both 先制: the interceptor strikes back
    ([9, 1, 0, 0], [9, 5, 0, 0], "physical", "physical", (True, True), 4, 8, True),
    # 先制 without damage: interception
    ([2, 1, 0, 0], [9, 5, 0, 0], "physical", "physical", (True, False), 0, 8, True),
    # magical both ways
    ([0, 0, 8, 4], [0, 0, 6, 3], "magical", "magical", (False, False), 5, 2, True),
])
def test_a7_resolve_combat(att, dfn, att_kind, dfn_kind, firsts, to_dfn, to_att, intercept):
    out = r.resolve_combat(_side(att), _side(dfn), att_kind, dfn_kind, *firsts)
    assert (out["to_interceptor"], out["to_attacker"]) == (to_dfn, to_att)
    assert (out["intercept"] is not None) is intercept


@pytest.mark.parametrize("to_att,to_dfn,who", [(0, 2, "attacker"), (2, 0, "interceptor"), (1, 1, None), (0, 0, None)])
def test_a7_stealer(to_att, to_dfn, who):
    assert r.stealer(to_att, to_dfn) == who


def test_a7_steal_position_by_die_and_empty_hand():
    assert r.steal_position(3, FixedDice([2])) == 2
    assert r.steal_position(0, FixedDice([])) is None


@pytest.mark.parametrize("faces,expected", [([4], [4]), ([1, 5], [1, 5]), ([1, 1, 1, 6], [1, 1, 1, 6])])
def test_a8_quick_die_rerolls_ones(faces, expected):
    dice = FixedDice(faces)
    assert r.quick_die(dice) == expected
    assert dice.next_index == len(faces)


def test_a8_quick_die_adds_to_atk_and_def():
    side = r.side_stats([9, 8, 4, 8], quick_faces=[1, 1, 3])
    assert side["stats"] == [14, 13, 9, 13]
    assert side["lines"][-1] == {"what": "quick_die", "faces": [1, 1, 3], "values": [5] * 4}


def test_a8_quick_codes_give_plus_one_each_and_modifiers_are_labelled():
    side = r.side_stats([1, 1, 1, 1], modifiers=[{"stat": "patk", "value": 2, "label": "令呪"}], codes_quick=2)
    assert side["stats"] == [5, 3, 3, 3]
    assert side["lines"][-1]["label"] == "令呪"


@pytest.mark.parametrize("charisma,legion,stats", [
    (False, False, [7, 8, 7, 4]),
    (True, False, [9, 9, 9, 5]),
    (True, True, [11, 10, 11, 6]),   # 王の軍勢 7/8/7/4 → 11/10/11/6
    (False, True, [7, 8, 7, 4]),
])
def test_a9_proxy_charisma(charisma, legion, stats):
    side = r.side_stats([5, 3, 5, 3], proxy={"name": "王の軍勢", "stats": [7, 8, 7, 4], "legion": legion},
                        charisma=charisma)
    assert side["stats"] == stats


def test_a9_proxy_takes_the_servants_modifiers():
    side = r.side_stats([5, 3, 5, 3], modifiers=[{"stat": "all", "value": 1, "label": "礼装"}],
                        proxy={"name": "x", "stats": [1, 1, 1, 1]})
    assert side["stats"] == [2, 2, 2, 2]


@pytest.mark.parametrize("source,damage,can_discard,expected", [
    ("code", 3, True, (True, False, None)),
    ("hero", 1, True, (False, True, None)),
    ("hero", 2, True, (False, True, "down")),
    ("hero", 2, False, (False, False, "danger")),
    ("hero", 0, True, (False, False, None)),
])
def test_a9_proxy_damage(source, damage, can_discard, expected):
    out = r.proxy_damage(source, damage, can_discard)
    assert (out["discard_field_code"], out["discard_hand_code"], out["state"]) == expected


def test_a6_encounter_on_a_one_only():
    assert r.encounter_happens(1) and not any(r.encounter_happens(f) for f in range(2, 7))


def test_a6_encounter_numbers_clockwise_skip_out():
    assert r.encounter_numbers(["a", "b", "c", "d"], "c", out=["a"]) == ["d", "b"]


def test_a6_random_target_rerolls_unheld_numbers():
    target, faces = r.encounter_target(["b", "c", "d"], FixedDice([6, 5, 4, 2]))
    assert (target, faces) == ("c", [6, 5, 4, 2])


def test_a6_encounter_without_opponents_is_refused():
    with pytest.raises(GmError):
        r.encounter_target([], FixedDice([1]))


@pytest.mark.parametrize("gate,roles", [(False, ("me", "you")), (True, ("you", "me"))])
def test_a6_gatekeeper_flips_roles(gate, roles):
    assert r.encounter_roles("me", "you", gate) == roles


@pytest.mark.parametrize("reading,round_ended,round_no,due", [
    ("round", False, 1, False), ("round", True, 1, True), ("round", False, 2, False), ("round", True, 3, True),
    ("turn", False, 1, False), ("turn", True, 1, True), ("turn", False, 2, True),
])
def test_a5_active_master_pass(reading, round_ended, round_no, due):
    assert r.pass_due(reading, round_ended, round_no) is due


@pytest.mark.parametrize("assassin,depletion,hand,dies", [
    (4, 0, 4, None), (5, 0, 4, "assassin"), (0, 5, 4, "depletion"), (3, 3, 4, None), (1, 0, 0, "assassin"),
])
def test_a10_master_dies_when_a_count_exceeds_the_hand(assassin, depletion, hand, dies):
    assert r.master_dies(assassin, depletion, hand) == dies


@pytest.mark.parametrize("hand,discard", [(3, 0), (4, 0), (5, 1), (8, 4)])
def test_a11_end_step_discard(hand, discard):
    assert r.end_step_discard(hand) == discard


@pytest.mark.parametrize("state,can", [("rise", True), ("reverse", True), ("danger", False), ("down", False)])
def test_a4_only_rise_or_reverse_attacks(state, can):
    assert r.can_attack(state) is can


@pytest.mark.parametrize("before,after", [("danger", "down"), ("rise", "rise"), ("down", "down")])
def test_a4_mana_loss_in_danger(before, after):
    assert r.after_mana_loss(before) == after


def test_mind_eye_note():
    assert r.mind_eye_note(True, True) == "both"
    assert r.mind_eye_note(False, True) == "interceptor"
    assert r.mind_eye_note(False, False) is None


@pytest.mark.parametrize("rolls, seat, face, dice, ties, first, after", [
    ({"a": [5, 3], "b": [5, 4], "c": [2]}, "c", 6, [], "reroll", "c", {"a": [5], "b": [5], "c": [6]}),  # tie-break dropped
    ({"a": [5, 3], "b": [5, 4], "c": [2]}, "c", 5, [1], "reroll", "b", {"a": [5, 3], "b": [5, 4], "c": [5, 1]}),  # joins it
    ({"a": [5, 3], "b": [5, 4], "c": [2]}, "a", 4, [6, 1], "reroll", "a", {"a": [5, 4, 6], "b": [5, 4, 1], "c": [2]}),
    ({"a": [4], "b": [6], "c": [6]}, "a", 6, [], "seat_order", "a", {"a": [6], "b": [6], "c": [6]}),
])
def test_a3_a5_first_master_after_a_re_rolled_die(rolls, seat, face, dice, ties, first, after):
    """A-3 quick effect 2 x A-5: the player's latest die replaced, the rounds walked again (reading first_ties)."""
    fixed = FixedDice(dice)
    assert r.first_after_reroll(["a", "b", "c"], rolls, seat, face, fixed, ties) == (first, after)
    assert fixed.next_index == len(dice)


def test_no_sentence_of_the_screens_words_is_written_twice():
    """The console's two lethal-placement confirms (with and without seal 3) repeated their first sentence in both
    languages: a wording change had to be made twice. The no-seal one could never be shown (a player it is asked for
    holds a seal: with none left they are out, A-2), so one confirm is left; no sentence of these strings repeats."""
    import re
    from collections import Counter

    from gmtool.rulesets.ace_royal.strings import STRINGS
    sentences = Counter(sentence.strip() for pair in STRINGS.values() for text in pair
                        for sentence in re.split(r"(?<=[。？！])|(?<=[.?!]) ", text) if len(sentence.strip()) >= 15)
    assert [s for s, n in sentences.items() if n > 1] == []
