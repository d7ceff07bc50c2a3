"""Sugoroku Holy Grail War (双六聖杯戦争, RULES.md S-1..S-15): pure rule functions over plain data.

Conventions: a breakdown term is ``{"label": {"ja", "en"} | str, "value": int, "rule": "S-n"}``;
a note (a Reading or a reminder) is ``{"ja", "en", "rule"}``. Functions that apply a Reading take
``readings: dict | None`` (keys and defaults in ``READINGS``; unknown keys/values raise GmError).
Players are any hashable ids (seat ids). No I/O; dice are injected (``randint(sides)``).
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

from gmtool.core.errors import GmError, choices_text, shown
from gmtool.core.logtext import minus_sign
from gmtool.core.model import Label
from gmtool.core.turns import roll_order, rotate

ROUNDS = ("round1", "round2", "climax")  # S-1
ROUND_LABELS = {"round1": Label("ラウンド1", "Round 1"), "round2": Label("ラウンド2", "Round 2"),
                "climax": Label("クライマックス", "Climax")}
DEFAULT_BOARD_LENGTH, SKIP_TO_CLIMAX_MAX_PLAYERS, SKIP_TO_CLIMAX_MANA = 20, 4, 5  # S-1
MIN_BOARD, MAX_BOARD = 5, 60  # S-1: the squares a board may have
MANA_MIN, MANA_MAX, NP_MIN_MANA, SKILL_USES_PER_ROUND = 0, 14, 7, 3  # S-5, S-15
ACTION_PHASES_PER_ROUND, GOAL_COUNT_TO_END = 8, {"round1": 6, "round2": 4, "climax": 2}  # S-2
GOAL_VP, GOAL_VP_LATER, ELIMINATION_GAP = (14, 11, 9, 7), 3, 10  # S-9, S-10
ATTRIBUTES, CARD_KINDS, CHALLENGE_COST, FIELD_CARD_LIMIT = ("力", "魔", "技"), ("attack", "skill", "np"), 1, 3  # S-6/7
CARD_KIND_WORDS = {"attack": ("アタック", "Attack"), "skill": ("スキル", "Skill"), "np": ("宝具", "NP")}  # as a refusal names them
KIND_LABELS = {"attack": Label("アタック", "attack"), "skill": Label("スキル", "skill"), "np": Label("宝具", "NP")}
ATTRIBUTE_WORDS = {"力": "Power", "魔": "Magic", "技": "Technique"}  # how an English reader reads 力 / 魔 / 技
ATTRIBUTE_TYPED = r"power|magic|technique|[力魔技pmt]"  # an attribute as typed (a pattern, case aside): 力, Power, p
CARD_WORDS = {"スキル": "Skill", "宝具": "NP"}
SEALS_PER_PLAYER, SEAL_POWER_BONUS, SEAL_WIN_VP, SEAL_CLIMAX_VP, SEAL_FREE_MOVE_MAX = 3, 3, 3, 6, 4  # S-11
SEAL_EFFECTS: dict[str, Label] = {
    "mana": Label("魔力を3点アップ", "Mana +3"),
    "power": Label("最終パワー+3（勝てば戦果+3）", "Final battle power +3 (+3 VP if won)"),
    "escape": Label("戦闘から離脱し（マスの人数）×1マス先へ（イベントなし）",
                    "Leave the battle, move (players on the square) × 1 ahead, no event"),
    "free_move": Label("出目を無視して前方4マス以内へ移動", "Ignore the roll, move up to 4 ahead"),
    "extra_die": Label("振る前にサイコロを1つ足し合計で移動", "Before rolling, add a die and move the total"),
}
SUBJUGATION_AT, KARMA_CONVERSION_MAX, REVEAL_AT = 9, 10, 5  # S-12, S-13
# Sanity bounds of the counters (the GM raises one seat's with a reason): カルマ 30 (討伐令 at 9, a defeat
# takes up to 10), 戦果 999 (a whole game: goals 14 per round, battles, seals 6 each: far below), skill uses +
# battles 99 (the true name is revealed at 5; the count goes on).
KARMA_MAX, VP_MAX, REVEAL_COUNT_MAX = 30, 999, 99
MASTER_CP, SERVANT_BASE_CP, TRAIT_BONUS_MAX = 9, 30, 6  # S-14
STRONG_TRAITS = ("神性", "竜", "鬼", "妖精", "怪物")

# Each reading: its default, its rule, its label and its choices in words (value, ja, en). The ruleset's
# declaration (__init__.READINGS) is made from this table, so the words are written once.
READINGS: dict[str, dict[str, Any]] = {
    "battle_tie": {"default": "gm", "rule": "S-7", "label": ("戦闘の最高値が同点", "Tied highest battle power"),
                   "words": (("gm", "勝者なし・GMが裁定", "No winner; the GM decides"),
                             ("parent", "同点に親がいれば親の勝ち", "The parent wins if among the tied"))},
    "elimination_tie": {"default": "none", "rule": "S-10", "label": ("最下位が同点", "Tied last place"),
                        "words": (("none", "差0で脱落なし", "A gap of 0: nobody is out"),
                                  ("all", "次点と10以上差なら全員脱落", "All are out if 10 or more behind the next"),
                                  ("gm", "GMが決める", "The GM decides"))},
    "terrain_applies_to": {"default": "attack", "rule": "S-7", "label": ("地の利の対象", "What terrain modifies"),
                           "words": (("attack", "アタックカードのみ", "Attack cards only"),
                                     ("all", "属性を持つ全カード", "Every card with an attribute"))},
    "card_power_floor": {"default": 0, "rule": "S-7", "label": ("弱化されたカードのパワー", "A weakened card's power"),
                         "words": ((0, "0未満にならない", "Never below 0"), (None, "下限なし", "No floor"))},
    "strong_traits_count": {"default": True, "rule": "S-14",
                            "label": ("強特性と特性数（3個につき2点）", "Strong traits and the trait count"),
                            "words": ((True, "強特性も特性数に数える", "Strong traits count"),
                                      (False, "強特性は数えない", "Strong traits do not count"))},
    "round_end_all_at_goal": {"default": True, "rule": "S-2",
                              "label": ("全員ゴールでのラウンド終了", "Round end when everyone is at the goal"),
                              "words": ((True, "規定人数に満たなくても全員ゴールで終了",
                                         "Ends when everyone is at the goal, below the goal count too"),
                                        (False, "規定人数がゴールするまで続ける", "Goes on until the goal count is reached"))},
}
for _spec in READINGS.values():
    _spec["choices"] = tuple(value for value, _ja, _en in _spec["words"])


def reading(readings: Mapping[str, Any] | None, key: str) -> Any:
    """The value of Reading `key` (RULES.md **Reading:**), validated against its choices."""
    spec = READINGS[key]
    value = (readings or {}).get(key, spec["default"])
    if value not in spec["choices"] or isinstance(value, bool) != isinstance(spec["default"], bool):
        (label_ja, label_en) = spec["label"]  # only a log written outside core's readings route holds one (never echoed)
        raise GmError(f"解釈「{label_ja}」の設定が正しくありません。GMが「解釈（ハウスルール）」の欄で選び直してください",
                      f"The reading '{label_en}' holds a value gmtool does not know: the GM chooses it again under "
                      "'Readings (house rules)'")
    return value


def _reading_note(key: str, value: Any) -> dict:
    """A result's note naming the reading applied and its choice, in words."""
    spec = READINGS[key]
    ja, en = next(((j, e) for v, j, e in spec["words"] if v == value and type(v) is type(value)), (str(value), str(value)))
    return {"ja": f"解釈（{spec['label'][0]}）：{ja}", "en": f"Reading ({spec['label'][1]}): {en}", "rule": spec["rule"]}


def _term(ja: str, en: str, value: int, rule: str, **extra: Any) -> dict:
    return {"label": {"ja": ja, "en": en}, "value": value, "rule": rule, **extra}


def _note(ja: str, en: str, rule: str) -> dict:
    return {"ja": ja, "en": en, "rule": rule}


def _int(value: Any, ja: str, en: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise GmError(f"{ja}は整数です（{shown(value)}）", f"{en} must be an integer ({shown(value)})")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        if hi is None:
            raise GmError(f"{ja}は{lo}以上です（{value}）", f"{en} must be at least {lo} ({value})")
        if lo is None:
            raise GmError(f"{ja}は{hi}以下です（{value}）", f"{en} must be at most {hi} ({value})")
        raise GmError(f"{ja}は{lo}〜{hi}です（{value}）", f"{en} must be in {lo}..{hi} ({value})")
    return value


def _extra_terms(items: Iterable[Any], rule: str) -> list[dict]:
    """GM / card-effect modifiers: ints or {"label", "value"[, "rule"]} dicts."""
    return [{"label": m.get("label", ""), "value": _int(m.get("value"), "修正値", "Modifier"), "rule": m.get("rule", rule)}
            if isinstance(m, Mapping) else _term("効果", "effect", _int(m, "修正値", "Modifier"), rule) for m in items or ()]


def _round(name: str) -> str:
    if name not in ROUNDS:
        raise GmError(f"ラウンド名「{name}」は不明です", f"Unknown round '{name}' ({', '.join(ROUNDS)})")
    return name


def skip_to_climax_allowed(n_players: int) -> dict:
    """S-1: with 4 players or fewer the group may skip to the climax, starting 魔力 +5."""
    n = _int(n_players, "人数", "Number of players", 1)
    ok = n <= SKIP_TO_CLIMAX_MAX_PLAYERS
    return {"ok": ok, "mana_bonus": SKIP_TO_CLIMAX_MANA if ok else 0,
            "terms": [_term("初期魔力", "starting mana", SKIP_TO_CLIMAX_MANA, "S-1")] if ok else [],
            "reason": _note(f"{n}人：{'クライマックスから開始可（初期魔力+5）' if ok else '4人以下のみ'}",
                            f"{n} players: {'may start at the climax (mana +5)' if ok else 'only 4 or fewer'}", "S-1")}


def initial_order(players: Iterable[Any], dice: Any = None) -> dict:
    """S-3 順番決定: the table's order as given, or with dice each rolls 1d6, high first, ties re-roll."""
    players = list(players)
    if len(set(players)) != len(players):
        raise GmError("プレイヤーが重複しています", "A player is listed twice")
    if dice is None:
        return {"order": players, "rolls": {}, "notes": [_note("順番は卓で決める", "The table decides the order", "S-3")]}
    rolled = roll_order(players, dice)
    return {**rolled, "notes": [_note("1d6の大きい順、同値は振り直し", "Higher 1d6 first; ties re-roll among the tied", "S-3")]}


def turn_order_after_phase(order: Iterable[Any]) -> list:
    """S-3: after an action phase the first mover moves last, the second first (rotate left by one)."""
    return rotate(list(order))


def clamp_mana(value: int) -> dict:
    """S-5: 魔力 is kept within 0..14; what goes beyond is lost."""
    v = _int(value, "魔力", "Mana")
    clamped = min(MANA_MAX, max(MANA_MIN, v))
    notes = [_note(f"魔力は最大14（{v - MANA_MAX}点失う）", f"Mana is at most 14 ({v - MANA_MAX} lost)", "S-5")] \
        if v > MANA_MAX else [_note("魔力は最低0", "Mana is at least 0", "S-5")] if v < MANA_MIN else []
    return {"value": clamped, "lost": v - clamped, "notes": notes}


def can_use_np(mana: int, cost: int = 0) -> dict:
    """S-5: a 宝具 card needs 魔力 ≥ 7 whatever its cost (and its cost must be payable)."""
    m, c = _int(mana, "魔力", "Mana", 0), _int(cost, "消費魔力", "Cost", 0)
    if m < NP_MIN_MANA:
        return {"ok": False, "reason": _note(f"宝具は魔力7以上が必要（現在{m}）", f"An NP needs mana ≥ 7 (now {m})", "S-5")}
    if c > m:
        return {"ok": False, "reason": _note(f"魔力が足りない（{m} < {c}）", f"Not enough mana ({m} < {c})", "S-5")}
    return {"ok": True, "reason": _note(f"宝具を使える（魔力{m}）", f"Noble Phantasm usable (mana {m})", "S-5")}


def use_skill(kind: str, cost: int, mana: int, uses: int) -> dict:
    """S-5/S-15: pay a skill/宝具 card's 魔力 cost; at most 3 skill+宝具 uses per round (GmError)."""
    if kind not in ("skill", "np"):
        raise GmError("種類はスキルか宝具です", "Kind must be 'skill' or 'np'")
    u, c, m = _int(uses, "使用回数", "Uses", 0), _int(cost, "消費魔力", "Cost", 0), _int(mana, "魔力", "Mana", 0)
    if u >= SKILL_USES_PER_ROUND:
        raise GmError("スキル・宝具はこのラウンドで既に3回使用済み", "Skills/NPs already used 3 times this round")
    check = can_use_np(m, c) if kind == "np" else {"ok": c <= m, "reason": _note(
        f"魔力が足りない（{m} < {c}）", f"Not enough mana ({m} < {c})", "S-5")}
    if not check["ok"]:
        raise GmError(check["reason"]["ja"], check["reason"]["en"])
    k = KIND_LABELS[kind]
    return {"mana": m - c, "uses": u + 1, "uses_left": SKILL_USES_PER_ROUND - u - 1,
            "terms": [_term(f"{k.ja}の消費魔力", f"{k.en} cost", -c, "S-5")]}


def supply_move(roll: int, mana: int | None = None) -> dict:
    """S-4 魔力供給: halve the roll (round up) to gain 1 魔力 (and may discard 1 card)."""
    r = _int(roll, "出目", "Roll", 1)
    move = math.ceil(r / 2)
    out = {"move": move, "mana_gain": 1,
           "terms": [_term("出目", "roll", r, "S-4"), _term("半分（切り上げ）", "halved (rounded up)", move - r, "S-4")],
           "notes": [_note("魔力+1、手札を1枚廃棄してもよい", "Mana +1; may discard 1 card", "S-4")], "mana": None}
    if mana is not None:
        c = clamp_mana(_int(mana, "魔力", "Mana") + 1)
        out["mana"], out["notes"] = c["value"], out["notes"] + c["notes"]
    return out


def round_over(round_name: str, action_phase: int, goal_count: int, n_players: int | None = None,
               readings: Mapping[str, Any] | None = None) -> dict:
    """S-2: a round ends after the 8th action phase, or once 6/4/2 players (round1/round2/climax) are at goal."""
    need = GOAL_COUNT_TO_END[_round(round_name)]
    phase = _int(action_phase, "終了した行動フェイズ数", "Completed action phases", 0)
    goals = _int(goal_count, "ゴール人数", "Players at goal", 0)
    label = ROUND_LABELS[round_name]
    reason = None
    if goals >= need:
        reason = _note(f"{label.ja}：{need}人がゴール（その時点で終了）", f"{label.en}: {need} at the goal (ends at once)", "S-2")
    elif phase >= ACTION_PHASES_PER_ROUND:
        reason = _note(f"{label.ja}：行動フェイズ8回目終了", f"{label.en}: 8th action phase over", "S-2")
    elif n_players is not None and goals >= _int(n_players, "人数", "Players", 1) \
            and reading(readings, "round_end_all_at_goal"):
        # said as the other ends are (the round, then what happened), naming the reading that made it an end
        ja_name, en_name = READINGS["round_end_all_at_goal"]["label"]
        reason = _note(f"{label.ja}：全員がゴール（解釈「{ja_name}」による）",
                       f"{label.en}: everyone is at the goal (reading '{en_name}')", "S-2")
    return {"over": reason is not None, "reason": reason, "goal_needed": need,
            "phases_left": max(0, ACTION_PHASES_PER_ROUND - phase)}


def ended_by_gm(round_name: str) -> dict:
    """S-2: why a round the GM ended before its end condition is over (ラウンド1：GMが終了)."""
    label = ROUND_LABELS[round_name]
    return _note(f"{label.ja}：GMが終了", f"{label.en}: ended by the GM", "S-2")


def places(vps: Sequence[int]) -> list[int]:
    """S-1: each place of VP listed from the most; a tie shares it, the next skips (48, 0, 0, -3 → 1, 2, 2, 4)."""
    return [1 + sum(1 for w in vps if w > v) for v in vps]


def winners(standings: Sequence[Mapping[str, Any]]) -> list:
    """S-1: the seats with the most VP at the end ({seat, vp} rows); a tie for the most is a shared victory."""
    best = max((r["vp"] for r in standings), default=None)
    return [r["seat"] for r in standings if r["vp"] == best]


def goal_vp(arrival_place: int) -> dict:
    """S-9: VP by arrival order at the goal (1-based): 14 / 11 / 9 / 7, 5th and later 3."""
    n = _int(arrival_place, "ゴール順位", "Arrival place", 1)
    vp = GOAL_VP[n - 1] if n <= len(GOAL_VP) else GOAL_VP_LATER
    return {"value": vp, "terms": [_term(f"ゴール{n}位", f"goal, place {n}", vp, "S-9")]}


def goal_mana_recovery(turns_until_round_end: int, mana: int | None = None) -> dict:
    """S-9: a player at the goal recovers 魔力 = turns passed until the round ended × 1."""
    t = _int(turns_until_round_end, "経過ターン数", "Turns passed", 0)
    out = {"value": t, "mana": None, "terms": [_term("経過ターン数×1", "turns passed × 1", t, "S-9")], "notes": []}
    if mana is not None:
        c = clamp_mana(_int(mana, "魔力", "Mana") + t)
        out["mana"], out["notes"] = c["value"], c["notes"]
    return out


def last_one_left(name: str) -> dict:
    """S-1/S-10 (gmtool's reading, RULES is silent): the game is over once one player alone is left in the war; why."""
    return _note(f"残ったのは{name}だけ（ほかは全員脱落）", f"{name} is the last player left in the war", "S-10")


def eliminated_after_round(vp_by_player: Mapping[Any, int], round_name: str = "round1",
                           readings: Mapping[str, Any] | None = None, gap: int = ELIMINATION_GAP) -> dict:
    """S-10: after round 1/2 the last-placed player is out if trailing the next player by ≥ 10 VP."""
    vps = {p: _int(v, "戦果", "VP") for p, v in vp_by_player.items()}
    out: dict[str, Any] = {"out": [], "last": [], "next": [], "gap": None, "candidates": [], "terms": [], "notes": []}
    if _round(round_name) == "climax":
        out["notes"].append(_note("クライマックス後は脱落判定なし", "No elimination after the climax", "S-10"))
        return out
    if len(vps) < 2:
        return out
    low = min(vps.values())
    last = [p for p, v in vps.items() if v == low]
    above = sorted(v for v in vps.values() if v > low)
    out["last"] = last
    if len(last) > 1:
        mode = reading(readings, "elimination_tie")
        out["notes"].append(_reading_note("elimination_tie", mode))
        if mode == "none" or not above:
            out["gap"] = 0
            return out
    nxt = above[0]
    out["next"] = [p for p, v in vps.items() if v == nxt]
    out["gap"] = nxt - low
    out["terms"] = [_term("次点の戦果", "next player's VP", nxt, "S-10"), _term("最下位の戦果", "last place's VP", -low, "S-10")]
    if nxt - low >= gap:
        if len(last) > 1 and reading(readings, "elimination_tie") == "gm":
            out["candidates"] = last
        else:
            out["out"] = last
    out["notes"].append(_note(f"差{nxt - low}（{gap}以上で脱落）", f"Gap {nxt - low} (out at {gap} or more)", "S-10"))
    return out


def can_challenge(positions: Mapping[Any, int], me: Any, mana: int | None = None, reach: int = 1,
                  cost: int = CHALLENGE_COST) -> dict:
    """S-6 挑戦: nobody else on my square but someone within ±1 (reach) → challenge them for 1 魔力."""
    if me not in positions:
        raise GmError("自分の位置がありません", "My position is unknown")
    here = _int(positions[me], "位置", "Position")
    r = _int(reach, "範囲", "Reach", 1)
    c = _int(cost, "消費魔力", "Cost", 0)
    others = {p: _int(v, "位置", "Position") for p, v in positions.items() if p != me}
    targets = [p for p, v in others.items() if 0 < abs(v - here) <= r]
    if any(v == here for v in others.values()):
        reason = _note("同じマスに他陣営がいる（戦闘になる）", "Another faction is on my square (a battle happens)", "S-6")
    elif not targets:
        reason = _note(f"前後{r}マス以内に他陣営がいない", f"No other faction within ±{r} squares", "S-6")
    elif mana is not None and _int(mana, "魔力", "Mana") < c:
        reason = _note(f"魔力が足りない（{c}点必要）", f"Not enough mana ({c} needed)", "S-6")
    else:
        return {"ok": True, "targets": targets, "cost": c, "reason": _note(
            f"魔力{c}で挑戦できる：挑戦者は子、親のマスのイベントを適用",
            f"May challenge for {c} mana: the challenger is the child; the parent's square applies", "S-6")}
    return {"ok": False, "targets": [], "cost": c, "reason": reason}


def battle_parent_and_children(arrivals: Iterable[Any]) -> dict:
    """S-7: the first arrival is the parent (親), later arrivals children (子); a challenge: [target, challenger]."""
    order = list(arrivals)
    if len(order) < 2 or len(set(order)) != len(order):
        raise GmError("戦闘には異なる2人以上が必要です", "A battle needs two or more different players")
    return {"parent": order[0], "children": order[1:], "notes": [_note(
        "親：1枚伏せ（+表1枚可）→ 子：1〜3枚表 → 親：公開し1枚追加可。マスのイベントは起きない",
        "Parent: 1 face down (+1 face up) → children: 1–3 face up → parent reveals, may add 1. "
        "The square's event does not happen", "S-7")]}


def card_words(text: str, lang: str) -> str:
    """S-7: a card as stored (力7, スキル魔3, 宝具8, 力7+1) as read: so in Japanese, Power 7, Skill Magic 3, NP 8 in English."""
    text, words = str(text), []
    rest = text
    kind = next((k for k in CARD_WORDS if rest.startswith(k)), "")
    if kind:
        words.append(CARD_WORDS[kind])
        rest = rest[len(kind):]
    if rest[:1] in ATTRIBUTE_WORDS:
        words.append(ATTRIBUTE_WORDS[rest[0]])
        rest = rest[1:]
    if lang != "en" or not rest[:1].isdigit() or not all(c.isdigit() or c in "+-−" for c in rest):
        return text  # Japanese, or not a card's text: as it is
    return " ".join(words + [rest])


def card_label(label: str, lang: str) -> str:
    """S-7: a card's term label (attack (力7)) with its card in the reader's language (attack (Power 7))."""
    if lang == "en" and label.endswith(")") and "(" in label:
        head, inner = label[:-1].rsplit("(", 1)
        return f"{head}({card_words(inner, lang)})"
    return label


def attribute_words(terrain: Mapping[str, int], lang: str) -> str:
    """S-7: terrain (地の利) as read: 力+1、魔−1 in Japanese, Power +1, Magic −1 in English (the minus sign, U+2212)."""
    if lang == "en":
        return ", ".join(f"{ATTRIBUTE_WORDS.get(a, a)} {minus_sign(v, True)}" for a, v in terrain.items())
    return "、".join(f"{a}{minus_sign(v, True)}" for a, v in terrain.items())


def typed_attribute(text: str) -> str:
    """S-7: an attribute as typed (力, Power or p on an English keyboard) as stored and committed (力 / 魔 / 技)."""
    return {"p": "力", "m": "魔", "t": "技"}.get(text[:1].lower(), text)


def _card(card: Mapping[str, Any]) -> dict:
    kind = card.get("kind", "attack")
    if kind not in CARD_KINDS:
        ja, en = choices_text(CARD_KIND_WORDS)
        raise GmError(f"カードの種類は{ja}のどれかです（「{shown(kind)}」）", f"The card kind must be one of: {en} (got '{shown(kind)}')")
    attr = card.get("attribute")
    if attr not in ATTRIBUTES and not (kind != "attack" and attr is None):
        raise GmError(f"属性は力・魔・技です（{shown(attr)}）", f"Attribute must be 力, 魔 or 技 ({shown(attr)})")
    if card.get("face", "up") not in ("up", "down"):
        raise GmError("カードの向きは表向きか裏向きです", "Card face must be face up [up] or face down [down]")
    return {"kind": kind, "attribute": attr, "face": card.get("face", "up"), "name": card.get("name"),
            "power": _int(card.get("power"), "パワー", "Power", 0, 9 if kind == "attack" else None)}


def battle_total(cards: Iterable[Mapping[str, Any]], terrain: Mapping[str, int] | None = None,
                 seal_bonus: int = 0, modifiers: Iterable[Any] = (), reveal: bool = True,
                 readings: Mapping[str, Any] | None = None) -> dict:
    """S-7: total power = each card's power ± terrain (地の利) + 令呪 +3 each (S-11) + modifiers."""
    terrain = {a: _int(v, "地の利", "Terrain") for a, v in (terrain or {}).items()}
    if set(terrain) - set(ATTRIBUTES):
        raise GmError("地の利の属性は力・魔・技です", "Terrain attributes are 力, 魔 and 技")
    applies, floor = reading(readings, "terrain_applies_to"), reading(readings, "card_power_floor")
    terms, notes, hidden = [], [], 0
    cards = [_card(c) for c in cards]
    for c in cards:
        if c["face"] == "down" and not reveal:
            hidden += 1
            continue
        mod = terrain.get(c["attribute"], 0) if (c["kind"] == "attack" or applies == "all") else 0
        value = c["power"] + mod if floor is None else max(floor, c["power"] + mod)
        k, shown = KIND_LABELS[c["kind"]], f"{c['attribute'] or ''}{c['power']}{minus_sign(mod, True) if mod else ''}"
        terms.append(_term(f"{c['name'] or k.ja}（{shown}）", f"{c['name'] or k.en} ({shown})", value, "S-7",
                           power=c["power"], terrain=mod, face=c["face"]))
    n = _int(int(seal_bonus) if isinstance(seal_bonus, bool) else seal_bonus, "令呪", "Seals", 0)
    if n:
        terms.append(_term(f"令呪（パワー+3）×{n}", f"Command Seal (power +3) × {n}", SEAL_POWER_BONUS * n, "S-11"))
    terms += _extra_terms(modifiers, "GM")
    if terrain:
        notes.append(_reading_note("terrain_applies_to", applies))
        if floor is not None:
            notes.append(_reading_note("card_power_floor", floor))
    if hidden:
        notes.append(_note(f"伏せ札{hidden}枚は未公開", f"{hidden} face-down card(s) not yet revealed", "S-7"))
    if len(cards) > FIELD_CARD_LIMIT:
        notes.append(_note("場のカードは通常3枚まで（【限界突破】【上限無視】のみ超過可）",
                           "Normally at most 3 cards in play (more only with 限界突破 / 上限無視)", "S-7"))
    return {"total": sum(t["value"] for t in terms), "terms": terms, "notes": notes, "hidden": hidden}


def battle_winner(totals: Mapping[Any, int], parent: Any = None, readings: Mapping[str, Any] | None = None) -> dict:
    """S-7: the highest total wins (also with 3+ fighters); tied highest → per Reading battle_tie."""
    t = {p: _int(v, "パワー", "Power") for p, v in totals.items()}
    if len(t) < 2:
        raise GmError("戦闘には2人以上が必要です", "A battle needs two or more fighters")
    best = max(t.values())
    top = [p for p, v in t.items() if v == best]
    ranking = sorted(t, key=lambda p: -t[p])
    if len(top) == 1:
        return {"winner": top[0], "tied": [], "ranking": ranking, "gm_decides": False, "notes": []}
    mode = reading(readings, "battle_tie")
    winner = parent if mode == "parent" and parent in top else None
    return {"winner": winner, "tied": top, "ranking": ranking, "gm_decides": winner is None,
            "notes": [_reading_note("battle_tie", mode)]}


def cards_played_by_others(cards_by_player: Mapping[Any, Any], winner: Any) -> int:
    """S-8: how many cards the winner's opponents played (lists or counts per player)."""
    return sum(v if isinstance(v, int) else len(v) for p, v in cards_by_player.items() if p != winner)


def battle_vp(square_vp: int, cards_played_by_others: int, effects: Iterable[Any] = (),
              seal_used_and_won: int | bool = False) -> dict:
    """S-8: a win gives the square's VP + 1 per card the others played + effects (+3 with a 令呪 power seal)."""
    terms = [_term("マスの勝利時戦果", "square's battle VP", _int(square_vp, "マスの戦果", "Square VP", 0), "S-8"),
             _term("相手が出したカード枚数", "cards the others played",
                   _int(cards_played_by_others, "カード枚数", "Cards played", 0), "S-8")]
    terms += _extra_terms(effects, "S-8")
    n = seal_used_and_won
    n = _int(int(n) if isinstance(n, bool) else n, "令呪", "Seals", 0)
    if n:
        terms.append(_term("令呪（パワー+3）で勝利", "won with a Command Seal (power +3)", SEAL_WIN_VP * n, "S-11"))
    return {"value": sum(t["value"] for t in terms), "terms": terms}


def use_seal(effect: str, seals_left: int, *, mana: int | None = None, squares: int | None = None,
             players_on_square: int | None = None, roll: int | None = None, dice: Any = None) -> dict:
    """S-11: spend one 令呪 on `effect` (a SEAL_EFFECTS key); returns its outcome."""
    if effect not in SEAL_EFFECTS:
        raise GmError(f"令呪の効果「{effect}」は不明です", f"Unknown Command Seal effect '{effect}'")
    if _int(seals_left, "残り令呪", "Seals left", 0) < 1:
        raise GmError("令呪が残っていません", "No Command Seals left")
    out: dict[str, Any] = {"effect": effect, "label": SEAL_EFFECTS[effect].to_dict(), "seals": seals_left - 1,
                           "terms": [], "notes": []}
    if effect == "mana":
        if mana is None:
            raise GmError("現在の魔力が必要です", "Current mana is needed")
        c = clamp_mana(_int(mana, "魔力", "Mana") + 3)
        out.update(mana=c["value"], notes=c["notes"], terms=[_term("令呪", "Command Seal", 3, "S-11")])
    elif effect == "power":
        out.update(power_bonus=SEAL_POWER_BONUS, vp_if_won=SEAL_WIN_VP)
    elif effect == "escape":
        n = _int(players_on_square, "マスの人数", "Players on the square", 2)
        out.update(move=n, event=False, terms=[_term("マスの人数×1", "players on the square × 1", n, "S-11")])
    elif effect == "free_move":
        out.update(move=_int(squares, "移動マス数", "Squares", 1, SEAL_FREE_MOVE_MAX), event=True)
    else:
        if dice is None:
            raise GmError("ダイスが必要です", "Dice are needed")
        d = [_int(roll, "出目", "Roll", 1, 6) if roll is not None else dice.randint(6), dice.randint(6)]
        out.update(move=sum(d), dice=d, terms=[_term("出目", "roll", d[0], "S-3"),
                                               _term("令呪の追加ダイス", "seal's extra die", d[1], "S-11")])
    return out


def climax_seal_vp(unused: int) -> dict:
    """S-11: at the goal in the climax each unused 令呪 gives +6 VP."""
    n = _int(unused, "残り令呪", "Unused seals", 0)
    return {"value": SEAL_CLIMAX_VP * n,
            "terms": [_term(f"令呪温存ボーナス 6×{n}", f"unused seals 6 × {n}", SEAL_CLIMAX_VP * n, "S-11")]}


def subjugation(karma: int) -> bool:
    """S-12: カルマ ≥ 9 → a subjugation order (討伐令) against that faction; below 9 it is lifted."""
    return _int(karma, "カルマ", "Karma") >= SUBJUGATION_AT


def karma_conversion_max(target_karma: int) -> int:
    """S-12: the most カルマ a victor may convert now: min(10, karma), or 0 (decline only) once its 討伐令 is lifted."""
    k = _int(target_karma, "カルマ", "Karma", 0)
    return min(KARMA_CONVERSION_MAX, k) if subjugation(k) else 0


def karma_conversion(target_karma: int, amount: int) -> dict:
    """S-12: defeating a 討伐令 target, reduce its カルマ by 1..10 (≤ its karma) and gain that many VP."""
    k = _int(target_karma, "カルマ", "Karma", 0)
    if not karma_conversion_max(k):
        raise GmError(f"相手に討伐令が出ていない（カルマ{k}）", f"The target has no subjugation order (karma {k})")
    a = _int(amount, "減らすカルマ", "Karma to remove", 1, karma_conversion_max(k))
    return {"karma": k - a, "vp": a, "subjugation": subjugation(k - a),
            "terms": [_term("討伐令：減らしたカルマ", "subjugation: karma removed", a, "S-12")]}


def reveal_by_count(skill_uses_plus_battles: int) -> bool:
    """S-13: the true name is revealed once skill uses + battles reach 5."""
    return _int(skill_uses_plus_battles, "スキル使用＋戦闘回数", "Skill uses + battles", 0) >= REVEAL_AT


def true_name_vote(votes: Mapping[Any, Any], standings: Mapping[Any, int] | Iterable[Any]) -> dict:
    """S-13 真名看破投票: each player votes for another faction; most votes revealed, a tie → last place decides."""
    ranked = isinstance(standings, Mapping)
    players = list(standings)
    low = min((_int(v, "戦果", "VP") for v in standings.values()), default=0) if ranked else None
    last = [p for p in players if standings[p] == low] if ranked else players[-1:]
    counts = {p: 0 for p in players}
    for voter, target in votes.items():
        if voter not in counts or target not in counts:
            raise GmError("投票者・投票先はプレイヤーです", "Voters and targets must be players")
        if voter == target:
            raise GmError("自分には投票できません", "You cannot vote for yourself")
        counts[target] += 1
    best = max(counts.values(), default=0)
    top = [p for p, n in counts.items() if n == best] if best else []
    out = {"revealed": top[0] if len(top) == 1 else None, "counts": counts, "tied": top if len(top) > 1 else [],
           "needs_tiebreak": len(top) > 1, "decider": None, "deciders": [], "notes": []}
    if len(top) > 1:
        out["deciders"] = last
        out["decider"] = last[0] if len(last) == 1 else None
        out["notes"].append(_note("同数：最下位のプレイヤーが同数の中から選ぶ", "Tie: the last-placed player picks among the tied",
                                  "S-13"))
        if len(last) > 1:
            out["notes"].append(_note("最下位が同点：GMが同数の中から選ぶ", "Last place is tied: the GM picks among the tied", "S-13"))
    return out


def true_name_tiebreak(vote_result: Mapping[str, Any], pick: Any, by: Any = None) -> dict:
    """S-13: apply the pick among the tied of a true-name vote by last place (`by`), or the GM's (None); a note says who."""
    tied = list(vote_result.get("tied") or [])
    if not tied:
        raise GmError("同数ではないので決定は不要です", "The vote is not tied; no tie-break needed")
    if pick not in tied:
        raise GmError("同数の候補から選んでください", "Pick one of the tied candidates")
    deciders = list(vote_result.get("deciders") or [])
    if by is not None and deciders and by not in deciders:
        raise GmError("決めるのは最下位のプレイヤーです", "Only the last-placed player decides")
    said = _note("最下位のプレイヤーが決定", "Decided by the last-placed player", "S-13") if by is not None else \
        _note("最下位が同点のためGMが決定", "Decided by the GM (last place is tied)", "S-13")
    return {"revealed": pick, "decided_by": by, "notes": [said]}


def starting_vp(unspent_cp: int) -> dict:
    """S-14: every 2 unspent CP give 1 starting VP (rounded down)."""
    cp = _int(unspent_cp, "余ったCP", "Unspent CP", 0)
    return {"value": cp // 2, "terms": [_term(f"余りCP {cp}÷2（切り捨て）", f"unspent CP {cp} ÷ 2 (down)", cp // 2, "S-14")]}


def servant_cp(traits: Iterable[str], readings: Mapping[str, Any] | None = None) -> dict:
    """S-14: servant CP = 30 + trait bonus (2 per 3 traits, strong traits 2 each; bonus ≤ 6)."""
    names = list(dict.fromkeys(str(t).strip().strip("《》") for t in traits if str(t).strip()))
    strong = [t for t in names if t in STRONG_TRAITS]
    counted = len(names) if reading(readings, "strong_traits_count") else len(names) - len(strong)
    by_count, by_strong = 2 * (counted // 3), 2 * len(strong)
    cap = min(0, TRAIT_BONUS_MAX - by_count - by_strong)
    terms = [_term("基本CP", "base CP", SERVANT_BASE_CP, "S-14"),
             _term(f"特性数ボーナス（{counted}個）", f"trait count bonus ({counted})", by_count, "S-14"),
             _term(f"強特性ボーナス（{'・'.join(strong) or 'なし'}）", f"strong traits ({', '.join(strong) or 'none'})",
                   by_strong, "S-14")]
    if cap:
        terms.append(_term("ボーナス上限6", "bonus cap 6", cap, "S-14"))
    return {"value": sum(t["value"] for t in terms), "bonus": by_count + by_strong + cap, "terms": terms,
            "notes": [_reading_note("strong_traits_count", reading(readings, "strong_traits_count"))]}
