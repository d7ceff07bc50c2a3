"""core/turns.py: the turn machinery the games share (S-3, A-5, G-1, I-3)."""

from __future__ import annotations

import pytest

from gmtool.core.dice import FixedDice
from gmtool.core.errors import GmError
from gmtool.core.turns import Turns, order_rolls, pass_token, roll_order, rotate


def test_roll_order_high_first_ties_reroll_among_the_tied():
    # a 6, b 3, c 6 -> a and c re-roll: a 2, c 5 -> c, a, b
    out = roll_order(["a", "b", "c"], FixedDice([6, 3, 6, 2, 5]))
    assert out["order"] == ["c", "a", "b"] and out["rolls"] == {"a": [6, 2], "b": [3], "c": [6, 5]}


def test_roll_order_first_only_rerolls_only_a_tie_for_the_highest():
    """A-5 (browser review): a 2, b 5, c 2 -> b starts; a and c do not roll again (their tie decides nothing)."""
    out = roll_order(["a", "b", "c"], FixedDice([2, 5, 2]), first_only=True)
    assert out["order"][0] == "b" and out["rolls"] == {"a": [2], "b": [5], "c": [2]}
    # a 6, b 3, c 6 -> a and c again: 4, 4 -> again: 1, 3 -> c
    out = roll_order(["a", "b", "c"], FixedDice([6, 3, 6, 4, 4, 1, 3]), first_only=True)
    assert out["order"][0] == "c" and out["rolls"] == {"a": [6, 4, 1], "b": [3], "c": [6, 4, 3]}
    out = roll_order(["a"], FixedDice([]), first_only=True)
    assert out["order"][0] == "a" and out["rolls"] == {}


def test_roll_order_of_two_dice_sums_them_and_keeps_their_faces():
    """... and the faces of each roll (I-3's panels showed 「2D6 → 7 / 9」, totals only): one die each keeps none."""
    out = roll_order(["a", "b"], FixedDice([1, 1, 6, 6]), sides=6, count=2)
    assert out["order"] == ["b", "a"] and out["rolls"] == {"a": [2], "b": [12]}
    assert out["faces"] == {"a": [[1, 1]], "b": [[6, 6]]}
    out = roll_order(["a", "b", "c"], FixedDice([3, 4, 1, 1, 5, 2, 6, 6, 2, 3]), sides=6, count=2)  # a, c tie at 7
    assert out["order"] == ["a", "c", "b"] and out["faces"] == {"a": [[3, 4], [6, 6]], "b": [[1, 1]], "c": [[5, 2], [2, 3]]}
    assert [r["text"] for r in order_rolls(out["rolls"], "2D6", {}, faces=out["faces"])] == [
        "2D6 → [3,4] → 7 / [6,6] → 12", "2D6 → [1,1] → 2", "2D6 → [5,2] → 7 / [2,3] → 5"]
    assert [r["text"] for r in order_rolls(out["rolls"], "2D6", {})] == ["2D6 → 7 / 12", "2D6 → 2", "2D6 → 7 / 5"]
    assert "faces" not in roll_order(["a", "b"], FixedDice([1, 6]))


def test_rotate_moves_the_first_mover_last():
    assert rotate(["a", "b", "c"]) == ["b", "c", "a"] and rotate([]) == []


def test_a_token_passes_clockwise_skipping_players_who_are_out():
    assert pass_token(["a", "b", "c"], "a") == "b"
    assert pass_token(["a", "b", "c"], "c", out=["a"]) == "b"
    assert pass_token(["a", "b", "c"], "a", out=["b", "c"]) == "a"  # nobody else: the holder keeps it
    with pytest.raises(GmError):
        pass_token(["a"], "z")


def test_turns_move_through_phases_players_and_rounds():
    t = Turns.start(["a", "b"], phases=("rise", "draw"))
    assert (t.current, t.phase, t.round) == ("a", "rise", 1)
    t = t.advance()
    assert (t.current, t.phase) == ("a", "draw")
    t = t.advance()
    assert (t.current, t.phase, t.round) == ("b", "rise", 1)
    t = t.advance().advance()
    assert (t.current, t.round) == ("a", 2)
    assert Turns.from_dict(t.to_dict()) == t


def test_a_new_round_may_start_with_another_player():
    t = Turns.start(["a", "b"]).new_round("b")
    assert (t.current, t.round, t.first) == ("b", 2, "b")
    t = t.next_player()
    assert (t.current, t.round) == ("a", 2)
    assert t.next_player().round == 3


def test_an_eliminated_player_passes_the_turn_in_the_same_round():
    t = Turns.start(["a", "b", "c"]).eliminate("a")
    assert (t.current, t.round, t.first) == ("b", 1, "b") and t.active() == ["b", "c"]
    t = t.next_player().next_player()
    assert (t.current, t.round) == ("b", 2)


def test_the_last_player_of_a_round_out_on_their_turn_starts_the_next_round():
    """A-5: the round's last player went out on their own turn and play came back to the opener in the same round
    (the opener played twice in round 1, and the active-master coin passed a turn late): now a new round."""
    t = Turns.start(["a", "b", "c"]).next_player().next_player().eliminate("c")
    assert (t.current, t.round, t.first) == ("a", 2, "a")
    t = Turns.start(["a", "b", "c"]).next_player().eliminate("b")  # not back to the opener: the same round
    assert (t.current, t.round) == ("c", 1)


def test_a_move_out_of_turn_is_refused():
    with pytest.raises(GmError) as e:
        Turns.start(["a", "b"]).require("b")
    assert e.value.status == 409
