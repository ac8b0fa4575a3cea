"""Sum a py-spy profile of the server (`py-spy record --format raw`) by what the time was spent on.

Each sample is one stack; it is counted once under the first area (in the order below) that
one of its frames belongs to, so the shares add up to the whole. Taken as docs/performance.md says:
`py-spy record --pid <gunicorn master> --subprocesses --format raw --rate 100 --nonblocking`.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# (area, a pattern some frame of the stack matches), first match wins: the narrower areas come first.
# A frame reads "function (file.py:line)"; a stream's frames all lie under `gzipped`.
AREAS = [
    ("live stream: compressing events", re.compile(r"deflated \(scorekeeper/event_stream\.py")),
    ("live stream: rendering the shared table (once per edition)",
     re.compile(r"gzipped \(scorekeeper.*(shared_table|shared_screen|shared_pad) \(")),
    ("live stream: the own card",
     re.compile(r"gzipped \(scorekeeper.*((card_context|card_key|own_card) \(|block_card \()")),
    ("live stream: waking, reading the game's version", re.compile(r"gzipped \(scorekeeper")),
    ("write: the change (service, rows)", re.compile(r"\(scorekeeper/(service|rows)\.py:")),
    ("write: the page it answers with", re.compile(r"after \(scorekeeper/views/rendering\.py:")),
    ("page loads and joins", re.compile(r"\(scorekeeper/(views|shelf)/")),
    ("live watcher: polling the event log", re.compile(r"poll \(scorekeeper/live\.py:")),
    ("sending: writing to the sockets", re.compile(r"SocketMixin\.send")),
    ("request handling (gunicorn, werkzeug, flask, compression)", re.compile(r"gunicorn|werkzeug|flask")),
]


def summarize(path: Path) -> Counter:
    """Samples per area."""
    totals: Counter = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        area = next((name for name, pattern in AREAS if pattern.search(stack)), "other")
        totals[area] += int(count)
    return totals


def main() -> None:
    """Print the share of each area, busiest first (py-spy leaves out idle samples unless told)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path)
    totals = summarize(parser.parse_args().profile)
    busy = sum(totals.values())
    print(f"{busy} samples")
    for area, samples in totals.most_common():
        print(f"{samples:8d}  {100 * samples / busy:5.1f} %  {area}")


if __name__ == "__main__":
    main()
