"""The page script's size at revisions of this repository: its lines, its lines of code, its bytes minified and
compressed as the frame serves it.

    .venv/bin/python bench/page_script.py e583922 2716fe6 HEAD   # or no revision: the files as they are now

The page script is `static/app.js` where a revision has it, else the files of `static/app/`. A line of code is one
that is neither blank nor only a `//` comment. Bytes: each file minified by rjsmin and by the minifier the frame uses
(`scorekeeper.assets.minified`), then all of them brotli-compressed at level 11 together, as the frame's one file is.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import brotli
import rjsmin

from scorekeeper.assets import minified

ROOT = Path(__file__).resolve().parent.parent


def files_at(revision: str | None) -> dict[str, str]:
    """The page script's files at `revision` (None: the working tree), by path."""
    if revision is None:
        old = ROOT / "static" / "app.js"
        paths = [old] if old.exists() else sorted((ROOT / "static" / "app").glob("*.js"))
        return {str(path.relative_to(ROOT)): path.read_text("utf-8") for path in paths}
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", revision, "static/"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.split()
    paths = ["static/app.js"] if "static/app.js" in listed else sorted(
        path for path in listed if path.startswith("static/app/") and path.endswith(".js"))
    return {path: subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, check=True, capture_output=True,
                                 text=True).stdout for path in paths}


def code_lines(text: str) -> int:
    """Lines that are neither blank nor only a `//` comment."""
    return sum(1 for line in text.splitlines() if line.strip() and not line.strip().startswith("//"))


def main(revisions: list[str]) -> None:
    """Print a row of figures for each revision."""
    print(f"{'revision':<10} {'files':>5} {'lines':>6} {'code':>5} {'rjsmin B':>9} {'served B':>9} {'br 11 B':>8}")
    for revision in revisions or [None]:
        files = files_at(revision)
        texts = list(files.values())
        served = [minified(Path(path), text.encode("utf-8")) for path, text in files.items()]
        print(f"{revision or 'now':<10} {len(files):>5} {sum(len(t.splitlines()) for t in texts):>6} "
              f"{sum(map(code_lines, texts)):>5} {sum(len(rjsmin.jsmin(t).encode('utf-8')) for t in texts):>9} "
              f"{sum(map(len, served)):>9} {len(brotli.compress(b''.join(served), quality=11)):>8}")


if __name__ == "__main__":
    main(sys.argv[1:])
