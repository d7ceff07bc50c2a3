"""The undo base kept in the session file, so that a resume folds the last few hundred events instead of the whole log.

A session's undo base (runtime.LiveSession.base) is the fold of its log before the oldest action that can still be
undone. When a session closes (the server stops, a session is continued), the base is written into its file with the
digest of the code that folded it (`code_digest`: the modules a fold runs, the Python version). A resume takes it
instead of folding from the first event when it is still the fold the log gives:
- the same code folded it (after an upgrade, or any edit of a fold, it is folded again from the start);
- it ends before the undo window the resume finds (an undo refused since then may have moved the window back);
- the actions undone up to where it ends are the ones the log says are undone.
Anything else, a blob that does not load included, and the resume folds the whole log as before: a snapshot can make a
resume faster, never different (under test every snapshot taken is checked against the whole fold: `checked`).

The blob is a pickle read by an unpickler that makes only the model's classes (`_Unpickler`): the session folder is the
GM's own, but a file put there must still not run code when it is opened.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
from dataclasses import fields
from functools import cache
from pathlib import Path

from .core import model
from .core.model import State

# The model's classes a snapshot holds, pickled as their fields in order (made again by their __init__: several times
# faster both ways than the slots dataclasses' own __getstate__ / __setstate__).
_BY_FIELDS = (model.Seat, model.Prompt, model.Answer, model.RollRecord)
_ALLOWED = {(cls.__module__, cls.__name__) for cls in
            (*_BY_FIELDS, model.State, model.CounterDef, model.Label, model.Threshold)}


def _by_fields(cls):
    names = tuple(f.name for f in fields(cls) if f.name != "owner")  # (a prompt's owner is this process's)

    def reduce(obj):
        return cls, tuple([getattr(obj, name) for name in names])
    return reduce


_DISPATCH = {cls: _by_fields(cls) for cls in _BY_FIELDS}


@cache
def code_digest() -> str:
    """The digest of the code a fold runs: gmtool's core and rulesets (every .py file, by path and content), the words
    they read (i18n.py) and the Python version; "" when the sources cannot be read (no snapshot is then written or taken)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.blake2b(f"{sys.version_info[:2]}".encode(), digest_size=16)
    try:
        files = sorted([*(p for part in ("core", "rulesets") for p in (root / part).rglob("*.py")), root / "i18n.py"])
        if not files:
            return ""
        for path in files:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return ""
    return digest.hexdigest()


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
