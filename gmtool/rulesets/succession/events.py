"""Grail Succession: the event types: how each folds into state.extra["succession"], its log line
(Japanese / English) and who sees it. Every card in the game is face up (the hands are physical
and never entered), so every event is public.
"""

from __future__ import annotations

from gmtool.core.logtext import gm_reason, minus_sign
from gmtool.core.model import Event, State
from gmtool.core.ruleset import PUBLIC, EventType
from gmtool.core.turns import Turns, order_rolls
from gmtool.core.view import fixed_line

from . import cards as C
from .state import KEY, sx


def _t(lang: str, ja: str, en: str) -> str:
    return en if lang == "en" else ja


def _name(state: State, seat: str) -> str:
    return state.seat_name(seat)


def _where(d: dict, lang: str) -> str:
    return _t(lang, f"第{d['round']}ラウンド 手番{d['turn']}：", f"Round {d['round']}, turn {d['turn']}: ")


# -- folds ----------------------------------------------------------------------------------------

def setup(state: State, e: Event) -> None:
    """A game starts (also a rematch): the players, the first player, the starting row (G-1)."""
    d = e.data
    players = list(d["players"])
    state.extra[KEY] = {
        "mode": d["mode"], "players": players, "game": d["game"], "opener": d["first"], "first": d["first"],
        "round": 1, "turns": Turns.start(players, first=d["first"]).to_dict(),
        "row": [dict(c) for c in d.get("row", [])], "start_cards": len(d.get("row", [])),
        "took": {p: False for p in players}, "captured": {p: [] for p in players},
        "moves": 0, "last": None, "finished": None, "entries": {}, "history": [],
    }


def start_card(state: State, e: Event) -> None:
    """One of the two face-up cards that start the row (seed 準備③)."""
    s = sx(state)
    s["row"].append(dict(e.data["card"]))
    s["start_cards"] += 1


def _advance(s: dict) -> None:
    s["turns"] = Turns.from_dict(s["turns"]).next_player().to_dict()
    s["moves"] += 1


def played(state: State, e: Event) -> None:
    """G-1: a card to the end of the row."""
    s = sx(state)
    s["row"].append(dict(e.data["card"]))
    s["last"] = {"kind": "play", **e.data}
    s["history"].append({"kind": "play", **e.data})
    _advance(s)


def taken(state: State, e: Event) -> None:
    """G-1: the last 5 cards of the row (all when fewer) go to the player; their take for this round is used."""
    s = sx(state)
    d = e.data
    s["row"] = s["row"][:len(s["row"]) - len(d["cards"])]
    s["captured"][d["seat"]].extend(dict(c) for c in d["cards"])
    s["took"][d["seat"]] = True
    s["last"] = {"kind": "take", **d}
    s["history"].append({"kind": "take", **d})
    _advance(s)


def skipped(state: State, e: Event) -> None:
    """The GM passes a turn that has no legal move (a correction)."""
    s = sx(state)
    s["last"] = {"kind": "skip", **e.data}
    s["history"].append({"kind": "skip", **e.data})
    _advance(s)


def round_ended(state: State, e: Event) -> None:
    """Seed ラウンドの終了: the hands refill (counters), the row carries over, the first player flips."""
    s = sx(state)
    d = e.data
    s["round"] = d["round"] + 1
    s["first"] = d["next_first"]
    s["turns"] = Turns.start(s["players"], first=d["next_first"]).to_dict()
    s["took"] = {p: False for p in s["players"]}
    s["moves"] = 0
    s["history"].append({"kind": "round_end", **d})


def game_ended(state: State, e: Event) -> None:
    """G-3: the game is over: three grails, or the totals after the 4th round (or both entries, score-only)."""
    s = sx(state)
    s["finished"] = dict(e.data)
    s["history"].append({"kind": "game_end", "round": e.data.get("round"), "winner": e.data.get("winner"),
                         "reason": e.data.get("reason")})


def counts_entered(state: State, e: Event) -> None:
    """Score-only mode: a player's captured cards as they entered them."""
    sx(state)["entries"][e.data["seat"]] = e.data["counts"]


def setup_rolls(d: dict, state: State) -> list[dict]:
    """G-1: who starts, by a die each (higher starts, ties roll again): each player's 1d6 on the screens' roll lists."""
    return order_rolls(d.get("rolls") or {}, "1D6", {"ja": "先手決め [G-1]", "en": "Who starts [G-1]"},
                       d.get("entered", False))


# -- log lines ------------------------------------------------------------------------------------

def describe_setup(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.setup."""
    d = ev["data"]
    names = _t(lang, "・", " and ").join(_name(state, p) for p in d["players"])
    how = {"gm": _t(lang, "GMが指名", "picked by the GM"),
           "dice": _t(lang, "ダイス", "by dice") + (" " + ", ".join(f"{_name(state, p)} {'/'.join(map(str, r))}"
                                                             for p, r in d.get("rolls", {}).items()) if d.get("rolls") else "")
           + (_t(lang, "（実ダイス）", " (real dice)") if d.get("entered") else ""),
           "rematch": _t(lang, "再戦：先手交代", "rematch: first player flipped")}.get(d.get("how"), "")
    mode = _t(lang, "得点のみ", "score only") if d["mode"] == "score" else _t(lang, "手番を記録", "turn by turn")
    row = C.cards_text(d.get("row", []), lang)
    return _t(lang, f"聖杯サクセション 第{d['game']}ゲーム開始（{names}、{mode}）：先手 {_name(state, d['first'])}（{how}）、領地列 {row} [G-1]",
              f"Grail Succession game {d['game']} starts ({names}, {mode}): {_name(state, d['first'])} starts ({how}); "
              f"row: {row} [G-1]")


def describe_start_card(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.start_card."""
    card = C.card_label(ev["data"]["card"], lang)
    return _t(lang, f"領地列の最初のカード：{card}", f"Starting row card: {card}")


def describe_played(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.played."""
    d = ev["data"]
    return _where(d, lang) + _t(lang, f"{_name(state, d['seat'])}が{C.card_label(d['card'], lang)}を出した（領地列{d['row']}枚、手札{d['hand']}）[G-1]",
                                f"{_name(state, d['seat'])} played {C.card_label(d['card'], lang)} (row {d['row']}, hand {d['hand']}) [G-1]")


def describe_taken(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.taken."""
    d = ev["data"]
    cards = C.cards_text(d["cards"], lang)
    return _where(d, lang) + _t(lang, f"{_name(state, d['seat'])}が{len(d['cards'])}枚取った：{cards}（得点 {d['score']}）[G-1]",
                                f"{_name(state, d['seat'])} took {len(d['cards'])}: {cards} (score {d['score']}) [G-1]")


def describe_skipped(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.skipped."""
    d = ev["data"]
    reason = gm_reason(d["reason"], lang)
    return _where(d, lang) + _t(lang, f"{_name(state, d['seat'])}の手番を飛ばした（{reason}）",
                                f"{_name(state, d['seat'])}'s turn skipped ({reason})")


def _scores_line(state: State, scores: dict, lang: str) -> str:
    return _t(lang, "、", ", ").join(f"{_name(state, p)} {v['total']}" for p, v in scores.items())


def describe_round_ended(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.round_ended."""
    d = ev["data"]
    return _t(lang, f"第{d['round']}ラウンド終了：{_scores_line(state, d['scores'], lang)}。手札を5枚に補充、領地列{d['row']}枚は持ち越し、"
                    f"次の先手は{_name(state, d['next_first'])}",
              f"Round {d['round']} over: {_scores_line(state, d['scores'], lang)}. Hands refilled to 5, the row "
              f"({d['row']}) carries over, {_name(state, d['next_first'])} starts next")


def _breakdown(state: State, scores: dict, lang: str) -> str:
    parts = []
    for p, v in scores.items():
        terms = " ".join(f"{t['label']['en' if lang == 'en' else 'ja']} {minus_sign(t['value'], True)}" for t in v["terms"])
        parts.append(f"{_name(state, p)} {minus_sign(v['total'])}" + (f" = {terms}" if terms else ""))
    return " / ".join(parts)


def result_text(reason: str, winner: str | None, rematch: bool, lang: str) -> str:
    """A finished game's result (G-3), given the winner's name: three grails, the higher total, or equal totals."""
    if reason == "grail":
        return _t(lang, f"聖杯サクセション！{winner}が聖杯3枚を揃えて勝利 [G-3]",
                  f"Grail succession! {winner} holds all three grails and wins [G-3]")
    if reason == "tie":
        return _t(lang, "同点" + ("：再戦 [G-3]" if rematch else "：引き分け [G-3]"),
                  "Equal totals" + (": a rematch [G-3]" if rematch else ": a draw [G-3]"))
    return _t(lang, f"通常サクセション：{winner}の勝利 [G-2]", f"Normal succession: {winner} wins [G-2]")


def describe_game_ended(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.game_ended: the winner and the final breakdown."""
    d = ev["data"]
    head = result_text(d["reason"], _name(state, d["winner"]) if d.get("winner") else None, bool(d.get("rematch")), lang)
    return f"{head} — {_breakdown(state, d['scores'], lang)}"


def describe_counts(ev: dict, state: State, lang: str) -> str:
    """Log line of succession.counts_entered."""
    d = ev["data"]
    c = d["counts"]
    f = " ".join(f"{v}×{c['faction'][str(v)]}" for v in C.FACTIONS)
    return _t(lang, f"{_name(state, d['seat'])}の獲得カード：勢力 {f}、プラス{sum(c['plus'])}、マイナス{sum(c['minus'])}、聖杯{c['grail']}",
              f"{_name(state, d['seat'])}'s captured cards: faction {f}, plus {sum(c['plus'])}, minus {sum(c['minus'])}, "
              f"grails {c['grail']}")


def _public(name, fold, describe, undoable=True, **more) -> EventType:
    """A step of the game everyone sees, and still sees once undone: its line depends
    on its data and the seats' names only."""
    return EventType(f"succession.{name}", fold, describe, PUBLIC, undone_visibility=PUBLIC, undoable=undoable,
                     line_key=fixed_line, **more)


EVENTS = (
    _public("setup", setup, describe_setup, rolls=setup_rolls),
    _public("start_card", start_card, describe_start_card),
    _public("played", played, describe_played),
    _public("taken", taken, describe_taken),
    _public("skipped", skipped, describe_skipped),
    _public("round_ended", round_ended, describe_round_ended, undoable=False),
    _public("game_ended", game_ended, describe_game_ended, undoable=False, ends_game=True),
    _public("counts_entered", counts_entered, describe_counts),
)
