"""Which process owns a session when several share one data folder (`gmtool serve --workers N`).

A session's state, locks, live streams and caches live in the one process that opened it, so two
processes must never open the same session file. Ownership is a function of the session id alone,
so a reverse proxy with a static configuration (gmtool/proxy.py) sends every request of a session
to its owner: worker k (2..N) owns the ids that begin with its marker `w<k>-`, and worker 1 owns
every other id (its own `w1-…` ones, and ids made before workers were used or by a single server).
A worker creates and imports sessions under ids it owns; one asked for a session it does not own
answers 421 Misdirected Request instead of opening it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from .core.errors import GmError


class NotOwned(GmError):
    """A request for a session that another worker process owns (it reached this one directly)."""

    status = 421  # Misdirected Request: this server is not the one that can answer for this resource

    def __init__(self, session_id: str, owner: int):
        super().__init__(f"セッション「{session_id}」は別のワーカー（{owner}番）が担当しています。"
                         "プロキシのアドレス（gmtool serve が表示したもの）から開いてください",
                         f"Session '{session_id}' belongs to worker {owner} of this server; open it through "
                         "the proxy's address (the one gmtool serve printed)")


def marker(worker: int) -> str:
    """The prefix of the session ids worker `worker` creates."""
    return f"w{worker}-"


@dataclass(frozen=True)
class Ownership:
    """The sessions one process owns: worker `worker` of `workers` (worker 0: a single server owns them all)."""

    worker: int = 0
    workers: int = 1

    def __post_init__(self):
        if self.worker and not 1 <= self.worker <= self.workers:
            raise ValueError(f"worker {self.worker} is not one of 1..{self.workers}")

    @property
    def is_single(self) -> bool:
        """Whether this process owns every session (no workers)."""
        return self.worker == 0

    def owner_of(self, session_id: str) -> int:
        """The worker that owns `session_id` (0 for a single server)."""
        if self.is_single:
            return 0
        return next((k for k in range(2, self.workers + 1) if session_id.startswith(marker(k))), 1)

    def owns(self, session_id: str) -> bool:
        """Whether this process may open `session_id`."""
        return self.owner_of(session_id) == self.worker

    def check(self, session_id: str) -> None:
        """Refuse (421, NotOwned) a session another worker owns."""
        if not self.owns(session_id):
            raise NotOwned(session_id, self.owner_of(session_id))

    def new_id(self, digits: str | None = None) -> str:
        """A session id this process owns: 8 hex digits (fresh ones, or `digits`), after the worker's marker."""
        return (marker(self.worker) if self.worker else "") + (digits or secrets.token_hex(4))
