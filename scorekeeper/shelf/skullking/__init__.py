"""Skull King: its rules, its pad file, its hands and its screens, a kind on the shelf like the others."""
