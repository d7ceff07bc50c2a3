"""Grail Succession (聖杯サクセション, RULES.md G): the cards, the legal moves and the score, as pure functions.

Nothing here reads or changes a session: actions.py calls these with plain data and turns the
answers into events. Rule codes: G-1 (turns: play or take, take once per round, not from an
empty row), G-2 (scoring: majorities, sets, plus / minus, grails 0), G-3 (three grails win at
once; equal totals: a rematch).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from gmtool.core.errors import Conflict, GmError

PLAYERS = 2
ROUNDS = 4  # G-1
TURNS_PER_ROUND = 6  # G-1: per player
HAND_SIZE = 5  # seed, 準備②: the hand dealt at the start of every round
TAKE_SIZE = 5  # G-1: a take gets the last 5 cards of the row (all when fewer)
START_ROW = 2  # seed, 準備③: two face-up cards start the row
FACTIONS = (5, 6, 7, 8)  # G-2
SET_BONUS = 5  # G-2: per complete set {5, 6, 7, 8}
GRAILS_TO_WIN = 3  # G-3
KINDS = ("faction", "plus", "minus", "grail")
SUPPLY = {"faction": 26, "plus": 7, "minus": 9, "grail": 3}  # seed, 内容物: 45 territory cards
MAX_MODIFIER = 20  # the largest plus / minus value gmtool accepts (the printed values are not in the seed)

KIND_LABELS = {"faction": ("勢力", "Faction"), "plus": ("プラス", "Plus"), "minus": ("マイナス", "Minus"),
               "grail": ("聖杯", "Grail")}
_ALIASES = {"faction": "faction", "勢力": "faction", "f": "faction", "plus": "plus", "プラス": "plus", "+": "plus",
            "minus": "minus", "マイナス": "minus", "-": "minus", "grail": "grail", "聖杯": "grail", "g": "grail"}


# -- cards ----------------------------------------------------------------------------------------

def _int(value: Any, ja: str, en: str) -> int:
    if isinstance(value, bool):
        raise GmError(f"{ja}は整数で入力してください", f"The {en} must be a whole number")
    try:
        return int(unicodedata.normalize("NFKC", str(value)).strip())
    except (TypeError, ValueError):
        raise GmError(f"{ja}は整数で入力してください（「{str(value)[:20]}」）",
                      f"The {en} must be a whole number (got '{str(value)[:20]}')") from None


def parse_card(value: Any, number: Any = None) -> dict:
    """A card from a payload: {"kind", "value"} or a short text ("5", "+3", "-2", "grail", 聖杯) (G-2 kinds).

    `number` is the printed value when `value` is only the kind (a form's two fields).
    """
    if isinstance(value, dict):
        kind, number = value.get("kind"), value.get("value", number)
    else:
        text = unicodedata.normalize("NFKC", "" if value is None else str(value)).strip().lower()
        if text[:1] in "+-" and text[1:].strip().isdigit():
            kind, number = ("plus" if text[0] == "+" else "minus"), text[1:].strip()
        elif text.isdigit():
            kind, number = "faction", text
        else:
            kind = text
    kind = _ALIASES.get(unicodedata.normalize("NFKC", str(kind or "")).strip().lower())
    if kind is None:
        raise GmError("カードの種類を選んでください（勢力・プラス・マイナス・聖杯）",
                      "Choose the kind of card (faction, plus, minus, grail)")
    if kind == "grail":
        return {"kind": "grail", "value": 0}
    if number in (None, ""):
        raise GmError(f"{KIND_LABELS[kind][0]}カードの数字を入力してください",
                      f"Enter the number printed on the {KIND_LABELS[kind][1].lower()} card")
    n = _int(number, "カードの数字", "card's number")
    if kind == "faction" and n not in FACTIONS:
        raise GmError(f"勢力カードは5・6・7・8です（{n}はありません）", f"Faction cards are 5, 6, 7 or 8 (not {n})")
    if kind in ("plus", "minus") and not 1 <= n <= MAX_MODIFIER:
        raise GmError(f"{KIND_LABELS[kind][0]}カードの数字は1〜{MAX_MODIFIER}です",
                      f"A {KIND_LABELS[kind][1].lower()} card's number is 1 to {MAX_MODIFIER}")
    return {"kind": kind, "value": n}


def card_label(card: dict, lang: str = "ja") -> str:
    """How a card reads: 勢力5 / プラス3 / マイナス2 / 聖杯 (Faction 5 / Plus 3 / Minus 2 / Grail)."""
    ja, en = KIND_LABELS[card["kind"]]
    if card["kind"] == "grail":
        return en if lang == "en" else ja
    sign = {"plus": "+", "minus": "−"}.get(card["kind"], "")
    return f"{en} {sign}{card['value']}" if lang == "en" else f"{ja}{sign}{card['value']}"


def cards_text(cards: list[dict], lang: str = "ja") -> str:
    """A list of cards in one line."""
    return (", " if lang == "en" else "、").join(card_label(c, lang) for c in cards) or ("none" if lang == "en" else "なし")


def check_supply(in_play: list[dict], card: dict) -> None:
    """Seed 内容物: refuse a card the deck does not hold any more of (26 faction, 7 plus, 9 minus, 3 grail)."""
    used = sum(1 for c in in_play if c["kind"] == card["kind"])
    if used >= SUPPLY[card["kind"]]:
        ja, en = KIND_LABELS[card["kind"]]
        raise Conflict(f"{ja}カードは全部で{SUPPLY[card['kind']]}枚です（すべて場に出ています）",
                       f"There are only {SUPPLY[card['kind']]} {en.lower()} cards (all are in play already)")


# -- turns (G-1) ----------------------------------------------------------------------------------

def take_split(row: list) -> tuple[list, list]:
    """G-1: (the row left, the cards taken): the last 5 cards, all when fewer; an empty row cannot be taken."""
    if not row:
        raise Conflict("領地列にカードがないので取れません（G-1）", "The row is empty: there is nothing to take (G-1)")
    cut = max(0, len(row) - TAKE_SIZE)
    return list(row[:cut]), list(row[cut:])


def take_span(row_length: int) -> list[int]:
    """G-1: the positions (0-based, from the deck's end) a take would get now."""
    return list(range(max(0, row_length - TAKE_SIZE), row_length))


def check_play(hand: int) -> None:
    """G-1: a play needs a card in hand."""
    if hand <= 0:
        raise Conflict("手札がないのでカードを出せません。カードを取ってください（G-1）",
                       "No cards in hand: you cannot play; take the cards instead (G-1)")


def check_take(took: bool, row_length: int) -> None:
    """G-1: a take once per round per player, and not from an empty row."""
    if took:
        raise Conflict("このラウンドは既にカードを取りました。カードを出してください（G-1）",
                       "You already took cards this round: play a card instead (G-1)")
    if row_length <= 0:
        raise Conflict("領地列にカードがないので取れません（G-1）", "The row is empty: there is nothing to take (G-1)")


def moves(hand: int, took: bool, row_length: int) -> dict:
    """G-1: what the player to move may do: play, take, and whether they must take (empty hand)."""
    can_play = hand > 0
    can_take = not took and row_length > 0
    return {"play": can_play, "take": can_take, "must_take": can_take and not can_play,
            "must_play": can_play and took, "stuck": not can_play and not can_take}


# -- scoring (G-2, G-3) ---------------------------------------------------------------------------

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
    one total; `grail` is 0..3.
    """
    payload = payload if isinstance(payload, dict) else {}
    out = empty_tally()
    nested = payload.get("faction") if isinstance(payload.get("faction"), dict) else {}
    for v in FACTIONS:
        raw = nested.get(str(v), nested.get(v, payload.get(f"f{v}", 0)))
        n = _int(raw if raw not in (None, "") else 0, f"勢力{v}の枚数", f"count of faction {v}")
        if not 0 <= n <= SUPPLY["faction"]:
            raise GmError(f"勢力{v}の枚数は0〜{SUPPLY['faction']}です", f"The count of faction {v} is 0 to {SUPPLY['faction']}")
        out["faction"][str(v)] = n
    if sum(out["faction"].values()) > SUPPLY["faction"]:
        raise GmError(f"勢力カードは全部で{SUPPLY['faction']}枚です", f"There are only {SUPPLY['faction']} faction cards")
    for kind in ("plus", "minus"):
        ja, en = KIND_LABELS[kind]
        raw = payload.get(kind, [])
        if isinstance(raw, str):
            raw = [x for x in unicodedata.normalize("NFKC", raw).replace("、", ",").replace(" ", ",").split(",") if x]
        values = [_int(x, f"{ja}の値", f"{en.lower()} value") for x in (raw if isinstance(raw, list) else [raw])]
        values = [x for x in values if x != 0]
        if any(x < 0 for x in values):
            raise GmError(f"{ja}の値は正の数で入力してください", f"Enter {en.lower()} values as positive numbers")
        if len(values) > SUPPLY[kind]:
            raise GmError(f"{ja}カードは全部で{SUPPLY[kind]}枚です", f"There are only {SUPPLY[kind]} {en.lower()} cards")
        out[kind] = values
    grail = _int(payload.get("grail", 0) if payload.get("grail", 0) not in (None, "") else 0, "聖杯の枚数", "grail count")
    if not 0 <= grail <= GRAILS_TO_WIN:
        raise GmError("聖杯カードは0〜3枚です", "Grail cards: 0 to 3")
    out["grail"] = grail
    return out
