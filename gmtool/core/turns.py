"""Turn order, shared by the games: the order of play decided by dice, the current player,
rounds and phases, rotation between phases, and a token passed round the table.

Pure functions over plain data (a ruleset keeps the result in its own state and folds it in
its own events), so every game moves its turns the same way:
- `roll_order`: everyone rolls, highest first, ties re-roll among the tied (S-3, I-3; A-5 settles only the first);
- `Turns`: the current player, the round and the phase, `advance` / `next_player` (G-1, A-5);
- `rotate`: the first mover moves last next time (S-3);
- `pass_token`: the next holder clockwise, skipping players who are out (A-5's active-master coin).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .dice import FacesShort
from .errors import GmError

MAX_REROLLS = 50


def roll_order(players: Iterable[str], dice: Any, sides: int = 6, count: int = 1, first_only: bool = False) -> dict:
    """Everyone rolls `count`d`sides`; higher totals go first; ties re-roll among the tied. With `first_only` only
    who goes first is settled: only a tie for the highest rolls again, the rest keep their first totals' order (a
    tie further down decides nothing, so nobody rolls for it: with real dice the GM enters no faces for it).

    Returns {"order": [...], "rolls": {player: [total of each roll, in order]}}, and with more than one die each
    (`count` > 1) "faces": {player: [[the faces of each roll], in order]}; the dice may be the server's or entered
    faces (core.dice), drawn player by player, round by round.
    """
    players = list(players)
    if len(set(players)) != len(players):
        raise GmError("プレイヤーが重複しています", "A player is listed twice")
    rolls: dict[str, list[int]] = {p: [] for p in players}
    faces: dict[str, list[list[int]]] = {p: [] for p in players}

    drawn = [0]  # dice drawn so far

    def draw() -> int:
        value = dice.randint(sides)
        drawn[0] += 1
        return value

    def rank(group: list[str], depth: int, tied_at: int | None = None) -> list[str]:
        if len(group) <= 1 or depth > MAX_REROLLS:
            return group
        first = drawn[0]
        try:
            rolled = {p: [draw() for _ in range(count)] for p in group}
        except FacesShort as short:  # real dice short for a tie's re-roll: the caller may name who tied, at what total
            if tied_at is not None and short.tie is None:  # and where their faces begin (0-based)
                short.tie = (group, tied_at, first)
            raise
        totals = {p: sum(rolled[p]) for p in group}
        for p in group:
            rolls[p].append(totals[p])
            faces[p].append(rolled[p])
        ranked = []
        for i, v in enumerate(sorted(set(totals.values()), reverse=True)):
            tied = [p for p in group if totals[p] == v]
            ranked += rank(tied, depth + 1, v) if i == 0 or not first_only else tied
        return ranked

    order = rank(players, 0)
    out: dict = {"order": order, "rolls": {p: r for p, r in rolls.items() if r}}
    if count > 1:
        out["faces"] = {p: f for p, f in faces.items() if f}
    return out


def order_rolls(rolls: dict, dice: str, label: dict, entered: bool = False, faces: dict | None = None) -> list[dict]:
    """The rolls of an order decided by dice (roll_order's `rolls`: {player: [total of each roll]}) as a ruleset's
    event lists them on the screens (EventType.rolls): one per player, its totals in order (a tie rolled again after
    the first, after a " / "), the last one its result, e.g. "1D6 → 3 / 5" (an arrow leads to a result, as in core's
    "2D6 → [3,4] → 7": a second one would read as the first roll's total). With `faces` (roll_order's, more than one
    die each: {player: [[faces of each roll]]}) each roll's faces lead to its total, as core's: "2D6 → [3,4] → 7 /
    [5,6] → 11"; a player whose faces are not all there (a log written before they were) reads as totals only."""
    def text(player: str, totals: list) -> str:
        shown = faces.get(player) if isinstance(faces, dict) else None
        if isinstance(shown, list) and len(shown) == len(totals) and all(isinstance(f, list) for f in shown):
            return f"{dice} → " + " / ".join(f"[{','.join(map(str, f))}] → {t}" for f, t in zip(shown, totals))
        return f"{dice} → " + " / ".join(str(t) for t in totals)
    return [{"by": player, "label": label, "text": text(player, totals), "total": totals[-1], "entered": bool(entered)}
            for player, totals in rolls.items() if totals]


def rotate(order: Sequence[str], by: int = 1) -> list[str]:
    """The order with the first `by` movers moved to the end (S-3: the first moves last)."""
    order = list(order)
    if not order:
        return order
    by %= len(order)
    return order[by:] + order[:by]


def pass_token(order: Sequence[str], holder: str, out: Iterable[str] = (), step: int = 1) -> str:
    """The next holder of a token passed round the table (`step` 1: clockwise in `order`), skipping
    players who are out; the holder keeps it when nobody else is in."""
    order = list(order)
    if holder not in order:
        raise GmError("その席は手番の順にいません", "That seat is not in the order of play")
    gone = set(out)
    i = order.index(holder)
    for k in range(1, len(order) + 1):
        candidate = order[(i + step * k) % len(order)]
        if candidate not in gone:
            return candidate
    return holder


@dataclass(frozen=True)
class Turns:
    """Whose turn it is: the order, the current player, the round, the phase within the turn.

    `first` is the player who opens the current round; a round ends when play comes back to
    the first player still in. Stored in a ruleset's state as `to_dict()`.
    """

    order: tuple[str, ...]
    current: str
    round: int = 1
    phase: str | None = None
    phases: tuple[str, ...] = ()
    first: str = ""
    out: tuple[str, ...] = field(default_factory=tuple)

    @classmethod
    def start(cls, order: Sequence[str], first: str | None = None, phases: Sequence[str] = ()) -> "Turns":
        """Round 1, the first player's first phase."""
        order = tuple(order)
        if not order:
            raise GmError("プレイヤーがいません", "There are no players")
        first = first if first is not None else order[0]
        if first not in order:
            raise GmError("最初の手番の席が手番の順にいません", "The first player is not in the order of play")
        return cls(order, first, 1, phases[0] if phases else None, tuple(phases), first)

    @classmethod
    def from_dict(cls, d: dict) -> "Turns":
        """Inverse of to_dict."""
        return cls(tuple(d["order"]), d["current"], int(d["round"]), d.get("phase"), tuple(d.get("phases", ())),
                   d.get("first") or d["current"], tuple(d.get("out", ())))

    def to_dict(self) -> dict:
        """JSON form (lists, for events and state)."""
        d = asdict(self)
        return {**d, "order": list(self.order), "phases": list(self.phases), "out": list(self.out)}

    def active(self) -> list[str]:
        """The players still in, in order."""
        return [p for p in self.order if p not in self.out]

    def next_player(self) -> "Turns":
        """The next player's turn (its first phase); a new round when play comes back to the round's opener."""
        nxt = pass_token(self.order, self.current, self.out)
        return replace(self, current=nxt, round=self.round + (nxt == self.first),
                       phase=self.phases[0] if self.phases else None)

    def advance(self) -> "Turns":
        """The next phase of this turn, or the next player's turn after the last phase."""
        if self.phases and self.phase in self.phases and self.phases.index(self.phase) + 1 < len(self.phases):
            return replace(self, phase=self.phases[self.phases.index(self.phase) + 1])
        return self.next_player()

    def new_round(self, first: str) -> "Turns":
        """Start the next round with `first` to play (G-1: the first player alternates)."""
        if first not in self.order or first in self.out:
            raise GmError("その席は手番を持てません", "That seat cannot take a turn")
        return replace(self, current=first, round=self.round + 1, first=first,
                       phase=self.phases[0] if self.phases else None)

    def eliminate(self, player: str) -> "Turns":
        """`player` is out; if it was their turn, play passes on: in the same round, unless it comes back to the
        round's opener (a new round, as `next_player`). An opener who is out hands the opening to the next player."""
        if player in self.out:
            return self
        out = self.out + (player,)
        current = self.current if self.current != player else pass_token(self.order, player, out)
        first = self.first if self.first != player else pass_token(self.order, player, out)
        phase = self.phase if current == self.current else (self.phases[0] if self.phases else None)
        back = current != self.current and current == self.first  # play came back to the round's opener
        return replace(self, out=out, current=current, first=first, phase=phase, round=self.round + back)

    def require(self, player: str) -> None:
        """Refuse a move out of turn."""
        if player != self.current:
            raise GmError("あなたの手番ではありません", "It is not your turn", status=409)
