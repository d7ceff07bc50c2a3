"""Commitments to secret answers: sha256(salt + ":" + canonical JSON), checkable by anyone."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical(value: Any) -> str:
    """The canonical JSON of an answer (docs/verify.md)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def commit(salt: str, value: Any) -> str:
    """The hex commitment of `value` under `salt`."""
    return hashlib.sha256((salt + ":" + canonical(value)).encode("utf-8")).hexdigest()


def verify(salt: str, value: Any, commitment: str) -> bool:
    """Whether `commitment` is the commitment of `value` under `salt`."""
    return commit(salt, value) == commitment.strip().lower()
