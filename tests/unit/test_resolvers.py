"""Resolvers: pure functions from revealed answers to a result with its breakdown."""

from __future__ import annotations

import pytest

from gmtool.core.dice import FixedDice
from gmtool.core.model import Prompt
from gmtool.core.resolvers import BUILTIN, cancel_duplicates, highest, total, votes


def prompt(kind="number", options=(), modifiers=()):
    return Prompt(id="p1", title="t", kind=kind, options=list(options), seats=["s1", "s2", "s3"], gm_submits=False,
                  modifiers=list(modifiers))


def test_highest_single_winner_with_breakdown(pure):
    result = highest(prompt(), {"s1": 40, "s2": 55, "s3": 10}, pure.state, FixedDice([]))
    assert result["winners"] == ["s2"]
    assert result["summary"] == {"ja": "アーチャーの勝ち（55）", "en": "アーチャー wins (55)"}
    assert [(r["who"], r["total"]) for r in result["rows"]] == [("s1", 40), ("s2", 55), ("s3", 10)]
    assert result["events"] == []


def test_highest_tie_has_no_winner_t6(pure):
    result = highest(prompt(), {"s1": 50, "s2": 50, "s3": 10}, pure.state, FixedDice([]))
    assert result["winners"] == []
    assert result["summary"] == {"ja": "引き分け（セイバー・アーチャー：50）",
                                 "en": "Tie (セイバー, アーチャー: 50)"}  # English lists as English does (it read 「・」)


def test_highest_counts_gm_modifiers(pure):
    p = prompt(modifiers=[{"who": "s3", "amount": 50, "label": "令呪"}])
    result = highest(p, {"s1": 40, "s2": 55, "s3": 10}, pure.state, FixedDice([]))
    assert result["winners"] == ["s3"]
    row = result["rows"][2]
    assert row["total"] == 60 and row["terms"][-1] == {"label": "令呪", "value": 50, "rule": "GM"}


def test_highest_reads_a_choice_as_the_number_its_option_says(pure):
    """docs/api.md 12.9: `highest` on a `choice` prompt counts an option as the whole number it reads ("10" beats "7"),
    an option that is no number as 0 (only the GM's modifiers then decide)."""
    result = highest(prompt("choice", ["3", "10", "7"]), {"s1": "10", "s2": "7"}, pure.state, FixedDice([]))
    assert result["winners"] == ["s1"] and [r["total"] for r in result["rows"]] == [10, 7]
    p = prompt("choice", ["STR", "DEX"], modifiers=[{"who": "s2", "amount": 1, "label": "x"}])
    result = highest(p, {"s1": "STR", "s2": "DEX"}, pure.state, FixedDice([]))
    assert [r["total"] for r in result["rows"]] == [0, 1] and result["winners"] == ["s2"]

def test_highest_gm_is_named_gm(pure):
    result = highest(prompt(), {"s1": 1, "gm": 2}, pure.state, FixedDice([]))
    assert result["winners"] == ["gm"] and result["summary"]["en"] == "GM wins (2)"


def test_sum_adds_every_answer_and_modifier(pure):
    p = prompt(modifiers=[{"who": "s1", "amount": -3, "label": "減衰"}])
    result = total(p, {"s1": 4, "s2": 6, "s3": 5}, pure.state, FixedDice([]))
    assert result["total"] == 12
    assert result["summary"] == {"ja": "合計 12", "en": "Total 12"}


def test_votes_most_votes_wins_s13(pure):
    result = votes(prompt("seat", ["s1", "s2", "s3"]), {"s1": "s2", "s2": "s3", "s3": "s2"}, pure.state,
                   FixedDice([]))
    assert result["winners"] == ["s2"] and result["tied"] == []
    assert result["counts"][0] == {"option": "s2", "name": "アーチャー", "votes": 2}
    assert "アーチャー" in result["summary"]["ja"]


def test_votes_tie_lists_every_tied_option_s13(pure):
    result = votes(prompt("seat", ["s1", "s2", "s3"]), {"s1": "s2", "s2": "s3", "s3": "s1"}, pure.state,
                   FixedDice([]))
    assert result["winners"] == []
    assert sorted(result["tied"]) == ["s1", "s2", "s3"]
    assert result["summary"] == {"ja": "同数（アーチャー・ランサー・セイバー：1票）",
                                 "en": "Tie (アーチャー, ランサー, セイバー: 1 vote each)"}  # English lists as English does


def test_votes_count_each_item_of_a_multi_answer(pure):
    result = votes(prompt("multi", ["A", "B", "C"]), {"s1": ["A", "B"], "s2": ["B"], "s3": ["C", "B"]},
                   pure.state, FixedDice([]))
    assert result["winners"] == ["B"]
    assert {c["option"]: c["votes"] for c in result["counts"]} == {"A": 1, "B": 3, "C": 1}


def test_votes_gm_modifier_adds_votes(pure):
    p = prompt("choice", ["A", "B"], modifiers=[{"who": "A", "amount": 2, "label": "GM判断"}])
    result = votes(p, {"s1": "B", "s2": "B", "s3": "A"}, pure.state, FixedDice([]))
    assert result["winners"] == ["A"]


def test_cancel_duplicates_sets_duplicates_aside(pure):
    result = cancel_duplicates(prompt("choice", ["政府", "企業", "犯罪"]), {"s1": "政府", "s2": "政府", "s3": "犯罪"},
                               pure.state, FixedDice([]))
    assert result["winners"] == ["s3"]
    assert {r["who"]: r["kept"] for r in result["rows"]} == {"s1": False, "s2": False, "s3": True}
    assert result["kept"] == ["ランサー"]
    assert "選び直し" in result["summary"]["ja"] and "セイバー" in result["summary"]["ja"]
    assert any("set aside" in n["en"] for n in result["notes"])  # a core resolver cites no game's rule


def test_cancel_duplicates_without_duplicates_keeps_everyone_i2(pure):
    result = cancel_duplicates(prompt("choice", ["A", "B", "C"]), {"s1": "A", "s2": "B", "s3": "C"}, pure.state,
                               FixedDice([]))
    assert result["winners"] == ["s1", "s2", "s3"]
    assert result["summary"]["en"] == "No duplicates"


@pytest.mark.parametrize("name, kinds", [
    ("highest", ("number", "choice")), ("sum", ("number",)), ("votes", ("seat", "choice", "multi")),
    ("cancel_duplicates", ("choice", "seat", "text")),
])
def test_builtin_resolvers_declare_their_kinds(name, kinds):
    resolver = BUILTIN[name]
    assert resolver.kinds == kinds
    assert resolver.label.ja and resolver.label.en


def test_resolvers_are_deterministic_and_draw_no_dice(pure):
    dice = FixedDice([])
    answers = {"s1": 3, "s2": 9}
    for name in ("highest", "sum"):
        assert BUILTIN[name].fn(prompt(), answers, pure.state, dice) == BUILTIN[name].fn(prompt(), answers,
                                                                                          pure.state, dice)
    assert dice.next_index == 0
