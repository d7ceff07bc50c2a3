"""Sugoroku Holy Grail War (双六聖杯戦争, RULES.md S): rounds, true-name votes, and the action table.

Flow (docs/rulesets/sugoroku.md): setup → per action phase every player ``roll_move`` (phones) and the
GM applies square events → ``end_phase`` lists the battles → ``start_battle`` / cards / ``end_battle`` →
after 8 phases or the goal count ``end_round`` (goal 魔力, elimination, the true-name vote) →
``start_round``. Rules live in rules.py; events in events.py; the view in view.py.
"""

from __future__ import annotations

from typing import Any

from gmtool.core import engine
from gmtool.core import prompts as P
from gmtool.core.commands import CounterRun, clean_text, flag_field
from gmtool.core.errors import Conflict, GmError
from gmtool.core.model import CounterDef, Label, Prompt, State, Threshold
from gmtool.core.resolvers import BUILTIN, Resolver
from gmtool.core.ruleset import action

from . import battle as B
from . import flow as F
from . import rules as R
from .events import is_revealed, sg
from .strings import STRINGS

COUNTERS = (
    CounterDef("position", Label("位置", "Square"), start=0, min=0, max=R.MAX_BOARD),
    CounterDef("mana", Label("魔力", "Mana"), start=0, min=R.MANA_MIN, max=R.MANA_MAX),
    CounterDef("vp", Label("戦果", "VP"), start=0, min=None, max=R.VP_MAX),
    CounterDef("karma", Label("カルマ", "Karma"), start=0, min=0, max=R.KARMA_MAX,
               thresholds=(Threshold(R.SUBJUGATION_AT, "subjugation", Label("討伐令", "Subjugation order"), "S-12"),)),
    CounterDef("seals", Label("令呪", "Command Seals"), start=R.SEALS_PER_PLAYER, min=0, max=R.SEALS_PER_PLAYER),
    CounterDef("uses", Label("スキル・宝具使用", "Skill/NP uses"), start=0, min=0, max=R.SKILL_USES_PER_ROUND),
    CounterDef("reveal_count", Label("スキル使用＋戦闘", "Skill uses + battles"), start=0, min=0, max=R.REVEAL_COUNT_MAX),
)


# -- rounds ---------------------------------------------------------------------------------------

def _open_vote(state: State, tx: CounterRun, remaining: list[str], ctx_resolvers: dict) -> str | None:
    """S-13 真名看破投票: every remaining player votes secretly for another, unrevealed faction."""
    unrevealed = [p for p in remaining if not is_revealed(state, p)]
    voters = [v for v in remaining if any(u != v for u in unrevealed)]
    if not voters:
        return None
    pid = f"sg-vote-{sg(state)['round']}"
    own = {"ja": "自分には投票できません", "en": "You cannot vote for yourself"}
    known = {"ja": "真名判明済み", "en": "True name already known"}
    disabled = {v: {v: own, **{r: known for r in remaining if r != v and r not in unrevealed}} for v in voters}
    round_label = R.ROUND_LABELS[sg(state)['round']]
    tx.drafts += P.open_prompt(state, pid, {"title": {"ja": f"真名看破投票（{round_label.ja}）",
                                                      "en": f"True name vote ({round_label.en})"},
                                            "kind": "seat", "options": remaining, "seats": voters,
                                            "disabled": disabled, "resolver": "sugoroku_vote",
                                            "meta": {"voters": voters}}, ctx_resolvers)
    return pid


def end_round(state: State, payload: dict, ctx) -> list:
    """S-2/S-9/S-10/S-15: end the round: goal 魔力 recovery, elimination by a 10 VP gap, uses reset, the vote."""
    s = F.started(state)
    F.require_no_battle(s)
    if s["round_ended"]:
        raise Conflict("ラウンドは既に終了しています", "The round is already over")
    check = F.round_check(state)
    over = s["round_over"] or (check["reason"] if check["over"] else None)
    if not over and not flag_field(payload, "force", ja="強制"):
        ja, en = STRINGS["sugoroku.end_the_round"]  # the console's button ends it anyway
        raise Conflict(f"終了条件（S-2）をまだ満たしていません：残り{check['phases_left']}フェイズ（それでも終えるなら「{ja}」）",
                       f"The end condition (S-2) is not met: {check['phases_left']} phases left (to end it anyway: "
                       f"'{en}'; force: true)")
    reason = over or {"ja": "GMが終了", "en": "ended by the GM", "rule": "S-2"}
    ended_at = s["phase"] if s["moved"] else s["phase"] - 1
    tx = CounterRun(state)
    tx.emit("sugoroku.round_ended", {})
    recoveries = {}
    for seat in s["goal"]:
        turns = recoveries[seat] = max(0, ended_at - s["goal_phase"][seat])
        if turns:
            tx.add(seat, "mana", R.goal_mana_recovery(turns)["value"], (f"ゴール後の経過ターン{turns}×1",
                                                                        f"{turns} turns after the goal × 1"), "S-9")
    players = F.active(state)
    elim = R.eliminated_after_round({p: tx.value(p, "vp") for p in players}, s["round"], F.readings(state))
    remaining = [p for p in players if p not in elim["out"]]
    # S-1: the climax ends the game; so does an elimination that leaves one player in the war (gmtool's reading)
    final = s["round"] == "climax" or (len(remaining) == 1 < len(players))
    if final and s["round"] != "climax":
        elim["notes"].append(R.last_one_left(state.seat_name(remaining[0])))
    for seat in elim["out"]:
        tx.emit("sugoroku.eliminated", {"seat": seat, "gap": elim["gap"], "reason": {
            "ja": f"次点との差{elim['gap']}（10以上）", "en": f"{elim['gap']} VP behind the next player (10 or more)",
            "rule": "S-10"}})
    for seat in players:
        tx.set(seat, "uses", 0, ("ラウンド終了：スキル・宝具の使用回数をリセット", "end of the round: skill / NP uses reset"), "S-15")
    vote = None
    if not final and flag_field(payload, "vote", True, ja="真名看破投票"):
        vote = _open_vote(state, tx, remaining, ctx.resolvers)
    standings = sorted(({"seat": p, "vp": tx.value(p, "vp")} for p in players), key=lambda r: -r["vp"])
    winners = R.winners(standings) if final else []  # S-1: a tie for the most VP is a shared victory
    tx.drafts[0] = ("sugoroku.round_ended", {
        "round": s["round"], "reason": reason, "ended_at": ended_at, "recoveries": recoveries, "standings": standings,
        "eliminated": elim["out"], "candidates": elim["candidates"], "gap": elim["gap"], "notes": elim["notes"],
        "vote": vote, "final": final, "winners": winners, "winner": winners[0] if winners else None})
    return tx.drafts


OUT = {"ja": "脱落（S-10）", "en": "out of the war (S-10)"}  # why a seat put out answers a vote no more (prompt.dropped)
OUT_OPTION = {"ja": "脱落済み（S-10）", "en": "Out of the war (S-10)"}  # beside its name on the others' phones
NOBODY_LEFT = {"ja": "投票できる相手がいない（S-13）", "en": "nobody left to vote for (S-13)"}


def eliminate(state: State, payload: dict, ctx) -> list:
    """S-10: the GM puts a player out (a tied last place under Reading elimination_tie=gm, or a ruling at any time);
    the round's true-name vote and its tie-break go on without it (S-13)."""
    s = F.started(state)
    seat = F.acting_seat(state, payload, ctx)  # none, unknown, out already, the climax over: refused
    name = state.seat_name(seat)
    if F.active(state) == [seat]:  # a session written before the last player left won (the eliminated event's winner)
        raise Conflict(f"{name}は最後に残ったプレイヤーです（脱落させると誰も残りません） [S-10]",
                       f"{name} is the last player left in the war: nobody would be left (S-10)")
    if (s["battle"] and seat in B.fighters(s["battle"])) or any(seat in b["fighters"] for b in s["pending"]):
        ja, en = STRINGS["sugoroku.skip_2"]
        raise Conflict(f"{name}は戦闘に加わっています：先に戦闘を終えるか「{ja}」にしてください [S-7]",
                       f"{name} is in a battle: finish it or '{en}' it first (S-7)")
    if F.in_challenge(s, seat):
        raise Conflict(f"{name}はこの行動フェイズの挑戦に加わっています：行動フェイズを終え、その戦闘を終えるか"
                       "行わないことにしてください [S-6]",
                       f"{name} is in a challenge of this action phase: end the phase, then fight or skip that battle "
                       "first (S-6)")
    why = clean_text(payload.get("reason"), "理由", "reason", 100, False) or ""  # none: the log says the GM's ruling
    data = {"seat": seat, "gap": None, "reason": {"ja": why, "en": why, "rule": "S-10"}}
    left = [p for p in F.active(state) if p != seat]
    if len(left) == 1:  # gmtool's reading (S-1/S-10): the last player left in the war wins, the game is over
        data["winner"] = left[0]
    plan = engine.Plan(state)
    plan.extend([("sugoroku.eliminated", data)])
    _vote_goes_on(plan, seat, ctx)
    return plan.drafts


def _vote_goes_on(plan: engine.Plan, seat: str, ctx) -> None:
    """S-13: the round's true-name vote and its tie-break without a seat just put out (S-10, folded in the plan): it
    votes and decides no more, and nothing the vote does reveals its true name."""
    st = plan.sim
    vote = st.prompts.get(sg(st).get("vote") or "")
    if vote is None:
        return
    if vote.status in ("open", "locked"):
        _unrevealed_vote_without(plan, vote.id, seat, ctx)
    elif vote.is_revealed and not vote.confirmed:  # the result as it stands without the seat (resolve_vote)
        plan.extend(P.resolve_again(st, vote.id, ctx.resolvers, ctx.dice))
    tb = _live_tiebreak(st, vote.id)
    if tb is not None:
        _tiebreak_without(plan, tb.id, seat, ctx)


def _unrevealed_vote_without(plan: engine.Plan, vid: str, seat: str, ctx) -> None:
    """The open vote: the seat put out is greyed out on every other phone (a vote given for it is void, and awaited
    again: core's void), it is taken off the vote (a vote it gave is withdrawn, never revealed), and a voter left with
    nobody to vote for votes no more; the last answer awaited gone, the vote is revealed (core's drop). Greyed out
    first: taking it off must not reveal the vote with votes for it in it."""
    st = plan.sim
    if seat in st.prompts[vid].seats and len(st.prompts[vid].respondents()) < 2:
        plan.extend(P.cancel(st, vid, said={"ja": "投票する人がいない（S-10）", "en": "nobody left to vote (S-10)"}))
        return
    if seat in st.prompts[vid].options:
        plan.extend(P.disable_option(st, vid, seat, OUT_OPTION))
    if seat in st.prompts[vid].seats:
        plan.extend(P.drop(st, vid, seat, OUT, ctx.resolvers, ctx.dice))
    for voter in list(st.prompts[vid].seats):
        vote = st.prompts[vid]
        left = [o for o in vote.options if o not in vote.per_seat.get(voter, {}) and o in F.active(st)]
        if vote.status not in ("open", "locked") or left:
            continue
        if len(vote.respondents()) < 2:
            plan.extend(P.cancel(st, vid, said=NOBODY_LEFT))
            return
        plan.extend(P.drop(st, vid, voter, NOBODY_LEFT, ctx.resolvers, ctx.dice))


def _tiebreaks(state: State, vote_id: str) -> list[Prompt]:
    """S-13: the tie-breaks a true-name vote opened, in order (<vote>-tb, then -tb2 … when one opened again)."""
    return [p for p in state.prompts.values() if p.resolver == "sugoroku_tiebreak" and p.meta.get("vote") == vote_id]


def _next_tiebreak_id(state: State, vote_id: str) -> str:
    n = len(_tiebreaks(state, vote_id)) + 1
    return f"{vote_id}-tb" if n == 1 else f"{vote_id}-tb{n}"


def _live_tiebreak(state: State, vote_id: str) -> Prompt | None:
    """The vote's tie-break not yet confirmed (open, locked, or revealed), if any."""
    return next((p for p in _tiebreaks(state, vote_id)
                 if p.status in ("open", "locked") or (p.is_revealed and not p.confirmed)), None)


def _decider(state: State) -> tuple[list, str]:
    """S-13: the last places still in the war and who decides a tie: the last-placed player, the GM when tied."""
    last = _last_places(_standings(state))
    return last, last[0] if len(last) == 1 else "gm"


def _tiebreak_without(plan: engine.Plan, tid: str, seat: str, ctx) -> None:
    """S-13: the vote's tie-break without a seat just put out. Among the tied, it can no longer be picked (greyed
    out; the one tied left is revealed without a tie-break; a pick of it already made, not confirmed, is made again,
    resolve_tiebreak). As the last place deciding, it decides no more: the last place left does, or the GM when that
    last place is tied; a tie-break with the GM goes to the last place once one player alone is last."""
    st = plan.sim
    tb = st.prompts[tid]
    if tb.is_revealed:  # answered: the pick stands unless it is the seat put out
        plan.extend(P.resolve_again(st, tid, ctx.resolvers, ctx.dice))
        return
    vote_id, name = tb.meta.get("vote"), st.seat_name(seat)
    tied = [p for p in tb.options if p in F.active(st)]
    if len(tied) == 1:
        plan.extend(P.cancel(st, tid, said={"ja": f"{name}が脱落（S-10）：同数で残るのは{st.seat_name(tied[0])}だけ",
                                         "en": f"{name} is out (S-10): {st.seat_name(tied[0])} is the only one of the "
                                               "tied left"}))
        tx = CounterRun(st)
        F.reveal(tx, tied[0], {"ja": "真名看破投票：同数で残ったのは1人（ほかは脱落）",
                               "en": "true-name vote: the only one of the tied left in the war", "rule": "S-13"})
        plan.extend(tx.drafts)
        left = st.seat_name(tied[0])
        _restate_vote(plan, vote_id, seat, {"ja": f"同数で残った{left}の真名を公開",
                                            "en": f"{left}, the only one of the tied left, is revealed"}, ctx)
        return
    if seat in tb.seats or seat in tb.meta.get("deciders", []):
        last, decider = _decider(st)
        deciding = tb.seats[0] if tb.seats else "gm"
        if decider != deciding and "gm" not in (decider, deciding) and tb.is_open:
            plan.extend(P.extend(st, tid, [decider]))  # one last place for another: it answers the same prompt
            plan.extend(P.drop(st, tid, deciding, OUT, ctx.resolvers, ctx.dice))
            _restate_vote(plan, vote_id, seat, _decides(st, decider), ctx)
        elif decider != deciding:
            who = _decides(st, decider)
            deciding_ja, deciding_en = ("決める最下位の", ", the last place deciding,") if seat == deciding else ("", "")
            plan.extend(P.cancel(st, tid, said={"ja": f"{deciding_ja}{name}が脱落（S-10）、{who['ja']}",
                                             "en": f"{name}{deciding_en} is out (S-10); {who['en']}"}))
            plan.extend(_open_tiebreak(st, _next_tiebreak_id(st, vote_id), vote_id, tied, last))
            _restate_vote(plan, vote_id, seat, who, ctx)
            return
    if seat in tb.options:
        plan.extend(P.disable_option(st, tid, seat, OUT_OPTION))


def start_round(state: State, payload: dict, ctx) -> list:
    """S-1: the next round (round 2, then the climax) on a new board; everyone back to the start."""
    s = F.started(state)
    if not s["round_ended"] or s["finished"]:
        raise Conflict("次のラウンドはありません（先にラウンド終了）", "There is no next round (end this one first)")
    if F.vote_waiting(state) and not flag_field(payload, "force", ja="強制"):
        raise Conflict("真名看破投票が終わっていません（「一斉公開」してから「結果を確定」）",
                       "The true-name vote is not finished (press 'Reveal', then 'Confirm result')")
    nxt = R.ROUNDS[R.ROUNDS.index(s["round"]) + 1]
    length = F.parse_int(payload.get("board_length") or s["board_length"], "盤面のマス数", "board length")
    if not 5 <= length <= 60:
        raise GmError("盤面は5〜60マスです", "The board has 5 to 60 squares")
    tx = CounterRun(state)
    tx.emit("scene.marked", {"title": R.ROUND_LABELS[nxt].to_dict()})
    tx.emit("sugoroku.round_started", {"round": nxt, "board_length": length, "order": s["order"]})
    for seat in F.active(state):
        tx.set(seat, "position", 0, (f"{R.ROUND_LABELS[nxt].ja}：スタートへ", f"{R.ROUND_LABELS[nxt].en}: back to the start"), "S-1")
    return tx.drafts


# -- vote resolvers -------------------------------------------------------------------------------

def _standings(state: State) -> dict:
    return {p: state.counters[p]["vp"] for p in F.active(state)}


def _last_places(standings: dict) -> list:
    """S-13: the seats sharing the lowest VP of `standings`."""
    low = min(standings.values(), default=0)
    return [p for p, vp in standings.items() if vp == low]


def _open_tiebreak(state: State, pid: str, vote_id: str, top: list, deciders: list) -> list:
    """S-13: the tie-break of a tied true-name vote: the last place picks among the tied on its phone; the GM when
    the last place is tied."""
    decider = deciders[0] if len(deciders) == 1 else None
    names, names_en = "・".join(state.seat_name(p) for p in top), ", ".join(state.seat_name(p) for p in top)
    return P.open_prompt(state, pid, {
        "title": {"ja": f"真名看破投票の同数決定（{names}）", "en": f"True name vote: breaking the tie ({names_en})"},
        "kind": "seat", "options": list(top),
        "seats": [decider] if decider else [], "gm_submits": decider is None, "resolver": "sugoroku_tiebreak",
        "meta": {"vote": vote_id, "tied": list(top), "deciders": list(deciders),
                 # the line above the answer form (prompt view `note`): to the last place, whoever it is handed to
                 "note": DECIDE_NOTE if decider else GM_DECIDES_NOTE}}, {**BUILTIN, **RESOLVERS})


DECIDE_NOTE = {"ja": "同数になった真名看破投票は、最下位のあなたが決めます：真名を公開する相手を1人選んでください（S-13）",
               "en": "The tied true-name vote is yours to break, as the last-placed player: choose whose true name is "
                     "revealed (S-13)"}
GM_DECIDES_NOTE = {"ja": "最下位が同点のため、同数になった真名看破投票はGMが決めます：真名を公開する相手を1人選んでください（S-13）",
                   "en": "Last place is tied, so the tied true-name vote is the GM's to break: choose whose true name is "
                         "revealed (S-13)"}


def resolve_vote(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """S-13: the most votes is revealed; a tie opens a second prompt to the last-placed player. A player put out of
    the war after the vote opened (S-10; eliminate resolves a revealed vote again) neither votes nor is voted for: a
    vote for it is void, and a vote it gave (public once revealed) does not count, each said so."""
    standings = _standings(state)
    cast = {v: t for v, t in answers.items() if v != "gm"}
    votes = {v: t for v, t in cast.items() if v in standings}
    void = {v: t for v, t in votes.items() if t not in standings}
    votes = {v: t for v, t in votes.items() if t in standings}
    result = R.true_name_vote(votes, standings)
    for voter in (v for v in cast if v not in standings):
        result["notes"].append({"ja": f"脱落した{state.seat_name(voter)}の票は数えません",
                                "en": f"The vote of {state.seat_name(voter)}, who is out, does not count", "rule": "S-10"})
    for target in dict.fromkeys(void.values()):
        n = sum(1 for t in void.values() if t == target)
        result["notes"].append({"ja": f"脱落した{state.seat_name(target)}への票（{n}票）は数えません",
                                "en": f"{n} vote{'s' if n > 1 else ''} for {state.seat_name(target)}, who is out, "
                                      f"{'do' if n > 1 else 'does'} not count",
                                "rule": "S-10"})
    for m in prompt.modifiers:
        result["counts"][m["who"]] = result["counts"].get(m["who"], 0) + int(m["amount"])
    best = max(result["counts"].values(), default=0)
    top = [p for p, n in result["counts"].items() if n == best] if best else []
    counts = [{"option": p, "name": state.seat_name(p), "votes": n}
              for p, n in sorted(result["counts"].items(), key=lambda kv: -kv[1]) if n]
    rows = [{"who": v, "name": state.seat_name(v), "value": t, "terms": [], "total": None} for v, t in votes.items()]
    tx = CounterRun(state)
    if len(top) == 1:
        F.reveal(tx, top[0], {"ja": "真名看破投票で最多得票", "en": "most votes in the true-name vote", "rule": "S-13"})
        summary = {"ja": f"最多得票：{state.seat_name(top[0])}（{best}票）→ 真名公開",
                   "en": f"Most votes: {state.seat_name(top[0])} ({best}) → true name revealed"}
    elif top:
        deciders = list(result["deciders"])
        tx.drafts += _open_tiebreak(state, _next_tiebreak_id(state, prompt.id), prompt.id, top, deciders)
        summary = _tie_summary(state, top, best, _decides(state, deciders[0] if len(deciders) == 1 else "gm"))
    else:
        summary = {"ja": "投票なし", "en": "No votes"}
    return {"summary": summary, "winners": top[:1] if len(top) == 1 else [], "tied": top if len(top) > 1 else [],
            "rows": rows, "counts": counts, "notes": result["notes"], "events": tx.drafts}


def _decides(state: State, decider: str) -> dict:
    """S-13: who breaks a tied vote, as its result says it: the last place, or the GM when the last place is tied."""
    if decider == "gm":
        return {"ja": "最下位が同点のためGMが決定", "en": "last place is tied: the GM decides"}
    return {"ja": f"最下位の{state.seat_name(decider)}が決定", "en": f"last place ({state.seat_name(decider)}) decides"}


def _tie_summary(state: State, top: list, best: int, then: dict) -> dict:
    """A tied vote's summary: the tied with their votes, then what follows (`then`, {ja, en})."""
    names, names_en = "・".join(state.seat_name(p) for p in top), ", ".join(state.seat_name(p) for p in top)
    return {"ja": f"同数（{names}：{best}票）→ {then['ja']}", "en": f"Tie ({names_en}: {best}) → {then['en']}"}


LAST_TIED = {"ja": "最下位が同点：GMが同数の中から選ぶ", "en": "Last place is tied: the GM picks among the tied", "rule": "S-13"}


def _restate_vote(plan: engine.Plan, vote_id: str, seat: str, then: dict, ctx) -> None:
    """S-10/S-13: the confirmed vote's result said who breaks its tie (or that someone would); a player put out (`seat`)
    changed that (`then`: the last place left or the GM decides, or the one tied left is revealed): the result says so
    now, with a note why (core's restate: the tie-break it opened stays as its confirm opened it)."""
    st = plan.sim
    vote = st.prompts.get(vote_id)
    if vote is None or not vote.confirmed or not (vote.resolution or {}).get("tied"):
        return
    top, counts = vote.resolution["tied"], {c["option"]: c["votes"] for c in vote.resolution.get("counts", [])}
    summary = _tie_summary(st, top, counts.get(top[0], 0), then)
    if summary == vote.resolution.get("summary"):
        return
    name = st.seat_name(seat)
    notes = [n for n in vote.resolution.get("notes", []) if n != LAST_TIED]
    notes += [LAST_TIED] if then == _decides(st, "gm") else []
    notes.append({"ja": f"{name}が脱落（S-10）：{then['ja']}", "en": f"{name} is out (S-10): {then['en']}", "rule": "S-13"})
    plan.extend(P.restate(st, vote_id, summary, notes, ctx.dice))


def resolve_tiebreak(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """S-13: the last-placed player's pick among the tied is revealed (the GM's when the last place is tied); the note
    and the reveal's reason say who decided."""
    if not answers:
        return {"summary": {"ja": "回答なし", "en": "No answer"}, "winners": [], "rows": [], "notes": [], "events": []}
    by, pick = next(iter(answers.items()))
    if pick not in F.active(state):  # put out since (S-10): the vote never reveals it; the tie is broken again
        return _pick_out(prompt, by, pick, state)
    # the decider is the seat that answers it (the last place put out after it opened is no longer one, S-10)
    result = R.true_name_tiebreak({"tied": prompt.meta.get("tied", []), "deciders": list(prompt.seats)},
                                  pick, None if by == "gm" else by)
    tx = CounterRun(state)
    F.reveal(tx, pick, {"ja": "真名看破投票：同数をGMが決定", "en": "true-name vote: tie decided by the GM", "rule": "S-13"}
             if by == "gm" else {"ja": "真名看破投票：同数を最下位が決定", "en": "true-name vote: tie decided by last place",
                                 "rule": "S-13"})
    return {"summary": {"ja": f"{state.seat_name(pick)}の真名を公開", "en": f"{state.seat_name(pick)}'s true name revealed"},
            "winners": [pick], "rows": [{"who": by, "name": state.seat_name(by) if by != "gm" else "GM", "value": pick,
                                         "terms": [], "total": None}], "notes": result["notes"], "events": tx.drafts}


def _pick_out(prompt: Prompt, by: str, pick: str, state: State) -> dict:
    """S-10/S-13: a tie-break's pick put out of the war before its confirm: the one tied left is revealed, else the
    confirm opens the tie-break again among the tied left, for the last place (the GM when it is tied)."""
    tied = [p for p in prompt.options if p in F.active(state)]
    name, tx = state.seat_name(pick), CounterRun(state)
    if len(tied) == 1:
        left = state.seat_name(tied[0])
        F.reveal(tx, tied[0], {"ja": "真名看破投票：同数で残ったのは1人（ほかは脱落）",
                               "en": "true-name vote: the only one of the tied left in the war", "rule": "S-13"})
        summary = {"ja": f"選ばれた{name}は脱落：同数で残った{left}の真名を公開",
                   "en": f"{name}, the pick, is out: {left}, the only one of the tied left, is revealed"}
    else:
        last, decider = _decider(state)
        tx.drafts += _open_tiebreak(state, _next_tiebreak_id(state, prompt.meta.get("vote")), prompt.meta.get("vote"),
                                    tied, last)
        who = {"ja": "GM", "en": "the GM"} if decider == "gm" else {"ja": state.seat_name(decider), "en": state.seat_name(decider)}
        summary = {"ja": f"選ばれた{name}は脱落：確定すると{who['ja']}が同数から選び直す",
                   "en": f"{name}, the pick, is out: on confirming, {who['en']} picks again among the tied"}
    return {"summary": summary, "winners": tied if len(tied) == 1 else [],
            "rows": [{"who": by, "name": state.seat_name(by) if by != "gm" else "GM", "value": pick, "terms": [],
                      "total": None}],
            "notes": [{"ja": f"脱落した{name}の真名は投票では公開しない", "en": f"{name} is out: the vote does not reveal its true name",
                       "rule": "S-10"}], "events": tx.drafts}


RESOLVERS = {
    "sugoroku_battle": Resolver("sugoroku_battle", Label("双六：戦闘（S-7/S-8）", "Sugoroku battle (S-7/S-8)"), (B.KIND,),
                                B.resolve_battle),
    "sugoroku_vote": Resolver("sugoroku_vote", Label("双六：真名看破投票（S-13）", "Sugoroku true-name vote (S-13)"), ("seat",),
                              resolve_vote),
    "sugoroku_tiebreak": Resolver("sugoroku_tiebreak", Label("双六：投票の同数決定（S-13）", "Sugoroku vote tie-break (S-13)"),
                                  ("seat",), resolve_tiebreak),
}


ACTIONS = dict((
    action("setup", "準備", "Set up", F.setup),
    action("set_square", "マスの設定", "Set a square", F.set_square),
    action("roll_move", "サイコロを振って移動", "Roll and move", F.roll_move, "seat"),
    action("skip_turn", "手番を飛ばす", "Skip the turn", F.skip_turn),
    action("square_event", "マスのイベント", "Square event", F.square_event),
    action("challenge", "挑戦", "Challenge", F.challenge, "seat"),
    action("end_phase", "行動フェイズ終了", "End the action phase", F.end_phase),
    action("start_battle", "戦闘開始", "Start the battle", B.start_battle),
    action("skip_battle", "戦闘を行わない", "Skip the battle", B.skip_battle),
    action("battle_card", "カードを追加", "Add a card", B.battle_card, "seat"),
    action("battle_adjust", "戦闘の裁定・効果", "Battle ruling / effect", B.battle_adjust),
    action("end_battle", "戦闘結果を確定", "Apply the battle result", B.end_battle),
    action("use_skill", "スキル・宝具を使用", "Use a skill / NP", B.use_skill, "seat"),
    action("use_seal", "令呪を使用", "Use a Command Seal", B.use_seal, "seat"),
    action("convert_karma", "カルマを戦果に変換", "Convert karma to VP", B.convert_karma, "seat"),
    action("reveal_true_name", "真名を公開", "Reveal a true name", B.reveal_true_name),
    action("end_round", "ラウンド終了", "End the round", end_round),
    action("eliminate", "脱落させる", "Eliminate", eliminate),
    action("start_round", "次のラウンドへ", "Start the next round", start_round),
))
