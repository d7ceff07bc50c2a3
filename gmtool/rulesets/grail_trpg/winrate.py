"""Holy Grail War TRPG combat, second half (RULES.md T-3, T-8..T-14): scene caps and use
limits, win rate, battle roll, cleanup (黒星), escape, Command Seals and pairings. Pure: dice are injected objects with
`randint(sides)` (and `next_index`, shown with each roll when present).
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Mapping, Sequence

from gmtool.core.errors import Conflict, GmError, shown
from gmtool.core.logtext import minus_sign
from gmtool.core.model import Label

from .rules import CEILING, STAT_EN, STATS, ResultBreakdown, check_stat, norm_term, note, reading, reading_note, term

SCENE_CAP = 30  # T-8: ±30 per character, per stat, per scene (skills and 宝具)
USE_LIMITS = {"skill": 2, "np": 2}  # T-3

# The phases a seal is used in: `state.ruleset.combat.phase`'s values (the final result is in the battle phase)
PHASES = {"setup": Label("セットアップ", "Setup"), "select": Label("セレクト", "Select"),
          "result": Label("リザルト", "Result"), "battle": Label("バトル", "Battle"), "cleanup": Label("クリンナップ", "Cleanup")}
_ALL = tuple(PHASES)

# T-13: Command Seal effects 1–7: `label` offers one (the console's list); `done`, where the offer's words are not
# what a use did, says that (its log line, the table's record of the seals used)
SEAL_EFFECTS: dict[int, dict] = {
    1: {"label": Label("自分のサーヴァントの全ステータス+10（戦闘中）", "All own servant's stats +10 for the combat"),
        "timing": ("setup",), "effect": {"all_stats": 10}, "cap_exempt": True, "may_exceed_100": True,
        "users": ("main",), "public": False},
    2: {"label": Label("自分のサーヴァントのステータス1つ+30", "One stat of own servant +30"),
        "timing": ("result",), "effect": {"one_stat": 30}, "cap_exempt": True, "may_exceed_100": True,
        "users": ("main",), "public": False},
    3: {"label": Label("勝率+50", "Win rate +50"), "timing": ("battle",), "effect": {"win_rate": 50},
        "cap_exempt": True, "may_exceed_100": False, "users": ("main", "sub"), "public": False},
    4: {"label": Label("メインとサブ・その他のキャラクターを交代", "Swap the main with a sub / other character"),
        "done": Label("メインを交代", "Main swapped"),
        "timing": _ALL, "effect": {"swap_main": 1}, "cap_exempt": True, "may_exceed_100": False,
        "users": ("main",), "public": False},
    5: {"label": Label("MP+3（即座に、公開可）", "MP +3 (at once, may be public)"), "done": Label("MP+3", "MP +3"),
        "timing": _ALL, "effect": {"mp": 3}, "cap_exempt": True, "may_exceed_100": False, "users": ("main",), "public": True},
    6: {"label": Label("逃走判定（黒星と同じ数の令呪）", "Escape check (as many seals as black stars)"), "timing": ("setup",),
        "effect": {"escape": 1}, "cap_exempt": True, "may_exceed_100": False, "users": ("main",), "public": False},
    7: {"label": Label("敗北後の逃走判定（黒星+1の令呪、さらに+1で自動成功）",
                       "Escape check after losing (black stars + 1 seals; one more: automatic)"),
        "timing": ("cleanup",), "effect": {"escape": 1}, "cap_exempt": True, "may_exceed_100": False,
        "users": ("main",), "public": False},
}


def seal_done(effect: int) -> Label:
    """T-13: what a use of the seal effect did, in words (「MP+3」, not the console's 「MP+3（即座に、公開可）」)."""
    e = SEAL_EFFECTS[effect]
    return e.get("done", e["label"])


def seal_effects() -> list[dict]:
    """T-13: the seal effects 1–7 as JSON rows (number, label, what a use did, timing labels, numbers, users)."""
    return [{"effect": n, "label": e["label"].to_dict(), "done": seal_done(n).to_dict(), "timing": list(e["timing"]),
             "timing_labels": [PHASES[p].to_dict() for p in e["timing"]], "effect_values": dict(e["effect"]),
             "cap_exempt": e["cap_exempt"], "may_exceed_100": e["may_exceed_100"], "users": list(e["users"]),
             "public": e["public"], "rule": "T-13"} for n, e in SEAL_EFFECTS.items()]


def _effect(effect: int) -> dict:
    if effect not in SEAL_EFFECTS:
        raise GmError(f"令呪の効果は1〜7です（{effect}）", f"Seal effect must be 1–7 ({effect})")
    return SEAL_EFFECTS[effect]


def check_seal_use(effect: int, role: str | None, phase: str | None = None, has_reserve: bool = True) -> None:
    """T-13: raise GmError unless the faction (role main/sub/other/None) may use this seal now."""
    e = _effect(effect)
    if role not in e["users"]:
        who = "メインまたはサブ" if "sub" in e["users"] else "メイン"
        whoe = "main or sub" if "sub" in e["users"] else "main"
        raise GmError(f"令呪{effect}は{who}の陣営のみ使えます", f"Seal {effect} is only for the faction of the {whoe}")
    if effect == 4 and not has_reserve:
        raise GmError("令呪4はサブ・その他にサーヴァントがいる陣営のみ使えます",
                      "Seal 4 needs a servant in sub or others")
    if phase is not None and phase not in e["timing"]:
        raise Conflict(f"令呪{effect}は{'・'.join(PHASES[p].ja for p in e['timing'])}フェイズで使います",
                      f"Seal {effect} is used in the {', '.join(PHASES[p].en for p in e['timing'])} phase")


ALLIED_STARS = Label("黒星の数（同盟内で最多）", "black stars (most among the allies)")  # T-13: seals 6 and 7 in an alliance


def seal_cost(effect: int, black_stars: int | Sequence[int] = 0, automatic: bool = False,
              readings: Mapping | None = None) -> dict:
    """T-13: how many seals an effect costs (6: 黒星; 7: 黒星 + 1, +1 more for automatic)."""
    _effect(effect)
    stars = [black_stars] if isinstance(black_stars, int) else list(black_stars)
    if not stars or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in stars):
        raise GmError("黒星の数は0以上の整数です", "Black star counts must be integers ≥ 0")
    notes, allied = [], len(stars) > 1
    if automatic and effect != 7:
        raise GmError("自動成功にできるのは令呪7だけです", "Only seal 7 can be made automatic")
    if effect not in (6, 7):
        return {"effect": effect, "cost": 1, "terms": [term(SEAL_EFFECTS[effect]["label"], 1, "T-13")], "notes": []}
    if effect == 7 and allied and reading(readings, "seal7_alliance") == "own":
        stars = stars[:1]
    n = max(stars)
    lab = ALLIED_STARS if allied and len(stars) > 1 else Label("黒星の数", "black stars")
    terms = [term(lab, n, "T-13")]
    if allied:
        notes.append(note("同盟内で令呪の消費を分担してよい", "The allies may decide who pays the seals", "T-13"))
        if effect == 7:
            notes.append(reading_note(readings, "seal7_alliance"))
    if effect == 6 and n == 0:
        notes.append(note("黒星0なら令呪0画（セットアップの逃走判定はもともと可能）",
                          "With no black stars it costs no seal (a setup escape check is allowed anyway)", "T-13"))
    if effect == 7:
        notes.append(reading_note(readings, "seal7_black_stars"))
        if reading(readings, "seal7_black_stars") == "after_this_loss":
            terms.append(term(Label("今回の敗北の黒星", "this loss's black star"), 1, "T-11"))
        terms.append(term(Label("さらに1画", "one seal more"), 1, "T-13"))
        if automatic:
            terms.append(term(Label("自動成功の追加1画", "One more for automatic success"), 1, "T-13"))
    return {"effect": effect, "cost": sum(t["value"] for t in terms), "terms": terms, "notes": notes}


def seal_cost_words(escape: Mapping) -> Label:
    """T-13: what an escape (seal 6 / 7) spent in seals and why, from its cost's numbers: 「令呪2画を使用（黒星1個 ＋ 1画）」."""
    # The words come from the numbers (black stars first, this loss's star [T-11], the 1 on top, the automatic 1),
    # not from the terms' stored labels, so an escape stored before reads the same.
    cost, seal = escape["cost"], escape["seal"]
    n, first, rest = cost["cost"], cost["terms"][0], cost["terms"][1:]
    stars, allied = first["value"], first["label"] == ALLIED_STARS.to_dict()
    star_en = f"{stars} black star{'' if stars == 1 else 's'}"
    ja = [f"同盟内で最多の黒星{stars}個" if allied else f"黒星{stars}個"]
    en = [f"{star_en} (the most among the allies)" if allied else star_en]
    loss = sum(t["value"] for t in rest if t["rule"] == "T-11")
    if loss:
        ja.append(f"今回の敗北の黒星{loss}個")
        en.append("this loss's black star")
    if seal == 7:
        ja.append("1画")
        en.append("1")
    if escape.get("automatic"):
        ja.append("自動成功に1画")
        en.append("1 for automatic success")
    spent_en = f"{n} Command Seal{'' if n == 1 else 's'} spent"
    if n == 0:
        return Label(f"令呪は使わない（{ja[0]}）", f"no Command Seal spent ({en[0]})")
    if seal == 6:
        return Label(f"令呪{n}画を使用（{ja[0]}と同じ数）", f"{spent_en} (as many as {en[0]})")
    return Label(f"令呪{n}画を使用（{' ＋ '.join(ja)}）", f"{spent_en} ({' + '.join(en)})")


# -- caps (T-8) ---------------------------------------------

class CapTracker:
    """T-8: per character and stat, skill/宝具 changes within ±30 per scene; ceiling 100 but seals."""

    COUNTED = ("skill", "np")
    SOURCES = ("skill", "np", "seal", "outside")

    def __init__(self, stats: Mapping[str, Mapping[str, int]], readings: Mapping | None = None):
        self.readings = dict(readings or {})
        self.base = {cid: {s: int(v[s]) for s in STATS} for cid, v in stats.items()}
        self.changes = {cid: {s: {k: 0 for k in self.SOURCES} for s in STATS} for cid in self.base}

    def value(self, cid: str, stat: str) -> int:
        """T-8: the stat's current value (base + every change)."""
        return self.base[cid][stat] + sum(self.changes[cid][stat].values())

    def used(self, cid: str, stat: str) -> int:
        """T-8: the net skill/宝具 change of this scene (within ±30)."""
        c = self.changes[cid][stat]
        return c["skill"] + c["np"]

    def apply(self, cid: str, stat: str, delta: int, source: str = "skill", label: Label | str | None = None) -> dict:
        """T-8: apply a change; returns requested/applied/value/used/left, a term and notes."""
        if cid not in self.base:
            raise GmError("そのキャラクターはいません", "There is no such character")
        check_stat(stat)
        if source not in self.SOURCES:
            raise GmError(f"変化の種類「{source}」はありません", f"Unknown change source '{source}'")
        c, used, notes = self.changes[cid][stat], self.used(cid, stat), []
        applied = delta
        if source in self.COUNTED:
            applied = max(-SCENE_CAP, min(SCENE_CAP, used + delta)) - used
            if applied != delta:
                lo, hi = minus_sign(-SCENE_CAP - used, True), minus_sign(SCENE_CAP - used, True)
                notes.append(note(f"±30上限: この戦闘で既に{minus_sign(used, True)}、残り{hi}〜{lo}"
                                  f"のため{minus_sign(delta, True)}は{minus_sign(applied, True)}（例: セットアップで+20なら以降は+10まで）",
                                  f"±30 cap: {minus_sign(used, True)} already this scene, room {lo}..{hi}, "
                                  f"so {minus_sign(delta, True)} becomes {minus_sign(applied, True)} (e.g. +20 at setup leaves +10 for later)",
                                  "T-8"))
            elif abs(delta) > SCENE_CAP:
                notes.append(note(f"{minus_sign(delta, True)}は合計{minus_sign(used + delta, True)}で±30以内なので有効（例: +20の能力値に−50で合計−30）",
                                  f"{minus_sign(delta, True)} nets {minus_sign(used + delta, True)}, within ±30 (e.g. −50 on a +20 stat nets −30)",
                                  "T-8"))
        if source != "seal" and applied > 0:
            now = self.value(cid, stat) if reading(self.readings, "stat_ceiling") == "total" \
                else self.value(cid, stat) - c["seal"]
            room = max(0, CEILING - now)
            if applied > room:
                notes.append(note(f"令呪以外で能力値は100を超えない: {minus_sign(applied, True)}は{minus_sign(room, True)}",
                                  f"Nothing but seals takes a stat over 100: {minus_sign(applied, True)} becomes {minus_sign(room, True)}", "T-8"))
                notes.append(reading_note(self.readings, "stat_ceiling"))
                applied = room
        if source == "seal":
            notes.append(note("令呪の変化は±30上限に含まれず、100を超えてもよい",
                              "Seal changes are outside the ±30 cap and may exceed 100", "T-13"))
        c[source] += applied
        rule = "T-13" if source == "seal" else "T-8"
        lab = label if label is not None else Label(f"{stat}の変化", f"{STAT_EN[stat]} change")
        return {"character": cid, "stat": stat, "source": source, "requested": delta, "applied": applied,
                "value": self.value(cid, stat), "used": self.used(cid, stat), "clipped": applied != delta,
                "left": {"up": SCENE_CAP - self.used(cid, stat), "down": -SCENE_CAP - self.used(cid, stat)},
                "term": term(lab, applied, rule), "notes": notes}

    def to_dict(self) -> dict:
        """T-8: JSON form (for ruleset-owned state)."""
        return {"base": self.base, "changes": self.changes, "readings": self.readings}

    @classmethod
    def from_dict(cls, d: Mapping) -> "CapTracker":
        """T-8: inverse of to_dict."""
        t = cls(d["base"], d.get("readings"))
        for cid, per in d["changes"].items():
            for s, ch in per.items():
                t.changes[cid][s].update({k: int(v) for k, v in ch.items()})
        return t


# -- win rate (T-9) ----------------------------------------------------------------

def _as_dict(r: ResultBreakdown | Mapping) -> Mapping:
    return r.to_dict() if isinstance(r, ResultBreakdown) else r


def _count(value: Any, what: tuple[str, str]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise GmError(f"{what[0]}は0以上の整数です（{shown(value)}）", f"{what[1]} must be a whole number ≥ 0 ({shown(value)})")
    return value


def _other(side: str) -> str:
    if side not in ("a", "b"):  # the combat's own sides are passed; no request names one
        raise GmError("その側はこの戦闘にいません", "That side is not in this combat")
    return "b" if side == "a" else "a"


def force_difference(side: str, results: Sequence, readings: Mapping | None = None,
                     forces: Mapping[str, Mapping[str, Any]] | None = None) -> dict:
    """T-9: 戦力の差 ÷ 2 for one side, per the Reading force_diff, as {"value", "terms", "notes"}."""
    other, how = _other(side), reading(readings, "force_diff")
    rs = [_as_dict(r) for r in results]
    if how == "total_force":
        if not forces:
            raise GmError("この戦力の差の解釈（公開された6つの戦力の合計）には両陣営の戦力が必要です", "Reading total_force needs both sides' forces")

        def total(f: Mapping) -> int:
            return sum(v["value"] if isinstance(v, Mapping) else int(v) for s, v in f.items() if s in STATS)
        diffs = [total(forces[side]) - total(forces[other])]
    else:
        key = "force" if how == "chosen_force" else "value"
        diffs = [r[side][key] - r[other][key] for r in rs]
    d = sum(diffs)
    value = math.floor(d / 2) if how == "sum_halved_floor" else math.ceil(d / 2)
    notes = [reading_note(readings, "force_diff")]
    if value < 0 and reading(readings, "force_diff_behind") == "zero":
        value = 0
    if d < 0:
        notes.append(reading_note(readings, "force_diff_behind"))
    shown = " + ".join(f"({minus_sign(x, True)})" for x in diffs)
    total, half = minus_sign(d, True), minus_sign(value, True)
    lab = Label(f"戦力の差 {shown} = {total} ÷ 2 → {half}", f"Force difference {shown} = {total} ÷ 2 → {half}")
    return {"value": value, "terms": [term(lab, value, "T-9")], "notes": notes}


def luck_bonus_of(side: str, results: Sequence, readings: Mapping | None = None) -> dict:
    """T-7/T-9: the 幸運 bonus (+10 per comparison won with 幸運) minus what the opponent's 宝具 voided."""
    other = _other(side)
    rs = [_as_dict(r) for r in results]
    earned = [r["select_no"] for r in rs if r.get("luck_bonus") == side]
    voids = [r["select_no"] for r in rs if r.get("luck_void") == other]
    notes, terms = [], []
    if earned:
        notes.append(reading_note(readings, "luck_bonus_on"))
    for n in earned:
        void = any(v < n or reading(readings, "luck_void_scope") == "scene" for v in voids)
        lab = (Label(f"{n}回目の幸運ボーナス（相手の宝具で無効）", f"LUK bonus of result {n} (voided by the opponent's NP)")
               if void else Label(f"{n}回目の幸運ボーナス", f"LUK bonus of result {n}"))
        terms.append(term(lab, 0 if void else 10, "T-7"))
    if earned and voids:
        notes.append(reading_note(readings, "luck_void_scope"))
    return {"value": sum(t["value"] for t in terms), "terms": terms, "notes": notes}


def win_rate(side: str, results: Sequence, seen_count: int = 0, non_combat_count: int = 0,
             luck_bonus: int | None = None, extra_terms: Iterable = (), readings: Mapping | None = None, *,
             seals: int = 0, granted: Mapping[str, int] | None = None,
             forces: Mapping[str, Mapping[str, Any]] | None = None) -> dict:
    """T-9: 勝率 = (優位−劣位)×20 + 戦力の差÷2 + 真名看破×15 + 非戦闘×10 + 幸運 + skills + seals."""
    other = _other(side)
    rs = [_as_dict(r) for r in results]
    granted = dict(granted or {})
    won = sum(1 for r in rs if r.get("winner") == side)
    lost = sum(1 for r in rs if r.get("winner") == other)
    adv = won + _count(granted.get(side, 0), ("付与された優位", "Granted advantages"))
    dis = lost + _count(granted.get(other, 0), ("付与された優位", "Granted advantages"))
    notes: list[dict] = []
    net = minus_sign((adv - dis) * 20)  # the label ends with its amount, as the force difference's does (→ −3)
    terms = [term(Label(f"(優位{adv} − 劣位{dis}) × 20 → {net}", f"(advantages {adv} − disadvantages {dis}) × 20 → {net}"),
                  (adv - dis) * 20, "T-9")]
    if granted.get(side) or granted.get(other):
        notes.append(note("スキル等で優位を得ると相手は劣位を得る",
                          "An advantage granted by a skill gives the opponent a 劣位", "T-9"))
    if any(r.get("winner") is None for r in rs):
        notes.append(reading_note(readings, "result_tie"))
    fd = force_difference(side, rs, readings, forces)
    terms += fd["terms"]
    notes += fd["notes"]
    seen = _count(seen_count, ("真名看破数", "True names seen"))
    terms.append(term(Label(f"真名看破数{seen} × 15", f"true names seen {seen} × 15"), seen * 15, "T-9"))
    nc = _count(non_combat_count, ("非戦闘キャラ数", "Non-combat characters"))
    terms.append(term(Label(f"非戦闘キャラ数{nc} × 10", f"non-combat characters {nc} × 10"), nc * 10, "T-9"))
    if luck_bonus is None:
        lb = luck_bonus_of(side, rs, readings)
        terms += lb["terms"] or [term(Label("幸運ボーナス", "LUK bonus"), 0, "T-7")]
        notes += lb["notes"]
    else:
        terms.append(term(Label("幸運ボーナス（監督役が指定）", "LUK bonus (set by the GM)"), luck_bonus, "T-7"))
    terms += [norm_term(t, "T-9") for t in extra_terms]
    n = _count(seals, ("令呪の数", "Seals"))
    if n:
        terms.append(term(Label(f"令呪（効果3）× {n}", f"Command Seal (effect 3) × {n}"), 50 * n, "T-13"))
    return {"side": side, "total": sum(t["value"] for t in terms), "terms": terms, "notes": notes}


def non_combat_count(faction_character_ids: Iterable[str], setup: Mapping) -> int:
    """T-9: this faction's characters that are not main, sub or others."""
    placed = {setup.get("main"), setup.get("sub"), *setup.get("others", ())}
    return sum(1 for c in faction_character_ids if c not in placed)


# -- battle (T-10), cleanup (T-11), escape (T-12) -----------------------------------

def _d100(dice: Any, label: Label, rule: str = "T-10") -> dict:
    """A 1d100 as the first term of a roll, citing the rule it is rolled for (the battle roll, or an escape's T-12)."""
    index = getattr(dice, "next_index", None)
    value = dice.randint(100)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
        raise GmError(f"1d100の出目は1〜100の整数です（{shown(value)}）", f"A 1d100 roll is a whole number 1–100 ({shown(value)})")
    return {"die": value, "index": index, "terms": [term(label, value, rule)]}


def battle_roll(rate_a: int, rate_b: int, dice: Any, readings: Mapping | None = None, max_rounds: int = 100) -> dict:
    """T-10: both sides roll 1d100 + 勝率, higher wins; a tie is re-rolled (Reading battle_tie)."""
    rolls, notes = [], []
    for n in range(1, max_rounds + 1):
        row: dict[str, Any] = {"round": n}
        for side, rate in (("a", rate_a), ("b", rate_b)):
            r = _d100(dice, Label(f"1d100（{side}側）", f"1d100 (side {side})"))
            r["terms"].append(term(Label("勝率", "Win rate"), rate, "T-9"))
            r.update(rate=rate, total=r["die"] + rate)
            row[side] = r
        row["tie"] = row["a"]["total"] == row["b"]["total"]
        rolls.append(row)
        if not row["tie"]:
            winner = "a" if row["a"]["total"] > row["b"]["total"] else "b"
            if n > 1:
                notes.append(reading_note(readings, "battle_tie"))
            return {"rolls": rolls, "winner": winner, "needs_gm": False, "notes": notes}
        if reading(readings, "battle_tie") == "gm":
            return {"rolls": rolls, "winner": None, "needs_gm": True, "notes": [reading_note(readings, "battle_tie")]}
    raise GmError(f"勝敗判定が{max_rounds}回同値でした", f"The battle roll tied {max_rounds} times")


def black_stars_after(loser_side_factions: Sequence[str], escaped: Iterable[str] = ()) -> dict:
    """T-11: every faction of the losing side gains one 黒星; those that did not escape are out."""
    losers = list(dict.fromkeys(loser_side_factions))
    if not losers:
        raise GmError("敗北した陣営がありません", "No losing faction given")
    esc = set(escaped)
    notes = [note("同盟の敗北: 全陣営に黒星1", "Alliance lost: every allied faction gains a black star", "T-11")] \
        if len(losers) > 1 else []
    if esc & set(losers):
        notes.append(note("逃走に成功しても戦ったことになる（黒星は付く）",
                          "An escaped faction still counts as having fought (it gains the 黒星)", "T-12"))
    return {"black_stars": {f: 1 for f in losers},
            "terms": {f: [term(Label("勝敗判定で敗北", "Lost the battle roll"), 1, "T-11")] for f in losers},
            "escaped": [f for f in losers if f in esc], "eliminated": [f for f in losers if f not in esc],
            "notes": notes}


def _mod(m: int | Iterable, who: Label) -> list[dict]:
    if isinstance(m, int) and not isinstance(m, bool):
        return [term(Label(f"{who.ja}の補正", f"{who.en} modifier"), m, "T-12")] if m else []
    return [norm_term(t, "T-12") for t in m]


def escape_check(escaper_mod: int | Iterable = 0, pursuer_mod: int | Iterable = 0, dice: Any = None,
                 automatic: bool = False) -> dict:
    """T-12: escaper and pursuer roll 1d100 + modifiers (escaper first); strictly higher escapes."""
    if automatic:
        return {"escaper": None, "pursuer": None, "escaped": True,
                "notes": [note("令呪7の追加1画で自動成功", "Automatic success by one more seal (effect 7)", "T-13")]}
    out: dict[str, Any] = {}
    for key, m, who in (("escaper", escaper_mod, Label("逃走側", "Escaper")),
                        ("pursuer", pursuer_mod, Label("追跡側", "Pursuer"))):
        r = _d100(dice, Label(f"1d100（{who.ja}）", f"1d100 ({who.en})"), "T-12")
        r["terms"] += _mod(m, who)
        r["total"] = sum(t["value"] for t in r["terms"])
        out[key] = r
    out["escaped"] = out["escaper"]["total"] > out["pursuer"]["total"]
    out["notes"] = [note("逃走側が追跡側を上回れば成功（同値は失敗）",
                         "The escape succeeds only when strictly higher (a tie fails)", "T-12")]
    return out


# -- three or more factions (T-14) --------------------------------------------------

def pairings(priority_order: Sequence, fought: Iterable = (), out: Iterable = (),
             readings: Mapping | None = None) -> dict:
    """T-14: the next side to pick an opponent (highest priority not yet fought) and its choices."""
    def key(side: Any) -> Any:
        return tuple(side) if isinstance(side, (list, tuple)) else side
    sides = [key(s) for s in priority_order]
    done, gone = {key(s) for s in fought}, {key(s) for s in out}
    alive = [s for s in sides if s not in gone]
    picker = next((s for s in alive if s not in done), None)
    if picker is None:
        return {"picker": None, "opponents": [], "notes": []}
    pool = [s for s in alive if s != picker]
    if reading(readings, "pairing_opponents") == "unfought":
        pool = [s for s in pool if s not in done]
    notes = [reading_note(readings, "pairing_opponents"),
             note("同盟は1つの側として数える。相手を選ばず戦わないこともできる",
                  "Allies count as one side; the picker may also decline to fight", "T-14")]
    return {"picker": picker, "opponents": pool if pool else [], "notes": notes}
