"""Readable log lines (Japanese first, English on request) for visible events (view.visible_event)."""

from __future__ import annotations

from collections.abc import Callable

from .dice import localized_text
from .model import State
from .prompts import answer_text

Describer = Callable[[dict, State, str], str]
DESCRIBERS: dict[str, Describer] = {}


def describes(event_type: str) -> Callable[[Describer], Describer]:
    """Register the log-line writer of one event type."""

    def register(fn: Describer) -> Describer:
        DESCRIBERS[event_type] = fn
        return fn

    return register


def actor_name(actor: str, state: State, lang: str) -> str:
    """The display name of an event's actor."""
    if actor == "gm":
        return "GM"
    if actor.startswith("seat:"):
        return state.seat_name(actor[5:])
    return "システム" if lang != "en" else "system"


def who_name(who: str, state: State) -> str:
    """A respondent's display name."""
    return "GM" if who == "gm" else state.seat_name(who)


def describe(event: dict, state: State, lang: str = "ja") -> str:
    """One log line for a visible event."""
    fn = DESCRIBERS.get(event["type"])
    if fn is None:
        return event["type"]
    return fn(event, state, lang)


def in_lang(lang: str, ja: str, en: str) -> str:
    """The Japanese or the English text, for a log line in `lang`."""
    return en if lang == "en" else ja


_ja = in_lang


@describes("session.created")
def _created(e, state, lang):
    d = e["data"]
    names = "、".join(s["name"] for s in d["seats"]) or "-"
    return _ja(lang, f"セッション「{d['title']}」を作成（ルール: {d['ruleset']}、席: {names}）",
               f"Session '{d['title']}' created (ruleset {d['ruleset']}, seats: {names})")


@describes("seat.added")
def _seat_added(e, state, lang):
    return _ja(lang, f"席「{e['data']['name']}」を追加", f"Seat '{e['data']['name']}' added")


@describes("seat.updated")
def _seat_updated(e, state, lang):
    return _ja(lang, f"席の名前を「{e['data']['name']}」に変更", f"Seat renamed to '{e['data']['name']}'")


@describes("seat.token_reissued")
def _reissued(e, state, lang):
    n = state.seat_name(e["data"]["id"])
    return _ja(lang, f"{n}の参加リンクを再発行（古いリンクは無効）", f"Join link of {n} reissued (the old one no longer works)")


@describes("counter.changed")
def _counter(e, state, lang):
    d = e["data"]
    definition = state.counter_def(d["key"])
    label = definition.label.get(lang) if definition else d["key"]
    reason = f"（{d['reason']}）" if d.get("reason") else ""
    return f"{state.seat_name(d['seat'])}: {label} {d['from']}→{d['to']} ({d['delta']:+d}){reason}"


@describes("flag.raised")
def _flag_raised(e, state, lang):
    d = e["data"]
    label = d["label"]["en" if lang == "en" else "ja"]
    rule = f" [{d['rule']}]" if d.get("rule") else ""
    return _ja(lang, f"{state.seat_name(d['seat'])}に{label}{rule}", f"{label} against {state.seat_name(d['seat'])}{rule}")


@describes("flag.lowered")
def _flag_lowered(e, state, lang):
    d = e["data"]
    label = d["label"]["en" if lang == "en" else "ja"]
    return _ja(lang, f"{state.seat_name(d['seat'])}の{label}を解除", f"{label} lifted from {state.seat_name(d['seat'])}")


@describes("dice.rolled")
def _rolled(e, state, lang):
    d = e["data"]
    secret = _ja(lang, "［秘密］", "[secret] ") if d["roll"].get("secret") else ""
    label = f"{d['label']}: " if d.get("label") else ""
    return f"{secret}{actor_name(e['actor'], state, lang)} {label}{localized_text(d['roll']['text'], lang)}"


@describes("dice.revealed")
def _roll_revealed(e, state, lang):
    return _ja(lang, f"秘密ロール #{e['data']['roll_seq']} を公開", f"Secret roll #{e['data']['roll_seq']} revealed")


@describes("scene.marked")
def _scene(e, state, lang):
    return f"■ {e['data']['title']}"


@describes("undo")
def _undo(e, state, lang):
    d = e["data"]
    summary = d.get("gm_summary") or d.get("summary", "")
    return _ja(lang, f"取り消し: {summary}", f"Undo: {summary}")


@describes("session.imported")
def _imported(e, state, lang):
    return _ja(lang, f"エクスポートから読み込み（新しいダイスシード {e['data']['seed_hash'][:12]}…）",
               f"Imported from an export (new dice seed {e['data']['seed_hash'][:12]}…)")


@describes("session.closed")
def _closed(e, state, lang):
    return _ja(lang, f"セッション終了。ダイスのシード: {e['data']['seed']}",
               f"Session closed. Dice seed: {e['data']['seed']}")


@describes("prompt.opened")
def _p_opened(e, state, lang):
    d = e["data"]
    names = "、".join([state.seat_name(s) for s in d["seats"]] + (["GM"] if d["gm_submits"] else []))
    return _ja(lang, f"秘密の質問「{d['title']}」（対象: {names}）", f"Secret prompt '{d['title']}' (for {names})")


@describes("prompt.answered")
def _p_answered(e, state, lang):
    d = e["data"]
    title = state.prompts[d["prompt"]].title if d["prompt"] in state.prompts else d["prompt"]
    who = who_name(d["by"], state)
    verb = _ja(lang, "回答を変更", "changed the answer") if d.get("change") else _ja(lang, "回答", "answered")
    if "value" in d:
        prompt = state.prompts.get(d["prompt"])
        kind = prompt.kind if prompt is not None else ""
        names = {s: state.seat_name(s) for s in state.seats} if kind == "seat" else {}
        return f"{who}: 「{title}」{verb} → {answer_text(kind, d['value'], names)}（{d['commitment'][:12]}…）"
    return f"{who}: 「{title}」{verb}（{d['commitment'][:12]}…）"


def _prompt_title(d, state):
    return state.prompts[d["prompt"]].title if d["prompt"] in state.prompts else d["prompt"]


@describes("prompt.locked")
def _p_locked(e, state, lang):
    return _ja(lang, f"「{_prompt_title(e['data'], state)}」の回答を締め切り", f"Answers to '{_prompt_title(e['data'], state)}' locked")


@describes("prompt.revealed")
def _p_revealed(e, state, lang):
    d = e["data"]
    reason = _ja(lang, "全員が回答", "everyone answered") if d.get("auto") else d.get("reason", "")
    reason = f"（{reason}）" if reason else ""
    return _ja(lang, f"「{_prompt_title(d, state)}」を一斉公開{reason}", f"'{_prompt_title(d, state)}' revealed{reason}")


@describes("prompt.resolved")
def _p_resolved(e, state, lang):
    d = e["data"]
    summary = d["resolution"]["summary"]["en" if lang == "en" else "ja"]
    return _ja(lang, f"「{_prompt_title(d, state)}」の結果: {summary}", f"Result of '{_prompt_title(d, state)}': {summary}")


@describes("prompt.extended")
def _p_extended(e, state, lang):
    d = e["data"]
    names = "、".join(state.seat_name(s) for s in d["seats"])
    return _ja(lang, f"「{_prompt_title(d, state)}」に{names}を追加", f"{names} added to '{_prompt_title(d, state)}'")


@describes("prompt.cancelled")
def _p_cancelled(e, state, lang):
    d = e["data"]
    reason = f"（{d['reason']}）" if d.get("reason") else ""
    return _ja(lang, f"「{_prompt_title(d, state)}」を取り消し{reason}", f"'{_prompt_title(d, state)}' cancelled{reason}")


@describes("prompt.modified")
def _p_modified(e, state, lang):
    d = e["data"]
    return _ja(lang, f"「{_prompt_title(d, state)}」: {who_name(d['who'], state)}に修正 {d['amount']:+d}〈{d['label']}〉",
               f"'{_prompt_title(d, state)}': modifier {d['amount']:+d} <{d['label']}> for {who_name(d['who'], state)}")


@describes("prompt.confirmed")
def _p_confirmed(e, state, lang):
    return _ja(lang, f"「{_prompt_title(e['data'], state)}」の結果を確定", f"Result of '{_prompt_title(e['data'], state)}' confirmed")
