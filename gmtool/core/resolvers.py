"""Resolvers: pure functions from a revealed prompt's answers to a result with its breakdown.

A resolver is `fn(prompt, answers, state, dice) -> Resolution dict`:
`{"resolver", "summary": {"ja", "en"}, "winners": [...], "rows": [...], "notes": [...], "events": [...]}`.
`answers` maps each respondent ("gm" or a seat id) to its value; manual modifiers the GM
added are in `prompt.modifiers` and every resolver shows them in its rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .model import Label, Prompt, State

ResolverFn = Callable[[Prompt, dict, State, Any], dict]
ANSWER = {"ja": "回答", "en": "answer"}  # term labels are {"ja", "en"} or a plain text (a GM's modifier)


@dataclass(frozen=True)
class Resolver:
    """A named resolver with its label and the prompt kinds it accepts."""

    name: str
    label: Label
    kinds: tuple[str, ...]
    fn: ResolverFn


def name_of(state: State, who: str) -> str:
    """A respondent's display name."""
    return "GM" if who == "gm" else state.seat_name(who)


def _modifier_terms(prompt: Prompt, who: str) -> list[dict]:
    return [{"label": m["label"], "value": m["amount"], "rule": "GM"} for m in prompt.modifiers if m["who"] == who]


def _number(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    try:
        return int(str(value))
    except ValueError:
        return 0


def _no_answers() -> dict:
    return {"summary": {"ja": "回答なし", "en": "No answers"}, "winners": [], "rows": [], "notes": [], "events": []}


def _number_rows(prompt: Prompt, answers: dict, state: State) -> list[dict]:
    """One row per answer read as a number: its terms (the answer, then the GM's modifiers for that respondent) and
    their total."""
    rows = []
    for who, value in answers.items():
        terms = [{"label": ANSWER, "value": _number(value), "rule": ""}] + _modifier_terms(prompt, who)
        rows.append({"who": who, "name": name_of(state, who), "value": value, "terms": terms,
                     "total": sum(t["value"] for t in terms)})
    return rows


def highest(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """Highest number wins; equal highest totals are a tie (no winner)."""
    rows = _number_rows(prompt, answers, state)
    if not rows:
        return _no_answers()
    best = max(r["total"] for r in rows)
    winners = [r["who"] for r in rows if r["total"] == best]
    if len(winners) == 1:
        n = name_of(state, winners[0])
        summary = {"ja": f"{n}の勝ち（{best}）", "en": f"{n} wins ({best})"}
    else:
        names = [name_of(state, w) for w in winners]  # listed as each language lists (as votes' tie)
        summary = {"ja": f"引き分け（{'・'.join(names)}：{best}）", "en": f"Tie ({', '.join(names)}: {best})"}
        winners = []
    return {"summary": summary, "winners": winners, "rows": rows, "notes": [], "events": []}


def total(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """The sum of every answer and modifier."""
    rows = _number_rows(prompt, answers, state)
    grand = sum(r["total"] for r in rows)
    return {"summary": {"ja": f"合計 {grand}", "en": f"Total {grand}"}, "winners": [], "rows": rows,
            "notes": [], "events": [], "total": grand}


def votes(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """Count votes; the most votes wins, a tie is reported with every tied option."""
    tally: Counter = Counter()
    for value in answers.values():
        for v in (value if isinstance(value, list) else [value]):
            tally[str(v)] += 1
    for m in prompt.modifiers:  # a GM modifier adds votes to an option
        tally[str(m["who"])] += int(m["amount"])

    def label(option: str) -> str:
        return state.seat_name(option) if prompt.kind == "seat" else option

    rows = [{"who": who, "name": name_of(state, who), "value": value, "terms": [], "total": None}
            for who, value in answers.items()]
    if not tally:
        return _no_answers()
    counts = [{"option": o, "name": label(o), "votes": n} for o, n in tally.most_common()]
    best = counts[0]["votes"] if counts else 0
    top = [c["option"] for c in counts if c["votes"] == best]
    if len(top) == 1:
        summary = {"ja": f"最多得票：{label(top[0])}（{best}票）", "en": f"Most votes: {label(top[0])} ({best})"}
        winners = top
    else:
        names = [label(o) for o in top]
        summary = {"ja": f"同数（{'・'.join(names)}：{best}票）",
                   "en": f"Tie ({', '.join(names)}: {best} {'vote' if best == 1 else 'votes'} each)"}
        winners = []
    return {"summary": summary, "winners": winners, "tied": top if len(top) > 1 else [], "rows": rows,
            "counts": counts, "notes": [], "events": []}


def cancel_duplicates(prompt: Prompt, answers: dict, state: State, dice: Any) -> dict:
    """Answers chosen by more than one respondent are set aside; the rest stand (e.g. Illuminati's I-2)."""
    seen = Counter(str(v) for v in answers.values())
    rows = []
    for who, value in answers.items():
        kept = seen[str(value)] == 1
        rows.append({"who": who, "name": name_of(state, who), "value": value, "kept": kept, "terms": [],
                     "total": None})
    kept_names = [r["name"] for r in rows if r["kept"]]
    again = [r["name"] for r in rows if not r["kept"]]
    summary = {"ja": "重複なし" if not again else f"重複のため選び直し：{'・'.join(again)}",
               "en": "No duplicates" if not again else f"Duplicates, choose again: {', '.join(again)}"}
    return {"summary": summary, "winners": [r["who"] for r in rows if r["kept"]], "kept": kept_names,
            "rows": rows, "notes": [{"ja": "重複した選択は脇に置かれ、選び直す",
                                     "en": "Duplicate choices are set aside and chosen again",
                                     "rule": ""}], "events": []}


BUILTIN: dict[str, Resolver] = {
    r.name: r for r in (
        Resolver("highest", Label("最大値の勝ち", "Highest number wins"), ("number", "choice"), highest),
        Resolver("sum", Label("合計", "Sum"), ("number",), total),
        Resolver("votes", Label("得票数", "Vote count"), ("seat", "choice", "multi"), votes),
        Resolver("cancel_duplicates", Label("同じ答えは相殺", "Same answers cancel"),
                 ("choice", "seat", "text"), cancel_duplicates),
    )
}
