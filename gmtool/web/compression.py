"""What a screen loads, made light: gzip for text responses, and versioned static files cached for good.

- A text response (HTML, CSS, JavaScript, JSON, SVG) of at least MIN_SIZE bytes goes out gzipped to
  a browser that accepts it. A static file is compressed once per version of the file and kept.
  The live stream compresses itself (web/live.py), so a streamed response is left alone.
- `asset_url(filename)` is the static file's URL with `v=` a digest of its content: such a URL never
  changes meaning, so it is served with a year's `Cache-Control: immutable` and a page's second load
  fetches no CSS or JavaScript at all. A URL without (or with an old) `v` keeps the short default.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from pathlib import Path

from flask import Flask, request, url_for

MIN_SIZE = 512
LEVEL = 6
COMPRESSIBLE = ("text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "image/svg+xml", "application/manifest+json")
YEAR = 365 * 24 * 3600

_lock = threading.Lock()
_versions: dict[tuple[str, float], str] = {}     # (path, mtime) -> content digest
_compressed: dict[tuple[str, float], bytes] = {}  # (path, mtime) -> gzip of the file


def _version(path: Path) -> str:
    """A short digest of a file's content (recomputed when the file changes)."""
    key = (str(path), path.stat().st_mtime)
    with _lock:
        known = _versions.get(key)
    if known is None:
        known = hashlib.blake2b(path.read_bytes(), digest_size=6).hexdigest()
        with _lock:
            _versions[key] = known
    return known


def asset_url(filename: str) -> str:
    """The URL of a file in static/, versioned by its content."""
    from flask import current_app
    return url_for("static", filename=filename, v=_version(Path(current_app.static_folder) / filename))


def _accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def install(app: Flask) -> None:
    """Compress and cache-tag the app's responses."""
    app.jinja_env.globals["asset_url"] = asset_url

    @app.after_request
    def _compress(response):
        if request.endpoint == "static" and response.status_code == 200 and request.args.get("v"):
            path = Path(app.static_folder) / (request.view_args or {}).get("filename", "")
            if path.is_file() and request.args["v"] == _version(path):
                response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        if (response.status_code != 200 or response.is_streamed and not response.direct_passthrough
                or "Content-Encoding" in response.headers or response.mimetype not in COMPRESSIBLE):
            return response
        response.vary.add("Accept-Encoding")
        if not _accepts_gzip():
            return response
        if response.direct_passthrough:  # a file (static/): compressed once per version of it
            path = Path(app.static_folder if request.endpoint == "static" else "") / \
                (request.view_args or {}).get("filename", "")
            if request.endpoint != "static" or not path.is_file():
                return response
            key = (str(path), path.stat().st_mtime)
            with _lock:
                body = _compressed.get(key)
            if body is None:
                body = gzip.compress(path.read_bytes(), LEVEL, mtime=0)
                with _lock:
                    _compressed[key] = body
            if hasattr(response.response, "close"):
                response.response.close()  # the file the plain response would have sent
            response.direct_passthrough = False
            response.set_data(body)
            response.headers.pop("ETag", None)  # the file's tag names the plain bytes; Last-Modified still validates
        else:
            data = response.get_data()
            if len(data) < MIN_SIZE:
                return response
            response.set_data(gzip.compress(data, LEVEL, mtime=0))
        response.headers["Content-Encoding"] = "gzip"
        return response
