"""The session's dice reading "entered": a request without faces may still take a step that rolls nothing;
the first die it draws is refused (core.dice.dice_for)."""

from __future__ import annotations

import pytest

from gmtool.core.dice import EnteredDice, FixedDice, dice_for, is_entered, roll
from gmtool.core.errors import GmError


def test_entered_reading_without_faces_refuses_only_when_a_die_is_drawn():
    seeded = FixedDice([4])
    dice = dice_for("entered", seeded, {})
    assert is_entered(dice) and dice.next_index == 0
    dice.check_all_used()  # a step that rolled nothing is fine
    with pytest.raises(GmError, match="faces"):
        dice.randint(6)
    with pytest.raises(GmError, match="faces"):
        roll("1d6", dice_for("entered", seeded, {"faces": ""}))


def test_entered_reading_with_faces_or_server_dice():
    seeded = FixedDice([4])
    assert isinstance(dice_for("entered", seeded, {"faces": [3]}), EnteredDice)
    assert dice_for("entered", seeded, {"dice": "server"}) is seeded
    assert dice_for("server", seeded, {}) is seeded
