"""Sugoroku (S): the ruleset's part of each viewer's view: board, turn, standings, battle, karma, and
true names only as core secrecy lets the viewer see the GM's committed answer (S-13)."""

from __future__ import annotations

from gmtool.core.errors import GmError
from gmtool.core.model import Label, State
from gmtool.core.view import pending_view

from . import battle as B
from . import flow as F
from . import rules as R
from .events import is_revealed, sg, true_name


def _term(ja: str, en: str, value: int, rule: str) -> dict:
    return {"label": {"ja": ja, "en": en}, "value": value, "rule": rule}


def _player(state: State, s: dict, seat: str, viewer) -> dict:
    c = state.counters[seat]
    info = s["players"].get(seat, {})
    terms = list(s["vp_terms"].get(seat, []))
    rest = c["vp"] - sum(t["value"] for t in terms)
    if rest:
        terms.append(_term("その他（マスのイベント・GM）", "other (square events, GM)", rest, "S-3"))
    return {"seat": seat, "name": state.seat_name(seat), "faction": state.seats[seat].faction,
            "master": info.get("master", ""), "servant": info.get("servant", ""),
            "true_name": true_name(state, seat, viewer), "revealed": is_revealed(state, seat),
            "has_true_name": info.get("has_true_name", False), **c,
            "uses_left": R.SKILL_USES_PER_ROUND - c["uses"], "can_np": c["mana"] >= R.NP_MIN_MANA,
            "subjugation": "subjugation" in state.flags.get(seat, []), "out": seat in s["out"],
            "at_goal": seat in s["goal"], "goal_place": s["goal"].index(seat) + 1 if seat in s["goal"] else None,
            "vp_terms": terms, "cp_terms": info.get("cp_terms", [])}


OUT_FLAG = Label("脱落", "Out of the war")  # S-10


def seat_flags(state: State) -> dict:
    """S-10: the players out of the war, flagged on every screen that lists the seats (the phones' others card …)."""
    return {seat: [("sugoroku_out", OUT_FLAG)] for seat in (sg(state) or {}).get("out", [])}


def board_marker(name: str, others: list[str]) -> str:
    """A player's token on the table's board: the shortest start of the name (2 characters at least) that no other
    player's name starts with (セイバー / セイバー・オルタ, Shirou / Shinji), else the whole name."""
    for n in range(2, len(name)):
        if not any(o[:n] == name[:n] for o in others):
            return name[:n]
    return name


def _winner_words(won: list) -> dict | None:
    """S-1: the game's winners as every screen reads them: 「ライダー（戦果 48）」, a tie 「セイバー、アーチャー（同点・戦果 30）」."""
    if not won:
        return None
    tied = len(won) > 1
    return {"ja": "、".join(r["name"] for r in won) + f"（{'同点・' if tied else ''}戦果 {won[0]['vp']}）",
            "en": ", ".join(r["name"] for r in won) + f" ({'tied, ' if tied else ''}VP {won[0]['vp']})"}


def _battle_view(state: State, s: dict, viewer) -> dict | None:
    b = s["battle"]
    if not b:
        return None
    prompt = state.prompts.get(b["prompt"])
    revealed = prompt is not None and prompt.status == "revealed"
    return {**b, "fighters": B.fighters(b), "status": prompt.status if prompt else "missing",
            "answered": [w for w in (prompt.answers if prompt else {})], "revealed": revealed,
            "terrain_text": R.attribute_words(b["terrain"], "ja"),
            "terrain_words": {lang: R.attribute_words(b["terrain"], lang) for lang in ("ja", "en")},
            # the events its confirm will write, each as its type shows it to `viewer` (core's pending_view)
            "result": pending_view(prompt, state, viewer) if revealed else None,
            "names": {f: state.seat_name(f) for f in [b["parent"], *b["children"]]}}


def view(state: State, viewer) -> dict:
    """The ruleset's part of a viewer's view: board, turn, standings, battle, karma, true names (revealed only)."""
    s = sg(state)
    base = {"seal_effects": {k: v.to_dict() for k, v in R.SEAL_EFFECTS.items()},
            "rounds": {k: v.to_dict() for k, v in R.ROUND_LABELS.items()}}
    if s is None:
        return {"ready": False, **base, "seats": [{"id": k, "name": v.name} for k, v in state.seats.items()],
                "default_board_length": R.DEFAULT_BOARD_LENGTH,
                "skip_allowed": R.skip_to_climax_allowed(max(1, len(state.seats)))["ok"]}
    players = {seat: _player(state, s, seat, viewer) for seat in state.seats}
    for seat, p in players.items():
        p["marker"] = board_marker(p["name"], [o["name"] for k, o in players.items() if k != seat])
    act = F.active(state)
    ranked = sorted(act, key=lambda p: -players[p]["vp"])
    standings = []
    places = R.places([players[p]["vp"] for p in ranked])  # tied players share a place (1, 2, 2, 2)
    for i, p in enumerate(ranked):
        above = players[ranked[i - 1]]["vp"] - players[p]["vp"] if i else None
        standings.append({"seat": p, "name": players[p]["name"], "vp": players[p]["vp"], "rank": places[i], "gap_above": above})
    won = [r for r in standings if r["seat"] in R.winners(standings)] if s["finished"] else []  # S-1: ties share
    elim = R.eliminated_after_round({p: players[p]["vp"] for p in act}, s["round"], F.readings(state)) \
        if len(act) > 1 else {"last": [], "gap": None, "out": [], "notes": [], "terms": []}
    length = s["board_length"]
    board = [{"n": i, "seats": [p for p in act if players[p]["position"] == i],
              "terrain": s["squares"].get(str(i), {}).get("terrain", {}), "vp": s["squares"].get(str(i), {}).get("vp"),
              "label": s["squares"].get(str(i), {}).get("label", ""), "start": i == 0, "goal": i == length}
             for i in range(length + 1)]
    check = F.round_check(state)
    round_over = s["round_over"] or (check["reason"] if check["over"] else None) or \
        (R.ended_by_gm(s["round"]) if s["round_ended"] else None)  # S-2: ended before its end condition
    # S-2: a round that is over (ended, or its end condition met: the roll is refused) has nobody to move
    next_up = F.current_mover(state)  # who would roll next; ending the phase waits for them (end_phase)
    mover = None if s["round_ended"] or round_over else next_up
    # S-2: the phase a screen shows: the one being played; once the round is over, the last one played
    # (an ended phase has already counted on to the next, which never comes: 9/8, or 7/8 after a goal end).
    # S-3/S-7: a phase's battles are fought after everyone's turn, within that phase: while the battles end_phase
    # listed are pending or fought (nobody has rolled in the next phase yet), the phase shown is the one they belong to
    closing = round_over or s["round_ended"] or s["pending"] or s["battle"]
    shown = s["phase"] - 1 if closing and not s["moved"] else s["phase"]
    out = {**base, "ready": True, "round": s["round"], "round_label": R.ROUND_LABELS[s["round"]].to_dict(),
           "phase": s["phase"], "phase_shown": max(1, min(shown, R.ACTION_PHASES_PER_ROUND)),
           "phases_max": R.ACTION_PHASES_PER_ROUND, "goal_needed": R.GOAL_COUNT_TO_END[s["round"]],
           # S-2: what the screens say ends the round: fewer players in the war than the goal count all at the goal,
           # under Reading round_end_all_at_goal (2 players read 「ゴール 0/6」 and 「6人のゴールで終了」)
           "goal_ends": min(R.GOAL_COUNT_TO_END[s["round"]], len(act))
           if R.reading(F.readings(state), "round_end_all_at_goal") else R.GOAL_COUNT_TO_END[s["round"]],
           "board_length": length, "board": board, "players": players,
           "order": [{"seat": p, "name": players[p]["name"], "moved": p in s["moved"], "at_goal": p in s["goal"],
                      "current": p == mover} for p in s["order"]],
           "current": mover, "current_name": state.seat_name(mover) if mover else None,
           "all_moved": next_up is None or s["round_ended"], "standings": standings,
           "elimination": {"last": elim["last"], "gap": elim["gap"], "at_risk": bool(elim["out"]) and s["round"] != "climax",
                           "gap_limit": R.ELIMINATION_GAP, "terms": elim["terms"]},
           "goal": [{"seat": p, "name": players[p]["name"], "place": i + 1} for i, p in enumerate(s["goal"])],
           "pending": [{**b, "names": [state.seat_name(f) for f in b["fighters"]]} for b in s["pending"]],
           "battle": _battle_view(state, s, viewer), "last_battle": s["last_battle"],
           "karma_pending": [{**k, "victor_name": state.seat_name(k["victor"]), "target_name": state.seat_name(k["target"]),
                              "max": R.karma_conversion_max(state.counters[k["target"]]["karma"])}
                             for k in s["karma_pending"]],
           "round_over": round_over,
           # S-1: a round just begun: nobody has moved or fought in it yet (the stage's headline until the first move)
           "round_start": not s["round_ended"] and s["phase"] == 1 and not s["moved"] and s["last_move"] is None
           and not s["battle"] and not s["pending"],
           # the action that began the round (setup, start_round): the headline gives way to any later line (S-1)
           "start_action": s["start_action"],
           "round_ended": s["round_ended"], "finished": s["finished"], "vote": s["vote"],
           "vote_waiting": F.vote_waiting(state),
           "winners": [{"seat": r["seat"], "name": r["name"], "vp": r["vp"]} for r in won],
           "winner_words": _winner_words(won),
           "candidates": s.get("candidates", []), "out": list(s["out"]),
           # S-10: the tied last places the GM may still put out: one of them goes, so none once one is out; only
           # between rounds (the round ended, the next not begun) and never once the game is over (eliminate's 409)
           "out_candidates": [c for c in s.get("candidates", []) if c not in s["out"]]
           if s["round_ended"] and not s["finished"] and not set(s.get("candidates", [])) & set(s["out"]) else [],
           # none once the game is over: after the climax, or with one player left in the war (S-1/S-10)
           "next_round": R.ROUNDS[R.ROUNDS.index(s["round"]) + 1] if s["round"] != "climax" and not s["finished"] else None,
           "history": s["history"], "challenges": s["challenges"]}
    if viewer.kind == "seat" and viewer.seat in players:
        me = viewer.seat
        try:
            targets = [t for t in F.challenge_targets(state, me) if F.target_refusal(state, t) is None]
        except GmError:
            targets = []
        out["me"] = {"seat": me, "your_turn": mover == me and not s["battle"] and not s["pending"] and not out["round_over"],
                     "challenge_targets": [{"seat": t, "name": state.seat_name(t)} for t in targets],
                     "can_free_move": F.just_rolled(state, me) and not players[me]["at_goal"],
                     "fighting": bool(s["battle"] and me in B.fighters(s["battle"])),
                     "is_parent": bool(s["battle"] and s["battle"]["parent"] == me),
                     "karma": [k for k in out["karma_pending"] if k["victor"] == me]}
    return out


def result_lines(view: dict, lang: str) -> list[str]:
    """S-1: the line under the write-up's final table (the ruleset's `standings_lines`, export/report.py), from the
    table's view: who won with how many 戦果 (every player tied for the most), or that the game is not decided yet
    and where it stands; none before the setup."""
    s = view.get("ruleset") or {}
    if not s.get("ready"):
        return []
    won = s["winners"]
    if won:
        names = ("、" if lang != "en" else ", ").join(r["name"] for r in won)
        tied = len(won) > 1
        return [f"Result: {names} win{'' if tied else 's'} ({'tied, ' if tied else ''}VP {won[0]['vp']}, S-1)"
                if lang == "en" else f"結果：{names}の優勝（{'同点・' if tied else ''}戦果 {won[0]['vp']}、S-1）"]
    where = s["round_label"]["en" if lang == "en" else "ja"]
    return [f"Result: Not decided yet ({where} {'over' if s['round_ended'] else 'in play'})" if lang == "en"
            else f"結果：未決着（{where}{'終了' if s['round_ended'] else '進行中'}）"]
