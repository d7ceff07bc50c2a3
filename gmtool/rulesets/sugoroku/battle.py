"""Sugoroku (S): battles (S-6..S-8), their card prompt and resolver, skills, seals and karma (S-5, S-11, S-12, S-15).

A battle is one prompt of the custom kind ``sugoroku_cards`` put to every fighter: the parent
answers its face-down card, each child its 1–3 cards; the answers stay secret (commitments only)
until the last one is in, then all are revealed at once (the parent's reveal, S-7). The parent may
add a face-up card before and one after the reveal (``battle_card``). The resolver ``sugoroku_battle``
totals each side with terrain, seals and GM modifiers and proposes the VP; ``end_battle`` applies it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from gmtool.core import prompts as P
from gmtool.core.commands import CounterRun, clean_text, flag_field, parse_int, text_field
from gmtool.core.errors import Conflict, GmError, choices_text, shown
from gmtool.core.model import Prompt, State

from . import rules as R
from .events import is_revealed, sg
from .strings import STRINGS
from .flow import (acting_seat, at_goal, count_reveal, flow_reading, just_rolled, move_to, readings,
                   require_no_battle, reveal, square_vp, started)

KIND = "sugoroku_cards"
# One way to split the spaces (no nested optional \s*): linear, and card texts are bounded (MAX_CARD_TEXT).
CARD_RE = re.compile(rf"(スキル|宝具|skill|np|attack|アタック)?\s*(?:({R.ATTRIBUTE_TYPED})\s*)?(\d+)", re.I)
MAX_CARD_TEXT = 40
MAX_CARD_LIST = 20
KIND_WORDS = {"スキル": "skill", "skill": "skill", "宝具": "np", "np": "np", "attack": "attack", "アタック": "attack"}
PREFIX = {"attack": "", "skill": "スキル", "np": "宝具"}
ADJUSTMENTS = {"winner": ("勝者", "Winner"), "vp_effect": STRINGS["sugoroku.vp_effect"],
               "square_vp": ("勝利時戦果", "Battle VP")}  # what battle_adjust changes, as the console names them


# -- cards ----------------------------------------------------------------------------------------

def card_text(card: Any) -> str:
    """One card as text: 力7, スキル魔3, 宝具8 (from text such as 力7, p7, Power 7, or {"power", "attribute", "kind"})."""
    if isinstance(card, dict):
        kind = card.get("kind", "attack")
        kind = KIND_WORDS.get(kind.lower(), kind) if isinstance(kind, str) else kind  # R._card refuses any other
        c = R._card({"kind": kind, "attribute": card.get("attribute"), "power": card.get("power")})
        return f"{PREFIX[kind]}{c['attribute'] or ''}{c['power']}"
    text = shown(card).strip()  # a list or null as JSON writes it
    if len(text) > MAX_CARD_TEXT:
        raise GmError(f"カードは{MAX_CARD_TEXT}文字以内です", f"A card is at most {MAX_CARD_TEXT} characters")
    m = CARD_RE.fullmatch(text)
    if not m:
        raise GmError(f"カード「{text}」を読めません（例：力7、スキル魔3）", f"Cannot read card '{text}' (e.g. Power 7, skill Magic 3)")
    attribute = R.typed_attribute(m.group(2)) if m.group(2) else None
    return card_text({"kind": m.group(1) or "attack", "attribute": attribute, "power": int(m.group(3))})


def cards_text(value: Any, lang: str = "ja") -> str:
    """A battle answer (its cards, or their texts joined by ・) as the viewer reads it: 力7・スキル魔3 /
    Power 7, Skill Magic 3 (what is stored and committed stays the Japanese card text)."""
    items = value if isinstance(value, list) else str(value).split("・")
    return ("・" if lang != "en" else ", ").join(R.card_words(c, lang) for c in items)


def card_dict(text: str, face: str = "up") -> dict:
    """A card text as sugoroku_rules wants it."""
    m = CARD_RE.fullmatch(text)
    return {"kind": KIND_WORDS.get((m.group(1) or "attack").lower(), "attack"), "attribute": m.group(2),
            "power": int(m.group(3)), "face": face, "name": None}


def parse_cards(value: Any) -> list[str]:
    """Cards from JSON ({...}, [{...}], "力7 魔3") or a form (pairs of attribute and power, empty slots skipped)."""
    if isinstance(value, dict):
        return [card_text(value)]
    if isinstance(value, list) and len(value) > 2 * MAX_CARD_LIST or len(str(value or "")) > 40 * MAX_CARD_TEXT:
        raise GmError("カードが多すぎます", "Too many cards")
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value) and len(value) % 2 == 0 \
            and all(re.fullmatch(r"\d*", v.strip()) for v in value[1::2]) and any(v.strip() for v in value[1::2]):
        return [card_text(a + p.strip()) for a, p in zip(value[::2], value[1::2]) if p.strip()]
    if isinstance(value, list):
        return [card_text(v) for v in value]
    text = re.sub(r"(?i)\b(power|magic|technique)\s+(?=\d)", r"\1", str(value or ""))  # Power 7 is one card
    texts = [t for t in re.split(r"[\s,、，・/]+", text) if t]
    return [card_text(t) for t in texts]


def validate_cards(prompt: Prompt, who: str, value: Any, state: State) -> list[str]:
    """The custom prompt kind: the parent submits exactly 1 face-down card, a child 1–3 cards (S-7)."""
    cards = parse_cards(value)
    parent = prompt.meta.get("parent")
    if who == parent and len(cards) != 1:
        raise GmError("親は伏せ札を1枚だけ出します", "The parent puts exactly one card face down")
    if who != parent and not 1 <= len(cards) <= 3:
        raise GmError("子は1〜3枚のカードを出します", "A child plays 1 to 3 cards")
    return cards


# -- the resolution -------------------------------------------------------------------------------

def fighters(battle: dict) -> list[str]:
    """Who still fights (a seal escape leaves, S-11)."""
    return [f for f in [battle["parent"], *battle["children"]] if f not in battle["left"]]


def outcome(state: State, prompt: Prompt, answers: dict, battle: dict, tx: CounterRun | None = None) -> dict:
    """S-7/S-8: totals with breakdown, the winner (or a tie for the GM), the VP, and the drafts that apply it."""
    rd = readings(state)
    rows, totals, played = [], {}, {}
    for f in fighters(battle):
        own = list(answers.get(f) or [])
        cards = [card_dict(c, "down" if f == battle["parent"] and i == 0 else "up") for i, c in enumerate(own)]
        cards += [card_dict(a["card"]) for a in battle["added"] if a["seat"] == f]
        mods = [{"label": m["label"], "value": m["amount"], "rule": "GM"} for m in prompt.modifiers if m["who"] == f]
        result = R.battle_total(cards, battle["terrain"], battle["seals"].get(f, 0), mods, True, rd)
        totals[f], played[f] = result["total"], len(cards)
        role = "親" if f == battle["parent"] else "子"
        en_role = "parent" if f == battle["parent"] else "child"
        rows.append({"who": f, "name": f"{state.seat_name(f)}（{role}）",
                     "label": {"ja": f"{state.seat_name(f)}（{role}）", "en": f"{state.seat_name(f)} ({en_role})"},
                     "value": "・".join(
            own + [a["card"] for a in battle["added"] if a["seat"] == f]), "terms": result["terms"],
            "total": result["total"], "notes": result["notes"]})
    notes = [n for r in rows for n in r.pop("notes")]
    notes = [n for i, n in enumerate(notes) if n not in notes[:i]]
    if len(totals) < 2:
        win = {"winner": None, "tied": [], "gm_decides": False, "notes": []}
    else:
        win = R.battle_winner(totals, battle["parent"], rd)
    winner, decided = win["winner"], False
    if win["tied"] and battle.get("decision") is not None:
        winner, decided = (battle["decision"] or None), True
    tx = tx or CounterRun(state)
    tx.emit("sugoroku.battle_ended", {})
    at = len(tx.drafts) - 1
    vp, terms = 0, []
    if winner:
        result = R.battle_vp(battle["square_vp"], R.cards_played_by_others(played, winner), battle["vp_effects"],
                             battle["seals"].get(winner, 0))
        vp, terms = result["value"], result["terms"]
        tx.add(winner, "vp", vp, (f"マス{battle['square']}の戦闘に勝利", f"won the battle on square {battle['square']}"), "S-8")
    for f in fighters(battle):
        count_reveal(tx, f, ("戦闘", "battle"))
    losers = [f for f in fighters(battle) if winner and f != winner]
    subjugated = [f for f in losers if "subjugation" in tx.standing(f)]
    tx.drafts[at] = ("sugoroku.battle_ended", {
        "battle": battle["id"], "square": battle["square"], "winner": winner, "vp": vp, "terms": terms,
        "totals": totals, "subjugated": subjugated, "decided_by_gm": decided})
    names = " 対 ".join(f"{state.seat_name(f)} {t}" for f, t in totals.items())
    # a tie the GM ruled says so: 「セイバーの勝ち（セイバー 5 対 アーチャー 5）」 read as if 5 beat 5
    by_gm = {"ja": "GMの裁定で", "en": " by the GM's ruling"} if decided else {"ja": "", "en": ""}
    if winner:
        summary = {"ja": f"{by_gm['ja']}{state.seat_name(winner)}の勝ち（{names}）、戦果+{vp}",
                   "en": f"{state.seat_name(winner)} wins{by_gm['en']} ({names.replace(' 対 ', ' vs ')}), VP +{vp}"}
    elif win["tied"] and not decided:
        tied = [state.seat_name(f) for f in win["tied"]]
        summary = {"ja": f"同点（{'・'.join(tied)}）：GMが勝者を決めてください",
                   "en": f"Tie ({', '.join(tied)}): the GM decides the winner"}
    else:
        summary = {"ja": f"{by_gm['ja']}勝者なし（{names}）", "en": f"No winner{by_gm['en']} ({names.replace(' 対 ', ' vs ')})"}
    if decided:
        notes.append({"ja": "同点をGMが裁定", "en": "Tie decided by the GM", "rule": "S-7"})
    return {"summary": summary, "winners": [winner] if winner else [], "rows": rows, "notes": notes + win["notes"],
            "events": tx.drafts, "battle": battle["id"], "tied": win["tied"], "gm_decides": win["gm_decides"] and not decided,
            "vp": vp, "vp_terms": terms, "totals": totals}


def resolve_battle(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """The resolver `sugoroku_battle` (called by the core at the reveal and after a GM modifier)."""
    battle = (sg(state) or {}).get("battle")
    if not battle or battle["prompt"] != prompt.id:
        return {"summary": {"ja": "戦闘は終了しています", "en": "The battle is over"}, "winners": [], "rows": [],
                "notes": [], "events": []}
    # A fighter taken off the prompt has left the battle (S-11), also in the action that takes it off (not folded yet).
    battle = {**battle, "left": battle["left"] + [f for f in fighters(battle) if f not in prompt.seats]}
    return outcome(state, prompt, answers, battle)


def _answers(prompt: Prompt) -> dict:
    return {who: a.value for who, a in prompt.answers.items()}


def re_resolve(tx: CounterRun, battle: dict) -> None:
    """After a change to a revealed battle: a new prompt.resolved with the result as it now stands."""
    state = tx.state
    prompt = state.prompts[battle["prompt"]]
    if prompt.status != "revealed":
        return
    result = outcome(state, prompt, _answers(prompt), battle, tx.fork())
    result["events"] = [d for d in result["events"]]
    tx.emit("prompt.resolved", {"prompt": prompt.id, "resolution": {"resolver": "sugoroku_battle", **result}})


def current(state: State, seat: str | None = None) -> dict:
    """The battle in progress (and `seat` must fight in it)."""
    battle = started(state)["battle"]
    if not battle:
        raise Conflict("戦闘中ではありません", "No battle is in progress")
    if seat is not None and seat not in fighters(battle):
        raise Conflict("この戦闘に参加していません", "You are not fighting in this battle")
    return battle


# -- battle actions -------------------------------------------------------------------------------

def pending_battle(s: dict, payload: dict) -> dict:
    """S-7: the pending battle an action names (`square`), else the first; a clear error when there is none, or none
    on that square."""
    if not s["pending"]:
        raise Conflict("行う戦闘がありません", "There is no pending battle")
    if payload.get("square") in (None, ""):
        return s["pending"][0]
    square = parse_int(payload["square"], "マス", "square")
    pending = next((b for b in s["pending"] if b["square"] == square), None)
    if pending is None:
        raise GmError(f"マス{square}に戦闘はありません", f"No battle on square {square}")
    return pending


def start_battle(state: State, payload: dict, ctx) -> list:
    """S-6/S-7: start the next pending battle (or the one on `square`): one secret card prompt for every fighter."""
    s = started(state)
    require_no_battle(s, pending=False)
    pending = pending_battle(s, payload)
    fs = pending["fighters"]
    square_info = s["squares"].get(str(pending["square"]), {})
    vp = square_vp(payload["square_vp"]) if payload.get("square_vp") not in (None, "") else square_info.get("vp", 0)
    pid = f"sg-b{len(state.prompts) + 1}"
    drafts = [("sugoroku.battle_started", {"id": pid, "square": pending["square"], "parent": fs[0], "children": fs[1:],
                                           "fighters": fs, "prompt": pid, "terrain": square_info.get("terrain", {}),
                                           "square_vp": vp, "challenge": pending["challenge"]})]
    title = {"ja": f"戦闘（マス{pending['square']}）：親は伏せ札1枚・子は1〜3枚",
             "en": f"Battle (square {pending['square']}): the parent plays 1 card face down, children 1 to 3"}
    drafts += P.open_prompt(state, pid, {"title": title, "kind": KIND, "seats": fs, "resolver": "sugoroku_battle",
                                         "meta": {"battle": pid, "parent": fs[0]}}, ctx.resolvers, custom=True)
    return drafts


def skip_battle(state: State, payload: dict, ctx) -> list:
    """The GM leaves out a pending battle (e.g. the players agree there is none)."""
    s = started(state)
    pending = pending_battle(s, payload)
    return [("sugoroku.battle_skipped", {"square": pending["square"], "fighters": pending["fighters"],
                                         "reason": clean_text(payload.get("reason"), "理由", "reason", 200, False)})]


def battle_card(state: State, payload: dict, ctx) -> list:
    """S-7: a face-up card added to the battle: the parent's attack card (1 before, 1 after the reveal), any skill / 宝具."""
    seat = acting_seat(state, payload, ctx)
    battle = current(state, seat)
    prompt = state.prompts[battle["prompt"]]
    after = prompt.status == "revealed"
    card = card_text(payload.get("card"))
    kind = card_dict(card)["kind"]
    tx = CounterRun(state)
    if kind == "attack":
        if seat != battle["parent"]:
            raise GmError("子のアタックカードはカード提出（1〜3枚）で出します", "A child plays attack cards in its card submission")
        if any(a["seat"] == seat and a["after_reveal"] == after and card_dict(a["card"])["kind"] == "attack"
               for a in battle["added"]):
            raise Conflict("親が追加できるのは公開前・公開後それぞれ1枚です", "The parent adds one card before and one after the reveal")
    cost = parse_int(payload.get("cost") if payload.get("cost") not in (None, "") else 0, "消費魔力", "cost")
    tx.emit("sugoroku.battle_card", {"battle": battle["id"], "seat": seat, "card": card, "after_reveal": after,
                                     "cost": cost if kind != "attack" else 0})
    if kind != "attack":
        use_card(tx, seat, kind, cost, card, flag_field(payload, "true_name_release", ja="《真名開放》"))
    after_battle = copy.deepcopy(battle)
    after_battle["added"].append({"seat": seat, "card": card, "after_reveal": after})
    re_resolve(tx, after_battle)
    return tx.drafts


def battle_adjust(state: State, payload: dict, ctx) -> list:
    """GM: rule a revealed tie (`winner`: one of the tied or "none", S-7), add a VP effect (`vp_effect` + `label`), or set
    `square_vp`."""
    battle = current(state)
    changed = copy.deepcopy(battle)
    tx = CounterRun(state)
    if payload.get("winner") not in (None, ""):
        prompt = state.prompts[battle["prompt"]]
        tied = ((prompt.resolution or {}).get("tied") or []) if prompt.status == "revealed" else []
        if not tied:
            raise Conflict("裁定する同点はありません [S-7]", "There is no tie to rule (S-7)")
        winner = shown(payload["winner"])
        if winner != "none" and winner not in tied:  # the console's buttons: the tied by name, and 勝者なし
            ja, en = choices_text({**{t: (state.seat_name(t),) * 2 for t in tied}, "none": STRINGS["sugoroku.no_winner"]})
            raise GmError(f"勝者は同点の{ja}のどれかです", f"The winner must be one of the tied: {en}")
        changed["decision"] = "" if winner == "none" else winner
        tx.emit("sugoroku.battle_adjusted", {"battle": battle["id"], "decision": changed["decision"]})
    if payload.get("vp_effect") not in (None, ""):
        effect = {"label": clean_text(payload.get("label"), "効果の名前", "effect label", 40),
                  "value": parse_int(payload["vp_effect"], "戦果の効果", "VP effect"), "rule": "S-8"}
        changed["vp_effects"].append(effect)
        tx.emit("sugoroku.battle_adjusted", {"battle": battle["id"], "vp_effect": effect})
    if payload.get("square_vp") not in (None, ""):
        changed["square_vp"] = square_vp(payload["square_vp"])
        tx.emit("sugoroku.battle_adjusted", {"battle": battle["id"], "square_vp": changed["square_vp"]})
    if not tx.drafts:
        ja, en = choices_text(ADJUSTMENTS)
        raise GmError(f"{ja}のどれかを指定してください", f"Give one of: {en}")
    re_resolve(tx, changed)
    return tx.drafts


def end_battle(state: State, payload: dict, ctx) -> list:
    """S-7/S-8: apply the revealed battle's result (winner's VP, battle counts S-13, 討伐令 targets S-12)."""
    battle = current(state)
    prompt = state.prompts[battle["prompt"]]
    if prompt.status != "revealed":
        raise Conflict("全員のカードが公開されていません（GMは早期公開できます）",
                       "Not every card is revealed yet (the GM may reveal early)")
    tx = CounterRun(state)
    tx.drafts += P.confirm_only(state, prompt.id)  # the result is applied below, as the state stands now
    result = outcome(state, prompt, _answers(prompt), battle, tx)
    return result["events"]


def seal_in_battle(state: State, seat: str, effect: str, ctx) -> list:
    """S-11: 令呪 power +3 (+3 VP if won), or leave the battle moving (players on the square) × 1 without its event."""
    battle = current(state, seat)
    tx = CounterRun(state)
    left = tx.value(seat, "seals")
    changed = copy.deepcopy(battle)
    if effect == "power":
        result = R.use_seal("power", left)
        tx.emit("sugoroku.seal_used", {"seat": seat, "effect": effect, "label": result["label"], "seals": left - 1})
        tx.add(seat, "seals", -1, ("令呪：最終パワー+3", "seal: final power +3"), "S-11")
        tx.emit("sugoroku.battle_adjusted", {"battle": battle["id"], "seal": seat})
        changed["seals"][seat] = changed["seals"].get(seat, 0) + 1
        re_resolve(tx, changed)
        return tx.drafts
    here = fighters(battle)
    result = R.use_seal("escape", left, players_on_square=len(here))
    tx.emit("sugoroku.seal_used", {"seat": seat, "effect": effect, "label": result["label"], "seals": left - 1})
    tx.add(seat, "seals", -1, ("令呪：戦闘から離脱", "seal: escape the battle"), "S-11")
    tx.emit("sugoroku.battle_adjusted", {"battle": battle["id"], "left": seat})
    frm = tx.value(seat, "position")
    move_to(tx, seat, frm, frm + result["move"], result["terms"], result["move"], False, "S-11")
    changed["left"].append(seat)
    prompt = state.prompts[battle["prompt"]]
    unrevealed = prompt.status in ("open", "locked")
    if len(fighters(changed)) < 2:  # no battle: its prompt goes with it, also revealed (a confirm would apply it)
        tx.drafts += P.cancel_unconfirmed(state, prompt.id, {"ja": "令呪で離脱したため戦闘なし（S-11）",
                                                            "en": "no battle: escaped with a seal (S-11)"})
        tx.emit("sugoroku.battle_ended", {"battle": battle["id"], "square": battle["square"], "winner": None, "vp": 0,
                                          "terms": [], "totals": {}, "subjugated": [], "escaped": seat})
    elif unrevealed:  # it answers no more (a card it put down is never shown); the others' answers reveal the battle
        why = {"ja": "令呪で戦闘から離脱（S-11）", "en": "escaped the battle with a seal (S-11)"}
        tx.drafts += P.drop(state, prompt.id, seat, why, ctx.resolvers, ctx.dice)
    else:
        re_resolve(tx, changed)
    return tx.drafts


# -- skills, seals, karma, true names --------------------------------------------------------------

def use_skill(state: State, payload: dict, ctx) -> list:
    """S-5/S-15: a skill or 宝具 card: pay its 魔力 (宝具 needs 魔力 ≥ 7), at most 3 uses per round; S-13 counts it."""
    s = started(state)
    seat = acting_seat(state, payload, ctx)
    if s["round_ended"]:  # S-15: the uses were just reset for a round not yet started
        raise Conflict("ラウンドの合間はスキル・宝具を使えません（次のラウンドの開始後に） [S-15]",
                       "No skill or NP between rounds (once the next round has started) (S-15)")
    kind = text_field(payload, "kind", "skill", ja="種類")
    cost = parse_int(payload.get("cost") if payload.get("cost") not in (None, "") else 0, "消費魔力", "cost")
    tx = CounterRun(state)
    use_card(tx, seat, kind, cost, clean_text(payload.get("label"), "カード名", "card name", 40, False),
             flag_field(payload, "true_name_release", ja="《真名開放》"))
    return tx.drafts


def use_card(tx: CounterRun, seat: str, kind: str, cost: int, label: str = "", release: bool = False) -> None:
    """Pay a skill / 宝具 card (S-5, S-15) and count it toward the true name (S-13)."""
    result = R.use_skill(kind, cost, tx.value(seat, "mana"), tx.value(seat, "uses"))
    tx.emit("sugoroku.skill_used", {"seat": seat, "kind": kind, "cost": cost, "label": label, "uses": result["uses"],
                                    "true_name_release": release and kind == "np"})
    k = R.KIND_LABELS[kind]
    named = f"「{label}」" if label else ""
    tx.set(seat, "mana", result["mana"], (f"{k.ja}{named}の消費魔力", f"mana for the {k.en}{' ' + named if named else ''}"), "S-5")
    tx.set(seat, "uses", result["uses"], (f"{k.ja}の使用（ラウンド3回まで）", f"{k.en} used (3 per round)"), "S-15")
    if kind == "skill" or flow_reading(tx.state, "reveal_counts_np"):
        count_reveal(tx, seat, (f"{k.ja}の使用", f"{k.en} used"))
    if release and kind == "np":
        reveal(tx, seat, {"ja": "《真名開放》の宝具を使用", "en": "used a 《真名開放》 Noble Phantasm", "rule": "S-13"})


def use_seal(state: State, payload: dict, ctx) -> list:
    """S-11 令呪: mana (+3), power (+3 in this battle), escape (leave the battle), free_move (≤ 4 from before the roll)."""
    s = started(state)
    seat = acting_seat(state, payload, ctx)
    effect = text_field(payload, "effect", ja="令呪の効果")
    if effect == "extra_die":
        ja, en = STRINGS["sugoroku.seal_extra_die"]  # the phone's button beside the roll
        raise GmError(f"ダイス追加は振るときに「{ja}」で", f"Add a die when rolling: '{en}' (roll_move with seal=extra_die)")
    if effect in ("power", "escape"):
        return seal_in_battle(state, seat, effect, ctx)
    tx = CounterRun(state)
    left = tx.value(seat, "seals")
    if effect == "free_move":
        last = s["last_move"]
        if not just_rolled(state, seat):
            raise Conflict("出目を無視できるのは自分が振った直後だけです", "Only right after your own roll")
        if at_goal(state, seat):
            raise Conflict("ゴール済みです", "Already at the goal")
        squares = parse_int(payload.get("squares"), "移動マス数", "squares")
        result = R.use_seal("free_move", left, squares=squares)
    else:
        result = R.use_seal(effect, left, mana=tx.value(seat, "mana"))
    tx.emit("sugoroku.seal_used", {"seat": seat, "effect": effect, "label": result["label"], "seals": left - 1})
    tx.add(seat, "seals", -1, (f"令呪：{result['label']['ja']}", f"seal: {result['label']['en']}"), "S-11")
    if effect == "mana":
        tx.add(seat, "mana", 3, ("令呪：魔力+3", "seal: mana +3"), "S-11")
    else:
        base = last["base"]
        move_to(tx, seat, tx.value(seat, "position"), base + result["move"],
                [{"label": {"ja": "令呪：出目を無視", "en": "seal: roll ignored"}, "value": result["move"], "rule": "S-11"}],
                result["move"], False, "S-11", {"base": base})  # counted from the square before the roll
    return tx.drafts


def convert_karma(state: State, payload: dict, ctx) -> list:
    """S-12: the victor over a 討伐令 target removes up to 10 of its カルマ and gains that many VP (0 declines)."""
    s = started(state)
    seat = acting_seat(state, payload, ctx)
    target = text_field(payload, "target", ja="相手")
    if not any(k["victor"] == seat and k["target"] == target for k in s["karma_pending"]):
        raise Conflict("討伐令の相手に勝ったときだけです", "Only after defeating a subjugation target")
    amount = parse_int(payload.get("amount") if payload.get("amount") not in (None, "") else 0, "カルマ", "karma")
    tx = CounterRun(state)
    terms: list = []
    if amount:
        result = R.karma_conversion(state.counters[target]["karma"], amount)
        terms = result["terms"]
        tx.emit("sugoroku.karma_converted", {"seat": seat, "target": target, "amount": amount, "terms": terms})
        tx.set(target, "karma", result["karma"], (f"討伐令：{state.seat_name(seat)}が戦果に変換",
                                                   f"subjugation: converted to VP by {state.seat_name(seat)}"), "S-12")
        tx.add(seat, "vp", amount, (f"討伐令：{state.seat_name(target)}のカルマを変換",
                                    f"subjugation: {state.seat_name(target)}'s karma converted"), "S-12")
    else:
        tx.emit("sugoroku.karma_converted", {"seat": seat, "target": target, "amount": 0, "terms": []})
    return tx.drafts


def reveal_true_name(state: State, payload: dict, ctx) -> list:
    """S-13: the GM reveals a true name (a card effect, a special attack)."""
    started(state)
    seat = acting_seat(state, payload, ctx)  # a seat out of the war, or the climax over: 409 as for every seat's action
    if is_revealed(state, seat):
        raise Conflict("真名は既に判明しています", "The true name is already revealed")
    tx = CounterRun(state)
    why = clean_text(payload.get("reason"), "理由", "reason", 100, False) or ""  # none: the log says the GM's ruling
    reveal(tx, seat, {"ja": why, "en": why, "rule": "S-13"})
    return tx.drafts

