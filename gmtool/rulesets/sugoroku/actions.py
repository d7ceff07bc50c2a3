"""Sugoroku Holy Grail War (双六聖杯戦争, RULES.md S): rounds, true-name votes, and the action table.

Flow (docs/rulesets/sugoroku.md): setup → per action phase every player ``roll_move`` (phones) and the
GM applies square events → ``end_phase`` lists the battles → ``start_battle`` / cards / ``end_battle`` →
after 8 phases or the goal count ``end_round`` (goal 魔力, elimination, the true-name vote) →
``start_round``. Rules live in rules.py; events in events.py; the view in view.py.
"""

from __future__ import annotations

from typing import Any

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
    final = s["round"] == "climax"
    players = F.active(state)
    elim = R.eliminated_after_round({p: tx.value(p, "vp") for p in players}, s["round"], F.readings(state))
    for seat in elim["out"]:
        tx.emit("sugoroku.eliminated", {"seat": seat, "gap": elim["gap"], "reason": {
            "ja": f"次点との差{elim['gap']}（10以上）", "en": f"{elim['gap']} VP behind the next player (10 or more)",
            "rule": "S-10"}})
    for seat in players:
        tx.set(seat, "uses", 0, ("ラウンド終了：スキル・宝具の使用回数をリセット", "end of the round: skill / NP uses reset"), "S-15")
    remaining = [p for p in players if p not in elim["out"]]
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


def eliminate(state: State, payload: dict, ctx) -> list:
    """S-10: the GM puts a player out (a tie for last place under Reading elimination_tie=gm)."""
    s = F.started(state)
    seat = F.acting_seat(state, payload, ctx)  # a seat already out, or the climax over: 409 as for every seat's action
    why = clean_text(payload.get("reason"), "理由", "reason", 100, False) or ""  # none: the log says the GM's ruling
    drafts = [("sugoroku.eliminated", {"seat": seat, "gap": None, "reason": {"ja": why, "en": why, "rule": "S-10"}})]
    # S-13: a player put out while the round's true-name vote is open votes no more (a vote it gave is withdrawn, and
    # the vote is revealed if everyone else has answered); a vote for it is void (resolve_vote)
    vote = state.prompts.get(s.get("vote") or "")
    reason = {"ja": "脱落（S-10）", "en": "out of the war (S-10)"}
    if vote and vote.status in ("open", "locked") and seat in vote.seats and len(vote.respondents()) > 1:
        drafts += P.drop(state, vote.id, seat, reason, ctx.resolvers, ctx.dice)
    # S-13: the last place deciding the vote's open tie-break, put out, decides no more: the last place left does
    # (it answers the same prompt: added, the one out taken off), or the GM when that last place is tied (the
    # tie-break opens again for the GM as <vote>-tb2, the first cancelled)
    tb = state.prompts.get(f"{s.get('vote')}-tb")
    tb = tb if tb and tb.status in ("open", "locked") else None
    if tb and seat in tb.seats:
        last = _last_places({p: vp for p, vp in _standings(state).items() if p != seat})
        if len(last) == 1:
            drafts += [("prompt.extended", {"prompt": tb.id, "seats": last, "reason": ""}),
                       ("prompt.dropped", {"prompt": tb.id, "seat": seat, "reason": reason,
                                           "withdrawn": seat in tb.answers})]
        else:
            name = state.seat_name(seat)
            drafts += [("prompt.cancelled", {"prompt": tb.id, "reason": {  # P.cancel's, with the reason in both languages
                "ja": f"決める最下位の{name}が脱落（S-10）、最下位が同点のためGMが決定",
                "en": f"{name}, the last place deciding, is out (S-10); last place is tied: the GM decides"}})]
            drafts += _open_tiebreak(state, f"{tb.id}2", tb.meta.get("vote", s["vote"]), tb.options, last)
    return drafts


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
        "meta": {"vote": vote_id, "tied": list(top), "deciders": list(deciders)}}, {**BUILTIN, **RESOLVERS})


def resolve_vote(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """S-13: the most votes is revealed; a tie opens a second prompt to the last-placed player. A player put out of
    the war after the vote opened (S-10: a voter taken off it, also in the action that takes it off, not folded yet)
    neither votes nor is voted for: a vote for it is void, and said so."""
    gone = {v for v in prompt.meta.get("voters", []) if v not in prompt.seats}
    standings = {p: vp for p, vp in _standings(state).items() if p not in gone}
    votes = {v: t for v, t in answers.items() if v != "gm" and v in standings}
    void = {v: t for v, t in votes.items() if t not in standings}
    votes = {v: t for v, t in votes.items() if t in standings}
    result = R.true_name_vote(votes, standings)
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
        decider = deciders[0] if len(deciders) == 1 else None
        names, names_en = "・".join(state.seat_name(p) for p in top), ", ".join(state.seat_name(p) for p in top)
        tx.drafts += _open_tiebreak(state, f"{prompt.id}-tb", prompt.id, top, deciders)
        decides = ({"ja": f"最下位の{state.seat_name(decider)}が決定", "en": f"last place ({state.seat_name(decider)}) decides"}
                   if decider else {"ja": "最下位が同点のためGMが決定", "en": "last place is tied: the GM decides"})
        summary = {"ja": f"同数（{names}：{best}票）→ {decides['ja']}", "en": f"Tie ({names_en}: {best}) → {decides['en']}"}
    else:
        summary = {"ja": "投票なし", "en": "No votes"}
    return {"summary": summary, "winners": top[:1] if len(top) == 1 else [], "tied": top if len(top) > 1 else [],
            "rows": rows, "counts": counts, "notes": result["notes"], "events": tx.drafts}


def resolve_tiebreak(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """S-13: the last-placed player's pick among the tied is revealed (the GM's when the last place is tied); the note
    and the reveal's reason say who decided."""
    if not answers:
        return {"summary": {"ja": "回答なし", "en": "No answer"}, "winners": [], "rows": [], "notes": [], "events": []}
    by, pick = next(iter(answers.items()))
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
