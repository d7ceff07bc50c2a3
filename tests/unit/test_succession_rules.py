"""Grail Succession (G): the pure rules, named by rule code (RULES.md G-1 to G-3)."""

from __future__ import annotations

import pytest

from gmtool.core.errors import GmError
from gmtool.rulesets.succession import cards as C
from gmtool.rulesets.succession import rules as R
from gmtool.rulesets.succession import scoring as S


def t(f5=0, f6=0, f7=0, f8=0, plus=(), minus=(), grail=0) -> dict:
    """A tally by hand."""
    return {"faction": {"5": f5, "6": f6, "7": f7, "8": f8}, "plus": list(plus), "minus": list(minus), "grail": grail}


def test_g2_the_seeds_worked_example_a_15_b_14():
    scores = S.score({"A": t(4, 2, 3, 2), "B": t(0, 3, 3, 6)})
    assert scores["A"]["faction_points"] == 15 and scores["B"]["faction_points"] == 14
    assert scores["A"]["sets"] == 2 and scores["A"]["set_points"] == 10 and scores["B"]["sets"] == 0
    assert [f["points"] for f in scores["A"]["factions"]] == [5, 0, 0, 0]
    assert [f["points"] for f in scores["B"]["factions"]] == [0, 6, 0, 8]
    assert [f["outcome"] for f in scores["A"]["factions"]] == ["more", "less", "equal", "less"]
    assert (scores["A"]["total"], scores["B"]["total"]) == (15, 14)


@pytest.mark.parametrize("value", C.FACTIONS)
def test_g2_a_tie_in_a_faction_scores_nobody(value):
    a = t(**{f"f{value}": 3})
    b = t(**{f"f{value}": 3})
    scores = S.score({"A": a, "B": b})
    assert scores["A"]["total"] == scores["B"]["total"] == 0
    assert scores["A"]["factions"][C.FACTIONS.index(value)]["outcome"] == "equal"


@pytest.mark.parametrize("value", C.FACTIONS)
def test_g2_more_cards_of_a_faction_scores_its_value(value):
    scores = S.score({"A": t(**{f"f{value}": 2}), "B": t(**{f"f{value}": 1})})
    assert (scores["A"]["total"], scores["B"]["total"]) == (value, 0)


@pytest.mark.parametrize("mine, theirs, sets, total", [
    (t(1, 1, 1, 1), t(), 1, 5 + 6 + 7 + 8 + 5),  # a set and every majority
    (t(1, 1, 1, 1), t(2, 2, 2, 2), 1, 5),  # a set without any majority still scores 5
    (t(3, 3, 3, 2), t(3, 3, 3, 2), 2, 10),  # two sets, all majorities tied
    (t(5, 1, 1, 0), t(), 0, 5 + 6 + 7),  # no 8: no set
    (t(2, 3, 4, 5), t(9, 9, 9, 9), 2, 10),  # sets count the rarest value
])
def test_g2_sets_with_and_without_majorities(mine, theirs, sets, total):
    scores = S.score({"A": mine, "B": theirs})
    assert scores["A"]["sets"] == sets and scores["A"]["total"] == total


def test_g2_plus_and_minus_cards_add_and_subtract_their_values():
    scores = S.score({"A": t(plus=[3, 2], minus=[4]), "B": t(minus=[1, 1])})
    assert scores["A"]["total"] == 1 and scores["B"]["total"] == -2
    labels = [term["key"] for term in scores["A"]["terms"]]
    assert labels == ["plus", "minus"]


def test_g2_grails_score_0():
    scores = S.score({"A": t(grail=2), "B": t(grail=1)})
    assert scores["A"]["total"] == scores["B"]["total"] == 0
    assert scores["A"]["terms"][0]["key"] == "grail" and scores["A"]["terms"][0]["value"] == 0


def test_g3_three_grails_win_at_once_whatever_the_score():
    res = S.result({"A": t(grail=3), "B": t(9, 9, 9, 9, plus=[10])})
    assert res["winner"] == "A" and res["reason"] == "grail"
    assert S.grail_winner({"A": t(grail=2), "B": t(grail=1)}) is None


@pytest.mark.parametrize("tie, rematch", [("rematch", True), ("draw", False)])
def test_g3_equal_totals_are_a_rematch_or_a_draw_by_reading(tie, rematch):
    res = S.result({"A": t(1, 0, 0, 0), "B": t(0, 0, 0, 0, plus=[5])}, tie)
    assert res["winner"] is None and res["reason"] == "tie" and res["rematch"] is rematch


def test_g3_the_higher_total_wins():
    res = S.result({"A": t(4, 2, 3, 2), "B": t(0, 3, 3, 6)})
    assert res["winner"] == "A" and res["reason"] == "score"


@pytest.mark.parametrize("row, left, taken", [
    ([1, 2, 3, 4, 5, 6, 7], [1, 2], [3, 4, 5, 6, 7]),
    ([1, 2, 3, 4, 5], [], [1, 2, 3, 4, 5]),
    ([1, 2], [], [1, 2]),
    ([9], [], [9]),
])
def test_g1_take_gets_the_last_5_or_all_when_fewer(row, left, taken):
    assert R.take_split(row) == (left, taken)
    assert [row[i] for i in R.take_span(len(row))] == taken


def test_g1_no_take_from_an_empty_row():
    with pytest.raises(GmError) as err:
        R.take_split([])
    assert err.value.status == 409
    with pytest.raises(GmError):
        R.check_take(False, 0)


def test_g1_take_once_per_round_and_no_play_with_an_empty_hand():
    with pytest.raises(GmError, match="already took"):
        R.check_take(True, 4)
    with pytest.raises(GmError, match="No cards in hand: you cannot play; take the cards instead"):
        R.check_play(0, False, 4)
    for took, row in ((True, 4), (False, 0)):  # no take left: the GM skips the turn
        with pytest.raises(GmError, match="neither play nor take"):
            R.check_play(0, took, row)
    R.check_take(False, 1)
    R.check_play(1, True, 0)


@pytest.mark.parametrize("hand, took, row, expected", [
    (3, False, 4, {"play": True, "take": True, "must_take": False, "must_play": False, "stuck": False}),
    (0, False, 4, {"play": False, "take": True, "must_take": True, "must_play": False, "stuck": False}),
    (2, True, 4, {"play": True, "take": False, "must_take": False, "must_play": True, "stuck": False}),
    (2, False, 0, {"play": True, "take": False, "must_take": False, "must_play": False, "stuck": False}),
    (0, True, 3, {"play": False, "take": False, "must_take": False, "must_play": False, "stuck": True}),
])
def test_g1_moves_say_what_the_player_may_and_must_do(hand, took, row, expected):
    assert R.moves(hand, took, row) == expected


@pytest.mark.parametrize("value, number, card", [
    ("5", None, {"kind": "faction", "value": 5}),
    ("８", None, {"kind": "faction", "value": 8}),
    ("+3", None, {"kind": "plus", "value": 3}),
    ("-2", None, {"kind": "minus", "value": 2}),
    ("聖杯", None, {"kind": "grail", "value": 0}),
    ("grail", None, {"kind": "grail", "value": 0}),
    ({"kind": "plus", "value": "4"}, None, {"kind": "plus", "value": 4}),
    ("minus", "1", {"kind": "minus", "value": 1}),
    ("勢力", 6, {"kind": "faction", "value": 6}),
])
def test_g2_card_kinds_as_typed(value, number, card):
    assert C.parse_card(value, number) == card


@pytest.mark.parametrize("value, number", [("4", None), ("faction", 9), ("plus", None), ("plus", 0), ("minus", 99),
                                           ("joker", None), (None, None), ("plus", "x")])
def test_g2_cards_that_do_not_exist_are_refused(value, number):
    with pytest.raises(GmError) as err:
        C.parse_card(value, number)
    assert err.value.status in (None, 400) and err.value.en


def test_g2_the_supply_holds_3_grails():
    C.check_supply([{"kind": "grail", "value": 0}] * 2, {"kind": "grail", "value": 0})
    with pytest.raises(GmError, match="only 3 grail"):
        C.check_supply([{"kind": "grail", "value": 0}] * 3, {"kind": "grail", "value": 0})


def test_g2_score_only_counts_parse_lists_totals_and_refuse_nonsense():
    counts = S.parse_counts({"f5": "4", "f6": 2, "faction": None, "f7": 3, "f8": 2, "plus": "3, 2", "minus": 4, "grail": 1})
    assert counts == t(4, 2, 3, 2, plus=[3, 2], minus=[4], grail=1)
    assert S.parse_counts({"faction": {"5": 1}})["faction"]["5"] == 1
    for bad in ({"f5": -1}, {"grail": -1}, {"plus": "x"}, {"minus": [-3]}):
        with pytest.raises(GmError):
            S.parse_counts(bad)


def test_g2_score_only_entries_hold_no_more_than_the_deck():
    for entry in (t(26), t(grail=3), t(plus=[20] * 7, minus=[20] * 9)):
        S.check_entries([entry])
    S.check_entries([t(10, 3, plus=[20] * 3, minus=[1] * 4, grail=2), t(0, 3, 5, 5, plus=[20] * 4, minus=[1] * 5, grail=1)])
    for entries in ([t(f6=27)], [t(grail=4)], [t(20), t(f8=7)], [t(plus=[1] * 4), t(plus=[1] * 4)],
                    [t(minus=[1] * 5), t(minus=[1] * 5)], [t(grail=2), t(grail=2)], [t(plus=[141])], [t(plus=[140]), t(plus=[1])]):
        with pytest.raises(GmError) as err:
            S.check_entries(entries)
        assert err.value.status in (None, 400) and "There are only" in err.value.en


def test_g2_every_breakdown_term_key_is_named_in_the_docs():
    """A client reads `players[].score.terms[].key` to tell the G-2 terms apart: the docs' row listed the field but
    not its values."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "succession.md").read_text(encoding="utf-8")
    row = next(line for line in doc.splitlines() if line.startswith("| `players[].score.terms` |"))
    everything = S.tally([{"kind": "faction", "value": v} for v in C.FACTIONS]
                         + [{"kind": "plus", "value": 2}, {"kind": "minus", "value": 1}, {"kind": "grail", "value": 0}])
    keys = {t["key"] for t in S.score({"a": everything, "b": S.empty_tally()})["a"]["terms"]}
    assert keys == {"majority_5", "majority_6", "majority_7", "majority_8", "sets", "plus", "minus", "grail"}
    for key in keys - {f"majority_{v}" for v in C.FACTIONS}:
        assert f"`{key}`" in row, key
    assert "`majority_5`" in row and "`majority_8`" in row
