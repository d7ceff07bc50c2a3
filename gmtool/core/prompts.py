"""Secret prompts: open, answer (with a commitment), lock, reveal, resolve, drop a respondent, disable an option, cancel.

Answers are written to the log with their salt, but no view shows them before the
reveal except to the seat that gave them (view.py); the table sees only commitments.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..i18n import STRINGS
from .commands import Draft, clean_text, counter_drafts_now, id_text, parse_flag, parse_int, require_open
from .commitments import canonical, commit
from .errors import Conflict, Forbidden, GmError, NotFound, choices_text, shown
from .model import NOTHING, Answer, Event, FrozenDict, Prompt, State, frozen, text_in
from .resolvers import Resolver

KINDS = ("choice", "multi", "number", "text", "seat")


def _kind(state: State, name: str):
    """A ruleset prompt kind of the session (Ruleset.prompt_kinds), or None."""
    return state.rules.prompt_kind(name) if state.rules is not None else None


def answer_text(rules: Any, kind: str, value: Any, names: dict | None = None, lang: str = "ja") -> str:
    """An answer as it reads in a sentence: seat names for votes, a ruleset's (`rules`) wording for its kinds
    (in `lang` when its wording takes the language: `text(value, lang)`)."""
    custom = rules.prompt_kind(kind) if rules is not None else None
    if custom is not None and custom.text is not None:
        return custom.text(value, lang) if custom.takes_lang() else custom.text(value)
    names = names or {}
    items = value if isinstance(value, list) else [value]
    return "・".join(str(names.get(str(v), v)) if not isinstance(v, (dict, list)) else canonical(v) for v in items)
MAX_OPTIONS = 30
MAX_TEXT = 200


def unrevealed(state: State, prompt_id: Any) -> Prompt:
    """The prompt named `prompt_id` of an open session, still open or locked (409 once revealed or cancelled)."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if prompt.status not in ("open", "locked"):
        raise Conflict("この質問は既に公開か取り消しされています", "This prompt was already revealed or cancelled")
    return prompt


def get_prompt(state: State, prompt_id: Any) -> Prompt:
    """The prompt named `prompt_id`, or a 404 error (400 when none is named, or not as text)."""
    if prompt_id in (None, ""):
        raise GmError("質問を指定してください", "Give the prompt")
    prompt_id = id_text(prompt_id, "質問", "prompt")
    prompt = state.prompts.get(prompt_id)
    if prompt is None:
        raise no_such_prompt()
    return prompt


def no_such_prompt() -> NotFound:
    """The 404 for a prompt that is not there (or not for this viewer): in words, not its id."""
    return NotFound("その質問はありません", "There is no such prompt")


def open_prompt(state: State, prompt_id: str, spec: dict, resolvers: dict[str, Resolver],
                custom: bool = False) -> list[Draft]:
    """Open a prompt from a spec: title, kind, options, seats, gm_submits, min, max, disabled, resolver."""
    require_open(state)
    if not isinstance(spec, dict):
        raise GmError("質問の内容がありません", "The prompt has no content")
    title = spec.get("title")
    if isinstance(title, dict) and set(title) == {"ja", "en"}:  # a ruleset's title, in both languages
        title = {lang: clean_text(title[lang], "質問のタイトル", "prompt title", limit=80) for lang in ("ja", "en")}
    else:
        title = clean_text(title, "質問のタイトル", "prompt title", limit=80)
    kind = id_text(spec.get("kind"), "種類", "kind") or "choice"
    if kind not in KINDS and not (custom and _kind(state, kind) is not None):
        ja, en = choices_text({k: STRINGS[f"kind.{k}"] for k in KINDS})  # the console's words for them
        raise GmError(f"種類「{kind}」は使えません（{ja}）", f"Unknown kind '{kind}' (use {en})")
    seats = spec.get("seats")
    seats = list(state.seats) if seats in (None, "all") else _trimmed(seats)
    if not isinstance(seats, list) or any(str(s) not in state.seats for s in seats):
        raise GmError("回答する席の指定が正しくありません", "The seats must be a list of existing seat ids")
    seats = list(dict.fromkeys(str(s) for s in seats))
    gm_submits = parse_flag(spec.get("gm_submits", False), "GMの回答", "gm_submits")
    if not seats and not gm_submits:
        raise GmError("回答する席を選んでください", "Choose at least one seat to answer")
    options = spec.get("options") or []
    if kind == "seat" and not options:
        options = list(state.seats)
    if not isinstance(options, list):
        raise GmError("選択肢はリストで指定してください", "Options must be a list")
    options = [clean_text(o, "選択肢", "option", limit=40) for o in options]
    if len(options) > MAX_OPTIONS or len(set(options)) != len(options):
        raise GmError(f"選択肢は重複なく{MAX_OPTIONS}個までです", f"Options must be unique, at most {MAX_OPTIONS}")
    if kind in ("number", "text") and options:  # they would mean nothing there: refused, not kept and echoed
        raise GmError("数値や文章の質問には選択肢を付けられません", "A number or text prompt takes no options")
    if kind in ("choice", "multi") and len(options) < 2:
        raise GmError("選択肢を2つ以上入力してください", "Give at least two options")
    if kind == "seat" and any(o not in state.seats for o in options):
        raise GmError("投票先は席のIDで指定してください", "Vote options must be seat ids")
    lo = None if spec.get("min") in (None, "") else parse_int(spec["min"], "最小値", "minimum")
    hi = None if spec.get("max") in (None, "") else parse_int(spec["max"], "最大値", "maximum")
    if lo is not None and hi is not None and lo > hi:
        raise GmError("最小値が最大値より大きいです", "The minimum is above the maximum")
    disabled = _disabled(spec.get("disabled"), seats + ["gm"] * gm_submits, options)  # the respondents only
    _require_answerable(state, kind, options, lo, hi, disabled, seats + ["gm"] * gm_submits)
    meta = {} if spec.get("meta") is None else spec["meta"]
    if not isinstance(meta, dict):
        raise GmError("質問の付加情報は項目とその値で指定してください", "'meta' must be an object")
    if meta.get("note") is not None:  # a line to the respondents above their answer form (prompt_view's `note`)
        note = meta["note"]
        if not isinstance(note, dict) or set(note) != {"ja", "en"}:
            raise GmError("回答者への一言は日本語と英語で指定してください", "'meta.note' must be {\"ja\": …, \"en\": …}")
        meta = {**meta, "note": {lang: clean_text(note[lang], "回答者への一言", "note", limit=MAX_TEXT) for lang in ("ja", "en")}}
    resolver = _trimmed(spec.get("resolver")) or None
    if resolver is not None:
        if not isinstance(resolver, str) or resolver not in resolvers:  # the console offers the known ones
            raise GmError("その解決方法はありません", "There is no such resolver")
        if kind not in resolvers[resolver].kinds:  # named as the console's menu shows it
            label = resolvers[resolver].label
            raise GmError(f"解決方法「{label.ja}」はこの種類の質問には使えません",
                          f"The resolver '{label.en}' does not fit this kind of prompt")
    return [("prompt.opened", {
        "id": prompt_id, "title": title, "kind": kind, "options": options, "seats": seats,
        "gm_submits": gm_submits, "min": lo, "max": hi, "disabled": disabled, "resolver": resolver,
        "meta": meta,
    })]


def _require_answerable(state: State, kind: str, options: list[str], lo: int | None, hi: int | None, disabled: dict,
                        respondents: list[str]) -> None:
    """A 400 for a prompt that some respondent could never answer (_check_value would refuse every answer): a `multi`
    whose count of options to pick (min … max, default 1 … all) fits no number of its options, or a respondent left
    fewer options than it must pick (a `choice` or `seat`: none) by its disabled ones."""
    if kind not in ("choice", "seat", "multi"):
        return  # (a number's range was checked above; a text takes any text; a ruleset's kind checks its own)
    least, most = (lo or 1, hi or len(options)) if kind == "multi" else (1, 1)
    if kind == "multi" and (least > len(options) or most < max(least, 0)):
        raise GmError(f"この質問には答えられません（{len(options)}個の選択肢から{least}〜{most}個選ぶ答えはありません）",
                      f"No answer could satisfy this prompt: there is no way to pick {least} to {most} of its "
                      f"{len(options)} options")
    for who in respondents:
        left = len([o for o in options if o not in disabled.get(who, {})])
        if left < least:
            name = "GM" if who == "gm" else state.seat_name(who)
            raise GmError(f"{name}はこの質問に答えられません（{least}個選ぶ必要がありますが、選べる選択肢は{left}個です）",
                          f"{name} could never answer this prompt: it must pick {least}, and only {left} of its "
                          f"options are not disabled for them")


def _trimmed(value: Any) -> Any:
    """A request's text, or each text of a list, without its surrounding spaces (docs/api.md 2: text fields are
    trimmed before they are checked); anything else as it is, for its own check to refuse."""
    if isinstance(value, list):
        return [_trimmed(v) for v in value]
    return value.strip() if isinstance(value, str) else value


def _reason(reason: Any) -> str | dict:
    """A disabled option's reason: text (≤ 200), or a ruleset's {"ja", "en"} pair of texts."""
    if isinstance(reason, dict) and set(reason) == {"ja", "en"}:
        return {lang: clean_text(reason[lang], "理由", "reason", limit=MAX_TEXT, required=False) for lang in ("ja", "en")}
    return clean_text(reason, "理由", "reason", limit=MAX_TEXT, required=False)


def _disabled(value: Any, respondents: list[str], options: list[str]) -> dict:
    """`disabled` of a prompt spec: {respondent: {option: reason}} over its respondents and options (absent: {})."""
    if value is None:
        return {}
    if not isinstance(value, dict) or any(
            who not in respondents or not isinstance(items, dict) or any(o not in options for o in items)
            for who, items in value.items()):
        raise GmError("無効な選択肢の指定が正しくありません", "'disabled' must map respondents to {option: reason}")
    return {who: {option: _reason(reason) for option, reason in items.items()} for who, items in value.items()}


def _held_disabled(value: Any) -> dict:
    """`disabled` as a stored prompt.opened holds it, in the shape the screens read: {respondent: {option: reason}},
    each reason text or a {"ja", "en"} pair of texts. A file saved before reasons were checked (or a crafted import)
    may hold any JSON there: a reason that is a number reads as its text; a list, an object or true/false as no
    reason (the option stays disabled, without words: a player reads no code); what is no map is left out."""
    def text(reason: Any) -> str:
        return reason if isinstance(reason, str) else str(reason) if isinstance(reason, (int, float)) \
            and not isinstance(reason, bool) else ""

    def held(reason: Any) -> str | dict:
        if isinstance(reason, dict) and set(reason) == {"ja", "en"}:
            return {lang: text(reason[lang]) for lang in ("ja", "en")}
        return text(reason)

    if not isinstance(value, dict):
        return {}
    return {str(who): {str(option): held(reason) for option, reason in items.items()}
            for who, items in value.items() if isinstance(items, dict)}


def _not_allowed(option: str, reason: str | dict) -> GmError:
    """The refusal of a disabled option, with its reason when it has words."""
    ja, en = text_in(reason, "ja"), text_in(reason, "en")
    return GmError(f"「{option}」は選べません" + (f"：{ja}" if ja else ""), f"'{option}' is not allowed" + (f": {en}" if en else ""))


def _check_value(prompt: Prompt, who: str, value: Any, state: State) -> Any:
    """The answer normalised, or a readable error if it breaks the prompt's rules."""
    custom = _kind(state, prompt.kind)
    if custom is not None:
        return custom.validate(prompt, who, value, state)
    disabled = prompt.per_seat.get(who, {})
    if prompt.kind in ("choice", "seat"):
        value = shown(_trimmed(value)) if value is not None else ""  # trimmed, as the options were
        if value not in prompt.options:
            raise GmError(f"「{value}」は選べません", f"'{value}' is not one of the options")
        if value in disabled:  # a seat by its name: a player reads names, not ids
            raise _not_allowed(state.seat_name(value) if prompt.kind == "seat" else value, disabled[value])
        return value
    if prompt.kind == "multi":
        if not isinstance(value, list):
            value = [value]
        value = [str(v) for v in _trimmed(value)]
        if len(set(value)) != len(value) or any(v not in prompt.options for v in value):
            raise GmError("選択肢から重複なく選んでください", "Choose from the options, each at most once")
        for v in value:
            if v in disabled:
                raise _not_allowed(v, disabled[v])
        lo, hi = prompt.min or 1, prompt.max or len(prompt.options)
        if not lo <= len(value) <= hi:
            raise GmError(f"{lo}〜{hi}個選んでください", f"Choose {lo} to {hi} options")
        return sorted(value, key=prompt.options.index)
    if prompt.kind == "number":
        number = parse_int(value, "数値", "number")
        if (prompt.min is not None and number < prompt.min) or (prompt.max is not None and number > prompt.max):
            lo = "" if prompt.min is None else prompt.min
            hi = "" if prompt.max is None else prompt.max
            raise GmError(f"{lo}〜{hi}の数を入力してください（{number}）", f"Enter a number within {lo}..{hi} (got {number})")
        return number
    text = clean_text(value, "回答", "answer", limit=MAX_TEXT)
    return text


def answer(state: State, prompt_id: Any, who: str, value: Any, salt: str, resolvers: dict[str, Resolver],
           dice) -> list[Draft]:
    """A respondent's secret answer; the same answer again is a no-op (a double tap)."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if who not in prompt.respondents():
        raise Forbidden("この質問はあなた宛てではありません", "This prompt is not for you")
    if not prompt.is_open:
        raise Conflict("この質問は締め切られています", "This prompt is closed to answers")
    value = _check_value(prompt, who, value, state)
    previous = prompt.answers.get(who)
    if previous is not None and previous.value == value:
        return []
    drafts: list[Draft] = [("prompt.answered", {"prompt": prompt.id, "by": who, "value": value, "salt": salt,
                                                "commitment": commit(salt, value),
                                                "change": previous is not None})]
    after = prompt.copy()  # its own answers, seats, per_seat and modifiers (what is changed below)
    after.answers[who] = Answer(frozen(value), salt, drafts[0][1]["commitment"], 0)
    return drafts + _reveal_if_complete(state, after, resolvers, dice)


def _reveal_if_complete(state: State, after: Prompt, resolvers: dict[str, Resolver], dice) -> list[Draft]:
    """The automatic reveal (and resolution) of an open prompt that, as `after` stands, every respondent has answered."""
    if not after.is_open or any(who not in after.answers or void(after, who) for who in after.respondents()):
        return []
    return [("prompt.revealed", {"prompt": after.id, "reason": "", "auto": True})] + _resolution(state, after, resolvers, dice)


def void(prompt: Prompt, who: str) -> bool:
    """Whether `who`'s answer to `prompt` counts no more: a choice or seat it gave, or a multi answer with an option
    among its choices, that has been disabled for it since (prompt.option_disabled: what the option names left the
    game). It awaits its author's new answer: the prompt is not revealed by itself until then (the GM may reveal it;
    its resolver decides what the answer counts)."""
    answer = prompt.answers.get(who)
    return answer is not None and bool(void_options(prompt, answer.value, prompt.per_seat.get(who, {})))


def void_options(prompt: Prompt, value: Any, disabled: dict) -> list[str]:
    """The options of an answer `value` to `prompt` that are among `disabled` (its author's disabled options): the one
    a choice or seat answer names, those a multi answer lists; none for the other kinds."""
    if prompt.kind in ("choice", "seat"):
        return [value] if isinstance(value, str) and value in disabled else []
    if prompt.kind == "multi" and isinstance(value, list):
        return [v for v in value if isinstance(v, str) and v in disabled]
    return []


def lock(state: State, prompt_id: Any, reason: Any = "") -> list[Draft]:
    """Stop accepting answers without revealing them."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if not prompt.is_open:
        raise Conflict("この質問は既に締め切られています", "This prompt is already closed")
    return [("prompt.locked", {"prompt": prompt.id, "reason": clean_text(reason, "理由", "reason", 200, False)})]


def reveal(state: State, prompt_id: Any, reason: Any, resolvers: dict[str, Resolver], dice) -> list[Draft]:
    """Reveal every answer at once (early if some are missing) and resolve it."""
    prompt = unrevealed(state, prompt_id)
    return [("prompt.revealed", {"prompt": prompt.id, "reason": clean_text(reason, "理由", "reason", 200, False),
                                 "auto": False})] + _resolution(state, prompt, resolvers, dice)


def extend(state: State, prompt_id: Any, seats: Any, reason: Any = "") -> list[Draft]:
    """Add seats to an open prompt (answers are then awaited from them too)."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if not prompt.is_open:
        raise Conflict("締め切られた質問には追加できません", "Cannot extend a closed prompt")
    if _kind(state, prompt.kind) is not None:  # a ruleset's own prompt: its action chose who answers
        raise Conflict("この質問に答える席はルールが決めます（追加できません）",
                       "The ruleset decides who answers this prompt: it cannot be extended")
    seats = _trimmed(seats)
    if not isinstance(seats, list) or not seats or any(str(s) not in state.seats for s in seats):
        raise GmError("追加する席を選んでください", "Choose existing seats to add")
    new = [str(s) for s in seats if str(s) not in prompt.seats]
    if not new:
        raise GmError("その席は既に回答者です", "Those seats already answer this prompt")
    return [("prompt.extended", {"prompt": prompt.id, "seats": new,
                                 "reason": clean_text(reason, "理由", "reason", 200, False)})]


def drop(state: State, prompt_id: Any, seat: str, reason: dict, resolvers: dict[str, Resolver], dice) -> list[Draft]:
    """Take a seat off an unrevealed prompt's respondents (it has left what the prompt asks about, e.g. escaped the
    battle; a ruleset's action calls this with its reason): an answer it gave is withdrawn and never revealed to
    anyone else, and an open prompt that everyone left has answered is revealed at once."""
    prompt = unrevealed(state, prompt_id)
    if seat not in prompt.seats:
        raise GmError("その席はこの質問の回答者ではありません", "That seat does not answer this prompt")
    if len(prompt.respondents()) < 2:
        raise Conflict("最後の回答者は外せません（質問を取り消してください）",
                       "The last respondent cannot be taken off: cancel the prompt instead")
    drafts: list[Draft] = [("prompt.dropped", {"prompt": prompt.id, "seat": seat, "reason": reason,
                                               "withdrawn": seat in prompt.answers})]
    after = prompt.copy()  # its own answers, seats, per_seat and modifiers (what is changed below)
    _drop(after, seat)
    return drafts + _reveal_if_complete(state, after, resolvers, dice)


def _drop(prompt: Prompt, seat: str) -> None:
    """`seat` no longer answers `prompt`: its answer (kept in the log with its commitment only) and options go."""
    prompt.seats.remove(seat)
    prompt.answers.pop(seat, None)
    prompt.per_seat.pop(seat, None)


def cancel(state: State, prompt_id: Any, reason: Any = "", said: dict | None = None) -> list[Draft]:
    """Cancel a prompt; its answers are never revealed. `reason` as the GM typed it, or `said`: a ruleset's reason in
    both languages ({"ja", "en"}), kept as it is."""
    prompt = unrevealed(state, prompt_id)
    return _cancelled(prompt, said if said is not None else clean_text(reason, "理由", "reason", 200, False))


def cancel_unconfirmed(state: State, prompt_id: Any, said: dict) -> list[Draft]:
    """A ruleset's step that ended (a combat broken off or escaped from, a battle left with one fighter) takes its
    prompt with it: cancelled with `said` ({"ja", "en"}, kept as it is) while it is open, locked, or revealed but not
    confirmed (a confirm after the end would apply its result; answers revealed stay shown, Prompt.was_revealed);
    nothing when there is no such prompt or it is confirmed, cancelled already or closed with the session."""
    prompt = state.prompts.get(prompt_id) if isinstance(prompt_id, str) else None
    if prompt is None or prompt.confirmed or prompt.status not in ("open", "locked", "revealed"):
        return []
    return _cancelled(prompt, said)


def _cancelled(prompt: Prompt, reason: str | dict) -> list[Draft]:
    """The prompt.cancelled of every cancel (`cancel`, `cancel_unconfirmed`): a reason in two languages as a copy."""
    return [("prompt.cancelled", {"prompt": prompt.id, "reason": dict(reason) if isinstance(reason, dict) else reason})]


def disable_option(state: State, prompt_id: Any, option: str, reason: dict) -> list[Draft]:
    """Make `option` of an unrevealed prompt one that none of its respondents may choose any more (a ruleset's action
    calls this: what the option names has left the game), with the reason they read beside it; a respondent added
    later (extend) may not choose it either. An answer already given for it stays until its author changes it, and
    until then it is awaited (`void`): the prompt's resolver decides what it counts if the GM reveals it first."""
    prompt = unrevealed(state, prompt_id)
    if option not in prompt.options:
        raise GmError("その選択肢はありません", "There is no such option")
    return [("prompt.option_disabled", {"prompt": prompt.id, "option": option, "reason": _reason(reason)})]


def add_modifier(state: State, prompt_id: Any, who: Any, amount: Any, label: Any,
                 resolvers: dict[str, Resolver], dice) -> list[Draft]:
    """A labelled manual modifier (e.g. +10 <怪力>) on a revealed result before it is confirmed."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if not prompt.is_revealed or prompt.confirmed:
        raise Conflict("修正は公開後・確定前に加えてください", "Add modifiers after the reveal and before confirming")
    who = str(who)
    valid = prompt.respondents() + (prompt.options if prompt.kind in ("seat", "choice") else [])
    if who not in valid:
        raise GmError("修正の対象が正しくありません", "The modifier's target is not part of this prompt")
    modifier = {"who": who, "amount": parse_int(amount, "修正値", "modifier"),
                "label": clean_text(label, "修正の名前", "modifier label", 40)}
    after = prompt.copy()  # its own answers, seats, per_seat and modifiers (what is changed below)
    after.modifiers.append(modifier)
    return [("prompt.modified", {"prompt": prompt.id, **modifier})] + _resolution(state, after, resolvers, dice)


def confirm(state: State, prompt_id: Any) -> list[Draft]:
    """Confirm the resolution; the events it carries take effect, its counter changes from the values the
    counters hold now (they may have moved since the reveal)."""
    drafts = confirm_only(state, prompt_id)
    prompt = get_prompt(state, prompt_id)
    return drafts + counter_drafts_now(state, [(t, d) for t, d in (prompt.resolution or {}).get("events", [])])


def confirm_only(state: State, prompt_id: Any) -> list[Draft]:
    """Confirm a revealed, unconfirmed prompt without the events its resolution carries: for a ruleset's step that
    applies the result itself, worked out again as the state stands now (a battle's end)."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if not prompt.is_revealed or prompt.confirmed:
        raise Conflict("確定できるのは公開済みで未確定の質問です", "Only a revealed, unconfirmed prompt can be confirmed")
    return [("prompt.confirmed", {"prompt": prompt.id})]


def resolve_again(state: State, prompt_id: Any, resolvers: dict[str, Resolver], dice) -> list[Draft]:
    """The result of a revealed, unconfirmed prompt as the state now stands (a ruleset's action changed what its
    resolver reads, e.g. a seat left the game): its prompt.resolved, or nothing when the result reads the same."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if not prompt.is_revealed or prompt.confirmed:
        raise Conflict("結果を出し直せるのは公開済みで未確定の質問です",
                       "Only a revealed, unconfirmed prompt can have its result worked out again")
    drafts = _resolution(state, prompt, resolvers, dice)
    same = drafts and canonical(drafts[0][1]["resolution"]) == canonical(prompt.resolution)  # as stored: lists
    return [] if same else drafts


def restate(state: State, prompt_id: Any, summary: dict, notes: list, dice) -> list[Draft]:
    """A confirmed prompt's result told again in other words, when a ruleset's action changed what its words said
    (e.g. whom its notes name to decide, once that player has left the game): its prompt.resolved with the new
    `summary` and `notes`; everything else of the resolution, the events its confirm wrote included, as it was."""
    require_open(state)
    prompt = get_prompt(state, prompt_id)
    if not prompt.confirmed or prompt.resolution is None:
        raise Conflict("言い直せるのは確定した結果だけです", "Only a confirmed result can be told again")
    return [("prompt.resolved", {"prompt": prompt.id, "resolution": {**prompt.resolution, "summary": dict(summary),
                                                                     "notes": list(notes)},
                                 "dice_next": dice.next_index})]


def _resolution(state: State, prompt: Prompt, resolvers: dict[str, Resolver], dice) -> list[Draft]:
    """The prompt.resolved draft for a prompt about to be revealed (none without a resolver)."""
    if not prompt.resolver or prompt.resolver not in resolvers:
        return []
    answers = {who: prompt.answers[who].value for who in prompt.respondents() if who in prompt.answers}
    result = resolvers[prompt.resolver].fn(prompt, answers, state, dice)
    return [("prompt.resolved", {"prompt": prompt.id, "resolution": {"resolver": prompt.resolver, **result},
                                 "dice_next": dice.next_index})]


def shown_answers(prompt: Prompt | None) -> set[tuple[str, str]]:
    """The answers a prompt shows, as (who, commitment): all of a revealed one (also one a ruleset cancelled after
    its reveal), none before its reveal."""
    if prompt is None or not prompt.was_revealed:
        return set()
    return {(who, answer.commitment) for who, answer in prompt.answers.items()}


def newly_shown(before: State, after: State) -> list[str]:
    """The prompts that show in `after` an answer they do not show in `before`. An undo folds the log again
    without its action: it must not put an answer that was withdrawn unseen (e.g. by `drop`) into a result that
    has been revealed since (runtime.LiveSession.undo refuses it).

    Only the prompts `after` folded itself are compared: the undo's `after` is a copy (State.copy) of a fold of
    the log before the undone action, and a prompt it still shares with that fold was revealed there if at all,
    after which no answer of it changes (a state never copied folded every prompt itself)."""
    return [pid for pid, prompt in after.prompts.items()
            if prompt.owner == after.prompt_owner and prompt.was_revealed
            and shown_answers(prompt) - shown_answers(before.prompts.get(pid))]


# What a later action may do to a prompt without building on how an earlier action left it: answer it (an answer
# whose author does not answer it without that action fails the fold, prompt_answered), lock it, open another.
WORKED_ON = ("prompt.revealed", "prompt.resolved", "prompt.modified", "prompt.confirmed", "prompt.cancelled",
             "prompt.extended", "prompt.dropped", "prompt.option_disabled")


def worked_on_since(undone: list[Event], later: Iterable[Event]) -> list[str]:
    """The prompts an action to be undone (its events `undone`) changed (took a seat off or added one, disabled an
    option, cancelled, revealed or resolved it) that a later action (`later`, its events not undone) revealed,
    resolved, confirmed, modified, cancelled, extended, dropped from or disabled an option of since: that later step
    was worked out from the prompt as the undone action left it (e.g. a prompt revealed once a respondent was taken
    off it), and folding the log without the action would keep it on a prompt it no longer fits. The undo is refused
    (runtime.LiveSession.undo)."""
    changed = {e.data.get("prompt") for e in undone if e.type.startswith("prompt.") and e.type != "prompt.opened"}
    return list(dict.fromkeys(e.data.get("prompt") for e in later
                              if e.type in WORKED_ON and e.data.get("prompt") in changed))


# -- fold ---------------------------------------------------------------------
# A fold changes a prompt only through `state.writable_prompt`: a copied state shares its prompts (State.copy).

def prompt_opened(state: State, e: Event) -> None:
    """Fold `prompt.opened` (an id, kind or resolver that is not text, or a min or max that is no whole number, is
    refused: open_prompt never writes one, and a request could not name it, the reveal could not look it up or an
    answer could not be checked against it)."""
    d = e.data
    if not all(isinstance(d[k], str) for k in ("id", "kind")) or not isinstance(d.get("resolver") or "", str):
        raise ValueError("a prompt's id, kind and resolver are text")
    if any(d.get(k) is not None and (isinstance(d[k], bool) or not isinstance(d[k], int)) for k in ("min", "max")):
        raise ValueError("a prompt's min and max are whole numbers")
    state.prompts[d["id"]] = Prompt(
        id=d["id"], title=frozen(d["title"]), kind=d["kind"], options=frozen(d["options"]),
        seats=list(d["seats"]), gm_submits=d["gm_submits"], min=d.get("min"), max=d.get("max"),
        per_seat={who: frozen(items) for who, items in _held_disabled(d.get("disabled")).items()},
        resolver=d.get("resolver"), opened_seq=e.seq, meta=frozen(d["meta"]) if d.get("meta") else NOTHING,
        owner=state.prompt_owner)


def prompt_answered(state: State, e: Event) -> None:
    """Fold `prompt.answered` (refused when its author does not answer the prompt: `answer` never writes one, and a
    log folded without an undone action that added the author (a ruleset's action handing a prompt to another
    respondent, `extend`) must not hold it: the undo is refused, runtime.LiveSession.undo)."""
    d = e.data
    prompt = state.prompts[d["prompt"]]
    if d["by"] not in prompt.respondents():
        raise ValueError(f"{d['by']} does not answer the prompt {d['prompt']}")
    # A public export carries unrevealed answers without value and salt.
    state.writable_prompt(d["prompt"]).answers[d["by"]] = Answer(frozen(d.get("value")), d.get("salt", ""), d["commitment"],
                                                                e.seq, e.ts)


def prompt_locked(state: State, e: Event) -> None:
    """Fold `prompt.locked`."""
    state.writable_prompt(e.data["prompt"]).status = "locked"


def prompt_revealed(state: State, e: Event) -> None:
    """Fold `prompt.revealed`."""
    prompt = state.writable_prompt(e.data["prompt"])
    prompt.status = "revealed"
    prompt.was_revealed = True
    prompt.revealed_seq = e.seq
    prompt.reason = frozen(e.data.get("reason", ""))


def prompt_resolved(state: State, e: Event) -> None:
    """Fold `prompt.resolved` (the resolution as the event holds it: Prompt.copy makes it read-only before a copy
    shares it, which a fold of a whole log seldom needs, and it is the largest part of a prompt)."""
    state.writable_prompt(e.data["prompt"]).resolution = e.data["resolution"]


def prompt_extended(state: State, e: Event) -> None:
    """Fold `prompt.extended`: the seats added may not choose what was disabled for every respondent before
    (prompt.option_disabled)."""
    prompt = state.writable_prompt(e.data["prompt"])
    prompt.seats.extend(e.data["seats"])
    for who in e.data["seats"] if prompt.off else ():
        prompt.per_seat[who] = FrozenDict({**prompt.per_seat.get(who, {}), **prompt.off})


def prompt_dropped(state: State, e: Event) -> None:
    """Fold `prompt.dropped`."""
    _drop(state.writable_prompt(e.data["prompt"]), e.data["seat"])


def prompt_option_disabled(state: State, e: Event) -> None:
    """Fold `prompt.option_disabled`: every respondent's disabled options gain it (each map replaced: they are
    read-only, a copied prompt shares them, Prompt.copy)."""
    prompt = state.writable_prompt(e.data["prompt"])
    reason = frozen(e.data["reason"])
    prompt.off = FrozenDict({**prompt.off, e.data["option"]: reason})  # for the respondents added later (extend)
    for who in prompt.respondents():
        prompt.per_seat[who] = FrozenDict({**prompt.per_seat.get(who, {}), e.data["option"]: reason})


def prompt_cancelled(state: State, e: Event) -> None:
    """Fold `prompt.cancelled`."""
    prompt = state.writable_prompt(e.data["prompt"])
    prompt.status = "cancelled"
    prompt.reason = frozen(e.data.get("reason", ""))


def prompt_modified(state: State, e: Event) -> None:
    """Fold `prompt.modified`."""
    d = e.data
    state.writable_prompt(d["prompt"]).modifiers.append(FrozenDict(who=d["who"], amount=d["amount"],
                                                                          label=frozen(d["label"])))


def prompt_confirmed(state: State, e: Event) -> None:
    """Fold `prompt.confirmed`."""
    state.writable_prompt(e.data["prompt"]).confirmed = True
