"""Physical dice (実ダイス): faces rolled at the table are entered instead of drawn from the seed."""

from __future__ import annotations

import pytest

from gmtool.core import commands
from gmtool.core.dice import EnteredDice, SeededDice, dice_for, parse_faces, roll
from gmtool.core.errors import GmError


def test_entered_faces_are_used_in_order_and_marked():
    dice = EnteredDice([3, 5], next_index=7)
    r = roll("2D6+1", dice)
    assert r.total == 9 and r.entered and dice.next_index == 7  # nothing drawn from the seed
    dice.check_all_used()


@pytest.mark.parametrize("faces, expr, message", [
    ([7], "1D6", "d6にありません"),
    ([0], "1D6", "d6にありません"),
    ([3], "2D6", "足りません"),
])
def test_faces_that_do_not_fit_are_refused(faces, expr, message):
    with pytest.raises(GmError, match=message):
        roll(expr, EnteredDice(faces))


def test_faces_left_over_are_refused():
    dice = EnteredDice([3, 4, 5])
    roll("2D6", dice)
    with pytest.raises(GmError, match="多すぎます"):
        dice.check_all_used()


@pytest.mark.parametrize("text, faces", [("3 5", [3, 5]), ("3,5", [3, 5]), ("３、５", [3, 5]), ([6], [6]), (4, [4])])
def test_faces_from_forms_and_json(text, faces):
    assert parse_faces(text) == faces


@pytest.mark.parametrize("bad", ["", [], "x", [True], "1" * 6, list(range(201))])
def test_bad_faces_are_a_clear_error(bad):
    with pytest.raises(GmError):
        parse_faces(bad)


def test_the_sessions_dice_reading_picks_the_dice():
    seeded = SeededDice(b"x" * 32, 4)
    assert dice_for("server", seeded, {}) is seeded
    assert isinstance(dice_for("server", seeded, {"faces": [2]}), EnteredDice)
    asking = dice_for("entered", seeded, {})
    with pytest.raises(GmError, match="faces"):
        asking.randint(6)  # only an action that draws a die needs the faces
    assert dice_for("entered", seeded, {"dice": "server"}) is seeded


def test_an_entered_roll_is_logged_as_real_dice(pure):
    from gmtool.core.logtext import describe
    from gmtool.core.view import TABLE, visible_event
    [event] = pure.do(commands.roll, "2D6", "判定", EnteredDice([6, 6]))
    assert event.data["roll"]["entered"] is True and pure.state.dice_next == 0
    line = describe(visible_event(event, pure.state, TABLE), pure.state, "ja")
    assert "［実ダイス］" in line and "12" in line
    assert "[real dice]" in describe(visible_event(event, pure.state, TABLE), pure.state, "en")
    with pytest.raises(GmError, match="多すぎます"):
        pure.do(commands.roll, "1D6", "", EnteredDice([1, 2]))


def test_too_few_faces_for_a_ties_re_roll_say_who_tied_to_a_ruleset_and_keep_cores_words():
    """core.turns.roll_order short of real dice for a tie's re-roll: the refusal keeps core's words for every caller
    (「7個目のd6」), and carries the tie (the players, their total, where their faces begin) for a ruleset that names
    them (illuminati's play order: 「アリスとボブが7で同点です…」)."""
    from gmtool.core.dice import FacesShort
    from gmtool.core.turns import roll_order
    with pytest.raises(FacesShort) as short:  # a 7 and a 7, then b's 3 re-rolls: the tie's re-roll has no face
        roll_order(["a", "b", "c"], EnteredDice([3, 4, 5, 2, 1, 2]), count=2)
    assert (short.value.ja, short.value.en) == ("実ダイスの出目が足りません（7個目のd6）", "Not enough entered faces (die 7, a d6)")
    assert short.value.tie == (["a", "b"], 7, 6)
    with pytest.raises(FacesShort) as short:  # the first roll itself short: no tie to name
        roll_order(["a", "b"], EnteredDice([3]), count=1)
    assert short.value.tie is None
