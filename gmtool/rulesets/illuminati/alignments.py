"""I-6 Alignments: which alignments are opposed, and how a pair of cards' alignments count (I-4)."""

from __future__ import annotations

from collections.abc import Iterable

from gmtool.core.errors import GmError, choices_text, shown
from gmtool.core.model import Label

# The ten alignments in the seed's order, with their labels.
ALIGNMENTS: dict[str, Label] = {
    "government": Label("政府系", "Government"),
    "corporate": Label("企業系", "Corporate"),
    "liberal": Label("革新系", "Liberal"),
    "conservative": Label("保守系", "Conservative"),
    "peaceful": Label("ハト派", "Peaceful"),
    "violent": Label("タカ派", "Violent"),
    "straight": Label("正統派", "Straight"),
    "weird": Label("異端派", "Weird"),
    "criminal": Label("犯罪主義", "Criminal"),
    "fanatic": Label("狂信者", "Fanatic"),
}

# I-6: the opposite pairs; Criminal has no opposite; Fanatic opposes every other Fanatic.
OPPOSITE: dict[str, str] = {
    "government": "corporate", "corporate": "government",
    "liberal": "conservative", "conservative": "liberal",
    "peaceful": "violent", "violent": "peaceful",
    "straight": "weird", "weird": "straight",
}
FANATIC = "fanatic"

_ALIASES = {**{k: k for k in ALIGNMENTS}, **{v.ja: k for k, v in ALIGNMENTS.items()},
            **{v.en.lower(): k for k, v in ALIGNMENTS.items()}}


def parse_alignments(value, what_ja: str = "属性", what_en: str = "alignments") -> list[str]:
    """A card's alignments from a list or a comma-separated text (keys, Japanese or English names), I-6."""
    if value in (None, ""):
        return []
    items = value if isinstance(value, (list, tuple)) else shown(value).replace("、", ",").split(",")
    out: list[str] = []
    for item in items:
        key = _ALIASES.get(str(item).strip().lower()) or _ALIASES.get(str(item).strip())
        if key is None:
            ja, en = choices_text(ALIGNMENTS)
            raise GmError(f"{what_ja}に「{shown(item)[:20]}」はありません（{ja}）",
                          f"Unknown {what_en} '{shown(item)[:20]}' (use {en})")
        if key not in out:
            out.append(key)
    return out


def are_opposed(a: str, b: str) -> bool:
    """I-6: whether two alignments (of two different cards) are opposed; Fanatic opposes Fanatic."""
    if a == FANATIC and b == FANATIC:
        return True
    return OPPOSITE.get(a) == b


def are_same(a: str, b: str) -> bool:
    """I-6: whether two alignments (of two different cards) count as the same; never Fanatic (it opposes itself)."""
    return a == b and a != FANATIC


def pair_counts(first: Iterable[str], second: Iterable[str]) -> tuple[int, int]:
    """I-4/I-6: (same pairs, opposed pairs) between two cards' alignments, each pair counted once."""
    first, second = list(dict.fromkeys(first)), list(dict.fromkeys(second))
    same = sum(1 for a in first for b in second if are_same(a, b))
    opposed = sum(1 for a in first for b in second if are_opposed(a, b))
    return same, opposed


def shares(first: Iterable[str], second: Iterable[str]) -> bool:
    """Whether two cards share an alignment (Fanatic excluded: two Fanatics are opposed), I-4."""
    return pair_counts(first, second)[0] > 0


def opposes(first: Iterable[str], second: Iterable[str]) -> bool:
    """Whether two cards have an opposed pair of alignments, I-4/I-6."""
    return pair_counts(first, second)[1] > 0


def names(keys: Iterable[str], lang: str) -> str:
    """Alignments as words a player reads."""
    sep = ", " if lang == "en" else "・"
    return sep.join(ALIGNMENTS[k].get(lang) for k in keys if k in ALIGNMENTS) or ("none" if lang == "en" else "なし")
