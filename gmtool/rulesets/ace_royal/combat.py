"""Fate/Ace Royal combat: choices, modifiers, proxies (A-9), quick dice (A-8) and the result with
its damage, Down, the steal and eliminations (A-7)."""

from __future__ import annotations

from gmtool.core import dice as dicelib
from gmtool.core.commands import clean_text, flag_field, parse_int, text_field
from gmtool.core.errors import Conflict, Forbidden, GmError
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext

from . import rules as r
from .events import NAME, game, sees_secret
from .plan import Plan, playing
from .strings import words


# -- combat ----------------------------------------------------------------------------------------

SIDES = ("attacker", "interceptor")


def _combat_side(state: State, p: dict, ctx: ActionContext) -> tuple[dict, str]:
    g = playing(state)
    c = g.get("combat")
    if not c:
        raise Conflict("戦闘中ではありません", "There is no combat")
    side = text_field(p, "side", ja="操作する側")
    if side not in SIDES:
        if not ctx.viewer.is_gm and ctx.viewer.seat in (c["attacker"], c["interceptor"]):
            side = "attacker" if ctx.viewer.seat == c["attacker"] else "interceptor"
        else:
            ja, en = words(SIDES)
            raise GmError(f"操作する側は{ja}のどちらかです", f"The side must be one of: {en}")
    if not ctx.viewer.is_gm and ctx.viewer.seat != c[side]:
        raise Forbidden("相手側の操作はできません", "You cannot act for the other side")
    return c, side


def combat_choose(state: State, p: dict, ctx: ActionContext) -> list:
    """A-7: the attacker picks physical or magical in the attack process; the interceptor picks its
    counter-attack in the interception process, once the attacker has picked (its pick ends the attack
    process and fixes the attacker's damage judgement). A side changes its pick only after a card changed
    the stats (a modifier, a proxy, a die), and the attacker not after the attack process has ended."""
    c, side = _combat_side(state, p, ctx)
    kind = text_field(p, "kind", ja="攻撃手段")
    if kind not in r.KINDS:
        ja, en = words(r.KINDS)
        raise GmError(f"攻撃手段は{ja}のどちらかです", f"The attack must be one of: {en}")
    mine = c[f"{side}_side"]
    if mine["kind"] == kind:
        raise Conflict("既にその攻撃手段です", "That attack is already chosen")
    g = game(state)
    now = _stats_now(g, state, c)
    data = {"side": side, "seat": c[side], "what": "kind", "kind": kind, "stats": now, "rule": "A-7"}
    if side == "attacker" and c.get("strike"):
        raise Conflict("襲撃プロセスは終わりました: 襲撃側の攻撃手段はもう変えられません（A-7）",
                       "The attack process is over: the attacker's attack can no longer change (A-7)")
    if side == "interceptor":
        if not c["attacker_side"]["kind"]:
            raise Conflict("迎撃側は、襲撃側が攻撃手段を選んだ後の迎撃プロセスで選びます（A-7）",
                           "The interceptor picks in the interception process, after the attacker has picked (A-7)")
        _require_dice(g, c)  # the dice belong to the attacker's damage judgement this pick fixes
        strike = c.get("strike") or _strike(g, state, c)
        if strike["skipped"]:
            raise Conflict("先制でダメージを与えたので、迎撃プロセスはありません（A-7）",
                           "First strike dealt damage: there is no interception process (A-7)")
        if not c.get("strike"):
            data["strike"] = strike
    if pick_fixed(state, c, side):
        raise Conflict("攻撃手段を変えられるのは、カードでステータスが変わった後だけです（A-7）",
                       "A side changes its attack only after a card changed the stats (A-7)")
    return [("ace_royal.combat_set", data)]


def _stats_now(g: dict, state: State, c: dict) -> dict:
    return {s: _side_result(g, state, c, s)["stats"] for s in SIDES}


def pick_fixed(state: State, c: dict, side: str) -> bool:
    """A-7: the side has picked and no card has changed the stats since: another pick is refused."""
    mine = c[f"{side}_side"]
    return bool(mine["kind"]) and mine.get("stats") == _stats_now(game(state), state, c)


def _require_dice(g: dict, c: dict) -> None:
    """A-8: in the quick version both sides' combat dice are rolled before the attacker's damage judgement."""
    for side in SIDES:
        if g["version"] == "quick" and not c[f"{side}_side"]["faces"]:
            raise Conflict(f"{'襲撃側' if side == 'attacker' else '迎撃側'}が戦闘ダイスを振っていません（A-8）",
                           f"The {side} has not rolled the combat die (A-8)")


def _strike(g: dict, state: State, c: dict) -> dict:
    """A-7: the attacker's damage judgement as the stats stand, and whether 先制 skips the interception."""
    cards = {s: (g["players"][c[s]]["hero"], g["players"][c[s]]["class"]) for s in SIDES}
    first = {s: r.has_skill(cards[s], "first_strike") for s in SIDES}
    att, dfn = _side_result(g, state, c, "attacker"), _side_result(g, state, c, "interceptor")
    kind = c["attacker_side"]["kind"]
    atk, df = att["stats"][r.STATS.index(r.KINDS[kind][0])], dfn["stats"][r.STATS.index(r.KINDS[kind][1])]
    dealt = r.attacker_damage(atk, df)
    return {"kind": kind, "atk": atk, "def": df, "damage": dealt,
            "skipped": r.interception_skipped(first["attacker"], first["interceptor"], dealt)}


def combat_modifier(state: State, p: dict, ctx: ActionContext) -> list:
    """A labelled modifier (mystic code, scene card …) to one stat or all stats of a side, before the result."""
    c, side = _combat_side(state, p, ctx)
    stat = text_field(p, "stat", ja="修正するステータス")
    if stat not in r.STATS + ("all",):
        ja, en = words(("all", *r.STATS), {"all": "all_stats"})
        raise GmError(f"修正するステータスは{ja}のどれかです", f"The stat must be one of: {en}")
    value = parse_int(p.get("value"), "修正値", "modifier")
    if value == 0 or abs(value) > r.MAX_STAT:
        raise GmError(f"修正値は0以外、±{r.MAX_STAT}以内です", f"A modifier is non-zero and within ±{r.MAX_STAT}")
    label = clean_text(p.get("label"), "修正の名前（カード名など）", "modifier label (a card's name)")
    return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "modifier", "stat": stat, "value": value, "label": label})]


def combat_proxy(state: State, p: dict, ctx: ActionContext) -> list:
    """A-9: a proxy fights for the side (its own stats; from a mystic code or a hero card), or withdraw it."""
    c, side = _combat_side(state, p, ctx)
    if flag_field(p, "clear", ja="代理戦闘の取り消し"):
        if not c[f"{side}_side"]["proxy"]:
            raise Conflict("代理戦闘はありません", "There is no proxy")
        return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "proxy", "proxy": None})]
    source = text_field(p, "source", ja="代理戦闘の由来")
    if source not in ("code", "hero"):
        ja, en = words(("hero", "code"), {"code": "codes"})
        raise GmError(f"代理戦闘の由来は{ja}のどちらかです", f"The proxy's source must be one of: {en}")
    if source == "code" and state.counters[c[side]]["codes"] <= 0:  # its damage discards that code
        raise Conflict("場に礼装カードがありません（礼装による代理戦闘は場の礼装が行います）",
                       "There is no mystic code on the field (a proxy from a mystic code is one on the field)")
    proxy = {"name": clean_text(p.get("name"), "代理戦闘者の名前", "proxy name"), "stats": r.parse_stats(p.get("stats")),
             "legion": flag_field(p, "legion", ja="軍団"), "source": source}
    return [("ace_royal.combat_set", {"side": side, "seat": c[side], "what": "proxy", "proxy": proxy, "rule": "A-9"})]


def combat_roll(state: State, p: dict, ctx: ActionContext) -> list:
    """A-8 (quick version): the side's combat die, rolled again while 1s come."""
    g = playing(state)
    c, side = _combat_side(state, p, ctx)
    if g["version"] != "quick":
        raise Conflict("戦闘ダイスはクイック版のルールです", "Combat dice belong to the quick version")
    if c[f"{side}_side"]["faces"]:
        raise Conflict("この戦闘のダイスは振りました（振り直しは令呪）", "This side has rolled (re-roll with a Command Seal)")
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


def combat_strike(state: State) -> dict | None:
    """A-7: the attacker's damage judgement: fixed once the interceptor picked, else as the stats stand now
    (None before the attacker picks)."""
    g = state.extra.get(NAME) or {}
    c = g.get("combat")
    if not c or not c["attacker_side"]["kind"]:
        return None
    return c.get("strike") or _strike(g, state, c)


def _outcome(g: dict, state: State, c: dict, strike: dict) -> tuple[dict, dict]:
    """A-7: each side's stats and both damage processes, as combat_resolve would write them."""
    sides = {side: _side_result(g, state, c, side) for side in SIDES}
    cards = {side: (g["players"][c[side]]["hero"], g["players"][c[side]]["class"]) for side in SIDES}
    first = {side: r.has_skill(cards[side], "first_strike") for side in SIDES}
    result = r.resolve_combat(sides["attacker"], sides["interceptor"], c["attacker_side"]["kind"],
                              c["interceptor_side"]["kind"], first["attacker"], first["interceptor"], strike)
    result["mind_eye"] = r.mind_eye_note(r.has_skill(cards["attacker"], "mind_eye"), r.has_skill(cards["interceptor"], "mind_eye"))
    return sides, result


def _hand_code_due(state: State, c: dict, result: dict) -> dict:
    """A-9: for each side, whether combat_resolve needs its `<side>_hand_code` answer: its proxy is from a hero card,
    takes damage, and its hand is not empty (an empty hand has nothing to discard: Danger)."""
    damage = {"attacker": result["to_attacker"], "interceptor": result["to_interceptor"]}
    due = {}
    for side in SIDES:
        proxy = c[f"{side}_side"]["proxy"]
        due[side] = bool(proxy and proxy["source"] == "hero" and damage[side] > 0 and state.counters[c[side]]["hand"] > 0)
    return due


def hand_code_due(state: State) -> dict | None:
    """The view's `combat.hand_code_due`: which side's hand answer combat_resolve needs as the combat stands now
    (None until the attacker, and the interceptor when it intercepts, have picked)."""
    g = state.extra.get(NAME) or {}
    c = g.get("combat")
    if not c or not c["attacker_side"]["kind"]:
        return None
    if g["version"] == "quick" and not all(c[f"{side}_side"]["faces"] for side in SIDES):
        return None
    strike = c.get("strike") or _strike(g, state, c)
    if not strike["skipped"] and not c["interceptor_side"]["kind"]:
        return None
    return _hand_code_due(state, c, _outcome(g, state, c, strike)[1])


def hand_code_seen(state: State, viewer) -> dict:
    """The view's `combat.hand_code`: each side's recorded answer (A-9) for the GM and that side's own phone; null for
    everyone else (whether a player's hand holds a mystic code is theirs until the resolve shows it) and when none is
    recorded. `combat.hand_code_answered` says publicly that it is."""
    c = (state.extra.get(NAME) or {}).get("combat") or {}
    stored = c.get("hand_code") or {}
    return {side: stored.get(side) if sees_secret(viewer, c.get(side)) else None for side in SIDES}


def combat_hand_code(state: State, p: dict, ctx: ActionContext) -> list:
    """A-9: a side whose hero card's proxy takes damage says, before the resolve, whether its hand holds a mystic code
    to discard; the answer is kept in the combat (its seat's and the GM's) and combat_resolve uses it, so each side
    answers on its own phone whatever the other side does, and either side (or the GM) resolves once all are in."""
    c, side = _combat_side(state, p, ctx)
    if "hand_code" not in p:
        raise GmError("手札に捨てられる礼装カードがあるか（ある／ない）を答えてください（A-9）",
                      "Say whether the hand holds a mystic code card to discard (hand_code: true or false, A-9)")
    answer = flag_field(p, "hand_code", ja="手札の礼装カード")
    who = state.seat_name(c[side])
    if not (hand_code_due(state) or {}).get(side):
        raise Conflict(f"{who} に手札の礼装カードを尋ねる場面ではありません: 英霊カードによる代理戦闘がダメージを受け、手札が"
                       "あるときに答えます（A-9）",
                       f"{who} is not asked about the hand: that is when a proxy from a hero card takes damage and the "
                       "hand is not empty (A-9)")
    if (c.get("hand_code") or {}).get(side) is answer:
        return []  # the same answer again (a double tap, a phone's retry): kept already, nothing to write
    return [("ace_royal.hand_code_answered", {"side": side, "seat": c[side], "hand_code": answer, "rule": "A-9"})]


def _hand_code(p: dict, c: dict, side: str) -> bool | None:
    """A side's answer to A-9's question: the resolve's own field, else the one recorded (None: not given)."""
    if f"{side}_hand_code" in p:
        return flag_field(p, f"{side}_hand_code", ja="手札の礼装を捨てる")
    return (c.get("hand_code") or {}).get(side)


def combat_resolve(state: State, p: dict, ctx: ActionContext) -> list:
    """A-7: both damage processes, damage paid in 魔力 (or by the proxy, A-9), Down, the steal, eliminations."""
    g = playing(state)
    c = g.get("combat")
    if not c:
        raise Conflict("戦闘中ではありません", "There is no combat")
    if not ctx.viewer.is_gm and ctx.viewer.seat not in (c["attacker"], c["interceptor"]):
        raise Forbidden("戦闘の当事者かGMだけが解決できます", "Only the two sides or the GM resolve a combat")
    if not ctx.viewer.is_gm:  # a side says only whether its own hand holds a mystic code, as its phone asks
        other = "interceptor" if ctx.viewer.seat == c["attacker"] else "attacker"
        if f"{other}_hand_code" in p:
            raise Forbidden("相手側の手札に礼装があるかは、相手かGMが答えます（A-9）",
                            "Whether the other side's hand holds a mystic code is for that side or the GM to say (A-9)")
    _require_dice(g, c)
    if not c["attacker_side"]["kind"]:
        raise Conflict("襲撃側が物理か魔術を選んでいません", "The attacker has not chosen physical or magical")
    strike = c.get("strike") or _strike(g, state, c)  # fixed when the interceptor picked
    if not strike["skipped"] and not c["interceptor_side"]["kind"]:
        raise Conflict("迎撃側が物理か魔術を選んでいません", "The interceptor has not chosen physical or magical")
    sides, result = _outcome(g, state, c, strike)
    for side, due in _hand_code_due(state, c, result).items():
        # a hero card's proxy that takes damage discards a mystic code from the hand, or the servant goes Danger;
        # what the hand holds is for its player (or the GM) to say: nothing is assumed for a side that has not said it
        if due and _hand_code(p, c, side) is None:
            who = state.seat_name(c[side])
            raise Conflict(f"{who} の代理戦闘がダメージを受けます: 手札に捨てられる礼装カードがあるかを {who} かGMが答えてから"
                           "解決します（A-9）",
                           f"{who}'s proxy takes damage: {who} or the GM says whether {who}'s hand holds a mystic code to "
                           "discard before the combat is resolved (A-9)")
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
            can = bool(_hand_code(p, c, side)) and hand > 0
            cost = r.proxy_damage(proxy["source"], dmg, can)
            # what it cost, said to the table and the player (the card to discard), before the counts move
            plan.add("ace_royal.proxy_paid", {
                "seat": seat, "side": side, "proxy": proxy["name"], "source": proxy["source"], "damage": dmg,
                "discard": "field_code" if cost["discard_field_code"] else ("hand_code" if cost["discard_hand_code"] else None),
                "state": cost["state"], "rule": "A-9"})
            if cost["discard_field_code"]:
                plan.counter(seat, "codes", plan.value(seat, "codes") - 1, ("代理戦闘のダメージ", "proxy combat damage"), "A-9")
            if cost["discard_hand_code"]:
                plan.counter(seat, "hand", hand - 1, ("代理戦闘のダメージ", "proxy combat damage"), "A-9")
            if cost["state"]:
                plan.set_state(seat, cost["state"], "proxy", "A-9")
        elif dmg:
            plan.lose_mana(seat, dmg, ("戦闘ダメージ", "combat damage"), "A-7")
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
            plan.counter(victim, "hand", hand - 1, ("撤退プロセスのカード奪取", "card taken in the retreat process"), "A-7")
            plan.counter(c[thief], "hand", plan.value(c[thief], "hand") + 1, ("撤退プロセスのカード奪取", "card taken in the retreat process"), "A-7")
    return plan.done()
