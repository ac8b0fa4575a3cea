"""A Skip-Bo match: its rules (`rules`), its pad file (`pad`), and the game the shelf offers (`kind`)."""
