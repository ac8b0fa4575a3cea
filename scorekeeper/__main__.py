"""Run the command line as `python -m scorekeeper`."""

from .cli import main

main()
