"""Fate/Ace Royal setup: version and seating (A-2), the first active master (A-5), the secret
servants (A-1), the class exchange, the start."""

from __future__ import annotations

import re

from typing import Any

from gmtool.core.commands import clean_text, parse_int, require_open, seat_of, text_field
from gmtool.core.errors import Conflict, GmError, NotFound, choices_text
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext, reading_value
from gmtool.core.turns import Turns, roll_order

from . import rules as r
from .events import NAME
from .plan import MAX_PLAYERS, MIN_PLAYERS, Plan, acting_seat, game_of, require_in
from .readings import FIRST_TIES
from .strings import STRINGS


def _card(value: Any, what_ja: str, what_en: str) -> dict:
    if isinstance(value, str):
        value = _card_line(value)
    if not isinstance(value, dict):
        raise GmError(f"{what_ja}（名前とステータス）を入力してください", f"Enter the {what_en} (name and stats)")
    return {"name": clean_text(value.get("name"), f"{what_ja}の名前", f"{what_en} name"),
            "stats": r.parse_stats(value.get("stats")), "skills": r.parse_skills(value.get("skills"))}


def _card_line(line: str) -> dict:
    """A card from one line of text: 「ランサー 2/2/2/2 先制、見切り」 (name, stats, skills)."""
    tokens = line.split()
    at = next((i for i, t in enumerate(tokens) if t.count("/") == 3 or t.count("／") == 3), None)
    if at is None:
        return {"name": line.strip(), "stats": None}
    return {"name": " ".join(tokens[:at]), "stats": tokens[at], "skills": ",".join(tokens[at + 1:])}


def _form_card(p: dict, what: str) -> Any:
    """A card from a JSON object, or from flat form fields `<what>_name`, `<what>_stats`, `<what>_skills`."""
    if p.get(what) is not None:
        return p[what]
    if any(f"{what}_{k}" in p for k in ("name", "stats")):
        return {"name": p.get(f"{what}_name"), "stats": p.get(f"{what}_stats"), "skills": p.get(f"{what}_skills")}
    return None


def require_servants(state: State, g: dict) -> None:
    """A-1: every servant's cards are in this session (the class exchange and the start need them): a 409 naming who
    has not set one yet, and apart, who set one that a public export did not carry (they set it again)."""
    ja, en = [], []
    for key, unrecorded in (("ace_royal.servants_not_set", False), ("ace_royal.servants_unrecorded", True)):
        names = [state.seat_name(s) for s in g["order"]
                 if not g["players"][s]["hero"] and bool(g["players"][s].get("unrecorded")) == unrecorded]
        if names:
            ja.append(f"{STRINGS[key][0]}: {'、'.join(names)}")
            en.append(f"{STRINGS[key][1]}: {', '.join(names)}")
    if ja:
        raise Conflict("。".join(ja), ". ".join(en))


# -- setup -----------------------------------------------------------------------------------------

def setup(state: State, p: dict, ctx: ActionContext) -> list:
    """A-2: the version (standard 5 魔力 / quick 8) and the seating order, clockwise."""
    require_open(state)
    if state.extra.get(NAME):
        raise Conflict("準備は済んでいます（やり直すときは取り消してください）", "The game is set up already (undo to change it)")
    version = text_field(p, "version", "standard", ja="版")
    if version not in r.VERSIONS:
        ja, en = choices_text(r.VERSIONS)
        raise GmError(f"版は{ja}のどちらかです", f"The version must be one of: {en}")
    order = p.get("order") or list(state.seats)
    if isinstance(order, str):
        order = [x.strip() for x in re.split(r"[,、\n]", order) if x.strip()]
    if not isinstance(order, list):
        raise GmError("座席順はリストで指定してください", "Give the seating order as a list")
    by_name = {seat.name: seat.id for seat in state.seats.values()}
    order = [by_name.get(str(s)) or seat_of(state, s).id for s in order]
    if len(set(order)) != len(order):
        raise GmError("座席順に同じ席が2回あります", "A seat appears twice in the seating order")
    if not MIN_PLAYERS <= len(order) <= MAX_PLAYERS:
        raise GmError(f"プレイヤーは{MIN_PLAYERS}〜{MAX_PLAYERS}人です", f"Fate/Ace Royal takes {MIN_PLAYERS} to {MAX_PLAYERS} players")
    plan = Plan(state, ctx)
    plan.add("ace_royal.setup", {"version": version, "order": order, "rule": "A-2"})
    for seat in order:
        plan.counter(seat, "mana", r.START_MANA[version], ("初期値", "starting value"), "A-2")
        plan.counter(seat, "seals", r.START_SEALS, ("初期値", "starting value"), "A-2")
        plan.counter(seat, "hand", r.START_HAND, ("初期値", "starting value"), "A-11")
    return plan.drafts


def roll_first(state: State, p: dict, ctx: ActionContext) -> list:
    """A-5: everyone rolls 1d6, the highest is the first active master (ties: the session's reading)."""
    g = game_of(state)
    if g["phase"] != "setup":
        raise Conflict("ゲームは始まっています", "The game has started")
    if g["first"]:
        raise Conflict("最初のアクティブマスターは決まっています", "The first active master is decided")
    order = g["order"]
    if reading_value(state, FIRST_TIES) == "seat_order":
        faces = {s: ctx.dice.randint(6) for s in order}
        top = max(faces.values())
        first = next(s for s in order if faces[s] == top)
        rolls = {s: [f] for s, f in faces.items()}
    else:
        result = roll_order(order, ctx.dice, 6, first_only=True)
        first, rolls = result["order"][0], result["rolls"]
    plan = Plan(state, ctx)
    plan.add("ace_royal.first_rolled", {"rolls": rolls, "first": first, "rule": "A-5",
                                        "ties": reading_value(state, FIRST_TIES), **plan.dice_data()})
    return plan.drafts


def set_servant(state: State, p: dict, ctx: ActionContext) -> list:
    """A-1: a player's hero card and class card (secret: their own phone and the GM only)."""
    g = game_of(state)
    seat = acting_seat(state, p, ctx)
    pl = require_in(g, seat)
    if g["phase"] != "setup":  # the cards were set on the servant's seat at the start
        raise Conflict("ゲームは始まっています: サーヴァントは変えられません", "The game has started: the servant cannot change")
    if pl["hero_revealed"] or pl["class_revealed"] or pl["class_known"]:
        raise Conflict("公開したカードは変えられません", "A card already made public cannot be changed")
    hero = _card(_form_card(p, "hero"), "英霊カード", "hero card")
    cls = _card(_form_card(p, "class"), "クラスカード", "class card")
    return [("ace_royal.servant_set", {"seat": seat, "hero": hero, "class": cls, "rule": "A-1"})]


def leftover_classes(state: State, p: dict, ctx: ActionContext) -> list:
    """The class cards nobody drew are revealed; exchange priority from the last drawer, counter-clockwise."""
    g = game_of(state)
    if g["phase"] != "setup":
        raise Conflict("ゲームは始まっています", "The game has started")
    if not g["first"]:
        raise Conflict("先に最初のアクティブマスターを決めてください", "Decide the first active master first")
    if g["exchange"]:  # entered again it would refill the pool and restart the exchange
        raise Conflict("残ったクラスは公開済みです（やり直すときは取り消してください）",
                       "The leftover classes are revealed already (undo to change them)")
    require_servants(state, g)
    classes = p.get("classes")
    if isinstance(classes, str):
        classes = [line for line in classes.splitlines() if line.strip()]
    if not isinstance(classes, list) or not classes or len(classes) > 7:
        raise GmError("残ったクラスカードを1〜7枚入力してください", "Enter 1 to 7 leftover class cards")
    pool = [_card(c, "クラスカード", "class card") for c in classes]
    order = g["order"]
    last = order[(order.index(g["first"]) - 1) % len(order)]
    ccw = list(reversed(order))
    i = ccw.index(last)
    queue = ccw[i:] + ccw[:i]
    return [("ace_royal.leftover_classes", {"classes": pool, "queue": queue})]


def exchange_class(state: State, p: dict, ctx: ActionContext) -> list:
    """Exchange the class card for a leftover one (the new class becomes public), or pass."""
    g = game_of(state)
    ex = g.get("exchange")
    if not ex or not ex["queue"]:
        raise Conflict("クラスの交換は行われていません", "No class exchange is under way")
    seat = ex["queue"][0] if ctx.viewer.is_gm and p.get("seat") in (None, "") else acting_seat(state, p, ctx)
    if seat != ex["queue"][0]:
        raise Conflict(f"交換の順番は {state.seat_name(ex['queue'][0])} です", f"It is {state.seat_name(ex['queue'][0])}'s turn to exchange")
    pick = p.get("pick")
    if pick in (None, "", "pass"):
        return [("ace_royal.class_exchanged", {"seat": seat, "pick": None, "new": None, "old": None})]
    pick = parse_int(pick, "交換するクラスの番号", "class number")
    if not 0 <= pick < len(ex["pool"]):
        raise NotFound("そのクラスカードは残っていません", "There is no such leftover class card")  # the screens show the cards
    old = g["players"][seat]["class"]
    return [("ace_royal.class_exchanged", {"seat": seat, "pick": pick, "new": ex["pool"][pick], "old": old})]


def start_game(state: State, p: dict, ctx: ActionContext) -> list:
    """The servants are set Reverse and the first active master's turn begins (rise step), once every servant is set
    and the class exchange is over (A-1)."""
    g = game_of(state)
    if g["phase"] != "setup":
        raise Conflict("ゲームは始まっています", "The game has started")
    if not g["first"]:
        raise Conflict("先に最初のアクティブマスターを決めてください（1d6）", "Decide the first active master first (1d6)")
    require_servants(state, g)
    ex = g.get("exchange")
    if ex and ex["queue"]:  # the leftover classes leave the table when the exchange ends, then the cards are set
        who = state.seat_name(ex["queue"][0])
        raise Conflict(f"クラス交換が終わっていません: 次は {who} の番です（交換かパス）（A-1）",
                       f"The class exchange is not over: it is {who}'s turn (exchange or pass) (A-1)")
    turns = Turns.start(g["order"], first=g["first"])
    return [("ace_royal.started", {"turns": turns.to_dict()})]
