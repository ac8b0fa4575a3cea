"""Parlett's Dracula on the table: its rules (`rules`), its pad file (`pad`), and the game the shelf offers (`kind`)."""
