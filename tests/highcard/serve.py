"""The app with every game on the shelf and the test game, served on 127.0.0.1 for the browser tests that sweep
every registered game: `python -m tests.highcard.serve` prints its address, as `scorekeeper serve` does."""

from gevent import monkey

# Before anything imports the standard library's sockets, as `scorekeeper serve` does.
monkey.patch_all()

from scorekeeper import create_app  # noqa: E402
from scorekeeper.cli import serve_app  # noqa: E402
from scorekeeper.shelf import INSTALLED  # noqa: E402
from tests.highcard.kind import HIGH_CARD  # noqa: E402


def main() -> None:
    """Serve every game and the test game on a free loopback port until stopped; its address first."""
    serve_app(create_app(games=[*INSTALLED, HIGH_CARD]), "127.0.0.1", 0,
              lambda port: print(f"http://127.0.0.1:{port}/", flush=True))


if __name__ == "__main__":
    main()
