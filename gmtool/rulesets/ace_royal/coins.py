"""Fate/Ace Royal command seals (A-3) and the counts and states card effects change (A-4, A-10)."""

from __future__ import annotations

from gmtool.core.commands import clean_text, counter_definition, flag_field, parse_int, range_words, text_field
from gmtool.core.errors import Conflict, Forbidden, GmError, choices_text
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext, reading_value

from . import rules as r
from .plan import REROLL_DICE, Plan, acting_seat, game_of, playing, require_in, reroll_refusal
from .readings import FIRST_TIES
from .turn import reroll_encounter, reroll_opponent, roll_opponent
from .strings import words


# -- command seals and manual changes -----------------------------------------------------------

def use_seal(state: State, p: dict, ctx: ActionContext) -> list:
    """A-3: one or several seal effects, one coin each; every seal used: out (A-2, in settle)."""
    g = game_of(state)
    opening = g["phase"] == "setup"  # before the start only quick seal 2 on the first-active-master die
    if not opening:
        g = playing(state)
    seat = acting_seat(state, p, ctx)
    pl = require_in(g, seat)
    if pl["masterless"]:
        raise Conflict("マスターがいないため令呪は使えません（A-10）", "Without a master there are no Command Seals (A-10)")
    effects = p.get("effects")
    if effects is None and p.get("effect") is not None:
        effects = [{k: v for k, v in p.items() if k not in ("seat", "faces", "dice")}]
    if not isinstance(effects, list) or not effects:
        raise GmError("令呪の効果（1〜5）を選んでください", "Choose the seal effect(s) (1 to 5)")
    effects = [raw if isinstance(raw, dict) else {"effect": raw} for raw in effects]
    numbers = [parse_int(raw.get("effect"), "令呪の効果", "seal effect") for raw in effects]
    if any(not 1 <= n <= 5 for n in numbers):  # every effect's number is read first (400), before the start's 409
        raise GmError("令呪の効果は1〜5です", "Seal effects are 1 to 5")
    plan = Plan(state, ctx)
    if len(effects) > plan.value(seat, "seals"):
        raise Conflict(f"令呪が足りません（残り{plan.value(seat, 'seals')}画）", f"Not enough Command Seals ({plan.value(seat, 'seals')} left)")
    quick = g["version"] == "quick"
    done, later = [], []
    coins = {c: plan.value(seat, c) for c in ("assassin", "depletion")}  # what the earlier effects leave
    mana, mana_cap = plan.value(seat, "mana"), state.bounds(seat, "mana")[1]
    for raw, n in zip(effects, numbers):
        eff = {"effect": n}
        die = str(raw.get("die") or "combat") if n == 2 and quick else ""
        if opening and die != "first":
            raise Conflict("ゲームはまだ始まっていません（開幕前の令呪は、クイック版の効果2で最初のアクティブマスター決定のダイスを"
                           "振り直すことだけです）", "The game has not started yet (before the start, a Command Seal only re-rolls "
                           "the first-active-master die: the quick version's effect 2)")
        if n == 1:  # a seal that would recover nothing is refused, not spent
            if mana_cap is not None and mana >= mana_cap:
                raise Conflict(f"魔力は上限の{mana_cap}です: 令呪1で回復するものがありません"
                               "（上限はGMがカウンター欄で理由を書いて上げます）",
                               f"Mana is at its limit of {mana_cap}: seal effect 1 has nothing to recover (the GM raises "
                               "the limit on the counter panel, giving a reason)")
            if quick:
                eff["faces"] = [ctx.dice.randint(6)]
                later.append(("mana", sum(eff["faces"])))
            else:
                later.append(("mana", 1))
            mana += later[-1][1]
        elif n == 2:
            if quick:  # re-roll a die you rolled: the combat die, the first-master or encounter die
                if die not in REROLL_DICE:
                    ja, en = words(REROLL_DICE, {d: f"die_{d}" for d in REROLL_DICE})
                    raise GmError(f"振り直すダイス（{ja}）を選んでください", f"Choose the die to re-roll: {en}")
                if any(item[0] in ("first", "encounter", "opponent") for item in later) and die != "combat":
                    raise Conflict("そのダイスの振り直しは令呪1画ずつです", "That die is re-rolled one Command Seal at a time")
                refusal = reroll_refusal(plan.g, seat, die, plan.value(seat, "seals"))
                if refusal:
                    raise Conflict(*refusal)
                if die == "combat":
                    c = plan.g["combat"]
                    side = "attacker" if c["attacker"] == seat else "interceptor"
                    eff["side"] = side
                    eff["faces"] = r.quick_die(ctx.dice)
                    later.append(("reroll", side, eff["faces"]))
                elif die == "opponent":  # every die it takes: numbers nobody holds are rolled again
                    numbers, target, faces = roll_opponent(plan, seat, ctx.dice)
                    eff.update(die=die, was=plan.g["turn"]["encounter"]["faces"][-1], faces=faces)
                    later.append((die, numbers, target, faces))
                else:
                    was = (plan.g["first_rolls"][seat][-1] if die == "first" else plan.g["turn"]["encounter"]["face"])
                    eff.update(die=die, was=was, faces=[ctx.dice.randint(6)])
                    later.append((die, eff["faces"][0]))
            else:
                stat = str(raw.get("stat") or "")
                if stat not in r.STATS:
                    ja, en = words(r.STATS)
                    raise GmError(f"強化するステータス（{ja}）を選んでください", f"Choose the stat to raise: {en}")
                if not plan.value(seat, "codes"):  # + the mystic codes on the field: +0 would waste the seal
                    raise Conflict("場に礼装カードがありません: 令呪2の強化は+0になります",
                                   "No mystic code on your field: seal effect 2 would add +0")
                eff.update(stat=stat, value=plan.value(seat, "codes"), label="令呪2")
        elif n == 3:
            coin = str(raw.get("coin") or "")
            if coin not in ("assassin", "depletion"):
                ja, en = words(("assassin", "depletion"))
                raise GmError(f"無効化するコイン（{ja}）を選んでください", f"Choose the coin to cancel: {en}")
            eff["coin"] = coin
            if raw.get("placement") not in (None, ""):  # an effect about to place coins, cancelled before it does
                most = state.bounds(seat, coin)[1]
                placement = parse_int(raw.get("placement"), "無効化する配置の枚数", "coins of the cancelled placement")
                if placement < 1 or (most is not None and placement > most):
                    raise GmError(f"無効化する配置の枚数は1〜{most}枚です", f"A cancelled placement is 1 to {most} coins")
                eff["placement"] = placement  # nothing to take off: the coins are never placed
            elif coins[coin] <= 0:
                if plan.value(seat, coin) <= 0:
                    raise Conflict("そのコインは置かれていません（これから置かれる配置を無効化するなら枚数を入力）",
                                   "No such coin is on your servant (to cancel a placement about to be made, give its coins)")
                raise Conflict(f"そのコインは{plan.value(seat, coin)}枚だけです（令呪1画で1枚を取り除きます）",
                               f"Only {plan.value(seat, coin)} such coin(s) on your servant (one seal removes one)")
            else:
                coins[coin] -= 1
                later.append(("coin", coin))
        elif n == 4:
            eff["text"] = clean_text(raw.get("text"), "使うテキスト", "text effect", required=False)
        elif n == 5:
            if pl["state"] not in ("down", "danger"):
                raise Conflict("サーヴァントはダウン／デンジャー状態ではありません", "The servant is not Down or in Danger")
            if ("rise",) in later:
                raise Conflict("効果5は1画で足ります（サーヴァントはライズします）", "One seal of effect 5 is enough (the servant rises)")
            later.append(("rise",))
        done.append(eff)
    plan.add("ace_royal.seal_used", {"seat": seat, "effects": done, "version": g["version"], "rule": "A-3",
                                     **plan.dice_data()})
    plan.counter(seat, "seals", plan.value(seat, "seals") - len(done), ("令呪", "Command Seal"), "A-3")
    for item in later:
        if item[0] == "mana":
            plan.counter(seat, "mana", plan.value(seat, "mana") + item[1], ("令呪1", "Command Seal 1"), "A-3")
        elif item[0] == "coin":
            plan.counter(seat, item[1], plan.value(seat, item[1]) - 1, ("令呪3", "Command Seal 3"), "A-3")
        elif item[0] == "rise":
            plan.set_state(seat, "rise", "seal5", "A-3")
        elif item[0] == "first":
            first, rolls = r.first_after_reroll(plan.g["order"], plan.g["first_rolls"], seat, item[1], ctx.dice,
                                                reading_value(state, FIRST_TIES))
            plan.add("ace_royal.first_rolled", {"rolls": rolls, "first": first, "rule": "A-5", "reroll": seat,
                                                "ties": reading_value(state, FIRST_TIES), **plan.dice_data()})
        elif item[0] == "encounter":
            reroll_encounter(plan, seat, item[1], ctx.dice)
        elif item[0] == "opponent":
            reroll_opponent(plan, seat, *item[1:])
        elif item[0] == "reroll":
            plan.add("ace_royal.combat_set", {"side": item[1], "seat": seat, "what": "dice", "faces": item[2], "reroll": True,
                                              "rule": "A-8", **plan.dice_data()})
    return plan.done()


HAND_REASONS = {"draw": ("ドロー", "draw"), "discard": ("捨て札", "discard")}  # the phone's hand buttons


def adjust(state: State, p: dict, ctx: ActionContext) -> list:
    """A coin or card count changed by a card effect (GM: any counter; a player: their own hand)."""
    g = playing(state, servants=False)  # refuses a game that is not under way (a public export's without servants: a count)
    seat = acting_seat(state, p, ctx)
    if not ctx.viewer.is_gm:
        require_in(g, seat)  # a player who is out has no hand to play; the GM still corrects any count
    key = counter_definition(state, text_field(p, "key", ja="カウンター")).key  # the screens send a known key: said in words (404)
    if not ctx.viewer.is_gm and key != "hand":
        raise Forbidden("手札の枚数以外はGMが変更します", "The GM changes everything but your hand size")
    delta = parse_int(p.get("delta"), "増減", "change")
    if delta == 0:
        raise GmError("増減が0です", "The change is 0")
    typed = clean_text(p.get("reason"), "理由", "reason", limit=80, required=False)  # the GM's words, in either language
    reason = HAND_REASONS.get(typed) or ((typed, typed) if typed else ("手動", "by hand"))
    # whether the servant has 単独行動, asked only when this record has not its cards (a public export's import)
    # and this change kills its master (plan.fights_on); the GM or the servant's own phone answers
    answer = {} if p.get("independent") in (None, "") else {seat: flag_field(p, "independent", ja="単独行動")}
    plan = Plan(state, ctx, independent=answer)
    new = plan.value(seat, key) + delta
    lo, hi = state.bounds(seat, key)
    if (lo is not None and new < lo) or (hi is not None and new > hi):  # counter_drafts would cut it without a word
        label, (ja, en) = state.counter_def(key).label, range_words(lo, hi)  # worded as core's counter panel
        above = hi is not None and new > hi
        raise GmError(f"{label.ja}は{ja}です（{new}にはできません）" + ("。上限はGMがカウンター欄で理由を書いて上げます" if above else ""),
                      f"{label.en} must be {en} (cannot become {new})" + (
                          "; the GM raises the limit on the counter panel, giving a reason" if above else ""))
    if key == "mana" and delta < 0:
        plan.lose_mana(seat, -delta, reason, "A-2")
    else:
        plan.counter(seat, key, new, reason, "A-10" if key in ("assassin", "depletion") else "")
    return plan.done()


def set_state(state: State, p: dict, ctx: ActionContext) -> list:
    """A card effect or cost changes the servant's state (Rise / Reverse / Danger / Down, A-4)."""
    g = playing(state)
    seat = acting_seat(state, p, ctx)
    require_in(g, seat)
    to = text_field(p, "state", ja="サーヴァントの状態")
    if to not in r.SERVANT_STATES:
        ja, en = choices_text(r.SERVANT_STATES)
        raise GmError(f"サーヴァントの状態は{ja}のどれかです", f"The servant's state must be one of: {en}")
    if g["players"][seat]["state"] == to:
        raise Conflict("既にその状態です", "The servant is in that state already")
    plan = Plan(state, ctx)
    plan.set_state(seat, to, clean_text(p.get("reason"), "理由", "reason", limit=80, required=False) or "manual", "A-4")
    return plan.done()
