"""Grail Succession: the cards gmtool knows (seed 内容物, G-2 kinds): parsing what the table types,
how a card reads, and the deck's supply."""

from __future__ import annotations

import unicodedata
from typing import Any

from gmtool.core.commands import WIDE_DIGITS, parse_int
from gmtool.core.errors import Conflict, GmError

FACTIONS = (5, 6, 7, 8)  # G-2
KINDS = ("faction", "plus", "minus", "grail")
SUPPLY = {"faction": 26, "plus": 7, "minus": 9, "grail": 3}  # seed, 内容物: 45 territory cards
MAX_MODIFIER = 20  # the largest plus / minus value gmtool accepts (the printed values are not in the seed)

KIND_LABELS = {"faction": ("勢力", "Faction"), "plus": ("プラス", "Plus"), "minus": ("マイナス", "Minus"),
               "grail": ("聖杯", "Grail")}
_ALIASES = {"faction": "faction", "勢力": "faction", "f": "faction", "plus": "plus", "プラス": "plus", "+": "plus",
            "minus": "minus", "マイナス": "minus", "-": "minus", "grail": "grail", "聖杯": "grail", "g": "grail"}


def parse_number(value: Any, ja: str, en: str) -> int:
    """A whole number from a form or JSON value (full-width digits too), at most ±10^9 (core's parse_int: a
    4,300-digit text is no number here), or a readable 400."""
    return parse_int(unicodedata.normalize("NFKC", value) if isinstance(value, str) else value, ja, en)


def parse_card(value: Any, number: Any = None) -> dict:
    """A card from a payload: {"kind", "value"} or a short text ("5", "+3", "-2", "grail", 聖杯) (G-2 kinds).

    `number` is the printed value when `value` is only the kind (a form's two fields). Signs read as core reads
    a number's: `−3` (as gmtool shows a minus card) and `ー3` (a Japanese keyboard) are a minus card.
    """
    if isinstance(value, dict):
        kind, number = value.get("kind"), value.get("value", number)
    else:
        text = unicodedata.normalize("NFKC", "" if value is None else str(value)).translate(WIDE_DIGITS).strip().lower()
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
    n = parse_number(number, "カードの数字", "card's number")
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


def supply_out(in_play: list[dict]) -> dict[str, dict]:
    """Seed 内容物: the kinds the deck holds no more of (26 faction, 7 plus, 9 minus, 3 grail), each with why
    in both languages (a phone shows such a card's buttons disabled, its reason beside them)."""
    out = {}
    for kind, supply in SUPPLY.items():
        if sum(1 for c in in_play if c["kind"] == kind) >= supply:
            ja, en = KIND_LABELS[kind]
            out[kind] = {"ja": f"{ja}カードは全部で{supply}枚です（すべて場に出ています）",
                         "en": f"There are only {supply} {en.lower()} cards (all are in play already)"}
    return out


def check_supply(in_play: list[dict], card: dict) -> None:
    """Seed 内容物: refuse a card the deck does not hold any more of (26 faction, 7 plus, 9 minus, 3 grail)."""
    why = supply_out(in_play).get(card["kind"])
    if why:
        raise Conflict(why["ja"], why["en"])
