"""Fate/Ace Royal action plumbing: the plan an action writes, the automatic consequences (A-2, A-7,
A-10) every action ends with, and the guards the actions share.

Every action plans its events on a private copy of the state (`Plan`), so counters move through
core's `counter_drafts` one after the other, and `settle` can look at the result and add the
automatic events with their rule codes. The whole action is one undoable step for the GM.
"""

from __future__ import annotations

from gmtool.core import dice as dicelib
from gmtool.core import engine
from gmtool.core.commands import counter_drafts, require_open, seat_of
from gmtool.core.errors import Conflict, Forbidden, NotFound
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext, reading_value
from gmtool.core.turns import Turns, pass_token

from . import rules as r
from .events import NAME, game
from .readings import AM_PASS
from .strings import STRINGS


MAX_PLAYERS = 7
MIN_PLAYERS = 2


# -- planning ------------------------------------------------------------------------------------

class Plan(engine.Plan):
    """Drafts of one action, folded as they are added into a private copy of the state (core's engine.Plan), with
    this ruleset's steps (counters through core's counter_drafts, a servant's state, 魔力 paid)."""

    def __init__(self, state: State, ctx: ActionContext | None = None, independent: dict | None = None):
        super().__init__(state)
        self.ctx = ctx
        # {seat: bool}: the caller's answer whether a servant whose cards are not in this record (a public export's
        # import) has 単独行動, for a master who dies in this action (A-10, fights_on)
        self.independent = independent or {}

    def counter(self, seat: str, key: str, new: int, reason: tuple[str, str], rule: str = "") -> int:
        """Move a counter through core's counter_drafts (the reason `(Japanese, English)` logged with the rule code
        after each, core.commands.rule_reason); returns the change made."""
        before = self.sim.counters[seat][key]
        for d in counter_drafts(self.sim, seat, key, new, reason, rule):
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

    def lose_mana(self, seat: str, amount: int, reason: tuple[str, str], rule: str) -> int:
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
        drawn = getattr(dice, "used", 0) > 0  # real dice only count when the action took a face
        return {"entered": dicelib.is_entered(dice) and drawn, "dice_next": dice.next_index}

    def done(self) -> list[tuple[str, dict]]:
        """The drafts, after the automatic consequences."""
        settle(self)
        return self.drafts


def counter_settle(state: State, drafts: list) -> list:
    """A counter changed on core's counter panel: the same automatic checks as after an action (A-2, A-4,
    A-10, A-7), at once. Losing 魔力 in Danger turns the servant Down (A-4)."""
    g = state.extra.get(NAME)
    if not g or g.get("phase") != "play" or g.get("over"):
        return drafts
    plan = Plan(state)
    for draft in drafts:
        plan.add(*draft)
        d = draft[1]
        if (draft[0] == "counter.changed" and d["key"] == "mana" and d["delta"] < 0
                and plan.g["players"][d["seat"]]["state"] == "danger" and not plan.g["players"][d["seat"]]["out"]):
            plan.set_state(d["seat"], "down", "danger_loss", "A-4")
    settle(plan)
    return plan.drafts


def settle(plan: Plan) -> None:
    """Automatic consequences, each an event with its rule code: eliminations (A-2, A-10), the winner (A-7).
    An elimination can end a round and pass the active-master coin (A-5), so every player is checked again."""
    g = plan.g
    if not g or g.get("phase") != "play":
        return
    while any(_consequence(plan, seat) for seat in g["order"]):
        pass
    stale_hand_answers(plan)
    standing = [s for s in g["order"] if not g["players"][s]["out"]]
    if len(standing) <= 1 and not g["over"]:
        # the round the game ended in: the deciding action's, before it passed a turn (an elimination on one's own turn
        # passes it, maybe into the next round, A-5)
        round_now = (game(plan.before).get("turns") or {}).get("round")
        plan.add("ace_royal.finished", {"winner": standing[0] if standing else None, "round": round_now, "rule": "A-7"})


def stale_hand_answers(plan: Plan) -> None:
    """A-9: a side's kept answer to whether its hand holds a mystic code card to discard (combat_hand_code) is about
    the hand it had then; the proxy pays from the hand it has at the resolve. An action that changed that side's hand
    (a card drawn, played or discarded: `adjust`, core's counter panel) drops the answer, so it is asked again. Any
    change does, whichever way and whatever the answer was: dropping only a "yes" on a smaller hand would tell the
    table what the secret answer was."""
    c = plan.g.get("combat")
    kept = (c or {}).get("hand_code") or {}
    for side in ("attacker", "interceptor"):
        if side in kept and any(t == "counter.changed" and d["seat"] == c[side] and d["key"] == "hand"
                                for t, d in plan.drafts):
            plan.add("ace_royal.hand_code_cleared", {"side": side, "seat": c[side], "rule": "A-9"})


def _consequence(plan: Plan, seat: str) -> bool:
    """The automatic consequence for one player, if one is due (A-2, A-10); whether one was added."""
    p = plan.g["players"][seat]
    if p["out"]:
        return False
    reason, rule = None, ""
    if plan.value(seat, "mana") <= 0:
        reason, rule = "mana", "A-2"
    elif plan.value(seat, "seals") <= 0 and not p["masterless"]:
        reason, rule = "seals", "A-2"
    elif not p["masterless"]:
        dies = r.master_dies(plan.value(seat, "assassin"), plan.value(seat, "depletion"), plan.value(seat, "hand"))
        if dies and fights_on(plan, seat, dies):
            plan.add("ace_royal.masterless", {"seat": seat, "reason": dies, "rule": "A-10"})
            return True
        reason, rule = dies, "A-10"
    if reason:
        eliminate(plan, seat, reason, rule)
    return bool(reason)


def independent_unknown(p: dict) -> bool:
    """Whether this record cannot tell if a player's servant has 単独行動 (A-10): a public export's import holds that the
    servant was set, not its cards (A-1), and no card of it known here (revealed, or a class exchanged) carries it."""
    cards = (p["hero"], p["class"])
    return bool(p.get("unrecorded")) and not all(cards) and not r.has_skill(cards, "independent")


def fights_on(plan: Plan, seat: str, dies: str) -> bool:
    """A-10: whether the servant of a master who dies fights on without a master (単独行動). Its cards say so; when they
    are not in this record (a public export's import), the caller's answer (`adjust`'s `independent`) does, as the live
    game's cards did: never assumed, the action is refused without it (nothing written)."""
    p = plan.g["players"][seat]
    if not independent_unknown(p):
        return r.has_skill((p["hero"], p["class"]), "independent")
    if seat in plan.independent:
        return plan.independent[seat]
    name = plan.sim.seat_name(seat)
    (coin_ja, coin_en), count, hand = STRINGS[f"ace_royal.{dies}"], plan.value(seat, dies), plan.value(seat, "hand")
    raise Conflict(f"{name} のマスターが死亡します（{coin_ja}{count}枚 > 手札{hand}枚、A-10）。このサーヴァントのカードは公開エクスポートから"
                   f"読み込んだため記録になく、脱落するか単独行動で戦い続けるかが分かりません: 単独行動の有無を答えてください"
                   f"（GMコンソールのボタン「単独あり」／「単独なし」）",
                   f"{name}'s master dies ({coin_en} {count} > hand {hand}, A-10). This servant's cards are not in this "
                   f"session (it was imported from a public export), so whether it is out or fights on with Independent "
                   f"action is not known: say whether it has Independent action (the GM console's buttons 'Indep.' / "
                   f"'No indep.')")


def eliminate(plan: Plan, seat: str, reason: str, rule: str) -> None:
    """A player is out; when it was their turn (outside a combat being resolved), play passes on, and when it
    passes back to the round's opener the round ends: the active-master coin passes as at an end step (A-5)."""
    g = plan.g
    turns = Turns.from_dict(g["turns"])
    after = turns.eliminate(seat)
    c = g.get("combat")  # a servant that is out fights no more: a combat it is in ends without a result
    plan.add("ace_royal.out", {"seat": seat, "reason": reason, "rule": rule, "turns": after.to_dict(),
                               "new_turn": after.current != turns.current,
                               "combat_ends": bool(c) and seat in (c["attacker"], c["interceptor"])})
    if after.current != turns.current and sum(not p["out"] for p in g["players"].values()) > 1:
        pass_master(plan, turns, after)


def pass_master(plan: Plan, turns: Turns, after: Turns) -> None:
    """A turn ended (`turns` → `after`): at a phase end the active-master coin passes clockwise and the receiver
    loses 1 魔力 (A-5; when, as the reading `master_pass` says)."""
    g = plan.g
    reading = reading_value(plan.sim, AM_PASS)
    if not r.pass_due(reading, after.round > turns.round, turns.round):
        return
    holder = g["active"]
    to = pass_token(g["order"], holder, [s for s in g["order"] if g["players"][s]["out"]])
    if to != holder:
        plan.add("ace_royal.master_passed", {"from": holder, "to": to, "rule": "A-5", "reading": reading})
        plan.lose_mana(to, 1, ("アクティブマスターコインを受け取った", "received the active master coin"), "A-5")


# -- guards --------------------------------------------------------------------------------------

def game_of(state: State) -> dict:
    """This game's state, refusing a closed session or one not set up yet."""
    require_open(state)
    g = state.extra.get(NAME)
    if not g:
        ja, en = STRINGS["ace_royal.setup"]  # the console's button
        raise Conflict(f"まだ準備をしていません（GMが「{ja}」で始めます）", f"The game is not set up yet (the GM sets it up "
                       f"with the '{en}' button)")
    return g


def playing(state: State, servants: bool = True) -> dict:
    """This game's state while it is being played (started, not over), with every servant entered (`servants`
    False: a count the GM corrects needs none)."""
    g = game_of(state)
    if g["phase"] == "setup":
        raise Conflict("ゲームはまだ始まっていません", "The game has not started yet")
    if g["over"]:
        raise Conflict("ゲームは終了しています", "The game is over")
    # a public export's: servant_set is its seat's, so a servant's cards are here only once revealed, each apart
    # (a hero card revealed alone left the class out: the combat its encounter started was a 500 on every screen)
    if servants and any(not (pl["hero"] and pl["class"]) for pl in g["players"].values()):
        raise Conflict("サーヴァントの記録がこのセッションにありません（公開エクスポートから読み込んだため）。"
                       "続けるには完全バックアップから読み込んでください",
                       "The servants are not in this session (it was imported from a public export): import a full "
                       "backup to play on")
    return g


def acting_seat(state: State, p: dict, ctx: ActionContext) -> str:
    """The seat an action is about: the caller's own, or any the GM names."""
    g = game_of(state)
    if ctx.viewer.is_gm:
        seat = seat_of(state, p.get("seat")).id
    else:
        seat = ctx.viewer.seat
        if p.get("seat") not in (None, "", seat):
            raise Forbidden("他のプレイヤーの操作はできません", "You cannot act for another player")
    if seat not in g["players"]:
        raise NotFound("その席はこのゲームに参加していません", "That seat is not playing in this game")
    return seat


def require_in(g: dict, seat: str) -> dict:
    """A player who is still in the game."""
    p = g["players"][seat]
    if p["out"]:
        raise Conflict("その席は脱落しています", "That player is out")
    return p


def turn_player(state: State, p: dict, ctx: ActionContext, step: str | None = None) -> str:
    """The current player acting on their own turn (the GM acts for them), in `step` when given."""
    g = playing(state)
    turns = Turns.from_dict(g["turns"])
    seat = turns.current if ctx.viewer.is_gm and p.get("seat") in (None, "") else acting_seat(state, p, ctx)
    turns.require(seat)
    if step and g["step"] != step:
        raise Conflict(f"今は{r.STEP_LABELS[g['step']][0]}です（{r.STEP_LABELS[step][0]}の操作です）",
                       f"It is the {r.STEP_LABELS[g['step']][1]} (this belongs to the {r.STEP_LABELS[step][1]})")
    return seat




# the dice a player rolled that quick seal 2 re-rolls: the combat die, the first-active-master die, the
# encounter die and the die that picked the encounter's opponent (A-6; the turn player rolls both in encounter_roll)
REROLL_DICE = ("combat", "first", "encounter", "opponent")


def reroll_refusal(g: dict, seat: str, die: str, seals: int) -> tuple[str, str] | None:
    """A-3 quick effect 2: why `seat` cannot re-roll `die` now ({ja, en}), or None: the combat die while it is theirs
    (A-8), the first-active-master die while the opening is not settled (A-5: before the class exchange's order and
    the start), the encounter die of their turn before the encounter it caused went on, and so the die that picked that
    encounter's opponent, when another player could be picked (A-6)."""
    if die == "first":
        if g["phase"] != "setup":
            return ("開幕したので、最初のアクティブマスター決定のダイスはもう振り直せません（A-5）",
                    "The game has started: the first-active-master die can no longer be re-rolled (A-5)")
        if not g["first_rolls"] or seat not in g["first_rolls"]:
            return ("最初のアクティブマスター決定のダイスをまだ振っていません", "The first-active-master dice have not been rolled yet")
        if g.get("exchange"):
            return ("クラス交換の順番が決まったので、最初のアクティブマスター決定のダイスはもう振り直せません（A-5）",
                    "The class exchange's order is set: the first-active-master die can no longer be re-rolled (A-5)")
        if seals <= 1:  # nobody goes out before the start: the last seal waits for the game
            return ("開幕前に最後の令呪は使えません（使い切ると脱落します、A-2）",
                    "Not your last Command Seal before the game starts (using every seal puts you out, A-2)")
        return None
    if g["phase"] != "play" or g["over"]:
        return ("ゲームはまだ始まっていません", "The game has not started yet") if g["phase"] == "setup" else (
            "ゲームは終了しています", "The game is over")
    c = g.get("combat")
    if die in ("encounter", "opponent"):
        ja, en = STRINGS[f"ace_royal.die_{die}"]
        en = en[0].lower() + en[1:]
        rolled = (g.get("turn") or {}).get("encounter")
        if not rolled or rolled["seat"] != seat or (die == "opponent" and not rolled["encounter"]):
            return (f"このターンに振った{ja}がありません", f"You have not rolled an {en} this turn")
        if not rolled["encounter"]:
            return None if g["step"] == "end" else (f"{ja}はもう振り直せません", f"The {en} can no longer be re-rolled")
        if not c or c["how"] != "encounter":
            return (f"遭遇戦は解決済みです: {ja}はもう振り直せません（A-6）",
                    "The encounter is resolved: its die can no longer be re-rolled (A-6)")
        if any(c[f"{side}_side"][k] for side in ("attacker", "interceptor") for k in ("kind", "modifiers", "proxy", "faces")):
            return (f"遭遇戦の戦闘が進んでいます（攻撃手段・修正・代理・戦闘ダイス）: {ja}はもう振り直せません（A-6）",
                    "The encounter's combat has gone on (a pick, a modifier, a proxy or a combat die): its "
                    f"{en} can no longer be re-rolled (A-6)")
        if die == "opponent" and len(encounter_others(g, seat)) < 2:  # a seal that would change nothing is not spent
            return ("遭遇戦の相手になれるのは1人だけです: 振り直しても同じ相手です（A-6）",
                    "Only one player can be the encounter's opponent: a re-roll would pick the same (A-6)")
        return None
    if not c or seat not in (c["attacker"], c["interceptor"]):
        return ("振り直せる戦闘ダイスがありません", "There is no combat die of yours to re-roll")
    side = "attacker" if c["attacker"] == seat else "interceptor"
    if not c[f"{side}_side"]["faces"]:
        return ("まだ戦闘ダイスを振っていません", "You have not rolled the combat die yet")
    return None


def encounter_others(g: dict, seat: str) -> list[str]:
    """A-6: the players an encounter of `seat`'s may pick, numbered 1.. in this order."""
    return r.encounter_numbers(g["order"], seat, [s for s in g["order"] if g["players"][s]["out"]])


def rerollable(g: dict, seat: str, seals: int) -> list[str]:
    """A-3 quick effect 2: the dice `seat` may re-roll now (none in the standard version or without a seal)."""
    if g.get("version") != "quick" or seals <= 0 or g["players"][seat]["masterless"] or g["players"][seat]["out"]:
        return []
    return [die for die in REROLL_DICE if reroll_refusal(g, seat, die, seals) is None]
