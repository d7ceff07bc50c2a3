"""I-1 goals, turn bookkeeping (action tokens, the plot hand limit) and I-7 elimination."""

from __future__ import annotations

from gmtool.core.errors import GmError

MIN_PLAYERS, MAX_PLAYERS = 2, 6
PLOT_HAND_LIMIT = 5  # the plot hand is cut to 5 at the end of the turn
TOURNAMENT_GOAL = 12  # I-1: two-player tournaments
TOURNAMENT_PLAYERS = 2  # I-1: the tournament goal exists for two players only


def basic_goal(players: int, tournament: bool = False) -> int:
    """I-1: groups to control: 12 for 2-3 players, 11 for 4, 10 for 5 or more; 12 in a two-player tournament."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise GmError(f"プレイヤーは{MIN_PLAYERS}〜{MAX_PLAYERS}人です（{players}人）",
                      f"Illuminati is for {MIN_PLAYERS} to {MAX_PLAYERS} players (got {players})")
    if tournament and players == 2:
        return TOURNAMENT_GOAL
    if players <= 3:
        return 12
    if players == 4:
        return 11
    return 10


def missing(groups: int, goal: int) -> int:
    """I-1: how many groups a player still lacks for the goal (0 when met)."""
    return max(0, goal - groups)


def meets_goal(groups: int, goal: int) -> bool:
    """I-1: whether a player controls at least the goal's number of groups."""
    return groups >= goal


def turn_tokens(groups: int, illuminati_tokens: int, group_tokens: int, auto_control: bool,
                tournament_two_player: bool) -> tuple[int, int]:
    """Start of a turn: one action token on the Illuminati and on each group that has none.

    Returns the new (Illuminati tokens, group tokens). In a two-player tournament a turn with an
    automatic control places none on the Illuminati.
    """
    illuminati = illuminati_tokens if (auto_control and tournament_two_player) else max(illuminati_tokens, 1)
    return illuminati, max(group_tokens, groups)


def plot_draw_cost(source: str) -> int:
    """Tokens spent to draw a plot card at any time: 1 from the Illuminati, 2 from groups."""
    return 1 if source == "illuminati" else 2


def hand_after_turn(plot_hand: int) -> int:
    """The plot hand after the end of the turn (cut to the limit of 5)."""
    return min(plot_hand, PLOT_HAND_LIMIT)


def is_out(groups: int) -> bool:
    """I-7: a player with no groups is out."""
    return groups <= 0


def last_standing(players: list[str], out: list[str]) -> str | None:
    """I-1: the one player left when everyone else is out, else None."""
    left = [p for p in players if p not in out]
    return left[0] if len(left) == 1 else None
