"""A whole campaign in one write-up, and the list of its sessions (pure: logs in, a Report out).

Each session's part is its own replay (report.build_report, built from the table's filtered view),
under a heading naming the session and its date; the standings are the last session's, the appendix
holds every session's commitments and dice seed hash.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..core.errors import GmError
from ..core.model import Event
from ..core.view import TABLE, build_view
from ..i18n import pick
from .report import (Appendix, L, Options, Report, Section, build_report, fold_all, local_time, own_standings,
                     result_lines)


def session_rows(logs: list[tuple[list[Event], Any]], options: Options = Options()) -> list[dict]:
    """One row per session of a campaign, in order: its id, title, date, whether it is closed, and its
    outcome: the result lines of the ruleset's own standings (a game's winner, as the write-up ends), else the
    public counters every seat ended with, as the table sees them, followed by the lines the ruleset puts under
    core's table (its result)."""
    rows = []
    for events, rules in logs:
        state = fold_all(events, rules)
        own = own_standings(state, options.lang)
        view = build_view(state, TABLE)
        public = [c for c in view["counters"] if c["public"]]
        outcome = "; ".join(own[2]) if own and own[2] else "; ".join([
            f"{seat['name']}: " + " ".join(f"{pick(c['label'], options.lang)} {seat['counters'].get(c['key'], '')}"
                                           for c in public)
            + "".join(f" [{pick(f['label'], options.lang)}]" for f in seat["flags"])
            for seat in view["seats"]] + ([] if own else result_lines(state, options.lang)))
        rows.append({"id": state.session_id, "title": state.title, "date": local_time(state.created, options.utc_offset),
                     "closed": state.closed, "outcome": outcome})
    return rows


def build_campaign_report(logs: list[tuple[list[Event], Any]], options: Options = Options()) -> Report:
    """The write-up of every session of a campaign, first to last, under one heading each."""
    if not logs:
        raise GmError("セッションがありません", "There are no sessions")
    if options.scene is not None:
        raise GmError("キャンペーン全体のエクスポートではシーンを選べません（シーンはセッションごとに書き出します）",
                      "A whole-campaign export cannot pick a scene (scenes are exported one session at a time)")
    lang = options.lang
    reports = [build_report(events, rules, replace(options, standings="last")) for events, rules in logs]
    sections: list[Section] = []
    appendix: list[Appendix] = []
    verification: list[tuple[str, str]] = []
    for number, (report, row) in enumerate(zip(reports, session_rows(logs, options)), start=1):
        heading = f"{L(lang, f'第{number}回', f'Session {number}')}: {report.title}（{row['date'][:10]}）"
        sections.append(Section(heading, level=2))
        sections += [replace(s, level=3) for s in report.sections]
        appendix += [Appendix(f"{report.title} — {entry.title}", entry.rows) for entry in report.appendix]
        verification += [(f"{report.title} — {k}", v) for k, v in report.verification]
    last = reports[-1]
    sessions = "、".join(r.title for r in reports) if lang != "en" else ", ".join(r.title for r in reports)
    meta = [m for m in reports[0].meta if m[0] in (L(lang, "ルール", "Ruleset"), L(lang, "席", "Seats"))]
    meta.append((L(lang, "セッション", "Sessions"), sessions))
    return Report(L(lang, f"キャンペーン: {reports[0].title}", f"Campaign: {reports[0].title}"), lang, meta, sections,
                  last.standings_head, last.standings, appendix, verification, options.standings == "first",
                  last.standings_lines)
