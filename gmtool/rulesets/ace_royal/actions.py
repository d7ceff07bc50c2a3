"""Fate/Ace Royal actions: each step of the game as a pure command `(state, payload, ctx) -> drafts`.

Every action plans its events on a private copy of the state (`Plan`), so counters move through
core's `counter_drafts` one after the other, and `settle` can look at the result and add the
automatic events (eliminations A-2 / A-10, the winner A-7) with their rule codes. The whole
action is one undoable step for the GM.
"""

from __future__ import annotations

import copy
from typing import Any

from gmtool.core import dice as dicelib
from gmtool.core.commands import clean_text, counter_drafts, parse_int, require_open, seat_of
from gmtool.core.errors import Conflict, Forbidden, GmError, NotFound
from gmtool.core.model import Event, State
from gmtool.core.ruleset import ActionContext, action, reading_value
from gmtool.core.turns import Turns, pass_token, roll_order

from . import rules as r
from .events import NAME, game
from .readings import AM_PASS, COMBAT_REVEAL_DRAW, FIRST_TIES

COUNTER_KEYS = ("mana", "seals", "hand", "codes", "assassin", "depletion")
MAX_PLAYERS = 7
MIN_PLAYERS = 2


# -- planning ------------------------------------------------------------------------------------

class Plan:
    """Drafts of one action, folded as they are added into a private copy of the state."""

    def __init__(self, state: State, ctx: ActionContext | None = None):
        self.before = state
        self.sim = copy.deepcopy(state, {id(state.rules): state.rules})
        self.drafts: list[tuple[str, dict]] = []
        self.ctx = ctx

    def add(self, event_type: str, data: dict) -> None:
        """Add one draft and fold it into the copy."""
        from gmtool.core import engine
        self.drafts.append((event_type, data))
        seq = self.sim.last_seq + 1
        engine.apply(self.sim, Event(seq, "", "plan", self.before.last_action + 1, event_type, copy.deepcopy(data)))

    def counter(self, seat: str, key: str, new: int, reason: str, rule: str = "") -> int:
        """Move a counter through core's counter_drafts; returns the change made."""
        before = self.sim.counters[seat][key]
        for d in counter_drafts(self.sim, seat, key, new, f"{reason} [{rule}]" if rule else reason, rule):
            self.add(*d)
        return self.sim.counters[seat][key] - before

    def value(self, seat: str, key: str) -> int:
        """A counter's value as the plan left it."""
        return self.sim.counters[seat][key]

    @property
    def g(self) -> dict:
        """This ruleset's state as the plan left it."""
        return game(self.sim)

    def set_state(self, seat: str, to: str, reason: str, rule: str) -> None:
        """Change a servant's state (nothing when it is already so)."""
        now = self.g["players"][seat]["state"]
        if now != to:
            self.add("ace_royal.state_changed", {"seat": seat, "from": now, "to": to, "reason": reason, "rule": rule})

    def lose_mana(self, seat: str, amount: int, reason: str, rule: str) -> int:
        """Pay `amount` 魔力 (A-2); a servant in Danger goes Down (A-4). Returns what was paid."""
        if amount <= 0:
            return 0
        paid = -self.counter(seat, "mana", self.value(seat, "mana") - amount, reason, rule)
        if paid and self.g["players"][seat]["state"] == "danger":
            self.set_state(seat, "down", "danger_loss", "A-4")
        return paid

    def dice_data(self) -> dict:
        """What an event whose action drew dice records: entered or not, and the next seed index."""
        dice = self.ctx.dice
        return {"entered": dicelib.is_entered(dice), "dice_next": dice.next_index}

    def done(self) -> list[tuple[str, dict]]:
        """The drafts, after the automatic consequences."""
        settle(self)
        return self.drafts


def settle(plan: Plan) -> None:
    """Automatic consequences, each an event with its rule code: eliminations (A-2, A-10), the winner (A-7)."""
    g = plan.g
    if not g or g.get("phase") != "play":
        return
    for seat in g["order"]:
        p = g["players"][seat]
        if p["out"]:
            continue
        reason, rule = None, ""
        if plan.value(seat, "mana") <= 0:
            reason, rule = "mana", "A-2"
        elif plan.value(seat, "seals") <= 0 and not p["masterless"]:
            reason, rule = "seals", "A-2"
        elif not p["masterless"]:
            dies = r.master_dies(plan.value(seat, "assassin"), plan.value(seat, "depletion"), plan.value(seat, "hand"))
            if dies:
                if r.has_skill((p["hero"], p["class"]), "independent"):
                    plan.add("ace_royal.masterless", {"seat": seat, "reason": dies, "rule": "A-10"})
                    continue
                reason, rule = dies, "A-10"
        if reason:
            eliminate(plan, seat, reason, rule)
    standing = [s for s in g["order"] if not g["players"][s]["out"]]
    if len(standing) <= 1 and not g["over"]:
        plan.add("ace_royal.finished", {"winner": standing[0] if standing else None, "rule": "A-7"})


def eliminate(plan: Plan, seat: str, reason: str, rule: str) -> None:
    """A player is out; when it was their turn (outside a combat being resolved), play passes on."""
    g = plan.g
    turns = Turns.from_dict(g["turns"])
    after = turns.eliminate(seat)
    plan.add("ace_royal.out", {"seat": seat, "reason": reason, "rule": rule, "turns": after.to_dict(),
                               "new_turn": after.current != turns.current})


# -- guards --------------------------------------------------------------------------------------

def _g(state: State) -> dict:
    require_open(state)
    g = state.extra.get(NAME)
    if not g:
        raise Conflict("まだ準備（setup）をしていません", "The game is not set up yet (setup)")
    return g


def _playing(state: State) -> dict:
    g = _g(state)
    if g["phase"] == "setup":
        raise Conflict("ゲームはまだ始まっていません", "The game has not started yet")
    if g["over"]:
        raise Conflict("ゲームは終了しています", "The game is over")
    return g


def _seat(state: State, p: dict, ctx: ActionContext) -> str:
    """The seat an action is about: the caller's own, or any the GM names."""
    g = _g(state)
    if ctx.viewer.is_gm:
        seat = seat_of(state, p.get("seat")).id
    else:
        seat = ctx.viewer.seat
        if p.get("seat") not in (None, "", seat):
            raise Forbidden("他のプレイヤーの操作はできません", "You cannot act for another player")
    if seat not in g["players"]:
        raise NotFound("その席はこのゲームに参加していません", "That seat is not playing in this game")
    return seat


def _in(g: dict, seat: str) -> dict:
    p = g["players"][seat]
    if p["out"]:
        raise Conflict(f"その席は脱落しています", "That player is out")
    return p


def _turn_player(state: State, p: dict, ctx: ActionContext, step: str | None = None) -> str:
    g = _playing(state)
    turns = Turns.from_dict(g["turns"])
    seat = turns.current if ctx.viewer.is_gm and p.get("seat") in (None, "") else _seat(state, p, ctx)
    turns.require(seat)
    if step and g["step"] != step:
        raise Conflict(f"今は{r.STEP_LABELS[g['step']][0]}です（{r.STEP_LABELS[step][0]}の操作です）",
                       f"It is the {r.STEP_LABELS[g['step']][1]} (this belongs to the {r.STEP_LABELS[step][1]})")
    return seat


def _flag(value: Any) -> bool:
    return value in (True, 1, "1", "true", "on", "yes")


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


# -- setup -----------------------------------------------------------------------------------------

def setup(state: State, p: dict, ctx: ActionContext) -> list:
    """A-2: the version (standard 5 魔力 / quick 8) and the seating order, clockwise."""
    require_open(state)
    if state.extra.get(NAME):
        raise Conflict("準備は済んでいます（やり直すときは取り消してください）", "The game is set up already (undo to change it)")
    version = str(p.get("version") or "standard")
    if version not in r.VERSIONS:
        raise GmError("版は standard（スタンダード）か quick（クイック）です", "The version is 'standard' or 'quick'")
    order = p.get("order") or list(state.seats)
    if not isinstance(order, list):
        raise GmError("座席順はリストで指定してください", "Give the seating order as a list")
    order = [seat_of(state, s).id for s in order]
    if len(set(order)) != len(order):
        raise GmError("座席順に同じ席が2回あります", "A seat appears twice in the seating order")
    if not MIN_PLAYERS <= len(order) <= MAX_PLAYERS:
        raise GmError(f"プレイヤーは{MIN_PLAYERS}〜{MAX_PLAYERS}人です", f"Fate/Ace Royal takes {MIN_PLAYERS} to {MAX_PLAYERS} players")
    plan = Plan(state, ctx)
    plan.add("ace_royal.setup", {"version": version, "order": order, "rule": "A-2"})
    for seat in order:
        plan.counter(seat, "mana", r.START_MANA[version], "初期値", "A-2")
        plan.counter(seat, "seals", r.START_SEALS, "初期値", "A-2")
        plan.counter(seat, "hand", r.START_HAND, "初期値", "A-11")
    return plan.drafts


def roll_first(state: State, p: dict, ctx: ActionContext) -> list:
    """A-5: everyone rolls 1d6, the highest is the first active master (ties: the session's reading)."""
    g = _g(state)
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
        result = roll_order(order, ctx.dice, 6)
        first, rolls = result["order"][0], result["rolls"]
    plan = Plan(state, ctx)
    plan.add("ace_royal.first_rolled", {"rolls": rolls, "first": first, "rule": "A-5",
                                        "ties": reading_value(state, FIRST_TIES), **plan.dice_data()})
    return plan.drafts


def set_servant(state: State, p: dict, ctx: ActionContext) -> list:
    """A-1: a player's hero card and class card (secret: their own phone and the GM only)."""
    g = _g(state)
    seat = _seat(state, p, ctx)
    pl = _in(g, seat)
    if pl["hero_revealed"] or pl["class_revealed"] or pl["class_known"]:
        raise Conflict("公開したカードは変えられません", "A card already made public cannot be changed")
    hero = _card(_form_card(p, "hero"), "英霊カード", "hero card")
    cls = _card(_form_card(p, "class"), "クラスカード", "class card")
    return [("ace_royal.servant_set", {"seat": seat, "hero": hero, "class": cls, "rule": "A-1"})]


def leftover_classes(state: State, p: dict, ctx: ActionContext) -> list:
    """The class cards nobody drew are revealed; exchange priority from the last drawer, counter-clockwise."""
    g = _g(state)
    if g["phase"] != "setup":
        raise Conflict("ゲームは始まっています", "The game has started")
    if not g["first"]:
        raise Conflict("先に最初のアクティブマスターを決めてください", "Decide the first active master first")
    missing = [state.seat_name(s) for s in g["order"] if not g["players"][s]["hero"]]
    if missing:
        raise Conflict(f"サーヴァント未登録: {'、'.join(missing)}", f"Servants not set yet: {', '.join(missing)}")
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
    g = _g(state)
    ex = g.get("exchange")
    if not ex or not ex["queue"]:
        raise Conflict("クラスの交換は行われていません", "No class exchange is under way")
    seat = ex["queue"][0] if ctx.viewer.is_gm and p.get("seat") in (None, "") else _seat(state, p, ctx)
    if seat != ex["queue"][0]:
        raise Conflict(f"交換の順番は {state.seat_name(ex['queue'][0])} です", f"It is {state.seat_name(ex['queue'][0])}'s turn to exchange")
    pick = p.get("pick")
    if pick in (None, "", "pass"):
        return [("ace_royal.class_exchanged", {"seat": seat, "pick": None, "new": None, "old": None})]
    pick = parse_int(pick, "交換するクラスの番号", "class number")
    if not 0 <= pick < len(ex["pool"]):
        raise NotFound(f"{pick}番のクラスカードはありません", f"There is no leftover class number {pick}")
    old = g["players"][seat]["class"]
    return [("ace_royal.class_exchanged", {"seat": seat, "pick": pick, "new": ex["pool"][pick], "old": old})]


def start_game(state: State, p: dict, ctx: ActionContext) -> list:
    """The servants are set Reverse and the first active master's turn begins (rise step)."""
    g = _g(state)
    if g["phase"] != "setup":
        raise Conflict("ゲームは始まっています", "The game has started")
    if not g["first"]:
        raise Conflict("先に最初のアクティブマスターを決めてください（1d6）", "Decide the first active master first (1d6)")
    missing = [state.seat_name(s) for s in g["order"] if not g["players"][s]["hero"]]
    if missing:
        raise Conflict(f"サーヴァント未登録: {'、'.join(missing)}", f"Servants not set yet: {', '.join(missing)}")
    turns = Turns.start(g["order"], first=g["first"])
    return [("ace_royal.started", {"turns": turns.to_dict()})]


# -- the turn --------------------------------------------------------------------------------------

def step(state: State, p: dict, ctx: ActionContext) -> list:
    """The next step of the turn: rise (Down cards rise, A-4), draw (+1, A-11), ritual, encounter, end."""
    g = _playing(state)
    seat = _turn_player(state, p, ctx)
    now = g["step"]
    plan = Plan(state, ctx)
    if now == "rise":
        if g["players"][seat]["state"] == "down":
            plan.set_state(seat, "rise", "rise_step", "A-4")
        plan.add("ace_royal.step", {"seat": seat, "from": now, "to": "draw"})
    elif now == "draw":
        plan.counter(seat, "hand", plan.value(seat, "hand") + 1, "ドローステップ", "A-11")
        plan.add("ace_royal.step", {"seat": seat, "from": now, "to": "ritual"})
    elif now == "ritual":
        to = "encounter" if g["turn"]["placed"] or g["turn"]["revealed"] else "end"
        plan.add("ace_royal.step", {"seat": seat, "from": now, "to": to, "rule": "A-6"})
    elif now == "encounter":
        raise Conflict("遭遇戦判定のダイスを振ってください", "Roll the encounter die first")
    elif now == "combat":
        raise Conflict("戦闘を解決してください", "Resolve the combat first")
    else:
        end_turn(plan, seat)
    return plan.done()


def end_turn(plan: Plan, seat: str) -> None:
    """End step (discard to 4, A-11), the next player, and the active-master coin at a phase end (A-5)."""
    g = plan.g
    discard = r.end_step_discard(plan.value(seat, "hand"))
    if discard:
        plan.counter(seat, "hand", plan.value(seat, "hand") - discard, "終了ステップで4枚まで捨てる", "A-11")
    turns = Turns.from_dict(g["turns"])
    after = turns.next_player()
    round_ended = after.round > turns.round
    plan.add("ace_royal.turn_ended", {"seat": seat, "turns": after.to_dict(), "discard": discard})
    if r.pass_due(reading_value(plan.sim, AM_PASS), round_ended, turns.round):
        out = [s for s in g["order"] if g["players"][s]["out"]]
        holder = g["active"]
        to = pass_token(g["order"], holder, out)
        if to != holder:
            plan.add("ace_royal.master_passed", {"from": holder, "to": to, "rule": "A-5",
                                                 "reading": reading_value(plan.sim, AM_PASS)})
            plan.lose_mana(to, 1, "アクティブマスターコインを受け取った", "A-5")


def place_code(state: State, p: dict, ctx: ActionContext) -> list:
    """Ritual step: place one mystic code (4 slots; more per card placed Reverse), or a card Reverse."""
    g = _playing(state)
    seat = _turn_player(state, p, ctx, "ritual")
    if g["turn"]["placed"]:
        raise Conflict("このターンは既に配置しました", "You placed a card this turn already")
    plan = Plan(state, ctx)
    if plan.value(seat, "hand") <= 0:
        raise Conflict("手札がありません", "Your hand is empty")
    reverse, replace = _flag(p.get("reverse")), _flag(p.get("replace"))
    slots = r.code_slots(g["players"][seat]["reverse_placed"])
    if not reverse and not replace and plan.value(seat, "codes") >= slots:
        raise Conflict(f"礼装の枠（{slots}）が一杯です（入れ替えるときは replace）",
                       f"All {slots} mystic code slots are full (replace one with 'replace')")
    if replace and (reverse or plan.value(seat, "codes") == 0):
        raise GmError("入れ替えは場の礼装カードと行います", "A replacement needs a mystic code on the field")
    plan.add("ace_royal.code_placed", {"seat": seat, "reverse": reverse, "replace": replace})
    plan.counter(seat, "hand", plan.value(seat, "hand") - 1, "礼装カードの配置", "A-11")
    if not reverse and not replace:
        plan.counter(seat, "codes", plan.value(seat, "codes") + 1, "礼装カードの配置")
    return plan.done()


def _reveal(plan: Plan, seat: str, what: list[str], reason: str, draw: bool) -> None:
    pl = plan.g["players"][seat]
    cards = {w: pl[w] for w in what if not pl[f"{w}_revealed"]}
    if not cards:
        return
    n = r.REVEAL_DRAW * len(cards) if draw else 0
    plan.add("ace_royal.revealed", {"seat": seat, "cards": cards, "draw": n, "reason": reason, "rule": "A-11"})
    if n:
        plan.counter(seat, "hand", plan.value(seat, "hand") + n, "サーヴァントの開示", "A-11")
    if pl["state"] == "reverse":
        plan.set_state(seat, "rise", "revealed", "A-4")


def reveal(state: State, p: dict, ctx: ActionContext) -> list:
    """Ritual step: reveal the hero, the class or both; each card draws 2 (A-11)."""
    g = _playing(state)
    seat = _turn_player(state, p, ctx, "ritual")
    what = str(p.get("what") or "both")
    cards = {"hero": ["hero"], "class": ["class"], "both": ["hero", "class"]}.get(what)
    if cards is None:
        raise GmError("開示するのは hero（英霊）、class（クラス）、both（両方）のどれかです", "Reveal 'hero', 'class' or 'both'")
    pl = g["players"][seat]
    if all(pl[f"{w}_revealed"] for w in cards):
        raise Conflict("そのカードは開示済みです", "That card is revealed already")
    plan = Plan(state, ctx)
    _reveal(plan, seat, cards, "ritual", True)
    return plan.done()


def _start_combat(plan: Plan, attacker: str, interceptor: str, how: str, flipped: bool = False) -> None:
    plan.add("ace_royal.combat_started", {"attacker": attacker, "interceptor": interceptor, "how": how,
                                          "flipped": flipped, "rule": "A-7"})
    draw = reading_value(plan.sim, COMBAT_REVEAL_DRAW) == "draw"
    for seat in (attacker, interceptor):  # disclosure process: both servants revealed
        _reveal(plan, seat, ["hero", "class"], "combat", draw)


def declare_attack(state: State, p: dict, ctx: ActionContext) -> list:
    """Ritual step: attack another servant (not after placing or revealing; Rise or Reverse only, A-4)."""
    g = _playing(state)
    seat = _turn_player(state, p, ctx, "ritual")
    if g["turn"]["placed"] or g["turn"]["revealed"]:
        raise Conflict("配置か開示をしたターンは襲撃できません", "No attack in a turn with a placement or a reveal")
    me = g["players"][seat]
    if not r.can_attack(me["state"]):
        raise Conflict("デンジャー／ダウン状態のサーヴァントは襲撃できません", "A servant in Danger or Down cannot attack")
    if r.has_skill((me["hero"], me["class"]), "gatekeeper"):
        raise Conflict("山門の守護: このサーヴァントは襲撃できません", "Gatekeeper: this servant cannot attack")
    target = seat_of(state, p.get("target")).id
    if target == seat or target not in g["players"]:
        raise GmError("襲撃する相手を選んでください", "Choose another player to attack")
    _in(g, target)
    plan = Plan(state, ctx)
    _start_combat(plan, seat, target, "attack")
    return plan.done()


def encounter_roll(state: State, p: dict, ctx: ActionContext) -> list:
    """A-6: 1d6; on a 1 a random other player (re-rolling numbers nobody holds) fights the turn player."""
    g = _playing(state)
    seat = _turn_player(state, p, ctx, "encounter")
    plan = Plan(state, ctx)
    face = ctx.dice.randint(6)
    data = {"seat": seat, "face": face, "encounter": r.encounter_happens(face), "rule": "A-6"}
    if data["encounter"]:
        out = [s for s in g["order"] if g["players"][s]["out"]]
        numbers = r.encounter_numbers(g["order"], seat, out)
        target, faces = r.encounter_target(numbers, ctx.dice)
        data.update(numbers=numbers, faces=faces, target=target)
    plan.add("ace_royal.encounter_rolled", {**data, **plan.dice_data()})
    if data["encounter"]:
        me = g["players"][seat]
        gate = r.has_skill((me["hero"], me["class"]), "gatekeeper")
        attacker, interceptor = r.encounter_roles(seat, data["target"], gate)
        _start_combat(plan, attacker, interceptor, "encounter", gate)
    else:
        plan.add("ace_royal.step", {"seat": seat, "from": "encounter", "to": "end", "rule": "A-6"})
    return plan.done()


# -- combat ----------------------------------------------------------------------------------------

SIDES = ("attacker", "interceptor")


def _combat_side(state: State, p: dict, ctx: ActionContext) -> tuple[dict, str]:
    g = _playing(state)
    c = g.get("combat")
    if not c:
        raise Conflict("戦闘中ではありません", "There is no combat")
    side = str(p.get("side") or "")
    if side not in SIDES:
        if not ctx.viewer.is_gm and ctx.viewer.seat in (c["attacker"], c["interceptor"]):
            side = "attacker" if ctx.viewer.seat == c["attacker"] else "interceptor"
        else:
            raise GmError("side は attacker（襲撃側）か interceptor（迎撃側）です", "The side is 'attacker' or 'interceptor'")
    if not ctx.viewer.is_gm and ctx.viewer.seat != c[side]:
        raise Forbidden("相手側の操作はできません", "You cannot act for the other side")
    return c, side


def combat_choose(state: State, p: dict, ctx: ActionContext) -> list:
    """A-7: a side picks physical or magical (the attacker may change after modifiers)."""
    c, side = _combat_side(state, p, ctx)
    kind = str(p.get("kind") or "")
    if kind not in r.KINDS:
        raise GmError("攻撃手段は physical（物理）か magical（魔術）です", "The attack is 'physical' or 'magical'")
    if c[f"{side}_side"]["kind"] == kind:
        raise Conflict("既にその攻撃手段です", "That attack is already chosen")
    return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "kind", "kind": kind})]


def combat_modifier(state: State, p: dict, ctx: ActionContext) -> list:
    """A labelled modifier (mystic code, scene card …) to one stat or all stats of a side, before the result."""
    c, side = _combat_side(state, p, ctx)
    stat = str(p.get("stat") or "")
    if stat not in r.STATS + ("all",):
        raise GmError("stat は patk / pdef / matk / mdef / all のどれかです", "The stat is patk, pdef, matk, mdef or all")
    value = parse_int(p.get("value"), "修正値", "modifier")
    if value == 0 or abs(value) > r.MAX_STAT:
        raise GmError(f"修正値は0以外、±{r.MAX_STAT}以内です", f"A modifier is non-zero and within ±{r.MAX_STAT}")
    label = clean_text(p.get("label"), "修正の名前（カード名など）", "modifier label (a card's name)")
    return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "modifier", "stat": stat, "value": value, "label": label})]


def combat_proxy(state: State, p: dict, ctx: ActionContext) -> list:
    """A-9: a proxy fights for the side (its own stats; from a mystic code or a hero card), or withdraw it."""
    c, side = _combat_side(state, p, ctx)
    if _flag(p.get("clear")):
        if not c[f"{side}_side"]["proxy"]:
            raise Conflict("代理戦闘はありません", "There is no proxy")
        return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "proxy", "proxy": None})]
    source = str(p.get("source") or "")
    if source not in ("code", "hero"):
        raise GmError("source は code（礼装）か hero（英霊）です", "The source is 'code' (mystic code) or 'hero' (hero card)")
    proxy = {"name": clean_text(p.get("name"), "代理戦闘者の名前", "proxy name"), "stats": r.parse_stats(p.get("stats")),
             "legion": _flag(p.get("legion")), "source": source}
    return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "proxy", "proxy": proxy, "rule": "A-9"})]


def combat_roll(state: State, p: dict, ctx: ActionContext) -> list:
    """A-8 (quick version): the side's combat die, rolled again while 1s come."""
    g = _playing(state)
    c, side = _combat_side(state, p, ctx)
    if g["version"] != "quick":
        raise Conflict("戦闘ダイスはクイック版のルールです", "Combat dice belong to the quick version")
    if c[f"{side}_side"]["faces"]:
        raise Conflict("この戦闘のダイスは振りました（振り直しは令呪）", "This side has rolled (re-roll with a command seal)")
    faces = r.quick_die(ctx.dice)
    return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "dice", "faces": faces, "rule": "A-8",
                                      "entered": dicelib.is_entered(ctx.dice), "dice_next": ctx.dice.next_index})]


def _side_result(g: dict, state: State, c: dict, side: str) -> dict:
    seat = c[side]
    pl = g["players"][seat]
    s = c[f"{side}_side"]
    base = r.servant_stats(pl["hero"]["stats"], pl["class"]["stats"])
    codes = state.counters[seat]["codes"] if g["version"] == "quick" else 0
    mods = list(pl["turn_mods"]) + list(s["modifiers"])
    charisma = r.has_skill((pl["hero"], pl["class"]), "charisma")
    return r.side_stats(base, mods, s["faces"], codes, s["proxy"], charisma)


def combat_preview(state: State) -> dict | None:
    """The combat as it stands: each side's stats with their breakdown (public once both are disclosed)."""
    g = state.extra.get(NAME) or {}
    c = g.get("combat")
    if not c:
        return None
    return {side: _side_result(g, state, c, side) for side in SIDES}


def combat_resolve(state: State, p: dict, ctx: ActionContext) -> list:
    """A-7: both damage processes, damage paid in 魔力 (or by the proxy, A-9), Down, the steal, eliminations."""
    g = _playing(state)
    c = g.get("combat")
    if not c:
        raise Conflict("戦闘中ではありません", "There is no combat")
    if not ctx.viewer.is_gm and ctx.viewer.seat not in (c["attacker"], c["interceptor"]):
        raise Forbidden("戦闘の当事者かGMだけが解決できます", "Only the two sides or the GM resolve a combat")
    for side in SIDES:
        if not c[f"{side}_side"]["kind"]:
            raise Conflict(f"{'襲撃側' if side == 'attacker' else '迎撃側'}が物理か魔術を選んでいません",
                           f"The {side} has not chosen physical or magical")
        if g["version"] == "quick" and not c[f"{side}_side"]["faces"]:
            raise Conflict(f"{'襲撃側' if side == 'attacker' else '迎撃側'}が戦闘ダイスを振っていません（A-8）",
                           f"The {side} has not rolled the combat die (A-8)")
    sides = {side: _side_result(g, state, c, side) for side in SIDES}
    cards = {side: (g["players"][c[side]]["hero"], g["players"][c[side]]["class"]) for side in SIDES}
    first = {side: r.has_skill(cards[side], "first_strike") for side in SIDES}
    result = r.resolve_combat(sides["attacker"], sides["interceptor"], c["attacker_side"]["kind"],
                              c["interceptor_side"]["kind"], first["attacker"], first["interceptor"])
    result["mind_eye"] = r.mind_eye_note(r.has_skill(cards["attacker"], "mind_eye"), r.has_skill(cards["interceptor"], "mind_eye"))
    plan = Plan(state, ctx)
    plan.add("ace_royal.combat_resolved", {"attacker": c["attacker"], "interceptor": c["interceptor"], "sides": sides,
                                           "kinds": {s: c[f"{s}_side"]["kind"] for s in SIDES},
                                           "proxies": {s: c[f"{s}_side"]["proxy"] for s in SIDES},
                                           "result": result, "rule": "A-7"})
    damage = {"interceptor": result["to_interceptor"], "attacker": result["to_attacker"]}
    for side in SIDES:  # damage process (A-7) / the proxy pays instead
        seat, proxy, dmg = c[side], c[f"{side}_side"]["proxy"], damage[side]
        if proxy and dmg:
            hand = plan.value(seat, "hand")
            can = _flag(p.get(f"{side}_hand_code", hand > 0)) and hand > 0
            cost = r.proxy_damage(proxy["source"], dmg, can)
            if cost["discard_field_code"]:
                plan.counter(seat, "codes", plan.value(seat, "codes") - 1, "代理戦闘のダメージ", "A-9")
            if cost["discard_hand_code"]:
                plan.counter(seat, "hand", hand - 1, "代理戦闘のダメージ", "A-9")
            if cost["state"]:
                plan.set_state(seat, cost["state"], "proxy", "A-9")
        elif dmg:
            plan.lose_mana(seat, dmg, "戦闘ダメージ", "A-7")
    for side in SIDES:  # withdrawal: a damaged survivor goes Down
        seat = c[side]
        if damage[side] and not c[f"{side}_side"]["proxy"] and plan.value(seat, "mana") > 0:
            plan.set_state(seat, "down", "damaged", "A-7")
    thief = r.stealer(damage["attacker"], damage["interceptor"])
    if thief:
        victim = c["interceptor" if thief == "attacker" else "attacker"]
        hand = plan.value(victim, "hand")
        if hand > 0 and plan.value(victim, "mana") > 0:  # nothing is taken from a player who is out
            position = r.steal_position(hand, ctx.dice)
            plan.add("ace_royal.stolen", {"from": victim, "to": c[thief], "position": position, "hand": hand,
                                          "rule": "A-7", **plan.dice_data()})
            plan.counter(victim, "hand", hand - 1, "撤退プロセスのカード奪取", "A-7")
            plan.counter(c[thief], "hand", plan.value(c[thief], "hand") + 1, "撤退プロセスのカード奪取", "A-7")
    return plan.done()


# -- command seals and manual changes -----------------------------------------------------------

def use_seal(state: State, p: dict, ctx: ActionContext) -> list:
    """A-3: one or several seal effects, one coin each; every seal used: out (A-2, in settle)."""
    g = _playing(state)
    seat = _seat(state, p, ctx)
    pl = _in(g, seat)
    if pl["masterless"]:
        raise Conflict("マスターがいないため令呪は使えません（A-10）", "Without a master there are no command seals (A-10)")
    effects = p.get("effects")
    if effects is None and p.get("effect") is not None:
        effects = [{k: v for k, v in p.items() if k not in ("seat", "faces", "dice")}]
    if not isinstance(effects, list) or not effects:
        raise GmError("令呪の効果（1〜5）を選んでください", "Choose the seal effect(s) (1 to 5)")
    plan = Plan(state, ctx)
    if len(effects) > plan.value(seat, "seals"):
        raise Conflict(f"令呪が足りません（残り{plan.value(seat, 'seals')}画）", f"Not enough command seals ({plan.value(seat, 'seals')} left)")
    quick = g["version"] == "quick"
    done, later = [], []
    for raw in effects:
        raw = raw if isinstance(raw, dict) else {"effect": raw}
        n = parse_int(raw.get("effect"), "令呪の効果", "seal effect")
        eff = {"effect": n}
        if n == 1:
            if quick:
                eff["faces"] = [ctx.dice.randint(6)]
                later.append(("mana", sum(eff["faces"])))
            else:
                later.append(("mana", 1))
        elif n == 2:
            if quick:
                c = g.get("combat")
                if not c or seat not in (c["attacker"], c["interceptor"]):
                    raise Conflict("振り直せる戦闘ダイスがありません", "There is no combat die of yours to re-roll")
                side = "attacker" if c["attacker"] == seat else "interceptor"
                if not plan.g["combat"][f"{side}_side"]["faces"]:
                    raise Conflict("まだ戦闘ダイスを振っていません", "You have not rolled the combat die yet")
                eff["side"] = side
                eff["faces"] = r.quick_die(ctx.dice)
                later.append(("reroll", side, eff["faces"]))
            else:
                stat = str(raw.get("stat") or "")
                if stat not in r.STATS:
                    raise GmError("強化するステータス（patk / pdef / matk / mdef）を選んでください", "Choose the stat to raise (patk, pdef, matk, mdef)")
                eff.update(stat=stat, value=state.counters[seat]["codes"], label="令呪2")
        elif n == 3:
            coin = str(raw.get("coin") or "")
            if coin not in ("assassin", "depletion"):
                raise GmError("無効化するコイン（assassin 暗殺 / depletion 枯渇）を選んでください", "Choose the coin to cancel: assassin or depletion")
            if plan.value(seat, coin) <= 0:
                raise Conflict("そのコインは置かれていません", "No such coin is on your servant")
            eff["coin"] = coin
            later.append(("coin", coin))
        elif n == 4:
            eff["text"] = clean_text(raw.get("text"), "使うテキスト", "text effect", required=False)
        elif n == 5:
            if pl["state"] not in ("down", "danger"):
                raise Conflict("サーヴァントはダウン／デンジャー状態ではありません", "The servant is not Down or in Danger")
            later.append(("rise",))
        else:
            raise GmError("令呪の効果は1〜5です", "Seal effects are 1 to 5")
        done.append(eff)
    plan.add("ace_royal.seal_used", {"seat": seat, "effects": done, "version": g["version"], "rule": "A-3",
                                     **plan.dice_data()})
    plan.counter(seat, "seals", plan.value(seat, "seals") - len(done), "令呪", "A-3")
    for item in later:
        if item[0] == "mana":
            plan.counter(seat, "mana", plan.value(seat, "mana") + item[1], "令呪1", "A-3")
        elif item[0] == "coin":
            plan.counter(seat, item[1], plan.value(seat, item[1]) - 1, "令呪3", "A-3")
        elif item[0] == "rise":
            plan.set_state(seat, "rise", "seal5", "A-3")
        elif item[0] == "reroll":
            plan.add("ace_royal.combat_set", {"side": item[1], "seat": seat, "what": "dice", "faces": item[2], "reroll": True,
                                              "rule": "A-8", **plan.dice_data()})
    return plan.done()


def adjust(state: State, p: dict, ctx: ActionContext) -> list:
    """A coin or card count changed by a card effect (GM: any counter; a player: their own hand)."""
    g = _playing(state)
    seat = _seat(state, p, ctx)
    key = str(p.get("key") or "")
    if key not in COUNTER_KEYS:
        raise NotFound(f"「{key}」は数えていません（{', '.join(COUNTER_KEYS)}）", f"'{key}' is not counted here ({', '.join(COUNTER_KEYS)})")
    if not ctx.viewer.is_gm and key != "hand":
        raise Forbidden("手札の枚数以外はGMが変更します", "The GM changes everything but your hand size")
    delta = parse_int(p.get("delta"), "増減", "change")
    if delta == 0:
        raise GmError("増減が0です", "The change is 0")
    reason = clean_text(p.get("reason"), "理由", "reason", limit=80, required=False) or "手動"
    plan = Plan(state, ctx)
    new = plan.value(seat, key) + delta
    if new < 0:
        raise GmError(f"0未満にはできません（今は{plan.value(seat, key)}）", f"Cannot go below 0 (now {plan.value(seat, key)})")
    if key == "mana" and delta < 0:
        plan.lose_mana(seat, -delta, reason, "A-2")
    else:
        plan.counter(seat, key, new, reason, "A-10" if key in ("assassin", "depletion") else "")
    return plan.done()


def set_state(state: State, p: dict, ctx: ActionContext) -> list:
    """A card effect or cost changes the servant's state (Rise / Reverse / Danger / Down, A-4)."""
    g = _playing(state)
    seat = _seat(state, p, ctx)
    _in(g, seat)
    to = str(p.get("state") or "")
    if to not in r.SERVANT_STATES:
        raise GmError("状態は rise / reverse / danger / down のどれかです", "The state is rise, reverse, danger or down")
    if g["players"][seat]["state"] == to:
        raise Conflict("既にその状態です", "The servant is in that state already")
    plan = Plan(state, ctx)
    plan.set_state(seat, to, clean_text(p.get("reason"), "理由", "reason", limit=80, required=False) or "manual", "A-4")
    return plan.done()


ACTIONS = dict([
    action("setup", "準備（版と座席順）", "Setup (version and seating)", setup),
    action("roll_first", "最初のアクティブマスター（1d6）", "First active master (1d6)", roll_first),
    action("set_servant", "サーヴァント登録", "Set the servant", set_servant, who="seat"),
    action("leftover_classes", "残ったクラスを公開", "Reveal the leftover classes", leftover_classes),
    action("exchange_class", "クラス交換", "Exchange the class", exchange_class, who="seat"),
    action("start_game", "開幕", "Start the game", start_game),
    action("step", "次のステップ", "Next step", step, who="seat"),
    action("place_code", "礼装カードの配置", "Place a mystic code", place_code, who="seat"),
    action("reveal", "サーヴァントの開示", "Reveal the servant", reveal, who="seat"),
    action("declare_attack", "襲撃を宣言", "Declare an attack", declare_attack, who="seat"),
    action("encounter_roll", "遭遇戦判定（1d6）", "Encounter roll (1d6)", encounter_roll, who="seat"),
    action("combat_choose", "物理／魔術を選ぶ", "Choose physical / magical", combat_choose, who="seat"),
    action("combat_modifier", "修正を加える", "Add a modifier", combat_modifier, who="seat"),
    action("combat_proxy", "代理戦闘", "Proxy combat", combat_proxy, who="seat"),
    action("combat_roll", "戦闘ダイス（クイック）", "Combat die (quick)", combat_roll, who="seat"),
    action("combat_resolve", "戦闘を解決", "Resolve the combat", combat_resolve, who="seat"),
    action("use_seal", "令呪を使う", "Use command seals", use_seal, who="seat"),
    action("adjust", "コイン・枚数を変更", "Change a count", adjust, who="seat"),
    action("set_state", "状態を変更", "Change the servant's state", set_state, who="seat"),
])
