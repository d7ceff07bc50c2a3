"""Limits on what one request may carry (docs/api.md, "Limits and errors"), and the count of what one client holds
at once (Shares: a device's connections and requests, serving.ClientLimits; a token's live streams, web/live.py).

Everything here runs before a request reaches an operation, in time linear in the body: the
body size is capped before it is read (waitress `max_request_body_size` at MAX_UPLOAD_BODY, Flask
`MAX_CONTENT_LENGTH` at MAX_BODY but for the import form's MAX_UPLOAD_BODY), JSON nesting is measured on the raw text before it is parsed (the C
parser recurses), and the parsed payload is walked once, iteratively, for text lengths, list
lengths and numbers. Each refusal is a 400 GmError with a message in Japanese and English.
"""

from __future__ import annotations

import json
import math
import re
import threading
from typing import Any
from urllib.parse import unquote_to_bytes

from .core.errors import GmError

MAX_BODY = 256 * 1024          # bytes: every request body, imports included (the export size limit)
MAX_FORM_FRAMING = 8 * 1024    # bytes: an upload form's own parts around its file (multipart boundaries, headers,
                               # the file's name, the CSRF token): the home page's import form takes a whole
MAX_UPLOAD_BODY = MAX_BODY + MAX_FORM_FRAMING  # MAX_BODY file, so its body (and the server's cap) is this much more
MAX_FORM_MEMORY = 256 * 1024   # bytes: Werkzeug's cap on one form field held in memory
MAX_FORM_PARTS = 200           # fields of one form
MAX_DEPTH = 20                 # nested JSON objects / lists in a request
MAX_IMPORT_DEPTH = 64          # nesting in an imported export (event data holds rolls, prompts, ...)
MAX_TEXT = 8000                # characters of one text value (character sheets are the longest)
MAX_ITEMS = 200                # items of one list, keys of one object
MAX_NUMBER = 10**9             # magnitude of any number in a request
MAX_DIGITS = 15                # digits of a JSON number literal (parsed before MAX_NUMBER applies)


class NotJson(GmError):
    """A body that does not parse as JSON."""

    def __init__(self):
        super().__init__("JSONとして読めません", "Not valid JSON")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)  # a JSON string: one way to match each character
_BRACKET = re.compile(r"[\[\]{}]")


def nesting_depth(text: str) -> int:
    """How deeply `[`/`{` nest in JSON text, strings left out; linear, no recursion."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _too_deep(limit: int) -> GmError:
    return GmError(f"JSONの入れ子が深すぎます（{limit}段まで）", f"The JSON is nested too deeply (at most {limit} levels)")


def _big_number(limit: int) -> GmError:
    return GmError(f"数値が大きすぎます（±{limit:,}まで）", f"A number is too large (at most ±{limit:,})")


def _big_literal() -> GmError:
    return GmError(f"JSONの数値が大きすぎます（{MAX_DIGITS}桁まで）", f"A JSON number is too large (at most {MAX_DIGITS} digits)")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _big_literal()
    return int(text)


def _float(text: str) -> float:
    if len(text) > 40:
        raise _big_literal()
    return float(text)


def _constant(name: str):
    raise GmError(f"JSONの数値 {name} は使えません", f"The JSON value {name} is not allowed")


_DECODER = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)  # made once, not per request


def loads(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text to a value, refusing deep nesting, NaN/Infinity and huge number literals (GmError)."""
    if nesting_depth(text) > max_depth:
        raise _too_deep(max_depth)
    try:
        return _DECODER.decode(text)
    except GmError:
        raise
    except (ValueError, RecursionError):
        raise NotJson() from None


def check_value(value: Any, max_depth: int = MAX_DEPTH, max_text: int = MAX_TEXT, max_items: int = MAX_ITEMS,
                max_number: int = MAX_NUMBER) -> None:
    """Refuse a payload with too deep nesting, too long text or lists, huge or non-finite numbers,
    or text that cannot be stored as UTF-8 (a lone surrogate); an iterative walk."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            raise _too_deep(max_depth)
        if isinstance(item, str):
            if len(item) > max_text:
                raise GmError(f"入力が長すぎます（{max_text}文字まで）", f"A text is too long (at most {max_text} characters)")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise _invalid_characters() from None
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if abs(item) > max_number:
                raise _big_number(max_number)
        elif isinstance(item, float):
            if not math.isfinite(item) or abs(item) > max_number:
                raise _big_number(max_number)
        elif isinstance(item, (list, tuple)):
            if len(item) > max_items:
                raise GmError(f"リストが長すぎます（{max_items}個まで）", f"A list is too long (at most {max_items} items)")
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, dict):
            if len(item) > max_items:
                raise GmError(f"項目が多すぎます（{max_items}個まで）", f"Too many fields (at most {max_items})")
            for k, v in item.items():
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))


def check_utf8(body: bytes, form: bool = False) -> None:
    """Refuse a body that is not valid UTF-8 (for a URL-encoded form: once its %-escapes are decoded), which would
    otherwise be read with U+FFFD in place of its bytes and stored so; a lone surrogate is invalid UTF-8 too. A form
    is decoded whole, in one pass: the ASCII `&` and `=` between its fields complete no character, so the whole is
    valid exactly when every field is (split field by field, a body of 256 KB of `&` took 40 ms)."""
    try:
        (unquote_to_bytes(body.replace(b"+", b" ")) if form else body).decode("utf-8")
    except UnicodeDecodeError:
        raise _invalid_characters() from None


def _invalid_characters() -> GmError:
    return GmError("使えない文字が含まれています", "The request contains invalid characters")


class Shares:
    """How many of something each key holds at once (a client address's connections or requests, a token's live
    streams), each against a cap; safe across threads."""

    def __init__(self):
        self.held: dict[str, int] = {}
        self.lock = threading.Lock()

    def take(self, key: str, cap: int) -> bool:
        """Count one more for `key`, unless it holds `cap` already."""
        with self.lock:
            held = self.held.get(key, 0)
            if held >= cap:
                return False
            self.held[key] = held + 1
            return True

    def give(self, key: str) -> None:
        """One of `key`'s is over."""
        with self.lock:
            held = self.held.get(key, 0) - 1
            if held > 0:
                self.held[key] = held
            else:
                self.held.pop(key, None)
