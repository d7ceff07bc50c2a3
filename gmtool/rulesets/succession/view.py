"""Grail Succession: the ruleset's part of each viewer's view (the row, the turn, captured cards, live scores).

Every card gmtool knows is face up on the table (hands are physical and never entered), so
every viewer sees the same; a seat's view adds `me` (its own turn and moves).
"""

from __future__ import annotations

from gmtool.core.model import State, Viewer
from gmtool.core.turns import Turns

from . import cards as C
from . import rules as R
from . import scoring as S
from .state import in_play, sx


def card_view(card: dict) -> dict:
    """A card with its label in both languages (players read words, never codes)."""
    return {**card, "label": {"ja": C.card_label(card, "ja"), "en": C.card_label(card, "en")}}


def groups(cards: list[dict]) -> list[dict]:
    """Captured cards grouped by kind, in the order 5, 6, 7, 8, plus, minus, grail (seed: keep them sorted)."""
    t = S.tally(cards)
    out = [{"kind": "faction", "value": v, "count": t["faction"][str(v)],
            "label": {"ja": f"勢力{v}", "en": f"Faction {v}"}} for v in C.FACTIONS]
    out.append({"kind": "plus", "values": t["plus"], "count": len(t["plus"]), "sum": sum(t["plus"]),
                "label": {"ja": "プラス", "en": "Plus"}})
    out.append({"kind": "minus", "values": t["minus"], "count": len(t["minus"]), "sum": sum(t["minus"]),
                "label": {"ja": "マイナス", "en": "Minus"}})
    out.append({"kind": "grail", "count": t["grail"], "label": {"ja": "聖杯", "en": "Grail"}})
    return out


def _entry_groups(counts: dict) -> list[dict]:
    cards = [{"kind": "faction", "value": v} for v in C.FACTIONS for _ in range(counts["faction"][str(v)])]
    cards += [{"kind": "plus", "value": x} for x in counts["plus"]] + [{"kind": "minus", "value": x} for x in counts["minus"]]
    cards += [{"kind": "grail", "value": 0}] * counts["grail"]
    return groups(cards)


def view(state: State, viewer: Viewer) -> dict:
    """The ruleset's part of a viewer's view (docs/rulesets/succession.md, `state.ruleset`)."""
    s = sx(state)
    seats = [{"id": k, "name": v.name} for k, v in state.seats.items()]
    base = {"ready": False, "seats": seats, "rounds": R.ROUNDS, "turns_per_round": R.TURNS_PER_ROUND,
            "hand_size": R.HAND_SIZE, "take_size": R.TAKE_SIZE, "factions": list(C.FACTIONS),
            "max_modifier": C.MAX_MODIFIER}
    if s is None:
        return base
    turns = Turns.from_dict(s["turns"])
    finished = s["finished"]
    score_mode = s["mode"] == "score"
    if score_mode:
        tallies = {p: s["entries"].get(p) or S.empty_tally() for p in s["players"]}
    else:
        tallies = {p: S.tally(s["captured"][p]) for p in s["players"]}
    scores = S.score(tallies)
    current = None if finished or score_mode else turns.current
    span = set(R.take_span(len(s["row"])))
    players = []
    for p in s["players"]:
        hand = state.counters.get(p, {}).get("hand", 0)
        legal = R.moves(hand, s["took"][p], len(s["row"]))
        players.append({
            "seat": p, "name": state.seat_name(p), "hand": hand, "took": s["took"][p],
            "first": p == s["first"], "current": p == current,
            "captured": [card_view(c) for c in s["captured"][p]], "captured_count": len(s["captured"][p]),
            "groups": _entry_groups(tallies[p]) if score_mode else groups(s["captured"][p]),
            "grails": tallies[p]["grail"], "score": scores[p], "entered": p in s["entries"],
            "moves": legal if p == current else None,
        })
    result = None
    if finished:
        result = {**finished, "winner_name": state.seat_name(finished["winner"]) if finished.get("winner") else None}
    last = s["last"]
    if last:
        last = {**last, "name": state.seat_name(last["seat"]),
                **({"card": card_view(last["card"])} if last.get("card") else {}),
                **({"cards": [card_view(c) for c in last["cards"]]} if last.get("cards") else {})}
    leader = None
    if len({scores[p]["total"] for p in s["players"]}) > 1:
        leader = max(s["players"], key=lambda p: scores[p]["total"])
    out = {**base, "ready": True, "mode": s["mode"], "game": s["game"], "round": s["round"],
           "turn": min(turns.round, R.TURNS_PER_ROUND), "moves_made": s["moves"],
           "current": current, "current_name": state.seat_name(current) if current else None,
           "first": s["first"], "first_name": state.seat_name(s["first"]),
           "row": [{**card_view(c), "pos": i, "in_take": i in span, "end": i == len(s["row"]) - 1}
                   for i, c in enumerate(s["row"])],
           "row_count": len(s["row"]), "take_count": len(span),
           "start_cards_needed": max(0, R.START_ROW - s["start_cards"]) if not score_mode else 0,
           "supply_out": C.supply_out(in_play(s)) if not score_mode else {},
           "players": players, "leader": leader, "last": last, "round_end": _round_end(state, s),
           "finished": result, "history": _history(state, s)}
    if viewer.kind == "seat" and viewer.seat in s["players"]:
        me = next(x for x in players if x["seat"] == viewer.seat)
        your_turn = current == viewer.seat and not out["start_cards_needed"]
        out["me"] = {"seat": viewer.seat, "your_turn": your_turn, "moves": me["moves"] if your_turn else dict(R.NO_MOVES),
                     "player": me,
                     "opponent": next(x for x in players if x["seat"] != viewer.seat)}
    return out


def _round_end(state: State, s: dict) -> dict | None:
    """The round that just ended while it is the newest moment (no move made since, the game not over): its scores,
    the hands refilled, the row carried over and the next first player, which the table's stage shows large."""
    h = s["history"][-1] if s["history"] else None
    if h is None or h["kind"] != "round_end" or s["moves"] or s["finished"]:
        return None
    return {"round": h["round"], "row": h["row"], "hand": R.HAND_SIZE, "next_first": h["next_first"],
            "next_first_name": state.seat_name(h["next_first"]),
            "scores": [{"seat": p, "name": state.seat_name(p), "total": v["total"]} for p, v in h["scores"].items()]}


def _history(state: State, s: dict) -> list[dict]:
    """The game so far, round by round (newest round first), each move as a line in both languages."""
    rounds: dict[int, list] = {}
    for h in s["history"]:
        if h["kind"] in ("play", "take", "skip"):
            who = state.seat_name(h["seat"])
            if h["kind"] == "play":
                text = {"ja": f"{who}：{C.card_label(h['card'], 'ja')}を出す", "en": f"{who}: plays {C.card_label(h['card'], 'en')}"}
            elif h["kind"] == "take":
                text = {"ja": f"{who}：{len(h['cards'])}枚取る（{C.cards_text(h['cards'], 'ja')}）",
                        "en": f"{who}: takes {len(h['cards'])} ({C.cards_text(h['cards'], 'en')})"}
            else:
                text = {"ja": f"{who}：手番を飛ばす", "en": f"{who}: turn skipped"}
            rounds.setdefault(h["round"], []).append({"turn": h["turn"], "kind": h["kind"], "text": text})
    return [{"round": r, "moves": list(reversed(m))} for r, m in sorted(rounds.items(), reverse=True)]
