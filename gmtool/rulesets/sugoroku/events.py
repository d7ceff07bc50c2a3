"""Sugoroku (S): the ruleset's event types: folds, readable log lines, visibilities (all public).

All ruleset state lives in ``state.extra["sugoroku"]`` and changes only here. Counter values
(position, 魔力, 戦果 …) are core counters changed by ``counter.changed`` events.

True names never appear in these events: each one is the GM's committed answer to a locked
prompt (core secrecy, core/view.py); a describer prints a name only once that prompt is revealed.
"""

from __future__ import annotations

from gmtool.core.logtext import gm_reason
from gmtool.core.logtext import in_lang as _ja
from gmtool.core.logtext import minus_sign
from gmtool.core.model import TABLE, State, Viewer
from gmtool.core.ruleset import PUBLIC, EventType
from gmtool.core.turns import order_rolls
from gmtool.core.view import can_see_answer, fixed_line

from . import rules as R

KEY = "sugoroku"


def sg(state: State) -> dict | None:
    """The ruleset's part of the state (None before setup)."""
    return state.extra.get(KEY)


def true_name(state: State, seat: str, viewer: Viewer = TABLE) -> str | None:
    """S-13: a servant's true name, as `viewer` may see the GM's committed answer (core secrecy: the GM
    always, anyone else once its prompt is revealed)."""
    s = sg(state) or {}
    prompt = state.prompts.get((s.get("true_name_prompts") or {}).get(seat, ""))
    if prompt is None or "gm" not in prompt.answers or not can_see_answer(prompt, viewer, "gm"):
        return None
    return prompt.answers["gm"].value


def is_revealed(state: State, seat: str) -> bool:
    """S-13: whether a faction's true name is public."""
    s = sg(state) or {}
    prompt = state.prompts.get((s.get("true_name_prompts") or {}).get(seat, ""))
    return seat in s.get("revealed", {}) or (prompt is not None and prompt.status == "revealed")


def name(state: State, seat: str) -> str:
    """A seat's display name (servant name if set up)."""
    return state.seat_name(seat)


def _terms(terms: list, lang: str) -> str:
    out = []
    for t in terms or []:
        label = t["label"] if isinstance(t["label"], str) else t["label"]["en" if lang == "en" else "ja"]
        out.append(f"{label} {minus_sign(t['value'], True)}")
    return _ja(lang, "、", ", ").join(out)


def _rule(d: dict) -> str:
    return f" [{d['rule']}]" if d.get("rule") else ""


# -- fold -----------------------------------------------------------------------------------------

def _board(length) -> int:
    """S-1: a board as the setup accepts it; a log holding another (a crafted import) does not fold."""
    if isinstance(length, bool) or not isinstance(length, int) or not R.MIN_BOARD <= length <= R.MAX_BOARD:
        raise ValueError(f"board length {length!r} outside {R.MIN_BOARD}..{R.MAX_BOARD}")
    return length


def _setup(state: State, e) -> None:
    d = e.data
    _board(d["board_length"])
    state.readings.update(d.get("readings", {}))  # readings chosen with the setup (S-1)
    state.extra[KEY] = {
        "round": d["round"], "phase": 1, "board_length": d["board_length"], "order": list(d["order"]),
        "moved": [], "goal": [], "goal_phase": {}, "out": [], "players": dict(d["players"]),
        "true_name_prompts": dict(d.get("true_name_prompts", {})), "revealed": {}, "arrived": {},
        "squares": {}, "pending": [], "challenges": [], "battle": None, "battles": 0, "last_battle": None,
        "round_over": None, "last_move": None, "karma_pending": [],
        "vp_terms": {seat: list(p.get("vp_terms", [])) for seat, p in d["players"].items()},
        "vote": None, "finished": False, "round_ended": False, "history": [], "skip_to_climax": d["skip_to_climax"],
        "start_action": e.action,  # the action that began the round (the table's headline stays while it is newest)
    }


def _square_set(state: State, e) -> None:
    d = e.data
    sg(state)["squares"][str(d["square"])] = {"terrain": dict(d["terrain"]), "vp": d["vp"], "label": d["label"]}


def _moved(state: State, e) -> None:
    d, s = e.data, sg(state)
    if d.get("turn", True) and d["seat"] not in s["moved"]:
        s["moved"].append(d["seat"])
    if d["to"] != d["from"]:
        s["arrived"][d["seat"]] = e.seq
    s["last_move"] = {"seat": d["seat"], "from": d["from"], "to": d["to"], "phase": s["phase"], "seq": e.seq,
                      "base": d.get("base", d["from"]), "turn": d.get("turn", True)}


def _skipped(state: State, e) -> None:
    s = sg(state)
    if e.data["seat"] not in s["moved"]:
        s["moved"].append(e.data["seat"])


def _goal(state: State, e) -> None:
    d, s = e.data, sg(state)
    s["goal"].append(d["seat"])
    s["goal_phase"][d["seat"]] = d["phase"]
    s["vp_terms"].setdefault(d["seat"], []).extend(d["terms"])
    if d.get("round_over"):
        s["round_over"] = d["round_over"]


def _challenged(state: State, e) -> None:
    sg(state)["challenges"].append({"seat": e.data["seat"], "target": e.data["target"]})


def _phase_ended(state: State, e) -> None:
    d, s = e.data, sg(state)
    s["pending"] = list(d["battles"])
    s["order"] = list(d["order"])
    s["moved"], s["challenges"] = [], []
    s["phase"] = d["phase"] + 1
    if d.get("round_over"):
        s["round_over"] = d["round_over"]


def _battle_started(state: State, e) -> None:
    d, s = e.data, sg(state)
    s["pending"] = [b for b in s["pending"] if b["fighters"] != d["fighters"]]
    s["battle"] = {"id": d["id"], "square": d["square"], "parent": d["parent"], "children": list(d["children"]),
                   "prompt": d["prompt"], "terrain": dict(d["terrain"]), "square_vp": d["square_vp"],
                   "challenge": d.get("challenge", False), "added": [], "seals": {}, "decision": None,
                   "vp_effects": [], "left": []}


def _battle_skipped(state: State, e) -> None:
    s = sg(state)
    s["pending"] = [b for b in s["pending"] if b["fighters"] != e.data["fighters"]]


def _battle_card(state: State, e) -> None:
    d = e.data
    sg(state)["battle"]["added"].append({"seat": d["seat"], "card": d["card"], "after_reveal": d["after_reveal"]})


def _battle_adjusted(state: State, e) -> None:
    b, d = sg(state)["battle"], e.data
    if "seal" in d:
        b["seals"][d["seal"]] = b["seals"].get(d["seal"], 0) + 1
    if "decision" in d:
        b["decision"] = d["decision"]
    if "vp_effect" in d:
        b["vp_effects"].append(d["vp_effect"])
    if "square_vp" in d:
        b["square_vp"] = d["square_vp"]
    if "left" in d:
        b["left"].append(d["left"])


def _battle_ended(state: State, e) -> None:
    d, s = e.data, sg(state)
    s["battle"] = None
    s["battles"] += 1
    s["last_battle"] = dict(d)
    if d.get("winner"):
        s["vp_terms"].setdefault(d["winner"], []).extend(d.get("terms", []))
    for target in d.get("subjugated", []):
        s["karma_pending"].append({"victor": d["winner"], "target": target, "battle": d["battle"]})


def _skill_used(state: State, e) -> None:
    """The counters change through counter.changed; nothing else to keep."""


def _seal_used(state: State, e) -> None:
    """The counters change through counter.changed; nothing else to keep."""


def _karma_converted(state: State, e) -> None:
    d, s = e.data, sg(state)
    s["karma_pending"] = [k for k in s["karma_pending"] if not (k["victor"] == d["seat"] and k["target"] == d["target"])]
    if d["amount"]:
        s["vp_terms"].setdefault(d["seat"], []).extend(d["terms"])


def _revealed(state: State, e) -> None:
    sg(state)["revealed"][e.data["seat"]] = {"reason": e.data["reason"], "rule": "S-13"}


def _eliminated(state: State, e) -> None:
    s = sg(state)
    if e.data["seat"] not in s["out"]:
        s["out"].append(e.data["seat"])
    if e.data["seat"] in s["order"]:
        s["order"].remove(e.data["seat"])
    if e.data.get("winner"):  # the last player left in the war wins: the game is over (S-1/S-10, gmtool's reading)
        s.update(finished=True, round_ended=True, pending=[], challenges=[],
                 round_over=R.last_one_left(state.seat_name(e.data["winner"])))


def _round_ended(state: State, e) -> None:
    d, s = e.data, sg(state)
    s["round_ended"] = True
    s["pending"] = []
    s["history"].append({"round": d["round"], "standings": d["standings"], "eliminated": d["eliminated"]})
    s["vote"] = d.get("vote")
    s["candidates"] = list(d.get("candidates", []))
    if d.get("final"):
        s["finished"] = True


def _round_started(state: State, e) -> None:
    d, s = e.data, sg(state)
    s.update(round=d["round"], phase=1, board_length=_board(d["board_length"]), moved=[], goal=[], goal_phase={},
             arrived={}, pending=[], challenges=[], battle=None, round_over=None, last_move=None,
             round_ended=False, vote=None, start_action=e.action,
             last_battle=None)  # a square of the last round's board: no news on the new one (S-1)


# -- describers -----------------------------------------------------------------------------------

def _label(label, lang: str) -> str:
    return label if isinstance(label, str) else label["en" if lang == "en" else "ja"]


def _d_setup(e, state, lang):
    d = e["data"]
    names = "→".join(state.seat_name(s) for s in d["order"])
    rnd = R.ROUND_LABELS[d["round"]].get(lang)
    rolls = [f"{state.seat_name(s)} {'/'.join(map(str, r))}" for s, r in (d.get("order_rolls") or {}).items()]
    real = _ja(lang, "［実ダイス］", " [real dice]") if d.get("entered") else ""
    rolled = _ja(lang, "（" + "、".join(rolls) + "）", " (" + ", ".join(rolls) + ")") + real if rolls else ""
    return _ja(lang, f"双六聖杯戦争の準備：{rnd}から、盤面{d['board_length']}マス、手番 {names}{rolled} [S-1/S-3]",
               f"Sugoroku set up: starting at {rnd}, board of {d['board_length']}, order {names}{rolled} [S-1/S-3]")


def _d_square(e, state, lang):
    d = e["data"]
    terrain = R.attribute_words(d["terrain"], lang) or _ja(lang, "なし", "none")
    return _ja(lang, f"マス{d['square']}：地の利 {terrain}、勝利時戦果 {d['vp']}{('（' + d['label'] + '）') if d['label'] else ''}",
               f"Square {d['square']}: terrain {terrain}, battle VP {d['vp']}{(' (' + d['label'] + ')') if d['label'] else ''}")


def _d_moved(e, state, lang):
    d = e["data"]
    n = state.seat_name(d["seat"])
    how = _terms(d.get("terms", []), lang)
    how = _ja(lang, f"（{how}）", f" ({how})") if how else ""
    if not d.get("turn", True) and d.get("base", d["from"]) != d["from"]:  # a free-move seal counts from before the roll
        return _ja(lang, f"{n}：振る前のマス{d['base']}から{d['move']}マス進む{how} マス{d['from']}→{d['to']}{_rule(d)}",
                   f"{n}: moves {d['move']} from square {d['base']}, before the roll{how}, square {d['from']}→{d['to']}{_rule(d)}")
    return _ja(lang, f"{n}：{d['move']}マス進む{how} マス{d['from']}→{d['to']}{_rule(d)}",
               f"{n}: moves {d['move']}{how}, square {d['from']}→{d['to']}{_rule(d)}")


def _d_skipped(e, state, lang):
    d = e["data"]
    return _ja(lang, f"{state.seat_name(d['seat'])}：手番を飛ばす（{d['reason'] or '理由なし'}）",
               f"{state.seat_name(d['seat'])}: turn skipped ({d['reason'] or 'no reason'})")


def _d_goal(e, state, lang):
    d = e["data"]
    over = f" — {_label(d['round_over'], lang)}" if d.get("round_over") else ""
    return _ja(lang, f"{state.seat_name(d['seat'])}：{d['place']}位でゴール、戦果+{d['vp']}（{_terms(d['terms'], lang)}） [S-9]{over}",
               f"{state.seat_name(d['seat'])}: reached the goal, place {d['place']}, VP +{d['vp']} "
               f"({_terms(d['terms'], lang)}) [S-9]{over}")


def _d_challenged(e, state, lang):
    d = e["data"]
    return _ja(lang, f"{state.seat_name(d['seat'])}が{state.seat_name(d['target'])}に挑戦（魔力{minus_sign(-d['cost'])}、挑戦者は子） [S-6]",
               f"{state.seat_name(d['seat'])} challenges {state.seat_name(d['target'])} (mana {minus_sign(-d['cost'])}, "
               f"the challenger is the child) [S-6]")


def _d_phase(e, state, lang):
    d = e["data"]
    order = "→".join(state.seat_name(s) for s in d["order"])
    if lang == "en":
        fights = "; ".join(f"square {b['square']} ({', '.join(state.seat_name(s) for s in b['fighters'])})" for b in d["battles"])
    else:
        fights = "、".join(f"マス{b['square']}（{'・'.join(state.seat_name(s) for s in b['fighters'])}）" for b in d["battles"])
    over = f" — {_label(d['round_over'], lang)}" if d.get("round_over") else ""
    return _ja(lang, f"行動フェイズ{d['phase']}終了。次の手番 {order} [S-3]{'。戦闘：' + fights + ' [S-7]' if fights else ''}{over}",
               f"Action phase {d['phase']} over. Next order {order} [S-3]"
               f"{'. Battles: ' + fights + ' [S-7]' if fights else ''}{over}")


def _d_battle(e, state, lang):
    d = e["data"]
    kids = _ja(lang, "・", ", ").join(state.seat_name(s) for s in d["children"])
    terrain = R.attribute_words(d["terrain"], lang)
    terrain = _ja(lang, f"、地の利 {terrain}", f", terrain {terrain}") if terrain else ""
    kind = _ja(lang, "挑戦 [S-6]", "challenge [S-6]") if d.get("challenge") else "[S-7]"
    return _ja(lang, f"戦闘開始（マス{d['square']}）：親 {state.seat_name(d['parent'])}、子 {kids}{terrain} {kind}",
               f"Battle on square {d['square']}: parent {state.seat_name(d['parent'])}, children {kids}{terrain} {kind}")


def _d_battle_skipped(e, state, lang):
    d = e["data"]
    who = _ja(lang, "・", ", ").join(state.seat_name(s) for s in d["fighters"])
    return _ja(lang, f"マス{d['square']}の戦闘（{who}）は行わない（{d['reason'] or 'GM判断'}）",
               f"No battle on square {d['square']} ({who}): {d['reason'] or 'GM decision'}")


def _d_card(e, state, lang):
    d = e["data"]
    when = _ja(lang, "公開後に", "after the reveal, ") if d["after_reveal"] else _ja(lang, "表向きで", "face up, ")
    cost = _ja(lang, f"（魔力{minus_sign(-d['cost'])}）", f" (mana {minus_sign(-d['cost'])})") if d.get("cost") else ""
    return _ja(lang, f"{state.seat_name(d['seat'])}：{when}カード「{d['card']}」を追加{cost} [S-7]",
               f"{state.seat_name(d['seat'])}: {when}adds card '{R.card_words(d['card'], lang)}'{cost} [S-7]")


def _d_adjusted(e, state, lang):
    d = e["data"]
    if "seal" in d:
        return _ja(lang, f"{state.seat_name(d['seal'])}：令呪で最終パワー+3（勝てば戦果+3） [S-11]",
                   f"{state.seat_name(d['seal'])}: Command Seal, final power +3 (+3 VP if won) [S-11]")
    if "decision" in d:
        w = state.seat_name(d["decision"]) if d["decision"] else _ja(lang, "勝者なし", "no winner")
        return _ja(lang, f"GM裁定：{w} [S-7]", f"GM's ruling: {w} [S-7]")
    if "vp_effect" in d:
        v = d["vp_effect"]
        value = minus_sign(v["value"], True)
        return _ja(lang, f"勝利時戦果の効果 {value}〈{v['label']}〉 [S-8]", f"Battle VP effect {value} <{v['label']}> [S-8]")
    if "left" in d:
        return _ja(lang, f"{state.seat_name(d['left'])}が令呪で戦闘から離脱 [S-11]", f"{state.seat_name(d['left'])} leaves the battle (seal) [S-11]")
    return _ja(lang, f"マスの勝利時戦果を{d.get('square_vp')}に", f"Square battle VP set to {d.get('square_vp')}")


def _d_battle_ended(e, state, lang):
    d = e["data"]
    totals = _ja(lang, "、", ", ").join(f"{state.seat_name(s)} {minus_sign(t)}" for s, t in d.get("totals", {}).items())
    if not d.get("winner"):
        return _ja(lang, f"戦闘終了：勝者なし（{totals}） [S-7]", f"Battle over: no winner ({totals}) [S-7]")
    return _ja(lang, f"戦闘終了：{state.seat_name(d['winner'])}の勝ち（{totals}）、戦果{minus_sign(d['vp'], True)}（{_terms(d['terms'], lang)}） [S-7/S-8]",
               f"Battle over: {state.seat_name(d['winner'])} wins ({totals}), VP {minus_sign(d['vp'], True)} ({_terms(d['terms'], lang)}) [S-7/S-8]")


def _d_skill(e, state, lang):
    d = e["data"]
    kind = R.KIND_LABELS[d["kind"]].get(lang)
    tn = _ja(lang, "《真名開放》", " (true name release)") if d.get("true_name_release") else ""
    label = _ja(lang, f"「{d['label']}」", f" '{d['label']}'") if d.get("label") else ""
    return _ja(lang, f"{state.seat_name(d['seat'])}：{kind}{label}{tn}を使用（魔力{minus_sign(-d['cost'])}、今ラウンド{d['uses']}/3回） [S-5/S-15]",
               f"{state.seat_name(d['seat'])}: uses {kind}{label}{tn} (mana {minus_sign(-d['cost'])}, {d['uses']}/3 this round) [S-5/S-15]")


def _d_seal(e, state, lang):
    d = e["data"]
    return _ja(lang, f"{state.seat_name(d['seat'])}：令呪「{d['label']['ja']}」（残り{d['seals']}） [S-11]",
               f"{state.seat_name(d['seat'])}: Command Seal '{d['label']['en']}' ({d['seals']} left) [S-11]")


def _d_karma(e, state, lang):
    d = e["data"]
    return _ja(lang, f"{state.seat_name(d['seat'])}：{state.seat_name(d['target'])}のカルマを{d['amount']}減らし戦果+{d['amount']} [S-12]",
               f"{state.seat_name(d['seat'])}: removes {d['amount']} karma from {state.seat_name(d['target'])}, "
               f"VP +{d['amount']} [S-12]")


def _d_revealed(e, state, lang):
    d = e["data"]
    n = state.seat_name(d["seat"])
    tn = true_name(state, d["seat"])
    shown = _ja(lang, f"「{tn}」", f"'{tn}'") if tn else ""
    why = gm_reason(_label(d["reason"], lang), lang)
    return _ja(lang, f"{n}の真名{shown}が判明：{why} [S-13]",
               f"True name of {n}{(' ' + shown) if shown else ''} revealed: {why} [S-13]")


def _d_eliminated(e, state, lang):
    d = e["data"]
    why = gm_reason(_label(d["reason"], lang), lang)
    won = state.seat_name(d["winner"]) if d.get("winner") else ""
    return _ja(lang, f"{state.seat_name(d['seat'])}が脱落（{why}） [S-10]" + (f"。残った{won}の優勝（ゲーム終了） [S-1]" if won else ""),
               f"{state.seat_name(d['seat'])} is out ({why}) [S-10]"
               + (f". {won}, the last player left, wins (the game is over) [S-1]" if won else ""))


def _d_round_ended(e, state, lang):
    d = e["data"]
    rnd = R.ROUND_LABELS[d["round"]].get(lang)
    ranks = R.places([r["vp"] for r in d["standings"]])  # tied players share a place
    places = [(ranks[i], state.seat_name(r["seat"]), r["vp"]) for i, r in enumerate(d["standings"])]
    why = _label(d["reason"], lang) if d.get("reason") else ""
    return _ja(lang, f"{rnd}終了{f'（{why}）' if why else ''}。戦果：" + "、".join(f"{n}位 {name} {minus_sign(vp)}" for n, name, vp in places),
               f"{rnd} over{f' ({why})' if why else ''}. VP: " + ", ".join(f"{n}. {name} {minus_sign(vp)}" for n, name, vp in places))


def _d_round_started(e, state, lang):
    d = e["data"]
    rnd = R.ROUND_LABELS[d["round"]].get(lang)
    order = "→".join(state.seat_name(s) for s in d["order"])
    return _ja(lang, f"{rnd}開始：盤面{d['board_length']}マス、全員スタートへ、手番 {order} [S-1]",
               f"{rnd} begins: board of {d['board_length']}, everyone at the start, order {order} [S-1]")


# -- the declarations ---------------------------------------------------------------------------

def _setup_rolls(d: dict, state: State) -> list[dict]:
    """S-3 順番決定 by dice: each player's 1d6 (ties roll again) on the screens' roll lists."""
    return order_rolls(d.get("order_rolls") or {}, "1D6", {"ja": "順番決定 [S-3]", "en": "Turn order [S-3]"},
                       d.get("entered", False))


EVENTS: tuple[EventType, ...] = (
    EventType("sugoroku.setup", _setup, _d_setup, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line, rolls=_setup_rolls),
    EventType("sugoroku.square_set", _square_set, _d_square, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.moved", _moved, _d_moved, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.turn_skipped", _skipped, _d_skipped, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.goal", _goal, _d_goal, PUBLIC, undone_visibility=PUBLIC, line_key=fixed_line),
    EventType("sugoroku.challenged", _challenged, _d_challenged, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.phase_ended", _phase_ended, _d_phase, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.battle_started", _battle_started, _d_battle, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.battle_skipped", _battle_skipped, _d_battle_skipped, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.battle_card", _battle_card, _d_card, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.battle_adjusted", _battle_adjusted, _d_adjusted, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.battle_ended", _battle_ended, _d_battle_ended, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.skill_used", _skill_used, _d_skill, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.seal_used", _seal_used, _d_seal, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.karma_converted", _karma_converted, _d_karma, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.true_name_revealed", _revealed, _d_revealed, PUBLIC, undone_visibility=PUBLIC, undoable=True,
              line_key=lambda e, state: (true_name(state, e.data["seat"]),)),  # its line names the true name once shown
    EventType("sugoroku.eliminated", _eliminated, _d_eliminated, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.round_ended", _round_ended, _d_round_ended, PUBLIC, undone_visibility=PUBLIC, undoable=True, line_key=fixed_line),
    EventType("sugoroku.round_started", _round_started, _d_round_started, PUBLIC, undone_visibility=PUBLIC, line_key=fixed_line),
)


def upcast_reading(data: dict) -> tuple[str, dict]:
    """A reading switched by gmtool 0.1 (sugoroku.reading_set) as core's reading.set."""
    return "reading.set", {"key": data["key"], "value": data["value"], "rule": data.get("rule", "")}
