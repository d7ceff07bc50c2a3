"""Fate/Ace Royal turns: the steps (rise, draw, ritual, encounter, end; A-4, A-6, A-11), the
active-master coin (A-5), reveals and declared attacks."""

from __future__ import annotations

from gmtool.core.commands import flag_field, seat_of, text_field
from gmtool.core.errors import Conflict, GmError
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext, reading_value
from gmtool.core.turns import Turns

from . import rules as r
from .plan import Plan, encounter_others, pass_master, playing, require_in, turn_player
from .readings import COMBAT_REVEAL_DRAW
from .strings import words


# -- the turn --------------------------------------------------------------------------------------

def step(state: State, p: dict, ctx: ActionContext) -> list:
    """The next step of the turn: rise (Down cards rise, A-4), draw (+1, A-11), ritual, encounter, end."""
    g = playing(state)
    seat = turn_player(state, p, ctx)
    now = g["step"]
    plan = Plan(state, ctx)
    if now == "rise":
        if g["players"][seat]["state"] == "down":
            plan.set_state(seat, "rise", "rise_step", "A-4")
        plan.add("ace_royal.step", {"seat": seat, "from": now, "to": "draw"})
    elif now == "draw":
        plan.counter(seat, "hand", plan.value(seat, "hand") + 1, ("ドローステップ", "draw step"), "A-11")
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
        plan.counter(seat, "hand", plan.value(seat, "hand") - discard, ("終了ステップで4枚まで捨てる", "end step: discard down to 4"), "A-11")
    turns = Turns.from_dict(g["turns"])
    after = turns.next_player()
    plan.add("ace_royal.turn_ended", {"seat": seat, "turns": after.to_dict(), "discard": discard})
    pass_master(plan, turns, after)


def place_code(state: State, p: dict, ctx: ActionContext) -> list:
    """Ritual step: place one mystic code (4 slots; more per card placed Reverse), or a card Reverse."""
    g = playing(state)
    seat = turn_player(state, p, ctx, "ritual")
    if g["turn"]["placed"]:
        raise Conflict("このターンは既に配置しました", "You placed a card this turn already")
    plan = Plan(state, ctx)
    if plan.value(seat, "hand") <= 0:
        raise Conflict("手札がありません", "Your hand is empty")
    reverse, replace = flag_field(p, "reverse", ja="リバースで配置"), flag_field(p, "replace", ja="場の礼装と入れ替え")
    slots = r.code_slots(g["players"][seat]["reverse_placed"])
    if not reverse and not replace and plan.value(seat, "codes") >= slots:
        raise Conflict(f"礼装の枠（{slots}）が一杯です（入れ替えるときは「場の礼装と入れ替え」）",
                       f"All {slots} mystic code slots are full (to swap one: 'Replace one on the field')")
    if replace and (reverse or plan.value(seat, "codes") == 0):
        raise GmError("入れ替えは場の礼装カードと行います", "A replacement needs a mystic code on the field")
    plan.add("ace_royal.code_placed", {"seat": seat, "reverse": reverse, "replace": replace})
    plan.counter(seat, "hand", plan.value(seat, "hand") - 1, ("礼装カードの配置", "mystic code placed"), "A-11")
    if not reverse and not replace:
        plan.counter(seat, "codes", plan.value(seat, "codes") + 1, ("礼装カードの配置", "mystic code placed"))
    return plan.done()


def _reveal(plan: Plan, seat: str, what: list[str], reason: str, draw: bool) -> None:
    pl = plan.g["players"][seat]
    cards = {w: pl[w] for w in what if not pl[f"{w}_revealed"]}
    if not cards:
        return
    n = r.REVEAL_DRAW * len(cards) if draw else 0
    plan.add("ace_royal.revealed", {"seat": seat, "cards": cards, "draw": n, "reason": reason, "rule": "A-11"})
    if n:
        plan.counter(seat, "hand", plan.value(seat, "hand") + n, ("サーヴァントの開示", "servant disclosed"), "A-11")
    if pl["state"] == "reverse":
        plan.set_state(seat, "rise", "revealed", "A-4")


def reveal(state: State, p: dict, ctx: ActionContext) -> list:
    """Ritual step: reveal the hero, the class or both; each card draws 2 (A-11)."""
    g = playing(state)
    seat = turn_player(state, p, ctx, "ritual")
    what = text_field(p, "what", "both", ja="開示")
    cards = {"hero": ["hero"], "class": ["class"], "both": ["hero", "class"]}.get(what)
    if cards is None:
        ja, en = words(("hero", "class", "both"), {w: f"reveal_{w}" for w in ("hero", "class", "both")})
        raise GmError(f"開示は{ja}のどれかです", f"The reveal must be one of: {en}")
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
    g = playing(state)
    seat = turn_player(state, p, ctx, "ritual")
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
    require_in(g, target)
    plan = Plan(state, ctx)
    _start_combat(plan, seat, target, "attack")
    return plan.done()


def _encounter_target(state: State, numbers: list[str], dice) -> tuple[str, list[int]]:
    """A-6: the random opponent; real dice that run out before it is picked are refused saying what the missing
    die decides (a bare 「2個目のd6」 did not say it picks the opponent), with each number's player."""
    try:
        return r.encounter_target(numbers, dice)
    except GmError:
        if not getattr(dice, "entered", False) or dice.used < len(dice.faces):
            raise
    names_ja = "、".join(f"{i}={state.seat_name(s)}" for i, s in enumerate(numbers, 1))
    names_en = ", ".join(f"{i} = {state.seat_name(s)}" for i, s in enumerate(numbers, 1))
    again = (f"、{len(numbers) + 1}〜6は振り直し", f"; {len(numbers) + 1} to 6: roll again") if len(numbers) < 6 else ("", "")
    raise GmError(f"遭遇戦です: 相手を決めるd6の出目も入力してください（{dice.used + 1}個目: {names_ja}{again[0]}） [A-6]",
                  f"An encounter: enter the d6 that picks the opponent too (die {dice.used + 1}: {names_en}{again[1]}) [A-6]")


def _encounter(plan: Plan, state: State, seat: str, face: int, dice, reroll: dict | None = None) -> None:
    """A-6: the encounter die's `face` and what follows: on a 1 a random opponent and the combat, else the end step.
    `reroll`: the turn's roll this re-rolls (seal 2, A-3): a 1 again keeps its encounter, another face cancels it."""
    g = plan.g
    data = {"seat": seat, "face": face, "encounter": r.encounter_happens(face), "rule": "A-6"}
    if reroll:
        data["reroll"] = True
    if data["encounter"] and reroll and reroll["encounter"]:
        data["target"] = reroll["target"]  # the encounter stands: its opponent was picked by another die
    elif data["encounter"]:
        numbers = encounter_others(g, seat)
        target, faces = _encounter_target(state, numbers, dice)
        data.update(numbers=numbers, faces=faces, target=target)
    plan.add("ace_royal.encounter_rolled", {**data, **plan.dice_data()})
    if data["encounter"] and not (reroll and reroll["encounter"]):
        _encounter_combat(plan, seat, data["target"])
    elif not data["encounter"] and g["step"] != "end":  # a re-rolled non-1 in the end step: already there
        plan.add("ace_royal.step", {"seat": seat, "from": g["step"], "to": "end", "rule": "A-6"})


def _encounter_combat(plan: Plan, seat: str, target: str) -> None:
    """A-6: the encounter's combat, the turn player attacking (山門の守護 flips the roles)."""
    me = plan.g["players"][seat]
    gate = r.has_skill((me["hero"], me["class"]), "gatekeeper")
    attacker, interceptor = r.encounter_roles(seat, target, gate)
    _start_combat(plan, attacker, interceptor, "encounter", gate)


def encounter_roll(state: State, p: dict, ctx: ActionContext) -> list:
    """A-6: 1d6; on a 1 a random other player (re-rolling numbers nobody holds) fights the turn player."""
    seat = turn_player(state, p, ctx, "encounter")
    plan = Plan(state, ctx)
    _encounter(plan, state, seat, ctx.dice.randint(6), ctx.dice)
    return plan.done()


def reroll_encounter(plan: Plan, seat: str, face: int, dice) -> None:
    """A-3 quick effect 2 x A-6: the turn's encounter die re-rolled to `face` (coins.use_seal checked it may be)."""
    _encounter(plan, plan.sim, seat, face, dice, reroll=plan.g["turn"]["encounter"])


def roll_opponent(plan: Plan, seat: str, dice) -> tuple[list[str], str, list[int]]:
    """A-3 quick effect 2 x A-6: the die that picks the encounter's opponent rolled again, as encounter_roll rolls it
    (numbers nobody holds rolled again): (the numbered players, the opponent, the faces)."""
    numbers = encounter_others(plan.g, seat)
    target, faces = _encounter_target(plan.sim, numbers, dice)
    return numbers, target, faces


def reroll_opponent(plan: Plan, seat: str, numbers: list[str], target: str, faces: list[int]) -> None:
    """The opponent die re-rolled (roll_opponent): the same opponent keeps the encounter's combat; another one fights
    it instead (a new combat, the turn player attacking as before; the servants disclosed stay disclosed)."""
    before = plan.g["turn"]["encounter"]["target"]
    plan.add("ace_royal.encounter_rolled", {"seat": seat, "face": 1, "encounter": True, "rule": "A-6", "reroll": True,
                                            "die": "opponent", "numbers": numbers, "faces": faces, "target": target,
                                            "was_target": before, **plan.dice_data()})
    if target != before:
        _encounter_combat(plan, seat, target)
