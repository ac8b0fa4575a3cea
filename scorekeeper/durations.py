"""How long things took in this process, kept as counts per span of time: the write lock's wait and hold.

A `Durations` counts each duration in a span of ten per cent of its length (from 10 µs up), so keeping one costs an
increment and its percentiles are right to within five per cent, in any number of processes: each logs its counts
as it stops (`lines`, when `FIGURES` is set), and whoever reads the logs adds them up (`Durations.parse`, the
benchmark's).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable

from flask import Flask, current_app, has_app_context

EXTENSION = "scorekeeper.durations"
# The spans: the first ends at 10 µs, each next one is 10 % longer than the one before.
SMALLEST, GROWTH = 1e-5, 1.1
_LINE = re.compile(r"durations '([^']+)': (\d+) in ((?:\d+:\d+ ?)*)")


class Durations:
    """Durations counted by span: how many, and their percentiles to within five per cent."""

    def __init__(self) -> None:
        self.spans: Counter[int] = Counter()

    def add(self, seconds: float) -> None:
        """Count one duration."""
        self.spans[_span(seconds)] += 1

    @property
    def count(self) -> int:
        """How many durations were counted."""
        return sum(self.spans.values())

    def percentile(self, share: float) -> float:
        """The duration below which `share` of them lie (the middle of its span), in seconds; 0 for none."""
        wanted = max(1, math.ceil(share * self.count))
        seen = 0
        for span in sorted(self.spans):
            seen += self.spans[span]
            if seen >= wanted:
                return SMALLEST * GROWTH ** (span - 0.5) if span else SMALLEST / 2
        return 0.0

    def line(self, name: str) -> str:
        """The counts as one log line, which `parse` reads back."""
        spans = " ".join(f"{span}:{count}" for span, count in sorted(self.spans.items()))
        return f"durations {name!r}: {self.count} in {spans}"

    @classmethod
    def parse(cls, lines: Iterable[str]) -> dict[str, Durations]:
        """The durations logged in `lines` (by any number of processes), added up by name."""
        found: dict[str, Durations] = {}
        for line in lines:
            for match in _LINE.finditer(line):
                kept = found.setdefault(match[1], cls())
                for pair in match[3].split():
                    span, count = pair.split(":")
                    kept.spans[int(span)] += int(count)
        return found


def _span(seconds: float) -> int:
    """The span a duration falls in: 0 up to 10 µs, then one per ten per cent more."""
    if seconds <= SMALLEST:
        return 0
    return 1 + int(math.log(seconds / SMALLEST, GROWTH))


def durations(name: str, app: Flask | None = None) -> Durations:
    """The app's durations of that name in this process (made on first use)."""
    kept: dict[str, Durations] = (app or current_app).extensions.setdefault(EXTENSION, {})
    found = kept.get(name)
    if found is None:
        found = kept[name] = Durations()
    return found


def note(name: str, seconds: float) -> None:
    """Count a duration of `name` in this process (nothing outside an app)."""
    if has_app_context():
        durations(name).add(seconds)


def lines(app: Flask) -> list[str]:
    """This process's durations, a log line each."""
    kept: dict[str, Durations] = app.extensions.get(EXTENSION, {})
    return [found.line(name) for name, found in sorted(kept.items())]
