"""Holy Grail War TRPG (RULES.md T): the fold handlers and readable log lines of the `grail.*` events.

`state.extra["grail"]` is changed only here. Every event names its rule code; every log line
is Japanese first (English with lang="en"), so an export reads like a replay of the combat.
"""

from __future__ import annotations

import copy

from gmtool.core.logtext import in_lang as _ja
from gmtool.core.logtext import minus_sign
from gmtool.core.model import Event, State, Viewer, text_in
from gmtool.core.ruleset import PUBLIC, EventType, custom

from .rules import STAT_EN, force_label
from .sheets import effect_text, skill_label, use_label
from .winrate import SEAL_EFFECTS, USE_LIMITS, seal_cost_words, seal_done

GM_SIDE = "gm"
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def empty() -> dict:
    """T: the ruleset's part of a fresh state."""
    return {"characters": {}, "seen": {}, "seen_unrecorded": {}, "combats": [], "out": [], "priority": [], "round_start": 0,
            "passed": []}


def grail_of(state: State) -> dict:
    """T: the ruleset's state (read only outside this module)."""
    return state.extra.get("grail") or empty()


def gm_combatant(state: State) -> bool:
    """T-2: the GM is a combatant (PL対GM) when it controls a faction: the GM side has characters or fights."""
    g = grail_of(state)
    if g["characters"].get(GM_SIDE):
        return True
    return any(GM_SIDE in (members if isinstance(members, list) else [members])
               for c in g["combats"] for members in c.get("sides", {}).values())


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
    """A faction's display name; the GM's threat side is "GM", a name in both languages (it was 「GM（脅威）」, stored in
    a combat's names and read on English screens too; combats stored so keep it)."""
    return "GM" if faction == GM_SIDE else state.seat_name(faction)


def side_name(state: State, factions: list[str]) -> str:
    """A side's display name: its factions joined with ・."""
    return "・".join(faction_name(state, f) for f in factions)


# -- fold ------------------------------------------------------------------------------

def _characters_set(state: State, e) -> None:
    chars = _g(state)["characters"]
    new = copy.deepcopy(e.data["characters"])
    chars[e.data["faction"]] = (chars.get(e.data["faction"], []) + new) if e.data.get("append") else new


def _skill_set(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    if "skill" not in d:  # a public export's: the sheet's skill is the faction's (T-9), its change left out
        return
    for c in _g(state)["characters"].get(d["faction"], []):
        if c["id"] != d["character"]:
            continue
        skills = c.setdefault("skills", [])
        if d["op"] == "add":
            skills.append(d["skill"])
        elif d["op"] == "edit":
            c["skills"] = [d["skill"] if k["id"] == d["skill"]["id"] else k for k in skills]
        else:
            c["skills"] = [k for k in skills if k["id"] != d["skill"]["id"]]


def _seen_set(state: State, e) -> None:
    g, faction = _g(state), e.data["faction"]
    unrecorded = g["seen_unrecorded"]
    if "seen" in e.data:
        g["seen"][faction] = list(e.data["seen"])
        unrecorded.pop(faction, None)
    else:  # a public export's holds what the table read: how many, and the shown combat's 真名看破 term (_seen, T-9)
        g["seen"].pop(faction, None)
        unrecorded[faction] = {k: e.data[k] for k in ("count", "combat_seen") if k in e.data}


def _starting_seals_set(state: State, e) -> None:
    _g(state)["starting_seals"] = e.data["value"]


def _priority_set(state: State, e) -> None:
    g = _g(state)
    g["priority"] = list(e.data["order"])
    if e.data.get("new_round"):
        g["round_start"] = len(g["combats"])
        g["passed"] = []


def old_title(title: str, names: dict) -> dict:
    """A combat title stored as plain text (gmtool 0.1 stored even the default one so) as `{ja, en}`: the default
    「戦闘: A vs B」 of its own sides reads "Combat: A vs B" in English, as a new combat's default does; any other
    (one the GM typed) reads the same in both."""
    if title == f"戦闘: {names['a']} vs {names['b']}":
        return {"ja": title, "en": f"Combat: {names['a']} vs {names['b']}"}
    return {"ja": title, "en": title}


def old_scene_title(state: State, title: str) -> dict | None:
    """The scene heading an older gmtool wrote for a combat as plain text (0.1: 「戦闘: A vs B」, the combat's own title)
    as that combat's title reads (old_title: its default in English as a new one's, "Combat: A vs B"); None for any
    other plain heading (one the GM typed stays as typed)."""
    combats = state.extra.get("grail", {}).get("combats", [])  # (read only: a view's state is not folded here)
    return next((c["title"] for c in combats if isinstance(c["title"], dict) and c["title"].get("ja") == title), None)


def _combat_started(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    if not isinstance(d["title"], dict):  # a title stored as plain text before titles were {ja, en}
        d["title"] = old_title(str(d["title"]), d["names"])
    _g(state)["combats"].append({
        "id": d["id"], "title": d["title"], "sides": d["sides"], "names": d["names"], "declarer": d["declarer"],
        "respondents": d["respondents"], "step": "setup", "prompt": d["prompt"], "setup": None, "forces": None,
        "chars": {}, "caps": None, "selects": [], "carry": None, "uses": {"a": {"skill": 0, "np": 0},
                                                                        "b": {"skill": 0, "np": 0}},
        "np_used": {"a": False, "b": False}, "seals": {"a": [], "b": []}, "modifiers": {"a": [], "b": []},
        "final": None, "battle": None, "winner": None, "escapes": [], "result": None, "readings": d["readings"]})


def _select_opened(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["step"] = f"select{e.data['select_no']}" if e.data["select_no"] else "setup"
    c["prompt"] = e.data["prompt"]


def _setup_done(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    c = _combat(state, d["combat"])
    c.update(setup=d["setup"], forces=d["forces"], chars=d["chars"], caps=d.get("caps"), step="setup_done")
    c.update({k: d[k] for k in ("uses", "faction_uses", "used_skills") if k in d})
    for side in ("a", "b"):
        c["seals"][side] += d.get("seals", {}).get(side, [])


def _select_resolved(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    c = _combat(state, d["combat"])
    c["before_select"] = copy.deepcopy({k: c[k] for k in ("caps", "uses", "faction_uses", "used_skills", "np_used",
                                                          "carry", "setup", "forces") if k in c})
    c["selects"].append({"select_no": d["select_no"], "choices": d["choices"], "result": d["result"]})
    c.update(caps=d.get("caps"), uses=d["uses"], np_used=d["np_used"], carry=d["carry_next"],
             step=f"result{d['select_no']}")
    c.update({k: d[k] for k in ("faction_uses", "used_skills") if k in d})
    for side in ("a", "b"):
        c["seals"][side] += d.get("seals", {}).get(side, [])


def _select_revised(state: State, e) -> None:
    """T-6: a result skill used after the confirm: the last result computed again replaces it, in the combat and
    in its select's prompt (the card every screen shows reads the revised result; what the confirm applied stays
    in the resolution's events)."""
    d = copy.deepcopy(e.data)
    c = _combat(state, d["combat"])
    c["selects"] = [({"select_no": d["select_no"], "choices": d["choices"], "result": d["result"]}
                     if s["select_no"] == d["select_no"] else s) for s in c["selects"]]
    c.update(caps=d.get("caps"), uses=d["uses"], np_used=d["np_used"], carry=d["carry_next"])
    c.update({k: d[k] for k in ("faction_uses", "used_skills") if k in d})
    prompt = state.prompts.get(c["prompt"])
    if prompt is not None and prompt.meta.get("select_no") == d["select_no"] and prompt.resolution:
        prompt = state.writable_prompt(prompt.id)
        prompt.resolution = {**prompt.resolution,
                             **select_resolution(d["select_no"], d["result"], c["names"], prompt.meta["respondents"])}


def select_resolution(n: int, result: dict, names: dict, respondents: dict) -> dict:
    """T-6/T-7: what a select's prompt card shows of its result: the summary, the winner, a row per side with
    its terms, the notes (flow.resolve_select, and a result revised after the confirm)."""
    winner = result["winner"]
    verdict = (f"{names[winner]}が優位", f"{names[winner]} gains the advantage") if winner else \
        ("同値: 優位なし", "Tie: no advantage")
    line = " vs ".join(f"{names[s]}【{result[s]['stat']}】{result[s]['value']}" for s in "ab")
    line_en = " vs ".join(f"{names[s]} {STAT_EN[result[s]['stat']]} {result[s]['value']}" for s in "ab")
    return {"summary": {"ja": f"{ORDINALS[n]}リザルト: {line} → {verdict[0]}",
                        "en": f"{ORDINALS[n]} result: {line_en} → {verdict[1]}"},
            "winners": [respondents[winner]] if winner else [],
            "rows": [{"who": respondents[s], "name": names[s], "value": result[s]["stat"], "terms": result[s]["terms"],
                      "total": result[s]["value"]} for s in "ab"],
            "notes": result["notes"], "result": result}


def _skill_used(state: State, e) -> None:
    """T-11/T-3: a cleanup skill: its faction's T-3 use, its 宝具 spent, its stat change in the cap tracker."""
    d = copy.deepcopy(e.data)
    c = _combat(state, d["combat"])
    u = d["use"]
    if "faction_uses" not in c:
        c["faction_uses"] = {c["sides"][s][0]: dict(c["uses"][s]) for s in ("a", "b")}
    if u.get("faction") and u["kind"] in USE_LIMITS:
        f = c["faction_uses"].setdefault(u["faction"], {k: 0 for k in USE_LIMITS})
        f[u["kind"]] = f.get(u["kind"], 0) + 1
        c["uses"][u["side"]][u["kind"]] += 1
    if u.get("skill"):
        c.setdefault("used_skills", []).append(u["skill"])
    c["caps"] = d.get("caps")  # (none in a public export: flow.need_caps)
    c.setdefault("cleanup_skills", []).append({k: d[k] for k in ("use", "applied", "by_hand", "notes")})


def _final(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["final"] = copy.deepcopy(e.data["win_rates"])
    c["step"] = "final"


def _seal_used(state: State, e) -> None:
    d = e.data
    if not d.get("combat"):
        return
    c = _combat(state, d["combat"])
    c["seals"][d["side"]].append({"effect": d["effect"], "faction": d["faction"], **d.get("detail", {})})
    if d["effect"] == 4:
        c["setup"] = copy.deepcopy(d["setup"])
        c["forces"] = copy.deepcopy(d["forces"])


def _modifier_added(state: State, e) -> None:
    d = e.data
    if isinstance(d["value"], bool) or not isinstance(d["value"], int):  # add_modifier writes a whole number: a log
        raise ValueError("a win-rate modifier is a whole number")  # holding another (a crafted import) does not fold
    c = _combat(state, d["combat"])
    skill = d.get("kind") in USE_LIMITS
    c["modifiers"][d["side"]].append({"label": d["label"], "value": d["value"], "rule": "T-9" if skill else "GM",
                                      **({"kind": d["kind"]} if skill else {})})
    if d.get("counts") and skill:  # a battle-timing skill (use_skill): its T-3 use, its 宝具 spent
        fu = c.setdefault("faction_uses", {})
        f = fu.setdefault(d["faction"], {k: 0 for k in USE_LIMITS})
        f[d["kind"]] += 1
        c["uses"][d["side"]][d["kind"]] += 1
        if d.get("skill"):
            c.setdefault("used_skills", []).append(d["skill"])


def _step_modifier(state: State, e) -> None:
    d = copy.deepcopy(e.data)
    c = _combat(state, d["combat"])
    c.setdefault("step_mods", {}).setdefault(d["prompt"], []).append(d["use"])


def _pick_passed(state: State, e) -> None:
    _g(state).setdefault("passed", []).append(e.data["faction"])


def _d_step_modifier(e, state, lang):
    u = e["data"]["use"]
    names = _names(state, e["data"]["combat"])
    value = minus_sign(u["value"], True) if u.get("value") is not None else ""
    stat = _stat(u["stat"], lang) if u.get("stat") else ""
    label = use_label(u["kind"], u["name"])  # as the breakdown names it
    return _ja(lang, f"{names[u['side']]}: {label.ja}{stat}{value} [T-8]",
               f"{names[u['side']]}: {label.en} {' '.join(filter(None, (stat, value)))} [T-8]")


def _d_pick_passed(e, state, lang):
    who = faction_name(state, e["data"]["faction"])
    return _ja(lang, f"{who}は今回戦わない [T-14]", f"{who} declines to fight [T-14]")


def _battle_rolled(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["battle"] = copy.deepcopy({**e.data["battle"], "win_rates": e.data["win_rates"],
                                 "entered": bool(e.data.get("entered"))})  # T-10: rolled from real-dice faces
    c["winner"] = e.data["battle"]["winner"]
    c["step"] = "cleanup" if c["winner"] else "battle"


def _battle_decided(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["winner"] = e.data["winner"]
    c["step"] = "cleanup"


def _escape(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["escapes"].append(copy.deepcopy({k: v for k, v in e.data.items() if k != "combat"}))
    c["escape_action"] = e.action  # the table's stage shows the newest escape while its action is the newest
    if e.data.get("ends_combat"):
        c["step"] = "done"
        c["result"] = "escaped"


def _finished(state: State, e) -> None:
    g = _g(state)
    c = _combat(state, e.data["combat"])
    c["step"] = "done"
    c["result"] = copy.deepcopy({k: v for k, v in e.data.items() if k != "combat"})
    for f in e.data["eliminated"]:
        if f not in g["out"]:
            g["out"].append(f)


def _combat_ended(state: State, e) -> None:
    c = _combat(state, e.data["combat"])
    c["step"] = "done"
    c["result"] = "aborted"


# -- log lines --------------------------------------------------------------------------

def _names(state: State, combat_id: str) -> dict:
    c = combat_of(state, combat_id)
    return c["names"] if c else {"a": "A", "b": "B"}


def combat_line(e: Event, state: State) -> tuple:
    """What a grail log line reads besides the event's data and the seats' names (core/view.py line_key): the names
    of its combat's sides as the combat started (`_names`). The lines of sheets, seen-through characters and true
    names (characters_set, skill_set, seen_set) declare none: they are made again each change."""
    combat = e.data.get("combat")
    return tuple(_names(state, combat).items()) if combat else ()


def _stat(s: str, lang: str) -> str:
    return STAT_EN.get(s, s) if lang == "en" else f"【{s}】"


def label_and_value(label: str, value: str) -> str:
    """A term's label and its value, the value left out when the label already ends with it: a signed one
    (令呪2: 宝具+30), or any after an arrow (「(優位2 − 劣位1) × 20 → 20」, the first term, unsigned). An unsigned value
    that only happens to end the label is kept (「× 20」 is not the amount)."""
    plain, amount = label.replace("−", "-"), value.replace("−", "-")
    said = plain.endswith(amount) if value[:1] in "+-−" else plain.endswith(f"→ {amount}")
    return label if said else f"{label} {value}"


def _term(t: dict, i: int, lang: str, rule: bool = True) -> str:
    """The `i`th term of a breakdown: its label and value (the first as it is, the later ones signed), its rule."""
    label = t["label"] if isinstance(t["label"], str) else t["label"]["en" if lang == "en" else "ja"]
    text = label_and_value(label, minus_sign(t["value"], signed=i > 0))  # later terms signed, with a real minus (−)
    return f"{text} [{t['rule']}]" if rule and t.get("rule") else text


def _terms(terms: list[dict], lang: str) -> str:
    return " ".join(_term(t, i, lang) for i, t in enumerate(terms))


def _bracket(terms: list[dict], lang: str) -> str:
    """T-6/T-7: a select's breakdown in one bracket: the force, then every modifier with its rule."""
    parts = [_term(t, i, lang, rule=i > 0) for i, t in enumerate(terms)]
    return f"（{'、'.join(parts)}）" if lang != "en" else f" ({', '.join(parts)})"


def _d_chars(e, state, lang):
    d = e["data"]
    names = _ja(lang, "、", ", ").join(c["name"] + (f"({c['class_name']})" if c.get("class_name") else "") for c in d["characters"])
    verb = _ja(lang, "追加", "added") if d.get("append") else _ja(lang, "登録", "set")
    return _ja(lang, f"{faction_name(state, d['faction'])}のキャラクターを{verb}: {names}",
               f"Characters of {faction_name(state, d['faction'])} {verb}: {names}")


def _character_display(state: State, faction: str, cid: str) -> str:
    c = next((c for c in grail_of(state)["characters"].get(faction, []) if c["id"] == cid), None)
    return c["name"] if c else str(cid).split("/", 1)[-1]


def _d_skill_set(e, state, lang):
    d = e["data"]
    who = f"{faction_name(state, d['faction'])} {_character_display(state, d['faction'], d['character'])}"
    verb = {"add": ("を追加", "added"), "edit": ("を変更", "changed"), "remove": ("を削除", "removed")}[d["op"]]
    k = d.get("skill")
    if not k:  # the sheet is not this viewer's to see (T-9)
        return _ja(lang, f"{who}: スキル・宝具{verb[0]}", f"{who}: a skill / NP {verb[1]}")
    label, eff = skill_label(k), effect_text(k)
    return _ja(lang, f"{who}: {label.ja}{verb[0]}（{eff.ja}）", f"{who}: {label.en} {verb[1]} ({eff.en})")


def _d_seen(e, state, lang):
    d = e["data"]
    n = d.get("count", len(d.get("seen", [])))
    return _ja(lang, f"{faction_name(state, d['faction'])}の真名看破: {n}体 [T-9]",
               f"{faction_name(state, d['faction'])} has seen through {n} true name(s) [T-9]")


def _d_starting_seals(e, state, lang):
    v = e["data"]["value"]
    return _ja(lang, f"令呪の初期値を{v}画に設定 [T-13]", f"Every faction starts with {v} Command Seals [T-13]")


def _d_priority(e, state, lang):
    d = e["data"]
    order = " > ".join(faction_name(state, f) for f in d["order"])
    head = _ja(lang, "新しい巡目。", "New round. ") if d.get("new_round") else ""
    return _ja(lang, f"{head}優先順位: {order} [T-14]", f"{head}Priority: {order} [T-14]")


def _d_started(e, state, lang):
    d = e["data"]
    return _ja(lang, f"戦闘開始: {d['names']['a']} vs {d['names']['b']}（宣言側: {d['names'][d['declarer']]}）[T-1]",
               f"Combat: {d['names']['a']} vs {d['names']['b']} (declared by {d['names'][d['declarer']]}) [T-1]")


def _d_select_opened(e, state, lang):
    n = e["data"]["select_no"]
    if not n:
        return _ja(lang, "セットアップを出し直し [T-4]", "Setup opened again [T-4]")
    return _ja(lang, f"{ORDINALS[n]}セレクト: 各陣営が秘密で戦力を選択 [T-5]",
               f"{ORDINALS[n]} select: each side chooses a stat in secret [T-5]")


def _setup_side(setup: dict, chars: dict, lang: str) -> str:
    def name(cid):
        return chars.get(cid, {}).get("name", cid)
    parts = [_ja(lang, f"メイン {name(setup['main'])}", f"main {name(setup['main'])}")]
    if setup.get("sub"):
        parts.append(_ja(lang, f"サブ {name(setup['sub'])}", f"sub {name(setup['sub'])}"))
    if setup.get("others"):
        parts.append(_ja(lang, "その他 ", "others ") + "・".join(name(o) for o in setup["others"]))
    return " ".join(parts)


def _d_setup(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    out = []
    for side in ("a", "b"):
        s = d["setup"][side]
        forces = " ".join(f"{_stat(k, lang)}{' ' if lang == 'en' else ''}{v['value']}" for k, v in d["forces"][side].items())
        out.append(f"{names[side]}: {_setup_side(s, d['chars'], lang)} / {_ja(lang, '戦力', 'force')} {forces}")
    return _ja(lang, "セットアップ [T-4]: ", "Setup [T-4]: ") + "; ".join(out)


def _d_select(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    r = d["result"]
    sp = " " if lang == "en" else ""
    rows = [f"{names[s]}{sp}{_stat(r[s]['stat'], lang)}{sp}{r[s]['value']}{_bracket(r[s]['terms'], lang)}" for s in "ab"]
    return (_ja(lang, f"{ORDINALS[d['select_no']]}リザルト [T-6/T-7]: ", f"{ORDINALS[d['select_no']]} result [T-6/T-7]: ")
            + " vs ".join(rows) + select_outcome(r, names, lang))


def select_outcome(r: dict, names: dict, lang: str) -> str:
    """T-6/T-7: " → who gains the advantage (and what carries to the next select)" of a select's result."""
    if r["winner"]:
        verdict = _ja(lang, f"{names[r['winner']]}が優位", f"{names[r['winner']]} gains the advantage")
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
    tail = (f" ({'; '.join(extra)})" if lang == "en" else f"（{'、'.join(extra)}）") if extra else ""
    return f" → {verdict}{tail}"


def _d_select_revised(e, state, lang):
    u = e["data"].get("use") or {}
    head = _ja(lang, f"リザルトのスキル〈{u.get('name', '')}〉で再計算 [T-6]: ",
               f"Computed again with the result skill <{u.get('name', '')}> [T-6]: ")
    return head + _d_select(e, state, lang)


def _d_skill_used(e, state, lang):
    d = e["data"]
    u = d["use"]
    who = _names(state, d["combat"])[u["side"]]
    if u.get("faction") and u["faction"] != GM_SIDE:
        who = faction_name(state, u["faction"])
    label = skill_label({"kind": u["kind"], "name": u["name"]})
    parts = []
    for a in d["applied"]:
        moved = minus_sign(a["requested"], True) + (f" → {minus_sign(a['applied'], True)}" if a["clipped"] else "")
        parts.append(f"{a['name']}{_stat(a['stat'], lang)}{moved} [{a['rule']}]" if lang != "en" else
                     f"{a['name']} {_stat(a['stat'], lang)} {moved} [{a['rule']}]")
    if d.get("by_hand"):
        parts.append(_ja(lang, "GMが適用", "applied by the GM"))
    if u.get("mp"):
        parts.append(f"MP{minus_sign(-u['mp'])}")
    return _ja(lang, f"クリンナップ [T-11]: {who} {label.ja}（{'、'.join(parts)}）",
               f"Cleanup [T-11]: {who} {label.en} ({', '.join(parts)})")


def _d_final(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    rows = [f"{names[s]} {_ja(lang, '勝率', 'win rate')} {_terms(d['win_rates'][s]['terms'], lang)} = "
            f"{minus_sign(d['win_rates'][s]['total'])}" for s in "ab"]
    return _ja(lang, "ファイナルリザルト [T-9]: ", "Final result [T-9]: ") + "; ".join(rows)


def _d_seal(e, state, lang):
    """T-13: who used which seal, how many it cost and what it did. A use of 3 or 5 stored before `done` existed
    carries the console's option as what it did (「MP+3（即座に、公開可）」): it reads as today's words."""
    d = e["data"]
    text = d.get("text") or {}
    if d["effect"] in SEAL_EFFECTS and text == SEAL_EFFECTS[d["effect"]]["label"].to_dict():
        text = seal_done(d["effect"]).to_dict()
    detail, who, n = text_in(text, lang), faction_name(state, d["faction"]), d["cost"]
    return _ja(lang, f"{who}が令呪{d['effect']}を使用（{n}画）: {detail} [T-13]",
               f"{who} uses Command Seal {d['effect']} ({n} seal{'' if n == 1 else 's'}): {detail} [T-13]")


def _d_modifier(e, state, lang):
    d = e["data"]
    name = _names(state, d["combat"])[d["side"]]
    value = minus_sign(d["value"], True)
    return _ja(lang, f"{name}の勝率に修正 {value}〈{d['label']}〉", f"Win rate modifier {value} <{d['label']}> for {name}")


def _d_battle(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    parts = []
    for row in d["battle"]["rolls"]:
        rolls = " vs ".join(f"{names[s]} 1d100({row[s]['die']}) + {_ja(lang, '勝率', 'win rate ')}{minus_sign(row[s]['rate'])} = "
                            f"{minus_sign(row[s]['total'])}" for s in "ab")
        parts.append(rolls + (_ja(lang, "（同値）", " (tie)") if row["tie"] else ""))
    w = d["battle"]["winner"]
    verdict = _ja(lang, f"{names[w]}の勝ち", f"{names[w]} wins") if w else _ja(lang, "同値: 監督役が決める", "tie: the GM decides")
    real = _ja(lang, "［実ダイス］", "[real dice] ") if d.get("entered") else ""
    return real + _ja(lang, "勝敗判定 [T-10]: ", "Battle roll [T-10]: ") + " / ".join(parts) + f" → {verdict}"


def _d100_text(r: dict) -> str:
    """A 1d100 roll with its modifiers (the terms after the die) as the screens' roll lists read it."""
    mod = r["total"] - r["die"]
    return f"1D100 → [{r['die']}]" + (f" {minus_sign(mod, True)}" if mod else "") + f" → {r['total']}"


def _battle_rolls(d: dict, state: State) -> list[dict]:
    """T-10: each side's 1d100 + 勝率 (a tie rolled again) on the screens' roll lists; the winner's last roll succeeds.
    No roller is named (by None): the label names the side, and the GM who took the step did not roll for it."""
    names, out = _names(state, d["combat"]), []
    rows, winner = d["battle"]["rolls"], d["battle"]["winner"]
    for n, row in enumerate(rows):
        for s in "ab":
            last = n == len(rows) - 1 and winner
            out.append({"by": None, "label": {"ja": f"勝敗判定 {names[s]} [T-10]", "en": f"Battle roll: {names[s]} [T-10]"},
                        "text": _d100_text(row[s]), "total": row[s]["total"],
                        "success": (s == winner) if last else None, "entered": d.get("entered", False)})
    return out


def _escape_rolls(d: dict, state: State) -> list[dict]:
    """T-12: the escaper's and the pursuer's 1d100 on the screens' roll lists (none when let go or automatic)."""
    check = d.get("check") or {}
    if not check.get("escaper"):
        return []
    who = faction_name(state, d["faction"])
    return [{"by": None, "label": {"ja": f"逃走判定 {who}（逃走側） [T-12]", "en": f"Escape check: {who} (escaper) [T-12]"},
             "text": _d100_text(check["escaper"]), "total": check["escaper"]["total"], "success": bool(d["escaped"]),
             "entered": d.get("entered", False)},
            {"by": None, "label": {"ja": "逃走判定（追跡側） [T-12]", "en": "Escape check (pursuer) [T-12]"},
             "text": _d100_text(check["pursuer"]), "total": check["pursuer"]["total"],
             "entered": d.get("entered", False)}]


def _d_decided(e, state, lang):
    d = e["data"]
    name = _names(state, d["combat"])[d["winner"]]
    return _ja(lang, f"監督役の裁定: {name}の勝ち [T-10]", f"GM ruling: {name} wins [T-10]")


def _d_escape(e, state, lang):
    d = e["data"]
    who = faction_name(state, d["faction"])
    if d.get("let_go"):
        return _ja(lang, f"{who}は見逃されて離脱 [T-12]", f"{who} is let go [T-12]")
    cost = seal_cost_words(d).get(lang) if d.get("cost") else ""
    ch = d["check"]
    if ch.get("escaper"):
        roll = (f"{_ja(lang, '逃走', 'escaper')} {_terms(ch['escaper']['terms'], lang)} = {ch['escaper']['total']} vs "
                f"{_ja(lang, '追跡', 'pursuer')} {_terms(ch['pursuer']['terms'], lang)} = {ch['pursuer']['total']}")
    else:
        roll = _ja(lang, "自動成功", "automatic success")
    verdict = _ja(lang, "逃走成功", "escaped") if d["escaped"] else _ja(lang, "逃走失敗", "failed to escape")
    real = _ja(lang, "［実ダイス］", "[real dice] ") if d.get("entered") else ""
    paid = _ja(lang, f"、{cost}", f", {cost}") if cost else ""
    return real + _ja(lang, f"{who}の逃走判定 [T-12]{paid}: {roll} → {verdict}",
                      f"Escape check of {who} [T-12]{paid}: {roll} → {verdict}")


def _d_finished(e, state, lang):
    d = e["data"]
    names = _names(state, d["combat"])
    stars = _ja(lang, "、", ", ").join(faction_name(state, f) for f in d["black_stars"]) or "-"
    out = _ja(lang, "、", ", ").join(faction_name(state, f) for f in d["eliminated"]) or _ja(lang, "なし", "none")
    return _ja(lang, f"クリンナップ [T-11]: {names[d['winner']]}の勝利。黒星: {stars}。敗退: {out}",
               f"Cleanup [T-11]: {names[d['winner']]} won. Black stars: {stars}. Eliminated: {out}")


def _d_ended(e, state, lang):
    reason = e["data"].get("reason") or ""
    return _ja(lang, f"戦闘を打ち切り{('（' + reason + '）') if reason else ''}",
               f"Combat ended early{(' (' + reason + ')') if reason else ''}")


# -- visibility: true names and stats stay with their faction (T-2, T-9) --------------------------

def can_see_character(state: State, viewer: Viewer, character: dict) -> bool:
    """T-9: a character's true name and stats are seen by the GM, its own faction and the factions
    that saw through it (真名看破)."""
    if viewer.is_gm:
        return True
    me = viewer.seat
    return me is not None and (character.get("faction") == me or character.get("id") in _seen_by(state, me))


def _seen_by(state: State, faction: str) -> list:
    return grail_of(state)["seen"].get(faction, [])


def public_character(character: dict) -> dict:
    """T-2: what everyone may know of a character: its display name, class and faction."""
    return {k: v for k, v in character.items() if k not in ("true_name", "stats", "skills")}


def _characters(data: dict, event, state: State, viewer: Viewer) -> dict:
    shown = [c if can_see_character(state, viewer, c) else public_character(c) for c in data["characters"]]
    return {**data, "characters": shown}


def _skill_sheet(data: dict, event, state: State, viewer: Viewer) -> dict:
    """T-9: a sheet's skill is seen as the sheet is: by the GM, its faction and those that saw through it."""
    if can_see_character(state, viewer, {"faction": data["faction"], "id": data["character"]}):
        return data
    return {k: data[k] for k in ("faction", "character", "op")}


def _seen(data: dict, event, state: State, viewer: Viewer) -> dict:
    """T-9: whom a faction saw through is its own (and the GM's); everyone else reads what the screens show them: how
    many (`count`), and the 真名看破 term its side's win rate counts in the combat on the screens (`combat_seen`), which
    a public export keeps so that its import shows what the table saw."""
    if viewer.is_gm or viewer.seat == data["faction"] or "seen" not in data:  # (a public export's: read as it is)
        return data
    out = {"faction": data["faction"], "count": len(data["seen"])}
    combat = shown_combat(state)
    side = next((s for s in ("a", "b") if combat and data["faction"] in combat["sides"][s]), None)
    if side is not None and combat.get("setup"):  # its win rates are on the screens from the setup on
        out["combat_seen"] = {"combat": combat["id"], "count": seen_count(state, combat, side)}
    return out


def other(side: str) -> str:
    """The other side's key."""
    return "b" if side == "a" else "a"


def shown_combat(state: State) -> dict | None:
    """T-1: the combat every screen shows: the one in progress, else the newest (None before the first)."""
    combats = grail_of(state)["combats"]
    return next((c for c in reversed(combats) if c["step"] != "done"), None) or (combats[-1] if combats else None)


def seen_count(state: State, combat: dict, side: str) -> int:
    """T-9: the enemy's participating characters whose true name this side has seen through (a public export's import
    knows only the term the screens showed for the combat they showed)."""
    setup = (combat.get("setup") or {}).get(other(side))
    if not setup:
        return 0
    g = grail_of(state)
    shown = [r["combat_seen"] for f in combat["sides"][side] for r in [g["seen_unrecorded"].get(f, {})]
             if r.get("combat_seen", {}).get("combat") == combat["id"]]
    if shown:
        return shown[0]["count"]
    enemy = {setup["main"], setup.get("sub"), *setup.get("others", [])} - {None}
    seen = {cid for f in combat["sides"][side] for cid in g["seen"].get(f, [])}
    return len(enemy & seen)


def seen_total(state: State, faction: str) -> int:
    """T-9: how many true names `faction` has seen through (what every screen shows)."""
    g = grail_of(state)
    if faction in g["seen_unrecorded"]:
        return g["seen_unrecorded"][faction].get("count", 0)
    return len(g["seen"].get(faction, []))


def forces_seen(forces: dict | None, setup: dict | None, chars: dict, state: State, viewer: Viewer) -> dict | None:
    """T-4/T-9: a side's 戦力 is public, the stats it is made of are not. Where the side has a sub and the
    viewer may not see both its main's and its sub's stats, their two terms (always the first two,
    `rules.force`) are shown as one, their sum: the force stays whole, no single stat is given away.
    The main's and sub's labels are read from the setup and the characters (`rules.force_label`), not from the
    stored text: events stored before 2026-11 read メインアルトリアの筋力, with no space after the role."""
    if not forces or not setup:
        return forces
    out = {}
    for side, cells in forces.items():
        placed = setup.get(side) or {}
        main, sub = chars.get(placed.get("main")), chars.get(placed.get("sub")) if placed.get("sub") else None
        if main is None:
            out[side] = cells
            continue
        merge = sub is not None and not viewer.is_gm and not (can_see_character(state, viewer, main)
                                                              and can_see_character(state, viewer, sub))
        out[side] = {}
        for stat, cell in cells.items():
            terms = [dict(t) for t in cell["terms"]]
            terms[0]["label"] = force_label("main", main["name"], stat).to_dict()
            raw = (sub or {}).get("stats", {}).get(stat)
            if sub is not None and len(terms) > 1 and raw is not None:
                terms[1]["label"] = force_label("sub", sub["name"], stat, f"{raw}→{terms[1]['value']}").to_dict()
            if merge:
                label = {"ja": f"メイン {main['name']}＋サブ {sub['name']}の{stat}",
                         "en": f"Main {main['name']} + sub {sub['name']} {STAT_EN.get(stat, stat)}"}
                terms = [{"label": label, "value": sum(t["value"] for t in terms[:2]), "rule": "T-4"}, *terms[2:]]
            out[side][stat] = {**cell, "terms": terms}
    return out


def _without_caps(data: dict, event, state: State, viewer: Viewer) -> dict:
    """The cap tracker holds every combatant's six stats: the GM's bookkeeping. A character's stats and
    the terms of a force that would give them away are seen as the character is (T-9)."""
    if viewer.is_gm:
        return {**data, "forces": forces_seen(data["forces"], data.get("setup"), _chars(data, state), state, viewer)} \
            if data.get("forces") else data
    out = {k: v for k, v in data.items() if k != "caps"}
    if "chars" in data:
        out["chars"] = {cid: c if can_see_character(state, viewer, c) else public_character(c)
                        for cid, c in data["chars"].items()}
    if data.get("forces"):
        out["forces"] = forces_seen(data["forces"], data.get("setup"), _chars(data, state), state, viewer)
    return out


def _chars(data: dict, state: State) -> dict:
    return data.get("chars") or (combat_of(state, data["combat"]) or {}).get("chars", {})




def upcast_reading(data: dict) -> tuple[str, dict]:
    """A reading switched by gmtool 0.1 (grail.reading_set) as core's reading.set; its starting seals
    as grail.starting_seals_set."""
    if data.get("key") == "starting_seals":
        return "grail.starting_seals_set", {"value": data["value"], "rule": "T-13"}
    return "reading.set", {"key": data["key"], "value": data["value"], "rule": data.get("rule", "")}


# -- the declarations (every grail step can be undone by the GM) ------------------------------

EVENTS: tuple[EventType, ...] = (
    EventType("grail.characters_set", _characters_set, _d_chars, custom(_characters), undone_visibility=custom(_characters), undoable=True),
    EventType("grail.skill_set", _skill_set, _d_skill_set, custom(_skill_sheet), undone_visibility=custom(_skill_sheet), undoable=True),
    EventType("grail.seen_set", _seen_set, _d_seen, custom(_seen), undone_visibility=custom(_seen), undoable=True),
    EventType("grail.starting_seals_set", _starting_seals_set, _d_starting_seals, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.priority_set", _priority_set, _d_priority, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.combat_started", _combat_started, _d_started, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.select_opened", _select_opened, _d_select_opened, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.setup_done", _setup_done, _d_setup, custom(_without_caps), undone_visibility=custom(_without_caps), undoable=True, line_key=combat_line),
    EventType("grail.select_resolved", _select_resolved, _d_select, custom(_without_caps), undone_visibility=custom(_without_caps), undoable=True, line_key=combat_line),
    EventType("grail.select_revised", _select_revised, _d_select_revised, custom(_without_caps), undone_visibility=custom(_without_caps), undoable=True, line_key=combat_line),
    EventType("grail.skill_used", _skill_used, _d_skill_used, custom(_without_caps), undone_visibility=custom(_without_caps), undoable=True, line_key=combat_line),
    EventType("grail.final", _final, _d_final, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.seal_used", _seal_used, _d_seal, custom(_without_caps), undone_visibility=custom(_without_caps), undoable=True, line_key=combat_line),
    EventType("grail.modifier_added", _modifier_added, _d_modifier, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.step_modifier", _step_modifier, _d_step_modifier, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.pick_passed", _pick_passed, _d_pick_passed, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.battle_rolled", _battle_rolled, _d_battle, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line,
              rolls=_battle_rolls),
    EventType("grail.battle_decided", _battle_decided, _d_decided, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.escape", _escape, _d_escape, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line, rolls=_escape_rolls),
    EventType("grail.finished", _finished, _d_finished, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
    EventType("grail.combat_ended", _combat_ended, _d_ended, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=combat_line),
)
