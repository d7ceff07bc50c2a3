"""Exports of a session's log for wiki write-ups (pure: events in, text out)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import GmError, choices_text
from ..core.model import Event
from ..i18n import STRINGS
from .campaign import build_campaign_report, session_rows
from .html import render_html
from .jsonio import export_json, parse_export
from .markup import render_text
from .report import FORMAT_NAMES, Options, build_report

# Each format downloads with its own extension (a wiki editor keeps several side by side).
MEDIA_TYPES = {"markdown": ("text/markdown", "md"), "mediawiki": ("text/plain", "wiki"),
               "atwiki": ("text/plain", "atwiki"), "text": ("text/plain", "txt"), "html": ("text/html", "html"),
               "json": ("application/json", "json")}


def check_format(fmt: str) -> None:
    """A format gmtool writes, or a 400 naming the formats as the export page does (the English with their values)."""
    if fmt not in FORMAT_NAMES:
        ja, en = choices_text({name: STRINGS[f"export.fmt.{name}"] for name in FORMAT_NAMES})
        raise GmError(f"形式「{fmt}」はありません（{ja}）", f"Unknown format '{fmt}' (use {en})")


def export(events: list[Event], rules: Any, fmt: str, options: Options = Options(), secrets: dict | None = None,
           refused: Iterable[int] = ()) -> str:
    """A session's log in format `fmt` (markdown, mediawiki, atwiki, text, html, json), folded under its
    ruleset `rules` (the registry's `gmtool.rulesets.get(name)`); JSON with `secrets` is a full backup, which also
    carries `refused` (the actions whose undo was refused)."""
    check_format(fmt)
    if fmt == "json":
        return export_json(events, rules, options, secrets, refused)
    report = build_report(events, rules, options)
    return render_html(report) if fmt == "html" else render_text(report, fmt)


def export_campaign(logs: list[tuple[list[Event], Any]], fmt: str, options: Options = Options()) -> str:
    """Every session of a campaign, first to last (`logs`: each session's events and ruleset), in a text
    format or HTML; JSON stays one session per file (it is what `gmtool import` reads)."""
    check_format(fmt)
    if fmt == "json":
        raise GmError("JSONはセッションごとに書き出します（キャンペーン全体はMarkdown・Wiki・テキスト・HTMLで）",
                      "JSON is written one session at a time (a whole campaign: Markdown, wiki, text or HTML)")
    report = build_campaign_report(logs, options)
    return render_html(report) if fmt == "html" else render_text(report, fmt)


__all__ = ["FORMAT_NAMES", "MEDIA_TYPES", "Options", "export", "export_campaign", "parse_export", "session_rows"]
