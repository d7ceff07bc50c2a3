"""Grail Succession (聖杯サクセション, RULES.md G-1): the turns: play or take, the take's cards, what the
player to move may and must do.

Pure functions over plain data: actions.py calls them and turns the answers into events. The cards
are in cards.py; the score and the result (G-2, G-3) in scoring.py.
"""

from __future__ import annotations

from gmtool.core.errors import Conflict

PLAYERS = 2
ROUNDS = 4  # G-1
TURNS_PER_ROUND = 6  # G-1: per player
HAND_SIZE = 5  # seed, 準備②: the hand dealt at the start of every round
TAKE_SIZE = 5  # G-1: a take gets the last 5 cards of the row (all when fewer)
START_ROW = 2  # seed, 準備③: two face-up cards start the row


def take_split(row: list) -> tuple[list, list]:
    """G-1: (the row left, the cards taken): the last 5 cards, all when fewer; an empty row cannot be taken."""
    if not row:
        raise Conflict("領地列にカードがないので取れません（G-1）", "The row is empty: there is nothing to take (G-1)")
    cut = max(0, len(row) - TAKE_SIZE)
    return list(row[:cut]), list(row[cut:])


def take_span(row_length: int) -> list[int]:
    """G-1: the positions (0-based, from the deck's end) a take would get now."""
    return list(range(max(0, row_length - TAKE_SIZE), row_length))


def check_play(hand: int, took: bool, row_length: int) -> None:
    """G-1: a play needs a card in hand; the refusal says what is left: the take, or (none) the GM's skip."""
    if hand > 0:
        return
    if moves(hand, took, row_length)["take"]:
        raise Conflict("手札がないのでカードを出せません。カードを取ってください（G-1）",
                       "No cards in hand: you cannot play; take the cards instead (G-1)")
    raise Conflict("手札がなく、カードを取ることもできません（GMが手番を飛ばします）（G-1）",
                   "No cards in hand and no take possible: you can neither play nor take (the GM skips the turn) (G-1)")


def check_take(took: bool, row_length: int) -> None:
    """G-1: a take once per round per player, and not from an empty row."""
    if took:
        raise Conflict("このラウンドは既にカードを取りました。カードを出してください（G-1）",
                       "You already took cards this round: play a card instead (G-1)")
    if row_length <= 0:
        raise Conflict("領地列にカードがないので取れません（G-1）", "The row is empty: there is nothing to take (G-1)")


def moves(hand: int, took: bool, row_length: int) -> dict:
    """G-1: what the player to move may do: play, take, and whether they must take (empty hand)."""
    can_play = hand > 0
    can_take = not took and row_length > 0
    return {"play": can_play, "take": can_take, "must_take": can_take and not can_play,
            "must_play": can_play and took, "stuck": not can_play and not can_take}


NO_MOVES = {"play": False, "take": False, "must_take": False, "must_play": False, "stuck": False}  # not this seat's turn
