"""Sections of the live fragments, each rendered only when its inputs change (issue 11).

A screen's live fragment is a few sections (the seats' counters, the open prompts, the rolls, the
ruleset's panel, the log …). In a template a section names what it reads:

    {% section "rolls", view.rolls[:5], seats_by_id %} … {% endsection %}

and its HTML is kept in the session's `SectionCache` under (template, section, language, a digest of
those inputs; runtime.SectionCache). The next rendering of any screen whose inputs are equal (the same viewer after a
change elsewhere, or another viewer who sees the same thing: the public rolls on every phone) takes
the kept HTML instead of rendering the body again. A section must name every value its body reads
that can change during a session; what cannot (the session id, the viewer's kind, the ruleset's
templates) may be left out. With CHECK_SECTIONS set (the default under TESTING; the browser tests' server sets it) every cache hit renders
the body as well and fails when the two differ, so a forgotten input shows up as a failing test,
not as a stale screen.
"""

from __future__ import annotations

import hashlib
from typing import Callable

import orjson
from flask import current_app
from jinja2 import nodes
from jinja2.ext import Extension
from markupsafe import Markup


class StaleSection(AssertionError):
    """A kept section differs from a fresh rendering: the section's inputs are incomplete."""


def _plain(value):
    """orjson's fallback for values it does not know: sets in order, anything else as its text."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)


def digest(inputs) -> bytes:
    """A short digest of a section's inputs. Keys are not sorted (a third of the cost): the views are built in a
    fixed order, and equal inputs built in another order would only cost a rendering, never a wrong one."""
    data = orjson.dumps(inputs, default=_plain, option=orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(data, digest_size=16).digest()


class SectionExtension(Extension):
    """The `{% section name, input, … %}…{% endsection %}` tag."""

    tags = {"section"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        name = parser.parse_expression()
        shared = parser.stream.skip_if("name:shared")
        inputs = []
        while parser.stream.skip_if("comma"):
            inputs.append(parser.parse_expression())
        body = parser.parse_statements(("name:endsection",), drop_needle=True)
        call = self.call_method("_section", [nodes.ContextReference(), name, nodes.Const(shared), nodes.List(inputs)])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    @staticmethod
    def _section(context, name: str, shared: bool, inputs: list, caller) -> Markup:
        cache = context.get("section_cache")  # the session's runtime.SectionCache
        if cache is None:  # a whole page, or a rendering outside a live session: nothing kept
            return caller()
        viewer = None if shared else context.get("viewer")
        return kept(cache, context.name, name, viewer, inputs, caller, context.get("lang", "ja"))


def kept(cache, template: str, name: str, viewer, inputs, render: Callable[[], str], language: str):
    """Section `name` of `template` for `viewer` (None: the same for every viewer) in `language` from the session's
    runtime.SectionCache if a rendering from equal `inputs` is kept, else `render()`ed and kept (a rendering is its
    HTML, or what a caller puts together from such, e.g. web/screens.phone_public's lines by seat). Under
    CHECK_SECTIONS a kept rendering is compared with a fresh one (StaleSection when they differ)."""
    key = (template, name, language, viewer, digest(inputs))
    html = cache.get(key)
    if html is None:
        html = render()
        cache.put(key, html)
    elif cache.checked(current_app):
        fresh = render()
        if fresh != html:
            raise StaleSection(f"section {name!r} of {template} changed without a change of its inputs")
    return html
