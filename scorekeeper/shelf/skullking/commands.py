"""Skull King's commands for `scorekeeper`: the trick judge."""

from __future__ import annotations

import json
import sys

import click

from .rules import RULESETS
from .tricks import TrickError, describe, judge, parse_trick


@click.command()
@click.argument("ruleset", type=click.Choice(RULESETS))
@click.argument("cards")
@click.option("--json", "as_json", is_flag=True, help="Print the judgement as JSON.")
@click.option("--no-advanced", is_flag=True, help="Modern rules without Loot, the Kraken and the White Whale.")
@click.option("--expansion", is_flag=True, help="Modern rules with the 2025 Expansion Pack's cards.")
def trick(ruleset: str, cards: str, as_json: bool, no_advanced: bool, expansion: bool) -> None:
    """Judge one trick: who wins it, who leads next, what the winner captured ("yellow 14, pirate, skull king")."""
    if expansion and ruleset != "modern":
        click.echo("The Expansion Pack is an option of the modern rules only.", err=True)
        sys.exit(2)
    try:
        played = parse_trick(ruleset, cards, advanced=not no_advanced, expansion=expansion)
    except TrickError as error:
        click.echo(str(error), err=True)
        sys.exit(2)
    if not played:
        click.echo("Write the cards of the trick in the order played, separated by commas.", err=True)
        sys.exit(2)
    judgement = judge(ruleset, played, expansion=expansion)
    if as_json:
        click.echo(json.dumps(judgement.document(), ensure_ascii=False))
    else:
        click.echo("\n".join(describe(ruleset, played, judgement)))
