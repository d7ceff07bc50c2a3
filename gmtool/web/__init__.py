"""The Flask application factory (DESIGN principle 6): blueprints by audience."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
import json
import re
import sqlite3
from pathlib import Path

from flask import Flask, abort, current_app, g, jsonify, render_template, request, send_from_directory, url_for
from jinja2 import BytecodeCache, pass_context
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Rule

from ..core.commitments import canonical
from ..core.dice import localized_text
from ..core.errors import GmError, error_json
from ..core.logtext import minus_sign
from ..core.prompts import answer_text
from ..i18n import language_named, pick, template_words, translate
from ..ownership import Ownership
from .. import runtime
from ..runtime import SessionManager, admin_key
from .. import limits
from . import compression
from .common import flash_response, is_admin, is_api
from .sections import SectionExtension

# a rule code as a log line writes it: [T-4], ［S-7］, [general], or in parentheses, （S-13）, or at the end of a
# parenthesis that says more, with the comma before it: （1d4、A-7）, (secret, A-9), or ahead of the rest of one:
# (A-7, …); the TV and the phones hide it until the 根拠 toggle (rule_marked), leaving （1d4）, (secret)
_CODES = r"[A-Z]{1,2}-\d+[a-z]?(?:[,、/／ ]+[A-Z]{1,2}-\d+[a-z]?)*"
_SEP = r"[,、;；]\s?"
RULE_CODE = re.compile(rf"[\[［](?:{_CODES}|general)[\]］]|[(（]{_CODES}[)）]"
                       rf"|{_SEP}{_CODES}(?=[)）\]］]|{_SEP})|(?<=[(（\[［]){_CODES}{_SEP}")
RULE_MARK = re.compile(rf" ?(?:{RULE_CODE.pattern})")  # a rule code with the space before it
# A name RULE_CODE could take for a code (a player named "A-1" or "S-10"): such names are held out of its reach.
_CODE_LIKE = re.compile(r"[A-Z]{1,2}-\d")
_TYPED_PARTS = re.compile(r"[\n/／,、;；]")  # what separates the names typed in the home page's seats field
_HELD = re.compile("\ue000(\\d+)\ue001")  # a held name's place while the codes are marked (private-use marks)
PACKAGE = Path(__file__).resolve().parent.parent
WORKER_HEADER = "X-Gmtool-Worker"


def _asset_dir(name: str) -> str:
    """templates/ or static/: inside the installed package, else at the top of the source tree."""
    installed = PACKAGE / name
    return str(installed if installed.is_dir() else PACKAGE.parent / name)


class _CompiledTemplates(BytecodeCache):
    """Compiled templates kept for the life of the process, shared by every app it makes: a template is compiled
    once, not once per app (a server makes one app; the test suite makes one per test, and compiling its templates
    cost more than the test). Jinja checks each kept one against its source's checksum, so an edited file is
    compiled again."""

    def __init__(self):
        self.kept: dict[str, tuple[str, object]] = {}

    def load_bytecode(self, bucket) -> None:
        kept = self.kept.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket) -> None:
        self.kept[bucket.key] = (bucket.checksum, bucket.code)


COMPILED_TEMPLATES = _CompiledTemplates()


class _Route(Rule):
    """A URL rule whose URL builders (functions of the rule alone, compiled from Python source by werkzeug) are
    compiled once per process, shared by every app it makes: compiling them for each app's 60-odd routes was most of
    create_app's time, which the suite pays once per test."""

    builders: dict = {}

    def _compile_builder(self, append_unknown: bool = True):
        try:
            key = (self.rule, self.host, self.subdomain, repr(self.defaults), append_unknown, tuple(self._trace))
        except AttributeError:  # a werkzeug whose rules keep their parts otherwise: compiled per app, as werkzeug does
            return super()._compile_builder(append_unknown)
        builder = _Route.builders.get(key)
        if builder is None:
            builder = _Route.builders[key] = super()._compile_builder(append_unknown)
        return builder


class _App(Flask):
    """Flask, its routes' URL builders compiled once per process (_Route)."""

    url_rule_class = _Route


def create_app(config: dict | None = None) -> Flask:
    """A gmtool app; config keys: DATA_DIR, PUBLIC_BASE, MAX_STREAMS, HEARTBEAT, ADMIN_KEY, SYNCHRONOUS, OWNERSHIP
    (the sessions this process owns when it is one of several workers: gmtool/ownership.py)."""
    app = _App("gmtool", template_folder=_asset_dir("templates"), static_folder=_asset_dir("static"))
    app.config.update(DATA_DIR="sessions", PUBLIC_BASE=None, MAX_STREAMS=200, HEARTBEAT=15.0,
                      JSON_AS_ASCII=False, SEND_FILE_MAX_AGE_DEFAULT=3600)
    # Flask's own default is None (no limit), so setdefault would never apply: set it before the caller's config.
    # The server (waitress max_request_body_size, cli.server_settings) refuses larger bodies before reading them (above
    # the import form's MAX_UPLOAD_BODY; Flask holds every other route to MAX_BODY, also before reading a body).
    app.config.update(MAX_CONTENT_LENGTH=limits.MAX_BODY, MAX_FORM_MEMORY_SIZE=limits.MAX_FORM_MEMORY,
                      MAX_FORM_PARTS=limits.MAX_FORM_PARTS)
    app.config.update(config or {})
    app.jinja_env.add_extension(SectionExtension)
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    data_dir = Path(app.config["DATA_DIR"])
    ownership = app.config.setdefault("OWNERSHIP", Ownership())
    app.extensions["gmtool"] = SessionManager(data_dir, app.config.get("SYNCHRONOUS", "NORMAL"), ownership)
    if not app.config.get("ADMIN_KEY"):
        app.config["ADMIN_KEY"] = admin_key(data_dir)

    from . import api, gm, home, live, phone, table
    for module in (home, gm, table, phone, live, api):
        app.register_blueprint(module.bp)
    _serve_ruleset_assets(app)
    compression.install(app)

    @app.before_request
    def _nothing_recorded_yet():
        runtime.recorded.set([])  # a request thread answers many requests, one after the other

    @app.before_request
    def _upload_cap():
        """The import form's body may be larger than any other (its file, MAX_BODY, and the form's framing): set before
        anything reads the form (a plain form's idempotency key is in it: web/idempotency.py)."""
        if request.endpoint == "home.import_file":
            request.max_content_length = limits.MAX_UPLOAD_BODY

    @app.before_request
    def _language():
        """The reader's language: the request's `?lang` when it names one, else (a screen) its `lang` cookie, else
        Japanese (a `?lang=fr` on a screen read in English stays English). The API reads the request alone (docs/api.md:
        Japanese unless it says `lang=en`): the cookie an earlier `?lang=en` left is the screens', and a client that
        keeps cookies must not have its later answers switch language."""
        g.lang = (language_named(request.args.get("lang"))
                  or (None if is_api() else language_named(request.cookies.get("lang"))) or "ja")

    @app.before_request
    def _same_origin():
        """A browser's state-changing request from another site is refused (with the CSRF tokens, a
        second line: a page of another origin cannot make the browser send our cookies with a POST)."""
        from .common import check_origin
        check_origin()

    @app.before_request
    def _valid_text():
        """A body that is not UTF-8 is refused before anything reads it (docs/api.md, Limits and errors); its text
        and list lengths are checked where it is read (api.payload, common.act)."""
        if request.method not in ("GET", "HEAD", "OPTIONS") and request.mimetype != "multipart/form-data":
            # get_data keeps the body: a form is then parsed from it, and the API still sees a form's body
            limits.check_utf8(request.get_data(), form=request.mimetype == "application/x-www-form-urlencoded")

    from . import idempotency
    idempotency.install(app)  # after the language and the origin check, so a replay passes them too

    @app.after_request
    def _headers(response):
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if not ownership.is_single:  # which worker answered (docs/api.md): a proxy's routing can be checked
            response.headers[WORKER_HEADER] = str(ownership.worker)
        asked = language_named(request.args.get("lang"))
        if asked is not None:
            response.set_cookie("lang", asked, max_age=3600 * 24 * 365, samesite="Lax")
        return response

    @app.context_processor
    def _i18n():
        return template_words(g.get("lang", "ja"))

    @app.template_filter("answer_text")
    def _answer_text(value, prompt: dict) -> str:
        return answer_text(g.get("rules"), prompt["kind"], value, prompt.get("option_names"), g.get("lang", "ja"))

    @app.template_filter("term_label")
    def _term_label(term: dict, prompt: dict) -> str:
        """A resolution term in the viewer's language: as its prompt's kind words its terms (a ruleset's
        PromptKind.term_text), else its label."""
        lang, rules = g.get("lang", "ja"), g.get("rules")
        kind = rules.prompt_kind(prompt["kind"]) if rules is not None else None
        if kind is not None and kind.term_text is not None:
            return kind.term_text(term, lang)
        return pick(term.get("label"), lang)

    @app.template_filter("reading_value")
    def _reading_value(value) -> str:
        return str(value).lower() if isinstance(value, bool) or value is None else str(value)

    app.add_template_filter(canonical, "answer_json")

    @app.template_filter("local_time")
    def _local_time(ts: str) -> str:
        try:
            return datetime.fromisoformat(ts).astimezone().strftime("%Y-%m-%d %H:%M")
        except (TypeError, ValueError):
            return ts or ""

    from .common import clock_hm
    app.add_template_filter(clock_hm, "clock_hm")

    @app.template_filter("rules")
    @pass_context
    def _rules(context, text: str) -> Markup:
        return rule_marked(text, names_in(context))

    @app.template_filter("unruled")
    @pass_context
    def _unruled(context, text: str) -> Markup:
        """The text without its rule codes (a screen reader's words: 「勝敗判定 セイバー陣営」, not 「… [T-10]」)."""
        return rule_marked(text, names_in(context), dropped=True)

    app.add_template_filter(minus_sign, "num")

    @pass_context
    def _log_items(context, lines: list[dict]) -> Markup:
        return log_items(lines, names_in(context))

    app.jinja_env.globals["log_items"] = _log_items

    app.add_template_filter(scene_start, "scene_start")
    app.add_template_filter(roll_news, "roll_news")
    app.jinja_env.globals["NEWS_ROLLS"] = NEWS_ROLLS

    @app.template_filter("this_scene")
    def _this_scene(items, scene: dict | None) -> list:
        """The rolls (anything with a `seq`) made since the newest scene mark began: the current scene's."""
        since = scene_start(scene)
        return [item for item in items if item["seq"] >= since]

    @app.template_test("stage_marked")
    def _stage_marked(prompt: dict, stage) -> bool:
        """Whether a game's stage (its rendered HTML) shows `prompt` itself, marked data-stage-prompt (table/_live.html
        leaves it out of the summary's open prompts)."""
        return f'data-stage-prompt="{prompt["id"]}"' in str(stage)

    @app.template_filter("roll_text")
    def _roll_text(text: str) -> str:
        return localized_text(text, g.get("lang", "ja"))

    @app.errorhandler(GmError)
    def _gm_error(error: GmError):
        return error_response(error.status, error.ja, error.en)

    @app.errorhandler(runtime.DamagedSession)
    def _damaged(error: runtime.DamagedSession):
        """A session file that does not load: what is wrong and what to do for the server's GM key, else only that
        it cannot be opened (its title and log are the GM's to read)."""
        return error_response(error.status, *(error.details if is_admin() else (error.ja, error.en)))

    @app.errorhandler(403)
    def _forbidden(error):
        return error_response(403, translate("error.forbidden", "ja"), translate("error.forbidden", "en"))

    @app.errorhandler(404)
    def _not_found(error):
        return error_response(404, "ページが見つかりません", "Not found")

    @app.errorhandler(405)
    def _method(error):
        return error_response(405, "この操作はできません", "Method not allowed")

    @app.errorhandler(400)
    def _bad_request(error):
        return error_response(400, "リクエストが正しくありません", "Bad request")

    @app.errorhandler(413)
    def _too_large(error):
        return error_response(413, "送信内容が大きすぎます", "Request too large")

    @app.errorhandler(RecursionError)
    def _too_deep(error):
        return error_response(400, "入力の入れ子が深すぎます", "The request is nested too deeply")

    @app.errorhandler(OverflowError)
    def _overflow(error):
        return error_response(400, "数値が大きすぎます", "A number is too large")

    @app.errorhandler(Exception)
    def _last_resort(error):
        """Any other failure: logged with its traceback, answered in the format of the route (JSON under /api)."""
        if isinstance(error, HTTPException):  # an HTTP status with no handler of its own (401, 415, ...)
            if error.code is None or error.code < 400:
                return error
            return error_response(error.code, "リクエストを処理できません", error.name)
        if app.extensions["gmtool"].stopping and not runtime.recorded.get():  # its session's store closed under it
            stopping = runtime.ServerStopping()
            return error_response(stopping.status, stopping.ja, stopping.en)
        session_id = (request.view_args or {}).get("session_id")
        if isinstance(error, (sqlite3.DatabaseError, json.JSONDecodeError)) and isinstance(session_id, str):
            damaged = app.extensions["gmtool"].damaged_since(session_id)  # an event that no longer reads
            if damaged is not None:
                app.logger.warning("session file of %s found damaged on %s %s", session_id, request.method,
                                   request.path, exc_info=error)
                return _damaged(damaged)
        app.logger.exception("Unhandled error on %s %s", request.method, request.path)
        if runtime.recorded.get():  # the action is on disk; only its answer failed
            return error_response(500, "サーバーの内部エラーです（操作は記録されました。画面を再読み込みしてください）",
                                  "Internal server error (the action was recorded; reload to see it)")
        return error_response(500, "サーバーの内部エラーです（何も変更されていません）",
                              "Internal server error (nothing was changed)")

    return app


NEWS_ROLLS = 10  # the newest rolls a screen's live region looks at (what came since the last update, read in order)


def roll_news(rolls: list[dict], secret: list[dict] = ()) -> list[tuple[str, dict, bool]]:
    """What a screen's polite live region reads of its newest rolls (templates/_news.html): (key, roll, hidden) for
    each roll of `rolls` (a view's, newest event first, an event's several rolls in the order rolled:
    view.screen_rolls) and each of the `secret` rolls the viewer may not see (hidden: said as a secret roll, nothing
    more), oldest first and an event's rolls in the order rolled, so that what came since the last update is read as
    it was rolled. A key names the roll, never its words (static/live.js reads a key it did not know): its event's
    seq, and its place among that event's rolls after the first (「roll-12」, 「roll-12-1」); a secret one 「secret-12」."""
    out: list[tuple[int, int, str, dict, bool]] = []
    place = 0
    for i, r in enumerate(rolls):
        place = place + 1 if i and rolls[i - 1]["seq"] == r["seq"] else 0
        out.append((r["seq"], place, f"roll-{r['seq']}" + (f"-{place}" if place else ""), r, False))
    out += [(r["seq"], 0, f"secret-{r['seq']}", r, True) for r in secret]
    out.sort(key=lambda item: item[:2])
    return [(key, r, hidden) for _, _, key, r, hidden in out]


def scene_start(scene: dict | None) -> int:
    """Where the current scene begins on the screens, the one meaning of "since the scene" they all use: the `from`
    of the screens' view's scene (core/view.scene_view: the first `seq` of the newest scene mark's action, so that a
    round's order rolled with its mark is of that round; the mark itself for one with `from_mark`, a round its action
    ended), else its `seq`; 0 without a mark. A roll at or after it is the scene's
    (_rolls.html, the table's roll strip), and so is a prompt's result revealed at or after it (a phone's results:
    web/screens.phone_public)."""
    return scene.get("from", scene["seq"]) if scene else 0


def rule_marked(text: str, names: tuple[str, ...] = (), dropped: bool = False) -> Markup:
    """A log line with its rule codes ([T-4], [S-10] …) tucked into spans the 根拠 toggle shows; the space
    before a code goes into its span, so that a hidden code leaves none (「スタートへ ）」).

    `names`: the session's seat and faction names (names_in). One that reads like a code (a player named "A-1" or
    "S-10") is never marked: a player's name never hides. Each is held out of the codes' reach while they are marked
    (「（対象: 太郎、A-1、S-10）」 kept whole; in 「（A-7、A-1）」 only 「、A-7」 hides); the same text as a real code
    then shows as the name it also is. `dropped`: the codes are left out instead (what a screen reader says)."""
    mark = "" if dropped else _rule_span
    html = str(escape(text))
    guard = _name_guard(names) if names else None
    if guard is None or not guard.search(html):
        return Markup(RULE_MARK.sub(mark, html))
    held: list[str] = []

    def hold(match: re.Match) -> str:
        held.append(match.group(0))
        return f"\ue000{len(held) - 1}\ue001"
    marked = RULE_MARK.sub(mark, guard.sub(hold, html))
    return Markup(_HELD.sub(lambda m: held[int(m.group(1))], marked))


def _rule_span(match: re.Match) -> str:
    return f'<small class="rule">{match.group(0)}</small>'


@lru_cache(maxsize=256)
def _name_guard(names: tuple[str, ...]) -> re.Pattern | None:
    """The names (as they read escaped) that RULE_CODE could take for codes, each as a whole word; None without any."""
    risky = sorted({str(escape(n)) for n in names if n and _CODE_LIKE.search(n)}, key=len, reverse=True)
    if not risky:
        return None
    return re.compile(r"(?<![A-Za-z0-9])(?:{})(?![A-Za-z0-9])".format("|".join(map(re.escape, risky))))


def names_in(context) -> tuple[str, ...]:
    """The names a template's context holds that rule_marked must leave alone: its seats' names (`seat_names`) and
    factions (`seats_by_id`), and any `rule_names` its caller gave (the flash: web.common.action_response)."""
    names = list((context.get("seat_names") or {}).values())
    names += [s.get("faction") or "" for s in (context.get("seats_by_id") or {}).values() if isinstance(s, dict)]
    names += context.get("rule_names") or ()
    return tuple(n for n in names if isinstance(n, str) and _CODE_LIKE.search(n))


def state_names(state) -> tuple[str, ...]:
    """names_in for a session's state: its seats' names and factions that read like codes."""
    return tuple(n for seat in state.seats.values() for n in (seat.name, seat.faction) if n and _CODE_LIKE.search(n))


def log_items(lines: list[dict], names: tuple[str, ...] = ()) -> Markup:
    """The `<li>` of each log line (screens.log_lines), its rule codes marked (rule_marked: the table's 根拠 toggle shows
    them; on the GM console they never break at their hyphen; `names` never hide), for the GM console's log and the
    table's history. A line's markup is made once: each change adds a line to logs that show the last 30 or 60."""
    return Markup("\n".join([_log_item(line["time"], line["text"], line["undone"], names) for line in lines]))


@lru_cache(maxsize=8192)
def _log_item(time: str, text: str, undone: bool, names: tuple[str, ...] = ()) -> Markup:
    return Markup('<li class="{}"><time>{}</time> {}</li>').format("undone" if undone else "", time,
                                                                   rule_marked(text, names))


def _serve_ruleset_assets(app: Flask) -> None:
    """A ruleset's own templates and static files (a pip-installed game ships its screens): its
    template_dir joins the template search path after the top-level templates/, its static_dir is
    served at /rulesets/<name>/static/<file>."""
    from jinja2 import ChoiceLoader, FileSystemLoader

    from ..rulesets import registry
    rulesets = registry()
    extra = [FileSystemLoader(str(r.template_dir)) for r in rulesets.values() if r.template_dir]
    if extra:
        app.jinja_loader = ChoiceLoader([app.jinja_loader, *extra])

    @app.get("/rulesets/<name>/static/<path:filename>")
    def ruleset_static(name: str, filename: str):
        ruleset = rulesets.get(name)
        if ruleset is None or ruleset.static_dir is None:
            abort(404)
        return send_from_directory(ruleset.static_dir, filename, max_age=app.config["SEND_FILE_MAX_AGE_DEFAULT"])


def stylesheet_url(ruleset) -> str:
    """Where the screens load a ruleset's stylesheet: its own static folder, or the top-level static/."""
    if not ruleset.stylesheet:
        return ""
    if ruleset.static_dir is not None:
        return url_for("ruleset_static", name=ruleset.name, filename=ruleset.stylesheet)
    return compression.asset_url(ruleset.stylesheet)


def error_response(status: int, ja: str, en: str):
    """A clear bilingual error: JSON for the API, a flash fragment for htmx, else a page."""
    if is_api() or request.accept_mimetypes.best == "application/json":
        return jsonify(error_json(status, ja, en)), status
    lang = g.get("lang", "ja")
    if request.headers.get("HX-Request") == "true":
        return flash_response(en if lang == "en" else ja, error=True, status=status, names=_flash_names())
    return render_template("error.html", status=status, ja=ja, en=en), status


def _flash_names() -> tuple[str, ...]:
    """The names an error flash keeps whole, as a success's flash does (rule_marked: a seat named "A-1" is no rule
    code): on a session's screens (a phone, the console, a campaign's continue form) its seats' names and factions,
    if the session is open (an error never loads one); on the home page's new-session form the seats typed in it."""
    session_id = (request.view_args or {}).get("session_id")
    if isinstance(session_id, str):
        live = current_app.extensions["gmtool"].sessions.get(session_id)
        return state_names(live.state) if live is not None else ()
    if request.endpoint != "home.create" or request.method != "POST":
        return ()
    try:  # (the form as read; one too large to read has no names)
        typed = str(request.form.get("seats", ""))
    except Exception:  # noqa: BLE001
        return ()
    # each line's name and faction, and the parts of a line of several names (a refusal quotes it, cut at 40)
    parts = {part.strip() for part in _TYPED_PARTS.split(typed)} | {line.strip() for line in typed.splitlines()}
    return tuple(sorted(n for n in parts if n and _CODE_LIKE.search(n)))
