"""Holy Grail War TRPG (RULES.md T): the fold handlers and readable log lines of the `grail.*` events.

`state.extra["grail"]` is changed only here. Every event names its rule code; every log line
is Japanese first (English with lang="en"), so an export reads like a replay of the combat.
"""

from __future__ import annotations

import copy

from gmtool.core.engine import handles
from gmtool.core.logtext import describes
from gmtool.core.logtext import in_lang as _ja
from gmtool.core.model import State

from .grail_rules import STAT_EN
from .grail_winrate import USE_LIMITS

GM_SIDE = "gm"
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
EVENT_TYPES = (
    "grail.characters_set", "grail.seen_set", "grail.reading_set", "grail.priority_set", "grail.combat_started",
    "grail.select_opened", "grail.setup_done", "grail.select_resolved", "grail.final", "grail.seal_used",
    "grail.modifier_added", "grail.battle_rolled", "grail.battle_decided", "grail.escape", "grail.finished",
    "grail.combat_ended",
)


def empty() -> dict:
    """T: the ruleset's part of a fresh state."""
    return {"characters": {}, "seen": {}, "readings": {}, "combats": [], "out": [], "priority": [],
            "round_start": 0}


def grail_of(state: State) -> dict:
    """T: the ruleset's state (read only outside this module)."""
    return state.extra.get("grail") or empty()


def _g(state: State) -> dict:
    if "grail" not in state.extra:
        state.extra["grail"] = empty()
    return state.extra["grail"]


def combat_of(state: State, combat_id: str) -> dict | None:
    """T-1: the combat named `combat_id`, or None."""
    return next((c for c in grail_of(state)["combats"] if c["id"] == combat_id), None)


def use_limit(combat: dict, side: str, kind: str) -> int:
    """T-3: 2 skills and 2 宝具 per faction and scene; an alliance's side pools its factions' uses."""
    factions = [f for f in combat["sides"][side] if f != GM_SIDE] if isinstance(combat["sides"][side], list) else []
    return USE_LIMITS[kind] * max(1, len(factions))


def _combat(state: State, combat_id: str) -> dict:
    return next(c for c in _g(state)["combats"] if c["id"] == combat_id)


def faction_name(state: State, faction: str) -> str:
    """A faction's display name (the GM's threat side is 'GM（脅威）')."""
    return "GM（脅威）" if faction == GM_SIDE else state.seat_name(faction)


def side_name(state: State, factions: list[str]) -> str:
    """A side's display name: its factions joined with ・."""
    return "・".join(faction_name(state, f) for f in factions)


# -- fold ------------------------------------------------------------------------------

@handles("grail.characters_set")
def _characters_set(state: State, e) -> None:
    chars = _g(state)["characters"]
    new = copy.deepcopy(e.data["characters"])
    chars[e.data["faction"]] = (chars.get(e.data["faction"], []) + new) if e.data.get("append") else new


@handles("grail.seen_set")
def _seen_set(state: State, e) -> None:
    _g(state)["seen"][e.data["faction"]] = list(e.data["seen"])


@handles("grail.reading_set")
def _reading_set(state: State, e) -> None:
    _g(state)["readings"][e.data["key"]] = e.data["value"]


@handles("grail.priority_set")
def _priority_set(state: State, e) -> None:
    g = _g(state)
    g["priority"] = list(e.data["order"])
    if e.data.get("new_round"):
        g["round_start"] = len(g["combats"])


@handles("grail.combat_started")
def _combat_started(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    _g(state)["combats"].append({
        "id": d["id"], "title": d["title"], "sides": d["sides"], "names": d["names"], "declarer": d["declarer"],
        "respondents": d["respondents"], "step": "setup", "prompt": d["prompt"], "setup": None, "forces": None,
        "chars": {}, "caps": None, "selects": [], "carry": None, "uses": {"a": {"skill": 0, "np": 0},
                                                                        "b": {"skill": 0, "np": 0}},
        "np_used": {"a": False, "b": False}, "seals": {"a": [], "b": []}, "modifiers": {"a": [], "b": []},
        "final": None, "battle": None, "winner": None, "escapes": [], "result": None, "readings": d["readings"]})


@handles("grail.select_opened")
def _select_opened(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["step"] = f"select{e.data['select_no']}" if e.data["select_no"] else "setup"
    c["prompt"] = e.data["prompt"]


@handles("grail.setup_done")
def _setup_done(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    c = _combat(state, d["combat"])
    c.update(setup=d["setup"], forces=d["forces"], chars=d["chars"], caps=d["caps"], step="setup_done")
    for side in ("a", "b"):
        c["seals"][side] += d.get("seals", {}).get(side, [])


@handles("grail.select_resolved")
def _select_resolved(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    c = _combat(state, d["combat"])
    c["selects"].append({"select_no": d["select_no"], "choices": d["choices"], "result": d["result"]})
    c.update(caps=d["caps"], uses=d["uses"], np_used=d["np_used"], carry=d["carry_next"],
             step=f"result{d['select_no']}")
    for side in ("a", "b"):
        c["seals"][side] += d.get("seals", {}).get(side, [])


@handles("grail.final")
def _final(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["final"] = copy.deepcopy(e.data["win_rates"])
    c["step"] = "final"


@handles("grail.seal_used")
def _seal_used(state: State, e) -> None:
    d = e.data
    if not d.get("combat"):
        return
    c = _combat(state, d["combat"])
    c["seals"][d["side"]].append({"effect": d["effect"], "faction": d["faction"], **d.get("detail", {})})
    if d["effect"] == 4:
        c["setup"] = copy.deepcopy(d["setup"])
        c["forces"] = copy.deepcopy(d["forces"])


@handles("grail.modifier_added")
def _modifier_added(state: State, e) -> None:
    d = e.data
    _combat(state, d["combat"])["modifiers"][d["side"]].append({"label": d["label"], "value": d["value"],
                                                                "rule": "GM"})


@handles("grail.battle_rolled")
def _battle_rolled(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["battle"] = copy.deepcopy({**e.data["battle"], "win_rates": e.data["win_rates"]})
    c["winner"] = e.data["battle"]["winner"]
    c["step"] = "cleanup" if c["winner"] else "battle"


@handles("grail.battle_decided")
def _battle_decided(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["winner"] = e.data["winner"]
    c["step"] = "cleanup"


@handles("grail.escape")
def _escape(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["escapes"].append(copy.deepcopy({k: v for k, v in e.data.items() if k != "combat"}))
    if e.data.get("ends_combat"):
        c["step"] = "done"
        c["result"] = "escaped"


@handles("grail.finished")
def _finished(state: State, e) -> None:
    g = _g(state)
    c = _combat(state, e.data["combat"])
    c["step"] = "done"
    c["result"] = copy.deepcopy({k: v for k, v in e.data.items() if k != "combat"})
    for f in e.data["eliminated"]:
        if f not in g["out"]:
            g["out"].append(f)


@handles("grail.combat_ended")
def _combat_ended(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["step"] = "done"
    c["result"] = "aborted"


# -- log lines --------------------------------------------------------------------------

def _names(state: State, combat_id: str) -> dict:
    c = combat_of(state, combat_id)
    return c["names"] if c else {"a": "A", "b": "B"}


def _stat(s: str, lang: str) -> str:
    return STAT_EN.get(s, s) if lang == "en" else f"【{s}】"


def _terms(terms: list[dict], lang: str) -> str:
    out = []
    for i, t in enumerate(terms):
        label = t["label"] if isinstance(t["label"], str) else t["label"]["en" if lang == "en" else "ja"]
        value = f"{t['value']}" if i == 0 else f"{t['value']:+d}"
        out.append(f"{label} {value}[{t['rule']}]" if t.get("rule") else f"{label} {value}")
    return " ".join(out)


@describes("grail.characters_set")
def _d_chars(e, state, lang):
    d = e["data"]
    names = "、".join(c["name"] + (f"({c['class_name']})" if c.get("class_name") else "") for c in d["characters"])
    verb = _ja(lang, "追加", "added") if d.get("append") else _ja(lang, "登録", "set")
    return _ja(lang, f"{faction_name(state, d['faction'])}のキャラクターを{verb}: {names}",
               f"Characters of {faction_name(state, d['faction'])} {verb}: {names}")


@describes("grail.seen_set")
def _d_seen(e, state, lang):
    d = e["data"]
    return _ja(lang, f"{faction_name(state, d['faction'])}の真名看破: {len(d['seen'])}体 [T-9]",
               f"{faction_name(state, d['faction'])} has seen through {len(d['seen'])} true name(s) [T-9]")


@describes("grail.reading_set")
def _d_reading(e, state, lang):
    d = e["data"]
    return _ja(lang, f"解釈を変更: {d['key']} = {d['value']} [{d['rule']}]",
               f"Reading changed: {d['key']} = {d['value']} [{d['rule']}]")


@describes("grail.priority_set")
def _d_priority(e, state, lang):
    d = e["data"]
    order = " > ".join(faction_name(state, f) for f in d["order"])
    head = _ja(lang, "新しい巡目。", "New round. ") if d.get("new_round") else ""
    return _ja(lang, f"{head}優先順位: {order} [T-14]", f"{head}Priority: {order} [T-14]")


@describes("grail.combat_started")
def _d_started(e, state, lang):
    d = e["data"]
    return _ja(lang, f"戦闘開始: {d['names']['a']} vs {d['names']['b']}（宣言側: {d['names'][d['declarer']]}）[T-1]",
               f"Combat: {d['names']['a']} vs {d['names']['b']} (declared by {d['names'][d['declarer']]}) [T-1]")


@describes("grail.select_opened")
def _d_select_opened(e, state, lang):
    n = e["data"]["select_no"]
    if not n:
        return _ja(lang, "セットアップを出し直し [T-4]", "Setup opened again [T-4]")
    return _ja(lang, f"{ORDINALS[n]}セレクト: 各陣営が秘密で戦力を選択 [T-5]",
               f"{ORDINALS[n]} select: each side chooses a stat in secret [T-5]")


def _setup_side(setup: dict, chars: dict, lang: str) -> str:
    def name(cid):
        return chars.get(cid, {}).get("name", cid)
    parts = [_ja(lang, f"メイン{name(setup['main'])}", f"main {name(setup['main'])}")]
    if setup.get("sub"):
        parts.append(_ja(lang, f"サブ{name(setup['sub'])}", f"sub {name(setup['sub'])}"))
    if setup.get("others"):
        parts.append(_ja(lang, "その他", "others ") + "・".join(name(o) for o in setup["others"]))
    return " ".join(parts)


@describes("grail.setup_done")
def _d_setup(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    out = []
    for side in ("a", "b"):
        s = d["setup"][side]
        forces = " ".join(f"{_stat(k, lang)}{v['value']}" for k, v in d["forces"][side].items())
        out.append(f"{names[side]}: {_setup_side(s, d['chars'], lang)} / {_ja(lang, '戦力', 'force')} {forces}")
    return _ja(lang, "セットアップ [T-4]: ", "Setup [T-4]: ") + "; ".join(out)


@describes("grail.select_resolved")
def _d_select(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    r = d["result"]
    rows = [f"{names[s]} {_stat(r[s]['stat'], lang)} {_terms(r[s]['terms'], lang)} = {r[s]['value']}" for s in "ab"]
    if r["winner"]:
        verdict = _ja(lang, f"{names[r['winner']]}が優位", f"{names[r['winner']]} gains 優位")
    else:
        verdict = _ja(lang, "同値: 優位なし", "tie: no advantage")
    extra = []
    if r.get("magic_carry"):
        extra.append(_ja(lang, f"{names[r['magic_carry']]}は次の提出に魔力+10", f"{names[r['magic_carry']]}: MAG +10 next"))
    if r.get("luck_bonus"):
        extra.append(_ja(lang, f"{names[r['luck_bonus']]}に幸運ボーナス", f"LUK bonus for {names[r['luck_bonus']]}"))
    if r.get("luck_void"):
        extra.append(_ja(lang, f"{names[r['luck_void']]}の宝具で相手の幸運ボーナス無効",
                         f"{names[r['luck_void']]}'s NP voids the opponent's LUK bonus"))
    tail = f"（{'、'.join(extra)}）" if extra else ""
    return (_ja(lang, f"{ORDINALS[d['select_no']]}リザルト [T-6/T-7]: ", f"{ORDINALS[d['select_no']]} result [T-6/T-7]: ")
            + " vs ".join(rows) + f" → {verdict}{tail}")


@describes("grail.final")
def _d_final(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    rows = [f"{names[s]} {_ja(lang, '勝率', 'win rate')} {_terms(d['win_rates'][s]['terms'], lang)} = "
            f"{d['win_rates'][s]['total']}" for s in "ab"]
    return _ja(lang, "ファイナルリザルト [T-9]: ", "Final result [T-9]: ") + "; ".join(rows)


@describes("grail.seal_used")
def _d_seal(e, state, lang):
    d = e["data"]
    detail = d.get("text", {}).get("en" if lang == "en" else "ja", "")
    return _ja(lang, f"{faction_name(state, d['faction'])}が令呪{d['effect']}を使用（{d['cost']}画）: {detail} [T-13]",
               f"{faction_name(state, d['faction'])} uses Command Seal {d['effect']} ({d['cost']}): {detail} [T-13]")


@describes("grail.modifier_added")
def _d_modifier(e, state, lang):
    d = e["data"]
    name = _names(state, d["combat"])[d["side"]]
    return _ja(lang, f"{name}の勝率に修正 {d['value']:+d}〈{d['label']}〉", f"Win rate modifier {d['value']:+d} <{d['label']}> for {name}")


@describes("grail.battle_rolled")
def _d_battle(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    parts = []
    for row in d["battle"]["rolls"]:
        rolls = " vs ".join(f"{names[s]} 1d100({row[s]['die']}) + {_ja(lang, '勝率', 'win rate')}{row[s]['rate']} = "
                            f"{row[s]['total']}" for s in "ab")
        parts.append(rolls + (_ja(lang, "（同値）", " (tie)") if row["tie"] else ""))
    w = d["battle"]["winner"]
    verdict = _ja(lang, f"{names[w]}の勝ち", f"{names[w]} wins") if w else _ja(lang, "同値: 監督役が決める", "tie: the GM decides")
    return _ja(lang, "勝敗判定 [T-10]: ", "Battle roll [T-10]: ") + " / ".join(parts) + f" → {verdict}"


@describes("grail.battle_decided")
def _d_decided(e, state, lang):
    d = e["data"]
    name = _names(state, d["combat"])[d["winner"]]
    return _ja(lang, f"監督役の裁定: {name}の勝ち [T-10]", f"GM ruling: {name} wins [T-10]")


@describes("grail.escape")
def _d_escape(e, state, lang):
    d = e["data"]
    who = faction_name(state, d["faction"])
    if d.get("let_go"):
        return _ja(lang, f"{who}は見逃されて離脱 [T-12]", f"{who} is let go [T-12]")
    cost = f"{_ja(lang, '令呪', 'seals ')}{d['cost']['cost']}{_ja(lang, '画', '')}" if d.get("cost") else ""
    ch = d["check"]
    if ch.get("escaper"):
        roll = (f"{_ja(lang, '逃走', 'escaper')} {_terms(ch['escaper']['terms'], lang)} = {ch['escaper']['total']} vs "
                f"{_ja(lang, '追跡', 'pursuer')} {_terms(ch['pursuer']['terms'], lang)} = {ch['pursuer']['total']}")
    else:
        roll = _ja(lang, "自動成功", "automatic success")
    verdict = _ja(lang, "逃走成功", "escaped") if d["escaped"] else _ja(lang, "逃走失敗", "failed to escape")
    return _ja(lang, f"{who}の逃走判定 [T-12]（{cost}）: {roll} → {verdict}",
               f"Escape check of {who} [T-12] ({cost}): {roll} → {verdict}")


@describes("grail.finished")
def _d_finished(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    stars = "、".join(faction_name(state, f) for f in d["black_stars"]) or "-"
    out = "、".join(faction_name(state, f) for f in d["eliminated"]) or _ja(lang, "なし", "none")
    return _ja(lang, f"クリンナップ [T-11]: {names[d['winner']]}の勝利。黒星: {stars}。敗退: {out}",
               f"Cleanup [T-11]: {names[d['winner']]} won. 黒星: {stars}. Eliminated: {out}")


@describes("grail.combat_ended")
def _d_ended(e, state, lang):
    reason = e["data"].get("reason") or ""
    return _ja(lang, f"戦闘を打ち切り{('（' + reason + '）') if reason else ''}",
               f"Combat ended early{(' (' + reason + ')') if reason else ''}")
