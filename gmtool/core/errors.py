"""Errors a player or GM can read, in Japanese and English."""

import json
import re

ECHO_LIMIT = 40  # characters of a quoted input a message repeats (a name is at most 40)
MESSAGE_LIMIT = 600  # characters of a whole message (an input quoted without its closing quote is cut here)
# What a message quotes of a request: 「…」 in Japanese, '…' in English (not an apostrophe: GM's, don't). Neither
# quoted part runs over another opening quote, so an input of many 「 or ' costs one pass, not one per quote.
_QUOTED = re.compile("「([^「」]*)」|(?<![A-Za-z])'([^']*)'(?![A-Za-z])")


def _clip_quoted(text: str) -> str:
    """`text` with every quoted input cut to ECHO_LIMIT characters, and the whole to MESSAGE_LIMIT: a 5,000-character
    seat id or key is not repeated back in full."""
    def clip(match: re.Match) -> str:
        inner = match.group(1) if match.group(1) is not None else match.group(2)
        if len(inner) <= ECHO_LIMIT:
            return match.group(0)
        short = inner[:ECHO_LIMIT - 1] + "…"
        return f"「{short}」" if match.group(1) is not None else f"'{short}'"
    text = _QUOTED.sub(clip, text)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT - 1] + "…"


def shown(value) -> str:
    """A request's value as a message quotes it: text as it is, anything else as JSON writes it (`true`, `null`,
    `["s1"]`), never as Python's repr (`True`, `None`, `['s1']`)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def choices_text(options) -> tuple[str, str]:
    """The choices a refusal offers, by their labels ({code: Label or (ja, en)}): 「一つ選ぶ」「複数選ぶ」… in Japanese;
    in English each label with the code an API client sends (docs/api.md names the codes): "One choice [choice], …"."""
    pairs = [(code, (label.ja, label.en) if hasattr(label, "ja") else tuple(label)) for code, label in options.items()]
    return "".join(f"「{ja}」" for _, (ja, _) in pairs), ", ".join(f"{en} [{code}]" for code, (_, en) in pairs)


def error_json(status: int, ja: str, en: str) -> dict:
    """The API's error object (docs/api.md): what every refusal answers, whoever writes it (the app or the server)."""
    return {"error": {"status": status, "ja": ja, "en": en, "message": f"{ja} / {en}"}}


class GmError(ValueError):
    """A rejected action: carries a Japanese and an English message and an HTTP status."""

    status = 400
    echoes_input = True  # its quoted parts may be a request's input: clipped (False: the server's own words)

    def __init__(self, ja: str, en: str, status: int | None = None):
        if self.echoes_input:
            ja, en = _clip_quoted(ja), _clip_quoted(en)
        super().__init__(f"{ja} / {en}")
        self.ja = ja
        self.en = en
        if status is not None:
            self.status = status

    def message(self, lang: str) -> str:
        """The message in one language."""
        return self.en if lang == "en" else self.ja


class NotFound(GmError):
    """Something named in a request does not exist."""

    status = 404


class Forbidden(GmError):
    """The viewer may not do this."""

    status = 403


class Conflict(GmError):
    """The action does not fit the current state (e.g. a locked prompt)."""

    status = 409
