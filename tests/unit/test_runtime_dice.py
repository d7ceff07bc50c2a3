"""Principle 4 through the runtime: every die comes from the session seed and can be replayed."""

from __future__ import annotations

from gmtool import operations as ops
from gmtool.core.dice import die_value, seed_hash
from gmtool.core.view import GM, Viewer
from gmtool.runtime import SessionManager


def dice_of(roll: dict) -> list[tuple[int, int]]:
    """(sides, value) of every die a roll drew, in draw order."""
    out = []
    for term in roll["terms"]:
        if term["kind"] == "dice":
            out += [(term["sides"], v) for v in term["rolls"]]
        elif term["kind"] == "d66":
            out += [(6, v) for v in term["rolls"]]
        elif term["kind"] == "choice":
            out.append((len(term["items"]), term["roll"]))
    return out


def test_rolls_use_the_session_seed_in_order(live):
    first = ops.roll(live, GM, {"expr": "3D6"})
    second = ops.roll(live, Viewer("seat", "s2"), {"expr": "1D100+5"})
    drawn = dice_of(first) + dice_of(second)
    assert drawn == [(s, die_value(live.seed, i, s)) for i, (s, _) in enumerate(drawn)]
    assert live.state.dice_next == 4
    assert second["total"] == die_value(live.seed, 3, 100) + 5


def test_seed_hash_published_at_start_matches_the_secret_seed(live):
    assert live.state.seed_hash == seed_hash(live.seed)
    assert live.state.seed is None


def test_replaying_with_the_published_seed_after_close_gives_the_same_dice(manager, live):
    rolls = [ops.roll(live, GM, {"expr": e}) for e in ("2D6>=7", "D66", "4D6KH3", "choice[筋力,耐久,敏捷]", "S1D20")]
    result = ops.close(live, GM)
    assert result["seed"] == live.state.seed
    sid = live.state.session_id
    manager.close_all()
    fresh = SessionManager(manager.data_dir)
    try:
        state = fresh.get(sid).state
        seed = bytes.fromhex(state.seed)
        assert seed_hash(seed) == state.seed_hash
        index = 0
        for roll in rolls:
            for sides, value in dice_of(roll):
                assert die_value(seed, index, sides) == value
                index += 1
        assert index == state.dice_next
    finally:
        fresh.close_all()


def test_dice_index_is_not_reused_after_undo_of_a_roll(live):
    first = ops.roll(live, GM, {"expr": "2D6"})
    live.undo()
    assert live.state.rolls == []
    assert live.state.dice_next == 2
    second = ops.roll(live, GM, {"expr": "2D6"})
    assert [v for _, v in dice_of(second)] == [die_value(live.seed, 2, 6), die_value(live.seed, 3, 6)]
    assert dice_of(first) == [(6, die_value(live.seed, 0, 6)), (6, die_value(live.seed, 1, 6))]


def test_dice_index_is_not_reused_after_undo_and_restart(manager, live):
    ops.roll(live, GM, {"expr": "3D6"})
    live.undo()
    sid = live.state.session_id
    manager.close_all()
    fresh = SessionManager(manager.data_dir)
    try:
        again = fresh.get(sid)
        assert again.state.dice_next == 3
        roll = ops.roll(again, GM, {"expr": "1D6"})
        assert dice_of(roll) == [(6, die_value(again.seed, 3, 6))]
    finally:
        fresh.close_all()


def test_an_invalid_expression_draws_no_dice(live):
    import pytest

    from gmtool.core.dice import DiceError
    with pytest.raises(DiceError):
        ops.roll(live, GM, {"expr": "2D6+"})
    assert live.state.dice_next == 0
    assert live.store.count_events() == 1
