"""Grail Succession: the score and the result (RULES.md G-2, G-3): majorities per faction value, sets,
plus / minus, grails 0; three grails win at once; the higher total wins, equal totals per the tie reading.
Also the captured counts a player enters in score-only mode."""

from __future__ import annotations

import unicodedata

from gmtool.core.errors import GmError

from .cards import FACTIONS, KIND_LABELS, MAX_MODIFIER, SUPPLY, parse_number
from .rules import PLAYERS

SET_BONUS = 5  # G-2: per complete set {5, 6, 7, 8}
GRAILS_TO_WIN = 3  # G-3


def empty_tally() -> dict:
    """No captured cards."""
    return {"faction": {str(v): 0 for v in FACTIONS}, "plus": [], "minus": [], "grail": 0}


def tally(cards: list[dict]) -> dict:
    """Captured cards counted by kind: faction counts per value, plus / minus values, grails."""
    out = empty_tally()
    for c in cards:
        if c["kind"] == "faction":
            out["faction"][str(c["value"])] += 1
        elif c["kind"] in ("plus", "minus"):
            out[c["kind"]].append(int(c["value"]))
        else:
            out["grail"] += 1
    return out


def _term(key: str, ja: str, en: str, value: int) -> dict:
    return {"key": key, "label": {"ja": ja, "en": en}, "value": value, "rule": "G-2"}


def score(tallies: dict[str, dict]) -> dict[str, dict]:
    """G-2: each player's score with its breakdown, from both players' captured cards.

    For 5, 6, 7, 8 the player with more cards of it scores that value (equal: nobody); +5 per
    complete set {5, 6, 7, 8} whatever the majorities; plus / minus values add / subtract; grails 0.
    """
    if len(tallies) != PLAYERS:
        raise ValueError("Grail Succession scores exactly two players")
    seats = list(tallies)
    out = {}
    for me in seats:
        other = seats[1 - seats.index(me)]
        mine, theirs = tallies[me], tallies[other]
        factions, terms = [], []
        for v in FACTIONS:
            a, b = mine["faction"][str(v)], theirs["faction"][str(v)]
            points = v if a > b else 0
            factions.append({"value": v, "mine": a, "theirs": b, "points": points,
                             "outcome": "more" if a > b else "less" if a < b else "equal"})
            if points:
                terms.append(_term(f"majority_{v}", f"勢力{v}の過半（{a}対{b}）", f"Majority in faction {v} ({a} to {b})",
                                   points))
        sets = min(mine["faction"][str(v)] for v in FACTIONS)
        if sets:
            terms.append(_term("sets", f"勢力セット×{sets}", f"Faction sets ×{sets}", sets * SET_BONUS))
        plus, minus = sum(mine["plus"]), sum(mine["minus"])
        if mine["plus"]:
            terms.append(_term("plus", f"プラス（{'+'.join(map(str, mine['plus']))}）",
                               f"Plus ({' + '.join(map(str, mine['plus']))})", plus))
        if mine["minus"]:
            terms.append(_term("minus", f"マイナス（{'+'.join(map(str, mine['minus']))}）",
                               f"Minus ({' + '.join(map(str, mine['minus']))})", -minus))
        if mine["grail"]:
            terms.append(_term("grail", f"聖杯×{mine['grail']}（0点）", f"Grail ×{mine['grail']} (0 points)", 0))
        faction_points = sum(f["points"] for f in factions) + sets * SET_BONUS
        out[me] = {"factions": factions, "sets": sets, "set_points": sets * SET_BONUS, "faction_points": faction_points,
                   "plus": plus, "minus": minus, "grail": mine["grail"], "terms": terms,
                   "total": faction_points + plus - minus}
    return out


def grail_winner(tallies: dict[str, dict]) -> str | None:
    """G-3: the player holding all three grail cards (they win at once), or None."""
    return next((seat for seat, t in tallies.items() if t["grail"] >= GRAILS_TO_WIN), None)


def result(tallies: dict[str, dict], tie: str = "rematch") -> dict:
    """G-3: the game's result: a grail succession, else the higher total; equal totals per the tie reading.

    Returns {"winner": seat or None, "reason": "grail" | "score" | "tie", "rematch": bool, "scores": ...}.
    """
    scores = score(tallies)
    grail = grail_winner(tallies)
    if grail:
        return {"winner": grail, "reason": "grail", "rematch": False, "scores": scores}
    a, b = list(scores)
    if scores[a]["total"] == scores[b]["total"]:
        return {"winner": None, "reason": "tie", "rematch": tie == "rematch", "scores": scores}
    winner = a if scores[a]["total"] > scores[b]["total"] else b
    return {"winner": winner, "reason": "score", "rematch": False, "scores": scores}


def parse_counts(payload: dict) -> dict:
    """Score-only mode: a player's captured cards as entered (faction counts, plus / minus values, grails).

    `f5`..`f8` (or `faction`: {"5": n, ...}) are counts; `plus` / `minus` are a list of card values or
    one total; `grail` is a count. Nothing is negative; check_entries holds them to the deck.
    """
    payload = payload if isinstance(payload, dict) else {}
    out = empty_tally()
    nested = payload.get("faction") if isinstance(payload.get("faction"), dict) else {}
    for v in FACTIONS:
        raw = nested.get(str(v), nested.get(v, payload.get(f"f{v}", 0)))
        n = parse_number(raw if raw not in (None, "") else 0, f"勢力{v}の枚数", f"count of faction {v}")
        if n < 0:
            raise GmError(f"勢力{v}の枚数は0以上です", f"The count of faction {v} is 0 or more")
        out["faction"][str(v)] = n
    for kind in ("plus", "minus"):
        ja, en = KIND_LABELS[kind]
        raw = payload.get(kind, [])
        if isinstance(raw, str):
            raw = [x for x in unicodedata.normalize("NFKC", raw).replace("、", ",").replace(" ", ",").split(",") if x]
        values = [parse_number(x, f"{ja}の値", f"{en.lower()} value") for x in (raw if isinstance(raw, list) else [raw])]
        values = [x for x in values if x != 0]
        if any(x < 0 for x in values):
            raise GmError(f"{ja}の値は正の数で入力してください", f"Enter {en.lower()} values as positive numbers")
        out[kind] = values
    grail = parse_number(payload.get("grail", 0) if payload.get("grail", 0) not in (None, "") else 0, "聖杯の枚数", "grail count")
    if grail < 0:
        raise GmError("聖杯カードは0〜3枚です", "Grail cards: 0 to 3")
    out["grail"] = grail
    return out


def check_entries(entries: list[dict]) -> None:
    """Seed 内容物: the entries together (one player's, or both) hold no more cards of a kind than the deck
    (26 faction, 7 plus, 9 minus, 3 grail), nor plus / minus values beyond every card of the kind at 20."""
    held = {"faction": sum(sum(e["faction"].values()) for e in entries), "grail": sum(e["grail"] for e in entries),
            **{kind: sum(len(e[kind]) for e in entries) for kind in ("plus", "minus")}}
    for kind in KIND_LABELS:
        ja, en = KIND_LABELS[kind]
        if held[kind] > SUPPLY[kind]:
            raise GmError(f"{ja}カードは全部で{SUPPLY[kind]}枚です（入力の合計は{held[kind]}枚）",
                          f"There are only {SUPPLY[kind]} {en.lower()} cards (the entries hold {held[kind]})")
    for kind in ("plus", "minus"):
        ja, en = KIND_LABELS[kind]
        most = SUPPLY[kind] * MAX_MODIFIER  # every card of the kind, each at the highest value gmtool takes
        if sum(sum(e[kind]) for e in entries) > most:
            raise GmError(f"{ja}の値の合計は全部で{most}までです（{SUPPLY[kind]}枚、1枚{MAX_MODIFIER}まで）",
                          f"There are only {SUPPLY[kind]} {en.lower()} cards of at most {MAX_MODIFIER}: "
                          f"their values add up to at most {most}")
