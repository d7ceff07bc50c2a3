"""Readable log lines (Japanese first, English on request) for visible events (view.visible_event).

Each event type declares its log line (core/events.py, a ruleset's `events`); `describe` finds
it through the session's ruleset.
"""

from __future__ import annotations

from .dice import localized_text
from .model import State, text_in
from .prompts import answer_text

GENERAL = "general"  # the rule code of gmtool's own readings (RULES.md's general principles): not shown


def minus_sign(value: int, signed: bool = False) -> str:
    """A number as a breakdown writes it: a negative one with the minus sign (U+2212) its subtraction uses (−5, not
    -5); `signed`: a positive one with its + (a modifier). The log lines and the screens (the `num` filter) alike."""
    return f"−{-value}" if value < 0 else (f"+{value}" if signed else str(value))


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
    """One log line for a visible event (the line its type declares)."""
    declared = state.rules.event_type(event["type"]) if state.rules is not None else None
    if declared is None:
        return event["type"]
    return declared.describe(event, state, lang)


def in_lang(lang: str, ja: str, en: str) -> str:
    """The Japanese or the English text, for a log line in `lang`."""
    return en if lang == "en" else ja


_ja = in_lang


def gm_reason(reason: str, lang: str) -> str:
    """A reason the GM typed, as typed; none typed: the GM's ruling in the reader's language (GMの裁定 / GM's ruling).
    An action stores an untyped reason as "" and its log line words it, so the English log reads English."""
    return reason or in_lang(lang, "GMの裁定", "GM's ruling")


def session_created(e, state, lang):
    """The log line of `session.created`."""
    d = e["data"]
    names = ("、" if lang != "en" else ", ").join(s["name"] for s in d["seats"]) or "-"
    rules = state.rules.label.get(lang) if state.rules is not None else d["ruleset"]
    return _ja(lang, f"セッション「{d['title']}」を作成（ルール: {rules}、席: {names}）",
               f"Session '{d['title']}' created (ruleset {rules}, seats: {names})")


def seat_added(e, state, lang):
    """The log line of `seat.added`."""
    return _ja(lang, f"席「{e['data']['name']}」を追加", f"Seat '{e['data']['name']}' added")


def seat_token_reissued(e, state, lang):
    """The log line of `seat.token_reissued`."""
    n = state.seat_name(e["data"]["id"])
    return _ja(lang, f"{n}の参加リンクを再発行（古いリンクは無効）", f"Join link of {n} reissued (the old one no longer works)")


def counter_changed(e, state, lang):
    """The log line of `counter.changed`."""
    d = e["data"]
    definition = state.counter_def(d["key"])
    label = definition.label.get(lang) if definition else d["key"]
    reason = text_in(d.get("reason"), lang)
    reason = (f" ({reason})" if lang == "en" else f"（{reason}）") if reason else ""
    bound = _ja(lang, f"［上限を{d['max']}に］", f" [limit now {d['max']}]") if d.get("max") is not None else ""
    return f"{state.seat_name(d['seat'])}: {label} {d['from']}→{d['to']} ({d['delta']:+d}){bound}{reason}"


def setting_set(e, state, lang):
    """The log line of `setting.set` (the GM's console settings; GM only)."""
    d = e["data"]
    if d["key"] == "hide_answers":
        return (_ja(lang, "GM画面: 回答を公開まで隠す", "GM console: answers hidden until the reveal") if d["value"]
                else _ja(lang, "GM画面: 回答を届いたときに表示", "GM console: answers shown as they arrive"))
    return _ja(lang, f"GM画面の設定「{d['key']}」を{'オン' if d['value'] else 'オフ'}に",
               f"GM console setting '{d['key']}' {'on' if d['value'] else 'off'}")


def flag_raised(e, state, lang):
    """The log line of `flag.raised`."""
    d = e["data"]
    label = d["label"]["en" if lang == "en" else "ja"]
    rule = f" [{d['rule']}]" if d.get("rule") else ""
    return _ja(lang, f"{state.seat_name(d['seat'])}に{label}{rule}", f"{label} against {state.seat_name(d['seat'])}{rule}")


def flag_lowered(e, state, lang):
    """The log line of `flag.lowered`."""
    d = e["data"]
    label = d["label"]["en" if lang == "en" else "ja"]
    return _ja(lang, f"{state.seat_name(d['seat'])}の{label}を解除", f"{label} lifted from {state.seat_name(d['seat'])}")


def dice_rolled(e, state, lang):
    """The log line of `dice.rolled`."""
    d = e["data"]
    secret = _ja(lang, "［秘密］", "[secret] ") if d["roll"].get("secret") else ""
    entered = _ja(lang, "［実ダイス］", "[real dice] ") if d["roll"].get("entered") else ""
    label = f"{text_in(d['label'], lang)}: " if d.get("label") else ""
    return f"{secret}{entered}{actor_name(e['actor'], state, lang)} {label}{localized_text(d['roll']['text'], lang)}"


def dice_revealed(e, state, lang):
    """The log line of `dice.revealed`: the roll it shows, with its label and result, while it is revealed (an undone
    reveal leaves the roll secret again, and its line says only that a secret roll was revealed: players read no
    event number, and the roll's label is as secret as the roll)."""
    seq = int(e["data"]["roll_seq"])
    record = state.secret_rolls.get(seq) if seq in state.revealed_rolls else None  # (also one older than the last 50)
    if record is None:
        return _ja(lang, "秘密ロールを公開", "Secret roll revealed")
    label = text_in(record.label, lang) if record.label else ""
    shown = f"{actor_name(record.actor, state, lang)} {localized_text(record.roll['text'], lang)}"
    return _ja(lang, f"秘密ロール{f'「{label}」' if label else ''}を公開: {shown}",
               f"Secret roll{f' ({label})' if label else ''} revealed: {shown}")


def scene_title(state: State, title):
    """A scene heading as it reads: `{ja, en}`, or plain text as typed; a plain one that an older version of the
    session's ruleset wrote for its own step, in both languages as that ruleset reads it (Ruleset.old_scene_title)."""
    read = state.rules.old_scene_title if state.rules is not None and isinstance(title, str) else None
    return (read(state, title) or title) if read is not None else title


def scene_marked(e, state, lang):
    """The log line of `scene.marked`."""
    return f"■ {text_in(scene_title(state, e['data']['title']), lang)}"


def undone(e, state, lang):
    """The log line of `undo`: 「取り消し: <what was taken back>」, or plain 「取り消し」 / "Undo" when the viewer may
    read no summary of it (an undo written before summaries were stored, or before the table's own: view.undo_event)."""
    d = e["data"]
    suffix = "_en" if lang == "en" and (d.get("gm_summary_en") or d.get("summary_en")) else ""
    summary = d.get("gm_summary" + suffix) or d.get("summary" + suffix, "")
    if not summary:
        return _ja(lang, "取り消し", "Undo")
    return _ja(lang, f"取り消し: {summary}", f"Undo: {summary}")


def session_imported(e, state, lang):
    """The log line of `session.imported`."""
    return _ja(lang, f"エクスポートから読み込み（新しいダイスシード {e['data']['seed_hash'][:12]}…）",
               f"Imported from an export (new dice seed {e['data']['seed_hash'][:12]}…)")


def campaign_continued(e, state, lang):
    p = e["data"]["previous"]
    return _ja(lang, f"前回「{p['title']}」の続き：席・カウンター・引き継ぐものを持ち越し",
               f"Continues '{p['title']}': seats, counters and what carries over brought forward")


def campaign_next(e, state, lang):
    n = e["data"]["next"]
    return _ja(lang, f"次回「{n['title']}」に続く", f"Continued in '{n['title']}'")


def session_closed(e, state, lang):
    """The log line of `session.closed`."""
    return _ja(lang, f"セッション終了。ダイスのシード: {e['data']['seed']}",
               f"Session closed. Dice seed: {e['data']['seed']}")


def prompt_opened(e, state, lang):
    """The log line of `prompt.opened`."""
    d = e["data"]
    names = "、".join([state.seat_name(s) for s in d["seats"]] + (["GM"] if d["gm_submits"] else []))
    names = ", ".join(names.split("、")) if lang == "en" else names
    title = text_in(d["title"], lang)
    return _ja(lang, f"秘密の質問「{title}」（対象: {names}）", f"Secret prompt '{title}' (for {names})")


def prompt_answered(e, state, lang):
    """The log line of `prompt.answered`."""
    d = e["data"]
    title = _prompt_title(d, state, lang)
    who = who_name(d["by"], state)
    verb = _ja(lang, "回答を変更", "changed the answer") if d.get("change") else _ja(lang, "回答", "answered")
    if "value" in d:
        prompt = state.prompts.get(d["prompt"])
        kind = prompt.kind if prompt is not None else ""
        names = {s: state.seat_name(s) for s in state.seats} if kind == "seat" else {}
        answer = answer_text(state.rules, kind, d["value"], names, lang)
        if lang == "en":
            return f"{who}: {verb} '{title}' → {answer} ({d['commitment'][:12]}…)"
        return f"{who}: 「{title}」{verb} → {answer}（{d['commitment'][:12]}…）"
    if lang == "en":
        return f"{who}: {verb} '{title}' ({d['commitment'][:12]}…)"
    return f"{who}: 「{title}」{verb}（{d['commitment'][:12]}…）"


def _prompt_title(d, state, lang="ja"):
    return text_in(state.prompts[d["prompt"]].title, lang) if d["prompt"] in state.prompts else d["prompt"]


def prompt_locked(e, state, lang):
    """The log line of `prompt.locked`, with the GM's reason when one was given."""
    d = e["data"]
    reason = text_in(d.get("reason"), lang)
    reason = (f" ({reason})" if lang == "en" else f"（{reason}）") if reason else ""
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」の回答を締め切り{reason}",
               f"Answers to '{_prompt_title(d, state, lang)}' locked{reason}")


def prompt_revealed(e, state, lang):
    """The log line of `prompt.revealed`."""
    d = e["data"]
    reason = _ja(lang, "全員が回答", "everyone answered") if d.get("auto") else text_in(d.get("reason", ""), lang)
    reason = (f" ({reason})" if lang == "en" else f"（{reason}）") if reason else ""
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」を一斉公開{reason}", f"'{_prompt_title(d, state, lang)}' revealed{reason}")


def prompt_resolved(e, state, lang):
    """The log line of `prompt.resolved`."""
    d = e["data"]
    summary = d["resolution"]["summary"]["en" if lang == "en" else "ja"]
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」の結果: {summary}", f"Result of '{_prompt_title(d, state, lang)}': {summary}")


def prompt_extended(e, state, lang):
    """The log line of `prompt.extended`."""
    d = e["data"]
    names = ("、" if lang != "en" else ", ").join(state.seat_name(s) for s in d["seats"])
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」に{names}を追加", f"{names} added to '{_prompt_title(d, state, lang)}'")


def prompt_dropped(e, state, lang):
    """The log line of `prompt.dropped`: who no longer answers, why, and that an answer given stays unrevealed."""
    d = e["data"]
    reason = text_in(d.get("reason"), lang)
    reason = (f" ({reason})" if lang == "en" else f"（{reason}）") if reason else ""
    withdrawn = _ja(lang, "。回答は公開しない", "; the answer given stays unrevealed") if d.get("withdrawn") else ""
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」の回答者から{state.seat_name(d['seat'])}を外す{reason}{withdrawn}",
               f"{state.seat_name(d['seat'])} no longer answers '{_prompt_title(d, state, lang)}'{reason}{withdrawn}")


def prompt_option_disabled(e, state, lang):
    """The log line of `prompt.option_disabled`: which option no respondent may choose any more, and why."""
    d = e["data"]
    prompt = state.prompts.get(d["prompt"])
    option = state.seat_name(d["option"]) if prompt is not None and prompt.kind == "seat" else d["option"]
    reason = text_in(d.get("reason"), lang)
    reason = (f" ({reason})" if lang == "en" else f"（{reason}）") if reason else ""
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」で{option}を選べなくする{reason}",
               f"{option} can no longer be chosen in '{_prompt_title(d, state, lang)}'{reason}")


def prompt_cancelled(e, state, lang):
    """The log line of `prompt.cancelled`."""
    d = e["data"]
    reason = text_in(d.get("reason"), lang)
    reason = (f" ({reason})" if lang == "en" else f"（{reason}）") if reason else ""
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」を取り消し{reason}", f"'{_prompt_title(d, state, lang)}' cancelled{reason}")


def prompt_modified(e, state, lang):
    """The log line of `prompt.modified`."""
    d = e["data"]
    return _ja(lang, f"「{_prompt_title(d, state, lang)}」: {who_name(d['who'], state)}に修正 {d['amount']:+d}〈{d['label']}〉",
               f"'{_prompt_title(d, state, lang)}': modifier {d['amount']:+d} <{d['label']}> for {who_name(d['who'], state)}")


def prompt_confirmed(e, state, lang):
    """The log line of `prompt.confirmed`."""
    return _ja(lang, f"「{_prompt_title(e['data'], state, lang)}」の結果を確定", f"Result of '{_prompt_title(e['data'], state, lang)}' confirmed")


def reading_set(e, state, lang):
    """The log line of `reading.set`."""
    d = e["data"]
    reading = state.rules.reading(d["key"]) if state.rules is not None else None
    if reading is None:
        return _ja(lang, f"解釈「{d['key']}」を{d['value']}に切り替え", f"Reading '{d['key']}' switched to {d['value']}")
    choice = reading.choice(d["value"])
    chosen = choice.label.get(lang) if choice else str(d["value"])
    rule = f" [{reading.rule}]" if reading.rule != GENERAL else ""
    return _ja(lang, f"解釈を切り替え: {reading.label.ja} → {chosen}{rule}",
               f"Reading switched: {reading.label.en} → {chosen}{rule}")
