"""Fate/Ace Royal: the pure numbers and checks of the game (RULES.md A-1 to A-11).

Nothing here touches a session: each function takes plain values (and a dice source where
dice are rolled) and returns plain values, so every rule is tested on its own
(tests/unit/test_ace_royal_rules.py). The flow that uses them is in actions.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gmtool.core.commands import parse_int
from gmtool.core.errors import GmError, choices_text, shown

STATS = ("patk", "pdef", "matk", "mdef")
STAT_LABELS = {"patk": ("物理攻撃", "Physical attack"), "pdef": ("物理防御", "Physical defence"),
               "matk": ("魔術攻撃", "Magical attack"), "mdef": ("魔術防御", "Magical defence")}
KINDS = {"physical": ("patk", "pdef"), "magical": ("matk", "mdef")}
KIND_LABELS = {"physical": ("物理", "physical"), "magical": ("魔術", "magical")}

# Keyword skills that change numbers or rules (the seed's スキル一覧, plus 山門の守護 of H-014).
SKILLS = {
    "first_strike": ("先制", "First strike"),
    "mind_eye": ("見切り", "Mind's eye"),
    "charisma": ("カリスマ", "Charisma"),
    "legion": ("軍団", "Legion"),
    "independent": ("単独行動", "Independent action"),
    "support": ("支援", "Support"),
    "housework": ("家事", "Housework"),
    "divinity": ("神性", "Divinity"),
    "dragon": ("竜", "Dragon"),
    "intuition": ("直感", "Intuition"),
    "gatekeeper": ("山門の守護", "Gatekeeper of the mountain gate"),
}

SERVANT_STATES = {"reverse": ("リバース", "Reverse"), "rise": ("ライズ", "Rise"),
                  "danger": ("デンジャー", "Danger"), "down": ("ダウン", "Down")}
STEPS = ("rise", "draw", "ritual", "encounter", "combat", "end")
STEP_LABELS = {"rise": ("ライズステップ", "Rise step"), "draw": ("ドローステップ", "Draw step"),
               "ritual": ("儀式ステップ", "Ritual step"), "encounter": ("遭遇戦ステップ", "Encounter step"),
               "combat": ("戦闘ステップ", "Combat step"), "end": ("終了ステップ", "End step")}

VERSIONS = {"standard": ("スタンダード", "Standard"), "quick": ("クイック", "Quick")}
START_MANA = {"standard": 5, "quick": 8}
START_SEALS = 3
START_HAND = 4
HAND_LIMIT = 4  # the end step discards down to 4
BASE_CODE_SLOTS = 4  # mystic codes on the field (seed: 礼装カードの配置)
REVEAL_DRAW = 2  # per revealed card
MAX_STAT = 99
MAX_ENCOUNTER_REROLLS = 100
MAX_QUICK_ONES = 50


# -- A-1 the servant --------------------------------------------------------------------------

def parse_stats(value: Any) -> list[int]:
    """Four stats (phys ATK / phys DEF / mag ATK / mag DEF) from a list or "6/5/3/3" (A-1)."""
    if isinstance(value, str):
        parts = [p for p in value.replace("／", "/").replace(",", "/").replace(" ", "/").split("/") if p.strip()]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    elif isinstance(value, dict):
        parts = [value.get(k) for k in STATS]
    else:
        parts = []
    if len(parts) != 4:
        raise GmError("ステータスは4つ（物理攻撃/物理防御/魔術攻撃/魔術防御）で入力してください",
                      "Give four stats (physical attack / physical defence / magical attack / magical defence)")
    out = []
    for p in parts:
        n = parse_int(p, "ステータス", "stat")  # core's reading: full-width digits, no "1_0" or "٣", a short echo
        if not -MAX_STAT <= n <= MAX_STAT:
            raise GmError(f"ステータスは±{MAX_STAT}までです", f"Stats are within ±{MAX_STAT}")
        out.append(n)
    return out


def parse_skills(value: Any) -> list[str]:
    """Keyword skills by key or by their Japanese / English name (unknown ones refused)."""
    if value in (None, ""):
        return []
    items = value.replace("、", ",").split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        raise GmError("スキルはリストで指定してください", "Give the skills as a list")
    out = []
    for item in items:
        text = shown(item).strip()  # a list or null as JSON writes it, not Python's repr
        if not text:
            continue
        key = next((k for k, (ja, en) in SKILLS.items() if text in (k, ja) or text.lower() == en.lower()), None)
        if key is None:
            ja, en = choices_text(SKILLS)
            raise GmError(f"スキル「{text}」は扱えません（{ja}）", f"Unknown skill '{text}' (known: {en})")
        if key not in out:
            out.append(key)
    return out


def servant_stats(hero: Sequence[int], cls: Sequence[int]) -> list[int]:
    """A-1: the servant's stats are the sums of the hero card's and the class card's."""
    return [int(h) + int(c) for h, c in zip(hero, cls)]


def has_skill(cards: Iterable[dict | None], skill: str) -> bool:
    """Whether any of a servant's cards carries `skill`."""
    return any(skill in (c or {}).get("skills", ()) for c in cards)


# -- combat --------------------------------------------------------------------------

def attacker_damage(atk: int, dfn: int) -> int:
    """A-7: the attacker deals max(ATK − DEF, 1) when ATK ≥ DEF (a tie still deals 1), else 0."""
    return max(atk - dfn, 1) if atk >= dfn else 0


def interceptor_damage(atk: int, dfn: int) -> int:
    """A-7: the interceptor deals ATK − DEF when ATK > DEF; a tie deals 0."""
    return atk - dfn if atk > dfn else 0


def interception_skipped(attacker_first: bool, interceptor_first: bool, dealt: int) -> bool:
    """A-7: no interception when the attacker has 先制 and dealt damage, unless both have 先制."""
    return attacker_first and not interceptor_first and dealt > 0


def mind_eye_note(attacker: bool, interceptor: bool) -> str | None:
    """見切り: which side's opponent may not use text effects in the damage processes (both: cancelled)."""
    if attacker and interceptor:
        return "both"
    if attacker:
        return "attacker"
    if interceptor:
        return "interceptor"
    return None


def quick_die(dice: Any) -> list[int]:
    """A-8: one quick-version combat die: roll 1d6; a 1 is added and rolled again as long as 1s come."""
    faces = [dice.randint(6)]
    while faces[-1] == 1 and len(faces) < MAX_QUICK_ONES:
        faces.append(dice.randint(6))
    return faces


def charisma_bonus(charisma: bool, legion: bool) -> list[int]:
    """A-9: a proxy's カリスマ bonus: +2/+1/+2/+1, or +4/+2/+4/+2 when the proxy is 軍団."""
    if not charisma:
        return [0, 0, 0, 0]
    return [4, 2, 4, 2] if legion else [2, 1, 2, 1]


def side_stats(base: Sequence[int], modifiers: Iterable[dict] = (), quick_faces: Sequence[int] = (),
               codes_quick: int = 0, proxy: dict | None = None, charisma: bool = False) -> dict:
    """A-1/A-8/A-9: one side's four combat stats with a labelled breakdown.

    `base` is the servant's stats (ignored for a proxy, which uses its own, A-9); `modifiers`
    ({"stat": key or "all", "value": n, "label": text}) are the servant's, applied to the proxy
    too; a quick die total adds to every stat (A-8: to ATK and DEF); `codes_quick` mystic codes
    on the field give +1 to every stat each (quick version).
    """
    lines = []
    if proxy:
        stats = list(proxy["stats"])
        lines.append({"what": "proxy", "name": proxy.get("name", ""), "values": list(stats)})
        bonus = charisma_bonus(charisma, bool(proxy.get("legion")))
        if any(bonus):
            stats = [s + b for s, b in zip(stats, bonus)]
            lines.append({"what": "charisma", "legion": bool(proxy.get("legion")), "values": bonus})
    else:
        stats = list(base)
        lines.append({"what": "servant", "values": list(stats)})
    if codes_quick:
        stats = [s + codes_quick for s in stats]
        lines.append({"what": "codes_quick", "count": codes_quick, "values": [codes_quick] * 4})
    for m in modifiers:
        keys = STATS if m["stat"] == "all" else (m["stat"],)
        values = [int(m["value"]) if k in keys else 0 for k in STATS]
        stats = [s + v for s, v in zip(stats, values)]
        lines.append({"what": "modifier", "label": m.get("label", ""), "stat": m["stat"], "values": values})
    if quick_faces:
        total = sum(quick_faces)
        stats = [s + total for s in stats]
        lines.append({"what": "quick_die", "faces": list(quick_faces), "values": [total] * 4})
    return {"stats": stats, "lines": lines}


def resolve_combat(att: dict, dfn: dict, att_kind: str, dfn_kind: str | None, att_first: bool, dfn_first: bool,
                   strike: dict | None = None) -> dict:
    """A-7: both damage processes: the attacker's strike, then the interception unless 先制 skips it.

    `att` / `dfn` are side_stats() results; `strike` ({atk, def}) is the attacker's damage judgement
    when the attack process ended earlier (the stats as they stood then). Returns every process's numbers.
    """
    if strike:
        a_atk, d_def = strike["atk"], strike["def"]
    else:
        a_atk = att["stats"][STATS.index(KINDS[att_kind][0])]
        d_def = dfn["stats"][STATS.index(KINDS[att_kind][1])]
    dealt = attacker_damage(a_atk, d_def)
    out = {"attack": {"kind": att_kind, "atk": a_atk, "def": d_def, "damage": dealt}}
    skipped = interception_skipped(att_first, dfn_first, dealt)
    out["first_strike"] = {"attacker": att_first, "interceptor": dfn_first, "skipped": skipped}
    if skipped:
        out["intercept"] = None
        back = 0
    else:
        i_atk = dfn["stats"][STATS.index(KINDS[dfn_kind][0])]
        i_def = att["stats"][STATS.index(KINDS[dfn_kind][1])]
        back = interceptor_damage(i_atk, i_def)
        out["intercept"] = {"kind": dfn_kind, "atk": i_atk, "def": i_def, "damage": back}
    out["to_interceptor"] = dealt
    out["to_attacker"] = back
    return out


def stealer(to_attacker: int, to_interceptor: int) -> str | None:
    """A-7: the side that dealt damage and took none steals a card ("attacker" / "interceptor" / None)."""
    if to_interceptor > 0 and to_attacker == 0:
        return "attacker"
    if to_attacker > 0 and to_interceptor == 0:
        return "interceptor"
    return None


def steal_position(hand: int, dice: Any) -> int | None:
    """A-7: which card of a hand of `hand` cards is stolen (1-based, counted from the owner's left), by a die."""
    if hand <= 0:
        return None
    return dice.randint(hand)


def proxy_damage(source: str, damage: int, can_discard: bool) -> dict:
    """A-9: what damage to a proxy costs instead of 魔力.

    From a mystic code: that code is discarded. From a hero card: one mystic code from the hand
    is discarded and the servant goes Down for damage beyond 1; Danger when none can be discarded.
    """
    if damage <= 0:
        return {"discard_field_code": False, "discard_hand_code": False, "state": None}
    if source == "code":
        return {"discard_field_code": True, "discard_hand_code": False, "state": None}
    if not can_discard:
        return {"discard_field_code": False, "discard_hand_code": False, "state": "danger"}
    return {"discard_field_code": False, "discard_hand_code": True, "state": "down" if damage > 1 else None}


# -- turns ---------------------------------------------------------------------------

def first_after_reroll(order: Sequence[str], rolls: dict, seat: str, face: int, dice: Any,
                       ties: str = "reroll", most: int = 50) -> tuple[str, dict]:
    """A-3 quick effect 2 x A-5: `seat`'s latest first-active-master die becomes `face`; the rounds are walked again
    from the first, keeping every die still rolled in its round, rolling the dice a new tie for the highest needs
    (reading `first_ties`: "reroll" the tied roll again, "seat_order" the earliest of them), and dropping the dice of
    a tie-break that no longer happens. Returns (first, rolls)."""
    rolls = {s: list(v) for s, v in rolls.items()}
    rolls[seat][-1] = face
    group, k = [s for s in order if s in rolls], 0
    while True:
        for s in group:
            if len(rolls[s]) <= k:
                rolls[s].append(dice.randint(6))
        top = max(rolls[s][k] for s in group)
        tied = [s for s in group if rolls[s][k] == top]
        settled = len(tied) == 1 or ties == "seat_order" or k >= most
        for s in group:
            if settled or s not in tied:
                del rolls[s][k + 1:]
        if settled:
            return tied[0], rolls
        group, k = tied, k + 1


def encounter_happens(face: int) -> bool:
    """A-6: a 1 on the encounter die forces an encounter."""
    return face == 1


def encounter_numbers(order: Sequence[str], turn_player: str, out: Iterable[str] = ()) -> list[str]:
    """A-6: the other players still in, numbered 1.. clockwise from the turn player."""
    order = list(order)
    gone = set(out)
    i = order.index(turn_player)
    return [p for p in order[i + 1:] + order[:i] if p not in gone]


def encounter_target(others: Sequence[str], dice: Any, sides: int = 6) -> tuple[str, list[int]]:
    """A-6: roll for the random opponent; numbers nobody holds are rolled again. Returns (target, faces)."""
    if not others:
        raise GmError("遭遇戦の相手がいません", "There is nobody to encounter")
    if len(others) > sides:
        raise GmError(f"相手が{sides}人を超えています", f"More than {sides} opponents")
    faces = []
    while len(faces) < MAX_ENCOUNTER_REROLLS:
        face = dice.randint(sides)
        faces.append(face)
        if face <= len(others):
            return others[face - 1], faces
    raise GmError("遭遇戦の相手が決まりません", "The encounter target could not be decided")


def encounter_roles(turn_player: str, target: str, gatekeeper: bool) -> tuple[str, str]:
    """A-6: (attacker, interceptor); 山門の守護 (佐々木小次郎) flips the roles."""
    return (target, turn_player) if gatekeeper else (turn_player, target)


def pass_due(reading: str, round_ended: bool, round_no: int) -> bool:
    """A-5: whether the active-master coin passes at the end of this turn.

    "round" (the digest): at the end of every full round of turns (so the first pass comes only
    after the first full round). "turn": at the end of every turn once the first full round is over.
    `round_no` is the round the ending turn belongs to.
    """
    if reading == "turn":
        return round_no > 1 or round_ended
    return round_ended


# -- hand and coins ----------------------------------------------------------------

def master_dies(assassin: int, depletion: int, hand: int) -> str | None:
    """A-10: which coin count (kept apart) exceeds the hand size: "assassin", "depletion" or None."""
    if assassin > hand:
        return "assassin"
    if depletion > hand:
        return "depletion"
    return None


def end_step_discard(hand: int) -> int:
    """A-11: how many cards the end step discards (down to 4 when holding 5 or more)."""
    return hand - HAND_LIMIT if hand >= HAND_LIMIT + 1 else 0


def code_slots(reverse_placed: int) -> int:
    """Mystic codes the field holds: 4, plus one per card placed Reverse."""
    return BASE_CODE_SLOTS + reverse_placed


def can_attack(servant_state: str) -> bool:
    """A-4: Danger and Down servants can only intercept."""
    return servant_state in ("rise", "reverse")


def after_mana_loss(servant_state: str) -> str:
    """A-4: losing 魔力 while in Danger makes the servant Down."""
    return "down" if servant_state == "danger" else servant_state
