"""A session driven in-process as a script drives the JSON API: what a ruleset's demo (`Ruleset.demo`)
uses to set a sample session up, with the same calls as the leak probe's HTTP driver (tests/meta):
`seats`, `act(name, payload, who)`, `answer(prompt, value, who)`, `post(path, body, who)`, `state(who)`.
(A demo's `scenes` are driven so by the tests only; `gmtool serve --demo` plays its `play`.)
Every call goes through the same operations and permission checks as the screens and the API.
"""

from __future__ import annotations

from . import operations as ops
from .core.model import GM, Viewer
from .core.view import build_view
from .runtime import LiveSession

ROUTES = {"/counters": ops.change_counter, "/rolls": ops.roll, "/prompts": ops.open_prompt,
          "/readings": ops.set_reading, "/scenes": ops.mark_scene}


class LocalDriver:
    """One live session, driven as `who` ("gm" or a seat id)."""

    def __init__(self, live: LiveSession):
        self.live = live
        self.seats = list(live.state.seats)

    def _viewer(self, who: str) -> Viewer:
        return GM if who == "gm" else Viewer("seat", who)

    def act(self, name: str, payload: dict | None = None, who: str = "gm") -> dict:
        """A ruleset action."""
        return ops.ruleset_action(self.live, self._viewer(who), name, payload or {})

    def answer(self, prompt: str, value, who: str) -> dict:
        """A secret answer."""
        return ops.answer(self.live, self._viewer(who), prompt, {"value": value})

    def post(self, path: str, body: dict | None = None, who: str = "gm") -> dict:
        """A core step named by its API path (/counters, /rolls, /prompts, /readings, /scenes, or a prompt's
        /prompts/<id>/confirm and its other GM steps)."""
        parts = path.strip("/").split("/")
        if len(parts) == 3 and parts[0] == "prompts":
            return ops.prompt_action(self.live, self._viewer(who), parts[1], parts[2], body or {})
        return ROUTES[path](self.live, self._viewer(who), body or {})

    def state(self, who: str = "gm") -> dict:
        """The session as `who` sees it."""
        return build_view(self.live.state, self._viewer(who), self.live.version)


def make_demo(manager, name: str, title: str | None = None):
    """A new session of ruleset `name` set up as its demo declares (`Ruleset.demo`: its seats, counters and
    played steps; two seats A and B when it declares none), titled `title` or the demo's title: (live, tokens)."""
    from .rulesets import registry
    from .setup import counters_for, parse_seats
    ruleset = registry()[name]
    demo = ruleset.demo
    seats = list(demo.seats) if demo else ["A", "B"]
    counters = counters_for(ruleset, list(demo.counters)) if demo and demo.counters else None
    live, tokens = manager.create(title or (demo.title if demo else name), name, parse_seats(seats), counters)
    if demo and demo.play is not None:
        demo.play(LocalDriver(live))
    return live, tokens
