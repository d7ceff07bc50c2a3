"""I-4 and I-5: the attack calculator. Attack and defense as labelled terms, the 2d6 roll, the outcome.

Pure functions over the attack as the ruleset keeps it (a plain dict, see docs/rulesets/illuminati.md):
every term of the breakdown names its rule, so the table screen can show the sum step by step.
"""

from __future__ import annotations

from gmtool.core.errors import Conflict, GmError

from .alignments import opposes, pair_counts, shares
from .strings import STRINGS

CONTROL, DESTROY = "control", "destroy"
PURPOSES = (CONTROL, DESTROY)
POSITIONS = ("child", "grandchild", "further", "hand")
ALIGNMENT_STEP = 4  # I-4: +/-4 per same or opposed pair
SAME_ILLUMINATI = 5  # I-4: an opponent using the same Illuminati
ILLUMINATI_AGENT = 3  # I-4: an agent of the other side's Illuminati
CHILD_BONUS, GRANDCHILD_BONUS = 10, 5  # I-4: the target's distance from its Illuminati
PARENT_BONUS = 4  # I-4: a control target sharing a non-Fanatic alignment with its parent
AGENT_ATTACK, AGENT_DEFENSE = 10, 6  # I-4: a group agent from the hand, one per attack
FUMBLE = 11  # I-5: a roll of 11 or 12 always fails

# Support kinds per side (I-4): what each adds and whether it spends action tokens.
ATTACK_SUPPORTS = ("aligned", "global", "agent")
DEFENSE_SUPPORTS = ("target", "aligned", "global", "adjacent", "agent")


def term(ja: str, en: str, value: int, rule: str = "I-4") -> dict:
    """One labelled term of a breakdown."""
    return {"label": {"ja": ja, "en": en}, "value": int(value), "rule": rule}


def possessive(name: str) -> str:
    """A card's name as an English possessive: "KGB's", "UFOs'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def attacker_power(attack: dict) -> int:
    """I-4: the attacker's power, normal or global as the attacker chose."""
    a = attack["attacker"]
    return int(a["global_power"] if a.get("use") == "global" else a["power"])


def alignment_terms(purpose: str, attacker: list[str], target: list[str]) -> list[dict]:
    """I-4/I-6: each same pair +4 (control) or -4 (destroy); each opposed pair -4 (control) or +4 (destroy)."""
    same, opposed = pair_counts(attacker, target)
    sign = 1 if purpose == CONTROL else -1
    out = []
    if same:
        out.append(term(f"同じ属性×{same}", f"same alignment ×{same}", sign * ALIGNMENT_STEP * same))
    if opposed:
        out.append(term(f"対立属性×{opposed}", f"opposed alignment ×{opposed}", -sign * ALIGNMENT_STEP * opposed))
    return out


def support_value(attack: dict, support: dict) -> int:
    """I-4: what one support adds: an agent +10 / +6, the target's power per token, else the group's power."""
    if support["kind"] == "agent":
        return AGENT_ATTACK if support["side"] == "attack" else AGENT_DEFENSE
    if support["kind"] == "target":
        return int(attack["target"]["power"]) * int(support["tokens"])
    return int(support["value"])


SUPPORT_LABELS = {
    ("attack", "aligned"): ("支援（属性）", "support (alignment)"),
    ("attack", "global"): ("支援（グローバル）", "support (global power)"),
    ("attack", "agent"): ("エージェント", "agent"),
    ("defense", "target"): ("対象自身のトークン", "the target's own tokens"),
    ("defense", "aligned"): ("防御支援（属性）", "defense (alignment)"),
    ("defense", "global"): ("防御支援（グローバル）", "defense (global power)"),
    ("defense", "adjacent"): ("防御支援（親子）", "defense (parent or child)"),
    ("defense", "agent"): ("エージェント", "agent"),
}


def _support_term(attack: dict, support: dict, names: dict) -> dict:
    ja, en = SUPPORT_LABELS[(support["side"], support["kind"])]
    who = names.get(support.get("seat"), support.get("seat") or "")
    card = support.get("name") or ""
    extra = "・".join(x for x in (who, card) if x)
    extra_en = ", ".join(x for x in (who, card) if x)
    if support["kind"] == "target":
        extra += f"・{support['tokens']}個"
        extra_en += f", {support['tokens']} token(s)"
    return term(f"{ja}（{extra}）" if extra else ja, f"{en} ({extra_en})" if extra_en else en,
                support_value(attack, support))


def breakdown(attack: dict, names: dict | None = None, parent_per_alignment: bool = False) -> dict:
    """I-4/I-5: the attack and defense terms, their totals and the achieved value (attack - defense).

    `names` maps seat ids to display names; `parent_per_alignment` is the reading that counts the
    parent bonus once per shared alignment instead of once.
    """
    names = names or {}
    purpose, a, t = attack["purpose"], attack["attacker"], attack["target"]
    power_ja = "グローバルパワー" if a.get("use") == "global" else "パワー"
    power_en = "global power" if a.get("use") == "global" else "power"
    atk = [term(f"{a['name']}の{power_ja}", f"{possessive(a['name'])} {power_en}", attacker_power(attack))]
    atk += alignment_terms(purpose, a.get("alignments", []), t.get("alignments", []))
    if attack.get("same_illuminati"):
        atk.append(term("同じイルミナティの相手", "opponent of the same Illuminati", SAME_ILLUMINATI))
    if attack.get("attack_agent"):
        atk.append(term("相手イルミナティのエージェント", "agent of the target's Illuminati", ILLUMINATI_AGENT))
    if purpose == CONTROL:
        dfn = [term(f"{t['name']}の抵抗", f"{possessive(t['name'])} resistance", int(t["resistance"]))]
    else:
        dfn = [term(f"{t['name']}のパワー", f"{possessive(t['name'])} power", int(t["power"]))]
    position = t.get("position")
    if position == "child":
        dfn.append(term("イルミナティの子", "child of its Illuminati", CHILD_BONUS))
    elif position == "grandchild":
        dfn.append(term("イルミナティの孫", "grandchild of its Illuminati", GRANDCHILD_BONUS))
    if purpose == CONTROL and position != "hand":
        shared = pair_counts(t.get("alignments", []), t.get("parent_alignments", []))[0]
        if shared:
            times = shared if parent_per_alignment else 1
            dfn.append(term("親と同じ属性" + (f"×{times}" if times > 1 else ""),
                            "shares an alignment with its parent" + (f" ×{times}" if times > 1 else ""),
                            PARENT_BONUS * times))
    if attack.get("defense_agent"):
        dfn.append(term("攻撃側イルミナティのエージェント", "agent of the attacker's Illuminati", ILLUMINATI_AGENT))
    for s in attack.get("supports", []):
        (atk if s["side"] == "attack" else dfn).append(_support_term(attack, s, names))
    for m in attack.get("modifiers", []):
        (atk if m["side"] == "attack" else dfn).append({"label": m["label"], "value": int(m["amount"]), "rule": "GM"})
    attack_total = sum(x["value"] for x in atk)
    defense_total = sum(x["value"] for x in dfn)
    return {"attack": atk, "defense": dfn, "attack_total": attack_total, "defense_total": defense_total,
            "achieved": attack_total - defense_total}


def succeeds(achieved: int, roll: int) -> bool:
    """I-5: a roll of 11 or 12 always fails; otherwise the attack succeeds when achieved >= roll."""
    if roll >= FUMBLE:
        return False
    return achieved >= roll


def check_support(attack: dict, support: dict, target_owner: str | None) -> None:
    """I-4: refuse a support the rules do not allow (wrong side, alignment, a second agent or one of a card in the
    supporter's own power structure, the target's tokens or its parent or child from anyone but its owner)."""
    side, kind = support["side"], support["kind"]
    allowed = ATTACK_SUPPORTS if side == "attack" else DEFENSE_SUPPORTS
    if kind not in allowed:  # worded as the support forms show the kind and the side
        (kind_ja, kind_en), (side_ja, side_en) = STRINGS[f"illuminati.sk_{kind}"], STRINGS[f"illuminati.support_{side}"]
        raise GmError(f"「{kind_ja}」では「{side_ja}」はできません", f"'{kind_en}' cannot be used to {side_en.lower()}")
    t = attack["target"]
    if kind == "agent":
        if target_owner is not None and support.get("seat") == target_owner:
            raise GmError("自分の権力構造図にあるグループのエージェントは使えません",
                          "A group in your own power structure cannot be your agent")
        if any(s["side"] == side and s["kind"] == "agent" for s in attack.get("supports", [])):
            raise Conflict("エージェントは1回の攻撃に1枚までです（この側は使用済み）",
                           "Only one group agent per attack (this side has used it)")
        return
    if kind == "target":
        if target_owner is None or support.get("seat") != target_owner:
            raise GmError("対象自身のトークンを使えるのは対象の持ち主だけです",
                          "Only the target's owner can spend the target's own tokens")
        return
    if kind == "adjacent" and (target_owner is None or support.get("seat") != target_owner):
        raise GmError("親子の防御支援ができるのは対象の持ち主だけです（親と子は持ち主の権力構造図にあります）",
                      "Only the target's owner defends with its parent or child (they are in the owner's power structure)")
    if kind == "aligned":
        mine = support.get("alignments", [])
        if side == "attack" and attack["purpose"] == CONTROL and not shares(mine, t.get("alignments", [])):
            raise GmError("支配攻撃の支援には対象と同じ属性が必要です（またはグローバルパワーで支援）",
                          "Supporting a control attack needs an alignment shared with the target (or use global power)")
        if side == "attack" and attack["purpose"] == DESTROY and not opposes(mine, t.get("alignments", [])):
            raise GmError("破壊攻撃の支援には対象と対立する属性が必要です（またはグローバルパワーで支援）",
                          "Supporting a destroy attack needs an alignment opposed to the target (or use global power)")
        if side == "defense" and not shares(mine, t.get("alignments", [])):
            raise GmError("防御支援には対象と同じ属性が必要です（またはグローバルパワーで支援）",
                          "Defending by alignment needs an alignment shared with the target (or use global power)")


def outcome(attack: dict, success: bool) -> list[tuple[str, str, int, str, str]]:
    """I-4: the counter changes of a finished attack: (seat, counter, delta, reason ja, reason en).

    Destroyed: the target to the attacker's destroyed pile, the cards below it to their owner's hand.
    Controlled: the target with its subtree to the attacker's structure. Either way the tokens still on the
    target and below are removed (those its owner spent on the defense already are).
    """
    if not success:
        return []
    t, attacker, owner = attack["target"], attack["attacker_seat"], attack["target"].get("owner")
    moved = 1 + int(t.get("subtree", 0))
    # the target's own tokens its owner spent on the defense are gone already: only the rest are removed
    spent = sum(int(s["tokens"]) for s in attack.get("supports", []) if s["kind"] == "target")
    tokens = max(0, int(t.get("tokens", 0)) - spent)
    out: list[tuple[str, str, int, str, str]] = []
    if attack["purpose"] == DESTROY:
        out.append((attacker, "destroyed", 1, f"{t['name']}を破壊", f"destroyed {t['name']}"))
        out.append((owner, "groups", -moved, f"{t['name']}が破壊された", f"{t['name']} destroyed"))
        if moved > 1:
            out.append((owner, "group_hand", moved - 1, "下流のカードは手札へ", "the cards below go to the hand"))
    else:
        out.append((attacker, "groups", moved, f"{t['name']}を支配", f"took control of {t['name']}"))
        if owner is not None:
            out.append((owner, "groups", -moved, f"{t['name']}を奪われた", f"lost {t['name']}"))
    if tokens and owner is not None:
        out.append((owner, "tokens_groups", -tokens, "対象と下流のトークンを除去", "tokens on the target removed"))
    return out
