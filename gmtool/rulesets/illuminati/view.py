"""The illuminati part of every viewer's view. Nothing in the game's state is secret (the secret
placements are core prompts until revealed), so every viewer sees the same, plus what they may do."""

from __future__ import annotations

from gmtool.core.model import State, Viewer
from gmtool.core.ruleset import reading_value

from . import attack as atk
from . import opening, rules
from .alignments import ALIGNMENTS
from .events import victory_kind
from .readings import PARENT_BONUS
from .state import STAGES, current, peek


def _label(pair) -> dict:
    return {"ja": pair[0], "en": pair[1]}


def _attack_view(state: State, attack: dict | None) -> dict | None:
    if attack is None:
        return None
    names = {s: state.seat_name(s) for s in state.seats}
    owner = attack["target"].get("owner")
    out = {**attack, "attacker_name": names.get(attack["attacker_seat"], ""),
           "owner_name": names.get(owner, "") if owner else "",
           "supports": [{**s, "seat_name": names.get(s["seat"], ""), "amount": atk.support_value(attack, s)}
                        for s in attack.get("supports", [])]}
    if attack.get("result"):
        out["breakdown"] = attack["result"]["breakdown"]
    else:
        out["breakdown"] = atk.breakdown(attack, names, reading_value(state, PARENT_BONUS) == "per_alignment")
    return out


def view(state: State, viewer: Viewer) -> dict:
    """The game as `viewer` sees it: players against the goal, order, the attack with its breakdown."""
    g = peek(state)
    now = current(g) if g["stage"] == "play" else None  # I-1: after the game it is nobody's turn
    goal = g["goal"]
    players = []
    for seat in (g["order"] or g["players"]):
        c = state.counters.get(seat, {})
        groups = c.get("groups", 0)
        players.append({
            "seat": seat, "name": state.seat_name(seat), "illuminati": g["illuminati"].get(seat, ""),
            "group": g["kept"].get(seat, ""), "counters": dict(c),
            "missing": rules.missing(groups, goal) if goal else None,
            "meets": bool(goal) and rules.meets_goal(groups, goal) and seat not in g["out"],
            "out": seat in g["out"], "out_reason": g["out"].get(seat), "agents": list(g["agents"].get(seat, [])),
            "current": seat == now, "you": viewer.seat == seat,
            "declared": next((d for d in g["declared"] if d["seat"] == seat), None),
            "order_rolls": g["order_rolls"].get(seat, []),
        })
    prompt = state.prompts.get(g["prompt"] or "")
    placement = None
    if prompt is not None:
        placement = {"prompt": prompt.id, "stage": g["stage"], "round": g["round"], "status": prompt.status,
                     "seats": [{"seat": s, "name": state.seat_name(s), "answered": s in prompt.answers}
                               for s in prompt.seats], "set_aside": [], "again": []}
        if prompt.status == "revealed" and g["stage"] == "groups":  # I-2: public now; what settling it will set aside
            settled = opening.settle_groups({s: prompt.answers[s].value for s in prompt.seats if s in prompt.answers})
            placement["set_aside"] = settled["set_aside"]
            placement["again"] = [s for s in prompt.seats if s in settled["again"] or s not in prompt.answers]
    attack = _attack_view(state, g["attack"])
    last = _attack_view(state, g["attacks"][0]) if g["attacks"] else None
    me = viewer.seat if viewer.seat in g["players"] else None
    waiting = [s for s in prompt.seats if s not in prompt.answers] if prompt is not None else []
    in_game = me is not None and me not in g["out"] and g["stage"] == "play"
    turns = g["turns"] or {}
    return {
        "stage": g["stage"], "stage_label": _label(STAGES[g["stage"]]),
        "goal": goal, "goal_basis": g["goal_basis"], "tournament": g["tournament"],
        # I-1: the goals the seat count allows (the two-player tournament goal only with two players)
        "tournament_allowed": len(g["players"] or state.seats) == rules.TOURNAMENT_PLAYERS,
        "players": players, "order": list(g["order"]), "current": now,
        "current_name": state.seat_name(now) if now else "", "round": turns.get("round"),
        "round_label": {"ja": f"{turns['round']}巡目", "en": f"Round {turns['round']}"} if turns else None,
        "turn": dict(g["turn"]), "placement": placement, "set_aside": list(g["set_aside"]),
        "rounds": list(g["rounds"]), "order_entered": g["order_entered"],
        "attack": attack, "last_attack": last, "attacks": [_attack_view(state, a) for a in g["attacks"][:5]],
        # I-1: how the game was won, as the write-up's result line says it
        "winner": ({**g["winner"], "name": state.seat_name(g["winner"]["seat"]),
                    "how": {lang: victory_kind(g["winner"], lang) for lang in ("ja", "en")}} if g["winner"] else None),
        "alignments": [{"key": k, "label": v.to_dict()} for k, v in ALIGNMENTS.items()],
        "me": me,
        # I-2: the caller's phone places again because the GM revealed the round before it placed
        "revealed_before_placing": opening.revealed_before_placing(g, waiting, me),
        "can": {
            "start_turn": in_game and me == now and not g["turn"]["started"],
            "attack": in_game and me == now and g["attack"] is None,
            "end_turn": in_game and me == now and g["attack"] is None,
            "support": in_game and g["attack"] is not None,
            "roll_attack": in_game and g["attack"] is not None and g["attack"]["attacker_seat"] == me,
            "declare": in_game and bool(goal) and rules.meets_goal(state.counters[me]["groups"], goal),
        },
    }
