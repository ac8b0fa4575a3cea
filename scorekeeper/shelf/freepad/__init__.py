"""The free pad: any game with points, typed each round from the phones: its rules, its pad file, the game the shelf
offers (`kind`)."""
