"""The process's cache of values by version: the newest kept, the oldest let go, safe without a lock."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict

from scorekeeper.games import VersionCache


def test_the_values_used_longest_ago_go_first_when_there_are_too_many() -> None:
    kept = VersionCache(size=3)
    for n in range(3):
        kept.put(n, f"value {n}")
    assert kept.get(0) == "value 0"  # used now: 1 is the oldest
    kept.put(3, "value 3")
    assert kept.get(1) is None
    assert [kept.get(n) for n in (0, 2, 3)] == ["value 0", "value 2", "value 3"]
    assert len(kept.items) == 3


def test_threads_that_read_and_keep_at_once_never_fail_and_never_keep_more_than_its_size() -> None:
    kept = VersionCache(size=2)
    failures: list[BaseException] = []

    def hammer(offset: int) -> None:
        try:
            for n in range(20_000):
                key = (offset + n) % 4
                kept.put(key, key)
                found = kept.get((key + 1) % 4)
                assert found is None or found == (key + 1) % 4
        except BaseException as failure:  # any failure of a thread is the test's
            failures.append(failure)

    threads = [threading.Thread(target=hammer, args=(n,)) for n in range(4)]
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns between almost any two steps
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switching)
    assert not failures
    assert len(kept.items) <= 2


def test_a_key_another_thread_lets_go_between_two_steps_is_only_a_miss() -> None:
    """The race the lock-free cache allows, made to happen: the key goes between finding it and marking it used."""

    class LetGoMeanwhile(OrderedDict):
        def move_to_end(self, key: object, last: bool = True) -> None:
            self.pop(key, None)  # another thread let it go just now
            super().move_to_end(key, last)

    kept = VersionCache(size=2)
    kept.items = LetGoMeanwhile({"old": 1})
    assert kept.get("old") in (1, None)
    kept.put("new", 2)  # its own key gone before it is marked: nothing fails
    kept.put("newer", 3)
    assert len(kept.items) <= 2


def test_a_cache_counts_what_it_found_and_what_it_made_and_the_time_that_took() -> None:
    """The figures that show whether a cache pays for itself (the benchmark prints them from every process)."""
    from flask import Flask

    from scorekeeper.games import cache_figures

    kept = VersionCache(size=4)
    assert kept.kept_or_made("a", lambda: 1) == 1
    assert kept.kept_or_made("a", lambda: 2) == 1
    assert kept.kept_while("b", 1, lambda: "one") == "one"
    assert kept.kept_while("b", 1, lambda: "again") == "one"
    assert kept.kept_while("b", 2, lambda: "two") == "two"  # made anew: what it was made of changed
    assert kept.get("c") is None and kept.get("a") == 1
    assert (kept.hits, kept.made) == (3, 4) and kept.making >= 0
    app = Flask(__name__)
    app.extensions["version_caches"] = {"drawn": kept}
    assert cache_figures(app) == [f"cache 'drawn': 3 found, 4 made in {kept.making * 1000:.0f} ms"]
