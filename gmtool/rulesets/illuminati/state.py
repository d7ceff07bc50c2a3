"""The illuminati part of a session's state (`state.extra["illuminati"]`), read and changed only here and in events.py."""

from __future__ import annotations

from gmtool.core.model import State
from gmtool.core.turns import Turns

NAME = "illuminati"
HISTORY = 10  # finished attacks kept in the state
# The stages of a game in order, with their labels (Japanese, English).
STAGES = {"setup": ("準備", "Setup"), "illuminati": ("イルミナティの配置", "Placing the Illuminati"),
          "groups": ("初期グループの配置", "Placing the starting groups"), "order": ("プレイ順を決める", "Rolling the order"),
          "play": ("ゲーム中", "Playing"), "over": ("ゲーム終了", "Game over")}


def initial() -> dict:
    """The state of a fresh game, before the regulation."""
    return {
        "stage": "setup",  # setup -> illuminati -> groups -> order -> play -> over
        "players": [], "goal": None, "goal_basis": "", "tournament": False,
        "illuminati": {}, "prompt": None, "round": 0, "kept": {}, "set_aside": [], "rounds": [],
        "order": [], "order_rolls": {}, "order_entered": False, "turns": None,
        "turn": new_turn(),
        "agents": {}, "declared": [], "out": {}, "winner": None,
        "attack": None, "attacks": [], "next_attack": 1,
    }


def new_turn() -> dict:
    """A turn not begun yet: no draws, no automatic control, the group draw unused."""
    return {"started": False, "group_draw": False, "auto_control": None}


def game(state: State) -> dict:
    """The game's state for a fold (created on first use)."""
    return state.extra.setdefault(NAME, initial())


def peek(state: State) -> dict:
    """The game's state for reading (never creates it)."""
    return state.extra.get(NAME) or initial()


def turns(g: dict) -> Turns | None:
    """The play order and the current player, once the order is rolled."""
    return Turns.from_dict(g["turns"]) if g.get("turns") else None


def active(g: dict) -> list[str]:
    """Players still in the game, in the order of play once it is known."""
    base = g["order"] or g["players"]
    return [p for p in base if p not in g["out"]]


def current(g: dict) -> str | None:
    """The player whose turn it is."""
    t = turns(g)
    return t.current if t else None
