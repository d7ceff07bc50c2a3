"""Holy Grail War TRPG combat flow (RULES.md T-1..T-14): the pure computations behind the actions.

Setup and selects are secret prompts (custom kinds `grail_setup` / `grail_select`) whose
resolvers compare the revealed answers with grail_rules and return the breakdown and the
events that the GM's confirm applies. The actions themselves are in grail_trpg.py.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from gmtool.core.commands import change_at_confirm, clean_text, counter_drafts, parse_int
from gmtool.core.errors import Conflict, GmError, shown
from gmtool.core.model import Label, Prompt, State, text_in
from gmtool.core.logtext import minus_sign
from gmtool.core.view import pending_view

from .events import (GM_SIDE, combat_of, faction_name, forces_seen, grail_of, other, seen_count, seen_total,
                     select_resolution, shown_combat, use_limit)
from .rules import (STAT_EN, STAT_LABELS, STATS, Character, SideChoice, allowed_stats, check_stat, compare, force, one_of,
                          note, reading_note, select_notes, setup_order, term, validate_setup)
from .sheets import KINDS, MOD_KINDS, effect_text, skill_label, unavailable, use_label
from .winrate import CapTracker, USE_LIMITS, check_seal_use, pairings, seal_cost_words, win_rate

SIDES = ("a", "b")
MAX_MOD = 100
STEP_LABELS = {
    "setup": Label("セットアップ", "Setup"), "setup_done": Label("セットアップ完了", "Setup done"),
    "select1": Label("1stセレクト", "1st select"), "result1": Label("1stリザルト", "1st result"),
    "select2": Label("2ndセレクト", "2nd select"), "result2": Label("2ndリザルト", "2nd result"),
    "select3": Label("3rdセレクト", "3rd select"), "result3": Label("3rdリザルト", "3rd result"),
    "final": Label("ファイナルリザルト", "Final result"), "battle": Label("バトル", "Battle"),
    "cleanup": Label("クリンナップ", "Cleanup"), "done": Label("終了", "Done"),
}
PHASE_OF_STEP = {"setup": "setup", "setup_done": "setup", "select1": "select", "select2": "select",
                 "select3": "select", "result1": "result", "result2": "result", "result3": "result",
                 "final": "battle", "battle": "battle", "cleanup": "cleanup"}


def readings_of(state: State) -> dict:
    """T-1: the readings the GM switched for this session (core keeps them; the rules apply defaults)."""
    return dict(state.readings)


def current_combat(state: State) -> dict | None:
    """T-1: the combat in progress (not done), or None."""
    return next((c for c in reversed(grail_of(state)["combats"]) if c["step"] != "done"), None)


def require_combat(state: State) -> dict:
    """T-1: the combat in progress (a finished one takes no more steps), or a clear 409."""
    combat = current_combat(state)
    if combat is None:
        raise Conflict("進行中の戦闘がありません（「戦闘開始」で始めてください）",
                       "No combat in progress (start one with the 'Start' button)")
    return combat


def characters(state: State, faction: str) -> list[Character]:
    """T-4: the characters the GM entered for one faction."""
    return [Character(**c) for c in grail_of(state)["characters"].get(faction, [])]


def side_characters(state: State, combat: dict, side: str) -> list[Character]:
    """T-4/T-14: every character of a side's factions (allies pool theirs)."""
    return [c for f in combat["sides"][side] for c in characters(state, f)]


def members_of(prompt: Prompt) -> dict[str, str]:
    """T-3: {respondent: side}: every allied faction answers for itself (older prompts: the first seat)."""
    members = prompt.meta.get("members")
    if members:
        return dict(members)
    return {resp: side for side, resp in prompt.meta.get("respondents", {}).items()}


def side_of_respondent(prompt: Prompt, who: str) -> str:
    """The side a respondent answers for (each allied faction, or 'gm' for the GM's threat side)."""
    side = members_of(prompt).get(who)
    if side is None:
        raise GmError("この質問に答える側ではありません", "You do not answer for a side of this prompt", status=403)
    return side


def leads(prompt: Prompt, who: str) -> bool:
    """T-4/T-5: whether `who` is its side's first seat (chooses main / sub / others and the stat)."""
    return who in prompt.meta.get("respondents", {}).values()


def faction_uses(combat: dict) -> dict:
    """T-3: skills / 宝具 used so far per faction (a combat from before per-faction counts: the side's first)."""
    if "faction_uses" in combat:
        return {f: dict(u) for f, u in combat["faction_uses"].items()}
    return {combat["sides"][s][0]: dict(combat["uses"][s]) for s in SIDES}


def uses_left(combat: dict, faction: str) -> dict[str, int]:
    """T-3: how many skills and 宝具 one faction may still use in this combat."""
    used = faction_uses(combat).get(faction, {})
    return {k: USE_LIMITS[k] - used.get(k, 0) for k in USE_LIMITS}


def skill_budget(state: State, combat: dict, faction: str) -> tuple[dict[str, int], set, int]:
    """T-3/T-13: what the faction may still use now: its skills and 宝具 left (uses_left), the skills it has used and
    the MP it has spent but not yet paid. A revealed, unconfirmed setup / select holds the uses its answers declared
    and those entered since (use_skill): they count from the reveal, though the confirm records and pays them."""
    left, used, pending = uses_left(combat, faction), set(combat.get("used_skills", [])), []
    prompt = state.prompts.get(combat["prompt"])
    if prompt is not None and prompt.is_revealed and not prompt.confirmed:
        declared = [u for w, a in prompt.answers.items() if isinstance(a.value, dict) for u in _answer_uses(a.value, w)]
        pending = [u for u in declared + step_uses(combat, prompt.id) if u.get("faction") == faction]
    for u in pending:
        left[u["kind"]] = left.get(u["kind"], 0) - (u["kind"] in left)
    return left, used | {u.get("skill") for u in pending}, sum(u.get("mp", 0) for u in pending)


def mp_of(state: State, faction: str) -> int | None:
    """T-13: the faction's MP (None for the GM's threat side, which keeps no counters)."""
    return None if faction == GM_SIDE else state.counters.get(faction, {}).get("mp", 0)


def skill_of(state: State, faction: str, skill_id: Any) -> tuple[dict, dict]:
    """T-3: (character, skill) of one of the faction's skills, or a clear 400."""
    for ch in grail_of(state)["characters"].get(faction, []):
        for k in ch.get("skills", []):
            if k["id"] == skill_id:
                return ch, k
    raise GmError("この陣営にそのスキル・宝具はありません", "Your faction has no such skill or Noble Phantasm")


def phase_now(state: State, combat: dict, who: str | None = None) -> str | None:
    """T-1: the timing skills are declared at now (setup / select / result / battle / cleanup)."""
    prompt = state.prompts.get(combat["prompt"])
    step = combat["step"]
    if prompt and not prompt.confirmed and prompt.status != "cancelled" and step in ("setup",) + tuple(
            f"select{n}" for n in (1, 2, 3)):
        if prompt.status in ("open", "locked"):
            return "setup" if step == "setup" else "select"
        return "setup" if step == "setup" else "result"
    # T-6: each result phase lasts from the comparison until the next select opens (or the final result)
    return {"final": "battle", "battle": "battle", "cleanup": "cleanup", "result1": "result", "result2": "result",
            "result3": "result"}.get(step)


def after_the_roll(combat: dict) -> dict | None:
    """T-10/T-9: after a tied battle roll the GM decides (step `battle`, Reading battle_tie=gm): the 勝率 went into
    the roll, so a battle skill or seal 3 declared now is refused; the reason ({"ja", "en", "rule"}), else None."""
    if combat["step"] != "battle":
        return None
    return {"ja": "勝敗判定の後です（勝率は判定の前に加えます）",
            "en": "The battle roll has been made (win rates are added before it)", "rule": "T-10"}


def _obj(value: Any) -> dict:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise GmError("回答をJSONとして読めません", "Cannot read the answer as JSON") from None
    if not isinstance(value, dict):
        raise GmError("回答はオブジェクトで送ってください", "Send the answer as an object")
    return value


def seals_of(state: State, faction: str) -> int:
    """T-13: the faction's Command Seals now (the GM's threat side has none)."""
    return state.counters.get(faction, {}).get("seals", 0)


def role_of(combat: dict, faction: str) -> tuple[str | None, str | None]:
    """T-13: (side, role) of a faction in a combat: role main / sub / other / None by its characters."""
    setup = combat.get("setup") or {}
    for side in SIDES:
        if faction not in combat["sides"][side]:
            continue
        s = setup.get(side)
        if not s:
            return side, None
        owner = {cid: combat["chars"][cid]["faction"] for cid in combat["chars"]}
        if owner.get(s["main"]) == faction:
            return side, "main"
        if s.get("sub") and owner.get(s["sub"]) == faction:
            return side, "sub"
        if any(owner.get(o) == faction for o in s.get("others", [])):
            return side, "other"
        return side, None
    return None, None


CONSOLE_SEALS = (3, 4, 5)  # T-13: the effects used on their own (1 and 2 come with an answer, 6 and 7 are escapes)


def check_seal_now(state: State, combat: dict | None, faction: str, effect: int) -> tuple[str | None, list]:
    """T-13: raise a clear error unless the faction may use seal effect 3, 4 or 5 now (its seal count aside): 3 and
    4 in its combat once the setup is confirmed (3 at the battle before the roll, main or sub; 4 the main's faction
    with a sub or other to swap in), 5 at any time (in a combat the main's faction; before the setup is confirmed a
    faction alone on its side, whose character will be the main). Returns the faction's side and its reserve
    (the sub and others that seal 4 may swap in)."""
    side, role = role_of(combat, faction) if combat else (None, None)
    if effect != 5 and side is None:  # 3 and 4 act on a combat; 5 (any time) also outside one
        if combat is None:
            raise Conflict("令呪3・4は戦闘中に使います", "Seals 3 and 4 are used in a combat")
        raise GmError(f"{faction_name(state, faction)}はこの戦闘にいません",
                      f"{faction_name(state, faction)} is not in this combat")
    reserve = []  # (the GM console's seal 4 row lists the same: the view's `swaps`, swap_choices)
    if side is not None:  # in its combat only the main's faction uses seals (3 also the sub's)
        if combat.get("setup"):
            reserve = [cid for _, cid in reserve_of(combat, side)]
            check_seal_use(effect, role, PHASE_OF_STEP.get(combat["step"]), bool(reserve))
            late = after_the_roll(combat) if effect == 3 else None
            if late:
                raise Conflict(f"令呪3は使えません: {late['ja']} [{late['rule']}]",
                               f"Seal 3 cannot be used: {late['en']} [{late['rule']}]")
        elif effect != 5 or len(combat["sides"][side]) > 1:  # a lone faction's character will be the main
            raise Conflict(f"令呪{effect}はセットアップの確定後に使います（メインが決まってから）",
                           f"Seal {effect} is used once the setup is confirmed (when the main is known)")
    return side, reserve


def reserve_of(combat: dict, side: str) -> list[tuple[str, str]]:
    """T-13 seal 4: whom the main's faction may swap in on a side whose setup is confirmed, as (role, character id):
    the sub, then the others, in the setup's order."""
    s = combat["setup"][side]
    return ([("sub", s["sub"])] if s.get("sub") else []) + [("other", o) for o in s.get("others", [])]


SWAP_ROLES = {"sub": Label("サブ", "Sub"), "other": Label("その他", "Other")}


def _nth_on_sheet(n: int) -> Label:
    """「シートの2人目」 / "2nd on the sheet": a character's place among the ones of its faction's sheet that read alike."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return Label(f"シートの{n}人目", f"{n}{suffix} on the sheet")


def swap_choices(state: State, combat: dict, side: str) -> list[dict]:
    """T-13 seal 4: the console's swap list for a side, `[{id, label}]` in reserve_of's order. Each label reads the
    character's role, name and class (「サブ 士郎」, 「その他 大河(キャスター)」), and what tells it from one alike
    (cast_labels: 「その他 士郎 · キャスター陣営」, 「その他 大河 · シートの2人目」). Never an id: the GM posts the id
    (`id`) and reads the label."""
    chars = combat["chars"]
    return cast_labels(state, [(SWAP_ROLES[role], chars[cid]) for role, cid in reserve_of(combat, side)])


def setup_choices(state: State, combat: dict, side: str) -> list[dict]:
    """T-4: the characters a side's setup may name (main, sub, others: every character of its factions, in their
    sheets' order), `[{id, label}]` as the setup form offers them: name and class, and what tells one from another
    alike (cast_labels: 「大河 · シートの2人目」, 「士郎 · キャスター陣営」)."""
    return cast_labels(state, [(None, ch) for f in combat["sides"][side] for ch in grail_of(state)["characters"].get(f, [])])


def cast_labels(state: State, cast: list[tuple[Label | None, dict]]) -> list[dict]:
    """T-4/T-13: `[{id, label}]` for characters listed with an optional role (サブ / その他): each label reads the role,
    the name and the class; where another faction's reads the same, its faction's name too (「その他 士郎 ·
    キャスター陣営」); where two of one faction read the same (two 大河, one class), its place among them on the
    faction's sheet (「その他 大河 · シートの2人目」 / "Other 大河 · 2nd on the sheet"). Never an id: players read
    names. Linear in the characters: each label's look-alikes are counted once."""
    owners: dict[tuple, set] = {}
    alike: dict[tuple, int] = {}
    for role, ch in cast:
        key = (role, ch["name"], ch["class_name"] or "")
        owners.setdefault(key, set()).add(ch["faction"])
        alike[key + (ch["faction"],)] = alike.get(key + (ch["faction"],), 0) + 1
    places: dict[str, dict[str, int]] = {}  # faction -> {character id: its place among its look-alikes on the sheet}

    def place(faction: str, cid: str) -> int | None:
        if faction not in places:
            seen: dict[tuple, int] = {}
            places[faction] = {}
            for x in grail_of(state)["characters"].get(faction, []):
                k = (x["name"], x["class_name"] or "")
                seen[k] = seen.get(k, 0) + 1
                places[faction][x["id"]] = seen[k]
        return places[faction].get(cid)

    out = []
    for role, ch in cast:
        key, faction = (role, ch["name"], ch["class_name"] or ""), ch["faction"]
        name = ch["name"] + (f"({ch['class_name']})" if ch["class_name"] else "")
        ja, en = [f"{role.ja} {name}" if role else name], [f"{role.en} {name}" if role else name]
        if len(owners[key]) > 1 and faction in state.seats:
            ja.append(faction_name(state, faction))
            en.append(faction_name(state, faction))
        n = place(faction, ch["id"]) if alike[key + (faction,)] > 1 else None
        if n:
            ja.append(_nth_on_sheet(n).ja)
            en.append(_nth_on_sheet(n).en)
        out.append({"id": ch["id"], "label": {"ja": " · ".join(ja), "en": " · ".join(en)}})
    return out


def escape_timing(state: State, combat: dict, faction: str) -> tuple[str, str, int]:
    """T-12/T-13: (side, timing, seal effect) of an escape check the faction may make now: at setup (seal 6), or
    in cleanup after losing (seal 7), once per timing; else a clear error."""
    side = next((s for s in SIDES if faction in combat["sides"][s]), None)
    if side is None:
        raise GmError(f"{faction_name(state, faction)}はこの戦闘にいません",
                      f"{faction_name(state, faction)} is not in this combat")
    step = combat["step"]
    if step in ("setup", "setup_done"):
        timing, effect = "setup", 6
    elif step == "cleanup" and side != combat["winner"]:
        timing, effect = "cleanup", 7
    else:
        raise Conflict("逃走判定はセットアップか、敗北後のクリンナップで行います",
                       "An escape check is made at setup, or in cleanup after losing")
    if any(e["faction"] == faction and e["timing"] == timing for e in combat["escapes"]):
        raise Conflict(f"{faction_name(state, faction)}はこのタイミングで既に逃走判定をしました",
                       f"{faction_name(state, faction)} already made an escape check at this timing")
    return side, timing, effect


def check_modifier_now(combat: dict) -> None:
    """T-9/T-10: a labelled win-rate modifier goes in before the battle roll."""
    if combat["step"] in ("battle", "cleanup", "done"):
        raise Conflict("勝率の修正は勝敗判定の前に加えます", "Win-rate modifiers go in before the battle roll")


def gm_forms(state: State, combat: dict) -> dict:
    """T-9/T-12/T-13: what the GM console's seal, escape and win-rate modifier forms may do now, by the checks the
    actions make: `seals` {faction: [effects]} (3, 4, 5 with a seal left to pay), `escape` [factions] (the cost
    in seals is the action's to check: a pursuer may let a faction go for nothing), `modifier` bool."""
    def allowed(check, *args) -> bool:
        try:
            check(*args)
        except GmError:
            return False
        return True
    factions = [f for s in SIDES for f in combat["sides"][s]]
    seals = {f: effects for f in factions if f != GM_SIDE and seals_of(state, f) - pending_seals(state, f) >= 1
             for effects in [[e for e in CONSOLE_SEALS if allowed(check_seal_now, state, combat, f, e)]] if effects}
    return {"seals": seals, "escape": [f for f in factions if allowed(escape_timing, state, combat, f)],
            "modifier": allowed(check_modifier_now, combat)}


def pending_seals(state: State, faction: str) -> int:
    """T-13: the seals a revealed, unconfirmed setup / select takes from the faction when the GM confirms it
    (seal 1 or 2 of its answer): they are spoken for until then."""
    combat = current_combat(state)
    prompt = state.prompts.get(combat["prompt"]) if combat else None
    if prompt is None or not prompt.is_revealed or prompt.confirmed:
        return 0
    return sum(-d["delta"] for t, d in (prompt.resolution or {}).get("events", [])
               if t == "counter.changed" and d["seat"] == faction and d["key"] == "seals")


def need_seals(state: State, faction: str, cost: int, effect: int) -> None:
    """T-13: raise a clear error unless the faction holds `cost` seals (besides those a revealed step will take)."""
    if faction == GM_SIDE:
        raise GmError("GMの脅威側は令呪を持ちません", "The GM's threat side has no Command Seals")
    held = pending_seals(state, faction)
    have = seals_of(state, faction) - held
    if have < cost:
        ja, en = (f"、確定待ちの{held}画を除く", f" besides the {held} the revealed step takes") if held else ("", "")
        raise GmError(f"{faction_name(state, faction)}の令呪が足りません（令呪{effect}に{cost}画、残り{have}画{ja}）",
                      f"{faction_name(state, faction)} lacks seals (effect {effect} needs {cost}, has {have}{en})")


def _unpaid_seal(state: State, faction: str, effect: int) -> dict | None:
    """T-13: a seal declared in a secret answer that the faction can no longer pay when the step is revealed (it
    spent its seals since): the note that says it has no effect, else None."""
    if seals_of(state, faction) >= 1:
        return None
    return note(f"{faction_name(state, faction)}の令呪が足りないため、令呪{effect}は効果なし",
                f"{faction_name(state, faction)} has no Command Seal left: seal {effect} has no effect", "T-13")


def seal_drafts(state: State, faction: str, cost: int, effect: int) -> list:
    """T-13: the counter change that pays `cost` seals."""
    if cost <= 0:
        return []
    return counter_drafts(state, faction, "seals", seals_of(state, faction) - cost,
                          {"ja": f"令呪{effect} [T-13]", "en": f"Command Seal {effect} [T-13]"}, "T-13")


# -- what a session imported from a public export lacks ------------------------------

def need_stats(chars: list[Character]) -> None:
    """A session imported from a public export (docs/api.md 14) holds what the table saw: its characters have no
    stats (T-9). A combat needs them: refused in words (409), until the GM enters the characters again."""
    lacking = [c.name for c in chars if set(STATS) - set(c.stats)]
    if lacking:
        names = "、".join(lacking)
        raise Conflict(f"{names}の能力値がこのセッションにありません（公開エクスポートから読み込んだため）。"
                       "「キャラクター・真名看破」で登録し直すか、完全バックアップから読み込んでください",
                       f"The stats of {', '.join(lacking)} are not in this session (it was imported from a public "
                       "export): enter the characters again under 'Characters and true names', or import a full backup")


def need_caps(combat: dict) -> None:
    """A combat set up before a public export was made has no cap tracker in the imported session (the GM's
    bookkeeping, T-8): refused in words (409); the GM may end the combat."""
    if combat.get("caps") is None:
        raise Conflict("この戦闘の修正上限の記録がこのセッションにありません（公開エクスポートから読み込んだため）。"
                       "続けるには完全バックアップから読み込むか、「打ち切り」で戦闘を終えてください",
                       "This combat's record of the caps is not in this session (it was imported from a public "
                       "export): import a full backup to play it on, or stop it with 'End combat'")


# -- answers: the custom prompt kinds ------------------------------------------------

def _answer_context(prompt: Prompt, who: str, value: Any, state: State) -> tuple[dict, dict, str]:
    """An answer's object, its combat and the answering side (T-2)."""
    combat = combat_of(state, prompt.meta.get("combat", ""))
    if combat is None:
        raise GmError("この戦闘はありません", "This combat does not exist")
    return _obj(value), combat, side_of_respondent(prompt, who)


def validate_setup_answer(prompt: Prompt, who: str, value: Any, state: State) -> dict:
    """T-4: a side's setup: main (1), sub (0–1), others (0–2) of its own characters; seal 1 optional."""
    v, combat, side = _answer_context(prompt, who, value, state)
    uses = declared_uses(state, combat, who, v, "setup")
    if not leads(prompt, who):
        _only_skills(v, ("main", "sub", "others", "seal"))
        return {"uses": uses}
    chars = side_characters(state, combat, side)
    need_stats(chars)
    placed = validate_setup(chars, v.get("main") or None, v.get("sub") or None, v.get("others") or ())
    seal = v.get("seal")
    if seal in (None, "", False, 0, "0", "false", "off"):
        seal = None
    elif seal in (1, "1", True, "on", "true") or (isinstance(seal, dict) and seal.get("effect") in (1, "1")):
        seal = 1
    else:
        raise GmError("セットアップで宣言できる令呪は効果1（全ステータス+10）だけです",
                      "Only seal effect 1 (all stats +10) is declared with the setup")
    if seal:
        owner = next(c.faction for c in chars if c.id == placed["main"])
        need_seals(state, owner, 1, 1)
    return {"main": placed["main"], "sub": placed["sub"], "others": placed["others"], "seal": seal, "uses": uses}


def _only_skills(v: dict, fields: tuple) -> None:
    given = [f for f in fields if v.get(f) not in (None, "", [], False)]
    if given:
        raise GmError("同盟では先頭の陣営がメイン・戦力・令呪を選びます。あなたの陣営はスキルだけを宣言します",
                      f"In an alliance the first faction chooses {', '.join(given)}; your faction declares only its "
                      "skills [T-3]")


def _use_of_skill(ch: dict, k: dict, faction: str) -> dict:
    return {"skill": k["id"], "faction": faction, "character": ch["id"], "name": k["name"], "kind": k["kind"],
            "stat": k.get("stat"), "value": k.get("value"), "target": k.get("target", "self"),
            "win_rate": k.get("win_rate"), "mp": k.get("mp", 0)}


def modifier_value(value: Any, what_ja: str, what_en: str) -> int:
    """A modifier's whole number, at most ±MAX_MOD (docs/api.md, Limits › Rulesets: grail_trpg modifiers)."""
    amount = parse_int(value, what_ja, what_en)
    if abs(amount) > MAX_MOD:
        raise GmError(f"修正値は±{MAX_MOD}までです（{amount}）", f"A modifier is at most ±{MAX_MOD} ({amount})")
    return amount


def free_use(m: Any, faction: str | None, phase: str, gm: bool = False) -> dict:
    """T-8: a skill typed in (not on the sheet) or a GM modifier: {label, value, kind, stat, target, win_rate}."""
    if not isinstance(m, dict):
        raise GmError("スキル・宝具は名前・修正値・種類で指定します", "Each mod is {label, value, kind}")
    kinds = MOD_KINDS if gm else KINDS
    kind = m.get("kind") or "skill"
    if not isinstance(kind, str) or kind not in kinds:
        ja, en = one_of([(k.ja, f"{k.en} [{code}]") for code, k in kinds.items()])
        raise GmError(f"種類「{shown(kind)}」はありません。{ja}", f"There is no kind '{shown(kind)}': {en}")
    label = clean_text(m.get("label"), "スキル名", "skill name", limit=40)
    amount = modifier_value(m.get("value"), f"「{label}」の修正値", f"value of '{label}'")
    stat = m.get("stat") or None
    if stat is not None:
        check_stat(stat)
    if phase == "setup" and stat is None:
        raise GmError(f"「{label}」: セットアップの修正には能力値を指定します", f"'{label}': a setup modifier names its stat")
    target = "opponent" if m.get("target") in ("opponent", "1", 1, True, "on", "true") else "self"
    return {"skill": None, "faction": faction, "character": None, "name": label, "kind": kind, "stat": stat,
            "value": amount, "target": target, "win_rate": None, "mp": 0}


def declared_uses(state: State, combat: dict, who: str, v: dict, phase: str, stat: str | None = None) -> list:
    """T-1/T-3/T-5/T-13: the sheet skills (by id) and typed-in skills a faction declares at this timing,
    checked against the timing, its own T-3 limit, 宝具 already used and its MP."""
    refs = v.get("skills") or []
    refs = [refs] if isinstance(refs, str) else refs
    mods = v.get("mods") or []
    if not isinstance(refs, list) or not isinstance(mods, list) or len(refs) + len(mods) > 4:
        raise GmError("スキル・宝具は合わせて4つまでのリストです", "skills and mods are lists of at most 4 in all")
    left, used_ids, mp, spent, out = uses_left(combat, who), set(combat.get("used_skills", [])), mp_of(state, who), 0, []
    for ref in refs:
        ch, k = skill_of(state, who, str(ref))
        if any(u["skill"] == k["id"] for u in out):
            _twice(k["name"])
        refuse_unavailable(k["name"], unavailable(k, phase, left, used_ids, mp, spent))
        if k.get("value") is not None and k.get("target") != "opponent":
            if phase == "setup" and not k.get("stat"):
                raise GmError(f"「{k['name']}」は選んだ能力値への効果です（セレクトで使います）",
                              f"'{k['name']}' acts on the chosen stat (use it at a select)")
            _own_stat(k["name"], k.get("stat"), stat)
        left[k["kind"]] -= 1
        spent += k.get("mp", 0)
        out.append(_use_of_skill(ch, k, who))
    for m in mods:
        u = free_use(m, who, phase)
        if any(x["name"] == u["name"] for x in out):  # a typed-in skill follows a sheet skill's rules (T-3)
            _twice(u["name"])
        refuse_unavailable(u["name"], unavailable({"kind": u["kind"], "id": None}, phase, left, used_ids, None))  # T-3
        if u["target"] != "opponent":
            _own_stat(u["name"], u["stat"], stat)
        left[u["kind"]] -= 1
        out.append(u)
    return out


def _twice(name: str) -> None:
    """T-3: a skill is declared once per answer (on the sheet, by its id, or typed in, by its name)."""
    raise GmError(f"「{name}」を2回宣言しています（1つの回答で1回まで） [T-3]", f"'{name}' is declared twice (once per answer) [T-3]")


def _own_stat(name: str, on: str | None, chosen: str | None) -> None:
    """T-5/T-8: a skill on its own side's stat acts on the stat the side chose at this select: another is refused."""
    if chosen and on and on != chosen:
        raise GmError(f"「{name}」は{on}のスキルです（選んだのは{chosen}）",
                      f"'{name}' acts on {STAT_EN[on]} (you chose {STAT_EN[chosen]})")


def refuse_unavailable(name: str, why: dict | None) -> None:
    """A declared skill (on the sheet or typed in) that cannot be used now, refused with sheets.unavailable's reason."""
    if why:
        raise GmError(f"「{name}」は使えません: {why['ja']} [{why['rule']}]", f"Cannot use '{name}': {why['en']} [{why['rule']}]")


def _character_name(cid: Any) -> str:
    """A character's name from its id (s1/大河 → 大河), without the #2 that tells a second 大河 of one sheet apart
    (rules._unique_id): players read names, never ids (the setup's cast reads 大河・大河 alike)."""
    return re.sub(r"#\d+$", "", str(cid).split("/", 1)[-1]) if cid else ""


def _tag(name: Any, lang: str) -> str:
    """A skill's name as an answer shows it: 〈怪力〉, in English <怪力> (as the breakdowns write it)."""
    return f"<{name}>" if lang == "en" else f"〈{name}〉"


def setup_text(value: Any, lang: str = "ja") -> str:
    """T-4: a side's setup as it reads in a sentence (in `lang`)."""
    en = lang == "en"
    if not isinstance(value, dict):
        return str(value)
    if "main" not in value:
        return " ".join(_tag(u.get("name"), lang) for u in value.get("uses") or []) or ("no skills" if en else "スキルなし")
    parts = [f"{'Main' if en else 'メイン'} {_character_name(value.get('main'))}"]
    if value.get("sub"):
        parts.append(f"{'Sub' if en else 'サブ'} {_character_name(value['sub'])}")
    if value.get("others"):
        parts.append(("Others " if en else "その他 ") + (", " if en else "・").join(_character_name(o) for o in value["others"]))
    if value.get("seal"):
        parts.append("Command Seal 1" if en else "令呪1")
    parts += [_tag(u.get("name"), lang) for u in value.get("uses") or []]
    return " / ".join(parts)


def select_text(value: Any, lang: str = "ja") -> str:
    """T-5: a select as it reads in a sentence (in `lang`): the stat, each declared skill / 宝具, seal 2."""
    if not isinstance(value, dict):
        return str(value)
    stat = str(value.get("stat", ""))
    text = STAT_LABELS[stat].get(lang) if stat in STAT_LABELS else stat
    for m in value.get("mods") or []:
        text += " " + _tag(f"{m.get('label')} {minus_sign(int(m.get('value', 0)), True)}", lang)
    for u in value.get("uses") or []:
        text += " " + _tag(u.get("name"), lang)
    if value.get("seal"):
        text += " " + _tag("Command Seal 2 +30" if lang == "en" else "令呪2 +30", lang)
    return text.strip()


def validate_select_answer(prompt: Prompt, who: str, value: Any, state: State) -> dict:
    """T-5/T-3/T-13: one stat (not barred), the faction's skills / 宝具 (its own 2 each per scene), seal 2;
    an allied faction that is not its side's first declares only its skills."""
    v, combat, side = _answer_context(prompt, who, value, state)
    need_caps(combat)
    if not leads(prompt, who):
        _only_skills(v, ("stat", "seal"))
        return {"uses": declared_uses(state, combat, who, v, "select")}
    stat = v.get("stat")
    if not stat:
        raise GmError("戦力（ステータス）を1つ選んでください", "Choose one stat")
    check_stat(stat)
    reason = prompt.per_seat.get(who, {}).get(stat)
    if reason:
        raise GmError(f"{stat}は選べません: {text_in(reason, 'ja')} [T-5]",
                      f"{STAT_EN[stat]} cannot be chosen: {text_in(reason, 'en')} [T-5]")
    uses = declared_uses(state, combat, who, v, "select", stat)
    seal = v.get("seal")
    if seal in (None, "", False, 0, "0"):
        seal = None
    else:
        seal = seal if isinstance(seal, dict) else {"effect": seal}
        if parse_int(seal.get("effect"), "令呪の効果", "seal effect") != 2:
            raise GmError("セレクトで宣言できる令呪は効果2（リザルトで能力値+30）だけです",
                          "Only seal effect 2 (one stat +30 at the result) is declared with a select")
        if seal.get("stat") not in (None, "", stat):
            raise GmError("令呪2は選んだ戦力に使います", "Seal 2 applies to the chosen stat")
        main = combat["setup"][side]["main"]
        need_seals(state, combat["chars"][main]["faction"], 1, 2)
        seal = {"effect": 2, "stat": stat}
    return {"stat": stat, "uses": uses, "seal": seal}


# -- resolvers ----------------------------------------------------------------------

def _missing(prompt: Prompt, answers: dict) -> dict | None:
    absent = [w for w in prompt.respondents() if w not in answers]
    if not absent:
        return None
    return {"summary": {"ja": "未回答の側があります（「結果を確定」しても何も適用されません。そのあと「出し直す」で出し直せます）",
                        "en": "A side did not answer (press 'Confirm the result', which applies nothing, then 'Open it again')"},
            "winners": [], "rows": [], "notes": [], "events": []}


def _seal_event(state: State, combat: dict, side: str, faction: str, effect: int, text: Label,
                detail: dict | None = None) -> list:
    return [("grail.seal_used", {"combat": combat["id"], "faction": faction, "side": side, "effect": effect,
                                 "cost": 1, "text": text.to_dict(), "detail": detail or {}})] + \
        seal_drafts(state, faction, 1, effect)


def side_forces(setup: dict, chars: dict, readings: dict) -> dict:
    """T-4 (+T-13 effect 1): the side's public 戦力 per stat with its terms."""
    main = Character(**chars[setup["main"]])
    sub = Character(**chars[setup["sub"]]) if setup.get("sub") else None
    need_stats([main, *([sub] if sub else [])])  # (a public export's characters have none)
    out = force(main, sub, readings)
    if setup.get("seal") == 1:
        for s in STATS:
            out[s]["terms"].append(term(Label("令呪1: 全ステータス+10", "Seal 1: all stats +10"), 10, "T-13"))
            out[s]["value"] += 10
    return out


class Uses:
    """T-3/T-8/T-13: one scene's skill bookkeeping while a step resolves: every skill, 宝具, debuff and GM
    modifier goes through the one CapTracker (±30 per character and stat, the 100 ceiling), is counted
    against its faction's T-3 limit, spends its MP and lands as a term where it acts."""

    def __init__(self, state: State, combat: dict, tracker: CapTracker):
        self.state, self.combat, self.tracker = state, combat, tracker
        self.faction_uses = faction_uses(combat)
        self.used_skills = list(combat.get("used_skills", []))
        self.mp: dict[str, int] = {}
        self.notes: list[dict] = []
        self.events: list = []

    def apply(self, u: dict, side: str, main: dict, stat_of: dict, terms: dict) -> None:
        """Apply one use declared by `side`: `main` {side: character id}, `stat_of` {side: the stat compared
        (None at setup)}, `terms` {side: list} receives the term."""
        kind = u["kind"]
        if u.get("faction") and kind in USE_LIMITS:
            f = self.faction_uses.setdefault(u["faction"], {k: 0 for k in USE_LIMITS})
            f[kind] = f.get(kind, 0) + 1
        if u.get("skill"):
            self.used_skills.append(u["skill"])
        if u.get("mp") and u.get("faction") not in (None, GM_SIDE):
            self.mp[u["faction"]] = self.mp.get(u["faction"], 0) + u["mp"]
        base = use_label(kind, u["name"])
        if u.get("value") is not None:
            target = other(side) if u.get("target") == "opponent" else side
            stat = u.get("stat") or stat_of[target]
            if stat_of[target] is not None and stat != stat_of[target]:
                whose = "相手が選んだ" if target != side else "選んだ"
                self.notes.append(note(f"〈{u['name']}〉は{stat}への効果ですが、{whose}のは{stat_of[target]}なので効果なし",
                                       f"<{u['name']}> acts on {STAT_EN[stat]}, but {STAT_EN[stat_of[target]]} was chosen: "
                                       "no effect", "T-8"))
            else:
                r = self.tracker.apply(main[target], stat, u["value"], kind if kind in KINDS else "outside", base)
                moved = f"{minus_sign(u['value'], True)} → {minus_sign(r['applied'], True)}"
                label = base if not r["clipped"] else Label(f"{base.ja} {moved}", f"{base.en} {moved}")
                terms[target].append((stat, term(label, r["applied"], "GM" if kind == "outside" else "T-8")))
                self.notes += r["notes"]
        if u.get("win_rate") is not None:
            self.events.append(("grail.modifier_added", {
                "combat": self.combat["id"], "side": side, "label": u["name"], "value": u["win_rate"],
                "kind": kind, "faction": u.get("faction"), "skill": u.get("skill")}))
        if u.get("value") is None and u.get("win_rate") is None:
            self.notes.append(note(f"〈{u['name']}〉: 数値の効果はありません（GMが適用します）",
                                   f"<{u['name']}>: no numeric effect (the GM applies it)", "T-3"))

    def data(self) -> dict:
        """The bookkeeping the confirm stores: per-faction uses, side totals, used skills."""
        sides = {s: {k: sum(self.faction_uses.get(f, {}).get(k, 0) for f in self.combat["sides"][s]) for k in USE_LIMITS}
                 for s in SIDES}
        return {"faction_uses": self.faction_uses, "uses": sides, "used_skills": self.used_skills}

    def mp_drafts(self) -> list:
        """T-13: the MP the declared skills cost, as counter changes the confirm makes, each by the whole cost
        from the MP the faction holds then (change_at_confirm)."""
        out = []
        for f, cost in self.mp.items():
            out += change_at_confirm(self.state, f, "mp", -cost, {"ja": "スキルのMP [T-13]", "en": "skills' MP [T-13]"},
                                     "T-13")
        return out


def _answer_uses(answer: dict, faction: str) -> list:
    """An answer's declared uses (answers written before sheets carried `mods` only)."""
    if "uses" in answer:
        return list(answer["uses"])
    return [{"skill": None, "faction": faction, "character": None, "name": m["label"], "kind": m["kind"],
             "stat": None, "value": m["value"], "target": "self", "win_rate": None, "mp": 0}
            for m in answer.get("mods") or []]


def _side_uses(prompt: Prompt, answers: dict, side: str) -> list:
    """T-3: every use a side declared, its first seat's first, then each ally's."""
    members = members_of(prompt)
    lead = prompt.meta["respondents"][side]
    order = [lead] + [w for w, s in members.items() if s == side and w != lead]
    return [u for w in order if w in answers for u in _answer_uses(answers[w], w)]


def step_uses(combat: dict, prompt_id: str) -> list:
    """T-8: the GM modifiers and after-reveal skills entered on this step (use_skill)."""
    return list(combat.get("step_mods", {}).get(prompt_id, []))


def _gm_notes(prompt: Prompt, combat: dict) -> list:
    resp = prompt.meta["respondents"]
    return [note(f"GM修正〈{m['label']}〉{minus_sign(m['amount'], True)}は能力値を指定していないため戦力に入りません。"
                 "「修正」（use_skill）で能力値と種類を指定してください",
                 f"GM modifier <{m['label']}> {minus_sign(m['amount'], True)} names no stat and does not change 戦力; "
                 "enter it with use_skill (stat and kind)", "T-8")
            for m in prompt.modifiers if m["who"] in resp.values()]


def resolve_setup(prompt: Prompt, answers: dict, state: State, dice: Any, extra: tuple = ()) -> dict:
    """T-4/T-8: both setups revealed: 戦力 (sub halved per the Reading), seal 1, setup skills and debuffs
    through the cap (the side declared upon first), the events to confirm."""
    missing = _missing(prompt, answers)
    combat = combat_of(state, prompt.meta["combat"])
    if missing or combat is None:
        return missing or {"summary": {"ja": "戦闘がありません", "en": "No combat"}, "winners": [], "rows": [],
                           "notes": [], "events": []}
    readings = readings_of(state)
    resp = prompt.meta["respondents"]
    setup, forces, chars, rows, notes, events = {}, {}, {}, [], [], []
    for side in SIDES:
        pool = {c.id: c.to_dict() for c in side_characters(state, combat, side)}
        a = answers[resp[side]]
        placed = validate_setup([Character(**c) for c in pool.values()], a["main"], a["sub"], a["others"])
        setup[side] = {**placed, "seal": a.get("seal")}
        for cid in [placed["main"], placed["sub"], *placed["others"]]:
            if cid:
                chars[cid] = pool[cid]
        owner = chars[placed["main"]]["faction"]
        unpaid = _unpaid_seal(state, owner, 1) if setup[side]["seal"] == 1 else None
        if unpaid:
            setup[side]["seal"] = None
            notes.append(unpaid)
        forces[side] = side_forces(setup[side], chars, readings)
        text = {"main": placed["main"], "sub": placed["sub"], "others": list(placed["others"])}  # worded by setup_text
        rows.append({"who": resp[side], "name": combat["names"][side], "value": text, "terms": [], "total": None})
        if setup[side]["seal"] == 1:
            events += _seal_event(state, combat, side, owner, 1, Label("セットアップ: 全ステータス+10（上限外）",
                                                                        "Setup: all stats +10 (outside the cap)"))
    tracker = CapTracker({cid: {s: v for s, v in c["stats"].items()} for cid, c in chars.items()}, readings)
    for side in SIDES:
        if setup[side]["seal"] == 1:
            for s in STATS:
                tracker.apply(setup[side]["main"], s, 10, "seal")
    uses = Uses(state, combat, tracker)
    main = {s: setup[s]["main"] for s in SIDES}
    terms: dict = {s: [] for s in SIDES}
    declarer = combat["declarer"]
    for side in setup_order(declarer, other(declarer)):
        for u in _side_uses(prompt, answers, side):
            uses.apply(u, side, main, {"a": None, "b": None}, terms)
    for u in [*step_uses(combat, prompt.id), *extra]:
        uses.apply(u, u["side"], main, {"a": None, "b": None}, terms)
    for side in SIDES:
        for stat, t in terms[side]:
            forces[side][stat]["terms"].append(t)
            forces[side][stat]["value"] += t["value"]
    notes += uses.notes + _gm_notes(prompt, combat)
    if any(setup[s]["sub"] for s in SIDES):
        notes.append(reading_note(readings, "sub_part"))
    notes.append(note("セットアップのスキルは、宣言された側が先、宣言した側が後に使う", "Setup skills: the side declared upon first, "
                      "then the declarer", "T-4"))
    summary = {lang: " / ".join(f"{combat['names'][s]}: " + " ".join(f"{STAT_LABELS[k].get(lang) if k in STAT_LABELS else k}"
                                                                    f"{'' if lang == 'ja' else ' '}{v['value']}"
                                                                    for k, v in forces[s].items()) for s in SIDES)
               for lang in ("ja", "en")}
    events = [("grail.setup_done", {"combat": combat["id"], "setup": setup, "forces": forces, "chars": chars,
                                    "caps": tracker.to_dict(), **uses.data()})] + events + uses.events + uses.mp_drafts()
    return {"summary": {"ja": f"戦力 {summary['ja']}", "en": f"Force {summary['en']}"}, "winners": [], "rows": rows,
            "notes": notes, "events": events}


def resolve_select(prompt: Prompt, answers: dict, state: State, dice: Any, extra: tuple = (),
                   combat: dict | None = None) -> dict:
    """T-6/T-7/T-8: compare both selects (own skills, the opponent's debuffs, caps, seal 2, GM modifiers,
    affinity last); `combat` (the combat as it stood before this select) recomputes a confirmed result."""
    missing = _missing(prompt, answers)
    combat = combat or combat_of(state, prompt.meta["combat"])
    if missing or combat is None:
        return missing or {"summary": {"ja": "戦闘がありません", "en": "No combat"}, "winners": [], "rows": [],
                           "notes": [], "events": []}
    need_caps(combat)  # (a public export's combat has none)
    n = prompt.meta["select_no"]
    readings, resp = readings_of(state), prompt.meta["respondents"]
    tracker = CapTracker.from_dict(combat["caps"])
    uses = Uses(state, combat, tracker)
    choices, notes, events = {}, [], []
    np_used = dict(combat["np_used"])
    main = {s: combat["setup"][s]["main"] for s in SIDES}
    stat_of = {s: answers[resp[s]]["stat"] for s in SIDES}
    terms: dict = {s: [] for s in SIDES}
    declarer = combat["declarer"]
    for side in setup_order(declarer, other(declarer)):
        for u in _side_uses(prompt, answers, side):
            uses.apply(u, side, main, stat_of, terms)
    for u in [*step_uses(combat, prompt.id), *extra]:
        uses.apply(u, u["side"], main, stat_of, terms)
    notes += uses.notes
    for side in SIDES:
        a = answers[resp[side]]
        mods = [t for _, t in terms[side]]
        seal = a.get("seal")
        if seal:
            owner = combat["chars"][main[side]]["faction"]
            paid = any(x["effect"] == 2 and x.get("select_no") == n for x in combat["seals"][side])  # a revision
            unpaid = None if paid else _unpaid_seal(state, owner, 2)
            if unpaid:
                seal = None
                notes.append(unpaid)
            else:
                mods.append(term(Label(f"令呪2: {a['stat']}+30", f"Seal 2: {STAT_EN[a['stat']]} +30"), 30, "T-13"))
            if seal and not paid:
                events += _seal_event(state, combat, side, owner, 2, Label(f"リザルト: {a['stat']}+30（上限外）",
                                                                            f"Result: {STAT_EN[a['stat']]} +30 (outside the cap)"),
                                      {"stat": a["stat"], "select_no": n})
        mods += [term(m["label"], m["amount"], "GM") for m in prompt.modifiers if m["who"] == resp[side]]
        declared = [{"label": u["name"], "value": u.get("value"), "kind": u["kind"], "skill": u.get("skill"),
                     "faction": u.get("faction")} for u in _side_uses(prompt, answers, side)]
        choices[side] = {"stat": a["stat"], "mods": declared, "seal": seal,
                         "force": combat["forces"][side][a["stat"]]["value"]}
        np_used[side] = np_used[side] or a["stat"] == "宝具"
        choices[side]["_choice"] = SideChoice(a["stat"], choices[side]["force"], tuple(mods))
    res = compare(n, choices["a"].pop("_choice"), choices["b"].pop("_choice"), combat["carry"], readings,
                  combat["names"])
    result = res.to_dict()
    result["notes"] = result["notes"] + notes + select_notes(n, readings)
    events = [("grail.select_resolved", {"combat": combat["id"], "select_no": n, "choices": choices, "result": result,
                                         "caps": tracker.to_dict(), "np_used": np_used,
                                         "carry_next": res.magic_carry, **uses.data()})] + events + uses.events + \
        uses.mp_drafts()
    shown = select_resolution(n, result, combat["names"], resp)
    return {"summary": shown["summary"], "winners": shown["winners"], "rows": shown["rows"], "notes": shown["notes"],
            "events": events, "result": result}


def before_select(combat: dict) -> dict:
    """T-6: the combat as it stood before its last confirmed select (its caps, uses, carry, and the cast and
    戦力 it was compared with, whatever a seal 4 swapped since), for a result skill used after the confirm:
    the result is computed again from there with every use of that step."""
    restored = {k: v for k, v in combat.items() if k != "faction_uses"}
    restored.update(copy.deepcopy(combat["before_select"]))
    return restored


def cleanup_use(state: State, combat: dict, use: dict) -> dict:
    """T-11/T-8: a cleanup-timing skill, declared openly after the battle roll: a stat change goes through
    the scene's cap tracker onto the side's main (or the opposing main for a debuff); a win-rate change or a
    skill without numbers is listed for the GM to apply by hand (the battle is already decided)."""
    need_caps(combat)
    tracker = CapTracker.from_dict(combat["caps"])
    side, applied, notes = use["side"], [], []
    label = skill_label({"kind": use["kind"], "name": use["name"]})
    if use.get("value") is not None:
        target = other(side) if use.get("target") == "opponent" else side
        cid = combat["setup"][target]["main"]
        if use.get("stat"):
            r = tracker.apply(cid, use["stat"], use["value"], use["kind"], label)
            applied.append({"character": cid, "name": combat["chars"][cid]["name"], "stat": use["stat"],
                            "requested": use["value"], "applied": r["applied"], "clipped": r["clipped"],
                            "rule": "T-8"})
            notes += r["notes"]
        else:
            notes.append(note(f"〈{use['name']}〉は選んだ能力値への効果ですが、クリンナップでは能力値を選びません（GMが適用）",
                              f"<{use['name']}> acts on the chosen stat, but none is chosen at cleanup (the GM "
                              "applies it)", "T-11"))
    if use.get("win_rate") is not None:
        notes.append(note(f"〈{use['name']}〉の勝率{minus_sign(use['win_rate'], True)}: 勝敗判定は済んでいます（GMが適用）",
                          f"<{use['name']}> win rate {minus_sign(use['win_rate'], True)}: the battle roll is over (the GM applies "
                          "it)", "T-11"))
    if use.get("value") is None and use.get("win_rate") is None:
        notes.append(note(f"〈{use['name']}〉: 数値の効果はありません（GMが適用します）",
                          f"<{use['name']}>: no numeric effect (the GM applies it)", "T-11"))
    return {"combat": combat["id"], "phase": "cleanup", "use": use, "applied": applied,
            "by_hand": not applied or use.get("win_rate") is not None, "notes": notes, "caps": tracker.to_dict()}


# -- numbers shown between the steps --------------------------------------------------

def disabled_stats(combat: dict, side: str, readings: dict) -> dict:
    """T-5: the stats a side may not choose in its next select, with the reason."""
    sel = combat["selects"]
    prev = sel[-1]["choices"][side]["stat"] if sel else None
    before = sel[-2]["choices"][side]["stat"] if len(sel) >= 2 else None
    allowed = allowed_stats(prev, combat["np_used"][side], readings, before)
    return {s: {"ja": r["ja"], "en": r["en"]} for s, r in allowed.items() if r}


def win_rates(state: State, combat: dict) -> dict | None:
    """T-9: both sides' 勝率 term by term (None before the setup)."""
    if not combat.get("setup"):
        return None
    readings = readings_of(state)
    results = [s["result"] for s in combat["selects"]]
    out = {}
    for side in SIDES:
        seals = sum(1 for s in combat["seals"][side] if s["effect"] == 3)
        out[side] = win_rate(side, results, seen_count(state, combat, side),
                             len(combat["setup"][side]["non_combat"]), None, combat["modifiers"][side], readings,
                             seals=seals, forces={s: combat["forces"][s] for s in SIDES})
    return out


def advantages(combat: dict) -> dict:
    """T-6: 優位 / 劣位 counts so far per side."""
    out = {s: {"adv": 0, "dis": 0} for s in SIDES}
    for sel in combat["selects"]:
        w = sel["result"]["winner"]
        if w:
            out[w]["adv"] += 1
            out[other(w)]["dis"] += 1
    return out


def pairing_now(state: State) -> dict:
    """T-14: who picks next (fought and declined factions skipped) and whom it may choose."""
    g = grail_of(state)
    combats = g["combats"][g["round_start"]:]
    fought = {f for c in combats if c.get("result") != "aborted" for s in SIDES for f in c["sides"][s]}
    passed = set(g.get("passed", []))
    priority = g["priority"] or list(state.seats)
    pair = pairings(priority, fought | passed, g["out"], readings_of(state))
    if pair["picker"] is not None:
        pair["opponents"] = [f for f in pair["opponents"] if f not in passed]
    return {**pair, "priority": priority}



# -- the ruleset's part of a viewer's view (secrets stripped here) ---------------------

NEXT_LABELS = {"setup_done": Label("1stセレクトへ", "Open the 1st select"),
               "result1": Label("2ndセレクトへ", "Open the 2nd select"),
               "result2": Label("3rdセレクトへ", "Open the 3rd select"),
               "result3": Label("ファイナルリザルト（勝率）", "Final result (win rates)"),
               "final": Label("勝敗判定（1d100 + 勝率）", "Battle roll (1d100 + win rate)"),
               "cleanup": Label("クリンナップ（黒星・敗退）", "Cleanup (black stars, elimination)")}


def _character_view(c: dict, full: bool) -> dict:
    """T-9: a character as the viewer may see it; a sheet the session does not hold (a public export's import: its
    true name, stats and skills left out) reads null, as a hidden one does."""
    held = full and "stats" in c
    return {"id": c["id"], "name": c["name"], "class_name": c["class_name"], "faction": c["faction"],
            "true_name": c.get("true_name", "") if held else None, "stats": dict(c["stats"]) if held else None,
            "skills": [{**k, "effect_text": effect_text(k).to_dict()} for k in c.get("skills", [])] if held else None}


def skill_chips(state: State, c: dict, faction: str) -> dict:
    """T-1/T-3/T-5/T-13: the faction's skills and 宝具 for the timing now, each with its effect in words and,
    when it cannot be used, the reason (what the phone shows as one-tap chips)."""
    phase = phase_now(state, c)
    (left, used, spent), mp = skill_budget(state, c, faction), mp_of(state, faction)
    chips = []
    for ch in grail_of(state)["characters"].get(faction, []):
        for k in ch.get("skills", []):
            why = unavailable(k, phase, left, used, mp, spent) or after_the_roll(c)
            chips.append({"id": k["id"], "name": k["name"], "kind": k["kind"], "character": ch["name"],
                          "label": skill_label(k).to_dict(), "effect_text": effect_text(k).to_dict(),
                          "usable": why is None, "reason": why})
    return {"phase": phase, "uses_left": left, "mp": mp, "chips": chips}


def _setup_view(setup: dict, chars: dict) -> dict:
    """T-4: both sides' cast by name and class (main, sub, others), the non-combat count and seal 1."""
    out = {}
    for side in SIDES:
        s = setup[side]
        name = lambda cid: {"id": cid, "name": chars[cid]["name"], "class_name": chars[cid]["class_name"]}  # noqa: E731
        out[side] = {"main": name(s["main"]), "sub": name(s["sub"]) if s.get("sub") else None,
                     "others": [name(o) for o in s.get("others", [])], "non_combat": len(s["non_combat"]),
                     "seal": s.get("seal")}
    return out


def _pending_setup(pending: dict, state: State, viewer: Any) -> dict:
    """T-4: a revealed, unconfirmed setup with the cast and 戦力 its confirm will apply (`setup`, `forces`), read
    from its grail.setup_done as the viewer may see it (main and sub as one term, events.forces_seen; the GM's
    drafts are unfiltered, so their labels are read here)."""
    done = next((d for t, d in pending.get("events") or [] if t == "grail.setup_done"), None)
    if not done:
        return pending
    forces = forces_seen(done["forces"], done["setup"], done["chars"], state, viewer) if viewer.is_gm else done["forces"]
    return {**pending, "setup": _setup_view(done["setup"], done["chars"]), "forces": forces}


def _combat_view(state: State, c: dict, viewer: Any) -> dict:
    me = viewer.seat if viewer.kind == "seat" else None
    prompt = state.prompts.get(c["prompt"])
    waiting, pending, prompt_status = [], None, None
    if prompt:
        prompt_status = "confirmed" if prompt.confirmed else prompt.status
        if prompt.status in ("open", "locked"):
            waiting = [("GM" if w == GM_SIDE else state.seat_name(w)) for w in prompt.respondents() if w not in prompt.answers]
        elif prompt.status == "revealed" and not prompt.confirmed and prompt.resolution:
            pending = pending_view(prompt, state, viewer)
            if prompt.kind == "grail_setup":
                pending = _pending_setup(pending, state, viewer)
    setup = _setup_view(c["setup"], c["chars"]) if c.get("setup") else None
    side_of_me = next((s for s in SIDES if me in c["sides"][s]), None) if me else None
    mine = me if side_of_me else (GM_SIDE if viewer.is_gm and GM_SIDE in c["respondents"].values() else None)
    step = c["step"]
    next_label = NEXT_LABELS.get(step)
    if step == "setup" or step.startswith("select"):
        gone = prompt is None or prompt.status == "cancelled" or prompt.confirmed
        next_label = Label("出し直す", "Open it again") if gone else None
    forms = gm_forms(state, c) if viewer.is_gm and step != "done" else None
    answering = side_of_me or (next((s for s in SIDES if GM_SIDE in c["sides"][s]), None) if viewer.is_gm else None)
    return {
        "id": c["id"], "title": c["title"], "names": c["names"], "sides": c["sides"], "declarer": c["declarer"],
        "step": step, "step_label": STEP_LABELS[step].to_dict(), "prompt": c["prompt"], "prompt_status": prompt_status,
        "stat_labels": {s: label.to_dict() for s, label in STAT_LABELS.items()},
        "waiting": waiting, "pending": pending, "setup": setup,
        "forces": forces_seen(c.get("forces"), c.get("setup"), c.get("chars", {}), state, viewer),
        "selects": [{"select_no": s["select_no"], "choices": s["choices"], "result": s["result"]} for s in c["selects"]],
        "carry": c["carry"], "np_used": c["np_used"],
        "uses_left": {s: {k: use_limit(c, s, k) - c["uses"][s][k] for k in USE_LIMITS} for s in SIDES},
        "uses_left_by_faction": {f: uses_left(c, f) for s in SIDES for f in c["sides"][s]},
        "used_skills": list(c.get("used_skills", [])), "phase": phase_now(state, c),
        "skills": skill_chips(state, c, mine) if mine and step != "done" else None,
        "skills_by_faction": {f: skill_chips(state, c, f) for s in SIDES for f in c["sides"][s]}
        if viewer.is_gm and step != "done" else None,
        "gm_forms": forms,
        "setup_choices": setup_choices(state, c, answering) if answering and step == "setup" else None,
        "swaps": {f: swap_choices(state, c, next(s for s in SIDES if f in c["sides"][s]))
                  for f, effects in forms["seals"].items() if 4 in effects} if forms else None,
        "cleanup_skills": list(c.get("cleanup_skills", [])),
        "seals": c["seals"], "modifiers": c["modifiers"], "advantages": advantages(c),
        "win_rates": win_rates(state, c) if c.get("setup") else None, "final": c["final"],
        "battle": c["battle"], "winner": c["winner"],
        "escapes": [{**e, "cost": {**e["cost"], "words": seal_cost_words(e).to_dict()}} if e.get("cost") else e
                    for e in c["escapes"]],
        "escape_now": bool(c["escapes"]) and c.get("escape_action") == state.last_action, "result": c["result"],
        "respondents": c["respondents"], "your_side": side_of_me,
        "you_answer": bool(me) and side_of_me is not None,
        "you_lead": bool(me) and side_of_me is not None and c["respondents"][side_of_me] == me,
        "next": next_label.to_dict() if next_label else None, "done": step == "done",
    }


def view(state: State, viewer: Any) -> dict:
    """T: what one viewer may see: characters (true names and stats only to their faction, the factions
    that saw through them, and the GM), seen-through lists, readings, the combat and its breakdowns."""
    from .winrate import seal_effects
    g = grail_of(state)
    me = viewer.seat if viewer.kind == "seat" else None
    mine_seen = set(g["seen"].get(me, [])) if me else set()
    factions = []
    for fid in list(state.seats) + ([GM_SIDE] if g["characters"].get(GM_SIDE) else []):
        own = viewer.is_gm or fid == me
        factions.append({
            "id": fid, "name": faction_name(state, fid), "you": fid == me, "out": fid in g["out"],
            "characters": [_character_view(ch, own or ch["id"] in mine_seen) for ch in g["characters"].get(fid, [])],
            "seen": list(g["seen"].get(fid, [])) if own else None, "seen_count": seen_total(state, fid),
            "seals": state.counters.get(fid, {}).get("seals"), "black_stars": state.counters.get(fid, {}).get("black_stars"),
        })
    combats = g["combats"]
    current = shown_combat(state)
    pair = pairing_now(state)
    return {
        "factions": factions, "seal_effects": seal_effects(),
        "combat": _combat_view(state, current, viewer) if current else None,
        "history": [{"id": c["id"], "title": c["title"], "step": c["step"], "winner": c["winner"],
                     "names": c["names"]} for c in combats[-8:]],
        "out": list(g["out"]), "in_progress": current_combat(state) is not None,
        "pairing": pair,
        "stats": list(STATS), "you": me,
    }


OUT_FLAG = Label("敗退", "Out")  # T-11: a faction out of the Holy Grail War, on every screen's seat list and the write-up


def seat_flags(state: State) -> dict:
    """T-11: the factions eliminated (敗退), flagged wherever the seats' flags show (the write-up's final table too)."""
    return {f: [("grail_out", OUT_FLAG)] for f in grail_of(state)["out"] if f in state.seats}


def result_lines(view: dict, lang: str) -> list[str]:
    """T-11: the line under the write-up's final table (the ruleset's `standings_lines`, export/report.py), from the
    table's view: the last faction left in the war once every other is out, every faction out, or that the war is not
    decided yet and which factions are still in it."""
    factions = [f for f in (view.get("ruleset") or {}).get("factions", []) if f["id"] != GM_SIDE]
    if not factions:
        return []
    left = [f["name"] for f in factions if not f["out"]]
    en = lang == "en"
    if not left:
        return ["Result: every faction is out (T-11)" if en else "結果：全員敗退（T-11）"]
    if len(left) == 1 and len(factions) > 1:
        return [f"Result: {left[0]} is the last faction left in the war (every other is out, T-11)" if en
                else f"結果：{left[0]}が勝ち残り（ほかはすべて敗退、T-11）"]
    names = (", " if en else "、").join(left)
    return [f"Result: Not decided yet (in the war: {names})" if en else f"結果：未決着（健在：{names}）"]
