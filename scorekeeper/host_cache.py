"""What the processes of one server draw alike, drawn by one of them: a folder they share, made for the run.

Each server process keeps what every screen of a game sees alike at one edition (the shared table, drawn once per
edition and language, see `views.rendering.drawn_once`). With several processes (gunicorn's workers), every process
drew it again: the writer's for its answer and its streams, each other's for its own streams. Through this folder
the first to draw it claims it, and the others wait a moment for its drawing rather than draw it themselves. It is
made by the server's master process when the server starts and removed when it stops (`gunicorn_config`), so what
it holds is of this run's database alone; without it (one process: the development server, the tests) nothing is
shared and nothing is waited for.

The games themselves go the same way: the process that stores a change keeps the game as it stored it here too
(`games.keep`), so the others' screens take it from here rather than read it from the database (a read costs four
times as much as taking it from a file in memory, measured on a game of seven hands).
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import tempfile
import threading
import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from .logs import Trouble, one_line

# Where the server's master tells its workers the folder (the environment is inherited at the fork).
FOLDER_VARIABLE = "SCOREKEEPER_HOST_CACHE"
# Where an app keeps its host cache (None: it has none).
HOST_CACHE = "host_cache"
# How long a process waits for another's drawing before it draws it itself (the other may have gone).
WAIT_SECONDS = 0.1
# How often it looks meanwhile.
LOOK_EVERY_SECONDS = 0.002
# What is older than this goes: the other processes take a drawing within moments of its edition, and a screen
# that wakes later reads a newer one anyway. (A busy server writes some tens of drawings a second.)
KEPT_SECONDS = 60.0
# A sweep looks at this many files at a time, then lets the process's requests and streams go on (under the server,
# `time.sleep(0)` is gevent's: it yields).
SWEEP_SLICE = 100
# Where the folder goes: in memory where the system offers it (a file there costs a tenth of one on a disk), else
# in the temporary folder; an operator's TMPDIR comes first.
SHARED_MEMORY = "/dev/shm"


class HostCache:
    """Drawings shared by the processes of one server: each a file named after its key, written whole (a temporary
    file renamed), and beside it the claim of the process drawing it."""

    def __init__(self, folder: Path, logger: logging.Logger | None = None) -> None:
        self.folder = folder
        # Where a file it cannot read or write is said, once until files work again (the app's logger).
        self.trouble = Trouble(logger or logging.getLogger(__name__), "host cache")
        # Paths as text and files through os: pathlib's objects cost three times the file's own work here.
        self.prefix = os.path.join(folder, "")
        self.next_sweep = time.monotonic() + KEPT_SECONDS

    def _path(self, key: Hashable) -> str:
        return self.prefix + hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest()

    def _read(self, key: Hashable) -> bytes:
        with open(self._path(key), "rb") as file:
            return file.read()

    def in_trouble(self, what: str, error: BaseException) -> None:
        """Say that a file of the folder could not be read or written (the process draws for itself meanwhile), once
        until one can again."""
        self.trouble.said(f"cannot {what} in {self.folder}",
                          f" ({one_line(error)}); this process draws for itself meanwhile")

    def get(self, key: Hashable) -> Any:
        """The value kept under `key` (`put`), or None. Pickled: only the server's own processes can write in its
        folder (`make_folder` makes it for its user alone)."""
        try:
            return pickle.loads(self._read(key))
        except FileNotFoundError:
            # Not drawn yet, or swept: the usual answer.
            return None
        except (OSError, pickle.UnpicklingError, EOFError, ValueError) as error:
            self.in_trouble("read a file", error)
            return None

    def claim(self, key: Hashable) -> bool:
        """Whether this process is the first to draw `key` (and so draws it); False: another one is drawing it."""
        try:
            os.close(os.open(self._path(key) + ".claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            return False
        except OSError as error:
            # Drawn here then, as if no other process shared the work.
            self.in_trouble("claim a drawing", error)
            return True
        return True

    def wait(self, key: Hashable, seconds: float = WAIT_SECONDS) -> Any:
        """The drawing under `key` once the process that claimed it wrote it; None if that took over `seconds`."""
        deadline = time.monotonic() + seconds
        while True:
            found = self.get(key)
            if found is not None or time.monotonic() >= deadline:
                return found
            # Under the server, gevent's sleep: the process's other requests and streams go on meanwhile.
            time.sleep(LOOK_EVERY_SECONDS)

    def put(self, key: Hashable, value: Any) -> None:
        """Keep a value of plain Python data (a drawing, a game as it is stored) for the other processes."""
        self._write(key, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def _write(self, key: Hashable, data: bytes) -> None:
        # Written whole, a temporary file renamed: a reader never sees half of it.
        path = self._path(key)
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            file = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(file, data)
            finally:
                os.close(file)
            os.replace(temporary, path)
        except OSError as error:
            self.in_trouble("write a file", error)
            return
        self.trouble.over(f"files are written in {self.folder} again")
        if time.monotonic() >= self.next_sweep:
            self.sweep_soon()

    def sweep_soon(self) -> threading.Thread | None:
        """Start sweeping the folder beside this process's work, unless another process sweeps it this period."""
        # A busy server's folder holds tens of thousands of files: one sweep, made inside the write that found it due,
        # held up every request and stream of its process for over half a second, in every process at the same time.
        self.next_sweep = time.monotonic() + KEPT_SECONDS
        if not self.claim(("sweep", int(time.time() // KEPT_SECONDS))):
            return None
        # Under the server a thread is a greenlet (gevent), which the sweep lets others run beside.
        sweeping = threading.Thread(target=self.sweep, name="host cache sweep", daemon=True)
        sweeping.start()
        return sweeping

    def sweep(self, older_than: float = KEPT_SECONDS) -> int:
        """Remove the drawings, games and claims older than `older_than` seconds, a slice at a time; how many went."""
        limit, gone = time.time() - older_than, 0
        with os.scandir(self.folder) as entries:
            for seen, entry in enumerate(entries, start=1):
                if seen % SWEEP_SLICE == 0:
                    time.sleep(0)
                try:
                    if entry.stat().st_mtime < limit:
                        os.unlink(entry.path)
                        gone += 1
                except FileNotFoundError:
                    # Renamed or swept by another process meanwhile.
                    continue
                except OSError as error:
                    self.in_trouble("remove an old file", error)
        return gone


# A run's folder is named after its master process, so a later run can tell one whose master is gone.
FOLDER_PREFIX = "scorekeeper-host-"


def make_folder() -> str:
    """A new folder for one run of the server, in memory if the system has it (see SHARED_MEMORY); the folders of
    runs whose master was killed (and so never removed its own) are removed first."""
    in_memory = not os.environ.get("TMPDIR") and os.path.isdir(SHARED_MEMORY) and os.access(SHARED_MEMORY, os.W_OK)
    parent = SHARED_MEMORY if in_memory else tempfile.gettempdir()
    sweep_left_behind(Path(parent))
    return tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-", dir=parent)


def sweep_left_behind(parent: Path) -> list[Path]:
    """Remove the run folders in `parent` whose master process is gone; those removed."""
    import shutil

    removed = []
    for folder in parent.glob(FOLDER_PREFIX + "*"):
        pid = folder.name.removeprefix(FOLDER_PREFIX).split("-", 1)[0]
        if not pid.isdigit() or _alive(int(pid)) or not folder.is_dir():
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    """Whether a process `pid` runs (another user's counts: it is not ours to remove)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def init_app(app: Flask) -> None:
    """Give `app` the host cache of its server (`HOST_CACHE_FOLDER`, by default the folder the master made), if
    it has one."""
    folder = app.config.get("HOST_CACHE_FOLDER") or os.environ.get(FOLDER_VARIABLE)
    app.extensions[HOST_CACHE] = HostCache(Path(folder), app.logger) if folder and Path(folder).is_dir() else None


def current() -> HostCache | None:
    """The host cache of the current app's server, or None (one process: nothing shared)."""
    found: HostCache | None = current_app.extensions.get(HOST_CACHE)
    return found
