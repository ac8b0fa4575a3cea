"""Static files as phones should get them: minified, compressed once at the highest level, cached for good."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, abort, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

# Compressing text pays; images and fonts are compressed already.
COMPRESSIBLE = {"text/css", "text/javascript", "application/javascript", "image/svg+xml",
                "application/manifest+json", "application/json", "text/plain", "audio/wav", "audio/x-wav"}
YEAR = 365 * 24 * 3600


@dataclass(frozen=True)
class Asset:
    """One static file, ready to send: its bytes in each encoding and a fingerprint."""

    mimetype: str
    encodings: dict[str, bytes]
    fingerprint: str


def minified(path: Path, data: bytes) -> bytes:
    """The file without comments and spare whitespace; an already minified file as it is."""
    if path.name.endswith(".min.js"):
        return data
    if path.suffix == ".css":
        return rcssmin.cssmin(data.decode("utf-8")).encode("utf-8")
    if path.suffix == ".js":
        return rjsmin.jsmin(data.decode("utf-8")).encode("utf-8")
    return data


@lru_cache(maxsize=128)
def load_asset(path: Path, modified: float) -> Asset:
    """Read, minify and compress a file; kept until the file changes."""
    mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if path.suffix == ".webmanifest":
        mimetype = "application/manifest+json"
    plain = minified(path, path.read_bytes())
    encodings = {"identity": plain}
    if mimetype in COMPRESSIBLE:
        encodings["br"] = brotli.compress(plain, quality=11, mode=brotli.MODE_TEXT)
        encodings["gzip"] = gzip.compress(plain, 9, mtime=0)
    return Asset(mimetype, encodings, hashlib.sha256(plain).hexdigest()[:16])


def asset_at(folder: str, filename: str) -> Asset | None:
    """The asset for `filename` under `folder`, or None if there is no such file."""
    found = safe_join(folder, filename)
    if found is None:
        return None
    path = Path(found)
    if not path.is_file():
        return None
    return load_asset(path, path.stat().st_mtime)


def send_asset(folder: str, filename: str) -> Response:
    """Answer for one static file, in the best encoding the browser takes."""
    asset = asset_at(folder, filename)
    if asset is None:
        abort(404)
    accepted = request.accept_encodings
    encoding = next((e for e in ("br", "gzip") if e in asset.encodings and accepted[e]), "identity")
    response = Response(asset.encodings[encoding], mimetype=asset.mimetype)
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{asset.fingerprint}-{encoding}")
    if request.args.get("v") == asset.fingerprint:
        # The address names this exact content, so browsers keep it for good.
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    else:
        response.cache_control.no_cache = True
    return response.make_conditional(request)


def init_app(app: Flask) -> None:
    """Serve `static/` through `send_asset`, and give every static URL its content's fingerprint."""
    folder = app.static_folder
    assert folder is not None
    app.view_functions["static"] = lambda filename: send_asset(folder, filename)

    @app.url_defaults
    def fingerprint_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            asset = asset_at(folder, values["filename"])
            if asset is not None:
                values["v"] = asset.fingerprint
