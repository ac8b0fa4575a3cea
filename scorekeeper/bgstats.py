"""A finished game as a play for the BG Stats app: its documented play-import JSON. Pure Python.

The fields follow BG Stats' "push plays from other apps" format (game with `bggId`, `name`,
`highestWins`, `noPoints`, `sourceGameId`; `playDate`, `durationMin`; players with `name`,
`score`, `winner`, `rank`, `startPlayer`, `sourcePlayerId`; `sourceName`, `sourcePlayId`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .standings import ranks

SOURCE_NAME = "Skull King scorekeeper"


def play(summary: Mapping[str, Any], public_id: str, started: datetime, finished: datetime | None,
         game_name: tuple[str, int | None, int]) -> dict[str, Any]:
    """The play of a finished game: who played, their scores and ranks, who won, when and how long.

    `game_name`: the game's name, BoardGameGeek id and starting seat as its kind gives them
    (without an id, BG Stats matches the game by name).
    """
    name, bgg_id, start_player = game_name
    totals = summary["totals"]
    lowest_wins = bool(summary.get("lowest_wins"))
    minutes = max(1, round(((finished or started) - started).total_seconds() / 60))
    players = []
    places = ranks(totals, lowest_wins)
    for index, player in enumerate(summary["players"]):
        players.append({
            "name": player,
            "score": totals[index],
            "winner": player in summary["winners"],
            "rank": places[index],
            "startPlayer": index == start_player,
            "role": "",
            "sourcePlayerId": f"{public_id}-{index}",
        })
    game: dict[str, Any] = {"name": name, "highestWins": not lowest_wins, "noPoints": False,
                            "sourceGameId": summary.get("group", summary["kind"])}
    if bgg_id is not None:
        game["bggId"] = bgg_id
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": public_id,
        "playDate": (finished or started).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": minutes,
        "board": "",
        "game": game,
        "players": players,
    }
