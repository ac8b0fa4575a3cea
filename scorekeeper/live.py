"""Live updates: one watcher per server process follows the event log and wakes the screens.

State lives in the database, so any process may have written a change; each process
polls the event log once per interval (one cheap indexed query, whatever the number of
phones) and wakes the server-sent-event streams of the games that changed.
"""

from __future__ import annotations

import threading
import time
from typing import Callable, Iterator

from sqlalchemy import func, select

from .models import Event

POLL_SECONDS = 0.1
KEEPALIVE_SECONDS = 15.0


class Watcher:
    """Follows the event log and tells waiting streams which games changed."""

    def __init__(self, session_factory: Callable) -> None:
        self.session_factory = session_factory
        self.condition = threading.Condition()
        self.versions: dict[int, int] = {}
        self.last_event = None
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def start(self) -> None:
        """Start the polling thread once per process."""
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="live-watcher", daemon=True)
                self.thread.start()

    def poll(self) -> None:
        """Read new events and wake the streams of their games."""
        with self.session_factory() as session:
            if self.last_event is None:
                self.last_event = session.scalar(select(func.max(Event.id))) or 0
                return
            rows = session.execute(
                select(Event.id, Event.game_id, Event.version).where(Event.id > self.last_event).order_by(Event.id)
            ).all()
        if not rows:
            return
        with self.condition:
            for event_id, game_id, version in rows:
                self.last_event = event_id
                self.versions[game_id] = max(version, self.versions.get(game_id, 0))
            self.condition.notify_all()

    def run(self) -> None:
        while True:
            try:
                self.poll()
            except Exception:  # noqa: BLE001 - a database hiccup must not end live updates
                time.sleep(1)
            time.sleep(POLL_SECONDS)

    def stream(self, game_id: int, version: int) -> Iterator[str]:
        """Server-sent events for one screen: the game's version each time it changes."""
        self.start()
        yield "retry: 1000\n\n"
        yield f"event: changed\ndata: {version}\n\n"
        seen = version
        while True:
            with self.condition:
                self.condition.wait_for(lambda: self.versions.get(game_id, 0) > seen, timeout=KEEPALIVE_SECONDS)
                current = self.versions.get(game_id, 0)
            if current > seen:
                seen = current
                yield f"event: changed\ndata: {current}\n\n"
            else:
                yield ": still here\n\n"
