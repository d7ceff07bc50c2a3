"""grail_trpg's actions (RULES.md T, docs/rulesets/grail_trpg.md): seats are factions.

Actions are pure commands `(state, payload, ctx) -> drafts`; every automatic effect is a
`grail.*` event with its rule code (events.py), every number a breakdown (rules.py,
winrate.py), the secret steps prompts (flow.py).
"""

from __future__ import annotations

import json

from gmtool.core import prompts
from gmtool.core.commands import clean_text, counter_drafts, flag_field, parse_int, require_open, seat_of, text_field
from gmtool.core.dice import is_entered
from gmtool.core.errors import Conflict, GmError, NotFound, choices_text
from gmtool.core.model import CounterDef, Label, State, text_in
from gmtool.core.ruleset import ActionContext, action

from .events import GM_SIDE, ORDINALS, faction_name, grail_of, side_name
from .flow import (SIDES, STEP_LABELS, after_the_roll, before_select, characters, check_modifier_now, check_seal_now,
                   cleanup_use, escape_timing, current_combat, disabled_stats, free_use,
                   modifier_value, need_caps, need_seals, need_stats, other,
                   phase_now, readings_of, refuse_unavailable, require_combat, resolve_select, resolve_setup, seal_drafts,
                   side_forces, skill_budget, skill_of, win_rates, mp_of, pairing_now)
from .sheets import MAX_SKILLS, next_skill_id, skill_from_form, unavailable
from .rules import STATS, parse_characters
from .winrate import battle_roll, black_stars_after, escape_check, seal_cost, seal_done

MAX_CHARACTERS = 20
MAX_STARTING_SEALS = 30
MAX_MP, MAX_BLACK_STARS = 99, 10
# 令呪: at most the starting number (T-13; set_starting_seals moves the bound with the start, the GM raises
# one faction's with a reason); MP: a sheet's MP is 0–99 (sheets.py); 黒星: one per lost combat (T-11).
COUNTERS = (
    CounterDef("seals", Label("令呪", "Command Seals"), start=3, min=0, max=3),
    CounterDef("mp", Label("MP", "MP"), start=0, min=0, max=MAX_MP),
    CounterDef("black_stars", Label("黒星", "Black stars"), start=0, min=0, max=MAX_BLACK_STARS),
)


def _faction(state: State, value) -> str:
    if value == GM_SIDE:
        return GM_SIDE
    return seat_of(state, value).id


def _ids(value) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.replace("、", ",").split(",") if v.strip()]
    if isinstance(value, list):
        return [str(v) for v in value if str(v).strip()]
    raise GmError("IDのリストを指定してください", "Give a list of ids")




# -- before the combat ------------------------------------------------------------------

def set_characters(state: State, p: dict, ctx: ActionContext) -> list:
    """T-4: a faction's characters from text lines or JSON (replace, or append with append=true)."""
    require_open(state)
    faction = _faction(state, p.get("faction"))
    raw = p.get("characters", p.get("text"))
    text = json.dumps(raw, ensure_ascii=False) if isinstance(raw, list) else raw
    append = flag_field(p, "append", ja="追加（置き換えない）")
    existing = grail_of(state)["characters"].get(faction, []) if append else []
    chars = parse_characters(text if isinstance(text, str) else "", faction)
    if len(chars) + len(existing) > MAX_CHARACTERS:
        raise GmError(f"1陣営のキャラクターは{MAX_CHARACTERS}体までです", f"At most {MAX_CHARACTERS} characters per faction")
    taken = {c["id"] for c in existing}
    out = []
    for c in chars:
        clean_text(c.name, "名前", "name", limit=40)
        cid, k = c.id, 2
        while cid in taken:
            cid, k = f"{c.id}#{k}", k + 1
        taken.add(cid)
        c.id, c.faction = cid, faction
        out.append(c.to_dict())
    return [("grail.characters_set", {"faction": faction, "characters": out, "append": append})]


def _no_such_character() -> NotFound:
    """The 404 for a character that is not on any sheet: in words, not its id."""
    return NotFound("そのキャラクターはいません", "There is no such character")


def _sheet_character(state: State, ref, faction=None) -> tuple[str, dict]:
    """(faction, character) of a character named by id (or by display name within `faction`), or 404."""
    ref = str(ref or "").strip()
    if not ref:
        raise GmError("キャラクターを選んでください", "Choose the character")
    chars = grail_of(state)["characters"]
    for f, cs in chars.items():
        for c in cs:
            if c["id"] == ref:
                return f, c
    if faction:
        f = _faction(state, faction)
        named = [c for c in chars.get(f, []) if c["name"] == ref]
        if len(named) == 1:
            return f, named[0]
    raise _no_such_character()


def _sheet_skill(state: State, skill_id) -> tuple[str, dict, dict]:
    """(faction, character, skill) of a skill on a sheet by its id, or 404."""
    for f, cs in grail_of(state)["characters"].items():
        for c in cs:
            for k in c.get("skills", []):
                if k["id"] == str(skill_id):
                    return f, c, k
    raise NotFound("そのスキル・宝具はありません", "There is no such skill or Noble Phantasm")


def set_skill(state: State, p: dict, ctx: ActionContext) -> list:
    """T-3/T-8: add a skill or 宝具 to a character's sheet field by field, or change one (`skill`: its id)."""
    require_open(state)
    if p.get("skill"):
        faction, ch, old = _sheet_skill(state, p.get("skill"))
        skill, op = {**skill_from_form(p), "id": old["id"]}, "edit"
    else:
        faction, ch = _sheet_character(state, p.get("character"), p.get("faction"))
        if len(ch.get("skills", [])) >= MAX_SKILLS:
            raise GmError(f"1体のスキル・宝具は{MAX_SKILLS}個までです（{ch['name']}）",
                          f"At most {MAX_SKILLS} skills / NPs per character ({ch['name']})")
        skill = skill_from_form(p)
        taken = {i for c in grail_of(state)["combats"] for i in c.get("used_skills", [])}
        skill["id"], op = next_skill_id(ch["id"], ch.get("skills", []), taken), "add"
    return [("grail.skill_set", {"faction": faction, "character": ch["id"], "op": op, "skill": skill})]


def remove_skill(state: State, p: dict, ctx: ActionContext) -> list:
    """T-3: remove one skill or 宝具 from a sheet (the others keep their ids)."""
    require_open(state)
    faction, ch, old = _sheet_skill(state, p.get("skill"))
    return [("grail.skill_set", {"faction": faction, "character": ch["id"], "op": "remove", "skill": old})]


def set_seen(state: State, p: dict, ctx: ActionContext) -> list:
    """T-9: the enemy characters whose true name (sheet) a faction has seen through."""
    require_open(state)
    faction = _faction(state, p.get("faction"))
    seen = _ids(p.get("seen"))
    known = {c["id"]: f for f, cs in grail_of(state)["characters"].items() for c in cs}
    for cid in seen:
        if cid not in known:
            raise _no_such_character()
        if known[cid] == faction:
            raise GmError("自陣営のキャラクターは看破の対象ではありません", "A faction does not see through its own characters")
    return [("grail.seen_set", {"faction": faction, "seen": list(dict.fromkeys(seen))})]


def set_starting_seals(state: State, p: dict, ctx: ActionContext) -> list:
    """T-13: the seals every faction starts with (3 by Fate convention), before the first combat."""
    require_open(state)
    value = parse_int(p.get("value"), "令呪の初期値", "starting seals")
    if not 0 <= value <= MAX_STARTING_SEALS:
        raise GmError(f"令呪の初期値は0〜{MAX_STARTING_SEALS}です", f"Starting seals must be 0–{MAX_STARTING_SEALS}")
    if grail_of(state)["combats"]:
        raise Conflict("令呪の初期値は最初の戦闘の前に設定します（後からは席のカウンターで）",
                       "Set the starting seals before the first combat (afterwards use the seat counters)")
    drafts = [("grail.starting_seals_set", {"value": value, "rule": "T-13"})]
    for seat in state.seats:
        drafts += counter_drafts(state, seat, "seals", value, {"ja": "令呪の初期値 [T-13]", "en": "starting Command Seals [T-13]"},
                                 "T-13", bound=value)
    return drafts


def set_priority(state: State, p: dict, ctx: ActionContext) -> list:
    """T-14: the factions' priority order (highest first); new_round=true starts a new round of pairings."""
    require_open(state)
    order = [_faction(state, f) for f in _ids(p.get("order"))]
    if not order or len(set(order)) != len(order) or GM_SIDE in order:
        raise GmError("優先順位は席IDを重複なく並べます", "The priority order lists seat ids, each once")
    return [("grail.priority_set", {"order": order, "new_round": flag_field(p, "new_round", ja="新しいラウンド")})]


# -- the combat -------------------------------------------------------------------------

def _prompt_id(state: State, base: str) -> str:
    pid, k = base, 2
    while pid in state.prompts:
        pid, k = f"{base}-{k}", k + 1
    return pid


SETUP_TITLE = {"ja": "セットアップ: メイン・サブ・その他", "en": "Setup: main, sub and others"}


def _open(state: State, ctx: ActionContext, combat: dict, pid: str, title: dict, kind: str, resolver: str,
          meta: dict, disabled: dict | None = None) -> list:
    resp = combat["respondents"]
    members = {f: s for s in SIDES for f in combat["sides"][s]}  # T-3: each allied faction answers for itself
    seats = [f for f in members if f != GM_SIDE]
    spec = {"title": title, "kind": kind, "options": list(STATS) if kind == "grail_select" else [],
            "seats": seats, "gm_submits": GM_SIDE in resp.values(), "resolver": resolver,
            "disabled": disabled or {}, "meta": {"combat": combat["id"], "respondents": dict(resp),
                                                 "members": members, **meta}}
    return prompts.open_prompt(state, pid, spec, ctx.resolvers, custom=True)


def start_combat(state: State, p: dict, ctx: ActionContext) -> list:
    """T-1/T-14: two sides (factions, alliances, or the GM's threat side 'gm'); opens the secret setup."""
    require_open(state)
    busy = current_combat(state)
    if busy:
        raise Conflict(f"進行中の戦闘があります（{text_in(busy['title'], 'ja')}）。先に終えるか「打ち切り」で打ち切ってください",
                       f"A combat is in progress ({text_in(busy['title'], 'en')}); finish it or stop it with 'End combat' first")
    sides = {s: [_faction(state, f) for f in _ids(p.get(s))] for s in SIDES}
    out = grail_of(state)["out"]
    for s in SIDES:
        if not sides[s]:
            raise GmError(f"{s.upper()}側の陣営を選んでください", f"Choose the factions of side {s.upper()}")
        if GM_SIDE in sides[s] and len(sides[s]) > 1:
            raise GmError("GMの脅威側は単独の側です", "The GM's threat side (gm) stands alone")
        for f in sides[s]:
            if f in out:
                raise Conflict(f"{faction_name(state, f)}は敗退しています", f"{faction_name(state, f)} is eliminated")
            if not grail_of(state)["characters"].get(f):
                raise GmError(f"{faction_name(state, f)}のキャラクターがいません（「キャラクター・真名看破」で登録してください）",
                              f"{faction_name(state, f)} has no characters (enter them under 'Characters and true names')")
    if set(sides["a"]) & set(sides["b"]) or sides["a"] == sides["b"] == [GM_SIDE]:
        raise GmError("同じ陣営が両側にいます", "A faction is on both sides")
    need_stats([c for s in SIDES for f in sides[s] for c in characters(state, f)])
    names = {s: side_name(state, sides[s]) for s in SIDES}
    declarer = _side(text_field(p, "declarer", "a", ja="宣言側"), names, "宣言側", "declaring side")
    check_pick(state, sides, declarer)
    cid = f"c{len(grail_of(state)['combats']) + 1}"
    typed = clean_text(p.get("title"), "戦闘名", "combat title", limit=80, required=False)
    title = {"ja": typed, "en": typed} if typed else \
        {"ja": f"戦闘: {names['a']} vs {names['b']}", "en": f"Combat: {names['a']} vs {names['b']}"}
    resp = {s: sides[s][0] for s in SIDES}
    started = {"id": cid, "title": title, "sides": sides, "names": names, "declarer": declarer,
               "respondents": resp, "prompt": _prompt_id(state, f"{cid}-setup"), "readings": readings_of(state)}
    drafts = [("scene.marked", {"title": title}), ("grail.combat_started", started)]
    combat = {"id": cid, "respondents": resp, "sides": sides}
    return drafts + _open(state, ctx, combat, started["prompt"], SETUP_TITLE, "grail_setup",
                          "grail_setup", {"step": "setup"})


def check_pick(state: State, sides: dict, declarer: str) -> None:
    """T-14: once the GM set a priority order, the declaring side is the faction whose turn it is to pick and
    its opponent one it may choose; anything else is refused with the reason (PL対GM is not a pairing)."""
    g = grail_of(state)
    if not g["priority"] or GM_SIDE in sides["a"] + sides["b"]:
        return
    pair = pairing_now(state)
    picker = pair["picker"]
    if picker is None:
        raise Conflict("この巡目の対戦はすべて決まりました（新しい巡目は優先順位を設定し直します）",
                       "Every pairing of this round is decided (set the priority again for a new round) [T-14]")
    own, opp = sides[declarer], sides[other(declarer)]
    if picker not in own:
        raise Conflict(f"今は{faction_name(state, picker)}が相手を選ぶ番です（優先順位 [T-14]）",
                       f"It is {faction_name(state, picker)}'s turn to pick an opponent (priority) [T-14]")
    bad = [f for f in opp if f not in pair["opponents"]]
    if bad:
        raise Conflict(f"{faction_name(state, bad[0])}は今は選べません（解釈: 次の対戦相手の選び方）[T-14]",
                       f"{faction_name(state, bad[0])} cannot be chosen now (reading: who the next picker may choose) [T-14]")


def pick_opponent(state: State, p: dict, ctx: ActionContext) -> list:
    """T-14: the faction with priority picks its opponent from its phone (the GM may pick for it); it declares."""
    require_open(state)
    me = ctx.viewer.seat if ctx.viewer.kind == "seat" else _faction(state, p.get("faction") or pairing_now(state)["picker"])
    opponent = _faction(state, p.get("opponent"))
    return start_combat(state, {"a": [me], "b": [opponent], "declarer": "a", "title": p.get("title")}, ctx)


def pass_pick(state: State, p: dict, ctx: ActionContext) -> list:
    """T-14: the faction whose turn it is declines to fight this round; the next one decides."""
    require_open(state)
    if current_combat(state):
        raise Conflict("戦闘中です", "A combat is in progress")
    me = ctx.viewer.seat if ctx.viewer.kind == "seat" else _faction(state, p.get("faction") or pairing_now(state)["picker"])
    picker = pairing_now(state)["picker"]
    if picker != me:
        raise Conflict("今はあなたの陣営が決める番ではありません [T-14]" if picker else "この巡目の対戦はすべて決まりました [T-14]",
                       "It is not your faction's turn to decide [T-14]" if picker else "Every pairing of this round is decided [T-14]")
    return [("grail.pick_passed", {"faction": me, "rule": "T-14"})]


def _prompt_ready(state: State, combat: dict) -> str:
    """'confirmed', 'gone' (cancelled / confirmed without effect) or raise what the GM must do first."""
    prompt = state.prompts.get(combat["prompt"])
    if prompt is None or prompt.status == "cancelled":
        return "gone"
    if prompt.status in ("open", "locked"):
        waiting = [("GM" if w == GM_SIDE else state.seat_name(w)) for w in prompt.respondents() if w not in prompt.answers]
        raise Conflict(f"「{text_in(prompt.title, 'ja')}」の回答待ちです（{'、'.join(waiting) or '公開待ち'}）",
                       f"Waiting for answers to '{text_in(prompt.title, 'en')}' ({', '.join(waiting) or 'reveal'})")
    if not prompt.confirmed:
        raise Conflict(f"「{text_in(prompt.title, 'ja')}」の結果を確認して確定してください",
                       f"Confirm the result of '{text_in(prompt.title, 'en')}' first")
    return "gone"


def open_select(state: State, p: dict, ctx: ActionContext) -> list:
    """T-5: open the next select (1st–3rd) as a secret prompt; barred stats are greyed out with the reason."""
    require_open(state)
    combat = require_combat(state)
    step = combat["step"]
    n = len(combat["selects"]) + 1
    if step in ("setup", f"select{n}"):
        _prompt_ready(state, combat)  # raises unless it was cancelled / confirmed without effect
        if step == "setup":
            return _reopen_setup(state, ctx, combat)
    elif step not in ("setup_done", f"result{n - 1}") or n > 3:
        label = STEP_LABELS[step]
        raise Conflict(f"今は{label.ja}なのでセレクトは開けません（セレクトは3回まで）",
                       f"No select can be opened now: the step is {label.en} (3 selects per combat)")
    need_caps(combat)
    readings = readings_of(state)
    disabled = {combat["respondents"][s]: disabled_stats(combat, s, readings) for s in SIDES}
    disabled = {k: v for k, v in disabled.items() if v}
    pid = _prompt_id(state, f"{combat['id']}-s{n}")
    return [("grail.select_opened", {"combat": combat["id"], "select_no": n, "prompt": pid})] + \
        _open(state, ctx, combat, pid, {"ja": f"{ORDINALS[n]}セレクト", "en": f"{ORDINALS[n]} select"}, "grail_select", "grail_select",
              {"step": "select", "select_no": n}, disabled)


def _reopen_setup(state: State, ctx: ActionContext, combat: dict) -> list:
    pid = _prompt_id(state, f"{combat['id']}-setup")
    return [("grail.select_opened", {"combat": combat["id"], "select_no": 0, "prompt": pid})] + \
        _open(state, ctx, combat, pid, SETUP_TITLE, "grail_setup", "grail_setup",
              {"step": "setup"})


def final_result(state: State, p: dict, ctx: ActionContext) -> list:
    """T-6/T-9: after the 3rd result: 優位 / 劣位 totals and both win rates, term by term."""
    require_open(state)
    combat = require_combat(state)
    if combat["step"] != "result3":
        raise Conflict("ファイナルリザルトは3rdリザルトの確定後です", "The final result comes after the 3rd result is confirmed")
    return [("grail.final", {"combat": combat["id"], "win_rates": win_rates(state, combat)})]


def roll_battle(state: State, p: dict, ctx: ActionContext) -> list:
    """T-10: both sides roll 1d100 + 勝率 on the server; higher wins (a tie per the Reading battle_tie)."""
    require_open(state)
    combat = require_combat(state)
    if combat["step"] != "final":
        raise Conflict("勝敗判定はファイナルリザルトの後です", "The battle roll comes after the final result")
    rates = win_rates(state, combat)
    battle = battle_roll(rates["a"]["total"], rates["b"]["total"], ctx.dice, readings_of(state))
    return [("grail.battle_rolled", {"combat": combat["id"], "win_rates": rates, "battle": battle,
                                     "entered": is_entered(ctx.dice), "dice_next": ctx.dice.next_index})]


def _side(value: str, names: dict, ja: str, en: str) -> str:
    """A combat side ("a" / "b") from a request; a refusal names the two sides by their factions (the English with
    the codes docs/rulesets/grail_trpg.md gives)."""
    if value not in SIDES:
        words_ja, words_en = choices_text({s: (names[s], names[s]) for s in SIDES})
        raise GmError(f"{ja}は{words_ja}のどちらかです", f"The {en} must be one of: {words_en}")
    return value


def decide(state: State, p: dict, ctx: ActionContext) -> list:
    """T-10 (Reading battle_tie=gm): the GM names the winner of a tied battle roll."""
    require_open(state)
    combat = require_combat(state)
    if combat["step"] != "battle":
        raise Conflict("監督役が決めるのは同値の勝敗判定だけです", "The GM decides only a tied battle roll")
    winner = _side(text_field(p, "winner", ja="勝者"), combat["names"], "勝者", "winner")
    return [("grail.battle_decided", {"combat": combat["id"], "winner": winner})]


def finish_combat(state: State, p: dict, ctx: ActionContext) -> list:
    """T-11: the losing side's factions each gain one 黒星; those that did not escape are eliminated."""
    require_open(state)
    combat = require_combat(state)
    if combat["step"] != "cleanup":
        raise Conflict("クリンナップは勝敗判定の後です", "Cleanup comes after the battle roll")
    loser = other(combat["winner"])
    losers = [f for f in combat["sides"][loser] if f != GM_SIDE]
    escaped = [e["faction"] for e in combat["escapes"] if e["escaped"]]
    data = {"combat": combat["id"], "winner": combat["winner"], "loser": loser, "black_stars": {}, "escaped": [],
            "eliminated": [], "notes": []}
    drafts = []
    if losers:
        after = black_stars_after(losers, escaped)
        data.update(black_stars=after["black_stars"], escaped=after["escaped"], eliminated=after["eliminated"],
                    notes=after["notes"])
        for f in losers:
            now = state.counters[f].get("black_stars", 0)
            drafts += counter_drafts(state, f, "black_stars", now + 1,
                                     {"ja": f"{text_in(combat['title'], 'ja')}で敗北 [T-11]",
                                      "en": f"lost {text_in(combat['title'], 'en')} [T-11]"}, "T-11")
    return [("grail.finished", data)] + drafts


def next_step(state: State, p: dict, ctx: ActionContext) -> list:
    """T-1: whatever comes next: reopen a cancelled step, next select, final result, battle roll, cleanup."""
    combat = require_combat(state)
    step = combat["step"]
    if step in ("setup", "setup_done") or step.startswith(("select", "result")) and step != "result3":
        return open_select(state, p, ctx)
    return {"result3": final_result, "final": roll_battle, "cleanup": finish_combat}.get(step, _stuck)(state, p, ctx)


def _stuck(state: State, p: dict, ctx: ActionContext) -> list:
    raise Conflict("勝敗判定が同値です。勝者を決めてください（解釈: 同値は監督役が決める）",
                   "The battle roll tied: name the winner (reading: the GM decides a tie)")


def answer(state: State, p: dict, ctx: ActionContext) -> list:
    """T-2: a side's secret setup / select from a form (or {"prompt", "value"}): kept secret until the reveal."""
    prompt = prompts.get_prompt(state, p.get("prompt"))
    if prompt.kind not in ("grail_setup", "grail_select"):
        raise GmError("この質問は聖杯戦争の戦闘のものではありません", "This prompt is not a grail combat step")
    value = p.get("value")
    if value is None:
        mods = []
        for kind in ("skill", "np"):
            labels, values = p.get(f"{kind}_label") or [], p.get(f"{kind}_value") or []
            labels, values = ([labels] if isinstance(labels, str) else labels), ([values] if isinstance(values, str) else values)
            for label, amount in zip(labels, values):
                if str(label).strip() or str(amount).strip():
                    mods.append({"label": label, "value": amount, "kind": kind})
        if text_field(p, "free_label", ja="スキル名").strip() or text_field(p, "free_value", ja="修正値").strip():
            mods.append({"label": p.get("free_label"), "value": p.get("free_value"), "kind": p.get("free_kind") or "skill",
                         "stat": p.get("free_stat") or None, "target": p.get("free_target")})
        skills = p.get("skills") or []
        skills = [skills] if isinstance(skills, str) else skills  # a skill id may hold a comma: never split
        if prompt.kind == "grail_setup":
            value = {"main": p.get("main"), "sub": p.get("sub"), "others": _ids(p.get("others")), "seal": p.get("seal")}
        else:
            value = {"stat": p.get("stat"), "seal": 2 if flag_field(p, "seal", ja="令呪") else None}
        value.update(skills=skills, mods=mods)
    who = ctx.viewer.respondent
    return prompts.answer(state, prompt.id, who, value, ctx.salt(), ctx.resolvers, ctx.dice)


# -- seals, escapes, modifiers -------------------------------------------------------------

def use_seal(state: State, p: dict, ctx: ActionContext) -> list:
    """T-13: seal 3 (battle: 勝率+50), 4 (swap the main), 5 (MP+3, any time); 1/2 come with the answers."""
    require_open(state)
    faction = _faction(state, p.get("faction"))
    effect = parse_int(p.get("effect"), "令呪の効果", "seal effect")
    if effect not in (3, 4, 5):
        raise GmError("ここで使う令呪は効果3・4・5です（1はセットアップ、2はセレクトの回答で、6・7は「逃走判定」で）",
                      "Use effects 3, 4, 5 here (1 with the setup answer, 2 with a select, 6 and 7 with Escape [escape])")
    need_seals(state, faction, 1, effect)
    combat = current_combat(state)
    side, reserve = check_seal_now(state, combat, faction, effect)
    text = seal_done(effect)  # what the use did (the log's words); 4 names its characters below
    data = {"combat": combat["id"] if side else None, "faction": faction, "side": side, "effect": effect,
            "cost": 1, "text": text.to_dict(), "detail": {}}
    extra = []
    if effect == 5:
        now = state.counters[faction].get("mp", 0)
        extra = counter_drafts(state, faction, "mp", now + 3, {"ja": "令呪5 [T-13]", "en": "Command Seal 5 [T-13]"}, "T-13")
    elif effect == 4:
        # the character's id (what the console's seal 4 list posts), or its name while no other character the faction
        # may swap in shares it
        swap = text_field(p, "with", ja="交代先").strip()
        by_name = [c for c in reserve if combat["chars"][c]["name"] == swap]
        if swap not in reserve and len(by_name) > 1:
            who = "、".join(f"{state.seat_name(c.split('/', 1)[0])}の{swap}" for c in by_name)
            who_en = ", ".join(f"{swap} of {state.seat_name(c.split('/', 1)[0])}" for c in by_name)
            raise GmError(f"交代先「{swap}」は{len(by_name)}人います（{who}）: キャラクターのID（{'・'.join(by_name)}）で指定してください",
                          f"{len(by_name)} characters to swap in are named '{swap}' ({who_en}): give the "
                          f"character's id ({', '.join(by_name)})")
        swap = by_name[0] if swap not in reserve and by_name else swap
        if swap not in reserve:
            names = "・".join(combat["chars"][c]["name"] for c in reserve)
            raise GmError(f"交代するキャラクターはサブかその他から選びます（{names}）",
                          f"Swap the main with the sub or an other ({names})")
        setup = dict(combat["setup"][side])
        old = setup["main"]
        if setup.get("sub") == swap:
            setup["sub"] = old
        else:
            setup["others"] = [old if o == swap else o for o in setup["others"]]
        setup["main"] = swap
        forces = dict(combat["forces"])
        forces[side] = side_forces(setup, combat["chars"], readings_of(state))
        data["setup"] = {**combat["setup"], side: setup}
        data["forces"] = forces
        data["detail"] = {"from": old, "to": swap}
        names = combat["chars"]
        data["text"] = {"ja": f"メインを{names[old]['name']}から{names[swap]['name']}に交代",
                        "en": f"Main swapped from {names[old]['name']} to {names[swap]['name']}"}
    return [("grail.seal_used", data)] + seal_drafts(state, faction, 1, effect) + extra


def escape(state: State, p: dict, ctx: ActionContext) -> list:
    """T-12/T-13: an escape check at setup (seal 6) or after losing (seal 7; automatic=true pays one more)."""
    require_open(state)
    combat = require_combat(state)
    faction = _faction(state, p.get("faction"))
    side, timing, effect = escape_timing(state, combat, faction)
    let_go, automatic = flag_field(p, "let_go", ja="見逃す"), flag_field(p, "automatic", ja="自動成功")
    cost = None
    if not let_go and faction != GM_SIDE:
        allies = [faction] + [f for f in combat["sides"][side] if f != faction]
        cost = seal_cost(effect, [state.counters[f].get("black_stars", 0) for f in allies], automatic, readings_of(state))
        need_seals(state, faction, cost["cost"], effect)
    if let_go:
        check = {"escaper": None, "pursuer": None, "escaped": True, "notes": []}
    else:
        check = escape_check(modifier_value(p.get("escaper_mod") or 0, "逃走側の修正", "escaper modifier"),
                             modifier_value(p.get("pursuer_mod") or 0, "追跡側の修正", "pursuer modifier"), ctx.dice,
                             automatic)
    gone = {e["faction"] for e in combat["escapes"] if e["escaped"]} | ({faction} if check["escaped"] else set())
    ends = timing == "setup" and set(combat["sides"][side]) <= gone
    data = {"combat": combat["id"], "faction": faction, "side": side, "timing": timing, "seal": effect,
            "cost": cost, "check": check, "escaped": check["escaped"], "let_go": let_go, "automatic": automatic,
            "ends_combat": ends, "entered": is_entered(ctx.dice), "dice_next": ctx.dice.next_index}
    drafts = [("grail.escape", data)] + (seal_drafts(state, faction, cost["cost"], effect) if cost else [])
    return drafts + (_cancel_step(state, combat, ESCAPE_ENDS) if ends else [])


def use_skill(state: State, p: dict, ctx: ActionContext) -> list:
    """T-6/T-8/T-9/T-11: a skill used after a reveal (result timing; setup skills the GM enters late), after a
    select's confirm until the next select (result timing: the result is computed again), at the battle or at
    cleanup, from the faction's phone ({"skill": id}) or the GM's console: a sheet skill for a faction, or a
    labelled modifier {"side", "label", "value", "kind": skill|np|outside, "stat", "target"} that goes through
    the ±30 cap (skill / np) or outside it, and acts where it is entered (a setup modifier changes 戦力)."""
    require_open(state)
    combat = require_combat(state)
    gm = ctx.viewer.is_gm
    phase = phase_now(state, combat)
    prompt = state.prompts.get(combat["prompt"])
    pending = prompt is not None and prompt.is_revealed and not prompt.confirmed
    if p.get("skill"):
        faction = ctx.viewer.seat if not gm else _faction(state, p.get("faction"))
        side = next((s for s in SIDES if faction in combat["sides"][s]), None)
        if side is None:
            raise GmError(f"{faction_name(state, faction)}はこの戦闘にいません", f"{faction_name(state, faction)} is not in this combat")
        ch, k = skill_of(state, faction, text_field(p, "skill", ja="スキル"))
        left, used, spent = skill_budget(state, combat, faction)
        refuse_unavailable(k["name"], unavailable(k, phase, left, used, mp_of(state, faction), spent) or after_the_roll(combat))
        use = {"skill": k["id"], "faction": faction, "character": ch["id"], "name": k["name"], "kind": k["kind"],
               "stat": k.get("stat"), "value": k.get("value"), "target": k.get("target", "self"),
               "win_rate": k.get("win_rate"), "mp": k.get("mp", 0), "side": side}
    else:
        if not gm:
            raise GmError("使うスキルを選んでください", "Choose the skill to use", status=400)
        side = _side(text_field(p, "side", ja="修正する側"), combat["names"], "修正する側", "side")
        use = {**free_use(p, None, phase or "", gm=True), "side": side}
        if use["value"] == 0:  # a +0 term would change nothing (as add_modifier's)
            raise GmError("修正値が0です", "The modifier is 0")
        if p.get("win_rate") not in (None, ""):
            use.update(win_rate=use["value"], value=None, stat=None)
    if pending:
        resolve = resolve_setup if prompt.kind == "grail_setup" else resolve_select
        answers = {w: a.value for w, a in prompt.answers.items()}
        result = resolve(prompt, answers, state, ctx.dice, (use,))
        return [("grail.step_modifier", {"combat": combat["id"], "prompt": prompt.id, "use": use}),
                ("prompt.resolved", {"prompt": prompt.id, "resolution": {"resolver": prompt.resolver, **result},
                                     "dice_next": ctx.dice.next_index})]
    if phase == "result":
        return _revise_result(state, ctx, combat, prompt, use)
    if phase == "cleanup":
        if not use.get("skill"):
            raise Conflict("クリンナップで使えるのはシートのスキルです（逃走判定の修正は逃走判定のフォームで）[T-11]",
                           "At cleanup only sheet skills are used (escape modifiers go in the escape form) [T-11]")
        return _cleanup_skill(state, combat, use)
    late = after_the_roll(combat)
    if late:
        raise Conflict(f"{late['ja']} [{late['rule']}]", f"{late['en']} [{late['rule']}]")
    if phase != "battle" or use.get("value") is not None or use.get("win_rate") is None:
        raise Conflict("今使えるのは勝率のスキル（バトル）だけです。能力値のスキルはセットアップ・セレクトの回答で、"
                       "またはリザルトの公開後・確定前に使います",
                       "Only win-rate skills can be used now (battle); stat skills go with the setup / select answer "
                       "or after a reveal, before the GM confirms")
    return [("grail.modifier_added", {"combat": combat["id"], "side": side, "label": use["name"],
                                      "value": use["win_rate"], "kind": use["kind"], "faction": use.get("faction"),
                                      "skill": use.get("skill"), "counts": bool(use.get("faction"))})] + \
        _mp_drafts(state, use)


def _mp_drafts(state: State, use: dict) -> list:
    """T-13: the MP a skill used outside a pending step costs, paid at once (a pending step's skills pay theirs at
    its confirm: Uses.mp_drafts)."""
    if not use.get("mp") or use.get("faction") in (None, GM_SIDE):
        return []
    return counter_drafts(state, use["faction"], "mp", mp_of(state, use["faction"]) - use["mp"],
                          f"{use['name']} [T-13]", "T-13")


def _revise_result(state: State, ctx: ActionContext, combat: dict, prompt, use: dict) -> list:
    """T-6: a result-timing skill after the GM confirmed the comparison, before the next select: the result
    is computed again from the combat as it stood before the select, with every use of that step."""
    if prompt is None or prompt.kind != "grail_select" or "before_select" not in combat:
        raise Conflict("このリザルトは再計算できません", "This result cannot be computed again")
    answers = {w: a.value for w, a in prompt.answers.items()}
    result = resolve_select(prompt, answers, state, ctx.dice, (use,), combat=before_select(combat))
    data = dict(result["events"][0][1])
    drafts = [("grail.step_modifier", {"combat": combat["id"], "prompt": prompt.id, "use": use}),
              ("grail.select_revised", {**data, "use": use})]
    if use.get("win_rate") is not None:
        drafts.append(("grail.modifier_added", {"combat": combat["id"], "side": use["side"], "label": use["name"],
                                                "value": use["win_rate"], "kind": use["kind"],
                                                "faction": use.get("faction"), "skill": use.get("skill")}))
    return drafts + _mp_drafts(state, use)


def _cleanup_skill(state: State, combat: dict, use: dict) -> list:
    """T-11: a cleanup-timing skill declared openly after the battle roll (its MP spent)."""
    return [("grail.skill_used", cleanup_use(state, combat, use))] + _mp_drafts(state, use)


def add_modifier(state: State, p: dict, ctx: ActionContext) -> list:
    """T-9: a labelled modifier on a side's win rate (a skill / 宝具 on 勝率, or a house rule), before the roll."""
    require_open(state)
    combat = require_combat(state)
    check_modifier_now(combat)
    side = _side(text_field(p, "side", ja="修正する側"), combat["names"], "修正する側", "side")
    value = modifier_value(p.get("value"), "修正値", "modifier")
    if value == 0:  # a +0 term would change nothing
        raise GmError("修正値が0です", "The modifier is 0")
    return [("grail.modifier_added", {"combat": combat["id"], "side": side,
                                      "label": clean_text(p.get("label"), "修正の名前", "modifier label", 40),
                                      "value": value})]


def end_combat(state: State, p: dict, ctx: ActionContext) -> list:
    """T-1: the GM breaks a combat off (nothing is scored); its open prompt is cancelled."""
    require_open(state)
    combat = require_combat(state)
    reason = clean_text(p.get("reason"), "理由", "reason", 200, False)
    return [("grail.combat_ended", {"combat": combat["id"], "reason": reason})] + _cancel_step(state, combat, BROKEN_OFF)


ESCAPE_ENDS = {"ja": "逃走により戦闘終了", "en": "the combat ended with an escape"}  # a cancelled step's reason
BROKEN_OFF = {"ja": "戦闘の打ち切り", "en": "the combat was broken off"}


def _cancel_step(state: State, combat: dict, reason: dict) -> list:
    """T-1: a combat that ends takes its unconfirmed step with it: the setup / select prompt is cancelled when it is
    open or revealed but not confirmed (a confirm after the end would otherwise bring the combat back)."""
    return prompts.cancel_unconfirmed(state, combat["prompt"], reason)


ACTIONS = dict((
    action("set_characters", "キャラクター登録", "Set characters", set_characters),
    action("set_skill", "スキルの追加・変更", "Add / change a skill", set_skill),
    action("remove_skill", "スキルの削除", "Remove a skill", remove_skill),
    action("set_seen", "真名看破", "True names seen", set_seen),
    action("set_starting_seals", "令呪の初期値", "Starting seals", set_starting_seals),
    action("set_priority", "優先順位", "Priority order", set_priority),
    action("start_combat", "戦闘開始", "Start combat", start_combat),
    action("answer", "回答", "Answer", answer, who="seat"),  # a secret answer, as core's (not undoable: prompt.answered)
    action("next_step", "次へ", "Next step", next_step),
    action("open_select", "セレクトを開く", "Open select", open_select),
    action("final_result", "ファイナルリザルト", "Final result", final_result),
    action("roll_battle", "勝敗判定", "Battle roll", roll_battle),
    action("decide", "勝者を決める", "Decide the winner", decide),
    action("finish_combat", "クリンナップ", "Cleanup", finish_combat),
    action("use_seal", "令呪", "Command Seal", use_seal),
    action("escape", "逃走判定", "Escape check", escape),
    action("add_modifier", "勝率の修正", "Win-rate modifier", add_modifier),
    action("use_skill", "スキル・修正", "Skill / modifier", use_skill, who="seat"),
    action("pick_opponent", "対戦相手を選ぶ", "Pick an opponent", pick_opponent, who="seat"),
    action("pass_pick", "今回は戦わない", "Decline to fight", pass_pick, who="seat"),
    action("end_combat", "戦闘打ち切り", "End combat", end_combat),
))
