"""Skull King, the first game on the shelf: its rules, trick judge, pad file, storage and pages."""

# Its name in addresses and the database.
NAME = "skull-king"
