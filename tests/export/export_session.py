"""The deterministic scripted session of the export tests, built purely (no SQLite).

Every step calls a real core command, wraps its drafts into events with a fixed timestamp
(one minute per action, UTC) and folds them with the engine. The result is always the
same event list, so the export of it can be compared with golden files.

The session holds everything an export must handle: counters with a threshold flag, a
private counter, public dice rolls with comparisons, a GM-secret roll (kept secret) and a
GM-secret roll that is revealed, a `highest` prompt with a GM modifier and confirmation,
a `cancel_duplicates` prompt, a seat `votes` prompt, an unrevealed text prompt, a
cancelled text prompt, an undone counter change, two scene markers, and user text with
wiki markup in it (a seat name, a reason and a modifier label).

`play(manager)` plays a similar session through the operations on a real SessionManager
(SQLite, random seed, salts and tokens) for the round-trip, CLI and leak tests.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from gmtool import operations as ops
from gmtool.core import commands, prompts
from gmtool.core.dice import FixedDice, seed_hash
from gmtool.core.engine import apply
from gmtool.core.model import Event, State
from gmtool.core.resolvers import BUILTIN
from gmtool.core.view import GM, Viewer
from gmtool.export.report import fold_all
from gmtool.rulesets import get as get_ruleset
from gmtool.rulesets.generic import PRESETS
from gmtool.runtime import SessionManager
from gmtool.setup import counters_for

GENERIC = get_ruleset("generic")

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
UPDATE_GOLDEN = os.environ.get("GMTOOL_UPDATE_GOLDEN") == "1"

START = datetime(2026, 3, 14, 10, 0, tzinfo=timezone.utc)
SESSION_ID = "golden01"
TITLE = "聖杯戦争 第3夜"
SEED = b"gmtool export golden seed 000001"

# Seat 3's name and a reason / a modifier label carry wiki and HTML markup on purpose.
NASTY_SEAT = "ランサー[[槍]]{{t}}|''b''"
NASTY_REASON = ("[[Main Page]] {{tpl|x}} a|b ''it'' <b>x</b> *s* _u_ [//evil.invalid e] [mailto:x@e.invalid m] "
                "![i](http://img.invalid/p.png) `c` ~~~~ __NOTOC__")
NASTY_MODIFIER = "怪力|B"

# Secrets that no public export may ever show.
UNREVEALED_MARKER = "UNREVEALED-ANSWER-Q9Z"
UNREVEALED_SALT = "saltunrevealed0000000000000000aa"
CANCELLED_MARKER = "CANCELLED-ANSWER-C3X"
CANCELLED_SALT = "saltcancelled00000000000000000bb"
SECRET_ROLL_LABEL = "SECRET-ROLL-LABEL-K7"
SECRET_ROLL_TEXT = "S1D20 → [17] → 17"
PRIVATE_REASON = "PRIVATE-MANA-REASON-M8"
UNDONE_REASON = "UNDONE-CHANGE-U5"

SCENE_TITLES = ["第1シーン: 夜の港", "第2シーン: 教会"]


def _counters():
    wanted = ("seals", "mana", "karma", "vp")
    chosen = []
    for preset in PRESETS:
        if preset.key in wanted:
            if preset.key == "mana":  # private: only its seat and the GM see it
                preset = type(preset)(preset.key, preset.label, preset.start, preset.min, preset.max, False,
                                      preset.thresholds)
            chosen.append(preset)
    return chosen


@dataclass
class Script:
    """Events built step by step from core commands, with fixed times."""

    state: State = field(default_factory=lambda: State(rules=GENERIC))
    events: list[Event] = field(default_factory=list)
    resolvers: dict = field(default_factory=lambda: dict(BUILTIN))
    dice_index: int = 0  # dice drawn so far (FixedDice starts where the session's dice stand)

    def ts(self, action: int) -> str:
        return (START + timedelta(minutes=action - 1)).isoformat(timespec="milliseconds")

    def write(self, drafts, actor: str = "gm") -> list[Event]:
        """Append drafts as one action and fold them."""
        assert drafts, "a scripted step wrote nothing"
        action = self.state.last_action + 1
        seq = self.state.last_seq
        written = []
        for event_type, data in drafts:
            seq += 1
            event = Event(seq, self.ts(action), actor, action, event_type, data)
            written.append(event)
            self.events.append(event)
            apply(self.state, event)
        return written

    def do(self, command, *args, actor: str = "gm", **kwargs) -> list[Event]:
        return self.write(command(self.state, *args, **kwargs), actor)

    def dice(self, *values: int) -> FixedDice:
        """Fixed dice that continue the session's die count (like SeededDice at dice_next)."""
        return _OffsetDice(list(values), self.state.dice_next)

    def roll(self, expr: str, label: str, values: list[int], actor: str = "gm") -> Event:
        return self.write(commands.roll(self.state, expr, label, self.dice(*values)), actor)[0]

    def answer(self, prompt_id: str, who: str, value, salt: str, dice_values=()) -> list[Event]:
        actor = "gm" if who == "gm" else f"seat:{who}"
        return self.do(prompts.answer, prompt_id, who, value, salt, self.resolvers, self.dice(*dice_values),
                       actor=actor)

    def undo_last(self, action: int) -> Event:
        """GM undo of `action` (what the runtime writes), then a re-fold skipping it."""
        undone = [e for e in self.events if e.action == action]
        summary = "; ".join(f"{e.type}" for e in undone)
        event = self.write([("undo", {"action": action, "seqs": [e.seq for e in undone], "summary": summary,
                                      "gm_summary": summary})])[0]
        self.state = fold_all(self.events, GENERIC)
        return event


class _OffsetDice(FixedDice):
    """FixedDice whose next_index continues from the session's dice count."""

    def __init__(self, values, start: int):
        super().__init__(values)
        self.start = start
        self._drawn = 0

    def randint(self, sides: int) -> int:
        if self._drawn >= len(self.values):
            raise ValueError(f"FixedDice exhausted after {self._drawn} draws")
        value = self.values[self._drawn]
        if not 1 <= value <= sides:
            raise ValueError(f"FixedDice value {value} is outside 1..{sides}")
        self._drawn += 1
        self.next_index = self.start + self._drawn
        return value


def build_script() -> Script:
    """The scripted session (see the module docstring)."""
    s = Script()
    seats = [commands.new_seat("s1", "セイバー", "衛宮"), commands.new_seat("s2", "アーチャー", "遠坂"),
             commands.new_seat("s3", NASTY_SEAT, "")]
    s.write(commands.create_session(SESSION_ID, TITLE, "generic", seats, _counters(), seed_hash(SEED)))
    # Opening (scene 0)
    s.do(commands.change_counter, "s1", "seals", delta=-1, reason="令呪: 自害を阻止")
    s.roll("2D6>=7", "偵察", [3, 5])
    # Scene 1
    s.do(commands.mark_scene, SCENE_TITLES[0])
    s.roll("1D100<=60", "魔術判定", [42], actor="seat:s2")
    s.roll("S1D20", SECRET_ROLL_LABEL, [17])
    hidden = s.roll("S2D6", "伏せ札", [6, 1])
    s.do(commands.reveal_roll, hidden.seq)
    s.do(prompts.open_prompt, "p1", {"title": "宝具の真名解放", "kind": "number", "seats": ["s1", "s2"], "min": 0,
                                     "max": 10, "resolver": "highest"}, s.resolvers)
    s.answer("p1", "s1", 7, "salt-p1-s1")
    s.answer("p1", "s2", 5, "salt-p1-s2")  # everyone answered: revealed and resolved (s1 wins 7)
    s.do(prompts.add_modifier, "p1", "s2", 3, NASTY_MODIFIER, s.resolvers, s.dice())  # s2: 5 + 3 = 8 wins
    s.do(prompts.confirm, "p1")
    s.do(commands.change_counter, "s3", "karma", value=9, reason=NASTY_REASON)  # raises 討伐令
    # Scene 2
    s.do(commands.mark_scene, SCENE_TITLES[1])
    s.do(prompts.open_prompt, "p2", {"title": "1stセレクト", "kind": "choice", "options": ["筋力", "耐久", "敏捷"],
                                     "seats": ["s1", "s2", "s3"], "resolver": "cancel_duplicates"}, s.resolvers)
    s.answer("p2", "s1", "筋力", "salt-p2-s1")
    s.answer("p2", "s2", "筋力", "salt-p2-s2")
    s.answer("p2", "s3", "敏捷", "salt-p2-s3")
    s.do(prompts.open_prompt, "p3", {"title": "同盟相手の投票", "kind": "seat", "seats": ["s1", "s2", "s3"],
                                     "resolver": "votes"}, s.resolvers)
    s.answer("p3", "s1", "s3", "salt-p3-s1")
    s.answer("p3", "s2", "s3", "salt-p3-s2")
    s.answer("p3", "s3", "s1", "salt-p3-s3")
    s.do(prompts.open_prompt, "p4", {"title": "密約の内容", "kind": "text", "seats": ["s1", "s2"]}, s.resolvers)
    s.answer("p4", "s1", UNREVEALED_MARKER, UNREVEALED_SALT)  # s2 never answers: stays secret
    s.do(prompts.open_prompt, "p5", {"title": "取り消される質問", "kind": "text", "seats": ["s1", "s2"]},
         s.resolvers)
    s.answer("p5", "s2", CANCELLED_MARKER, CANCELLED_SALT)
    s.do(prompts.cancel, "p5", "GMの判断で中止")
    s.do(commands.change_counter, "s2", "mana", delta=5, reason=PRIVATE_REASON)  # private counter
    undone = s.do(commands.change_counter, "s1", "vp", delta=2, reason=UNDONE_REASON)
    s.undo_last(undone[0].action)
    s.do(commands.change_counter, "s2", "vp", delta=3, reason="港の戦い")
    return s


# -- a live session played through the operations (SQLite, real seeds and tokens) ---------------

SEATS = ["s1", "s2", "s3"]


def play(manager: SessionManager) -> tuple:
    """A session played through the operations: every kind of event an export must carry."""
    counters = counters_for(get_ruleset("generic"), ["seals", "mana", "karma", "vp"], ["mana"])
    live, tokens = manager.create("往復テスト", "generic", [{"name": "セイバー", "faction": "衛宮"},
                                                            {"name": "アーチャー", "faction": "遠坂"},
                                                            {"name": "ランサー"}], counters)
    seat = {s: Viewer("seat", s) for s in SEATS}
    ops.change_counter(live, GM, {"seat": "s1", "key": "seals", "delta": -1, "reason": "令呪"})
    ops.roll(live, GM, {"expr": "2D6>=7", "label": "偵察"})
    secret = ops.roll(live, GM, {"expr": "S1D20", "label": "GMの秘密"})
    revealed = ops.roll(live, GM, {"expr": "S2D6", "label": "伏せ札"})
    ops.reveal_roll(live, GM, revealed["seq"])
    ops.mark_scene(live, GM, {"title": "第1シーン"})
    ops.roll(live, seat["s2"], {"expr": "1D100<=60", "label": "魔術"})
    ops.open_prompt(live, GM, {"title": "宝具", "kind": "number", "seats": ["s1", "s2"], "resolver": "highest"})
    ops.answer(live, seat["s1"], "p1", {"value": 7})
    ops.answer(live, seat["s2"], "p1", {"value": 5})
    ops.prompt_action(live, GM, "p1", "modifiers", {"who": "s2", "amount": 3, "label": "怪力"})
    ops.prompt_action(live, GM, "p1", "confirm", {})
    ops.change_counter(live, GM, {"seat": "s3", "key": "karma", "value": 9, "reason": "魂喰い"})
    ops.mark_scene(live, GM, {"title": "第2シーン"})
    ops.open_prompt(live, GM, {"title": "投票", "kind": "seat", "seats": SEATS, "resolver": "votes"})
    for who, vote in (("s1", "s3"), ("s2", "s3"), ("s3", "s1")):
        ops.answer(live, seat[who], "p2", {"value": vote})
    ops.open_prompt(live, GM, {"title": "密約", "kind": "text", "seats": ["s1", "s2"]})
    ops.answer(live, seat["s1"], "p3", {"value": "UNREVEALED-RT"})
    ops.open_prompt(live, GM, {"title": "中止", "kind": "text", "seats": ["s1", "s2"]})
    ops.answer(live, seat["s2"], "p4", {"value": "CANCELLED-RT"})
    ops.prompt_action(live, GM, "p4", "cancel", {"reason": "中止"})
    ops.change_counter(live, GM, {"seat": "s2", "key": "mana", "delta": 4, "reason": "PRIVATE-RT"})
    ops.change_counter(live, GM, {"seat": "s1", "key": "vp", "delta": 2, "reason": "UNDONE-RT"})
    ops.undo(live, GM)
    ops.change_counter(live, GM, {"seat": "s2", "key": "vp", "delta": 3, "reason": "港"})
    return live, tokens, secret


def events_of(live) -> list[Event]:
    """A live session's whole log."""
    with live.lock:
        return list(live.store.events())


def check_golden(name: str, text: str) -> None:
    """Compare `text` with golden/NAME (rewritten when GMTOOL_UPDATE_GOLDEN=1)."""
    path = GOLDEN_DIR / name
    if UPDATE_GOLDEN:
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"no golden file {path.name}: run with GMTOOL_UPDATE_GOLDEN=1 and review it"
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} differs from the export (GMTOOL_UPDATE_GOLDEN=1 rewrites it)"
