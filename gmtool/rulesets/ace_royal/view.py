"""Fate/Ace Royal: the ruleset's part of each viewer's view. A servant's unrevealed cards are
their owner's and the GM's; every other viewer sees only that a card is there."""

from __future__ import annotations

import re

from gmtool.core.model import Label, State, Viewer
from gmtool.core.ruleset import Ruleset

from . import rules as r
from .combat import SIDES, combat_preview, combat_strike, hand_code_due, hand_code_seen, pick_fixed
from .events import NAME, sees_secret
from .plan import rerollable
from .strings import STRINGS


def _pair(table: dict, key) -> dict | None:
    pair = table.get(key)
    return {"ja": pair[0], "en": pair[1]} if pair else None


def _card(card: dict | None) -> dict | None:
    if not card:
        return None
    return {"name": card["name"], "stats": list(card["stats"]),
            "skills": [{"key": s, "label": _pair(r.SKILLS, s)} for s in card.get("skills", ())]}


def plain(text: str) -> str:
    """A log line without its rule codes, for the players' screens (the log and the exports keep them)."""
    text = re.sub(r"[、;,]\s*A-\d+(?=[）)])", "", text)
    text = re.sub(r"\s*[（(]A-\d+[）)]", "", text)
    return re.sub(r"\s*\[A-\d+\]", "", text)


def player_view(state: State, g: dict, seat: str, viewer: Viewer) -> dict:
    """One player as `viewer` may see them."""
    p = g["players"][seat]
    own = sees_secret(viewer, seat)  # the GM console hiding secrets sees what the table sees
    hero = p["hero"] if (own or p["hero_revealed"]) else None
    cls = p["class"] if (own or p["class_revealed"] or p["class_known"]) else None
    turns = g.get("turns") or {}
    counters = state.counters.get(seat, {})
    return {
        "seat": seat, "name": state.seat_name(seat), "you": viewer.seat == seat,
        "state": p["state"], "state_label": _pair(r.SERVANT_STATES, p["state"]),
        "out": p["out"], "masterless": p["masterless"],
        # the badge: the coin's holder while still in a game not yet over (an out holder's coin waits for the phase
        # end, when it passes on to the next player still in, A-5)
        "active": g.get("active") == seat and not p["out"] and not g.get("over"),
        "current": turns.get("current") == seat and not g.get("over"),
        "hero": _card(hero), "class": _card(cls), "servant_set": p["hero"] is not None or p.get("unrecorded", False),
        # the GM's (its console's 開幕 waits for them, hidden cards or not); every other viewer reads false, so a table
        # reads the same before a public export and after its import
        # (either card: a hero card revealed alone leaves the class card out of the record)
        "servant_unrecorded": viewer.is_gm and (p["hero"] is None or p["class"] is None) and p.get("unrecorded", False),
        "hero_revealed": p["hero_revealed"], "class_revealed": p["class_revealed"], "class_known": p["class_known"],
        "stats": r.servant_stats(hero["stats"], cls["stats"]) if hero and cls else None,
        "mana": counters.get("mana"), "seals": counters.get("seals"), "hand": counters.get("hand"),
        "codes": counters.get("codes"), "assassin": counters.get("assassin"), "depletion": counters.get("depletion"),
        "slots": r.code_slots(p["reverse_placed"]), "reverse_placed": p["reverse_placed"],
        "turn_mods": list(p["turn_mods"]),
        "rerolls": rerollable(g, seat, counters.get("seals") or 0),  # quick seal 2's dice now (A-3)
    }


def _process_now(version: str, combat: dict, intercept_due: bool) -> str:
    """A-7, A-8: whose move the combat waits for now, the key of the line the phone and the console show."""
    if combat.get("strike"):
        return "intercept"  # the interceptor picked: the interception process
    if not combat["attacker_side"]["kind"]:
        return "attack"  # the attacker picks physical or magical
    if version == "quick" and not all(combat[f"{side}_side"]["faces"] for side in SIDES):
        return "dice"  # both combat dice count in the attacker's damage judgement
    if not intercept_due:
        return "no_interception"  # 先制 dealt damage: nobody picks again, resolve
    return "intercept_pick"  # the interceptor's pick fixes the attacker's damage and starts the interception


def view(state: State, viewer: Viewer) -> dict:
    """The ruleset's part of the view (RULES.md A): the table, the turn, the combat, the newest result."""
    g = state.extra.get(NAME)
    if not g:  # before setup: every field there all the same, null or empty (docs/rulesets/ace_royal.md §4)
        return {**({"me": None} if viewer.kind == "seat" else {}), "phase": "new", "version": None, "version_label": None, "order": [], "first_rolls": None,
                "first": None, "active": None, "current": None, "round": None, "step": None, "step_label": None,
                "steps": [{"key": k, "label": _pair(r.STEP_LABELS, k), "now": False} for k in r.STEPS],
                "turn": {}, "players": [], "exchange": None, "combat": None, "last_combat": None, "newest": None,
                "newest_action": [], "over": False, "winner": None}
    turns = g.get("turns") or {}
    rules: Ruleset = state.rules
    last = g.get("last")
    newest = None
    if last:
        event = {"seq": last["seq"], "type": last["type"], "actor": last["actor"], "data": last["data"]}
        declared = rules.event_type(last["type"])
        text = {"ja": declared.describe(event, state, "ja"), "en": declared.describe(event, state, "en")}
        newest = {"type": last["type"], "seq": last["seq"], "text": text,
                  "plain": {lang: plain(line) for lang, line in text.items()}}
    action_lines = []
    for rec in (g.get("last_action") or [])[:8]:  # every public result of the newest action, the main one first
        declared = rules.event_type(rec["type"])
        event = {"seq": rec["seq"], "type": rec["type"], "actor": rec["actor"], "data": rec["data"]}
        action_lines.append({"type": rec["type"], "seq": rec["seq"],
                             "plain": {lang: plain(declared.describe(event, state, lang)) for lang in ("ja", "en")}})
    combat = g.get("combat")
    ex = g.get("exchange")
    out = {
        "phase": g["phase"], "version": g["version"], "version_label": _pair(r.VERSIONS, g["version"]),
        "order": [{"seat": s, "name": state.seat_name(s)} for s in g["order"]],
        "first_rolls": g["first_rolls"], "first": g["first"], "active": g["active"],
        # at the game's end, the round it ended in (not the next one an elimination on one's own turn passed to, A-5)
        "current": turns.get("current"), "round": (g["over"] and g.get("ended_round")) or turns.get("round"),
        "step": g["step"], "step_label": _pair(r.STEP_LABELS, g["step"]),
        "steps": [{"key": k, "label": _pair(r.STEP_LABELS, k), "now": k == g["step"]} for k in r.STEPS],
        "turn": {k: v for k, v in (g.get("turn") or {}).items() if k != "encounter"},  # the roll: players[].rerolls
        "players": [player_view(state, g, s, viewer) for s in g["order"]],
        # only while it runs (A-1: the leftover classes leave the table when it ends): `next` is then always a seat
        "exchange": ({"pool": [_card(c) for c in ex["pool"]], "queue": list(ex["queue"]), "next": ex["queue"][0]}
                     if ex and ex["queue"] else None),
        "combat": None, "last_combat": g.get("last_combat"),
        "newest": newest, "newest_action": action_lines, "over": g["over"], "winner": g["winner"],
    }
    if combat:
        strike = combat_strike(state)
        intercept_due = not (strike and strike["skipped"])
        rolled = g["version"] != "quick" or all(combat[f"{side}_side"]["faces"] for side in ("attacker", "interceptor"))
        answered = combat.get("hand_code") or {}  # the answers themselves are their seats' (A-9): hand_code_seen
        out["combat"] = {**{k: v for k, v in combat.items() if k != "hand_code"},
                         "preview": combat_preview(state), "strike_now": strike,
                         "process": "intercept" if combat.get("strike") else "attack",
                         "process_now": _process_now(g["version"], combat, intercept_due),
                         "intercept_due": intercept_due,
                         "pick_fixed": {side: pick_fixed(state, combat, side) for side in SIDES},
                         "hand_code_due": hand_code_due(state) or {side: False for side in SIDES},
                         "hand_code": hand_code_seen(state, viewer),
                         "hand_code_answered": {side: side in answered for side in SIDES},
                         "ready": rolled and bool(combat["attacker_side"]["kind"])
                         and (not intercept_due or bool(combat["interceptor_side"]["kind"]))}
    if viewer.kind == "seat":  # a phone's own entry (null for a seat that does not play: none before the setup)
        out["me"] = next((p for p in out["players"] if p["seat"] == viewer.seat), None)
    return out


# why a player is out, as a flag on every seat list and the write-up's final table (out of mana: the 魔力
# counter's threshold flag `ace_royal_out`, 魔力切れ（脱落）, which this follows)
OUT_FLAGS = {reason: ("ace_royal_out" if reason == "mana" else f"ace_royal_out_{reason}", Label(*STRINGS[f"ace_royal.out_{reason}"]))
             for reason in ("mana", "seals", "assassin", "depletion")}


def seat_flags(state: State) -> dict:
    """A-2, A-10: every player out, flagged with the reason (the ruleset's `seat_flags`: each seat list, the phones' others
    card, the final table of the console, the table and the write-up). Out of mana the 魔力 counter's own flag says it
    while 魔力 is 0; this one only when it is not there (the GM raised 魔力 again after the player went out)."""
    g = state.extra.get(NAME) or {}
    flags = {}
    for seat, p in (g.get("players") or {}).items():
        flag = OUT_FLAGS.get(p["out"])
        if flag and seat in state.seats and flag[0] not in state.flags.get(seat, ()):
            flags[seat] = [flag]
    return flags


def result_lines(view: dict, lang: str) -> list[str]:
    """A-7: the line under the write-up's final table (the ruleset's `standings_lines`, export/report.py), from the
    table's view: the winner once the Holy Grail War is over (or none, a mutual knock-out), else that it is not decided
    yet; none before the game is set up."""
    g = view.get("ruleset") or {}
    if not g.get("players"):
        return []
    en = lang == "en"
    if not g.get("over"):
        return ["Result: Not decided yet (in play)" if en else "結果：未決着（ゲーム中）"]
    winner = next((p["name"] for p in g["players"] if p["seat"] == g.get("winner")), None)
    if winner is None:
        return ["Result: no winner, a mutual knock-out (A-7)" if en else "結果：相討ちにより勝者なし（A-7）"]
    return [f"Result: {winner} wins (A-7)" if en else f"結果：{winner}の勝利（A-7）"]
