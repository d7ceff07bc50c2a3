"""The undo base kept in the session file, so that a resume folds the last few hundred events instead of the whole log.

A session's undo base (runtime.LiveSession.base) is the fold of its log before the oldest action that can still be
undone. When a session closes (the server stops, a session is continued), the base is written into its file
(store.m004_snapshot) with the digest of the code that folded it (`code_digest`) and a signature made with the data
folder's own key (`sign`). A resume takes it instead of folding from the first event only when it is still the fold
the log gives:
- the same code folded it: gmtool and the package of the session's ruleset, as they were when this process started
  (an upgrade, or any edit of a fold, and the log is folded again from the start);
- this data folder wrote it (a session file copied in from elsewhere, or a blob edited, is folded from its log);
- the events it folded are as they were: SQLite triggers delete it when one of them is changed, deleted or inserted;
- it ends before the undo window the resume finds (an undo refused since then may have moved the window back), and the
  actions undone up to its end are the ones the log says.
Anything else, a blob that does not load included, and the resume folds the whole log as before: a kept base can make
a resume faster, never different (under test every kept base taken is checked against the whole fold: `checked`).

The blob is a pickle read by an unpickler that makes only the model's classes (`_Unpickler`), and only once its
signature is verified.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import pickle
import sqlite3
import sys
import time
from dataclasses import fields
from functools import cache
from importlib.metadata import entry_points
from importlib.util import find_spec
from pathlib import Path

import orjson

from .core import model
from .core.model import State
from .rulesets import GROUP

# The model's classes a snapshot holds, pickled as their fields in order (made again by their __init__: several times
# faster both ways than the slots dataclasses' own __getstate__ / __setstate__).
_BY_FIELDS = (model.Seat, model.Prompt, model.Answer, model.RollRecord, model.Event)
_ALLOWED = {(cls.__module__, cls.__name__) for cls in
            (*_BY_FIELDS, model.State, model.CounterDef, model.Label, model.Threshold, model.FrozenDict,
             model.FrozenList)}  # (a prompt's read-only parts: model.frozen)


def _by_fields(cls):
    names = tuple(f.name for f in fields(cls))

    def reduce(obj):  # (a prompt's owner is this process's: written as 0, whatever its place among the fields)
        return cls, tuple([0 if name == "owner" else getattr(obj, name) for name in names])
    return reduce


_DISPATCH = {cls: _by_fields(cls) for cls in _BY_FIELDS}


def _package_files(package: str) -> list[tuple[str, Path]]:
    """Every .py file of a top-level package (or the one file of a top-level module), each with its path in it."""
    spec = find_spec(package)
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return sorted((p.relative_to(where).as_posix(), p) for where in map(Path, spec.submodule_search_locations)
                      for p in where.rglob("*.py"))
    return [(package, Path(spec.origin))] if spec.origin and spec.origin.endswith(".py") else []


@cache
def _package_of(ruleset: str) -> str:
    """The top-level package that declares a ruleset (its entry point's module): gmtool for gmtool's own games."""
    for ep in entry_points(group=GROUP, name=ruleset):
        return ep.module.split(".")[0]
    return "gmtool"


def package_digest(package: str) -> str:
    """The digest of a package's .py files (by path and content) as they are on disk now; "" when they cannot be read."""
    digest = hashlib.blake2b(digest_size=16)
    try:
        files = _package_files(package)
        for name, path in files:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return ""
    return digest.hexdigest() if files else ""


@cache
def _started_digest(package: str) -> str:
    return package_digest(package)


_recent: dict[str, tuple[float, str]] = {}  # package -> (when, its digest): a stop closing many sessions reads it once


def _current_digest(package: str) -> str:
    when, digest = _recent.get(package, (-1.0, ""))
    if time.monotonic() - when > 1.0:
        digest = package_digest(package)
        _recent[package] = (time.monotonic(), digest)
    return digest


def code_digest(ruleset: str, now: bool = False) -> str:
    """The digest of the code that folds a session of `ruleset`: gmtool's and the ruleset's package's Python files, the
    Python, orjson and SQLite versions. As this process started (its first call, made at startup for gmtool by
    `started`), or, with `now`, as the files are now (read again at most once a second): a stop writes nothing once
    they changed, since the code in memory is no longer what they say. "" when a package cannot be read (no snapshot is then written or taken)."""
    packages = sorted({"gmtool", _package_of(ruleset)})
    parts = [(_current_digest if now else _started_digest)(package) for package in packages]
    if not all(parts):
        return ""
    versions = f"{sys.version_info[:3]} {orjson.__version__} {sqlite3.sqlite_version}"
    return hashlib.blake2b(" ".join([versions, *packages, *parts]).encode(), digest_size=16).hexdigest()


def started() -> None:
    """Take gmtool's digest now, at the start (code_digest)."""
    _started_digest("gmtool")


def sign(key: bytes, code: str, seq: int, blob: bytes) -> str:
    """The signature of a snapshot with the data folder's key."""
    mac = hashlib.blake2b(key=key[:64], digest_size=32)
    mac.update(f"{code} {seq} ".encode())
    mac.update(blob)
    return mac.hexdigest()


def signed(key: bytes, code: str, seq: int, blob: bytes, mac: str) -> bool:
    """Whether `mac` is the signature of the snapshot with the data folder's key."""
    return hmac.compare_digest(sign(key, code, seq, blob), mac or "")


def dumps(state: State) -> bytes:
    """A folded state as a snapshot's blob (without its ruleset: the session names it)."""
    bare = State.__new__(State)
    bare.__dict__.update(state.__dict__)
    bare.rules, bare.prompt_owner = None, 0  # (this process's)
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=5)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(bare)
    return out.getvalue()


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"a snapshot holds no {module}.{name}")
        return super().find_class(module, name)


def loads(blob: bytes, rules) -> State:
    """The state a blob holds, under the session's `rules`, owning its prompts (State.prompt_owner)."""
    state = _Unpickler(io.BytesIO(blob)).load()
    if not isinstance(state, State):
        raise pickle.UnpicklingError("a snapshot holds a state")
    state.rules, state.prompt_owner = rules, model.new_owner()
    for prompt in state.prompts.values():
        prompt.owner = state.prompt_owner
    return state


def usable(state: State, undone: set[int], window_start: int) -> bool:
    """Whether a snapshot's state is still the fold of the log before `window_start` would give up to where it ends:
    it ends before the window, and the actions undone up to there are the log's (`undone`)."""
    if state.last_action >= window_start:
        return False
    end = state.last_action
    return {a for a in state.undone if a <= end} == {a for a in undone if a <= end}


def checked() -> bool:
    """Whether every snapshot taken is checked against the whole fold (GMTOOL_CHECK_SNAPSHOTS=1: the test suite)."""
    return os.environ.get("GMTOOL_CHECK_SNAPSHOTS") == "1"
