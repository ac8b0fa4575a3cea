"""Static files as phones should get them: minified, compressed once at the highest level, cached for good."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import brotli
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


# What the minifier shortens; its JavaScript minifier also gives a function's own names one letter.
MINIFIED = {".css": "text/css", ".js": "text/javascript"}


def minified(path: Path, data: bytes) -> bytes:
    """The file without comments and spare whitespace, its local names shortened; an already minified file as it
    is."""
    mediatype = MINIFIED.get(path.suffix)
    if mediatype is None or path.name.endswith(".min.js"):
        return data
    # Imported where it is first used, in a worker: the minifier is a Go library, and a Go runtime started in
    # gunicorn's master process would not survive the fork into its workers.
    import minify

    minified: str = minify.string(mediatype, data.decode("utf-8"))
    return minified.encode("utf-8")


def _asset(mimetype: str, plain: bytes) -> Asset:
    """Content ready to send: compressed once at the highest level where it pays, and fingerprinted."""
    encodings = {"identity": plain}
    if mimetype in COMPRESSIBLE:
        encodings["br"] = brotli.compress(plain, quality=11, mode=brotli.MODE_TEXT)
        encodings["gzip"] = gzip.compress(plain, 9, mtime=0)
    return Asset(mimetype, encodings, hashlib.sha256(plain).hexdigest()[:16])


@lru_cache(maxsize=128)
def load_asset(path: Path, modified: float) -> Asset:
    """Read, minify and compress a file; kept until the file changes."""
    mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if path.suffix == ".webmanifest":
        mimetype = "application/manifest+json"
    return _asset(mimetype, minified(path, path.read_bytes()))


@lru_cache(maxsize=16)
def load_bundle(paths: tuple[Path, ...], modified: tuple[float, ...]) -> Asset:
    """Scripts minified and joined in order, then compressed as one: one request, and one compressed stream that
    finds what the files share; kept until one of them changes."""
    return _asset("text/javascript", b"\n;".join(minified(path, path.read_bytes()) for path in paths))


def asset_at(folder: str, filename: str, bundles: Mapping[str, Sequence[str]] | None = None) -> Asset | None:
    """The asset for `filename` under `folder` (a file, or one of `bundles`: a name for files served as one), or
    None if there is no such file."""
    parts = (bundles or {}).get(filename)
    if parts is not None:
        paths = tuple(Path(folder) / part for part in parts)
        return load_bundle(paths, tuple(path.stat().st_mtime for path in paths))
    found = safe_join(folder, filename)
    if found is None:
        return None
    path = Path(found)
    if not path.is_file():
        return None
    return load_asset(path, path.stat().st_mtime)


def send_asset(folder: str, filename: str, bundles: Mapping[str, Sequence[str]] | None = None) -> Response:
    """Answer for one static file (or bundle), in the best encoding the browser takes."""
    asset = asset_at(folder, filename, bundles)
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


def static_folders(app: Flask) -> dict[str, str]:
    """Each static endpoint of `app` and its folder: the table's (`static`), and each game's (`<game>.static`)."""
    assert app.static_folder is not None
    folders = {"static": app.static_folder}
    for name, blueprint in app.blueprints.items():
        if blueprint.static_folder is not None:
            folders[f"{name}.static"] = blueprint.static_folder
    return folders


def addresses(app: Flask) -> list[tuple[str, str]]:
    """Every static file `app` serves, as (endpoint, filename): each folder's files, a bundle by its name, its parts
    only within it."""
    found = []
    for endpoint, (folder, bundles) in app.extensions["static_folders"].items():
        in_bundles = {part for parts in bundles.values() for part in parts}
        root = Path(folder)
        names = [path.relative_to(root).as_posix() for path in sorted(root.rglob("*")) if path.is_file()]
        found += [(endpoint, name) for name in [*bundles, *(n for n in names if n not in in_bundles)]]
    return found


def static_view(folder: str, bundles: Mapping[str, Sequence[str]]) -> Callable[[str], Response]:
    """The view of one static folder: each file (or bundle) through `send_asset`."""
    def static_file(filename: str) -> Response:
        return send_asset(folder, filename, bundles)

    return static_file


def init_app(app: Flask, bundles: Mapping[str, Sequence[str]] | None = None) -> None:
    """Serve the table's `static/` and every game's through `send_asset`, with `bundles` (a name for files under
    the table's served as one, in order), and give every static URL its content's fingerprint. Called once every
    game's Blueprint is registered."""
    # Each static endpoint: its folder and its bundles (the table's alone has any).
    served: dict[str, tuple[str, Mapping[str, Sequence[str]]]] = {
        endpoint: (folder, dict(bundles or {}) if endpoint == "static" else {})
        for endpoint, folder in static_folders(app).items()}
    app.extensions["static_folders"] = served
    for endpoint, (folder, kept) in served.items():
        app.view_functions[endpoint] = static_view(folder, kept)

    # A file's fingerprint, once per process: a page names the frame's script (eight files) and its sheets each time
    # it is drawn. While debugging, files change under the running app: looked at each time.
    fingerprints: dict[tuple[str, str], str] = {}

    @app.url_defaults
    def fingerprint_static(endpoint: str, values: dict[str, object]) -> None:
        if endpoint not in served or "filename" not in values or "v" in values:
            return
        filename = values["filename"]
        if not isinstance(filename, str):
            return
        fingerprint = fingerprints.get((endpoint, filename))
        if fingerprint is None:
            folder, kept = served[endpoint]
            asset = asset_at(folder, filename, kept)
            fingerprint = asset.fingerprint if asset is not None else None
            if not app.debug and fingerprint is not None:
                fingerprints[endpoint, filename] = fingerprint
        if fingerprint is not None:
            values["v"] = fingerprint
