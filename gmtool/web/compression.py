"""What a screen loads, made light: gzip for text responses, and versioned static files cached for good.

- A text response (HTML, CSS, JavaScript, JSON, SVG) of at least MIN_SIZE bytes goes out gzipped to
  a browser that accepts it. A static file is compressed once per version of the file and kept.
  The live stream compresses itself (web/live.py), so a streamed response is left alone.
- A stylesheet goes out without its comments (they explain the rules to us: a quarter of a phone's CSS on the
  wire, which counts against its first load, docs/performance.md), and gmtool's own scripts without their
  whole-line `//` comments (a quarter of live.js and phone.js on the wire; a comment after code on its line stays).
- `asset_url(filename)` is the static file's URL with `v=` a digest of its content: such a URL never
  changes meaning, so it is served with a year's `Cache-Control: immutable` and a page's second load
  fetches no CSS or JavaScript at all. A URL without (or with an old) `v` keeps the short default.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from functools import lru_cache
from pathlib import Path

from flask import Flask, current_app, request, url_for

CSS_COMMENT = re.compile(rb"/\*.*?\*/", re.S)  # gmtool's stylesheets hold no "/*" inside a string
# A line that is only a comment: gmtool's scripts hold no multi-line string (no template literal, no "\" line end)
JS_LINE_COMMENT = re.compile(rb"^[ \t]*//[^\n]*\n", re.M)
MIN_SIZE = 512
LEVEL = 6
COMPRESSIBLE = ("text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "image/svg+xml", "application/manifest+json")
YEAR = 365 * 24 * 3600


@lru_cache(maxsize=256)
def _digest(path: str, _mtime: float) -> str:
    """A short digest of a file's content (the modification time in the key: a changed file is read again)."""
    return hashlib.blake2b(Path(path).read_bytes(), digest_size=6).hexdigest()


@lru_cache(maxsize=64)
def _served(path: str, _mtime: float) -> bytes:
    """What a static file sends: its bytes, a stylesheet's without its comments, gmtool's own scripts without
    their whole-line comments (a vendored, minified script is sent as it is)."""
    data = Path(path).read_bytes()
    if path.endswith(".css"):
        return CSS_COMMENT.sub(b"", data)
    if _served_differs(path):
        return JS_LINE_COMMENT.sub(b"", data)
    return data


def _served_differs(name: str) -> bool:
    """Whether a static file goes out other than as it is stored (a stylesheet, one of gmtool's own scripts)."""
    return name.endswith(".css") or name.endswith(".js") and not name.endswith(".min.js")


@lru_cache(maxsize=64)
def _gzipped(path: str, mtime: float) -> bytes:
    """A file's gzip, made once per version of the file."""
    return gzip.compress(_served(path, mtime), LEVEL, mtime=0)


def _version(path: Path) -> str:
    return _digest(str(path), path.stat().st_mtime)


def asset_url(filename: str) -> str:
    """The URL of a file in static/, versioned by its content."""
    return url_for("static", filename=filename, v=_version(Path(current_app.static_folder) / filename))


def _static_file(app: Flask) -> Path | None:
    """The file in static/ this request is served, if it is one."""
    if request.endpoint != "static":
        return None
    path = Path(app.static_folder) / (request.view_args or {}).get("filename", "")
    return path if path.is_file() else None


def install(app: Flask) -> None:
    """Compress and cache-tag the app's responses."""
    app.jinja_env.globals["asset_url"] = asset_url

    @app.after_request
    def _compress(response):
        if response.status_code != 200:
            return response
        static = _static_file(app)
        if static is not None and request.args.get("v") == _version(static):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        if (response.is_streamed and not response.direct_passthrough
                or "Content-Encoding" in response.headers or response.mimetype not in COMPRESSIBLE):
            return response
        response.vary.add("Accept-Encoding")
        gzipped = "gzip" in request.headers.get("Accept-Encoding", "").lower()
        if response.direct_passthrough:  # a file: only static/'s, made once per version of it
            if static is None or not (gzipped or _served_differs(static.name)):
                return response
            if hasattr(response.response, "close"):
                response.response.close()  # the file the plain response would have sent
            response.direct_passthrough = False
            mtime = static.stat().st_mtime
            response.set_data(_gzipped(str(static), mtime) if gzipped else _served(str(static), mtime))
            response.headers.pop("ETag", None)  # the file's tag names the plain bytes; Last-Modified still validates
        elif gzipped and len(data := response.get_data()) >= MIN_SIZE:
            response.set_data(gzip.compress(data, LEVEL, mtime=0))
        else:
            return response
        if gzipped:
            response.headers["Content-Encoding"] = "gzip"
        return response
